"""Folders of the arith and math ops, called directly on ops built from parsed IR.

`fold(ir)` parses a function, takes the op that defines the returned value, gives its
fold() the constant operands (attributes of arith.constant producers, None for others)
and returns what it folds to. The expected results were checked against
`iree-opt --canonicalize` (upstream's folders).
"""
import math

import pytest

from strata.dialects import arith, default_context
from strata.dialects import math as mathd
from strata.ir import attributes as A
from strata.ir.builder import Builder
from strata.ir.core import Value
from strata.rewrite.folding import fold_op
from strata.syntax.parser import parse_source


def _parse(body, args="", results="i32"):
    text = f"func.func @f({args}) -> {results} {{\n{body}\n}}"
    return parse_source(text, default_context(), "test.mlir")


def _returned_op(module):
    func = next(iter(module.regions[0].blocks[0].ops))
    ret = func.regions[0].blocks[0].last
    return func, ret.operand(0).defining_op


def _consts(op):
    out = []
    for v in op.operands:
        d = v.defining_op
        out.append(d.properties["value"] if isinstance(d, arith.ConstantOp) else None)
    return out


def fold(body, args="", results="i32"):
    """The fold result of the op defining the returned value: an Attribute rendered as
    text, "ARG<n>" for a block argument, "SELF" for an in-place fold, the defining op's
    name for another value, a list for several results, or None."""
    func, op = _returned_op(_parse(body, args, results))
    res = op.fold(_consts(op))
    return _show(res, op, func)


def _show(res, op, func):
    if res is None:
        return None
    if isinstance(res, list):
        return [_show(r, op, func) for r in res]
    if isinstance(res, Value):
        if res in op.results:
            return "SELF"
        owner = res.owner
        if owner in func.regions[0].blocks[0].args or res in func.regions[0].blocks[0].args:
            return f"ARG{res.index}"
        return owner.name if hasattr(owner, "name") else repr(res)
    return str(res)


def binop(op, t, a, b, flags=""):
    """Fold `arith.<op>` of two constants of type t."""
    return fold(f"  %a = arith.constant {a} : {t}\n  %b = arith.constant {b} : {t}\n"
                f"  %r = arith.{op} %a, %b{flags} : {t}\n  return %r : {t}", results=t)


def unop(op, src, val, dst, dialect="arith"):
    """Fold a cast or unary op of one constant."""
    tail = f" : {src} to {dst}" if src != dst else f" : {dst}"
    return fold(f"  %a = arith.constant {val} : {src}\n  %r = {dialect}.{op} %a{tail}\n"
                f"  return %r : {dst}", results=dst)


# ------------------------------------------------------------------ integers


def test_addi_wraps_to_the_width():
    assert binop("addi", "i8", 127, 1) == "-128 : i8"
    assert binop("addi", "i32", 2147483647, 1) == "-2147483648 : i32"
    assert binop("addi", "index", 9223372036854775807, 1) == "-9223372036854775808 : index"
    assert binop("addi", "i1", 1, 1) == "false"


def test_addi_identities():
    assert fold("  %z = arith.constant 0 : i32\n  %r = arith.addi %x, %z : i32\n"
                "  return %r : i32", "%x: i32") == "ARG0"
    assert fold("  %t = arith.subi %x, %y : i32\n  %r = arith.addi %t, %y : i32\n"
                "  return %r : i32", "%x: i32, %y: i32") == "ARG0"
    assert fold("  %t = arith.subi %x, %y : i32\n  %r = arith.addi %y, %t : i32\n"
                "  return %r : i32", "%x: i32, %y: i32") == "ARG0"
    # x + y with nothing known does not fold
    assert fold("  %r = arith.addi %x, %y : i32\n  return %r : i32",
                "%x: i32, %y: i32") is None


def test_subi():
    assert binop("subi", "i8", -128, 1) == "127 : i8"
    assert fold("  %r = arith.subi %x, %x : i32\n  return %r : i32", "%x: i32") == "0 : i32"
    assert fold("  %r = arith.subi %x, %x : vector<2xi32>\n  return %r : vector<2xi32>",
                "%x: vector<2xi32>", "vector<2xi32>") == "dense<0> : vector<2xi32>"
    # no constant of a dynamic shape
    assert fold("  %r = arith.subi %x, %x : tensor<?xi32>\n  return %r : tensor<?xi32>",
                "%x: tensor<?xi32>", "tensor<?xi32>") is None
    assert fold("  %t = arith.addi %x, %y : i32\n  %r = arith.subi %t, %x : i32\n"
                "  return %r : i32", "%x: i32, %y: i32") == "ARG1"


def test_muli():
    assert binop("muli", "i8", 16, 16) == "0 : i8"
    assert binop("muli", "i16", -3, 7) == "-21 : i16"
    assert fold("  %z = arith.constant 0 : i32\n  %r = arith.muli %x, %z : i32\n"
                "  return %r : i32", "%x: i32") == "arith.constant"
    assert fold("  %o = arith.constant 1 : i32\n  %r = arith.muli %x, %o : i32\n"
                "  return %r : i32", "%x: i32") == "ARG0"


def test_division_by_zero_and_overflow_do_not_fold():
    assert binop("divui", "i32", 7, 0) is None
    assert binop("divsi", "i32", 7, 0) is None
    assert binop("divsi", "i8", -128, -1) is None
    assert binop("floordivsi", "i8", -128, -1) is None
    assert binop("ceildivsi", "i8", -128, -1) is None
    assert binop("remui", "i32", 7, 0) is None
    assert binop("remsi", "i32", 7, 0) is None


