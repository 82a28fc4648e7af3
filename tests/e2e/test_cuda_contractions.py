"""Contractions on the cuda target as shared-memory tiled kernels
(strata-gpu-tile-contractions, [Note: the SIMT tiled contraction]) checked without a
GPU: the pipeline stopped before convert-gpu-to-nvvm runs in the interpreter (every
thread of every block, the workgroup buffers, the barriers) against NumPy /
onnxruntime, on shapes that hit the edges (M, N, K not multiples of the 64x64x16 tile,
K < 16, broadcast batch dims, B transposed), and the kernels' PTX goes through ptxas for
sm_80 and sm_90 (registers, shared memory, no spills)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import strata
from strata.backends.cuda import ptxas
from strata.backends.cuda.target import compile_ahead


def _model(nodes, inputs, output, inits=()):
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info(n, t, s)
                                       for n, t, s in inputs],
                          [helper.make_tensor_value_info("output", output[0], output[1])],
                          list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def _matmul(a_shape, b_shape, dtype=TensorProto.FLOAT):
    return _model([helper.make_node("MatMul", ["a", "b"], ["output"], name="mm")],
                  [("a", dtype, a_shape), ("b", dtype, b_shape)], (dtype, None))


def _interpret(model, *xs):
    f = strata.compile(model, target="cuda-interpret", cache=False)
    out = f(*xs)
    return np.asarray(out[0] if isinstance(out, (list, tuple)) else out)


def _launches(model):
    """The kernels the cuda pipeline launches for `model`, and whether each is tiled
    (uses workgroup memory)."""
    from strata.backends.cuda.target import CudaTarget
    from strata.compiler import build_pipeline, load_module, target_pipeline
    module = load_module(model)
    t = CudaTarget(cuda_arch="sm_90")
    build_pipeline(list(target_pipeline(t, module))).run(module)
    build_pipeline(",".join(t.passes_before("convert-gpu-to-nvvm"))).run(module)
    kernels = [op for op in module.regions[0].ops if op.name == "gpu.module"]
    return len(kernels), sum("#gpu.address_space<workgroup>" in str(k) for k in kernels)


SHAPES = [((5, 7), (7, 9)),              # K < 16, everything inside one tile
          ((70, 33), (33, 130)),         # M, N past a tile, K past one step, ragged
          ((1, 16), (16, 64)),           # exact K step, one row
          ((2, 3, 17, 20), (20, 33)),    # batch dims on A only
          ((3, 1, 17, 20), (1, 2, 20, 33))]   # batch dims broadcast both ways


@pytest.mark.parametrize("a_shape,b_shape", SHAPES)
def test_matmul_matches_numpy(a_shape, b_shape):
    rng = np.random.default_rng(sum(a_shape) + sum(b_shape))
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    got = _interpret(_matmul(a_shape, b_shape), a, b)
    np.testing.assert_allclose(got, np.matmul(a, b), rtol=1e-5, atol=1e-5)


def test_matmul_f16_accumulates_in_f32():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((19, 40)).astype(np.float16)
    b = rng.standard_normal((40, 21)).astype(np.float16)
    got = _interpret(_matmul([19, 40], [40, 21], TensorProto.FLOAT16), a, b)
    ref = np.matmul(a.astype(np.float32), b.astype(np.float32))
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=2e-3, atol=2e-2)


def _gemm_relu(m_dim="N", k=37, n=70, seed=0):
    rng = np.random.default_rng(seed)
    w = numpy_helper.from_array(rng.standard_normal((n, k)).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "bias")
    nodes = [helper.make_node("Gemm", ["x", "w", "bias"], ["g"], transB=1, name="gemm"),
             helper.make_node("Relu", ["g"], ["output"], name="relu")]
    return _model(nodes, [("x", TensorProto.FLOAT, [m_dim, k])], (TensorProto.FLOAT, None),
                  [w, bias])


def test_gemm_bias_relu_is_one_tiled_kernel():
    ort = pytest.importorskip("onnxruntime")
    model = _gemm_relu()
    x = np.random.default_rng(1).standard_normal((67, 37)).astype(np.float32)
    got = _interpret(model, x)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    launches, tiled = _launches(model)
    assert (launches, tiled) == (1, 1)       # bias + ReLU in the kernel's store


def _attention(b=2, h=2, s=19, d=24):
    rng = np.random.default_rng(3)
    nodes = [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2], name="t"),
             helper.make_node("MatMul", ["q", "kt"], ["s"], name="qk"),
             helper.make_node("Mul", ["s", "scale"], ["ss"], name="scale"),
             helper.make_node("Softmax", ["ss"], ["p"], axis=-1, name="softmax"),
             helper.make_node("MatMul", ["p", "v"], ["output"], name="pv")]
    scale = numpy_helper.from_array(np.array(d ** -0.5, np.float32), "scale")
    ins = [(n, TensorProto.FLOAT, [b, h, s, d]) for n in ("q", "k", "v")]
    xs = [rng.standard_normal((b, h, s, d)).astype(np.float32) for _ in range(3)]
    return _model(nodes, ins, (TensorProto.FLOAT, None), [scale]), xs


def test_attention_block_matches_onnxruntime():
    ort = pytest.importorskip("onnxruntime")
    model, xs = _attention()
    got = _interpret(model, *xs)
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]
                               ).run(None, dict(zip("qkv", xs)))[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tiled_kernels_assemble(arch):
    program = compile_ahead(_gemm_relu(), arch=arch)
    (module, text), = program.ptx.items()
    assert ".shared" in text and "bar.sync" in text
    (usage,) = ptxas.resources(text, arch, f"{module}.ptx").values()
    # two double-buffered 16x64 f32 tiles; 16 accumulators and the staged loads in
    # registers, nothing spilled
    assert usage["smem"] == 2 * 2 * 16 * 64 * 4
    assert usage["spill_stores"] == 0 and usage["spill_loads"] == 0
    assert usage["registers"] <= 128


def _conv(cin=3, cout=10, k=3, stride=1, pad=1, relu=True, seed=4, dims=("N", 11, 13)):
    rng = np.random.default_rng(seed)
    w = numpy_helper.from_array(
        (rng.standard_normal((cout, cin, k, k)) * 0.3).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.standard_normal(cout).astype(np.float32), "bias")
    nodes = [helper.make_node("Conv", ["x", "w", "bias"], ["c" if relu else "output"],
                              pads=[pad] * 4, strides=[stride] * 2, name="conv")]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["output"], name="relu"))
    return _model(nodes, [("x", TensorProto.FLOAT, [dims[0], cin, *dims[1:]])],
                  (TensorProto.FLOAT, None), [w, bias])


@pytest.mark.parametrize("k,stride,pad", [(3, 1, 1), (3, 2, 0), (1, 1, 0)])
def test_conv_as_implicit_gemm_matches_onnxruntime(k, stride, pad):
    ort = pytest.importorskip("onnxruntime")
    model = _conv(k=k, stride=stride, pad=pad)
    x = np.random.default_rng(2).standard_normal((2, 3, 11, 13)).astype(np.float32)
    got = _interpret(model, x)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    # bias (the output's initial value) and ReLU in the kernel; padding: a copy before
    # it and a fill of the padded buffer's border (four pieces: a dynamic batch is
    # filled as a static one, [Note: dynamic sizes compared])
    assert _launches(model) == (1 if pad == 0 else 6, 1)


@pytest.mark.parametrize("k,stride,pad", [(3, 1, 1), (1, 2, 0)])
def test_conv_with_epilogue_and_runtime_image_size(k, stride, pad):
    """A convolution's output rows and columns are known from its output buffer only:
    with a fused epilogue (ReLU) that buffer is gone, and the kernel's loop sizes are
    read from the epilogue's output (the pass failed with an internal error)."""
    ort = pytest.importorskip("onnxruntime")
    model = _conv(k=k, stride=stride, pad=pad, dims=("N", "H", "W"))
    f = strata.compile(model, target="cuda-interpret", cache=False)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in [(1, 3, 9, 12), (2, 3, 6, 5)]:
        x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
        out = f(x)
        got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
        np.testing.assert_allclose(got, sess.run(None, {"x": x})[0], rtol=1e-5, atol=1e-5)
    assert _launches(model)[1] == 1          # one tiled kernel, ReLU in its store


