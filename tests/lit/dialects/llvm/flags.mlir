// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Overflow, exact, disjoint, nneg, GEP no-wrap and fast-math flags; intrinsics with their
// properties (generic-only ones stay generic).
// CHECK: module {
// CHECK-NEXT: llvm.func @f(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: !llvm.ptr<1>, %arg4: !llvm.ptr, %arg5: vector<4xf32>) -> f32 {
// CHECK-NEXT: %0 = llvm.fadd %arg2, %arg2 fastmath<fast> : f32
// CHECK-NEXT: %1 = llvm.fmul %arg2, %arg2 fastmath<nnan, ninf> : f32
// CHECK-NEXT: %2 = llvm.add %arg0, %arg1 overflow<nsw, nuw> : i32
// CHECK-NEXT: %3 = llvm.shl %arg0, %arg1 overflow<nuw> : i32
// CHECK-NEXT: %4 = llvm.lshr exact %arg0, %arg1 : i32
// CHECK-NEXT: %5 = llvm.or disjoint %arg0, %arg1 : i32
// CHECK-NEXT: %6 = llvm.getelementptr %arg4[%arg0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK-NEXT: %7 = llvm.getelementptr nusw %arg4[%arg0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK-NEXT: %8 = llvm.getelementptr nusw|nuw %arg4[%arg0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK-NEXT: %9 = llvm.getelementptr inbounds|nuw %arg4[%arg0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK-NEXT: %10 = llvm.getelementptr nuw %arg4[%arg0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK-NEXT: %11 = llvm.alloca inalloca %arg0 x !llvm.array<4 x f32> {alignment = 16 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: %12 = llvm.addrspacecast %arg3 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: %13 = llvm.zext nneg %arg0 : i32 to i64
// CHECK-NEXT: %14 = llvm.trunc %13 overflow<nsw> : i64 to i32
// CHECK-NEXT: %15 = llvm.uitofp nneg %arg0 : i32 to f32
// CHECK-NEXT: %16 = llvm.call tail @expf(%arg2) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT: %17 = llvm.intr.fabs(%arg2) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %18 = "llvm.intr.is.fpclass"(%arg2) <{bit = 3 : i32}> : (f32) -> i1
// CHECK-NEXT: %19 = "llvm.intr.abs"(%arg0) <{is_int_min_poison = true}> : (i32) -> i32
// CHECK-NEXT: %20 = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT: "llvm.intr.memset"(%arg4, %20, %arg1) <{isVolatile = false}> : (!llvm.ptr, i8, i32) -> ()
// CHECK-NEXT: %21 = llvm.intr.vector.reduce.fadd(%arg2, %arg5) fastmath<reassoc> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT: %22 = llvm.intr.vector.reduce.fmax(%arg5) : (vector<4xf32>) -> f32
// CHECK-NEXT: %23 = llvm.mlir.constant(true) : i1
// CHECK-NEXT: llvm.intr.assume %23 : i1
// CHECK-NEXT: "llvm.intr.prefetch"(%arg4) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
// CHECK-NEXT: %24 = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT: %25 = llvm.intr.maxnum(%arg2, %arg2) : (f32, f32) -> f32
// CHECK-NEXT: %26 = llvm.intr.copysign(%arg2, %arg2) : (f32, f32) -> f32
// CHECK-NEXT: %27 = "llvm.intr.cttz"(%arg0) <{is_zero_poison = true}> : (i32) -> i32
// CHECK-NEXT: %28 = llvm.intr.ctpop(%arg0) : (i32) -> i32
// CHECK-NEXT: %29 = llvm.intr.bswap(%arg0) : (i32) -> i32
// CHECK-NEXT: %30 = llvm.intr.bitreverse(%arg0) : (i32) -> i32
// CHECK-NEXT: %31 = llvm.intr.atan2(%arg2, %arg2) : (f32, f32) -> f32
// CHECK-NEXT: %32 = llvm.intr.fmuladd(%arg2, %arg2, %arg2) : (f32, f32, f32) -> f32
// CHECK-NEXT: "llvm.intr.memmove"(%arg4, %arg4, %arg0) <{isVolatile = true}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
// CHECK-NEXT: %33 = llvm.select %23, %arg2, %arg2 fastmath<nnan> : i1, f32
// CHECK-NEXT: %34 = llvm.fneg %arg2 fastmath<nnan> : f32
// CHECK-NEXT: %35 = llvm.fcmp "_false" %arg2, %arg2 fastmath<nnan> : f32
// CHECK-NEXT: %36 = llvm.fcmp "_true" %arg2, %arg2 fastmath<nnan> : f32
// CHECK-NEXT: %37 = llvm.icmp "uge" %arg0, %arg1 : i32
// CHECK-NEXT: %38 = llvm.getelementptr %arg4[8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %39 = llvm.getelementptr %arg4[0, 3, %arg0] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: llvm.return %0 : f32
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @expf(f32) -> f32
// CHECK-NEXT: }

