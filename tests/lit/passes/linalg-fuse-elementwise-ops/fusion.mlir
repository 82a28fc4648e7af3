// RUN: strata-opt %s --linalg-fuse-elementwise-ops | filecheck %s

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map4 = affine_map<(d0) -> (d0)>
// CHECK-NEXT: #map5 = affine_map<(d0, d1) -> (0, d1)>
// CHECK-NEXT: #map6 = affine_map<() -> ()>

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#b1 = affine_map<(d0, d1) -> (d1)>
#b0 = affine_map<(d0, d1) -> (d0)>
#c0 = affine_map<(d0, d1) -> (0, d1)>

// A chain of two elementwise producers fuses into a reduction consumer; the
// producer's linalg.index is remapped through the transposed maps; the fill stays (outs).
// CHECK-LABEL: func.func @chain(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>) outs(%1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = linalg.index 0 : index
// CHECK-NEXT:     %4 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     %5 = math.exp %4 : f32
// CHECK-NEXT:     %6 = arith.index_cast %3 : index to i32
// CHECK-NEXT:     %7 = arith.sitofp %6 : i32 to f32
// CHECK-NEXT:     %8 = arith.mulf %5, %7 : f32
// CHECK-NEXT:     %9 = arith.addf %8, %out : f32
// CHECK-NEXT:     linalg.yield %9 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   return %2 : tensor<4xf32>
// CHECK-NEXT: }
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #b1, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %t = arith.mulf %s, %f : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %c0 = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#tr, #b0], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// A producer reading a broadcast operand: the operand keeps its map in the fused op.
// CHECK-LABEL: func.func @broadcast_producer(%arg0: tensor<8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     %3 = arith.addf %2, %in_0 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @broadcast_producer(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#b1, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// A producer writing through a permutation: its index ops follow the consumer's loops.
// CHECK-LABEL: func.func @transposed_result(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = linalg.index 0 : index
// CHECK-NEXT:     %3 = linalg.index 1 : index
// CHECK-NEXT:     %4 = arith.addi %2, %3 : index
// CHECK-NEXT:     %5 = arith.index_cast %4 : index to i32
// CHECK-NEXT:     %6 = arith.sitofp %5 : i32 to f32
// CHECK-NEXT:     %7 = arith.mulf %in, %6 : f32
// CHECK-NEXT:     %8 = linalg.index 1 : index
// CHECK-NEXT:     %9 = arith.index_cast %8 : index to i32
// CHECK-NEXT:     %10 = arith.sitofp %9 : i32 to f32
// CHECK-NEXT:     %11 = arith.subf %7, %10 : f32
// CHECK-NEXT:     linalg.yield %11 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @transposed_result(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<8x4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.subf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// The consumer reads the producer result broadcast: maps compose.
// CHECK-LABEL: func.func @consumer_broadcasts(%arg0: tensor<8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg0 : tensor<4x8xf32>, tensor<8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = linalg.index 1 : index
// CHECK-NEXT:     %3 = arith.index_cast %2 : index to i32
// CHECK-NEXT:     %4 = arith.sitofp %3 : i32 to f32
// CHECK-NEXT:     %5 = arith.mulf %in_0, %4 : f32
// CHECK-NEXT:     %6 = arith.addf %in, %5 : f32
// CHECK-NEXT:     linalg.yield %6 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @consumer_broadcasts(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #b1, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %0 : tensor<4x8xf32>, tensor<8xf32>) outs(%b : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// A producer with another use is not fused.
// CHECK-LABEL: func.func @multi_use(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %3 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.negf %in : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @multi_use(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// The unused second result of the producer is dropped with its computation.
// CHECK-LABEL: func.func @two_results(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     %3 = arith.negf %2 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1, %1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @two_results(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e, %e : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %s = math.exp %x : f32
    %t = math.log %x : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0#0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Splat and scalar constant inputs become constants in the payload.
