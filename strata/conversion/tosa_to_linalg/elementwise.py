"""tosa-to-linalg: elementwise ops as one `linalg.generic` each.

    %r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
becomes
    %e = tensor.empty() : tensor<2x3xf32>
    %r = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (0, d1),
                         (d0, d1) -> (d0, d1)], ...} ins(%a, %b) outs(%e) {
      ^bb0(%x: f32, %y: f32, %o: f32): %s = arith.addf %x, %y : f32; linalg.yield %s }

The payloads follow upstream's createLinalgBodyCalculationForElementwiseOp: integer ops
are signed, float min/max propagate NaN unless `nan_mode<IGNORE>`, float-to-int casts
round to nearest even and saturate.
"""
from __future__ import annotations

from ...dialects.tosa.base import NAN_MODE
from ...ir import attributes as A
from . import LINALG, lowering
from .common import (NotLowerable, broadcast_map, check_signless, const_scalar, empty,
                     generic, identity_map, is_float, parallel, ranked_type, result_dims)

_IGNORE = NAN_MODE("IGNORE")


def elementwise(cx, inputs, body, rt=None):
    """`body(s, *elements)` over `inputs` broadcast to the result type `rt`."""
    rt = rt or cx.result_type()
    for v in inputs:
        t = ranked_type(v)
        check_signless(t)
        if t.rank != rt.rank:
            raise NotLowerable(f"operand of rank {t.rank} for a result of rank {rt.rank}")
    check_signless(rt)
    init = empty(cx, result_dims(cx, rt, inputs), rt.element_type)
    maps = [broadcast_map(v.type, rt.shape) for v in inputs] + [identity_map(rt.rank)]
    return generic(cx, inputs, [init], maps, parallel(rt.rank),
                   lambda s, args: body(s, *args[:-1]))


def _unary(fn):
    def lower(cx):
        return elementwise(cx, [cx.operands[0]], fn)
    return lower


def _binary(fn):
    def lower(cx):
        return elementwise(cx, list(cx.operands[:2]), fn)
    return lower


def _math(name):
    return _unary(lambda s, x: s.math(name, x))


def _float_only(name):
    def fn(s, x):
        if not is_float(x.type):
            raise NotLowerable(f"{name} of {x.type}")
        return s.math(name, x)
    return _unary(fn)


for _name, _fn in (("tosa.exp", "exp"), ("tosa.log", "log"), ("tosa.sin", "sin"),
                   ("tosa.cos", "cos"), ("tosa.tanh", "tanh"), ("tosa.erf", "erf"),
                   ("tosa.rsqrt", "rsqrt"), ("tosa.ceil", "ceil"), ("tosa.floor", "floor")):
    lowering(LINALG, _name)(_float_only(_fn))


@lowering(LINALG, "tosa.abs")
def _abs(cx):
    return elementwise(cx, [cx.operands[0]],
                       lambda s, x: s.math("absf" if is_float(x.type) else "absi", x))


@lowering(LINALG, "tosa.clz")
def _clz(cx):
    return elementwise(cx, [cx.operands[0]], lambda s, x: s.math("ctlz", x))


@lowering(LINALG, "tosa.reciprocal")
def _reciprocal(cx):
    return elementwise(cx, [cx.operands[0]], lambda s, x: s.div(s.one(x.type), x))


@lowering(LINALG, "tosa.sigmoid")
def _sigmoid(cx):
    def body(s, x):
        one = s.one(x.type)
        return s.div(one, s.add(s.math("exp", s.neg(x)), one))
    return elementwise(cx, [cx.operands[0]], body)


@lowering(LINALG, "tosa.negate")
def _negate(cx):
    """Floats: negf. Integers: (input_zp + output_zp) - x computed one width up (i8 in
    i16, ..., i32 in i64) and clamped to the element range, as upstream."""
    op = cx.op
    if is_float(op.input1.type):
        return elementwise(cx, [cx.operands[0]], lambda s, x: s.neg(x))
    zps = [const_scalar(op.input1_zp), const_scalar(op.output_zp)]
    if None in zps:
        raise NotLowerable("negate with non-constant zero points")

    def body(s, x):
        et = x.type
        wide = A.IntegerType(min(2 * et.width, 64))
        lo, hi = -(1 << (et.width - 1)), (1 << (et.width - 1)) - 1
        v = s.sub(s.const(zps[0] + zps[1], wide), s.cast(x, wide))
        v = s.min(s.const(hi, wide), s.max(s.const(lo, wide), v))
        return s.cast(v, et)
    return elementwise(cx, [cx.operands[0]], body)


@lowering(LINALG, "tosa.bitwise_not", "tosa.logical_not")
def _not(cx):
    return elementwise(cx, [cx.operands[0]], lambda s, x: s.not_(x))


