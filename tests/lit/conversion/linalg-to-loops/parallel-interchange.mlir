// RUN: strata-opt %s --convert-linalg-to-parallel-loops=interchange-for-locality=true | filecheck %s

// interchange-for-locality with parallel loops: matmul (i, j, k) runs as (i, k, j), the
// moved loop j leaving the run of parallel loops it was in: scf.parallel (i), scf.for
// (k), scf.parallel (j).
// CHECK-LABEL: func.func @matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c4 = arith.constant 4 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c16 = arith.constant 16 : index
//  CHECK-NEXT:   %c8 = arith.constant 8 : index
//  CHECK-NEXT:   scf.parallel (%arg3) = (%c0) to (%c4) step (%c1) {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:       scf.parallel (%arg5) = (%c0) to (%c16) step (%c1) {
//  CHECK-NEXT:         %0 = memref.load %arg0[%arg3, %arg4] : memref<4x8xf32>
//  CHECK-NEXT:         %1 = memref.load %arg1[%arg4, %arg5] : memref<8x16xf32>
//  CHECK-NEXT:         %2 = memref.load %arg2[%arg3, %arg5] : memref<4x16xf32>
//  CHECK-NEXT:         %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:         %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:         memref.store %4, %arg2[%arg3, %arg5] : memref<4x16xf32>
//  CHECK-NEXT:         scf.reduce
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
