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


def good(make, target, *args, ref="ort"):
    m, f = compiled(make, target)
    got = f(*args)
    for g, w in zip(got, expected(m, args, ref)):
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


def compile_error(m, *parts):
    """Compiling `m` fails with a diagnostic holding each of `parts`."""
    from strata.errors import StrataError
    with pytest.raises(StrataError) as info:
        strata.compile(m, target="cpu")
    text = f"{info.value}\n{getattr(info.value, 'diag', '')}"
    for p in parts:
        assert p in text, text


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
    good(_reshape_declared, target, rand(8), i64(2, -1))
    msg = re.escape("Reshape at node0: shape [?, ?] does not reshape the input [?] into the "
                    "result's dims [2, 4]")
    for s in ([4, 2], [-1, -1], [0, 4], [2, 0], [-1, 2], [8, -1], [-2, -4]):
        bad(_reshape_declared, target, msg, rand(8), i64(*s))
    for n in (7, 9, 0):
        bad(_reshape_declared, target, msg, rand(n), i64(2, 4))
    good(_reshape_declared, target, rand(8), i64(2, 4))


def _reshape_named():
    """`?` dims named as the input's: the type decides the sizes, the operand is checked
    against them (one assert)."""
    return named("Reshape", [("x", F, ["B", 6]), ("s", I64, [3])], [("y", F, ["B", 2, 3])])


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_named_dims(target):
    x = rand(4, 6)
    for s in ([4, 2, 3], [0, 2, 3], [-1, 2, 3], [4, -1, 3], [0, 2, -1]):
        good(_reshape_named, target, x, i64(*s))
    for s in ([4, 3, 2], [2, 4, 3], [-1, -1, 3], [0, 0, 3], [4, 2, 0], [1, 2, 3]):
        bad(_reshape_named, target, "Reshape at node0: shape \\[\\?, \\?, \\?\\] does "
            "not reshape the input", x, i64(*s))
    # an empty batch: -1 beside the others leaves 0 (they are not 0)
    good(_reshape_named, target, rand(0, 6), i64(0, 2, 3))
    good(_reshape_named, target, rand(0, 6), i64(-1, 2, 3))


def _shape_of_input(rest):
    from onnx import TensorProto as TP
    from onnx import helper
    nodes = [helper.make_node("Shape", ["x"], ["sh"], start=0, end=1),
             helper.make_node("Constant", [], ["c"],
                              value=helper.make_tensor("c", TP.INT64, [2], rest)),
             helper.make_node("Concat", ["sh", "c"], ["s"], axis=0),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="node0")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["B", 6])],
                          [helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=8)


def test_reshape_shape_of_input_needs_no_check():
    """A shape computed from the input's own sizes (Shape -> Concat, as exporters write)
    is read through to those sizes: nothing is left to check at run time."""
    m = _shape_of_input([2, 3])
    f = strata.compile(m, target="interpret")
    assert "cf.assert" not in str(f.module)
    x = rand(4, 6)
    np.testing.assert_array_equal(f(x)[0], x.reshape(4, 2, 3))
    np.testing.assert_array_equal(strata.compile(m)(x)[0], x.reshape(4, 2, 3))


def _shape_of_input_minus_one():
    return _shape_of_input([-1, 3])


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_shape_of_input_minus_one(target):
    """[B, -1, 3]: the -1 divides by B * 3, so B = 0 is an error (as in onnxruntime)."""
    good(_shape_of_input_minus_one, target, rand(4, 6))
    bad(_shape_of_input_minus_one, target, "Reshape at node0: shape \\[\\?, -1, 3\\]",
        rand(0, 6))


def test_reshape_constant_shape_is_a_compile_error():
    m = named("Reshape", [("x", F, [8]), ("s", i64(3, 3))], [("y", F, None)])
    compile_error(m, 'loc("node0")', "cannot reshape 8 elements")
    m = named("Reshape", [("x", F, ["N"]), ("s", i64(-1, -1))], [("y", F, None)])
    compile_error(m, 'loc("node0")', "more than one -1")


# ------------------------------------------------------------------ Expand, Tile


def _expand():
    return named("Expand", [("x", F, [1, 4]), ("s", I64, [2])], [("y", F, None)])


