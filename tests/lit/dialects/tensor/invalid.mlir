// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @cast_rank(%t: tensor<?xf32>) {
  // expected-error @+1 {{'tensor.cast' op operand type 'tensor<?xf32>' and result type 'tensor<?x?xf32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<?xf32> to tensor<?x?xf32>
  return
}

// -----

func.func @cast_element(%t: tensor<?xf32>) {
  // expected-error @+1 {{'tensor.cast' op operand type 'tensor<?xf32>' and result type 'tensor<?xi32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<?xf32> to tensor<?xi32>
  return
}

// -----

func.func @cast_static(%t: tensor<4xf32>) {
  // expected-error @+1 {{are cast incompatible}}
  %0 = tensor.cast %t : tensor<4xf32> to tensor<5xf32>
  return
}

// -----

func.func @bitcast_width(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.bitcast' op operand type 'tensor<4xf32>' and result type 'tensor<4xi64>' are cast incompatible}}
  %0 = tensor.bitcast %t : tensor<4xf32> to tensor<4xi64>
  return
}

// -----

func.func @dim_rank0(%t: tensor<f32>, %i: index) {
  // expected-error @+1 {{'tensor.dim' op operand #0 must be non-0-ranked or unranked tensor, but got 'tensor<f32>'}}
  %0 = tensor.dim %t, %i : tensor<f32>
  return
}

// -----

func.func @dim_result(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.dim' op result #0 must be index, but got 'i32'}}
  %0 = "tensor.dim"(%t, %i) : (tensor<4xf32>, index) -> i32
  return
}

// -----

func.func @empty_sizes(%i: index) {
  // expected-error @+1 {{'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.empty(%i) : tensor<4xf32>
  return
}

// -----

func.func @extract_indices(%t: tensor<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op incorrect number of indices for extract_element}}
  %0 = tensor.extract %t[%i] : tensor<4x4xf32>
  return
}

// -----

func.func @extract_type(%t: tensor<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op failed to verify that result type matches element type of tensor}}
  %0 = "tensor.extract"(%t, %i, %i) : (tensor<4x4xf32>, index, index) -> i32
  return
}

// -----

func.func @insert_indices(%t: tensor<4x4xf32>, %i: index, %f: f32) {
  // expected-error @+1 {{'tensor.insert' op incorrect number of indices}}
  %0 = tensor.insert %f into %t[%i] : tensor<4x4xf32>
  return
}

// -----

func.func @insert_result(%t: tensor<4xf32>, %i: index, %f: f32) {
  // expected-error @+1 {{'tensor.insert' op failed to verify that result type matches type of dest}}
  %0 = "tensor.insert"(%f, %t, %i) : (f32, tensor<4xf32>, index) -> tensor<?xf32>
  return
}

// -----

func.func @insert_scalar(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.insert' op failed to verify that scalar type matches element type of dest}}
  %0 = "tensor.insert"(%i, %t, %i) : (index, tensor<4xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @from_elements_type(%f: f32) {
  // expected-error @+1 {{'tensor.from_elements' op failed to verify that operand types match result element type}}
  %0 = "tensor.from_elements"(%f, %f) : (f32, f32) -> tensor<3xf32>
  return
}

// -----

func.func @from_elements_dynamic(%f: f32) {
  // expected-error @+1 {{'tensor.from_elements' op result #0 must be statically shaped tensor of any non-token type values, but got 'tensor<?xf32>'}}
  %0 = "tensor.from_elements"(%f, %f) : (f32, f32) -> tensor<?xf32>
  return
}

// -----

func.func @splat_sizes(%f: f32, %i: index) {
  // expected-error @+1 {{'tensor.splat' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.splat %f[%i] : tensor<4xf32>
  return
}

// -----

func.func @splat_type(%f: f32) {
  // expected-error @+1 {{'tensor.splat' op failed to verify that operand type matches element type of result}}
  %0 = "tensor.splat"(%f) : (f32) -> tensor<4xf64>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'tensor.concat' op requires at least one input}}
  %0 = tensor.concat dim(0) : () -> tensor<8x16xf32>
  return
}

// -----

