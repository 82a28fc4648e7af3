// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// The generic after a GEMM reading its output through a reshape (an ONNX MatMul of a
// [1, H, W, C] image by a [C, N] weight: the product on [H, W, C], expanded back into
// [1, H, W, N]; ConvNeXt's Linear layers), the last dim N kept: its bias and activation
// are the kernel's epilogue, written into the generic's output through the reversed
// reshape ([Note: epilogues through reshapes]); the product's buffer and the reshape go.
memref.global "private" constant @w : memref<8x24xf32> = dense<1.0>
memref.global "private" constant @b : memref<24xf32> = dense<0.5>
memref.global "private" constant @b5 : memref<5xf32> = dense<0.5>
#mk = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#kn = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#mn = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b4 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#n4 = affine_map<(d0, d1, d2, d3) -> (d3)>
#w4 = affine_map<(d0, d1, d2, d3) -> (d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#n2 = affine_map<(d0, d1) -> (d1)>

// relu(c + b) over the expanded view: bias 1 | relu 1 << 4 = 17
// CHECK-LABEL: func.func @expanded_bias_relu(
//       CHECK: %[[D:.*]] = memref.alloc() alignment = 64 : memref<1x5x5x24xf32>
//       CHECK: memref.collapse_shape %[[D]] {{\[\[}}0, 1], [2], [3]] : memref<1x5x5x24xf32> into memref<5x5x24xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32(%c25_i64, %c24_i64, %c8_i64, {{.*}}, %c0_i32, %{{.*}}, %c17_i32
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: memref.expand_shape
//   CHECK-NOT: memref.dealloc
//       CHECK: return %[[D]]
func.func @expanded_bias_relu(%x: memref<5x5x8xf32>) -> memref<1x5x5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x24xf32>
  %b = memref.get_global @b : memref<24xf32>
  %c = memref.alloc() alignment = 64 : memref<5x5x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<5x5x24xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : memref<5x5x8xf32>, memref<8x24xf32>) outs(%c : memref<5x5x24xf32>)
  %e = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [1, 5, 5, 24] : memref<5x5x24xf32> into memref<1x5x5x24xf32>
  %d = memref.alloc() alignment = 64 : memref<1x5x5x24xf32>
  linalg.generic {indexing_maps = [#b4, #n4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %b : memref<1x5x5x24xf32>, memref<24xf32>) outs(%d : memref<1x5x5x24xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<5x5x24xf32>
  return %d : memref<1x5x5x24xf32>
}

// A 2-D product's [25, 24] output
// expanded into [5, 5, 24] then read: relu only (1 << 4)
// CHECK-LABEL: func.func @expanded_2d_relu(
//       CHECK: %[[D:.*]] = memref.alloc() alignment = 64 : memref<5x5x24xf32>
//       CHECK: memref.collapse_shape %[[D]] {{\[\[}}0, 1], [2]] : memref<5x5x24xf32> into memref<25x24xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32(%c25_i64, %c24_i64, %c8_i64, {{.*}}, %c0_i32, %{{.*}}, %c16_i32
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[D]]
func.func @expanded_2d_relu(%x: memref<25x8xf32>) -> memref<5x5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x24xf32>
  %c = memref.alloc() alignment = 64 : memref<25x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<25x24xf32>)
  linalg.matmul ins(%x, %w : memref<25x8xf32>, memref<8x24xf32>) outs(%c : memref<25x24xf32>)
  %e = memref.expand_shape %c [[0, 1], [2]] output_shape [5, 5, 24] : memref<25x24xf32> into memref<5x5x24xf32>
  %d = memref.alloc() alignment = 64 : memref<5x5x24xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<5x5x24xf32>) outs(%d : memref<5x5x24xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<25x24xf32>
  return %d : memref<5x5x24xf32>
}

// Near misses: the bias along a dim other than N (W); the view read again after the
// generic; N split by the reshape ([25, 24] into [25, 4, 6]): the generic stays
// CHECK-LABEL: func.func @bias_along_w(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @bias_along_w(%x: memref<5x5x8xf32>) -> memref<1x5x5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x24xf32>
  %b = memref.get_global @b5 : memref<5xf32>
  %c = memref.alloc() alignment = 64 : memref<5x5x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<5x5x24xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : memref<5x5x8xf32>, memref<8x24xf32>) outs(%c : memref<5x5x24xf32>)
  %e = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [1, 5, 5, 24] : memref<5x5x24xf32> into memref<1x5x5x24xf32>
  %d = memref.alloc() alignment = 64 : memref<1x5x5x24xf32>
  linalg.generic {indexing_maps = [#b4, #w4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %b : memref<1x5x5x24xf32>, memref<5xf32>) outs(%d : memref<1x5x5x24xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<5x5x24xf32>
  return %d : memref<1x5x5x24xf32>
}

// CHECK-LABEL: func.func @view_read_later(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @view_read_later(%x: memref<5x5x8xf32>) -> (memref<1x5x5x24xf32>, memref<1x5x5x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x24xf32>
  %c = memref.alloc() alignment = 64 : memref<5x5x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<5x5x24xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : memref<5x5x8xf32>, memref<8x24xf32>) outs(%c : memref<5x5x24xf32>)
  %e = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [1, 5, 5, 24] : memref<5x5x24xf32> into memref<1x5x5x24xf32>
  %d = memref.alloc() alignment = 64 : memref<1x5x5x24xf32>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e : memref<1x5x5x24xf32>) outs(%d : memref<1x5x5x24xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return %d, %e : memref<1x5x5x24xf32>, memref<1x5x5x24xf32>
}

// CHECK-LABEL: func.func @n_split(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @n_split(%x: memref<25x8xf32>) -> memref<25x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<8x24xf32>
  %c = memref.alloc() alignment = 64 : memref<25x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<25x24xf32>)
  linalg.matmul ins(%x, %w : memref<25x8xf32>, memref<8x24xf32>) outs(%c : memref<25x24xf32>)
  %e = memref.expand_shape %c [[0], [1, 2]] output_shape [25, 4, 6] : memref<25x24xf32> into memref<25x4x6xf32>
  %d = memref.alloc() alignment = 64 : memref<25x4x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<25x4x6xf32>) outs(%d : memref<25x4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<25x24xf32>
  return %d : memref<25x4x6xf32>
}
