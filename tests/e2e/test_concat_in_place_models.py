"""Concatenations written in place (strata-concat-in-place) through the whole CPU
pipeline against onnxruntime: a DenseNet dense block (BN -> ReLU -> 1x1 conv -> ReLU ->
3x3 conv, concatenated to the block's running concatenation), a Segformer-style decoder
(1x1 convs of four maps, resized to one size, concatenated, fused by a 1x1 conv), a
DeepLab ASPP head (dilated convs + ReLU concatenated), concatenations along the rows
and the width, an input concatenated twice, graph inputs and constants as inputs, a
concatenation that is a graph output, and an input also read after it. The dense block
and the decoder must keep no copy of their computed inputs (their producers write their
slices)."""
from __future__ import annotations

import glob
import re

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from models import float_graph as _model, onnxruntime_outputs  # noqa: E402
from onnx import helper as h  # noqa: E402

_RNG = np.random.default_rng(0)


def _w(*shape):
    return _RNG.standard_normal(shape) * (2.0 / np.prod(shape[1:])) ** 0.5


def dense_block(layers=3, c0=20, growth=8, hw=8):
    nodes, inits, cur, c = [], [], "x", c0
    for i in range(layers):
        p = f"l{i}_"
        inits += [(p + "s", 1 + 0.1 * _RNG.standard_normal((c, 1, 1))),
                  (p + "t", 0.1 * _RNG.standard_normal((c, 1, 1))),
                  (p + "w1", _w(4 * growth, c, 1, 1)),
                  (p + "b1", 0.1 * _RNG.standard_normal(4 * growth)),
                  (p + "w3", _w(growth, 4 * growth, 3, 3))]
        nodes += [h.make_node("Mul", [cur, p + "s"], [p + "m"]),
                  h.make_node("Add", [p + "m", p + "t"], [p + "a"]),
                  h.make_node("Relu", [p + "a"], [p + "r"]),
                  h.make_node("Conv", [p + "r", p + "w1", p + "b1"], [p + "c1"]),
                  h.make_node("Relu", [p + "c1"], [p + "r1"]),
                  h.make_node("Conv", [p + "r1", p + "w3"], [p + "c3"], pads=[1, 1, 1, 1]),
                  h.make_node("Concat", [cur, p + "c3"], [p + "cat"], axis=1)]
        cur, c = p + "cat", c + growth
    nodes.append(h.make_node("Relu", [cur], ["y"]))
    return _model(nodes, [("x", [1, c0, hw, hw])], [("y", [1, c, hw, hw])], inits)


