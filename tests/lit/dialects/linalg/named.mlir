// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #map2 = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @contractions(
// CHECK-NEXT: %0 = linalg.matvec ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>) outs(%arg2 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = linalg.vecmat ins(%0, %arg0 : tensor<4xf32>, tensor<4x8xf32>) outs(%arg1 : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = linalg.dot ins(%1, %arg1 : tensor<8xf32>, tensor<8xf32>) outs(%arg3 : tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %3 = linalg.batch_matvec ins(%arg4, %arg5 : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%arg6 : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %4 = linalg.mmt4d ins(%arg7, %arg8 : tensor<2x3x4x5xi8>, tensor<6x3x7x5xi8>) outs(%arg9 : tensor<2x6x4x7xi32>) -> tensor<2x6x4x7xi32>
// CHECK-NEXT: return %4 : tensor<2x6x4x7xi32>
func.func @contractions(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %w: tensor<4xf32>, %s: tensor<f32>, %ba: tensor<2x4x8xf32>, %bv: tensor<2x8xf32>, %bo: tensor<2x4xf32>, %l: tensor<2x3x4x5xi8>, %r: tensor<6x3x7x5xi8>, %acc: tensor<2x6x4x7xi32>) -> tensor<2x6x4x7xi32> {
  %0 = linalg.matvec ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%0, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.dot ins(%1, %v : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  %3 = linalg.batch_matvec ins(%ba, %bv : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%bo : tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = linalg.mmt4d ins(%l, %r : tensor<2x3x4x5xi8>, tensor<6x3x7x5xi8>) outs(%acc : tensor<2x6x4x7xi32>) -> tensor<2x6x4x7xi32>
  return %4 : tensor<2x6x4x7xi32>
}

// CHECK-LABEL: func.func @convolutions(
// CHECK-NEXT: %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%arg2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT: %1 = linalg.conv_2d_nhwc_hwcf ins(%arg3, %arg4 : tensor<1x9x9x3xf16>, tensor<3x3x3x8xf16>) outs(%arg5 : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
// CHECK-NEXT: %2 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg6 : tensor<1x3x9x9xf32>, tensor<3x3x3xf32>) outs(%arg7 : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
// CHECK-NEXT: return %0, %1, %2 : tensor<1x8x4x4xf32>, tensor<1x7x7x8xf32>, tensor<1x3x7x7xf32>
func.func @convolutions(%i: tensor<1x3x9x9xf32>, %k: tensor<8x3x3x3xf32>, %o: tensor<1x8x4x4xf32>, %ih: tensor<1x9x9x3xf16>, %kh: tensor<3x3x3x8xf16>, %oh: tensor<1x7x7x8xf32>, %dk: tensor<3x3x3xf32>, %do: tensor<1x3x7x7xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x7x7x8xf32>, tensor<1x3x7x7xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = linalg.conv_2d_nhwc_hwcf ins(%ih, %kh : tensor<1x9x9x3xf16>, tensor<3x3x3x8xf16>) outs(%oh : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  %2 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%i, %dk : tensor<1x3x9x9xf32>, tensor<3x3x3xf32>) outs(%do : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  return %0, %1, %2 : tensor<1x8x4x4xf32>, tensor<1x7x7x8xf32>, tensor<1x3x7x7xf32>
}

// CHECK-LABEL: func.func @poolings(
// CHECK-NEXT: %0 = linalg.pooling_nchw_max ins(%arg0, %arg1 : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%arg2 : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
// CHECK-NEXT: %1 = linalg.pooling_nchw_sum ins(%arg0, %arg1 : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%0 : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
// CHECK-NEXT: %2 = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg3, %arg1 : tensor<1x9x9x3xi8>, tensor<3x3xf32>) outs(%arg4 : tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi32>
// CHECK-NEXT: %3 = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg3, %arg1 : tensor<1x9x9x3xi8>, tensor<3x3xf32>) outs(%2 : tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi32>
// CHECK-NEXT: return %1, %3 : tensor<1x3x7x7xf32>, tensor<1x4x4x3xi32>
func.func @poolings(%i: tensor<1x3x9x9xf32>, %w: tensor<3x3xf32>, %o: tensor<1x3x7x7xf32>, %n: tensor<1x9x9x3xi8>, %no: tensor<1x4x4x3xi32>) -> (tensor<1x3x7x7xf32>, tensor<1x4x4x3xi32>) {
  %0 = linalg.pooling_nchw_max ins(%i, %w : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  %1 = linalg.pooling_nchw_sum ins(%i, %w : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%0 : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  %2 = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%n, %w : tensor<1x9x9x3xi8>, tensor<3x3xf32>) outs(%no : tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi32>
  %3 = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%n, %w : tensor<1x9x9x3xi8>, tensor<3x3xf32>) outs(%2 : tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi32>
  return %1, %3 : tensor<1x3x7x7xf32>, tensor<1x4x4x3xi32>
}

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT: %0 = linalg.elementwise <exp> ins(%arg0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = linalg.elementwise <reciprocal> ins(%0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = linalg.elementwise <sub> indexing_maps = [#map, #map1, #map] ins(%1, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %3 = linalg.elementwise <max_signed> indexing_maps = [#map, #map2, #map] ins(%2, %arg2 : tensor<4x8xf32>, tensor<8xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %4 = linalg.elementwise <select> ins(%arg3, %3, %arg0 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: linalg.elementwise <square> ins(%arg4 : memref<4x8xf32>) outs(%arg4 : memref<4x8xf32>)
// CHECK-NEXT: return %4 : tensor<4x8xf32>
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %v: tensor<8xf32>, %c: tensor<4x8xi1>, %m: memref<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.elementwise <exp> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise <reciprocal> ins(%0 : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise <sub> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%1, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise <max_signed> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%2, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.elementwise <select> ins(%c, %3, %a : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  linalg.elementwise <square> ins(%m : memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return %4 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT: %0 = linalg.softmax dimension(2) ins(%arg0 : tensor<2x16x32xf32>) outs(%arg1 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
// CHECK-NEXT: linalg.softmax {tag} dimension(1) ins(%arg2 : memref<2x16x32xf32>) outs(%arg2 : memref<2x16x32xf32>)
// CHECK-NEXT: return %0 : tensor<2x16x32xf32>
func.func @softmax(%a: tensor<2x16x32xf32>, %o: tensor<2x16x32xf32>, %m: memref<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %0 = linalg.softmax dimension(2) ins(%a : tensor<2x16x32xf32>) outs(%o : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  linalg.softmax {tag} dimension(1) ins(%m : memref<2x16x32xf32>) outs(%m : memref<2x16x32xf32>)
  return %0 : tensor<2x16x32xf32>
}

// CHECK-LABEL: func.func @pack_unpack(
// CHECK-NEXT: %pack = linalg.pack %arg0 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %arg1 : tensor<128x256xf32> -> tensor<16x8x8x32xf32>
// CHECK-NEXT: %pack_0 = linalg.pack %arg0 padding_value(%arg2 : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, %arg3] into %arg4 {tag} : tensor<128x256xf32> -> tensor<16x?x8x?xf32>
// CHECK-NEXT: %unpack = linalg.unpack %pack inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %arg0 : tensor<16x8x8x32xf32> -> tensor<128x256xf32>
// CHECK-NEXT: linalg.pack %arg5 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %arg6 : memref<128x256xf32> -> memref<16x8x8x32xf32>
// CHECK-NEXT: linalg.unpack %arg6 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %arg5 : memref<16x8x8x32xf32> -> memref<128x256xf32>
// CHECK-NEXT: return %unpack, %pack_0 : tensor<128x256xf32>, tensor<16x?x8x?xf32>
func.func @pack_unpack(%s: tensor<128x256xf32>, %d: tensor<16x8x8x32xf32>, %p: f32, %t: index, %dd: tensor<16x?x8x?xf32>, %m: memref<128x256xf32>, %md: memref<16x8x8x32xf32>) -> (tensor<128x256xf32>, tensor<16x?x8x?xf32>) {
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %d : tensor<128x256xf32> -> tensor<16x8x8x32xf32>
  %1 = linalg.pack %s padding_value(%p : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, %t] into %dd {tag} : tensor<128x256xf32> -> tensor<16x?x8x?xf32>
  %2 = linalg.unpack %0 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %s : tensor<16x8x8x32xf32> -> tensor<128x256xf32>
  linalg.pack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %md : memref<128x256xf32> -> memref<16x8x8x32xf32>
  linalg.unpack %md inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %m : memref<16x8x8x32xf32> -> memref<128x256xf32>
  return %2, %1 : tensor<128x256xf32>, tensor<16x?x8x?xf32>
}

// CHECK-LABEL: func.func @buffers(
// CHECK-NEXT: linalg.map { math.exp } ins(%arg0 : memref<4x8xf32>) outs(%arg0 : memref<4x8xf32>)
// CHECK-NEXT: linalg.reduce { arith.addf } ins(%arg0 : memref<4x8xf32>) outs(%arg1 : memref<4xf32>) dimensions = [1]
// CHECK-NEXT: linalg.transpose ins(%arg0 : memref<4x8xf32>) outs(%arg2 : memref<8x4xf32>) permutation = [1, 0]
// CHECK-NEXT: linalg.matmul ins(%arg2, %arg0 : memref<8x4xf32>, memref<4x8xf32>) outs(%arg3 : memref<8x8xf32>)
// CHECK-NEXT: return
func.func @buffers(%a: memref<4x8xf32>, %c: memref<4xf32>, %t: memref<8x4xf32>, %c2: memref<8x8xf32>) {
  linalg.map { math.exp } ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  linalg.reduce { arith.addf } ins(%a : memref<4x8xf32>) outs(%c : memref<4xf32>) dimensions = [1]
  linalg.transpose ins(%a : memref<4x8xf32>) outs(%t : memref<8x4xf32>) permutation = [1, 0]
  linalg.matmul ins(%t, %a : memref<8x4xf32>, memref<4x8xf32>) outs(%c2 : memref<8x8xf32>)
  return
}

// A vector is a scalar element to linalg: the fill of a tensor of vectors by a vector.
// CHECK-LABEL: func.func @fill_vectors(
// CHECK-NEXT: %0 = linalg.fill ins(%arg0 : vector<2x4xf32>) outs(%arg1 : tensor<3xvector<2x4xf32>>) -> tensor<3xvector<2x4xf32>>
// CHECK-NEXT: %1 = linalg.copy ins(%arg1 : tensor<3xvector<2x4xf32>>) outs(%0 : tensor<3xvector<2x4xf32>>) -> tensor<3xvector<2x4xf32>>
func.func @fill_vectors(%v: vector<2x4xf32>, %t: tensor<3xvector<2x4xf32>>) -> tensor<3xvector<2x4xf32>> {
  %0 = linalg.fill ins(%v : vector<2x4xf32>) outs(%t : tensor<3xvector<2x4xf32>>) -> tensor<3xvector<2x4xf32>>
  %1 = linalg.copy ins(%t : tensor<3xvector<2x4xf32>>) outs(%0 : tensor<3xvector<2x4xf32>>) -> tensor<3xvector<2x4xf32>>
  return %1 : tensor<3xvector<2x4xf32>>
}
