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

Folds: to_buffer(to_tensor(m)) -> m (same type) and to_tensor(to_buffer(t)) -> t (the
to_buffer right before, as upstream's conservative alias check); canonicalization
rewrites to_buffer(to_tensor(m)) of a cast-compatible type to a memref.cast and erases
empty deallocs.
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

        class ToBufferToTensorCast(RewritePattern):
            """to_buffer(to_tensor(m)) of another, cast-compatible memref type: a
            memref.cast of m (foldToBufferToTensorPair without a copy)."""
            root = "bufferization.to_buffer"

            def match_and_rewrite(self, op, rewriter):
                src = op.tensor.defining_op
                if type(src) is not ToTensorOp:
                    return False
                m, rt = src.buffer, op.results[0].type
                if m.type is rt:
                    rewriter.replace_op(op, [m])
                    return True
                if not MemRefCastOp.are_cast_compatible([m.type], [rt]):
                    return False
                rewriter.replace_op_with_new(op, MemRefCastOp, source=m, result_types=[rt])
                return True
        return [ToBufferToTensorCast()]


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
        return [EraseEmptyDealloc()]


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

BUFFERIZATION = Dialect("bufferization", _OPS)
