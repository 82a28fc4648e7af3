"""The Python API of cse, remove-dead-values, symbol-dce and symbol-privatize, and the
structural hashing CSE relies on. The passes' IR-to-IR behaviour is tested as text in
tests/lit/passes/ (and against iree-opt in test_cse_differential.py)."""
import pytest

from strata.dialects import default_context
from strata.ir import attributes as A
from strata.ir.equivalence import (op_hash, ops_equivalent, structural_hash,
                                   structural_key)
from strata.passes.cse import (CSE, dominator_tree_children,
                               eliminate_common_subexpressions)
from strata.passes.pass_manager import PassFailure, PassManager, PreservedAnalyses
from strata.passes.pipeline import parse_pipeline
from strata.passes.registry import get_pass_class
from strata.passes.remove_dead_values import RemoveDeadValues
from strata.passes.symbol_dce import SymbolDCE
from strata.passes.symbol_privatize import SymbolPrivatize
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

CTX = default_context()


def parse(text):
    return parse_source(text, CTX, "test.mlir")


def func_ops(module, name=None):
    """The ops of the (named or first) function's entry block."""
    for f in module.regions[0].blocks[0].ops:
        if name is None or f.properties["sym_name"].value == name:
            return list(f.regions[0].blocks[0].ops)
    raise KeyError(name)


def run(module, *passes):
    PassManager("builtin.module", list(passes)).run(module)
    return print_op(module)


# ----------------------------------------------------------------- structural hashing

REGIONS = """
func.func @f(%c: i1, %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %r1 = scf.if %c -> i32 {
    %x = arith.addi %a, %b : i32
    %y = arith.muli %x, %x : i32
    scf.yield %y : i32
  } else {
    scf.yield %a : i32
  }
  %r2 = scf.if %c -> i32 {
    %p = arith.addi %b, %a : i32
    %q = arith.muli %p, %p : i32
    scf.yield %q : i32
  } else {
    scf.yield %a : i32
  }
  %r3 = scf.if %c -> i32 {
    %x = arith.addi %a, %b : i32
    %y = arith.muli %x, %a : i32
    scf.yield %y : i32
  } else {
    scf.yield %a : i32
  }
  %r4 = scf.if %c -> i32 {
    %x = arith.addi %a, %b : i32
    %y = arith.muli %x, %x : i32
    scf.yield %y : i32
  } else {
    scf.yield %b : i32
  }
  return %r1, %r2, %r3, %r4 : i32, i32, i32, i32
}
"""


def test_structural_hash_ignores_ssa_names_and_operand_order_of_commutative_ops():
    r1, r2, r3, r4, _ = func_ops(parse(REGIONS))
    assert structural_key(r1) == structural_key(r2)
    assert structural_hash(r1) == structural_hash(r2)
    # A different use inside, or a different value from outside: different.
    assert structural_key(r1) != structural_key(r3)
    assert structural_key(r1) != structural_key(r4)
    assert structural_hash(r1) != structural_hash(r3)
    # Without commutativity, the swapped addi tells r1 and r2 apart.
    assert structural_key(r1, commutative=False) != structural_key(r2, commutative=False)


def test_structural_hash_agrees_with_ops_equivalent():
    m = parse(REGIONS.replace("%p = arith.addi %b, %a", "%p = arith.addi %a, %b"))
    r1, r2, r3, r4, _ = func_ops(m)
    assert ops_equivalent(r1, r2)
    assert structural_hash(r1) == structural_hash(r2)
    for other in (r3, r4):
        assert not ops_equivalent(r1, other)
        assert structural_key(r1) != structural_key(other)


def test_op_hash_is_shallow():
    r1, r2, r3, r4, _ = func_ops(parse(REGIONS))
    # Regions do not take part: r1 and r3 differ only inside.
    assert op_hash(r1) == op_hash(r3)
    m = parse("""
    func.func @f(%a: i32, %b: i32) -> (i32, i32, i32) {
      %0 = arith.addi %a, %b : i32
      %1 = arith.addi %b, %a : i32
      %2 = arith.subi %a, %b overflow<nsw> : i32
      return %0, %1, %2 : i32, i32, i32
    }""")
    add0, add1, sub, _ = func_ops(m)
    assert op_hash(add0) == op_hash(add1)
    assert op_hash(add0) != op_hash(sub)


