// Pass pipelines: nested pass managers, options, shorthand flags and how they nest.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=3 region-simplify=disabled},cse),symbol-dce)' --dump-pass-pipeline 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: strata-opt %s --canonicalize=max-iterations=3 --cse --symbol-dce --dump-pass-pipeline 2>&1 | filecheck %s --check-prefix=FLAGS
// RUN: strata-opt %s --pass-pipeline='builtin.module(canonicalize{enable-patterns=a,b top-down=false})' --dump-pass-pipeline -o /dev/null 2>&1 | filecheck %s --check-prefix=LIST
// RUN: strata-opt %s --pass-pipeline='builtin.module(any(cse))' | filecheck %s --check-prefix=RESULT
// RUN: strata-opt %s --pass-pipeline='  builtin.module( func.func( canonicalize , cse ) , symbol-dce )  ' | filecheck %s --check-prefix=RESULT

// Options print sorted by name, all of them, as upstream does (an empty list option
// prints as nothing, hence the double spaces).
// NESTED:      Pass Manager with 2 passes:
// NESTED-NEXT: builtin.module(
// NESTED-NEXT:   func.func(
// NESTED-NEXT:     canonicalize{cse-between-iterations=false    max-iterations=3 max-num-rewrites=-1 region-simplify=disabled test-convergence=false top-down=true},
// NESTED-NEXT:     cse
// NESTED-NEXT:   ),
// NESTED-NEXT:   symbol-dce
// NESTED-NEXT: )
// The pipeline runs: @dead (private, unused) is gone, @f is simplified.
// NESTED:      func.func @f(%arg0: i32) -> i32 {
// NESTED-NEXT:   %c3_i32 = arith.constant 3 : i32
// NESTED-NEXT:   %0 = arith.addi %arg0, %c3_i32 : i32
// NESTED-NEXT:   %1 = arith.muli %0, %0 : i32
// NESTED-NOT:  @dead

// Flags run in command-line order on the module.
// FLAGS:      Pass Manager with 3 passes:
// FLAGS-NEXT: builtin.module(
// FLAGS-NEXT:   canonicalize{cse-between-iterations=false    max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},
// FLAGS-NEXT:   cse,
// FLAGS-NEXT:   symbol-dce
// FLAGS-NEXT: )

// LIST: canonicalize{cse-between-iterations=false  enable-patterns={a,b}  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=false}

// RESULT-LABEL: func.func @f
// RESULT:         arith.muli %[[X:.*]], %[[X]] : i32
func.func @f(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %arg0, %0 : i32
  %2 = arith.addi %arg0, %0 : i32
  %3 = arith.muli %1, %2 : i32
  return %3 : i32
}
func.func private @dead() {
  return
}