// CHECK-LABEL: func.func @constants(%arg0: tensor<4x8xf32>, %arg1: f32) -> tensor<4x8xf32> {
// CHECK-NEXT:   %cst = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:   %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %cst_0 : f32
// CHECK-NEXT:     %3 = arith.addf %2, %cst : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @constants(%a: tensor<4x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %cst = arith.constant dense<2.0> : tensor<4x8xf32>
  %cs = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, affine_map<(d0, d1) -> ()>, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %cst, %cs : tensor<4x8xf32>, tensor<4x8xf32>, f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %t = arith.mulf %x, %y : f32
    %u = arith.addf %t, %z : f32
    linalg.yield %u : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A fill input reads the fill value.
// CHECK-LABEL: func.func @fill_input(%arg0: tensor<4x8xf32>, %arg1: f32) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %arg1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @fill_input(%a: tensor<4x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %f : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.mulf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// An init the payload does not read becomes a tensor.empty (with tensor.dim).
// CHECK-LABEL: func.func @outs_dep(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32>) -> tensor<?x8xf32> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %dim = tensor.dim %arg1, %c0 : tensor<?x8xf32>
// CHECK-NEXT:   %0 = tensor.empty(%dim) : tensor<?x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x8xf32>) outs(%0 : tensor<?x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<?x8xf32>
// CHECK-NEXT:   return %1 : tensor<?x8xf32>
// CHECK-NEXT: }
func.func @outs_dep(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xf32>) outs(%b : tensor<?x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// Repeated inputs and dead results are dropped.
// CHECK-LABEL: func.func @dedup(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %in : f32
// CHECK-NEXT:     %3 = arith.addf %2, %in_0 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x4xf32>
// CHECK-NEXT:   return %1 : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @dedup(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %0:2 = linalg.generic {indexing_maps = [#id, #id, #id, #tr, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %a, %b : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) outs(%e, %e : tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32, %o: f32, %o2: f32):
    %t = arith.mulf %x, %z : f32
    %u = arith.addf %t, %w : f32
    %v = arith.addf %o2, %u : f32
    linalg.yield %u, %v : f32, f32
  } -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %0#0 : tensor<4x4xf32>
}

// A generic op that forwards its input is replaced by it (tensor.cast to refine).
// CHECK-LABEL: func.func @identity(%arg0: tensor<4x8xf32>, %arg1: tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   %cast = tensor.cast %arg1 : tensor<?x8xf32> to tensor<4x8xf32>
// CHECK-NEXT:   return %arg0, %cast : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @identity(%a: tensor<4x8xf32>, %b: tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<?x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A reduction producer is not fused.
// CHECK-LABEL: func.func @reductions(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.addf %in, %out : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %1 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %3 = math.sqrt %in : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   return %2 : tensor<4xf32>
// CHECK-NEXT: }
func.func @reductions(%a: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #b0], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %o : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.sqrt %x : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A consumer map with a constant: the producer's index folds to it.
// CHECK-LABEL: func.func @const_map(%arg0: tensor<1x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map5, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<1x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = linalg.index 1 : index
// CHECK-NEXT:     %3 = arith.index_cast %2 : index to i32
// CHECK-NEXT:     %4 = arith.sitofp %3 : i32 to f32
// CHECK-NEXT:     %5 = arith.mulf %in, %4 : f32
// CHECK-NEXT:     %6 = arith.addf %5, %in_0 : f32
// CHECK-NEXT:     linalg.yield %6 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @const_map(%a: tensor<1x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<1x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#c0, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %b : tensor<1x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// A producer reading its init keeps that result in the fused op.
// CHECK-LABEL: func.func @reads_out(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg1, %0 : tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32, %out_0: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %out : f32
// CHECK-NEXT:     %3 = math.exp %2 : f32
// CHECK-NEXT:     linalg.yield %2, %3 : f32, f32
// CHECK-NEXT:   } -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:   return %1#1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @reads_out(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %o : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// 0-d tensors fuse.
// CHECK-LABEL: func.func @scalars(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<f32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = []} ins(%arg0, %arg1 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = math.exp %in : f32
// CHECK-NEXT:     %3 = arith.addf %2, %in_0 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<f32>
// CHECK-NEXT:   return %1 : tensor<f32>
// CHECK-NEXT: }
func.func @scalars(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %1 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%0, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}