def _ir_before_nvvm(model, **options):
    from strata.backends.cuda.target import CudaTarget
    from strata.compiler import build_pipeline, load_module, target_pipeline
    module = load_module(model)
    t = CudaTarget(cuda_arch="sm_90", **options)
    build_pipeline(list(target_pipeline(t, module))).run(module)
    build_pipeline(",".join(t.passes_before("convert-gpu-to-nvvm"))).run(module)
    return str(module)


@pytest.mark.parametrize("a_shape,b_shape", [((19, 40), (40, 21)), ((70, 33), (33, 130)),
                                             ((5, 7), (7, 9)), ((2, 3, 17, 20), (20, 33))])
def test_f16_matmul_on_tensor_cores(a_shape, b_shape):
    # f16 x f16 accumulated in f32 (then rounded to the f16 output): ldmatrix + mma.sync,
    # within an f16 rounding of the f32 product
    rng = np.random.default_rng(sum(a_shape))
    a = rng.standard_normal(a_shape).astype(np.float16)
    b = rng.standard_normal(b_shape).astype(np.float16)
    model = _matmul(a_shape, b_shape, TensorProto.FLOAT16)
    got = _interpret(model, a, b).astype(np.float32)
    ref = np.matmul(a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3)
    text = _ir_before_nvvm(model)
    assert text.count("nvgpu.mma.sync") == 4 and text.count("nvgpu.ldmatrix") == 4


