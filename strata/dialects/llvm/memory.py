"""The llvm dialect's memory ops: getelementptr, load, store, alloca.

    %q = llvm.getelementptr inbounds %p[%i, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, i32, f32)>
    %v = llvm.load volatile %p atomic acquire <alignment = 4, nontemporal> : !llvm.ptr -> f32
    llvm.store %v, %p <alignment = 4> : f32, !llvm.ptr
    %a = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr

Properties of loads and stores that their keywords do not spell are printed as a list
`<name = value, unit-name>` (integers without their type), as upstream.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, OptProp, Prop, Result, VarOperand
from ...syntax.asm_format import parse_strict_attr_dict
from ...syntax.lexer import PERCENT, PUNCT
from .ops import I64_0, I32_0, AnyPtr, LLVMType, PtrOrVecOfPtr, _opt_keyword
from .types import LLVMArrayType, LLVMStructType

ORDERINGS = ["not_atomic", "unordered", "monotonic", "consume", "acquire", "release",
             "acq_rel", "seq_cst"]


def _raw_prop_text(a) -> str:
    """A property in a `<name = value>` list: integers without their type."""
    if type(a) is A.IntegerAttr and type(a.type) is A.IntegerType and a.type.width != 1:
        return str(a.value)
    return A.attr_text(a)


def print_prop_list(pr, op, skip):
    """` <alignment = 4, nontemporal>`: the properties a format does not spell out."""
    items = []
    defaults = dict(getattr(type(op), "_stored_defaults", ()))
    # Declaration order, as upstream's prop-dict prints (names not declared last).
    order = {d.name: i for i, d in enumerate(type(op)._prop_defs)}
    for k in sorted(op._props, key=lambda k: (order.get(k, len(order)), k)):
        if k in skip:
            continue
        v = op._props[k]
        if defaults.get(k) is v:
            continue
        items.append(k if isinstance(v, A.UnitAttr) else f"{k} = {_raw_prop_text(v)}")
    if items:
        pr.out.append(" <" + ", ".join(items) + ">")


def parse_prop_list(p, st):
    """` <alignment = 4, nontemporal>` (see print_prop_list)."""
    if not (p.kind == PUNCT and p.tok == "<"):
        return
    p._next()
    while True:
        name = p.parse_keyword()
        if p.consume_if("="):
            st.properties[name] = p.parse_attribute()
        else:
            st.properties[name] = A.UnitAttr()
        if not p.consume_if(","):
            break
    p.expect(">")



# ---------------------------------------------------------------- getelementptr

GEP_DYNAMIC = -(2 ** 31)


def gep_flags_text(v: int) -> str:
    """`inbounds`, `nusw`, `nuw`, `inbounds|nuw`...: upstream's GEPNoWrapFlags."""
    parts = []
    if v & 3 == 3:
        parts.append("inbounds")
    elif v & 1:
        parts.append("inbounds_flag")
    elif v & 2:
        parts.append("nusw")
    if v & 4:
        parts.append("nuw")
    return "|".join(parts)


_GEP_WORDS = {"inbounds": 3, "inbounds_flag": 1, "nusw": 2, "nuw": 4, "none": 0}


