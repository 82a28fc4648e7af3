"""The vector dialect: operations on `vector<...>` values (the builtin vector type), as
upstream MLIR prints them; what GPU and CPU code generation use between linalg and the
llvm/nvvm level.

    %v = vector.transfer_read %buf[%i, %j], %pad {in_bounds = [true]}
        : memref<?x?xf32>, vector<4xf32>
    %s = vector.reduction <add>, %v : vector<4xf32> into f32
    %w = vector.broadcast %s : f32 to vector<4xf32>
    vector.store %w, %out[%i, %j] : memref<?x?xf32>, vector<4xf32>

Ops: memory (load, store, maskedload, maskedstore, transfer_read, transfer_write),
construction (broadcast, from_elements, step, constant_mask, create_mask), element and
slice access (extract, insert with static or dynamic positions, extract_strided_slice,
insert_strided_slice, shuffle), shape (shape_cast, transpose, bitcast), arithmetic
(fma, reduction, multi_reduction, outerproduct, contract) and vector.print. Attributes:
`#vector.kind<add>` (the combining kinds), `#vector.iterator_type<parallel>`,
`#vector.punctuation<newline>`.

transfer_read/transfer_write keep upstream's defaults: `permutation_map` is the minor
identity (not printed), `in_bounds` is all false (stored, not printed); vector.contract
prints its iterator types as strings in its attribute dictionary, as upstream does.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.affine import AffineMap, AffineMapAttr
from ..ir.context import Dialect
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.enum_attr import EnumAttr, EnumAttrKind
from ..ir.ods import Op, Operand, OptOperand, OptProp, OptResult, Prop, Result, VarOperand
from ..syntax.asm_format import (AttrFormat, DenseArrayFmt, StrippedAttr, custom_op_prefix,
                                 install_format)
from ..syntax.dynamic_index_list import DynamicIndexListDirective, count_dynamic
from ..syntax.lexer import PUNCT
from .arith import FASTMATH

__all__ = ["VECTOR", "KIND", "ITERATOR_TYPE", "PUNCTUATION"]


KIND = EnumAttrKind("vector", "kind",
                    ["add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf",
                     "and", "or", "xor", "maximumf", "minimumf", "maximumnumf",
                     "minimumnumf"],
                    cpp_name="::mlir::vector::CombiningKind")
ITERATOR_TYPE = EnumAttrKind("vector", "iterator_type", ["parallel", "reduction"],
                             cpp_name="::mlir::vector::IteratorType")
PUNCTUATION = EnumAttrKind("vector", "punctuation",
                           ["no_punctuation", "newline", "comma", "open", "close"],
                           cpp_name="::mlir::vector::PrintPunctuation")
_ENUMS = {k.mnemonic: k for k in (KIND, ITERATOR_TYPE, PUNCTUATION)}


def _parse_attribute(p, mnemonic):
    kind = _ENUMS.get(mnemonic)
    if kind is not None:
        return kind.parse_body(p)
    body = p.parse_raw_angle_body() if p.kind == PUNCT and p.tok == "<" else ""
    return A.OpaqueAttr("vector", "." + mnemonic + body)


def _enum(kind):
    return C.Constraint(lambda a: type(a) is EnumAttr and a.kind is kind,
                        f"{kind.mnemonic} attribute")


def _fastmath():
    return FASTMATH


_VECTOR = C.Constraint(lambda t: type(t) is A.VectorType, "vector of any type values")
_SHAPED = C.Constraint(lambda t: type(t) in (A.MemRefType, A.RankedTensorType),
                       "shaped of any type values")
_MEMREF = C.Constraint(lambda t: type(t) is A.MemRefType, "memref of any type values")


def _elt(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


def _index_infer(names):
    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name in names else None
    return infer_operand_type


# ---------------------------------------------------------------- memory

def _verify_access(op, vt, what):
    """vector.load / vector.store: one index per memref dim, and the vector's element
    type (or, for a memref of vectors, the vector type) is the memref's."""
    t = op.base.type
    if len(op.indices) != len(t.shape):
        return f"requires {len(t.shape)} indices"
    e = t.element_type
    if type(e) is A.VectorType:
        if e is not vt:
            return f"base memref and {what} vector types should match"
    elif e is not vt.element_type:
        return f"base and {what} element types should match"
    return None


