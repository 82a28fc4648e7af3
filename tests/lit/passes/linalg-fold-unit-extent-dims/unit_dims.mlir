// RUN: strata-opt %s --linalg-fold-unit-extent-dims | filecheck %s

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map3 = affine_map<() -> ()>
// CHECK-NEXT: #map4 = affine_map<(d0) -> ()>

#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A unit loop goes: operands are collapsed, the result expanded back; the index ops
// of the loops (unused) go too.
// CHECK-LABEL: func.func @unit(%arg0: tensor<1x8xf32>, %arg1: tensor<1x8xf32>) -> tensor<1x8xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NEXT:   %collapsed_0 = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %collapsed_0 : tensor<8xf32>, tensor<8xf32>) outs(%0 : tensor<8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<8xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %1 {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK-NEXT:   return %expanded : tensor<1x8xf32>
// CHECK-NEXT: }
func.func @unit(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// An operand dim of size 1 read at 0 is collapsed; the loops stay.
// CHECK-LABEL: func.func @bcast(%arg0: tensor<4x1xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%collapsed, %arg1 : tensor<4xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @bcast(%a: tensor<4x1xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x1xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// An init the payload reads becomes an input, the op writes a tensor.empty.
// CHECK-LABEL: func.func @reads_out(%arg0: tensor<1x8xf32>, %arg1: tensor<1x8xf32>) -> tensor<1x8xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NEXT:   %collapsed_0 = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %collapsed_0 : tensor<8xf32>, tensor<8xf32>) outs(%0 : tensor<8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<8xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %1 {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK-NEXT:   return %expanded : tensor<1x8xf32>
// CHECK-NEXT: }
func.func @reads_out(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x8xf32>) outs(%b : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// Named ops are left alone.
// CHECK-LABEL: func.func @named(%arg0: tensor<1x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<1x4xf32>, %arg3: f32) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
// CHECK-NEXT:   %0 = linalg.matmul ins(%arg0, %arg1 : tensor<1x8xf32>, tensor<8x4xf32>) outs(%arg2 : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%arg3 : f32) outs(%arg2 : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:   return %0, %1 : tensor<1x4xf32>, tensor<1x4xf32>
// CHECK-NEXT: }
func.func @named(%a: tensor<1x8xf32>, %b: tensor<8x4xf32>, %c: tensor<1x4xf32>, %s: f32) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<1x8xf32>, tensor<8x4xf32>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = linalg.fill ins(%s : f32) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// A unit reduction loop goes: the op is all parallel and reads its init as an input.
// CHECK-LABEL: func.func @reduce(%arg0: tensor<4x1xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   return %1 : tensor<4xf32>
// CHECK-NEXT: }
func.func @reduce(%a: tensor<4x1xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x1xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Dynamic sizes: the expand_shape reads them from the init.
// CHECK-LABEL: func.func @dyn(%arg0: tensor<?x1xf32>) -> tensor<?x1xf32> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK-NEXT:   %collapsed_0 = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%collapsed : tensor<?xf32>) outs(%collapsed_0 : tensor<?xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %1 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %1 : f32
// CHECK-NEXT:   } -> tensor<?xf32>
// CHECK-NEXT:   %dim = tensor.dim %arg0, %c0 : tensor<?x1xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %0 {{\[\[}}0, 1]] output_shape [%dim, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK-NEXT:   return %expanded : tensor<?x1xf32>
// CHECK-NEXT: }
func.func @dyn(%a: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x1xf32>) outs(%a : tensor<?x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// Unit loops around a kept one, a fill init (collapsed through the fill), linalg.index
// of a dropped loop (0) and of a kept one (renumbered).
// CHECK-LABEL: func.func @mixed(%arg0: tensor<1x4x1xf32>, %arg1: tensor<4xf32>, %arg2: f32) -> tensor<1x4x1xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<1x4x1xf32> into tensor<4xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%arg2 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %2 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %arg1, %1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%2 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %4 = linalg.index 0 : index
// CHECK-NEXT:     %5 = arith.index_cast %4 : index to i32
// CHECK-NEXT:     %6 = arith.sitofp %5 : i32 to f32
// CHECK-NEXT:     %7 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %8 = arith.addf %7, %in_1 : f32
// CHECK-NEXT:     %9 = arith.addf %8, %6 : f32
// CHECK-NEXT:     linalg.yield %9 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %3 {{\[\[}}0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
// CHECK-NEXT:   return %expanded : tensor<1x4x1xf32>
// CHECK-NEXT: }
func.func @mixed(%a: tensor<1x4x1xf32>, %b: tensor<4xf32>, %s: f32) -> tensor<1x4x1xf32> {
  %e = tensor.empty() : tensor<1x4x1xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %0 = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d1)>, #id3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f : tensor<1x4x1xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %c = arith.index_cast %i : index to i32
    %c2 = arith.index_cast %k : index to i32
    %c3 = arith.addi %c, %c2 : i32
    %g = arith.sitofp %c3 : i32 to f32
    %t = arith.mulf %x, %y : f32
    %u = arith.addf %t, %o : f32
    %w = arith.addf %u, %g : f32
    linalg.yield %w : f32
  } -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// Every dim is a unit: 0-d tensors.
// CHECK-LABEL: func.func @all_unit(%arg0: tensor<1x1xf32>) -> tensor<1x1xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<f32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%collapsed : tensor<f32>) outs(%0 : tensor<f32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<f32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %1 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NEXT:   return %expanded : tensor<1x1xf32>
// CHECK-NEXT: }
func.func @all_unit(%a: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// Each op of a chain is rewritten; the reshapes between them fold away.
// CHECK-LABEL: func.func @chain(%arg0: tensor<4x1x8xf32>) -> tensor<4x1x8xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<4x1x8xf32> into tensor<4x8xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %4 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %4 = math.sqrt %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %3 {{\[\[}}0, 1], [2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
// CHECK-NEXT:   return %expanded : tensor<4x1x8xf32>
// CHECK-NEXT: }
func.func @chain(%a: tensor<4x1x8xf32>) -> tensor<4x1x8xf32> {
  %e = tensor.empty() : tensor<4x1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<4x1x8xf32>) outs(%e : tensor<4x1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<4x1x8xf32>
  %1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<4x1x8xf32>) outs(%e : tensor<4x1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.sqrt %x : f32
    linalg.yield %t : f32
  } -> tensor<4x1x8xf32>
  return %1 : tensor<4x1x8xf32>
}

// Transposed maps.
// CHECK-LABEL: func.func @transposed(%arg0: tensor<1x4xf32>, %arg1: tensor<4x1xf32>) -> tensor<4x1xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:   %collapsed_0 = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%collapsed : tensor<4xf32>) outs(%collapsed_0 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %0 {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK-NEXT:   return %expanded : tensor<4x1xf32>
// CHECK-NEXT: }
func.func @transposed(%a: tensor<1x4xf32>, %b: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf32>) outs(%b : tensor<4x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// A scalar operand keeps its (empty) map over the remaining loops.
// CHECK-LABEL: func.func @scalar(%arg0: tensor<1x4xf32>, %arg1: f32) -> tensor<1x4xf32> {
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel"]} ins(%collapsed, %arg1 : tensor<4xf32>, f32) outs(%0 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %1 {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK-NEXT:   return %expanded : tensor<1x4xf32>
// CHECK-NEXT: }
func.func @scalar(%a: tensor<1x4xf32>, %s: f32) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<1x4xf32>, f32) outs(%e : tensor<1x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// FillOp's canonicalizations: copy, transpose and extract of a fill; copy into one.
// CHECK-LABEL: func.func @fill_folds(%arg0: f32, %arg1: tensor<4x8xf32>, %arg2: tensor<8x4xf32>, %arg3: index) -> (tensor<4x8xf32>, tensor<8x4xf32>, f32, tensor<4x8xf32>) {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%arg0 : f32) outs(%arg1 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = linalg.fill ins(%arg0 : f32) outs(%arg2 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:   %3 = linalg.copy ins(%arg1 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   return %1, %2, %arg0, %3 : tensor<4x8xf32>, tensor<8x4xf32>, f32, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @fill_folds(%s: f32, %a: tensor<4x8xf32>, %t: tensor<8x4xf32>, %i: index) -> (tensor<4x8xf32>, tensor<8x4xf32>, f32, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.copy ins(%f : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.transpose ins(%f : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
  %2 = tensor.extract %f[%i, %i] : tensor<4x8xf32>
  %3 = linalg.copy ins(%a : tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<8x4xf32>, f32, tensor<4x8xf32>
}

// Reshapes of fills and of tensor.empty fold.
// CHECK-LABEL: func.func @fill_reshape(%arg0: f32) -> (tensor<2x4xf32>, tensor<8xf32>) {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%arg0 : f32) outs(%0 : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %2 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:   %3 = linalg.fill ins(%arg0 : f32) outs(%2 : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %1, %3 : tensor<2x4xf32>, tensor<8xf32>
// CHECK-NEXT: }
func.func @fill_reshape(%s: f32) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %0 = tensor.expand_shape %f [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%s : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tensor.collapse_shape %f2 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<8xf32>
}

// A collapsed tensor.empty with a dynamic size.
// CHECK-LABEL: func.func @dyn_empty(%arg0: index) -> tensor<?x4xf32> {
// CHECK-NEXT:   %0 = tensor.empty(%arg0) : tensor<?x4xf32>
// CHECK-NEXT:   return %0 : tensor<?x4xf32>
// CHECK-NEXT: }
func.func @dyn_empty(%n: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%n) : tensor<?x1x4xf32>
  %0 = tensor.collapse_shape %e [[0, 1], [2]] : tensor<?x1x4xf32> into tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
