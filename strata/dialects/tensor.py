"""The tensor dialect: creating, slicing, reshaping and reading immutable tensors.

Every op of upstream MLIR's tensor dialect (pack/unpack moved to linalg upstream), with
its custom syntax, result names and verifier messages. Offsets, sizes and strides use the
`custom<DynamicIndexList>` directive of strata.syntax.dynamic_index_list.

[Note: verifier messages without the op prefix]
Some upstream checks report with a bare `emitError` ("expected type to be ... or a
rank-reduced version", the OffsetSizeAndStrideOpInterface checks, ...), without the usual
"'tensor.x' op " prefix. `_bare_error` raises those as located diagnostics directly, so
that the text is the one mlir-opt prints.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.ods import Op, Operand, OptProp, Prop, RegionDef, Result, VarOperand
from ..syntax.asm_format import BareInt, DenseArrayFmt, UnitKeyword, install_format
from ..syntax.dynamic_index_list import (DynamicIndexListDirective, count_dynamic,
                                         mixed_values, reassociation_indices)

DYN = A.DYNAMIC

# ---------------------------------------------------------------- constraints

AnyNon0RankedOrUnrankedTensor = C.Constraint(
    lambda t: type(t) is A.UnrankedTensorType or (type(t) is A.RankedTensorType and t.rank > 0),
    "non-0-ranked or unranked tensor")
AnyStaticShapeTensor = C.Constraint(
    lambda t: type(t) is A.RankedTensorType and t.has_static_shape,
    "statically shaped tensor of any non-token type values")
AnyStaticShapeTensor.type_kind = C.AnyRankedTensor.type_kind
IndexTensor = C.Constraint(
    lambda t: type(t) is A.RankedTensorType and C.SignlessIntegerOrIndex.check(t.element_type),
    "ranked tensor of signless integer or index values")
ShapeTensor = C.Constraint(
    lambda t: isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)) and t.has_rank
    and t.rank == 1 and C.SignlessIntegerOrIndex.check(t.element_type),
    "1D tensor of signless integer or index values")


def _is_index_list_array(a):
    return type(a) is A.ArrayAttr and all(
        type(g) is A.ArrayAttr and all(type(i) is A.IntegerAttr and i.type is A.i64
                                       for i in g.value) for g in a.value)


IndexListArrayAttr = C.Constraint(_is_index_list_array,
                                  "Array of 64-bit integer array attributes")


# ---------------------------------------------------------------- shape helpers

def _bare_error(op, message):
    """Report `message` at the op without the "'op' op" prefix (see the note above)."""
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def _q(t) -> str:
    return f"'{t}'"


def _compatible_shapes(a, b) -> bool:
    """verifyCompatibleShape: unranked matches anything, else same rank and each pair of
    static dims equal."""
    if not a.has_rank or not b.has_rank:
        return True
    if a.rank != b.rank:
        return False
    return all(x == y or x == DYN or y == DYN for x, y in zip(a.shape, b.shape))


def _bit_width(t):
    if isinstance(t, A.ComplexType):
        w = _bit_width(t.element_type)
        return None if w is None else 2 * w
    return getattr(t, "width", None)


def _rank_reduction_mask(original, reduced):
    """computeRankReductionMask: the dims of `original` dropped to get `reduced` (each must
    be a static 1), matching greedily from the left; None when impossible."""
    unused = []
    r = 0
    for i, size in enumerate(original):
        if r < len(reduced) and size == reduced[r]:
            r += 1
            continue
        unused.append(i)
        if size != 1:
            return None
    return unused if r == len(reduced) else None


_OK, _RANK_TOO_LARGE, _SIZE_MISMATCH, _ELEM_MISMATCH = range(4)


def _rank_reduced_check(expected, candidate):
    """isRankReducedType(expected, candidate); encodings are not compared."""
    if expected is candidate:
        return _OK
    if candidate.rank > expected.rank:
        return _RANK_TOO_LARGE
    if _rank_reduction_mask(expected.shape, candidate.shape) is None:
        return _SIZE_MISMATCH
    if expected.element_type is not candidate.element_type:
        return _ELEM_MISMATCH
    return _OK


def _slice_error(op, result, expected):
    if result == _RANK_TOO_LARGE:
        _bare_error(op, "expected rank to be smaller or equal to the other rank. ")
    if result == _SIZE_MISMATCH:
        _bare_error(op, f"expected type to be {_q(expected)} or a rank-reduced version. "
                        "(size mismatch) ")
    if result == _ELEM_MISMATCH:
        _bare_error(op, f"expected element type to be {_q(expected.element_type)}")


def _infer_slice_type(source, static_sizes):
    """ExtractSliceOp::inferResultType: the sizes, with the source's element type and
    encoding."""
    return A.RankedTensorType(static_sizes, source.element_type, source.encoding)


def _in_bounds_error(shape, offsets, sizes, strides):
    """verifyInBoundsSlice: the first static offset or last index past a static dim."""
    for i, dim in enumerate(shape):
        if dim == DYN or i >= len(offsets) or offsets[i] == DYN:
            continue
        if offsets[i] >= dim:
            return f"offset {i} is out-of-bounds: {offsets[i]} >= {dim}"
        if i >= len(sizes) or i >= len(strides) or sizes[i] == DYN or strides[i] == DYN:
            continue
        last = offsets[i] + (sizes[i] - 1) * strides[i]
        if last >= dim:
            return f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}"
    return None


def _static(op, name):
    a = op.properties.get(name)
    return list(a.value) if isinstance(a, A.DenseArrayAttr) else []


class _OffsetSizeStride(DynamicIndexListDirective, Op):
    """Base of the ops with `[offsets] [sizes] [strides]` (OffsetSizeAndStrideOpInterface).

    Subclasses declare their operands (offsets, sizes, strides after their own) since the
    declaration order is the operand order."""

    static_offsets = Prop(C.DenseI64Array)
    static_sizes = Prop(C.DenseI64Array)
    static_strides = Prop(C.DenseI64Array)

    def _max_rank(self) -> int:  # the rank every list must have
        raise NotImplementedError

    @property
    def mixed_offsets(self):
        return mixed_values(_static(self, "static_offsets"), self.offsets)

    @property
    def mixed_sizes(self):
        return mixed_values(_static(self, "static_sizes"), self.sizes)

    @property
    def mixed_strides(self):
        return mixed_values(_static(self, "static_strides"), self.strides)

    def _verify_offset_size_stride(self):
        offs, sizes, strides = (_static(self, "static_offsets"), _static(self, "static_sizes"),
                                _static(self, "static_strides"))
        for what, vals, static in (("sizes", self.sizes, sizes),
                                   ("strides", self.strides, strides),
                                   ("offsets", self.offsets, offs)):
            n = count_dynamic(static)
            if len(vals) != n:
                _bare_error(self, f"expected the number of '{what}' to match the number of "
                                  f"dynamic entries in 'static_{what}' ({len(vals)} vs {n})")
        rank = self._max_rank()
        if not (len(offs) == 1 and rank == 1) and len(offs) != len(sizes):
            _bare_error(self, f"expected mixed offsets rank to match mixed sizes rank "
                              f"({len(offs)} vs {len(sizes)}) so the rank of the result "
                              "type is well-formed.")
        if len(sizes) != len(strides):
            _bare_error(self, f"expected mixed sizes rank to match mixed strides rank "
                              f"({len(sizes)} vs {len(strides)}) so the rank of the result "
                              "type is well-formed.")
        for what, static in (("offset", offs), ("size", sizes), ("stride", strides)):
            if len(static) != rank:
                _bare_error(self, f"expected {rank} {what} values, got {len(static)}")
        for v in offs:
            if v < 0 and v != DYN:
                _bare_error(self, f"expected offsets to be non-negative, but got {v}")
        for v in sizes:
            if v < 0 and v != DYN:
                _bare_error(self, f"expected sizes to be non-negative, but got {v}")

    def _verify_insert_into(self, source, dest):
        """Shared by insert_slice and parallel_insert_slice: the source is the slice type
        (or a rank-reduced version) and the slice stays inside `dest`."""
        expected = _infer_slice_type(dest, _static(self, "static_sizes"))
        _slice_error(self, _rank_reduced_check(expected, source), expected)
        err = _in_bounds_error(dest.shape, _static(self, "static_offsets"),
                               _static(self, "static_sizes"), _static(self, "static_strides"))
        if err:
            _bare_error(self, err)


# ---------------------------------------------------------------- casts

class BitcastOp(Op):
    """`%1 = tensor.bitcast %0 : tensor<4xui32> to tensor<4xi32>`"""

    name = "tensor.bitcast"
    traits = (T.Pure,)
    source = Operand(C.AnyTensor)
    dest = Result(C.AnyTensor)
    assembly = "$source attr-dict `:` type($source) `to` type($dest)"

    def fold(self, operands):
        """A bitcast to its own type is its source; a bitcast of a bitcast reads the
        first one's source (upstream's ChainedTensorBitcast), folded in place."""
        src = self.source
        if src.type is self.results[0].type:
            return src
        inner = src.defining_op
        if type(inner) is BitcastOp:
            if inner.source.type is self.results[0].type:
                return inner.source
            self._operands[0].set(inner.source)
            return list(self.results)
        return None

    def verify_(self):
        a, b = self.source.type, self.results[0].type
        w = _bit_width(a.element_type)
        if w is None or w != _bit_width(b.element_type) or not _compatible_shapes(a, b):
            return f"operand type {_q(a)} and result type {_q(b)} are cast incompatible"
        return None


class CastOp(Op):
    """`%1 = tensor.cast %0 : tensor<4x?xf32> to tensor<?x?xf32>`"""

    name = "tensor.cast"
    traits = (T.Pure,)
    source = Operand(C.AnyTensor)
    dest = Result(C.AnyTensor)
    assembly = "$source attr-dict `:` type($source) `to` type($dest)"

    def asm_result_names(self):
        return ["cast"]

    def fold(self, operands):
        """A cast to its own type is its source; a cast of a cast reads the first one's
        source when joining all three shapes gives what joining the outer two does
        (upstream's ChainedTensorCast), folded in place."""
        src = self.source
        rt = self.results[0].type
        if src.type is rt:
            return src
        inner = src.defining_op
        if type(inner) is CastOp:
            st, it = inner.source.type, src.type
            first = _join_shapes(_join_shapes(st, it), rt)
            if first is None or first is not _join_shapes(st, rt):
                return None
            if st is rt:
                return inner.source
            self._operands[0].set(inner.source)
            return list(self.results)
        return None

    def verify_(self):
        a, b = self.source.type, self.results[0].type
        if a.element_type is not b.element_type or not _compatible_shapes(a, b):
            return f"operand type {_q(a)} and result type {_q(b)} are cast incompatible"
        return None


# ---------------------------------------------------------------- construction

class ConcatOp(Op):
    """`%r = tensor.concat dim(0) %a, %b : (tensor<3x6xf32>, tensor<1x6xf32>) ->
    tensor<4x6xf32>`"""

    name = "tensor.concat"
    traits = (T.Pure,)
    dim = Prop(C.I64Attr, fmt=BareInt())
    inputs = VarOperand(C.AnyRankedTensor)
    result = Result(C.AnyRankedTensor)
    assembly = "`dim` `(` $dim `)` $inputs attr-dict `:` functional-type(operands, results)"

    def asm_result_names(self):
        return ["concat"]

    def fold(self, operands):
        """ConcatOp::fold: one input of the result type is the result."""
        ins = self.inputs
        if len(ins) == 1 and ins[0].type is self.results[0].type:
            return ins[0]
        return None

    def verify_(self):
        inputs = [v.type for v in self.inputs]
        if not inputs:
            return "requires at least one input"
        rt = self.results[0].type
        rank = rt.rank
        if any(t.rank != rank for t in inputs):
            return "rank of concatenated inputs must match result rank"
        if any(t.element_type is not rt.element_type for t in inputs):
            return "inputs and result element type must match"
        dim = self.properties["dim"].value
        if dim >= rank:
            return "concatenation dim must be less than the tensor rank"
        sizes = [DYN] * rank
        for i in range(rank):
            if i == dim:
                continue
            for t in inputs:
                s = t.shape[i]
                if s == DYN:
                    continue
                if sizes[i] != DYN and sizes[i] != s:
                    return ("static concatenation size mismatch along non-concatenated "
                            f"dimension {i}")
                sizes[i] = s
        if dim >= 0:
            total = 0
            for t in inputs:
                if t.shape[dim] == DYN:
                    total = DYN
                    break
                total += t.shape[dim]
            sizes[dim] = total
        inferred = A.RankedTensorType(sizes, inputs[0].element_type)
        for a, b in zip(sizes, rt.shape):
            if a != DYN and b != DYN and a != b:
                return (f"result type {_q(rt)}does not match inferred shape {_q(inferred)} "
                        "static sizes")
        return None


class EmptyOp(Op):
    """`%0 = tensor.empty(%n) : tensor<4x?xf32>`"""

    name = "tensor.empty"
    traits = (T.Pure,)
    dynamicSizes = VarOperand(C.Index)
    result = Result(C.AnyRankedTensor)
    assembly = "`(`$dynamicSizes`)` attr-dict `:` type($result)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def verify_(self):
        return _dynamic_sizes_error(self.results[0].type, self.dynamicSizes)


def _ensure_yield(op):
    """What upstream's custom parsers of SingleBlockImplicitTerminator ops do: a region
    whose block does not end with a terminator gets an (operand-less) `tensor.yield`, so
    that a missing yield is reported by the yield's own verifier, as upstream."""
    from ..ir.core import Block
    for r in op.regions:
        if not r.blocks:
            r.add_block(Block())
        b = r.blocks[-1]
        if b.last is None or T.Terminator not in type(b.last).traits:
            b.append(YieldOp.create(loc=op.loc))


def _dynamic_sizes_error(t, values):
    n = t.num_dynamic_dims
    if len(values) != n:
        return f"incorrect number of dynamic sizes, has {len(values)}, expected {n}"
    return None


class FromElementsOp(Op):
    """`%t = tensor.from_elements %a, %b : tensor<2xf32>`"""

    name = "tensor.from_elements"
    traits = (T.Pure,)
    elements = VarOperand()
    result = Result(AnyStaticShapeTensor)
    assembly = "$elements attr-dict `:` type($result)"

    @classmethod
    def infer_operand_type(cls, name, types):
        rt = (types.get("result") or [None])[0]
        if isinstance(rt, A.RankedTensorType) and rt.has_static_shape:
            return [rt.element_type] * rt.num_elements
        return None

    def asm_result_names(self):
        return ["from_elements"]

    def fold(self, operands):
        """FromElementsOp::fold: constant elements make a dense constant. An element
        read by tensor.extract from a constant at constant indices is one too (upstream
        sees it as a folded constant; complex ones have no constant op here)."""
        if not operands:
            return None
        rt = self.results[0].type
        dense = _dense_of(rt, operands)
        if dense is not None or all(a is not None for a in operands):
            return dense
        from ..ir.dense import DenseElementsAttr, _nbytes
        k = _nbytes(rt.element_type)
        chunks = []
        for v, a in zip(self.elements, operands):
            if a is not None:
                one = _dense_of(A.RankedTensorType([1], rt.element_type), [a])
                if one is None:
                    return None
                chunks.append(one.raw[:k])
                continue
            ext = v.defining_op
            if type(ext) is not ExtractOp:
                return None
            from ..rewrite.folding import constant_value
            src = constant_value(ext.tensor)
            if type(src) is not DenseElementsAttr:
                return None
            idx = [_const_index(i) for i in ext.indices]
            flat = 0 if src.is_splat else \
                None if None in idx else _flat_index(idx, ext.tensor.type.shape)
            if flat is None:
                return None
            chunks.append(src.raw[flat * k:(flat + 1) * k])
        return DenseElementsAttr.from_raw(rt, b"".join(chunks))

    def verify_(self):
        rt = self.results[0].type
        vals = self.elements
        if len(vals) != rt.num_elements or any(v.type is not rt.element_type for v in vals):
            return "failed to verify that operand types match result element type"
        return None


class GenerateOp(Op):
    """`%t = tensor.generate %n { ^bb0(%i: index): tensor.yield %e : f32 } :
    tensor<?xf32>`"""

    name = "tensor.generate"
    traits = (T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("tensor.yield"))
    dynamicExtents = VarOperand(C.Index)
    result = Result(C.AnyRankedTensor)
    body = RegionDef(single_block=True)
    assembly = "$dynamicExtents $body attr-dict `:` type($result)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def asm_result_names(self):
        return ["generated"]

    finish_parse = staticmethod(_ensure_yield)

    def verify_(self):
        return _dynamic_sizes_error(self.results[0].type, self.dynamicExtents)

    def verify_regions_(self):
        rt = self.results[0].type
        blocks = self.regions[0].blocks
        args = blocks[0].args if blocks else ()
        if any(a.type is not A.index for a in args):
            _bare_error(self, "all body arguments must be index")
        if len(args) != rt.rank:
            _bare_error(self, "must have one body argument per input dimension")
        term = blocks[0].last if blocks else None
        if (term is None or term.name != "tensor.yield" or not term.operands
                or term.operands[0].type is not rt.element_type):
            return ("body must be terminated with a `yield` operation of the tensor element "
                    "type")
        return None


class SplatOp(Op):
    """`%t = tensor.splat %s[%n] : tensor<?x16xf32>`"""

    name = "tensor.splat"
    traits = (T.Pure,)
    input = Operand(C.AnyType)  # upstream: any element type (vector<..> included)
    dynamicSizes = VarOperand(C.Index)
    aggregate = Result(C.AnyRankedTensor)
    assembly = "$input (`[` $dynamicSizes^ `]`)? attr-dict `:` type($aggregate)"

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "dynamicSizes":
            return A.index
        rt = (types.get("aggregate") or [None])[0]
        return rt.element_type if isinstance(rt, A.ShapedType) else None

    def asm_result_names(self):
        return ["splat"]

    def fold(self, operands):
        """SplatOp::fold: a constant splatted into a static shape is a splat constant."""
        rt = self.results[0].type
        if not rt.has_static_shape:
            return None
        return _dense_of(rt, operands[:1])

    def verify_(self):
        rt = self.results[0].type
        if self.input.type is not rt.element_type:
            return "failed to verify that operand type matches element type of result"
        return _dynamic_sizes_error(rt, self.dynamicSizes)


# ---------------------------------------------------------------- element access

class DimOp(Op):
    """`%d = tensor.dim %t, %c1 : tensor<4x?xf32>`"""

    name = "tensor.dim"
    traits = (T.NoMemoryEffect,)
    source = Operand(AnyNon0RankedOrUnrankedTensor)
    index = Operand(C.Index)

    def speculatability(self) -> str:
        """ConditionallySpeculatable (passes/licm.py): a constant index within the rank
        of a ranked tensor cannot fault."""
        c = self.index.defining_op
        i = c._props.get("value") if c is not None and T.ConstantLike in c.traits else None
        t = self.source.type
        if type(i) is not A.IntegerAttr or type(t) is not A.RankedTensorType or \
                not 0 <= i.value < len(t.shape):
            return "not"
        return "speculatable"
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

    def fold(self, operands):
        """DimOp::fold: a static size; the size operand of a tensor.generate, or of an
        extract_slice that keeps the rank."""
        i = operands[1]
        t = self.source.type
        if type(i) is not A.IntegerAttr or type(t) is not A.RankedTensorType or \
                not 0 <= i.value < len(t.shape):
            return None
        k = i.value
        if t.shape[k] != DYN:
            return A.IntegerAttr(t.shape[k], A.index)
        src = self.source.defining_op
        if type(src) is GenerateOp:
            return src.dynamicExtents[sum(1 for d in t.shape[:k] if d == DYN)]
        if type(src) is ExtractSliceOp and src.source.type.rank == t.rank:
            v = src.mixed_sizes[k]
            return None if isinstance(v, int) else v
        return None

    @classmethod
    def canonicalization_patterns(cls):
        return _dim_patterns()


def _dim_patterns():
    """tensor.dim's canonicalizations (upstream's DimOfCastOp, DimOfDestStyleOp and
    tensor.empty's FoldEmptyTensorWithDimOp): the size is read where it is known."""
    from ..rewrite.pattern import RewritePattern

    class DimOfSizedOp(RewritePattern):
        root = "tensor.dim"

        def match_and_rewrite(self, op, rewriter):
            src = op.operand(0)
            owner = src.defining_op
            if owner is None:
                return False
            if type(owner) is EmptyOp:
                # FoldEmptyTensorWithDimOp: the dynamic size the empty tensor was made with
                from ..rewrite.folding import constant_value
                i = constant_value(op.operand(1))
                t = src.type
                if type(i) is not A.IntegerAttr or not 0 <= i.value < len(t.shape) or \
                        t.shape[i.value] != DYN:
                    return False
                pos = sum(1 for d in t.shape[:i.value] if d == DYN)
                rewriter.replace_op(op, [owner.dynamicSizes[pos]])
                return True
            if type(owner) is CastOp:
                # DimOfCastOp: the size of the cast's source
                new = owner.operand(0)
            elif type(owner) is InsertSliceOp:
                new = owner.dest
            else:
                # DimOfDestStyleOp: a result of a destination-style op has its init's sizes
                tied = getattr(owner, "tied_result", None)
                inits = getattr(owner, "dps_inits", None)
                if tied is None or inits is None:
                    return False
                new = None
                for j, v in enumerate(inits):
                    if tied(j) is src:
                        new = v
                        break
                if new is None:
                    return False
            rewriter.modify_op_in_place(op, lambda: op.set_operand(0, new))
            return True

    class DimOfReshape(RewritePattern):
        """FoldDimOfReshape: a size of a tensor.reshape is read from its shape operand
        (right after the dim: tensors do not change)."""
        root = "tensor.dim"

        def match_and_rewrite(self, op, rewriter):
            reshape = op.operand(0).defining_op
            if type(reshape) is not ReshapeOp:
                return False
            rewriter.set_insertion_point_after(op)
            shape = reshape.shape
            v = rewriter.create(ExtractOp, tensor=shape, indices=[op.operand(1)],
                                result_types=[shape.type.element_type], loc=op.loc).results[0]
            if v.type is not A.index:
                from .arith import IndexCastOp
                v = rewriter.create(IndexCastOp, in_=v, result_types=[A.index],
                                    loc=op.loc).results[0]
            rewriter.replace_op(op, [v])
            return True
    return [DimOfSizedOp(), DimOfReshape()]


class RankOp(Op):
    """`%r = tensor.rank %t : tensor<*xf32>`"""

    name = "tensor.rank"
    traits = (T.Pure,)
    tensor = Operand(C.AnyTensor)
    result = Result(C.Index)
    assembly = "$tensor attr-dict `:` type($tensor)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [A.index]

    def asm_result_names(self):
        return ["rank"]

    def fold(self, operands):
        """RankOp::fold: the rank of a ranked tensor."""
        t = self.tensor.type
        return A.IntegerAttr(t.rank, A.index) if type(t) is A.RankedTensorType else None


class ExtractOp(Op):
    """`%e = tensor.extract %t[%i, %j] : tensor<4x4xf32>`"""

    name = "tensor.extract"
    traits = (T.Pure,)
    tensor = Operand(C.AnyRankedTensor)
    indices = VarOperand(C.Index)
    result = Result()
    assembly = "$tensor `[` $indices `]` attr-dict `:` type($tensor)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type.element_type]

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "indices" else None

    def asm_result_names(self):
        return ["extracted"]

    def fold(self, operands):
        """ExtractOp::fold: an element of a constant or of tensor.from_elements at
        constant indices; an extract of a tensor.cast from a ranked tensor reads the cast's source (upstream's
        ExtractFromTensorCast), folded in place."""
        t = self.tensor
        owner = t.defining_op
        if type(owner) is CastOp and type(owner.source.type) is A.RankedTensorType:
            self._operands[0].set(owner.source)
            return list(self.results)
        idx = operands[1:]
        const = all(type(i) is A.IntegerAttr for i in idx)
        src = operands[0]
        from ..ir.dense import DenseElementsAttr
        if isinstance(src, DenseElementsAttr) and type(src) is DenseElementsAttr:
            if src.is_splat:
                return _element_attr(src, 0)
            if const:
                flat = _flat_index([i.value for i in idx], t.type.shape)
                if flat is not None:
                    return _element_attr(src, flat)
            return None
        from ..ir.dense import SparseElementsAttr
        if type(src) is SparseElementsAttr and const:
            return _sparse_element(src, [i.value for i in idx])
        if type(owner) is FromElementsOp and const:
            flat = _flat_index([i.value for i in idx], t.type.shape)
            if flat is not None:
                return owner.operand(flat)
        return None

    def verify_(self):
        t = self.tensor.type
        if self.results[0].type is not t.element_type:
            return "failed to verify that result type matches element type of tensor"
        if t.rank != len(self.indices):
            return "incorrect number of indices for extract_element"
        return None


class InsertOp(Op):
    """`%r = tensor.insert %e into %t[%i, %j] : tensor<4x4xf32>`"""

    name = "tensor.insert"
    traits = (T.Pure,)
    scalar = Operand()
    dest = Operand(C.AnyRankedTensor)
    indices = VarOperand(C.Index)
    result = Result(C.AnyRankedTensor)
    assembly = "$scalar `into` $dest `[` $indices `]` attr-dict `:` type($dest)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[1].type]

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "indices":
            return A.index
        dt = (types.get("dest") or [None])[0]
        return dt.element_type if name == "scalar" and isinstance(dt, A.ShapedType) else None

    def asm_result_names(self):
        return ["inserted"]

    def fold(self, operands):
        """InsertOp::fold: inserting a splat constant's own value changes nothing."""
        from ..ir.dense import DenseElementsAttr
        dest = operands[1]
        if type(dest) is DenseElementsAttr and dest.is_splat and operands[0] is not None \
                and _element_attr(dest, 0) is operands[0]:
            return dest
        return None

    def verify_(self):
        dt = self.dest.type
        if self.results[0].type is not dt:
            return "failed to verify that result type matches type of dest"
        if self.scalar.type is not dt.element_type:
            return "failed to verify that scalar type matches element type of dest"
        if dt.rank != len(self.indices):
            return "incorrect number of indices"
        return None


# ---------------------------------------------------------------- slices

class ExtractSliceOp(_OffsetSizeStride):
    """`%s = tensor.extract_slice %t[0, %i] [4, 4] [1, 1] : tensor<8x?xf32> to
    tensor<4x4xf32>`"""

    name = "tensor.extract_slice"
    traits = (T.AttrSizedOperandSegments, T.Pure)
    source = Operand(C.AnyRankedTensor)
    offsets = VarOperand(C.Index)
    sizes = VarOperand(C.Index)
    strides = VarOperand(C.Index)
    result = Result(C.AnyRankedTensor)
    assembly = ("$source `` custom<DynamicIndexList>($offsets, $static_offsets) "
                "custom<DynamicIndexList>($sizes, $static_sizes) "
                "custom<DynamicIndexList>($strides, $static_strides) "
                "attr-dict `:` type($source) `to` type($result)")

    def _max_rank(self):
        return self.source.type.rank

    def asm_result_names(self):
        return ["extracted_slice"]

    def fold(self, operands):
        """ExtractSliceOp::fold: a slice of a splat constant; the whole source (same type,
        identity slice); the source of an insert_slice into the same slice."""
        rt = self.results[0].type
        splat = _reshape_splat(operands[0], rt)
        if splat is not None:
            return splat
        src = self.source
        if src.type is rt and _is_identity_slice(self, rt.shape):
            return src
        ins = src.defining_op
        if type(ins) is InsertSliceOp and ins.source.type is rt and _same_slice(ins, self):
            return ins.source
        return None

    @classmethod
    def infer_result_types(cls, operands, props):
        sizes = props.get("static_sizes")
        return [_infer_slice_type(operands[0].type, sizes.value if sizes else ())]

    def verify_(self):
        self._verify_offset_size_stride()
        src = self.source.type
        expected = _infer_slice_type(src, _static(self, "static_sizes"))
        _slice_error(self, _rank_reduced_check(expected, self.results[0].type), expected)
        err = _in_bounds_error(src.shape, _static(self, "static_offsets"),
                               _static(self, "static_sizes"), _static(self, "static_strides"))
        if err:
            _bare_error(self, err)
        return None


class InsertSliceOp(_OffsetSizeStride):
    """`%r = tensor.insert_slice %s into %t[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into
    tensor<8x8xf32>`"""

    name = "tensor.insert_slice"
    traits = (T.AttrSizedOperandSegments, T.Pure)
    source = Operand(C.AnyRankedTensor)
    dest = Operand(C.AnyRankedTensor)
    offsets = VarOperand(C.Index)
    sizes = VarOperand(C.Index)
    strides = VarOperand(C.Index)
    result = Result(C.AnyRankedTensor)
    assembly = ("$source `into` $dest `` custom<DynamicIndexList>($offsets, $static_offsets) "
                "custom<DynamicIndexList>($sizes, $static_sizes) "
                "custom<DynamicIndexList>($strides, $static_strides) "
                "attr-dict `:` type($source) `into` type($dest)")

    def _max_rank(self):
        return self.results[0].type.rank

    def asm_result_names(self):
        return ["inserted_slice"]

    def fold(self, operands):
        """InsertSliceOp::fold: a whole-tensor insert is its source; an insert over the
        same slice of an earlier insert reads that insert's dest (in place); inserting a
        slice just extracted from the dest is the dest; an empty slice is the dest."""
        st, rt = self.source.type, self.results[0].type
        if st is rt and st.has_static_shape and _is_identity_slice(self, rt.shape):
            return self.source
        prev = self.dest.defining_op
        if type(prev) is InsertSliceOp and prev.source.type is st and _same_slice(prev, self):
            self._operands[1].set(prev.dest)
            return list(self.results)
        ext = self.source.defining_op
        if type(ext) is ExtractSliceOp and ext.source is self.dest and _same_slice(ext, self):
            return self.dest
        if any(_const_index(v) == 0 for v in self.mixed_sizes):
            return self.dest
        return None

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[1].type]

    def verify_(self):
        if self.results[0].type is not self.dest.type:
            return "failed to verify that expected result type to match dest type"
        self._verify_offset_size_stride()
        self._verify_insert_into(self.source.type, self.dest.type)
        return None


