// A function whose signature gives argument types alone names them in an explicit
// entry block, as upstream accepts; it prints back in the usual named form.
// RUN: strata-opt %s --split-input-file | filecheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @identity(%arg0: f32) -> f32 {
// CHECK-NEXT:    return %arg0 : f32
func.func @identity(f32) -> f32 {
^bb0(%x: f32):
  return %x : f32
}

// -----

// CHECK-LABEL: func.func @two_blocks(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return %arg0 : i32
func.func @two_blocks(i32, i1) -> i32 {
^entry(%v: i32, %c: i1):
  cf.cond_br %c, ^yes, ^no
^yes:
  return %v : i32
^no:
  %z = arith.constant 0 : i32
  return %z : i32
}

// -----

// CHECK: func.func private @decl(f32)
func.func private @decl(f32)
