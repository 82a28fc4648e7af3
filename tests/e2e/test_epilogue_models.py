"""Activations fused into the GEMM / convolution kernels' epilogue, through the whole CPU
pipeline: small ONNX models (a 1x1 convolution + Clip(0, 6), a 3x3 convolution +
HardSwish, Gemm + Gelu in its erf and tanh forms and as the exporter's Erf ops, MatMul
+ x * Sigmoid(x), HardSigmoid, Sigmoid) against onnxruntime, and a torch module (1x1
convolutions with SiLU and Hardswish, Linear + GELU) against eager. Each must call the
kernel with the epilogue's flags (bias, the activation's code: cpu_kernel_abi.ACTS), no
elementwise loop left, and match within 1e-4 of the output's largest magnitude, NaN and
infinities in the input too."""
from __future__ import annotations

import re

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from strata.conversion.cpu_kernel_abi import (EPI_BIAS, EPI_ROW_BIAS,  # noqa: E402
                                              epi_flags)

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(3)
F32 = np.float32


def _model(nodes, inputs, weights, opset=20):
    g = helper.make_graph(
        nodes, "epi", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                       for n, s in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a.astype(F32), n) for n, a in weights.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=9)


def _flags(tmp_path, model, kernel):
    f = strata.compile(model, dump_dir=str(tmp_path))
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    flags = re.findall(rf"call @{kernel}\(.*, %c(\d+)_i32(?:_\d+)?, %\w+\)", lowered)
    return f, flags, lowered


def _against_ort(f, model, feeds):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for feed in feeds:
        got, = f(**feed)
        want, = sess.run(None, feed)
        scale = max(float(np.nanmax(np.abs(want[np.isfinite(want)]), initial=1.0)), 1.0)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * scale, equal_nan=True)


def _conv(cin, cout, k, act_nodes, act, shape=(1, 8, 9, 9)):
    """Conv (a bias; 3x3 windows at stride 2, as MobileNetV3's stem: stride-1 3x3 ones
    take the Winograd kernel, whose epilogue has ReLU only) + the activation."""
    w = RNG.standard_normal((cout, cin, k, k)) / np.sqrt(cin * k * k)
    b = RNG.standard_normal(cout)
    s = 1 if k == 1 else 2
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[k // 2] * 4,
                              strides=[s, s])] + act_nodes
    return _model(nodes, [("x", ["n", cin, shape[2], shape[3]])], {"w": w, "b": b}), act


def _clip_model():
    lo, hi = numpy_helper.from_array(np.array(0, F32), "lo"), \
        numpy_helper.from_array(np.array(6, F32), "hi")
    m, act = _conv(8, 20, 1, [helper.make_node("Clip", ["c", "lo", "hi"], ["y"])], "relu6")
    m.graph.initializer.extend([lo, hi])
    return m, act


CONV_CASES = {
    "conv1x1_clip": _clip_model,
    "conv3x3_hardswish": lambda: _conv(8, 13, 3, [helper.make_node("HardSwish", ["c"], ["y"])],
                                       "hardswish"),
    "conv1x1_hardsigmoid": lambda: _conv(
        8, 16, 1, [helper.make_node("HardSigmoid", ["c"], ["y"], alpha=1 / 6, beta=0.5)],
        "hardsigmoid"),
    "conv1x1_silu": lambda: _conv(8, 24, 1, [helper.make_node("Sigmoid", ["c"], ["s"]),
                                             helper.make_node("Mul", ["c", "s"], ["y"])],
                                  "silu"),
    "conv3x3_sigmoid": lambda: _conv(8, 7, 3, [helper.make_node("Sigmoid", ["c"], ["y"])],
                                     "sigmoid"),
}


@pytest.mark.parametrize("name", sorted(CONV_CASES))
def test_conv_activation_in_the_epilogue(tmp_path, name):
    model, act = CONV_CASES[name]()
    f, flags, lowered = _flags(tmp_path, model, "strata_conv2d_nchw_packed_epi_f32")
    assert flags == [str(epi_flags(EPI_ROW_BIAS, act))], flags
    assert "linalg.generic" not in lowered
    x = (RNG.standard_normal((2, 8, 9, 9)) * 4).astype(F32)
    x[0, :, 0, 0] = [np.nan, np.inf, -np.inf, 1e4, -1e4, 50, -50, 0]
    _against_ort(f, model, [{"x": x}, {"x": x[:1].copy()}])


