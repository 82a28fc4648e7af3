// tosa-to-linalg-named: matmul as (quantized_)batch_matmul into a zero-filled init (a
// broadcast batch as a generic contraction), conv2d as conv_2d_nhwc_fhwc(_q) into the
// broadcast bias (tensor.pad for padding, with the input zero point), depthwise_conv2d
// as depthwise_conv_2d_nhwc_hwcm + collapse_shape + bias, conv3d with its weights
// transposed to DHWIO, max_pool2d as pooling_nhwc_max (padding with the lowest value),
// avg_pool2d as pooling_nhwc_sum divided by the unpadded window size, transpose as
// linalg.transpose (upstream test/Conversion/TosaToLinalg/tosa-to-linalg-named.mlir
// documents the same structure).
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named))" | filecheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x5x6xf32>
// CHECK-NEXT: %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x5x6xf32>) -> tensor<1x5x6xf32>
// CHECK-NEXT: %3 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x5x3xf32>, tensor<1x3x6xf32>) outs(%2 : tensor<1x5x6xf32>) -> tensor<1x5x6xf32>
// CHECK-NEXT: return %3 : tensor<1x5x6xf32>
func.func @matmul(%a: tensor<1x5x3xf32>, %b: tensor<1x3x6xf32>) -> tensor<1x5x6xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x5x3xf32>, tensor<1x3x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  return %0 : tensor<1x5x6xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_quantized(
// CHECK-NEXT: %0 = tosa.const  values(dense<1> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tosa.const  values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %2 = tensor.empty() : tensor<1x5x6xi32>
// CHECK-NEXT: %3 = linalg.fill ins(%c0_i32 : i32) outs(%2 : tensor<1x5x6xi32>) -> tensor<1x5x6xi32>
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %4 = linalg.quantized_batch_matmul ins(%arg0, %arg1, %c1_i32, %c2_i32 : tensor<1x5x3xi8>, tensor<1x3x6xi8>, i32, i32) outs(%3 : tensor<1x5x6xi32>) -> tensor<1x5x6xi32>
// CHECK-NEXT: return %4 : tensor<1x5x6xi32>
func.func @matmul_quantized(%a: tensor<1x5x3xi8>, %b: tensor<1x3x6xi8>) -> tensor<1x5x6xi32> {
  %za = tosa.const values(dense<1> : tensor<1xi8>) : () -> tensor<1xi8>
  %zb = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x5x3xi8>, tensor<1x3x6xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6xi32>
  return %0 : tensor<1x5x6xi32>
}

// -----

// CHECK-LABEL: func.func @matmul_dyn_batch(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %arg0, %c0 : tensor<?x5x3xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty(%dim) : tensor<?x5x6xf32>
// CHECK-NEXT: %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x5x6xf32>) -> tensor<?x5x6xf32>
// CHECK-NEXT: %3 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<?x5x3xf32>, tensor<?x3x6xf32>) outs(%2 : tensor<?x5x6xf32>) -> tensor<?x5x6xf32>
// CHECK-NEXT: return %3 : tensor<?x5x6xf32>
func.func @matmul_dyn_batch(%a: tensor<?x5x3xf32>, %b: tensor<?x3x6xf32>) -> tensor<?x5x6xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<?x5x3xf32>, tensor<?x3x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x5x6xf32>
  return %0 : tensor<?x5x6xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3) -> (0, d3, d2)>
