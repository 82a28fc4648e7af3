"""The memref dialect: buffers (memrefs), their allocation, element access and views.

Upstream MLIR's memref ops with their custom syntax, result names and verifier messages
(as iree-opt 3.13 prints them). Offsets, sizes and strides use the
`custom<DynamicIndexList>` directive; the offset/size/stride checks shared with
tensor.extract_slice come from strata.dialects.tensor.

Layout arithmetic (strides and offsets of a type, the result types of subview,
expand/collapse_shape and transpose) lives in memref_layout.py and is re-exported here.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.affine import AffineMapAttr, AffineParseError, parse_affine_map_body
from ..ir.context import Dialect
from ..ir.ods import (Op, Operand, OptOperand, OptProp, Prop, RegionDef, Result, VarOperand,
                      VarResult)
from ..ir.symbol_table import lookup_nearest_symbol_from
from ..syntax.asm_format import BareInt, EnumFmt, SymbolRef, custom_op_prefix, install_format
from ..syntax.dynamic_index_list import (DynamicIndexListDirective, count_dynamic,
                                         mixed_values, reassociation_indices)
from ..syntax.lexer import STRING
from .memref_layout import (DYN, canonical_strided_layout, canonical_strides,  # noqa: F401
                            collapsed_layout, collapsed_type, element_size_bits,
                            expanded_type, is_contiguous_row_major, is_identity_layout,
                            is_strided, num_layout_symbols, rank_reduced_subview_type,
                            same_canonical_layout, sat_add, sat_mul, strided_type,
                            strides_and_offset, subview_type, transposed_type)
from .tensor import (IndexListArrayAttr, _OffsetSizeStride, _bare_error, _in_bounds_error,
                     _rank_reduction_mask, _static)

__all__ = [
    "MEMREF", "DYN", "is_identity_layout", "canonical_strides", "strides_and_offset",
    "is_strided", "num_layout_symbols", "strided_type", "subview_type",
    "rank_reduced_subview_type", "expanded_type", "collapsed_type", "collapsed_layout",
    "transposed_type", "canonical_strided_layout", "element_size_bits",
    "ATOMIC_RMW_KINDS", "is_contiguous_row_major", "sat_add", "sat_mul",
    "size_key", "same_size",
]

# ==================================================================== constraints

def _ranked(t):
    return type(t) is A.MemRefType


def _any_memref(t):
    return type(t) is A.MemRefType or type(t) is A.UnrankedMemRefType


RankedMemRef = C.Constraint(_ranked, "memref of any non-token type values")
AnyRankedOrUnrankedMemRef = C.Constraint(
    _any_memref, "ranked or unranked memref of any non-token type values")
StridedMemRef = C.Constraint(lambda t: _ranked(t) and is_strided(t),
                             "strided memref of any non-token type values")
StridedMemRefRank0 = C.Constraint(lambda t: _ranked(t) and is_strided(t) and not t.shape,
                                  "0D strided memref of any non-token type values")
StaticShapeMemRef = C.Constraint(lambda t: _ranked(t) and t.has_static_shape,
                                 "statically shaped memref of any non-token type values")
Non0RankedOrUnrankedMemRef = C.Constraint(
    lambda t: type(t) is A.UnrankedMemRefType or (_ranked(t) and len(t.shape) > 0),
    "unranked.memref of any non-token type values or non-0-ranked.memref of any non-token "
    "type values")
MemRef1D = C.Constraint(lambda t: _ranked(t) and len(t.shape) == 1,
                        "1D memref of any non-token type values")
I8MemRef1D = C.Constraint(lambda t: _ranked(t) and len(t.shape) == 1 and
                          t.element_type is A.i8,
                          "1D memref of 8-bit signless integer values")
ShapeMemRef = C.Constraint(lambda t: _ranked(t) and len(t.shape) == 1 and
                           C.SignlessIntegerOrIndex.check(t.element_type),
                           "1D memref of signless integer or index values")


def _int_or_float(t):
    return type(t) is A.FloatType or (type(t) is A.IntegerType and t.signedness == 0)


IntOrFloat = C.Constraint(_int_or_float, "signless integer or floating-point")
IntOrFloatMemRef = C.Constraint(lambda t: _ranked(t) and _int_or_float(t.element_type),
                                "memref of signless integer or floating-point values")
AlignmentI64 = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i64 and a.value > 0 and
    not a.value & (a.value - 1),
    "64-bit signless integer attribute whose value is positive and whose value is a power "
    "of two > 0")
PositiveI32 = C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and
                           a.value > 0,
                           "32-bit signless integer attribute whose value is positive")
MemRefTypeAttr = C.Constraint(lambda a: type(a) is A.TypeAttr and _ranked(a.value),
                              "memref type attribute")
AffineMapAttrC = C.Constraint(lambda a: type(a) is AffineMapAttr, "AffineMap attribute")

# arith::AtomicRMWKind, in upstream's (alphabetical) numbering.
ATOMIC_RMW_KINDS = ["addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
                    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori"]
AtomicRMWKindAttr = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i64 and
    0 <= a.value < len(ATOMIC_RMW_KINDS), "allowed 64-bit signless integer cases: " +
    ", ".join(str(i) for i in range(len(ATOMIC_RMW_KINDS))))


def _dynamic_sizes_error(t, values) -> str:
    return (f"incorrect number of dynamic sizes, has {len(values)}, expected "
            f"{t.num_dynamic_dims}")


def _q(t) -> str:
    return f"'{t}'"


def _dims_text(shape) -> str:
    return ", ".join(str(d) for d in shape)


# ==================================================================== allocation

class _AllocLike(Op):
    traits = (T.AttrSizedOperandSegments,)
    dynamicSizes = VarOperand(C.Index)
    symbolOperands = VarOperand(C.Index)
    alignment = OptProp(AlignmentI64)
    alignment.fmt = BareInt()
    memref = Result(RankedMemRef)
    assembly = ("`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? "
                "(`alignment` `=` $alignment^)? attr-dict `:` type($memref)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def asm_result_names(self):
        return [self.name.split(".")[1]]

    @property
    def mixed_sizes(self):
        t = self.results[0].type
        return mixed_values(t.shape, self.dynamicSizes)

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def verify_(self):
        t = self.results[0].type
        if len(self.dynamicSizes) != t.num_dynamic_dims:
            return _dynamic_sizes_error(t, self.dynamicSizes)
        n = num_layout_symbols(t)
        if len(self.symbolOperands) != n:
            return (f"symbol operand count does not equal memref symbol count: expected "
                    f"{n}, got {len(self.symbolOperands)}")
        return None


class AllocOp(_AllocLike):
    """`%alloc = memref.alloc(%n) alignment = 64 : memref<4x?xf32>`"""

    name = "memref.alloc"
    traits = (T.AttrSizedOperandSegments, T.MemoryEffects(T.MemAlloc))


class AllocaOp(_AllocLike):
    """`%alloca = memref.alloca() : memref<4xf32>` (freed when its allocation scope
    returns)"""

    name = "memref.alloca"
    traits = (T.AttrSizedOperandSegments, T.MemoryEffects(T.MemAlloc))

    def verify_(self):
        p = self.parent_op
        while p is not None and T.AutomaticAllocationScope not in type(p).traits:
            p = p.parent_op
        if p is None:
            return "requires an ancestor op with AutomaticAllocationScope trait"
        return super().verify_()


class ReallocOp(Op):
    """`%1 = memref.realloc %0(%n) : memref<4xf32> to memref<?xf32>`"""

    name = "memref.realloc"
    traits = (T.MemoryEffects(T.MemFree, T.MemAlloc),)
    source = Operand(MemRef1D)
    dynamicResultSize = OptOperand(C.Index)
    alignment = OptProp(AlignmentI64)
    alignment.fmt = BareInt()
    result = Result(MemRef1D)
    assembly = ("$source (`(` $dynamicResultSize^ `)`)? (`alignment` `=` $alignment^)? "
                "attr-dict `:` type($source) `to` type(results)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "dynamicResultSize" else None

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def verify_(self):
        st, rt = self.source.type, self.results[0].type
        err = _element_type_error(st, rt)
        if err:
            return err
        if not is_identity_layout(st):
            _bare_error(self, "unsupported layout for source memref type " + _q(st))
        if not is_identity_layout(rt):
            _bare_error(self, "unsupported layout for result memref type " + _q(rt))
        if st.memory_space is not rt.memory_space:
            _bare_error(self, f"different memory spaces specified for source memref type "
                              f"{_q(st)} and result memref type {_q(rt)}")
        if rt.shape[0] == DYN and self.dynamicResultSize is None:
            _bare_error(self, "missing dimension operand for result type " + _q(rt))
        if rt.shape[0] != DYN and self.dynamicResultSize is not None:
            _bare_error(self, "unnecessary dimension operand for result type " + _q(rt))
        return None


class DeallocOp(Op):
    """`memref.dealloc %alloc : memref<4xf32>`"""

    name = "memref.dealloc"
    traits = (T.MemoryEffects(T.MemFree),)
    memref = Operand(AnyRankedOrUnrankedMemRef)
    assembly = "$memref attr-dict `:` type($memref)"


class AllocaScopeOp(Op):
    """`%r = memref.alloca_scope -> (f32) { ... memref.alloca_scope.return %v : f32 }`"""

    name = "memref.alloca_scope"
    traits = (T.AutomaticAllocationScope, T.RecursiveMemoryEffects, T.NoRegionArguments,
              T.SingleBlockImplicitTerminator("memref.alloca_scope.return"))
    results_ = VarResult()
    bodyRegion = RegionDef(single_block=True)

    # RegionBranchOpInterface: the body runs once, its return goes to the results.
    def region_successors(self, src, operands=None):
        if src is None:
            return [(self.regions[0], [])]
        return [(None, list(self.results))]

    def entry_successor_operands(self, target):
        return []

    def entry_successor_operand_range(self, target):
        return len(self._operands), 0

    @staticmethod
    def parse(p, st):
        if p.consume_if("->"):
            st.types = p.parse_function_result_types()
        region = p.parse_region(op_cls=AllocaScopeOp)
        st.regions.append(region)
        from ..ir.core import Block
        if not region.blocks:
            region.add_block(Block())
        b = region.blocks[-1]
        if b.last is None or T.Terminator not in type(b.last).traits:
            b.append(AllocaScopeReturnOp.create(loc=st.loc if hasattr(st, "loc") else None))
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        types = [r.type for r in self.results]
        s = pr.op_name(self) + " "
        if types:
            s += " -> (" + ", ".join(map(pr.type_str, types)) + ")"
        out.append(s + " ")
        pr.print_region(self.regions[0], print_entry_args=False,
                        print_terminators=bool(types))
        pr.print_optional_attr_dict(dict(self.attributes))


class AllocaScopeReturnOp(Op):
    """`memref.alloca_scope.return %v : f32`"""

    name = "memref.alloca_scope.return"
    traits = (T.Pure, T.ReturnLike, T.Terminator, T.HasParent("memref.alloca_scope"))
    results_ = VarOperand()
    assembly = "attr-dict ($results_^ `:` type($results_))?"


# ==================================================================== element access

class LoadOp(Op):
    """`%0 = memref.load %m[%i, %j] : memref<4x4xf32>`"""

    name = "memref.load"
    traits = (T.MemoryEffects(T.MemRead),)
    memref = Operand(RankedMemRef)
    indices = VarOperand(C.Index)
    nontemporal = Prop(C.BoolAttrC, default=A.BoolAttr(False))
    nontemporal.fmt = None
    alignment = OptProp(AlignmentI64)
    alignment.fmt = BareInt()
    result = Result()
    assembly = ("$memref `[` $indices `]` (`alignment` `(` $alignment^ `)`)? "
                "(`nontemporal` `(` $nontemporal^ `)`)? attr-dict `:` type($memref)")

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type.element_type]

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def verify_(self):
        t = self.memref.type
        if self.results[0].type is not t.element_type:
            return "failed to verify that result type matches element type of 'memref'"
        if len(self.indices) != t.rank:
            return _indices_error(t, self.indices)
        return None

    def fold(self, operands):
        return _fold_memref_cast(self, 0)


class StoreOp(Op):
    """`memref.store %v, %m[%i, %j] : memref<4x4xf32>`"""

    name = "memref.store"
    traits = (T.MemoryEffects(T.MemWrite),)
    value = Operand()
    memref = Operand(RankedMemRef)
    indices = VarOperand(C.Index)
    nontemporal = Prop(C.BoolAttrC, default=A.BoolAttr(False))
    alignment = OptProp(AlignmentI64)
    alignment.fmt = BareInt()
    assembly = ("$value `,` $memref `[` $indices `]` (`alignment` `(` $alignment^ `)`)? "
                "(`nontemporal` `(` $nontemporal^ `)`)? attr-dict `:` type($memref)")

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "indices":
            return A.index
        mt = (types.get("memref") or [None])[0]
        return mt.element_type if isinstance(mt, A.ShapedType) else None

    def verify_(self):
        t = self.memref.type
        if self.value.type is not t.element_type:
            return "failed to verify that type of 'value' matches element type of 'memref'"
        if len(self.indices) != t.rank:
            return _indices_error(t, self.indices)
        return None

    def fold(self, operands):
        return _fold_memref_cast(self, 1, results=False)


def _indices_error(t, indices) -> str:
    return (f"invalid number of indices for accessed memref, expected {t.rank} but got "
            f"{len(indices)}")


def _fold_memref_cast(op, index, results=True):
    """foldMemRefCast: use the source of a memref.cast operand in place (when the cast
    does not come from an unranked memref). Returns the op's own results (folded in
    place) or None."""
    operand = op._operands[index]
    c = operand.value.defining_op
    if type(c) is not CastOp or type(c.source.type) is A.UnrankedMemRefType:
        return None
    operand.set(c.source)
    return list(op.results) if results else []


class AtomicRMWOp(Op):
    """`%x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32`"""

    name = "memref.atomic_rmw"
    traits = (T.MemoryEffects(T.MemRead, T.MemWrite),)
    kind = Prop(AtomicRMWKindAttr, fmt=EnumFmt(ATOMIC_RMW_KINDS, what="kind"))
    value = Operand(IntOrFloat)
    memref = Operand(IntOrFloatMemRef)
    indices = VarOperand(C.Index)
    result = Result(IntOrFloat)
    assembly = ("$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) "
                "`,` type($memref) `)` `->` type($result)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def verify_(self):
        t = self.memref.type
        if self.value.type is not t.element_type:
            return "failed to verify that value type matches element type of memref"
        if self.results[0].type is not self.value.type:
            return "failed to verify that result type matches element type of memref"
        if len(self.indices) != t.rank:
            return _indices_error(t, self.indices)
        kind = ATOMIC_RMW_KINDS[self.properties["kind"].value]
        vt = self.value.type
        if kind in ("addf", "maximumf", "minimumf", "mulf") and type(vt) is not A.FloatType:
            return f"with kind '{kind}' expects a floating-point type"
        if kind in ("addi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori",
                    "andi") and type(vt) is not A.IntegerType:
            return f"with kind '{kind}' expects an integer type"
        return None

    def fold(self, operands):
        """AtomicRMWOp::fold: a memref.cast of the buffer is read through (the value
        operand is not a buffer)."""
        return _fold_memref_cast(self, 1)


class GenericAtomicRMWOp(Op):
    """`%x = memref.generic_atomic_rmw %m[%i] : memref<4xf32> { ^bb0(%cur: f32): ...
    memref.atomic_yield %new : f32 }`"""

    name = "memref.generic_atomic_rmw"
    traits = (T.SingleBlockImplicitTerminator("memref.atomic_yield"),
              T.MemoryEffects(T.MemRead, T.MemWrite))
    memref = Operand(IntOrFloatMemRef)
    indices = VarOperand(C.Index)
    result = Result(IntOrFloat)
    atomic_body = RegionDef()

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        ref = p.parse_operand()
        p.expect("[")
        idx = [] if p.at("]") else p.parse_operand_list()
        p.expect("]")
        p.expect(":")
        mt = p.parse_type()
        st.operands = p.resolve_operands([ref] + idx, [mt] + [A.index] * len(idx), start)
        st.regions.append(p.parse_region(op_cls=GenericAtomicRMWOp))
        p.parse_optional_attr_dict(st)
        st.types = [mt.element_type] if isinstance(mt, A.ShapedType) else []

    def print(self, pr):
        idx = ", ".join(pr.value(v) for v in self.indices)
        pr.out.append(f"{pr.op_name(self)} {pr.value(self.memref)}[{idx}] : "
                      f"{pr.type_str(self.memref.type)} ")
        pr.print_region(self.regions[0], print_entry_args=True, print_terminators=True)
        pr.print_optional_attr_dict(dict(self.attributes))

    def verify_(self):
        t = self.memref.type
        if self.results[0].type is not t.element_type:
            return "failed to verify that result type matches element type of memref"
        if len(self.indices) != t.rank:
            return _indices_error(t, self.indices)
        blocks = self.regions[0].blocks
        if not blocks or len(blocks[0].args) != 1:
            return "expected single number of entry block arguments"
        if self.results[0].type is not blocks[0].args[0].type:
            return "expected block argument of the same type result type"
        for op in self.regions[0].ops:
            for nested in op.walk():
                if not T.is_pure(nested) and T.Terminator not in type(nested).traits:
                    _bare_error(nested, "body of 'memref.generic_atomic_rmw' should contain "
                                        "only operations with no side effects")
        return None


class AtomicYieldOp(Op):
    """`memref.atomic_yield %v : f32` (ends a generic_atomic_rmw body)"""

    name = "memref.atomic_yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator, T.HasParent("memref.generic_atomic_rmw"))
    result_ = Operand()  # upstream's `result` ([Note: field names])
    assembly = "$result_ attr-dict `:` type($result_)"

    def verify_(self):
        parent = self.parent_op
        pt = parent.results[0].type if parent is not None and parent.results else None
        if pt is not self.result_.type:
            return (f"types mismatch between yield op: {_q(self.result_.type)} and its parent: "
                    f"{_q(pt)}")
        return None


# ==================================================================== DMA and prefetch

def _all_index(values) -> bool:
    return all(v.type is A.index for v in values)


def _parse_indexed(p):
    """`%m[%i, %j]`: the memref's operand reference and those of its indices."""
    ref = p.parse_operand()
    p.expect("[")
    idx = [] if p.at("]") else p.parse_operand_list()
    p.expect("]")
    return ref, idx


