// RUN: strata-opt %s --one-shot-bufferize --buffer-deallocation-simple | filecheck %s

// Without bufferize-function-boundaries the signature keeps its tensors (as upstream):
// arguments are read through bufferization.to_buffer (fully dynamic layout), returned
// buffers become tensors again with bufferization.to_tensor (and are not freed here).
// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32>, %arg1: index, %arg2: f32) -> tensor<4xf32> {
//  CHECK-NEXT: %0 = bufferization.to_buffer %arg0 : tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>
//  CHECK-NEXT: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//  CHECK-NEXT: memref.copy %0, %alloc : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
//  CHECK-NEXT: memref.store %arg2, %alloc[%arg1] : memref<4xf32>
//  CHECK-NEXT: %1 = bufferization.to_tensor %alloc restrict : memref<4xf32> to tensor<4xf32>
//  CHECK-NEXT: return %1 : tensor<4xf32>
func.func @f(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %x = tensor.insert %v into %t[%i] : tensor<4xf32>
  return %x : tensor<4xf32>
}
