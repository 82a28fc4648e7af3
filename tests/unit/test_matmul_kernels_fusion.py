"""ONNX matrix products compiled for the CPU target against NumPy: several and broadcast
batch dims (static and dynamic) reaching the GEMM micro-kernels, transposed operands read
in place (strata-linalg-fold-into-contractions), bias and residual additions folded into
the kernels' accumulator, and where they must not be. The passes' IR is checked in
tests/lit/passes/strata-linalg-fold-into-contractions and
tests/lit/conversion/linalg-to-microkernels."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("llvmlite")

from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402

RNG = np.random.default_rng(7)
F32 = np.float32


def _model(nodes, inputs, outputs, inits=None):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, T.FLOAT, s) for n, s in inputs],
                     [h.make_tensor_value_info(n, T.FLOAT, None) for n in outputs],
                     [nh.from_array(v, k) for k, v in (inits or {}).items()])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def _compile(model, tmp_path):
    """The compiled model and the text of each pass's IR by pass name."""
    import strata
    f = strata.compile(model, target="cpu", dump_dir=str(tmp_path))

    def ir(name):
        return next(tmp_path.glob(f"*-{name}.mlir")).read_text()
    return f, ir


def _kernel_calls(text):
    import re
    return sorted(re.findall(r"call @(strata_\w+)\(", text))


def _check(f, feeds, want, rtol=1e-4, atol=1e-4):
    got = f(**feeds)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=rtol, atol=atol)


def test_batch_dims_reach_kernels(tmp_path):
    """4-D and 5-D products: equal batch dims, batch dims broadcast (size 1 against n,
    and missing), a [b, s, K] input times a [K, N] weight (one GEMM of b*s rows on the
    packed weight): every product is a kernel call, no scalar loop nest is left."""
    w = RNG.standard_normal((7, 6)).astype(F32)
    m = _model([h.make_node("MatMul", ["a", "b"], ["y0"]),        # [2,3,5,7] x [2,3,7,4]
                h.make_node("MatMul", ["c", "d"], ["y1"]),        # [2,1,5,7] x [1,3,7,4]
                h.make_node("MatMul", ["e", "f"], ["y2"]),        # [2,1,3,5,7] x [4,1,7,6]
                h.make_node("MatMul", ["g", "w"], ["y3"]),        # [2,5,7] x [7,6] weight
                h.make_node("MatMul", ["c", "b"], ["y4"])],       # [2,1,5,7] x [2,3,7,4]
               [("a", [2, 3, 5, 7]), ("b", [2, 3, 7, 4]), ("c", [2, 1, 5, 7]),
                ("d", [1, 3, 7, 4]), ("e", [2, 1, 3, 5, 7]), ("f", [4, 1, 7, 6]),
                ("g", [2, 5, 7])], ["y0", "y1", "y2", "y3", "y4"], {"w": w})
    feeds = {i.name: RNG.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim])
             .astype(F32) for i in m.graph.input}
    f, ir = _compile(m, tmp_path)
    lowered = ir("strata-linalg-to-microkernels")
    assert '"reduction"]' not in lowered and "linalg.batch_matmul" not in lowered
    assert _kernel_calls(lowered).count("strata_sgemm_packed_f32") == 1
    x = feeds
    _check(f, feeds, [x["a"] @ x["b"], x["c"] @ x["d"], x["e"] @ x["f"], x["g"] @ w,
                      x["c"] @ x["b"]])


def test_dynamic_batch_dims(tmp_path):
    """Batch dims unknown until run time (named, and broadcast against a static one):
    collapsed at run time from the buffers' sizes; the same code for other sizes."""
    m = _model([h.make_node("MatMul", ["q", "k"], ["s"]),
                h.make_node("MatMul", ["s", "v"], ["o"])],
               [("q", ["b", "h", 6, 8]), ("k", ["b", "h", 8, 6]), ("v", [1, "h", 6, 5])],
               ["s", "o"])
    f, ir = _compile(m, tmp_path)
    lowered = ir("strata-linalg-to-microkernels")
    assert '"reduction"]' not in lowered
    for b, hh in ((1, 3), (2, 4)):
        q = RNG.standard_normal((b, hh, 6, 8)).astype(F32)
        k = RNG.standard_normal((b, hh, 8, 6)).astype(F32)
        v = RNG.standard_normal((1, hh, 6, 5)).astype(F32)
        s = q @ k
        _check(f, {"q": q, "k": k, "v": v}, [s, s @ v])


def test_transposed_operands_read_in_place(tmp_path):
    """A . B^T with the transpose feeding only the product: the _nt kernel reads B where
    it is (2-D, 4-D, and a permutation that moves a batch dim: the product keeps two
    batch dims); a transpose with another user is materialized once."""
    m = _model([h.make_node("Transpose", ["k2"], ["k2t"], perm=[1, 0]),
                h.make_node("MatMul", ["q2", "k2t"], ["y0"]),
                h.make_node("Transpose", ["k4"], ["k4t"], perm=[0, 1, 3, 2]),
                h.make_node("MatMul", ["q4", "k4t"], ["y1"]),
                h.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 3, 1]),
                h.make_node("MatMul", ["q4", "xt"], ["y2"]),
                h.make_node("Transpose", ["k2"], ["k2u"], perm=[1, 0]),
                h.make_node("MatMul", ["q2", "k2u"], ["y3"]),
                h.make_node("Relu", ["k2u"], ["y4"])],
               [("q2", [5, 8]), ("k2", [6, 8]), ("q4", [2, 3, 5, 8]), ("k4", [2, 3, 6, 8]),
                ("x", [2, 6, 3, 8])], ["y0", "y1", "y2", "y3", "y4"])
    feeds = {i.name: RNG.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim])
             .astype(F32) for i in m.graph.input}
    f, ir = _compile(m, tmp_path)
    folded = ir("strata-linalg-fold-into-contractions")
    assert folded.count("linalg.transpose") == 1          # the one Relu reads too
    calls = _kernel_calls(ir("strata-linalg-to-microkernels"))
    assert calls.count("strata_sgemm_nt_f32") == 1 and \
        calls.count("strata_sgemm_nt_batched_f32") == 2, calls
    x = feeds
    _check(f, feeds, [x["q2"] @ x["k2"].T, x["q4"] @ x["k4"].transpose(0, 1, 3, 2),
                      x["q4"] @ x["x"].transpose(0, 2, 3, 1), x["q2"] @ x["k2"].T,
                      np.maximum(x["k2"].T, 0)])


