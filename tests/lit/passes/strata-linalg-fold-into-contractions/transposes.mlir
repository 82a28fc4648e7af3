// RUN: strata-opt %s --strata-linalg-fold-into-contractions | filecheck %s
// RUN: strata-opt %s --strata-linalg-fold-into-contractions --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-DAG: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #map4 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #map6 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>
// CHECK-DAG: #map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>

// A . B^T: the transposed operand is read in place (the GEMM kernels' B^T form); the
// named op becomes the linalg.generic with its maps.
// CHECK-LABEL: func.func @transpose_b(
//   CHECK-NOT: linalg.transpose
//       CHECK: linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<8x16xf32>)
//  CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
//  CHECK-NEXT:   %3 = arith.mulf %in, %in_0 : f32
//  CHECK-NEXT:   %4 = arith.addf %out, %3 : f32
//  CHECK-NEXT:   linalg.yield %4 : f32
func.func @transpose_b(%q: tensor<4x16xf32>, %k: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  %cst = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%q, %t : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A collapse_shape between (ONNX MatMul's batch dims): the transpose moves whole
// groups, so the source is collapsed instead and read transposed.
// CHECK-LABEL: func.func @collapsed_batch(
//  CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x16xf32> into tensor<6x4x16xf32>
//  CHECK-NEXT: %collapsed_0 = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2], [3]] : tensor<2x3x8x16xf32> into tensor<6x8x16xf32>
//  CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map3, #map4, #map5], {{.*}} ins(%collapsed, %collapsed_0 : tensor<6x4x16xf32>, tensor<6x8x16xf32>) outs(%arg2 : tensor<6x4x8xf32>)
func.func @collapsed_batch(%q: tensor<2x3x4x16xf32>, %k: tensor<2x3x8x16xf32>, %z: tensor<6x4x8xf32>) -> tensor<6x4x8xf32> {
  %e = tensor.empty() : tensor<2x3x16x8xf32>
  %t = linalg.transpose ins(%k : tensor<2x3x8x16xf32>) outs(%e : tensor<2x3x16x8xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x4x16xf32> into tensor<6x4x16xf32>
  %tc = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x3x16x8xf32> into tensor<6x16x8xf32>
  %r = linalg.batch_matmul ins(%qc, %tc : tensor<6x4x16xf32>, tensor<6x16x8xf32>) outs(%z : tensor<6x4x8xf32>) -> tensor<6x4x8xf32>
  return %r : tensor<6x4x8xf32>
}

// The transpose moves a batch dim: the product is expanded to the two batch dims
// first (the collapse and expand around it cancel), then reads the source in place.
// CHECK-LABEL: func.func @batch_dim_moved(
//  CHECK-NEXT: %expanded = tensor.expand_shape %arg2 {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 4, 8]
//  CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x3x4x5xf32>, tensor<2x5x3x8xf32>) outs(%expanded : tensor<2x3x4x8xf32>)
//       CHECK: return %0 : tensor<2x3x4x8xf32>
func.func @batch_dim_moved(%p: tensor<2x3x4x5xf32>, %v: tensor<2x5x3x8xf32>, %z: tensor<6x4x8xf32>) -> tensor<2x3x4x8xf32> {
  %e = tensor.empty() : tensor<2x3x5x8xf32>
  %t = linalg.transpose ins(%v : tensor<2x5x3x8xf32>) outs(%e : tensor<2x3x5x8xf32>) permutation = [0, 2, 1, 3]
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
  %tc = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x3x5x8xf32> into tensor<6x5x8xf32>
  %r = linalg.batch_matmul ins(%pc, %tc : tensor<6x4x5xf32>, tensor<6x5x8xf32>) outs(%z : tensor<6x4x8xf32>) -> tensor<6x4x8xf32>
  %x = tensor.expand_shape %r [[0, 1], [2], [3]] output_shape [2, 3, 4, 8] : tensor<6x4x8xf32> into tensor<2x3x4x8xf32>
  return %x : tensor<2x3x4x8xf32>
}

// A linalg.generic that only transposes is folded the same way.
// CHECK-LABEL: func.func @generic_transpose(
//  CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], {{.*}} ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<8x16xf32>) outs(%arg2 : tensor<4x8xf32>)
func.func @generic_transpose(%a: tensor<4x16xf32>, %k: tensor<8x16xf32>, %z: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%k : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x8xf32>
  %r = linalg.matmul ins(%a, %t : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Kept: A transposed (the kernels read A along the reduction), a transpose with
// another user.
// CHECK-LABEL: func.func @kept(
//       CHECK: %transposed = linalg.transpose
//  CHECK-NEXT: linalg.matmul ins(%transposed, %arg1
//       CHECK: %transposed_0 = linalg.transpose
//  CHECK-NEXT: linalg.matmul ins(%transposed, %transposed_0
func.func @kept(%a: tensor<16x4xf32>, %b: tensor<16x8xf32>, %k: tensor<8x16xf32>, %z: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %at = linalg.transpose ins(%a : tensor<16x4xf32>) outs(%e : tensor<4x16xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%at, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%e2 : tensor<16x8xf32>) permutation = [1, 0]
  %r2 = linalg.matmul ins(%at, %kt : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %r2, %kt : tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>
}

// Sizes read from the transpose are read from its init.
// CHECK-LABEL: func.func @dims_of_transpose(
//       CHECK: %0 = tensor.empty(%dim) : tensor<16x?xf32>
//  CHECK-NEXT: %dim_0 = tensor.dim %0, %c1 : tensor<16x?xf32>
//  CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map1, #map2], {{.*}} ins(%arg0, %arg1 : tensor<?x16xf32>, tensor<?x16xf32>)
//   CHECK-NOT: linalg.transpose
func.func @dims_of_transpose(%q: tensor<?x16xf32>, %k: tensor<?x16xf32>, %z: tensor<?x?xf32>) -> (tensor<?x?xf32>, index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %n = tensor.dim %k, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<16x?xf32>
  %t = linalg.transpose ins(%k : tensor<?x16xf32>) outs(%e : tensor<16x?xf32>) permutation = [1, 0]
  %dt = tensor.dim %t, %c1 : tensor<16x?xf32>
  %r = linalg.matmul ins(%q, %t : tensor<?x16xf32>, tensor<16x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r, %dt : tensor<?x?xf32>, index
}
