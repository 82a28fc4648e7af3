"""`linalg.pack` and `linalg.unpack`: tile a tensor (or buffer) into blocks and back.

    %p = linalg.pack %src padding_value(%z : f32) outer_dims_perm = [1, 0]
           inner_dims_pos = [0, 1] inner_tiles = [8, %t] into %dest
           : tensor<128x256xf32> -> tensor<?x16x8x?xf32>

`inner_dims_pos` are the tiled dimensions of the unpacked value, `inner_tiles` their tile
sizes (integers or `index` values: `custom<DynamicIndexList>`), `outer_dims_perm` permutes
the outer (tile-count) dimensions. There is a result when the source is a tensor.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.ods import Op, Operand, OptOperand, OptResult, Prop, VarOperand
from ...syntax.dynamic_index_list import (mixed_values, parse_dynamic_index_list,
                                          print_dynamic_index_list)
from .structured import (has_buffer_operands, parse_attr_dict_checked, parse_i64_list,
                         verify_destination_style)

__all__ = ["PackOp", "UnPackOp"]

DYN = A.DYNAMIC
_SHAPED = C.Constraint(lambda t: type(t) in (A.RankedTensorType, A.MemRefType),
                       "ranked tensor or memref of any type values")
_RESULT = C.Constraint(lambda t: type(t) is A.RankedTensorType,
                       "ranked tensor of any non-token type values")
_I64S = C.DenseI64Array
_DEFAULT_PERM = A.DenseArrayAttr(A.i64, [])


def _bare(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def _invalid_positions(dims, rank) -> bool:
    """isInvalidPackingPosSpecification."""
    return len(dims) > rank or len(set(dims)) != len(dims) or \
        any(d < 0 or d >= rank for d in dims)


def packed_shape(shape, tiles, inner_dims_pos, outer_dims_perm):
    """The packed shape of an unpacked `shape` (getPackOpResultTypeShape)."""
    out = list(shape)
    for tile, d in zip(tiles, inner_dims_pos):
        if out[d] == DYN:
            continue
        if tile == DYN:
            out[d] = DYN
            continue
        out[d] = -(-out[d] // tile)
    if outer_dims_perm:
        out = [out[p] for p in outer_dims_perm]
    return out + list(tiles)


def _with_shape(t, shape):
    if type(t) is A.MemRefType:
        return A.MemRefType(shape, t.element_type)
    return A.RankedTensorType(shape, t.element_type)


def _const_int(v):
    """getConstantIntValue: an integer, or the value of a constant op's result."""
    if isinstance(v, int):
        return v
    d = v.defining_op
    if d is not None and T.ConstantLike in type(d).traits:
        a = d.properties.get("value")
        if type(a) is A.IntegerAttr:
            return a.value
    return None


