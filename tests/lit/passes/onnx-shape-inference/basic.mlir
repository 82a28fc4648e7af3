// RUN: strata-opt %s --onnx-shape-inference=fold-known=false | filecheck %s
// (Types only: fold_known.mlir has the known values becoming constants.)

module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {

// Results get their shapes from their operands; the function returns what it computes.
// The `?` dim is one size throughout: a fresh symbol (the argument names none).
// CHECK-LABEL: func.func @mlp(%arg0: tensor<?x4xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<8xf32>) -> tensor<?x8xf32>
func.func @mlp(%x: tensor<?x4xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<*xf32> {
  // CHECK-NEXT: "onnx.MatMul"(%arg0, %arg1) {onnx.dim_params = ["?1", ""]} : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Add"(%0, %arg2) {onnx.dim_params = ["?1", ""]} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<*xf32>, tensor<8xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Relu"(%1) {onnx.dim_params = ["?1", ""]} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = "onnx.Relu"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: return %2 : tensor<?x8xf32>
  return %2 : tensor<*xf32>
}

// Static dims already there stay; unknown ones are filled in.
// CHECK-LABEL: func.func @refine
func.func @refine(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // CHECK-NEXT: -> tensor<2x3xf32>
  %0 = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// Element types come from the schema: comparisons give i1, Cast its `to`.
// CHECK-LABEL: func.func @elements
func.func @elements(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<*xi1>, tensor<*xi64>) {
  // CHECK-NEXT: "onnx.Less"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = "onnx.Less"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xi1>
  // CHECK-NEXT: "onnx.Cast"(%arg0) <{to = 7 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xi64>
  %1 = "onnx.Cast"(%x) <{to = 7 : i64}> : (tensor<2x3xf32>) -> tensor<*xi64>
  return %0, %1 : tensor<*xi1>, tensor<*xi64>
}

// CHECK-LABEL: func.func @conv_pool
func.func @conv_pool(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<*xf32> {
  // CHECK-NEXT: "onnx.Conv"(%arg0, %arg1, %arg2) {{.*}} -> tensor<1x16x16x16xf32>
  %0 = "onnx.Conv"(%x, %w, %b) <{pads = [1, 1, 1, 1], strides = [2, 2]}> : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.MaxPool"(%0) {{.*}} -> tensor<1x16x8x8xf32>
  %1 = "onnx.MaxPool"(%0) <{kernel_shape = [2, 2], strides = [2, 2]}> : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.GlobalAveragePool"(%1) {{.*}} -> tensor<1x16x1x1xf32>
  %2 = "onnx.GlobalAveragePool"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Flatten"(%2) {{.*}} -> tensor<1x16xf32>
  %3 = "onnx.Flatten"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// Constant operands: reshape targets, slice bounds, axes.
// CHECK-LABEL: func.func @constants
func.func @constants(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %shape = "onnx.Constant"() <{value = dense<[0, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Reshape"{{.*}} -> tensor<2x12xf32>
  %0 = "onnx.Reshape"(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  %starts = "onnx.Constant"() <{value_ints = [1]}> : () -> tensor<1xi64>
  %ends = "onnx.Constant"() <{value_ints = [100]}> : () -> tensor<1xi64>
  %axes = "onnx.Constant"() <{value_ints = [1]}> : () -> tensor<1xi64>
  // CHECK: "onnx.Slice"{{.*}} -> tensor<2x11xf32>
  %1 = "onnx.Slice"(%0, %starts, %ends, %axes) : (tensor<*xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  // CHECK: "onnx.Unsqueeze"{{.*}} -> tensor<2x1x11xf32>
  %2 = "onnx.Unsqueeze"(%1, %axes) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %axis2 = "onnx.Constant"() <{value_ints = [2]}> : () -> tensor<1xi64>
  // CHECK: "onnx.ReduceMean"{{.*}} -> tensor<2x1xf32>
  %3 = "onnx.ReduceMean"(%2, %axis2) <{keepdims = 0 : i64}> : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// Shape computations are followed element by element (ONNX's data propagation):
// Reshape(x, Concat(Shape(x)[0], [-1])) keeps the batch dim and computes the rest.
// CHECK-LABEL: func.func @shape_arithmetic
func.func @shape_arithmetic(%x: tensor<5x?x8xf32>, %y: tensor<6x2x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: "onnx.Shape"(%arg1) : (tensor<6x2x4xf32>) -> tensor<3xi64>
  %s = "onnx.Shape"(%y) : (tensor<6x2x4xf32>) -> tensor<*xi64>
  %zero = "onnx.Constant"() <{value_int = 0 : i64}> : () -> tensor<i64>
  // CHECK-NEXT: onnx.Constant
  // CHECK-NEXT: "onnx.Gather"(%0, %1) <{axis = 0 : i64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %n = "onnx.Gather"(%s, %zero) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %zero1 = "onnx.Constant"() <{value_ints = [0]}> : () -> tensor<1xi64>
  // CHECK-NEXT: onnx.Constant
  // CHECK-NEXT: "onnx.Unsqueeze"{{.*}} -> tensor<1xi64>
  %n1 = "onnx.Unsqueeze"(%n, %zero1) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m1 = "onnx.Constant"() <{value_ints = [-1]}> : () -> tensor<1xi64>
  // CHECK: "onnx.Concat"{{.*}} -> tensor<2xi64>
  %target = "onnx.Concat"(%n1, %m1) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK-NEXT: "onnx.Reshape"(%arg1, %{{.*}}) : (tensor<6x2x4xf32>, tensor<2xi64>) -> tensor<6x8xf32>
  %r = "onnx.Reshape"(%y, %target) : (tensor<6x2x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  // Dynamic dims stay `?`, known ones are kept through the arithmetic.
  // CHECK: "onnx.Shape"(%arg0) : (tensor<5x?x8xf32>) -> tensor<3xi64>
  %sx = "onnx.Shape"(%x) : (tensor<5x?x8xf32>) -> tensor<*xi64>
  %two = "onnx.Constant"() <{value = dense<[1, 1, 2]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK: "onnx.Mul"{{.*}} -> tensor<3xi64>
  %t = "onnx.Mul"(%sx, %two) : (tensor<*xi64>, tensor<3xi64>) -> tensor<*xi64>
  %f = "onnx.Constant"() <{value = dense<1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: "onnx.Expand"{{.*}} -> tensor<5x?x16xf32>
  %e = "onnx.Expand"(%f, %t) : (tensor<1xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r, %e : tensor<*xf32>, tensor<*xf32>
}

// Where on shape values: an element whose condition is unknown is still known when both
// branches agree (torch's `mask.expand(batch, -1, s, s)`: Where(Equal(t, -1), 1, t)),
// so the Expand keeps the mask's static 1.
// CHECK-LABEL: func.func @where_of_shape_values
func.func @where_of_shape_values(%m: tensor<?x1x1x5xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%m) : (tensor<?x1x1x5xf32>) -> tensor<*xi64>
  %zero = "onnx.Constant"() <{value_ints = [0]}> : () -> tensor<1xi64>
  %b = "onnx.Gather"(%s, %zero) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %rest = "onnx.Constant"() <{value = dense<[-1, 5, 5]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %t = "onnx.Concat"(%b, %rest) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<3xi64>) -> tensor<*xi64>
  %neg = "onnx.Constant"() <{value = dense<-1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %ones = "onnx.Constant"() <{value = dense<1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %c = "onnx.Equal"(%t, %neg) : (tensor<*xi64>, tensor<4xi64>) -> tensor<*xi1>
  %w = "onnx.Where"(%c, %ones, %t) : (tensor<*xi1>, tensor<4xi64>, tensor<*xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Expand"{{.*}} -> tensor<?x1x5x5xf32>
  %e = "onnx.Expand"(%m, %w) : (tensor<?x1x1x5xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %e : tensor<*xf32>
}

}
