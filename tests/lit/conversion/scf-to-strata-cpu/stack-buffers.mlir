// RUN: strata-opt %s --convert-scf-to-strata-cpu | filecheck %s

// A static memref.alloca at the top of a parallel loop's body lives for one iteration
// (scf.parallel is an automatic allocation scope): it is allocated once per chunk, in the
// chunk function's entry block; a loop left as it is gets it once, before the loop.

// CHECK-LABEL: func.func private @rows__chunk0(
//  CHECK-SAME:     %[[X:.*]]: memref<?x64xf32>, %[[Y:.*]]: memref<?x64xf32>, %[[LO:.*]]: index, %[[HI:.*]]: index)
//       CHECK:   %[[T:.*]] = memref.alloca() : memref<64xf32>
//  CHECK-NEXT:   scf.for %[[R:.*]] = %[[LO]] to %[[HI]] step %{{.*}} {
//   CHECK-NOT:     memref.alloca
//       CHECK:     memref.store %{{.*}}, %[[T]][%{{.*}}] : memref<64xf32>
//       CHECK:     memref.load %[[T]][%{{.*}}] : memref<64xf32>
//       CHECK:   return

// Four rows are too little work to split: the loop stays, its buffer before it.
// CHECK-LABEL: func.func private @few(
//  CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
//  CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : index
//  CHECK-NEXT:   %[[C64:.*]] = arith.constant 64 : index
//  CHECK-NEXT:   %[[T:.*]] = memref.alloca() : memref<64xf32>
//  CHECK-NEXT:   scf.parallel
//   CHECK-NOT:   memref.alloca
//       CHECK:   return
func.func private @rows(%x: memref<?x64xf32>, %y: memref<?x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%r) = (%c0) to (%n) step (%c1) {
    %t = memref.alloca() : memref<64xf32>
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %x[%r, %k] : memref<?x64xf32>
      %e = math.exp %v : f32
      memref.store %e, %t[%k] : memref<64xf32>
    }
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %t[%k] : memref<64xf32>
      memref.store %v, %y[%r, %k] : memref<?x64xf32>
    }
    scf.reduce
  }
  return
}

func.func private @few(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%r) = (%c0) to (%c4) step (%c1) {
    %t = memref.alloca() : memref<64xf32>
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %x[%r, %k] : memref<4x64xf32>
      memref.store %v, %t[%k] : memref<64xf32>
    }
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %t[%k] : memref<64xf32>
      memref.store %v, %y[%r, %k] : memref<4x64xf32>
    }
    scf.reduce
  }
  return
}
