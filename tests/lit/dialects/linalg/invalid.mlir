// RUN: strata-opt %s --split-input-file --verify-diagnostics

#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.}}
  %0 = "linalg.generic"(%a, %a) <{indexing_maps = [#map, #map], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op attribute 'indexing_maps' failed to satisfy constraint: AffineMap array attribute}}
  %0 = "linalg.generic"(%a, %a) <{indexing_maps = [#map, 1], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{custom op 'linalg.matmul' 'linalg.matmul' op attribute 'cast' failed to satisfy constraint: allowed 32-bit signless integer cases: 0, 1}}
  %0 = linalg.matmul {cast = 1 : i32} ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{custom op 'linalg.matmul' attribute 'indexing_maps' occurs more than once in the attribute list}}
  %0 = linalg.matmul {indexing_maps = 1} ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op requires attribute 'iterator_types'}}
  %0 = "linalg.generic"(%a, %a) <{indexing_maps = [#map, #map], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<1x4x6x6xf32>) {
  // expected-error @+1 {{custom op 'linalg.conv_2d_nchw_fchw' 'linalg.conv_2d_nchw_fchw' op attribute 'dilations' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]}}
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @f(%a: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<1x4x6x6xf32>) {
  // expected-error @+1 {{custom op 'linalg.conv_2d_nchw_fchw' 'linalg.conv_2d_nchw_fchw' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]}}
  %1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi32>} ins(%a, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @f(%a: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<1x4x6x6xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op inferred input/output operand #0 has shape's dimension #2 to be greater than or equal to 13, but found 8}}
  %1 = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>} ins(%a, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

#map = affine_map<(d0, d1) -> (d0, d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op invalid indexing maps are non-invertible: ((d0, d1) -> (d0, d0, d0, d0))}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %m: memref<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected to have pure tensor or buffer semantics}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%m : memref<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected type of operand #1 ('tensor<4x4xf32>') to match type of corresponding result ('tensor<4x5xf32>')}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x5xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected indexing_map #0 to have 1 dim(s) to match the number of loops}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x5xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op inferred input/output operand #1 has shape's dimension #1 to be 4, but found 5}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x5xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xi32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x4xi32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.yield' op type of yield operand 1 ('f32') doesn't match the element type of the enclosing linalg.generic op ('i32')}}
    linalg.yield %x : f32
  } -> tensor<4x4xi32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xi32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x4xi32>) {
  ^bb0(%x: f32, %y: i32):
    // expected-error @+1 {{'linalg.yield' op type of yield operand 1 ('f32') doesn't match the element type of the enclosing linalg.generic op ('i32')}}
    linalg.yield %x : f32
  } -> tensor<4x4xi32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.index' op expected dim (2) to be lower than the number of loops (2) of the enclosing LinalgOp}}
    %i = linalg.index 2 : index
    linalg.yield %x, %x : f32, f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %x : f32, f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 1 : i32
    // expected-error @+1 {{'linalg.yield' op type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')}}
    linalg.yield %c : i32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected as many non-induction variable region arguments as the number of input/output operands}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1)[s0] -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op unexpected symbols in indexing_map #0}}
  %0 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected operand #0 rank (2) to match the result rank of indexing_map (1)}}
  %0 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %0 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0 + d1, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'linalg.generic' op inferred input/output operand #0 has shape's dimension #0 to be greater than or equal to 6, but found 4}}
  %0 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%b : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0 - 1, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'linalg.generic' op unexpected result less than 0 at expression #0 in (d0, d1) -> (d0 - 1, d1)}}
  %0 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%b : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{block with no terminator, has %1 = "arith.addf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32}}
    %c = arith.addf %x, %y : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %f: f32) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op operand #1 must be variadic of shaped of any non-token type values, but got 'f32'}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%f : f32) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %x : f32, f32
  } -> tensor<4x5xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>, %m: memref<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%m : memref<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %x : f32, f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{cannot name an operation with no results}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x, %x : f32, f32
  }
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expects region #0 to have 0 or 1 blocks}}
  %0 = "linalg.generic"(%a, %a) <{indexing_maps = [#map1, #map1], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  ^bb1:
    linalg.yield %x : f32
  }) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' op expects to have 1 region with 1 block}}
  %0 = "linalg.generic"(%a, %a) <{indexing_maps = [#map1, #map1], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
  }) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.yield' op expected parent op with LinalgOp interface}}
  linalg.yield %a : tensor<4x4xf32>
}

// -----

func.func @f(%a: tensor<4x4xf32>) -> index {
  // expected-error @+1 {{'linalg.index' op expected parent op with LinalgOp interface}}
  %0 = linalg.index 0 : index
  return %0 : index
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{block with no terminator, has %1 = "arith.addf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32}}
    %1 = arith.addf %x, %y : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{custom op 'linalg.generic' unexpected iterator_type (window)}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "window"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{custom op 'linalg.generic' expected "iterator_types" array attribute}}
  %0 = linalg.generic {indexing_maps = [#map1, #map1]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expected attribute value}}
  %0 = linalg.generic ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [], iterator_types = []} {
    linalg.yield
  // expected-error @+1 {{expected '{' to begin a region}}
  }
  return %a : tensor<4x4xf32>
}

// -----

func.func @f(%a: tensor<4x4xvector<2xf32>>) {
  // expected-error @+1 {{custom op 'linalg.matmul' Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got 'vector<2xf32>' and 'vector<2xf32>'}}
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xvector<2xf32>>, tensor<4x4xvector<2xf32>>) outs(%a : tensor<4x4xvector<2xf32>>) -> tensor<4x4xvector<2xf32>>
  return
}

// -----