def _indexed_text(pr, m, indices) -> str:
    return f"{pr.value(m)}[{', '.join(pr.value(v) for v in indices)}]"


class DmaStartOp(Op):
    """`memref.dma_start %src[%i], %dst[%j], %n, %tag[%k] (, %stride, %per_stride)? :
    memref<256xf32>, memref<256xf32, 1>, memref<1xi32>`

    One flat operand list, read by position: the source memref and its indices, the
    destination memref and its indices, the element count, the tag memref and its
    indices, then optionally a stride and the elements per stride. The verifier walks
    it in that order, as upstream's (each rank tells where the next part starts)."""

    name = "memref.dma_start"
    traits = (T.MemoryEffects(T.MemRead, T.MemWrite),)
    operands_ = VarOperand()  # upstream's `operands` ([Note: field names])

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        src, src_idx = _parse_indexed(p)
        p.expect(",")
        dst, dst_idx = _parse_indexed(p)
        p.expect(",")
        num = p.parse_operand()
        p.expect(",")
        tag, tag_idx = _parse_indexed(p)
        strides = []
        while p.consume_if(","):
            strides.append(p.parse_operand())
        if strides and len(strides) != 2:
            p.error(p._custom_prefix() + "expected two stride related operands",
                    p.custom_op_offset)
        # Upstream prints the attribute dictionary here but its parser does not read it
        # back; Strata reads it, so that what both print parses again.
        p.parse_optional_attr_dict(st)
        types = p.parse_colon_type_list()
        if len(types) != 3:
            p.error(p._custom_prefix() + "fewer/more types expected", p.custom_op_offset)
        ix = A.index
        refs = [src, *src_idx, dst, *dst_idx, num, tag, *tag_idx, *strides]
        tys = ([types[0]] + [ix] * len(src_idx) + [types[1]] + [ix] * len(dst_idx) + [ix] +
               [types[2]] + [ix] * len(tag_idx) + [ix] * len(strides))
        st.operands = p.resolve_operands(refs, tys, start)

    def _parts(self):
        """(src, src indices, dst, dst indices, num elements, tag, tag indices, strides)
        of a verified op."""
        ops = [o.value for o in self._operands]
        i = 1 + ops[0].type.rank
        src, src_idx = ops[0], ops[1:i]
        j = i + 1 + ops[i].type.rank
        dst, dst_idx = ops[i], ops[i + 1:j]
        num, tag = ops[j], ops[j + 1]
        k = j + 2 + tag.type.rank
        return src, src_idx, dst, dst_idx, num, tag, ops[j + 2:k], ops[k:]

    def print(self, pr):
        src, src_idx, dst, dst_idx, num, tag, tag_idx, strides = self._parts()
        s = (f"{pr.op_name(self)} {_indexed_text(pr, src, src_idx)}, "
             f"{_indexed_text(pr, dst, dst_idx)}, {pr.value(num)}, "
             f"{_indexed_text(pr, tag, tag_idx)}")
        for v in strides:
            s += ", " + pr.value(v)
        pr.out.append(s)
        pr.print_optional_attr_dict(dict(self.attributes))
        pr.out.append(" : " + ", ".join(pr.type_str(v.type) for v in (src, dst, tag)))

    def verify_(self):
        ops = [o.value for o in self._operands]
        n = len(ops)
        if n < 4:
            return "expected at least 4 operands"
        if not _ranked(ops[0].type):
            return "expected source to be of memref type"
        i = 1 + ops[0].type.rank
        if n < i + 3:
            return f"expected at least {i + 3} operands"
        if not _all_index(ops[1:i]):
            return "expected source indices to be of index type"
        if not _ranked(ops[i].type):
            return "expected destination to be of memref type"
        j = i + 1 + ops[i].type.rank
        if n < j + 2:
            return f"expected at least {j + 2} operands"
        if not _all_index(ops[i + 1:j]):
            return "expected destination indices to be of index type"
        if ops[j].type is not A.index:
            return "expected num elements to be of index type"
        if not _ranked(ops[j + 1].type):
            return "expected tag to be of memref type"
        k = j + 2 + ops[j + 1].type.rank
        if n < k:
            return f"expected at least {k} operands"
        if not _all_index(ops[j + 2:k]):
            return "expected tag indices to be of index type"
        if n != k and n != k + 2:
            return "incorrect number of operands"
        if n == k + 2 and not _all_index(ops[k:]):
            return "expected stride and num elements per stride to be of type index"
        return None


