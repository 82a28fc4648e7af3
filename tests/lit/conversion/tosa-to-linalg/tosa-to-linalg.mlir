// tosa-to-linalg: elementwise ops as linalg.generic (a static size-1 dim of an operand is
// read at index 0), reductions as linalg.reduce + tensor.expand_shape, argmax as one
// generic with two outputs, gather/reverse with tensor.extract, tile as a broadcast
// generic + collapse_shape. reshape, slice, pad, concat, const are left to
// tosa-to-tensor / tosa-to-arith; rescale computes TOSA's apply_scale in i64 in the
// payload. Where upstream lowers the same way (everything but dynamic broadcasting, the
// shifted i32 mul and rescale, for which upstream emits tosa.apply_scale) the output is
// the one `mlir-opt --tosa-to-linalg` prints.
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg))" | filecheck %s

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @add_broadcast(
// CHECK-NEXT: %0 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<1x3xf32>) outs(%0 : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT: %2 = arith.addf %in, %in_0 : f32
// CHECK-NEXT: linalg.yield %2 : f32
// CHECK-NEXT: } -> tensor<2x3xf32>
// CHECK-NEXT: return %1 : tensor<2x3xf32>
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sub_dynamic(
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %arg0, %c0 : tensor<?x3xi32>
// CHECK-NEXT: %0 = tensor.empty(%dim) : tensor<?x3xi32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x3xi32>, tensor<?x3xi32>) outs(%0 : tensor<?x3xi32>) {
// CHECK-NEXT: ^bb0(%in: i32, %in_0: i32, %out: i32):
// CHECK-NEXT: %2 = arith.subi %in, %in_0 : i32
// CHECK-NEXT: linalg.yield %2 : i32
// CHECK-NEXT: } -> tensor<?x3xi32>
// CHECK-NEXT: return %1 : tensor<?x3xi32>
func.func @sub_dynamic(%a: tensor<?x3xi32>, %b: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %0 = tosa.sub %a, %b : (tensor<?x3xi32>, tensor<?x3xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @clamp(
// CHECK-NEXT: %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %4 = arith.minimumf %in, %cst_0 : f32
// CHECK-NEXT: %5 = arith.maximumf %4, %cst : f32
// CHECK-NEXT: linalg.yield %5 : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: %2 = tensor.empty() : tensor<4xi8>
// CHECK-NEXT: %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg1 : tensor<4xi8>) outs(%2 : tensor<4xi8>) {
// CHECK-NEXT: ^bb0(%in: i8, %out: i8):
// CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT: %c6_i8 = arith.constant 6 : i8
// CHECK-NEXT: %4 = arith.maxsi %c-1_i8, %in : i8
// CHECK-NEXT: %5 = arith.minsi %c6_i8, %4 : i8
// CHECK-NEXT: linalg.yield %5 : i8
// CHECK-NEXT: } -> tensor<4xi8>
// CHECK-NEXT: return %1, %3 : tensor<4xf32>, tensor<4xi8>
func.func @clamp(%a: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(6.0 : f32) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.clamp %i min_val(-1 : i8) max_val(6 : i8) : (tensor<4xi8>) -> tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @cast(
// CHECK-NEXT: %0 = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xi32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: i32):
// CHECK-NEXT: %4 = math.roundeven %in : f32
// CHECK-NEXT: %cst = arith.constant -2.14748365E+9 : f32
// CHECK-NEXT: %cst_0 = arith.constant 2.14748365E+9 : f32
// CHECK-NEXT: %c2147483647_i32 = arith.constant 2147483647 : i32
// CHECK-NEXT: %5 = arith.maximumf %4, %cst : f32
// CHECK-NEXT: %6 = arith.fptosi %5 : f32 to i32
// CHECK-NEXT: %7 = arith.cmpf uge, %4, %cst_0 : f32
// CHECK-NEXT: %8 = arith.select %7, %c2147483647_i32, %6 : i32
// CHECK-NEXT: linalg.yield %8 : i32
// CHECK-NEXT: } -> tensor<4xi32>
// CHECK-NEXT: %2 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg1 : tensor<4xi8>) outs(%2 : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%in: i8, %out: f32):
// CHECK-NEXT: %4 = arith.sitofp %in : i8 to f32
// CHECK-NEXT: linalg.yield %4 : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %1, %3 : tensor<4xi32>, tensor<4xf32>
func.func @cast(%a: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi32>
  %1 = tosa.cast %i : (tensor<4xi8>) -> tensor<4xf32>
  return %0, %1 : tensor<4xi32>, tensor<4xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @sigmoid(
// CHECK-NEXT: %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %2 = arith.negf %in : f32
// CHECK-NEXT: %3 = math.exp %2 : f32
// CHECK-NEXT: %4 = arith.addf %3, %cst : f32
// CHECK-NEXT: %5 = arith.divf %cst, %4 : f32
// CHECK-NEXT: linalg.yield %5 : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %1 : tensor<4xf32>
func.func @sigmoid(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.sigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mul_shift(
// CHECK-NEXT: %0 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<4xi32>, tensor<4xi32>) outs(%1 : tensor<4xi32>) {
// CHECK-NEXT: ^bb0(%in: i32, %in_0: i32, %out: i32):
// CHECK-NEXT: %3 = arith.extsi %in : i32 to i64
// CHECK-NEXT: %4 = arith.extsi %in_0 : i32 to i64
// CHECK-NEXT: %5 = arith.muli %3, %4 : i64
// CHECK-NEXT: %c4_i64 = arith.constant 4 : i64
// CHECK-NEXT: %6 = arith.addi %5, %c4_i64 : i64
// CHECK-NEXT: %c3_i64 = arith.constant 3 : i64
// CHECK-NEXT: %7 = arith.shrsi %6, %c3_i64 : i64
// CHECK-NEXT: %8 = arith.trunci %7 : i64 to i32
// CHECK-NEXT: linalg.yield %8 : i32
// CHECK-NEXT: } -> tensor<4xi32>
// CHECK-NEXT: return %2 : tensor<4xi32>
func.func @mul_shift(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %shift = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @negate_i8(
// CHECK-NEXT: %0 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tensor.empty() : tensor<4xi8>
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xi8>) outs(%1 : tensor<4xi8>) {
// CHECK-NEXT: ^bb0(%in: i8, %out: i8):
// CHECK-NEXT: %c0_i16 = arith.constant 0 : i16
// CHECK-NEXT: %3 = arith.extsi %in : i8 to i16
// CHECK-NEXT: %4 = arith.subi %c0_i16, %3 : i16
// CHECK-NEXT: %c127_i16 = arith.constant 127 : i16
// CHECK-NEXT: %c-128_i16 = arith.constant -128 : i16
// CHECK-NEXT: %5 = arith.maxsi %c-128_i16, %4 : i16
// CHECK-NEXT: %6 = arith.minsi %c127_i16, %5 : i16
// CHECK-NEXT: %7 = arith.trunci %6 : i16 to i8
// CHECK-NEXT: linalg.yield %7 : i8
// CHECK-NEXT: } -> tensor<4xi8>
// CHECK-NEXT: return %2 : tensor<4xi8>
func.func @negate_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @reduce_sum(
// CHECK-NEXT: %0 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %reduced = linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%1 : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT: (%in: f32, %init: f32) {
// CHECK-NEXT: %2 = arith.addf %in, %init : f32
// CHECK-NEXT: linalg.yield %2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
// CHECK-NEXT: return %expanded : tensor<2x1xf32>
func.func @reduce_sum(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = tosa.reduce_sum %a axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_max(
// CHECK-NEXT: %0 = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %cst = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %reduced = linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%1 : tensor<3xf32>) dimensions = [0]
// CHECK-NEXT: (%in: f32, %init: f32) {
// CHECK-NEXT: %2 = arith.maximumf %in, %init : f32
// CHECK-NEXT: linalg.yield %2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK-NEXT: return %expanded : tensor<1x3xf32>
func.func @reduce_max(%a: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %0 = tosa.reduce_max %a axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax(
// CHECK-NEXT: %0 = tensor.empty() : tensor<2xi32>
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: %2 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: %cst = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x3xf32>) outs(%1, %3 : tensor<2xi32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: i32, %out_0: f32):
// CHECK-NEXT: %5 = linalg.index 1 : index
// CHECK-NEXT: %6 = arith.index_cast %5 : index to i32
// CHECK-NEXT: %7 = arith.cmpf ugt, %in, %out_0 : f32
// CHECK-NEXT: %8 = arith.cmpf ord, %out_0, %out_0 : f32
// CHECK-NEXT: %9 = arith.andi %7, %8 : i1
// CHECK-NEXT: %10 = arith.select %9, %in, %out_0 : f32
// CHECK-NEXT: %11 = arith.select %9, %6, %out : i32
// CHECK-NEXT: linalg.yield %11, %10 : i32, f32
// CHECK-NEXT: } -> (tensor<2xi32>, tensor<2xf32>)
// CHECK-NEXT: return %4#0 : tensor<2xi32>
func.func @argmax(%a: tensor<2x3xf32>) -> tensor<2xi32> {
  %0 = tosa.argmax %a axis(1) : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gather(
// CHECK-NEXT: %0 = tensor.empty() : tensor<1x2x3xf32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<1x2xi32>) outs(%0 : tensor<1x2x3xf32>) {
// CHECK-NEXT: ^bb0(%in: i32, %out: f32):
// CHECK-NEXT: %2 = linalg.index 0 : index
// CHECK-NEXT: %3 = arith.index_cast %in : i32 to index
// CHECK-NEXT: %4 = linalg.index 2 : index
// CHECK-NEXT: %extracted = tensor.extract %arg0[%2, %3, %4] : tensor<1x5x3xf32>
// CHECK-NEXT: linalg.yield %extracted : f32
// CHECK-NEXT: } -> tensor<1x2x3xf32>
// CHECK-NEXT: return %1 : tensor<1x2x3xf32>
func.func @gather(%v: tensor<1x5x3xf32>, %i: tensor<1x2xi32>) -> tensor<1x2x3xf32> {
  %0 = tosa.gather %v, %i : (tensor<1x5x3xf32>, tensor<1x2xi32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @tile(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %1 = tensor.empty() : tensor<1x2x2x3xf32>
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x3xf32>) outs(%1 : tensor<1x2x2x3xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: linalg.yield %in : f32
// CHECK-NEXT: } -> tensor<1x2x2x3xf32>
// CHECK-NEXT: %collapsed = tensor.collapse_shape %2 [[0, 1], [2, 3]] : tensor<1x2x2x3xf32> into tensor<2x6xf32>
// CHECK-NEXT: return %collapsed : tensor<2x6xf32>
func.func @tile(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %m = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @reverse(
// CHECK-NEXT: %0 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%out: f32):
// CHECK-NEXT: %2 = linalg.index 0 : index
// CHECK-NEXT: %3 = linalg.index 1 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %4 = arith.subi %c3, %c1 : index
// CHECK-NEXT: %5 = arith.subi %4, %3 : index
// CHECK-NEXT: %extracted = tensor.extract %arg0[%2, %5] : tensor<2x3xf32>
// CHECK-NEXT: linalg.yield %extracted : f32
// CHECK-NEXT: } -> tensor<2x3xf32>
// CHECK-NEXT: return %1 : tensor<2x3xf32>
func.func @reverse(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.reverse %a axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @left_for_other_passes(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
// CHECK-NEXT: return %1 : tensor<3x2xf32>
func.func @left_for_other_passes(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = tosa.const_shape values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rescale_per_channel(
// CHECK-NEXT: %0 = tosa.const  values(dense<[1073741824, 1518500250, 2147483647]> : tensor<3xi32>) : () -> tensor<3xi32>
// CHECK-NEXT: %1 = tosa.const  values(dense<[30, 31, 34]> : tensor<3xi8>) : () -> tensor<3xi8>
// CHECK-NEXT: %2 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %3 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %4 = tensor.empty() : tensor<2x3xi8>
// CHECK-NEXT: %5 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %0, %1 : tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>) outs(%4 : tensor<2x3xi8>) {
// CHECK-NEXT: ^bb0(%in: i32, %in_0: i32, %in_1: i8, %out: i8):
// CHECK-NEXT: %6 = arith.extsi %in : i32 to i64
// CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %7 = arith.subi %6, %c0_i64 : i64
// CHECK-NEXT: %8 = arith.extsi %in_0 : i32 to i64
// CHECK-NEXT: %9 = arith.extsi %in_1 : i8 to i64
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %10 = arith.subi %9, %c1_i64 : i64
// CHECK-NEXT: %11 = arith.shli %c1_i64, %10 : i64
// CHECK-NEXT: %12 = arith.muli %7, %8 : i64
// CHECK-NEXT: %13 = arith.addi %12, %11 : i64
// CHECK-NEXT: %14 = arith.shrsi %13, %9 : i64
// CHECK-NEXT: %c3_i64 = arith.constant 3 : i64
// CHECK-NEXT: %15 = arith.addi %14, %c3_i64 : i64
// CHECK-NEXT: %c127_i64 = arith.constant 127 : i64
// CHECK-NEXT: %c-128_i64 = arith.constant -128 : i64
// CHECK-NEXT: %16 = arith.maxsi %c-128_i64, %15 : i64
// CHECK-NEXT: %17 = arith.minsi %c127_i64, %16 : i64
// CHECK-NEXT: %18 = arith.trunci %17 : i64 to i8
// CHECK-NEXT: linalg.yield %18 : i8
// CHECK-NEXT: } -> tensor<2x3xi8>
// CHECK-NEXT: return %5 : tensor<2x3xi8>
func.func @rescale_per_channel(%x: tensor<2x3xi32>) -> tensor<2x3xi8> {
  %m = tosa.const values(dense<[1073741824, 1518500250, 2147483647]> : tensor<3xi32>) : () -> tensor<3xi32>
  %s = tosa.const values(dense<[30, 31, 34]> : tensor<3xi8>) : () -> tensor<3xi8>
  %zi = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %zo = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %zi, %zo scale32(true) rounding_mode<SINGLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// CHECK-DAG: #map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @table_i8(
// CHECK-NEXT: %0 = tensor.empty() : tensor<4xi8>
// CHECK-NEXT: %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xi8>) outs(%0 : tensor<4xi8>) {
// CHECK-NEXT: ^bb0(%in: i8, %out: i8):
// CHECK-NEXT: %2 = arith.extsi %in : i8 to i32
// CHECK-NEXT: %c128_i32 = arith.constant 128 : i32
// CHECK-NEXT: %3 = arith.addi %2, %c128_i32 : i32
// CHECK-NEXT: %4 = arith.index_cast %3 : i32 to index
// CHECK-NEXT: %extracted = tensor.extract %arg1[%4] : tensor<256xi8>
// CHECK-NEXT: linalg.yield %extracted : i8
// CHECK-NEXT: } -> tensor<4xi8>
// CHECK-NEXT: return %1 : tensor<4xi8>
func.func @table_i8(%x: tensor<4xi8>, %t: tensor<256xi8>) -> tensor<4xi8> {
  %0 = tosa.table %x, %t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

