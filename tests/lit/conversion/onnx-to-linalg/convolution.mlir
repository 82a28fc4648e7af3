// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s


// Padding by tensor.pad, the bias broadcast as the accumulator, then the named op.
// CHECK-LABEL: func.func @conv
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %arg1 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[B]] : tensor<1x4x4x4xf32>)
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %bias: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "onnx.Conv"(%x, %w, %bias) <{pads = [1, 1, 1, 1], strides = [2, 2]}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// One filter per channel: the depthwise op on the weights without their unit dim.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2], [3]] : tensor<3x1x3x3xf32> into tensor<3x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %[[W]] : tensor<1x3x8x8xf32>, tensor<3x3x3xf32>)
func.func @depthwise(%x: tensor<1x3x8x8xf32>, %w: tensor<3x1x3x3xf32>) -> tensor<1x3x6x6xf32> {
  %0 = "onnx.Conv"(%x, %w) <{group = 3 : i64}> : (tensor<1x3x8x8xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x6x6xf32>
  return %0 : tensor<1x3x6x6xf32>
}

// Groups in 1-D: channels expanded to (group, channels) and a unit H dim added (views),
// the 2-D grouped op over a one-row image, strides and dilations (1, s), (1, d).
// CHECK-LABEL: func.func @grouped_1d
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3, 4]] output_shape [1, 2, 2, 1, 9] : tensor<1x4x9xf32> into tensor<1x2x2x1x9xf32>
// CHECK: %[[W:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2], [3, 4]] output_shape [2, 3, 2, 1, 3] : tensor<6x2x3xf32> into tensor<2x3x2x1x3xf32>
// CHECK: %[[O:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3, 4]] output_shape [1, 2, 3, 1, 4] : tensor<1x6x4xf32> into tensor<1x2x3x1x4xf32>
// CHECK: %[[R:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x2x2x1x9xf32>, tensor<2x3x2x1x3xf32>) outs(%[[O]] : tensor<1x2x3x1x4xf32>)
// CHECK: tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2], [3, 4]] : tensor<1x2x3x1x4xf32> into tensor<1x6x4xf32>
func.func @grouped_1d(%x: tensor<1x4x9xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x4xf32> {
  %0 = "onnx.Conv"(%x, %w) <{group = 2 : i64, strides = [2]}> : (tensor<1x4x9xf32>, tensor<6x2x3xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// ConvTranspose: the input spread by the strides (insert_slice with strides into zeros),
// padded by the kernel span, convolved with the flipped kernel.
// CHECK-LABEL: func.func @conv_transpose
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [1, 1, 3, 3] [1, 1, 2, 2] : tensor<1x1x3x3xf32> into tensor<1x1x5x5xf32>
// CHECK: tensor.pad %{{.*}} low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_transpose(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x7x7xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w) <{strides = [2, 2]}> : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return %0 : tensor<1x2x7x7xf32>
}
