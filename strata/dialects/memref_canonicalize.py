"""The memref dialect's canonicalization patterns (upstream's getCanonicalizationPatterns
of alloc, alloca, subview and copy); folds live in the op classes (memref.py).

    %a = memref.alloc(%c4) : memref<?xf32>       %a = memref.alloc() : memref<4xf32>
                                          ->     %cast = memref.cast %a : memref<4xf32>
                                                   to memref<?xf32>

- SimplifyAllocConst: constant dynamic sizes of alloc/alloca become static, the new
  buffer is cast back to the old type.
- SimplifyDeadAlloc: an alloc/alloca only stored into and deallocated is erased.
- Subview constant arguments: constant offsets/sizes/strides become static (when the
  slice stays in bounds), with a cast back to the old result type.
- Subview of a cast: the subview reads the cast's (more static) source.
- Trivial subview (zero offsets, unit strides, full static sizes): the source (or a cast).
- Copy: of casts (read the cast sources), of a buffer onto itself, of empty buffers.
- Reshapes: expand of expand and collapse of collapse compose into one; collapse of
  expand becomes one collapse, one expand or a cast (ranks decide); collapse of a cast
  collapses the cast's source (then casts).
- dim of memref.reshape: a load of the shape operand (when the index dominates the
  reshape), placed right after the reshape.
- reinterpret_cast of extract_strided_metadata: the metadata's source (or a cast of
  it) when the pair changes nothing, else the reinterpret_cast reads that source;
  constant offsets/sizes/strides (or ones the result type fixes) become static.
- realloc: dead as an alloc is (only stored into and deallocated).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..rewrite.folding import constant_value
from ..rewrite.pattern import RewritePattern
from . import memref as M
from .memref_layout import strides_and_offset, subview_type

__all__ = ["patterns_for"]

DYN = A.DYNAMIC


def _const_int(v):
    c = constant_value(v)
    return c.value if type(c) is A.IntegerAttr else None


def _cast_to(rewriter, op, new_value, old_type):
    """Replace `op` with a memref.cast of `new_value` to `old_type`."""
    rewriter.replace_op_with_new(op, M.CastOp, source=new_value, result_types=[old_type])


class SimplifyAllocConst(RewritePattern):
    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        sizes = op.dynamicSizes
        consts = [_const_int(v) for v in sizes]
        if all(c is None or c < 0 for c in consts):
            return False
        t = op.results[0].type
        shape, dynamic = [], []
        k = 0
        for d in t.shape:
            if d != DYN:
                shape.append(d)
                continue
            c = consts[k]
            if c is not None and c >= 0:
                shape.append(c)
            else:
                shape.append(DYN)
                dynamic.append(sizes[k])
            k += 1
        new_t = A.MemRefType(shape, t.element_type, t.layout, t.memory_space)
        rewriter.set_insertion_point_before(op)
        new = rewriter.create(type(op), dynamicSizes=dynamic,
                              symbolOperands=list(op.symbolOperands),
                              alignment=op.properties.get("alignment"),
                              result_types=[new_t], loc=op.loc)
        _cast_to(rewriter, op, new.results[0], t)
        return True


class SimplifyDeadAlloc(RewritePattern):
    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        buf = op.results[0]
        users = []
        for u in buf.uses:
            user = u.owner
            if type(user) is M.StoreOp:
                if user.value is buf:
                    return False
            elif type(user) is not M.DeallocOp:
                return False
            if user not in users:
                users.append(user)
        for user in users:
            rewriter.erase_op(user)
        rewriter.erase_op(op)
        return True


def _mixed(op):
    return [list(op.mixed_offsets), list(op.mixed_sizes), list(op.mixed_strides)]


def _fold_constants(mixed, non_negative):
    """foldDynamicIndexList: constant values become integers; True if any did."""
    changed = False
    for i, v in enumerate(mixed):
        if isinstance(v, int):
            continue
        c = _const_int(v)
        if c is None or (non_negative and c < 0):
            continue
        mixed[i] = c
        changed = True
    return changed


def _split(mixed):
    return ([v for v in mixed if not isinstance(v, int)],
            A.DenseArrayAttr(A.i64, [v if isinstance(v, int) else DYN for v in mixed]))


def _new_subview(rewriter, op, source, mixed, result_type):
    (offs, soffs), (sizes, ssizes), (strides, sstrides) = map(_split, mixed)
    rewriter.set_insertion_point_before(op)
    return rewriter.create(M.SubViewOp, source=source, offsets=offs, sizes=sizes,
                           strides=strides, static_offsets=soffs, static_sizes=ssizes,
                           static_strides=sstrides, result_types=[result_type], loc=op.loc)


def _drop(t, dropped):
    """`t` (a strided subview type) without the `dropped` dims."""
    strides, offset = strides_and_offset(t)
    keep = [i for i in range(t.rank) if i not in dropped]
    return M.strided_type([t.shape[i] for i in keep], t.element_type,
                          [strides[i] for i in keep], offset, t.memory_space)


def _static(mixed):
    return [v if isinstance(v, int) else DYN for v in mixed]


def _fold_strides(mixed):
    """foldDynamicIndexList for strides: a constant 0 stride stays a value (a zero stride
    does not make a valid static layout)."""
    changed = False
    for i, v in enumerate(mixed):
        if isinstance(v, int):
            continue
        c = _const_int(v)
        if c is None or c == 0:
            continue
        mixed[i] = c
        changed = True
    return changed


class SubViewConstantArguments(RewritePattern):
    """OpWithOffsetSizesAndStridesConstantArgumentFolder for subview."""

    root = "memref.subview"

    def match_and_rewrite(self, op, rewriter):
        mixed = _mixed(op)
        # One list per application, as upstream's short-circuit `failed(...) && ...`.
        if not (_fold_constants(mixed[0], True) or _fold_constants(mixed[1], True) or
                _fold_strides(mixed[2])):
            return False
        src = op.source.type
        offsets, sizes, strides = map(_static, mixed)
        if M._in_bounds_error(src.shape, offsets, sizes, strides):
            return False
        t = _drop(subview_type(src, offsets, sizes, strides), op.dropped_dims())
        new = _new_subview(rewriter, op, op.source, mixed, t)
        _cast_to(rewriter, op, new.results[0], op.results[0].type)
        return True


def can_fold_cast_into_consumer(cast) -> bool:
    """CastOp::canFoldIntoConsumerOp: a ranked cast that only makes sizes, offset or
    strides more dynamic."""
    st, rt = cast.source.type, cast.results[0].type
    if type(st) is not A.MemRefType or type(rt) is not A.MemRefType:
        return False
    if st.element_type is not rt.element_type or st.rank != rt.rank:
        return False
    ss, rs = strides_and_offset(st), strides_and_offset(rt)
    if ss is None or rs is None:
        return False
    more_static = lambda a, b: a != b and a == DYN and b != DYN  # noqa: E731
    if any(map(more_static, st.shape, rt.shape)) or more_static(ss[1], rs[1]):
        return False
    return not any(map(more_static, ss[0], rs[0]))


class SubViewOfCast(RewritePattern):
    """SubViewOpMemRefCastFolder."""

    root = "memref.subview"

    def match_and_rewrite(self, op, rewriter):
        if any(_const_int(o.value) is not None for o in op._operands[1:]):
            return False
        cast = op.source.defining_op
        if type(cast) is not M.CastOp or not can_fold_cast_into_consumer(cast):
            return False
        src = cast.source.type
        full = subview_type(src, op.properties["static_offsets"].value,
                            op.properties["static_sizes"].value,
                            op.properties["static_strides"].value)
        dropped = M._memref_rank_reduction_mask(op.inferred_type(), op.results[0].type,
                                                list(op.properties["static_sizes"].value))
        if dropped is None:
            return False
        new = _new_subview(rewriter, op, cast.source, _mixed(op), _drop(full, dropped))
        _cast_to(rewriter, op, new.results[0], op.results[0].type)
        return True


class TrivialSubView(RewritePattern):
    """TrivialSubViewOpFolder."""

    root = "memref.subview"

    def match_and_rewrite(self, op, rewriter):
        st, rt = op.source.type, op.results[0].type
        if st.rank != rt.rank:
            return False
        value = lambda v: v if isinstance(v, int) else _const_int(v)  # noqa: E731
        if any(value(v) != 0 for v in op.mixed_offsets) or \
                any(value(v) != 1 for v in op.mixed_strides):
            return False
        if [value(v) for v in op.mixed_sizes] != list(st.shape):
            return False
        if st is rt:
            rewriter.replace_op(op, [op.source])
        else:
            _cast_to(rewriter, op, op.source, rt)
        return True


class FoldCopyOfCast(RewritePattern):
    root = "memref.copy"

    def match_and_rewrite(self, op, rewriter):
        changed = False
        for i in range(2):
            c = op._operands[i].value.defining_op
            if type(c) is M.CastOp and type(c.source.type) is A.MemRefType:
                rewriter.set_operand(op, i, c.source)
                changed = True
        return changed


class FoldSelfOrEmptyCopy(RewritePattern):
    root = "memref.copy"

    def match_and_rewrite(self, op, rewriter):
        empty = any(type(t) is A.MemRefType and 0 in t.shape
                    for t in (op.source.type, op.target.type))
        if op.source is not op.target and not empty:
            return False
        rewriter.erase_op(op)
        return True


# ==================================================================== reshapes

def _groups_attr(groups):
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g]) for g in groups])


def _non_identity(t) -> bool:
    """hasNonIdentityLayout."""
    return type(t) is A.MemRefType and not M.is_identity_layout(t)


def _new_reshape(rewriter, op, cls, source, groups, result_type, output_shape=None):
    kw = dict(src=source, reassociation=_groups_attr(groups), result_types=[result_type])
    if cls is M.ExpandShapeOp:
        kw["output_shape"] = [v for v in output_shape if not isinstance(v, int)]
        kw["static_output_shape"] = A.DenseArrayAttr(
            A.i64, [v if isinstance(v, int) else DYN for v in output_shape])
    return rewriter.replace_op_with_new(op, cls, **kw)


def compose_reassociation(producer, consumer):
    """composeReassociationIndices: the groups of two same-direction reshapes as one
    (None when they do not compose)."""
    if len(producer) == len(consumer):
        return None
    if len(producer) < len(consumer):
        producer, consumer = consumer, producer
    if not consumer:
        return []
    if sum(len(g) for g in consumer) != len(producer):
        return None
    return [[i for c in g for i in producer[c]] for g in consumer]


def collapse_of_expand_groups(higher, lower):
    """The groups of a collapse_shape(expand_shape(x)) as one reshape between x and the
    result: `higher` are the groups of the reshape on the higher-rank side, `lower` the
    other's; each lower group must be a union of consecutive higher groups (None when
    not). Shared by the memref and tensor ComposeCollapseOfExpand patterns."""
    k, composed = 0, []
    for group in lower:
        ids = []
        while k < len(higher):
            last = higher[k][-1]
            if last > group[-1]:
                return None
            ids.append(k)
            k += 1
            if last == group[-1]:
                break
        composed.append(ids)
    return composed


def grouped_sizes(rewriter, op, sizes, groups):
    """The size of each group of `sizes`: a static product, or arith.muli of the
    dynamic ones (times the static product). Shared by the memref and tensor reshape
    patterns."""
    from .arith import ConstantOp, MulIOp
    out = []
    for g in groups:
        n, dyn = 1, []
        for i in g:
            v = sizes[i]
            c = v if isinstance(v, int) else _const_int(v)
            if c is not None and c != DYN:
                n *= c
            else:
                dyn.append(v)
        if not dyn:
            out.append(n)
            continue
        r = dyn[0]
        for v in dyn[1:]:
            r = rewriter.create(MulIOp, lhs=r, rhs=v, result_types=[A.index],
                                loc=op.loc).results[0]
        if n != 1:
            c = rewriter.create(ConstantOp, value=A.IntegerAttr(n, A.index),
                                result_types=[A.index], loc=op.loc).results[0]
            r = rewriter.create(MulIOp, lhs=r, rhs=c, result_types=[A.index],
                                loc=op.loc).results[0]
        out.append(r)
    return out

class ComposeReassociativeReshape(RewritePattern):
    """ComposeReassociativeReshapeOps: expand(expand(x)) or collapse(collapse(x)) is one
    reshape of x (identity layouts only)."""

    def __init__(self, root, cls):
        self.root = root
        self.cls = cls

    def match_and_rewrite(self, op, rewriter):
        inner = op.src.defining_op
        if type(inner) is not self.cls:
            return False
        if any(map(_non_identity, (inner.src.type, op.src.type, op.results[0].type))):
            return False
        groups = compose_reassociation(inner.reassociation_indices,
                                       op.reassociation_indices)
        if groups is None:
            return False
        shape = list(op.mixed_output_shape) if self.cls is M.ExpandShapeOp else None
        _new_reshape(rewriter, op, self.cls, inner.src, groups, op.results[0].type, shape)
        return True


class ComposeCollapseOfExpand(RewritePattern):
    """ComposeCollapseOfExpandOp: collapse(expand(x)) as one collapse (x of higher rank
    than the result), one expand (lower) or a cast (same rank), when the collapse's
    groups are unions of the expand's."""

    root = "memref.collapse_shape"

    def match_and_rewrite(self, op, rewriter):
        expand = op.src.defining_op
        if type(expand) is not M.ExpandShapeOp:
            return False
        if any(map(_non_identity, (op.src.type, expand.src.type,
                                   expand.results[0].type))):
            return False
        st, rt = expand.src.type, op.results[0].type
        if st is rt:
            return False
        if st.rank > rt.rank:
            higher, lower = expand.reassociation_indices, op.reassociation_indices
        else:
            higher, lower = op.reassociation_indices, expand.reassociation_indices
        composed = collapse_of_expand_groups(higher, lower)
        if composed is None:
            return False
        if st.rank > rt.rank:
            _new_reshape(rewriter, op, M.CollapseShapeOp, expand.src, composed, rt)
        elif st.rank < rt.rank:
            rewriter.set_insertion_point_before(op)
            shape = grouped_sizes(rewriter, op, list(expand.mixed_output_shape),
                                  op.reassociation_indices)
            _new_reshape(rewriter, op, M.ExpandShapeOp, expand.src, composed, rt, shape)
        else:
            _cast_to(rewriter, op, expand.src, rt)
        return True


