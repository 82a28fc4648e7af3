// RUN: strata-opt %s --strata-linalg-fold-into-contractions | filecheck %s
// RUN: strata-opt %s --strata-linalg-fold-into-contractions --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map2 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #map7 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A bias added to a product (the zero fill of its init): the bias, broadcast, is the
// init; the generic that added it is gone.
// CHECK-LABEL: func.func @bias(
//  CHECK-NEXT: %0 = tensor.empty() : tensor<4x8xf32>
//  CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<8xf32>) outs(%0 : tensor<4x8xf32>) {
//  CHECK-NEXT: ^bb0(%in: f32, %out: f32):
//  CHECK-NEXT:   linalg.yield %in : f32
//  CHECK-NEXT: } -> tensor<4x8xf32>
//  CHECK-NEXT: %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%1 : tensor<4x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT: return %2
func.func @bias(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %x, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A chain of additions (bias, then a scaled residual): the addends, and the payload
// ops they need, make the init; a value from outside the payload is still read.
// CHECK-LABEL: func.func @bias_residual(
//  CHECK-NEXT: %0 = tensor.empty() : tensor<2x4x8xf32>
//  CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2, %arg3 : tensor<8xf32>, tensor<2x4x8xf32>) outs(%0 : tensor<2x4x8xf32>) {
//  CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
//  CHECK-NEXT:   %3 = arith.mulf %in_0, %arg4 : f32
//  CHECK-NEXT:   %4 = arith.addf %3, %in : f32
//  CHECK-NEXT:   linalg.yield %4 : f32
//  CHECK-NEXT: } -> tensor<2x4x8xf32>
//  CHECK-NEXT: %2 = linalg.batch_matmul indexing_maps = [#map4, #map5, #map6] ins(%arg0, %arg1 : tensor<2x4x16xf32>, tensor<16x8xf32>) outs(%1 : tensor<2x4x8xf32>)
//  CHECK-NEXT: return %2
func.func @bias_residual(%a: tensor<2x4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>, %res: tensor<2x4x8xf32>, %s: f32) -> tensor<2x4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %bias, %res : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%m: f32, %x: f32, %rr: f32, %o: f32):
    %sc = arith.mulf %rr, %s : f32
    %t = arith.addf %m, %x : f32
    %u = arith.addf %sc, %t : f32
    linalg.yield %u : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// The product read through an expand_shape (a Reshape after it): the init is made in
// the expanded shape and collapsed back.
// CHECK-LABEL: func.func @expanded(
//       CHECK: %expanded_0 = tensor.expand_shape %0 {{\[}}[0], [1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
//  CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map7, #map8], {{.*}} ins(%expanded : tensor<2x4xf32>) outs(%expanded_0 : tensor<2x4x2x4xf32>)
//       CHECK: %collapsed = tensor.collapse_shape %1 {{\[}}[0], [1], [2, 3]] : tensor<2x4x2x4xf32> into tensor<2x4x8xf32>
//  CHECK-NEXT: %2 = linalg.batch_matmul {{.*}} outs(%collapsed : tensor<2x4x8xf32>)
//  CHECK-NEXT: %expanded_1 = tensor.expand_shape %2
//  CHECK-NEXT: return %expanded_1
func.func @expanded(%a: tensor<2x4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<2x4x2x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %be = tensor.expand_shape %bias [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %re = tensor.expand_shape %r [[0], [1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
  %e2 = tensor.empty() : tensor<2x4x2x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%be, %re : tensor<2x4xf32>, tensor<2x4x2x4xf32>) outs(%e2 : tensor<2x4x2x4xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %x, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x2x4xf32>
  return %y : tensor<2x4x2x4xf32>
}

// An init that is not a zero fill: the addends are added to it.
// CHECK-LABEL: func.func @init_kept(
//  CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map, #map1], {{.*}} ins(%arg3 : tensor<8xf32>) outs(%arg2 : tensor<4x8xf32>) {
//  CHECK-NEXT: ^bb0(%in: f32, %out: f32):
//  CHECK-NEXT:   %2 = arith.addf %out, %in : f32
//       CHECK: %1 = linalg.matmul {{.*}} outs(%0 : tensor<4x8xf32>)
//  CHECK-NEXT: return %1
func.func @init_kept(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Not folded: a product with another user; a generic that does more than add (it
// would stay, so folding would add a pass instead of removing one); an addend that
// reads the generic's own init.
// CHECK-LABEL: func.func @not_folded(
//       CHECK: %1 = linalg.matmul {{.*}} outs(%arg3
//  CHECK-NEXT: %2 = linalg.generic {{.*}} ins(%arg2, %1
//       CHECK: %3 = linalg.matmul {{.*}} outs(%arg3
//  CHECK-NEXT: %4 = linalg.generic {{.*}} ins(%arg2, %3
//       CHECK: %5 = linalg.matmul {{.*}} outs(%arg3
//  CHECK-NEXT: %6 = linalg.generic {{.*}} ins(%5
//       CHECK: return %1, %2, %4, %6
func.func @not_folded(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>, %z: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e2 = tensor.empty() : tensor<4x8xf32>
  // another user of the product
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %x, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // more than additions: the generic stays anyway
  %r2 = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r2 : tensor<8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %x, %m : f32
    %c0 = arith.constant 0.0 : f32
    %t = arith.maximumf %s, %c0 : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  // the addend reads the generic's init
  %r3 = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r3 : tensor<4x8xf32>) outs(%z : tensor<4x8xf32>) {
  ^bb0(%m: f32, %o: f32):
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r, %y, %y2, %y3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Sizes read from the product and its zero fill (dynamic shapes) do not count as
// users: they are read from the fill's init instead.
// CHECK-LABEL: func.func @dims_of_product(
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %dim = tensor.dim %arg0, %c0 : tensor<?x16xf32>
//  CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x8xf32>
//  CHECK-NEXT: %1 = linalg.generic {{.*}} ins(%arg2 : tensor<8xf32>) outs(%0 : tensor<?x8xf32>)
//       CHECK: %2 = linalg.matmul {{.*}} outs(%1 : tensor<?x8xf32>)
//  CHECK-NEXT: return %2
func.func @dims_of_product(%a: tensor<?x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<?x8xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%d) : tensor<?x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dz = tensor.dim %z, %c0 : tensor<?x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x16xf32>, tensor<16x8xf32>) outs(%z : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dr = tensor.dim %r, %c0 : tensor<?x8xf32>
  %e2 = tensor.empty(%dr) : tensor<?x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r : tensor<8xf32>, tensor<?x8xf32>) outs(%e2 : tensor<?x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.addf %x, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
