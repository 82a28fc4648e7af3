"""Out-of-range indices of the index-taking ONNX ops are a clear run-time error on every
target (see [Note: index checks] in strata/conversion/onnx_to_linalg/_index_check.py):
compiled CPU code raises strata.runtime.RuntimeFailure naming the op instead of reading
or writing out of bounds, the interpreter raises the same message; in-range indices
(negative ones too) still give onnxruntime's result."""
from __future__ import annotations

import re

import numpy as np
import pytest
from onnx_node_models import F, I32, I64, expected, model, rand

import strata  # noqa: E402
from strata.interpreter.core import InterpreterError  # noqa: E402

pytest.importorskip("llvmlite")

TARGETS = ["cpu", "interpret"]
_CACHE: dict = {}


def compiled(key, make, target):
    """strata.compile of make() for `target`, once per test session."""
    if (key, target) not in _CACHE:
        m = make()
        _CACHE[key, target] = (m, strata.compile(m, target=target))
    return _CACHE[key, target]


def good(key, make, target, *args, want=None):
    m, f = compiled(key, make, target)
    got = f(*args)
    want = expected(m, args) if want is None else want
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-6, atol=1e-6)


def bad(key, make, target, message, *args):
    """Running on `args` fails with `message` (a regex), as the target's error."""
    _, f = compiled(key, make, target)
    err = __import__("strata.runtime", fromlist=["RuntimeFailure"]).RuntimeFailure \
        if target == "cpu" else InterpreterError
    with pytest.raises(err, match=message):
        f(*args)
    # the failure does not leak into the next call
    return f


def named(op, inputs, outputs, **attrs):
    m = model(op, inputs, outputs, **attrs)
    m.graph.node[0].name = "node0"
    return m


# ------------------------------------------------------------------ gathers


def _gather():
    return named("Gather", [("x", F, [5, 3]), ("i", I64, [2, 2])], [("y", F, None)], axis=0)


def _gather_dyn():
    return named("Gather", [("x", F, [3, "N"]), ("i", I32, ["K"])], [("y", F, None)], axis=1)


