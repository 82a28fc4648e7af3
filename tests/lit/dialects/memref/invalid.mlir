// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @f(%i: index) {
  // expected-error @+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = memref.alloc() : memref<4x?xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
  %0 = memref.alloc(%i) : memref<4x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %0 = memref.alloc()[%i] : memref<4x4xf32>
  return
}

// -----

func.func @f(%i: index) {
  %0 = memref.alloc()[%i, %i] : memref<4x4xf32, strided<[?, 1], offset: ?>>
  %1 = memref.alloc()[%i] : memref<4x4xf32, strided<[?, 1]>>
  %2 = memref.alloc()[%i] : memref<4x4xf32, strided<[8, 1], offset: ?>>
  // expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %3 = memref.alloc()[%i] : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

  // expected-error @+1 {{operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used}}
"test.op"() ({
  %0 = memref.alloca() : memref<4xf32>
  "test.term"() : () -> ()
}) : () -> ()

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op invalid number of indices for accessed memref, expected 2 but got 1}}
  %0 = memref.load %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'memref.store' op invalid number of indices for accessed memref, expected 2 but got 1}}
  memref.store %v, %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %0 = "memref.load"(%m, %i, %i) : (memref<4x4xf32>, index, index) -> f64
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<4xi32>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @f(%m: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32, strided<[2]>>' and result type 'memref<4xf32, strided<[3]>>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32, strided<[2]>> to memref<4xf32, strided<[3]>>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %n: memref<5xf32>) {
  // expected-error @+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %m, %n : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %n: memref<4xi32>) {
  // expected-error @+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %m, %n : memref<4xf32> to memref<4xi32>
  return
}

// -----

  // expected-error @+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @g : memref<?xf32>

// -----

  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
memref.global @g : memref<2xf32> = dense<1> : tensor<2xi32>

// -----

  // expected-error @+1 {{inferred shape of elements literal ([3]) does not match type ([2])}}
memref.global "private" @g : memref<2xf32> = dense<[1.0, 2.0, 3.0]>

// -----

  // expected-error @+1 {{custom op 'memref.global' initial value should be a unit or elements attribute}}
memref.global "private" @g : memref<2xf32> = "foo"

// -----

  // expected-error @+1 {{'memref.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
memref.global "private" @g : memref<2xf32> = uninitialized alignment = 3

// -----

memref.global "private" @g : memref<2xf32> = uninitialized
func.func @f() {
  // expected-error @+1 {{'memref.get_global' op result type 'memref<3xf32>' does not match type 'memref<2xf32>' of the global memref @g}}
  %0 = memref.get_global @g : memref<3xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
  %0 = memref.get_global @nope : memref<3xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1]>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<4x5xf32, strided<[16, 1]>>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x5xf32, strided<[16, 1]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result element type to be 'f32', but got 'memref<4x4xf64, strided<[16, 1]>>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf64, strided<[16, 1]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 1], offset: 3>>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 3>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<8x16xf32>' and subview memref type 'memref<4x4xf32, strided<[16, 1]>, 1>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1]>, 1>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result rank to be smaller or equal to the source rank, but got 'memref<4x4x4xf32, strided<[16, 1, 1]>>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4x4xf32, strided<[16, 1, 1]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{slice along dimension 0 runs out-of-bounds: 10 >= 8}}
  %0 = memref.subview %m[7, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 112>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = memref.subview %m[0, 0] [4] [1, 1] : memref<8x16xf32> to memref<4xf32, strided<[16]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, %i: index) {
  // expected-error @+1 {{base type 'memref<8x16xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>' is not strided}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>> to memref<4x4xf32, strided<[16, 1]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<1x4xf32, strided<[16, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4xf32, strided<[2]>>'}}
  %0 = memref.subview %m[0, 0] [1, 4] [1, 1] : memref<8x16xf32> to memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim size (100) must equal reassociation group size (128)}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x16xf32> into memref<100xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op has source rank 2 and result rank 3. This is not a collapse (2 < 3).}}
  %0 = memref.collapse_shape %m [[0], [1]] : memref<8x16xf32> into memref<8x16x1xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32, strided<[32, 1]>>) {
  // expected-error @+1 {{'memref.collapse_shape' op invalid source layout map or collapsing non-contiguous dims}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x16xf32, strided<[32, 1]>> into memref<128xf32, strided<[1]>>
  return
}

