// The generic op form and the verifier's structural checks: upstream's messages, at
// upstream's places (this file also passes `iree-opt --verify-diagnostics`).
// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @f(%a: i32) {
  // expected-error @+1 {{expected 2 operand types but had 1}}
  "u.op"(%a, %a) : (i32) -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expected 0 operand types but had 2}}
  "u.op"() : (i32, i32) -> ()
  return
}

// -----

func.func @f(%a: i1) {
  // expected-error @+1 {{successors in non-terminator}}
  "arith.xori"(%a, %a)[^bb1] : (i1, i1) -> i1
^bb1:
  return
}

// -----

// An unregistered op may have successors: nothing is known of it.
func.func @f() {
  "u.branch"()[^bb1] : () -> ()
^bb1:
  return
}

// -----

func.func @entry_pred() {
// expected-error @-1 {{entry block of region may not have predecessors}}
^bb0:
  cf.br ^bb1
^bb1:
  cf.br ^bb0
}

// -----

func.func @child() {
  "u.use"(%v) : (i32) -> ()
  // expected-error @-1 {{operand #0 does not dominate this use}}
  "u.region"() ({
    // expected-note @+1 {{operand defined here (op in a child region)}}
    %v = "u.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

func.func @sibling() {
  "u.region"() ({
    "u.use"(%v) : (i32) -> ()
    // expected-error @-1 {{operand #0 does not dominate this use}}
  }) : () -> ()
  "u.region"() ({
    // expected-note @+1 {{operand defined here (op is neither in a parent nor in a child region)}}
    %v = "u.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

func.func @arg_parent() { // expected-note {{operand defined as a block argument (block #2 in a parent region)}}
  cf.br ^bb1
^bb1:
  "u.region"() ({
    "u.use"(%x) : (i32) -> ()
    // expected-error @-1 {{operand #0 does not dominate this use}}
  }) : () -> ()
  %c = "u.def"() : () -> i32
  cf.br ^bb2(%c : i32)
^bb2(%x: i32):
  return
}

// -----

func.func @arg_child() {
  "u.use"(%x) : (i32) -> ()
  // expected-error @-1 {{operand #0 does not dominate this use}}
  // expected-note @+1 {{operand defined as a block argument (block #0 in a child region)}}
  "u.region"() ({
  ^bb0(%x: i32):
    "u.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// A missing token is reported at the end of the line before, even when a string on
// that line holds `//` (no comment starts inside a string literal).
func.func @slashes_in_string() {
  %0 = "u.op"() {url = "http://example.com", q = "say \"//\""}
  // expected-error @-1 {{expected ':' followed by operation type}}
  return
}
