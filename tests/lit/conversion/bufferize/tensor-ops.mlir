// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | filecheck %s

// The memref form of each tensor op. The structure is what iree-opt prints for the same
// input, except that results never alias arguments here (a returned view or argument is
// copied into a buffer the caller owns) and arguments are read-only (a write copies it);
// tensor.bitcast (no upstream bufferization) becomes linalg.map of arith.bitcast.

// CHECK-LABEL: func.func @empty_extract_insert(%arg0: memref<4x?xf32>, %arg1: index, %arg2: index, %arg3: f32) -> (memref<4x?xf32>, f32, index) {
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %alloc = memref.alloc(%arg2) alignment = 64 : memref<4x?xf32>
//       CHECK: memref.store %arg3, %alloc[%arg1, %arg1] : memref<4x?xf32>
//       CHECK: %0 = memref.load %arg0[%arg1, %arg1] : memref<4x?xf32>
//       CHECK: %dim = memref.dim %arg0, %c1 : memref<4x?xf32>
//       CHECK: return %alloc, %0, %dim : memref<4x?xf32>, f32, index
func.func @empty_extract_insert(%t: tensor<4x?xf32>, %i: index, %n: index, %v: f32) -> (tensor<4x?xf32>, f32, index) {
  %c1 = arith.constant 1 : index
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %x = tensor.insert %v into %e[%i, %i] : tensor<4x?xf32>
  %y = tensor.extract %t[%i, %i] : tensor<4x?xf32>
  %d = tensor.dim %t, %c1 : tensor<4x?xf32>
  return %x, %y, %d : tensor<4x?xf32>, f32, index
}

