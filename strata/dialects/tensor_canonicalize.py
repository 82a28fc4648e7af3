"""Canonicalization patterns of the tensor dialect (upstream TensorOps.cpp's), by op.

Folds live on the ops (tensor.py); these are the rewrites that make new ops. E.g.
constant slice arguments become static entries, with a cast back to the old type:

    %c4 = arith.constant 4 : index
    %s = tensor.extract_slice %t[0] [%c4] [1] : tensor<?xf32> to tensor<?xf32>
  ->
    %0 = tensor.extract_slice %t[0] [4] [1] : tensor<?xf32> to tensor<4xf32>
    %s = tensor.cast %0 : tensor<4xf32> to tensor<?xf32>

`patterns_for(op name)` gives an op's patterns in upstream's registration order; each
op class's `canonicalization_patterns` asks it.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..rewrite.pattern import RewritePattern
from . import tensor as Tn
from .memref_canonicalize import (_fold_constants, _split, collapse_of_expand_groups,
                                  grouped_sizes)

DYN = A.DYNAMIC

__all__ = ["patterns_for", "preserves_static_information", "fold_dynamic_sizes",
           "make_sizes_static"]


def preserves_static_information(source, target) -> bool:
    """preservesStaticInformation: `target` knows every size `source` knows (same
    rank, element type and encoding)."""
    if type(source) is not A.RankedTensorType or type(target) is not A.RankedTensorType:
        return False
    if source.element_type is not target.element_type or source.rank != target.rank or \
            source.encoding != target.encoding:
        return False
    return all(not (s != DYN and t == DYN) for s, t in zip(source.shape, target.shape))


def _foldable_cast_source(v):
    """The source of a tensor.cast producing `v` that may fold into its consumer
    (canFoldIntoConsumerOp), or None."""
    cast = v.defining_op
    if type(cast) is not Tn.CastOp or \
            not preserves_static_information(cast.results[0].type, cast.source.type):
        return None
    return cast.source


def _casts_into_producer(cast) -> bool:
    """canFoldIntoProducerOp: the cast's result knows every size its source does."""
    return preserves_static_information(cast.source.type, cast.results[0].type)


def _mixed(op):
    return [list(op.mixed_offsets), list(op.mixed_sizes), list(op.mixed_strides)]


def _static(mixed):
    return [v if isinstance(v, int) else DYN for v in mixed]


def _any_constant_operand(op) -> bool:
    return any(Tn._const_index(v) is not None for v in op.operands
               if v.type is A.index)


def _rank_reduction_mask(original, reduced, match_dynamic=False):
    """computeRankReductionMask: the dims of `original` dropped to get `reduced`, or
    None. With `match_dynamic` a dynamic size on either side matches (unless the
    original is a static 1)."""
    unused = set()
    r = 0
    for i, size in enumerate(original):
        if match_dynamic and r < len(reduced) and size != 1 and \
                (reduced[r] == DYN or size == DYN):
            r += 1
            continue
        if r < len(reduced) and size == reduced[r]:
            r += 1
            continue
        unused.add(i)
        if size != 1:
            return None
    return unused if r == len(reduced) else None


def _canonical_slice_type(rank, source, sizes):
    """ExtractSliceOp::inferCanonicalRankReducedResultType: the slice type, with its
    first unit dims dropped down to `rank`."""
    t = Tn._infer_slice_type(source, _static(sizes))
    drop = t.rank - rank
    if drop <= 0:
        return t
    shape = []
    for d in t.shape:
        if d == 1 and drop > 0:
            drop -= 1
            continue
        shape.append(d)
    return A.RankedTensorType(shape, t.element_type, t.encoding)


def _slice_kw(mixed):
    (offs, soffs), (sizes, ssizes), (strides, sstrides) = map(_split, mixed)
    return dict(offsets=offs, sizes=sizes, strides=strides, static_offsets=soffs,
                static_sizes=ssizes, static_strides=sstrides)


def _fold_slice_constants(mixed) -> bool:
    # One list per application, as upstream's short-circuit `failed(...) && ...`.
    return (_fold_constants(mixed[0], True) or _fold_constants(mixed[1], True) or
            _fold_constants(mixed[2], False))


def _cast_back(rewriter, op, new_value):
    """Replace `op` by `new_value`, through a tensor.cast when the type changed."""
    old = op.results[0].type
    if new_value.type is not old:
        rewriter.set_insertion_point_before(op)
        new_value = rewriter.create(Tn.CastOp, source=new_value, result_types=[old],
                                    loc=op.loc).results[0]
    rewriter.replace_op(op, [new_value])


# ---------------------------------------------------------------- slices