def test_grouped_conv_activation_in_the_epilogue(tmp_path):
    """A grouped convolution (RegNet-Y's: groups of 4 channels, 3x3 stride 2) + bias +
    x * Sigmoid(x): the grouped kernel's epilogue (the same micro-kernels)."""
    w = RNG.standard_normal((16, 4, 3, 3)) / 6
    b = RNG.standard_normal(16)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1] * 4, strides=[2, 2],
                              group=4),
             helper.make_node("Sigmoid", ["c"], ["s"]),
             helper.make_node("Mul", ["c", "s"], ["y"])]
    model = _model(nodes, [("x", ["n", 16, 9, 9])], {"w": w, "b": b})
    f, flags, lowered = _flags(tmp_path, model, "strata_conv2d_nchw_grouped_packed_epi_f32")
    assert flags == [str(epi_flags(EPI_ROW_BIAS, "silu"))], flags
    assert "linalg.generic" not in lowered
    _against_ort(f, model, [{"x": RNG.standard_normal((n, 16, 9, 9)).astype(F32)}
                            for n in (1, 2)])


def _gelu_erf_ops():
    """The exporter's GELU: x * 0.5 * (1 + Erf(x / sqrt(2)))."""
    consts = {"s2": np.array(1.4142135381698608), "one": np.array(1.0),
              "half": np.array(0.5)}
    return [helper.make_node("Div", ["g", "s2"], ["d"]),
            helper.make_node("Erf", ["d"], ["e"]),
            helper.make_node("Add", ["e", "one"], ["a"]),
            helper.make_node("Mul", ["g", "a"], ["m"]),
            helper.make_node("Mul", ["m", "half"], ["y"])], consts


def _gemm_case(kind):
    w = RNG.standard_normal((48, 32)) / np.sqrt(32)
    b = RNG.standard_normal(48)
    weights = {"w": w, "b": b}
    if kind == "gelu_ops":
        act_nodes, consts = _gelu_erf_ops()
        weights.update(consts)
        act = "gelu"
    elif kind == "silu":
        act_nodes = [helper.make_node("Sigmoid", ["g"], ["s"]),
                     helper.make_node("Mul", ["s", "g"], ["y"])]
        act = "silu"
    else:
        act_nodes = [helper.make_node("Gelu", ["g"], ["y"], approximate=kind)]
        act = "gelu" if kind == "none" else "gelu_tanh"
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1)] + act_nodes
    return _model(nodes, [("x", ["n", 32])], weights), act


@pytest.mark.parametrize("kind", ["none", "tanh", "gelu_ops", "silu"])
def test_gemm_activation_in_the_epilogue(tmp_path, kind):
    """Gemm with a bias and GELU (ONNX's Gelu op, erf and tanh; the exporter's Erf
    decomposition) or x * Sigmoid(x): strata_sgemm_packed_epi_f32 with the bias and the
    activation, at 1, 7 and 64 rows."""
    model, act = _gemm_case(kind)
    f, flags, lowered = _flags(tmp_path, model, "strata_sgemm_packed_epi_f32")
    assert flags == [str(epi_flags(EPI_BIAS, act))], flags
    assert "linalg.generic" not in lowered
    feeds = []
    for n in (1, 7, 64):
        x = (RNG.standard_normal((n, 32)) * 3).astype(F32)
        x[0, :4] = [np.nan, np.inf, -np.inf, 300]
        feeds.append({"x": x})
    _against_ort(f, model, feeds)


def test_matmul_silu_three_dims(tmp_path):
    """A MatMul of a [b, s, K] input by a constant [K, N], + bias, then x * Sigmoid(x)
    (a transformer MLP's first product): one GEMM over b*s rows with the epilogue."""
    w = RNG.standard_normal((16, 40)) / 4
    b = RNG.standard_normal(40)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["p"]),
             helper.make_node("Add", ["p", "b"], ["g"]),
             helper.make_node("Sigmoid", ["g"], ["s"]),
             helper.make_node("Mul", ["g", "s"], ["y"])]
    model = _model(nodes, [("x", [2, 5, 16])], {"w": w, "b": b})
    f, flags, lowered = _flags(tmp_path, model, "strata_sgemm_packed_epi_f32")
    assert flags == [str(epi_flags(EPI_BIAS, "silu"))], flags
    assert "linalg.generic" not in lowered
    _against_ort(f, model, [{"x": RNG.standard_normal((2, 5, 16)).astype(F32)}])


@pytest.mark.parametrize("kind", ["gelu", "relu", "bias"])
def test_channel_last_linear_through_a_reshape(tmp_path, kind):
    """ConvNeXt's Linear on a [1, H, W, C] image: MatMul by a constant [C, N] (the product
    on [H, W, C], its output expanded back into [1, H, W, N]), + bias, then Gelu (erf),
    Relu or nothing: the generic reads the product through the reshape, and the epilogue
    writes its output through the reversed one ([Note: epilogues through reshapes])."""
    w = RNG.standard_normal((16, 40)) / 4
    b = RNG.standard_normal(40)
    act = {"gelu": [helper.make_node("Gelu", ["g"], ["y"])],
           "relu": [helper.make_node("Relu", ["g"], ["y"])], "bias": []}[kind]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["p"]),
             helper.make_node("Add", ["p", "b"], ["g" if act else "y"])] + act
    model = _model(nodes, [("x", [1, 6, 6, 16])], {"w": w, "b": b})
    f, flags, lowered = _flags(tmp_path, model, "strata_sgemm_packed_epi_f32")
    assert flags == [str(epi_flags(EPI_BIAS, "none" if kind == "bias" else kind))], flags
    assert "linalg.generic" not in lowered
    _against_ort(f, model, [{"x": RNG.standard_normal((1, 6, 6, 16)).astype(F32)}])