func.func @concat_rank(%t: tensor<8x16xf32>, %u: tensor<8xf32>) {
  // expected-error @+1 {{'tensor.concat' op rank of concatenated inputs must match result rank}}
  %0 = tensor.concat dim(0) %t, %u : (tensor<8x16xf32>, tensor<8xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @concat_element(%t: tensor<8x16xf32>, %u: tensor<8x16xi32>) {
  // expected-error @+1 {{'tensor.concat' op inputs and result element type must match}}
  %0 = tensor.concat dim(0) %t, %u : (tensor<8x16xf32>, tensor<8x16xi32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @concat_dim(%t: tensor<8x16xf32>) {
  // expected-error @+1 {{'tensor.concat' op concatenation dim must be less than the tensor rank}}
  %0 = tensor.concat dim(2) %t, %t : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @concat_mismatch(%t: tensor<8x16xf32>, %u: tensor<8x15xf32>) {
  // expected-error @+1 {{'tensor.concat' op static concatenation size mismatch along non-concatenated dimension 1}}
  %0 = tensor.concat dim(0) %t, %u : (tensor<8x16xf32>, tensor<8x15xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @concat_result(%t: tensor<8x16xf32>) {
  // expected-error @+1 {{'tensor.concat' op result type 'tensor<17x16xf32>'does not match inferred shape 'tensor<16x16xf32>' static sizes}}
  %0 = tensor.concat dim(0) %t, %t : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<17x16xf32>
  return
}

// -----

func.func @extract_slice_size(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected type to be 'tensor<2x2x2xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x3x2xf32>
  return
}

// -----

func.func @extract_slice_rank_reduced(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected type to be 'tensor<1x2x2xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<3x2xf32>
  return
}

// -----

func.func @extract_slice_element(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected element type to be 'f32'}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xi32>
  return
}

// -----

func.func @extract_slice_result_rank(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected rank to be smaller or equal to the other rank.}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2x2xf32>
  return
}

// -----

func.func @extract_slice_mixed_rank(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 3) so the rank of the result type is well-formed.}}
  %0 = tensor.extract_slice %t[0, 0] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xf32>
  return
}

// -----

func.func @extract_slice_strides_rank(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (3 vs 2) so the rank of the result type is well-formed.}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, 2] [1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xf32>
  return
}

// -----

func.func @extract_slice_source_rank(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected 3 offset values, got 4}}
  %0 = tensor.extract_slice %t[0, 0, 0, 0] [2, 2, 2, 2] [1, 1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2x2xf32>
  return
}

// -----

func.func @extract_slice_out_of_bounds(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{slice along dimension 2 runs out-of-bounds: 19 >= 4}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, 20] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x20xf32>
  return
}

// -----

func.func @extract_slice_offset_out_of_bounds(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{offset 2 is out-of-bounds: 7 >= 4}}
  %0 = tensor.extract_slice %t[0, 0, 7] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xf32>
  return
}

// -----

func.func @extract_slice_negative_offset(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected offsets to be non-negative, but got -1}}
  %0 = tensor.extract_slice %t[0, 0, -1] [2, 2, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xf32>
  return
}

// -----

func.func @extract_slice_negative_size(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected sizes to be non-negative, but got -2}}
  %0 = tensor.extract_slice %t[0, 0, 0] [2, 2, -2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x2x2xf32>
  return
}

// -----

func.func @extract_slice_dynamic_count(%t: tensor<8x16x4xf32>, %i: index) {
  // expected-error @+1 {{expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (1 vs 0)}}
  %0 = "tensor.extract_slice"(%t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 1, 16, 4>, static_strides = array<i64: 1, 1, 1>}> : (tensor<8x16x4xf32>, index) -> tensor<16x4xf32>
  return
}

// -----

