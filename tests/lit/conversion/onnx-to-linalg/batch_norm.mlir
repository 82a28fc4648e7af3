// RUN: strata-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize | filecheck %s

// Inference BatchNormalization with constant statistics ([Note: batch norm with constant
// statistics], normalization.py): s = gamma / sqrt(var + eps), t = beta - mean * s are
// computed at compile time (gamma [1, 2], beta [0.5, 1], mean [1, 2], var [3, 0], eps 1:
// s = [0.5, 2], t = [0, -3]); each element is one multiply-add, no sqrt, no division.
// CHECK-LABEL: func.func @constant_stats
//   CHECK-DAG: %[[S:.*]] = arith.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>
//   CHECK-DAG: %[[T:.*]] = arith.constant dense<[0.000000e+00, -3.000000e+00]> : tensor<2xf32>
//       CHECK: linalg.generic {{.*}} ins(%arg0, %[[S]], %[[T]] : tensor<?x2x5xf32>, tensor<2xf32>, tensor<2xf32>)
//  CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
//  CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[X]], %[[A]] : f32
//  CHECK-NEXT:   %[[Y:.*]] = arith.addf %[[M]], %[[B]] : f32
//  CHECK-NEXT:   linalg.yield %[[Y]]
//   CHECK-NOT: math.sqrt
//   CHECK-NOT: arith.divf
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @constant_stats(%x: tensor<?x2x5xf32>) -> tensor<?x2x5xf32> {
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %b = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %n = "onnx.BatchNormalization"(%x, %g, %b, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<?x2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x2x5xf32>
  return %n : tensor<?x2x5xf32>
}
}

// -----

// f16 data with f32 statistics (opset 15's T1 / T2): s and t computed in float64 and
// rounded once to f16.
// CHECK-LABEL: func.func @half
//   CHECK-DAG: arith.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf16>
//   CHECK-DAG: arith.constant dense<[0.000000e+00, -3.000000e+00]> : tensor<2xf16>
//   CHECK-NOT: math.sqrt
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @half(%x: tensor<1x2x5xf16>) -> tensor<1x2x5xf16> {
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %b = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %n = "onnx.BatchNormalization"(%x, %g, %b, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<1x2x5xf16>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5xf16>
  return %n : tensor<1x2x5xf16>
}
}

// -----

// Statistics that are run-time values, and a zero variance with epsilon 0 (s infinite),
// keep the defining formula: (x - mean) / sqrt(var + eps) * gamma + beta per element.
// CHECK-LABEL: func.func @runtime_stats
//       CHECK: math.sqrt
//       CHECK: arith.divf
// CHECK-LABEL: func.func @zero_var
//       CHECK: math.sqrt
//       CHECK: arith.divf
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @s2(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @runtime_stats(%x: tensor<1x2x5xf32>, %m: tensor<2xf32>) -> tensor<1x2x5xf32> {
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %n = "onnx.BatchNormalization"(%x, %s, %s, %m, %s) : (tensor<1x2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5xf32>
  return %n : tensor<1x2x5xf32>
}
func.func @zero_var(%x: tensor<1x2x5xf32>) -> tensor<1x2x5xf32> {
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %z = "onnx.Constant"() <{value = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %n = "onnx.BatchNormalization"(%x, %s, %s, %s, %z) <{epsilon = 0.0 : f32}> : (tensor<1x2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5xf32>
  return %n : tensor<1x2x5xf32>
}
}
