// RUN: strata-opt %s --strata-gpu-linearize-parallel-loops=block-size=256 | filecheck %s

// Each outermost scf.parallel becomes blocks x 256 threads over the product of its trip
// counts: 4x300 -> 5 blocks, masked past 1200; 8 -> one block of 8 (no mask); dynamic
// bounds and steps -> the trip count computed before the loops (clamped at 0), the
// block count by ceildiv, the induction variable lb + index * step.

// CHECK: module {
// CHECK-NEXT: func.func @add(%arg0: memref<4x300xf32>, %arg1: memref<4x300xf32>) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %c300 = arith.constant 300 : index
// CHECK-NEXT: %c4_0 = arith.constant 4 : index
// CHECK-NEXT: %c300_1 = arith.constant 300 : index
// CHECK-NEXT: %c1200 = arith.constant 1200 : index
// CHECK-NEXT: %c0_2 = arith.constant 0 : index
// CHECK-NEXT: %c1_3 = arith.constant 1 : index
// CHECK-NEXT: %c256 = arith.constant 256 : index
// CHECK-NEXT: %c5 = arith.constant 5 : index
// CHECK-NEXT: scf.parallel (%arg2) = (%c0_2) to (%c5) step (%c1_3) {
// CHECK-NEXT: scf.parallel (%arg3) = (%c0_2) to (%c256) step (%c1_3) {
// CHECK-NEXT: %0 = arith.muli %arg2, %c256 : index
// CHECK-NEXT: %1 = arith.addi %0, %arg3 : index
// CHECK-NEXT: %2 = arith.cmpi slt, %1, %c1200 : index
// CHECK-NEXT: scf.if %2 {
// CHECK-NEXT: %3 = arith.remsi %1, %c300_1 : index
// CHECK-NEXT: %4 = arith.divsi %1, %c300_1 : index
// CHECK-NEXT: %5 = memref.load %arg0[%4, %3] : memref<4x300xf32>
// CHECK-NEXT: memref.store %5, %arg1[%4, %3] : memref<4x300xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @small(%arg0: memref<8xf32>) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %c8_0 = arith.constant 8 : index
// CHECK-NEXT: %c0_1 = arith.constant 0 : index
// CHECK-NEXT: %c1_2 = arith.constant 1 : index
// CHECK-NEXT: scf.parallel (%arg1) = (%c0_1) to (%c1_2) step (%c1_2) {
// CHECK-NEXT: scf.parallel (%arg2) = (%c0_1) to (%c8_0) step (%c1_2) {
// CHECK-NEXT: %0 = arith.muli %arg1, %c8_0 : index
// CHECK-NEXT: %1 = arith.addi %0, %arg2 : index
// CHECK-NEXT: %2 = memref.load %arg0[%1] : memref<8xf32>
// CHECK-NEXT: %3 = arith.addf %2, %2 : f32
// CHECK-NEXT: memref.store %3, %arg0[%1] : memref<8xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @dynamic(%arg0: memref<?xf32>, %arg1: index) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %dim = memref.dim %arg0, %c0 : memref<?xf32>
// CHECK-NEXT: %0 = arith.subi %dim, %arg1 : index
// CHECK-NEXT: %1 = arith.ceildivsi %0, %c2 : index
// CHECK-NEXT: %c0_0 = arith.constant 0 : index
// CHECK-NEXT: %2 = arith.maxsi %1, %c0_0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c256 = arith.constant 256 : index
// CHECK-NEXT: %3 = arith.ceildivsi %2, %c256 : index
// CHECK-NEXT: scf.parallel (%arg2) = (%c0_0) to (%3) step (%c1) {
// CHECK-NEXT: scf.parallel (%arg3) = (%c0_0) to (%c256) step (%c1) {
// CHECK-NEXT: %4 = arith.muli %arg2, %c256 : index
// CHECK-NEXT: %5 = arith.addi %4, %arg3 : index
// CHECK-NEXT: %6 = arith.cmpi slt, %5, %2 : index
// CHECK-NEXT: scf.if %6 {
// CHECK-NEXT: %7 = arith.muli %5, %c2 : index
// CHECK-NEXT: %8 = arith.addi %7, %arg1 : index
// CHECK-NEXT: %9 = memref.load %arg0[%8] : memref<?xf32>
// CHECK-NEXT: memref.store %9, %arg0[%8] : memref<?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @add(%a: memref<4x300xf32>, %b: memref<4x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c300) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x300xf32>
    memref.store %v, %b[%i, %j] : memref<4x300xf32>
    scf.reduce
  }
  return
}
func.func @small(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
func.func @dynamic(%a: memref<?xf32>, %lo: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%lo) to (%n) step (%c2) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
