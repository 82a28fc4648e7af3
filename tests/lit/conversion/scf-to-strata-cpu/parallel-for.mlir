// RUN: strata-opt %s --convert-scf-to-strata-cpu | filecheck %s
// RUN: strata-opt %s --convert-scf-to-strata-cpu=min-chunk-work=1000000 | filecheck %s --check-prefix=BIG

// scf.parallel loops at the top of a function -> strata_cpu.parallel_for of an outlined
// chunk function (flat range [lo, hi) of the split dimensions), above a work threshold.

// A dynamic batch and 128 rows collapse into one flat range (the batch is often 1);
// the innermost loop (384, vectorized) stays a loop of its own inside each chunk.
// CHECK-LABEL: func.func private @elementwise(%arg0: memref<?x128x384xf32>, %arg1: memref<?x128x384xf32>, %arg2: index) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c128 = arith.constant 128 : index
//  CHECK-NEXT:   %c384 = arith.constant 384 : index
//  CHECK-NEXT:   %0 = arith.maxsi %arg2, %c0 : index
//  CHECK-NEXT:   %1 = arith.muli %0, %c128 : index
//  CHECK-NEXT:   %c6 = arith.constant 6 : index
//  CHECK-NEXT:   strata_cpu.parallel_for @elementwise__chunk0(%arg0, %arg1) count(%1) grain(%c6) : (memref<?x128x384xf32>, memref<?x128x384xf32>)
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
//       CHECK: func.func private @elementwise__chunk0(%arg0: memref<?x128x384xf32>, %arg1: memref<?x128x384xf32>, %arg2: index, %arg3: index) attributes {strata.outlined, strata.parallel_chunk} {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c128 = arith.constant 128 : index
//  CHECK-NEXT:   %c384 = arith.constant 384 : index
//  CHECK-NEXT:   scf.for %arg4 = %arg2 to %arg3 step %c1 {
//  CHECK-NEXT:     %0 = arith.remui %arg4, %c128 : index
//  CHECK-NEXT:     %1 = arith.divui %arg4, %c128 : index
//  CHECK-NEXT:     scf.parallel (%arg5) = (%c0) to (%c384) step (%c1) {
//  CHECK-NEXT:       %2 = memref.load %arg0[%1, %0, %arg5] : memref<?x128x384xf32>
//  CHECK-NEXT:       %3 = math.exp %2 : f32
//  CHECK-NEXT:       memref.store %3, %arg1[%1, %0, %arg5] : memref<?x128x384xf32>
//  CHECK-NEXT:       scf.reduce
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @elementwise(%a: memref<?x128x384xf32>, %b: memref<?x128x384xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c384 = arith.constant 384 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c128, %c384) step (%c1, %c1, %c1) {
    %v = memref.load %a[%i, %j, %k] : memref<?x128x384xf32>
    %w = math.exp %v : f32
    memref.store %w, %b[%i, %j, %k] : memref<?x128x384xf32>
    scf.reduce
  }
  return
}

