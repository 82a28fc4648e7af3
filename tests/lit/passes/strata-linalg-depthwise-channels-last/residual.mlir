// RUN: strata-opt %s --strata-linalg-depthwise-channels-last --split-input-file | filecheck %s
// RUN: strata-opt %s --strata-linalg-depthwise-channels-last --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | filecheck %s

// An elementwise op of channel-last tensors transposed to NCHW (a residual add, a
// per-channel scale) runs channel-last; the transpose moves to its result.
// CHECK-DAG: #[[M0:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
// CHECK-DAG: #[[M1:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[M2:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @residual(
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x32xf32>
//       CHECK: %[[A:.*]] = linalg.generic {indexing_maps = [#[[M0]], #[[M1]], #[[M2]], #[[M1]]], {{.*}} ins(%arg0, %arg1, %arg2 : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%[[E]] : tensor<1x8x8x32xf32>)
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<1x8x8x32xf32>) outs(%{{.*}} : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
//  CHECK-NEXT: return %[[T]]
func.func @residual(%x: tensor<1x8x8x32xf32>, %z: tensor<1x8x8x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x8x8xf32> {
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x32xf32>) outs(%e : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %e1 = tensor.empty() : tensor<1x32x8x8xf32>
  %t1 = linalg.transpose ins(%z : tensor<1x8x8x32xf32>) outs(%e1 : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %e2 = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (0, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %t1, %b : tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>, tensor<32xf32>) outs(%e2 : tensor<1x32x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32, %o: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<1x32x8x8xf32>
  return %a : tensor<1x32x8x8xf32>
}

// -----

// A full-size NCHW operand with no channel-last copy would be read strided: unchanged.
// CHECK-LABEL: func.func @nchw_operand(
//       CHECK: linalg.transpose ins(%arg0 : tensor<1x8x8x32xf32>)
//       CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) outs(%{{.*}} : tensor<1x32x8x8xf32>)
func.func @nchw_operand(%x: tensor<1x8x8x32xf32>, %r: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x32xf32>) outs(%e : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %e2 = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %r : tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) outs(%e2 : tensor<1x32x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %0 = arith.addf %p, %q : f32
    linalg.yield %0 : f32
  } -> tensor<1x32x8x8xf32>
  return %a : tensor<1x32x8x8xf32>
}

// -----

// The body reads the loop position (or its output): unchanged.
// CHECK-LABEL: func.func @index_body(
//       CHECK: linalg.transpose ins(%arg0
//       CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x32x8x8xf32>) outs(%{{.*}} : tensor<1x32x8x8xf32>)
//       CHECK: linalg.index 1
func.func @index_body(%x: tensor<1x8x8x32xf32>) -> tensor<1x32x8x8xf32> {
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x32xf32>) outs(%e : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %e2 = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<1x32x8x8xf32>) outs(%e2 : tensor<1x32x8x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %0 = arith.addf %p, %f : f32
    linalg.yield %0 : f32
  } -> tensor<1x32x8x8xf32>
  return %a : tensor<1x32x8x8xf32>
}

// -----

// ConvNeXt's stage: an NCHW image (a downsampling convolution's result) read by a 7x7
// depthwise convolution whose result is read channel-last, and by the residual add after
// the block. The image is transposed once; the convolution and the add run channel-last.
// CHECK-LABEL: func.func @convnext_stage(
//       CHECK: %[[X:.*]] = linalg.transpose ins(%arg0 : tensor<1x32x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
//       CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 3, 3, 0] high[0, 3, 3, 0]
//       CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]], %{{.*}} : tensor<1x14x14x32xf32>, tensor<7x7x32xf32>)
//       CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[C]] : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%{{.*}} : tensor<1x8x8x32xf32>)
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<1x8x8x32xf32>) outs(%{{.*}} : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
//  CHECK-NEXT: return %[[T]]
func.func @convnext_stage(%x: tensor<1x32x8x8xf32>, %w: tensor<32x7x7xf32>) -> tensor<1x32x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x32x8x8xf32> to tensor<1x32x14x14xf32>
  %e1 = tensor.empty() : tensor<1x32x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x32x14x14xf32>, tensor<32x7x7xf32>) outs(%z : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %t2 = linalg.transpose ins(%c : tensor<1x32x8x8xf32>) outs(%e2 : tensor<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
  %e3 = tensor.empty() : tensor<1x32x8x8xf32>
  %t3 = linalg.transpose ins(%t2 : tensor<1x8x8x32xf32>) outs(%e3 : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %e4 = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %t3 : tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) outs(%e4 : tensor<1x32x8x8xf32>) {
  ^bb0(%p0: f32, %q: f32, %o: f32):
    %0 = arith.addf %p0, %q : f32
    linalg.yield %0 : f32
  } -> tensor<1x32x8x8xf32>
  return %a : tensor<1x32x8x8xf32>
}

// -----

// A 3x3 window (the NCHW kernel's specialized code) on an NCHW image stays NCHW; so does
// a 7x7 one at stride 2 (its image is four times its result).
// CHECK-LABEL: func.func @nchw_3x3(
//       CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK-LABEL: func.func @nchw_7x7_stride2(
//       CHECK: linalg.depthwise_conv_2d_nchw_chw
func.func @nchw_3x3(%x: tensor<1x32x10x10xf32>, %w: tensor<32x3x3xf32>) -> tensor<1x8x8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x32x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x10x10xf32>, tensor<32x3x3xf32>) outs(%z : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %t2 = linalg.transpose ins(%c : tensor<1x32x8x8xf32>) outs(%e2 : tensor<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
  return %t2 : tensor<1x8x8x32xf32>
}
func.func @nchw_7x7_stride2(%x: tensor<1x32x21x21xf32>, %w: tensor<32x7x7xf32>) -> tensor<1x8x8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x32x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x32x21x21xf32>, tensor<32x7x7xf32>) outs(%z : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %t2 = linalg.transpose ins(%c : tensor<1x32x8x8xf32>) outs(%e2 : tensor<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
  return %t2 : tensor<1x8x8x32xf32>
}
