// A pass that fails, raises or breaks the IR: a diagnostic naming the pass, exit code
// 1, and (for a crash or broken IR, or when asked) a reproducer that
// --run-reproducer runs again. The test passes come from a plugin, the way
// downstream code adds passes (register_pass).
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-pass-failure 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --cse --test-pass-crash --mlir-pass-pipeline-crash-reproducer=%t.crash.mlir 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-pass-invalid-ir --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | filecheck %s --check-prefix=INVALID
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not strata-opt %t.repro.mlir --load-pass-plugin=%S/Inputs/test_passes.py --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-pass-invalid-ir --verify-each=false | filecheck %s --check-prefix=NOVERIFY
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-pass-failure --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=DUMP

// FAIL: failures.mlir:0:0: error: test pass failed
// FAIL-NEXT: failures.mlir:0:0: note: while running pass 'test-pass-failure'
// FAIL-NOT: reproducer

// CRASH: failures.mlir:[[FUNC:[0-9]+]]:1: error: pass 'test-pass-crash' failed with an internal error: RuntimeError: boom
// CRASH: note: the exception was raised at test_passes.py:{{[0-9]+}} in run()
// CRASH: failures.mlir:0:0: error: Failures have been detected while processing an MLIR pass pipeline
// CRASH-NEXT: failures.mlir:0:0: note: Pipeline failed while executing [`TestPassCrashPass` on 'func.func' operation: @f]: reproducer generated at `{{.*}}.crash.mlir`
// CRASH-NOT: Traceback

// INVALID: failures.mlir:{{[0-9]+}}:3: error: 'func.return' op has 0 operands, but enclosing function (@f) returns 1
// INVALID: note: the IR is invalid after pass 'test-pass-invalid-ir'
// INVALID: error: Failures have been detected while processing an MLIR pass pipeline
// INVALID-NEXT: note: Pipeline failed while executing [`TestPassInvalidIRPass` on 'func.func' operation: @f]: reproducer generated at `{{.*}}.repro.mlir`

// The reproducer: the input as it was before the pipeline, and the pipeline.
// REPRO:      func.func @f(%arg0: i32) -> i32 {
// REPRO-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// REPRO:      {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(func.func(test-pass-invalid-ir))",
// REPRO-NEXT:       disable_threading: true,
// REPRO-NEXT:       verify_each: true
// REPRO-NEXT:     }
// REPRO-NEXT:   }
// REPRO-NEXT: #-}

// AGAIN: note: the IR is invalid after pass 'test-pass-invalid-ir'

// NOVERIFY: return {test.broken = 1 : i32}

// DUMP: // -----// IR Dump After TestPassFailurePass Failed: test-pass-failure{message={test pass failed}} //----- //
// DUMP-NEXT: module {
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}
