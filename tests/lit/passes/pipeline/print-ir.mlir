// IR printing around passes, in mlir-opt's format (single-threaded order: each
// function goes through the whole nested pipeline before the next).
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=AFTER
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-before=cse -o /dev/null 2>&1 | filecheck %s --check-prefix=BEFORE
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | filecheck %s --check-prefix=CHANGE
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after=cse --mlir-print-ir-module-scope -o /dev/null 2>&1 | filecheck %s --check-prefix=SCOPE
// RUN: strata-opt %s --canonicalize --mlir-print-ir-before-all --mlir-print-ir-after=canonicalize -o /dev/null 2>&1 | filecheck %s --check-prefix=TOP

// AFTER:      // -----// IR Dump After CanonicalizerPass: canonicalize{cse-between-iterations=false    max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true} //----- //
// AFTER-NEXT: func.func @f(%arg0: i32) -> i32 {
// AFTER-NEXT:   %c3_i32 = arith.constant 3 : i32
// AFTER-NEXT:   %0 = arith.addi %arg0, %c3_i32 : i32
// AFTER-NEXT:   %1 = arith.addi %arg0, %c3_i32 : i32
// AFTER-NEXT:   %2 = arith.muli %0, %1 : i32
// AFTER-NEXT:   return %2 : i32
// AFTER-NEXT: }
// AFTER-EMPTY:
// AFTER-NEXT: // -----// IR Dump After CSEPass: cse //----- //
// AFTER-NEXT: func.func @f(%arg0: i32) -> i32 {
// AFTER-NEXT:   %c3_i32 = arith.constant 3 : i32
// AFTER-NEXT:   %0 = arith.addi %arg0, %c3_i32 : i32
// AFTER-NEXT:   %1 = arith.muli %0, %0 : i32
// AFTER-NEXT:   return %1 : i32
// AFTER-NEXT: }
// AFTER-EMPTY:
// AFTER-NEXT: // -----// IR Dump After CanonicalizerPass: canonicalize{{.*}} //----- //
// AFTER-NEXT: func.func @g(%arg0: i32) -> i32 {
// AFTER:      // -----// IR Dump After CSEPass: cse //----- //
// AFTER-NEXT: func.func @g(%arg0: i32) -> i32 {
// AFTER-NOT:  IR Dump

// BEFORE:      // -----// IR Dump Before CSEPass: cse //----- //
// BEFORE-NEXT: func.func @f(
// BEFORE:      // -----// IR Dump Before CSEPass: cse //----- //
// BEFORE-NEXT: func.func @g(
// BEFORE-NOT:  IR Dump

// Only the passes that changed their function print: nothing happens to @g.
// CHANGE:     IR Dump After CanonicalizerPass
// CHANGE-NEXT: func.func @f(
// CHANGE:     IR Dump After CSEPass: cse //----- //
// CHANGE-NEXT: func.func @f(
// CHANGE-NOT: IR Dump

// Module scope: the whole module, and which op the pass ran on.
// SCOPE:      // -----// IR Dump After CSEPass: cse ('func.func' operation: @f) //----- //
// SCOPE-NEXT: module {
// SCOPE-NEXT:   func.func @f(
// SCOPE:        func.func @g(
// SCOPE:      // -----// IR Dump After CSEPass: cse ('func.func' operation: @g) //----- //
// SCOPE-NEXT: module {

// A pass on the top-level module prints it with its trailing newline.
// TOP:      // -----// IR Dump Before CanonicalizerPass: canonicalize{{.*}} //----- //
// TOP-NEXT: module {
// TOP:      // -----// IR Dump After CanonicalizerPass: canonicalize{{.*}} //----- //
// TOP-NEXT: module {
// TOP:      {{^}}}
// TOP-EMPTY:
// TOP-EMPTY:
func.func @f(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %arg0, %0 : i32
  %2 = arith.addi %arg0, %0 : i32
  %3 = arith.muli %1, %2 : i32
  return %3 : i32
}
func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}
