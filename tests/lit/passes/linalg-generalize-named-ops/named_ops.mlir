// RUN: strata-opt %s --linalg-generalize-named-ops | filecheck %s

// CHECK: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1, d2) -> ()>
// CHECK-NEXT: #map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-NEXT: #map6 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-NEXT: #map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-NEXT: #map8 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-NEXT: #map9 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-NEXT: #map10 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-NEXT: #map11 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map12 = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map13 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map14 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map15 = affine_map<(d0) -> (d0)>
// CHECK-NEXT: #map16 = affine_map<(d0) -> ()>
// CHECK-NEXT: #map17 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>
// CHECK-NEXT: #map18 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-NEXT: #map19 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>
// CHECK-NEXT: #map20 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>
// CHECK-NEXT: #map21 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>
// CHECK-NEXT: #map22 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>
// CHECK-NEXT: #map23 = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-NEXT: #map24 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d4)>
// CHECK-NEXT: #map25 = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
// CHECK-NEXT: #map26 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-NEXT: #map27 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>
// CHECK-NEXT: #map28 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-NEXT: #map29 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-NEXT: #map30 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-NEXT: #map31 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-NEXT: #map32 = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
// CHECK-NEXT: #map33 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-NEXT: #map34 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-NEXT: #map35 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>
// CHECK-NEXT: #map36 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>
// CHECK-NEXT: #map37 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-NEXT: #map38 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d3)>
// CHECK-NEXT: #map39 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d3, d4)>
// CHECK-NEXT: #map40 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-NEXT: #map41 = affine_map<(d0, d1, d2, d3, d4, d5) -> ()>
// CHECK-NEXT: #map42 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-NEXT: #map43 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-NEXT: #map44 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-NEXT: #map45 = affine_map<(d0, d1) -> ()>

// Matmul with its default maps, a cast, transposed maps; quantized matmul.
// CHECK-LABEL: func.func @matmuls(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<4x16xf32>, %arg3: tensor<4x8xi8>, %arg4: tensor<8x16xi8>, %arg5: tensor<4x16xi32>, %arg6: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>, tensor<4x16xi32>) {
// CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%arg2 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg3, %arg4 : tensor<4x8xi8>, tensor<8x16xi8>) outs(%arg5 : tensor<4x16xi32>) {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: i8, %out: i32):
// CHECK-NEXT:     %4 = arith.extui %in : i8 to i32
// CHECK-NEXT:     %5 = arith.extui %in_0 : i8 to i32
// CHECK-NEXT:     %6 = arith.muli %4, %5 : i32
// CHECK-NEXT:     %7 = arith.addi %out, %6 : i32
// CHECK-NEXT:     linalg.yield %7 : i32
// CHECK-NEXT:   } -> tensor<4x16xi32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map3, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg6 : tensor<4x8xf32>, tensor<16x8xf32>) outs(%0 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map, #map1, #map4, #map4, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg3, %arg4, %c0_i32, %c0_i32 : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%arg5 : tensor<4x16xi32>) attrs =  {linalg.memoized_indexing_maps = [#map, #map1, #map4, #map4, #map2]} {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: i8, %in_1: i32, %in_2: i32, %out: i32):
// CHECK-NEXT:     %4 = arith.extsi %in : i8 to i32
// CHECK-NEXT:     %5 = arith.subi %4, %in_1 : i32
// CHECK-NEXT:     %6 = arith.extsi %in_0 : i8 to i32
// CHECK-NEXT:     %7 = arith.subi %6, %in_2 : i32
// CHECK-NEXT:     %8 = arith.muli %5, %7 : i32
// CHECK-NEXT:     %9 = arith.addi %out, %8 : i32
// CHECK-NEXT:     linalg.yield %9 : i32
// CHECK-NEXT:   } -> tensor<4x16xi32>
// CHECK-NEXT:   return %2, %1, %0, %3 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>, tensor<4x16xi32>
// CHECK-NEXT: }
func.func @matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %ai: tensor<4x8xi8>, %bi: tensor<8x16xi8>, %ci: tensor<4x16xi32>, %bt: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>, tensor<4x16xi32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ai, %bi : tensor<4x8xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %z = arith.constant 0 : i32
  %3 = linalg.quantized_matmul ins(%ai, %bi, %z, %z : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %2, %1, %0, %3 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>, tensor<4x16xi32>
}

