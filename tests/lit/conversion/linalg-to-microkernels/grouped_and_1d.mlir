// RUN: strata-opt %s --strata-linalg-to-microkernels="filter-panel-rows=4 tile-choice=default" | filecheck %s

// Grouped convolutions (linalg.conv_2d_ngchw_gfchw, what ONNX and torch convolutions with
// 1 < group < channels lower to) call the grouped NCHW kernels: N, G, C and F per group,
// the window, the input and its N, G, C and H strides, the filter (each group's packed
// on its own when constant: ceil(F/MR)*MR x K floats a group), the output and its N
// stride. 1-D convolutions (linalg.conv_1d_ncw_fcw) call the NCHW kernels with
// H = KH = OH = 1, the input's H stride its W extent.
//   CHECK-DAG: func.func private @strata_conv2d_nchw_grouped_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i32, i64)
//   CHECK-DAG: func.func private @strata_conv2d_nchw_grouped_packed_epi_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr, i32, i64)
//   CHECK-DAG: memref.global "private" constant @w_panels : memref<576xf32>
//   CHECK-NOT: memref.global "private" constant @w :
//   CHECK-DAG: memref.global "private" constant @w1_panels : memref<96xf32>


memref.global "private" constant @w : memref<16x4x3x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<16xf32> = dense<0.5>
memref.global "private" constant @w1 : memref<6x4x3xf32> = dense<1.0>
memref.global "private" constant @b1 : memref<6xf32> = dense<0.5>

// CHECK-LABEL: func.func @grouped(
//       CHECK: call @strata_conv2d_nchw_grouped_f32(%c2_i64, %c4_i64, %c4_i64, %c9_i64, %c11_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c4_i64, %c2_i64, %c2_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64, %1, %c1584_i64, %c396_i64, %c99_i64, %c11_i64, %3, %5, %c256_i64, %c1_i32, %c0_i64)
//   CHECK-NOT: linalg.
func.func @grouped(%i: memref<2x4x4x9x11xf32>, %w: memref<4x4x4x3x3xf32>, %o: memref<2x4x4x4x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<2x4x4x9x11xf32>, memref<4x4x4x3x3xf32>) outs(%o : memref<2x4x4x4x4xf32>)
  return
}

// A (G, F) view of the per-filter bias broadcast into the output before it, and a ReLU
// after it reading the output's collapse to N x G*F x OH x OW (the lowering's views around
// a grouped convolution): the epilogue (flags 20: bias per filter, ReLU), writing the
// ReLU's buffer; the broadcast, the ReLU and the 5-D buffer go.
// CHECK-LABEL: func.func @grouped_bias_relu(
//   CHECK-NOT: linalg.
//       CHECK: %[[R:.*]] = memref.alloc() : memref<1x16x7x7xf32>
//       CHECK: %[[B:.*]] = memref.extract_aligned_pointer_as_index %expand_shape : memref<4x4xf32>
//       CHECK: call @strata_conv2d_nchw_grouped_packed_epi_f32(%c1_i64, %c4_i64, %c4_i64, %c9_i64, %c9_i64, %c4_i64, %c3_i64, %c3_i64, %c7_i64, %c7_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %3, %c1296_i64, %c324_i64, %c81_i64, %c9_i64, %5, %7, %c784_i64, %c0_i32, %9, %c20_i32, %c0_i64)
//   CHECK-NOT: linalg.
//   CHECK-NOT: memref.alloc
//   CHECK-NOT: collapse_shape
//       CHECK: return %[[R]]
func.func @grouped_bias_relu(%x: memref<1x16x9x9xf32>) -> memref<1x16x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<16x4x3x3xf32>
  %b = memref.get_global @b : memref<16xf32>
  %b2 = memref.expand_shape %b [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %o = memref.alloc() : memref<1x4x4x7x7xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%b2 : memref<4x4xf32>) outs(%o : memref<1x4x4x7x7xf32>) {
  ^bb0(%y: f32, %z: f32):
    linalg.yield %y : f32
  }
  %xg = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 9, 9] : memref<1x16x9x9xf32> into memref<1x4x4x9x9xf32>
  %wg = memref.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 4, 4, 3, 3] : memref<16x4x3x3xf32> into memref<4x4x4x3x3xf32>
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xg, %wg : memref<1x4x4x9x9xf32>, memref<4x4x4x3x3xf32>) outs(%o : memref<1x4x4x7x7xf32>)
  %c = memref.collapse_shape %o [[0], [1, 2], [3], [4]] : memref<1x4x4x7x7xf32> into memref<1x16x7x7xf32>
  %r = memref.alloc() : memref<1x16x7x7xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x16x7x7xf32>) outs(%r : memref<1x16x7x7xf32>) {
  ^bb0(%v: f32, %z: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %o : memref<1x4x4x7x7xf32>
  return %r : memref<1x16x7x7xf32>
}

// CHECK-LABEL: func.func @conv1d(
//       CHECK: call @strata_conv2d_nchw_f32(%c2_i64, %c3_i64, %c1_i64, %c20_i64, %c5_i64, %c1_i64, %c3_i64, %c1_i64, %c8_i64, %c1_i64, %c2_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64, %1, %c80_i64, %c20_i64, %c20_i64, %3, %5, %c40_i64, %c1_i32, %c0_i64)
func.func @conv1d(%i: memref<2x3x20xf32, strided<[80, 20, 1]>>, %w: memref<5x3x3xf32>, %o: memref<2x5x8xf32>) {
  linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%i, %w : memref<2x3x20xf32, strided<[80, 20, 1]>>, memref<5x3x3xf32>) outs(%o : memref<2x5x8xf32>)
  return
}

