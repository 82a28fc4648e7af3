"""Linear layers at batch 1 and a few rows through the CPU target: ONNX Gemm / MatMul
with constant weights become strata_sgemm_packed_epi_f32 calls, which run products of
at most GEMV_MAX_ROWS rows on the few-rows path ([Note: few rows on packed B] in
strata/backends/cpu/kernels_gemm.py) and more on the blocked driver; compared with
onnxruntime at dynamic batches across that boundary (0 included), a static batch of 1,
on 1 and 2 threads; wrong inputs are refused before the native call."""
from __future__ import annotations

import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import helper  # noqa: E402

import strata  # noqa: E402
from strata.backends.cpu.kernels_gemm import GEMV_MAX_ROWS  # noqa: E402
from strata.runtime import InputError  # noqa: E402

from models import float_graph  # noqa: E402

RNG = np.random.default_rng(11)


def _w(seed, *shape):
    """Weights of `shape`, the same for every batch a model is built for."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)


def _mlp(batch):
    """An MLP as torch.onnx.export writes nn.Linear (Gemm, transB=1) + ReLU, big enough
    that its first two layers split their panels over the threads, then a 10-way head
    (one panel: a tail of one vector or less) and a sigmoid."""
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["g1"], transB=1, name="fc1"),
             helper.make_node("Relu", ["g1"], ["h1"], name="relu1"),
             helper.make_node("Gemm", ["h1", "w2", "b2"], ["g2"], transB=1, name="fc2"),
             helper.make_node("Relu", ["g2"], ["h2"], name="relu2"),
             helper.make_node("Gemm", ["h2", "w3", "b3"], ["g3"], transB=1, name="fc3"),
             helper.make_node("Sigmoid", ["g3"], ["y"], name="sigmoid")]
    inits = [("w1", _w(1, 600, 300)), ("b1", _w(2, 600)), ("w2", _w(3, 520, 600)),
             ("b2", _w(4, 520)), ("w3", _w(5, 10, 520)), ("b3", _w(6, 10))]
    return float_graph(nodes, [("x", [batch, 300])], [("y", None)], inits)


def _tokens(batch):
    """A MatMul over [batch, 3, K] rows (3 x batch rows: the few-rows path at batch 1,
    the blocked driver from 2) plus a bias, as transformers' projections export."""
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"], name="proj"),
             helper.make_node("Add", ["m", "b"], ["y"], name="bias")]
    return float_graph(nodes, [("x", [batch, 3, 96])], [("y", None)],
                       [("w", _w(7, 96, 200)), ("b", _w(8, 200))])


MODELS = {"mlp": (_mlp, (300,)), "tokens": (_tokens, (3, 96))}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", list(MODELS))
def test_few_rows_match_onnxruntime(tmp_path, name, threads):
    build, shape = MODELS[name]
    model = build("N")
    f = strata.compile(model, num_threads=threads, cache=False, dump_dir=str(tmp_path))
    text = next(tmp_path.glob("*strata-outline-linalg-ops.mlir")).read_text()
    assert re.findall(r"call @(strata_\w+)\(", text.split("{-#")[0]) == \
        ["strata_sgemm_packed_epi_f32"] * (3 if name == "mlp" else 1)
    static = strata.compile(build(1), num_threads=threads, cache=False)
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for n in (1, 2, 3, GEMV_MAX_ROWS, GEMV_MAX_ROWS + 1, 9, 0):
        x = RNG.standard_normal((n, *shape)).astype(np.float32)
        ref = sess.run(None, {"x": x})[0]
        outs = [np.asarray(f(x)[0])] + ([np.asarray(static(x)[0])] if n == 1 else [])
        for got in outs:
            assert got.shape == ref.shape, (n, got.shape, ref.shape)
            np.testing.assert_allclose(got, ref, rtol=1e-4,
                                       atol=1e-5 * max(np.abs(ref).max(initial=0), 1.0))
    with pytest.raises(InputError):
        f(RNG.standard_normal(shape).astype(np.float32))             # no batch dim
    with pytest.raises(InputError):
        f(RNG.standard_normal((1, *shape[:-1], shape[-1] + 1)).astype(np.float32))
    with pytest.raises(InputError):
        static(RNG.standard_normal((2, *shape)).astype(np.float32))  # batch 1 only
