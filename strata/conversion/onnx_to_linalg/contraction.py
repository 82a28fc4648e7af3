"""Contractions: MatMul, Gemm, MatMulInteger, QLinearMatMul and Einsum.

A matrix product becomes the most specific named op that expresses it: `linalg.dot`,
`linalg.matvec`, `linalg.vecmat`, `linalg.matmul` (transposes as indexing maps), and
`linalg.batch_matmul` once the batch dims are collapsed to one (a rank-2 operand is
broadcast by its maps). Batch dims that broadcast (a size 1 against a size n) and
Einsum equations become a `linalg.generic` whose maps read the broadcast dims at 0.

Accumulation: f16/bf16 products accumulate in f32 and are rounded once at the end (as
NumPy and onnxruntime do), integers accumulate in their own (wrapping) type. The integer
ops (MatMulInteger, QLinearMatMul) subtract zero points in i32 first, then multiply.
"""
from __future__ import annotations

import re

import numpy as np

from ...ir import attributes as A
from ...ir.affine import AffineMapAttr
from ..scalar_builders import element_type, is_float
from . import NotLowerable, lowering
from ._linalg_util import (acc_type, dim_size, filled, generic_maps, map_text,
                           minus_zero_point, quantize, round_to, zero_point_rows)
from ._shape_util import collapse, expand, fit
from .common import (DYN, broadcast_groups, broadcast_operands, broadcast_shapes, elementwise,
                     ranked, same_dims, tensor_type)

# ------------------------------------------------------------------ matrix products


def contract(cx, cls, ins, init, maps=None):
    """`init +=` the named contraction `cls` of `ins` (optional indexing maps text)."""
    kw = {} if maps is None else {
        "indexing_maps": A.ArrayAttr([AffineMapAttr(m) for m in generic_maps(maps)])}
    op = cls.new(ins, [init], loc=cx.loc, **kw)
    return cx.b.insert(op).results[0]


def _batch_dims(cx, a, b):
    """The broadcast batch sizes (mixed) of the matrices `a` (..., M, K) and `b`
    (..., K, N), plus, per operand, which batch dims it reads (None: broadcast)."""
    sa, sb = list(a.type.shape[:-2]), list(b.type.shape[:-2])
    n = max(len(sa), len(sb))
    sa, sb = [None] * (n - len(sa)) + sa, [None] * (n - len(sb)) + sb
    sizes, use_a, use_b = [], [], []
    for k, (x, y) in enumerate(zip(sa, sb)):
        if x is not None and y is not None and x != DYN and y != DYN and x != y \
                and 1 not in (x, y):
            raise NotLowerable(f"batch dims {x} and {y} do not broadcast")
        ua = x is not None and not (x == 1 and y not in (None, 1))
        ub = y is not None and not (y == 1 and x not in (None, 1))
        use_a.append(ua)
        use_b.append(ub)
        if ua and (x != DYN or not ub or y == DYN):
            sizes.append(dim_size(cx, a, k - n + len(a.type.shape) - 2))
        elif ub:
            sizes.append(dim_size(cx, b, k - n + len(b.type.shape) - 2))
        else:
            sizes.append(1)
    return sizes, use_a, use_b


