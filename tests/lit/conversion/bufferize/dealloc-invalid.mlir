// RUN: strata-opt %s --split-input-file --verify-diagnostics --buffer-deallocation-simple

// IR that does not follow one-shot-bufferize's ownership convention is rejected.
func.func @mixed_if(%c: i1, %a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{'scf.if' op result #0 is a buffer some regions own and others do not}}
  // expected-note @+1 {{while running pass 'buffer-deallocation-simple'}}
  %r = scf.if %c -> (memref<4xf32>) {
    %x = memref.alloc() : memref<4xf32>
    scf.yield %x : memref<4xf32>
  } else {
    scf.yield %a : memref<4xf32>
  }
  %v = memref.load %r[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func @returned_twice() -> (memref<4xf32>, memref<4xf32>) {
  %x = memref.alloc() : memref<4xf32>
  // expected-error @+2 {{'func.return' op gives away a buffer that was already given away}}
  // expected-note @+1 {{while running pass 'buffer-deallocation-simple'}}
  return %x, %x : memref<4xf32>, memref<4xf32>
}
