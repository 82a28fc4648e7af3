"""The arith dialect's canonicalization patterns (what upstream registers with
`getCanonicalizationPatterns`), written as declarative `Pat`s.

    %0 = arith.addi %x, %c3 : i32          %c7 = arith.constant 7 : i32
    %1 = arith.addi %0, %c4 : i32    ->    %1 = arith.addi %x, %c7 : i32

The folds live in the op classes' `fold` methods (arith.py); these are the rewrites that
need new ops. `patterns_for(name)` gives an op's patterns in upstream's registration
order; ArithOp.canonicalization_patterns hands them to the canonicalizer.

[Note: matching upstream's patterns]
- Benefits: a Pat's default benefit is the number of ops it matches, as DRR's is, so
  the patterns that upstream writes in TableGen keep their default here; the ones it
  writes in C++ (SelectToExtUI, CmpFIntToFPConst, the NarrowExtremum family) have
  benefit 1.
- Constants: upstream's `APIntAttr` matchers take scalar integer constants only, so the
  constant-reassociation patterns (addi(addi(x, c0), c1), ...) leave vectors alone; the
  "-1"/"1"/"all ones" checks (`getIntOrSplatIntValue`) also take splats.
- Flags: the reassociations keep the overflow flags both ops had (`MergeOverflow`), or
  none where upstream gives none; casts rebuilt from an `extui` keep its `nneg`.
- The float patterns that rebuild mulf/divf/subf only fire without a rounding mode.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..ir import attributes as A
from ..ir import dense as D
from ..rewrite.declarative import Attr, Const, ConstFloat, ConstInt, Op, Pat, Var
from . import constant_fold as CF
from .arith import CMPF_PREDICATES, CMPI_PREDICATES, OVERFLOW

__all__ = ["patterns_for", "all_patterns"]


# ============================================================================ helpers


def _scalar_int(t):
    return isinstance(t, (A.IntegerType, A.IndexType))


def _width(t):
    return CF.width_of(t)


def _flag_set(a):
    """The flags of a bit-enum attribute (None: none), groups such as `fast` expanded."""
    if a is None:
        return set()
    out = set()
    for f in a.flags:
        out |= set(a.kind.groups.get(f, (f,)))
    return out


def _merge_overflow(*flags):
    """The overflow flags that every one of `flags` has (None: none)."""
    common = set.intersection(*[_flag_set(a) for a in flags])
    return OVERFLOW(",".join(common)) if common else None


def _both(a, b):
    """A unit flag (nneg) kept only when both ops had it."""
    return a if a is not None and b is not None else None


def _pred(name):
    return A.IntegerAttr(CMPI_PREDICATES.index(name), A.i64)


def _int_const(fn):
    """An arith.constant of X's type whose value is fn(C0, C1) (IntegerAttr wraps it
    to the width, as APInt arithmetic does)."""
    return Op("arith.constant", attrs={"value": lambda X, C0, C1: A.IntegerAttr(
        fn(C0.value, C1.value), X.type)}, type=Var("X"))


def _zero_of(t):
    """The zero attribute of an integer-like type (None for a dynamic shape)."""
    return CF.make_splat(A.IntegerAttr(0, CF.elem_type(t)), t)


def _no_rounding(RM):
    return RM is None


_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
            "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


# ============================================================================ integer ops


def _int_patterns():
    X, Y = Var("X"), Var("Y")
    C0 = ConstInt(type=_scalar_int, name="C0")
    C1 = ConstInt(type=_scalar_int, name="C1")
    F0, F1 = Attr("F0", required=False), Attr("F1", required=False)

    def ovf(capture):
        return {"overflowFlags": capture}

    merged = {"overflowFlags": lambda F0, F1: _merge_overflow(F0, F1)}
    add, sub, mul = "arith.addi", "arith.subi", "arith.muli"
    out = {}
    out[add] = [
        # addi(addi(x, c0), c1) -> addi(x, c0 + c1)
        Pat(name="AddIAddConstant",
            match=Op(add, Op(add, X, C0, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(add, X, _int_const(lambda a, b: a + b), attrs=merged)),
        # addi(subi(x, c0), c1) -> addi(x, c1 - c0)
        Pat(name="AddISubConstantRHS",
            match=Op(add, Op(sub, X, C0, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(add, X, _int_const(lambda a, b: b - a), attrs=merged)),
        # addi(subi(c0, x), c1) -> subi(c0 + c1, x)
        Pat(name="AddISubConstantLHS",
            match=Op(add, Op(sub, C0, X, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(sub, _int_const(lambda a, b: a + b), X, attrs=merged)),
        # addi(x, muli(y, -1)) -> subi(x, y)
        Pat(name="AddIMulNegativeOneRhs",
            match=Op(add, X, Op(mul, Y, Const(-1))),
            rewrite=Op(sub, X, Y)),
        # addi(muli(x, -1), y) -> subi(y, x)
        Pat(name="AddIMulNegativeOneLhs",
            match=Op(add, Op(mul, X, Const(-1)), Y),
            rewrite=Op(sub, Y, X)),
    ]
    out[sub] = [
        # subi(addi(x, c0), c1) -> addi(x, c0 - c1), without flags
        Pat(name="SubIRHSAddConstant",
            match=Op(sub, Op(add, X, C0), C1),
            rewrite=Op(add, X, _int_const(lambda a, b: a - b))),
        # subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
        Pat(name="SubILHSAddConstant",
            match=Op(sub, C1, Op(add, X, C0, attrs=ovf(F0)), attrs=ovf(F1)),
            rewrite=Op(sub, _int_const(lambda a, b: b - a), X, attrs=merged)),
        # subi(subi(x, c0), c1) -> subi(x, c0 + c1)
        Pat(name="SubIRHSSubConstantRHS",
            match=Op(sub, Op(sub, X, C0, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(sub, X, _int_const(lambda a, b: a + b), attrs=merged)),
        # subi(subi(c0, x), c1) -> subi(c0 - c1, x)
        Pat(name="SubIRHSSubConstantLHS",
            match=Op(sub, Op(sub, C0, X, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(sub, _int_const(lambda a, b: a - b), X, attrs=merged)),
        # subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
        Pat(name="SubILHSSubConstantRHS",
            match=Op(sub, C1, Op(sub, X, C0, attrs=ovf(F0)), attrs=ovf(F1)),
            rewrite=Op(sub, _int_const(lambda a, b: a + b), X, attrs=merged)),
        # subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
        Pat(name="SubILHSSubConstantLHS",
            match=Op(sub, C1, Op(sub, C0, X, attrs=ovf(F0)), attrs=ovf(F1)),
            rewrite=Op(add, X, _int_const(lambda a, b: b - a), attrs=merged)),
        # subi(subi(x, y), x) -> subi(0, y); a dynamic shape has no zero constant
        Pat(name="SubISubILHSRHSLHS",
            match=Op(sub, Op(sub, X, Y, attrs=ovf(F0)), X, attrs=ovf(F1)),
            where=lambda Y: _zero_of(Y.type) is not None,
            rewrite=Op(sub, Op("arith.constant", attrs={"value": lambda Y: _zero_of(Y.type)},
                               type=Y), Y, attrs=merged)),
    ]
    out[mul] = [
        # muli(muli(x, c0), c1) -> muli(x, c0 * c1)
        Pat(name="MulIMulIConstant",
            match=Op(mul, Op(mul, X, C0, attrs=ovf(F0)), C1, attrs=ovf(F1)),
            rewrite=Op(mul, X, _int_const(lambda a, b: a * b), attrs=merged)),
    ]

    # The extended ops whose second result is unused are the plain op (any value can
    # stand in for the unused result).
    def second_unused(op):
        return not op.results[1].has_uses()

    for ext, plain, name in (("arith.addui_extended", add, "AddUIExtendedToAddI"),
                             ("arith.subui_extended", sub, "SubUIExtendedToSubI"),
                             ("arith.mulsi_extended", mul, "MulSIExtendedToMulI"),
                             ("arith.mului_extended", mul, "MulUIExtendedToMulI")):
        out.setdefault(ext, []).append(
            Pat(name=name, match=Op(ext, X, Y), where=second_unused,
                rewrite=[Op(plain, X, Y), X]))
    # mulsi_extended(x, 1) -> [x, extsi(x < 0)] (1 must be positive: not i1's -1)
    out["arith.mulsi_extended"].append(
        Pat(name="MulSIExtendedRHSOne",
            match=Op("arith.mulsi_extended", X, ConstInt(1)),
            where=lambda X: _width(X.type) > 1 and _zero_of(X.type) is not None,
            rewrite=[X, Op("arith.extsi", Op("arith.cmpi", X, Op(
                "arith.constant", attrs={"value": lambda X: _zero_of(X.type)}, type=X),
                attrs={"predicate": _pred("slt")}), type=X)]))

    # and/or/xor: constants reassociate; ops of two equal extensions narrow.
    for op, fn, cname in (("arith.xori", lambda a, b: a ^ b, "XOrIXOrIConstant"),
                          ("arith.andi", lambda a, b: a & b, "AndIAndIConstant"),
                          ("arith.ori", lambda a, b: a | b, "OrIOrIConstant")):
        out[op] = [Pat(name=cname, match=Op(op, Op(op, X, C0), C1),
                       rewrite=Op(op, X, _int_const(fn)))]
    P = Attr("P")
    out["arith.xori"].append(
        # xori(cmpi(pred, a, b), true) -> cmpi(!pred, a, b)
        Pat(name="XOrINotCmpI",
            match=Op("arith.xori", Op("arith.cmpi", X, Y, attrs={"predicate": P}),
                     Const(1, type=A.i1)),
            rewrite=Op("arith.cmpi", X, Y, attrs={"predicate": lambda P: _pred(
                _INVERSE[CMPI_PREDICATES[P.value]])})))
    N0, N1 = Attr("N0", required=False), Attr("N1", required=False)
    for op, prefix in (("arith.xori", "XOrIOf"), ("arith.andi", "AndOf"),
                       ("arith.ori", "OrOf")):
        # op(extui(x), extui(y)) -> extui(op(x, y)), and the same for extsi
        out[op] += [
            Pat(name=prefix + "ExtUI",
                match=Op(op, Op("arith.extui", X, attrs={"nonNeg": N0}),
                         Op("arith.extui", Y, attrs={"nonNeg": N1})),
                where=lambda X, Y: X.type is Y.type,
                rewrite=Op("arith.extui", Op(op, X, Y),
                           attrs={"nonNeg": lambda N0, N1: _both(N0, N1)})),
            Pat(name=prefix + "ExtSI",
                match=Op(op, Op("arith.extsi", X), Op("arith.extsi", Y)),
                where=lambda X, Y: X.type is Y.type,
                rewrite=Op("arith.extsi", Op(op, X, Y))),
        ]

    # cmpi(eq|ne, ext(a), ext(b)) -> cmpi(eq|ne, a, b)
    out["arith.cmpi"] = [
        Pat(name=f"CmpIExt{k}",
            match=Op("arith.cmpi", Op(ext, X), Op(ext, Y), attrs={"predicate": P}),
            where=[lambda X, Y: X.type is Y.type,
                   lambda P: CMPI_PREDICATES[P.value] in ("eq", "ne")],
            rewrite=Op("arith.cmpi", X, Y, attrs={"predicate": P}))
        for k, ext in (("SI", "arith.extsi"), ("UI", "arith.extui"))]
    return out


# ============================================================================ float ops


def _float_patterns():
    X, Y = Var("X"), Var("Y")
    FM, RM = Attr("FM", required=False), Attr("RM", required=False)
    keep = {"fastmath": FM}
    keep_rm = {"fastmath": FM, "roundingmode": RM}
    negf = "arith.negf"
    out = {
        "arith.addf": [
            # addf(negf(x), y) -> subf(y, x)
            Pat(name="AddFOfNegFLhs",
                match=Op("arith.addf", Op(negf, X), Y, attrs=keep_rm),
                rewrite=Op("arith.subf", Y, X, attrs=keep_rm)),
            # addf(x, negf(y)) -> subf(x, y)
            Pat(name="AddFOfNegFRhs",
                match=Op("arith.addf", X, Op(negf, Y), attrs=keep_rm),
                rewrite=Op("arith.subf", X, Y, attrs=keep_rm)),
        ],
        # subf(-0.0, x) -> negf(x)
        "arith.subf": [
            Pat(name="SubFOfNegZero",
                match=Op("arith.subf", Const(-0.0), X, attrs=keep_rm),
                where=_no_rounding, rewrite=Op(negf, X, attrs=keep)),
        ],
    }
    # mulf(negf(x), negf(y)) -> mulf(x, y), and the same for divf
    for op, name in (("arith.mulf", "MulFOfNegF"), ("arith.divf", "DivFOfNegF")):
        out[op] = [Pat(name=name, match=Op(op, Op(negf, X), Op(negf, Y), attrs=keep_rm),
                       where=_no_rounding, rewrite=Op(op, X, Y, attrs=keep))]
    return out


# ============================================================================ casts


def _narrow_extremum(trunc, ext, extremum, is_float):
    """trunc(extremum(ext(a), ext(b))) -> extremum(a, b) for a and b of the truncated
    type: the result is one of the operands, so it survives the truncation exactly.
    The extremum must have no other use; a float one must have `nnan` (as upstream)."""
    X, Y = Var("X"), Var("Y")
    FM = Attr("FM", required=False)
    attrs = {"fastmath": FM} if is_float else {}
    where = [lambda op, X, Y: X.type is Y.type and X.type is op.results[0].type]
    if is_float:
        where.append(lambda FM: "nnan" in _flag_set(FM))
    # upstream's name: that of its C++ class template instance
    cls = ", ".join(f"mlir::arith::{_op(n).__name__}" for n in (trunc, ext, extremum))
    return Pat(name=f"(anonymous namespace)::NarrowExtremum<{cls}>", benefit=1,
               match=Op(trunc, Op(extremum, Op(ext, X), Op(ext, Y), attrs=attrs,
                                  one_use=True)),
               where=where, rewrite=Op(extremum, X, Y, attrs=attrs))


def _cast_patterns():
    X = Var("X")
    NN = Attr("NN", required=False)
    OV, EX = Attr("OV", required=False), Attr("EX", required=False)
    RM = Attr("RM", required=False)
    ext_nn = {"nonNeg": NN}
    out = {}
    # extsi(extui(x)) -> extui(x): the top bit after extui is zero
    out["arith.extsi"] = [
        Pat(name="ExtSIOfExtUI", match=Op("arith.extsi", Op("arith.extui", X, attrs=ext_nn)),
            rewrite=Op("arith.extui", X, attrs=ext_nn))]

    def strictly_between(op, E, X):
        # ext(x) is wider than the result, which is wider than x
        return _width(E.results[0].type) > _width(op.results[0].type) > _width(X.type)

    C = ConstInt(name="C")
    out["arith.trunci"] = [
        # trunci(extsi(x)) -> extsi(x) when only extension bits are dropped
        Pat(name="TruncIExtSIToExtSI",
            match=Op("arith.trunci", Op("arith.extsi", X, name="E")),
            where=strictly_between, rewrite=Op("arith.extsi", X)),
        Pat(name="TruncIExtUIToExtUI",
            match=Op("arith.trunci", Op("arith.extui", X, attrs=ext_nn, name="E")),
            where=strictly_between, rewrite=Op("arith.extui", X, attrs=ext_nn)),
        # trunci(shrsi(x, c)) -> trunci(shrui(x, c)) when the shift drops exactly the
        # bits the truncation removes: the sign bits shifted in are cut off anyway
        Pat(name="TruncIShrSIToTrunciShrUI",
            match=Op("arith.trunci", Op("arith.shrsi", X, C, attrs={"isExact": EX}),
                     attrs={"overflowFlags": OV}),
            where=lambda op, X, C: _width(X.type) - _width(op.results[0].type) == C.value,
            rewrite=Op("arith.trunci", Op("arith.shrui", X, Op(
                "arith.constant", attrs={"value": lambda C: C.attr}, type=C),
                attrs={"isExact": EX}), attrs={"overflowFlags": OV})),
        _narrow_extremum("arith.trunci", "arith.extsi", "arith.maxsi", False),
        _narrow_extremum("arith.trunci", "arith.extsi", "arith.minsi", False),
        _narrow_extremum("arith.trunci", "arith.extui", "arith.maxui", False),
        _narrow_extremum("arith.trunci", "arith.extui", "arith.minui", False),
    ]
    # (upstream also narrows maximumnumf/minimumnumf, ops Strata does not have yet)
    out["arith.truncf"] = [
        _narrow_extremum("arith.truncf", "arith.extf", op, True)
        for op in ("arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf")
    ] + [
        # truncf(sitofp(x)) -> sitofp(x): one rounding instead of two (default mode only)
        Pat(name="TruncFSIToFPToSIToFP",
            match=Op("arith.truncf", Op("arith.sitofp", X), attrs={"roundingmode": RM}),
            where=_no_rounding, rewrite=Op("arith.sitofp", X)),
        Pat(name="TruncFUIToFPToUIToFP",
            match=Op("arith.truncf", Op("arith.uitofp", X, attrs=ext_nn),
                     attrs={"roundingmode": RM}),
            where=_no_rounding, rewrite=Op("arith.uitofp", X, attrs=ext_nn)),
    ]
    # int-to-float of an extension converts the narrow value directly
    out["arith.uitofp"] = [
        Pat(name="UIToFPOfExtUI", match=Op("arith.uitofp", Op("arith.extui", X, attrs=ext_nn)),
            rewrite=Op("arith.uitofp", X, attrs=ext_nn))]
    out["arith.sitofp"] = [
        Pat(name="SIToFPOfExtSI", match=Op("arith.sitofp", Op("arith.extsi", X)),
            rewrite=Op("arith.sitofp", X)),
        Pat(name="SIToFPOfExtUI", match=Op("arith.sitofp", Op("arith.extui", X, attrs=ext_nn)),
            rewrite=Op("arith.uitofp", X, attrs=ext_nn)),
    ]
    # index_cast(extsi(x)) -> index_cast(x); index_castui(extui(x)) -> index_castui(x)
    out["arith.index_cast"] = [
        Pat(name="IndexCastOfExtSI", match=Op("arith.index_cast", Op("arith.extsi", X)),
            rewrite=Op("arith.index_cast", X))]
    out["arith.index_castui"] = [
        Pat(name="IndexCastUIOfExtUI",
            match=Op("arith.index_castui", Op("arith.extui", X, attrs=ext_nn)),
            rewrite=Op("arith.index_castui", X, attrs=ext_nn))]
    # bitcast(bitcast(x)) -> bitcast(x), or x itself when that is its type (upstream
    # gets there by folding the identity bitcast, which arith.bitcast's fold lacks)
    out["arith.bitcast"] = [
        Pat(name="BitcastOfBitcast", match=Op("arith.bitcast", Op("arith.bitcast", X)),
            rewrite=lambda r, op, X: X if X.type is op.results[0].type else
            r.create(_op("arith.bitcast"), in_=X, out=op.results[0].type))]
    return out


def _op(name):
    from . import default_context
    return default_context().get_op(name)


# ============================================================================ cmpf


# cmpf predicate -> cmpi predicate for (signed, unsigned) operands
_CMPF_TO_CMPI = {"oeq": ("eq", "eq"), "ueq": ("eq", "eq"), "ogt": ("sgt", "ugt"),
                 "ugt": ("sgt", "ugt"), "oge": ("sge", "uge"), "uge": ("sge", "uge"),
                 "olt": ("slt", "ult"), "ult": ("slt", "ult"), "ole": ("sle", "ule"),
                 "ule": ("sle", "ule"), "one": ("ne", "ne"), "une": ("ne", "ne")}


def _exact(attr):
    """A FloatAttr's value: a Fraction, +-inf (float), or None for NaN."""
    d = CF.exact_float(attr)
    if d[0] == "nan":
        return None
    if d[0] == "inf":
        return -math.inf if d[1] else math.inf
    return -d[2] if d[1] else d[2]


