"""Memref layouts: strides, offsets and the result types of the memref view ops.

A ranked memref's layout maps an index (i0, ..., iN) to a linear element position. No
layout (the identity) is contiguous row-major; `strided<[s0, ..., sN], offset: o>` is
`o + i0 * s0 + ... + iN * sN` (`?` entries are dynamic); an `affine_map` layout is strided
when its single result is such a linear form. `strides_and_offset(t)` reads the strides
and offset of any strided memref type (upstream's getStridesAndOffset), None otherwise.
The view ops compute their result types from them as upstream does: `subview_type`,
`rank_reduced_subview_type`, `expanded_type`, `collapsed_type`, `collapsed_layout`,
`transposed_type`. Sizes, strides and offsets combine as SaturatedInteger does (anything
with a dynamic value is dynamic, times 0 is 0).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap, AffineMapAttr, \
    AffineSymbolExpr
from .tensor import _rank_reduction_mask

__all__ = [
    "DYN", "sat_mul", "sat_add", "is_identity_layout", "canonical_strides",
    "strides_and_offset", "is_strided", "is_contiguous_row_major", "num_layout_symbols",
    "strided_type", "element_size_bits", "subview_type", "rank_reduced_subview_type",
    "expanded_type", "collapsed_layout", "collapsed_type", "transposed_type",
    "canonical_strided_layout", "same_canonical_layout",
]

DYN = A.DYNAMIC


def sat_mul(a: int, b: int) -> int:
    """SaturatedInteger product: 0 wins, else dynamic wins."""
    if a == 0 or b == 0:
        return 0
    if a == DYN or b == DYN:
        return DYN
    return a * b


def sat_add(a: int, b: int) -> int:
    return DYN if a == DYN or b == DYN else a + b


def is_identity_layout(t) -> bool:
    """MemRefLayoutAttrInterface::isIdentity: no layout, or one whose affine map is the
    identity (`strided<[1]>` of a 1-d memref is one)."""
    lay = t.layout
    if lay is None:
        return True
    if type(lay) is A.StridedLayoutAttr:
        return lay.offset == 0 and lay.strides == (1,)
    m = lay.value
    return m.is_identity() and m.num_dims == len(t.shape)


def canonical_strides(shape) -> list:
    """Row-major strides of `shape`; a stride left of a dynamic size is dynamic."""
    out = [1] * len(shape)
    running = 1
    for i in range(len(shape) - 1, -1, -1):
        out[i] = running
        running = sat_mul(running, shape[i]) if running != DYN else DYN
        if shape[i] == DYN:
            running = DYN
    return out


def _linear_form(e, nsyms):
    """An affine expression as ({dim: coefficient}, constant), coefficients DYN where a
    symbol multiplies; None when it is not such a linear form (mod, floordiv...)."""
    from ..ir.affine import ADD, CONSTANT, DIM, MUL, SYMBOL
    k = e.kind
    if k == CONSTANT:
        return {}, e.value
    if k == DIM:
        return {e.position: 1}, 0
    if k == SYMBOL:
        return {}, DYN
    if k == ADD:
        a, b = _linear_form(e.lhs, nsyms), _linear_form(e.rhs, nsyms)
        if a is None or b is None:
            return None
        dims = dict(a[0])
        for d, c in b[0].items():
            dims[d] = sat_add(dims.get(d, 0), c)
        return dims, sat_add(a[1], b[1])
    if k == MUL:
        a, b = _linear_form(e.lhs, nsyms), _linear_form(e.rhs, nsyms)
        if a is None or b is None:
            return None
        if a[0] and b[0]:
            return None
        if b[0]:
            a, b = b, a
        # a * b where b has no dims: b is a constant or symbolic (DYN)
        f = b[1]
        return {d: sat_mul(c, f) for d, c in a[0].items()}, sat_mul(a[1], f)
    return None


def strides_and_offset(t):
    """(strides, offset) of a ranked memref type (getStridesAndOffset), DYN for dynamic
    values; None when the layout is not strided."""
    if type(t) is not A.MemRefType:
        return None
    lay = t.layout
    if lay is None:
        return canonical_strides(t.shape), 0
    if type(lay) is A.StridedLayoutAttr:
        return list(lay.strides), lay.offset
    m = lay.value
    if m.is_identity() and m.num_dims == len(t.shape):
        return canonical_strides(t.shape), 0
    if m.num_results != 1:
        return None
    form = _linear_form(m.results[0], m.num_symbols)
    if form is None:
        return None
    dims, offset = form
    return [dims.get(i, 0) for i in range(m.num_dims)], offset


def is_strided(t) -> bool:
    return strides_and_offset(t) is not None


def is_contiguous_row_major(t) -> bool:
    """Whether the elements of `t` are laid out row-major without gaps from its offset
    (the identity layout, or strides equal to the canonical ones where known)."""
    so = strides_and_offset(t)
    if so is None:
        return False
    strides, _ = so
    canon = canonical_strides(t.shape)
    return all(s == c and s != DYN or (t.shape[i] == 1)
               for i, (s, c) in enumerate(zip(strides, canon)))


def num_layout_symbols(t) -> int:
    """The number of symbols of the layout's affine map (operands in `[...]` of alloc)."""
    lay = t.layout
    if lay is None or is_identity_layout(t):
        return 0
    if type(lay) is A.StridedLayoutAttr:
        return (lay.offset == DYN) + sum(1 for s in lay.strides if s == DYN)
    return lay.value.num_symbols