class ExtractSliceConstantArguments(RewritePattern):
    """OpWithOffsetSizesAndStridesConstantArgumentFolder for extract_slice."""

    root = "tensor.extract_slice"

    def match_and_rewrite(self, op, rewriter):
        mixed = _mixed(op)
        if not _fold_slice_constants(mixed):
            return False
        src = op.source.type
        if Tn._in_bounds_error(src.shape, *map(_static, mixed)):
            return False
        t = _canonical_slice_type(op.results[0].type.rank, src, mixed[1])
        rewriter.set_insertion_point_before(op)
        new = rewriter.create(Tn.ExtractSliceOp, source=op.source, result_types=[t],
                              loc=op.loc, **_slice_kw(mixed))
        _cast_back(rewriter, op, new.results[0])
        return True


class ExtractSliceCastFolder(RewritePattern):
    """ExtractSliceOpCastFolder: slice the source of a cast that adds no sizes."""

    root = "tensor.extract_slice"

    def match_and_rewrite(self, op, rewriter):
        if _any_constant_operand(op):
            return False
        src = _foldable_cast_source(op.source)
        if src is None:
            return False
        if Tn._in_bounds_error(src.type.shape, *map(_static, _mixed(op))):
            return False
        rewriter.replace_op_with_new(op, Tn.ExtractSliceOp, source=src,
                                     result_types=[op.results[0].type], loc=op.loc,
                                     **_slice_kw(_mixed(op)))
        return True


def _insert_like(op, rewriter, source, dest, mixed):
    """A new insert_slice / parallel_insert_slice like `op`, replacing it."""
    kw = _slice_kw(mixed)
    if type(op) is Tn.ParallelInsertSliceOp:
        return rewriter.replace_op_with_new(op, Tn.ParallelInsertSliceOp, source=source,
                                            dest=dest, loc=op.loc, **kw)
    return rewriter.replace_op_with_new(op, Tn.InsertSliceOp, source=source, dest=dest,
                                        result_types=[dest.type], loc=op.loc, **kw)


def _cast_before_insert(rewriter, op, value, t):
    """A tensor.cast of `value` to `t` before `op` (before its parallel-combining
    parent for a parallel_insert_slice)."""
    anchor = op.parent_op if type(op) is Tn.ParallelInsertSliceOp else op
    rewriter.set_insertion_point_before(anchor)
    return rewriter.create(Tn.CastOp, source=value, result_types=[t], loc=op.loc).results[0]


class InsertSliceConstantArguments(RewritePattern):
    """InsertSliceOpConstantArgumentFolder."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        mixed = _mixed(op)
        if not _fold_slice_constants(mixed):
            return False
        dt = op.dest.type
        if Tn._in_bounds_error(dt.shape, *map(_static, mixed)):
            return False
        st = _canonical_slice_type(op.source.type.rank, dt, mixed[1])
        value = op.source
        if st is not value.type:
            value = _cast_before_insert(rewriter, op, value, st)
        rewriter.set_insertion_point_before(op)
        _insert_like(op, rewriter, value, op.dest, mixed)
        return True


class InsertSliceCastFolder(RewritePattern):
    """InsertSliceOpCastFolder: insert the sources of casts that add no sizes."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        if _any_constant_operand(op):
            return False
        s_src = _foldable_cast_source(op.source)
        d_src = _foldable_cast_source(op.dest)
        if s_src is None and d_src is None:
            return False
        src = s_src if s_src is not None else op.source
        dst = d_src if d_src is not None else op.dest
        st, dt = src.type, dst.type
        if type(st) is not A.RankedTensorType or type(dt) is not A.RankedTensorType:
            return False
        static_sizes = Tn._static(op, "static_sizes")
        mask = _rank_reduction_mask(static_sizes, st.shape, match_dynamic=True)
        if mask is None:
            return False
        mixed = _mixed(op)
        k = 0
        for i in range(len(static_sizes)):
            if i not in mask:
                if st.shape[k] != DYN:
                    mixed[1][i] = st.shape[k]
                k += 1
        sizes = _static(mixed[1])
        expected = Tn._infer_slice_type(dt, sizes)
        if Tn._rank_reduced_check(expected, st) != Tn._OK:
            return False
        if Tn._in_bounds_error(dt.shape, _static(mixed[0]), sizes, _static(mixed[2])):
            return False
        rewriter.set_insertion_point_before(op)
        kw = _slice_kw(mixed)
        if type(op) is Tn.ParallelInsertSliceOp:
            rewriter.replace_op_with_new(op, Tn.ParallelInsertSliceOp, source=src, dest=dst,
                                         loc=op.loc, **kw)
            return True
        new = rewriter.create(Tn.InsertSliceOp, source=src, dest=dst, result_types=[dt],
                              loc=op.loc, **kw)
        _cast_back(rewriter, op, new.results[0])
        return True


