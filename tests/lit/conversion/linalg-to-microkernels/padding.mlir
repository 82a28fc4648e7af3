// RUN: strata-opt %s --strata-linalg-to-microkernels="tile-choice=default" | filecheck %s
// RUN: strata-opt %s --strata-linalg-to-microkernels="tile-choice=default weight-panel-width=32" | filecheck %s --check-prefix=FLAT

// An NCHW convolution (dense, grouped, 1-D) whose input is a zero-padded copy of another
// buffer reads that buffer with the kernel's pad top / left arguments (after the
// dilations) instead: the fill, the copy and the padded buffer go ([Note: padding in the
// packing] in strata/backends/cpu/kernels_conv.py; the match is the depthwise kernel's,
// _padding_of).

// DeepLab's dilated 3x3 (dilation 6, padding 6): the unpadded 20x20 image, pads 6 and 6.
// CHECK-LABEL: func.func @dilated(
//  CHECK-SAME:     %[[X:.*]]: memref<1x4x20x20xf32>
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   memref.copy
//       CHECK:   memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c4_i64, %c20_i64, %c20_i64, %c8_i64, %c3_i64, %c3_i64, %c20_i64, %c20_i64, %c1_i64, %c1_i64, %c6_i64, %c6_i64, %c6_i64, %c6_i64, %{{.*}}, %c1600_i64, %c400_i64, %c20_i64, %{{.*}}, %{{.*}}, %c3200_i64, %c0_i32, %c0_i64
//   CHECK-NOT:   memref.alloc
//       CHECK:   return
func.func @dilated(%x: memref<1x4x20x20xf32>, %w: memref<8x4x3x3xf32>) -> memref<1x8x20x20xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x32x32xf32>
  linalg.map outs(%p : memref<1x4x32x32xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %in = memref.subview %p[0, 0, 6, 6] [1, 4, 20, 20] [1, 1, 1, 1] : memref<1x4x32x32xf32> to memref<1x4x20x20xf32, strided<[4096, 1024, 32, 1], offset: 198>>
  memref.copy %x, %in : memref<1x4x20x20xf32> to memref<1x4x20x20xf32, strided<[4096, 1024, 32, 1], offset: 198>>
  %y = memref.alloc() : memref<1x8x20x20xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x20x20xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<6> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x4x32x32xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x20x20xf32>)
  memref.dealloc %p : memref<1x4x32x32xf32>
  return %y : memref<1x8x20x20xf32>
}

// Asymmetric (top 2, left 1; the bottom and right are what OH and OW reach past the
// image), stride 2; the source freed between the copy and the convolution: the dealloc
// moves after the call.
// CHECK-LABEL: func.func @asymmetric_freed(
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<1x3x9x10xf32>
//  CHECK-NEXT:   memref.copy %{{.*}}, %[[S]]
//   CHECK-NOT:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c3_i64, %c9_i64, %c10_i64, %c5_i64, %c3_i64, %c3_i64, %c5_i64, %c5_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c2_i64, %c1_i64,
//  CHECK-NEXT:   memref.dealloc %[[S]]
func.func @asymmetric_freed(%x: memref<1x3x9x10xf32>, %w: memref<5x3x3x3xf32>) -> memref<1x5x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<1x3x9x10xf32>
  memref.copy %x, %s : memref<1x3x9x10xf32> to memref<1x3x9x10xf32>
  %p = memref.alloc() : memref<1x3x12x12xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x3x12x12xf32>)
  %in = memref.subview %p[0, 0, 2, 1] [1, 3, 9, 10] [1, 1, 1, 1] : memref<1x3x12x12xf32> to memref<1x3x9x10xf32, strided<[432, 144, 12, 1], offset: 25>>
  memref.copy %s, %in : memref<1x3x9x10xf32> to memref<1x3x9x10xf32, strided<[432, 144, 12, 1], offset: 25>>
  memref.dealloc %s : memref<1x3x9x10xf32>
  %y = memref.alloc() : memref<1x5x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x5x5x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : memref<1x3x12x12xf32>, memref<5x3x3x3xf32>) outs(%y : memref<1x5x5x5xf32>)
  memref.dealloc %p : memref<1x3x12x12xf32>
  return %y : memref<1x5x5x5xf32>
}

