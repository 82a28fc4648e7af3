"""vector.contract's iterator_types and indexing_maps hold what they must: anything else
is a located parse or verifier error, never an op the printer then fails on (found by
the mutation fuzzer, tests/unit/test_fuzz.py)."""
from __future__ import annotations

import pytest

from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op

MAPS = ("[affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
        "affine_map<(i, j, k) -> (i, j)>]")
CUSTOM = """func.func @f(%b: vector<4x8xf32>, %c: vector<8x4xf32>, %acc: vector<4x4xf32>)
    -> vector<4x4xf32> {
  %0 = vector.contract {indexing_maps = MAPS, iterator_types = ITS,
                        kind = #vector.kind<add>} %b, %c, %acc
    : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return %0 : vector<4x4xf32>
}"""
GENERIC = """func.func @f(%b: vector<4x8xf32>, %c: vector<8x4xf32>, %acc: vector<4x4xf32>)
    -> vector<4x4xf32> {
  %0 = "vector.contract"(%b, %c, %acc) <{indexing_maps = MAPS, iterator_types = ITS,
        kind = #vector.kind<add>, fastmath = #arith.fastmath<none>}>
    : (vector<4x8xf32>, vector<8x4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
  return %0 : vector<4x4xf32>
}"""
GOOD = ('["parallel", "parallel", "reduction"]',
        "[#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, "
        "#vector.iterator_type<reduction>]")


def _load(text):
    op = parse_source(text, default_context(False), "t.mlir")
    op.verify()
    return op


@pytest.mark.parametrize("its", GOOD[:1])
def test_custom_form_round_trips(its):
    op = _load(CUSTOM.replace("MAPS", MAPS).replace("ITS", its))
    text = print_op(op, PrintOptions())
    assert "iterator_types = [\"parallel\", \"parallel\", \"reduction\"]" in text
    assert print_op(_load(text), PrintOptions()) == text


@pytest.mark.parametrize("form", [CUSTOM, GENERIC])
@pytest.mark.parametrize("its", ['["parallel", unit, "reduction"]',
                                 '["parallel", 1, "reduction"]',
                                 '[#vector.iterator_type<parallel>, "x", unit]'])
def test_iterator_types_that_are_not_iterator_types(form, its):
    text = form.replace("MAPS", MAPS).replace("ITS", its)
    with pytest.raises(DiagnosticError, match=r"t\.mlir:\d+:\d+: error: .*iterator"):
        _load(text)


def test_indexing_maps_that_are_not_maps():
    text = GENERIC.replace("MAPS", "[1, 2, 3]").replace("ITS", GOOD[1])
    with pytest.raises(DiagnosticError, match=r"t\.mlir:\d+:\d+: error: .*affine maps"):
        _load(text)
