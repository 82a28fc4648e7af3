"""Dialect conversion: legality, type conversion, full / partial / analysis conversion of a
small test-only "toy" dialect (and a test-only arith lowering), rollback on failure,
function signature conversion, materializations and the diagnostics."""
import pytest

from strata.dialects import all_dialects, arith
from strata.ir import attributes as A
from strata.ir import traits as T
from strata.ir.context import Context, Dialect
from strata.ir.core import IRError
from strata.ir.diagnostics import DiagnosticError
from strata.ir.ods import Op, Operand, RegionDef, Result, VarOperand, VarResult
from strata.rewrite.conversion import (
    ConversionConfig, ConversionPattern, ConversionTarget, LegalizationAction,
    SignatureConversion, TypeConverter, apply_analysis_conversion, apply_full_conversion,
    apply_partial_conversion, populate_function_signature_conversion,
    reconcile_unrealized_casts)
from strata.rewrite.pattern import RewritePattern
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op

i32, i64 = A.i32, A.i64


# ---------------------------------------------------------------- a toy dialect


class ToyAdd(Op):
    """`%r = "toy.add"(%a, %b) : (i32, i32) -> i32`"""
    name = "toy.add"
    lhs = Operand()
    rhs = Operand()
    result = Result()


class ToyMul(Op):
    """`%r = "toy.mul"(%a, %b) : (i32, i32) -> i32`"""
    name = "toy.mul"
    lhs = Operand()
    rhs = Operand()
    result = Result()


class ToyTwice(Op):
    """`%r = "toy.twice"(%a) : (i32) -> i32`: lowered through toy.add."""
    name = "toy.twice"
    input = Operand()
    result = Result()


class ToyWiden(Op):
    """`%r = "toy.widen"(%a) : (i32) -> i32`"""
    name = "toy.widen"
    input = Operand()
    result = Result()


class ToyBad(Op):
    """`%r = "toy.bad"(%a) : (i32) -> i32`: nothing lowers it."""
    name = "toy.bad"
    input = Operand()
    result = Result()


class ToyScope(Op):
    """`"toy.scope"() ({ ... "toy.yield"(%v) }) : () -> i32`"""
    name = "toy.scope"
    results_ = VarResult()
    body = RegionDef()


class ToyYield(Op):
    name = "toy.yield"
    traits = (T.Terminator,)
    values = VarOperand()


TOY = Dialect("toy", [ToyAdd, ToyMul, ToyTwice, ToyWiden, ToyBad, ToyScope, ToyYield])
CTX = Context(all_dialects() + [TOY])


def parse(text):
    return parse_source(text, CTX, "t.mlir")


def text(m, generic=False):
    return print_op(m, PrintOptions(generic=generic))


def both(m):
    return text(m), text(m, generic=True)


class LowerAdd(ConversionPattern):
    root = ToyAdd
    generated_ops = ("arith.addi",)

    def match_and_rewrite(self, op, operands, rewriter):
        rewriter.replace_op_with_new(op, arith.AddIOp, lhs=operands.lhs, rhs=operands.rhs)
        return True


class LowerMul(ConversionPattern):
    root = "toy.mul"
    generated_ops = ("arith.muli",)

    def match_and_rewrite(self, op, operands, rewriter):
        rewriter.replace_op_with_new(op, arith.MulIOp, lhs=operands[0], rhs=operands[1])
        return True


class LowerTwice(ConversionPattern):
    """toy.twice x -> toy.add x, x (then legalized by LowerAdd)."""
    root = "toy.twice"
    generated_ops = ("toy.add",)

    def match_and_rewrite(self, op, operands, rewriter):
        x = operands.input
        rewriter.replace_op_with_new(op, ToyAdd, lhs=x, rhs=x, result=x.type)
        return True


def toy_target():
    t = ConversionTarget()
    t.add_legal_dialect("arith", "func", "builtin")
    t.add_illegal_dialect("toy")
    return t


def widening_converter():
    tc = TypeConverter()
    tc.add_conversion(lambda t: t)
    tc.add_conversion(lambda t: i64 if t is i32 else None)
    return tc


SRC = """func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "toy.add"(%a, %b) : (i32, i32) -> i32
  %1 = "toy.mul"(%0, %b) : (i32, i32) -> i32
  %2 = "toy.twice"(%1) : (i32) -> i32
  return %2 : i32
}
"""


