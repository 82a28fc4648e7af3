"""f16 models through the cuda pipeline, checked without a GPU: the pipeline up to
convert-gpu-to-nvvm interpreted against onnxruntime (f16 tolerances), and the PTX of
every kernel through ptxas for sm_80 and sm_90. Sums accumulate in f32
(strata-linalg-widen-reductions), matmuls run on tensor cores
(strata-gpu-tile-contractions, nvgpu.mma.sync)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import strata
from strata.backends.cuda import ptxas
from strata.backends.cuda.target import compile_ahead

ort = pytest.importorskip("onnxruntime")


def _model(nodes, shape, inits=()):
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT16,
                                                                     shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)],
                          list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def _w(rng, name, *shape, scale=1.0):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float16),
                                   name)


def _cases():
    rng = np.random.default_rng(0)
    one = {op: _model([helper.make_node(op, ["x"], ["y"], name=op, **attrs)], ["N", 37])
           for op, attrs in (("Relu", {}), ("Tanh", {}), ("Softmax", {"axis": -1}),
                             ("ReduceSum", {"keepdims": 0}))}
    one["ReduceMean_rows"] = _model([helper.make_node(
        "ReduceMean", ["x", "axes"], ["y"], name="mean", keepdims=1)], ["N", 37],
        [numpy_helper.from_array(np.array([-1], np.int64), "axes")])
    one["LayerNorm"] = _model([helper.make_node(
        "LayerNormalization", ["x", "s", "b"], ["y"], name="ln", axis=-1, epsilon=1e-5)],
        ["N", 37], [_w(rng, "s", 37), _w(rng, "b", 37)])
    # an MLP: Gemm (transB) + bias + ReLU, MatMul + Add: tensor cores, epilogues fused
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1, name="g1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("MatMul", ["r", "w2"], ["m"], name="mm"),
             helper.make_node("Add", ["m", "b2"], ["y"], name="add")]
    one["MLP"] = _model(nodes, ["N", 37], [_w(rng, "w1", 50, 37, scale=0.2),
                                           _w(rng, "b1", 50), _w(rng, "w2", 50, 19, scale=0.2),
                                           _w(rng, "b2", 19)])
    return one


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_f16_matches_onnxruntime(name):
    model = CASES[name]
    x = np.random.default_rng(1).standard_normal((5, 37)).astype(np.float16)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    out = strata.compile(model, target="cuda-interpret", cache=False)(x)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    assert got.dtype == np.float16
    # within two f16 roundings of the result's magnitude
    np.testing.assert_allclose(got.astype(np.float32), ref.astype(np.float32),
                               rtol=2e-3, atol=2e-3 * max(1.0, float(np.abs(ref).max())))


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_f16_kernels_assemble(arch):
    for name in ("MLP", "LayerNorm", "Softmax"):
        program = compile_ahead(CASES[name], arch=arch)
        for module, text in program.ptx.items():
            ptxas.check(text, arch, f"{name}/{module}.ptx")
        if name == "MLP":
            assert sum("mma.sync.aligned.m16n8k16" in t for t in program.ptx.values()) == 2


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_precision_f16_runs_an_f32_model_in_f16(name):
    import sys
    import pathlib
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    from models import cnn, mlp
    model, shape = {"mlp": (mlp(), (3, 64)), "cnn": (cnn(), (2, 3, 16, 16))}[name]
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"input": x})[0]
    out = strata.compile(model, target="cuda-interpret", cache=False, precision="f16")(x)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    assert got.dtype == np.float32                    # the model's dtype in and out
    err = np.abs(got - ref).max() / np.abs(ref).max()
    assert 1e-6 < err < 2e-3                          # f16's error, not f32's
    if name == "mlp":
        program = compile_ahead(model, arch="sm_90", precision="f16")
        assert sum("mma.sync.aligned.m16n8k16" in t for t in program.ptx.values()) == 3


def test_precision_is_checked():
    with pytest.raises(strata.StrataError, match="precision 'f8' is not 'f32' or 'f16'"):
        strata.compile(CASES["Relu"], target="cuda-interpret", precision="f8")


def test_f16_conv_on_tensor_cores():
    # an f16 convolution (implicit GEMM, f32 accumulation) + bias + ReLU: one tensor core
    # kernel after the padding copy
    rng = np.random.default_rng(4)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1] * 4, name="conv"),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT16, ["N", 3, 11, 13])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT16, None)], [_w(rng, "w", 10, 3, 3, 3, scale=0.3),
                                               _w(rng, "b", 10)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    x = rng.standard_normal((2, 3, 11, 13)).astype(np.float16)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    out = strata.compile(model, target="cuda-interpret", cache=False)(x)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    np.testing.assert_allclose(got.astype(np.float32), ref.astype(np.float32), rtol=2e-3,
                               atol=1e-2)
    program = compile_ahead(model, arch="sm_80")
    assert sum("mma.sync.aligned.m16n8k16" in t for t in program.ptx.values()) == 1
    # the padding's copy and border fill (four pieces, as with a static batch), then the
    # convolution with its bias (extended to the f32 accumulators) and ReLU inside
    from test_cuda_contractions import _launches
    assert _launches(model) == (6, 1)
