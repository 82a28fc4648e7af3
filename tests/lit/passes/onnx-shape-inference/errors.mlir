// RUN: strata-opt %s --split-input-file --verify-diagnostics --onnx-shape-inference

func.func @broadcast(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.Add' op shape inference failed: dims 3 and 4 cannot be broadcast together}}
  // expected-note @+1 {{while running pass 'onnx-shape-inference'}}
  %0 = "onnx.Add"(%a, %b) : (tensor<3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.MatMul' op shape inference failed: contracted dims 3 and 4 differ}}
  // expected-note @+1 {{while running pass 'onnx-shape-inference'}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() <{value = dense<[4, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Reshape' op shape inference failed: cannot reshape 6 elements into 8}}
  // expected-note @+1 {{while running pass 'onnx-shape-inference'}}
  %0 = "onnx.Reshape"(%a, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A declared type that contradicts the inferred one is kept, with a warning.
func.func @contradiction(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-warning @+1 {{'onnx.Relu' op result #0 has type 'tensor<3x2xf32>' but shape inference inferred 'tensor<2x3xf32>'}}
  %0 = "onnx.Relu"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @onnx_error(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<*xf32> {
  // expected-warning @+1 {{'onnx.Einsum' op: onnx shape inference failed:}}
  %0 = "onnx.Einsum"(%a, %b) <{equation = "ij,jkl->ik"}> : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
