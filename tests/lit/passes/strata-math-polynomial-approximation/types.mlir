// RUN: strata-opt %s --strata-math-polynomial-approximation | filecheck %s
// RUN: strata-opt %s --strata-math-polynomial-approximation=ops=erf \
// RUN:   | filecheck %s --check-prefix=ERF
// RUN: strata-opt %s \
// RUN:   --pass-pipeline='builtin.module(strata-math-polynomial-approximation{ops=tanh,exp})' \
// RUN:   | filecheck %s --check-prefix=SOME

// f16 and bf16 compute in f32 (extended, truncated back); f64 keeps math ops (the C
// library's double functions); ops without an approximation are left alone.

// CHECK-LABEL: func.func @types(%arg0: f16, %arg1: vector<4xbf16>, %arg2: f64, %arg3: f32)
// CHECK:         %[[X:.*]] = arith.extf %arg0 : f16 to f32
// CHECK:         math.roundeven %{{.*}} : f32
// CHECK:         %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:         arith.extf %arg1 : vector<4xbf16> to vector<4xf32>
// CHECK:         arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK:         math.erf %arg2 : f64
// CHECK:         math.sin %arg3 : f32
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.erf %{{.*}} : f32

// ERF-LABEL: func.func @types
// ERF:         math.exp %arg0 : f16
// ERF:         math.tanh %arg1 : vector<4xbf16>
// ERF:         math.erf %arg2 : f64
// ERF:         math.sin %arg3 : f32
// ERF-NOT:     math.erf %{{.*}} : f32

// SOME-LABEL: func.func @types
// SOME-NOT:    math.exp
// SOME-NOT:    math.tanh
// SOME:        math.erf %arg2 : f64
// SOME:        math.sin %arg3 : f32
// SOME:        math.erf %arg3 : f32
func.func @types(%a: f16, %b: vector<4xbf16>, %c: f64, %d: f32)
    -> (f16, vector<4xbf16>, f64, f32, f32) {
  %0 = math.exp %a : f16
  %1 = math.tanh %b : vector<4xbf16>
  %2 = math.erf %c : f64
  %3 = math.sin %d : f32
  %4 = math.erf %d : f32
  return %0, %1, %2, %3, %4 : f16, vector<4xbf16>, f64, f32, f32
}
