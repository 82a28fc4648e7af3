"""Assembly formats are compiled when an op is first parsed or printed ([Note: formats
compiled when first used] in strata/syntax/asm_format.py), not when its class is made;
the parser's uniform-binary fast path and the printer see the compiled format, and a
bad format is still an error: every registered op's format compiles here."""
import pytest

from strata.dialects import all_dialects, default_context
from strata.ir import attributes as A
from strata.ir.ods import Op, Operand, Prop, Result
from strata.ir.traits import SameOperandsAndResultType
from strata.syntax.asm_format import (FormatError, format_pending, install_format,
                                      uniform_binary)
from strata.syntax.parser import Parser
from strata.syntax.printer import PrintOptions, print_op


def _binary_class(assembly):
    class _Add(Op):
        name = "lazytest.add"
        traits = (SameOperandsAndResultType,)
        lhs = Operand()
        rhs = Operand()
        result = Result()
    _Add.assembly = assembly
    return install_format(_Add)


def test_every_registered_format_compiles():
    """What compiling at import checked: each installed format is well formed."""
    count = 0
    for d in all_dialects():
        for cls in d.ops.values():
            if format_pending(cls):
                uniform_binary(cls)  # compiles it
                assert not format_pending(cls), cls.name
                count += 1
            if cls.__dict__.get("assembly") is not None and "print" in cls.__dict__:
                assert not format_pending(cls)
    # (other tests in this process may have compiled some already; in a fresh one
    # nearly all are pending)
    assert count >= 0


def test_format_compiled_on_first_print():
    cls = _binary_class("$lhs `,` $rhs attr-dict `:` type($result)")
    assert format_pending(cls)
    pending_print = cls.__dict__["print"]
    ctx = default_context()
    m = Parser("func.func @f(%a: i32, %b: i32) -> i32 {\n  return %a : i32\n}\n",
               ctx, "x.mlir").parse_top_level()
    f = next(iter(m.regions[0].blocks[0].ops))
    block = f.regions[0].blocks[0]
    a, b = block.args
    op = cls.create([a, b], [A.IntegerType(32)])
    block.insert_before(next(iter(block.ops)), op)
    text = print_op(m, PrintOptions())
    assert "%0 = lazytest.add %arg0, %arg1 : i32" in text, text
    assert not format_pending(cls)
    assert cls.__dict__["print"] is not pending_print
    assert cls.__dict__["_uniform_binary"] is True


def test_fast_path_compiles_a_pending_format():
    """The parser's `%r = name %a, %b : t` fast path asks uniform_binary(), which
    compiles a pending format rather than taking the class for a non-uniform one."""
    cls = _binary_class("$lhs `,` $rhs attr-dict `:` type($result)")
    assert format_pending(cls)
    assert uniform_binary(cls) is True
    assert not format_pending(cls)
    other = _binary_class("$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($result)")
    assert uniform_binary(other) is False


def test_bad_format_reported_on_first_use():
    class _Bad(Op):
        name = "lazytest.bad"
        value = Prop()
        assembly = "$nothing attr-dict"
    install_format(_Bad)  # no error yet: nothing compiled
    assert format_pending(_Bad)
    with pytest.raises(FormatError):
        uniform_binary(_Bad)


def test_parse_and_print_round_trip_in_fresh_classes():
    """A registered op whose format is still pending parses and prints its custom form
    (arith ops: the fast path and the general one give the same module)."""
    text = ("func.func @f(%a: i32, %b: i32) -> i32 {\n"
            "  %0 = arith.addi %a, %b overflow<nsw> : i32\n"
            "  %1 = arith.subi %0, %b : i32\n  return %1 : i32\n}\n")
    outs = []
    for fast in (True, False):
        p = Parser(text, default_context(), "x.mlir")
        p.fast_paths = fast
        m = p.parse_top_level()
        m.verify()
        outs.append(print_op(m, PrintOptions()))
    assert outs[0] == outs[1]
    assert "arith.addi %arg0, %arg1 overflow<nsw> : i32" in outs[0]
