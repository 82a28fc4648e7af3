"""Convolutions over small images computed transposed (strata_conv2d_nchw_packed_t_f32,
[Note: small images, filters along the vectors] in strata/backends/cpu/kernels_conv.py):
a ResNet last-stage block (3x3 stride 2 down to 7x7 with bias and ReLU, the 1x1 stride-2
downsample, 3x3 + residual + ReLU) through the whole CPU pipeline against onnxruntime,
static and run-time batches, checked for the transposed kernel's calls; convolutions the
rule leaves to the other kernels (fewer than two filter panels, a 1x1 stride-1 window,
a large image) do not call it."""
from __future__ import annotations

import re

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from strata.conversion.cpu_kernel_abi import conv_transposed  # noqa: E402

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(5)
F32 = np.float32
KERNEL = "strata_conv2d_nchw_packed_t_f32"


def _w(f, c, k):
    return (RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)).astype(F32)


def _block(cin, cout, hw, batch):
    """y = relu(conv3x3(relu(conv3x3_s2(x) + b1)) + b2 + conv1x1_s2(x)): ResNet's
    downsampling basic block."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1] * 4, strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1] * 4),
        helper.make_node("Conv", ["x", "wd"], ["d"], strides=[2, 2]),
        helper.make_node("Add", ["c2", "d"], ["a"]),
        helper.make_node("Relu", ["a"], ["y"])]
    weights = {"w1": _w(cout, cin, 3), "b1": RNG.standard_normal(cout).astype(F32),
               "w2": _w(cout, cout, 3), "b2": RNG.standard_normal(cout).astype(F32),
               "wd": _w(cout, cin, 1)}
    g = helper.make_graph(
        nodes, "block", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                       [batch, cin, hw, hw])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a, n) for n, a in weights.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _lowered(tmp_path, model):
    f = strata.compile(model, dump_dir=str(tmp_path), cache=False)
    return f, next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()


def _against_ort(f, model, xs):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for x in xs:
        got = f(x)[0]
        want = sess.run(None, {"x": x})[0]
        np.testing.assert_allclose(got, want, rtol=1e-4,
                                   atol=1e-4 * max(float(np.abs(want).max()), 1.0))


def _t_calls(ir):
    """[(accumulate, flags)] of the transposed kernel's calls (arguments 23 and 25)."""
    out = []
    for args in re.findall(rf"call @{KERNEL}\(([^)]*)\)", ir):
        a = [x.strip() for x in args.split(",")]
        out.append(tuple(int(re.match(r"%c(\d+)_i32", a[i]).group(1)) for i in (22, 24)))
    return out


@pytest.mark.parametrize("cin,cout,hw,batch", [(48, 64, 14, 1), (40, 70, 13, "n")])
def test_last_stage_block(tmp_path, cin, cout, hw, batch):
    """The stride-2 3x3 (bias + ReLU in its epilogue) and the 1x1 stride-2 downsample
    (accumulating into the 3x3 branch's output, + ReLU: the residual epilogue) run
    transposed (7x7 outputs, 64 and 70 filters: two panels, 70 not a multiple of NR);
    the 7x7 3x3 of so few channels is Winograd's."""
    from strata.conversion.cpu_kernel_abi import EPI_ROW_BIAS, epi_flags
    model = _block(cin, cout, hw, batch)
    f, ir = _lowered(tmp_path, model)
    calls = _t_calls(ir)
    assert sorted(calls) == [(0, epi_flags(EPI_ROW_BIAS, "relu")),
                             (1, epi_flags(0, "relu"))], calls
    assert "strata_conv2d_nchw_packed_epi_f32" not in ir
    assert "linalg.generic" not in ir     # bias, ReLU, residual: all in the kernels
    # the padded copy of the stride-2 conv's output is not made: the transposed kernel
    # reads the image (flat rows, which read the copy, are the other kernels')
    assert "memref.copy" not in ir and "linalg.map" not in ir
    xs = [RNG.standard_normal((n, cin, hw, hw)).astype(F32)
          for n in ((1,) if batch == 1 else (1, 3, 2))]
    _against_ort(f, model, xs)


def test_rule_leaves_others(tmp_path):
    """32 filters (one panel), a 1x1 stride-1 window, a 14x14 output: not transposed."""
    from strata.backends.cpu.kernels import host_isa
    nr = host_isa().nr
    assert conv_transposed(2 * nr, 7, 7, (3, 3, 1, 1), nr)
    assert not conv_transposed(2 * nr - 1, 7, 7, (3, 3, 1, 1), nr)
    assert not conv_transposed(2 * nr, 7, 7, (1, 1, 1, 1), nr)
    assert conv_transposed(2 * nr, 7, 7, (1, 1, 2, 2), nr)
    assert not conv_transposed(2 * nr, 14, 14, (3, 3, 1, 1), nr)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1] * 4),
             helper.make_node("Conv", ["a", "w2"], ["b"]),
             helper.make_node("Conv", ["b", "w3"], ["y"], pads=[1] * 4)]
    weights = {"w1": _w(nr, 16, 3), "w2": _w(2 * nr, nr, 1), "w3": _w(2 * nr, 2 * nr, 3)}
    g = helper.make_graph(
        nodes, "others", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                        [1, 16, 14, 14])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a, n) for n, a in weights.items()])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)
    f, ir = _lowered(tmp_path, model)
    assert KERNEL not in ir
    _against_ort(f, model, [RNG.standard_normal((1, 16, 14, 14)).astype(F32)])


def test_padding_read_in_place(tmp_path):
    """A padded 3x3 on a 7x7 image (4 channels: not Winograd's) runs transposed on the
    unpadded image: no zero-filled padded copy (the flat rows the other kernels run on
    that copy are not this kernel's)."""
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1] * 4),
             helper.make_node("Relu", ["c"], ["y"])]
    g = helper.make_graph(
        nodes, "pad", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4, 7, 7])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(_w(64, 4, 3), "w"),
         numpy_helper.from_array(RNG.standard_normal(64).astype(F32), "b")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)
    f, ir = _lowered(tmp_path, model)
    assert len(_t_calls(ir)) == 1
    assert "memref.copy" not in ir and "linalg.map" not in ir and "linalg.fill" not in ir
    _against_ort(f, model, [RNG.standard_normal((n, 4, 7, 7)).astype(F32) for n in (1, 2)])
