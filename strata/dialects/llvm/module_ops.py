"""The llvm dialect's module-level ops besides functions and globals: static
constructors and destructors, global aliases, module flags, comdats and block addresses, with upstream's forms and verifiers.

    llvm.mlir.global_ctors ctors = [@init], priorities = [0 : i32], data = [#llvm.zero]
    llvm.mlir.global_dtors dtors = [@fini], priorities = [0 : i32], data = [@fini]
    llvm.mlir.alias private thread_local unnamed_addr @y : i32 {
      %0 = llvm.mlir.addressof @x : !llvm.ptr
      llvm.return %0 : !llvm.ptr
    }
    llvm.module_flags [#llvm.mlir.module_flag<max, "PIC Level", 2 : i32>]
    %a = llvm.blockaddress <function = @f, tag = <id = 1>> : !llvm.ptr  (in @f: llvm.blocktag <id = 1>)
"""
from __future__ import annotations

import re

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, OptProp, Prop, RegionDef, Result
from .ops import (EXTERNAL, I64_0, AnyPtr, LinkageAttr, _i64_enum_prop, emit_error,
                  parse_global_prefix, print_global_prefix)
from .types import (LLVMOpaqueAttr, LLVMPointerType, LLVMSimpleType, LLVMVoidType,
                    is_compatible_type)

FlatSymbolRefArray = C.Constraint(
    lambda a: type(a) is A.ArrayAttr and all(
        type(x) is A.SymbolRefAttr and not x.nested for x in a.value),
    "flat symbol ref array attribute")
I32Array = C.Constraint(
    lambda a: type(a) is A.ArrayAttr and all(
        type(x) is A.IntegerAttr and x.type is A.i32 for x in a.value),
    "32-bit integer array attribute")


def _is_zero(a) -> bool:
    return getattr(a, "mnemonic", None) == "zero"


class _Xtors(Op):
    """What global_ctors and global_dtors share: `<kind>s = [@f, ...], priorities = [...],
    data = [...]` (three lists of one length; a data element is a symbol or
    `#llvm.zero`)."""

    traits = ()
    priorities = Prop(I32Array)
    data = Prop(C.ArrayAttrC)
    _kind = ""

    @classmethod
    def parse(cls, p, st):
        for i, key in enumerate((cls._kind + "s", "priorities", "data")):
            if i:
                p.expect(",")
            p.parse_keyword(key)
            p.expect("=")
            st.properties[key] = p.parse_attribute()
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        props = self._props
        key = self._kind + "s"
        pr.out.append(f"{pr.op_name(self)} {key} = {pr.attr_str(props[key])}, priorities = "
                      f"{pr.attr_str(props['priorities'])}, data = "
                      f"{pr.attr_str(props['data'])}")
        pr.print_optional_attr_dict(self._attrs)

    def verify_(self):
        data = self._props["data"].value
        for d in data:
            if not (type(d) is A.SymbolRefAttr or _is_zero(d)):
                emit_error(self.loc, "data element must be symbol or #llvm.zero")
        n = len(self._props[self._kind + "s"].value)
        if not n == len(self._props["priorities"].value) == len(data):
            emit_error(self.loc, f"{self._kind}s, priorities, and data must have the same "
                      "number of elements")
        return None

    def verify_symbol_uses(self):
        from ...ir.symbol_table import lookup_nearest_symbol_from
        for ref in self._props[self._kind + "s"].value:
            f = lookup_nearest_symbol_from(self, ref)
            name = ref.root
            if f is None or f.name != "llvm.func":
                return f"'{name}' does not reference a valid LLVM function"
            if not f.regions[0].blocks:
                return f"'{name}' does not have a definition"
        return None


class GlobalCtorsOp(_Xtors):
    """`llvm.mlir.global_ctors ctors = [@init], priorities = [0 : i32], data =
    [#llvm.zero]`: the module's static constructors (LLVM's @llvm.global_ctors)."""

    name = "llvm.mlir.global_ctors"
    ctors = Prop(FlatSymbolRefArray)
    _kind = "ctor"


class GlobalDtorsOp(_Xtors):
    """`llvm.mlir.global_dtors dtors = [@fini], priorities = [0 : i32], data =
    [#llvm.zero]`: the module's static destructors."""

    name = "llvm.mlir.global_dtors"
    dtors = Prop(FlatSymbolRefArray)
    _kind = "dtor"


# LLVM's verifier: the linkages an alias may have.
_ALIAS_LINKAGES = ("private", "internal", "linkonce", "weak", "linkonce_odr", "weak_odr",
                   "external", "available_externally")
_ALIAS_ELIDED = frozenset({"sym_name", "alias_type", "linkage", "visibility_", "tls_mode",
                           "unnamed_addr"})


