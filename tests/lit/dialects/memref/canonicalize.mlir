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
// CHECK-NEXT: func.func @alloc_const(%arg0: f32) -> memref<?x?xf32> {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %alloc = memref.alloc() : memref<4x4xf32>
// CHECK-NEXT: %cast = memref.cast %alloc : memref<4x4xf32> to memref<?x?xf32>
// CHECK-NEXT: memref.store %arg0, %alloc[%c0, %c0] : memref<4x4xf32>
// CHECK-NEXT: return %cast : memref<?x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @dead_alloc(%arg0: f32) {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @subview_const(%arg0: memref<8x8xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
// CHECK-NEXT: %subview = memref.subview %arg0[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
// CHECK-NEXT: %cast = memref.cast %subview : memref<4x4xf32, strided<[8, 1], offset: 18>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: return %cast : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @subview_of_cast(%arg0: memref<8x8xf32>) -> memref<4x4xf32, strided<[?, 1], offset: ?>> {
// CHECK-NEXT: %subview = memref.subview %arg0[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
// CHECK-NEXT: %cast = memref.cast %subview : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: return %cast : memref<4x4xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @rank_reducing_const(%arg0: memref<8x16x4xf32>, %arg1: index) -> memref<?xf32, strided<[?], offset: ?>> {
// CHECK-NEXT: %subview = memref.subview %arg0[0, %arg1, 1] [1, 4, 1] [1, 1, 1] : memref<8x16x4xf32> to memref<4xf32, strided<[4], offset: ?>>
// CHECK-NEXT: %cast = memref.cast %subview : memref<4xf32, strided<[4], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: return %cast : memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @oob_const(%arg0: memref<8xf32>) -> memref<?xf32, strided<[?], offset: ?>> {
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %subview = memref.subview %arg0[6] [4] [%c1] : memref<8xf32> to memref<4xf32, strided<[?], offset: 6>>
// CHECK-NEXT: %cast = memref.cast %subview : memref<4xf32, strided<[?], offset: 6>> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: return %cast : memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @trivial(%arg0: memref<8x4xf32>) -> (memref<8x4xf32, strided<[4, 1]>>, memref<8x4xf32>) {
// CHECK-NEXT: %cast = memref.cast %arg0 : memref<8x4xf32> to memref<8x4xf32, strided<[4, 1]>>
// CHECK-NEXT: return %cast, %arg0 : memref<8x4xf32, strided<[4, 1]>>, memref<8x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @copies(%arg0: memref<4xf32>, %arg1: memref<0xf32>, %arg2: memref<0xf32>) {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @alloca_const(%arg0: f32) -> f32 {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %alloca = memref.alloca() : memref<3xf32>
// CHECK-NEXT: memref.store %arg0, %alloca[%c0] : memref<3xf32>
// CHECK-NEXT: %0 = memref.load %alloca[%c0] : memref<3xf32>
// CHECK-NEXT: return %0 : f32
// CHECK-NEXT: }
// CHECK-NEXT: func.func @neg_alloc(%arg0: index) -> memref<?x?xf32> {
// CHECK-NEXT: %c-1 = arith.constant -1 : index
// CHECK-NEXT: %alloc = memref.alloc(%c-1, %arg0) : memref<?x?xf32>
// CHECK-NEXT: return %alloc : memref<?x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @subview_subview(%arg0: memref<8x8xf32>, %arg1: index) -> memref<4x4xf32, strided<[8, 1], offset: ?>> {
// CHECK-NEXT: %subview = memref.subview %arg0[%arg1, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT: return %subview : memref<4x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @dim_chain(%arg0: memref<?x?xf32>, %arg1: index) -> index {
// CHECK-NEXT: %alloc = memref.alloc(%arg1, %arg1) : memref<?x?xf32>
// CHECK-NEXT: memref.copy %arg0, %alloc : memref<?x?xf32> to memref<?x?xf32>
// CHECK-NEXT: return %arg1 : index
// CHECK-NEXT: }
// CHECK-NEXT: func.func @reinterpret_dim(%arg0: memref<?xf32>, %arg1: index) -> index {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
// CHECK-NEXT: %dim = memref.dim %reinterpret_cast, %c0 : memref<?x4xf32>
// CHECK-NEXT: "test.use"(%reinterpret_cast) : (memref<?x4xf32>) -> ()
// CHECK-NEXT: return %dim : index
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
func.func @alloc_const(%v: f32) -> memref<?x?xf32> {
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%c4, %c4) : memref<?x?xf32>
  memref.store %v, %a[%c0, %c0] : memref<?x?xf32>
  return %a : memref<?x?xf32>
}
func.func @dead_alloc(%v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
func.func @subview_const(%m: memref<8x8xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%c2, %c2] [%c4, %c4] [%c1, %c1] : memref<8x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %s : memref<?x?xf32, strided<[?, ?], offset: ?>>
}
func.func @subview_of_cast(%m: memref<8x8xf32>) -> memref<4x4xf32, strided<[?, 1], offset: ?>> {
  %c = memref.cast %m : memref<8x8xf32> to memref<?x?xf32>
  %s = memref.subview %c[0, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1]>>
  %r = memref.cast %s : memref<4x4xf32, strided<[?, 1]>> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  return %r : memref<4x4xf32, strided<[?, 1], offset: ?>>
}
func.func @rank_reducing_const(%m: memref<8x16x4xf32>, %i: index) -> memref<?xf32, strided<[?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memref.subview %m[%c0, %i, %c1] [1, %c4, 1] [1, %c1, 1] : memref<8x16x4xf32> to memref<?xf32, strided<[?], offset: ?>>
  return %s : memref<?xf32, strided<[?], offset: ?>>
}
func.func @oob_const(%m: memref<8xf32>) -> memref<?xf32, strided<[?], offset: ?>> {
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%c6] [%c4] [%c1] : memref<8xf32> to memref<?xf32, strided<[?], offset: ?>>
  return %s : memref<?xf32, strided<[?], offset: ?>>
}
func.func @trivial(%m: memref<8x4xf32>) -> (memref<8x4xf32, strided<[4, 1]>>, memref<8x4xf32>) {
  %s = memref.subview %m[0, 0] [8, 4] [1, 1] : memref<8x4xf32> to memref<8x4xf32, strided<[4, 1]>>
  %t = memref.subview %m[0, 0] [8, 4] [1, 1] : memref<8x4xf32> to memref<8x4xf32>
  return %s, %t : memref<8x4xf32, strided<[4, 1]>>, memref<8x4xf32>
}
func.func @copies(%m: memref<4xf32>, %e: memref<0xf32>, %f: memref<0xf32>) {
  memref.copy %m, %m : memref<4xf32> to memref<4xf32>
  memref.copy %e, %f : memref<0xf32> to memref<0xf32>
  return
}
func.func @alloca_const(%v: f32) -> f32 {
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %a = memref.alloca(%c3) : memref<?xf32>
  memref.store %v, %a[%c0] : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  return %x : f32
}
func.func @neg_alloc(%n: index) -> memref<?x?xf32> {
  %cm = arith.constant -1 : index
  %a = memref.alloc(%cm, %n) : memref<?x?xf32>
  return %a : memref<?x?xf32>
}
func.func @subview_subview(%m: memref<8x8xf32>, %i: index) -> memref<4x4xf32, strided<[8, 1], offset: ?>> {
  %s = memref.subview %m[%i, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  %t = memref.subview %s[0, 0] [4, 4] [1, 1] : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  return %t : memref<4x4xf32, strided<[8, 1], offset: ?>>
}
func.func @dim_chain(%m: memref<?x?xf32>, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n, %n) : memref<?x?xf32>
  %d = memref.dim %a, %c1 : memref<?x?xf32>
  memref.copy %m, %a : memref<?x?xf32> to memref<?x?xf32>
  return %d : index
}
func.func @reinterpret_dim(%m: memref<?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
  %d = memref.dim %r, %c0 : memref<?x4xf32>
  "test.use"(%r) : (memref<?x4xf32>) -> ()
  return %d : index
}
