"""Normalizations: BatchNormalization (inference and training mode), InstanceNormalization,
LpNormalization — as reductions (reduction.py) and per-channel elementwise generics."""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineConstantExpr, AffineMap
from ..scalar_builders import element_type
from . import NotLowerable, lowering
from ._linalg_util import filled, map_text
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


# [Note: batch norm with constant statistics]
# Inference batch normalization is a per-channel affine map:
#     y = (x - mean) / sqrt(var + eps) * gamma + beta = x * s + t,
#     s = gamma / sqrt(var + eps),  t = beta - mean * s.
# Where gamma, beta, mean and var are compile-time constants (weights: ONNX initializers,
# frozen PyTorch buffers), s and t are computed once, here, in float64 and rounded once to
# the data's type (as onnxruntime's BatchNorm kernel computes its scale and bias per
# channel), and the lowering is one multiply-add per element instead of a subtraction, a
# square root, a division, a multiply and an add: a per-channel affine the elementwise
# fusion and the convolution kernels' epilogues / input prologues take as they take a
# bias. NaN in x still propagates (x * s + t); a zero variance with eps > 0 is an ordinary
# large s. Where s or t is not finite (a zero variance with eps 0, an infinite or NaN
# statistic) the defining formula is kept, as it orders inf and NaN its own way; it is kept
# too where a statistic is a run-time value (a function argument, training mode's batch
# statistics). A batch norm right after a convolution or a matrix product with constant
# weights is folded further, into those weights, before lowering: onnx-fold-batch-norm,
# torch-fold-batch-norm ([Note: batch norm folded into the convolution]).

_NUMPY_FLOATS = {"f16": "float16", "f32": "float32", "f64": "float64"}


def batch_norm_affine(gamma, beta, mean, var, eps):
    """The per-channel (scale, shift) of inference batch normalization, float64 NumPy
    arrays (gamma, beta None: 1 and 0), so that y = x * scale + shift ([Note: batch norm
    with constant statistics]); NaN / inf where the statistics make them so."""
    import numpy as np
    with np.errstate(all="ignore"):
        mean = np.asarray(mean, np.float64)
        var = np.asarray(var, np.float64)
        scale = (1.0 if gamma is None else np.asarray(gamma, np.float64)) / \
            np.sqrt(var + float(eps))
        shift = (0.0 if beta is None else np.asarray(beta, np.float64)) - mean * scale
        return np.asarray(scale, np.float64), np.asarray(shift, np.float64)


