// RUN: strata-opt %s --strata-math-polynomial-approximation | filecheck %s

// math.powf by a constant 2, 3, 4, -1 or -2 becomes products and a division (a
// GELU's x^3 was a scalar libm call per element); other exponents, run-time ones and
// negative powers of vectors stay.
// CHECK-LABEL: func.func @powers(
//  CHECK-SAME: %[[X:.*]]: f32, %[[Y:.*]]: f64, %[[V:.*]]: vector<8xf32>)
//       CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
//       CHECK: %[[SQB:.*]] = arith.mulf %[[X]], %[[X]] : f32
//       CHECK: %[[CUBE:.*]] = arith.mulf %[[SQB]], %[[X]] : f32
//       CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//       CHECK: %[[INV:.*]] = arith.divf %[[ONE]], %[[X]] : f32
//       CHECK: %[[Y2:.*]] = arith.mulf %[[Y]], %[[Y]] : f64
//       CHECK: %[[Y4:.*]] = arith.mulf %[[Y2]], %[[Y2]] : f64
//       CHECK: %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f32
//       CHECK: %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
//       CHECK: %[[INV2:.*]] = arith.divf %[[ONE2]], %[[X2]] : f32
//       CHECK: %[[P25:.*]] = math.powf %[[X]], %{{.*}} : f32
//       CHECK: %[[V2:.*]] = arith.mulf %[[V]], %[[V]] : vector<8xf32>
//       CHECK: %[[V3:.*]] = arith.mulf %[[V2]], %[[V]] : vector<8xf32>
//       CHECK: %[[PX:.*]] = math.powf %[[X]], %[[X]] : f32
//       CHECK: %[[PV:.*]] = math.powf %[[V]], %{{.*}} : vector<8xf32>
//       CHECK: return %[[SQ]], %[[CUBE]], %[[INV]], %[[Y4]], %[[INV2]], %[[P25]], %[[V3]], %[[PX]], %[[PV]]
func.func @powers(%x: f32, %y: f64, %v: vector<8xf32>) -> (f32, f32, f32, f64, f32, f32, vector<8xf32>, f32, vector<8xf32>) {
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm1 = arith.constant -1.0 : f32
  %c4 = arith.constant 4.0 : f64
  %cm2 = arith.constant -2.0 : f32
  %c5 = arith.constant 2.5 : f32
  %cv = arith.constant dense<3.0> : vector<8xf32>
  %cvm = arith.constant dense<-1.0> : vector<8xf32>
  %a = math.powf %x, %c2 : f32
  %b = math.powf %x, %c3 : f32
  %c = math.powf %x, %cm1 : f32
  %d = math.powf %y, %c4 : f64
  %e = math.powf %x, %cm2 : f32
  %f = math.powf %x, %c5 : f32
  %g = math.powf %v, %cv : vector<8xf32>
  %h = math.powf %x, %x : f32
  %i = math.powf %v, %cvm : vector<8xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : f32, f32, f32, f64, f32, f32, vector<8xf32>, f32, vector<8xf32>
}
