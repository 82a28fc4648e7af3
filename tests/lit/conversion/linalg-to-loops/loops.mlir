// RUN: strata-opt %s --convert-linalg-to-loops | filecheck %s
// Each loop runs from 0 to the size of the first operand dim its index reaches, by 1,
// in the op's iterator order; the body loads every input and output element, runs the
// payload and stores the yielded values.
// CHECK-LABEL: func.func @matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c16 = arith.constant 16 : index
//  CHECK-NEXT: %c8 = arith.constant 8 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c16 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg3, %arg5] : memref<4x8xf32>
//  CHECK-NEXT:       %1 = memref.load %arg1[%arg5, %arg4] : memref<8x16xf32>
//  CHECK-NEXT:       %2 = memref.load %arg2[%arg3, %arg4] : memref<4x16xf32>
//  CHECK-NEXT:       %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:       %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:       memref.store %4, %arg2[%arg3, %arg4] : memref<4x16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @matmul(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// Dynamic sizes come from memref.dim; those no loop takes are erased.
// CHECK-LABEL: func.func @matmul_dynamic(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>) {
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %dim = memref.dim %arg0, %c0 : memref<?x?xf32>
//  CHECK-NEXT: %dim_0 = memref.dim %arg0, %c1 : memref<?x?xf32>
//  CHECK-NEXT: %dim_1 = memref.dim %arg1, %c1 : memref<?x?xf32>
//  CHECK-NEXT: scf.for %arg3 = %c0 to %dim step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %dim_1 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %dim_0 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg3, %arg5] : memref<?x?xf32>
//  CHECK-NEXT:       %1 = memref.load %arg1[%arg5, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:       %2 = memref.load %arg2[%arg3, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:       %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:       %4 = arith.addf %2, %3 : f32
//  CHECK-NEXT:       memref.store %4, %arg2[%arg3, %arg4] : memref<?x?xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @matmul_dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// A scalar input is used as it is; the unused load of the output is erased.
// CHECK-LABEL: func.func @fill(%arg0: f32, %arg1: memref<4x?xf32>) {
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %dim = memref.dim %arg1, %c1 : memref<4x?xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim step %c1 {
//  CHECK-NEXT:     memref.store %arg0, %arg1[%arg2, %arg3] : memref<4x?xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @fill(%x: f32, %O: memref<4x?xf32>) {
  linalg.fill ins(%x : f32) outs(%O : memref<4x?xf32>)
  return
}

// 0-d buffers: no loop at all.
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

// linalg.index is the induction variable of its loop.
// CHECK-LABEL: func.func @generic_index_reduction(%arg0: memref<4x?xf32>, %arg1: memref<4xf32>) {
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %dim = memref.dim %arg0, %c1 : memref<4x?xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3] : memref<4x?xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%arg2] : memref<4xf32>
//  CHECK-NEXT:     %2 = arith.index_cast %arg3 : index to i32
//  CHECK-NEXT:     %3 = arith.sitofp %2 : i32 to f32
//  CHECK-NEXT:     %4 = arith.mulf %0, %3 : f32
//  CHECK-NEXT:     %5 = arith.addf %4, %1 : f32
//  CHECK-NEXT:     memref.store %5, %arg1[%arg2] : memref<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @generic_index_reduction(%a: memref<4x?xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<4x?xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %x, %f : f32
    %z = arith.addf %m, %y : f32
    linalg.yield %z : f32
  }
  return
}

