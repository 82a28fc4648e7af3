// RUN: strata-opt %s --convert-gpu-to-nvvm | filecheck %s

// Kernels become llvm.func with gpu.kernel and nvvm.kernel, memref arguments their
// descriptor fields; ids and sizes are PTX special registers (i32, sign-extended to
// i64), gpu.global_id is ctaid * ntid + tid, gpu.barrier nvvm.barrier, gpu.shuffle
// nvvm.shfl.sync with upstream's active mask (-1 >> (32 - width)) and clamp (width - 1;
// 32 - width for up). Host functions are left alone.

// CHECK-LABEL: gpu.module @main_kernel
// CHECK: llvm.func @main_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64) attributes {gpu.kernel, nvvm.kernel}
// CHECK: %[[B:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: %[[BX:.*]] = llvm.sext %[[B]] : i32 to i64
// CHECK-NEXT: %[[T:.*]] = nvvm.read.ptx.sreg.tid.y : i32
// CHECK-NEXT: %[[TY:.*]] = llvm.sext %[[T]] : i32 to i64
// CHECK-NEXT: nvvm.read.ptx.sreg.ntid.z : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK: %[[C:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: %[[N:.*]] = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-NEXT: %[[X:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[M:.*]] = llvm.mul %[[C]], %[[N]] : i32
// CHECK-NEXT: %[[G:.*]] = llvm.add %[[M]], %[[X]] : i32
// CHECK-NEXT: %[[GID:.*]] = llvm.sext %[[G]] : i32 to i64
// CHECK-NEXT: nvvm.read.ptx.sreg.laneid : i32
// CHECK: llvm.add %[[BX]], %[[TY]] : i64
// CHECK: %[[V:.*]] = llvm.load
// CHECK-NEXT: nvvm.barrier
// CHECK: %[[MASK:.*]] = llvm.lshr
// CHECK: %[[CLAMP:.*]] = llvm.sub
// CHECK-NEXT: %[[S:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[V]], %{{.*}}, %[[CLAMP]] return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
// CHECK-NEXT: %[[R:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(f32, i1)>
// CHECK: %[[NUP:.*]] = llvm.sub
// CHECK-NEXT: llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[MASK2:.*]] = llvm.lshr
// CHECK-NEXT: nvvm.shfl.sync up %[[MASK2]], %[[V]], %{{.*}}, %[[NUP]] return_value_and_is_valid
// CHECK: %[[P:.*]] = llvm.getelementptr inbounds|nuw %{{.*}}[%[[GID]]]
// CHECK-NEXT: llvm.store %[[R]], %[[P]] : f32, !llvm.ptr
// CHECK-NEXT: llvm.return
// CHECK: llvm.func @helper(%arg0: f32) -> f32 {
// CHECK-NEXT: llvm.return %arg0 : f32
// CHECK: func.func @host(%arg0: memref<16xf32>) {
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @main_kernel {
    gpu.func @main_kernel(%arg0: memref<16xf32>, %n: index) kernel {
      %0 = gpu.block_id x
      %1 = gpu.thread_id y
      %2 = gpu.block_dim z
      %3 = gpu.grid_dim x
      %g = gpu.global_id x
      %l = gpu.lane_id
      %a = arith.addi %0, %1 : index
      %v = memref.load %arg0[%a] : memref<16xf32>
      gpu.barrier
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
      %u, %ok2 = gpu.shuffle up %v, %c1, %c32 : f32
      memref.store %s, %arg0[%g] : memref<16xf32>
      gpu.return
    }
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }
  func.func @host(%a: memref<16xf32>) {
    return
  }
}
