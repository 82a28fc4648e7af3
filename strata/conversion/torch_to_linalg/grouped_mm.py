"""Grouped matrix products (mixtures of experts): ATen's `_grouped_mm` and the custom
operators transformers traces in its place, one builder for all of them.

    aten._grouped_mm(a, b, offs?, bias?, out_dtype?)     torch's op (F.grouped_mm)
    transformers.grouped_mm_fallback(input, weight, offs)
    transformers.grouped_mm_fallback_backward(input, weight, offs, grad_output)

    %offs = torch.aten.cumsum %hist, %int0, %int3 : ... -> !torch.vtensor<[4],si32>
    %y = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) :
           (!torch.vtensor<[?,64],f32>, !torch.vtensor<[4,64,256],f32>,
            !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,256],f32>
  becomes a linalg.generic over (row, column, k) that reads each row's expert's weight
  (`tensor.extract %w[%g, %k, %n]`, %g the row's group, counted from offs), after a
  cf.assert that offs is non-decreasing from 0 and ends at most at the rows.

[Note: grouped products]
`offs` holds the cumulative ends of the groups along the jagged dim: group g is
[offs[g-1], offs[g]) (offs[-1] taken as 0), so the group of position r is the count of
offs[g] <= r, and a position at or past offs[-1] is in no group. The four forms, as ATen
(aten/src/ATen/native/GroupedMMUtils.h) and transformers' fallback define them:
  2-d a (M, K), 3-d b (G, K, N):  out[r] = a[r] @ b[group(r)]         (M, N), rows grouped
  3-d a (G, M, K), 2-d b (K, N):  out[:, c] = a[group(c)] @ b[:, c]   (M, N), columns
  2-d a (M, K), 2-d b (K, N):     out[g] = a[:, group g] @ b[group g]  (G, M, N), the
                                  contraction grouped (the weight gradient)
  3-d a (G, M, K), 3-d b (G, K, N): a batched product, no offs
A position in no group gives zeros: transformers' fallback (and its backward) starts
from zeros; ATen's CPU kernel leaves those rows unwritten (`empty`), so zeros are one of
the values it may give, and the defined one. A group's position is found per row in the
generated code (a reduction over offs), its operand read by `tensor.extract` at the
group (clamped: a read stays in bounds whatever offs holds), and offs is checked first
(non-decreasing from 0, the last at most the grouped dim's size): ATen's CPU kernel
checks neither and reads past the end on such offs; here it is a run-time error naming
the op. ATen refuses a bias ("Bias not supported yet"); so does this lowering.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..onnx_to_linalg._index_check import assert_ok, check_dims, clamp_bounds, unless_empty
from ..onnx_to_linalg._linalg_util import (acc_type, filled, generic_maps, map_text,
                                           round_to, transpose)
from ..onnx_to_linalg._shape_util import Ix, finish, sizes
from ..onnx_to_linalg.common import ranked, scalars, tensor_type
from ..onnx_to_linalg.contraction import matmul
from ..scalar_builders import ScalarBuilder
from . import NotLowerable, lowering


@lowering("aten._grouped_mm")
def _aten_grouped_mm(cx):
    """_grouped_mm(self, mat2, offs=None, bias=None, out_dtype=None)."""
    n = len(cx.op.operands)
    if n > 3 and not cx.is_none(3):
        raise NotLowerable("_grouped_mm with a bias (ATen: 'Bias not supported yet')")
    offs = cx.operands[2] if n > 2 and not cx.is_none(2) else None
    a, b = cx.operands[:2]
    return [finish(cx, grouped_mm(cx, a, b, offs, cx.result_type().element_type,
                                  "_grouped_mm"))]


@lowering("transformers.grouped_mm_fallback")
def _transformers_grouped_mm(cx):
    """transformers' fallback (transformers/integrations/moe.py): input (S, K) sorted
    by expert, weight (E, K, N), offs (E,) the experts' cumulative row counts; rows past
    offs[-1] are zeros."""
    x, w, offs = cx.operands[:3]
    _two_three(x, w, "grouped_mm_fallback")
    return [finish(cx, grouped_mm(cx, x, w, offs, cx.result_type().element_type,
                                  "grouped_mm_fallback"))]


@lowering("transformers.grouped_mm_fallback_backward")
def _transformers_grouped_mm_backward(cx):
    """(grad_input, grad_weight) of the fallback: grad_output (S, N) times each row's
    expert's weight transposed, and per expert its rows of input transposed times
    their rows of grad_output (the 2-d x 2-d form); rows past offs[-1] and experts
    without rows get zeros, as transformers' loop leaves them."""
    x, w, offs, go = cx.operands[:4]
    _two_three(x, w, "grouped_mm_fallback_backward")
    what = "grouped_mm_fallback_backward"
    gi = grouped_mm(cx, go, transpose(cx, w, [0, 2, 1]), offs,
                    cx.result_type(0).element_type, what)
    gw = grouped_mm(cx, transpose(cx, x, [1, 0]), go, offs,
                    cx.result_type(1).element_type, what)
    return [finish(cx, gi, 0), finish(cx, gw, 1)]