func.func @f(%input: tensor<1x4x4x1xf32>, %filter: tensor<2x2xf32>, %init_val: tensor<1x2x2x1xf32>) {
  // expected-error @+1 {{custom op 'linalg.pooling_nhwc_max_unsigned' unsupported operation: unsigned max not on uint}}
  %0 = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins (%input, %filter: tensor<1x4x4x1xf32>, tensor<2x2xf32>)
      outs (%init_val: tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xi32>, %b: tensor<4x4xindex>) {
  // (upstream first warns that it cannot cast the i32 operands to index)
  // expected-warning @unknown {{could not cast operand of type 'i32' to 'index'}}
  // expected-error @+1 {{custom op 'linalg.matmul' Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got 'index' and 'i32'}}
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xi32>, tensor<4x4xi32>) outs(%b : tensor<4x4xindex>) -> tensor<4x4xindex>
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = linalg.elementwise <exp> ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{custom op 'linalg.elementwise' [parseNamedStructuredOpRegion] ods-gen generated region expects 2 args, got 3}}
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>) {
  %0 = linalg.matmul ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{custom op 'linalg.matmul' [parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got 2}}
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %v: f64) {
  // expected-error @+1 {{'linalg.fill' op expected fill value type ('f64') to match output element type ('f32')}}
  %0 = linalg.fill ins(%v : f64) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{expected op with scalar input}}
  %0 = linalg.fill ins(%v : tensor<4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xi1>) {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xi1>, tensor<4x4xi1>) outs(%a : tensor<4x4xi1>) -> tensor<4x4xi1>
  // expected-error @+1 {{'linalg.pooling_nchw_max' op expected operand #0 rank (2) to match the result rank of indexing_map (4)}}
  %1 = linalg.pooling_nchw_max ins(%a, %a : tensor<4x4xi1>, tensor<4x4xi1>) outs(%a : tensor<4x4xi1>) -> tensor<4x4xi1>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{expected add/mul op in the body}}
  %0 = "linalg.matmul"(%a, %a, %a) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %x : f32
  }) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @f(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{'linalg.matmul' op Unexpected dim expression in map result.}}
  %0 = linalg.matmul indexing_maps = [#map, #map] ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @f(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{custom op 'linalg.matmul' element of indexing_maps array is not an affine_map}}
  %0 = linalg.matmul indexing_maps = [#map, 1] ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{expected op with scalar input}}
  %0 = linalg.fill ins(%b : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>) {
  %0 = "linalg.matmul"(%a, %a, %a) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %x : f32, f32
  }) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %v: f32) {
  %0 = "linalg.fill"(%v, %a) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %x : f32, f32
  }) : (f32, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %v: f32) {
  // expected-error @+1 {{expected op with scalar input}}
  %0 = "linalg.fill"(%a, %a) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x, %x : f32, f32
  }) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %v: f32) {
  // expected-error @+1 {{expected op with 1 input and 1 output}}
  %0 = "linalg.fill"(%v, %v, %a) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %w: f32, %y: f32):
    linalg.yield %x : f32
  }) : (f32, f32, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%input: tensor<1x4x1xf32>, %filter: tensor<2xf32>, %init_val: tensor<1x2x1xf32>) {
  // expected-error @+1 {{custom op 'linalg.pooling_nwc_min_unsigned' unsupported operation: unsigned min not on uint}}
  %0 = linalg.pooling_nwc_min_unsigned ins (%input, %filter: tensor<1x4x1xf32>, tensor<2xf32>) outs (%init_val: tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @f(%a: tensor<4x4xi1>, %z: i1) {
  // expected-error @+1 {{custom op 'linalg.quantized_matmul' unsupported operation: sub with bools}}
  %0 = linalg.quantized_matmul ins(%a, %a, %z, %z : tensor<4x4xi1>, tensor<4x4xi1>, i1, i1) outs(%a : tensor<4x4xi1>) -> tensor<4x4xi1>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: f32) {
  // expected-error @+1 {{cannot name an operation with no results}}
  %0 = linalg.map ins(%a : tensor<4x8xf32>) outs(%s : f32)
    (%x: f32, %o: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: f32) {
  // expected-error @+1 {{'linalg.transpose' op operand #0 must be memref of any non-token type values or ranked tensor of any non-token type values, but got 'f32'}}
  %0 = linalg.transpose ins(%s : f32) outs(%a : tensor<4x8xf32>) permutation = [1, 0]
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: vector<4xf32>) {
  // expected-error @+1 {{'linalg.softmax' op incompatible output shape}}
  %0 = linalg.softmax dimension(1) ins(%s : vector<4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: tensor<4x8xf32>) {
  // expected-error @+1 {{'linalg.softmax' op incorrect dimension specified}}
  %0 = linalg.softmax dimension(2) ins(%s : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{custom op 'linalg.elementwise' expected ::mlir::linalg::ElementwiseKind to be one of: exp, log, abs, ceil, floor, negf, reciprocal, round, sqrt, rsqrt, square, tanh, erf, sin, cos, tan, acos, acosh, asin, asinh, atan, atanh, log10, log1p, log2, add, sub, mul, div, div_unsigned, max_signed, min_signed, max_unsigned, min_unsigned, powf, select}}
  %0 = linalg.elementwise <foo> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: f32) {
  %0 = linalg.elementwise <exp> ins(%a : tensor<4x8xf32>) outs(%s : f32) -> tensor<4x8xf32>
  // expected-error @+1 {{custom op 'linalg.elementwise' return type needs to be shaped type}}
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %s: f32) {
  // expected-error @+1 {{cannot name an operation with no results}}
  %0:2 = linalg.reduce ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%s : f32) dimensions = [1]
    (%x: f32, %y: f32, %o: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'linalg.reduce' attribute 'dimensions' occurs more than once in the attribute list}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1] {dimensions = array<i64: 0>}
    (%x: f32, %o: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected '(' in argument list}}
  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1] 
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %c: tensor<4xf32>) {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1] 
  // expected-error @+1 {{custom op 'linalg.transpose' expected 'permutation'}}
  %1 = linalg.transpose { arith.addf } ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1] 
  return
}

// -----

