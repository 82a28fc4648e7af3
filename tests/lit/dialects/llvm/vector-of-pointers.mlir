// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// vectors of pointers: bitcast, getelementptr, addrspacecast.
// CHECK: module {
// CHECK-NEXT:   llvm.func @f(%arg0: vector<4x!llvm.ptr>, %arg1: !llvm.ptr<1>, %arg2: vector<4x!llvm.ptr<1>>) -> vector<4x!llvm.ptr> {
// CHECK-NEXT:     %0 = llvm.bitcast %arg0 : vector<4x!llvm.ptr> to vector<4x!llvm.ptr>
// CHECK-NEXT:     %1 = llvm.getelementptr %arg0[1] : (vector<4x!llvm.ptr>) -> vector<4x!llvm.ptr>, i8
// CHECK-NEXT:     %2 = llvm.addrspacecast %arg2 : vector<4x!llvm.ptr<1>> to vector<4x!llvm.ptr>
// CHECK-NEXT:     llvm.return %2 : vector<4x!llvm.ptr>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<vector<4x!llvm.ptr> (vector<4x!llvm.ptr>, ptr<1>, vector<4x!llvm.ptr<1>>)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: vector<4x!llvm.ptr>, %arg1: !llvm.ptr<1>, %arg2: vector<4x!llvm.ptr<1>>):
// GENERIC-NEXT:     %0 = "llvm.bitcast"(%arg0) : (vector<4x!llvm.ptr>) -> vector<4x!llvm.ptr>
// GENERIC-NEXT:     %1 = "llvm.getelementptr"(%arg0) <{elem_type = i8, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 1>}> : (vector<4x!llvm.ptr>) -> vector<4x!llvm.ptr>
// GENERIC-NEXT:     %2 = "llvm.addrspacecast"(%arg2) : (vector<4x!llvm.ptr<1>>) -> vector<4x!llvm.ptr>
// GENERIC-NEXT:     "llvm.return"(%2) : (vector<4x!llvm.ptr>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @f(%a : vector<4x!llvm.ptr>, %b : !llvm.ptr<1>, %c : vector<4x!llvm.ptr<1>>) -> vector<4x!llvm.ptr> {
  %0 = llvm.bitcast %a : vector<4x!llvm.ptr> to vector<4x!llvm.ptr>
  %1 = llvm.getelementptr %a[1] : (vector<4x!llvm.ptr>) -> vector<4x!llvm.ptr>, i8
  %2 = llvm.addrspacecast %c : vector<4x!llvm.ptr<1>> to vector<4x!llvm.ptr>
  llvm.return %2 : vector<4x!llvm.ptr>
}
