"""strata_conv2d_winograd_f32 (F(2x2, 3x3) and, with TILE4, F(4x4, 3x3)) against NumPy,
called directly (odd and even output sizes, tiles past the image's edge, more tiles than
a vector, accumulation, one and two threads), and strata-linalg-conv-to-winograd end to
end: an ONNX model of 3x3 convolutions compiled for the CPU matches onnxruntime and
calls the kernel."""
import re

import numpy as np
import pytest

from strata.backends.cpu.kernels import host_isa, load_kernels
from strata.backends.cpu.kernels_winograd import _G4, PACKED_U, TILE4, winograd_filter

RNG = np.random.default_rng(11)


def _ref(x, w):
    n, c, h, wd = x.shape
    oh, ow = h - 2, wd - 2
    out = np.zeros((n, w.shape[0], oh, ow))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,fc->nfhw", x[:, :, i:i + oh, j:j + ow],
                             w[:, :, i, j].astype(np.float64))
    return out


def test_filter_transform():
    g = RNG.standard_normal((2, 3, 3, 3))
    u = winograd_filter(g)
    G = np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]])
    assert u.shape == (16, 2, 3) and u.dtype == np.float32
    np.testing.assert_allclose(u.reshape(4, 4, 2, 3)[:, :, 1, 2], G @ g[1, 2] @ G.T,
                               rtol=1e-6)


def test_filter_transform_packed():
    """PACKED_U: U[xi]^T in panels of NR filters, C x NR each, zeros past F."""
    g = RNG.standard_normal((5, 3, 3, 3))
    u = winograd_filter(g)
    p = winograd_filter(g, panel_width=4)
    assert p.shape == (16, 2, 3, 4) and p.dtype == np.float32
    np.testing.assert_array_equal(p[:, 0], u[:, :4].transpose(0, 2, 1))
    np.testing.assert_array_equal(p[:, 1, :, 0], u[:, 4])
    assert not p[:, 1, :, 1:].any()


def test_filter_transform_tile4():
    """F(4x4, 3x3): U = G g G^T with G 6 x 3, 36 positions."""
    g = RNG.standard_normal((2, 3, 3, 3))
    u = winograd_filter(g, tile=4)
    assert u.shape == (36, 2, 3) and u.dtype == np.float32
    G = np.array(_G4)
    np.testing.assert_allclose(u.reshape(6, 6, 2, 3)[:, :, 1, 2], G @ g[1, 2] @ G.T,
                               rtol=1e-6, atol=1e-7)
    p = winograd_filter(g, panel_width=4, tile=4)
    assert p.shape == (36, 1, 3, 4)
    np.testing.assert_array_equal(p[:, 0, :, :2], u.transpose(0, 2, 1))


def _filter(g, packed, tile=2):
    """(U, the kernel's layout and tile flags) for the row-major or the packed products."""
    flags = TILE4 if tile == 4 else 0
    if packed:
        return winograd_filter(g, host_isa().nr, tile), PACKED_U | flags
    return winograd_filter(g, tile=tile), flags


def _close(got, want, tile):
    # F(4x4, 3x3) rounds ~10x more than F(2x2, 3x3): a few 1e-6 of the outputs' scale
    atol = 1e-4 if tile == 2 else 2e-5 * float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=atol)