class AliasOp(Op):
    """`llvm.mlir.alias external @y : i32 { ... llvm.return %p : !llvm.ptr }`: a symbol for
    the address its initializer region returns (LLVM's GlobalAlias)."""

    name = "llvm.mlir.alias"
    traits = (T.IsolatedFromAbove, T.Symbol)
    alias_type = Prop(C.TypeAttrC)
    sym_name = Prop(C.StrAttr)
    linkage = Prop(LinkageAttr, default=EXTERNAL)
    dso_local = OptProp(C.UnitAttrC)
    unnamed_addr = _i64_enum_prop()
    visibility_ = _i64_enum_prop()
    tls_mode = _i64_enum_prop()
    initializer = RegionDef()
    _stored_defaults = (("linkage", EXTERNAL), ("unnamed_addr", I64_0),
                        ("visibility_", I64_0), ("tls_mode", I64_0))

    @property
    def type(self):
        return self._props["alias_type"].value

    @property
    def addr_space(self) -> int:
        """The address space of the pointer the initializer returns."""
        blocks = self.regions[0].blocks
        ret = blocks[0].terminator if blocks else None
        if ret is not None:
            if ret.operands and isinstance(ret.operands[0].type, LLVMPointerType):
                return ret.operands[0].type.addr_space
        return 0

    @staticmethod
    def parse(p, st):
        props = st.properties
        parse_global_prefix(p, props)
        props["sym_name"] = A.StringAttr(p.parse_symbol_name())
        p.parse_optional_attr_dict(st)
        p.expect(":")
        props["alias_type"] = A.TypeAttr(p.parse_type())
        st.regions.append(p.parse_region(isolated=True, op_cls=st.cls))

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        print_global_prefix(out, props)
        out.append(" " + A.print_symbol_name(props["sym_name"].value))
        extra = {k: v for k, v in props.items() if k not in _ALIAS_ELIDED}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        out.append(" : " + pr.type_str(self.type) + " ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)

    def verify_(self):
        t = self.type
        if not is_compatible_type(t) or isinstance(t, LLVMVoidType) or (
                isinstance(t, LLVMSimpleType) and t.mnemonic in ("token", "label",
                                                                 "metadata")):
            return "expects type to be a valid element type for an LLVM global alias"
        lk = self._props.get("linkage", EXTERNAL).value
        if lk not in _ALIAS_LINKAGES:
            return (f"'{lk}' linkage not supported in aliases, available options: private, "
                    "internal, linkonce, weak, linkonce_odr, weak_odr, external or "
                    "available_externally")
        blocks = self.regions[0].blocks
        if len(blocks) != 1:
            return "expects region #0 to have 0 or 1 blocks" if blocks else \
                "initializer region must always return a pointer"
        ops = list(blocks[0].ops)
        ret = ops[-1] if ops else None
        if ret is None or ret.name != "llvm.return" or not ret.operands or \
                not isinstance(ret.operands[0].type, LLVMPointerType):
            return "initializer region must always return a pointer"
        for op in ops:
            traits = type(op).traits
            if not (T.Pure in traits or T.NoMemoryEffect in traits or
                    T.ConstantLike in traits):
                emit_error(op.loc, "ops with side effects are not allowed in alias "
                          "initializers")
        return None


def _is_module_flag(a) -> bool:
    return getattr(a, "mnemonic", None) == "mlir.module_flag"


class ModuleFlagsOp(Op):
    """`llvm.module_flags [#llvm.mlir.module_flag<max, "PIC Level", 2 : i32>]`: LLVM's
    `!llvm.module.flags` (each flag's key and value are checked as it is parsed)."""

    name = "llvm.module_flags"
    flags = Prop(C.ArrayAttrC)

    @staticmethod
    def parse(p, st):
        st.properties["flags"] = p.parse_attribute()
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        pr.out.append(f"{pr.op_name(self)} {pr.attr_str(self._props['flags'])}")
        pr.print_optional_attr_dict(self._attrs)

    def verify_(self):
        if not all(_is_module_flag(a) for a in self._props["flags"].value):
            return "expected a module flag attribute"
        return None


# ---------------------------------------------------------------- comdats

COMDAT_KINDS = ["any", "exactmatch", "largest", "nodeduplicate", "samesize"]


class ComdatOp(Op):
    """`llvm.comdat @__llvm_comdat { llvm.comdat_selector @any any }`: a symbol table of
    comdat selectors, named by globals and functions as `comdat(@__llvm_comdat::@any)`."""

    name = "llvm.comdat"
    traits = (T.SymbolTable, T.Symbol, T.NoTerminator, T.SingleBlock, T.NoRegionArguments,
              T.IsolatedFromAbove)
    sym_name = Prop(C.StrAttr)
    body = RegionDef(single_block=True)

    @staticmethod
    def parse(p, st):
        st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        st.regions.append(p.parse_region(isolated=True, op_cls=st.cls))
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        pr.out.append(f"{pr.op_name(self)} {A.print_symbol_name(self._props['sym_name'].value)} ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)
        pr.print_optional_attr_dict(self._attrs)

    def verify_regions_(self):
        for op in self.regions[0].blocks[0].ops if self.regions[0].blocks else ():
            if op.name != "llvm.comdat_selector":
                emit_error(op.loc, "only comdat selector symbols can appear in a comdat "
                          "region")
        return None


class ComdatSelectorOp(Op):
    """`llvm.comdat_selector @any any`: one comdat and its selection kind."""

    name = "llvm.comdat_selector"
    traits = (T.Symbol,)
    sym_name = Prop(C.StrAttr)
    comdat = Prop(C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i64 and
                               0 <= a.value < len(COMDAT_KINDS), "LLVM Comdat Types"))

    @staticmethod
    def parse(p, st):
        st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        kw = p.tok if p.kind == 8 else None
        if kw not in COMDAT_KINDS:
            p.error(p._custom_prefix() + "expected string or keyword containing one of the "
                    "following enum values for attribute 'comdat' [" +
                    ", ".join(COMDAT_KINDS) + "]")
        p._next()
        st.properties["comdat"] = A.IntegerAttr(COMDAT_KINDS.index(kw), A.i64)
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        pr.out.append(f"{pr.op_name(self)} {A.print_symbol_name(self._props['sym_name'].value)}"
                      f" {COMDAT_KINDS[self._props['comdat'].value]}")
        pr.print_optional_attr_dict(self._attrs)


# ---------------------------------------------------------------- block addresses

_BLOCKADDRESS = re.compile(r"<function = (@\S+?), tag = <id = (\d+)>>$")


def _parse_block_tag(p):
    """`<id = 1>` -> the id."""
    p.expect("<")
    p.parse_keyword("id")
    p.expect("=")
    i = p.parse_integer()
    p.expect(">")
    return i


def _tag_id(op) -> int | None:
    m = re.search(r"<id = (\d+)>", op._props["tag"].body)
    return int(m.group(1)) if m else None


class BlockAddressOp(Op):
    """`%p = llvm.blockaddress <function = @f, tag = <id = 1>> : !llvm.ptr`: the address
    of the block of `@f` that holds `llvm.blocktag <id = 1>`."""

    name = "llvm.blockaddress"
    traits = (T.Pure,)
    block_addr = Prop(C.Constraint(lambda a: getattr(a, "mnemonic", None) == "blockaddress",
                                   "LLVM block address attribute"))
    res = Result(AnyPtr)

    @staticmethod
    def parse(p, st):
        p.expect("<")
        p.parse_keyword("function")
        p.expect("=")
        fn = p.parse_symbol_ref()
        p.expect(",")
        p.parse_keyword("tag")
        p.expect("=")
        i = _parse_block_tag(p)
        p.expect(">")
        st.properties["block_addr"] = LLVMOpaqueAttr(
            "llvm", f".blockaddress<function = {A.attr_text(fn)}, tag = <id = {i}>>")
        p.parse_optional_attr_dict(st)
        p.expect(":")
        st.types = [p.parse_type()]

    def print(self, pr):
        body = self._props["block_addr"].body[len(".blockaddress"):]
        pr.out.append(f"{pr.op_name(self)} {body}")
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(" : " + pr.type_str(self.results[0].type))

    def verify_symbol_uses(self):
        from ...ir.symbol_table import lookup_nearest_symbol_from
        m = _BLOCKADDRESS.search(self._props["block_addr"].body)
        fn = None
        if m:
            fn = lookup_nearest_symbol_from(self, A.SymbolRefAttr(m.group(1)[1:].strip('"')))
        if fn is not None and fn.name == "llvm.func":
            want = int(m.group(2))
            for op in fn.walk():
                if op.name == "llvm.blocktag" and _tag_id(op) == want:
                    return None
        return "expects an existing block label target in the referenced function"


class BlockTagOp(Op):
    """`llvm.blocktag <id = 1>`: names its block for `llvm.blockaddress` (ids are unique
    in a function)."""

    name = "llvm.blocktag"
    tag = Prop(C.Constraint(lambda a: getattr(a, "mnemonic", None) == "blocktag",
                            "LLVM block tag attribute"))

    @staticmethod
    def parse(p, st):
        st.properties["tag"] = LLVMOpaqueAttr("llvm", f".blocktag<id = {_parse_block_tag(p)}>")
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        pr.out.append(f"{pr.op_name(self)} {self._props['tag'].body[len('.blocktag'):]}")
        pr.print_optional_attr_dict(self._attrs)

    def verify_(self):
        f = self.parent_op
        while f is not None and f.name != "llvm.func":
            f = f.parent_op
        if f is None:
            return None
        want = _tag_id(self)
        for op in f.walk(post_order=False):
            if op is self:
                break
            if op.name == "llvm.blocktag" and _tag_id(op) == want:
                emit_error(self.loc, f"duplicate block tag '{want}' in the same function: ")
        return None


MODULE_OPS = [GlobalCtorsOp, GlobalDtorsOp, AliasOp, ModuleFlagsOp, ComdatOp,
              ComdatSelectorOp, BlockAddressOp, BlockTagOp]

__all__ = [c.__name__ for c in MODULE_OPS] + ["MODULE_OPS"]