class CollapseOfCast(RewritePattern):
    """CollapseShapeOpMemRefCastFolder: collapse the (more static) source of a cast; the
    result is cast back when its type changes."""

    root = "memref.collapse_shape"

    def match_and_rewrite(self, op, rewriter):
        cast = op.src.defining_op
        if type(cast) is not M.CastOp or not can_fold_cast_into_consumer(cast):
            return False
        groups = op.reassociation_indices
        t = M.collapsed_type(cast.source.type, groups)
        if t is None:
            return False
        if t is op.results[0].type:
            rewriter.set_operand(op, 0, cast.source)
            return True
        rewriter.set_insertion_point_before(op)
        new = rewriter.create(M.CollapseShapeOp, src=cast.source,
                              reassociation=_groups_attr(groups), result_types=[t],
                              loc=op.loc)
        _cast_to(rewriter, op, new.results[0], op.results[0].type)
        return True


# ==================================================================== dim, reinterpret_cast

class DimOfReshape(RewritePattern):
    """DimOfMemRefReshape: memref.dim of a memref.reshape loads the shape operand right
    after the reshape (before anything can store into it), when the index is defined
    before the reshape in its block or in an enclosing region."""

    root = "memref.dim"

    def match_and_rewrite(self, op, rewriter):
        reshape = op.source.defining_op
        if type(reshape) is not M.ReshapeOp:
            return False
        idx = op.index
        d = idx.defining_op
        idx_block = d.parent if d is not None else idx.owner
        if idx_block is reshape.parent:
            if d is not None and reshape.is_before_in_block(d):
                return False
        elif op.parent is not reshape.parent:
            region = idx_block.parent
            r = reshape.parent.parent
            r = r.parent_op.parent.parent if r is not None and r.parent_op is not None \
                and r.parent_op.parent is not None else None
            while r is not None and r is not region:
                p = r.parent_op
                r = p.parent.parent if p is not None and p.parent is not None else None
            if r is None:
                return False
        rewriter.set_insertion_point_after(reshape)
        load = rewriter.create(M.LoadOp, memref=reshape.shape, indices=[idx],
                               result_types=[reshape.shape.type.element_type],
                               loc=op.loc).results[0]
        if load.type is not A.index:
            from .arith import IndexCastOp
            load = rewriter.create(IndexCastOp, in_=load, result_types=[A.index],
                                   loc=op.loc).results[0]
        rewriter.replace_op(op, [load])
        return True