def strided_type(shape, element_type, strides, offset, memory_space=None):
    """memref<shape x element_type, strided<strides, offset: offset>>."""
    return A.MemRefType(shape, element_type, A.StridedLayoutAttr(strides, offset),
                        memory_space)


def element_size_bits(t) -> int | None:
    et = t.element_type if isinstance(t, A.ShapedType) else t
    if isinstance(et, A.ComplexType):
        w = element_size_bits(et.element_type)
        return None if w is None else 2 * w
    if isinstance(et, A.ShapedType):  # vector elements
        w = element_size_bits(et.element_type)
        return None if w is None else w * et.num_elements
    return getattr(et, "width", None)


def subview_type(source, offsets, sizes, strides):
    """SubViewOp::inferResultType: the static `sizes`, with a strided layout whose offset
    and strides are the source's moved by `offsets` and scaled by `strides`."""
    src_strides, src_offset = strides_and_offset(source)
    off = src_offset
    for o, s in zip(offsets, src_strides):
        off = sat_add(off, sat_mul(o, s))
    out = [sat_mul(s, st) for s, st in zip(src_strides, strides)]
    return strided_type(sizes, source.element_type, out, off, source.memory_space)


def rank_reduced_subview_type(result_shape, source, offsets, sizes, strides):
    """SubViewOp::inferRankReducedResultType: as subview_type, with the unit dims not in
    `result_shape` dropped (None when that is impossible)."""
    t = subview_type(source, offsets, sizes, strides)
    if len(t.shape) == len(result_shape):
        return t
    dropped = _rank_reduction_mask(t.shape, list(result_shape))
    if dropped is None:
        return None
    lay = t.layout
    kept = [s for i, s in enumerate(lay.strides) if i not in dropped]
    return strided_type(result_shape, t.element_type, kept, lay.offset, t.memory_space)


def expanded_type(source, result_shape, groups):
    """ExpandShapeOp::computeExpandedType; None when the source is not strided."""
    if is_identity_layout(source):
        return A.MemRefType(result_shape, source.element_type, None, source.memory_space)
    so = strides_and_offset(source)
    if so is None:
        return None
    src_strides, offset = so
    rev = []
    k = len(result_shape) - 1
    for g, stride in reversed(list(zip(groups, src_strides))):
        cur = stride
        for _ in g:
            rev.append(cur)
            cur = sat_mul(cur, result_shape[k])
            k -= 1
    strides = list(reversed(rev))
    strides += [1] * (len(result_shape) - len(strides))
    return strided_type(result_shape, source.element_type, strides, offset,
                        source.memory_space)


def collapsed_layout(source, groups, strict=False):
    """computeCollapsedLayoutMap: the strided layout of collapsing `groups` of `source`;
    None when the source is not strided or a group is not contiguous."""
    so = strides_and_offset(source)
    if so is None:
        return None
    src_strides, offset = so
    shape = source.shape
    out = []
    for g in groups:
        ref = list(g)
        while len(ref) > 1 and shape[ref[-1]] == 1:
            ref.pop()
        if shape[ref[-1]] != DYN or len(ref) == 1:
            out.append(src_strides[ref[-1]])
        else:
            out.append(DYN)
    k = len(out) - 1
    for g in reversed(groups):
        stride = out[k]
        k -= 1
        for idx in reversed(g[1:]):
            stride = sat_mul(stride, shape[idx])
            src = src_strides[idx - 1]
            if strict and (stride == DYN or src == DYN):
                return None
            if shape[idx - 1] == 1:
                continue
            if stride != DYN and src != DYN and stride != src:
                return None
    return A.StridedLayoutAttr(out, offset)


def collapsed_type(source, groups):
    """CollapseShapeOp::computeCollapsedType; None when the groups cannot be collapsed."""
    shape = []
    for g in groups:
        n = 1
        for d in g:
            n = sat_mul(n, source.shape[d])
        shape.append(n)
    if is_identity_layout(source):
        return A.MemRefType(shape, source.element_type, None, source.memory_space)
    lay = collapsed_layout(source, groups)
    if lay is None:
        return None
    return A.MemRefType(shape, source.element_type, lay, source.memory_space)


