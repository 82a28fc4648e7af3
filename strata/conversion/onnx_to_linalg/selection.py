"""ONNX selection ops -> linalg and scf: TopK, Unique, NonMaxSuppression.

    TopK
        k rounds (an scf.for): round p is one reduction over the axis that picks, in
        every row at once, the best element strictly after the one picked in round p-1
        in the sort order (value, then lower index first; NaN sorts as the largest, as
        the reference's lexsort); the pick is inserted at position p. O(n k) work, each
        round vectorized over the rows.
    Unique
        pairwise comparisons of the slices along the axis (a reduction over the slice
        elements: the first difference decides), then sums over them: whether a slice
        is the first of its value, the rank of its value (sorted) or of its first
        occurrence (unsorted), the counts; the results, whose length is the number of
        distinct slices (known at run time only), are gathers. O(n^2 m) work for n
        slices of m elements, all of it in linalg.
    NonMaxSuppression
        rounds (an scf.for up to min(max_output_boxes_per_class, boxes)): each picks, for
        every (batch, class) at once, the best-scoring box not yet taken nor suppressed,
        then suppresses the boxes overlapping it beyond the IoU threshold; the picks are
        compacted into the [selected, 3] result by one scf.for.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import Lowering, NotLowerable, lowering
from ._linalg_util import filled
from ._shape_util import (Ix, collapse, expand, extract_slice, finish, insert_slice,
                          loop_nest, norm_axis, out_sizes, scalar_of, sizes)
from .common import empty, is_unsigned, ranked, scalars

I64 = A.i64


def _generic(cx, inputs, outputs, maps, iterators, body):
    """linalg.generic whose payload `body(s, b, args)` gets a ScalarBuilder, the
    PayloadBuilder (for `b.index`) and the block arguments; returns its results."""
    from ...dialects.linalg import make_generic

    def fn(b, args):
        return body(ScalarBuilder(b, cx.loc), b, args)
    return list(make_generic(cx.b, list(inputs), list(outputs), maps, iterators, fn,
                             [v.type for v in outputs], loc=cx.loc).results)


def _map(n, results):
    """Map text over `n` loops: a result is a loop number or expression text."""
    ds = ", ".join(f"d{i}" for i in range(n))
    return f"({ds}) -> ({', '.join(f'd{r}' if isinstance(r, int) else r for r in results)})"


def _inside(cx, s):
    """A Lowering context building at ScalarBuilder `s`'s point (a loop body)."""
    return Lowering(cx.op, cx.operands, s.b, cx.tc)


# ------------------------------------------------------------------ orders


def _gt(s, a, b, signed=True):
    """a > b, NaN above every number."""
    if not is_float(a.type):
        return s.cmp("gt", a, b, signed)
    return s.or_(s.cmp("gt", a, b), s.and_(s.cmp("uno", a, a), s.not_(s.cmp("uno", b, b))))


def _eq(s, a, b):
    """a == b, NaN equal to NaN."""
    if not is_float(a.type):
        return s.cmp("eq", a, b)
    return s.or_(s.cmp("eq", a, b), s.and_(s.cmp("uno", a, a), s.cmp("uno", b, b)))


def _before(s, a, ia, b, ib, largest, signed):
    """Whether (a, ia) sorts before (b, ib): by value (descending when `largest`), then
    by index."""
    first = _gt(s, a, b, signed) if largest else _gt(s, b, a, signed)
    return s.or_(first, s.and_(_eq(s, a, b), s.cmp("lt", ia, ib)))


def _unit_axis(cx, v, rank, axis, sizes_):
    """Rank-(rank-1) tensor `v` as rank `rank` with a size-1 dim at `axis` (`sizes_`: the
    sizes of the rank-`rank` tensor it goes into)."""
    out = list(sizes_)
    out[axis] = 1
    if rank == 1:
        return expand(cx, v, [], out)
    groups = []
    for j, d in enumerate(d for d in range(rank) if d != axis):
        if axis == 0 and j == 0:
            groups.append([0, 1])
        elif d == axis - 1:
            groups.append([d, axis])
        else:
            groups.append([d])
    return expand(cx, v, groups, out)


# ------------------------------------------------------------------ TopK


