// RUN: strata-opt %s --linalg-fuse-elementwise-ops | filecheck %s

// CHECK: #map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-NEXT: #map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: #map6 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map7 = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-NEXT: #map8 = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-NEXT: #map9 = affine_map<(d0) -> (d0)>

#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// An expand_shape of a generic op's result: the op gets the expanded loops and reads
// expand_shapes of its operands (a broadcast operand keeps its rank).
// CHECK-LABEL: func.func @gen_expand(%arg0: tensor<8x6xf32>, %arg1: tensor<6xf32>) -> tensor<2x4x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4x6xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg1 : tensor<2x4x6xf32>, tensor<6xf32>) outs(%0 : tensor<2x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4x6xf32>
// CHECK-NEXT:   return %1 : tensor<2x4x6xf32>
// CHECK-NEXT: }
func.func @gen_expand(%a: tensor<8x6xf32>, %v: tensor<6xf32>) -> tensor<2x4x6xf32> {
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %v : tensor<8x6xf32>, tensor<6xf32>) outs(%e : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// A collapse_shape feeding an input: the op reads its source and its result is
// collapsed back.
// CHECK-LABEL: func.func @collapse_gen(%arg0: tensor<2x4x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4x6xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%0 : tensor<2x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4x6xf32>
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %1 {{\[\[}}0, 1], [2]] : tensor<2x4x6xf32> into tensor<8x6xf32>
// CHECK-NEXT:   return %collapsed : tensor<8x6xf32>
// CHECK-NEXT: }
func.func @collapse_gen(%a: tensor<2x4x6xf32>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x6xf32> into tensor<8x6xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %b : tensor<8x6xf32>, tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// A named op other than fill, copy and transpose becomes a linalg.generic.
// CHECK-LABEL: func.func @mm_expand(%arg0: tensor<8x6xf32>, %arg1: tensor<6x4xf32>, %arg2: tensor<8x4xf32>) -> tensor<2x4x4xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %expanded_0 = tensor.expand_shape %arg2 {{\[\[}}0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded, %arg1 : tensor<2x4x6xf32>, tensor<6x4xf32>) outs(%expanded_0 : tensor<2x4x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %1 = arith.mulf %in, %in_1 : f32
// CHECK-NEXT:     %2 = arith.addf %out, %1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4x4xf32>
// CHECK-NEXT:   return %0 : tensor<2x4x4xf32>
// CHECK-NEXT: }
func.func @mm_expand(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>, %c: tensor<8x4xf32>) -> tensor<2x4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x6xf32>, tensor<6x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
  return %1 : tensor<2x4x4xf32>
}

// fill stays a fill on the expanded init.
// CHECK-LABEL: func.func @fill_expand(%arg0: f32) -> tensor<2x4xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %0 {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%arg0 : f32) outs(%expanded : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   return %1 : tensor<2x4xf32>
// CHECK-NEXT: }
func.func @fill_expand(%s: f32) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// A reduction: the split loop keeps its kind.
// CHECK-LABEL: func.func @collapse_reduce(%arg0: tensor<2x4x6xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x4x6xf32>) outs(%expanded : tensor<2x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %1 = arith.addf %out, %in : f32
// CHECK-NEXT:     linalg.yield %1 : f32
// CHECK-NEXT:   } -> tensor<2x4xf32>
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %0 {{\[\[}}0, 1]] : tensor<2x4xf32> into tensor<8xf32>
// CHECK-NEXT:   return %collapsed : tensor<8xf32>
// CHECK-NEXT: }
func.func @collapse_reduce(%a: tensor<2x4x6xf32>, %r: tensor<8xf32>) -> tensor<8xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x6xf32> into tensor<8x6xf32>
  %0 = linalg.reduce { arith.addf } ins(%c : tensor<8x6xf32>) outs(%r : tensor<8xf32>) dimensions = [1]
  return %0 : tensor<8xf32>
}

