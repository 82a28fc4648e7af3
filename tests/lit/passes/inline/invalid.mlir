// RUN: not strata-opt %s --pass-pipeline='builtin.module(func.func(inline))' 2>&1 | filecheck %s

// The inliner needs a symbol table to resolve calls.
// CHECK: error: 'func.func' op  was scheduled to run under the inliner, but does not define a symbol table
func.func @f() {
  return
}