func.func @f(%arg0: memref<5x5xf32>, %arg1: memref<5x5xf32>, %arg2: memref<5x5xf32>) {
  // expected-error @+1 {{'linalg.matmul' op Unexpected dim expression in map result.}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%arg0, %arg1 : memref<5x5xf32>, memref<5x5xf32>) outs(%arg2: memref<5x5xf32>)
  return
}

// -----

func.func @f(%arg0: memref<3xf32>, %arg1: memref<5x7xf32>, %arg2: memref<3x7xf32>) {
  // expected-error @+1 {{'linalg.matmul' op Invalid broadcast requested, should be (d2).}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%arg0, %arg1 : memref<3xf32>, memref<5x7xf32>) outs(%arg2: memref<3x7xf32>)
  return
}

// -----

func.func @f(%lhs: tensor<4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{'linalg.matmul' op inferred input/output operand #1 has shape's dimension #0 to be 4, but found 1}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %0: tensor<4x64xf32>
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op Indexing_map attribute must have 3 affine maps.}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>] ins(%arg0, %arg1 : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2: memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op Unexpected result dim expression (outside the set of default result dims).}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%arg0, %arg1 : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2 :memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op Invalid broadcast requested.}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%arg0, %arg1 : memref<?xf32>, memref<?x?x?xf32>) outs(%arg2: memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op Invalid batch dimension expression.}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%arg0, %arg1 : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2 :memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op no. of result dim expressions exceeds 3.}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%arg0, %arg1: memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2: memref<?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op expects 3 dims, but got (2).}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%arg0, %arg1: memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2: memref<?x?xf32>)
  return
}

// -----

func.func @f(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op Invalid output map result dimension.}}
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>] ins(%arg0, %arg1: memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%arg2: memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_reduce_matmul' op expects 2 dims, but got (1).}}
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(batch, m, n, k) -> (batch, m, k)>, affine_map<(batch, m, n, k) -> (batch, k, n)>, affine_map<(batch, m, n, k) -> (m)>] ins(%A, %B: memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%C: memref<?x?xf32>)
  return
}

// -----

func.func @f(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_reduce_matmul' op Invalid output map result dimension.}}
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(batch, m, n, k) -> (batch, m, k)>, affine_map<(batch, m, n, k) -> (batch, k, n)>, affine_map<(batch, m, n, k) -> (m, k)>] ins(%A, %B: memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%C: memref<?x?xf32>)
  return
}

// -----

func.func @f(%A: memref<?x?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_reduce_matmul' op Invalid broadcast requested.}}
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(batch, m, n, k) -> (batch, m, k)>, affine_map<(batch, m, n, k) -> (k, batch)>, affine_map<(batch, m, n, k) -> (m, n)>] ins(%A, %B : memref<?x?x?xf32>, memref<?x?xf32>) outs(%C: memref<?x?xf32>)
  return
}

// -----

func.func @f(%lhs: tensor<4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{custom op 'linalg.contract' expected 'indexing_maps' attribute}}
  linalg.contract ins(%lhs, %rhs : tensor<4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
  return
}

// -----

func.func @f(%lhs: tensor<4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{provided affine_map is not a projected permutation}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0 + d2, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: tensor<4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{iteration spaces of provided affine_maps differ}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: tensor<4x1x2xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{ranks of shaped operand and results of corresponding affine_map differ}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4x1x2xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: f32, %rhs: tensor<4x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{affine_map specifies shaped access while operand has non-shaped type}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%lhs, %rhs : f32, tensor<4x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: tensor<4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{iteration space dim at index 3 not used to access any operand}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: tensor<8x4x1xf32>, %rhs: tensor<1x64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{iteration space dim at index 3 is neither a contracting dim nor of parallel iteration type}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>] ins(%lhs, %rhs : tensor<8x4x1xf32>, tensor<1x64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%lhs: tensor<4xf32>, %rhs: tensor<64xf32>, %init: tensor<4x64xf32>) {
  // expected-error @+1 {{'indexing_maps' do not specify a contracting dimension}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%lhs, %rhs : tensor<4xf32>, tensor<64xf32>) outs(%init : tensor<4x64xf32>) -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'linalg.reduce' op init dimensions [16, 64] doesn't match input dimensions after reduction [16, 32]}}
  %reduce = linalg.reduce ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<16x64xf32>) dimensions = [2]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out: f32
        linalg.yield %0: f32
      }
  func.return %reduce : tensor<16x64xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'linalg.reduce' op dimensions for reduction should be in the range [0, 2].}}
  %reduce = linalg.reduce ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<16x64xf32>) dimensions = [3]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out: f32
        linalg.yield %0: f32
      }
  func.return %reduce : tensor<16x64xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'linalg.reduce' op attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute should be in increasing order}}
  %reduce = linalg.reduce ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<16xf32>) dimensions = [2, 1]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out: f32
        linalg.yield %0: f32
      }
  func.return %reduce : tensor<16xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'linalg.reduce' op number of dimensions after reduction 1 doesn't match the init rank 2}}
  %reduce = linalg.reduce ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<16x64xf32>) dimensions = [1, 2]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out: f32
        linalg.yield %0: f32
      }
  func.return %reduce : tensor<16x64xf32>
}

// -----

func.func @f(%input1: tensor<16x32x64xf32>, %init1: tensor<16x64xf32>, %input2: tensor<16x32x64xf32>, %init2: tensor<16x64xf32>)  -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  // expected-error @+1 {{'linalg.reduce' op mismatching number of operands and block arguments}}
  %reduce, %reduce2 = linalg.reduce ins(%input1, %input2 : tensor<16x32x64xf32>, tensor<16x32x64xf32>) outs(%init1, %init2 : tensor<16x64xf32>, tensor<16x64xf32>) dimensions = [1]
      (%in: f32, %out: f32) {
        %0 = arith.addf %in, %out: f32
        linalg.yield %0: f32
      }
  func.return %reduce, %reduce2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

