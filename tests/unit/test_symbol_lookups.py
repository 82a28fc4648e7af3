"""Symbol lookups: a linear scan of the table, or (inside frozen_symbol_lookups, as the
verifier's walk over symbol uses) a dict built once per table; both give the first op
of a name."""
from strata.dialects import default_context
from strata.ir.symbol_table import frozen_symbol_lookups, lookup_symbol_in
from strata.syntax.parser import parse_source

SRC = """
func.func private @f() -> i32
func.func private @g() -> i32
func.func @main() -> i32 {
  %0 = func.call @f() : () -> i32
  return %0 : i32
}
"""


def test_frozen_lookups_agree_with_the_scan():
    m = parse_source(SRC, default_context(), "t.mlir")
    ops = list(m.regions[0].blocks[0].ops)
    plain = [lookup_symbol_in(m, n) for n in ("f", "g", "main", "h")]
    assert plain == [ops[0], ops[1], ops[2], None]
    with frozen_symbol_lookups():
        with frozen_symbol_lookups():       # nested: the outer cache stays
            assert [lookup_symbol_in(m, n) for n in ("f", "g", "main", "h")] == plain
        assert lookup_symbol_in(m, "g") is ops[1]
    # outside: the IR may change, lookups scan again
    ops[1].erase()
    assert lookup_symbol_in(m, "g") is None



def _globals_module(n, missing=False):
    lines = [f'ml_program.global private @w{i}(dense<{i}.0> : tensor<2xf32>) : tensor<2xf32>'
             for i in range(n)]
    body = [f"  %v{i} = ml_program.global_load_const @w{i} : tensor<2xf32>" for i in range(n)]
    if missing:
        body.append("  %bad = ml_program.global_load_const @nowhere : tensor<2xf32>")
    src = "\n".join(lines) + "\nfunc.func @main() {\n" + "\n".join(body) + "\n  return\n}\n"
    return parse_source(src, default_context(), "t.mlir")


def test_verifying_reads_each_table_once(monkeypatch):
    # [Note: symbol lookups while verifying]: the ops' own verifiers resolving their
    # globals scanned the module per lookup (quadratic in the number of globals)
    import strata.ir.symbol_table as st
    m = _globals_module(300)      # (parsing verifies it a first time)
    calls = [0]
    real = st.symbol_name

    def counted(op):
        calls[0] += 1
        return real(op)
    monkeypatch.setattr(st, "symbol_name", counted)
    m.verify()
    assert calls[0] < 3 * 301, calls[0]     # a scan per load: ~45,000


def test_verifying_still_reports_an_undefined_global():
    import pytest
    from strata.ir.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError, match="undefined global: @nowhere"):
        _globals_module(3, missing=True)     # (the parser verifies)
