// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>

// Max pooling: -inf padding and accumulator, the named op with a shape-only window.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEG]] : f32
// CHECK: %[[W:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<1x3x10x10xf32>, tensor<3x3xf32>)
func.func @max_pool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = "onnx.MaxPool"(%x) <{kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]}> : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// 3-D windows have no NCDHW named pooling: a generic reducing the window loops.
// CHECK-LABEL: func.func @average_pool_3d
// CHECK: linalg.generic {indexing_maps = [#[[IN3]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.addf
// CHECK: arith.constant 8.000000e+00 : f32
// CHECK: arith.divf
func.func @average_pool_3d(%x: tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = "onnx.AveragePool"(%x) <{kernel_shape = [2, 2, 2], strides = [2, 2, 2]}> : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// With padding not counted, each window's count comes from its position.
// CHECK-LABEL: func.func @average_pool_pads
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.generic
// CHECK: linalg.index 2 : index
// CHECK: arith.ceildivsi
// CHECK: arith.divf
func.func @average_pool_pads(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32> {
  %0 = "onnx.AveragePool"(%x) <{kernel_shape = [3, 3], pads = [1, 1, 1, 1]}> : (tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// Global pooling reduces to (N, C) and expands the unit spatial dims back.
// CHECK-LABEL: func.func @global_max
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2, 3]] output_shape [2, 3, 1, 1] : tensor<2x3xf32> into tensor<2x3x1x1xf32>
func.func @global_max(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = "onnx.GlobalMaxPool"(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}
