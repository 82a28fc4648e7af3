"""strata_conv2d_nchw_f32 and strata_conv2d_nchw_packed_f32 (the filter in MR-row panels)
called directly: output rows shorter and longer than a packed panel (several pieces per
panel, pieces that start mid-panel), strides 1/2/3, dilation, K across several KC blocks,
filter-row tails, images of a few panels (packed whole before the product) and of many,
one and two threads — against NumPy; the grouped kernels (strata_conv2d_nchw_grouped*)
likewise, with the rule that runs their items in parallel."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.conversion.cpu_kernel_abi import pack_a_panels

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
    (16, 16, 16, 20, 3, 1, 1),    # 14x14 = 196 pixels: a narrow tail panel (AVX-512),
    #                               column slices cut mid-panel on 2 threads
    (48, 28, 28, 24, 1, 1, 1),    # 1x1 over 28x28: 784 = 24 x 32 + 16
    (20, 50, 50, 16, 1, 1, 1),    # 1x1, 2500 pixels: N blocks, B panel by panel
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
            kernel(2, c, h, w, f, k, k, oh, ow, s, s, d, d, 0, 0, x.ctypes.data,
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


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,f,k,s", [
    (3, 23, 64, 7, 2),      # conv1-like: many pixel panels
    (64, 16, 70, 3, 2),     # few pixels (packed whole), filters split across threads
    (24, 9, 13, 1, 2),      # 1x1 stride 2 (a downsample)
])
def test_conv2d_nchw_packed_epilogue(threads, c, h, f, k, s):
    """strata_conv2d_nchw_packed_epi_f32: + bias[f] (EPI_ROW_BIAS) and/or max(., 0)
    (EPI_RELU) with the last K block, overwriting or accumulating."""
    from strata.conversion.cpu_kernel_abi import EPI_RELU, EPI_ROW_BIAS
    lib = load_kernels()
    x = RNG.standard_normal((2, c, h, h), np.float32)
    wt = RNG.standard_normal((f, c, k, k), np.float32)
    bias = RNG.standard_normal(f).astype(np.float32)
    want, oh, ow = _ref(x, wt, s, 1)
    filt = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for flags in (EPI_ROW_BIAS, EPI_RELU, EPI_ROW_BIAS | EPI_RELU):
            for acc in (0, 1):
                out = RNG.standard_normal((2, f, oh, ow)).astype(np.float32)
                expect = want + (out.astype(np.float64) if acc else 0)
                if flags & EPI_ROW_BIAS:
                    expect = expect + bias[None, :, None, None]
                if flags & EPI_RELU:
                    expect = np.maximum(expect, 0)
                lib.conv2d_nchw_packed_epi(2, c, h, h, f, k, k, oh, ow, s, s, 1, 1, 0, 0,
                                           x.ctypes.data, c * h * h, h * h, h,
                                           filt.ctypes.data, out.ctypes.data, f * oh * ow,
                                           acc, bias.ctypes.data, flags, 0)
                np.testing.assert_allclose(out, expect, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


def test_compiled_conv_bias_relu_epilogue(tmp_path):
    """ONNX Conv (bias, stride 2) + Relu and a 1x1 stride-2 Conv with a bias, compiled for
    the CPU: the packed-filter kernel with its epilogue (flags 20 and 4), no elementwise
    loop left, the same results as onnxruntime at batch 1 and 3."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    import re

    import strata
    from onnx import TensorProto, helper, numpy_helper
    w = RNG.standard_normal((12, 5, 3, 3)).astype(np.float32) * 0.3
    b = RNG.standard_normal(12).astype(np.float32)
    w2 = RNG.standard_normal((7, 5, 1, 1)).astype(np.float32)
    b2 = RNG.standard_normal(7).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1],
                              strides=[2, 2]),
             helper.make_node("Relu", ["c"], ["y"]),
             helper.make_node("Conv", ["x", "w2", "b2"], ["z"], strides=[2, 2])]
    g = helper.make_graph(
        nodes, "conv_epi", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                          ["n", 5, 17, 17])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a, n) for a, n in ((w, "w"), (b, "b"), (w2, "w2"),
                                                     (b2, "b2"))])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    path = tmp_path / "conv_epi.onnx"
    onnx.save(model, str(path))
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"))
    lowered = next((tmp_path / "dump").glob("*strata-linalg-to-microkernels.mlir")).read_text()
    flags = re.findall(r"call @strata_conv2d_nchw_packed_epi_f32\(.*, %c(\d+)_i32(?:_\d+)?, "
                       r"%\w+\)", lowered)
    assert sorted(flags) == ["20", "4"], flags
    assert "linalg.generic" not in lowered
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for n in (1, 3):
        x = RNG.standard_normal((n, 5, 17, 17)).astype(np.float32)
        for got, want in zip(f(x), sess.run(None, {"x": x})):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def _three_kernels(lib, threads, kernels, want, bias, call):
    """Each of `kernels` ((kernel, filter, with the epilogue) triples: plain, packed,
    packed with the bias and ReLU) overwriting and accumulating, at `threads` threads:
    call(kernel, filter, out, acc, epilogue args) against `want` (float64)."""
    from strata.conversion.cpu_kernel_abi import EPI_RELU, EPI_ROW_BIAS
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for acc in (0, 1):
            for kernel, filt, epi in kernels:
                epi = (bias.ctypes.data, EPI_ROW_BIAS | EPI_RELU) if epi else ()
                out = RNG.standard_normal(want.shape).astype(np.float32)
                expect = want + (out.astype(np.float64) if acc else 0)
                if epi:
                    expect = np.maximum(expect + bias[None, :, None, None], 0)
                call(kernel, filt, out, acc, epi)
                np.testing.assert_allclose(out, expect, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


# ---------------------------------------------------------------- grouped convolutions


def _grouped_ref(x, w, groups, s, d):
    """A grouped convolution in float64: each group's channels by its filters."""
    fg, cg = w.shape[0] // groups, w.shape[1]
    outs = [_ref(x[:, g * cg:(g + 1) * cg], w[g * fg:(g + 1) * fg], s, d)
            for g in range(groups)]
    return np.concatenate([o for o, _, _ in outs], axis=1), outs[0][1], outs[0][2]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("g,c,f,h,w,k,s,d", [
    (2, 3, 5, 9, 9, 3, 1, 1),         # F < MR: row tails in every group
    (4, 8, 8, 12, 11, 3, 2, 1),       # stride 2, odd width
    (32, 4, 4, 14, 14, 3, 1, 1),      # ResNeXt-like: many tiny groups
    (3, 24, 24, 10, 10, 3, 1, 2),     # RegNet-X-like, dilation 2
    (2, 64, 64, 20, 20, 3, 1, 1),     # two big items: one after the other, each split
    (8, 1, 3, 7, 9, 3, 2, 1),         # one channel per group, three filters each
    (5, 13, 7, 6, 6, 1, 1, 1),        # 1x1 stride 1: the GEMM on each group in place
    (3, 40, 9, 11, 11, 3, 1, 1),      # K = 360: two KC blocks per group
])
def test_conv2d_nchw_grouped_matches_numpy(threads, g, c, f, h, w, k, s, d):
    """strata_conv2d_nchw_grouped[_packed[_epi]]_f32: the plain, packed-filter (each
    group packed on its own) and epilogue kernels against NumPy, overwriting and
    accumulating, with an input whose channels are a slice of a bigger image (group and
    image strides not the dense ones), at one and two threads."""
    lib = load_kernels()
    big = RNG.standard_normal((2, g * c + 3, h, w), np.float32)
    x = big[:, 2:2 + g * c]
    wt = RNG.standard_normal((g * f, c, k, k), np.float32)
    bias = RNG.standard_normal(g * f).astype(np.float32)
    want, oh, ow = _grouped_ref(x, wt, g, s, d)
    packed = pack_a_panels(wt.reshape(g * f, -1), lib.isa.mr, g)
    assert packed.size == g * -(-f // lib.isa.mr) * lib.isa.mr * c * k * k
    base = (2, g, c, h, w, f, k, k, oh, ow, s, s, d, d, 0, 0, x.ctypes.data,
            big.strides[0] // 4, c * h * w, h * w, w)
    _three_kernels(lib, threads, ((lib.conv2d_nchw_grouped, wt, False),
                                  (lib.conv2d_nchw_grouped_packed, packed, False),
                                  (lib.conv2d_nchw_grouped_packed_epi, packed, True)),
                   want, bias, lambda kernel, filt, out, acc, epi: kernel(
                       *base, filt.ctypes.data, out.ctypes.data, g * f * oh * ow, acc,
                       *epi, 0))


@pytest.mark.parametrize("items,macs,threads,split,parallel", [
    (32, 450_000, 2, 0, True),          # ResNeXt-50's groups: small items
    (3, 16_000_000, 2, 0, False),       # RegNet-X's first stage: three big groups
    (8, 16_000_000, 2, 0, True),        # four big items per thread
    (3, 16_000_000, 2, 3, True),        # the tile word says SPLIT_NONE
    (32, 450_000, 1, 0, False),         # one thread
    (1, 450_000, 2, 0, False),          # one item
])
def test_groups_in_parallel(items, macs, threads, split, parallel):
    from strata.backends.cpu.kernels_conv import groups_in_parallel
    assert groups_in_parallel(items, macs, threads, split) is parallel


def test_conv2d_nchw_grouped_split_none_runs_items_in_parallel():
    """Big items the tile word runs one per thread (SPLIT_NONE) give the same result as
    the default (one after the other, each split)."""
    from strata.backends.cpu.kernels_gemm import SPLIT_NONE, tile_word
    lib = load_kernels()
    g, c, f, h = 3, 32, 32, 24
    x = RNG.standard_normal((1, g * c, h, h), np.float32)
    wt = RNG.standard_normal((g * f, c, 3, 3), np.float32)
    want, oh, ow = _grouped_ref(x, wt, g, 1, 1)
    prev = lib.get_num_threads()
    lib.set_num_threads(2)
    try:
        for word in (0, tile_word(split=SPLIT_NONE)):
            out = np.zeros((1, g * f, oh, ow), np.float32)
            lib.conv2d_nchw_grouped(1, g, c, h, h, f, 3, 3, oh, ow, 1, 1, 1, 1, 0, 0,
                                    x.ctypes.data, g * c * h * h, c * h * h, h * h, h,
                                    wt.ctypes.data, out.ctypes.data, g * f * oh * ow, 0, word)
            np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,w,f,k,d", [
    (16, 16, 16, 20, 3, 1),      # 14x14 output
    (32, 9, 9, 24, 3, 1),        # 7x7 output
    (8, 14, 12, 40, 1, 1),       # 1x1 over rows of 12
    (4, 13, 15, 6, 3, 2),        # dilation 2
    (5, 6, 20, 7, 5, 1),         # a wide row: not flat
])
def test_conv2d_flat_rows_strided_input(threads, c, h, w, f, k, d):
    """[Note: flat rows]: stride-1 convolutions over an image whose rows and channels are
    padded in memory (shs > W, sc > H * shs, the last channel ending the buffer), batch
    2, overwriting (flat) and accumulating (row by row), packed filters with the
    epilogue's per-filter bias and ReLU; the padding of the output is not written."""
    from strata.conversion.cpu_kernel_abi import EPI_RELU, EPI_ROW_BIAS
    lib = load_kernels()
    shs, sc = w + 3, (h + 1) * (w + 3)
    buf = RNG.standard_normal(2 * c * sc, np.float32)
    x = np.lib.stride_tricks.as_strided(buf, (2, c, h, w), (c * sc * 4, sc * 4, shs * 4, 4))
    wt = RNG.standard_normal((f, c, k, k), np.float32)
    bias = RNG.standard_normal(f).astype(np.float32)
    want, oh, ow = _ref(np.array(x), wt, 1, d)
    packed = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for acc in (0, 1):
            out = RNG.standard_normal((2, f * oh * ow + 5)).astype(np.float32)
            before = out.copy()
            lib.conv2d_nchw_packed_epi(2, c, h, w, f, k, k, oh, ow, 1, 1, d, d, 0, 0,
                                       buf.ctypes.data, c * sc, sc, shs, packed.ctypes.data,
                                       out.ctypes.data, f * oh * ow + 5, acc,
                                       bias.ctypes.data, EPI_ROW_BIAS | EPI_RELU, 0)
            got = out[:, :f * oh * ow].reshape(2, f, oh, ow)
            base = before[:, :f * oh * ow].reshape(2, f, oh, ow) if acc else 0.0
            np.testing.assert_allclose(
                got, np.maximum(want + base + bias[:, None, None], 0), rtol=1e-4, atol=1e-3)
            assert np.array_equal(out[:, f * oh * ow:], before[:, f * oh * ow:])
    finally:
        lib.set_num_threads(prev)


# ---------------------------------------------------------------- padding
# ([Note: padding in the packing] in kernels_conv.py)


def _padded_ref(x, w, s, d, pads, oh=None, ow=None):
    """The convolution of x zero-padded by pads = (top, left, bottom, right) (float64),
    cropped to oh x ow when given (OH, OW reaching past the padded image read zeros)."""
    pt, pl, pb, pr = pads
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb + 64), (pl, pr + 64)))
    want, oh0, ow0 = _ref(xp[:, :, :x.shape[2] + pt + pb, :x.shape[3] + pl + pr], w, s, d)
    if oh is None:
        return want, oh0, ow0
    full, _, _ = _ref(xp, w, s, d)
    return full[:, :, :oh, :ow], oh, ow


