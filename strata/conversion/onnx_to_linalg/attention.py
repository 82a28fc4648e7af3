"""Attention: ai.onnx.preview FlexAttention.

    FlexAttention  scores[b,h,l,s] = scale * sum_d Q[b,h,l,d] * K[b,h/g,s,d] (one
                   linalg.generic, accumulated in the softmax precision; g = the GQA
                   group size, query head h reads K/V head floor(h / g)); the score_mod
                   body is inlined on the scores (an scf.execute_region, as control
                   flow bodies: its onnx ops are lowered by the same conversion); a
                   max-subtracted softmax along s (four generics); the prob_mod body;
                   then Y[b,h,l,e] = sum_s P[b,h,l,s] * V[b,h/g,s,e], cast back to the
                   input type.

onnx-decompose expands FlexAttention without modifier regions into its function body;
this lowering is what runs for the instances with regions (and any it is given).
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable, lowering
from ._linalg_util import dim_size, filled, map_text
from .common import empty, ranked

# ONNX TensorProto element type codes softmax_precision may name
_PRECISIONS = {1: A.f32, 10: A.f16, 11: A.f64, 16: A.bf16}


def one_generic(cx, inputs, init, maps, iters, body):
    """A linalg.generic with one output `init`; `body(s, *args)` returns the yielded
    scalar (`s` a ScalarBuilder)."""
    from ...dialects.linalg import make_generic

    def fn(b, args):
        return [body(ScalarBuilder(b, cx.loc), *args)]
    return make_generic(cx.b, inputs, [init], maps, iters, fn, [init.type],
                        loc=cx.loc).results[0]


def _apply_modifier(cx, region_index, x):
    """`x` through the modifier body of region `region_index` (x itself when the node
    has no such body)."""
    region = cx.op.regions[region_index]
    if not region.blocks:
        return x
    from .control_flow import _run_body
    from .sequences import cast_to
    (y,) = _run_body(cx, region.blocks[0], [x])
    t = y.type
    if type(t) not in (A.RankedTensorType, A.UnrankedTensorType) or \
            (type(t) is A.RankedTensorType and t.rank != 4) or \
            t.element_type is not x.type.element_type:
        raise NotLowerable(f"a modifier body yields {y.type}, expected a rank-4 tensor "
                           f"of {x.type.element_type}")
    return cast_to(cx, y, x.type)


def softmax_last(cx, x, zero_kept=False):
    """Softmax of ranked `x` along its last dim (see `softmax`)."""
    return softmax(cx, x, x.type.rank - 1, zero_kept=zero_kept)


def softmax(cx, x, axis, log=False, zero_kept=False):
    """Softmax (or with `log`, log-softmax) of ranked float `x` along dim `axis`, max
    subtracted first: exp(x - max) / sum, or (x - max) - log(sum). `zero_kept`: zeros
    stay zero and out of the sum (ONNX ml's SOFTMAX_ZERO). The one softmax builder of
    both frontends (FlexAttention, PyTorch's _softmax and _log_softmax)."""
    elt = x.type.element_type
    r = x.type.rank
    sizes = [dim_size(cx, x, k) for k in range(r)]
    kept = [k for k in range(r) if k != axis]
    red = map_text(r, kept)
    ident = map_text(r, list(range(r)))
    iters_r = ["reduction" if k == axis else "parallel" for k in range(r)]
    outer = [sizes[k] for k in kept]
    mx = one_generic(cx, [x], filled(cx, outer, elt, float("-inf")), [ident, red],
                     iters_r, lambda s, a, acc: s.max(a, acc))

    def expo(s, a, m, _):
        e = s.math("exp", s.sub(a, m))
        return s.select(s.cmp("eq", a, s.zero(elt)), s.zero(elt), e) if zero_kept else e
    ex = one_generic(cx, [x, mx], empty(cx, sizes, elt), [ident, red, ident],
                     ["parallel"] * r, expo)
    sm = one_generic(cx, [ex], filled(cx, outer, elt, 0.0), [ident, red], iters_r,
                     lambda s, a, acc: s.add(a, acc))
    if log:
        return one_generic(cx, [x, mx, sm], empty(cx, sizes, elt), [ident, red, red, ident],
                           ["parallel"] * r,
                           lambda s, a, m, t, _: s.sub(s.sub(a, m), s.math("log", t)))

    def norm(s, a, t, _):
        q = s.div(a, t)
        if zero_kept:
            q = s.select(s.cmp("eq", t, s.zero(elt)), s.zero(elt), q)
        return q
    return one_generic(cx, [ex, sm], empty(cx, sizes, elt), [ident, red, ident],
                       ["parallel"] * r, norm)


@lowering("FlexAttention")
def _flex_attention(cx):
    q, k, v = cx.operands[:3]
    for x, n in ((q, "Q"), (k, "K"), (v, "V")):
        if ranked(cx, x.type, n).rank != 4:
            raise NotLowerable(f"{n} must have rank 4, not {x.type.rank}")
    et = q.type.element_type
    if type(et) is not A.FloatType:
        raise NotLowerable(f"element type {et} (floats only)")
    sp = cx.attr("softmax_precision", None)
    if sp is None:
        st = A.f64 if et is A.f64 else A.f32
    elif sp in _PRECISIONS:
        st = _PRECISIONS[sp]
    else:
        raise NotLowerable(f"softmax_precision {sp}")
    hq, hk = q.type.shape[1], k.type.shape[1]
    if A.DYNAMIC in (hq, hk):
        raise NotLowerable("the numbers of heads must be static")
    if hq % hk:
        raise NotLowerable(f"{hq} query heads are not a multiple of {hk} K/V heads")
    g = hq // hk
    scale = cx.attr("scale", None)
    if scale is None:
        d = q.type.shape[3]
        if d == A.DYNAMIC:
            raise NotLowerable("the head size must be static (no scale attribute)")
        scale = 1.0 / math.sqrt(d)
    h_kv = "d1" if g == 1 else f"d1 floordiv {g}"
    b_, l_, s_ = dim_size(cx, q, 0), dim_size(cx, q, 2), dim_size(cx, k, 2)
    # scores: loops (b, h, l, s, d)
    iters = ["parallel"] * 4 + ["reduction"]
    acc = filled(cx, [b_, hq, l_, s_], st, 0.0)
    scores = one_generic(cx, [q, k], acc, [map_text(5, [0, 1, 2, 4]),
                                        map_text(5, [0, h_kv, 3, 4]),
                                        map_text(5, [0, 1, 2, 3])], iters,
                      lambda s, a, c, o: s.add(o, s.mul(s.cast(a, st), s.cast(c, st))))
    scores = one_generic(cx, [scores], empty(cx, [b_, hq, l_, s_], st),
                      [map_text(4, [0, 1, 2, 3])] * 2, ["parallel"] * 4,
                      lambda s, a, _: s.mul(a, s.const(scale, st)))
    from ...dialects.onnx import schema_of
    names = list(schema_of(cx.op).regions)
    score_i, prob_i = names.index("score_mod"), names.index("prob_mod")
    scores = _apply_modifier(cx, score_i, scores)
    probs = softmax_last(cx, scores)
    probs = _apply_modifier(cx, prob_i, probs)
    # output: loops (b, h, l, e, s)
    e_ = dim_size(cx, v, 3)
    acc = filled(cx, [b_, hq, l_, e_], st, 0.0)
    y = one_generic(cx, [probs, v], acc, [map_text(5, [0, 1, 2, 4]),
                                       map_text(5, [0, h_kv, 4, 3]),
                                       map_text(5, [0, 1, 2, 3])], iters,
                 lambda s, p, c, o: s.add(o, s.mul(p, s.cast(c, st))))
    out_elt = element_type(cx.result_type())
    if out_elt is not st:
        y = one_generic(cx, [y], empty(cx, [b_, hq, l_, e_], out_elt),
                     [map_text(4, [0, 1, 2, 3])] * 2, ["parallel"] * 4,
                     lambda s, a, _: s.cast(a, out_elt))
    return [y]

