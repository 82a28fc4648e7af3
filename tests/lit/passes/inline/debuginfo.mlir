// RUN: strata-opt %s --inline='default-pipeline=' --mlir-print-debuginfo | filecheck %s

// Inlined ops get `callsite(<where they were> at <the call>)`; inlining an inlined op
// again extends the chain at its caller end: callsite(addi at callsite(call1 at call2)).

// CHECK-LABEL: func.func @outer
// CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32 loc([[ADD:#loc[0-9]+]])
// CHECK: [[CHAIN:#loc[0-9]+]] = loc(callsite([[CALL1:#loc[0-9]+]] at [[CALL2:#loc[0-9]+]]))
// CHECK: [[ADD]] = loc(callsite({{#loc[0-9]+}} at [[CHAIN]]))

func.func private @inner(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @middle(%x: i32) -> i32 {
  %0 = call @inner(%x) : (i32) -> i32
  return %0 : i32
}
func.func @outer(%x: i32) -> i32 {
  %0 = call @middle(%x) : (i32) -> i32
  return %0 : i32
}