func.func @f(%input1: tensor<16x32x64xf32>, %init1: tensor<16x64xf32>, %input2: tensor<16x32x64xf32>, %init2: tensor<16x64xf32>)  -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  // expected-error @+1 {{'linalg.reduce' op input element type 'f32' does not match corresponding block argument type 'f64'}}
  %reduce, %reduce2 = linalg.reduce ins(%input1, %input2 : tensor<16x32x64xf32>, tensor<16x32x64xf32>) outs(%init1, %init2 : tensor<16x64xf32>, tensor<16x64xf32>) dimensions = [1]
      (%in1: f32, %in2: f64, %out1: f32, %out2: f64) {
        %0 = arith.addf %in1, %out1: f32
        %1 = arith.addf %in2, %out2: f64
        linalg.yield %0, %1: f32, f64
      }
  func.return %reduce, %reduce2 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

func.func @f(%input1: tensor<16x32x64xf32>, %init1: tensor<16x64xf32>, %input2: tensor<17x32x64xf32>, %init2: tensor<17x64xf32>)  -> (tensor<16x64xf32>, tensor<17x64xf32>) {
  // expected-error @+1 {{'linalg.reduce' op expects all inputs to have the same shapes. Shape at input-index 1 is not equal to the shape at input-index 0.}}
  %reduce, %reduce2 = linalg.reduce ins(%input1, %input2 : tensor<16x32x64xf32>, tensor<17x32x64xf32>) outs(%init1, %init2 : tensor<16x64xf32>, tensor<17x64xf32>) dimensions = [1]
      (%in1: f32, %in2: f32, %out1: f32, %out2: f32) {
        %0 = arith.addf %in1, %out1: f32
        %1 = arith.addf %in2, %out2: f32
        linalg.yield %0, %1: f32, f32
      }
  func.return %reduce, %reduce2 : tensor<16x64xf32>, tensor<17x64xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<32x64x16xf32>) -> tensor<32x64x16xf32> {
  // expected-error @+1 {{'linalg.transpose' op permutation is not valid}}
  %transpose = linalg.transpose ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<32x64x16xf32>) permutation = [1, 1, 2]
  func.return %transpose : tensor<32x64x16xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<32x64x16xf32>) -> tensor<32x64x16xf32> {
  // expected-error @+1 {{'linalg.transpose' op dim(result, 0) = 32 doesn't match dim(input, permutation[0]) = 16}}
  %transpose = linalg.transpose ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<32x64x16xf32>) permutation = [0, 1, 2]
  func.return %transpose : tensor<32x64x16xf32>
}

// -----

func.func @f(%input: tensor<16x32x64xf32>, %init: tensor<32x64x16xf32>) -> tensor<32x64x16xf32> {
  // expected-error @+1 {{'linalg.transpose' op size of permutation 2 does not match the argument rank 3}}
  %transpose = linalg.transpose ins(%input:tensor<16x32x64xf32>) outs(%init:tensor<32x64x16xf32>) permutation = [1, 0]
  func.return %transpose : tensor<32x64x16xf32>
}

// -----

func.func @f(%input: tensor<16x32xf32>, %init: tensor<32x64x16xf32>) -> tensor<32x64x16xf32> {
  // expected-error @+1 {{'linalg.transpose' op input rank (2) does not match init rank (3)}}
  %transpose = linalg.transpose ins(%input:tensor<16x32xf32>) outs(%init:tensor<32x64x16xf32>) permutation = [1, 0, 2]
  func.return %transpose : tensor<32x64x16xf32>
}

// -----

func.func @f() {
  // expected-error @+1 {{'linalg.transpose' op expected 2 operands, but found 0}}
  linalg.transpose permutation = [1, 0, 2]
}

// -----

func.func @f(%input: tensor<4x16xf32>, %init: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'linalg.broadcast' op input rank plus added dimensions does not match init rank. input rank: 2, dimensions size: 2, init rank: 3}}
  %bcast = linalg.broadcast ins(%input:tensor<4x16xf32>) outs(%init:tensor<4x8x16xf32>) dimensions = [1, 2]
  func.return %bcast : tensor<4x8x16xf32>
}

// -----

func.func @f(%input: tensor<4x16xf32>, %init: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{'linalg.broadcast' op dimension 0 is out of range. expected range: [0, 2], got: 5}}
  %bcast = linalg.broadcast ins(%input:tensor<4x16xf32>) outs(%init:tensor<4x8x16xf32>) dimensions = [5]
  func.return %bcast : tensor<4x8x16xf32>
}

// -----

func.func @f(%input: tensor<1x16xf32>, %init: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  // expected-error @+1 {{'linalg.broadcast' op input dim 0 should match init dim 0. input: 1, init: 4}}
  %bcast = linalg.broadcast ins(%input:tensor<1x16xf32>) outs(%init:tensor<4x?x16xf32>) dimensions = [1]
  func.return %bcast : tensor<4x?x16xf32>
}

// -----

func.func @f() {
  // expected-error @+1 {{'linalg.broadcast' op expected 2 operands, but found 0}}
  linalg.broadcast dimensions = [1]
}

// -----

func.func @f(%lhs: tensor<64xf32>, %rhs: tensor<64xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'linalg.map' op expects number of operands to match the arity of mapper, but got: 3 and 4}}
  %add = linalg.map ins(%lhs, %rhs : tensor<64xf32>, tensor<64xf32>) outs(%init:tensor<64xf32>)
      (%lhs_elem: f32, %rhs_elem: f32, %out: f32, %extra_elem: f32) {
        %0 = arith.addf %lhs_elem, %rhs_elem: f32
        linalg.yield %0: f32
      }
  func.return %add : tensor<64xf32>
}

// -----

func.func @f(%lhs: tensor<64xf32>, %rhs: tensor<64xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'linalg.map' op expected element type of input 'f32' to match bbArg type 'f64'}}
  %add = linalg.map ins(%lhs, %rhs : tensor<64xf32>, tensor<64xf32>) outs(%init:tensor<64xf32>)
      (%lhs_elem: f64, %rhs_elem: f64, %out: f32) {
        %0 = arith.addf %lhs_elem, %rhs_elem: f64
        linalg.yield %0: f64
      }
  func.return %add : tensor<64xf32>
}