class ParallelInsertSliceOp(_OffsetSizeStride):
    """`tensor.parallel_insert_slice %s into %o[%i] [2] [1] : tensor<2xf32> into
    tensor<8xf32>` (inside scf.forall.in_parallel)"""

    name = "tensor.parallel_insert_slice"
    traits = (T.AttrSizedOperandSegments,)
    parallel_combining = True  # ParallelCombiningOpInterface (what in_parallel accepts)
    source = Operand(C.AnyRankedTensor)
    dest = Operand(C.AnyRankedTensor)
    offsets = VarOperand(C.Index)
    sizes = VarOperand(C.Index)
    strides = VarOperand(C.Index)
    assembly = ("$source `into` $dest `` custom<DynamicIndexList>($offsets, $static_offsets) "
                "custom<DynamicIndexList>($sizes, $static_sizes) "
                "custom<DynamicIndexList>($strides, $static_strides) "
                "attr-dict `:` type($source) `into` type($dest)")

    def _max_rank(self):
        return self.dest.type.rank

    def verify_(self):
        self._verify_offset_size_stride()
        parent = self.parent_op
        if parent is None or not _is_in_parallel(parent):
            _bare_error(self, "expected InParallelOpInterface parent, got:" +
                        _generic_text(parent))
        self._verify_insert_into(self.source.type, self.dest.type)
        return None