class InsertSliceSourceCastInserter(RewritePattern):
    """InsertSliceOpSourceCastInserter: cast the source to the sizes the slice knows."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        st = op.source.type
        if st.rank != op.dest.type.rank:
            return False
        shape = list(st.shape)
        for i, v in enumerate(op.mixed_sizes):
            c = v if isinstance(v, int) and v != DYN else Tn._const_index(v)
            if c is not None:
                if c < 0:
                    return False
                shape[i] = c
        new_t = A.RankedTensorType(shape, st.element_type, st.encoding)
        if new_t is st or not preserves_static_information(st, new_t) or \
                not Tn._compatible_shapes(st, new_t):
            return False
        cast = _cast_before_insert(rewriter, op, op.source, new_t)
        rewriter.set_insertion_point_before(op)
        _insert_like(op, rewriter, cast, op.dest, _mixed(op))
        return True


# ---------------------------------------------------------------- casts, concat

class TensorCastExtractSlice(RewritePattern):
    """A cast to more static sizes of an extract_slice: the slice with those sizes."""

    root = "tensor.cast"

    def match_and_rewrite(self, op, rewriter):
        ext = op.source.defining_op
        rt = op.results[0].type
        if type(ext) is not Tn.ExtractSliceOp or type(rt) is not A.RankedTensorType or \
                not _casts_into_producer(op) or rt.shape == op.source.type.shape:
            return False
        mixed = _mixed(ext)
        mask = _rank_reduction_mask(Tn._static(ext, "static_sizes"),
                                    ext.results[0].type.shape)
        k = 0
        for i in range(len(mixed[1])):
            if mask is not None and i in mask:
                continue
            d = rt.shape[k]
            k += 1
            if d != DYN:
                mixed[1][i] = d
        rewriter.replace_op_with_new(op, Tn.ExtractSliceOp, source=ext.source,
                                     result_types=[rt], loc=op.loc, **_slice_kw(mixed))
        return True


class SingleInputConcat(RewritePattern):
    """A concat of one input is a cast of it."""

    root = "tensor.concat"

    def match_and_rewrite(self, op, rewriter):
        if len(op.inputs) != 1:
            return False
        rewriter.replace_op_with_new(op, Tn.CastOp, source=op.inputs[0],
                                     result_types=[op.results[0].type], loc=op.loc)
        return True


# ---------------------------------------------------------------- empty, generate

def fold_dynamic_sizes(t, values):
    """foldDynamicToStaticDimSizes: (the type with the non-negative constant sizes made
    static, the sizes left dynamic)."""
    shape, left, k = list(t.shape), [], 0
    for i, d in enumerate(t.shape):
        if d != DYN:
            continue
        v = values[k]
        k += 1
        c = Tn._const_index(v)
        if c is None or c < 0:
            left.append(v)
        else:
            shape[i] = c
    return A.RankedTensorType(shape, t.element_type, t.encoding), left


def make_sizes_static(rewriter, op, sizes_name, keep_encoding=True) -> bool:
    """The shared rewrite of upstream's ReplaceEmptyTensorStaticShapeDims,
    StaticTensorGenerate and alloc_tensor's ReplaceStaticShapeDims: the op again (its
    body moved in), with non-negative constant sizes static, then a cast back."""
    t = op.results[0].type
    new_t, left = fold_dynamic_sizes(t, list(getattr(op, sizes_name)))
    if not keep_encoding:
        new_t = A.RankedTensorType(new_t.shape, t.element_type)
    if new_t is t:
        return False
    rewriter.set_insertion_point_before(op)
    new = rewriter.create(type(op), result_types=[new_t], regions=len(op.regions),
                          loc=op.loc, **{sizes_name: left})
    for src, dst in zip(op.regions, new.regions):
        rewriter.inline_region_before(src, dst, 0)
    rewriter.replace_op_with_new(op, Tn.CastOp, source=new.results[0], result_types=[t],
                                 loc=op.loc)
    return True


class EmptyStaticShapeDims(RewritePattern):
    """ReplaceEmptyTensorStaticShapeDims."""

    root = "tensor.empty"

    def match_and_rewrite(self, op, rewriter):
        return make_sizes_static(rewriter, op, "dynamicSizes")


class FoldEmptyTensorWithCast(RewritePattern):
    """A cast of tensor.empty to more static sizes: an empty tensor of those sizes."""

    root = "tensor.cast"

    def match_and_rewrite(self, op, rewriter):
        empty = op.source.defining_op
        if type(empty) is not Tn.EmptyOp or not _casts_into_producer(op):
            return False
        rt = op.results[0].type
        et = empty.results[0].type
        left, k = [], 0
        for new_d, d in zip(rt.shape, et.shape):
            if d != DYN:
                if new_d != d:
                    return False
                continue
            v = empty.dynamicSizes[k]
            k += 1
            if new_d == DYN:
                left.append(v)
        # Upstream builds the new type from the shape and element type (no encoding).
        t = A.RankedTensorType(rt.shape, rt.element_type)
        rewriter.replace_op_with_new(op, Tn.EmptyOp, dynamicSizes=left, result_types=[t],
                                     loc=op.loc)
        return True


class StaticTensorGenerate(RewritePattern):
    """Constant extents of tensor.generate become static sizes, with a cast back."""

    root = "tensor.generate"

    def match_and_rewrite(self, op, rewriter):
        return make_sizes_static(rewriter, op, "dynamicExtents")


def _effect_free(op) -> bool:
    """isMemoryEffectFree: no memory effect at all (looking into the regions of ops with
    recursive effects); an op that declares nothing may have any."""
    from ..ir import traits as T
    cls = type(op)
    if cls.operand_memory_effects is not None and op.operand_memory_effects():
        return False
    if T.RecursiveMemoryEffects in cls.traits:
        return all(_effect_free(o) for r in op.regions for b in r.blocks for o in b.ops)
    if T.Pure in cls.traits or T.NoMemoryEffect in cls.traits or T.ConstantLike in cls.traits:
        return True
    me = T.find_trait(op, T.MemoryEffects)
    return me is not None and not me.effects


class ExtractFromTensorGenerate(RewritePattern):
    """An element of a tensor.generate whose body has no memory effects: the body,
    inlined with the indices."""

    root = "tensor.extract"

    def match_and_rewrite(self, op, rewriter):
        gen = op.tensor.defining_op
        if type(gen) is not Tn.GenerateOp:
            return False
        body = gen.regions[0].blocks[0]
        o = body.first
        while o is not None:
            if not _effect_free(o):
                return False
            o = o.next
        mapping = dict(zip(body.args, op.indices))
        rewriter.set_insertion_point_before(op)
        o = body.first
        while o is not body.last:
            rewriter.clone(o, mapping)
            o = o.next
        y = body.last.operands[0]
        rewriter.replace_op(op, [mapping.get(y, y)])
        return True


class ExtractFromIndexCast(RewritePattern):
    """An element of an arith.index_cast of a tensor: the index_cast of the element."""

    root = "tensor.extract"

    def match_and_rewrite(self, op, rewriter):
        from .arith import IndexCastOp
        cast = op.tensor.defining_op
        if type(cast) is not IndexCastOp:
            return False
        rewriter.set_insertion_point_before(op)
        src = cast.operands[0]
        e = rewriter.create(Tn.ExtractOp, tensor=src, indices=list(op.indices),
                            result_types=[src.type.element_type], loc=op.loc)
        rewriter.replace_op_with_new(op, IndexCastOp, in_=e.results[0],
                                     result_types=[op.results[0].type], loc=op.loc)
        return True


# ---------------------------------------------------------------- pad

def _pad_result_type(source, low, high, result_shape=()):
    """PadOp::inferResultType for `source` (a ranked tensor type), or None."""
    if len(low) != source.rank or len(high) != source.rank or \
            (result_shape and len(result_shape) != source.rank):
        return None
    shape = []
    for i, d in enumerate(source.shape):
        if d == DYN or low[i] == DYN or high[i] == DYN:
            shape.append(result_shape[i] if result_shape else DYN)
        else:
            shape.append(d + low[i] + high[i])
    return A.RankedTensorType(shape, source.element_type)


def _new_pad(rewriter, op, result_type, source, low, high, body=None):
    """A tensor.pad like `op` (nofold, discardable attributes) with mixed `low`/`high`
    pads; its body is `body` moved in, or a clone of `op`'s."""
    lo, slo = _split(low)
    hi, shi = _split(high)
    props = {"static_low": slo, "static_high": shi}
    if "nofold" in op._props:
        props["nofold"] = op._props["nofold"]
    new = rewriter.create(Tn.PadOp, source=source, low=lo, high=hi, result_types=[result_type],
                          regions=1, loc=op.loc, **props)
    if op._attrs:
        new.attributes = dict(op._attrs)
    if body is not None:
        rewriter.inline_region_before(body, new.regions[0], 0)
    else:
        op.regions[0].clone_into(new.regions[0], {})
    return new


