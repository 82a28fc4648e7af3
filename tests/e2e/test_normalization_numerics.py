"""Normalizations against float64 when the mean is large against the spread: every
normalizing op (LayerNormalization, GroupNormalization and MeanVarianceNormalization
through their schema functions, InstanceNormalization, BatchNormalization in training
mode, RMSNormalization, LpNormalization), compiled for the CPU and run by the
interpreter, over means 1e0..1e4 and standard deviations 1e-3..1e1.

An E[x^2] - E[x]^2 variance (the schema functions' own) is off by 0.1 at mean 10 and std
0.01 and NaN at mean 100; a stable one (see [Note: stable variance] in
strata/frontends/onnx/decompose.py) loses about eps * mean / std. Each output is held
to that bound and to a small factor of onnxruntime's own error on the same input where
onnxruntime is itself stable (its GroupNormalization is not: NaN from mean 100 on)."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import strata  # noqa: E402

_EPS32 = float(np.finfo(np.float32).eps)
_C = 8


def _model(op, shape, opset, inits=(), outputs=1, **attrs):
    node = helper.make_node(op, ["X"] + [n for n, _ in inits],
                            [f"Y{i}" for i in range(outputs)], **attrs)
    g = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info(f"Y{i}", TensorProto.FLOAT, None)
         for i in range(outputs)],
        [numpy_helper.from_array(a, n) for n, a in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=10)


def _normalized(x, axes, eps, outside=False):
    """(x - mean) / sqrt(var + eps), or / (sqrt(var) + eps) with `outside`."""
    m = x.mean(axes, keepdims=True)
    v = ((x - m) ** 2).mean(axes, keepdims=True)
    return (x - m) / (np.sqrt(v) + eps if outside else np.sqrt(v + eps))


def _ones(n):
    return np.ones(n, np.float32)


def _zeros(n):
    return np.zeros(n, np.float32)


# name: (model, float64 reference of output 0, onnxruntime is stable on it)
_CASES = {
    "LayerNormalization": lambda: (
        _model("LayerNormalization", [2, 4, 64], 17, [("S", _ones(64)), ("B", _zeros(64))],
               axis=-1),
        lambda x: _normalized(x, (2,), 1e-5), True),
    "LayerNormalization-axis1": lambda: (
        _model("LayerNormalization", [3, 4, 16], 17,
               [("S", _ones(64).reshape(4, 16)), ("B", _zeros(64).reshape(4, 16))],
               axis=1),
        lambda x: _normalized(x, (1, 2), 1e-5), True),
    "GroupNormalization": lambda: (
        _model("GroupNormalization", [2, 8, 5, 5], 21, [("S", _ones(8)), ("B", _zeros(8))],
               num_groups=2),
        lambda x: _normalized(x.reshape(2, 2, -1), (2,), 1e-5).reshape(x.shape), False),
    "InstanceNormalization": lambda: (
        _model("InstanceNormalization", [2, 8, 5, 5], 17,
               [("S", _ones(8)), ("B", _zeros(8))]),
        lambda x: _normalized(x, (2, 3), 1e-5), True),
    "BatchNormalization-training": lambda: (
        _model("BatchNormalization", [4, 8, 5, 5], 15,
               [("S", _ones(8)), ("B", _zeros(8)), ("M", _zeros(8)), ("V", _ones(8))],
               outputs=3, training_mode=1),
        lambda x: _normalized(x, (0, 2, 3), 1e-5), True),
    "MeanVarianceNormalization": lambda: (
        _model("MeanVarianceNormalization", [2, 8, 5, 5], 18),
        lambda x: _normalized(x, (0, 2, 3), 1e-9, outside=True), True),
    "RMSNormalization": lambda: (
        _model("RMSNormalization", [2, 4, 64], 23, [("S", _ones(64))]),
        lambda x: x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5), True),
    "LpNormalization": lambda: (
        _model("LpNormalization", [2, 4, 64], 17, axis=-1, p=2),
        lambda x: x / np.sqrt((x * x).sum(-1, keepdims=True)), True),
}


@pytest.mark.parametrize("name", list(_CASES))
def test_normalization_is_stable(name):
    model, reference, ort_stable = _CASES[name]()
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    compiled = {t: strata.compile(model, target=t) for t in ("cpu", "interpret")}
    for mean in (1.0, 1e2, 1e4):
        for std in (1e-3, 1e-1, 1e1):
            x = (np.random.default_rng(1).standard_normal(shape) * std + mean)
            x = x.astype(np.float32)
            want = reference(x.astype(np.float64))
            bound = _C * _EPS32 * (mean / std + 1)
            ort_err = float(np.abs(sess.run(None, {"X": x})[0] - want).max())
            for target, f in compiled.items():
                got = f(x)[0]
                assert np.isfinite(got).all(), (target, mean, std)
                err = float(np.abs(got - want).max())
                where = f"{name} {target} mean {mean} std {std}: error {err:.3g}, " \
                        f"onnxruntime's {ort_err:.3g}"
                assert err <= bound, where
                if ort_stable:
                    assert err <= 8 * ort_err + 1e-6, where


def test_fused_division_by_a_row_root_keeps_special_values():
    """The CPU target multiplies by the reciprocal of a row's square root instead of
    dividing by it (see [Note: dividing by a row's square root] in
    strata/conversion/linalg_row_fusion.py): rows whose root is 0, inf, NaN, or tiny and
    huge give what the division gives."""
    d = 16
    nodes = [helper.make_node("Mul", ["X", "X"], ["X2"]),
             helper.make_node("ReduceMean", ["X2"], ["M"], axes=[-1], keepdims=1),
             helper.make_node("Sqrt", ["M"], ["R"]),
             helper.make_node("Div", ["X", "R"], ["Y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT,
                                                                      [7, d])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [7, d])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((7, d)).astype(np.float32)
    x[0] = 0                     # root 0: 0 / 0
    x[1, 3] = np.inf             # root inf: x / inf, inf / inf
    x[2, 5] = np.nan             # root NaN
    x[3] *= np.float32(1e-30)    # squares underflow: root 0, x / 0
    x[4] *= np.float32(1e-20)    # subnormal mean of squares
    x[5] *= np.float32(1e18)     # large root
    f = strata.compile(m)
    with np.errstate(all="ignore"):
        want = x / np.sqrt((x * x).mean(-1, keepdims=True))
    got = f(x)[0]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=2e-6, atol=0)