class LoadOp(Op):
    """`%v = vector.load %buf[%i, %j] : memref<?x?xf32>, vector<4xf32>`"""

    name = "vector.load"
    base = Operand(_MEMREF)
    indices = VarOperand(C.Index)
    nontemporal = OptProp(C.BoolAttrC)
    alignment = OptProp(C.I64Attr)
    result = Result(_VECTOR)
    assembly = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"
    infer_operand_type = _index_infer(("indices",))

    def verify_(self):
        return _verify_access(self, self.result.type, "result")


class StoreOp(Op):
    """`vector.store %v, %buf[%i, %j] : memref<?x?xf32>, vector<4xf32>`"""

    name = "vector.store"
    valueToStore = Operand(_VECTOR)
    base = Operand(_MEMREF)
    indices = VarOperand(C.Index)
    nontemporal = OptProp(C.BoolAttrC)
    alignment = OptProp(C.I64Attr)
    assembly = ("$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` "
                "type($valueToStore)")
    infer_operand_type = _index_infer(("indices",))

    def verify_(self):
        return _verify_access(self, self.valueToStore.type, "valueToStore")


class MaskedLoadOp(Op):
    """`%v = vector.maskedload %buf[%i], %mask, %pass : memref<?xf32>, vector<4xi1>,
    vector<4xf32> into vector<4xf32>`"""

    name = "vector.maskedload"
    base = Operand(_MEMREF)
    indices = VarOperand(C.Index)
    mask = Operand(_VECTOR)
    pass_thru = Operand(_VECTOR)
    alignment = OptProp(C.I64Attr)
    result = Result(_VECTOR)
    assembly = ("$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) "
                "`,` type($mask) `,` type($pass_thru) `into` type($result)")
    infer_operand_type = _index_infer(("indices",))

    def verify_(self):
        t = self.base.type
        if len(self.indices) != len(t.shape):
            return f"requires {len(t.shape)} indices"
        if self.result.type.element_type is not t.element_type:
            return "base and result element type should match"
        if self.pass_thru.type is not self.result.type:
            return "expected pass_thru of same type as result type"
        if tuple(self.mask.type.shape) != tuple(self.result.type.shape):
            return "expected result dim to match mask dim"
        return None


class MaskedStoreOp(Op):
    """`vector.maskedstore %buf[%i], %mask, %v : memref<?xf32>, vector<4xi1>,
    vector<4xf32>`"""

    name = "vector.maskedstore"
    base = Operand(_MEMREF)
    indices = VarOperand(C.Index)
    mask = Operand(_VECTOR)
    valueToStore = Operand(_VECTOR)
    alignment = OptProp(C.I64Attr)
    assembly = ("$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
                "type($base) `,` type($mask) `,` type($valueToStore)")
    infer_operand_type = _index_infer(("indices",))

    def verify_(self):
        t = self.base.type
        if len(self.indices) != len(t.shape):
            return f"requires {len(t.shape)} indices"
        if self.valueToStore.type.element_type is not t.element_type:
            return "base and valueToStore element type should match"
        if tuple(self.mask.type.shape) != tuple(self.valueToStore.type.shape):
            return "expected valueToStore dim to match mask dim"
        return None


def _minor_identity(src_rank, vec_rank):
    return AffineMapAttr(AffineMap.minor_identity(src_rank, vec_rank))


