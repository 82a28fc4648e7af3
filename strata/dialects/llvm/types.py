"""Types and attributes of the llvm dialect, with upstream MLIR's syntax.

    !llvm.ptr                      an opaque pointer in address space 0
    !llvm.ptr<1>                   ... in address space 1
    !llvm.struct<(i32, ptr)>       a literal struct; `packed (...)` for a packed one
    !llvm.struct<"name", (i32)>    an identified struct; `"name", opaque` has no body
    !llvm.array<4 x f32>           an array
    !llvm.void                     the result "type" of a function that returns nothing
    !llvm.func<i32 (ptr, ...)>     a function type (variadic with `...`)
    !llvm.token, !llvm.label, !llvm.metadata, !llvm.x86_amx

Builtin integer, float and vector types are used directly, as upstream. Inside an llvm
type, nested llvm types are written without their `!llvm.` prefix
(`!llvm.struct<(ptr, array<2 x i64>)>`); both spellings parse.

Attributes: the enum attributes `#llvm.linkage<internal>`, `#llvm.cconv<fastcc>`,
`#llvm.fastmath<nnan, ninf>`, `#llvm.tailcallkind<tail>`. Any other `#llvm.name<...>`
attribute is kept verbatim (an OpaqueAttr) so that IR using it still round-trips.
"""
from __future__ import annotations

import re

from ...ir import attributes as A
from ...ir.attributes import unique
from ...ir.diagnostics import DiagnosticError
from ...ir.enum_attr import EnumAttr, EnumAttrKind
from ...syntax.lexer import BARE, INT, STRING

__all__ = ["LLVMPointerType", "LLVMStructType", "LLVMArrayType", "LLVMVoidType",
           "LLVMFunctionType", "LLVMSimpleType", "ptr", "void", "struct", "array",
           "LINKAGE", "CCONV", "FASTMATH", "TAILCALLKIND", "parse_type", "parse_attribute",
           "is_llvm_type", "is_compatible_type", "type_size_align", "LINKAGES"]


class _LLVMType(A.Type):
    __slots__ = ()
    dialect = "llvm"

    def _print(self):
        return "!llvm." + self.body()

    def body(self) -> str:  # pragma: no cover - each type prints its body
        raise NotImplementedError


def _nested(t) -> str:
    """A type nested in an llvm type: llvm types lose their `!llvm.` prefix."""
    return t.body() if isinstance(t, _LLVMType) else str(t)


class LLVMPointerType(_LLVMType):
    """`!llvm.ptr` / `!llvm.ptr<3>`: an opaque pointer."""

    __slots__ = ("addr_space",)
    vector_element = True  # VectorElementTypeInterface: `vector<4x!llvm.ptr>`

    def __new__(cls, addr_space: int = 0):
        def init(o):
            o.addr_space = addr_space
        return unique(cls, addr_space, init)

    def body(self):
        return f"ptr<{self.addr_space}>" if self.addr_space else "ptr"


class LLVMStructType(_LLVMType):
    """A literal struct (`name` None) or an identified one; `body` None is opaque."""

    __slots__ = ("name", "types", "packed")

    def __new__(cls, types=(), packed: bool = False, name: str | None = None):
        types = None if types is None else tuple(types)
        packed = bool(packed)

        def init(o):
            o.name = name
            o.types = types
            o.packed = packed
        return unique(cls, (name, types, packed), init)

    @property
    def is_opaque(self):
        return self.types is None

    def body(self):
        parts = []
        if self.name is not None:
            parts.append(f'"{A.escape_string(self.name)}", ')
        if self.packed:
            parts.append("packed ")
        if self.types is None:
            parts.append("opaque")
        else:
            parts.append("(" + ", ".join(_nested(t) for t in self.types) + ")")
        return "struct<" + "".join(parts) + ">"


class LLVMArrayType(_LLVMType):
    """`!llvm.array<4 x f32>`"""

    __slots__ = ("size", "element_type")

    def __new__(cls, size: int, element_type):
        def init(o):
            o.size = size
            o.element_type = element_type
        return unique(cls, (size, element_type), init)

    def body(self):
        return f"array<{self.size} x {_nested(self.element_type)}>"


class LLVMVoidType(_LLVMType):
    __slots__ = ()

    def __new__(cls):
        return unique(cls, (), lambda o: None)

    def body(self):
        return "void"


class LLVMSimpleType(_LLVMType):
    """`!llvm.token`, `!llvm.label`, `!llvm.metadata`, `!llvm.x86_amx`."""

    __slots__ = ("mnemonic",)

    def __new__(cls, mnemonic: str):
        def init(o):
            o.mnemonic = mnemonic
        return unique(cls, mnemonic, init)

    def body(self):
        return self.mnemonic


