"""Helpers for op folders (like MLIR's CommonFolders.h and m_Zero / m_One matchers).

[Note: fold results]
An op's `fold(self, operands)` gets one entry per operand: the constant Attribute of that
operand (an IntegerAttr, FloatAttr or DenseElementsAttr) or None when it is not a known
constant. It returns None (no fold), an Attribute (the result is that constant), or a
Value (the result is an existing SSA value; the op's own result means "updated in
place"). Ops with several results return a list of those, one per result.

Integers are handled as Python ints of the element width: `uint(v, w)` is the two's
complement bit pattern (APInt's view), `sint(v, w)` the signed reading; results are
rebuilt through IntegerAttr / DenseElementsAttr, which wrap them to the width. Floats
are folded for the kinds whose values fit a Python float exactly (up to f64); +, -, *,
/ and sqrt on a double and one rounding to the target give the correctly rounded
result for every such kind (the double has more than twice their precision), and other
kinds (f80, f128) are folded on exact values (see [Note: exact float arithmetic]).
Conversions are exact for every kind (see [Note: exact float conversions]).

[Note: exact float conversions]
extf / truncf / fptosi / fptoui of a constant need no arithmetic, only the value: a
bit pattern of any kind decodes to a sign and an exact rational (`exact_float`), and
`convert_float_exact` encodes that rational in the target kind and keeps the result only
when decoding it gives the very same value and sign (APFloat::convert with losesInfo
false, as upstream's convertFloatValue asks). So `arith.extf` of an f80 constant to f128
folds, while truncating 1.444e25 from f32 to bf16 does not.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..ir import attributes as A
from ..ir import dense as D

__all__ = [
    "elem_type", "width_of", "uint", "sint", "int_splat", "float_splat", "is_zero",
    "is_one", "is_all_ones", "fold_unary", "fold_binary", "fold_cast", "make_splat",
    "float_attr", "float_of", "is_nan", "to_float_exact",
    "foldable_float", "exact_float", "exact_key", "convert_float_exact", "quiet_nan",
    "default_nan", "float_binary_fn", "exact_add", "exact_sub", "exact_mul", "exact_div",
    "exact_rem", "ieee_div", "ieee_fmod",
    "is_neg_zero", "maximum", "minimum", "maxnum", "minnum", "negate", "flush_denormal",
    "cmpf",
]


def elem_type(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


def width_of(t) -> int:
    """Bit width of an integer-like or float-like type's elements (index: 64)."""
    e = elem_type(t)
    return 64 if isinstance(e, A.IndexType) else e.width