def test_division_values():
    assert binop("divui", "i8", -1, 2) == "127 : i8"  # 255 / 2
    assert binop("divsi", "i8", -7, 2) == "-3 : i8"
    assert binop("ceildivui", "i8", 7, 2) == "4 : i8"
    assert binop("ceildivsi", "i8", -7, 2) == "-3 : i8"
    assert binop("ceildivsi", "i8", 7, -2) == "-3 : i8"
    assert binop("ceildivsi", "i8", -128, 7) == "-18 : i8"
    assert binop("floordivsi", "i8", -7, 2) == "-4 : i8"
    assert binop("floordivsi", "i8", 7, -2) == "-4 : i8"
    assert binop("remui", "i8", -1, 10) == "5 : i8"  # 255 % 10
    assert binop("remsi", "i8", -7, 2) == "-1 : i8"
    assert binop("remsi", "i8", 7, -2) == "1 : i8"


def test_division_identities():
    args = "%x: i32"
    assert fold("  %z = arith.constant 0 : i32\n  %r = arith.divsi %z, %x : i32\n"
                "  return %r : i32", args) == "arith.constant"
    # 1 / 1 is the operand (x / 1), not a new 1 (x / x)
    assert fold("  %o = arith.constant 1 : i32\n  %r = arith.ceildivsi %o, %o : i32\n"
                "  return %r : i32") == "arith.constant"
    # 0 % x is a new zero (upstream's order of constants after canonicalize depends on it)
    assert fold("  %z = arith.constant 0 : i32\n  %r = arith.remui %z, %x : i32\n"
                "  return %r : i32", args) == "0 : i32"
    assert fold("  %z = arith.constant dense<0> : vector<2xi8>\n"
                "  %r = arith.remsi %z, %v : vector<2xi8>\n  return %r : vector<2xi8>",
                "%v: vector<2xi8>", "vector<2xi8>") == "dense<0> : vector<2xi8>"
    assert fold("  %r = arith.divui %x, %x : i32\n  return %r : i32", args) == "1 : i32"
    assert fold("  %r = arith.remsi %x, %x : i32\n  return %r : i32", args) == "0 : i32"
    assert fold("  %o = arith.constant 1 : i32\n  %r = arith.remui %x, %o : i32\n"
                "  return %r : i32", args) == "0 : i32"
    assert fold("  %o = arith.constant 1 : i32\n  %r = arith.floordivsi %x, %o : i32\n"
                "  return %r : i32", args) == "ARG0"
    # (a * b) / b -> a only when the product cannot wrap the way the division reads it
    assert fold("  %m = arith.muli %x, %y overflow<nuw> : i32\n"
                "  %r = arith.divui %m, %y : i32\n  return %r : i32",
                "%x: i32, %y: i32") == "ARG0"
    assert fold("  %m = arith.muli %x, %y overflow<nuw> : i32\n"
                "  %r = arith.divsi %m, %y : i32\n  return %r : i32",
                "%x: i32, %y: i32") is None


def test_bitwise():
    assert binop("andi", "i8", 12, 10) == "8 : i8"
    assert binop("ori", "i8", 12, 10) == "14 : i8"
    assert binop("xori", "i8", -1, 10) == "-11 : i8"
    args = "%x: i32, %y: i32"
    assert fold("  %m = arith.constant -1 : i32\n  %r = arith.andi %x, %m : i32\n"
                "  return %r : i32", args) == "ARG0"
    assert fold("  %m = arith.constant -1 : i32\n  %n = arith.xori %x, %m : i32\n"
                "  %r = arith.andi %x, %n : i32\n  return %r : i32", args) == "0 : i32"
    assert fold("  %m = arith.constant -1 : i32\n  %n = arith.xori %x, %m : i32\n"
                "  %r = arith.ori %n, %x : i32\n  return %r : i32", args) == "arith.constant"
    assert fold("  %t = arith.andi %x, %y : i32\n  %r = arith.andi %y, %t : i32\n"
                "  return %r : i32", args) == "arith.andi"
    assert fold("  %t = arith.ori %x, %y : i32\n  %r = arith.ori %t, %y : i32\n"
                "  return %r : i32", args) == "arith.ori"
    assert fold("  %r = arith.xori %x, %x : i32\n  return %r : i32", args) == "0 : i32"
    assert fold("  %t = arith.xori %x, %y : i32\n  %r = arith.xori %t, %y : i32\n"
                "  return %r : i32", args) == "ARG0"


def test_shifts():
    assert binop("shli", "i8", 3, 5) == "96 : i8"
    assert binop("shli", "i8", 3, 7) == "-128 : i8"
    assert binop("shli", "i8", 3, 8) is None  # shifting by the width is poison
    assert binop("shrui", "i8", -128, 7) == "1 : i8"
    assert binop("shrsi", "i8", -128, 7) == "-1 : i8"
    assert binop("shrsi", "i8", 64, 2) == "16 : i8"
    args = "%x: i32"
    assert fold("  %z = arith.constant 0 : i32\n  %r = arith.shli %z, %x : i32\n"
                "  return %r : i32", args) == "arith.constant"
    assert fold("  %r = arith.shrui %x, %x : i32\n  return %r : i32", args) == "0 : i32"
    assert fold("  %r = arith.shli %x, %x : i32\n  return %r : i32", args) is None
    assert fold("  %m = arith.constant -1 : i32\n  %r = arith.shrsi %m, %x : i32\n"
                "  return %r : i32", args) == "arith.constant"
    # Dense amounts: as upstream, only the last element's amount must be below the
    # width; an earlier oversized one shifts everything out (shrsi: the sign remains).
    vec = "vector<3xi8>"
    assert binop("shrsi", vec, "dense<[-7, 5, 64]>", "dense<[9, 1, 2]>") == \
        "dense<[-1, 2, 16]> : vector<3xi8>"
    assert binop("shli", vec, "dense<[-7, 5, 64]>", "dense<[9, 1, 2]>") == \
        "dense<[0, 10, 0]> : vector<3xi8>"
    assert binop("shrui", vec, "dense<[-7, 5, 64]>", "dense<[9, 1, 2]>") == \
        "dense<[0, 2, 16]> : vector<3xi8>"
    assert binop("shli", vec, "dense<[-7, 5, 64]>", "dense<[1, 2, 8]>") is None


