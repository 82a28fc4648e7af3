// RUN: strata-opt %s --strata-linalg-attention-to-microkernels=min-keys=16 | filecheck %s

// HF GPT-2's mask as the TorchScript ONNX export leaves it: one run-time [S, S] buffer
// select(tril & padding, 0, -inf) of a constant lower-triangular i1 (the causal part)
// and the [1, 1, 1, S] padding mask, added to the scores. The causal part becomes
// ATTN_CAUSAL (4) and the buffer keeps the padding part only, select(padding, 0, -inf)
// (-inf + -inf = -inf: the same scores); a causal mask alone becomes a zero buffer.
// CHECK-LABEL: func.func @gpt2(
//       CHECK: linalg.generic
//  CHECK-SAME: ins(%{{.*}}, %arg3 : memref<1x1x16x16xi1>, memref<1x1x1x16xi1>)
//  CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[P:.*]]: i1, %{{.*}}: f32):
//  CHECK-NEXT: arith.select %[[P]], %cst_0, %{{.*}} : f32
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i64, %c0_i64, %c16_i64, %c1_i64, %c4_i32)
// CHECK-LABEL: func.func @causal_only(
//       CHECK: %[[T:.*]] = arith.constant true
//       CHECK: arith.select %[[T]], %cst_0, %{{.*}} : f32
//       CHECK: call @strata_attention_f32({{.*}}, %c4_i32)

// Near misses keep the whole mask, flags 0: the upper triangle (triu), a strict lower
// triangle (j < i), a finite fill (a row masked whole by a finite value is a uniform
// softmax over every key, not over the causal ones only).
// CHECK-LABEL: func.func @upper(
//       CHECK: arith.andi
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i32)
// CHECK-LABEL: func.func @strict_lower(
//       CHECK: arith.andi
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i32)
// CHECK-LABEL: func.func @finite_fill(
//       CHECK: arith.andi
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i32)

