"""Interpreter implementations of the arith dialect.

Integers follow [Note: value representation] of values.py: each op reads its operands
signed (`_s`) or unsigned (`_u`) as its semantics say, computes in a NumPy integer type
wide enough, and `wrap`s the result to N bits. Immediate undefined behaviour (integer
division by zero, signed division overflow) is reported; ops whose result is only
poison (shift amounts >= the bit width, out-of-range fptosi) give a fixed value:
0 / the sign fill for shifts, saturation for float-to-int casts.
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .values import (attr_to_value, dtype_of, element_type, int_width, is_unsigned, scalar,
                     to_unsigned, wrap)

_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge",
         "ult", "ule", "une", "uno", "true"]
_RELATION = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
             "gt": np.greater, "ge": np.greater_equal}


def _s(x, t):
    """Signed reading of N-bit integers `x` (int array; i1 true is -1)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return -x.astype(np.int8)
    if is_unsigned(t):
        w = int_width(t)
        return wrap(x, A.IntegerType(w))
    return x


def _u(x, t):
    return to_unsigned(x, int_width(t))


def _int_out(op, x, i=0):
    t = op.results[i].type
    return scalar(wrap(x, t), t)


def _float_out(op, x, i=0):
    t = op.results[i].type
    d = dtype_of(t)
    if not isinstance(x, (np.ndarray, np.generic)):
        x = np.asarray(x)
    if x.dtype != d:
        x = x.astype(d)
    return x[()] if type(x) is np.ndarray and x.ndim == 0 and \
        not isinstance(t, A.ShapedType) else x


@impl("arith.constant")
def _constant(interp, op, args):
    return [attr_to_value(op.properties["value"], op.results[0].type)]


# ---------------------------------------------------------------- integer arithmetic


def _wide(x):
    """Integers in an int64/uint64 container (room for N-bit products up to N = 32)."""
    return x.astype(np.uint64 if x.dtype.kind == "u" else np.int64)


def _int_binary(name, fn, signed=True):
    @impl(name)
    def run(interp, op, args):
        t = op._operands[0].value.type
        read = _s if signed else _u
        return [_int_out(op, fn(_wide(read(args[0], t)), _wide(read(args[1], t))))]
    return run


_int_binary("arith.addi", np.add)
_int_binary("arith.subi", np.subtract)
_int_binary("arith.muli", np.multiply)
_int_binary("arith.andi", np.bitwise_and, signed=False)
_int_binary("arith.ori", np.bitwise_or, signed=False)
_int_binary("arith.xori", np.bitwise_xor, signed=False)
_int_binary("arith.maxsi", np.maximum)
_int_binary("arith.minsi", np.minimum)
_int_binary("arith.maxui", np.maximum, signed=False)
_int_binary("arith.minui", np.minimum, signed=False)


def _divisor(op, b):
    if np.any(b == 0):
        fail(op, "integer division by zero (undefined behaviour)")
    return b


def _signed_div_operands(op, args):
    t = op._operands[0].value.type
    a, b = _wide(_s(args[0], t)), _wide(_s(args[1], t))
    _divisor(op, b)
    w = int_width(t)
    if np.any((a == -(1 << (w - 1))) & (b == -1)):
        fail(op, "signed integer division overflow: minimum value divided by -1 "
                 "(undefined behaviour)")
    return a, b


def _unsigned_div_operands(op, args):
    t = op._operands[0].value.type
    a, b = _u(args[0], t).astype(np.uint64), _u(args[1], t).astype(np.uint64)
    return a, _divisor(op, b)


@impl("arith.divsi")
def _divsi(interp, op, args):
    a, b = _signed_div_operands(op, args)
    q = a // b
    q = q + ((q * b != a) & ((a < 0) != (b < 0)))  # floor -> toward zero
    return [_int_out(op, q)]


@impl("arith.ceildivsi")
def _ceildivsi(interp, op, args):
    a, b = _signed_div_operands(op, args)
    q = a // b
    return [_int_out(op, q + (q * b != a))]


