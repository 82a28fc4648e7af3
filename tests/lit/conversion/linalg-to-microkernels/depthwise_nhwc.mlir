// RUN: strata-opt %s --strata-linalg-to-microkernels="tile-choice=default" | filecheck %s

// linalg.depthwise_conv_2d_nhwc_hwc calls strata_dwconv2d_nhwc_f32 (see [Note: depthwise
// convolutions]), taking over its padded copy (offsets (0, pt, pl, 0)), a bias broadcast
// along the channels into its init and an activation after it as the NCHW kernel does.
// Its arguments: N, H, W, C, KH, KW, OH, OW, strides, dilations, pad top / left, the image
// and its N, H and W strides, the HWC filter, the output and its strides, accumulate, the
// bias, flags (1 bias, activation << 4), tile.
//       CHECK: func.func private @strata_dwconv2d_nhwc_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
#h = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// ConvNeXt's form: a 7x7 window over a copy padded by 3 on each side, the bias broadcast
// before it: pad 3 and 3, flags 1, the unpadded image read (its strides 1600, 160, 16).
// CHECK-LABEL: func.func @convnext_7x7(
//  CHECK-SAME:     %[[X:.*]]: memref<1x10x10x16xf32>
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   memref.copy
//       CHECK:   memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:   call @strata_dwconv2d_nhwc_f32(%c1_i64, %c10_i64, %c10_i64, %c16_i64, %c7_i64, %c7_i64, %c10_i64, %c10_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c3_i64, %c3_i64, %{{.*}}, %c1600_i64, %c160_i64, %c16_i64, %{{.*}}, %{{.*}}, %c1600_i64, %c160_i64, %c16_i64, %c0_i32, %{{.*}}, %c1_i32, %c0_i64)
//   CHECK-NOT:   linalg.
func.func @convnext_7x7(%x: memref<1x10x10x16xf32>, %w: memref<7x7x16xf32>, %b: memref<16xf32>) -> memref<1x10x10x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x16x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x16x16x16xf32>)
  %in = memref.subview %p[0, 3, 3, 0] [1, 10, 10, 16] [1, 1, 1, 1] : memref<1x16x16x16xf32> to memref<1x10x10x16xf32, strided<[4096, 256, 16, 1], offset: 816>>
  memref.copy %x, %in : memref<1x10x10x16xf32> to memref<1x10x10x16xf32, strided<[4096, 256, 16, 1], offset: 816>>
  %y = memref.alloc() : memref<1x10x10x16xf32>
  linalg.generic {indexing_maps = [#c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<16xf32>) outs(%y : memref<1x10x10x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x16x16x16xf32>, memref<7x7x16xf32>) outs(%y : memref<1x10x10x16xf32>)
  memref.dealloc %p : memref<1x16x16x16xf32>
  return %y : memref<1x10x10x16xf32>
}

// Stride 2, dilation 2, no padding, a zero fill before (overwrite) and bias + ReLU6 after
// (flags 1 | 2 << 4 = 33): the generic goes, the kernel writes its output.
// CHECK-LABEL: func.func @strided_bias_relu6(
//   CHECK-NOT:   linalg.
//       CHECK:   call @strata_dwconv2d_nhwc_f32(%c2_i64, %c9_i64, %c11_i64, %c24_i64, %c3_i64, %c3_i64, %c3_i64, %c4_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64, %{{.*}}, %c2376_i64, %c264_i64, %c24_i64, %{{.*}}, %{{.*}}, %c288_i64, %c96_i64, %c24_i64, %c0_i32, %{{.*}}, %c33_i32, %c0_i64)
//   CHECK-NOT:   linalg.
func.func @strided_bias_relu6(%x: memref<2x9x11x24xf32>, %w: memref<3x3x24xf32>, %b: memref<24xf32>) -> memref<2x3x4x24xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %y = memref.alloc() : memref<2x3x4x24xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x3x4x24xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<2x9x11x24xf32>, memref<3x3x24xf32>) outs(%y : memref<2x3x4x24xf32>)
  %z = memref.alloc() : memref<2x3x4x24xf32>
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %b : memref<2x3x4x24xf32>, memref<24xf32>) outs(%z : memref<2x3x4x24xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %0 = arith.addf %v, %bb : f32
    %1 = arith.maximumf %0, %zero : f32
    %2 = arith.minimumf %1, %six : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %y : memref<2x3x4x24xf32>
  return %z : memref<2x3x4x24xf32>
}

