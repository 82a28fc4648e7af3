"""A dialect conversion drops its bookkeeping when it ends (conversion.py's `_release`):
the journal of rewrites, the value mapping and the legality records are freed at once,
not left in reference cycles for the cyclic collector to trace (a model's
convert-to-llvm left ~40,000 of them to the collection after a compile)."""
from __future__ import annotations

import gc

from strata.compiler import build_pipeline
from strata.dialects import default_context
from strata.rewrite.conversion_log import _Rewrite
from strata.syntax.parser import parse_source

SRC = """
func.func @f(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<4x8xf32>
    }
  }
  return
}
"""


def test_the_journal_is_freed_without_the_collector():
    m = parse_source(SRC, default_context(), "t.mlir")
    pm = build_pipeline("convert-scf-to-cf,convert-to-llvm{fold-aggregates=true}")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        pm.run(m)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, _Rewrite)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert "llvm.fmul" in str(m)
    assert left == []