// -----

func.func @f(%m: memref<128xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<8x16xf32>' but found 'memref<8x16xf32, strided<[16, 1]>>'}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [8, 16] : memref<128xf32> into memref<8x16xf32, strided<[16, 1]>>
  return
}

// -----

func.func @f(%m: memref<128xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op invalid output shape provided at pos 1}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [8, 8] : memref<128xf32> into memref<8x16xf32>
  return
}

// -----

func.func @f(%m: memref<128xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op collapsed dim size (128) must equal reassociation group size (120)}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [8, 16] : memref<128xf32> into memref<8x15xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op has source rank 2 and result rank 1. This is not an expansion (2 > 1).}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [8, 16] : memref<8x16xf32> into memref<128xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<?x16xf32>' but found 'memref<?x16xf32, strided<[16, 1]>>'}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [%i, 16] : memref<?xf32> into memref<?x16xf32, strided<[16, 1]>>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %s: memref<?xindex>) {
  // expected-error @+1 {{'memref.reshape' op cannot use shape operand with dynamic length to reshape to statically-ranked memref type}}
  %0 = memref.reshape %m(%s) : (memref<4xf32>, memref<?xindex>) -> memref<2x2xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %s: memref<3xindex>) {
  // expected-error @+1 {{'memref.reshape' op length of shape operand differs from the result's memref rank}}
  %0 = memref.reshape %m(%s) : (memref<4xf32>, memref<3xindex>) -> memref<2x2xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %s: memref<2xindex>) {
  // expected-error @+1 {{'memref.reshape' op element types of source and destination memref types should be the same}}
  %0 = memref.reshape %m(%s) : (memref<4xf32>, memref<2xindex>) -> memref<2x2xi32>
  return
}

// -----

func.func @f(%m: memref<4xf32, strided<[2]>>, %s: memref<2xindex>) {
  // expected-error @+1 {{'memref.reshape' op source memref type should have identity affine map}}
  %0 = memref.reshape %m(%s) : (memref<4xf32, strided<[2]>>, memref<2xindex>) -> memref<2x2xf32>
  return
}

// -----

func.func @f(%m: memref<?xi8>, %i: index) {
  // expected-error @+1 {{'memref.view' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = memref.view %m[%i][] : memref<?xi8> to memref<?x4xf32>
  return
}

// -----

func.func @f(%m: memref<?xi8>, %i: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<?xi8>' and view memref type 'memref<4xf32, 1>'}}
  %0 = memref.view %m[%i][] : memref<?xi8> to memref<4xf32, 1>
  return
}

// -----