def _precision(t):
    """APFloat's semanticsPrecision: significand bits, the implicit one included."""
    return D._FMT[t.name][1] + 1


def _ilogb(v):
    """floor(log2(|v|)) of a nonzero Fraction."""
    v = abs(v)
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    return e


def _max_exponent(t):
    """ilogb of the largest finite value of an IEEE-like float type."""
    eb, _, bias = D._FMT[t.name][:3]
    return (1 << eb) - 2 - bias


def _to_float(n: int, t):
    """n rounded to nearest-even in t (APFloat::convertFromAPInt), as an exact value
    (None: NaN)."""
    if n < 0 and D._FMT[t.name][3] == "e8m0":
        return None  # no sign bit: APFloat makes a NaN
    try:
        return _exact(CF.to_float_exact(n, t))
    except (ValueError, D._ElemError):
        return None


def _cmpf_int_to_fp_const(r, op, I, F, is_unsigned):
    """cmpf(pred, [su]itofp(i), c) -> cmpi(pred', i, int(c)), or a constant when the
    comparison is decided by the range of i (upstream's CmpFIntToFPConst). Declines
    (None) where the integer conversion could round and change the answer."""
    if type(F.attr) is not A.FloatAttr or type(I.type) is not A.IntegerType:
        return None
    rhs = _exact(F.attr)
    if rhs is None:
        return None
    ft = F.attr.type
    mantissa = _precision(ft)
    w = I.type.width
    value_bits = w if is_unsigned else w - 1
    if w > mantissa:
        if isinstance(rhs, float):  # infinity
            if _max_exponent(ft) < value_bits:
                return None  # the conversion could give infinity
        elif rhs != 0 and mantissa <= _ilogb(rhs) <= value_bits:
            return None  # the conversion could round across the constant
    pname = CMPF_PREDICATES[op.properties["predicate"].value]

    def const(b):
        return r.create(_op("arith.constant"), value=A.IntegerAttr(int(b), A.i1),
                        result=A.i1).results[0]
    if pname == "ord":
        return const(True)   # an int-to-float conversion never gives NaN
    if pname == "uno":
        return const(False)
    if pname not in _CMPF_TO_CMPI:
        return None  # `false`/`true`: upstream has no answer (it crashes)
    pred = _CMPF_TO_CMPI[pname][is_unsigned]
    neg = rhs < 0
    if is_unsigned:
        lo, hi = 0, (1 << w) - 1
        lt, gt = ("ne", "ugt", "uge"), ("ne", "ult", "ule")
    else:
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        lt, gt = ("ne", "sgt", "sge"), ("ne", "slt", "sle")
    hi_f, lo_f = _to_float(hi, ft), _to_float(lo, ft)
    if hi_f is not None and hi_f < rhs:  # above every value of i
        return const(pred in gt)
    if lo_f is not None and lo_f > rhs:  # below every value of i
        return const(pred in lt)
    if isinstance(rhs, float):
        return None
    n = math.trunc(rhs)  # toward zero, as convertToInteger
    if not lo <= n <= hi:
        return None
    if rhs != 0 and _to_float(n, ft) != rhs:
        # A fractional constant: adjust the predicate (n is rounded toward zero).
        if pred == "ne":
            return const(True)
        if pred == "eq":
            return const(False)
        if pred in ("ule", "ult") and neg:
            return const(False)
        if pred in ("ugt", "uge") and neg:
            return const(True)
        pred = {"sle": "slt" if neg else "sle", "ult": "ule",
                "slt": "slt" if neg else "sle", "sgt": "sge" if neg else "sgt",
                "uge": "ugt", "sge": "sge" if neg else "sgt"}.get(pred, pred)
    c = r.create(_op("arith.constant"), value=A.IntegerAttr(n, I.type), result=I.type)
    return r.create(_op("arith.cmpi"), lhs=I, rhs=c.results[0],
                    predicate=_pred(pred)).results[0]


