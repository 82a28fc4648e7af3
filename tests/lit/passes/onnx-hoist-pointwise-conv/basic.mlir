// onnx-hoist-pointwise-conv (strata/transforms/onnx_pointwise_conv.py, [Note: a pointwise
// convolution before the resize]): a 1x1 Conv of a channel Concat runs each resized
// input's slice of the filter before its Resize, folded into the token-major projection
// that made the map: L W_i^T = [[1, 2], [3, 4]] [[1, 0], [1, 2]] = [[3, 4], [7, 8]],
// W_i b = [0, -2]; the input that is not resized keeps a Conv by its column [2, 1] and
// the bias [0.5, 0.25]. The old filter and projection go once unread.
// RUN: strata-opt %s --split-input-file --onnx-hoist-pointwise-conv | filecheck %s

// CHECK-LABEL: module
//   CHECK-NOT:   ml_program.global private @L(
//   CHECK-NOT:   ml_program.global private @W(
//       CHECK:   func.func @projection(
//       CHECK:     %[[KW:.*]] = ml_program.global_load_const @pointwise_conv_kept_w : tensor<2x1x1x1xf32>
//       CHECK:     %[[KB:.*]] = ml_program.global_load_const @pointwise_conv_kept_b : tensor<2xf32>
//  CHECK-NEXT:     %[[K:.*]] = "onnx.Conv"(%arg1, %[[KW]], %[[KB]]) {{.*}} -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:     %[[HW:.*]] = ml_program.global_load_const @pointwise_conv_hoisted_w : tensor<2x2xf32>
//  CHECK-NEXT:     %[[P:.*]] = "onnx.MatMul"(%arg0, %[[HW]]) : (tensor<1x4x2xf32>, tensor<2x2xf32>) -> tensor<1x4x2xf32>
//  CHECK-NEXT:     %[[HB:.*]] = ml_program.global_load_const @pointwise_conv_hoisted_b : tensor<2xf32>
//  CHECK-NEXT:     %[[A:.*]] = "onnx.Add"(%[[P]], %[[HB]])
//  CHECK-NEXT:     %[[T:.*]] = "onnx.Transpose"(%[[A]]) <{perm = [0, 2, 1]}> : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
//  CHECK-NEXT:     %[[S:.*]] = "onnx.Constant"() <{value = dense<[1, 2, 2, 2]> : tensor<4xi64>}>
//  CHECK-NEXT:     %[[R:.*]] = "onnx.Reshape"(%[[T]], %[[S]])
//  CHECK-NEXT:     %[[SZ:.*]] = "onnx.Constant"() <{value = dense<[1, 2, 4, 4]> : tensor<4xi64>}>
//  CHECK-NEXT:     %[[U:.*]] = "onnx.Resize"(%[[R]], %{{.*}}, %{{.*}}, %[[SZ]]) <{coordinate_transformation_mode = "half_pixel", mode = "linear"}> : (tensor<1x2x2x2xf32>, none, none, tensor<4xi64>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:     %[[O:.*]] = "onnx.Add"(%[[K]], %[[U]]) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:     %[[Y:.*]] = "onnx.Relu"(%[[O]])
//  CHECK-NEXT:     return %[[Y]]
//       CHECK: dialect_resources
//   CHECK-DAG:     pointwise_conv_hoisted_w: "0x4000000000004040000080400000E04000000041"
//   CHECK-DAG:     pointwise_conv_hoisted_b: "0x4000000000000000000000C0"
//   CHECK-DAG:     pointwise_conv_kept_w: "0x40000000000000400000803F"
//   CHECK-DAG:     pointwise_conv_kept_b: "0x400000000000003F0000803E"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @L(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
ml_program.global private @b(dense<[1.0, -1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @W(dense<[[[[1.0]], [[1.0]], [[2.0]]], [[[0.0]], [[2.0]], [[1.0]]]]> : tensor<2x3x1x1xf32>) : tensor<2x3x1x1xf32>
ml_program.global private @B(dense<[0.5, 0.25]> : tensor<2xf32>) : tensor<2xf32>
func.func @projection(%x: tensor<1x4x2xf32>, %z: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %L = ml_program.global_load_const @L : tensor<2x2xf32>
  %b = ml_program.global_load_const @b : tensor<2xf32>
  %W = ml_program.global_load_const @W : tensor<2x3x1x1xf32>
  %B = ml_program.global_load_const @B : tensor<2xf32>
  %p = "onnx.MatMul"(%x, %L) : (tensor<1x4x2xf32>, tensor<2x2xf32>) -> tensor<1x4x2xf32>
  %a = "onnx.Add"(%b, %p) : (tensor<2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %t = "onnx.Transpose"(%a) <{perm = [0, 2, 1]}> : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
  %s = "onnx.Constant"() <{value = dense<[1, -1, 2, 2]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %r = "onnx.Reshape"(%t, %s) : (tensor<1x2x4xf32>, tensor<4xi64>) -> tensor<1x2x2x2xf32>
  %n = "onnx.NoValue"() : () -> none
  %sz = "onnx.Constant"() <{value = dense<[1, 2, 4, 4]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %u = "onnx.Resize"(%r, %n, %n, %sz) <{coordinate_transformation_mode = "half_pixel", mode = "linear"}> : (tensor<1x2x2x2xf32>, none, none, tensor<4xi64>) -> tensor<1x2x4x4xf32>
  %c = "onnx.Concat"(%u, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x4x4xf32>
  %o = "onnx.Conv"(%c, %W, %B) <{kernel_shape = [1, 1]}> : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = "onnx.Relu"(%o) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
}

// -----

// Every input resized (scales, nearest; and sizes, cubic), none from a projection: each
// gets a Conv by its slice before its Resize (the scales unchanged, the sizes' channel
// entry 3 stays M = 3), and the bias is added after the sum, as [M, 1, 1].
// CHECK-LABEL: func.func @all_resized(
//       CHECK:   %[[C1:.*]] = "onnx.Conv"(%arg0, %{{.*}}) <{kernel_shape = [1, 1]}> : (tensor<1x2x2x2xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
//  CHECK-NEXT:   %[[R1:.*]] = "onnx.Resize"(%[[C1]], %{{.*}}, %[[SC:.*]], %{{.*}}) <{mode = "nearest"}> : (tensor<1x3x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x3x4x4xf32>
//       CHECK:   %[[C2:.*]] = "onnx.Conv"(%arg1, %{{.*}}) <{kernel_shape = [1, 1]}> : (tensor<1x3x1x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x1x1xf32>
//  CHECK-NEXT:   %[[SZ:.*]] = "onnx.Constant"() <{value = dense<[1, 3, 4, 4]> : tensor<4xi64>}>
//  CHECK-NEXT:   %[[R2:.*]] = "onnx.Resize"(%[[C2]], %{{.*}}, %{{.*}}, %[[SZ]]) <{mode = "cubic"}> : (tensor<1x3x1x1xf32>, none, none, tensor<4xi64>) -> tensor<1x3x4x4xf32>
//  CHECK-NEXT:   %[[S:.*]] = "onnx.Add"(%[[R1]], %[[R2]])
//  CHECK-NEXT:   %[[BIAS:.*]] = ml_program.global_load_const @pointwise_conv_b : tensor<3x1x1xf32>
//  CHECK-NEXT:   %[[O:.*]] = "onnx.Add"(%[[S]], %[[BIAS]]) : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
//  CHECK-NEXT:   return %[[O]]
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @all_resized(%a: tensor<1x2x2x2xf32>, %b: tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %W = "onnx.Constant"() <{value = dense<1.0> : tensor<3x5x1x1xf32>}> : () -> tensor<3x5x1x1xf32>
  %B = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %n = "onnx.NoValue"() : () -> none
  %sc = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %ra = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "nearest"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %sz = "onnx.Constant"() <{value = dense<[1, 3, 4, 4]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %rb = "onnx.Resize"(%b, %n, %n, %sz) <{mode = "cubic"}> : (tensor<1x3x1x1xf32>, none, none, tensor<4xi64>) -> tensor<1x3x4x4xf32>
  %c = "onnx.Concat"(%ra, %rb) <{axis = -3 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
  %o = "onnx.Conv"(%c, %W, %B) <{kernel_shape = [1, 1]}> : (tensor<1x5x4x4xf32>, tensor<3x5x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %o : tensor<1x3x4x4xf32>
}
}

// -----

// Near misses, each left as it is: a 3x3 filter, strides 2, two groups, a filter that
// is an argument, a Concat read twice, a Concat on the height axis, a Resize that
// shrinks the map, tf_crop_and_resize, a channel scale that is not exactly 1.
// CHECK-LABEL: func.func @near_misses
//   CHECK-NOT:   global_load_const @pointwise_conv
//   CHECK-NOT:   "onnx.Add"
//       CHECK:   return
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @near_misses(%a: tensor<1x2x2x2xf32>, %z: tensor<1x2x4x4xf32>, %wa: tensor<2x4x1x1xf32>, %big: tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %sc = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %w1 = "onnx.Constant"() <{value = dense<1.0> : tensor<2x4x1x1xf32>}> : () -> tensor<2x4x1x1xf32>
  %w3 = "onnx.Constant"() <{value = dense<1.0> : tensor<2x4x3x3xf32>}> : () -> tensor<2x4x3x3xf32>
  %wg = "onnx.Constant"() <{value = dense<1.0> : tensor<2x2x1x1xf32>}> : () -> tensor<2x2x1x1xf32>
  %r1 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c1 = "onnx.Concat"(%r1, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o1 = "onnx.Conv"(%c1, %w3) <{kernel_shape = [3, 3], pads = [1, 1, 1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x4x4xf32>
  %r2 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c2 = "onnx.Concat"(%r2, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o2 = "onnx.Conv"(%c2, %w1) <{kernel_shape = [1, 1], strides = [2, 2]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r3 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c3 = "onnx.Concat"(%r3, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o3 = "onnx.Conv"(%c3, %wg) <{kernel_shape = [1, 1], group = 2 : i64}> : (tensor<1x4x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r4 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c4 = "onnx.Concat"(%r4, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o4 = "onnx.Conv"(%c4, %wa) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r5 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c5 = "onnx.Concat"(%r5, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o5 = "onnx.Conv"(%c5, %w1) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x4x4xf32>
  %wh = "onnx.Constant"() <{value = dense<1.0> : tensor<2x2x1x1xf32>}> : () -> tensor<2x2x1x1xf32>
  %r6 = "onnx.Resize"(%a, %n, %sc, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c6 = "onnx.Concat"(%r6, %r6) <{axis = 2 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x8x4xf32>
  %o6 = "onnx.Conv"(%c6, %wh) <{kernel_shape = [1, 1]}> : (tensor<1x2x8x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x8x4xf32>
  %h = "onnx.Constant"() <{value = dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %r7 = "onnx.Resize"(%big, %n, %h, %n) <{mode = "linear"}> : (tensor<1x2x8x8xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c7 = "onnx.Concat"(%r7, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o7 = "onnx.Conv"(%c7, %w1) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x4x4xf32>
  %roi = "onnx.Constant"() <{value = dense<[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %r8 = "onnx.Resize"(%a, %roi, %sc, %n) <{mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize"}> : (tensor<1x2x2x2xf32>, tensor<8xf32>, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c8 = "onnx.Concat"(%r8, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o8 = "onnx.Conv"(%c8, %w1) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x4x4xf32>
  %sx = "onnx.Constant"() <{value = dense<[1.0, 1.25, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %r9 = "onnx.Resize"(%a, %n, %sx, %n) <{mode = "linear"}> : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  %c9 = "onnx.Concat"(%r9, %z) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o9 = "onnx.Conv"(%c9, %w1) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %o1, %o2, %o3, %o4, %o5, %c5, %o7, %o8, %o9 : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
}

// -----

// DeepLab's image-pooling branch: an Expand of the pooled [1, 2, 1, 1] to 4x4 takes its
// slice of the projection at 1x1 and broadcasts the M = 3 channels after it; the conv
// branch keeps a Conv (with the bias). An Expand that also broadcasts the channels
// ([1, 1, 1, 1] -> [1, 2, 4, 4]) is not channelwise and is left.
// CHECK-LABEL: func.func @expand(
//       CHECK:   %[[K:.*]] = "onnx.Conv"(%arg1, %{{.*}}, %{{.*}}) {{.*}} -> tensor<1x3x4x4xf32>
//       CHECK:   %[[P:.*]] = "onnx.Conv"(%arg0, %{{.*}}) <{kernel_shape = [1, 1]}> : (tensor<1x2x1x1xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x1x1xf32>
//  CHECK-NEXT:   %[[S:.*]] = "onnx.Constant"() <{value = dense<[1, 3, 4, 4]> : tensor<4xi64>}>
//  CHECK-NEXT:   %[[E:.*]] = "onnx.Expand"(%[[P]], %[[S]]) : (tensor<1x3x1x1xf32>, tensor<4xi64>) -> tensor<1x3x4x4xf32>
//  CHECK-NEXT:   %[[O:.*]] = "onnx.Add"(%[[K]], %[[E]])
//  CHECK-NEXT:   return %[[O]]
// CHECK-LABEL: func.func @expand_channels(
//   CHECK-NOT:   "onnx.Add"
//       CHECK:   "onnx.Concat"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @expand(%g: tensor<1x2x1x1xf32>, %z: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %W = "onnx.Constant"() <{value = dense<1.0> : tensor<3x4x1x1xf32>}> : () -> tensor<3x4x1x1xf32>
  %B = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %s = "onnx.Constant"() <{value = dense<[1, 2, 4, 4]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %e = "onnx.Expand"(%g, %s) : (tensor<1x2x1x1xf32>, tensor<4xi64>) -> tensor<1x2x4x4xf32>
  %c = "onnx.Concat"(%z, %e) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o = "onnx.Conv"(%c, %W, %B) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %o : tensor<1x3x4x4xf32>
}
func.func @expand_channels(%g: tensor<1x1x1x1xf32>, %z: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %W = "onnx.Constant"() <{value = dense<1.0> : tensor<3x4x1x1xf32>}> : () -> tensor<3x4x1x1xf32>
  %s = "onnx.Constant"() <{value = dense<[1, 2, 4, 4]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %e = "onnx.Expand"(%g, %s) : (tensor<1x1x1x1xf32>, tensor<4xi64>) -> tensor<1x2x4x4xf32>
  %c = "onnx.Concat"(%z, %e) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o = "onnx.Conv"(%c, %W) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x4x4xf32>
  return %o : tensor<1x3x4x4xf32>
}
}
