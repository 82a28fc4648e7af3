"""Translation of an llvm-dialect module to LLVM IR text (what `mlir-translate
--mlir-to-llvmir` does), for LLVM 22's parser (llvmlite's `parse_assembly`).

    text = translate_to_llvmir(module)            # host triple and data layout
    text = translate_to_llvmir(module, triple="", datalayout="")   # none

[Note: a straight printer]
The module is printed in one walk: each op has a handler (`_HANDLERS`, by op class) that
appends its instruction line. SSA values get names (`%t12`, block `bb3`, argument
`%arg0`); ops that are constants in LLVM IR (llvm.mlir.constant, undef, poison, zero,
addressof) print no instruction: their uses print the constant in place. Block arguments
become phis whose incoming values come from the predecessors' branch operands (collected
in a first walk over the function, which also names every value so that a use may come
before its definition in block order). Intrinsic calls add their `declare` lines, identified
structs their `%name = type` lines. Everything is string building on lists, linear in the
size of the module. Debug locations are not translated.

Large dense initializers of globals are written as byte strings (`[N x i8] c"\\00..."`): a
global's LLVM type does not matter to its users (pointers are opaque), and the bytes are
produced by `bytes.hex` at C speed.
"""
from __future__ import annotations

import struct

import numpy as np

from ...dialects.llvm import arith_ops as AO
from ...dialects.llvm import intrinsics as IN
from ...dialects.llvm import memory as M
from ...dialects.llvm import ops as O
from ...dialects.llvm.types import (EXTERNAL, LLVMArrayType, LLVMFunctionType, LLVMPointerType,
                                    LLVMSimpleType, LLVMStructType, LLVMVoidType,
                                    fastmath_flags)
from ...ir import attributes as A
from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError

__all__ = ["translate_to_llvmir", "TranslationError", "register_op_translation"]

TranslationError = DiagnosticError


def translate_to_llvmir(module, triple: str | None = None, datalayout: str | None = None,
                        module_name: str = "strata") -> str:
    """LLVM IR text of `module` (a builtin.module of llvm-dialect ops). `triple` and
    `datalayout` default to the module's `llvm.target_triple` / `llvm.data_layout`
    attributes, else to the host's (from llvmlite); pass "" to leave them out.
    Raises a located DiagnosticError for an op it cannot translate."""
    attrs = module.attributes
    if triple is None and isinstance(attrs.get("llvm.target_triple"), A.StringAttr):
        triple = attrs["llvm.target_triple"].value
    if datalayout is None and isinstance(attrs.get("llvm.data_layout"), A.StringAttr):
        datalayout = attrs["llvm.data_layout"].value
    if triple is None or datalayout is None:
        from .jit import host_triple_and_layout
        t, d = host_triple_and_layout()
        triple = t if triple is None else triple
        datalayout = d if datalayout is None else datalayout
    return _Translator(triple, datalayout, module_name).module(module)


