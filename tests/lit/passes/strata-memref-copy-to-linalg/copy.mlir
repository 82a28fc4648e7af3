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

// A fill of the whole buffer before the copy into its interior (nothing reading the
// buffer in between) keeps to the border: slabs along H (whole W), then along W (the
// interior's rows); a dynamic batch dim spanned whole.
// CHECK-LABEL: func.func @fill_border(
//       CHECK: %[[N:.*]] = memref.dim %arg0
//  CHECK-NEXT: %[[P:.*]] = memref.alloc(%[[N]]) : memref<?x64x58x58xf32>
//  CHECK-NEXT: %[[T:.*]] = memref.subview %[[P]][0, 0, 0, 0] [%[[N]], 64, 1, 58] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] :
//  CHECK-NEXT: %[[B:.*]] = memref.subview %[[P]][0, 0, 57, 0] [%[[N]], 64, 1, 58] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] :
//  CHECK-NEXT: %[[L:.*]] = memref.subview %[[P]][0, 0, 1, 0] [%[[N]], 64, 56, 1] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[L]] :
//  CHECK-NEXT: %[[R:.*]] = memref.subview %[[P]][0, 0, 1, 57] [%[[N]], 64, 56, 1] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
//  CHECK-NEXT: %[[S:.*]] = memref.subview %[[P]][0, 0, 1, 1] [%[[N]], 64, 56, 56] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<?x64x56x56xf32>) outs(%[[S]] :
// A read of the buffer between the fill and the copy: the fill stays whole.
// CHECK-LABEL: func.func @read_between(
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%alloc : memref<64x58x58xf32>)
func.func @fill_border(%a: memref<?x64x56x56xf32>) -> memref<?x64x58x58xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x64x56x56xf32>
  %p = memref.alloc(%n) : memref<?x64x58x58xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x64x58x58xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [%n, 64, 56, 56] [1, 1, 1, 1] : memref<?x64x58x58xf32> to memref<?x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>
  memref.copy %a, %s : memref<?x64x56x56xf32> to memref<?x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>
  return %p : memref<?x64x58x58xf32>
}
func.func @read_between(%a: memref<64x56x56xf32>, %o: memref<64x58x58xf32>) -> memref<64x58x58xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64x58x58xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x58x58xf32>)
  memref.copy %p, %o : memref<64x58x58xf32> to memref<64x58x58xf32>
  %s = memref.subview %p[0, 1, 1] [64, 56, 56] [1, 1, 1] : memref<64x58x58xf32> to memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>
  memref.copy %a, %s : memref<64x56x56xf32> to memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>
  return %p : memref<64x58x58xf32>
}

// A dynamic batch read by two memref.dim ops (as bufferization leaves it: one read per
// op that needs it) is the same size: the fill keeps to the border, as with a static
// batch ([Note: dynamic sizes compared]).
// CHECK-LABEL: func.func @pad_dynamic_batch(
//       CHECK: %[[D0:.*]] = memref.dim %arg0, %c0
//       CHECK: %[[P:.*]] = memref.alloc(%[[D0]])
//  CHECK-NEXT: %[[TOP:.*]] = memref.subview %[[P]][0, 0, 0, 0] [%[[D0]], 8, 1, 34] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[TOP]] :
//  CHECK-NEXT: memref.subview %[[P]][0, 0, 33, 0] [%[[D0]], 8, 1, 34]
//  CHECK-NEXT: linalg.fill
//  CHECK-NEXT: memref.subview %[[P]][0, 0, 1, 0] [%[[D0]], 8, 32, 1]
//  CHECK-NEXT: linalg.fill
//  CHECK-NEXT: memref.subview %[[P]][0, 0, 1, 33] [%[[D0]], 8, 32, 1]
//  CHECK-NEXT: linalg.fill
//  CHECK-NEXT: %[[D1:.*]] = memref.dim %arg0, %c0
//  CHECK-NEXT: memref.subview %[[P]][0, 0, 1, 1] [%[[D1]], 8, 32, 32]
//  CHECK-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<?x8x32x32xf32>)
func.func @pad_dynamic_batch(%a: memref<?x8x32x32xf32>) -> memref<?x8x34x34xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %d0 = memref.dim %a, %c0 : memref<?x8x32x32xf32>
  %p = memref.alloc(%d0) : memref<?x8x34x34xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<?x8x34x34xf32>)
  %d1 = memref.dim %a, %c0 : memref<?x8x32x32xf32>
  %s = memref.subview %p[0, 0, 1, 1] [%d1, 8, 32, 32] [1, 1, 1, 1] : memref<?x8x34x34xf32> to memref<?x8x32x32xf32, strided<[9248, 1156, 34, 1], offset: 35>>
  memref.copy %a, %s : memref<?x8x32x32xf32> to memref<?x8x32x32xf32, strided<[9248, 1156, 34, 1], offset: 35>>
  return %p : memref<?x8x34x34xf32>
}

// Another buffer's batch is not the padded buffer's: the fill stays whole.
// CHECK-LABEL: func.func @pad_other_batch(
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<?x8x34x34xf32>)
func.func @pad_other_batch(%a: memref<?x8x32x32xf32>, %b: memref<?x8x32x32xf32>) -> memref<?x8x34x34xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %d0 = memref.dim %b, %c0 : memref<?x8x32x32xf32>
  %p = memref.alloc(%d0) : memref<?x8x34x34xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<?x8x34x34xf32>)
  %d1 = memref.dim %a, %c0 : memref<?x8x32x32xf32>
  %s = memref.subview %p[0, 0, 1, 1] [%d1, 8, 32, 32] [1, 1, 1, 1] : memref<?x8x34x34xf32> to memref<?x8x32x32xf32, strided<[9248, 1156, 34, 1], offset: 35>>
  memref.copy %a, %s : memref<?x8x32x32xf32> to memref<?x8x32x32xf32, strided<[9248, 1156, 34, 1], offset: 35>>
  return %p : memref<?x8x34x34xf32>
}