func.func @f(%m: memref<?xi8>, %i: index) {
  // expected-error @+1 {{unsupported map for result memref type 'memref<4x4xf32, strided<[8, 1]>>'}}
  %0 = memref.view %m[%i][] : memref<?xi8> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @f(%m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'memref.view' op operand #0 must be 1D memref of 8-bit signless integer values, but got 'memref<?xf32>'}}
  %0 = memref.view %m[%i][] : memref<?xf32> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.transpose' op expected a permutation map}}
  %0 = memref.transpose %m (d0, d1) -> (d0, d0) : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.transpose' op result type 'memref<4x4xf32>' is not equivalent to the canonical transposed input type 'memref<4x4xf32, affine_map<(d0, d1) -> (d0 + d1 * 4)>>'}}
  %0 = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.transpose' op expected a permutation map of same rank as the input}}
  %0 = memref.transpose %m (d0) -> (d0) : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expected result type with size = 4 instead of 5 in dim = 1}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x5xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expected result type with offset = 1 instead of 0}}
  %0 = memref.reinterpret_cast %m to offset: [1], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expected result type with stride = 8 instead of 4 in dim = 0}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [8, 1] : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.reinterpret_cast' op source element type ('f32') does not match result element type ('i32')}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x4xi32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expected result type with size = dynamic instead of 4 in dim = 1}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, %i], strides: [4, 1] : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expected 1 offset values, got 2}}
  %0 = memref.reinterpret_cast %m to offset: [0, 0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'memref.atomic_rmw' op with kind 'addi' expects an integer type}}
  %0 = memref.atomic_rmw addi %v, %m[%i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @f(%m: memref<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{'memref.atomic_rmw' op with kind 'addf' expects a floating-point type}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'memref.atomic_rmw' op invalid number of indices for accessed memref, expected 1 but got 2}}
  %0 = memref.atomic_rmw addf %v, %m[%i, %i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: f32) {
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c: f32):
  // expected-error @+1 {{body of 'memref.generic_atomic_rmw' should contain only operations with no side effects}}
    memref.store %c, %m[%i] : memref<4xf32>
    memref.atomic_yield %c : f32
  }
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: f64) {
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c: f32):
  // expected-error @+1 {{'memref.atomic_yield' op types mismatch between yield op: 'f64' and its parent: 'f32'}}
    memref.atomic_yield %v : f64
  }
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: f64) {
  // expected-error @+1 {{'memref.generic_atomic_rmw' op expected block argument of the same type result type}}
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c: f64):
    memref.atomic_yield %c : f64
  }
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.assume_alignment' op alignment must be power of 2}}
  %0 = memref.assume_alignment %m, 3 : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{missing dimension operand for result type 'memref<?xf32>'}}
  %0 = memref.realloc %m : memref<4xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{unnecessary dimension operand for result type 'memref<8xf32>'}}
  %0 = memref.realloc %m(%i) : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.realloc' op source element type ('f32') does not match result element type ('i32')}}
  %0 = memref.realloc %m : memref<4xf32> to memref<8xi32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.memory_space_cast' op operand type 'memref<4xf32>' and result type 'memref<5xf32, 1>' are cast incompatible}}
  %0 = memref.memory_space_cast %m : memref<4xf32> to memref<5xf32, 1>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.extract_strided_metadata' op result #3 must be variadic of index, but got 'f32'}}
  %a:4 = "memref.extract_strided_metadata"(%m) : (memref<4xf32>) -> (memref<f32>, index, index, f32)
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{custom op 'memref.load' inherent attribute 'nontemporal' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = memref.load %m[%i] {nontemporal = true} : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.load %m[%i] alignment(3) : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{different memory spaces specified for source type 'memref<4x4xf32>' and result memref type 'memref<4x4xf32, 1>'}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x4xf32, 1>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{different memory spaces specified for source memref type 'memref<4xf32>' and result memref type 'memref<8xf32, 1>'}}
  %0 = memref.realloc %m : memref<4xf32> to memref<8xf32, 1>
  return
}

// -----

func.func @f(%m: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{unsupported layout for source memref type 'memref<4xf32, strided<[2]>>'}}
  %0 = memref.realloc %m : memref<4xf32, strided<[2]>> to memref<8xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{unsupported layout for result memref type 'memref<8xf32, strided<[2]>>'}}
  %0 = memref.realloc %m : memref<4xf32> to memref<8xf32, strided<[2]>>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.alloc() alignment = 3 : memref<4xf32>
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'memref.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.alloca() alignment = 3 : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.realloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.realloc %m alignment = 3 : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim size (17) must equal reassociation group size (16)}}
  %0 = memref.collapse_shape %m [[0], [1]] : memref<8x16xf32> into memref<8x17xf32>
  return
}

// -----

func.func @f(%m: memref<8x?xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x?xf32> into memref<8xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x16xf32> into memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op reassociation index 2 is out of bounds}}
  %0 = memref.collapse_shape %m [[0], [1, 2]] : memref<8x16xf32> into memref<8x16xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op reassociation indices must be contiguous}}
  %0 = memref.collapse_shape %m [[1], [0]] : memref<8x16xf32> into memref<16x8xf32>
  return
}

// -----

func.func @f(%m: memref<8x16x2xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op expanded rank (3) inconsistent with number of reassociation indices (2)}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x16x2xf32> into memref<128xf32>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op invalid number of reassociation groups: found 1, expected 2}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<8x16xf32> into memref<128x1xf32>
  return
}

// -----

func.func @f(%m: memref<2xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op rank 0 memrefs can only be extended/collapsed with/from ones}}
  %0 = memref.collapse_shape %m [] : memref<2xf32> into memref<f32>
  return
}

// -----

func.func @f(%m: memref<?xf32>, %i : index) {
  // expected-error @+1 {{'memref.expand_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %1 = memref.expand_shape %m [[0, 1]] output_shape [4, 4] : memref<?xf32> into memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<16xf32>, %i : index) {
  // expected-error @+1 {{'memref.expand_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %1 = memref.expand_shape %m [[0, 1]] output_shape [%i, 4] : memref<16xf32> into memref<?x4xf32>
  return
}