class _TransferOp(Op):
    """Shared syntax of transfer_read / transfer_write: `%src[%i, %j]` then the
    attribute dictionary without the defaults (see the module doc)."""

    traits = (T.AttrSizedOperandSegments,)

    def _print_attrs(self, pr, src_type, vec_type):
        props = dict(self._props)
        props.pop("operandSegmentSizes", None)
        pm = props.get("permutation_map")
        if pm is not None and pm is _minor_identity(len(src_type.shape),
                                                    len(vec_type.shape)):
            props.pop("permutation_map")
        ib = props.get("in_bounds")
        if ib is not None and not any(bool(x.value) for x in ib):
            props.pop("in_bounds")
        props.update(self._attrs)
        pr.print_optional_attr_dict(props)

    @staticmethod
    def _finish(p, st, src_type, vec_type):
        props = st.properties
        if type(vec_type) is not A.VectorType:
            p.error(custom_op_prefix(p) + "requires vector type")
        if type(src_type) not in (A.MemRefType, A.RankedTensorType):
            p.error(custom_op_prefix(p) + "requires memref or ranked tensor type")
        if "permutation_map" not in props:
            props["permutation_map"] = _minor_identity(len(src_type.shape),
                                                       len(vec_type.shape))
        if "in_bounds" not in props:
            n = props["permutation_map"].value.num_results
            props["in_bounds"] = A.ArrayAttr([A.BoolAttr(False)] * n)

    def _verify_transfer(self, src_type, vec_type, what):
        pm = self._props["permutation_map"].value
        if len(self.indices) != len(src_type.shape):
            return "requires " + str(len(src_type.shape)) + " indices"
        if pm.num_dims != len(src_type.shape):
            return "requires a permutation_map with input dims of the same rank as the " \
                f"{what} type"
        if pm.num_results != len(vec_type.shape):
            return "requires a permutation_map with result dims of the same rank as the " \
                "vector type"
        if len(self._props["in_bounds"]) != pm.num_results:
            return "expects the in_bounds attr of same rank as permutation_map results: " \
                f"{pm}"
        if not pm.is_projected_permutation(allow_zero_in_results=True):
            return "requires a projected permutation_map (at most one dim or the zero " \
                "constant can appear in each result)"
        return None


class TransferReadOp(_TransferOp):
    """`%v = vector.transfer_read %buf[%i, %j], %pad {in_bounds = [true]} :
    memref<?x?xf32>, vector<4xf32>`"""

    name = "vector.transfer_read"
    base = Operand(_SHAPED)
    indices = VarOperand(C.Index)
    padding = Operand()
    mask = OptOperand(_VECTOR)
    permutation_map = Prop()
    in_bounds = Prop(C.ArrayAttrC)
    result = Result(_VECTOR)

    @staticmethod
    def parse(p, st):
        src = p.parse_operand()
        idx = p.parse_operand_list("[")
        p.expect(",")
        pad = p.parse_operand()
        mask = p.parse_operand() if p.consume_if(",") else None
        p.parse_optional_attr_dict(st)
        p.expect(":")
        src_type = p.parse_type()
        p.expect(",")
        vec_type = p.parse_type()
        _TransferOp._finish(p, st, src_type, vec_type)
        ops = [p.resolve_operand(src, src_type)] + \
            [p.resolve_operand(r, A.index) for r in idx] + \
            [p.resolve_operand(pad, _elt(src_type))]
        if mask is not None:
            ops.append(p.resolve_operand(mask, A.VectorType(
                list(vec_type.shape), A.i1)))
        st.operands = ops
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, len(idx), 1, 1 if mask is not None else 0])
        st.types = [vec_type]

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)} {pr.value(self.base)}[" +
                   ", ".join(pr.value(v) for v in self.indices) + f"], "
                   f"{pr.value(self.padding)}")
        if self.mask is not None:
            out.append(", " + pr.value(self.mask))
        self._print_attrs(pr, self.base.type, self.result.type)
        out.append(f" : {pr.type_str(self.base.type)}, {pr.type_str(self.result.type)}")

    def verify_(self):
        return self._verify_transfer(self.base.type, self.result.type, "source")


class TransferWriteOp(_TransferOp):
    """`vector.transfer_write %v, %buf[%i, %j] : vector<4xf32>, memref<?x?xf32>` (a
    tensor destination gives the new tensor)"""

    name = "vector.transfer_write"
    valueToStore = Operand(_VECTOR)
    base = Operand(_SHAPED)
    indices = VarOperand(C.Index)
    mask = OptOperand(_VECTOR)
    permutation_map = Prop()
    in_bounds = Prop(C.ArrayAttrC)
    result_ = OptResult(C.AnyRankedTensor)  # upstream's `result`

    @staticmethod
    def parse(p, st):
        vec = p.parse_operand()
        p.expect(",")
        dst = p.parse_operand()
        idx = p.parse_operand_list("[")
        mask = p.parse_operand() if p.consume_if(",") else None
        p.parse_optional_attr_dict(st)
        p.expect(":")
        vec_type = p.parse_type()
        p.expect(",")
        dst_type = p.parse_type()
        _TransferOp._finish(p, st, dst_type, vec_type)
        ops = [p.resolve_operand(vec, vec_type), p.resolve_operand(dst, dst_type)] + \
            [p.resolve_operand(r, A.index) for r in idx]
        if mask is not None:
            ops.append(p.resolve_operand(mask, A.VectorType(list(vec_type.shape), A.i1)))
        st.operands = ops
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, 1, len(idx), 1 if mask is not None else 0])
        st.types = [dst_type] if type(dst_type) is A.RankedTensorType else []

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)} {pr.value(self.valueToStore)}, "
                   f"{pr.value(self.base)}[" +
                   ", ".join(pr.value(v) for v in self.indices) + "]")
        if self.mask is not None:
            out.append(", " + pr.value(self.mask))
        self._print_attrs(pr, self.base.type, self.valueToStore.type)
        out.append(f" : {pr.type_str(self.valueToStore.type)}, "
                   f"{pr.type_str(self.base.type)}")

    def verify_(self):
        return self._verify_transfer(self.base.type, self.valueToStore.type, "source")


