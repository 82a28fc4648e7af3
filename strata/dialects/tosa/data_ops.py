"""TOSA data layout, gather/scatter, resize and data node operators.

Shapes that these ops take (reshape's new shape, slice's start and size, pad's padding,
tile's multiples, resize's scale/offset/border) are `!tosa.shape<N>` values that must
come from `tosa.const_shape` (or the shape operators): compile-time resolvable.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import traits as T
from ...ir.ods import Operand, Prop, Result, VarOperand
from ...syntax.asm_format import DenseArrayFmt, StrippedAttr
from . import base as B
from .base import DYN, TosaOp, elt, ranked


class ConcatOp(TosaOp):
    """`%r = tosa.concat %a, %b axis(0) : (tensor<2x3xf32>, tensor<2x3xf32>) ->
    tensor<4x3xf32>`"""

    name = "tosa.concat"
    traits = (T.Pure,)
    infers_type = True
    input1 = VarOperand(B.TensorAtLeast1D)
    axis = B.i32_prop()
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        ot = self.output.type
        inputs = [v.type for v in self.input1]
        if not inputs:
            return "expect at least one input"
        for t in inputs:
            err = B.same_element_types(t, ot)
            if err:
                return err
        axis = self.axis.value
        first = next((t for t in inputs if ranked(t)), None)
        if first is not None and (axis < 0 or axis >= first.rank):
            return ("expect axis to be within range 0 < axis < "
                    f"rank(input1[firstRankedTensorIdx]), got {axis}")
        if not all(ranked(t) for t in inputs):
            return None
        rank = first.rank
        for n, t in enumerate(inputs[1:], 1):
            if t.rank != rank:
                return (f"expect all operands to have the same rank, but got {rank} vs "
                        f"{t.rank} on operands 0 and {n}")
            for i in range(rank):
                a, b = t.shape[i], first.shape[i]
                if i == axis or a == DYN or b == DYN:
                    continue
                if a != b:
                    return ("expect all operand shapes to have the same sizes on non-axis "
                            f"dimensions, but got {a} vs {b} at index {i} on operands 0 and "
                            f"{n}")
        if ranked(ot) and ot.rank != rank:
            return f"expect output rank to match inputs rank, got {ot.rank} vs {rank}"
        total = 0
        for t in inputs:
            if t.shape[axis] == DYN:
                total = -1
                break
            total += t.shape[axis]
        if total >= 0 and ranked(ot) and ot.shape[axis] != DYN and total != ot.shape[axis]:
            return ("requires sum of axis dimensions of input1 equal to output axis "
                    f"dimension, got {total} and {ot.shape[axis]}")
        return None

    def inferred_types(self):
        axis = self.axis.value
        shape = None
        for v in self.input1:
            t = v.type
            if not ranked(t):
                continue
            if shape is None:
                shape = [DYN] * t.rank
            for i, d in enumerate(t.shape):
                if i == axis or d == DYN:
                    continue
                if shape[i] == DYN:
                    shape[i] = d
        et = self.input1[0].type.element_type
        if shape is None:
            return [A.UnrankedTensorType(et)]
        total = 0
        for v in self.input1:
            t = v.type
            if not ranked(t) or t.shape[axis] == DYN:
                total = DYN
                break
            total += t.shape[axis]
        shape[axis] = total
        return [A.RankedTensorType(shape, et)]


class PadOp(TosaOp):
    """`%r = tosa.pad %x, %padding, %pad_const : (tensor<2x3xf32>, !tosa.shape<4>,
    tensor<1xf32>) -> tensor<3x4xf32>` (padding: before/after per dim)"""

    name = "tosa.pad"
    traits = (T.Pure,)
    input1 = Operand(B.TensorAtLeast1D)
    padding = Operand(B.Shape)
    pad_const = Operand(B.ScalarTensor)
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        err = B.same_element_types(it, ot) or B.same_element_types(self.pad_const.type, ot)
        if err:
            return err
        if not ranked(it) or not ranked(ot):
            return None
        err = B.ranks_match(it, ot, "input", "output")
        if err:
            return err
        pads = B.const_shape_values(self.padding)
        if pads is None:
            return None
        if len(pads) != 2 * it.rank:
            return (f"padding tensor must have {it.rank} * 2 = {2 * it.rank} elements, but "
                    f"got {len(pads)}")
        for i in range(it.rank):
            lo, hi = pads[2 * i], pads[2 * i + 1]
            if (lo < 0 and lo != -1) or (hi < 0 and hi != -1):
                return (f"invalid padding values at dimension {i}: values must be "
                        f"non-negative or -1 for dynamic padding, got [{lo}, {hi}]")
            if it.shape[i] == DYN or ot.shape[i] == DYN:
                continue
            if ot.shape[i] != it.shape[i] + lo + hi:
                return (f"mismatch in output shape at dimension {i}: expected {it.shape[i]} "
                        f"+ {lo} + {hi} = {it.shape[i] + lo + hi}, but got {ot.shape[i]}")
        return None


class ReshapeOp(TosaOp):
    """`%r = tosa.reshape %x, %shape : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>`
    (-1 in the shape: inferred dim)"""

    name = "tosa.reshape"
    traits = (T.Pure,)
    infers_type = True
    input1 = Operand(B.Tensor)
    shape = Operand(B.Shape)
    output = Result(B.Tensor)

    def verify_op(self):
        it = self.input1.type
        err = B.same_element_types(it, self.output.type)
        if err:
            return err
        vals = B.const_shape_values(self.shape)
        if vals is None:
            return None
        if vals.count(-1) > 1:
            return "expected at most one target dimension to be -1"
        ot = self.output.type
        if not ranked(ot):
            return None
        if len(vals) != ot.rank:
            return "new shape does not match result rank"
        for n, o in zip(vals, ot.shape):
            if n != -1 and o != DYN and n != o:
                return "new shape is inconsistent with result shape"
            if n < -1:
                return f"new shape has invalid tensor dimension size {n}"
        if ranked(it) and it.has_static_shape:
            count = it.num_elements
            if ot.has_static_shape and count != ot.num_elements:
                return f"cannot reshape {count} elements into {ot.num_elements}"
            prod = 1
            for d in vals:
                if d > 0:
                    prod *= d
            static = all(d > 0 for d in vals)
            if (static and count != prod) or (not static and prod > count):
                return f"cannot reshape {count} elements into {prod}"
        return None

    def inferred_types(self):
        return [self.output.type]  # isCompatibleReturnTypes compares element types only

    @staticmethod
    def compatible_return(inferred, actual):
        return elt(inferred) is elt(actual)


class ReverseOp(TosaOp):
    """`%r = tosa.reverse %x axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>`"""

    name = "tosa.reverse"
    traits = (B.SameOperandsAndResultRank, B.SameOperandsAndResultShape,
              B.SameOperandsAndResultElementType, T.Pure)
    input1 = Operand(B.TensorAtLeast1D)
    axis = B.i32_prop()
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        axis = self.axis.value
        if axis < 0:
            return "expected non-negative reverse axis"
        it = self.input1.type
        if ranked(it) and axis >= it.rank and (axis != 0 or it.rank != 0):
            return f"expect input tensor rank ({it.rank}) to be larger than reverse axis ({axis})"
        return None


class SliceOp(TosaOp):
    """`%r = tosa.slice %x, %start, %size : (tensor<2x3xf32>, !tosa.shape<2>,
    !tosa.shape<2>) -> tensor<1x2xf32>` (size -1: to the end)"""

    name = "tosa.slice"
    traits = (T.Pure,)
    input1 = Operand(B.TensorAtLeast1D)
    start = Operand(B.Shape)
    size = Operand(B.Shape)
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        err = B.same_element_types(it, ot)
        if err:
            return err
        if ranked(it):
            if ranked(ot) and it.rank != ot.rank:
                return (f"expect input1 and output to have the same ranks, got {it.rank} and "
                        f"{ot.rank}")
            if it.rank != self.start.type.rank:
                return "length of start is not equal to rank of input shape"
            if it.rank != self.size.type.rank:
                return "length of size is not equal to rank of input shape"
        start = B.const_shape_values(self.start)
        if start and any(v < 0 and v != -1 for v in start):
            return f"start values must be non-negative, got [{B.dims_str(start)}]"
        size = B.const_shape_values(self.size)
        if size is None:
            return None
        if any(v <= 0 and v != -1 for v in size):
            return f"size values must be > 0, got [{B.dims_str(size)}]"
        if ranked(ot) and -1 not in size and not B.compatible_dims(ot.shape, size):
            return (f"expected output shape to match size values, got '{ot}' vs "
                    f"[{B.dims_str(size)}]")
        if ranked(it) and start:
            for i, (s, n, d) in enumerate(zip(start, size, it.shape)):
                if s == -1 or n == -1 or d == DYN:
                    continue
                if s + n > d:
                    return ("start + size must be less than or equal to input dimension "
                            f"size, got start={s}, size={n} vs input dim size={d} at "
                            f"dimension {i}")
        return None


class TileOp(TosaOp):
    """`%r = tosa.tile %x, %multiples : (tensor<2x3xf32>, !tosa.shape<2>) ->
    tensor<2x6xf32>`"""

    name = "tosa.tile"
    traits = (T.Pure,)
    input1 = Operand(B.TensorAtLeast1D)
    multiples = Operand(B.Shape)
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        err = B.same_element_types(it, ot)
        if err:
            return err
        rank = self.multiples.type.rank
        if ranked(it):
            if it.rank != rank:
                return f"expect 'multiples' to have rank {it.rank} but got {rank}."
            if ranked(ot):
                err = B.ranks_match(it, ot, "input", "output")
                if err:
                    return err
        elif ranked(ot) and ot.rank != rank:
            return f"expect 'multiples' array to have length {ot.rank} but got {rank}."
        mult = B.const_shape_values(self.multiples)
        if mult is not None and any(v <= 0 and v != -1 for v in mult):
            return "expect element of 'multiples' to be positive integer or -1."
        return None


class TransposeOp(TosaOp):
    """`%r = tosa.transpose %x perms([1, 0]) : (tensor<2x3xf32>) -> tensor<3x2xf32>`"""

    name = "tosa.transpose"
    traits = (T.Pure,)
    input1 = Operand(B.TensorAtLeast1D)
    perms = Prop(B.DenseI32Array, fmt=DenseArrayFmt(A.i32))
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        if elt(it) is not elt(ot):
            return "failed to verify that all of {input1, output} have same element type"
        err = B.same_element_types(it, ot)
        if err:
            return err
        perms = list(self.perms.value)
        if ranked(it) and len(perms) != it.rank:
            return (f"expected perms attribute to have size {it.rank} (input rank) but got "
                    f"size {len(perms)}")
        if ranked(it) and ranked(ot) and it.rank != ot.rank:
            return "expected input tensor rank to equal result tensor rank"
        if ranked(ot) and len(perms) != ot.rank:
            return (f"expected perms attribute to have size {ot.rank} (output rank) but got "
                    f"size {len(perms)}")
        if sorted(perms) != list(range(len(perms))):
            return "expected valid permutation indices"
        if ranked(it) and ranked(ot) and it.has_static_shape and ot.has_static_shape and \
                it.num_elements != ot.num_elements:
            return ("expected input1 and output to have same numbers of elements, got "
                    f"{it.num_elements} and {ot.num_elements}")
        if ranked(it) and ranked(ot):
            for i, p in enumerate(perms):
                if it.shape[p] == DYN or ot.shape[i] == DYN:
                    continue
                if it.shape[p] != ot.shape[i]:
                    return (f"expected output tensor dim {i} to match input dim {p} with "
                            f"value of {it.shape[p]}")
        return None


class _Gather(TosaOp):
    __slots__ = ()
    traits = (T.NoMemoryEffect,)
    values = Operand(B.Tensor3D)
    indices = Operand(B.IndexTensor2D)


class GatherOp(_Gather):
    """`%r = tosa.gather %values, %indices : (tensor<1x5x3xf32>, tensor<1x2xi32>) ->
    tensor<1x2x3xf32>` (values [N,K,C], indices [N,W] -> [N,W,C])"""

    name = "tosa.gather"
    output = Result(B.Tensor3D)

    def verify_op(self):
        vt, it, ot = self.values.type, self.indices.type, self.output.type
        err = B.same_element_types(vt, ot)
        if err:
            return err
        n = w = c = DYN
        if ranked(vt):
            n, c = vt.shape[0], vt.shape[2]
        if ranked(it):
            w = it.shape[1]
            if n == DYN:
                n = it.shape[0]
            elif it.shape[0] != DYN and n != it.shape[0]:
                return f"requires indices dimension 0 to have size {n}, got {it.shape[0]}"
        if ranked(ot):
            for i, want in enumerate((n, w, c)):
                got = ot.shape[i]
                if want != DYN and got != DYN and want != got:
                    return f"requires output dimension {i} to have size {want}, got {got}"
        return None


class RowGatherOp(_Gather):
    """`%r = tosa.row_gather %values, %indices, %row_count : (tensor<1x5x3xf32>,
    tensor<1x2xi32>, tensor<1xi32>) -> tensor<1x4x3xf32>`: values [N,K,C], indices [N,W]
    and a row count R gather R consecutive rows from each index, -> [N,W*R,C]."""

    name = "tosa.row_gather"
    row_count = Operand(B.ScalarInt32Tensor)
    output = Result(B.Tensor3D)

    def verify_op(self):
        vt, it, ot = self.values.type, self.indices.type, self.output.type
        err = B.same_element_types(vt, ot)
        if err:
            return err
        rows = B.const_elements(self.row_count)
        rows = int(rows.array.reshape(-1)[0]) if rows is not None and rows.num_elements \
            else None
        if rows is not None and rows <= 0:
            return f"requires row_count to be > 0, got {rows}"
        n = c = DYN
        if ranked(vt):
            n, c = vt.shape[0], vt.shape[2]
        if ranked(it):
            if n != DYN and it.shape[0] != DYN and n != it.shape[0]:
                return f"expected batch of indices to match size {n}, got {it.shape[0]}"
            if n == DYN:
                n = it.shape[0]
        if not ranked(ot):
            return None
        if n != DYN and ot.shape[0] != DYN and n != ot.shape[0]:
            return f"expected batch of output to match size {n}, got {ot.shape[0]}"
        if ranked(it) and it.shape[1] != DYN and rows is not None and ot.shape[1] != DYN \
                and it.shape[1] * rows != ot.shape[1]:
            return (f"requires output dimension to be equal to indices[1]*row_count "
                    f"({it.shape[1] * rows}), got {ot.shape[1]}")
        if c != DYN and ot.shape[2] != DYN and c != ot.shape[2]:
            return f"expected channels of output to match size {c}, got {ot.shape[2]}"
        return None


class ScatterOp(TosaOp):
    """`%r = tosa.scatter %values_in, %indices, %input : (tensor<1x5x3xf32>,
    tensor<1x2xi32>, tensor<1x2x3xf32>) -> tensor<1x5x3xf32>`"""

    name = "tosa.scatter"
    traits = (T.NoMemoryEffect,)
    values_in = Operand(B.Tensor3D)
    indices = Operand(B.IndexTensor2D)
    input = Operand(B.Tensor3D)
    values_out = Result(B.Tensor3D)

    def verify_op(self):
        vt, it, xt, ot = (self.values_in.type, self.indices.type, self.input.type,
                          self.values_out.type)
        err = B.same_element_types(vt, ot) or B.same_element_types(xt, ot)
        if err:
            return err
        n = k = w = c = DYN
        if ranked(vt):
            n, k, c = vt.shape
        if ranked(it):
            w = it.shape[1]
            if n == DYN:
                n = it.shape[0]
            elif it.shape[0] != DYN and n != it.shape[0]:
                return f"requires indices dimension 0 to have size {n}, got {it.shape[0]}"
        if ranked(xt):
            nwc = [n, w, c]
            for i, got in enumerate(xt.shape):
                if nwc[i] == DYN:
                    nwc[i] = got
                elif got != DYN and nwc[i] != got:
                    return f"requires input dimension {i} to have size {nwc[i]}, got {got}"
            n, w, c = nwc
        if ranked(ot):
            on, ok, oc = ot.shape
            if n != DYN and on != DYN and n != on:
                return f"requires values_out dimension 0 to have size {n}, got {on}"
            if k == DYN:
                k = ok
            elif ok != DYN and k != ok:
                return f"requires values_out dimension 1 to have size {k}, got {ok}"
            if c != DYN and oc != DYN and c != oc:
                return f"requires values_out dimension 2 to have size {c}, got {oc}"
        if k != DYN and w != DYN and k < w:
            return f"requires dimensions K >= W, got K={k} and W={w}"
        return None


class ResizeOp(TosaOp):
    """`%r = tosa.resize %x, %scale, %offset, %border mode<BILINEAR> :
    (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) ->
    tensor<1x7x7x3xf32>` (scale = [y_n, y_d, x_n, x_d])"""

    name = "tosa.resize"
    traits = (T.Pure,)
    input = Operand(B.Tensor4D)
    scale = Operand(B.shape_of_rank(4))
    offset = Operand(B.shape_of_rank(2))
    border = Operand(B.shape_of_rank(2))
    mode = Prop(B.ResizeModeAttr, fmt=StrippedAttr("tosa", "resize_mode"))
    output = Result(B.Tensor4D)

    def verify_op(self):
        scale = B.const_shape_values(self.scale)
        offset = B.const_shape_values(self.offset)
        border = B.const_shape_values(self.border)
        if scale is None or offset is None or border is None:
            return None
        if any(s <= 0 for s in scale):
            return f"expect all scale values to be > 0, got {B.dims_str(scale)}"
        it, ot = self.input.type, self.output.type
        if not ranked(it) or not ranked(ot):
            return None
        for dim, (i, o, n, d, off, bor, axis) in (
                ("height", (it.shape[1], ot.shape[1], scale[0], scale[1], offset[0], border[0],
                            "y")),
                ("width", (it.shape[2], ot.shape[2], scale[2], scale[3], offset[1], border[1],
                           "x"))):
            if i == DYN or i == 1:
                continue
            q = B.idiv_check((i - 1) * n - off + bor, d)
            if q is None:
                return (f"expected (input_{dim} - 1) * scale_{axis}_n - offset_{axis} + "
                        f"border_{axis} to be wholly divisible by scale_{axis}_d, got (({i} - "
                        f"1) * {n} - {off} + {bor}) / {d}")
            if o != DYN and q + 1 != o:
                return (f"calculated output {dim} did not match expected: calculated={q + 1}, "
                        f"expected={o}")
        return None


class IdentityOp(TosaOp):
    """`%r = tosa.identity %x : (tensor<4xf32>) -> tensor<4xf32>`"""

    name = "tosa.identity"
    traits = (T.Pure,)
    input1 = Operand(B.Tensor)
    output = Result(B.Tensor)


class ConstOp(TosaOp):
    """`%c = tosa.const  values(dense<1.0> : tensor<4xf32>) : () -> tensor<4xf32>`"""

    name = "tosa.const"
    traits = (T.ConstantLike, T.Pure)
    values = Prop(B.ElementsAttr)
    output = Result(B.Tensor)

    def verify_op(self):
        at, ot = self.values.type, self.output.type
        if not isinstance(at, (A.RankedTensorType, A.UnrankedTensorType)) or \
                not isinstance(ot, (A.RankedTensorType, A.UnrankedTensorType)):
            return "expected tensors for attr/result type"
        if not ranked(ot) or ot.shape != at.shape:  # AllShapesMatch: equal getShape()
            return "failed to verify that all of {values, output} have same shape"
        if at.element_type is not ot.element_type:
            return "expected same attr/result element types"
        return None

    def fold(self, operands):
        return [self.values]

    def constant_value(self):
        return self._props.get("values")


class ConstShapeOp(TosaOp):
    """`%s = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () ->
    !tosa.shape<2>`"""

    name = "tosa.const_shape"
    traits = (T.ConstantLike, T.Pure)
    values = Prop(B.IndexElementsAttr)
    output = Result(B.Shape)

    def verify_op(self):
        vt = self.values.type
        if vt.rank != 1:
            return "expect elements in attribute values with rank 1"
        count = vt.num_elements
        rank = self.output.type.rank
        if count != rank and (count != 1 or rank != 0):
            return (f"expect number of elements in attribute values ({count}) to be equal to "
                    f"the rank ({rank}) for the result shape type")
        return None

    def fold(self, operands):
        return [self.values]

    def constant_value(self):
        return self._props.get("values")


OPS = [ConcatOp, PadOp, ReshapeOp, ReverseOp, SliceOp, TileOp, TransposeOp, GatherOp,
       RowGatherOp,
       ScatterOp, ResizeOp, IdentityOp, ConstOp, ConstShapeOp]