func.func @extract_slice_dynamic_size(%t: tensor<8x16x4xf32>, %i: index) {
  // expected-error @+1 {{expected type to be 'tensor<1x?x4xf32>' or a rank-reduced version. (size mismatch)}}
  %1 = tensor.extract_slice %t[0, %i, 0] [1, %i, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<1x16x4xf32>
  return
}

// -----

func.func @insert_slice_rank(%t: tensor<8x16x4xf32>, %s: tensor<2x2xf32>) {
  // expected-error @+1 {{expected type to be 'tensor<2x2x2xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.insert_slice %s into %t[0, 0, 0] [2, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<8x16x4xf32>
  return
}

// -----

func.func @insert_slice_element(%t: tensor<8x16x4xf32>, %s: tensor<2x2x2xi32>) {
  // expected-error @+1 {{expected element type to be 'f32'}}
  %0 = tensor.insert_slice %s into %t[0, 0, 0] [2, 2, 2] [1, 1, 1] : tensor<2x2x2xi32> into tensor<8x16x4xf32>
  return
}

// -----

func.func @insert_slice_out_of_bounds(%t: tensor<8x16x4xf32>, %s: tensor<2x2x2xf32>) {
  // expected-error @+1 {{slice along dimension 2 runs out-of-bounds: 4 >= 4}}
  %0 = tensor.insert_slice %s into %t[0, 0, 3] [2, 2, 2] [1, 1, 1] : tensor<2x2x2xf32> into tensor<8x16x4xf32>
  return
}

// -----

func.func @parallel_insert_slice_parent(%t: tensor<8xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{expected InParallelOpInterface parent, got:}}
  tensor.parallel_insert_slice %s into %t[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return
}

// -----

func.func @parallel_insert_slice_type(%t: tensor<8xf32>, %s: tensor<3xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected type to be 'tensor<2xf32>' or a rank-reduced version. (size mismatch)}}
      tensor.parallel_insert_slice %s into %o[%i] [2] [1] : tensor<3xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// -----

func.func @parallel_insert_slice_bounds(%t: tensor<8xf32>, %s: tensor<2xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{slice along dimension 0 runs out-of-bounds: 8 >= 8}}
      tensor.parallel_insert_slice %s into %o[7] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// -----

func.func @generate_sizes(%i: index, %f: f32) {
  // expected-error @+1 {{'tensor.generate' op incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.generate %i {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<?x?xf32>
  return
}

// -----

func.func @generate_arg_type(%i: index, %f: f32) {
  // expected-error @+1 {{all body arguments must be index}}
  %0 = tensor.generate %i {
  ^bb0(%a: index, %b: i32):
    tensor.yield %f : f32
  } : tensor<?x3xf32>
  return
}

// -----

func.func @generate_arg_count(%i: index, %f: f32) {
  // expected-error @+1 {{must have one body argument per input dimension}}
  %0 = tensor.generate %i {
  ^bb0(%a: index):
    tensor.yield %f : f32
  } : tensor<?x3xf32>
  return
}

// -----

func.func @generate_yield_type(%i: index, %f: i32) {
  // expected-error @+1 {{'tensor.generate' op body must be terminated with a `yield` operation of the tensor element type}}
  %0 = tensor.generate %i {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : i32
  } : tensor<?x3xf32>
  return
}

// -----

func.func @yield_parent(%f: f32) {
  // expected-error @+1 {{'tensor.yield' op expects parent op to be one of 'tensor.generate, tensor.pad'}}
  tensor.yield %f : f32
}

// -----

func.func @generate_no_yield(%i: index, %f: f32) {
  // A body that does not end with a terminator gets an empty `tensor.yield`.
  // expected-error @+1 {{'tensor.yield' op}}
  %0 = tensor.generate %i {
  ^bb0(%a: index, %b: index):
    %c = arith.addf %f, %f : f32
  } : tensor<?x3xf32>
  return
}

// -----