class DmaWaitOp(Op):
    """`memref.dma_wait %tag[%i], %n : memref<1xi32>`"""

    name = "memref.dma_wait"
    traits = (T.MemoryEffects(T.MemRead, T.MemWrite),)
    tagMemRef = Operand(RankedMemRef)
    tagIndices = VarOperand(C.Index)
    numElements = Operand(C.Index)
    assembly = "$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def verify_(self):
        rank, n = self.tagMemRef.type.rank, len(self.tagIndices)
        if n != rank:
            return (f"expected tagIndices to have the same number of elements as the "
                    f"tagMemRef rank, expected {rank}, but got {n}")
        return None


LocalityHint = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and 0 <= a.value <= 3,
    "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3")


class PrefetchOp(Op):
    """`memref.prefetch %m[%i], read, locality<3>, data : memref<4xf32>`"""

    name = "memref.prefetch"
    memref = Operand(RankedMemRef)
    indices = VarOperand(C.Index)
    isWrite = Prop(C.BoolAttrC)
    localityHint = Prop(LocalityHint)
    isDataCache = Prop(C.BoolAttrC)

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        ref, idx = _parse_indexed(p)
        p.expect(",")
        rw = p.parse_keyword()
        p.expect(",")
        p.parse_keyword("locality")
        p.expect("<")
        hint = p.parse_attribute(A.i32)
        p.expect(">")
        p.expect(",")
        cache = p.parse_keyword()
        p.parse_optional_attr_dict(st)  # as dma_start: printed by upstream, read by Strata
        mt = p.parse_colon_type()
        if rw not in ("read", "write"):
            p.error(p._custom_prefix() + "rw specifier has to be 'read' or 'write'",
                    p.custom_op_offset)
        if cache not in ("data", "instr"):
            p.error(p._custom_prefix() + "cache type has to be 'data' or 'instr'",
                    p.custom_op_offset)
        st.properties.update(isWrite=A.BoolAttr(rw == "write"), localityHint=hint,
                             isDataCache=A.BoolAttr(cache == "data"))
        st.operands = p.resolve_operands([ref] + idx, [mt] + [A.index] * len(idx), start)

    def print(self, pr):
        hint = self._props["localityHint"]
        rw = "write" if self._props["isWrite"].value else "read"
        cache = "data" if self._props["isDataCache"].value else "instr"
        pr.out.append(f"{pr.op_name(self)} {_indexed_text(pr, self.memref, self.indices)}, "
                      f"{rw}, locality<{hint.value}>, {cache}")
        pr.print_optional_attr_dict(dict(self.attributes))
        pr.out.append(" : " + pr.type_str(self.memref.type))

    def verify_(self):
        t = self.memref.type
        if len(self.indices) != t.rank:
            return _indices_error(t, self.indices)
        return None


