// RUN: strata-opt %s --convert-gpu-to-nvvm | filecheck %s

// A cf.assert in a kernel calls CUDA's __assertfail (message, file, line, function,
// char size), declared with its message global in the kernel's gpu.module, not in the
// host module.

// CHECK: gpu.module @k {
// CHECK-NEXT: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-NEXT: llvm.mlir.global private constant @assert_msg_0("Gather at g0: index out of range\00")
// CHECK: %[[OK:.*]] = llvm.icmp "sge"
// CHECK-NEXT: llvm.cond_br %[[OK]], ^bb2, ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: %[[M:.*]] = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[C:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: llvm.call @__assertfail(%[[M]], %[[M]], %[[L]], %[[M]], %[[C]])
// CHECK-NEXT: llvm.br ^bb2
// CHECK: ^bb2:
// CHECK-NOT: __assertfail
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>, %i: index) kernel {
      %c0 = arith.constant 0 : index
      %ok = arith.cmpi sge, %i, %c0 : index
      cf.assert %ok, "Gather at g0: index out of range"
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
