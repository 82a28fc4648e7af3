// RUN: strata-opt %s --sccp | filecheck %s

// Interprocedural: a private function's arguments meet the operands of its calls seen in
// live code, a call's results what the callee returns. Public functions and functions
// whose symbol is used other than by a call have unknown callers; a private function
// nothing calls is dead code and is left alone.

// CHECK-LABEL: func.func private @callee(%arg0: i32) -> i32 {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c4_i32 : i32
// CHECK-NEXT: }
func.func private @callee(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %a, %c1 : i32
  return %r : i32
}
// CHECK-LABEL: func.func @caller() -> (i32, i32) {
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = call @callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT: %1 = call @callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT: return %c4_i32, %c4_i32 : i32, i32
// CHECK-NEXT: }
func.func @caller() -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %r = call @callee(%c3) : (i32) -> i32
  %s = call @callee(%c3) : (i32) -> i32
  return %r, %s : i32, i32
}
// CHECK-LABEL: func.func private @callee2(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func private @callee2(%a: i32) -> i32 {
  return %a : i32
}
// CHECK-LABEL: func.func @caller2(%arg0: i32) -> (i32, i32) {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = call @callee2(%c3_i32) : (i32) -> i32
// CHECK-NEXT: %1 = call @callee2(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
func.func @caller2(%x: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %r = call @callee2(%c3) : (i32) -> i32
  %s = call @callee2(%x) : (i32) -> i32
  return %r, %s : i32, i32
}
// CHECK-LABEL: func.func @public_callee(%arg0: i32) -> i32 {
// CHECK-NEXT: %c9_i32 = arith.constant 9 : i32
// CHECK-NEXT: return %c9_i32 : i32
// CHECK-NEXT: }
func.func @public_callee(%a: i32) -> i32 {
  %c9 = arith.constant 9 : i32
  return %c9 : i32
}
// CHECK-LABEL: func.func @use_public() -> i32 {
// CHECK-NEXT: %c9_i32 = arith.constant 9 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = call @public_callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT: return %c9_i32 : i32
// CHECK-NEXT: }
func.func @use_public() -> i32 {
  %c3 = arith.constant 3 : i32
  %r = call @public_callee(%c3) : (i32) -> i32
  return %r : i32
}
// CHECK-LABEL: func.func private @dead(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.addi %c1_i32, %c1_i32 : i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @dead(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %c1, %c1 : i32
  return %r : i32
}
// CHECK-LABEL: func.func private @taken(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func private @taken(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  return %a : i32
}
// CHECK-LABEL: func.func @use_taken() -> ((i32) -> i32, i32) {
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %f = constant @taken : (i32) -> i32
// CHECK-NEXT: %0 = call @taken(%c4_i32) : (i32) -> i32
// CHECK-NEXT: return %f, %0 : (i32) -> i32, i32
// CHECK-NEXT: }
func.func @use_taken() -> ((i32) -> i32, i32) {
  %f = func.constant @taken : (i32) -> i32
  %c4 = arith.constant 4 : i32
  %r = call @taken(%c4) : (i32) -> i32
  return %f, %r : (i32) -> i32, i32
}
// CHECK-LABEL: func.func private @decl(i32) -> i32
func.func private @decl(i32) -> i32
// CHECK-LABEL: func.func @use_decl() -> i32 {
// CHECK-NEXT: %f = constant @callee2 : (i32) -> i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %0 = call @decl(%c4_i32) : (i32) -> i32
// CHECK-NEXT: %1 = call_indirect %f(%0) : (i32) -> i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @use_decl() -> i32 {
  %c4 = arith.constant 4 : i32
  %r = call @decl(%c4) : (i32) -> i32
  %f = func.constant @callee2 : (i32) -> i32
  %s = func.call_indirect %f(%r) : (i32) -> i32
  return %s : i32
}
// CHECK-LABEL: func.func private @multi_ret(%arg0: i1) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: ^bb2:  // pred: ^bb0
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func private @multi_ret(%c: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  cf.cond_br %c, ^a, ^b
^a:
  return %c1 : i32
^b:
  %c2 = arith.constant 1 : i32
  return %c2 : i32
}
// CHECK-LABEL: func.func @use_multi(%arg0: i1) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = call @multi_ret(%arg0) : (i1) -> i32
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func @use_multi(%c: i1) -> i32 {
  %r = call @multi_ret(%c) : (i1) -> i32
  return %r : i32
}
module @nested {
  // CHECK-LABEL: func.func private @inner() -> i32 {
  // CHECK-NEXT: %c11_i32 = arith.constant 11 : i32
  // CHECK-NEXT: return %c11_i32 : i32
  // CHECK-NEXT: }
  func.func private @inner() -> i32 {
    %c = arith.constant 11 : i32
    return %c : i32
  }
  // CHECK-LABEL: func.func @outer() -> i32 {
  // CHECK-NEXT: %c11_i32 = arith.constant 11 : i32
  // CHECK-NEXT: %0 = call @inner() : () -> i32
  // CHECK-NEXT: return %c11_i32 : i32
  // CHECK-NEXT: }
  func.func @outer() -> i32 {
    %r = call @inner() : () -> i32
    return %r : i32
  }
}

// CHECK-LABEL: func.func private @rec(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.cmpi eq, %arg1, %c0_i32 : i32
// CHECK-NEXT: %1 = scf.if %0 -> (i32) {
// CHECK-NEXT: scf.yield %c5_i32 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: %2 = arith.subi %arg1, %c5_i32 : i32
// CHECK-NEXT: %3 = func.call @rec(%c5_i32, %2) : (i32, i32) -> i32
// CHECK-NEXT: scf.yield %c5_i32 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %c5_i32 : i32
// CHECK-NEXT: }
func.func private @rec(%a: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %cond = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %cond -> i32 {
    scf.yield %a : i32
  } else {
    %m = arith.subi %n, %a : i32
    %x = func.call @rec(%a, %m) : (i32, i32) -> i32
    scf.yield %x : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @use_rec(%arg0: i32) -> i32 {
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: %0 = call @rec(%c5_i32, %arg0) : (i32, i32) -> i32
// CHECK-NEXT: return %c5_i32 : i32
// CHECK-NEXT: }
func.func @use_rec(%n: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %r = call @rec(%c5, %n) : (i32, i32) -> i32
  return %r : i32
}