# ---------------------------------------------------------------- construction

class BroadcastOp(Op):
    """`%v = vector.broadcast %s : f32 to vector<4xf32>`"""

    name = "vector.broadcast"
    traits = (T.Pure,)
    source = Operand()
    vector = Result(_VECTOR)
    assembly = "$source attr-dict `:` type($source) `to` type($vector)"

    def verify_(self):
        s = self.source.type
        v = self.vector.type
        if type(s) is A.VectorType:
            if s.element_type is not v.element_type:
                return f"source type {s} is not broadcastable to {v}"
            ss, vs = tuple(s.shape), tuple(v.shape)
            if len(ss) > len(vs):
                return "source rank higher than destination rank"
            for a, b in zip(ss[::-1], vs[::-1]):
                if a != 1 and a != b:
                    return (f"dimension mismatch ({a} vs. {b})")
        elif s is not v.element_type:
            return f"source type {s} is not broadcastable to {v}"
        return None


class FromElementsOp(Op):
    """`%v = vector.from_elements %a, %b : vector<2xf32>`"""

    name = "vector.from_elements"
    traits = (T.Pure,)
    elements = VarOperand()
    dest = Result(_VECTOR)
    assembly = "$elements attr-dict `:` type($dest)"

    @classmethod
    def infer_operand_type(cls, name, types):
        d = types.get("dest")
        if d:
            n = 1
            for x in d[0].shape:
                n *= x
            return [d[0].element_type] * n
        return None


class StepOp(Op):
    """`%s = vector.step : vector<4xindex>` (0, 1, 2, 3)"""

    name = "vector.step"
    traits = (T.Pure,)
    result = Result(C.Constraint(lambda t: type(t) is A.VectorType and
                                 t.element_type is A.index and len(t.shape) == 1,
                                 "vector of index values of ranks 1"))
    assembly = "attr-dict `:` type($result)"


class ConstantMaskOp(Op):
    """`%m = vector.constant_mask [2] : vector<4xi1>`"""

    name = "vector.constant_mask"
    traits = (T.Pure,)
    mask_dim_sizes = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    result = Result(_VECTOR)
    assembly = "$mask_dim_sizes attr-dict `:` type(results)"

    def verify_(self):
        t = self.result.type
        sizes = self._props["mask_dim_sizes"].value
        if len(sizes) != len(t.shape):
            return "must specify array attr of size equal vector result rank"
        for s, d in zip(sizes, t.shape):
            if not 0 <= s <= d:
                return (f"array attr of size out of bounds of vector result dimension size")
        return None


class CreateMaskOp(Op):
    """`%m = vector.create_mask %n : vector<4xi1>`"""

    name = "vector.create_mask"
    traits = (T.Pure,)
    operands_ = VarOperand(C.Index)
    result = Result(_VECTOR)
    assembly = "$operands_ attr-dict `:` type(results)"
    infer_operand_type = _index_infer(("operands_",))

    def verify_(self):
        if len(self.operands_) != len(self.result.type.shape):
            return "must specify an operand for each result vector dimension"
        return None


# ---------------------------------------------------------------- element access

