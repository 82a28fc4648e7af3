// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #map2 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #map3 = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #map4 = affine_map<() -> ()>
// CHECK-DAG: #map5 = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #map7 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #map8 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #map10 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #map11 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-DAG: #map12 = affine_map<(d0) -> (d0)>

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @generic_reduce(
// CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: %1 = arith.addf %in, %out : f32
// CHECK-NEXT: linalg.yield %1 : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
func.func @generic_reduce(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %1 = arith.addf %x, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @generic_attrs(
// CHECK-NEXT: %0:2 = linalg.generic {doc = "transpose and scale", indexing_maps = [#map2, #map3, #map, #map], iterator_types = ["parallel", "parallel"], library_call = "my_transpose"} ins(%arg0, %arg2 : tensor<4x8xf32>, f32) outs(%arg1, %arg1 : tensor<8x4xf32>, tensor<8x4xf32>) attrs =  {n = 3 : i32, tag = "t"} {
// CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32, %out_1: f32):
// CHECK-NEXT: %1 = linalg.index 0 : index
// CHECK-NEXT: %2 = linalg.index 1 : index
// CHECK-NEXT: %3 = arith.addi %1, %2 : index
// CHECK-NEXT: %4 = arith.index_cast %3 : index to i32
// CHECK-NEXT: %5 = arith.sitofp %4 : i32 to f32
// CHECK-NEXT: %6 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT: %7 = arith.addf %6, %5 : f32
// CHECK-NEXT: linalg.yield %6, %7 : f32, f32
// CHECK-NEXT: } -> (tensor<8x4xf32>, tensor<8x4xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
func.func @generic_attrs(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %s: f32) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0:2 = linalg.generic {library_call = "my_transpose", doc = "transpose and scale", indexing_maps = [#tr, affine_map<(d0, d1) -> ()>, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : tensor<4x8xf32>, f32) outs(%b, %b : tensor<8x4xf32>, tensor<8x4xf32>) attrs = {tag = "t", n = 3 : i32} {
  ^bb0(%x: f32, %y: f32, %o1: f32, %o2: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %m = arith.mulf %x, %y : f32
    %n = arith.addf %m, %f : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// CHECK-LABEL: func.func @generic_buffers(
// CHECK-NEXT: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<?x8xi32>) outs(%arg1 : memref<?x8xi32>) {
// CHECK-NEXT: ^bb0(%in: i32, %out: i32):
// CHECK-NEXT: linalg.yield %in : i32
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @generic_buffers(%a: memref<?x8xi32>, %b: memref<?x8xi32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x8xi32>) outs(%b : memref<?x8xi32>) {
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  }
  return
}

// CHECK-LABEL: func.func @generic_scalar(
// CHECK-NEXT: %0 = linalg.generic {indexing_maps = [#map4], iterator_types = []} outs(%arg0 : tensor<f32>) {
// CHECK-NEXT: ^bb0(%out: f32):
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: linalg.yield %cst : f32
// CHECK-NEXT: } -> tensor<f32>
// CHECK-NEXT: return %0 : tensor<f32>
func.func @generic_scalar(%t: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%t : tensor<f32>) {
  ^bb0(%x: f32):
    %c = arith.constant 1.0 : f32
    linalg.yield %c : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @fill_copy(
// CHECK-NEXT: %0 = linalg.fill ins(%arg2 : f32) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: linalg.fill ins(%arg2 : f32) outs(%arg1 : memref<4x8xf32>)
// CHECK-NEXT: %1 = linalg.copy ins(%0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%arg3 : tensor<4x8xi8>) outs(%1 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: linalg.copy ins(%arg1 : memref<4x8xf32>) outs(%arg1 : memref<4x8xf32>)
// CHECK-NEXT: return %2 : tensor<4x8xf32>
func.func @fill_copy(%t: tensor<4x8xf32>, %m: memref<4x8xf32>, %v: f32, %i: tensor<4x8xi8>) -> tensor<4x8xf32> {
  %0 = linalg.fill ins(%v : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  linalg.fill ins(%v : f32) outs(%m : memref<4x8xf32>)
  %1 = linalg.copy ins(%0 : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%i : tensor<4x8xi8>) outs(%1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  linalg.copy ins(%m : memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return %2 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @matmuls(
// CHECK-NEXT: %0 = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%arg2 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = linalg.matmul indexing_maps = [#map5, #map6, #map7] ins(%arg3, %arg1 : tensor<8x4xf32>, tensor<8x16xf32>) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %2 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%arg4, %arg5 : tensor<4x8xi8>, tensor<8x16xi8>) outs(%arg6 : tensor<4x16xi32>) -> tensor<4x16xi32>
// CHECK-NEXT: %3 = linalg.matmul indexing_maps = [#map8, #map6, #map7] ins(%arg7, %arg1 : tensor<8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %3 : tensor<4x16xf32>
func.func @matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %at: tensor<8x4xf32>, %ai: tensor<4x8xi8>, %bi: tensor<8x16xi8>, %ci: tensor<4x16xi32>, %v: tensor<8xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%at, %b : tensor<8x4xf32>, tensor<8x16xf32>) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ai, %bi : tensor<4x8xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  %3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%v, %b : tensor<8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @batch_matmuls(
// CHECK-NEXT: %0 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%arg2 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: linalg.batch_matmul ins(%arg4, %arg5 : memref<2x4x8xf16>, memref<2x8x16xf16>) outs(%arg6 : memref<2x4x16xf32>)
// CHECK-NEXT: %1 = linalg.batch_reduce_matmul ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%arg3 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %2 = linalg.contract indexing_maps = [#map9, #map10, #map11] ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %0, %2 : tensor<2x4x16xf32>, tensor<4x16xf32>
func.func @batch_matmuls(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>, %r: tensor<4x16xf32>, %m: memref<2x4x8xf16>, %n: memref<2x8x16xf16>, %o: memref<2x4x16xf32>) -> (tensor<2x4x16xf32>, tensor<4x16xf32>) {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  linalg.batch_matmul ins(%m, %n : memref<2x4x8xf16>, memref<2x8x16xf16>) outs(%o : memref<2x4x16xf32>)
  %1 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%r : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %2 : tensor<2x4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @transpose_broadcast(
// CHECK-NEXT: %transposed = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%arg1 : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK-NEXT: %broadcasted = linalg.broadcast ins(%arg2 : tensor<3xf32>) outs(%arg0 : tensor<2x3x4xf32>) dimensions = [0, 2]
// CHECK-NEXT: linalg.broadcast ins(%arg3 : memref<3xf32>) outs(%arg4 : memref<3x5xf32>) dimensions = [1]  {tag}
// CHECK-NEXT: return %transposed, %broadcasted : tensor<4x2x3xf32>, tensor<2x3x4xf32>
func.func @transpose_broadcast(%a: tensor<2x3x4xf32>, %t: tensor<4x2x3xf32>, %v: tensor<3xf32>, %m: memref<3xf32>, %mb: memref<3x5xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%t : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %1 = linalg.broadcast ins(%v : tensor<3xf32>) outs(%a : tensor<2x3x4xf32>) dimensions = [0, 2]
  linalg.broadcast ins(%m : memref<3xf32>) outs(%mb : memref<3x5xf32>) dimensions = [1] {tag}
  return %0, %1 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @reduce_map(
// CHECK-NEXT: %reduced = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) dimensions = [1]
// CHECK-NEXT: %reduced_0 = linalg.reduce ins(%arg0 : tensor<4x8xf32>) outs(%reduced : tensor<4xf32>) dimensions = [1]
// CHECK-NEXT: (%in: f32, %init: f32) {
// CHECK-NEXT: %0 = math.exp %in : f32
// CHECK-NEXT: %1 = arith.addf %0, %init : f32
// CHECK-NEXT: linalg.yield %1 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %reduced_1 = linalg.reduce { arith.addi {overflowFlags = #arith.overflow<none>} } ins(%arg2 : tensor<4x8xi32>) outs(%arg3 : tensor<4xi32>) dimensions = [1]
// CHECK-NEXT: %mapped = linalg.map { arith.subf } ins(%arg0, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>)
// CHECK-NEXT: %mapped_2 = linalg.map ins(%mapped : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>)
// CHECK-NEXT: (%in: f32, %init: f32) {
// CHECK-NEXT: %0 = arith.negf %in : f32
// CHECK-NEXT: %1 = arith.maximumf %0, %init : f32
// CHECK-NEXT: linalg.yield %1 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %mapped_3 = linalg.map { math.absf {fastmath = #arith.fastmath<nnan>} } ins(%mapped_2 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>)
// CHECK-NEXT: return %reduced_0, %mapped_3 : tensor<4xf32>, tensor<4x8xf32>
func.func @reduce_map(%a: tensor<4x8xf32>, %b: tensor<4xf32>, %i: tensor<4x8xi32>, %j: tensor<4xi32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %0 = linalg.reduce { arith.maximumf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
  %1 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%0 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %e = math.exp %in : f32
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    }
  %2 = linalg.reduce { arith.addi } ins(%i : tensor<4x8xi32>) outs(%j : tensor<4xi32>) dimensions = [1]
  %3 = linalg.map { arith.subf } ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  %4 = linalg.map ins(%3 : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
    (%x: f32, %o: f32) {
      %n = arith.negf %x : f32
      %m = arith.maximumf %n, %o : f32
      linalg.yield %m : f32
    }
  %5 = linalg.map { math.absf {fastmath = #arith.fastmath<nnan>} } ins(%4 : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  return %1, %5 : tensor<4xf32>, tensor<4x8xf32>
}

#trait = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
// CHECK-LABEL: func.func @generic_trait_alias(
// CHECK-NEXT: linalg.generic {indexing_maps = [#map12, #map12], iterator_types = ["parallel"]} ins(%arg0 : memref<5xf32>) outs(%arg1 : memref<5xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: linalg.yield %in : f32
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @generic_trait_alias(%a: memref<5xf32>, %b: memref<5xf32>) {
  linalg.generic #trait ins(%a : memref<5xf32>) outs(%b : memref<5xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// CHECK-LABEL: func.func @winograd(
// CHECK-NEXT: %0 = linalg.winograd_filter_transform fmr(F_2_5) ins(%arg0 : tensor<8x1x5x4xf32>) outs(%arg1 : tensor<1x6x4x8xf32>) -> tensor<1x6x4x8xf32>
// CHECK-NEXT: %1 = linalg.winograd_input_transform fmr(F_2_3) ins(%arg2 : tensor<1x10x3x2xf32>) outs(%arg3 : tensor<4x1x4x3x1x2xf32>) -> tensor<4x1x4x3x1x2xf32>
// CHECK-NEXT: %2 = linalg.winograd_output_transform fmr(F_2_3) ins(%arg4 : tensor<4x1x4x3x1x2xf32>) outs(%arg5 : tensor<1x8x3x2xf32>) -> tensor<1x8x3x2xf32>
// CHECK-NEXT: %3 = linalg.winograd_output_transform fmr(F_4_3) ins(%arg6 : tensor<6x6x?x?x?x?xf16>) outs(%arg7 : tensor<?x?x?x?xf16>) -> tensor<?x?x?x?xf16>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<1x6x4x8xf32>, tensor<4x1x4x3x1x2xf32>, tensor<1x8x3x2xf32>, tensor<?x?x?x?xf16>
// CHECK-NEXT: }
func.func @winograd(%f: tensor<8x1x5x4xf32>, %e: tensor<1x6x4x8xf32>, %x: tensor<1x10x3x2xf32>,
                    %e2: tensor<4x1x4x3x1x2xf32>, %v: tensor<4x1x4x3x1x2xf32>, %y: tensor<1x8x3x2xf32>,
                    %vd: tensor<6x6x?x?x?x?xf16>, %yd: tensor<?x?x?x?xf16>)
    -> (tensor<1x6x4x8xf32>, tensor<4x1x4x3x1x2xf32>, tensor<1x8x3x2xf32>, tensor<?x?x?x?xf16>) {
  %0 = linalg.winograd_filter_transform fmr(F_2_5) ins(%f : tensor<8x1x5x4xf32>) outs(%e : tensor<1x6x4x8xf32>) -> tensor<1x6x4x8xf32>
  %1 = linalg.winograd_input_transform fmr(F_2_3) ins(%x : tensor<1x10x3x2xf32>) outs(%e2 : tensor<4x1x4x3x1x2xf32>) -> tensor<4x1x4x3x1x2xf32>
  %2 = linalg.winograd_output_transform fmr(F_2_3) ins(%v : tensor<4x1x4x3x1x2xf32>) outs(%y : tensor<1x8x3x2xf32>) -> tensor<1x8x3x2xf32>
  %3 = linalg.winograd_output_transform fmr(F_4_3) ins(%vd : tensor<6x6x?x?x?x?xf16>) outs(%yd : tensor<?x?x?x?xf16>) -> tensor<?x?x?x?xf16>
  return %0, %1, %2, %3 : tensor<1x6x4x8xf32>, tensor<4x1x4x3x1x2xf32>, tensor<1x8x3x2xf32>, tensor<?x?x?x?xf16>
}
