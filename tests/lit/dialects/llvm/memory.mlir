// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Loads, stores and allocas: volatile, atomic orderings, invariant, the <...> property list;
// calls with calling conventions and tail call kinds.
// CHECK: module {
// CHECK-NEXT: llvm.func @f(%arg0: !llvm.ptr) {
// CHECK-NEXT: %0 = llvm.load volatile %arg0 invariant <alignment = 4, nontemporal> : !llvm.ptr -> i32
// CHECK-NEXT: llvm.store volatile %0, %arg0 <alignment = 4, nontemporal> : i32, !llvm.ptr
// CHECK-NEXT: %1 = llvm.load %arg0 atomic monotonic <alignment = 4> : !llvm.ptr -> i32
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @f2(%arg0: !llvm.ptr, %arg1: f64, %arg2: i32, %arg3: vector<4xf32>) {
// CHECK-NEXT: %0 = llvm.load %arg0 <alignment = 8> {foo} : !llvm.ptr -> f64
// CHECK-NEXT: %1 = llvm.load %arg0 atomic syncscope("agent") seq_cst <alignment = 8> : !llvm.ptr -> f64
// CHECK-NEXT: %2 = llvm.fpext %arg1 fastmath<fast> : f64 to f64
// CHECK-NEXT: llvm.store %arg1, %arg0 atomic release <alignment = 8> {foo} : f64, !llvm.ptr
// CHECK-NEXT: %3 = llvm.alloca %arg2 x f64 {foo} : (i32) -> !llvm.ptr
// CHECK-NEXT: %4 = llvm.alloca %arg2 x f64 {alignment = 8 : i64} : (i32) -> !llvm.ptr<5>
// CHECK-NEXT: %5 = llvm.intr.vector.reduce.fmax(%arg3) fastmath<nnan> : (vector<4xf32>) -> f32
// CHECK-NEXT: %6 = llvm.call fastcc musttail @g(%arg2) {foo, no_inline} : (i32) -> i32
// CHECK-NEXT: %7 = llvm.intr.sqrt(%arg1) {foo} : (f64) -> f64
// CHECK-NEXT: %8 = llvm.add %arg2, %arg2 {foo} : i32
// CHECK-NEXT: %9 = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %10 = llvm.select %9, %arg1, %arg1 : i1, f64
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @g(i32) -> i32
// CHECK-NEXT: }

llvm.func @f(%arg1: !llvm.ptr) {
  %2 = "llvm.load"(%arg1) <{alignment = 4 : i64, volatile_, nontemporal, invariant}> : (!llvm.ptr) -> i32
  "llvm.store"(%2, %arg1) <{alignment = 4 : i64, volatile_, nontemporal}> : (i32, !llvm.ptr) -> ()
  %3 = "llvm.load"(%arg1) <{ordering = 2 : i64, alignment = 4 : i64}> : (!llvm.ptr) -> i32
  llvm.return
}
llvm.func @f2(%p: !llvm.ptr, %b: f64, %i: i32, %v: vector<4xf32>) {
  %0 = llvm.load %p <alignment = 8> {foo} : !llvm.ptr -> f64
  %1 = "llvm.load"(%p) <{alignment = 8 : i64, ordering = 7 : i64, syncscope = "agent"}> : (!llvm.ptr) -> f64
  %2 = "llvm.fpext"(%b) <{fastmathFlags = #llvm.fastmath<fast>}> : (f64) -> f64
  "llvm.store"(%b, %p) <{alignment = 8 : i64, ordering = 5 : i64}> {foo} : (f64, !llvm.ptr) -> ()
  %3 = "llvm.alloca"(%i) <{elem_type = f64}> {foo} : (i32) -> !llvm.ptr
  %4 = "llvm.alloca"(%i) <{elem_type = f64, alignment = 8 : i64}> : (i32) -> !llvm.ptr<5>
  %5 = "llvm.intr.vector.reduce.fmax"(%v) <{fastmathFlags = #llvm.fastmath<nnan>}> : (vector<4xf32>) -> f32
  %6 = "llvm.call"(%i) <{CConv = #llvm.cconv<fastcc>, TailCallKind = #llvm.tailcallkind<musttail>, callee = @g, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>, no_inline}> {foo}: (i32) -> i32
  %7 = "llvm.intr.sqrt"(%b) <{fastmathFlags = #llvm.fastmath<none>}> {foo} : (f64) -> f64
  %8 = "llvm.add"(%i, %i) <{overflowFlags = 0 : i32}> {foo} : (i32, i32) -> i32
  %c = llvm.mlir.constant(true) : i1
  %9 = llvm.select %c, %b, %b : i1, f64
  llvm.return
}
llvm.func @g(i32) -> i32
