// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Errors of the vector dialect, with upstream's wording (iree-opt --verify-diagnostics
// passes this file too).

func.func @broadcast_rank(%v : vector<2x4xf32>) {
  // expected-error@+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %r = vector.broadcast %v : vector<2x4xf32> to vector<4xf32>
  return
}

// -----

func.func @broadcast_dims(%v : vector<3xf32>) {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch (3 vs. 4)}}
  %r = vector.broadcast %v : vector<3xf32> to vector<2x4xf32>
  return
}

// -----

func.func @shape_cast_count(%v : vector<2x4xf32>) {
  // expected-error@+1 {{'vector.shape_cast' op has different number of elements at source (8) and result (6)}}
  %r = vector.shape_cast %v : vector<2x4xf32> to vector<6xf32>
  return
}

// -----

func.func @transpose_perm(%v : vector<2x4xf32>) {
  // expected-error@+1 {{'vector.transpose' op transposition length mismatch}}
  %r = vector.transpose %v, [1, 0, 2] : vector<2x4xf32> to vector<4x2xf32>
  return
}

// -----

func.func @load_indices(%m : memref<?x?xf32>, %i : index) {
  // expected-error@+1 {{'vector.load' op requires 2 indices}}
  %r = vector.load %m[%i] : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_read_indices(%m : memref<?x?xf32>, %i : index, %p : f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires 2 indices}}
  %r = vector.transfer_read %m[%i], %p : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @extract_position(%v : vector<2x4xf32>) {
  // expected-error@+1 {{'vector.extract' op expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %r = vector.extract %v[1, 4] : f32 from vector<2x4xf32>
  return
}

// -----

func.func @reduction_rank(%v : vector<2x4xf32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction rank: 2}}
  %r = vector.reduction <add>, %v : vector<2x4xf32> into f32
  return
}

// -----

func.func @create_mask_operands(%i : index) {
  // expected-error@+1 {{'vector.create_mask' op must specify an operand for each result vector dimension}}
  %m = vector.create_mask %i : vector<4x4xi1>
  return
}

// -----

func.func @constant_mask_rank() {
  // expected-error@+1 {{'vector.constant_mask' op must specify array attr of size equal vector result rank}}
  %m = vector.constant_mask [2, 2] : vector<4xi1>
  return
}