class LLVMFunctionType(_LLVMType):
    """`!llvm.func<i32 (ptr, ...)>`: one result (`void` for none) and parameters."""

    __slots__ = ("result", "params", "vararg")

    def __new__(cls, result, params=(), vararg: bool = False):
        params = tuple(params)
        vararg = bool(vararg)

        def init(o):
            o.result = result
            o.params = params
            o.vararg = vararg
        return unique(cls, (result, params, vararg), init)

    @property
    def returns_void(self):
        return isinstance(self.result, LLVMVoidType)

    def body(self):
        ps = [_nested(t) for t in self.params]
        if self.vararg:
            ps.append("...")
        return f"func<{_nested(self.result)} (" + ", ".join(ps) + ")>"


ptr = LLVMPointerType()
void = LLVMVoidType()


def struct(*types, packed=False):
    return LLVMStructType(types, packed)


def array(n, t):
    return LLVMArrayType(n, t)


_SIMPLE = ("token", "label", "metadata", "x86_amx")


def is_llvm_type(t) -> bool:
    return isinstance(t, _LLVMType)


# Aggregate types (uniqued, immutable) -> whether compatible: verifying a model's
# insertvalue / extractvalue ops asked again and again of the same few descriptor
# structs, each time walking their fields (17% of the llvm-dialect verification of
# Swin-T).
_COMPATIBLE: dict = {}


def is_compatible_type(t) -> bool:
    """isCompatibleType: llvm types and the builtin types LLVM has (signless integers,
    the float kinds LLVM knows, vectors of those and of pointers)."""
    if isinstance(t, _LLVMType):
        if isinstance(t, (LLVMStructType, LLVMArrayType)):
            r = _COMPATIBLE.get(t)
            if r is None:
                if isinstance(t, LLVMStructType):
                    r = t.types is None or all(is_compatible_type(x) for x in t.types)
                else:
                    r = is_compatible_type(t.element_type)
                _COMPATIBLE[t] = r
            return r
        return True
    if type(t) is A.IntegerType:
        return t.signedness == 0
    if type(t) is A.FloatType:
        return t.name in ("f16", "bf16", "f32", "f64", "f80", "f128")
    if type(t) is A.VectorType:
        # isCompatibleVectorType: one dimension (LLVM has no nested vectors)
        e = t.element_type
        return len(t.shape) == 1 and (
            (type(e) is A.IntegerType and e.signedness == 0) or type(e) is A.FloatType
            or isinstance(e, LLVMPointerType))
    return False


# ---------------------------------------------------------------- sizes (x86-64 / AArch64)