def test_tf32_only_when_allowed():
    rng = np.random.default_rng(8)
    a = rng.standard_normal((37, 50)).astype(np.float32)
    b = rng.standard_normal((50, 70)).astype(np.float32)
    model = _matmul([37, 50], [50, 70])

    def tf32(x):
        return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    exact = _interpret(model, a, b)
    np.testing.assert_allclose(exact, a @ b, rtol=1e-5, atol=1e-5)   # default: f32 FMA
    assert "nvgpu" not in _ir_before_nvvm(model)
    f = strata.compile(model, target="cuda-interpret", cache=False, allow_tf32=True)
    out = f(a, b)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    np.testing.assert_allclose(got, tf32(a).astype(np.float64) @ tf32(b), rtol=1e-5,
                               atol=1e-5)
    assert np.abs(got - a @ b).max() > 1e-3          # (TF32 is visibly less precise)
    assert _ir_before_nvvm(model, allow_tf32=True).count("tf32Enabled") == 8


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("kind", ["f16", "tf32"])
def test_tensor_core_kernels_assemble(arch, kind):
    if kind == "f16":
        program = compile_ahead(_matmul(["N", 64], [64, 96], TensorProto.FLOAT16),
                                arch=arch)
        inst, smem = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 2 * 2 * 64 * 16 * 2
    else:
        program = compile_ahead(_matmul(["N", 64], [64, 96]), arch=arch, allow_tf32=True)
        inst, smem = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 2 * 2 * 64 * 16 * 4
    (module, text), = program.ptx.items()
    assert text.count(inst) == (4 if kind == "f16" else 8)
    (usage,) = ptxas.resources(text, arch, f"{module}.ptx").values()
    assert usage["smem"] == smem
    assert usage["spill_stores"] == 0 and usage["spill_loads"] == 0


def test_bf16_matmul_on_tensor_cores():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(9)
    a = rng.standard_normal((19, 40)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((40, 21)).astype(ml_dtypes.bfloat16)
    model = _matmul([19, 40], [40, 21], TensorProto.BFLOAT16)
    got = _interpret(model, a, b)
    assert got.dtype == ml_dtypes.bfloat16
    ref = a.astype(np.float32) @ b.astype(np.float32)
    # (bf16 keeps 8 mantissa bits: the f32 sum rounded once)
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=2 ** -8, atol=1e-2)
    assert _ir_before_nvvm(model).count("nvgpu.mma.sync") == 4