# ---------------------------------------------------------------- target


def test_conversion_target_legality():
    m = parse(SRC + """func.func @g() {
  %0 = "other.op"() : () -> i32
  return
}""".replace("other.op", "toy.bad").replace('() : () -> i32', '(%x) : (i32) -> i32')
              .replace("@g()", "@g(%x: i32)"))
    ops = {op.name: op for op in m.walk()}
    t = ConversionTarget()
    t.add_legal_dialect("arith")
    t.add_illegal_op(ToyAdd)
    t.add_dynamically_legal_op("toy.mul", lambda op: op.lhs is op.rhs)
    assert t.get_op_action("toy.add") is LegalizationAction.ILLEGAL
    assert t.get_op_action("arith.addi") is LegalizationAction.LEGAL
    assert t.get_op_action("toy.mul") is LegalizationAction.DYNAMIC
    assert t.get_op_action("toy.twice") is None
    assert t.is_legal(ops["toy.add"]) is None and t.is_illegal(ops["toy.add"])
    assert t.is_legal(ops["toy.mul"]) is None and t.is_illegal(ops["toy.mul"])
    assert t.is_legal(ops["toy.twice"]) is None and not t.is_illegal(ops["toy.twice"])
    # An op-specific action wins over the dialect's.
    t.add_illegal_dialect("func")
    t.add_legal_op("func.return")
    assert t.is_legal(ops["func.return"]) and t.is_illegal(ops["func.func"])
    # Unknown ops: decided by the unknown-op callback; a dynamic callback returning None
    # defers to it.
    t.mark_unknown_op_dynamically_legal(lambda op: op.name == "toy.twice")
    assert t.is_legal(ops["toy.twice"]) and not t.is_legal(ops["builtin.module"])
    t.add_dynamically_legal_op("toy.bad", lambda op: None)
    assert t.is_legal(ops["toy.bad"]) is None
    # Recursive legality.
    t.mark_op_recursively_legal("builtin.module")
    assert t.is_legal(ops["builtin.module"]).is_recursively_legal


def test_legality_remembered_by_name_follows_changes_to_the_target():
    # [Note: statically legal op names]: every change to the target is seen, whichever
    # op or dialect action made a name legal before
    m = parse(SRC)
    ops = {op.name: op for op in m.walk()}
    add, ret, mod = ops["toy.add"], ops["func.return"], ops["builtin.module"]
    t = ConversionTarget()
    t.add_legal_dialect("toy", "func", "builtin")
    assert t.is_legal(add) and t.is_legal(ret) and t.is_legal(mod)
    t.add_illegal_op("toy.add")
    assert t.is_legal(add) is None and t.is_legal(ops["toy.mul"])
    t.add_legal_op("toy.add")
    assert t.is_legal(add)
    t.set_op_action("toy.add", LegalizationAction.ILLEGAL)
    assert t.is_legal(add) is None
    t.add_illegal_dialect("func")
    assert t.is_legal(ret) is None
    t.add_dynamically_legal_dialect("func", lambda op: op.name == "func.return")
    assert t.is_legal(ret) and t.is_legal(ops["func.func"]) is None
    t.add_legal_dialect("func")
    assert t.is_legal(ops["func.func"])
    t.add_dynamically_legal_op("func.func", lambda op: False)
    assert t.is_legal(ops["func.func"]) is None
    assert not t.is_legal(mod).is_recursively_legal
    t.mark_op_recursively_legal("builtin.module")
    assert t.is_legal(mod).is_recursively_legal
    t2 = ConversionTarget()
    assert t2.is_legal(mod) is None
    t2.mark_unknown_op_dynamically_legal(lambda op: True)
    assert t2.is_legal(mod) and not t2.is_legal(mod).is_recursively_legal


# ---------------------------------------------------------------- type converter