def type_size_align(t) -> tuple[int, int]:
    """(size, ABI alignment) in bytes on the 64-bit hosts Strata targets."""
    if isinstance(t, LLVMPointerType):
        return 8, 8
    if type(t) is A.IntegerType or type(t) is A.FloatType:
        w = t.width
        if w == 80:
            return 16, 16
        n = max(1, (w + 7) // 8)
        p = 1
        while p < n:
            p *= 2
        return p, min(p, 16)
    if type(t) is A.IndexType:
        return 8, 8
    if type(t) is A.VectorType:
        es, _ = type_size_align(t.element_type)
        n = es * t.num_elements
        p = 1
        while p < n:
            p *= 2
        return p, p
    if isinstance(t, LLVMArrayType):
        es, ea = type_size_align(t.element_type)
        return es * t.size, ea
    if isinstance(t, LLVMStructType):
        off, align = 0, 1
        for x in t.types or ():
            s, a = type_size_align(x)
            if t.packed:
                a = 1
            off = (off + a - 1) // a * a + s
            align = max(align, a)
        return (off + align - 1) // align * align, align
    raise ValueError(f"no size for type {t}")


# ---------------------------------------------------------------- enum attributes

LINKAGES = ["private", "internal", "available_externally", "linkonce", "weak", "common",
            "appending", "extern_weak", "linkonce_odr", "weak_odr", "external"]
LINKAGE = EnumAttrKind("llvm", "linkage", LINKAGES)
CCONV = EnumAttrKind("llvm", "cconv", [
    "ccc", "fastcc", "coldcc", "cc_10", "cc_11", "anyregcc", "preserve_mostcc",
    "preserve_allcc", "swiftcc", "cxx_fast_tlscc", "tailcc", "cfguard_checkcc",
    "swifttailcc", "x86_stdcallcc", "x86_fastcallcc", "arm_apcscc", "arm_aapcscc",
    "arm_aapcs_vfpcc", "msp430_intrcc", "x86_thiscallcc", "ptx_kernelcc",
    "ptx_devicecc", "spir_funccc", "spir_kernelcc", "intel_ocl_bicc", "x86_64_sysvcc",
    "win64cc", "x86_vectorcallcc", "hhvmcc", "hhvm_ccc", "x86_intrcc", "avr_intrcc",
    "avr_builtincc", "amdgpu_vscc", "amdgpu_gscc", "amdgpu_cscc", "amdgpu_kernelcc",
    "x86_regcallcc", "amdgpu_hscc", "msp430_builtincc", "amdgpu_lscc", "amdgpu_escc",
    "aarch64_vectorcallcc", "aarch64_sve_vectorcallcc", "wasm_emscripten_invokecc",
    "amdgpu_gfxcc", "m68k_intrcc"])
FASTMATH = EnumAttrKind("llvm", "fastmath",
                        ["nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"],
                        bit=True, none="none", separator=", ",
                        groups={"fast": ["nnan", "ninf", "nsz", "arcp", "contract", "afn",
                                         "reassoc"]},
                        cpp_name="::mlir::LLVM::FastmathFlags")
TAILCALLKIND = EnumAttrKind("llvm", "tailcallkind", ["none", "tail", "musttail", "notail"])
ATTR_KINDS = {k.mnemonic: k for k in (LINKAGE, CCONV, FASTMATH, TAILCALLKIND)}
FASTMATH_NONE = FASTMATH("none")
CCC = CCONV("ccc")
EXTERNAL = LINKAGE("external")
TAIL_NONE = TAILCALLKIND("none")


def is_enum(a, kind) -> bool:
    return isinstance(a, EnumAttr) and a.kind is kind


def fastmath_flags(a) -> list[str]:
    """The flag names of a fastmath attribute, `fast` expanded (LLVM IR spelling)."""
    if a is None or not isinstance(a, EnumAttr) or a.value == "none":
        return []
    if a.value == "fast":
        return ["fast"]
    return [f for f in a.value.replace(" ", "").split(",") if f]


# Attribute kinds upstream's llvm dialect names with an alias (OpAsmDialectInterface).
_ALIASED = frozenset({
    "loop_annotation", "loop_vectorize", "loop_interleave", "loop_unroll",
    "loop_unroll_and_jam", "loop_licm", "loop_distribute", "loop_pipeline", "loop_peeled",
    "loop_unswitch", "access_group", "alias_scope", "alias_scope_domain", "tbaa_root",
    "tbaa_tag", "tbaa_type_desc"})


class LLVMOpaqueAttr(A.OpaqueAttr):
    """An llvm attribute Strata keeps as text (`#llvm.loop_annotation<...>`)."""

    __slots__ = ()

    @property
    def mnemonic(self) -> str:
        return self.body[1:].split("<", 1)[0]

    def asm_alias(self):
        m = self.mnemonic
        return m if m in _ALIASED else None


def parse_attribute(p, mnemonic):
    kind = ATTR_KINDS.get(mnemonic)
    if kind is not None:
        return kind.parse_body(p)
    if mnemonic == "mlir.module_flag":
        return _parse_module_flag(p)
    if mnemonic == "profile_summary":
        return _parse_profile_summary(p)
    # Other llvm attributes (memory effects, debug info, loop annotations...) are kept
    # as written.
    return LLVMOpaqueAttr("llvm", "." + mnemonic + p.parse_raw_angle_body())


# ---------------------------------------------------------------- parsing

def parse_type(p, mnemonic):
    """The dialect's type hook: the parser is right after `!llvm.<mnemonic>`."""
    return _parse_body(p, mnemonic, p.tok_start)


def _parse_nested(p):
    """A type inside an llvm type: an llvm mnemonic without prefix, or any type."""
    if p.kind == BARE and p.tok in _MNEMONICS:
        m = p.tok
        start = p.tok_start
        p._next()
        return _parse_body(p, m, start)
    return p.parse_type()


def _parse_body(p, mnemonic, start):
    if mnemonic == "ptr":
        if p.at("<"):
            p._next()
            n = p.parse_integer()
            p.expect(">")
            return LLVMPointerType(n)
        return ptr
    if mnemonic == "void":
        return void
    if mnemonic in _SIMPLE:
        return LLVMSimpleType(mnemonic)
    if mnemonic == "array":
        p.expect("<")
        if p.kind != INT:
            p.error("expected integer value")
        n = int(p.tok, 0)
        p._next()
        if not (p.kind == BARE and p.tok == "x"):
            p.error("expected 'x'")
        p._next()
        t = _parse_nested(p)
        p.expect(">")
        return LLVMArrayType(n, t)
    if mnemonic == "struct":
        return _parse_struct(p)
    if mnemonic == "func":
        p.expect("<")
        res = _parse_nested(p)
        p.expect("(")
        params, vararg = [], False
        if not p.consume_if(")"):
            while True:
                if p.consume_if("..."):
                    vararg = True
                    break
                params.append(_parse_nested(p))
                if not p.consume_if(","):
                    break
            p.expect(")")
        p.expect(">")
        for t in params:
            if isinstance(t, (LLVMVoidType, LLVMFunctionType)) or (
                    isinstance(t, LLVMStructType) and t.types is None):
                p.error(f"invalid function argument type: '{t}'", start)
        return LLVMFunctionType(res, params, vararg)
    p.error(f"unknown LLVM type: {mnemonic}", start)


def _parse_struct(p):
    p.expect("<")
    name = None
    if p.kind == STRING:
        name = p.parse_string()
        p.expect(",")
    packed = p.consume_if("packed")
    if name is not None and p.consume_if("opaque"):
        p.expect(">")
        return LLVMStructType(None, packed, name)
    p.expect("(")
    types = []
    if not p.consume_if(")"):
        types.append(_parse_nested(p))
        while p.consume_if(","):
            types.append(_parse_nested(p))
        p.expect(")")
    p.expect(">")
    return LLVMStructType(types, packed, name)


_MNEMONICS = frozenset(("ptr", "void", "array", "struct", "func") + _SIMPLE)



# ---------------------------------------------------------------- module flags

MODULE_FLAG_BEHAVIORS = ["error", "warning", "require", "override", "append",
                         "append_unique", "max", "min"]


def _llvm_attr_kind(a):
    return a.mnemonic if isinstance(a, LLVMOpaqueAttr) else None


def _parse_module_flag(p):
    """`#llvm.mlir.module_flag<max, "PIC Level", 2 : i32>`, checked as upstream's
    ModuleFlagAttr::verify (at the `<`); kept as text."""
    start = p.tok_start
    p.expect("<")
    bstart = p.tok_start
    behavior = p.tok if p.kind == BARE else ""
    if behavior not in MODULE_FLAG_BEHAVIORS:
        p.error("expected one of [" + ", ".join(MODULE_FLAG_BEHAVIORS) + "] for LLVM "
                f"Module Flag Behavior, got: {p.tok}", bstart)
    p._next()
    p.expect(",")
    key = p.parse_string()
    p.expect(",")
    try:
        value = p.parse_attribute()
    except DiagnosticError as e:
        _chain_error(p, e, "failed to parse ModuleFlagAttr parameter 'value' which is to be a "
                     "`Attribute`", p.tok_start)
    p.expect(">")
    if key == "CG Profile":
        if not (type(value) is A.ArrayAttr and all(
                _llvm_attr_kind(x) == "cgprofile_entry" for x in value.value)):
            p.error("'CG Profile' key expects an array of '#llvm.cgprofile_entry'", start)
    elif key == "ProfileSummary":
        if _llvm_attr_kind(value) != "profile_summary":
            p.error("'ProfileSummary' key expects a '#llvm.profile_summary' attribute", start)
    elif not (type(value) in (A.IntegerAttr, A.StringAttr) or (
            type(value) is A.ArrayAttr and all(type(x) is A.StringAttr
                                               for x in value.value))):
        p.error("only integer, integer-like dialect attributes, string, and string-array "
                f"values are currently supported for unknown key '\"{A.escape_string(key)}"
                "\"'", start)
    return LLVMOpaqueAttr("llvm", f'.mlir.module_flag<{behavior}, "{A.escape_string(key)}", '
                          f"{A.attr_text(value)}>")


PROFILE_SUMMARY_FORMATS = ("SampleProfile", "InstrProf", "CSInstrProf")


def _chain_error(p, e, message, offset):
    """Raise `message` at `offset` after the error `e` (and those before it)."""
    try:
        p.error(message, offset)
    except DiagnosticError as e2:
        e2.earlier = e.earlier + [e.diag]
        raise e2 from None


def _parse_profile_summary(p):
    """`#llvm.profile_summary<format = "InstrProf", ...>`: kept as text; its format kind is
    checked, worded as upstream's ModuleFlagProfileSummaryAttr parser."""
    start = p.tok_start
    body = p.parse_raw_angle_body(required=True)
    m = re.search(r'format\s*=\s*"([^"]*)"', body)
    if m and m.group(1) not in PROFILE_SUMMARY_FORMATS:
        at = start + m.start(1) - 1
        try:
            p.error("expected one of [" + ", ".join(PROFILE_SUMMARY_FORMATS) + "] for LLVM "
                    f"ProfileSummary format kinds, got: {m.group(1)}", at)
        except DiagnosticError as e:
            _chain_error(p, e, "failed to parse ModuleFlagProfileSummaryAttr parameter "
                         "'format' which is to be a `ProfileSummaryFormatKind`",
                         start + m.end(1) + 1)
    return LLVMOpaqueAttr("llvm", ".profile_summary" + body)
