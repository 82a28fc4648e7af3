"""onnx-fold-constants: folding keeps what the module computes, and folds what it should."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

# Shape arithmetic on constants feeding ops on the function's argument, plus a weight
# transformed by constants only (Transpose, Cast, Where, Range, Expand, ConstantOfShape).
MODULE = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x3xf32>) {
  %x = "onnx.Constant"() <{value = dense<[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %i = "onnx.Constant"() <{value = dense<[1, 0]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %g = "onnx.Gather"(%s, %i) <{axis = 0 : i64}> : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %c = "onnx.Concat"(%g) <{axis = 0 : i64}> : (tensor<2xi64>) -> tensor<2xi64>
  %r = "onnx.Reshape"(%a, %c) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %t = "onnx.Transpose"(%x) <{perm = [1, 0]}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %z = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %p = "onnx.Greater"(%t, %z) : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xi1>
  %q = "onnx.Neg"(%t) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %w = "onnx.Where"(%p, %t, %q) : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %m = "onnx.Constant"() <{value = dense<[[1.0, 0.5, -1.0, 2.0], [0.0, 3.0, 1.0, -2.0]]> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
  %wm = "onnx.MatMul"(%w, %m) : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %ar = "onnx.MatMul"(%r, %m) : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %y = "onnx.Add"(%ar, %wm) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %lo = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %hi = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %rg = "onnx.Range"(%lo, %hi, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %es = "onnx.Constant"() <{value = dense<[2, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %ex = "onnx.Expand"(%rg, %es) : (tensor<4xi64>, tensor<2xi64>) -> tensor<2x4xi64>
  %cs = "onnx.ConstantOfShape"(%s) <{value = dense<2.0> : tensor<1xf32>}> : (tensor<2xi64>) -> tensor<2x3xf32>
  %b = "onnx.Mul"(%a, %cs) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %y, %ex, %b : tensor<3x2xf32>, tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x3xf32>
}
}
"""


def _folded(text, pipeline="onnx-fold-constants"):
    from strata.compiler import build_pipeline
    m = parse_source(text, default_context(), "<test>")
    build_pipeline(pipeline).run(m)
    m.verify()
    return m


def _op_names(m):
    return [op.name for op in m.walk() if op.name.startswith("onnx.")]


def test_folding_preserves_results():
    check_pass_preserves_semantics(MODULE, "onnx-fold-constants")


def test_folds_constant_chains_and_keeps_the_rest():
    names = _op_names(_folded(MODULE))
    # Only the ops reading %a are left, with constants for everything else.
    assert sorted(set(names)) == ["onnx.Add", "onnx.Constant", "onnx.MatMul",
                                  "onnx.Mul", "onnx.Reshape"]
    assert names.count("onnx.MatMul") == 1
    # Every operand constant with no use left is gone.
    m = _folded(MODULE)
    assert all(op.results[0].has_uses() for op in m.walk() if op.name == "onnx.Constant")


def test_folds_inside_regions():
    text = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main(%c: tensor<i1>) -> tensor<2xi64> {
  %x = "onnx.Constant"() <{value = dense<1.0> : tensor<2x5xf32>}> : () -> tensor<2x5xf32>
  %0 = "onnx.If"(%c) ({
    %s = "onnx.Shape"(%x) : (tensor<2x5xf32>) -> tensor<2xi64>
    "onnx.Yield"(%s) : (tensor<2xi64>) -> ()
  }, {
    %s = "onnx.Shape"(%x) <{start = 1 : i64}> : (tensor<2x5xf32>) -> tensor<1xi64>
    %d = "onnx.Concat"(%s, %s) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    "onnx.Yield"(%d) : (tensor<2xi64>) -> ()
  }) : (tensor<i1>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
}
"""
    m = _folded(text)
    assert sorted(set(_op_names(m))) == ["onnx.Constant", "onnx.If", "onnx.Yield"]
    for flag in (True, False):
        check_pass_preserves_semantics(text, "onnx-fold-constants", inputs=[np.array(flag)])


def test_failing_op_is_left_for_the_run_to_report():
    # Reshape of 6 elements to 4: the reference fails; folding leaves the op in place.
    text = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main() -> tensor<2x2xf32> {
  %x = "onnx.Constant"() <{value = dense<1.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %s = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
}
"""
    m = _folded(text)
    assert "onnx.Reshape" in _op_names(m)
    from strata.interpreter import InterpreterError
    with pytest.raises(InterpreterError):
        Interpreter(m).call("main")


def test_interpret_pipeline_folds(tmp_path):
    import onnx
    from onnx import TensorProto, helper

    import strata
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, 4], np.ones(12, np.float32))
    nodes = [helper.make_node("Shape", ["w"], ["s"]),
             helper.make_node("Reshape", ["x", "s"], ["r"]),
             helper.make_node("Add", ["r", "w"], ["y"])]
    g = helper.make_graph(nodes, "g", [x], [y], initializer=[])
    g.node.insert(0, helper.make_node("Constant", [], ["w"], value=w))
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model)
    compiled = strata.compile(model, target="interpret")
    a = np.arange(12, dtype=np.float32).reshape(2, 6)
    out = compiled(a)
    got = out[0] if isinstance(out, (list, tuple)) else out
    np.testing.assert_array_equal(got, a.reshape(3, 4) + 1)


