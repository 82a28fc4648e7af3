// RUN: not strata-opt %s --convert-onnx-to-linalg 2>&1 | filecheck %s

// An op without a lowering fails the whole conversion at its location, with the reason.
// CHECK: unlowerable.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'onnx.ImageDecoder'
// CHECK: note: pattern '_LowerOnnxOp' did not apply: no lowering for this op
func.func @no_lowering(%a: tensor<4xui8>) -> tensor<?x?x?xui8> {
  %0 = "onnx.ImageDecoder"(%a) : (tensor<4xui8>) -> tensor<?x?x?xui8>
  return %0 : tensor<?x?x?xui8>
}
