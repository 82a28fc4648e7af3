// --mlir-pass-statistics and --mlir-timing, in mlir-opt's formats.
// RUN: strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --pass-pipeline='builtin.module(test-pass-count,func.func(test-func-pass))' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// RUN: strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --pass-pipeline='builtin.module(test-pass-count,func.func(test-func-pass))' --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | filecheck %s --check-prefix=LIST
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' --mlir-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TIME
// RUN: strata-opt %s --split-input-file --cse --mlir-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=SPLIT

// STATS:      ===-------------------------------------------------------------------------===
// STATS-NEXT:                          ... Pass statistics report ...
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: TestPassCountPass
// STATS-NEXT:   (S) 8 num-ops - Number of ops seen
// STATS-NEXT:   (S) 4 num-blocks - Number of blocks seen
// STATS-NEXT: 'func.func' Pipeline
// STATS-NEXT:   TestFuncPass
// STATS-NEXT:     (S) 3 num-funcs - Number of functions visited
// STATS-EMPTY:

// LIST:      ... Pass statistics report ...
// LIST-NEXT: ===
// LIST-NEXT:   TestFuncPass
// LIST-NEXT:     (S) 3 num-funcs - Number of functions visited
// LIST-NEXT:   TestPassCountPass
// LIST-NEXT:     (S) 8 num-ops - Number of ops seen
// LIST-NEXT:     (S) 4 num-blocks - Number of blocks seen

// TIME:      ===-------------------------------------------------------------------------===
// TIME-NEXT:                          ... Execution time report ...
// TIME-NEXT: ===-------------------------------------------------------------------------===
// TIME-NEXT:   Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// TIME-EMPTY:
// TIME-NEXT:   ----Wall Time----  ----Name----
// TIME-NEXT:     {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// TIME-NEXT:     {{.*}}  'func.func' Pipeline
// TIME-NEXT:     {{.*}}    CanonicalizerPass
// TIME-NEXT:     {{.*}}    CSEPass
// (upstream's CSE also times its DominanceInfo analysis here: `(A) DominanceInfo`)
// TIME:          {{.*}}  SymbolDCEPass
// TIME-NEXT:     {{.*}}  Output
// TIME-NEXT:     {{.*}}  Rest
// TIME-NEXT:     {{.*}} (100.0%)  Total

// One report per split chunk, as mlir-opt.
// SPLIT-COUNT-2: ... Execution time report ...
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}
func.func @g() {
  return
}

// -----

func.func @h() {
  return
}
