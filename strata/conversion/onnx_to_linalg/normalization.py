"""Normalizations: BatchNormalization (inference and training mode), InstanceNormalization,
LpNormalization — as reductions (reduction.py) and per-channel elementwise generics."""
from __future__ import annotations

from ...ir.affine import AffineConstantExpr, AffineMap
from ..scalar_builders import element_type
from . import NotLowerable, lowering
from .common import axis_map, elementwise, ranked, scalars, sizes_of
from .reduction import element_count, keep_dims, reduce_tensor


def _channel_map(v, rank):
    """Reads 1-D per-channel operand `v` at dim 1 (a single element everywhere)."""
    if v.type.shape == (1,):
        return AffineMap(rank, 0, (AffineConstantExpr(0),))
    return axis_map(rank, 1)


def _sum(s, a, v):
    return s.add(a, v)


def _zero(s, e):
    return s.zero(e)


def mean_var(cx, x, axes, elt, sizes):
    """Population mean and variance of `x` over `axes` (mixed `sizes` of `x`) in element
    type `elt`: (mean, mean with the reduced dims kept as 1s, variance, variance kept).
    Batch, instance and layer normalization of both frontends use it."""
    rank = x.type.rank
    cnt = element_count(scalars(cx), sizes, axes, elt)
    total = reduce_tensor(cx, x, axes, elt, _zero, _sum)
    mean = elementwise(cx, [total], elt, lambda s2, v: s2.div(v, cnt))
    mean_k = keep_dims(cx, mean, rank, axes, sizes)
    sq = elementwise(cx, [x, mean_k], elt, lambda s2, a, m: s2.mul(s2.sub(a, m), s2.sub(a, m)))
    var = elementwise(cx, [reduce_tensor(cx, sq, axes, elt, _zero, _sum)], elt,
                      lambda s2, v: s2.div(v, cnt))
    return mean, mean_k, var, keep_dims(cx, var, rank, axes, sizes)


@lowering("BatchNormalization")
def _batch_norm(cx):
    x, scale, bias, mean, var = cx.operands[:5]
    t = ranked(cx, x.type)
    rank = t.rank
    if rank < 2:
        raise NotLowerable("BatchNormalization needs an input of rank >= 2")
    elt = t.element_type
    eps = cx.attr("epsilon", 1e-5)
    training = cx.attr("training_mode", 0)
    pe = element_type(scale.type)

    def norm(s, v, sc, b, m, va):
        if pe is not elt:
            sc, b = s.cast(sc, elt), s.cast(b, elt)
        if element_type(m.type) is not elt:
            m, va = s.cast(m, elt), s.cast(va, elt)
        d = s.math("sqrt", s.add(va, s.const(eps, elt)))
        return s.add(s.mul(s.div(s.sub(v, m), d), sc), b)

    ident = AffineMap.identity(rank)
    if not training:
        return [batch_norm(cx, x, scale, bias, mean, var, eps)]
    axes = [d for d in range(rank) if d != 1]
    sizes = sizes_of(cx, x)
    bmean, bmean_k, bvar, bvar_k = mean_var(cx, x, axes, elt, sizes)
    # per-channel current statistics read through the kept (1, C, 1, ...) tensors
    maps = [ident, _channel_map(scale, rank), _channel_map(bias, rank), ident, ident]
    kept_map = AffineMap(rank, 0, tuple(AffineConstantExpr(0) if d != 1 else
                                        axis_map(rank, 1).results[0] for d in range(rank)))
    maps[3] = maps[4] = kept_map
    y = elementwise(cx, [x, scale, bias, bmean_k, bvar_k], elt, norm, maps=maps)
    momentum = cx.attr("momentum", 0.9)
    me = element_type(mean.type)

    def running(s, old, cur):
        cur = s.cast(cur, me) if cur.type is not me else cur
        return s.add(s.mul(old, s.const(momentum, me)), s.mul(cur, s.const(1 - momentum, me)))
    results = [y]
    if len(cx.op.results) > 1:
        results.append(elementwise(cx, [mean, bmean], me, running))
    if len(cx.op.results) > 2:
        results.append(elementwise(cx, [var, bvar], me, running))
    return results


def batch_norm(cx, x, scale, bias, mean, var, eps):
    """`(x - mean) / sqrt(var + eps) * scale + bias` of `x` (N, C, ...) with per-channel
    (C,) `mean`, `var`, and `scale`, `bias` (None: 1 and 0), computed in the element
    type of `x`: inference-mode batch normalization, the one builder of both
    frontends."""
    rank = x.type.rank
    elt = x.type.element_type
    ins = [v for v in (scale, bias) if v is not None]
    has_scale, has_bias = scale is not None, bias is not None

    def norm(s, v, *rest):
        rest = [r if r.type is elt else s.cast(r, elt) for r in rest]
        sc = rest.pop(0) if has_scale else None
        b = rest.pop(0) if has_bias else None
        m, va = rest
        d = s.math("sqrt", s.add(va, s.const(eps, elt)))
        y = s.div(s.sub(v, m), d)
        if sc is not None:
            y = s.mul(y, sc)
        return y if b is None else s.add(y, b)
    vals = [x] + ins + [mean, var]
    maps = [AffineMap.identity(rank)] + [_channel_map(v, rank) for v in vals[1:]]
    return elementwise(cx, vals, elt, norm, maps=maps)


@lowering("InstanceNormalization")
def _instance_norm(cx):
    x, scale, bias = cx.operands
    t = ranked(cx, x.type)
    rank = t.rank
    elt = t.element_type
    eps = cx.attr("epsilon", 1e-5)
    axes = list(range(2, rank))
    sizes = sizes_of(cx, x)
    _, mean_k, _, var_k = mean_var(cx, x, axes, elt, sizes)
    ident = AffineMap.identity(rank)
    kept = AffineMap(rank, 0, tuple(
        AffineConstantExpr(0) if d >= 2 else ident.results[d] for d in range(rank)))

    def body(s, v, sc, b, m, va):
        return s.add(s.mul(s.div(s.sub(v, m), s.math("sqrt", s.add(va, s.const(eps, elt)))),
                           sc), b)
    return [elementwise(cx, [x, scale, bias, mean_k, var_k], elt, body,
                        maps=[ident, axis_map(rank, 1), axis_map(rank, 1), kept, kept])]


@lowering("LpNormalization")
def _lp_norm(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    rank = t.rank
    elt = t.element_type
    axis = cx.attr("axis", -1) % rank
    p = cx.attr("p", 2)
    if p not in (1, 2):
        raise NotLowerable(f"LpNormalization with p={p}")
    sizes = sizes_of(cx, x)
    pre = (lambda s, v: s.math("absf", v)) if p == 1 else (lambda s, v: s.mul(v, v))
    n = reduce_tensor(cx, x, [axis], elt, _zero, _sum, pre)
    if p == 2:
        n = elementwise(cx, [n], elt, lambda s, v: s.math("sqrt", v))
    nk = keep_dims(cx, n, rank, [axis], sizes)
    # a zero norm gives 0, not 0/0 (as ONNX's reference)
    return [elementwise(cx, [x, nk], elt, lambda s, v, d: s.select(
        s.cmp("eq", d, s.zero(elt)), s.zero(elt), s.div(v, d)))]
