"""The arith dialect: integer and floating-point arithmetic, comparisons, casts."""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.enum_attr import EnumAttr, EnumAttrKind
from ..ir.ods import Op, Operand, Prop, Result
from ..syntax.asm_format import EnumFmt, StrippedAttr, install_format

FASTMATH = EnumAttrKind("arith", "fastmath",
                        ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"],
                        bit=True, none="none",
                        groups={"fast": ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract",
                                         "afn"]})
# Upstream prints overflow flags with ", " but fastmath flags with ",".
OVERFLOW = EnumAttrKind("arith", "overflow", ["nsw", "nuw"], bit=True, none="none",
                        separator=", ")
ROUNDING = EnumAttrKind("arith", "roundingmode",
                        ["to_nearest_even", "downward", "upward", "toward_zero",
                         "to_nearest_away"])
ATTR_KINDS = {k.mnemonic: k for k in (FASTMATH, OVERFLOW, ROUNDING)}

CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "true"]


def _parse_attribute(p, mnemonic):
    kind = ATTR_KINDS.get(mnemonic)
    if kind is None:
        p.error(f"unknown attribute `{mnemonic}` in dialect `arith`")
    return kind.parse_body(p)


def _fastmath_prop():
    pr = Prop(C.Constraint(lambda a: isinstance(a, EnumAttr) and a.kind is FASTMATH,
                           "Floating point fast math flags"), default=FASTMATH("none"))
    pr.fmt = StrippedAttr("arith", "fastmath")
    return pr


def _overflow_prop():
    pr = Prop(C.Constraint(lambda a: isinstance(a, EnumAttr) and a.kind is OVERFLOW,
                           "Integer overflow arith flags"), default=OVERFLOW("none"))
    pr.fmt = StrippedAttr("arith", "overflow")
    return pr


class ArithOp(Op):
    # Default-valued flag properties are always materialized upstream, so the generic
    # form prints them even when the custom form omits them.
    _stored_defaults = ()


class _IntBinary(ArithOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(C.SignlessIntegerLike)
    rhs = Operand(C.SignlessIntegerLike)
    result = Result(C.SignlessIntegerLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($result)"


class _IntBinaryOverflow(_IntBinary):
    overflowFlags = _overflow_prop()
    assembly = ("$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` "
                "type($result)")
    _stored_defaults = (("overflowFlags", OVERFLOW("none")),)


class _FloatBinary(ArithOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(C.FloatLike)
    rhs = Operand(C.FloatLike)
    fastmath = _fastmath_prop()
    result = Result(C.FloatLike)
    assembly = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)


class AddIOp(_IntBinaryOverflow):
    """`%r = arith.addi %a, %b : i32`"""
    name = "arith.addi"
    traits = _IntBinary.traits + (T.Commutative,)


class SubIOp(_IntBinaryOverflow):
    name = "arith.subi"


class MulIOp(_IntBinaryOverflow):
    name = "arith.muli"
    traits = _IntBinary.traits + (T.Commutative,)


class AddFOp(_FloatBinary):
    """`%r = arith.addf %a, %b fastmath<fast> : f32`"""
    name = "arith.addf"
    traits = _FloatBinary.traits + (T.Commutative,)


class SubFOp(_FloatBinary):
    name = "arith.subf"


class MulFOp(_FloatBinary):
    name = "arith.mulf"
    traits = _FloatBinary.traits + (T.Commutative,)


class DivFOp(_FloatBinary):
    name = "arith.divf"


def _i1_like(t):
    if isinstance(t, A.VectorType):
        return A.VectorType(t.shape, A.i1, t.scalable_dims)
    if isinstance(t, A.RankedTensorType):
        return A.RankedTensorType(t.shape, A.i1)
    if isinstance(t, A.UnrankedTensorType):
        return A.UnrankedTensorType(A.i1)
    return A.i1


class CmpIOp(ArithOp):
    """`%r = arith.cmpi slt, %a, %b : i32`"""
    name = "arith.cmpi"
    traits = (T.Pure, T.SameTypeOperands, T.ElementwiseMappable)
    predicate = Prop(C.I64Attr)
    predicate.fmt = EnumFmt(CMPI_PREDICATES)
    lhs = Operand(C.SignlessIntegerLike)
    rhs = Operand(C.SignlessIntegerLike)
    result = Result(C.BoolLike)
    assembly = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [_i1_like(operands[0].type)]


class CmpFOp(ArithOp):
    """`%r = arith.cmpf olt, %a, %b : f32`"""
    name = "arith.cmpf"
    traits = (T.Pure, T.SameTypeOperands, T.ElementwiseMappable)
    predicate = Prop(C.I64Attr)
    predicate.fmt = EnumFmt(CMPF_PREDICATES)
    lhs = Operand(C.FloatLike)
    rhs = Operand(C.FloatLike)
    fastmath = _fastmath_prop()
    result = Result(C.BoolLike)
    assembly = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` "
                "type($lhs)")
    _stored_defaults = (("fastmath", FASTMATH("none")),)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [_i1_like(operands[0].type)]


class ConstantOp(ArithOp):
    """`%c = arith.constant 42 : i32`"""
    name = "arith.constant"
    traits = (T.Pure, T.ConstantLike)
    value = Prop(C.TypedAttr)
    result = Result()

    @staticmethod
    def parse(p, st):
        p.parse_optional_attr_dict(st)
        a = p.parse_attribute()
        st.properties["value"] = a
        t = getattr(a, "type", None)
        if t is None:
            p.error("expected a typed attribute for arith.constant")
        st.types.append(t)

    def print(self, pr):
        out = pr.out
        out.append("arith.constant")
        pr.print_optional_attr_dict(self.attributes)
        v = self.properties["value"]
        out.append(" ")
        out.append(pr.attr_str(v))

    def asm_result_names(self):
        v = self.properties.get("value")
        t = self.results[0].type
        if type(v) is A.IntegerAttr:
            if type(t) is A.IntegerType:
                if t.width == 1:
                    return ["true" if v.value else "false"]
                return [f"c{v.value}_{t}"]
            if type(t) is A.IndexType:
                return [f"c{v.value}"]
        return ["cst"]

    def verify_(self):
        v = self.properties["value"]
        t = self.results[0].type
        if getattr(v, "type", None) is not t:
            return "failed to verify that all of {value, result} have same type"
        if isinstance(t, A.IntegerType) and not t.is_signless:
            return "integer return type must be signless"
        return None


for _c in (AddIOp, SubIOp, MulIOp, AddFOp, SubFOp, MulFOp, DivFOp, CmpIOp, CmpFOp):
    install_format(_c)

ARITH = Dialect("arith", [AddIOp, SubIOp, MulIOp, AddFOp, SubFOp, MulFOp, DivFOp, CmpIOp,
                          CmpFOp, ConstantOp],
                parse_attribute=_parse_attribute)
