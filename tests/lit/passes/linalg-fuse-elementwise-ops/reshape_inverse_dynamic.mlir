// RUN: strata-opt %s --split-input-file --linalg-fuse-elementwise-ops | filecheck %s

// A collapse_shape expanded back with the same groups is its source only where the
// expanded sizes are known to be the source's: no group may hold two dynamic dims
// (upstream's foldReshapeOp). ONNX Reshape of a [?, ?] tensor to a run-time [?, ?]
// shape lowers to this pair; folding it returned the input's shape (issue 16).

// CHECK-LABEL: func.func @two_dynamic_in_a_group(
// CHECK:         %[[C:.*]] = tensor.collapse_shape %arg0
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [%arg1, %arg2]
// CHECK-NEXT:    return %[[E]]
func.func @two_dynamic_in_a_group(%x: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [%m, %n] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @two_dynamic_in_the_second_group(
// CHECK:         tensor.collapse_shape
// CHECK-NEXT:    tensor.expand_shape
func.func @two_dynamic_in_the_second_group(%x: tensor<?x?x?xf32>, %a: index, %b: index, %c: index) -> tensor<?x?x?xf32> {
  %0 = tensor.collapse_shape %x [[0], [1, 2]] : tensor<?x?x?xf32> into tensor<?x?xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [%a, %b, %c] : tensor<?x?xf32> into tensor<?x?x?xf32>
  return %1 : tensor<?x?x?xf32>
}

// -----

// One dynamic dim per group: the static ones fix it, the pair folds.
// CHECK-LABEL: func.func @one_dynamic_per_group(
// CHECK-NEXT:    return %arg0 : tensor<?x4x?xf32>
func.func @one_dynamic_per_group(%x: tensor<?x4x?xf32>, %a: index, %b: index) -> tensor<?x4x?xf32> {
  %0 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x4x?xf32> into tensor<?x?xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [%a, 4, %b] : tensor<?x?xf32> into tensor<?x4x?xf32>
  return %1 : tensor<?x4x?xf32>
}

// -----

// Expanding and collapsing back by the same groups always gives the source.
// CHECK-LABEL: func.func @expand_then_collapse(
// CHECK-NEXT:    return %arg0 : tensor<?x?xf32>
func.func @expand_then_collapse(%x: tensor<?x?xf32>, %a: index, %b: index, %c: index, %d: index) -> tensor<?x?xf32> {
  %0 = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [%a, %b, %c, %d] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