def _cmpf_patterns():
    I = Var("I")
    F = ConstFloat(name="F")

    def rewrite(is_unsigned):
        return lambda r, op, I, F: _cmpf_int_to_fp_const(r, op, I, F, is_unsigned)
    return {"arith.cmpf": [
        Pat(name="CmpFIntToFPConst", benefit=1, match=Op("arith.cmpf", Op(cast, I), F),
            rewrite=rewrite(cast == "arith.uitofp"))
        for cast in ("arith.sitofp", "arith.uitofp")]}


# ============================================================================ select


def _select_patterns():
    P, X, Y, Z = Var("P"), Var("X"), Var("Y"), Var("Z")
    sel = "arith.select"

    def is_int_not_i1(op):
        t = op.results[0].type
        return type(t) is A.IntegerType and t.width != 1

    out = [
        # select(p, a, select(p, b, c)) -> select(p, a, c)
        Pat(name="RedundantSelectFalse", match=Op(sel, P, X, Op(sel, P, Y, Z)),
            rewrite=Op(sel, P, X, Z)),
        # select(p, select(p, a, b), c) -> select(p, a, c)
        Pat(name="RedundantSelectTrue", match=Op(sel, P, Op(sel, P, X, Y), Z),
            rewrite=Op(sel, P, X, Z)),
        # select(not(p), a, b) -> select(p, b, a)
        Pat(name="SelectNotCond",
            match=Op(sel, Op("arith.xori", P, ConstInt(-1, type=_scalar_int)), X, Y),
            rewrite=Op(sel, P, Y, X)),
        # select(p, false, true) -> not(p)
        Pat(name="SelectI1ToNot",
            match=Op(sel, P, Const(0, type=A.i1), Const(1, type=A.i1)),
            rewrite=Op("arith.xori", P, Op("arith.constant",
                                           attrs={"value": A.IntegerAttr(1, A.i1)},
                                           type=A.i1))),
        # select(p, 1, 0) -> extui(p); select(p, 0, 1) -> extui(not(p))
        Pat(name="SelectToExtUI", match=Op(sel, P, Const(1), Const(0)),
            where=is_int_not_i1, rewrite=Op("arith.extui", P)),
        Pat(name="SelectToExtUI", match=Op(sel, P, Const(0), Const(1)),
            where=is_int_not_i1,
            rewrite=Op("arith.extui", Op("arith.xori", P, Op(
                "arith.constant", attrs={"value": A.IntegerAttr(1, A.i1)}, type=A.i1)))),
    ]
    # select(cmpi(pred, a, b), a, b) -> max/min(a, b), and with a and b swapped
    for preds, (same, swapped), kind in ((("sge", "sgt"), ("max", "min"), "si"),
                                         (("sle", "slt"), ("min", "max"), "si"),
                                         (("uge", "ugt"), ("max", "min"), "ui"),
                                         (("ule", "ult"), ("min", "max"), "ui")):
        for pred in preds:
            cmp = Op("arith.cmpi", X, Y, attrs={"predicate": _pred(pred)})
            for vals, res in (((X, Y), same), ((Y, X), swapped)):
                label = f"SelectCmpI{pred.capitalize()}To{res.capitalize()}{kind.upper()}"
                out.append(Pat(name=label, match=Op(sel, cmp, *vals),
                               rewrite=Op(f"arith.{res}{kind}", X, Y)))
    return {sel: out}


# ============================================================================ registry

_PATTERNS = None


def all_patterns() -> dict:
    """Op name -> its canonicalization patterns, built once."""
    global _PATTERNS
    if _PATTERNS is None:
        out = {}
        for part in (_int_patterns(), _float_patterns(), _cast_patterns(), _cmpf_patterns(),
                     _select_patterns()):
            for k, v in part.items():
                out.setdefault(k, []).extend(v)
        _PATTERNS = out
    return _PATTERNS


def patterns_for(name: str) -> list:
    return list(all_patterns().get(name, ()))
