"""LLVM intrinsics as ops (`llvm.intr.*`), with upstream MLIR's forms.

    %r = llvm.intr.sqrt(%x) fastmath<fast> : (f32) -> f32
    %m = llvm.intr.smax(%a, %b) : (i32, i32) -> i32
    %n = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
    "llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    llvm.intr.assume %c : i1

Ops that upstream prints only in generic form (ctlz, cttz, abs, is.fpclass, memcpy,
memmove, memset, prefetch, integer vector reductions) have no custom form here either.
`INTRINSIC_NAMES` maps each op to the LLVM intrinsic it becomes (its overloaded types are
added by the translation, strata/backends/cpu/llvmir.py).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, Prop, Result, VarOperand
from ...syntax.asm_format import StrippedAttr, install_format
from .arith_ops import FloatLike, IntLike, VectorC
from .ops import AnyPtr, FastmathAttr, add_optional_props
from .types import FASTMATH_NONE, LLVMStructType

I1Attr = C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i1,
                      "1-bit signless integer attribute")
_FM = "(`fastmath` `` $fastmathFlags^)?"


class IntrOp(Op):
    """Base of `llvm.intr.*` ops; `overloaded` says which types name the intrinsic:
    "res" (the result type), "args" (each operand type) or a tuple of operand indices."""

    overloaded = "res"

    @property
    def intrinsic_name(self) -> str:
        return "llvm." + self.name[len("llvm.intr."):]


def _make(name, base, doc, **body):
    cls_name = "".join(w.capitalize() for w in name[len("llvm.intr."):].split(".")) + "Op"
    return type(cls_name, (base,), dict(name=name, __doc__=doc, **body))


class _FloatIntr(IntrOp):
    traits = (T.Pure, T.SameOperandsAndResultType)
    res = Result(FloatLike)
    fastmathFlags = Prop(FastmathAttr, default=FASTMATH_NONE,
                         fmt=StrippedAttr("llvm", "fastmath"))
    assembly = f"`(` operands `)` {_FM} attr-dict `:` functional-type(operands, results)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)


class _FloatUnary(_FloatIntr):
    in_ = Operand(FloatLike)


class _FloatBinary(_FloatIntr):
    a = Operand(FloatLike)
    b = Operand(FloatLike)


class _FloatTernary(_FloatIntr):
    a = Operand(FloatLike)
    b = Operand(FloatLike)
    c = Operand(FloatLike)


class _IntIntr(IntrOp):
    traits = (T.Pure, T.SameOperandsAndResultType)
    res = Result(IntLike)
    assembly = "`(` operands `)` attr-dict `:` functional-type(operands, results)"


class _IntUnary(_IntIntr):
    in_ = Operand(IntLike)


class _IntBinary(_IntIntr):
    a = Operand(IntLike)
    b = Operand(IntLike)


FLOAT_UNARY = ["sqrt", "exp", "exp2", "exp10", "log", "log2", "log10", "fabs", "sin", "cos",
               "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceil",
               "round", "roundeven", "trunc", "rint", "nearbyint"]
FLOAT_BINARY = ["pow", "copysign", "maxnum", "minnum", "maximum", "minimum", "atan2"]
INT_UNARY = ["ctpop", "bitreverse", "bswap"]
INT_BINARY = ["smax", "smin", "umax", "umin"]

_OPS = []
for _n in FLOAT_UNARY:
    _OPS.append(_make(f"llvm.intr.{_n}", _FloatUnary,
                      f"`%r = llvm.intr.{_n}(%x) : (f32) -> f32`"))
for _n in FLOAT_BINARY:
    _OPS.append(_make(f"llvm.intr.{_n}", _FloatBinary,
                      f"`%r = llvm.intr.{_n}(%x, %y) : (f32, f32) -> f32`"))
for _n in ("fma", "fmuladd"):
    _OPS.append(_make(f"llvm.intr.{_n}", _FloatTernary,
                      f"`%r = llvm.intr.{_n}(%a, %b, %c) : (f32, f32, f32) -> f32`"))
for _n in INT_UNARY:
    _OPS.append(_make(f"llvm.intr.{_n}", _IntUnary, f"`%r = llvm.intr.{_n}(%a) : (i32) -> i32`"))
for _n in INT_BINARY:
    _OPS.append(_make(f"llvm.intr.{_n}", _IntBinary,
                      f"`%r = llvm.intr.{_n}(%a, %b) : (i32, i32) -> i32`"))


class _FloatToInt(IntrOp):
    traits = (T.Pure,)
    val = Operand(FloatLike)
    res = Result(IntLike)
    assembly = "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    overloaded = "res+args"


for _n in ("lround", "llround", "lrint", "llrint"):
    _OPS.append(_make(f"llvm.intr.{_n}", _FloatToInt,
                      f"`%r = llvm.intr.{_n}(%x) : (f32) -> i64`"))


class PowIOp(IntrOp):
    """`%r = llvm.intr.powi(%x, %n) : (f32, i32) -> f32`"""

    name = "llvm.intr.powi"
    traits = (T.Pure,)
    val = Operand(FloatLike)
    power = Operand(C.SignlessInteger)
    res = Result(FloatLike)
    fastmathFlags = Prop(FastmathAttr, default=FASTMATH_NONE,
                         fmt=StrippedAttr("llvm", "fastmath"))
    assembly = f"`(` operands `)` {_FM} attr-dict `:` functional-type(operands, results)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)
    overloaded = (0, 1)


class _BitCount(IntrOp):
    traits = (T.Pure, T.SameOperandsAndResultType)
    in_ = Operand(IntLike)
    is_zero_poison = Prop(I1Attr)
    res = Result(IntLike)


class CtlzOp(_BitCount):
    """`%r = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32`"""

    name = "llvm.intr.ctlz"


class CttzOp(_BitCount):
    """`%r = "llvm.intr.cttz"(%a) <{is_zero_poison = false}> : (i32) -> i32`"""

    name = "llvm.intr.cttz"


class AbsOp(IntrOp):
    """`%r = "llvm.intr.abs"(%a) <{is_int_min_poison = false}> : (i32) -> i32`"""

    name = "llvm.intr.abs"
    traits = (T.Pure, T.SameOperandsAndResultType)
    in_ = Operand(IntLike)
    is_int_min_poison = Prop(I1Attr)
    res = Result(IntLike)


class IsFPClassOp(IntrOp):
    """`%r = "llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1`"""

    name = "llvm.intr.is.fpclass"
    traits = (T.Pure,)
    in_ = Operand(FloatLike)
    bit = Prop(C.I32Attr)
    res = Result(IntLike)
    overloaded = (0,)


class _MemTransfer(IntrOp):
    dst = Operand(AnyPtr)
    src = Operand(AnyPtr)
    len = Operand(C.SignlessInteger)
    isVolatile = Prop(I1Attr)
    overloaded = (0, 1, 2)


class MemcpyOp(_MemTransfer):
    """`"llvm.intr.memcpy"(%d, %s, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr,
    i64) -> ()`"""

    name = "llvm.intr.memcpy"


class MemmoveOp(_MemTransfer):
    """`"llvm.intr.memmove"(%d, %s, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr,
    i64) -> ()`"""

    name = "llvm.intr.memmove"


class MemsetOp(IntrOp):
    """`"llvm.intr.memset"(%d, %v, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()`"""

    name = "llvm.intr.memset"
    dst = Operand(AnyPtr)
    val = Operand(C.Constraint(lambda t: t is A.i8, "8-bit signless integer"))
    len = Operand(C.SignlessInteger)
    isVolatile = Prop(I1Attr)
    overloaded = (0, 2)


class AssumeOp(IntrOp):
    """`llvm.intr.assume %c : i1`"""

    name = "llvm.intr.assume"
    cond = Operand(C.I1)
    op_bundle_operands = VarOperand()
    op_bundle_sizes = Prop(C.DenseI32Array)
    op_bundle_tags = Prop(optional=True)
    overloaded = ()

    @staticmethod
    def parse(p, st):
        ref = p.parse_operand()
        p.parse_optional_attr_dict(st)
        p.expect(":")
        st.operands = [p.resolve_operand(ref, p.parse_type())]
        st.properties["op_bundle_sizes"] = A.DenseArrayAttr(A.i32, [])

    def print(self, pr):
        c = self.operand(0)
        pr.out.append(f"{pr.op_name(self)} {pr.value(c)}")
        extra = {k: v for k, v in self._props.items() if k != "op_bundle_sizes"}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        pr.out.append(f" : {pr.type_str(c.type)}")


class PrefetchOp(IntrOp):
    """`"llvm.intr.prefetch"(%p) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}> :
    (!llvm.ptr) -> ()`"""

    name = "llvm.intr.prefetch"
    addr = Operand(AnyPtr)
    rw = Prop(C.I32Attr)
    hint = Prop(C.I32Attr)
    cache = Prop(C.I32Attr)
    overloaded = (0,)


class _FloatReduceBase(IntrOp):
    traits = (T.Pure,)
    res = Result(FloatLike)
    fastmathFlags = Prop(FastmathAttr, default=FASTMATH_NONE,
                         fmt=StrippedAttr("llvm", "fastmath"))
    assembly = f"`(` operands `)` {_FM} attr-dict `:` functional-type(operands, results)"
    _stored_defaults = (("fastmathFlags", FASTMATH_NONE),)


class _FloatReduce(_FloatReduceBase):
    in_ = Operand(VectorC)
    overloaded = (0,)


class _FloatReduceStart(_FloatReduceBase):
    start_value = Operand(FloatLike)
    input = Operand(VectorC)
    overloaded = (1,)


class _IntReduce(IntrOp):
    traits = (T.Pure,)
    in_ = Operand(VectorC)
    res = Result(IntLike)
    overloaded = (0,)


for _n in ("fmax", "fmin", "fmaximum", "fminimum"):
    _OPS.append(_make(f"llvm.intr.vector.reduce.{_n}", _FloatReduce,
                      f"`%r = llvm.intr.vector.reduce.{_n}(%v) : (vector<4xf32>) -> f32`"))
for _n in ("fadd", "fmul"):
    _OPS.append(_make(f"llvm.intr.vector.reduce.{_n}", _FloatReduceStart,
                      f"`%r = llvm.intr.vector.reduce.{_n}(%s, %v) : (f32, vector<4xf32>)"
                      " -> f32`"))
for _n in ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin"):
    _OPS.append(_make(f"llvm.intr.vector.reduce.{_n}", _IntReduce,
                      f'`%r = "llvm.intr.vector.reduce.{_n}"(%v) : (vector<4xi32>) -> i32`'))

# ---------------------------------------------------------------- vector shuffles

_MAX_VECTOR_BITS = 2 ** 17


def _vector_bits(t) -> int:
    """The (minimum) size of a vector in bits: LLVM caps vectors at 2^17 bits."""
    from .types import type_size_align
    n = 1
    for d in t.shape:
        n *= d
    e = t.element_type
    w = e.width if type(e) in (A.IntegerType, A.FloatType) else type_size_align(e)[0] * 8
    return n * w


def _small_vectors(*names):
    return T.PredTrait("vectors are not bigger than 2^17 bits.", lambda op: all(
        _vector_bits(op.value_of(n).type) <= _MAX_VECTOR_BITS for n in names))


def _scalable(t) -> bool:
    return any(t.scalable_dims or ())


class VectorInsertOp(IntrOp):
    """`%r = llvm.intr.vector.insert %sub, %v[4] : vector<4xf32> into vector<[8]xf32>`:
    `%sub` written into `%v` from element `pos` on (generic operand order: dstvec,
    srcvec)."""

    name = "llvm.intr.vector.insert"
    traits = (T.Pure, T.AllTypesMatch("dstvec", "res"),
              _small_vectors("srcvec", "dstvec"),
              T.PredTrait("it is not inserting scalable into fixed-length vectors.",
                          lambda op: not _scalable(op.srcvec.type) or
                          _scalable(op.dstvec.type)))
    dstvec = Operand(VectorC)
    srcvec = Operand(VectorC)
    pos = Prop(C.I64Attr)
    res = Result(VectorC)
    overloaded = (0, 1)  # llvm.vector.insert.<dst = result>.<src>

    @staticmethod
    def parse(p, st):
        src = p.parse_operand()
        p.expect(",")
        dst = p.parse_operand()
        p.expect("[")
        st.properties["pos"] = A.IntegerAttr(p.parse_integer(), A.i64)
        p.expect("]")
        p.parse_optional_attr_dict(st)
        p.expect(":")
        st_ = p.parse_type()
        p.parse_keyword("into")
        rt = p.parse_type()
        st.operands = [p.resolve_operand(dst, rt), p.resolve_operand(src, st_)]
        st.types = [rt]

    def print(self, pr):
        d, s = self.operand(0), self.operand(1)
        pr.out.append(f"{pr.op_name(self)} {pr.value(s)}, {pr.value(d)}"
                      f"[{self._props['pos'].value}]")
        extra = {k: v for k, v in self._props.items() if k != "pos"}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        pr.out.append(f" : {pr.type_str(s.type)} into {pr.type_str(self.results[0].type)}")


class VectorExtractOp(IntrOp):
    """`%r = llvm.intr.vector.extract %v[0] : vector<4xf32> from vector<[8]xf32>`"""

    name = "llvm.intr.vector.extract"
    traits = (T.Pure, _small_vectors("srcvec", "res"),
              T.PredTrait("it is not extracting scalable from fixed-length vectors.",
                          lambda op: not _scalable(op.res.type) or
                          _scalable(op.srcvec.type)))
    srcvec = Operand(VectorC)
    pos = Prop(C.I64Attr)
    res = Result(VectorC)
    overloaded = "res+args"

    @staticmethod
    def parse(p, st):
        src = p.parse_operand()
        p.expect("[")
        st.properties["pos"] = A.IntegerAttr(p.parse_integer(), A.i64)
        p.expect("]")
        p.parse_optional_attr_dict(st)
        p.expect(":")
        rt = p.parse_type()
        p.parse_keyword("from")
        st.operands = [p.resolve_operand(src, p.parse_type())]
        st.types = [rt]

    def print(self, pr):
        s = self.operand(0)
        pr.out.append(f"{pr.op_name(self)} {pr.value(s)}[{self._props['pos'].value}]")
        extra = {k: v for k, v in self._props.items() if k != "pos"}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        pr.out.append(f" : {pr.type_str(self.results[0].type)} from {pr.type_str(s.type)}")


def _twice_vec1(op) -> bool:
    a, r = op.vec1.type, op.res.type
    return (type(a) is A.VectorType and type(r) is A.VectorType
            and r.element_type is a.element_type and len(a.shape) == len(r.shape) == 1
            and r.shape[0] == 2 * a.shape[0] and _scalable(a) == _scalable(r))


class VectorInterleave2Op(IntrOp):
    """`%r = "llvm.intr.vector.interleave2"(%a, %b) : (vector<4xf32>, vector<4xf32>) ->
    vector<8xf32>` (generic form only, as upstream)."""

    name = "llvm.intr.vector.interleave2"
    traits = (T.Pure, T.AllTypesMatch("vec1", "vec2"),
              T.PredTrait("result has twice as many elements as 'vec1'", _twice_vec1))
    vec1 = Operand(VectorC)
    vec2 = Operand(VectorC)
    res = Result(VectorC)
    overloaded = "res"


StructC = C.Constraint(lambda t: isinstance(t, LLVMStructType), "LLVM structure type")


class VectorDeinterleave2Op(IntrOp):
    """`%s = "llvm.intr.vector.deinterleave2"(%v) : (vector<16xf32>) ->
    !llvm.struct<(vector<8xf32>, vector<8xf32>)>` (generic form only)."""

    name = "llvm.intr.vector.deinterleave2"
    traits = (T.Pure,)
    vec = Operand(VectorC)
    res = Result(StructC)
    overloaded = (0,)


VECTOR_SHUFFLE_OPS = [VectorInsertOp, VectorExtractOp, VectorInterleave2Op,
                      VectorDeinterleave2Op]

# Optional memory-access metadata of the memory intrinsics (kept, not translated).
for _c in (MemcpyOp, MemmoveOp, MemsetOp):
    add_optional_props(_c, ("arg_attrs", "res_attrs", "access_groups", "alias_scopes",
                            "noalias_scopes", "tbaa"))

INTRINSIC_OPS = _OPS + [PowIOp, CtlzOp, CttzOp, AbsOp, IsFPClassOp, MemcpyOp, MemmoveOp,
                        MemsetOp, AssumeOp, PrefetchOp] + VECTOR_SHUFFLE_OPS

for _c in INTRINSIC_OPS:
    if _c.assembly is not None:
        install_format(_c)

__all__ = ["INTRINSIC_OPS", "IntrOp", "FLOAT_UNARY", "FLOAT_BINARY", "INT_UNARY",
           "INT_BINARY"]
