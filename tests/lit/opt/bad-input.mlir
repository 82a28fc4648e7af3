// Bad input gives a located error, exit code 1 and never a Python traceback.
// RUN: not strata-opt %s --split-input-file 2>&1 | filecheck %s

// A truncated op.
// CHECK: bad-input.mlir:{{[0-9]+}}:18: error: expected SSA operand
func.func @f(%a: i32) {
  %0 = arith.addi
}

// -----

// Huge numbers.
// CHECK: bad-input.mlir:{{[0-9]+}}:40: error: integer constant out of range for attribute
func.func private @x() attributes {a = 99999999999999999999999999}

// -----

// Wrong types.
// CHECK: bad-input.mlir:{{[0-9]+}}:8: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
// CHECK: note: see current operation:
func.func @g(%a: i32) {
  %0 = arith.addf %a, %a : i32
  return
}

// -----

// Unknown types.
// CHECK: bad-input.mlir:{{[0-9]+}}:22: error: expected non-function type
func.func private @h(f7)
// CHECK-NOT: Traceback
