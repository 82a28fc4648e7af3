"""The llvm dialect's atomic ops: atomicrmw, cmpxchg and fence, with upstream's forms.

    %o = llvm.atomicrmw volatile add %p, %v syncscope("agent") acq_rel <alignment = 4> : !llvm.ptr, i32
    %s = llvm.cmpxchg weak %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32
    llvm.fence syncscope("agent") seq_cst

Orderings and binary operations are I64 enums (`ordering = 2 : i64` in the generic
form: monotonic); cmpxchg's result is `!llvm.struct<(T, i1)>` (old value, success).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir.ods import Op, Operand, OptProp, Prop, Result
from ...syntax.asm_format import custom_op_prefix, parse_strict_attr_dict
from .memory import ORDERINGS, parse_prop_list, print_prop_list
from .ops import AnyPtr
from .types import LLVMPointerType, LLVMStructType, is_compatible_type

# Upstream's AtomicOrdering has no `consume` (value 3 is not a case).
ORDERING_CASES = {n: i for i, n in enumerate(ORDERINGS) if n != "consume"}
BIN_OPS = {n: i for i, n in enumerate(
    ["xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin",
     "fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat",
     "fmaximum", "fminimum", "fmaximumnum", "fminimumnum"])}
_BIN_NAMES = {i: n for n, i in BIN_OPS.items()}
_FLOAT_BIN_OPS = frozenset(BIN_OPS[n] for n in (
    "fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum", "fmaximumnum", "fminimumnum"))
_LLVM_FLOATS = ("f16", "bf16", "f32", "f64", "f80", "f128")


def _enum_prop(cases):
    vals = frozenset(cases.values())
    return C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i64
                        and a.value in vals, "")


def _llvm_float(t):
    return type(t) is A.FloatType and t.name in _LLVM_FLOATS


def _fixed_vector(t):
    return type(t) is A.VectorType and not any(t.scalable_dims or ()) and \
        is_compatible_type(t)


AtomicRMWType = C.Constraint(
    lambda t: _llvm_float(t) or isinstance(t, LLVMPointerType) or
    (type(t) is A.IntegerType and t.signedness == 0) or _fixed_vector(t),
    "floating point LLVM type or LLVM pointer type or signless integer or LLVM "
    "dialect-compatible fixed-length vector type")
CmpXchgType = C.Constraint(
    lambda t: (type(t) is A.IntegerType and t.signedness == 0) or
    isinstance(t, LLVMPointerType), "signless integer or LLVM pointer type")
StructC = C.Constraint(lambda t: isinstance(t, LLVMStructType), "LLVM structure type")
OrderingAttr = _enum_prop(ORDERING_CASES)
OrderingAttr.summary = "Atomic ordering for LLVM's memory model"
BinOpAttr = _enum_prop(BIN_OPS)
BinOpAttr.summary = "llvm.atomicrmw binary operations"


def _parse_enum(p, cases, what):
    kw = p.tok if p.kind == 8 else p.tok[1:-1] if p.kind == 9 else None
    v = cases.get(kw)
    if v is None:
        p.error(custom_op_prefix(p) + "expected string or keyword containing one of the "
                f"following enum values for attribute '{what}' [{', '.join(cases)}]")
    p._next()
    return A.IntegerAttr(v, A.i64)


def _ordering_name(a):
    return ORDERINGS[a.value]


def _parse_syncscope(p, props):
    if p.parse_optional_keyword("syncscope"):
        p.expect("(")
        props["syncscope"] = A.StringAttr(p.parse_string())
        p.expect(")")


def _print_syncscope(out, props):
    s = props.get("syncscope")
    if s is not None:
        out.append(f' syncscope("{A.escape_string(s.value)}")')


def _check_type(p, t, constraint, name):
    """Upstream infers these ops' result types while parsing, which checks the value's
    constraint there: `custom op 'llvm.atomicrmw' 'val' must be ...`."""
    if not constraint.check(t):
        p.error(custom_op_prefix(p) + f"'{name}' must be {constraint.summary}, but got "
                f"'{t}'", p.custom_op_offset)


def _parse_tail(p, st, constraint):
    """The end both custom forms share: `<{props}> {attrs} : ptr-type, val-type`, the
    value's type checked against `constraint`; (pointer type, value type)."""
    parse_prop_list(p, st)
    parse_strict_attr_dict(p, st)
    p.expect(":")
    pt = p.parse_type()
    p.expect(",")
    vt = p.parse_type()
    _check_type(p, vt, constraint, "val")
    return pt, vt


