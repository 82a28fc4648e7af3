// RUN: strata-opt %s --strata-linalg-depthwise-channels-last --split-input-file | filecheck %s
// RUN: strata-opt %s --strata-linalg-depthwise-channels-last --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | filecheck %s

// A channel-last image transposed to NCHW, padded, convolved and transposed back: the
// convolution runs channel-last and no transpose is left but the filter's.
// CHECK-LABEL: func.func @nhwc_image(
//       CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
//       CHECK: } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
//       CHECK: %[[W:.*]] = linalg.transpose ins(%arg1 : tensor<32x3x3xf32>) outs(%{{.*}} : tensor<3x3x32xf32>) permutation = [1, 2, 0]
//       CHECK: %[[I:.*]] = linalg.generic {indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}], {{.*}} ins(%{{.*}} : tensor<1x32x16x16xf32>) outs(%{{.*}} : tensor<1x16x16x32xf32>)
//       CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<1x18x18x32xf32>, tensor<3x3x32xf32>) outs(%[[I]] : tensor<1x16x16x32xf32>)
//  CHECK-NEXT: return %[[C]] : tensor<1x16x16x32xf32>
func.func @nhwc_image(%x: tensor<1x16x16x32xf32>, %w: tensor<32x3x3xf32>, %bias: tensor<32xf32>) -> tensor<1x16x16x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %t = linalg.transpose ins(%x : tensor<1x16x16x32xf32>) outs(%e : tensor<1x32x16x16xf32>) permutation = [0, 3, 1, 2]
  %p = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x32x16x16xf32> to tensor<1x32x18x18xf32>
  %e1 = tensor.empty() : tensor<1x32x16x16xf32>
  %i = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<32xf32>) outs(%e1 : tensor<1x32x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x32x16x16xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x32x18x18xf32>, tensor<32x3x3xf32>) outs(%i : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %e2 = tensor.empty() : tensor<1x16x16x32xf32>
  %t2 = linalg.transpose ins(%c : tensor<1x32x16x16xf32>) outs(%e2 : tensor<1x16x16x32xf32>) permutation = [0, 2, 3, 1]
  return %t2 : tensor<1x16x16x32xf32>
}

// -----

// The ONNX form: token-major [N, HW, C] transposed and reshaped to an image, and the
// result flattened and transposed back (stride 2, no padding): only reshapes are left.
// CHECK-LABEL: func.func @tokens(
//   CHECK-DAG: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x32xf32>)
//   CHECK-DAG: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [1, 16, 16, 32] : tensor<1x256x32xf32> into tensor<1x16x16x32xf32>
//   CHECK-DAG: %[[W:.*]] = linalg.transpose ins(%arg1
//       CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x16x16x32xf32>, tensor<3x3x32xf32>) outs(%[[F]] : tensor<1x7x7x32xf32>)
//  CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3]] : tensor<1x7x7x32xf32> into tensor<1x49x32xf32>
//  CHECK-NEXT: return %[[R]]
func.func @tokens(%x: tensor<1x256x32xf32>, %w: tensor<32x3x3xf32>) -> tensor<1x49x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x256xf32>
  %t = linalg.transpose ins(%x : tensor<1x256x32xf32>) outs(%e : tensor<1x32x256xf32>) permutation = [0, 2, 1]
  %v = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [1, 32, 16, 16] : tensor<1x32x256xf32> into tensor<1x32x16x16xf32>
  %e1 = tensor.empty() : tensor<1x32x7x7xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%v, %w : tensor<1x32x16x16xf32>, tensor<32x3x3xf32>) outs(%z : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %f = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<1x32x7x7xf32> into tensor<1x32x49xf32>
  %e2 = tensor.empty() : tensor<1x49x32xf32>
  %t2 = linalg.transpose ins(%f : tensor<1x32x49xf32>) outs(%e2 : tensor<1x49x32xf32>) permutation = [0, 2, 1]
  return %t2 : tensor<1x49x32xf32>
}

// -----

// The NCHW result has another user: the transpose moves from the image to the result.
// CHECK-LABEL: func.func @nchw_result(
//       CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<1x14x14x16xf32>) outs(%{{.*}} : tensor<1x16x14x14xf32>) permutation = [0, 3, 1, 2]
//  CHECK-NEXT: return %[[T]]
func.func @nchw_result(%x: tensor<1x16x16x16xf32>, %w: tensor<16x3x3xf32>, %z: tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %t = linalg.transpose ins(%x : tensor<1x16x16x16xf32>) outs(%e : tensor<1x16x16x16xf32>) permutation = [0, 3, 1, 2]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%t, %w : tensor<1x16x16x16xf32>, tensor<16x3x3xf32>) outs(%z : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  return %c : tensor<1x16x14x14xf32>
}

