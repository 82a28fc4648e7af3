"""ai.onnx.ml ops with numeric semantics: Binarizer, ArrayFeatureExtractor."""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable, lowering
from .common import elementwise, empty, ranked, scalars, sizes_of


@lowering("Binarizer")
def _binarizer(cx):
    th = cx.attr("threshold", 0.0)
    elt = element_type(cx.result_type())
    return [elementwise(cx, [cx.operands[0]], elt, lambda s, x: s.select(
        s.cmp("gt", x, s.const(th, elt)), s.one(elt), s.zero(elt)))]


@lowering("ArrayFeatureExtractor")
def _array_feature_extractor(cx):
    """Y[..., j] = X[..., indices.flat[j]]; a 1-D X gives one row (as onnxruntime)."""
    from ...dialects.linalg import make_generic
    x, idx = cx.operands
    xt, it = ranked(cx, x.type), ranked(cx, idx.type)
    if not it.has_static_shape:
        raise NotLowerable("indices need a static shape")
    s = scalars(cx)
    n = 1
    for d in it.shape:
        n *= d
    flat_t = A.RankedTensorType((n,), it.element_type)
    if it.rank != 1:
        flat = s.op1("tensor.collapse_shape", [idx], flat_t, {
            "reassociation": A.ArrayAttr([A.ArrayAttr(
                [A.IntegerAttr(i, A.i64) for i in range(it.rank)])])} if it.rank else
            {"reassociation": A.ArrayAttr([])})
    else:
        flat = idx
    xs = sizes_of(cx, x)
    lead = xs[:-1] if xt.rank > 1 else [1]
    out_sizes = lead + [n]
    rank = len(out_sizes)
    # an index out of [0, columns) is a run-time error, and the read is clamped (none
    # when X has no column; see [Note: index checks])
    from ._index_check import (assert_ok, clamp, clamp_bounds, index_ranges, range_text,
                               unless_empty)
    from ._linalg_util import filled
    cols = xs[-1]
    ok = index_ranges(cx, 1, [(0, cols)])[0]
    assert_ok(cx, ok, f"index out of range {range_text(0, cols)} on the last axis of X"
                      + ("" if isinstance(cols, int) else " (of run-time size n)"))
    hi, x_empty = clamp_bounds(cx, xs, [] if ok is True else [xt.rank - 1])
    init = empty(cx, out_sizes, xt.element_type)

    def body(b, args):
        sb = ScalarBuilder(b, cx.op.loc)
        j = sb.cast(args[0], A.index)
        if hi:
            j = clamp(sb, j, hi[xt.rank - 1])
        lead_idx = [sb.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(d, A.i64)})
                    for d in range(rank - 1)] if xt.rank > 1 else []
        return [sb.op1("tensor.extract", [x] + lead_idx + [j], xt.element_type)]
    imap = AffineMap(rank, 0, (AffineDimExpr(rank - 1),))
    return [unless_empty(cx, x_empty, init.type,
                         lambda: filled(cx, out_sizes, xt.element_type),
                         lambda: make_generic(cx.b, [flat], [init],
                                              [imap, AffineMap.identity(rank)],
                                              ["parallel"] * rank, body, [init.type],
                                              loc=cx.op.loc).results[0])]
