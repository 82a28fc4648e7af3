// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.ptrtoaddr of pointers and vectors of pointers.
// CHECK: module {
// CHECK-NEXT:   llvm.func @f(%arg0: !llvm.ptr, %arg1: vector<4x!llvm.ptr>) {
// CHECK-NEXT:     %0 = llvm.ptrtoaddr %arg0 : !llvm.ptr to i64
// CHECK-NEXT:     %1 = llvm.ptrtoaddr %arg1 : vector<4x!llvm.ptr> to vector<4xi64>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr, vector<4x!llvm.ptr>)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: !llvm.ptr, %arg1: vector<4x!llvm.ptr>):
// GENERIC-NEXT:     %0 = "llvm.ptrtoaddr"(%arg0) : (!llvm.ptr) -> i64
// GENERIC-NEXT:     %1 = "llvm.ptrtoaddr"(%arg1) : (vector<4x!llvm.ptr>) -> vector<4xi64>
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @f(%p : !llvm.ptr, %v : vector<4x!llvm.ptr>) {
  %0 = llvm.ptrtoaddr %p : !llvm.ptr to i64
  %1 = llvm.ptrtoaddr %v : vector<4x!llvm.ptr> to vector<4xi64>
  llvm.return
}
