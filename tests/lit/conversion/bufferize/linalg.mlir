// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | filecheck %s
// CHECK: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<0.000000e+00> alignment = 64

// Destination-style linalg ops write their `outs` buffers: in place into the buffer of a
// tensor.empty or of a previous result, into a copy of a constant. iree-opt prints the
// same for this file.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @matmul_relu(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>) -> memref<4x16xf32> {
//       CHECK: %cst = arith.constant 0.000000e+00 : f32
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4x16xf32>
//       CHECK: linalg.fill ins(%cst : f32) outs(%alloc : memref<4x16xf32>)
//       CHECK: linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%alloc : memref<4x16xf32>)
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4x16xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<4x16xf32>) outs(%alloc_0 : memref<4x16xf32>) {
//       CHECK: %0 = arith.maximumf %in, %cst : f32
//       CHECK: linalg.yield %0 : f32
//       CHECK: return %alloc_0 : memref<4x16xf32>
func.func @matmul_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @accumulate_into_constant(%arg0: memref<4x8xf32>) -> memref<4xf32> {
//       CHECK: %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: linalg.reduce ins(%arg0 : memref<4x8xf32>) outs(%alloc : memref<4xf32>) dimensions = [1]
//       CHECK: (%in: f32, %init: f32) {
//       CHECK: %1 = arith.addf %in, %init : f32
//       CHECK: linalg.yield %1 : f32
//       CHECK: return %alloc : memref<4xf32>
func.func @accumulate_into_constant(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %init = arith.constant dense<0.0> : tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @conv_pool(%arg0: memref<1x3x8x8xf32>, %arg1: memref<4x3x3x3xf32>) -> memref<1x4x3x3xf32> {
//       CHECK: %cst = arith.constant 0.000000e+00 : f32
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<1x4x6x6xf32>
//       CHECK: linalg.fill ins(%cst : f32) outs(%alloc : memref<1x4x6x6xf32>)
//       CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%alloc : memref<1x4x6x6xf32>)
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<2x2xf32>
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<1x4x3x3xf32>
//       CHECK: linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<1x4x3x3xf32>)
//       CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%alloc, %alloc_0 : memref<1x4x6x6xf32>, memref<2x2xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>)
//       CHECK: return %alloc_1 : memref<1x4x3x3xf32>
func.func @conv_pool(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x4x3x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%c, %k : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %p : tensor<1x4x3x3xf32>
}

// CHECK-LABEL: func.func @transpose_softmax(%arg0: memref<2x3xf32>) -> memref<3x2xf32> {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<3x2xf32>
//       CHECK: linalg.transpose ins(%arg0 : memref<2x3xf32>) outs(%alloc : memref<3x2xf32>) permutation = [1, 0]
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<3x2xf32>
//       CHECK: linalg.softmax dimension(1) ins(%alloc : memref<3x2xf32>) outs(%alloc_0 : memref<3x2xf32>)
//       CHECK: return %alloc_0 : memref<3x2xf32>
func.func @transpose_softmax(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x2xf32>
  %s = linalg.softmax dimension(1) ins(%t : tensor<3x2xf32>) outs(%e2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @gather_in_payload(%arg0: memref<5x4xf32>, %arg1: memref<3xi64>) -> memref<3x4xf32> {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<3x4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : memref<3xi64>) outs(%alloc : memref<3x4xf32>) {
//       CHECK: %0 = arith.index_cast %in : i64 to index
//       CHECK: %1 = linalg.index 1 : index
//       CHECK: %2 = memref.load %arg0[%0, %1] : memref<5x4xf32>
//       CHECK: linalg.yield %2 : f32
//       CHECK: return %alloc : memref<3x4xf32>
func.func @gather_in_payload(%table: tensor<5x4xf32>, %idx: tensor<3xi64>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%i: i64, %o: f32):
    %ii = arith.index_cast %i : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%ii, %j] : tensor<5x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @reuse_input_buffer(%arg0: memref<4x4xf32>) -> memref<4x4xf32> {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4x4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x4xf32>) outs(%alloc : memref<4x4xf32>) {
//       CHECK: %0 = arith.negf %in : f32
//       CHECK: linalg.yield %0 : f32
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<4x4xf32>) outs(%alloc : memref<4x4xf32>) {
//       CHECK: %0 = arith.mulf %in, %in : f32
//       CHECK: linalg.yield %0 : f32
//       CHECK: return %alloc : memref<4x4xf32>
func.func @reuse_input_buffer(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %v : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}