def test_min_max():
    assert binop("maxsi", "i8", -1, 1) == "1 : i8"
    assert binop("maxui", "i8", -1, 1) == "-1 : i8"
    assert binop("minsi", "i8", -1, 1) == "-1 : i8"
    assert binop("minui", "i8", -1, 1) == "1 : i8"
    args = "%x: i8"
    assert fold("  %r = arith.maxsi %x, %x : i8\n  return %r : i8", args, "i8") == "ARG0"
    assert fold("  %m = arith.constant 127 : i8\n  %r = arith.maxsi %x, %m : i8\n"
                "  return %r : i8", args, "i8") == "arith.constant"
    assert fold("  %m = arith.constant -128 : i8\n  %r = arith.maxsi %x, %m : i8\n"
                "  return %r : i8", args, "i8") == "ARG0"
    assert fold("  %m = arith.constant 0 : i8\n  %r = arith.minui %x, %m : i8\n"
                "  return %r : i8", args, "i8") == "arith.constant"


def test_extended_arithmetic():
    body = ("  %a = arith.constant {a} : i8\n  %b = arith.constant {b} : i8\n"
            "  %s:2 = arith.{op} %a, %b : i8{t}\n  return %s#0 : i8")
    assert fold(body.format(a=200, b=100, op="addui_extended", t=", i1"), results="i8") == \
        ["44 : i8", "true"]
    assert fold(body.format(a=100, b=-56, op="subui_extended", t=", i1"), results="i8") == \
        ["-100 : i8", "true"]
    assert fold(body.format(a=-2, b=3, op="mulsi_extended", t=""), results="i8") == \
        ["-6 : i8", "-1 : i8"]
    assert fold(body.format(a=-2, b=3, op="mului_extended", t=""), results="i8") == \
        ["-6 : i8", "2 : i8"]  # 254 * 3 = 762 = 2 * 256 + 250
    assert fold("  %z = arith.constant 0 : i32\n  %s:2 = arith.addui_extended %x, %z : i32, i1"
                "\n  return %s#0 : i32", "%x: i32") == ["ARG0", "false"]
    assert fold("  %s:2 = arith.subui_extended %x, %x : i32, i1\n  return %s#0 : i32",
                "%x: i32") == ["0 : i32", "false"]
    assert fold("  %o = arith.constant 1 : i32\n  %s:2 = arith.mului_extended %x, %o : i32\n"
                "  return %s#0 : i32", "%x: i32") == ["ARG0", "0 : i32"]


# ------------------------------------------------------------------ floats


def test_addf_signed_zero_rules():
    args = "%x: f32"
    assert fold("  %z = arith.constant -0.0 : f32\n  %r = arith.addf %x, %z : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"
    # x + 0.0 is not x when x is -0.0
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.addf %x, %z : f32\n"
                "  return %r : f32", args, "f32") is None
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.addf %x, %z fastmath<nsz> : f32"
                "\n  return %r : f32", args, "f32") == "ARG0"
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.subf %x, %z : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"
    assert fold("  %z = arith.constant -0.0 : f32\n  %r = arith.subf %x, %z : f32\n"
                "  return %r : f32", args, "f32") is None


def test_mulf_divf_identities():
    args = "%x: f32"
    assert fold("  %o = arith.constant 1.0 : f32\n  %r = arith.mulf %x, %o : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"
    assert fold("  %o = arith.constant 1.0 : f32\n  %r = arith.divf %x, %o : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"
    # x * 0 needs both no-NaN and no-signed-zero
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.mulf %x, %z : f32\n"
                "  return %r : f32", args, "f32") is None
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.mulf %x, %z fastmath<nnan> : f32"
                "\n  return %r : f32", args, "f32") is None
    assert fold("  %z = arith.constant 0.0 : f32\n  %r = arith.mulf %x, %z fastmath<fast> : f32"
                "\n  return %r : f32", args, "f32") == "arith.constant"


def test_float_arithmetic_rounds_to_the_type():
    assert binop("addf", "f32", 16777216.0, 1.0) == "0x4B800000 : f32"  # 2**24 + 1
    assert binop("addf", "f32", 16777218.0, 1.0) == "0x4B800002 : f32"  # tie to even
    assert binop("addf", "f64", 0.1, 0.2) == "0.30000000000000004 : f64"
    assert binop("mulf", "f16", 300.0, 300.0) == "0x7C00 : f16"  # overflow to +inf
    assert binop("addf", "bf16", 1.0, 0.00390625) == "1.000000e+00 : bf16"  # tie to even
    assert binop("divf", "f32", 1.0, 3.0) == "0.333333343 : f32"
    assert binop("divf", "f32", 1.0, -0.0) == "0xFF800000 : f32"
    assert binop("remf", "f32", -7.0, 2.0) == "-1.000000e+00 : f32"
    # rounding modes other than the default are not folded
    assert binop("addf", "f32", 0.1, 0.2, " upward") is None
    assert binop("addf", "f32", 16777218.0, 1.0, " to_nearest_even") == "0x4B800002 : f32"


