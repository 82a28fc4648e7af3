// RUN: strata-opt %s --strata-linalg-to-microkernels="filter-panel-rows=4 tile-choice=default" | filecheck %s

// [Note: dead taps]: a padded dilated convolution with a constant filter whose window
// rows or columns read only padding for every output is given its live taps only: the
// filter packed with them (K = C x live taps), the window and the padding shrunk.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @w : memref<8x4x3x3xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<8x4x3x3xf32> = dense<2.0>

// ASPP's rate 12 on a 10x10 map: the centre tap alone is live: a 1x1 without padding
// (K = 4: panels of 4 x 8 floats), read from the unpadded image.
//   CHECK-DAG: memref.global "private" constant @w_panels : memref<32xf32>
//   CHECK-DAG: memref.global "private" constant @w_panels_1 : memref<288xf32>
// CHECK-LABEL: func.func @centre_only(
//  CHECK-SAME:     %[[X:.*]]: memref<1x4x10x10xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   memref.get_global @w_panels : memref<32xf32>
//       CHECK:   call @strata_conv2d_nchw_packed_f32(%c1_i64, %c4_i64, %c10_i64, %c10_i64, %c8_i64, %c1_i64, %c1_i64, %c10_i64, %c10_i64, %c1_i64, %c1_i64, %c12_i64, %c12_i64, %c0_i64, %c0_i64,
func.func @centre_only(%x: memref<1x4x10x10xf32>) -> memref<1x8x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x4x3x3xf32>
  %p = memref.alloc() : memref<1x4x34x34xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x34x34xf32>)
  %in = memref.subview %p[0, 0, 12, 12] [1, 4, 10, 10] [1, 1, 1, 1] : memref<1x4x34x34xf32> to memref<1x4x10x10xf32, strided<[4624, 1156, 34, 1], offset: 420>>
  memref.copy %x, %in : memref<1x4x10x10xf32> to memref<1x4x10x10xf32, strided<[4624, 1156, 34, 1], offset: 420>>
  %y = memref.alloc() : memref<1x8x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x10x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x4x34x34xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x10x10xf32>)
  memref.dealloc %p : memref<1x4x34x34xf32>
  return %y : memref<1x8x10x10xf32>
}

// The same, but the ReLU after the convolution writes the copy's source (bufferization
// reused it): the padded copy stays, and the kernel reads the padded buffer from row
// and column 12 (the address + (12 x 34 + 12) x 4 bytes), a 22x22 image, padding 0.
// CHECK-LABEL: func.func @copy_kept(
//       CHECK:   memref.copy
//       CHECK:   %[[A:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<1x4x34x34xf32>
//       CHECK:   arith.addi %[[A]], %c1680
//       CHECK:   call @strata_conv2d_nchw_packed_epi_f32(%c1_i64, %c4_i64, %c22_i64, %c22_i64, %c8_i64, %c1_i64, %c1_i64, %c10_i64, %c10_i64, %c1_i64, %c1_i64, %c12_i64, %c12_i64, %c0_i64, %c0_i64,
func.func @copy_kept(%x: memref<1x4x10x10xf32>) -> memref<1x8x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w2 : memref<8x4x3x3xf32>
  %s = memref.alloc() : memref<1x8x10x10xf32>
  %sv = memref.subview %s[0, 0, 0, 0] [1, 4, 10, 10] [1, 1, 1, 1] : memref<1x8x10x10xf32> to memref<1x4x10x10xf32, strided<[800, 100, 10, 1]>>
  memref.copy %x, %sv : memref<1x4x10x10xf32> to memref<1x4x10x10xf32, strided<[800, 100, 10, 1]>>
  %p = memref.alloc() : memref<1x4x34x34xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x34x34xf32>)
  %in = memref.subview %p[0, 0, 12, 12] [1, 4, 10, 10] [1, 1, 1, 1] : memref<1x4x34x34xf32> to memref<1x4x10x10xf32, strided<[4624, 1156, 34, 1], offset: 420>>
  memref.copy %sv, %in : memref<1x4x10x10xf32, strided<[800, 100, 10, 1]>> to memref<1x4x10x10xf32, strided<[4624, 1156, 34, 1], offset: 420>>
  %y = memref.alloc() : memref<1x8x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x10x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x4x34x34xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x10x10xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : memref<1x8x10x10xf32>) outs(%s : memref<1x8x10x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %p : memref<1x4x34x34xf32>
  return %s : memref<1x8x10x10xf32>
}

// Every tap live (rate 2 on a 10x10 map): the whole filter (K = 36: 4 x 36 x 4 floats
// a panel, two panels: @w_panels_1, checked at the top).
// CHECK-LABEL: func.func @all_live(
//       CHECK:   call @strata_conv2d_nchw_packed_f32(%c1_i64, %c4_i64, %c10_i64, %c10_i64, %c8_i64, %c3_i64, %c3_i64, %c10_i64, %c10_i64, %c1_i64, %c1_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64,
func.func @all_live(%x: memref<1x4x10x10xf32>) -> memref<1x8x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x4x3x3xf32>
  %p = memref.alloc() : memref<1x4x14x14xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x14x14xf32>)
  %in = memref.subview %p[0, 0, 2, 2] [1, 4, 10, 10] [1, 1, 1, 1] : memref<1x4x14x14xf32> to memref<1x4x10x10xf32, strided<[784, 196, 14, 1], offset: 30>>
  memref.copy %x, %in : memref<1x4x10x10xf32> to memref<1x4x10x10xf32, strided<[784, 196, 14, 1], offset: 30>>
  %y = memref.alloc() : memref<1x8x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x10x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x4x14x14xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x10x10xf32>)
  memref.dealloc %p : memref<1x4x14x14xf32>
  return %y : memref<1x8x10x10xf32>
}
