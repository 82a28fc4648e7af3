"""QuantizeLinear and DequantizeLinear: per-tensor, per-axis and blocked parameters.

    QuantizeLinear:   y = saturate(round_half_even(x / scale) + zero_point)
    DequantizeLinear: y = (x - zero_point) * scale

Scale and zero point are read through an indexing map: a scalar (or one-element)
parameter everywhere, a 1-D one along `axis`, a blocked one (same rank as x) with
`axis` divided by `block_size`. Arithmetic is in f32 (the scale's type when wider).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from ..scalar_builders import element_type, is_float
from . import NotLowerable, lowering
from .common import elementwise, is_unsigned, ranked

_F8_MAX = {"f8E4M3FN": 448.0, "f8E4M3FNUZ": 240.0, "f8E5M2": 57344.0,
           "f8E5M2FNUZ": 57344.0}


def _param_map(v, rank, axis, block):
    shape = v.type.shape
    if len(shape) == 0:
        return AffineMap(rank, 0, ())
    if len(shape) == 1 and shape[0] == 1 and not block:
        return AffineMap(rank, 0, (AffineConstantExpr(0),))
    if len(shape) == 1:
        return AffineMap(rank, 0, (AffineDimExpr(axis),))
    if len(shape) != rank:
        raise NotLowerable(f"quantization parameter of shape {shape}")
    exprs = []
    for d in range(rank):
        e = AffineDimExpr(d)
        if d == axis and block:
            e = e.floordiv(block)
        exprs.append(e)
    return AffineMap(rank, 0, tuple(exprs))


def _setup(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    axis = cx.attr("axis", 1)
    if rank:
        axis %= rank
    block = cx.attr("block_size", 0)
    vals = [x, cx.operands[1]]
    maps = [AffineMap.identity(rank), _param_map(cx.operands[1], rank, axis, block)]
    has_zp = cx.has_operand(2)
    if has_zp:
        vals.append(cx.operands[2])
        maps.append(_param_map(cx.operands[2], rank, axis, block))
    return vals, maps, has_zp


@lowering("QuantizeLinear")
def _quantize(cx):
    vals, maps, has_zp = _setup(cx)
    out = element_type(cx.result_type())
    out_orig = element_type(cx.op.results[0].type)
    unsigned = is_unsigned(cx.op.results[0].type)
    saturate = cx.attr("saturate", 1)
    st = element_type(vals[1].type)
    ct = st if is_float(st) and st.width > 32 else A.f32

    def body(s, x, scale, *zp):
        q = s.div(s.cast(x, ct), s.cast(scale, ct))
        if is_float(out):
            if zp:
                q = s.add(q, s.cast(zp[0], ct))
            mx = _F8_MAX.get(out.name)
            if mx is not None and saturate:
                q = s.min(s.max(q, s.const(-mx, ct)), s.const(mx, ct))
            return s.cast(q, out)
        q = s.math("roundeven", q)
        if zp:
            q = s.add(q, s.cast(zp[0], ct, not unsigned))
        w = out_orig.width
        lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
        q = s.min(s.max(q, s.const(lo, ct)), s.const(hi, ct))
        return s.cast(q, out, True, not unsigned)
    return [elementwise(cx, vals, out, body, maps=maps)]


@lowering("DequantizeLinear")
def _dequantize(cx):
    vals, maps, has_zp = _setup(cx)
    out = element_type(cx.result_type())
    unsigned = is_unsigned(cx.orig_type(0))
    xt = element_type(vals[0].type)
    ct = A.f32 if not (is_float(out) and out.width > 32) else out

    def body(s, x, scale, *zp):
        if is_float(xt):
            v = s.cast(x, ct)
            if zp:
                v = s.sub(v, s.cast(zp[0], ct))
        else:
            # subtract in a wide integer so that (x - zp) cannot wrap
            wide = A.i64 if xt.width > 16 else A.i32
            v = s.cast(x, wide, not unsigned)
            if zp:
                v = s.sub(v, s.cast(zp[0], wide, not unsigned))
            v = s.cast(v, ct)
        return s.cast(s.mul(v, s.cast(scale, ct)), out)
    return [elementwise(cx, vals, out, body, maps=maps)]