def matmul(cx, a, b, out_elt=None):
    """ONNX/NumPy `matmul` of converted tensors `a` and `b` (ranks >= 1, batch dims
    broadcast), as named linalg ops where one fits; the result has element type
    `out_elt` (default: the operands'), products accumulate per `acc_type`."""
    from ...dialects import linalg as L
    ta, tb = ranked(cx, a.type), ranked(cx, b.type)
    elt = out_elt or element_type(ta)
    acc = acc_type(elt)
    ra, rb = ta.rank, tb.rank
    if ra == 0 or rb == 0:
        raise NotLowerable("MatMul operands must have rank >= 1")
    a, b = same_dims(cx, [a, b], [(0, ra - 1), (1, 0 if rb == 1 else rb - 2)],
                     "the contraction dims")
    # 1-D operands are promoted to matrices, then the added dim is dropped again.
    if ra == 1 and rb <= 2:
        if rb == 1:
            r = contract(cx, L.named_op_class("dot"), [a, b], filled(cx, [], acc))
        else:
            r = contract(cx, L.named_op_class("vecmat"), [a, b],
                       filled(cx, [dim_size(cx, b, 1)], acc))
        return round_to(cx, r, elt)
    if rb == 1 and ra == 2:
        r = contract(cx, L.named_op_class("matvec"), [a, b],
                   filled(cx, [dim_size(cx, a, 0)], acc))
        return round_to(cx, r, elt)
    squeeze = []
    if ra == 1:
        a = expand(cx, a, [[0, 1]], [1, dim_size(cx, a, 0)])
        squeeze.append(-2)
    if rb == 1:
        b = expand(cx, b, [[0, 1]], [dim_size(cx, b, 0), 1])
        squeeze.append(-1)
    r = _matmul_nd(cx, a, b, acc)
    if squeeze:
        rank = r.type.rank
        keep = [i for i in range(rank) if i - rank not in squeeze]
        groups = [[i] for i in keep]
        for s in squeeze:  # fold the unit dim into its neighbour group
            d = rank + s
            j = max(k for k, g in enumerate(groups) if g[0] < d) if d else 0
            groups[j] = sorted(groups[j] + [d])
        r = collapse(cx, r, groups)
    return round_to(cx, r, elt)


def _matmul_nd(cx, a, b, acc):
    """matmul of rank >= 2 operands (batch dims broadcast) into element type `acc`."""
    from ...dialects import linalg as L
    m, n = dim_size(cx, a, -2), dim_size(cx, b, -1)
    ra, rb = a.type.rank, b.type.rank
    if ra == 2 and rb == 2:
        return contract(cx, L.MatmulOp, [a, b], filled(cx, [m, n], acc))
    if ra > 2 and rb > 2:   # batch dims that may stretch at run time
        shape = broadcast_shapes([a.type.shape[:-2], b.type.shape[:-2]])
        (a, b), _ = broadcast_operands(cx, [a, b], shape, keep=2)
    batch, use_a, use_b = _batch_dims(cx, a, b)
    nb = len(batch)
    if (all(use_a) and all(use_b)) or (ra == 2 and all(use_b)) or (rb == 2 and all(use_a)):
        # one collapsed batch dim: linalg.batch_matmul (a rank-2 side broadcast by its map)
        def flat(v):
            r = v.type.rank
            return collapse(cx, v, [list(range(r - 2)), [r - 2], [r - 1]]) if r > 3 else v
        fa, fb = flat(a), flat(b)
        bsz = dim_size(cx, fa if ra > 2 else fb, 0)
        maps = None
        if ra == 2 or rb == 2:
            maps = [map_text(4, [1, 3] if ra == 2 else [0, 1, 3]),
                    map_text(4, [3, 2] if rb == 2 else [0, 3, 2]),
                    map_text(4, [0, 1, 2])]
        r = contract(cx, L.BatchMatmulOp, [fa, fb], filled(cx, [bsz, m, n], acc), maps)
        if nb > 1:
            # The batch sizes may be static where the operand collapsed was not (N x 2
            # against 2 x M broadcast to 2 x 2) or the reverse: the collapsed dim takes
            # their product's static-ness first, as expand_shape requires.
            want = DYN if any(not isinstance(v, int) for v in batch) else \
                int(np.prod(batch, dtype=np.int64))
            if r.type.shape[0] != want:
                r = fit(cx, r, tensor_type([want] + list(r.type.shape[1:]),
                                           element_type(r.type)))
            r = expand(cx, r, [list(range(nb)), [nb], [nb + 1]], batch + [m, n])
        return r
    # broadcasting batch dims: one generic over (batch..., m, n, k)
    nl = nb + 3

    def operand_map(v, use, mat):
        r = v.type.rank
        lead = [(i if u else "0") for i, u in enumerate(use)][nb - (r - 2):]
        return map_text(nl, lead + mat)
    init = filled(cx, batch + [m, n], acc)
    maps = [operand_map(a, use_a, [nb, nb + 2]), operand_map(b, use_b, [nb + 2, nb + 1]),
            map_text(nl, list(range(nb + 2)))]
    return mac_generic(cx, [a, b], init, maps, ["parallel"] * (nb + 2) + ["reduction"])


