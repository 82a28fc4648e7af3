// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_tensor' op failed to verify that specified tensor and buffer types match}}
  %0 = bufferization.to_tensor %m : memref<4xf32> to tensor<5xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_tensor' op failed to verify that specified tensor and buffer types match}}
  %0 = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf64>
  return
}

// -----

func.func @f(%m: memref<4xf32, strided<[2]>>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_buffer' op failed to verify that specified tensor and buffer types match}}
  %1 = bufferization.to_buffer %t : tensor<4xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32, strided<[2]>>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_buffer' op failed to verify that specified tensor and buffer types match}}
  %1 = bufferization.to_buffer %t : tensor<4xf32> to memref<*xf32>
  return
}

// -----

func.func @f(%m: memref<*xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_tensor' op failed to verify that specified tensor and buffer types match}}
  %1 = bufferization.to_tensor %m : memref<*xf32> to tensor<4xf32>
  return
}

// -----

func.func @f(%n: index, %t: tensor<4xf32>) {
  // expected-error @+1 {{dynamic sizes not needed when copying a tensor}}
  %4 = bufferization.alloc_tensor(%n) copy(%t) : tensor<4xf32>
  return
}

// -----

func.func @f(%n: index, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.alloc_tensor' op incorrect number of dynamic sizes, has 0, expected 1}}
  %4 = bufferization.alloc_tensor() : tensor<?xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.materialize_in_destination' op 'writable' must be specified if and only if the destination is of memref type}}
  bufferization.materialize_in_destination %t in %m : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.materialize_in_destination' op 'restrict' is valid only for memref destinations}}
  %0 = bufferization.materialize_in_destination %t in restrict %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%m: memref<5xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.materialize_in_destination' op source/destination shapes are incompatible}}
  bufferization.materialize_in_destination %t in writable %m : (tensor<4xf32>, memref<5xf32>) -> ()
  return
}

// -----

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>, %c: i1) {
  // expected-error @+1 {{'bufferization.dealloc' op must have the same number of conditions as memrefs to deallocate}}
  "bufferization.dealloc"(%m, %c, %c) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4xf32>, i1, i1) -> ()
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.to_tensor' op operand #0 must be BufferLikeType instance, but got 'i1'}}
  %0 = "bufferization.to_tensor"(%c) : (i1) -> tensor<4xf32>
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.clone' op operand #0 must be ranked or unranked memref of any non-token type values, but got 'i1'}}
  %0 = "bufferization.clone"(%c) : (i1) -> memref<4xf32>
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.dealloc' op operand #1 must be variadic of 1-bit signless integer, but got 'memref<4xf32>'}}
  "bufferization.dealloc"(%t, %t) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.alloc_tensor' op result #0 must be tensor of any non-token type values, but got 'memref<4xf32>'}}
  %0 = "bufferization.alloc_tensor"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<4xf32>
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.materialize_in_destination' op operand #0 must be tensor of any non-token type values, but got 'memref<4xf32>'}}
  "bufferization.materialize_in_destination"(%t, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index, %c: i1) {
  // expected-error @+1 {{'bufferization.materialize_in_destination' op operand #1 must be shaped of any non-token type values, but got 'i1'}}
  "bufferization.materialize_in_destination"(%t, %c) : (tensor<4xf32>, i1) -> ()
  return
}

// -----

// A discardable attribute of the bufferization dialect other than manual_deallocation
// is rejected on any op (upstream's verifyOperationAttribute).
func.func @f(%t: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute '"bufferization.escape"' not supported as an op attribute by the bufferization dialect}}
  %0 = tensor.extract_slice %t[0] [2] [1] {bufferization.escape = [true]} : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @f() attributes {bufferization.writable = true} {
  // expected-error @-1 {{attribute '"bufferization.writable"' not supported as an op attribute by the bufferization dialect}}
  return
}

// -----

func.func @f(%m: memref<4xf32>) -> memref<?xf32> {
  // expected-error @+1 {{'memref.cast' op attribute 'bufferization.manual_deallocation' can be used only on ops that have an allocation and/or free side effect}}
  %0 = memref.cast %m {bufferization.manual_deallocation} : memref<4xf32> to memref<?xf32>
  return %0 : memref<?xf32>
}

// -----

func.func @f() {
  %0 = memref.alloc() {bufferization.manual_deallocation} : memref<4xf32>
  memref.dealloc %0 {bufferization.manual_deallocation} : memref<4xf32>
  %1 = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{attribute '"bufferization.x"' not supported as an op attribute by the bufferization dialect}}
  memref.dealloc %1 {bufferization.x} : memref<4xf32>
  return
}