// Broadcasting maps, constants in maps, several outputs.
// CHECK-LABEL: func.func @generic_broadcast_two_outputs(%arg0: memref<3xf32>, %arg1: memref<2x3xf32>, %arg2: memref<2x3xf32>, %arg3: memref<3x2xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: scf.for %arg4 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg5 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg5] : memref<3xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%c0, %arg5] : memref<2x3xf32>
//  CHECK-NEXT:     %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:     %3 = arith.mulf %0, %1 : f32
//  CHECK-NEXT:     memref.store %2, %arg2[%arg4, %arg5] : memref<2x3xf32>
//  CHECK-NEXT:     memref.store %3, %arg3[%arg5, %arg4] : memref<3x2xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @generic_broadcast_two_outputs(%a: memref<3xf32>, %b: memref<2x3xf32>, %c: memref<2x3xf32>, %d: memref<3x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<3xf32>, memref<2x3xf32>) outs(%c, %d : memref<2x3xf32>, memref<3x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o1: f32, %o2: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  }
  return
}

// CHECK-LABEL: func.func @transpose(%arg0: memref<2x3x4xf32>, %arg1: memref<4x2x3xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg3, %arg4, %arg2] : memref<2x3x4xf32>
//  CHECK-NEXT:       memref.store %0, %arg1[%arg2, %arg3, %arg4] : memref<4x2x3xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @transpose(%a: memref<2x3x4xf32>, %b: memref<4x2x3xf32>) {
  linalg.transpose ins(%a : memref<2x3x4xf32>) outs(%b : memref<4x2x3xf32>) permutation = [2, 0, 1]
  return
}

// CHECK-LABEL: func.func @broadcast(%arg0: memref<3xf32>, %arg1: memref<2x3x4xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg3] : memref<3xf32>
//  CHECK-NEXT:       memref.store %0, %arg1[%arg2, %arg3, %arg4] : memref<2x3x4xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @broadcast(%a: memref<3xf32>, %b: memref<2x3x4xf32>) {
  linalg.broadcast ins(%a : memref<3xf32>) outs(%b : memref<2x3x4xf32>) dimensions = [0, 2]
  return
}

// CHECK-LABEL: func.func @reduce(%arg0: memref<4x5xf32>, %arg1: memref<4xf32>) {
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
func.func @reduce(%a: memref<4x5xf32>, %b: memref<4xf32>) {
  linalg.reduce ins(%a : memref<4x5xf32>) outs(%b : memref<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return
}

// CHECK-LABEL: func.func @map(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<4xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   %0 = memref.load %arg0[%arg3] : memref<4xf32>
//  CHECK-NEXT:   %1 = memref.load %arg1[%arg3] : memref<4xf32>
//  CHECK-NEXT:   %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:   memref.store %2, %arg2[%arg3] : memref<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @map(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  linalg.map ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}

// CHECK-LABEL: func.func @copy(%arg0: memref<4x?xf32>, %arg1: memref<4x?xf32>) {
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %dim = memref.dim %arg0, %c1 : memref<4x?xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3] : memref<4x?xf32>
//  CHECK-NEXT:     memref.store %0, %arg1[%arg2, %arg3] : memref<4x?xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @copy(%a: memref<4x?xf32>, %b: memref<4x?xf32>) {
  linalg.copy ins(%a : memref<4x?xf32>) outs(%b : memref<4x?xf32>)
  return
}

// Ops on tensors are left alone.
// CHECK-LABEL: func.func @tensor(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT: %0 = linalg.copy ins(%arg0 : tensor<4xf32>) outs(%arg1 : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT: return %0 : tensor<4xf32>
//  CHECK-NEXT: }
func.func @tensor(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A loop nest inside another loop.
// CHECK-LABEL: func.func @nested(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: index) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %arg2 step %c1 {
//  CHECK-NEXT:   %dim = memref.dim %arg0, %c0 : memref<?xf32>
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %dim step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg4] : memref<?xf32>
//  CHECK-NEXT:     %1 = memref.load %arg1[%arg4] : memref<?xf32>
//  CHECK-NEXT:     %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:     memref.store %2, %arg1[%arg4] : memref<?xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @nested(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.map ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
      (%x: f32, %o: f32) {
        %s = arith.addf %x, %o : f32
        linalg.yield %s : f32
      }
  }
  return
}
