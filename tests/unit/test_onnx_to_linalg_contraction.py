"""convert-onnx-to-linalg, contraction family (MatMul, Gemm, MatMulInteger,
QLinearMatMul, Einsum): the cases the node tests leave out — every rank pairing with
batch broadcasting, dynamic dims, integer and f16 products, transposes, zero points per
row, ellipsis broadcasting — against onnxruntime / ONNX's reference."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, F16, I32, I8, U8, check, expected, ints, model, rand

import strata


@pytest.mark.parametrize("sa,sb", [
    ([2, 1, 3, 4], [5, 4, 6]),          # broadcast batch dims: generic
    ([3, 4], [2, 4, 6]),                # rank 2 x 3: batch_matmul broadcasting A
    ([2, 3, 4], [4, 6]),                # rank 3 x 2
    ([4], [2, 3, 4, 6]),                # 1-D promoted
    ([2, 3, 4], [4]),
    ([4], [4, 3]),                      # vecmat
    ([3, 4], [4]),                      # matvec
    ([4], [4]),                         # dot
    ([2, 3, 5, 4], [2, 3, 4, 6]),       # batch collapsed for batch_matmul
])
def test_matmul_ranks(sa, sb):
    check(model("MatMul", [("a", F, sa), ("b", F, sb)], [("y", F, None)]),
          rand(*sa), rand(*sb, seed=1))


@pytest.mark.parametrize("sa,sb,xa,xb", [
    (["N", "M", 4], ["N", 4, "K"], (2, 3, 4), (2, 4, 5)),
    (["B", "H", "M", 4], ["B", "H", 4, "K"], (2, 3, 5, 4), (2, 3, 4, 5)),
    (["B", 1, "M", 4], [3, 4, "K"], (2, 1, 5, 4), (3, 4, 5)),
    (["M", 4], ["B", 4, "K"], (3, 4), (2, 4, 5)),
])
def test_matmul_dynamic(sa, sb, xa, xb):
    m = model("MatMul", [("a", F, sa), ("b", F, sb)], [("y", F, None)])
    check(m, rand(*xa), rand(*xb, seed=1))


def test_matmul_int32_and_f16():
    check(model("MatMul", [("a", I32, [3, 4]), ("b", I32, [4, 2])], [("y", I32, None)]),
          ints(3, 4, lo=-9, hi=9, dtype=np.int32), ints(4, 2, lo=-9, hi=9, dtype=np.int32))
    # f16 products accumulate in f32
    a, b = rand(3, 64).astype(np.float16), rand(64, 2, seed=1).astype(np.float16)
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    check(model("MatMul", [("a", F16, [3, 64]), ("b", F16, [64, 2])], [("y", F16, None)]),
          a, b, want=[want], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("attrs,cshape", [
    (dict(transA=1, transB=1, alpha=0.5, beta=2.0), []),
    (dict(transB=1), [3, 1]),
    (dict(beta=0.0), [5]),
    ({}, None),
])
def test_gemm(attrs, cshape):
    sa = [4, 3] if attrs.get("transA") else [3, 4]
    sb = [5, 4] if attrs.get("transB") else [4, 5]
    ins = [("a", F, sa), ("b", F, sb)] + ([("c", F, cshape)] if cshape is not None else [])
    args = [rand(*sa), rand(*sb, seed=1)] + ([rand(*cshape, seed=2)] if cshape is not None
                                            else [])
    check(model("Gemm", ins, [("y", F, None)], **attrs), *args)


def test_gemm_dynamic():
    m = model("Gemm", [("a", F, ["M", 4]), ("b", F, [4, "N"]), ("c", F, ["N"])],
              [("y", F, None)], alpha=3.0)
    check(m, rand(3, 4), rand(4, 5, seed=1), rand(5, seed=2))


def test_matmul_integer_per_row_zero_points():
    # onnxruntime only takes scalar zero points: the expected values are computed here
    a, b = ints(3, 4, lo=0, hi=256, dtype=np.uint8), ints(4, 2, lo=0, hi=256, dtype=np.uint8)
    az, bz = np.array([1, 2, 3], np.uint8), np.array([4, 5], np.uint8)
    want = (a.astype(np.int32) - az[:, None]) @ (b.astype(np.int32) - bz)
    m = model("MatMulInteger", [("a", U8, [3, 4]), ("b", U8, [4, 2]), ("az", U8, [3]),
                                ("bz", U8, [2])], [("y", I32, None)])
    check(m, a, b, az, bz, want=[want])


def test_matmul_integer_signed_batched():
    m = model("MatMulInteger", [("a", I8, [2, 3, 4]), ("b", I8, [4, 2]), ("az", I8, [])],
              [("y", I32, None)])
    check(m, ints(2, 3, 4), ints(4, 2, seed=1), np.array(-3, np.int8))


def test_qlinear_matmul_rounds_half_even_and_saturates():
    a = np.array([[255, 0], [3, 1]], np.uint8)
    b = np.array([[255, 1], [0, 1]], np.uint8)
    m = model("QLinearMatMul", [("a", U8, [2, 2]), ("as", F, []), ("az", U8, []),
                                ("b", U8, [2, 2]), ("bs", F, []), ("bz", U8, []),
                                ("ys", F, []), ("yz", U8, [])], [("y", U8, None)])
    args = [a, np.float32(1.0), np.uint8(0), b, np.float32(0.5), np.uint8(0),
            np.float32(1.0), np.uint8(10)]
    got = check(m, *[np.asarray(x) for x in args], ref="ref")
    assert got[0][0, 0] == 255 and got[0][1, 1] == 12  # saturated; 2.0 + 10


@pytest.mark.parametrize("eq,shapes", [
    ("...ij,...jk->...ik", [[2, 3, 4, 5], [3, 5, 6]]),   # ellipsis broadcast
    ("ij,jk", [[3, 4], [4, 5]]),                         # implicit output
    ("ii", [[4, 4]]),                                    # trace
    ("i,j,k->ijk", [[2], [3], [4]]),
    ("bij,bjk->bik", [[1, 4, 5], [1, 5, 6]]),
    ("...i,...i->...", [[1, 3, 4], [2, 1, 4]]),
])
def test_einsum(eq, shapes):
    ins = [(f"x{i}", F, s) for i, s in enumerate(shapes)]
    check(model("Einsum", ins, [("y", F, None)], equation=eq),
          *[rand(*s, seed=i) for i, s in enumerate(shapes)], ref="ref", rtol=1e-4)


def test_einsum_dynamic_and_integer():
    check(model("Einsum", [("a", F, ["N", 4]), ("b", F, [4, "M"])], [("y", F, None)],
                equation="ij,jk->ki"), rand(3, 4), rand(4, 5, seed=1))
    check(model("Einsum", [("a", I32, [3, 4]), ("b", I32, [4])], [("y", I32, None)],
                equation="ij,j->i"), ints(3, 4, dtype=np.int32),
          ints(4, dtype=np.int32, seed=1), ref="ref")


def test_bad_einsum_is_a_located_error():
    m = model("Einsum", [("a", F, [3, 4])], [("y", F, None)], equation="ij,jk->ik")
    with pytest.raises(strata.StrataError) as e:
        strata.compile(m, target="interpret")
    assert "has 2 inputs, the op 1" in e.value.diag.render({})


ONNX_MLIR = """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>)
    -> (tensor<2x3x5xf32>, tensor<3x5xf32>) {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %1 = "onnx.Einsum"(%a) <{equation = "bij->ij"}> : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  %2 = "onnx.Gemm"(%1, %b, %c) <{alpha = 2.0 : f32}> : (tensor<3x4xf32>, tensor<4x5xf32>,
      tensor<5xf32>) -> tensor<3x5xf32>
  return %0, %2 : tensor<2x3x5xf32>, tensor<3x5xf32>
}
"""


def test_lowering_preserves_semantics():
    from strata.testing import check_pass_preserves_semantics
    check_pass_preserves_semantics(ONNX_MLIR, "convert-onnx-to-linalg", rtol=1e-4)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("xa,xb,shapes", [
    (["N", 2, 3, "K"], [2, "M", "K", 5], [((2, 2, 3, 4), (2, 2, 4, 5)),
                                         ((1, 2, 3, 4), (2, 1, 4, 5))]),
    (["N", 2, 3, 4], [2, "M", 4, 5], [((2, 2, 3, 4), (2, 1, 4, 5))]),
])
def test_matmul_batch_dims_static_on_one_side_dynamic_on_the_other(target, xa, xb, shapes):
    """Found by tools/fuzz_onnx.py: batch dims (N, 2) x (2, M) broadcast to static
    sizes, the collapsed batch of the product stayed dynamic, and expanding it back
    made invalid IR ('tensor.expand_shape' op expected dimension 0 of collapsed type to
    be static value of 4)."""
    m = model("MatMul", [("a", F, xa), ("b", F, xb)], [("y", F, None)])
    f = strata.compile(m, target=target)
    for sa, sb in shapes:
        a, b = rand(*sa), rand(*sb, seed=1)
        want = expected(m, (a, b), "ort")[0]
        got = f(a, b)[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