def _two_three(x, w, what):
    if ranked(None, x.type).rank != 2 or ranked(None, w.type).rank != 3:
        raise NotLowerable(f"{what} of a 2-d input and 3-d weights")


def grouped_mm(cx, a, b, offs, elt, what="grouped_mm"):
    """The grouped product of converted tensors `a` and `b` ([Note: grouped products]),
    groups delimited by `offs` (a converted 1-d integer tensor, None for the batched
    form), with element type `elt` (products accumulate per `acc_type`). `what` names
    the op in the messages."""
    ra, rb = ranked(cx, a.type).rank, ranked(cx, b.type).rank
    if (ra, rb) not in ((2, 3), (3, 2), (2, 2), (3, 3)):
        raise NotLowerable(f"{what} of {ra}-d and {rb}-d operands (2-d or 3-d each)")
    sa, sb = sizes(cx, a), sizes(cx, b)
    k_b = sb[-2] if rb == 3 else sb[0]
    check_dims(cx, [(sa[-1], k_b, "eq", f"{what}: the contraction dims differ")])
    if (ra, rb) == (3, 3):
        if offs is not None:
            raise NotLowerable(f"{what} of two 3-d operands takes no offs (as ATen)")
        check_dims(cx, [(sa[0], sb[0], "eq", f"{what}: the group counts differ")])
        return matmul(cx, a, b, elt)
    if offs is None:
        raise NotLowerable(f"{what} with a 2-d operand needs offs")
    ot = ranked(cx, offs.type)
    if ot.rank != 1 or type(ot.element_type) is not A.IntegerType:
        raise NotLowerable(f"{what}'s offs must be a 1-d integer tensor")
    (groups,) = sizes(cx, offs)
    if (ra, rb) == (2, 3):
        jagged, grouped, gsizes = sa[0], b, sb
    elif (ra, rb) == (3, 2):
        jagged, grouped, gsizes = sb[1], a, sa
    else:
        jagged, grouped, gsizes = sa[1], None, None
    if grouped is not None:
        check_dims(cx, [(groups, gsizes[0], "eq",
                         f"{what}: offs must have one entry per group of the 3-d operand")])
    _check_offs(cx, offs, groups, jagged, what)
    group_of = _group_of(cx, offs, jagged)
    acc = acc_type(elt)
    if (ra, rb) == (2, 2):
        out = [groups, sa[0], sb[1]]
        r = _jagged_contraction(cx, a, b, group_of, out, acc)
        return round_to(cx, r, elt)
    out = [sa[0], sb[-1]] if ra == 2 else [sa[1], sb[1]]
    his, empty = clamp_bounds(cx, gsizes, [0])
    t = tensor_type(out, acc)
    r = unless_empty(cx, empty, t, lambda: filled(cx, out, acc, 0.0),
                     lambda: _per_group(cx, a, b, group_of, out, acc, his[0], ra == 2))
    return round_to(cx, r, elt)


