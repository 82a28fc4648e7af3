// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// An NCHW convolution's epilogue writes a channel slice of a bigger buffer (what
// strata-concat-in-place leaves: the ReLU after a convolution writes its slice of a
// concatenation, through a subview made between the two): the kernel takes the
// slice's pointer and its image stride. The subview moves before the call.
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
memref.global "private" constant @f : memref<6x8x1x1xf32> = dense<0.5>
memref.global "private" constant @fb : memref<6xf32> = dense<0.25>
memref.global "private" constant @w : memref<8x6xf32> = dense<0.5>

// CHECK-LABEL: func.func @conv_relu_into_channel_slice(
//       CHECK:   %[[BIG:.*]] = memref.alloc() : memref<2x10x5x5xf32>
//       CHECK:   %[[S:.*]] = memref.subview %[[BIG]][0, 4, 0, 0] [2, 6, 5, 5] [1, 1, 1, 1]
//       CHECK:   call @strata_conv2d_nchw_packed_epi_f32(
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[BIG]]
func.func @conv_relu_into_channel_slice(%i: memref<2x8x5x5xf32>) -> memref<2x10x5x5xf32> {
  %f = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<2x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%y : memref<2x6x5x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<2x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<2x6x5x5xf32>)
  %big = memref.alloc() : memref<2x10x5x5xf32>
  %s = memref.subview %big[0, 4, 0, 0] [2, 6, 5, 5] [1, 1, 1, 1] : memref<2x10x5x5xf32> to memref<2x6x5x5xf32, strided<[250, 25, 5, 1], offset: 100>>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<2x6x5x5xf32>) outs(%s : memref<2x6x5x5xf32, strided<[250, 25, 5, 1], offset: 100>>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<2x6x5x5xf32>
  return %big : memref<2x10x5x5xf32>
}

// Rows of a bigger buffer are not whole images: the ReLU stays a loop.
// CHECK-LABEL: func.func @conv_relu_into_row_slice(
//       CHECK:   call @strata_conv2d_nchw_packed_epi_f32(
//       CHECK:   linalg.generic
//       CHECK:   arith.maximumf
func.func @conv_relu_into_row_slice(%i: memref<1x8x5x5xf32>) -> memref<1x6x9x5xf32> {
  %f = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%y : memref<1x6x5x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  %big = memref.alloc() : memref<1x6x9x5xf32>
  %s = memref.subview %big[0, 0, 4, 0] [1, 6, 5, 5] [1, 1, 1, 1] : memref<1x6x9x5xf32> to memref<1x6x5x5xf32, strided<[270, 45, 5, 1], offset: 20>>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x6x5x5xf32>) outs(%s : memref<1x6x5x5xf32, strided<[270, 45, 5, 1], offset: 20>>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<1x6x5x5xf32>
  return %big : memref<1x6x9x5xf32>
}

// A GEMM reads its output's strides from the product's own buffer: an epilogue into a
// column slice (other strides) stays a loop.
// CHECK-LABEL: func.func @gemm_relu_into_column_slice(
//       CHECK:   call @strata_sgemm_packed_f32(
//       CHECK:   linalg.generic
//       CHECK:   arith.maximumf
func.func @gemm_relu_into_column_slice(%a: memref<4x8xf32>) -> memref<4x10xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  %big = memref.alloc() : memref<4x10xf32>
  %s = memref.subview %big[0, 4] [4, 6] [1, 1] : memref<4x10xf32> to memref<4x6xf32, strided<[10, 1], offset: 4>>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%s : memref<4x6xf32, strided<[10, 1], offset: 4>>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<4x6xf32>
  return %big : memref<4x10xf32>
}
