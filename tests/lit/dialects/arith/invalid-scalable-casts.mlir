// Casts must keep the shape, and a scalable dimension is not the fixed one of the
// same size: vector<[4]xf32> and vector<4xf32> are different shapes, as upstream.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @f(%v: vector<[4]xf32>) -> vector<4xi32> {
  // expected-error @+1 {{'arith.bitcast' op requires the same shape for all operands and results}}
  %0 = arith.bitcast %v : vector<[4]xf32> to vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

func.func @f(%v: vector<4xf32>) -> vector<[4]xi32> {
  // expected-error @+1 {{'arith.fptosi' op requires the same shape for all operands and results}}
  %0 = arith.fptosi %v : vector<4xf32> to vector<[4]xi32>
  return %0 : vector<[4]xi32>
}

// -----

func.func @f(%v: vector<2x[4]xi8>) -> vector<2x4xi32> {
  // expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %v : vector<2x[4]xi8> to vector<2x4xi32>
  return %0 : vector<2x4xi32>
}

// -----

// Both scalable (upstream compares only whether a vector is scalable): accepted.
func.func @g(%v: vector<2x[4]xi8>) -> vector<[2]x4xi32> {
  %0 = arith.extsi %v : vector<2x[4]xi8> to vector<[2]x4xi32>
  return %0 : vector<[2]x4xi32>
}

// -----

func.func @f(%v: vector<2x[4]xi8>) -> vector<2x[4]xi32> {
  %0 = arith.extsi %v : vector<2x[4]xi8> to vector<2x[4]xi32>
  return %0 : vector<2x[4]xi32>
}
