// RUN: not strata-opt %s --split-input-file --convert-onnx-to-linalg 2>&1 | filecheck %s

// An op without a lowering fails the whole conversion at its location, with the reason.
// CHECK: unlowerable.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'onnx.ImageDecoder'
// CHECK: note: pattern '_LowerOnnxOp' did not apply: no lowering for this op
func.func @no_lowering(%a: tensor<4xui8>) -> tensor<?x?x?xui8> {
  %0 = "onnx.ImageDecoder"(%a) : (tensor<4xui8>) -> tensor<?x?x?xui8>
  return %0 : tensor<?x?x?xui8>
}

// -----

// A result type whose static dims contradict what the op computes (ONNX's shape
// inference counts this ceil_mode window that starts past the input; a cast would make
// a wrong buffer of it) is refused at the op.
// CHECK: unlowerable.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'onnx.MaxPool'
// CHECK: note: pattern '_LowerOnnxOp' did not apply: it computes tensor<1x1x1x2xf32> where result #0 is typed tensor<1x1x2x2xf32>
func.func @contradicting_type(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = "onnx.MaxPool"(%x) <{ceil_mode = 1 : si64, kernel_shape = [1, 2], strides = [2, 2]}> : (tensor<1x1x2x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}
