"""Elementwise ONNX ops -> one broadcasting `linalg.generic` each.

Semantics follow the ONNX operator specs (and its NumPy reference where the spec is
loose): integer arithmetic wraps, integer Div truncates toward zero (a zero divisor, or
the minimum divided by -1, is a run-time error naming the node; see [Note: integer
division checks] in _index_check.py), Mod without fmod has the divisor's sign (by zero:
an error too), float Min/Max propagate NaN, BitShift by the bit width or more gives 0.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import element_type, is_float
from . import NotLowerable, lowering
from ._index_check import division_checks
from .common import elementwise, is_unsigned

# ------------------------------------------------------------------ binary arithmetic


def _signed(cx, i=0) -> bool:
    return not is_unsigned(cx.orig_type(i))


def _result_elt(cx, i=0):
    return element_type(cx.result_type(i))


def _bin(name, fn):
    @lowering(name)
    def lower(cx):
        signed = _signed(cx)
        return [elementwise(cx, [cx.operands[0], cx.operands[1]], _result_elt(cx),
                            lambda s, x, y: fn(s, x, y, signed))]
    return lower


_bin("Add", lambda s, x, y, sg: s.add(x, y))
_bin("Sub", lambda s, x, y, sg: s.sub(x, y))
_bin("Mul", lambda s, x, y, sg: s.mul(x, y))

@lowering("Div")
def _div(cx):
    """Integer Div checks its divisor first (see [Note: integer division checks])."""
    signed = _signed(cx)
    division_checks(cx, 0, 1, signed, overflow=True)
    return [elementwise(cx, [cx.operands[0], cx.operands[1]], _result_elt(cx),
                        lambda s, x, y: s.div(x, y, signed))]


_bin("BitwiseAnd", lambda s, x, y, sg: s.and_(x, y))
_bin("BitwiseOr", lambda s, x, y, sg: s.or_(x, y))
_bin("BitwiseXor", lambda s, x, y, sg: s.xor(x, y))
_bin("And", lambda s, x, y, sg: s.and_(x, y))
_bin("Or", lambda s, x, y, sg: s.or_(x, y))
_bin("Xor", lambda s, x, y, sg: s.xor(x, y))


def _cmp(name, pred):
    @lowering(name)
    def lower(cx):
        signed = _signed(cx)
        return [elementwise(cx, [cx.operands[0], cx.operands[1]], A.i1,
                            lambda s, x, y: s.cmp(pred, x, y, signed))]


_cmp("Equal", "eq")
_cmp("Less", "lt")
_cmp("LessOrEqual", "le")
_cmp("Greater", "gt")
_cmp("GreaterOrEqual", "ge")


@lowering("Mod")
def _mod(cx):
    fmod = cx.attr("fmod", 0)
    signed = _signed(cx)
    elt = _result_elt(cx)
    # x mod -1 is 0, also for the minimum (the CPU target's remainder is defined there)
    division_checks(cx, 0, 1, signed, overflow=False)

    def body(s, x, y):
        r = s.rem(x, y, signed)
        if fmod or not signed:
            return r
        # Python-style: a nonzero remainder takes the divisor's sign.
        zero = s.zero(elt)
        fix = s.and_(s.cmp("ne", r, zero), s.xor(s.cmp("lt", r, zero), s.cmp("lt", y, zero)))
        return s.select(fix, s.add(r, y), r)
    return [elementwise(cx, [cx.operands[0], cx.operands[1]], elt, body)]


@lowering("Pow")
def _pow(cx):
    elt = _result_elt(cx)
    yt = element_type(cx.operands[1].type)
    y_signed = _signed(cx, 1)

    def body(s, x, y):
        if is_float(elt):
            return s.math("powf", x, s.cast(y, elt, y_signed))
        if not is_float(yt):
            y2 = s.cast(y, elt, y_signed)
            return s.math("ipowi", x, y2)
        # integer base, float exponent: NumPy computes in double, then converts back
        xf = s.cast(x, A.f64, _signed(cx))
        return s.cast(s.math("powf", xf, s.cast(y, A.f64)), elt, True, _signed(cx))
    return [elementwise(cx, [cx.operands[0], cx.operands[1]], elt, body)]


@lowering("BitShift")
def _bitshift(cx):
    """A shift by a negative amount or by the bit width or more leaves only the sign
    fill: -1 for a right shift of a negative signed value, else 0 (opset 28's text)."""
    left = cx.attr("direction", "") == "LEFT"
    elt = _result_elt(cx)
    signed = _signed(cx)

    def body(s, x, y):
        if left:
            r = s.op1("arith.shli", [x, y], elt)
        else:
            r = s.op1("arith.shrsi" if signed else "arith.shrui", [x, y], elt)
        # unsigned compare: a negative amount is huge, so out of range too
        big = s.cmp("ge", y, s.const(elt.width, elt), signed=False)
        fill = s.zero(elt)
        if signed and not left:
            fill = s.select(s.cmp("lt", x, s.zero(elt)), s.const(-1, elt), fill)
        return s.select(big, fill, r)
    return [elementwise(cx, [cx.operands[0], cx.operands[1]], elt, body)]


# ------------------------------------------------------------------ variadic


def _variadic(name, combine, mean=False):
    @lowering(name)
    def lower(cx):
        elt = _result_elt(cx)
        signed = _signed(cx)
        vals = list(cx.operands)
        if not vals:
            raise NotLowerable("needs at least one input")

        def body(s, *xs):
            acc = xs[0]
            for x in xs[1:]:
                acc = combine(s, acc, x, signed)
            if mean:
                acc = s.div(acc, s.const(len(xs), elt), signed)
            return acc
        return [elementwise(cx, vals, elt, body)]


_variadic("Sum", lambda s, a, b, sg: s.add(a, b))
_variadic("Mean", lambda s, a, b, sg: s.add(a, b), mean=True)
_variadic("Max", lambda s, a, b, sg: s.max(a, b, sg))
_variadic("Min", lambda s, a, b, sg: s.min(a, b, sg))


# ------------------------------------------------------------------ unary


def _unary(name, fn, float_only=False):
    @lowering(name)
    def lower(cx):
        elt = _result_elt(cx)
        if float_only and not is_float(element_type(cx.operands[0].type)):
            raise NotLowerable(f"{name} of {element_type(cx.orig_type(0))} is not supported")
        signed = _signed(cx)
        return [elementwise(cx, [cx.operands[0]], elt, lambda s, x: fn(s, x, signed))]


for _n, _m in [("Exp", "exp"), ("Log", "log"), ("Sqrt", "sqrt"), ("Ceil", "ceil"),
               ("Floor", "floor"), ("Tanh", "tanh"), ("Sin", "sin"), ("Cos", "cos"),
               ("Tan", "tan"), ("Asin", "asin"), ("Acos", "acos"), ("Atan", "atan"),
               ("Sinh", "sinh"), ("Cosh", "cosh"), ("Asinh", "asinh"), ("Acosh", "acosh"),
               ("Atanh", "atanh"), ("Erf", "erf"), ("Round", "roundeven")]:
    _unary(_n, (lambda m: lambda s, x, sg: s.math(m, x))(_m), float_only=True)


def abs_scalar(s, x, signed):
    if is_float(x.type):
        return s.math("absf", x)
    return s.math("absi", x) if signed else x


def sign_scalar(s, x, signed):
    t = x.type
    zero, one = s.zero(t), s.one(t)
    pos = s.select(s.cmp("gt", x, zero, signed), one, zero)
    if not signed:
        return pos
    r = s.select(s.cmp("lt", x, zero, signed), s.neg(one), pos)
    if is_float(t):  # NaN stays NaN
        r = s.select(s.cmp("uno", x, x), x, r)
    return r


_unary("Abs", abs_scalar)
_unary("Neg", lambda s, x, sg: s.neg(x))
_unary("Sign", sign_scalar)
_unary("Reciprocal", lambda s, x, sg: s.div(s.one(x.type), x), float_only=True)
_unary("Sigmoid", lambda s, x, sg: s.div(s.one(x.type), s.add(s.one(x.type),
                                                           s.math("exp", s.neg(x)))),
       float_only=True)
_unary("Not", lambda s, x, sg: s.not_(x))
_unary("BitwiseNot", lambda s, x, sg: s.not_(x))
_unary("IsNaN", lambda s, x, sg: s.cmp("uno", x, x), float_only=True)


@lowering("IsInf")
def _isinf(cx):
    pos, neg = cx.attr("detect_positive", 1), cx.attr("detect_negative", 1)

    def body(s, x):
        t = x.type
        r = s.const(0, A.i1)
        if pos:
            r = s.or_(r, s.cmp("eq", x, s.const(float("inf"), t)))
        if neg:
            r = s.or_(r, s.cmp("eq", x, s.const(float("-inf"), t)))
        return r
    return [elementwise(cx, [cx.operands[0]], A.i1, body)]


@lowering("Where")
def _where(cx):
    c, x, y = cx.operands
    return [elementwise(cx, [c, x, y], _result_elt(cx), lambda s, c, a, b: s.select(c, a, b))]


@lowering("Identity")
def _identity(cx):
    return [cx.operands[0]]


# ------------------------------------------------------------------ Cast


_F8_MAX = {"f8E4M3FN": 448.0, "f8E4M3FNUZ": 240.0, "f8E5M2": 57344.0,
           "f8E5M2FNUZ": 57344.0}


@lowering("Cast")
def _cast(cx):
    src_t, dst_t = cx.orig_type(0), cx.op.results[0].type
    src, dst = element_type(src_t), element_type(dst_t)
    if not isinstance(src, (A.IntegerType, A.FloatType)) or \
            not isinstance(dst, (A.IntegerType, A.FloatType)):
        raise NotLowerable(f"Cast from {src} to {dst} is not supported")
    saturate = cx.attr("saturate", 1)
    from_signed, to_signed = not is_unsigned(src_t), not is_unsigned(dst_t)
    to = _result_elt(cx)
    sat = _F8_MAX.get(getattr(to, "name", ""))
    if getattr(to, "name", "") == "f8E8M0FNU":
        mode = cx.attr("round_mode", "up")
        if mode not in ("up", "nearest", "down"):
            raise NotLowerable(f"Cast round_mode '{mode}'")
        return [elementwise(cx, [cx.operands[0]], to, lambda s, x: _to_e8m0(
            s, s.cast(x, A.f32, from_signed), to, mode, saturate))]

    def body(s, x):
        if sat is not None and saturate and is_float(x.type):
            # saturate: out-of-range finite values and infinities clamp to the largest
            # finite value of the float8 type (NaN stays NaN)
            xf = s.cast(x, A.f32) if x.type.width < 32 else x
            hi = s.const(sat, xf.type)
            lo = s.const(-sat, xf.type)
            clamped = s.op1("arith.minimumf", [s.op1("arith.maximumf", [xf, lo], xf.type), hi],
                            xf.type)
            return s.cast(clamped, to)
        return s.cast(x, to, from_signed, to_signed)
    return [elementwise(cx, [cx.operands[0]], to, body)]


def _to_e8m0(s, x, to, mode, saturate):
    """f32 `x` to f8E8M0FNU (a biased power-of-two exponent) as ONNX's reference does:
    the f32 exponent field, plus one when rounding up (mode `up`: any fraction bit;
    `nearest`: guard bit set and round/sticky/lsb), kept at 0xFE when saturating;
    NaN and infinities give 0xFF."""
    i32 = A.i32
    bits = s.op1("arith.bitcast", [x], i32)

    def c(v):
        return s.const(v, i32)
    exp = s.and_(s.op1("arith.shrui", [bits, c(23)], i32), c(0xFF))
    special = s.cmp("eq", exp, c(0xFF))
    if mode == "down":
        up = None
    elif mode == "up":
        up = s.cmp("ne", s.and_(bits, c(0x7FFFFF)), c(0))
    else:
        guard = s.cmp("ne", s.and_(bits, c(0x400000)), c(0))
        rest = s.cmp("ne", s.and_(bits, c(0x3FFFFF)), c(0))
        lsb = s.cmp("ne", exp, c(0))
        up = s.and_(guard, s.or_(rest, lsb))
    if up is not None:
        if saturate:
            up = s.and_(up, s.cmp("ne", exp, c(0xFE)))
        exp = s.add(exp, s.cast(up, i32, False))
    exp = s.select(special, c(0xFF), exp)
    return s.op1("arith.bitcast", [s.op1("arith.trunci", [exp], A.i8)], to)


# ------------------------------------------------------------------ activations
# Lowered directly (ONNX also defines most of them as functions, but only from the opset
# that introduced the function, and one loop beats the expansion's chain of loops).


def _act(name, fn, **defaults):
    @lowering(name)
    def lower(cx):
        elt = _result_elt(cx)
        a = {k: cx.attr(k, v) for k, v in defaults.items()}
        return [elementwise(cx, [cx.operands[0]], elt, lambda s, x: in_f32(s, x, elt,
                                                                           lambda y: fn(s, y, a)))]


def in_f32(s, x, elt, compute):
    """`compute(x)`, in f32 for the 16-bit float types (one rounding at the end, as
    NumPy-based references compute them), else in the type itself."""
    if is_float(elt) and elt.width < 32:
        return s.cast(compute(s.cast(x, A.f32)), elt)
    return compute(x)


def _c(s, x, v):
    return s.const(v, x.type)


def relu_scalar(s, x, a):
    return s.select(s.cmp("gt", x, s.zero(x.type)), x, s.zero(x.type)) \
        if not is_float(x.type) else s.max(x, s.zero(x.type))


def softplus_scalar(s, x):
    return s.math("log", s.add(s.math("exp", x), s.one(x.type)))


def sigmoid_scalar(s, x):
    return s.div(s.one(x.type), s.add(s.one(x.type), s.math("exp", s.neg(x))))


def hard_sigmoid_scalar(s, x, alpha, beta):
    y = s.add(s.mul(_c(s, x, alpha), x), _c(s, x, beta))
    return s.min(s.max(y, s.zero(x.type)), s.one(x.type))


_act("Relu", relu_scalar)
_act("LeakyRelu", lambda s, x, a: s.select(s.cmp("lt", x, s.zero(x.type)),
                                           s.mul(_c(s, x, a["alpha"]), x), x), alpha=0.01)
_act("Elu", lambda s, x, a: s.select(
    s.cmp("lt", x, s.zero(x.type)),
    s.mul(_c(s, x, a["alpha"]), s.sub(s.math("exp", x), s.one(x.type))), x), alpha=1.0)
_act("Selu", lambda s, x, a: s.select(
    s.cmp("le", x, s.zero(x.type)),
    s.mul(_c(s, x, a["gamma"]), s.sub(s.mul(_c(s, x, a["alpha"]), s.math("exp", x)),
                                      _c(s, x, a["alpha"]))),
    s.mul(_c(s, x, a["gamma"]), x)),
    alpha=1.67326319217681884765625, gamma=1.05070102214813232421875)
_act("Celu", lambda s, x, a: s.add(
    s.max(s.zero(x.type), x),
    s.min(s.zero(x.type), s.mul(_c(s, x, a["alpha"]), s.sub(
        s.math("exp", s.div(x, _c(s, x, a["alpha"]))), s.one(x.type))))), alpha=1.0)
_act("HardSigmoid", lambda s, x, a: hard_sigmoid_scalar(s, x, a["alpha"], a["beta"]),
     alpha=0.2, beta=0.5)
_act("HardSwish", lambda s, x, a: s.mul(x, hard_sigmoid_scalar(s, x, 1.0 / 6.0, 0.5)))
_act("Softplus", lambda s, x, a: softplus_scalar(s, x))
_act("Softsign", lambda s, x, a: s.div(x, s.add(s.one(x.type), s.math("absf", x))))
_act("ThresholdedRelu", lambda s, x, a: s.select(s.cmp("gt", x, _c(s, x, a["alpha"])), x,
                                                 s.zero(x.type)), alpha=1.0)
_act("Mish", lambda s, x, a: s.mul(x, s.math("tanh", softplus_scalar(s, x))))
_act("Swish", lambda s, x, a: s.mul(x, sigmoid_scalar(s, s.mul(_c(s, x, a["alpha"]), x))),
     alpha=1.0)
_act("Shrink", lambda s, x, a: s.select(
    s.cmp("lt", x, _c(s, x, -a["lambd"])), s.add(x, _c(s, x, a["bias"])),
    s.select(s.cmp("gt", x, _c(s, x, a["lambd"])), s.sub(x, _c(s, x, a["bias"])),
             s.zero(x.type))), bias=0.0, lambd=0.5)


def gelu_scalar(s, x, tanh=False):
    """GELU of float scalar `x`: x/2 (1 + erf(x/sqrt 2)), or with `tanh` its tanh
    approximation (ONNX's and PyTorch's `approximate="tanh"`)."""
    half = _c(s, x, 0.5)
    if tanh:
        inner = s.mul(_c(s, x, 0.7978845608028654),
                      s.add(x, s.mul(_c(s, x, 0.044715), s.mul(x, s.mul(x, x)))))
        t = s.math("tanh", inner)
    else:
        t = s.math("erf", s.mul(x, _c(s, x, 0.7071067811865476)))
    return s.mul(s.mul(half, x), s.add(s.one(x.type), t))


@lowering("Gelu")
def _gelu(cx):
    tanh = cx.attr("approximate", "none") == "tanh"
    return [elementwise(cx, [cx.operands[0]], _result_elt(cx),
                        lambda s, x: gelu_scalar(s, x, tanh))]


@lowering("PRelu")
def _prelu(cx):
    return [elementwise(cx, [cx.operands[0], cx.operands[1]], _result_elt(cx),
                        lambda s, x, k: s.select(s.cmp("lt", x, s.zero(x.type)),
                                                 s.mul(k, x), x))]


@lowering("Clip")
def _clip(cx):
    elt = _result_elt(cx)
    signed = _signed(cx)
    vals = [cx.operands[0]]
    lo = hi = None
    if len(cx.op.operands) == 1 and (cx.attr("min") is not None or cx.attr("max") is not None):
        lo, hi = cx.attr("min"), cx.attr("max")  # opset < 11: attributes
    has_lo, has_hi = cx.has_operand(1), cx.has_operand(2)
    if has_lo:
        vals.append(cx.operands[1])
    if has_hi:
        vals.append(cx.operands[2])

    def body(s, x, *bounds):
        bounds = list(bounds)
        low = bounds.pop(0) if has_lo else (s.const(lo, elt) if lo is not None else None)
        high = bounds.pop(0) if has_hi else (s.const(hi, elt) if hi is not None else None)
        y = x
        if low is not None:
            y = s.select(s.cmp("lt", y, low, signed), low, y)
        if high is not None:
            y = s.select(s.cmp("gt", y, high, signed), high, y)
        return y
    return [elementwise(cx, vals, elt, body)]
