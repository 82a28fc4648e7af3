// RUN: strata-opt %s --convert-gpu-to-nvvm | filecheck %s

// A kernel's workgroup allocation becomes an internal addrspace(3) global of the
// kernel's gpu.module (no initializer: shared memory is undefined at launch) and its
// address in a memref descriptor; its deallocation disappears. The gpu address space
// of every memref type becomes NVVM's number (workgroup: 3).

// CHECK: gpu.module @k {
// CHECK-NEXT: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2 x array<16 x f32>>
// CHECK-NEXT: llvm.mlir.global internal @__wg_k_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x f16>
// CHECK: llvm.func @k(
// CHECK: llvm.mlir.addressof @__wg_k_0 : !llvm.ptr<3>
// CHECK: llvm.mlir.addressof @__wg_k_1 : !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: memref
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = gpu.thread_id x
      %s = memref.alloc() : memref<2x16xf32, #gpu.address_space<workgroup>>
      %h = memref.alloc() : memref<8xf16, #gpu.address_space<workgroup>>
      %v = memref.load %a[%t] : memref<16xf32>
      memref.store %v, %s[%c1, %t] : memref<2x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%c1, %c0] : memref<2x16xf32, #gpu.address_space<workgroup>>
      memref.store %w, %a[%t] : memref<16xf32>
      memref.dealloc %s : memref<2x16xf32, #gpu.address_space<workgroup>>
      memref.dealloc %h : memref<8xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
