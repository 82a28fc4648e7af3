// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// invoke (direct, indirect, with successor operands), landingpad (cleanup, catch, filter), resume; personality on llvm.func.
// CHECK: module {
// CHECK-NEXT:   llvm.mlir.global external constant @_ZTIi() {addr_space = 0 : i32} : !llvm.ptr
// CHECK-NEXT:   llvm.func @foo(i32) -> i32
// CHECK-NEXT:   llvm.func @bar(i32)
// CHECK-NEXT:   llvm.func @__gxx_personality_v0(...) -> i32
// CHECK-NEXT:   llvm.func @caller(%arg0: i32, %arg1: !llvm.ptr) -> i32 attributes {personality = @__gxx_personality_v0} {
// CHECK-NEXT:     %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:     %1 = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:     %2 = llvm.mlir.addressof @_ZTIi : !llvm.ptr
// CHECK-NEXT:     %3 = llvm.invoke @foo(%0) to ^bb1 unwind ^bb2 : (i32) -> i32
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     llvm.invoke @bar(%3) to ^bb3(%3 : i32) unwind ^bb2 : (i32) -> ()
// CHECK-NEXT:   ^bb2:  // 3 preds: ^bb0, ^bb1, ^bb3
// CHECK-NEXT:     %4 = llvm.landingpad cleanup (catch %1 : !llvm.ptr) (catch %2 : !llvm.ptr) (catch %1 : !llvm.ptr) : !llvm.struct<(ptr, i32)>
// CHECK-NEXT:     llvm.resume %4 : !llvm.struct<(ptr, i32)>
// CHECK-NEXT:   ^bb3(%5: i32):  // pred: ^bb1
// CHECK-NEXT:     %6 = llvm.invoke fastcc %arg1(%5) to ^bb4 unwind ^bb2 {foo} : !llvm.ptr, (i32) -> i32
// CHECK-NEXT:   ^bb4:  // pred: ^bb3
// CHECK-NEXT:     llvm.return %6 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.mlir.global"() <{addr_space = 0 : i32, constant, global_type = !llvm.ptr, linkage = #llvm.linkage<external>, sym_name = "_ZTIi", tls_mode = 0 : i64, unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<external>, sym_name = "foo", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = "bar", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (...)>, linkage = #llvm.linkage<external>, sym_name = "__gxx_personality_v0", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i32, ptr)>, linkage = #llvm.linkage<external>, personality = @__gxx_personality_v0, sym_name = "caller", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32, %arg1: !llvm.ptr):
// GENERIC-NEXT:     %0 = "llvm.mlir.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:     %1 = "llvm.mlir.zero"() : () -> !llvm.ptr
// GENERIC-NEXT:     %2 = "llvm.mlir.addressof"() <{global_name = @_ZTIi}> : () -> !llvm.ptr
// GENERIC-NEXT:     %3 = "llvm.invoke"(%0)[^bb1, ^bb2] <{CConv = #llvm.cconv<ccc>, callee = @foo, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (i32) -> i32
// GENERIC-NEXT:   ^bb1:  // pred: ^bb0
// GENERIC-NEXT:     "llvm.invoke"(%3, %3)[^bb3, ^bb2] <{CConv = #llvm.cconv<ccc>, callee = @bar, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (i32, i32) -> ()
// GENERIC-NEXT:   ^bb2:  // 3 preds: ^bb0, ^bb1, ^bb3
// GENERIC-NEXT:     %4 = "llvm.landingpad"(%1, %2, %1) <{cleanup}> : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr, i32)>
// GENERIC-NEXT:     "llvm.resume"(%4) : (!llvm.struct<(ptr, i32)>) -> ()
// GENERIC-NEXT:   ^bb3(%5: i32):  // pred: ^bb1
// GENERIC-NEXT:     %6 = "llvm.invoke"(%arg1, %5)[^bb4, ^bb2] <{CConv = #llvm.cconv<fastcc>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0, 0, 0>}> {foo} : (!llvm.ptr, i32) -> i32
// GENERIC-NEXT:   ^bb4:  // pred: ^bb3
// GENERIC-NEXT:     "llvm.return"(%6) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.mlir.global external constant @_ZTIi() : !llvm.ptr
llvm.func @foo(i32) -> i32
llvm.func @bar(i32)
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @caller(%arg0: i32, %fp: !llvm.ptr) -> i32 attributes { personality = @__gxx_personality_v0 } {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %z = llvm.mlir.zero : !llvm.ptr
  %t = llvm.mlir.addressof @_ZTIi : !llvm.ptr
  %1 = llvm.invoke @foo(%0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.invoke @bar(%1) to ^bb3(%1 : i32) unwind ^bb2 : (i32) -> ()
^bb2:
  %2 = llvm.landingpad cleanup (catch %z : !llvm.ptr) (catch %t : !llvm.ptr) (filter %z : !llvm.ptr) : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
^bb3(%a : i32):
  %3 = llvm.invoke fastcc %fp(%a) to ^bb4 unwind ^bb2 {foo} : !llvm.ptr, (i32) -> i32
^bb4:
  llvm.return %3 : i32
}
