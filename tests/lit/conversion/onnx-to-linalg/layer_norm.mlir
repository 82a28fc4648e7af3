// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// LayerNormalization over the tokens' channels, lowered whole: the sum and the sum of
// squared deviations reduce X's last dim into [batch, tokens] (no flatten), then one
// parallel generic normalizes, scales and shifts; the result keeps X's dynamic batch
// (tensor.dim of X, no computed quotient).
// CHECK-DAG: #[[FULL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @tokens
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: linalg.generic {indexing_maps = [#[[FULL]], #[[ROWS]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<?x16x32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[FULL]], #[[ROWS]], #[[ROWS]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: math.sqrt
// CHECK: tensor.empty(%[[N]]) : tensor<?x16x32xf32>
// CHECK: linalg.generic {indexing_maps = [#[[FULL]], #[[ROWS]], #[[ROWS]], #[[CH]], #[[CH]], #[[FULL]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @tokens(%x: tensor<?x16x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x16x32xf32> {
  %0 = "onnx.LayerNormalization"(%x, %s, %b) <{axis = -1 : i64, epsilon = 1.0e-05 : f32}> : (tensor<?x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x16x32xf32>
  return %0 : tensor<?x16x32xf32>
}