class DistinctObjectsOp(Op):
    """`%0:2 = memref.distinct_objects %a, %b : memref<?xf32>, memref<?xi32>` (its
    results alias none of each other)"""

    name = "memref.distinct_objects"
    traits = (T.Pure,)
    operands_ = VarOperand(RankedMemRef)  # upstream's `operands`
    results_ = VarResult(RankedMemRef)

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        refs = p.parse_operand_list()
        p.parse_optional_attr_dict(st)
        types = p.parse_colon_type_list()
        st.operands = p.resolve_operands(refs, types, start)
        st.types = list(types)

    def print(self, pr):
        ops = [o.value for o in self._operands]
        pr.out.append(f"{pr.op_name(self)} " + ", ".join(pr.value(v) for v in ops))
        pr.print_optional_attr_dict(dict(self.attributes))
        pr.out.append(" : " + ", ".join(pr.type_str(v.type) for v in ops))

    def verify_(self):
        ops = [o.value.type for o in self._operands]
        if not ops:
            return "expected at least one operand"
        if ops != [r.type for r in self.results]:
            return "operand types and result types must match"
        return None


# ==================================================================== queries

class DimOp(Op):
    """`%dim = memref.dim %m, %c1 : memref<4x?xf32>`"""

    name = "memref.dim"
    traits = (T.NoMemoryEffect,)
    source = Operand(Non0RankedOrUnrankedMemRef)
    index = Operand(C.Index)
    result = Result(C.Index)
    assembly = "attr-dict $source `,` $index `:` type($source)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [A.index]

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "index" else None

    def asm_result_names(self):
        return ["dim"]

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def constant_dim(self):
        """The dim this op reads: its index when a constant within a ranked memref's
        rank, else None."""
        c = self.index.defining_op
        i = c._props.get("value") if c is not None and T.ConstantLike in c.traits else None
        t = self.source.type
        if type(i) is not A.IntegerAttr or type(t) is not A.MemRefType or \
                not 0 <= i.value < len(t.shape):
            return None
        return i.value

    def speculatability(self) -> str:
        return "not" if self.constant_dim() is None else "speculatable"

    def fold(self, operands):
        """DimOp::fold: a static size; the dynamic size operand of an alloc/alloca/view/
        subview; else fold a memref.cast source in place."""
        i = operands[1]
        t = self.source.type
        if type(i) is A.IntegerAttr and type(t) is A.MemRefType:
            if not 0 <= i.value < len(t.shape):
                return None
            v = _size_of(self.source, i.value)
            if v is not None:
                return A.IntegerAttr(v, A.index) if isinstance(v, int) else v
        return _fold_memref_cast(self, 0)


def _size_of(m, k):
    """Dim k of memref `m` where its defining op says it: a static size (an int), the
    size operand of an alloc/alloca/view, the size of a subview (an int or a Value);
    else None."""
    t = m.type
    if t.shape[k] != DYN:
        return t.shape[k]
    src = m.defining_op
    dyn_pos = sum(1 for d in t.shape[:k] if d == DYN)
    if isinstance(src, _AllocLike):
        return src.dynamicSizes[dyn_pos]
    if isinstance(src, ViewOp):
        return src.sizes[dyn_pos]
    if isinstance(src, SubViewOp):
        dropped = src.dropped_dims()
        kept = [j for j in range(len(src.mixed_sizes)) if j not in dropped]
        return src.mixed_sizes[kept[k]]
    return None


def size_key(v):
    """What index value `v` holds, as a key that compares equal for two values holding
    the same size: ("const", n) for a constant or a static dim, ("dim", buffer, i) for
    dim i of a buffer read by memref.dim (traced as DimOp.fold traces it: to the size
    operand of an alloc or view, the size of a subview, through casts), else `v`.

        %d0 = memref.dim %arg0, %c0 : memref<?x3x224x224xf32>
        %p = memref.alloc(%d0) : memref<?x3x226x226xf32>
        %d1 = memref.dim %arg0, %c0 : memref<?x3x224x224xf32>
        %d2 = memref.dim %p, %c0 : memref<?x3x226x226xf32>

    %d0, %d1 and %d2 have one key: the batch of %arg0. A dynamic batch is read once per
    op that needs it (bufferization does not share the reads), so code that asks "is
    this the whole dim?" compares keys, not values ([Note: dynamic sizes compared])."""
    for _ in range(16):
        d = v.defining_op
        if d is None:
            return v
        if T.ConstantLike in d.traits:
            a = d._props.get("value")
            return ("const", a.value) if type(a) is A.IntegerAttr else v
        k = d.constant_dim() if type(d) is DimOp else None
        if k is None:
            return v
        src = d.source      # through casts between ranked memrefs (of one rank)
        while isinstance(src.defining_op, CastOp) and \
                type(src.defining_op.source.type) is A.MemRefType and \
                _size_of(src, k) is None:
            src = src.defining_op.source
        n = _size_of(src, k)
        if n is None:
            return ("dim", src, k)
        if isinstance(n, int):
            return ("const", n)
        v = n
    return v


def same_size(a, b) -> bool:
    """Whether index values `a` and `b` hold the same size (see size_key): the same
    value, equal constants, or reads of one buffer's dim."""
    return a is b or size_key(a) == size_key(b)


# [Note: dynamic sizes compared]
# The CPU passes after bufferization ask of a dynamic size whether it is the whole of a
# buffer's dim (a fill kept to the border of a padded image, a view that covers its
# buffer). Bufferization reads a dynamic batch with a memref.dim per op that needs it,
# and no CSE runs between it and those passes: comparing the Values themselves found
# the batch of a padded image and the batch of its interior different, and a model
# compiled with a dynamic batch filled its padded images whole, where the same model
# with a static batch filled only their borders. size_key / same_size compare what the
# values hold; a pass that needs more (products of sizes: the attention match) builds
# on its own keys.


class RankOp(Op):
    """`%0 = memref.rank %m : memref<*xf32>`"""

    name = "memref.rank"
    traits = (T.Pure,)
    memref = Operand(AnyRankedOrUnrankedMemRef)
    result = Result(C.Index)
    assembly = "$memref attr-dict `:` type($memref)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [A.index]

    def fold(self, operands):
        t = self.memref.type
        return A.IntegerAttr(len(t.shape), A.index) if type(t) is A.MemRefType else None


class ExtractStridedMetadataOp(Op):
    """`%base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m :
    memref<4x?xf32> -> memref<f32>, index, index, index, index, index`"""

    name = "memref.extract_strided_metadata"
    traits = (T.Pure,)
    source = Operand(StridedMemRef)
    base_buffer = Result(StridedMemRefRank0)
    offset = Result(C.Index)
    sizes = VarResult(C.Index)
    strides = VarResult(C.Index)
    assembly = "$source `:` type($source) `->` type(results) attr-dict"

    def _segment(self, index, is_result):
        if not is_result:
            return super()._segment(index, is_result)
        n = (len(self.results) - 2) // 2
        return ((0, 1), (1, 1), (2, n), (2 + n, n))[index]

    @classmethod
    def infer_result_types(cls, operands, props):
        t = operands[0].type
        n = len(t.shape)
        return [A.MemRefType((), t.element_type, None, t.memory_space)] + [A.index] * (1 + 2 * n)

    def asm_result_names(self):
        n = (len(self.results) - 2) // 2
        names = ["base_buffer", "offset"]
        if n:
            names += ["sizes"] + [None] * (n - 1) + ["strides"] + [None] * (n - 1)
        return names

    def verify_(self):
        want = self.infer_result_types([self.source], {})
        got = [r.type for r in self.results]
        if got != want:
            return _inferred_mismatch(want, got)
        return None

    def fold(self, operands):
        """ExtractStridedMetadataOp::fold: the uses of an offset, size or stride that the
        source type fixes read an arith.constant instead (made right before the op, one
        per used result); folds in place when any did."""
        st = self.source.type
        strides, offset = strides_and_offset(st)
        fixed = [offset, *st.shape, *strides]
        changed = False
        for r, v in zip(self.results[1:], fixed):
            if v == DYN or r.first_use is None:
                continue
            from ..ir.builder import Builder
            from .arith import ConstantOp
            b = Builder()
            b.set_insertion_point_before(self)
            c = b.create(ConstantOp, value=A.IntegerAttr(v, A.index),
                         result_types=[A.index], loc=self.loc).results[0]
            for u in list(r.uses):
                u.set(c)
            changed = True
        return list(self.results) if changed else None


def _inferred_mismatch(want, got) -> str:
    """InferTypeOpInterface's verifier message."""
    return ("inferred type(s) " + ", ".join(map(_q, want)) + " are incompatible with "
            "return type(s) of operation " + ", ".join(map(_q, got)))


class ExtractAlignedPointerAsIndexOp(Op):
    """`%intptr = memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index`"""

    name = "memref.extract_aligned_pointer_as_index"
    traits = (T.Pure,)
    source = Operand(AnyRankedOrUnrankedMemRef)
    aligned_pointer = Result(C.Index)
    assembly = "$source `:` type($source) `->` type(results) attr-dict"

    def asm_result_names(self):
        return ["intptr"]