// -----

func.func @f(%lhs: tensor<64x64xf32>, %rhs: tensor<64x64xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  // expected-error @+1 {{'linalg.map' op expected shape of input (64, 64) to match shape of output (32)}}
  %add = linalg.map ins(%lhs, %rhs : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init:tensor<32xf32>)
      (%lhs_elem: f32, %rhs_elem: f32, %out: f32) {
        %0 = arith.addf %lhs_elem, %rhs_elem: f32
        linalg.yield %0: f32
      }
  func.return %add : tensor<32xf32>
}

// -----

func.func @f() {
  // expected-error @+1 {{'linalg.map' op expected 1 or more operands, but found 0}}
  linalg.map { arith.addf }
}

// -----

func.func @f() {
  // expected-error @+1 {{'linalg.map' op expected 1 or more operands, but found 0}}
  "linalg.map"() ({
    ^bb0:
  }) : () -> ()
}

// -----

func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected bare identifier or keyword}}
  %0 = linalg.reduce {@reduce_fusion_elementwise} ins(%arg0: tensor<4xf32>) outs(%arg1: tensor<f32>) dimensions = [0]
  return %0 : tensor<f32>
}

// -----

func.func @f(%arg0: tensor<2x16x32xf32>) -> tensor<2x16xf32> {
  %0 = tensor.empty() : tensor<2x16xf32>
  // expected-error @+1 {{'linalg.softmax' op incompatible output shape}}
  %1 = linalg.softmax dimension(2) ins(%arg0 : tensor<2x16x32xf32>) outs(%0: tensor<2x16xf32>) -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

func.func @f(%A: tensor<16x16x8x1xf32>, %B: tensor<16x16x8x1xf32>, %C_in: tensor<16x16x8x1xf32>) -> tensor<16x16x8x1xf32> {
  // expected-error @+1 {{'linalg.mmt4d' op inferred input/output operand #2 has shape's dimension #3 to be 8, but found 1}}
  %res = linalg.mmt4d ins(%A, %B: tensor<16x16x8x1xf32>, tensor<16x16x8x1xf32>) outs(%C_in: tensor<16x16x8x1xf32>) -> tensor<16x16x8x1xf32>
  return %res : tensor<16x16x8x1xf32>
}

// -----

func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op expected to have pure tensor or buffer semantics}}
  linalg.matmul ins(%a, %b: tensor<?x?xf32>, tensor<?x?xf32>) outs(%c: memref<?x?xf32>)
  return
}

// -----

func.func @f(%a3: memref<?x?x?xf32>, %b3: memref<?x?xf32>, %c3: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op expected operand #1 rank (2) to match the result rank of indexing_map (3)}}
  linalg.batch_matmul ins(%a3, %b3: memref<?x?x?xf32>, memref<?x?xf32>) outs(%c3 : memref<?x?x?xf32>)
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %t: tensor<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op expected type of operand #2 ('tensor<?x?xf32>') to match type of corresponding result ('tensor<?xf32>')}}
  %res = linalg.matmul ins(%m, %m : memref<?x?xf32>, memref<?x?xf32>) outs(%t : tensor<?x?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @f(%arg0 : index, %arg1 : index, %arg2 : f32) {
  %0 = tensor.empty(%arg0, %arg1) : tensor<?x?xf32>
  // expected-error @+1 {{'linalg.fill' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  linalg.fill ins(%arg2 : f32) outs(%0 : tensor<?x?xf32>)
}

// -----

func.func @f(%arg0 : memref<?x?xf32>, %arg1 : f32) -> tensor<?x?xf32> {
  // expected-error @+1 {{'linalg.fill' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %0 = linalg.fill ins(%arg1 : f32) outs(%arg0 : memref<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @f(%arg0 : tensor<?x?xf32>, %arg1 : f32) -> memref<?x?xf32> {
  // expected-error @+1 {{'linalg.fill' op result #0 must be variadic of ranked tensor of any non-token type values, but got 'memref<?x?xf32>'}}
  %0 = linalg.fill ins(%arg1 : f32) outs(%arg0 : tensor<?x?xf32>) -> memref<?x?xf32>
  return %0 : memref<?x?xf32>
}

// -----

func.func @f(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: f32) {
  // expected-error @+1 {{'linalg.matmul' op operand #2 must be variadic of shaped of any non-token type values, but got 'f32'}}
  linalg.matmul ins(%arg0, %arg1 : memref<2x3xf32>, memref<3x4xf32>) outs(%arg2 : f32)
  return
}

// -----

func.func @f(%arg0: f32, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) {
  // expected-error @+1 {{'linalg.matmul' op expected operand #0 rank (0) to match the result rank of indexing_map (2)}}
  linalg.matmul ins(%arg0, %arg1 : f32, memref<3x4xf32>) outs(%arg2 : memref<2x4xf32>)
  return
}

// -----

func.func @f(%arg0: memref<f32>) {
  linalg.generic {indexing_maps =  [ affine_map<() -> ()> ], iterator_types = []} outs(%arg0 : memref<f32>) {
    ^bb(%0: f32):
      // expected-error @+1 {{'linalg.index' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
      linalg.index -1 : index
      linalg.yield %0 : f32
  }
}

// -----

func.func @f(%arg0: memref<f32>) {
  // expected-error @+1 {{expected '{' to begin a region}}
  linalg.generic {indexing_maps =  [ affine_map<() -> (0)> ], iterator_types = []} ins(%arg0 : memref<f32>)
}

// -----

func.func @f(%arg0: memref<1xi32>) {
  // expected-error @+1 {{'linalg.generic' op expected indexing_map #0 to have 1 dim(s) to match the number of loops}}
  linalg.generic {indexing_maps =  [ affine_map<() -> (0)> ], iterator_types = ["parallel"]} outs(%arg0 : memref<1xi32>) {
    ^bb(%i : i32):
    linalg.yield %i : i32
  }
}

// -----

func.func @f(%arg0: memref<?xf32>, %arg1: memref<?xf32>) {
  // expected-error @+1 {{'linalg.generic' op invalid indexing maps are non-invertible: ((d0, d1) -> (d0 + d1, d0 + d1))}}
  linalg.generic {indexing_maps =  [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i + j)>], iterator_types = ["parallel","parallel"]} ins(%arg0 : memref<?xf32>) outs(%arg1 : memref<?xf32>) {
  ^bb(%0: f32, %1: f32):
      linalg.yield %1: f32
  }
}

// -----

func.func @f(%A: memref<5xf32>, %B: memref<5xf32>) {
  // expected-error @+1 {{'linalg.generic' op unexpected result less than 0 at expression #0 in (d0) -> (-d0 + 3)}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (3 - i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%A: memref<5xf32>) outs(%B: memref<5xf32>) {
    ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{custom op 'linalg.generic' expected "iterator_types" array attribute}}
  linalg.generic {} ins() outs()
  return
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<8x8x16x33xf32>) -> tensor<8x8x16x33xf32> {
  // expected-error @+1 {{'linalg.pack' op invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [16, 33] into %output : tensor<256x128xf32>  -> tensor<8x8x16x33xf32>
  return %0 : tensor<8x8x16x33xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<10x8x?x?xf32>, %tile_size_0: index, %tile_size_1: index) -> tensor<10x8x?x?xf32> {
  // expected-error @+1 {{'linalg.pack' op invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [%tile_size_0, %tile_size_1] into %output : tensor<256x128xf32>  -> tensor<10x8x?x?xf32>
  return %0 : tensor<10x8x?x?xf32>
}