// A loop inside the body: every parallel dimension may be split; the static trip
// count 1 of the first one takes no part (its index is the lower bound).
// CHECK-LABEL: func.func private @row_sums(%arg0: memref<1x256x512xf32>, %arg1: memref<1x256xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c256 = arith.constant 256 : index
//  CHECK-NEXT:   %c512 = arith.constant 512 : index
//  CHECK-NEXT:   %c13 = arith.constant 13 : index
//  CHECK-NEXT:   strata_cpu.parallel_for @row_sums__chunk0(%arg0, %arg1) count(%c256) grain(%c13) : (memref<1x256x512xf32>, memref<1x256xf32>)
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
//       CHECK: func.func private @row_sums__chunk0(%arg0: memref<1x256x512xf32>, %arg1: memref<1x256xf32>, %arg2: index, %arg3: index) attributes {strata.outlined, strata.parallel_chunk} {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c512 = arith.constant 512 : index
//  CHECK-NEXT:   scf.for %arg4 = %arg2 to %arg3 step %c1 {
//  CHECK-NEXT:     scf.for %arg5 = %c0 to %c512 step %c1 {
//  CHECK-NEXT:       %0 = memref.load %arg0[%c0, %arg4, %arg5] : memref<1x256x512xf32>
//  CHECK-NEXT:       %1 = memref.load %arg1[%c0, %arg4] : memref<1x256xf32>
//  CHECK-NEXT:       %2 = arith.addf %1, %0 : f32
//  CHECK-NEXT:       memref.store %2, %arg1[%c0, %arg4] : memref<1x256xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @row_sums(%a: memref<1x256x512xf32>, %s: memref<1x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c256) step (%c1, %c1) {
    scf.for %k = %c0 to %c512 step %c1 {
      %v = memref.load %a[%i, %j, %k] : memref<1x256x512xf32>
      %acc = memref.load %s[%i, %j] : memref<1x256xf32>
      %sum = arith.addf %acc, %v : f32
      memref.store %sum, %s[%i, %j] : memref<1x256xf32>
    }
    scf.reduce
  }
  return
}

// Lower bounds and steps other than 0 and 1; a dynamic trip count (the runtime decides
// with the grain whether two threads are worth it).
// CHECK-LABEL: func.func private @strided(%arg0: memref<?xf32>, %arg1: index) {
//  CHECK-NEXT:   %c2 = arith.constant 2 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c1000 = arith.constant 1000 : index
//  CHECK-NEXT:   %cst = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:   %0 = arith.subi %arg1, %c2 : index
//  CHECK-NEXT:   %1 = arith.ceildivsi %0, %c3 : index
//  CHECK-NEXT:   %2 = arith.maxsi %1, %c0 : index
//  CHECK-NEXT:   %c17 = arith.constant 17 : index
//  CHECK-NEXT:   strata_cpu.parallel_for @strided__chunk0(%arg0) count(%2) grain(%c17) : (memref<?xf32>)
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
//       CHECK: func.func private @strided__chunk0(%arg0: memref<?xf32>, %arg1: index, %arg2: index) attributes {strata.outlined, strata.parallel_chunk} {
//  CHECK-NEXT:   %c2 = arith.constant 2 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %cst = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1000 = arith.constant 1000 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   scf.for %arg3 = %arg1 to %arg2 step %c1 {
//  CHECK-NEXT:     %0 = arith.muli %arg3, %c3 : index
//  CHECK-NEXT:     %1 = arith.addi %c2, %0 : index
//  CHECK-NEXT:     scf.for %arg4 = %c0 to %c1000 step %c1 {
//  CHECK-NEXT:       memref.store %cst, %arg0[%1] : memref<?xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @strided(%a: memref<?xf32>, %n: index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c2) to (%n) step (%c3) {
    scf.for %k = %c0 to %c1000 step %c1 {
      memref.store %f, %a[%i] : memref<?xf32>
    }
    scf.reduce
  }
  return
}

// Too little work for two chunks: stays as it is.
// BIG-LABEL: func.func private @row_sums(
//  BIG-NEXT: %c0 = arith.constant 0 : index
//  BIG-NEXT: %c1 = arith.constant 1 : index
//  BIG-NEXT: %c256 = arith.constant 256 : index
//  BIG-NEXT: %c512 = arith.constant 512 : index
//  BIG-NEXT: scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c1, %c256) step (%c1, %c1) {
// BIG-LABEL: func.func private @two_loops(
//   BIG-NOT: parallel_for
// CHECK-LABEL: func.func private @small(%arg0: memref<4x8xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c4 = arith.constant 4 : index
//  CHECK-NEXT:   %c8 = arith.constant 8 : index
//  CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   scf.parallel (%arg1, %arg2) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
//  CHECK-NEXT:     memref.store %cst, %arg0[%arg1, %arg2] : memref<4x8xf32>
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @small(%a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}

