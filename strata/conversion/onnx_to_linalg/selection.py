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
