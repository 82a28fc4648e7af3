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


class SubViewConstantArguments(RewritePattern):
    """OpWithOffsetSizesAndStridesConstantArgumentFolder for subview."""

    root = "memref.subview"

    def match_and_rewrite(self, op, rewriter):
        mixed = _mixed(op)
        # One list per application, as upstream's short-circuit `failed(...) && ...`.
        if not (_fold_constants(mixed[0], True) or _fold_constants(mixed[1], True) or
                _fold_constants(mixed[2], False)):
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
        }
    return _PATTERNS.get(name, [])
