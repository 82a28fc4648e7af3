"""The interpreter's calls, control flow (func, cf, scf), globals and its errors."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError, impl
from strata.ir import dense as D
from strata.syntax.parser import parse_source


def interp(src):
    return Interpreter(parse_source(src, default_context(allow_unregistered=True), "t.mlir"))


def run(src, *args, fn="f", **kw):
    return interp(src).call(fn, *args, **kw)


# ---------------------------------------------------------------- calls and arguments

CALLS = """
func.func @square(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func @f(%a: f32, %b: tensor<2x?xf32>) -> (f32, tensor<2x?xf32>) {
  %s = func.call @square(%a) : (f32) -> f32
  %t = arith.addf %b, %b : tensor<2x?xf32>
  return %s, %t : f32, tensor<2x?xf32>
}
"""


def test_call_positional_and_by_name():
    it = interp(CALLS)
    s, t = it.call("f", np.float32(3), np.ones((2, 5), np.float32))
    assert s == np.float32(9) and s.dtype == np.float32 and t.shape == (2, 5)
    s, _ = it.call("f", arg1=np.ones((2, 1), np.float32), arg0=2.0)
    assert s == 4.0


@pytest.mark.parametrize("args,kw,message", [
    ((1.0,), {}, "missing: arg1"),
    ((1.0, np.ones((2, 2), np.float32), 3), {}, "takes 2 arguments, got 3"),
    ((1.0, np.ones((3, 2), np.float32)), {}, r"expected shape \(2, \?\)"),
    ((1.0, np.ones((2, 2), np.float64)), {}, "expected dtype float32"),
    ((1.0, np.ones(2, np.float32)), {}, r"expected shape"),
    ((np.ones(2, np.float32), np.ones((2, 2), np.float32)), {}, "expected a scalar"),
    ((1.0,), {"nope": 1}, "no argument named 'nope'"),
])
def test_wrong_arguments_are_reported(args, kw, message):
    with pytest.raises(InterpreterError, match=message):
        interp(CALLS).call("f", *args, **kw)


def test_unknown_function():
    with pytest.raises(InterpreterError, match=r"no function @g .*@square, @f"):
        interp(CALLS).call("g")


def test_unknown_op_is_reported_at_its_location():
    src = """func.func @f(%a: i32) -> i32 {
      %r = "mystery.op"(%a) : (i32) -> i32
      return %r : i32
    }"""
    with pytest.raises(InterpreterError) as e:
        run(src, np.int32(1))
    assert str(e.value).startswith("t.mlir:2:12: error: 'mystery.op' op has no interpreter")


def test_error_in_callee_notes_the_call_site():
    src = """func.func @g(%t: tensor<2xi32>, %i: index) -> i32 {
      %e = tensor.extract %t[%i] : tensor<2xi32>
      return %e : i32
    }
    func.func @f(%t: tensor<2xi32>, %i: index) -> i32 {
      %r = func.call @g(%t, %i) : (tensor<2xi32>, index) -> i32
      return %r : i32
    }"""
    with pytest.raises(InterpreterError) as e:
        run(src, np.arange(2, dtype=np.int32), 7)
    text = str(e.value)
    assert "t.mlir:2:12: error: 'tensor.extract' op index 7 is out of bounds" in text
    assert "t.mlir:6:12: note: called from here" in text


def test_recursion():
    src = """func.func @fact(%n: i64) -> i64 {
      %c1 = arith.constant 1 : i64
      %le = arith.cmpi sle, %n, %c1 : i64
      %r = scf.if %le -> i64 {
        scf.yield %c1 : i64
      } else {
        %m = arith.subi %n, %c1 : i64
        %f = func.call @fact(%m) : (i64) -> i64
        %p = arith.muli %n, %f : i64
        scf.yield %p : i64
      }
      return %r : i64
    }"""
    assert run(src, 10, fn="fact")[0] == 3628800


def test_custom_implementation_registration():
    @impl("test_interp.twice")
    def _twice(interp, op, args):
        return [args[0] * 2]
    src = """func.func @f(%a: i32) -> i32 {
      %r = "test_interp.twice"(%a) : (i32) -> i32
      return %r : i32
    }"""
    assert run(src, np.int32(21))[0] == 42
    with pytest.raises(ValueError, match="registered twice"):
        impl("test_interp.twice")(_twice)


def test_wrong_result_type_from_an_implementation_is_caught():
    @impl("test_interp.bad")
    def _bad(interp, op, args):
        return [np.zeros(3, np.float64)]
    src = """func.func @f() -> tensor<3xf32> {
      %r = "test_interp.bad"() : () -> tensor<3xf32>
      return %r : tensor<3xf32>
    }"""
    with pytest.raises(InterpreterError, match="produced a wrong value.*float32"):
        run(src)


# ---------------------------------------------------------------- cf


def test_cf_loop_with_block_arguments():
    src = """func.func @f(%n: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      cf.br ^loop(%c0, %c0 : i32, i32)
    ^loop(%i: i32, %acc: i32):
      %done = arith.cmpi sge, %i, %n : i32
      cf.cond_br %done, ^exit(%acc : i32), ^body
    ^body:
      %a = arith.addi %acc, %i : i32
      %j = arith.addi %i, %c1 : i32
      cf.br ^loop(%j, %a : i32, i32)
    ^exit(%r: i32):
      return %r : i32
    }"""
    assert run(src, np.int32(10))[0] == 45


def test_cf_switch_and_assert():
    src = """func.func @f(%x: i32) -> i32 {
      cf.switch %x : i32, [
        default: ^d,
        1: ^one,
        -2: ^two
      ]
    ^d:
      %c0 = arith.constant 0 : i32
      return %c0 : i32
    ^one:
      %c10 = arith.constant 10 : i32
      return %c10 : i32
    ^two:
      %c20 = arith.constant 20 : i32
      %f = arith.constant false
      cf.assert %f, "never here"
      return %c20 : i32
    }"""
    assert [int(run(src, np.int32(v))[0]) for v in (1, 5)] == [10, 0]
    with pytest.raises(InterpreterError, match="assertion failed: never here"):
        run(src, np.int32(-2))


# ---------------------------------------------------------------- scf


def test_scf_for_while_if():
    src = """func.func @f(%n: index) -> (f32, i32) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
        %a = arith.addf %acc, %one : f32
        scf.yield %a : f32
      }
      %i0 = arith.constant 1 : i32
      %lim = arith.constant 100 : i32
      %w = scf.while (%v = %i0) : (i32) -> i32 {
        %c = arith.cmpi slt, %v, %lim : i32
        scf.condition(%c) %v : i32
      } do {
      ^bb0(%v: i32):
        %d = arith.addi %v, %v : i32
        scf.yield %d : i32
      }
      return %s, %w : f32, i32
    }"""
    s, w = run(src, 5)
    assert s == 5.0 and w == 128


def test_scf_for_with_integer_induction_variable_and_bad_step():
    src = """func.func @f(%lb: i16, %ub: i16, %st: i16) -> i16 {
      %z = arith.constant 0 : i16
      %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %z) -> i16 : i16 {
        %a = arith.addi %acc, %i : i16
        scf.yield %a : i16
      }
      return %r : i16
    }"""
    r = run(src, np.int16(1), np.int16(10), np.int16(3))[0]
    assert r == 1 + 4 + 7 and r.dtype == np.int16
    with pytest.raises(InterpreterError, match="step must be positive"):
        run(src, np.int16(1), np.int16(10), np.int16(0))


def test_scf_index_switch_and_execute_region():
    src = """func.func @f(%i: index) -> i32 {
      %r = scf.index_switch %i -> i32
      case 2 {
        %c = arith.constant 20 : i32
        scf.yield %c : i32
      }
      default {
        %c = scf.execute_region -> i32 {
          %k = arith.constant 7 : i32
          cf.br ^b(%k : i32)
        ^b(%v: i32):
          scf.yield %v : i32
        }
        scf.yield %c : i32
      }
      return %r : i32
    }"""
    assert [int(run(src, v)[0]) for v in (2, 3)] == [20, 7]


def test_scf_forall_parallel_insert_slice():
    src = """func.func @f(%src: tensor<8xf32>) -> tensor<8xf32> {
      %init = tensor.empty() : tensor<8xf32>
      %c2 = arith.constant 2 : index
      %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<8xf32>) {
        %off = arith.muli %i, %c2 : index
        %s = tensor.extract_slice %src[%off] [2] [1] : tensor<8xf32> to tensor<2xf32>
        %d = arith.addf %s, %s : tensor<2xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %d into %o[%off] [2] [1]
            : tensor<2xf32> into tensor<8xf32>
        }
      }
      return %r : tensor<8xf32>
    }"""
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(run(src, x)[0], 2 * x)


def test_scf_parallel_with_reduction():
    src = """func.func @f(%t: tensor<6xi32>) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %z = arith.constant 0 : i32
      %r = scf.parallel (%i) = (%c0) to (%c6) step (%c1) init (%z) -> i32 {
        %e = tensor.extract %t[%i] : tensor<6xi32>
        scf.reduce(%e : i32) {
        ^bb0(%a: i32, %b: i32):
          %s = arith.addi %a, %b : i32
          scf.reduce.return %s : i32
        }
      }
      return %r : i32
    }"""
    assert run(src, np.arange(6, dtype=np.int32))[0] == 15


# ---------------------------------------------------------------- ml_program


def test_globals_const_resource_and_mutable_state():
    D.BLOBS.set("test_interp_w", np.array([1, 2, 3], np.float32).tobytes())
    src = """module {
      ml_program.global private @w(dense_resource<test_interp_w> : tensor<3xf32>)
        : tensor<3xf32>
      ml_program.global private mutable @count(dense<0> : tensor<i64>) : tensor<i64>
      func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<i64>) {
        %w = ml_program.global_load_const @w : tensor<3xf32>
        %y = arith.mulf %x, %w : tensor<3xf32>
        %c = ml_program.global_load @count : tensor<i64>
        %one = arith.constant dense<1> : tensor<i64>
        %n = arith.addi %c, %one : tensor<i64>
        ml_program.global_store @count = %n : tensor<i64>
        return %y, %n : tensor<3xf32>, tensor<i64>
      }
    }"""
    it = interp(src)
    y, n = it.call("f", np.full(3, 2, np.float32))
    np.testing.assert_array_equal(y, [2, 4, 6])
    assert int(n) == 1
    assert int(it.call("f", np.zeros(3, np.float32))[1]) == 2  # state persists


def test_missing_resource_blob_is_reported():
    src = """module {
      ml_program.global private @w(dense_resource<test_interp_missing_blob> : tensor<2xf32>)
        : tensor<2xf32>
      func.func @f() -> tensor<2xf32> {
        %w = ml_program.global_load_const @w : tensor<2xf32>
        return %w : tensor<2xf32>
      }
    }"""
    with pytest.raises(InterpreterError, match="cannot read the value of global @w"):
        run(src)


def test_every_op_of_the_executable_dialects_has_an_implementation():
    """Every op that computes something runs; definitions (modules, functions, globals)
    and yield-like terminators need no implementation."""
    from strata.dialects import all_dialects
    from strata.interpreter import registered_ops
    from strata.ir import traits as T
    have = set(registered_ops())
    definitions = {"builtin.module", "func.func", "ml_program.func", "ml_program.subgraph",
                   "ml_program.global", "gpu.module", "gpu.func", "gpu.binary"}
    # torch and torch_c run through their lowering to linalg (issue 17), not directly.
    # Ops Strata parses and verifies for upstream's syntax but that no pipeline of it
    # produces: the Winograd transforms (Strata's own Winograd is a CPU kernel) and the
    # asynchronous DMA pair. The interpreter refuses them with a located error.
    # The gpu dialect's subgroup MMA ops and warp_execute_on_lane_0 distribute values
    # over a warp in a target-defined way (the CUDA lowering goes to nvvm.mma.sync).
    syntax_only = {"linalg.winograd_filter_transform", "linalg.winograd_input_transform",
                   "linalg.winograd_output_transform", "memref.dma_start", "memref.dma_wait",
                   "gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix",
                   "gpu.subgroup_mma_compute", "gpu.subgroup_mma_constant_matrix",
                   "gpu.subgroup_mma_elementwise", "gpu.subgroup_mma_extract_thread_local",
                   "gpu.subgroup_mma_insert_thread_local", "gpu.warp_execute_on_lane_0"}
    # nvvm is an llvm-level dialect: like llvm, it is translated, not interpreted.
    missing = [n for d in all_dialects()
               if d.name not in ("tosa", "llvm", "nvvm", "torch", "torch_c")
               for n, c in d.ops.items()
               if n not in have and n not in definitions | syntax_only
               and T.Terminator not in c.traits]
    assert not missing


def test_prefetch_and_distinct_objects_run():
    src = """
    func.func @f(%a: memref<4xf32>, %b: memref<BTYPE>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      memref.prefetch %a[%c0], read, locality<3>, data : memref<4xf32>
      %x:2 = memref.distinct_objects %a, %b : memref<4xf32>, memref<BTYPE>
      return %x#0 : memref<4xf32>
    }"""
    a = np.arange(4, dtype=np.float32)
    out = run(src.replace("BTYPE", "2xf32"), a, np.zeros(2, np.float32))
    np.testing.assert_array_equal(out[0], a)
    with pytest.raises(InterpreterError, match="overlap"):
        run(src.replace("BTYPE", "4xf32"), a, a)
