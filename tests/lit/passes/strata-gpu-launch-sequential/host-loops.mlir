// RUN: strata-opt %s --strata-gpu-launch-sequential | filecheck %s

// What the host cannot run (loops, loads and stores) goes into one-thread launches,
// one per run of such ops; allocations, views and constants stay on the host
// (gpu-kernel-outlining clones the constants into the kernels).

// CHECK: module {
// CHECK-NEXT: func.func @sum(%arg0: memref<8xf32>) -> memref<f32> {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %alloc = memref.alloc() : memref<f32>
// CHECK-NEXT: %c1_0 = arith.constant 1 : index
// CHECK-NEXT: gpu.launch blocks(%arg1, %arg2, %arg3) in (%arg7 = %c1_0, %arg8 = %c1_0, %arg9 = %c1_0) threads(%arg4, %arg5, %arg6) in (%arg10 = %c1_0, %arg11 = %c1_0, %arg12 = %c1_0) {
// CHECK-NEXT: memref.store %cst, %alloc[] : memref<f32>
// CHECK-NEXT: scf.for %arg13 = %c0 to %c8 step %c1 {
// CHECK-NEXT: %0 = memref.load %arg0[%arg13] : memref<8xf32>
// CHECK-NEXT: %1 = memref.load %alloc[] : memref<f32>
// CHECK-NEXT: %2 = arith.addf %1, %0 : f32
// CHECK-NEXT: memref.store %2, %alloc[] : memref<f32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: %expand_shape = memref.expand_shape %alloc [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK-NEXT: %c1_1 = arith.constant 1 : index
// CHECK-NEXT: gpu.launch blocks(%arg1, %arg2, %arg3) in (%arg7 = %c1_1, %arg8 = %c1_1, %arg9 = %c1_1) threads(%arg4, %arg5, %arg6) in (%arg10 = %c1_1, %arg11 = %c1_1, %arg12 = %c1_1) {
// CHECK-NEXT: scf.for %arg13 = %c0 to %c1 step %c1 {
// CHECK-NEXT: memref.store %cst, %expand_shape[%arg13] : memref<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return %alloc : memref<f32>
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @sum(%a: memref<8xf32>) -> memref<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<f32>
  memref.store %z, %out[] : memref<f32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %s = memref.load %out[] : memref<f32>
    %t = arith.addf %s, %v : f32
    memref.store %t, %out[] : memref<f32>
  }
  %view = memref.expand_shape %out [] output_shape [1] : memref<f32> into memref<1xf32>
  scf.for %i = %c0 to %c1 step %c1 {
    memref.store %z, %view[%i] : memref<1xf32>
  }
  return %out : memref<f32>
}
