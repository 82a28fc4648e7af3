// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// (GridSample, below: the grid components and the tap window)
// CHECK-DAG: #[[GY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, 1)>
// CHECK-DAG: #[[GX:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, 0)>
// CHECK-DAG: #[[TAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>

// Linear resize along one axis: a table of source positions and weights per output
// position and tap ([3, 2], coordinates in f64), then a gather-and-sum over the taps.
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
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[T]]#0, %[[T]]#1 : tensor<3x2xindex>, tensor<3x2xf32>)
// CHECK: %[[E:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %in] : tensor<1x1x4x6xf32>
// CHECK: arith.mulf %{{.*}}, %[[E]] : f32
// CHECK: arith.addf
func.func @resize_linear(%x: tensor<1x1x4x6xf32>) -> tensor<1x1x4x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 1.0, 0.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s) <{mode = "linear"}> : (tensor<1x1x4x6xf32>, none, tensor<4xf32>) -> tensor<1x1x4x3xf32>
  return %0 : tensor<1x1x4x3xf32>
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
