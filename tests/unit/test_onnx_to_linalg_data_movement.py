"""convert-onnx-to-linalg, data movement / shape / gather-scatter families: small ONNX
models compiled with strata.compile(target="interpret") against onnxruntime, with
dynamic dims and run-time shape operands (the node tests are mostly static)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx_node_models import F, I32, I64, check, model, rand

from onnx import TensorProto, helper  # noqa: E402 (onnx_node_models skips without onnx)

B = TensorProto.BOOL
_NP = {F: np.float32, I64: np.int64, I32: np.int32}


# ------------------------------------------------------------------ reshapes


def test_reshape_dynamic_input_constant_shape():
    m = model("Reshape", [("x", F, ["N", 3, 4]), ("s", np.array([0, -1, 2], np.int64))],
               [("y", F, None)])
    check(m, rand(2, 3, 4))
    check(m, rand(5, 3, 4))


def test_reshape_runtime_shape():
    m = model("Reshape", [("x", F, [2, 3, 4]), ("s", I64, [3])], [("y", F, None)])
    check(m, rand(2, 3, 4), np.array([4, -1, 3], np.int64))
    check(m, rand(2, 3, 4), np.array([0, 0, -1], np.int64))


def test_flatten_squeeze_unsqueeze_dynamic():
    check(model("Flatten", [("x", F, ["N", 3, "M"])], [("y", F, None)], axis=2),
           rand(2, 3, 5))
    check(model("Unsqueeze", [("x", F, ["N", 3]), ("a", np.array([0, -1], np.int64))],
                  [("y", F, None)]), rand(4, 3))
    check(model("Squeeze", [("x", F, ["N", 1, 3]), ("a", np.array([1], np.int64))],
                  [("y", F, None)]), rand(4, 1, 3))


def test_transpose_concat_split_dynamic():
    check(model("Transpose", [("x", F, ["N", 3, "M"])], [("y", F, None)], perm=[2, 0, 1]),
           rand(2, 3, 5))
    check(model("Concat", [("a", F, ["N", 3]), ("b", F, ["M", 3])], [("y", F, None)],
                  axis=0), rand(2, 3), rand(4, 3, seed=1))
    check(model("Split", [("x", F, [7, "N"])], [("a", F, None), ("b", F, None),
                                                   ("c", F, None)], axis=0, num_outputs=3),
           rand(7, 2))


def test_attribute_forms_of_old_opsets():
    check(model("Split", [("x", F, [6, 2])], [("a", F, None), ("b", F, None)], opset=11,
                  axis=0, split=[2, 4]), rand(6, 2))
    check(model("Squeeze", [("x", F, [1, 3, 1])], [("y", F, None)], opset=11, axes=[-1]),
           rand(1, 3, 1))
    check(model("Unsqueeze", [("x", F, [3])], [("y", F, None)], opset=11, axes=[0, 2]),
           rand(3))
    check(model("Pad", [("x", F, [2, 3])], [("y", F, None)], opset=2, pads=[0, 1, 1, 0],
                  value=1.5), rand(2, 3))
    check(model("Pad", [("x", F, [2, 3])], [("y", F, None)], opset=2, pads=[1, 2, 1, 2],
                  mode="edge"), rand(2, 3))


# ------------------------------------------------------------------ slice


@pytest.mark.parametrize("starts,ends,axes,steps", [
    ([1, -1], [1000, -1000], [0, 1], [1, -2]),
    ([-3, 0], [-1, 4], [1, 0], [1, 3]),
    ([10], [-10], [0], [-1]),
])
def test_slice_runtime_operands(starts, ends, axes, steps):
    m = model("Slice", [("x", F, ["N", 6]), ("s", I64, [len(starts)]),
                         ("e", I64, [len(starts)]), ("a", I64, [len(starts)]),
                         ("t", I64, [len(starts)])], [("y", F, None)])
    arr = lambda v: np.array(v, np.int64)  # noqa: E731
    check(m, rand(5, 6), arr(starts), arr(ends), arr(axes), arr(steps))


def test_slice_opset1_attributes():
    m = model("Slice", [("x", F, [4, 5])], [("y", F, None)], opset=9, starts=[1, -3],
               ends=[3, 100], axes=[0, 1])
    check(m, rand(4, 5))


# ------------------------------------------------------------------ expand, tile, pad


def test_expand_tile_runtime():
    check(model("Expand", [("x", F, [3, 1]), ("s", I64, [3])], [("y", F, None)]),
           rand(3, 1), np.array([2, 1, 4], np.int64))
    check(model("Tile", [("x", F, ["N", 3]), ("r", I64, [2])], [("y", F, None)]),
           rand(2, 3), np.array([2, 3], np.int64))


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
def test_pad_modes_runtime_pads(mode):
    inputs = [("x", F, ["N", 4]), ("p", I64, [4])]
    if mode == "constant":
        inputs.append(("v", np.array(2.5, np.float32)))
    m = model("Pad", inputs, [("y", F, None)], mode=mode)
    check(m, rand(3, 4), np.array([1, 2, 2, 1], np.int64))
    if mode != "reflect":  # onnxruntime rejects negative reflect pads
        check(m, rand(3, 4), np.array([-1, 2, 0, -2], np.int64))


# ------------------------------------------------------------------ gathers, scatters


def test_gathers_negative_indices():
    check(model("Gather", [("x", F, ["N", 4]), ("i", I64, [2, 2])], [("y", F, None)],
                  axis=1), rand(3, 4), np.array([[0, -1], [2, -4]], np.int64))
    check(model("GatherElements", [("x", F, [3, 4]), ("i", I32, [3, 2])],
                  [("y", F, None)], axis=1), rand(3, 4), np.array([[0, -1], [2, 1], [3, -4]],
                                                                 np.int32))
    check(model("GatherND", [("x", F, [2, 3, 4]), ("i", I64, [2, 1, 1])],
                  [("y", F, None)], batch_dims=1), rand(2, 3, 4),
           np.array([[[2]], [[-1]]], np.int64))


@pytest.mark.parametrize("idx", [np.array([-3, -1], np.int64), np.array(2, np.int64),
                                 np.array([[0, 1], [2, 3]], np.int64)])
def test_gather_constant_indices(idx):
    """Constant indices in progression become a slice; others the general gather."""
    check(model("Gather", [("x", F, [3, 4]), ("i", idx)], [("y", F, None)], axis=1),
           rand(3, 4))


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
def test_scatters_with_duplicates(reduction):
    idx = np.array([[1, 0, 1], [2, 2, -1]], np.int64)
    check(model("ScatterElements", [("x", F, [3, 3]), ("i", I64, [2, 3]),
                                      ("u", F, [2, 3])], [("y", F, None)], axis=1,
                  reduction=reduction), rand(3, 3), idx, rand(2, 3, seed=1))
    if reduction != "none":  # duplicates are undefined without a reduction
        check(model("ScatterND", [("x", F, [4, 3]), ("i", I64, [3, 1]),
                                    ("u", F, [3, 3])], [("y", F, None)],
                      reduction=reduction), rand(4, 3), np.array([[1], [-1], [1]], np.int64),
               rand(3, 3, seed=1))


def test_onehot_trilu_eyelike():
    check(model("OneHot", [("i", I64, ["N"]), ("d", np.array(4, np.int64)),
                             ("v", np.array([0, 7], np.float32))], [("y", F, None)],
                  axis=0), np.array([0, 3, -1, 9], np.int64))
    check(model("Trilu", [("x", F, ["N", 5]), ("k", I64, [])], [("y", F, None)],
                  upper=0), rand(4, 5), np.array(1, np.int64))
    check(model("EyeLike", [("x", F, ["N", 5])], [("y", I32, None)], dtype=I32, k=-1),
           rand(4, 5))


def test_data_dependent_sizes():
    x = np.array([[0, 1.5, 0], [2, 0, -1], [0, 0, 0]], np.float32)
    check(model("NonZero", [("x", F, ["N", 3])], [("y", I64, None)]), x)
    check(model("Compress", [("x", F, ["N", 3]), ("c", B, [None])], [("y", F, None)],
                  axis=1), x, np.array([True, False, True]))
    check(model("Compress", [("x", F, [3, 3]), ("c", B, [None])], [("y", F, None)]),
           x, np.array([False, True, True, False, True]))


def test_shape_ops_dynamic():
    check(model("Shape", [("x", F, ["N", 3, "M"])], [("y", I64, None)], start=-2), rand(2, 3, 5))
    check(model("Size", [("x", F, ["N", 3])], [("y", I64, None)]), rand(4, 3))
    check(model("ConstantOfShape", [("s", I64, [2])], [("y", I32, None)],
                  value=helper.make_tensor("v", I32, [1], [7])), np.array([2, 3], np.int64))


@pytest.mark.parametrize("dtype,args", [(F, (1.0, 4.5, 0.5)), (I32, (10, -3, -4))])
def test_range_run_time_length(dtype, args):
    """Range lowered directly (not through its Loop function body)."""
    from strata.compiler import build_pipeline, load_module
    from strata.interpreter import Interpreter
    m = load_module(model("Range", [("a", dtype, []), ("b", dtype, []), ("c", dtype, [])],
                           [("y", dtype, None)]))
    build_pipeline("onnx-decompose{keep=Range},onnx-shape-inference,"
                   "convert-onnx-to-linalg").run(m)
    vals = [np.array(a, _NP[dtype]) for a in args]
    got = Interpreter(m).call("main", *vals)[0]
    np.testing.assert_allclose(got, np.arange(*vals).astype(_NP[dtype]))


def test_lowering_preserves_semantics():
    """The lowered module computes what the onnx module computed (onnx.reference)."""
    from strata.compiler import build_pipeline, load_module
    from strata.testing import check_pass_preserves_semantics
    m = load_module(model("Pad", [("x", F, [3, 4]), ("p", np.array([1, 0, 0, 2], np.int64))],
                           [("y", F, None)], mode="reflect"))
    build_pipeline(["onnx-shape-inference"]).run(m)
    check_pass_preserves_semantics(m, "convert-onnx-to-linalg")
    m = load_module(model("GatherND", [("x", F, [2, 3]), ("i", np.array([[1, -1]],
                                                                         np.int64))],
                           [("y", F, None)]))
    check_pass_preserves_semantics(m, "convert-onnx-to-linalg")
