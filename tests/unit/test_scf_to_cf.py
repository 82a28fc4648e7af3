"""convert-scf-to-cf: the functions compute the same before and after (the interpreter
runs both), no scf op is left, and errors leave the IR unchanged. The printed form is
checked against upstream in tests/lit/conversion/scf-to-cf."""
import numpy as np
import pytest

from strata.conversion.scf_to_cf import lower_scf_to_cf
from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.passes.registry import get_pass_class
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op
from strata.testing import check_pass_preserves_semantics

PASS = "convert-scf-to-cf"


def _parse(text):
    return parse_source(text, default_context(), "<test>")


def _lowered(text):
    m = _parse(text)
    lower_scf_to_cf(m)
    m.verify()
    return m


def _check(text, *input_sets):
    for inputs in input_sets:
        check_pass_preserves_semantics(text, PASS, inputs=inputs)
    assert not [o for o in _lowered(text).walk() if o.name.startswith("scf.")]


NESTED_FOR = """
func.func @f(%n: index, %m: index, %x: f32) -> (f32, tensor<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = tensor.empty() : tensor<4x4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %t = %t0) -> (f32, tensor<4x4xf32>) {
    %s:2 = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a, %u = %t) -> (f32, tensor<4x4xf32>) {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %p = arith.muli %ii, %jj : i32
      %pf = arith.sitofp %p : i32 to f32
      %b2 = arith.addf %b, %pf : f32
      %u2 = tensor.insert %b2 into %u[%i, %j] : tensor<4x4xf32>
      scf.yield %b2, %u2 : f32, tensor<4x4xf32>
    }
    scf.yield %s#0, %s#1 : f32, tensor<4x4xf32>
  }
  return %r#0, %r#1 : f32, tensor<4x4xf32>
}
"""


def test_nested_loops_with_iter_args():
    x = np.float32(0.5)
    _check(NESTED_FOR, [np.int64(4), np.int64(3), x], [np.int64(0), np.int64(4), x],
           [np.int64(4), np.int64(0), x])


STEPS = """
func.func @f(%lb: i32, %ub: i32, %st: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%a = %c0) -> (i32) : i32 {
    %a2 = arith.addi %a, %i : i32
    scf.yield %a2 : i32
  }
  %u = scf.for unsigned %i = %lb to %ub step %st iter_args(%a = %c0) -> (i32) : i32 {
    %a2 = arith.addi %a, %i : i32
    scf.yield %a2 : i32
  }
  return %r, %u : i32, i32
}
"""


def test_bounds_steps_zero_trip_and_unsigned():
    i = np.int32
    _check(STEPS, [i(0), i(10), i(3)], [i(5), i(5), i(1)], [i(7), i(2), i(1)],
           [i(-3), i(4), i(2)])


WHILE = """
func.func @f(%x: i32, %n: i32) -> (i32, f32, i32) {
  %r:2 = scf.while (%a = %x) : (i32) -> (i32, f32) {
    %c = arith.cmpi slt, %a, %n : i32
    %f = arith.sitofp %a : i32 to f32
    scf.condition(%c) %a, %f : i32, f32
  } do {
  ^bb0(%b: i32, %g: f32):
    %one = arith.constant 1 : i32
    %b2 = arith.addi %b, %one : i32
    %b3 = scf.if %c0 -> i32 {
      scf.yield %b2 : i32
    } else {
      %b4 = arith.addi %b2, %b2 : i32
      scf.yield %b4 : i32
    }
    scf.yield %b3 : i32
  }
  %d = scf.while (%a = %x) : (i32) -> i32 {
    %one = arith.constant 1 : i32
    %a2 = arith.addi %a, %one : i32
    %c = arith.cmpi slt, %a2, %n : i32
    scf.condition(%c) %a2 : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return %r#0, %r#1, %d : i32, f32, i32
}
"""


def test_while_loops_with_results_and_do_while():
    text = WHILE.replace("%b3 = scf.if %c0", "%c0 = arith.cmpi sgt, %b2, %x : i32\n"
                         "    %b3 = scf.if %c0")
    i = np.int32
    _check(text, [i(1), i(20)], [i(5), i(3)], [i(-2), i(9)])


