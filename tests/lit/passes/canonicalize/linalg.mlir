// Linalg canonicalization patterns (strata/dialects/linalg/canonical.py) and folds. The
// CHECK lines are what `iree-opt --canonicalize` prints for this file.
// RUN: strata-opt %s --split-input-file --canonicalize | filecheck %s

// A generic that only yields its input is that input; cast where its result is more
// static (EraseIdentityLinalgOp).
// CHECK-LABEL: func.func @identity_generic(
//  CHECK-NEXT:   %cast = tensor.cast %arg0 : tensor<?x4xf32> to tensor<2x4xf32>
//  CHECK-NEXT:   return %cast : tensor<2x4xf32>
//  CHECK-NEXT: }
func.func @identity_generic(%a: tensor<?x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x4xf32>) outs(%b : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Not an identity: maps differ, or the body computes.
// CHECK-LABEL: func.func @not_identity(
//  CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) {
//  CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
//  CHECK-NEXT:   linalg.yield %in : f32
//  CHECK-NEXT:   } -> tensor<4x4xf32>
//  CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) {
//  CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
//  CHECK-NEXT:   %2 = arith.addf %in, %out : f32
//  CHECK-NEXT:   linalg.yield %2 : f32
//  CHECK-NEXT:   } -> tensor<4x4xf32>
//  CHECK-NEXT:   return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
//  CHECK-NEXT: }
func.func @not_identity(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// On buffers only a copy of a buffer onto itself goes (generic and linalg.copy).
// CHECK-LABEL: func.func @self_copies(
//  CHECK-NEXT:   linalg.copy ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>)
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @self_copies(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.copy ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @broadcast_nothing(
//  CHECK-NEXT:   return %arg0 : tensor<2x3xf32>
//  CHECK-NEXT: }
func.func @broadcast_nothing(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.broadcast ins(%a : tensor<2x3xf32>) outs(%b : tensor<2x3xf32>) dimensions = []
  return %0 : tensor<2x3xf32>
}

// -----

// Transposes: identity folds, chains compose, a transpose of a broadcast moves before it.
// CHECK-LABEL: func.func @transposes(
//  CHECK-NEXT:   %transposed = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%arg2 : tensor<4x3x2xf32>) permutation = [2, 1, 0]
//  CHECK-NEXT:   return %transposed, %arg0 : tensor<4x3x2xf32>, tensor<2x3x4xf32>
//  CHECK-NEXT: }
func.func @transposes(%a: tensor<2x3x4xf32>, %b: tensor<3x4x2xf32>, %c: tensor<4x3x2xf32>,
                      %d: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x3x4xf32>) {
  %0 = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%b : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %1 = linalg.transpose ins(%0 : tensor<3x4x2xf32>) outs(%c : tensor<4x3x2xf32>) permutation = [1, 0, 2]
  %2 = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%d : tensor<2x3x4xf32>) permutation = [0, 1, 2]
  return %1, %2 : tensor<4x3x2xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_of_broadcast(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %dim = tensor.dim %arg0, %c0 : tensor<?x5xf32>
//  CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<5x?xf32>
//  CHECK-NEXT:   %transposed = linalg.transpose ins(%arg0 : tensor<?x5xf32>) outs(%0 : tensor<5x?xf32>) permutation = [1, 0]
//  CHECK-NEXT:   %broadcasted = linalg.broadcast ins(%transposed : tensor<5x?xf32>) outs(%arg2 : tensor<5x?x3xf32>) dimensions = [2]
//  CHECK-NEXT:   return %broadcasted : tensor<5x?x3xf32>
//  CHECK-NEXT: }
func.func @transpose_of_broadcast(%a: tensor<?x5xf32>, %b: tensor<?x3x5xf32>, %c: tensor<5x?x3xf32>) -> tensor<5x?x3xf32> {
  %0 = linalg.broadcast ins(%a : tensor<?x5xf32>) outs(%b : tensor<?x3x5xf32>) dimensions = [1]
  %1 = linalg.transpose ins(%0 : tensor<?x3x5xf32>) outs(%c : tensor<5x?x3xf32>) permutation = [2, 0, 1]
  return %1 : tensor<5x?x3xf32>
}

// -----

// A fill read by extract, reshape, copy, transpose or pack.
// CHECK-LABEL: func.func @fill_consumers(
//  CHECK-NEXT:   %collapsed = tensor.collapse_shape %arg2 {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
//  CHECK-NEXT:   %0 = linalg.fill ins(%arg0 : f32) outs(%collapsed : tensor<6xf32>) -> tensor<6xf32>
//  CHECK-NEXT:   %1 = linalg.fill ins(%arg0 : f32) outs(%arg4 : tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = linalg.copy ins(%arg4 : tensor<2x3xf32>) outs(%arg2 : tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %3 = linalg.fill ins(%arg0 : f32) outs(%arg3 : tensor<3x2xf32>) -> tensor<3x2xf32>
//  CHECK-NEXT:   return %arg0, %0, %1, %2, %3 : f32, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>
//  CHECK-NEXT: }
func.func @fill_consumers(%v: f32, %i: index, %e: tensor<2x3xf32>, %t: tensor<3x2xf32>, %o: tensor<2x3xf32>)
    -> (f32, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %x = tensor.extract %f[%i, %i] : tensor<2x3xf32>
  %r = tensor.collapse_shape %f [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %c = linalg.copy ins(%f : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = linalg.copy ins(%o : tensor<2x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = linalg.transpose ins(%f : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
  return %x, %r, %c, %d, %p : f32, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @fill_pack(
//  CHECK-NEXT:   %0 = tensor.empty() : tensor<2x2x8x4xf32>
//  CHECK-NEXT:   %1 = linalg.fill ins(%arg0 : f32) outs(%0 : tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32>
//  CHECK-NEXT:   %2 = tensor.empty() : tensor<2x2x8x4xf32>
//  CHECK-NEXT:   %3 = linalg.fill ins(%arg0 : f32) outs(%2 : tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32>
//  CHECK-NEXT:   return %1, %3 : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>
//  CHECK-NEXT: }
func.func @fill_pack(%v: f32, %e: tensor<16x8xf32>) -> (tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %d0 = tensor.empty() : tensor<2x2x8x4xf32>
  %p = linalg.pack %f inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %d0 : tensor<16x8xf32> -> tensor<2x2x8x4xf32>
  %zero = arith.constant 0.0 : f32
  %d1 = tensor.empty() : tensor<2x2x8x4xf32>
  %q = linalg.pack %f padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %d1 : tensor<16x8xf32> -> tensor<2x2x8x4xf32>
  return %p, %q : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>
}

// -----

// pack(unpack(x)) and unpack(pack(x)) with the same tiles are x; an unpack into a fill
// writes into the fill's init.
// CHECK-LABEL: func.func @pack_unpack(
//  CHECK-NEXT:   %0 = tensor.empty() : tensor<32x16xf32>
//  CHECK-NEXT:   %unpack = linalg.unpack %arg1 inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %0 : tensor<4x4x8x4xf32> -> tensor<32x16xf32>
//  CHECK-NEXT:   %unpack_0 = linalg.unpack %arg1 inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %arg3 : tensor<4x4x8x4xf32> -> tensor<32x16xf32>
//  CHECK-NEXT:   %1 = tensor.empty() : tensor<4x4x8x4xf32>
//  CHECK-NEXT:   %pack = linalg.pack %unpack outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %1 : tensor<32x16xf32> -> tensor<4x4x8x4xf32>
//  CHECK-NEXT:   return %arg0, %arg1, %unpack_0, %pack : tensor<32x16xf32>, tensor<4x4x8x4xf32>, tensor<32x16xf32>, tensor<4x4x8x4xf32>
//  CHECK-NEXT: }
func.func @pack_unpack(%t: tensor<32x16xf32>, %u: tensor<4x4x8x4xf32>, %v: f32, %w: tensor<32x16xf32>)
    -> (tensor<32x16xf32>, tensor<4x4x8x4xf32>, tensor<32x16xf32>, tensor<4x4x8x4xf32>) {
  %e0 = tensor.empty() : tensor<4x4x8x4xf32>
  %p = linalg.pack %t inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e0 : tensor<32x16xf32> -> tensor<4x4x8x4xf32>
  %e1 = tensor.empty() : tensor<32x16xf32>
  %q = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e1 : tensor<4x4x8x4xf32> -> tensor<32x16xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %r = linalg.unpack %u inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e2 : tensor<4x4x8x4xf32> -> tensor<32x16xf32>
  %e3 = tensor.empty() : tensor<4x4x8x4xf32>
  %s = linalg.pack %r inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e3 : tensor<32x16xf32> -> tensor<4x4x8x4xf32>
  %f = linalg.fill ins(%v : f32) outs(%w : tensor<32x16xf32>) -> tensor<32x16xf32>
  %x = linalg.unpack %u inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %f : tensor<4x4x8x4xf32> -> tensor<32x16xf32>
  %e4 = tensor.empty() : tensor<4x4x8x4xf32>
  %y = linalg.pack %r outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e4 : tensor<32x16xf32> -> tensor<4x4x8x4xf32>
  return %q, %s, %x, %y : tensor<32x16xf32>, tensor<4x4x8x4xf32>, tensor<32x16xf32>, tensor<4x4x8x4xf32>
}

// -----

// Casts that only drop static sizes fold into the structured op that reads them.
// CHECK-LABEL: func.func @cast_producers(
//  CHECK-NEXT:   %0 = linalg.matmul ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4x?xf32>) outs(%arg2 : tensor<3x?xf32>) -> tensor<3x?xf32>
//  CHECK-NEXT:   %cast = tensor.cast %0 : tensor<3x?xf32> to tensor<?x?xf32>
//  CHECK-NEXT:   linalg.matmul ins(%arg3, %arg3 : memref<4x4xf32>, memref<4x4xf32>) outs(%arg3 : memref<4x4xf32>)
//  CHECK-NEXT:   return %cast : tensor<?x?xf32>
//  CHECK-NEXT: }
func.func @cast_producers(%a: tensor<3x4xf32>, %b: tensor<4x?xf32>, %c: tensor<3x?xf32>,
                          %m: memref<4x4xf32>) -> tensor<?x?xf32> {
  %ta = tensor.cast %a : tensor<3x4xf32> to tensor<?x?xf32>
  %tb = tensor.cast %b : tensor<4x?xf32> to tensor<?x?xf32>
  %tc = tensor.cast %c : tensor<3x?xf32> to tensor<?x?xf32>
  %0 = linalg.matmul ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%tc : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mc = memref.cast %m : memref<4x4xf32> to memref<?x?xf32>
  linalg.matmul ins(%mc, %mc : memref<?x?xf32>, memref<?x?xf32>) outs(%mc : memref<?x?xf32>)
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @dead_softmax(
//  CHECK-NEXT:   linalg.softmax dimension(1) ins(%arg1 : memref<2x16xf32>) outs(%arg1 : memref<2x16xf32>)
//  CHECK-NEXT:   return %arg0 : tensor<2x16xf32>
//  CHECK-NEXT: }
func.func @dead_softmax(%a: tensor<2x16xf32>, %m: memref<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  linalg.softmax dimension(1) ins(%m : memref<2x16xf32>) outs(%m : memref<2x16xf32>)
  return %a : tensor<2x16xf32>
}

// -----

// A size one operand fixes becomes static in the others (InferStaticShapeOfOperands).
// CHECK-LABEL: func.func @infer_static(
//  CHECK-NEXT:   %cast = tensor.cast %arg0 : tensor<2x?xf32> to tensor<2x3xf32>
//  CHECK-NEXT:   %cast_0 = tensor.cast %arg1 : tensor<?x3xf32> to tensor<2x3xf32>
//  CHECK-NEXT:   %cast_1 = tensor.cast %arg2 : tensor<?x?xf32> to tensor<2x3xf32>
//  CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%cast, %cast_0 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%cast_1 : tensor<2x3xf32>) {
//  CHECK-NEXT:   ^bb0(%in: f32, %in_3: f32, %out: f32):
//  CHECK-NEXT:   %1 = arith.addf %in, %in_3 : f32
//  CHECK-NEXT:   linalg.yield %1 : f32
//  CHECK-NEXT:   } -> tensor<2x3xf32>
//  CHECK-NEXT:   %cast_2 = tensor.cast %0 : tensor<2x3xf32> to tensor<?x?xf32>
//  CHECK-NEXT:   return %cast_2 : tensor<?x?xf32>
//  CHECK-NEXT: }
func.func @infer_static(%a: tensor<2x?xf32>, %b: tensor<?x3xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2x?xf32>, tensor<?x3xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A cast making a result more static moves onto its init (FoldTensorCastConsumerOp);
// not into another block.
// CHECK-LABEL: func.func @cast_consumer(
//  CHECK-NEXT:   %cast = tensor.cast %arg2 : tensor<?x?xf32> to tensor<4x8xf32>
//  CHECK-NEXT:   %cast_0 = tensor.cast %arg0 : tensor<?x?xf32> to tensor<4x?xf32>
//  CHECK-NEXT:   %cast_1 = tensor.cast %arg1 : tensor<?x?xf32> to tensor<?x8xf32>
//  CHECK-NEXT:   %0 = linalg.matmul ins(%cast_0, %cast_1 : tensor<4x?xf32>, tensor<?x8xf32>) outs(%cast : tensor<4x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %cast_2 = tensor.cast %0 : tensor<4x8xf32> to tensor<?x?xf32>
//  CHECK-NEXT:   %1 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%arg2 : tensor<?x?xf32>) -> tensor<?x?xf32>
//  CHECK-NEXT:   cf.cond_br %arg3, ^bb1, ^bb2
//  CHECK-NEXT:   ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   %cast_3 = tensor.cast %1 : tensor<?x?xf32> to tensor<4x8xf32>
//  CHECK-NEXT:   return %cast_3, %1 : tensor<4x8xf32>, tensor<?x?xf32>
//  CHECK-NEXT:   ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   return %0, %cast_2 : tensor<4x8xf32>, tensor<?x?xf32>
//  CHECK-NEXT: }
func.func @cast_consumer(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>, %p: i1)
    -> (tensor<4x8xf32>, tensor<?x?xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<4x8xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  %3 = tensor.cast %2 : tensor<?x?xf32> to tensor<4x8xf32>
  return %3, %2 : tensor<4x8xf32>, tensor<?x?xf32>
^bb2:
  return %1, %0 : tensor<4x8xf32>, tensor<?x?xf32>
}

// -----

// pack / unpack: untiled sizes known on one side become static on the other; casts of
// the operands fold in, making a constant tile static; a splat unpacks to a splat.
// CHECK-LABEL: func.func @pack_shapes(
//  CHECK-NEXT:   %cst = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
//  CHECK-NEXT:   %cast = tensor.cast %arg0 : tensor<?x?x?xf32> to tensor<2x?x5xf32>
//  CHECK-NEXT:   %pack = linalg.pack %cast outer_dims_perm = [2, 1, 0] inner_dims_pos = [1] inner_tiles = [8] into %arg1 : tensor<2x?x5xf32> -> tensor<5x?x2x8xf32>
//  CHECK-NEXT:   %cast_0 = tensor.cast %arg2 : tensor<?x?x5x8xf32> to tensor<?x3x5x8xf32>
//  CHECK-NEXT:   %cast_1 = tensor.cast %arg3 : tensor<3x?x?xf32> to tensor<3x5x?xf32>
//  CHECK-NEXT:   %unpack = linalg.unpack %cast_0 outer_dims_perm = [2, 0, 1] inner_dims_pos = [2] inner_tiles = [8] into %cast_1 : tensor<?x3x5x8xf32> -> tensor<3x5x?xf32>
//  CHECK-NEXT:   %cast_2 = tensor.cast %unpack : tensor<3x5x?xf32> to tensor<3x?x?xf32>
//  CHECK-NEXT:   %pack_3 = linalg.pack %arg5 padding_value(%arg6 : i32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %arg4 {keep} : tensor<7x?xi32> -> tensor<1x1x8x1xi32>
//  CHECK-NEXT:   return %pack, %cast_2, %pack_3, %cst : tensor<5x?x2x8xf32>, tensor<3x?x?xf32>, tensor<1x1x8x1xi32>, tensor<16x16xf32>
//  CHECK-NEXT: }
func.func @pack_shapes(%s: tensor<?x?x?xf32>, %d: tensor<5x?x2x8xf32>, %u: tensor<?x?x5x8xf32>,
                       %v: tensor<3x?x?xf32>, %w: tensor<1x1x8x1xi32>, %x: tensor<7x?xi32>,
                       %pad: i32) -> (tensor<5x?x2x8xf32>, tensor<3x?x?xf32>, tensor<1x1x8x1xi32>, tensor<16x16xf32>) {
  %0 = linalg.pack %s outer_dims_perm = [2, 1, 0] inner_dims_pos = [1] inner_tiles = [8] into %d : tensor<?x?x?xf32> -> tensor<5x?x2x8xf32>
  %1 = linalg.unpack %u outer_dims_perm = [2, 0, 1] inner_dims_pos = [2] inner_tiles = [8] into %v : tensor<?x?x5x8xf32> -> tensor<3x?x?xf32>
  %cast = tensor.cast %w : tensor<1x1x8x1xi32> to tensor<1x1x?x1xi32>
  %c8 = arith.constant 8 : index
  %2 = linalg.pack %x padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [%c8, 1] into %cast {keep} : tensor<7x?xi32> -> tensor<1x1x?x1xi32>
  %3 = tensor.cast %2 : tensor<1x1x?x1xi32> to tensor<1x1x8x1xi32>
  %splat = arith.constant dense<2.0> : tensor<2x2x8x8xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %4 = linalg.unpack %splat inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<2x2x8x8xf32> -> tensor<16x16xf32>
  return %0, %1, %3, %4 : tensor<5x?x2x8xf32>, tensor<3x?x?xf32>, tensor<1x1x8x1xi32>, tensor<16x16xf32>
}

// -----

// Pads and inserts of pads over a fill by the pad value; concats of fills by one value.
// CHECK-LABEL: func.func @fill_pads(
//  CHECK-NEXT:   %0 = linalg.fill ins(%arg0 : f32) outs(%arg2 : tensor<4x5xf32>) -> tensor<4x5xf32>
//  CHECK-NEXT:   %1 = tensor.empty() : tensor<6x8xf32>
//  CHECK-NEXT:   %2 = linalg.fill ins(%arg0 : f32) outs(%1 : tensor<6x8xf32>) -> tensor<6x8xf32>
//  CHECK-NEXT:   %padded = tensor.pad %0 low[1, 2] high[1, 1] {
//  CHECK-NEXT:   ^bb0(%arg8: index, %arg9: index):
//  CHECK-NEXT:   tensor.yield %arg1 : f32
//  CHECK-NEXT:   } : tensor<4x5xf32> to tensor<6x8xf32>
//  CHECK-NEXT:   %3 = linalg.fill ins(%arg0 : f32) outs(%arg4 : tensor<8x8xf32>) -> tensor<8x8xf32>
//  CHECK-NEXT:   %padded_0 = tensor.pad %arg3 low[1, 0] high[0, 1] {
//  CHECK-NEXT:   ^bb0(%arg8: index, %arg9: index):
//  CHECK-NEXT:   tensor.yield %arg0 : f32
//  CHECK-NEXT:   } : tensor<3x3xf32> to tensor<4x4xf32>
//  CHECK-NEXT:   %inserted_slice = tensor.insert_slice %arg5 into %3[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
//  CHECK-NEXT:   %inserted_slice_1 = tensor.insert_slice %arg3 into %inserted_slice[5, 4] [3, 3] [1, 1] : tensor<3x3xf32> into tensor<8x8xf32>
//  CHECK-NEXT:   %inserted_slice_2 = tensor.insert_slice %arg5 into %3[3, 3] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
//  CHECK-NEXT:   %inserted_slice_3 = tensor.insert_slice %padded_0 into %inserted_slice_2[2, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
//  CHECK-NEXT:   %concat = tensor.concat dim(0) %arg6, %arg7 : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
//  CHECK-NEXT:   %4 = linalg.fill ins(%arg0 : f32) outs(%concat : tensor<5x?xf32>) -> tensor<5x?xf32>
//  CHECK-NEXT:   return %2, %padded, %inserted_slice_1, %inserted_slice_3, %4 : tensor<6x8xf32>, tensor<6x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<5x?xf32>
//  CHECK-NEXT: }
func.func @fill_pads(%v: f32, %w: f32, %e: tensor<4x5xf32>, %x: tensor<3x3xf32>, %big: tensor<8x8xf32>,
                     %a: tensor<2x2xf32>, %b: tensor<2x?xf32>, %c: tensor<3x?xf32>)
    -> (tensor<6x8xf32>, tensor<6x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<5x?xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %p = tensor.pad %f low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x5xf32> to tensor<6x8xf32>
  %q = tensor.pad %f low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %w : f32
  } : tensor<4x5xf32> to tensor<6x8xf32>
  %g = linalg.fill ins(%v : f32) outs(%big : tensor<8x8xf32>) -> tensor<8x8xf32>
  %px = tensor.pad %x low[1, 0] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x3xf32> to tensor<4x4xf32>
  %i0 = tensor.insert_slice %a into %g[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
  %i1 = tensor.insert_slice %px into %i0[4, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %j0 = tensor.insert_slice %a into %g[3, 3] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
  %j1 = tensor.insert_slice %px into %j0[2, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %fb = linalg.fill ins(%v : f32) outs(%b : tensor<2x?xf32>) -> tensor<2x?xf32>
  %fc = linalg.fill ins(%v : f32) outs(%c : tensor<3x?xf32>) -> tensor<3x?xf32>
  %cat = tensor.concat dim(0) %fb, %fc : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
  return %p, %q, %i1, %j1, %cat : tensor<6x8xf32>, tensor<6x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<5x?xf32>
}
