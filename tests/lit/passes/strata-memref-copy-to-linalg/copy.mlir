// RUN: strata-opt %s --strata-memref-copy-to-linalg | filecheck %s
// RUN: strata-opt %s --strata-memref-copy-to-linalg=min-elements=16 | filecheck %s --check-prefix=SMALL

// A copy into the interior of a padded buffer becomes an elementwise linalg.generic
// (lowered later to parallel loops); copies below min-elements (4096 by default) stay.
// CHECK-LABEL: func.func @pad(
//  CHECK-NEXT: %[[S:.*]] = memref.subview %arg1[0, 1, 1] [64, 56, 56] [1, 1, 1]
//  CHECK-NEXT: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : memref<64x56x56xf32>) outs(%[[S]] : memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>) {
//  CHECK-NEXT: ^bb0(%in: f32, %out: f32):
//  CHECK-NEXT:   linalg.yield %in : f32
//  CHECK-NEXT: }
//   CHECK-NOT: memref.copy
func.func @pad(%a: memref<64x56x56xf32>, %p: memref<64x58x58xf32>) {
  %s = memref.subview %p[0, 1, 1] [64, 56, 56] [1, 1, 1] : memref<64x58x58xf32> to memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>
  memref.copy %a, %s : memref<64x56x56xf32> to memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>
  return
}

// A size known at run time: rewritten.
// CHECK-LABEL: func.func @dynamic(
//       CHECK: linalg.generic {{.*}} ins(%arg0 : memref<?x8xf32>) outs(%arg1 : memref<?x8xf32>)
func.func @dynamic(%a: memref<?x8xf32>, %b: memref<?x8xf32>) {
  memref.copy %a, %b : memref<?x8xf32> to memref<?x8xf32>
  return
}

// Small, or rank 0: kept.
// CHECK-LABEL: func.func @small(
//  CHECK-NEXT: memref.copy %arg0, %arg1 : memref<4x8xf32> to memref<4x8xf32>
//  CHECK-NEXT: memref.copy %arg2, %arg3 : memref<f32> to memref<f32>
//  SMALL-LABEL: func.func @small(
//   SMALL-NEXT: linalg.generic
//        SMALL: memref.copy %arg2, %arg3 : memref<f32> to memref<f32>
func.func @small(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<f32>, %d: memref<f32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  memref.copy %c, %d : memref<f32> to memref<f32>
  return
}
