// RUN: strata-opt %s --strata-linalg-fuse-row-reductions | filecheck %s

// Layer norm over rows of a dynamic count (sum and sum of squares through [?, 1] views):
// one loop per row takes both sums (two loop-carried values), the mean, variance and
// deviation are computed once per row, then one loop normalizes, scales and shifts,
// multiplying by the reciprocal of the row's deviation (see [Note: dividing by a row's
// square root]).

// CHECK-LABEL: func.func @layernorm(
//       CHECK:   %[[N:.*]] = memref.dim %arg0, %{{.*}} : memref<?x32xf32>
//       CHECK:   %[[XV:.*]] = memref.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%[[N]], 1, 32]
//       CHECK:   %[[Y:.*]] = memref.alloc(%[[N]]) : memref<?x32xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%[[N]]) step (%{{.*}}) {
//  CHECK-NEXT:     %[[S:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (f32, f32) {
//  CHECK-NEXT:       %[[V:.*]] = memref.load %[[XV]][%[[R]], %{{.*}}, %[[K]]] : memref<?x1x32xf32>
//  CHECK-NEXT:       %[[A2:.*]] = arith.addf %[[A]], %[[V]] fastmath<reassoc> : f32
//  CHECK-NEXT:       %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
//  CHECK-NEXT:       %[[B2:.*]] = arith.addf %[[B]], %[[SQ]] fastmath<reassoc> : f32
//  CHECK-NEXT:       scf.yield %[[A2]], %[[B2]] : f32, f32
//  CHECK-NEXT:     }
//  CHECK-NEXT:     %[[MEAN:.*]] = arith.divf %[[S]]#0, %{{.*}} : f32
//  CHECK-NEXT:     arith.mulf %[[MEAN]], %[[MEAN]] : f32
//  CHECK-NEXT:     arith.divf %[[S]]#1, %{{.*}} : f32
//  CHECK-NEXT:     arith.subf
//  CHECK-NEXT:     arith.addf
//  CHECK-NEXT:     %[[SD:.*]] = math.sqrt %{{.*}} : f32
//  CHECK-NEXT:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[RSD:.*]] = arith.divf %[[ONE]], %[[SD]] : f32
//  CHECK-NEXT:     scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
//  CHECK-NEXT:       %[[V:.*]] = memref.load %arg0[%[[R]], %[[K]]] : memref<?x32xf32>
//  CHECK-NEXT:       %[[W:.*]] = memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<1x32xf32>
//  CHECK-NEXT:       %[[BI:.*]] = memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<1x32xf32>
//  CHECK-NEXT:       %[[C:.*]] = arith.subf %[[V]], %[[MEAN]] : f32
//  CHECK-NEXT:       %[[NR:.*]] = arith.mulf %[[C]], %[[RSD]] : f32
//  CHECK-NEXT:       %[[SC:.*]] = arith.mulf %[[NR]], %[[W]] : f32
//  CHECK-NEXT:       %[[O:.*]] = arith.addf %[[SC]], %[[BI]] : f32
//  CHECK-NEXT:       memref.store %[[O]], %[[Y]][%[[R]], %[[K]]] : memref<?x32xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return %[[Y]] : memref<?x32xf32>