@pytest.mark.parametrize("bias, act, flags", [
    (np.zeros(40), [], EPI_BIAS),                       # a zero bias (a fresh HF Linear)
    (np.full(40, -1.5), [helper.make_node("Relu", ["g"], ["a"])],
     epi_flags(EPI_BIAS, "relu"))])
def test_matmul_constant_bias_in_the_epilogue(tmp_path, bias, act, flags):
    """A [1, S, K] . [K, N] MatMul (a batch of one: still one 2-D product, so it takes an
    epilogue) + a bias of one value along N read through an Identity (the exporter
    shares one zero initializer between layers), then the heads' Reshape + Transpose of
    an attention: the importer folds the splat into a scalar of the elementwise body,
    and the epilogue's bias is all that value (a constant global of N copies), no loop
    left after the product; the zero bias makes a -0.0 sum +0.0 as onnxruntime's Add."""
    w = RNG.standard_normal((16, 40)) / 4
    w[:, 3] = 0.0               # column 3: -0.0 products of negative inputs
    nodes = [helper.make_node("Identity", ["b"], ["bq"]),
             helper.make_node("MatMul", ["x", "w"], ["p"]),
             helper.make_node("Add", ["bq", "p"], ["g"])] + act + [
             helper.make_node("Reshape", ["a" if act else "g", "heads"], ["r"]),
             helper.make_node("Transpose", ["r"], ["y"], perm=[0, 2, 1, 3])]
    model = _model(nodes, [("x", [1, 5, 16])], {"w": w, "b": bias})
    model.graph.initializer.append(numpy_helper.from_array(np.array([1, 5, 4, 10]), "heads"))
    f, got, lowered = _flags(tmp_path, model, "strata_sgemm_packed_epi_f32")
    assert got == [str(flags)], got
    assert "linalg.generic" not in lowered
    x = RNG.standard_normal((1, 5, 16)).astype(F32)
    _against_ort(f, model, [{"x": x}])
    y, = f(x=x)
    assert not np.signbit(y[:, 0, :, 3]).any()


def test_leaky_relu_is_not_an_epilogue(tmp_path):
    """An activation the kernels do not have (LeakyRelu) stays an elementwise op after the
    product, with the right answer."""
    model, _ = _conv(8, 12, 1, [helper.make_node("LeakyRelu", ["c"], ["y"], alpha=0.1)],
                     None)
    f, flags, lowered = _flags(tmp_path, model, "strata_conv2d_nchw_packed_epi_f32")
    assert flags == [str(EPI_ROW_BIAS)], flags
    assert "linalg.generic" in lowered
    _against_ort(f, model, [{"x": RNG.standard_normal((1, 8, 9, 9)).astype(F32)}])


def test_torch_module_activations_match_eager(tmp_path):
    """A torch module (no ONNX): 1x1 convolutions with BatchNorm + SiLU and Hardswish, a
    Linear + GELU (erf) and one + GELU (tanh); every activation in an epilogue (no
    elementwise generic left), within 1e-4 of eager."""
    torch = pytest.importorskip("torch")
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Conv2d(6, 16, 1)
            self.b = nn.Conv2d(16, 12, 1)
            self.fc1 = nn.Linear(12 * 7 * 7, 24)
            self.fc2 = nn.Linear(24, 10)

        def forward(self, x):
            y = nn.functional.hardswish(self.b(nn.functional.silu(self.a(x))))
            y = y.flatten(1)
            y = nn.functional.gelu(self.fc1(y))
            return nn.functional.gelu(self.fc2(y), approximate="tanh")

    torch.manual_seed(0)
    m = Net().eval()
    x = torch.randn(3, 6, 7, 7) * 3
    f = strata.compile(m, example_args=(x,), dump_dir=str(tmp_path))
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    conv = re.findall(r"call @strata_conv2d_nchw_packed_epi_f32\(.*, %c(\d+)_i32(?:_\d+)?, "
                      r"%\w+\)", lowered)
    gemm = re.findall(r"call @strata_sgemm_packed_epi_f32\(.*, %c(\d+)_i32(?:_\d+)?, %\w+\)",
                      lowered)
    assert conv == [str(epi_flags(EPI_ROW_BIAS, a)) for a in ("silu", "hardswish")], conv
    assert gemm == [str(epi_flags(EPI_BIAS, a)) for a in ("gelu", "gelu_tanh")], gemm
    assert "linalg.generic" not in lowered
    with torch.no_grad():
        want = m(x).numpy()
    out = f(x)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
