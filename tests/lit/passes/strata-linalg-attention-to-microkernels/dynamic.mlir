// RUN: strata-opt %s --split-input-file --strata-linalg-attention-to-microkernels --cse | filecheck %s

// ONNX attention with a run-time sequence (Q [1, 2, s, 8]; K, V [1, 2, t, 8]; a mask
// [1, 1, 1, t]) as convert-onnx-to-linalg and bufferization leave it: one call of the
// fused kernel whatever t (min-keys is decided on static sizes only). M and N are Q's
// and K's run-time dims; the strides that depend on them are computed (16 s, 8 s, ...);
// V's rows and the mask's keys are K's because the arguments name that dim alike
// (`onnx.dim_params`, checked at the entry). Every intermediate and the memref.dim ops
// that read their sizes are gone.
// CHECK-LABEL: func.func @main(
//   CHECK-NOT: linalg.
//       CHECK: %{{.*}}, %{{.*}}, %[[S:.*]]:4, %{{.*}}:4 = memref.extract_strided_metadata %arg0
//       CHECK: %[[O:.*]] = memref.alloc(%[[S]]#2) {{.*}} : memref<2x?x8xf32>
//       CHECK: %[[M:.*]] = arith.index_cast %[[S]]#2 : index to i64
//       CHECK: %{{.*}}, %{{.*}}, %[[T:.*]]:4, %{{.*}}:4 = memref.extract_strided_metadata %arg1
//       CHECK: %[[N:.*]] = arith.index_cast %[[T]]#2 : index to i64
//       CHECK: %[[Q1:.*]] = arith.muli %c16, %[[S]]#2 : index
//       CHECK: %[[Q1I:.*]] = arith.index_cast %[[Q1]] : index to i64
//       CHECK: %[[Q2:.*]] = arith.muli %c8, %[[S]]#2 : index
//       CHECK: %[[Q2I:.*]] = arith.index_cast %[[Q2]] : index to i64
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %[[M]], %[[N]], %c8_i64, %c8_i64, %{{.*}}, %[[Q1I]], %[[Q2I]], %c8_i64,
//  CHECK-SAME: %c0_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i32)
//   CHECK-NOT: linalg.
//       CHECK: return

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
module {
  func.func @main(%arg0: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "s", ""], onnx.name = "Q"}, %arg1: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "t", ""], onnx.name = "K"}, %arg2: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "t", ""], onnx.name = "V"}, %arg3: memref<1x1x1x?xf32> {onnx.dim_params = ["", "", "", "t"], onnx.name = "M"}) -> (memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "s", ""], onnx.name = "O"}) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %0 = memref.get_global @sc : memref<f32>
    %dim = memref.dim %arg1, %c2 : memref<1x2x?x8xf32>
    %dim_1 = memref.dim %arg0, %c2 : memref<1x2x?x8xf32>
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    %alloc = memref.alloc(%dim_1, %dim) alignment = 64 : memref<2x?x?xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x?x?xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x?x8xf32>, memref<2x?x8xf32>) outs(%alloc : memref<2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.mulf %in, %in_20 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, %dim_1, %dim] : memref<2x?x?xf32> into memref<1x2x?x?xf32>
    %dim_3 = memref.dim %expand_shape, %c2 : memref<1x2x?x?xf32>
    %dim_4 = memref.dim %expand_shape, %c3 : memref<1x2x?x?xf32>
    %alloc_5 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %arg3 : memref<1x2x?x?xf32>, memref<f32>, memref<1x1x1x?xf32>) outs(%alloc_5 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %in_21: f32, %out: f32):
      %1 = arith.mulf %in, %in_20 : f32
      %2 = arith.addf %1, %in_21 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x?x?xf32>
    %alloc_6 = memref.alloc(%dim_3) alignment = 64 : memref<1x2x?xf32>
    %expand_shape_7 = memref.expand_shape %alloc_6 [[0], [1], [2, 3]] output_shape [1, 2, %dim_3, 1] : memref<1x2x?xf32> into memref<1x2x?x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_7 : memref<1x2x?x1xf32>)
    %expand_shape_8 = memref.expand_shape %alloc_5 [[0], [1], [2, 3], [4]] output_shape [1, 2, %dim_3, 1, %dim_4] : memref<1x2x?x?xf32> into memref<1x2x?x1x?xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_8 : memref<1x2x?x1x?xf32>) outs(%expand_shape_7 : memref<1x2x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_9 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %expand_shape_7 : memref<1x2x?x?xf32>, memref<1x2x?x1xf32>) outs(%alloc_9 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.subf %in, %in_20 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x?x?xf32>
    memref.dealloc %alloc_6 : memref<1x2x?xf32>
    %alloc_10 = memref.alloc(%dim_3) alignment = 64 : memref<1x2x?xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0], [1], [2, 3]] output_shape [1, 2, %dim_3, 1] : memref<1x2x?xf32> into memref<1x2x?x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_11 : memref<1x2x?x1xf32>)
    %expand_shape_12 = memref.expand_shape %alloc_9 [[0], [1], [2, 3], [4]] output_shape [1, 2, %dim_3, 1, %dim_4] : memref<1x2x?x?xf32> into memref<1x2x?x1x?xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_12 : memref<1x2x?x1x?xf32>) outs(%expand_shape_11 : memref<1x2x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_13 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_9, %expand_shape_11 : memref<1x2x?x?xf32>, memref<1x2x?x1xf32>) outs(%alloc_13 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.divf %in, %in_20 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_9 : memref<1x2x?x?xf32>
    memref.dealloc %alloc_10 : memref<1x2x?xf32>
    %collapse_shape_14 = memref.collapse_shape %alloc_13 [[0, 1], [2], [3]] : memref<1x2x?x?xf32> into memref<2x?x?xf32>
    %collapse_shape_15 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    %alloc_16 = memref.alloc(%dim_3) alignment = 64 : memref<2x?x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_16 : memref<2x?x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_14, %collapse_shape_15 : memref<2x?x?xf32>, memref<2x?x8xf32>) outs(%alloc_16 : memref<2x?x8xf32>)
    memref.dealloc %alloc_13 : memref<1x2x?x?xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0, 1], [2], [3]] output_shape [1, 2, %dim_3, 8] : memref<2x?x8xf32> into memref<1x2x?x8xf32>
    %dim_18 = memref.dim %expand_shape_17, %c2 : memref<1x2x?x8xf32>
    %alloc_19 = memref.alloc(%dim_18) alignment = 64 : memref<1x2x?x8xf32>
    memref.copy %expand_shape_17, %alloc_19 : memref<1x2x?x8xf32> to memref<1x2x?x8xf32>
    memref.dealloc %alloc_16 : memref<2x?x8xf32>
    return %alloc_19 : memref<1x2x?x8xf32>
  }
  memref.global "private" constant @sc : memref<f32> = dense<0.35> alignment = 64
}

