"""The Python API of the IR core: uniquing, building, use-def chains, mutation, cloning,
symbol tables, structural equality and verification."""
import pytest

from strata.dialects import default_context
from strata.dialects import arith, func
from strata.dialects.builtin import ModuleOp
from strata.ir import attributes as A
from strata.ir.builder import Builder
from strata.ir.core import Block, IRError
from strata.ir.diagnostics import DiagnosticError
from strata.ir.symbol_table import SymbolTable, lookup_nearest_symbol_from
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

CTX = default_context()


def parse(text):
    return parse_source(text, CTX, "test.mlir")


def test_types_and_attributes_are_uniqued():
    assert A.IntegerType(32) is A.i32
    assert A.RankedTensorType([4, A.DYNAMIC], A.f32) is A.RankedTensorType((4, A.DYNAMIC), A.f32)
    assert A.IntegerAttr(3, A.i32) is A.IntegerAttr(3, A.i32)
    assert A.IntegerAttr(3, A.i32) is not A.IntegerAttr(3, A.i64)
    assert A.DictionaryAttr({"b": A.UnitAttr(), "a": A.i32 and A.TypeAttr(A.i32)}) is \
        A.DictionaryAttr({"a": A.TypeAttr(A.i32), "b": A.UnitAttr()})
    assert str(A.RankedTensorType([4, A.DYNAMIC], A.f32)) == "tensor<4x?xf32>"
    assert str(A.FunctionType([A.i32], [A.FunctionType([], [])])) == "(i32) -> (() -> ())"
    assert str(A.FloatAttr(0.1, A.f32)) == "1.000000e-01 : f32"
    assert str(A.IntegerAttr(1, A.i1)) == "true"


def build_add_function():
    ft = A.FunctionType([A.i32, A.i32], [A.i32])
    f = func.FuncOp.new("add", ft)
    entry = f.regions[0].blocks[0]
    b = Builder.at_end(entry)
    s = b.create(arith.AddIOp, lhs=entry.args[0], rhs=entry.args[1])
    b.create(func.ReturnOp, operands_=[s.result])
    return ModuleOp.new([f]), f, s


def test_build_print_and_verify():
    m, f, s = build_add_function()
    m.verify()
    text = print_op(m)
    assert "%0 = arith.addi %arg0, %arg1 : i32" in text
    again = parse(text)
    assert again.is_equivalent(m)
    assert print_op(again) == text


def test_use_def_chains_and_replace_all_uses():
    m, f, s = build_add_function()
    entry = f.regions[0].blocks[0]
    a0, a1 = entry.args
    assert [u.owner for u in a0.uses] == [s]
    assert s.result.has_one_use()
    a0.replace_all_uses_with(a1)
    assert not a0.has_uses() and a1.num_uses() == 2
    assert s.lhs is a1 and s.rhs is a1


def test_erase_requires_no_uses_and_detaches():
    m, f, s = build_add_function()
    with pytest.raises(IRError):
        s.erase()
    ret = f.regions[0].blocks[0].last
    ret.set_operands([f.regions[0].blocks[0].args[0]])
    s.erase()
    assert [op.name for op in f.regions[0].blocks[0].ops] == ["func.return"]
    m.verify()


def test_clone_is_deep_and_equivalent():
    m, f, s = build_add_function()
    f2 = f.clone()
    assert f2.is_equivalent(f)
    inner = f2.regions[0].blocks[0].first
    assert inner is not s and inner.lhs is f2.regions[0].blocks[0].args[0]
    inner.properties["overflowFlags"] = arith.OVERFLOW("nsw")
    assert not f2.is_equivalent(f)


def test_move_and_walk_order():
    m = parse("""
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %a, %a : i32
  return %1 : i32
}""")
    names = [op.name for op in m.walk()]
    assert names == ["arith.addi", "arith.muli", "func.return", "func.func", "builtin.module"]
    f = m.regions[0].blocks[0].first
    add, mul = list(f.regions[0].blocks[0].ops)[:2]
    mul.move_before(add)
    assert [op.name for op in f.regions[0].blocks[0].ops][:2] == ["arith.muli", "arith.addi"]