class AssumeAlignmentOp(Op):
    """`%assume_align = memref.assume_alignment %m, 64 : memref<4xf32>`"""

    name = "memref.assume_alignment"
    traits = (T.Pure, T.SameOperandsAndResultType)
    memref = Operand(RankedMemRef)
    alignment = Prop(PositiveI32, fmt=BareInt(A.i32))
    result = Result(RankedMemRef)
    assembly = "$memref `,` $alignment attr-dict `:` type($memref)"

    def asm_result_names(self):
        return ["assume_align"]

    def verify_(self):
        a = self.properties["alignment"].value
        if a & (a - 1):
            return "alignment must be power of 2"
        return None


# ==================================================================== casts

class _Cast(Op):
    """A CastOpInterface op from one memref type to another; subclasses decide which
    casts are compatible."""

    traits = (T.Pure, T.CastOpInterface)
    source = Operand(AnyRankedOrUnrankedMemRef)
    dest = Result(AnyRankedOrUnrankedMemRef)
    assembly = "$source attr-dict `:` type($source) `to` type($dest)"
    result_name = ""

    def asm_result_names(self):
        return [self.result_name]


class CastOp(_Cast):
    """`%cast = memref.cast %m : memref<4xf32> to memref<?xf32>`"""

    name = "memref.cast"
    result_name = "cast"

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        if len(ins) != 1 or len(outs) != 1:
            return False
        a, b = ins[0], outs[0]
        if _ranked(a) and _ranked(b):
            if a.element_type is not b.element_type:
                return False
            if a.layout is not b.layout:
                sa, sb = strides_and_offset(a), strides_and_offset(b)
                if sa is None or sb is None or len(sa[0]) != len(sb[0]):
                    return False
                ok = lambda x, y: x == DYN or y == DYN or x == y  # noqa: E731
                if not ok(sa[1], sb[1]) or not all(map(ok, sa[0], sb[0])):
                    return False
            if a.memory_space is not b.memory_space or a.rank != b.rank:
                return False
            return all(x == y or x == DYN or y == DYN for x, y in zip(a.shape, b.shape))
        if not _any_memref(a) or not _any_memref(b):
            return False
        if type(a) is A.UnrankedMemRefType and type(b) is A.UnrankedMemRefType:
            return a is b  # unranked to unranked: only a cast to the same type
        return a.element_type is b.element_type and a.memory_space is b.memory_space

    def fold(self, operands):
        """CastOp::fold: cast(cast(x)) reads x in place (foldMemRefCast); then, as
        CastOpInterface, a cast to the operand's own type is the operand."""
        folded = _fold_memref_cast(self, 0)
        if self.source.type is self.results[0].type:
            return self.source
        return folded


class MemorySpaceCastOp(_Cast):
    """`%memspacecast = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>`"""

    name = "memref.memory_space_cast"
    result_name = "memspacecast"

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        if len(ins) != 1 or len(outs) != 1:
            return False
        a, b = ins[0], outs[0]
        if _ranked(a) and _ranked(b):
            return (a.element_type is b.element_type and a.layout is b.layout and
                    a.shape == b.shape)
        if type(a) is A.UnrankedMemRefType and type(b) is A.UnrankedMemRefType:
            return a.element_type is b.element_type
        return False

    def fold(self, operands):
        """MemorySpaceCastOp::fold: a cast of a cast casts the first source; else, as a
        CastOpInterface op, a cast to the operand's own type is the operand."""
        src = self.source.defining_op
        if type(src) is MemorySpaceCastOp:
            self._operands[0].set(src.source)
            return list(self.results)
        if self.source.type is self.results[0].type:
            return self.source
        return None


# ==================================================================== copy

class CopyOp(Op):
    """`memref.copy %a, %b : memref<4xf32> to memref<4xf32>`"""

    name = "memref.copy"
    traits = (T.SameOperandsElementType, T.SameOperandsShape,
              T.MemoryEffects(T.MemRead, T.MemWrite))
    source = Operand(AnyRankedOrUnrankedMemRef)
    target = Operand(AnyRankedOrUnrankedMemRef)
    assembly = "$source `,` $target attr-dict `:` type($source) `to` type($target)"

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def fold(self, operands):
        # CopyOp::fold: fold memref.cast operands in place (FoldMemRefCast).
        folded = False
        for i in range(2):
            if _fold_memref_cast(self, i, results=False) is not None:
                folded = True
        return [] if folded else None


# ==================================================================== globals

class GlobalOp(Op):
    """`memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>`"""

    name = "memref.global"
    traits = (T.Symbol,)
    sym_name = Prop(C.SymbolNameAttr)
    sym_visibility = OptProp(C.StrAttr)
    type = Prop(MemRefTypeAttr)
    initial_value = OptProp()
    constant = OptProp(C.UnitAttrC)
    alignment = OptProp(AlignmentI64)

    _FORMAT_PROPS = ("sym_name", "sym_visibility", "type", "initial_value", "constant",
                     "alignment")

    @classmethod
    def new(cls, name, type, initial_value=None, constant=False, visibility="private",
            alignment=None, loc=None):
        """A global; `initial_value` is an elements attribute, A.UnitAttr() for
        `uninitialized`, or None for an external declaration."""
        return cls.build(loc=loc, sym_name=A.StringAttr(name), type=A.TypeAttr(type),
                         initial_value=initial_value,
                         constant=A.UnitAttr() if constant else None,
                         sym_visibility=A.StringAttr(visibility) if visibility else None,
                         alignment=A.IntegerAttr(alignment, A.i64) if alignment else None)

    @property
    def global_type(self):
        return self.properties["type"].value

    @property
    def is_external(self) -> bool:
        return self.properties.get("initial_value") is None

    @property
    def is_uninitialized(self) -> bool:
        return type(self.properties.get("initial_value")) is A.UnitAttr

    @property
    def is_constant(self) -> bool:
        return "constant" in self.properties

    @staticmethod
    def parse(p, st):
        if p.kind == STRING:
            st.properties["sym_visibility"] = A.StringAttr(p.parse_string())
        if p.parse_optional_keyword("constant"):
            st.properties["constant"] = A.UnitAttr()
        st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        p.expect(":")
        start = p.tok_start
        t = p.parse_type()
        if type(t) is not A.MemRefType or not t.has_static_shape:
            p.error(custom_op_prefix(p) + "type should be static shaped memref, but got "
                    f"'{t}'", start)
        st.properties["type"] = A.TypeAttr(t)
        if p.consume_if("="):
            if p.parse_optional_keyword("uninitialized"):
                st.properties["initial_value"] = A.UnitAttr()
            else:
                tt = A.RankedTensorType(t.shape, t.element_type)
                v_start = p.tok_start
                v = p.parse_attribute(type=tt)
                if type(v).__name__ not in _ELEMENTS_ATTRS:
                    p.error(custom_op_prefix(p) + "initial value should be a unit or elements "
                            "attribute", v_start)
                st.properties["initial_value"] = v
        if p.parse_optional_keyword("alignment"):
            p.expect("=")
            st.properties["alignment"] = A.IntegerAttr(p.parse_integer(), A.i64)
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        props = self.properties
        s = pr.op_name(self)
        vis = props.get("sym_visibility")
        if vis is not None:
            s += f' "{A.escape_string(vis.value)}"'
        if "constant" in props:
            s += " constant"
        s += " " + A.print_symbol_name(props["sym_name"].value)
        s += " : " + pr.type_str(props["type"].value)
        iv = props.get("initial_value")
        if iv is not None:
            s += " = "
            if type(iv) is A.UnitAttr:
                s += "uninitialized"
            else:
                s += _attr_without_type(pr, iv)
        al = props.get("alignment")
        if al is not None:
            s += f" alignment = {al.value}"
        pr.out.append(s)
        extra = {k: a for k, a in props.items() if k not in self._FORMAT_PROPS}
        extra.update(self.attributes)
        pr.print_optional_attr_dict(extra)

    def verify_(self):
        t = self.global_type
        if not t.has_static_shape:
            return f"type should be static shaped memref, but got {_q(t)}"
        iv = self.properties.get("initial_value")
        if iv is not None and type(iv) is not A.UnitAttr:
            it = getattr(iv, "type", None)
            if not isinstance(it, (A.RankedTensorType, A.VectorType)) or \
                    not hasattr(iv, "type") or type(iv).__name__ not in _ELEMENTS_ATTRS:
                return ("initial value should be a unit or elements attribute, but got "
                        + str(iv))
            if it.element_type is not t.element_type:
                return (f"initial value element expected to be of type "
                        f"{_q(t.element_type)}, but was of type {_q(it.element_type)}")
            if tuple(it.shape) != tuple(t.shape):
                return (f"initial value shape expected to be {_dims_text(t.shape)} but was "
                        f"{_dims_text(it.shape)}")
        return None


