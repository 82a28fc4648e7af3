// RUN: strata-opt %s --linalg-fuse-elementwise-ops | filecheck %s

// Where upstream linearizes the split loop's indices with affine.apply (a dialect Strata
// does not have), the op is not expanded: the expand_shape stays after it.
// CHECK-LABEL: func.func @index_expand(%arg0: tensor<8xf32>) -> tensor<2x4xf32> {
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>)
// CHECK:           linalg.index 0 : index
// CHECK:         } -> tensor<8xf32>
// CHECK-NEXT:    %expanded = tensor.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:    return %expanded : tensor<2x4xf32>
func.func @index_expand(%a: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// A loop renumbered by the expansion (d0 becomes d2) keeps one index op, renumbered.
// CHECK-LABEL: func.func @index_renumbered(
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x3x5xf32>)
// CHECK:           %[[I:.+]] = linalg.index 2 : index
// CHECK-NEXT:      arith.index_cast %[[I]] : index to i32
// CHECK:         } -> tensor<2x3x5xf32>
// CHECK-NEXT:    tensor.collapse_shape
func.func @index_renumbered(%a: tensor<2x3x5xf32>) -> tensor<6x5xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x5xf32> into tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x5xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<6x5xf32>) outs(%e : tensor<6x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %k = arith.index_cast %j : index to i32
    %f = arith.sitofp %k : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
