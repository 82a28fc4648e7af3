"""The llvm dialect's arithmetic: integer and float binary ops, comparisons, select, casts,
freeze and vector element ops, with upstream MLIR's custom forms.

    %s = llvm.add %a, %b overflow<nsw> : i32
    %q = llvm.sdiv exact %a, %b : i32
    %f = llvm.fmul %x, %y fastmath<fast> : vector<4xf32>
    %c = llvm.icmp "slt" %a, %b : i32
    %w = llvm.zext nneg %a : i32 to i64
    %e = llvm.extractelement %v[%i : i32] : vector<4xf32>
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, Prop, Result
from ...syntax.asm_format import (AttrFormat, EnumFmt, StrippedAttr, UnitKeyword,
                                  custom_op_prefix, install_format,
                                  parse_strict_attr_dict)
from .ops import I32_0, FastmathAttr, LLVMType
from .types import (FASTMATH_NONE, LLVMArrayType, LLVMPointerType, LLVMStructType,
                    is_compatible_type)

ICMP_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
FCMP_PREDICATES = ["_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "_true"]
OVERFLOW_FLAGS = {"nsw": 1, "nuw": 2}


# ---------------------------------------------------------------- constraints

def _scalar_or_vector(pred):
    def check(t):
        if type(t) is A.VectorType:
            return pred(t.element_type)
        return pred(t)
    return check


def _int(t):
    return type(t) is A.IntegerType and t.signedness == 0


def _float(t):
    return type(t) is A.FloatType


IntLike = C.Constraint(_scalar_or_vector(_int), "integer or LLVM dialect-compatible vector "
                       "of integer")
FloatLike = C.Constraint(_scalar_or_vector(_float), "floating point LLVM type or "
                         "LLVM dialect-compatible vector of floating point LLVM type")
PtrLike = C.Constraint(_scalar_or_vector(lambda t: isinstance(t, LLVMPointerType)),
                       "LLVM pointer type or LLVM dialect-compatible vector of LLVM "
                       "pointer type")
VectorC = C.Constraint(lambda t: type(t) is A.VectorType, "LLVM dialect-compatible vector type")
I1Like = C.Constraint(_scalar_or_vector(lambda t: t is A.i1), "1-bit signless integer or "
                      "LLVM dialect-compatible vector of 1-bit signless integer")


def i1_like(t):
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, A.i1, t.scalable_dims)
    return A.i1


# ---------------------------------------------------------------- property formats

class OverflowFmt(AttrFormat):
    """`<nsw, nuw>` after the literal `overflow`: an i32 bit set in the IR."""

    def parse(self, p):
        p.expect("<")
        v = 0
        while True:
            w = p.parse_keyword()
            if w not in OVERFLOW_FLAGS and w != "none":
                p.error(p._custom_prefix() + "expected one of [none, nsw, nuw] for "
                        "integer overflow flags")
            v |= OVERFLOW_FLAGS.get(w, 0)
            if not p.consume_if(","):
                break
        p.expect(">")
        return A.IntegerAttr(v, A.i32)

    def print(self, pr, a):
        return "<" + overflow_text(a.value) + ">"

    def can_start(self, p):
        return p.kind == 10 and p.tok == "<"


def overflow_text(v: int) -> str:
    names = [n for n, b in OVERFLOW_FLAGS.items() if v & b]
    return ", ".join(names) or "none"


class QuotedEnumFmt(EnumFmt):
    """A predicate printed as a string: `"slt"`."""

    def print(self, pr, a):
        return '"' + super().print(pr, a) + '"'

    def parse(self, p):
        # upstream parses a string, then converts it (a keyword is "expected string")
        if p.kind != 9:
            p.error(custom_op_prefix(p) + "expected string")
        i = self.index.get(p.tok[1:-1])
        if i is None:
            p.error(custom_op_prefix(p) + f"'{p.tok[1:-1]}' is an incorrect value of the "
                    f"'{self.what}' attribute")
        p._next()
        return A.IntegerAttr(i, self.type)

    def can_start(self, p):
        return p.kind == 9


def _fastmath_prop():
    return Prop(FastmathAttr, default=FASTMATH_NONE, fmt=StrippedAttr("llvm", "fastmath"))


def _overflow_prop():
    return Prop(C.I32Attr, default=I32_0, fmt=OverflowFmt())


def _unit_prop():
    return Prop(C.UnitAttrC, optional=True, fmt=UnitKeyword())


_FM = "(`fastmath` `` $fastmathFlags^)?"


# ---------------------------------------------------------------- binary ops

class _IntBinary(Op):
    traits = (T.Pure, T.SameOperandsAndResultType)
    lhs = Operand(IntLike)
    rhs = Operand(IntLike)
    res = Result(IntLike)
    assembly = "$lhs `,` $rhs attr-dict `:` type($res)"


class _IntOverflow(_IntBinary):
    overflowFlags = _overflow_prop()
    assembly = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($res)"
    _stored_defaults = (("overflowFlags", I32_0),)


class _IntExact(_IntBinary):
    isExact = _unit_prop()
    assembly = "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)"


class _FloatBinary(Op):
    traits = (T.Pure, T.SameOperandsAndResultType)
    lhs = Operand(FloatLike)
    rhs = Operand(FloatLike)
    res = Result(FloatLike)
    fastmathFlags = _fastmath_prop()
    assembly = f"$lhs `,` $rhs {_FM} attr-dict `:` type($res)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)


def _op(base, name, doc, **extra):
    cls = type(_class_name(name), (base,), dict(name=name, __doc__=doc, **extra))
    return cls


def _class_name(name):
    return "".join(w.capitalize() for w in name.split(".")[1:]) + "Op"


AddOp = _op(_IntOverflow, "llvm.add", "`%r = llvm.add %a, %b overflow<nsw> : i32`")
SubOp = _op(_IntOverflow, "llvm.sub", "`%r = llvm.sub %a, %b : i32`")
MulOp = _op(_IntOverflow, "llvm.mul", "`%r = llvm.mul %a, %b : i32`")
ShlOp = _op(_IntOverflow, "llvm.shl", "`%r = llvm.shl %a, %b : i32`")
UDivOp = _op(_IntExact, "llvm.udiv", "`%r = llvm.udiv %a, %b : i32`",
             traits=(T.NoMemoryEffect, T.SameOperandsAndResultType))
SDivOp = _op(_IntExact, "llvm.sdiv", "`%r = llvm.sdiv exact %a, %b : i32`",
             traits=(T.NoMemoryEffect, T.SameOperandsAndResultType))
LShrOp = _op(_IntExact, "llvm.lshr", "`%r = llvm.lshr %a, %b : i32`")
AShrOp = _op(_IntExact, "llvm.ashr", "`%r = llvm.ashr %a, %b : i32`")
URemOp = _op(_IntBinary, "llvm.urem", "`%r = llvm.urem %a, %b : i32`",
             traits=(T.NoMemoryEffect, T.SameOperandsAndResultType))
SRemOp = _op(_IntBinary, "llvm.srem", "`%r = llvm.srem %a, %b : i32`",
             traits=(T.NoMemoryEffect, T.SameOperandsAndResultType))
AndOp = _op(_IntBinary, "llvm.and", "`%r = llvm.and %a, %b : i32`")
XOrOp = _op(_IntBinary, "llvm.xor", "`%r = llvm.xor %a, %b : i32`")
OrOp = _op(_IntBinary, "llvm.or", "`%r = llvm.or disjoint %a, %b : i32`",
           isDisjoint=_unit_prop(),
           assembly="(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)")
FAddOp = _op(_FloatBinary, "llvm.fadd", "`%r = llvm.fadd %a, %b fastmath<fast> : f32`")
FSubOp = _op(_FloatBinary, "llvm.fsub", "`%r = llvm.fsub %a, %b : f32`")
FMulOp = _op(_FloatBinary, "llvm.fmul", "`%r = llvm.fmul %a, %b : f32`")
FDivOp = _op(_FloatBinary, "llvm.fdiv", "`%r = llvm.fdiv %a, %b : f32`")
FRemOp = _op(_FloatBinary, "llvm.frem", "`%r = llvm.frem %a, %b : f32`")


class FNegOp(Op):
    """`%r = llvm.fneg %a fastmath<nnan> : f32`"""

    name = "llvm.fneg"
    traits = (T.Pure, T.SameOperandsAndResultType)
    operand_ = Operand(FloatLike)  # (upstream's `operand`: Operation.operand is a method)
    res = Result(FloatLike)
    fastmathFlags = _fastmath_prop()
    assembly = f"$operand_ {_FM} attr-dict `:` type($res)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)


# ---------------------------------------------------------------- comparisons, select

def _pred_prop(names, what):
    t = A.i64
    return Prop(C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is t
                             and 0 <= a.value < len(names), f"llvm.{what} comparison "
                             "predicate"), fmt=QuotedEnumFmt(names, t, "predicate"))


def _cmp_result(cls, operands, props):
    return [i1_like(operands[0].type)]


class ICmpOp(Op):
    """`%c = llvm.icmp "slt" %a, %b : i32`"""

    name = "llvm.icmp"
    traits = (T.Pure, T.SameTypeOperands)
    predicate = _pred_prop(ICMP_PREDICATES, "icmp")
    lhs = Operand(C.Constraint(_scalar_or_vector(
        lambda t: _int(t) or isinstance(t, LLVMPointerType)),
        "signless integer or LLVM dialect-compatible vector of signless integer or LLVM "
        "pointer type or LLVM dialect-compatible vector of LLVM pointer type"))
    rhs = Operand(C.AnyType)
    res = Result(I1Like)
    assembly = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)"
    infer_result_types = classmethod(_cmp_result)

    @classmethod
    def finish_parse(cls, op):
        """The custom parser checks the operand type (upstream's inferred result type
        needs it), with the custom-op wording, at the op."""
        t = op.operand(0).type
        c = cls.lhs.constraint
        if not c.check(t):
            _raise(op, f"custom op 'llvm.icmp' 'lhs' must be {c.summary}, but got '{t}'")

    def verify_(self):
        if self.results[0].type is not i1_like(self.operand(0).type):
            return "result type must be i1 or a vector of i1 of the operand shape"
        return None


class FCmpOp(Op):
    """`%c = llvm.fcmp "olt" %a, %b fastmath<nnan> : f32`"""

    name = "llvm.fcmp"
    traits = (T.Pure, T.SameTypeOperands)
    predicate = _pred_prop(FCMP_PREDICATES, "fcmp")
    lhs = Operand(FloatLike)
    rhs = Operand(FloatLike)
    res = Result(I1Like)
    fastmathFlags = _fastmath_prop()
    assembly = f"$predicate $lhs `,` $rhs {_FM} attr-dict `:` type($lhs)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)
    infer_result_types = classmethod(_cmp_result)

    def verify_(self):
        if self.results[0].type is not i1_like(self.operand(0).type):
            return "result type must be i1 or a vector of i1 of the operand shape"
        return None


class SelectOp(Op):
    """`%r = llvm.select %c, %a, %b : i1, f32`"""

    name = "llvm.select"
    traits = (T.Pure, T.AllTypesMatch("trueValue", "falseValue", "res"))
    condition = Operand(I1Like)
    trueValue = Operand(LLVMType)
    falseValue = Operand(LLVMType)
    res = Result(LLVMType)
    fastmathFlags = _fastmath_prop()
    assembly = ("$condition `,` $trueValue `,` $falseValue " + _FM +
                " attr-dict `:` type($condition) `,` type($res)")
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[1].type]


# ---------------------------------------------------------------- casts

class _Cast(Op):
    traits = (T.Pure,)
    assembly = "$arg attr-dict `:` type($arg) `to` type($res)"
    # "ext" for the integer extensions, whose result must be wider; None otherwise.
    width_rule = None

    def verify_(self):
        rule = type(self).width_rule
        if rule is None:
            return None
        a, r = self.operand(0).type, self.results[0].type
        va, vr = type(a) is A.VectorType, type(r) is A.VectorType
        # Upstream words these without the op prefix (emitError on the op's location).
        if va and not vr:
            _raise(self, "input type is a vector but output type is an integer")
        if vr and not va:
            _raise(self, "input type is an integer but output type is a vector")
        if va and a.shape != r.shape:
            _raise(self, "input and output vectors are of incompatible shape")
        ea = a.element_type if va else a
        er = r.element_type if vr else r
        if rule == "ext" and er.width <= ea.width:
            _raise(self, "integer width of the output type is smaller or equal to the "
                         "integer width of the input type")
        return None


def _raise(op, message):
    from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def _cast(name, src, dst, doc, rule=None, flag=None):
    """A cast op; `flag`: "nneg", "overflow" or "fastmath" (its optional property)."""
    body = dict(name=name, __doc__=doc, arg=Operand(src), res=Result(dst), width_rule=rule)
    if flag == "nneg":
        body["nonNeg"] = _unit_prop()
        body["assembly"] = "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($res)"
    elif flag == "overflow":
        body["overflowFlags"] = _overflow_prop()
        body["assembly"] = ("$arg (`overflow` `` $overflowFlags^)? attr-dict `:` type($arg) "
                            "`to` type($res)")
        body["_stored_defaults"] = (("overflowFlags", I32_0),)
    elif flag == "fastmath":
        body["fastmathFlags"] = _fastmath_prop()
        body["assembly"] = f"$arg {_FM} attr-dict `:` type($arg) `to` type($res)"
        body["_stored_defaults"] = (("fastmathFlags", FASTMATH_NONE),)
    return type(_class_name(name), (_Cast,), body)


SExtOp = _cast("llvm.sext", IntLike, IntLike, "`%w = llvm.sext %a : i32 to i64`", "ext")
ZExtOp = _cast("llvm.zext", IntLike, IntLike, "`%w = llvm.zext nneg %a : i32 to i64`",
               "ext", "nneg")
TruncOp = _cast("llvm.trunc", IntLike, IntLike, "`%n = llvm.trunc %a : i64 to i32`",
                None, "overflow")
FPExtOp = _cast("llvm.fpext", FloatLike, FloatLike, "`%w = llvm.fpext %a : f32 to f64`",
                None, "fastmath")
FPTruncOp = _cast("llvm.fptrunc", FloatLike, FloatLike,
                  "`%n = llvm.fptrunc %a : f64 to f32`", None, "fastmath")
SIToFPOp = _cast("llvm.sitofp", IntLike, FloatLike, "`%f = llvm.sitofp %a : i32 to f32`")
UIToFPOp = _cast("llvm.uitofp", IntLike, FloatLike, "`%f = llvm.uitofp %a : i32 to f32`",
                 None, "nneg")
FPToSIOp = _cast("llvm.fptosi", FloatLike, IntLike, "`%i = llvm.fptosi %f : f32 to i32`")
FPToUIOp = _cast("llvm.fptoui", FloatLike, IntLike, "`%i = llvm.fptoui %f : f32 to i32`")
PtrToIntOp = _cast("llvm.ptrtoint", PtrLike, IntLike,
                   "`%i = llvm.ptrtoint %p : !llvm.ptr to i64`")
SignlessIntLike = C.Constraint(_scalar_or_vector(_int), "signless integer or LLVM "
                               "dialect-compatible vector of signless integer")


class PtrToAddrOp(_cast("llvm.ptrtoaddr", PtrLike, SignlessIntLike,
                        "`%a = llvm.ptrtoaddr %p : !llvm.ptr to i64`")):
    """`%a = llvm.ptrtoaddr %p : !llvm.ptr to i64`: the address bits of a pointer (no
    provenance), as wide as the data layout's pointers: 64 bits (Strata has no DLTI)."""

    def verify_(self):
        r = self.results[0].type
        e = r.element_type if type(r) is A.VectorType else r
        if e.width != 64:
            return (f"bit-width of integer result type '{e}' must match the pointer "
                    "bitwidth (64) specified in the datalayout")
        return None


