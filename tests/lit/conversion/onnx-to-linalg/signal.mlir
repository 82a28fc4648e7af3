// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// One-sided DFT of a real signal: a reduction over the samples, the last result dim
// picking the real or imaginary part. N is static: the f64 twiddles cos/sin of
// 2*pi*((k * n) mod N)/N are constant [bins, samples] tables read along (k, n)
// ([Note: twiddle tables]), no trigonometry at run time.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, 0)>
// CHECK-DAG: #[[TW:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @dft
// CHECK: %[[COS:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, {{.*}}], [1.000000e+00, 0.70710678118654757, {{.*}} : tensor<5x8xf64>
// CHECK: %[[SIN:.*]] = arith.constant dense<{{\[\[}}0.000000e+00, {{.*}}], [0.000000e+00, 0.70710678118654746, {{.*}} : tensor<5x8xf64>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[TW]], #[[TW]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %[[COS]], %[[SIN]] : tensor<2x8x1xf32>, tensor<5x8xf64>, tensor<5x8xf64>) outs(%{{.*}} : tensor<2x5x2xf64>)
// CHECK-NOT: math.cos
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @dft(%x: tensor<2x8x1xf32>) -> tensor<2x5x2xf32> {
  %0 = "onnx.DFT"(%x) <{onesided = 1 : i64}> : (tensor<2x8x1xf32>) -> tensor<2x5x2xf32>
  return %0 : tensor<2x5x2xf32>
}

// A signal of run-time length: the twiddles of ((k * n) mod N) computed in the loop.
// CHECK-LABEL: func.func @dft_dynamic
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x?x1xf32>) outs(%{{.*}} : tensor<2x?x2xf64>)
// CHECK: arith.muli
// CHECK: arith.remui
// CHECK: math.cos %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f64
func.func @dft_dynamic(%x: tensor<2x?x1xf32>) -> tensor<2x?x2xf32> {
  %0 = "onnx.DFT"(%x) : (tensor<2x?x1xf32>) -> tensor<2x?x2xf32>
  return %0 : tensor<2x?x2xf32>
}

// Det: LU with partial pivoting, one loop step per column over the batch.
// CHECK-LABEL: func.func @det
// CHECK: scf.for
// CHECK: math.absf
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4x4xf32>)
// CHECK: arith.divf
// CHECK: arith.negf
// CHECK: scf.yield
func.func @det(%x: tensor<3x4x4xf32>) -> tensor<3xf32> {
  %0 = "onnx.Det"(%x) : (tensor<3x4x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Cast to f8E8M0FNU: the f32 exponent field, rounded up when any fraction bit is set.
// CHECK-LABEL: func.func @cast_e8m0
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E8M0FNU
func.func @cast_e8m0(%x: tensor<4xf32>) -> tensor<4xf8E8M0FNU> {
  %0 = "onnx.Cast"(%x) <{round_mode = "up", to = 24 : i64}> : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}
