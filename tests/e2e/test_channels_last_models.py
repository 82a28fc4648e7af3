"""strata-linalg-depthwise-channels-last through the whole CPU pipeline: a Segformer-style
Mix-FFN block (Linear -> tokens reshaped to an NCHW image -> depthwise 3x3 -> back to
tokens -> GELU -> Linear, as the ONNX exporter writes it) and an image-side variant
(stride 2, no padding, the NCHW result read by the next op) against onnxruntime at 1 and
2 threads. The Mix-FFN block must lose both activation transposes (the convolution runs
channel-last) and match within 1e-4 of the output's largest magnitude."""
from __future__ import annotations

import glob

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402

TOLERANCE = 1e-4


def _close(got, want):
    err = float(np.abs(np.asarray(got) - want).max() / np.abs(want).max())
    assert err <= TOLERANCE, err


def _mixffn(c, e, hh, ww, seed=0, batch=1):
    from onnx import TensorProto, helper as h, numpy_helper as nh
    rng = np.random.default_rng(seed)
    n, f = hh * ww, c * e
    ws = {"w1": rng.standard_normal((c, f)) / c ** 0.5, "b1": rng.standard_normal(f),
          "wd": rng.standard_normal((f, 1, 3, 3)) / 3, "bd": rng.standard_normal(f),
          "w2": rng.standard_normal((f, c)) / f ** 0.5, "b2": rng.standard_normal(c)}
    inits = [nh.from_array(v.astype(np.float32), k) for k, v in ws.items()] + [
        nh.from_array(np.array([-1, f, hh, ww], np.int64), "s1"),
        nh.from_array(np.array([-1, f, n], np.int64), "s2"),
        nh.from_array(np.array(2 ** 0.5, np.float32), "sq2"),
        nh.from_array(np.array(1, np.float32), "one"),
        nh.from_array(np.array(0.5, np.float32), "half")]
    nodes = [h.make_node("MatMul", ["x", "w1"], ["m1"]), h.make_node("Add", ["m1", "b1"], ["a1"]),
             h.make_node("Transpose", ["a1"], ["t"], perm=[0, 2, 1]),
             h.make_node("Reshape", ["t", "s1"], ["r"]),
             h.make_node("Conv", ["r", "wd", "bd"], ["cv"], group=f, kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
             h.make_node("Reshape", ["cv", "s2"], ["fl"]),
             h.make_node("Transpose", ["fl"], ["u"], perm=[0, 2, 1]),
             # GELU as the exporter writes it: x * 0.5 * (1 + erf(x / sqrt 2))
             h.make_node("Div", ["u", "sq2"], ["g0"]), h.make_node("Erf", ["g0"], ["g1"]),
             h.make_node("Add", ["g1", "one"], ["g2"]), h.make_node("Mul", ["u", "g2"], ["g3"]),
             h.make_node("Mul", ["g3", "half"], ["g4"]),
             h.make_node("MatMul", ["g4", "w2"], ["m2"]), h.make_node("Add", ["m2", "b2"], ["y"])]
    g = h.make_graph(nodes, "mixffn", [h.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                [batch, n, c])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, [batch, n, c])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    return m, rng.standard_normal((1, n, c)).astype(np.float32)


@pytest.mark.parametrize("c,e,hh,ww", [(32, 4, 16, 16), (16, 4, 12, 20)])
def test_mixffn_block(c, e, hh, ww, tmp_path):
    m, x = _mixffn(c, e, hh, ww)
    want = ort.InferenceSession(m.SerializeToString()).run(None, {"x": x})[0]
    got = strata.compile(m, num_threads=1, cache=False, dump_dir=str(tmp_path))(x)[0]
    _close(got, want)
    after = open(glob.glob(str(tmp_path / "*-strata-linalg-depthwise-channels-last.mlir"))[0]
                 ).read()
    assert "depthwise_conv_2d_nhwc_hwc" in after and "depthwise_conv_2d_nchw" not in after
    # the filter's transpose only: the activations' two are gone
    assert after.count("linalg.transpose") == 1
    _close(strata.compile(m, num_threads=2, cache=False)(x)[0], want)


def test_image_side_strided():
    """NHWC input transposed to NCHW, a stride-2 depthwise convolution without padding,
    its NCHW result read by a ReLU: the transpose moves to the result."""
    from onnx import TensorProto, helper as h, numpy_helper as nh
    rng = np.random.default_rng(1)
    c = 24
    w = rng.standard_normal((c, 1, 3, 3)).astype(np.float32)
    nodes = [h.make_node("Transpose", ["x"], ["t"], perm=[0, 3, 1, 2]),
             h.make_node("Conv", ["t", "w"], ["cv"], group=c, kernel_shape=[3, 3],
                         strides=[2, 2]),
             h.make_node("Relu", ["cv"], ["y"])]
    g = h.make_graph(nodes, "img", [h.make_tensor_value_info("x", TensorProto.FLOAT,
                                                             [1, 15, 17, c])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, 7, 8])],
                     [nh.from_array(w, "w")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    x = rng.standard_normal((1, 15, 17, c)).astype(np.float32)
    want = ort.InferenceSession(m.SerializeToString()).run(None, {"x": x})[0]
    for threads in (1, 2):
        _close(strata.compile(m, num_threads=threads, cache=False)(x)[0], want)


def test_mixffn_block_dynamic_batch(tmp_path):
    """The same with the batch a dim_param (zoo exports with --dynamic): converted too,
    right at batch 1 and 3."""
    m, _ = _mixffn(16, 4, 8, 8, batch="N")
    rng = np.random.default_rng(2)
    f = strata.compile(m, num_threads=2, cache=False, dump_dir=str(tmp_path))
    after = open(glob.glob(str(tmp_path / "*-strata-linalg-depthwise-channels-last.mlir"))[0]
                 ).read()
    assert "depthwise_conv_2d_nhwc_hwc" in after and after.count("linalg.transpose") == 1
    sess = ort.InferenceSession(m.SerializeToString())
    for n in (1, 3):
        x = rng.standard_normal((n, 64, 16)).astype(np.float32)
        _close(f(x)[0], sess.run(None, {"x": x})[0])


def _convnext(c, hh, blocks=(2, 1), batch=1, seed=3):
    """A ConvNeXt stem and two stages as HF's export writes them: an NCHW image, per
    block depthwise 7x7 -> Transpose to NHWC -> LayerNormalization -> MatMul + bias ->
    GELU (erf) -> MatMul + bias -> layer scale -> Transpose back -> residual add; a 2x2
    stride-2 convolution between the stages."""
    from onnx import TensorProto, helper as h, numpy_helper as nh
    rng = np.random.default_rng(seed)
    inits, nodes = [], []

    def w(name, *shape, scale=1.0):
        inits.append(nh.from_array((rng.standard_normal(shape) * scale).astype(np.float32),
                                   name))
        return name

    inits += [nh.from_array(np.array(2 ** 0.5, np.float32), "sq2"),
              nh.from_array(np.array(1, np.float32), "one"),
              nh.from_array(np.array(0.5, np.float32), "half")]
    nodes.append(h.make_node("Conv", ["x", w("ws", c, 3, 4, 4, scale=0.2), w("bs", c)],
                             ["s0"], kernel_shape=[4, 4], strides=[4, 4]))
    x, k = "s0", 0
    for stage, n in enumerate(blocks):
        if stage:
            nodes.append(h.make_node("Conv", [x, w(f"wd{stage}", 2 * c, c, 2, 2,
                                                   scale=c ** -0.5), w(f"bd{stage}", 2 * c)],
                                     [f"d{stage}"], kernel_shape=[2, 2], strides=[2, 2]))
            x, c = f"d{stage}", 2 * c
        for _ in range(n):
            k += 1
            p = f"b{k}_"
            nodes += [
                h.make_node("Conv", [x, w(p + "dw", c, 1, 7, 7, scale=1 / 7), w(p + "db", c)],
                            [p + "cv"], group=c, kernel_shape=[7, 7], pads=[3] * 4),
                h.make_node("Transpose", [p + "cv"], [p + "t"], perm=[0, 2, 3, 1]),
                h.make_node("LayerNormalization", [p + "t", w(p + "g", c), w(p + "be", c)],
                            [p + "ln"], axis=-1, epsilon=1e-6),
                h.make_node("MatMul", [p + "ln", w(p + "w1", c, 4 * c, scale=c ** -0.5)],
                            [p + "m1"]),
                h.make_node("Add", [p + "m1", w(p + "b1", 4 * c)], [p + "a1"]),
                h.make_node("Div", [p + "a1", "sq2"], [p + "g0"]),
                h.make_node("Erf", [p + "g0"], [p + "g1"]),
                h.make_node("Add", [p + "g1", "one"], [p + "g2"]),
                h.make_node("Mul", [p + "a1", p + "g2"], [p + "g3"]),
                h.make_node("Mul", [p + "g3", "half"], [p + "g4"]),
                h.make_node("MatMul", [p + "g4", w(p + "w2", 4 * c, c, scale=(4 * c) ** -0.5)],
                            [p + "m2"]),
                h.make_node("Add", [p + "m2", w(p + "b2", c)], [p + "a2"]),
                h.make_node("Mul", [p + "a2", w(p + "ls", c)], [p + "sc"]),
                h.make_node("Transpose", [p + "sc"], [p + "u"], perm=[0, 3, 1, 2]),
                h.make_node("Add", [x, p + "u"], [p + "y"])]
            x = p + "y"
    out = hh // 4 // 2 ** (len(blocks) - 1)
    g = h.make_graph(nodes, "convnext", [h.make_tensor_value_info(
        "x", TensorProto.FLOAT, [batch, 3, hh, hh])], [h.make_tensor_value_info(
            x, TensorProto.FLOAT, [batch, c, out, out])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 18)])