class GEPOp(Op):
    """`%q = llvm.getelementptr inbounds %p[%i, 2] : (!llvm.ptr, i64) -> !llvm.ptr,
    !llvm.struct<(i32, i32, f32)>`: constant indices are kept in `rawConstantIndices`
    (the dynamic ones are marked there with INT32_MIN)."""

    name = "llvm.getelementptr"
    traits = (T.Pure,)
    base = Operand(PtrOrVecOfPtr)
    dynamicIndices = VarOperand()
    rawConstantIndices = Prop(C.DenseI32Array)
    elem_type = Prop(C.TypeAttrC)
    noWrapFlags = Prop(C.I32Attr, default=I32_0)
    res = Result(PtrOrVecOfPtr)
    _stored_defaults = (("noWrapFlags", I32_0),)

    @classmethod
    def new(cls, base, indices, elem_type, result_type=None, flags=0, loc=None):
        """`indices`: ints (constants) and values (dynamic)."""
        raw, dyn = [], []
        for i in indices:
            if isinstance(i, int):
                raw.append(i)
            else:
                raw.append(GEP_DYNAMIC)
                dyn.append(i)
        props = {"rawConstantIndices": A.DenseArrayAttr(A.i32, raw),
                 "elem_type": A.TypeAttr(elem_type)}
        if flags:
            props["noWrapFlags"] = A.IntegerAttr(flags, A.i32)
        return cls.create([base] + dyn, [result_type or base.type], props, None, (), 0, loc)

    @property
    def indices(self):
        """The indices in order: ints for constants, values for dynamic ones."""
        dyn = iter(self.operands[1:])
        return [next(dyn) if i == GEP_DYNAMIC else i
                for i in self._props["rawConstantIndices"].value]

    @staticmethod
    def parse(p, st):
        flags = 0
        while p.kind == 8 and p.tok in _GEP_WORDS:
            flags |= _GEP_WORDS[p.tok]
            p._next()
            if not p.consume_if("|"):
                break
        if flags:
            st.properties["noWrapFlags"] = A.IntegerAttr(flags, A.i32)
        base = p.parse_operand()
        p.expect("[")
        raw, refs = [], []
        if not p.consume_if("]"):
            while True:
                if p.kind == PERCENT:
                    refs.append(p.parse_operand())
                    raw.append(GEP_DYNAMIC)
                else:
                    raw.append(p.parse_integer())
                if not p.consume_if(","):
                    break
            p.expect("]")
        st.properties["rawConstantIndices"] = A.DenseArrayAttr(A.i32, raw)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        start = p.tok_start
        ft = p.parse_type()
        if not isinstance(ft, A.FunctionType):
            p.error(p._custom_prefix() + "invalid kind of type specified: expected "
                    f"builtin.function, but found '{ft}'", start)
        p.expect(",")
        st.properties["elem_type"] = A.TypeAttr(p.parse_type())
        st.operands = p.resolve_operands([base] + refs, list(ft.inputs))
        st.types = list(ft.results)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        f = self._props.get("noWrapFlags")
        if f is not None and f.value:
            out.append(" " + gep_flags_text(f.value))
        ops = self.operands
        dyn = iter(ops[1:])
        idx = [pr.value(next(dyn)) if i == GEP_DYNAMIC else str(i)
               for i in self._props["rawConstantIndices"].value]
        out.append(f" {pr.value(ops[0])}[" + ", ".join(idx) + "]")
        pr.print_optional_attr_dict(self._attrs)
        out.append(" : " + pr.type_str(A.FunctionType([v.type for v in ops],
                                                      [self.results[0].type])))
        out.append(", " + pr.type_str(self._props["elem_type"].value))

    def verify_(self):
        f = self._props.get("noWrapFlags")
        if f is not None and f.value == _GEP_WORDS["inbounds_flag"]:
            return "'inbounds_flag' cannot be used directly."
        raw = self._props["rawConstantIndices"].value
        ndyn = sum(1 for i in raw if i == GEP_DYNAMIC)
        if ndyn != len(self.operands) - 1:
            return "expected as many dynamic indices as specified in 'rawConstantIndices'"
        t = self._props["elem_type"].value
        # Indices after the first walk into the element type.
        ops = iter(self.operands[1:])
        for k, i in enumerate(raw):
            v = next(ops) if i == GEP_DYNAMIC else None
            if k == 0:
                continue
            if isinstance(t, LLVMStructType):
                if v is not None:
                    return "expected index 1 indexing a struct to be constant"
                if t.types is None or not 0 <= i < len(t.types):
                    return f"index {k} indexing a struct is out of bounds"
                t = t.types[i]
            elif isinstance(t, (LLVMArrayType, A.VectorType)):
                t = t.element_type
            else:
                return (f"type '{t}' cannot be indexed (index #{k})")
        return None