def _is_in_parallel(op) -> bool:
    """InParallelOpInterface: scf.forall.in_parallel, or an op kind that says it is one."""
    return op.name == "scf.forall.in_parallel" or getattr(op, "in_parallel_op", False)


def _generic_text(op) -> str:
    if op is None:
        return " <<NULL OPERATION>>"
    from ..syntax.printer import PrintOptions, print_op
    return "\n" + print_op(op, PrintOptions(generic=True)).rstrip("\n")


# ---------------------------------------------------------------- reshapes

class ReshapeOp(Op):
    """`%r = tensor.reshape %t(%shape) : (tensor<4x1xf32>, tensor<1xi32>) ->
    tensor<4xf32>`"""

    name = "tensor.reshape"
    traits = (T.Pure,)
    source = Operand(C.AnyTensor)
    shape = Operand(ShapeTensor)
    result = Result(C.AnyTensor)
    assembly = "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"

    def asm_result_names(self):
        return ["reshape"]

    def fold(self, operands):
        """ReshapeOp::fold: a splat constant reshaped; a reshape of a reshape reads the
        first one's source (in place); a reshape to the source's own type when that is
        1-D or the shape lists the source's own sizes."""
        rt = self.results[0].type
        splat = _reshape_splat(operands[0], rt)
        if splat is not None:
            return splat
        src = self.source
        inner = src.defining_op
        if type(inner) is ReshapeOp:
            self._operands[0].set(inner.source)
            return list(self.results)
        st = src.type
        if type(st) is not A.RankedTensorType or st is not rt:
            return None
        if st.rank <= 1:
            return src
        fe = self.shape.defining_op
        if type(fe) is not FromElementsOp or len(fe.elements) != st.rank:
            return None
        for k, e in enumerate(fe.elements):
            c = _const_index(e)
            if c is not None:
                if c != st.shape[k]:
                    return None
                continue
            d = e.defining_op
            if type(d) is not DimOp or d.source is not src or _const_index(d.index) != k:
                return None
        return src

    def verify_(self):
        st, rt = self.source.type, self.results[0].type
        if st.element_type is not rt.element_type:
            return ("element types of source and destination tensor types should be the "
                    "same")
        shape_len = self.shape.type.shape[0]
        if type(rt) is A.RankedTensorType:
            if (type(st) is A.RankedTensorType and rt.has_static_shape and st.has_static_shape
                    and st.num_elements != rt.num_elements):
                return "source and destination tensor should have the same number of elements"
            if shape_len == DYN:
                return ("cannot use shape operand with dynamic length to reshape to "
                        "statically-ranked tensor type")
            if shape_len != rt.rank:
                return "length of shape operand differs from the result's tensor rank"
        return None