@pytest.mark.parametrize("batch", [1, "N"])
def test_convnext_stages_channel_last(batch, tmp_path):
    """Every 7x7 depthwise convolution runs channel-last and the stages' residual adds
    with them (see [Note: channel-last residual streams]): the transposes left are the
    filters' and one pair per stage boundary (the 2x2 convolutions read NCHW); each is a
    call of strata_dwconv2d_nhwc_f32."""
    m = _convnext(32, 64, batch=batch)
    rng = np.random.default_rng(4)
    f = strata.compile(m, num_threads=1, cache=False, dump_dir=str(tmp_path))
    after = open(glob.glob(str(tmp_path / "*-strata-linalg-depthwise-channels-last.mlir"))[0]
                 ).read()
    assert after.count("depthwise_conv_2d_nhwc_hwc") == 3
    assert "depthwise_conv_2d_nchw" not in after
    assert after.count("linalg.transpose") == 3 + 2 * 2
    # each runs the channel-last kernel, its padding, bias and window taken over
    lowered = open(glob.glob(str(tmp_path / "*-strata-linalg-to-microkernels.mlir"))[0]).read()
    assert lowered.count("call @strata_dwconv2d_nhwc_f32") == 3
    assert "depthwise_conv_2d" not in lowered
    sess = ort.InferenceSession(m.SerializeToString())
    for n in ((1,) if batch == 1 else (1, 2)):
        x = rng.standard_normal((n, 3, 64, 64)).astype(np.float32)
        want = sess.run(None, {"x": x})[0]
        _close(f(x)[0], want)
        _close(strata.compile(m, num_threads=2, cache=False)(x)[0], want)


