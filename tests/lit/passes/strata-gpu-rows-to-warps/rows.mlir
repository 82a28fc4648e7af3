// RUN: strata-opt %s --strata-gpu-rows-to-warps | filecheck %s

// Rows with reductions (a fused softmax-like row): a lane dim of 32 is added, every
// row loop runs from the lane by 32, lanes past 0 start a reduction from its identity
// (-inf for maximumf, 0.0 for addf: the initial 5.0 counts once), and each reduction
// ends with five gpu.shuffle xor (16, 8, 4, 2, 1) whose result every later use takes.

// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.parallel (%[[R:.*]], %[[L:.*]]) = (%c0, %{{.*}}) to (%c3, %[[C32]])
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[L]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.select %[[Z]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[M:.*]] = scf.for %{{.*}} = %[[L]] to %c70 step %[[C32]] iter_args(%{{.*}} = %[[I]]) -> (f32)
// CHECK: gpu.shuffle xor %[[M]], %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %{{.*}}, %[[S1]] : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %[[L]] to %c70 step %[[C32]]
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK: gpu.shuffle xor %[[SUM]], %c16_i32
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %{{.*}}, %[[S2]] : f32
// CHECK-NEXT: scf.for %{{.*}} = %[[L]] to %c70 step %[[C32]] {
// CHECK: arith.divf %{{.*}}, %[[TOTAL]] : f32

func.func @rows(%a: memref<3x70xf32>) -> memref<3x70xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c70 = arith.constant 70 : index
  %init = arith.constant 5.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %out = memref.alloc() : memref<3x70xf32>
  scf.parallel (%r) = (%c0) to (%c3) step (%c1) {
    %tmp = memref.alloca() : memref<70xf32>
    %m = scf.for %i = %c0 to %c70 step %c1 iter_args(%acc = %ninf) -> (f32) {
      %v = memref.load %a[%r, %i] : memref<3x70xf32>
      %n = arith.maximumf %acc, %v : f32
      scf.yield %n : f32
    }
    %s = scf.for %i = %c0 to %c70 step %c1 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %a[%r, %i] : memref<3x70xf32>
      %d = arith.subf %v, %m : f32
      memref.store %d, %tmp[%i] : memref<70xf32>
      %n = arith.addf %d, %acc : f32
      scf.yield %n : f32
    }
    scf.for %i = %c0 to %c70 step %c1 {
      %v = memref.load %tmp[%i] : memref<70xf32>
      %q = arith.divf %v, %s : f32
      memref.store %q, %out[%r, %i] : memref<3x70xf32>
    }
    scf.reduce
  }
  return %out : memref<3x70xf32>
}