def mac_generic(cx, ins, init, maps, iterators):
    """`init += prod(cast(ins))` as a linalg.generic (the element type of `init`)."""
    from ...dialects.linalg import make_generic
    from ..scalar_builders import ScalarBuilder
    et = element_type(init.type)

    def body(b, args):
        s = ScalarBuilder(b, cx.loc)
        p = s.cast(args[0], et)
        for x in args[1:-1]:
            p = s.mul(p, s.cast(x, et))
        return s.add(args[-1], p)
    return make_generic(cx.b, ins, [init], generic_maps(maps), iterators, body,
                        [init.type], loc=cx.loc).results[0]


@lowering("MatMul")
def _matmul(cx):
    return [matmul(cx, cx.operands[0], cx.operands[1], element_type(cx.result_type()))]


@lowering("Gemm")
def _gemm(cx):
    from ...dialects import linalg as L
    a, b = cx.operands[0], cx.operands[1]
    ranked(cx, a.type), ranked(cx, b.type)
    if a.type.rank != 2 or b.type.rank != 2:
        raise NotLowerable("Gemm operands must be matrices")
    ta, tb = cx.attr("transA", 0), cx.attr("transB", 0)
    alpha, beta = cx.attr("alpha", 1.0), cx.attr("beta", 1.0)
    elt = element_type(cx.result_type())
    acc = acc_type(elt)
    a, b = same_dims(cx, [a, b], [(0, 0 if ta else 1), (1, 1 if tb else 0)],
                     "the contraction dims")
    m = dim_size(cx, a, 1 if ta else 0)
    n = dim_size(cx, b, 0 if tb else 1)
    maps = None
    if ta or tb:
        maps = [map_text(3, [2, 0] if ta else [0, 2]), map_text(3, [1, 2] if tb else [2, 1]),
                map_text(3, [0, 1])]
    r = contract(cx, L.MatmulOp, [a, b], filled(cx, [m, n], acc), maps)
    has_c = cx.has_operand(2) and beta != 0
    vals = [r] + ([cx.operands[2]] if has_c else [])

    def body(s, y, *c):
        if alpha != 1.0:
            y = s.mul(y, s.const(alpha, y.type))
        if c:
            cv = s.cast(c[0], y.type)
            y = s.add(y, cv if beta == 1.0 else s.mul(cv, s.const(beta, y.type)))
        return s.cast(y, elt)
    if len(vals) == 1 and alpha == 1.0 and acc is elt:
        return [r]
    return [elementwise(cx, vals, elt, body, result_shape=r.type.shape)]


# ------------------------------------------------------------------ integer products


def _rows(cx):
    return lambda zp, rank: zero_point_rows(cx, zp, rank)


@lowering("MatMulInteger")
def _matmul_integer(cx):
    a = minus_zero_point(cx, 0, 2, _rows(cx))
    b = minus_zero_point(cx, 1, 3)
    return [matmul(cx, a, b, A.i32)]


@lowering("QLinearMatMul")
def _qlinear_matmul(cx):
    a = minus_zero_point(cx, 0, 2, _rows(cx))
    b = minus_zero_point(cx, 3, 5)
    acc = matmul(cx, a, b, A.i32)
    scales = [zero_point_rows(cx, cx.operands[1], cx.operands[0].type.rank), cx.operands[4]]
    return [quantize(cx, acc, scales, 6, 7)]


# ------------------------------------------------------------------ Einsum


_TERM = re.compile(r"^(?:[A-Za-z]|\.\.\.)*$")


