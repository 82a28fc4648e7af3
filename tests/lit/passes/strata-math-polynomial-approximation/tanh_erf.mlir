// RUN: strata-opt %s --strata-math-polynomial-approximation | filecheck %s

// tanh: a polynomial below 0.625, 1 - 2 / (exp(2|x|) + 1) above, the sign copied back.
// CHECK-LABEL: func.func @tanh(%arg0: f32) -> f32
// CHECK:         %[[A:.*]] = math.absf %arg0 : f32
// CHECK:         math.roundeven
// CHECK:         arith.divf
// CHECK:         %[[C:.*]] = arith.cmpf ult, %[[A]], %{{.*}} : f32
// CHECK:         %[[T:.*]] = arith.select %[[C]], %{{.*}}, %{{.*}} : f32
// CHECK:         %[[R:.*]] = math.copysign %[[T]], %arg0 : f32
// CHECK:         return %[[R]] : f32
// CHECK-NOT:     math.tanh
func.func @tanh(%x: f32) -> f32 {
  %0 = math.tanh %x : f32
  return %0 : f32
}

// erf: the constants of |x|'s interval selected (bounds 1.0 and 2.2), one polynomial,
// 1 from 3.92 on, the sign copied back; no division, no exp.
// CHECK-LABEL: func.func @erf(%arg0: f32) -> f32
// CHECK:         %[[A:.*]] = math.absf %arg0 : f32
// CHECK:         %[[B2:.*]] = arith.constant 2.200000e+00 : f32
// CHECK:         %[[C2:.*]] = arith.cmpf olt, %[[A]], %[[B2]] : f32
// CHECK-COUNT-11: arith.select %[[C2]]
// CHECK:         %[[B1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[C1:.*]] = arith.cmpf olt, %[[A]], %[[B1]] : f32
// CHECK-COUNT-11: arith.select %[[C1]]
// CHECK:         %[[TOP:.*]] = arith.constant 3.920000e+00 : f32
// CHECK:         %[[BIG:.*]] = arith.cmpf oge, %[[A]], %[[TOP]] : f32
// CHECK:         %[[Y:.*]] = arith.select %[[BIG]], %[[B1]], %{{.*}} : f32
// CHECK:         %[[R:.*]] = math.copysign %[[Y]], %arg0 : f32
// CHECK:         return %[[R]] : f32
// CHECK-NOT:     math.erf
// CHECK-NOT:     arith.divf
func.func @erf(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}