// Near misses. A copy padded along the channels too (offsets (0, 1, 1, 2)) is no padding
// the kernel reads as zeros: the padded buffer is the image (pad 0), fill and copy stay. A
// vector broadcast along the rows (dim 1) into the init is no channel bias: it stays, and
// the kernel accumulates into it (accumulate 1, flags 0).
// CHECK-LABEL: func.func @near_misses(
//       CHECK:   linalg.fill
//       CHECK:   memref.copy
//       CHECK:   linalg.generic
//       CHECK:   call @strata_dwconv2d_nhwc_f32(%c1_i64, %c8_i64, %c8_i64, %c20_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %{{.*}}, %c1280_i64, %c160_i64, %c20_i64, %{{.*}}, %{{.*}}, %c720_i64, %c120_i64, %c20_i64, %c1_i32, %{{.*}}, %c0_i32, %c0_i64)
func.func @near_misses(%x: memref<1x6x6x16xf32>, %w: memref<3x3x20xf32>, %r: memref<6xf32>) -> memref<1x6x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x8x8x20xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x8x20xf32>)
  %in = memref.subview %p[0, 1, 1, 2] [1, 6, 6, 16] [1, 1, 1, 1] : memref<1x8x8x20xf32> to memref<1x6x6x16xf32, strided<[1280, 160, 20, 1], offset: 182>>
  memref.copy %x, %in : memref<1x6x6x16xf32> to memref<1x6x6x16xf32, strided<[1280, 160, 20, 1], offset: 182>>
  %y = memref.alloc() : memref<1x6x6x20xf32>
  linalg.generic {indexing_maps = [#h, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : memref<6xf32>) outs(%y : memref<1x6x6x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x8x8x20xf32>, memref<3x3x20xf32>) outs(%y : memref<1x6x6x20xf32>)
  memref.dealloc %p : memref<1x8x8x20xf32>
  return %y : memref<1x6x6x20xf32>
}

// A filter that is not contiguous (every other channel of a wider one) or channels that
// are not unit-stride: no call, the convolution stays for the loop nests.
// CHECK-LABEL: func.func @not_contiguous(
//   CHECK-NOT:   call
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//   CHECK-NOT:   call
func.func @not_contiguous(%x: memref<1x6x6x8xf32>, %w: memref<3x3x16xf32>, %x2: memref<1x6x6x16xf32>, %w2: memref<3x3x8xf32>) -> (memref<1x4x4x8xf32>, memref<1x4x4x8xf32>) {
  %y = memref.alloc() : memref<1x4x4x8xf32>
  %wv = memref.subview %w[0, 0, 0] [3, 3, 8] [1, 1, 2] : memref<3x3x16xf32> to memref<3x3x8xf32, strided<[48, 16, 2]>>
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %wv : memref<1x6x6x8xf32>, memref<3x3x8xf32, strided<[48, 16, 2]>>) outs(%y : memref<1x4x4x8xf32>)
  %y2 = memref.alloc() : memref<1x4x4x8xf32>
  %xv = memref.subview %x2[0, 0, 0, 0] [1, 6, 6, 8] [1, 1, 1, 2] : memref<1x6x6x16xf32> to memref<1x6x6x8xf32, strided<[576, 96, 16, 2]>>
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xv, %w2 : memref<1x6x6x8xf32, strided<[576, 96, 16, 2]>>, memref<3x3x8xf32>) outs(%y2 : memref<1x4x4x8xf32>)
  return %y, %y2 : memref<1x4x4x8xf32>, memref<1x4x4x8xf32>
}

// An unfolded batch norm then ReLU after a channel-last convolution on a constant HWC
// filter: a[c] = gamma / sqrt(var + 1) = (2, 4) scales the filter along its last dim
// (ones become 2, 4, 2, 4, ...: f32 0x40000000, 0x40800000), the bias is
// beta - mean * a = (0.5, 0) (0x3F000000, 0), flags 1 | 1 << 4 = 17.
// CHECK-LABEL: func.func @batch_norm_relu_hwc(
//   CHECK-NOT:   linalg.
//       CHECK:   memref.get_global @hwc_w_scaled : memref<18xf32>
//       CHECK:   memref.get_global @hwc_w_bias : memref<2xf32>
//       CHECK:   call @strata_dwconv2d_nhwc_f32({{.*}}, %c0_i32, %{{.*}}, %c17_i32, %c0_i64)
//   CHECK-NOT:   linalg.
memref.global "private" constant @hwc_w : memref<3x3x2xf32> = dense<1.0>
memref.global "private" constant @hwc_gamma : memref<2xf32> = dense<[4.0, 8.0]>
memref.global "private" constant @hwc_beta : memref<2xf32> = dense<1.0>
memref.global "private" constant @hwc_mean : memref<2xf32> = dense<0.25>
memref.global "private" constant @hwc_var : memref<2xf32> = dense<3.0>
func.func @batch_norm_relu_hwc(%x: memref<1x6x6x2xf32>) -> memref<1x4x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0 : f32
  %w = memref.get_global @hwc_w : memref<3x3x2xf32>
  %y = memref.alloc() : memref<1x4x4x2xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x2xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x6x6x2xf32>, memref<3x3x2xf32>) outs(%y : memref<1x4x4x2xf32>)
  %g = memref.get_global @hwc_gamma : memref<2xf32>
  %b = memref.get_global @hwc_beta : memref<2xf32>
  %m = memref.get_global @hwc_mean : memref<2xf32>
  %v = memref.get_global @hwc_var : memref<2xf32>
  %z = memref.alloc() : memref<1x4x4x2xf32>
  linalg.generic {indexing_maps = [#id, #c, #c, #c, #c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %g, %b, %m, %v : memref<1x4x4x2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>) outs(%z : memref<1x4x4x2xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %6 = arith.maximumf %5, %zero : f32
    linalg.yield %6 : f32
  }
  memref.dealloc %y : memref<1x4x4x2xf32>
  return %z : memref<1x4x4x2xf32>
}
//       CHECK: hwc_w_scaled: "0x40000000{{(0000004000008040)+}}"
//       CHECK: hwc_w_bias: "0x400000000000003F00000000"
