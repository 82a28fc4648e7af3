"""Reductions: Reduce* (all ten), ArgMax/ArgMin -> linalg.fill + a reducing linalg.generic
(+ an elementwise epilogue, + tensor.expand_shape for keepdims).

The reduced axes come from the `axes` attribute (older opsets) or the optional second
input (ReduceSum from opset 13, the others from 18), which must then be a constant. With
no axes every axis is reduced, unless `noop_with_empty_axes` (then the op is the
identity, after the pre-map of L1/L2/SumSquare/LogSumExp... as ONNX's reference does).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import NotLowerable, lowering
from .common import (elementwise, empty, is_unsigned, ranked, scalars,
                     sizes_of, tensor_type)


def _axes(cx, rank):
    """The reduced axes (sorted, non-negative) when known at compile time, else None
    (an `axes` input that is not a constant)."""
    if len(cx.op.operands) > 1 and cx.has_operand(1):
        from .common import constant_array
        a = constant_array(cx.op.operands[1])
        if a is None:
            a = constant_array(cx.operands[1])
        if a is None:
            return None
        axes = [int(v) for v in a.reshape(-1)]
    else:
        axes = cx.attr("axes", None)
        axes = list(axes) if axes is not None else []
    out = []
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise NotLowerable(f"axis {a} out of range for rank {rank}")
        out.append(a % rank if rank else 0)
    return sorted(set(out))


def _fill(cx, sizes, elt, value_fn):
    from ...dialects.linalg import FillOp
    init = empty(cx, sizes, elt)
    s = scalars(cx)
    v = value_fn(s, elt)
    return cx.b.insert(FillOp.new([v], [init], loc=cx.op.loc)).results[0]


def reduce_tensor(cx, x, axes, elt, init_fn, combine, pre=None):
    """Reduce `x` over `axes` (sorted) into a tensor of the other dims: the accumulator
    starts at `init_fn(s, elt)`; each element `v` (after `pre(s, v)`) is folded in with
    `combine(s, acc, v)`."""
    from ...dialects.linalg import make_generic
    t = ranked(cx, x.type)
    rank = t.rank
    sizes = sizes_of(cx, x)
    kept = [d for d in range(rank) if d not in axes]
    acc = _fill(cx, [sizes[d] for d in kept], elt, init_fn)
    maps = [AffineMap.identity(rank),
            AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))]
    iters = ["reduction" if d in axes else "parallel" for d in range(rank)]

    def body(b, args):
        s = ScalarBuilder(b, cx.op.loc)
        v = args[0]
        if pre is not None:
            v = pre(s, v)
        if v.type is not elt:
            v = s.cast(v, elt, not is_unsigned(cx.orig_type(0)))
        return [combine(s, args[1], v)]
    return make_generic(cx.b, [x], [acc], maps, iters, body, [acc.type],
                        loc=cx.op.loc).results[0]


def keep_dims(cx, y, rank, axes, sizes):
    """`y` (the kept dims of a rank-`rank` tensor) with size-1 dims put back at `axes`."""
    if not axes:
        return y
    yt = y.type
    kept = [d for d in range(rank) if d not in axes]
    groups, cur = [], []
    # each dim of y takes the reduced dims before it (and the last takes those after)
    j = 0
    for d in range(rank):
        cur.append(d)
        if d in kept:
            groups.append(cur)
            cur = []
            j += 1
    if cur:
        if groups:
            groups[-1].extend(cur)
        else:
            groups.append(cur)
    out_sizes = [1 if d in axes else sizes[d] for d in range(rank)]
    shape = [s if isinstance(s, int) else A.DYNAMIC for s in out_sizes]
    rt = tensor_type(shape, yt.element_type)
    s = scalars(cx)
    if yt.rank == 0:
        groups = []
        return s.op1("tensor.expand_shape", [y], rt, {
            "reassociation": A.ArrayAttr([]),
            "static_output_shape": A.DenseArrayAttr(A.i64, shape)})
    dyn = [v for v in out_sizes if not isinstance(v, int)]
    return s.op1("tensor.expand_shape", [y] + dyn, rt, {
        "reassociation": A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g])
                                      for g in groups]),
        "static_output_shape": A.DenseArrayAttr(A.i64, shape)})


def element_count(s, sizes, axes, elt):
    """The number of elements over `axes` of mixed `sizes`, as a scalar of type `elt`."""
    n = 1
    dyn = None
    for a in axes:
        if isinstance(sizes[a], int):
            n *= sizes[a]
        else:
            dyn = sizes[a] if dyn is None else s.op1("arith.muli", [dyn, sizes[a]], A.index)
    c = s.const(n, elt)
    if dyn is not None:
        c = s.mul(c, s.cast(dyn, elt))
    if type(elt) is A.IntegerType and (dyn is not None or n % (1 << elt.width) == 0):
        # an integer mean of nothing (or of 2^width elements) divides by 1, not by 0
        # (onnxruntime gives 0; the division would be undefined)
        c = s.select(s.cmp("eq", c, s.zero(elt)), s.one(elt), c)
    return c


# name: (init, combine, pre, post(s, y, count) or None)
def _lowest(s, e):
    return s.lowest(e)


def _highest(s, e):
    return s.highest(e, signed=True)


_REDUCERS = {
    "ReduceSum": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v), None, None),
    "ReduceSumSquare": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v),
                        lambda s, v: s.mul(v, v), None),
    "ReduceL1": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v),
                 lambda s, v: s.math("absf", v) if is_float(v.type) else
                 s.math("absi", v), None),
    "ReduceL2": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v),
                 lambda s, v: s.mul(v, v), "sqrt"),
    "ReduceLogSum": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v), None, "log"),
    "ReduceMean": (lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v), None, "mean"),
    "ReduceProd": (lambda s, e: s.one(e), lambda s, a, v: s.mul(a, v), None, None),
    "ReduceMax": (_lowest, None, None, None),
    "ReduceMin": (_highest, None, None, None),
}


def _make_reduce(name):
    _, _, pre, post = _REDUCERS[name]

    @lowering(name)
    def lower(cx):
        x = cx.operands[0]
        t = ranked(cx, x.type)
        elt = element_type(cx.result_type())
        # bools order as unsigned (true = 1 > false)
        unsigned = is_unsigned(cx.orig_type(0)) or elt is A.i1
        rank = t.rank
        axes = _axes(cx, rank)
        keepdims = cx.attr("keepdims", 1)
        noop = cx.attr("noop_with_empty_axes", 0)
        if axes is None:
            return [_reduce_runtime_axes(cx, x, elt, unsigned, keepdims, noop)]
        if not axes:
            if noop:
                if pre is None:
                    return [x]
                return [elementwise(cx, [x], elt, lambda s, v: pre(s, v))]
            axes = list(range(rank))
        ini, comb, _, _ = _reducer(name, unsigned)
        sizes = sizes_of(cx, x)
        y = reduce_tensor(cx, x, axes, elt, ini, comb, pre)
        if post is not None:
            if post == "mean":
                s = scalars(cx)
                cnt = element_count(s, sizes, axes, elt)
                y = elementwise(cx, [y], elt, lambda s2, v: s2.div(v, cnt, not unsigned))
            else:
                y = elementwise(cx, [y], elt, lambda s2, v: s2.math(post, v))
        if keepdims:
            y = keep_dims(cx, y, rank, axes, sizes)
        return [y]


for _n in _REDUCERS:
    _make_reduce(_n)


@lowering("ReduceLogSumExp")
def _logsumexp(cx):
    # log(sum(exp(x - max))) + max, the numerically stable form
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = element_type(cx.result_type())
    rank = t.rank
    axes = _axes(cx, rank)
    if axes is None:
        # ONNX's own definition, log(sum(exp(x))), reduced over the run-time axes
        e = elementwise(cx, [x], elt, lambda s, v: s.math("exp", v))
        r = _reduce_runtime_axes(cx, e, elt, False, cx.attr("keepdims", 1),
                                 cx.attr("noop_with_empty_axes", 0), "ReduceSum")
        return [elementwise(cx, [r], elt, lambda s, v: s.math("log", v))]
    if not axes:
        if cx.attr("noop_with_empty_axes", 0):
            return [x]
        axes = list(range(rank))
    sizes = sizes_of(cx, x)
    m = reduce_tensor(cx, x, axes, elt, _lowest, lambda s, a, v: s.max(a, v))
    mk = keep_dims(cx, m, rank, axes, sizes)
    # a -inf max (all -inf, or an empty reduction) must not produce NaN from inf - inf
    safe = elementwise(cx, [mk], elt, lambda s, v: s.select(
        s.cmp("eq", v, s.const(float("-inf"), elt)), s.zero(elt), v))
    e = elementwise(cx, [x, safe], elt, lambda s, a, b: s.math("exp", s.sub(a, b)))
    sm = reduce_tensor(cx, e, axes, elt, lambda s, e_: s.zero(e_), lambda s, a, v: s.add(a, v))
    safe_r = keep_dims(cx, sm, rank, axes, sizes) if cx.attr("keepdims", 1) else sm
    m_r = safe if cx.attr("keepdims", 1) else elementwise(
        cx, [m], elt, lambda s, v: s.select(s.cmp("eq", v, s.const(float("-inf"), elt)),
                                            s.zero(elt), v))
    return [elementwise(cx, [safe_r, m_r], elt,
                        lambda s, a, b: s.add(s.math("log", a), b))]


def _reducer(name, unsigned):
    init, combine, pre, post = _REDUCERS[name]
    if name == "ReduceMax":
        combine = (lambda s, a, v: s.max(a, v, not unsigned))
        if unsigned:
            init = (lambda s, e: s.zero(e))
    elif name == "ReduceMin":
        combine = (lambda s, a, v: s.min(a, v, not unsigned))
        if unsigned:
            init = (lambda s, e: s.highest(e, signed=False))
    return init, combine, pre, post


def _reduce_runtime_axes(cx, x, elt, unsigned, keepdims, noop, name=None):
    """A reduction whose axes are an input known only at run time: for each dim d, an
    `scf.if` reduces the running tensor over d (keeping it as size 1) when d is one of
    the axes (or the axes are empty and not noop_with_empty_axes); the running tensor has
    dynamic dims. Without keepdims the result (whose type, from shape inference, must be
    static) is reshaped to it."""
    from ...dialects.scf import IfOp, YieldOp
    init, combine, pre, post = _reducer(name or cx.op.name[5:], unsigned)
    t = x.type
    rank = t.rank
    rt = cx.result_type()
    if type(rt) is not A.RankedTensorType:
        raise NotLowerable("axes known only at run time need a ranked result type")
    s = scalars(cx)
    axes_v = cx.operands[1]
    n_axes = s.op1("tensor.dim", [axes_v, s.index(0)], A.index)
    empty_axes = s.cmp("eq", n_axes, s.index(0))
    reduce_all = s.and_(empty_axes, s.const(0 if noop else 1, A.i1))
    dyn_t = tensor_type([A.DYNAMIC] * rank, elt)
    if pre is not None:
        x = elementwise(cx, [x], elt, lambda s2, v: pre(s2, s2.cast(v, elt, not unsigned)))
    elif x.type.element_type is not elt:
        x = elementwise(cx, [x], elt, lambda s2, v: s2.cast(v, elt, not unsigned))
    cur = s.op1("tensor.cast", [x], dyn_t)
    count = s.index(1)
    flags = []
    for d in range(rank):
        # flag: some axes[k] is d or d - rank
        flag_t = _fill(cx, [], A.i1, lambda s2, e: s2.const(0, e))
        from ...dialects.linalg import make_generic

        def fbody(b, args, d=d):
            s2 = ScalarBuilder(b, cx.op.loc)
            a = args[0]
            hit = s2.or_(s2.cmp("eq", a, s2.const(d, a.type)),
                         s2.cmp("eq", a, s2.const(d - rank, a.type)))
            return [s2.or_(args[1], hit)]
        ft = make_generic(cx.b, [axes_v], [flag_t], [AffineMap.identity(1),
                                                     AffineMap(1, 0, ())],
                          ["reduction"], fbody, [flag_t.type], loc=cx.op.loc).results[0]
        flag = s.or_(s.op1("tensor.extract", [ft], A.i1), reduce_all)
        flags.append(flag)
        size_d = s.op1("tensor.dim", [cur, s.index(d)], A.index)
        count = s.select(flag, s.op1("arith.muli", [count, size_d], A.index), count)
        op = cx.b.insert(IfOp.new(flag, [dyn_t], with_else=True, loc=cx.op.loc))
        saved = cx.b.ip
        cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
        sizes = sizes_of(cx, cur)
        r = reduce_tensor(cx, cur, [d], elt, init, combine)
        r = keep_dims(cx, r, rank, [d], sizes)
        r = s.op1("tensor.cast", [r], dyn_t)
        cx.b.insert(YieldOp.build(values=[r], loc=cx.op.loc))
        cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
        cx.b.insert(YieldOp.build(values=[cur], loc=cx.op.loc))
        cx.b.ip = saved
        cur = op.results[0]
    if post is not None:
        if post == "mean":
            cnt = element_count(s, [count], [0], elt)
            cur = elementwise(cx, [cur], elt, lambda s2, v: s2.div(v, cnt, not unsigned))
        else:
            cur = elementwise(cx, [cur], elt, lambda s2, v: s2.math(post, v))
    if keepdims:
        return s.op1("tensor.cast", [cur], rt)
    if rt.has_static_shape:
        shape = s.const(list(rt.shape), tensor_type([rt.rank], A.i64))
    else:
        # the k-th output dim is the size of the k-th dim not reduced
        vals = [s.index(1)] * rt.rank
        seen = s.index(0)
        for d in range(rank):
            kept = s.not_(flags[d])
            size_d = s.op1("tensor.dim", [cur, s.index(d)], A.index)
            for k in range(rt.rank):
                here = s.and_(kept, s.cmp("eq", seen, s.index(k)))
                vals[k] = s.select(here, size_d, vals[k])
            seen = s.select(kept, s.op1("arith.addi", [seen, s.index(1)], A.index), seen)
        shape = s.op1("tensor.from_elements", [s.cast(v, A.i64) for v in vals],
                      tensor_type([rt.rank], A.i64))
    return s.op1("tensor.reshape", [cur, shape], rt)


def arg_reduce(cx, x, axis, better, keepdims=True, last=False):
    """The index (i64) of the best element of `x` along `axis` (`better` "gt": the
    maximum, "lt": the minimum; the first one, or the last with `last`; a NaN wins)."""
    from ...dialects.linalg import make_generic
    t = ranked(cx, x.type)
    rank = t.rank
    unsigned = is_unsigned(cx.orig_type(0)) or t.element_type is A.i1
    elt = t.element_type
    sizes = sizes_of(cx, x)
    kept = [d for d in range(rank) if d != axis]
    val = _fill(cx, [sizes[d] for d in kept], elt,
                (lambda s, e: s.lowest(e) if not unsigned else s.zero(e))
                if better == "gt" else
                (lambda s, e: s.highest(e, signed=not unsigned)))
    idx = _fill(cx, [sizes[d] for d in kept], A.i64, lambda s, e: s.const(-1, e))
    out_map = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))
    iters = ["reduction" if d == axis else "parallel" for d in range(rank)]

    def body(b, args):
        s = ScalarBuilder(b, cx.op.loc)
        v, best, bi = args
        i = s.cast(s.op1("linalg.index", [], A.index,
                         {"dim": A.IntegerAttr(axis, A.i64)}), A.i64)
        strict = s.cmp(better, v, best, not unsigned)
        take = s.or_(strict, s.cmp("lt", bi, s.zero(A.i64)))
        if last:
            take = s.or_(take, s.cmp("eq", v, best, not unsigned))
        if is_float(elt):  # the first NaN wins, as NumPy's argmax/argmin
            take = s.or_(s.and_(s.cmp("uno", v, v), s.not_(s.cmp("uno", best, best))),
                         s.and_(take, s.not_(s.cmp("uno", best, best))))
        return [s.select(take, v, best), s.select(take, i, bi)]
    g = make_generic(cx.b, [x], [val, idx], [AffineMap.identity(rank), out_map, out_map],
                     iters, body, [val.type, idx.type], loc=cx.op.loc)
    y = g.results[1]
    if keepdims:
        y = keep_dims(cx, y, rank, [axis], sizes)
    return y


def _arg(name, better):
    @lowering(name)
    def lower(cx):
        x = cx.operands[0]
        rank = ranked(cx, x.type).rank
        axis = cx.attr("axis", 0)
        if not -rank <= axis < rank:
            raise NotLowerable(f"axis {axis} out of range for rank {rank}")
        return [arg_reduce(cx, x, axis % rank, better, cx.attr("keepdims", 1),
                           cx.attr("select_last_index", 0))]


_arg("ArgMax", "gt")
_arg("ArgMin", "lt")
