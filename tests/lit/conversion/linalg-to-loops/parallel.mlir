// RUN: strata-opt %s --convert-linalg-to-parallel-loops | filecheck %s
// One scf.parallel per run of parallel loops, an scf.for per reduction loop.
// CHECK-LABEL: func.func @matmul(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>) {
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %dim = memref.dim %arg0, %c0 : memref<?x?xf32>
//  CHECK-NEXT: %dim_0 = memref.dim %arg0, %c1 : memref<?x?xf32>
//  CHECK-NEXT: %dim_1 = memref.dim %arg1, %c1 : memref<?x?xf32>
//  CHECK-NEXT: scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%dim, %dim_1) step (%c1, %c1) {
//  CHECK-NEXT:   scf.for %arg5 = %c0 to %dim_0 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg3, %arg5] : memref<?x?xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%arg5, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:     %2 = memref.load %arg2[%arg3, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:     %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:     %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:     memref.store %4, %arg2[%arg3, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   scf.reduce 
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// CHECK-LABEL: func.func @reduction_first(%arg0: memref<5x4x3xf32>, %arg1: memref<4x3xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:   scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%c4, %c3) step (%c1, %c1) {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3, %arg4] : memref<5x4x3xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%arg3, %arg4] : memref<4x3xf32>
//  CHECK-NEXT:     %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:     memref.store %2, %arg1[%arg3, %arg4] : memref<4x3xf32>
//  CHECK-NEXT:     scf.reduce 
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @reduction_first(%a: memref<5x4x3xf32>, %b: memref<4x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%a : memref<5x4x3xf32>) outs(%b : memref<4x3xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  return
}

// CHECK-LABEL: func.func @interleaved(%arg0: memref<2x3x4x5xf32>, %arg1: memref<2x4xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: scf.parallel (%arg2) = (%c0) to (%c2) step (%c1) {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:     scf.parallel (%arg4) = (%c0) to (%c4) step (%c1) {
//  CHECK-NEXT:       scf.for %arg5 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:         %0 = memref.load %arg0[%arg2, %arg3, %arg4, %arg5] : memref<2x3x4x5xf32>
//  CHECK-NEXT:         %1 = memref.load %arg1[%arg2, %arg4] : memref<2x4xf32>
//  CHECK-NEXT:         %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:         memref.store %2, %arg1[%arg2, %arg4] : memref<2x4xf32>
//  CHECK-NEXT:       }
//  CHECK-NEXT:       scf.reduce 
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   scf.reduce 
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @interleaved(%a: memref<2x3x4x5xf32>, %b: memref<2x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel", "reduction"]} ins(%a : memref<2x3x4x5xf32>) outs(%b : memref<2x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  return
}

// CHECK-LABEL: func.func @zero_d(%arg0: memref<f32>, %arg1: memref<f32>) {
//  CHECK-NEXT: %0 = memref.load %arg0[] : memref<f32>
//  CHECK-NEXT: %1 = memref.load %arg1[] : memref<f32>
//  CHECK-NEXT: %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT: memref.store %2, %arg1[] : memref<f32>
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @zero_d(%a: memref<f32>, %b: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : memref<f32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  return
}
