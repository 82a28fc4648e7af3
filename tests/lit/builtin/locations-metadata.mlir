// A fused location whose metadata is itself a location keeps the `loc(...)` around it
// when printed inline (it is an attribute there), and an alias when aliases are on.
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | filecheck %s --check-prefix=ALIAS
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | strata-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s

// ALIAS: #[[MD:loc[0-9]*]] = loc("why")
// ALIAS: loc(fused<#[[MD]]>[
// CHECK: "test.a"() : () -> () loc(fused<loc("why")>["p", "q"])
"test.a"() : () -> () loc(fused<loc("why")>["p", "q"])
// CHECK: "test.b"() : () -> () loc(fused<loc("f.py":3:4)>[callsite("p" at "q")])
"test.b"() : () -> () loc(fused<loc("f.py":3:4)>[callsite("p" at "q")])
// CHECK: "test.c"() : () -> () loc(fused<"plain">["p", "q"])
"test.c"() : () -> () loc(fused<"plain">["p", "q"])
// CHECK: "test.d"() {md = loc(fused<loc("m")>["p", "q"])} : () -> ()
"test.d"() {md = loc(fused<loc("m")>["p", "q"])} : () -> ()
