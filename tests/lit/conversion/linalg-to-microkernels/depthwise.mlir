// RUN: strata-opt %s --strata-linalg-to-microkernels="tile-choice=default" | filecheck %s

// linalg.depthwise_conv_2d_nchw_chw calls strata_dwconv2d_nchw_f32 (see [Note: depthwise
// convolutions]): a zero-padded copy of its input is read through the kernel's pad top /
// left instead (the fill, copy and padded buffer go), a bias broadcast into its init and
// an activation generic after it (flags: 1 bias, activation << 4: relu 1, relu6 2,
// hardswish 3, silu 4, sigmoid 5) become the kernel's epilogue.
//       CHECK: func.func private @strata_dwconv2d_nchw_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b1 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
memref.global "private" constant @w : memref<8x1x3x3xf32> = dense<0.25>
memref.global "private" constant @b : memref<8xf32> = dense<0.5>

// ONNX's MobileNetV2 form: pad, bias broadcast, stride 2, Clip(0, 6) as selects, batch
// dim read as 0: flags 1 | 2 << 4 = 33, pad 1 and 1, the unpadded input read.
// CHECK-LABEL: func.func @pad_bias_relu6(
//  CHECK-SAME:     %[[X:.*]]: memref<1x8x10x10xf32>)
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[Z:.*]] = memref.alloc() : memref<1x8x5x5xf32>
//       CHECK:   memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:   call @strata_dwconv2d_nchw_f32(%c1_i64, %c8_i64, %c10_i64, %c10_i64, %c3_i64, %c3_i64, %c5_i64, %c5_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %{{.*}}, %c800_i64, %c100_i64, %c10_i64, %{{.*}}, %{{.*}}, %c200_i64, %c25_i64, %c5_i64, %c0_i32, %{{.*}}, %c33_i32, %c0_i64)
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   memref.alloc
//       CHECK:   return %[[Z]]
func.func @pad_bias_relu6(%x: memref<1x8x10x10xf32>) -> memref<1x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %w4 = memref.get_global @w : memref<8x1x3x3xf32>
  %b = memref.get_global @b : memref<8xf32>
  %p = memref.alloc() : memref<1x8x12x12xf32>
  linalg.map outs(%p : memref<1x8x12x12xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %in = memref.subview %p[0, 0, 1, 1] [1, 8, 10, 10] [1, 1, 1, 1] : memref<1x8x12x12xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  memref.copy %x, %in : memref<1x8x10x10xf32> to memref<1x8x10x10xf32, strided<[1152, 144, 12, 1], offset: 13>>
  %y = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<8xf32>) outs(%y : memref<1x8x5x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  %w = memref.collapse_shape %w4 [[0, 1], [2], [3]] : memref<8x1x3x3xf32> into memref<8x3x3xf32>
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : memref<1x8x12x12xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x5x5xf32>)
  memref.dealloc %p : memref<1x8x12x12xf32>
  %z = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#b1, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : memref<1x8x5x5xf32>) outs(%z : memref<1x8x5x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.cmpf olt, %v, %zero : f32
    %1 = arith.select %0, %zero, %v : f32
    %2 = arith.cmpf ogt, %1, %six : f32
    %3 = arith.select %2, %six, %1 : f32
    linalg.yield %3 : f32
  }
  memref.dealloc %y : memref<1x8x5x5xf32>
  return %z : memref<1x8x5x5xf32>
}

// The padded copy's source is freed between the copy and the convolution: its dealloc
// moves after the call, which reads it (pad top 2, left 1).
// CHECK-LABEL: func.func @source_freed_before(
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<1x8x6x6xf32>
//       CHECK:   linalg.generic
//   CHECK-NOT:   memref.dealloc %[[S]]
//       CHECK:   call @strata_dwconv2d_nchw_f32(%c1_i64, %c8_i64, %c6_i64, %c6_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c2_i64, %c1_i64,
//  CHECK-NEXT:   memref.dealloc %[[S]]
//   CHECK-NOT:   memref.copy
func.func @source_freed_before(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>) -> memref<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<1x8x6x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x8x6x6xf32>) outs(%s : memref<1x8x6x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.maximumf %v, %zero : f32
    linalg.yield %0 : f32
  }
  %p = memref.alloc() : memref<1x8x9x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x9x8xf32>)
  %in = memref.subview %p[0, 0, 2, 1] [1, 8, 6, 6] [1, 1, 1, 1] : memref<1x8x9x8xf32> to memref<1x8x6x6xf32, strided<[576, 72, 8, 1], offset: 17>>
  memref.copy %s, %in : memref<1x8x6x6xf32> to memref<1x8x6x6xf32, strided<[576, 72, 8, 1], offset: 17>>
  memref.dealloc %s : memref<1x8x6x6xf32>
  %y = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x6x6xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x8x9x8xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  memref.dealloc %p : memref<1x8x9x8xf32>
  return %y : memref<1x8x6x6xf32>
}