def _collapsed_type(expanded, groups):
    """CollapseShapeOp::inferCollapsedType: each group's product, `?` if any is dynamic."""
    shape = []
    start = 0
    for g in groups:
        band = expanded.shape[start:start + len(g)]
        if DYN in band:
            shape.append(DYN)
        else:
            n = 1
            for d in band:
                n *= d
            shape.append(n)
        start += len(g)
    return A.RankedTensorType(shape, expanded.element_type)


def _verify_reshape(op, expanded, collapsed):
    """Shared verifier of expand_shape and collapse_shape (reassociation and shapes)."""
    groups = reassociation_indices(op.properties["reassociation"])
    if any(not g for g in groups):
        return "reassociation indices must not be empty"
    erank, crank = expanded.rank, collapsed.rank
    if erank < crank:
        return (f"expected the expanded type, {_q(expanded)} to have a higher (or same) rank "
                f"than the collapsed type, {_q(collapsed)}.")
    if crank != len(groups):
        return (f"expected collapsed rank ({crank}) to equal the number of reassociation "
                f"maps ({len(groups)}).")
    # The reassociation maps all have as many dims as the largest index + 1 (computed on
    # 32-bit unsigned positions, as upstream).
    ndims = 0
    if groups:
        ndims = (max(i & 0xFFFFFFFF for g in groups for i in g) + 1) & 0xFFFFFFFF
    if groups and ndims != erank:
        return (f"expected reassociation map #0 to have size equal to the expanded rank "
                f"({erank}), but it is  {ndims}.")
    nxt = 0
    for k, g in enumerate(groups):
        for i in g:
            if i != nxt:
                return f"expected reassociation map #{k} to be valid and contiguous."
            nxt += 1
    if groups and nxt != ndims:
        return f"expected reassociation map #{len(groups) - 1} to be valid and contiguous."
    if crank == 0:
        if DYN not in expanded.shape:
            n = expanded.num_elements
            if n != 1:
                return f"number of elements must be preserved: {n} != 1"
    start = 0
    for k, g in enumerate(groups):
        band = expanded.shape[start:start + len(g)]
        start += len(g)
        if DYN in band:
            if collapsed.shape[k] != DYN:
                return (f"expected dimension {k} of collapsed type to be dynamic since one "
                        "or more of the corresponding dimensions in the expanded type is "
                        "dynamic")
        else:
            n = 1
            for d in band:
                n *= d
            if collapsed.shape[k] != n:
                return f"expected dimension {k} of collapsed type to be static value of {n}"
    want = _collapsed_type(expanded, groups)
    if want.shape != collapsed.shape or want.element_type is not collapsed.element_type:
        return f"expected collapsed type to be {_q(want)}, but got {_q(collapsed)}"
    return None


