"""Interpreter implementations of the math dialect.

Float functions are evaluated in float64 and rounded once to the result type, so f32,
f16, bf16 and f8 results are (nearly always) the correctly rounded values; f64 uses
NumPy's float64 functions directly.
"""
from __future__ import annotations

import math

import numpy as np

from .core import impl
from .ops_arith import _float_out, _int_out, _rounding_default, _s, _u, _wide
from .values import int_width


def _f64(x):
    x = np.asarray(x)
    return x if x.dtype == np.float64 else x.astype(np.float64)


def _erf(name):
    """erf / erfc: SciPy's when installed, else Python's math module per element."""
    try:
        import scipy.special as sp
        return getattr(sp, name)
    except ImportError:
        return np.vectorize(getattr(math, name), otypes=[np.float64])


def _round_half_away(x):
    t = np.trunc(x)
    r = np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)
    return np.copysign(r, x)


def _rsqrt(x):
    return 1.0 / np.sqrt(x)


_UNARY = {
    "absf": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh, "cbrt": np.cbrt,
    "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "exp": np.exp, "exp2": np.exp2,
    "expm1": np.expm1, "floor": np.floor, "log": np.log, "log10": np.log10,
    "log1p": np.log1p, "log2": np.log2, "round": _round_half_away, "roundeven": np.rint,
    "rsqrt": _rsqrt, "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt, "tan": np.tan,
    "tanh": np.tanh, "trunc": np.trunc,
}
_BINARY = {"atan2": np.arctan2, "copysign": np.copysign, "powf": np.power}


def _unary(name, fn):
    @impl("math." + name)
    def run(interp, op, args):
        return [_float_out(op, fn(_f64(args[0])))]
    return run


def _binary(name, fn):
    @impl("math." + name)
    def run(interp, op, args):
        return [_float_out(op, fn(_f64(args[0]), _f64(args[1])))]
    return run


for _name, _fn in _UNARY.items():
    _unary(_name, _fn)
for _name, _fn in _BINARY.items():
    _binary(_name, _fn)


@impl("math.erf")
def _erf_op(interp, op, args):
    return [_float_out(op, _erf("erf")(_f64(args[0])))]


@impl("math.erfc")
def _erfc_op(interp, op, args):
    return [_float_out(op, _erf("erfc")(_f64(args[0])))]


@impl("math.fma")
def _fma(interp, op, args):
    _rounding_default(op)
    a, b, c = (_f64(v) for v in args)
    return [_float_out(op, a * b + c)]


@impl("math.clampf")
def _clampf(interp, op, args):
    x, lo, hi = (np.asarray(v) for v in args)
    return [_float_out(op, np.minimum(np.maximum(x, lo), hi))]


@impl("math.sincos")
def _sincos(interp, op, args):
    x = _f64(args[0])
    return [_float_out(op, np.sin(x), 0), _float_out(op, np.cos(x), 1)]


@impl("math.fpowi")
def _fpowi(interp, op, args):
    n = _s(args[1], op._operands[1].value.type).astype(np.float64)
    return [_float_out(op, np.power(_f64(args[0]), n))]


@impl("math.isfinite")
def _isfinite(interp, op, args):
    return [_int_out(op, np.isfinite(_f64(args[0])))]


@impl("math.isinf")
def _isinf(interp, op, args):
    return [_int_out(op, np.isinf(_f64(args[0])))]


@impl("math.isnan")
def _isnan(interp, op, args):
    return [_int_out(op, np.isnan(_f64(args[0])))]


@impl("math.isnormal")
def _isnormal(interp, op, args):
    x = np.asarray(args[0])
    from .ops_arith import _tiny
    tiny = np.float64(_tiny(x.dtype))
    a = np.abs(_f64(x))
    return [_int_out(op, np.isfinite(a) & (a >= tiny))]


# ---------------------------------------------------------------- integer ops


@impl("math.absi")
def _absi(interp, op, args):
    t = op._operands[0].value.type
    return [_int_out(op, np.abs(_wide(_s(args[0], t))))]


def _bit_length(u):
    """Number of significant bits of each unsigned integer (0 for 0), vectorized."""
    u = np.asarray(u).astype(np.uint64)
    n = np.zeros(u.shape, np.int64)
    for s in (32, 16, 8, 4, 2, 1):
        big = (u >> np.uint64(s)) != 0
        n += np.where(big, s, 0)
        u = np.where(big, u >> np.uint64(s), u)
    return n + (u != 0)


@impl("math.ctlz")
def _ctlz(interp, op, args):
    t = op._operands[0].value.type
    return [_int_out(op, int_width(t) - _bit_length(_u(args[0], t)))]


@impl("math.cttz")
def _cttz(interp, op, args):
    t = op._operands[0].value.type
    u = _u(args[0], t).astype(np.uint64)
    low = u & (~u + np.uint64(1))  # the lowest set bit
    return [_int_out(op, np.where(u == 0, int_width(t), _bit_length(low) - 1))]


@impl("math.ctpop")
def _ctpop(interp, op, args):
    t = op._operands[0].value.type
    return [_int_out(op, np.bitwise_count(_u(args[0], t)).astype(np.int64))]


@impl("math.ipowi")
def _ipowi(interp, op, args):
    t = op._operands[0].value.type
    base, e = _wide(_s(args[0], t)), _wide(_s(args[1], t))
    base, e = np.broadcast_arrays(base, e)
    result = np.ones(base.shape, np.int64)
    b, n = base.copy(), np.abs(e)
    while np.any(n):  # exponentiation by squaring, wrapping modulo 2**64
        result = np.where(n & 1, result * b, result)
        b = b * b
        n = n >> 1
    # Negative powers: 1 ** -n = 1, (-1) ** -n = +-1, otherwise 0 (as upstream folds).
    neg = np.where(base == 1, 1, np.where(base == -1, np.where(e & 1, -1, 1), 0))
    return [_int_out(op, np.where(e < 0, neg, result))]
