// RUN: strata-opt %s --onnx-shape-inference | filecheck %s

module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {

// Segformer's decoder: sizes = Concat(Shape(x)[0:2], hw). The result keeps the input's
// batch symbol and channel count, and takes hw.
// CHECK-LABEL: func.func @sizes_from_the_shape
func.func @sizes_from_the_shape(%x: tensor<?x256x32x32xf32> {onnx.dim_params = ["batch", "", "", ""]}) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<?x256x32x32xf32>) -> tensor<*xi64>
  %z = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %two = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %nc = "onnx.Slice"(%s, %z, %two, %z) : (tensor<*xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %hw = "onnx.Constant"() <{value = dense<[128, 96]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %sz = "onnx.Concat"(%nc, %hw) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %no = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Resize"{{.*}} {onnx.dim_params = ["batch", "", "", ""]} : {{.*}} -> tensor<?x256x128x96xf32>
  %r = "onnx.Resize"(%x, %no, %no, %sz) <{mode = "linear"}> : (tensor<?x256x32x32xf32>, none, none, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// With `axes`, the other dims are the input's; an unknown sizes element is `?`; a
// negative one says nothing (the lowering reports it at the node).
// CHECK-LABEL: func.func @axes_and_unknown_sizes
func.func @axes_and_unknown_sizes(%x: tensor<2x3x8x8xf32>, %h: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>) {
  %w = "onnx.Constant"() <{value = dense<5> : tensor<1xi64>}> : () -> tensor<1xi64>
  %sz = "onnx.Concat"(%h, %w) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %no = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Resize"{{.*}} -> tensor<2x3x?x5xf32>
  %r = "onnx.Resize"(%x, %no, %no, %sz) <{axes = [2, 3], mode = "nearest"}> : (tensor<2x3x8x8xf32>, none, none, tensor<*xi64>) -> tensor<*xf32>
  %neg = "onnx.Constant"() <{value = dense<[-1, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Resize"{{.*}} -> tensor<2x3x?x4xf32>
  %q = "onnx.Resize"(%x, %no, %no, %neg) <{axes = [-2, -1], mode = "nearest"}> : (tensor<2x3x8x8xf32>, none, none, tensor<2xi64>) -> tensor<*xf32>
  return %r, %q : tensor<*xf32>, tensor<*xf32>
}

// Scales, and the aspect-ratio policies, are onnx's inference's.
// CHECK-LABEL: func.func @scales
func.func @scales(%x: tensor<1x3x8x8xf32>) -> tensor<*xf32> {
  %sc = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 0.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %no = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Resize"{{.*}} -> tensor<1x3x16x4xf32>
  %r = "onnx.Resize"(%x, %no, %sc, %no) <{mode = "linear"}> : (tensor<1x3x8x8xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
}