def test_type_converter_callbacks_and_legality():
    tc = TypeConverter()
    tc.add_conversion(lambda t: t)                                   # fallback
    tc.add_conversion(lambda t: i64 if t is i32 else None)           # tried before
    tc.add_conversion(lambda t: False if t is A.f16 else None)       # f16: impossible
    tc.add_conversion(lambda t: [] if t is A.IndexType() else None)  # index: dropped
    tc.add_conversion(lambda t: list(t.types) if isinstance(t, A.TupleType) else None)
    assert tc.convert_type(i32) is i64
    assert tc.convert_type(A.f32) is A.f32
    assert tc.convert_type(A.f16) is None and tc.convert_types(A.f16) is None
    assert tc.convert_types(A.IndexType()) == []
    tup = A.TupleType([i32, A.f32])
    assert tc.convert_types(tup) == [i32, A.f32] and tc.convert_type(tup) is None
    assert tc.is_legal(A.f32) and not tc.is_legal(i32) and tc.is_legal([A.f32, i64])
    assert tc.is_signature_legal(A.FunctionType([i64], [A.f32]))
    assert not tc.is_signature_legal(A.FunctionType([i64], [i32]))
    m = parse(SRC)
    f = next(m.regions[0].blocks[0].ops)
    assert not tc.is_legal(f.regions[0]) and not tc.is_legal(f.regions[0].blocks[0])
    add = next(op for op in m.walk() if op.name == "toy.add")
    assert not tc.is_legal(add)
    sc = tc.convert_block_signature(f.regions[0].blocks[0])
    assert sc.converted_types == [i64, i64] and sc.input_mapping(1) == (1, 1, None)
    sc = SignatureConversion(3)
    assert tc.convert_signature_args([tup, A.IndexType(), A.f32], sc)
    assert sc.converted_types == [i32, A.f32, A.f32]
    assert [sc.input_mapping(i) for i in range(3)] == [(0, 2, None), None, (2, 1, None)]
    assert not tc.convert_signature_args([A.f16], SignatureConversion(1))


def test_type_converter_materializations():
    m = parse(SRC)
    add = next(op for op in m.walk() if op.name == "toy.add")
    from strata.ir.builder import Builder
    b = Builder.before(add)
    tc = TypeConverter()
    v = tc.materialize_source_conversion(b, add.loc, i64, [add.lhs])
    assert v.owner.name == "builtin.unrealized_conversion_cast" and v.type is i64
    tc.add_source_materialization(
        lambda bld, t, ins, loc: bld.create(arith.ExtSIOp, in_=ins[0], out=t).result
        if ins[0].type is i32 else None)
    w = tc.materialize_source_conversion(b, add.loc, i64, [add.lhs])
    assert w.owner.name == "arith.extsi"
    assert TypeConverter(default_materializations=False) \
        .materialize_target_conversion(b, add.loc, i64, [add.lhs]) is None


# ---------------------------------------------------------------- full conversion


def test_full_conversion_with_recursive_legalization():
    m = parse(SRC)
    apply_full_conversion(m, toy_target(), [LowerAdd(), LowerMul(), LowerTwice()])
    m.verify()
    assert text(m) == """module {
  func.func @f(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.muli %0, %arg1 : i32
    %2 = arith.addi %1, %1 : i32
    return %2 : i32
  }
}
"""


def test_ops_replaced_by_a_conversion_are_taken_apart_at_commit():
    # [Note: erased ops are freed by reference counting] (ir/core.py): the conversion's
    # commit takes its erased ops apart; the ops it rolled back stay whole and usable
    m = parse(SRC)
    old = [op for op in m.walk() if op.name.startswith("toy.")]
    apply_full_conversion(m, toy_target(), [LowerAdd(), LowerMul(), LowerTwice()])
    m.verify()
    assert all(op.parent is None and op.results[0].owner is None and not op.operands
               for op in old)
    m2 = parse(SRC)
    kept = [op for op in m2.walk() if op.name.startswith("toy.")]
    with pytest.raises(DiagnosticError):
        apply_full_conversion(m2, toy_target(), [LowerAdd(), LowerMul()])
    assert all(op.parent is not None and op.results[0].owner is op for op in kept)
    m2.verify()


def test_full_conversion_failure_rolls_back_and_reports():
    m = parse(SRC)
    before = both(m)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [LowerAdd(), LowerTwice()])  # no toy.mul
    assert str(e.value) == "t.mlir:3:8: error: failed to legalize operation 'toy.mul'"
    assert both(m) == before
    m.verify()


