"""The arith dialect: integer and floating-point arithmetic, comparisons, casts.

Every op of upstream MLIR's arith dialect, with its properties, traits, custom form and
verifier, and a `fold(self, operands)` that follows upstream's folder (see
[Note: fold results] in constant_fold.py for the contract).

[Note: verification order]
Upstream checks an op's properties, operand and result constraints, then the predicate
traits (AllTypesMatch, TypesMatchWith, "input and output have the same tensor
dimensions"...), then its native traits in declaration order (SameOperandsAndResultShape,
the cast-compatibility check of CastOpInterface, Elementwise), then the custom verifier.
The `traits` tuples below list the checking traits in that order, so that an op wrong in
several ways reports the error upstream reports.
"""
from __future__ import annotations

import math

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import dense as D
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.enum_attr import EnumAttr, EnumAttrKind
from ..ir.ods import Op, Operand, Prop, Result
from ..syntax.asm_format import (EnumFmt, StrippedAttr, UnitKeyword, custom_op_prefix,
                                 install_format, parse_strict_attr_dict)
from . import constant_fold as CF

# ---------------------------------------------------------------------------- attributes

FASTMATH = EnumAttrKind("arith", "fastmath",
                        ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"],
                        bit=True, none="none",
                        groups={"fast": ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract",
                                         "afn"]},
                        cpp_name="::mlir::arith::FastMathFlags")
# Upstream prints overflow flags with ", " but fastmath flags with ",".
OVERFLOW = EnumAttrKind("arith", "overflow", ["nsw", "nuw"], bit=True, none="none",
                        separator=", ", cpp_name="::mlir::arith::IntegerOverflowFlags")
ATTR_KINDS = {k.mnemonic: k for k in (FASTMATH, OVERFLOW)}

# Integer enums (I64EnumAttr / I32EnumAttr upstream): stored as integer attributes, printed
# as keywords by the custom forms. The index of a name is its value.
CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "true"]
ROUNDING_MODES = ["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"]


def _parse_attribute(p, mnemonic):
    kind = ATTR_KINDS.get(mnemonic)
    if kind is None:
        p.error(f"unknown attribute `{mnemonic}` in dialect `arith`")
    return kind.parse_body(p)


def _is_enum(a, kind):
    return isinstance(a, EnumAttr) and a.kind is kind


def _fastmath_prop(default=True):
    """Fast-math flags: DefaultValuedAttr (always materialized, `none` elided) on most
    float ops, OptionalAttr (absent unless written) on extf/truncf/convertf/scaling."""
    pr = Prop(C.Constraint(lambda a: _is_enum(a, FASTMATH), "Floating point fast math flags"),
              default=FASTMATH("none") if default else None, optional=not default)
    pr.fmt = StrippedAttr("arith", "fastmath")
    return pr


def _overflow_prop():
    pr = Prop(C.Constraint(lambda a: _is_enum(a, OVERFLOW), "Integer overflow arith flags"),
              default=OVERFLOW("none"))
    pr.fmt = StrippedAttr("arith", "overflow")
    return pr


def _unit_prop():
    return Prop(C.UnitAttrC, optional=True, fmt=UnitKeyword())


def _int_enum_prop(names, width, summary, what, optional=False):
    t = A.IntegerType(width)
    pr = Prop(C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is t
                           and 0 <= a.value < len(names), summary), optional=optional)
    pr.fmt = EnumFmt(names, t, what)
    return pr


def _rounding_prop():
    return _int_enum_prop(ROUNDING_MODES, 32, "Floating point rounding mode", "roundingmode",
                          optional=True)


def _flags(op, name):
    """The set flags of a bit-enum property, group names (`fast`) expanded."""
    a = op.properties.get(name)
    if a is None:
        return frozenset()
    groups = a.kind.groups
    return frozenset(f for g in a.flags for f in groups.get(g, (g,)))


# ---------------------------------------------------------------------------- constraints


def _nz_int(t):
    return type(t) is A.IntegerType and t.signedness == 0 and t.width > 0


def _nz_int_or_index(t):
    return _nz_int(t) or type(t) is A.IndexType


def _like(scalar):
    """The scalar, or a vector (any rank) or tensor (ranked or not) of it."""
    def check(t):
        if isinstance(t, (A.VectorType, A.RankedTensorType, A.UnrankedTensorType)):
            return scalar(t.element_type)
        return scalar(t)
    return check


def _memref_of(scalar):
    return lambda t: type(t) is A.MemRefType and scalar(t.element_type)


def _is_float(t):
    return type(t) is A.FloatType


SignlessIntLike = C.Constraint(_like(_nz_int_or_index), "signless-non-zero-bitwidth-integer-like")
FixedIntLike = C.Constraint(_like(_nz_int), "signless-fixed-width-integer-like")
FloatLike = C.Constraint(_like(_is_float), "floating-point-like")
BoolLike = C.Constraint(_like(lambda t: t is A.i1), "bool-like")
IndexCastType = C.Constraint(
    lambda t: _like(_nz_int_or_index)(t) or _memref_of(
        lambda e: (type(e) is A.IntegerType and e.signedness == 0) or type(e) is A.IndexType)(t),
    "signless-non-zero-bitwidth-integer-like or memref of signless-integer")
BitcastType = C.Constraint(
    lambda t: _like(lambda e: _nz_int(e) or _is_float(e))(t)
    or _memref_of(lambda e: _nz_int(e) or _is_float(e))(t),
    "non-zero-bitwidth-signless-integer-or-float-like or memref of non-zero-bitwidth "
    "signless integer or float")
TypedAttrC = C.Constraint(lambda a: isinstance(a, A.Attribute) and hasattr(a, "type")
                          and not isinstance(a, A.Type), "TypedAttr instance")


# ---------------------------------------------------------------------------- traits


def i1_like(t):
    """The i1 type of the same shape: i1, vector<4xi1>, tensor<?xi1>, tensor<*xi1>."""
    if isinstance(t, A.VectorType):
        return A.VectorType(t.shape, A.i1, t.scalable_dims)
    if isinstance(t, A.RankedTensorType):
        return A.RankedTensorType(t.shape, A.i1, t.encoding)
    if isinstance(t, A.UnrankedTensorType):
        return A.UnrankedTensorType(A.i1)
    return A.i1


def _tensor_dims(t):
    if isinstance(t, A.RankedTensorType):
        return t.shape
    if isinstance(t, A.UnrankedTensorType):
        return object()  # an unranked tensor never passes this check upstream
    return ()


SameInputOutputTensorDims = T.PredTrait(
    "input and output have the same tensor dimensions",
    lambda op: _tensor_dims(op._operands[0].value.type) == _tensor_dims(op.results[0].type))
ResultIsI1OfOperandShape = T.PredTrait(
    "result type has i1 element type and same shape as operands",
    lambda op: i1_like(op._operands[0].value.type) is op.results[0].type)


def _cond_ok(op):
    c, r = op._operands[0].value.type, op.results[0].type
    if c is A.i1:
        return True
    if not (isinstance(c, A.ShapedType) and isinstance(r, A.ShapedType)):
        return False
    if not (c.has_rank and r.has_rank):
        return not (c.has_rank or r.has_rank)  # two unranked tensors pass upstream
    return c.shape == r.shape


BooleanConditionOrMatchingShape = T.PredTrait(
    "condition is signless i1 or has matching shape", _cond_ok)


