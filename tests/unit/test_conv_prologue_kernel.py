"""strata_conv2d_nchw_packed_pro_f32 called directly ([Note: input prologues] in
kernels_conv.py): the convolution of act(x[c] * scale[c] + shift[c]) against NumPy
float64, on the GEMM path (1x1, stride 1, unpadded, contiguous: the prologue in the
packing of B) and on the others (a window, a stride, padding, strided planes: a
normalized copy first), one and two threads, K across KC blocks, with NaN and
infinities in the image and negative scales; the epilogue still applies; unknown codes
and negative sizes write nothing."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.conversion.cpu_kernel_abi import (ACTS, EPI_ROW_BIAS, PRO_ACTS, epi_flags,
                                              pack_a_panels)
from test_epilogue_kernels import _conv_ref

RNG = np.random.default_rng(11)
PRO = {"none": lambda v: v, "relu": lambda v: np.maximum(v, 0),
       "relu6": lambda v: np.minimum(np.maximum(v, 0), 6)}


def _ref(x, w, s, pad):
    """conv of float64 x (N C H W) with w (F C K K), stride s, zero padding pad."""
    return _conv_ref(np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad))), w, s)


def _run(lib, x, wt, scale, shift, pro, s=1, pad=0, act="none", bias=None, acc=0,
         sc=None, out=None):
    n, c, h, w = x.shape
    f, _, k, _ = wt.shape
    oh, ow = (h + 2 * pad - k) // s + 1, (w + 2 * pad - k) // s + 1
    out = np.full((n, f, oh, ow), 3.0, np.float32) if out is None else out
    panels = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    bias = np.zeros(f, np.float32) if bias is None else bias
    lib.conv2d_nchw_packed_pro(
        n, c, h, w, f, k, k, oh, ow, s, s, 1, 1, pad, pad, x.ctypes.data,
        x.strides[0] // 4, sc or x.strides[1] // 4, x.strides[2] // 4, panels.ctypes.data,
        out.ctypes.data, f * oh * ow, acc, bias.ctypes.data, epi_flags(EPI_ROW_BIAS, act),
        scale.ctypes.data, shift.ctypes.data, pro, 0)
    return out


def _want(x, wt, scale, shift, pro, s=1, pad=0):
    y = x.astype(np.float64) * scale[None, :, None, None] + shift[None, :, None, None]
    y = PRO[pro](y.astype(np.float32).astype(np.float64))
    return _ref(y, wt, s, pad)[0]


@pytest.mark.parametrize("pro", sorted(PRO_ACTS))
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n,c,h,w,f,k,s,pad", [
    (1, 64, 56, 56, 128, 1, 1, 0),      # DenseNet's first bottleneck
    (2, 300, 7, 9, 37, 1, 1, 0),        # K across KC blocks, F not a multiple of MR
    (1, 13, 5, 3, 9, 1, 1, 0),          # one short panel
    (2, 10, 9, 9, 7, 3, 1, 1),          # a padded 3x3: the normalized copy
    (1, 12, 14, 14, 20, 1, 2, 0),       # a strided 1x1: the normalized copy
])
def test_prologue_matches_numpy(pro, threads, n, c, h, w, f, k, s, pad):
    lib = load_kernels()
    x = (RNG.standard_normal((n, c, h, w)) * 3).astype(np.float32)
    wt = (RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
    scale = RNG.standard_normal(c).astype(np.float32)     # negative scales too
    shift = RNG.standard_normal(c).astype(np.float32)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        out = _run(lib, x, wt, scale, shift, PRO_ACTS[pro], s, pad)
    finally:
        lib.set_num_threads(prev)
    np.testing.assert_allclose(out, _want(x, wt, scale, shift, pro, s, pad), rtol=1e-4,
                               atol=1e-4)


def test_prologue_on_a_channel_slice_with_epilogue_and_accumulate():
    """The image a channel slice of a wider buffer (a DenseNet block's concatenation:
    its N stride is the buffer's), the epilogue's bias + ReLU and accumulation after."""
    lib = load_kernels()
    buf = RNG.standard_normal((2, 40, 8, 8)).astype(np.float32)
    x = buf[:, :24]
    wt = (RNG.standard_normal((18, 24, 1, 1)) / 5).astype(np.float32)
    scale, shift = (RNG.standard_normal(24).astype(np.float32) for _ in range(2))
    bias = RNG.standard_normal(18).astype(np.float32)
    start = RNG.standard_normal((2, 18, 8, 8)).astype(np.float32)
    out = _run(lib, x, wt, scale, shift, PRO_ACTS["relu"], act="relu", bias=bias, acc=1,
               out=start.copy())
    want = np.maximum(_want(np.ascontiguousarray(x), wt, scale, shift, "relu") +
                      start + bias[None, :, None, None], 0)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)


def test_prologue_keeps_nan_and_infinities():
    """NaN stays NaN through the ReLU (max(NaN, 0) is NaN, as the elementwise op's
    maximumf), +-inf scaled by a negative scale, the padding's zeros untransformed."""
    lib = load_kernels()
    x = RNG.standard_normal((1, 3, 6, 6)).astype(np.float32)
    x[0, 0, 1, 2], x[0, 1, 3, 3], x[0, 2, 5, 0] = np.nan, np.inf, -np.inf
    scale = np.array([1.0, -2.0, 0.5], np.float32)
    shift = np.array([5.0, 1.0, -1.0], np.float32)
    wt = np.zeros((2, 3, 1, 1), np.float32)
    wt[0, :, 0, 0] = 1     # sum over channels
    wt[1, 0, 0, 0] = 1     # channel 0 alone
    out = _run(lib, x, wt, scale, shift, PRO_ACTS["relu"])
    with np.errstate(invalid="ignore"):
        y = np.maximum(x * scale[None, :, None, None] + shift[None, :, None, None], 0)
    assert np.isnan(out[0, 0, 1, 2]) and np.isnan(out[0, 1, 1, 2])
    assert np.isfinite(out[0, 0, 3, 3]) and np.isfinite(out[0, 0, 5, 0])
    np.testing.assert_allclose(out[0, 0], y.sum(1)[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[0, 1], y[0, 0], rtol=1e-5, atol=1e-5)
    # padded: the padding stays 0 where act(shift) is not
    wt3 = np.ones((1, 3, 3, 3), np.float32)
    xs = RNG.standard_normal((1, 3, 4, 4)).astype(np.float32)
    out = _run(lib, xs, wt3, scale, shift, PRO_ACTS["relu"], pad=1)
    np.testing.assert_allclose(out, _want(xs, wt3, scale, shift, "relu", pad=1),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("bad", ["pro", "epi", "size"])
def test_bad_codes_and_sizes_write_nothing(bad):
    lib = load_kernels()
    x = RNG.standard_normal((1, 4, 5, 5)).astype(np.float32)
    wt = RNG.standard_normal((3, 4, 1, 1)).astype(np.float32)
    scale, shift = np.ones(4, np.float32), np.zeros(4, np.float32)
    out = np.full((1, 3, 5, 5), 7.0, np.float32)
    panels = pack_a_panels(wt.reshape(3, -1), lib.isa.mr)
    bias = np.zeros(3, np.float32)
    pro = len(PRO_ACTS) if bad == "pro" else 1
    epi = len(ACTS) << 4 if bad == "epi" else 0
    c = -4 if bad == "size" else 4
    lib.conv2d_nchw_packed_pro(1, c, 5, 5, 3, 1, 1, 5, 5, 1, 1, 1, 1, 0, 0, x.ctypes.data,
                               100, 25, 5, panels.ctypes.data, out.ctypes.data, 75, 0,
                               bias.ctypes.data, epi, scale.ctypes.data, shift.ctypes.data,
                               pro, 0)
    assert (out == 7.0).all()


def test_tuner_calls_the_prologue_kernel():
    """The autotuner times the kernel with its whole argument list (scale, shift and
    code after the epilogue's), on a DenseNet bottleneck's shape and other tile words."""
    from strata.backends.cpu import autotune
    from strata.backends.cpu.kernels_gemm import SPLIT_M, tile_word
    shape = dict(N=1, C=96, H=14, W=14, F=128, KH=1, KW=1, OH=14, OW=14, sh=1, sw=1, dh=1,
                 dw=1, pt=0, pl=0)
    call = autotune._Call(load_kernels(), "strata_conv2d_nchw_packed_pro_f32", shape)
    for word in (0, tile_word(kc=32, split=SPLIT_M)):
        assert call.run(word) >= 0