def test_full_conversion_requires_every_op_legal():
    # builtin.module / func ops of unknown legality fail a full conversion, as upstream.
    m = parse(SRC)
    t = ConversionTarget()
    t.add_legal_dialect("arith")
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, t, [LowerAdd(), LowerMul(), LowerTwice()])
    assert "failed to legalize operation 'builtin.module'" in str(e.value)
    assert text(m) == text(parse(SRC))


def test_rollback_after_signature_and_block_changes():
    """A failure late in the conversion undoes the signature conversion, the new entry
    block, the lowered ops and the materializations made before it."""
    src = SRC.replace('%2 = "toy.twice"(%1) : (i32) -> i32',
                      '%2 = "toy.bad"(%1) : (i32) -> i32')
    m = parse(src)
    before = both(m)
    tc = widening_converter()
    t = toy_target()
    t.add_dynamically_legal_dialect("arith", lambda op: tc.is_legal(op))
    pats = populate_function_signature_conversion([LowerAdd(tc), LowerMul(tc)], tc, t)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, t, pats)
    assert str(e.value) == "t.mlir:4:8: error: failed to legalize operation 'toy.bad'"
    assert both(m) == before
    m.verify()


def test_failure_notes_give_known_reasons():
    class Picky(ConversionPattern):
        root = "toy.mul"

        def match_and_rewrite(self, op, operands, rewriter):
            return rewriter.notify_match_failure(op, "operands must be the same value")

    class MakesBad(ConversionPattern):
        root = "toy.mul"
        benefit = 2

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.replace_op_with_new(op, ToyBad, input=operands[0], result=i32)
            return True

    m = parse(SRC)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [LowerAdd(), Picky(), MakesBad()])
    d = e.value.diag
    assert d.message == "failed to legalize operation 'toy.mul'"
    assert [n.message for n in d.notes] == [
        "pattern 'MakesBad' created 'toy.bad', which could not be legalized",
        "pattern 'Picky' did not apply: operands must be the same value"]
    assert str(d.notes[0].loc) == str(d.loc)
    # Notes can be turned off (to match upstream's bare error).
    m = parse(SRC)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [LowerAdd(), Picky()],
                              config=ConversionConfig(notes=False))
    assert e.value.diag.notes == []


def test_failed_pattern_result_is_undone_and_next_pattern_tried():
    created = []

    class Detour(ConversionPattern):
        """Higher benefit, declares nothing: applies, but its toy.bad is not legal."""
        root = "toy.mul"
        benefit = 5

        def match_and_rewrite(self, op, operands, rewriter):
            bad = rewriter.create(ToyBad, input=operands[0], result=i32)
            created.append(bad)
            rewriter.replace_op(op, bad)
            return True

    m = parse(SRC)
    apply_full_conversion(m, toy_target(), [Detour(), LowerAdd(), LowerMul(), LowerTwice()])
    assert "toy." not in text(m) and "arith.muli" in text(m)
    assert created and created[0].parent is None  # removed again
    m.verify()


def test_cost_model_prefers_patterns_that_reach_legal_ops():
    order = []

    class ViaBad(ConversionPattern):
        root = "toy.mul"
        benefit = 10
        generated_ops = ("toy.bad",)  # toy.bad is illegal and has no pattern: dropped

        def match_and_rewrite(self, op, operands, rewriter):
            order.append("ViaBad")
            return False

    class ViaTwice(ConversionPattern):
        """Depth 2 (toy.twice needs another pattern): tried after direct lowerings."""
        root = "toy.mul"
        benefit = 3
        generated_ops = ("toy.twice",)

        def match_and_rewrite(self, op, operands, rewriter):
            order.append("ViaTwice")
            return False

    class Direct(LowerMul):
        benefit = 1

        def match_and_rewrite(self, op, operands, rewriter):
            order.append("Direct")
            return super().match_and_rewrite(op, operands, rewriter)

    m = parse(SRC)
    apply_full_conversion(m, toy_target(), [ViaBad(), ViaTwice(), Direct(), LowerAdd(),
                                            LowerTwice()])
    assert order == ["Direct"]