_ELEMENTS_ATTRS = frozenset({"DenseElementsAttr", "DenseIntOrFPElementsAttr",
                             "DenseResourceElementsAttr", "DenseStringElementsAttr",
                             "SparseElementsAttr"})


def _attr_without_type(pr, a) -> str:
    """printAttributeWithoutType: an elements attribute without its ` : type`."""
    s = pr.attr_str(a)
    suffix = " : " + pr.type_str(a.type)
    return s[:-len(suffix)] if s.endswith(suffix) else s


class GetGlobalOp(Op):
    """`%0 = memref.get_global @c : memref<2xf32>`"""

    name = "memref.get_global"
    traits = (T.Pure,)
    name_ = Prop(C.FlatSymbolRefAttr, fmt=SymbolRef())
    result = Result(StaticShapeMemRef)
    assembly = "$name `:` type($result) attr-dict"

    def referenced_global(self):
        g = lookup_nearest_symbol_from(self, self.properties["name"])
        return g if isinstance(g, GlobalOp) else None

    def verify_symbol_uses(self):
        ref = self.properties["name"]
        g = self.referenced_global()
        if g is None:
            return f"'{ref.root}' does not reference a valid global memref"
        rt = self.results[0].type
        if g.global_type is not rt:
            return (f"result type {_q(rt)} does not match type {_q(g.global_type)} of the "
                    f"global memref @{ref.root}")
        return None


# `name` is the property's upstream name but also the op-name class attribute: the
# declaration above is `name_`; rename it to `name` in the property table.
def _rename_prop(cls, old, new):
    d = cls.__dict__[old]
    d.name = new
    cls._prop_names = frozenset(p.name for p in cls._prop_defs)


_rename_prop(GetGlobalOp, "name_", "name")


# ==================================================================== views

class _MemRefOffsetSizeStride(_OffsetSizeStride):
    """memref ops with `[offsets] [sizes] [strides]`."""

    def dropped_dims(self):
        return set()


class SubViewOp(_MemRefOffsetSizeStride):
    """`%subview = memref.subview %m[0, %i] [2, 2] [1, 1] : memref<4x?xf32> to
    memref<2x2xf32, strided<[?, 1], offset: ?>>`"""

    name = "memref.subview"
    traits = (T.AttrSizedOperandSegments, T.Pure)
    source = Operand(RankedMemRef)
    offsets = VarOperand(C.Index)
    sizes = VarOperand(C.Index)
    strides = VarOperand(C.Index)
    result = Result(RankedMemRef)
    assembly = ("$source `` custom<DynamicIndexList>($offsets, $static_offsets) "
                "custom<DynamicIndexList>($sizes, $static_sizes) "
                "custom<DynamicIndexList>($strides, $static_strides) "
                "attr-dict `:` type($source) `to` type($result)")

    def _max_rank(self):
        return self.source.type.rank

    def asm_result_names(self):
        return ["subview"]

    @classmethod
    def infer_result_types(cls, operands, props):
        return [subview_type(operands[0].type, props["static_offsets"].value,
                             props["static_sizes"].value, props["static_strides"].value)]

    def inferred_type(self):
        return subview_type(self.source.type, _static(self, "static_offsets"),
                            _static(self, "static_sizes"), _static(self, "static_strides"))

    def dropped_dims(self):
        """The source dims the result drops (rank reduction)."""
        rt = self.results[0].type
        sizes = _static(self, "static_sizes")
        if len(sizes) == rt.rank:
            return set()
        return set(_memref_rank_reduction_mask(self.inferred_type(), rt, sizes) or ())

    def verify_(self):
        base, rt = self.source.type, self.results[0].type
        if base.memory_space is not rt.memory_space:
            _bare_error(self, f"different memory spaces specified for base memref type "
                              f"{_q(base)} and subview memref type {_q(rt)}")
        if not is_strided(base):
            _bare_error(self, f"base type {_q(base)} is not strided")
        self._verify_offset_size_stride()
        expected = self.inferred_type()
        if rt.rank > expected.rank:
            _bare_error(self, "expected result rank to be smaller or equal to the source "
                              f"rank, but got {_q(rt)}")
        if _rank_reduction_mask(expected.shape, list(rt.shape)) is None:
            _bare_error(self, f"expected result type to be {_q(expected)} or a rank-reduced "
                              f"version. (mismatch of result sizes), but got {_q(rt)}")
        if expected.element_type is not rt.element_type:
            _bare_error(self, f"expected result element type to be "
                              f"{_q(expected.element_type)}, but got {_q(rt)}")
        layout_error = (f"expected result type to be {_q(expected)} or a rank-reduced "
                        f"version. (mismatch of result layout), but got {_q(rt)}")
        rso = strides_and_offset(rt)
        eso = strides_and_offset(expected)
        if rso is None or not _fits(eso[1], rso[1]):
            _bare_error(self, layout_error)
        unused = _memref_rank_reduction_mask(expected, rt, _static(self, "static_sizes"))
        if unused is None:
            _bare_error(self, layout_error)
        kept = [s for i, s in enumerate(eso[0]) if i not in unused]
        if len(kept) != len(rso[0]) or not all(map(_fits, kept, rso[0])):
            _bare_error(self, layout_error)
        err = _in_bounds_error(base.shape, _static(self, "static_offsets"),
                               _static(self, "static_sizes"), _static(self, "static_strides"))
        if err:
            _bare_error(self, err)
        return None

    def fold(self, operands):
        """SubViewOp::fold: a subview of a static type equal to its source's, or a no-op
        subview (zero offsets, unit strides, same sizes) of a subview."""
        st, rt = self.source.type, self.results[0].type
        lay = rt.layout
        static_layout = type(lay) is not A.StridedLayoutAttr or (
            lay.offset != DYN and DYN not in lay.strides)
        if st is rt and rt.has_static_shape and static_layout:
            return self.source
        src = self.source.defining_op
        if type(src) is SubViewOp and st is rt and \
                all(v == 0 for v in self.mixed_offsets) and \
                all(v == 1 for v in self.mixed_strides) and \
                self.mixed_sizes == src.mixed_sizes:
            return self.source
        return None

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)



def _fits(expected, actual) -> bool:
    """An inferred static offset or stride may be declared dynamic, not the reverse."""
    return actual == DYN or expected == actual


def _memref_rank_reduction_mask(original, reduced, sizes):
    """computeMemRefRankReductionMask: the dims of `original` that `reduced` drops.
    Unit sizes decide when they are just enough; otherwise the strides do, when either
    type has a static stride other than the innermost one (a dropped dim takes its
    stride with it), and else the positions (each result size takes the leftmost
    remaining source dim of that size). None when no choice fits."""
    if original.rank == reduced.rank:
        return set()
    unused = [i for i, s in enumerate(sizes) if s == 1]
    if len(unused) + reduced.rank == original.rank:
        return set(unused)
    oso, rso = strides_and_offset(original), strides_and_offset(reduced)
    if oso is None or rso is None:
        return None
    static_outer = lambda st: len(st) > 1 and any(s != DYN for s in st[:-1])  # noqa: E731
    if static_outer(oso[0]) or static_outer(rso[0]):
        dropped = _rank_reduction_by_strides(oso[0], rso[0], unused)
        if dropped is not None and len(dropped) == original.rank - reduced.rank:
            return dropped
    return _rank_reduction_by_position(original.rank, reduced.shape, sizes)


def _rank_reduction_by_strides(ostrides, rstrides, unused):
    """computeMemRefRankReductionMaskByStrides: a unit dim whose stride appears more
    often in the original than in the result is dropped."""
    ocount, rcount = {}, {}
    for s in ostrides:
        ocount[s] = ocount.get(s, 0) + 1
    for s in rstrides:
        rcount[s] = rcount.get(s, 0) + 1
    dropped = set()
    for d in unused:
        s = ostrides[d]
        if ocount.get(s, 0) > rcount.get(s, 0):
            dropped.add(d)
            ocount[s] -= 1
        elif ocount.get(s, 0) < rcount.get(s, 0):
            return None
    return dropped


def _rank_reduction_by_position(rank, result_shape, sizes):
    """computeMemRefRankReductionMaskByPosition: each result size in order takes the
    leftmost unmatched source dim of the same size; the others are dropped."""
    used, j = set(), 0
    for r in result_shape:
        while j < rank and sizes[j] != r:
            j += 1
        if j == rank:
            return None
        used.add(j)
        j += 1
    return {i for i in range(rank) if i not in used}


