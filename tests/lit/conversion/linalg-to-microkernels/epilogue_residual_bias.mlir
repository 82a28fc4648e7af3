// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// A residual add after a GEMM that also adds a bias (see [Note: residual epilogues]):
// act(C + bias + r) in any order, the bias a constant (ViT's and BERT's (x + 0.0) + r:
// HF's zero biases folded to a scalar) or an f32 vector along N, becomes the kernel
// accumulating into r with the bias in its epilogue (flags 1: a bias).
memref.global "private" constant @w : memref<8x6xf32> = dense<1.0>
memref.global "private" constant @b : memref<6xf32> = dense<0.5>
memref.global "private" constant @b4 : memref<4xf32> = dense<0.5>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b3 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#n3 = affine_map<(d0, d1, d2) -> (d2)>
#m3 = affine_map<(d0, d1, d2) -> (d1)>
#mk = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#kn = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#mn = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// (x + 0.0) + r read as a batch of one: a splat of 0.0 as the bias, accumulate 1
// CHECK-LABEL: func.func @residual_const_bias(
//   CHECK-NOT: linalg.fill
//       CHECK: %[[R:.*]] = memref.alloc() : memref<1x4x6xf32>
//       CHECK: memref.get_global @{{.*}} : memref<6xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c1_i32, %{{.*}}, %c1_i32{{.*}}, %{{.*}})
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[R]]
func.func @residual_const_bias(%a: memref<1x4x8xf32>, %y: memref<1x4x6xf32>) -> memref<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x6xf32>
  memref.copy %y, %r : memref<1x4x6xf32> to memref<1x4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %c = memref.alloc() : memref<1x4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x6xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%a, %w : memref<1x4x8xf32>, memref<8x6xf32>) outs(%c : memref<1x4x6xf32>)
  %out = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [#b3, #b3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x4x6xf32>, memref<1x4x6xf32>) outs(%out : memref<1x4x6xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %zero : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  }
  memref.dealloc %r : memref<1x4x6xf32>
  memref.dealloc %c : memref<1x4x6xf32>
  return %out : memref<1x4x6xf32>
}

// r + (bias[n] + x), then relu (1 << 4 | 1): the vector is the bias
// CHECK-LABEL: func.func @residual_vector_bias_relu(
//       CHECK: %[[B:.*]] = memref.get_global @b : memref<6xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c1_i32, %{{.*}}, %c17_i32{{.*}}, %{{.*}})
//   CHECK-NOT: linalg.generic
func.func @residual_vector_bias_relu(%a: memref<1x4x8xf32>, %y: memref<1x4x6xf32>) -> memref<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x6xf32>
  memref.copy %y, %r : memref<1x4x6xf32> to memref<1x4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %b = memref.get_global @b : memref<6xf32>
  %c = memref.alloc() : memref<1x4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x6xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%a, %w : memref<1x4x8xf32>, memref<8x6xf32>) outs(%c : memref<1x4x6xf32>)
  %out = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [#id3, #n3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %b, %c : memref<1x4x6xf32>, memref<6xf32>, memref<1x4x6xf32>) outs(%out : memref<1x4x6xf32>) {
  ^bb0(%res: f32, %bias: f32, %in: f32, %o: f32):
    %s = arith.addf %bias, %in : f32
    %t = arith.addf %res, %s : f32
    %m = arith.maximumf %t, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %r : memref<1x4x6xf32>
  memref.dealloc %c : memref<1x4x6xf32>
  return %out : memref<1x4x6xf32>
}

// Near misses, the generic stays: a vector along M (not the bias of a column), two
// constants (x + 1.0 + r + 2.0 is not one bias), a product (x * 2.0 + r)
// CHECK-LABEL: func.func @residual_bias_along_m(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @residual_bias_along_m(%a: memref<1x4x8xf32>, %y: memref<1x4x6xf32>) -> memref<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x6xf32>
  memref.copy %y, %r : memref<1x4x6xf32> to memref<1x4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %b = memref.get_global @b4 : memref<4xf32>
  %c = memref.alloc() : memref<1x4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x6xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%a, %w : memref<1x4x8xf32>, memref<8x6xf32>) outs(%c : memref<1x4x6xf32>)
  %out = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [#id3, #m3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %b, %c : memref<1x4x6xf32>, memref<4xf32>, memref<1x4x6xf32>) outs(%out : memref<1x4x6xf32>) {
  ^bb0(%res: f32, %bias: f32, %in: f32, %o: f32):
    %s = arith.addf %bias, %in : f32
    %t = arith.addf %res, %s : f32
    linalg.yield %t : f32
  }
  memref.dealloc %r : memref<1x4x6xf32>
  memref.dealloc %c : memref<1x4x6xf32>
  return %out : memref<1x4x6xf32>
}

// CHECK-LABEL: func.func @residual_two_constants(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @residual_two_constants(%a: memref<1x4x8xf32>, %y: memref<1x4x6xf32>) -> memref<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %r = memref.alloc() : memref<1x4x6xf32>
  memref.copy %y, %r : memref<1x4x6xf32> to memref<1x4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %c = memref.alloc() : memref<1x4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x6xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%a, %w : memref<1x4x8xf32>, memref<8x6xf32>) outs(%c : memref<1x4x6xf32>)
  %out = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x4x6xf32>, memref<1x4x6xf32>) outs(%out : memref<1x4x6xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %one : f32
    %t = arith.addf %s, %res : f32
    %u = arith.addf %t, %two : f32
    linalg.yield %u : f32
  }
  memref.dealloc %r : memref<1x4x6xf32>
  memref.dealloc %c : memref<1x4x6xf32>
  return %out : memref<1x4x6xf32>
}

// CHECK-LABEL: func.func @residual_scaled(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @residual_scaled(%a: memref<1x4x8xf32>, %y: memref<1x4x6xf32>) -> memref<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %r = memref.alloc() : memref<1x4x6xf32>
  memref.copy %y, %r : memref<1x4x6xf32> to memref<1x4x6xf32>
  %w = memref.get_global @w : memref<8x6xf32>
  %c = memref.alloc() : memref<1x4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x6xf32>)
  linalg.batch_matmul indexing_maps = [#mk, #kn, #mn] ins(%a, %w : memref<1x4x8xf32>, memref<8x6xf32>) outs(%c : memref<1x4x6xf32>)
  %out = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %r : memref<1x4x6xf32>, memref<1x4x6xf32>) outs(%out : memref<1x4x6xf32>) {
  ^bb0(%in: f32, %res: f32, %o: f32):
    %s = arith.mulf %in, %two : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  }
  memref.dealloc %r : memref<1x4x6xf32>
  memref.dealloc %c : memref<1x4x6xf32>
  return %out : memref<1x4x6xf32>
}
