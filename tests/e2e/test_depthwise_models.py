"""Depthwise convolutions through the whole CPU pipeline: a MobileNetV2 inverted-residual
block (ONNX, batch-norms folded by the exporter, ReLU6 as Clip) and an EfficientNet-style
block (5x5 stride 2, SiLU, squeeze-excitation) against onnxruntime, and torch modules
with groups=C convolutions (ReLU6, Hardswish, Sigmoid, dilation, a dynamic batch)
against eager. Each compiled model must call strata_dwconv2d_nchw_f32 with the padding
and the activation folded into it (no depthwise loop nest, no padded copy left) and
match within 1e-4 of the output's largest magnitude."""
from __future__ import annotations

import glob
import io
import warnings

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

import strata  # noqa: E402
from models import randomize_batch_norms  # noqa: E402

TOLERANCE = 1e-4
nn = torch.nn


def _bn_random(m):
    torch.manual_seed(0)
    return randomize_batch_norms(m)


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expand, 3x3 depthwise, 1x1 project (+ residual)."""

    def __init__(self, c=16, e=6, k=3, stride=1, act=nn.ReLU6, se=False):
        super().__init__()
        h = c * e
        self.expand = nn.Sequential(nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), act())
        self.dw = nn.Sequential(nn.Conv2d(h, h, k, stride, k // 2, groups=h, bias=False),
                                nn.BatchNorm2d(h), act())
        self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(h, 8, 1), nn.SiLU(),
                                nn.Conv2d(8, h, 1), nn.Sigmoid()) if se else None
        self.project = nn.Sequential(nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))
        self.residual = stride == 1

    def forward(self, x):
        y = self.dw(self.expand(x))
        if self.se is not None:
            y = y * self.se(y)
        y = self.project(y)
        return x + y if self.residual else y


def _lowered(f_compile, tmp_path):
    """The IR after strata-linalg-to-microkernels of a compile run by `f_compile(dump)`."""
    f = f_compile(str(tmp_path))
    path, = glob.glob(str(tmp_path / "*strata-linalg-to-microkernels.mlir"))
    with open(path) as fh:
        return f, fh.read()


def _close(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err < TOLERANCE, err


def _folded(ir, calls):
    assert ir.count("call @strata_dwconv2d_nchw_f32(") == calls
    assert "linalg.depthwise_conv_2d" not in ir
    assert "memref.copy" not in ir       # the padded copies went


@pytest.mark.parametrize("block", [
    dict(),                                              # MobileNetV2, stride 1
    dict(stride=2, c=8, e=4),                            # stride 2
    dict(k=5, stride=2, act=nn.SiLU, se=True, c=8, e=4),  # EfficientNet's MBConv
    # the flat code's small planes (7x7 5x5, stride 2 into 14x14), on 2 threads
    dict(k=5, act=nn.Hardswish, c=8, e=4, hw=7, threads=2),
    dict(stride=2, c=8, e=4, hw=28, threads=2),
    # MobileNetV2's last stage (960 planes of 7x7) and its stride-2 576 -> 7x7 depthwise
    # on 2 threads: few multiply-adds (254k-423k), split over the pool all the same
    dict(c=160, hw=7, threads=2),
    dict(stride=2, c=96, hw=14, threads=2),
])
def test_onnx_block_matches_onnxruntime(block, tmp_path):
    block = dict(block)
    hw, threads = block.pop("hw", 14), block.pop("threads", 0)
    m = _bn_random(InvertedResidual(**block))
    x = torch.randn(1, block.get("c", 16), hw, hw)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(m, (x,), buf, opset_version=18, dynamo=False)
    import onnx
    model = onnx.load_from_string(buf.getvalue())
    f, ir = _lowered(lambda d: strata.compile(model, dump_dir=d, cache=False,
                                              num_threads=threads), tmp_path)
    _folded(ir, 1)
    sess = ort.InferenceSession(buf.getvalue(), providers=["CPUExecutionProvider"])
    xs = x.numpy()
    want = sess.run(None, {sess.get_inputs()[0].name: xs})[0]
    got, = f(xs)
    _close(got, want)
    with torch.no_grad():
        _close(got, m(x).numpy())


class Depthwise(nn.Module):
    def __init__(self, c, k, stride, dilation, act):
        super().__init__()
        self.conv = nn.Conv2d(c, c, k, stride, dilation * (k // 2), dilation, groups=c)
        self.act = act

    def forward(self, x):
        return self.act(self.conv(x))


@pytest.mark.parametrize("k,stride,dilation,act", [
    (3, 1, 1, nn.ReLU6()), (3, 2, 1, nn.Hardswish()), (5, 1, 2, nn.Sigmoid()),
    (3, 1, 1, nn.Identity()),
])
def test_torch_depthwise_matches_eager(k, stride, dilation, act, tmp_path):
    torch.manual_seed(1)
    m = Depthwise(12, k, stride, dilation, act).eval()
    x = torch.randn(2, 12, 13, 17) * 3
    f, ir = _lowered(lambda d: strata.compile(m, example_args=(x,), dump_dir=d, cache=False),
                     tmp_path)
    _folded(ir, 1)
    assert "linalg.generic" not in ir     # the bias and the activation in the kernel
    with torch.no_grad():
        _close(f(x), m(x))


@pytest.mark.parametrize("act", [nn.Hardswish(), nn.ReLU(), nn.Identity()])
def test_torch_batchnorm_folded(act, tmp_path):
    """torch.export keeps batch norms: (y - mean) / sqrt(var + eps) * gamma + beta then
    the activation, one generic after the convolution; the filter and bias are scaled
    at compile time and the generic goes (MobileNetV3's blocks)."""
    torch.manual_seed(3)
    m = _bn_random(nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1, groups=16, bias=False),
                                 nn.BatchNorm2d(16), act))
    x = torch.randn(1, 16, 15, 15)
    f, ir = _lowered(lambda d: strata.compile(m, example_args=(x,), dump_dir=d, cache=False),
                     tmp_path)
    _folded(ir, 1)
    assert "linalg.generic" not in ir and "running_var" not in ir
    with torch.no_grad():
        _close(f(x), m(x))


