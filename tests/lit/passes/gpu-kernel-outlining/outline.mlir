// RUN: strata-opt %s --gpu-kernel-outlining | filecheck %s

// Two launches in @main: modules @main_kernel and @main_kernel_0, each with a kernel
// @main_kernel; constants are cloned in, other values from above become arguments (in
// the order of first use), known sizes become known_block_size / known_grid_size:
// iree-opt's output, line for line.

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: func.func @main(%arg0: memref<16xf32>, %arg1: index) {
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c16 = arith.constant 16 : index
// CHECK-NEXT: %dim = memref.dim %arg0, %c1 : memref<16xf32>
// CHECK-NEXT: gpu.launch_func  @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)  args(%arg0 : memref<16xf32>, %dim : index, %arg1 : index)
// CHECK-NEXT: gpu.launch_func  @main_kernel_0::@main_kernel blocks in (%arg1, %c1, %c1) threads in (%c16, %c1, %c1)  args(%arg0 : memref<16xf32>)
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @main_kernel {
// CHECK-NEXT: gpu.func @main_kernel(%arg0: memref<16xf32>, %arg1: index, %arg2: index) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-NEXT: %block_id_x = gpu.block_id x
// CHECK-NEXT: %block_id_y = gpu.block_id y
// CHECK-NEXT: %block_id_z = gpu.block_id z
// CHECK-NEXT: %thread_id_x = gpu.thread_id x
// CHECK-NEXT: %thread_id_y = gpu.thread_id y
// CHECK-NEXT: %thread_id_z = gpu.thread_id z
// CHECK-NEXT: %grid_dim_x = gpu.grid_dim x
// CHECK-NEXT: %grid_dim_y = gpu.grid_dim y
// CHECK-NEXT: %grid_dim_z = gpu.grid_dim z
// CHECK-NEXT: %block_dim_x = gpu.block_dim x
// CHECK-NEXT: %block_dim_y = gpu.block_dim y
// CHECK-NEXT: %block_dim_z = gpu.block_dim z
// CHECK-NEXT: %0 = memref.load %arg0[%thread_id_x] : memref<16xf32>
// CHECK-NEXT: %1 = arith.addf %0, %0 : f32
// CHECK-NEXT: %2 = arith.addi %thread_id_x, %arg1 : index
// CHECK-NEXT: %3 = arith.addi %2, %arg2 : index
// CHECK-NEXT: memref.store %1, %arg0[%3] : memref<16xf32>
// CHECK-NEXT: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @main_kernel_0 {
// CHECK-NEXT: gpu.func @main_kernel(%arg0: memref<16xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
// CHECK-NEXT: %block_id_x = gpu.block_id x
// CHECK-NEXT: %block_id_y = gpu.block_id y
// CHECK-NEXT: %block_id_z = gpu.block_id z
// CHECK-NEXT: %thread_id_x = gpu.thread_id x
// CHECK-NEXT: %thread_id_y = gpu.thread_id y
// CHECK-NEXT: %thread_id_z = gpu.thread_id z
// CHECK-NEXT: %grid_dim_x = gpu.grid_dim x
// CHECK-NEXT: %grid_dim_y = gpu.grid_dim y
// CHECK-NEXT: %grid_dim_z = gpu.grid_dim z
// CHECK-NEXT: %block_dim_x = gpu.block_dim x
// CHECK-NEXT: %block_dim_y = gpu.block_dim y
// CHECK-NEXT: %block_dim_z = gpu.block_dim z
// CHECK-NEXT: %0 = memref.load %arg0[%thread_id_x] : memref<16xf32>
// CHECK-NEXT: memref.store %0, %arg0[%block_id_x] : memref<16xf32>
// CHECK-NEXT: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @main(%a: memref<16xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %d = memref.dim %a, %c1 : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    %i = arith.addi %tx, %d : index
    %j = arith.addi %i, %n : index
    memref.store %w, %a[%j] : memref<16xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<16xf32>
    memref.store %v, %a[%bx] : memref<16xf32>
    gpu.terminator
  }
  return
}
