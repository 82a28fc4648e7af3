// tensor.dim folds and canonicalization patterns (strata/dialects/tensor.py): the size is
// read where it is known (a static dim, tensor.empty / tensor.generate sizes, the init of a
// destination-style op, the source of a cast, the dest of an insert_slice). The CHECK lines
// are what `iree-opt --canonicalize` prints for this file.
// RUN: strata-opt %s --split-input-file --canonicalize | filecheck %s


// CHECK-LABEL: func.func @dim_static(
//  CHECK-NEXT:   %c8 = arith.constant 8 : index
//  CHECK-NEXT:   return %c8 : index
//  CHECK-NEXT: }
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dim_static(%a: tensor<?x8xf32>) -> index {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %a, %c1 : tensor<?x8xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dim_of_empty(
//  CHECK-NEXT:   return %arg0 : index
//  CHECK-NEXT: }
func.func @dim_of_empty(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %d = tensor.dim %e, %c0 : tensor<?x4xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dim_of_generic(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %dim = tensor.dim %arg1, %c0 : tensor<?x8xf32>
//  CHECK-NEXT:   return %dim : index
//  CHECK-NEXT: }
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dim_of_generic(%a: tensor<?x8xf32>, %init: tensor<?x8xf32>) -> index {
  %c0 = arith.constant 0 : index
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xf32>) outs(%init : tensor<?x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<?x8xf32>
  %d = tensor.dim %g, %c0 : tensor<?x8xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dim_of_fill_and_cast(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
//  CHECK-NEXT:   %dim_0 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
//  CHECK-NEXT:   return %dim, %dim_0 : index, index
//  CHECK-NEXT: }
func.func @dim_of_fill_and_cast(%a: tensor<?x?xf32>, %f: f32) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = linalg.fill ins(%f : f32) outs(%a : tensor<?x?xf32>) -> tensor<?x?xf32>
  %d = tensor.dim %g, %c0 : tensor<?x?xf32>
  %c = tensor.cast %a : tensor<?x?xf32> to tensor<*xf32>
  %e = tensor.dim %c, %c1 : tensor<*xf32>
  return %d, %e : index, index
}

// -----

// CHECK-LABEL: func.func @dim_of_insert_slice(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %dim = tensor.dim %arg1, %c0 : tensor<?xf32>
//  CHECK-NEXT:   return %dim : index
//  CHECK-NEXT: }
func.func @dim_of_insert_slice(%a: tensor<2xf32>, %b: tensor<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %i = tensor.insert_slice %a into %b[0] [2] [1] : tensor<2xf32> into tensor<?xf32>
  %d = tensor.dim %i, %c0 : tensor<?xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dim_of_generate_and_slice(
//  CHECK-NEXT:   return %arg1, %arg1 : index, index
//  CHECK-NEXT: }
func.func @dim_of_generate_and_slice(%n: index, %m: index, %t: tensor<?x?xf32>) -> (index, index) {
  %c1 = arith.constant 1 : index
  %g = tensor.generate %n, %m {
  ^bb0(%i: index, %j: index):
    %f = arith.constant 0.0 : f32
    tensor.yield %f : f32
  } : tensor<?x?xf32>
  %d = tensor.dim %g, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %t[0, 0] [4, %m] [1, 1] : tensor<?x?xf32> to tensor<4x?xf32>
  %e = tensor.dim %s, %c1 : tensor<4x?xf32>
  return %d, %e : index, index
}

// -----

// CHECK-LABEL: func.func @dim_unknown_index(
//  CHECK-NEXT:   %dim = tensor.dim %arg0, %arg1 : tensor<?x8xf32>
//  CHECK-NEXT:   return %dim : index
//  CHECK-NEXT: }
func.func @dim_unknown_index(%a: tensor<?x8xf32>, %i: index) -> index {
  %d = tensor.dim %a, %i : tensor<?x8xf32>
  return %d : index
}
