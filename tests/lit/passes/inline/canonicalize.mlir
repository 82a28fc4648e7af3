// RUN: strata-opt %s --inline | filecheck %s
// RUN: strata-opt %s --inline | filecheck %s --check-prefix=ERASED

// The default pipeline canonicalizes each function before inlining into it and again
// after: callees arrive simplified, and what inlining exposes is folded.

func.func private @callee(%a: i32, %b: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %0, %c1 : i32
  return %1 : i32
}
// CHECK-LABEL: func.func @caller(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c3_i32 : i32
// CHECK-NEXT: %1 = arith.addi %0, %arg0 : i32
// CHECK-NEXT: %2 = arith.addi %1, %c1_i32 : i32
// CHECK-NEXT: return %2 : i32
// CHECK-NEXT: }
func.func @caller(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %r = call @callee(%x, %c2) : (i32, i32) -> i32
  %s = call @callee(%r, %x) : (i32, i32) -> i32
  return %s : i32
}

func.func private @pick(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %c5 = arith.constant 5 : i32
  return %c5 : i32
}
// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: %0 = arith.select %arg0, %arg1, %c5_i32 : i32
// CHECK-NEXT: %1 = arith.muli %0, %0 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @branches(%c: i1, %a: i32) -> i32 {
  %r = call @pick(%c, %a) : (i1, i32) -> i32
  %z = arith.muli %r, %r : i32
  return %z : i32
}

// A call through a function value becomes a direct call once canonicalized, and is
// inlined in the next iteration.
func.func private @leaf(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @mk() -> ((i32) -> i32) {
  %f = func.constant @leaf : (i32) -> i32
  return %f : (i32) -> i32
}
// CHECK-LABEL: func.func @devirtualized(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @devirtualized(%x: i32) -> i32 {
  %fv = func.call @mk() : () -> ((i32) -> i32)
  %r = func.call_indirect %fv(%x) : (i32) -> i32
  return %r : i32
}

// A self-call in dead code still counts: the call graph is built before any folding.
// CHECK-LABEL: func.func private @p(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func private @p(%x: i32) -> i32 {
  %false = arith.constant false
  %r = scf.if %false -> i32 {
    %y = func.call @p(%x) : (i32) -> i32
    scf.yield %y : i32
  } else {
    scf.yield %x : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @stale_graph(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @p(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @stale_graph(%x: i32) -> i32 {
  %r = func.call @p(%x) : (i32) -> i32
  return %r : i32
}

// ERASED-NOT: @callee(
// ERASED-NOT: @leaf(
// ERASED-NOT: @mk(
// ERASED-NOT: @pick(