IntToPtrOp = _cast("llvm.inttoptr", IntLike, PtrLike,
                   "`%p = llvm.inttoptr %i : i64 to !llvm.ptr`")
AddrSpaceCastOp = _cast("llvm.addrspacecast", PtrLike, PtrLike,
                        "`%q = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr`")


# LLVM_AnyNonAggregate: what a bitcast takes and gives
NonAggregate = C.Constraint(
    lambda t: is_compatible_type(t) and not isinstance(t, (LLVMStructType, LLVMArrayType)),
    "LLVM-compatible non-aggregate type")


class BitcastOp(_Cast):
    """`%b = llvm.bitcast %f : f32 to i32`"""

    name = "llvm.bitcast"
    arg = Operand(NonAggregate)
    res = Result(NonAggregate)

    def verify_(self):
        a, r = self.operand(0).type, self.results[0].type
        if _is_ptr_like(a) != _is_ptr_like(r):
            return "can only cast pointers from and to pointers"
        if not _is_ptr_like(r):
            return None
        av, rv = type(a) is A.VectorType, type(r) is A.VectorType
        if rv and not av:
            return "cannot cast pointer to vector of pointers"
        if av and not rv:
            return "cannot cast vector of pointers to pointer"
        if (a.element_type if av else a).addr_space != (r.element_type if rv else r).addr_space:
            return ("cannot cast pointers of different address spaces, use "
                    "'llvm.addrspacecast' instead")
        return None


