// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// global_ctors / global_dtors and llvm.mlir.alias (linkage, thread_local, unnamed_addr, dso_local).
// CHECK: module {
// CHECK-NEXT:   llvm.func @ctor() {
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]
// CHECK-NEXT:   llvm.mlir.global_dtors dtors = [@ctor, @ctor], priorities = [1 : i32, 2 : i32], data = [@ctor, #llvm.zero]
// CHECK-NEXT:   llvm.mlir.global_ctors ctors = [], priorities = [], data = []
// CHECK-NEXT:   llvm.mlir.global external @x(42 : i32) {addr_space = 0 : i32} : i32
// CHECK-NEXT:   llvm.mlir.alias external @y : i32 {
// CHECK-NEXT:     %0 = llvm.mlir.addressof @x : !llvm.ptr
// CHECK-NEXT:     llvm.return %0 : !llvm.ptr
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.mlir.alias private thread_local unnamed_addr @z {dso_local} : i32 {
// CHECK-NEXT:     %0 = llvm.mlir.addressof @x : !llvm.ptr
// CHECK-NEXT:     %1 = llvm.getelementptr %0[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:     llvm.return %1 : !llvm.ptr
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "ctor", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.mlir.global_ctors"() <{ctors = [@ctor], data = [#llvm.zero], priorities = [0 : i32]}> : () -> ()
// GENERIC-NEXT:   "llvm.mlir.global_dtors"() <{data = [@ctor, #llvm.zero], dtors = [@ctor, @ctor], priorities = [1 : i32, 2 : i32]}> : () -> ()
// GENERIC-NEXT:   "llvm.mlir.global_ctors"() <{ctors = [], data = [], priorities = []}> : () -> ()
// GENERIC-NEXT:   "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = i32, linkage = #llvm.linkage<external>, sym_name = "x", tls_mode = 0 : i64, unnamed_addr = 0 : i64, value = 42 : i32, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.mlir.alias"() <{alias_type = i32, linkage = #llvm.linkage<external>, sym_name = "y", tls_mode = 0 : i64, unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:     %2 = "llvm.mlir.addressof"() <{global_name = @x}> : () -> !llvm.ptr
// GENERIC-NEXT:     "llvm.return"(%2) : (!llvm.ptr) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.mlir.alias"() <{alias_type = i32, dso_local, linkage = #llvm.linkage<private>, sym_name = "z", tls_mode = 1 : i64, unnamed_addr = 2 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:     %0 = "llvm.mlir.addressof"() <{global_name = @x}> : () -> !llvm.ptr
// GENERIC-NEXT:     %1 = "llvm.getelementptr"(%0) <{elem_type = i32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 1>}> : (!llvm.ptr) -> !llvm.ptr
// GENERIC-NEXT:     "llvm.return"(%1) : (!llvm.ptr) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @ctor() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]
llvm.mlir.global_dtors dtors = [@ctor, @ctor], priorities = [1 : i32, 2 : i32], data = [@ctor, #llvm.zero]
llvm.mlir.global_ctors ctors = [], priorities = [], data = []
llvm.mlir.global external @x(42 : i32) : i32
llvm.mlir.alias external @y : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.alias private thread_local unnamed_addr @z {dso_local} : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  %1 = llvm.getelementptr %0[1] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.return %1 : !llvm.ptr
}