def test_pattern_cycles_stop():
    class TwiceToMul(ConversionPattern):
        root = "toy.twice"
        generated_ops = ("toy.mul",)

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.replace_op_with_new(op, ToyMul, lhs=operands[0], rhs=operands[0],
                                         result=i32)
            return True

    class MulToTwice(ConversionPattern):
        root = "toy.mul"
        generated_ops = ("toy.twice",)

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.replace_op_with_new(op, ToyTwice, input=operands[0], result=i32)
            return True

    m = parse(SRC)
    with pytest.raises(DiagnosticError, match="failed to legalize operation 'toy.mul'"):
        apply_full_conversion(m, toy_target(), [LowerAdd(), TwiceToMul(), MulToTwice()])
    assert text(m) == text(parse(SRC))

    class Forever(ConversionPattern):
        """Bounded recursion claimed, but it never ends: the depth limit stops it."""
        root = "toy.twice"
        has_bounded_rewrite_recursion = True

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.replace_op_with_new(op, ToyTwice, input=operands[0], result=i32)
            return True

    m = parse(SRC)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [LowerAdd(), LowerMul(), Forever()],
                              config=ConversionConfig(max_depth=10))
    assert "failed to legalize operation 'toy.twice'" in str(e.value)
    assert text(m) == text(parse(SRC))


def test_exception_in_pattern_restores_input():
    class Boom(ConversionPattern):
        root = "toy.twice"

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.create(ToyBad, input=operands[0], result=i32)
            raise RuntimeError("boom")

    m = parse(SRC)
    with pytest.raises(RuntimeError, match="boom"):
        apply_full_conversion(m, toy_target(), [LowerAdd(), LowerMul(), Boom()])
    assert text(m) == text(parse(SRC))


def test_success_without_replacing_root_is_a_pattern_bug():
    class Lazy(ConversionPattern):
        root = "toy.add"

        def match_and_rewrite(self, op, operands, rewriter):
            return True

    m = parse(SRC)
    with pytest.raises(IRError, match="neither replaced nor updated"):
        apply_full_conversion(m, toy_target(), [Lazy()])
    assert text(m) == text(parse(SRC))


# ---------------------------------------------------------------- partial / analysis


def test_partial_conversion_leaves_unknown_ops():
    m = parse(SRC)
    t = ConversionTarget()
    t.add_legal_dialect("arith")  # toy has unknown legality
    r = apply_partial_conversion(m, t, [LowerAdd(), LowerTwice()])
    assert [op.name for op in r.unlegalized_ops] == [
        "builtin.module", "func.func", "toy.mul", "func.return"]
    assert text(m) == """module {
  func.func @f(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = "toy.mul"(%0, %arg1) : (i32, i32) -> i32
    %2 = arith.addi %1, %1 : i32
    return %2 : i32
  }
}
"""


def test_partial_conversion_fails_on_explicitly_illegal_op():
    m = parse(SRC)
    with pytest.raises(DiagnosticError) as e:
        apply_partial_conversion(m, toy_target(), [LowerAdd(), LowerTwice()])
    assert str(e.value) == ("t.mlir:3:8: error: failed to legalize operation 'toy.mul' "
                            "that was explicitly marked illegal")
    assert text(m) == text(parse(SRC))
    # Or leave them, as for ops of unknown legality.
    r = apply_partial_conversion(m, toy_target(), [LowerAdd(), LowerTwice()],
                                 config=ConversionConfig(fail_on_illegal=False))
    assert [op.name for op in r.unlegalized_ops] == ["toy.mul"]
    assert "toy.add" not in text(m) and "toy.twice" not in text(m)


def test_analysis_conversion_changes_nothing():
    m = parse(SRC)
    before = both(m)
    ok = apply_analysis_conversion(m, toy_target(), [LowerAdd(), LowerTwice()])
    assert sorted(op.name for op in ok) == ["builtin.module", "func.func", "func.return",
                                            "toy.add", "toy.twice"]
    assert both(m) == before


def test_recursively_legal_ops_are_not_entered():
    src = """func.func @f(%a: i32) -> i32 {
  %0 = "toy.scope"() ({
    %1 = "toy.add"(%a, %a) : (i32, i32) -> i32
    "toy.yield"(%1) : (i32) -> ()
  }) : () -> i32
  %2 = "toy.add"(%0, %0) : (i32, i32) -> i32
  return %2 : i32
}"""
    m = parse(src)
    t = toy_target()
    t.mark_op_recursively_legal("toy.scope")
    apply_full_conversion(m, t, [LowerAdd()])
    out = text(m)
    assert '"toy.add"(%arg0, %arg0)' in out and "arith.addi %0, %0" in out


