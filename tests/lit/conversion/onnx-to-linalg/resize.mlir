// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// (GridSample, below: the grid components and the tap window)
// CHECK-DAG: #[[GY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, 1)>
// CHECK-DAG: #[[GX:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, 0)>
// CHECK-DAG: #[[TAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>

// Linear resize along one axis: a table of source positions and weights per output
// position and tap ([3, 2], coordinates in f64), then one parallel generic over the
// result reading the table at taps 0 and 1 and summing both weighted reads (no fill,
// no reduction loop: [Note: resampling loops]).
// CHECK-DAG: #[[TAP0:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, 0)>
// CHECK-DAG: #[[TAP1:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, 1)>
// CHECK-LABEL: func.func @resize_linear
// CHECK: %[[T:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%{{.*}}, %{{.*}} : tensor<3x2xindex>, tensor<3x2xf32>)
// CHECK: linalg.index 0 : index
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
// CHECK: math.floor
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: arith.minsi
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: linalg.yield %{{.*}}, %{{.*}} : index, f32
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[TAP0]], #[[TAP0]], #[[TAP1]], #[[TAP1]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T]]#0, %[[T]]#1, %[[T]]#0, %[[T]]#1 : tensor<3x2xindex>, tensor<3x2xf32>, tensor<3x2xindex>, tensor<3x2xf32>)
// CHECK-NEXT: ^bb0(%[[I0:.*]]: index, %[[W0:.*]]: f32, %[[I1:.*]]: index, %[[W1:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[E0:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[I0]]] : tensor<1x1x4x6xf32>
// CHECK: %[[P0:.*]] = arith.mulf %[[W0]], %[[E0]] : f32
// CHECK: %[[E1:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[I1]]] : tensor<1x1x4x6xf32>
// CHECK: %[[P1:.*]] = arith.mulf %[[W1]], %[[E1]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK: linalg.yield %[[S]] : f32
func.func @resize_linear(%x: tensor<1x1x4x6xf32>) -> tensor<1x1x4x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 1.0, 0.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "linear"}> : (tensor<1x1x4x6xf32>, none, tensor<4xf32>) -> tensor<1x1x4x3xf32>
  return %0 : tensor<1x1x4x3xf32>
}

// A 2-D upsampling by equal factors resizes W (the inner axis, gathers) first, on the
// input's 4 rows, then H (reads whole rows at two positions) into the result; a
// shrinking axis goes first whatever its place (here H, 8 -> 4, before W, 4 -> 8).
// CHECK-LABEL: func.func @resize_order
// CHECK: tensor.empty() : tensor<1x2x4x16xf32>
// CHECK: tensor.empty() : tensor<1x2x16x16xf32>
// CHECK: tensor.empty() : tensor<1x2x4x8xf32>
// CHECK: tensor.empty() : tensor<1x2x4x16xf32>
// CHECK: return
func.func @resize_order(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x8x8xf32>) -> (tensor<1x2x16x16xf32>, tensor<1x2x4x16xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 4.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "linear"}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>) -> tensor<1x2x16x16xf32>
  %t = "onnx.Constant"() <{value = dense<[1.0, 1.0, 0.5, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = "onnx.Resize"(%y, %n, %t) <{mode = "linear"}> : (tensor<1x2x8x8xf32>, none, tensor<4xf32>) -> tensor<1x2x4x16xf32>
  return %0, %1 : tensor<1x2x16x16xf32>, tensor<1x2x4x16xf32>
}

// A pass along an outer axis (H of a 2-D linear upsampling, after W's tabled gathers)
// computes its two taps' positions and weights in its body from the row index alone (no
// table operands: LLVM hoists them out of the inner loop over W, which it vectorizes);
// with exclude_outside the weights are normalized over the taps and the H pass reads
// tables as the inner pass does.
// CHECK-LABEL: func.func @resize_outer_inline
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<8x2xindex>, tensor<8x2xf32>)
// CHECK: %[[W:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x2xindex>, tensor<8x2xf32>, tensor<8x2xindex>, tensor<8x2xf32>) outs(%{{.*}} : tensor<1x2x4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x2x8x8xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK: %[[R:.*]] = linalg.index 2 : index
// CHECK: math.floor
// CHECK: tensor.extract %[[W]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x2x4x8xf32>
// CHECK: tensor.extract %[[W]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x2x4x8xf32>
// CHECK: linalg.yield
// CHECK-LABEL: func.func @resize_outer_normalized
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<8x4xindex>, tensor<8x4xf32>, {{.*}}) outs(%{{.*}} : tensor<1x2x8x8xf32>)
func.func @resize_outer_inline(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x8x8xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "linear"}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>) -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}
func.func @resize_outer_normalized(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x8x8xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "cubic", exclude_outside = 1 : i64}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>) -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// Nearest: one table of positions per resized axis, then one gather over the result.
// CHECK-LABEL: func.func @resize_nearest
// CHECK: %[[H:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xindex>)
// CHECK: arith.cmpf ogt
// CHECK: %[[W:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6xindex>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[H]], %[[W]] : tensor<4xindex>, tensor<6xindex>)
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %in, %in_{{.*}}] : tensor<1x1x2x2xf32>
func.func @resize_nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x6xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "nearest"}> : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// GridSample: loops over (N, C, H, W) and a 2x2 window of taps (the window tensor only
// gives the tap loops their size); the grid lists x first.
// CHECK-LABEL: func.func @grid_sample
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[GY]], #[[GX]], #[[TAP]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg1, %arg1, %[[WIN]] :
// CHECK: tensor.extract %arg0
// CHECK: arith.select
func.func @grid_sample(%x: tensor<1x2x5x6xf32>, %g: tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32> {
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x2x5x6xf32>, tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %0 : tensor<1x2x3x4xf32>
}
