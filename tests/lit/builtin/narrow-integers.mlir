// Integers of width 0 and 1 of every signedness: `si1` holds -1 and 0 (printed as
// such, not as its bit pattern), `i1` prints as true/false, width 0 holds only 0.
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s

// CHECK: "test.ints"() {a = 0 : si0, b = -1 : si1, c = 0 : si1, d = 0 : ui0, e = 1 : ui1, f = true, g = 0 : i0, h = -8 : si4, i = -1 : i4}
"test.ints"() {a = 0 : si0, b = -1 : si1, c = 0 : si1, d = 0 : ui0, e = 1 : ui1, f = -1 : i1, g = 0 : i0, h = -8 : si4, i = 15 : i4} : () -> ()
