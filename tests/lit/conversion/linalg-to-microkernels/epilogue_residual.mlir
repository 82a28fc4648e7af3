// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// A residual add after a product that overwrites C (see [Note: residual epilogues]):
// act(C + r) with r a buffer the kernel may overwrite becomes the kernel accumulating
// into r (accumulate = 1, the bias and the activation in the epilogue), r then standing
// for the generic's output. Where r is read after the product, is a function argument,
// or is the product's input, the generic stays.
memref.global "private" constant @w : memref<8x6xf32> = dense<1.0>
memref.global "private" constant @f : memref<6x8x1x1xf32> = dense<1.0>
memref.global "private" constant @fb : memref<6xf32> = dense<0.5>
memref.global "private" constant @f8 : memref<8x8x1x1xf32> = dense<1.0>
memref.global "private" constant @fb8 : memref<8xf32> = dense<0.5>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b1 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>

// ResNet's bottleneck end: bias broadcast, 1x1 convolution, relu(c + r) read as a batch
// of one (0, d1, d2, d3): row bias 4 | relu 1 << 4, accumulate 1, written into %r
// CHECK-LABEL: func.func @conv_bias_residual_relu(
//   CHECK-NOT: linalg.generic
//       CHECK: %[[R:.*]] = memref.alloc() : memref<1x6x5x5xf32>
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c1_i32, %{{.*}}, %c20_i32, %{{.*}})
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: memref.dealloc %[[R]]
//       CHECK: return %[[R]]
func.func @conv_bias_residual_relu(%x: memref<1x8x5x5xf32>, %y: memref<1x6x5x5xf32>)
    -> memref<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x6x5x5xf32>
  memref.copy %y, %r : memref<1x6x5x5xf32> to memref<1x6x5x5xf32>
  %fw = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %c = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%c : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %fw : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%c : memref<1x6x5x5xf32>)
  %out = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#b1, #b1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x6x5x5xf32>, memref<1x6x5x5xf32>) outs(%out : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %res : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %r : memref<1x6x5x5xf32>
  memref.dealloc %c : memref<1x6x5x5xf32>
  return %out : memref<1x6x5x5xf32>
}

// MobileNetV2's residual (no activation, no bias: a zero fill), r + C: flags 0, accumulate 1
// CHECK-LABEL: func.func @conv_residual_no_act(
//   CHECK-NOT: linalg.fill
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c1_i32, %{{.*}}, %c0_i32{{.*}}, %{{.*}})
//   CHECK-NOT: linalg.generic
func.func @conv_residual_no_act(%x: memref<1x8x5x5xf32>, %y: memref<1x6x5x5xf32>)
    -> memref<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x6x5x5xf32>
  memref.copy %y, %r : memref<1x6x5x5xf32> to memref<1x6x5x5xf32>
  %fw = memref.get_global @f : memref<6x8x1x1xf32>
  %c = memref.alloc() : memref<1x6x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x6x5x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %fw : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%c : memref<1x6x5x5xf32>)
  %out = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %c : memref<1x6x5x5xf32>, memref<1x6x5x5xf32>) outs(%out : memref<1x6x5x5xf32>) {
  ^bb0(%res: f32, %in: f32, %o: f32):
    %s = arith.addf %res, %in : f32
    linalg.yield %s : f32
  }
  memref.dealloc %r : memref<1x6x5x5xf32>
  memref.dealloc %c : memref<1x6x5x5xf32>
  return %out : memref<1x6x5x5xf32>
}

// A GEMM on packed weights + residual + sigmoid (5 << 4), accumulating into %r
// CHECK-LABEL: func.func @gemm_residual_sigmoid(
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c1_i32, %{{.*}}, %c80_i32, %{{.*}})
//   CHECK-NOT: linalg.generic
func.func @gemm_residual_sigmoid(%a: memref<4x8xf32>, %y: memref<4x6xf32>) -> memref<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = memref.alloc() : memref<4x6xf32>
  memref.copy %y, %r : memref<4x6xf32> to memref<4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<4x6xf32>, memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %res : f32
    %n = arith.negf %s : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %q = arith.divf %one, %d : f32
    linalg.yield %q : f32
  }
  memref.dealloc %r : memref<4x6xf32>
  memref.dealloc %c : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// r read after the product (it would be overwritten): the generic stays
// CHECK-LABEL: func.func @residual_read_later(
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c0_i32, %{{.*}}, %c4_i32, %{{.*}})
//       CHECK: linalg.generic
func.func @residual_read_later(%x: memref<1x8x5x5xf32>, %y: memref<1x6x5x5xf32>)
    -> (memref<1x6x5x5xf32>, memref<1x6x5x5xf32>) {
  %r = memref.alloc() : memref<1x6x5x5xf32>
  memref.copy %y, %r : memref<1x6x5x5xf32> to memref<1x6x5x5xf32>
  %fw = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %c = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%c : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %fw : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%c : memref<1x6x5x5xf32>)
  %out = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x6x5x5xf32>, memref<1x6x5x5xf32>) outs(%out : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<1x6x5x5xf32>
  return %out, %r : memref<1x6x5x5xf32>, memref<1x6x5x5xf32>
}

// r a function argument (not ours to write): the generic stays
// CHECK-LABEL: func.func @residual_argument(
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c0_i32, %{{.*}}, %c4_i32, %{{.*}})
//       CHECK: linalg.generic
func.func @residual_argument(%x: memref<1x8x5x5xf32>, %r: memref<1x6x5x5xf32>)
    -> memref<1x6x5x5xf32> {
  %fw = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %c = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%c : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %fw : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%c : memref<1x6x5x5xf32>)
  %out = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x6x5x5xf32>, memref<1x6x5x5xf32>) outs(%out : memref<1x6x5x5xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<1x6x5x5xf32>
  return %out : memref<1x6x5x5xf32>
}

// r viewed, the view read by the product (its input): the generic stays
// CHECK-LABEL: func.func @residual_is_the_input(
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c0_i32, %{{.*}}, %c4_i32, %{{.*}})
//       CHECK: linalg.generic
func.func @residual_is_the_input(%y: memref<1x8x5x5xf32>) -> memref<1x8x5x5xf32> {
  %r = memref.alloc() : memref<1x8x5x5xf32>
  memref.copy %y, %r : memref<1x8x5x5xf32> to memref<1x8x5x5xf32>
  %v = memref.cast %r : memref<1x8x5x5xf32> to memref<1x8x5x5xf32>
  %fw = memref.get_global @f8 : memref<8x8x1x1xf32>
  %fb = memref.get_global @fb8 : memref<8xf32>
  %c = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<8xf32>) outs(%c : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v, %fw : memref<1x8x5x5xf32>, memref<8x8x1x1xf32>) outs(%c : memref<1x8x5x5xf32>)
  %out = memref.alloc() : memref<1x8x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x8x5x5xf32>, memref<1x8x5x5xf32>) outs(%out : memref<1x8x5x5xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  }
  memref.dealloc %r : memref<1x8x5x5xf32>
  memref.dealloc %c : memref<1x8x5x5xf32>
  return %out : memref<1x8x5x5xf32>
}
