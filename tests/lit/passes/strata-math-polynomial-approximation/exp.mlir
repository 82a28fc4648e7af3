// RUN: strata-opt %s --strata-math-polynomial-approximation | filecheck %s

// exp: Cody-Waite reduction by k = roundeven(x log2(e)), a polynomial, 2**k from the
// exponent bits in two factors, NaN passed through. Only arith and math ops that lower
// to instructions: no math.exp (a library call) is left.

// CHECK-LABEL: func.func @exp_scalar(%arg0: f32) -> f32
// CHECK-DAG:     %[[LO:.*]] = arith.constant -1.040000e+02 : f32
// CHECK:         %[[C1:.*]] = arith.cmpf olt, %arg0, %[[LO]] : f32
// CHECK:         %[[X1:.*]] = arith.select %[[C1]], %[[LO]], %arg0 : f32
// CHECK:         %[[HI:.*]] = arith.constant 8.900000e+01 : f32
// CHECK:         %[[C2:.*]] = arith.cmpf ogt, %[[X1]], %[[HI]] : f32
// CHECK:         %[[X:.*]] = arith.select %[[C2]], %[[HI]], %[[X1]] : f32
// CHECK:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK:         %[[T:.*]] = arith.mulf %[[X]], %[[LOG2E]] fastmath<contract> : f32
// CHECK:         %[[K:.*]] = math.roundeven %[[T]] : f32
// CHECK:         arith.constant 0.693145751 : f32
// CHECK:         arith.constant 1.42860677E-6 : f32
// CHECK-COUNT-5: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK:         %[[KI:.*]] = arith.fptosi %[[K]] : f32 to i32
// CHECK:         arith.shrsi %[[KI]], %{{.*}} : i32
// CHECK:         arith.shli
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK:         arith.shli
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[Y:.*]] = arith.mulf
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// CHECK:         %[[R:.*]] = arith.select %[[NAN]], %arg0, %[[Y]] : f32
// CHECK:         return %[[R]] : f32
// CHECK-NOT:     math.exp
func.func @exp_scalar(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// Vectors: the same ops on vectors, splat constants.
// CHECK-LABEL: func.func @exp_vector(%arg0: vector<8xf32>) -> vector<8xf32>
// CHECK:         arith.constant dense<-1.040000e+02> : vector<8xf32>
// CHECK:         math.roundeven %{{.*}} : vector<8xf32>
// CHECK:         arith.fptosi %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK:         arith.constant dense<127> : vector<8xi32>
// CHECK:         arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:         arith.cmpf uno, %arg0, %arg0 : vector<8xf32>
// CHECK-NOT:     math.exp
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// exp2 reduces by k = roundeven(x); expm1 keeps tiny |x| (and NaN) as is.
// CHECK-LABEL: func.func @exp2_expm1(%arg0: f32) -> (f32, f32)
// CHECK:         arith.constant -1.510000e+02 : f32
// CHECK:         math.roundeven %{{.*}} : f32
// CHECK:         arith.constant -1.800000e+01 : f32
// CHECK:         %[[A:.*]] = math.absf %arg0 : f32
// CHECK:         %[[TINY:.*]] = arith.constant 2.98023224E-8 : f32
// CHECK:         %[[C:.*]] = arith.cmpf ult, %[[A]], %[[TINY]] : f32
// CHECK:         arith.select %[[C]], %arg0, %{{.*}} : f32
// CHECK-NOT:     math.exp
func.func @exp2_expm1(%x: f32) -> (f32, f32) {
  %0 = math.exp2 %x : f32
  %1 = math.expm1 %x : f32
  return %0, %1 : f32, f32
}
