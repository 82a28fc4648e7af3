"""Interpreter implementations of the tosa dialect, after the TOSA 1.0 specification's
pseudo-code (the reference that tosa-to-linalg is checked against).

Values are NumPy arrays as everywhere (values.py); a `!tosa.shape<N>` is an int64 array
of N dims. Integer tensors are signed unless an op says otherwise (rescale's
`input_unsigned`); arithmetic wraps to the element width; float ops compute in the
element type. Zero points are rank-1 constant tensors read at index 0.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .values import attr_to_value, dtype_of, element_type, wrap

# ---------------------------------------------------------------- helpers


def _rt(op, i=0):
    return op.results[i].type


def _et(op, i=0):
    return element_type(_rt(op, i))


def _is_float(t) -> bool:
    return type(element_type(t)) is A.FloatType


def _out(op, x, i=0):
    """`x` as a value of result `i`'s type: integers wrapped, floats converted."""
    t = _rt(op, i)
    et = element_type(t)
    x = np.asarray(x)
    if type(et) is A.IntegerType and et.width > 1:
        if x.dtype.kind == "f":
            x = x.astype(np.int64)
        return np.asarray(wrap(x, et))
    return x.astype(dtype_of(et))


def _wide(x):
    """Integers in int64 (bools as 0/1), floats as they are."""
    x = np.asarray(x)
    return x.astype(np.int64) if x.dtype.kind in "biu" else x


def _zp(v):
    return _wide(np.asarray(v).reshape(-1)[0])[()]


def _floating(x) -> bool:
    """Float arrays, including ml_dtypes ones (bfloat16, f8: kind 'V')."""
    return x.dtype.kind in "fV"


def _ignore(op) -> bool:
    m = op.properties.get("nan_mode")
    return m is not None and m.value == "IGNORE"


def _limits(et, unsigned=False):
    w = et.width
    if unsigned:
        return 0, (1 << w) - 1
    return -(1 << (w - 1)), (1 << (w - 1)) - 1


def _clip_int(x, et, unsigned=False):
    lo, hi = _limits(et, unsigned)
    return np.clip(x, lo, hi)


# ---------------------------------------------------------------- data nodes


@impl("tosa.const")
def _const(interp, op, args):
    return [attr_to_value(op.properties["values"], _rt(op))]


@impl("tosa.const_shape")
def _const_shape(interp, op, args):
    return [np.asarray(op.properties["values"].array, dtype=np.int64).reshape(-1)]


@impl("tosa.identity")
def _identity(interp, op, args):
    return [args[0]]


# ---------------------------------------------------------------- elementwise


def _unary(name, fn):
    @impl(name)
    def run(interp, op, args):
        return [_out(op, fn(op, args[0]))]


_unary("tosa.abs", lambda op, x: np.abs(x) if _floating(x) else np.abs(_wide(x)))
_unary("tosa.ceil", lambda op, x: np.ceil(x))
_unary("tosa.floor", lambda op, x: np.floor(x))
_unary("tosa.exp", lambda op, x: np.exp(x))
_unary("tosa.log", lambda op, x: np.log(x))
_unary("tosa.sin", lambda op, x: np.sin(x))
_unary("tosa.cos", lambda op, x: np.cos(x))
_unary("tosa.tanh", lambda op, x: np.tanh(x))
_unary("tosa.reciprocal", lambda op, x: np.asarray(1, x.dtype) / x)
_unary("tosa.rsqrt", lambda op, x: np.asarray(1, x.dtype) / np.sqrt(x))
_unary("tosa.sigmoid", lambda op, x: np.asarray(1, x.dtype) / (np.asarray(1, x.dtype) +
                                                                np.exp(-x)))
_unary("tosa.erf", lambda op, x: np.vectorize(math.erf, otypes=[x.dtype])(x)
       if x.size else x)
_unary("tosa.bitwise_not", lambda op, x: ~_wide(x))
_unary("tosa.logical_not", lambda op, x: np.logical_not(x))


