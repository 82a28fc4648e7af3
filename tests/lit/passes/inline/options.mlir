// RUN: strata-opt %s --inline --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DEFAULT
// RUN: strata-opt %s --inline='default-pipeline=cse max-iterations=2 inlining-threshold=10' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=SET
// RUN: strata-opt %s --inline='default-pipeline= inlining-threshold=50' | filecheck %s --check-prefix=THRESHOLD

// DEFAULT: inline{default-pipeline=canonicalize inlining-threshold=4294967295 max-iterations=4 }
// SET: inline{default-pipeline=cse inlining-threshold=10 max-iterations=2 }

// inlining-threshold: no inlining when the callee has more than that percentage of the
// caller's op count.
func.func private @big(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %a : i32
  return %2 : i32
}
func.func private @small(%a: i32) -> i32 {
  return %a : i32
}
// THRESHOLD-LABEL: func.func @caller
// THRESHOLD-NEXT: %0 = call @big(%arg0) : (i32) -> i32
// THRESHOLD-NEXT: %1 = arith.addi %0, %0 : i32
// THRESHOLD-NEXT: return %1 : i32
func.func @caller(%a: i32) -> i32 {
  %0 = call @big(%a) : (i32) -> i32
  %1 = call @small(%0) : (i32) -> i32
  %2 = arith.addi %1, %1 : i32
  return %2 : i32
}