def uint(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def sint(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if w and v >> (w - 1) else v


# ------------------------------------------------------------------ matchers


def _dense(a):
    return isinstance(a, D.DenseElementsAttr) and not isinstance(a, D.DenseStringElementsAttr)


def int_splat(a):
    """The integer of an IntegerAttr or of a splat dense integer attribute, else None."""
    if type(a) is A.IntegerAttr:
        return a.value
    if _dense(a) and a.is_splat and isinstance(a.element_type, (A.IntegerType, A.IndexType)):
        return int(a.splat_value)
    return None


def float_splat(a):
    """(value, bits, float type) of a FloatAttr or a splat dense float attribute."""
    if type(a) is A.FloatAttr:
        return a.value, a.bits, a.type
    if _dense(a) and a.is_splat and isinstance(a.element_type, A.FloatType):
        t = a.element_type
        bits = int.from_bytes(a.raw, "little") & ((1 << t.width) - 1)
        return float_of(bits, t), bits, t
    return None


def is_zero(a) -> bool:
    return int_splat(a) == 0


def is_one(a) -> bool:
    v = int_splat(a)
    if v is None:
        return False
    t = elem_type(a.type)
    return v == 1 or (getattr(t, "width", 0) == 1 and v)


def is_all_ones(a) -> bool:
    v = int_splat(a)
    return v is not None and uint(v, width_of(a.type)) == (1 << width_of(a.type)) - 1


# ------------------------------------------------------------------ floats


def float_of(bits: int, t) -> float:
    """The value of a bit pattern of float type `t` (NaN for every NaN)."""
    if t.name in ("f64", "f32", "f16"):
        return A.bits_to_float(bits, t.name)
    return D._float_value(bits, t.name)


def is_nan(x: float) -> bool:
    return x != x


def foldable_float(t) -> bool:
    """Float kinds whose every value is exactly a Python float."""
    return isinstance(t, A.FloatType) and t.width <= 64 and t.name != "f80"


def float_attr(x: float, t):
    """The FloatAttr of `x` rounded to nearest-even in `t`, or None if `t` cannot hold
    it (a NaN or infinity in a kind without one)."""
    try:
        return A.FloatAttr(x, t)
    except (ValueError, D._ElemError):
        return None


def to_float_exact(v, t):
    """FloatAttr of the exact number `v` (int or Fraction) rounded to nearest-even in `t`
    (APFloat::convertFromAPInt): no detour through a double."""
    bits = D._encode_float(t.name, v < 0, Fraction(abs(v)))
    return A.FloatAttr(0.0, t, bits)


def exact_float(a):
    """The exact value of a FloatAttr of any kind: ("nan", neg), ("inf", neg) or
    ("num", neg, q) with q a non-negative Fraction (see [Note: exact float conversions])."""
    d = D._decode_float(a.bits, a.type.name)
    if d[0] != "num":
        return d
    sig, e = d[2], d[3]
    return ("num", d[1], Fraction(sig << e) if e >= 0 else Fraction(sig, 1 << -e))


def exact_key(a):
    """The exact value of a FloatAttr for comparisons: its Python float where that is
    exact (up to f64), else a Fraction (or +-inf, NaN), so f80 and f128 values that one
    double cannot tell apart still compare right."""
    if foldable_float(a.type):
        return a.value
    d = exact_float(a)
    if d[0] != "num":
        return math.nan if d[0] == "nan" else -math.inf if d[1] else math.inf
    return -d[2] if d[1] else d[2]


def convert_float_exact(a, t):
    """FloatAttr of `a` (any float kind) in float kind `t` when the value, its sign and
    its kind (NaN, infinity) survive unchanged, else None."""
    d = exact_float(a)
    if d[0] == "nan":
        bits = _convert_nan(a.bits, a.type.name, t.name)
        return None if bits is None else A.FloatAttr(0.0, t, bits)
    try:
        bits = D._encode_float(t.name, d[1], d[2] if d[0] == "num" else "inf")
    except D._ElemError:
        return None
    if exact_float(A.FloatAttr(0.0, t, bits)) != d:
        return None
    return A.FloatAttr(0.0, t, bits)


def _convert_nan(bits: int, src: str, dst: str):
    """The bits of NaN `bits` of kind `src` converted to kind `dst` as APFloat::convert
    does, or None where it reports a loss or an invalid operation: the payload moves
    with the significand (shifted left on extension; on truncation a non-zero lost part
    is a loss), a signaling NaN is invalid, x87's unnormal NaNs have no other encoding,
    a kind without NaN takes none, a kind whose only non-finite value is NaN takes only
    another such kind's NaN, and a NaN without payload bits becomes the quiet NaN."""
    seb, smb, _, skind, sexp, _, swidth = D._layout(src)
    deb, dmb, _, dkind, dexp, deshift, dwidth = D._layout(dst)
    neg = bool(bits >> (swidth - 1) & 1) and skind != "e8m0"
    nan_only = ("fn", "fnuz", "e8m0")
    if dkind == "finite" or (dkind in nan_only and skind not in nan_only):
        return None
    if dkind in nan_only:
        return D._encode_float(dst, neg, "nan")
    if skind in ("fnuz", "e8m0"):
        return D._encode_float(dst, False, "nan")  # their NaN has no payload nor sign
    sig = bits & ((1 << (smb + sexp)) - 1)  # x87 keeps its integer bit in the significand
    if sexp and (not sig >> smb & 1 or not sig >> (smb - 1) & 1):
        return None  # an x87 pseudo-NaN or signaling NaN
    if skind == "ieee" and not sig >> (smb - 1) & 1:
        return None  # signaling: converting it is an invalid operation
    shift = (dmb + 1) - (smb + 1)
    if shift < 0:
        if sig & ((1 << -shift) - 1):
            return None
        sig >>= -shift
    else:
        sig <<= shift
    frac = sig & ((1 << dmb) - 1)
    if dexp:
        frac |= 1 << dmb  # x87's integer bit, set in every NaN it makes
    sign = (1 << (dwidth - 1)) if neg else 0
    return sign | ((1 << deb) - 1) << deshift | frac


# ------------------------------------------------------------------ elementwise folding


def _values(a):
    """Python values of a scalar attribute or of every element of a dense one."""
    if type(a) is A.IntegerAttr:
        return [a.value]
    if type(a) is A.FloatAttr:
        return [a]
    if a.is_splat:
        return [_values_splat(a)] * a.num_elements
    if isinstance(a.element_type, A.FloatType):
        t = a.element_type
        k = (t.width + 7) // 8
        raw = a.raw
        return [A.FloatAttr(0.0, t, int.from_bytes(raw[i:i + k], "little"))
                for i in range(0, len(raw), k)]
    return [int(v) for v in a.values]


def _kind_ok(a, want):
    if a is None:
        return False
    if want == "int":
        if type(a) is A.IntegerAttr:
            return True
        return _dense(a) and isinstance(a.element_type, (A.IntegerType, A.IndexType))
    if type(a) is A.FloatAttr:
        return True
    return _dense(a) and isinstance(a.element_type, A.FloatType)


def _build(result_type, vals, splat):
    """An attribute of `result_type` from per-element results (ints or FloatAttrs)."""
    if not isinstance(result_type, A.ShapedType):
        v = vals[0]
        return v if isinstance(v, A.FloatAttr) else A.IntegerAttr(v, result_type)
    et = result_type.element_type
    if isinstance(et, A.FloatType):
        k = (et.width + 7) // 8
        raw = b"".join(v.bits.to_bytes(k, "little") for v in vals)
        return D.DenseElementsAttr.from_raw(result_type, raw)
    w = width_of(et)
    if w == 1:
        data = [bool(v & 1) for v in vals]
    elif et.signedness == A.IntegerType.UNSIGNED if isinstance(et, A.IntegerType) else False:
        data = [uint(v, w) for v in vals]
    else:
        data = [sint(v, w) for v in vals]
    return D.DenseElementsAttr(result_type, data[0] if splat else data)


def fold_unary(operands, result_type, fn, kind="int"):
    """constFoldUnaryOp: `fn(x)` per element (ints as unsigned bit patterns, floats as
    FloatAttr); `fn` returns an int, a FloatAttr or None (then nothing folds)."""
    a = operands[0]
    if not _kind_ok(a, kind):
        return None
    return _fold_elems([a], result_type, fn, kind)


def fold_binary(operands, result_type, fn, kind="int"):
    """constFoldBinaryOp: both operands constant of one type, `fn(x, y)` per element."""
    a, b = operands[0], operands[1]
    if not (_kind_ok(a, kind) and _kind_ok(b, kind)) or a.type is not b.type:
        return None
    return _fold_elems([a, b], result_type, fn, kind)


def fold_cast(operand, result_type, fn, kind="int"):
    """constFoldCastOp: `fn` maps one element of the operand kind to a result element."""
    if not _kind_ok(operand, kind):
        return None
    return _fold_elems([operand], result_type, fn, kind)


def _fold_elems(attrs, result_type, fn, kind):
    if isinstance(result_type, A.ShapedType) and not (
            result_type.has_rank and result_type.has_static_shape):
        return None
    shaped = [isinstance(a, D.DenseElementsAttr) for a in attrs]
    if any(shaped) != all(shaped) or any(shaped) != isinstance(result_type, A.ShapedType):
        return None
    splat = all(a.is_splat for a in attrs) if shaped[0] else True
    if shaped[0] and splat:
        cols = [[_values_splat(a)] for a in attrs]
    else:
        cols = [_values(a) for a in attrs]
    out = []
    for xs in zip(*cols):
        if kind == "int":
            w = width_of(attrs[0].type)
            xs = [uint(x, w) for x in xs]
        r = fn(*xs)
        if r is None:
            return None
        out.append(r)
    return _build(result_type, out, splat)


def _values_splat(a):
    if isinstance(a.element_type, A.FloatType):
        t = a.element_type
        return A.FloatAttr(0.0, t, int.from_bytes(a.raw, "little") & ((1 << t.width) - 1))
    return int(a.splat_value)


def make_splat(value_attr, result_type):
    """A scalar attribute as a constant of `result_type` (a splat when shaped), or None
    for a shaped type without a static shape."""
    if not isinstance(result_type, A.ShapedType):
        return value_attr
    if not (result_type.has_rank and result_type.has_static_shape):
        return None
    return _build(result_type, [value_attr if isinstance(value_attr, A.FloatAttr)
                                else value_attr.value], True)


# ------------------------------------------------------------------ float operations
# APFloat's results on Python floats (for the float kinds `foldable_float` accepts).


def quiet_nan(a):
    """The NaN result APFloat gives for a NaN operand: the same NaN, made quiet."""
    t = a.type
    eb, mb, _, kind, _ = D._FMT[t.name][:5]
    if kind == "ieee":
        return A.FloatAttr(0.0, t, a.bits | (1 << (mb - 1)))
    return a


def default_nan(t):
    """The NaN of an invalid operation (inf - inf, 0 / 0): positive and quiet."""
    return float_attr(float("nan"), t)


def float_binary_fn(op, exact=None):
    """Per-element folder of a binary float op computed on Python floats (one double
    operation rounds correctly, see the module docstring), or for the kinds beyond
    doubles (f80, f128) by `exact` on exact values ([Note: exact float arithmetic]);
    NaN operands propagate."""
    def fn(a, b):
        t = a.type
        if not foldable_float(t) and exact is None:
            return None
        if is_nan(a.value):
            return quiet_nan(a)
        if is_nan(b.value):
            return quiet_nan(b)
        if not foldable_float(t):
            r = exact(_signed(a), _signed(b))
            return default_nan(t) if r is None else A.FloatAttr(
                0.0, t, D._encode_float(t.name, r[0], r[1]))
        r = op(a.value, b.value)
        if is_nan(r):
            return default_nan(t)
        return float_attr(r, t)
    return fn


# [Note: exact float arithmetic]
# f80 and f128 values are not Python floats, so their +, -, *, / and remainder are done
# on exact values: each operand is (negative, magnitude) with the magnitude a Fraction or
# "inf"; the exact result is rounded once to nearest-even by dense.py's encoder (as
# APFloat does), with IEEE 754's rules for infinities, zeros and invalid operations
# (None: the default NaN).


def _signed(a):
    d = exact_float(a)
    return (d[1], "inf") if d[0] == "inf" else (d[1], d[2])


def exact_add(x, y):
    (nx, qx), (ny, qy) = x, y
    if qx == "inf" or qy == "inf":
        if qx == "inf" and qy == "inf" and nx != ny:
            return None
        return x if qx == "inf" else y
    s = (-qx if nx else qx) + (-qy if ny else qy)
    if s == 0:  # an exact zero is +0 unless both addends are -0
        return (nx and ny and qx == 0 and qy == 0, Fraction(0))
    return (s < 0, abs(s))


def exact_sub(x, y):
    return exact_add(x, (not y[0], y[1]))


def exact_mul(x, y):
    (nx, qx), (ny, qy) = x, y
    neg = nx != ny
    if "inf" in (qx, qy):
        return None if 0 in (qx, qy) else (neg, "inf")
    return (neg, qx * qy)


def exact_div(x, y):
    (nx, qx), (ny, qy) = x, y
    neg = nx != ny
    if qx == "inf":
        return None if qy == "inf" else (neg, "inf")
    if qy == "inf":
        return (neg, Fraction(0))
    if qy == 0:
        return None if qx == 0 else (neg, "inf")
    return (neg, qx / qy)


def exact_rem(x, y):
    """APFloat::mod (fmod): the remainder of the truncated quotient, sign of x."""
    (nx, qx), qy = x, y[1]
    if qx == "inf" or qy == 0:
        return None
    if qy == "inf":
        return x
    return (nx, qx % qy)


def ieee_div(x, y):
    """x / y as IEEE 754 defines it for a zero divisor (Python raises instead)."""
    if y == 0:
        if x == 0 or is_nan(x):
            return float("nan")
        neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
        return -math.inf if neg else math.inf
    return x / y


def ieee_fmod(x, y):
    """APFloat::mod: the remainder with the sign of x; NaN where fmod is invalid."""
    try:
        return math.fmod(x, y)
    except ValueError:  # fmod(inf, y), fmod(x, 0)
        return float("nan")


def is_neg_zero(x):
    """-0.0 (and not +0.0)."""
    return x == 0 and math.copysign(1, x) < 0


def _negative_bit(a) -> bool:
    return D._FMT[a.type.name][3] != "e8m0" and bool(a.bits >> (a.type.width - 1))


def maximum(a, b):
    """llvm::maximum: NaN wins, -0 < +0 (exact values: any kind)."""
    if is_nan(a.value):
        return quiet_nan(a)
    if is_nan(b.value):
        return quiet_nan(b)
    x, y = exact_key(a), exact_key(b)
    if x == 0 and y == 0 and _negative_bit(a) != _negative_bit(b):
        return b if _negative_bit(a) else a
    return b if x < y else a


def minimum(a, b):
    if is_nan(a.value):
        return quiet_nan(a)
    if is_nan(b.value):
        return quiet_nan(b)
    x, y = exact_key(a), exact_key(b)
    if x == 0 and y == 0 and _negative_bit(a) != _negative_bit(b):
        return a if _negative_bit(a) else b
    return a if x < y else b


def is_signaling(a) -> bool:
    """A signaling NaN: an IEEE kind's NaN with the quiet bit clear."""
    eb, mb, _, kind, explicit = D._FMT[a.type.name]
    return kind == "ieee" and is_nan(a.value) and not a.bits >> (mb - 1) & 1


def maxnum(a, b):
    """llvm::maxnum: a signaling NaN gives the quiet NaN, a quiet NaN loses to a number,
    -0 < +0."""
    if is_signaling(a) or is_signaling(b):
        return quiet_nan(a if is_signaling(a) else b)
    if is_nan(a.value):
        return b
    if is_nan(b.value):
        return a
    return maximum(a, b)


def minnum(a, b):
    if is_signaling(a) or is_signaling(b):
        return quiet_nan(a if is_signaling(a) else b)
    if is_nan(a.value):
        return b
    if is_nan(b.value):
        return a
    return minimum(a, b)


def negate(a):
    """-a: the sign bit flipped, NaNs included (kinds without -0 keep their zero)."""
    t = a.type
    return A.FloatAttr(0.0, t, D._negate(t.name, a.bits))


def flush_denormal(a):
    """A denormal becomes the zero of its sign; other values stay."""
    t = a.type
    x = a.value
    if x == 0 or is_nan(x) or math.isinf(x):
        return a
    eb, mb, bias, kind = D._FMT[t.name][:4]
    if kind == "e8m0":
        return a
    if abs(x) < 2.0 ** (1 - bias):  # below the smallest normal: a denormal
        return float_attr(math.copysign(0.0, x), t)
    return a


def cmpf(pred, x, y):
    """The arith.cmpf predicate `pred` on two floats: ordered predicates are false and
    unordered ones true when a NaN is involved."""
    if is_nan(x) or is_nan(y):
        return pred in ("ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
    return {"false": False, "oeq": x == y, "ogt": x > y, "oge": x >= y, "olt": x < y,
            "ole": x <= y, "one": x != y, "ord": True, "ueq": x == y, "ugt": x > y,
            "uge": x >= y, "ult": x < y, "ule": x <= y, "une": x != y, "uno": False,
            "true": True}[pred]
