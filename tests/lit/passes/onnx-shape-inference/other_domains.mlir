// RUN: strata-opt %s --onnx-shape-inference | filecheck %s

// Operators of ai.onnx.ml: Python rules for the elementwise ones, onnx's inference (with
// the module's ai.onnx.ml opset) for the others.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64, ai.onnx.ml = 3 : i64}} {
// CHECK-LABEL: func.func @ml
// CHECK-SAME: -> (tensor<3xi64>, tensor<4x2xf32>, tensor<4x1xf32>)
func.func @ml(%x: tensor<3x!onnx.String>, %f: tensor<4x2xf32>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: "onnx.LabelEncoder"{{.*}} -> tensor<3xi64>
  %0 = "onnx.LabelEncoder"(%x) <{keys_strings = ["a", "b"], values_int64s = [1, 2]}> : (tensor<3x!onnx.String>) -> tensor<*xi64>
  // CHECK-NEXT: "onnx.Normalizer"{{.*}} -> tensor<4x2xf32>
  %1 = "onnx.Normalizer"(%f) <{norm = "L2"}> : (tensor<4x2xf32>) -> tensor<*xf32>
  %i = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  // CHECK: "onnx.ArrayFeatureExtractor"{{.*}} -> tensor<4x1xf32>
  %2 = "onnx.ArrayFeatureExtractor"(%f, %i) : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}
}
