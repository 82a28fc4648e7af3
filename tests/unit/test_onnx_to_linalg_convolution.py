"""convert-onnx-to-linalg, convolution family (Conv, ConvInteger, QLinearConv,
ConvTranspose, DeformConv, Col2Im): groups on every rank (named grouped/depthwise ops
and the generic), auto_pad on dynamic sizes, transposed convolutions with groups,
dilations, cropping pads and output_shape, per-channel quantization, deformable
sampling with offset groups and masks, run-time Col2Im shapes."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, F16, I32, I64, I8, U8, check, expected, ints, model, rand

import strata


@pytest.mark.parametrize("xs,ws,attrs", [
    ([2, 4, 7, 6], [6, 2, 3, 3], dict(group=2, strides=[2, 1], pads=[1, 0, 2, 1],
                                      dilations=[1, 2])),       # conv_2d_ngchw_gfchw
    ([2, 4, 9], [6, 2, 3], dict(group=2, strides=[2], pads=[1, 2])),      # 1-D: 2-D, H 1
    ([1, 4, 5, 5, 5], [8, 2, 2, 2, 2], dict(group=2, dilations=[2, 1, 1])),
    ([1, 4, 5, 5, 5], [4, 1, 2, 2, 2], dict(group=4)),               # depthwise 3-D
    ([2, 3, 7, 6], [3, 1, 3, 3], dict(group=3, strides=[2, 2], pads=[1, 1, 1, 1])),
    ([2, 3, 7, 6], [6, 1, 3, 3], dict(group=3)),                 # channel multiplier
    ([2, 3, 7], [3, 1, 3], dict(group=3)),
    ([1, 2, 5, 6, 4], [3, 2, 2, 3, 2], dict(strides=[2, 1, 1], pads=[0, 1, 1, 1, 0, 0])),
    ([1, 2, 7, 8], [3, 2, 3, 3], dict(auto_pad="VALID", strides=[2, 3])),
])
def test_conv(xs, ws, attrs):
    m = model("Conv", [("x", F, xs), ("w", F, ws), ("b", F, [ws[0]])], [("y", F, None)],
              **attrs)
    check(m, rand(*xs), rand(*ws, seed=1), rand(ws[0], seed=2), rtol=1e-4)


@pytest.mark.parametrize("attrs,kernel", [
    (dict(auto_pad="SAME_LOWER", strides=[2, 2]), 3),
    (dict(auto_pad="SAME_UPPER"), 4),
    (dict(pads=[1, 2, 0, 1], strides=[2, 1]), 3),
])
def test_conv_dynamic_sizes(attrs, kernel):
    m = model("Conv", [("x", F, ["N", 2, "H", "W"]), ("w", F, [3, 2, kernel, kernel])],
              [("y", F, None)], **attrs)
    for shape in [(1, 2, 7, 8), (2, 2, 6, 5)]:
        check(m, rand(*shape), rand(3, 2, kernel, kernel, seed=1), rtol=1e-4)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("xs,ws,group", [
    (["N", "C", 6, 5], [6, 2, 3, 3], 2),             # input channels only known at run time
    ([2, 4, 6, 5], ["M", 2, 3, 3], 2),               # filters fed at run time
    ([2, "C", 7], ["M", "K", 3], 2),                 # both, the generic (1-D) form
    ([1, "C", 5, 5], [6, 1, 3, 3], 3),               # channel multiplier
])
def test_grouped_conv_dynamic_channels(target, xs, ws, group):
    """Found by tools/fuzz_onnx.py: "a grouped convolution needs static channel counts"
    refused these; onnxruntime runs them."""
    m = model("Conv", [("x", F, xs), ("w", F, ws)], [("y", F, None)], group=group,
              pads=[1] * (2 * (len(xs) - 2)))
    cw = ws[1] if isinstance(ws[1], int) else 2
    x = rand(xs[0] if isinstance(xs[0], int) else 2, cw * group, *xs[2:])
    w = rand(ws[0] if isinstance(ws[0], int) else 2 * group, cw, *ws[2:], seed=1)
    want = expected(m, (x, w), "ort")
    got = strata.compile(m, target=target)(x, w)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)
    # channels that break C = group x the filters' channels (or group | M) fail, naming
    # the node, instead of reading out of bounds
    bad = [(rand(x.shape[0], x.shape[1] + group, *xs[2:]), w)] if "C" in xs else []
    if "M" in ws:
        bad.append((x, rand(w.shape[0] + 1, *w.shape[1:])))
    for args in bad:
        with pytest.raises(strata.StrataError, match="Conv"):
            strata.compile(m, target=target)(*args)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("ws", [[3, 2, 3, 3], [3, "K", 3, 3]])
def test_conv_channel_mismatch_at_run_time_fails(target, ws):
    """x's channels (a dim_param) must match the filters': the CPU target read past
    the filters and answered."""
    m = model("Conv", [("x", F, [1, "C", 5, 5]), ("w", F, ws)], [("y", F, None)])
    f = strata.compile(m, target=target)
    check_ok = f(rand(1, 2, 5, 5), rand(3, 2, 3, 3))[0]
    np.testing.assert_allclose(check_ok, expected(m, (rand(1, 2, 5, 5), rand(3, 2, 3, 3)),
                                                  "ort")[0], rtol=1e-4, atol=1e-5)
    with pytest.raises(strata.StrataError, match="channels"):
        f(rand(1, 3, 5, 5), rand(3, 2, 3, 3))


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("op,ws", [("Conv", [3, 2, "KH", "KW"]), ("ConvTranspose", [2, 3, "K", 2])])
def test_conv_dynamic_kernel_given_by_kernel_shape(target, op, ws):
    """Filters fed at run time with dim_param window dims: kernel_shape gives the sizes
    (found by tools/fuzz_onnx.py: "the kernel sizes must be static"); filters of
    another size fail at run time, naming the node."""
    m = model(op, [("x", F, [1, 2, 6, 5]), ("w", F, ws)], [("y", F, None)],
              kernel_shape=[3, 2])
    f = strata.compile(m, target=target)
    x, w = rand(1, 2, 6, 5), rand(*[d if isinstance(d, int) else 3 for d in ws[:2]], 3, 2,
                                  seed=1)
    np.testing.assert_allclose(f(x, w)[0], expected(m, (x, w), "ort")[0], rtol=1e-4,
                               atol=1e-5)
    with pytest.raises(strata.StrataError, match="kernel_shape"):
        f(x, rand(*w.shape[:2], 2, 2))


def test_conv_f16():
    m = model("Conv", [("x", F16, [1, 2, 7, 8]), ("w", F16, [3, 2, 3, 3])],
              [("y", F16, None)])
    check(m, rand(1, 2, 7, 8).astype(np.float16), rand(3, 2, 3, 3, seed=1).astype(np.float16),
          rtol=1e-2, atol=1e-2)


def test_conv_dynamic_kernel_is_a_clear_error():
    m = model("Conv", [("x", F, [1, 2, 7, 8]), ("w", F, [3, 2, "K", "K"])], [("y", F, None)])
    with pytest.raises(strata.StrataError) as e:
        strata.compile(m, target="interpret")
    assert "kernel sizes must be static" in e.value.diag.render({})


@pytest.mark.parametrize("xs,ws,attrs,ref", [
    ([1, 4, 3, 4], [4, 3, 3, 2], dict(group=2, strides=[2, 3], dilations=[2, 1],
                                      pads=[1, 0, 0, 1], output_padding=[1, 2]), "ort"),
    ([1, 2, 5], [2, 3, 3], dict(auto_pad="SAME_LOWER", strides=[2]), "ref"),
    ([1, 1, 4, 4], [1, 1, 3, 3], dict(pads=[3, 3, 3, 3], strides=[2, 2]), "ort"),
    ([1, 2, 3, 3], [2, 2, 3, 3], dict(strides=[2, 2], output_shape=[8, 8],
                                      auto_pad="SAME_UPPER"), "ref"),
    ([1, 2, 2, 3, 2], [2, 1, 2, 2, 3], dict(strides=[1, 2, 1]), "ort"),
])
def test_conv_transpose(xs, ws, attrs, ref):
    m = model("ConvTranspose", [("x", F, xs), ("w", F, ws)], [("y", F, None)], **attrs)
    check(m, rand(*xs), rand(*ws, seed=1), ref=ref, rtol=1e-4)


def test_conv_transpose_dynamic_batch_with_bias():
    m = model("ConvTranspose", [("x", F, ["N", 2, 3, 3]), ("w", F, [2, 2, 3, 3]),
                                ("b", F, [2])], [("y", F, None)], strides=[2, 2])
    check(m, rand(2, 2, 3, 3), rand(2, 2, 3, 3, seed=1), rand(2, seed=2), rtol=1e-4)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("xs,ws,attrs,shapes", [
    (["N", 2, "H", "W"], [2, 3, 3, 3], dict(strides=[2, 2], pads=[1, 0, 0, 1]),
     [(1, 2, 4, 4), (2, 2, 3, 5)]),
    (["N", "C", 5, "W"], [4, 1, 2, 3], dict(group=2, strides=[1, 2], output_padding=[0, 1],
                                            pads=[0, 1, 1, 0]), [(1, 4, 5, 4), (2, 4, 5, 3)]),
    ([1, 2, "L"], [2, 2, 3], dict(dilations=[2], strides=[3]), [(1, 2, 4), (1, 2, 1)]),
    ([1, 2, "L"], [2, 2, 2], dict(pads=[2, 2]), [(1, 2, 4), (1, 2, 6)]),  # cropped
])
def test_conv_transpose_dynamic_sizes(target, xs, ws, attrs, shapes):
    """Found by tools/fuzz_onnx.py: "ConvTranspose needs static channel and spatial
    sizes" refused every ConvTranspose of a dynamic image (see [Note: dynamic
    ConvTranspose])."""
    m = model("ConvTranspose", [("x", F, xs), ("w", F, ws)], [("y", F, None)], **attrs)
    f = strata.compile(m, target=target)
    for shape in shapes:
        x, w = rand(*shape), rand(*ws, seed=1)
        want = expected(m, (x, w), "ort")[0]
        got = f(x, w)[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_conv_transpose_dynamic_sizes_checked(target):
    m = model("ConvTranspose", [("x", F, [1, "C", "L"]), ("w", F, [2, 2, 2])],
              [("y", F, None)], pads=[2, 2])
    f = strata.compile(m, target=target)
    with pytest.raises(strata.StrataError, match="output sizes must be positive"):
        f(rand(1, 2, 2), rand(2, 2, 2))          # 2 + 1 - 4 = -1
    with pytest.raises(strata.StrataError, match="channels"):
        f(rand(1, 3, 5), rand(2, 2, 2))
    sames = model("ConvTranspose", [("x", F, [1, 2, "L"]), ("w", F, [2, 2, 2])],
                  [("y", F, None)], auto_pad="SAME_UPPER", strides=[2])
    with pytest.raises(strata.StrataError) as e:
        strata.compile(sames, target=target)
    assert "SAME_* needs static spatial sizes" in str(e.value.diag)


def test_conv_integer_per_channel_zero_point():
    m = model("ConvInteger", [("x", U8, [1, 2, 5, 5]), ("w", U8, [3, 2, 3, 3]),
                              ("xz", U8, []), ("wz", U8, [3])], [("y", I32, None)],
              pads=[1, 1, 1, 1])
    check(m, ints(1, 2, 5, 5, lo=0, hi=256, dtype=np.uint8),
          ints(3, 2, 3, 3, lo=0, hi=256, dtype=np.uint8, seed=1), np.array(7, np.uint8),
          np.array([1, 2, 3], np.uint8), ref="ref")


def test_qlinear_conv_per_channel_scale_and_bias():
    m = model("QLinearConv", [("x", I8, [1, 2, 5, 5]), ("xs", F, []), ("xz", I8, []),
                              ("w", I8, [3, 2, 3, 3]), ("ws", F, [3]), ("wz", I8, [3]),
                              ("ys", F, []), ("yz", I8, []), ("b", I32, [3])],
              [("y", I8, None)], pads=[1, 1, 1, 1], strides=[2, 2])
    check(m, ints(1, 2, 5, 5), np.array(0.05, np.float32), np.array(2, np.int8),
          ints(3, 2, 3, 3, seed=1), np.array([0.01, 0.02, 0.03], np.float32),
          np.zeros(3, np.int8), np.array(0.5, np.float32), np.array(-3, np.int8),
          np.array([10, -20, 30], np.int32), ref="ref")


def test_deform_conv_groups_offset_groups_mask():
    m = model("DeformConv", [("x", F, [1, 4, 5, 6]), ("w", F, [6, 2, 3, 3]),
                             ("o", F, [1, 36, 3, 1]), ("b", F, [6]), ("m", F, [1, 18, 3, 1])],
              [("y", F, None)], group=2, offset_group=2, strides=[2, 3], dilations=[1, 2],
              pads=[1, 0, 1, 1])
    check(m, rand(1, 4, 5, 6), rand(6, 2, 3, 3, seed=1), rand(1, 36, 3, 1, seed=2),
          rand(6, seed=3), rand(1, 18, 3, 1, seed=4), ref="ref", rtol=1e-4)


def test_col2im_run_time_shapes():
    m = model("Col2Im", [("x", F, [2, 6, 3]), ("i", I64, [2]), ("bl", I64, [2])],
              [("y", F, None)], strides=[1, 2], pads=[1, 0, 0, 1], dilations=[2, 1])
    check(m, rand(2, 6, 3), np.array([4, 5], np.int64), np.array([3, 1], np.int64),
          ref="ref")
