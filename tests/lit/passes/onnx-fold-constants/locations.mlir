// RUN: strata-opt %s --onnx-fold-constants --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s

// A folded op's constants keep its location, fused or not.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// CHECK-LABEL: func.func @located
func.func @located() -> (tensor<2xi64>, tensor<2x3xf32>) {
  // CHECK-NEXT: %[[S:.*]] = "onnx.Constant"() <{value = dense<[2, 3]> : tensor<2xi64>}> : () -> tensor<2xi64> loc("shape_node")
  // CHECK-NEXT: %[[N:.*]] = "onnx.Constant"() <{value = dense<-0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32> loc(fused["neg", "a.onnx":3:4])
  // CHECK-NEXT: return %[[S]], %[[N]]
  %x = "onnx.Constant"() <{value = dense<0.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32> loc("x")
  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64> loc("shape_node")
  %n = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc(fused["neg", "a.onnx":3:4])
  return %s, %n : tensor<2xi64>, tensor<2x3xf32>
}
}