for _name, _method in (("tosa.add", "add"), ("tosa.sub", "sub"), ("tosa.intdiv", "div"),
                       ("tosa.bitwise_and", "and_"), ("tosa.bitwise_or", "or_"),
                       ("tosa.bitwise_xor", "xor"), ("tosa.logical_and", "and_"),
                       ("tosa.logical_or", "or_"), ("tosa.logical_xor", "xor")):
    lowering(LINALG, _name)(_binary(lambda s, a, b, m=_method: getattr(s, m)(a, b)))


@lowering(LINALG, "tosa.pow")
def _pow(cx):
    return elementwise(cx, list(cx.operands[:2]), lambda s, a, b: s.math("powf", a, b))


@lowering(LINALG, "tosa.logical_left_shift", "tosa.logical_right_shift")
def _shift(cx):
    name = "arith.shli" if cx.op.name == "tosa.logical_left_shift" else "arith.shrui"
    return elementwise(cx, list(cx.operands[:2]), lambda s, a, b: s.op1(name, [a, b], a.type))


@lowering(LINALG, "tosa.arithmetic_right_shift")
def _ashr(cx):
    rounding = cx.op.round.value

    def body(s, a, b):
        r = s.op1("arith.shrsi", [a, b], a.type)
        if not rounding:
            return r
        # + the last bit shifted out, when something was shifted
        one = s.one(a.type)
        last = s.op1("arith.shrsi", [a, s.sub(b, one)], a.type)
        bit = s.cmp("ne", s.and_(last, one), s.zero(a.type))
        bit = s.and_(bit, s.cmp("gt", b, s.zero(a.type)))
        return s.add(r, s.cast(bit, a.type))
    return elementwise(cx, list(cx.operands[:2]), body)


def _minmax(is_max):
    def lower(cx):
        ignore = cx.op.nan_mode is _IGNORE

        def body(s, a, b):
            if is_float(a.type):
                name = ("arith.maxnumf" if is_max else "arith.minnumf") if ignore else \
                    ("arith.maximumf" if is_max else "arith.minimumf")
                return s.op1(name, [a, b], a.type)
            return s.max(a, b) if is_max else s.min(a, b)
        return elementwise(cx, list(cx.operands[:2]), body)
    return lower


lowering(LINALG, "tosa.maximum")(_minmax(True))
lowering(LINALG, "tosa.minimum")(_minmax(False))


@lowering(LINALG, "tosa.mul")
def _mul(cx):
    rt = cx.result_type()
    re = rt.element_type
    if is_float(re):
        return elementwise(cx, list(cx.operands[:2]), lambda s, a, b: s.mul(a, b))
    shift = const_scalar(cx.op.shift)
    if shift is None:
        raise NotLowerable("mul with a non-constant shift")

    def body(s, a, b):
        if shift == 0:
            return s.mul(s.cast(a, re), s.cast(b, re))
        # (a * b + 2^(shift-1)) >> shift in 64 bits (TOSA's apply_scale rounding)
        p = s.mul(s.cast(a, A.i64), s.cast(b, A.i64))
        p = s.add(p, s.const(1 << (shift - 1), A.i64))
        return s.cast(s.op1("arith.shrsi", [p, s.const(shift, A.i64)], A.i64), re)
    return elementwise(cx, list(cx.operands[:2]), body)


def _compare(pred):
    def lower(cx):
        return elementwise(cx, list(cx.operands[:2]), lambda s, a, b: s.cmp(pred, a, b))
    return lower


lowering(LINALG, "tosa.equal")(_compare("eq"))
lowering(LINALG, "tosa.greater")(_compare("gt"))
lowering(LINALG, "tosa.greater_equal")(_compare("ge"))


@lowering(LINALG, "tosa.select")
def _select(cx):
    return elementwise(cx, list(cx.operands[:3]), lambda s, c, a, b: s.select(c, a, b))


@lowering(LINALG, "tosa.clamp")
def _clamp(cx):
    op = cx.op
    ignore = op.nan_mode is _IGNORE
    lo_attr, hi_attr = op.min_val, op.max_val

    def body(s, x):
        t = x.type
        lo, hi = s.const(lo_attr.value, t), s.const(hi_attr.value, t)
        if is_float(t):
            mn, mx = ("arith.minnumf", "arith.maxnumf") if ignore else \
                ("arith.minimumf", "arith.maximumf")
            return s.op1(mx, [s.op1(mn, [x, hi], t), lo], t)
        return s.min(hi, s.max(lo, x))
    return elementwise(cx, [cx.operands[0]], body)


@lowering(LINALG, "tosa.cast")
def _cast(cx):
    rt = cx.result_type()
    to = rt.element_type
    unsigned_in = bool(cx.op.input_unsigned and cx.op.input_unsigned.value)

    def body(s, x):
        f = x.type
        if f is to:
            return x
        if is_float(f) and type(to) is A.IntegerType and to.width > 1:
            # round to nearest even, saturate at the integer range (NaN gives 0)
            r = s.math("roundeven", x)
            lo, hi = -(1 << (to.width - 1)), (1 << (to.width - 1)) - 1
            flo, fhi, ihi = s.const(float(lo), f), s.const(float(hi), f), s.const(hi, to)
            v = s.cast(s.op1("arith.maximumf", [r, flo], f), to)
            big = s.op1("arith.cmpf", [r, fhi], A.i1,
                        {"predicate": A.IntegerAttr(10, A.i64)})  # uge
            return s.select(big, ihi, v)
        if type(f) is A.IntegerType and f.width == 1 and is_float(to):
            return s.op1("arith.uitofp", [x], to)
        return s.cast(x, to, from_signed=not unsigned_in)
    return elementwise(cx, [cx.operands[0]], body)