@impl("tosa.clz")
def _clz(interp, op, args):
    et = _et(op)
    w = et.width
    u = _wide(args[0]) & ((1 << w) - 1)
    out = np.full(u.shape, w, dtype=np.int64)
    for bit in range(w):
        hit = (u >> (w - 1 - bit)) & 1
        out = np.where((out == w) & (hit == 1), bit, out)
    return [_out(op, out)]


@impl("tosa.negate")
def _negate(interp, op, args):
    x, izp, ozp = args
    if _is_float(_rt(op)):
        return [_out(op, -x)]
    et = _et(op)
    return [_out(op, _clip_int(_zp(ozp) - (_wide(x) - _zp(izp)), et))]


def _binary(name, fn):
    @impl(name)
    def run(interp, op, args):
        return [_out(op, fn(op, args[0], args[1]))]


_binary("tosa.add", lambda op, a, b: _wide(a) + _wide(b))
_binary("tosa.sub", lambda op, a, b: _wide(a) - _wide(b))
_binary("tosa.pow", lambda op, a, b: np.power(a, b))
_binary("tosa.bitwise_and", lambda op, a, b: _wide(a) & _wide(b))
_binary("tosa.bitwise_or", lambda op, a, b: _wide(a) | _wide(b))
_binary("tosa.bitwise_xor", lambda op, a, b: _wide(a) ^ _wide(b))
_binary("tosa.logical_and", lambda op, a, b: np.logical_and(a, b))
_binary("tosa.logical_or", lambda op, a, b: np.logical_or(a, b))
_binary("tosa.logical_xor", lambda op, a, b: np.logical_xor(a, b))
_binary("tosa.equal", lambda op, a, b: a == b)
_binary("tosa.greater", lambda op, a, b: a > b)
_binary("tosa.greater_equal", lambda op, a, b: a >= b)


def _unsigned(x, et):
    return _wide(x) & ((1 << et.width) - 1)


_binary("tosa.logical_left_shift", lambda op, a, b: _wide(a) << (_wide(b) & 63))
_binary("tosa.logical_right_shift",
        lambda op, a, b: _unsigned(a, _et(op)) >> (_wide(b) & 63))


@impl("tosa.arithmetic_right_shift")
def _ashr(interp, op, args):
    a, b = _wide(args[0]), _wide(args[1]) & 63
    r = a >> b
    if op.properties["round"].value:
        r = r + np.where(b > 0, (a >> np.maximum(b - 1, 0)) & 1, 0)
    return [_out(op, r)]


@impl("tosa.intdiv")
def _intdiv(interp, op, args):
    a, b = _wide(args[0]), _wide(args[1])
    if np.any(b == 0):
        fail(op, "integer division by zero")
    q = np.abs(a) // np.abs(b)
    return [_out(op, np.where((a < 0) != (b < 0), -q, q))]


def _minmax(name, is_max):
    @impl(name)
    def run(interp, op, args):
        a, b = args
        if _is_float(_rt(op)):
            if _ignore(op):
                fn = np.fmax if is_max else np.fmin
            else:
                fn = np.maximum if is_max else np.minimum
            return [_out(op, fn(a, b))]
        return [_out(op, (np.maximum if is_max else np.minimum)(_wide(a), _wide(b)))]


_minmax("tosa.maximum", True)
_minmax("tosa.minimum", False)


@impl("tosa.mul")
def _mul(interp, op, args):
    a, b, shift = args
    if _is_float(_rt(op)):
        return [_out(op, a * b)]
    s = int(_zp(shift))
    p = _wide(a) * _wide(b)
    if s > 0:
        p = (p + (1 << (s - 1))) >> s
    return [_out(op, p)]


@impl("tosa.select")
def _select(interp, op, args):
    return [_out(op, np.where(args[0], args[1], args[2]))]


@impl("tosa.clamp")
def _clamp(interp, op, args):
    x = args[0]
    lo, hi = op.properties["min_val"].value, op.properties["max_val"].value
    if _is_float(_rt(op)):
        lo, hi = np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)
        if _ignore(op):
            return [_out(op, np.fmax(np.fmin(x, hi), lo))]
        return [_out(op, np.maximum(np.minimum(x, hi), lo))]
    return [_out(op, np.clip(_wide(x), lo, hi))]