class ReinterpretCastOp(_MemRefOffsetSizeStride):
    """`%reinterpret_cast = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4],
    strides: [4, 1] : memref<?xf32> to memref<?x4xf32>`"""

    name = "memref.reinterpret_cast"
    traits = (T.AttrSizedOperandSegments, T.Pure)
    source = Operand(AnyRankedOrUnrankedMemRef)
    offsets = VarOperand(C.Index)
    sizes = VarOperand(C.Index)
    strides = VarOperand(C.Index)
    result = Result(StridedMemRef)
    assembly = ("$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, "
                "$static_offsets) `` `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, "
                "$static_sizes) `` `,` `strides` `` `:` custom<DynamicIndexList>($strides, "
                "$static_strides) attr-dict `:` type($source) `to` type($result)")

    def _max_rank(self):
        return self.results[0].type.rank

    def asm_result_names(self):
        return ["reinterpret_cast"]

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def fold(self, operands):
        """ReinterpretCastOp::fold: only the base buffer of the source matters, so a
        source that is itself a reinterpret_cast, a cast or a subview at offset 0 is read
        through (in place); a cast to the source's own static type at offset 0 is the
        source."""
        src = self.source
        prev = src.defining_op
        inner = None
        if type(prev) in (ReinterpretCastOp, CastOp):
            inner = prev.source
        elif type(prev) is SubViewOp and all(
                _int_value(v) == 0 for v in prev.mixed_offsets):
            inner = prev.source
        if inner is not None:
            self._operands[0].set(inner)
            return list(self.results)
        rt = self.results[0].type
        if type(rt) is A.MemRefType and rt.has_static_shape and src.type is rt and \
                _static(self, "static_offsets")[0] == 0:
            return src
        return None

    def _verify_offset_size_stride(self):
        """verifyOffsetSizeAndStrideOp with getArrayAttrMaxRanks = {1, rank, rank}, in
        the order of the shared check (tensor._OffsetSizeStride)."""
        rank = self._max_rank()
        lists = [("offset", "offsets", 1), ("size", "sizes", rank), ("stride", "strides", rank)]
        static = {w: _static(self, "static_" + w) for _, w, _ in lists}
        for _, what, _ in lists[1:] + lists[:1]:
            vals, n = getattr(self, what), count_dynamic(static[what])
            if len(vals) != n:
                _bare_error(self, f"expected the number of '{what}' to match the number of "
                                  f"dynamic entries in 'static_{what}' ({len(vals)} vs {n})")
        offs, sizes, strides = static["offsets"], static["sizes"], static["strides"]
        if len(offs) != 1 and len(offs) != len(sizes):
            _bare_error(self, f"expected mixed offsets rank to match mixed sizes rank "
                              f"({len(offs)} vs {len(sizes)}) so the rank of the result "
                              "type is well-formed.")
        if len(sizes) != len(strides):
            _bare_error(self, f"expected mixed sizes rank to match mixed strides rank "
                              f"({len(sizes)} vs {len(strides)}) so the rank of the result "
                              "type is well-formed.")
        for what, plural, n in lists:
            if len(static[plural]) != n:
                _bare_error(self, f"expected {n} {what} values, got {len(static[plural])}")
        for what, vals in (("offsets", offs), ("sizes", sizes)):
            for v in vals:
                if v < 0 and v != DYN:
                    _bare_error(self, f"expected {what} to be non-negative, but got {v}")

    def verify_(self):
        """ReinterpretCastOp::verify: memory spaces, element types, then each static
        offset, size and stride must be the result type's own (a dynamic one in the type
        where the operand is static is a mismatch too: `offset = 1 instead of dynamic`)."""
        st, rt = self.source.type, self.results[0].type
        if st.memory_space is not rt.memory_space:
            _bare_error(self, f"different memory spaces specified for source type {_q(st)} "
                              f"and result memref type {_q(rt)}")
        err = _element_type_error(st, rt)
        if err:
            return err
        self._verify_offset_size_stride()
        for i, (r, e) in enumerate(zip(rt.shape, _static(self, "static_sizes"))):
            if r != e:
                _bare_error(self, f"expected result type with size = {_dyn_text(e)} instead "
                                  f"of {_dyn_text(r)} in dim = {i}")
        so = strides_and_offset(rt)
        if so is None:
            _bare_error(self, f"expected result type to have strided layout but found {_q(rt)}")
        off = _static(self, "static_offsets")[0]
        if so[1] != off:
            _bare_error(self, f"expected result type with offset = {_dyn_text(off)} instead "
                              f"of {_dyn_text(so[1])}")
        for i, (r, e) in enumerate(zip(so[0], _static(self, "static_strides"))):
            if r != e:
                _bare_error(self, f"expected result type with stride = {_dyn_text(e)} instead "
                                  f"of {_dyn_text(r)} in dim = {i}")
        return None


def _int_value(v):
    """An OpFoldResult's constant integer (an int, or a constant index value), or None."""
    if isinstance(v, int):
        return v
    from ..rewrite.folding import constant_value
    c = constant_value(v)
    return c.value if type(c) is A.IntegerAttr else None


def _element_type_error(st, rt):
    """The element type check of view-like ops (source and result alike)."""
    if st.element_type is not rt.element_type:
        return (f"source element type ({_q(st.element_type)}) does not match result element "
                f"type ({_q(rt.element_type)})")
    return None


def _dyn_text(v) -> str:
    return "dynamic" if v == DYN else str(v)