class _Relayout(Op):
    """What pack and unpack share: syntax and the common verifier."""

    traits = (T.Pure,)
    operand_memory_effects = has_buffer_operands
    outer_dims_perm = Prop(_I64S, default=_DEFAULT_PERM)
    inner_dims_pos = Prop(_I64S)
    static_inner_tiles = Prop(_I64S)
    result_ = OptResult(_RESULT)  # upstream's `result` ([Note: field names])
    _is_pack = True

    def num_dps_inputs(self):
        return 1

    @classmethod
    def new(cls, source, dest, inner_dims_pos, inner_tiles, outer_dims_perm=None,
            padding_value=None, loc=None):
        """The op; `inner_tiles` holds ints and `index` values."""
        ints = [t if isinstance(t, int) else DYN for t in inner_tiles]
        dyn = [t for t in inner_tiles if not isinstance(t, int)]
        props = {"inner_dims_pos": A.DenseArrayAttr(A.i64, list(inner_dims_pos)),
                 "static_inner_tiles": A.DenseArrayAttr(A.i64, ints)}
        if outer_dims_perm:
            props["outer_dims_perm"] = A.DenseArrayAttr(A.i64, list(outer_dims_perm))
        operands = [source, dest]
        if cls._is_pack:
            if padding_value is not None:
                operands.append(padding_value)
            props["operandSegmentSizes"] = A.DenseArrayAttr(
                A.i32, [1, 1, 1 if padding_value is not None else 0, len(dyn)])
        results = [dest.type] if isinstance(source.type, A.RankedTensorType) else []
        return cls.create(operands + dyn, results, props, None, (), 0, loc)

    @property
    def mixed_tiles(self) -> list:
        """Each tile size: an int, or the `index` value of a dynamic one."""
        return mixed_values(list(self._props["static_inner_tiles"].value), self.inner_tiles)

    def _perm(self):
        return list(self._props.get("outer_dims_perm", _DEFAULT_PERM).value)

    def _verify_common(self):
        tiles = self.mixed_tiles
        if any(isinstance(t, int) and t == 0 for t in tiles):
            _bare(self, "invalid zero tile factor")
        src, dst = self.operand(0).type, self.operand(1).type
        unpacked, packed = (src, dst) if self._is_pack else (dst, src)
        rank = unpacked.rank
        pos = list(self._props["inner_dims_pos"].value)
        perm = self._perm()
        if _invalid_positions(pos, rank):
            _bare(self, "invalid inner_dims_pos vector")
        if _invalid_positions(perm, rank):
            _bare(self, "invalid outer_dims_perm vector")
        if perm and len(perm) != rank:
            _bare(self, "outer_dims_perm must be a permutation or empty")
        if len(tiles) > rank:
            _bare(self, "tiling factors must be less than or equal to the input rank for "
                        "pack or output rank for unpack")
        if len(tiles) != len(pos):
            _bare(self, "tiling factors must equal the number of dimensions to tile")
        if packed.rank != rank + len(tiles):
            _bare(self, "packed rank != (unpacked rank + num tiling factors), got "
                        f"{packed.rank} != {rank + len(tiles)}")
        tail = packed.shape[packed.rank - len(tiles):]
        for i, (size, tile) in enumerate(zip(tail, tiles)):
            if isinstance(tile, int):
                if size != tile:
                    _bare(self, "mismatch in inner tile sizes specified and shaped of tiled "
                                f"dimension in the packed type at index {i}: got {size} != "
                                f"{tile}")
            elif size != DYN:
                _bare(self, f"mismatch in inner tile sizes specified at index {i}: got static "
                            f"shape {size} but dynamic tile size")
        static_tiles = [t if isinstance(t, int) else DYN for t in tiles]
        expected = packed_shape(unpacked.shape, static_tiles, pos, perm)
        if any(a != b and a != DYN and b != DYN for a, b in zip(expected, packed.shape)):
            _bare(self, f"expected '{_with_shape(packed, expected)}' for the packed domain "
                        f"value, got '{packed}'")

    # -------------------------------------------------------------- syntax

    @classmethod
    def parse(cls, p, st):
        src = p.parse_operand()
        pad = pad_type = None
        if cls._is_pack and p.parse_optional_keyword("padding_value"):
            p.expect("(")
            pad = p.parse_operand()
            p.expect(":")
            pad_type = p.parse_type()
            p.expect(")")
        if p.parse_optional_keyword("outer_dims_perm"):
            p.expect("=")
            st.properties["outer_dims_perm"] = parse_i64_list(p)
        p.parse_keyword("inner_dims_pos")
        p.expect("=")
        st.properties["inner_dims_pos"] = parse_i64_list(p)
        p.parse_keyword("inner_tiles")
        p.expect("=")
        refs, ints, _, _ = parse_dynamic_index_list(p)
        st.properties["static_inner_tiles"] = A.DenseArrayAttr(A.i64, ints)
        p.parse_keyword("into")
        dest = p.parse_operand()
        parse_attr_dict_checked(p, st, {"operandSegmentSizes"} | set(st.properties))
        p.expect(":")
        src_t = p.parse_type()
        p.expect("->")
        dest_t = p.parse_type()
        ops = [p.resolve_operand(src, src_t), p.resolve_operand(dest, dest_t)]
        if pad is not None:
            ops.append(p.resolve_operand(pad, pad_type))
        ops += p.resolve_operands(refs, [A.index] * len(refs))
        st.operands = ops
        seg = A.DenseArrayAttr(A.i32, [1, 1, 1 if pad is not None else 0, len(refs)])
        # Upstream's unpack parser leaves the segment sizes as a discardable attribute.
        (st.properties if cls._is_pack else st.attributes)["operandSegmentSizes"] = seg
        if isinstance(src_t, (A.RankedTensorType, A.UnrankedTensorType)):
            st.types = [dest_t]

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self) + " " + pr.value(self.operand(0)))
        pad = getattr(self, "padding_value", None)
        if pad is not None:
            out.append(f" padding_value({pr.value(pad)} : {pr.type_str(pad.type)})")
        perm = self._perm()
        if perm:
            out.append(" outer_dims_perm = " + _array_text(perm))
        out.append(" inner_dims_pos = " + _array_text(self._props["inner_dims_pos"].value))
        out.append(" inner_tiles = " + print_dynamic_index_list(
            pr, self.inner_tiles, self._props["static_inner_tiles"].value))
        out.append(" into " + pr.value(self.operand(1)))
        attrs = {k: v for k, v in self._attrs.items() if k != "operandSegmentSizes"}
        pr.print_optional_attr_dict(attrs)
        out.append(f" : {pr.type_str(self.operand(0).type)} -> "
                   f"{pr.type_str(self.operand(1).type)}")