def scale_output_channels(w, s, axis: int, groups: int = 1):
    """Weight `w` (float64 NumPy) with each output channel c scaled by s[c]: the channels
    run along dim `axis` (a Conv filter's 0, a (K, M) matrix's 1), or, with `groups` > 1
    and `axis` 1, a transposed convolution's (C_in, C_out / groups, ...) filter, whose
    output channel g * (C_out / groups) + j is W[g * (C_in / groups) + i, j]. The folds of
    a batch norm into the weights before it use it ([Note: batch norm folded into the
    weights] in frontends/onnx/fold_batch_norm.py)."""
    if groups > 1:
        grouped = w.reshape((groups, w.shape[0] // groups) + w.shape[1:])
        return (grouped * s.reshape((groups, 1, w.shape[1]) + (1,) * (w.ndim - 2))
                ).reshape(w.shape)
    shape = [1] * w.ndim
    shape[axis] = s.shape[0]
    return w * s.reshape(shape)


def _constant_affine(cx, x, params, eps):
    """(scale, shift) as arith.constant tensors of x's element type when every present
    parameter of `params` (gamma, beta, mean, var) is a compile-time constant and the
    affine form is finite; else None."""
    import numpy as np

    from ...ir.dense import DenseElementsAttr
    from .common import constant_array
    elt = x.type.element_type
    dtype = _NUMPY_FLOATS.get(getattr(elt, "name", None))
    if dtype is None:
        return None
    arrays = []
    for v in params:
        a = None if v is None else constant_array(v)
        if v is not None and (a is None or a.ndim != 1 or
                              not np.issubdtype(np.asarray(a).dtype, np.floating)):
            return None
        arrays.append(a)
    scale, shift = batch_norm_affine(*arrays, eps)
    n = max(scale.size, shift.size)
    if scale.ndim != 1 or shift.ndim != 1 or \
            not (np.isfinite(scale).all() and np.isfinite(shift).all()):
        return None
    s = scalars(cx)
    out = []
    for a in (scale, shift):
        a = np.broadcast_to(a, (n,)).astype(dtype)
        t = A.RankedTensorType((n,), elt)
        out.append(s.op1("arith.constant", [], t, {"value": DenseElementsAttr(t, a)}))
    return out


def batch_norm(cx, x, scale, bias, mean, var, eps):
    """`(x - mean) / sqrt(var + eps) * scale + bias` of `x` (N, C, ...) with per-channel
    (C,) `mean`, `var`, and `scale`, `bias` (None: 1 and 0), computed in the element
    type of `x`: inference-mode batch normalization, the one builder of both
    frontends. With constant parameters, `x * s + t` ([Note: batch norm with constant
    statistics])."""
    rank = x.type.rank
    elt = x.type.element_type
    affine = _constant_affine(cx, x, (scale, bias, mean, var), eps)
    if affine is not None:
        maps = [AffineMap.identity(rank)] + [_channel_map(v, rank) for v in affine]
        return elementwise(cx, [x] + affine, elt,
                           lambda s, v, a, b: s.add(s.mul(v, a), b), maps=maps)
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


# ------------------------------------------------------------------ LayerNormalization
# [Note: LayerNormalization lowered whole]
# ONNX defines LayerNormalization by a function that flattens X to [outer, inner],
# normalizes the rows and reshapes back to Shape(X). Lowered whole instead (onnx-decompose
# keeps the ops that have a lowering), the statistics are reductions over the normalized
# dims of X itself: no flatten, no reshape back, whose result size (the batch of
# [batch * tokens, C] -> [batch, tokens, C]) would be a quotient computed and checked at
# run time, a size of its own that later ops (the attention match, Segformer's reduced
# K/V) cannot tell equal to the batch. The arithmetic is the function's: mean, variance
# as the mean of (x - mean)^2 (see [Note: stable variance] in onnx-decompose),
# InvStdDev = 1 / sqrt(var + epsilon), in the stash type (double data in double, as
# onnxruntime and the reference compute it); then (x - mean) * InvStdDev
# cast to X's type, times Scale, plus B (Scale and B read right-aligned against X, as
# the function's broadcasting Mul and Add).

_STASH_TYPES = {1: "f32", 10: "f16", 11: "f64", 16: "bf16"}


def _trailing_map(v, x_shape, rank):
    """The map text reading `v` (Scale or B) right-aligned against a rank-`rank` X of
    dims `x_shape`: a static 1 against any other size is broadcast (read at 0)."""
    vr = v.type.rank
    return map_text(rank, [("0" if n == 1 and x_shape[rank - vr + j] != 1 else rank - vr + j)
                           for j, n in enumerate(v.type.shape)])


def _reads_agree(v, x_shape, rank):
    """Whether `v` (Scale or B) read right-aligned fits X's dims statically (each dim 1 or
    X's static size): no run-time check needed."""
    vr = v.type.rank
    return all(n == 1 or n == x_shape[rank - vr + j] for j, n in enumerate(v.type.shape))


@lowering("LayerNormalization")
def _layer_norm(cx):
    from ...ir import attributes as A
    from ._shape_util import finish
    from .common import empty, generic_op
    x, scale = cx.operands[0], cx.operands[1]
    bias = cx.operands[2] if cx.has_operand(2) else None
    t = ranked(cx, x.type)
    rank = t.rank
    elt = t.element_type
    if not isinstance(elt, A.FloatType):
        raise NotLowerable(f"LayerNormalization of {elt} elements")
    axis = cx.attr("axis", -1)
    if not -rank <= axis < rank:
        raise NotLowerable(f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    eps = float(cx.attr("epsilon", 1e-5))
    stash = cx.attr("stash_type", 1)
    if stash not in _STASH_TYPES:
        raise NotLowerable(f"stash_type {stash} is not a float type")
    ct = getattr(A, _STASH_TYPES[stash])
    if elt.width > ct.width:    # double data: double statistics (onnxruntime, reference)
        ct = elt
    params = [v for v in (scale, bias) if v is not None]
    for name, v in zip(("Scale", "B"), params):
        vt = ranked(cx, v.type, name)
        if vt.rank > rank - axis:
            raise NotLowerable(f"{name} of rank {vt.rank} for {rank - axis} normalized dims")
        if vt.element_type is not elt:
            raise NotLowerable(f"{name} has elements {vt.element_type}, X {elt}")
    axes = list(range(axis, rank))
    sizes = sizes_of(cx, x)
    outer = [sizes[d] for d in range(axis)]
    cnt = element_count(scalars(cx), sizes, axes, ct)
    full = map_text(rank, list(range(rank)))
    rows = map_text(rank, list(range(axis)))
    red = ["parallel"] * axis + ["reduction"] * (rank - axis)

    def up(s, v):
        return v if v.type is ct else s.cast(v, ct)
    total = generic_op(cx, [x], [filled(cx, outer, ct, 0.0)], [full, rows], red,
                       lambda s, b, a: [s.add(a[1], up(s, a[0]))])[0]
    mean = elementwise(cx, [total], ct, lambda s, v: s.div(v, cnt))

    def dev2(s, b, a):
        d = s.sub(up(s, a[0]), a[1])
        return [s.add(a[2], s.mul(d, d))]
    sq = generic_op(cx, [x, mean], [filled(cx, outer, ct, 0.0)], [full, rows, rows], red,
                    dev2)[0]
    inv = elementwise(cx, [sq], ct, lambda s, v: s.div(s.one(ct), s.math(
        "sqrt", s.add(s.div(v, cnt), s.const(eps, ct)))))

    def norm(s, b, a):
        y = s.mul(s.sub(up(s, a[0]), a[1]), a[2])
        if ct is not elt:
            y = s.cast(y, elt)
        if len(a) > 4:
            y = s.mul(y, a[3])
        return [s.add(y, a[4]) if len(a) > 5 else y]
    if all(_reads_agree(v, t.shape, rank) for v in params):
        y = generic_op(cx, [x, mean, inv] + params, [empty(cx, sizes, elt)],
                       [full, rows, rows] + [_trailing_map(v, t.shape, rank) for v in params]
                       + [full], ["parallel"] * rank, norm)[0]
    else:   # Scale or B against dynamic dims of X: NumPy broadcasting, checked
        y = generic_op(cx, [x, mean, inv], [empty(cx, sizes, elt)], [full, rows, rows, full],
                       ["parallel"] * rank, lambda s, b, a: [_plain_norm(s, a, up, ct, elt)])[0]
        y = elementwise(cx, [y] + params, elt, lambda s, v, *p: _affine(s, v, p))
    out = [y]
    for i, v in enumerate([mean, inv][:len(cx.op.results) - 1], 1):
        want = element_type(cx.result_type(i))
        if want is not ct:   # the stash type's statistics of double data
            v = elementwise(cx, [v], want, lambda s, a, w=want: s.cast(a, w))
        out.append(keep_dims(cx, v, rank, axes, sizes))
    return [finish(cx, v, i) for i, v in enumerate(out)]


def _plain_norm(s, a, up, ct, elt):
    """(x - mean) * InvStdDev in X's type."""
    y = s.mul(s.sub(up(s, a[0]), a[1]), a[2])
    return s.cast(y, elt) if ct is not elt else y


def _affine(s, v, p):
    """v * Scale (+ B)."""
    y = s.mul(v, p[0])
    return s.add(y, p[1]) if len(p) > 1 else y
