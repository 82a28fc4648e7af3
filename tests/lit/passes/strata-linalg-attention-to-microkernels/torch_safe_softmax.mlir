// RUN: strata-opt %s --strata-linalg-attention-to-microkernels=min-keys=16 | filecheck %s

// torch's SDPA with a [1, 1, 16, 16] attn_mask added after the product (16 keys: with
// min-keys=16), and _safe_softmax: the "some score is not -inf" reduction and the select
// after the division go with the rest (flags 1: ATTN_SAFE_SOFTMAX); mask strides 0, 0,
// 16, 1; Q (an argument) and K^T (a transpose) scaled by sqrt(scale) = 0.5946 each
// before the product: the scalings go, the kernel reads the argument Q, and K in place
// of its transpose (K's strides 8, 1: [Note: Q, K and O in place]), and its scale is
// their product 0.3536 ([Note: Q and K scaled before the product]).
// CHECK-LABEL: func.func @main(
//   CHECK-NOT: arith.mulf
//       CHECK: %[[SC:.*]] = arith.constant 0.353553355 : f32
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c16_i64, %c16_i64, %c8_i64, %c8_i64, %1, %c256_i64, %c128_i64, %c8_i64, %3, %c256_i64, %c128_i64, %c8_i64, %c1_i64, %5, %c256_i64, %c128_i64, %c8_i64, %c1_i64, %7, %c256_i64, %c128_i64, %c8_i64, %[[SC]], %9, %c0_i64, %c0_i64, %c16_i64, %c1_i64, %c1_i32)
//   CHECK-NOT: xi1>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: linalg.transpose
//       CHECK: return

#map = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2)>
module {
  func.func @main(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x16x16xf32>) -> memref<1x2x16x8xf32> {
    %true = arith.constant true
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %cst_1 = arith.constant 0.594603539 : f32
    %alloc = memref.alloc() alignment = 64 : memref<1x2x8x16xf32>
    linalg.transpose ins(%arg1 : memref<1x2x16x8xf32>) outs(%alloc : memref<1x2x8x16xf32>) permutation = [0, 1, 3, 2] 
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : memref<1x2x16x8xf32>) outs(%alloc_2 : memref<1x2x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    %collapse_shape = memref.collapse_shape %alloc_2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x8x16xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc : memref<1x2x8x16xf32>) outs(%alloc_3 : memref<1x2x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<1x2x8x16xf32>
    %collapse_shape_4 = memref.collapse_shape %alloc_3 [[0, 1], [2], [3]] : memref<1x2x8x16xf32> into memref<2x8x16xf32>
    %alloc_5 = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_5 : memref<2x16x16xf32>)
    linalg.batch_matmul ins(%collapse_shape, %collapse_shape_4 : memref<2x16x8xf32>, memref<2x8x16xf32>) outs(%alloc_5 : memref<2x16x16xf32>)
    memref.dealloc %alloc_2 : memref<1x2x16x8xf32>
    memref.dealloc %alloc_3 : memref<1x2x8x16xf32>
    %expand_shape = memref.expand_shape %alloc_5 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %arg3 : memref<1x2x16x16xf32>, memref<1x1x16x16xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %0 = arith.addf %in, %in_19 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<2x16x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_7 : memref<1x2x16xf32>)
    linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6 : memref<1x2x16x16xf32>) outs(%alloc_7 : memref<1x2x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_8 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %alloc_7 : memref<1x2x16x16xf32>, memref<1x2x16xf32>) outs(%alloc_8 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %0 = arith.subf %in, %in_19 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %alloc_9 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_9 : memref<1x2x16xf32>)
    linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_8 : memref<1x2x16x16xf32>) outs(%alloc_9 : memref<1x2x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16xi1>
    linalg.fill ins(%false : i1) outs(%alloc_10 : memref<1x2x16xi1>)
    linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6 : memref<1x2x16x16xf32>) outs(%alloc_10 : memref<1x2x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %0 = arith.cmpf oeq, %in, %cst : f32
      %1 = arith.xori %0, %true : i1
      %2 = arith.ori %out, %1 : i1
      linalg.yield %2 : i1
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xi1> into memref<1x2x16x1xi1>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map4, #map, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_11, %alloc_8, %alloc_9 : memref<1x2x16x1xi1>, memref<1x2x16x16xf32>, memref<1x2x16xf32>) outs(%alloc_12 : memref<1x2x16x16xf32>) {
    ^bb0(%in: i1, %in_19: f32, %in_20: f32, %out: f32):
      %0 = arith.divf %in_19, %in_20 : f32
      %1 = arith.select %in, %0, %cst_0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_8 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_9 : memref<1x2x16xf32>
    memref.dealloc %alloc_10 : memref<1x2x16xi1>
    %collapse_shape_13 = memref.collapse_shape %alloc_12 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %alloc_14 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : memref<1x2x16x8xf32>) outs(%alloc_14 : memref<1x2x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %collapse_shape_15 = memref.collapse_shape %alloc_14 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_16 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_16 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_13, %collapse_shape_15 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_16 : memref<2x16x8xf32>)
    memref.dealloc %alloc_12 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_14 : memref<1x2x16x8xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_18 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_17, %alloc_18 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_16 : memref<2x16x8xf32>
    return %alloc_18 : memref<1x2x16x8xf32>
  }
}
