// RUN: strata-opt %s --strata-linalg-block-transposes --split-input-file | filecheck %s
// RUN: strata-opt %s --strata-linalg-block-transposes --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | filecheck %s

// Segformer's decoder: tokens [N, H, W, C] to an NCHW image, in 16 x 16 blocks: the
// loops are n, h, the blocks of w and c, then c and w within the block.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5, d3, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4, d1, d2, d5)>
// CHECK-LABEL: func.func @nhwc_to_nchw(
//       CHECK: %[[X:.*]] = memref.expand_shape %arg0 {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 64, 4, 16, 16, 16] : memref<1x64x64x256xf32> into memref<1x64x4x16x16x16xf32>
//       CHECK: %[[Y:.*]] = memref.expand_shape %arg1 {{\[\[}}0], [1, 2], [3], [4, 5]] output_shape [1, 16, 16, 64, 4, 16] : memref<1x256x64x64xf32> into memref<1x16x16x64x4x16xf32>
//       CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : memref<1x64x4x16x16x16xf32>) outs(%[[Y]] : memref<1x16x16x64x4x16xf32>)
//       CHECK:   linalg.yield %in : f32
//   CHECK-NOT: linalg.transpose
func.func @nhwc_to_nchw(%x: memref<1x64x64x256xf32>, %y: memref<1x256x64x64xf32>) {
  linalg.transpose ins(%x : memref<1x64x64x256xf32>) outs(%y : memref<1x256x64x64xf32>) permutation = [0, 3, 1, 2]
  return
}

// -----

// 8 x 8 blocks where 16 does not divide a size.
// CHECK-LABEL: func.func @matrix(
//       CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1], [2, 3]] output_shape [23, 8, 96, 8] : memref<184x768xf32> into memref<23x8x96x8xf32>
//       CHECK: linalg.generic
func.func @matrix(%x: memref<184x768xf32>, %y: memref<768x184xf32>) {
  linalg.transpose ins(%x : memref<184x768xf32>) outs(%y : memref<768x184xf32>) permutation = [1, 0]
  return
}

// -----

// Left alone: small, the innermost dim kept, no tile fits, a tensor, a strided view.
// CHECK-LABEL: func.func @kept(
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: expand_shape
//       CHECK: return
func.func @kept(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<64x64x32xf32>, %d: memref<64x64x32xf32>, %e: memref<180x180xf32>, %f: memref<180x180xf32>, %g: tensor<256x256xf32>, %h: memref<256x128xf32, strided<[256, 1]>>, %i: memref<128x256xf32>) -> tensor<256x256xf32> {
  linalg.transpose ins(%a : memref<32x32xf32>) outs(%b : memref<32x32xf32>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<64x64x32xf32>) outs(%d : memref<64x64x32xf32>) permutation = [1, 0, 2]
  linalg.transpose ins(%e : memref<180x180xf32>) outs(%f : memref<180x180xf32>) permutation = [1, 0]
  %0 = tensor.empty() : tensor<256x256xf32>
  %1 = linalg.transpose ins(%g : tensor<256x256xf32>) outs(%0 : tensor<256x256xf32>) permutation = [1, 0]
  linalg.transpose ins(%h : memref<256x128xf32, strided<[256, 1]>>) outs(%i : memref<128x256xf32>) permutation = [1, 0]
  return %1 : tensor<256x256xf32>
}

// -----

// A dynamic batch (an export with a dynamic batch dim): the untiled dims keep their
// size, read by memref.dim; dynamic dims count as 1 toward min-elements.
// CHECK-LABEL: func.func @dynamic_batch(
//       CHECK: %[[N:.*]] = memref.dim %arg0, %c0
//       CHECK: memref.expand_shape %arg0 {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [%[[N]], 128, 8, 16, 16, 16] : memref<?x128x128x256xf32> into memref<?x128x8x16x16x16xf32>
//       CHECK: %[[M:.*]] = memref.dim %arg1, %c0
//       CHECK: memref.expand_shape %arg1 {{\[\[}}0], [1, 2], [3], [4, 5]] output_shape [%[[M]], 16, 16, 128, 8, 16] : memref<?x256x128x128xf32> into memref<?x16x16x128x8x16xf32>
//       CHECK: linalg.generic
//   CHECK-NOT: linalg.transpose
func.func @dynamic_batch(%x: memref<?x128x128x256xf32>, %y: memref<?x256x128x128xf32>) {
  linalg.transpose ins(%x : memref<?x128x128x256xf32>) outs(%y : memref<?x256x128x128xf32>) permutation = [0, 3, 1, 2]
  return
}

// -----

// Left alone: a tiled dim dynamic (the input's innermost, or the result's), or too few
// static elements.
// CHECK-LABEL: func.func @dynamic_kept(
//   CHECK-NOT: expand_shape
//       CHECK: return
func.func @dynamic_kept(%a: memref<?x?x256xf32>, %b: memref<?x256x?xf32>, %c: memref<?x64x?xf32>, %d: memref<?x?x64xf32>, %e: memref<?x16x64xf32>, %f: memref<?x64x16xf32>) {
  linalg.transpose ins(%a : memref<?x?x256xf32>) outs(%b : memref<?x256x?xf32>) permutation = [0, 2, 1]
  linalg.transpose ins(%c : memref<?x64x?xf32>) outs(%d : memref<?x?x64xf32>) permutation = [0, 2, 1]
  linalg.transpose ins(%e : memref<?x16x64xf32>) outs(%f : memref<?x64x16xf32>) permutation = [0, 2, 1]
  return
}