class ExtractOp(DynamicIndexListDirective, Op):
    """`%e = vector.extract %v[1, %i] : f32 from vector<2x4xf32>`"""

    name = "vector.extract"
    traits = (T.Pure,)
    source = Operand(_VECTOR)
    dynamic_position = VarOperand(C.Index)
    static_position = Prop(C.DenseI64Array)
    result = Result()
    assembly = ("$source `` custom<DynamicIndexList>($dynamic_position, $static_position) "
                "attr-dict `:` type($result) `from` type($source)")

    def verify_(self):
        pos = self._props["static_position"].value
        st = self.source.type
        if len(pos) > len(st.shape):
            return "expected position attribute of rank no greater than vector rank"
        if count_dynamic(pos) != len(self.dynamic_position):
            return "expected as many dynamic positions as the static DYNAMIC entries"
        for i, p in enumerate(pos):
            if p != A.DYNAMIC and not (p == -1 or 0 <= p < st.shape[i]):
                return ("expected position attribute #" + str(i + 1) + " to be a "
                        "non-negative integer smaller than the corresponding vector "
                        "dimension or poison (-1)")
        rest = tuple(st.shape[len(pos):])
        rt = self.result.type
        want = st.element_type if not rest else None
        if want is not None and rt is not want and not (
                type(rt) is A.VectorType and tuple(rt.shape) in ((), (1,))):
            return "expected result type to be the element type"
        return None


class InsertOp(DynamicIndexListDirective, Op):
    """`%r = vector.insert %s, %v [1, 2] : f32 into vector<2x4xf32>`"""

    name = "vector.insert"
    traits = (T.Pure, T.AllTypesMatch("dest", "result"))
    valueToStore = Operand()
    dest = Operand(_VECTOR)
    dynamic_position = VarOperand(C.Index)
    static_position = Prop(C.DenseI64Array)
    result = Result(_VECTOR)
    assembly = ("$valueToStore `,` $dest custom<DynamicIndexList>($dynamic_position, "
                "$static_position) attr-dict `:` type($valueToStore) `into` type($dest)")

    def verify_(self):
        pos = self._props["static_position"].value
        dt = self.dest.type
        if len(pos) > len(dt.shape):
            return "expected position attribute of rank no greater than dest vector rank"
        for i, p in enumerate(pos):
            if p != A.DYNAMIC and not (p == -1 or 0 <= p < dt.shape[i]):
                return ("expected position attribute #" + str(i + 1) + " to be a "
                        "non-negative integer smaller than the corresponding dest vector "
                        "dimension or poison (-1)")
        return None


class _IntArrayFmt(AttrFormat):
    """An ArrayAttr of i64 integers printed `[0, 1]`."""

    def parse(self, p):
        p.expect("[")
        vals = []
        if not p.consume_if("]"):
            vals.append(p.parse_integer())
            while p.consume_if(","):
                vals.append(p.parse_integer())
            p.expect("]")
        return A.ArrayAttr([A.IntegerAttr(v, A.i64) for v in vals])

    def print(self, pr, a):
        return "[" + ", ".join(str(x.value) for x in a) + "]"

    def can_start(self, p):
        return p.at("[")


_I64_ARRAY = C.Constraint(lambda a: type(a) is A.ArrayAttr and all(
    type(x) is A.IntegerAttr and x.type is A.i64 for x in a), "64-bit integer array attribute")


class ExtractStridedSliceOp(Op):
    """`%s = vector.extract_strided_slice %v offsets = [0, 1], sizes = [2, 2], strides =
    [1, 1] : vector<2x4xf32> to vector<2x2xf32>`"""

    name = "vector.extract_strided_slice"
    traits = (T.Pure,)
    source = Operand(_VECTOR)
    offsets = Prop(_I64_ARRAY, fmt=_IntArrayFmt())
    sizes = Prop(_I64_ARRAY, fmt=_IntArrayFmt())
    strides = Prop(_I64_ARRAY, fmt=_IntArrayFmt())
    result = Result(_VECTOR)
    assembly = ("$source `offsets` `=` $offsets `,` `sizes` `=` $sizes `,` `strides` `=` "
                "$strides attr-dict `:` type($source) `to` type($result)")


class InsertStridedSliceOp(Op):
    """`%r = vector.insert_strided_slice %s, %v offsets = [1, 0], strides = [1] :
    vector<4xf32> into vector<2x4xf32>`"""

    name = "vector.insert_strided_slice"
    traits = (T.Pure, T.AllTypesMatch("dest", "result"))
    valueToStore = Operand(_VECTOR)
    dest = Operand(_VECTOR)
    offsets = Prop(_I64_ARRAY, fmt=_IntArrayFmt())
    strides = Prop(_I64_ARRAY, fmt=_IntArrayFmt())
    result = Result(_VECTOR)
    assembly = ("$valueToStore `,` $dest `offsets` `=` $offsets `,` `strides` `=` $strides "
                "attr-dict `:` type($valueToStore) `into` type($dest)")