// -----

func.func @f(%input: tensor<13x15xf32>, %output: tensor<2x8x8x2xf32>, %pad: i32) -> tensor<2x8x8x2xf32> {
  // expected-error @+1 {{'linalg.pack' op expected padding_value has 'f32' but got: 'i32'}}
  %0 = linalg.pack %input padding_value(%pad: i32) inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %output : tensor<13x15xf32> -> tensor<2x8x8x2xf32>
  return %0 : tensor<2x8x8x2xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<8x8x32x16xf32>) -> tensor<8x8x32x16xf32> {
  // expected-error @+1 {{invalid inner_dims_pos vector}}
  %0 = linalg.pack %input inner_dims_pos = [2, 0] inner_tiles = [2, 2] into %output : tensor<256x128xf32> -> tensor<8x8x32x16xf32>
  return %0 : tensor<8x8x32x16xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<8x8x32x16xf32>) -> tensor<8x8x32x16xf32> {
  // expected-error @+1 {{invalid outer_dims_perm vector}}
  %0 = linalg.pack %input outer_dims_perm = [1, 1] inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %output : tensor<256x128xf32> -> tensor<8x8x32x16xf32>
  return %0 : tensor<8x8x32x16xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<64x32x16xf32>) -> tensor<64x32x16xf32> {
  // expected-error @+1 {{packed rank != (unpacked rank + num tiling factors), got 3 != 4}}
  %0 = linalg.pack %input inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %output : tensor<256x128xf32> -> tensor<64x32x16xf32>
  return %0 : tensor<64x32x16xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<8x8x32x16xf32>) -> tensor<8x8x32x16xf32> {
  // expected-error @+1 {{invalid zero tile factor}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [0, 2] into %output : tensor<256x128xf32> -> tensor<8x8x32x16xf32>
  return %0 : tensor<8x8x32x16xf32>
}

// -----

func.func @f(%input : tensor<?x?xf32>, %output : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32> {
  // expected-error @+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at index 1: got 8 != 4}}
  %0 = linalg.pack %input inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %output : tensor<?x?xf32> -> tensor<?x?x8x8xf32>
  return %0 : tensor<?x?x8x8xf32>
}

// -----

func.func @f(%input : tensor<?x?xf32>, %output : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32> {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{mismatch in inner tile sizes specified at index 1: got static shape 8 but dynamic tile size}}
  %0 = linalg.pack %input inner_dims_pos = [0, 1] inner_tiles = [8, %c8] into %output : tensor<?x?xf32> -> tensor<?x?x8x8xf32>
  return %0 : tensor<?x?x8x8xf32>
}

// -----

func.func @f(%source: tensor<128x256xf32>, %dest: tensor<16x4x32x16xf32>) -> tensor<16x4x32x16xf32> {
  // expected-error @+1 {{outer_dims_perm must be a permutation or empty}}
  %0 = linalg.pack %source outer_dims_perm = [0] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %dest : tensor<128x256xf32> -> tensor<16x4x32x16xf32>
  return %0 : tensor<16x4x32x16xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<8x8x32x16xf32>) -> tensor<256x128xf32> {
  // expected-error @+1 {{invalid outer_dims_perm vector}}
  %0 = linalg.unpack %output outer_dims_perm = [2, 1] inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %input : tensor<8x8x32x16xf32> -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}

// -----

func.func @f(%input: tensor<9xf32>, %output: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %cst = arith.constant 0.0 : f32
  // expected-error @+1 {{expected 'tensor<2x8xf32>' for the packed domain value, got 'tensor<3x8xf32>'}}
  %0 = linalg.pack %input padding_value(%cst : f32) inner_dims_pos = [0] inner_tiles = [8] into %output : tensor<9xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<4x16x32x16xf32>) -> tensor<4x16x32x16xf32> {
  // expected-error @+1 {{expected 'tensor<16x4x32x16xf32>' for the packed domain value, got 'tensor<4x16x32x16xf32>'}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [32, 16] into %output : tensor<256x128xf32> -> tensor<4x16x32x16xf32>
  return %0 : tensor<4x16x32x16xf32>
}

// -----

func.func @f(%input: tensor<3x8xf32>, %output: tensor<9xf32>) -> tensor<9xf32> {
  // expected-error @+1 {{expected 'tensor<2x8xf32>' for the packed domain value, got 'tensor<3x8xf32>'}}
  %0 = linalg.unpack %input inner_dims_pos = [0] inner_tiles = [8] into %output : tensor<3x8xf32> -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @f(%input : tensor<?x?x?x4xf32>, %output : tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at index 0: got -9223372036854775808 != 8}}
  %0 = linalg.unpack %input inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %output : tensor<?x?x?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<16x4x8x32x16xf32>) -> tensor<16x4x8x32x16xf32> {
  // expected-error @+1 {{invalid inner_dims_pos vector}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0, 1] inner_tiles = [32, 16, 8] into %output : tensor<256x128xf32> -> tensor<16x4x8x32x16xf32>
  return %0 : tensor<16x4x8x32x16xf32>
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: tensor<16x4x32x16xf32>) -> tensor<16x4x32x16xf32> {
  // expected-error @+1 {{tiling factors must equal the number of dimensions to tile}}
  %0 = linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [32] into %output : tensor<256x128xf32> -> tensor<16x4x32x16xf32>
  return %0 : tensor<16x4x32x16xf32>
}