def _is_ptr_like(t):
    return isinstance(t.element_type if type(t) is A.VectorType else t, LLVMPointerType)


class FreezeOp(Op):
    """`%f = llvm.freeze %a : i32`"""

    name = "llvm.freeze"
    traits = (T.Pure, T.SameOperandsAndResultType)
    val = Operand(LLVMType)
    res = Result(LLVMType)
    assembly = "$val attr-dict `:` type($val)"


# ---------------------------------------------------------------- vector element ops

def _parse_typed(p, cls, kind):
    """`parseType<Cls>`: a type of class `cls`, else upstream's error at it."""
    start = p.tok_start
    t = p.parse_type()
    if type(t) is not cls:
        p.error(p._custom_prefix() + "invalid kind of type specified: expected "
                f"builtin.{kind}, but found '{t}'", start)
    return t


def _parse_position_operand(p):
    """`[%i : i32]`: the position operand, whose type must be an integer."""
    p.expect("[")
    ref = p.parse_operand()
    p.expect(":")
    t = _parse_typed(p, A.IntegerType, "integer")
    p.expect("]")
    return ref, t


def _parse_vector_type(p):
    return _parse_typed(p, A.VectorType, "vector")


class ExtractElementOp(Op):
    """`%e = llvm.extractelement %v[%i : i32] : vector<4xf32>`"""

    name = "llvm.extractelement"
    traits = (T.Pure,)
    vector = Operand(VectorC)
    position = Operand(C.SignlessInteger)
    res = Result(LLVMType)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type.element_type]

    @staticmethod
    def parse(p, st):
        vref = p.parse_operand()
        iref, it = _parse_position_operand(p)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        vt = _parse_vector_type(p)
        st.operands = p.resolve_operands([vref, iref], [vt, it])
        st.types = [vt.element_type]

    def print(self, pr):
        v, i = self.operand(0), self.operand(1)
        pr.out.append(f"{pr.op_name(self)} {pr.value(v)}[{pr.value(i)} : "
                      f"{pr.type_str(i.type)}]")
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(f" : {pr.type_str(v.type)}")

    def verify_(self):
        # TypesMatchWith (an ODS trait: upstream's wording)
        if self.results[0].type is not self.operand(0).type.element_type:
            return "failed to verify that result type matches vector element type"
        return None


