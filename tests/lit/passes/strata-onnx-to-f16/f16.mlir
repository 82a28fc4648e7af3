// RUN: strata-opt %s --strata-onnx-to-f16 | filecheck %s

// An f32 graph in f16: inputs cast in, outputs cast out (the signature keeps f32),
// globals and constants converted, casts to f32 inside become casts to f16, integer
// tensors untouched.

// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi64>) -> (tensor<?x3xf32>, tensor<2xi64>)
// CHECK-NEXT: %[[X:.*]] = "onnx.Cast"(%arg0) <{to = 10 : i64}> : (tensor<?x4xf32>) -> tensor<?x4xf16>
// CHECK-NEXT: %[[W:.*]] = ml_program.global_load_const @w : tensor<3x4xf16>
// CHECK-NEXT: %[[K:.*]] = "onnx.Constant"() <{value = dense<5.000000e-01> : tensor<3xf16>}> : () -> tensor<3xf16>
// CHECK-NEXT: %[[G:.*]] = "onnx.Gemm"(%[[X]], %[[W]], %[[K]]) <{transB = 1 : i64}> : (tensor<?x4xf16>, tensor<3x4xf16>, tensor<3xf16>) -> tensor<?x3xf16>
// CHECK-NEXT: %[[C:.*]] = "onnx.Cast"(%[[G]]) <{to = 10 : i64}> : (tensor<?x3xf16>) -> tensor<?x3xf16>
// CHECK-NEXT: %[[O:.*]] = "onnx.Cast"(%[[C]]) <{to = 1 : i64}> : (tensor<?x3xf16>) -> tensor<?x3xf32>
// CHECK-NEXT: return %[[O]], %arg1 : tensor<?x3xf32>, tensor<2xi64>
// CHECK: ml_program.global private @w(dense<[{{\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<3x4xf16>) : tensor<3x4xf16>
func.func @main(%x: tensor<?x4xf32>, %shape: tensor<2xi64>) -> (tensor<?x3xf32>, tensor<2xi64>) {
  %w = ml_program.global_load_const @w : tensor<3x4xf32>
  %k = "onnx.Constant"() <{value = dense<0.5> : tensor<3xf32>}> : () -> tensor<3xf32>
  %g = "onnx.Gemm"(%x, %w, %k) <{transB = 1 : i64}> : (tensor<?x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %c = "onnx.Cast"(%g) <{to = 1 : i64}> : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %c, %shape : tensor<?x3xf32>, tensor<2xi64>
}
ml_program.global private @w(dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