class _MemAccess(Op):
    """What loads and stores share: alignment, volatility, atomicity, metadata (each
    declares its operands: their order is the declaration order)."""

    alignment = OptProp(C.I64Attr)
    volatile_ = OptProp(C.UnitAttrC)
    nontemporal = OptProp(C.UnitAttrC)
    invariantGroup = OptProp(C.UnitAttrC)
    ordering = Prop(C.I64Attr, default=I64_0)
    syncscope = OptProp(C.StrAttr)
    access_groups = OptProp(C.ArrayAttrC)
    alias_scopes = OptProp(C.ArrayAttrC)
    noalias_scopes = OptProp(C.ArrayAttrC)
    tbaa = OptProp(C.ArrayAttrC)
    _stored_defaults = (("ordering", I64_0),)


class LoadOp(_MemAccess):
    """`%v = llvm.load %p <alignment = 4> : !llvm.ptr -> f32`"""

    name = "llvm.load"
    addr = Operand(AnyPtr)
    res = Result(LLVMType)
    invariant = OptProp(C.UnitAttrC)
    dereferenceable = OptProp()
    _FORMAT_PROPS = frozenset({"volatile_", "ordering", "syncscope", "invariant",
                               "invariantGroup", "dereferenceable"})

    @classmethod
    def new(cls, addr, type, alignment=None, loc=None):
        return cls.build(loc=loc, addr=addr, res=type, alignment=None if alignment is None
                         else A.IntegerAttr(alignment, A.i64))

    @staticmethod
    def parse(p, st):
        props = st.properties
        if p.parse_optional_keyword("volatile"):
            props["volatile_"] = A.UnitAttr()
        ref = p.parse_operand()
        _parse_atomic(p, props)
        if p.parse_optional_keyword("invariant"):
            props["invariant"] = A.UnitAttr()
        if p.parse_optional_keyword("invariant_group"):
            props["invariantGroup"] = A.UnitAttr()
        if p.parse_optional_keyword("dereferenceable"):
            props["dereferenceable"] = p.ctx.get_dialect("llvm").parse_attribute(
                p, "dereferenceable")
        parse_prop_list(p, st)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        pt = p.parse_type()
        p.expect("->")
        st.types = [p.parse_type()]
        st.operands = [p.resolve_operand(ref, pt)]

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        if "volatile_" in props:
            out.append(" volatile")
        out.append(" " + pr.value(self.operand(0)))
        _print_atomic(out, props)
        if "invariant" in props:
            out.append(" invariant")
        if "invariantGroup" in props:
            out.append(" invariant_group")
        d = props.get("dereferenceable")
        if d is not None:
            s = pr.attr_str(d)
            out.append(" dereferenceable" + s[len("#llvm.dereferenceable"):])
        print_prop_list(pr, self, self._FORMAT_PROPS)
        pr.print_optional_attr_dict(self._attrs)
        out.append(f" : {pr.type_str(self.operand(0).type)} -> "
                   f"{pr.type_str(self.results[0].type)}")

    def verify_(self):
        return _verify_atomic(self, ("release", "acq_rel"))


def _parse_atomic(p, props):
    if p.parse_optional_keyword("atomic"):
        if p.parse_optional_keyword("syncscope"):
            p.expect("(")
            props["syncscope"] = A.StringAttr(p.parse_string())
            p.expect(")")
        start = p.tok_start
        o = _opt_keyword(p, ORDERINGS)
        if o is None:
            p.error("expected an atomic ordering", start)
        props["ordering"] = A.IntegerAttr(o, A.i64)


def _print_atomic(out, props):
    o = props.get("ordering")
    if o is not None and o.value:
        out.append(" atomic")
        s = props.get("syncscope")
        if s is not None:
            out.append(f' syncscope("{A.escape_string(s.value)}")')
        out.append(" " + ORDERINGS[o.value])


def _verify_atomic(op, forbidden):
    o = op._props.get("ordering")
    if o is None or not o.value:
        if "syncscope" in op._props:
            return "expected syncscope to be null for non-atomic access"
        return None
    if ORDERINGS[o.value] in forbidden:
        return f"unsupported ordering '{ORDERINGS[o.value]}'"
    if "alignment" not in op._props:
        return "expected alignment for atomic access"
    return None


