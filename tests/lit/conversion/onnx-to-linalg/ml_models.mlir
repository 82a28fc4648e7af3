// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// LabelEncoder with numeric keys: a compare/select chain from the default, elementwise.
// CHECK-LABEL: func.func @label
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4xi64>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[D:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[C1:.*]] = arith.cmpi eq, %in, %{{.*}} : i64
// CHECK: %[[S1:.*]] = arith.select %[[C1]], %{{.*}}, %[[D]] : f32
// CHECK: %[[C2:.*]] = arith.cmpi eq, %in, %{{.*}} : i64
// CHECK: %[[S2:.*]] = arith.select %[[C2]], %{{.*}}, %[[S1]] : f32
// CHECK: linalg.yield %[[S2]] : f32
// CHECK-NOT: onnx.
module attributes {onnx.opset_import = {ai.onnx = 21 : i64, ai.onnx.ml = 4 : i64}} {
  func.func @label(%x: tensor<4xi64>) -> tensor<4xf32> {
    %0 = "onnx.LabelEncoder"(%x) <{keys_int64s = [1 : i64, 2 : i64], values_floats = [5.000000e-01 : f32, 1.500000e+00 : f32]}> : (tensor<4xi64>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
