// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// Squeeze-excitation's z = y * sigmoid(t) before a 1x1 convolution whose filter is a
// constant (see [Note: channel scales]). With F <= H x W the filter is the smaller: its
// packed panels (P x C x MR, here 2 x 8 x 4 for F = 6, MR = 4) are scaled per input
// channel at run time and the convolution keeps its packed kernel and its epilogue (the
// bias and ReLU after it); with F > H x W the image is the smaller: the multiply stays,
// sigmoid(t) computed once per channel first, and the convolution reads z with its packed
// filter.
memref.global "private" constant @f : memref<6x8x1x1xf32> = dense<1.0>
memref.global "private" constant @fb : memref<6xf32> = dense<0.5>
memref.global "private" constant @g : memref<12x8x1x1xf32> = dense<1.0>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>

// CHECK-LABEL: func.func @packed_scaled(
//  CHECK-SAME:     %[[Y:.*]]: memref<1x8x5x5xf32>, %[[T:.*]]: memref<1x8x1x1xf32>
//       CHECK:   %[[P:.*]] = memref.get_global @f_panels : memref<64xf32>
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<1x8x1x1xf32>
//       CHECK:   linalg.generic {{.*}} ins(%[[T]], %[[T]] : {{.*}}) outs(%[[E]] : memref<1x8x1x1xf32>)
//       CHECK:     math.exp
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<2x8x4xf32>
//       CHECK:   %[[V:.*]] = memref.expand_shape %[[P]] {{\[}}[0, 1, 2]] output_shape [2, 8, 4] : memref<64xf32> into memref<2x8x4xf32>
//       CHECK:   linalg.generic {indexing_maps = [#[[ID3:.*]], #[[CH3:.*]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[V]], %[[E]] : memref<2x8x4xf32>, memref<1x8x1x1xf32>) outs(%[[S]] : memref<2x8x4xf32>)
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     arith.mulf
//  CHECK-NEXT:     linalg.yield
//       CHECK:   memref.dealloc %[[E]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[Y]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[S]]
//       CHECK:   call @strata_conv2d_nchw_packed_epi_f32(%c1_i64, %c8_i64, %c5_i64, %c5_i64, %c6_i64,
//   CHECK-NOT:   linalg.generic
//       CHECK:   memref.dealloc %[[S]]
//   CHECK-NOT:   linalg.generic
func.func @packed_scaled(%y: memref<1x8x5x5xf32>, %t: memref<1x8x1x1xf32>) -> memref<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %b = memref.get_global @fb : memref<6xf32>
  %z = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x8x5x5xf32>, memref<1x8x1x1xf32>) outs(%z : memref<1x8x5x5xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %0 = arith.negf %s : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32
  }
  %c = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<6xf32>) outs(%c : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%c : memref<1x6x5x5xf32>)
  memref.dealloc %z : memref<1x8x5x5xf32>
  %out = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : memref<1x6x5x5xf32>) outs(%out : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %c : memref<1x6x5x5xf32>
  return %out : memref<1x6x5x5xf32>
}

// 12 filters over a 3x3 image (F > H x W = 9): the image is scaled, once per pixel, by
// sigmoid(t) computed once per channel; the filter stays packed.
// CHECK-LABEL: func.func @image_scaled(
//  CHECK-SAME:     %[[Y:.*]]: memref<1x8x3x3xf32>, %[[T:.*]]: memref<1x8x1x1xf32>
//       CHECK:   %[[P:.*]] = memref.get_global @g_panels : memref<96xf32>
//       CHECK:   %[[Z:.*]] = memref.alloc() : memref<1x8x3x3xf32>
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<1x8x1x1xf32>
//       CHECK:   linalg.generic {{.*}} ins(%[[T]], %[[T]] : {{.*}}) outs(%[[E]] : memref<1x8x1x1xf32>)
//       CHECK:     math.exp
//       CHECK:   linalg.generic {{.*}} ins(%[[Y]], %[[E]] : memref<1x8x3x3xf32>, memref<1x8x1x1xf32>) outs(%[[Z]] : memref<1x8x3x3xf32>)
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     arith.mulf
//  CHECK-NEXT:     linalg.yield
//       CHECK:   memref.dealloc %[[E]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[Z]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[P]]
//       CHECK:   call @strata_conv2d_nchw_packed_f32(%c1_i64, %c8_i64, %c3_i64, %c3_i64, %c12_i64,
func.func @image_scaled(%y: memref<1x8x3x3xf32>, %t: memref<1x8x1x1xf32>) -> memref<1x12x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @g : memref<12x8x1x1xf32>
  %z = memref.alloc() : memref<1x8x3x3xf32>
  linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x8x3x3xf32>, memref<1x8x1x1xf32>) outs(%z : memref<1x8x3x3xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %0 = arith.negf %s : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32
  }
  %out = memref.alloc() : memref<1x12x3x3xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x12x3x3xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z, %w : memref<1x8x3x3xf32>, memref<12x8x1x1xf32>) outs(%out : memref<1x12x3x3xf32>)
  memref.dealloc %z : memref<1x8x3x3xf32>
  return %out : memref<1x12x3x3xf32>
}

// A convolution the kernels do not take (its output a strided view, no image of it
// contiguous) stays for the loops: its filter is scaled as it is, never as panels only
// a kernel call would read.
// CHECK-LABEL: func.func @unmatched_output(
//  CHECK-SAME:     %[[Y:.*]]: memref<1x8x5x5xf32>
//   CHECK-NOT:   memref.expand_shape
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<6x8x1x1xf32>
//       CHECK:   linalg.generic {{.*}} outs(%[[S]] : memref<6x8x1x1xf32>)
//       CHECK:   linalg.conv_2d_nchw_fchw {{.*}} ins(%[[Y]], %[[S]] : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>)
//       CHECK:   memref.dealloc %[[S]]
func.func @unmatched_output(%y: memref<1x8x5x5xf32>, %t: memref<1x8x1x1xf32>, %big: memref<1x6x5x10xf32>) {
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %z = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x8x5x5xf32>, memref<1x8x1x1xf32>) outs(%z : memref<1x8x5x5xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %0 = arith.mulf %a, %s : f32
    linalg.yield %0 : f32
  }
  %out = memref.subview %big[0, 0, 0, 0] [1, 6, 5, 5] [1, 1, 1, 2] : memref<1x6x5x10xf32> to memref<1x6x5x5xf32, strided<[300, 50, 10, 2]>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%out : memref<1x6x5x5xf32, strided<[300, 50, 10, 2]>>)
  memref.dealloc %z : memref<1x8x5x5xf32>
  return
}
