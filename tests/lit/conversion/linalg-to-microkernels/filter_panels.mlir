// RUN: strata-opt %s --strata-linalg-to-microkernels="filter-panel-rows=4 tile-choice=default" | filecheck %s
// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default | filecheck %s --check-prefix=NOPACK

// With filter-panel-rows=MR, a constant NCHW filter (F x C x KH x KW) is packed at
// compile time into MR-row panels of the whole K = C*KH*KW (ceil(F/MR) x K x MR floats,
// zero padded) and the convolution calls strata_conv2d_nchw_packed_f32; the original
// global goes when nothing reads it. 1x1 stride-1 windows too (the packed kernel
// multiplies their panels by the image itself); filters that are not constants keep the
// plain kernel.
//   CHECK-DAG: func.func private @strata_conv2d_nchw_packed_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i32, i64)
//   CHECK-DAG: func.func private @strata_conv2d_nchw_f32(
//   CHECK-DAG: memref.global "private" constant @w_panels : memref<288xf32> = dense_resource<w_panels> alignment = 64
//   CHECK-NOT: memref.global "private" constant @w :
//   CHECK-DAG: memref.global "private" constant @point_panels : memref<32xf32> = dense_resource<point_panels> alignment = 64
//   CHECK-NOT: memref.global "private" constant @point :
//      NOPACK: memref.global "private" constant @w : memref<6x4x3x3xf32>
//  NOPACK-NOT: _panels
memref.global "private" constant @w : memref<6x4x3x3xf32> = dense<1.0>
memref.global "private" constant @point : memref<8x4x1x1xf32> = dense<1.0>

// CHECK-LABEL: func.func @packed(
//       CHECK: %[[P:.*]] = memref.get_global @w_panels : memref<288xf32>
//       CHECK: call @strata_conv2d_nchw_packed_f32(
//       CHECK: memref.get_global @point_panels : memref<32xf32>
//       CHECK: call @strata_conv2d_nchw_packed_f32(
// NOPACK-LABEL: func.func @packed(
//   NOPACK-NOT: nchw_packed
func.func @packed(%i: memref<1x4x9x9xf32>, %o: memref<1x6x4x4xf32>, %p: memref<1x8x9x9xf32>) {
  %w = memref.get_global @w : memref<6x4x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<1x4x9x9xf32>, memref<6x4x3x3xf32>) outs(%o : memref<1x6x4x4xf32>)
  %q = memref.get_global @point : memref<8x4x1x1xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %q : memref<1x4x9x9xf32>, memref<8x4x1x1xf32>) outs(%p : memref<1x8x9x9xf32>)
  return
}

// A filter that is an argument stays as it is.
// CHECK-LABEL: func.func @argument(
//       CHECK: call @strata_conv2d_nchw_f32(
func.func @argument(%i: memref<1x4x9x9xf32>, %w: memref<6x4x3x3xf32>, %o: memref<1x6x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<1x4x9x9xf32>, memref<6x4x3x3xf32>) outs(%o : memref<1x6x4x4xf32>)
  return
}

// The bias broadcast into the output before the convolution and a ReLU after it: the
// epilogue of strata_conv2d_nchw_packed_epi_f32 (flags: 4 a bias per filter, 16 ReLU),
// writing the ReLU's output; the broadcast, the ReLU and the convolution's own buffer go.
memref.global "private" constant @cb : memref<6xf32> = dense<0.5>
// CHECK-LABEL: func.func @bias_relu(
//   CHECK-NOT: linalg.
//       CHECK: %[[R:.*]] = memref.alloc() : memref<1x6x4x4xf32>
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c0_i32, %{{.*}}, %c20_i32, %c0_i64{{(_[0-9]+)?}})
//   CHECK-NOT: linalg.
//   CHECK-NOT: memref.alloc
//       CHECK: return %[[R]]
func.func @bias_relu(%i: memref<1x4x9x9xf32>) -> memref<1x6x4x4xf32> {
  %w = memref.get_global @w : memref<6x4x3x3xf32>
  %b = memref.get_global @cb : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x6x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<6xf32>) outs(%o : memref<1x6x4x4xf32>) {
  ^bb0(%y: f32, %z: f32):
    linalg.yield %y : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<1x4x9x9xf32>, memref<6x4x3x3xf32>) outs(%o : memref<1x6x4x4xf32>)
  %r = memref.alloc() : memref<1x6x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : memref<1x6x4x4xf32>) outs(%r : memref<1x6x4x4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %o : memref<1x6x4x4xf32>
  return %r : memref<1x6x4x4xf32>
}