def _parse_terms(cx, eq: str, ranks):
    """([input terms], output term) of equation `eq`, each a list of labels, the
    ellipsis expanded to labels "0", "1"... (right-aligned, shared by all terms)."""
    eq = eq.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ranks):
        raise NotLowerable(f"Einsum equation '{eq}' has {len(ins)} inputs, the op "
                           f"{len(ranks)}")
    for t in ins + ([rhs] if arrow else []):
        if not _TERM.match(t) or t.count("...") > 1:
            raise NotLowerable(f"bad Einsum term '{t}' in '{eq}'")
    n_ell = 0
    for t, r in zip(ins, ranks):
        if "..." in t:
            n_ell = max(n_ell, r - (len(t) - 3))
        elif len(t) != r:
            raise NotLowerable(f"Einsum term '{t}' does not match an operand of rank {r}")
    ell = [str(i) for i in range(n_ell)]

    def labels(t, r=None):
        head, dots, tail = t.partition("...")
        if not dots:
            return list(head)
        k = n_ell if r is None else r - len(head) - len(tail)
        return list(head) + ell[n_ell - k:] + list(tail)
    terms = [labels(t, r) for t, r in zip(ins, ranks)]
    if arrow:
        out = labels(rhs)
    else:
        counts = {}
        for t in terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, k in counts.items() if k == 1 and not c.isdigit())
    return terms, out


@lowering("Einsum")
def _einsum(cx):
    vals = list(cx.operands)
    for v in vals:
        ranked(cx, v.type)
    terms, out = _parse_terms(cx, cx.attr("equation", ""), [v.type.rank for v in vals])
    loops = list(out) + sorted({c for t in terms for c in t} - set(out))
    where = {c: i for i, c in enumerate(loops)}
    # ellipsis dims broadcast (NumPy's einsum): dynamic ones may stretch at run time
    ell = sorted({c for t in terms for c in t if c.isdigit()})
    if ell:
        groups = [[(i, k) for i, t in enumerate(terms) for k, x in enumerate(t) if x == c]
                  for c in ell]
        shape = [broadcast_shapes([[vals[i].type.shape[k]] for i, k in g])[0]
                 for g in groups]
        vals, _ = broadcast_groups(cx, vals, groups, shape)
    # every other label names one size in all its places (a diagonal too: "ii")
    for c in sorted({c for t in terms for c in t if not c.isdigit()}):
        group = [(i, k) for i, t in enumerate(terms) for k, x in enumerate(t) if x == c]
        if len(group) > 1:
            vals = same_dims(cx, vals, group, f"the dims of label '{c}'")
    sizes = {}  # label -> (operand, dim, size) giving its loop size
    for v, t in zip(vals, terms):
        for k, c in enumerate(t):
            d = v.type.shape[k]
            # only the dims of an ellipsis broadcast (NumPy's einsum)
            if c not in sizes or (c.isdigit() and sizes[c][2] == 1 and d != 1):
                sizes[c] = (v, k, d)
    if any(c not in sizes for c in out):
        raise NotLowerable("an Einsum output label appears in no input")
    elt = element_type(cx.result_type())
    acc = acc_type(elt)
    init = filled(cx, [dim_size(cx, sizes[c][0], sizes[c][1]) for c in out], acc)
    maps = []
    for v, t in zip(vals, terms):
        # a size-1 ellipsis dim broadcast against a larger one reads 0
        maps.append(map_text(len(loops), [
            "0" if c.isdigit() and v.type.shape[k] == 1 and sizes[c][2] != 1 else where[c]
            for k, c in enumerate(t)]))
    maps.append(map_text(len(loops), [where[c] for c in out]))
    its = ["parallel"] * len(out) + ["reduction"] * (len(loops) - len(out))
    if not is_float(elt) and not isinstance(elt, A.IntegerType):
        raise NotLowerable(f"Einsum of {elt} is not supported")
    r = mac_generic(cx, vals, init, maps, its)
    return [round_to(cx, r, elt)]
