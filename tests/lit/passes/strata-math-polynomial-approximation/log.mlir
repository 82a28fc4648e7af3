// RUN: strata-opt %s --strata-math-polynomial-approximation | filecheck %s

// log: subnormals scaled by 2**23, x = 2**k (1 + f) by integer arithmetic on the bits
// (0x3F3504F3 = 1060439283 is f32 sqrt(1/2)), a polynomial in f, then the special values
// (x < 0 or NaN: NaN, 0: -inf, +inf: +inf).

// CHECK-LABEL: func.func @log(%arg0: f32) -> f32
// CHECK:         %[[MIN:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK:         %[[SUB:.*]] = arith.cmpf olt, %arg0, %[[MIN]] : f32
// CHECK:         arith.constant 0x4B000000 : f32
// CHECK:         %[[XS:.*]] = arith.select %[[SUB]], %{{.*}}, %arg0 : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[XS]] : f32 to i32
// CHECK:         %[[SQ:.*]] = arith.constant 1060439283 : i32
// CHECK:         %[[IX:.*]] = arith.subi %[[BITS]], %[[SQ]] : i32
// CHECK:         %[[E:.*]] = arith.shrsi %[[IX]], %{{.*}} : i32
// CHECK:         arith.sitofp %[[E]] : i32 to f32
// CHECK:         arith.andi %[[IX]], %{{.*}} : i32
// CHECK:         arith.addi %{{.*}}, %[[SQ]] : i32
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK-COUNT-8: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK:         arith.cmpf ult, %arg0, %{{.*}} : f32
// CHECK:         arith.constant 0x7FC00000 : f32
// CHECK:         arith.cmpf oeq, %arg0, %{{.*}} : f32
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         arith.constant 0x7F800000 : f32
// CHECK:         %[[R:.*]] = arith.select
// CHECK-NEXT:    return %[[R]] : f32
// CHECK-NOT:     math.log
func.func @log(%x: f32) -> f32 {
  %0 = math.log %x : f32
  return %0 : f32
}

// log1p adds the rounding error of 1 + x (Fast2Sum) divided by 1 + x.
// CHECK-LABEL: func.func @log_family(%arg0: f32) -> (f32, f32, f32)
// CHECK:         arith.bitcast
// CHECK:         arith.bitcast
// CHECK:         %[[U:.*]] = arith.addf %arg0, %{{.*}} fastmath<contract> : f32
// CHECK:         arith.cmpf oge, %arg0, %{{.*}} : f32
// CHECK:         arith.divf %{{.*}}, %[[U]] fastmath<contract> : f32
// CHECK-NOT:     math.log
func.func @log_family(%x: f32) -> (f32, f32, f32) {
  %0 = math.log2 %x : f32
  %1 = math.log10 %x : f32
  %2 = math.log1p %x : f32
  return %0, %1, %2 : f32, f32, f32
}
