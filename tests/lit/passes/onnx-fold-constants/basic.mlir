// RUN: strata-opt %s --onnx-fold-constants --split-input-file | filecheck %s

// A shape computation on a constant folds in one walk: Shape -> Gather -> Concat ->
// Reshape all become constants (with the op's location), and the operand constants
// that lose their last use go.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// CHECK-LABEL: func.func @chain
func.func @chain() -> tensor<3x2xf32> {
  // CHECK-NEXT: %[[C:.*]] = "onnx.Constant"() <{value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>}> : () -> tensor<3x2xf32>
  // CHECK-NEXT: return %[[C]] : tensor<3x2xf32>
  %x = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %i = "onnx.Constant"() <{value = dense<[1, 0]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %g = "onnx.Gather"(%s, %i) <{axis = 0 : i64}> : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %c = "onnx.Concat"(%g) <{axis = 0 : i64}> : (tensor<2xi64>) -> tensor<2xi64>
  %r = "onnx.Reshape"(%x, %c) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// An omitted optional input (onnx.NoValue) is a constant too (no `min`: only `max` clips).
// CHECK-LABEL: func.func @novalue
func.func @novalue() -> tensor<3xf32> {
  // CHECK-NEXT: %[[C:.*]] = "onnx.Constant"() <{value = dense<[-1.000000e+00, 5.000000e-01, 1.000000e+00]> : tensor<3xf32>}>
  // CHECK-NEXT: return %[[C]]
  %x = "onnx.Constant"() <{value = dense<[-1.0, 0.5, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %n = "onnx.NoValue"() : () -> none
  %m = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "onnx.Clip"(%x, %n, %m) : (tensor<3xf32>, none, tensor<f32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// Ops with an operand that is not a constant stay; their constant operands feed them.
// (The Shape of a tensor of static type is a constant: shape-arithmetic.mlir.)
// CHECK-LABEL: func.func @not_constant
func.func @not_constant(%a: tensor<2x3xf32>, %d: tensor<?x3xf32>) -> (tensor<3x2xf32>, tensor<2xi64>) {
  // CHECK-NEXT: %[[X:.*]] = "onnx.Constant"() <{value = dense<[3, 2]> : tensor<2xi64>}>
  // CHECK-NEXT: %[[R:.*]] = "onnx.Reshape"(%arg0, %[[X]])
  // CHECK-NEXT: %[[S:.*]] = "onnx.Shape"(%arg1)
  // CHECK-NEXT: return %[[R]], %[[S]]
  %x = "onnx.Constant"() <{value = dense<[3, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%a, %x) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %s = "onnx.Shape"(%d) : (tensor<?x3xf32>) -> tensor<2xi64>
  return %r, %s : tensor<3x2xf32>, tensor<2xi64>
}

// Random ops stay even with constant operands; so does a Dropout in training mode,
// while one in inference mode folds.
// CHECK-LABEL: func.func @random
func.func @random() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK: "onnx.RandomNormal"()
  // CHECK: "onnx.RandomUniformLike"
  // CHECK: "onnx.Dropout"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<f32>, tensor<i1>)
  // CHECK-NOT: "onnx.Dropout"
  // CHECK: return
  %0 = "onnx.RandomNormal"() <{shape = [2, 2]}> : () -> tensor<2x2xf32>
  %x = "onnx.Constant"() <{value = dense<1.0> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %1 = "onnx.RandomUniformLike"(%x) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %v = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %r = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %f = "onnx.Constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %2 = "onnx.Dropout"(%v, %r, %t) : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> tensor<3xf32>
  %3 = "onnx.Dropout"(%v, %r, %f) : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<3xf32>, tensor<3xf32>
}

// Results that are not static numeric tensors, or too large, are not folded.
// CHECK-LABEL: func.func @not_static
func.func @not_static() -> (tensor<?xi64>, tensor<*xf32>) {
  // CHECK: "onnx.Shape"
  // CHECK: "onnx.Neg"
  %x = "onnx.Constant"() <{value = dense<0.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<?xi64>
  %n = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<*xf32>
  return %s, %n : tensor<?xi64>, tensor<*xf32>
}
}

// -----

// max-elements bounds the size of each folded result.
// RUN: strata-opt %s --onnx-fold-constants=max-elements=4 --split-input-file | filecheck %s --check-prefix=SMALL
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// SMALL-LABEL: func.func @sizes
func.func @sizes() -> (tensor<2xi64>, tensor<2x3xf32>) {
  // SMALL: "onnx.Constant"() <{value = dense<[2, 3]> : tensor<2xi64>}>
  // SMALL: "onnx.Neg"
  %x = "onnx.Constant"() <{value = dense<1.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %s = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %n = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s, %n : tensor<2xi64>, tensor<2x3xf32>
}
}
