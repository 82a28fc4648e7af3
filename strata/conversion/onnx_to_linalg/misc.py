"""Dropout (inference), CumSum/CumProd, Hardmax."""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable, lowering
from .common import constant_array, elementwise, ranked, sizes_of


@lowering("Dropout")
def _dropout(cx):
    """Without training mode (absent or a constant false) Dropout is the identity and its
    mask all true. Training mode draws random numbers: not lowered."""
    if cx.has_operand(2):
        tm = constant_array(cx.op.operands[2])
        ratio = constant_array(cx.op.operands[1]) if cx.has_operand(1) else None
        zero_ratio = ratio is not None and float(ratio.reshape(-1)[0]) == 0.0
        if (tm is None or bool(tm.reshape(-1)[0])) and not zero_ratio:
            raise NotLowerable("Dropout in training mode (random) is not lowered")
    if cx.attr("is_test", 0) == 0 and cx.attr("ratio") is not None and \
            len(cx.op.operands) == 1 and _opset(cx) < 7:
        raise NotLowerable("Dropout before opset 7 in training mode")
    x = cx.operands[0]
    out = [x]
    if len(cx.op.results) > 1:
        mt = cx.result_type(1)
        if type(mt) is A.NoneType:
            out.append(None)
        else:
            out.append(elementwise(cx, [x], element_type(mt), lambda s, v: s.const(1, A.i1)))
    return out


def _opset(cx):
    from ...dialects.onnx import opset_version
    return opset_version(cx.op)


def cumulate(cx, x, axis, combine, neutral, exclusive=None, reverse=None):
    """`x` accumulated along static `axis` by `combine(s, acc, v)` from `neutral(s,
    elt)`: ONNX's CumSum/CumProd (`exclusive`/`reverse` None: the op's attributes) and
    PyTorch's cumsum/cumprod, the one builder of both."""
    from ...dialects.linalg import make_generic
    from .reduction import _fill
    rank = x.type.rank
    if exclusive is None:
        exclusive, reverse = cx.attr("exclusive", 0), cx.attr("reverse", 0)
    elt = x.type.element_type
    # loops: the output dims, then j (the position along `axis` folded in)
    n = rank + 1
    j = AffineDimExpr(rank)
    in_map = AffineMap(n, 0, tuple(j if d == axis else AffineDimExpr(d) for d in range(rank)))
    out_map = AffineMap(n, 0, tuple(AffineDimExpr(d) for d in range(rank)))
    init = _fill(cx, sizes_of(cx, x), elt, lambda s, e: neutral(s, e))
    pred = ("gt" if exclusive else "ge") if reverse else ("lt" if exclusive else "le")

    def body(b, args):
        s = ScalarBuilder(b, cx.op.loc)
        i = s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(axis, A.i64)})
        jj = s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(rank, A.i64)})
        v = s.select(s.cmp(pred, jj, i), args[0], neutral(s, elt))
        return [combine(s, args[1], v)]
    return make_generic(cx.b, [x], [init], [in_map, out_map], ["parallel"] * rank +
                        ["reduction"], body, [init.type], loc=cx.op.loc).results[0]


def _cumulative(name, combine, neutral):
    @lowering(name)
    def lower(cx):
        from ...dialects.scf import IfOp, YieldOp
        from .common import scalars
        x = cx.operands[0]
        rank = ranked(cx, x.type).rank
        a = constant_array(cx.op.operands[1])
        if a is not None:
            return [cumulate(cx, x, int(a.reshape(-1)[0]) % rank, combine, neutral)]
        # an axis known only at run time: one branch per possible axis
        s = scalars(cx)
        ax = s.op1("tensor.extract", [cx.operands[1]] + [s.index(0)] *
                   cx.operands[1].type.rank, element_type(cx.operands[1].type))
        ax = s.cast(ax, A.i64)
        ax = s.select(s.cmp("lt", ax, s.const(0, A.i64)),
                      s.add(ax, s.const(rank, A.i64)), ax)

        def branch(d):
            if d == rank - 1:
                return cumulate(cx, x, d, combine, neutral)
            op = cx.b.insert(IfOp.new(s.cmp("eq", ax, s.const(d, A.i64)), [x.type],
                                      with_else=True, loc=cx.op.loc))
            saved = cx.b.ip
            cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
            cx.b.insert(YieldOp.build(values=[cumulate(cx, x, d, combine, neutral)],
                                      loc=cx.op.loc))
            cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
            cx.b.insert(YieldOp.build(values=[branch(d + 1)], loc=cx.op.loc))
            cx.b.ip = saved
            return op.results[0]
        return [branch(0)]


_cumulative("CumSum", lambda s, a, v: s.add(a, v), lambda s, e: s.zero(e))
_cumulative("CumProd", lambda s, a, v: s.mul(a, v), lambda s, e: s.one(e))


@lowering("Hardmax")
def _hardmax(cx):
    from ...dialects.onnx import opset_version
    from .reduction import keep_dims
    x = cx.operands[0]
    t = ranked(cx, x.type)
    rank = t.rank
    if opset_version(cx.op) < 13:
        raise NotLowerable("Hardmax before opset 13 (coerced to 2-D) is not lowered")
    axis = cx.attr("axis", -1) % rank
    # the first maximal index along the axis, then 1 there and 0 elsewhere
    from .reduction import arg_reduce
    idx = arg_reduce(cx, x, axis, "gt", keepdims=False)
    sizes = sizes_of(cx, x)
    idx_k = keep_dims(cx, idx, rank, [axis], sizes)
    elt = t.element_type

    def body(s, v, k):
        i = s.cast(s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(axis, A.i64)}),
                   A.i64)
        return s.select(s.cmp("eq", i, k), s.one(elt), s.zero(elt))
    return [elementwise(cx, [x, idx_k], elt, body)]
