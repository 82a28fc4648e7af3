// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Every math op in its custom form; the CHECK lines are what iree-opt prints.

// CHECK-LABEL: func.func @float_unary(
func.func @float_unary(%a: f32, %v: vector<4xf16>, %t: tensor<?xbf16>) {
  // CHECK-NEXT: %0 = math.absf %arg0 : f32
  %0 = math.absf %a : f32
  // CHECK-NEXT: %1 = math.acos %arg0 fastmath<fast> : f32
  %1 = math.acos %a fastmath<fast> : f32
  // CHECK-NEXT: %2 = math.acosh %arg1 : vector<4xf16>
  %2 = math.acosh %v : vector<4xf16>
  // CHECK-NEXT: %3 = math.asin %arg2 : tensor<?xbf16>
  %3 = math.asin %t : tensor<?xbf16>
  // CHECK-NEXT: %4 = math.asinh %arg0 fastmath<nnan> : f32
  %4 = math.asinh %a fastmath<nnan> : f32
  // CHECK-NEXT: %5 = math.atan %arg0 : f32
  %5 = math.atan %a : f32
  // CHECK-NEXT: %6 = math.atanh %arg0 : f32
  %6 = math.atanh %a : f32
  // CHECK-NEXT: %7 = math.cbrt %arg0 : f32
  %7 = math.cbrt %a : f32
  // CHECK-NEXT: %8 = math.ceil %arg0 : f32
  %8 = math.ceil %a : f32
  // CHECK-NEXT: %9 = math.cos %arg0 : f32
  %9 = math.cos %a : f32
  // CHECK-NEXT: %10 = math.cosh %arg0 : f32
  %10 = math.cosh %a : f32
  // CHECK-NEXT: %11 = math.erf %arg0 : f32
  %11 = math.erf %a : f32
  // CHECK-NEXT: %12 = math.erfc %arg0 : f32
  %12 = math.erfc %a : f32
  // CHECK-NEXT: %13 = math.exp %arg0 fastmath<afn> : f32
  %13 = math.exp %a fastmath<afn> : f32
  // CHECK-NEXT: %14 = math.exp2 %arg0 : f32
  %14 = math.exp2 %a : f32
  // CHECK-NEXT: %15 = math.expm1 %arg0 : f32
  %15 = math.expm1 %a : f32
  // CHECK-NEXT: %16 = math.floor %arg0 : f32
  %16 = math.floor %a : f32
  // CHECK-NEXT: %17 = math.log %arg0 : f32
  %17 = math.log %a : f32
  // CHECK-NEXT: %18 = math.log10 %arg0 : f32
  %18 = math.log10 %a : f32
  // CHECK-NEXT: %19 = math.log1p %arg0 : f32
  %19 = math.log1p %a : f32
  // CHECK-NEXT: %20 = math.log2 %arg0 : f32
  %20 = math.log2 %a : f32
  // CHECK-NEXT: %21 = math.round %arg0 : f32
  %21 = math.round %a : f32
  // CHECK-NEXT: %22 = math.roundeven %arg0 : f32
  %22 = math.roundeven %a : f32
  // CHECK-NEXT: %23 = math.rsqrt %arg0 : f32
  %23 = math.rsqrt %a : f32
  // CHECK-NEXT: %24 = math.sin %arg0 : f32
  %24 = math.sin %a : f32
  // CHECK-NEXT: %25 = math.sinh %arg0 : f32
  %25 = math.sinh %a : f32
  // CHECK-NEXT: %26 = math.sqrt %arg0 : f32
  %26 = math.sqrt %a fastmath<none> : f32
  // CHECK-NEXT: %27 = math.tan %arg0 : f32
  %27 = math.tan %a : f32
  // CHECK-NEXT: %28 = math.tanh %arg0 : f32
  %28 = math.tanh %a : f32
  // CHECK-NEXT: %29 = math.trunc %arg1 : vector<4xf16>
  %29 = math.trunc %v : vector<4xf16>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @float_nary(
func.func @float_nary(%a: f32, %b: f32, %v: vector<4xf32>, %i: i32, %vi: vector<4xi32>) {
  // CHECK-NEXT: %0 = math.atan2 %arg0, %arg1 : f32
  %0 = math.atan2 %a, %b : f32
  // CHECK-NEXT: %1 = math.copysign %arg0, %arg1 fastmath<fast> : f32
  %1 = math.copysign %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %2 = math.powf %arg2, %arg2 : vector<4xf32>
  %2 = math.powf %v, %v : vector<4xf32>
  // CHECK-NEXT: %3 = math.fma %arg0, %arg1, %arg0 : f32
  %3 = math.fma %a, %b, %a : f32
  // CHECK-NEXT: %4 = math.fma %arg2, %arg2, %arg2 fastmath<contract> : vector<4xf32>
  %4 = math.fma %v, %v, %v fastmath<contract> : vector<4xf32>
  // CHECK-NEXT: %5 = math.clampf %arg0 to [%arg1, %arg1] : f32
  %5 = math.clampf %a to [%b, %b] : f32
  // CHECK-NEXT: %6 = math.clampf %arg2 to [%arg2, %arg2] fastmath<nnan> : vector<4xf32>
  %6 = math.clampf %v to [%v, %v] fastmath<nnan> : vector<4xf32>
  // CHECK-NEXT: %7 = math.fpowi %arg0, %arg3 : f32, i32
  %7 = math.fpowi %a, %i : f32, i32
  // CHECK-NEXT: %8 = math.fpowi %arg2, %arg4 fastmath<fast> : vector<4xf32>, vector<4xi32>
  %8 = math.fpowi %v, %vi fastmath<fast> : vector<4xf32>, vector<4xi32>
  // CHECK-NEXT: %sin, %cos = math.sincos %arg0 : f32
  %9:2 = math.sincos %a : f32
  // CHECK-NEXT: %sin_0, %cos_1 = math.sincos %arg2 fastmath<afn> : vector<4xf32>
  %10:2 = math.sincos %v fastmath<afn> : vector<4xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @classification(
func.func @classification(%a: f32, %v: vector<4xf64>) {
  // CHECK-NEXT: %0 = math.isfinite %arg0 : f32
  %0 = math.isfinite %a : f32
  // CHECK-NEXT: %1 = math.isinf %arg1 : vector<4xf64>
  %1 = math.isinf %v : vector<4xf64>
  // CHECK-NEXT: %2 = math.isnan %arg0 fastmath<nnan> : f32
  %2 = math.isnan %a fastmath<nnan> : f32
  // CHECK-NEXT: %3 = math.isnormal %arg0 : f32
  %3 = math.isnormal %a : f32
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @integer(
func.func @integer(%i: i32, %v: vector<4xi8>, %x: index) {
  // CHECK-NEXT: %0 = math.absi %arg0 : i32
  %0 = math.absi %i : i32
  // CHECK-NEXT: %1 = math.ctlz %arg1 : vector<4xi8>
  %1 = math.ctlz %v : vector<4xi8>
  // CHECK-NEXT: %2 = math.cttz %arg0 : i32
  %2 = math.cttz %i : i32
  // CHECK-NEXT: %3 = math.ctpop %arg2 : index
  %3 = math.ctpop %x : index
  // CHECK-NEXT: %4 = math.ipowi %arg0, %arg0 : i32
  %4 = math.ipowi %i, %i : i32
  // CHECK-NEXT: %5 = math.ipowi %arg2, %arg2 {tag} : index
  %5 = math.ipowi %x, %x {tag} : index
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @generic_input(
func.func @generic_input(%a: f32) {
  // CHECK-NEXT: %0 = math.sin %arg0 fastmath<ninf> : f32
  %0 = "math.sin"(%a) <{fastmath = #arith.fastmath<ninf>}> : (f32) -> f32
  // CHECK-NEXT: %sin, %cos = math.sincos %arg0 : f32
  %1:2 = "math.sincos"(%a) : (f32) -> (f32, f32)
  // CHECK-NEXT: %1 = math.isnan %arg0 : f32
  %2 = "math.isnan"(%a) : (f32) -> i1
  // CHECK-NEXT: return
  return
}
