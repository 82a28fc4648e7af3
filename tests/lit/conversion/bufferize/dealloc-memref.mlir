// RUN: strata-opt %s --split-input-file --buffer-deallocation-simple | filecheck %s
// RUN: strata-opt %s --split-input-file --buffer-deallocation-simple=forward-copies=false | filecheck %s --check-prefix=NOFWD

// A copy into a new buffer from an owned buffer that is dead after the copy reuses the
// buffer: the alloc and the copy go away.
// CHECK-LABEL: func.func @forward(%arg0: memref<4xf32>) -> memref<4xf32> {
//  CHECK-NEXT: %alloc = memref.alloc() : memref<4xf32>
//  CHECK-NEXT: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//  CHECK-NEXT: return %alloc : memref<4xf32>
// NOFWD-LABEL: func.func @forward(%arg0: memref<4xf32>) -> memref<4xf32> {
//  NOFWD-NEXT: %alloc = memref.alloc() : memref<4xf32>
//  NOFWD-NEXT: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//  NOFWD-NEXT: %alloc_0 = memref.alloc() : memref<4xf32>
//  NOFWD-NEXT: memref.copy %alloc, %alloc_0 : memref<4xf32> to memref<4xf32>
//  NOFWD-NEXT: memref.dealloc %alloc : memref<4xf32>
//  NOFWD-NEXT: return %alloc_0 : memref<4xf32>
func.func @forward(%a: memref<4xf32>) -> memref<4xf32> {
  %x = memref.alloc() : memref<4xf32>
  memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return %y : memref<4xf32>
}

// -----

// A buffer still read after the copy is not reused; an existing dealloc counts.
// CHECK-LABEL: func.func @no_forward(%arg0: memref<4xf32>) -> (memref<4xf32>, f32) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %alloc = memref.alloc() : memref<4xf32>
//  CHECK-NEXT: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//  CHECK-NEXT: %alloc_0 = memref.alloc() : memref<4xf32>
//  CHECK-NEXT: memref.copy %alloc, %alloc_0 : memref<4xf32> to memref<4xf32>
//  CHECK-NEXT: %0 = memref.load %alloc[%c0] : memref<4xf32>
//  CHECK-NEXT: memref.dealloc %alloc : memref<4xf32>
//  CHECK-NEXT: %alloc_1 = memref.alloc() : memref<4xf32>
//  CHECK-NEXT: memref.dealloc %alloc_1 : memref<4xf32>
//  CHECK-NEXT: return %alloc_0, %0 : memref<4xf32>, f32
func.func @no_forward(%a: memref<4xf32>) -> (memref<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  %v = memref.load %x[%c0] : memref<4xf32>
  %z = memref.alloc() : memref<4xf32>
  memref.dealloc %z : memref<4xf32>
  return %y, %v : memref<4xf32>, f32
}

// -----

// A callee's results are the caller's buffers.
// CHECK-LABEL: func.func @call(%arg0: memref<4xf32>) -> f32 {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %0 = call @callee(%arg0) : (memref<4xf32>) -> memref<4xf32>
//  CHECK-NEXT: %1 = memref.load %0[%c0] : memref<4xf32>
//  CHECK-NEXT: memref.dealloc %0 : memref<4xf32>
//  CHECK-NEXT: return %1 : f32
func.func private @callee(memref<4xf32>) -> memref<4xf32>
func.func @call(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %r = func.call @callee(%a) : (memref<4xf32>) -> memref<4xf32>
  %v = memref.load %r[%c0] : memref<4xf32>
  return %v : f32
}
