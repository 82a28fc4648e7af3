"""onnx-hoist-pointwise-conv ([Note: a pointwise convolution before the resize],
strata/transforms/onnx_pointwise_conv.py) through the whole CPU pipeline, against
onnxruntime: a Segformer-style all-MLP decoder (token-major linear projections of maps of
several sizes, transposed to NCHW, resized to the largest and concatenated, then a 1x1
fuse conv + ReLU + 1x1 classifier) and a DeepLab-style ASPP head (conv branches and an
image-pooling branch upsampled from 1x1, concatenated, 1x1 projection). The pass must
move the fuse conv (checked on the imported module) and the outputs match within 1e-4
of their largest magnitude, at 1 and 2 threads."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from strata.compiler import build_pipeline, load_module  # noqa: E402
from strata.transforms.onnx_pointwise_conv import hoist_pointwise_convs  # noqa: E402

from models import float_graph, onnxruntime_outputs  # noqa: E402

TOLERANCE = 1e-4


def _ints(name, values):
    from onnx import helper as h
    return h.make_node("Constant", [], [name], value=h.make_tensor(
        name, onnx.TensorProto.INT64, [len(values)], list(values)))


def _decoder(stages, size, m, classes, mode, seed=0):
    """Stage i: x_i [1, h_i w_i, k_i] -> MatMul + Add -> [0, 2, 1] -> NCHW [1, m, h_i,
    w_i] -> Resize(sizes [1, m, size, size], `mode`); concat; conv 1x1 (4 m -> m) + bias,
    ReLU, conv 1x1 classifier."""
    from onnx import helper as h
    rng = np.random.default_rng(seed)
    nodes, inits, inputs, cat = [], [], [], []
    for i, (k, hw) in enumerate(stages):
        x = f"x{i}"
        inputs.append((x, [1, hw * hw, k]))
        inits += [(f"L{i}", rng.standard_normal((k, m)) / k ** 0.5),
                  (f"b{i}", rng.standard_normal(m) * 0.1)]
        nodes += [h.make_node("MatMul", [x, f"L{i}"], [f"p{i}"]),
                  h.make_node("Add", [f"b{i}", f"p{i}"], [f"a{i}"]),
                  h.make_node("Transpose", [f"a{i}"], [f"t{i}"], perm=[0, 2, 1]),
                  _ints(f"s{i}", [1, -1, hw, hw]),
                  h.make_node("Reshape", [f"t{i}", f"s{i}"], [f"r{i}"]),
                  _ints(f"z{i}", [1, m, size, size]),
                  h.make_node("Resize", [f"r{i}", "", "", f"z{i}"], [f"u{i}"], mode=mode,
                              coordinate_transformation_mode="half_pixel")]
        cat.append(f"u{i}")
    n = len(stages)
    inits += [("W", rng.standard_normal((m, n * m, 1, 1)) / (n * m) ** 0.5),
              ("B", rng.standard_normal(m) * 0.1),
              ("Wc", rng.standard_normal((classes, m, 1, 1)) / m ** 0.5),
              ("Bc", rng.standard_normal(classes) * 0.1)]
    nodes += [h.make_node("Concat", cat[::-1], ["c"], axis=1),
              h.make_node("Conv", ["c", "W", "B"], ["f"], kernel_shape=[1, 1]),
              h.make_node("Relu", ["f"], ["g"]),
              h.make_node("Conv", ["g", "Wc", "Bc"], ["y"], kernel_shape=[1, 1])]
    model = float_graph(nodes, inputs, [("y", [1, classes, size, size])], inits)
    feeds = {x: rng.standard_normal(s).astype(np.float32) for x, s in inputs}
    return model, feeds


def _aspp(c, m, size, seed=0, upsample="Resize"):
    """ASPP: a 1x1 branch, a dilated 3x3 branch, and global pool -> 1x1 -> ReLU ->
    `upsample` (Resize, or Expand as bench/zoo_architectures.py's head writes it) to size
    x size; concat; 1x1 projection + ReLU."""
    from onnx import helper as h
    rng = np.random.default_rng(seed)
    inits = [("w0", rng.standard_normal((m, c, 1, 1)) / c ** 0.5),
             ("w1", rng.standard_normal((m, c, 3, 3)) / (9 * c) ** 0.5),
             ("wp", rng.standard_normal((m, c, 1, 1)) / c ** 0.5),
             ("W", rng.standard_normal((m, 3 * m, 1, 1)) / (3 * m) ** 0.5),
             ("B", rng.standard_normal(m) * 0.1)]
    nodes = [h.make_node("Conv", ["x", "w0"], ["c0"], kernel_shape=[1, 1]),
             h.make_node("Relu", ["c0"], ["r0"]),
             h.make_node("Conv", ["x", "w1"], ["c1"], kernel_shape=[3, 3], pads=[2] * 4,
                         dilations=[2, 2]),
             h.make_node("Relu", ["c1"], ["r1"]),
             h.make_node("GlobalAveragePool", ["x"], ["gp"]),
             h.make_node("Conv", ["gp", "wp"], ["cp"], kernel_shape=[1, 1]),
             h.make_node("Relu", ["cp"], ["rp"]),
             _ints("sz", [1, m, size, size]),
             h.make_node("Resize", ["rp", "", "", "sz"], ["up"], mode="linear",
                         coordinate_transformation_mode="half_pixel")
             if upsample == "Resize" else h.make_node("Expand", ["rp", "sz"], ["up"]),
             h.make_node("Concat", ["r0", "r1", "up"], ["cat"], axis=1),
             h.make_node("Conv", ["cat", "W", "B"], ["p"], kernel_shape=[1, 1]),
             h.make_node("Relu", ["p"], ["y"])]
    model = float_graph(nodes, [("x", [1, c, size, size])], [("y", [1, m, size, size])],
                        inits)
    return model, {"x": rng.standard_normal((1, c, size, size)).astype(np.float32)}


def _hoisted(model) -> int:
    module = load_module(model)
    build_pipeline(("onnx-decompose{keep-lowered=true}", "onnx-fold-constants",
                    "onnx-shape-inference", "onnx-fold-constants")).run(module)
    return hoist_pointwise_convs(module)


def _check(model, feeds, threads):
    want = onnxruntime_outputs(model, feeds)[0]
    got = strata.compile(model, num_threads=threads)(**feeds)[0]
    err = float(np.abs(np.asarray(got) - want).max() / np.abs(want).max())
    assert err <= TOLERANCE, err


@pytest.mark.parametrize("mode", ["linear", "nearest", "cubic"])
@pytest.mark.parametrize("threads", [1, 2])
def test_segformer_decoder(mode, threads):
    # stages (k, h): 32 at 16x16 (not resized), 64 at 8x8, 80 at 4x4, 96 at 2x2
    model, feeds = _decoder([(32, 16), (64, 8), (80, 4), (96, 2)], 16, 48, 5, mode)
    assert _hoisted(model) == 1
    _check(model, feeds, threads)


@pytest.mark.parametrize("upsample", ["Resize", "Expand"])
def test_aspp_head(upsample):
    model, feeds = _aspp(24, 32, 12, upsample=upsample)
    assert _hoisted(model) == 1
    _check(model, feeds, 1)


def test_fuse_conv_read_twice_is_left():
    """A Concat the graph also returns keeps its convolution (the pass's near miss)."""
    from onnx import helper as h
    model, feeds = _decoder([(16, 8), (24, 4)], 8, 16, 3, "linear")
    model.graph.output.append(h.make_tensor_value_info("c", onnx.TensorProto.FLOAT,
                                                       [1, 32, 8, 8]))
    assert _hoisted(model) == 0
    want = onnxruntime_outputs(model, feeds)
    got = strata.compile(model, num_threads=1)(**feeds)
    for g, w in zip(got, want):
        assert float(np.abs(np.asarray(g) - w).max() / np.abs(w).max()) <= TOLERANCE
