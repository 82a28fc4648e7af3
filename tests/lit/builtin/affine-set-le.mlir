// Integer set constraints written with `<=` (read as `rhs - lhs >= 0`) inside an
// attribute, an alias and a nested attribute: the `<` of `<=` opens no bracket.
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s

// CHECK-DAG: #[[A:set[0-9]*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>
// CHECK-DAG: #[[B:set[0-9]*]] = affine_set<(d0)[s0] : (-d0 + s0 >= 0, d0 + 3 >= 0)>
// CHECK-DAG: #[[C:set[0-9]*]] = affine_set<(d0) : (-d0 + 10 >= 0)>
#le = affine_set<(d0) : (d0 <= 10)>
// CHECK: "test.a"() {s = #[[A]]} : () -> ()
"test.a"() {s = affine_set<(d0)[s0] : (d0 >= 0, d0 <= s0)>} : () -> ()
// CHECK: "test.b"() {s = [#[[B]], #[[C]]]} : () -> ()
"test.b"() {s = [affine_set<(d0)[s0] : (d0 <= s0, -d0 <= 3)>, #le]} : () -> ()
