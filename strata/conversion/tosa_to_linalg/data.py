"""tosa-to-linalg: gather, tile and reverse as linalg.generic ops.

    gather   out[n, w, c] = values[n, indices[n, w], c]   (tensor.extract in the payload)
    reverse  out[..., i, ...] = in[..., size - 1 - i, ...]
    tile     a generic broadcasting the input to [m0, d0, m1, d1, ...] (the multiples
             interleaved with the dims), then a tensor.collapse_shape to [m0*d0, ...]
"""
from __future__ import annotations

from ...ir import attributes as A
from . import LINALG, lowering
from .common import (NotLowerable, collapse, const_ints, dims, empty, generic,
                     identity_map, parallel, ranked_type, result_dims)


def _index(s, d):
    return s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(d, A.i64)})


@lowering(LINALG, "tosa.gather")
def _gather(cx):
    values, indices = cx.operands[0], cx.operands[1]
    ranked_type(values)
    ranked_type(indices)
    rt = cx.result_type()
    init = empty(cx, result_dims(cx, rt, [indices, values]), rt.element_type)

    def body(s, args):
        i, _ = args
        n = _index(s, 0)
        k = s.cast(i, A.index)
        c = _index(s, 2)
        return s.op1("tensor.extract", [values, n, k, c], rt.element_type)
    return generic(cx, [indices], [init], ["(d0, d1, d2) -> (d0, d1)", identity_map(3)],
                   parallel(3), body)


@lowering(LINALG, "tosa.reverse")
def _reverse(cx):
    x = cx.operands[0]
    t = ranked_type(x)
    axis = cx.op.axis.value
    sizes = dims(cx, x)
    init = empty(cx, sizes, t.element_type)
    size = sizes[axis]

    def body(s, args):
        idx = [_index(s, d) for d in range(t.rank)]
        n = s.index(size) if isinstance(size, int) else size
        idx[axis] = s.sub(s.sub(n, s.index(1)), idx[axis])
        return s.op1("tensor.extract", [x] + idx, t.element_type)
    return generic(cx, [], [init], [identity_map(t.rank)], parallel(t.rank), body)


@lowering(LINALG, "tosa.tile")
def _tile(cx):
    x = cx.operands[0]
    t = ranked_type(x)
    mult = const_ints(cx.op.multiples)
    if mult is None or any(m < 1 for m in mult):
        raise NotLowerable("tile with non-constant or inferred (-1) multiples")
    if not t.has_static_shape:
        raise NotLowerable("tile of a dynamic shape")
    rank = t.rank
    wide = []
    for m, d in zip(mult, t.shape):
        wide += [m, d]
    init = empty(cx, wide, t.element_type)
    params = ", ".join(f"d{i}" for i in range(2 * rank))
    read = ", ".join(f"d{2 * i + 1}" for i in range(rank))
    tiled = generic(cx, [x], [init], [f"({params}) -> ({read})", identity_map(2 * rank)],
                    parallel(2 * rank), lambda s, args: args[0])[0]
    static = A.RankedTensorType([m * d for m, d in zip(mult, t.shape)], t.element_type)
    r = collapse(cx, tiled, [[2 * i, 2 * i + 1] for i in range(rank)], static)
    rt = cx.result_type()
    return [r if rt is static else cx.value("tensor.cast", [r], rt)]