func.func @pad_block_args(%t: tensor<4xf32>, %f: f32) {
  // expected-error @+1 {{expected the block to have 1 arguments}}
  %0 = tensor.pad %t low[1] high[2] {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<7xf32>
  return
}

// -----

func.func @pad_block_arg_type(%t: tensor<4xf32>, %f: f32) {
  // expected-error @+1 {{'tensor.pad' op expected block argument 1 to be an index}}
  %0 = tensor.pad %t low[1] high[2] {
  ^bb0(%a: i32):
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<7xf32>
  return
}

// -----

func.func @pad_yield_type(%t: tensor<4xf32>, %f: i32) {
  // expected-error @+1 {{'tensor.pad' op expected yield type to match shape element type}}
  %0 = tensor.pad %t low[1] high[2] {
  ^bb0(%a: index):
    tensor.yield %f : i32
  } : tensor<4xf32> to tensor<7xf32>
  return
}

// -----

func.func @pad_result(%t: tensor<4xf32>, %f: f32) {
  // expected-error @+1 {{specified type 'tensor<8xf32>' does not match the inferred type 'tensor<7xf32>'}}
  %0 = tensor.pad %t low[1] high[2] {
  ^bb0(%a: index):
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<8xf32>
  return
}

// -----

func.func @pad_result_dynamic(%t: tensor<4xf32>, %f: f32) {
  // expected-error @+1 {{specified type 'tensor<?xf32>' does not match the inferred type 'tensor<7xf32>'}}
  %0 = tensor.pad %t low[1] high[2] {
  ^bb0(%a: index):
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<?xf32>
  return
}

// -----

func.func @pad_lists(%t: tensor<4xf32>, %f: f32) {
  // expected-error @+1 {{failed to infer expectedType from sourceType 'tensor<4xf32>', specified resultType is 'tensor<7xf32>'}}
  %0 = tensor.pad %t low[1, 2] high[2] {
  ^bb0(%a: index):
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<7xf32>
  return
}

// -----

func.func @gather_empty_dims(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims must be non-empty}}
  %0 = tensor.gather %s[%i] gather_dims([]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_overflow(%s: tensor<4x5x6xf32>, %i: tensor<1x2x4xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims overflow source rank}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1, 2, 3]) : (tensor<4x5x6xf32>, tensor<1x2x4xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_length(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims length must match the size of last dimension of indices}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_negative(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims value must be non-negative}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1, -1]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_too_large(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims value must be smaller than source rank}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1, 3]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_order(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims values must be strictly increasing}}
  %0 = tensor.gather %s[%i] gather_dims([0, 2, 1]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @gather_result(%s: tensor<4x5x6xf32>, %i: tensor<1x2x2xindex>) {
  // expected-error @+1 {{'tensor.gather' op result type mismatch: expected 'tensor<1x2x1x5x1xf32>' or its rank-reduced variant 'tensor<1x2x5xf32>' (got: 'tensor<1x2x1x5x2xf32>')}}
  %0 = tensor.gather %s[%i] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<1x2x1x5x2xf32>
  return
}

// -----

func.func @gather_indices_type(%s: tensor<4x5x6xf32>, %i: tensor<1x2x3xf32>) {
  // expected-error @+1 {{'tensor.gather' op operand #1 must be ranked tensor of signless integer or index values, but got 'tensor<1x2x3xf32>'}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1, 2]) : (tensor<4x5x6xf32>, tensor<1x2x3xf32>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @scatter_unique(%s: tensor<1x2x1x5x1xf32>, %d: tensor<4x5x6xf32>, %i: tensor<1x2x2xindex>) {
  // expected-error @+1 {{'tensor.scatter' op requires 'unique' attribute to be set}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([0, 2]) : (tensor<1x2x1x5x1xf32>, tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<4x5x6xf32>
  return
}

// -----

func.func @scatter_source(%s: tensor<1x2x1x6x1xf32>, %d: tensor<4x5x6xf32>, %i: tensor<1x2x2xindex>) {
  // expected-error @+1 {{'tensor.scatter' op source type mismatch: expected 'tensor<1x2x1x5x1xf32>' or its rank-reduced variant 'tensor<1x2x5xf32>' (got: 'tensor<1x2x1x6x1xf32>')}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([0, 2]) unique : (tensor<1x2x1x6x1xf32>, tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<4x5x6xf32>
  return
}

// -----

func.func @scatter_dims(%s: tensor<1x2x1x5x1xf32>, %d: tensor<4x5x6xf32>, %i: tensor<1x2x2xindex>) {
  // expected-error @+1 {{'tensor.scatter' op scatter_dims value must be smaller than dest rank}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([0, 7]) unique : (tensor<1x2x1x5x1xf32>, tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<4x5x6xf32>
  return
}

// -----

func.func @reshape_elements(%t: tensor<4x4xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'tensor.reshape' op source and destination tensor should have the same number of elements}}
  %0 = tensor.reshape %t(%s) : (tensor<4x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_element_type(%t: tensor<4x4xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'tensor.reshape' op element types of source and destination tensor types should be the same}}
  %0 = tensor.reshape %t(%s) : (tensor<4x4xf32>, tensor<2xi32>) -> tensor<2x8xi32>
  return
}

// -----