# ---------------------------------------------------------------- types and signatures


def test_function_signature_conversion():
    src = """func.func @callee(%x: i32) -> i32 {
  return %x : i32
}
func.func @f(%a: i32, %b: f32) -> (i32, f32) {
  %0 = "toy.add"(%a, %a) : (i32, i32) -> i32
  %1 = func.call @callee(%0) : (i32) -> i32
  cf.br ^bb1(%1 : i32)
^bb1(%2: i32):
  return %2, %b : i32, f32
}
"""
    m = parse(src)
    tc = widening_converter()
    t = toy_target()
    t.add_dynamically_legal_dialect(("arith", "cf"), lambda op: tc.is_legal(op))

    class ConvertBr(ConversionPattern):
        root = "cf.br"

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.modify_op_in_place(op, lambda: op.set_operands(list(operands)))
            return True

    pats = populate_function_signature_conversion(
        [LowerAdd(tc), ConvertBr(tc)], tc, t)
    apply_full_conversion(m, t, pats)
    m.verify()
    assert text(m) == """module {
  func.func @callee(%arg0: i64) -> i64 {
    return %arg0 : i64
  }
  func.func @f(%arg0: i64, %arg1: f32) -> (i64, f32) {
    %0 = arith.addi %arg0, %arg0 : i64
    %1 = call @callee(%0) : (i64) -> i64
    cf.br ^bb1(%1 : i64)
  ^bb1(%2: i64):  // pred: ^bb0
    return %2, %arg1 : i64, f32
  }
}
"""


def test_one_to_n_signature_conversion():
    src = """func.func @id(%t: tuple<i32, f32>, %x: i32) -> tuple<i32, f32> {
  return %t : tuple<i32, f32>
}
func.func @caller(%t: tuple<i32, f32>) -> tuple<i32, f32> {
  %c = arith.constant 1 : i32
  %0 = func.call @id(%t, %c) : (tuple<i32, f32>, i32) -> tuple<i32, f32>
  return %0 : tuple<i32, f32>
}
"""
    m = parse(src)
    tc = TypeConverter()
    tc.add_conversion(lambda t: t)
    tc.add_conversion(lambda t: list(t.types) if isinstance(t, A.TupleType) else None)
    t = ConversionTarget()
    t.add_legal_dialect("builtin", "arith")
    pats = populate_function_signature_conversion([], tc, t)
    apply_full_conversion(m, t, pats)
    m.verify()
    assert text(m) == """module {
  func.func @id(%arg0: i32, %arg1: f32, %arg2: i32) -> (i32, f32) {
    return %arg0, %arg1 : i32, f32
  }
  func.func @caller(%arg0: i32, %arg1: f32) -> (i32, f32) {
    %c1_i32 = arith.constant 1 : i32
    %0:2 = call @id(%arg0, %arg1, %c1_i32) : (i32, f32, i32) -> (i32, f32)
    return %0#0, %0#1 : i32, f32
  }
}
"""


def test_partial_conversion_bridges_unconverted_users_with_casts():
    m = parse(SRC)
    tc = widening_converter()
    t = ConversionTarget()
    t.add_legal_dialect("builtin")
    t.add_dynamically_legal_dialect("arith", lambda op: tc.is_legal(op))
    pats = populate_function_signature_conversion([LowerAdd(tc)], tc, t)
    apply_partial_conversion(m, t, pats)
    m.verify()
    assert text(m) == """module {
  func.func @f(%arg0: i64, %arg1: i64) -> i64 {
    %0 = builtin.unrealized_conversion_cast %arg1 : i64 to i32
    %1 = arith.addi %arg0, %arg1 : i64
    %2 = builtin.unrealized_conversion_cast %1 : i64 to i32
    %3 = "toy.mul"(%2, %0) : (i32, i32) -> i32
    %4 = "toy.twice"(%3) : (i32) -> i32
    %5 = builtin.unrealized_conversion_cast %4 : i32 to i64
    return %5 : i64
  }
}
"""