@impl("tosa.cast")
def _cast(interp, op, args):
    x = args[0]
    to = _et(op)
    if type(to) is A.IntegerType and to.width == 1:
        return [np.asarray(x != 0)]
    if type(to) is A.FloatType:
        src = x
        u = op.properties.get("input_unsigned")
        if u is not None and u.value and x.dtype.kind in "iu":
            src = _unsigned(x, element_type(op.operands[0].type))
        return [np.asarray(src).astype(np.float64).astype(dtype_of(to))]
    if _floating(x):
        r = np.rint(np.asarray(x, dtype=np.float64))
        lo, hi = _limits(to)
        r = np.nan_to_num(np.clip(r, lo, hi), nan=0)
        return [_out(op, r.astype(np.int64))]
    return [_out(op, _wide(x))]


@impl("tosa.table")
def _table(interp, op, args):
    x, table = _wide(args[0]), _wide(args[1])
    et = element_type(op.operands[0].type)
    if et.width == 8:
        return [_out(op, table[x + 128])]
    if et.width == 16:
        idx = x + 32768
        base, frac = idx >> 7, idx & 0x7F
        lo = table[base]
        hi = table[np.minimum(base + 1, len(table) - 1)]
        return [_out(op, (lo << 7) + (hi - lo) * frac)]
    fail(op, f"table of {et} values")


def _apply_scale(value, mult, shift, double_round, scale32=True):
    """TOSA apply_scale_32 / apply_scale_16 in int64 (object ints where they may
    overflow)."""
    value = np.asarray(value, dtype=object)
    mult = np.asarray(mult, dtype=object)
    shift = np.asarray(shift, dtype=object)
    rnd = np.vectorize(lambda s: 1 << (int(s) - 1) if s > 0 else 0, otypes=[object])(shift)
    if scale32 and double_round:
        adj = np.where(shift > 31, np.where(value >= 0, 1 << 30, -(1 << 30)), 0)
        rnd = rnd + adj
    prod = value * mult + rnd
    return np.vectorize(lambda p, s: int(p) >> int(s), otypes=[object])(prod, shift)


@impl("tosa.rescale")
def _rescale(interp, op, args):
    x, mult, shift, izp, ozp = args
    p = op.properties
    in_t = element_type(op.operands[0].type)
    out_t = _et(op)
    iu, ou = p["input_unsigned"].value, p["output_unsigned"].value
    v = _unsigned(x, in_t) if iu else _wide(x)
    izp_v = int(_zp(izp)) & ((1 << in_t.width) - 1) if iu else int(_zp(izp))
    ozp_v = int(_zp(ozp)) & ((1 << out_t.width) - 1) if ou else int(_zp(ozp))
    v = v - izp_v
    m, s = _wide(mult), _wide(shift)
    if not p["per_channel"].value:
        m, s = m.reshape(-1)[0], s.reshape(-1)[0]
    double = p["rounding_mode"].value == "DOUBLE_ROUND"
    r = _apply_scale(v, m, s, double, p["scale32"].value)
    r = np.asarray(r + ozp_v, dtype=object)
    lo, hi = _limits(out_t, ou)
    r = np.clip(r, lo, hi).astype(np.int64)
    return [_out(op, r)]


@impl("tosa.apply_scale")
def _apply_scale_op(interp, op, args):
    v, m, s = args
    double = op.properties["rounding_mode"].value == "DOUBLE_ROUND"
    r = _apply_scale(_wide(v), _wide(m), _wide(s), double)
    r = np.asarray(r, dtype=object).astype(np.int64)
    if isinstance(_rt(op), A.ShapedType):
        return [_out(op, r)]
    return [dtype_of(_rt(op)).type(wrap(np.asarray(r), _rt(op)))]


# ---------------------------------------------------------------- reductions


def _reduce(name, fn):
    @impl(name)
    def run(interp, op, args):
        x = args[0]
        axis = op.properties["axis"].value
        if x.ndim == 0:
            return [x]
        return [_out(op, fn(op, x, axis))]


_reduce("tosa.reduce_sum", lambda op, x, a: np.sum(_wide(x), axis=a, keepdims=True,
                                                   dtype=None if x.dtype.kind == "f"
                                                   else np.int64))
