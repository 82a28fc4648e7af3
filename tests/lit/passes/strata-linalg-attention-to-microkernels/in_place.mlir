// RUN: strata-opt %s --split-input-file --strata-linalg-attention-to-microkernels | filecheck %s

// ViT / DeiT attention as HF exports it (the ONNX exporter's SDPA), bufferized: Q, K, V
// are [1, S, H, D] views of the projections' [1, S, H*D] outputs; Q is transposed into
// [1, H, S, D], K into [1, H, D, S], both scaled by sqrt(scale); V is read in place by the
// second product's map; the output [1, H, S, D] is transposed back into [1, S, H, D] for
// the output projection. The kernel reads Q and K from the projections' buffers (row
// stride H*D = 16, head stride D = 8; K's keys stride 16, its D stride 1) and writes O
// into the transpose's buffer (row stride 16, head stride 8): the three transposes and
// their buffers go ([Note: Q, K and O in place]); the deallocs of the projections'
// buffers (made before the attention) move after the call.
// CHECK-LABEL: func.func @deit(
//   CHECK-NOT: linalg.transpose
//   CHECK-NOT: memref.dealloc
//       CHECK: %[[O:.*]] = memref.alloc() alignment = 64 : memref<1x40x2x8xf32>
//       CHECK: %[[SC:.*]] = arith.constant 0.353553{{[0-9]*}} : f32
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c40_i64, %c40_i64, %c8_i64, %c8_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %c1_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %c1_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %[[SC]],
//   CHECK-DAG: memref.dealloc %[[Q:.*]] : memref<1x40x16xf32>
//   CHECK-DAG: memref.dealloc %[[K:.*]] : memref<1x40x16xf32>
//   CHECK-DAG: memref.dealloc %[[V:.*]] : memref<1x40x16xf32>
//   CHECK-NOT: linalg.transpose
//       CHECK: %[[C:.*]] = memref.collapse_shape %[[O]]
//       CHECK: return %[[C]]