class CollapseShapeOp(Op):
    """`%c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into
    tensor<6x4xf32>`"""

    name = "tensor.collapse_shape"
    traits = (T.Pure,)
    src = Operand(C.AnyRankedTensor)
    reassociation = Prop(IndexListArrayAttr)
    result = Result(C.AnyRankedTensor)
    assembly = "$src $reassociation attr-dict `:` type($src) `into` type($result)"

    def asm_result_names(self):
        return ["collapsed"]

    def fold(self, operands):
        return _fold_reshape(self, ExpandShapeOp, operands[0])

    def verify_(self):
        return _verify_reshape(self, self.src.type, self.results[0].type)


class ExpandShapeOp(DynamicIndexListDirective, Op):
    """`%e = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, %n, 4] :
    tensor<?x4xf32> into tensor<2x?x4xf32>`"""

    name = "tensor.expand_shape"
    traits = (T.Pure,)
    src = Operand(C.AnyRankedTensor)
    reassociation = Prop(IndexListArrayAttr)
    output_shape = VarOperand(C.Index)
    static_output_shape = Prop(C.DenseI64Array)
    result = Result(C.AnyRankedTensor)
    assembly = ("$src $reassociation `output_shape` "
                "custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:` "
                "type($src) `into` type($result)")

    def asm_result_names(self):
        return ["expanded"]

    def fold(self, operands):
        return _fold_reshape(self, CollapseShapeOp, operands[0])

    def verify_(self):
        rt = self.results[0].type
        static = _static(self, "static_output_shape")
        if len(static) != rt.rank:
            return (f"expected number of static shape dims to be equal to the output rank "
                    f"({rt.rank}) but found {len(static)} inputs instead")
        n = count_dynamic(static)
        if len(self.output_shape) != n:
            return (f"mismatch in dynamic dims in output_shape and static_output_shape: "
                    f"static_output_shape has {n} dynamic dims while output_shape has "
                    f"{len(self.output_shape)} values")
        err = _dynamic_sizes_error(rt, self.output_shape)
        if err:
            return err
        for i, (d, s) in enumerate(zip(rt.shape, static)):
            if d != DYN and d != s:
                return f"invalid output shape provided at pos {i}"
        return _verify_reshape(self, rt, self.src.type)


