// RUN: strata-opt %s --strata-linalg-to-microkernels="filter-panel-rows=4 tile-choice=default" | filecheck %s

// A batch norm + activation writing a 1x1 convolution's input (DenseNet's pre-activation
// layers) becomes the kernel's input prologue (strata_conv2d_nchw_packed_pro_f32: the
// image read as act(x * scale[c] + shift[c]), code 1 relu, 2 relu6 after the tile word's
// predecessor; [Note: input prologues, the match]): the generic and its buffer go, scale
// and shift are new constant globals. Near misses keep the generic.
memref.global "private" constant @f : memref<6x8x1x1xf32> = dense<1.0>
memref.global "private" constant @f3 : memref<6x8x3x3xf32> = dense<1.0>
memref.global "private" constant @gamma : memref<8xf32> = dense<[1.0, -2.0, 0.5, 1.0, 1.0, 3.0, 1.0, 1.0]>
memref.global "private" constant @beta : memref<8xf32> = dense<0.25>
memref.global "private" constant @mean : memref<8xf32> = dense<0.5>
memref.global "private" constant @var : memref<8xf32> = dense<4.0>
memref.global "private" constant @zvar : memref<8xf32> = dense<0.0>
memref.global "private" constant @lo : memref<f32> = dense<0.0>
memref.global "private" constant @hi : memref<f32> = dense<6.0>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
#none = affine_map<(d0, d1, d2, d3) -> ()>

// CHECK-LABEL: func.func @bn_relu(
//   CHECK-NOT: linalg.generic
//       CHECK: %[[S:.*]] = memref.get_global @f_pro_scale : memref<8xf32>
//       CHECK: %[[T:.*]] = memref.get_global @f_pro_shift : memref<8xf32>
//       CHECK: call @strata_conv2d_nchw_packed_pro_f32({{.*}}, %c1_i32, %{{.*}})
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: memref.alloc() : memref<1x8x5x5xf32>
//       CHECK: return
func.func @bn_relu(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// relu6 as max then min: code 2
// CHECK-LABEL: func.func @bn_relu6(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_pro_f32({{.*}}, %c2_i32, %{{.*}})
func.func @bn_relu6(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    %six = arith.constant 6.0 : f32
    %r6 = arith.minimumf %r, %six : f32
    linalg.yield %r6 : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// the image a channel slice of a wider buffer (a concatenation's, strata-concat-in-place)
// CHECK-LABEL: func.func @bn_relu_slice(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_pro_f32
func.func @bn_relu_slice(%x: memref<1x8x5x5xf32, strided<[400, 25, 5, 1]>>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32, strided<[400, 25, 5, 1]>>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// NEAR MISS: maxnumf drops NaN (the kernel's ReLU keeps it): the generic stays
// CHECK-LABEL: func.func @maxnum_relu(
//       CHECK: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_f32
func.func @maxnum_relu(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maxnumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// NEAR MISS: a 3x3 window (the prologue pays on the GEMM path only)
// CHECK-LABEL: func.func @window_3x3(
//       CHECK: linalg.generic
//   CHECK-NOT: strata_conv2d_nchw_packed_pro_f32
//       CHECK: return
func.func @window_3x3(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x3x3xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f3 : memref<6x8x3x3xf32>
  %y = memref.alloc() : memref<1x6x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x3x3xf32>) outs(%y : memref<1x6x3x3xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x3x3xf32>
}

// NEAR MISS: a zero variance and eps 0 would make x * inf + -inf: not folded
// CHECK-LABEL: func.func @zero_variance(
//       CHECK: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_f32
func.func @zero_variance(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @zvar : memref<8xf32>
  %eps = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// NEAR MISS: the normalized map is read by something else too
// CHECK-LABEL: func.func @read_twice(
//       CHECK: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_f32
//       CHECK: memref.copy
func.func @read_twice(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  %c = memref.alloc() : memref<1x8x5x5xf32>
  memref.copy %n, %c : memref<1x8x5x5xf32> to memref<1x8x5x5xf32>
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// NEAR MISS: the image is written between the batch norm and the convolution
// CHECK-LABEL: func.func @written_between(
//       CHECK: linalg.generic
//       CHECK: linalg.fill
//       CHECK: call @strata_conv2d_nchw_packed_f32
func.func @written_between(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%x : memref<1x8x5x5xf32>)
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// NEAR MISS: a scale that is not a constant (a function argument)
// CHECK-LABEL: func.func @runtime_scale(
//       CHECK: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_f32
func.func @runtime_scale(%x: memref<1x8x5x5xf32>, %arg: memref<8xf32>) -> memref<1x6x5x5xf32> {
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %m = memref.get_global @mean : memref<8xf32>
  %v = memref.get_global @var : memref<8xf32>
  %eps = arith.constant 1.0e-5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %arg, %b, %m, %v : memref<1x8x5x5xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %mi: f32, %vi: f32, %o: f32):
    %0 = arith.addf %vi, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.subf %in, %mi : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    %r = arith.maximumf %5, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}

// a run-time batch (the kernel loops over the images)
// CHECK-LABEL: func.func @dynamic_batch(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_pro_f32
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @dynamic_batch(%x: memref<?x8x5x5xf32>) -> memref<?x6x5x5xf32> {
  %c0 = arith.constant 0 : index
  %nb = memref.dim %x, %c0 : memref<?x8x5x5xf32>
  %g = memref.get_global @gamma : memref<8xf32>
  %b = memref.get_global @beta : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc(%nb) : memref<?x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b : memref<?x8x5x5xf32>, memref<8xf32>, memref<8xf32>) outs(%n : memref<?x8x5x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %o: f32):
    %0 = arith.mulf %in, %gi : f32
    %1 = arith.addf %0, %bi : f32
    %r = arith.maximumf %1, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc(%nb) : memref<?x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<?x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<?x6x5x5xf32>)
  memref.dealloc %n : memref<?x8x5x5xf32>
  return %y : memref<?x6x5x5xf32>
}

// NEAR MISS: a per-pixel (not per-channel) operand
// CHECK-LABEL: func.func @per_pixel(
//       CHECK: linalg.generic
//       CHECK: call @strata_conv2d_nchw_packed_f32
func.func @per_pixel(%x: memref<1x8x5x5xf32>, %s: memref<1x8x5x5xf32>) -> memref<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %n = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : memref<1x8x5x5xf32>, memref<1x8x5x5xf32>) outs(%n : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %si: f32, %o: f32):
    %0 = arith.mulf %in, %si : f32
    %r = arith.maximumf %0, %zero : f32
    linalg.yield %r : f32
  }
  %w = memref.get_global @f : memref<6x8x1x1xf32>
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%n, %w : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  memref.dealloc %n : memref<1x8x5x5xf32>
  return %y : memref<1x6x5x5xf32>
}
