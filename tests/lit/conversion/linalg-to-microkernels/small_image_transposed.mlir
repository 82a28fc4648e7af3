// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=32 filter-panel-rows=8 tile-choice=default" | filecheck %s

// [Note: small images, filters along the vectors] (kernels_conv.py): a convolution of
// two NR-filter panels or more over at most four NR-pixel panels of output calls
// strata_conv2d_nchw_packed_t_f32 with the filter packed as NR-filter panels of its
// K x F transpose (K = 2 x 3 x 3 = 18, F = 64: 2 x 18 x 32 floats), the image read
// unpadded (pt = pl = 1: the zero-filled copy is not made, even where the other
// kernels' flat rows would read it), no epilogue (the bias pointer the output's, flags 0).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @w : memref<64x2x3x3xf32> = dense<1.0>
memref.global "private" constant @w32 : memref<32x2x3x3xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<64x2x1x1xf32> = dense<1.0>

//   CHECK-DAG: memref.global "private" constant @w_panels : memref<1152xf32>
// CHECK-LABEL: func.func @transposed(
//   CHECK-NOT:   memref.copy
//       CHECK:   call @strata_conv2d_nchw_packed_t_f32(%c1_i64, %c2_i64, %c7_i64, %c7_i64, %c64_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64,
//  CHECK-SAME:     %c0_i32, %{{.*}}, %c0_i32, %c0_i64)
func.func @transposed(%x: memref<1x2x7x7xf32>) -> memref<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<64x2x3x3xf32>
  %p = memref.alloc() : memref<1x2x9x9xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x2x9x9xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 2, 7, 7] [1, 1, 1, 1] : memref<1x2x9x9xf32> to memref<1x2x7x7xf32, strided<[162, 81, 9, 1], offset: 10>>
  memref.copy %x, %in : memref<1x2x7x7xf32> to memref<1x2x7x7xf32, strided<[162, 81, 9, 1], offset: 10>>
  %y = memref.alloc() : memref<1x64x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x64x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x2x9x9xf32>, memref<64x2x3x3xf32>) outs(%y : memref<1x64x7x7xf32>)
  memref.dealloc %p : memref<1x2x9x9xf32>
  return %y : memref<1x64x7x7xf32>
}

// Near misses: one filter panel (32 filters), and a 1x1 stride-1 window (the GEMM on
// the image itself): the MR-row panels and the other kernels.
// CHECK-LABEL: func.func @one_panel(
//   CHECK-NOT:   strata_conv2d_nchw_packed_t_f32
//       CHECK:   call @strata_conv2d_nchw_packed_f32(
func.func @one_panel(%x: memref<1x2x9x9xf32>) -> memref<1x32x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w32 : memref<32x2x3x3xf32>
  %y = memref.alloc() : memref<1x32x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x2x9x9xf32>, memref<32x2x3x3xf32>) outs(%y : memref<1x32x7x7xf32>)
  return %y : memref<1x32x7x7xf32>
}

// CHECK-LABEL: func.func @pointwise(
//   CHECK-NOT:   strata_conv2d_nchw_packed_t_f32
//       CHECK:   call @strata_conv2d_nchw_packed_f32(
func.func @pointwise(%x: memref<1x2x7x7xf32>) -> memref<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w1 : memref<64x2x1x1xf32>
  %y = memref.alloc() : memref<1x64x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x64x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x2x7x7xf32>, memref<64x2x1x1xf32>) outs(%y : memref<1x64x7x7xf32>)
  return %y : memref<1x64x7x7xf32>
}