class ShuffleOp(Op):
    """`%r = vector.shuffle %a, %b [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>`"""

    name = "vector.shuffle"
    traits = (T.Pure,)
    v1 = Operand(_VECTOR)
    v2 = Operand(_VECTOR)
    mask = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    vector = Result(_VECTOR)
    assembly = "$v1 `,` $v2 $mask attr-dict `:` type($v1) `,` type($v2)"

    @classmethod
    def infer_result_types(cls, operands, props):
        a = operands[0].type
        n = len(props["mask"].value)
        return [A.VectorType([n] + list(a.shape[1:]), a.element_type)]

    def verify_(self):
        a, b = self.v1.type, self.v2.type
        total = (a.shape[0] if a.shape else 1) + (b.shape[0] if b.shape else 1)
        for i, m in enumerate(self._props["mask"].value):
            if m != -1 and not 0 <= m < total:
                return f"mask index #{i + 1} out of range"
        return None


# ---------------------------------------------------------------- shape

class ShapeCastOp(Op):
    """`%r = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>`"""

    name = "vector.shape_cast"
    traits = (T.Pure,)
    source = Operand(_VECTOR)
    result = Result(_VECTOR)
    assembly = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_(self):
        s, r = self.source.type, self.result.type
        if s.element_type is not r.element_type:
            return "has different source and result element types"
        a = b = 1
        for d in s.shape:
            a *= d
        for d in r.shape:
            b *= d
        if a != b:
            return f"has different number of elements at source ({a}) and result ({b})"
        return None


class TransposeOp(Op):
    """`%t = vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>`"""

    name = "vector.transpose"
    traits = (T.Pure,)
    vector = Operand(_VECTOR)
    permutation = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    result = Result(_VECTOR)
    assembly = "$vector `,` $permutation attr-dict `:` type($vector) `to` type($result)"

    def verify_(self):
        perm = self._props["permutation"].value
        s, r = self.vector.type, self.result.type
        if len(perm) != len(s.shape):
            return "transposition length mismatch"
        if sorted(perm) != list(range(len(perm))):
            return "transposition must be a permutation"
        if tuple(r.shape) != tuple(s.shape[i] for i in perm):
            return "dimension size mismatch"
        return None


class BitCastOp(Op):
    """`%b = vector.bitcast %v : vector<4xf32> to vector<4xi32>`"""

    name = "vector.bitcast"
    traits = (T.Pure,)
    source = Operand(_VECTOR)
    result = Result(_VECTOR)
    assembly = "$source attr-dict `:` type($source) `to` type($result)"


# ---------------------------------------------------------------- arithmetic

class FMAOp(Op):
    """`%r = vector.fma %a, %b, %c : vector<4xf32>`"""

    name = "vector.fma"
    traits = (T.Pure, T.SameOperandsAndResultType)
    lhs = Operand(_VECTOR)
    rhs = Operand(_VECTOR)
    acc = Operand(_VECTOR)
    result = Result(_VECTOR)
    assembly = "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)"


class _FastmathFmt(StrippedAttr):
    def __init__(self):
        super().__init__("arith", "fastmath")


class ReductionOp(Op):
    """`%s = vector.reduction <add>, %v : vector<4xf32> into f32` (optionally `, %acc`)"""

    name = "vector.reduction"
    traits = (T.Pure,)
    vector = Operand(_VECTOR)
    acc = OptOperand()
    kind = Prop(_enum(KIND), fmt=StrippedAttr("vector", "kind"))
    fastmath = Prop(default=FASTMATH("none"), fmt=_FastmathFmt())
    dest = Result()
    assembly = ("$kind `,` $vector (`,` $acc^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
                "type($vector) `into` type($dest)")

    @classmethod
    def infer_operand_type(cls, name, types):
        d = types.get("dest")
        return d[0] if name == "acc" and d else None

    @staticmethod
    def finish_parse(op):
        if "fastmath" not in op._props:
            op.properties["fastmath"] = _fastmath()("none")

    def verify_(self):
        vt = self.vector.type
        if len(vt.shape) != 1:
            return "unsupported reduction rank: " + str(len(vt.shape))
        if self.dest.type is not vt.element_type:
            return (f"failed to verify that source operand and result have same element "
                    "type")
        return None


