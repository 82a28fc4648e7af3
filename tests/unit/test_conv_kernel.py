"""strata_conv2d_nchw_f32 and strata_conv2d_nchw_packed_f32 (the filter in MR-row panels)
called directly: output rows shorter and longer than a packed panel (several pieces per
panel, pieces that start mid-panel), strides 1/2/3, dilation, K across several KC blocks,
filter-row tails, images of a few panels (packed whole before the product) and of many,
one and two threads — against NumPy."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.conversion.linalg_to_microkernels import pack_a_panels

RNG = np.random.default_rng(7)


def _ref(x, w, s, d):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh, ow = (h - d * (kh - 1) - 1) // s + 1, (wd - d * (kw - 1) - 1) // s + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * d:i * d + s * (oh - 1) + 1:s, j * d:j * d + s * (ow - 1) + 1:s]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j].astype(np.float64))
    return out, oh, ow


@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,w,f,k,s,d", [
    (3, 9, 9, 5, 3, 1, 1),        # OW 7: three pieces per 16-column panel
    (2, 5, 3, 4, 1, 1, 1),        # 1x1 over a 3-wide image: many short pieces
    (4, 16, 18, 13, 3, 1, 1),     # OW 16: a panel per row
    (5, 19, 21, 7, 3, 2, 1),      # stride 2, OW 10
    (3, 13, 40, 6, 3, 3, 1),      # stride 3 (the strided path), OW 13
    (2, 12, 12, 6, 3, 1, 2),      # dilation 2
    (40, 10, 11, 9, 3, 1, 1),     # K = 360: two KC blocks
    (64, 9, 9, 70, 3, 1, 1),      # K = 576, F = 70 (row tails), OW 7
    (24, 23, 23, 50, 3, 2, 1),    # stride 2, 121 pixels: more panels than packed whole
])
def test_conv2d_nchw_matches_numpy(packed, threads, c, h, w, f, k, s, d):
    lib = load_kernels()
    x = RNG.standard_normal((2, c, h, w), np.float32)
    wt = RNG.standard_normal((f, c, k, k), np.float32)
    want, oh, ow = _ref(x, wt, s, d)
    kernel = lib.conv2d_nchw_packed if packed else lib.conv2d_nchw
    filt = pack_a_panels(wt.reshape(f, -1), lib.isa.mr) if packed else wt
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for acc in (0, 1):
            out = RNG.standard_normal((2, f, oh, ow)).astype(np.float32)
            base = out.astype(np.float64) if acc else 0.0
            kernel(2, c, h, w, f, k, k, oh, ow, s, s, d, d, x.ctypes.data,
                   c * h * w, h * w, w, filt.ctypes.data, out.ctypes.data,
                   f * oh * ow, acc, 0)
            np.testing.assert_allclose(out, want + base, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


def test_pack_a_panels():
    """MR-row panels of the whole K, zero rows past F."""
    a = np.arange(5 * 3, dtype=np.float32).reshape(5, 3)
    p = pack_a_panels(a, 4).reshape(2, 3, 4)
    np.testing.assert_array_equal(p[0], a[:4].T)
    np.testing.assert_array_equal(p[1, :, 0], a[4])
    assert not p[1, :, 1:].any()