def _valid_cast_pair(ins, outs):
    """areValidCastInputsAndOutputs: one to one, same tensor encoding, compatible shapes."""
    if len(ins) != 1 or len(outs) != 1:
        return False
    a, b = ins[0], outs[0]
    if type(a) is A.RankedTensorType and type(b) is A.RankedTensorType and \
            a.encoding is not b.encoding:
        return False
    return T.compatible_shapes(a, b)


def _underlying(t, classes, memref=False):
    """getTypeIfLike(OrMemRef): the element type of t when t (or its vector/tensor/memref
    container) holds one of `classes`, else None."""
    if isinstance(t, A.ShapedType):
        ok = (A.VectorType, A.RankedTensorType, A.UnrankedTensorType) + (
            (A.MemRefType, A.UnrankedMemRefType) if memref else ())
        if not isinstance(t, ok):
            return None
        t = t.element_type
    return t if isinstance(t, classes) else None


def _width_change(ins, outs, classes, cmp):
    if not _valid_cast_pair(ins, outs):
        return False
    s, d = _underlying(ins[0], classes), _underlying(outs[0], classes)
    return s is not None and d is not None and cmp(d.width, s.width)


def _wider(d, s):
    return d > s


def _narrower(d, s):
    return d < s


# ---------------------------------------------------------------------------- base classes


def _const_of(v):
    """The constant attribute of a value defined by arith.constant, else None."""
    d = v.defining_op
    return d.properties.get("value") if isinstance(d, ConstantOp) else None


def _def(v, cls):
    d = v.defining_op
    return d if isinstance(d, cls) else None


class ArithOp(Op):
    # Default-valued flag properties are always materialized upstream, so the generic
    # form prints them even when the custom form omits them.
    _stored_defaults = ()
    traits = (T.ElementwiseMappable,)

    def fold(self, operands):
        return None

    @classmethod
    def canonicalization_patterns(cls):
        # Declared in arith_canonicalize.py (imported here: it imports this module).
        from .arith_canonicalize import patterns_for
        return patterns_for(cls.name)