_reduce("tosa.reduce_product", lambda op, x, a: np.prod(_wide(x), axis=a, keepdims=True))
_reduce("tosa.reduce_all", lambda op, x, a: np.all(x, axis=a, keepdims=True))
_reduce("tosa.reduce_any", lambda op, x, a: np.any(x, axis=a, keepdims=True))


def _nan_reduce(op, x, axis, fn, nanfn):
    if not _floating(x) or not _ignore(op):
        return fn(x, axis=axis, keepdims=True)
    allnan = np.all(np.isnan(x), axis=axis, keepdims=True)
    filled = np.where(np.isnan(x), np.asarray(-np.inf if fn is np.max else np.inf, x.dtype),
                      x)
    r = fn(filled, axis=axis, keepdims=True)
    return np.where(allnan, np.asarray(np.nan, x.dtype), r)


_reduce("tosa.reduce_max", lambda op, x, a: _nan_reduce(op, x, a, np.max, np.nanmax))
_reduce("tosa.reduce_min", lambda op, x, a: _nan_reduce(op, x, a, np.min, np.nanmin))


@impl("tosa.argmax")
def _argmax(interp, op, args):
    x = args[0]
    axis = op.properties["axis"].value
    if _floating(x):
        xf = np.asarray(x, dtype=np.float64)
        isnan = np.isnan(xf)
        if _ignore(op):
            filled = np.where(isnan, -np.inf, xf)
            r = np.argmax(filled, axis=axis)
            r = np.where(np.all(isnan, axis=axis), 0, r)
        else:
            r = np.where(np.any(isnan, axis=axis), np.argmax(isnan, axis=axis),
                         np.argmax(xf, axis=axis))
    else:
        r = np.argmax(_wide(x), axis=axis)
    return [_out(op, r)]


# ---------------------------------------------------------------- data layout


def _shape(v):
    return [int(d) for d in np.asarray(v).reshape(-1)]


# ---------------------------------------------------------------- shape operators

_SHAPE_BINARY = {
    "add_shape": lambda a, b: a + b, "sub_shape": lambda a, b: a - b,
    "mul_shape": lambda a, b: a * b, "max_shape": np.maximum, "min_shape": np.minimum,
    "div_floor_shape": lambda a, b: a // b, "div_ceil_shape": lambda a, b: -(-a // b),
    "mod_shape": lambda a, b: a % b,
}


def _shape_binary(name, fn):
    def run(interp, op, args):
        a, b = (np.asarray(x, dtype=np.int64) for x in args)
        if name.startswith(("div", "mod")) and (b == 0).any():
            fail(op, "division by zero")
        return [np.asarray(fn(a, b), dtype=np.int64)]
    return run


for _n, _fn in _SHAPE_BINARY.items():
    impl(f"tosa.{_n}")(_shape_binary(_n, _fn))


def _log2(op, x, ceil):
    if (x <= 0).any():
        fail(op, "logarithm of a non-positive dim")
    return [np.asarray([(int(v) - 1).bit_length() if ceil else int(v).bit_length() - 1
                        for v in x], dtype=np.int64)]


@impl("tosa.exp2_shape")
def _exp2_shape(interp, op, args):
    return [np.asarray([1 << int(v) for v in args[0]], dtype=np.int64)]


@impl("tosa.log2_ceil_shape")
def _log2_ceil_shape(interp, op, args):
    return _log2(op, np.asarray(args[0]), True)


@impl("tosa.log2_floor_shape")
def _log2_floor_shape(interp, op, args):
    return _log2(op, np.asarray(args[0]), False)


@impl("tosa.concat_shape")
def _concat_shape(interp, op, args):
    return [np.concatenate([np.asarray(a, dtype=np.int64).reshape(-1) for a in args])]


@impl("tosa.slice_shape")
def _slice_shape(interp, op, args):
    start, size = int(args[1].reshape(-1)[0]), int(args[2].reshape(-1)[0])
    return [np.asarray(args[0][start:start + size], dtype=np.int64)]


@impl("tosa.dim")
def _dim(interp, op, args):
    return [np.asarray([np.shape(args[0])[op.properties["axis"].value]], dtype=np.int64)]


