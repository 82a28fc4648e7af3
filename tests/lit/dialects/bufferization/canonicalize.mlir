// Canonicalization of bufferization ops, byte for byte as upstream's (the CHECK lines
// are iree-opt's --canonicalize output): to_buffer/to_tensor pairs (cast or copy),
// to_buffer of a cast, loads of read-only buffers, clones, alloc_tensor sizes, deallocs.
// RUN: strata-opt %s --canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @to_buffer_of_to_tensor(%arg0: memref<?x4xf32, 1>, %arg1: memref<8xf32>, %arg2: memref<8xf32, strided<[?], offset: ?>>) -> (memref<?x4xf32, 3>, memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = memref.dim %arg0, %c0 : memref<?x4xf32, 1>
// CHECK-NEXT: %alloc = memref.alloc(%dim) : memref<?x4xf32, 3>
// CHECK-NEXT: memref.copy %arg0, %alloc : memref<?x4xf32, 1> to memref<?x4xf32, 3>
// CHECK-NEXT: %cast = memref.cast %arg1 : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>>
// CHECK-NEXT: %alloc_0 = memref.alloc() : memref<8xf32>
// CHECK-NEXT: memref.copy %arg2, %alloc_0 : memref<8xf32, strided<[?], offset: ?>> to memref<8xf32>
// CHECK-NEXT: return %alloc, %cast, %alloc_0 : memref<?x4xf32, 3>, memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @to_buffer_of_to_tensor(%m: memref<?x4xf32, 1>, %n: memref<8xf32>, %k: memref<8xf32, strided<[?], offset: ?>>) -> (memref<?x4xf32, 3>, memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>) {
  %0 = bufferization.to_tensor %m : memref<?x4xf32, 1> to tensor<?x4xf32, 3>
  %1 = bufferization.to_buffer %0 : tensor<?x4xf32, 3> to memref<?x4xf32, 3>
  %2 = bufferization.to_tensor %n : memref<8xf32> to tensor<8xf32>
  %3 = bufferization.to_buffer %2 : tensor<8xf32> to memref<8xf32, strided<[1], offset: ?>>
  %4 = bufferization.to_tensor %k : memref<8xf32, strided<[?], offset: ?>> to tensor<8xf32>
  %5 = bufferization.to_buffer %4 : tensor<8xf32> to memref<8xf32>
  return %1, %3, %5 : memref<?x4xf32, 3>, memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>
}

// -----

// CHECK-LABEL: func.func @to_buffer_of_cast(%arg0: tensor<2x3xf32>, %arg1: index) -> (memref<?x3xf32, 2>, f32) {
// CHECK-NEXT: %0 = bufferization.to_buffer %arg0 : tensor<2x3xf32> to memref<2x3xf32, 2>
// CHECK-NEXT: %cast = memref.cast %0 : memref<2x3xf32, 2> to memref<?x3xf32, 2>
// CHECK-NEXT: %extracted = tensor.extract %arg0[%arg1, %arg1] : tensor<2x3xf32>
// CHECK-NEXT: return %cast, %extracted : memref<?x3xf32, 2>, f32
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @to_buffer_of_cast(%t: tensor<2x3xf32>, %i: index) -> (memref<?x3xf32, 2>, f32) {
  %0 = tensor.cast %t : tensor<2x3xf32> to tensor<?x3xf32>
  %1 = bufferization.to_buffer %0 : tensor<?x3xf32> to memref<?x3xf32, 2>
  %2 = bufferization.to_buffer %t read_only : tensor<2x3xf32> to memref<2x3xf32>
  %3 = memref.load %2[%i, %i] : memref<2x3xf32>
  return %1, %3 : memref<?x3xf32, 2>, f32
}

// -----

// CHECK-LABEL: func.func @dim_of_to_tensor(%arg0: memref<4x?xf32>) -> index {
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %dim = memref.dim %arg0, %c1 : memref<4x?xf32>
// CHECK-NEXT: return %dim : index
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @dim_of_to_tensor(%m: memref<4x?xf32>) -> index {
  %c1 = arith.constant 1 : index
  %0 = bufferization.to_tensor %m : memref<4x?xf32> to tensor<4x?xf32>
  %1 = tensor.dim %0, %c1 : tensor<4x?xf32>
  return %1 : index
}