class _IntBinary(ArithOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(SignlessIntLike)
    rhs = Operand(SignlessIntLike)
    result = Result(SignlessIntLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($result)"

    @property
    def width(self):
        return CF.width_of(self.result.type)

    def fold_const(self, operands, fn):
        """Fold two constants with `fn(a, b, w)` on unsigned bit patterns of width w."""
        w = self.width
        return CF.fold_binary(operands, self.result.type, lambda a, b: fn(a, b, w))

    def zero(self):
        return CF.make_splat(A.IntegerAttr(0, CF.elem_type(self.result.type)),
                             self.result.type)


class _IntBinaryOverflow(_IntBinary):
    overflowFlags = _overflow_prop()
    assembly = ("$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` "
                "type($result)")
    _stored_defaults = (("overflowFlags", OVERFLOW("none")),)


class _IntBinaryExact(_IntBinary):
    isExact = _unit_prop()
    assembly = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)"


def _min_max(lhs_wins_at, rhs_wins_at, pick):
    """Folder of maxsi/maxui/minsi/minui: x op x, the absorbing and neutral constants."""
    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.rhs
        v = CF.int_splat(operands[1])
        if v is not None:
            w = self.width
            if CF.uint(v, w) == rhs_wins_at(w):
                return self.rhs
            if CF.uint(v, w) == lhs_wins_at(w):
                return self.lhs
        return self.fold_const(operands, pick)
    return fold


def _smax(w):
    return (1 << (w - 1)) - 1


def _smin(w):
    return 1 << (w - 1)


def _umax(w):
    return (1 << w) - 1


def _umin(w):
    return 0


def _float_is(a, pred):
    """Whether the float constant `a` (scalar or splat) satisfies `pred` on its value. The
    values tested (0, -0, 1, infinities, NaN) are doubles, so an f80 / f128 value that
    no double holds exactly (1 + 2^-63, a denormal) satisfies none."""
    s = CF.float_splat(a)
    if s is None:
        return False
    x, bits, t = s
    if not CF.foldable_float(t) and not CF.is_nan(x) and \
            CF.exact_key(A.FloatAttr(0.0, t, bits)) != x:
        return False
    return pred(x)


class _FloatBinary(ArithOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    lhs = Operand(FloatLike)
    rhs = Operand(FloatLike)
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    assembly = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)
    # A Python float operation for constant folding (see CF.float_binary_fn) and its
    # exact counterpart for f80 / f128 ([Note: exact float arithmetic]), or None.
    float_op = None
    exact_op = None

    def fold_const(self, operands, fn=None):
        fn = fn or CF.float_binary_fn(type(self).float_op, type(self).exact_op)
        return CF.fold_binary(operands, self.result.type, fn, "float")


class _FloatBinaryRounding(_FloatBinary):
    """addf/subf/mulf/divf also take an optional rounding mode."""

    roundingmode = _rounding_prop()
    assembly = ("$lhs `,` $rhs ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict "
                "`:` type($result)")

    def fold_const(self, operands, fn=None):
        # Only the default rounding is folded: the others would need directed rounding.
        rm = self.properties.get("roundingmode")
        if rm is not None and rm.value != 0:
            return None
        return super().fold_const(operands, fn)


class _FloatUnary(ArithOp):
    traits = (T.Pure, T.SameOperandsAndResultType, T.ElementwiseMappable)
    operand_ = Operand(FloatLike)  # upstream's `operand` ([Note: field names])
    fastmath = _fastmath_prop()
    result = Result(FloatLike)
    assembly = "$operand_ (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    _stored_defaults = (("fastmath", FASTMATH("none")),)


class _Cast(ArithOp):
    """Casts: one operand `in` (`in_` here: `in` is a Python keyword), one result `out`,
    same shape (Arith_CastOp)."""

    traits = (T.Pure, SameInputOutputTensorDims, T.SameOperandsAndResultShape,
              T.CastOpInterface, T.ElementwiseMappable)
    assembly = "$in_ attr-dict `:` type($in_) `to` type($out)"

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        return False

    @property
    def out_elem(self):
        return CF.elem_type(self.out.type)


# ---------------------------------------------------------------------------- constant


def _attr_type(a):
    """The type of a TypedAttr (an untyped string's is `none`), else None."""
    if isinstance(a, A.StringAttr) and a.type is None:
        return A.NoneType()
    t = getattr(a, "type", None)
    return t if isinstance(t, A.Type) else None


class ConstantOp(Op):
    """`%c = arith.constant 42 : i32`"""
    name = "arith.constant"
    value = Prop(TypedAttrC)
    result = Result()
    traits = (T.Pure, T.ConstantLike,
              T.PredTrait("all of {value, result} have same type",
                         lambda op: _attr_type(op.properties["value"]) is op.results[0].type))

    @staticmethod
    def parse(p, st):
        parse_strict_attr_dict(p, st)
        start = p.tok_start
        a = p.parse_attribute()
        t = _attr_type(a)
        if t is None:
            p.error(custom_op_prefix(p) + "invalid kind of attribute specified", start)
        st.properties["value"] = a
        st.types.append(t)

    def print(self, pr):
        out = pr.out
        out.append("arith.constant")
        pr.print_optional_attr_dict(self.attributes)
        out.append(" ")
        out.append(pr.attr_str(self.properties["value"]))

    def asm_result_names(self):
        v = self.properties.get("value")
        t = self.results[0].type
        if type(v) is A.IntegerAttr:
            if type(t) is A.IntegerType:
                if t.width == 1:
                    return ["true" if v.value else "false"]
                return [f"c{v.value}_{t}"]
            return [f"c{v.value}"]
        return ["cst"]

    def verify_(self):
        v = self.properties["value"]
        t = self.results[0].type
        e = CF.elem_type(t)
        if isinstance(e, A.IntegerType) and not e.is_signless:
            return "integer return type must be signless"
        if not isinstance(v, (A.IntegerAttr, A.FloatAttr, D.DenseElementsAttr,
                              D.DenseResourceElementsAttr, D.SparseElementsAttr)):
            return "value must be an integer, float, or elements attribute"
        if isinstance(t, A.VectorType) and any(t.scalable_dims) and not (
                isinstance(v, D.DenseElementsAttr) and v.is_splat):
            return ("initializing scalable vectors with elements attribute is not supported"
                    " unless it's a vector splat")
        return None

    def fold(self, operands):
        return self.properties["value"]

    @staticmethod
    def buildable_with(value, type) -> bool:
        """Whether `arith.constant value : type` is a valid op (isBuildableWith)."""
        if getattr(value, "type", None) is not type:
            return False
        e = CF.elem_type(type)
        if isinstance(e, A.IntegerType) and not e.is_signless:
            return False
        return isinstance(value, (A.IntegerAttr, A.FloatAttr, D.DenseElementsAttr))


def materialize_constant(builder, value, type, loc=None):
    """The dialect's constant materializer: an arith.constant for a folded attribute."""
    if not ConstantOp.buildable_with(value, type):
        return None
    return builder.create(ConstantOp, value=value, result=type, loc=loc)


# ---------------------------------------------------------------------------- integer ops


class AddIOp(_IntBinaryOverflow):
    """`%r = arith.addi %a, %b overflow<nsw> : i32`"""
    name = "arith.addi"
    traits = _IntBinary.traits + (T.Commutative,)

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.lhs
        sub = _def(self.lhs, SubIOp)
        if sub is not None and self.rhs is sub.rhs:  # (a - b) + b
            return sub.lhs
        sub = _def(self.rhs, SubIOp)
        if sub is not None and self.lhs is sub.rhs:  # b + (a - b)
            return sub.lhs
        return self.fold_const(operands, lambda a, b, w: a + b)


class _ExtendedBinary(ArithOp):
    """addui_extended / subui_extended: the N-bit result and an i1-like carry."""

    traits = (T.Pure, T.AllTypesMatch("lhs", "rhs", "sum"), T.ElementwiseMappable)
    lhs = Operand(SignlessIntLike)
    rhs = Operand(SignlessIntLike)

    def _fold_extended(self, operands, fn, carry):
        first, flag = self.results
        if CF.is_zero(operands[1]):
            f = CF.make_splat(A.BoolAttr(False), flag.type)
            return None if f is None else [self.lhs, f]
        w = CF.width_of(first.type)
        res = CF.fold_binary(operands, first.type, lambda a, b: fn(a, b, w))
        if res is None:
            return None
        c = CF.fold_binary(operands, flag.type, lambda a, b: int(carry(a, b, w)))
        return None if c is None else [res, c]


class AddUIExtendedOp(_ExtendedBinary):
    """`%sum, %overflow = arith.addui_extended %a, %b : i32, i1`"""
    name = "arith.addui_extended"
    traits = _ExtendedBinary.traits + (T.Commutative,)
    sum = Result(SignlessIntLike)
    overflow = Result(BoolLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type, i1_like(operands[0].type)]

    def asm_result_names(self):
        return ["sum", "overflow"]

    def fold(self, operands):
        return self._fold_extended(operands, lambda a, b, w: a + b,
                                   lambda a, b, w: a + b >= 1 << w)


class SubUIExtendedOp(_ExtendedBinary):
    """`%diff, %borrow = arith.subui_extended %a, %b : i32, i1`"""
    name = "arith.subui_extended"
    traits = (T.Pure, T.AllTypesMatch("lhs", "rhs", "diff"), T.ElementwiseMappable)
    diff = Result(SignlessIntLike)
    borrow = Result(BoolLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($diff) `,` type($borrow)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type, i1_like(operands[0].type)]

    def asm_result_names(self):
        return ["diff", "borrow"]

    def fold(self, operands):
        if self.lhs is self.rhs:  # x - x: 0, no borrow
            t = self.diff.type
            zero = CF.make_splat(A.IntegerAttr(0, CF.elem_type(t)), t)
            no = CF.make_splat(A.BoolAttr(False), self.borrow.type)
            return None if zero is None or no is None else [zero, no]
        return self._fold_extended(operands, lambda a, b, w: a - b, lambda a, b, w: a < b)


class SubIOp(_IntBinaryOverflow):
    """`%r = arith.subi %a, %b : i32`"""
    name = "arith.subi"

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.zero()
        if CF.is_zero(operands[1]):
            return self.lhs
        add = _def(self.lhs, AddIOp)
        if add is not None:
            if self.rhs is add.rhs:  # (a + b) - b
                return add.lhs
            if self.rhs is add.lhs:  # (a + b) - a
                return add.rhs
        return self.fold_const(operands, lambda a, b, w: a - b)


class MulIOp(_IntBinaryOverflow):
    """`%r = arith.muli %a, %b : i32`"""
    name = "arith.muli"
    traits = _IntBinary.traits + (T.Commutative,)

    def asm_result_names(self):
        # `%c4_vscale` for index `4 * vector.vscale` (matched by name, as upstream).
        if type(self.result.type) is not A.IndexType:
            return None
        for c, v in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            k = _const_of(c)
            d = v.defining_op
            if type(k) is A.IntegerAttr and d is not None and d.name == "vector.vscale":
                return [f"c{k.value}_vscale"]
        return None

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.rhs
        if CF.is_one(operands[1]):
            return self.lhs
        return self.fold_const(operands, lambda a, b, w: a * b)


class _MulExtended(ArithOp):
    traits = (T.Pure, T.AllTypesMatch("lhs", "rhs", "low", "high"), T.ElementwiseMappable)
    lhs = Operand(SignlessIntLike)
    rhs = Operand(SignlessIntLike)
    low = Result(SignlessIntLike)
    high = Result(SignlessIntLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($lhs)"
    signed = False

    def asm_result_names(self):
        return ["low", "high"]

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return [operands[1], operands[1]]
        t = self.low.type
        w = CF.width_of(t)
        lo = CF.fold_binary(operands, t, lambda a, b: a * b)
        if lo is None:
            return None
        if self.signed:
            def high(a, b):
                return (CF.sint(a, w) * CF.sint(b, w)) >> w
        else:
            def high(a, b):
                return (a * b) >> w
        return [lo, CF.fold_binary(operands, t, high)]


class MulSIExtendedOp(_MulExtended):
    """`%low, %high = arith.mulsi_extended %a, %b : i32`"""
    name = "arith.mulsi_extended"
    traits = _MulExtended.traits + (T.Commutative,)
    signed = True


class MulUIExtendedOp(_MulExtended):
    """`%low, %high = arith.mului_extended %a, %b : i32`"""
    name = "arith.mului_extended"
    traits = _MulExtended.traits + (T.Commutative,)

    def fold(self, operands):
        if CF.is_one(operands[1]) and not CF.is_zero(operands[1]):
            zero = CF.make_splat(A.IntegerAttr(0, CF.elem_type(self.lhs.type)), self.lhs.type)
            return None if zero is None else [self.lhs, zero]
        return super().fold(operands)


def _fold_div_mul(op, flag):
    """(a * b) / b -> a when the multiplication cannot wrap (`flag` set on it)."""
    mul = _def(op.lhs, MulIOp)
    if mul is None or flag not in _flags(mul, "overflowFlags"):
        return None
    if mul.lhs is op.rhs:
        return mul.rhs
    if mul.rhs is op.rhs:
        return mul.lhs
    return None


def _sdiv(a, b):
    """Signed division rounding toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class _Division(_IntBinary):
    # Division by zero (and signed overflow) is undefined behaviour: not speculatable.
    traits = (T.NoMemoryEffect, T.SameOperandsAndResultType, T.ElementwiseMappable)
    is_remainder = False
    # Signed division also overflows for INT_MIN / -1 (upstream's divsi/ceildivsi).
    minus_one_unsafe = False

    def speculatability(self) -> str:
        """ConditionallySpeculatable (passes/licm.py): safe to run anywhere only with a
        constant divisor that is not zero (nor -1 where that overflows)."""
        c = self.rhs.defining_op
        d = c._props.get("value") if c is not None and T.ConstantLike in c.traits else None
        v = CF.int_splat(d) if d is not None else None
        if v is None or v == 0 or (self.minus_one_unsafe and CF.is_all_ones(d)):
            return "not"
        return "speculatable"

    def fold_trivial(self, operands):
        """0 / x = 0 % x = 0; x / x = 1 and x % x = 0 (x = 0 is undefined anyway). As
        upstream, 0 / x is the zero operand itself but 0 % x a new zero constant (which
        decides where the greedy driver leaves the constants)."""
        if CF.is_zero(operands[0]):
            return self.zero() if self.is_remainder else self.lhs
        if not self.is_remainder and CF.is_one(operands[1]):
            return self.lhs  # x / 1 before x / x: 1 / 1 is the operand, as upstream
        if self.lhs is self.rhs:
            if self.is_remainder:
                return self.zero()
            t = self.result.type
            return CF.make_splat(A.IntegerAttr(1, CF.elem_type(t)), t)
        return None


class DivUIOp(_IntBinaryExact, _Division):
    """`%r = arith.divui %a, %b exact : i32`"""
    name = "arith.divui"
    traits = _Division.traits

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.lhs
        v = _fold_div_mul(self, "nuw")
        if v is not None:
            return v
        return self.fold_const(operands, lambda a, b, w: a // b if b else None)


class DivSIOp(_IntBinaryExact, _Division):
    """`%r = arith.divsi %a, %b : i32`"""
    name = "arith.divsi"
    traits = _Division.traits
    minus_one_unsafe = True

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.lhs
        v = _fold_div_mul(self, "nsw")
        if v is not None:
            return v

        def fn(a, b, w):
            a, b = CF.sint(a, w), CF.sint(b, w)
            if b == 0 or (b == -1 and a == -(1 << (w - 1))):
                return None
            return _sdiv(a, b)
        return self.fold_const(operands, fn)


class CeilDivUIOp(_Division):
    """`%r = arith.ceildivui %a, %b : i32`"""
    name = "arith.ceildivui"

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.lhs
        return self.fold_const(operands, lambda a, b, w: -(-a // b) if b else None)


class CeilDivSIOp(_Division):
    """`%r = arith.ceildivsi %a, %b : i32`"""
    name = "arith.ceildivsi"
    minus_one_unsafe = True

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.lhs

        def fn(a, b, w):
            a, b = CF.sint(a, w), CF.sint(b, w)
            if b == 0:
                return None
            q = -(-a // b)
            return q if q < 1 << (w - 1) else None  # MIN / -1 overflows
        return self.fold_const(operands, fn)


class FloorDivSIOp(_Division):
    """`%r = arith.floordivsi %a, %b : i32`"""
    name = "arith.floordivsi"

    def speculatability(self) -> str:
        return "speculatable"  # upstream declares floordivsi Pure

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.lhs

        def fn(a, b, w):
            a, b = CF.sint(a, w), CF.sint(b, w)
            if b == 0 or (b == -1 and a == -(1 << (w - 1))):
                return None
            return a // b
        return self.fold_const(operands, fn)


class RemUIOp(_Division):
    """`%r = arith.remui %a, %b : i32`"""
    name = "arith.remui"
    is_remainder = True

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.zero()
        return self.fold_const(operands, lambda a, b, w: a % b if b else None)


class RemSIOp(_Division):
    """`%r = arith.remsi %a, %b : i32`"""
    name = "arith.remsi"
    is_remainder = True

    def fold(self, operands):
        r = self.fold_trivial(operands)
        if r is not None:
            return r
        if CF.is_one(operands[1]):
            return self.zero()

        def fn(a, b, w):
            a, b = CF.sint(a, w), CF.sint(b, w)
            if b == 0:
                return None
            r = abs(a) % abs(b)
            return -r if a < 0 else r
        return self.fold_const(operands, fn)


def _is_not_of(v, x):
    """v is `xori x, <all ones>`."""
    xor = _def(v, XOrIOp)
    return xor is not None and xor.lhs is x and CF.is_all_ones(_const_of(xor.rhs))


def _absorb(op, cls):
    """op(a, op(a, b)) -> op(a, b) for an idempotent commutative op (and, or)."""
    for prev_v, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        prev = _def(prev_v, cls)
        if prev is not None and (other is prev.lhs or other is prev.rhs):
            return prev.result
    return None


class AndIOp(_IntBinary):
    """`%r = arith.andi %a, %b : i1`"""
    name = "arith.andi"
    traits = _IntBinary.traits + (T.Commutative, T.Idempotent)

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.rhs
        if CF.is_all_ones(operands[1]):
            return self.lhs
        if _is_not_of(self.rhs, self.lhs) or _is_not_of(self.lhs, self.rhs):
            return self.zero()
        r = _absorb(self, AndIOp)
        if r is not None:
            return r
        return self.fold_const(operands, lambda a, b, w: a & b)


class OrIOp(_IntBinary):
    """`%r = arith.ori %a, %b : i32`"""
    name = "arith.ori"
    traits = _IntBinary.traits + (T.Commutative, T.Idempotent)

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.lhs
        if CF.is_all_ones(operands[1]):
            return operands[1]
        if _is_not_of(self.rhs, self.lhs):
            return _def(self.rhs, XOrIOp).rhs
        if _is_not_of(self.lhs, self.rhs):
            return _def(self.lhs, XOrIOp).rhs
        r = _absorb(self, OrIOp)
        if r is not None:
            return r
        return self.fold_const(operands, lambda a, b, w: a | b)


class XOrIOp(_IntBinary):
    """`%r = arith.xori %a, %b : i32`"""
    name = "arith.xori"
    traits = _IntBinary.traits + (T.Commutative,)

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.lhs
        if self.lhs is self.rhs:
            return self.zero()
        prev = _def(self.lhs, XOrIOp)  # xor(xor(x, a), a) -> x
        if prev is not None:
            if prev.rhs is self.rhs:
                return prev.lhs
            if prev.lhs is self.rhs:
                return prev.rhs
        prev = _def(self.rhs, XOrIOp)  # xor(a, xor(x, a)) -> x
        if prev is not None:
            if prev.rhs is self.lhs:
                return prev.lhs
            if prev.lhs is self.lhs:
                return prev.rhs
        return self.fold_const(operands, lambda a, b, w: a ^ b)


class _Shift(_IntBinary):
    # Right shifts of a value by itself give 0 (x < 2**x; larger amounts are poison).
    self_shift_is_zero = False
    all_ones_is_fixed = False

    def fold(self, operands):
        if CF.is_zero(operands[1]):
            return self.lhs
        if CF.is_zero(operands[0]):  # 0 shifted either way
            return self.lhs
        if self.self_shift_is_zero and self.lhs is self.rhs:
            return self.zero()
        if self.all_ones_is_fixed and CF.is_all_ones(operands[0]):
            return self.lhs  # -1 >> n keeps its sign bits
        # Shifting by the bit width or more is poison: not folded. Upstream's folder
        # asks that of the last element only (its `bounded` flag is overwritten per
        # element), and APInt gives the other elements 0 (or the sign, shrsi).
        last = CF.int_splat(operands[1])
        if last is None and isinstance(operands[1], D.DenseElementsAttr) and \
                not operands[1].is_splat:
            last = int(list(operands[1].values)[-1])
        w, shift = self.width, type(self).shift
        if last is None or CF.uint(last, w) >= w:
            return None
        return self.fold_const(operands, lambda a, b, w: shift(a, min(b, w), w))


class ShLIOp(_IntBinaryOverflow, _Shift):
    """`%r = arith.shli %a, %b : i8`"""
    name = "arith.shli"

    @staticmethod
    def shift(a, b, w):
        return a << b

    fold = _Shift.fold


class ShRUIOp(_IntBinaryExact, _Shift):
    """`%r = arith.shrui %a, %b exact : i8`"""
    name = "arith.shrui"
    self_shift_is_zero = True

    @staticmethod
    def shift(a, b, w):
        return a >> b

    fold = _Shift.fold


class ShRSIOp(_IntBinaryExact, _Shift):
    """`%r = arith.shrsi %a, %b : i8`"""
    name = "arith.shrsi"
    self_shift_is_zero = True
    all_ones_is_fixed = True

    @staticmethod
    def shift(a, b, w):
        return CF.sint(a, w) >> b

    fold = _Shift.fold


class MaxSIOp(_IntBinary):
    """`%r = arith.maxsi %a, %b : i32`"""
    name = "arith.maxsi"
    traits = _IntBinary.traits + (T.Commutative,)
    fold = _min_max(_smin, _smax, lambda a, b, w: max(CF.sint(a, w), CF.sint(b, w)))


class MaxUIOp(_IntBinary):
    """`%r = arith.maxui %a, %b : i32`"""
    name = "arith.maxui"
    traits = _IntBinary.traits + (T.Commutative,)
    fold = _min_max(_umin, _umax, lambda a, b, w: max(a, b))


class MinSIOp(_IntBinary):
    """`%r = arith.minsi %a, %b : i32`"""
    name = "arith.minsi"
    traits = _IntBinary.traits + (T.Commutative,)
    fold = _min_max(_smax, _smin, lambda a, b, w: min(CF.sint(a, w), CF.sint(b, w)))


class MinUIOp(_IntBinary):
    """`%r = arith.minui %a, %b : i32`"""
    name = "arith.minui"
    traits = _IntBinary.traits + (T.Commutative,)
    fold = _min_max(_umax, _umin, lambda a, b, w: min(a, b))


# ---------------------------------------------------------------------------- float ops


class NegFOp(_FloatUnary):
    """`%r = arith.negf %a : f32`"""
    name = "arith.negf"

    def fold(self, operands):
        inner = _def(self.operand_, NegFOp)
        if inner is not None:
            return inner.operand_
        return CF.fold_unary(operands, self.result.type, CF.negate, "float")


class FlushDenormalsOp(_FloatUnary):
    """`%r = arith.flush_denormals %a : f32`"""
    name = "arith.flush_denormals"

    def fold(self, operands):
        inner = _def(self.operand_, FlushDenormalsOp)
        if inner is not None:
            return inner.result
        return CF.fold_unary(operands, self.result.type,
                             lambda a: CF.flush_denormal(a) if CF.foldable_float(a.type) else None,
                             "float")


class AddFOp(_FloatBinaryRounding):
    """`%r = arith.addf %a, %b fastmath<fast> : f32`"""
    name = "arith.addf"
    traits = _FloatBinary.traits + (T.Commutative,)
    float_op = staticmethod(lambda x, y: x + y)
    exact_op = staticmethod(CF.exact_add)

    def fold(self, operands):
        if _float_is(operands[1], CF.is_neg_zero):  # x + -0.0 == x, even for x = +0.0
            return self.lhs
        if "nsz" in _flags(self, "fastmath") and _float_is(operands[1], lambda x: x == 0):
            return self.lhs  # x + +0.0 == x unless x is -0.0
        return self.fold_const(operands)


class SubFOp(_FloatBinaryRounding):
    """`%r = arith.subf %a, %b : f32`"""
    name = "arith.subf"
    float_op = staticmethod(lambda x, y: x - y)
    exact_op = staticmethod(CF.exact_sub)

    def fold(self, operands):
        if _float_is(operands[1], lambda x: x == 0 and not CF.is_neg_zero(x)):
            return self.lhs
        if "nsz" in _flags(self, "fastmath") and _float_is(operands[1], lambda x: x == 0):
            return self.lhs  # x - -0.0 == x unless x is -0.0
        return self.fold_const(operands)


class MulFOp(_FloatBinaryRounding):
    """`%r = arith.mulf %a, %b : f32`"""
    name = "arith.mulf"
    traits = _FloatBinary.traits + (T.Commutative,)
    float_op = staticmethod(lambda x, y: x * y)
    exact_op = staticmethod(CF.exact_mul)

    def fold(self, operands):
        if _float_is(operands[1], lambda x: x == 1):
            return self.lhs
        # x * 0 is 0 only without NaNs (NaN * 0) and signed zeros (-1 * 0).
        if {"nnan", "nsz"} <= _flags(self, "fastmath") and _float_is(operands[1],
                                                                     lambda x: x == 0):
            return self.rhs
        return self.fold_const(operands)


class DivFOp(_FloatBinaryRounding):
    """`%r = arith.divf %a, %b : f32`"""
    name = "arith.divf"
    float_op = staticmethod(CF.ieee_div)
    exact_op = staticmethod(CF.exact_div)

    def fold(self, operands):
        if _float_is(operands[1], lambda x: x == 1):
            return self.lhs
        return self.fold_const(operands)


class RemFOp(_FloatBinary):
    """`%r = arith.remf %a, %b : f32` (the remainder has the sign of %a)"""
    name = "arith.remf"
    float_op = staticmethod(CF.ieee_fmod)
    exact_op = staticmethod(CF.exact_rem)

    def fold(self, operands):
        return self.fold_const(operands)


def _float_min_max(absorbing, fn):
    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.rhs
        if _float_is(operands[1], absorbing):
            return self.lhs
        return self.fold_const(operands, fn)  # exact comparisons: any float kind
    return fold


class MaximumFOp(_FloatBinary):
    """`%r = arith.maximumf %a, %b : f32` (NaN-propagating, -0.0 < +0.0)"""
    name = "arith.maximumf"
    traits = _FloatBinary.traits + (T.Commutative,)
    fold = _float_min_max(lambda x: x == -math.inf, CF.maximum)


class MaxNumFOp(_FloatBinary):
    """`%r = arith.maxnumf %a, %b : f32` (a NaN operand yields the other one)"""
    name = "arith.maxnumf"
    traits = _FloatBinary.traits + (T.Commutative,)
    fold = _float_min_max(CF.is_nan, CF.maxnum)


class MinimumFOp(_FloatBinary):
    """`%r = arith.minimumf %a, %b : f32`"""
    name = "arith.minimumf"
    traits = _FloatBinary.traits + (T.Commutative,)
    fold = _float_min_max(lambda x: x == math.inf, CF.minimum)


class MinNumFOp(_FloatBinary):
    """`%r = arith.minnumf %a, %b : f32`"""
    name = "arith.minnumf"
    traits = _FloatBinary.traits + (T.Commutative,)
    fold = _float_min_max(CF.is_nan, CF.minnum)


# ---------------------------------------------------------------------------- casts


def _int_cast_ok(cmp):
    return classmethod(lambda cls, ins, outs: _width_change(ins, outs, A.IntegerType, cmp))


def _float_cast_ok(cmp):
    return classmethod(lambda cls, ins, outs: _width_change(ins, outs, A.FloatType, cmp))


# Casts that carry the `nneg` flag (extui, uitofp, index_castui).
_NNEG_CAST_FORMAT = "$in_ (`nneg` $nonNeg^)? attr-dict `:` type($in_) `to` type($out)"


class ExtUIOp(_Cast):
    """`%r = arith.extui %a nneg : i32 to i64`"""
    name = "arith.extui"
    in_ = Operand(FixedIntLike)
    nonNeg = _unit_prop()
    out = Result(FixedIntLike)
    assembly = _NNEG_CAST_FORMAT
    are_cast_compatible = _int_cast_ok(_wider)

    def fold(self, operands):
        inner = _def(self.in_, ExtUIOp)
        if inner is not None:  # extui(extui(x)) -> extui(x), in place, keeping
            self.set_operand(0, inner.in_)  # the inner op's nneg flag as upstream
            nneg = inner._props.get("nonNeg")
            if nneg is not None:
                self.properties["nonNeg"] = nneg
            return self.out
        return CF.fold_cast(operands[0], self.out.type, lambda a: a)


class ExtSIOp(_Cast):
    """`%r = arith.extsi %a : i32 to i64`"""
    name = "arith.extsi"
    in_ = Operand(FixedIntLike)
    out = Result(FixedIntLike)
    are_cast_compatible = _int_cast_ok(_wider)

    def fold(self, operands):
        inner = _def(self.in_, ExtSIOp)
        if inner is not None:
            self.set_operand(0, inner.in_)
            return self.out
        w = CF.width_of(self.in_.type)
        return CF.fold_cast(operands[0], self.out.type, lambda a: CF.sint(a, w))


def _fast_contract(op):
    return "contract" in _flags(op, "fastmath")


def _float_convert(self, operands):
    """extf/truncf/convertf of constants of any float kinds: only when the value is exact
    in the result ([Note: exact float conversions] in constant_fold.py)."""
    t = self.out_elem
    return CF.fold_cast(operands[0], self.out.type, lambda a: CF.convert_float_exact(a, t),
                        "float")


class ExtFOp(_Cast):
    """`%r = arith.extf %a : f16 to f32`"""
    name = "arith.extf"
    in_ = Operand(FloatLike)
    fastmath = _fastmath_prop(default=False)
    out = Result(FloatLike)
    assembly = "$in_ (`fastmath` `` $fastmath^)? attr-dict `:` type($in_) `to` type($out)"
    are_cast_compatible = _float_cast_ok(_wider)

    def fold(self, operands):
        tr = _def(self.in_, TruncFOp)
        if tr is not None and tr.in_.type is self.out.type and _fast_contract(tr) and \
                _fast_contract(self):
            return tr.in_
        return _float_convert(self, operands)


class _ScalingCast(ArithOp):
    traits = (T.Pure, SameInputOutputTensorDims, T.CastOpInterface, T.ElementwiseMappable)
    in_ = Operand(FloatLike)
    scale = Operand(FloatLike)
    out = Result(FloatLike)


class ScalingExtFOp(_ScalingCast):
    """`%r = arith.scaling_extf %a, %s : f4E2M1FN, f8E8M0FNU to f32`"""
    name = "arith.scaling_extf"
    fastmath = _fastmath_prop(default=False)
    assembly = ("$in_ `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($in_) `,` "
                "type($scale) `to` type($out)")

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        return _width_change(ins[:1], outs, A.FloatType, _wider)


class TruncIOp(_Cast):
    """`%r = arith.trunci %a overflow<nuw> : i32 to i16`"""
    name = "arith.trunci"
    in_ = Operand(FixedIntLike)
    overflowFlags = _overflow_prop()
    out = Result(FixedIntLike)
    assembly = ("$in_ (`overflow` `` $overflowFlags^)? attr-dict `:` type($in_) `to` "
                "type($out)")
    _stored_defaults = (("overflowFlags", OVERFLOW("none")),)
    are_cast_compatible = _int_cast_ok(_narrower)

    def fold(self, operands):
        d = self.in_.defining_op
        if isinstance(d, (ExtUIOp, ExtSIOp)):
            src = d.in_
            if CF.width_of(src.type) > CF.width_of(self.out.type):
                self.set_operand(0, src)  # trunci(ext(a)) -> trunci(a), in place
                return self.out
            if CF.elem_type(src.type) is self.out_elem:
                return src
        if isinstance(d, TruncIOp):
            self.set_operand(0, d.in_)
            return self.out
        return CF.fold_cast(operands[0], self.out.type, lambda a: a)


class TruncFOp(_Cast):
    """`%r = arith.truncf %a to_nearest_even : f32 to f16`"""
    name = "arith.truncf"
    in_ = Operand(FloatLike)
    roundingmode = _rounding_prop()
    fastmath = _fastmath_prop(default=False)
    out = Result(FloatLike)
    assembly = ("$in_ ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
                "type($in_) `to` type($out)")
    are_cast_compatible = _float_cast_ok(_narrower)

    def fold(self, operands):
        # Constants only: upstream no longer folds truncf(extf(x)).
        return _float_convert(self, operands)


class ConvertFOp(_Cast):
    """`%r = arith.convertf %a : f16 to bf16` (same width, other format)"""
    name = "arith.convertf"
    in_ = Operand(FloatLike)
    roundingmode = _rounding_prop()
    fastmath = _fastmath_prop(default=False)
    out = Result(FloatLike)
    assembly = ("$in_ ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
                "type($in_) `to` type($out)")

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        if not _valid_cast_pair(ins, outs):
            return False
        s, d = _underlying(ins[0], A.FloatType), _underlying(outs[0], A.FloatType)
        return s is not None and d is not None and s is not d and s.width == d.width

    def fold(self, operands):
        return _float_convert(self, operands)


class ScalingTruncFOp(_ScalingCast):
    """`%r = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to f4E2M1FN`"""
    name = "arith.scaling_truncf"
    roundingmode = _rounding_prop()
    fastmath = _fastmath_prop(default=False)
    assembly = ("$in_ `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict "
                "`:` type($in_) `,` type($scale) `to` type($out)")

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        return _width_change(ins[:1], outs, A.FloatType, _narrower)


def _int_to_float_ok(cls, ins, outs):
    return (_valid_cast_pair(ins, outs) and _underlying(ins[0], A.IntegerType) is not None
            and _underlying(outs[0], A.FloatType) is not None)


def _float_to_int_ok(cls, ins, outs):
    return (_valid_cast_pair(ins, outs) and _underlying(ins[0], A.FloatType) is not None
            and _underlying(outs[0], A.IntegerType) is not None)


def _int_to_float(self, operands, signed):
    t = self.out_elem
    w = CF.width_of(self.in_.type)

    def fn(a):
        try:
            return CF.to_float_exact(CF.sint(a, w) if signed else a, t)
        except (ValueError, D._ElemError):
            return None
    return CF.fold_cast(operands[0], self.out.type, fn)


class UIToFPOp(_Cast):
    """`%r = arith.uitofp %a nneg : i32 to f32`"""
    name = "arith.uitofp"
    in_ = Operand(FixedIntLike)
    nonNeg = _unit_prop()
    out = Result(FloatLike)
    assembly = _NNEG_CAST_FORMAT
    are_cast_compatible = classmethod(_int_to_float_ok)

    def fold(self, operands):
        return _int_to_float(self, operands, False)


class SIToFPOp(_Cast):
    """`%r = arith.sitofp %a : i32 to f32`"""
    name = "arith.sitofp"
    in_ = Operand(FixedIntLike)
    out = Result(FloatLike)
    are_cast_compatible = classmethod(_int_to_float_ok)

    def fold(self, operands):
        return _int_to_float(self, operands, True)


def _float_to_int(self, operands, signed):
    w = CF.width_of(self.out.type)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)

    def fn(a):
        d = CF.exact_float(a)  # any kind, f80 and f128 included
        if d[0] != "num":
            return None
        v = -int(d[2]) if d[1] else int(d[2])  # toward zero; out of range is not folded
        return v if lo <= v <= hi else None
    return CF.fold_cast(operands[0], self.out.type, fn, "float")


class FPToUIOp(_Cast):
    """`%r = arith.fptoui %a : f32 to i32`"""
    name = "arith.fptoui"
    in_ = Operand(FloatLike)
    out = Result(FixedIntLike)
    are_cast_compatible = classmethod(_float_to_int_ok)

    def fold(self, operands):
        return _float_to_int(self, operands, False)


class FPToSIOp(_Cast):
    """`%r = arith.fptosi %a : f32 to i32`"""
    name = "arith.fptosi"
    in_ = Operand(FloatLike)
    out = Result(FixedIntLike)
    are_cast_compatible = classmethod(_float_to_int_ok)

    def fold(self, operands):
        return _float_to_int(self, operands, True)


def _index_cast_ok(cls, ins, outs):
    if not _valid_cast_pair(ins, outs):
        return False
    classes = (A.IntegerType, A.IndexType)
    s, d = _underlying(ins[0], classes, True), _underlying(outs[0], classes, True)
    if s is None or d is None:
        return False
    return ((type(s) is A.IndexType and type(d) is A.IntegerType and d.is_signless)
            or (type(s) is A.IntegerType and s.is_signless and type(d) is A.IndexType))


def _index_cast_fold(self, operands, signed):
    w_in, w_out = CF.width_of(self.in_.type), CF.width_of(self.out.type)
    r = CF.fold_cast(operands[0], self.out.type,
                     lambda a: CF.sint(a, w_in) if signed else a)
    if r is not None:
        return r
    # index_cast(index_cast(x : A) : B) : A -> x, unless B is narrower than A.
    inner = _def(self.in_, type(self))
    if inner is not None and inner.in_.type is self.out.type and \
            CF.width_of(inner.out.type) >= w_out:
        return inner.in_
    return None


class IndexCastOp(_Cast):
    """`%r = arith.index_cast %a : i32 to index` (sign-extends or truncates)"""
    name = "arith.index_cast"
    in_ = Operand(IndexCastType)
    out = Result(IndexCastType)
    are_cast_compatible = classmethod(_index_cast_ok)

    def fold(self, operands):
        return _index_cast_fold(self, operands, True)


class IndexCastUIOp(_Cast):
    """`%r = arith.index_castui %a nneg : i32 to index` (zero-extends or truncates)"""
    name = "arith.index_castui"
    in_ = Operand(IndexCastType)
    nonNeg = _unit_prop()
    out = Result(IndexCastType)
    assembly = _NNEG_CAST_FORMAT
    are_cast_compatible = classmethod(_index_cast_ok)

    def fold(self, operands):
        return _index_cast_fold(self, operands, False)


class BitcastOp(_Cast):
    """`%r = arith.bitcast %a : f32 to i32` (same bit width, bits unchanged)"""
    name = "arith.bitcast"
    in_ = Operand(BitcastType)
    out = Result(BitcastType)

    @classmethod
    def are_cast_compatible(cls, ins, outs):
        if not _valid_cast_pair(ins, outs):
            return False
        classes = (A.IntegerType, A.FloatType)
        s, d = _underlying(ins[0], classes, True), _underlying(outs[0], classes, True)
        return s is not None and d is not None and s.width == d.width

    def fold(self, operands):
        a = operands[0]
        t = self.out.type
        if self.in_.type is t:  # identity bitcast
            return self.in_
        if a is None:
            return None
        if isinstance(a, D.DenseElementsAttr):
            if isinstance(a, D.DenseStringElementsAttr) or not isinstance(t, A.ShapedType):
                return None
            return D.DenseElementsAttr.from_raw(t, a.raw)
        if isinstance(t, A.ShapedType):
            return None
        if type(a) is A.FloatAttr:
            bits = a.bits
        elif type(a) is A.IntegerAttr:
            bits = CF.uint(a.value, CF.width_of(a.type))
        else:
            return None
        if type(t) is A.FloatType:
            try:
                return A.FloatAttr(0.0, t, bits)
            except (ValueError, KeyError):
                return None
        return A.IntegerAttr(bits, t)


# ---------------------------------------------------------------------------- compare


_CMPI = {
    "eq": lambda a, b, w: a == b, "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: CF.sint(a, w) < CF.sint(b, w),
    "sle": lambda a, b, w: CF.sint(a, w) <= CF.sint(b, w),
    "sgt": lambda a, b, w: CF.sint(a, w) > CF.sint(b, w),
    "sge": lambda a, b, w: CF.sint(a, w) >= CF.sint(b, w),
    "ult": lambda a, b, w: a < b, "ule": lambda a, b, w: a <= b,
    "ugt": lambda a, b, w: a > b, "uge": lambda a, b, w: a >= b,
}
# The predicate that holds with the operands swapped.
_CMPI_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge",
                 "sge": "sle", "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}


def _bool_like(t, value):
    """getBoolAttribute: true/false, or a splat of it (None for a dynamic shape)."""
    return CF.make_splat(A.BoolAttr(value), t)


class CmpIOp(ArithOp):
    """`%r = arith.cmpi slt, %a, %b : i32`"""
    name = "arith.cmpi"
    traits = (T.Pure, ResultIsI1OfOperandShape, T.SameTypeOperands, T.ElementwiseMappable)
    predicate = _int_enum_prop(CMPI_PREDICATES, 64, "allowed 64-bit signless integer cases: "
                               + ", ".join(map(str, range(10))), "predicate")
    lhs = Operand(SignlessIntLike)
    rhs = Operand(SignlessIntLike)
    result = Result(BoolLike)
    assembly = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [i1_like(operands[0].type)]

    @property
    def predicate_name(self):
        return CMPI_PREDICATES[self.properties["predicate"].value]

    def fold(self, operands):
        pred = self.predicate_name
        if self.lhs is self.rhs:
            return _bool_like(self.result.type, pred in ("eq", "sle", "sge", "ule", "uge"))
        elt1 = CF.width_of(self.lhs.type) == 1
        if CF.is_zero(operands[1]) and pred == "ne":
            ext = self.lhs.defining_op
            if isinstance(ext, (ExtSIOp, ExtUIOp)) and isinstance(
                    ext.in_.type, (A.IntegerType, A.VectorType)) and \
                    CF.width_of(ext.in_.type) == 1:
                return ext.in_  # ext(%x : i1) != 0  ->  %x
            if elt1:
                return self.lhs
        if CF.is_one(operands[1]) and pred == "eq" and elt1:
            return self.lhs
        if operands[0] is not None and operands[1] is None:
            # Move the constant to the right: swap the operands, mirror the predicate.
            lhs, rhs = self.lhs, self.rhs
            self.predicate = A.IntegerAttr(CMPI_PREDICATES.index(_CMPI_SWAPPED[pred]), A.i64)
            self.set_operand(0, rhs)
            self.set_operand(1, lhs)
            return self.result
        w = CF.width_of(self.lhs.type)
        fn = _CMPI[pred]
        return CF.fold_binary(operands, self.result.type, lambda a, b: int(fn(a, b, w)))


class CmpFOp(ArithOp):
    """`%r = arith.cmpf olt, %a, %b : f32`"""
    name = "arith.cmpf"
    traits = (T.Pure, ResultIsI1OfOperandShape, T.SameTypeOperands, T.ElementwiseMappable)
    predicate = _int_enum_prop(CMPF_PREDICATES, 64, "allowed 64-bit signless integer cases: "
                               + ", ".join(map(str, range(16))), "predicate")
    lhs = Operand(FloatLike)
    rhs = Operand(FloatLike)
    fastmath = _fastmath_prop()
    result = Result(BoolLike)
    assembly = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` "
                "type($lhs)")
    _stored_defaults = (("fastmath", FASTMATH("none")),)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [i1_like(operands[0].type)]

    def fold(self, operands):
        # Scalars only, as upstream; a NaN on one side decides alone.
        a, b = operands
        a = a if type(a) is A.FloatAttr else None
        b = b if type(b) is A.FloatAttr else None
        if a is not None and CF.is_nan(a.value):
            b = a
        if b is not None and CF.is_nan(b.value):
            a = b
        if a is None or b is None:
            return None
        pred = CMPF_PREDICATES[self.properties["predicate"].value]
        return A.BoolAttr(CF.cmpf(pred, CF.exact_key(a), CF.exact_key(b)))


# ---------------------------------------------------------------------------- select


class SelectOp(ArithOp):
    """`%r = arith.select %cond, %a, %b : i32`
    (`: vector<4xi1>, vector<4xi32>` for an elementwise condition)"""
    name = "arith.select"
    traits = (T.Pure, T.AllTypesMatch("true_value", "false_value", "result"),
              BooleanConditionOrMatchingShape, T.ElementwiseMappable)
    condition = Operand(BoolLike)
    true_value = Operand()
    false_value = Operand()
    result = Result()

    @staticmethod
    def parse(p, st):
        start = p.tok_start
        refs = p.parse_operand_list()
        if len(refs) != 3:
            p.error(f"expected 3 operands", start)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        result_type = p.parse_type()
        cond_type = A.i1
        if p.consume_if(","):
            cond_type, result_type = result_type, p.parse_type()
        st.types.append(result_type)
        st.operands = p.resolve_operands(refs, [cond_type, result_type, result_type], start)

    def print(self, pr):
        out = pr.out
        out.append("arith.select ")
        out.append(", ".join(pr.value(o.value) for o in self._operands))
        pr.print_optional_attr_dict(self.attributes)
        out.append(" : ")
        c = self.condition.type
        if isinstance(c, A.ShapedType):
            out.append(pr.type_str(c) + ", ")
        out.append(pr.type_str(self.result.type))

    def verify_(self):
        c = self.condition.type
        if c is A.i1:
            return None
        r = self.result.type
        if not isinstance(r, (A.VectorType, A.RankedTensorType, A.UnrankedTensorType)):
            return f"expected condition to be a signless i1, but got '{c}'"
        if i1_like(r) is not c:
            return ("expected condition type to have the same shape as the result type, "
                    f"expected '{i1_like(r)}', but got '{c}'")
        return None

    def fold(self, operands):
        t, f = self.true_value, self.false_value
        if t is f:
            return t
        cond = operands[0]
        if CF.is_one(cond):
            return t
        if CF.is_zero(cond):
            return f
        if self.result.type is A.i1 and CF.is_one(operands[1]) and CF.is_zero(operands[2]):
            return self.condition
        cmp = _def(self.condition, CmpIOp)
        if cmp is not None and cmp.predicate_name in ("eq", "ne"):
            if (cmp.lhs is t and cmp.rhs is f) or (cmp.rhs is t and cmp.lhs is f):
                return t if cmp.predicate_name == "ne" else f
        # A non-splat constant condition over constant values: pick per element.
        vals = operands[1:]
        if isinstance(cond, D.DenseElementsAttr) and all(
                isinstance(v, D.DenseElementsAttr) and not isinstance(
                    v, D.DenseStringElementsAttr) for v in vals) and vals[0].type is vals[1].type:
            k = D._nbytes(vals[0].element_type)
            flags = list(cond.values)
            raws = [v.raw * (v.num_elements if v.is_splat else 1) for v in vals]
            raw = b"".join(raws[0 if c else 1][i * k:(i + 1) * k] for i, c in enumerate(flags))
            return D.DenseElementsAttr.from_raw(vals[0].type, raw)
        return None


# ---------------------------------------------------------------------------- registry

OPS = [ConstantOp, AddIOp, AddUIExtendedOp, SubUIExtendedOp, SubIOp, MulIOp, MulSIExtendedOp,
       MulUIExtendedOp, DivUIOp, DivSIOp, CeilDivUIOp, CeilDivSIOp, FloorDivSIOp, RemUIOp,
       RemSIOp, AndIOp, OrIOp, XOrIOp, ShLIOp, ShRUIOp, ShRSIOp, NegFOp, FlushDenormalsOp,
       AddFOp, SubFOp, MaximumFOp, MaxNumFOp, MaxSIOp, MaxUIOp, MinimumFOp, MinNumFOp, MinSIOp,
       MinUIOp, MulFOp, DivFOp, RemFOp, ExtUIOp, ExtSIOp, ExtFOp, ScalingExtFOp, TruncIOp,
       TruncFOp, ConvertFOp, ScalingTruncFOp, UIToFPOp, SIToFPOp, FPToUIOp, FPToSIOp,
       IndexCastOp, IndexCastUIOp, BitcastOp, CmpIOp, CmpFOp, SelectOp]

for _c in OPS:
    if _c.assembly is not None and _c is not ConstantOp and _c is not SelectOp:
        install_format(_c)

ARITH = Dialect("arith", OPS, parse_attribute=_parse_attribute,
                materialize_constant=materialize_constant)
