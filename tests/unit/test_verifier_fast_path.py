"""The verifier's per-signature shortcut (verifier._fast_verifier) must not hide errors: an
op whose operand and result types were already seen valid still has its properties, its
other traits and its own hook checked, and reports the same error as the general path."""
import pytest

from strata.dialects import default_context
from strata.ir import attributes as A
from strata.ir import traits as T
from strata.ir.core import Block
from strata.ir.diagnostics import DiagnosticError
from strata.ir.ods import Op, Operand, Prop, RegionDef, Result
from strata.ir.constraints import AnyAttr
from strata.syntax.parser import parse_source

CTX = default_context()


def _errors(text):
    with pytest.raises(DiagnosticError) as e:
        parse_source(text, CTX, "t.mlir")
    return str(e.value.diag)


def _module(lines):
    body = "\n".join("  " + ln for ln in lines)
    return f"func.func @f(%a: i32, %b: i32) -> i32 {{\n{body}\n  return %a : i32\n}}\n"


def test_bad_property_after_valid_ops_of_the_same_signature():
    lines = [f"%{i} = arith.addi %a, %b : i32" for i in range(3)]
    lines.append('%3 = "arith.addi"(%a, %b) <{overflowFlags = 1 : i64}> : (i32, i32) -> i32')
    msg = _errors(_module(lines))
    assert "t.mlir:5:" in msg
    assert "attribute 'overflowFlags' failed to satisfy constraint" in msg


def test_missing_required_property_after_valid_ops():
    lines = [f"%{i} = arith.cmpi slt, %a, %b : i32" for i in range(3)]
    lines.append('%3 = "arith.cmpi"(%a, %b) : (i32, i32) -> i1')
    msg = _errors(_module(lines))
    assert "t.mlir:5:" in msg and "requires attribute 'predicate'" in msg


def test_bad_types_are_reported_the_same_after_valid_ops():
    lines = [f"%{i} = arith.addi %a, %b : i32" for i in range(3)]
    lines.append('%3 = "arith.addi"(%a, %b) : (i32, i32) -> i64')
    msg = _errors(_module(lines))
    assert "t.mlir:5:" in msg
    assert "requires the same type for all operands and results" in msg


class _Checked(Op):
    name = "test.checked"
    traits = (T.SameOperandsAndResultType, T.HasParent("test.holder"))
    x = Operand()
    tag = Prop(AnyAttr)
    result = Result()

    def verify_(self):
        return "tag must not be 'bad'" if self._props["tag"] == A.StringAttr("bad") else None


class _Holder(Op):
    name = "test.holder"
    traits = (T.NoTerminator,)
    body = RegionDef()


def _block_of(holder_name, tags):
    holder = (_Holder if holder_name == "test.holder" else _Other).create(regions=1)
    blk = holder.regions[0].add_block(Block([A.i32]))
    ops = []
    for t in tags:
        op = _Checked.create([blk.args[0]], [A.i32], {"tag": A.StringAttr(t)})
        blk.append(op)
        ops.append(op)
    return holder, ops


class _Other(Op):
    name = "test.other"
    traits = (T.NoTerminator,)
    body = RegionDef()


def test_custom_hook_and_other_traits_run_on_every_op():
    holder, _ = _block_of("test.holder", ["a", "b", "c"])
    holder.verify()
    holder, _ = _block_of("test.holder", ["a", "b", "bad"])
    with pytest.raises(DiagnosticError, match="tag must not be 'bad'"):
        holder.verify()
    holder, ops = _block_of("test.holder", ["a", "b", "c"])
    ops[2]._props = {}
    with pytest.raises(DiagnosticError, match="requires attribute 'tag'"):
        holder.verify()
    holder, _ = _block_of("test.other", ["a"])
    with pytest.raises(DiagnosticError, match="expects parent op 'test.holder'"):
        holder.verify()
