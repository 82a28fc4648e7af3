"""strata_dwconv2d_nchw_f32 called directly, against NumPy (float64): 3x3 and 5x5 (the
specialized code) and other windows (the generic one), strides 1, 2 and 3, dilation 2,
padding read as zeros (asymmetric too), rows shorter and longer than a vector and not a
multiple of it, 1x1 images, one channel, strided input and output, accumulating, every
epilogue, one and two threads; sizes the kernel refuses write nothing."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.backends.cpu.kernels_depthwise import DW_PAR_MIN_MACS
from strata.conversion.cpu_kernel_abi import DW_ACT_SHIFT, DW_ACTS, DW_BIAS

RNG = np.random.default_rng(11)
# Channels enough for a 3x3 window on a 7x7 output to reach DW_PAR_MIN_MACS: the items
# then run on the thread pool (on one thread below it, whatever the thread count).
PAR_C = DW_PAR_MIN_MACS // (7 * 7 * 9) + 1


def _act(y, act):
    if act == "relu":
        return np.maximum(y, 0)
    if act == "relu6":
        return np.clip(y, 0, 6)
    if act == "hardswish":
        return y * np.clip(y / 6 + 0.5, 0, 1)
    if act == "sigmoid":
        return 1 / (1 + np.exp(-y))
    if act == "silu":
        return y / (1 + np.exp(-y))
    return y


def _ref(x, w, b, s, d, pt, pl, oh, ow, act, old=None):
    n, c, h, wd = x.shape
    kh, kw = w.shape[1:]
    big = np.zeros((n, c, pt + max(h, oh * s + d * kh), pl + max(wd, ow * s + d * kw)))
    big[:, :, pt:pt + h, pl:pl + wd] = x
    out = np.zeros((n, c, oh, ow)) if old is None else old.astype(np.float64)
    for i in range(kh):
        for j in range(kw):
            out = out + big[:, :, i * d:i * d + s * (oh - 1) + 1:s,
                            j * d:j * d + s * (ow - 1) + 1:s] * w[None, :, i, j, None, None]
    if b is not None:
        out = out + b[None, :, None, None]
    return _act(out, act)


def _run(lib, x, w, b, s, d, pt, pl, oh, ow, act="none", out=None, acc=0, tile=0):
    """The kernel on x (any view with unit inner stride) into out (same)."""
    n, c, h, wd = x.shape
    kh, kw = w.shape[1:]
    if out is None:
        out = np.full((n, c, oh, ow), np.nan, np.float32)
    assert x.strides[3] == 4 and (out is None or out.strides[3] == 4)
    sn, sc, shs = (st // 4 for st in x.strides[:3])
    flags = (DW_BIAS if b is not None else 0) | (DW_ACTS[act] << DW_ACT_SHIFT)
    bias = b if b is not None else np.zeros(1, np.float32)
    o = out.strides
    lib.dwconv2d_nchw(n, c, h, wd, kh, kw, oh, ow, s, s, d, d, pt, pl, x.ctypes.data, sn, sc,
                      shs, w.ctypes.data, out.ctypes.data, o[0] // 4, o[1] // 4, o[2] // 4,
                      acc, bias.ctypes.data, flags, tile)
    return out


def _case(c, h, wd, k, s, d, pad, n=1, kw=None):
    kw = kw or k
    x = RNG.standard_normal((n, c, h, wd), np.float32)
    w = RNG.standard_normal((c, k, kw), np.float32)
    b = RNG.standard_normal(c).astype(np.float32)
    oh = (h + 2 * pad - d * (k - 1) - 1) // s + 1
    ow = (wd + 2 * pad - d * (kw - 1) - 1) // s + 1
    return x, w, b, oh, ow


def _check(got, want):
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5 * max(1, np.abs(want).max()))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,wd,k,s,d,pad,n", [
    (3, 7, 7, 3, 1, 1, 1, 1),        # a row shorter than a vector: masked chunks only
    (5, 10, 13, 3, 1, 1, 1, 2),      # two images, W not a multiple of the vector
    (4, 20, 37, 3, 2, 1, 1, 1),      # stride 2, a border chunk each side
    (3, 40, 70, 5, 1, 1, 2, 1),      # 5x5: interior chunks of 4 vectors and of 1
    (3, 41, 71, 5, 2, 1, 2, 1),      # 5x5 stride 2
    (2, 12, 12, 3, 1, 2, 2, 1),      # dilation 2 (AVX-512: rows in blocks of 4)
    (3, 13, 13, 3, 2, 1, 1, 1),      # stride 2, OW 7 (AVX-512: rows in blocks of 4)
    (5, 14, 14, 3, 1, 1, 1, 1),      # 14x14 (MobileNetV2's), OH not a multiple of 4
    (2, 9, 9, 7, 1, 1, 3, 1),        # 7x7: the generic code
    (2, 9, 19, 3, 3, 1, 1, 1),       # stride 3: gathers
    (1, 1, 1, 3, 1, 1, 1, 1),        # a 1x1 image, one channel
    (2, 5, 5, 3, 1, 1, 0, 1),        # no padding
    (32, 34, 130, 3, 1, 1, 1, 1),    # many planes: parallel items
])
def test_depthwise_matches_numpy(threads, c, h, wd, k, s, d, pad, n):
    lib = load_kernels()
    x, w, b, oh, ow = _case(c, h, wd, k, s, d, pad, n)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for bias in (b, None):
            _check(_run(lib, x, w, bias, s, d, pad, pad, oh, ow),
                   _ref(x, w, bias, s, d, pad, pad, oh, ow, "none"))
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("act", sorted(DW_ACTS))
@pytest.mark.parametrize("k,s", [(3, 1), (5, 2), (3, 3)])
def test_depthwise_epilogues(act, k, s):
    """bias then each activation, overwriting and accumulating into the output."""
    lib = load_kernels()
    x, w, b, oh, ow = _case(6, 23, 45, k, s, 1, k // 2)
    x *= 3      # values across relu6's and hardswish's corners, sigmoid's tails
    _check(_run(lib, x, w, b, s, 1, k // 2, k // 2, oh, ow, act),
           _ref(x, w, b, s, 1, k // 2, k // 2, oh, ow, act))
    old = RNG.standard_normal((1, 6, oh, ow)).astype(np.float32)
    got = _run(lib, x, w, b, s, 1, k // 2, k // 2, oh, ow, act, out=old.copy(), acc=1)
    _check(got, _ref(x, w, b, s, 1, k // 2, k // 2, oh, ow, act, old=old))


def test_depthwise_nan_and_extremes():
    """NaN propagates through every activation (as the generics it replaces); sigmoid
    and silu saturate without overflow warnings or NaN for huge inputs."""
    lib = load_kernels()
    x = np.array([[[[np.nan, 1e30, -1e30, 0.5]]]], np.float32)
    w = np.ones((1, 1, 1), np.float32)
    for act in DW_ACTS:
        got = _run(lib, x, w, None, 1, 1, 0, 0, 1, 4, act)[0, 0, 0]
        assert np.isnan(got[0]), act
        with np.errstate(over="ignore"):
            want = _ref(x[..., 1:].astype(np.float64), w, None, 1, 1, 0, 0, 1, 3, act)
        np.testing.assert_allclose(got[1:], want[0, 0, 0], rtol=1e-5)


def test_depthwise_asymmetric_padding_and_strides():
    """pt != pl, a larger output than the padding gives (rows and columns past the
    image read as zeros), an input with row and channel strides wider than the image,
    an output written into a bigger buffer through its strides; a tile word of 3 rows
    per item."""
    lib = load_kernels()
    c, h, wd = 4, 11, 19
    base = RNG.standard_normal((1, c + 1, h + 3, wd + 5), np.float32)
    x = base[:, :c, :h, :wd]
    w = RNG.standard_normal((c, 3, 3), np.float32)
    b = RNG.standard_normal(c).astype(np.float32)
    oh, ow = h + 4, wd + 3
    big = np.full((1, c, oh + 2, ow + 7), 7.0, np.float32)
    out = big[:, :, 1:oh + 1, 2:ow + 2]
    _run(lib, x, w, b, 1, 1, 2, 0, oh, ow, "relu", out=out, tile=3)
    want = _ref(np.ascontiguousarray(x), w, b, 1, 1, 2, 0, oh, ow, "relu")
    _check(out, want)
    big[:, :, 1:oh + 1, 2:ow + 2] = 7.0
    assert (big == 7.0).all()       # nothing written outside the output


@pytest.mark.parametrize("bad", [
    {"N": -1}, {"C": 0}, {"OH": 0}, {"OW": -3}, {"H": -1}, {"W": -2}, {"KH": -1},
    {"KW": -1}, {"sh": 0}, {"sw": -1}, {"dh": 0}, {"dw": -2}, {"flags": 6 << DW_ACT_SHIFT},
])
def test_depthwise_refuses_bad_sizes(bad):
    """Negative or zero sizes, non-positive strides and dilations, an unknown
    activation: nothing is read or written."""
    lib = load_kernels()
    p = dict(N=1, C=2, H=5, W=5, KH=3, KW=3, OH=5, OW=5, sh=1, sw=1, dh=1, dw=1, flags=0)
    p.update(bad)
    x = RNG.standard_normal((1, 2, 5, 5), np.float32)
    w = RNG.standard_normal((2, 3, 3), np.float32)
    out = np.full((1, 2, 5, 5), 3.0, np.float32)
    lib.dwconv2d_nchw(p["N"], p["C"], p["H"], p["W"], p["KH"], p["KW"], p["OH"], p["OW"],
                      p["sh"], p["sw"], p["dh"], p["dw"], 1, 1, x.ctypes.data, 50, 25, 5,
                      w.ctypes.data, out.ctypes.data, 50, 25, 5, 0, out.ctypes.data,
                      p["flags"], 0)
    assert (out == 3.0).all()


def test_depthwise_reads_only_the_image():
    """Windows reaching past every side of the image read nothing outside it: the
    image is a view inside a NaN-filled buffer, whose NaNs would poison the output if
    read."""
    lib = load_kernels()
    c, h, wd = 2, 6, 9
    poisoned = np.full((1, c, h + 4, wd + 8), np.nan, np.float32)
    x = poisoned[:, :, 2:h + 2, 4:wd + 4]
    x[...] = RNG.standard_normal((1, c, h, wd))
    w = RNG.standard_normal((c, 5, 5), np.float32)
    for k_s in (1, 2, 3):           # the stride 1, 2 and gather paths
        oh, ow = h + 6 if k_s == 1 else h, wd + 6 if k_s == 1 else wd
        out = np.zeros((1, c, oh, ow), np.float32)
        _run(lib, x, w, None, k_s, 1, 4, 5, oh, ow, out=out)
        assert np.isfinite(out).all()
        _check(out, _ref(np.ascontiguousarray(x), w, None, k_s, 1, 4, 5, oh, ow, "none"))


@pytest.mark.parametrize("name", ["avx2", "sse"])
def test_depthwise_other_isas(name):
    """The kernel for other vector widths (8, 4) runs here too (LLVM legalizes the
    vectors): rows longer than a vector, the row blocks of short rows, both strides,
    small planes flat at strides 1 and 2."""
    from strata.backends.cpu import kernels
    host = kernels.host_isa()
    isa = kernels.isa_for(name, cpu=host.cpu, features=host.features, kc=64, mc=24,
                          nc=4 * kernels.isa_for(name).nr)
    lib = kernels.KernelLibrary(isa)
    for c, h, wd, k, s, d, pad in ((3, 7, 7, 3, 1, 1, 1), (2, 9, 6, 3, 2, 1, 1),
                                   (3, 11, 29, 5, 1, 1, 2), (2, 12, 40, 3, 2, 1, 1),
                                   (2, 8, 8, 3, 1, 2, 2), (3, 14, 14, 3, 2, 1, 1),
                                   (2, 13, 13, 5, 2, 1, 2)):
        x, w, b, oh, ow = _case(c, h, wd, k, s, d, pad)
        for act in ("relu6", "silu"):
            _check(_run(lib, x, w, b, s, d, pad, pad, oh, ow, act),
                   _ref(x, w, b, s, d, pad, pad, oh, ow, act))



@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,n,h,wd,kh,kw,s,d,pt,pl,oh,ow", [
    (3, 1, 7, 7, 3, 3, 1, 1, 1, 1, 7, 7),      # 7x7 3x3: flat, 3 wide
    (4, 2, 7, 7, 5, 5, 1, 1, 2, 2, 7, 7),      # 5x5 on 7x7, two images: flat, 5 wide
    (2, 1, 14, 14, 3, 5, 1, 1, 1, 2, 14, 14),  # 3 rows x 5 columns
    (3, 1, 6, 9, 2, 4, 1, 1, 0, 1, 5, 9),      # even windows, asymmetric padding: any width
    (2, 1, 8, 8, 3, 3, 1, 2, 2, 2, 8, 8),      # dilation 2
    (2, 1, 64, 64, 3, 3, 1, 1, 1, 1, 64, 64),  # the largest flat plane (AVX-512)
    (1, 1, 65, 64, 3, 3, 1, 1, 1, 1, 65, 64),  # one row more: the row code
    (2, 1, 17, 15, 3, 3, 1, 1, 1, 1, 17, 15),  # 255 pixels, the last vector 15 lanes
    (1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1),      # a 1x1 image, one channel
    (2, 1, 5, 12, 1, 1, 1, 1, 0, 0, 5, 12),    # a 1x1 window
    (2, 1, 4, 4, 5, 5, 1, 1, 3, 2, 6, 4),      # windows wider than the image, more rows out
    (1, 1, 3, 3, 5, 5, 1, 1, 0, 4, 3, 3),      # ... than in (taps reading only the padding)
    (PAR_C, 1, 7, 7, 3, 3, 1, 1, 1, 1, 7, 7),  # many planes: parallel items
    (PAR_C // 2, 1, 7, 7, 3, 3, 1, 1, 1, 1, 7, 7),  # half as many: one thread
    (PAR_C, 1, 7, 7, 5, 5, 1, 1, 2, 2, 7, 7),  # 5x5, parallel
    (3, 1, 14, 14, 3, 3, 2, 1, 1, 1, 7, 7),    # stride 2: the four phases, 3 wide
    (3, 2, 14, 14, 5, 5, 2, 1, 2, 2, 7, 7),    # 5x5 stride 2, two images
    (2, 1, 13, 15, 3, 3, 2, 1, 1, 1, 7, 8),    # odd sizes: phases of unequal size
    (2, 1, 15, 15, 4, 2, 2, 1, 2, 0, 8, 8),    # even windows, asymmetric padding: any
    (2, 1, 14, 14, 3, 3, 2, 2, 2, 2, 7, 7),    # dilation 2 at stride 2
    (2, 1, 64, 64, 3, 3, 2, 1, 1, 1, 32, 32),  # the largest phases (AVX-512)
    (1, 1, 66, 66, 3, 3, 2, 1, 1, 1, 33, 33),  # larger: the row code
    (2, 1, 14, 14, 3, 3, 2, 1, 0, 0, 6, 6),    # OW < ceil(W / 2): the row code
    (1, 1, 1, 1, 3, 3, 2, 1, 1, 1, 1, 1),      # a 1x1 image at stride 2
    (PAR_C, 1, 14, 14, 3, 3, 2, 1, 1, 1, 7, 7),  # many planes: parallel items
    (PAR_C, 1, 14, 14, 3, 3, 2, 1, 0, 0, 7, 7),  # ... TF-style padding (0 top/left)
    (PAR_C, 1, 14, 14, 5, 5, 2, 1, 2, 2, 7, 7),  # 5x5 stride 2, parallel
])
def test_depthwise_flat_planes(threads, c, n, h, wd, kh, kw, s, d, pt, pl, oh, ow):
    """Small planes, stride 1 with output rows as long as the input's (OW = W) and
    stride 2 (the flat code, see [Note: depthwise kernel design]), each window shape and
    padding; against NumPy, and the input inside a NaN-filled buffer (rows above and
    below each plane), which no read may touch."""
    lib = load_kernels()
    poisoned = np.full((n, c, h + 6, wd), np.nan, np.float32)
    x = poisoned[:, :, 3:h + 3]
    x[...] = RNG.standard_normal((n, c, h, wd))
    w = RNG.standard_normal((c, kh, kw), np.float32)
    b = RNG.standard_normal(c).astype(np.float32)
    xc = np.ascontiguousarray(x)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for act in ("none", "relu6", "silu"):
            got = _run_hw(lib, x, w, b, s, d, pt, pl, oh, ow, act)
            assert np.isfinite(got).all()
            _check(got, _ref(xc, w, b, s, d, pt, pl, oh, ow, act))
        old = RNG.standard_normal((n, c, oh, ow)).astype(np.float32)
        got = _run_hw(lib, x, w, b, s, d, pt, pl, oh, ow, "relu", out=old.copy(), acc=1)
        _check(got, _ref(xc, w, b, s, d, pt, pl, oh, ow, "relu", old))
    finally:
        lib.set_num_threads(prev)


def _run_hw(lib, x, w, b, s, d, pt, pl, oh, ow, act, out=None, acc=0):
    """`_run` for windows of any height and width."""
    n, c, h, wd = x.shape
    kh, kw = w.shape[1:]
    if out is None:
        out = np.full((n, c, oh, ow), np.nan, np.float32)
    sn, sc, shs = (st // 4 for st in x.strides[:3])
    o = out.strides
    flags = DW_BIAS | (DW_ACTS[act] << DW_ACT_SHIFT)
    lib.dwconv2d_nchw(n, c, h, wd, kh, kw, oh, ow, s, s, d, d, pt, pl, x.ctypes.data, sn, sc,
                      shs, w.ctypes.data, out.ctypes.data, o[0] // 4, o[1] // 4, o[2] // 4,
                      acc, b.ctypes.data, flags, 0)
    return out


def test_depthwise_random_shapes():
    """Random small shapes around the flat code's conditions (OW = W or not, strides 1
    to 3, dilation 1 and 2, any padding and window up to 6 x 6, planes of 1 to 20
    rows and columns, strided inputs): every one against NumPy, on 1 and 2 threads."""
    lib = load_kernels()
    rng = np.random.default_rng(5)
    prev = lib.get_num_threads()
    try:
        for case in range(160):
            lib.set_num_threads(1 + case % 2)
            n, c = int(rng.integers(1, 3)), int(rng.integers(1, 6))
            h, wd = (int(v) for v in rng.integers(1, 21, 2))
            kh, kw = (int(v) for v in rng.integers(1, 7, 2))
            s, d = int(rng.integers(1, 4)), int(rng.integers(1, 3))
            pt, pl = (int(v) for v in rng.integers(0, 4, 2))
            oh = max(1, (h + 2 * pt - d * (kh - 1) - 1) // s + 1)
            ow = max(1, (wd + 2 * pl - d * (kw - 1) - 1) // s + 1)
            if s == 1 and rng.random() < 0.5:
                ow = wd                          # the flat code's rows
            pad = int(rng.integers(0, 3))        # wider input rows: not flat at stride 1
            base = rng.standard_normal((n, c, h, wd + pad)).astype(np.float32)
            x = base[..., :wd]
            w = rng.standard_normal((c, kh, kw)).astype(np.float32)
            b = rng.standard_normal(c).astype(np.float32)
            got = _run_hw(lib, x, w, b, s, d, pt, pl, oh, ow, "relu6")
            want = _ref(np.ascontiguousarray(x), w, b, s, d, pt, pl, oh, ow, "relu6")
            _check(got, want)
    finally:
        lib.set_num_threads(prev)
