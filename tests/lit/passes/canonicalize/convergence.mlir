// max-iterations and test-convergence. Folding a constant takes two iterations (the
// second hoists the new constant and sees no change), so one is not enough.
// RUN: not strata-opt %s --canonicalize="max-iterations=1 test-convergence" 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: strata-opt %s --canonicalize=max-iterations=1 2>&1 | filecheck %s --check-prefix=WARN
// RUN: strata-opt %s --canonicalize="max-iterations=2 test-convergence" | filecheck %s

// The diagnostic is at the op canonicalize ran on: the implicit module at 0:0.
// FAIL: convergence.mlir:0:0: error: canonicalize did not converge within max-iterations=1
// FAIL: note: while running pass 'canonicalize'
// WARN: warning: canonicalize did not converge within max-iterations=1
// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[M]] : i32
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.muli %x, %0 : i32
  return %1 : i32
}
