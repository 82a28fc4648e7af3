"""Squeeze-excitation blocks through the whole CPU pipeline (see [Note: channel scales]
in strata/conversion/linalg_to_microkernels.py): a RegNet-Y block (1x1, grouped 3x3 of
group width 8, SE: pool, 1x1, ReLU, 1x1, sigmoid, the scale, 1x1, residual add, ReLU),
exported to ONNX, against onnxruntime and eager. Where the 1x1 projection has no more
filters than the map has pixels, its packed filter panels are scaled per channel and it
keeps its packed kernel with the residual epilogue (no unpacked convolution, no add
left); with more filters than pixels, the image is scaled (sigmoid once per channel)."""
from __future__ import annotations

import glob
import io
import re
import warnings

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

import strata  # noqa: E402
from models import randomize_batch_norms  # noqa: E402

TOLERANCE = 1e-4
nn = torch.nn


class RegNetYBlock(nn.Module):
    def __init__(self, w, gw=8, se=4):
        super().__init__()
        self.a = nn.Sequential(nn.Conv2d(w, w, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU())
        self.b = nn.Sequential(nn.Conv2d(w, w, 3, 1, 1, groups=w // gw, bias=False),
                               nn.BatchNorm2d(w), nn.ReLU())
        self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(w, se, 1), nn.ReLU(),
                                nn.Conv2d(se, w, 1), nn.Sigmoid())
        self.c = nn.Sequential(nn.Conv2d(w, w, 1, bias=False), nn.BatchNorm2d(w))

    def forward(self, x):
        y = self.b(self.a(x))
        y = y * self.se(y)
        return torch.relu(x + self.c(y))


def _model(w, hw):
    torch.manual_seed(0)
    m = randomize_batch_norms(RegNetYBlock(w))
    x = torch.randn(1, w, hw, hw)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(m, (x,), buf, opset_version=18, dynamo=False)
    return m, x, buf.getvalue()


def _close(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err < TOLERANCE, err


@pytest.mark.parametrize("w,hw,threads,panels", [
    (16, 14, 0, True),     # 16 filters <= 196 pixels: the packed panels are scaled
    (24, 5, 2, True),      # 24 <= 25, on 2 threads
    (48, 3, 0, False),     # 48 filters > 9 pixels: the image is scaled
])
def test_regnet_y_block_matches_onnxruntime(w, hw, threads, panels, tmp_path):
    m, x, onnx_bytes = _model(w, hw)
    import onnx
    f = strata.compile(onnx.load_from_string(onnx_bytes), dump_dir=str(tmp_path),
                       cache=False, num_threads=threads)
    path, = glob.glob(str(tmp_path / "*strata-linalg-to-microkernels.mlir"))
    with open(path) as fh:
        ir = fh.read()
    # every convolution on a packed filter; the projection with its residual epilogue
    assert "call @strata_conv2d_nchw_f32(" not in ir
    assert "linalg.conv_2d" not in ir
    assert ir.count("call @strata_conv2d_nchw_packed_epi_f32(") == 4   # a, c, 2 SE FCs
    assert ir.count("call @strata_conv2d_nchw_grouped_packed_epi_f32(") == 1
    # the panels read as P x C x MR, scaled along C
    scaled = re.search(rf"memref.expand_shape %\S+ \[\[0, 1, 2\]\] output_shape \[\d+, {w}, "
                       r"\d+\] : memref<\d+xf32>", ir)
    assert (scaled is not None) == panels
    assert ir.count("math.exp") == 1      # the sigmoid once per channel
    sess = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    xs = x.numpy()
    want = sess.run(None, {sess.get_inputs()[0].name: xs})[0]
    got, = f(xs)
    _close(got, want)
    with torch.no_grad():
        _close(got, m(x).numpy())
