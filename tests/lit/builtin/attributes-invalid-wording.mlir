// Malformed builtin attributes: upstream's messages (and notes) for dense literals,
// dense arrays, dense resources and distinct attributes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// A malformed element inside a dense literal is reported there, not as unbalanced text.
// expected-error @+1 {{expected ')' after complex elements}}
"test.op"() {v = dense<[(1,2]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
"test.op"() {v = dense<[1, 2.0]> : tensor<2xf64>} : () -> ()

// -----

// expected-error @+1 {{expected '<' after 'dense_resource'}}
#r = dense_resource[blob]

// -----

// expected-error @+1 {{expected '<' after 'array'}}
#a = array[i32]

// -----

// expected-error @+1 {{expected ':' after dense array type}}
#a = array<i32 1, 2>

// -----

// expected-error @+1 {{expected '[' after 'distinct'}}
#d = distinct(1)

// -----

// expected-error @+1 {{expected an unsigned 64-bit integer}}
#d = distinct[18446744073709551616]<unit>

// -----

// expected-error @+1 {{expected ']' to close distinct ID}}
#d = distinct[3>

// -----

// expected-error @+1 {{expected '<' after distinct ID}}
#d = distinct[3](unit)

// -----

// A minus sign before zero: out of range for an integer attribute, as upstream (the
// negation of zero sets no sign bit); for an unsigned type, a negative literal.
// expected-error @+1 {{integer constant out of range for attribute}}
"u.op"() {a = -0 : i32} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"u.op"() {a = -0x0 : index} : () -> ()

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
"u.op"() {a = -0 : ui8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range}}
"u.op"() {a = array<i16: 1, -0>} : () -> ()