class ViewOp(Op):
    """`%view = memref.view %buf[%shift][%n] : memref<?xi8> to memref<?x4xf32>`"""

    name = "memref.view"
    traits = (T.Pure,)
    source = Operand(I8MemRef1D)
    byte_shift = Operand(C.Index)
    sizes = VarOperand(C.Index)
    result = Result(RankedMemRef)
    assembly = ("$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) "
                "`to` type(results)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def asm_result_names(self):
        return ["view"]

    def verify_(self):
        bt, vt = self.source.type, self.results[0].type
        if not is_identity_layout(bt):
            _bare_error(self, f"unsupported map for base memref type {_q(bt)}")
        if not is_identity_layout(vt):
            _bare_error(self, f"unsupported map for result memref type {_q(vt)}")
        if bt.memory_space is not vt.memory_space:
            _bare_error(self, f"different memory spaces specified for base memref type "
                              f"{_q(bt)} and view memref type {_q(vt)}")
        if len(self.sizes) != vt.num_dynamic_dims:
            return _dynamic_sizes_error(vt, self.sizes)
        return None


def _affine_map_end(text, pos) -> int:
    """The offset after a bare affine map `(d0, d1)[s0] -> (d1, d0)` starting at `pos`:
    after the parenthesized results that follow `->` (the end of the text if none)."""
    arrow = text.find("->", pos)
    if arrow < 0:
        return len(text)
    i = text.find("(", arrow)
    if i < 0:
        return len(text)
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


class TransposeOp(Op):
    """`%transpose = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x?xf32> to
    memref<?x4xf32, strided<[1, ?]>>`"""

    name = "memref.transpose"
    traits = (T.Pure,)
    in_ = Operand(StridedMemRef)
    permutation = Prop(AffineMapAttrC)
    result = Result(StridedMemRef)

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        ref = p.parse_operand()
        begin = p.tok_start
        end = _affine_map_end(p.text, begin)
        try:
            m = parse_affine_map_body(p.text[begin:end])
        except AffineParseError as e:
            p.error(str(e.args[0]), begin + (e.offset or 0))
        p.reset_to(end)
        st.properties["permutation"] = AffineMapAttr(m)
        p.parse_optional_attr_dict(st)
        p.expect(":")
        src = p.parse_type()
        p.parse_keyword("to")
        dst = p.parse_type()
        st.operands = p.resolve_operands([ref], [src], start)
        st.types = [dst]

    def print(self, pr):
        m = self.properties["permutation"].value
        pr.out.append(f"{pr.op_name(self)} {pr.value(self.in_)} {m}")
        extra = {k: a for k, a in self.properties.items() if k != "permutation"}
        extra.update(self.attributes)
        pr.print_optional_attr_dict(extra)
        pr.out.append(f" : {pr.type_str(self.in_.type)} to "
                      f"{pr.type_str(self.results[0].type)}")

    def asm_result_names(self):
        return ["transpose"]

    def fold(self, operands):
        """TransposeOp::fold: an identity permutation to the operand's own type is the
        operand; a transpose of a transpose reads the inner operand with the composed
        permutation (in place)."""
        m = self.properties["permutation"].value
        if m.is_identity() and self.results[0].type is self.in_.type:
            return self.in_
        inner = self.in_.defining_op
        if type(inner) is TransposeOp:
            composed = m.compose(inner.properties["permutation"].value)
            self._operands[0].set(inner.in_)
            self._props = dict(self._props)
            self._props["permutation"] = AffineMapAttr(composed)
            return list(self.results)
        return None

    def verify_(self):
        m = self.properties["permutation"].value
        if not m.is_permutation():
            return "expected a permutation map"
        src, rt = self.in_.type, self.results[0].type
        if m.num_dims != src.rank:
            return "expected a permutation map of same rank as the input"
        want = transposed_type(src, m)
        if not same_canonical_layout(rt, want):
            canon = canonical_strided_layout(want)
            return (f"result type {_q(rt)} is not equivalent to the canonical transposed "
                    f"input type {_q(canon)}")
        return None


# ==================================================================== reshapes

def _reshape_shapes_error(collapsed, expanded, groups):
    """verifyCollapsedShape (several dynamic dims per group allowed, as memref's)."""
    if not collapsed:
        if any(d != 1 for d in expanded):
            return "rank 0 memrefs can only be extended/collapsed with/from ones"
        return None
    if len(collapsed) != len(groups):
        return (f"invalid number of reassociation groups: found {len(groups)}, expected "
                f"{len(collapsed)}")
    nxt = 0
    for k, g in enumerate(groups):
        dynamic = False
        for d in g:
            if d != nxt:
                return "reassociation indices must be contiguous"
            nxt += 1
            if d >= len(expanded):
                return f"reassociation index {d} is out of bounds"
            dynamic = dynamic or expanded[d] == DYN
        if (collapsed[k] == DYN) != dynamic:
            return (f"collapsed dim ({k}) must be dynamic if and only if reassociation group "
                    "is dynamic")
        if not dynamic:
            n = 1
            for d in g:
                n *= expanded[d]
            if n != collapsed[k]:
                return (f"collapsed dim size ({collapsed[k]}) must equal reassociation group "
                        f"size ({n})")
    if nxt != len(expanded):
        return (f"expanded rank ({len(expanded)}) inconsistent with number of reassociation "
                f"indices ({nxt})")
    return None


class _ReassociativeReshape(Op):
    """expand_shape and collapse_shape: `reassociation` groups the expanded dims."""

    traits = (T.Pure,)
    src = Operand(StridedMemRef)
    reassociation = Prop(IndexListArrayAttr)

    def asm_result_names(self):
        return [self.name.split(".")[1]]

    @property
    def reassociation_indices(self):
        return reassociation_indices(self.properties["reassociation"])

    @classmethod
    def canonicalization_patterns(cls):
        from .memref_canonicalize import patterns_for
        return patterns_for(cls.name)

    def fold(self, operands):
        """foldReshapeOp: a reshape to its own type is its source; one that undoes the
        inverse reshape is that reshape's source, when the types match and either the
        type has at most one dynamic dim, or the pair expands then collapses the same
        groups, or no group has two dynamic dims."""
        src, rt = self.src, self.results[0].type
        if src.type is rt:
            return src
        inner = src.defining_op
        inverse = CollapseShapeOp if type(self) is ExpandShapeOp else ExpandShapeOp
        if type(inner) is not inverse or inner.src.type is not rt:
            return None
        if sum(d == DYN for d in rt.shape) < 2:
            return inner.src
        groups = self.reassociation_indices
        if groups != inner.reassociation_indices:
            return None
        if rt.rank < inner.results[0].type.rank:
            return inner.src
        if all(sum(rt.shape[i] == DYN for i in g) < 2 for g in groups):
            return inner.src
        return None

    def _shapes_error(self, expanded, collapsed, verb, cmp):
        """The rank order (`cmp` is how the source rank compares, when wrong) and
        verifyCollapsedShape."""
        st, rt = self.src.type, self.results[0].type
        if (st.rank > rt.rank) if cmp == ">" else (st.rank < rt.rank):
            return (f"has source rank {st.rank} and result rank {rt.rank}. This is not "
                    f"{verb} ({st.rank} {cmp} {rt.rank}).")
        return _reshape_shapes_error(collapsed.shape, expanded.shape,
                                     self.reassociation_indices)


class ExpandShapeOp(DynamicIndexListDirective, _ReassociativeReshape):
    """`%expand_shape = memref.expand_shape %m [[0, 1]] output_shape [2, 2] :
    memref<4xf32> into memref<2x2xf32>`"""

    name = "memref.expand_shape"
    src = Operand(StridedMemRef)
    reassociation = Prop(IndexListArrayAttr)
    output_shape = VarOperand(C.Index)
    static_output_shape = Prop(C.DenseI64Array)
    result = Result(StridedMemRef)
    assembly = ("$src $reassociation `output_shape` "
                "custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:` "
                "type($src) `into` type($result)")

    @property
    def mixed_output_shape(self):
        return mixed_values(_static(self, "static_output_shape"), self.output_shape)

    def verify_(self):
        st, rt = self.src.type, self.results[0].type
        err = self._shapes_error(rt, st, "an expansion", ">")
        if err:
            return err
        want = expanded_type(st, rt.shape, self.reassociation_indices)
        if want is None:
            return "invalid source layout map"
        if want is not rt:
            return f"expected expanded type to be {_q(want)} but found {_q(rt)}"
        static = _static(self, "static_output_shape")
        if len(static) != rt.rank:
            return (f"expected number of static shape bounds to be equal to the output rank "
                    f"({rt.rank}) but found {len(static)} inputs instead")
        n = count_dynamic(static)
        if len(self.output_shape) != n:
            return (f"mismatch in dynamic dims in output_shape and static_output_shape: "
                    f"static_output_shape has {n} dynamic dims while output_shape has "
                    f"{len(self.output_shape)} values")
        if len(self.output_shape) != rt.num_dynamic_dims:
            return _dynamic_sizes_error(rt, self.output_shape)
        for i, (d, s) in enumerate(zip(rt.shape, static)):
            if d != DYN and d != s:
                return f"invalid output shape provided at pos {i}"
        return None


class CollapseShapeOp(_ReassociativeReshape):
    """`%collapse_shape = memref.collapse_shape %m [[0, 1]] : memref<2x2xf32> into
    memref<4xf32>`"""

    name = "memref.collapse_shape"
    result = Result(StridedMemRef)
    assembly = "$src $reassociation attr-dict `:` type($src) `into` type($result)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [collapsed_type(operands[0].type, reassociation_indices(props["reassociation"]))]

    def verify_(self):
        st, rt = self.src.type, self.results[0].type
        err = self._shapes_error(st, rt, "a collapse", "<")
        if err:
            return err
        if is_identity_layout(st):
            want = A.MemRefType(rt.shape, st.element_type, None, st.memory_space)
        else:
            lay = collapsed_layout(st, self.reassociation_indices)
            if lay is None:
                return "invalid source layout map or collapsing non-contiguous dims"
            want = A.MemRefType(rt.shape, st.element_type, lay, st.memory_space)
        if want is not rt:
            return f"expected collapsed type to be {_q(want)} but found {_q(rt)}"
        return None


class ReshapeOp(Op):
    """`%reshape = memref.reshape %m(%shape) : (memref<4xf32>, memref<2xindex>) ->
    memref<2x2xf32>`"""

    name = "memref.reshape"
    traits = (T.Pure,)
    source = Operand(AnyRankedOrUnrankedMemRef)
    shape = Operand(ShapeMemRef)
    result = Result(AnyRankedOrUnrankedMemRef)
    assembly = "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"

    def asm_result_names(self):
        return ["reshape"]

    def verify_(self):
        st, rt = self.source.type, self.results[0].type
        if st.element_type is not rt.element_type:
            return ("element types of source and destination memref types should be the "
                    "same")
        if _ranked(st) and not is_identity_layout(st):
            return "source memref type should have identity affine map"
        n = self.shape.type.shape[0]
        if _ranked(rt):
            if not is_identity_layout(rt):
                return "result memref type should have identity affine map"
            if n == DYN:
                return ("cannot use shape operand with dynamic length to reshape to "
                        "statically-ranked memref type")
            if n != rt.rank:
                return "length of shape operand differs from the result's memref rank"
        return None


_OPS = [AllocOp, AllocaOp, AllocaScopeOp, AllocaScopeReturnOp, AssumeAlignmentOp,
        AtomicRMWOp, AtomicYieldOp, CastOp, CollapseShapeOp, CopyOp, DeallocOp, DimOp,
        DistinctObjectsOp, DmaStartOp, DmaWaitOp, PrefetchOp,
        ExpandShapeOp, ExtractAlignedPointerAsIndexOp, ExtractStridedMetadataOp,
        GenericAtomicRMWOp, GetGlobalOp, GlobalOp, LoadOp, MemorySpaceCastOp, RankOp,
        ReallocOp, ReinterpretCastOp, ReshapeOp, StoreOp, SubViewOp, TransposeOp, ViewOp]

for _c in _OPS:
    if _c.assembly is not None:
        install_format(_c)


def _materialize_constant(builder, value, type, loc=None):
    """MemRefDialect::materializeConstant: arith.constant."""
    from .arith import materialize_constant
    return materialize_constant(builder, value, type, loc)


MEMREF = Dialect("memref", _OPS, materialize_constant=_materialize_constant)
