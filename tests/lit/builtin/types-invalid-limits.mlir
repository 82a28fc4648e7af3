// Shaped and integer types past upstream's limits, and malformed memref layout /
// memory-space lists: rejected with upstream's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid dimension}}
func.func private @f(tensor<4x9223372036854775808xf32>)

// -----

// expected-error @+1 {{invalid dimension}}
func.func private @f(memref<9223372036854775808xf32>)

// -----

// expected-error @+1 {{invalid dimension}}
func.func private @f(vector<[9223372036854775808]xf32>)

// -----

// The largest int64 is still a dimension.
func.func private @f(tensor<9223372036854775807xf32>)

// -----

// expected-error @+1 {{invalid integer width}}
func.func private @f(i4294967296)

// -----

// expected-error @+1 {{expected list element}}
func.func private @f(memref<4xf32, >)

// -----

// expected-error @+1 {{multiple memory spaces specified in memref type}}
func.func private @f(memref<4xf32, 1, 2>)

// -----

// expected-error @+1 {{expected memory space to be last in memref type}}
func.func private @f(memref<4xf32, 1, affine_map<(d0) -> (d0)>>)


// -----

// expected-error @+1 {{expected '<' after 'strided'}}
func.func private @f(memref<4xf32, strided>)
