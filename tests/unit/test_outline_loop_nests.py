"""strata-outline-loop-nests: top-level loop nests become private functions, results and
captured values threaded through; the interpreter gives the same outputs before and after."""
from strata.compiler import build_pipeline
from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op
from strata.testing import check_pass_preserves_semantics

SRC = """
func.func @main(%a: memref<4x8xf32>, %s: f32) -> (memref<4x8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %out[%i, %j] : memref<4x8xf32>
    }
  }
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %out[%i, %c0] : memref<4x8xf32>
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  return %out, %sum : memref<4x8xf32>, f32
}
"""


def test_outlined_functions_and_calls():
    m = parse_source(SRC, default_context(), "t.mlir")
    build_pipeline("strata-outline-loop-nests").run(m)
    text = print_op(m)
    assert "call @main__nest0(%arg0, %arg1, %alloc) : (memref<4x8xf32>, f32, memref<4x8xf32>) -> ()" in text
    assert "%0 = call @main__nest1(%alloc) : (memref<4x8xf32>) -> f32" in text
    assert "func.func private @main__nest1(%arg0: memref<4x8xf32>) -> f32 attributes {strata.outlined}" in text
    assert text.count("scf.for") == 3  # all inside the outlined functions
    m.verify()


def test_semantics_preserved():
    import numpy as np
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    check_pass_preserves_semantics(SRC, "strata-outline-loop-nests",
                                   inputs=[a, np.float32(0.5)])
