// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// atomicrmw, cmpxchg and fence: orderings, syncscope, volatile, weak, the <...> property list.
// CHECK: module {
// CHECK-NEXT:   llvm.func @f(%arg0: !llvm.ptr, %arg1: f32, %arg2: i32, %arg3: vector<2xf16>, %arg4: !llvm.ptr) {
// CHECK-NEXT:     %0 = llvm.atomicrmw fadd %arg0, %arg1 monotonic : !llvm.ptr, f32
// CHECK-NEXT:     %1 = llvm.atomicrmw volatile add %arg0, %arg2 syncscope("agent") acq_rel : !llvm.ptr, i32
// CHECK-NEXT:     %2 = llvm.atomicrmw fadd %arg0, %arg3 seq_cst : !llvm.ptr, vector<2xf16>
// CHECK-NEXT:     %3 = llvm.atomicrmw xchg %arg0, %arg4 seq_cst : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:     %4 = llvm.cmpxchg %arg0, %arg2, %arg2 acq_rel monotonic : !llvm.ptr, i32
// CHECK-NEXT:     %5 = llvm.cmpxchg weak volatile %arg0, %arg2, %arg2 syncscope("singlethread") acq_rel monotonic : !llvm.ptr, i32
// CHECK-NEXT:     llvm.fence acquire
// CHECK-NEXT:     llvm.fence syncscope("agent") seq_cst
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.func @g(%arg0: !llvm.ptr, %arg1: i32) {
// CHECK-NEXT:     %0 = llvm.atomicrmw add %arg0, %arg1 monotonic <alignment = 4, access_groups = []> : !llvm.ptr, i32
// CHECK-NEXT:     %1 = llvm.cmpxchg %arg0, %arg1, %arg1 monotonic monotonic <alignment = 8> {foo} : !llvm.ptr, i32
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr, f32, i32, vector<2xf16>, ptr)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg2: !llvm.ptr, %arg3: f32, %arg4: i32, %arg5: vector<2xf16>, %arg6: !llvm.ptr):
// GENERIC-NEXT:     %2 = "llvm.atomicrmw"(%arg2, %arg3) <{bin_op = 11 : i64, ordering = 2 : i64}> : (!llvm.ptr, f32) -> f32
// GENERIC-NEXT:     %3 = "llvm.atomicrmw"(%arg2, %arg4) <{bin_op = 1 : i64, ordering = 6 : i64, syncscope = "agent", volatile_}> : (!llvm.ptr, i32) -> i32
// GENERIC-NEXT:     %4 = "llvm.atomicrmw"(%arg2, %arg5) <{bin_op = 11 : i64, ordering = 7 : i64}> : (!llvm.ptr, vector<2xf16>) -> vector<2xf16>
// GENERIC-NEXT:     %5 = "llvm.atomicrmw"(%arg2, %arg6) <{bin_op = 0 : i64, ordering = 7 : i64}> : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
// GENERIC-NEXT:     %6 = "llvm.cmpxchg"(%arg2, %arg4, %arg4) <{failure_ordering = 2 : i64, success_ordering = 6 : i64}> : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i1)>
// GENERIC-NEXT:     %7 = "llvm.cmpxchg"(%arg2, %arg4, %arg4) <{failure_ordering = 2 : i64, success_ordering = 6 : i64, syncscope = "singlethread", volatile_, weak}> : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i1)>
// GENERIC-NEXT:     "llvm.fence"() <{ordering = 4 : i64}> : () -> ()
// GENERIC-NEXT:     "llvm.fence"() <{ordering = 7 : i64, syncscope = "agent"}> : () -> ()
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr, i32)>, linkage = #llvm.linkage<external>, sym_name = "g", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: !llvm.ptr, %arg1: i32):
// GENERIC-NEXT:     %0 = "llvm.atomicrmw"(%arg0, %arg1) <{access_groups = [], alignment = 4 : i64, bin_op = 1 : i64, ordering = 2 : i64}> : (!llvm.ptr, i32) -> i32
// GENERIC-NEXT:     %1 = "llvm.cmpxchg"(%arg0, %arg1, %arg1) <{alignment = 8 : i64, failure_ordering = 2 : i64, success_ordering = 2 : i64}> {foo} : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i1)>
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @f(%p : !llvm.ptr, %v : f32, %i : i32, %vv : vector<2xf16>, %q : !llvm.ptr) {
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, f32
  %1 = llvm.atomicrmw volatile add %p, %i syncscope("agent") acq_rel : !llvm.ptr, i32
  %2 = llvm.atomicrmw fadd %p, %vv seq_cst : !llvm.ptr, vector<2xf16>
  %3 = llvm.atomicrmw xchg %p, %q seq_cst : !llvm.ptr, !llvm.ptr
  %4 = llvm.cmpxchg %p, %i, %i acq_rel monotonic : !llvm.ptr, i32
  %5 = llvm.cmpxchg weak volatile %p, %i, %i syncscope("singlethread") acq_rel monotonic : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  llvm.return
}
llvm.func @g(%p : !llvm.ptr, %i : i32) {
  %1 = "llvm.atomicrmw"(%p, %i) <{bin_op = 1 : i64, ordering = 2 : i64, alignment = 4 : i64, access_groups = []}> : (!llvm.ptr, i32) -> i32
  %5 = "llvm.cmpxchg"(%p, %i, %i) <{alignment = 8 : i64, success_ordering = 2 : i64, failure_ordering = 2 : i64}> {foo} : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i1)>
  llvm.return
}