def test_torch_depthwise_dynamic_batch(tmp_path):
    """A batch known at run time only: the kernel reads N from the buffers."""
    torch.manual_seed(2)
    m = Depthwise(8, 3, 1, 1, nn.SiLU()).eval()
    x = torch.randn(2, 8, 9, 9)
    batch = torch.export.Dim("batch", min=1, max=16)
    f, ir = _lowered(lambda d: strata.compile(m, example_args=(x,), dump_dir=d, cache=False,
                                               dynamic_shapes=({0: batch},)), tmp_path)
    assert "call @strata_dwconv2d_nchw_f32(" in ir
    for n in (1, 3):
        xn = torch.randn(n, 8, 9, 9)
        with torch.no_grad():
            _close(f(xn), m(xn))


@pytest.mark.parametrize("act", ["Erf", "Identity"])
@pytest.mark.parametrize("shape", [(4, 8, 8), (32, 16, 16)])
def test_padded_input_freed_through_a_view(shape, act):
    """Segformer's Mix-FFN: tokens (1, N, C) transposed and reshaped into the image the
    padded depthwise convolution reads. The image is a view of the transpose's buffer,
    whose dealloc bufferization put before the convolution: folding the padding into the
    kernel must keep that buffer alive (it read freed memory: wrong answers, crashes)."""
    from onnx import TensorProto, helper as h, numpy_helper as nh
    c, hh, ww = shape
    n = hh * ww
    rng = np.random.default_rng(0)
    w = rng.standard_normal((c, 1, 3, 3)).astype(np.float32)
    b = rng.standard_normal(c).astype(np.float32)
    nodes = [h.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 1]),
             h.make_node("Reshape", ["t", "s1"], ["r"]),
             h.make_node("Conv", ["r", "w", "b"], ["c"], group=c, kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
             h.make_node("Reshape", ["c", "s2"], ["f"]),
             h.make_node("Transpose", ["f"], ["u"], perm=[0, 2, 1]),
             h.make_node(act, ["u"], ["y"])]
    g = h.make_graph(nodes, "mixffn", [h.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                [1, n, c])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, [1, n, c])],
                     [nh.from_array(w, "w"), nh.from_array(b, "b"),
                      nh.from_array(np.array([1, c, hh, ww], np.int64), "s1"),
                      nh.from_array(np.array([1, c, n], np.int64), "s2")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    x = rng.standard_normal((1, n, c)).astype(np.float32)
    want = ort.InferenceSession(m.SerializeToString()).run(None, {"x": x})[0]
    for threads in (1, 2):
        got = strata.compile(m, num_threads=threads, cache=False)(x)[0]
        _close(got, want)


@pytest.mark.parametrize("lo,hi,fused", [(0.0, 6.0, True), (0.0, 5.0, False)])
def test_clip_bounds_from_initializers(lo, hi, fused, tmp_path):
    """Clip's bounds read from initializers (single-element constant globals, not
    constants in the payload) are recognized as ReLU6 and fused into the kernel; other
    bounds leave the clip as it is. Both match onnxruntime."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(3)
    c = 12
    inits = [numpy_helper.from_array(rng.standard_normal((c, 1, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(rng.standard_normal(c).astype(np.float32), "b"),
             numpy_helper.from_array(np.array(lo, np.float32), "lo"),
             numpy_helper.from_array(np.array(hi, np.float32), "hi")]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["y"], group=c, kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("Clip", ["y", "lo", "hi"], ["z"])]
    g = helper.make_graph(nodes, "dw", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, c, 9, 9])], [helper.make_tensor_value_info(
            "z", TensorProto.FLOAT, [1, c, 9, 9])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    f, ir = _lowered(lambda d: strata.compile(model, dump_dir=d, cache=False), tmp_path)
    _folded(ir, 1)
    assert ("linalg.generic" not in ir) == fused
    x = (3 * rng.standard_normal((1, c, 9, 9))).astype(np.float32)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    _close(f(x)[0], sess.run(None, {"x": x})[0])


_SHARED_EMPTY = """
func.func @main(%x: tensor<1x32x16x16xf32>, %w: tensor<32x3x3xf32>) -> tensor<1x32x16x16xf32> {
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x32x16x16xf32>) outs(%e : tensor<1x32x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.exp %in : f32
    linalg.yield %t : f32
  } -> tensor<1x32x16x16xf32>
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x32x16x16xf32> to tensor<1x32x18x18xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>,
                                         strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x32x18x18xf32>, tensor<32x3x3xf32>)
      outs(%f : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  return %c : tensor<1x32x16x16xf32>
}
"""


def test_padding_fold_source_is_the_output_buffer(tmp_path):
    """One tensor.empty feeds both the padded image's producer and the convolution's
    init: bufferization gives the convolution's output the buffer the padded copy was
    made from. Folding the padding into the kernel would make it read the buffer it
    overwrites (wrong answers): the copy must stay."""
    path = tmp_path / "shared.mlir"
    path.write_text(_SHARED_EMPTY)
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((1, 32, 16, 16)) * 0.3).astype(np.float32)
    w = rng.standard_normal((32, 3, 3)).astype(np.float32)
    want = strata.compile(str(path), target="interpret")(x, w)[0]
    for threads in (1, 2):
        got = strata.compile(str(path), num_threads=threads, cache=False)(x, w)[0]
        _close(got, want)