// A grouped stride-2 3x3 (ResNeXt's) reads its padded input through an expand_shape to
// N x G x C x H x W: the kernel reads the 4-D source, its group stride C x its channel
// stride (8 x 196).
// CHECK-LABEL: func.func @grouped(
//  FLAT-LABEL: func.func @grouped(
//    FLAT-NOT:   memref.copy
//        FLAT:   call @strata_conv2d_nchw_grouped_f32(%c1_i64, %c4_i64, %c8_i64, %c14_i64, %c14_i64, %c8_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64,
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   memref.expand_shape
//       CHECK:   call @strata_conv2d_nchw_grouped_f32(%c1_i64, %c4_i64, %c8_i64, %c14_i64, %c14_i64, %c8_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %{{.*}}, %c6272_i64, %c1568_i64, %c196_i64, %c14_i64,
func.func @grouped(%x: memref<1x32x14x14xf32>, %w: memref<4x8x8x3x3xf32>) -> memref<1x4x8x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x32x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x32x16x16xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 32, 14, 14] [1, 1, 1, 1] : memref<1x32x16x16xf32> to memref<1x32x14x14xf32, strided<[8192, 256, 16, 1], offset: 17>>
  memref.copy %x, %in : memref<1x32x14x14xf32> to memref<1x32x14x14xf32, strided<[8192, 256, 16, 1], offset: 17>>
  %e = memref.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 8, 16, 16] : memref<1x32x16x16xf32> into memref<1x4x8x16x16xf32>
  %y = memref.alloc() : memref<1x4x8x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x7x7xf32>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%e, %w : memref<1x4x8x16x16xf32>, memref<4x8x8x3x3xf32>) outs(%y : memref<1x4x8x7x7xf32>)
  memref.dealloc %p : memref<1x32x16x16xf32>
  return %y : memref<1x4x8x7x7xf32>
}

// 1-D (Whisper's conv1: padding 1): pad top 0, left 1.
// CHECK-LABEL: func.func @one_d(
//   CHECK-NOT:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c8_i64, %c1_i64, %c30_i64, %c6_i64, %c1_i64, %c3_i64, %c1_i64, %c30_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c1_i64, %{{.*}}, %c240_i64, %c30_i64, %c30_i64,
func.func @one_d(%x: memref<1x8x30xf32>, %w: memref<6x8x3xf32>) -> memref<1x6x30xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x8x32xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x32xf32>)
  %in = memref.subview %p[0, 0, 1] [1, 8, 30] [1, 1, 1] : memref<1x8x32xf32> to memref<1x8x30xf32, strided<[256, 32, 1], offset: 1>>
  memref.copy %x, %in : memref<1x8x30xf32> to memref<1x8x30xf32, strided<[256, 32, 1], offset: 1>>
  %y = memref.alloc() : memref<1x6x30xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x6x30xf32>)
  linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%p, %w : memref<1x8x32xf32>, memref<6x8x3xf32>) outs(%y : memref<1x6x30xf32>)
  memref.dealloc %p : memref<1x8x32xf32>
  return %y : memref<1x6x30xf32>
}

// The padded buffer is read by something else too (returned): it stays, the
// convolution reads it unpadded (pads 0).
// CHECK-LABEL: func.func @padded_buffer_read_elsewhere(
//       CHECK:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c2_i64, %c8_i64, %c8_i64, %c4_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
func.func @padded_buffer_read_elsewhere(%x: memref<1x2x6x6xf32>, %w: memref<4x2x3x3xf32>) -> (memref<1x4x6x6xf32>, memref<1x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x2x8x8xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  memref.copy %x, %in : memref<1x2x6x6xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  %y = memref.alloc() : memref<1x4x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x6x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x2x8x8xf32>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x6x6xf32>)
  return %y, %p : memref<1x4x6x6xf32>, memref<1x2x8x8xf32>
}