class PadStaticZero(RewritePattern):
    """FoldStaticZeroPadding: a pad of all-zero pads is a cast (unless nofold)."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        if "nofold" in op._props or \
                any(Tn._const_index(v) != 0 for v in op.mixed_low + op.mixed_high):
            return False
        rewriter.replace_op_with_new(op, Tn.CastOp, source=op.source,
                                     result_types=[op.results[0].type], loc=op.loc)
        return True


class PadSourceCast(RewritePattern):
    """FoldSourceTensorCast: pad the source of a cast that adds no sizes."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        src = _foldable_cast_source(op.source)
        if src is None:
            return False
        rt = op.results[0].type
        new_t = _pad_result_type(src.type, Tn._static(op, "static_low"),
                                 Tn._static(op, "static_high"), rt.shape)
        if new_t is rt:
            rewriter.modify_op_in_place(op, lambda: op.set_operand(0, src))
            return True
        rewriter.set_insertion_point_before(op)
        new = _new_pad(rewriter, op, new_t, op.source, op.mixed_low, op.mixed_high)
        rewriter.replace_op_with_new(op, Tn.CastOp, source=new.results[0], result_types=[rt],
                                     loc=op.loc)
        return True


class PadTargetCast(RewritePattern):
    """FoldTargetTensorCast: a pad used only by a cast to more static sizes pads to
    those sizes."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        r = op.results[0]
        users = [u.owner for u in r.uses]
        if len(users) != 1 or type(users[0]) is not Tn.CastOp:
            return False
        cast = users[0]
        ct = cast.results[0].type
        if not preserves_static_information(r.type, ct):
            return False
        rewriter.set_insertion_point_before(op)
        new = _new_pad(rewriter, op, ct, op.source, op.mixed_low, op.mixed_high,
                       body=op.regions[0])
        rewriter.replace_op(op, [new.results[0]])
        rewriter.replace_op(cast, [new.results[0]])
        return True


class PadStaticSizes(RewritePattern):
    """FoldStaticPadding: constant pads become static when that makes result sizes
    static, with a cast back."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        st, rt = op.source.type, op.results[0].type
        low, high = op.mixed_low, op.mixed_high
        if not (st.rank == rt.rank == len(low) == len(high)):
            return False

        def fold(vals):
            out = []
            for v in vals:
                c = None if isinstance(v, int) else Tn._const_index(v)
                out.append(v if c is None else c)
            return out
        low, high = fold(low), fold(high)
        slo, shi = _static(low), _static(high)
        shape = []
        for i, d in enumerate(rt.shape):
            if d != DYN:
                shape.append(d)
            elif slo[i] == DYN or shi[i] == DYN or st.shape[i] == DYN:
                shape.append(DYN)
            else:
                shape.append(st.shape[i] + slo[i] + shi[i])
        if shape == list(rt.shape) or all(d == DYN for d in shape):
            return False
        rewriter.set_insertion_point_before(op)
        new = _new_pad(rewriter, op, A.RankedTensorType(shape, rt.element_type), op.source,
                       low, high)
        rewriter.replace_op_with_new(op, Tn.CastOp, source=new.results[0], result_types=[rt],
                                     loc=op.loc)
        return True


