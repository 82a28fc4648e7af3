// RUN: strata-opt %s --convert-onnx-to-linalg --split-input-file | filecheck %s

// Broadcasting: the [3] operand is read at the last loop dim.
// CHECK-LABEL: func.func @add_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID:.*]], #[[$LAST:.*]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// uint8 becomes signless i8 with unsigned arithmetic: divui, and the signature converts.
// CHECK-LABEL: func.func @div_unsigned(%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.divui
func.func @div_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Dynamic dims take their size from the operand.
// CHECK-LABEL: func.func @relu_dynamic
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK: arith.maximumf
func.func @relu_dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = "onnx.Relu"(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func.func @cast_to_int
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @cast_to_int(%a: tensor<4xf32>) -> tensor<4xi8> {
  %0 = "onnx.Cast"(%a) <{to = 3 : i64}> : (tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Reductions: fill with the identity, reduce, then expand_shape for keepdims.
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32)
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @reduce_max(%a: tensor<4x5xf32>) -> tensor<4x1xf32> {
  %axes = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %0 = "onnx.ReduceMax"(%a, %axes) : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
