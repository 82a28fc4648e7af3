"""The math dialect: elementwise mathematical functions on floats and integers.

Every op of upstream MLIR's math dialect (the float ones take arith's fast-math flags),
with upstream's constant folders.

[Note: libm folding]
Upstream folds transcendental functions of f32 and f64 constants by calling the C
library (`sinf` for f32, `sin` for f64), so its results, NaN signs included, are the
host libm's. The folders here call the same functions through ctypes, and fall back to
Python's `math` module (double precision, rounded once) where no C library is found.
Like upstream, only f32 and f64 are folded, and a few functions refuse operands outside
their domain (`log` of a negative number, `sqrt` of -0.0...).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
from fractions import Fraction

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import dense as D
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.ods import Op, Operand, Result
from ..syntax.asm_format import install_format
from . import constant_fold as CF
from .arith import (FASTMATH, BoolLike, FloatLike, ResultIsI1OfOperandShape, _fastmath_prop,
                    _rounding_prop, i1_like, materialize_constant)

# Math's integer ops keep the classic summary (arith's says "non-zero-bitwidth").
IntLike = C.SignlessIntegerLike

# ---------------------------------------------------------------------------- libm


def _load_libm():
    name = ctypes.util.find_library("m")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


_LIBM = _load_libm()
_LIBM_FNS: dict = {}


def _libm(name: str, width: int, arity: int):
    """The C function `name` (suffixed `f` for f32) as a Python callable, or None."""
    key = (name, width)
    if key not in _LIBM_FNS:
        fn = None
        if _LIBM is not None:
            try:
                fn = getattr(_LIBM, name + ("f" if width == 32 else ""))
                ct = ctypes.c_float if width == 32 else ctypes.c_double
                fn.restype = ct
                fn.argtypes = [ct] * arity
            except AttributeError:
                fn = None
        _LIBM_FNS[key] = fn
    return _LIBM_FNS[key]


_PY = {"cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x), "exp2": lambda x: 2.0 ** x,
       "pow": math.pow}


def _call(name, t, *xs):
    """name(*xs) in the precision of float type t (f32 or f64); None if unavailable."""
    fn = _libm(name, t.width, len(xs))
    if fn is not None:
        return fn(*xs)
    py = _PY.get(name) or getattr(math, name, None)
    try:
        return py(*xs)
    except (ValueError, OverflowError):
        return None


def _f32_or_f64(t):
    return type(t) is A.FloatType and t.name in ("f32", "f64")


def _libm_unary(name, skip=None):
    """Folder body calling libm's `name` on f32/f64 constants; `skip(value)` refuses."""
    def fn(a):
        t = a.type
        if not _f32_or_f64(t) or (skip is not None and skip(a.value)):
            return None
        r = _call(name, t, a.value)
        return None if r is None else CF.float_attr(r, t)
    return fn


def _negative(x):
    """APFloat::isNegative: the sign bit (so -0.0 and -NaN count)."""
    return math.copysign(1.0, x) < 0


# ---------------------------------------------------------------------------- bases


class MathOp(Op):
    traits = (T.Pure, T.ElementwiseMappable)
    _stored_defaults = ()

    def fold(self, operands):
        return None