def _check_offs(cx, offs, groups, total, what):
    """cf.assert that offs is non-decreasing from 0 and its last entry at most `total`
    (with those, every group lies inside the jagged dim)."""
    from ...dialects.linalg import make_generic
    if Ix.known(groups) and groups == 0:
        return
    elt = ranked(cx, offs.type).element_type
    init = filled(cx, [], A.i1, True)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        g = b.index(0)
        cur = p.cast(args[0], A.i64)
        first = p.cmp("eq", g, p.index(0))
        before = p.op1("tensor.extract", [offs, p.select(first, g, p.sub(g, p.index(1)))],
                       elt)
        prev = p.select(first, p.const(0, A.i64), p.cast(before, A.i64))
        ok = p.and_(p.cmp("ge", cur, prev),
                    p.cmp("le", cur, p.cast(Ix(p).v(total), A.i64)))
        return p.and_(args[1], ok)
    flag = make_generic(cx.b, [offs], [init], generic_maps([map_text(1, [0]),
                                                            map_text(1, [])]),
                        ["reduction"], body, [init.type], loc=cx.loc).results[0]
    s = scalars(cx)
    assert_ok(cx, s.op1("tensor.extract", [flag], A.i1),
              f"{what}'s offs must be non-decreasing from 0 and end at most at {total} "
              "(the size of the grouped dim)" if Ix.known(total) else
              f"{what}'s offs must be non-decreasing from 0 and end at most at the size "
              "of the grouped dim")


def _group_of(cx, offs, n):
    """i64 tensor (n,): the group of each position along the jagged dim (the count of
    offs[g] <= r; len(offs) past the last group)."""
    from ...dialects.linalg import make_generic
    init = filled(cx, [n], A.i64, 0)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        end = p.cast(args[0], A.i64)
        r = p.cast(b.index(0), A.i64)
        return p.select(p.cmp("le", end, r), p.add(args[1], p.const(1, A.i64)), args[1])
    return make_generic(cx.b, [offs], [init],
                        generic_maps([map_text(2, [1]), map_text(2, [0])]),
                        ["parallel", "reduction"], body, [init.type],
                        loc=cx.loc).results[0]


def _per_group(cx, a, b, group_of, out, acc, last, rows):
    """The 2-d x 3-d form (`rows`: a's rows grouped, b read at each row's group) or
    the 3-d x 2-d one (b's columns grouped, a read at each column's group), loops
    (i, j, k) over out (i, j); `last` is the last group (the clamp of the read)."""
    from ...dialects.linalg import make_generic
    init = filled(cx, out, acc, 0.0)
    dense, grouped = (a, b) if rows else (b, a)
    n_groups = sizes(cx, grouped)[0]
    gelt = grouped.type.element_type

    def body(bb, args):
        p = ScalarBuilder(bb, cx.loc)
        i, j, k = bb.index(0), bb.index(1), bb.index(2)
        g = args[1]
        valid = p.cmp("lt", g, p.cast(Ix(p).v(n_groups), A.i64))
        gi = p.min(p.cast(g, A.index), Ix(p).v(last))
        at = [gi, k, j] if rows else [gi, i, k]
        v = p.cast(p.op1("tensor.extract", [grouped, *at], gelt), acc)
        prod = p.mul(p.cast(args[0], acc), v)
        return p.select(valid, p.add(args[2], prod), args[2])
    dense_map = map_text(3, [0, 2]) if rows else map_text(3, [2, 1])
    group_map = map_text(3, [0]) if rows else map_text(3, [1])
    return make_generic(cx.b, [dense, group_of], [init],
                        generic_maps([dense_map, group_map, map_text(3, [0, 1])]),
                        ["parallel", "parallel", "reduction"], body, [init.type],
                        loc=cx.loc).results[0]


def _jagged_contraction(cx, a, b, group_of, out, acc):
    """The 2-d x 2-d form: out[g] = sum over k in group g of a[:, k] * b[k, :], loops
    (g, m, n, k)."""
    from ...dialects.linalg import make_generic
    init = filled(cx, out, acc, 0.0)

    def body(bb, args):
        p = ScalarBuilder(bb, cx.loc)
        mine = p.cmp("eq", args[2], p.cast(bb.index(0), A.i64))
        prod = p.mul(p.cast(args[0], acc), p.cast(args[1], acc))
        return p.select(mine, p.add(args[3], prod), args[3])
    return make_generic(cx.b, [a, b, group_of], [init],
                        generic_maps([map_text(4, [1, 3]), map_text(4, [3, 2]),
                                      map_text(4, [3]), map_text(4, [0, 1, 2])]),
                        ["parallel", "parallel", "parallel", "reduction"], body,
                        [init.type], loc=cx.loc).results[0]
