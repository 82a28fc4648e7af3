// RUN: strata-opt %s --strata-linalg-attention-to-microkernels | filecheck %s

// torch's SDPA with a [2, 1, 40, 40] attn_mask, as convert-torch-to-linalg, fusion and
// bufferization leave it: Q and K^T scaled by sqrt(scale) = 0.3536 each (the scalings
// go: the kernel reads the argument Q and, in place of the transpose K^T, the argument K
// (kj = 64, kd = 1: [Note: Q, K and O in place]), its scale their product 0.125, [Note:
// Q and K scaled before the product]), the mask folded into the first product's init by
// strata-linalg-fold-into-contractions (a copy broadcast along the heads: B1 = 2,
// B2 = 3, mask strides 1600, 0, 40, 1), and _safe_softmax (flags 1). The transpose, its
// buffer and the scaled Q's go.
// CHECK-LABEL: func.func @main(
//   CHECK-NOT: linalg.transpose
//   CHECK-NOT: linalg.batch_matmul
//   CHECK-NOT: arith.mulf
//       CHECK: memref.extract_aligned_pointer_as_index %arg1
//       CHECK: %[[SC:.*]] = arith.constant 0.124999993 : f32
//       CHECK: call @strata_attention_f32(%c2_i64, %c3_i64, %c40_i64, %c40_i64, %c64_i64, %c64_i64, %1, %c7680_i64, %c2560_i64, %c64_i64, %3, %c7680_i64, %c2560_i64, %c64_i64, %c1_i64, %5, %c7680_i64, %c2560_i64, %c64_i64, %c1_i64, %7, %c7680_i64, %c2560_i64, %c64_i64, %[[SC]], %9, %c1600_i64, %c0_i64, %c40_i64, %c1_i64, %c1_i32)
//   CHECK-NOT: memref.dealloc %{{.*}} : memref<2x3x40x64xf32>
//   CHECK-NOT: memref.dealloc %{{.*}} : memref<2x3x64x40xf32>
//       CHECK: memref.dealloc %alloc{{(_[0-9]+)?}} : memref<6x40x64xf32>
//   CHECK-NOT: linalg.
//   CHECK-NOT: xf32>) outs(
//       CHECK: return

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @main(%arg0: memref<2x3x40x64xf32>, %arg1: memref<2x3x40x64xf32>, %arg2: memref<2x3x40x64xf32>, %arg3: memref<2x1x40x40xf32>) -> memref<2x3x40x64xf32> {
    %true = arith.constant true
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %cst_1 = arith.constant 0.353553385 : f32
    %alloc = memref.alloc() alignment = 64 : memref<2x3x40x64xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : memref<2x3x40x64xf32>) outs(%alloc : memref<2x3x40x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    %alloc_2 = memref.alloc() alignment = 64 : memref<2x3x64x40xf32>
    linalg.transpose ins(%arg1 : memref<2x3x40x64xf32>) outs(%alloc_2 : memref<2x3x64x40xf32>) permutation = [0, 1, 3, 2] 
    %alloc_3 = memref.alloc() alignment = 64 : memref<2x3x64x40xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2 : memref<2x3x64x40xf32>) outs(%alloc_3 : memref<2x3x64x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_2 : memref<2x3x64x40xf32>
    %collapse_shape = memref.collapse_shape %alloc [[0, 1], [2], [3]] : memref<2x3x40x64xf32> into memref<6x40x64xf32>
    %collapse_shape_4 = memref.collapse_shape %alloc_3 [[0, 1], [2], [3]] : memref<2x3x64x40xf32> into memref<6x64x40xf32>
    %alloc_5 = memref.alloc() alignment = 64 : memref<6x40x40xf32>
    %expand_shape = memref.expand_shape %alloc_5 [[0, 1], [2], [3]] output_shape [2, 3, 40, 40] : memref<6x40x40xf32> into memref<2x3x40x40xf32>
    linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3 : memref<2x1x40x40xf32>) outs(%expand_shape : memref<2x3x40x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.batch_matmul ins(%collapse_shape, %collapse_shape_4 : memref<6x40x64xf32>, memref<6x64x40xf32>) outs(%alloc_5 : memref<6x40x40xf32>)
    memref.dealloc %alloc : memref<2x3x40x64xf32>
    memref.dealloc %alloc_3 : memref<2x3x64x40xf32>
    %expand_shape_6 = memref.expand_shape %alloc_5 [[0, 1], [2], [3]] output_shape [2, 3, 40, 40] : memref<6x40x40xf32> into memref<2x3x40x40xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<2x3x40xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_7 : memref<2x3x40xf32>)
    linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_6 : memref<2x3x40x40xf32>) outs(%alloc_7 : memref<2x3x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_8 = memref.alloc() alignment = 64 : memref<2x3x40x40xf32>
    linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_6, %alloc_7 : memref<2x3x40x40xf32>, memref<2x3x40xf32>) outs(%alloc_8 : memref<2x3x40x40xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %0 = arith.subf %in, %in_19 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_7 : memref<2x3x40xf32>
    %alloc_9 = memref.alloc() alignment = 64 : memref<2x3x40xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_9 : memref<2x3x40xf32>)
    linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_8 : memref<2x3x40x40xf32>) outs(%alloc_9 : memref<2x3x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x3x40xi1>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0], [1], [2, 3]] output_shape [2, 3, 40, 1] : memref<2x3x40xi1> into memref<2x3x40x1xi1>
    linalg.fill ins(%false : i1) outs(%expand_shape_11 : memref<2x3x40x1xi1>)
    %expand_shape_12 = memref.expand_shape %alloc_5 [[0, 1], [2, 3], [4]] output_shape [2, 3, 40, 1, 40] : memref<6x40x40xf32> into memref<2x3x40x1x40xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_12 : memref<2x3x40x1x40xf32>) outs(%expand_shape_11 : memref<2x3x40x1xi1>) {
    ^bb0(%in: f32, %out: i1):
      %0 = arith.cmpf oeq, %in, %cst : f32
      %1 = arith.xori %0, %true : i1
      %2 = arith.ori %out, %1 : i1
      linalg.yield %2 : i1
    }
    memref.dealloc %alloc_5 : memref<6x40x40xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x3x40x40xf32>
    linalg.generic {indexing_maps = [#map5, #map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_11, %alloc_8, %alloc_9 : memref<2x3x40x1xi1>, memref<2x3x40x40xf32>, memref<2x3x40xf32>) outs(%alloc_13 : memref<2x3x40x40xf32>) {
    ^bb0(%in: i1, %in_19: f32, %in_20: f32, %out: f32):
      %0 = arith.divf %in_19, %in_20 : f32
      %1 = arith.select %in, %0, %cst_0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_8 : memref<2x3x40x40xf32>
    memref.dealloc %alloc_9 : memref<2x3x40xf32>
    memref.dealloc %alloc_10 : memref<2x3x40xi1>
    %collapse_shape_14 = memref.collapse_shape %alloc_13 [[0, 1], [2], [3]] : memref<2x3x40x40xf32> into memref<6x40x40xf32>
    %collapse_shape_15 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<2x3x40x64xf32> into memref<6x40x64xf32>
    %alloc_16 = memref.alloc() alignment = 64 : memref<6x40x64xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_16 : memref<6x40x64xf32>)
    linalg.batch_matmul ins(%collapse_shape_14, %collapse_shape_15 : memref<6x40x40xf32>, memref<6x40x64xf32>) outs(%alloc_16 : memref<6x40x64xf32>)
    memref.dealloc %alloc_13 : memref<2x3x40x40xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0, 1], [2], [3]] output_shape [2, 3, 40, 64] : memref<6x40x64xf32> into memref<2x3x40x64xf32>
    %alloc_18 = memref.alloc() alignment = 64 : memref<2x3x40x64xf32>
    memref.copy %expand_shape_17, %alloc_18 : memref<2x3x40x64xf32> to memref<2x3x40x64xf32>
    memref.dealloc %alloc_16 : memref<6x40x64xf32>
    return %alloc_18 : memref<2x3x40x64xf32>
  }
}