@impl("tosa.assert_equal_shape")
def _assert_equal_shape(interp, op, args):
    a, b = (np.asarray(x, dtype=np.int64) for x in args)
    ok = (a == b) | ((a == 1) | (b == 1) if op.properties["allow_broadcast"].value else False)
    if not ok.all():
        fail(op, f"shapes {_shape(a)} and {_shape(b)} differ")
    return []


@impl("tosa.reshape")
def _reshape(interp, op, args):
    return [args[0].reshape(_shape(args[1]))]


@impl("tosa.transpose")
def _transpose(interp, op, args):
    return [np.ascontiguousarray(np.transpose(args[0], list(op.properties["perms"].value)))]


@impl("tosa.slice")
def _slice(interp, op, args):
    x = args[0]
    start, size = _shape(args[1]), _shape(args[2])
    idx = tuple(slice(s, x.shape[i] if n == -1 else s + n)
                for i, (s, n) in enumerate(zip(start, size)))
    return [np.ascontiguousarray(x[idx])]


@impl("tosa.pad")
def _pad(interp, op, args):
    x, pads, pc = args
    p = _shape(pads)
    return [np.pad(x, [(p[2 * i], p[2 * i + 1]) for i in range(x.ndim)],
                   constant_values=np.asarray(pc).reshape(-1)[0])]


@impl("tosa.concat")
def _concat(interp, op, args):
    return [np.concatenate(args, axis=op.properties["axis"].value)]


@impl("tosa.tile")
def _tile(interp, op, args):
    return [np.tile(args[0], _shape(args[1]))]


@impl("tosa.reverse")
def _reverse(interp, op, args):
    return [np.ascontiguousarray(np.flip(args[0], axis=op.properties["axis"].value))]


@impl("tosa.gather")
def _gather(interp, op, args):
    values, idx = args[0], _wide(args[1])
    k = values.shape[1]
    if np.any((idx < 0) | (idx >= k)):
        fail(op, "gather index out of range")
    n = np.arange(values.shape[0])[:, None]
    return [values[n, idx, :]]


@impl("tosa.scatter")
def _scatter(interp, op, args):
    values, idx, inp = args[0], _wide(args[1]), args[2]
    out = values.copy()
    for n in range(idx.shape[0]):
        if len(set(idx[n].tolist())) != idx.shape[1]:
            fail(op, "scatter writes one index twice")
        out[n, idx[n], :] = inp[n]
    return [out]


# ---------------------------------------------------------------- matmul, convolutions


def _acc_dtype(op):
    et = _et(op)
    return np.int64 if type(et) is A.IntegerType else dtype_of(et)


@impl("tosa.matmul")
def _matmul(interp, op, args):
    a, b, azp, bzp = args
    d = _acc_dtype(op)
    a = _wide(a) - _zp(azp)
    b = _wide(b) - _zp(bzp)
    return [_out(op, np.matmul(a.astype(d), b.astype(d)))]


def _pad_spatial(x, pads, value):
    n = len(pads) // 2
    widths = [(0, 0)] + [(pads[2 * i], pads[2 * i + 1]) for i in range(n)] + [(0, 0)]
    return np.pad(x, widths, constant_values=value)


