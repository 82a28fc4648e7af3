// Canonicalization of tensor ops, byte for byte as upstream's (the CHECK lines are
// iree-opt's --canonicalize output): reshape compositions, pads, slices with constant
// arguments and of casts, static sizes of empty/generate, constant folds, tensor.reshape.
// RUN: strata-opt %s --canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @expand_of_expand(%arg0: tensor<6x?xf32>, %arg1: index) -> tensor<2x3x?x4xf32> {
// CHECK-NEXT: %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2, 3]] output_shape [2, 3, %arg1, 4] : tensor<6x?xf32> into tensor<2x3x?x4xf32>
// CHECK-NEXT: return %expanded : tensor<2x3x?x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @expand_of_expand(%t: tensor<6x?xf32>, %n: index) -> tensor<2x3x?x4xf32> {
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, %n] : tensor<6x?xf32> into tensor<2x3x?xf32>
  %1 = tensor.expand_shape %0 [[0], [1], [2, 3]] output_shape [2, 3, %n, 4] : tensor<2x3x?xf32> into tensor<2x3x?x4xf32>
  return %1 : tensor<2x3x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_of_collapse(%arg0: tensor<2x3x4x5xf32>) -> tensor<120xf32> {
// CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<120xf32>
// CHECK-NEXT: return %collapsed : tensor<120xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @collapse_of_collapse(%t: tensor<2x3x4x5xf32>) -> tensor<120xf32> {
  %0 = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<6x20xf32> into tensor<120xf32>
  return %1 : tensor<120xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_of_expand_lower(%arg0: tensor<8x?xf32>, %arg1: index) -> tensor<8x?xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @collapse_of_expand_lower(%t: tensor<8x?xf32>, %n: index) -> tensor<8x?xf32> {
  %0 = tensor.expand_shape %t [[0], [1, 2]] output_shape [8, %n, 1] : tensor<8x?xf32> into tensor<8x?x1xf32>
  %1 = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<8x?x1xf32> into tensor<8x?xf32>
  return %1 : tensor<8x?xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_of_expand_higher(%arg0: tensor<12xf32>) -> tensor<6x2xf32> {
// CHECK-NEXT: %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [6, 2] : tensor<12xf32> into tensor<6x2xf32>
// CHECK-NEXT: return %expanded : tensor<6x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @collapse_of_expand_higher(%t: tensor<12xf32>) -> tensor<6x2xf32> {
  %0 = tensor.expand_shape %t [[0, 1, 2]] output_shape [3, 2, 2] : tensor<12xf32> into tensor<3x2x2xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<3x2x2xf32> into tensor<6x2xf32>
  return %1 : tensor<6x2xf32>
}

// -----

// CHECK-LABEL: func.func @expand_of_collapse(%arg0: tensor<4x6x5xf32>) -> tensor<4x2x3x5xf32> {
// CHECK-NEXT: %expanded = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [4, 2, 3, 5] : tensor<4x6x5xf32> into tensor<4x2x3x5xf32>
// CHECK-NEXT: return %expanded : tensor<4x2x3x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @expand_of_collapse(%t: tensor<4x6x5xf32>) -> tensor<4x2x3x5xf32> {
  %0 = tensor.collapse_shape %t [[0, 1, 2]] : tensor<4x6x5xf32> into tensor<120xf32>
  %1 = tensor.expand_shape %0 [[0, 1, 2, 3]] output_shape [4, 2, 3, 5] : tensor<120xf32> into tensor<4x2x3x5xf32>
  return %1 : tensor<4x2x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @expand_of_collapse_dynamic_inverse(%arg0: tensor<?x2x?xf32>, %arg1: index, %arg2: index) -> tensor<?x2x?xf32> {
// CHECK-NEXT: return %arg0 : tensor<?x2x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @expand_of_collapse_dynamic_inverse(%t: tensor<?x2x?xf32>, %a: index, %b: index) -> tensor<?x2x?xf32> {
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x2x?xf32> into tensor<?x?xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [%a, 2, %b] : tensor<?x?xf32> into tensor<?x2x?xf32>
  return %1 : tensor<?x2x?xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_of_cast(%arg0: tensor<2x3x5xf32>) -> tensor<?x5xf32> {
// CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x3x5xf32> into tensor<6x5xf32>
// CHECK-NEXT: %cast = tensor.cast %collapsed : tensor<6x5xf32> to tensor<?x5xf32>
// CHECK-NEXT: return %cast : tensor<?x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @collapse_of_cast(%t: tensor<2x3x5xf32>) -> tensor<?x5xf32> {
  %0 = tensor.cast %t : tensor<2x3x5xf32> to tensor<?x3x?xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<?x3x?xf32> into tensor<?x?xf32>
  %2 = tensor.cast %1 : tensor<?x?xf32> to tensor<?x5xf32>
  return %2 : tensor<?x5xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes_of_splat_and_elements(%arg0: i32) -> (tensor<2x2xi32>, tensor<1x1xi32>) {
// CHECK-NEXT: %splat = tensor.splat %arg0 : tensor<2x2xi32>
// CHECK-NEXT: %from_elements = tensor.from_elements %arg0 : tensor<1x1xi32>
// CHECK-NEXT: return %splat, %from_elements : tensor<2x2xi32>, tensor<1x1xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @reshapes_of_splat_and_elements(%x: i32) -> (tensor<2x2xi32>, tensor<1x1xi32>) {
  %s = tensor.splat %x : tensor<4xi32>
  %0 = tensor.expand_shape %s [[0, 1]] output_shape [2, 2] : tensor<4xi32> into tensor<2x2xi32>
  %e = tensor.from_elements %x : tensor<1xi32>
  %1 = tensor.expand_shape %e [[0, 1]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
  return %0, %1 : tensor<2x2xi32>, tensor<1x1xi32>
}

// -----

// CHECK-LABEL: func.func @pads(%arg0: tensor<3x?xf32>, %arg1: tensor<?x?xf32>, %arg2: f32) -> (tensor<3x?xf32>, tensor<5x?xf32>, tensor<7x7xf32>) {
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %padded = tensor.pad %arg0 low[%c2, 0] high[0, 1] {
// CHECK-NEXT: ^bb0(%arg3: index, %arg4: index):
// CHECK-NEXT: tensor.yield %arg2 : f32
// CHECK-NEXT: } : tensor<3x?xf32> to tensor<5x?xf32>
// CHECK-NEXT: %padded_0 = tensor.pad %arg1 low[2, 2] high[2, 2] {
// CHECK-NEXT: ^bb0(%arg3: index, %arg4: index):
// CHECK-NEXT: tensor.yield %arg2 : f32
// CHECK-NEXT: } : tensor<?x?xf32> to tensor<7x7xf32>
// CHECK-NEXT: return %arg0, %padded, %padded_0 : tensor<3x?xf32>, tensor<5x?xf32>, tensor<7x7xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @pads(%t: tensor<3x?xf32>, %u: tensor<?x?xf32>, %v: f32) -> (tensor<3x?xf32>, tensor<5x?xf32>, tensor<7x7xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %0 = tensor.pad %t low[%c0, 0] high[0, %c0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x?xf32> to tensor<3x?xf32>
  %cast = tensor.cast %t : tensor<3x?xf32> to tensor<?x?xf32>
  %1 = tensor.pad %cast low[%c2, 0] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %2 = tensor.cast %1 : tensor<?x?xf32> to tensor<5x?xf32>
  %3 = tensor.pad %u low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %4 = tensor.pad %3 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %5 = tensor.cast %4 : tensor<?x?xf32> to tensor<7x7xf32>
  return %0, %2, %5 : tensor<3x?xf32>, tensor<5x?xf32>, tensor<7x7xf32>
}

// -----

// CHECK-LABEL: func.func @pad_same_type_nofold(%arg0: tensor<2x2xf32>, %arg1: f32) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
// CHECK-NEXT: %padded = tensor.pad %arg0 nofold low[0, 0] high[0, 0] {
// CHECK-NEXT: ^bb0(%arg2: index, %arg3: index):
// CHECK-NEXT: tensor.yield %arg1 : f32
// CHECK-NEXT: } : tensor<2x2xf32> to tensor<2x2xf32>
// CHECK-NEXT: return %arg0, %padded : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @pad_same_type_nofold(%t: tensor<2x2xf32>, %v: f32) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = tensor.pad %t low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x2xf32> to tensor<2x2xf32>
  %1 = tensor.pad %t nofold low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x2xf32> to tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @slices(%arg0: tensor<?x?xf32>, %arg1: tensor<8x8xf32>, %arg2: index) -> (tensor<?x?xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[1, %arg2] [2, 2] [1, 1] : tensor<?x?xf32> to tensor<2x2xf32>
// CHECK-NEXT: %cast = tensor.cast %extracted_slice : tensor<2x2xf32> to tensor<?x?xf32>
// CHECK-NEXT: %inserted_slice = tensor.insert_slice %extracted_slice into %arg1[%arg2, 1] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
// CHECK-NEXT: return %cast, %inserted_slice : tensor<?x?xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @slices(%t: tensor<?x?xf32>, %d: tensor<8x8xf32>, %i: index) -> (tensor<?x?xf32>, tensor<8x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = tensor.extract_slice %t[%c1, %i] [%c2, %c2] [1, %c1] : tensor<?x?xf32> to tensor<?x?xf32>
  %1 = tensor.insert_slice %0 into %d[%i, %c1] [%c2, %c2] [%c1, 1] : tensor<?x?xf32> into tensor<8x8xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @slices_of_casts(%arg0: tensor<8x16xf32>, %arg1: tensor<4x4xf32>, %arg2: index) -> (tensor<4xf32>, tensor<8x16xf32>, tensor<4x?xf32>) {
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[%arg2, 0] [1, 4] [1, 1] : tensor<8x16xf32> to tensor<4xf32>
// CHECK-NEXT: %inserted_slice = tensor.insert_slice %arg1 into %arg0[%arg2, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x16xf32>
// CHECK-NEXT: %extracted_slice_0 = tensor.extract_slice %arg0[0, %arg2] [4, %arg2] [1, 1] : tensor<8x16xf32> to tensor<4x?xf32>
// CHECK-NEXT: return %extracted_slice, %inserted_slice, %extracted_slice_0 : tensor<4xf32>, tensor<8x16xf32>, tensor<4x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @slices_of_casts(%t: tensor<8x16xf32>, %s: tensor<4x4xf32>, %i: index) -> (tensor<4xf32>, tensor<8x16xf32>, tensor<4x?xf32>) {
  %0 = tensor.cast %t : tensor<8x16xf32> to tensor<?x?xf32>
  %1 = tensor.extract_slice %0[%i, 0] [1, 4] [1, 1] : tensor<?x?xf32> to tensor<4xf32>
  %2 = tensor.cast %s : tensor<4x4xf32> to tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %2, %c0 : tensor<?x4xf32>
  %3 = tensor.insert_slice %2 into %t[%i, 0] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<8x16xf32>
  %4 = tensor.extract_slice %t[0, %i] [%n, %i] [1, 1] : tensor<8x16xf32> to tensor<?x?xf32>
  %5 = tensor.cast %4 : tensor<?x?xf32> to tensor<4x?xf32>
  return %1, %3, %5 : tensor<4xf32>, tensor<8x16xf32>, tensor<4x?xf32>
}

// -----

// CHECK-LABEL: func.func @slice_folds(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: index) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>) {
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg1[%arg2, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
// CHECK-NEXT: return %arg0, %arg1, %arg0, %extracted_slice : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @slice_folds(%t: tensor<4x4xf32>, %u: tensor<4x4xf32>, %i: index) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>) {
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> to tensor<4x4xf32>
  %1 = tensor.extract_slice %u[%i, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %2 = tensor.insert_slice %1 into %u[%i, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %e = tensor.empty() : tensor<0x4xf32>
  %3 = tensor.insert_slice %e into %t[1, 0] [0, 4] [1, 1] : tensor<0x4xf32> into tensor<4x4xf32>
  %4 = tensor.insert_slice %1 into %t[%i, 1] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %5 = tensor.extract_slice %4[%i, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  return %0, %2, %3, %5 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @empty_and_generate(%arg0: index) -> (tensor<?x3xf32>, tensor<2x?xf32>, index) {
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %0 = tensor.empty() : tensor<5x3xf32>
// CHECK-NEXT: %cast = tensor.cast %0 : tensor<5x3xf32> to tensor<?x3xf32>
// CHECK-NEXT: %1 = tensor.empty(%arg0) : tensor<2x?xf32>
// CHECK-NEXT: %2 = arith.addi %arg0, %c1 : index
// CHECK-NEXT: return %cast, %1, %2 : tensor<?x3xf32>, tensor<2x?xf32>, index
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @empty_and_generate(%n: index) -> (tensor<?x3xf32>, tensor<2x?xf32>, index) {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %0 = tensor.empty(%c5) : tensor<?x3xf32>
  %1 = tensor.empty(%n, %n) : tensor<?x?xf32>
  %2 = tensor.cast %1 : tensor<?x?xf32> to tensor<2x?xf32>
  %g = tensor.generate %c3, %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    tensor.yield %s : index
  } : tensor<?x?xindex>
  %c1 = arith.constant 1 : index
  %3 = tensor.extract %g[%c1, %n] : tensor<?x?xindex>
  return %0, %2, %3 : tensor<?x3xf32>, tensor<2x?xf32>, index
}

// -----

// CHECK-LABEL: func.func @constant_folds(%arg0: tensor<*xf32>) -> (tensor<3xi32>, tensor<2xf32>, index, tensor<3xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<[7, -1, 7]> : tensor<3xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<2.500000e+00> : tensor<2xf32>
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %cst_1 = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %cst, %cst_0, %c2, %cst_1 : tensor<3xi32>, tensor<2xf32>, index, tensor<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @constant_folds(%t: tensor<*xf32>) -> (tensor<3xi32>, tensor<2xf32>, index, tensor<3xf32>) {
  %a = arith.constant 7 : i32
  %b = arith.constant -1 : i32
  %0 = tensor.from_elements %a, %b, %a : tensor<3xi32>
  %f = arith.constant 2.5 : f32
  %1 = tensor.splat %f : tensor<2xf32>
  %r = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %2 = tensor.rank %r : tensor<1x2xf32>
  %z = arith.constant dense<0.0> : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 1 : index
  %3 = tensor.insert %zero into %z[%i] : tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<2xf32>, index, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @tensor_reshapes(%arg0: tensor<*xf32>, %arg1: tensor<2xindex>, %arg2: tensor<3xindex>, %arg3: tensor<?x4xf32>) -> (tensor<*xf32>, tensor<?x4xf32>, index, tensor<2x3xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %reshape = tensor.reshape %arg0(%arg2) : (tensor<*xf32>, tensor<3xindex>) -> tensor<*xf32>
// CHECK-NEXT: %extracted = tensor.extract %arg2[%c0] : tensor<3xindex>
// CHECK-NEXT: return %reshape, %arg3, %extracted, %cst : tensor<*xf32>, tensor<?x4xf32>, index, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @tensor_reshapes(%t: tensor<*xf32>, %s1: tensor<2xindex>, %s2: tensor<3xindex>, %u: tensor<?x4xf32>) -> (tensor<*xf32>, tensor<?x4xf32>, index, tensor<2x3xf32>) {
  %0 = tensor.reshape %t(%s1) : (tensor<*xf32>, tensor<2xindex>) -> tensor<*xf32>
  %1 = tensor.reshape %0(%s2) : (tensor<*xf32>, tensor<3xindex>) -> tensor<*xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %u, %c0 : tensor<?x4xf32>
  %shape = tensor.from_elements %d, %c4 : tensor<2xindex>
  %2 = tensor.reshape %u(%shape) : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %3 = tensor.dim %1, %c0 : tensor<*xf32>
  %cst = arith.constant dense<1.0> : tensor<6xf32>
  %sh = arith.constant dense<[2, 3]> : tensor<2xi64>
  %4 = tensor.reshape %cst(%sh) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %1, %2, %3, %4 : tensor<*xf32>, tensor<?x4xf32>, index, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_and_index_cast(%arg0: tensor<2x?xf32>, %arg1: tensor<4xi64>, %arg2: index) -> (tensor<2x5xf32>, index) {
// CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<2x?xf32> to tensor<2x5xf32>
// CHECK-NEXT: %extracted = tensor.extract %arg1[%arg2] : tensor<4xi64>
// CHECK-NEXT: %0 = arith.index_cast %extracted : i64 to index
// CHECK-NEXT: return %cast, %0 : tensor<2x5xf32>, index
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @concat_and_index_cast(%t: tensor<2x?xf32>, %u: tensor<4xi64>, %i: index) -> (tensor<2x5xf32>, index) {
  %0 = tensor.concat dim(1) %t : (tensor<2x?xf32>) -> tensor<2x5xf32>
  %1 = arith.index_cast %u : tensor<4xi64> to tensor<4xindex>
  %2 = tensor.extract %1[%i] : tensor<4xindex>
  return %0, %2 : tensor<2x5xf32>, index
}

// -----

// CHECK-LABEL: func.func @complex_elements(%arg0: index) -> tensor<2xcomplex<f64>> {
// CHECK-NEXT: %cst = arith.constant dense<[(2.500000e-01,4.000000e+00), (7.000000e+00,8.000000e+00)]> : tensor<2xcomplex<f64>>
// CHECK-NEXT: return %cst : tensor<2xcomplex<f64>>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @complex_elements(%i: index) -> tensor<2xcomplex<f64>> {
  %c = arith.constant dense<[(1.5, -2.0), (0.25, 4.0)]> : tensor<2xcomplex<f64>>
  %c1 = arith.constant 1 : index
  %0 = tensor.extract %c[%c1] : tensor<2xcomplex<f64>>
  %s = arith.constant dense<(7.0, 8.0)> : tensor<3xcomplex<f64>>
  %1 = tensor.extract %s[%i] : tensor<3xcomplex<f64>>
  %2 = tensor.from_elements %0, %1 : tensor<2xcomplex<f64>>
  return %2 : tensor<2xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @orthogonal_pads(%arg0: tensor<32x32xf32>, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[0, 8] [32, %arg1] [1, 1] : tensor<32x32xf32> to tensor<32x?xf32>
// CHECK-NEXT: %padded = tensor.pad %extracted_slice low[0, 0] high[0, %arg3] {
// CHECK-NEXT: ^bb0(%arg5: index, %arg6: index):
// CHECK-NEXT: tensor.yield %cst : f32
// CHECK-NEXT: } : tensor<32x?xf32> to tensor<32x8xf32>
// CHECK-NEXT: %extracted_slice_1 = tensor.extract_slice %padded[2, 0] [%arg2, 8] [1, 1] : tensor<32x8xf32> to tensor<?x8xf32>
// CHECK-NEXT: %extracted_slice_2 = tensor.extract_slice %arg0[2, 8] [%arg2, %arg1] [1, 1] : tensor<32x32xf32> to tensor<?x?xf32>
// CHECK-NEXT: %padded_3 = tensor.pad %extracted_slice_2 low[0, 0] high[%arg4, %arg3] {
// CHECK-NEXT: ^bb0(%arg5: index, %arg6: index):
// CHECK-NEXT: tensor.yield %cst : f32
// CHECK-NEXT: } : tensor<?x?xf32> to tensor<4x8xf32>
// CHECK-NEXT: %padded_4 = tensor.pad %extracted_slice_1 low[0, 0] high[%arg4, 0] {
// CHECK-NEXT: ^bb0(%arg5: index, %arg6: index):
// CHECK-NEXT: tensor.yield %cst_0 : f32
// CHECK-NEXT: } : tensor<?x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: return %padded_3, %padded_4 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @orthogonal_pads(%t: tensor<32x32xf32>, %a: index, %b: index, %p: index, %q: index) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = tensor.extract_slice %t[0, 8] [32, %a] [1, 1] : tensor<32x32xf32> to tensor<32x?xf32>
  %1 = tensor.pad %0 low[0, 0] high[0, %p] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<32x?xf32> to tensor<32x8xf32>
  %2 = tensor.extract_slice %1[2, 0] [%b, 8] [1, 1] : tensor<32x8xf32> to tensor<?x8xf32>
  %3 = tensor.pad %2 low[0, 0] high[%q, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x8xf32> to tensor<4x8xf32>
  %4 = tensor.pad %2 low[0, 0] high[%q, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<?x8xf32> to tensor<4x8xf32>
  return %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @sparse_elements() -> (f16, f16, i32, i32) {
// CHECK-NEXT: %cst = arith.constant 6.000000e+00 : f16
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: return %cst, %cst_0, %c7_i32, %c0_i32 : f16, f16, i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @sparse_elements() -> (f16, f16, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = arith.constant sparse<[[0, 1], [2, 0]], [-3.5, 6.0]> : tensor<3x2xf16>
  %0 = tensor.extract %s[%c2, %c0] : tensor<3x2xf16>
  %1 = tensor.extract %s[%c1, %c1] : tensor<3x2xf16>
  %t = arith.constant sparse<[1, 2], 7> : tensor<4xi32>
  %2 = tensor.extract %t[%c2] : tensor<4xi32>
  %3 = tensor.extract %t[%c0] : tensor<4xi32>
  return %0, %1, %2, %3 : f16, f16, i32, i32
}