def _atomic_operand_ok(t) -> bool:
    """isTypeCompatibleWithAtomicOp: pointers, LLVM floats, and integers whose width is
    a power of two of at least 8 bits."""
    if isinstance(t, LLVMPointerType) or _llvm_float(t):
        return True
    if type(t) is A.IntegerType:
        w = t.width
        return w >= 8 and w & (w - 1) == 0
    return False


class _Atomic(Op):
    alignment = OptProp(C.I64Attr)
    syncscope = OptProp(C.StrAttr)
    volatile_ = OptProp(C.UnitAttrC)
    access_groups = OptProp(C.ArrayAttrC)
    alias_scopes = OptProp(C.ArrayAttrC)
    noalias_scopes = OptProp(C.ArrayAttrC)
    tbaa = OptProp(C.ArrayAttrC)


class AtomicRMWOp(_Atomic):
    """`%o = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32` (the result is the old
    value)."""

    name = "llvm.atomicrmw"
    ptr = Operand(AnyPtr)
    val = Operand(AtomicRMWType)
    bin_op = Prop(BinOpAttr)
    ordering = Prop(OrderingAttr)
    res = Result(AtomicRMWType)
    _FORMAT_PROPS = frozenset({"volatile_", "bin_op", "syncscope", "ordering"})

    @staticmethod
    def parse(p, st):
        props = st.properties
        if p.parse_optional_keyword("volatile"):
            props["volatile_"] = A.UnitAttr()
        props["bin_op"] = _parse_enum(p, BIN_OPS, "bin_op")
        pref = p.parse_operand()
        p.expect(",")
        vref = p.parse_operand()
        _parse_syncscope(p, props)
        props["ordering"] = _parse_enum(p, ORDERING_CASES, "ordering")
        pt, vt = _parse_tail(p, st, AtomicRMWType)
        st.operands = [p.resolve_operand(pref, pt), p.resolve_operand(vref, vt)]
        st.types = [vt]

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        if "volatile_" in props:
            out.append(" volatile")
        b = props["bin_op"].value
        out.append(f" {_BIN_NAMES.get(b, b)} {pr.value(self.operand(0))}, "
                   f"{pr.value(self.operand(1))}")
        _print_syncscope(out, props)
        out.append(" " + _ordering_name(props["ordering"]))
        print_prop_list(pr, self, self._FORMAT_PROPS)
        pr.print_optional_attr_dict(self._attrs)
        out.append(f" : {pr.type_str(self.operand(0).type)}, "
                   f"{pr.type_str(self.operand(1).type)}")

    def verify_(self):
        vt = self.operand(1).type
        if self.results[0].type != vt:
            return "failed to verify that result #0 and operand #1 have the same type"
        b = self._props["bin_op"].value
        if b in _FLOAT_BIN_OPS:
            if type(vt) is A.VectorType:
                if not _llvm_float(vt.element_type):
                    return "expected LLVM IR floating point type for vector element"
            elif not _llvm_float(vt):
                return "expected LLVM IR floating point type"
        elif b == BIN_OPS["xchg"]:
            if not _atomic_operand_ok(vt):
                return "unexpected LLVM IR type for 'xchg' bin_op"
        elif not (type(vt) is A.IntegerType and vt.width in (8, 16, 32, 64)):
            return "expected LLVM IR integer type"
        if self._props["ordering"].value < ORDERING_CASES["monotonic"]:
            return "expected at least 'monotonic' ordering"
        return None


