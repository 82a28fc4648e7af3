"""strata_conv2d_nchw_packed_t_f32 ([Note: small images, filters along the vectors] in
strata/backends/cpu/kernels_conv.py): the convolution computed as out^T = im2col^T .
filter^T on the filter packed as NR-filter panels of its transpose, against NumPy
float64: padded and unpadded windows, strides 1 and 2, dilations, pixel counts that are
and are not multiples of MR / NR, filters not a multiple of NR (fewer than NR too), K
over several packing blocks, the epilogue (row bias, a column bias, the accumulated
residual, every activation), 1 and 2 threads, several images; bad sizes and codes write
nothing."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from strata.backends.cpu import kernels  # noqa: E402
from strata.conversion.cpu_kernel_abi import (ACT_SHIFT, ACTS, EPI_BIAS,  # noqa: E402
                                              EPI_ROW_BIAS, epi_flags, pack_b_panels)
from test_epilogue_kernels import REFERENCE, _conv_ref  # noqa: E402

RNG = np.random.default_rng(11)


@pytest.fixture(scope="module")
def lib():
    return kernels.load_kernels()


def _panels(lib, w):
    return pack_b_panels(w.reshape(w.shape[0], -1).T, lib.isa.nr)


def _run(lib, x, w, oh, ow, s, pad, d=1, out=None, acc=0, bias=None, flags=0):
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    if out is None:
        out = np.full((n, f, oh, ow), np.nan, np.float32)
    panels = _panels(lib, w)
    lib.conv2d_nchw_packed_t(n, c, h, wd, f, k, k, oh, ow, s, s, d, d, pad, pad,
                             x.ctypes.data, c * h * wd, h * wd, wd, panels.ctypes.data,
                             out.ctypes.data, f * oh * ow, acc,
                             bias.ctypes.data if bias is not None else out.ctypes.data,
                             flags, 0)
    return out


def _want(x, w, s, pad, d=1):
    """float64 convolution of x zero-padded by `pad` (dilation d)."""
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    if d == 1:
        return _conv_ref(xp, w, s)
    f, c, k, _ = w.shape
    wd = np.zeros((f, c, d * (k - 1) + 1, d * (k - 1) + 1), w.dtype)
    wd[:, :, ::d, ::d] = w
    return _conv_ref(xp, wd, s)


@pytest.mark.parametrize("n,c,h,f,k,s,pad,d", [
    (1, 64, 7, 64, 3, 1, 1, 1),        # ResNet's 7x7 stage shape, scaled down
    (2, 40, 7, 70, 3, 1, 1, 1),        # F not a multiple of NR, K = 360 (two blocks)
    (1, 33, 14, 96, 3, 2, 1, 1),       # stride 2 down to 7x7
    (1, 16, 9, 5, 3, 1, 1, 1),         # fewer filters than a panel
    (1, 48, 11, 64, 1, 2, 0, 1),       # a 1x1 stride-2 downsample (36 pixels)
    (1, 8, 10, 40, 3, 1, 2, 2),        # dilated, padded 2
    (1, 300, 4, 33, 1, 1, 0, 1),       # 16 pixels, K = 300
    (1, 20, 12, 64, 3, 1, 0, 1),       # unpadded: 100 pixels, four panels
    (1, 7, 3, 32, 3, 1, 1, 1),         # 9 pixels: one MR group and one row
    (1, 5, 1, 32, 3, 1, 1, 1),         # a 1x1 image, all but the centre tap padding
])
def test_conv_t_matches_numpy(lib, n, c, h, f, k, s, pad, d):
    x = RNG.standard_normal((n, c, h, h)).astype(np.float32)
    w = (RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
    want, oh, ow = _want(x, w, s, pad, d)
    prev = lib.get_num_threads()
    try:
        for threads in (1, 2):
            lib.set_num_threads(threads)
            got = _run(lib, x, w, oh, ow, s, pad, d)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("act", sorted(ACTS))
def test_conv_t_epilogue(lib, act):
    """act(conv + bias[f] + residual): the residual accumulated (acc = 1, out holding
    it), the bias per filter; NaN and infinities through the bias reach the activation."""
    n, c, h, f = 2, 24, 7, 45
    x = RNG.standard_normal((n, c, h, h)).astype(np.float32)
    w = (RNG.standard_normal((f, c, 3, 3)) / np.sqrt(c * 9)).astype(np.float32)
    bias = (RNG.standard_normal(f) * 3).astype(np.float32)
    bias[:4] = [np.nan, np.inf, -np.inf, 30.0]
    r = (RNG.standard_normal((n, f, h, h)) * 2).astype(np.float32)
    want, oh, ow = _want(x, w, 1, 1)
    out = _run(lib, x, w, oh, ow, 1, 1, out=r.copy(), acc=1, bias=bias,
               flags=epi_flags(EPI_ROW_BIAS, act))
    xb = (want + r + bias[None, :, None, None]).astype(np.float32).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        np.testing.assert_allclose(out, REFERENCE[act](xb), rtol=1e-5, atol=1e-5,
                                   equal_nan=True)


def test_conv_t_column_bias_and_no_bias(lib):
    """EPI_BIAS: a bias per output pixel (a column of the product); no flag: none read."""
    c, h, f = 16, 6, 40
    x = RNG.standard_normal((1, c, h, h)).astype(np.float32)
    w = (RNG.standard_normal((f, c, 3, 3)) / 12).astype(np.float32)
    want, oh, ow = _want(x, w, 1, 1)
    bias = RNG.standard_normal(oh * ow).astype(np.float32)
    out = _run(lib, x, w, oh, ow, 1, 1, bias=bias, flags=EPI_BIAS)
    np.testing.assert_allclose(out, want + bias.reshape(1, 1, oh, ow), rtol=1e-4, atol=1e-4)
    nan_bias = np.full(f, np.nan, np.float32)
    out = _run(lib, x, w, oh, ow, 1, 1, bias=nan_bias, flags=epi_flags(0, "relu"))
    np.testing.assert_allclose(out, np.maximum(want, 0), rtol=1e-4, atol=1e-4)


def test_conv_t_no_channels(lib):
    """C = 0: the sum over no taps is 0; the epilogue still runs (bias, activation)."""
    x = np.zeros((1, 0, 5, 5), np.float32)
    w = np.zeros((40, 0, 3, 3), np.float32)
    bias = RNG.standard_normal(40).astype(np.float32)
    out = _run(lib, x, w, 5, 5, 1, 1, bias=bias, flags=epi_flags(EPI_ROW_BIAS, "relu"))
    np.testing.assert_array_equal(out, np.broadcast_to(
        np.maximum(bias, 0)[None, :, None, None], out.shape))


@pytest.mark.parametrize("field,value", [("N", -1), ("C", -2), ("OH", -1), ("pt", -1),
                                         ("sh", 0), ("dw", 0), ("epi", 15 << ACT_SHIFT)])
def test_conv_t_bad_sizes_write_nothing(lib, field, value):
    """A negative size or padding, a stride or dilation below 1, an unknown activation
    code: nothing written (nothing read)."""
    args = dict(N=1, C=4, H=5, W=5, F=33, KH=3, KW=3, OH=5, OW=5, sh=1, sw=1, dh=1, dw=1,
                pt=1, pl=1, epi=0)
    args[field] = value
    x = RNG.standard_normal((1, 4, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((33, 4, 3, 3)).astype(np.float32)
    panels = _panels(lib, w)
    out = np.full((1, 33, 5, 5), 7.0, np.float32)
    a = args
    lib.conv2d_nchw_packed_t(a["N"], a["C"], a["H"], a["W"], a["F"], a["KH"], a["KW"],
                             a["OH"], a["OW"], a["sh"], a["sw"], a["dh"], a["dw"], a["pt"],
                             a["pl"], x.ctypes.data, 100, 25, 5, panels.ctypes.data,
                             out.ctypes.data, 33 * 25, 0, out.ctypes.data, a["epi"], 0)
    assert (out == 7.0).all()


def test_conv_t_image_larger_than_given(lib):
    """OH and OW larger than the image gives: the taps past it read as padding, never
    outside the image (as strata_pack_conv_pad does)."""
    c, h, f = 6, 4, 32
    x = RNG.standard_normal((1, c, h, h)).astype(np.float32)
    w = RNG.standard_normal((f, c, 3, 3)).astype(np.float32)
    want, _, _ = _want(np.pad(x, ((0, 0), (0, 0), (0, 3), (0, 3))), w, 1, 1)
    got = _run(lib, x, w, 7, 7, 1, 1)
    np.testing.assert_allclose(got, want[:, :, :7, :7], rtol=1e-4, atol=1e-4)