def _array_text(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


class PackOp(_Relayout):
    """`%p = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %dest
    : tensor<128x256xf32> -> tensor<16x8x8x32xf32>`"""

    name = "linalg.pack"
    traits = (T.Pure, T.AttrSizedOperandSegments)
    source = Operand(_SHAPED)
    dest = Operand(_SHAPED)
    padding_value = OptOperand()
    inner_tiles = VarOperand(C.Index)

    def asm_result_names(self):
        return ["pack"]

    def verify_(self):
        err = verify_destination_style(self, 1)
        if err:
            return err
        self._verify_common()
        src, dst = self.operand(0).type, self.operand(1).type
        pad = self.padding_value
        if pad is not None and pad.type is not src.element_type:
            return f"expected padding_value has '{src.element_type}' but got: '{pad.type}'"
        if pad is None and self._needs_padding(src, dst):
            return ("invalid tile factor or output size provided. Only full tiles are "
                    "supported when padding_value is not set")
        return None

    def _needs_padding(self, src, dst) -> bool:
        """requirePaddingValue: a static dimension the tiles do not divide."""
        shape = src.shape
        outer = list(dst.shape[:len(shape)])
        perm = self._perm()
        if perm:
            inv = [0] * len(perm)
            for i, q in enumerate(perm):
                inv[q] = i
            outer = [outer[inv[i]] for i in range(len(perm))]
        for d, tile in zip(self._props["inner_dims_pos"].value, self.mixed_tiles):
            if shape[d] == DYN:
                continue
            c = _const_int(tile)
            if c is None:
                if outer[d] != DYN and shape[d] % outer[d] != 0:
                    return True
            elif shape[d] % c != 0:
                return True
        return False


class UnPackOp(_Relayout):
    """`%u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %dest
    : tensor<16x8x8x32xf32> -> tensor<128x256xf32>`"""

    name = "linalg.unpack"
    source = Operand(_SHAPED)
    dest = Operand(_SHAPED)
    inner_tiles = VarOperand(C.Index)
    _is_pack = False

    def asm_result_names(self):
        return ["unpack"]

    def fold(self, operands):
        """UnPackOp::fold: an unpack of a splat constant is the splat in the static
        result type."""
        from ...ir.dense import DenseElementsAttr
        src = operands[0]
        rt = self.results[0].type if self.results else None
        if type(src) is DenseElementsAttr and src.is_splat and rt is not None and \
                all(d != DYN for d in rt.shape):
            return DenseElementsAttr.from_raw(rt, src.raw)
        return None

    def verify_(self):
        err = verify_destination_style(self, 1)
        if err:
            return err
        self._verify_common()
        return None


RELAYOUT_OPS = [PackOp, UnPackOp]
