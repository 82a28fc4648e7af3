// RUN: strata-opt %s --strata-outline-loop-nests | filecheck %s

// A private function that is already one loop nest (but for ops without effects:
// constants, memref.dim) is marked outlined itself instead of calling a function of
// that nest; a public function, or a private one doing more, is split as usual.

// CHECK-LABEL: func.func private @op0(%arg0: memref<?xf32>) attributes {strata.outlined} {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %dim = memref.dim %arg0, %c0 : memref<?xf32>
// CHECK-NEXT:   scf.for
// CHECK:      func.func private @op1(%arg0: memref<4xf32>) {
// CHECK:        call @op1__nest0(%arg0) : (memref<4xf32>) -> ()
// CHECK-NEXT:   call @op1__nest0(%arg0) : (memref<4xf32>) -> ()
// CHECK-LABEL: func.func @pub(%arg0: memref<4xf32>) {
// CHECK:        call @pub__nest0(%arg0) : (memref<4xf32>) -> ()
func.func private @op0(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @op1(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %a[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %a[%i] : memref<4xf32>
  }
  return
}

func.func @pub(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %a[%i] : memref<4xf32>
  }
  return
}
