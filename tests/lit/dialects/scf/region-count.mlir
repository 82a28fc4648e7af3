// RUN: strata-opt %s --split-input-file --verify-diagnostics

// The number of regions is checked first (before operand and property constraints),
// worded as upstream's region-count traits.

func.func @for_two_regions(%i: index) {
  // expected-error @+1 {{'scf.for' op requires one region}}
  "scf.for"(%i, %i, %i) ({
    scf.yield
  }, {
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @if_one_region_and_a_bad_condition(%c: index) {
  // expected-error @+1 {{'scf.if' op expected 2 regions}}
  "scf.if"(%c) ({
    scf.yield
  }) : (index) -> ()
  return
}

// -----

func.func @while_three_regions() {
  // expected-error @+1 {{'scf.while' op expected 2 regions}}
  "scf.while"() ({
    %t = arith.constant true
    scf.condition(%t)
  }, {
    scf.yield
  }, {
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @addi_with_a_region(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires zero regions}}
  %0 = "arith.addi"(%a, %a) ({
  }) : (i32, i32) -> i32
  return
}

// -----

// A single-block region of an op that needs a terminator may not hold an empty block
// (checked before the op's own look for its terminator).
func.func @while_with_empty_blocks() {
  // expected-error @+1 {{'scf.while' op expects a non-empty block}}
  scf.while : () -> () {
  ^bb0:
  } do {
  ^bb0:
  }
  return
}

// -----

// Operand types that must agree are checked before the shape of the region.
func.func @for_mixed_bounds_and_no_block(%n: i64, %i: index) {
  // expected-error @+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%i, %n, %i) ({}) : (index, i64, index) -> ()
  return
}
