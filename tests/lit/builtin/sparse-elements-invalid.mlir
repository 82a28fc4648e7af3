// Malformed sparse attributes: upstream's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{sparse index #0 is not contained within the value shape, with index=[0, 5], and type='tensor<2x2xi32>'}}
"test.op"() {a = sparse<[[0, 5]], [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected shape ([2, 2]); inferred shape of indices literal ([1, 3]); inferred shape of values literal ([1])}}
"test.op"() {a = sparse<[[0, 1, 2]], [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected shape ([2, 2]); inferred shape of indices literal ([1, 2]); inferred shape of values literal ([2])}}
"test.op"() {a = sparse<[[0, 1]], [1, 2]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{elements literal must be a shaped type}}
"test.op"() {a = sparse<[[0, 1]], [1]> : i32} : () -> ()

// -----

// expected-error @+1 {{expected ','}}
"test.op"() {a = sparse<[[0, 1]] [1]> : tensor<2x2xi32>} : () -> ()