// -----

// The same with V's rows named differently from K's ("u"): nothing proves P V's
// contraction size is K's, so the two products stay (their lowering checks it).
// CHECK-LABEL: func.func @main(
//   CHECK-NOT: strata_attention_f32
//       CHECK: linalg.batch_matmul
//   CHECK-NOT: strata_attention_f32

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
module {
  func.func @main(%arg0: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "s", ""], onnx.name = "Q"}, %arg1: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "t", ""], onnx.name = "K"}, %arg2: memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "u", ""], onnx.name = "V"}, %arg3: memref<1x1x1x?xf32> {onnx.dim_params = ["", "", "", "t"], onnx.name = "M"}) -> (memref<1x2x?x8xf32> {onnx.dim_params = ["", "", "s", ""], onnx.name = "O"}) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %0 = memref.get_global @sc : memref<f32>
    %dim = memref.dim %arg1, %c2 : memref<1x2x?x8xf32>
    %dim_1 = memref.dim %arg0, %c2 : memref<1x2x?x8xf32>
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    %alloc = memref.alloc(%dim_1, %dim) alignment = 64 : memref<2x?x?xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x?x?xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x?x8xf32>, memref<2x?x8xf32>) outs(%alloc : memref<2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.mulf %in, %in_20 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, %dim_1, %dim] : memref<2x?x?xf32> into memref<1x2x?x?xf32>
    %dim_3 = memref.dim %expand_shape, %c2 : memref<1x2x?x?xf32>
    %dim_4 = memref.dim %expand_shape, %c3 : memref<1x2x?x?xf32>
    %alloc_5 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %arg3 : memref<1x2x?x?xf32>, memref<f32>, memref<1x1x1x?xf32>) outs(%alloc_5 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %in_21: f32, %out: f32):
      %1 = arith.mulf %in, %in_20 : f32
      %2 = arith.addf %1, %in_21 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x?x?xf32>
    %alloc_6 = memref.alloc(%dim_3) alignment = 64 : memref<1x2x?xf32>
    %expand_shape_7 = memref.expand_shape %alloc_6 [[0], [1], [2, 3]] output_shape [1, 2, %dim_3, 1] : memref<1x2x?xf32> into memref<1x2x?x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_7 : memref<1x2x?x1xf32>)
    %expand_shape_8 = memref.expand_shape %alloc_5 [[0], [1], [2, 3], [4]] output_shape [1, 2, %dim_3, 1, %dim_4] : memref<1x2x?x?xf32> into memref<1x2x?x1x?xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_8 : memref<1x2x?x1x?xf32>) outs(%expand_shape_7 : memref<1x2x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_9 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %expand_shape_7 : memref<1x2x?x?xf32>, memref<1x2x?x1xf32>) outs(%alloc_9 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.subf %in, %in_20 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x?x?xf32>
    memref.dealloc %alloc_6 : memref<1x2x?xf32>
    %alloc_10 = memref.alloc(%dim_3) alignment = 64 : memref<1x2x?xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0], [1], [2, 3]] output_shape [1, 2, %dim_3, 1] : memref<1x2x?xf32> into memref<1x2x?x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_11 : memref<1x2x?x1xf32>)
    %expand_shape_12 = memref.expand_shape %alloc_9 [[0], [1], [2, 3], [4]] output_shape [1, 2, %dim_3, 1, %dim_4] : memref<1x2x?x?xf32> into memref<1x2x?x1x?xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_12 : memref<1x2x?x1x?xf32>) outs(%expand_shape_11 : memref<1x2x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_13 = memref.alloc(%dim_3, %dim_4) alignment = 64 : memref<1x2x?x?xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_9, %expand_shape_11 : memref<1x2x?x?xf32>, memref<1x2x?x1xf32>) outs(%alloc_13 : memref<1x2x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %1 = arith.divf %in, %in_20 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_9 : memref<1x2x?x?xf32>
    memref.dealloc %alloc_10 : memref<1x2x?xf32>
    %collapse_shape_14 = memref.collapse_shape %alloc_13 [[0, 1], [2], [3]] : memref<1x2x?x?xf32> into memref<2x?x?xf32>
    %collapse_shape_15 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x?x8xf32> into memref<2x?x8xf32>
    %alloc_16 = memref.alloc(%dim_3) alignment = 64 : memref<2x?x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_16 : memref<2x?x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_14, %collapse_shape_15 : memref<2x?x?xf32>, memref<2x?x8xf32>) outs(%alloc_16 : memref<2x?x8xf32>)
    memref.dealloc %alloc_13 : memref<1x2x?x?xf32>
    %expand_shape_17 = memref.expand_shape %alloc_16 [[0, 1], [2], [3]] output_shape [1, 2, %dim_3, 8] : memref<2x?x8xf32> into memref<1x2x?x8xf32>
    %dim_18 = memref.dim %expand_shape_17, %c2 : memref<1x2x?x8xf32>
    %alloc_19 = memref.alloc(%dim_18) alignment = 64 : memref<1x2x?x8xf32>
    memref.copy %expand_shape_17, %alloc_19 : memref<1x2x?x8xf32> to memref<1x2x?x8xf32>
    memref.dealloc %alloc_16 : memref<2x?x8xf32>
    return %alloc_19 : memref<1x2x?x8xf32>
  }
  memref.global "private" constant @sc : memref<f32> = dense<0.35> alignment = 64
}