# ---------------------------------------------------------------- pad, gather, scatter

class PadOp(DynamicIndexListDirective, Op):
    """`%p = tensor.pad %t low[1, %i] high[2, 3] { ^bb0(%a: index, %b: index):
    tensor.yield %c : f32 } : tensor<4x?xf32> to tensor<7x?xf32>`"""

    name = "tensor.pad"
    traits = (T.AttrSizedOperandSegments, T.Pure,
              T.SingleBlockImplicitTerminator("tensor.yield"))
    source = Operand(C.AnyRankedTensor)
    low = VarOperand(C.Index)
    high = VarOperand(C.Index)
    static_low = Prop(C.DenseI64Array)
    static_high = Prop(C.DenseI64Array)
    nofold = OptProp(C.UnitAttrC)
    nofold.fmt = UnitKeyword()
    region = RegionDef(single_block=True)
    result = Result(C.AnyRankedTensor)
    assembly = ("$source (`nofold` $nofold^)? `low` `` custom<DynamicIndexList>($low, "
                "$static_low) `high` `` custom<DynamicIndexList>($high, $static_high) "
                "$region attr-dict `:` type($source) `to` type($result)")

    def asm_result_names(self):
        return ["padded"]

    def fold(self, operands):
        """PadOp::fold: a pad to the source's own static type (unless nofold)."""
        rt = self.results[0].type
        if rt.has_static_shape and rt is self.source.type and "nofold" not in self._props:
            return self.source
        return None

    @property
    def mixed_low(self):
        return mixed_values(_static(self, "static_low"), self.low)

    @property
    def mixed_high(self):
        return mixed_values(_static(self, "static_high"), self.high)

    def constant_padding_value(self):
        """getConstantPaddingValue: the yielded value when it is a constant or defined
        outside the body, else None."""
        body = self.regions[0].blocks[0]
        y = body.last
        if y is None or y.name != "tensor.yield":
            return None
        v = y.operands[0]
        from ..rewrite.folding import constant_value
        if constant_value(v) is not None:
            return v
        return None if getattr(v, "parent_block", None) is body else v

    finish_parse = staticmethod(_ensure_yield)

    def inferred_type(self, result_shape=()):
        """PadOp::inferResultType; None when the pad lists do not match the rank."""
        src = self.source.type
        low, high = _static(self, "static_low"), _static(self, "static_high")
        if len(low) != src.rank or len(high) != src.rank:
            return None
        if result_shape and len(result_shape) != src.rank:
            return None
        shape = []
        for i, d in enumerate(src.shape):
            if d == DYN or low[i] == DYN or high[i] == DYN:
                shape.append(result_shape[i] if result_shape else DYN)
            else:
                shape.append(d + low[i] + high[i])
        return A.RankedTensorType(shape, src.element_type)

    def verify_(self):
        src, rt = self.source.type, self.results[0].type
        expected = self.inferred_type()
        if expected is None:
            _bare_error(self, f"failed to infer expectedType from sourceType {_q(src)}, "
                              f"specified resultType is {_q(rt)}")
        mismatch = f"specified type {_q(rt)} does not match the inferred type {_q(expected)}"
        if rt.rank != expected.rank:
            _bare_error(self, mismatch)
        for i in range(src.rank):
            if rt.shape[i] != expected.shape[i] and expected.shape[i] != DYN:
                _bare_error(self, mismatch)
        return None

    def verify_regions_(self):
        rank = self.results[0].type.rank
        blocks = self.regions[0].blocks
        if not blocks:
            return None
        block = blocks[0]
        if len(block.args) != rank:
            _bare_error(self, f"expected the block to have {rank} arguments")
        for i, a in enumerate(block.args):
            if a.type is not A.index:
                return f"expected block argument {i + 1} to be an index"
        term = block.last
        if (term is None or term.name != "tensor.yield" or not term.operands
                or term.operands[0].type is not self.results[0].type.element_type):
            return "expected yield type to match shape element type"
        return None


