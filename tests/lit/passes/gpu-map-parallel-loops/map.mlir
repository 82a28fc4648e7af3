// RUN: strata-opt %s --gpu-map-parallel-loops | filecheck %s
// RUN: strata-opt %s --gpu-map-parallel-loops=mapping-policy=innermost-first | filecheck %s --check-prefix=INNER

// The outermost scf.parallel's dims go to block_x, y, z (the fourth is sequential), the
// loops nested in it to threads, deeper ones are sequential: iree-opt's output, line for
// line, for both policies.

// CHECK: module {
// CHECK-NEXT: func.func @nested(%arg0: memref<2x3x4x5xf32>) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %c5 = arith.constant 5 : index
// CHECK-NEXT: scf.parallel (%arg1, %arg2, %arg3, %arg4) = (%c0, %c0, %c0, %c0) to (%c2, %c3, %c4, %c5) step (%c1, %c1, %c1, %c1) {
// CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// CHECK-NEXT: memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT: scf.parallel (%arg1) = (%c0) to (%c2) step (%c1) {
// CHECK-NEXT: scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
// CHECK-NEXT: scf.parallel (%arg4) = (%c0) to (%c5) step (%c1) {
// CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// CHECK-NEXT: memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

// INNER: module {
// INNER-NEXT: func.func @nested(%arg0: memref<2x3x4x5xf32>) {
// INNER-NEXT: %c0 = arith.constant 0 : index
// INNER-NEXT: %c1 = arith.constant 1 : index
// INNER-NEXT: %c2 = arith.constant 2 : index
// INNER-NEXT: %c3 = arith.constant 3 : index
// INNER-NEXT: %c4 = arith.constant 4 : index
// INNER-NEXT: %c5 = arith.constant 5 : index
// INNER-NEXT: scf.parallel (%arg1, %arg2, %arg3, %arg4) = (%c0, %c0, %c0, %c0) to (%c2, %c3, %c4, %c5) step (%c1, %c1, %c1, %c1) {
// INNER-NEXT: %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// INNER-NEXT: memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// INNER-NEXT: scf.reduce
// INNER-NEXT: } {mapping = [#gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// INNER-NEXT: scf.parallel (%arg1) = (%c0) to (%c2) step (%c1) {
// INNER-NEXT: scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
// INNER-NEXT: scf.parallel (%arg4) = (%c0) to (%c5) step (%c1) {
// INNER-NEXT: %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// INNER-NEXT: memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
// INNER-NEXT: scf.reduce
// INNER-NEXT: } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// INNER-NEXT: scf.reduce
// INNER-NEXT: } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// INNER-NEXT: scf.reduce
// INNER-NEXT: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// INNER-NEXT: return
// INNER-NEXT: }
// INNER-NEXT: }

func.func @nested(%a: memref<2x3x4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%c2, %c3, %c4, %c5) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %a[%i, %j, %k, %l] : memref<2x3x4x5xf32>
    memref.store %v, %a[%i, %j, %k, %l] : memref<2x3x4x5xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%j, %k) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
      scf.parallel (%l) = (%c0) to (%c5) step (%c1) {
        %v = memref.load %a[%i, %j, %k, %l] : memref<2x3x4x5xf32>
        memref.store %v, %a[%i, %j, %k, %l] : memref<2x3x4x5xf32>
        scf.reduce
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}
