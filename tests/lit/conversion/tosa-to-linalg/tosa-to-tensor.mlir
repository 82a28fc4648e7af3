// tosa-to-tensor: reshape as collapse_shape / expand_shape (through 1-D when neither
// groups the other), slice as extract_slice, pad as tensor.pad yielding pad_const[0],
// concat as insert_slices into an empty tensor; tosa-to-arith: const as arith.constant.
// (The const_shape operands stay, as upstream: nothing lowers them, they die unused.)
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-tensor,tosa-to-arith))" | filecheck %s

// CHECK-LABEL: func.func @reshape_collapse(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<6> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT: return %collapsed : tensor<6xf32>
func.func @reshape_collapse(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %s = tosa.const_shape values(dense<6> : tensor<1xindex>) : () -> !tosa.shape<1>
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_expand(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[1, 2, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %expanded = tensor.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 2, 3] : tensor<2x3xf32> into tensor<1x2x3xf32>
// CHECK-NEXT: return %expanded : tensor<1x2x3xf32>
func.func @reshape_expand(%a: tensor<2x3xf32>) -> tensor<1x2x3xf32> {
  %s = tosa.const_shape values(dense<[1, 2, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_collapse_expand(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT: %expanded = tensor.expand_shape %collapsed [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK-NEXT: return %expanded : tensor<3x2xf32>
func.func @reshape_collapse_expand(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = tosa.const_shape values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @slice(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[1, -1]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[0, 1] [1, 2] [1, 1] : tensor<2x3xf32> to tensor<1x2xf32>
// CHECK-NEXT: return %extracted_slice : tensor<1x2xf32>
func.func @slice(%a: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %start = tosa.const_shape values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %size = tosa.const_shape values(dense<[1, -1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.slice %a, %start, %size : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// CHECK-LABEL: func.func @pad(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %cst = arith.constant dense<3.500000e+00> : tensor<1xf32>
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %extracted = tensor.extract %cst[%c0] : tensor<1xf32>
// CHECK-NEXT: %padded = tensor.pad %arg0 low[0, 1] high[1, 0] {
// CHECK-NEXT: ^bb0(%arg1: index, %arg2: index):
// CHECK-NEXT: tensor.yield %extracted : f32
// CHECK-NEXT: } : tensor<2x3xf32> to tensor<3x4xf32>
// CHECK-NEXT: return %padded : tensor<3x4xf32>
func.func @pad(%a: tensor<2x3xf32>) -> tensor<3x4xf32> {
  %p = tosa.const_shape values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %c = tosa.const values(dense<3.5> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.pad %a, %p, %c : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: %0 = tensor.empty() : tensor<2x7xf32>
// CHECK-NEXT: %inserted_slice = tensor.insert_slice %arg0 into %0[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x7xf32>
// CHECK-NEXT: %inserted_slice_0 = tensor.insert_slice %arg1 into %inserted_slice[0, 3] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x7xf32>
// CHECK-NEXT: %inserted_slice_1 = tensor.insert_slice %arg0 into %inserted_slice_0[0, 4] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x7xf32>
// CHECK-NEXT: return %inserted_slice_1 : tensor<2x7xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x7xf32> {
  %0 = tosa.concat %a, %b, %a axis(1) : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// CHECK-LABEL: func.func @const(
// CHECK-NEXT: %cst = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: return %cst : tensor<2x2xi32>
func.func @const() -> tensor<2x2xi32> {
  %0 = tosa.const values(dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>) : () -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