// -----

func.func @f(%input: memref<256x128xf32>, %output: memref<4x16x32x16xf32>) {
  // expected-error @+1 {{expected 'memref<16x4x32x16xf32>' for the packed domain value, got 'memref<4x16x32x16xf32>'}}
  linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [32, 16] into %output : memref<256x128xf32> -> memref<4x16x32x16xf32>
  return
}

// -----

func.func @f(%input: tensor<256x128xf32>, %output: memref<8x16x32x16xf32>) {
  // expected-error @+1 {{'linalg.pack' op result #0 must be ranked tensor of any non-token type values, but got 'memref<8x16x32x16xf32>'}}
  linalg.pack %input inner_dims_pos = [1, 0] inner_tiles = [32, 16] into %output : tensor<256x128xf32> -> memref<8x16x32x16xf32>
  return
}

// -----

func.func @f(%A: memref<5xf32>, %B: memref<5xf32>) {
  // expected-error @+1 {{custom op 'linalg.generic' invalid kind of attribute specified}}
  linalg.generic [1] ins(%A: memref<5xf32>) outs(%B: memref<5xf32>) {
    ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A window attribute given as a property must be integer elements (upstream's property
// conversion, which names every property); in the attribute dictionary the constraint
// reports it instead.
func.func @window_property(%i: memref<1x5x5x4xf32>, %f: memref<3x3x4xf32>, %o: memref<1x3x3x4xf32>) {
  // expected-error @+1 {{invalid properties {dilations = dense<1> : tensor<2xi64>, operandSegmentSizes = array<i32: 2, 1>, strides = dense<1.000000e+00> : tensor<2xf32>} for op linalg.depthwise_conv_2d_nhwc_hwc: Invalid attribute `strides` in property conversion: dense<1.000000e+00> : tensor<2xf32>}}
  linalg.depthwise_conv_2d_nhwc_hwc <{dilations = dense<1> : tensor<2xi64>, strides = dense<1.0> : tensor<2xf32>}>
    ins(%i, %f : memref<1x5x5x4xf32>, memref<3x3x4xf32>) outs(%o : memref<1x3x3x4xf32>)
  return
}

// -----

func.func @window_property_array(%i: memref<1x5x5x4xf32>, %f: memref<3x3x4xf32>, %o: memref<1x3x3x4xf32>) {
  // expected-error @+1 {{invalid properties {dilations = [1, 1], operandSegmentSizes = array<i32: 2, 1>} for op linalg.depthwise_conv_2d_nhwc_hwc: Invalid attribute `dilations` in property conversion: [1, 1]}}
  linalg.depthwise_conv_2d_nhwc_hwc <{dilations = [1, 1]}>
    ins(%i, %f : memref<1x5x5x4xf32>, memref<3x3x4xf32>) outs(%o : memref<1x3x3x4xf32>)
  return
}

// -----

func.func @fill_scalar_into_vectors(%f: f32, %e: tensor<2xvector<4xf32>>) -> tensor<2xvector<4xf32>> {
  // expected-error @+1 {{'linalg.fill' op expected fill value type ('f32') to match output element type ('vector<4xf32>')}}
  %0 = linalg.fill ins(%f : f32) outs(%e : tensor<2xvector<4xf32>>) -> tensor<2xvector<4xf32>>
  return %0 : tensor<2xvector<4xf32>>
}

// -----

// winograd transforms: F(m, r) fixes the tile sizes; a 1 x r filter transforms one way.
func.func @winograd_filter_1d(%f: tensor<8x1x5x4xf32>, %e: tensor<6x6x4x8xf32>) -> tensor<6x6x4x8xf32> {
  // expected-error @+1 {{'linalg.winograd_filter_transform' op the output shape is not expected}}
  %0 = linalg.winograd_filter_transform fmr(F_2_5) ins(%f : tensor<8x1x5x4xf32>) outs(%e : tensor<6x6x4x8xf32>) -> tensor<6x6x4x8xf32>
  return %0 : tensor<6x6x4x8xf32>
}

// -----

func.func @winograd_element_types(%f: tensor<2x3x3x5xf32>, %e: tensor<4x4x5x2xf16>) -> tensor<4x4x5x2xf16> {
  // expected-error @+1 {{'linalg.winograd_filter_transform' op failed to verify that all of {filter, output} have same element type}}
  %0 = linalg.winograd_filter_transform fmr(F_2_3) ins(%f : tensor<2x3x3x5xf32>) outs(%e : tensor<4x4x5x2xf16>) -> tensor<4x4x5x2xf16>
  return %0 : tensor<4x4x5x2xf16>
}

// -----

func.func @winograd_input_untiled_width(%x: tensor<1x10x3x2xf32>, %e: tensor<4x1x4x1x1x2xf32>) -> tensor<4x1x4x1x1x2xf32> {
  // expected-error @+1 {{'linalg.winograd_input_transform' op the output shape is not expected}}
  %0 = linalg.winograd_input_transform fmr(F_2_3) ins(%x : tensor<1x10x3x2xf32>) outs(%e : tensor<4x1x4x1x1x2xf32>) -> tensor<4x1x4x1x1x2xf32>
  return %0 : tensor<4x1x4x1x1x2xf32>
}

// -----

func.func @winograd_output_tile_height(%v: tensor<4x4x2x2x1x3xf32>, %y: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @+1 {{'linalg.winograd_output_transform' op expect input height equals to input tile size}}
  %0 = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<4x4x2x2x1x3xf32>) outs(%y : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @winograd_rank(%f: tensor<3x3x5xf32>, %e: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  // expected-error @+1 {{'linalg.winograd_filter_transform' op operand #0 must be 4D tensor of any non-token type values, but got 'tensor<3x3x5xf32>'}}
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<3x3x5xf32>) outs(%e : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  return %0 : tensor<6x6x5x2xf32>
}

// -----

// i1 is no uint: the unsigned max, min and div refuse bools as they refuse floats.
func.func @max_unsigned_bools(%i: tensor<1x4x1xi1>, %w: tensor<2xi1>, %o: tensor<1x3x1xi1>) -> tensor<1x3x1xi1> {
  // expected-error @+1 {{custom op 'linalg.pooling_nwc_max_unsigned' unsupported operation: unsigned max not on uint}}
  %0 = linalg.pooling_nwc_max_unsigned ins(%i, %w : tensor<1x4x1xi1>, tensor<2xi1>) outs(%o : tensor<1x3x1xi1>) -> tensor<1x3x1xi1>
  return %0 : tensor<1x3x1xi1>
}

// -----

func.func @min_unsigned_bools(%i: memref<1x4x4x1xi1>, %w: memref<2x2xi1>, %o: memref<1x3x3x1xi1>) {
  // expected-error @+1 {{custom op 'linalg.pooling_nhwc_min_unsigned' unsupported operation: unsigned min not on uint}}
  linalg.pooling_nhwc_min_unsigned ins(%i, %w : memref<1x4x4x1xi1>, memref<2x2xi1>) outs(%o : memref<1x3x3x1xi1>)
  return
}

// -----

// The conversion sees only what `<{...}>` gives: not matmul's default maps.
func.func @cast_property(%a: memref<4x4xf32>) {
  // expected-error @+1 {{invalid properties {cast = #linalg.binary_fn<add>, operandSegmentSizes = array<i32: 2, 1>} for op linalg.matmul: Invalid attribute `cast` in property conversion: #linalg.binary_fn<add>}}
  linalg.matmul <{cast = #linalg.binary_fn<add>}> ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  return
}

// -----

func.func @maps_property(%a: memref<4x4xf32>) {
  // expected-error @+1 {{invalid properties {indexing_maps = 5 : i64, operandSegmentSizes = array<i32: 2, 1>} for op linalg.matmul: Invalid attribute `indexing_maps` in property conversion: 5 : i64}}
  linalg.matmul <{indexing_maps = 5 : i64}> ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  return
}

// -----

func.func @maps_property_elements(%a: memref<4x4xf32>) {
  // expected-error @+1 {{'linalg.matmul' op attribute 'indexing_maps' failed to satisfy constraint: AffineMap array attribute}}
  linalg.matmul <{indexing_maps = [1, 2]}> ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  return
}

// -----

func.func @winograd_fmr_case(%f: tensor<2x3x3x5xf32>, %e: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  // expected-error @+1 {{invalid properties {fmr = 5 : i32} for op linalg.winograd_filter_transform: Invalid attribute `fmr` in property conversion: 5 : i32}}
  %0 = "linalg.winograd_filter_transform"(%f, %e) <{fmr = 5 : i32}> : (tensor<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  return %0 : tensor<6x6x5x2xf32>
}

// -----

func.func @winograd_keyword(%f: tensor<2x3x3x5xf32>, %e: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  // expected-error @+1 {{custom op 'linalg.winograd_filter_transform' expected string or keyword containing one of the following enum values for attribute 'fmr' [F_2_3, F_4_3, F_2_5]}}
  %0 = linalg.winograd_filter_transform fmr(F_9_9) ins(%f : tensor<2x3x3x5xf32>) outs(%e : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  return %0 : tensor<6x6x5x2xf32>
}

// -----

func.func @winograd_result(%f: tensor<2x3x3x5xf32>, %e: tensor<6x6x5x2xf32>) {
  // expected-error @+1 {{'linalg.winograd_filter_transform' op requires one result}}
  "linalg.winograd_filter_transform"(%f, %e) <{fmr = 1 : i32}> : (tensor<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> ()
  return
}

// -----

func.func @winograd_buffers(%f: memref<2x3x3x5xf32>, %e: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  // expected-error @+1 {{'linalg.winograd_filter_transform' op operand #0 must be 4D tensor of any non-token type values, but got 'memref<2x3x3x5xf32>'}}
  %0 = "linalg.winograd_filter_transform"(%f, %e) <{fmr = 1 : i32}> : (memref<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  return %0 : tensor<6x6x5x2xf32>
}

// -----

// The payload cannot cast an f16 operand to the vector element type: upstream warns
// once per operand (at an unknown location), then fails to build the multiplication.
func.func @matmul_uncastable_operands(%t: tensor<?xf16>, %f: vector<4xf16>) -> tensor<?xf16> {
  // expected-warning @unknown {{could not cast operand of type 'f16' to 'vector<4xf16>'}}
  // expected-error @below {{custom op 'linalg.matmul' Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got 'vector<4xf16>' and 'f16'}}
  %0 = linalg.matmul ins(%t, %t : tensor<?xf16>, tensor<?xf16>) outs(%f : vector<4xf16>) -> tensor<?xf16>
  return %0 : tensor<?xf16>
}