@pytest.mark.parametrize("case", ["bias_relu", "row_broadcast", "scalar", "shared", "mixed"])
def test_elementwise_on_transposed_images(case):
    """Elementwise ops of NHWC tensors transposed to NCHW, with broadcasts of every kind
    ([C, 1, 1], [1, C, 1, W], a scalar), a transpose with another reader, and a full NCHW
    operand: the transposes sunk or kept, the result as onnxruntime's."""
    from onnx import TensorProto, helper as h, numpy_helper as nh
    rng = np.random.default_rng(5)
    c, hh, ww = 24, 6, 10
    inits = [nh.from_array(rng.standard_normal((c, 1, 1)).astype(np.float32), "bc"),
             nh.from_array(rng.standard_normal((1, c, 1, ww)).astype(np.float32), "br"),
             nh.from_array(np.array(1.5, np.float32), "s")]
    nodes = [h.make_node("Transpose", ["x"], ["tx"], perm=[0, 3, 1, 2]),
             h.make_node("Transpose", ["y"], ["ty"], perm=[0, 3, 1, 2])]
    outs = ["o"]
    if case == "bias_relu":
        nodes += [h.make_node("Mul", ["ty", "bc"], ["m"]), h.make_node("Add", ["tx", "m"], ["a"]),
                  h.make_node("Relu", ["a"], ["o"])]
    elif case == "row_broadcast":
        nodes += [h.make_node("Add", ["tx", "br"], ["a"]), h.make_node("Mul", ["a", "ty"], ["o"])]
    elif case == "scalar":
        nodes += [h.make_node("Mul", ["tx", "s"], ["o"])]
    elif case == "shared":      # tx also an output: its transpose stays for it
        nodes += [h.make_node("Add", ["tx", "ty"], ["o"])]
        outs.append("tx")
    else:                       # a full NCHW input: nothing to gain, kept
        nodes += [h.make_node("Add", ["tx", "z"], ["a"]), h.make_node("Add", ["a", "ty"], ["o"])]
    shape = [1, hh, ww, c]
    ins = [h.make_tensor_value_info("x", TensorProto.FLOAT, shape),
           h.make_tensor_value_info("y", TensorProto.FLOAT, shape),
           h.make_tensor_value_info("z", TensorProto.FLOAT, [1, c, hh, ww])]
    g = h.make_graph(nodes, "ew", ins, [h.make_tensor_value_info(o, TensorProto.FLOAT,
                                                                 [1, c, hh, ww]) for o in outs],
                     inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    feed = {"x": rng.standard_normal(shape).astype(np.float32),
            "y": rng.standard_normal(shape).astype(np.float32),
            "z": rng.standard_normal((1, c, hh, ww)).astype(np.float32)}
    want = ort.InferenceSession(m.SerializeToString()).run(None, feed)
    got = strata.compile(m, num_threads=1, cache=False)(*feed.values())
    for gv, wv in zip(got, want):
        _close(gv, wv)
