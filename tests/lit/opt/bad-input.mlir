// Bad input gives a located error, exit code 1 and never a Python traceback.
// RUN: not strata-opt %s --split-input-file 2>&1 | filecheck %s --implicit-check-not=Traceback

// A truncated op.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:18: error: expected SSA operand
func.func @f(%a: i32) {
  %0 = arith.addi
}

// -----

// Huge numbers.
// CHECK: bad-input.mlir:[[# @LINE + 1]]:14: error: integer constant out of range for attribute
"t.a"() {a = 99999999999999999999999999} : () -> ()

// -----

// Wrong types.
// CHECK: bad-input.mlir:[[# @LINE + 3]]:8: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
// CHECK: note: see current operation:
func.func @g(%a: i32) {
  %0 = arith.addf %a, %a : i32
  return
}

// -----

// Unknown types.
// CHECK: bad-input.mlir:[[# @LINE + 1]]:22: error: expected non-function type
func.func private @h(f7)