def test_user_materializations_replace_casts():
    m = parse(SRC)
    tc = widening_converter()
    tc.add_source_materialization(
        lambda b, t, ins, loc: b.create(arith.TruncIOp, in_=ins[0], out=t, loc=loc).result)
    tc.add_target_materialization(
        lambda b, t, ins, loc: b.create(arith.ExtSIOp, in_=ins[0], out=t, loc=loc).result)
    t = ConversionTarget()
    t.add_legal_dialect("builtin", "arith")
    t.add_dynamically_legal_op("arith.addi", lambda op: tc.is_legal(op))
    apply_partial_conversion(m, t, [LowerAdd(tc)])
    m.verify()
    assert text(m) == """module {
  func.func @f(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.extsi %arg1 : i32 to i64
    %1 = arith.extsi %arg0 : i32 to i64
    %2 = arith.addi %1, %0 : i64
    %3 = arith.trunci %2 : i64 to i32
    %4 = "toy.mul"(%3, %arg1) : (i32, i32) -> i32
    %5 = "toy.twice"(%4) : (i32) -> i32
    return %5 : i32
  }
}
"""


def test_unresolved_materialization_error_rolls_back():
    class Widen(ConversionPattern):
        """No type converter: replaces an i32 op by an i64 value."""
        root = "toy.widen"

        def match_and_rewrite(self, op, operands, rewriter):
            ext = rewriter.create(arith.ExtSIOp, in_=operands[0], out=i64)
            rewriter.replace_op(op, ext)
            return True

    src = """func.func @f(%a: i32) -> i32 {
  %0 = "toy.widen"(%a) : (i32) -> i32
  return %0 : i32
}"""
    m = parse(src)
    before = both(m)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [Widen()])
    d = e.value.diag
    assert d.message == ("failed to legalize unresolved materialization from ('i64') to "
                         "('i32') that remained live after conversion")
    assert str(d.loc) == '"t.mlir":2:8'
    assert [n.message for n in d.notes] == [
        'see existing live user here: "func.return"(%1) : (i32) -> ()']
    assert str(d.notes[0].loc) == '"t.mlir":3:3'
    assert both(m) == before


def test_erasing_a_used_op_is_an_error():
    class Drop(ConversionPattern):
        root = "toy.widen"

        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.erase_op(op)
            return True

    m = parse("""func.func @f(%a: i32) -> i32 {
  %0 = "toy.widen"(%a) : (i32) -> i32
  return %0 : i32
}""")
    with pytest.raises(DiagnosticError, match=r"from \(\) to \('i32'\) that remained live"):
        apply_full_conversion(m, toy_target(), [Drop()])
    # An unused one may go.
    m = parse("""func.func @f(%a: i32) {
  %0 = "toy.widen"(%a) : (i32) -> i32
  return
}""")
    apply_full_conversion(m, toy_target(), [Drop()])
    assert "toy" not in text(m) and "unrealized" not in text(m)


def test_pattern_fails_when_operand_type_cannot_be_converted():
    tc = TypeConverter()
    tc.add_conversion(lambda t: False if t is i32 else t)
    m = parse(SRC)
    with pytest.raises(DiagnosticError) as e:
        apply_full_conversion(m, toy_target(), [LowerAdd(tc)])
    assert [n.message for n in e.value.diag.notes] == [
        "pattern 'LowerAdd' did not apply: unable to convert type for operand #0, "
        "type was i32"]


def test_driver_type_converter_serves_patterns_without_one():
    m = parse(SRC)
    tc = widening_converter()
    t = toy_target()
    t.add_dynamically_legal_dialect("arith", lambda op: tc.is_legal(op))
    pats = populate_function_signature_conversion(
        [LowerAdd(), LowerMul(), LowerTwice()], tc, t)
    apply_full_conversion(m, t, pats, type_converter=tc)
    m.verify()
    assert "i32" not in text(m)


# ---------------------------------------------------------------- folding, arith


class SubToAddNeg(RewritePattern):
    """Test-only lowering: a - b -> a + b * -1 (a plain RewritePattern)."""
    root = "arith.subi"
    generated_ops = ("arith.constant", "arith.muli", "arith.addi")

    def match_and_rewrite(self, op, rewriter):
        t = op.result.type
        m1 = rewriter.create(arith.ConstantOp, value=A.IntegerAttr(-1, t), result=t)
        neg = rewriter.create(arith.MulIOp, lhs=op.rhs, rhs=m1.result)
        rewriter.replace_op_with_new(op, arith.AddIOp, lhs=op.lhs, rhs=neg.result)
        return True