// The stable form onnx-decompose makes of LayerNormalization (the second reduction sums
// (x - mean)^2, reading the first one's row value): still one parallel loop over the
// rows, now three loops over each row's elements; the division by a value that is not
// a square root stays a division.
// CHECK-LABEL: func.func @layernorm_two_pass(
//       CHECK:   scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
//  CHECK-NEXT:     %[[S:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
//       CHECK:       arith.addf %[[A]], %{{.*}} fastmath<reassoc> : f32
//       CHECK:     }
//  CHECK-NEXT:     %[[MEAN:.*]] = arith.divf %[[S]], %{{.*}} : f32
//  CHECK-NEXT:     %[[Q:.*]] = scf.for %{{.*}} iter_args(%[[B:.*]] = %{{.*}}) -> (f32) {
//  CHECK-NEXT:       %[[V:.*]] = memref.load
//  CHECK-NEXT:       %[[D:.*]] = arith.subf %[[V]], %[[MEAN]] : f32
//  CHECK-NEXT:       %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
//  CHECK-NEXT:       arith.addf %[[B]], %[[D2]] fastmath<reassoc> : f32
//       CHECK:     }
//       CHECK:     %[[SD:.*]] = math.sqrt
//  CHECK-NEXT:     arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[RSD:.*]] = arith.divf %{{.*}}, %[[SD]] : f32
//  CHECK-NEXT:     scf.for
//   CHECK-NOT:       arith.divf
//       CHECK:       arith.mulf %{{.*}}, %[[RSD]] : f32
//       CHECK:     scf.reduce
//   CHECK-NOT:   linalg.generic
//       CHECK:   return

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @layernorm(%x: memref<?x32xf32>, %w: memref<32xf32>, %b: memref<32xf32>) -> memref<?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows = memref.dim %x, %c0 : memref<?x32xf32>
  %s = memref.alloc(%rows) : memref<?xf32>
  %sv = memref.expand_shape %s [[0, 1]] output_shape [%rows, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%zero : f32) outs(%sv : memref<?x1xf32>)
  %xv = memref.expand_shape %x [[0, 1], [2]] output_shape [%rows, 1, 32] : memref<?x32xf32> into memref<?x1x32xf32>
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xv : memref<?x1x32xf32>) outs(%sv : memref<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %q = memref.alloc(%rows) : memref<?xf32>
  %qv = memref.expand_shape %q [[0, 1]] output_shape [%rows, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%zero : f32) outs(%qv : memref<?x1xf32>)
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xv : memref<?x1x32xf32>) outs(%qv : memref<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %out, %sq : f32
    linalg.yield %a : f32
  }
  %wv = memref.expand_shape %w [[0, 1]] output_shape [1, 32] : memref<32xf32> into memref<1x32xf32>
  %bv = memref.expand_shape %b [[0, 1]] output_shape [1, 32] : memref<32xf32> into memref<1x32xf32>
  %y = memref.alloc(%rows) : memref<?x32xf32>
  linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sv, %qv, %wv, %bv : memref<?x32xf32>, memref<?x1xf32>, memref<?x1xf32>, memref<1x32xf32>, memref<1x32xf32>) outs(%y : memref<?x32xf32>) {
  ^bb0(%in: f32, %sum: f32, %sumsq: f32, %wi: f32, %bi: f32, %out: f32):
    %mean = arith.divf %sum, %n : f32
    %m2 = arith.mulf %mean, %mean : f32
    %ex2 = arith.divf %sumsq, %n : f32
    %var = arith.subf %ex2, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %sd = math.sqrt %ve : f32
    %c = arith.subf %in, %mean : f32
    %nrm = arith.divf %c, %sd : f32
    %sc = arith.mulf %nrm, %wi : f32
    %r = arith.addf %sc, %bi : f32
    linalg.yield %r : f32
  }
  memref.dealloc %s : memref<?xf32>
  memref.dealloc %q : memref<?xf32>
  return %y : memref<?x32xf32>
}

func.func @layernorm_two_pass(%x: memref<?x32xf32>, %w: memref<32xf32>, %b: memref<32xf32>) -> memref<?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows = memref.dim %x, %c0 : memref<?x32xf32>
  %s = memref.alloc(%rows) : memref<?xf32>
  %sv = memref.expand_shape %s [[0, 1]] output_shape [%rows, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%zero : f32) outs(%sv : memref<?x1xf32>)
  %xv = memref.expand_shape %x [[0, 1], [2]] output_shape [%rows, 1, 32] : memref<?x32xf32> into memref<?x1x32xf32>
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xv : memref<?x1x32xf32>) outs(%sv : memref<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %q = memref.alloc(%rows) : memref<?xf32>
  %qv = memref.expand_shape %q [[0, 1]] output_shape [%rows, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%zero : f32) outs(%qv : memref<?x1xf32>)
  linalg.generic {indexing_maps = [#id3, #red3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xv, %sv : memref<?x1x32xf32>, memref<?x1xf32>) outs(%qv : memref<?x1xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %mean = arith.divf %sum, %n : f32
    %d = arith.subf %in, %mean : f32
    %sq = arith.mulf %d, %d : f32
    %a = arith.addf %out, %sq : f32
    linalg.yield %a : f32
  }
  %wv = memref.expand_shape %w [[0, 1]] output_shape [1, 32] : memref<32xf32> into memref<1x32xf32>
  %bv = memref.expand_shape %b [[0, 1]] output_shape [1, 32] : memref<32xf32> into memref<1x32xf32>
  %y = memref.alloc(%rows) : memref<?x32xf32>
  linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sv, %qv, %wv, %bv : memref<?x32xf32>, memref<?x1xf32>, memref<?x1xf32>, memref<1x32xf32>, memref<1x32xf32>) outs(%y : memref<?x32xf32>) {
  ^bb0(%in: f32, %sum: f32, %sumsq: f32, %wi: f32, %bi: f32, %out: f32):
    %mean = arith.divf %sum, %n : f32
    %var = arith.divf %sumsq, %n : f32
    %ve = arith.addf %var, %eps : f32
    %sd = math.sqrt %ve : f32
    %c = arith.subf %in, %mean : f32
    %nrm = arith.divf %c, %sd : f32
    %sc = arith.mulf %nrm, %wi : f32
    %r = arith.addf %sc, %bi : f32
    linalg.yield %r : f32
  }
  memref.dealloc %s : memref<?xf32>
  memref.dealloc %q : memref<?xf32>
  return %y : memref<?x32xf32>
}
