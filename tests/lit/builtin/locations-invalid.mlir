// Malformed locations: each rejected with upstream's message, naming the location kind.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @f() {
  return loc(callsite "a" at "b") // expected-error {{expected '(' in callsite location}}
}

// -----

func.func @f() {
  return loc(callsite("a" at "b"  // expected-error {{expected ')' in callsite location}}
}

// -----

func.func @f() {
  return loc(fused<"m" ["a"]) // expected-error {{expected '>' after fused location metadata}}
}

// -----

func.func @f() {
  return loc(fused<"m">"a"]) // expected-error {{expected '[' in fused location}}
}
