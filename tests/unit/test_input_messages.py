"""What a compiled model says about a bad input (see [Note: input messages] in
strata/runtime): the type that was passed, where inside nested lists, counts in the
singular for one; the same words for both targets (cpu: native code, interpret) and for
the interpreter's own entry. None is never read as NaN."""
from __future__ import annotations

import re

import numpy as np
import pytest

import strata
from strata.compiler import InputError

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as TP  # noqa: E402
from onnx import helper as h  # noqa: E402

TARGETS = ["cpu", "interpret"]
_CACHE = {}


def _relu(shape, n_inputs=1):
    names = ["x", "y"][:n_inputs]
    node = h.make_node("Relu" if n_inputs == 1 else "Add", names, ["z"])
    g = h.make_graph([node], "g", [h.make_tensor_value_info(n, TP.FLOAT, shape)
                                   for n in names],
                     [h.make_tensor_value_info("z", TP.FLOAT, shape)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def compiled(shape, target, n_inputs=1):
    key = (tuple(shape), target, n_inputs)
    if key not in _CACHE:
        _CACHE[key] = strata.compile(_relu(shape, n_inputs), target=target)
    return _CACHE[key]


class Thing:
    pass


X = "input #0 ('x'): "
AN_ARRAY = X + "expected an array (NumPy, DLPack) or numbers, got "
SHAPE = X + "expected shape (2,) for type 'tensor<2xf32>', got "


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("value, message", [
    (None, AN_ARRAY + "None"),
    ("abc", X + "expected float32 values, got a str ('abc')"),
    ({"a": 1}, AN_ARRAY + "a dict"),
    ({1, 2}, AN_ARRAY + "a set"),
    (b"ab", AN_ARRAY + "a bytes object"),
    (object(), AN_ARRAY + "an object"),
    (Thing(), AN_ARRAY + "an object of type test_input_messages.Thing"),
    (["a", "b"], X + "expected float32 values, got a list holding a str ('a') at [0]"),
    ([1.0, None], X + "expected float32 values, got a list holding None at [1]"),
    ((1.0, Thing()), X + "expected float32 values, got a tuple holding an object of type "
                         "test_input_messages.Thing at [1]"),
    ([[1.0, 2.0], [3.0]], X + "expected a rectangular array, got a ragged list ([0] has "
                              "2 items, [1] has 1)"),
    ([[1.0, 2.0], 3.0], X + "expected a rectangular array, got a ragged list ([0] is a "
                            "list, [1] is a Python float)"),
    ([[[1.0]], [[2.0, 3.0]]], X + "expected a rectangular array, got a ragged list "
                                  "([0][0] has 1 item, [1][0] has 2)"),
    (1 + 2j, X + "expected float32 values, got a Python complex ((1+2j))"),
    ([1.0, 2j], X + "expected float32 values, got a list holding a Python complex (2j) "
                    "at [1]"),
    (np.zeros(2, np.complex64), X + "expected dtype float32 for type 'tensor<2xf32>', got "
                                    "complex64"),
    (np.array(["a", "b"]), X + "expected dtype float32 for type 'tensor<2xf32>', got str"),
    (np.array(3.0, np.float32), SHAPE + "a 0-d float32 array"),
    (np.float32(3.0), SHAPE + "a NumPy float32 scalar"),
    (3.0, SHAPE + "a Python float"),
    (True, SHAPE + "a Python bool"),
    ([1.0, 2.0, 3.0], SHAPE + "a list of shape (3,)"),
    (np.zeros((2, 1), np.float32), SHAPE + "(2, 1)"),
])
def test_each_bad_input_names_what_was_passed(target, value, message):
    with pytest.raises(InputError, match="^" + re.escape(message) + "$"):
        compiled([2], target)(value)


@pytest.mark.parametrize("target", TARGETS)
def test_none_is_refused_where_a_scalar_tensor_is_expected(target):
    # np.asarray(None, np.float32) is NaN: it once ran on that
    f = compiled([], target)
    with pytest.raises(InputError, match=re.escape(
            "input #0 ('x'): expected an array (NumPy, DLPack) or numbers, got None")):
        f(None)
    with pytest.raises(InputError, match="got None"):
        f(x=None)
    assert f(np.float32(-2))[0] == 0 and f(3.0)[0] == 3


@pytest.mark.parametrize("target", TARGETS)
def test_counts_are_singular_for_one(target):
    one, two = compiled([2], target), compiled([2], target, 2)
    for f, args, message in [
            (one, (), "@main takes 1 input; missing: x"),
            (one, (1.0, 2.0), "@main takes 1 input (x), got 2"),
            (two, (), "@main takes 2 inputs; missing: x, y"),
            (two, (np.zeros(2, np.float32),), "@main takes 2 inputs; missing: y"),
            (two, (1, 2, 3), "@main takes 2 inputs (x, y), got 3")]:
        with pytest.raises(InputError, match="^" + re.escape(message) + "$"):
            f(*args)


def test_the_interpreter_entry_says_the_same():
    from strata.frontends.onnx import import_model
    from strata.interpreter import Interpreter, InterpreterError
    run = Interpreter(import_model(_relu([2]))).call
    with pytest.raises(InterpreterError, match=re.escape("@main takes 1 argument, got 2")):
        run("main", np.zeros(2, np.float32), np.zeros(2, np.float32))
    with pytest.raises(InterpreterError, match=re.escape("@main takes 1 argument; missing")):
        run("main")
    with pytest.raises(InterpreterError, match=re.escape(
            "('x') of @main: expected a value of type 'tensor<2xf32>', got None")):
        run("main", None)


def test_output_count_messages_are_singular_for_one():
    """strata.testing's count mismatch reads "1 output", not "1 outputs"."""
    import strata.testing as st
    with pytest.raises(AssertionError, match=r"^1 output, expected 2$"):
        st.assert_outputs_close([np.zeros(1), np.zeros(1)], [np.zeros(1)])
