"""convert-to-llvm{fold-aggregates=true} merges repeated llvm constants
(merge_llvm_constants, [Note: one constant per value] in
strata/conversion/to_llvm/umbrella.py): what it merges, what it must not, and that the
compiled program computes the same."""
import numpy as np

import strata
from strata.compiler import build_pipeline
from strata.conversion.to_llvm.umbrella import merge_llvm_constants
from strata.dialects import default_context
from strata.syntax.parser import parse_source

# Loads at constant indices on both sides of a branch: every access builds its index
# and stride constants (the entry block's serve both branches; a branch's own serve
# only that branch).
SRC = """
func.func @f(%m: memref<4x3xf32>, %s: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c1, %c0] : memref<4x3xf32>
  cf.cond_br %s, ^bb1, ^bb2
^bb1:
  %c2 = arith.constant 2 : index
  %c1b = arith.constant 1 : index
  %b = memref.load %m[%c2, %c1b] : memref<4x3xf32>
  %x = arith.addf %a, %b : f32
  cf.br ^bb3(%x : f32)
^bb2:
  %c2b = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d = memref.load %m[%c3, %c2b] : memref<4x3xf32>
  %e = memref.load %m[%c2b, %c2b] : memref<4x3xf32>
  %y = arith.mulf %d, %e : f32
  %z = arith.subf %y, %a : f32
  cf.br ^bb3(%z : f32)
^bb3(%r: f32):
  return %r : f32
}
"""

TENSOR_SRC = """
func.func @f(%m: tensor<4x3xf32>, %s: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %m[%c1, %c0] : tensor<4x3xf32>
  %r = scf.if %s -> f32 {
    %c2 = arith.constant 2 : index
    %c1b = arith.constant 1 : index
    %b = tensor.extract %m[%c2, %c1b] : tensor<4x3xf32>
    %x = arith.addf %a, %b : f32
    scf.yield %x : f32
  } else {
    %c2b = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %d = tensor.extract %m[%c3, %c2b] : tensor<4x3xf32>
    %e = tensor.extract %m[%c2b, %c2b] : tensor<4x3xf32>
    %y = arith.mulf %d, %e : f32
    %z = arith.subf %y, %a : f32
    scf.yield %z : f32
  }
  return %r : f32
}
"""


def _lowered():
    m = parse_source(SRC, default_context())
    build_pipeline("convert-to-llvm").run(m)  # upstream's output: every constant stays
    return m


def _constants(m):
    out = {}
    for op in m.walk():
        if op.name == "llvm.mlir.constant":
            out.setdefault(op.parent, []).append(op._props["value"])
    return out


def test_merges_repeats_within_block_and_from_entry():
    m = _lowered()
    before = _constants(m)
    n = merge_llvm_constants(m)
    after = _constants(m)
    assert n == sum(map(len, before.values())) - sum(map(len, after.values())) > 0
    blocks = list(after)
    entry = next(b for b in blocks if b.parent.blocks[0] is b)
    entry_values = set(after[entry])
    assert len(after[entry]) == len(entry_values)  # no repeat left in a block
    for b, values in after.items():
        assert len(values) == len(set(values))
        if b is not entry:  # nothing the entry block already holds
            assert not entry_values & set(values)
    # The two branches each keep their own copy of a value the entry block lacks (2):
    two = [b for b, values in after.items() if any(v.value == 2 for v in values)]
    assert len(two) == 2 and entry not in two
    # Every use is still dominated: a second run finds nothing, the module verifies.
    m.verify()
    assert merge_llvm_constants(m) == 0


def test_merged_program_computes_the_same():
    mat = np.arange(12, dtype=np.float32).reshape(4, 3) + 0.5
    # the same function on tensors (scf.if: blocks once lowered), through the CPU
    # target's whole pipeline
    f = strata.compile(parse_source(TENSOR_SRC, default_context()), cache=False)
    a = mat[1, 0]
    assert f(mat, np.bool_(True)) == np.float32(a + mat[2, 1])
    assert f(mat, np.bool_(False)) == np.float32(mat[3, 2] * mat[2, 2] - a)