def test_f80_f128_arithmetic_is_exactly_rounded():
    # [Note: exact float arithmetic]: one rounding of the exact result, ties to even.
    assert binop("addf", "f80", 1.0, "0x3FC08000000000000000") == \
        "1.00000000000000000011 : f80"  # 1 + 2^-63: one ulp
    assert binop("addf", "f80", 1.0, "0x3FBF8000000000000000") == \
        "1.000000e+00 : f80"  # 1 + 2^-64: a tie, to even
    assert binop("divf", "f128", 1.0, 3.0) == "0.333333333333333333333333333333333317 : f128"
    assert binop("subf", "f128", "0x7FFF0000000000000000000000000000",
                 "0x7FFF0000000000000000000000000000") == \
        "0x7FFF8000000000000000000000000000 : f128"  # inf - inf
    assert binop("remf", "f80", 7.5, -2.0) == "1.500000e+00 : f80"
    assert binop("maximumf", "f80", "0x3FC08000000000000000", "0x3FBF8000000000000000") == \
        "1.08420217248550443401E-19 : f80"
    assert binop("mulf", "f128", -0.0, 2.0) == "-0.000000e+00 : f128"
    assert binop("addf", "f80", 2.0, -2.0) == "0.000000e+00 : f80"


def test_float_nans():
    nan, inf, minf = "0x7FC00000", "0x7F800000", "0xFF800000"
    assert binop("subf", "f32", inf, inf) == "0x7FC00000 : f32"  # a positive quiet NaN
    assert binop("divf", "f32", 0.0, 0.0) == "0x7FC00000 : f32"
    assert binop("addf", "f32", "0xFFC00001", 1.0) == "0xFFC00001 : f32"  # kept
    assert binop("addf", "f32", 1.0, "0x7F800001") == "0x7FC00001 : f32"  # made quiet
    assert binop("maximumf", "f32", nan, 1.0) == "0x7FC00000 : f32"
    assert binop("maxnumf", "f32", nan, 1.0) == "1.000000e+00 : f32"
    assert binop("minnumf", "f32", 1.0, nan) == "arith.constant"  # minnumf(x, NaN) = x
    # llvm::maxnum / minnum: a signaling NaN operand gives that NaN made quiet
    assert binop("maxnumf", "f32", "0x7F800001", 1.0) == "0x7FC00001 : f32"
    assert binop("minnumf", "f16", "0xFC01", -2.0) == "0xFE01 : f16"
    assert binop("maxnumf", "f64", "0x7FF8000000000001", "0x7FF0000000000002") == \
        "arith.constant"  # a NaN on the right: the left operand, before any folding
    assert binop("minimumf", "f32", minf, 1.0) == "0xFF800000 : f32"
    assert binop("maximumf", "f32", -0.0, 0.0) == "0.000000e+00 : f32"
    assert binop("minimumf", "f32", 0.0, -0.0) == "-0.000000e+00 : f32"


