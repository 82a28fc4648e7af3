// RUN: strata-opt %s --split-input-file --verify-diagnostics --onnx-shape-inference

// An output_padding of the wrong length is a located error (it used to raise IndexError).
func.func @short_output_padding(%x: tensor<1x4x5x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.ConvTranspose' op shape inference failed: output_padding has 1 values for 2 spatial dims}}
  // expected-note @+1 {{while running pass 'onnx-shape-inference'}}
  %0 = "onnx.ConvTranspose"(%x, %w) <{output_padding = [1]}> : (tensor<1x4x5x6xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @long_output_padding(%x: tensor<1x4x5x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.ConvTranspose' op shape inference failed: output_padding has 3 values for 2 spatial dims}}
  // expected-note @+1 {{while running pass 'onnx-shape-inference'}}
  %0 = "onnx.ConvTranspose"(%x, %w) <{output_padding = [1, 1, 1], strides = [2, 2]}> : (tensor<1x4x5x6xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The right length is used.
func.func @output_padding(%x: tensor<1x4x5x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x12x13xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w) <{output_padding = [1, 0], strides = [2, 2]}> : (tensor<1x4x5x6xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  %1 = "onnx.Identity"(%0) : (tensor<*xf32>) -> tensor<1x2x12x13xf32>
  return %1 : tensor<1x2x12x13xf32>
}
