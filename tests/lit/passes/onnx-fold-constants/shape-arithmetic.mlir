// RUN: strata-opt %s --onnx-fold-constants --split-input-file | filecheck %s

// The exporter's shape arithmetic on data that is not a constant but has a static type:
// Shape of the data is a constant, and the chain after it (Gather, Unsqueeze typed
// with a `?` dim, Concat, Cast, Div) folds in the same walk to a constant of static
// type; the Reshape keeps the data and takes the constant shape.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// CHECK-LABEL: func.func @exporter_chain
func.func @exporter_chain(%x: tensor<1x56x56x96xf32>) -> tensor<?x?x?xf32> {
  // CHECK-NEXT: %[[Y:.*]] = "onnx.Relu"(%arg0)
  // CHECK-NEXT: %[[S:.*]] = "onnx.Constant"() <{value = dense<[1, 3136, 96]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK-NEXT: %[[R:.*]] = "onnx.Reshape"(%[[Y]], %[[S]]) : (tensor<1x56x56x96xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: return %[[R]]
  %y = "onnx.Relu"(%x) : (tensor<1x56x56x96xf32>) -> tensor<1x56x56x96xf32>
  %s = "onnx.Shape"(%y) : (tensor<1x56x56x96xf32>) -> tensor<4xi64>
  %c0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %c1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %c2 = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  %c3 = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %n = "onnx.Gather"(%s, %c0) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %h = "onnx.Gather"(%s, %c1) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %w = "onnx.Gather"(%s, %c2) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %ch = "onnx.Gather"(%s, %c3) <{axis = 0 : i64}> : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %hw = "onnx.Mul"(%h, %w) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %hwf = "onnx.Cast"(%hw) <{to = 1 : si64}> : (tensor<i64>) -> tensor<f32>
  %one = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %q = "onnx.Div"(%hwf, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %qi = "onnx.Cast"(%q) <{to = 7 : si64}> : (tensor<f32>) -> tensor<i64>
  %un = "onnx.Unsqueeze"(%n, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<?xi64>
  %uq = "onnx.Unsqueeze"(%qi, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<?xi64>
  %uc = "onnx.Unsqueeze"(%ch, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<*xi64>
  %t = "onnx.Concat"(%un, %uq, %uc) <{axis = 0 : i64}> : (tensor<?xi64>, tensor<?xi64>, tensor<*xi64>) -> tensor<?xi64>
  %r = "onnx.Reshape"(%y, %t) : (tensor<1x56x56x96xf32>, tensor<?xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// Shape with start/end and Size of a static tensor are constants too.
// CHECK-LABEL: func.func @start_end_size
func.func @start_end_size(%x: tensor<2x3x5xf32>) -> (tensor<2xi64>, tensor<1xi64>, tensor<i64>) {
  // CHECK-NEXT: %[[A:.*]] = "onnx.Constant"() <{value = dense<[3, 5]> : tensor<2xi64>}>
  // CHECK-NEXT: %[[B:.*]] = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}>
  // CHECK-NEXT: %[[C:.*]] = "onnx.Constant"() <{value = dense<30> : tensor<i64>}>
  // CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
  %a = "onnx.Shape"(%x) <{start = 1 : i64}> : (tensor<2x3x5xf32>) -> tensor<2xi64>
  %b = "onnx.Shape"(%x) <{start = -2 : i64, end = -1 : i64}> : (tensor<2x3x5xf32>) -> tensor<1xi64>
  %c = "onnx.Size"(%x) : (tensor<2x3x5xf32>) -> tensor<i64>
  return %a, %b, %c : tensor<2xi64>, tensor<1xi64>, tensor<i64>
}

// Not folded: the Shape of a tensor with a `?` dim, and a result whose static type
// would reach an op outside the onnx dialect (here the return of a `?`-typed result).
// CHECK-LABEL: func.func @kept
func.func @kept(%x: tensor<?x3xf32>, %z: tensor<2x3xf32>) -> (tensor<2xi64>, tensor<?xi64>) {
  // CHECK-NEXT: %[[A:.*]] = "onnx.Shape"(%arg0)
  // CHECK-NEXT: %[[B:.*]] = "onnx.Shape"(%arg1) : (tensor<2x3xf32>) -> tensor<?xi64>
  // CHECK-NEXT: return %[[A]], %[[B]]
  %a = "onnx.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi64>
  %b = "onnx.Shape"(%z) : (tensor<2x3xf32>) -> tensor<?xi64>
  return %a, %b : tensor<2xi64>, tensor<?xi64>
}
}

// -----

// A tensor NumPy cannot describe (2^80 elements, no stand-in array): its Shape and
// Size stay as they are (no crash of the pass).
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// CHECK-LABEL: func.func @huge
func.func @huge(%x: tensor<1099511627776x1099511627776xf32>) -> (tensor<2xi64>, tensor<i64>) {
  // CHECK-NEXT: "onnx.Shape"(%arg0)
  // CHECK-NEXT: "onnx.Size"(%arg0)
  %a = "onnx.Shape"(%x) : (tensor<1099511627776x1099511627776xf32>) -> tensor<2xi64>
  %b = "onnx.Size"(%x) : (tensor<1099511627776x1099511627776xf32>) -> tensor<i64>
  return %a, %b : tensor<2xi64>, tensor<i64>
}
}