class AtomicCmpXchgOp(_Atomic):
    """`%s = llvm.cmpxchg %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32`: the result
    is `!llvm.struct<(i32, i1)>`, the old value and whether it was replaced."""

    name = "llvm.cmpxchg"
    ptr = Operand(AnyPtr)
    cmp = Operand(CmpXchgType)
    val = Operand(CmpXchgType)
    success_ordering = Prop(OrderingAttr)
    failure_ordering = Prop(OrderingAttr)
    weak = OptProp(C.UnitAttrC)
    res = Result(StructC)
    _FORMAT_PROPS = frozenset({"weak", "volatile_", "syncscope", "success_ordering",
                               "failure_ordering"})

    @staticmethod
    def parse(p, st):
        props = st.properties
        if p.parse_optional_keyword("weak"):
            props["weak"] = A.UnitAttr()
        if p.parse_optional_keyword("volatile"):
            props["volatile_"] = A.UnitAttr()
        refs = [p.parse_operand()]
        p.expect(",")
        refs.append(p.parse_operand())
        p.expect(",")
        refs.append(p.parse_operand())
        _parse_syncscope(p, props)
        props["success_ordering"] = _parse_enum(p, ORDERING_CASES, "success_ordering")
        props["failure_ordering"] = _parse_enum(p, ORDERING_CASES, "failure_ordering")
        pt, vt = _parse_tail(p, st, CmpXchgType)
        st.operands = p.resolve_operands(refs, [pt, vt, vt])
        st.types = [LLVMStructType([vt, A.i1])]

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        if "weak" in props:
            out.append(" weak")
        if "volatile_" in props:
            out.append(" volatile")
        out.append(" " + ", ".join(pr.value(self.operand(i)) for i in range(3)))
        _print_syncscope(out, props)
        out.append(f" {_ordering_name(props['success_ordering'])} "
                   f"{_ordering_name(props['failure_ordering'])}")
        print_prop_list(pr, self, self._FORMAT_PROPS)
        pr.print_optional_attr_dict(self._attrs)
        out.append(f" : {pr.type_str(self.operand(0).type)}, "
                   f"{pr.type_str(self.operand(2).type)}")

    def verify_(self):
        vt = self.operand(2).type
        if self.operand(1).type != vt:
            return "failed to verify that operand #1 and operand #2 have the same type"
        rt = self.results[0].type
        if rt.types is None or list(rt.types) != [vt, A.i1]:
            return ("failed to verify that result #0 has an LLVM struct type consisting "
                    "of the type of operand #2 and a bool")
        if not _atomic_operand_ok(vt):
            return "unexpected LLVM IR type"
        mono = ORDERING_CASES["monotonic"]
        s = self._props["success_ordering"].value
        f = self._props["failure_ordering"].value
        if s < mono or f < mono:
            return "ordering must be at least 'monotonic'"
        if ORDERINGS[f] in ("release", "acq_rel"):
            return "failure ordering cannot be 'release' or 'acq_rel'"
        return None


class FenceOp(Op):
    """`llvm.fence syncscope("agent") seq_cst`"""

    name = "llvm.fence"
    ordering = Prop(OrderingAttr)
    syncscope = OptProp(C.StrAttr)

    @staticmethod
    def parse(p, st):
        _parse_syncscope(p, st.properties)
        st.properties["ordering"] = _parse_enum(p, ORDERING_CASES, "ordering")
        parse_strict_attr_dict(p, st)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        _print_syncscope(out, self._props)
        out.append(" " + _ordering_name(self._props["ordering"]))
        pr.print_optional_attr_dict(self._attrs)

    def verify_(self):
        if ORDERINGS[self._props["ordering"].value] not in (
                "acquire", "release", "acq_rel", "seq_cst"):
            return "can be given only acquire, release, acq_rel, and seq_cst orderings"
        return None


ATOMIC_OPS = [AtomicRMWOp, AtomicCmpXchgOp, FenceOp]

__all__ = [c.__name__ for c in ATOMIC_OPS] + ["ATOMIC_OPS", "BIN_OPS", "ORDERING_CASES"]