func.func @reshape_dynamic_shape(%t: tensor<4x4xf32>, %s: tensor<?xi32>) {
  // expected-error @+1 {{'tensor.reshape' op cannot use shape operand with dynamic length to reshape to statically-ranked tensor type}}
  %0 = tensor.reshape %t(%s) : (tensor<4x4xf32>, tensor<?xi32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @reshape_shape_length(%t: tensor<4x4xf32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{'tensor.reshape' op length of shape operand differs from the result's tensor rank}}
  %0 = tensor.reshape %t(%s) : (tensor<4x4xf32>, tensor<3xi32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @reshape_shape_type(%t: tensor<4x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'tensor.reshape' op operand #1 must be 1D tensor of signless integer or index values, but got 'tensor<3xf32>'}}
  %0 = tensor.reshape %t(%s) : (tensor<4x4xf32>, tensor<3xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @collapse_static(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected dimension 1 of collapsed type to be static value of 4}}
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x5xf32>
  return
}

// -----

func.func @collapse_map_count(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected collapsed rank (2) to equal the number of reassociation maps (1).}}
  %0 = tensor.collapse_shape %t [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24x1xf32>
  return
}

// -----

func.func @collapse_contiguous(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected reassociation map #0 to be valid and contiguous.}}
  %0 = tensor.collapse_shape %t [[0, 2], [1]] : tensor<2x3x4xf32> into tensor<8x3xf32>
  return
}

// -----

func.func @collapse_gap(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected reassociation map #1 to be valid and contiguous.}}
  %0 = tensor.collapse_shape %t [[0], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_map_size(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected reassociation map #0 to have size equal to the expanded rank (3), but it is  4.}}
  %0 = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_higher_rank(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected the expanded type, 'tensor<2x3x4xf32>' to have a higher (or same) rank than the collapsed type, 'tensor<2x3x4x1xf32>'.}}
  %0 = tensor.collapse_shape %t [[0], [1, 2, 3]] : tensor<2x3x4xf32> into tensor<2x3x4x1xf32>
  return
}

// -----

func.func @collapse_dynamic(%t: tensor<2x?x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected dimension 0 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x?x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_element(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected collapsed type to be 'tensor<6x4xf32>', but got 'tensor<6x4xi32>'}}
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xi32>
  return
}

// -----

func.func @collapse_empty_group(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op reassociation indices must not be empty}}
  %0 = tensor.collapse_shape %t [[0, 1], []] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_rank0(%t: tensor<1x2xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op number of elements must be preserved: 2 != 1}}
  %0 = tensor.collapse_shape %t [] : tensor<1x2xf32> into tensor<f32>
  return
}

// -----

func.func @collapse_reassociation_attr(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes}}
  %0 = "tensor.collapse_shape"(%t) <{reassociation = [[0, 1], 2]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @expand_static_count(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op expected number of static shape dims to be equal to the output rank (3) but found 2 inputs instead}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_dynamic_mismatch(%t: tensor<6x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 0 dynamic dims while output_shape has 1 values}}
  %0 = "tensor.expand_shape"(%t, %i) <{reassociation = [[0, 1], [2]], static_output_shape = array<i64: 2, 3, 4>}> : (tensor<6x4xf32>, index) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_dynamic_sizes(%t: tensor<6x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.expand_shape' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, %i, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_output_shape(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op invalid output shape provided at pos 2}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 5] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_collapsed_static(%t: tensor<6x?xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op expected dimension 1 of collapsed type to be static value of 4}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x?xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_collapsed_dynamic(%t: tensor<6x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.expand_shape' op expected dimension 1 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, %i] : tensor<6x4xf32> into tensor<2x3x?xf32>
  return
}

// -----

// Where the custom syntax parses a type declared as a ranked tensor (or any tensor), a
// type of another kind is refused right there, as upstream's parser does.
func.func @splat_into_a_buffer(%x: i32) {
  // expected-error @+1 {{custom op 'tensor.splat' invalid kind of type specified: expected builtin.tensor, but found 'memref<4xi32>'}}
  %0 = tensor.splat %x : memref<4xi32>
  return
}

// -----

func.func @empty_unranked() {
  // expected-error @+1 {{custom op 'tensor.empty' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = tensor.empty() : tensor<*xf32>
  return
}

// -----

func.func @rank_of_a_vector(%v: vector<4xf32>) {
  // expected-error @+1 {{custom op 'tensor.rank' invalid kind of type specified}}
  %0 = tensor.rank %v : vector<4xf32>
  return
}
