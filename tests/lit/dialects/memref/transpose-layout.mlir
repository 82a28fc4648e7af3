// RUN: strata-opt %s | filecheck %s
// Expected output: iree-opt's, line for line. A transpose's result layout is compared with
// the transposed type's once both are simplified (terms in any order are one layout).

// CHECK: #map = affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d1 * 12 + d0 + d2 * 4)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @transpose_written_layout(%arg0: memref<?x?xf32>) -> memref<?x?xf32, #map> {
// CHECK-NEXT:     %transpose = memref.transpose %arg0 (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, #map>
// CHECK-NEXT:     return %transpose : memref<?x?xf32, #map>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @transpose_3d(%arg0: memref<2x3x4xf32>) -> memref<4x2x3xf32, #map1> {
// CHECK-NEXT:     %transpose = memref.transpose %arg0 (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32> to memref<4x2x3xf32, #map1>
// CHECK-NEXT:     return %transpose : memref<4x2x3xf32, #map1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func @transpose_written_layout(%src : memref<?x?xf32>) -> memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>> {
  %dst = memref.transpose %src (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
  return %dst : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
}
func.func @transpose_3d(%src : memref<2x3x4xf32>) -> memref<4x2x3xf32, affine_map<(d0, d1, d2) -> (d1 * 12 + d0 + d2 * 4)>> {
  %dst = memref.transpose %src (i, j, k) -> (k, i, j) : memref<2x3x4xf32> to memref<4x2x3xf32, affine_map<(d0, d1, d2) -> (d1 * 12 + d0 + d2 * 4)>>
  return %dst : memref<4x2x3xf32, affine_map<(d0, d1, d2) -> (d1 * 12 + d0 + d2 * 4)>>
}