def test_bias_and_residual_folded(tmp_path):
    """MatMul + bias (+ residual) and Gemm with C: the kernel accumulates into C made
    from the addends (no pass over the product after it). Not folded: a product with
    another user, a scaled Gemm (alpha != 1)."""
    import re
    ws = {f"w{i}": RNG.standard_normal((8, 6)).astype(F32) for i in range(5)}
    bias = RNG.standard_normal(6).astype(F32)
    c = RNG.standard_normal((1, 6)).astype(F32)
    m = _model([h.make_node("MatMul", ["x", "w0"], ["p0"]),
                h.make_node("Add", ["bias", "p0"], ["y0"]),           # bias
                h.make_node("MatMul", ["x", "w1"], ["p1"]),
                h.make_node("Add", ["p1", "bias"], ["p1b"]),
                h.make_node("Add", ["p1b", "r"], ["y1"]),             # bias + residual
                h.make_node("Gemm", ["x2", "w2", "c"], ["y2"], beta=0.5),
                h.make_node("MatMul", ["x", "w3"], ["p3"]),           # two users
                h.make_node("Add", ["p3", "bias"], ["y3"]),
                h.make_node("Relu", ["p3"], ["y4"]),
                h.make_node("Gemm", ["x2", "w4", "c"], ["y5"], alpha=2.0)],
               [("x", [2, 4, 8]), ("r", [2, 4, 6]), ("x2", [3, 8])],
               ["y0", "y1", "y2", "y3", "y4", "y5"], {**ws, "bias": bias, "c": c})
    x = RNG.standard_normal((2, 4, 8)).astype(F32)
    r = RNG.standard_normal((2, 4, 6)).astype(F32)
    x2 = RNG.standard_normal((3, 8)).astype(F32)
    f, ir = _compile(m, tmp_path)
    lowered = ir("strata-linalg-to-microkernels")
    # the argument before the tile word: accumulate into C (1: the folded addends) or
    # overwrite it (0); a bias alone is the epilogue's (flag 1) of an overwriting product
    acc = re.findall(r"call @strata_sgemm_packed_f32\(.*, %c([01])_i32(?:_\d+)?, %\w+\)",
                     lowered)
    assert sorted(acc) == ["0", "0", "1", "1"], acc
    epi = re.findall(r"call @strata_sgemm_packed_epi_f32\(.*, %c([01])_i32(?:_\d+)?, %\w+, "
                     r"%c(\d)_i32(?:_\d+)?, %\w+\)", lowered)
    assert epi == [("0", "1")], epi
    w = [ws[f"w{i}"] for i in range(5)]
    _check(f, {"x": x, "r": r, "x2": x2},
           [x @ w[0] + bias, x @ w[1] + bias + r, x2 @ w[2] + 0.5 * c, x @ w[3] + bias,
            np.maximum(x @ w[3], 0), 2 * (x2 @ w[4]) + c])


def test_bias_and_relu_in_the_kernel_epilogue(tmp_path):
    """Gemm (bias) + Relu and MatMul + Add + Relu on constant weights: one call of the
    packed kernel with its epilogue each (flags 17: bias and ReLU; no elementwise loop
    left), at batch 1, 5 and 64 (one row panel, a tail, several), 1 and 2 threads."""
    import re
    import strata
    w0 = RNG.standard_normal((40, 30)).astype(F32)
    w1 = RNG.standard_normal((40, 50)).astype(F32)
    b0 = RNG.standard_normal(40).astype(F32)
    b1 = RNG.standard_normal(50).astype(F32)
    m = _model([h.make_node("Gemm", ["x", "w0", "b0"], ["g"], transB=1),
                h.make_node("Relu", ["g"], ["r"]),
                h.make_node("MatMul", ["r", "w1"], ["p"]),
                h.make_node("Add", ["p", "b1"], ["q"]),
                h.make_node("Relu", ["q"], ["y"])],
               [("x", ["n", 30])], ["y"], {"w0": w0, "w1": w1, "b0": b0, "b1": b1})
    f, ir = _compile(m, tmp_path)
    lowered = ir("strata-linalg-to-microkernels")
    flags = re.findall(r"call @strata_sgemm_packed_epi_f32\(.*, %c(\d+)_i32(?:_\d+)?, %\w+\)",
                       lowered)
    assert flags == ["17", "17"], flags
    assert "linalg.generic" not in lowered
    for threads in (1, 2):
        g = strata.compile(m, target="cpu", num_threads=threads)
        for n in (1, 5, 64):
            x = RNG.standard_normal((n, 30)).astype(F32)
            want = np.maximum(np.maximum(x @ w0.T + b0, 0) @ w1 + b1, 0)
            _check(g, {"x": x}, [want])