class InsertElementOp(Op):
    """`%w = llvm.insertelement %e, %v[%i : i32] : vector<4xf32>`"""

    name = "llvm.insertelement"
    traits = (T.Pure,)
    vector = Operand(VectorC)
    value = Operand(LLVMType)
    position = Operand(C.SignlessInteger)
    res = Result(VectorC)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type]

    @staticmethod
    def parse(p, st):
        eref = p.parse_operand()
        p.expect(",")
        vref = p.parse_operand()
        iref, it = _parse_position_operand(p)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        vt = _parse_vector_type(p)
        et = vt.element_type
        st.operands = p.resolve_operands([vref, eref, iref], [vt, et, it])
        st.types = [vt]

    def print(self, pr):
        v, e, i = self.operand(0), self.operand(1), self.operand(2)
        pr.out.append(f"{pr.op_name(self)} {pr.value(e)}, {pr.value(v)}[{pr.value(i)} : "
                      f"{pr.type_str(i.type)}]")
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(f" : {pr.type_str(v.type)}")

    def verify_(self):
        if self.operand(1).type is not self.operand(0).type.element_type:
            return "failed to verify that argument type matches vector element type"
        return None


class ShuffleVectorOp(Op):
    """`%s = llvm.shufflevector %a, %b [0, 1, 4, 5] : vector<4xf32> `"""

    name = "llvm.shufflevector"
    traits = (T.Pure, T.SameTypeOperands)
    v1 = Operand(VectorC)
    v2 = Operand(VectorC)
    mask = Prop(C.DenseI32Array)
    res = Result(VectorC)

    @classmethod
    def infer_result_types(cls, operands, props):
        t = operands[0].type
        return [A.VectorType([len(props["mask"].value)], t.element_type)]

    @staticmethod
    def parse(p, st):
        a = p.parse_operand()
        p.expect(",")
        b = p.parse_operand()
        p.expect("[")
        vals = []
        if not p.consume_if("]"):
            vals.append(p.parse_integer())
            while p.consume_if(","):
                vals.append(p.parse_integer())
            p.expect("]")
        st.properties["mask"] = A.DenseArrayAttr(A.i32, vals)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        t = _parse_vector_type(p)
        st.operands = p.resolve_operands([a, b], [t, t])
        st.types = [A.VectorType([len(vals)], t.element_type, t.scalable_dims[:1])]

    def print(self, pr):
        a, b = self.operand(0), self.operand(1)
        pr.out.append(f"{pr.op_name(self)} {pr.value(a)}, {pr.value(b)} ["
                      + ", ".join(map(str, self._props["mask"].value)) + "]")
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(f" : {pr.type_str(a.type)} ")

    def verify_(self):
        r = self.results[0].type
        mask = self._props["mask"].value
        if any(self.operand(0).type.scalable_dims) and any(mask):
            return "expected a splat operation for scalable vectors"
        if r.shape != (len(mask),) or \
                r.element_type is not self.operand(0).type.element_type:
            return "expected a vector of the mask's length and the operands' element type"
        return None


ARITH_OPS = [AddOp, SubOp, MulOp, ShlOp, UDivOp, SDivOp, LShrOp, AShrOp, URemOp, SRemOp,
             AndOp, OrOp, XOrOp, FAddOp, FSubOp, FMulOp, FDivOp, FRemOp, FNegOp, ICmpOp,
             FCmpOp, SelectOp, SExtOp, ZExtOp, TruncOp, FPExtOp, FPTruncOp, SIToFPOp,
             UIToFPOp, FPToSIOp, FPToUIOp, PtrToIntOp, PtrToAddrOp, IntToPtrOp, AddrSpaceCastOp,
             BitcastOp, FreezeOp, ExtractElementOp, InsertElementOp, ShuffleVectorOp]

for _c in ARITH_OPS:
    if _c.assembly is not None and "parse" not in _c.__dict__:
        install_format(_c)

__all__ = [n for n, v in list(globals().items()) if isinstance(v, type) and v in ARITH_OPS] + ["ARITH_OPS", "ICMP_PREDICATES",
                                              "FCMP_PREDICATES", "overflow_text"]