def _constified(values, static):
    """constifyIndexValues: a value the type fixes, or a constant one, becomes an int."""
    out = []
    for v, s in zip(values, static):
        if s != DYN:
            out.append(s)
        elif not isinstance(v, int) and _const_int(v) is not None:
            out.append(_const_int(v))
        else:
            out.append(v)
    return out


def _reinterpret_constified(op):
    """(offset, sizes, strides) of a reinterpret_cast, constified by its result type."""
    rt = op.results[0].type
    strides, offset = strides_and_offset(rt)
    return (_constified([op.mixed_offsets[0]], [offset])[0],
            _constified(op.mixed_sizes, rt.shape), _constified(op.mixed_strides, strides))


def _metadata_constified(meta):
    """(offset, sizes, strides) of an extract_strided_metadata, constified by its
    source type."""
    st = meta.source.type
    strides, offset = strides_and_offset(st)
    n = st.rank
    res = list(meta.results)
    return (_constified([res[1]], [offset])[0], _constified(res[2:2 + n], st.shape),
            _constified(res[2 + n:2 + 2 * n], strides))


def _same(a, b) -> bool:
    return a is b or (isinstance(a, int) and isinstance(b, int) and a == b)


class ReinterpretOfMetadata(RewritePattern):
    """ReinterpretCastOpExtractStridedMetadataFolder."""

    root = "memref.reinterpret_cast"

    def match_and_rewrite(self, op, rewriter):
        meta = op.source.defining_op
        if type(meta) is not M.ExtractStridedMetadataOp:
            return False
        mo, ms, mst = _metadata_constified(meta)
        ro, rs, rst = _reinterpret_constified(op)
        noop = (len(mst) == len(rst) and all(map(_same, mst, rst)) and
                len(ms) == len(rs) and all(map(_same, ms, rs)) and _same(mo, ro))
        if not noop:
            rewriter.set_operand(op, 0, meta.source)
            return True
        if meta.source.type is op.results[0].type:
            rewriter.replace_op(op, [meta.source])
        else:
            _cast_to(rewriter, op, meta.source, op.results[0].type)
        return True


