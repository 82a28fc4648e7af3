// tensor folds upstream makes: identity reshapes and casts, a reshape undone by its
// inverse, bitcast and cast chains, extract through a cast, from a constant and from
// tensor.from_elements, and reshapes of constants.
// RUN: strata-opt %s --canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @identity_expand(%arg0: tensor<4x4xf32>)
// CHECK-NEXT:    return %arg0 : tensor<4x4xf32>
func.func @identity_expand(%t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tensor.expand_shape %t [[0], [1]] output_shape [4, 4] : tensor<4x4xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_then_expand(%arg0: tensor<2x3xf32>)
// CHECK-NEXT:    return %arg0 : tensor<2x3xf32>
func.func @collapse_then_expand(%t: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @bitcast_chain(%arg0: tensor<4xui32>)
// CHECK-NEXT:    %[[B:.*]] = tensor.bitcast %arg0 : tensor<4xui32> to tensor<4xf32>
// CHECK-NEXT:    return %[[B]] : tensor<4xf32>
func.func @bitcast_chain(%t: tensor<4xui32>) -> tensor<4xf32> {
  %0 = tensor.bitcast %t : tensor<4xui32> to tensor<4xi32>
  %1 = tensor.bitcast %0 : tensor<4xi32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @bitcast_round_trip(%arg0: tensor<4xui32>)
// CHECK-NEXT:    return %arg0 : tensor<4xui32>
func.func @bitcast_round_trip(%t: tensor<4xui32>) -> tensor<4xui32> {
  %0 = tensor.bitcast %t : tensor<4xui32> to tensor<4xi32>
  %1 = tensor.bitcast %0 : tensor<4xi32> to tensor<4xui32>
  return %1 : tensor<4xui32>
}

// -----

// CHECK-LABEL: func.func @extract_of_cast(%arg0: tensor<4x?xf32>, %arg1: index)
// CHECK-NEXT:    %[[E:.*]] = tensor.extract %arg0[%arg1, %arg1] : tensor<4x?xf32>
// CHECK-NEXT:    return %[[E]] : f32
func.func @extract_of_cast(%t: tensor<4x?xf32>, %i: index) -> f32 {
  %0 = tensor.cast %t : tensor<4x?xf32> to tensor<?x?xf32>
  %1 = tensor.extract %0[%i, %i] : tensor<?x?xf32>
  return %1 : f32
}

// -----

// CHECK-LABEL: func.func @extract_of_constants()
// CHECK-DAG:     %[[F:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG:     %[[S:.*]] = arith.constant 7 : i32
// CHECK-DAG:     %[[E:.*]] = arith.constant 5 : i32
// CHECK:         return %[[F]], %[[S]], %[[E]] : f32, i32, i32
func.func @extract_of_constants() -> (f32, i32, i32) {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = arith.constant dense<7> : tensor<3xi32>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %0 = tensor.extract %c[%c1, %c0] : tensor<2x2xf32>
  %1 = tensor.extract %s[%c1] : tensor<3xi32>
  %a = arith.constant 5 : i32
  %f = tensor.from_elements %a, %a, %a : tensor<3xi32>
  %2 = tensor.extract %f[%c1] : tensor<3xi32>
  return %0, %1, %2 : f32, i32, i32
}

// -----

// CHECK-LABEL: func.func @cast_chains(%arg0: tensor<4xf32>)
// CHECK-NEXT:    %[[C:.*]] = tensor.cast %arg0 : tensor<4xf32> to tensor<?xf32>
// CHECK-NEXT:    return %arg0, %[[C]] : tensor<4xf32>, tensor<?xf32>
func.func @cast_chains(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %0 = tensor.cast %t : tensor<4xf32> to tensor<?xf32>
  %1 = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  %2 = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  %3 = tensor.cast %2 : tensor<*xf32> to tensor<?xf32>
  return %1, %3 : tensor<4xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant()
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-NEXT:    return %[[C]] : tensor<4xi32>
func.func @reshape_constant() -> tensor<4xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = tensor.collapse_shape %c [[0, 1]] : tensor<2x2xi32> into tensor<4xi32>
  return %0 : tensor<4xi32>
}
