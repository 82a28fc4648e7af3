// RUN: strata-opt %s --strata-linalg-attention-to-microkernels | filecheck %s

// torch's SDPA with is_causal=True as convert-torch-to-linalg, fusion and bufferization
// leave it: the causal bias select(j <= i, 0, -inf) of linalg.index values computed in
// the scores' generic. Recognized in its equivalent forms (i >= j unsigned, select(j >
// i, -inf, 0)) it becomes the flag ATTN_CAUSAL (4) and no mask buffer (null pointer,
// strides 0); a strict j < i or a finite bias is another mask, computed into a buffer
// of the generic's varying loops (80 x 80) the kernel reads (flags 0).
// CHECK-LABEL: func.func @causal(
//   CHECK-NOT: linalg.index
//       CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c80_i64, %c80_i64, %c32_i64, %c32_i64, {{.*}}, %[[NULL]], %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c4_i32)
//   CHECK-NOT: linalg.
//       CHECK: return

// CHECK-LABEL: func.func @causal_rows_first(
//   CHECK-NOT: linalg.index
//       CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c80_i64, %c80_i64, %c32_i64, %c32_i64, {{.*}}, %[[NULL]], %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c4_i32)
//   CHECK-NOT: linalg.
//       CHECK: return

// CHECK-LABEL: func.func @causal_masked_after(
//   CHECK-NOT: linalg.index
//       CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c80_i64, %c80_i64, %c32_i64, %c32_i64, {{.*}}, %[[NULL]], %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c4_i32)
//   CHECK-NOT: linalg.
//       CHECK: return

// CHECK-LABEL: func.func @strict(
//       CHECK: memref.alloc() {{.*}} : memref<80x80xf32>
//       CHECK: linalg.index 0
//       CHECK: linalg.index 1
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c80_i64, %c80_i64, %c32_i64, %c32_i64, {{.*}}, %c0_i64, %c0_i64, %c80_i64, %c1_i64, %c0_i32)
//       CHECK: return