def _padded_dims(pad):
    """PadOp::getPaddedDims: the dims with a low or high pad not known to be 0."""
    return {i for i, (lo, hi) in enumerate(zip(pad.mixed_low, pad.mixed_high))
            if Tn._const_index(lo) != 0 or Tn._const_index(hi) != 0}


class PadOrthogonalChains(RewritePattern):
    """FoldOrthogonalPaddings: pad(slice(pad(slice(x)))) padding other dims (high
    only, unit strides, one constant padding value) is one slice and one pad."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        inner = op.source.defining_op
        if type(inner) is not Tn.ExtractSliceOp:
            return False
        outer_pad = inner.source.defining_op
        if type(outer_pad) is not Tn.PadOp or "nofold" in outer_pad._props:
            return False
        outer = outer_pad.source.defining_op
        if type(outer) is not Tn.ExtractSliceOp:
            return False
        rank = op.source.type.rank
        if outer.source.type.rank != rank:
            return False
        if any(Tn._const_index(v) != 1 for v in inner.mixed_strides + outer.mixed_strides):
            return False
        if any(Tn._const_index(v) != 0 for v in op.mixed_low + outer_pad.mixed_low):
            return False
        from ..rewrite.folding import constant_value
        a, b = op.constant_padding_value(), outer_pad.constant_padding_value()
        if a is None or b is None or constant_value(a) is None or \
                constant_value(a) is not constant_value(b):
            return False
        in_dims, out_dims = _padded_dims(op), _padded_dims(outer_pad)
        if in_dims & out_dims:
            return False
        offsets = []
        for i, (io, oo) in enumerate(zip(inner.mixed_offsets, outer.mixed_offsets)):
            if i not in in_dims and Tn._const_index(io) == 0:
                offsets.append(oo)
            elif i not in out_dims and Tn._const_index(oo) == 0:
                offsets.append(io)
            else:
                return False
        sizes = list(inner.mixed_sizes)
        for i in out_dims:
            if Tn._const_index(sizes[i]) != inner.source.type.shape[i]:
                return False
            sizes[i] = outer.mixed_sizes[i]
        high = [0] * rank
        for i in range(rank):
            if i in in_dims:
                high[i] = op.mixed_high[i]
            if i in out_dims:
                high[i] = outer_pad.mixed_high[i]
        mixed = [offsets, sizes, list(inner.mixed_strides)]
        t = Tn._infer_slice_type(outer.source.type, _static(sizes))
        rewriter.set_insertion_point_before(op)
        sl = rewriter.create(Tn.ExtractSliceOp, source=outer.source, result_types=[t],
                             loc=op.loc, **_slice_kw(mixed))
        new = _new_pad(rewriter, op, op.results[0].type, sl.results[0], op.mixed_low, high,
                       body=op.regions[0])
        rewriter.replace_op(op, [new.results[0]])
        return True


def _add_pads(a, b):
    """The sum of two pads (index or value) without an affine.apply: None when that
    would need one (Strata has no affine dialect)."""
    x, y = Tn._const_index(a), Tn._const_index(b)
    if x is not None and y is not None:
        return x + y
    if x == 0:
        return b
    if y == 0:
        return a
    return None


class PadOfPad(RewritePattern):
    """FoldConsecutiveConstantPadding: a pad of a pad, both foldable and padding with
    the same value, pads once by the sums."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        if "nofold" in op._props:
            return False
        prod = op.source.defining_op
        if type(prod) is not Tn.PadOp or "nofold" in prod._props:
            return False
        v = op.constant_padding_value()
        if v is None or v is not prod.constant_padding_value():
            return False
        high = [_add_pads(a, b) for a, b in zip(op.mixed_high, prod.mixed_high)]
        low = [_add_pads(a, b) for a, b in zip(op.mixed_low, prod.mixed_low)]
        if None in high or None in low:
            return False
        rewriter.set_insertion_point_before(op)
        new = _new_pad(rewriter, op, op.results[0].type, prod.source, low, high,
                       body=op.regions[0])
        rewriter.replace_op(op, [new.results[0]])
        return True


