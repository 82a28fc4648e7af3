"""onnx-decompose's rewrite of E[x^2] - E[x]^2 variances in schema function bodies (see
[Note: stable variance] in strata/frontends/onnx/decompose.py): what it rewrites, what
it leaves alone, and that nothing else of the body changes."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import helper  # noqa: E402

from strata.frontends.onnx.decompose import _stable_variance  # noqa: E402


def _body(square="Mul", mean_keepdims=None, other_axes=False, exponent=2.0, extra=()):
    const = helper.make_node("Constant", [], ["two"], value_float=exponent)
    axes = helper.make_node("Constant", [], ["axes"], value_ints=[1])
    axes2 = helper.make_node("Constant", [], ["axes2"], value_ints=[0])
    mean = helper.make_node("ReduceMean", ["X", "axes"], ["M"])
    if mean_keepdims is not None:
        mean.attribute.append(helper.make_attribute("keepdims", mean_keepdims))
    if square == "Mul":
        sq = [helper.make_node("Mul", ["X", "X"], ["X2"]),
              helper.make_node("Mul", ["M", "M"], ["M2"])]
    else:
        sq = [helper.make_node("Pow", ["X", "two"], ["X2"]),
              helper.make_node("Pow", ["M", "two"], ["M2"])]
    q = helper.make_node("ReduceMean", ["X2", "axes2" if other_axes else "axes"], ["Q"])
    var = helper.make_node("Sub", ["Q", "M2"], ["V"])
    y = helper.make_node("Sub", ["X", "M"], ["D"])
    nodes = [const, axes, axes2, mean, *sq, q, var, y, *extra]
    outs = ["V", "D"] + [o for n in extra for o in n.output]
    return helper.make_function("test", "f", ["X"], outs, nodes,
                                [helper.make_opsetid("", 18)])


def _ops(fn):
    return [(n.op_type, list(n.input), list(n.output)) for n in fn.node]


@pytest.mark.parametrize("square", ["Mul", "Pow"])
def test_rewrites_into_centered_squares(square):
    fn = _body(square)
    assert _stable_variance(fn) == 1
    ops = _ops(fn)
    assert ("Sub", ["X", "M"], ["V_centered"]) in ops
    assert ("Mul", ["V_centered", "V_centered"], ["V_squares"]) in ops
    assert ("ReduceMean", ["V_squares", "axes"], ["V"]) in ops
    # E[x^2], x^2 and E[x]^2 are gone; the rest stays in order
    names = {o for _, _, outs in ops for o in outs}
    assert not names & {"X2", "Q", "M2"}
    assert [o[2] for o in ops if o[2][0] in ("M", "D")] == [["M"], ["D"]]


def test_keeps_values_still_read():
    """E[x^2] is a function output too: it stays, the variance is still rewritten."""
    extra = (helper.make_node("Identity", ["Q"], ["Qout"]),)
    fn = _body(extra=extra)
    assert _stable_variance(fn) == 1
    names = {o for n in fn.node for o in n.output}
    assert {"Q", "X2", "Qout"} <= names and "M2" not in names


@pytest.mark.parametrize("kwargs", [
    dict(mean_keepdims=0),        # the mean does not broadcast against x
    dict(other_axes=True),        # the two means reduce different axes
    dict(square="Pow", exponent=3.0),
])
def test_leaves_other_forms_alone(kwargs):
    fn = _body(**kwargs)
    before = fn.SerializeToString()
    assert _stable_variance(fn) == 0
    assert fn.SerializeToString() == before


@pytest.mark.parametrize("target", ["cpu", "interpret"])
def test_double_layer_norm_computes_in_double(target):
    """LayerNormalization on double data with the default stash_type (float) computes its
    statistics in double, as onnxruntime and onnx.reference do (the fuzzer's seed 259:
    float statistics gave double outputs 2e-7 relative errors)."""
    import strata
    from onnx import TensorProto as TP
    from onnx import helper as h
    n = h.make_node("LayerNormalization", ["x", "s", "b"], ["y"], axis=1, epsilon=1e-3)
    vi = h.make_tensor_value_info
    g = h.make_graph([n], "g", [vi("x", TP.DOUBLE, [4, 5]), vi("s", TP.DOUBLE, [5]),
                                vi("b", TP.DOUBLE, [5])], [vi("y", TP.DOUBLE, None)])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    rng = np.random.default_rng(3)
    x, s, b = rng.normal(3, 2, (4, 5)), rng.normal(size=5), rng.normal(size=5)
    mean = x.mean(axis=1, keepdims=True)
    eps = float(np.float32(1e-3))  # the attribute is a float
    want = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + eps) * s + b
    y, = strata.compile(m, target=target)(x, s, b)
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-12)