// A parallel dimension (%i) the store does not index: iterations would race on %b.
// CHECK-LABEL: func.func private @not_indexed(%arg0: memref<1024x1024xf32>, %arg1: memref<1024xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c1024 = arith.constant 1024 : index
//  CHECK-NEXT:   scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c1024, %c1024) step (%c1, %c1) {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg2, %arg3] : memref<1024x1024xf32>
//  CHECK-NEXT:     memref.store %0, %arg1[%arg3] : memref<1024xf32>
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @not_indexed(%a: memref<1024x1024xf32>, %b: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c1024) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<1024x1024xf32>
    memref.store %v, %b[%j] : memref<1024xf32>
    scf.reduce
  }
  return
}

func.func private @opaque(%a: memref<1024x1024xf32>)

// A call of unknown effects in the body: stays sequential.
// CHECK-LABEL: func.func private @calls(%arg0: memref<1024x1024xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c1024 = arith.constant 1024 : index
//  CHECK-NEXT:   scf.parallel (%arg1) = (%c0) to (%c1024) step (%c1) {
//  CHECK-NEXT:     scf.for %arg2 = %c0 to %c1024 step %c1 {
//  CHECK-NEXT:       func.call @opaque(%arg0) : (memref<1024x1024xf32>) -> ()
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @calls(%a: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i) = (%c0) to (%c1024) step (%c1) {
    scf.for %k = %c0 to %c1024 step %c1 {
      func.call @opaque(%a) : (memref<1024x1024xf32>) -> ()
    }
    scf.reduce
  }
  return
}

// Two loops of one function: one chunk function each.
// CHECK-LABEL: func.func private @two_loops(%arg0: memref<8192xf32>, %arg1: memref<8192xf32>) {
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c8192 = arith.constant 8192 : index
//  CHECK-NEXT:   %cst = arith.constant 2.000000e+00 : f32
//  CHECK-NEXT:   %c2185 = arith.constant 2185 : index
//  CHECK-NEXT:   strata_cpu.parallel_for @two_loops__chunk0(%arg0, %arg1) count(%c8192) grain(%c2185) : (memref<8192xf32>, memref<8192xf32>)
//  CHECK-NEXT:   strata_cpu.parallel_for @two_loops__chunk1(%arg1, %arg0) count(%c8192) grain(%c2185) : (memref<8192xf32>, memref<8192xf32>)
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
//       CHECK: func.func private @two_loops__chunk0(%arg0: memref<8192xf32>, %arg1: memref<8192xf32>, %arg2: index, %arg3: index) attributes {strata.outlined, strata.parallel_chunk} {
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   scf.for %arg4 = %arg2 to %arg3 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg4] : memref<8192xf32>
//  CHECK-NEXT:     %1 = math.sin %0 : f32
//  CHECK-NEXT:     memref.store %1, %arg1[%arg4] : memref<8192xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
//       CHECK: func.func private @two_loops__chunk1(%arg0: memref<8192xf32>, %arg1: memref<8192xf32>, %arg2: index, %arg3: index) attributes {strata.outlined, strata.parallel_chunk} {
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   scf.for %arg4 = %arg2 to %arg3 step %c1 {
//  CHECK-NEXT:     %0 = memref.load %arg0[%arg4] : memref<8192xf32>
//  CHECK-NEXT:     %1 = math.cos %0 : f32
//  CHECK-NEXT:     memref.store %1, %arg1[%arg4] : memref<8192xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func private @two_loops(%a: memref<8192xf32>, %b: memref<8192xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c8192) step (%c1) {
    %v = memref.load %a[%i] : memref<8192xf32>
    %w = math.sin %v : f32
    memref.store %w, %b[%i] : memref<8192xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8192) step (%c1) {
    %v = memref.load %b[%i] : memref<8192xf32>
    %w = math.cos %v : f32
    memref.store %w, %a[%i] : memref<8192xf32>
    scf.reduce
  }
  return
}
