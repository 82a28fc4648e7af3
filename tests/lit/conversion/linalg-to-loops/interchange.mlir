// RUN: strata-opt %s --convert-linalg-to-loops=interchange-for-locality=true | filecheck %s

// interchange-for-locality (Strata's option): the loop of the output's innermost dim runs
// innermost when it is parallel and innermost in every input that uses it.
// matmul (i, j, k) runs as (i, k, j): B and C rows are walked with unit stride.
// CHECK-LABEL: func.func @matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c16 = arith.constant 16 : index
//  CHECK-NEXT: %c8 = arith.constant 8 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c16 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg3, %arg4] : memref<4x8xf32>
//  CHECK-NEXT:       %1 = memref.load %arg1[%arg4, %arg5] : memref<8x16xf32>
//  CHECK-NEXT:       %2 = memref.load %arg2[%arg3, %arg5] : memref<4x16xf32>
//  CHECK-NEXT:       %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:       %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:       memref.store %4, %arg2[%arg3, %arg5] : memref<4x16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @matmul(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// The batch dims stay outside.
// CHECK-LABEL: func.func @batch_matmul(%arg0: memref<2x4x8xf32>, %arg1: memref<2x8x16xf32>, %arg2: memref<2x4x16xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c16 = arith.constant 16 : index
//  CHECK-NEXT: %c8 = arith.constant 8 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:       scf.for %arg6 = %c0 to %c16 step %c1 {
//  CHECK-NEXT:         %0 = memref.load %arg0[%arg3, %arg4, %arg5] : memref<2x4x8xf32>
//  CHECK-NEXT:         %1 = memref.load %arg1[%arg3, %arg5, %arg6] : memref<2x8x16xf32>
//  CHECK-NEXT:         %2 = memref.load %arg2[%arg3, %arg4, %arg6] : memref<2x4x16xf32>
//  CHECK-NEXT:         %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:         %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:         memref.store %4, %arg2[%arg3, %arg4, %arg6] : memref<2x4x16xf32>
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @batch_matmul(%A: memref<2x4x8xf32>, %B: memref<2x8x16xf32>, %C: memref<2x4x16xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%C : memref<2x4x16xf32>)
  return
}

// A row reduction keeps its order: the output's dim is not innermost in the input.
// CHECK-LABEL: func.func @row_sum(%arg0: memref<4x5xf32>, %arg1: memref<4xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3] : memref<4x5xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%arg2] : memref<4xf32>
//  CHECK-NEXT:     %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:     memref.store %2, %arg1[%arg2] : memref<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @row_sum(%a: memref<4x5xf32>, %b: memref<4xf32>) {
  linalg.reduce ins(%a : memref<4x5xf32>) outs(%b : memref<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return
}

// Already innermost: unchanged.
// CHECK-LABEL: func.func @copy(%arg0: memref<4x5xf32>, %arg1: memref<4x5xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3] : memref<4x5xf32>
//  CHECK-NEXT:     memref.store %0, %arg1[%arg2, %arg3] : memref<4x5xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @copy(%a: memref<4x5xf32>, %b: memref<4x5xf32>) {
  linalg.copy ins(%a : memref<4x5xf32>) outs(%b : memref<4x5xf32>)
  return
}

// Channels last: the channel loop goes inside the window loops.
// CHECK-LABEL: func.func @pooling_nhwc_sum(%arg0: memref<1x4x4x8xf32>, %arg1: memref<2x2xf32>, %arg2: memref<1x3x3x8xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c8 = arith.constant 8 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c1 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:       scf.for %arg6 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:         scf.for %arg7 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:           scf.for %arg8 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:             %0 = arith.addi %arg4, %arg6 : index
//  CHECK-NEXT:             %1 = arith.addi %arg5, %arg7 : index
//  CHECK-NEXT:             %2 = memref.load %arg0[%arg3, %0, %1, %arg8] : memref<1x4x4x8xf32>
//  CHECK-NEXT:             %3 = memref.load %arg2[%arg3, %arg4, %arg5, %arg8] : memref<1x3x3x8xf32>
//  CHECK-NEXT:             %4 = arith.addf %3, %2 : f32
//  CHECK-NEXT:             memref.store %4, %arg2[%arg3, %arg4, %arg5, %arg8] : memref<1x3x3x8xf32>
//  CHECK-NEXT:           }
//  CHECK-NEXT:         }
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @pooling_nhwc_sum(%I: memref<1x4x4x8xf32>, %K: memref<2x2xf32>, %O: memref<1x3x3x8xf32>) {
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %K : memref<1x4x4x8xf32>, memref<2x2xf32>) outs(%O : memref<1x3x3x8xf32>)
  return
}