// CHECK-LABEL: func.func @insert_into_argument(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) -> memref<4xf32> {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: memref.store %arg2, %alloc[%arg1] : memref<4xf32>
//       CHECK: return %alloc : memref<4xf32>
func.func @insert_into_argument(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %x = tensor.insert %v into %t[%i] : tensor<4xf32>
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @views(%arg0: memref<2x3x4xf32>) -> (memref<6x4xf32>, memref<2x3x2x2xf32>, memref<?x3x4xf32>, memref<3x4xf32>) {
//       CHECK: %collapse_shape = memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
//       CHECK: %expand_shape = memref.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [2, 3, 2, 2] : memref<2x3x4xf32> into memref<2x3x2x2xf32>
//       CHECK: %cast = memref.cast %arg0 : memref<2x3x4xf32> to memref<?x3x4xf32>
//       CHECK: %subview = memref.subview %arg0[1, 0, 0] [1, 3, 4] [1, 1, 1] : memref<2x3x4xf32> to memref<3x4xf32, strided<[4, 1], offset: 12>>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<6x4xf32>
//       CHECK: memref.copy %collapse_shape, %alloc : memref<6x4xf32> to memref<6x4xf32>
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<2x3x2x2xf32>
//       CHECK: memref.copy %expand_shape, %alloc_0 : memref<2x3x2x2xf32> to memref<2x3x2x2xf32>
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %dim = memref.dim %cast, %c0 : memref<?x3x4xf32>
//       CHECK: %alloc_1 = memref.alloc(%dim) alignment = 64 : memref<?x3x4xf32>
//       CHECK: memref.copy %cast, %alloc_1 : memref<?x3x4xf32> to memref<?x3x4xf32>
//       CHECK: %alloc_2 = memref.alloc() alignment = 64 : memref<3x4xf32>
//       CHECK: memref.copy %subview, %alloc_2 : memref<3x4xf32, strided<[4, 1], offset: 12>> to memref<3x4xf32>
//       CHECK: return %alloc, %alloc_0, %alloc_1, %alloc_2 : memref<6x4xf32>, memref<2x3x2x2xf32>, memref<?x3x4xf32>, memref<3x4xf32>
func.func @views(%t: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x3x4xf32>, tensor<3x4xf32>) {
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %k = tensor.cast %t : tensor<2x3x4xf32> to tensor<?x3x4xf32>
  %s = tensor.extract_slice %t[1, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<3x4xf32>
  return %c, %e, %k, %s : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x3x4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @collapse_of_strided_slice(%arg0: memref<4x6xf32>) -> memref<6xf32> {
//       CHECK: %subview = memref.subview %arg0[0, 0] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1]>>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<2x3xf32>
//       CHECK: memref.copy %subview, %alloc : memref<2x3xf32, strided<[6, 1]>> to memref<2x3xf32>
//       CHECK: %collapse_shape = memref.collapse_shape %alloc {{\[\[}}0, 1]] : memref<2x3xf32> into memref<6xf32>
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<6xf32>
//       CHECK: memref.copy %collapse_shape, %alloc_0 : memref<6xf32> to memref<6xf32>
//       CHECK: return %alloc_0 : memref<6xf32>
func.func @collapse_of_strided_slice(%t: tensor<4x6xf32>) -> tensor<6xf32> {
  %s = tensor.extract_slice %t[0, 0] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %c : tensor<6xf32>
}

// A slice of dynamic size has dynamic strides: collapsing dims across one of them reads
// a buffer that is not contiguous, so it is copied first (upstream's
// isGuaranteedCollapsible); the contiguous inner group collapses in place.
// CHECK-LABEL: func.func @collapse_of_dynamic_slice(%arg0: memref<?x?x4xf32>, %arg1: index) -> (memref<?x4xf32>, memref<?x?xf32>) {
//       CHECK: %subview = memref.subview %arg0[0, 0, 0] [%arg1, %arg1, 4] [1, 1, 1] : memref<?x?x4xf32> to memref<?x?x4xf32, strided<[?, 4, 1]>>
//       CHECK: %alloc = memref.alloc(%dim, %dim_0) alignment = 64 : memref<?x?x4xf32>
//       CHECK: memref.copy %subview, %alloc : memref<?x?x4xf32, strided<[?, 4, 1]>> to memref<?x?x4xf32>
//       CHECK: %collapse_shape = memref.collapse_shape %alloc {{\[\[}}0, 1], [2]] : memref<?x?x4xf32> into memref<?x4xf32>
//       CHECK: %collapse_shape_1 = memref.collapse_shape %subview {{\[\[}}0], [1, 2]] : memref<?x?x4xf32, strided<[?, 4, 1]>> into memref<?x?xf32, strided<[?, 1]>>
func.func @collapse_of_dynamic_slice(%t: tensor<?x?x4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<?x?xf32>) {
  %s = tensor.extract_slice %t[0, 0, 0] [%n, %n, 4] [1, 1, 1] : tensor<?x?x4xf32> to tensor<?x?x4xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2]] : tensor<?x?x4xf32> into tensor<?x4xf32>
  %d = tensor.collapse_shape %s [[0], [1, 2]] : tensor<?x?x4xf32> into tensor<?x?xf32>
  return %c, %d : tensor<?x4xf32>, tensor<?x?xf32>
}

// CHECK-LABEL: func.func @insert_slice(%arg0: memref<8x8xf32>, %arg1: memref<2x?xf32>, %arg2: index) -> memref<8x8xf32> {
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %dim = memref.dim %arg1, %c1 : memref<2x?xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<8x8xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<8x8xf32> to memref<8x8xf32>
//       CHECK: %subview = memref.subview %alloc[%arg2, 0] [2, %dim] [1, 1] : memref<8x8xf32> to memref<2x?xf32, strided<[8, 1], offset: ?>>
//       CHECK: memref.copy %arg1, %subview : memref<2x?xf32> to memref<2x?xf32, strided<[8, 1], offset: ?>>
//       CHECK: return %alloc : memref<8x8xf32>
func.func @insert_slice(%t: tensor<8x8xf32>, %s: tensor<2x?xf32>, %i: index) -> tensor<8x8xf32> {
  %n = arith.constant 1 : index
  %d = tensor.dim %s, %n : tensor<2x?xf32>
  %r = tensor.insert_slice %s into %t[%i, 0] [2, %d] [1, 1] : tensor<2x?xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @reshape(%arg0: memref<2x3xf32>, %arg1: memref<1xi64>) -> memref<6xf32> {
//       CHECK: %reshape = memref.reshape %arg0(%arg1) : (memref<2x3xf32>, memref<1xi64>) -> memref<6xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<6xf32>
//       CHECK: memref.copy %reshape, %alloc : memref<6xf32> to memref<6xf32>
//       CHECK: return %alloc : memref<6xf32>
func.func @reshape(%t: tensor<2x3xf32>, %shape: tensor<1xi64>) -> tensor<6xf32> {
  %r = tensor.reshape %t(%shape) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// CHECK-LABEL: func.func @concat(%arg0: memref<2x?xf32>, %arg1: memref<3x?xf32>) -> memref<5x?xf32> {
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %dim = memref.dim %arg0, %c1 : memref<2x?xf32>
//       CHECK: %alloc = memref.alloc(%dim) alignment = 64 : memref<5x?xf32>
//       CHECK: %c1_0 = arith.constant 1 : index
//       CHECK: %dim_1 = memref.dim %arg0, %c1_0 : memref<2x?xf32>
//       CHECK: %subview = memref.subview %alloc[0, 0] [2, %dim_1] [1, 1] : memref<5x?xf32> to memref<2x?xf32, strided<[?, 1]>>
//       CHECK: memref.copy %arg0, %subview : memref<2x?xf32> to memref<2x?xf32, strided<[?, 1]>>
//       CHECK: %c1_2 = arith.constant 1 : index
//       CHECK: %dim_3 = memref.dim %arg1, %c1_2 : memref<3x?xf32>
//       CHECK: %subview_4 = memref.subview %alloc[2, 0] [3, %dim_3] [1, 1] : memref<5x?xf32> to memref<3x?xf32, strided<[?, 1], offset: ?>>
//       CHECK: memref.copy %arg1, %subview_4 : memref<3x?xf32> to memref<3x?xf32, strided<[?, 1], offset: ?>>
//       CHECK: return %alloc : memref<5x?xf32>
func.func @concat(%a: tensor<2x?xf32>, %b: tensor<3x?xf32>) -> tensor<5x?xf32> {
  %r = tensor.concat dim(0) %a, %b : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
  return %r : tensor<5x?xf32>
}

// CHECK-LABEL: func.func @pad(%arg0: memref<?x3xf32>, %arg1: index) -> memref<?x5xf32> {
//       CHECK: %cst = arith.constant 0.000000e+00 : f32
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %dim = memref.dim %arg0, %c0 : memref<?x3xf32>
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %0 = arith.addi %dim, %arg1 : index
//       CHECK: %1 = arith.addi %0, %c1 : index
//       CHECK: %alloc = memref.alloc(%1) alignment = 64 : memref<?x5xf32>
//       CHECK: linalg.map outs(%alloc : memref<?x5xf32>)
//       CHECK: (%init: f32) {
//       CHECK: %2 = linalg.index 0 : index
//       CHECK: %3 = linalg.index 1 : index
//       CHECK: linalg.yield %cst : f32
//       CHECK: %c0_0 = arith.constant 0 : index
//       CHECK: %dim_1 = memref.dim %arg0, %c0_0 : memref<?x3xf32>
//       CHECK: %subview = memref.subview %alloc[1, 0] [%dim_1, 3] [1, 1] : memref<?x5xf32> to memref<?x3xf32, strided<[5, 1], offset: 5>>
//       CHECK: memref.copy %arg0, %subview : memref<?x3xf32> to memref<?x3xf32, strided<[5, 1], offset: 5>>
//       CHECK: return %alloc : memref<?x5xf32>
func.func @pad(%t: tensor<?x3xf32>, %h: index) -> tensor<?x5xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %t low[1, 0] high[%h, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x3xf32> to tensor<?x5xf32>
  return %p : tensor<?x5xf32>
}

// CHECK-LABEL: func.func @generate_splat_from_elements(%arg0: index, %arg1: f32, %arg2: f32) -> (memref<?x3xindex>, memref<2x?xf32>, memref<2x1xf32>) {
//       CHECK: %alloc = memref.alloc(%arg0) alignment = 64 : memref<?x3xindex>
//       CHECK: linalg.map outs(%alloc : memref<?x3xindex>)
//       CHECK: (%init: index) {
//       CHECK: %0 = linalg.index 0 : index
//       CHECK: %1 = linalg.index 1 : index
//       CHECK: %2 = arith.addi %0, %1 : index
//       CHECK: linalg.yield %2 : index
//       CHECK: %alloc_0 = memref.alloc(%arg0) alignment = 64 : memref<2x?xf32>
//       CHECK: linalg.map outs(%alloc_0 : memref<2x?xf32>)
//       CHECK: (%init: f32) {
//       CHECK: linalg.yield %arg1 : f32
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<2x1xf32>
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: memref.store %arg1, %alloc_1[%c0, %c0] : memref<2x1xf32>
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: memref.store %arg2, %alloc_1[%c1, %c0] : memref<2x1xf32>
//       CHECK: return %alloc, %alloc_0, %alloc_1 : memref<?x3xindex>, memref<2x?xf32>, memref<2x1xf32>
func.func @generate_splat_from_elements(%n: index, %a: f32, %b: f32) -> (tensor<?x3xindex>, tensor<2x?xf32>, tensor<2x1xf32>) {
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %x = arith.addi %i, %j : index
    tensor.yield %x : index
  } : tensor<?x3xindex>
  %s = tensor.splat %a[%n] : tensor<2x?xf32>
  %f = tensor.from_elements %a, %b : tensor<2x1xf32>
  return %g, %s, %f : tensor<?x3xindex>, tensor<2x?xf32>, tensor<2x1xf32>
}

// CHECK-LABEL: func.func @bitcast_rank(%arg0: memref<3xf32>) -> (memref<3xi32>, index) {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<3xi32>
//       CHECK: linalg.map { arith.bitcast } ins(%arg0 : memref<3xf32>) outs(%alloc : memref<3xi32>)
//       CHECK: %0 = memref.rank %arg0 : memref<3xf32>
//       CHECK: return %alloc, %0 : memref<3xi32>, index
func.func @bitcast_rank(%t: tensor<3xf32>) -> (tensor<3xi32>, index) {
  %b = tensor.bitcast %t : tensor<3xf32> to tensor<3xi32>
  %r = tensor.rank %t : tensor<3xf32>
  return %b, %r : tensor<3xi32>, index
}
