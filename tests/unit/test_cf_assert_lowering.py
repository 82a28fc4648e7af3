"""cf.assert's lowering to the llvm dialect ([Note: cf.assert] and [Note: lowering asserts
outside the conversion driver] in strata/conversion/to_llvm/cf.py): `lower_asserts`, the
walk that lowers the asserts of function bodies before the conversion, gives exactly
what the conversion pattern alone gives, moves every op once however many asserts a
block holds, and the compiled code reports the first failed assert and goes on."""
from __future__ import annotations

import numpy as np
import pytest

from strata.conversion.to_llvm import cf as CF
from strata.conversion.to_llvm.common import run_llvm_conversion
from strata.conversion.to_llvm.type_converter import LLVMTypeConverter
from strata.dialects import default_context
from strata.ir.core import Block
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

CASES = {
    "one block, several asserts": """
func.func @f(%a: i1, %b: i1, %x: i32) -> i32 {
  cf.assert %a, "first"
  %y = arith.addi %x, %x : i32
  cf.assert %b, "second"
  cf.assert %a, "third"
  return %y : i32
}""",
    "asserts in several blocks and functions, a name already taken": """
llvm.mlir.global private constant @assert_msg_1("taken\\00") {addr_space = 0 : i32}
func.func @f(%a: i1, %b: i1, %x: i32) -> i32 {
  cf.assert %a, "in the entry block"
  cf.cond_br %a, ^bb1, ^bb2(%x : i32)
^bb1:
  cf.assert %b, "in bb1"
  %y = arith.muli %x, %x : i32
  cf.assert %a, "in bb1 again"
  cf.br ^bb2(%y : i32)
^bb2(%z: i32):
  cf.assert %b, "in bb2"
  return %z : i32
}
func.func @g(%a: i1) {
  cf.assert %a, "in g"
  return
}""",
    "a parallel loop's chunk function (no guard abort there)": """
func.func @chunk(%a: i1) attributes {strata.parallel_chunk} {
  cf.assert %a, "in a chunk"
  return
}
func.func @main(%a: i1) {
  cf.assert %a, "in main"
  return
}""",
    "an assert in the region of another op (left to the pattern)": """
func.func @f(%a: i1) {
  cf.assert %a, "outer"
  scf.execute_region {
    cf.assert %a, "inner"
    scf.yield
  }
  return
}""",
}


def _parse(text):
    return parse_source(text, default_context(), "<test>")


def _pattern_only(text, checked_alloc):
    m = _parse(text)
    run_llvm_conversion(m, CF.cf_patterns(LLVMTypeConverter(64), checked_alloc))
    return print_op(m)


def _walk_then_pattern(text, checked_alloc):
    m = _parse(text)
    CF.lower_asserts(m, checked_alloc)
    run_llvm_conversion(m, CF.cf_patterns(LLVMTypeConverter(64), checked_alloc))
    return print_op(m)


@pytest.mark.parametrize("checked_alloc", [False, True])
@pytest.mark.parametrize("name", list(CASES))
def test_walk_gives_what_the_pattern_gives(name, checked_alloc):
    want = _pattern_only(CASES[name], checked_alloc)
    assert "llvm.call @strata_assert_fail" in want
    assert ("llvm.call @strata_guard_abort" in want) == checked_alloc
    assert _walk_then_pattern(CASES[name], checked_alloc) == want


def test_no_guard_abort_in_chunk_functions():
    m = _parse(CASES["a parallel loop's chunk function (no guard abort there)"])
    CF.lower_asserts(m, checked_alloc=True)
    chunk, main = (o for o in m.regions[0].blocks[0].ops if o.name == "func.func")
    assert "strata_guard_abort" not in print_op(chunk)
    assert "llvm.call @strata_guard_abort() : () -> ()" in print_op(main)


def test_walk_lowers_function_bodies_only():
    m = _parse(CASES["an assert in the region of another op (left to the pattern)"])
    assert CF.lower_asserts(m) == 1
    text = print_op(m)
    assert 'cf.assert %arg0, "inner"' in text and '"outer"' not in text.split("func.func")[1]


def test_every_op_moves_once(monkeypatch):
    """3000 asserts, each followed by an op, in one block: splitting them one at a time
    moved the rest of the block each time (4.5 million moves); the walk moves each op
    once."""
    n = 3000
    lines = ["func.func @f(%a: i1, %x: i32) -> i32 {"]
    for i in range(n):
        lines.append(f'  cf.assert %a, "check {i}"')
        lines.append(f"  %v{i} = arith.addi %x, %x : i32")
    lines += ["  return %x : i32", "}"]
    m = _parse("\n".join(lines))
    appended = [0]
    original = Block.append

    def counting(self, op):
        appended[0] += 1
        return original(self, op)
    monkeypatch.setattr(Block, "append", counting)
    assert CF.lower_asserts(m) == n
    ops = 2 * n + 1                       # the adds and the return
    created = 4 * n                       # per assert: addressof, call, br, cond_br
    assert appended[0] <= ops + created
    body = m.regions[0].blocks[0].ops.__next__()
    while body.name != "func.func":
        body = body.next
    assert len(body.regions[0].blocks) == 2 * n + 1


def test_compiled_asserts_report_the_first_failure_and_go_on():
    import strata
    from strata.runtime import RuntimeFailure
    text = """
func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %a = tensor.extract %x[%c0] : tensor<2xi64>
  %b = tensor.extract %x[%c1] : tensor<2xi64>
  %pa = arith.cmpi sgt, %a, %z : i64
  %pb = arith.cmpi sgt, %b, %z : i64
  cf.assert %pa, "x[0] must be positive"
  cf.assert %pb, "x[1] must be positive"
  return %x : tensor<2xi64>
}"""
    f = strata.compile(_parse(text), progress=False)
    np.testing.assert_array_equal(f(np.array([1, 2]))[0], [1, 2])
    with pytest.raises(RuntimeFailure, match=r"x\[1\] must be positive"):
        f(np.array([1, -2]))
    with pytest.raises(RuntimeFailure, match=r"x\[0\] must be positive"):
        f(np.array([-1, -2]))
    np.testing.assert_array_equal(f(np.array([3, 4]))[0], [3, 4])