@lowering("TopK")
def _topk(cx):
    from ...dialects.onnx import opset_version
    x = cx.operands[0]
    t = ranked(cx, x.type)
    r = t.rank
    if r == 0:
        raise NotLowerable("TopK of a scalar")
    axis = norm_axis(cx.attr("axis", -1), r)
    largest = bool(cx.attr("largest", 1))
    signed = not is_unsigned(cx.orig_type(0))
    elt = t.element_type
    if not isinstance(elt, (A.FloatType, A.IntegerType)):
        raise NotLowerable(f"TopK of {elt} elements")
    dims = sizes(cx, x)
    rt = cx.result_type(0)
    if type(rt) is A.RankedTensorType and rt.rank == r and rt.shape[axis] != A.DYNAMIC:
        k = rt.shape[axis]
    elif opset_version(cx.op) < 10:
        k = int(cx.attr("k", 0))
    else:
        k = scalar_of(cx, 1)
    out = list(dims)
    out[axis] = k
    out = out_sizes(cx, out)
    rows = [d for i, d in enumerate(dims) if i != axis]
    kept = [i for i in range(r) if i != axis]
    s = scalars(cx)
    vals, idxs = empty(cx, out, elt), empty(cx, out, I64)
    prev_v = filled(cx, rows, elt, s.zero(elt))
    prev_i = filled(cx, rows, I64, s.const(-1, I64))

    def round_(b, ivs, accs):
        icx = _inside(cx, b)
        vals, idxs, pv, pi = accs
        bv = filled(icx, rows, elt, b.zero(elt))
        bi = filled(icx, rows, I64, b.const(-1, I64))

        def body(s, pb, args):
            v, pv, pi, bv, bi = args
            i = s.cast(pb.index(axis), I64)
            none = s.cmp("lt", pi, s.zero(I64))
            cand = s.or_(none, _before(s, pv, pi, v, i, largest, signed))
            better = s.or_(s.cmp("lt", bi, s.zero(I64)),
                           _before(s, v, i, bv, bi, largest, signed))
            take = s.and_(cand, better)
            return [s.select(take, v, bv), s.select(take, i, bi)]
        row_map = _map(r, kept)
        bv, bi = _generic(icx, [x, pv, pi], [bv, bi],
                          [_map(r, list(range(r))), row_map, row_map, row_map, row_map],
                          ["reduction" if d == axis else "parallel" for d in range(r)],
                          body)
        at = [0] * r
        at[axis] = ivs[0]
        vals = insert_slice(icx, _unit_axis(icx, bv, r, axis, out), vals, at)
        idxs = insert_slice(icx, _unit_axis(icx, bi, r, axis, out), idxs, at)
        return [vals, idxs, bv, bi]
    vals, idxs, _, _ = loop_nest(cx, [k], [vals, idxs, prev_v, prev_i], round_)
    return [finish(cx, vals, 0), finish(cx, idxs, 1)]


# ------------------------------------------------------------------ Unique