def _fail(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


# ---------------------------------------------------------------- types and constants

_FLOAT_NAMES = {"f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double",
                "f80": "x86_fp80", "f128": "fp128"}


def _quote_name(name: str) -> str:
    """`@name` or `@"odd name"` as LLVM IR spells a global or local name."""
    if name and all(c.isalnum() or c in "._$-" for c in name) and not name[0].isdigit():
        return name
    return '"' + "".join(c if (c.isprintable() and c not in '"\\') else "\\%02X" % ord(c)
                         for c in name) + '"'


def _float_text(bits: int, name: str) -> str:
    """An LLVM IR float literal of the exact bits of a float of kind `name`."""
    if name == "f64":
        return "0x%016X" % bits
    if name == "f32":
        d = struct.unpack("<f", struct.pack("<I", bits))[0]
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", d))[0]
    if name == "f16":
        return "0xH%04X" % bits
    if name == "bf16":
        return "0xR%04X" % bits
    if name == "f80":
        return "0xK%020X" % bits
    if name == "f128":
        return "0xL%032X" % bits
    raise ValueError(f"no LLVM float literal for {name}")


def _c_string(data: bytes) -> str:
    return 'c"\\' + data.hex("\\") + '"' if data else 'c""'


# Intrinsics whose properties are immediate arguments: (property, LLVM type) in order.
_IMM_ARGS = {
    "llvm.intr.ctlz": (("is_zero_poison", "i1"),),
    "llvm.intr.cttz": (("is_zero_poison", "i1"),),
    "llvm.intr.abs": (("is_int_min_poison", "i1"),),
    "llvm.intr.is.fpclass": (("bit", "i32"),),
    "llvm.intr.memcpy": (("isVolatile", "i1"),),
    "llvm.intr.memmove": (("isVolatile", "i1"),),
    "llvm.intr.memset": (("isVolatile", "i1"),),
    "llvm.intr.prefetch": (("rw", "i32"), ("hint", "i32"), ("cache", "i32")),
    "llvm.intr.vector.insert": (("pos", "i64"),),
    "llvm.intr.vector.extract": (("pos", "i64"),),
}

_LINKAGE_TEXT = {"external": "", "extern_weak": "extern_weak "}
_VISIBILITY = ("", "hidden ", "protected ")
_UNNAMED = ("", "local_unnamed_addr ", "unnamed_addr ")
_ORDERING = M.ORDERINGS
_FCMP = ["false"] + AO.FCMP_PREDICATES[1:-1] + ["true"]

# Argument and result attributes (llvm.<name>) -> their LLVM IR spelling.
_PARAM_FLAGS = {"noalias": "noalias", "nonnull": "nonnull", "noundef": "noundef",
                "readonly": "readonly", "writeonly": "writeonly", "readnone": "readnone",
                "zeroext": "zeroext", "signext": "signext", "inreg": "inreg",
                "nocapture": "captures(none)", "returned": "returned", "nest": "nest",
                "nofree": "nofree", "noinline": "noinline", "immarg": "immarg"}
_PARAM_INT = {"align": "align {}", "dereferenceable": "dereferenceable({})",
              "dereferenceable_or_null": "dereferenceable_or_null({})",
              "alignstack": "alignstack({})"}
_PARAM_TYPE = {"byval", "sret", "byref", "inalloca", "preallocated", "elementtype"}

# Function properties that are LLVM function attributes.
_FN_FLAGS = {"no_inline": "noinline", "always_inline": "alwaysinline",
             "inline_hint": "inlinehint", "optimize_none": "optnone",
             "convergent": "convergent", "no_unwind": "nounwind",
             "will_return": "willreturn", "cold": "cold", "hot": "hot",
             "noduplicate": "noduplicate", "returns_twice": "returns_twice"}
_FN_STRINGS = {"target_cpu": "target-cpu", "tune_cpu": "tune-cpu"}
# Enum function attributes a `passthrough` entry may name bare.
_ENUM_FN_ATTRS = frozenset({
    "alwaysinline", "builtin", "cold", "convergent", "hot", "inlinehint", "minsize",
    "naked", "nobuiltin", "noduplicate", "noimplicitfloat", "noinline", "nomerge",
    "nonlazybind", "norecurse", "noredzone", "noreturn", "nosync", "nounwind",
    "nosanitize_bounds", "nosanitize_coverage", "null_pointer_is_valid", "optforfuzzing",
    "optnone", "optsize", "returns_twice", "safestack", "sanitize_address",
    "sanitize_memory", "sanitize_thread", "speculatable", "ssp", "sspreq", "sspstrong",
    "strictfp", "willreturn", "mustprogress", "nofree", "nocallback", "uwtable"})


class _Translator:
    __slots__ = ("triple", "datalayout", "name", "types", "struct_defs", "decls",
                 "metadata", "names", "out", "counter", "phis", "block_names",
                 "declared", "extract_from")

    def __init__(self, triple, datalayout, name):
        self.triple = triple
        self.datalayout = datalayout
        self.name = name
        self.types: dict = {}
        self.struct_defs: list = []
        self.decls: dict = {}      # intrinsic name -> declare line
        self.metadata: dict = {}   # metadata text -> "!N"
        self.declared: set = set()  # names of symbols the module defines or declares

    # ---------------------------------------------------------------- types

    def ty(self, t) -> str:
        s = self.types.get(t)
        if s is None:
            s = self.types[t] = self._type(t)
        return s

    def _type(self, t) -> str:
        if type(t) is A.IntegerType:
            return f"i{t.width}"
        if type(t) is A.FloatType:
            n = _FLOAT_NAMES.get(t.name)
            if n is None:
                raise ValueError(f"type '{t}' has no LLVM IR equivalent")
            return n
        if isinstance(t, LLVMPointerType):
            return f"ptr addrspace({t.addr_space})" if t.addr_space else "ptr"
        if type(t) is A.VectorType:
            if len(t.shape) != 1:
                raise ValueError(f"type '{t}' has no LLVM IR equivalent (rank > 1)")
            sc = "vscale x " if t.scalable_dims[0] else ""
            return f"<{sc}{t.shape[0]} x {self.ty(t.element_type)}>"
        if isinstance(t, LLVMArrayType):
            return f"[{t.size} x {self.ty(t.element_type)}]"
        if isinstance(t, LLVMStructType):
            if t.name is not None:
                n = "%" + _quote_name(t.name)
                self.types[t] = n  # before the body: a body may refer to it
                body = "opaque" if t.types is None else self._struct_body(t)
                self.struct_defs.append(f"{n} = type {body}")
                return n
            return self._struct_body(t)
        if isinstance(t, LLVMVoidType):
            return "void"
        if isinstance(t, LLVMFunctionType):
            ps = [self.ty(p) for p in t.params] + (["..."] if t.vararg else [])
            return f"{self.ty(t.result)} (" + ", ".join(ps) + ")"
        if isinstance(t, LLVMSimpleType):
            return t.mnemonic
        if type(t) is A.IndexType:
            return "i64"
        raise ValueError(f"type '{t}' has no LLVM IR equivalent")

    def _struct_body(self, t) -> str:
        body = "{ " + ", ".join(self.ty(x) for x in t.types) + " }" if t.types else "{}"
        return f"<{body}>" if t.packed else body

    # ---------------------------------------------------------------- constants

    def const(self, attr, t, op) -> str:
        """The LLVM IR constant (without its type) of attribute `attr` as type `t`."""
        if type(attr) is A.IntegerAttr:
            if type(t) is A.VectorType:
                return self._splat(self.const(attr, t.element_type, op), t)
            if type(t) is A.FloatType:  # an integer given as the float's bits
                return _float_text(attr.value & ((1 << t.width) - 1), t.name)
            if t is A.i1 or (type(t) is A.IntegerType and t.width == 1):
                return "true" if attr.value & 1 else "false"
            if isinstance(t, LLVMPointerType):
                return "null" if attr.value == 0 else f"inttoptr (i64 {attr.value} to ptr)"
            return str(attr.value)
        if type(attr) is A.FloatAttr:
            if type(t) is A.VectorType:
                return self._splat(self.const(attr, t.element_type, op), t)
            if type(t) is not A.FloatType:
                _fail(op, f"cannot translate float constant to type '{t}'")
            v = A.FloatAttr(attr.value, t) if attr.type is not t else attr
            return _float_text(v.bits, t.name)
        if isinstance(attr, A.StringAttr):
            return _c_string(attr.value.encode("utf-8", "surrogateescape"))
        if isinstance(attr, (DenseElementsAttr, DenseResourceElementsAttr)):
            return self._dense(attr, t, op)
        if isinstance(attr, A.ArrayAttr) and isinstance(t, LLVMStructType):
            parts = [f"{self.ty(et)} {self.const(a, et, op)}" for a, et in zip(attr, t.types)]
            body = "{ " + ", ".join(parts) + " }"
            return f"<{body}>" if t.packed else body
        if isinstance(attr, A.ArrayAttr) and isinstance(t, LLVMArrayType):
            et = t.element_type
            return "[" + ", ".join(f"{self.ty(et)} {self.const(a, et, op)}"
                                   for a in attr) + "]"
        _fail(op, f"cannot translate attribute '{attr}' to an LLVM IR constant of type '{t}'")

    def _splat(self, text, t):
        return "<" + ", ".join([f"{self.ty(t.element_type)} {text}"] * t.shape[0]) + ">"

    def _dense(self, attr, t, op) -> str:
        """Dense elements as a vector or (nested) array constant of type `t`."""
        if isinstance(attr, DenseResourceElementsAttr):
            arr = attr.array()
        else:
            if attr.is_splat and not any(attr.raw):
                return "zeroinitializer"
            arr = attr.array
        et = attr.type.element_type
        flat = np.ascontiguousarray(arr).reshape(-1)
        if not flat.size:
            return "zeroinitializer"
        if type(et) is A.FloatType:
            texts = self._float_texts(flat, et)
        elif et is A.i1 or (type(et) is A.IntegerType and et.width == 1):
            texts = ["true" if x else "false" for x in flat.tolist()]
        else:
            texts = [str(x) for x in flat.tolist()]
        return self._nest(texts, t, op)

    def _float_texts(self, flat, et):
        if et.name in ("f32", "f64"):
            bits = flat.astype(np.float64).view(np.uint64).tolist()
            return ["0x%016X" % b for b in bits]
        if flat.dtype.kind == "f" or flat.dtype.kind == "V":  # values: their bit patterns
            flat = flat.view(np.dtype(f"u{flat.dtype.itemsize}"))
        return [_float_text(int(b), et.name) for b in flat.tolist()]

    def _nest(self, texts, t, op):
        """The flat element texts as constant `t` (a vector, array of arrays...)."""
        shape = []
        x = t
        while isinstance(x, LLVMArrayType) or type(x) is A.VectorType:
            shape.append(x.size if isinstance(x, LLVMArrayType) else x.shape[0])
            x = x.element_type
        n = 1
        for d in shape:
            n *= d
        if n != len(texts):
            _fail(op, f"dense attribute with {len(texts)} elements cannot initialize '{t}'")
        et = self.ty(x)
        items = [f"{et} {s}" for s in texts]
        types = []
        y = t
        while isinstance(y, LLVMArrayType) or type(y) is A.VectorType:
            types.append(y)
            y = y.element_type
        for level in reversed(types):
            size = level.size if isinstance(level, LLVMArrayType) else level.shape[0]
            lt = self.ty(level)
            open_, close = ("<", ">") if type(level) is A.VectorType else ("[", "]")
            grouped = [open_ + ", ".join(items[i:i + size]) + close
                       for i in range(0, len(items), size)]
            if level is types[0]:
                return grouped[0]
            items = [f"{lt} {g}" for g in grouped]
        return items[0]

    def meta(self, text) -> str:
        m = self.metadata.get(text)
        if m is None:
            m = self.metadata[text] = f"!{len(self.metadata)}"
        return m

    # ---------------------------------------------------------------- module

    def module(self, module) -> str:
        body: list = []
        ops = list(module.regions[0].blocks[0].ops) if module.regions and \
            module.regions[0].blocks else []
        for op in ops:
            if isinstance(op, (O.FuncOp, O.GlobalOp)):
                self.declared.add(op._props["sym_name"].value)
        for op in ops:
            if isinstance(op, O.FuncOp):
                self.function(op, body)
            elif isinstance(op, O.GlobalOp):
                body.append(self.global_(op))
            else:
                _fail(op, f"'{op.name}' op cannot be translated to LLVM IR")
        head = [f"; ModuleID = '{self.name}'", f'source_filename = "{self.name}"']
        if self.datalayout:
            head.append(f'target datalayout = "{self.datalayout}"')
        if self.triple:
            head.append(f'target triple = "{self.triple}"')
        parts = ["\n".join(head), ""]
        if self.struct_defs:
            parts.append("\n".join(self.struct_defs) + "\n")
        parts.append("\n\n".join(body))
        if self.decls:
            parts.append("")
            parts.append("\n".join(self.decls.values()))
        if self.metadata:
            parts.append("")
            parts.append("\n".join(f"{m} = {t}" for t, m in self.metadata.items()))
        return "\n".join(parts) + "\n"

    # ---------------------------------------------------------------- globals

    def global_(self, op) -> str:
        p = op._props
        name = "@" + _quote_name(p["sym_name"].value)
        t = p["global_type"].value
        lk = p.get("linkage", EXTERNAL).value
        value = p.get("value")
        region = op.regions[0]
        has_init = value is not None or bool(region.blocks)
        # Without an initializer, a global of internal (or other non-external) linkage
        # is defined as undef, as upstream's translation does (GPU shared memory).
        undef = not has_init and lk not in ("external", "extern_weak")
        words = [name, "="]
        if not has_init and not undef:
            words.append("extern_weak" if lk == "extern_weak" else "external")
        elif lk != "external":
            words.append(lk)
        vis = p.get("visibility_")
        if vis is not None and vis.value:
            words.append(_VISIBILITY[vis.value].strip())
        if "dso_local" in p:
            words.append("dso_local")
        if p.get("tls_mode") is not None and p["tls_mode"].value or "thread_local_" in op._attrs:
            words.append("thread_local")
        ua = p.get("unnamed_addr")
        if ua is not None and ua.value:
            words.append(_UNNAMED[ua.value].strip())
        sp = p.get("addr_space")
        if sp is not None and sp.value:
            words.append(f"addrspace({sp.value})")
        if "externally_initialized" in p:
            words.append("externally_initialized")
        words.append("constant" if "constant" in p else "global")
        try:
            if undef:
                words.append(f"{self.ty(t)} undef")
            elif not has_init:
                words.append(self.ty(t))
            elif value is not None:
                words.append(self._global_value(value, t, op))
            else:
                words.append(self._initializer(region, t, op))
        except ValueError as e:
            _fail(op, str(e))
        s = " ".join(words)
        sec = p.get("section")
        if sec is not None:
            s += f', section "{sec.value}"'
        al = p.get("alignment")
        if al is not None:
            s += f", align {al.value}"
        return s

    def _global_value(self, value, t, op) -> str:
        """`T init` of a global: big dense data as bytes, the rest as typed constants."""
        if isinstance(value, DenseResourceElementsAttr):
            data = BLOBS[value.handle] if value.handle in BLOBS else None
            if data is None:
                _fail(op, f"unknown resource '{value.handle}'")
            return f"[{len(data)} x i8] {_c_string(data)}"
        if isinstance(value, DenseElementsAttr) and value.num_elements > 16 and \
                type(value.element_type) in (A.IntegerType, A.FloatType) and \
                value.element_type.width % 8 == 0:
            if value.is_splat and not any(value.raw):
                return f"{self.ty(t)} zeroinitializer"
            raw = value.raw * value.num_elements if value.is_splat else value.raw
            return f"[{len(raw)} x i8] {_c_string(raw)}"
        if isinstance(value, A.StringAttr) and isinstance(t, LLVMArrayType):
            data = value.value.encode("utf-8", "surrogateescape")
            return f"[{len(data)} x i8] {_c_string(data)}"
        return f"{self.ty(t)} {self.const(value, t, op)}"

    def _initializer(self, region, t, op) -> str:
        """The constant an initializer region returns (constants, undef/poison/zero,
        addressof, insertvalue)."""
        vals = {}
        for o in region.blocks[0].ops:
            if isinstance(o, O.ReturnOp):
                v = vals.get(o.operand(0))
                if v is None:
                    _fail(o, "unsupported value in global initializer")
                return f"{self.ty(t)} {_render(v)}"
            r = o.results[0] if o.results else None
            if isinstance(o, O.InsertValueOp):
                agg = vals[o.operand(0)]
                agg = _materialize(agg, o.operand(0).type, self)
                new = _set_in(agg, list(o._props["position"].value), vals[o.operand(1)],
                              o.operand(1).type, self)
                vals[r] = new
                continue
            text = self._constant_text(o)
            if text is None:
                _fail(o, f"'{o.name}' op is not supported in a global initializer")
            vals[r] = ("leaf", text)
        _fail(op, "global initializer region has no llvm.return")

    def _constant_text(self, op):
        """The LLVM IR constant of a constant-like op, or None."""
        cls = type(op)
        if cls is O.ConstantOp:
            return self.const(op._props["value"], op.results[0].type, op)
        if cls is O.UndefOp:
            return "undef"
        if cls is O.PoisonOp:
            return "poison"
        if cls is O.ZeroOp:
            t = op.results[0].type
            return "null" if isinstance(t, LLVMPointerType) else "zeroinitializer"
        if cls is O.AddressOfOp:
            return "@" + _quote_name(op._props["global_name"].root)
        return None

    # ---------------------------------------------------------------- functions

    def function(self, f, out):
        p = f._props
        ft = f.type
        name = "@" + _quote_name(p["sym_name"].value)
        body = f.regions[0]
        lk = p.get("linkage", EXTERNAL).value
        words = ["declare" if not body.blocks else "define"]
        if lk != "external":
            words.append(lk)
        vis = p.get("visibility_")
        if vis is not None and vis.value:
            words.append(_VISIBILITY[vis.value].strip())
        if "dso_local" in p:
            words.append("dso_local")
        ua = p.get("unnamed_addr")
        if ua is not None and ua.value:
            words.append(_UNNAMED[ua.value].strip())
        cc = p.get("CConv")
        if cc is not None and cc.value != "ccc":
            words.append(_cconv(cc.value))
        elif "nvvm.kernel" in f._attrs:
            # a GPU kernel (convert-gpu-to-nvvm): LLVM 22 says so by calling convention
            words.append("ptx_kernel")
        try:
            res_attrs = p.get("res_attrs")
            ret = self.ty(ft.result)
            if res_attrs is not None and len(res_attrs):
                ra = self._param_attrs(res_attrs[0])
                if ra:
                    ret = ra + " " + ret
            words.append(ret)
            arg_attrs = p.get("arg_attrs")
            params = []
            entry = body.blocks[0] if body.blocks else None
            self.names = {}
            for i, t in enumerate(ft.params):
                s = self.ty(t)
                if arg_attrs is not None and i < len(arg_attrs):
                    a = self._param_attrs(arg_attrs[i])
                    if a:
                        s += " " + a
                if entry is not None:
                    an = f"%arg{i}"
                    self.names[entry.args[i]] = an
                    s += " " + an
                params.append(s)
            if ft.vararg:
                params.append("...")
        except ValueError as e:
            _fail(f, str(e))
        sig = " ".join(words) + f" {name}(" + ", ".join(params) + ")"
        fn_attrs = self._fn_attrs(f)
        if fn_attrs:
            sig += " " + fn_attrs
        al = p.get("alignment")
        if al is not None:
            sig += f" align {al.value}"
        sec = p.get("section")
        if sec is not None:
            sig += f' section "{sec.value}"'
        if not body.blocks:
            out.append(sig)
            return
        lines = [sig + " {"]
        self._body(body, lines)
        lines.append("}")
        out.append("\n".join(lines))

    def _param_attrs(self, d) -> str:
        parts = []
        for k, v in d.value.items():
            if not k.startswith("llvm."):
                continue
            k = k[5:]
            flag = _PARAM_FLAGS.get(k)
            if flag is not None:
                parts.append(flag)
            elif k in _PARAM_INT and type(v) is A.IntegerAttr:
                parts.append(_PARAM_INT[k].format(v.value))
            elif k in _PARAM_TYPE and type(v) is A.TypeAttr:
                parts.append(f"{k}({self.ty(v.value)})")
        return " ".join(parts)

    def _fn_attrs(self, f) -> str:
        p = f._props
        parts = []
        for k, flag in _FN_FLAGS.items():
            if k in p:
                parts.append(flag)
                if k == "optimize_none" and "no_inline" not in p:
                    parts.append("noinline")
        for k, key in _FN_STRINGS.items():
            v = p.get(k)
            if isinstance(v, A.StringAttr):
                parts.append(f'"{key}"="{v.value}"')
        pt = p.get("passthrough")
        if isinstance(pt, A.ArrayAttr):
            for e in pt:
                if isinstance(e, A.StringAttr):
                    parts.append(e.value if e.value in _ENUM_FN_ATTRS else f'"{e.value}"')
                elif isinstance(e, A.ArrayAttr) and len(e) == 2:
                    parts.append(f'"{e[0].value}"="{e[1].value}"')
        return " ".join(parts)

    def _body(self, region, lines):
        names = self.names
        blocks = region.blocks
        bnames = {}
        for i, b in enumerate(blocks):
            bnames[b] = f"bb{i}"
        self.block_names = bnames
        phis = {}
        counter = 0
        const_text = self._constant_text
        consts = _CONSTANT_CLASSES
        skip, aliases = _forward_aggregates(blocks)
        self.extract_from = aliases
        # First walk: names (or constant texts) of every result, incoming phi values.
        for b in blocks:
            if b.args and b is not blocks[0]:
                for a in b.args:
                    names[a] = f"%t{counter}"
                    counter += 1
                phis.setdefault(b, [])
            for op in b.ops:
                res = op.results
                if res:
                    if op in skip:
                        continue
                    if type(op) in consts:
                        try:
                            names[res[0]] = const_text(op)
                        except ValueError as e:
                            _fail(op, str(e))
                        continue
                    for r in res:
                        names[r] = f"%t{counter}"
                        counter += 1
            term = b.last
            if term is not None and term.successors:
                for i, s in enumerate(term.successors):
                    if s.args:
                        phis.setdefault(s, []).append((term.successor_operands(i), b))
        for r, v in aliases.items():
            if type(v) is not tuple:
                names[r] = names[v]
        handlers = _HANDLERS
        for b in blocks:
            lines.append(f"{bnames[b]}:")
            if b.args and b is not blocks[0]:
                inc = phis.get(b, ())
                for j, a in enumerate(b.args):
                    edges = ", ".join(f"[ {self.val(vals[j])}, %{bnames[pb]} ]"
                                      for vals, pb in inc)
                    lines.append(f"  {names[a]} = phi {self.ty(a.type)} {edges}")
            for op in b.ops:
                if op in skip:
                    continue
                h = handlers.get(type(op))
                if h is None:
                    h = _dialect_handler(op)
                try:
                    s = h(self, op)
                except ValueError as e:
                    _fail(op, str(e))
                if s is not None:
                    lines.append(s)

    # ---------------------------------------------------------------- operands

    def val(self, v) -> str:
        n = self.names.get(v)
        if n is None:
            raise ValueError("operand defined outside of the function being translated")
        return n

    def tv(self, v) -> str:
        return f"{self.ty(v.type)} {self.val(v)}"

    def res(self, op) -> str:
        return self.names[op.results[0]]

    def declare(self, name: str, line: str) -> None:
        """Add the `declare` line of function `name` (an intrinsic) once."""
        if name not in self.decls:
            self.decls[name] = line


_CONSTANT_CLASSES = frozenset({O.ConstantOp, O.UndefOp, O.PoisonOp, O.ZeroOp, O.AddressOfOp})


def _cconv(name: str) -> str:
    if name.startswith("cc_"):
        return "cc " + name[3:]
    return name


# ---------------------------------------------------------------- initializer aggregates

def _render(v):
    if v[0] == "leaf":
        return v[1]
    _, t, items = v
    parts = ", ".join(f"{tt} {_render(x)}" for tt, x in items)
    if t == "vector":
        return f"<{parts}>"
    if t == "array":
        return f"[{parts}]"
    if t == "packed":
        return f"<{{ {parts} }}>"
    return "{ " + parts + " }" if parts else "{}"


def _materialize(v, t, tr):
    """An aggregate value as nested items (undef / zero leaves expanded per element)."""
    if v[0] != "leaf" or v[1] not in ("undef", "poison", "zeroinitializer"):
        return v
    fill = v[1]
    if isinstance(t, LLVMStructType):
        kind = "packed" if t.packed else "struct"
        return ("agg", kind, [(tr.ty(x), ("leaf", "null" if fill == "zeroinitializer" and
                                          isinstance(x, LLVMPointerType) else fill))
                              for x in t.types])
    if isinstance(t, LLVMArrayType):
        et = t.element_type
        return ("agg", "array", [(tr.ty(et), ("leaf", fill))] * t.size)
    return v


def _set_in(agg, pos, value, vtype, tr):
    kind, t_items = agg[1], list(agg[2])
    i = pos[0]
    tt, cur = t_items[i]
    if len(pos) == 1:
        t_items[i] = (tt, value)
    else:
        # Descend: the nested aggregate's type is only known by its text; expand leaves
        # of nested aggregates is not supported beyond what was built by insertvalue.
        if cur[0] == "leaf":
            raise ValueError("nested insertvalue into an undefined aggregate is not "
                             "supported in global initializers")
        t_items[i] = (tt, _set_in(cur, pos[1:], value, vtype, tr))
    return ("agg", kind, t_items)


# ---------------------------------------------------------------- instruction handlers

def _fmf(op) -> str:
    flags = fastmath_flags(op._props.get("fastmathFlags"))
    return " ".join(flags) + " " if flags else ""


def _overflow_words(op) -> str:
    f = op._props.get("overflowFlags")
    if f is None or not f.value:
        return ""
    return ("nuw " if f.value & 2 else "") + ("nsw " if f.value & 1 else "")


def _unit_word(prop, word):
    return lambda op: word + " " if prop in op._props else ""


def _icmp_pred(op) -> str:
    return AO.ICMP_PREDICATES[op._props["predicate"].value] + " "


def _fcmp_pred(op) -> str:
    return _fmf(op) + _FCMP[op._props["predicate"].value] + " "


def _binary(opcode, words=None):
    """`%r = opcode <words(op)>T a, b` (words: flags, fast-math flags, predicate)."""
    def h(tr, op):
        a, b = op._operands
        w = words(op) if words is not None else ""
        return f"  {tr.res(op)} = {opcode} {w}{tr.tv(a.value)}, {tr.val(b.value)}"
    return h


def _fneg(tr, op):
    return f"  {tr.res(op)} = fneg {_fmf(op)}{tr.tv(op._operands[0].value)}"


_exact = _unit_word("isExact", "exact")


def _select(tr, op):
    c, a, b = op._operands
    return (f"  {tr.res(op)} = select {_fmf(op)}{tr.tv(c.value)}, {tr.tv(a.value)}, "
            f"{tr.tv(b.value)}")


def _cast(opcode):
    def h(tr, op):
        a = op.operand(0)
        p = op._props
        flags = ""
        if "nonNeg" in p:
            flags = "nneg "
        if "overflowFlags" in p:
            flags = _overflow_words(op)
        if "fastmathFlags" in p:
            flags = _fmf(op)
        return f"  {tr.res(op)} = {opcode} {flags}{tr.tv(a)} to {tr.ty(op.results[0].type)}"
    return h


def _freeze(tr, op):
    return f"  {tr.res(op)} = freeze {tr.tv(op.operand(0))}"


def _extractelement(tr, op):
    v, i = op._operands
    return f"  {tr.res(op)} = extractelement {tr.tv(v.value)}, {tr.tv(i.value)}"


def _insertelement(tr, op):
    v, e, i = op._operands
    return (f"  {tr.res(op)} = insertelement {tr.tv(v.value)}, {tr.tv(e.value)}, "
            f"{tr.tv(i.value)}")


def _shufflevector(tr, op):
    a, b = op._operands
    mask = op._props["mask"].value
    m = ", ".join("i32 poison" if x < 0 else f"i32 {x}" for x in mask)
    return (f"  {tr.res(op)} = shufflevector {tr.tv(a.value)}, {tr.tv(b.value)}, "
            f"<{len(mask)} x i32> <{m}>")


def _extractvalue(tr, op):
    r = op.results[0]
    src = tr.extract_from.get(r)
    if src is not None:  # the same element, read from further down the insert chain
        agg, pos = src
        return f"  {tr.res(op)} = extractvalue {tr.tv(agg)}, {', '.join(map(str, pos))}"
    pos = ", ".join(map(str, op._props["position"].value))
    return f"  {tr.res(op)} = extractvalue {tr.tv(op.operand(0))}, {pos}"


def _forward_aggregates(blocks):
    """(ops not to print, {extractvalue result: value or (aggregate, position)}).

    [Note: aggregate forwarding] Lowered memrefs are descriptor structs built by
    insertvalue chains and taken apart by extractvalue for every call and access: a
    model's main function was two thirds extract/insertvalue (20,000 of 32,000 lines in
    MiniLM), which LLVM's first instcombine folds away but only after parsing them, and
    which made its unoptimized code generation slow. The translation reads an extracted
    element straight from the insertvalue that put it there and leaves out insertvalues
    nothing reads any more, so the LLVM IR is what instcombine would make of it."""
    inserts = []
    aliases = {}
    for b in blocks:
        for op in b.ops:
            t = type(op)
            if t is O.InsertValueOp:
                inserts.append(op)
            elif t is O.ExtractValueOp:
                pos = tuple(op._props["position"].value)
                agg = op._operands[0].value
                start = agg
                while True:
                    d = agg.defining_op
                    if type(d) is not O.InsertValueOp:
                        break
                    q = tuple(d._props["position"].value)
                    n = min(len(q), len(pos))
                    if q[:n] != pos[:n]:
                        agg = d._operands[0].value      # another element: look below
                    elif len(q) <= len(pos):
                        agg, pos = d._operands[1].value, pos[len(q):]  # inside what was put
                        if not pos:
                            break
                    else:
                        break  # a part of the element was overwritten: read it here
                if not pos:
                    aliases[op.results[0]] = agg
                elif agg is not start:
                    aliases[op.results[0]] = (agg, pos)
    # Alias chains (an extract of an extract that forwarded) resolve to their end.
    for r, v in aliases.items():
        while type(v) is not tuple and v in aliases:
            v = aliases[v]
        aliases[r] = v
    skip = {r.defining_op for r, v in aliases.items() if type(v) is not tuple}
    # insertvalues only read by forwarded extracts (or by dead insertvalues) are dead.
    live = set()
    work = []
    for op in inserts:
        for u in op.results[0].uses:
            o = u.owner
            if o in skip:
                continue
            if type(o) is O.InsertValueOp and u.index == 0:
                continue
            live.add(op)
            work.append(op)
            break
    for r, v in aliases.items():  # re-pointed extracts read these aggregates
        if type(v) is tuple:
            d = v[0].defining_op
            if type(d) is O.InsertValueOp and d not in live:
                live.add(d)
                work.append(d)
    while work:
        d = work.pop().operand(0).defining_op
        if type(d) is O.InsertValueOp and d not in live:
            live.add(d)
            work.append(d)
    skip.update(op for op in inserts if op not in live)
    return skip, aliases


def _insertvalue(tr, op):
    c, v = op._operands
    pos = ", ".join(map(str, op._props["position"].value))
    return f"  {tr.res(op)} = insertvalue {tr.tv(c.value)}, {tr.tv(v.value)}, {pos}"


def _gep(tr, op):
    p = op._props
    ops = op._operands
    et = p["elem_type"].value
    parts = [tr.ty(et), tr.tv(ops[0].value)]
    k = 1
    t = None  # what the next index steps into (None: over the pointer operand)
    for i in p["rawConstantIndices"].value:
        in_struct = isinstance(t, LLVMStructType)
        if i == M.GEP_DYNAMIC:
            parts.append(tr.tv(ops[k].value))
            k += 1
        else:
            parts.append(f"i32 {i}" if in_struct else f"i64 {i}")
        if t is None:
            t = et
        elif in_struct:
            t = t.types[i]
        elif isinstance(t, (LLVMArrayType, A.VectorType)):
            t = t.element_type
    f = p.get("noWrapFlags")
    flags = ""
    if f is not None and f.value:
        # LLVM IR has no keyword for the inbounds bit alone (it always comes with nusw).
        words = [w for w in M.gep_flags_text(f.value).split("|") if w != "inbounds_flag"]
        flags = " ".join(words) + " " if words else ""
    return f"  {tr.res(op)} = getelementptr {flags}" + ", ".join(parts)


def _load(tr, op):
    p = op._props
    vol = "volatile " if "volatile_" in p else ""
    o = p.get("ordering")
    atomic = o is not None and o.value
    s = f"  {tr.res(op)} = load {'atomic ' if atomic else ''}{vol}" \
        f"{tr.ty(op.results[0].type)}, {tr.tv(op.operand(0))}"
    return s + _mem_suffix(tr, p, atomic)


def _mem_suffix(tr, p, atomic):
    s = ""
    if atomic:
        sc = p.get("syncscope")
        if sc is not None:
            s += f' syncscope("{sc.value}")'
        s += " " + _ORDERING[p["ordering"].value]
    al = p.get("alignment")
    if al is not None:
        s += f", align {al.value}"
    if "nontemporal" in p:
        s += f", !nontemporal {tr.meta('!{i32 1}')}"
    if "invariant" in p:
        s += f", !invariant.load {tr.meta('!{}')}"
    return s


def _store(tr, op):
    p = op._props
    vol = "volatile " if "volatile_" in p else ""
    o = p.get("ordering")
    atomic = o is not None and o.value
    s = f"  store {'atomic ' if atomic else ''}{vol}{tr.tv(op.operand(0))}, " \
        f"{tr.tv(op.operand(1))}"
    return s + _mem_suffix(tr, p, atomic)


def _alloca(tr, op):
    p = op._props
    s = f"  {tr.res(op)} = alloca {'inalloca ' if 'inalloca' in p else ''}" \
        f"{tr.ty(p['elem_type'].value)}, {tr.tv(op.operand(0))}"
    al = p.get("alignment")
    if al is not None and al.value:
        s += f", align {al.value}"
    sp = op.results[0].type.addr_space
    if sp:
        s += f", addrspace({sp})"
    return s


def _call(tr, op):
    p = op._props
    args = op.call_arg_operands()
    argtext = ", ".join(tr.tv(a) for a in args)
    callee = p.get("callee")
    res = op.results
    rt = tr.ty(res[0].type) if res else "void"
    vt = p.get("var_callee_type")
    fnty = rt
    if vt is not None:
        fnty = tr.ty(vt.value)
    if callee is not None:
        target = "@" + _quote_name(callee.root)
    else:
        target = tr.val(op.operand(0))
    words = []
    tk = p.get("TailCallKind")
    if tk is not None and tk.value != "none":
        words.append(tk.value)
    words.append("call")
    fm = _fmf(op).strip()
    if fm:
        words.append(fm)
    cc = p.get("CConv")
    if cc is not None and cc.value != "ccc":
        words.append(_cconv(cc.value))
    s = " ".join(words) + f" {fnty} {target}({argtext})"
    return f"  {tr.res(op)} = {s}" if res else f"  {s}"


def _return(tr, op):
    if op._operands:
        return f"  ret {tr.tv(op.operand(0))}"
    return "  ret void"


def _dest(tr, b):
    return f"label %{tr.block_names[b]}"


def _br(tr, op):
    return f"  br {_dest(tr, op.successors[0])}"


def _cond_br(tr, op):
    t, f = op.successors
    return f"  br {tr.tv(op.operand(0))}, {_dest(tr, t)}, {_dest(tr, f)}"


def _switch(tr, op):
    v = op.operand(0)
    t = tr.ty(v.type)
    cases = " ".join(f"{t} {c}, {_dest(tr, d)}"
                     for c, d in zip(op.case_value_list, op.successors[1:]))
    return f"  switch {t} {tr.val(v)}, {_dest(tr, op.successors[0])} [ {cases} ]"


def _unreachable(tr, op):
    return "  unreachable"


def _mangle(t) -> str:
    if type(t) is A.IntegerType:
        return f"i{t.width}"
    if type(t) is A.FloatType:
        return t.name
    if type(t) is A.VectorType:
        return ("nx" if t.scalable_dims[0] else "") + f"v{t.shape[0]}" + _mangle(t.element_type)
    if isinstance(t, LLVMPointerType):
        return f"p{t.addr_space}"
    raise ValueError(f"cannot mangle type '{t}' in an intrinsic name")


def _intrinsic(tr, op):
    cls = type(op)
    ops = op.operands
    res = op.results
    ov = cls.overloaded
    if ov == "res":
        mtypes = [res[0].type]
    elif ov == "res+args":
        mtypes = [res[0].type] + [v.type for v in ops]
    else:
        mtypes = [ops[i].type for i in ov]
    name = op.intrinsic_name + "".join("." + _mangle(t) for t in mtypes)
    args = [tr.tv(v) for v in ops]
    argtypes = [tr.ty(v.type) for v in ops]
    for prop, lt in _IMM_ARGS.get(cls.name, ()):
        v = op._props[prop].value
        if lt == "i1":
            v = "true" if v else "false"
        args.append(f"{lt} {v}")
        argtypes.append(lt)
    rt = tr.ty(res[0].type) if res else "void"
    if name not in tr.decls:
        tr.decls[name] = f"declare {rt} @{name}(" + ", ".join(argtypes) + ")"
    call = f"call {_fmf(op)}{rt} @{name}(" + ", ".join(args) + ")"
    return f"  {tr.res(op)} = {call}" if res else f"  {call}"


def _none(tr, op):
    return None


# [Note: dialect translations]
# Ops of dialects other than llvm that translate to LLVM IR directly (upstream's
# LLVMTranslationDialectInterface: nvvm's special registers, barriers and shuffles become
# intrinsic calls) are handled by op name, by a module of the backend that owns the
# dialect's target, imported on the first such op: it calls `register_op_translation`.
_DIALECT_TRANSLATIONS = {"nvvm": "strata.backends.cuda.nvvm_llvmir"}
_NAMED_HANDLERS: dict = {}


def register_op_translation(name: str, handler) -> None:
    """Translate ops named `name` with `handler(translator, op) -> line or None`; the
    translator's `res(op)`, `tv(value)`, `ty(type)` and `declare(name, line)` help."""
    _NAMED_HANDLERS[name] = handler


def _dialect_handler(op):
    h = _NAMED_HANDLERS.get(op.name)
    if h is None:
        module = _DIALECT_TRANSLATIONS.get(op.name.partition(".")[0])
        if module is not None:
            import importlib
            importlib.import_module(module)
            h = _NAMED_HANDLERS.get(op.name)
        if h is None:
            _fail(op, f"'{op.name}' op cannot be translated to LLVM IR")
    return h


_HANDLERS = {
    O.ConstantOp: _none, O.UndefOp: _none, O.PoisonOp: _none, O.ZeroOp: _none,
    O.AddressOfOp: _none,
    AO.AddOp: _binary("add", _overflow_words), AO.SubOp: _binary("sub", _overflow_words),
    AO.MulOp: _binary("mul", _overflow_words), AO.ShlOp: _binary("shl", _overflow_words),
    AO.UDivOp: _binary("udiv", _exact), AO.SDivOp: _binary("sdiv", _exact),
    AO.LShrOp: _binary("lshr", _exact), AO.AShrOp: _binary("ashr", _exact),
    AO.OrOp: _binary("or", _unit_word("isDisjoint", "disjoint")),
    AO.URemOp: _binary("urem"), AO.SRemOp: _binary("srem"), AO.AndOp: _binary("and"),
    AO.XOrOp: _binary("xor"),
    AO.FAddOp: _binary("fadd", _fmf), AO.FSubOp: _binary("fsub", _fmf),
    AO.FMulOp: _binary("fmul", _fmf), AO.FDivOp: _binary("fdiv", _fmf),
    AO.FRemOp: _binary("frem", _fmf), AO.FNegOp: _fneg,
    AO.ICmpOp: _binary("icmp", _icmp_pred), AO.FCmpOp: _binary("fcmp", _fcmp_pred),
    AO.SelectOp: _select, AO.FreezeOp: _freeze,
    AO.ExtractElementOp: _extractelement, AO.InsertElementOp: _insertelement,
    AO.ShuffleVectorOp: _shufflevector,
    O.ExtractValueOp: _extractvalue, O.InsertValueOp: _insertvalue, M.GEPOp: _gep,
    M.LoadOp: _load, M.StoreOp: _store, M.AllocaOp: _alloca, O.CallOp: _call,
    O.ReturnOp: _return, O.BrOp: _br, O.CondBrOp: _cond_br, O.SwitchOp: _switch,
    O.UnreachableOp: _unreachable,
}
for _c, _opc in ((AO.SExtOp, "sext"), (AO.ZExtOp, "zext"), (AO.TruncOp, "trunc"),
                 (AO.FPExtOp, "fpext"), (AO.FPTruncOp, "fptrunc"), (AO.SIToFPOp, "sitofp"),
                 (AO.UIToFPOp, "uitofp"), (AO.FPToSIOp, "fptosi"), (AO.FPToUIOp, "fptoui"),
                 (AO.PtrToIntOp, "ptrtoint"), (AO.IntToPtrOp, "inttoptr"),
                 (AO.AddrSpaceCastOp, "addrspacecast"), (AO.BitcastOp, "bitcast")):
    _HANDLERS[_c] = _cast(_opc)
for _c in IN.INTRINSIC_OPS:
    _HANDLERS[_c] = _intrinsic