// A 1-D convolution with a constant filter, a bias broadcast before it, a ReLU after it
// (reading the batch of one as (0, d1, d2)): the packed epilogue kernel.
// CHECK-LABEL: func.func @conv1d_bias_relu(
//   CHECK-NOT: linalg.
//       CHECK: %[[R:.*]] = memref.alloc() : memref<1x6x10xf32>
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32(%c1_i64, %c4_i64, %c1_i64, %c12_i64, %c6_i64, %c1_i64, %c3_i64, %c1_i64, %c10_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %3, %c48_i64, %c12_i64, %c12_i64, %5, %7, %c60_i64, %c0_i32, %9, %c20_i32, %c0_i64)
//   CHECK-NOT: linalg.
//       CHECK: return %[[R]]
func.func @conv1d_bias_relu(%x: memref<1x4x12xf32>) -> memref<1x6x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w1 : memref<6x4x3xf32>
  %b = memref.get_global @b1 : memref<6xf32>
  %o = memref.alloc() : memref<1x6x10xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b : memref<6xf32>) outs(%o : memref<1x6x10xf32>) {
  ^bb0(%y: f32, %z: f32):
    linalg.yield %y : f32
  }
  linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : memref<1x4x12xf32>, memref<6x4x3xf32>) outs(%o : memref<1x6x10xf32>)
  %r = memref.alloc() : memref<1x6x10xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : memref<1x6x10xf32>) outs(%r : memref<1x6x10xf32>) {
  ^bb0(%v: f32, %z: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %o : memref<1x6x10xf32>
  return %r : memref<1x6x10xf32>
}

// Left for the loops: a filter that is not contiguous, an output image that is not
// contiguous, f16.
// CHECK-LABEL: func.func @not_matched(
//  CHECK-NEXT: linalg.conv_2d_ngchw_gfchw
//  CHECK-NEXT: linalg.conv_2d_ngchw_gfchw
//  CHECK-NEXT: linalg.conv_1d_ncw_fcw
//  CHECK-NEXT: return
func.func @not_matched(%i: memref<1x2x3x10x10xf32>, %ws: memref<2x4x3x3x3xf32, strided<[128, 27, 9, 3, 1]>>, %w: memref<2x4x3x3x3xf32>, %os: memref<1x2x4x8x8xf32, strided<[1024, 512, 80, 10, 1]>>, %i16: memref<1x3x10xf16>, %w16: memref<6x3x3xf16>, %o16: memref<1x6x8xf16>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %ws : memref<1x2x3x10x10xf32>, memref<2x4x3x3x3xf32, strided<[128, 27, 9, 3, 1]>>) outs(%os : memref<1x2x4x8x8xf32, strided<[1024, 512, 80, 10, 1]>>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : memref<1x2x3x10x10xf32>, memref<2x4x3x3x3xf32>) outs(%os : memref<1x2x4x8x8xf32, strided<[1024, 512, 80, 10, 1]>>)
  linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%i16, %w16 : memref<1x3x10xf16>, memref<6x3x3xf16>) outs(%o16 : memref<1x6x8xf16>)
  return
}
