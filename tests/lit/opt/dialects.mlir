// --show-dialects lists the registered dialects; --allow-unregistered-dialect accepts
// what none of them owns (kept in generic form).
// RUN: strata-opt --show-dialects | filecheck %s --check-prefix=SHOW
// RUN: not strata-opt %s 2>&1 | filecheck %s --check-prefix=STRICT
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=ALLOW

// SHOW: Available Dialects: {{.*}}arith, {{.*}}builtin, {{.*}}func

// STRICT: dialects.mlir:{{[0-9]+}}:18: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used

// ALLOW: %0 = "mystery.op"() {kind = #mystery.attr<"x">} : () -> !mystery.type<4>
%0 = "mystery.op"() {kind = #mystery.attr<"x">} : () -> !mystery.type<4>