@pytest.mark.parametrize("target", TARGETS)
def test_gather(target):
    x = rand(5, 3)
    good("g", _gather, target, x, np.array([[0, -1], [4, -5]], np.int64))
    msg = re.escape("Gather at node0: index out of range [-5, 5) on data axis 0")
    for i in ([[0, 5], [1, 2]], [[-6, 0], [1, 2]], [[2**40, 0], [1, 2]]):
        bad("g", _gather, target, msg, x, np.array(i, np.int64))
    good("g", _gather, target, x, np.array([[3, 2], [1, 0]], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_gather_dynamic_axis(target):
    """A run-time axis size, also 0 (any index is then out of range, and nothing is
    read from the empty data)."""
    good("gd", _gather_dyn, target, rand(3, 4), np.array([3, -4, 0], np.int32))
    good("gd", _gather_dyn, target, rand(3, 0), np.zeros(0, np.int32),
         want=[np.zeros((3, 0), np.float32)])
    msg = r"Gather at node0: index out of range \[-n, n\) on data axis 1 \(of run-time"
    bad("gd", _gather_dyn, target, msg, rand(3, 4), np.array([1, 4], np.int32))
    bad("gd", _gather_dyn, target, msg, rand(3, 0), np.array([0], np.int32))


def _gather_elements():
    return named("GatherElements", [("x", F, ["A", "B"]), ("i", I64, ["C", "D"])],
                 [("y", F, None)], axis=1)


@pytest.mark.parametrize("target", TARGETS)
def test_gather_elements(target):
    x = rand(3, 4)
    good("ge", _gather_elements, target, x, np.array([[0, -1], [3, 1], [-4, 2]], np.int64))
    bad("ge", _gather_elements, target,
        r"GatherElements at node0: index out of range \[-n, n\) on data axis 1", x,
        np.array([[0, -1], [4, 1], [-4, 2]], np.int64))
    # indices taller than the data along the other axis (a shape error)
    bad("ge", _gather_elements, target,
        re.escape("GatherElements at node0: indices dim 0 must be <= data dim 0"), x,
        np.zeros((4, 2), np.int64))


def _gather_nd():
    return named("GatherND", [("x", F, [2, 3, 4]), ("i", I64, [2, 1, 1])], [("y", F, None)],
                 batch_dims=1)


def _gather_nd2():
    return named("GatherND", [("x", F, [2, 3, 4]), ("i", I64, [3, 2])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_gather_nd(target):
    x = rand(2, 3, 4)
    good("gn", _gather_nd, target, x, np.array([[[2]], [[-3]]], np.int64))
    bad("gn", _gather_nd, target, re.escape(
        "GatherND at node0: index out of range [-3, 3) on data axis 1 (indices[..., 0])"),
        x, np.array([[[2]], [[3]]], np.int64))
    good("gn2", _gather_nd2, target, x, np.array([[1, 2], [-2, -3], [0, 0]], np.int64))
    msg = re.escape("GatherND at node0: index out of range [-3, 3) on data axis 1 "
                    "(indices[..., 1])")
    bad("gn2", _gather_nd2, target, msg, x, np.array([[1, 2], [1, -4], [0, 0]], np.int64))
    bad("gn2", _gather_nd2, target, r"data axis 0 \(indices\[\.\.\., 0\]\)", x,
        np.array([[1, 2], [2, 0], [0, 0]], np.int64))


# ------------------------------------------------------------------ scatters


def _scatter_elements():
    return named("ScatterElements", [("x", F, [3, "N"]), ("i", I64, [2, "M"]),
                                     ("u", F, [2, "Q"])], [("y", F, None)], axis=1,
                 reduction="add")


def _scatter_nd():
    return named("ScatterND", [("x", F, [4, 3]), ("i", I64, [2, 1]), ("u", F, [2, 3])],
                 [("y", F, None)])


def _scatter_nd_point():
    return named("ScatterND", [("x", F, [4, 3]), ("i", I64, [2]), ("u", F, [])],
                 [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_scatter_elements(target):
    x, u = rand(3, 4), rand(2, 2, seed=1)
    good("se", _scatter_elements, target, x, np.array([[0, -1], [3, 3]], np.int64), u)
    x0 = x.copy()
    bad("se", _scatter_elements, target,
        r"ScatterElements at node0: index out of range \[-n, n\) on data axis 1", x,
        np.array([[0, -1], [3, -5]], np.int64), u)
    np.testing.assert_array_equal(x, x0)        # the input is untouched
    bad("se", _scatter_elements, target,
        re.escape("ScatterElements at node0: updates dim 1 must equal indices dim 1"),
        x, np.array([[0, 1], [3, 3]], np.int64), rand(2, 3))


@pytest.mark.parametrize("target", TARGETS)
def test_scatter_nd(target):
    x, u = rand(4, 3), rand(2, 3, seed=1)
    good("sn", _scatter_nd, target, x, np.array([[1], [-1]], np.int64), u)
    msg = re.escape("ScatterND at node0: index out of range [-4, 4) on data axis 0 "
                    "(indices[..., 0])")
    bad("sn", _scatter_nd, target, msg, x, np.array([[1], [4]], np.int64), u)
    good("snp", _scatter_nd_point, target, x, np.array([-1, 2], np.int64),
         np.array(7, np.float32))
    bad("snp", _scatter_nd_point, target, r"on data axis 1 \(indices\[\.\.\., 1\]\)", x,
        np.array([0, 3], np.int64), np.array(7, np.float32))


def test_scatter_opset_10():
    m = model("Scatter", [("x", F, [3, 3]), ("i", I64, [1, 2]), ("u", F, [1, 2])],
              [("y", F, None)], opset=10, axis=1)
    f = strata.compile(m)
    x, u = rand(3, 3), rand(1, 2)
    np.testing.assert_allclose(f(x, np.array([[2, -3]], np.int64), u)[0],
                               expected(m, [x, np.array([[2, -3]], np.int64), u])[0])
    with pytest.raises(strata.runtime.RuntimeFailure, match="Scatter at y: index out"):
        f(x, np.array([[3, 0]], np.int64), u)


def test_constant_indices_checked_at_compile_time():
    """In-range constant indices need no check; out-of-range ones fail every run."""
    from strata.compiler import build_pipeline, load_module
    from strata.compiler import get_target
    for idx, asserts in ((np.array([[2, 0], [1, -3]], np.int64), 0),
                         (np.array([[2, 0], [1, 3]], np.int64), 1)):
        m = load_module(named("GatherElements", [("x", F, [3, 3]), ("i", idx)],
                              [("y", F, None)]))
        build_pipeline(get_target("interpret").pipeline).run(m)
        text = str(m)
        assert text.count("cf.assert") == asserts, text
        if asserts:
            assert "cf.assert %false" in text