// -----

func.func @f(%m: memref<16xf32>, %i : index) {
  // expected-error @+1 {{'memref.expand_shape' op expected number of static shape bounds to be equal to the output rank (2) but found 3 inputs instead}}
  %1 = memref.expand_shape %m [[0, 1]] output_shape [4, 4, 1] : memref<16xf32> into memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<16xf32>, %i : index) {
  // expected-error @+1 {{'memref.expand_shape' op invalid output shape provided at pos 1}}
  %1 = memref.expand_shape %m [[0, 1]] output_shape [4, 5] : memref<16xf32> into memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<16xf32>, %i : index) {
  // expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<4x4xf32>' but found 'memref<4x4xf32, strided<[4, 1]>>'}}
  %1 = memref.expand_shape %m [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32, strided<[4, 1]>>
  return
}

// -----

func.func @f(%m: memref<?xi8>, %i: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<?xi8>' and view memref type 'memref<4xf32, 1>'}}
  %0 = memref.view %m[%i][] : memref<?xi8> to memref<4xf32, 1>
  return
}

// -----

func.func @f(%m: memref<?xi8, 1>, %i: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<?xi8, 1>' and view memref type 'memref<4xf32>'}}
  %0 = memref.view %m[%i][] : memref<?xi8, 1> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<?xi8, strided<[2]>>, %i: index) {
  // expected-error @+1 {{unsupported map for base memref type 'memref<?xi8, strided<[2]>>'}}
  %0 = memref.view %m[%i][] : memref<?xi8, strided<[2]>> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<?xi8>, %i: index) {
  // expected-error @+1 {{'memref.view' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = memref.view %m[%i][%i] : memref<?xi8> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.reinterpret_cast' op result #0 must be strided memref of any non-token type values, but got 'memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>'}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<8x16xf32>' and subview memref type 'memref<4x4xf32, strided<[16, 1]>, 1>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1]>, 1>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected offsets to be non-negative, but got -1}}
  %0 = memref.subview %m[-1, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: -16>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[15, 1]>>'}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[15, 1]>>
  return
}

// -----

func.func @f(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 1], offset: 7>>'}}
  %0 = memref.subview %m[%i, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 7>>
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op operand #0 must be memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.load"(%t, %i) : (tensor<4xf32>, index) -> f32
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.dim' op operand #0 must be unranked.memref of any non-token type values or non-0-ranked.memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.dim"(%t, %i) : (tensor<4xf32>, index) -> index
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.cast' op operand #0 must be ranked or unranked memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.cast"(%t) : (tensor<4xf32>) -> memref<4xf32>
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.copy' op operand #0 must be ranked or unranked memref of any non-token type values, but got 'tensor<4xf32>'}}
  "memref.copy"(%t, %t) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @f(%t: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) {
  // expected-error @+1 {{'memref.extract_strided_metadata' op operand #0 must be strided memref of any non-token type values, but got 'memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>'}}
  %0:6 = "memref.extract_strided_metadata"(%t) : (memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) -> (memref<f32>, index, index, index, index, index)
  return
}

// -----

func.func @f(%t: memref<4xi32>, %i: index) {
  // expected-error @+1 {{'memref.view' op operand #0 must be 1D memref of 8-bit signless integer values, but got 'memref<4xi32>'}}
  %0 = "memref.view"(%t, %i) : (memref<4xi32>, index) -> memref<1xf32>
  return
}

// -----

func.func @f(%t: memref<4xindex>, %i: index, %v: index) {
  // expected-error @+1 {{'memref.atomic_rmw' op operand #0 must be signless integer or floating-point, but got 'index'}}
  %0 = "memref.atomic_rmw"(%v, %t, %i) <{kind = 1 : i64}> : (index, memref<4xindex>, index) -> index
  return
}

// -----

func.func @f(%t: tensor<4xf32>) {
  // expected-error @+1 {{'memref.dealloc' op operand #0 must be ranked or unranked memref of any non-token type values, but got 'tensor<4xf32>'}}
  "memref.dealloc"(%t) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @f(%t: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.realloc' op operand #0 must be 1D memref of any non-token type values, but got 'memref<4x4xf32>'}}
  %0 = "memref.realloc"(%t) : (memref<4x4xf32>) -> memref<8xf32>
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.subview' op operand #0 must be memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.subview"(%t) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (tensor<4xf32>) -> memref<4xf32>
  return
}

// -----

memref.global "private" @g : memref<4xf32> = uninitialized
func.func @f() {
  // expected-error @+1 {{'memref.get_global' op result #0 must be statically shaped memref of any non-token type values, but got 'memref<?xf32>'}}
  %0 = "memref.get_global"() <{name = @g}> : () -> memref<?xf32>
  return
}

// -----

func.func @f(%t: memref<f32>, %i: index) {
  // expected-error @+1 {{'memref.dim' op operand #0 must be unranked.memref of any non-token type values or non-0-ranked.memref of any non-token type values, but got 'memref<f32>'}}
  %0 = "memref.dim"(%t, %i) : (memref<f32>, index) -> index
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.extract_strided_metadata' op result #3 must be variadic of index, but got 'i32'}}
  %0:4 = "memref.extract_strided_metadata"(%t) : (memref<4xf32>) -> (memref<f32>, index, index, i32)
  return
}

// -----

func.func @f(%t: memref<4xf32>, %s: memref<2xf32>) {
  // expected-error @+1 {{'memref.reshape' op operand #1 must be 1D memref of signless integer or index values, but got 'memref<2xf32>'}}
  %0 = "memref.reshape"(%t, %s) : (memref<4xf32>, memref<2xf32>) -> memref<2x2xf32>
  return
}

// -----

func.func @f(%t: memref<4xf32>, %s: memref<2xf32>) {
  // expected-error @+1 {{'memref.transpose' op result #0 must be strided memref of any non-token type values, but got 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>'}}
  %0 = "memref.transpose"(%t) <{permutation = affine_map<(d0) -> (d0)>}> : (memref<4xf32>) -> memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>
  return
}

// -----

func.func @f(%t: memref<4xf32>, %s: memref<2xf32>) {
  // expected-error @+1 {{'memref.rank' op result #0 must be index, but got 'i32'}}
  %0 = "memref.rank"(%s) : (memref<2xf32>) -> i32
  return
}

// -----

func.func @f(%t: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.alloc' op result #0 must be memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> tensor<4xf32>
  return
}

// -----

func.func @unranked_cast_other_element(%arg0: memref<*xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<*xf32>' and result type 'memref<*xi32>' are cast incompatible}}
  %cast = memref.cast %arg0 : memref<*xf32> to memref<*xi32>
  return
}

// -----

func.func @reinterpret_static_offset_dynamic_type(%arg0: memref<?xf32>) {
  // expected-error @+1 {{expected result type with offset = 3 instead of dynamic}}
  %0 = memref.reinterpret_cast %arg0 to offset: [3], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
  return
}

// -----

func.func @reinterpret_static_size_dynamic_type(%arg0: memref<?xf32>) {
  // expected-error @+1 {{expected result type with size = 4 instead of dynamic in dim = 1}}
  %0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xf32> to memref<2x?xf32>
  return
}

// -----

func.func @reinterpret_static_stride_dynamic_type(%arg0: memref<?xf32>) {
  // expected-error @+1 {{expected result type with stride = 1 instead of dynamic in dim = 1}}
  %0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xf32> to memref<2x4xf32, strided<[4, ?]>>
  return
}

// -----

func.func @reinterpret_space_before_element(%arg0: memref<*xf32>) {
  // expected-error @+1 {{different memory spaces specified for source type 'memref<*xf32>' and result memref type 'memref<2xi8, 3>'}}
  %0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2], strides: [1] : memref<*xf32> to memref<2xi8, 3>
  return
}

// -----

func.func @dma_short(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.dma_start' op expected at least 6 operands}}
  "memref.dma_start"(%m, %i, %i, %m) : (memref<4x4xf32>, index, index, memref<4x4xf32>) -> ()
  return
}

// -----

func.func @dma_dst_not_memref(%m: memref<4xf32>, %f: f32, %i: index) {
  // expected-error @+1 {{'memref.dma_start' op expected destination to be of memref type}}
  memref.dma_start %m[%i], %f[%i], %i, %m[%i] : memref<4xf32>, f32, memref<4xf32>
  return
}

// -----

func.func @dma_tag_index(%m: memref<4xf32>, %t: memref<2x2xi32>, %i: index, %f: f32) {
  // expected-error @+1 {{'memref.dma_start' op expected tag indices to be of index type}}
  "memref.dma_start"(%m, %i, %m, %i, %i, %t, %i, %f) : (memref<4xf32>, index, memref<4xf32>, index, index, memref<2x2xi32>, index, f32) -> ()
  return
}

// -----

func.func @dma_one_stride(%m: memref<4xf32>, %t: memref<i32>, %i: index) {
  // expected-error @+1 {{'memref.dma_start' op incorrect number of operands}}
  "memref.dma_start"(%m, %i, %m, %i, %i, %t, %i) : (memref<4xf32>, index, memref<4xf32>, index, index, memref<i32>, index) -> ()
  return
}

// -----

func.func @dma_custom_one_stride(%m: memref<4xf32>, %t: memref<i32>, %i: index) {
  // expected-error @+1 {{custom op 'memref.dma_start' expected two stride related operands}}
  memref.dma_start %m[%i], %m[%i], %i, %t[], %i : memref<4xf32>, memref<4xf32>, memref<i32>
  return
}

// -----

func.func @dma_wait_rank(%t: memref<2xi32>, %i: index) {
  // expected-error @+1 {{'memref.dma_wait' op expected tagIndices to have the same number of elements as the tagMemRef rank, expected 1, but got 0}}
  memref.dma_wait %t[], %i : memref<2xi32>
  return
}

// -----

func.func @prefetch_rw(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{custom op 'memref.prefetch' rw specifier has to be 'read' or 'write'}}
  memref.prefetch %m[%i], load, locality<1>, data : memref<4xf32>
  return
}

// -----

func.func @prefetch_cache(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{custom op 'memref.prefetch' cache type has to be 'data' or 'instr'}}
  memref.prefetch %m[%i], write, locality<1>, true : memref<4xf32>
  return
}

// -----

func.func @prefetch_locality(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  memref.prefetch %m[%i], write, locality<4>, data : memref<4xf32>
  return
}

// -----

func.func @distinct_mismatch(%a: memref<?xf32>) {
  // expected-error @+1 {{'memref.distinct_objects' op operand types and result types must match}}
  %0 = "memref.distinct_objects"(%a) : (memref<?xf32>) -> memref<4xf32>
  return
}

// -----

func.func @distinct_none() {
  // expected-error @+1 {{'memref.distinct_objects' op expected at least one operand}}
  "memref.distinct_objects"() : () -> ()
  return
}

// -----

func.func @distinct_unranked(%a: memref<*xf32>) {
  // expected-error @+1 {{'memref.distinct_objects' op operand #0 must be variadic of memref of any non-token type values, but got 'memref<*xf32>'}}
  %0 = memref.distinct_objects %a : memref<*xf32>
  return
}

// -----

func.func @store_with_result(%v: f32, %m: memref<f32>) {
  // expected-error @+1 {{'memref.store' op requires zero results}}
  %0 = "memref.store"(%v, %m) : (f32, memref<f32>) -> f32
  return
}

// -----

func.func @generic_rmw_result(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.generic_atomic_rmw' op failed to verify that result type matches element type of memref}}
  %0 = "memref.generic_atomic_rmw"(%m, %i) ({
  ^bb0(%old: i64):
    memref.atomic_yield %old : i64
  }) : (memref<4xf32>, index) -> i64
  return
}

// -----

// expected-error @+1 {{'memref.global' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
memref.global "hidden" @g : memref<2xf32> = uninitialized

// -----

// expected-error @+1 {{'memref.global' op initial value element expected to be of type 'i16', but was of type 'i32'}}
"memref.global"() <{initial_value = dense<1> : tensor<2xi32>, sym_name = "g", type = memref<2xi16>}> : () -> ()

// -----

func.func @expand_static_output_dynamic_type(%m: memref<?xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<?xf32> into memref<2x?xf32>
  return
}

// -----

func.func @prefetch_indices(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.prefetch' op invalid number of indices for accessed memref, expected 1 but got 2}}
  "memref.prefetch"(%m, %i, %i) <{isDataCache = true, isWrite = false, localityHint = 2 : i32}> : (memref<4xf32>, index, index) -> ()
  return
}
