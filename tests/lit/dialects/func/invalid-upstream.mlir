// func dialect checks upstream makes and Strata used to skip or word differently.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f() {
  // expected-error @+1 {{'func.constant' op reference to undefined function 'missing'}}
  %0 = func.constant @missing : () -> ()
  return
}

// -----

func.func private @takes_i32(i32)
func.func @f() {
  // expected-error @+1 {{'func.constant' op reference to function with mismatched type}}
  %0 = func.constant @takes_i32 : (i64) -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{custom op 'func.constant' invalid kind of attribute specified}}
  %0 = func.constant "f" : () -> ()
  return
}

// -----

// expected-error @+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @f(i32 {plain = 1})

// -----

// expected-error @+1 {{'func.func' op results may only have dialect attributes}}
func.func private @f() -> (i32 {mine.ok = 1, plain = 2})

// -----

func.func @f() -> i32 {
  %0 = "test.make"() : () -> i64
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @f}}
  return %0 : i64
}

// -----

// expected-error @+1 {{type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
func.func @f(i32) {
^bb0(%a: i64):
  return
}