// The same mask computed in the scores' generic (as GPT-2's export is after fusion): the
// padding part goes to a [16] buffer of the keys (mask strides 0, 0, 0, 1), flags 4.
// CHECK-LABEL: func.func @gpt2_in_scores(
//       CHECK: %[[PAD:.*]] = memref.alloc() {{.*}} : memref<16xf32>
//       CHECK: linalg.generic
//  CHECK-SAME: ins(%arg3 : memref<1x1x1x16xi1>) outs(%[[PAD]] : memref<16xf32>)
//   CHECK-NOT: arith.andi
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i64, %c0_i64, %c0_i64, %c1_i64, %c4_i32)
// CHECK-LABEL: func.func @upper_in_scores(
//       CHECK: arith.andi
//       CHECK: call @strata_attention_f32({{.*}}, %c0_i32)

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
#mapc = affine_map<(d0, d1) -> (0, 0, d0, d1)>
#mapp = affine_map<(d0, d1) -> (0, 0, 0, d1)>
#mapo = affine_map<(d0, d1) -> (d0, d1)>
#mapm = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#mapt = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
module {
  func.func @gpt2(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @tril : memref<1x1x16x16xi1>
    %fill = arith.constant 0xFF800000 : f32
    %mask = memref.alloc() alignment = 64 : memref<16x16xf32>
    linalg.generic {indexing_maps = [#mapc, #mapp, #mapo], iterator_types = ["parallel", "parallel"]} ins(%tr, %arg3 : memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%mask : memref<16x16xf32>) {
    ^bb0(%c: i1, %p: i1, %out: f32):
      %a = arith.andi %c, %p : i1
      %s = arith.select %a, %cst_0, %fill : f32
      linalg.yield %s : f32
    }
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapm, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %mask : memref<1x2x16x16xf32>, memref<f32>, memref<16x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %1, %in_17 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    memref.dealloc %mask : memref<16x16xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @causal_only(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @tril : memref<1x1x16x16xi1>
    %fill = arith.constant 0xFF800000 : f32
    %mask = memref.alloc() alignment = 64 : memref<16x16xf32>
    linalg.generic {indexing_maps = [#mapc, #mapo], iterator_types = ["parallel", "parallel"]} ins(%tr : memref<1x1x16x16xi1>) outs(%mask : memref<16x16xf32>) {
    ^bb0(%c: i1, %out: f32):
      %s = arith.select %c, %cst_0, %fill : f32
      linalg.yield %s : f32
    }
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapm, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %mask : memref<1x2x16x16xf32>, memref<f32>, memref<16x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %1, %in_17 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    memref.dealloc %mask : memref<16x16xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @upper(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @triu : memref<1x1x16x16xi1>
    %fill = arith.constant 0xFF800000 : f32
    %mask = memref.alloc() alignment = 64 : memref<16x16xf32>
    linalg.generic {indexing_maps = [#mapc, #mapp, #mapo], iterator_types = ["parallel", "parallel"]} ins(%tr, %arg3 : memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%mask : memref<16x16xf32>) {
    ^bb0(%c: i1, %p: i1, %out: f32):
      %a = arith.andi %c, %p : i1
      %s = arith.select %a, %cst_0, %fill : f32
      linalg.yield %s : f32
    }
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapm, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %mask : memref<1x2x16x16xf32>, memref<f32>, memref<16x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %1, %in_17 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    memref.dealloc %mask : memref<16x16xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @strict_lower(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @strict : memref<1x1x16x16xi1>
    %fill = arith.constant 0xFF800000 : f32
    %mask = memref.alloc() alignment = 64 : memref<16x16xf32>
    linalg.generic {indexing_maps = [#mapc, #mapp, #mapo], iterator_types = ["parallel", "parallel"]} ins(%tr, %arg3 : memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%mask : memref<16x16xf32>) {
    ^bb0(%c: i1, %p: i1, %out: f32):
      %a = arith.andi %c, %p : i1
      %s = arith.select %a, %cst_0, %fill : f32
      linalg.yield %s : f32
    }
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapm, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %mask : memref<1x2x16x16xf32>, memref<f32>, memref<16x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %1, %in_17 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    memref.dealloc %mask : memref<16x16xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @finite_fill(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @tril : memref<1x1x16x16xi1>
    %fill = arith.constant -3.40282347E+38 : f32
    %mask = memref.alloc() alignment = 64 : memref<16x16xf32>
    linalg.generic {indexing_maps = [#mapc, #mapp, #mapo], iterator_types = ["parallel", "parallel"]} ins(%tr, %arg3 : memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%mask : memref<16x16xf32>) {
    ^bb0(%c: i1, %p: i1, %out: f32):
      %a = arith.andi %c, %p : i1
      %s = arith.select %a, %cst_0, %fill : f32
      linalg.yield %s : f32
    }
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapm, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %mask : memref<1x2x16x16xf32>, memref<f32>, memref<16x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %1, %in_17 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    memref.dealloc %mask : memref<16x16xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @gpt2_in_scores(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @tril : memref<1x1x16x16xi1>
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapt, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %tr, %arg3 : memref<1x2x16x16xf32>, memref<f32>, memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %c: i1, %p: i1, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %a = arith.andi %c, %p : i1
      %m = arith.select %a, %cst_0, %cst : f32
      %2 = arith.addf %1, %m : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  func.func @upper_in_scores(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xi1>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
    %tr = memref.get_global @triu : memref<1x1x16x16xi1>
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x16x16xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<2x16x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_1 : memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%alloc : memref<2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %2 = arith.addf %out, %1 : f32
      linalg.yield %2 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : memref<2x16x16xf32> into memref<1x2x16x16xf32>
    %alloc_2 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #mapt, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %tr, %arg3 : memref<1x2x16x16xf32>, memref<f32>, memref<1x1x16x16xi1>, memref<1x1x1x16xi1>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %c: i1, %p: i1, %out: f32):
      %1 = arith.mulf %in, %in_16 : f32
      %a = arith.andi %c, %p : i1
      %m = arith.select %a, %cst_0, %cst : f32
      %2 = arith.addf %1, %m : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<2x16x16xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_4 = memref.expand_shape %alloc_3 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst : f32) outs(%expand_shape_4 : memref<1x2x16x1xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_2 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_5 : memref<1x2x16x1x16xf32>) outs(%expand_shape_4 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.maximumf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2, %expand_shape_4 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_6 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.subf %in, %in_16 : f32
      %2 = math.exp %1 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc_2 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_3 : memref<1x2x16xf32>
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x16xf32>
    %expand_shape_8 = memref.expand_shape %alloc_7 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : memref<1x2x16xf32> into memref<1x2x16x1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%expand_shape_8 : memref<1x2x16x1xf32>)
    %expand_shape_9 = memref.expand_shape %alloc_6 [[0], [1], [2, 3], [4]] output_shape [1, 2, 16, 1, 16] : memref<1x2x16x16xf32> into memref<1x2x16x1x16xf32>
    linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape_9 : memref<1x2x16x1x16xf32>) outs(%expand_shape_8 : memref<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    }
    %alloc_10 = memref.alloc() alignment = 64 : memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [#map3, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_8 : memref<1x2x16x16xf32>, memref<1x2x16x1xf32>) outs(%alloc_10 : memref<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %1 = arith.divf %in, %in_16 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_6 : memref<1x2x16x16xf32>
    memref.dealloc %alloc_7 : memref<1x2x16xf32>
    %collapse_shape_11 = memref.collapse_shape %alloc_10 [[0, 1], [2], [3]] : memref<1x2x16x16xf32> into memref<2x16x16xf32>
    %collapse_shape_12 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x16x8xf32> into memref<2x16x8xf32>
    %alloc_13 = memref.alloc() alignment = 64 : memref<2x16x8xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape_12 : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%alloc_13 : memref<2x16x8xf32>)
    memref.dealloc %alloc_10 : memref<1x2x16x16xf32>
    %expand_shape_14 = memref.expand_shape %alloc_13 [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : memref<2x16x8xf32> into memref<1x2x16x8xf32>
    %alloc_15 = memref.alloc() alignment = 64 : memref<1x2x16x8xf32>
    memref.copy %expand_shape_14, %alloc_15 : memref<1x2x16x8xf32> to memref<1x2x16x8xf32>
    memref.dealloc %alloc_13 : memref<2x16x8xf32>
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  memref.global "private" constant @tril : memref<1x1x16x16xi1> = dense<[[[[true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]]]> alignment = 64
  memref.global "private" constant @triu : memref<1x1x16x16xi1> = dense<[[[[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true]]]]> alignment = 64
  memref.global "private" constant @strict : memref<1x1x16x16xi1> = dense<[[[[false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false]]]]> alignment = 64
  memref.global "private" constant @sc : memref<f32> = dense_resource<sc> alignment = 64
}

{-#
  dialect_resources: {
    builtin: {
      sc: "0x040000000000003E"
    }
  }
#-}
