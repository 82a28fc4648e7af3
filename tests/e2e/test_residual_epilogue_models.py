"""Residual adds fused into the convolution / GEMM kernels' epilogue (see [Note: residual
epilogues] in strata/conversion/linalg_to_microkernels.py), through the whole CPU
pipeline: small ONNX models against onnxruntime, each checked for the kernel call that
accumulates into the residual's buffer (accumulate = 1, the epilogue's flags) and for no
elementwise loop left; and the cases that must keep the add after the kernel (the
residual read again later, a function input, a view) still answering right."""
from __future__ import annotations

import re

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from strata.conversion.cpu_kernel_abi import EPI_ROW_BIAS, epi_flags  # noqa: E402

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(11)
F32 = np.float32
CONV = "strata_conv2d_nchw_packed_epi_f32"


def _model(nodes, inputs, weights, outputs=("y",)):
    g = helper.make_graph(
        nodes, "res", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                       for n, s in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
        [numpy_helper.from_array(np.asarray(a, F32), n) for n, a in weights.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _w(f, c, k):
    return RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)


def _calls(tmp_path, model, kernel):
    """(compiled, [(accumulate, flags)] of the calls of `kernel`, lowered IR)."""
    f = strata.compile(model, dump_dir=str(tmp_path), cache=False)
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    calls = re.findall(rf"call @{kernel}\(.*%c(\d)_i32(?:_\d+)?, %\w+, %c(\d+)_i32"
                       rf"(?:_\d+)?, %\w+\)", lowered)
    return f, [(int(a), int(fl)) for a, fl in calls], lowered


def _against_ort(f, model, feeds):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for feed in feeds:
        got = f(**feed)
        for g, want in zip(got, sess.run(None, feed)):
            scale = max(float(np.abs(want).max(initial=1.0)), 1.0)
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4 * scale)


def _residual(k, s, act_nodes, cin=24, cout=40, hw=10, pads=None):
    """r = Conv1x1(x) (the residual: a buffer of the model), c = Conv kxk(x) + bias at
    stride s, y = act(c + r)."""
    pads = [k // 2] * 4 if pads is None else pads
    nodes = [helper.make_node("Conv", ["x", "w0"], ["r"], strides=[s, s]),
             helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=pads, strides=[s, s]),
             helper.make_node("Add", ["c", "r"], ["a"])] + act_nodes
    return _model(nodes, [("x", ["n", cin, hw, hw])],
                  {"w0": _w(cout, cin, 1), "w": _w(cout, cin, k),
                   "b": RNG.standard_normal(cout)})


def _clip():
    return [helper.make_node("Clip", ["a", "lo", "hi"], ["y"])]


ACTS = {
    "relu": [helper.make_node("Relu", ["a"], ["y"])],
    "none": [helper.make_node("Identity", ["a"], ["y"])],
    "sigmoid": [helper.make_node("Sigmoid", ["a"], ["y"])],
    "hardswish": [helper.make_node("HardSwish", ["a"], ["y"])],
    "silu": [helper.make_node("Sigmoid", ["a"], ["s"]), helper.make_node("Mul", ["a", "s"],
                                                                        ["y"])],
}


@pytest.mark.parametrize("act", sorted(ACTS) + ["relu6"])
@pytest.mark.parametrize("k,s", [(1, 1), (3, 2)])
def test_conv_residual_activation(tmp_path, act, k, s):
    """A 1x1 convolution (the packed "np" kind) and a 3x3 stride-2 one (implicit im2col)
    + bias + residual + each activation: one call accumulating into the residual."""
    model = _residual(k, s, _clip() if act == "relu6" else ACTS[act])
    if act == "relu6":
        model.graph.initializer.extend([numpy_helper.from_array(np.array(0, F32), "lo"),
                                        numpy_helper.from_array(np.array(6, F32), "hi")])
    f, calls, lowered = _calls(tmp_path, model, CONV)
    assert calls == [(1, epi_flags(EPI_ROW_BIAS, act))], calls
    assert "linalg.generic" not in lowered
    x = (RNG.standard_normal((2, 24, 10, 10)) * 3).astype(F32)
    _against_ort(f, model, [{"x": x}, {"x": x[:1].copy()}])


def test_large_reduction_accumulates_every_block(tmp_path):
    """K = 576 * 9 (more than one K block): the residual is added once, the epilogue
    applied after the last block."""
    model = _residual(3, 2, ACTS["relu"], cin=576, cout=20, hw=7)
    f, calls, _ = _calls(tmp_path, model, CONV)
    assert calls == [(1, epi_flags(EPI_ROW_BIAS, "relu"))], calls
    _against_ort(f, model, [{"x": RNG.standard_normal((1, 576, 7, 7)).astype(F32)}])


