// RUN: strata-opt %s --strata-linalg-attention-to-microkernels=min-keys=16 | filecheck %s
// RUN: strata-opt %s --strata-linalg-attention-to-microkernels | filecheck %s --check-prefix=SHORT

// ONNX attention as convert-onnx-to-linalg and bufferization leave it (MatMul of Q and
// K^T, Mul by a scalar global, Add of a [1, 1, 1, 16] mask, Softmax, MatMul by V): one
// call of the fused kernel at the second product, the scale loaded from its global, the
// mask broadcast along batch, heads (B1 = 1, B2 = 2: the collapsed batch) and rows
// (strides 0, 0, 0, 1); every intermediate buffer, its fills and the zero fill of the
// output are gone.
// CHECK-LABEL: func.func private @strata_attention_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64, i64, i32)
// CHECK-LABEL: func.func @main(
//   CHECK-NOT: linalg.
//       CHECK: %[[SC:.*]] = memref.load %0[] : memref<f32>
//       CHECK: call @strata_attention_f32(%c1_i64, %c2_i64, %c16_i64, %c16_i64, %c8_i64, %c8_i64, %2, %c256_i64, %c128_i64, %c8_i64, %4, %c256_i64, %c128_i64, %c8_i64, %c1_i64, %6, %c256_i64, %c128_i64, %c8_i64, %c1_i64, %8, %c256_i64, %c128_i64, %c8_i64, %[[SC]], %11, %c0_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i32)
//   CHECK-NOT: linalg.
//   CHECK-NOT: memref.alloc() alignment = 64 : memref<{{.*}}x16xf32>
//       CHECK: return

// Below min-keys (32 by default: 16 keys here) nothing changes.
// SHORT-NOT: strata_attention_f32
// SHORT: linalg.batch_matmul
// SHORT-NOT: strata_attention_f32

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
  func.func @main(%arg0: memref<1x2x16x8xf32>, %arg1: memref<1x2x16x8xf32>, %arg2: memref<1x2x16x8xf32>, %arg3: memref<1x1x1x16xf32>) -> (memref<1x2x16x8xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @sc : memref<f32>
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
    linalg.generic {indexing_maps = [#map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape, %0, %arg3 : memref<1x2x16x16xf32>, memref<f32>, memref<1x1x1x16xf32>) outs(%alloc_2 : memref<1x2x16x16xf32>) {
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
    return %alloc_15 : memref<1x2x16x8xf32>
  }
  memref.global "private" constant @sc : memref<f32> = dense_resource<sc> alignment = 64
}

{-#
  dialect_resources: {
    builtin: {
      sc: "0x040000000000003E"
    }
  }
#-}