def test_structural_key_of_block_arguments_and_successors():
    m = parse("""
    func.func @f(%a: i32) -> (i32, i32) {
      %0 = scf.execute_region -> i32 {
        cf.br ^bb1(%a : i32)
      ^bb1(%x: i32):
        scf.yield %x : i32
      }
      %1 = scf.execute_region -> i32 {
        cf.br ^bb1(%a : i32)
      ^bb1(%y: i32):
        scf.yield %y : i32
      }
      return %0, %1 : i32, i32
    }""")
    e0, e1, _ = func_ops(m)
    assert structural_key(e0) == structural_key(e1)
    assert ops_equivalent(e0, e1)


# ----------------------------------------------------------------- cse

def test_cse_statistics_and_result():
    m = parse("""
    func.func @f(%a: i32, %b: i32) -> (i32, i32) {
      %0 = arith.addi %a, %b : i32
      %1 = arith.addi %b, %a : i32
      %dead = arith.muli %a, %b : i32
      return %0, %1 : i32, i32
    }""")
    p = CSE()
    out = run(m, p)
    assert p.statistics == {"num-cse'd": 1, "num-dce'd": 1}
    assert "return %0, %0 : i32, i32" in out
    assert "muli" not in out


def test_cse_reports_zero_statistics_and_preserves_analyses_when_nothing_changes():
    m = parse("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}")
    p = CSE()
    run(m, p)
    assert p.statistics == {"num-cse'd": 0, "num-dce'd": 0}
    assert p._preserved is PreservedAnalyses.ALL


def test_cse_through_a_nested_pipeline_and_the_registry():
    assert get_pass_class("cse") is CSE
    pm = parse_pipeline("builtin.module(func.func(cse))")
    assert pm.pipeline_text() == "builtin.module(func.func(cse))"
    m = parse("""
    func.func @f() -> (i32, i32) {
      %c = arith.constant 1 : i32
      %d = arith.constant 1 : i32
      return %c, %d : i32, i32
    }""")
    pm.run(m)
    assert print_op(m).count("arith.constant") == 1


def test_eliminate_common_subexpressions_library_call():
    m = parse("""
    func.func @f(%a: f32) -> (f32, f32) {
      %0 = math.sqrt %a : f32
      %1 = math.sqrt %a : f32
      return %0, %1 : f32, f32
    }""")
    assert eliminate_common_subexpressions(m) == (1, 0)
    m.verify()


def test_cse_leaves_reads_separated_by_a_write():
    m = parse("""
    ml_program.global private mutable @g(0 : i32) : i32
    func.func @f(%v: i32) -> (i32, i32, i32) {
      %0 = ml_program.global_load @g : i32
      %1 = ml_program.global_load @g : i32
      ml_program.global_store @g = %v : i32
      %2 = ml_program.global_load @g : i32
      return %0, %1, %2 : i32, i32, i32
    }""")
    assert eliminate_common_subexpressions(m) == (1, 0)
    assert print_op(m).count("global_load @g") == 2


def test_cse_is_linear_on_a_long_function():
    """A 20,000-op function with every op duplicated: one walk replaces all of them
    but the last pair, whose unused first op is erased as dead (no timing asserted)."""
    lines = ["func.func @f(%a: i32, %b: i32) -> i32 {"]
    prev, prev2 = "%a", "%b"
    for i in range(10000):
        lines.append(f"  %x{i} = arith.addi {prev}, {prev2} : i32")
        lines.append(f"  %y{i} = arith.addi {prev2}, {prev} : i32")
        prev2, prev = f"%x{i}", f"%y{i}"
    lines += [f"  return {prev} : i32", "}"]
    m = parse("\n".join(lines))
    assert eliminate_common_subexpressions(m) == (9999, 1)
    m.verify()


def test_dominator_tree_children():
    m = parse("""
    func.func @f(%c: i1) {
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      cf.br ^bb3
    ^bb2:
      cf.br ^bb3
    ^bb3:
      return
    ^bb4:
      cf.br ^bb3
    }""")
    f = m.regions[0].blocks[0].first
    b0, b1, b2, b3, b4 = f.regions[0].blocks
    children = dominator_tree_children(f.regions[0])
    assert set(children[b0]) == {b1, b2, b3}
    assert b4 not in children and all(b4 not in v for v in children.values())


