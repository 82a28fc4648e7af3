"""The parser's regex fast paths (uniform binary ops, generic-op heads, memoized
property dictionaries and function types) must build exactly the IR the general path
builds: every lit input and the benchmark modules are parsed both ways and compared."""
import pathlib
import sys

import pytest

from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import Parser
from strata.syntax.printer import PrintOptions, print_op

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))


def _chunks():
    for path in sorted((ROOT / "tests" / "lit").rglob("*.mlir")):
        text = path.read_text()
        for i, chunk in enumerate(text.split("// -----")):
            yield pytest.param(chunk, "allow-unregistered" in text,
                               id=f"{path.relative_to(ROOT / 'tests' / 'lit')}#{i}")


def _parse_both(text, allow_unregistered=False):
    results = []
    for fast in (True, False):
        p = Parser(text, default_context(allow_unregistered), "x.mlir")
        p.fast_paths = fast
        try:
            m = p.parse_top_level()
            m.verify()
            results.append(("ok", print_op(m, PrintOptions(generic=True, debuginfo=True))))
        except DiagnosticError as e:
            results.append(("error", str(e.diag)))
    return results


@pytest.mark.parametrize("text,allow", list(_chunks()))
def test_lit_inputs_parse_the_same_with_and_without_fast_paths(text, allow):
    fast, slow = _parse_both(text, allow)
    assert fast == slow


@pytest.mark.parametrize("generic", [False, True])
def test_benchmark_module_parses_the_same(generic):
    from syntax import make_module
    fast, slow = _parse_both(make_module(300, generic))
    assert fast[0] == "ok" and fast == slow


@pytest.mark.parametrize("text", [
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i64\n  return %0 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  %a = arith.addi %a, %a : i32\n  return %a : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %1, %a : i32\n  %1 = arith.addi %a, %a : i32\n  return %0 : i32\n}",
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  %1 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  return %1 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) : (i32, i32) -> (i32, i32)\n  return %0 : i32\n}',
    # Runs of fast-path lines: redefinitions inside a run, names out of sequence,
    # leading zeros, comments between lines, a name of an enclosing region reused in a
    # nested one, forward references, generic ops with unknown properties.
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %0, %a : i32\n  %0 = arith.addi %1, %a : i32\n  return %0 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %5 = arith.addi %0, %a : i32 // five\n  // two\n  %2 = arith.addi %5, %0 : i32\n  %3 = arith.addi %2, %5 : i32\n  %5 = arith.addi %3, %3 : i32\n  return %3 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %01 = arith.addi %0, %a : i32\n  %1 = arith.addi %01, %0 : i32\n  %x_1 = arith.muli %1, %01 : i32\n  return %x_1 : i32\n}",
    "func.func @f(%a: index, %b: i32) -> i32 {\n  %0 = arith.addi %b, %b : i32\n  %1 = scf.for %i = %a to %a step %a iter_args(%s = %0) -> (i32) {\n    %2 = arith.addi %s, %0 : i32\n    %0 = arith.addi %2, %2 : i32\n    scf.yield %2 : i32\n  }\n  return %1 : i32\n}",
    "func.func @f(%a: index, %b: i32) -> i32 {\n  %0 = arith.addi %b, %b : i32\n  %1 = scf.for %i = %a to %a step %a iter_args(%s = %0) -> (i32) {\n    %2 = arith.addi %s, %0 : i32\n    %3 = arith.addi %2, %2 : i32\n    scf.yield %3 : i32\n  }\n  return %1 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  cf.br ^bb1\n^bb1:\n  %0 = arith.addi %1, %a : i32\n  %1 = arith.addi %a, %a : i32\n  %2 = arith.addi %0, %1 : i32\n  return %2 : i32\n}",
    "func.func @f(%a: i32) -> i32 {\n  cf.br ^bb1\n^bb1:\n  %0 = arith.addi %1, %a : i32\n  %1 = arith.addi %a, %a : i64\n  return %0 : i32\n}",
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  %1 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  %2 = "arith.muli"(%1, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  %3 = "arith.andi"(%2, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n  return %3 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32\n  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i32\n  %2 = "arith.addi"(%1, %0) : (i32, i64) -> i32\n  return %2 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32\n  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i32\n  %2 = "arith.addi"(%1) : (i32, i32) -> i32\n  return %2 : i32\n}',
    # Generic lines with trailing blanks, comments, CRLF, locations, three operands.
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32  \n  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i32 // one\n  %2 = "arith.addi"(%1, %0) : (i32, i32) -> i32 // one\n  %3 = "arith.addi"(%2, %1) : (i32, i32) -> i32\r\n  %4 = "arith.addi"(%3, %2) : (i32, i32) -> i32 loc("x":1:2)\n  %5 = "arith.select"(%a, %4, %3) : (i32, i32, i32) -> i32\n  return %4 : i32\n}',
    # A trailing location on the line after the op (or after a comment).
    'func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %0, %a : i32\n    loc("x":3:4)\n  %2 = arith.addi %1, %a : i32 // c\n  loc("y":5:6)\n  return %2 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32\n  %1 = "arith.addi"(%0, %a) : (i32, i32) -> i32\n  loc("x":3:4)\n  %2 = "arith.addi"(%1, %a) : (i32, i32) -> i32\n  loc("y":5:6) %3 = "arith.addi"(%2, %a) : (i32, i32) -> i32\n  return %2 : i32\n}',
    # Operand counts that disagree with a function type seen before.
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32\n  %1 = "arith.addi"(%0) : () -> i32\n  return %1 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32\n  %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32\n  %2 = "arith.addi"(%0, %1) : () -> i32\n  return %2 : i32\n}',
    'func.func @f(%a: i32) -> i32 {\n  %0 = "arith.negf"(%a) : (i32) -> i32\n  %1 = "arith.addi"(%0, %a) : (i32) -> i32\n  %2 = "arith.addi"(%1) : (i32, i32) -> i32\n  return %2 : i32\n}',
    'func.func @f(%a: i1, %b: i32) -> i32 {\n  %0 = "arith.select"(%a, %b, %b) : (i1, i32, i32) -> i32\n  %1 = "arith.select"(%a, %0, %b) : (i1, i32, i32) -> i32\n  %2 = "arith.select"(%a, %1, %0) : (i1, i32, i32) -> i32\n  return %2 : i32\n}',
])
def test_edge_cases_agree(text):
    fast, slow = _parse_both(text)
    assert fast == slow


def test_ops_parsed_from_the_same_property_text_do_not_share_writes():
    text = ('func.func @f(%a: i32) -> i32 {\n'
            '  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n'
            '  %1 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n'
            '  %2 = "arith.addi"(%1, %0) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32\n'
            '  return %2 : i32\n}')
    m = Parser(text, default_context(), "x.mlir").parse_top_level()
    adds = [op for op in m.walk() if op.name == "arith.addi"]
    # The first line fills the memo (general path); the others share its result.
    assert adds[1]._props is adds[2]._props
    nsw = adds[0].properties["overflowFlags"]
    del adds[1].properties["overflowFlags"]
    assert "overflowFlags" not in adds[1].properties
    assert adds[2].properties["overflowFlags"] is nsw
    assert adds[0].get_attr("overflowFlags") is nsw
