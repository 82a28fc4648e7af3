// --allow-unregistered-dialect admits ops of dialects that are not registered, never an
// unknown op of a registered dialect (generic or custom form), as upstream.
// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @f() {
  // expected-error @+1 {{unregistered operation 'arith.no_such_op' found in dialect ('arith') that does not allow unknown operations}}
  %0 = "arith.no_such_op"() : () -> i32
  return
}

// -----

// expected-error @+1 {{unregistered operation 'func.nope' found in dialect ('func') that does not allow unknown operations}}
"func.nope"() ({
}) : () -> ()

// -----

func.func @g() {
  // expected-error @+1 {{custom op 'tensor.no_such_op' is unknown}}
  tensor.no_such_op
  return
}

// -----

// An op of a dialect that is not registered is still admitted.
"mine.op"() : () -> ()
