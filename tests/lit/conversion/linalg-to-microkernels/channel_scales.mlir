// RUN: strata-opt %s --strata-linalg-to-microkernels="tile-choice=default" | filecheck %s

// Squeeze-excitation's z = y * sigmoid(t) read only by a 1x1 convolution: the generic
// scales the convolution's filter instead (w' = w * sigmoid(t) per input channel), and
// the convolution reads y (see [Note: channel scales]); y's dealloc moves after it.
// sigmoid(t) is computed once per channel first (a copy of the generic over t alone),
// not once per filter element.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>

// CHECK-LABEL: func.func @se_then_project(
//  CHECK-SAME:     %[[Y:.*]]: memref<1x16x5x5xf32>, %[[T:.*]]: memref<1x16x1x1xf32>, %[[W:.*]]: memref<8x16x1x1xf32>
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<1x16x1x1xf32>
//       CHECK:   linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T]], %[[T]] : memref<1x16x1x1xf32>, memref<1x16x1x1xf32>) outs(%[[E]] : memref<1x16x1x1xf32>)
//       CHECK:     math.exp
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<8x16x1x1xf32>
//       CHECK:   linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[W]], %[[E]] : memref<8x16x1x1xf32>, memref<1x16x1x1xf32>) outs(%[[S]] : memref<8x16x1x1xf32>)
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     arith.mulf
//  CHECK-NEXT:     linalg.yield
//       CHECK:   memref.dealloc %[[E]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[Y]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[S]]
//       CHECK:   call @strata_conv2d_nchw_f32(%c1_i64, %c16_i64, %c5_i64, %c5_i64, %c8_i64,
//  CHECK-NEXT:   memref.dealloc %[[S]]
//   CHECK-NOT:   linalg.generic
func.func @se_then_project(%y: memref<1x16x5x5xf32>, %t: memref<1x16x1x1xf32>, %w: memref<8x16x1x1xf32>) -> memref<1x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %z = memref.alloc() : memref<1x16x5x5xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x16x5x5xf32>, memref<1x16x1x1xf32>) outs(%z : memref<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.negf %b : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32
  }
  %out = memref.alloc() : memref<1x8x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x8x5x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z, %w : memref<1x16x5x5xf32>, memref<8x16x1x1xf32>) outs(%out : memref<1x8x5x5xf32>)
  memref.dealloc %z : memref<1x16x5x5xf32>
  return %out : memref<1x8x5x5xf32>
}

// Not folded: the scaled image is read by something else too (returned), or by a 3x3
// convolution, or the scale depends on the pixel.
// CHECK-LABEL: func.func @not_folded(
//   CHECK-COUNT-3: linalg.generic
func.func @not_folded(%y: memref<1x16x5x5xf32>, %t: memref<1x16x1x1xf32>, %w: memref<8x16x1x1xf32>, %w3: memref<8x16x3x3xf32>, %u: memref<1x16x5x5xf32>) -> memref<1x16x5x5xf32> {
  %z = memref.alloc() : memref<1x16x5x5xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x16x5x5xf32>, memref<1x16x1x1xf32>) outs(%z : memref<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  }
  %out = memref.alloc() : memref<1x8x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z, %w : memref<1x16x5x5xf32>, memref<8x16x1x1xf32>) outs(%out : memref<1x8x5x5xf32>)
  %z3 = memref.alloc() : memref<1x16x5x5xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %t : memref<1x16x5x5xf32>, memref<1x16x1x1xf32>) outs(%z3 : memref<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  }
  %out3 = memref.alloc() : memref<1x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%z3, %w3 : memref<1x16x5x5xf32>, memref<8x16x3x3xf32>) outs(%out3 : memref<1x8x3x3xf32>)
  %zp = memref.alloc() : memref<1x16x5x5xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %u : memref<1x16x5x5xf32>, memref<1x16x5x5xf32>) outs(%zp : memref<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  }
  %outp = memref.alloc() : memref<1x8x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%zp, %w : memref<1x16x5x5xf32>, memref<8x16x1x1xf32>) outs(%outp : memref<1x8x5x5xf32>)
  return %z : memref<1x16x5x5xf32>
}
