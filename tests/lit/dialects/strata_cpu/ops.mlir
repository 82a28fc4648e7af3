// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// strata_cpu.parallel_for: @chunk(operands..., %lo, %hi) over a partition of [0, count)
// in ranges of at least `grain`.

func.func private @chunk(%a: memref<64xf32>, %x: f32, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    memref.store %x, %a[%i] : memref<64xf32>
  }
  return
}

func.func private @nothing(%lo: index, %hi: index) {
  return
}

// CHECK-LABEL: func.func @fill(%arg0: memref<64xf32>, %arg1: f32, %arg2: index) {
//  CHECK-NEXT:   %c64 = arith.constant 64 : index
//  CHECK-NEXT:   strata_cpu.parallel_for @chunk(%arg0, %arg1) count(%c64) grain(%arg2) : (memref<64xf32>, f32)
//  CHECK-NEXT:   strata_cpu.parallel_for @nothing() count(%c64) grain(%arg2) : ()
//  CHECK-NEXT:   return
// GENERIC: "strata_cpu.parallel_for"(%0, %arg2, %arg0, %arg1) <{callee = @chunk}> : (index, index, memref<64xf32>, f32) -> ()
// GENERIC: "strata_cpu.parallel_for"(%0, %arg2) <{callee = @nothing}> : (index, index) -> ()
func.func @fill(%a: memref<64xf32>, %x: f32, %g: index) {
  %n = arith.constant 64 : index
  strata_cpu.parallel_for @chunk(%a, %x) count(%n) grain(%g) : (memref<64xf32>, f32)
  strata_cpu.parallel_for @nothing() count(%n) grain(%g) : ()
  return
}