def _expand_dyn():
    return named("Expand", [("x", F, ["N", 1]), ("s", I64, [3])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_expand(target):
    """The issue's case: [1, 4] -> [3, 5] returned a (3, 4) array."""
    x = rand(1, 4)
    for s in ([3, 4], [3, 1], [1, 1], [0, 4], [4]):
        good(_expand, target, x, i64(*s) if len(s) == 2 else i64(1, *s))
    msg = re.escape("Expand at node0: shape [?, ?] does not broadcast with the input's "
                    "[1, 4]")
    for s in ([3, 5], [2, 0], [1, 8]):
        bad(_expand, target, msg, x, i64(*s))
    bad(_expand, target, re.escape("Expand at node0: shape [?, ?] has a negative value"),
        x, i64(-1, 4))
    bad(_expand, target, "Expand at node0: shape \\[\\?, \\?\\] gives more than 2\\^63 - 1 "
        "elements", x, i64(2**62, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_expand_dynamic_input(target):
    for n, s in ((3, [2, 3, 5]), (1, [2, 3, 5]), (3, [1, 1, 1]), (3, [2, 1, 1]), (0, [2, 1, 4])):
        good(_expand_dyn, target, rand(n, 1), i64(*s))
    for n, s in ((3, [2, 4, 5]), (2, [1, 3, 1]), (3, [2, 0, 4])):
        bad(_expand_dyn, target, "Expand at node0: shape .* does not broadcast", rand(n, 1),
            i64(*s))


def _tile():
    return named("Tile", [("x", F, [2, "N"]), ("r", I64, [2])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_tile(target):
    x = rand(2, 3)
    for r in ([2, 2], [0, 1], [1, 0], [3, 1]):
        good(_tile, target, x, i64(*r))
    bad(_tile, target, re.escape("Tile at node0: repeats [?, ?] has a negative value"), x,
        i64(-1, 2))
    big = re.escape("Tile at node0: repeats [?, ?] give more than 2^63 - 1 elements")
    for r in ([2**62, 1], [2**31, 2**31], [2**62, 2**62]):
        bad(_tile, target, big, x, i64(*r))
    # an empty dim of the input: a product that overflows in one dim still fails
    bad(_tile, target, big, rand(2, 0), i64(2**62, 2**62))
    good(_tile, target, rand(2, 0), i64(3, 5))


# ------------------------------------------------------------------ ConstantOfShape, Range


def _constant_of_shape():
    return named("ConstantOfShape", [("s", I64, [3])], [("y", F, None)],
                 value=__import__("onnx").helper.make_tensor("v", F, [1], [1.5]))


@pytest.mark.parametrize("target", TARGETS)
def test_constant_of_shape(target):
    for s in ([2, 3, 4], [0, 5, 2], [1, 1, 1], [2**40, 0, 3]):
        good(_constant_of_shape, target, i64(*s))
    bad(_constant_of_shape, target, re.escape("ConstantOfShape at node0: shape [?, ?, ?] has "
                                              "a negative value"), i64(2, -3, 4))
    bad(_constant_of_shape, target, re.escape("ConstantOfShape at node0: shape [?, ?, ?] has "
                                              "more than 2^63 - 1 elements"),
        i64(2**62, 2, 1))


def _range(t):
    return lambda: named("Range", [("a", t, []), ("b", t, []), ("c", t, [])],
                         [("y", t, None)])


_RANGE = {t: _range(t) for t in (I64, I32, F)}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("elt", [I64, I32, F])
def test_range(target, elt):
    dt = {I64: np.int64, I32: np.int32, F: np.float32}[elt]
    make = _RANGE[elt]

    def args(*v):
        return [np.array(a, dt) for a in v]
    for v in ([0, 10, 3], [10, 0, -3], [0, 10, -1], [5, 5, 1], [-7, 7, 7]):
        good(make, target, *args(*v))
    bad(make, target, "Range at node0: delta is 0", *args(0, 10, 0))
    if elt == I64:
        for v in ([-2**63, 2**63 - 1, 1], [2**63 - 1, -2**63, -2]):
            bad(make, target, "Range at node0: .* over 2\\^63 - 1 elements", *args(*v))
        good(make, target, *args(2**63 - 3, 2**63 - 1, 1))
        good(make, target, *args(-2**63, -2**63 + 5, 2**62))
    if elt == F:
        for v in ([0, 1e30, 1], [0, np.nan, 1], [0, np.inf, 1], [0, -np.inf, 1]):
            bad(make, target, "Range at node0: .* not finite or over 2\\^63 - 1 elements",
                *args(*v))
        good(make, target, *args(0, -1e30, 1))


def test_constant_values_are_compile_errors():
    """Bad values known at compile time: a located error, no run-time code."""
    at = 'loc("node0")'
    m = named("Tile", [("x", F, ["N", 3]), ("r", i64(-1, 2))], [("y", F, None)])
    compile_error(m, at, "repeats [-1, 2] has a negative value")
    m = named("ConstantOfShape", [("s", i64(-1, 2))], [("y", F, None)])
    compile_error(m, at, "shape [-1, 2] has a negative value")
    m = named("Range", [("a", np.array(0, np.int64)), ("b", np.array(5, np.int64)),
                        ("c", np.array(0, np.int64))], [("y", I64, None)])
    compile_error(m, at, "delta is 0")
    m = named("Expand", [("x", F, ["N", 4]), ("s", i64(3, 5))], [("y", F, None)])
    compile_error(m, at, "cannot be broadcast")
    m = named("Pad", [("x", F, [3, 4]), ("p", i64(-4, 0, 0, 0))], [("y", F, None)])
    compile_error(m, at, "remove more than a whole dim")
    m = named("Pad", [("x", F, [3, 4]), ("p", i64(3, 0, 0, 0))], [("y", F, None)],
              mode="reflect")
    compile_error(m, at, "'reflect' mode pads [3, 0, 0, 0] beyond a dim's size less 1")


# ------------------------------------------------------------------ Slice, Pad


def _slice():
    return named("Slice", [("x", F, [3, "N"]), ("s", I64, [1]), ("e", I64, [1]),
                           ("a", I64, [1]), ("k", I64, [1])], [("y", F, None)])


def _slice_two_axes():
    return named("Slice", [("x", F, [3, 4]), ("s", I32, [2]), ("e", I32, [2]),
                           ("a", I32, [2])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_slice(target):
    """Starts and ends clamp (not an error), also at the int64 limits; a step of 0, an
    axis out of range or named twice fail as in onnxruntime."""
    x = rand(3, 4)
    lo, hi = -2**63, 2**63 - 1
    for s, e, a, k in ([0, 10, 1, 2], [-1, -100, 0, -1], [hi, lo, 1, lo], [lo, hi, -1, hi],
                       [1, 1, 0, 1], [5, 0, 1, -2], [-100, 100, -2, 3], [2, 0, 0, -1]):
        good(_slice, target, x, i64(s), i64(e), i64(a), i64(k))
    good(_slice, target, rand(3, 0), i64(0), i64(5), i64(1), i64(-1))
    bad(_slice, target, re.escape("Slice at node0: steps [?] has a 0"), x, i64(0), i64(3),
        i64(0), i64(0))
    for a in (2, -3, hi, lo):
        bad(_slice, target, re.escape("Slice at node0: axes [?] out of range [-2, 2)"), x,
            i64(0), i64(3), i64(a), i64(1))
    def i32(*v):
        return np.array(v, np.int32)
    good(_slice_two_axes, target, x, i32(0, 1), i32(2, 3), i32(1, 0))
    bad(_slice_two_axes, target, re.escape("Slice at node0: axes [?, ?] name an axis twice"),
        x, i32(0, 1), i32(2, 3), i32(1, -1))


def _pad(mode):
    return lambda: named("Pad", [("x", F, ["N", 4]), ("p", I64, [4])], [("y", F, None)],
                         mode=mode)


_PAD = {m: _pad(m) for m in ("constant", "edge", "reflect", "wrap")}


def _pad_axes():
    return named("Pad", [("x", F, [3, 4]), ("p", I64, [2]), None, ("a", I64, [1])],
                 [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_pad(target, mode):
    """Negative pads crop down to the whole dim and not beyond; the repeating modes
    have no data in a dim left empty; sizes within int64."""
    make = _PAD[mode]
    x = rand(3, 4)
    for p in ([1, 1, 1, 1], [-1, 0, -1, 2], [-2, -2, 0, 0], [0, 2, 1, 0], [2, 0, 2, 0],
              [0, 0, -2, -3], [-1, -1, -1, -2]):
        good(make, target, x, i64(*p))
    over = re.escape("Pad at node0: pads [?, ?, ?, ?] remove more than a whole dim of "
                     "the input [?, 4]")
    for p in ([0, -5, 0, 0], [-4, 0, 0, 0], [-2**63, 0, 0, 0], [-2, 0, -2, 0],
              [0, -2, 1, -3], [0, 0, 0, -2**63]):
        bad(make, target, over, x, i64(*p))
    big = "'reflect' mode pads" if mode == "reflect" else "pads [?, ?, ?, ?] give more " \
        "than 2^63 - 1 elements"
    for p in ([2**62, 0, 2**62, 0], [0, 2**63 - 1, 0, 1], [2**32, 2**32, 0, 0]):
        bad(make, target, re.escape(f"Pad at node0: {big}"), x, i64(*p))
    empty = re.escape(f"Pad at node0: '{mode}' mode has no data to repeat in a dim left "
                      "empty")
    for p in ([-3, 0, 0, 0], [-3, 1, 0, 1]):
        if mode == "constant":
            good(make, target, x, i64(*p))
        else:
            bad(make, target, empty, x, i64(*p))
    # an empty input: the constant mode pads it with the value, the others fail
    if mode == "constant":
        good(make, target, rand(0, 4), i64(1, 0, 1, 0))
    else:
        bad(make, target, empty, rand(0, 4), i64(1, 0, 1, 0))
    # (onnxruntime has no 'wrap' for an empty input: the reference evaluator then)
    good(make, target, rand(0, 4), i64(0, 1, 0, 1), ref="ref" if mode == "wrap" else "ort")
    # reflect repeats no border: at most n - 1 on either side (onnxruntime's rule)
    if mode == "reflect":
        for p in ([3, 0, 0, 0], [0, 0, 0, 4], [-1, 0, 2, 0]):
            bad(make, target, re.escape("Pad at node0: 'reflect' mode pads [?, ?, ?, ?] "
                                        "beyond a dim's size less 1"), x, i64(*p))
        good(make, target, x, i64(-1, 0, 1, 0))
    else:
        good(make, target, x, i64(5, 0, 7, 9))


@pytest.mark.parametrize("target", TARGETS)
def test_pad_axes(target):
    x = rand(3, 4)
    for a in (0, 1, -1, -2):
        good(_pad_axes, target, x, i64(1, 2), i64(a))
    for a in (2, -3):
        bad(_pad_axes, target, re.escape("Pad at node0: axes [?] out of range [-2, 2)"), x,
            i64(1, 2), i64(a))
