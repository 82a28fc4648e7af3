// RUN: strata-opt %s --sccp --allow-unregistered-dialect | filecheck %s

// Region control flow: scf.if, scf.for, scf.while, scf.execute_region and
// scf.index_switch forward values into their regions and results (only along the
// branches their constant operands allow, and a static trip count of 0 or 1 rules out
// the other way); other ops with regions give unknown results.

// CHECK-LABEL: func.func @if_const(%arg0: i32) -> i32 {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: return %c2_i32 : i32
// CHECK-NEXT: }
func.func @if_const(%x: i32) -> i32 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.if %true -> i32 {
    %a = arith.addi %c1, %c1 : i32
    scf.yield %a : i32
  } else {
    %b = arith.addi %x, %c2 : i32
    scf.yield %b : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @if_unknown(%arg0: i1, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT: scf.yield %c1_i32 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %c2_i32 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %c1_i32, %0 : i32, i32
// CHECK-NEXT: }
func.func @if_unknown(%c: i1, %x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.if %c -> i32 {
    scf.yield %c1 : i32
  } else {
    scf.yield %c1 : i32
  }
  %s = scf.if %c -> i32 {
    scf.yield %c1 : i32
  } else {
    scf.yield %c2 : i32
  }
  return %r, %s : i32, i32
}
// CHECK-LABEL: func.func @for_invariant(%arg0: index, %arg1: index, %arg2: index) -> (i32, i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0:2 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %c1_i32, %arg5 = %c0_i32) -> (i32, i32) {
// CHECK-NEXT: %1 = arith.addi %arg5, %c1_i32 : i32
// CHECK-NEXT: scf.yield %c1_i32, %1 : i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: return %c1_i32, %0#1 : i32, i32
// CHECK-NEXT: }
func.func @for_invariant(%lb: index, %ub: index, %st: index) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%a = %c1, %b = %c0) -> (i32, i32) {
    %n = arith.addi %b, %c1 : i32
    scf.yield %a, %n : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
// CHECK-LABEL: func.func @for_zero_trip() -> i32 {
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func @for_zero_trip() -> i32 {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c4 to %c0 step %c4 iter_args(%a = %c1) -> (i32) {
    %n = arith.addi %a, %c1 : i32
    scf.yield %n : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @for_one_trip() -> i32 {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c2_i32 : i32
// CHECK-NEXT: }
func.func @for_one_trip() -> i32 {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c4 iter_args(%a = %c1) -> (i32) {
    %n = arith.addi %a, %c1 : i32
    scf.yield %n : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @while_loop(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func @while_loop(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.while (%a = %c1) : (i32) -> i32 {
    %cond = arith.cmpi slt, %a, %n : i32
    scf.condition(%cond) %a : i32
  } do {
  ^bb0(%b: i32):
    %m = arith.muli %b, %c1 : i32
    scf.yield %m : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @while_false() -> i32 {
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func @while_false() -> i32 {
  %c1 = arith.constant 1 : i32
  %false = arith.constant false
  %r = scf.while (%a = %c1) : (i32) -> i32 {
    scf.condition(%false) %a : i32
  } do {
  ^bb0(%b: i32):
    %m = arith.addi %b, %c1 : i32
    scf.yield %m : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @exec_switch(%arg0: index) -> (i32, i32) {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: return %c2_i32, %c3_i32 : i32, i32
// CHECK-NEXT: }
func.func @exec_switch(%x: index) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : index
  %r = scf.execute_region -> i32 {
    %a = arith.addi %c1, %c1 : i32
    scf.yield %a : i32
  }
  %s = scf.index_switch %c2 -> i32
  case 2 {
    %b = arith.addi %r, %c1 : i32
    scf.yield %b : i32
  }
  default {
    scf.yield %c1 : i32
  }
  return %r, %s : i32, i32
}
// CHECK-LABEL: func.func @parallel(%arg0: index) {
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: scf.parallel (%arg1) = (%c0) to (%arg0) step (%c1) {
// CHECK-NEXT: "test.use"(%c2, %arg1) : (index, index) -> ()
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = arith.addi %c1, %c1 : index
    "test.use"(%a, %i) : (index, index) -> ()
    scf.reduce
  }
  return
}