// -----

// CHECK-LABEL: func.func @clone_freed_after(%arg0: memref<4xf32>) -> memref<?xf32> {
// CHECK-NEXT: %cast = memref.cast %arg0 : memref<4xf32> to memref<?xf32>
// CHECK-NEXT: return %cast : memref<?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @clone_freed_after(%m: memref<4xf32>) -> memref<?xf32> {
  %0 = bufferization.clone %m : memref<4xf32> to memref<?xf32>
  memref.dealloc %m : memref<4xf32>
  return %0 : memref<?xf32>
}

// -----

// CHECK-LABEL: func.func @clone_of_cast_unused(%arg0: memref<?xf32>) -> memref<4xf32> {
// CHECK-NEXT: %0 = bufferization.clone %arg0 : memref<?xf32> to memref<4xf32>
// CHECK-NEXT: return %0 : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @clone_of_cast_unused(%m: memref<?xf32>) -> memref<4xf32> {
  %0 = memref.cast %m : memref<?xf32> to memref<4xf32>
  %1 = bufferization.clone %0 : memref<4xf32> to memref<4xf32>
  %2 = bufferization.clone %m : memref<?xf32> to memref<?xf32>
  return %1 : memref<4xf32>
}

// -----

// CHECK-LABEL: func.func @clone_other_free_between(%arg0: memref<4xf32>, %arg1: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT: %0 = bufferization.clone %arg0 : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: memref.dealloc %arg1 : memref<4xf32>
// CHECK-NEXT: memref.dealloc %arg0 : memref<4xf32>
// CHECK-NEXT: return %0 : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @clone_other_free_between(%m: memref<4xf32>, %k: memref<4xf32>) -> memref<4xf32> {
  %0 = bufferization.clone %m : memref<4xf32> to memref<4xf32>
  memref.dealloc %k : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

// CHECK-LABEL: func.func @alloc_tensor_sizes(%arg0: index) -> (tensor<?x?xf32>, index) {
// CHECK-NEXT: %0 = bufferization.alloc_tensor(%arg0) : tensor<3x?xf32>
// CHECK-NEXT: %cast = tensor.cast %0 : tensor<3x?xf32> to tensor<?x?xf32>
// CHECK-NEXT: return %cast, %arg0 : tensor<?x?xf32>, index
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @alloc_tensor_sizes(%n: index) -> (tensor<?x?xf32>, index) {
  %c3 = arith.constant 3 : index
  %0 = bufferization.alloc_tensor(%c3, %n) : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %1 = tensor.dim %0, %c1 : tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, index
}

// -----

// CHECK-LABEL: func.func @deallocs(%arg0: memref<2xf32>, %arg1: memref<2xf32>, %arg2: i1, %arg3: i1) -> (i1, i1) {
// CHECK-NEXT: %0 = arith.ori %arg2, %arg3 : i1
// CHECK-NEXT: %1 = bufferization.dealloc (%arg0 : memref<2xf32>) if (%0) retain (%arg1 : memref<2xf32>)
// CHECK-NEXT: return %1, %1 : i1, i1
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @deallocs(%a: memref<2xf32>, %b: memref<2xf32>, %c: i1, %d: i1) -> (i1, i1) {
  %false = arith.constant false
  %x = memref.alloc() : memref<4xf32>
  %0:2 = bufferization.dealloc (%a, %b, %a, %x : memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<4xf32>) if (%c, %false, %d, %c) retain (%b, %b : memref<2xf32>, memref<2xf32>)
  return %0#0, %0#1 : i1, i1
}

// -----

// CHECK-LABEL: func.func @dealloc_of_metadata(%arg0: i1) -> memref<4xf32> {
// CHECK-NEXT: %alloc = memref.alloc() : memref<4xf32>
// CHECK-NEXT: bufferization.dealloc (%alloc : memref<4xf32>) if (%arg0)
// CHECK-NEXT: return %alloc : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @dealloc_of_metadata(%c: i1) -> memref<4xf32> {
  %x = memref.alloc() : memref<4xf32>
  %base, %off, %size, %stride = memref.extract_strided_metadata %x : memref<4xf32> -> memref<f32>, index, index, index
  bufferization.dealloc (%base : memref<f32>) if (%c)
  return %x : memref<4xf32>
}
