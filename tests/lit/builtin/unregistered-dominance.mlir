// Nothing is known of an unregistered op's single-block regions: a value may be used
// there before its definition (no SSA dominance), as upstream; a region of several
// blocks keeps SSA dominance.
// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @use_before_def(
//       CHECK:   "u.use"(%0) : (i32) -> ()
//  CHECK-NEXT:   %0 = "u.def"() : () -> i32
//       CHECK:   %0 = "u.self"(%0) : (i32) -> i32
func.func @use_before_def() {
  "u.region"() ({
    "u.use"(%v) : (i32) -> ()
    %v = "u.def"() : () -> i32
  }) : () -> ()
  "u.region"() ({
    %s = "u.self"(%s) : (i32) -> i32
  }) : () -> ()
  return
}

// -----

// A region of several blocks keeps SSA dominance, within a block too.
func.func @later_in_own_block() {
  "u.region"() ({
    "u.br"()[^bb1] : () -> ()
  ^bb1:
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "u.use"(%v) : (i32) -> ()
    // expected-note @+1 {{operand defined here (op in the same block)}}
    %v = "u.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

func.func @across_blocks() {
  "u.region"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "u.use"(%v) : (i32) -> ()
    "u.br"()[^bb1] : () -> ()
  ^bb1:
    // expected-note @+1 {{operand defined here (op in the same region)}}
    %v = "u.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

// A registered op's region keeps SSA dominance.
func.func @registered() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "u.use"(%v) : (i32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %v = "u.def"() : () -> i32
  return
}
