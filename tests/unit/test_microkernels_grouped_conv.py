"""Grouped and 1-D convolutions through strata-linalg-to-microkernels
(strata/conversion/linalg_to_microkernels.py, [Note: 1-D convolutions]; the kernels'
[Note: grouped convolutions] in strata/backends/cpu/kernels_conv.py): ONNX Conv models
compiled for the CPU call the grouped / NCHW kernels (no convolution left for the
loops, the bias and ReLU in the kernel's epilogue where the filter is constant) and
match onnxruntime."""
from __future__ import annotations

import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("llvmlite")

RNG = np.random.default_rng(18)


def _conv_model(shape, cout, group, k, stride, pad, dil, bias=True, relu=True,
                weight_input=False):
    """Conv (+ Relu) over an input of `shape` (N, C, spatial...), `cout` filters."""
    from onnx import TensorProto, helper, numpy_helper
    nd = len(shape) - 2
    w = RNG.standard_normal((cout, shape[1] // group) + (k,) * nd).astype(np.float32)
    inits = [] if weight_input else [numpy_helper.from_array(w * 0.3, "w")]
    ins = ["x", "w"]
    if bias:
        inits.append(numpy_helper.from_array(RNG.standard_normal(cout).astype(np.float32),
                                             "b"))
        ins.append("b")
    nodes = [helper.make_node("Conv", ins, ["c" if relu else "y"], group=group,
                              strides=[stride] * nd, pads=[pad] * (2 * nd),
                              dilations=[dil] * nd, name="conv")]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["y"], name="relu"))
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)]
    if weight_input:
        inputs.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, list(w.shape)))
    g = helper.make_graph(nodes, "conv", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), w


def _check(tmp_path, model, feeds, kernel, epi_flags=None):
    import strata
    f = strata.compile(model, dump_dir=str(tmp_path))
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    assert f"call @{kernel}(" in lowered
    assert "linalg.conv" not in lowered
    if epi_flags is not None:
        flags = re.findall(rf"call @{kernel}\(.*, %c(\d+)_i32(?:_\d+)?, %\w+\)", lowered)
        assert flags == [str(epi_flags)], flags
        assert "linalg.generic" not in lowered
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for feed in feeds:
        got, = f(*feed.values())
        want, = sess.run(None, feed)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape,cout,group,k,stride,pad,dil", [
    ([1, 8, 9, 9], 8, 2, 3, 1, 1, 1),
    ([2, 16, 11, 10], 12, 4, 3, 2, 1, 1),       # stride 2, F/group 3 < MR, odd sizes
    ([1, 64, 14, 14], 64, 32, 3, 1, 1, 1),      # ResNeXt-like: 32 groups of 2
    ([1, 48, 9, 9], 48, 2, 3, 1, 2, 2),         # 24 a group (RegNet-X), dilation 2
    ([1, 6, 7, 7], 12, 3, 1, 1, 0, 1),          # 1x1 (packed too: panels x image)
    ([1, 128, 6, 6], 64, 2, 3, 2, 1, 1),        # 64 channels a group
], ids=["g2", "g4s2", "g32", "g2d2", "g3_1x1", "g2c64"])
def test_grouped_conv_calls_the_grouped_kernel(tmp_path, shape, cout, group, k, stride, pad,
                                               dil):
    model, _ = _conv_model(shape, cout, group, k, stride, pad, dil)
    _check(tmp_path, model, [{"x": RNG.standard_normal(shape).astype(np.float32)}],
           "strata_conv2d_nchw_grouped_packed_epi_f32", 20)


def test_grouped_conv_without_bias_and_relu(tmp_path):
    """No epilogue: the packed kernel, overwriting its zero-filled output."""
    model, _ = _conv_model([1, 12, 8, 8], 6, 3, 3, 1, 1, 1, bias=False, relu=False)
    _check(tmp_path, model, [{"x": RNG.standard_normal((1, 12, 8, 8)).astype(np.float32)}],
           "strata_conv2d_nchw_grouped_packed_f32")


def test_grouped_conv_filter_input_and_dynamic_batch(tmp_path):
    """A filter fed at run time (not packed) and a dynamic batch (its size from the
    buffer's metadata)."""
    model, w = _conv_model(["n", 8, 7, 7], 4, 2, 3, 1, 1, 1, weight_input=True)
    feeds = [{"x": RNG.standard_normal((n, 8, 7, 7)).astype(np.float32), "w": w}
             for n in (1, 3)]
    _check(tmp_path, model, feeds, "strata_conv2d_nchw_grouped_f32")


@pytest.mark.parametrize("shape,cout,k,stride,pad,dil", [
    ([1, 80, 300], 64, 3, 1, 1, 1),      # Whisper's first conv, shorter
    ([1, 64, 301], 64, 3, 2, 1, 1),      # its second: stride 2, odd length
    ([2, 5, 40], 7, 5, 2, 2, 3),         # batch 2, dilation 3
    ([1, 16, 20], 24, 1, 1, 0, 1),       # 1x1: the packed filter times the image in place
], ids=["whisper1", "whisper2", "d3", "point"])
def test_conv1d_calls_the_nchw_kernel(tmp_path, shape, cout, k, stride, pad, dil):
    model, _ = _conv_model(shape, cout, 1, k, stride, pad, dil)
    _check(tmp_path, model, [{"x": RNG.standard_normal(shape).astype(np.float32)}],
           "strata_conv2d_nchw_packed_epi_f32", 20)


def test_conv1d_dynamic_length(tmp_path):
    """A run-time length: W and OW from the buffers, any input length."""
    model, w = _conv_model([1, 6, "t"], 8, 1, 3, 2, 1, 1, relu=False, weight_input=True)
    feeds = [{"x": RNG.standard_normal((1, 6, t)).astype(np.float32), "w": w}
             for t in (5, 33)]
    _check(tmp_path, model, feeds, "strata_conv2d_nchw_f32")


@pytest.mark.parametrize("shape,cout,group,k,stride,pad,dil", [
    ([1, 16, 30], 16, 4, 3, 1, 1, 1),
    ([2, 12, 41], 24, 3, 5, 2, 2, 2),    # batch 2, stride 2, dilation 2
], ids=["g4", "g3s2d2"])
def test_grouped_conv1d_calls_the_grouped_kernel(tmp_path, shape, cout, group, k, stride,
                                                 pad, dil):
    """A grouped 1-D convolution is the grouped 2-D one over a one-row image (the ONNX
    lowering adds a unit H dim by views): the grouped kernels, epilogue included."""
    model, _ = _conv_model(shape, cout, group, k, stride, pad, dil)
    _check(tmp_path, model, [{"x": RNG.standard_normal(shape).astype(np.float32)}],
           "strata_conv2d_nchw_grouped_packed_epi_f32", 20)


def test_grouped_conv_epilogue_with_dynamic_sizes(tmp_path):
    """A dynamic batch and image size: the ReLU's output is allocated with sizes read
    from the convolution's output view after it; those reads move before the kernel
    call, and the bias and ReLU are its epilogue still."""
    model, _ = _conv_model(["n", 16, "h", "w"], 8, 4, 3, 2, 1, 1)
    feeds = [{"x": RNG.standard_normal(s).astype(np.float32)}
             for s in ((1, 16, 9, 11), (2, 16, 12, 7))]
    _check(tmp_path, model, feeds, "strata_conv2d_nchw_grouped_packed_epi_f32", 20)
