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

