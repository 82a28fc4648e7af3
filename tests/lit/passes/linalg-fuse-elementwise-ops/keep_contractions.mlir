// RUN: strata-opt %s --linalg-fuse-elementwise-ops=keep-contractions=true | filecheck %s
// RUN: strata-opt %s --linalg-fuse-elementwise-ops | filecheck %s --check-prefix=UPSTREAM

// Strata's keep-contractions option (the CPU target's): no producer is fused into a
// contraction and no reshape is folded into one, so that the GEMM kernels still match
// it; other reductions still fuse. Upstream's default fuses both.

// CHECK-LABEL: func.func @scaled_operand(
//       CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg2
//       CHECK: arith.mulf
//       CHECK: linalg.generic {{.*}} ins(%[[S]], %arg1
//  CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
//  CHECK-NEXT:   arith.mulf %in, %in_0
//  CHECK-NEXT:   arith.addf %out
// UPSTREAM-LABEL: func.func @scaled_operand(
//       UPSTREAM: linalg.generic {{.*}} ins(%arg0, %arg2, %arg1
//   UPSTREAM-NOT: linalg.generic
func.func @scaled_operand(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %s: tensor<f32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<4x8xf32>, tensor<f32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%as, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @collapsed_batch(
//       CHECK: tensor.collapse_shape %arg0
//       CHECK: tensor.collapse_shape %arg1
//       CHECK: linalg.batch_matmul
//       CHECK: tensor.expand_shape
// UPSTREAM-LABEL: func.func @collapsed_batch(
//   UPSTREAM-NOT: linalg.batch_matmul
//       UPSTREAM: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x3x4x8xf32>, tensor<2x3x8x5xf32>)
func.func @collapsed_batch(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x8x5xf32>, %z: tensor<6x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x4x8xf32> into tensor<6x4x8xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x8x5xf32> into tensor<6x8x5xf32>
  %r = linalg.batch_matmul ins(%qc, %kc : tensor<6x4x8xf32>, tensor<6x8x5xf32>) outs(%z : tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
  %x = tensor.expand_shape %r [[0, 1], [2], [3]] output_shape [2, 3, 4, 5] : tensor<6x4x5xf32> into tensor<2x3x4x5xf32>
  return %x : tensor<2x3x4x5xf32>
}

// CHECK-LABEL: func.func @other_reduction(
//       CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
//       CHECK: math.exp
//  CHECK-NEXT: arith.addf
//   CHECK-NOT: linalg.generic
func.func @other_reduction(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = math.exp %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %o : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
