// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// gpu.launch_func of a kernel lowered to an llvm.func (gpu.kernel attribute): its argument types are not compared, as upstream. The CHECK and GENERIC lines are what
// iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: gpu.module @kernels {
// CHECK-NEXT: llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @notk(%arg0: !llvm.ptr) {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%arg0: index, %arg1: memref<4xf32>) {
// CHECK-NEXT: gpu.launch_func  @kernels::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  args(%arg1 : memref<4xf32>)
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "gpu.module"() <{sym_name = "kernels"}> ({
// GENERIC-NEXT: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr)>, linkage = #llvm.linkage<external>, sym_name = "k", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg3: !llvm.ptr):
// GENERIC-NEXT: "llvm.return"() : () -> ()
// GENERIC-NEXT: }) {gpu.kernel, nvvm.kernel} : () -> ()
// GENERIC-NEXT: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr)>, linkage = #llvm.linkage<external>, sym_name = "notk", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg2: !llvm.ptr):
// GENERIC-NEXT: "llvm.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (index, memref<4xf32>) -> (), sym_name = "main"}> ({
// GENERIC-NEXT: ^bb0(%arg0: index, %arg1: memref<4xf32>):
// GENERIC-NEXT: "gpu.launch_func"(%arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg1) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, memref<4xf32>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) {gpu.container_module} : () -> ()

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    llvm.func @notk(%arg0: !llvm.ptr) {
      llvm.return
    }
  }
  func.func @main(%n: index, %m: memref<4xf32>) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<4xf32>)
    return
  }
}
