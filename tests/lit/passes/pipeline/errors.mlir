// Bad pipelines and failing passes: located diagnostics naming the pass, a
// reproducer file for a crash or broken IR, exit code 1, never a traceback.
// RUN: not strata-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not strata-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=UNBALANCED
// RUN: not strata-opt %s --pass-pipeline='cse' 2>&1 | filecheck %s --check-prefix=UNWRAPPED
// RUN: not strata-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=x})' 2>&1 | filecheck %s --check-prefix=BADVALUE
// RUN: not strata-opt %s --pass-pipeline='builtin.module(canonicalize{bogus=1})' 2>&1 | filecheck %s --check-prefix=BADOPTION
// RUN: not strata-opt %s --pass-pipeline='builtin.module(canonicalize{region-simplify=sometimes})' 2>&1 | filecheck %s --check-prefix=BADCHOICE
// RUN: not strata-opt %s --pass-pipeline='func.func(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not strata-opt %s --pass-pipeline='builtin.module(func.func(arith.addi(cse)))' 2>&1 | filecheck %s --check-prefix=ISOLATED
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/test_passes.py --pass-pipeline='builtin.module(test-func-pass)' 2>&1 | filecheck %s --check-prefix=NEST
// RUN: not strata-opt %s --load-pass-plugin=%S/Inputs/no_such_plugin.py --cse 2>&1 | filecheck %s --check-prefix=PLUGIN

// UNKNOWN: error: MLIR Textual PassPipeline Parser:1:16: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(no-such-pass)
// UNKNOWN-NEXT: {{^}}               ^
// UNBALANCED: error: MLIR Textual PassPipeline Parser:1:15: error: encountered unbalanced parentheses while parsing pipeline
// UNWRAPPED: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// BADVALUE: invalid value for option 'max-iterations' of pass 'canonicalize': 'x' is not an integer
// BADOPTION: no such option 'bogus' for pass 'canonicalize'
// BADCHOICE: invalid value for option 'region-simplify' of pass 'canonicalize': 'sometimes' is not one of: disabled, normal, aggressive
// ANCHOR: errors.mlir:0:0: error: can't run 'func.func' pass manager on 'builtin.module' op
// ISOLATED: errors.mlir:{{[0-9]+}}:8: error: 'arith.addi' op trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'
// NEST: error: Can't add pass 'TestFuncPass' restricted to 'func.func' on a PassManager intended to run on 'builtin.module', did you intend to nest?
// PLUGIN: error: could not load pass plugin '{{.*}}no_such_plugin.py': no such file
// CHECK-NOT: Traceback
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}
