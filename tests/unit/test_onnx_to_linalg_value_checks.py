"""Run-time values that an ONNX op's rule constrains, checked in the compiled code (see
[Note: index checks] and [Note: integer division checks] in
strata/conversion/onnx_to_linalg/_index_check.py): integer division by zero and the
minimum divided by -1, Resize sizes and scales, TopK's k, OneHot's depth, and dynamic
dims that two inputs share. A bad value raises strata.runtime.RuntimeFailure (the
interpreter's error for target="interpret") naming the node and the reason; good
values still give onnxruntime's result; constant bad values are a compile error."""
from __future__ import annotations

import re

import numpy as np
import pytest
from onnx_node_models import (CHECK_TARGETS, F, I32, I64, U8, bad, c_example, compiled,
                              expected, named, rand)

import strata  # noqa: E402

pytest.importorskip("llvmlite")

onnx = pytest.importorskip("onnx")

TARGETS = CHECK_TARGETS


def good(key, make, target, *args, want=None):
    m, f = compiled(key, make, target)
    got = f(*args)
    want = expected(m, args) if want is None else want
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape, (g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def compile_error(m, message):
    """Compiling `m` fails at the node (its location) with `message` (a regex) as the
    reason."""
    from strata.passes.pass_manager import PassFailure
    with pytest.raises(PassFailure) as e:
        strata.compile(m, target="interpret")
    d = e.value.diag
    assert "node0" in str(d.loc), d.loc
    assert any(re.search(message, n.message) for n in d.notes), \
        [n.message for n in d.notes]


# ------------------------------------------------------------------ integer division

I64_MIN = np.iinfo(np.int64).min


def _div(elt=I64, op="Div", **attrs):
    return lambda: named(op, [("a", elt, ["N"]), ("b", elt, ["M"])], [("y", elt, None)],
                         **attrs)


@pytest.mark.parametrize("target", TARGETS)
def test_div_by_zero_and_overflow(target):
    """The issue's cases: int64 5 / 0 gave 5, INT64_MIN / -1 wrapped."""
    make = _div()
    a = np.array([5, -7, 9, I64_MIN], np.int64)
    good("div", make, target, a, np.array([2, 2, -3, 1], np.int64))
    zero = re.escape("Div at node0: division by zero")
    bad("div", make, target, zero, np.array([5], np.int64), np.array([0], np.int64))
    bad("div", make, target, zero, a, np.array([1, 2, 0, 1], np.int64))
    over = re.escape("Div at node0: integer overflow (the minimum value divided by -1)")
    bad("div", make, target, over, np.array([I64_MIN], np.int64), np.array([-1], np.int64))
    bad("div", make, target, over, a, np.array([-1, 2, 3, -1], np.int64))
    # -1 and the minimum in different places: no overflow
    good("div", make, target, a, np.array([-1, 2, 3, 7], np.int64))
    # broadcast: a scalar-like divisor
    bad("div", make, target, over, a, np.array([-1], np.int64))
    bad("div", make, target, zero, a, np.array([0], np.int64))
    good("div", make, target, a, np.array([3], np.int64))
    # empty operands: nothing to divide
    good("div", make, target, a[:0], np.array([0], np.int64)[:0])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("fmod", [0, 1])
def test_mod_by_zero(target, fmod):
    """Mod by zero fails in both modes; the minimum mod -1 is 0 (no overflow)."""
    make = _div(I32, "Mod", fmod=fmod)
    a = np.array([5, -7, 9, np.iinfo(np.int32).min], np.int32)
    good(("mod", fmod), make, target, a, np.array([2, 3, -4, -1], np.int32))
    bad(("mod", fmod), make, target, re.escape("Mod at node0: division by zero"),
        a, np.array([2, 0, -4, -1], np.int32))


@pytest.mark.parametrize("target", TARGETS)
def test_unsigned_div_by_zero(target):
    make = _div(U8)
    a = np.array([5, 255, 7], np.uint8)
    good("udiv", make, target, a, np.array([2, 255, 1], np.uint8))
    bad("udiv", make, target, "Div at node0: division by zero", a,
        np.array([2, 0, 1], np.uint8))


@pytest.mark.parametrize("target", TARGETS)
def test_int8_overflow_with_a_constant_divisor(target):
    """A constant divisor without 0 needs no zero check; its -1 still needs the
    dividend's minimum checked at run time."""
    make = lambda: named("Div", [("a", onnx.TensorProto.INT8, [3]),  # noqa: E731
                                 ("b", np.array([1, -1, 2], np.int8))],
                         [("y", onnx.TensorProto.INT8, None)])
    good("i8", make, target, np.array([-128, 127, -128], np.int8))
    bad("i8", make, target, "Div at node0: integer overflow", np.array([0, -128, 3], np.int8))


def test_float_division_keeps_ieee_semantics():
    m = named("Div", [("a", F, [3]), ("b", F, [3])], [("y", F, None)])
    f = strata.compile(m)
    assert "cf.assert" not in str(strata.compile(m, target="interpret").module)
    with np.errstate(divide="ignore", invalid="ignore"):
        got = f(np.array([1, -1, 0], np.float32), np.zeros(3, np.float32))[0]
    np.testing.assert_array_equal(got, np.array([np.inf, -np.inf, np.nan], np.float32))


def test_constant_divisors_are_checked_at_compile_time():
    """A constant 0 fails to compile; a constant divisor without 0 or -1 emits no check."""
    def text(divisor):
        m = named("Div", [("a", I64, [3]), ("b", divisor)], [("y", I64, None)])
        return str(strata.compile(m, target="interpret").module)
    assert "cf.assert" not in text(np.array([1, 2, 3], np.int64))
    assert text(np.array([1, -1, 3], np.int64)).count("cf.assert") == 1
    m = named("Div", [("a", I64, [3]), ("b", np.array([1, 0, 3], np.int64))],
              [("y", I64, None)])
    compile_error(m, "division by zero")
    m = named("Div", [("a", np.array([I64_MIN, 2], np.int64)),
                      ("b", np.array([-1, 1], np.int64))], [("y", I64, None)])
    compile_error(m, "integer overflow")


def test_decomposed_integer_division_is_checked():
    """An integer Div that onnx-decompose makes from a function body is checked too."""
    from onnx import helper as h
    fn_nodes = [h.make_node("Div", ["x", "y"], ["z"], name="inner_div")]
    fn = h.make_function("local", "IntDiv", ["x", "y"], ["z"], fn_nodes,
                         [h.make_opsetid("", 19)])
    g = h.make_graph([h.make_node("IntDiv", ["a", "b"], ["c"], domain="local", name="call")],
                     "g", [h.make_tensor_value_info("a", I64, [2]),
                           h.make_tensor_value_info("b", I64, [2])],
                     [h.make_tensor_value_info("c", I64, [2])])
    m = h.make_model(g, functions=[fn], ir_version=8,
                     opset_imports=[h.make_opsetid("", 19), h.make_opsetid("local", 1)])
    f = strata.compile(m)
    np.testing.assert_array_equal(f(np.array([7, 8]), np.array([2, -4]))[0], [3, -2])
    with pytest.raises(strata.runtime.RuntimeFailure, match="Div at .*division by zero"):
        f(np.array([7, 8]), np.array([2, 0]))


# ------------------------------------------------------------------ TopK


def _topk():
    return named("TopK", [("x", F, [2, "N"]), ("k", I64, [1])],
                 [("v", F, None), ("i", I64, None)], axis=1)


@pytest.mark.parametrize("target", TARGETS)
def test_topk_k(target):
    """0 <= k <= the axis size: onnxruntime fails on k > n (and on k < 0)."""
    x = rand(2, 5)
    for k in (0, 3, 5):
        good("topk", _topk, target, x, np.array([k], np.int64))
    msg = re.escape("TopK at node0: k out of range [0, n]")
    for k in (6, -1, 2**40, -2**63):
        bad("topk", _topk, target, msg, x, np.array([k], np.int64))
    bad("topk", _topk, target, msg, x[:, :0], np.array([1], np.int64))
    good("topk", _topk, target, x[:, :0], np.array([0], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_topk_k_against_a_static_axis(target):
    make = lambda: named("TopK", [("x", F, [2, 4]), ("k", I64, [1])],  # noqa: E731
                         [("v", F, None), ("i", I64, None)])
    x = rand(2, 4)
    good("topk4", make, target, x, np.array([4], np.int64))
    bad("topk4", make, target, re.escape("TopK at node0: k out of range [0, 4] on axis 1"),
        x, np.array([5], np.int64))


def test_topk_constant_k_is_checked_at_compile_time():
    m = named("TopK", [("x", F, [2, 4]), ("k", np.array([5], np.int64))],
              [("v", F, None), ("i", I64, None)])
    compile_error(m, "k out of range")
    m = named("TopK", [("x", F, [2, 4]), ("k", np.array([3], np.int64))],
              [("v", F, None), ("i", I64, None)])
    assert "cf.assert" not in str(strata.compile(m, target="interpret").module)


# ------------------------------------------------------------------ OneHot


def _one_hot(depth_type=I64, ind_type=I64, axis=-1):
    return lambda: named("OneHot", [("i", ind_type, [4]), ("d", depth_type, [1]),
                                    ("v", np.array([0.0, 1.0], np.float32))],
                         [("y", F, None)], axis=axis)


@pytest.mark.parametrize("target", TARGETS)
def test_one_hot_depth(target):
    """depth >= 1; indices outside [-depth, depth) give rows of off values."""
    make = _one_hot()
    i = np.array([0, -1, 3, 7], np.int64)
    for d in (1, 3, 4, 8):
        good("oh", make, target, i, np.array([d], np.int64))
    msg = re.escape("OneHot at node0: depth must be >= 1")
    for d in (0, -3, -2**63):
        bad("oh", make, target, msg, i, np.array([d], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_one_hot_float_depth(target):
    """A float depth is truncated to an integer (the spec); NaN and infinities fail."""
    make = _one_hot(F)
    i = np.array([0, -1, 2, 5], np.int64)
    good("ohf", make, target, i, np.array([3.7], np.float32))
    msg = re.escape("OneHot at node0: depth must be >= 1")
    for d in (0.5, -1.0, np.nan, np.inf, -np.inf, 1e30):
        bad("ohf", make, target, msg, i, np.array([d], np.float32))


@pytest.mark.parametrize("target", TARGETS)
def test_one_hot_narrow_indices_against_a_large_depth(target):
    """int8 indices, depth 300: each index sets one position (compared in i64; in int8
    the positions wrapped and index 0 matched 0 and 256, -1 matched 43)."""
    make = _one_hot(I64, onnx.TensorProto.INT8, axis=0)
    i = np.array([0, -1, 127, -128], np.int8)
    want = np.zeros((300, 4), np.float32)   # (onnxruntime has no int8 OneHot)
    want[[0, 299, 127, 172], range(4)] = 1
    good("oh8", make, target, i, np.array([300], np.int64), want=[want])


def test_one_hot_constant_depth_is_checked_at_compile_time():
    m = named("OneHot", [("i", I64, [4]), ("d", np.array([0], np.int64)),
                         ("v", np.array([0.0, 1.0], np.float32))], [("y", F, None)])
    compile_error(m, "depth must be >= 1")


# ------------------------------------------------------------------ Resize


def _resize_scales(mode="nearest"):
    return lambda: named("Resize", [("x", F, [1, 1, "H", 4]), None, ("s", F, [4])],
                         [("y", F, None)], mode=mode)


def _resize_sizes(mode="linear"):
    return lambda: named("Resize", [("x", F, [1, 1, "H", 4]), None, None, ("z", I64, [4])],
                         [("y", F, None)], mode=mode)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_resize_scales(target, mode):
    """Scales positive and finite; the output size floor(scale * in) fits an i64."""
    make = _resize_scales(mode)
    x = rand(1, 1, 3, 4)
    good(("rs", mode), make, target, x, np.array([1, 1, 2, 0.5], np.float32))
    good(("rs", mode), make, target, x, np.array([1, 1, 0.1, 1], np.float32))
    msg = re.escape("Resize at node0: scales must be positive and finite")
    for bad_scale in (0.0, -1.0, np.nan, np.inf):
        bad(("rs", mode), make, target, msg, x, np.array([1, 1, bad_scale, 1], np.float32))
    bad(("rs", mode), make, target, "Resize at node0: the output size of axis 2 overflows",
        x, np.array([1, 1, 1e30, 1], np.float32))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_resize_sizes(target, mode):
    """Sizes non-negative; an empty input axis cannot give a non-empty output."""
    make = _resize_sizes(mode)
    x = rand(1, 1, 3, 4)
    good(("rz", mode), make, target, x, np.array([1, 1, 5, 2], np.int64))
    # (onnxruntime refuses a size 0, as the scale 0 it makes; ONNX's reference and
    # Strata give an empty axis)
    good(("rz", mode), make, target, x, np.array([1, 1, 0, 2], np.int64),
         want=[np.zeros((1, 1, 0, 2), np.float32)])
    bad(("rz", mode), make, target, re.escape("Resize at node0: sizes must be non-negative"),
        x, np.array([1, 1, -2, 4], np.int64))
    bad(("rz", mode), make, target, re.escape("Resize at node0: axis 2 is empty and its "
                                              "output size is not"),
        x[:, :, :0], np.array([1, 1, 3, 4], np.int64))
    good(("rz", mode), make, target, x[:, :, :0], np.array([1, 1, 0, 4], np.int64),
         want=[np.zeros((1, 1, 0, 4), np.float32)])


@pytest.mark.parametrize("target", TARGETS)
def test_resize_to_constant_sizes_of_an_empty_axis(target):
    """Constant sizes fix the output type; a dynamic input axis empty at run time has
    nothing to read (the resize does not run)."""
    make = lambda: named("Resize", [("x", F, [1, 1, "H", 4]), None, None,  # noqa: E731
                                    ("z", np.array([1, 1, 3, 2], np.int64))],
                         [("y", F, None)], mode="linear")
    good("rc", make, target, rand(1, 1, 5, 4))
    bad("rc", make, target, re.escape("Resize at node0: axis 2 is empty and its output "
                                      "size is not"), rand(1, 1, 0, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_resize_sizes_against_the_declared_output(target):
    """Run-time sizes must give the output the model declares."""
    make = lambda: named("Resize", [("x", F, [1, 1, 3, 4]), None, None,  # noqa: E731
                                    ("z", I64, [4])], [("y", F, [1, 1, 6, 2])])
    x = rand(1, 1, 3, 4)
    good("rd", make, target, x, np.array([1, 1, 6, 2], np.int64))
    bad("rd", make, target, re.escape("Resize at node0: the output size of axis 2 differs "
                                      "from the output's type (6)"),
        x, np.array([1, 1, 7, 2], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_resize_keep_aspect_ratio_of_an_empty_axis(target):
    """not_smaller with an empty input axis: the scale n / 0 is infinite, the output
    size of the axes (inf * 0 is NaN, inf * 4 infinite) overflows."""
    make = lambda: named("Resize", [("x", F, [1, 1, "H", "W"]), None, None,  # noqa: E731
                                    ("z", I64, [2])], [("y", F, None)], axes=[2, 3],
                         keep_aspect_ratio_policy="not_smaller")
    x = rand(1, 1, 3, 4)
    good("rk", make, target, x, np.array([6, 6], np.int64))
    bad("rk", make, target, "Resize at node0: the output size of axis [23] overflows",
        x[:, :, :0], np.array([6, 6], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_upsample_run_time_scales(target):
    make = lambda: named("Upsample", [("x", F, [1, 1, 2, 2]), ("s", F, [4])],  # noqa: E731
                         [("y", F, None)], opset=9)
    x = rand(1, 1, 2, 2)
    good("up", make, target, x, np.array([1, 1, 2, 3], np.float32))
    bad("up", make, target, "Upsample at node0: scales must be positive and finite",
        x, np.array([1, 1, np.nan, 3], np.float32))


def test_resize_constant_values_are_checked_at_compile_time():
    def resize(**ops):
        inputs = [("x", F, [1, 1, 3, 4]), None]
        inputs += [("s", ops["s"]), None] if "s" in ops else [None, ("z", ops["z"])]
        return named("Resize", inputs, [("y", F, None)])
    compile_error(resize(s=np.array([1, 1, -2, 1], np.float32)),
                  "scales must be positive and finite")
    compile_error(resize(s=np.array([1, 1, 1e30, 1], np.float32)), "overflows")
    compile_error(resize(z=np.array([1, 1, -3, 4], np.int64)), "sizes must be non-negative")
    m = resize(z=np.array([1, 1, 6, 2], np.int64))
    assert "cf.assert" not in str(strata.compile(m, target="interpret").module)


# ------------------------------------------------------------------ dims shared by inputs


def _two(op, a, b, **attrs):
    return lambda: named(op, [("a", F, a), ("b", F, b)], [("y", F, None)], **attrs)


def _run_pairs(key, make, target, good_pairs, bad_pairs, message):
    for sa, sb in good_pairs:
        good(key, make, target, rand(*sa), rand(*sb, seed=1))
    for sa, sb in bad_pairs:
        bad(key, make, target, message, rand(*sa), rand(*sb, seed=1))


@pytest.mark.parametrize("target", TARGETS)
def test_broadcast_of_two_dynamic_dims(target):
    """Each dim is 1 or the result's size; 3 against 4 read past the smaller operand
    (and wrote past the result after a failed check, had only the size been 0)."""
    _run_pairs("bc", _two("Add", ["N", 3], ["M", 3]), target,
               [((2, 3), (2, 3)), ((1, 3), (4, 3)), ((4, 3), (1, 3)), ((0, 3), (1, 3))],
               [((3, 3), (4, 3)), ((4, 3), (3, 3)), ((0, 3), (2, 3)), ((2, 3), (0, 3))],
               re.escape("Add at node0: input dims do not broadcast (input #0 dim 0, "
                         "input #1 dim 0"))


@pytest.mark.parametrize("target", TARGETS)
def test_broadcast_of_a_dynamic_dim_against_a_static_one(target):
    _run_pairs("bcs", _two("Mul", ["N", 3], [4, 3]), target,
               [((1, 3), (4, 3)), ((4, 3), (4, 3))],
               [((2, 3), (4, 3)), ((5, 3), (4, 3)), ((0, 3), (4, 3))],
               re.escape("Mul at node0: input dims do not broadcast (input #0 dim 0: each "
                         "must be 1 or the output's size on its axis 0)"))


@pytest.mark.parametrize("target", TARGETS)
def test_where_broadcast(target):
    make = lambda: named("Where", [("c", onnx.TensorProto.BOOL, ["A"]),  # noqa: E731
                                   ("x", F, ["B"]), ("y", F, ["C"])], [("z", F, None)])
    c = np.array([True, False, True])
    good("wh", make, target, c, rand(3), rand(1, seed=1))
    bad("wh", make, target, "Where at node0: input dims do not broadcast", c, rand(2),
        rand(3, seed=1))


def test_dims_of_one_name_need_no_check():
    """Inputs sharing an ONNX dim_param are checked once, at the call boundary."""
    m = named("Add", [("a", F, ["N", 3]), ("b", F, ["N", 3])], [("y", F, None)])
    assert "cf.assert" not in str(strata.compile(m, target="interpret").module)
    f = strata.compile(m)
    with pytest.raises(strata.runtime.InputError, match="N"):
        f(rand(2, 3), rand(3, 3))


@pytest.mark.parametrize("target", TARGETS)
def test_matmul_contraction_dims(target):
    msg = re.escape("MatMul at node0: the contraction dims differ (input #0 dim 1, "
                    "input #1 dim 0)")
    _run_pairs("mm", _two("MatMul", ["M", "K"], ["L", 3]), target,
               [((2, 4), (4, 3)), ((2, 0), (0, 3))],
               [((2, 4), (5, 3)), ((2, 5), (4, 3)), ((2, 0), (3, 3))], msg)
    _run_pairs("mm1", _two("MatMul", ["K"], ["L", 3]), target, [((4,), (4, 3))],
               [((4,), (5, 3))], "MatMul at node0: the contraction dims differ")
    # batched, against a static K
    _run_pairs("mmb", _two("MatMul", ["B", 2, "K"], [4, 3]), target,
               [((2, 2, 4), (4, 3))], [((2, 2, 5), (4, 3)), ((2, 2, 1), (4, 3))],
               "MatMul at node0: the contraction dims differ")


@pytest.mark.parametrize("target", TARGETS)
def test_gemm_contraction_dims(target):
    _run_pairs("gemm", _two("Gemm", ["K", "M"], ["N", "L"], transA=1, transB=1), target,
               [((4, 2), (3, 4))], [((5, 2), (3, 4)), ((3, 2), (3, 4))],
               re.escape("Gemm at node0: the contraction dims differ (input #0 dim 0, "
                         "input #1 dim 1)"))


@pytest.mark.parametrize("target", TARGETS)
def test_einsum_labels(target):
    _run_pairs("ein", _two("Einsum", ["M", "K"], ["L", "N"], equation="ij,jk->ik"), target,
               [((2, 3), (3, 4))], [((2, 3), (4, 4))],
               re.escape("Einsum at node0: the dims of label 'j' differ"))
    make = lambda: named("Einsum", [("a", F, ["M", "N"])], [("y", F, None)],  # noqa: E731
                         equation="ii->i")
    good("diag", make, target, rand(3, 3))
    bad("diag", make, target, "Einsum at node0: the dims of label 'i' differ", rand(3, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_concat_dims_off_the_axis(target):
    _run_pairs("cat", _two("Concat", ["M", "K"], ["L", 3], axis=0), target,
               [((2, 3), (4, 3)), ((0, 3), (1, 3))], [((2, 4), (4, 3)), ((2, 2), (4, 3))],
               re.escape("Concat at node0: the inputs' dims 1 differ (input #0 dim 1, "
                         "input #1 dim 1)"))
    _run_pairs("cat2", _two("Concat", ["M", "K"], ["L", "J"], axis=0), target,
               [((2, 3), (4, 3))], [((2, 4), (4, 3)), ((2, 0), (4, 3))],
               "Concat at node0: the inputs' dims 1 differ")


def test_static_mismatches_are_compile_errors():
    """Shape inference or the lowering rejects them before any code runs."""
    for make in (_two("MatMul", [2, 4], [5, 3]), _two("Concat", [2, 4], [2, 3], axis=0),
                 _two("Add", [3], [4])):
        with pytest.raises(Exception, match="node0|differ|broadcast"):
            strata.compile(make(), target="interpret")


@pytest.mark.parametrize("target", TARGETS)
def test_per_channel_operands(target):
    """A per-channel vector read along the data's axis has the axis's size."""
    make = lambda: named("BatchNormalization", [("x", F, ["N", "C", 2]),  # noqa: E731
                                                ("s", F, ["C1"]), ("b", F, ["C2"]),
                                                ("m", F, ["C3"]), ("v", F, ["C4"])],
                         [("y", F, None)])
    x, c = rand(2, 3, 2), [np.abs(rand(3, seed=k)) + 0.5 for k in range(4)]
    good("bn", make, target, x, *c)
    for n in (2, 5):
        bad("bn", make, target, re.escape("BatchNormalization at node0: the dims read "
                                          "along axis 1 differ"), x, rand(n), *c[1:])
    make = lambda: named("DequantizeLinear", [("q", onnx.TensorProto.INT8, [2, "C"]),  # noqa
                                              ("s", F, ["K"])], [("y", F, None)], axis=1)
    q = np.array([[1, -2, 3], [4, 5, -6]], np.int8)
    good("dq", make, target, q, np.array([0.5, 2, 4], np.float32))
    bad("dq", make, target, "DequantizeLinear at node0: the dims read along axis 1 differ",
        q, np.array([0.5, 2], np.float32))


@pytest.mark.parametrize("target", TARGETS)
def test_integer_mean_of_nothing(target):
    """ReduceMean's division by the element count (a decomposed integer division): an
    empty axis gives 0 as onnxruntime (the interpreter failed on a division by zero)."""
    make = lambda: named("ReduceMean", [("x", I32, [3, "K"])], [("y", I32, None)],  # noqa
                         opset=17, axes=[1])
    good("rm", make, target, np.zeros((3, 0), np.int32))
    good("rm", make, target, np.arange(6, dtype=np.int32).reshape(3, 2))


# ------------------------------------------------------------------ shared library


def test_shared_library_reports_division_by_zero(tmp_path):
    """`strata compile m.onnx -o m.so`: the C caller gets the message through
    strata_last_error() (examples/c/run_model.c exits 1 with it)."""
    from onnx import TensorProto, helper, numpy_helper

    # y = float(12 / int64(4 * x)); the example's inputs are (i % 7) / 4 - 0.5, so the
    # divisors run -2..4: 0 once batch * features >= 3
    nodes = [helper.make_node("Mul", ["input", "four"], ["s"]),
             helper.make_node("Cast", ["s"], ["i"], to=TensorProto.INT64),
             helper.make_node("Div", ["twelve", "i"], ["q"], name="divide"),
             helper.make_node("Cast", ["q"], ["y"], to=TensorProto.FLOAT)]
    inits = [numpy_helper.from_array(np.array(4, np.float32), "four"),
             numpy_helper.from_array(np.array(12, np.int64), "twelve")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("input", F, ["B", "N"])],
                          [helper.make_tensor_value_info("y", F, ["B", "N"])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    run = c_example(tmp_path, m)
    ok = run(1, 2)
    assert ok.returncode == 0 and ok.stdout.split("\n")[1] == "-6 -12", ok
    bad_run = run(1, 4)
    assert bad_run.returncode == 1, bad_run
    assert "Div at divide: division by zero" in bad_run.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_conv_channels_and_windows(target):
    """Input channels = the weights' dim 1 x group, the bias has the output channels,
    and a dynamic image holds the window (a negative output size was allocated)."""
    w = rand(4, 3, 3, 3)
    make = lambda: named("Conv", [("x", F, ["N", "C", "H", "W"]), ("w", w),  # noqa: E731
                                  ("b", F, ["M"])], [("y", F, None)])
    good("conv", make, target, rand(1, 3, 5, 5), rand(4))
    for c in (2, 4):
        bad("conv", make, target, "Conv at node0: the input's channels differ from the "
            "weights' dim 1 times group", rand(1, c, 5, 5), rand(4))
    bad("conv", make, target, re.escape("Conv at node0: the output channels differ (the "
                                        "output dim 1, the bias dim 0)"),
        rand(1, 3, 5, 5), rand(3))
    bad("conv", make, target, "Conv at node0: the output size of spatial axis 0 is negative",
        rand(1, 3, 1, 5), rand(4))
    make = lambda: named("MaxPool", [("x", F, ["N", "C", "H", "W"])],  # noqa: E731
                         [("y", F, None)], kernel_shape=[3, 3])
    good("pool", make, target, rand(1, 2, 5, 4))
    good("pool", make, target, rand(1, 2, 2, 4))    # an output size 0, as onnxruntime
    bad("pool", make, target, "MaxPool at node0: the output size of spatial axis 0 is "
        "negative", rand(1, 2, 1, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_rnn_input_size(target):
    """X's input size is W's (the input projection is X @ W^T)."""
    make = lambda: named("RNN", [("x", F, ["T", 2, "I"]), ("w", rand(1, 4, 3)),  # noqa
                                 ("r", rand(1, 4, 4))], [("y", F, None)], hidden_size=4)
    good("rnn", make, target, rand(5, 2, 3))
    bad("rnn", make, target, re.escape("RNN at node0: the input sizes differ (X dim 1, "
                                       "W dim 1)"), rand(5, 2, 4))


# ------------------------------------------------------------------ signal ops


@pytest.mark.parametrize("target", TARGETS)
def test_signal_lengths(target):
    """DFT's dft_length, STFT's frame_step and frame_length, MelWeightMatrix's sizes:
    run-time values that size the output (a negative one was allocated, a zero step
    divided by zero, a frame longer than the signal was read past its end)."""
    # (declared output shapes: the CPU target cannot bufferize unranked results)
    make = lambda: named("DFT", [("x", F, [1, 6, 1]), ("n", I64, [])],  # noqa: E731
                         [("y", F, [1, "K", 2])], opset=17, axis=1)
    x = rand(1, 6, 1)
    good("dft", make, target, x, np.array(4, np.int64))
    bad("dft", make, target, "DFT at node0: dft_length must be positive", x,
        np.array(-3, np.int64))
    make = lambda: named("STFT", [("x", F, [1, "L", 1]), ("s", I64, []), None,  # noqa
                                  ("l", I64, [])], [("y", F, [1, "A", "B", 2])],
                         opset=17)
    sig = rand(1, 16, 1)
    ok = strata.compile(make(), target=target)(sig, np.array(4, np.int64),
                                               np.array(8, np.int64))[0]
    assert ok.shape == (1, 3, 5, 2)
    for step, length, msg in ((0, 8, "frame_step must be positive"),
                              (4, 17, "frame_length exceeds the signal's length"),
                              (4, 0, "frame_length must be positive")):
        bad("stft", make, target, f"STFT at node0: {msg}", sig, np.array(step, np.int64),
            np.array(length, np.int64))
    make = lambda: named("MelWeightMatrix", [("m", I64, []), ("d", I64, []),  # noqa
                                             ("r", np.array(8000, np.int64)),
                                             ("lo", np.array(0.0, np.float32)),
                                             ("hi", np.array(4000.0, np.float32))],
                         [("y", F, ["R", "M"])], opset=17)
    good("mel", make, target, np.array(4, np.int64), np.array(16, np.int64),
         want=[strata.compile(make(), target="interpret")(np.array(4, np.int64),
                                                           np.array(16, np.int64))[0]])
    bad("mel", make, target, "MelWeightMatrix at node0: num_mel_bins must be non-negative",
        np.array(-2, np.int64), np.array(16, np.int64))
    bad("mel", make, target, "MelWeightMatrix at node0: dft_length must be positive",
        np.array(4, np.int64), np.array(-5, np.int64))
