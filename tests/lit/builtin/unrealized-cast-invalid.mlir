// builtin.unrealized_conversion_cast's verifier (upstream's message).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
"builtin.unrealized_conversion_cast"() : () -> ()

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{expected at least one result for cast operation}}
  "builtin.unrealized_conversion_cast"(%a) : (i32) -> ()
  return
}