@pytest.mark.parametrize("tile", [2, 4])
@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n,c,h,w,f", [
    (1, 3, 6, 6, 2),        # one row of two tiles
    (2, 5, 9, 8, 3),        # odd output rows (7): the last tile row half outside
    (1, 16, 12, 21, 9),     # odd output columns (19): ten tiles, a vector and a tail
    (1, 8, 3, 3, 4),        # a 1x1 output
    (1, 24, 40, 38, 17),    # 19 tiles a row (two vectors and a tail), 19 rows
    (1, 33, 16, 16, 40),    # packed: 49 tiles (8 x 6 + 1), filters past a whole panel
    (1, 8, 70, 74, 5),      # F(4x4): 18 tiles a row (two whole vectors and a tail)
])
def test_kernel_matches_numpy(tile, packed, threads, n, c, h, w, f):
    lib = load_kernels()
    x = RNG.standard_normal((n, c, h, w), np.float32)
    g = RNG.standard_normal((f, c, 3, 3), np.float32)
    want = _ref(x, g)
    oh, ow = h - 2, w - 2
    u, layout = _filter(g, packed, tile)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for acc in (0, 1):
            out = RNG.standard_normal((n, f, oh, ow)).astype(np.float32)
            base = out.astype(np.float64) if acc else 0.0
            lib.conv2d_winograd(n, c, h, w, f, oh, ow, 0, 0, x.ctypes.data, c * h * w,
                                h * w, w, u.ctypes.data, out.ctypes.data, f * oh * ow, oh * ow, ow,
                                acc, 0, 0, 0, 0, 0, layout)
            _close(out, want + base, tile)
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("tile", [2, 4])
@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("h,w,pads", [
    (14, 14, (1, 1, 1, 1)),     # ResNet's 3x3 "same" padding, 49 tiles
    (12, 21, (1, 1, 1, 1)),     # a vector of tiles and a tail a row
    (9, 8, (2, 0, 0, 2)),       # only above / only right
    (6, 40, (0, 2, 1, 0)),      # only left / only below: two columns of W tiles
    (8, 70, (1, 1, 1, 1)),      # a whole column of W tiles inside (the unmasked path)
    (7, 9, (3, 4, 2, 3)),       # pt > 2: the masked path throughout
    (2, 2, (1, 1, 1, 1)),       # an image smaller than a tile's patch
])
def test_padding_read_as_zeros(tile, packed, h, w, pads):
    """pt, pl ([Note: Winograd's padding]): the kernel reads the unpadded image and
    computes what it computes on the zero-padded copy (below and right: what OH and OW
    reach past the image)."""
    lib = load_kernels()
    pt, pl, pb, pr = pads
    n, c, f = 2, 19, 33
    x = RNG.standard_normal((n, c, h, w), np.float32)
    g = RNG.standard_normal((f, c, 3, 3), np.float32)
    want = _ref(np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr))), g)
    oh, ow = want.shape[2:]
    u, layout = _filter(g, packed, tile)
    out = np.full((n, f, oh, ow), np.nan, np.float32)
    lib.conv2d_winograd(n, c, h, w, f, oh, ow, pt, pl, x.ctypes.data, c * h * w, h * w, w,
                        u.ctypes.data, out.ctypes.data, f * oh * ow, oh * ow, ow, 0, 0, 0,
                        0, 0, 0, layout)
    _close(out, want, tile)


def test_negative_padding_refused():
    """Negative padding: nothing written (the other convolution kernels' rule)."""
    lib = load_kernels()
    x = RNG.standard_normal((1, 8, 6, 6), np.float32)
    u, layout = _filter(RNG.standard_normal((8, 8, 3, 3), np.float32), False)
    for pt, pl in ((-1, 0), (0, -1), (-(1 << 62), 1)):
        out = np.full((1, 8, 6, 6), 7.0, np.float32)
        lib.conv2d_winograd(1, 8, 6, 6, 8, 6, 6, pt, pl, x.ctypes.data, 288, 36, 6,
                            u.ctypes.data, out.ctypes.data, 288, 36, 6, 0, 0, 0, 0, 0, 0,
                            layout)
        assert (out == 7.0).all()


@pytest.mark.parametrize("tile", [2, 4])
def test_strided_input_rows(tile):
    """The image's row stride larger than its width (a view of a wider buffer)."""
    lib = load_kernels()
    big = RNG.standard_normal((1, 8, 10, 16), np.float32)
    x = big[:, :, :, 2:13]
    g = RNG.standard_normal((8, 8, 3, 3), np.float32)
    out = np.zeros((1, 8, 8, 9), np.float32)
    u, flags = _filter(g, False, tile)
    lib.conv2d_winograd(1, 8, 10, 11, 8, 8, 9, 0, 0, x.ctypes.data, 8 * 160, 160, 16,
                        u.ctypes.data, out.ctypes.data, 8 * 72, 72, 9, 0, 0, 0, 0, 0, 0,
                        flags)
    _close(out, _ref(np.ascontiguousarray(x), g), tile)


