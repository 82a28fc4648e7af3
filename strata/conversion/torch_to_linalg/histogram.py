"""`aten.histc`: a histogram of equal-width bins (what transformers' mixtures of experts
count their tokens per expert with, before the grouped products of grouped_mm.py).

    %h = torch.aten.histc %ids, %int4, %float0, %float3 : !torch.vtensor<[?],f32>,
           !torch.int, !torch.float, !torch.float -> !torch.vtensor<[4],f32>
  becomes one linalg.generic over (bin, element...) counting each element into its bin.

[Note: histc as ATen bins]
ATen's CPU kernel (HistogramKernel.cpp, the linear-interpolation algorithm histc uses):
an element x in [min, max] (NaN and the others are skipped) goes to bin
trunc((x - min) * bins / (max - min)) computed in the input's type, the bin `bins`
(x == max) being the last; min == max (histc's default 0, 0) takes the range from the
data (its minimum and maximum), widened by 1 each side when those are equal too, and a
range that is not finite is an error (checked in the generated code, as ATen's "range
of [a, b] is not finite").
"""
from __future__ import annotations

from ...ir import attributes as A
from ..onnx_to_linalg._index_check import assert_ok
from ..onnx_to_linalg._linalg_util import filled, generic_maps, map_text
from ..onnx_to_linalg.common import ranked, scalars
from ..scalar_builders import ScalarBuilder
from . import DYNAMIC_ARG, NotLowerable, lowering


@lowering("aten.histc")
def _histc(cx):
    """histc(self, bins=100, min=0, max=0) ([Note: histc as ATen bins])."""
    from ...dialects.linalg import make_generic
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = t.element_type
    if type(elt) is not A.FloatType:
        raise NotLowerable("histc of an integer tensor (ATen's CPU kernel takes floats)")
    bins = cx.int_(1, "bins")
    if bins <= 0:
        raise NotLowerable(f"histc's bins must be positive, not {bins} (as ATen)")
    s = scalars(cx)
    lo_c, hi_c = cx.arg(2), cx.arg(3)
    if lo_c is not DYNAMIC_ARG and hi_c is not DYNAMIC_ARG and lo_c > hi_c:
        raise NotLowerable(f"histc's max ({hi_c}) must be larger than min ({lo_c}) "
                           "(as ATen)")
    lo, hi = cx.scalar(2, elt), cx.scalar(3, elt)
    if lo_c is DYNAMIC_ARG or hi_c is DYNAMIC_ARG or lo_c == hi_c:
        lo, hi = _data_range(cx, x, elt, lo, hi)
    rank = t.rank
    init = filled(cx, [bins], elt, 0.0)
    n_bins = s.const(float(bins), elt)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        v = args[0]
        inside = p.and_(p.cmp("ge", v, lo), p.cmp("le", v, hi))
        # (the bin of an element inside only: NaN or a huge value made an integer is
        # poison, which `and` would spread past the select)
        v = p.select(inside, v, lo)
        pos = p.cast(p.div(p.mul(p.sub(v, lo), n_bins), p.sub(hi, lo)), A.i64)
        pos = p.min(pos, p.const(bins - 1, A.i64))
        mine = p.and_(inside, p.cmp("eq", pos, p.cast(b.index(0), A.i64)))
        return p.select(mine, p.add(args[1], p.one(elt)), args[1])
    dims = list(range(1, rank + 1))
    return [make_generic(cx.b, [x], [init],
                         generic_maps([map_text(rank + 1, dims), map_text(rank + 1, [0])]),
                         ["parallel"] + ["reduction"] * rank, body, [init.type],
                         loc=cx.loc).results[0]]


def _data_range(cx, x, elt, lo, hi):
    """(min, max) where the given ones are equal: the data's (unless there is none),
    widened by 1 each side when equal too; checked finite."""
    from ...dialects.linalg import make_generic
    s = scalars(cx)
    rank = x.type.rank
    inits = [filled(cx, [], elt, float("inf")), filled(cx, [], elt, float("-inf"))]

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        return [p.min(args[1], args[0]), p.max(args[2], args[0])]
    red = make_generic(cx.b, [x], inits,
                       generic_maps([map_text(rank, list(range(rank))),
                                     map_text(rank, []), map_text(rank, [])]),
                       ["reduction"] * rank, body, [i.type for i in inits],
                       loc=cx.loc).results
    dmin, dmax = (s.op1("tensor.extract", [r], elt) for r in red)
    # (an empty tensor has no range of its own: min > max then)
    same = s.and_(s.cmp("eq", lo, hi), s.cmp("le", dmin, dmax))
    lo, hi = s.select(same, dmin, lo), s.select(same, dmax, hi)
    one = s.one(elt)
    flat = s.cmp("eq", lo, hi)
    lo, hi = s.select(flat, s.sub(lo, one), lo), s.select(flat, s.add(hi, one), hi)
    inf = s.const(float("inf"), elt)
    finite = s.and_(s.cmp("lt", s.math("absf", lo), inf), s.cmp("lt", s.math("absf", hi), inf))
    assert_ok(cx, finite, "histc's range (the data's minimum and maximum) is not finite "
                          "(as ATen: 'range of [min, max] is not finite')")
    return lo, hi
