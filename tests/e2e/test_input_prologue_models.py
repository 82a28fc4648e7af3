"""The convolution kernels' input prologue ([Note: input prologues] in kernels_conv.py)
through the whole CPU pipeline against onnxruntime: DenseNet's pre-activation dense
layers (BatchNormalization -> Relu -> 1x1 Conv on the block's growing concatenation,
the 1x1's BN + ReLU in its epilogue, a padded 3x3) and a transition (BN -> Relu -> 1x1
-> AveragePool), the affine also as ONNX Mul / Add by [C, 1, 1] initializers and the
activation as Clip(0, 6); one and two threads; each such 1x1 calls
strata_conv2d_nchw_packed_pro_f32 and no normalized copy is left. Negative scales and
NaN in the image are kept as onnxruntime computes them."""
from __future__ import annotations

import glob

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

import strata  # noqa: E402
from models import float_graph, onnxruntime_outputs  # noqa: E402
from onnx import helper as h  # noqa: E402

_RNG = np.random.default_rng(5)


def _bn(nodes, inits, x, c, name, form):
    """x -> affine per channel -> activation, as `form`: "bn" (BatchNormalization +
    Relu), "muladd" (Mul, Add by [C, 1, 1] + Relu) or "clip" (BatchNormalization +
    Clip(0, 6))."""
    if form == "muladd":
        inits += [(name + "s", _RNG.uniform(-1.5, 1.5, (c, 1, 1))),
                  (name + "t", _RNG.uniform(-1, 1, (c, 1, 1)))]
        nodes += [h.make_node("Mul", [x, name + "s"], [name + "m"]),
                  h.make_node("Add", [name + "m", name + "t"], [name + "a"])]
    else:
        inits += [(name + "g", _RNG.uniform(-1.5, 1.5, c)), (name + "b", _RNG.uniform(-1, 1, c)),
                  (name + "mu", _RNG.uniform(-1, 1, c)), (name + "v", _RNG.uniform(0.5, 2, c))]
        nodes.append(h.make_node("BatchNormalization", [x, name + "g", name + "b", name + "mu",
                                                        name + "v"], [name + "a"]))
    if form == "clip":
        inits += [(name + "lo", np.array(0.0)), (name + "hi", np.array(6.0))]
        nodes.append(h.make_node("Clip", [name + "a", name + "lo", name + "hi"], [name + "r"]))
    else:
        nodes.append(h.make_node("Relu", [name + "a"], [name + "r"]))
    return name + "r"


def dense_net(form="bn", layers=3, c0=16, growth=8, hw=9, batch=1):
    """A dense block of `layers` pre-activation layers and a transition (`batch`: an int,
    or a name: a run-time batch)."""
    nodes, inits, cur, c = [], [], "x", c0
    for i in range(layers):
        p = f"l{i}_"
        r = _bn(nodes, inits, cur, c, p, form)
        inits += [(p + "w1", _RNG.standard_normal((4 * growth, c, 1, 1)) / np.sqrt(c)),
                  (p + "w3", _RNG.standard_normal((growth, 4 * growth, 3, 3)) / 10)]
        nodes.append(h.make_node("Conv", [r, p + "w1"], [p + "c1"]))
        r1 = _bn(nodes, inits, p + "c1", 4 * growth, p + "n2", "bn")
        nodes += [h.make_node("Conv", [r1, p + "w3"], [p + "c3"], pads=[1, 1, 1, 1]),
                  h.make_node("Concat", [cur, p + "c3"], [p + "cat"], axis=1)]
        cur, c = p + "cat", c + growth
    r = _bn(nodes, inits, cur, c, "tr_", form)
    inits.append(("tr_w", _RNG.standard_normal((c // 2, c, 1, 1)) / np.sqrt(c)))
    nodes += [h.make_node("Conv", [r, "tr_w"], ["tr_c"]),
              h.make_node("AveragePool", ["tr_c"], ["y"], kernel_shape=[2, 2], strides=[2, 2])]
    return float_graph(nodes, [("x", [batch, c0, hw, hw])],
                       [("y", [batch, c // 2, hw // 2, hw // 2])], inits)


def _check(model, x):
    want = onnxruntime_outputs(model, {"x": x})[0]
    for threads in (1, 2):
        got = strata.compile(model, cache=False, num_threads=threads)(x=x)
        got = got[0] if isinstance(got, (list, tuple)) else got
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * np.nanmax(np.abs(want)))


@pytest.mark.parametrize("form", ["bn", "muladd", "clip"])
def test_dense_net_matches_onnxruntime(form, tmp_path):
    model = dense_net(form)
    _check(model, _RNG.standard_normal((1, 16, 9, 9)).astype(np.float32))
    strata.compile(model, cache=False, dump_dir=tmp_path)
    path, = glob.glob(str(tmp_path / "*strata-linalg-to-microkernels.mlir"))
    text = open(path).read()
    # every pre-activation 1x1 (three layers and the transition) reads the block's
    # buffer through the prologue; the batch norms after the 1x1s are folded into their
    # filters (onnx-fold-batch-norm), the others are x * s + t: no sqrt is left
    assert text.count("call @strata_conv2d_nchw_packed_pro_f32(") == 4
    assert "math.sqrt" not in text


def test_nan_in_the_image_as_onnxruntime():
    """A NaN pixel stays NaN through BN + ReLU (the prologue's max keeps it) and spreads
    as onnxruntime's does."""
    model = dense_net("bn", layers=1)
    x = _RNG.standard_normal((1, 16, 9, 9)).astype(np.float32)
    x[0, 3, 4, 4] = np.nan
    want = onnxruntime_outputs(model, {"x": x})[0]
    got = strata.compile(model, cache=False)(x=x)
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(want).any()
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-4, atol=1e-5)


def test_run_time_batch_matches_onnxruntime(tmp_path):
    """A dynamic batch (the kernel loops over the images), two images; its three
    pre-activation 1x1s read through the prologue."""
    model = dense_net("bn", layers=2, batch="N")
    _check(model, _RNG.standard_normal((2, 16, 9, 9)).astype(np.float32))
    strata.compile(model, cache=False, dump_dir=tmp_path)
    path, = glob.glob(str(tmp_path / "*strata-linalg-to-microkernels.mlir"))
    assert open(path).read().count("call @strata_conv2d_nchw_packed_pro_f32(") == 3