# The exporter's form (swin_t's window reshapes): the data is typed only by its function
# argument; the results on the way (Transpose, Shape, Unsqueeze, Concat) have unknown
# types until onnx-shape-inference. See [Note: shape arithmetic] in fold_constants.py.
EXPORTER_CHAIN = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main(%x: tensor<1x4x6x8xf32>) -> tensor<*xf32> {
  %perm = "onnx.Transpose"(%x) <{perm = [0, 2, 1, 3]}> : (tensor<1x4x6x8xf32>) -> tensor<*xf32>
  %s = "onnx.Shape"(%perm) : (tensor<*xf32>) -> tensor<*xi64>
  %c0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %c3 = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %m1 = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %n = "onnx.Gather"(%s, %c0) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %c = "onnx.Gather"(%s, %c3) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %un = "onnx.Unsqueeze"(%n, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %uc = "onnx.Unsqueeze"(%c, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %t = "onnx.Concat"(%un, %m1, %uc) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>, tensor<*xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%perm, %t) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  %y = "onnx.Relu"(%r) : (tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
}
"""


def test_shape_arithmetic_of_static_data_folds():
    # One fold on its own: the Shape of the argument's Transpose is not known yet.
    assert "onnx.Shape" in _op_names(_folded(EXPORTER_CHAIN))
    # The tensor-level pipelines fold again after shape inference: only the data ops
    # are left, the Reshape with a constant shape of static type.
    from strata.backends.cpu.target import CpuTarget
    from strata.compiler import InterpretTarget
    for target in (CpuTarget, InterpretTarget):
        i = target.pipeline.index("onnx-shape-inference")
        m = _folded(EXPORTER_CHAIN, list(target.pipeline[:i + 2]))
        names = _op_names(m)
        assert sorted(set(names)) == ["onnx.Constant", "onnx.Relu", "onnx.Reshape",
                                      "onnx.Transpose"], names
        reshape = next(op for op in m.walk() if op.name == "onnx.Reshape")
        shape = reshape.operands[1].defining_op
        assert shape.name == "onnx.Constant"
        assert str(shape.results[0].type) == "tensor<3xi64>"
        assert shape.properties["value"].array.tolist() == [1, -1, 8]
    check_pass_preserves_semantics(
        EXPORTER_CHAIN, "onnx-decompose,onnx-fold-constants,onnx-shape-inference,"
        "onnx-fold-constants")


def test_shape_of_static_data_keeps_the_data():
    # The folded Shape's data is not a constant: its producer and its other uses stay.
    text = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %n = "onnx.Neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "onnx.Shape"(%n) : (tensor<2x3xf32>) -> tensor<2xi64>
  %i = "onnx.Constant"() <{value = dense<[1, 0]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %g = "onnx.Gather"(%s, %i) <{axis = 0 : i64}> : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r = "onnx.Reshape"(%n, %g) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %r, %n : tensor<3x2xf32>, tensor<2x3xf32>
}
}
"""
    assert sorted(set(_op_names(_folded(text)))) == ["onnx.Constant", "onnx.Neg",
                                                     "onnx.Reshape"]
    check_pass_preserves_semantics(text, "onnx-fold-constants")


# ---------------------------------------------------------------- native rules
# [Note: data movement folded natively]: each rule gives onnx.reference's answer, or
# None (the op then goes to the reference); `want` says which cases must be native.

_NATIVE_CASES = [
    # (op text on %x: tensor<2x3xf32> = [[1,-2,3],[4,5,-6]], %v: tensor<4xi64> =
    # [5,-1,7,2], %n: tensor<2xf32> = [nan, 1]; native expected?)
    ('"onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>', True),
    ('"onnx.Shape"(%x) <{start = 1 : i64}> : (tensor<2x3xf32>) -> tensor<1xi64>', True),
    ('"onnx.Shape"(%x) <{end = -1 : i64}> : (tensor<2x3xf32>) -> tensor<1xi64>', True),
    ('"onnx.Shape"(%x) <{start = -5 : i64}> : (tensor<2x3xf32>) -> tensor<?xi64>', False),
    ('"onnx.Gather"(%v, %i1) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>',
     True),
    ('"onnx.Gather"(%v, %im) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>',
     True),
    ('"onnx.Gather"(%x, %i2) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<2xi64>) -> '
     'tensor<2x2xf32>', True),
    ('"onnx.Gather"(%v, %i9) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>',
     False),
    ('"onnx.Unsqueeze"(%v, %a0) : (tensor<4xi64>, tensor<1xi64>) -> tensor<1x4xi64>', True),
    ('"onnx.Unsqueeze"(%x, %a02) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<1x2x1x3xf32>',
     True),
    ('"onnx.Unsqueeze"(%v, %am1) : (tensor<4xi64>, tensor<1xi64>) -> tensor<4x1xi64>', True),
    ('"onnx.Squeeze"(%u, %a0) : (tensor<1x4xi64>, tensor<1xi64>) -> tensor<4xi64>', True),
    ('"onnx.Squeeze"(%u) : (tensor<1x4xi64>) -> tensor<4xi64>', True),
    ('"onnx.Concat"(%v, %v) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<4xi64>) -> '
     'tensor<8xi64>', True),
    ('"onnx.Concat"(%x, %x) <{axis = -1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> '
     'tensor<2x6xf32>', True),
    ('"onnx.Reshape"(%x, %s0m1) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>', True),
    ('"onnx.Reshape"(%x, %s6) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>', True),
    ('"onnx.Slice"(%v, %st, %en) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> '
     'tensor<?xi64>', True),
    ('"onnx.Slice"(%x, %st, %big, %am1, %stm1) : (tensor<2x3xf32>, tensor<1xi64>, '
     'tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>', True),
    ('"onnx.Slice"(%v, %stm1, %neg, %a0, %stm1) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, '
     'tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>', True),
    ('"onnx.Transpose"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>', True),
    ('"onnx.Transpose"(%x) <{perm = [1, 0]}> : (tensor<2x3xf32>) -> tensor<3x2xf32>', True),
    ('"onnx.ConstantOfShape"(%s23) : (tensor<2xi64>) -> tensor<2x3xf32>', True),
    ('"onnx.ConstantOfShape"(%s23) <{value = dense<7> : tensor<1xi64>}> : (tensor<2xi64>) -> '
     'tensor<2x3xi64>', True),
    ('"onnx.Cast"(%v) <{to = 1 : i64}> : (tensor<4xi64>) -> tensor<4xf32>', True),
    ('"onnx.Cast"(%x) <{to = 6 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xi32>', True),
    ('"onnx.Cast"(%v) <{to = 9 : i64}> : (tensor<4xi64>) -> tensor<4xi1>', True),
    ('"onnx.Cast"(%n) <{to = 7 : i64}> : (tensor<2xf32>) -> tensor<2xi64>', False),
    ('"onnx.Identity"(%v) : (tensor<4xi64>) -> tensor<4xi64>', True),
    ('"onnx.Add"(%v, %i1) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>', True),
    ('"onnx.Sub"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>', True),
    ('"onnx.Mul"(%u, %v) : (tensor<1x4xi64>, tensor<4xi64>) -> tensor<1x4xi64>', True),
    ('"onnx.Mod"(%v, %i2) : (tensor<4xi64>, tensor<2xi64>) -> tensor<4xi64>', False),
    ('"onnx.Mod"(%v, %im) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>', True),
    ('"onnx.Mod"(%v, %im) <{fmod = 1 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>',
     True),
    ('"onnx.Mod"(%v, %zero) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>', False),
    ('"onnx.Equal"(%v, %i1) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>', True),
    ('"onnx.GreaterOrEqual"(%v, %i1) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>', True),
    ('"onnx.Less"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>', True),
    ('"onnx.Not"(%b) : (tensor<4xi1>) -> tensor<4xi1>', True),
    ('"onnx.And"(%b, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>', True),
    ('"onnx.Where"(%b, %v, %i1) : (tensor<4xi1>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>',
     True),
    ('"onnx.Expand"(%v, %s24) : (tensor<4xi64>, tensor<2xi64>) -> tensor<2x4xi64>', True),
    ('"onnx.Expand"(%v, %s23) : (tensor<4xi64>, tensor<2xi64>) -> tensor<?x?xi64>', False),
]

_NATIVE_PRELUDE = """
  %x = "onnx.Constant"() <{value = dense<[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %v = "onnx.Constant"() <{value = dense<[5, -1, 7, 2]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %u = "onnx.Constant"() <{value = dense<[[5, -1, 7, 2]]> : tensor<1x4xi64>}> : () -> tensor<1x4xi64>
  %n = "onnx.Constant"() <{value = dense<[0x7FC00000, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %i1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %im = "onnx.Constant"() <{value = dense<-1> : tensor<i64>}> : () -> tensor<i64>
  %i9 = "onnx.Constant"() <{value = dense<9> : tensor<i64>}> : () -> tensor<i64>
  %i2 = "onnx.Constant"() <{value = dense<[2, -3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %a0 = "onnx.Constant"() <{value = dense<[0]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %am1 = "onnx.Constant"() <{value = dense<[-1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %a02 = "onnx.Constant"() <{value = dense<[0, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s0m1 = "onnx.Constant"() <{value = dense<[0, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s6 = "onnx.Constant"() <{value = dense<[6]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %s23 = "onnx.Constant"() <{value = dense<[2, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %st = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %stm1 = "onnx.Constant"() <{value = dense<[-1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %en = "onnx.Constant"() <{value = dense<[100]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %big = "onnx.Constant"() <{value = dense<[-9223372036854775807]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %neg = "onnx.Constant"() <{value = dense<[-100]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %zero = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %b = "onnx.Constant"() <{value = dense<[true, false, true, true]> : tensor<4xi1>}> : () -> tensor<4xi1>
  %s24 = "onnx.Constant"() <{value = dense<[2, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
"""


@pytest.mark.parametrize("text,want", _NATIVE_CASES,
                         ids=[f"{i}-{c[0].split(chr(40))[0][6:-1]}" for i, c in
                              enumerate(_NATIVE_CASES)])
def test_native_rule_matches_reference(text, want):
    _check_native(text, want, 18)


def test_native_binary_rules_leave_legacy_broadcast_to_the_reference():
    """Before opset 7, Add/Mul/... broadcast by their `broadcast` and `axis`
    attributes: those ops go to the reference."""
    _check_native('"onnx.Add"(%x, %x) <{broadcast = 1 : i64}> : (tensor<2x3xf32>, '
                  'tensor<2x3xf32>) -> tensor<2x3xf32>', False, 6, _F32_PRELUDE)
    _check_native('"onnx.Add"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> '
                  'tensor<2x3xf32>', False, 6, _F32_PRELUDE)
    _check_native('"onnx.Add"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> '
                  'tensor<2x3xf32>', True, 7, _F32_PRELUDE)


# (opset 6's Constant takes floats only)
_F32_PRELUDE = _NATIVE_PRELUDE.splitlines(keepends=True)[1]


def _check_native(text, want, opset, prelude=None):
    from strata.frontends.onnx.fold_constants import run_native
    src = ("module attributes {onnx.opset_import = {ai.onnx = %d : i64}} {\n" % opset +
           "func.func @main() {\n" + (prelude or _NATIVE_PRELUDE) + "  %r = " + text +
           "\n  return\n}\n}\n")
    m = parse_source(src, default_context(), "<test>")
    func = next(iter(m.regions[0].blocks[0].ops))
    interp = Interpreter(m)
    ops = list(func.regions[0].blocks[0].ops)
    for op in ops[:-2]:
        interp.run_op(op)
    op = ops[-2]
    args = [interp.env[v] for v in op.operands]
    native = run_native(op, args)
    assert (native is not None) == want
    if native is None:
        return
    ref = interp.run_op(op)  # onnx.reference's
    for a, b in zip(native, ref):
        b = np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def test_native_folds_do_not_load_the_reference():
    """A module whose folds are all native folds without importing onnx.reference."""
    import subprocess
    import sys
    src = ("module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {\n"
           "func.func @main(%a: tensor<2x3xf32>) -> tensor<6x1xf32> {\n" +
           _NATIVE_PRELUDE +
           '  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>\n'
           '  %c = "onnx.Concat"(%s6, %st) <{axis = 0 : i64}> : (tensor<1xi64>, '
           'tensor<1xi64>) -> tensor<2xi64>\n'
           '  %k = "onnx.Cast"(%c) <{to = 7 : i64}> : (tensor<2xi64>) -> tensor<2xi64>\n'
           '  %r = "onnx.Reshape"(%a, %k) : (tensor<2x3xf32>, tensor<2xi64>) -> '
           'tensor<6x1xf32>\n'
           "  return %r : tensor<6x1xf32>\n}\n}\n")
    code = ("import sys\n"
            "from strata.dialects import default_context\n"
            "from strata.syntax.parser import parse_source\n"
            "from strata.frontends.onnx.fold_constants import fold_constants\n"
            f"m = parse_source({src!r}, default_context(), '<t>')\n"
            "n = fold_constants(m)\n"
            "print(n, 'onnx.reference' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["3", "False"], out