def test_symbol_table():
    m = parse("""
func.func private @g(i32) -> i32
func.func @f(%a: i32) -> i32 {
  %0 = func.call @g(%a) : (i32) -> i32
  return %0 : i32
}""")
    st = SymbolTable(m)
    g = st.lookup("g")
    assert g is not None and g.name == "func.func"
    call = next(op for op in m.walk() if op.name == "func.call")
    assert lookup_nearest_symbol_from(call, call.callee) is g
    st.rename(g, "h")
    assert "%0 = call @h(%arg0)" in print_op(m)  # func is the default dialect
    dup = g.clone()
    assert st.insert(dup) == "h_0"


def test_verifier_reports_dominance_with_location():
    with pytest.raises(DiagnosticError) as e:
        parse("""func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  return %0 : i32
}""")
    d = e.value.diag
    assert "operand #0 does not dominate this use" in d.message
    assert d.loc.file_line_col().line == 2


def test_verifier_checks_declared_types():
    with pytest.raises(DiagnosticError) as e:
        parse('func.func @f(%a: f32) { %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32\n return }')
    assert "operand #0 must be signless-non-zero-bitwidth-integer-like, but got 'f32'" in e.value.diag.message


def test_block_arguments_insert_and_erase():
    b = Block([A.i32, A.f32])
    assert [a.index for a in b.args] == [0, 1]
    b.insert_argument(1, A.i64)
    assert [str(t) for t in b.arg_types] == ["i32", "i64", "f32"]
    b.erase_argument(0)
    assert [a.index for a in b.args] == [0, 1]


def _garbage_after(fn):
    """How many objects the cyclic collector finds unreachable once `fn()` has run
    (everything `fn` dropped that reference counting did not free)."""
    import gc
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        fn()
        return gc.collect()
    finally:
        if enabled:
            gc.enable()


def test_erased_ops_are_freed_by_reference_counting():
    # [Note: erased ops are freed by reference counting]: results, regions, blocks and
    # nested ops of an erased op are taken apart, so nothing is left to the collector
    m = parse("""
func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.addi %a, %b : i32
  %d = scf.execute_region -> i32 {
    %e = arith.muli %a, %c : i32
    cf.br ^bb1(%e : i32)
  ^bb1(%x: i32):
    %y = arith.subi %x, %b : i32
    scf.yield %y : i32
  }
  %u = arith.muli %d, %d : i32
  return %a : i32
}
""")
    body = next(iter(m.regions[0].blocks[0].ops)).regions[0].blocks[0]

    def erase_all_but_return():
        ops = list(body.ops)[:-1]
        for op in reversed(ops):
            op.erase()
        assert [op.name for op in body.ops] == ["func.return"]
        dead = ops[1].results[0]
        assert dead.owner is None and not ops[1].regions[0].blocks
        assert "erased" in repr(dead)
        with pytest.raises(IRError, match="erased op"):
            dead.index
        del dead
        del ops

    assert _garbage_after(erase_all_but_return) == 0
    m.verify()
    text = print_op(m)
    assert "arith" not in text and "scf" not in text


def test_erased_blocks_are_freed_by_reference_counting():
    m = parse("""
func.func @f(%a: i32) -> i32 {
  cf.br ^bb2(%a : i32)
^bb1(%x: i32):
  %y = arith.addi %x, %x : i32
  %z = arith.muli %y, %x : i32
  cf.br ^bb2(%z : i32)
^bb2(%r: i32):
  return %r : i32
}
""")
    region = next(iter(m.regions[0].blocks[0].ops)).regions[0]

    def erase_dead_block():
        region.blocks[1].erase()

    assert _garbage_after(erase_dead_block) == 0
    assert len(region.blocks) == 2
    m.verify()
