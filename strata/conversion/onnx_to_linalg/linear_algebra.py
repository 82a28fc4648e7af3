"""ONNX linear-algebra ops -> linalg and scf: Det.

    Det
        LU factorization with partial pivoting (as LAPACK's getrf, which NumPy and ONNX's
        reference use): one scf.for over the columns, each step vectorized over the
        batch of matrices: a reduction picks the pivot row (largest magnitude, the first
        on ties), one generic swaps it into place and eliminates below it, and the
        determinant accumulates the pivots (negated on each row swap). A zero pivot
        leaves the column as it is (the determinant is then 0). f16/bf16 compute in f32.
"""
from __future__ import annotations

from ...ir import attributes as A
from . import Lowering, NotLowerable, lowering
from ._linalg_util import filled, map_text
from ._shape_util import collapse, expand, extract_slice, finish, loop_nest, out_sizes, sizes
from .common import elementwise, empty, generic_op, ranked, scalars


@lowering("Det")
def _det(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = t.element_type
    if t.rank < 2 or not isinstance(elt, A.FloatType):
        raise NotLowerable("Det needs a float tensor of rank >= 2")
    if A.DYNAMIC not in t.shape[-2:] and t.shape[-1] != t.shape[-2]:
        raise NotLowerable(f"Det of {t.shape[-2]}x{t.shape[-1]} (non-square) matrices")
    dims = sizes(cx, x)
    m = dims[-1]
    batch = dims[:-2]
    ct = A.f32 if elt.width < 32 else elt
    if t.rank == 2:
        a = expand(cx, x, [[0, 1], [2]], [1, dims[0], dims[1]])
    else:
        a = collapse(cx, x, [list(range(t.rank - 2)), [t.rank - 2], [t.rank - 1]])
    if ct is not elt:
        a = elementwise(cx, [a], ct, lambda s, v: s.cast(v, ct), result_shape=a.type.shape)
    nb = sizes(cx, a)[0]
    s = scalars(cx)
    det = filled(cx, [nb], ct, s.one(ct))

    def step(b, ivs, accs):
        icx = Lowering(cx.op, cx.operands, b.b, cx.tc)
        j = ivs[0]
        a, det = accs
        col = collapse(icx, extract_slice(icx, a, [0, 0, j], [nb, m, 1]), [[0], [1, 2]])

        def pick(s, pb, v):
            i = pb.index(1)
            mag = s.math("absf", v[0])
            cand = s.cmp("ge", i, j)
            better = s.or_(s.cmp("lt", v[2], s.zero(A.i64)), s.cmp("gt", mag, v[1]))
            take = s.and_(cand, better)
            return [s.select(take, mag, v[1]), s.select(take, s.cast(i, A.i64), v[2])]
        _, piv_row = generic_op(icx, [col], [filled(icx, [nb], ct, b.zero(ct)),
                                             filled(icx, [nb], A.i64, b.const(-1, A.i64))],
                                [map_text(2, [0, 1]), map_text(2, [0]), map_text(2, [0])],
                                ["parallel", "reduction"], pick)

        def eliminate(s, pb, v):
            bi, r, c = pb.index(0), pb.index(1), pb.index(2)
            p = s.cast(v[0], A.index)
            src = s.select(s.cmp("eq", r, j), p, s.select(s.cmp("eq", r, p), j, r))

            def at(row, column):
                return s.op1("tensor.extract", [a, bi, row, column], ct)
            piv = at(p, j)
            zero = s.cmp("eq", piv, s.zero(ct))
            factor = s.div(at(src, j), s.select(zero, s.one(ct), piv))
            below = s.and_(s.cmp("gt", r, j), s.not_(zero))
            v = at(src, c)
            return [s.select(below, s.sub(v, s.mul(factor, at(p, c))), v)]
        a2 = generic_op(icx, [piv_row], [empty(icx, [nb, m, m], ct)],
                        [map_text(3, [0]), map_text(3, [0, 1, 2])], ["parallel"] * 3,
                        eliminate)[0]

        def accumulate(s, pb, v):
            p = s.cast(v[0], A.index)
            piv = s.op1("tensor.extract", [a, pb.index(0), p, j], ct)
            piv = s.select(s.cmp("eq", p, j), piv, s.neg(piv))
            return [s.mul(v[1], piv)]
        det = generic_op(icx, [piv_row, det], [empty(icx, [nb], ct)],
                         [map_text(1, [0])] * 3, ["parallel"], accumulate)[0]
        return [a2, det]
    _, det = loop_nest(cx, [m], [a, det], step)
    out = out_sizes(cx, batch)
    if t.rank == 2:
        det = collapse(cx, det, [])
    elif t.rank > 3:
        det = expand(cx, det, [list(range(len(batch)))], out)
    if ct is not elt:
        det = elementwise(cx, [det], elt, lambda s, v: s.cast(v, elt),
                          result_shape=det.type.shape)
    return [finish(cx, det)]