// CHECK-DAG: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_broadcast_batch(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<4x5x6xf32>
// CHECK-NEXT: %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
// CHECK-NEXT: %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x5x3xf32>, tensor<1x3x6xf32>) outs(%2 : tensor<4x5x6xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT: %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT: %5 = arith.addf %out, %4 : f32
// CHECK-NEXT: linalg.yield %5 : f32
// CHECK-NEXT: } -> tensor<4x5x6xf32>
// CHECK-NEXT: return %3 : tensor<4x5x6xf32>
func.func @matmul_broadcast_batch(%a: tensor<4x5x3xf32>, %b: tensor<1x3x6xf32>) -> tensor<4x5x6xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<4x5x3xf32>, tensor<1x3x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x45x40x28xf32>
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<28xf32>) outs(%1 : tensor<1x45x40x28xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: linalg.yield %in : f32
// CHECK-NEXT: } -> tensor<1x45x40x28xf32>
// CHECK-NEXT: %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x49x42x27xf32>, tensor<28x3x3x27xf32>) outs(%2 : tensor<1x45x40x28xf32>) -> tensor<1x45x40x28xf32>
// CHECK-NEXT: return %3 : tensor<1x45x40x28xf32>
func.func @conv2d(%x: tensor<1x49x42x27xf32>, %w: tensor<28x3x3x27xf32>, %b: tensor<28xf32>) -> tensor<1x45x40x28xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([2, 1]) acc_type(f32) : (tensor<1x49x42x27xf32>, tensor<28x3x3x27xf32>, tensor<28xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x45x40x28xf32>
  return %0 : tensor<1x45x40x28xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_padded_quantized(
// CHECK-NEXT: %0 = tosa.const  values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %c-5_i8 = arith.constant -5 : i8
// CHECK-NEXT: %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
// CHECK-NEXT: ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
// CHECK-NEXT: tensor.yield %c-5_i8 : i8
// CHECK-NEXT: } : tensor<1x8x8x4xi8> to tensor<1x10x10x4xi8>
// CHECK-NEXT: %2 = tensor.empty() : tensor<1x8x8x2xi32>
// CHECK-NEXT: %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2xi32>) outs(%2 : tensor<1x8x8x2xi32>) {
// CHECK-NEXT: ^bb0(%in: i32, %out: i32):
// CHECK-NEXT: linalg.yield %in : i32
// CHECK-NEXT: } -> tensor<1x8x8x2xi32>
// CHECK-NEXT: %c-5_i32 = arith.constant -5 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %4 = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %arg1, %c-5_i32, %c0_i32 : tensor<1x10x10x4xi8>, tensor<2x3x3x4xi8>, i32, i32) outs(%3 : tensor<1x8x8x2xi32>) -> tensor<1x8x8x2xi32>
// CHECK-NEXT: return %4 : tensor<1x8x8x2xi32>
func.func @conv2d_padded_quantized(%x: tensor<1x8x8x4xi8>, %w: tensor<2x3x3x4xi8>, %b: tensor<2xi32>) -> tensor<1x8x8x2xi32> {
  %zx = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %zw = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %zx, %zw pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x8x8x4xi8>, tensor<2x3x3x4xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x2xi32>
  return %0 : tensor<1x8x8x2xi32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @depthwise_conv2d(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x5x5x3x11xf32>
// CHECK-NEXT: %2 = linalg.fill ins(%cst_0 : f32) outs(%1 : tensor<1x5x5x3x11xf32>) -> tensor<1x5x5x3x11xf32>
// CHECK-NEXT: %3 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x7x5x3xf32>, tensor<3x1x3x11xf32>) outs(%2 : tensor<1x5x5x3x11xf32>) -> tensor<1x5x5x3x11xf32>
// CHECK-NEXT: %collapsed = tensor.collapse_shape %3 [[0], [1], [2], [3, 4]] : tensor<1x5x5x3x11xf32> into tensor<1x5x5x33xf32>
// CHECK-NEXT: %4 = tensor.empty() : tensor<1x5x5x33xf32>
// CHECK-NEXT: %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed, %arg2 : tensor<1x5x5x33xf32>, tensor<33xf32>) outs(%4 : tensor<1x5x5x33xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT: %6 = arith.addf %in, %in_1 : f32
// CHECK-NEXT: linalg.yield %6 : f32
// CHECK-NEXT: } -> tensor<1x5x5x33xf32>
// CHECK-NEXT: return %5 : tensor<1x5x5x33xf32>
func.func @depthwise_conv2d(%x: tensor<1x7x5x3xf32>, %w: tensor<3x1x3x11xf32>, %b: tensor<33xf32>) -> tensor<1x5x5x33xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x7x5x3xf32>, tensor<3x1x3x11xf32>, tensor<33xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x33xf32>
  return %0 : tensor<1x5x5x33xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv3d(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x3x3x3x3xf32>
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<3xf32>) outs(%1 : tensor<1x3x3x3x3xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: linalg.yield %in : f32
// CHECK-NEXT: } -> tensor<1x3x3x3x3xf32>
// CHECK-NEXT: %3 = tensor.empty() : tensor<2x2x2x2x3xf32>
// CHECK-NEXT: %transposed = linalg.transpose ins(%arg1 : tensor<3x2x2x2x2xf32>) outs(%3 : tensor<2x2x2x2x3xf32>) permutation = [1, 2, 3, 4, 0]
// CHECK-NEXT: %4 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%arg0, %transposed : tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) outs(%2 : tensor<1x3x3x3x3xf32>) -> tensor<1x3x3x3x3xf32>
// CHECK-NEXT: return %4 : tensor<1x3x3x3x3xf32>
func.func @conv3d(%x: tensor<1x4x4x4x2xf32>, %w: tensor<3x2x2x2x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x3x3x3xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %b, %z, %z pad([0, 0, 0, 0, 0, 0]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32) : (tensor<1x4x4x4x2xf32>, tensor<3x2x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3x3xf32>
  return %0 : tensor<1x3x3x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool_padded(
// CHECK-NEXT: %cst = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %padded = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0] {
// CHECK-NEXT: ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
// CHECK-NEXT: tensor.yield %cst : f32
// CHECK-NEXT: } : tensor<1x6x34x62xf32> to tensor<1x6x35x62xf32>
// CHECK-NEXT: %cst_0 = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %0 = tensor.empty() : tensor<1x4x33x62xf32>
// CHECK-NEXT: %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x4x33x62xf32>) -> tensor<1x4x33x62xf32>
// CHECK-NEXT: %2 = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT: %3 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %2 : tensor<1x6x35x62xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x4x33x62xf32>) -> tensor<1x4x33x62xf32>
// CHECK-NEXT: return %3 : tensor<1x4x33x62xf32>
func.func @max_pool_padded(%x: tensor<1x6x34x62xf32>) -> tensor<1x4x33x62xf32> {
  %0 = tosa.max_pool2d %x kernel([3, 3]) stride([1, 1]) pad([0, 0, 0, 1]) : (tensor<1x6x34x62xf32>) -> tensor<1x4x33x62xf32>
  return %0 : tensor<1x4x33x62xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool_i8(
// CHECK-NEXT: %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT: %c-128_i8_0 = arith.constant -128 : i8
// CHECK-NEXT: %0 = tensor.empty() : tensor<1x4x32x62xi8>
// CHECK-NEXT: %1 = linalg.fill ins(%c-128_i8_0 : i8) outs(%0 : tensor<1x4x32x62xi8>) -> tensor<1x4x32x62xi8>
// CHECK-NEXT: %2 = tensor.empty() : tensor<3x3xi8>
// CHECK-NEXT: %3 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %2 : tensor<1x6x34x62xi8>, tensor<3x3xi8>) outs(%1 : tensor<1x4x32x62xi8>) -> tensor<1x4x32x62xi8>
// CHECK-NEXT: return %3 : tensor<1x4x32x62xi8>
func.func @max_pool_i8(%x: tensor<1x6x34x62xi8>) -> tensor<1x4x32x62xi8> {
  %0 = tosa.max_pool2d %x kernel([3, 3]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<1x6x34x62xi8>) -> tensor<1x4x32x62xi8>
  return %0 : tensor<1x4x32x62xi8>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @avg_pool(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
// CHECK-NEXT: ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
// CHECK-NEXT: tensor.yield %cst : f32
// CHECK-NEXT: } : tensor<1x6x34x62xf32> to tensor<1x8x36x62xf32>
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x5x33x62xf32>
// CHECK-NEXT: %2 = linalg.fill ins(%cst_0 : f32) outs(%1 : tensor<1x5x33x62xf32>) -> tensor<1x5x33x62xf32>
// CHECK-NEXT: %3 = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %4 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %3 : tensor<1x8x36x62xf32>, tensor<4x4xf32>) outs(%2 : tensor<1x5x33x62xf32>) -> tensor<1x5x33x62xf32>
// CHECK-NEXT: %5 = tensor.empty() : tensor<1x5x33x62xf32>
// CHECK-NEXT: %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x5x33x62xf32>) outs(%5 : tensor<1x5x33x62xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: %7 = linalg.index 1 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %8 = arith.muli %7, %c1 : index
// CHECK-NEXT: %c1_1 = arith.constant 1 : index
// CHECK-NEXT: %9 = arith.subi %8, %c1_1 : index
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %10 = arith.addi %9, %c4 : index
// CHECK-NEXT: %c6 = arith.constant 6 : index
// CHECK-NEXT: %11 = arith.minsi %10, %c6 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %12 = arith.maxsi %9, %c0 : index
// CHECK-NEXT: %13 = arith.subi %11, %12 : index
// CHECK-NEXT: %14 = linalg.index 2 : index
// CHECK-NEXT: %c1_2 = arith.constant 1 : index
// CHECK-NEXT: %15 = arith.muli %14, %c1_2 : index
// CHECK-NEXT: %c1_3 = arith.constant 1 : index
// CHECK-NEXT: %16 = arith.subi %15, %c1_3 : index
// CHECK-NEXT: %c4_4 = arith.constant 4 : index
// CHECK-NEXT: %17 = arith.addi %16, %c4_4 : index
// CHECK-NEXT: %c34 = arith.constant 34 : index
// CHECK-NEXT: %18 = arith.minsi %17, %c34 : index
// CHECK-NEXT: %c0_5 = arith.constant 0 : index
// CHECK-NEXT: %19 = arith.maxsi %16, %c0_5 : index
// CHECK-NEXT: %20 = arith.subi %18, %19 : index
// CHECK-NEXT: %21 = arith.muli %13, %20 : index
// CHECK-NEXT: %22 = arith.index_cast %21 : index to i32
// CHECK-NEXT: %23 = arith.sitofp %22 : i32 to f32
// CHECK-NEXT: %24 = arith.divf %in, %23 : f32
// CHECK-NEXT: linalg.yield %24 : f32
// CHECK-NEXT: } -> tensor<1x5x33x62xf32>
// CHECK-NEXT: return %6 : tensor<1x5x33x62xf32>
func.func @avg_pool(%x: tensor<1x6x34x62xf32>) -> tensor<1x5x33x62xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %z, %z kernel([4, 4]) stride([1, 1]) pad([1, 1, 1, 1]) acc_type(f32) : (tensor<1x6x34x62xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x33x62xf32>
  return %0 : tensor<1x5x33x62xf32>
}

// -----

// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT: %0 = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: %transposed = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%0 : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK-NEXT: return %transposed : tensor<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tosa.transpose %x perms([2, 0, 1]) : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

