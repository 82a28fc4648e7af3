// RUN: strata-opt %s --convert-parallel-loops-to-gpu | filecheck %s

// Loops mapped by gpu-map-parallel-loops (iree-opt's output is the input): the dims
// mapped to blocks size the grid, those of the nested loop the block; induction
// variables are the ids; sequential dims stay loops inside the launch.

// CHECK: module {
// CHECK-NEXT: func.func @nested(%arg0: memref<2x3x4x5xf32>) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %c5 = arith.constant 5 : index
// CHECK-NEXT: %c2_0 = arith.constant 2 : index
// CHECK-NEXT: %c3_1 = arith.constant 3 : index
// CHECK-NEXT: %c4_2 = arith.constant 4 : index
// CHECK-NEXT: %c1_3 = arith.constant 1 : index
// CHECK-NEXT: gpu.launch blocks(%arg1, %arg2, %arg3) in (%arg7 = %c2_0, %arg8 = %c3_1, %arg9 = %c4_2) threads(%arg4, %arg5, %arg6) in (%arg10 = %c1_3, %arg11 = %c1_3, %arg12 = %c1_3) {
// CHECK-NEXT: scf.for %arg13 = %c0 to %c5 step %c1 {
// CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg13] : memref<2x3x4x5xf32>
// CHECK-NEXT: memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg13] : memref<2x3x4x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: %c2_4 = arith.constant 2 : index
// CHECK-NEXT: %c3_5 = arith.constant 3 : index
// CHECK-NEXT: %c4_6 = arith.constant 4 : index
// CHECK-NEXT: %c1_7 = arith.constant 1 : index
// CHECK-NEXT: gpu.launch blocks(%arg1, %arg2, %arg3) in (%arg7 = %c2_4, %arg8 = %c1_7, %arg9 = %c1_7) threads(%arg4, %arg5, %arg6) in (%arg10 = %c3_5, %arg11 = %c4_6, %arg12 = %c1_7) {
// CHECK-NEXT: scf.for %arg13 = %c0 to %c5 step %c1 {
// CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg4, %arg5, %arg13] : memref<2x3x4x5xf32>
// CHECK-NEXT: memref.store %0, %arg0[%arg1, %arg4, %arg5, %arg13] : memref<2x3x4x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

module {
  func.func @nested(%arg0: memref<2x3x4x5xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    scf.parallel (%arg1, %arg2, %arg3, %arg4) = (%c0, %c0, %c0, %c0) to (%c2, %c3, %c4, %c5) step (%c1, %c1, %c1, %c1) {
      %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
      memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
      scf.reduce 
    } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.parallel (%arg1) = (%c0) to (%c2) step (%c1) {
      scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
        scf.parallel (%arg4) = (%c0) to (%c5) step (%c1) {
          %0 = memref.load %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
          memref.store %0, %arg0[%arg1, %arg2, %arg3, %arg4] : memref<2x3x4x5xf32>
          scf.reduce 
        } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
        scf.reduce 
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
      scf.reduce 
    } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    return
  }
}

