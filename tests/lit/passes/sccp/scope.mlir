// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(sccp))' | filecheck %s

// Run on each function alone, sccp sees no callers and no callees: arguments and call
// results are unknown.

// CHECK-LABEL: func.func private @callee(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @callee(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %a, %c1 : i32
  return %r : i32
}
// CHECK-LABEL: func.func @caller() -> (i32, i32) {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = call @callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT: %1 = call @callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
func.func @caller() -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %r = call @callee(%c3) : (i32) -> i32
  %s = call @callee(%c3) : (i32) -> i32
  return %r, %s : i32, i32
}
// CHECK-LABEL: func.func private @callee2(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func private @callee2(%a: i32) -> i32 {
  return %a : i32
}
// CHECK-LABEL: func.func @caller2(%arg0: i32) -> (i32, i32) {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = call @callee2(%c3_i32) : (i32) -> i32
// CHECK-NEXT: %1 = call @callee2(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
func.func @caller2(%x: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %r = call @callee2(%c3) : (i32) -> i32
  %s = call @callee2(%x) : (i32) -> i32
  return %r, %s : i32, i32
}