llvm.func @f(%a: i32, %b: i32, %x: f32, %p: !llvm.ptr<1>, %q: !llvm.ptr, %v: vector<4xf32>) -> f32 {
  %0 = "llvm.fadd"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %1 = "llvm.fmul"(%x, %x) <{fastmathFlags = #llvm.fastmath<nnan, ninf>}> : (f32, f32) -> f32
  %2 = "llvm.add"(%a, %b) <{overflowFlags = 3 : i32}> : (i32, i32) -> i32
  %3 = "llvm.shl"(%a, %b) <{overflowFlags = 2 : i32}> : (i32, i32) -> i32
  %4 = "llvm.lshr"(%a, %b) <{isExact}> : (i32, i32) -> i32
  %5 = "llvm.or"(%a, %b) <{isDisjoint}> : (i32, i32) -> i32
  %6 = "llvm.getelementptr"(%q, %a) <{elem_type = f32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  %7 = "llvm.getelementptr"(%q, %a) <{elem_type = f32, noWrapFlags = 2 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  %8 = "llvm.getelementptr"(%q, %a) <{elem_type = f32, noWrapFlags = 6 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  %9 = "llvm.getelementptr"(%q, %a) <{elem_type = f32, noWrapFlags = 7 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  %10 = "llvm.getelementptr"(%q, %a) <{elem_type = f32, noWrapFlags = 4 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  %11 = "llvm.alloca"(%a) <{alignment = 16 : i64, elem_type = !llvm.array<4 x f32>, inalloca}> : (i32) -> !llvm.ptr
  %12 = "llvm.addrspacecast"(%p) : (!llvm.ptr<1>) -> !llvm.ptr
  %13 = "llvm.zext"(%a) <{nonNeg}> : (i32) -> i64
  %14 = "llvm.trunc"(%13) <{overflowFlags = 1 : i32}> : (i64) -> i32
  %15 = "llvm.uitofp"(%a) <{nonNeg}> : (i32) -> f32
  %16 = "llvm.call"(%x) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<tail>, callee = @expf, fastmathFlags = #llvm.fastmath<fast>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (f32) -> f32
  %17 = "llvm.intr.fabs"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %18 = "llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1
  %19 = "llvm.intr.abs"(%a) <{is_int_min_poison = true}> : (i32) -> i32
  %c0 = llvm.mlir.constant(0 : i8) : i8
  "llvm.intr.memset"(%q, %c0, %b) <{isVolatile = false}> : (!llvm.ptr, i8, i32) -> ()
  %20 = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
  %21 = "llvm.intr.vector.reduce.fmax"(%v) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xf32>) -> f32
  %t = llvm.mlir.constant(true) : i1
  "llvm.intr.assume"(%t) <{op_bundle_sizes = array<i32>}> : (i1) -> ()
  "llvm.intr.prefetch"(%q) <{rw = 0 : i32, hint = 3 : i32, cache = 1 : i32}> : (!llvm.ptr) -> ()
  %22 = "llvm.intr.smax"(%a, %b) : (i32, i32) -> i32
  %23 = "llvm.intr.maxnum"(%x, %x) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
  %24 = "llvm.intr.copysign"(%x, %x) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
  %25 = "llvm.intr.cttz"(%a) <{is_zero_poison = true}> : (i32) -> i32
  %26 = "llvm.intr.ctpop"(%a) : (i32) -> i32
  %27 = "llvm.intr.bswap"(%a) : (i32) -> i32
  %28 = "llvm.intr.bitreverse"(%a) : (i32) -> i32
  %29 = "llvm.intr.atan2"(%x, %x) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
  %31 = "llvm.intr.fmuladd"(%x, %x, %x) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32, f32) -> f32
  "llvm.intr.memmove"(%q, %q, %a) <{isVolatile = true}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
  %32 = "llvm.select"(%t, %x, %x) <{fastmathFlags = #llvm.fastmath<nnan>}> : (i1, f32, f32) -> f32
  %33 = "llvm.fneg"(%x) <{fastmathFlags = #llvm.fastmath<nnan>}> : (f32) -> f32
  %34 = "llvm.fcmp"(%x, %x) <{fastmathFlags = #llvm.fastmath<nnan>, predicate = 0 : i64}> : (f32, f32) -> i1
  %35 = "llvm.fcmp"(%x, %x) <{fastmathFlags = #llvm.fastmath<nnan>, predicate = 15 : i64}> : (f32, f32) -> i1
  %36 = "llvm.icmp"(%a, %b) <{predicate = 9 : i64}> : (i32, i32) -> i1
  %37 = "llvm.getelementptr"(%q) <{elem_type = i8, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 8>}> : (!llvm.ptr) -> !llvm.ptr
  %38 = "llvm.getelementptr"(%q, %a) <{elem_type = !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 0, 3, -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
  "llvm.return"(%0) : (f32) -> ()
}
llvm.func @expf(f32) -> f32