@lowering("Unique")
def _unique(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = t.element_type
    if not isinstance(elt, (A.FloatType, A.IntegerType)):
        raise NotLowerable(f"Unique of {elt} elements")
    signed = not is_unsigned(cx.orig_type(0))
    axis = cx.attr("axis", None)
    sort = bool(cx.attr("sorted", 1))
    if axis is None:
        if t.rank != 1:
            x = collapse(cx, x, [list(range(t.rank))]) if t.rank else expand(cx, x, [], [1])
        axis = 0
    r = x.type.rank
    axis = norm_axis(axis, r)
    dims = sizes(cx, x)
    n = dims[axis]
    rest = [d for d in range(r) if d != axis]
    s = scalars(cx)
    ix = Ix(s)
    # cmp[i, j]: -1, 0 or 1 as slice i sorts before, equal to or after slice j (loops i,
    # j, then the slice elements in order: the first difference decides)
    nl = 2 + len(rest)

    def slice_map(which):
        res = []
        for d in range(r):
            res.append(which if d == axis else 2 + rest.index(d))
        return _map(nl, res)

    def compare(s, b, a):
        u, v, acc = a
        c = s.select(_gt(s, v, u, signed), s.const(-1, A.i32),
                     s.select(_gt(s, u, v, signed), s.const(1, A.i32), s.zero(A.i32)))
        return [s.select(s.cmp("eq", acc, s.zero(A.i32)), c, acc)]
    cmp = _generic(cx, [x, x], [filled(cx, [n, n], A.i32, 0)],
                   [slice_map(0), slice_map(1), _map(nl, [0, 1])],
                   ["parallel", "parallel"] + ["reduction"] * len(rest), compare)[0]
    pair, row, col = _map(2, [0, 1]), _map(2, [0]), _map(2, [1])
    red = ["parallel", "reduction"]

    def count(pred):
        def body(s, b, a):
            return [s.add(a[-1], s.cast(pred(s, b, a), I64, False))]
        return body
    # same[i]: slices equal to slice i (its count); first[i]: none of them before i
    same = _generic(cx, [cmp], [filled(cx, [n], I64, 0)], [pair, row], red,
                    count(lambda s, b, a: s.cmp("eq", a[0], s.zero(A.i32))))[0]
    before = _generic(cx, [cmp], [filled(cx, [n], I64, 0)], [pair, row], red,
                      count(lambda s, b, a: s.and_(s.cmp("eq", a[0], s.zero(A.i32)),
                                                   s.cmp("lt", b.index(1), b.index(0)))))[0]
    first = _generic(cx, [before], [empty(cx, [n], A.i1)], [_map(1, [0])] * 2, ["parallel"],
                     lambda s, b, a: [s.cmp("eq", a[0], s.zero(I64))])[0]
    if sort:
        # the number of distinct values below slice i
        rank = _generic(cx, [cmp, first], [filled(cx, [n], I64, 0)], [_map(2, [1, 0]), col, row],
                        red, count(lambda s, b, a: s.and_(
                            a[1], s.cmp("lt", a[0], s.zero(A.i32)))))[0]
    else:
        # the number of first occurrences before the first occurrence of slice i
        nv = s.cast(ix.v(n), I64)
        fo = _generic(cx, [cmp], [filled(cx, [n], I64, nv)], [pair, row], red,
                      lambda s, b, a: [s.select(s.cmp("eq", a[0], s.zero(A.i32)),
                                                s.min(a[1], s.cast(b.index(1), I64)), a[1])])[0]
        rank = _generic(cx, [fo, first], [filled(cx, [n], I64, 0)], [row, col, row], red,
                        count(lambda s, b, a: s.and_(
                            a[1], s.cmp("lt", s.cast(b.index(1), I64), a[0]))))[0]
    # u distinct slices; src[q]: the first occurrence of the q-th
    total = _generic(cx, [first], [filled(cx, [], I64, 0)], [_map(1, [0]), _map(1, [])],
                     ["reduction"], count(lambda s, b, a: a[0]))[0]
    u = s.cast(s.op1("tensor.extract", [total], I64), A.index)
    src = _generic(cx, [first, rank], [filled(cx, [u], I64, 0)], [col, col, row], red,
                   lambda s, b, a: [s.add(a[2], s.select(
                       s.and_(a[0], s.cmp("eq", a[1], s.cast(b.index(0), I64))),
                       s.cast(b.index(1), I64), s.zero(I64)))])[0]
    ydims = list(dims)
    ydims[axis] = u
    ydims = out_sizes(cx, ydims, 0)

    def gather(s, b, a):
        at = [b.index(d) for d in range(r)]
        at[axis] = s.cast(a[0], A.index)
        return [s.op1("tensor.extract", [x, *at], elt)]
    y = _generic(cx, [src], [empty(cx, ydims, elt)], [_map(r, [axis]), _map(r, list(range(r)))],
                 ["parallel"] * r, gather)[0]
    results = [finish(cx, y, 0)]
    if len(cx.op.results) > 1:
        results.append(_opt(cx, 1, lambda: src))
    if len(cx.op.results) > 2:
        results.append(_opt(cx, 2, lambda: rank))
    if len(cx.op.results) > 3:
        results.append(_opt(cx, 3, lambda: _generic(
            cx, [src], [empty(cx, [u], I64)], [_map(1, [0])] * 2, ["parallel"],
            lambda s, b, a: [s.op1("tensor.extract", [same, s.cast(a[0], A.index)],
                                   I64)])[0]))
    return results


def _opt(cx, i, make):
    """Result `i` from `make()`, or None when the node omits that output."""
    if type(cx.op.results[i].type) is A.NoneType:
        return None
    return finish(cx, make(), i)