#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map13 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map14 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map15 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map16 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
#map17 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map18 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>
module {
  func.func @deit(%q: memref<1x40x16xf32>, %k: memref<1x40x16xf32>, %v: memref<1x40x16xf32>) -> memref<1x40x16xf32> {
    %cst_1 = arith.constant 0.594603539 : f32
    %cst_2 = arith.constant 0xFF800000 : f32
    %cst_6 = arith.constant 0.000000e+00 : f32
    %alloc_16 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %q, %alloc_16 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_18 = memref.alloc() alignment = 64 : memref<1x2x40x8xf32>
    linalg.transpose ins(%expand_shape_17 : memref<1x40x2x8xf32>) outs(%alloc_18 : memref<1x2x40x8xf32>) permutation = [0, 2, 1, 3]
    memref.dealloc %alloc_16 : memref<1x40x16xf32>
    %alloc_20 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %k, %alloc_20 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_21 = memref.expand_shape %alloc_20 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_23 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %v, %alloc_23 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_24 = memref.expand_shape %alloc_23 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_25 = memref.alloc() alignment = 64 : memref<1x2x8x40xf32>
    linalg.transpose ins(%expand_shape_21 : memref<1x40x2x8xf32>) outs(%alloc_25 : memref<1x2x8x40xf32>) permutation = [0, 2, 3, 1]
    memref.dealloc %alloc_20 : memref<1x40x16xf32>
    %alloc_26 = memref.alloc() alignment = 64 : memref<1x2x40x8xf32>
    linalg.generic {indexing_maps = [#map13, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_18 : memref<1x2x40x8xf32>) outs(%alloc_26 : memref<1x2x40x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.mulf %in, %cst_1 : f32
      linalg.yield %80 : f32
    }
    memref.dealloc %alloc_18 : memref<1x2x40x8xf32>
    %alloc_27 = memref.alloc() alignment = 64 : memref<1x2x8x40xf32>
    linalg.generic {indexing_maps = [#map13, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_25 : memref<1x2x8x40xf32>) outs(%alloc_27 : memref<1x2x8x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.mulf %in, %cst_1 : f32
      linalg.yield %80 : f32
    }
    memref.dealloc %alloc_25 : memref<1x2x8x40xf32>
    %collapse_shape = memref.collapse_shape %alloc_26 [[0, 1], [2], [3]] : memref<1x2x40x8xf32> into memref<2x40x8xf32>
    %collapse_shape_28 = memref.collapse_shape %alloc_27 [[0, 1], [2], [3]] : memref<1x2x8x40xf32> into memref<2x8x40xf32>
    %alloc_29 = memref.alloc() alignment = 64 : memref<2x40x40xf32>
    linalg.fill ins(%cst_6 : f32) outs(%alloc_29 : memref<2x40x40xf32>)
    linalg.batch_matmul ins(%collapse_shape, %collapse_shape_28 : memref<2x40x8xf32>, memref<2x8x40xf32>) outs(%alloc_29 : memref<2x40x40xf32>)
    memref.dealloc %alloc_26 : memref<1x2x40x8xf32>
    memref.dealloc %alloc_27 : memref<1x2x8x40xf32>
    %expand_shape_30 = memref.expand_shape %alloc_29 [[0, 1], [2], [3]] output_shape [1, 2, 40, 40] : memref<2x40x40xf32> into memref<1x2x40x40xf32>
    %alloc_31 = memref.alloc() alignment = 64 : memref<1x2x40xf32>
    %expand_shape_32 = memref.expand_shape %alloc_31 [[0], [1], [2, 3]] output_shape [1, 2, 40, 1] : memref<1x2x40xf32> into memref<1x2x40x1xf32>
    linalg.fill ins(%cst_2 : f32) outs(%expand_shape_32 : memref<1x2x40x1xf32>)
    %expand_shape_33 = memref.expand_shape %alloc_29 [[0, 1], [2, 3], [4]] output_shape [1, 2, 40, 1, 40] : memref<2x40x40xf32> into memref<1x2x40x1x40xf32>
    linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_33 : memref<1x2x40x1x40xf32>) outs(%expand_shape_32 : memref<1x2x40x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.maximumf %out, %in : f32
      linalg.yield %80 : f32
    }
    %alloc_34 = memref.alloc() alignment = 64 : memref<1x2x40x40xf32>
    linalg.generic {indexing_maps = [#map13, #map16, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_30, %expand_shape_32 : memref<1x2x40x40xf32>, memref<1x2x40x1xf32>) outs(%alloc_34 : memref<1x2x40x40xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.subf %in, %in_534 : f32
      %81 = math.exp %80 : f32
      linalg.yield %81 : f32
    }
    memref.dealloc %alloc_29 : memref<2x40x40xf32>
    memref.dealloc %alloc_31 : memref<1x2x40xf32>
    %alloc_35 = memref.alloc() alignment = 64 : memref<1x2x40xf32>
    %expand_shape_36 = memref.expand_shape %alloc_35 [[0], [1], [2, 3]] output_shape [1, 2, 40, 1] : memref<1x2x40xf32> into memref<1x2x40x1xf32>
    linalg.fill ins(%cst_6 : f32) outs(%expand_shape_36 : memref<1x2x40x1xf32>)
    %expand_shape_37 = memref.expand_shape %alloc_34 [[0], [1], [2, 3], [4]] output_shape [1, 2, 40, 1, 40] : memref<1x2x40x40xf32> into memref<1x2x40x1x40xf32>
    linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_37 : memref<1x2x40x1x40xf32>) outs(%expand_shape_36 : memref<1x2x40x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.addf %out, %in : f32
      linalg.yield %80 : f32
    }
    %alloc_38 = memref.alloc() alignment = 64 : memref<1x2x40x40xf32>
    linalg.generic {indexing_maps = [#map13, #map16, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_34, %expand_shape_36 : memref<1x2x40x40xf32>, memref<1x2x40x1xf32>) outs(%alloc_38 : memref<1x2x40x40xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.divf %in, %in_534 : f32
      linalg.yield %80 : f32
    }
    memref.dealloc %alloc_34 : memref<1x2x40x40xf32>
    memref.dealloc %alloc_35 : memref<1x2x40xf32>
    %alloc_39 = memref.alloc() alignment = 64 : memref<2x40x8xf32>
    linalg.fill ins(%cst_6 : f32) outs(%alloc_39 : memref<2x40x8xf32>)
    %expand_shape_40 = memref.expand_shape %alloc_39 [[0, 1], [2], [3]] output_shape [1, 2, 40, 8] : memref<2x40x8xf32> into memref<1x2x40x8xf32>
    linalg.generic {indexing_maps = [#map17, #map18, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%alloc_38, %expand_shape_24 : memref<1x2x40x40xf32>, memref<1x40x2x8xf32>) outs(%expand_shape_40 : memref<1x2x40x8xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.mulf %in, %in_534 : f32
      %81 = arith.addf %out, %80 : f32
      linalg.yield %81 : f32
    }
    memref.dealloc %alloc_23 : memref<1x40x16xf32>
    memref.dealloc %alloc_38 : memref<1x2x40x40xf32>
    %alloc_41 = memref.alloc() alignment = 64 : memref<1x40x2x8xf32>
    linalg.transpose ins(%expand_shape_40 : memref<1x2x40x8xf32>) outs(%alloc_41 : memref<1x40x2x8xf32>) permutation = [0, 2, 1, 3]
    memref.dealloc %alloc_39 : memref<2x40x8xf32>
    %collapse_shape_42 = memref.collapse_shape %alloc_41 [[0], [1], [2, 3]] : memref<1x40x2x8xf32> into memref<1x40x16xf32>
    return %collapse_shape_42 : memref<1x40x16xf32>
  }
}

// -----

// HF Whisper's SDPA (scale 1.0: Q is scaled after its projection): the exporter's
// sqrt(1.0) scalings of Q and K fold into plain copies, which go as the scalings do
// ([Note: Q and K scaled before the product], c = 1); Q, K and O in place as above.
// CHECK-LABEL: func.func @whisper(
//   CHECK-NOT: linalg.transpose
//   CHECK-NOT: linalg.generic
//       CHECK: %[[SC:.*]] = arith.constant 1.000000e+00 : f32
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c40_i64, %c40_i64, %c8_i64, %c8_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %c1_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %c1_i64, %{{[0-9]+}}, %c16_i64, %c8_i64, %c16_i64, %[[SC]],
//   CHECK-NOT: linalg.transpose
//       CHECK: return

#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map13 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map14 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map15 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map16 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
#map17 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map18 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>
module {
  func.func @whisper(%q: memref<1x40x16xf32>, %k: memref<1x40x16xf32>, %v: memref<1x40x16xf32>) -> memref<1x40x16xf32> {
    %cst_1 = arith.constant 0.594603539 : f32
    %cst_2 = arith.constant 0xFF800000 : f32
    %cst_6 = arith.constant 0.000000e+00 : f32
    %alloc_16 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %q, %alloc_16 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_18 = memref.alloc() alignment = 64 : memref<1x2x40x8xf32>
    linalg.transpose ins(%expand_shape_17 : memref<1x40x2x8xf32>) outs(%alloc_18 : memref<1x2x40x8xf32>) permutation = [0, 2, 1, 3]
    memref.dealloc %alloc_16 : memref<1x40x16xf32>
    %alloc_20 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %k, %alloc_20 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_21 = memref.expand_shape %alloc_20 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_23 = memref.alloc() alignment = 64 : memref<1x40x16xf32>
    memref.copy %v, %alloc_23 : memref<1x40x16xf32> to memref<1x40x16xf32>
    %expand_shape_24 = memref.expand_shape %alloc_23 [[0], [1], [2, 3]] output_shape [1, 40, 2, 8] : memref<1x40x16xf32> into memref<1x40x2x8xf32>
    %alloc_25 = memref.alloc() alignment = 64 : memref<1x2x8x40xf32>
    linalg.transpose ins(%expand_shape_21 : memref<1x40x2x8xf32>) outs(%alloc_25 : memref<1x2x8x40xf32>) permutation = [0, 2, 3, 1]
    memref.dealloc %alloc_20 : memref<1x40x16xf32>
    %alloc_26 = memref.alloc() alignment = 64 : memref<1x2x40x8xf32>
    linalg.generic {indexing_maps = [#map13, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_18 : memref<1x2x40x8xf32>) outs(%alloc_26 : memref<1x2x40x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    memref.dealloc %alloc_18 : memref<1x2x40x8xf32>
    %alloc_27 = memref.alloc() alignment = 64 : memref<1x2x8x40xf32>
    linalg.generic {indexing_maps = [#map13, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_25 : memref<1x2x8x40xf32>) outs(%alloc_27 : memref<1x2x8x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    memref.dealloc %alloc_25 : memref<1x2x8x40xf32>
    %collapse_shape = memref.collapse_shape %alloc_26 [[0, 1], [2], [3]] : memref<1x2x40x8xf32> into memref<2x40x8xf32>
    %collapse_shape_28 = memref.collapse_shape %alloc_27 [[0, 1], [2], [3]] : memref<1x2x8x40xf32> into memref<2x8x40xf32>
    %alloc_29 = memref.alloc() alignment = 64 : memref<2x40x40xf32>
    linalg.fill ins(%cst_6 : f32) outs(%alloc_29 : memref<2x40x40xf32>)
    linalg.batch_matmul ins(%collapse_shape, %collapse_shape_28 : memref<2x40x8xf32>, memref<2x8x40xf32>) outs(%alloc_29 : memref<2x40x40xf32>)
    memref.dealloc %alloc_26 : memref<1x2x40x8xf32>
    memref.dealloc %alloc_27 : memref<1x2x8x40xf32>
    %expand_shape_30 = memref.expand_shape %alloc_29 [[0, 1], [2], [3]] output_shape [1, 2, 40, 40] : memref<2x40x40xf32> into memref<1x2x40x40xf32>
    %alloc_31 = memref.alloc() alignment = 64 : memref<1x2x40xf32>
    %expand_shape_32 = memref.expand_shape %alloc_31 [[0], [1], [2, 3]] output_shape [1, 2, 40, 1] : memref<1x2x40xf32> into memref<1x2x40x1xf32>
    linalg.fill ins(%cst_2 : f32) outs(%expand_shape_32 : memref<1x2x40x1xf32>)
    %expand_shape_33 = memref.expand_shape %alloc_29 [[0, 1], [2, 3], [4]] output_shape [1, 2, 40, 1, 40] : memref<2x40x40xf32> into memref<1x2x40x1x40xf32>
    linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_33 : memref<1x2x40x1x40xf32>) outs(%expand_shape_32 : memref<1x2x40x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.maximumf %out, %in : f32
      linalg.yield %80 : f32
    }
    %alloc_34 = memref.alloc() alignment = 64 : memref<1x2x40x40xf32>
    linalg.generic {indexing_maps = [#map13, #map16, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_30, %expand_shape_32 : memref<1x2x40x40xf32>, memref<1x2x40x1xf32>) outs(%alloc_34 : memref<1x2x40x40xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.subf %in, %in_534 : f32
      %81 = math.exp %80 : f32
      linalg.yield %81 : f32
    }
    memref.dealloc %alloc_29 : memref<2x40x40xf32>
    memref.dealloc %alloc_31 : memref<1x2x40xf32>
    %alloc_35 = memref.alloc() alignment = 64 : memref<1x2x40xf32>
    %expand_shape_36 = memref.expand_shape %alloc_35 [[0], [1], [2, 3]] output_shape [1, 2, 40, 1] : memref<1x2x40xf32> into memref<1x2x40x1xf32>
    linalg.fill ins(%cst_6 : f32) outs(%expand_shape_36 : memref<1x2x40x1xf32>)
    %expand_shape_37 = memref.expand_shape %alloc_34 [[0], [1], [2, 3], [4]] output_shape [1, 2, 40, 1, 40] : memref<1x2x40x40xf32> into memref<1x2x40x1x40xf32>
    linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_37 : memref<1x2x40x1x40xf32>) outs(%expand_shape_36 : memref<1x2x40x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %80 = arith.addf %out, %in : f32
      linalg.yield %80 : f32
    }
    %alloc_38 = memref.alloc() alignment = 64 : memref<1x2x40x40xf32>
    linalg.generic {indexing_maps = [#map13, #map16, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_34, %expand_shape_36 : memref<1x2x40x40xf32>, memref<1x2x40x1xf32>) outs(%alloc_38 : memref<1x2x40x40xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.divf %in, %in_534 : f32
      linalg.yield %80 : f32
    }
    memref.dealloc %alloc_34 : memref<1x2x40x40xf32>
    memref.dealloc %alloc_35 : memref<1x2x40xf32>
    %alloc_39 = memref.alloc() alignment = 64 : memref<2x40x8xf32>
    linalg.fill ins(%cst_6 : f32) outs(%alloc_39 : memref<2x40x8xf32>)
    %expand_shape_40 = memref.expand_shape %alloc_39 [[0, 1], [2], [3]] output_shape [1, 2, 40, 8] : memref<2x40x8xf32> into memref<1x2x40x8xf32>
    linalg.generic {indexing_maps = [#map17, #map18, #map15], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%alloc_38, %expand_shape_24 : memref<1x2x40x40xf32>, memref<1x40x2x8xf32>) outs(%expand_shape_40 : memref<1x2x40x8xf32>) {
    ^bb0(%in: f32, %in_534: f32, %out: f32):
      %80 = arith.mulf %in, %in_534 : f32
      %81 = arith.addf %out, %80 : f32
      linalg.yield %81 : f32
    }
    memref.dealloc %alloc_23 : memref<1x40x16xf32>
    memref.dealloc %alloc_38 : memref<1x2x40x40xf32>
    %alloc_41 = memref.alloc() alignment = 64 : memref<1x40x2x8xf32>
    linalg.transpose ins(%expand_shape_40 : memref<1x2x40x8xf32>) outs(%alloc_41 : memref<1x40x2x8xf32>) permutation = [0, 2, 1, 3]
    memref.dealloc %alloc_39 : memref<2x40x8xf32>
    %collapse_shape_42 = memref.collapse_shape %alloc_41 [[0], [1], [2, 3]] : memref<1x40x2x8xf32> into memref<1x40x16xf32>
    return %collapse_shape_42 : memref<1x40x16xf32>
  }
}
