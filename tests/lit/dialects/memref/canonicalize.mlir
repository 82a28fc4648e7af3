// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | filecheck %s
// Expected output: iree-opt's with the same options, line for line.

// CHECK: module {
// CHECK-NEXT: func.func @dim_of_alloc(%arg0: index, %arg1: index) -> (index, index) {
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %alloc = memref.alloc(%arg0) : memref<4x?xf32>
// CHECK-NEXT: "test.use"(%alloc) : (memref<4x?xf32>) -> ()
// CHECK-NEXT: return %c4, %arg0 : index, index
// CHECK-NEXT: }
// CHECK-NEXT: func.func @cast_into_load(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) -> (f32, index) {
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %0 = memref.load %arg0[%arg1] : memref<4xf32>
// CHECK-NEXT: memref.store %arg2, %arg0[%arg1] : memref<4xf32>
// CHECK-NEXT: return %0, %c4 : f32, index
// CHECK-NEXT: }
// CHECK-NEXT: func.func @cast_into_copy(%arg0: memref<4xf32>, %arg1: memref<?xf32>) {
// CHECK-NEXT: memref.copy %arg0, %arg1 : memref<4xf32> to memref<?xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @rank(%arg0: memref<4x?xf32>) -> index {
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: return %c2 : index
// CHECK-NEXT: }
// CHECK-NEXT: func.func @to_buffer_to_tensor(%arg0: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT: return %arg0 : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @to_buffer_to_tensor_cast(%arg0: memref<?xf32>) -> memref<?xf32, strided<[?], offset: ?>> {
// CHECK-NEXT: %cast = memref.cast %arg0 : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: return %cast : memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @to_tensor_to_buffer(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: return %arg0 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @cast_cast(%arg0: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT: return %arg0 : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @dim_of_subview(%arg0: memref<?x?xf32>, %arg1: index) -> index {
// CHECK-NEXT: %subview = memref.subview %arg0[0, 0] [%arg1, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
// CHECK-NEXT: "test.use"(%subview) : (memref<?x4xf32, strided<[?, 1]>>) -> ()
// CHECK-NEXT: return %arg1 : index
// CHECK-NEXT: }
// CHECK-NEXT: func.func @empty_dealloc(%arg0: memref<4xf32>) -> i1 {
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: return %false : i1
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @dim_of_alloc(%n: index, %m: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<4x?xf32>
  %d0 = memref.dim %a, %c0 : memref<4x?xf32>
  %d1 = memref.dim %a, %c1 : memref<4x?xf32>
  "test.use"(%a) : (memref<4x?xf32>) -> ()
  return %d0, %d1 : index, index
}
func.func @cast_into_load(%m: memref<4xf32>, %i: index, %v: f32) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c = memref.cast %m : memref<4xf32> to memref<?xf32>
  %x = memref.load %c[%i] : memref<?xf32>
  memref.store %v, %c[%i] : memref<?xf32>
  %d = memref.dim %c, %c0 : memref<?xf32>
  return %x, %d : f32, index
}
func.func @cast_into_copy(%m: memref<4xf32>, %n: memref<?xf32>) {
  %c = memref.cast %m : memref<4xf32> to memref<?xf32>
  memref.copy %c, %n : memref<?xf32> to memref<?xf32>
  return
}
func.func @rank(%m: memref<4x?xf32>) -> index {
  %r = memref.rank %m : memref<4x?xf32>
  return %r : index
}
func.func @to_buffer_to_tensor(%m: memref<4xf32>) -> memref<4xf32> {
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %b = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  return %b : memref<4xf32>
}
func.func @to_buffer_to_tensor_cast(%m: memref<?xf32>) -> memref<?xf32, strided<[?], offset: ?>> {
  %t = bufferization.to_tensor %m : memref<?xf32> to tensor<?xf32>
  %b = bufferization.to_buffer %t : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  return %b : memref<?xf32, strided<[?], offset: ?>>
}
func.func @to_tensor_to_buffer(%t: tensor<4xf32>) -> tensor<4xf32> {
  %b = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  %r = bufferization.to_tensor %b : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @cast_cast(%m: memref<4xf32>) -> memref<4xf32> {
  %c = memref.cast %m : memref<4xf32> to memref<?xf32>
  %d = memref.cast %c : memref<?xf32> to memref<4xf32>
  return %d : memref<4xf32>
}
func.func @dim_of_subview(%m: memref<?x?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0] [%n, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
  %d = memref.dim %s, %c0 : memref<?x4xf32, strided<[?, 1]>>
  "test.use"(%s) : (memref<?x4xf32, strided<[?, 1]>>) -> ()
  return %d : index
}
func.func @empty_dealloc(%m: memref<4xf32>) -> i1 {
  %r = bufferization.dealloc retain (%m : memref<4xf32>)
  bufferization.dealloc
  return %r : i1
}
