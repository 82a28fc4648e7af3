"""Run-time values that decide a shape (Reshape's shape, Expand's, Tile's repeats,
ConstantOfShape's dims, Range's start/limit/delta, Slice's starts/ends/axes/steps, Pad's
pads and axes) are checked against the op's rule on every target (see [Note: shape
checks] in strata/conversion/onnx_to_linalg/_index_check.py): compiled CPU code raises
strata.runtime.RuntimeFailure naming the node and the rule instead of reading out of
bounds, allocating garbage sizes or returning a wrong shape, the interpreter raises the
same message; valid values still give onnxruntime's result, and a bad constant is a
compile-time error naming the node."""
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


def named(op, inputs, outputs, **attrs):
    m = model(op, inputs, outputs, **attrs)
    m.graph.node[0].name = "node0"
    return m


def compiled(make, target):
    """strata.compile of make() for `target`, once per test session."""
    if (make, target) not in _CACHE:
        m = make()
        _CACHE[make, target] = (m, strata.compile(m, target=target))
    return _CACHE[make, target]


def good(make, target, *args):
    m, f = compiled(make, target)
    got = f(*args)
    for g, w in zip(got, expected(m, args)):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def bad(make, target, message, *args):
    """Running on `args` fails with `message` (a regex) as the target's error."""
    _, f = compiled(make, target)
    from strata.runtime import RuntimeFailure
    err = RuntimeFailure if target == "cpu" else InterpreterError
    with pytest.raises(err, match=message):
        f(*args)


def compile_error(m, message):
    with pytest.raises(strata.StrataError if hasattr(strata, "StrataError") else Exception,
                       match=message):
        strata.compile(m, target="cpu")


def i64(*v):
    return np.array(v, np.int64)


# ------------------------------------------------------------------ Reshape


def _reshape():
    return named("Reshape", [("x", F, [8]), ("s", I64, [2])], [("y", F, None)])


def _reshape_nd():
    return named("Reshape", [("x", F, [2, "N"]), ("s", I64, [3])], [("y", F, None)])


def _reshape_allowzero():
    return named("Reshape", [("x", F, [2, 4]), ("s", I64, [2])], [("y", F, None)],
                 allowzero=1)


def _reshape_declared():
    """The graph declares the output's shape: the run-time shape must agree."""
    return named("Reshape", [("x", F, ["N"]), ("s", I64, [2])], [("y", F, [2, 4])])


@pytest.mark.parametrize("target", TARGETS)
def test_reshape(target):
    """The issue's cases: [3, 3] and [-1, -1] on 8 elements, [1000, 1000] (read 4 MB of
    the heap), [2^62, 2] (segfaulted)."""
    x = rand(8)
    pre = "Reshape at node0: "
    for s in ([2, 4], [-1, 2], [8, -1], [1, 8], [0, -1]):
        good(_reshape, target, x, i64(*s))
    count = re.escape(pre + "cannot reshape 8 elements into shape [?, ?]")
    for s in ([3, 3], [1000, 1000], [0, 8], [16, -1], [3, -1]):
        bad(_reshape, target, count, x, i64(*s))
    bad(_reshape, target, re.escape(pre + "shape [?, ?] has more than one -1"), x, i64(-1, -1))
    bad(_reshape, target, re.escape(pre + "shape [?, ?] has a value below -1"), x, i64(-2, -4))
    bad(_reshape, target, re.escape(pre + "shape [?, ?] has more than 2^63 - 1 elements"),
        x, i64(2**62, 2))
    bad(_reshape, target, "more than 2\\^63 - 1 elements", x, i64(2**32, 2**32))
    # 0 copies the input's dim 0 (8); dim 1 has none to copy
    good(_reshape, target, x, i64(0, 1))
    bad(_reshape, target, re.escape(pre + "shape [?, ?] has a 0 at dim 1, past the input's "
                                    "rank 1"), x, i64(8, 0))
    good(_reshape, target, x, i64(4, 2))


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_dynamic_input(target):
    x = rand(2, 6)
    for s in ([0, 3, 2], [2, -1, 3], [1, 12, 1], [0, 0, -1]):
        good(_reshape_nd, target, x, i64(*s))
    for s in ([0, 3, 3], [2, 5, -1], [2, 2**40, 2**40]):
        bad(_reshape_nd, target, "Reshape at node0: ", x, i64(*s))
    # the input's dims are 0: a -1 has nothing to divide (onnxruntime refuses it)
    bad(_reshape_nd, target, "cannot reshape 0 elements|cannot reshape the input's",
        rand(2, 0), i64(0, 0, -1))
    good(_reshape_nd, target, rand(2, 0), i64(0, 0, 5))


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_allowzero(target):
    """allowzero=1: a 0 is a size 0, so a -1 beside it divides nothing."""
    x = rand(2, 4)
    good(_reshape_allowzero, target, x, i64(4, 2))
    for s in ([0, -1], [0, 8], [8, 0]):
        bad(_reshape_allowzero, target, "Reshape at node0: cannot reshape 8 elements", x,
            i64(*s))


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_declared_output(target):
    """A declared output shape does not override the run-time shape (onnxruntime gives
    the operand's), and a dynamic input's count is checked against the declared one."""
    good(_reshape_declared, target, rand(8), i64(2, 4))
    good(_reshape_declared, target, rand(8), i64(-1, 4))
    bad(_reshape_declared, target, re.escape("Reshape at node0: shape [?, ?] differs from "
                                             "the result's dims [2, 4]"), rand(8), i64(4, 2))
    bad(_reshape_declared, target, "Reshape at node0: ", rand(7), i64(2, 4))
    bad(_reshape_declared, target, "Reshape at node0: ", rand(9), i64(2, 4))


def test_reshape_constant_shape_is_a_compile_error():
    m = named("Reshape", [("x", F, [8]), ("s", i64(3, 3))], [("y", F, None)])
    compile_error(m, "cannot reshape 8 elements")
    m = named("Reshape", [("x", F, [8]), ("s", i64(-1, -1))], [("y", F, None)])
    compile_error(m, "-1")