class ReinterpretConstantArguments(RewritePattern):
    """ReinterpretCastOpConstantFolder: offsets, sizes and strides that are constants
    (or that the result type fixes) become static, with a cast back to the old type."""

    root = "memref.reinterpret_cast"

    def match_and_rewrite(self, op, rewriter):
        before = sum(isinstance(v, int) for v in
                     [*op.mixed_offsets, *op.mixed_sizes, *op.mixed_strides])
        off, sizes, strides = _reinterpret_constified(op)
        if before == sum(isinstance(v, int) for v in [off, *sizes, *strides]):
            return False
        src = op.source.type
        t = A.MemRefType([v if isinstance(v, int) else DYN for v in sizes],
                         src.element_type,
                         A.StridedLayoutAttr([v if isinstance(v, int) else DYN
                                              for v in strides],
                                             off if isinstance(off, int) else DYN),
                         src.memory_space)
        (o, so), (sz, ssz), (st, sst) = map(_split, ([off], sizes, strides))
        rewriter.set_insertion_point_before(op)
        new = rewriter.create(M.ReinterpretCastOp, source=op.source, offsets=o, sizes=sz,
                              strides=st, static_offsets=so, static_sizes=ssz,
                              static_strides=sst, result_types=[t], loc=op.loc)
        _cast_to(rewriter, op, new.results[0], op.results[0].type)
        return True


