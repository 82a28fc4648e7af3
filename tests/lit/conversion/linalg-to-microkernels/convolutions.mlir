// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default | filecheck %s

// CHECK-LABEL: module {
//  CHECK-NEXT: func.func private @strata_conv2d_nchw_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i32, i64)
//  CHECK-NEXT: func.func private @strata_conv2d_nhwc_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i32, !llvm.ptr, i64, i32, i64)

// NCHW / FCHW (ONNX Conv): N, C, H, W, F, KH, KW, OH, OW, strides, dilations, the
// input and its N, C and H strides, the filter, the output and its N stride.
// CHECK-LABEL: func.func @nchw(
//       CHECK: %c1_i64 = arith.constant 1 : i64
//  CHECK-NEXT: %c3_i64 = arith.constant 3 : i64
//  CHECK-NEXT: %c11_i64 = arith.constant 11 : i64
//  CHECK-NEXT: %c10_i64 = arith.constant 10 : i64
//  CHECK-NEXT: %c6_i64 = arith.constant 6 : i64
//  CHECK-NEXT: %c2_i64 = arith.constant 2 : i64
//  CHECK-NEXT: %c5_i64 = arith.constant 5 : i64
//  CHECK-NEXT: %c4_i64 = arith.constant 4 : i64
//  CHECK-NEXT: %c330_i64 = arith.constant 330 : i64
//  CHECK-NEXT: %c110_i64 = arith.constant 110 : i64
//  CHECK-NEXT: %c120_i64 = arith.constant 120 : i64
//  CHECK-NEXT: call @strata_conv2d_nchw_f32(%c1_i64, %c3_i64, %c11_i64, %c10_i64, %c6_i64, %c3_i64, %c2_i64, %c5_i64, %c4_i64, %c2_i64, %c2_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64, %1, %c330_i64, %c110_i64, %c10_i64, %3, %5, %c120_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
func.func @nchw(%i: memref<1x3x11x10xf32>, %w: memref<6x3x3x2xf32>, %o: memref<1x6x5x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<1x3x11x10xf32>, memref<6x3x3x2xf32>) outs(%o : memref<1x6x5x4xf32>)
  return
}

// A dynamic batch: its size and the batch strides from the metadata.
// CHECK-LABEL: func.func @nchw_dynamic_batch(
//       CHECK: %base_buffer, %offset, %sizes:4, %strides:4 = memref.extract_strided_metadata %arg0
//       CHECK: call @strata_conv2d_nchw_f32(%{{.*}}, %c4_i64, %c8_i64, %c8_i64, %c16_i64, %c1_i64, %c1_i64, %c8_i64, %c8_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %1, %{{.*}}, %c64_i64, %c8_i64, %3, %5, %{{.*}}, %c0_i32, %c0_i64{{(_[0-9]+)?}})
func.func @nchw_dynamic_batch(%i: memref<?x4x8x8xf32>, %w: memref<16x4x1x1xf32>, %o: memref<?x16x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<?x16x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : memref<?x4x8x8xf32>, memref<16x4x1x1xf32>) outs(%o : memref<?x16x8x8xf32>)
  return
}

// NHWC with an HWCF filter (B = filter, ftrans = 0) or an FHWC one (B^T, ftrans = 1).
// CHECK-LABEL: func.func @nhwc(
//       CHECK: call @strata_conv2d_nhwc_f32(%c2_i64, %c9_i64, %c9_i64, %c3_i64, %c8_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %1, %c243_i64, %c27_i64, %c3_i64, %3, %c0_i32, %5, %c392_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
//       CHECK: call @strata_conv2d_nhwc_f32({{.*}}, %[[FT:c1_i32_[0-9]+]], %{{.*}}, %c392_i64_{{[0-9]+}}, %[[FT]], %c0_i64{{(_[0-9]+)?}})
func.func @nhwc(%i: memref<2x9x9x3xf32>, %w: memref<3x3x3x8xf32>, %wt: memref<8x3x3x3xf32>, %o: memref<2x7x7x8xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : memref<2x9x9x3xf32>, memref<3x3x3x8xf32>) outs(%o : memref<2x7x7x8xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %wt : memref<2x9x9x3xf32>, memref<8x3x3x3xf32>) outs(%o : memref<2x7x7x8xf32>)
  return
}

// Left for the loops: a filter that is not contiguous, an output image that is not
// contiguous, a depthwise convolution whose filter is not contiguous (see
// depthwise.mlir for the ones matched), f16.
// CHECK-LABEL: func.func @not_matched(
//  CHECK-NEXT: linalg.conv_2d_nchw_fchw
//  CHECK-NEXT: linalg.conv_2d_nchw_fchw
//  CHECK-NEXT: linalg.depthwise_conv_2d_nchw_chw
//  CHECK-NEXT: linalg.conv_2d_nchw_fchw
//  CHECK-NEXT: return
func.func @not_matched(%i: memref<1x3x10x10xf32>, %ws: memref<6x3x3x3xf32, strided<[64, 27, 9, 3]>>, %w: memref<6x3x3x3xf32>, %os: memref<1x6x8x8xf32, strided<[512, 80, 10, 1]>>, %o: memref<1x6x8x8xf32>, %wd: memref<3x3x3xf32, strided<[16, 3, 1]>>, %od: memref<1x3x8x8xf32>, %i16: memref<1x3x10x10xf16>, %w16: memref<6x3x3x3xf16>, %o16: memref<1x6x8x8xf16>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %ws : memref<1x3x10x10xf32>, memref<6x3x3x3xf32, strided<[64, 27, 9, 3]>>) outs(%o : memref<1x6x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : memref<1x3x10x10xf32>, memref<6x3x3x3xf32>) outs(%os : memref<1x6x8x8xf32, strided<[512, 80, 10, 1]>>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %wd : memref<1x3x10x10xf32>, memref<3x3x3xf32, strided<[16, 3, 1]>>) outs(%od : memref<1x3x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i16, %w16 : memref<1x3x10x10xf16>, memref<6x3x3x3xf16>) outs(%o16 : memref<1x6x8x8xf16>)
  return
}
