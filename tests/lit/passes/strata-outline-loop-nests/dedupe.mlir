// RUN: strata-opt %s --strata-outline-loop-nests | filecheck %s
// RUN: strata-opt %s --strata-outline-loop-nests=dedupe=false | filecheck %s --check-prefix=NODEDUPE

// Nests that are the same function of their arguments (a model's repeated layers) call
// one outlined function; a nest that differs (another constant) gets its own.

// CHECK-LABEL: func.func @main(%arg0: memref<4xf32>, %arg1: memref<4xf32>)
// CHECK: call @main__nest0(%arg0) : (memref<4xf32>) -> ()
// CHECK: call @main__nest0(%arg1) : (memref<4xf32>) -> ()
// CHECK: call @main__nest1(%arg1) : (memref<4xf32>) -> ()
// CHECK: func.func private @main__nest0(
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: func.func private @main__nest1(
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK-NOT: func.func

// NODEDUPE: call @main__nest0(%arg0)
// NODEDUPE: call @main__nest1(%arg1)
// NODEDUPE: call @main__nest2(%arg1)
// NODEDUPE: func.func private @main__nest2(
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %two, %a[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %two, %b[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %three, %b[%i] : memref<4xf32>
  }
  return
}