// Dynamic sizes come from the expand_shape's output_shape.
// CHECK-LABEL: func.func @dyn_expand(%arg0: tensor<?x6xf32>, %arg1: index) -> tensor<?x4x6xf32> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %arg0, %c0 : tensor<?x6xf32>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?x6xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%arg1, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
// CHECK-NEXT:   %expanded_0 = tensor.expand_shape %0 {{\[\[}}0, 1], [2]] output_shape [%arg1, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
// CHECK-NEXT:   %dim_1 = tensor.dim %expanded_0, %c0 : tensor<?x4x6xf32>
// CHECK-NEXT:   %1 = tensor.empty(%dim_1) : tensor<?x4x6xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<?x4x6xf32>) outs(%1 : tensor<?x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %3 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<?x4x6xf32>
// CHECK-NEXT:   return %2 : tensor<?x4x6xf32>
// CHECK-NEXT: }
func.func @dyn_expand(%a: tensor<?x6xf32>, %n: index) -> tensor<?x4x6xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x6xf32>
  %e = tensor.empty(%d) : tensor<?x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x6xf32>) outs(%e : tensor<?x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<?x6xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [%n, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
  return %1 : tensor<?x4x6xf32>
}

// copy stays a copy.
// CHECK-LABEL: func.func @copy_expand(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %expanded_0 = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %0 = linalg.copy ins(%expanded : tensor<2x4x6xf32>) outs(%expanded_0 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
// CHECK-NEXT:   return %0 : tensor<2x4x6xf32>
// CHECK-NEXT: }
func.func @copy_expand(%a: tensor<8x6xf32>, %b: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
  %0 = linalg.copy ins(%a : tensor<8x6xf32>) outs(%b : tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// transpose gets the expanded permutation.
// CHECK-LABEL: func.func @transpose_expand(%arg0: tensor<6x8xf32>, %arg1: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [6, 2, 4] : tensor<6x8xf32> into tensor<6x2x4xf32>
// CHECK-NEXT:   %expanded_0 = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NEXT:   %transposed = linalg.transpose ins(%expanded : tensor<6x2x4xf32>) outs(%expanded_0 : tensor<2x4x6xf32>) permutation = [1, 2, 0] 
// CHECK-NEXT:   return %transposed : tensor<2x4x6xf32>
// CHECK-NEXT: }
func.func @transpose_expand(%a: tensor<6x8xf32>, %b: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
  %0 = linalg.transpose ins(%a : tensor<6x8xf32>) outs(%b : tensor<8x6xf32>) permutation = [1, 0]
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// A collapse_shape into a transpose.
// CHECK-LABEL: func.func @collapse_transpose(%arg0: tensor<2x3x8xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg1 {{\[\[}}0], [1, 2]] output_shape [8, 2, 3] : tensor<8x6xf32> into tensor<8x2x3xf32>
// CHECK-NEXT:   %transposed = linalg.transpose ins(%arg0 : tensor<2x3x8xf32>) outs(%expanded : tensor<8x2x3xf32>) permutation = [2, 0, 1] 
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %transposed {{\[\[}}0], [1, 2]] : tensor<8x2x3xf32> into tensor<8x6xf32>
// CHECK-NEXT:   return %collapsed : tensor<8x6xf32>
// CHECK-NEXT: }
func.func @collapse_transpose(%a: tensor<2x3x8xf32>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x8xf32> into tensor<6x8xf32>
  %0 = linalg.transpose ins(%c : tensor<6x8xf32>) outs(%b : tensor<8x6xf32>) permutation = [1, 0]
  return %0 : tensor<8x6xf32>
}

// linalg.map becomes a generic op (its init, not read, a tensor.empty).
// CHECK-LABEL: func.func @map_expand(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<2x4xf32>) outs(%0 : tensor<2x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4xf32>
// CHECK-NEXT:   return %1 : tensor<2x4xf32>
// CHECK-NEXT: }
func.func @map_expand(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4xf32> {
  %0 = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>)
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// broadcast becomes a generic op.
// CHECK-LABEL: func.func @bcast_expand(%arg0: tensor<6xf32>, %arg1: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4x6xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<6xf32>) outs(%0 : tensor<2x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   } -> tensor<2x4x6xf32>
// CHECK-NEXT:   return %1 : tensor<2x4x6xf32>
// CHECK-NEXT: }
func.func @bcast_expand(%a: tensor<6xf32>, %b: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
  %0 = linalg.broadcast ins(%a : tensor<6xf32>) outs(%b : tensor<8x6xf32>) dimensions = [0]
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// A producer with another use is not expanded.
// CHECK-LABEL: func.func @two_uses(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
// CHECK-NEXT:   %mapped = linalg.map { math.exp } ins(%arg0 : tensor<8xf32>) outs(%arg1 : tensor<8xf32>)
// CHECK-NEXT:   %expanded = tensor.expand_shape %mapped {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:   return %expanded, %mapped : tensor<2x4xf32>, tensor<8xf32>
// CHECK-NEXT: }
func.func @two_uses(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %0 = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>)
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1, %0 : tensor<2x4xf32>, tensor<8xf32>
}

// The producer writes through a transposed map.
// CHECK-LABEL: func.func @transposed_expand(%arg0: tensor<6x8xf32>) -> tensor<2x4x6xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [6, 2, 4] : tensor<6x8xf32> into tensor<6x2x4xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4x6xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map7, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<6x2x4xf32>) outs(%0 : tensor<2x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4x6xf32>
// CHECK-NEXT:   return %1 : tensor<2x4x6xf32>
// CHECK-NEXT: }
func.func @transposed_expand(%a: tensor<6x8xf32>) -> tensor<2x4x6xf32> {
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<6x8xf32>) outs(%e : tensor<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// The collapsed dims are reduced.
// CHECK-LABEL: func.func @reduce_dim_collapse(%arg0: tensor<4x2x3xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<4x2x3xf32>) outs(%arg1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %1 = arith.addf %in, %out : f32
// CHECK-NEXT:     linalg.yield %1 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   return %0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @reduce_dim_collapse(%a: tensor<4x2x3xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %c = tensor.collapse_shape %a [[0], [1, 2]] : tensor<4x2x3xf32> into tensor<4x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x6xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Dynamic: sizes read with tensor.dim from the collapse source.
// CHECK-LABEL: func.func @dyn_collapse(%arg0: tensor<?x4x6xf32>, %arg1: tensor<?x6xf32>) -> tensor<?x6xf32> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %arg1, %c0 : tensor<?x6xf32>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?x6xf32>
// CHECK-NEXT:   %dim_0 = tensor.dim %arg0, %c0 : tensor<?x4x6xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [%dim_0, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
// CHECK-NEXT:   %expanded_1 = tensor.expand_shape %0 {{\[\[}}0, 1], [2]] output_shape [%dim_0, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
// CHECK-NEXT:   %dim_2 = tensor.dim %expanded_1, %c0 : tensor<?x4x6xf32>
// CHECK-NEXT:   %1 = tensor.empty(%dim_2) : tensor<?x4x6xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded : tensor<?x4x6xf32>, tensor<?x4x6xf32>) outs(%1 : tensor<?x4x6xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_3: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.addf %in, %in_3 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<?x4x6xf32>
// CHECK-NEXT:   %collapsed = tensor.collapse_shape %2 {{\[\[}}0, 1], [2]] : tensor<?x4x6xf32> into tensor<?x6xf32>
// CHECK-NEXT:   return %collapsed : tensor<?x6xf32>
// CHECK-NEXT: }
func.func @dyn_collapse(%a: tensor<?x4x6xf32>, %b: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x4x6xf32> into tensor<?x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %b : tensor<?x6xf32>, tensor<?x6xf32>) outs(%b : tensor<?x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// The control function: the producer has another user.
// CHECK-LABEL: func.func @other_user(%arg0: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<8xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %1 {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:   return %expanded, %1 : tensor<2x4xf32>, tensor<8xf32>
// CHECK-NEXT: }
func.func @other_user(%a: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %1, %0 : tensor<2x4xf32>, tensor<8xf32>
}

// Reshapes compose, fold with their inverse, fold into constants.
// CHECK-LABEL: func.func @reshape_chain(%arg0: tensor<24xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>, tensor<6x4xf32>) {
// CHECK-NEXT:   %cst = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]> : tensor<6x4xf32>
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
// CHECK-NEXT:   return %expanded, %arg0, %cst : tensor<2x3x4xf32>, tensor<24xf32>, tensor<6x4xf32>
// CHECK-NEXT: }
func.func @reshape_chain(%a: tensor<24xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>, tensor<6x4xf32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %2 = tensor.collapse_shape %1 [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %cst = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<6x4xf32>
  %3 = tensor.collapse_shape %cst [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %4 = tensor.expand_shape %3 [[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
  return %1, %2, %4 : tensor<2x3x4xf32>, tensor<24xf32>, tensor<6x4xf32>
}

// A reshaped splat constant becomes a scalar in the payload.
// CHECK-LABEL: func.func @splat_reshape(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:   %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<2x4xf32>) outs(%0 : tensor<2x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %cst : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<2x4xf32>
// CHECK-NEXT:   return %1 : tensor<2x4xf32>
// CHECK-NEXT: }
func.func @splat_reshape(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %cst = arith.constant dense<2.0> : tensor<8xf32>
  %c = tensor.expand_shape %cst [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %c : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Elementwise ops fuse across the expand_shape between them.
// CHECK-LABEL: func.func @chain_through_reshape(%arg0: tensor<4x6xf32>, %arg1: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
// CHECK-NEXT:   %expanded = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg1 : tensor<4x2x3xf32>, tensor<4x2x3xf32>) outs(%0 : tensor<4x2x3xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     %3 = arith.addf %2, %in_0 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x2x3xf32>
// CHECK-NEXT:   return %1 : tensor<4x2x3xf32>
// CHECK-NEXT: }
func.func @chain_through_reshape(%a: tensor<4x6xf32>, %b: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  %e2 = tensor.empty() : tensor<4x2x3xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %b : tensor<4x2x3xf32>, tensor<4x2x3xf32>) outs(%e2 : tensor<4x2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x2x3xf32>
  return %2 : tensor<4x2x3xf32>
}
