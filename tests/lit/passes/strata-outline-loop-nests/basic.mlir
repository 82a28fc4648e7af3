// RUN: strata-opt %s --strata-outline-loop-nests | filecheck %s

// Each top-level loop nest moves into a private function; captured values become its
// arguments (constants are cloned in), loop results its results.

// CHECK-LABEL: func.func @main(%arg0: memref<4xf32>, %arg1: f32) -> f32
// CHECK: call @main__nest0(%arg1, %arg0) : (f32, memref<4xf32>) -> ()
// CHECK: %[[S:.*]] = call @main__nest1(%arg0) : (memref<4xf32>) -> f32
// CHECK: return %[[S]] : f32
// CHECK: func.func private @main__nest0(%arg0: f32, %arg1: memref<4xf32>) attributes {strata.outlined}
// CHECK: arith.constant 4 : index
// CHECK: scf.for
// CHECK: memref.store
// CHECK: func.func private @main__nest1(%arg0: memref<4xf32>) -> f32 attributes {strata.outlined}
// CHECK: %[[R:.*]] = scf.for
// CHECK: return %[[R]] : f32
func.func @main(%a: memref<4xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %s, %a[%i] : memref<4xf32>
  }
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<4xf32>
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  return %sum : f32
}