// -----

// Left alone: an image not from a transpose; a transpose another op reads too; fewer
// channels than min-channels (16); a padding of the channels.
// CHECK-LABEL: func.func @kept(
//   CHECK-NOT: depthwise_conv_2d_nhwc_hwc
//       CHECK: return
func.func @kept(%x: tensor<1x16x8x8xf32>, %y: tensor<1x8x8x16xf32>, %s: tensor<1x8x8x8xf32>, %w: tensor<16x3x3xf32>, %w8: tensor<8x3x3xf32>, %z: tensor<1x16x6x6xf32>, %z8: tensor<1x8x6x6xf32>, %zp: tensor<1x18x8x8xf32>, %w18: tensor<18x3x3xf32>) -> (tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>, tensor<1x8x6x6xf32>, tensor<1x18x8x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x8x8xf32>, tensor<16x3x3xf32>) outs(%z : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %t = linalg.transpose ins(%y : tensor<1x8x8x16xf32>) outs(%e : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
  %b = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%t, %w : tensor<1x16x8x8xf32>, tensor<16x3x3xf32>) outs(%z : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %e8 = tensor.empty() : tensor<1x8x8x8xf32>
  %t8 = linalg.transpose ins(%s : tensor<1x8x8x8xf32>) outs(%e8 : tensor<1x8x8x8xf32>) permutation = [0, 3, 1, 2]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%t8, %w8 : tensor<1x8x8x8xf32>, tensor<8x3x3xf32>) outs(%z8 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %t2 = linalg.transpose ins(%y : tensor<1x8x8x16xf32>) outs(%e2 : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
  %p = tensor.pad %t2 low[0, 1, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x16x8x8xf32> to tensor<1x18x10x10xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w18 : tensor<1x18x10x10xf32>, tensor<18x3x3xf32>) outs(%zp : tensor<1x18x8x8xf32>) -> tensor<1x18x8x8xf32>
  return %a, %b, %t, %c, %d : tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>, tensor<1x8x6x6xf32>, tensor<1x18x8x8xf32>
}

// -----

// A dynamic batch (the zoo's --dynamic exports): its size is read off the input, and
// the tensor.dim ops of the reshapes around the convolution do not keep them alive.
// CHECK-LABEL: func.func @dynamic_batch(
//   CHECK-NOT: permutation = [0, 2, 1]
//       CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [%{{.*}}, 16, 16, 32] : tensor<?x256x32xf32> into tensor<?x16x16x32xf32>
//       CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x18x18x32xf32>, tensor<3x3x32xf32>) outs(%{{.*}} : tensor<?x16x16x32xf32>)
//  CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3]] : tensor<?x16x16x32xf32> into tensor<?x256x32xf32>
//  CHECK-NEXT: return %[[R]]
//   CHECK-NOT: permutation = [0, 2, 1]
func.func @dynamic_batch(%x: tensor<?x256x32xf32>, %w: tensor<32x3x3xf32>) -> tensor<?x256x32xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x256x32xf32>
  %e = tensor.empty(%n) : tensor<?x32x256xf32>
  %t = linalg.transpose ins(%x : tensor<?x256x32xf32>) outs(%e : tensor<?x32x256xf32>) permutation = [0, 2, 1]
  %v = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [%n, 32, 16, 16] : tensor<?x32x256xf32> into tensor<?x32x16x16xf32>
  %p = tensor.pad %v low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<?x32x16x16xf32> to tensor<?x32x18x18xf32>
  %nv = tensor.dim %v, %c0 : tensor<?x32x16x16xf32>
  %e1 = tensor.empty(%nv) : tensor<?x32x16x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<?x32x16x16xf32>) -> tensor<?x32x16x16xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<?x32x18x18xf32>, tensor<32x3x3xf32>) outs(%z : tensor<?x32x16x16xf32>) -> tensor<?x32x16x16xf32>
  %f = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<?x32x16x16xf32> into tensor<?x32x256xf32>
  %nf = tensor.dim %f, %c0 : tensor<?x32x256xf32>
  %e2 = tensor.empty(%nf) : tensor<?x256x32xf32>
  %t2 = linalg.transpose ins(%f : tensor<?x32x256xf32>) outs(%e2 : tensor<?x256x32xf32>) permutation = [0, 2, 1]
  return %t2 : tensor<?x256x32xf32>
}