// Batched contractions.
// CHECK-LABEL: func.func @batched(%arg0: tensor<2x4x8xf32>, %arg1: tensor<2x8x16xf32>, %arg2: tensor<2x4x16xf32>, %arg3: tensor<4x16xf32>, %arg4: tensor<2x8xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<2x4xf32>, %arg7: tensor<2x8xf32>) -> (tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<2x4xf32>, tensor<2x8xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map5, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%arg2 : tensor<2x4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<2x4x16xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map5, #map6, #map8], iterator_types = ["reduction", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%arg3 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map9, #map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg4 : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%arg5 : tensor<2x4xf32>) attrs =  {linalg.memoized_indexing_maps = [#map9, #map, #map2]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<2x4xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map, #map10, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg6, %arg0 : tensor<2x4xf32>, tensor<2x4x8xf32>) outs(%arg7 : tensor<2x8xf32>) attrs =  {linalg.memoized_indexing_maps = [#map, #map10, #map2]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<2x8xf32>
// CHECK-NEXT:   return %0, %1, %2, %3 : tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<2x4xf32>, tensor<2x8xf32>
// CHECK-NEXT: }
func.func @batched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>, %r: tensor<4x16xf32>, %v: tensor<2x8xf32>, %o: tensor<2x4xf32>, %w: tensor<2x4xf32>, %wo: tensor<2x8xf32>) -> (tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<2x4xf32>, tensor<2x8xf32>) {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %1 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%r : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.batch_matvec ins(%a, %v : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = linalg.batch_vecmat ins(%w, %a : tensor<2x4xf32>, tensor<2x4x8xf32>) outs(%wo : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1, %2, %3 : tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<2x4xf32>, tensor<2x8xf32>
}

// matvec, vecmat and dot (a 0-d output).
// CHECK-LABEL: func.func @vectors(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<4xf32>, %arg3: tensor<f32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<f32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map11, #map12, #map13], iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>) outs(%arg2 : tensor<4xf32>) attrs =  {linalg.memoized_indexing_maps = [#map11, #map12, #map13]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %4 = arith.addf %out, %3 : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map12, #map14, #map13], iterator_types = ["parallel", "reduction"]} ins(%arg2, %arg0 : tensor<4xf32>, tensor<4x8xf32>) outs(%arg1 : tensor<8xf32>) attrs =  {linalg.memoized_indexing_maps = [#map12, #map14, #map13]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %4 = arith.addf %out, %3 : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map15, #map15, #map16], iterator_types = ["reduction"]} ins(%arg1, %arg1 : tensor<8xf32>, tensor<8xf32>) outs(%arg3 : tensor<f32>) attrs =  {linalg.memoized_indexing_maps = [#map15, #map15, #map16]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %4 = arith.addf %out, %3 : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<f32>
// CHECK-NEXT:   return %0, %1, %2 : tensor<4xf32>, tensor<8xf32>, tensor<f32>
// CHECK-NEXT: }
func.func @vectors(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %w: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<f32>) {
  %0 = linalg.matvec ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.dot ins(%v, %v : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<4xf32>, tensor<8xf32>, tensor<f32>
}

// Named ops whose maps are memoized keep the memo as a discardable attribute.
// CHECK-LABEL: func.func @mmt4d(%arg0: tensor<2x3x4x5xi8>, %arg1: tensor<6x3x7x5xi8>, %arg2: tensor<2x6x4x7xi32>, %arg3: tensor<2x2x3x4x5xf16>, %arg4: tensor<2x6x3x7x5xf16>, %arg5: tensor<2x2x6x4x7xf32>) -> (tensor<2x6x4x7xi32>, tensor<2x2x6x4x7xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map17, #map18, #map19], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x3x4x5xi8>, tensor<6x3x7x5xi8>) outs(%arg2 : tensor<2x6x4x7xi32>) attrs =  {linalg.memoized_indexing_maps = [#map17, #map18, #map19]} {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: i8, %out: i32):
// CHECK-NEXT:     %2 = arith.extsi %in : i8 to i32
// CHECK-NEXT:     %3 = arith.extsi %in_0 : i8 to i32
// CHECK-NEXT:     %4 = arith.muli %2, %3 : i32
// CHECK-NEXT:     %5 = arith.addi %out, %4 : i32
// CHECK-NEXT:     linalg.yield %5 : i32
// CHECK-NEXT:   } -> tensor<2x6x4x7xi32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map20, #map21, #map22], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]} ins(%arg3, %arg4 : tensor<2x2x3x4x5xf16>, tensor<2x6x3x7x5xf16>) outs(%arg5 : tensor<2x2x6x4x7xf32>) attrs =  {linalg.memoized_indexing_maps = [#map20, #map21, #map22]} {
// CHECK-NEXT:   ^bb0(%in: f16, %in_0: f16, %out: f32):
// CHECK-NEXT:     %2 = arith.extf %in : f16 to f32
// CHECK-NEXT:     %3 = arith.extf %in_0 : f16 to f32
// CHECK-NEXT:     %4 = arith.mulf %2, %3 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<2x2x6x4x7xf32>
// CHECK-NEXT:   return %0, %1 : tensor<2x6x4x7xi32>, tensor<2x2x6x4x7xf32>
// CHECK-NEXT: }
func.func @mmt4d(%l: tensor<2x3x4x5xi8>, %r: tensor<6x3x7x5xi8>, %acc: tensor<2x6x4x7xi32>, %bl: tensor<2x2x3x4x5xf16>, %br: tensor<2x6x3x7x5xf16>, %bacc: tensor<2x2x6x4x7xf32>) -> (tensor<2x6x4x7xi32>, tensor<2x2x6x4x7xf32>) {
  %0 = linalg.mmt4d ins(%l, %r : tensor<2x3x4x5xi8>, tensor<6x3x7x5xi8>) outs(%acc : tensor<2x6x4x7xi32>) -> tensor<2x6x4x7xi32>
  %1 = linalg.batch_mmt4d ins(%bl, %br : tensor<2x2x3x4x5xf16>, tensor<2x6x3x7x5xf16>) outs(%bacc : tensor<2x2x6x4x7xf32>) -> tensor<2x2x6x4x7xf32>
  return %0, %1 : tensor<2x6x4x7xi32>, tensor<2x2x6x4x7xf32>
}

// linalg.contract with its own maps.
// CHECK-LABEL: func.func @contract(%arg0: tensor<8x4xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map23, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<8x16xf32>) outs(%arg2 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %1 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %2 = arith.addf %out, %1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %0 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @contract(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<8x4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Strides and dilations become the window expressions of the input map.
// CHECK-LABEL: func.func @convolutions(%arg0: tensor<1x10x3xf32>, %arg1: tensor<3x3x8xf32>, %arg2: tensor<1x8x8xf32>, %arg3: tensor<1x9x9x3xf32>, %arg4: tensor<3x3x3x8xf32>, %arg5: tensor<1x4x4x8xf32>, %arg6: tensor<1x3x9x9xf32>, %arg7: tensor<8x3x3x3xf32>, %arg8: tensor<1x8x7x7xf32>, %arg9: tensor<6x6xf32>, %arg10: tensor<3x3xf32>, %arg11: tensor<4x4xf32>) -> (tensor<1x8x8xf32>, tensor<1x4x4x8xf32>, tensor<1x8x7x7xf32>, tensor<4x4xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map24, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x10x3xf32>, tensor<3x3x8xf32>) outs(%arg2 : tensor<1x8x8xf32>) attrs =  {linalg.memoized_indexing_maps = [#map24, #map25, #map26]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<1x8x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map27, #map28, #map29], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg3, %arg4 : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>) outs(%arg5 : tensor<1x4x4x8xf32>) attrs =  {linalg.memoized_indexing_maps = [#map27, #map28, #map29]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<1x4x4x8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map30, #map31, #map29], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg6, %arg7 : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%arg8 : tensor<1x8x7x7xf32>) attrs =  {linalg.memoized_indexing_maps = [#map30, #map31, #map29]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<1x8x7x7xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map32, #map33, #map34], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg9, %arg10 : tensor<6x6xf32>, tensor<3x3xf32>) outs(%arg11 : tensor<4x4xf32>) attrs =  {linalg.memoized_indexing_maps = [#map32, #map33, #map34]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %out, %4 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x4xf32>
// CHECK-NEXT:   return %0, %1, %2, %3 : tensor<1x8x8xf32>, tensor<1x4x4x8xf32>, tensor<1x8x7x7xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
func.func @convolutions(%i1: tensor<1x10x3xf32>, %k1: tensor<3x3x8xf32>, %o1: tensor<1x8x8xf32>, %i2: tensor<1x9x9x3xf32>, %k2: tensor<3x3x3x8xf32>, %o2: tensor<1x4x4x8xf32>, %i3: tensor<1x3x9x9xf32>, %k3: tensor<8x3x3x3xf32>, %o3: tensor<1x8x7x7xf32>, %c2i: tensor<6x6xf32>, %c2k: tensor<3x3xf32>, %c2o: tensor<4x4xf32>) -> (tensor<1x8x8xf32>, tensor<1x4x4x8xf32>, tensor<1x8x7x7xf32>, tensor<4x4xf32>) {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%i1, %k1 : tensor<1x10x3xf32>, tensor<3x3x8xf32>) outs(%o1 : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i2, %k2 : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>) outs(%o2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %2 = linalg.conv_2d_nchw_fchw ins(%i3, %k3 : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%o3 : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  %3 = linalg.conv_2d ins(%c2i, %c2k : tensor<6x6xf32>, tensor<3x3xf32>) outs(%c2o : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2, %3 : tensor<1x8x8xf32>, tensor<1x4x4x8xf32>, tensor<1x8x7x7xf32>, tensor<4x4xf32>
}

// Depthwise convolutions, with zero points.
// CHECK-LABEL: func.func @depthwise(%arg0: tensor<1x9x9x3xf32>, %arg1: tensor<3x3x3xf32>, %arg2: tensor<1x7x7x3xf32>, %arg3: tensor<3x3x3x2xf32>, %arg4: tensor<1x7x7x3x2xf32>, %arg5: tensor<1x9x9x3xi8>, %arg6: tensor<3x3x3xi8>, %arg7: tensor<1x7x7x3xi32>, %arg8: i32) -> (tensor<1x7x7x3xf32>, tensor<1x7x7x3x2xf32>, tensor<1x7x7x3xi32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map35, #map36, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x9x9x3xf32>, tensor<3x3x3xf32>) outs(%arg2 : tensor<1x7x7x3xf32>) attrs =  {linalg.memoized_indexing_maps = [#map35, #map36, #map37]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %4 = arith.addf %out, %3 : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<1x7x7x3xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map38, #map39, #map40], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg3 : tensor<1x9x9x3xf32>, tensor<3x3x3x2xf32>) outs(%arg4 : tensor<1x7x7x3x2xf32>) attrs =  {linalg.memoized_indexing_maps = [#map38, #map39, #map40]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %3 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %4 = arith.addf %out, %3 : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<1x7x7x3x2xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map35, #map36, #map41, #map41, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg5, %arg6, %arg8, %arg8 : tensor<1x9x9x3xi8>, tensor<3x3x3xi8>, i32, i32) outs(%arg7 : tensor<1x7x7x3xi32>) attrs =  {linalg.memoized_indexing_maps = [#map35, #map36, #map41, #map41, #map37]} {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: i8, %in_1: i32, %in_2: i32, %out: i32):
// CHECK-NEXT:     %3 = arith.extsi %in : i8 to i32
// CHECK-NEXT:     %4 = arith.subi %3, %in_1 : i32
// CHECK-NEXT:     %5 = arith.extsi %in_0 : i8 to i32
// CHECK-NEXT:     %6 = arith.subi %5, %in_2 : i32
// CHECK-NEXT:     %7 = arith.muli %4, %6 : i32
// CHECK-NEXT:     %8 = arith.addi %out, %7 : i32
// CHECK-NEXT:     linalg.yield %8 : i32
// CHECK-NEXT:   } -> tensor<1x7x7x3xi32>
// CHECK-NEXT:   return %0, %1, %2 : tensor<1x7x7x3xf32>, tensor<1x7x7x3x2xf32>, tensor<1x7x7x3xi32>
// CHECK-NEXT: }
func.func @depthwise(%i: tensor<1x9x9x3xf32>, %k: tensor<3x3x3xf32>, %o: tensor<1x7x7x3xf32>, %km: tensor<3x3x3x2xf32>, %om: tensor<1x7x7x3x2xf32>, %iq: tensor<1x9x9x3xi8>, %kq: tensor<3x3x3xi8>, %oq: tensor<1x7x7x3xi32>, %zp: i32) -> (tensor<1x7x7x3xf32>, tensor<1x7x7x3x2xf32>, tensor<1x7x7x3xi32>) {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x9x9x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x7x7x3xf32>) -> tensor<1x7x7x3xf32>
  %1 = linalg.depthwise_conv_2d_nhwc_hwcm ins(%i, %km : tensor<1x9x9x3xf32>, tensor<3x3x3x2xf32>) outs(%om : tensor<1x7x7x3x2xf32>) -> tensor<1x7x7x3x2xf32>
  %2 = linalg.depthwise_conv_2d_nhwc_hwc_q ins(%iq, %kq, %zp, %zp : tensor<1x9x9x3xi8>, tensor<3x3x3xi8>, i32, i32) outs(%oq : tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32>
  return %0, %1, %2 : tensor<1x7x7x3xf32>, tensor<1x7x7x3x2xf32>, tensor<1x7x7x3xi32>
}

// Poolings: the window operand is read by nothing.
// CHECK-LABEL: func.func @poolings(%arg0: tensor<1x9x9x3xf32>, %arg1: tensor<3x3xf32>, %arg2: tensor<1x4x4x3xf32>, %arg3: tensor<1x3x9x9xi8>, %arg4: tensor<1x3x7x7xi32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x7x7xi32>, tensor<1x3x7x7xi32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map42, #map43, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%arg2 : tensor<1x4x4x3xf32>) attrs =  {linalg.memoized_indexing_maps = [#map42, #map43, #map37]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.addf %out, %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<1x4x4x3xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map42, #map43, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%0 : tensor<1x4x4x3xf32>) attrs =  {linalg.memoized_indexing_maps = [#map42, #map43, #map37]} {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.maximumf %out, %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<1x4x4x3xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map44, #map43, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg3, %arg1 : tensor<1x3x9x9xi8>, tensor<3x3xf32>) outs(%arg4 : tensor<1x3x7x7xi32>) attrs =  {linalg.memoized_indexing_maps = [#map44, #map43, #map37]} {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: f32, %out: i32):
// CHECK-NEXT:     %4 = arith.extsi %in : i8 to i32
// CHECK-NEXT:     %5 = arith.maxsi %out, %4 : i32
// CHECK-NEXT:     linalg.yield %5 : i32
// CHECK-NEXT:   } -> tensor<1x3x7x7xi32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map44, #map43, #map37], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg3, %arg1 : tensor<1x3x9x9xi8>, tensor<3x3xf32>) outs(%2 : tensor<1x3x7x7xi32>) attrs =  {linalg.memoized_indexing_maps = [#map44, #map43, #map37]} {
// CHECK-NEXT:   ^bb0(%in: i8, %in_0: f32, %out: i32):
// CHECK-NEXT:     %4 = arith.extsi %in : i8 to i32
// CHECK-NEXT:     %5 = arith.addi %out, %4 : i32
// CHECK-NEXT:     linalg.yield %5 : i32
// CHECK-NEXT:   } -> tensor<1x3x7x7xi32>
// CHECK-NEXT:   return %1, %0, %2, %3 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x7x7xi32>, tensor<1x3x7x7xi32>
// CHECK-NEXT: }
func.func @poolings(%i: tensor<1x9x9x3xf32>, %w: tensor<3x3xf32>, %o: tensor<1x4x4x3xf32>, %n: tensor<1x3x9x9xi8>, %no: tensor<1x3x7x7xi32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x7x7xi32>, tensor<1x3x7x7xi32>) {
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %1 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%0 : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %2 = linalg.pooling_nchw_max ins(%n, %w : tensor<1x3x9x9xi8>, tensor<3x3xf32>) outs(%no : tensor<1x3x7x7xi32>) -> tensor<1x3x7x7xi32>
  %3 = linalg.pooling_nchw_sum ins(%n, %w : tensor<1x3x9x9xi8>, tensor<3x3xf32>) outs(%2 : tensor<1x3x7x7xi32>) -> tensor<1x3x7x7xi32>
  return %1, %0, %2, %3 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x7x7xi32>, tensor<1x3x7x7xi32>
}

// fill, copy with casts; discardable attributes go to `attrs`.
// CHECK-LABEL: func.func @fill_copy(%arg0: f32, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf16>, %arg3: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map45, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0 : f32) outs(%arg1 : tensor<4x8xf32>) attrs =  {tag = "keep"} {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<4x8xf16>) outs(%0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f16, %out: f32):
// CHECK-NEXT:     %3 = arith.extf %in : f16 to f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<4x8xi32>) outs(%arg1 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: i32, %out: f32):
// CHECK-NEXT:     %3 = arith.uitofp %in : i32 to f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @fill_copy(%s: f32, %t: tensor<4x8xf32>, %h: tensor<4x8xf16>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.fill {tag = "keep"} ins(%s : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.copy ins(%h : tensor<4x8xf16>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%i : tensor<4x8xi32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// fill_rng_2d uses linalg.index and constants (hoisted by the driver).
// CHECK-LABEL: func.func @fill_rng(%arg0: f64, %arg1: f64, %arg2: i32, %arg3: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %c12345_i32 = arith.constant 12345 : i32
// CHECK-NEXT:   %c1103515245_i32 = arith.constant 1103515245 : i32
// CHECK-NEXT:   %cst = arith.constant 0x41DFFFFFFFC00000 : f64
// CHECK-NEXT:   %cst_0 = arith.constant 2.3283063999999999E-10 : f64
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map45, #map45, #map45, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2 : f64, f64, i32) outs(%arg3 : tensor<4x8xf32>) attrs =  {linalg.memoized_indexing_maps = [#map45, #map45, #map45, #map11]} {
// CHECK-NEXT:   ^bb0(%in: f64, %in_1: f64, %in_2: i32, %out: f32):
// CHECK-NEXT:     %1 = linalg.index 1 : index
// CHECK-NEXT:     %2 = arith.index_cast %1 : index to i32
// CHECK-NEXT:     %3 = linalg.index 0 : index
// CHECK-NEXT:     %4 = arith.index_cast %3 : index to i32
// CHECK-NEXT:     %5 = arith.addi %4, %in_2 : i32
// CHECK-NEXT:     %6 = arith.muli %5, %c1103515245_i32 : i32
// CHECK-NEXT:     %7 = arith.addi %6, %c12345_i32 : i32
// CHECK-NEXT:     %8 = arith.addi %2, %7 : i32
// CHECK-NEXT:     %9 = arith.muli %8, %c1103515245_i32 : i32
// CHECK-NEXT:     %10 = arith.addi %9, %c12345_i32 : i32
// CHECK-NEXT:     %11 = arith.sitofp %10 : i32 to f64
// CHECK-NEXT:     %12 = arith.addf %11, %cst : f64
// CHECK-NEXT:     %13 = arith.subf %in_1, %in : f64
// CHECK-NEXT:     %14 = arith.mulf %13, %cst_0 : f64
// CHECK-NEXT:     %15 = arith.mulf %12, %14 : f64
// CHECK-NEXT:     %16 = arith.addf %15, %in : f64
// CHECK-NEXT:     %17 = arith.truncf %16 : f64 to f32
// CHECK-NEXT:     linalg.yield %17 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %0 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @fill_rng(%lo: f64, %hi: f64, %seed: i32, %t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// transpose, broadcast, reduce and map in short form.
// CHECK-LABEL: func.func @data_movement(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>, %arg3: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map14, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<8x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   } -> tensor<8x4xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map12, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<8xf32>) outs(%arg0 : tensor<4x8xf32>) attrs =  {tag} {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map11, #map13], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg3 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %4 = arith.maximumf %out, %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %4 = math.absf %in : f32
// CHECK-NEXT:     linalg.yield %4 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @data_movement(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %v: tensor<8xf32>, %r: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0]
  %1 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%a : tensor<4x8xf32>) dimensions = [0] {tag}
  %2 = linalg.reduce { arith.maximumf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %3 = linalg.map { math.absf } ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}

// map and reduce with written-out payloads.
// CHECK-LABEL: func.func @payloads(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map11, #map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %3 = math.exp %2 : f32
// CHECK-NEXT:     linalg.yield %3 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %1:2 = linalg.generic {indexing_maps = [#map11, #map11, #map13, #map13], iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg2, %arg3 : tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32, %out_1: f32):
// CHECK-NEXT:     %2 = arith.addf %in, %out : f32
// CHECK-NEXT:     %3 = arith.maximumf %in_0, %out_1 : f32
// CHECK-NEXT:     linalg.yield %2, %3 : f32, f32
// CHECK-NEXT:   } -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:   return %0, %1#0, %1#1 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @payloads(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %r: tensor<4xf32>, %r2: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.map ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
    (%x: f32, %y: f32, %init: f32) {
      %m = arith.mulf %x, %y : f32
      %e = math.exp %m : f32
      linalg.yield %e : f32
    }
  %1:2 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%r, %r2 : tensor<4xf32>, tensor<4xf32>) dimensions = [1]
    (%x: f32, %y: f32, %acc: f32, %acc2: f32) {
      %s = arith.addf %x, %acc : f32
      %t = arith.maximumf %y, %acc2 : f32
      linalg.yield %s, %t : f32, f32
    }
  return %0, %1#0, %1#1 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
}

// linalg.elementwise, with its kinds and maps.
// CHECK-LABEL: func.func @elementwise(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>, %arg3: tensor<4x8xi1>, %arg4: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>) {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %5 = math.exp %in : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map11, #map14, #map11], iterator_types = ["parallel", "parallel"]} ins(%0, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %5 = arith.subf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map11, #map11, #map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg3, %1, %arg0 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %5 = arith.select %in, %in_0, %in_1 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %3 = linalg.generic {indexing_maps = [#map11, #map12, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg2 : tensor<4x8xf32>, tensor<8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %5 = arith.maximumf %in, %in_0 : f32
// CHECK-NEXT:     linalg.yield %5 : f32
// CHECK-NEXT:   } -> tensor<4x8xf32>
// CHECK-NEXT:   %4 = linalg.generic {indexing_maps = [#map11, #map11, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg4, %arg4 : tensor<4x8xi32>, tensor<4x8xi32>) outs(%arg4 : tensor<4x8xi32>) {
// CHECK-NEXT:   ^bb0(%in: i32, %in_0: i32, %out: i32):
// CHECK-NEXT:     %5 = arith.addi %in, %in_0 : i32
// CHECK-NEXT:     linalg.yield %5 : i32
// CHECK-NEXT:   } -> tensor<4x8xi32>
// CHECK-NEXT:   return %2, %3, %1, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>
// CHECK-NEXT: }
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %v: tensor<8xf32>, %c: tensor<4x8xi1>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = linalg.elementwise <exp> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise <sub> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%0, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise <select> ins(%c, %1, %a : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise <max_signed> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.elementwise <add> ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %2, %3, %1, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>
}

// Dynamic shapes.
// CHECK-LABEL: func.func @dynamic(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%arg2 : tensor<?x?xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %1 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %2 = arith.addf %out, %1 : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<?x?xf32>
// CHECK-NEXT:   return %0 : tensor<?x?xf32>
// CHECK-NEXT: }
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// linalg.generic and non-structured ops (softmax) are left alone.
// CHECK-LABEL: func.func @generic_untouched(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%arg1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.negf %in : f32
// CHECK-NEXT:     linalg.yield %2 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.softmax dimension(0) ins(%0 : tensor<4xf32>) outs(%arg1 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %1 : tensor<4xf32>
// CHECK-NEXT: }
func.func @generic_untouched(%a: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%s : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %1 = linalg.softmax dimension(0) ins(%0 : tensor<4xf32>) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// On buffers: generic ops without results (what convert-linalg-to-loops gets).
// CHECK-LABEL: func.func @buffers(%arg0: memref<4x8xf32>, %arg1: memref<8x4xf32>, %arg2: memref<4x4xf32>, %arg3: f32) {
// CHECK-NEXT:   linalg.generic {indexing_maps = [#map45, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg3 : f32) outs(%arg2 : memref<4x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x4xf32>) outs(%arg2 : memref<4x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %0 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT:     %1 = arith.addf %out, %0 : f32
// CHECK-NEXT:     linalg.yield %1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   linalg.generic {indexing_maps = [#map14, #map11], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x8xf32>) outs(%arg1 : memref<8x4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     linalg.yield %in : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   return
// CHECK-NEXT: }
func.func @buffers(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %s: f32) {
  linalg.fill ins(%s : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.transpose ins(%a : memref<4x8xf32>) outs(%b : memref<8x4xf32>) permutation = [1, 0]
  return
}