@pytest.mark.parametrize("tile", [2, 4])
@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("flags", [1, 2, 4, 5, 6, 7])
def test_epilogue(flags, packed, tile):
    """bias (1), residual (2), ReLU (4) in the kernel's epilogue, into a strided output
    (the interior of a padded buffer) from a strided residual, with accumulation."""
    lib = load_kernels()
    n, c, h, w, f = 2, 8, 9, 12, 9
    oh, ow = h - 2, w - 2
    x = RNG.standard_normal((n, c, h, w), np.float32)
    g = RNG.standard_normal((f, c, 3, 3), np.float32)
    bias = RNG.standard_normal(f).astype(np.float32)
    res_big = RNG.standard_normal((n, f, oh + 1, ow + 3), np.float32)
    res = res_big[:, :, 1:, 2:-1]
    out_big = RNG.standard_normal((n, f, oh + 2, ow + 2)).astype(np.float32)
    out_big[0, 0, 1, 1] = np.nan     # overwritten (acc 0)
    u, layout = _filter(g, packed, tile)
    want = _ref(x, g)
    if flags & 1:
        want = want + bias[None, :, None, None]
    if flags & 2:
        want = want + res
    for acc in (0, 1):
        big = out_big.copy()
        if acc:
            big[0, 0, 1, 1] = 0.5
        inner = big[:, :, 1:-1, 1:-1]
        expect = want + (inner.astype(np.float64) if acc else 0)
        if flags & 4:
            expect = np.maximum(expect, 0)
        lib.conv2d_winograd(n, c, h, w, f, oh, ow, 0, 0, x.ctypes.data, c * h * w,
                            h * w, w, u.ctypes.data, inner.ctypes.data, f * (oh + 2) * (ow + 2),
                            (oh + 2) * (ow + 2), ow + 2, acc, bias.ctypes.data,
                            res.ctypes.data, f * (oh + 1) * (ow + 3),
                            (oh + 1) * (ow + 3), ow + 3, flags | layout)
        _close(inner, expect, tile)
        # the border of the padded buffer is untouched
        np.testing.assert_array_equal(big[:, :, 0], out_big[:, :, 0])
        np.testing.assert_array_equal(big[:, :, :, -1], out_big[:, :, :, -1])