def _gather_result_type(source, indices, dims, rank_reduced):
    """GatherOp::inferResultType: the leading index dims, then the source dims with the
    gathered ones set to 1 (or dropped)."""
    shape = list(indices.shape[:-1])
    for i, d in enumerate(source.shape):
        if i in dims:
            if not rank_reduced:
                shape.append(1)
            continue
        shape.append(d)
    return A.RankedTensorType(shape, source.element_type, source.encoding)


def _gather_dims_error(kind, dims, indices_shape, rank, what):
    if not dims:
        return f"{kind}_dims must be non-empty"
    if len(dims) > rank:
        return f"{kind}_dims overflow {what} rank"
    if not indices_shape or indices_shape[-1] != len(dims):
        return f"{kind}_dims length must match the size of last dimension of indices"
    for v in dims:
        if v < 0:
            return f"{kind}_dims value must be non-negative"
        if v >= rank:
            return f"{kind}_dims value must be smaller than {what} rank"
    for a, b in zip(dims, dims[1:]):
        if a >= b:
            return f"{kind}_dims values must be strictly increasing"
    return None


class GatherOp(Op):
    """`%g = tensor.gather %src[%idx] gather_dims([1]) : (tensor<3x4x5xf32>,
    tensor<6x1xindex>) -> tensor<6x3x1x5xf32>`"""

    name = "tensor.gather"
    traits = (T.Pure,)
    source = Operand(C.AnyRankedTensor)
    indices = Operand(IndexTensor)
    gather_dims = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    unique = OptProp(C.UnitAttrC)
    unique.fmt = UnitKeyword()
    result = Result(C.AnyRankedTensor)
    assembly = ("$source `[` $indices `]` `gather_dims` `(` $gather_dims `)` "
                "(`unique` $unique^)? attr-dict `:` functional-type(operands, results)")

    def asm_result_names(self):
        return ["gather"]

    def fold(self, operands):
        """GatherOp::fold: gathering from a splat constant is a splat constant."""
        return _reshape_splat(operands[0], self.results[0].type)

    def verify_(self):
        src, idx = self.source.type, self.indices.type
        dims = list(self.properties["gather_dims"].value)
        err = _gather_dims_error("gather", dims, idx.shape, src.rank, "source")
        if err:
            return err
        full = _gather_result_type(src, idx, dims, False)
        reduced = _gather_result_type(src, idx, dims, True)
        rt = self.results[0].type
        if rt is not full and rt is not reduced:
            return (f"result type mismatch: expected {_q(full)} or its rank-reduced variant "
                    f"{_q(reduced)} (got: {_q(rt)})")
        return None


class ScatterOp(Op):
    """`%s = tensor.scatter %src into %dst[%idx] scatter_dims([1]) unique :
    (tensor<3x4x1x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>`"""

    name = "tensor.scatter"
    traits = (T.Pure,)
    source = Operand(C.AnyRankedTensor)
    dest = Operand(C.AnyRankedTensor)
    indices = Operand(IndexTensor)
    scatter_dims = Prop(C.DenseI64Array, fmt=DenseArrayFmt())
    unique = OptProp(C.UnitAttrC)
    unique.fmt = UnitKeyword()
    result = Result(C.AnyRankedTensor)
    assembly = ("$source `into` $dest `[` $indices `]` `scatter_dims` `(` $scatter_dims `)` "
                "(`unique` $unique^)? attr-dict `:` functional-type(operands, results)")

    def asm_result_names(self):
        return ["scatter"]

    def verify_(self):
        dst, idx = self.dest.type, self.indices.type
        dims = list(self.properties["scatter_dims"].value)
        err = _gather_dims_error("scatter", dims, idx.shape, dst.rank, "dest")
        if err:
            return err
        if self.properties.get("unique") is None:
            return "requires 'unique' attribute to be set"
        full = _gather_result_type(dst, idx, dims, False)
        reduced = _gather_result_type(dst, idx, dims, True)
        st = self.source.type
        if st is not full and st is not reduced:
            return (f"source type mismatch: expected {_q(full)} or its rank-reduced variant "
                    f"{_q(reduced)} (got: {_q(st)})")
        return None


class YieldOp(Op):
    """`tensor.yield %v : f32` (ends the body of tensor.generate and tensor.pad)"""

    name = "tensor.yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator,
              T.HasParent("tensor.generate", "tensor.pad"))
    value = Operand()
    assembly = "$value attr-dict `:` type($value)"


_OPS = [BitcastOp, CastOp, CollapseShapeOp, ConcatOp, DimOp, EmptyOp, ExpandShapeOp,
        ExtractOp, ExtractSliceOp, FromElementsOp, GatherOp, GenerateOp, InsertOp,
        InsertSliceOp, PadOp, ParallelInsertSliceOp, RankOp, ReshapeOp, ScatterOp, SplatOp,
        YieldOp]

