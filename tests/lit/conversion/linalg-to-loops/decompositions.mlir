// RUN: strata-opt %s --convert-linalg-to-loops | filecheck %s
// Ops upstream's pass leaves alone, lowered too on buffers (Strata's extension).
// linalg.softmax: upstream's decomposition (max, exp of the difference, sum, division)
// with the reduced values in a temporary buffer.
// CHECK-LABEL: func.func @softmax(%arg0: memref<2x?x5xf32>, %arg1: memref<2x?x5xf32>) {
//  CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %cst_0 = arith.constant -3.40282347E+38 : f32
//  CHECK-NEXT: %alloc = memref.alloc() : memref<2x5xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:     memref.store %cst_0, %alloc[%arg2, %arg3] : memref<2x5xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: %dim = memref.dim %arg0, %c1 : memref<2x?x5xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:       %1 = memref.load %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:       %2 = arith.maxnumf %0, %1 : f32
//  CHECK-NEXT:       memref.store %2, %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: %dim_1 = memref.dim %arg0, %c1 : memref<2x?x5xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim_1 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:       %1 = memref.load %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:       %2 = arith.subf %0, %1 : f32
//  CHECK-NEXT:       %3 = math.exp %2 : f32
//  CHECK-NEXT:       memref.store %3, %arg1[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:     memref.store %cst, %alloc[%arg2, %arg3] : memref<2x5xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: %dim_2 = memref.dim %arg1, %c1 : memref<2x?x5xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim_2 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg1[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:       %1 = memref.load %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:       %2 = arith.addf %0, %1 : f32
//  CHECK-NEXT:       memref.store %2, %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: %dim_3 = memref.dim %arg1, %c1 : memref<2x?x5xf32>
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %dim_3 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg1[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:       %1 = memref.load %alloc[%arg2, %arg4] : memref<2x5xf32>
//  CHECK-NEXT:       %2 = arith.divf %0, %1 : f32
//  CHECK-NEXT:       memref.store %2, %arg1[%arg2, %arg3, %arg4] : memref<2x?x5xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: memref.dealloc %alloc : memref<2x5xf32>
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @softmax(%a: memref<2x?x5xf32>, %b: memref<2x?x5xf32>) {
  linalg.softmax dimension(1) ins(%a : memref<2x?x5xf32>) outs(%b : memref<2x?x5xf32>)
  return
}

// linalg.pack: loops over the destination; the padding value outside the source.
// CHECK-LABEL: func.func @pack_padded(%arg0: memref<5x7xf32>, %arg1: memref<3x2x3x4xf32>, %arg2: f32) {
//  CHECK-NEXT: %c7 = arith.constant 7 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:       scf.for %arg6 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:         %0 = arith.muli %arg3, %c3 : index
//  CHECK-NEXT:         %1 = arith.addi %0, %arg5 : index
//  CHECK-NEXT:         %2 = arith.muli %arg4, %c4 : index
//  CHECK-NEXT:         %3 = arith.addi %2, %arg6 : index
//  CHECK-NEXT:         %4 = arith.cmpi ult, %3, %c5 : index
//  CHECK-NEXT:         %5 = arith.cmpi ult, %1, %c7 : index
//  CHECK-NEXT:         %6 = arith.andi %4, %5 : i1
//  CHECK-NEXT:         %7 = scf.if %6 -> (f32) {
//  CHECK-NEXT:           %8 = memref.load %arg0[%3, %1] : memref<5x7xf32>
//  CHECK-NEXT:           scf.yield %8 : f32
//  CHECK-NEXT:         } else {
//  CHECK-NEXT:           scf.yield %arg2 : f32
//  CHECK-NEXT:         }
//  CHECK-NEXT:         memref.store %7, %arg1[%arg3, %arg4, %arg5, %arg6] : memref<3x2x3x4xf32>
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @pack_padded(%a: memref<5x7xf32>, %b: memref<3x2x3x4xf32>, %p: f32) {
  linalg.pack %a padding_value(%p : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 4] into %b : memref<5x7xf32> -> memref<3x2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @pack(%arg0: memref<8x6xf32>, %arg1: memref<4x6x2xf32>) {
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c6 = arith.constant 6 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c6 step %c1 {
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:       %0 = arith.muli %arg2, %c2 : index
//  CHECK-NEXT:       %1 = arith.addi %0, %arg4 : index
//  CHECK-NEXT:       %2 = memref.load %arg0[%1, %arg3] : memref<8x6xf32>
//  CHECK-NEXT:       memref.store %2, %arg1[%arg2, %arg3, %arg4] : memref<4x6x2xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @pack(%a: memref<8x6xf32>, %b: memref<4x6x2xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [2] into %b : memref<8x6xf32> -> memref<4x6x2xf32>
  return
}

// linalg.unpack: loops over the destination.
// CHECK-LABEL: func.func @unpack(%arg0: memref<3x2x3x4xf32>, %arg1: memref<5x7xf32>) {
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: %c7 = arith.constant 7 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c5 step %c1 {
//  CHECK-NEXT:   scf.for %arg3 = %c0 to %c7 step %c1 {
//  CHECK-NEXT:     %0 = arith.divui %arg3, %c3 : index
//  CHECK-NEXT:     %1 = arith.remui %arg3, %c3 : index
//  CHECK-NEXT:     %2 = arith.divui %arg2, %c4 : index
//  CHECK-NEXT:     %3 = arith.remui %arg2, %c4 : index
//  CHECK-NEXT:     %4 = memref.load %arg0[%0, %2, %1, %3] : memref<3x2x3x4xf32>
//  CHECK-NEXT:     memref.store %4, %arg1[%arg2, %arg3] : memref<5x7xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @unpack(%a: memref<3x2x3x4xf32>, %b: memref<5x7xf32>) {
  linalg.unpack %a outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 4] into %b : memref<3x2x3x4xf32> -> memref<5x7xf32>
  return
}