@lowering(LINALG, "tosa.identity")
def _identity(cx):
    if cx.operands[0].type is not cx.op.results[0].type:
        raise NotLowerable("identity changing the type")
    return [cx.operands[0]]



# ---------------------------------------------------------------- quantization


def apply_scale(s, v, m, shift, double_round):
    """TOSA's apply_scale_32 on i64 values: (v * m + round) >> shift with round =
    1 << (shift - 1), moved by +-2^30 for double rounding of shifts above 31."""
    i64 = v.type
    one = s.one(i64)
    rnd = s.op1("arith.shli", [one, s.sub(shift, one)], i64)
    if double_round:
        big = s.cmp("gt", shift, s.const(31, i64))
        adj = s.select(s.cmp("ge", v, s.zero(i64)), s.const(1 << 30, i64),
                       s.const(-(1 << 30), i64))
        rnd = s.add(rnd, s.select(big, adj, s.zero(i64)))
    return s.op1("arith.shrsi", [s.add(s.mul(v, m), rnd), shift], i64)


@lowering(LINALG, "tosa.rescale")
def _rescale(cx):
    """One generic: the input, and the multiplier and shift (per channel: indexed by the
    last dim), computed in i64 (see apply_scale), plus the output zero point, clamped."""
    op = cx.op
    x, mult, shift = cx.operands[0], cx.operands[1], cx.operands[2]
    rt = cx.result_type()
    t = ranked_type(x)
    check_signless(t)
    zps = [const_scalar(op.input_zp), const_scalar(op.output_zp)]
    if None in zps:
        raise NotLowerable("rescale with non-constant zero points")
    iu, ou = op.input_unsigned.value, op.output_unsigned.value
    in_t, out_t = t.element_type, rt.element_type
    izp = zps[0] % (1 << in_t.width) if iu else zps[0]
    ozp = zps[1] % (1 << out_t.width) if ou else zps[1]
    double = op.rounding_mode.value == "DOUBLE_ROUND"
    rank = rt.rank
    params = ", ".join(f"d{i}" for i in range(rank))
    ch = f"({params}) -> (d{rank - 1})" if op.per_channel.value else f"({params}) -> (0)"
    init = empty(cx, result_dims(cx, rt, [x]), out_t)

    def body(s, args):
        v, m, sh, _ = args
        i64 = A.i64
        v = s.sub(s.cast(v, i64, from_signed=not iu), s.const(izp, i64))
        r = apply_scale(s, v, s.cast(m, i64), s.cast(sh, i64), double)
        r = s.add(r, s.const(ozp, i64))
        lo, hi = (0, (1 << out_t.width) - 1) if ou else \
            (-(1 << (out_t.width - 1)), (1 << (out_t.width - 1)) - 1)
        r = s.min(s.const(hi, i64), s.max(s.const(lo, i64), r))
        return s.cast(r, out_t)
    return generic(cx, [x, mult, shift], [init], [identity_map(rank), ch, ch,
                                                   identity_map(rank)], parallel(rank), body)


@lowering(LINALG, "tosa.table")
def _table(cx):
    """i8: out = table[x + 128]; i16: the 9.7 fixed-point interpolation between
    table[x >> 7] and the next entry (an i32 result), both with tensor.extract."""
    x, table = cx.operands[0], cx.operands[1]
    t, rt = ranked_type(x), cx.result_type()
    width = t.element_type.width
    if width not in (8, 16):
        raise NotLowerable(f"table of i{width} values")
    out_t = rt.element_type

    def body(s, args):
        v = args[0]
        i32 = A.i32
        if width == 8:
            idx = s.cast(s.add(s.cast(v, i32), s.const(128, i32)), A.index)
            return s.op1("tensor.extract", [table, idx], out_t)
        u = s.add(s.cast(v, i32), s.const(32768, i32))
        base = s.op1("arith.shrsi", [u, s.const(7, i32)], i32)
        frac = s.and_(u, s.const(0x7F, i32))
        nxt = s.min(s.add(base, s.one(i32)), s.const(512, i32))
        lo = s.cast(s.op1("tensor.extract", [table, s.cast(base, A.index)], table.type.element_type), i32)
        hi = s.cast(s.op1("tensor.extract", [table, s.cast(nxt, A.index)], table.type.element_type), i32)
        r = s.add(s.op1("arith.shli", [lo, s.const(7, i32)], i32), s.mul(s.sub(hi, lo), frac))
        return s.cast(r, out_t)
    return elementwise(cx, [x], lambda s, v: body(s, [v]))