@impl("arith.floordivsi")
def _floordivsi(interp, op, args):
    a, b = _signed_div_operands(op, args)
    return [_int_out(op, a // b)]


@impl("arith.remsi")
def _remsi(interp, op, args):
    t = op._operands[0].value.type
    a, b = _wide(_s(args[0], t)), _wide(_divisor(op, _s(args[1], t)))
    return [_int_out(op, np.fmod(a, np.where(b == -1, 1, b)))]


@impl("arith.divui")
def _divui(interp, op, args):
    a, b = _unsigned_div_operands(op, args)
    return [_int_out(op, a // b)]


@impl("arith.ceildivui")
def _ceildivui(interp, op, args):
    a, b = _unsigned_div_operands(op, args)
    return [_int_out(op, a // b + (a % b != 0))]


@impl("arith.remui")
def _remui(interp, op, args):
    a, b = _unsigned_div_operands(op, args)
    return [_int_out(op, a % b)]


def _shift(name, fn, read):
    @impl(name)
    def run(interp, op, args):
        t = op._operands[0].value.type
        w = int_width(t)
        a = _wide(read(args[0], t))
        n = _u(args[1], t).astype(np.uint64)
        big = n >= w  # poison upstream: 0, or the sign fill for shrsi
        r = fn(a, np.where(big, 0, n).astype(a.dtype))
        if np.any(big):
            fill = np.where(a < 0, -1, 0) if name == "arith.shrsi" else 0
            r = np.where(big, fill, r)
        return [_int_out(op, r)]
    return run


_shift("arith.shli", np.left_shift, _u)
_shift("arith.shrui", np.right_shift, _u)
_shift("arith.shrsi", np.right_shift, _s)


@impl("arith.addui_extended")
def _addui_extended(interp, op, args):
    t = op._operands[0].value.type
    a, b = _u(args[0], t), _u(args[1], t)
    s = to_unsigned(a + b, int_width(t))
    return [_int_out(op, s), _int_out(op, s < a, 1)]


@impl("arith.subui_extended")
def _subui_extended(interp, op, args):
    t = op._operands[0].value.type
    a, b = _u(args[0], t), _u(args[1], t)
    return [_int_out(op, a - b), _int_out(op, a < b, 1)]


def _mul_extended(name, read):
    @impl(name)
    def run(interp, op, args):
        t = op._operands[0].value.type
        w = int_width(t)
        a, b = read(args[0], t), read(args[1], t)
        if w <= 32:
            p = _wide(a) * _wide(b)
            high = p >> np.int64(w) if p.dtype.kind == "i" else p >> np.uint64(w)
            return [_int_out(op, p), _int_out(op, high, 1)]
        # 64-bit products need 128 bits: Python integers (exact, elementwise).
        p = np.asarray(a).astype(object) * np.asarray(b).astype(object)
        mask = (1 << w) - 1
        low = np.vectorize(lambda v: v & mask, otypes=[np.uint64])(p)
        high = np.vectorize(lambda v: (v >> w) & mask, otypes=[np.uint64])(p)
        return [_int_out(op, low), _int_out(op, high, 1)]
    return run


_mul_extended("arith.mulsi_extended", _s)
_mul_extended("arith.mului_extended", _u)


# ---------------------------------------------------------------- floating point


def _rounding_default(op):
    rm = op._props.get("roundingmode")
    if rm is not None and rm.value != 0:
        fail(op, "only the default rounding mode (to_nearest_even) is supported")


def _float_binary(name, fn):
    @impl(name)
    def run(interp, op, args):
        _rounding_default(op)
        return [_float_out(op, fn(args[0], args[1]))]
    return run


def _equal_zeros_pick(a, b, r, prefer_negative):
    """IEEE maximum/minimum order -0 below +0: pick among equal operands by sign."""
    eq = a == b
    if not np.any(eq):
        return r
    neg = np.signbit(a)
    pick = np.where(neg, a, b) if prefer_negative else np.where(neg, b, a)
    return np.where(eq, pick, r)


def _maximumf(a, b):
    return _equal_zeros_pick(a, b, np.maximum(a, b), False)


def _minimumf(a, b):
    return _equal_zeros_pick(a, b, np.minimum(a, b), True)


def _maxnumf(a, b):
    return _equal_zeros_pick(a, b, np.fmax(a, b), False)


def _minnumf(a, b):
    return _equal_zeros_pick(a, b, np.fmin(a, b), True)


_float_binary("arith.addf", np.add)
_float_binary("arith.subf", np.subtract)
_float_binary("arith.mulf", np.multiply)
_float_binary("arith.divf", np.divide)
_float_binary("arith.remf", np.fmod)
_float_binary("arith.maximumf", _maximumf)
_float_binary("arith.minimumf", _minimumf)
_float_binary("arith.maxnumf", _maxnumf)
_float_binary("arith.minnumf", _minnumf)


@impl("arith.negf")
def _negf(interp, op, args):
    return [_float_out(op, np.negative(np.asarray(args[0])))]


def _tiny(d):
    if d.kind == "f":
        return np.finfo(d).tiny
    import ml_dtypes
    return ml_dtypes.finfo(d).smallest_normal


@impl("arith.flush_denormals")
def _flush_denormals(interp, op, args):
    x = np.asarray(args[0])
    sub = (x != 0) & (np.abs(x) < _tiny(x.dtype))
    return [_float_out(op, np.where(sub, np.copysign(np.zeros((), x.dtype), x), x))]


# ---------------------------------------------------------------- casts


@impl("arith.extui")
def _extui(interp, op, args):
    return [_int_out(op, _u(args[0], op._operands[0].value.type))]


@impl("arith.extsi")
def _extsi(interp, op, args):
    return [_int_out(op, _s(args[0], op._operands[0].value.type))]


@impl("arith.trunci")
def _trunci(interp, op, args):
    return [_int_out(op, _u(args[0], op._operands[0].value.type))]


@impl("arith.index_cast")
def _index_cast(interp, op, args):
    return [_int_out(op, _wide(_s(args[0], op._operands[0].value.type)))]


@impl("arith.index_castui")
def _index_castui(interp, op, args):
    return [_int_out(op, _u(args[0], op._operands[0].value.type))]


_ROUNDING = ["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"]


def _step(r, up):
    """The neighbour of each float of `r` above (`up`) or below it, found through the
    bit patterns (sign-magnitude in every float format; zero steps to the smallest)."""
    u = np.dtype("uint%d" % (r.dtype.itemsize * 8))
    bits = r.view(u)
    neg = np.signbit(r.astype(np.float64))
    one = u.type(1)
    away = neg != up  # moving away from zero: the magnitude grows
    stepped = np.where(away, bits + one, bits - one)
    zero = r.astype(np.float64) == 0
    if np.any(zero):
        sign = u.type(1 << (u.itemsize * 8 - 1))
        stepped = np.where(zero, np.where(up, one, sign | one), stepped)
    return stepped.astype(u).view(r.dtype)


def _round_to(x, d, mode):
    """`x` converted to float dtype `d`, rounded as `mode` says."""
    r = np.asarray(x.astype(d))
    if d.name == "float8_e8m0fnu":  # no zero: APFloat gives the smallest value, 2**-127
        r = np.where(np.asarray(x) == 0, np.zeros(r.shape, np.uint8).view(d), r)
    if mode == "to_nearest_even":
        return r
    xx, back = np.asarray(x).astype(np.float64), r.astype(np.float64)
    if mode == "downward":
        return np.where(back > xx, _step(r, False), r)
    if mode == "upward":
        return np.where(back < xx, _step(r, True), r)
    if mode == "toward_zero":
        return np.where(np.abs(back) > np.abs(xx), _step(r, back < 0), r)
    # to_nearest_away: at a tie, the neighbour of larger magnitude
    other = np.where(back < xx, _step(r, True), _step(r, False))
    ob = other.astype(np.float64)
    tie = (np.abs(ob - xx) == np.abs(back - xx)) & (back != xx) & (np.abs(ob) > np.abs(back))
    return np.where(tie, other, r)


@impl("arith.extf", "arith.truncf", "arith.convertf")
def _float_cast(interp, op, args):
    d = dtype_of(op.results[0].type)
    rm = op.properties.get("roundingmode")
    mode = _ROUNDING[rm.value] if rm is not None else "to_nearest_even"
    return [_float_out(op, _round_to(np.asarray(args[0]), d, mode))]


@impl("arith.scaling_extf")
def _scaling_extf(interp, op, args):
    d = dtype_of(op.results[0].type)
    return [_float_out(op, np.asarray(args[0]).astype(d) * np.asarray(args[1]).astype(d))]


@impl("arith.scaling_truncf")
def _scaling_truncf(interp, op, args):
    x = np.asarray(args[0]).astype(np.float64) / np.asarray(args[1]).astype(np.float64)
    return [_float_out(op, x)]


@impl("arith.sitofp")
def _sitofp(interp, op, args):
    return [_float_out(op, _s(args[0], op._operands[0].value.type))]


@impl("arith.uitofp")
def _uitofp(interp, op, args):
    return [_float_out(op, _u(args[0], op._operands[0].value.type))]


def _fp_to_int(op, x, lo, hi):
    """Saturating float -> int (NaN -> 0): the poison cases get a fixed value."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float32)
    x = np.trunc(x.astype(np.float64))
    nan = np.isnan(x)
    low, high = x <= lo, x >= hi
    safe = np.where(nan | low | high, 0, x).astype(np.int64 if lo < 0 else np.uint64)
    out = np.where(high, hi, np.where(low, lo, safe))
    return _int_out(op, np.asarray(out).astype(np.int64 if lo < 0 else np.uint64))


@impl("arith.fptosi")
def _fptosi(interp, op, args):
    w = int_width(op.results[0].type)
    return [_fp_to_int(op, args[0], -(1 << (w - 1)), (1 << (w - 1)) - 1)]


@impl("arith.fptoui")
def _fptoui(interp, op, args):
    w = int_width(op.results[0].type)
    return [_fp_to_int(op, args[0], 0, (1 << w) - 1)]


def _bits(x, t):
    """The raw bit patterns of values `x` of type `t` as unsigned integers."""
    et = element_type(t)
    if isinstance(et, (A.IntegerType, A.IndexType)):
        return _u(x, t)
    x = np.asarray(x)
    return x.view(np.dtype("uint%d" % (x.dtype.itemsize * 8)))


@impl("arith.bitcast")
def _bitcast(interp, op, args):
    t = op.results[0].type
    bits = _bits(args[0], op._operands[0].value.type)
    if isinstance(element_type(t), (A.IntegerType, A.IndexType)):
        return [_int_out(op, bits)]
    d = dtype_of(t)
    return [scalar(bits.astype(np.dtype("uint%d" % (d.itemsize * 8))).view(d), t)]


# ---------------------------------------------------------------- comparisons, select


@impl("arith.cmpi")
def _cmpi(interp, op, args):
    pred = _CMPI[op.properties["predicate"].value]
    t = op._operands[0].value.type
    if pred in ("eq", "ne"):
        a, b = _u(args[0], t), _u(args[1], t)
        rel = pred
    elif pred[0] == "s":
        a, b, rel = _s(args[0], t), _s(args[1], t), pred[1:]
    else:
        a, b, rel = _u(args[0], t), _u(args[1], t), pred[1:]
    return [scalar(_RELATION[rel](a, b), op.results[0].type)]


@impl("arith.cmpf")
def _cmpf(interp, op, args):
    pred = _CMPF[op.properties["predicate"].value]
    a, b = np.asarray(args[0]), np.asarray(args[1])
    t = op.results[0].type
    shape = np.broadcast_shapes(a.shape, b.shape)
    if pred in ("false", "true"):
        return [scalar(np.full(shape, pred == "true"), t)]
    unordered = np.isnan(a) | np.isnan(b)
    if pred == "ord":
        return [scalar(~unordered, t)]
    if pred == "uno":
        return [scalar(unordered, t)]
    rel = pred[1:]
    if rel == "ne":
        r = a != b
    else:
        r = _RELATION[rel](a, b)
    r = (r | unordered) if pred[0] == "u" else (r & ~unordered)
    return [scalar(r, t)]


@impl("arith.select")
def _select(interp, op, args):
    c, a, b = args
    if not isinstance(c, np.ndarray) or c.ndim == 0:
        return [a if bool(c) else b]
    r = np.where(c, a, b)
    return [scalar(r, op.results[0].type)]