// A padding of ones is no zero padding: the convolution reads the padded buffer.
// CHECK-LABEL: func.func @pad_of_ones(
//       CHECK:   memref.copy
//       CHECK:   call @strata_dwconv2d_nchw_f32(%c1_i64, %c8_i64, %c8_i64, %c8_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
func.func @pad_of_ones(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>) -> memref<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<1x8x8x8xf32>
  linalg.fill ins(%one : f32) outs(%p : memref<1x8x8x8xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 8, 6, 6] [1, 1, 1, 1] : memref<1x8x8x8xf32> to memref<1x8x6x6xf32, strided<[512, 64, 8, 1], offset: 9>>
  memref.copy %x, %in : memref<1x8x6x6xf32> to memref<1x8x6x6xf32, strided<[512, 64, 8, 1], offset: 9>>
  %y = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x6x6xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x8x8x8xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  memref.dealloc %p : memref<1x8x8x8xf32>
  return %y : memref<1x8x6x6xf32>
}

// A bias add and SiLU (ONNX's Sigmoid then Mul) after it: flags 1 | 4 << 4 = 65; two
// images, a 5x5 window, no padding.
// CHECK-LABEL: func.func @bias_silu_after(
//   CHECK-NOT:   linalg.
//       CHECK:   call @strata_dwconv2d_nchw_f32(%c2_i64, %c8_i64, %c9_i64, %c9_i64, %c5_i64, %c5_i64, %c5_i64, %c5_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %{{.*}}, %c648_i64, %c81_i64, %c9_i64, %{{.*}}, %{{.*}}, %c200_i64, %c25_i64, %c5_i64, %c0_i32, %{{.*}}, %c65_i32, %c0_i64)
//   CHECK-NOT:   linalg.
func.func @bias_silu_after(%x: memref<2x8x9x9xf32>, %w: memref<8x5x5xf32>) -> memref<2x8x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %b = memref.get_global @b : memref<8xf32>
  %y = memref.alloc() : memref<2x8x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x8x5x5xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<2x8x9x9xf32>, memref<8x5x5xf32>) outs(%y : memref<2x8x5x5xf32>)
  %z = memref.alloc() : memref<2x8x5x5xf32>
  linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %b : memref<2x8x5x5xf32>, memref<8xf32>) outs(%z : memref<2x8x5x5xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %0 = arith.negf %s : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.mulf %s, %3 : f32
    linalg.yield %4 : f32
  }
  memref.dealloc %y : memref<2x8x5x5xf32>
  return %z : memref<2x8x5x5xf32>
}

// torch's hardswish (x * min(max(x + 3, 0), 6) / 6) in place on an output that is
// accumulated into (no zero fill): flags 3 << 4 = 48, accumulate 1.
// CHECK-LABEL: func.func @hardswish_in_place(
//       CHECK:   call @strata_dwconv2d_nchw_f32({{.*}}, %c1_i32, %{{.*}}, %c48_i32, %c0_i64)
//   CHECK-NOT:   linalg.
//       CHECK:   return
func.func @hardswish_in_place(%x: memref<1x8x7x7xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x7x7xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x5x5xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<1x8x5x5xf32>) {
  ^bb0(%v: f32):
    %0 = arith.addf %v, %three : f32
    %1 = arith.maximumf %0, %zero : f32
    %2 = arith.minimumf %1, %six : f32
    %3 = arith.mulf %v, %2 : f32
    %4 = arith.divf %3, %six : f32
    linalg.yield %4 : f32
  }
  return
}

// A generic that is no activation stays after the call (dilation 2, no flags).
// CHECK-LABEL: func.func @not_an_activation(
//       CHECK:   call @strata_dwconv2d_nchw_f32(%c1_i64, %c8_i64, %c7_i64, %c7_i64, %c3_i64, %c3_i64, %c3_i64, %c3_i64, %c1_i64, %c1_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64, {{.*}}, %c0_i32, %{{.*}}, %c0_i32, %c0_i64)
//       CHECK:   linalg.generic
//       CHECK:   arith.minimumf
func.func @not_an_activation(%x: memref<1x8x7x7xf32>, %w: memref<8x3x3xf32>) -> memref<1x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %five = arith.constant 5.0 : f32
  %y = memref.alloc() : memref<1x8x3x3xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x3x3xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x7x7xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x3x3xf32>)
  %z = memref.alloc() : memref<1x8x3x3xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : memref<1x8x3x3xf32>) outs(%z : memref<1x8x3x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.minimumf %v, %five : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %y : memref<1x8x3x3xf32>
  return %z : memref<1x8x3x3xf32>
}