# ---------------------------------------------------------------- reshapes

def _groups(op):
    from ..syntax.dynamic_index_list import reassociation_indices
    return reassociation_indices(op.properties["reassociation"])


def _reassociation_attr(groups):
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g]) for g in groups])


def _compose_groups(producer, consumer):
    """composeReassociationIndices: the groups of two reshapes of one kind in a row,
    or None."""
    if len(producer) == len(consumer):
        return None
    if len(producer) < len(consumer):
        producer, consumer = consumer, producer
    if not consumer:
        return []
    if len(producer) != sum(len(g) for g in consumer):
        return None
    return [[i for c in g for i in producer[c]] for g in consumer]


def _find_range_dynamic(shape, start, greedy):
    """findReassociationRangeForDynamicDim: [left, right] up to the first dynamic size
    from `start` (to the end when `greedy`), or None."""
    for r in range(start, len(shape)):
        if shape[r] == DYN:
            return [start, len(shape) - 1 if greedy else r]
    return None


def _find_range_size(shape, start, size, greedy):
    """findReassociationRangeForSize: the first run of static sizes from `start` whose
    product is `size` (with the unit dims right after it when `greedy`), or None."""
    left, right, prod, found = start, start, 1, None
    while 0 <= left <= right < len(shape):
        d = shape[right]
        if d == DYN:
            prod, left, right = 1, right + 1, right + 1
            continue
        prod *= d
        while prod > size and left != right:
            prod //= shape[left]
            left += 1
        if prod == size:
            found = [left, right]
            break
        right += 1
    if found is None:
        return None
    if greedy:
        right += 1
        while right < len(shape) and shape[right] == 1:
            found = [left, right]
            right += 1
    return found


def _collapse_ranges(source, target):
    """findReassociationRangesForCollapse (left to right), or None."""
    ranges, prev, start = [], None, 0
    for t, size in enumerate(target):
        greedy = t == len(target) - 1
        r = _find_range_dynamic(source, start, greedy) if size == DYN else \
            _find_range_size(source, start, size, greedy)
        if r is None or r[0] < 0 or r[0] > r[1] or r[1] >= len(source):
            return None
        if r[0] > start:
            if prev != DYN:
                return None
            ranges[-1][1] = r[0] - 1
        prev = size
        start = r[1] + 1
        ranges.append(r)
    if ranges[-1][1] < len(source) - 1:
        return None
    return ranges