class MultiDimReductionOp(Op):
    """`%r = vector.multi_reduction <add>, %v, %acc [0] : vector<2x4xf32> to
    vector<4xf32>`"""

    name = "vector.multi_reduction"
    traits = (T.Pure,)
    source = Operand(_VECTOR)
    acc = Operand()
    kind = Prop(_enum(KIND), fmt=StrippedAttr("vector", "kind"))
    reduction_dims = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    dest = Result()
    assembly = ("$kind `,` $source `,` $acc attr-dict $reduction_dims `:` type($source) `to` "
                "type($dest)")

    @classmethod
    def infer_operand_type(cls, name, types):
        d = types.get("dest")
        return d[0] if name == "acc" and d else None


class OuterProductOp(Op):
    """`%r = vector.outerproduct %a, %b, %acc {kind = #vector.kind<add>} : vector<4xf32>,
    vector<4xf32>`"""

    name = "vector.outerproduct"
    traits = (T.Pure,)
    lhs = Operand(_VECTOR)
    rhs = Operand()
    acc = OptOperand(_VECTOR)
    kind = Prop(_enum(KIND), default=KIND("add"))
    result = Result(_VECTOR)

    @staticmethod
    def parse(p, st):
        refs = [p.parse_operand()]
        while p.consume_if(","):
            refs.append(p.parse_operand())
        p.parse_optional_attr_dict(st)
        p.expect(":")
        tl = p.parse_type()
        p.expect(",")
        tr = p.parse_type()
        if type(tr) is A.VectorType:
            rt = A.VectorType([tl.shape[0], tr.shape[0]], tl.element_type)
        else:
            rt = tl
        types = [tl, tr, rt][:len(refs)]
        if len(refs) < 2 or len(refs) > 3:
            p.error(custom_op_prefix(p) + "expected at least 2 operands")
        st.operands = [p.resolve_operand(r, t) for r, t in zip(refs, types)]
        st.types = [rt]
        if "kind" not in st.properties:
            st.properties["kind"] = KIND("add")

    def print(self, pr):
        ops = [self.lhs, self.rhs] + ([self.acc] if self.acc is not None else [])
        pr.out.append(pr.op_name(self) + " " + ", ".join(pr.value(v) for v in ops))
        # Upstream prints the attribute dictionary only with an accumulator (and then
        # with the kind, default or not); without one it prints none at all.
        if self.acc is not None:
            props = dict(self._props)
            props.update(self._attrs)
            pr.print_optional_attr_dict(props)
        pr.out.append(f" : {pr.type_str(self.lhs.type)}, {pr.type_str(self.rhs.type)}")