// Clip's bounds read from single-element constant globals (ONNX initializers), as the
// maximum / minimum form: still relu6 (flags 2 << 4 = 32); a bound of another value
// (5) keeps the generic.
memref.global "private" constant @lo : memref<f32> = dense<0.0>
memref.global "private" constant @hi : memref<f32> = dense<6.0>
memref.global "private" constant @hi5 : memref<1xf32> = dense<5.0>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#one = affine_map<(d0, d1, d2, d3) -> (0)>
// CHECK-LABEL: func.func @clip_bounds_from_globals(
//       CHECK:   call @strata_dwconv2d_nchw_f32({{.*}}, %c32_i32, %c0_i64)
//   CHECK-NOT:   linalg.generic
//       CHECK:   call @strata_dwconv2d_nchw_f32({{.*}}, %c0_i32{{[_0-9]*}}, %c0_i64{{[_0-9]*}})
//       CHECK:   linalg.generic
//       CHECK:   return
func.func @clip_bounds_from_globals(%x: memref<1x8x7x7xf32>, %w: memref<8x3x3xf32>) -> (memref<1x8x5x5xf32>, memref<1x8x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %lo = memref.get_global @lo : memref<f32>
  %hi = memref.get_global @hi : memref<f32>
  %hi5 = memref.get_global @hi5 : memref<1xf32>
  %y = memref.alloc() : memref<1x8x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x5x5xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x7x7xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x5x5xf32>)
  %z = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %lo, %hi : memref<1x8x5x5xf32>, memref<f32>, memref<f32>) outs(%z : memref<1x8x5x5xf32>) {
  ^bb0(%v: f32, %l: f32, %h: f32, %o: f32):
    %0 = arith.maximumf %v, %l : f32
    %1 = arith.minimumf %0, %h : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %y : memref<1x8x5x5xf32>
  %y2 = memref.alloc() : memref<1x8x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%y2 : memref<1x8x5x5xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x7x7xf32>, memref<8x3x3xf32>) outs(%y2 : memref<1x8x5x5xf32>)
  %z2 = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id, #scalar, #one, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y2, %lo, %hi5 : memref<1x8x5x5xf32>, memref<f32>, memref<1xf32>) outs(%z2 : memref<1x8x5x5xf32>) {
  ^bb0(%v: f32, %l: f32, %h: f32, %o: f32):
    %0 = arith.maximumf %v, %l : f32
    %1 = arith.minimumf %0, %h : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %y2 : memref<1x8x5x5xf32>
  return %z, %z2 : memref<1x8x5x5xf32>, memref<1x8x5x5xf32>
}

// An unfolded batch norm then ReLU (torch.export's form) on a constant filter: a[c] =
// gamma / sqrt(var + eps), b[c] = beta - mean * a[c] are computed now, the filter
// scaled into a new global, b the bias (flags 1 | 1 << 4 = 17); the batch norm's
// globals go. Here a = 4 / sqrt(3 + 1) = 2 (the filter of ones becomes twos, f32 0x40000000)
// and b = 1 - 0.25 * 2 = 0.5 (0x3F000000).
// CHECK-LABEL: func.func @batch_norm_relu(
//   CHECK-NOT:   linalg.
//       CHECK:   memref.get_global @bn_w_scaled : memref<72xf32>
//       CHECK:   memref.get_global @bn_w_bias : memref<8xf32>
//       CHECK:   call @strata_dwconv2d_nchw_f32({{.*}}, %c0_i32, %{{.*}}, %c17_i32, %c0_i64)
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   @gamma
memref.global "private" constant @bn_w : memref<8x1x3x3xf32> = dense<1.0>
memref.global "private" constant @gamma : memref<8xf32> = dense<4.0>
memref.global "private" constant @beta : memref<8xf32> = dense<1.0>
memref.global "private" constant @mean : memref<8xf32> = dense<0.25>
memref.global "private" constant @var : memref<8xf32> = dense<3.0>
func.func @batch_norm_relu(%x: memref<1x8x6x6xf32>) -> memref<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0 : f32
  %w4 = memref.get_global @bn_w : memref<8x1x3x3xf32>
  %w = memref.collapse_shape %w4 [[0, 1], [2], [3]] : memref<8x1x3x3xf32> into memref<8x3x3xf32>
  %y = memref.alloc() : memref<1x8x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x4x4xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %z = memref.alloc() : memref<1x8x4x4xf32>
  linalg.generic {indexing_maps = [#id, #bias, #bias, #bias, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %g, %b, %m, %v : memref<1x8x4x4xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%z : memref<1x8x4x4xf32>) {
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
  memref.dealloc %y : memref<1x8x4x4xf32>
  return %z : memref<1x8x4x4xf32>
}
//       CHECK: bn_w_scaled: "0x40000000{{(00000040)+}}"
//       CHECK: bn_w_bias: "0x40000000{{(0000003F)+}}"