def collapse_groups(source, target):
    """getReassociationIndicesForCollapse: the groups collapsing shape `source` into
    `target`, when scanning from both ends agrees (up to unit dims); else None."""
    n = len(source)
    if n <= len(target):
        return None
    if not target:
        return None if any(d != 1 and d != DYN for d in source) else []
    fwd = _collapse_ranges(list(source), list(target))
    if fwd is None:
        return None
    rev = _collapse_ranges(list(source)[::-1], list(target)[::-1])
    if rev is None:
        return None
    rev = [[n - 1 - b, n - 1 - a] for a, b in rev][::-1]
    out = []
    for (a, b), (c, d) in zip(fwd, rev):
        if b < c:
            other = list(range(a, b + 1)) + list(range(c, d + 1))
        else:
            other = list(range(min(a, c), max(a, c)))
            if min(b, d) + 1 < max(b, d):
                other += list(range(min(b, d) + 1, max(b, d) + 1))
        if any(source[i] != 1 for i in other):
            return None
        out.append(list(range(a, b + 1)))
    return out


def _expand_kw(groups, mixed_shape):
    dyn, static = _split(mixed_shape)
    return dict(reassociation=_reassociation_attr(groups), output_shape=dyn,
                static_output_shape=static)


class ComposeReshapes(RewritePattern):
    """ComposeReassociativeReshapeOps: two expand_shapes (or collapse_shapes) in a row
    are one."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        inner = op.operand(0).defining_op
        if type(inner) is not type(op):
            return False
        groups = _compose_groups(_groups(inner), _groups(op))
        if groups is None:
            return False
        rt = op.results[0].type
        if type(op) is Tn.ExpandShapeOp:
            shape = mixed_values_of(op)
            rewriter.replace_op_with_new(op, Tn.ExpandShapeOp, src=inner.operand(0),
                                         result_types=[rt], loc=op.loc,
                                         **_expand_kw(groups, shape))
        else:
            rewriter.replace_op_with_new(op, Tn.CollapseShapeOp, src=inner.operand(0),
                                         reassociation=_reassociation_attr(groups),
                                         result_types=[rt], loc=op.loc)
        return True


def mixed_values_of(expand):
    from ..syntax.dynamic_index_list import mixed_values
    return list(mixed_values(Tn._static(expand, "static_output_shape"), expand.output_shape))


class ComposeCollapseOfExpand(RewritePattern):
    """ComposeCollapseOfExpandOp: a collapse_shape of an expand_shape whose groups line
    up is one reshape (or a cast when the rank does not change)."""

    root = "tensor.collapse_shape"

    def match_and_rewrite(self, op, rewriter):
        exp = op.operand(0).defining_op
        if type(exp) is not Tn.ExpandShapeOp:
            return False
        st, rt = exp.operand(0).type, op.results[0].type
        if st is rt:
            return False
        if st.rank > rt.rank:
            higher, lower = _groups(exp), _groups(op)
        else:
            higher, lower = _groups(op), _groups(exp)
        composed = collapse_of_expand_groups(higher, lower)
        if composed is None:
            return False
        if st.rank > rt.rank:
            rewriter.replace_op_with_new(op, Tn.CollapseShapeOp, src=exp.operand(0),
                                         reassociation=_reassociation_attr(composed),
                                         result_types=[rt], loc=op.loc)
        elif st.rank < rt.rank:
            rewriter.set_insertion_point_before(op)
            shape = grouped_sizes(rewriter, op, mixed_values_of(exp), _groups(op))
            rewriter.replace_op_with_new(op, Tn.ExpandShapeOp, src=exp.operand(0),
                                         result_types=[rt], loc=op.loc,
                                         **_expand_kw(composed, shape))
        else:
            rewriter.replace_op_with_new(op, Tn.CastOp, source=exp.operand(0),
                                         result_types=[rt], loc=op.loc)
        return True


def _find_collapsing(src_groups, res_groups, src_shape, res_shape):
    """findCollapsingReassociation, or None."""
    if not src_groups:
        return collapse_groups(src_shape, res_shape)
    out = []
    for sg, rg in zip(src_groups, res_groups):
        sub = [src_shape[i] for i in sg]
        rsub = [res_shape[i] for i in rg]
        if sum(d == DYN for d in sub) >= 2 and sum(d == DYN for d in rsub) >= 2:
            return None
        if len(sub) == len(rsub):
            if sub != rsub:
                return None
            out.extend([i] for i in sg)
            continue
        sub_groups = collapse_groups(sub, rsub)
        if sub_groups is None:
            return None
        out.extend([sg[0] + i for i in g] for g in sub_groups)
    return out


class ComposeExpandOfCollapse(RewritePattern):
    """ComposeExpandOfCollapseOp: an expand_shape of a collapse_shape is one reshape
    when the groups can be matched."""

    root = "tensor.expand_shape"

    def match_and_rewrite(self, op, rewriter):
        col = op.operand(0).defining_op
        if type(col) is not Tn.CollapseShapeOp:
            return False
        st, rt = col.operand(0).type, op.results[0].type
        if st is rt:
            return False
        if st.rank > rt.rank:
            groups = _find_collapsing(_groups(col), _groups(op), st.shape, rt.shape)
            if groups is None:
                return False
            rewriter.replace_op_with_new(op, Tn.CollapseShapeOp, src=col.operand(0),
                                         reassociation=_reassociation_attr(groups),
                                         result_types=[rt], loc=op.loc)
            return True
        groups = _find_collapsing(_groups(op), _groups(col), rt.shape, st.shape)
        if groups is None:
            return False
        rewriter.replace_op_with_new(op, Tn.ExpandShapeOp, src=col.operand(0),
                                     result_types=[rt], loc=op.loc,
                                     **_expand_kw(groups, mixed_values_of(op)))
        return True


class CollapseOfCast(RewritePattern):
    """FoldCollapseOfCastOp: collapse the source of a cast that adds no sizes."""

    root = "tensor.collapse_shape"

    def match_and_rewrite(self, op, rewriter):
        src = _foldable_cast_source(op.operand(0))
        if src is None:
            return False
        groups = _groups(op)
        new_t = Tn._collapsed_type(src.type, groups)
        rt = op.results[0].type
        if new_t is rt:
            rewriter.modify_op_in_place(op, lambda: op.set_operand(0, src))
            return True
        rewriter.set_insertion_point_before(op)
        new = rewriter.create(Tn.CollapseShapeOp, src=src,
                              reassociation=op.properties["reassociation"],
                              result_types=[new_t], loc=op.loc)
        rewriter.replace_op_with_new(op, Tn.CastOp, source=new.results[0], result_types=[rt],
                                     loc=op.loc)
        return True


class ReshapeOfProducer(RewritePattern):
    """FoldReshapeWithSplat / FoldReshapeWithFromElements: a static reshape of
    tensor.splat (tensor.from_elements) is one of the reshaped type."""

    def __init__(self, root, producer):
        self.root = root
        self.producer = producer

    def match_and_rewrite(self, op, rewriter):
        p = op.operand(0).defining_op
        rt = op.results[0].type
        if type(p) is not self.producer or not rt.has_static_shape:
            return False
        if self.producer is Tn.SplatOp:
            kw = dict(input=p.input, dynamicSizes=[])
        else:
            kw = dict(elements=list(p.elements))
        rewriter.replace_op_with_new(op, self.producer, result_types=[rt], loc=op.loc, **kw)
        return True


_PATTERNS = None


def patterns_for(name):
    """Op name -> its canonicalization patterns, in upstream's registration order."""
    global _PATTERNS
    if _PATTERNS is None:
        _PATTERNS = {
            "tensor.cast": [TensorCastExtractSlice()],
            "tensor.concat": [SingleInputConcat()],
            "tensor.empty": [FoldEmptyTensorWithCast(), EmptyStaticShapeDims()],
            "tensor.extract": [ExtractFromIndexCast()],
            "tensor.extract_slice": [ExtractSliceConstantArguments(),
                                     ExtractSliceCastFolder()],
            "tensor.generate": [StaticTensorGenerate(), ExtractFromTensorGenerate()],
            "tensor.pad": [PadStaticZero(), PadSourceCast(), PadTargetCast(),
                           PadOrthogonalChains(), PadStaticSizes(), PadOfPad()],
            "tensor.insert_slice": [InsertSliceConstantArguments("tensor.insert_slice"),
                                    InsertSliceCastFolder("tensor.insert_slice"),
                                    InsertSliceSourceCastInserter("tensor.insert_slice")],
            "tensor.parallel_insert_slice": [
                InsertSliceConstantArguments("tensor.parallel_insert_slice"),
                InsertSliceCastFolder("tensor.parallel_insert_slice"),
                InsertSliceSourceCastInserter("tensor.parallel_insert_slice")],
            "tensor.expand_shape": [ComposeReshapes("tensor.expand_shape"),
                                    ComposeExpandOfCollapse(),
                                    ReshapeOfProducer("tensor.expand_shape", Tn.SplatOp),
                                    ReshapeOfProducer("tensor.expand_shape",
                                                      Tn.FromElementsOp)],
            "tensor.collapse_shape": [ComposeReshapes("tensor.collapse_shape"),
                                      ComposeCollapseOfExpand(),
                                      ReshapeOfProducer("tensor.collapse_shape",
                                                        Tn.SplatOp),
                                      ReshapeOfProducer("tensor.collapse_shape",
                                                        Tn.FromElementsOp),
                                      CollapseOfCast()],
        }
    return _PATTERNS.get(name, [])