// The convolution writes the buffer the copy was made from (bufferization may reuse
// it): the padded copy is the only one of the old values, and stays.
// CHECK-LABEL: func.func @source_overwritten(
//       CHECK:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c2_i64, %c8_i64, %c8_i64, %c2_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
func.func @source_overwritten(%w: memref<2x2x3x3xf32>) -> memref<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<1x2x6x6xf32>)
  %p = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x2x8x8xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  memref.copy %s, %in : memref<1x2x6x6xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x2x8x8xf32>, memref<2x2x3x3xf32>) outs(%s : memref<1x2x6x6xf32>)
  memref.dealloc %p : memref<1x2x8x8xf32>
  return %s : memref<1x2x6x6xf32>
}

// A dynamic batch: the subview's size and the output's alloc read the batch of the
// source (memref.dim between the copy and the convolution reads no data): folded.
// CHECK-LABEL: func.func @dynamic_batch(
//  CHECK-SAME:     %[[X:.*]]: memref<?x5x9x11xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_f32(%{{.*}}, %c5_i64, %c9_i64, %c11_i64, %c7_i64, %c3_i64, %c3_i64, %c9_i64, %c6_i64, %c1_i64, %c2_i64, %c1_i64, %c1_i64, %c0_i64, %c2_i64,
func.func @dynamic_batch(%x: memref<?x5x9x11xf32>, %w: memref<7x5x3x3xf32>) -> memref<?x7x9x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x5x9x11xf32>
  %p = memref.alloc(%n) : memref<?x5x11x14xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x5x11x14xf32>)
  %n1 = memref.dim %x, %c0 : memref<?x5x9x11xf32>
  %in = memref.subview %p[0, 0, 0, 2] [%n1, 5, 9, 11] [1, 1, 1, 1] : memref<?x5x11x14xf32> to memref<?x5x9x11xf32, strided<[770, 154, 14, 1], offset: 2>>
  memref.copy %x, %in : memref<?x5x9x11xf32> to memref<?x5x9x11xf32, strided<[770, 154, 14, 1], offset: 2>>
  %n2 = memref.dim %x, %c0 : memref<?x5x9x11xf32>
  %y = memref.alloc(%n2) : memref<?x7x9x6xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<?x7x9x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%p, %w : memref<?x5x11x14xf32>, memref<7x5x3x3xf32>) outs(%y : memref<?x7x9x6xf32>)
  memref.dealloc %p : memref<?x5x11x14xf32>
  return %y : memref<?x7x9x6xf32>
}

// ResNeXt's grouped stride-1 3x3 at 7x7 (groups of 8 filters): with the kernels' NR
// given (weight-panel-width), the lowering knows it runs as flat rows on the padded
// copy ([Note: flat rows], cpu_kernel_abi.conv_flat_rows): the copy stays, read flat
// (pads 0); without NR it folds.
// CHECK-LABEL: func.func @grouped_flat(
//   CHECK-NOT:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_grouped_f32(%c1_i64, %c4_i64, %c8_i64, %c7_i64, %c7_i64, %c8_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64,
//  FLAT-LABEL: func.func @grouped_flat(
//        FLAT:   memref.copy
//        FLAT:   call @strata_conv2d_nchw_grouped_f32(%c1_i64, %c4_i64, %c8_i64, %c9_i64, %c9_i64, %c8_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
func.func @grouped_flat(%x: memref<1x32x7x7xf32>, %w: memref<4x8x8x3x3xf32>) -> memref<1x4x8x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x32x9x9xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x32x9x9xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 32, 7, 7] [1, 1, 1, 1] : memref<1x32x9x9xf32> to memref<1x32x7x7xf32, strided<[2592, 81, 9, 1], offset: 10>>
  memref.copy %x, %in : memref<1x32x7x7xf32> to memref<1x32x7x7xf32, strided<[2592, 81, 9, 1], offset: 10>>
  %e = memref.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 8, 9, 9] : memref<1x32x9x9xf32> into memref<1x4x8x9x9xf32>
  %y = memref.alloc() : memref<1x4x8x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x7x7xf32>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%e, %w : memref<1x4x8x9x9xf32>, memref<4x8x8x3x3xf32>) outs(%y : memref<1x4x8x7x7xf32>)
  memref.dealloc %p : memref<1x32x9x9xf32>
  return %y : memref<1x4x8x7x7xf32>
}
