// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | filecheck %s
// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries" | filecheck %s --check-prefix=DEFAULT

// Function boundaries: tensor arguments become memref arguments the function does not
// write (unless marked `bufferization.writable = true`); results are buffers the caller
// owns, so a returned argument, a buffer returned twice or a global is copied. Upstream
// (iree-opt) writes into arguments and returns them instead.
// With the default function-boundary-type-conversion (infer-layout-map) arguments get a
// fully dynamic layout, results the identity one (they are new buffers).
// DEFAULT: func.func private @external(memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>
// DEFAULT: func.func @read_only_arguments(%arg0: memref<4xf32, strided<[?], offset: ?>>, %arg1: index, %arg2: f32) -> (memref<4xf32>, f32) {
// DEFAULT: memref.copy %arg0, %alloc : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
// DEFAULT: func.func @calls(%arg0: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> {
// DEFAULT: %0 = call @writable_argument_user(%arg0) : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>
// DEFAULT: %cast = memref.cast %0 : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// DEFAULT: %1 = call @external(%cast) : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>

// CHECK: func.func private @external(memref<4xf32>) -> memref<4xf32>
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @read_only_arguments(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) -> (memref<4xf32>, f32) {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: memref.store %arg2, %alloc[%arg1] : memref<4xf32>
//       CHECK: %0 = memref.load %arg0[%arg1] : memref<4xf32>
//       CHECK: return %alloc, %0 : memref<4xf32>, f32
func.func @read_only_arguments(%a: tensor<4xf32>, %i: index, %v: f32) -> (tensor<4xf32>, f32) {
  %x = tensor.insert %v into %a[%i] : tensor<4xf32>
  %y = tensor.extract %a[%i] : tensor<4xf32>
  return %x, %y : tensor<4xf32>, f32
}

// CHECK-LABEL: func.func @writable_argument(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) -> memref<4xf32> {
//       CHECK: memref.store %arg2, %arg0[%arg1] : memref<4xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: return %alloc : memref<4xf32>
func.func @writable_argument(%a: tensor<4xf32> {bufferization.writable = true}, %i: index, %v: f32) -> tensor<4xf32> {
  %x = tensor.insert %v into %a[%i] : tensor<4xf32>
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @returned_argument_and_twice(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: %cst = arith.constant 0.000000e+00 : f32
//       CHECK: linalg.fill ins(%cst : f32) outs(%alloc : memref<4xf32>)
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc_0 : memref<4xf32> to memref<4xf32>
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %alloc, %alloc_1 : memref<4xf32> to memref<4xf32>
//       CHECK: return %alloc_0, %alloc, %alloc_1 : memref<4xf32>, memref<4xf32>, memref<4xf32>
func.func @returned_argument_and_twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a, %f, %f : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @calls(%arg0: memref<4xf32>) -> memref<4xf32> {
//       CHECK: %0 = call @writable_argument_user(%arg0) : (memref<4xf32>) -> memref<4xf32>
//       CHECK: %1 = call @external(%0) : (memref<4xf32>) -> memref<4xf32>
//       CHECK: return %1 : memref<4xf32>
func.func @calls(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @writable_argument_user(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %s = func.call @external(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// CHECK-LABEL: func.func @writable_argument_user(%arg0: memref<4xf32>) -> memref<4xf32> {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %cst = arith.constant 1.000000e+00 : f32
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: memref.store %cst, %alloc[%c0] : memref<4xf32>
//       CHECK: return %alloc : memref<4xf32>
func.func @writable_argument_user(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tensor.insert %one into %a[%c0] : tensor<4xf32>
  return %x : tensor<4xf32>
}