class _FloatUnary(MathOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    operand_ = Operand(FloatLike)  # upstream's `operand` ([Note: field names])
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    assembly = "$operand_ (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)
    # Per-element constant folder (FloatAttr -> FloatAttr or None), or None.
    fold_fn = None

    def fold(self, operands):
        fn = type(self).fold_fn
        if fn is None:
            return None
        return CF.fold_unary(operands, self.result.type, fn, "float")


class _FloatBinary(MathOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(FloatLike)
    rhs = Operand(FloatLike)
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    assembly = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)
    fold_fn = None

    def fold(self, operands):
        fn = type(self).fold_fn
        if fn is None:
            return None
        return CF.fold_binary(operands, self.result.type, fn, "float")


class _FloatTernary(MathOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    _stored_defaults = (("fastmath", FASTMATH("none")),)


class _IntUnary(MathOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    operand_ = Operand(IntLike)  # upstream's `operand` ([Note: field names])
    result = Result(IntLike)
    assembly = "$operand_ attr-dict `:` type($result)"
    # Per-element folder on the unsigned bit pattern and the width.
    fold_fn = None

    def fold(self, operands):
        w = CF.width_of(self.result.type)
        fn = type(self).fold_fn
        return CF.fold_unary(operands, self.result.type, lambda a: fn(a, w))


class _Classification(MathOp):
    """isfinite/isinf/isnan/isnormal: an i1-like result of the operand's shape."""

    traits = (T.Pure, ResultIsI1OfOperandShape, T.ElementwiseMappable)
    operand_ = Operand(FloatLike)  # upstream's `operand` ([Note: field names])
    fastmath = _fastmath_prop()
    result = Result(BoolLike)
    assembly = "$operand_ (`fastmath` `` $fastmath^)? attr-dict `:` type($operand_)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)
    test = None

    @classmethod
    def infer_result_types(cls, operands, props):
        return [i1_like(operands[0].type)]

    def fold(self, operands):
        # Scalars and splats only, as upstream.
        s = CF.float_splat(operands[0])
        if s is None:
            return None
        x = CF.exact_key(A.FloatAttr(0.0, s[2], s[1]))  # exact: f80 and f128 too
        return CF.make_splat(A.BoolAttr(type(self).test(x, s[2])), self.result.type)


# ---------------------------------------------------------------------------- float ops


def _unary_op(cls_name, name, fold_fn=None, note=""):
    """The float unary op class `math.<name>`; its docstring is a one-line IR example."""
    return type(cls_name, (_FloatUnary,), {
        "__doc__": f"`%r = math.{name} %a : f32`{note}", "name": f"math.{name}",
        "__module__": __name__, "fold_fn": None if fold_fn is None else staticmethod(fold_fn)})


def _round_integral(rounding, libm_only=False):
    """roundToIntegral in a rounding direction, exactly, on any float kind (only f32 and
    f64 for round and trunc, which upstream folds through libm). `rounding` maps the
    exact value (a Fraction) to an integer; a zero result keeps the operand's sign."""
    def fn(a):
        t = a.type
        if libm_only and not _f32_or_f64(t):
            return None
        d = CF.exact_float(a)
        if d[0] == "nan":
            return CF.quiet_nan(a)  # roundToIntegral quiets a signaling NaN
        if d[0] == "inf" or d[2] == 0:
            return a
        r = abs(rounding(-d[2] if d[1] else d[2]))
        return A.FloatAttr(0.0, t, D._encode_float(t.name, d[1], Fraction(r)))
    return fn


def _round_half_away(x):
    t = math.trunc(x)
    return t + (1 if x > 0 else -1) if abs(x - t) >= 0.5 else t


def _absf(a):
    """The sign bit cleared, in any float kind (NaNs included)."""
    t = a.type
    neg = D._FMT[t.name][3] != "e8m0" and bool(a.bits >> (t.width - 1))
    return A.FloatAttr(0.0, t, D._negate(t.name, a.bits)) if neg else a


AbsFOp = _unary_op("AbsFOp", "absf", _absf)
AcosOp = _unary_op("AcosOp", "acos", _libm_unary("acos"))
AcoshOp = _unary_op("AcoshOp", "acosh", _libm_unary("acosh"))
AsinOp = _unary_op("AsinOp", "asin", _libm_unary("asin"))
AsinhOp = _unary_op("AsinhOp", "asinh", _libm_unary("asinh"))
AtanOp = _unary_op("AtanOp", "atan", _libm_unary("atan"))
AtanhOp = _unary_op("AtanhOp", "atanh", _libm_unary("atanh"))
CbrtOp = _unary_op("CbrtOp", "cbrt", _libm_unary("cbrt"))
CeilOp = _unary_op("CeilOp", "ceil", _round_integral(math.ceil))
CosOp = _unary_op("CosOp", "cos", _libm_unary("cos"))
CoshOp = _unary_op("CoshOp", "cosh", _libm_unary("cosh"))
ErfOp = _unary_op("ErfOp", "erf", _libm_unary("erf"))
ErfcOp = _unary_op("ErfcOp", "erfc", _libm_unary("erfc"))
ExpOp = _unary_op("ExpOp", "exp", _libm_unary("exp"))
Exp2Op = _unary_op("Exp2Op", "exp2", _libm_unary("exp2"))
ExpM1Op = _unary_op("ExpM1Op", "expm1", _libm_unary("expm1"))
FloorOp = _unary_op("FloorOp", "floor", _round_integral(math.floor))
LogOp = _unary_op("LogOp", "log", _libm_unary("log", _negative))
Log10Op = _unary_op("Log10Op", "log10", _libm_unary("log10", _negative))
Log1pOp = _unary_op("Log1pOp", "log1p", _libm_unary("log1p", lambda x: _negative(x + 1.0)))
Log2Op = _unary_op("Log2Op", "log2", _libm_unary("log2", _negative))
RoundOp = _unary_op("RoundOp", "round", _round_integral(_round_half_away, True),
                    note=" (halfway cases away from zero)")
RoundEvenOp = _unary_op("RoundEvenOp", "roundeven", _round_integral(round),
                        note=" (halfway cases to even)")
SinOp = _unary_op("SinOp", "sin", _libm_unary("sin"))
SinhOp = _unary_op("SinhOp", "sinh", _libm_unary("sinh"))
SqrtOp = _unary_op("SqrtOp", "sqrt", _libm_unary("sqrt", _negative))
TanOp = _unary_op("TanOp", "tan", _libm_unary("tan"))
TanhOp = _unary_op("TanhOp", "tanh", _libm_unary("tanh"))
TruncOp = _unary_op("TruncOp", "trunc", _round_integral(math.trunc, True))
def _rsqrt(a):
    t = a.type
    if not _f32_or_f64(t) or _negative(a.value):
        return None
    s = _call("sqrt", t, a.value)
    if s is None:
        return None
    return CF.float_attr(math.inf if s == 0 else 1.0 / s, t)


RsqrtOp = _unary_op("RsqrtOp", "rsqrt", _rsqrt, note=" (1 / sqrt(%a))")
def _libm_binary(name, special=None):
    """Folder body calling libm's `name` on f32/f64 constants; `special(a, b)`, tried
    first on constants of any kind, gives upstream's result where libm is not asked."""
    def fn(a, b):
        t = a.type
        if special is not None:
            r = special(a, b)
            if r is not None:
                return r
        if not _f32_or_f64(t):
            return None
        r = _call(name, t, a.value, b.value)
        return None if r is None else CF.float_attr(r, t)
    return fn


def _atan2_zeros(a, b):
    """atan2 of two zeros is upstream's NaN, in every float kind that has one."""
    def zero(x):
        d = CF.exact_float(x)  # exact: f80's denormals are zero as doubles
        return d[0] == "num" and d[2] == 0
    return CF.float_attr(math.nan, a.type) if zero(a) and zero(b) else None


def _pow_signaling(a, b):
    """libm's pow turns a signaling NaN operand into a quiet NaN (even pow(1, sNaN)
    and pow(sNaN, 0), which are 1 for a quiet one): the first NaN operand, made quiet."""
    if not _f32_or_f64(a.type) or not (CF.is_signaling(a) or CF.is_signaling(b)):
        return None
    return CF.quiet_nan(a if CF.is_nan(a.value) else b)


def _copysign(a, b):
    if D._FMT[a.type.name][3] == "e8m0":
        return None
    sign_a = bool(a.bits >> (a.type.width - 1))
    sign_b = bool(b.bits >> (b.type.width - 1))
    return a if sign_a == sign_b else A.FloatAttr(0.0, a.type, D._negate(a.type.name, a.bits))


class Atan2Op(_FloatBinary):
    """`%r = math.atan2 %y, %x : f32`"""
    name = "math.atan2"
    fold_fn = staticmethod(_libm_binary("atan2", _atan2_zeros))


class CopySignOp(_FloatBinary):
    """`%r = math.copysign %a, %b : f32` (magnitude of %a, sign of %b)"""
    name = "math.copysign"
    fold_fn = staticmethod(_copysign)


class PowFOp(_FloatBinary):
    """`%r = math.powf %a, %b : f32`"""
    name = "math.powf"
    fold_fn = staticmethod(_libm_binary("pow", _pow_signaling))


class FmaOp(_FloatTernary):
    """`%d = math.fma %a, %b, %c : f32` (a * b + c, rounded once), optionally with a
    rounding mode as arith's: `math.fma %a, %b, %c toward_zero : f32`."""
    name = "math.fma"
    a = Operand(FloatLike)
    b = Operand(FloatLike)
    c = Operand(FloatLike)
    roundingmode = _rounding_prop()
    assembly = ("$a `,` $b `,` $c ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict "
                "`:` type($result)")


class ClampFOp(_FloatTernary):
    """`%r = math.clampf %x to [%lo, %hi] : f32`"""
    name = "math.clampf"
    value = Operand(FloatLike)
    min = Operand(FloatLike)
    max = Operand(FloatLike)
    assembly = ("$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict "
                "`:` type($result)")


class SincosOp(MathOp):
    """`%sin, %cos = math.sincos %a : f32`"""
    name = "math.sincos"
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    operand_ = Operand(FloatLike)  # upstream's `operand` ([Note: field names])
    fastmath = _fastmath_prop()
    sin = Result(FloatLike)
    cos = Result(FloatLike)
    assembly = "$operand_ (`fastmath` `` $fastmath^)? attr-dict `:` type($operand_)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)

    def asm_result_names(self):
        return ["sin", "cos"]


class FPowIOp(MathOp):
    """`%r = math.fpowi %base, %power : f32, i32`"""
    name = "math.fpowi"
    traits = (T.Pure, T.AllTypesMatch("lhs", "result"), T.SameOperandsAndResultShape,
              T.ElementwiseMappable)
    lhs = Operand(FloatLike)
    rhs = Operand(IntLike)
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    assembly = ("$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` "
                "type($rhs)")
    _stored_defaults = (("fastmath", FASTMATH("none")),)

    def fold(self, operands):
        # Scalars and splats of f32/f64: exponentiation by squaring, each product
        # rounded to the type, then 1 / x for a negative power (as upstream's folder).
        base, power = CF.float_splat(operands[0]), CF.int_splat(operands[1])
        if base is None or power is None or not _f32_or_f64(base[2]):
            return None
        t = base[2]
        p = CF.sint(power, CF.width_of(self.rhs.type))

        def rnd(x):
            return CF.float_attr(x, t).value
        result, b, e = 1.0, base[0], abs(p)
        while e:
            if e & 1:
                result = rnd(result * b)
            b = rnd(b * b)
            e >>= 1
        if p < 0:
            result = rnd(1.0 / result) if result != 0 else math.copysign(math.inf, result)
        a = CF.float_attr(result, t)
        return None if a is None else CF.make_splat(a, self.result.type)


# ---------------------------------------------------------------------------- integer ops


def _ctlz(a, w):
    return w - a.bit_length()


def _cttz(a, w):
    return w if a == 0 else (a & -a).bit_length() - 1


class AbsIOp(_IntUnary):
    """`%r = math.absi %a : i32`"""
    name = "math.absi"
    fold_fn = staticmethod(lambda a, w: abs(CF.sint(a, w)))


class CountLeadingZerosOp(_IntUnary):
    """`%r = math.ctlz %a : i32`"""
    name = "math.ctlz"
    fold_fn = staticmethod(_ctlz)


class CountTrailingZerosOp(_IntUnary):
    """`%r = math.cttz %a : i32`"""
    name = "math.cttz"
    fold_fn = staticmethod(_cttz)


class CtPopOp(_IntUnary):
    """`%r = math.ctpop %a : i32`"""
    name = "math.ctpop"
    fold_fn = staticmethod(lambda a, w: bin(a).count("1"))


def _ipowi(base, power, w):
    """Signed base ** signed power in w bits; 0 to a negative power is not folded."""
    b, p = CF.sint(base, w), CF.sint(power, w)
    if p == 0:
        return 1
    if p < 0:
        if b == 0:
            return None
        if b == 1:
            return 1
        if b != -1:
            return 0
        return -1 if p & 1 else 1
    return pow(b, p, 1 << w)


class IPowIOp(MathOp):
    """`%r = math.ipowi %base, %power : i32`"""
    name = "math.ipowi"
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(IntLike)
    rhs = Operand(IntLike)
    result = Result(IntLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($result)"

    def fold(self, operands):
        w = CF.width_of(self.result.type)
        return CF.fold_binary(operands, self.result.type, lambda a, b: _ipowi(a, b, w))


# ---------------------------------------------------------------------------- classification


def _is_inf(x):
    """x (a float or Fraction, see CF.exact_key) is an infinity."""
    return x == math.inf or x == -math.inf


def _is_normal(x, t):
    if CF.is_nan(x) or _is_inf(x) or x == 0:
        return False
    bias, kind = D._FMT[t.name][2], D._FMT[t.name][3]
    return kind == "e8m0" or abs(x) >= Fraction(2) ** (1 - bias)


class IsFiniteOp(_Classification):
    """`%r = math.isfinite %a : f32`"""
    name = "math.isfinite"
    test = staticmethod(lambda x, t: not (CF.is_nan(x) or _is_inf(x)))


class IsInfOp(_Classification):
    """`%r = math.isinf %a : f32`"""
    name = "math.isinf"
    test = staticmethod(lambda x, t: _is_inf(x))


class IsNaNOp(_Classification):
    """`%r = math.isnan %a : f32`"""
    name = "math.isnan"
    test = staticmethod(lambda x, t: CF.is_nan(x))


class IsNormalOp(_Classification):
    """`%r = math.isnormal %a : f32`"""
    name = "math.isnormal"
    test = staticmethod(_is_normal)


# ---------------------------------------------------------------------------- registry

OPS = [AbsFOp, AbsIOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanOp, Atan2Op, AtanhOp, CbrtOp,
       CeilOp, ClampFOp, CopySignOp, CosOp, CoshOp, CountLeadingZerosOp, CountTrailingZerosOp,
       CtPopOp, ErfOp, ErfcOp, ExpOp, Exp2Op, ExpM1Op, FloorOp, FmaOp, FPowIOp, IPowIOp,
       IsFiniteOp, IsInfOp, IsNaNOp, IsNormalOp, LogOp, Log10Op, Log1pOp, Log2Op, PowFOp,
       RoundOp, RoundEvenOp, RsqrtOp, SinOp, SincosOp, SinhOp, SqrtOp, TanOp, TanhOp, TruncOp]

for _c in OPS:
    install_format(_c)

MATH = Dialect("math", OPS, materialize_constant=materialize_constant)
