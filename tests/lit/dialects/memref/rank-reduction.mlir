// RUN: strata-opt %s --canonicalize | filecheck %s
// Expected output: iree-opt's, line for line. Which unit dims a rank-reducing subview
// drops: by strides when a type has a static stride other than the innermost, else by
// position (each result size takes the leftmost remaining source dim of that size).

// CHECK: module {
// CHECK-NEXT:   func.func @dropped_by_position(%arg0: memref<1x1x?xf32, strided<[35, 7, 1], offset: ?>>) -> memref<1x4xf32, strided<[?, ?], offset: ?>> {
// CHECK-NEXT:     %subview = memref.subview %arg0[0, 0, 0] [1, 1, 4] [1, 1, 1] : memref<1x1x?xf32, strided<[35, 7, 1], offset: ?>> to memref<1x4xf32, strided<[35, 1], offset: ?>>
// CHECK-NEXT:     %cast = memref.cast %subview : memref<1x4xf32, strided<[35, 1], offset: ?>> to memref<1x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:     return %cast : memref<1x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @dropped_by_strides(%arg0: memref<1x1x8xf32, strided<[64, 8, 1]>>) -> memref<1x8xf32, strided<[64, 1]>> {
// CHECK-NEXT:     %subview = memref.subview %arg0[0, 0, 0] [1, 1, 8] [1, 1, 1] : memref<1x1x8xf32, strided<[64, 8, 1]>> to memref<1x8xf32, strided<[64, 1]>>
// CHECK-NEXT:     return %subview : memref<1x8xf32, strided<[64, 1]>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @dim_of_reduced(%arg0: memref<?x1x?xf32>, %arg1: index, %arg2: index) -> index {
// CHECK-NEXT:     return %arg2 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func @dropped_by_position(%arg : memref<1x1x?xf32, strided<[35, 7, 1], offset: ?>>) -> memref<1x4xf32, strided<[?, ?], offset: ?>> {
  %0 = memref.cast %arg : memref<1x1x?xf32, strided<[35, 7, 1], offset: ?>> to memref<1x1x?xf32, strided<[?, ?, ?], offset: ?>>
  %1 = memref.subview %0[0, 0, 0] [1, 1, 4] [1, 1, 1] : memref<1x1x?xf32, strided<[?, ?, ?], offset: ?>> to memref<1x4xf32, strided<[?, ?], offset: ?>>
  return %1 : memref<1x4xf32, strided<[?, ?], offset: ?>>
}
func.func @dropped_by_strides(%arg : memref<1x1x8xf32, strided<[64, 8, 1]>>) -> memref<1x8xf32, strided<[64, 1]>> {
  %0 = memref.cast %arg : memref<1x1x8xf32, strided<[64, 8, 1]>> to memref<1x1x8xf32, strided<[64, ?, 1]>>
  %1 = memref.subview %0[0, 0, 0] [1, 1, 8] [1, 1, 1] : memref<1x1x8xf32, strided<[64, ?, 1]>> to memref<1x8xf32, strided<[64, 1]>>
  return %1 : memref<1x8xf32, strided<[64, 1]>>
}
func.func @dim_of_reduced(%arg : memref<?x1x?xf32>, %n : index, %m : index) -> index {
  %c1 = arith.constant 1 : index
  %0 = memref.subview %arg[0, 0, 0] [%n, 1, %m] [1, 1, 1] : memref<?x1x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %d = memref.dim %0, %c1 : memref<?x?xf32, strided<[?, 1]>>
  return %d : index
}