def _poisoned(c, h, w, n=2):
    """An image (n, c, h, w) as a view inside a NaN-filled buffer (rows and channels
    apart in memory): a read outside the image poisons the output."""
    buf = np.full((n, c + 1, h + 6, w + 9), np.nan, np.float32)
    x = buf[:, 1:, 3:h + 3, 4:w + 4]
    x[...] = RNG.standard_normal((n, c, h, w))
    return buf, x


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("c,h,w,f,kh,kw,s,d,pads", [
    (3, 32, 32, 16, 7, 7, 2, 1, (3, 3, 3, 3)),       # a ResNet stem (OW 16)
    (8, 14, 14, 12, 3, 3, 2, 1, (1, 1, 1, 1)),       # stride 2, 7x7 out: short pieces
    (6, 9, 11, 5, 3, 3, 1, 1, (1, 2, 0, 3)),         # asymmetric padding
    (5, 20, 20, 8, 3, 3, 1, 6, (6, 6, 6, 6)),        # DeepLab's dilated 3x3, d = 6
    (4, 10, 12, 7, 3, 3, 1, 12, (12, 12, 12, 12)),   # d = 12: most taps padding
    (4, 30, 30, 9, 3, 3, 1, 2, (2, 2, 2, 2)),        # d = 2, OW 30: two pieces a panel
    (7, 5, 6, 9, 1, 1, 1, 1, (1, 0, 2, 1)),          # a padded 1x1: no direct GEMM
    (3, 13, 40, 6, 3, 3, 3, 1, (1, 1, 1, 1)),        # stride 3 (the strided path)
    (40, 10, 11, 9, 3, 3, 1, 1, (1, 1, 1, 1)),       # K = 360: two KC blocks
    (24, 23, 23, 50, 3, 3, 2, 1, (1, 1, 1, 1)),      # more panels than packed whole
    (2, 4, 5, 3, 3, 3, 2, 3, (5, 4, 6, 7)),          # padding wider than the image
])
def test_conv2d_nchw_padded_matches_numpy(threads, c, h, w, f, kh, kw, s, d, pads):
    """The NCHW kernels given the padding read the unpadded image (a view in a
    NaN-filled buffer: nothing outside it read) and match NumPy on the zero-padded one:
    plain, packed and packed with the epilogue, overwriting and accumulating."""
    lib = load_kernels()
    buf, x = _poisoned(c, h, w)
    wt = RNG.standard_normal((f, c, kh, kw), np.float32)
    bias = RNG.standard_normal(f).astype(np.float32)
    want, oh, ow = _padded_ref(x, wt, s, d, pads)
    packed = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    st = [v // 4 for v in x.strides[:3]]
    _three_kernels(lib, threads, ((lib.conv2d_nchw, wt, False),
                                  (lib.conv2d_nchw_packed, packed, False),
                                  (lib.conv2d_nchw_packed_epi, packed, True)),
                   want, bias, lambda kernel, filt, out, acc, epi: kernel(
                       2, c, h, w, f, kh, kw, oh, ow, s, s, d, d, pads[0], pads[1],
                       x.ctypes.data, *st, filt.ctypes.data, out.ctypes.data, f * oh * ow,
                       acc, *epi, 0))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("g,c,f,h,k,s,d,pads", [
    (4, 8, 8, 14, 3, 2, 1, (1, 1, 1, 1)),      # ResNeXt's grouped stride-2 3x3
    (32, 4, 4, 14, 3, 2, 1, (1, 1, 1, 1)),     # 32 groups of 4: items in parallel
    (3, 5, 6, 9, 3, 1, 2, (2, 2, 2, 2)),       # dilated, stride 1
    (2, 3, 5, 7, 3, 1, 1, (0, 1, 2, 0)),       # asymmetric
])
def test_conv2d_nchw_grouped_padded_matches_numpy(threads, g, c, f, h, k, s, d, pads):
    """The grouped kernels given the padding: each group reads its channels of the
    unpadded image (nothing outside it: NaNs around it)."""
    lib = load_kernels()
    buf, x = _poisoned(g * c, h, h)
    wt = RNG.standard_normal((g * f, c, k, k), np.float32)
    bias = RNG.standard_normal(g * f).astype(np.float32)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    want, oh, ow = _grouped_ref(xp, wt, g, s, d)
    packed = pack_a_panels(wt.reshape(g * f, -1), lib.isa.mr, g)
    st = [v // 4 for v in x.strides[:3]]
    _three_kernels(lib, threads, ((lib.conv2d_nchw_grouped, wt, False),
                                  (lib.conv2d_nchw_grouped_packed, packed, False),
                                  (lib.conv2d_nchw_grouped_packed_epi, packed, True)),
                   want, bias, lambda kernel, filt, out, acc, epi: kernel(
                       2, g, c, h, h, f, k, k, oh, ow, s, s, d, d, pads[0], pads[1],
                       x.ctypes.data, st[0], c * st[1], st[1], st[2], filt.ctypes.data,
                       out.ctypes.data, g * f * oh * ow, acc, *epi, 0))


def test_conv2d_nchw_outputs_past_the_image_read_zeros():
    """Sizes that do not fit the image (OH, OW larger than the image gives, no padding
    given) read nothing outside it: the taps past it are zeros."""
    lib = load_kernels()
    buf, x = _poisoned(3, 6, 7, n=1)
    wt = RNG.standard_normal((4, 3, 3, 3), np.float32)
    want, oh, ow = _padded_ref(x, wt, 1, 1, (0, 0, 0, 0), 9, 11)
    out = np.zeros((1, 4, oh, ow), np.float32)
    st = [v // 4 for v in x.strides[:3]]
    lib.conv2d_nchw(1, 3, 6, 7, 4, 3, 3, oh, ow, 1, 1, 1, 1, 0, 0, x.ctypes.data, *st,
                    wt.ctypes.data, out.ctypes.data, 4 * oh * ow, 0, 0)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("bad", [
    {"pt": -1}, {"pl": -2}, {"H": -1}, {"W": -5}, {"OH": -5, "OW": -5}, {"C": -2, "KH": -3},
    {"N": -1}, {"F": -3}, {"sh": 0}, {"sw": -1}, {"dh": 0}, {"dw": -2}, {"G": -1, "N": -1},
])
def test_conv2d_nchw_refuses_bad_sizes(bad):
    """Negative sizes or padding (two negative sizes whose product is positive
    included), strides and dilations below 1: nothing read or written (as the depthwise
    kernel refuses bad sizes)."""
    lib = load_kernels()
    p = dict(N=1, G=1, C=2, H=5, W=5, F=3, KH=3, KW=3, OH=5, OW=5, sh=1, sw=1, dh=1, dw=1,
             pt=1, pl=1)
    p.update(bad)
    x = RNG.standard_normal((1, 2, 5, 5), np.float32)
    wt = RNG.standard_normal((3, 2, 3, 3), np.float32)
    sizes = [p[k] for k in ("C", "H", "W", "F", "KH", "KW", "OH", "OW", "sh", "sw", "dh",
                            "dw", "pt", "pl")]
    for kernel in (lib.conv2d_nchw, lib.conv2d_nchw_grouped):
        out = np.full((1, 3, 5, 5), 3.0, np.float32)
        if kernel is lib.conv2d_nchw:
            if "G" in bad:
                continue
            kernel(p["N"], *sizes, x.ctypes.data, 50, 25, 5, wt.ctypes.data,
                   out.ctypes.data, 75, 0, 0)
        else:
            kernel(p["N"], p["G"], *sizes, x.ctypes.data, 50, 50, 25, 5, wt.ctypes.data,
                   out.ctypes.data, 75, 0, 0)
        assert (out == 3.0).all()