def transposed_type(source, permutation):
    """inferTransposeResultType: sizes and strides permuted by the permutation map."""
    strides, offset = strides_and_offset(source)
    perm = [r.position for r in permutation.results]
    return strided_type([source.shape[p] for p in perm], source.element_type,
                        [strides[p] for p in perm], offset, source.memory_space)


def _strided_expr(strides, offset):
    """makeStridedLinearLayoutMap's expression: offset (s0 if dynamic) + d_i * stride_i
    (the next symbol where dynamic)."""
    nsym = 0
    if offset == DYN:
        e = AffineSymbolExpr(0)
        nsym = 1
    else:
        e = AffineConstantExpr(offset)
    for i, s in enumerate(strides):
        if s == DYN:
            m = AffineSymbolExpr(nsym)
            nsym += 1
        else:
            m = AffineConstantExpr(s)
        e = e + AffineDimExpr(i) * m
    return e, nsym


def _canonical_expr(shape):
    """makeCanonicalStridedLayoutExpr: row-major, a new symbol per stride left of a
    dynamic (or zero) size."""
    if not shape:
        return AffineConstantExpr(0), 0
    e = None
    nsym = 0
    poison = False
    running = 1
    for i in range(len(shape) - 1, -1, -1):
        if poison:
            stride = AffineSymbolExpr(nsym)
            nsym += 1
        else:
            stride = AffineConstantExpr(running)
        term = AffineDimExpr(i) * stride
        e = term if e is None else e + term
        if shape[i] > 0:
            running *= shape[i]
        else:
            poison = True
    return e, nsym


def _terms(e):
    """A sum of products of a dim, symbol or constant as a sorted tuple of (dim, symbol,
    constant) monomials, or None (what simplifyAffineExpr makes equal is then equal)."""
    from ..ir.affine import ADD, CONSTANT, DIM, MUL, SYMBOL
    out = {}
    stack = [e]
    while stack:
        x = stack.pop()
        if x.kind == ADD:
            stack += [x.lhs, x.rhs]
            continue
        factors = [x.lhs, x.rhs] if x.kind == MUL else [x]
        dim = sym = None
        c = 1
        for f in factors:
            if f.kind == CONSTANT:
                c *= f.value
            elif f.kind == DIM and dim is None:
                dim = f.position
            elif f.kind == SYMBOL and sym is None:
                sym = f.position
            else:
                return None
        if c:
            out[(dim, sym)] = out.get((dim, sym), 0) + c
    return tuple(sorted(((k, v) for k, v in out.items() if v),
                        key=lambda kv: (kv[0][0] is None, kv[0][0] or 0, kv[0][1] is None,
                                        kv[0][1] or 0)))


def same_canonical_layout(a, b) -> bool:
    """Whether two memref types are equal once canonicalizeStridedLayout has simplified
    their layouts: `d1 * s0 + d0` and `d0 + d1 * s0` are one layout (simplifyAffineExpr
    orders the terms), which canonical_strided_layout keeps as written."""
    a, b = canonical_strided_layout(a), canonical_strided_layout(b)
    if a is b:
        return True
    if (a.shape, a.element_type, a.memory_space) != (b.shape, b.element_type, b.memory_space):
        return False
    la, lb = a.layout, b.layout
    if type(la) is not AffineMapAttr or type(lb) is not AffineMapAttr:
        return False
    ma, mb = la.value, lb.value
    if (ma.num_dims, ma.num_symbols, ma.num_results) != \
            (mb.num_dims, mb.num_symbols, mb.num_results) or ma.num_results != 1:
        return False
    ta = _terms(ma.results[0])
    return ta is not None and ta == _terms(mb.results[0])


def canonical_strided_layout(t):
    """MemRefType::canonicalizeStridedLayout: the type without layout when its layout is
    the canonical row-major one, else with the layout as a single-result affine map."""
    lay = t.layout
    if lay is None or is_identity_layout(t):
        return t
    if type(lay) is A.StridedLayoutAttr:
        expr, nsym = _strided_expr(lay.strides, lay.offset)
        ndims = len(lay.strides)
    else:
        m = lay.value
        if m.num_results > 1:
            return t
        expr, nsym, ndims = m.results[0], m.num_symbols, m.num_dims
    if ndims == 0 and nsym == 0:
        if type(expr) is AffineConstantExpr and expr.value == 0:
            return A.MemRefType(t.shape, t.element_type, None, t.memory_space)
        return t
    if not t.shape:
        return t
    canon, _ = _canonical_expr(t.shape)
    if canon is expr or _terms(canon) == _terms(expr) is not None:
        return A.MemRefType(t.shape, t.element_type, None, t.memory_space)
    return A.MemRefType(t.shape, t.element_type,
                        AffineMapAttr(AffineMap(ndims, nsym, [expr])), t.memory_space)
