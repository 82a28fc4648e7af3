"""convert-to-llvm{fold-aggregates=true}: the patterns' builders reuse an integer
constant made before in the same block ([Note: constants reused while lowering] in
strata/conversion/to_llvm/builder.py): when, when not, and that the lowered module is
the one the constant merge made before."""
import numpy as np

import strata
from strata.compiler import build_pipeline
from strata.conversion.to_llvm import common
from strata.conversion.to_llvm.builder import LLVMBuilder
from strata.dialects import default_context
from strata.ir import attributes as A
from strata.ir import core
from strata.ir.builder import Builder, InsertionPoint
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

I64 = A.IntegerType(64)

SRC = """
func.func @f(%m: memref<4x3xf32>, %s: i1, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c1, %c0] : memref<4x3xf32>
  %b = memref.load %m[%c1, %c1] : memref<4x3xf32>
  %buf = memref.alloc(%n) : memref<?x3xf32>
  memref.store %a, %buf[%c1, %c1] : memref<?x3xf32>
  %v = memref.load %buf[%c1, %c1] : memref<?x3xf32>
  memref.dealloc %buf : memref<?x3xf32>
  cf.cond_br %s, ^bb1, ^bb2
^bb1:
  %c2 = arith.constant 2 : index
  %x = memref.load %m[%c2, %c1] : memref<4x3xf32>
  %y = arith.addf %x, %b : f32
  cf.br ^bb3(%y : f32)
^bb2:
  %c3 = arith.constant 3 : index
  %d = memref.load %m[%c3, %c1] : memref<4x3xf32>
  %e = memref.load %m[%c3, %c0] : memref<4x3xf32>
  %z = arith.mulf %d, %e : f32
  cf.br ^bb3(%z : f32)
^bb3(%r: f32):
  %w = arith.addf %r, %v : f32
  return %w : f32
}
"""


def _func_with_blocks():
    m = parse_source("""
    func.func @g() {
      %u = arith.constant 0 : i64
      cf.br ^bb1
    ^bb1:
      %v = arith.constant 1 : i64
      return
    }""", default_context())
    f = next(op for op in m.walk() if op.name == "func.func")
    return m, f.regions[0].blocks


def _builder(before, consts):
    return LLVMBuilder(Builder(InsertionPoint.before_op(before)), None, True, consts)


def test_reused_in_its_block_before_later_ops():
    _, (entry, other) = _func_with_blocks()
    consts = {}
    first = _builder(entry.first, consts).index_const(7, I64)
    again = _builder(entry.last, consts).index_const(7, I64)
    assert again is first
    assert _builder(entry.last, consts).index_const(8, I64) is not first
    assert sum(o.name == "llvm.mlir.constant" for o in entry.ops) == 2


def test_not_reused_in_another_block_at_a_block_end_or_once_taken_back():
    _, (entry, other) = _func_with_blocks()
    consts = {}
    first = _builder(entry.first, consts).index_const(7, I64)
    elsewhere = _builder(other.first, consts).index_const(7, I64)
    assert elsewhere is not first and elsewhere.owner.parent is other
    # at the end of a block (one being filled): neither reused nor recorded
    at_end = LLVMBuilder(Builder(InsertionPoint.at_end(other)), None, True, consts)
    assert at_end.index_const(7, I64) is not elsewhere
    assert consts[(7, I64)] is elsewhere
    # a constant taken back (a failed pattern's ops are detached) is not handed out
    elsewhere.owner.detach()
    fresh = _builder(other.first, consts).index_const(7, I64)
    assert fresh is not elsewhere and fresh.owner.parent is other


def test_without_the_dict_every_call_makes_one():
    _, (entry, _) = _func_with_blocks()
    b = _builder(entry.first, None)
    assert b.index_const(7, I64) is not b.index_const(7, I64)


def _lower(reuse, monkeypatch):
    made = []
    create = core.Operation.create.__func__

    def counting(cls, *a, **k):
        op = create(cls, *a, **k)
        if op.name == "llvm.mlir.constant":
            made.append(op)
        return op
    with monkeypatch.context() as mp:
        mp.setattr(core.Operation, "create", classmethod(counting))
        if not reuse:
            mp.setattr(common.LLVMPattern, "builder", lambda self, rw, op: LLVMBuilder(
                rw, op.loc, self.tc.fold_aggregates))
        m = parse_source(SRC, default_context())
        build_pipeline("convert-to-llvm{fold-aggregates=true}").run(m)
    m.verify()
    return print_op(m), len(made)


def test_the_lowered_module_is_the_merged_one_with_fewer_constants_made(monkeypatch):
    text, made = _lower(True, monkeypatch)
    text_before, made_before = _lower(False, monkeypatch)
    assert text == text_before
    assert made < made_before


TENSOR_SRC = """
func.func @f(%m: tensor<4x3xf32>, %s: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %m[%c1, %c0] : tensor<4x3xf32>
  %b = tensor.extract %m[%c1, %c1] : tensor<4x3xf32>
  %r = scf.if %s -> f32 {
    %c2 = arith.constant 2 : index
    %x = tensor.extract %m[%c2, %c1] : tensor<4x3xf32>
    %y = arith.addf %x, %b : f32
    scf.yield %y : f32
  } else {
    %c3 = arith.constant 3 : index
    %d = tensor.extract %m[%c3, %c1] : tensor<4x3xf32>
    %e = tensor.extract %m[%c3, %c0] : tensor<4x3xf32>
    %z = arith.mulf %d, %e : f32
    scf.yield %z : f32
  }
  %w = arith.addf %r, %a : f32
  return %w : f32
}
"""


def test_lowered_program_computes_the_same():
    # through the CPU target's whole pipeline (convert-to-llvm with fold-aggregates)
    mat = np.arange(12, dtype=np.float32).reshape(4, 3) + 0.5
    f = strata.compile(parse_source(TENSOR_SRC, default_context()), cache=False)
    a = mat[1, 0]
    assert f(mat, np.bool_(True)) == np.float32(mat[2, 1] + mat[1, 1] + a)
    assert f(mat, np.bool_(False)) == np.float32(mat[3, 1] * mat[3, 0] + a)
