// RUN: strata-opt %s --convert-linalg-to-loops | filecheck %s

// Window indices (a loop index times the stride plus a window index) are computed with
// arith ops on index values where upstream writes affine.apply (Strata has no affine
// dialect): what upstream's lower-affine makes of them. Everything else is upstream's.
// CHECK-LABEL: func.func @conv_2d_nchw_fchw(%arg0: memref<1x3x8x8xf32>, %arg1: memref<4x3x3x3xf32>, %arg2: memref<1x4x3x3xf32>) {
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c1 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:       scf.for %arg6 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:         scf.for %arg7 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:           scf.for %arg8 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:             scf.for %arg9 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:               %0 = arith.muli %arg5, %c2 overflow<nsw> : index
//  CHECK-NEXT:               %1 = arith.addi %0, %arg8 : index
//  CHECK-NEXT:               %2 = arith.muli %arg6, %c2 overflow<nsw> : index
//  CHECK-NEXT:               %3 = arith.addi %2, %arg9 : index
//  CHECK-NEXT:               %4 = memref.load %arg0[%arg3, %arg7, %1, %3] : memref<1x3x8x8xf32>
//  CHECK-NEXT:               %5 = memref.load %arg1[%arg4, %arg7, %arg8, %arg9] : memref<4x3x3x3xf32>
//  CHECK-NEXT:               %6 = memref.load %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x4x3x3xf32>
//  CHECK-NEXT:               %7 = arith.mulf %4, %5 : f32
//  CHECK-NEXT:               %8 = arith.addf %6, %7 : f32
//  CHECK-NEXT:               memref.store %8, %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x4x3x3xf32>
//  CHECK-NEXT:             }
//  CHECK-NEXT:           }
//  CHECK-NEXT:         }
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @conv_2d_nchw_fchw(%I: memref<1x3x8x8xf32>, %F: memref<4x3x3x3xf32>, %O: memref<1x4x3x3xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I, %F : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%O : memref<1x4x3x3xf32>)
  return
}

// CHECK-LABEL: func.func @pooling_nhwc_max(%arg0: memref<1x8x8x3xf32>, %arg1: memref<2x2xf32>, %arg2: memref<1x4x4x3xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c1 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:       scf.for %arg6 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:         scf.for %arg7 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:           scf.for %arg8 = %c0 to %c2 step %c1 {
//  CHECK-NEXT:             %0 = arith.muli %arg4, %c2 overflow<nsw> : index
//  CHECK-NEXT:             %1 = arith.addi %0, %arg7 : index
//  CHECK-NEXT:             %2 = arith.muli %arg5, %c2 overflow<nsw> : index
//  CHECK-NEXT:             %3 = arith.addi %2, %arg8 : index
//  CHECK-NEXT:             %4 = memref.load %arg0[%arg3, %1, %3, %arg6] : memref<1x8x8x3xf32>
//  CHECK-NEXT:             %5 = memref.load %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x4x4x3xf32>
//  CHECK-NEXT:             %6 = arith.maximumf %5, %4 : f32
//  CHECK-NEXT:             memref.store %6, %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x4x4x3xf32>
//  CHECK-NEXT:           }
//  CHECK-NEXT:         }
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @pooling_nhwc_max(%I: memref<1x8x8x3xf32>, %K: memref<2x2xf32>, %O: memref<1x4x4x3xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I, %K : memref<1x8x8x3xf32>, memref<2x2xf32>) outs(%O : memref<1x4x4x3xf32>)
  return
}

// Unit strides and dilations: an addition only.
// CHECK-LABEL: func.func @conv_1d(%arg0: memref<10xf32>, %arg1: memref<3xf32>, %arg2: memref<8xf32>) {
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c8 = arith.constant 8 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: scf.for %arg3 = %c0 to %c8 step %c1 {
//  CHECK-NEXT:   scf.for %arg4 = %c0 to %c3 step %c1 {
//  CHECK-NEXT:     %0 = arith.addi %arg3, %arg4 : index
//  CHECK-NEXT:     %1 = memref.load %arg0[%0] : memref<10xf32>
//  CHECK-NEXT:     %2 = memref.load %arg1[%arg4] : memref<3xf32>
//  CHECK-NEXT:     %3 = memref.load %arg2[%arg3] : memref<8xf32>
//  CHECK-NEXT:     %4 = arith.mulf %1, %2 : f32
//  CHECK-NEXT:     %5 = arith.addf %3, %4 : f32
//  CHECK-NEXT:     memref.store %5, %arg2[%arg3] : memref<8xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @conv_1d(%I: memref<10xf32>, %F: memref<3xf32>, %O: memref<8xf32>) {
  linalg.conv_1d ins(%I, %F : memref<10xf32>, memref<3xf32>) outs(%O : memref<8xf32>)
  return
}

// floordiv and mod.
// CHECK-LABEL: func.func @generic_div_mod(%arg0: memref<12xf32>, %arg1: memref<3x4xf32>) {
//  CHECK-NEXT: %c-1 = arith.constant -1 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c12 = arith.constant 12 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c12 step %c1 {
//  CHECK-NEXT:   %0 = memref.load %arg0[%arg2] : memref<12xf32>
//  CHECK-NEXT:   %1 = arith.cmpi slt, %arg2, %c0 : index
//  CHECK-NEXT:   %2 = arith.subi %c-1, %arg2 : index
//  CHECK-NEXT:   %3 = arith.select %1, %2, %arg2 : index
//  CHECK-NEXT:   %4 = arith.divsi %3, %c4 : index
//  CHECK-NEXT:   %5 = arith.subi %c-1, %4 : index
//  CHECK-NEXT:   %6 = arith.select %1, %5, %4 : index
//  CHECK-NEXT:   %7 = arith.remsi %arg2, %c4 : index
//  CHECK-NEXT:   %8 = arith.cmpi slt, %7, %c0 : index
//  CHECK-NEXT:   %9 = arith.addi %7, %c4 : index
//  CHECK-NEXT:   %10 = arith.select %8, %9, %7 : index
//  CHECK-NEXT:   memref.store %0, %arg1[%6, %10] : memref<3x4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @generic_div_mod(%a: memref<12xf32>, %b: memref<3x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>], iterator_types = ["parallel"]} ins(%a : memref<12xf32>) outs(%b : memref<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// ceildiv.
// CHECK-LABEL: func.func @generic_ceildiv(%arg0: memref<7xf32>, %arg1: memref<4xf32>) {
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: scf.for %arg2 = %c0 to %c4 step %c1 {
//  CHECK-NEXT:   %0 = arith.cmpi sle, %arg2, %c0 : index
//  CHECK-NEXT:   %1 = arith.subi %c0, %arg2 : index
//  CHECK-NEXT:   %2 = arith.subi %arg2, %c1 : index
//  CHECK-NEXT:   %3 = arith.select %0, %1, %2 : index
//  CHECK-NEXT:   %4 = arith.divsi %3, %c2 : index
//  CHECK-NEXT:   %5 = arith.subi %c0, %4 : index
//  CHECK-NEXT:   %6 = arith.addi %4, %c1 : index
//  CHECK-NEXT:   %7 = arith.select %0, %5, %6 : index
//  CHECK-NEXT:   %8 = memref.load %arg0[%7] : memref<7xf32>
//  CHECK-NEXT:   memref.store %8, %arg1[%arg2] : memref<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @generic_ceildiv(%a: memref<7xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 ceildiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<7xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