def _windows(x, kernel, stride, dilation):
    """For each kernel offset, the strided view of the (padded) input it multiplies:
    yields (kernel index tuple, array [N, *out_spatial, C])."""
    n = len(kernel)
    spatial = x.shape[1:1 + n]
    out = [(spatial[i] - (kernel[i] - 1) * dilation[i] - 1) // stride[i] + 1 for i in range(n)]
    for k in np.ndindex(*kernel):
        idx = [slice(None)]
        for i in range(n):
            s = k[i] * dilation[i]
            idx.append(slice(s, s + (out[i] - 1) * stride[i] + 1, stride[i]))
        idx.append(slice(None))
        yield k, x[tuple(idx)]


def _conv(op, args, spatial):
    x, w, bias, izp, wzp = args
    p = op.properties
    d = _acc_dtype(op)
    xw = _pad_spatial(_wide(x) - _zp(izp), list(p["pad"].value), 0).astype(d)
    wv = (_wide(w) - _zp(wzp)).astype(d)
    acc = None
    kernel = wv.shape[1:1 + spatial]
    for k, view in _windows(xw, kernel, list(p["stride"].value), list(p["dilation"].value)):
        term = np.tensordot(view, wv[(slice(None),) + k + (slice(None),)], axes=([-1], [-1]))
        acc = term if acc is None else acc + term
    return _out(op, acc + _wide(bias).astype(d))


@impl("tosa.conv2d")
def _conv2d(interp, op, args):
    return [_conv(op, args, 2)]


@impl("tosa.conv3d")
def _conv3d(interp, op, args):
    return [_conv(op, args, 3)]


@impl("tosa.depthwise_conv2d")
def _depthwise(interp, op, args):
    x, w, bias, izp, wzp = args
    p = op.properties
    d = _acc_dtype(op)
    xw = _pad_spatial(_wide(x) - _zp(izp), list(p["pad"].value), 0).astype(d)
    wv = (_wide(w) - _zp(wzp)).astype(d)          # [KH, KW, C, M]
    acc = None
    for k, view in _windows(xw, wv.shape[:2], list(p["stride"].value),
                            list(p["dilation"].value)):
        term = view[..., :, None] * wv[k]           # [N, OH, OW, C, M]
        acc = term if acc is None else acc + term
    acc = acc.reshape(acc.shape[:3] + (-1,))
    return [_out(op, acc + _wide(bias).astype(d))]


@impl("tosa.transpose_conv2d")
def _transpose_conv(interp, op, args):
    x, w, bias, izp, wzp = args
    p = op.properties
    d = _acc_dtype(op)
    xv = (_wide(x) - _zp(izp)).astype(d)
    wv = (_wide(w) - _zp(wzp)).astype(d)          # [OC, KH, KW, IC]
    pt, pb, pl, pr = p["out_pad"].value
    sy, sx = p["stride"].value
    n, ih, iw, _ = xv.shape
    oc, kh, kw, _ = wv.shape
    oh, ow = _rt(op).shape[1], _rt(op).shape[2]
    out = np.zeros((n, oh, ow, oc), dtype=d) + _wide(bias).astype(d)
    for ky in range(kh):
        for kx in range(kw):
            contrib = np.tensordot(xv, wv[:, ky, kx, :], axes=([-1], [-1]))
            for iy in range(ih):
                oy = iy * sy + pt + ky
                if not 0 <= oy < oh:
                    continue
                for ix in range(iw):
                    ox = ix * sx + pl + kx
                    if 0 <= ox < ow:
                        out[:, oy, ox, :] += contrib[:, iy, ix, :]
    return [_out(op, out)]


@impl("tosa.max_pool2d")
def _max_pool(interp, op, args):
    x = args[0]
    p = op.properties
    low = -np.inf if _floating(x) else np.iinfo(x.dtype).min
    xp = _pad_spatial(x, list(p["pad"].value), low)
    best = None
    maxf = np.fmax if _ignore(op) else np.maximum
    for _, view in _windows(xp, list(p["kernel"].value), list(p["stride"].value), [1, 1]):
        best = view if best is None else maxf(best, view)
    return [_out(op, best)]


@impl("tosa.avg_pool2d")
def _avg_pool(interp, op, args):
    x, izp, ozp = args
    p = op.properties
    if not _floating(x):
        fail(op, "integer avg_pool2d is not implemented")
    acc_t = dtype_of(p["acc_type"].value)
    pads = list(p["pad"].value)
    xp = _pad_spatial(x.astype(acc_t), pads, 0)
    ones = _pad_spatial(np.ones(x.shape[:3] + (1,), acc_t), pads, 0)
    total = count = None
    kernel, stride = list(p["kernel"].value), list(p["stride"].value)
    for (_, view), (_, c) in zip(_windows(xp, kernel, stride, [1, 1]),
                                 _windows(ones, kernel, stride, [1, 1])):
        total = view if total is None else total + view
        count = c if count is None else count + c
    return [_out(op, total / count)]


@impl("tosa.fft2d")
def _fft2d(interp, op, args):
    """Unnormalized DFT over the last two dims: e^-ia forward, e^+ia inverse."""
    z = args[0].astype(np.float64) + 1j * args[1].astype(np.float64)
    if op.properties["inverse"].value:
        r = np.fft.ifft2(z) * (z.shape[-1] * z.shape[-2])
    else:
        r = np.fft.fft2(z)
    return [_out(op, r.real, 0), _out(op, r.imag, 1)]


@impl("tosa.rfft2d")
def _rfft2d(interp, op, args):
    r = np.fft.rfft2(args[0].astype(np.float64))
    return [_out(op, r.real, 0), _out(op, r.imag, 1)]


# ---------------------------------------------------------------- image


@impl("tosa.resize")
def _resize(interp, op, args):
    x, scale, offset, border = args
    yn, yd, xn, xd = _shape(scale)
    oy_, ox_ = _shape(offset)
    bilinear = op.properties["mode"].value == "BILINEAR"
    n, ih, iw, c = x.shape
    rt = _rt(op)
    oh, ow = rt.shape[1], rt.shape[2]
    is_f = _floating(x)
    out = np.zeros((n, oh, ow, c), dtype=np.float64 if is_f else np.int64)
    xv = x.astype(np.float64) if is_f else _wide(x)

    def coord(o, d, off, num, size):
        v = o * d + off
        i = v // num
        frac = (v / num - i) if is_f else v - i * num
        return i, frac

    for y in range(oh):
        iy, dy = coord(y, yd, oy_, yn, ih)
        for xx in range(ow):
            ix, dx = coord(xx, xd, ox_, xn, iw)
            if bilinear:
                y0, y1 = min(max(iy, 0), ih - 1), min(max(iy + 1, 0), ih - 1)
                x0, x1 = min(max(ix, 0), iw - 1), min(max(ix + 1, 0), iw - 1)
                if is_f:
                    v = (xv[:, y0, x0] * (1 - dy) * (1 - dx) + xv[:, y0, x1] * (1 - dy) * dx +
                         xv[:, y1, x0] * dy * (1 - dx) + xv[:, y1, x1] * dy * dx)
                else:
                    v = (xv[:, y0, x0] * (yn - dy) * (xn - dx) + xv[:, y0, x1] * (yn - dy) * dx
                         + xv[:, y1, x0] * dy * (xn - dx) + xv[:, y1, x1] * dy * dx)
            else:
                ny = iy + (1 if (dy >= 0.5 if is_f else 2 * dy >= yn) else 0)
                nx = ix + (1 if (dx >= 0.5 if is_f else 2 * dx >= xn) else 0)
                v = xv[:, min(max(ny, 0), ih - 1), min(max(nx, 0), iw - 1)]
            out[:, y, xx] = v
    return [_out(op, out)]


# ---------------------------------------------------------------- control flow, state


@impl("tosa.cond_if")
def _cond_if(interp, op, args):
    cond = bool(np.asarray(args[0]).reshape(-1)[0])
    return interp.run_region(op.regions[0 if cond else 1], list(args[1:]))


@impl("tosa.while_loop")
def _while(interp, op, args):
    values = list(args)
    for _ in range(1 << 24):
        c = interp.run_region(op.regions[0], values)
        if not bool(np.asarray(c[0]).reshape(-1)[0]):
            return values
        values = interp.run_region(op.regions[1], values)
    fail(op, "loop did not terminate")


def _variable(interp, op):
    name = op.properties["name"].value
    key = ("tosa.variable", name)
    if key not in interp.globals:
        var = interp.lookup(name)
        if var is None or var.name != "tosa.variable":
            fail(op, f"no tosa.variable @{name}")
        from ..dialects.tosa.control import variable_type
        t = variable_type(var)
        init = var.properties.get("initial_value")
        if init is not None:
            interp.globals[key] = attr_to_value(init, t)
        else:
            interp.globals[key] = np.zeros(t.shape, dtype_of(t))
    return key


@impl("tosa.variable_read")
def _variable_read(interp, op, args):
    return [interp.globals[_variable(interp, op)]]


@impl("tosa.variable_write")
def _variable_write(interp, op, args):
    interp.globals[_variable(interp, op)] = args[0]
    return []
