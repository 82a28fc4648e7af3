// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// CHECK-DAG: #[[IN2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[IN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>

// Float max pooling skips NaN: NaN padding and accumulator, arith.maxnumf in a generic
// with a shape-only window (linalg.pooling_nchw_max's maximumf propagates NaN).
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NAN]] : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: %[[W:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN2]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[W]] : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x3x4x4xf32>)
// CHECK: arith.maxnumf
// CHECK-NOT: linalg.pooling_nchw_max
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

// ceil_mode: the second row of windows would start past the input and is not counted
// (onnxruntime and onnx.reference; ONNX's shape inference types it 1x1x2x2).
// CHECK-LABEL: func.func @max_pool_ceil
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x2xf32>)
// CHECK: return %{{.*}} : tensor<1x1x1x2xf32>
func.func @max_pool_ceil(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x1x2xf32> {
  %0 = "onnx.MaxPool"(%x) <{ceil_mode = 1 : si64, kernel_shape = [1, 2], strides = [2, 2]}> : (tensor<1x1x2x4xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// A kernel wider than the padded input has no window: an empty result, no pooling.
// CHECK-LABEL: func.func @average_pool_no_window
// CHECK-NOT: linalg.pooling
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x2x0x7xf32>
// CHECK: return %[[E]]
func.func @average_pool_no_window(%x: tensor<1x2x1x7xf32>) -> tensor<1x2x0x7xf32> {
  %0 = "onnx.AveragePool"(%x) <{kernel_shape = [2, 2], pads = [0, 0, 0, 1], strides = [2, 1]}> : (tensor<1x2x1x7xf32>) -> tensor<1x2x0x7xf32>
  return %0 : tensor<1x2x0x7xf32>
}