_PATTERNS = None


def patterns_for(name):
    """Op name -> its canonicalization patterns, in upstream's registration order."""
    global _PATTERNS
    if _PATTERNS is None:
        _PATTERNS = {
            "memref.alloc": [SimplifyAllocConst("memref.alloc"),
                             SimplifyDeadAlloc("memref.alloc")],
            "memref.alloca": [SimplifyAllocConst("memref.alloca"),
                              SimplifyDeadAlloc("memref.alloca")],
            "memref.realloc": [SimplifyDeadAlloc("memref.realloc")],
            "memref.subview": [SubViewConstantArguments(), SubViewOfCast(),
                               TrivialSubView()],
            "memref.copy": [FoldCopyOfCast(), FoldSelfOrEmptyCopy()],
            "memref.expand_shape": [
                ComposeReassociativeReshape("memref.expand_shape", M.ExpandShapeOp)],
            "memref.collapse_shape": [
                ComposeReassociativeReshape("memref.collapse_shape", M.CollapseShapeOp),
                ComposeCollapseOfExpand(), CollapseOfCast()],
            "memref.dim": [DimOfReshape()],
            "memref.reinterpret_cast": [ReinterpretOfMetadata(),
                                        ReinterpretConstantArguments()],
        }
    return _PATTERNS.get(name, [])