def test_float_min_max_identities():
    args = "%x: f32"
    assert fold("  %r = arith.maximumf %x, %x : f32\n  return %r : f32", args, "f32") == "ARG0"
    assert fold("  %n = arith.constant 0xFF800000 : f32\n  %r = arith.maximumf %x, %n : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"
    assert fold("  %n = arith.constant 0x7FC00000 : f32\n  %r = arith.minnumf %x, %n : f32\n"
                "  return %r : f32", args, "f32") == "ARG0"


def test_negf_and_flush_denormals():
    assert unop("negf", "f32", 1.5, "f32") == "-1.500000e+00 : f32"
    assert unop("negf", "f16", "0x7E00", "f16") == "0xFE00 : f16"
    assert fold("  %n = arith.negf %x : f32\n  %r = arith.negf %n : f32\n  return %r : f32",
                "%x: f32", "f32") == "ARG0"
    assert unop("flush_denormals", "f32", "1.0e-40", "f32") == "0.000000e+00 : f32"
    assert unop("flush_denormals", "f32", "-1.0e-40", "f32") == "-0.000000e+00 : f32"
    assert unop("flush_denormals", "f32", "1.0e-30", "f32") == "1.000000e-30 : f32"
    assert fold("  %n = arith.flush_denormals %x : f32\n  %r = arith.flush_denormals %n : f32"
                "\n  return %r : f32", "%x: f32", "f32") == "arith.flush_denormals"


# ------------------------------------------------------------------ comparisons


def test_cmpi_constants():
    for pred, expect in [("eq", False), ("ne", True), ("slt", True), ("sle", True),
                         ("sgt", False), ("sge", False), ("ult", False), ("ule", False),
                         ("ugt", True), ("uge", True)]:
        r = fold("  %a = arith.constant -1 : i8\n  %b = arith.constant 1 : i8\n"
                 f"  %r = arith.cmpi {pred}, %a, %b : i8\n  return %r : i1", results="i1")
        assert r == ("true" if expect else "false"), pred


def test_cmpi_identities():
    assert fold("  %r = arith.cmpi sle, %x, %x : i32\n  return %r : i1", "%x: i32",
                "i1") == "true"
    assert fold("  %r = arith.cmpi ult, %x, %x : vector<2xi32>\n  return %r : vector<2xi1>",
                "%x: vector<2xi32>", "vector<2xi1>") == "dense<false> : vector<2xi1>"
    assert fold("  %e = arith.extui %c : i1 to i32\n  %z = arith.constant 0 : i32\n"
                "  %r = arith.cmpi ne, %e, %z : i32\n  return %r : i1", "%c: i1", "i1") == "ARG0"
    assert fold("  %t = arith.constant true\n  %r = arith.cmpi eq, %c, %t : i1\n"
                "  return %r : i1", "%c: i1", "i1") == "ARG0"


def test_cmpi_moves_the_constant_right():
    func, op = _returned_op(_parse("  %c = arith.constant 5 : i32\n"
                                   "  %r = arith.cmpi slt, %c, %x : i32\n  return %r : i1",
                                   "%x: i32", "i1"))
    assert op.fold(_consts(op)) is op.result  # updated in place: x > 5
    assert op.predicate_name == "sgt"
    assert op.lhs is func.regions[0].blocks[0].args[0]
    assert op.rhs.defining_op.name == "arith.constant"


def test_cmpf():
    def cmp(pred, a, b):
        return fold(f"  %a = arith.constant {a} : f32\n  %b = arith.constant {b} : f32\n"
                    f"  %r = arith.cmpf {pred}, %a, %b : f32\n  return %r : i1", results="i1")
    nan = "0x7FC00000"
    assert cmp("olt", 1.0, 2.0) == "true"
    assert cmp("olt", 1.0, nan) == "false"
    assert cmp("ult", 1.0, nan) == "true"
    assert cmp("one", 1.0, 1.0) == "false"
    assert cmp("une", 1.0, 1.0) == "false"
    assert cmp("ord", nan, 1.0) == "false"
    assert cmp("uno", nan, 1.0) == "true"
    assert cmp("oeq", 0.0, -0.0) == "true"
    # a NaN decides alone, even against a non-constant
    assert fold(f"  %n = arith.constant {nan} : f32\n  %r = arith.cmpf olt, %x, %n : f32\n"
                "  return %r : i1", "%x: f32", "i1") == "false"

    def cmp_t(pred, a, b, t):
        return fold(f"  %a = arith.constant {a} : {t}\n  %b = arith.constant {b} : {t}\n"
                    f"  %r = arith.cmpf {pred}, %a, %b : {t}\n  return %r : i1", results="i1")
    # f80 / f128 compare exact values: one ulp past 1.0, a denormal, beyond f64's range
    assert cmp_t("oeq", "0x3FFF8000000000000000", "0x3FFF8000000000000001", "f80") == "false"
    assert cmp_t("ogt", "0x00000000000000000001", "0.0", "f80") == "true"
    assert cmp_t("olt", "1.0e4000", "0x7FFF0000000000000000000000000000", "f128") == "true"
    assert cmp_t("oeq", "1.0e4000", "1.0e4001", "f128") == "false"


# ------------------------------------------------------------------ casts


def test_integer_casts():
    assert unop("extui", "i8", -1, "i32") == "255 : i32"
    assert unop("extsi", "i8", -1, "i32") == "-1 : i32"
    assert unop("extui", "i1", 1, "i8") == "1 : i8"
    assert unop("extsi", "i1", 1, "i8") == "-1 : i8"
    assert unop("trunci", "i32", 300, "i8") == "44 : i8"
    assert unop("index_cast", "i8", -1, "index") == "-1 : index"
    assert unop("index_castui", "i8", -1, "index") == "255 : index"
    assert unop("index_cast", "index", 65537, "i16") == "1 : i16"


def test_integer_cast_chains():
    args = "%s: i8"
    assert fold("  %e = arith.extui %s : i8 to i16\n  %r = arith.extui %e : i16 to i32\n"
                "  return %r : i32", args) == "SELF"  # now extui %s : i8 to i32
    assert fold("  %e = arith.extsi %s : i8 to i32\n  %r = arith.trunci %e : i32 to i8\n"
                "  return %r : i8", args, "i8") == "ARG0"
    assert fold("  %e = arith.index_cast %x : i32 to index\n"
                "  %r = arith.index_cast %e : index to i32\n  return %r : i32",
                "%x: i32") == "ARG0"
    # a narrowing round trip loses bits
    assert fold("  %e = arith.index_cast %i : index to i32\n"
                "  %r = arith.index_cast %e : i32 to index\n  return %r : index",
                "%i: index", "index") is None


def test_float_casts_fold_only_exact_values():
    assert unop("extf", "f16", 0.1, "f32") == "0.0999755859 : f32"
    assert unop("truncf", "f32", 0.5, "f16") == "5.000000e-01 : f16"
    assert unop("truncf", "f32", 0.1, "f16") is None  # inexact
    assert unop("truncf", "f32", 1.0e6, "f16") is None  # overflows
    assert unop("truncf", "f32", "0x7F800000", "f16") == "0x7C00 : f16"
    assert unop("convertf", "f16", 1.5, "bf16") == "1.500000e+00 : bf16"
    assert unop("truncf", "f32", 448.0, "f8E4M3FN") == "4.480000e+02 : f8E4M3FN"
    assert unop("truncf", "f32", "0x7F800000", "f8E4M3FN") is None  # no infinity there
    assert fold("  %t = arith.truncf %x fastmath<contract> : f32 to f16\n"
                "  %r = arith.extf %t fastmath<contract> : f16 to f32\n  return %r : f32",
                "%x: f32", "f32") == "ARG0"
    assert fold("  %t = arith.truncf %x : f32 to f16\n  %r = arith.extf %t : f16 to f32\n"
                "  return %r : f32", "%x: f32", "f32") is None


def test_float_casts_of_every_kind_are_exact():
    # [Note: exact float conversions]: f80 and f128 convert through their exact values.
    assert unop("extf", "f80", 1.0, "f128") == "1.000000e+00 : f128"
    assert unop("truncf", "f128", 3.5, "f80") == "3.500000e+00 : f80"
    assert unop("truncf", "f80", "1.0e300", "f64") is None  # f80's 1e300 is not a double
    assert unop("extf", "f64", "4.9406564584124654e-324", "f128") == \
        "4.94065645841246544176568792868221372E-324 : f128"
    assert unop("extf", "f16", -0.0, "f80") == "-0.000000e+00 : f80"
    assert unop("truncf", "f128", "0x7FFF0000000000000000000000000000", "f16") == \
        "0x7C00 : f16"  # +inf
    assert unop("truncf", "f32", -0.0, "f8E5M2FNUZ") is None  # no negative zero there


def test_float_identities_need_the_exact_value():
    # x * c and x / c are x only for c exactly 1: f80's 1 + 2^-63 and f128's 1 + 2^-112
    # are 1.0 as doubles, and x + denormal is not x + 0.
    assert fold("  %c = arith.constant 0x3FFF8000000000000001 : f80\n"
                "  %r = arith.mulf %x, %c : f80\n  return %r : f80", "%x: f80", "f80") is None
    assert fold("  %c = arith.constant 0x3FFF0000000000000000000000000001 : f128\n"
                "  %r = arith.divf %x, %c : f128\n  return %r : f128", "%x: f128",
                "f128") is None
    assert fold("  %c = arith.constant 0x80000000000000000001 : f80\n"
                "  %r = arith.addf %x, %c : f80\n  return %r : f80", "%x: f80", "f80") is None
    assert fold("  %c = arith.constant 1.0 : f80\n  %r = arith.mulf %x, %c : f80\n"
                "  return %r : f80", "%x: f80", "f80") == "ARG0"
    assert fold("  %c = arith.constant -0.0 : f128\n  %r = arith.addf %x, %c : f128\n"
                "  return %r : f128", "%x: f128", "f128") == "ARG0"


def test_float_casts_move_nan_payloads():
    # APFloat::convert shifts the payload with the significand; a truncation that drops
    # a set bit, a signaling NaN or an x87 pseudo-NaN is not folded.
    assert unop("extf", "f32", "0x7FC00001", "f64") == "0x7FF8000020000000 : f64"
    assert unop("extf", "bf16", "0x7FC1", "f32") == "0x7FC10000 : f32"
    assert unop("extf", "f80", "0x7FFFC000000000000000", "f128") == \
        "0x7FFF8000000000000000000000000000 : f128"
    assert unop("truncf", "f80", "0xFFFFC000000000000000", "f64") == \
        "0xFFF8000000000000 : f64"
    assert unop("truncf", "f128", "0x7FFF8000000000000000000000000001", "f32") is None
    assert unop("extf", "f32", "0x7F800001", "f64") is None  # signaling
    assert unop("truncf", "f80", "0x7FFF4000000000000000", "f64") is None  # pseudo-NaN
    assert unop("extf", "f8E5M2FNUZ", "0x80", "f16") == "0x7E00 : f16"
    assert unop("extf", "f8E4M3FN", "0xFF", "f16") == "0xFF80 : f16"
    assert unop("truncf", "f16", "0x7E00", "f8E4M3FN") is None  # NaN-only kind
    assert unop("truncf", "f16", "0x7E00", "f6E2M3FN") is None  # no NaN at all


def test_int_float_conversions():
    assert unop("sitofp", "i32", -3, "f32") == "-3.000000e+00 : f32"
    assert unop("uitofp", "i8", -1, "f32") == "2.550000e+02 : f32"
    assert unop("sitofp", "i64", 9007199254740993, "f32") == "9.00719925E+15 : f32"
    assert unop("uitofp", "i32", -1, "f16") == "0x7C00 : f16"  # overflow to +inf
    assert unop("fptosi", "f32", -2.75, "i8") == "-2 : i8"
    assert unop("fptoui", "f32", -0.5, "i8") == "0 : i8"
    assert unop("fptoui", "f32", -1.0, "i8") is None
    assert unop("fptosi", "f32", 128.0, "i8") is None
    assert unop("fptosi", "f32", "0x7FC00000", "i32") is None
    assert unop("fptosi", "f80", -7.75, "i32") == "-7 : i32"
    assert unop("fptoui", "f128", 65535.5, "i16") == "-1 : i16"
    assert unop("fptosi", "f128", "1.0e30", "i64") is None


def test_bitcast():
    assert unop("bitcast", "f32", 1.0, "i32") == "1065353216 : i32"
    assert unop("bitcast", "i16", 15360, "f16") == "1.000000e+00 : f16"
    r = fold("  %a = arith.constant dense<[1065353216, 0]> : vector<2xi32>\n"
             "  %r = arith.bitcast %a : vector<2xi32> to vector<2xf32>\n"
             "  return %r : vector<2xf32>", results="vector<2xf32>")
    assert r == "dense<[1.000000e+00, 0.000000e+00]> : vector<2xf32>"


# ------------------------------------------------------------------ select, constant


def test_select():
    args = "%c: i1, %x: i32, %y: i32"
    assert fold("  %r = arith.select %c, %x, %x : i32\n  return %r : i32", args) == "ARG1"
    assert fold("  %t = arith.constant true\n  %r = arith.select %t, %x, %y : i32\n"
                "  return %r : i32", args) == "ARG1"
    assert fold("  %t = arith.constant false\n  %r = arith.select %t, %x, %y : i32\n"
                "  return %r : i32", args) == "ARG2"
    assert fold("  %t = arith.constant true\n  %f = arith.constant false\n"
                "  %r = arith.select %c, %t, %f : i1\n  return %r : i1", args, "i1") == "ARG0"
    assert fold("  %e = arith.cmpi eq, %x, %y : i32\n  %r = arith.select %e, %x, %y : i32\n"
                "  return %r : i32", args) == "ARG2"
    assert fold("  %e = arith.cmpi ne, %x, %y : i32\n  %r = arith.select %e, %x, %y : i32\n"
                "  return %r : i32", args) == "ARG1"
    r = fold("  %c3 = arith.constant dense<[true, false, true]> : vector<3xi1>\n"
             "  %a = arith.constant dense<[1, 2, 3]> : vector<3xi32>\n"
             "  %b = arith.constant dense<7> : vector<3xi32>\n"
             "  %r = arith.select %c3, %a, %b : vector<3xi1>, vector<3xi32>\n"
             "  return %r : vector<3xi32>", results="vector<3xi32>")
    assert r == "dense<[1, 7, 3]> : vector<3xi32>"


def test_constant_folds_to_its_value():
    assert fold("  %r = arith.constant 7 : i32\n  return %r : i32") == "7 : i32"


def test_dense_elementwise():
    r = fold("  %a = arith.constant dense<[1, -2, 127]> : vector<3xi8>\n"
             "  %b = arith.constant dense<1> : vector<3xi8>\n"
             "  %r = arith.addi %a, %b : vector<3xi8>\n  return %r : vector<3xi8>",
             results="vector<3xi8>")
    assert r == "dense<[2, -1, -128]> : vector<3xi8>"
    r = fold("  %a = arith.constant dense<2.5> : tensor<2x2xf32>\n"
             "  %r = arith.mulf %a, %a : tensor<2x2xf32>\n  return %r : tensor<2x2xf32>",
             results="tensor<2x2xf32>")
    assert r == "dense<6.250000e+00> : tensor<2x2xf32>"
    r = fold("  %a = arith.constant dense<[1, 5]> : vector<2xi32>\n"
             "  %b = arith.constant dense<[3, 2]> : vector<2xi32>\n"
             "  %r = arith.cmpi slt, %a, %b : vector<2xi32>\n  return %r : vector<2xi1>",
             results="vector<2xi1>")
    assert r == "dense<[true, false]> : vector<2xi1>"


def test_trait_folds_through_fold_op():
    # Commutative: the constant moves to the right (in place), then x + 0 folds.
    func, op = _returned_op(_parse("  %z = arith.constant 0 : i32\n"
                                   "  %r = arith.addi %z, %x : i32\n  return %r : i32",
                                   "%x: i32"))
    assert fold_op(op) == [op.result]
    assert op.rhs.defining_op.name == "arith.constant"
    assert fold_op(op) == [func.regions[0].blocks[0].args[0]]
    # Idempotent: andi(x, x) -> x
    func, op = _returned_op(_parse("  %r = arith.andi %x, %x : i32\n  return %r : i32",
                                   "%x: i32"))
    assert fold_op(op) == [func.regions[0].blocks[0].args[0]]


def test_materialize_constant():
    func, op = _returned_op(_parse("  %r = arith.addi %x, %x : i32\n  return %r : i32",
                                   "%x: i32"))
    b = Builder.before(op)
    c = arith.materialize_constant(b, A.IntegerAttr(3, A.i32), A.i32)
    assert c.name == "arith.constant" and c.results[0].type is A.i32
    assert arith.materialize_constant(b, A.IntegerAttr(3, A.i64), A.i32) is None


# ------------------------------------------------------------------ math


def test_math_libm_folds():
    assert unop("sin", "f32", 2.0, "f32", "math") == "0.909297406 : f32"
    assert unop("exp", "f32", 1000.0, "f32", "math") == "0x7F800000 : f32"
    assert unop("log", "f32", 0.0, "f32", "math") == "0xFF800000 : f32"
    assert unop("log", "f32", -1.0, "f32", "math") is None
    assert unop("sqrt", "f32", -0.0, "f32", "math") is None
    assert unop("rsqrt", "f64", 2.0, "f64", "math") == "0.70710678118654746 : f64"
    assert unop("exp", "f16", 1.0, "f16", "math") is None  # f32 and f64 only
    assert unop("erf", "f32", 2.0, "f32", "math") == "0.995322287 : f32"


def test_math_rounding():
    assert unop("round", "f32", 2.5, "f32", "math") == "3.000000e+00 : f32"
    assert unop("roundeven", "f32", 2.5, "f32", "math") == "2.000000e+00 : f32"
    assert unop("ceil", "f16", 1.5, "f16", "math") == "2.000000e+00 : f16"
    assert unop("floor", "f32", -0.5, "f32", "math") == "-1.000000e+00 : f32"
    assert unop("ceil", "f32", -0.5, "f32", "math") == "-0.000000e+00 : f32"
    assert unop("trunc", "f16", 1.5, "f16", "math") is None  # libm: f32 and f64 only


def test_math_rounding_is_exact_in_every_kind():
    # roundToIntegral on the exact value: f80 and f128 fold too; a signaling NaN comes
    # out quiet, a zero result keeps the sign.
    assert unop("ceil", "f80", 2.5, "f80", "math") == "3.000000e+00 : f80"
    assert unop("floor", "f128", -0.5, "f128", "math") == "-1.000000e+00 : f128"
    assert unop("roundeven", "f80", "0x7FFEFFFFFFFFFFFFFFFF", "f80", "math") == \
        "1.18973149535723176502E+4932 : f80"
    assert unop("ceil", "f80", "0x00000000000000000001", "f80", "math") == \
        "1.000000e+00 : f80"  # a denormal, zero as a double
    assert unop("ceil", "f128", -0.5, "f128", "math") == "-0.000000e+00 : f128"
    assert unop("ceil", "f16", "0x7C01", "f16", "math") == "0x7E01 : f16"
    assert unop("round", "f64", "0x7FF0000000000001", "f64", "math") == \
        "0x7FF8000000000001 : f64"
    assert unop("ceil", "f80", "0x7FFF8000000000000001", "f80", "math") == \
        "0x7FFFC000000000000001 : f80"


def test_math_sign_ops_and_nan_rules_in_every_kind():
    assert unop("absf", "f128", -2.5, "f128", "math") == "2.500000e+00 : f128"
    assert unop("absf", "f80", "0xFFFFC000000000000000", "f80", "math") == \
        "0x7FFFC000000000000000 : f80"
    assert fold("  %a = arith.constant -2.0 : f80\n  %b = arith.constant 1.0 : f80\n"
                "  %r = math.copysign %b, %a : f80\n  return %r : f80",
                results="f80") == "-1.000000e+00 : f80"
    atan2 = ("  %a = arith.constant {a} : {t}\n  %b = arith.constant {b} : {t}\n"
             "  %r = math.atan2 %a, %b : {t}\n  return %r : {t}")
    assert fold(atan2.format(a="-0.0", b="0.0", t="f16"), results="f16") == "0x7E00 : f16"
    assert fold(atan2.format(a="0x00000000000000000001", b="0.0", t="f80"),
                results="f80") is None  # a denormal is not zero
    pow_ = ("  %a = arith.constant {a} : f32\n  %b = arith.constant {b} : f32\n"
            "  %r = math.powf %a, %b : f32\n  return %r : f32")
    assert fold(pow_.format(a=1.0, b="0x7F800001"), results="f32") == "0x7FC00001 : f32"
    assert fold(pow_.format(a="0x7F800002", b=0.0), results="f32") == "0x7FC00002 : f32"
    assert fold(pow_.format(a=1.0, b="0x7FC00001"), results="f32") == \
        "1.000000e+00 : f32"  # pow(1, quiet NaN) is 1


def test_math_integer_and_misc():
    assert unop("ctlz", "i32", 0, "i32", "math") == "32 : i32"
    assert unop("cttz", "i32", 8, "i32", "math") == "3 : i32"
    assert unop("ctpop", "i8", -1, "i8", "math") == "8 : i8"
    assert unop("absi", "i32", -2147483648, "i32", "math") == "-2147483648 : i32"
    ipow = ("  %a = arith.constant {a} : i32\n  %b = arith.constant {b} : i32\n"
            "  %r = math.ipowi %a, %b : i32\n  return %r : i32")
    assert fold(ipow.format(a=3, b=4)) == "81 : i32"
    assert fold(ipow.format(a=-1, b=-3)) == "-1 : i32"
    assert fold(ipow.format(a=5, b=-3)) == "0 : i32"
    assert fold(ipow.format(a=0, b=-3)) is None
    assert fold("  %a = arith.constant 0.1 : f64\n  %b = arith.constant -3 : i32\n"
                "  %r = math.fpowi %a, %b : f64, i32\n  return %r : f64",
                results="f64") == "999.99999999999977 : f64"
    assert fold("  %a = arith.constant -2.0 : f32\n  %b = arith.constant 1.0 : f32\n"
                "  %r = math.copysign %b, %a : f32\n  return %r : f32",
                results="f32") == "-1.000000e+00 : f32"
    assert fold("  %a = arith.constant 0.0 : f32\n  %r = math.atan2 %a, %a : f32\n"
                "  return %r : f32", results="f32") == "0x7FC00000 : f32"
    assert unop("absf", "f16", -1.5, "f16", "math") == "1.500000e+00 : f16"


def test_math_classification():
    def cls(op, val, t="f32"):
        return fold(f"  %a = arith.constant {val} : {t}\n  %r = math.{op} %a : {t}\n"
                    "  return %r : i1", results="i1")
    assert cls("isnan", "0x7FC00000") == "true"
    assert cls("isinf", "0xFC00", "f16") == "true"
    assert cls("isnormal", "1.0e-40") == "false"
    assert cls("isfinite", "1.0e-40") == "true"
    # f80 / f128 classify their exact values (a denormal is no double's zero)
    assert cls("isnormal", "0x00000000000000000001", "f80") == "false"
    assert cls("isinf", "1.0e4000", "f128") == "false"
    assert cls("isnormal", "1.0e-4000", "f128") == "true"
    assert cls("isnan", "0x7FFFC000000000000000", "f80") == "true"
    assert fold("  %a = arith.constant dense<0x7FC00000> : vector<2xf32>\n"
                "  %r = math.isnan %a : vector<2xf32>\n  return %r : vector<2xi1>",
                results="vector<2xi1>") == "dense<true> : vector<2xi1>"
    # non-splat constants are left alone, as upstream
    assert fold("  %a = arith.constant dense<[1.0, 0x7FC00000]> : vector<2xf32>\n"
                "  %r = math.isnan %a : vector<2xf32>\n  return %r : vector<2xi1>",
                results="vector<2xi1>") is None


def test_every_op_has_a_fold_method():
    for d in (arith.ARITH, mathd.MATH):
        for cls in d.ops.values():
            assert callable(getattr(cls, "fold", None)), cls.name