def test_test_only_arith_lowering_and_folding():
    src = """func.func @f(%a: i32, %b: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.subi %c3, %c2 : i32
  %1 = arith.subi %a, %b : i32
  %2 = arith.addi %1, %0 : i32
  return %2 : i32
}"""
    m = parse(src)
    t = ConversionTarget()
    t.add_legal_dialect("arith", "func", "builtin")
    t.add_illegal_op("arith.subi")
    apply_full_conversion(m, t, [SubToAddNeg()])
    m.verify()
    # The constant subtraction folds (no pattern needed); the other one is lowered.
    assert text(m) == """module {
  func.func @f(%arg0: i32, %arg1: i32) -> i32 {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %c-1_i32 = arith.constant -1 : i32
    %0 = arith.muli %arg1, %c-1_i32 : i32
    %1 = arith.addi %arg0, %0 : i32
    %2 = arith.addi %1, %c1_i32 : i32
    return %2 : i32
  }
}
"""
    m = parse(src)
    apply_full_conversion(m, t, [SubToAddNeg()], config=ConversionConfig(fold=False))
    assert "%c1_i32" not in text(m)


# ---------------------------------------------------------------- rewriter operations


class InlineScope(ConversionPattern):
    """toy.scope -> its body inlined before it, the yielded values replacing it."""
    root = "toy.scope"

    def match_and_rewrite(self, op, operands, rewriter):
        block = op.regions[0].blocks[0]
        y = block.last
        values = y.operands
        rewriter.erase_op(y)
        rewriter.inline_block_before(block, op)
        rewriter.replace_op(op, values)
        return True


SCOPE = """func.func @f(%a: i32) -> i32 {
  %0 = "toy.scope"() ({
    %1 = "toy.add"(%a, %a) : (i32, i32) -> i32
    %2 = "toy.twice"(%1) : (i32) -> i32
    "toy.yield"(%2) : (i32) -> ()
  }) : () -> i32
  %3 = "toy.mul"(%0, %0) : (i32, i32) -> i32
  return %3 : i32
}"""


def test_inlining_a_region_during_conversion():
    m = parse(SCOPE)
    apply_full_conversion(m, toy_target(), [InlineScope(), LowerAdd(), LowerMul(),
                                            LowerTwice()])
    m.verify()
    assert text(m) == """module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.addi %0, %0 : i32
    %2 = arith.muli %1, %1 : i32
    return %2 : i32
  }
}
"""


def test_block_moves_splits_and_modifications_roll_back():
    class Shuffle(ConversionPattern):
        """Moves ops, splits and creates blocks, modifies an op, then fails."""
        root = "toy.mul"

        def match_and_rewrite(self, op, operands, rewriter):
            f = op.parent_op
            entry = op.parent
            ret = entry.last
            rewriter.move_op_before(op, entry.first)
            with rewriter.modifying(ret):
                ret.set_operands([operands[1]])
            rewriter.split_block(entry, ret)
            rewriter.create_block(f.regions[0], [i32])
            scope = op.parent.first
            rewriter.inline_region_before(scope.regions[0], f.regions[0], 1)
            rewriter.set_operand(op, 0, operands[1])
            return False

    m = parse(SCOPE)
    before = both(m)
    with pytest.raises(DiagnosticError):
        apply_full_conversion(m, toy_target(), [Shuffle(), LowerAdd(), LowerTwice()])
    assert both(m) == before
    m.verify()


def test_reconcile_unrealized_casts():
    m = parse("""func.func @f(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
  %2 = builtin.unrealized_conversion_cast %a : i32 to f32
  %3 = builtin.unrealized_conversion_cast %a : i32 to i16
  "toy.bad"(%3) : (i16) -> i32
  return %1 : i32
}""".replace('"toy.bad"(%3) : (i16) -> i32', '%4 = "toy.bad"(%3) : (i16) -> i32'))
    casts = [op for op in m.walk() if op.name == "builtin.unrealized_conversion_cast"]
    remaining = reconcile_unrealized_casts(casts)
    assert remaining == [casts[3]]
    assert text(m) == """module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = builtin.unrealized_conversion_cast %arg0 : i32 to i16
    %1 = "toy.bad"(%0) : (i16) -> i32
    return %arg0 : i32
  }
}
"""
