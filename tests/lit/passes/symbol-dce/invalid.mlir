// RUN: not strata-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(symbol-dce))' 2>&1 | filecheck %s --check-prefix=NOTABLE
// RUN: not strata-opt %s --allow-unregistered-dialect --symbol-dce 2>&1 | filecheck %s --check-prefix=UNKNOWN

// symbol-dce runs on symbol tables only.
// NOTABLE: invalid.mlir:10:1: error: 'func.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table

// An op of an unknown dialect with one region may be a symbol table: the symbol uses
// of @f cannot be known.
// UNKNOWN: invalid.mlir:10:1: error: operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses
func.func @f() {
  "test.region"() ({
    "test.x"() : () -> ()
  }) : () -> ()
  return
}
