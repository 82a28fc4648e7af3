"""ONNX selection ops -> linalg and scf: TopK, Unique, NonMaxSuppression.

    TopK
        k rounds (an scf.for): round p is one reduction over the axis that picks, in
        every row at once, the best element strictly after the one picked in round p-1
        in the sort order (value, then lower index first; NaN sorts as the largest, as
        the reference's lexsort); the pick is inserted at position p. O(n k) work, each
        round vectorized over the rows.
    sort (PyTorch's; a TopK of all n elements would be O(n^2) sequential steps)
        ranked: one linalg.generic counts, for each element, the elements of its row
        that sort before it (a sum over the row: its position), an scf.for nest writes
        each index at its position, then the values are read at the indices. O(n^2)
        work per row, all of it parallel or an associative sum (vectorized by the
        reference interpreter's engine, see [Note: the structured-op engine]), and O(n)
        scalar steps.
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
from ..scalar_builders import is_float
from . import NotLowerable, lowering
from ._linalg_util import filled, map_text
from ._shape_util import (Ix, collapse, dims_map, expand, extract_slice, finish,
                          index_generic, insert_slice, loop_nest, norm_axis, out_sizes,
                          scalar_of, sizes)
from .common import empty, generic_op, is_unsigned, ranked, scalar_element, scalars

I64 = A.i64


def _inside(cx, s):
    """A lowering context like `cx` building at ScalarBuilder `s`'s point (a loop
    body)."""
    return type(cx)(cx.op, cx.operands, s.b, cx.tc)


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
    k = int(cx.attr("k", 0)) if opset_version(cx.op) < 10 else scalar_of(cx, 1)
    return topk(cx, x, k, axis, largest, signed)


def topk(cx, x, k, axis, largest=True, signed=True):
    """(values, indices) of the `k` (mixed, checked in [0, n]) largest (or smallest)
    elements of `x` along `axis`, in order (ties: the lower index first; NaN sorts as
    the largest): ONNX's TopK and PyTorch's topk, the one builder of both; results typed
    as results 0 and 1."""
    t = x.type
    r = t.rank
    elt = t.element_type
    dims = sizes(cx, x)
    k = _checked_k(cx, k, dims[axis], axis)
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
        row_map = map_text(r, kept)
        bv, bi = generic_op(icx, [x, pv, pi], [bv, bi],
                          [map_text(r, list(range(r))), row_map, row_map, row_map, row_map],
                          ["reduction" if d == axis else "parallel" for d in range(r)],
                          body)
        at = [0] * r
        at[axis] = ivs[0]
        vals = insert_slice(icx, _unit_axis(icx, bv, r, axis, out), vals, at)
        idxs = insert_slice(icx, _unit_axis(icx, bi, r, axis, out), idxs, at)
        return [vals, idxs, bv, bi]
    vals, idxs, _, _ = loop_nest(cx, [k], [vals, idxs, prev_v, prev_i], round_)
    return [finish(cx, vals, 0), finish(cx, idxs, 1)]


def sort(cx, x, axis, largest=False, signed=True):
    """(values, indices) of `x` sorted along `axis` (ascending, or descending when
    `largest`; ties: the lower index first, a stable sort; NaN sorts as the largest):
    PyTorch's sort, ranked rather than picked in rounds (see the module doc); results
    typed as results 0 and 1."""
    r = x.type.rank
    elt = x.type.element_type
    dims = sizes(cx, x)
    s = scalars(cx)
    own = map_text(r + 1, list(range(r)))
    other = map_text(r + 1, [r if d == axis else d for d in range(r)])
    iters = ["parallel"] * r + ["reduction"]

    def rank(s, pb, args):   # how many elements of the row sort before this one
        v, w, acc = args
        i, j = pb.index(axis), pb.index(r)
        return [s.add(acc, s.cast(_before(s, w, j, v, i, largest, signed), I64, False))]
    ranks = generic_op(cx, [x, x], [filled(cx, dims, I64, 0)], [own, other, own], iters,
                       rank)[0]

    def place(s, ivs, accs):  # the element of position rank goes to index rank
        at = list(ivs)
        at[axis] = s.cast(s.op1("tensor.extract", [ranks, *ivs], I64), A.index)
        i = s.cast(ivs[axis], I64)
        return [s.op1("tensor.insert", [i, accs[0], *at], accs[0].type)]
    idxs = loop_nest(cx, dims, [empty(cx, dims, I64)], place)[0]

    def read(b, idx, args):  # indices are a permutation of the row: all in range
        at = list(idx)
        at[axis] = b.cast(args[0], A.index)
        return b.op1("tensor.extract", [x, *at], elt)
    vals = index_generic(cx, [idxs], [dims_map(r, list(range(r)))], dims, elt, read)
    return [finish(cx, vals, 0), finish(cx, idxs, 1)]


def _checked_k(cx, k, n, axis):
    """TopK's mixed `k`, checked: 0 <= k <= n (the axis size; onnxruntime fails on k > n)
    and equal to the result's static size along the axis if its type has one. At
    compile time when known; else cf.assert, and k is 0 after a failed check (no
    allocation of a negative or huge size, no rounds)."""
    from ._index_check import all_of, check_dims
    rt = cx.result_type(0)
    fixed = rt.shape[axis] if type(rt) is A.RankedTensorType and \
        rt.rank > axis and rt.shape[axis] != A.DYNAMIC else None
    bounds = f"k out of range [0, {n if Ix.known(n) else 'n'}] (n: the size of axis " \
        f"{axis})" if not Ix.known(n) else f"k out of range [0, {n}] on axis {axis}"
    pairs = [(0, k, "le", bounds), (k, n, "le", bounds)]
    if fixed is not None:
        pairs.append((k, fixed, "eq", f"k differs from the output's size {fixed}"))
    ok = all_of(cx, check_dims(cx, pairs))
    if fixed is not None:
        return fixed
    return Ix(scalars(cx)).select(ok, k, 0)


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

    def slicemap_text(which):
        res = []
        for d in range(r):
            res.append(which if d == axis else 2 + rest.index(d))
        return map_text(nl, res)

    def compare(s, b, a):
        u, v, acc = a
        c = s.select(_gt(s, v, u, signed), s.const(-1, A.i32),
                     s.select(_gt(s, u, v, signed), s.const(1, A.i32), s.zero(A.i32)))
        return [s.select(s.cmp("eq", acc, s.zero(A.i32)), c, acc)]
    cmp = generic_op(cx, [x, x], [filled(cx, [n, n], A.i32, 0)],
                   [slicemap_text(0), slicemap_text(1), map_text(nl, [0, 1])],
                   ["parallel", "parallel"] + ["reduction"] * len(rest), compare)[0]
    pair, row, col = map_text(2, [0, 1]), map_text(2, [0]), map_text(2, [1])
    red = ["parallel", "reduction"]

    def count(pred):
        def body(s, b, a):
            return [s.add(a[-1], s.cast(pred(s, b, a), I64, False))]
        return body
    # same[i]: slices equal to slice i (its count); first[i]: none of them before i
    same = generic_op(cx, [cmp], [filled(cx, [n], I64, 0)], [pair, row], red,
                    count(lambda s, b, a: s.cmp("eq", a[0], s.zero(A.i32))))[0]
    before = generic_op(cx, [cmp], [filled(cx, [n], I64, 0)], [pair, row], red,
                      count(lambda s, b, a: s.and_(s.cmp("eq", a[0], s.zero(A.i32)),
                                                   s.cmp("lt", b.index(1), b.index(0)))))[0]
    first = generic_op(cx, [before], [empty(cx, [n], A.i1)], [map_text(1, [0])] * 2, ["parallel"],
                     lambda s, b, a: [s.cmp("eq", a[0], s.zero(I64))])[0]
    if sort:
        # the number of distinct values below slice i
        rank = generic_op(cx, [cmp, first], [filled(cx, [n], I64, 0)], [map_text(2, [1, 0]), col, row],
                        red, count(lambda s, b, a: s.and_(
                            a[1], s.cmp("lt", a[0], s.zero(A.i32)))))[0]
    else:
        # the number of first occurrences before the first occurrence of slice i
        nv = s.cast(ix.v(n), I64)
        fo = generic_op(cx, [cmp], [filled(cx, [n], I64, nv)], [pair, row], red,
                      lambda s, b, a: [s.select(s.cmp("eq", a[0], s.zero(A.i32)),
                                                s.min(a[1], s.cast(b.index(1), I64)), a[1])])[0]
        rank = generic_op(cx, [fo, first], [filled(cx, [n], I64, 0)], [row, col, row], red,
                        count(lambda s, b, a: s.and_(
                            a[1], s.cmp("lt", s.cast(b.index(1), I64), a[0]))))[0]
    # u distinct slices; src[q]: the first occurrence of the q-th
    total = generic_op(cx, [first], [filled(cx, [], I64, 0)], [map_text(1, [0]), map_text(1, [])],
                     ["reduction"], count(lambda s, b, a: a[0]))[0]
    u = s.cast(s.op1("tensor.extract", [total], I64), A.index)
    src = generic_op(cx, [first, rank], [filled(cx, [u], I64, 0)], [col, col, row], red,
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
    y = generic_op(cx, [src], [empty(cx, ydims, elt)], [map_text(r, [axis]), map_text(r, list(range(r)))],
                 ["parallel"] * r, gather)[0]
    results = [finish(cx, y, 0)]
    if len(cx.op.results) > 1:
        results.append(_opt(cx, 1, lambda: src))
    if len(cx.op.results) > 2:
        results.append(_opt(cx, 2, lambda: rank))
    if len(cx.op.results) > 3:
        results.append(_opt(cx, 3, lambda: generic_op(
            cx, [src], [empty(cx, [u], I64)], [map_text(1, [0])] * 2, ["parallel"],
            lambda s, b, a: [s.op1("tensor.extract", [same, s.cast(a[0], A.index)],
                                   I64)])[0]))
    return results


def _opt(cx, i, make):
    """Result `i` from `make()`, or None when the node omits that output."""
    if type(cx.op.results[i].type) is A.NoneType:
        return None
    return finish(cx, make(), i)


# ------------------------------------------------------------------ NonMaxSuppression


@lowering("NonMaxSuppression")
def _nms(cx):
    from .gather_scatter import _select_positions
    boxes, scores = cx.operands[0], cx.operands[1]
    bt, st = ranked(cx, boxes.type, "boxes"), ranked(cx, scores.type, "scores")
    if bt.rank != 3 or st.rank != 3 or bt.shape[2] not in (4, A.DYNAMIC):
        raise NotLowerable("NonMaxSuppression needs boxes [B, N, 4] and scores [B, C, N]")
    center = int(cx.attr("center_point_box", 0))
    if center not in (0, 1):
        raise NotLowerable(f"center_point_box {center}")
    felt, selt = bt.element_type, st.element_type
    s = scalars(cx)
    ix = Ix(s)
    nb, nbox = sizes(cx, boxes)[:2]
    ncls = sizes(cx, scores)[1]
    max_out = ix.max(scalar_of(cx, 2), 0) if cx.has_operand(2) else 0
    rounds = ix.min(max_out, nbox)
    if Ix.known(rounds) and rounds == 0:
        return [finish(cx, empty(cx, out_sizes(cx, [0, 3]), I64))]
    iou = s.cast(scalar_element(cx, 3), felt) if cx.has_operand(3) else s.zero(felt)
    thr = s.cast(scalar_element(cx, 4), selt) if cx.has_operand(4) else None
    bc, bcn = [nb, ncls], [nb, ncls, nbox]
    supp = filled(cx, bcn, A.i1, s.const(0, A.i1))
    sel = filled(cx, bc + [rounds], I64, s.const(-1, I64))
    m3, m2 = map_text(3, [0, 1, 2]), map_text(3, [0, 1])

    def round_(b, ivs, accs):
        icx = _inside(cx, b)
        supp, sel = accs

        def pick(s, pb, a):
            score, gone, bs, bi = a
            i = s.cast(pb.index(2), I64)
            ok = s.not_(gone)
            if thr is not None:
                ok = s.and_(ok, s.cmp("gt", score, thr))
            better = s.or_(s.cmp("lt", bi, s.zero(I64)), s.cmp("gt", score, bs))
            take = s.and_(ok, better)
            return [s.select(take, score, bs), s.select(take, i, bi)]
        _, bi = generic_op(icx, [scores, supp], [filled(icx, bc, selt, b.zero(selt)),
                                                filled(icx, bc, I64, b.const(-1, I64))],
                         [m3, m3, m2, m2], ["parallel", "parallel", "reduction"], pick)
        sel = insert_slice(icx, expand(icx, bi, [[0], [1, 2]], bc + [1]), sel,
                           [0, 0, ivs[0]])

        def suppress(s, pb, a):
            gone, pick_i = a[0], a[1]
            took = s.cmp("ge", pick_i, s.zero(I64))
            at = s.max(s.cast(pick_i, A.index), s.index(0))
            bidx, n = pb.index(0), pb.index(2)

            def box(i):
                return [s.op1("tensor.extract", [boxes, bidx, i, s.index(k)], felt)
                        for k in range(4)]
            hit = s.or_(s.cmp("eq", n, at), _iou_above(s, box(n), box(at), center, iou))
            return [s.or_(gone, s.and_(took, hit))]
        supp = generic_op(icx, [supp, bi], [empty(icx, bcn, A.i1)], [m3, m2, m3],
                        ["parallel"] * 3, suppress)[0]
        return [supp, sel]
    _, sel = loop_nest(cx, [rounds], [supp, sel], round_)
    # the picks in (batch, class, round) order
    per_batch = ix.mul(ncls, rounds)
    flat = collapse(cx, sel, [[0, 1, 2]])
    total = ix.mul(nb, per_batch)

    def taken(b, i):
        return b.cmp("ge", b.op1("tensor.extract", [flat, i], I64), b.zero(I64))
    pos, count = _select_positions(cx, total, taken)
    pos = extract_slice(cx, pos, [0], [count])
    pb_v, r_v, c_v = ix.v(per_batch), ix.v(rounds), ix.v(ncls)

    def row(s, b, a):
        p = a[0]
        col = b.index(1)
        bi = s.op1("arith.divui", [p, pb_v], A.index)
        ci = s.op1("arith.remui", [s.op1("arith.divui", [p, r_v], A.index), c_v], A.index)
        box = s.op1("tensor.extract", [flat, p], I64)
        v = s.select(s.cmp("eq", col, s.index(0)), s.cast(bi, I64),
                     s.select(s.cmp("eq", col, s.index(1)), s.cast(ci, I64), box))
        return [v]
    out = out_sizes(cx, [count, 3])
    y = generic_op(cx, [pos], [empty(cx, out, I64)], [map_text(2, [0]), map_text(2, [0, 1])],
                 ["parallel", "parallel"], row)[0]
    return [finish(cx, y)]


def _iou_above(s, b1, b2, center, thr):
    """i1: the IoU of boxes b1 and b2 (4 scalars each) exceeds `thr`, with the
    reference's rules (empty intersections and degenerate boxes never suppress)."""
    if center:
        def edges(b, lo_k, len_k):
            half = s.div(b[len_k], s.const(2.0, b[len_k].type))
            return s.sub(b[lo_k], half), s.add(b[lo_k], half)
        x1, x2 = edges(b1, 0, 2), edges(b2, 0, 2)
        y1, y2 = edges(b1, 1, 3), edges(b2, 1, 3)
    else:
        def edges(b, i, j):  # (min, max), as the reference orders them
            swap = s.cmp("ge", b[i], b[j])
            return s.select(swap, b[j], b[i]), s.select(swap, b[i], b[j])
        x1, x2 = edges(b1, 1, 3), edges(b2, 1, 3)
        y1, y2 = edges(b1, 0, 2), edges(b2, 0, 2)
    zero = s.zero(b1[0].type)

    def overlap(a, b):
        lo, hi = _fmax(s, a[0], b[0]), _fmin(s, a[1], b[1])
        return s.cmp("gt", hi, lo), s.sub(hi, lo)
    okx, wx = overlap(x1, x2)
    oky, wy = overlap(y1, y2)
    inter = s.mul(wx, wy)
    area1 = s.mul(s.sub(x1[1], x1[0]), s.sub(y1[1], y1[0]))
    area2 = s.mul(s.sub(x2[1], x2[0]), s.sub(y2[1], y2[0]))
    union = s.sub(s.add(area1, area2), inter)
    ok = s.and_(s.and_(okx, oky), s.cmp("gt", inter, zero))
    ok = s.and_(ok, s.and_(s.and_(s.cmp("gt", area1, zero), s.cmp("gt", area2, zero)),
                           s.cmp("gt", union, zero)))
    return s.and_(ok, s.cmp("gt", s.div(inter, union), thr))


def _fmax(s, a, b):
    """Python's max(a, b) (a unless b > a)."""
    return s.select(s.cmp("gt", b, a), b, a)


def _fmin(s, a, b):
    """Python's min(a, b) (a unless b < a)."""
    return s.select(s.cmp("lt", b, a), b, a)