def segformer_decoder(c=8, hw=16):
    nodes, inits, maps = [], [], []
    for i, s in enumerate((1, 2, 4, 8)):
        inits += [(f"w{i}", _w(c, c * (i + 1), 1, 1)), (f"b{i}", 0.1 * _RNG.standard_normal(c))]
        nodes.append(h.make_node("Conv", [f"x{i}", f"w{i}", f"b{i}"], [f"p{i}"]))
        if s == 1:
            maps.append(f"p{i}")
        else:
            inits.append((f"sc{i}", [1, 1, s, s]))
            nodes.append(h.make_node("Resize", [f"p{i}", "", f"sc{i}"], [f"u{i}"],
                                     mode="linear"))
            maps.append(f"u{i}")
    inits += [("wf", _w(c, 4 * c, 1, 1))]
    nodes += [h.make_node("Concat", maps[::-1], ["cat"], axis=1),
              h.make_node("Conv", ["cat", "wf"], ["f"]), h.make_node("Relu", ["f"], ["y"])]
    ins = [(f"x{i}", [1, c * (i + 1), hw // s, hw // s]) for i, s in enumerate((1, 2, 4, 8))]
    return _model(nodes, ins, [("y", [1, c, hw, hw])], inits)


def aspp(c=16, hw=12, n=1):
    nodes, inits, outs = [], [], []
    for i, d in enumerate((1, 2, 3)):
        k = 1 if d == 1 else 3
        inits += [(f"w{i}", _w(c, c, k, k)), (f"b{i}", 0.1 * _RNG.standard_normal(c))]
        nodes += [h.make_node("Conv", ["x", f"w{i}", f"b{i}"], [f"c{i}"], dilations=[d, d],
                              pads=[d * (k // 2)] * 4),
                  h.make_node("Relu", [f"c{i}"], [f"r{i}"])]
        outs.append(f"r{i}")
    inits.append(("wf", _w(c, 3 * c, 1, 1)))
    nodes += [h.make_node("Concat", outs, ["cat"], axis=1),
              h.make_node("Conv", ["cat", "wf"], ["y"])]
    return _model(nodes, [("x", [n, c, hw, hw])], [("y", [n, c, hw, hw])], inits)


def aspp_batch2():
    # the convolutions' ReLU epilogues write channel slices whose images lie apart
    return aspp(n=2)


def other_axes(c=6, hw=10):
    # along the rows and the width, of a conv output (kept a copy: its kernel needs
    # whole images) and of elementwise results; an input twice; a constant
    return _model([h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                   h.make_node("Relu", ["x"], ["r"]), h.make_node("Neg", ["x"], ["n"]),
                   h.make_node("Concat", ["c", "r", "c"], ["rows"], axis=2),
                   h.make_node("Concat", ["n", "k", "r"], ["cols"], axis=3),
                   h.make_node("Sigmoid", ["rows"], ["y0"]), h.make_node("Tanh", ["cols"], ["y1"])],
                  [("x", [1, c, hw, hw])], [("y0", [1, c, 3 * hw, hw]), ("y1", [1, c, hw, 3 * hw])],
                  [("w", _w(c, c, 3, 3)), ("k", _RNG.standard_normal((1, c, hw, hw)))])


def outputs_and_reuse(c=6, hw=10):
    # a concatenation that is a graph output, an input of it that is one too, an input
    # read again after it, the graph input itself concatenated
    return _model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Neg", ["x"], ["n"]),
                   h.make_node("Concat", ["r", "n", "x"], ["cat"], axis=1),
                   h.make_node("Mul", ["n", "n"], ["nn"])],
                  [("x", [1, c, hw, hw])],
                  [("cat", [1, 3 * c, hw, hw]), ("r", [1, c, hw, hw]), ("nn", [1, c, hw, hw])])


_MODELS = [dense_block, segformer_decoder, aspp, aspp_batch2, other_axes, outputs_and_reuse]


@pytest.mark.parametrize("build", _MODELS, ids=lambda f: f.__name__)
def test_matches_onnxruntime(build):
    model = build()
    feeds = {}
    for i in model.graph.input:
        shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
        feeds[i.name] = _RNG.standard_normal(shape).astype(np.float32)
    want = onnxruntime_outputs(model, feeds)
    for threads in (1, 2):
        got = strata.compile(model, cache=False, num_threads=threads)(**feeds)
        got = got if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5 * np.abs(w).max())


def _copies_after_pass(model, tmp_path):
    strata.compile(model, cache=False, dump_dir=tmp_path)
    path, = glob.glob(str(tmp_path / "*strata-concat-in-place.mlir"))
    text = open(path).read()
    return re.findall(r"memref\.copy (%\w+), (%\w+) : memref<([0-9x]+)xf32", text)


def test_dense_block_copies_only_its_input(tmp_path):
    copies = _copies_after_pass(dense_block(), tmp_path)
    # left: the padded 3x3 conv inputs (1x32x8x8, one per layer) and the block's input
    # (20 channels), a graph argument; no copy of a layer's 8 channels or of a running
    # concatenation (28, 36 channels)
    assert [c[2] for c in copies if c[0] == "%arg0"] == ["1x20x8x8"]
    assert not [c for c in copies if c[2].split("x")[1] in ("8", "28", "36")], copies


def test_decoder_maps_written_in_place(tmp_path):
    assert not [c for c in _copies_after_pass(segformer_decoder(), tmp_path)
                if c[2] == "1x8x16x16"]