BRANCHES = """
func.func @f(%i: index, %c: i1, %x: i32) -> (i32, i32, i32) {
  %r = scf.if %c -> i32 {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  } else {
    %y = arith.muli %x, %x : i32
    scf.yield %y : i32
  }
  %s = scf.index_switch %i -> i32
  case 0 {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  }
  case 2 {
    %e = scf.execute_region -> i32 {
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      scf.yield %x : i32
    ^bb2:
      %z = arith.subi %x, %r : i32
      scf.yield %z : i32
    }
    scf.yield %e : i32
  }
  default {
    scf.yield %r : i32
  }
  %e = scf.execute_region -> i32 {
    scf.yield %s : i32
  }
  return %r, %s, %e : i32, i32, i32
}
"""


def test_if_switch_execute_region():
    sets = [[np.int64(k), np.bool_(c), np.int32(3)] for k in range(4) for c in (True, False)]
    _check(BRANCHES, *sets)


PARALLEL = """
func.func @f(%n: index, %x: f32) -> (f32, i32, tensor<3x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 1 : i32
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c3) step (%c1, %c1) init (%x, %i0) -> (f32, i32) {
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %s = arith.addi %ii, %jj : i32
    %sf = arith.sitofp %s : i32 to f32
    %s1 = arith.addi %s, %i0 : i32
    scf.reduce(%sf, %s1 : f32, i32) {
    ^bb0(%l: f32, %rr: f32):
      %a = arith.addf %l, %rr : f32
      scf.reduce.return %a : f32
    }, {
    ^bb0(%l: i32, %rr: i32):
      %m = arith.muli %l, %rr : i32
      scf.reduce.return %m : i32
    }
  }
  %t0 = tensor.empty() : tensor<3x4xi32>
  %t = scf.for %i = %c0 to %c3 step %c1 iter_args(%u = %t0) -> (tensor<3x4xi32>) {
    %v = scf.for %j = %c0 to %c4 step %c1 iter_args(%w = %u) -> (tensor<3x4xi32>) {
      %ii = arith.index_cast %i : index to i32
      %w2 = tensor.insert %ii into %w[%i, %j] : tensor<3x4xi32>
      scf.yield %w2 : tensor<3x4xi32>
    }
    scf.yield %v : tensor<3x4xi32>
  }
  return %r#0, %r#1, %t : f32, i32, tensor<3x4xi32>
}
"""


def test_parallel_reductions_as_sequential_loops():
    _check(PARALLEL, [np.int64(2), np.float32(0.25)], [np.int64(0), np.float32(1.0)])


FORALL = """
func.func @f(%lb: index, %ub: index) {
  scf.forall (%i, %j) = (%lb, 1) to (10, %ub) step (2, 3) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}
"""


def test_forall_becomes_loops_over_its_constant_bounds():
    m = parse_source(FORALL, default_context(allow_unregistered=True), "<test>")
    lower_scf_to_cf(m)
    m.verify()
    text = print_op(m)
    assert "scf." not in text
    assert [o.properties["value"].value for o in m.walk() if o.name == "arith.constant"] \
        == [1, 10, 2, 3]


def test_forall_with_outputs_fails_and_changes_nothing():
    text = """
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant true
  scf.if %c {
    %x = arith.constant 0 : i32
  }
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> tensor<4xf32> {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<4xf32>
}
"""
    m = _parse(text)
    before = print_op(m)
    with pytest.raises(DiagnosticError, match="failed to legalize operation 'scf.forall'"):
        lower_scf_to_cf(m)
    assert print_op(m) == before


def test_registered_lazily():
    cls = get_pass_class(PASS)
    assert cls is not None and cls.name == PASS
    assert "allow_pattern_rollback" in cls.option_defs()


def test_many_loops_in_one_block():
    # 200 loops one after the other (each op moved once: the pass is linear).
    body = "\n".join(
        f"  %r{k} = scf.for %i{k} = %c0 to %n step %c1 iter_args(%a{k} = %r{k - 1}) "
        f"-> (i32) {{\n    %y{k} = arith.addi %a{k}, %one : i32\n"
        f"    scf.yield %y{k} : i32\n  }}" for k in range(1, 201))
    text = (f"func.func @f(%n: index, %x: i32) -> i32 {{\n  %c0 = arith.constant 0 : index\n"
            f"  %c1 = arith.constant 1 : index\n  %one = arith.constant 1 : i32\n"
            f"  %r0 = arith.addi %x, %one : i32\n{body}\n  return %r200 : i32\n}}\n")
    res = check_pass_preserves_semantics(text, PASS, inputs=[np.int64(2), np.int32(1)])
    assert res["f"][1][0] == 402
    m = _lowered(text)
    assert len(m.regions[0].blocks[0].first.regions[0].blocks) == 3 * 200 + 1
