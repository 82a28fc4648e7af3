"""tosa-to-linalg: reductions and argmax.

    %r = tosa.reduce_sum %x axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
becomes (as upstream) a `linalg.reduce` into a filled rank-reduced tensor, then a
`tensor.expand_shape` putting the size-1 axis back:
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>)
    %s = linalg.reduce ins(%x) outs(%f) dimensions = [1] (%in, %acc) { arith.addf }
    %r = tensor.expand_shape %s [[0, 1]] output_shape [2, 1]

Identities: sum 0, product 1, max the lowest finite value (integers: the minimum),
min the highest, all true, any false. With `nan_mode<IGNORE>` a float max/min skips NaN
(maxnumf/minnumf) and a slice of NaN only gives NaN.
"""
from __future__ import annotations

from ...dialects.tosa.base import NAN_MODE
from ...ir import attributes as A
from . import LINALG, lowering
from .common import (check_signless, dims, empty, expand, fill, generic,
                     highest, identity_map, is_float, lowest, ranked_type)

_IGNORE = NAN_MODE("IGNORE")


def _reduce(cx, x, axis, init_fn, combine):
    """linalg.reduce of `x` over `axis` into a tensor filled by `init_fn(s, et)`; returns
    the rank-reduced result."""
    from ...dialects.linalg import ReduceOp
    from ...dialects.linalg.structured import fill_payload
    from ..scalar_builders import ScalarBuilder
    t = ranked_type(x)
    sizes = dims(cx, x)
    del sizes[axis]
    et = t.element_type
    init = empty(cx, sizes, et)
    init = fill(cx, init_fn(cx.s, et), init)
    op = ReduceOp.create([x, init], [init.type],
                         {"dimensions": A.DenseArrayAttr(A.i64, [axis])}, regions=1,
                         loc=cx.loc)
    cx.b.insert(op)
    fill_payload(op.regions[0], [x.type, init.type],
                 lambda b, args: combine(ScalarBuilder(b, cx.loc), *args), cx.loc)
    return op.results[0]


def _keep_dim(cx, v, axis, rt):
    """tensor.expand_shape putting back the reduced (size-1) `axis`; it joins the group of
    the dim before it (the one after, for axis 0), as upstream."""
    n = rt.rank - 1
    groups = [[j if j < axis else j + 1] for j in range(n)]
    if groups:
        host = axis - 1 if axis > 0 else 0
        groups[host] = sorted(groups[host] + [axis])
    sizes = dims(cx, v)
    sizes.insert(axis, 1)
    return expand(cx, v, groups, rt, sizes)


def _lower_reduce(init_fn, combine):
    def lower(cx):
        x = cx.operands[0]
        t = ranked_type(x)
        check_signless(t)
        axis = cx.op.axis.value
        rt = cx.result_type()
        if t.rank == 0:
            return [x]
        ignore = getattr(cx.op, "nan_mode", None) is _IGNORE and is_float(t)
        r = _reduce(cx, x, axis, init_fn, combine(ignore))
        if ignore:
            r = _all_nan_gives_nan(cx, x, axis, r)
        return [_keep_dim(cx, r, axis, rt)]
    return lower


def _all_nan_gives_nan(cx, x, axis, r):
    """For nan_mode<IGNORE>: NaN where every reduced element is NaN."""
    t = x.type
    allnan = _reduce(cx, generic_isnan(cx, x), axis, lambda s, et: s.const(1, A.i1),
                     lambda s, a, acc: s.and_(a, acc))
    rank = t.rank - 1
    ident = identity_map(rank)
    return generic(cx, [allnan, r], [empty(cx, dims(cx, r), r.type.element_type)],
                   [ident] * 3, ["parallel"] * rank,
                   lambda s, args: s.select(args[0], s.const(float("nan"), args[1].type),
                                            args[1]))[0]


def generic_isnan(cx, x):
    t = x.type
    rank = t.rank
    return generic(cx, [x], [empty(cx, dims(cx, x), A.i1)], [identity_map(rank)] * 2,
                   ["parallel"] * rank, lambda s, args: s.cmp("uno", args[0], args[0]))[0]


def _add(ignore):
    return lambda s, a, acc: s.add(a, acc)


def _mul(ignore):
    return lambda s, a, acc: s.mul(a, acc)


def _max(ignore):
    def fn(s, a, acc):
        if is_float(a.type):
            return s.op1("arith.maxnumf" if ignore else "arith.maximumf", [a, acc], a.type)
        return s.max(a, acc)
    return fn


def _min(ignore):
    def fn(s, a, acc):
        if is_float(a.type):
            return s.op1("arith.minnumf" if ignore else "arith.minimumf", [a, acc], a.type)
        return s.min(a, acc)
    return fn


def _and(ignore):
    return lambda s, a, acc: s.and_(a, acc)


def _or(ignore):
    return lambda s, a, acc: s.or_(a, acc)


lowering(LINALG, "tosa.reduce_sum")(_lower_reduce(lambda s, et: s.zero(et), _add))
lowering(LINALG, "tosa.reduce_product")(_lower_reduce(lambda s, et: s.one(et), _mul))
lowering(LINALG, "tosa.reduce_max")(_lower_reduce(lowest, _max))
lowering(LINALG, "tosa.reduce_min")(_lower_reduce(highest, _min))
lowering(LINALG, "tosa.reduce_all")(_lower_reduce(lambda s, et: s.const(1, et), _and))
lowering(LINALG, "tosa.reduce_any")(_lower_reduce(lambda s, et: s.const(0, et), _or))


@lowering(LINALG, "tosa.argmax")
def _argmax(cx):
    """One linalg.generic with two outputs, the index and the running max: the first
    maximum wins; with NaN propagation the first NaN wins."""
    x = cx.operands[0]
    t = ranked_type(x)
    check_signless(t)
    axis = cx.op.axis.value
    rt = cx.result_type()
    it = rt.element_type
    ignore = cx.op.nan_mode is _IGNORE
    sizes = dims(cx, x)
    del sizes[axis]
    et = t.element_type
    idx = empty(cx, sizes, it)
    idx = fill(cx, cx.s.zero(it), idx)
    best = empty(cx, sizes, et)
    best = fill(cx, lowest(cx.s, et), best)
    rank = t.rank
    params = ", ".join(f"d{i}" for i in range(rank))
    kept = ", ".join(f"d{i}" for i in range(rank) if i != axis)
    out_map = f"({params}) -> ({kept})"
    its = ["reduction" if i == axis else "parallel" for i in range(rank)]

    def body(s, args):
        v, i_out, m_out = args
        i = s.cast(s.op1("linalg.index", [], A.index,
                         {"dim": A.IntegerAttr(axis, A.i64)}), it)
        if is_float(v.type):
            if ignore:
                better = s.cmp("gt", v, m_out)
                better = s.or_(better, s.cmp("uno", m_out, m_out))
                better = s.and_(better, s.cmp("eq", v, v))
            else:
                better = s.op1("arith.cmpf", [v, m_out], A.i1,
                               {"predicate": A.IntegerAttr(9, A.i64)})  # ugt
                better = s.and_(better, s.op1("arith.cmpf", [m_out, m_out], A.i1,
                                              {"predicate": A.IntegerAttr(7, A.i64)}))  # ord
        else:
            better = s.cmp("gt", v, m_out)
        best = s.select(better, v, m_out)
        return [s.select(better, i, i_out), best]
    res = generic(cx, [x], [idx, best], [identity_map(rank), out_map, out_map], its, body)
    return [res[0]]