class ContractionOp(Op):
    """`%r = vector.contract {indexing_maps = [...], iterator_types = ["parallel",
    "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x8xf32>,
    vector<8x4xf32> into vector<4x4xf32>`"""

    name = "vector.contract"
    traits = (T.Pure,)
    lhs = Operand(_VECTOR)
    rhs = Operand(_VECTOR)
    acc = Operand()
    indexing_maps = Prop(C.ArrayAttrC)
    iterator_types = Prop(C.ArrayAttrC)
    kind = Prop(_enum(KIND), default=KIND("add"))
    fastmath = Prop(default=None)
    result = Result()

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        d = p.parse_attr_dict_body() if p.at("{") else {}
        its = d.get("iterator_types")
        if its is None or "indexing_maps" not in d:
            p.error(custom_op_prefix(p) + "expected indexing_maps and iterator_types "
                    "attributes", start)
        conv = []
        for x in its:
            if type(x) is A.StringAttr:
                if x.value not in ITERATOR_TYPE.cases:
                    p.error(f"unexpected iterator_type ({x.value})", start)
                conv.append(ITERATOR_TYPE(x.value))
            elif _is_iterator_type(x):
                conv.append(x)
            else:
                p.error(custom_op_prefix(p) + "expected iterator_types to hold iterator "
                        f"types, got {x}", start)
        d["iterator_types"] = A.ArrayAttr(conv)
        for k, v in d.items():
            if k in ("indexing_maps", "iterator_types", "kind", "fastmath"):
                st.properties[k] = v
            else:
                st.attributes[k] = v
        st.properties.setdefault("kind", KIND("add"))
        st.properties.setdefault("fastmath", _fastmath()("none"))
        refs = [p.parse_operand()]
        while p.consume_if(","):
            refs.append(p.parse_operand())
        p.parse_optional_attr_dict(st)
        p.expect(":")
        tl = p.parse_type()
        p.expect(",")
        tr = p.parse_type()
        p.parse_keyword("into")
        ta = p.parse_type()
        if len(refs) != 3:
            p.error(custom_op_prefix(p) + "expected 3 operands")
        st.operands = [p.resolve_operand(r, t) for r, t in zip(refs, (tl, tr, ta))]
        st.types = [ta]

    def print(self, pr):
        props = self._props
        d = {"indexing_maps": props["indexing_maps"],
             "iterator_types": A.ArrayAttr([A.StringAttr(x.value) for x in
                                            props["iterator_types"]]),
             "kind": props["kind"]}
        items = ", ".join(f"{k} = {pr.attr_str(v)}" for k, v in d.items())
        pr.out.append(f"{pr.op_name(self)} {{{items}}} " +
                      ", ".join(pr.value(v) for v in (self.lhs, self.rhs, self.acc)))
        extra = {k: v for k, v in props.items() if k not in d and not (
            k == "fastmath" and getattr(v, "value", None) == "none")}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        pr.out.append(f" : {pr.type_str(self.lhs.type)}, {pr.type_str(self.rhs.type)} into "
                      f"{pr.type_str(self.acc.type)}")

    def verify_(self):
        maps = self._props["indexing_maps"]
        its = self._props["iterator_types"]
        if len(maps) != 3:
            return "expected an indexing map for each vector operand"
        if not all(_is_iterator_type(x) for x in its):
            return "expected iterator_types to hold iterator types"
        if not all(isinstance(m, AffineMapAttr) for m in maps):
            return "expected indexing_maps to hold affine maps"
        n = len(its)
        for i, m in enumerate(maps):
            m = m.value
            if m.num_symbols:
                return "expected indexing map " + str(i) + " to have no symbols"
            if m.num_dims != n:
                return (f"expected indexing map {i} to have {n} number of inputs")
        return None


def _is_iterator_type(x) -> bool:
    """`x` is a #vector.iterator_type attribute."""
    return type(x) is type(ITERATOR_TYPE("parallel"))


class PrintOp(Op):
    """`vector.print %v : vector<4xf32>` (`punctuation <comma>`, `str "..."`)"""

    name = "vector.print"
    source = OptOperand()
    punctuation = Prop(_enum(PUNCTUATION), default=PUNCTUATION("newline"),
                       fmt=StrippedAttr("vector", "punctuation"))
    stringLiteral = OptProp(C.StrAttr)
    assembly = ("($source^ `:` type($source))? (`str` $stringLiteral^)? "
                "(`punctuation` $punctuation^)? attr-dict")

    @staticmethod
    def finish_parse(op):
        if "punctuation" not in op._props:
            op.properties["punctuation"] = PUNCTUATION("newline")


for _c in (LoadOp, StoreOp, MaskedLoadOp, MaskedStoreOp, BroadcastOp, FromElementsOp, StepOp,
           ConstantMaskOp, CreateMaskOp, ExtractOp, InsertOp, ExtractStridedSliceOp,
           InsertStridedSliceOp, ShuffleOp, ShapeCastOp, TransposeOp, BitCastOp, FMAOp,
           ReductionOp, MultiDimReductionOp, PrintOp):
    install_format(_c)

_OPS = [LoadOp, StoreOp, MaskedLoadOp, MaskedStoreOp, TransferReadOp, TransferWriteOp,
        BroadcastOp, FromElementsOp, StepOp, ConstantMaskOp, CreateMaskOp, ExtractOp, InsertOp,
        ExtractStridedSliceOp, InsertStridedSliceOp, ShuffleOp, ShapeCastOp, TransposeOp,
        BitCastOp, FMAOp, ReductionOp, MultiDimReductionOp, OuterProductOp, ContractionOp,
        PrintOp]

VECTOR = Dialect("vector", _OPS, parse_attribute=_parse_attribute)
