// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// One-sided DFT of a real signal of static length: a product with a constant table
// [samples, bins * 2] of the twiddles cos/sin of 2*pi*((k * n) mod N)/N, built at compile
// time ([Note: twiddle tables]); the signals collapsed to rows, the bins' real and
// imaginary parts expanded back.
// CHECK-LABEL: func.func @dft
// CHECK: %[[T:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, -0.000000e+00, 1.000000e+00, {{.*}}], [1.000000e+00, -0.000000e+00, 0.707106{{[0-9]*}}, -0.707106{{[0-9]*}}, {{.*}} : tensor<8x10xf32>
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1, 2]] : tensor<2x8x1xf32> into tensor<2x8xf32>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[T]] : tensor<2x8xf32>, tensor<8x10xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [2, 5, 2] : tensor<2x10xf32> into tensor<2x5x2xf32>
// CHECK-NOT: math.cos
func.func @dft(%x: tensor<2x8x1xf32>) -> tensor<2x5x2xf32> {
  %0 = "onnx.DFT"(%x) <{onesided = 1 : i64}> : (tensor<2x8x1xf32>) -> tensor<2x5x2xf32>
  return %0 : tensor<2x5x2xf32>
}

// A signal of run-time length: a reduction with f64 sums, the twiddles of
// ((k * n) mod N) computed in the loop.
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