class StoreOp(_MemAccess):
    """`llvm.store %v, %p <alignment = 4> : f32, !llvm.ptr`"""

    name = "llvm.store"
    value = Operand(LLVMType)
    addr = Operand(AnyPtr)
    _FORMAT_PROPS = frozenset({"volatile_", "ordering", "syncscope", "invariantGroup"})

    @classmethod
    def new(cls, value, addr, alignment=None, loc=None):
        return cls.build(loc=loc, value=value, addr=addr, alignment=None if alignment is None
                         else A.IntegerAttr(alignment, A.i64))

    @staticmethod
    def parse(p, st):
        props = st.properties
        if p.parse_optional_keyword("volatile"):
            props["volatile_"] = A.UnitAttr()
        vref = p.parse_operand()
        p.expect(",")
        aref = p.parse_operand()
        _parse_atomic(p, props)
        if p.parse_optional_keyword("invariant_group"):
            props["invariantGroup"] = A.UnitAttr()
        parse_prop_list(p, st)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        vt = p.parse_type()
        p.expect(",")
        pt = p.parse_type()
        st.operands = [p.resolve_operand(vref, vt), p.resolve_operand(aref, pt)]

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        if "volatile_" in props:
            out.append(" volatile")
        out.append(f" {pr.value(self.operand(0))}, {pr.value(self.operand(1))}")
        _print_atomic(out, props)
        if "invariantGroup" in props:
            out.append(" invariant_group")
        print_prop_list(pr, self, self._FORMAT_PROPS)
        pr.print_optional_attr_dict(self._attrs)
        out.append(f" : {pr.type_str(self.operand(0).type)}, "
                   f"{pr.type_str(self.operand(1).type)}")

    def verify_(self):
        return _verify_atomic(self, ("acquire", "acq_rel"))


class AllocaOp(Op):
    """`%p = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr`"""

    name = "llvm.alloca"
    arraySize = Operand(C.SignlessInteger)
    alignment = OptProp(C.I64Attr)
    elem_type = Prop(C.TypeAttrC)
    inalloca = OptProp(C.UnitAttrC)
    res = Result(AnyPtr)

    @staticmethod
    def parse(p, st):
        if p.parse_optional_keyword("inalloca"):
            st.properties["inalloca"] = A.UnitAttr()
        ref = p.parse_operand()
        p.parse_keyword("x")
        st.properties["elem_type"] = A.TypeAttr(p.parse_type())
        p.parse_optional_attr_dict(st)
        for bag in (st.properties, st.attributes):
            al = bag.get("alignment")
            if al is not None and type(al) is not A.IntegerAttr:
                p.error(p._custom_prefix() + "expected integer alignment", p.custom_op_offset)
        p.expect(":")
        start = p.tok_start
        ft = p.parse_type()
        # any type parses; upstream then asks for `(size type) -> result type`
        if not isinstance(ft, A.FunctionType) or len(ft.inputs) != 1 or \
                len(ft.results) != 1:
            p.error(p._custom_prefix() + "expected trailing function type with one "
                    "argument and one result", start)
        st.operands = p.resolve_operands([ref], list(ft.inputs))
        st.types = list(ft.results)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        if "inalloca" in self._props:
            out.append(" inalloca")
        out.append(f" {pr.value(self.operand(0))} x "
                   f"{pr.type_str(self._props['elem_type'].value)}")
        extra = {k: v for k, v in self._props.items() if k not in ("elem_type", "inalloca")}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        out.append(" : " + pr.type_str(A.FunctionType([self.operand(0).type],
                                                      [self.results[0].type])))


MEMORY_OPS = [GEPOp, LoadOp, StoreOp, AllocaOp]

__all__ = [c.__name__ for c in MEMORY_OPS] + ["MEMORY_OPS", "GEP_DYNAMIC", "gep_flags_text",
                                              "ORDERINGS"]
