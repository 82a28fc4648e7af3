// RUN: strata-opt %s --strata-linalg-collapse-dims | filecheck %s

// Loops of trip count one dropped, adjacent loops over contiguous memory merged (see
// [Note: when two loops merge] in strata/transforms/linalg/collapse_dims.py). The output
// parses in iree-opt (upstream MLIR), checked by hand.

// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$SCALAR2:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$SCALAR1:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$T2:.*]] = affine_map<(d0, d1) -> (d1, d0)>

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b4 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#s4 = affine_map<(d0, d1, d2, d3) -> ()>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d0)>
#t3 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1, d2) -> (d0)>

// A bias [C, 1, 1] and ReLU on a batch-1 7x7 map: the unit batch loop is dropped, H and W
// merge (every operand reads them as one run, or not at all), the bias's unit dims fold.
// CHECK-LABEL: func.func @bias_relu6(
//  CHECK-NEXT: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x960x7x7xf32> into memref<960x49xf32>
//  CHECK-NEXT: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2]] : memref<960x1x1xf32> into memref<960xf32>
//  CHECK-NEXT: %[[Y:.*]] = memref.collapse_shape %arg3 {{\[}}[0, 1], [2, 3]] : memref<1x960x7x7xf32> into memref<960x49xf32>
//  CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$SCALAR2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[B]], %arg2 : memref<960x49xf32>, memref<960xf32>, memref<f32>) outs(%[[Y]] : memref<960x49xf32>)
func.func @bias_relu6(%x: memref<1x960x7x7xf32>, %b: memref<960x1x1xf32>, %lo: memref<f32>, %y: memref<1x960x7x7xf32>) {
  linalg.generic {indexing_maps = [#b4, #bias, #s4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b, %lo : memref<1x960x7x7xf32>, memref<960x1x1xf32>, memref<f32>) outs(%y : memref<1x960x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %l: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    %1 = arith.maximumf %0, %l : f32
    linalg.yield %1 : f32
  }
  return
}

// Fully elementwise: one loop of C*H*W.
// CHECK-LABEL: func.func @elementwise(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : memref<1x672x14x14xf32> into memref<131712xf32>
//       CHECK: memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3]] : memref<1x672x14x14xf32> into memref<131712xf32>
//       CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
func.func @elementwise(%x: memref<1x672x14x14xf32>, %y: memref<1x672x14x14xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x672x14x14xf32>) outs(%y : memref<1x672x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return
}

// The interior of a padded buffer: rows are not contiguous (58 != 56): nothing merges.
// CHECK-LABEL: func.func @padded_interior(
//   CHECK-NOT: memref.collapse_shape
//       CHECK: iterator_types = ["parallel", "parallel", "parallel"]
func.func @padded_interior(%a: memref<64x56x56xf32>, %p: memref<64x58x58xf32>) {
  %s = memref.subview %p[0, 1, 1] [64, 56, 56] [1, 1, 1] : memref<64x58x58xf32> to memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<64x56x56xf32>) outs(%s : memref<64x56x56xf32, strided<[3364, 58, 1], offset: 59>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// A slice of whole channels is one run (static strides 3136 = 56 * 56, 56 = 1 * 56).
// CHECK-LABEL: func.func @channel_slice(
//       CHECK: memref.collapse_shape %subview {{\[}}[0, 1, 2]] : memref<32x56x56xf32, strided<[3136, 56, 1], offset: 50176>> into memref<100352xf32, strided<[1], offset: 50176>>
//       CHECK: iterator_types = ["parallel"]
func.func @channel_slice(%a: memref<32x56x56xf32>, %p: memref<64x56x56xf32>) {
  %s = memref.subview %p[16, 0, 0] [32, 56, 56] [1, 1, 1] : memref<64x56x56xf32> to memref<32x56x56xf32, strided<[3136, 56, 1], offset: 50176>>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<32x56x56xf32>) outs(%s : memref<32x56x56xf32, strided<[3136, 56, 1], offset: 50176>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// A transposed read: the loops are not in the same order in both operands.
// CHECK-LABEL: func.func @transposed(
//   CHECK-NOT: memref.collapse_shape
//       CHECK: iterator_types = ["parallel", "parallel", "parallel"]
func.func @transposed(%a: memref<8x16x32xf32>, %b: memref<8x32x16xf32>) {
  linalg.generic {indexing_maps = [#t3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<8x16x32xf32>) outs(%b : memref<8x32x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// A bias read along d0 only: d0 does not merge with d1 (a broadcast in one of the two
// dims), d1 and d2 do.
// CHECK-LABEL: func.func @channel_bias(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<8x16x32xf32> into memref<8x512xf32>
//   CHECK-NOT: memref.collapse_shape %arg1
//       CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %arg1 : memref<8x512xf32>, memref<8xf32>)
func.func @channel_bias(%a: memref<8x16x32xf32>, %c: memref<8xf32>, %b: memref<8x16x32xf32>) {
  linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %c : memref<8x16x32xf32>, memref<8xf32>) outs(%b : memref<8x16x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  }
  return
}

// Dynamic sizes with the identity layout are contiguous.
// CHECK-LABEL: func.func @dynamic(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<?x?x4xf32> into memref<?xf32>
//       CHECK: iterator_types = ["parallel"]
func.func @dynamic(%a: memref<?x?x4xf32>, %b: memref<?x?x4xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<?x?x4xf32>) outs(%b : memref<?x?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// A dynamic stride is never taken as contiguous.
// CHECK-LABEL: func.func @dynamic_strides(
//   CHECK-NOT: memref.collapse_shape
//       CHECK: iterator_types = ["parallel", "parallel"]
func.func @dynamic_strides(%a: memref<8x16xf32, strided<[?, 1], offset: ?>>, %b: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x16xf32, strided<[?, 1], offset: ?>>) outs(%b : memref<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// Reductions merge with reductions: a sum over H and W is one sum over H*W.
// CHECK-LABEL: func.func @sum_hw(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x64x7x7xf32> into memref<64x49xf32>
//       CHECK: iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : memref<64x49xf32>) outs(%arg1 : memref<64xf32>)
func.func @sum_hw(%a: memref<1x64x7x7xf32>, %s: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a : memref<1x64x7x7xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// linalg.index of a dropped unit loop is 0; loops read by linalg.index do not merge,
// the others are renumbered.
// CHECK-LABEL: func.func @index(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<1x8x16xf32> into memref<8x16xf32>
//       CHECK: iterator_types = ["parallel", "parallel"]
//       CHECK:   %[[Z:.*]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
//  CHECK-NEXT:   arith.addi %[[Z]], %[[J]] : index
func.func @index(%a: memref<1x8x16xf32>, %b: memref<1x8x16xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<1x8x16xf32>) outs(%b : memref<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 2 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %0 = arith.addf %in, %f : f32
    linalg.yield %0 : f32
  }
  return
}

// Named ops with something to collapse become generic ops first.
// CHECK-LABEL: func.func @named(
//       CHECK: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<4x8x16xf32> into memref<512xf32>
//  CHECK-NEXT: linalg.generic {indexing_maps = [#[[$SCALAR1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%arg2 : f32) outs(%[[A]] : memref<512xf32>)
//       CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%{{.*}} : memref<512xf32>) outs(%{{.*}} : memref<512xf32>)
//   CHECK-NOT: linalg.fill
//   CHECK-NOT: linalg.copy
func.func @named(%a: memref<4x8x16xf32>, %b: memref<4x8x16xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%a : memref<4x8x16xf32>)
  linalg.copy ins(%a : memref<4x8x16xf32>) outs(%b : memref<4x8x16xf32>)
  return
}

// On tensors: operands through tensor.collapse_shape, the result expanded back.
// CHECK-LABEL: func.func @tensors(
//  CHECK-NEXT: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2]] : tensor<1x8x16xf32> into tensor<128xf32>
//  CHECK-NEXT: %[[I:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2]] : tensor<1x8x16xf32> into tensor<128xf32>
//  CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]] : tensor<128xf32>) outs(%[[I]] : tensor<128xf32>)
//       CHECK: } -> tensor<128xf32>
//  CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [1, 8, 16] : tensor<128xf32> into tensor<1x8x16xf32>
//  CHECK-NEXT: return %[[E]]
func.func @tensors(%a: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<1x8x16xf32>) outs(%a : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.negf %in : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x16xf32>
  return %0 : tensor<1x8x16xf32>
}

// Window loops (in affine expressions) stay; batch and channel merge.
// CHECK-LABEL: func.func @pool(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : memref<2x8x9x9xf32> into memref<16x9x9xf32>
//       CHECK: memref.collapse_shape %arg2 {{\[}}[0, 1], [2], [3]] : memref<2x8x7x7xf32> into memref<16x7x7xf32>
//       CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
func.func @pool(%a: memref<2x8x9x9xf32>, %w: memref<3x3xf32>, %o: memref<2x8x7x7xf32>) {
  linalg.pooling_nchw_max ins(%a, %w : memref<2x8x9x9xf32>, memref<3x3xf32>) outs(%o : memref<2x8x7x7xf32>)
  return
}

// NCHW -> NHWC: H and W stay one run in both operands and merge; C does not.
// CHECK-LABEL: func.func @nchw_to_nhwc(
//       CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x32x7x7xf32> into memref<32x49xf32>
//       CHECK: memref.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : memref<1x7x7x32xf32> into memref<49x32xf32>
//       CHECK: linalg.generic {indexing_maps = [#[[$T2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
func.func @nchw_to_nhwc(%x: memref<1x32x7x7xf32>, %y: memref<1x7x7x32xf32>) {
  linalg.transpose ins(%x : memref<1x32x7x7xf32>) outs(%y : memref<1x7x7x32xf32>) permutation = [0, 2, 3, 1]
  return
}

// Dynamic sizes on tensors: the expand_shape takes them from the init.
// CHECK-LABEL: func.func @tensors_dynamic(
//       CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : tensor<1x?x7x7xf32> into tensor<?x49xf32>
//       CHECK: tensor.collapse_shape %arg1 {{\[}}[0, 1, 2]] : tensor<?x1x1xf32> into tensor<?xf32>
//       CHECK: iterator_types = ["parallel", "parallel"]
//       CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<1x?x7x7xf32>
//  CHECK-NEXT: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [1, %[[D]], 7, 7] : tensor<?x49xf32> into tensor<1x?x7x7xf32>
func.func @tensors_dynamic(%a: tensor<1x?x7x7xf32>, %b: tensor<?x1x1xf32>) -> tensor<1x?x7x7xf32> {
  %0 = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<1x?x7x7xf32>, tensor<?x1x1xf32>) outs(%a : tensor<1x?x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x?x7x7xf32>
  return %0 : tensor<1x?x7x7xf32>
}

// linalg.reduce on tensors: the two reduced dims merge; the init is not reshaped.
// CHECK-LABEL: func.func @tensors_reduce(
//       CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1, 2]] : tensor<4x5x6xf32> into tensor<4x30xf32>
//  CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[C]] : tensor<4x30xf32>) outs(%arg1 : tensor<4xf32>)
//   CHECK-NOT: tensor.expand_shape
func.func @tensors_reduce(%a: tensor<4x5x6xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%a : tensor<4x5x6xf32>) outs(%i : tensor<4xf32>) dimensions = [1, 2]
    (%in: f32, %init: f32) {
      %1 = arith.addf %in, %init : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<4xf32>
}

// A 1x1 max-pool window at stride 2 over a 2x2 image, all loops of trip count one (ONNX's
// maxpool_2d_ceil_output_size_reduce_by_one): dropping the output loops would make the
// window loop a plain index over the 2-wide image dim, and the loop would take that dim's
// extent (2 iterations, not 1). Left alone.
// CHECK-LABEL: func.func @unit_window_at_stride_2(
//   CHECK-NOT: memref.collapse_shape
//       CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
func.func @unit_window_at_stride_2(%x: memref<1x1x2x2xf32>, %w: memref<1x1xf32>, %y: memref<1x1x1x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : memref<1x1x2x2xf32>, memref<1x1xf32>) outs(%y : memref<1x1x1x1xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.maxnumf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}