def test_resnet_bottleneck(tmp_path):
    """ResNet's bottleneck as the exporter gives it (batch norm folded into the
    convolutions' filters and biases): the identity (a ReLU's output), 1x1 -> ReLU,
    3x3 -> ReLU, 1x1, Add(identity), ReLU; the last convolution accumulates into the
    identity's buffer."""
    c, m = 32, 8
    nodes = [helper.make_node("Relu", ["x"], ["id"])]
    weights = {}
    prev = "id"
    for i, (cin, cout, k) in enumerate([(c, m, 1), (m, m, 3), (m, c, 1)]):
        nodes.append(helper.make_node("Conv", [prev, f"w{i}", f"b{i}"], [f"c{i}"],
                                      pads=[k // 2] * 4))
        weights.update({f"w{i}": _w(cout, cin, k), f"b{i}": RNG.standard_normal(cout)})
        if i < 2:
            nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
            prev = f"r{i}"
    nodes += [helper.make_node("Add", ["c2", "id"], ["a"]), helper.make_node("Relu", ["a"],
                                                                            ["y"])]
    model = _model(nodes, [("x", ["n", c, 14, 14])], weights)
    f, calls, lowered = _calls(tmp_path, model, CONV)
    assert calls == [(0, epi_flags(EPI_ROW_BIAS, "relu")),
                     (1, epi_flags(EPI_ROW_BIAS, "relu"))], calls
    assert lowered.count("linalg.generic") == 1     # the identity's ReLU
    _against_ort(f, model, [{"x": RNG.standard_normal((n, c, 14, 14)).astype(F32)}
                            for n in (1, 2)])


def test_residual_read_later_stays(tmp_path):
    """The residual is also an output (read after the product): the kernel must not
    overwrite it, the add stays after it."""
    model = _residual(1, 1, ACTS["relu"])
    model.graph.output.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, None))
    f, calls, lowered = _calls(tmp_path, model, CONV)
    assert calls == [(0, epi_flags(EPI_ROW_BIAS, "none"))], calls
    assert "linalg.generic" in lowered
    _against_ort(f, model, [{"x": RNG.standard_normal((1, 24, 10, 10)).astype(F32)}])


def test_residual_input_stays(tmp_path):
    """The residual is an input of the function (not ours to write): the add stays."""
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"]),
             helper.make_node("Add", ["c", "r"], ["a"]), helper.make_node("Relu", ["a"], ["y"])]
    model = _model(nodes, [("x", [1, 8, 6, 6]), ("r", [1, 12, 6, 6])],
                   {"w": _w(12, 8, 1), "b": RNG.standard_normal(12)})
    f, calls, lowered = _calls(tmp_path, model, CONV)
    assert calls == [(0, epi_flags(EPI_ROW_BIAS, "none"))], calls
    assert "linalg.generic" in lowered
    feed = {"x": RNG.standard_normal((1, 8, 6, 6)).astype(F32),
            "r": RNG.standard_normal((1, 12, 6, 6)).astype(F32)}
    r = feed["r"].copy()
    _against_ort(f, model, [feed])
    np.testing.assert_array_equal(feed["r"], r)


def test_residual_is_the_convolution_input(tmp_path):
    """y = Relu(Conv(r) + r), r a buffer of the model: the convolution reads r while the
    kernel would write it, so the add stays."""
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Conv", ["r", "w", "b"], ["c"]),
             helper.make_node("Add", ["c", "r"], ["a"]), helper.make_node("Relu", ["a"], ["y"])]
    model = _model(nodes, [("x", [1, 16, 6, 6])],
                   {"w": _w(16, 16, 1), "b": RNG.standard_normal(16)})
    f, calls, lowered = _calls(tmp_path, model, CONV)
    assert all(a == 0 for a, _ in calls), calls
    _against_ort(f, model, [{"x": RNG.standard_normal((1, 16, 6, 6)).astype(F32)}])


@pytest.mark.parametrize("bias", ["vector", "zero", "scalar"])
@pytest.mark.parametrize("act", [None, "Relu"])
def test_projection_bias_residual(tmp_path, bias, act):
    """A transformer's output projection: y = act(t . W + b + h) over [1, S, N] (h a
    buffer of the model, another projection's output): b a vector along N, HF's zero
    bias (folded to x + 0.0), or a scalar; the GEMM accumulates into h with b in its
    epilogue, no elementwise pass left."""
    S, K, N = 12, 20, 24
    b = {"vector": RNG.standard_normal(N), "zero": np.zeros(N), "scalar": np.full((), 0.5)}
    nodes = [helper.make_node("MatMul", ["x", "w0"], ["h"]),
             helper.make_node("MatMul", ["x", "w2"], ["t"]),
             helper.make_node("MatMul", ["t", "w1"], ["c"]),
             helper.make_node("Add", ["c", "b"], ["cb"]),
             helper.make_node("Add", ["cb", "h"], ["y" if act is None else "s"])]
    if act is not None:
        nodes.append(helper.make_node(act, ["s"], ["y"]))
    model = _model(nodes, [("x", [1, S, K])],
                   {"w0": RNG.standard_normal((K, N)) / np.sqrt(K),
                    "w1": RNG.standard_normal((N, N)) / np.sqrt(N), "b": b[bias],
                    "w2": RNG.standard_normal((K, N)) / np.sqrt(K)})
    f, calls, lowered = _calls(tmp_path, model, "strata_sgemm_packed_epi_f32")
    assert (1, epi_flags(1, "none" if act is None else "relu")) in calls, calls
    assert "linalg.generic" not in lowered.split("func.func")[-1]
    _against_ort(f, model, [{"x": RNG.standard_normal((1, S, K)).astype(F32)}])
