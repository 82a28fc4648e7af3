"""TOSA elementwise operators: activations, unary, binary (with rank-equal broadcasting),
ternary select, comparisons, clamp, cast, rescale, table and apply_scale.

Binary ops broadcast size-1 dims of operands of equal rank:
`%r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>`.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Operand, Prop, Result
from ...syntax.asm_format import StrippedAttr
from . import base as B
from .base import (ELEMENTWISE, SameOperandsAndResultElementType,
                   SameOperandsAndResultShape, SameOperandsElementType, TosaOp, elt,
                   ranked)

_UNARY_TRAITS = (T.Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType) + \
    ELEMENTWISE
_BINARY_TRAITS = (T.Pure, SameOperandsAndResultElementType) + ELEMENTWISE
_COMMUTATIVE = (T.Commutative,)


class _Unary(TosaOp):
    __slots__ = ()
    traits = _UNARY_TRAITS
    input1 = Operand(B.Tensor)
    output = Result(B.Tensor)


class _UnaryF(TosaOp):
    __slots__ = ()
    traits = _UNARY_TRAITS
    input1 = Operand(B.FloatTensor)
    output = Result(B.FloatTensor)


class _Activation(TosaOp):
    __slots__ = ()
    traits = _UNARY_TRAITS
    input = Operand(B.Tensor)
    output = Result(B.Tensor)


class AbsOp(_Unary):
    """`%r = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.abs"


class BitwiseNotOp(_Unary):
    """`%r = tosa.bitwise_not %x : (tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.bitwise_not"


class CeilOp(_Unary):
    """`%r = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.ceil"


class ClzOp(_Unary):
    """`%r = tosa.clz %x : (tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.clz"


class CosOp(_UnaryF):
    """`%r = tosa.cos %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.cos"


class ExpOp(_Unary):
    """`%r = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.exp"


class FloorOp(_Unary):
    """`%r = tosa.floor %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.floor"


class LogOp(_Unary):
    """`%r = tosa.log %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.log"


class LogicalNotOp(TosaOp):
    """`%r = tosa.logical_not %x : (tensor<4xi1>) -> tensor<4xi1>`"""
    name = "tosa.logical_not"
    traits = _UNARY_TRAITS
    input1 = Operand(B.I1Tensor)
    output = Result(B.I1Tensor)


class ReciprocalOp(_Unary):
    """`%r = tosa.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.reciprocal"


class RsqrtOp(_Unary):
    """`%r = tosa.rsqrt %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.rsqrt"


class SinOp(_UnaryF):
    """`%r = tosa.sin %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.sin"


class ErfOp(_Activation):
    """`%r = tosa.erf %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.erf"


class SigmoidOp(_Activation):
    """`%r = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.sigmoid"


class TanhOp(_Activation):
    """`%r = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.tanh"


class ClampOp(TosaOp):
    """`%r = tosa.clamp %x min_val(0.0 : f32) max_val(6.0 : f32) : (tensor<4xf32>) ->
    tensor<4xf32>`"""

    name = "tosa.clamp"
    traits = _UNARY_TRAITS
    input = Operand(B.Tensor)
    min_val = Prop(B.IntOrFloatAttr)
    max_val = Prop(B.IntOrFloatAttr)
    nan_mode = B.nan_mode_prop()
    output = Result(B.Tensor)

    def verify_op(self):
        et = elt(self.input.type)
        if et is not elt(self.output.type):
            return "input/output element types are incompatible."
        lo, hi = self.min_val, self.max_val
        bad = "min/max attributes types are incompatible with input/output element types."
        if type(et) is A.IntegerType:
            if type(lo) is not A.IntegerAttr or type(hi) is not A.IntegerAttr or \
                    lo.type is not hi.type or hi.type is not et:
                return bad
            w = et.width
            unsigned = et.signedness == A.IntegerType.UNSIGNED or w == 1
            a, b = lo.value, hi.value
            if unsigned:
                a, b = a % (1 << w), b % (1 << w)
            if b < a:
                return f"expected min_val <= max_val, got min_val={lo}, max_val={hi}"
            return None
        if type(lo) is not A.FloatAttr or type(hi) is not A.FloatAttr or \
                lo.type is not hi.type or hi.type is not et:
            return bad
        if lo.value != lo.value or hi.value != hi.value:
            return (f"min/max attributes should not be 'NaN', got min_val={lo}, "
                    f"max_val={hi}")
        if hi.value < lo.value:
            return f"expected min_val <= max_val, got min_val={lo}, max_val={hi}"
        return None


class NegateOp(TosaOp):
    """`%r = tosa.negate %x, %in_zp, %out_zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>)
    -> tensor<4xi8>`"""

    name = "tosa.negate"
    traits = (T.NoMemoryEffect,)
    input1 = Operand(B.Tensor)
    input1_zp = Operand(B.ScalarIntOrFloatTensor)
    output_zp = Operand(B.ScalarIntOrFloatTensor)
    output = Result(B.Tensor)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        err = B.same_element_types(it, ot)
        if err:
            return err
        if not B.compatible_types(it, ot):
            return "requires the same shape for input1 and output"
        return (B.zp_type_error(elt(it), self.input1_zp, "input1") or
                B.zp_type_error(elt(ot), self.output_zp, "output") or
                B.zp_value_errors(((self.input1_zp, "Input1"), (self.output_zp, "Output"))))


# ---------------------------------------------------------------- binary


class _Binary(TosaOp):
    __slots__ = ()
    traits = _BINARY_TRAITS
    input1 = Operand(B.Tensor)
    input2 = Operand(B.Tensor)
    output = Result(B.Tensor)


class AddOp(_Binary):
    """`%r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>`"""
    name = "tosa.add"
    traits = _BINARY_TRAITS + _COMMUTATIVE


class SubOp(_Binary):
    """`%r = tosa.sub %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.sub"


class PowOp(_Binary):
    """`%r = tosa.pow %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.pow"


class BitwiseAndOp(_Binary):
    """`%r = tosa.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.bitwise_and"
    traits = _BINARY_TRAITS + _COMMUTATIVE


class BitwiseOrOp(_Binary):
    """`%r = tosa.bitwise_or %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.bitwise_or"
    traits = _BINARY_TRAITS + _COMMUTATIVE


class BitwiseXorOp(_Binary):
    """`%r = tosa.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.bitwise_xor"
    traits = _BINARY_TRAITS + _COMMUTATIVE


class LogicalLeftShiftOp(_Binary):
    """`%r = tosa.logical_left_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) ->
    tensor<4xi32>`"""
    name = "tosa.logical_left_shift"


class LogicalRightShiftOp(_Binary):
    """`%r = tosa.logical_right_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) ->
    tensor<4xi32>`"""
    name = "tosa.logical_right_shift"


class ArithmeticRightShiftOp(_Binary):
    """`%r = tosa.arithmetic_right_shift %a, %b round(true) : (tensor<4xi32>,
    tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.arithmetic_right_shift"
    round = B.bool_prop()


class IntDivOp(TosaOp):
    """`%r = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`"""
    name = "tosa.intdiv"
    traits = _BINARY_TRAITS
    input1 = Operand(B.Int32Or64Tensor)
    input2 = Operand(B.Int32Or64Tensor)
    output = Result(B.Int32Or64Tensor)


class _Logical(TosaOp):
    __slots__ = ()
    traits = _BINARY_TRAITS + _COMMUTATIVE
    input1 = Operand(B.I1Tensor)
    input2 = Operand(B.I1Tensor)
    output = Result(B.I1Tensor)


class LogicalAndOp(_Logical):
    """`%r = tosa.logical_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>`"""
    name = "tosa.logical_and"


class LogicalOrOp(_Logical):
    """`%r = tosa.logical_or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>`"""
    name = "tosa.logical_or"


class LogicalXorOp(_Logical):
    """`%r = tosa.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>`"""
    name = "tosa.logical_xor"


class MaximumOp(_Binary):
    """`%r = tosa.maximum %a, %b nan_mode<IGNORE> : (tensor<4xf32>, tensor<4xf32>) ->
    tensor<4xf32>`"""
    name = "tosa.maximum"
    traits = _BINARY_TRAITS + _COMMUTATIVE
    nan_mode = B.nan_mode_prop()


class MinimumOp(_Binary):
    """`%r = tosa.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`"""
    name = "tosa.minimum"
    traits = _BINARY_TRAITS + _COMMUTATIVE
    nan_mode = B.nan_mode_prop()


class MulOp(TosaOp):
    """`%r = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) ->
    tensor<4xi32>` (the shift applies to i32 data only)"""

    name = "tosa.mul"
    # not Commutative (upstream's is not: the shift operand is the third)
    traits = (T.NoMemoryEffect,)
    input1 = Operand(B.Tensor)
    input2 = Operand(B.Tensor)
    shift = Operand(B.ScalarInt8Tensor)
    output = Result(B.Tensor)

    def verify_op(self):
        a, b, rt = self.input1.type, self.input2.type, self.output.type
        re = elt(rt)
        if type(re) is A.IntegerType:
            la, lb = elt(a), elt(b)
            if type(la) is not A.IntegerType or la is not lb:
                return "requires the same element type for all operands"
            if la.width > re.width:
                return "invalid data type size for operands or result"
        else:
            if elt(a) is not re or elt(b) is not re:
                return "requires the same element type for all operands and results"
            c = B.const_elements(self.shift)
            if c is not None and c.num_elements and int(c.array.reshape(-1)[0]) != 0:
                return "require shift to be 0 for float type"
        expected = None
        if ranked(a) and ranked(b):
            if a.rank != b.rank:
                return f"a and b operands don't have matching ranks, got {a.rank} and {b.rank}"
            expected = B.broadcast_shapes(a.shape, b.shape)
            if expected is None:
                return (f"a and b operands don't have broadcast-compatible shapes, got "
                        f"'{a}' and '{b}'")
        if not ranked(rt):
            return None
        if ranked(a) and rt.rank != a.rank:
            return f"result type has different rank than a, got {rt.rank} vs {a.rank}"
        if ranked(b) and rt.rank != b.rank:
            return f"result type has different rank than b, got {rt.rank} vs {b.rank}"
        if expected is not None:
            return B.output_shape_error(rt.shape, expected)
        return None


class SelectOp(TosaOp):
    """`%r = tosa.select %pred, %t, %f : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) ->
    tensor<4xf32>`"""

    name = "tosa.select"
    traits = (T.Pure,) + ELEMENTWISE
    input1 = Operand(B.I1Tensor)
    input2 = Operand(B.Tensor)
    input3 = Operand(B.Tensor)
    output = Result(B.Tensor)

    def verify_op(self):
        ot = self.output.type
        return (B.same_element_types(self.input2.type, ot) or
                B.same_element_types(self.input3.type, ot))


# ---------------------------------------------------------------- comparisons


class _Compare(TosaOp):
    __slots__ = ()
    traits = (T.Pure, SameOperandsElementType) + ELEMENTWISE
    input1 = Operand(B.Tensor)
    input2 = Operand(B.Tensor)
    output = Result(B.I1Tensor)


class EqualOp(_Compare):
    """`%r = tosa.equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>`"""
    name = "tosa.equal"
    traits = (T.Pure, T.Commutative, SameOperandsElementType) + ELEMENTWISE
    infers_type = True

    def inferred_types(self):
        shape = []
        for o in self._operands:
            t = o.value.type
            if not ranked(t):
                return [A.UnrankedTensorType(A.i1)]
            shape = B.resolve_broadcast(shape, t.shape)
            if shape is None:
                return [A.UnrankedTensorType(A.i1)]
        return [A.RankedTensorType(shape, A.i1)]

    @staticmethod
    def compatible_return(inferred, actual):
        return B.compatible_types(inferred, actual)


class GreaterOp(_Compare):
    """`%r = tosa.greater %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`"""
    name = "tosa.greater"


class GreaterEqualOp(_Compare):
    """`%r = tosa.greater_equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`"""
    name = "tosa.greater_equal"


# ---------------------------------------------------------------- conversions


class CastOp(TosaOp):
    """`%r = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>`"""

    name = "tosa.cast"
    traits = (T.Pure, SameOperandsAndResultShape)
    input = Operand(B.Tensor)
    input_unsigned = B.bool_prop(optional=True)
    output = Result(B.Tensor)

    def verify_op(self):
        u = self.properties.get("input_unsigned")
        if u is not None and u.value:
            et = elt(self.input.type)
            if type(et) is not A.IntegerType:
                return f"attribute input_unsigned requires integer type inputs. Got: '{et}'"
        return None


class RescaleOp(TosaOp):
    """`%r = tosa.rescale %x, %mult, %shift, %in_zp, %out_zp scale32(true)
    rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false)
    output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>,
    tensor<1xi8>) -> tensor<4xi8>`"""

    name = "tosa.rescale"
    traits = (T.NoMemoryEffect,)
    input = Operand(B.Tensor)
    multiplier = Operand(B.Int16Or32Tensor1D)
    shift = Operand(B.Int8Tensor1D)
    input_zp = Operand(B.ScalarIntOrFloatTensor)
    output_zp = Operand(B.ScalarIntOrFloatTensor)
    scale32 = B.bool_prop()
    rounding_mode = Prop(B.RoundingModeAttr, fmt=StrippedAttr("tosa", "rounding_mode"))
    per_channel = B.bool_prop()
    input_unsigned = B.bool_prop()
    output_unsigned = B.bool_prop()
    output = Result(B.Tensor)

    def verify_op(self):
        it, ot = self.input.type, self.output.type
        ie, oe = elt(it), elt(ot)
        if type(ie) is not A.IntegerType:
            return f"expect input to have integer element type, got '{ie}'"
        if type(oe) is not A.IntegerType:
            return f"expect output to have integer element type, got '{oe}'"
        for v, zp, what in ((self.input, self.input_zp, "input"),
                            (self.output, self.output_zp, "output")):
            e, ze = elt(v.type), elt(zp.type)
            if type(e) is not A.IntegerType or type(ze) is not A.IntegerType or \
                    e.width != ze.width:
                return (f"expected {what} and {what}_zp to both be integer of the same "
                        f"bitwidth, but got '{e}' vs. '{ze}'")
        for zpv, what, unsigned in ((self.input_zp, "input", self.input_unsigned.value),
                                    (self.output_zp, "output", self.output_unsigned.value)):
            zp = B.zero_point(zpv)
            if zp is None:
                continue
            ze = elt(zpv.type)
            if unsigned and type(ze) is A.IntegerType:
                zp %= 1 << ze.width
            if zp != 0:
                u16 = ze is A.i16 and unsigned
                if ze is not A.i8 and not u16:
                    return f"expect {what}_zp of 0, got {zp}"
                if u16 and zp != 32768:
                    return (f"expect {what}_zp of 0 or 32768 for unsigned int16 {what}, "
                            f"got {zp}")
        mt = self.multiplier.type
        if self.scale32.value and elt(mt) is not A.i32:
            return f"expect i32 element type for multiplier for scale32=true, got '{elt(mt)}'"
        if not self.scale32.value and elt(mt) is not A.i16:
            return (f"expect i16 element type for multiplier for scale32=false, got "
                    f"'{elt(mt)}'")
        if not ranked(it):
            return None
        channels = 1
        if self.per_channel.value:
            if it.rank < 1:
                return (f"requires input to be at least rank 1 when per_channel is true, "
                        f"but got rank {it.rank}")
            channels = it.shape[-1]
        if ranked(ot):
            err = B.output_shape_error(ot.shape, it.shape)
            if err:
                return err
        for v, what in ((self.multiplier, "multiplier"), (self.shift, "shift")):
            t = v.type
            if ranked(t) and t.shape[0] != B.DYN and t.shape[0] != channels:
                return (f"expect shape of {{ {channels} }} for {what} input, got "
                        f"{{ {t.shape[0]} }}")
        return None


class TableOp(TosaOp):
    """`%r = tosa.table %x, %table : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>`"""

    name = "tosa.table"
    traits = (T.NoMemoryEffect,)
    input1 = Operand(B.Tensor)
    table = Operand(B.Tensor1D)
    output = Result(B.Tensor)

    def verify_op(self):
        it, ot = self.input1.type, self.output.type
        if not ranked(it) or not ranked(ot):
            return None
        err = B.ranks_match(it, ot, "input", "result")
        if err:
            return err
        for i, (a, b) in enumerate(zip(it.shape, ot.shape)):
            if b != B.DYN and a != b:
                return f"dim(result, {i}) = {b} doesn't match dim(input, {i}) = {a}"
        return None


def _int_like(t):
    if isinstance(t, A.ShapedType):
        t = t.element_type
    return B.is_int(t)


class ApplyScaleOp(TosaOp):
    """`%r = tosa.apply_scale %v, %m, %s rounding_mode<SINGLE_ROUND> : (i32, i32, i8) ->
    i32` (scalar, vector or tensor)"""

    name = "tosa.apply_scale"
    traits = (T.Pure, T.ElementwiseMappable)
    value = Operand(C.Constraint(_int_like, "signless-integer-like"))
    multiplier = Operand(C.Constraint(_int_like, "signless-integer-like"))
    shift = Operand(C.Constraint(
        lambda t: elt(t) is A.i8, "signless-integer-8-bit-like"))
    rounding_mode = Prop(B.RoundingModeAttr, fmt=StrippedAttr("tosa", "rounding_mode"))
    output = Result(C.Constraint(_int_like, "signless-integer-like"))


OPS = [AbsOp, BitwiseNotOp, CeilOp, ClzOp, CosOp, ExpOp, FloorOp, LogOp, LogicalNotOp,
       ReciprocalOp, RsqrtOp, SinOp, ErfOp, SigmoidOp, TanhOp, ClampOp, NegateOp, AddOp,
       SubOp, PowOp, BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, LogicalLeftShiftOp,
       LogicalRightShiftOp, ArithmeticRightShiftOp, IntDivOp, LogicalAndOp, LogicalOrOp,
       LogicalXorOp, MaximumOp, MinimumOp, MulOp, SelectOp, EqualOp, GreaterOp,
       GreaterEqualOp, CastOp, RescaleOp, TableOp, ApplyScaleOp]
