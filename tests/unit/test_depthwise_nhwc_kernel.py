"""strata_dwconv2d_nhwc_f32 called directly, against NumPy (float64): 3, 5 and 7 wide
windows at stride 1 (the unrolled row-reuse code) and others (any width, stride 2,
dilation 2, non-square windows), padding read as zeros (asymmetric too, windows wider
than the image), channel counts not a multiple of a vector, strided input and output
pixels, accumulating, every epilogue, one and two threads, other ISAs; sizes the kernel
refuses write nothing, and nothing outside the image is read."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.conversion.cpu_kernel_abi import DW_ACT_SHIFT, DW_ACTS, DW_BIAS
from test_depthwise_kernel import _case as _nchw_case, _check

RNG = np.random.default_rng(12)


def _act(y, act):
    from strata.conversion.cpu_kernel_abi import act_reference
    return act_reference(act, y)


def _ref(x, w, b, s, d, pt, pl, oh, ow, act="none", old=None):
    """NHWC x (N, H, W, C), HWC filter w; float64."""
    n, h, wd, c = x.shape
    kh, kw = w.shape[:2]
    big = np.zeros((n, pt + max(h, oh * s + d * kh), pl + max(wd, ow * s + d * kw), c))
    big[:, pt:pt + h, pl:pl + wd] = x
    out = np.zeros((n, oh, ow, c)) if old is None else old.astype(np.float64)
    for i in range(kh):
        for j in range(kw):
            out = out + big[:, i * d:i * d + s * (oh - 1) + 1:s,
                            j * d:j * d + s * (ow - 1) + 1:s] * w[i, j]
    if b is not None:
        out = out + b
    return _act(out, act)


def _run(lib, x, w, b, s, d, pt, pl, oh, ow, act="none", out=None, acc=0, tile=0):
    n, h, wd, c = x.shape
    kh, kw = w.shape[:2]
    if out is None:
        out = np.full((n, oh, ow, c), np.nan, np.float32)
    assert x.strides[3] == 4 and out.strides[3] == 4 and w.flags.c_contiguous
    flags = (DW_BIAS if b is not None else 0) | (DW_ACTS[act] << DW_ACT_SHIFT)
    bias = b if b is not None else np.zeros(1, np.float32)
    xs, o = [st // 4 for st in x.strides[:3]], [st // 4 for st in out.strides[:3]]
    lib.dwconv2d_nhwc(n, h, wd, c, kh, kw, oh, ow, s, s, d, d, pt, pl, x.ctypes.data, *xs,
                      w.ctypes.data, out.ctypes.data, *o, acc, bias.ctypes.data, flags, tile)
    return out


def _case(c, h, wd, k, s, d, pad, n=1, kw=None):
    """test_depthwise_kernel's case, channel-last: x (N, H, W, C), w (KH, KW, C)."""
    x, w, b, oh, ow = _nchw_case(c, h, wd, k, s, d, pad, n, kw)
    return (np.ascontiguousarray(x.transpose(0, 2, 3, 1)),
            np.ascontiguousarray(w.transpose(1, 2, 0)), b, oh, ow)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,wd,k,s,d,pad,n,kw", [
    (96, 14, 14, 7, 1, 1, 3, 1, 7),     # ConvNeXt's 7x7: tiles of pixels and the remainder
    (40, 9, 30, 7, 1, 1, 3, 2, 7),      # two images, C not a multiple of a vector
    (16, 8, 8, 3, 1, 1, 1, 1, 3),       # 3x3
    (20, 11, 27, 5, 1, 1, 2, 1, 5),     # 5x5
    (3, 5, 5, 7, 1, 1, 3, 1, 7),        # fewer channels than a vector, window > image
    (24, 13, 17, 3, 2, 1, 1, 1, 3),     # stride 2: the generic code
    (17, 12, 12, 3, 1, 2, 2, 1, 3),     # dilation 2
    (18, 10, 16, 3, 1, 1, 1, 1, 4),     # 3x4 window: generic, non-square
    (8, 1, 1, 3, 1, 1, 1, 1, 3),        # a 1x1 image
    (32, 6, 6, 7, 1, 1, 3, 1, 1),       # 7x1 window, no padding along W
    (200, 20, 20, 7, 1, 1, 3, 1, 7),    # several channel chunks: parallel items
])
def test_nhwc_matches_numpy(threads, c, h, wd, k, s, d, pad, n, kw):
    lib = load_kernels()
    x, w, b, oh, ow = _case(c, h, wd, k, s, d, pad, n, kw)
    pw = (kw - 1) * d // 2 if kw != k else pad
    ow = (wd + 2 * pw - d * (kw - 1) - 1) // s + 1
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for bias in (b, None):
            _check(_run(lib, x, w, bias, s, d, pad, pw, oh, ow),
                   _ref(x, w, bias, s, d, pad, pw, oh, ow))
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("act", sorted(DW_ACTS))
@pytest.mark.parametrize("k,s", [(7, 1), (3, 2)])
def test_nhwc_epilogues(act, k, s):
    """bias then each activation, overwriting and accumulating into the output."""
    lib = load_kernels()
    x, w, b, oh, ow = _case(21, 9, 19, k, s, 1, k // 2)
    x *= 3
    _check(_run(lib, x, w, b, s, 1, k // 2, k // 2, oh, ow, act),
           _ref(x, w, b, s, 1, k // 2, k // 2, oh, ow, act))
    old = RNG.standard_normal((1, oh, ow, 21)).astype(np.float32)
    got = _run(lib, x, w, b, s, 1, k // 2, k // 2, oh, ow, act, out=old.copy(), acc=1)
    _check(got, _ref(x, w, b, s, 1, k // 2, k // 2, oh, ow, act, old=old))


def test_nhwc_strided_views_and_tile():
    """Input and output pixels inside wider buffers (their W and H strides not C), an
    asymmetric padding, the channels per item from the tile word; nothing written past
    the output's channels."""
    lib = load_kernels()
    c, h, wd = 20, 9, 15
    xb = RNG.standard_normal((1, h, wd, c + 12), np.float32)
    x = xb[:, :, :, 5:5 + c]
    w = RNG.standard_normal((7, 7, c), np.float32)
    b = RNG.standard_normal(c).astype(np.float32)
    oh, ow = h + 1, wd - 2
    ob = np.full((1, oh, ow, c + 9), 7.0, np.float32)
    out = ob[:, :, :, 2:2 + c]
    for tile in (0, 16, 40):
        _run(lib, x, w, b, 1, 1, 4, 2, oh, ow, out=out, tile=tile)
        _check(out, _ref(np.ascontiguousarray(x), w, b, 1, 1, 4, 2, oh, ow))
        assert (ob[..., :2] == 7.0).all() and (ob[..., 2 + c:] == 7.0).all()


def test_nhwc_reads_only_the_image():
    """Windows reaching past every side: the image is a view inside a NaN-filled buffer,
    whose NaNs would poison the output if read (channels past C too)."""
    lib = load_kernels()
    c, h, wd = 19, 6, 9
    poisoned = np.full((1, h + 4, wd + 8, c + 13), np.nan, np.float32)
    x = poisoned[:, 2:h + 2, 4:wd + 4, :c]
    x[...] = RNG.standard_normal((1, h, wd, c))
    for k, s, d in ((7, 1, 1), (5, 2, 1), (3, 1, 2)):
        w = RNG.standard_normal((k, k, c), np.float32)
        oh, ow = (h + 6) // s, (wd + 6) // s
        out = np.zeros((1, oh, ow, c), np.float32)
        _run(lib, x, w, None, s, d, 4, 5, oh, ow, out=out)
        assert np.isfinite(out).all()
        _check(out, _ref(np.ascontiguousarray(x), w, None, s, d, 4, 5, oh, ow))


@pytest.mark.parametrize("bad", [
    {"N": -1}, {"C": 0}, {"OH": 0}, {"OW": -3}, {"H": -1}, {"W": -2}, {"KH": -1},
    {"KW": -1}, {"sh": 0}, {"sw": -1}, {"dh": 0}, {"dw": -2}, {"pt": -1}, {"pl": -2},
    {"flags": 6 << DW_ACT_SHIFT},
])
def test_nhwc_refuses_bad_sizes(bad):
    """Negative or zero sizes, non-positive strides and dilations, negative padding, an
    unknown activation: nothing is read or written."""
    lib = load_kernels()
    p = dict(N=1, C=2, H=5, W=5, KH=3, KW=3, OH=5, OW=5, sh=1, sw=1, dh=1, dw=1, pt=1, pl=1,
             flags=0)
    p.update(bad)
    x = RNG.standard_normal((1, 5, 5, 2), np.float32)
    w = RNG.standard_normal((3, 3, 2), np.float32)
    out = np.full((1, 5, 5, 2), 3.0, np.float32)
    lib.dwconv2d_nhwc(p["N"], p["H"], p["W"], p["C"], p["KH"], p["KW"], p["OH"], p["OW"],
                      p["sh"], p["sw"], p["dh"], p["dw"], p["pt"], p["pl"], x.ctypes.data,
                      50, 10, 2, w.ctypes.data, out.ctypes.data, 50, 10, 2, 0,
                      out.ctypes.data, p["flags"], 0)
    assert (out == 3.0).all()


@pytest.mark.parametrize("name", ["avx2", "sse"])
def test_nhwc_other_isas(name):
    """The kernel for vector widths 8 and 4 (LLVM legalizes the vectors here)."""
    from strata.backends.cpu import kernels
    host = kernels.host_isa()
    isa = kernels.isa_for(name, cpu=host.cpu, features=host.features, kc=64, mc=24,
                          nc=4 * kernels.isa_for(name).nr)
    lib = kernels.KernelLibrary(isa)
    for c, h, wd, k, s, d, pad in ((13, 9, 20, 7, 1, 1, 3), (6, 7, 9, 3, 2, 1, 1),
                                   (9, 8, 8, 3, 1, 2, 2)):
        x, w, b, oh, ow = _case(c, h, wd, k, s, d, pad)
        _check(_run(lib, x, w, b, s, d, pad, pad, oh, ow, "silu"),
               _ref(x, w, b, s, d, pad, pad, oh, ow, "silu"))