for _c in _OPS:
    install_format(_c)


def _patterns_of(cls):
    from .tensor_canonicalize import patterns_for
    return patterns_for(cls.name)


# The ops whose canonicalization patterns live in tensor_canonicalize.py.
for _c in (CastOp, CollapseShapeOp, ConcatOp, EmptyOp, ExpandShapeOp, ExtractOp,
           ExtractSliceOp, GenerateOp, InsertSliceOp, PadOp, ParallelInsertSliceOp):
    _c.canonicalization_patterns = classmethod(_patterns_of)



def _fold_reshape(op, inverse, const):
    """foldReshapeOp: a reshape to its own type is its source; a constant source is
    reshaped; one undoing the inverse reshape gives back that reshape's source when
    that type has at most one dynamic dim, or when the two are perfect inverses (same
    reassociation, and expanding then collapsing, or no group of the expanded type
    with two dynamic sizes)."""
    src = op.operand(0)
    rt = op.results[0].type
    if src.type is rt:
        return src
    from ..ir.dense import DenseElementsAttr
    if type(const) is DenseElementsAttr and rt.has_static_shape:
        return DenseElementsAttr.from_raw(rt, const.raw)
    inner = src.defining_op
    if type(inner) is not inverse or inner.operand(0).type is not rt:
        return None
    if sum(d == DYN for d in rt.shape) < 2:
        return inner.operand(0)
    groups = reassociation_indices(op.properties["reassociation"])
    if groups != reassociation_indices(inner.properties["reassociation"]):
        return None
    if rt.rank < src.type.rank:
        return inner.operand(0)
    if all(sum(rt.shape[i] == DYN for i in g) < 2 for g in groups):
        return inner.operand(0)
    return None


def _const_index(v):
    """The integer an index value or static entry is known to be, or None."""
    if isinstance(v, int):
        return None if v == DYN else v
    from ..rewrite.folding import constant_value
    c = constant_value(v)
    return c.value if type(c) is A.IntegerAttr else None


def _is_identity_slice(op, shape) -> bool:
    """foldIdentityOffsetSizeAndStrideOpInterface: offsets 0, strides 1, sizes the
    (static) shape."""
    if any(_const_index(v) != 0 for v in op.mixed_offsets) or \
            any(_const_index(v) != 1 for v in op.mixed_strides):
        return False
    sizes = op.mixed_sizes
    return len(sizes) == len(shape) and all(
        d != DYN and _const_index(v) == d for v, d in zip(sizes, shape))


def _same_ofr(a, b) -> bool:
    """isEqualConstantIntOrValue: the same value, or the same known integer."""
    if a is b or (isinstance(a, int) and a == b):
        return True
    x, y = _const_index(a), _const_index(b)
    return x is not None and x == y


def _same_slice(a, b) -> bool:
    """areEquivalentSlices' offsets/sizes/strides part: entry by entry the same."""
    for xs, ys in ((a.mixed_offsets, b.mixed_offsets), (a.mixed_sizes, b.mixed_sizes),
                   (a.mixed_strides, b.mixed_strides)):
        if len(xs) != len(ys) or not all(_same_ofr(x, y) for x, y in zip(xs, ys)):
            return False
    return True


def _reshape_splat(const, rt):
    """reshapeConstantSource: a splat constant as a constant of the static type `rt`."""
    from ..ir.dense import DenseElementsAttr
    if type(const) is DenseElementsAttr and const.is_splat and \
            type(rt) is A.RankedTensorType and rt.has_static_shape:
        return DenseElementsAttr.from_raw(rt, const.raw)
    return None


def _dense_of(rt, elems):
    """A dense constant of the static type `rt` from integer or float attributes (one:
    a splat), or None when one is not such a constant."""
    from ..ir.dense import DenseElementsAttr
    et = rt.element_type
    if isinstance(et, A.FloatType):
        if not all(type(e) is A.FloatAttr and e.type is et for e in elems):
            return None
        k = (et.width + 7) // 8
        return DenseElementsAttr.from_raw(
            rt, b"".join(e.bits.to_bytes(k, "little") for e in elems))
    if isinstance(et, (A.IntegerType, A.IndexType)):
        if not all(type(e) is A.IntegerAttr and e.type is et for e in elems):
            return None
        return DenseElementsAttr(rt, [e.value for e in elems])
    return None


def _join_shapes(a, b):
    """joinShapes: the most static type both ranked/unranked tensor types agree with,
    or None when they conflict."""
    if type(a) is A.UnrankedTensorType:
        return b
    if type(b) is A.UnrankedTensorType:
        return a
    if a.rank != b.rank:
        return None
    dims = []
    for x, y in zip(a.shape, b.shape):
        if x == DYN:
            dims.append(y)
        elif y == DYN or x == y:
            dims.append(x)
        else:
            return None
    return A.RankedTensorType(dims, a.element_type, a.encoding)


def _flat_index(idx, shape):
    """The row-major position of `idx` in `shape`, or None out of bounds."""
    flat = 0
    for i, d in zip(idx, shape):
        if d == DYN or not 0 <= i < d:
            return None
        flat = flat * d + i
    return flat


def _element_attr(dense, flat):
    """Element `flat` of a numeric dense attribute as an integer or float attribute."""
    et = dense.element_type
    e = dense._stored()
    x = e[0] if dense.is_splat else e[flat]
    if isinstance(et, (A.IntegerType, A.IndexType)):
        return A.IntegerAttr(int(x), et)
    if isinstance(et, A.FloatType):
        k = (et.width + 7) // 8
        i = 0 if dense.is_splat else flat
        bits = int.from_bytes(dense.raw[i * k:(i + 1) * k], "little")
        return A.FloatAttr(0.0, et, bits)
    return None


def _sparse_element(sparse, idx):
    """The element of a sparse constant at `idx` (in bounds): its value where listed,
    else zero; None for element types other than integers and floats."""
    t = sparse.type
    if _flat_index(idx, t.shape) is None:
        return None
    rows = sparse.indices.array.reshape(-1, max(t.rank, 1)) if t.rank else None
    et = t.element_type
    if rows is not None:
        for k, row in enumerate(rows):
            if [int(x) for x in row] == list(idx):
                return _element_attr(sparse.values, k)
    if isinstance(et, (A.IntegerType, A.IndexType)):
        return A.IntegerAttr(0, et)
    if isinstance(et, A.FloatType):
        return A.FloatAttr(0.0, et)
    return None


def _materialize_constant(builder, value, type, loc=None):
    """Folded sizes become arith.constant ops (upstream's TensorDialect::materializeConstant)."""
    from .arith import materialize_constant
    return materialize_constant(builder, value, type, loc)


TENSOR = Dialect("tensor", _OPS, materialize_constant=_materialize_constant)
