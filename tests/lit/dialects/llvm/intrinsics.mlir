// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Float, integer and reduction intrinsics; assume.
// CHECK: module {
// CHECK-NEXT: llvm.func @f(%arg0: f32, %arg1: vector<4xf32>, %arg2: vector<4xi32>, %arg3: i32) {
// CHECK-NEXT: %0 = llvm.intr.sqrt(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %1 = llvm.intr.exp(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %2 = llvm.intr.exp2(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %3 = llvm.intr.exp10(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %4 = llvm.intr.log(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %5 = llvm.intr.log2(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %6 = llvm.intr.log10(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %7 = llvm.intr.fabs(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %8 = llvm.intr.sin(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %9 = llvm.intr.cos(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %10 = llvm.intr.tan(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %11 = llvm.intr.asin(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %12 = llvm.intr.acos(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %13 = llvm.intr.atan(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %14 = llvm.intr.sinh(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %15 = llvm.intr.cosh(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %16 = llvm.intr.tanh(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %17 = llvm.intr.floor(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %18 = llvm.intr.ceil(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %19 = llvm.intr.round(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %20 = llvm.intr.roundeven(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %21 = llvm.intr.trunc(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %22 = llvm.intr.rint(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %23 = llvm.intr.nearbyint(%arg0) fastmath<fast> : (f32) -> f32
// CHECK-NEXT: %24 = llvm.intr.pow(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %25 = llvm.intr.copysign(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %26 = llvm.intr.maxnum(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %27 = llvm.intr.minnum(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %28 = llvm.intr.maximum(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %29 = llvm.intr.minimum(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %30 = llvm.intr.atan2(%arg0, %arg0) fastmath<fast> : (f32, f32) -> f32
// CHECK-NEXT: %31 = llvm.intr.vector.reduce.fmax(%arg1) fastmath<fast> : (vector<4xf32>) -> f32
// CHECK-NEXT: %32 = llvm.intr.vector.reduce.fmin(%arg1) fastmath<fast> : (vector<4xf32>) -> f32
// CHECK-NEXT: %33 = llvm.intr.vector.reduce.fmaximum(%arg1) fastmath<fast> : (vector<4xf32>) -> f32
// CHECK-NEXT: %34 = llvm.intr.vector.reduce.fminimum(%arg1) fastmath<fast> : (vector<4xf32>) -> f32
// CHECK-NEXT: %35 = llvm.intr.vector.reduce.fadd(%arg0, %arg1) fastmath<fast> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT: %36 = llvm.intr.vector.reduce.fmul(%arg0, %arg1) fastmath<fast> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT: %37 = "llvm.intr.vector.reduce.add"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %38 = "llvm.intr.vector.reduce.mul"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %39 = "llvm.intr.vector.reduce.and"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %40 = "llvm.intr.vector.reduce.or"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %41 = "llvm.intr.vector.reduce.xor"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %42 = "llvm.intr.vector.reduce.smax"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %43 = "llvm.intr.vector.reduce.smin"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %44 = "llvm.intr.vector.reduce.umax"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %45 = "llvm.intr.vector.reduce.umin"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT: %46 = llvm.mlir.constant(true) : i1
// CHECK-NEXT: llvm.intr.assume %46 : i1
// CHECK-NEXT: %47 = llvm.intr.lround(%arg0) : (f32) -> i64
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }

llvm.func @f(%x: f32, %v: vector<4xf32>, %i: vector<4xi32>, %n: i32) {
  %sqrt = "llvm.intr.sqrt"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %exp = "llvm.intr.exp"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %exp2 = "llvm.intr.exp2"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %exp10 = "llvm.intr.exp10"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %log = "llvm.intr.log"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %log2 = "llvm.intr.log2"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %log10 = "llvm.intr.log10"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %fabs = "llvm.intr.fabs"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %sin = "llvm.intr.sin"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %cos = "llvm.intr.cos"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %tan = "llvm.intr.tan"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %asin = "llvm.intr.asin"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %acos = "llvm.intr.acos"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %atan = "llvm.intr.atan"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %sinh = "llvm.intr.sinh"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %cosh = "llvm.intr.cosh"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %tanh = "llvm.intr.tanh"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %floor = "llvm.intr.floor"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %ceil = "llvm.intr.ceil"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %round = "llvm.intr.round"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %roundeven = "llvm.intr.roundeven"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %trunc = "llvm.intr.trunc"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %rint = "llvm.intr.rint"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %nearbyint = "llvm.intr.nearbyint"(%x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32) -> f32
  %pow = "llvm.intr.pow"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %copysign = "llvm.intr.copysign"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %maxnum = "llvm.intr.maxnum"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %minnum = "llvm.intr.minnum"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %maximum = "llvm.intr.maximum"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %minimum = "llvm.intr.minimum"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %atan2 = "llvm.intr.atan2"(%x, %x) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
  %rfmax = "llvm.intr.vector.reduce.fmax"(%v) <{fastmathFlags = #llvm.fastmath<fast>}> : (vector<4xf32>) -> f32
  %rfmin = "llvm.intr.vector.reduce.fmin"(%v) <{fastmathFlags = #llvm.fastmath<fast>}> : (vector<4xf32>) -> f32
  %rfmaximum = "llvm.intr.vector.reduce.fmaximum"(%v) <{fastmathFlags = #llvm.fastmath<fast>}> : (vector<4xf32>) -> f32
  %rfminimum = "llvm.intr.vector.reduce.fminimum"(%v) <{fastmathFlags = #llvm.fastmath<fast>}> : (vector<4xf32>) -> f32
  %rfadd = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, vector<4xf32>) -> f32
  %rfmul = "llvm.intr.vector.reduce.fmul"(%x, %v) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, vector<4xf32>) -> f32
  %radd = "llvm.intr.vector.reduce.add"(%i) : (vector<4xi32>) -> i32
  %rmul = "llvm.intr.vector.reduce.mul"(%i) : (vector<4xi32>) -> i32
  %rand = "llvm.intr.vector.reduce.and"(%i) : (vector<4xi32>) -> i32
  %ror = "llvm.intr.vector.reduce.or"(%i) : (vector<4xi32>) -> i32
  %rxor = "llvm.intr.vector.reduce.xor"(%i) : (vector<4xi32>) -> i32
  %rsmax = "llvm.intr.vector.reduce.smax"(%i) : (vector<4xi32>) -> i32
  %rsmin = "llvm.intr.vector.reduce.smin"(%i) : (vector<4xi32>) -> i32
  %rumax = "llvm.intr.vector.reduce.umax"(%i) : (vector<4xi32>) -> i32
  %rumin = "llvm.intr.vector.reduce.umin"(%i) : (vector<4xi32>) -> i32
  %t = llvm.mlir.constant(true) : i1
  "llvm.intr.assume"(%t) <{op_bundle_sizes = array<i32>}> : (i1) -> ()
  %lr = "llvm.intr.lround"(%x) : (f32) -> i64
  llvm.return
}