def _onnx_case(tmp_path, name, nodes, x_shape, y_shape, inits):
    """An ONNX model of `nodes` (input x, output y, initializers {name: array}) saved in
    tmp_path, a random input for it and onnxruntime's output: (path, x, want)."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y_shape))],
        [numpy_helper.from_array(a, n) for n, a in inits.items()])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    path = tmp_path / f"{name}.onnx"
    onnx.save(model, str(path))
    x = RNG.standard_normal(x_shape, np.float32)
    want = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        None, {"x": x})[0]
    return path, x, want


def test_compiled_model_uses_winograd(tmp_path):
    helper = pytest.importorskip("onnx.helper")
    import strata
    w1 = RNG.standard_normal((16, 8, 3, 3), np.float32) * 0.2
    b1 = RNG.standard_normal(16).astype(np.float32)
    w2 = RNG.standard_normal((16, 16, 3, 3), np.float32) * 0.2
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "r1"], ["a2"]),
             helper.make_node("Relu", ["a2"], ["y"])]
    path, x, want = _onnx_case(tmp_path, "wino", nodes, (2, 8, 13, 10), (2, 16, 13, 10),
                               {"w1": w1, "b1": b1, "w2": w2})
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"))
    np.testing.assert_allclose(f(x)[0], want, rtol=1e-4, atol=1e-4)
    dump = tmp_path / "dump"
    ll = next(dump.glob("*module.ll")).read_text()
    assert ll.count("call void @strata_conv2d_winograd_f32(") == 2
    # bias + ReLU, then residual + ReLU, fused into the kernels: no loops of their own
    opt = next(dump.glob("*strata-linalg-conv-to-winograd.mlir")).read_text()
    assert "linalg.generic" not in opt and "i32 5)" not in opt
    assert opt.count("%c5_i32)") == 1 and opt.count("%c6_i32)") == 1


@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_model_padding_read_in_place(tmp_path, threads):
    """Padded 3x3s ([Note: Winograd's padding]): a ResNet bottleneck's 1x1 + ReLU, then a
    3x3 with uneven pads reading it (F(4x4, 3x3)) and a padded 3x3 after that: the
    first kernel reads its image with pt / pl (no padded copy), the second the padded
    buffer the first writes into, and the model matches onnxruntime."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    w0 = RNG.standard_normal((24, 16, 1, 1), np.float32) * 0.2
    w1 = RNG.standard_normal((24, 24, 3, 3), np.float32) * 0.1
    b1 = RNG.standard_normal(24).astype(np.float32)
    w2 = RNG.standard_normal((16, 24, 3, 3), np.float32) * 0.1
    nodes = [helper.make_node("Conv", ["x", "w0"], ["c0"]),
             helper.make_node("Relu", ["c0"], ["r0"]),
             helper.make_node("Conv", ["r0", "w1", "b1"], ["c1"], pads=[2, 1, 0, 2]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["y"], pads=[1, 1, 1, 1])]
    path, x, want = _onnx_case(tmp_path, "wino_pad", nodes, (1, 16, 28, 28),
                               (1, 16, 28, 29), {"w0": w0, "w1": w1, "b1": b1, "w2": w2})
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"), num_threads=threads)
    np.testing.assert_allclose(f(x)[0], want, rtol=1e-4, atol=1e-4)
    opt = next((tmp_path / "dump").glob("*strata-linalg-conv-to-winograd.mlir")).read_text()
    assert opt.count("call @strata_conv2d_winograd_f32(") == 2
    assert "memref.copy" not in opt
    # (H, W, F, OH, OW, pt, pl): the first reads the 28x28 image unpadded, the second
    # the 30x31 buffer the first wrote the inside of (constants' names unsuffixed)
    opt = re.sub(r"(%c\d+_i64)_\d+", r"\1", opt)
    assert "%c28_i64, %c28_i64, %c24_i64, %c28_i64, %c29_i64, %c2_i64, %c1_i64," in opt
    assert "%c30_i64, %c31_i64, %c16_i64, %c28_i64, %c29_i64, %c0_i64, %c0_i64," in opt


def test_compiled_model_packed_filters(tmp_path):
    """Filters of two panels and 32 channels up: the pass packs U^T (PACKED_U, flag 8)
    and the transposed products compute the same as onnxruntime."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    nr = host_isa().nr
    f_, c_ = 2 * nr + 3, 32
    w = RNG.standard_normal((f_, c_, 3, 3), np.float32) * 0.1
    b = RNG.standard_normal(f_).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["y"])]
    path, x, want = _onnx_case(tmp_path, "wino_packed", nodes, (1, c_, 14, 15),
                               (1, f_, 14, 15), {"w": w, "b": b})
    for threads in (1, 2):
        f = strata.compile(str(path), dump_dir=str(tmp_path / f"dump{threads}"),
                           num_threads=threads)
        np.testing.assert_allclose(f(x)[0], want, rtol=1e-4, atol=1e-4)
    opt = next((tmp_path / "dump1").glob("*strata-linalg-conv-to-winograd.mlir")).read_text()
    # bias (1) + ReLU (4: the batch of one read as (0, d1, d2, d3) by the Relu is the
    # identity) + PACKED_U (8); U is 16 x 3 panels x C x NR floats
    assert opt.count("%c13_i32)") == 1
    assert f"memref<{16 * 3 * c_ * nr}xf32>" in opt


def test_compiled_model_large_tiles(tmp_path):
    """Images of WINOGRAD_TILE4_MIN_TILES 4x4 tiles and up run as F(4x4, 3x3) in the CPU
    pipeline (TILE4, flag 16; U 36 x F x C), smaller ones as F(2x2, 3x3); both match
    onnxruntime."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    from strata.backends.cpu.kernels import WINOGRAD_TILE4_MIN_TILES
    assert -(-28 // 4) * -(-29 // 4) >= WINOGRAD_TILE4_MIN_TILES > -(-14 // 4) * -(-15 // 4)
    w1 = RNG.standard_normal((16, 16, 3, 3), np.float32) * 0.1
    b1 = RNG.standard_normal(16).astype(np.float32)
    w2 = RNG.standard_normal((16, 16, 3, 3), np.float32) * 0.1
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p1", "w2"], ["y"], pads=[1, 1, 1, 1])]
    path, x, want = _onnx_case(tmp_path, "wino4", nodes, (1, 16, 28, 30), (1, 16, 14, 15),
                               {"w1": w1, "b1": b1, "w2": w2})
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"))
    np.testing.assert_allclose(f(x)[0], want, rtol=1e-4, atol=1e-4)
    opt = next((tmp_path / "dump").glob("*strata-linalg-conv-to-winograd.mlir")).read_text()
    # TILE4 (16) + bias (1) on the 28x30 image, U 36 x 16 x 16 floats; the 14x15 image
    # F(2x2): U 16 x 16 x 16
    assert opt.count("%c17_i32)") == 1
    assert "memref<9216xf32>" in opt and "memref<4096xf32>" in opt


def test_compiled_model_small_deep_images_stay_direct(tmp_path):
    """[Note: Winograd on small images]: in the CPU pipeline a 7x7 output (16 tiles) with
    U over WINOGRAD_FEW_TILES_MAX_U floats keeps the direct product; a 9x9 output (25
    tiles) of the same filter runs as Winograd; both match onnxruntime."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    from strata.backends.cpu.kernels import WINOGRAD_FEW_TILES, WINOGRAD_FEW_TILES_MAX_U
    c = 264
    assert 16 * c * c > WINOGRAD_FEW_TILES_MAX_U and 16 < WINOGRAD_FEW_TILES <= 25
    for side, wino in ((7, False), (9, True)):
        w = RNG.standard_normal((c, c, 3, 3), np.float32) * 0.05
        nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                 helper.make_node("Relu", ["c"], ["y"])]
        path, x, want = _onnx_case(tmp_path, f"wino_small{side}", nodes,
                                   (1, c, side, side), (1, c, side, side), {"w": w})
        dump = tmp_path / f"dump{side}"
        f = strata.compile(str(path), dump_dir=str(dump), cache=False)
        np.testing.assert_allclose(f(x)[0], want, rtol=1e-4, atol=1e-4)
        ll = next(dump.glob("*module.ll")).read_text()
        assert ("call void @strata_conv2d_winograd_f32(" in ll) is wino
        assert ("@strata_conv2d_nchw" in ll) is not wino


@pytest.mark.parametrize("dil,pads,hw,epilogue", [
    ((2, 2), (2, 2, 2, 2), (16, 16), "bias_relu"),    # full blocks, no fill
    ((2, 2), (2, 2, 2, 2), (13, 10), "none"),         # odd sizes: zero-filled blocks
    ((3, 3), (3, 3, 3, 3), (24, 27), "bias_relu"),
    ((2, 1), (2, 1, 1, 1), (15, 12), "residual"),     # dilated along H only, asymmetric
    ((1, 2), (0, 1, 2, 3), (12, 16), "bias_relu"),    # pads, outputs past the image
])
def test_compiled_model_dilated_mosaic(tmp_path, dil, pads, hw, epilogue):
    """[Note: dilated convolutions as a mosaic]: dilated 3x3 stride-1 convolutions run as
    Winograd on the mosaic of the image's phases and match onnxruntime (batch 2, bias and
    ReLU fused, a residual added after, none)."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    c, f_ = 8, 16
    w = RNG.standard_normal((f_, c, 3, 3), np.float32) * 0.2
    b = RNG.standard_normal(f_).astype(np.float32)
    h, wd = hw
    oh = h + pads[0] + pads[2] - 2 * dil[0]
    ow = wd + pads[1] + pads[3] - 2 * dil[1]
    conv_in = ["x", "w"] + (["b"] if epilogue != "none" else [])
    out = "y" if epilogue == "none" else "c"
    nodes = [helper.make_node("Conv", conv_in, [out], dilations=list(dil),
                              pads=list(pads))]
    inits = {"w": w, "b": b} if epilogue != "none" else {"w": w}
    if epilogue == "bias_relu":
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
    elif epilogue == "residual":
        inits["r"] = RNG.standard_normal((2, f_, oh, ow)).astype(np.float32)
        nodes += [helper.make_node("Add", ["c", "r"], ["a"]),
                  helper.make_node("Relu", ["a"], ["y"])]
    path, x, want = _onnx_case(tmp_path, "dilated", nodes, (2, c, h, wd), (2, f_, oh, ow),
                               inits)
    dump = tmp_path / "dump"
    got = strata.compile(str(path), dump_dir=str(dump), cache=False)(x)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    ll = next(dump.glob("*module.ll")).read_text()
    assert "call void @strata_conv2d_winograd_f32(" in ll
    assert "@strata_conv2d_nchw" not in ll


def test_compiled_model_wide_dilation_stays_direct(tmp_path):
    """A dilation whose mosaic would waste more than MOSAIC_MAX_AREA (6 on a 12x12
    output) keeps the direct product, and matches onnxruntime."""
    helper = pytest.importorskip("onnx.helper")
    import strata
    w = RNG.standard_normal((16, 8, 3, 3), np.float32) * 0.2
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], dilations=[6, 6],
                              pads=[6, 6, 6, 6])]
    path, x, want = _onnx_case(tmp_path, "wide", nodes, (1, 8, 12, 12), (1, 16, 12, 12),
                               {"w": w})
    dump = tmp_path / "dump"
    got = strata.compile(str(path), dump_dir=str(dump), cache=False)(x)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    ll = next(dump.glob("*module.ll")).read_text()
    assert "call void @strata_conv2d_winograd_f32(" not in ll
