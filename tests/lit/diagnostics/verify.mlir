// --verify-diagnostics: every diagnostic must be announced by an expected-* comment
// on its line (or @+N / @-N lines away, @above, @below, @unknown), and every
// announcement must be met; then strata-opt succeeds.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @same_line(%a: i32) {
  %0 = arith.addi %a, %b : i32 // expected-error {{use of undeclared SSA value name}}
  return
}

// -----

// expected-error @+1 {{custom op 'bogus' is unknown}}
bogus

// -----

bogus2
// expected-error @-1 {{custom op 'bogus2' is unknown (tried 'builtin.bogus2' as well)}}

// -----

bogus3
// expected-error @above {{is unknown}}

// -----

// @below applies to the next line that is not an annotation (in verify mode there is
// no "see current operation" note).
// expected-error @below {{'func.return' op has 1 operands, but enclosing function (@f) returns 0}}
func.func @f(%a: i32) { return %a : i32 }

// -----

// Notes are matched like the diagnostic they belong to.
func.func @g() {
  // expected-note @+1 {{previously defined here}}
  %x = arith.constant 1 : i32
  // expected-error @+1 {{redefinition of SSA value '%x'}}
  %x = arith.constant 2 : i32
  return
}

// -----

// A diagnostic without a file location is matched by @unknown.
// expected-error @unknown {{'func.return' op has 0 operands, but enclosing function (@u) returns 1}}
func.func @u() -> i32 {
  "func.return"() : () -> () loc(unknown)
}

// -----

// Regular expressions inside {{...}} with expected-error-re.
// expected-error-re @+1 {{custom op '{{[a-z]+[0-9]}}' is unknown}}
abc7

// -----

// Chunks without expectations must simply be valid.
func.func @fine(%a: i32) -> i32 {
  return %a : i32
}
