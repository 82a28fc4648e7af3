// RUN: strata-opt %s --strata-linalg-fuse-row-reductions | filecheck %s
// RUN: strata-opt %s --strata-linalg-fuse-row-reductions=parallel=false | filecheck %s --check-prefix=SERIAL
// RUN: strata-opt %s --strata-linalg-fuse-row-reductions=reassociate=false | filecheck %s --check-prefix=EXACT

// Softmax over the last dim as ONNX lowers it (max, exp of the difference, sum,
// division; reduced values through [2, 4, 1] views of [2, 4] buffers): one parallel loop
// over the 2 x 4 rows; max in one loop, exp and sum in one, division in one; the maxima and
// sums are loop-carried values, the exponentials a stack buffer of one row.

// CHECK-LABEL: func.func @softmax(%arg0: memref<2x4x16xf32>) -> memref<2x4x16xf32> {
//  CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   %[[NINF:.*]] = arith.constant 0xFF800000 : f32
//  CHECK-NEXT:   %[[XV:.*]] = memref.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [2, 4, 1, 16]
//  CHECK-NEXT:   %[[Y:.*]] = memref.alloc() : memref<2x4x16xf32>
//  CHECK-NEXT:   %[[C16:.*]] = arith.constant 16 : index
//  CHECK-NEXT:   %[[C2:.*]] = arith.constant 2 : index
//  CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : index
//  CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
//  CHECK-NEXT:   scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[C2]], %[[C4]]) step (%[[C1]], %[[C1]]) {
//  CHECK-NEXT:     %[[E:.*]] = memref.alloca() alignment = 64 : memref<16xf32>
//  CHECK-NEXT:     %[[MAX:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[A:.*]] = %[[NINF]]) -> (f32) {
//  CHECK-NEXT:       %[[V:.*]] = memref.load %[[XV]][%[[I]], %[[J]], %[[C0]], %[[K]]] : memref<2x4x1x16xf32>
//  CHECK-NEXT:       %[[M:.*]] = arith.maximumf %[[A]], %[[V]] fastmath<reassoc> : f32
//  CHECK-NEXT:       scf.yield %[[M]] : f32
//  CHECK-NEXT:     }
//  CHECK-NEXT:     %[[SUM:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[A:.*]] = %[[ZERO]]) -> (f32) {
//  CHECK-NEXT:       %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]], %[[K]]] : memref<2x4x16xf32>
//  CHECK-NEXT:       %[[D:.*]] = arith.subf %[[V]], %[[MAX]] : f32
//  CHECK-NEXT:       %[[EX:.*]] = math.exp %[[D]] : f32
//  CHECK-NEXT:       memref.store %[[EX]], %[[E]][%[[K]]] : memref<16xf32>
//  CHECK-NEXT:       %[[S:.*]] = arith.addf %[[A]], %[[EX]] fastmath<reassoc> : f32
//  CHECK-NEXT:       scf.yield %[[S]] : f32
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.for %[[K:.*]] = %[[C0]] to %[[C16]] step %[[C1]] {
//  CHECK-NEXT:       %[[V:.*]] = memref.load %[[E]][%[[K]]] : memref<16xf32>
//  CHECK-NEXT:       %[[Q:.*]] = arith.divf %[[V]], %[[SUM]] : f32
//  CHECK-NEXT:       memref.store %[[Q]], %[[Y]][%[[I]], %[[J]], %[[K]]] : memref<2x4x16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[Y]] : memref<2x4x16xf32>

// Serially: an scf.for nest over the rows, the row buffer allocated once before it.
// SERIAL-LABEL: func.func @softmax(
//       SERIAL:   %[[E:.*]] = memref.alloca() alignment = 64 : memref<16xf32>
//  SERIAL-NEXT:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
//  SERIAL-NEXT:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
//  SERIAL-NEXT:       scf.for
//       SERIAL:       memref.store %{{.*}}, %[[E]][%{{.*}}] : memref<16xf32>
//   SERIAL-NOT:   scf.parallel

// EXACT-LABEL: func.func @softmax(
//   EXACT-NOT: fastmath
//       EXACT: arith.maximumf %{{.*}}, %{{.*}} : f32
//   EXACT-NOT: fastmath
//       EXACT: arith.addf %{{.*}}, %{{.*}} : f32
//   EXACT-NOT: fastmath

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @softmax(%x: memref<2x4x16xf32>) -> memref<2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %max = memref.alloc() : memref<2x4xf32>
  %maxv = memref.expand_shape %max [[0], [1, 2]] output_shape [2, 4, 1] : memref<2x4xf32> into memref<2x4x1xf32>
  linalg.fill ins(%ninf : f32) outs(%maxv : memref<2x4x1xf32>)
  %xv = memref.expand_shape %x [[0], [1, 2], [3]] output_shape [2, 4, 1, 16] : memref<2x4x16xf32> into memref<2x4x1x16xf32>
  linalg.generic {indexing_maps = [#id4, #red4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%xv : memref<2x4x1x16xf32>) outs(%maxv : memref<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  %e = memref.alloc() : memref<2x4x16xf32>
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %maxv : memref<2x4x16xf32>, memref<2x4x1xf32>) outs(%e : memref<2x4x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  memref.dealloc %max : memref<2x4xf32>
  %sum = memref.alloc() : memref<2x4xf32>
  %sumv = memref.expand_shape %sum [[0], [1, 2]] output_shape [2, 4, 1] : memref<2x4xf32> into memref<2x4x1xf32>
  linalg.fill ins(%zero : f32) outs(%sumv : memref<2x4x1xf32>)
  %ev = memref.expand_shape %e [[0], [1, 2], [3]] output_shape [2, 4, 1, 16] : memref<2x4x16xf32> into memref<2x4x1x16xf32>
  linalg.generic {indexing_maps = [#id4, #red4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ev : memref<2x4x1x16xf32>) outs(%sumv : memref<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  %y = memref.alloc() : memref<2x4x16xf32>
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %sumv : memref<2x4x16xf32>, memref<2x4x1xf32>) outs(%y : memref<2x4x16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %e : memref<2x4x16xf32>
  memref.dealloc %sum : memref<2x4xf32>
  return %y : memref<2x4x16xf32>
}
