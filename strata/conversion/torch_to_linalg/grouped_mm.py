"""Grouped matrix products (mixtures of experts): ATen's `_grouped_mm` and the custom
operators transformers traces in its place, one builder for all of them.

    aten._grouped_mm(a, b, offs?, bias?, out_dtype?)     torch's op (F.grouped_mm)
    transformers.grouped_mm_fallback(input, weight, offs)
    transformers.grouped_mm_fallback_backward(input, weight, offs, grad_output)

    %offs = torch.aten.cumsum %hist, %int0, %int3 : ... -> !torch.vtensor<[4],si32>
    %y = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) :
           (!torch.vtensor<[?,64],f32>, !torch.vtensor<[4,64,256],f32>,
            !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,256],f32>
  becomes, after a cf.assert that offs is non-decreasing from 0 and ends at most at the
  rows, an scf.for over the experts carrying the result (zeros), each iteration a
  linalg.matmul of the expert's rows [offs[e-1], offs[e]) (tensor.extract_slice of
  run-time offsets and size) by its weight (w[e]), inserted at those rows.

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
the values it may give, and the defined one. Each group is one linalg.matmul of its
slices (the matmul microkernels; a form reading each row's expert per element ran 40x
slower than eager on a 256-wide Mixtral block), its bounds read from offs in the
generated code and clamped into the jagged dim, and offs is checked first
(non-decreasing from 0, the last at most the grouped dim's size): ATen's CPU kernel
checks neither and reads past the end on such offs; here it is a run-time error naming
the op, and the clamped bounds keep every read in bounds after it. ATen refuses a bias
("Bias not supported yet"); so does this lowering.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..onnx_to_linalg._index_check import assert_ok, check_dims
from ..onnx_to_linalg._linalg_util import (acc_type, filled, generic_maps, map_text,
                                           round_to, transpose)
from ..onnx_to_linalg._shape_util import DYN, Ix, finish, sizes
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
    jagged = {(2, 3): sa[0], (3, 2): sb[1], (2, 2): sa[1]}[ra, rb]
    if ra == 3 or rb == 3:
        check_dims(cx, [(groups, (sb if rb == 3 else sa)[0], "eq",
                         f"{what}: offs must have one entry per group of the 3-d operand")])
    _check_offs(cx, offs, groups, jagged, what)
    if (ra, rb) == (2, 2):
        out = [groups, sa[0], sb[1]]
    else:
        out = [sa[0], sb[-1]] if ra == 2 else [sa[1], sb[1]]
    acc = acc_type(elt)
    r = _group_loop(cx, a, b, offs, (ra, rb), out, acc, jagged, sa, sb)
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


def _group_loop(cx, a, b, offs, form, out, acc, total, sa, sb):
    """The jagged forms ([Note: grouped products]): an scf.for over the groups, each a
    linalg.matmul of its slices inserted into the result (zeros where no group is). The
    group's bounds are clamped into [0, total] (they are checked before, and a failed
    check does not stop the code: nothing is read out of bounds)."""
    from ..onnx_to_linalg._shape_util import (expand, extract_slice, insert_slice,
                                              loop_nest)
    init = filled(cx, out, acc, 0.0)
    oelt = ranked(cx, offs.type).element_type
    (groups,) = sizes(cx, offs)

    def body(s, ivs, accs):
        inner = type(cx)(cx.op, cx.operands, s.b, cx.tc)
        g, y = ivs[0], accs[0]
        ix = Ix(s)

        def end_of(i):
            e = s.cast(s.op1("tensor.extract", [offs, i], oelt), A.index)
            return s.min(s.max(e, s.index(0)), ix.v(total))
        first = s.cmp("eq", g, s.index(0))
        hi = end_of(g)
        lo = s.select(first, s.index(0), end_of(s.select(first, g, s.sub(g, s.index(1)))))
        lo = s.min(lo, hi)
        n = s.sub(hi, lo)

        def group(v, shape):   # v[g] of a 3-d operand
            t = tensor_type([d if Ix.known(d) else DYN for d in shape], v.type.element_type)
            return extract_slice(inner, v, [g, 0, 0], [1, *shape], result_type=t)
        if form == (2, 3):
            rows = extract_slice(inner, a, [lo, 0], [n, sa[1]])
            prod = matmul(inner, rows, group(b, sb[1:]), acc)
            return [insert_slice(inner, prod, y, [lo, 0])]
        if form == (3, 2):
            cols = extract_slice(inner, b, [0, lo], [sb[0], n])
            prod = matmul(inner, group(a, sa[1:]), cols, acc)
            return [insert_slice(inner, prod, y, [0, lo])]
        prod = matmul(inner, extract_slice(inner, a, [0, lo], [sa[0], n]),
                      extract_slice(inner, b, [lo, 0], [n, sb[1]]), acc)
        prod = expand(inner, prod, [[0, 1], [2]], [1, sa[0], sb[1]])
        return [insert_slice(inner, prod, y, [g, 0, 0])]
    return loop_nest(cx, [groups], [init], body)[0]
