"""The bufferization dialect: the ops that connect tensors and buffers (memrefs).

Upstream MLIR's ops as iree-opt 3.13 prints them (`to_buffer` is the op upstream named
`to_memref` before):

    %t = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
    %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
    %a = bufferization.alloc_tensor(%n) copy(%t) size_hint=%h : tensor<?xf32>
    bufferization.materialize_in_destination %t in restrict writable %m :
        (tensor<4xf32>, memref<4xf32>) -> ()
    %c = bufferization.clone %m : memref<4xf32> to memref<4xf32>
    %r = bufferization.dealloc (%a, %b : memref<2xf32>, memref<4xf32>) if (%c0, %c1)
        retain (%x : memref<2xf32>)
    bufferization.dealloc_tensor %t : tensor<4xf32>

Folds: to_buffer(to_tensor(m)) -> m (same type), to_tensor(to_buffer(t)) -> t (the
to_buffer right before, as upstream's conservative alias check), clone of a memref.cast
clones its source. Canonicalization, as upstream's: to_buffer(to_tensor(m)) of another
type is a memref.cast of m when that always succeeds, else a copy into a new buffer;
to_buffer of a tensor.cast is a memref.cast of to_buffer of its source; memref.load of
a read-only to_buffer(t) is tensor.extract of t; tensor.dim of to_tensor(m) is
memref.dim of m; a clone whose source or copy is freed right after is its source
(SimplifyClones); constant alloc_tensor sizes become static; deallocs lose duplicate
memrefs and retained values, false conditions, metadata indirections and buffers
allocated only to be freed, and empty ones are erased.

The dialect checks its discardable attributes on any op (verify_operation_attribute):
only `bufferization.manual_deallocation` is accepted, on ops that allocate or free.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.ods import Op, Operand, OptOperand, OptProp, Result, VarOperand, VarResult
from ..syntax.asm_format import UnitKeyword, install_format
from .memref import AnyRankedOrUnrankedMemRef, CastOp as MemRefCastOp

_is_tensor = C.AnyTensor.check
_is_memref = AnyRankedOrUnrankedMemRef.check
TensorLike = C.Constraint(_is_tensor, "TensorLikeType instance")
BufferLike = C.Constraint(_is_memref, "BufferLikeType instance")
AnyTensor = C.Constraint(_is_tensor, "tensor of any non-token type values")
AnyShaped = C.Constraint(lambda t: _is_tensor(t) or _is_memref(t),
                         "shaped of any non-token type values")

__all__ = ["BUFFERIZATION", "ToTensorOp", "ToBufferOp", "AllocTensorOp",
           "MaterializeInDestinationOp", "CloneOp", "DeallocOp", "DeallocTensorOp",
           "tensor_type_of", "buffer_types_match"]


def tensor_type_of(buffer_type):
    """The tensor type a buffer holds: same shape (or unranked) and element type."""
    if type(buffer_type) is A.UnrankedMemRefType:
        return A.UnrankedTensorType(buffer_type.element_type)
    return A.RankedTensorType(buffer_type.shape, buffer_type.element_type)


def buffer_types_match(tensor_type, buffer_type) -> str | None:
    """verifyCompatibleBufferType: None, or what does not match."""
    if tensor_type.has_rank != buffer_type.has_rank or \
            (tensor_type.has_rank and tensor_type.shape != buffer_type.shape):
        return "shapes do not match"
    if tensor_type.element_type is not buffer_type.element_type:
        return "element types do not match"
    return None


def _effects(op):
    """The memory effects an op kind declares (T.MemoryEffects), as a set."""
    out = set()
    for t in type(op).traits:
        if type(t) is T.MemoryEffects:
            out.update(t.effects)
    return out


def _frees(op, value) -> bool:
    """Whether `op` frees `value` (a free effect and `value` among what it frees)."""
    if type(op) is DeallocOp:
        return any(v is value for v in op.memrefs)
    # memref.dealloc; memref.realloc's free of its source is not one (upstream's
    # findDealloc does not see it: a clone reallocated stays a clone).
    return op.name == "memref.dealloc" and op.operands[0] is value


def _find_dealloc(value):
    """memref::findDealloc: (True, the one op freeing `value` or None), or (False, None)
    when more than one does."""
    found = None
    for u in value.uses:
        user = u.owner
        if user is found or not _frees(user, value):
            continue
        if found is not None:
            return False, None
        found = user
    return True, found


# memref ops with upstream's ViewLikeOpInterface (their result views operand #0).
_VIEW_LIKE = frozenset(("memref.subview", "memref.view", "memref.reinterpret_cast",
                        "memref.reshape", "memref.expand_shape", "memref.collapse_shape",
                        "memref.transpose", "memref.memory_space_cast"))


def _unit():
    p = OptProp(C.UnitAttrC)
    p.fmt = UnitKeyword()
    return p


_TYPES_MATCH = "failed to verify that specified tensor and buffer types match"


class ToTensorOp(Op):
    """`%t = bufferization.to_tensor %m restrict writable : memref<4xf32> to
    tensor<4xf32>`"""

    name = "bufferization.to_tensor"
    traits = (T.MemoryEffects(T.MemRead),)
    buffer = Operand(BufferLike)
    restrict = _unit()
    writable = _unit()
    result = Result(TensorLike)
    assembly = ("$buffer (`restrict` $restrict^)? (`writable` $writable^)? attr-dict `:` "
                "type($buffer) `to` type($result)")

    @classmethod
    def infer_result_types(cls, operands, props):
        return [tensor_type_of(operands[0].type)]

    def verify_(self):
        if buffer_types_match(self.results[0].type, self.buffer.type):
            return _TYPES_MATCH
        return None

    def fold(self, operands):
        src = self.buffer.defining_op
        if type(src) is ToBufferOp and src.parent is self.parent and src.next is self:
            return src.tensor
        return None

    @classmethod
    def canonicalization_patterns(cls):
        from ..rewrite.pattern import RewritePattern
        from .memref import DimOp as MemRefDimOp

        class DimOfToTensor(RewritePattern):
            """A size of to_tensor(m) is memref.dim of m."""
            root = "tensor.dim"

            def match_and_rewrite(self, op, rewriter):
                src = op.operand(0).defining_op
                if type(src) is not ToTensorOp:
                    return False
                rewriter.replace_op_with_new(op, MemRefDimOp, source=src.buffer,
                                             index=op.operand(1), result_types=[A.index],
                                             loc=op.loc)
                return True
        return [DimOfToTensor()]


class ToBufferOp(Op):
    """`%m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>`"""

    name = "bufferization.to_buffer"
    traits = (T.Pure,)
    tensor = Operand(TensorLike)
    read_only = _unit()
    buffer = Result(BufferLike)
    assembly = ("$tensor (`read_only` $read_only^)? attr-dict `:` type($tensor) `to` "
                "type($buffer)")

    def verify_(self):
        if buffer_types_match(self.tensor.type, self.results[0].type):
            return _TYPES_MATCH
        return None

    def fold(self, operands):
        src = self.tensor.defining_op
        if type(src) is ToTensorOp and src.buffer.type is self.results[0].type:
            return src.buffer
        return None

    @classmethod
    def canonicalization_patterns(cls):
        from ..rewrite.pattern import RewritePattern
        from .memref import LoadOp as MemRefLoadOp
        from .tensor import CastOp as TensorCastOp, ExtractOp

        class ToBufferOfCast(RewritePattern):
            """to_buffer of a tensor.cast from a ranked tensor: to_buffer of its source
            (the buffer type with the source's shape), then a memref.cast."""
            root = "bufferization.to_buffer"

            def match_and_rewrite(self, op, rewriter):
                cast = op.tensor.defining_op
                if type(cast) is not TensorCastOp or \
                        type(cast.source.type) is not A.RankedTensorType:
                    return False
                st, bt = cast.source.type, op.results[0].type
                if type(bt) is A.UnrankedMemRefType:
                    mt = A.MemRefType(st.shape, st.element_type, None, bt.memory_space)
                else:
                    mt = A.MemRefType(st.shape, st.element_type, bt.layout, bt.memory_space)
                rewriter.set_insertion_point_before(op)
                props = {"read_only": op._props["read_only"]} if "read_only" in op._props \
                    else {}
                m = rewriter.create(ToBufferOp, tensor=cast.source, result_types=[mt],
                                    loc=op.loc, **props)
                rewriter.replace_op_with_new(op, MemRefCastOp, source=m.results[0],
                                             result_types=[bt], loc=op.loc)
                return True

        class ToBufferToTensor(RewritePattern):
            """foldToBufferToTensorPair: to_buffer(to_tensor(m)) is m, a memref.cast of
            m, or a copy of m into a new buffer of the wanted type."""
            root = "bufferization.to_buffer"

            def match_and_rewrite(self, op, rewriter):
                src = op.tensor.defining_op
                if type(src) is not ToTensorOp:
                    return False
                m, rt = src.buffer, op.results[0].type
                if m.type is rt:
                    rewriter.replace_op(op, [m])
                    return True
                ranked_src = type(m.type) is A.MemRefType
                if ranked_src and type(rt) is A.MemRefType:
                    rewriter.set_insertion_point_before(op)
                    new = cast_or_realloc(rewriter, m, rt, op.loc)
                    if new is None:
                        return False
                    rewriter.replace_op(op, [new])
                    return True
                if not ranked_src and type(rt) is A.MemRefType:
                    return False
                rewriter.replace_op_with_new(op, MemRefCastOp, source=m, result_types=[rt],
                                             loc=op.loc)
                return True

        class LoadOfToBuffer(RewritePattern):
            """memref.load of a read-only to_buffer(t): tensor.extract of t."""
            root = "memref.load"

            def match_and_rewrite(self, op, rewriter):
                tb = op.memref.defining_op
                if type(tb) is not ToBufferOp or "read_only" not in tb._props:
                    return False
                rewriter.replace_op_with_new(op, ExtractOp, tensor=tb.tensor,
                                             indices=list(op.indices),
                                             result_types=[op.results[0].type], loc=op.loc)
                return True
        assert MemRefLoadOp.name == LoadOfToBuffer.root
        return [ToBufferOfCast(), ToBufferToTensor(), LoadOfToBuffer()]


def _guaranteed_cast_compatible(source, target) -> bool:
    """castOrReallocMemRefValue's check: no offset or stride goes from dynamic to
    static (that cast could fail at run time)."""
    from .memref_layout import strides_and_offset
    a, b = strides_and_offset(source), strides_and_offset(target)
    if a is None or b is None:
        return False
    (ss, so), (ts, to) = a, b
    dyn = A.DYNAMIC
    if so == dyn and to != dyn:
        return False
    return not any(a == dyn and b != dyn for a, b in zip(ss, ts))


def cast_or_realloc(rewriter, value, dest_type, loc):
    """castOrReallocMemRefValue: `value` as a `dest_type` memref, by a memref.cast when
    that always succeeds, else by a copy into a new buffer; None when element type or
    rank differ."""
    from .arith import ConstantOp
    from .memref import AllocOp, CopyOp, DimOp
    st = value.type
    if st.element_type is not dest_type.element_type or st.rank != dest_type.rank:
        return None
    if MemRefCastOp.are_cast_compatible([st], [dest_type]) and \
            _guaranteed_cast_compatible(st, dest_type):
        return rewriter.create(MemRefCastOp, source=value, result_types=[dest_type],
                               loc=loc).results[0]
    sizes = []
    for i, d in enumerate(dest_type.shape):
        if d != A.DYNAMIC:
            continue
        c = rewriter.create(ConstantOp, value=A.IntegerAttr(i, A.index),
                            result_types=[A.index], loc=loc).results[0]
        sizes.append(rewriter.create(DimOp, source=value, index=c, result_types=[A.index],
                                     loc=loc).results[0])
    alloc = rewriter.create(AllocOp, dynamicSizes=sizes, symbolOperands=[],
                            result_types=[dest_type], loc=loc).results[0]
    rewriter.create(CopyOp, source=value, target=alloc, loc=loc)
    return alloc


class AllocTensorOp(Op):
    """`%0 = bufferization.alloc_tensor(%n) copy(%t) size_hint=%h : tensor<?xf32>`"""

    name = "bufferization.alloc_tensor"
    traits = (T.AttrSizedOperandSegments, T.MemoryEffects(T.MemAlloc))
    dynamic_sizes = VarOperand(C.Index)
    copy = OptOperand(C.AnyRankedTensor)
    size_hint = OptOperand(C.Index)
    memory_space = OptProp()
    result = Result(AnyTensor)
    assembly = ("`(` $dynamic_sizes `)` (`copy` `(` $copy^ `)`)? "
                "(`size_hint` `` `=` `` $size_hint^)? prop-dict attr-dict `:` type($result)")

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "copy":
            return (types.get("result") or [None])[0]
        return A.index

    def verify_(self):
        from .tensor import _bare_error
        rt = self.results[0].type
        if not rt.has_rank:
            return "result #0 must be ranked tensor of any non-token type values"
        if self.copy is not None and self.dynamic_sizes:
            _bare_error(self, "dynamic sizes not needed when copying a tensor")
        if self.copy is None and rt.num_dynamic_dims != len(self.dynamic_sizes):
            return (f"incorrect number of dynamic sizes, has {len(self.dynamic_sizes)}, "
                    f"expected {rt.num_dynamic_dims}")
        if self.copy is not None and self.copy.type is not rt:
            _bare_error(self, "expected that `copy` and return type match")
        return None

    @classmethod
    def canonicalization_patterns(cls):
        from ..rewrite.pattern import RewritePattern
        from .tensor import _const_index

        class FoldDimOfAllocTensor(RewritePattern):
            """A dynamic size of alloc_tensor is the size it was made with."""
            root = "tensor.dim"

            def match_and_rewrite(self, op, rewriter):
                a = op.operand(0).defining_op
                i = _const_index(op.operand(1))
                if type(a) is not AllocTensorOp or i is None:
                    return False
                t = a.results[0].type
                if not 0 <= i < t.rank or t.shape[i] != A.DYNAMIC or a.copy is not None:
                    return False
                pos = sum(1 for d in t.shape[:i] if d == A.DYNAMIC)
                rewriter.replace_op(op, [a.dynamic_sizes[pos]])
                return True

        class StaticShapeDims(RewritePattern):
            """Non-negative constant sizes become static, with a tensor.cast back."""
            root = "bufferization.alloc_tensor"

            def match_and_rewrite(self, op, rewriter):
                from .tensor_canonicalize import make_sizes_static
                if op.copy is not None:
                    return False
                return make_sizes_static(rewriter, op, "dynamic_sizes", keep_encoding=False)
        return [FoldDimOfAllocTensor(), StaticShapeDims()]


class MaterializeInDestinationOp(Op):
    """`bufferization.materialize_in_destination %t in restrict writable %m :
    (tensor<4xf32>, memref<4xf32>) -> ()`"""

    name = "bufferization.materialize_in_destination"
    traits = (T.MemoryEffects(T.MemRead, T.MemWrite),)
    source = Operand(AnyTensor)
    dest = Operand(AnyShaped)
    restrict = _unit()
    writable = _unit()
    result_ = VarResult(AnyTensor)  # upstream's `result` ([Note: field names])
    assembly = ("$source `in` (`restrict` $restrict^)? (`writable` $writable^)? $dest "
                "attr-dict `:` functional-type(operands, results)")

    def verify_(self):
        dt = self.dest.type
        is_tensor = isinstance(dt, (A.RankedTensorType, A.UnrankedTensorType))
        res = self.results
        if is_tensor:
            if len(res) != 1:
                return "tensor 'dest' implies exactly one tensor result"
            if dt is not res[0].type:
                return "result and 'dest' types must match"
        elif res:
            return "memref 'dest' implies zero results"
        props = self.properties
        if "restrict" in props and is_tensor:
            return "'restrict' is valid only for memref destinations"
        if ("writable" in props) == is_tensor:
            return ("'writable' must be specified if and only if the destination is of "
                    "memref type")
        st = self.source.type
        if st.has_rank != dt.has_rank:
            return "source/destination shapes are incompatible"
        if st.has_rank:
            if st.rank != dt.rank:
                return "rank mismatch between source and destination shape"
            for a, b in zip(st.shape, dt.shape):
                if a != b and a != A.DYNAMIC and b != A.DYNAMIC:
                    return "source/destination shapes are incompatible"
        return None


class CloneOp(Op):
    """`%c = bufferization.clone %m : memref<4xf32> to memref<4xf32>` (a new buffer,
    freed by its owner)"""

    name = "bufferization.clone"
    traits = (T.MemoryEffects(T.MemRead, T.MemAlloc),)
    input = Operand(AnyRankedOrUnrankedMemRef)
    output = Result(AnyRankedOrUnrankedMemRef)
    assembly = "$input attr-dict `:` type($input) `to` type($output)"

    def fold(self, operands):
        """CloneOp::fold: clone the source of a memref.cast (foldMemRefCast)."""
        from .memref import _fold_memref_cast
        return _fold_memref_cast(self, 0)

    @classmethod
    def canonicalization_patterns(cls):
        from ..rewrite.pattern import RewritePattern

        class SimplifyClones(RewritePattern):
            """A clone whose copy or source is freed right after in the same block (and
            nothing else freed in between) is its source (cast to the clone's type);
            that dealloc goes. An unused clone goes."""
            root = "bufferization.clone"

            def match_and_rewrite(self, op, rewriter):
                out = op.results[0]
                if not out.has_uses():
                    rewriter.erase_op(op)
                    return True
                source = op.input
                if source.type is not out.type and \
                        not MemRefCastOp.are_cast_compatible([source.type], [out.type]):
                    return False
                canonical = source
                while True:
                    d = canonical.defining_op
                    if d is None or d.name not in _VIEW_LIKE or \
                            d.results[0] is not canonical:
                        break
                    canonical = d.operands[0]
                ok, clone_dealloc = _find_dealloc(out)
                if not ok:
                    return False
                ok, source_dealloc = _find_dealloc(canonical)
                if not ok:
                    return False
                if clone_dealloc is not None and source_dealloc is not None and \
                        clone_dealloc.parent is source_dealloc.parent:
                    return False
                block = op.parent
                if clone_dealloc is not None and clone_dealloc.parent is block:
                    redundant = clone_dealloc
                elif source_dealloc is not None and source_dealloc.parent is block:
                    redundant = source_dealloc
                else:
                    return False
                pos = op.next
                while pos is not redundant:
                    if pos is None or T.MemFree in _effects(pos):
                        return False
                    pos = pos.next
                if source.type is not out.type:
                    rewriter.set_insertion_point_before(op)
                    source = rewriter.create(MemRefCastOp, source=source,
                                             result_types=[out.type], loc=op.loc).results[0]
                rewriter.replace_op(op, [source])
                rewriter.erase_op(redundant)
                return True
        return [SimplifyClones()]


class DeallocOp(Op):
    """`%r = bufferization.dealloc (%a : memref<2xf32>) if (%c) retain (%x :
    memref<2xf32>)`: frees each memref whose condition holds, unless it aliases a
    retained one; one updated ownership condition per retained memref."""

    name = "bufferization.dealloc"
    traits = (T.AttrSizedOperandSegments, T.MemoryEffects(T.MemFree))
    memrefs = VarOperand(AnyRankedOrUnrankedMemRef)
    conditions = VarOperand(C.I1)
    retained = VarOperand(AnyRankedOrUnrankedMemRef)
    updatedConditions = VarResult(C.I1)
    assembly = ("(` ` `(` $memrefs^ `:` type($memrefs) `)` `if` ` ` `(` $conditions `)`)? "
                "(`retain` ` ` `(` $retained^ `:` type($retained) `)`)? attr-dict")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i1 if name == "conditions" else None

    @classmethod
    def infer_result_types(cls, operands, props):
        seg = props.get("operandSegmentSizes")
        n = seg.value[2] if seg is not None else 0
        return [A.i1] * n

    def verify_(self):
        if len(self.memrefs) != len(self.conditions):
            return "must have the same number of conditions as memrefs to deallocate"
        if len(self.retained) != len(self.results):
            return ("must have the same number of updated conditions (results) as retained "
                    "operands")
        return None

    @classmethod
    def canonicalization_patterns(cls):
        from ..rewrite.pattern import RewritePattern

        class EraseEmptyDealloc(RewritePattern):
            """A dealloc of nothing: its updated conditions are all false."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                if op.memrefs:
                    return False
                if not op.results:
                    rewriter.erase_op(op)
                    return True
                from ..ir.builder import InsertionPoint
                from .arith import ConstantOp
                rewriter.ip = InsertionPoint.before_op(op)
                false = rewriter.create(ConstantOp, value=A.BoolAttr(False),
                                        result_types=[A.i1], loc=op.loc)
                rewriter.replace_op(op, [false.results[0]] * len(op.results))
                return True

        class RemoveDuplicateMemrefs(RewritePattern):
            """A memref freed twice is freed once, on the `or` of its conditions."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                from .arith import OrIOp
                memrefs, conds, pos = [], [], {}
                for m, c in zip(op.memrefs, op.conditions):
                    k = pos.get(m)
                    if k is None:
                        pos[m] = len(memrefs)
                        memrefs.append(m)
                        conds.append(c)
                    elif conds[k] is not c:
                        rewriter.set_insertion_point_before(op)
                        conds[k] = rewriter.create(OrIOp, lhs=conds[k], rhs=c,
                                                   result_types=[A.i1],
                                                   loc=op.loc).results[0]
                return _update_dealloc(rewriter, op, memrefs, conds)

        class RemoveDuplicateRetained(RewritePattern):
            """A memref retained twice is retained once; both results read its
            condition."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                seen, kept, idx = {}, [], []
                for r in op.retained:
                    if r in seen:
                        idx.append(seen[r])
                        continue
                    seen[r] = len(kept)
                    idx.append(len(kept))
                    kept.append(r)
                if len(kept) == len(op.retained):
                    return False
                rewriter.set_insertion_point_before(op)
                new = _new_dealloc(rewriter, op, list(op.memrefs), list(op.conditions), kept)
                rewriter.replace_op(op, [new.results[i] for i in idx])
                return True

        class EraseAlwaysFalse(RewritePattern):
            """A memref freed on a constant false condition is not freed."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                from ..rewrite.folding import constant_value
                memrefs, conds = [], []
                for m, c in zip(op.memrefs, op.conditions):
                    v = constant_value(c)
                    if type(v) in (A.IntegerAttr, A.BoolAttr) and not v.value:
                        continue
                    memrefs.append(m)
                    conds.append(c)
                return _update_dealloc(rewriter, op, memrefs, conds)

        class SkipExtractMetadataOfAlloc(RewritePattern):
            """Free the allocated buffer itself, not the base buffer of its metadata."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                memrefs = []
                for m in op.memrefs:
                    d = m.defining_op
                    if d is not None and d.name == "memref.extract_strided_metadata":
                        a = d.operands[0]
                        ad = a.defining_op
                        if ad is not None and T.MemAlloc in _effects(ad) and \
                                a in ad.results:
                            m = a
                    memrefs.append(m)
                return _update_dealloc(rewriter, op, memrefs, list(op.conditions))

        class RemoveAllocDeallocPair(RewritePattern):
            """A buffer allocated (by an op with no other effect) and used only by this
            dealloc: neither the allocation nor the free is needed."""
            root = "bufferization.dealloc"

            def match_and_rewrite(self, op, rewriter):
                memrefs, conds, dead = [], [], []
                for m, c in zip(op.memrefs, op.conditions):
                    d = m.defining_op
                    if d is not None and _effects(d) == {T.MemAlloc} and \
                            m in d.results and m.has_one_use():
                        dead.append(d)
                        continue
                    memrefs.append(m)
                    conds.append(c)
                if not _update_dealloc(rewriter, op, memrefs, conds):
                    return False
                for d in dead:
                    rewriter.erase_op(d)
                return True
        return [RemoveDuplicateMemrefs(), RemoveDuplicateRetained(), EraseEmptyDealloc(),
                EraseAlwaysFalse(), SkipExtractMetadataOfAlloc(), RemoveAllocDeallocPair()]


def _new_dealloc(rewriter, op, memrefs, conds, retained):
    return rewriter.create(DeallocOp, memrefs=memrefs, conditions=conds, retained=retained,
                           result_types=[A.i1] * len(retained), loc=op.loc)


def _update_dealloc(rewriter, op, memrefs, conds) -> bool:
    """updateDeallocIfChanged: `op` with these memrefs and conditions, if they differ."""
    if len(memrefs) == len(op.memrefs) and \
            all(a is b for a, b in zip(memrefs, op.memrefs)) and \
            all(a is b for a, b in zip(conds, op.conditions)):
        return False
    rewriter.set_insertion_point_before(op)
    new = _new_dealloc(rewriter, op, memrefs, conds, list(op.retained))
    if op._attrs:
        new.attributes = dict(op._attrs)
    rewriter.replace_op(op, list(new.results))
    return True


class DeallocTensorOp(Op):
    """`bufferization.dealloc_tensor %t : tensor<4xf32>`"""

    name = "bufferization.dealloc_tensor"
    traits = ()
    tensor = Operand(AnyTensor)
    assembly = "$tensor attr-dict `:` type($tensor)"


_OPS = [AllocTensorOp, CloneOp, DeallocOp, DeallocTensorOp, MaterializeInDestinationOp,
        ToBufferOp, ToTensorOp]

for _c in _OPS:
    install_format(_c)

_MANUAL_DEALLOCATION = "bufferization.manual_deallocation"


def _verify_operation_attribute(op, name, attr):
    """BufferizationDialect::verifyOperationAttribute: only `manual_deallocation`, and
    only on ops that allocate or free."""
    from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
    if name == _MANUAL_DEALLOCATION:
        if not ({T.MemAlloc, T.MemFree} & _effects(op)):
            d = Diagnostic(ERROR, op.loc, f"'{op.name}' op attribute '{name}' can be used "
                           "only on ops that have an allocation and/or free side effect")
            d.op = op
            raise DiagnosticError(d)
        return
    d = Diagnostic(ERROR, op.loc, f"attribute '\"{name}\"' not supported as an op attribute "
                   "by the bufferization dialect")
    d.op = op
    raise DiagnosticError(d)


BUFFERIZATION = Dialect("bufferization", _OPS,
                        verify_operation_attribute=_verify_operation_attribute)