// CHECK-LABEL: func.func @finite_bias(
//       CHECK: memref.alloc() {{.*}} : memref<80x80xf32>
//       CHECK: linalg.index 0
//       CHECK: linalg.index 1
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c80_i64, %c80_i64, %c32_i64, %c32_i64, {{.*}}, %c0_i64, %c0_i64, %c80_i64, %c1_i64, %c0_i32)
//       CHECK: return

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @causal(%arg0: memref<1x2x80x32xf32>, %arg1: memref<1x2x80x32xf32>, %arg2: memref<1x2x80x32xf32>) -> memref<1x2x80x32xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.176776692 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x80x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<2x80x80xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x80x32xf32>, memref<2x80x32xf32>) outs(%alloc : memref<2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.mulf %in, %in_13 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 80, 80] : memref<2x80x80xf32> into memref<1x2x80x80xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape : memref<1x2x80x80xf32>) outs(%alloc_3 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = linalg.index 3 : index
      %2 = arith.mulf %in, %cst_0 : f32
      %3 = arith.cmpi sle, %1, %0 : index
      %4 = arith.select %3, %cst_1, %cst : f32
      %5 = arith.addf %2, %4 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x80x80xf32>
    %alloc_4 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<1x2x80x80xf32>) outs(%alloc_4 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_5 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.subf %in, %in_13 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_3 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_4 : memref<1x2x80xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<1x2x80x80xf32>) outs(%alloc_6 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_7 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.divf %in, %in_13 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_6 : memref<1x2x80xf32>
    %collapse_shape_8 = memref.collapse_shape %alloc_7 [[0, 1], [2], [3]] : memref<1x2x80x80xf32> into memref<2x80x80xf32>
    %collapse_shape_9 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x80x32xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_10 : memref<2x80x32xf32>)
    linalg.batch_matmul ins(%collapse_shape_8, %collapse_shape_9 : memref<2x80x80xf32>, memref<2x80x32xf32>) outs(%alloc_10 : memref<2x80x32xf32>)
    memref.dealloc %alloc_7 : memref<1x2x80x80xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0, 1], [2], [3]] output_shape [1, 2, 80, 32] : memref<2x80x32xf32> into memref<1x2x80x32xf32>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x80x32xf32>
    memref.copy %expand_shape_11, %alloc_12 : memref<1x2x80x32xf32> to memref<1x2x80x32xf32>
    memref.dealloc %alloc_10 : memref<2x80x32xf32>
    return %alloc_12 : memref<1x2x80x32xf32>
  }

  func.func @causal_rows_first(%arg0: memref<1x2x80x32xf32>, %arg1: memref<1x2x80x32xf32>, %arg2: memref<1x2x80x32xf32>) -> memref<1x2x80x32xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.176776692 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x80x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<2x80x80xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x80x32xf32>, memref<2x80x32xf32>) outs(%alloc : memref<2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.mulf %in, %in_13 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 80, 80] : memref<2x80x80xf32> into memref<1x2x80x80xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape : memref<1x2x80x80xf32>) outs(%alloc_3 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = linalg.index 3 : index
      %2 = arith.mulf %in, %cst_0 : f32
      %3 = arith.cmpi uge, %0, %1 : index
      %4 = arith.select %3, %cst_1, %cst : f32
      %5 = arith.addf %2, %4 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x80x80xf32>
    %alloc_4 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<1x2x80x80xf32>) outs(%alloc_4 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_5 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.subf %in, %in_13 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_3 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_4 : memref<1x2x80xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<1x2x80x80xf32>) outs(%alloc_6 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_7 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.divf %in, %in_13 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_6 : memref<1x2x80xf32>
    %collapse_shape_8 = memref.collapse_shape %alloc_7 [[0, 1], [2], [3]] : memref<1x2x80x80xf32> into memref<2x80x80xf32>
    %collapse_shape_9 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x80x32xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_10 : memref<2x80x32xf32>)
    linalg.batch_matmul ins(%collapse_shape_8, %collapse_shape_9 : memref<2x80x80xf32>, memref<2x80x32xf32>) outs(%alloc_10 : memref<2x80x32xf32>)
    memref.dealloc %alloc_7 : memref<1x2x80x80xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0, 1], [2], [3]] output_shape [1, 2, 80, 32] : memref<2x80x32xf32> into memref<1x2x80x32xf32>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x80x32xf32>
    memref.copy %expand_shape_11, %alloc_12 : memref<1x2x80x32xf32> to memref<1x2x80x32xf32>
    memref.dealloc %alloc_10 : memref<2x80x32xf32>
    return %alloc_12 : memref<1x2x80x32xf32>
  }

  func.func @causal_masked_after(%arg0: memref<1x2x80x32xf32>, %arg1: memref<1x2x80x32xf32>, %arg2: memref<1x2x80x32xf32>) -> memref<1x2x80x32xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.176776692 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x80x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<2x80x80xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x80x32xf32>, memref<2x80x32xf32>) outs(%alloc : memref<2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.mulf %in, %in_13 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 80, 80] : memref<2x80x80xf32> into memref<1x2x80x80xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape : memref<1x2x80x80xf32>) outs(%alloc_3 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = linalg.index 3 : index
      %2 = arith.mulf %in, %cst_0 : f32
      %3 = arith.cmpi sgt, %1, %0 : index
      %4 = arith.select %3, %cst, %cst_1 : f32
      %5 = arith.addf %2, %4 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x80x80xf32>
    %alloc_4 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<1x2x80x80xf32>) outs(%alloc_4 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_5 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.subf %in, %in_13 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_3 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_4 : memref<1x2x80xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<1x2x80x80xf32>) outs(%alloc_6 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_7 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.divf %in, %in_13 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_6 : memref<1x2x80xf32>
    %collapse_shape_8 = memref.collapse_shape %alloc_7 [[0, 1], [2], [3]] : memref<1x2x80x80xf32> into memref<2x80x80xf32>
    %collapse_shape_9 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x80x32xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_10 : memref<2x80x32xf32>)
    linalg.batch_matmul ins(%collapse_shape_8, %collapse_shape_9 : memref<2x80x80xf32>, memref<2x80x32xf32>) outs(%alloc_10 : memref<2x80x32xf32>)
    memref.dealloc %alloc_7 : memref<1x2x80x80xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0, 1], [2], [3]] output_shape [1, 2, 80, 32] : memref<2x80x32xf32> into memref<1x2x80x32xf32>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x80x32xf32>
    memref.copy %expand_shape_11, %alloc_12 : memref<1x2x80x32xf32> to memref<1x2x80x32xf32>
    memref.dealloc %alloc_10 : memref<2x80x32xf32>
    return %alloc_12 : memref<1x2x80x32xf32>
  }

  func.func @strict(%arg0: memref<1x2x80x32xf32>, %arg1: memref<1x2x80x32xf32>, %arg2: memref<1x2x80x32xf32>) -> memref<1x2x80x32xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.176776692 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x80x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<2x80x80xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x80x32xf32>, memref<2x80x32xf32>) outs(%alloc : memref<2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.mulf %in, %in_13 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 80, 80] : memref<2x80x80xf32> into memref<1x2x80x80xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape : memref<1x2x80x80xf32>) outs(%alloc_3 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = linalg.index 3 : index
      %2 = arith.mulf %in, %cst_0 : f32
      %3 = arith.cmpi slt, %1, %0 : index
      %4 = arith.select %3, %cst_1, %cst : f32
      %5 = arith.addf %2, %4 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x80x80xf32>
    %alloc_4 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<1x2x80x80xf32>) outs(%alloc_4 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_5 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.subf %in, %in_13 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_3 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_4 : memref<1x2x80xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<1x2x80x80xf32>) outs(%alloc_6 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_7 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.divf %in, %in_13 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_6 : memref<1x2x80xf32>
    %collapse_shape_8 = memref.collapse_shape %alloc_7 [[0, 1], [2], [3]] : memref<1x2x80x80xf32> into memref<2x80x80xf32>
    %collapse_shape_9 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x80x32xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_10 : memref<2x80x32xf32>)
    linalg.batch_matmul ins(%collapse_shape_8, %collapse_shape_9 : memref<2x80x80xf32>, memref<2x80x32xf32>) outs(%alloc_10 : memref<2x80x32xf32>)
    memref.dealloc %alloc_7 : memref<1x2x80x80xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0, 1], [2], [3]] output_shape [1, 2, 80, 32] : memref<2x80x32xf32> into memref<1x2x80x32xf32>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x80x32xf32>
    memref.copy %expand_shape_11, %alloc_12 : memref<1x2x80x32xf32> to memref<1x2x80x32xf32>
    memref.dealloc %alloc_10 : memref<2x80x32xf32>
    return %alloc_12 : memref<1x2x80x32xf32>
  }

  func.func @finite_bias(%arg0: memref<1x2x80x32xf32>, %arg1: memref<1x2x80x32xf32>, %arg2: memref<1x2x80x32xf32>) -> memref<1x2x80x32xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.176776692 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_big = arith.constant -1.000000e+09 : f32
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc = memref.alloc() alignment = 64 : memref<2x80x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<2x80x80xf32>)
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapse_shape, %collapse_shape_2 : memref<2x80x32xf32>, memref<2x80x32xf32>) outs(%alloc : memref<2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.mulf %in, %in_13 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0, 1], [2], [3]] output_shape [1, 2, 80, 80] : memref<2x80x80xf32> into memref<1x2x80x80xf32>
    %alloc_3 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape : memref<1x2x80x80xf32>) outs(%alloc_3 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = linalg.index 3 : index
      %2 = arith.mulf %in, %cst_0 : f32
      %3 = arith.cmpi sle, %1, %0 : index
      %4 = arith.select %3, %cst_1, %cst_big : f32
      %5 = arith.addf %2, %4 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x80x80xf32>
    %alloc_4 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<1x2x80x80xf32>) outs(%alloc_4 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_5 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.subf %in, %in_13 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc_3 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_4 : memref<1x2x80xf32>
    %alloc_6 = memref.alloc() alignment = 64 : memref<1x2x80xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x2x80xf32>)
    linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<1x2x80x80xf32>) outs(%alloc_6 : memref<1x2x80xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_7 = memref.alloc() alignment = 64 : memref<1x2x80x80xf32>
    linalg.generic {indexing_maps = [#map4, #map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<1x2x80x80xf32>, memref<1x2x80xf32>) outs(%alloc_7 : memref<1x2x80x80xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %0 = arith.divf %in, %in_13 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc_5 : memref<1x2x80x80xf32>
    memref.dealloc %alloc_6 : memref<1x2x80xf32>
    %collapse_shape_8 = memref.collapse_shape %alloc_7 [[0, 1], [2], [3]] : memref<1x2x80x80xf32> into memref<2x80x80xf32>
    %collapse_shape_9 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x2x80x32xf32> into memref<2x80x32xf32>
    %alloc_10 = memref.alloc() alignment = 64 : memref<2x80x32xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_10 : memref<2x80x32xf32>)
    linalg.batch_matmul ins(%collapse_shape_8, %collapse_shape_9 : memref<2x80x80xf32>, memref<2x80x32xf32>) outs(%alloc_10 : memref<2x80x32xf32>)
    memref.dealloc %alloc_7 : memref<1x2x80x80xf32>
    %expand_shape_11 = memref.expand_shape %alloc_10 [[0, 1], [2], [3]] output_shape [1, 2, 80, 32] : memref<2x80x32xf32> into memref<1x2x80x32xf32>
    %alloc_12 = memref.alloc() alignment = 64 : memref<1x2x80x32xf32>
    memref.copy %expand_shape_11, %alloc_12 : memref<1x2x80x32xf32> to memref<1x2x80x32xf32>
    memref.dealloc %alloc_10 : memref<2x80x32xf32>
    return %alloc_12 : memref<1x2x80x32xf32>
  }
}