# ----------------------------------------------------------------- symbol-dce

SYMBOLS = """
func.func private @dead() {
  return
}
func.func private @live() {
  return
}
func.func @main() attributes {keep = [@kept_by_attr]} {
  func.call @live() : () -> ()
  return
}
func.func private @kept_by_attr() {
  return
}
"""


def test_symbol_dce_statistics():
    m = parse(SYMBOLS)
    p = SymbolDCE()
    out = run(m, p)
    assert p.statistics == {"num-dce'd": 1}
    assert "@dead" not in out and "@live" in out and "@kept_by_attr" in out


def test_symbol_dce_erases_a_private_nested_module_and_counts_its_symbols():
    # Generic form: a nested module's visibility has no custom syntax Strata prints yet.
    m = parse("""
    "builtin.module"() <{sym_name = "hidden", sym_visibility = "private"}> ({
      func.func @x() {
        return
      }
    }) : () -> ()
    "builtin.module"() <{sym_visibility = "private"}> ({
      func.func @y() {
        return
      }
    }) : () -> ()
    """)
    p = SymbolDCE()
    out = run(m, p)
    assert p.statistics == {"num-dce'd": 2}
    # Without a name, a module is no symbol: it stays.
    assert "@hidden" not in out and "@y" in out


def test_symbol_dce_fails_on_an_op_without_symbol_table():
    m = parse("func.func @f() {\n  return\n}")
    pm = parse_pipeline("builtin.module(func.func(symbol-dce))")
    with pytest.raises(PassFailure) as e:
        pm.run(m)
    assert "does not define a symbol table" in e.value.diag.message


# ----------------------------------------------------------------- symbol-privatize

def test_symbol_privatize_with_exclude_option():
    p = SymbolPrivatize.from_options_text("exclude=main,other")
    assert p.exclude == ["main", "other"]
    m = parse(SYMBOLS)
    out = run(m, p)
    assert "func.func @main()" in out
    assert "func.func private @dead()" in out
    assert "func.func private @kept_by_attr()" in out


def test_symbol_privatize_sets_the_visibility_property():
    m = parse('module @inner {\n}\nml_program.global public @w(0 : i32) : i32')
    run(m, SymbolPrivatize())
    inner, w = list(m.regions[0].blocks[0].ops)
    assert inner.properties["sym_visibility"] == A.StringAttr("private")
    assert w.properties["sym_visibility"] == A.StringAttr("private")


def test_symbol_privatize_then_symbol_dce():
    m = parse(SYMBOLS)
    pm = parse_pipeline("builtin.module(symbol-privatize{exclude=main},symbol-dce)")
    pm.run(m)
    out = print_op(m)
    assert "@dead" not in out and "@main" in out and "@live" in out


# ----------------------------------------------------------------- remove-dead-values

def test_remove_dead_values_narrows_a_private_function():
    m = parse("""
    func.func private @f(%a: i32, %b: i32) -> (i32, i32) {
      %0 = arith.muli %b, %b : i32
      return %a, %0 : i32, i32
    }
    func.func @main(%x: i32) -> i32 {
      %r:2 = func.call @f(%x, %x) : (i32, i32) -> (i32, i32)
      return %r#0 : i32
    }""")
    out = run(m, RemoveDeadValues())
    assert "func.func private @f(%arg0: i32) -> i32 {" in out
    assert "call @f(%arg0) : (i32) -> i32" in out
    assert "muli" not in out
    m.verify()


def test_remove_dead_values_keeps_public_signatures_and_effects():
    m = parse("""
    ml_program.global private mutable @g(0 : i32) : i32
    func.func @f(%a: i32, %unused: i32) -> i32 {
      %0 = arith.addi %a, %a : i32
      ml_program.global_store @g = %0 : i32
      %1 = arith.subi %a, %a : i32
      return %a : i32
    }""")
    out = run(m, RemoveDeadValues())
    assert "func.func @f(%arg0: i32, %arg1: i32) -> i32" in out
    assert "global_store" in out and "arith.addi" in out and "subi" not in out
