"""The llvm dialect's structural ops: functions, globals, calls, constants, memory access,
aggregates and control flow, with upstream MLIR's custom forms and verifiers.

    llvm.func internal @f(%arg0: i32, %arg1: !llvm.ptr {llvm.noalias}) -> i32 { ... }
    llvm.mlir.global internal constant @g(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
    %r = llvm.call @f(%a, %p) : (i32, !llvm.ptr) -> i32
    %v = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
    %q = llvm.getelementptr inbounds %p[%i, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, i32, f32)>

[Note: llvm properties]
Upstream materializes every default-valued inherent attribute (linkage, CConv, ordering,
overflow and fast-math flags...), so the generic form prints them even when the custom
form leaves them out. The ops list those in `_stored_defaults` (see Printer.generic_properties):
a default is not stored, and reads of a property without value give its default.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ...ir.ods import (Op, Operand, OptOperand, OptProp, OptResult, Prop, RegionDef, Result,
                       Successor, VarOperand, VarSuccessor)
from ...syntax.asm_format import (AttrFormat, EnumFmt, StrippedAttr, SymbolRef, UnitKeyword,
                                  install_format, parse_strict_attr_dict)
from ...syntax.lexer import PERCENT, PUNCT
from ..cf import BranchOp as _CfBranch, BranchOpMixin, CondBranchOp as _CfCondBranch
from ..cf import SwitchOp as _CfSwitch, verify_successor_operands
from .types import (CCC, CCONV, EXTERNAL, FASTMATH, FASTMATH_NONE, LINKAGE, TAIL_NONE,
                    TAILCALLKIND, LLVMArrayType, LLVMFunctionType, LLVMPointerType,
                    LLVMOpaqueAttr, LLVMStructType, LLVMVoidType, is_compatible_type,
                    is_enum)

I32_0 = A.IntegerAttr(0, A.i32)
I64_0 = A.IntegerAttr(0, A.i64)

# ---------------------------------------------------------------- constraints

AnyPtr = C.Constraint(lambda t: isinstance(t, LLVMPointerType), "LLVM pointer type")
LLVMType = C.Constraint(is_compatible_type, "LLVM dialect-compatible type")
LinkageAttr = C.Constraint(lambda a: is_enum(a, LINKAGE), "LLVM Linkage specification")
CConvAttr = C.Constraint(lambda a: is_enum(a, CCONV), "LLVM Calling Convention specification")
FastmathAttr = C.Constraint(lambda a: is_enum(a, FASTMATH), "LLVM fastmath flags")
TailCallAttr = C.Constraint(lambda a: is_enum(a, TAILCALLKIND), "Tail Call Kind")
LLVMFuncTypeAttr = C.Constraint(
    lambda a: type(a) is A.TypeAttr and isinstance(a.value, LLVMFunctionType),
    "type attribute of LLVM function type")


def _ptr_or_vec_of_ptr(t):
    return isinstance(t, LLVMPointerType) or (
        type(t) is A.VectorType and isinstance(t.element_type, LLVMPointerType))


PtrOrVecOfPtr = C.Constraint(_ptr_or_vec_of_ptr, "LLVM pointer or vector of LLVM pointer")

UNNAMED_ADDR = ["", "local_unnamed_addr", "unnamed_addr"]
VISIBILITY = ["", "hidden", "protected"]


def emit_error(loc, message, note=None):
    """Raise an error at `loc` worded as upstream's `emitError` (no "'op' op" prefix),
    with an optional `(loc, text)` note."""
    from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
    d = Diagnostic(ERROR, loc, message)
    if note is not None:
        d.attach_note(note[1], note[0])
    raise DiagnosticError(d)


def _i64_enum_prop():
    return Prop(C.I64Attr, default=I64_0)


def _opt_keyword(p, names):
    """One of `names` (a list whose index is the enum value) if present, else None."""
    if p.kind == 8 and p.tok in names and p.tok:
        i = names.index(p.tok)
        p._next()
        return i
    return None


def _opt_enum(p, kind):
    if p.kind == 8 and p.tok in kind.cases:
        v = kind(p.tok)
        p._next()
        return v
    return None


# ---------------------------------------------------------------- functions

_FUNC_ELIDED = frozenset({"sym_name", "function_type", "linkage", "CConv", "arg_attrs",
                          "res_attrs", "unnamed_addr", "visibility_", "comdat"})

# Inherent attributes of llvm.func (in the generic form, inside `<{...}>`).
_FUNC_PROPS = (
    "sym_visibility", "passthrough", "personality", "garbageCollector", "alignment",
    "section", "dso_local", "memory_effects", "frame_pointer", "target_cpu", "tune_cpu",
    "target_features", "no_inline", "always_inline", "inline_hint", "optimize_none",
    "convergent", "no_unwind", "will_return", "vscale_range", "function_entry_count",
    "uwtable_kind", "unsafe_fp_math", "no_infs_fp_math", "no_nans_fp_math",
    "approx_func_fp_math", "no_signed_zeros_fp_math", "denormal_fp_math",
    "denormal_fp_math_f32", "fp_contract", "instrument_function_entry",
    "instrument_function_exit", "arm_streaming", "arm_locally_streaming",
    "arm_streaming_compatible", "arm_new_za", "arm_in_za", "arm_out_za", "arm_inout_za",
    "arm_preserves_za", "intel_reqd_sub_group_size", "reqd_work_group_size",
    "work_group_size_hint", "vec_type_hint", "no_builtins", "modular_format",
    "allocsize", "cold", "hot", "noduplicate", "no_caller_saved_registers",
    "nocallback", "returns_twice", "use_sample_profile", "prefer_vector_width",
    "target_specific_attrs", "dso_local_equivalent", "visibility")


class FuncOp(Op):
    """`llvm.func internal fastcc @f(%arg0: i32) -> i32 attributes {passthrough = [...]}`;
    a declaration (`llvm.func @malloc(i64) -> !llvm.ptr`) has no body."""

    name = "llvm.func"
    traits = (T.IsolatedFromAbove, T.Symbol, T.AutomaticAllocationScope)
    sym_name = Prop(C.StrAttr)
    function_type = Prop(LLVMFuncTypeAttr)
    linkage = Prop(LinkageAttr, default=EXTERNAL)
    CConv = Prop(CConvAttr, default=CCC)
    unnamed_addr = _i64_enum_prop()
    visibility_ = _i64_enum_prop()
    arg_attrs = OptProp(C.DictArrayAttrC)
    res_attrs = OptProp(C.DictArrayAttrC)
    comdat = OptProp(C.SymbolRefAttrC)
    body = RegionDef()
    _stored_defaults = (("CConv", CCC), ("linkage", EXTERNAL), ("unnamed_addr", I64_0),
                        ("visibility_", I64_0))

    @classmethod
    def new(cls, name, ftype: LLVMFunctionType, linkage="external", body=True, loc=None,
            attributes=None, arg_attrs=None):
        """A function; with `body`, its entry block has the signature's arguments."""
        f = cls.build(loc=loc, sym_name=A.StringAttr(name), function_type=A.TypeAttr(ftype),
                      linkage=None if linkage == "external" else LINKAGE(linkage),
                      attributes=attributes,
                      arg_attrs=None if arg_attrs is None else A.ArrayAttr(
                          A.DictionaryAttr(d or {}) for d in arg_attrs))
        if body:
            from ...ir.core import Block
            f.regions[0].add_block(Block(ftype.params))
        return f

    @property
    def type(self) -> LLVMFunctionType:
        return self._props["function_type"].value

    @property
    def sym(self) -> str:
        return self._props["sym_name"].value

    @property
    def is_declaration(self):
        return not self.regions[0].blocks

    def callable_region(self):
        r = self.regions[0]
        return r if r.blocks else None

    def callable_result_types(self):
        t = self.type
        return [] if t.returns_void else [t.result]

    # -- syntax

    @staticmethod
    def parse(p, st):
        props = st.properties
        lk = _opt_enum(p, LINKAGE)
        if lk is not None:
            props["linkage"] = lk
        vis = _opt_keyword(p, VISIBILITY)
        if vis:
            props["visibility_"] = A.IntegerAttr(vis, A.i64)
        ua = _opt_keyword(p, UNNAMED_ADDR)
        if ua:
            props["unnamed_addr"] = A.IntegerAttr(ua, A.i64)
        cc = _opt_enum(p, CCONV)
        if cc is not None:
            props["CConv"] = cc
        props["sym_name"] = A.StringAttr(p.parse_symbol_name())
        args, types, arg_attrs, named, vararg = _parse_signature_args(p)
        res_attrs = None
        result = None
        if p.consume_if("->"):
            if p.at("("):
                p._next()
                if not p.consume_if(")"):  # `-> ()`: no result, as `-> !llvm.void`
                    result = p.parse_type()
                    d = _opt_dict(p)
                    res_attrs = [d] if d else None
                    p.expect(")")
            else:
                result = p.parse_type()
        ft = LLVMFunctionType(result if result is not None else LLVMVoidType(), types, vararg)
        props["function_type"] = A.TypeAttr(ft)
        if any(arg_attrs):
            props["arg_attrs"] = A.ArrayAttr(A.DictionaryAttr(d or {}) for d in arg_attrs)
        if res_attrs:
            props["res_attrs"] = A.ArrayAttr(A.DictionaryAttr(d) for d in res_attrs)
        if p.parse_optional_keyword("comdat"):
            p.expect("(")
            props["comdat"] = p.parse_symbol_ref()
            p.expect(")")
        p.parse_optional_attr_dict(st, with_keyword=True)
        from ...ir.core import Region
        if p.kind == PUNCT and p.tok == "{":
            if named is False:
                p.error(p._custom_prefix() + "expected SSA identifier", p.tok_start)
            r = p.parse_region(args=args, isolated=True, op_cls=st.cls)
            st.regions.append(r)
        else:
            st.regions.append(Region())

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        lk = props.get("linkage")
        if lk is not None and lk.value != "external":
            out.append(" " + lk.value)
        vis = props.get("visibility_")
        if vis is not None and 0 < vis.value < 3:
            out.append(" " + VISIBILITY[vis.value])
        ua = props.get("unnamed_addr")
        if ua is not None and 0 < ua.value < 3:
            out.append(" " + UNNAMED_ADDR[ua.value])
        cc = props.get("CConv")
        if cc is not None and cc.value != "ccc":
            out.append(" " + cc.value)
        out.append(" " + A.print_symbol_name(props["sym_name"].value))
        ft = self.type
        arg_attrs = props.get("arg_attrs")
        res_attrs = props.get("res_attrs")
        body = self.regions[0]
        entry = body.blocks[0] if body.blocks else None
        parts = []
        for i, t in enumerate(ft.params):
            s = f"{pr.value(entry.args[i])}: {pr.type_str(t)}" if entry is not None else \
                pr.type_str(t)
            if arg_attrs is not None and i < len(arg_attrs) and len(arg_attrs[i]):
                s += " " + pr.attr_str(arg_attrs[i])
            if entry is not None and pr.options.debuginfo and entry.args[i].loc is not None:
                s += " " + pr.loc_str(entry.args[i].loc)
            parts.append(s)
        if ft.vararg:
            parts.append("...")
        out.append("(" + ", ".join(parts) + ")")
        if not ft.returns_void:
            s = pr.type_str(ft.result)
            if res_attrs is not None and len(res_attrs) and len(res_attrs[0]):
                out.append(f" -> ({s} {pr.attr_str(res_attrs[0])})")
            else:
                out.append(" -> " + s)
        cd = props.get("comdat")
        if cd is not None:
            out.append(f" comdat({pr.attr_str(cd)})")
        extra = {k: v for k, v in props.items() if k not in _FUNC_ELIDED}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra, with_keyword=True)
        if body.blocks:
            out.append(" ")
            pr.print_region(body, print_entry_args=False, print_terminators=True)

    def verify_(self):
        ft = self.type
        body = self.regions[0]
        lk = self._props.get("linkage", EXTERNAL).value
        if not body.blocks:
            if lk not in ("external", "extern_weak"):
                return "external functions must have 'external' or 'extern_weak' linkage"
            return None
        if lk == "common":
            return "functions cannot have 'common' linkage"
        err = _comdat_error(self)
        if err:
            return err
        props = self._props
        if props.get("no_inline") is not None and props.get("always_inline") is not None:
            return "no_inline and always_inline attributes are incompatible"
        if props.get("optimize_none") is not None and props.get("no_inline") is None:
            return "with optimize_none must also be no_inline"
        entry = body.blocks[0]
        if len(entry.args) != len(ft.params):
            return (f"entry block must have {len(ft.params)} arguments to match function "
                    "signature")
        for i, (a, t) in enumerate(zip(entry.args, ft.params)):
            if a.type is not t:
                return (f"entry block argument #{i}({a.type}) must match the type of the "
                        f"corresponding argument in function signature({t})")
        v = self._props.get("arg_attrs")
        if v is not None and len(v) != len(ft.params):
            return f"expects arg_attrs to have {len(ft.params)} elements, but got {len(v)}"
        if "personality" in props:
            # Only functions with a personality may land (the landingpad verifier says
            # so), so the walk is skipped for the others.
            from .exceptions import verify_landingpad_types
            err = verify_landingpad_types(self)
            if err:
                emit_error(self.loc, err)
        return None


def add_optional_props(cls, names):
    """Declare optional properties of any attribute kind on `cls` after its creation
    (the long tails of inherent attributes that Strata keeps but does not interpret)."""
    for n in names:
        d = OptProp()
        d.name = n
        setattr(cls, n, d)
        cls._prop_defs += (d,)
    cls._prop_names = frozenset(d.name for d in cls._prop_defs)


add_optional_props(FuncOp, _FUNC_PROPS)


def _opt_dict(p):
    if p.kind == PUNCT and p.tok == "{":
        return p.parse_attr_dict_body()
    return None


def _parse_signature_args(p):
    """`(%a: i32 {attrs}, %b: f32, ...)` or `(i32, ...)`: (block args, types, attribute
    dicts, named or not (None when empty), vararg)."""
    p.expect("(")
    args, types, attrs = [], [], []
    named, vararg = None, False
    if not p.consume_if(")"):
        while True:
            if p.consume_if("..."):
                vararg = True
                break
            if p.kind == PERCENT:
                if named is False:
                    p.error(p._custom_prefix() + "expected type instead of SSA identifier",
                            p.tok_start)
                named = True
                ref = p.parse_operand()
                p.expect(":")
                t = p.parse_type()
                d = _opt_dict(p)
                loc = p.parse_optional_trailing_loc()
                args.append((ref[0], ref[1], t, loc))
            else:
                if named:
                    p.error(p._custom_prefix() + "expected SSA identifier", p.tok_start)
                named = False
                t = p.parse_type()
                d = _opt_dict(p)
            types.append(t)
            attrs.append(d)
            if not p.consume_if(","):
                break
        p.expect(")")
    return args, types, attrs, named, vararg


class ReturnOp(Op):
    """`llvm.return %v : i32` or `llvm.return`"""

    name = "llvm.return"
    traits = (T.Pure, T.ReturnLike, T.Terminator)
    arg = OptOperand(LLVMType)
    assembly = "($arg^ `:` type($arg))? attr-dict"

    def verify_(self):
        parent = self.parent_op
        if not isinstance(parent, FuncOp):
            return None
        ft = parent.type
        vals = self.operands
        err = None
        if ft.returns_void:
            if vals:
                err = "expected no operands"
        elif len(vals) != 1:
            err = "expected 1 operand"
        elif vals[0].type is not ft.result:
            err = "mismatching result types"
        if err:
            from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
            d = Diagnostic(ERROR, self.loc, f"'{self.name}' op {err}")
            d.attach_note("when returning from function", parent.loc)
            d.op = self
            raise DiagnosticError(d)
        return None


# ---------------------------------------------------------------- calls

_CALL_ELIDED = frozenset({"callee", "var_callee_type", "CConv", "TailCallKind",
                          "op_bundle_sizes", "op_bundle_tags", "operandSegmentSizes"})
_CALL_PROPS = ("branch_weights", "memory_effects", "convergent", "no_unwind", "will_return",
               "no_inline", "always_inline", "inline_hint", "access_groups", "alias_scopes",
               "noalias_scopes", "tbaa", "arg_attrs", "res_attrs", "op_bundle_tags")


def parse_callee_and_args(p, props):
    """`@f(%a, %b)` or `%fp(%a, %b)` of a call or invoke: (direct, operand refs), the
    callee symbol set in `props` (an indirect callee is the first operand)."""
    refs = []
    direct = p.kind != PERCENT
    if direct:
        props["callee"] = p.parse_symbol_ref()
    else:
        refs.append(p.parse_operand())
    p.expect("(")
    if not p.consume_if(")"):
        refs += p.parse_operand_list()
        p.expect(")")
    return direct, refs


def print_callee_and_args(pr, op):
    """The printing side of parse_callee_and_args; returns the argument operands."""
    ops = op.callee_operands
    callee = op._props.get("callee")
    if callee is not None:
        pr.out.append(" " + pr.attr_str(callee))
        args = ops
    else:
        pr.out.append(" " + pr.value(ops[0]))
        args = ops[1:]
    pr.out.append("(" + ", ".join(pr.value(v) for v in args) + ")")
    return args


def print_call_types(pr, op, args):
    """` : (i32) -> i32` (direct) or ` : !llvm.ptr, (i32) -> i32` (indirect)."""
    pr.out.append(" : ")
    if "callee" not in op._props:
        pr.out.append(pr.type_str(op.callee_operands[0].type) + ", ")
    pr.out.append(pr.type_str(A.FunctionType([v.type for v in args],
                                             [r.type for r in op.results])))


def parse_vararg_and_bundles(p, props) -> None:
    """The part of llvm.call's and llvm.invoke's custom form after the arguments (and
    invoke's successors): `vararg(<function type>)` and the operand bundles (only `[]`:
    bundles are not supported)."""
    if p.parse_optional_keyword("vararg"):
        p.expect("(")
        props["var_callee_type"] = A.TypeAttr(p.parse_type())
        p.expect(")")
    if p.consume_if("["):
        p.expect("]")


def parse_call_types(p, direct):
    """`: (i32) -> i32` (direct) or `: !llvm.ptr, (i32) -> i32` (indirect) after a call or
    invoke: (the operand types, the function type), with upstream's
    parseCallTypeAndResolveOperands wording, reported at the colon."""
    from ...ir.diagnostics import DiagnosticError
    colon = p.tok_start
    p.expect(":")
    types = []
    if not direct:
        types.append(p.parse_type())
        if not p.consume_if(","):
            p.error(p._custom_prefix() + "expected indirect call to have 2 trailing types",
                    colon)
    try:
        ft = p.parse_function_type()
    except DiagnosticError as e:
        # the type parser's error first, then the call's own
        try:
            p.error(p._custom_prefix() + ("expected direct call to have 1 trailing type"
                                          if direct else "expected trailing function type"),
                    colon)
        except DiagnosticError as e2:
            e2.earlier = e.earlier + [e.diag]
            raise e2 from None
    if len(ft.results) > 1:
        p.error(p._custom_prefix() + "expected function with 0 or 1 result", colon)
    if ft.results and isinstance(ft.results[0], LLVMVoidType):
        p.error(p._custom_prefix() + "expected a non-void result type", colon)
    return types + list(ft.inputs), ft


class CallOp(Op):
    """`%r = llvm.call @f(%a) : (i32) -> i32`; indirect: `llvm.call %fp(%a) : !llvm.ptr,
    (i32) -> i32`; variadic callees name their type: `vararg(!llvm.func<i32 (ptr, ...)>)`."""

    name = "llvm.call"
    traits = (T.AttrSizedOperandSegments,)
    callee_operands = VarOperand(LLVMType)
    op_bundle_operands = VarOperand(LLVMType)
    result_ = OptResult(LLVMType)  # (upstream's `result`: Operation.result is the single one)
    callee = OptProp(C.FlatSymbolRefAttr)
    var_callee_type = OptProp(C.Constraint(
        lambda a: type(a) is A.TypeAttr and isinstance(a.value, LLVMFunctionType),
        "type attribute of LLVM function type"))
    CConv = Prop(CConvAttr, default=CCC)
    TailCallKind = Prop(TailCallAttr, default=TAIL_NONE)
    fastmathFlags = Prop(FastmathAttr, default=FASTMATH_NONE)
    op_bundle_sizes = Prop(C.DenseI32Array)
    _stored_defaults = (("CConv", CCC), ("TailCallKind", TAIL_NONE),
                        ("fastmathFlags", FASTMATH_NONE))

    @classmethod
    def new(cls, callee, args, result_type=None, loc=None, var_callee_type=None,
            **kw):
        """A call of `callee` (a symbol name, or a pointer value for an indirect call)."""
        ops = list(args)
        props = {}
        if isinstance(callee, str):
            props["callee"] = A.SymbolRefAttr(callee)
        else:
            ops = [callee] + ops
        if var_callee_type is not None:
            props["var_callee_type"] = A.TypeAttr(var_callee_type)
        props["op_bundle_sizes"] = A.DenseArrayAttr(A.i32, [])
        props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(ops), 0])
        props.update(kw)
        res = [] if result_type is None or isinstance(result_type, LLVMVoidType) else \
            [result_type]
        return cls.create(ops, res, props, None, (), 0, loc)

    @property
    def is_indirect(self):
        return "callee" not in self._props

    def call_callee(self):
        return self._props.get("callee") or self.operand(0)

    def call_arg_operands(self):
        ops = self.callee_operands
        return ops if "callee" in self._props else ops[1:]

    @staticmethod
    def parse(p, st):
        props = st.properties
        cc = _opt_enum(p, CCONV)
        if cc is not None:
            props["CConv"] = cc
        tk = _opt_enum(p, TAILCALLKIND)
        if tk is not None:
            props["TailCallKind"] = tk
        direct, refs = parse_callee_and_args(p, props)
        parse_vararg_and_bundles(p, props)
        p.parse_optional_attr_dict(st)
        types, ft = parse_call_types(p, direct)
        start = p.tok_start
        st.operands = p.resolve_operands(refs, types, start)
        st.types = [t for t in ft.results if not isinstance(t, LLVMVoidType)]
        props["op_bundle_sizes"] = A.DenseArrayAttr(A.i32, [])
        props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(st.operands), 0])

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        cc = props.get("CConv")
        if cc is not None and cc.value != "ccc":
            out.append(" " + cc.value)
        tk = props.get("TailCallKind")
        if tk is not None and tk.value != "none":
            out.append(" " + tk.value)
        args = print_callee_and_args(pr, self)
        vt = props.get("var_callee_type")
        if vt is not None:
            out.append(f" vararg({pr.type_str(vt.value)})")
        extra = {k: v for k, v in props.items() if k not in _CALL_ELIDED and not (
            k == "fastmathFlags" and v is FASTMATH_NONE)}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        print_call_types(pr, self, args)

    def verify_symbol_uses(self):
        from ...ir.symbol_table import lookup_nearest_symbol_from
        ref = self._props.get("callee")
        args = self.call_arg_operands()
        if ref is None:
            if not self.callee_operands:
                return "must have either a `callee` attribute or at least an operand"
            if not isinstance(self.operand(0).type, LLVMPointerType):
                return f"indirect call expects a pointer as callee: '{self.operand(0).type}'"
            ft = None
        else:
            fn = lookup_nearest_symbol_from(self, ref)
            if fn is None:
                return f"'{ref.root}' does not reference a symbol in the current scope"
            if not isinstance(fn, FuncOp):
                return f"'{ref.root}' does not reference a valid LLVM function"
            ft = fn.type
        vt = self._props.get("var_callee_type")
        if ft is None:
            return None  # an indirect call: its var_callee_type is checked by verify_
        if ft.vararg and vt is None:
            return "missing var_callee_type attribute for vararg call"
        if ft.vararg:
            if len(args) < len(ft.params):
                return (f"incorrect number of operands for vararg callee: expected at "
                        f"least {len(ft.params)}, but got {len(args)}")
        elif len(args) != len(ft.params):
            return (f"incorrect number of operands for callee: expected {len(ft.params)}, "
                    f"but got {len(args)}")
        for i, (a, t) in enumerate(zip(args, ft.params)):
            if a.type is not t:
                return (f"operand type mismatch: expected operand type '{t}', but provided "
                        f"'{a.type}' for operand number {i}")
        if ft.returns_void:
            if self.results:
                return "calling function with void result must not produce values"
        else:
            if len(self.results) != 1:
                return "expected function call to produce a value"
            if self.results[0].type is not ft.result:
                return (f"result type mismatch: '{self.results[0].type}' != "
                        f"'{ft.result}'")
        return None

    def verify_(self):
        if len(self.results) > 1:
            return "expected at most one result"
        vt = self._props.get("var_callee_type")
        if vt is None:
            return None
        # verifyCallOpVarCalleeType
        vt = vt.value
        if not vt.vararg:
            return "expected var_callee_type to be a variadic function type"
        args = self.call_arg_operands()
        if len(vt.params) > len(args):
            return f"expected var_callee_type to have at most {len(args)} parameters"
        for t, a in zip(vt.params, args):
            if t is not a.type:
                return f"var_callee_type parameter type mismatch: '{t}' != '{a.type}'"
        if not self.results:
            if not vt.returns_void:
                return "expected var_callee_type to return void"
        elif self.results[0].type is not vt.result:
            return (f"var_callee_type return type mismatch: '{vt.result}' != "
                    f"'{self.results[0].type}'")
        return None


add_optional_props(CallOp, _CALL_PROPS)


class InlineAsmOp(Op):
    """`%r = llvm.inline_asm has_side_effects asm_dialect = intel "mov $0, $1", "=r,r" %a :
    (i32) -> i32`"""

    name = "llvm.inline_asm"
    operands_ = VarOperand(LLVMType)
    res = OptResult(LLVMType)
    asm_string = Prop(C.StrAttr)
    constraints = Prop(C.StrAttr)
    has_side_effects = OptProp(C.UnitAttrC)
    has_side_effects.fmt = UnitKeyword()
    is_align_stack = OptProp(C.UnitAttrC)
    is_align_stack.fmt = UnitKeyword()
    tail_call_kind = Prop(TailCallAttr, default=TAIL_NONE,
                          fmt=StrippedAttr("llvm", "tailcallkind"))
    asm_dialect = OptProp(C.Constraint(lambda a: type(a) is A.IntegerAttr and
                                       a.type is A.i64 and a.value in (0, 1),
                                       "ATT (0) or Intel (1) asm dialect"))
    asm_dialect.fmt = EnumFmt(["att", "intel"], what="asm_dialect")
    operand_attrs = OptProp(C.ArrayAttrC)
    _stored_defaults = (("tail_call_kind", TAIL_NONE),)

    @staticmethod
    def parse(p, st):
        props = st.properties
        for kw in ("has_side_effects", "is_align_stack"):
            if p.parse_optional_keyword(kw):
                props[kw] = A.UnitAttr()
        if p.parse_optional_keyword("tail_call_kind"):
            p.expect("=")
            tk = InlineAsmOp.tail_call_kind.fmt.parse(p)
            if tk is not TAIL_NONE:
                props["tail_call_kind"] = tk
        if p.parse_optional_keyword("asm_dialect"):
            p.expect("=")
            props["asm_dialect"] = InlineAsmOp.asm_dialect.fmt.parse(p)
        if p.parse_optional_keyword("operand_attrs"):
            p.expect("=")
            props["operand_attrs"] = p.parse_attribute()
        parse_strict_attr_dict(p, st)
        props["asm_string"] = A.StringAttr(p.parse_string())
        p.expect(",")
        props["constraints"] = A.StringAttr(p.parse_string())
        refs = p.parse_operand_list() if p.kind == PERCENT else []
        p.expect(":")
        start = p.tok_start
        ft = p.parse_function_type()
        st.operands = p.resolve_operands(refs, list(ft.inputs), start)
        st.types = list(ft.results)

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        for kw in ("has_side_effects", "is_align_stack"):
            if kw in props:
                out.append(" " + kw)
        tk = props.get("tail_call_kind")
        if tk is not None and tk is not TAIL_NONE:
            out.append(" tail_call_kind = " + InlineAsmOp.tail_call_kind.fmt.print(pr, tk))
        d = props.get("asm_dialect")
        if d is not None:
            out.append(" asm_dialect = " + InlineAsmOp.asm_dialect.fmt.print(pr, d))
        oa = props.get("operand_attrs")
        if oa is not None:
            out.append(" operand_attrs = " + pr.attr_str(oa))
        pr.print_optional_attr_dict(self._attrs)
        out.append(f' {pr.attr_str(props["asm_string"])}, {pr.attr_str(props["constraints"])}'
                   " " + ", ".join(pr.value(v) for v in self.operands))
        out.append(" : " + pr.type_str(A.FunctionType([v.type for v in self.operands],
                                                      [r.type for r in self.results])))

    def verify_(self):
        tk = self._props.get("tail_call_kind", TAIL_NONE).value
        if tk == "musttail":
            return f"tail call kind '{tk}' is not supported by this operation"
        return None


# ---------------------------------------------------------------- constants and globals

class ConstantOp(Op):
    """`%c = llvm.mlir.constant(42 : i32) : i32`"""

    name = "llvm.mlir.constant"
    traits = (T.Pure, T.ConstantLike)
    value = Prop(C.AnyAttr)
    res = Result(LLVMType)
    assembly = "`(` $value `)` attr-dict `:` type($res)"

    def fold(self, operands):
        return self._props["value"]

    def verify_(self):
        v = self._props["value"]
        t = self.results[0].type
        if isinstance(v, A.StringAttr):
            n = len(v.value.encode("utf-8", "surrogateescape"))
            if not (isinstance(t, LLVMArrayType) and t.element_type is A.i8 and t.size == n):
                return f"expected array type of {n} i8 elements for the string constant"
            return None
        if isinstance(t, LLVMStructType):
            return _verify_struct_constant(v, t)
        if type(v) is A.IntegerAttr:
            if type(t) is not A.IntegerType:
                return "expected integer type"
            if type(v.type) is A.IntegerType and v.type is not t:
                return (f"attribute and type have different integer types: '{v.type}' vs. "
                        f"'{t}'")
            return None
        if type(v) is A.FloatAttr:
            return _float_semantics_error(v.type, t)
        if isinstance(v, (DenseElementsAttr, DenseResourceElementsAttr)):
            return _verify_elements_constant(v, t)
        if isinstance(v, A.ArrayAttr):
            if not isinstance(t, LLVMArrayType):
                return "expected array or struct type for array attribute"
            return _verify_array_constant(t, v, 0)
        return "only supports integer, float, string or elements attributes"


# [Note: llvm.mlir.constant shapes]
# As upstream's ConstantOp::verify: a struct takes an array attribute of one integer or
# float attribute per (integer or float) field, of the field's type; a float attribute
# (or float elements) goes with a float type of the same semantics or an integer of
# its width (a bitcast); elements go with a vector or (nested) array of as many
# elements, a scalable vector only as a splat; an array attribute of an array type
# nests one array attribute per dimension down to structs (or pointers: symbols,
# #llvm.zero/undef/poison), where #llvm.zero and #llvm.undef stand for a whole part.


def _float_semantics_error(ft, t):
    """verifyFloatSemantics: the attribute's float kind against an element type."""
    if isinstance(t, A.FloatType):
        return None if t is ft else "attribute and type have different float semantics"
    if isinstance(t, A.IntegerType) and t.width != ft.width:
        return f"expected integer type of width {ft.width}"
    return None


def _verify_struct_constant(v, t):
    if not isinstance(v, A.ArrayAttr):
        return "expected array attribute for struct type"
    fields = t.types
    if len(v.value) != len(fields):
        return f"expected array attribute of size {len(fields)}"
    for i, (a, ft) in enumerate(zip(v.value, fields)):
        if not (isinstance(ft, (A.IntegerType, A.IndexType)) and
                (type(ft) is not A.IntegerType or ft.is_signless)) and \
                not isinstance(ft, A.FloatType):
            return "expected struct element types to be floating point type or integer type"
        if type(a) not in (A.FloatAttr, A.IntegerAttr):
            return "expected element of array attribute to be floating point or integer"
        if a.type is not ft:
            return f"struct element at index {i} is of wrong type"
    return None


def _elements_shape(t):
    """(number of elements, element type) of a vector or of nested arrays."""
    if isinstance(t, A.VectorType):
        return t.num_elements, t.element_type
    n = 1
    while isinstance(t, LLVMArrayType):
        n *= t.size
        t = t.element_type
    return n, t


def _verify_elements_constant(v, t):
    if isinstance(t, A.VectorType) and any(t.scalable_dims) and \
            not (isinstance(v, DenseElementsAttr) and v.is_splat):
        return "scalable vector type requires a splat attribute"
    if not isinstance(t, (A.VectorType, LLVMArrayType)):
        return "expected vector or array type"
    n, et = _elements_shape(t)
    if n != v.type.num_elements:
        return (f"type and attribute have a different number of elements: {n} vs. "
                f"{v.type.num_elements}")
    at = v.type.element_type
    if isinstance(at, A.FloatType):
        return _float_semantics_error(at, et)
    if isinstance(at, A.IntegerType) and not isinstance(et, A.IntegerType):
        return "expected integer element type for integer elements attribute"
    return None


def _is_zero_or_undef(a) -> bool:
    return isinstance(a, LLVMOpaqueAttr) and a.mnemonic in ("zero", "undef")


def _verify_array_constant(t, v, dim):
    """verifyStructArrayConstant: one array attribute per array dimension."""
    items = v.value
    if len(items) != t.size:
        return (f"array attribute size does not match array type size in dimension {dim}: "
                f"{len(items)} vs. {t.size}")
    et = t.element_type
    if isinstance(et, LLVMArrayType):
        for i, a in enumerate(items):
            if _is_zero_or_undef(a):
                continue
            if not isinstance(a, A.ArrayAttr):
                return (f"nested attribute for sub-array in dimension {dim} at index {i} "
                        "must be a zero, or undef, or array attribute")
            err = _verify_array_constant(et, a, dim + 1)
            if err:
                return err
        return None
    if isinstance(et, LLVMPointerType):
        for i, a in enumerate(items):
            flat = isinstance(a, A.SymbolRefAttr) and not a.nested
            if not (flat or (isinstance(a, LLVMOpaqueAttr) and
                             a.mnemonic in ("zero", "undef", "poison"))):
                return (f"pointer array element at index {i} must be a flat symbol "
                        "reference, zero, undef, or poison")
        return None
    if not isinstance(et, LLVMStructType):
        return "for array with an array attribute must have a struct element type"
    for i, a in enumerate(items):
        if _is_zero_or_undef(a):
            continue
        if not isinstance(a, A.ArrayAttr):
            return (f"nested attribute for struct element at index {i} must be a zero, or "
                    "undef, or array attribute")
        if len(a.value) != len(et.types):
            return (f"nested array attribute size for struct element at index {i} must "
                    f"match struct size: {len(a.value)} vs. {len(et.types)}")
    return None


class _NoOperandValue(Op):
    traits = (T.Pure,)
    res = Result(LLVMType)
    assembly = "attr-dict `:` type($res)"


class UndefOp(_NoOperandValue):
    """`%u = llvm.mlir.undef : !llvm.struct<(i32, f32)>`"""

    name = "llvm.mlir.undef"


class PoisonOp(_NoOperandValue):
    """`%p = llvm.mlir.poison : i32`"""

    name = "llvm.mlir.poison"


class ZeroOp(_NoOperandValue):
    """`%z = llvm.mlir.zero : !llvm.ptr`"""

    name = "llvm.mlir.zero"


_GLOBAL_ELIDED = frozenset({"sym_name", "global_type", "constant", "value", "linkage",
                            "unnamed_addr", "visibility_", "tls_mode", "comdat"})


def parse_global_prefix(p, props):
    """`internal hidden thread_local unnamed_addr` before a global's or alias's name."""
    lk = _opt_enum(p, LINKAGE)
    if lk is not None:
        props["linkage"] = lk
    vis = _opt_keyword(p, VISIBILITY)
    if vis:
        props["visibility_"] = A.IntegerAttr(vis, A.i64)
    if p.parse_optional_keyword("thread_local"):
        props["tls_mode"] = A.IntegerAttr(1, A.i64)
    ua = _opt_keyword(p, UNNAMED_ADDR)
    if ua:
        props["unnamed_addr"] = A.IntegerAttr(ua, A.i64)


def print_global_prefix(out, props):
    """The printing side of parse_global_prefix (the linkage always shown)."""
    out.append(" " + props.get("linkage", EXTERNAL).value)
    vis = props.get("visibility_")
    if vis is not None and 0 < vis.value < 3:
        out.append(" " + VISIBILITY[vis.value])
    tls = props.get("tls_mode")
    if tls is not None and tls.value:
        out.append(" thread_local")
    ua = props.get("unnamed_addr")
    if ua is not None and 0 < ua.value < 3:
        out.append(" " + UNNAMED_ADDR[ua.value])


class GlobalOp(Op):
    """`llvm.mlir.global internal constant @g(dense<...> : tensor<4xf32>) {addr_space = 0 :
    i32} : !llvm.array<4 x f32>`; without value nor region: an external declaration
    (bound at load time); an initializer region returns the value otherwise."""

    name = "llvm.mlir.global"
    traits = (T.IsolatedFromAbove, T.Symbol)
    global_type = Prop(C.TypeAttrC)
    constant = OptProp(C.UnitAttrC)
    sym_name = Prop(C.StrAttr)
    linkage = Prop(LinkageAttr, default=EXTERNAL)
    dso_local = OptProp(C.UnitAttrC)
    value = OptProp(C.AnyAttr)
    alignment = OptProp(C.I64Attr)
    addr_space = Prop(C.I32Attr, default=I32_0)
    unnamed_addr = _i64_enum_prop()
    section = OptProp(C.StrAttr)
    comdat = OptProp(C.SymbolRefAttrC)
    dbg_exprs = OptProp(C.ArrayAttrC)
    visibility_ = _i64_enum_prop()
    tls_mode = _i64_enum_prop()
    externally_initialized = OptProp(C.UnitAttrC)
    target_specific_attrs = OptProp(C.ArrayAttrC)
    initializer = RegionDef()
    _stored_defaults = (("linkage", EXTERNAL), ("addr_space", I32_0),
                        ("unnamed_addr", I64_0), ("visibility_", I64_0), ("tls_mode", I64_0))

    @classmethod
    def new(cls, name, type, value=None, linkage="external", constant=False,
            alignment=None, loc=None):
        props = dict(sym_name=A.StringAttr(name), global_type=A.TypeAttr(type),
                     linkage=None if linkage == "external" else LINKAGE(linkage),
                     value=value, constant=A.UnitAttr() if constant else None,
                     alignment=None if alignment is None else A.IntegerAttr(alignment, A.i64))
        return cls.build(loc=loc, **props)

    @property
    def type(self):
        return self._props["global_type"].value

    @property
    def sym(self) -> str:
        return self._props["sym_name"].value

    @staticmethod
    def parse(p, st):
        props = st.properties
        parse_global_prefix(p, props)
        if p.parse_optional_keyword("constant"):
            props["constant"] = A.UnitAttr()
        props["sym_name"] = A.StringAttr(p.parse_symbol_name())
        p.expect("(")
        if not p.consume_if(")"):
            props["value"] = p.parse_attribute()
            p.expect(")")
        if p.parse_optional_keyword("comdat"):
            p.expect("(")
            props["comdat"] = p.parse_symbol_ref()
            p.expect(")")
        p.parse_optional_attr_dict(st)
        t = None
        if p.consume_if(":"):
            t = p.parse_type()
        from ...ir.core import Region
        if p.kind == PUNCT and p.tok == "{":
            if t is None:
                p.error("type is required when the initializer region is used")
            st.regions.append(p.parse_region(isolated=True, op_cls=st.cls))
        else:
            st.regions.append(Region())
        if t is None:
            v = props.get("value")
            if isinstance(v, A.StringAttr):
                t = LLVMArrayType(len(v.value.encode("utf-8", "surrogateescape")), A.i8)
            elif v is not None and getattr(v, "type", None) is not None:
                t = v.type
            else:
                p.error("type can only be omitted for string globals")
        props["global_type"] = A.TypeAttr(t)
        props.setdefault("addr_space", I32_0)

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        print_global_prefix(out, props)
        if "constant" in props:
            out.append(" constant")
        out.append(" " + A.print_symbol_name(props["sym_name"].value) + "(")
        v = props.get("value")
        if v is not None:
            out.append(pr.attr_str(v))
        out.append(")")
        cd = props.get("comdat")
        if cd is not None:
            out.append(f" comdat({pr.attr_str(cd)})")
        extra = {k: val for k, val in props.items() if k not in _GLOBAL_ELIDED}
        extra.setdefault("addr_space", I32_0)
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        t = self.type
        if not (isinstance(v, A.StringAttr) and isinstance(t, LLVMArrayType) and
                t.element_type is A.i8 and
                t.size == len(v.value.encode("utf-8", "surrogateescape"))):
            out.append(" : " + pr.type_str(t))
        r = self.regions[0]
        if r.blocks:
            out.append(" ")
            pr.print_region(r, print_entry_args=False, print_terminators=True)

    def verify_(self):
        t = self.type
        if not is_compatible_type(t):
            return "expects type to be a valid element type for an LLVM global"
        props = self._props
        v = props.get("value")
        r = self.regions[0]
        if isinstance(v, A.StringAttr):
            if not (isinstance(t, LLVMArrayType) and t.element_type is A.i8):
                return ("expected an array of 'i8' type for string attribute")
            n = len(v.value.encode("utf-8", "surrogateescape"))
            if t.size != n:
                return ("requires an i8 array type of the length equal to that of the "
                        "string attribute")
        if v is not None and r.blocks:
            return "cannot have both initializer value and region"
        lk = props.get("linkage", EXTERNAL).value
        if lk == "common" and (v is None or not _is_zero_value(v)):
            return "expected zero value for 'common' linkage"
        if lk == "appending" and not isinstance(t, LLVMArrayType):
            return "expected array type for 'appending' linkage"
        al = props.get("alignment")
        if al is not None and (al.value <= 0 or al.value & (al.value - 1)):
            return "alignment attribute is not a power of 2"
        err = _comdat_error(self)
        if err:
            return err
        if r.blocks:
            for op in r.blocks[0].ops:
                traits = type(op).traits
                if not (T.Pure in traits or T.NoMemoryEffect in traits or
                        T.ConstantLike in traits):
                    # reported at the op, as upstream's verifyRegions
                    emit_error(op.loc, "ops with side effects not allowed in global "
                               "initializers")
        return None


def _comdat_error(op):
    """verifyComdat: a `comdat(@sym)` must name a comdat selector."""
    ref = op._props.get("comdat")
    if ref is None:
        return None
    from ...ir.symbol_table import lookup_nearest_symbol_from
    target = lookup_nearest_symbol_from(op, ref)
    if target is None or target.name != "llvm.comdat_selector":
        emit_error(op.loc, "expected comdat symbol")
    return None


def _is_zero_value(v):
    if type(v) in (A.IntegerAttr, A.FloatAttr):
        return v.value == 0
    return False


class AddressOfOp(Op):
    """`%p = llvm.mlir.addressof @g : !llvm.ptr`"""

    name = "llvm.mlir.addressof"
    traits = (T.Pure,)
    global_name = Prop(C.FlatSymbolRefAttr)
    global_name.fmt = SymbolRef()
    res = Result(AnyPtr)
    assembly = "$global_name attr-dict `:` type($res)"

    def verify_symbol_uses(self):
        from ...ir.symbol_table import lookup_nearest_symbol_from
        ref = self._props["global_name"]
        target = lookup_nearest_symbol_from(self, ref)
        alias = target is not None and target.name == "llvm.mlir.alias"
        if not (isinstance(target, (GlobalOp, FuncOp)) or alias):
            return ("must reference a global defined by 'llvm.mlir.global', "
                    "'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'")
        if isinstance(target, GlobalOp) or alias:
            space = target.addr_space if alias else \
                target._props.get("addr_space", I32_0).value
            if self.results[0].type.addr_space != space:
                return "pointer address space must match address space of the referenced " \
                    "global or alias"
        return None


# ---------------------------------------------------------------- aggregates

def _position_type(t, pos):
    """The type at `pos` inside aggregate `t`, or an error string."""
    if not is_compatible_type(t):
        return None, f"expected LLVM IR Dialect type, got '{t}'"
    for i in pos:
        if isinstance(t, LLVMArrayType):
            if i < 0 or i >= t.size:
                return None, f"position out of bounds: {i}"
            t = t.element_type
        elif isinstance(t, LLVMStructType):
            if t.types is None or i < 0 or i >= len(t.types):
                return None, f"position out of bounds: {i}"
            t = t.types[i]
        else:
            return None, f"expected LLVM IR structure/array type, got: '{t}'"
    return t, None


class _PositionFmt(AttrFormat):
    def parse(self, p):
        return _parse_position(p)

    def print(self, pr, a):
        return "[" + ", ".join(map(str, a.value)) + "]"


def _parse_position(p):
    p.expect("[")
    vals = []
    if not p.consume_if("]"):
        vals.append(p.parse_integer())
        while p.consume_if(","):
            vals.append(p.parse_integer())
        p.expect("]")
    return A.DenseArrayAttr(A.i64, vals)


class ExtractValueOp(Op):
    """`%v = llvm.extractvalue %s[0] : !llvm.struct<(i32, f32)> `"""

    name = "llvm.extractvalue"
    traits = (T.Pure,)
    container = Operand(LLVMType)
    position = Prop(C.DenseI64Array)
    res = Result(LLVMType)

    @classmethod
    def infer_result_types(cls, operands, props):
        t, err = _position_type(operands[0].type, props["position"].value)
        if err:
            raise TypeError(err)
        return [t]

    @staticmethod
    def parse(p, st):
        ref = p.parse_operand()
        st.properties["position"] = _parse_position(p)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        t = p.parse_type()
        st.operands = [p.resolve_operand(ref, t)]
        rt, err = _position_type(t, st.properties["position"].value)
        if err:
            p.error(p._custom_prefix() + err, p.tok_start)
        st.types = [rt]

    def print(self, pr):
        c = self.operand(0)
        pr.out.append(f"{pr.op_name(self)} {pr.value(c)}"
                      + _PositionFmt().print(pr, self._props["position"]))
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(f" : {pr.type_str(c.type)} ")

    def verify_(self):
        t, err = _position_type(self.operand(0).type, self._props["position"].value)
        if err:
            return err
        if t is not self.results[0].type:
            return (f"Type mismatch: extracting from '{self.operand(0).type}' should "
                    f"produce '{t}' but this op returns '{self.results[0].type}'")
        return None


class InsertValueOp(Op):
    """`%s2 = llvm.insertvalue %v, %s[0] : !llvm.struct<(i32, f32)> `"""

    name = "llvm.insertvalue"
    traits = (T.Pure,)
    container = Operand(LLVMType)
    value = Operand(LLVMType)
    position = Prop(C.DenseI64Array)
    res = Result(LLVMType)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type]

    @staticmethod
    def parse(p, st):
        vref = p.parse_operand()
        p.expect(",")
        cref = p.parse_operand()
        st.properties["position"] = _parse_position(p)
        parse_strict_attr_dict(p, st)
        p.expect(":")
        t = p.parse_type()
        vt, err = _position_type(t, st.properties["position"].value)
        if err:
            p.error(p._custom_prefix() + err, p.tok_start)
        st.operands = [p.resolve_operand(cref, t), p.resolve_operand(vref, vt)]
        st.types = [t]

    def print(self, pr):
        c, v = self.operand(0), self.operand(1)
        pr.out.append(f"{pr.op_name(self)} {pr.value(v)}, {pr.value(c)}"
                      + _PositionFmt().print(pr, self._props["position"]))
        pr.print_optional_attr_dict(self._attrs)
        pr.out.append(f" : {pr.type_str(c.type)} ")

    def verify_(self):
        t, err = _position_type(self.operand(0).type, self._props["position"].value)
        if err:
            return err
        if t is not self.operand(1).type:
            return (f"Type mismatch: cannot insert '{self.operand(1).type}' into "
                    f"'{self.operand(0).type}'")
        if self.results[0].type is not self.operand(0).type:
            return "result type must match container type"
        return None


# ---------------------------------------------------------------- control flow

class BrOp(_CfBranch):
    """`llvm.br ^bb1(%a : i32)`: cf.br's declaration and syntax."""

    name = "llvm.br"
    loop_annotation = OptProp()

    @classmethod
    def canonicalization_patterns(cls):
        return []


class CondBrOp(_CfCondBranch):
    """`llvm.cond_br %c weights([3, 1]), ^bb1(%a : i32), ^bb2`: cf.cond_br's declaration
    and syntax."""

    name = "llvm.cond_br"
    loop_annotation = OptProp()

    @classmethod
    def canonicalization_patterns(cls):
        return []


class SwitchOp(BranchOpMixin, Op):
    """`llvm.switch %v : i32, ^default(%a : i32) [ 1: ^bb1, 2: ^bb2(%b : i32) ]`"""

    name = "llvm.switch"
    traits = (T.AttrSizedOperandSegments, T.Pure, T.Terminator)
    value = Operand(C.SignlessInteger)
    defaultOperands = VarOperand()
    caseOperands = VarOperand()
    case_values = OptProp()
    case_operand_segments = Prop(C.DenseI32Array)
    branch_weights = OptProp(C.DenseI32Array)
    defaultDestination = Successor()
    caseDestinations = VarSuccessor()

    case_value_list = _CfSwitch.case_value_list
    successor_operand_range = _CfSwitch.successor_operand_range

    @staticmethod
    def parse(p, st):
        from ..cf import _parse_dest, _sext
        ref = p.parse_operand()
        p.expect(":")
        t = p.parse_type()
        p.expect(",")
        ddest, dvals = _parse_dest(p)
        values, dests, groups = [], [], []
        p.expect("[")
        if not p.consume_if("]"):
            while True:
                values.append(_sext(p.parse_integer(), t.width))
                p.expect(":")
                d, vals = _parse_dest(p)
                dests.append(d)
                groups.append(vals)
                if not p.consume_if(","):
                    break
            p.expect("]")
        p.parse_optional_attr_dict(st)
        st.operands = [p.resolve_operand(ref, t)] + dvals + [v for g in groups for v in g]
        st.successors = [ddest] + dests
        props = st.properties
        if values:
            props["case_values"] = DenseElementsAttr(A.VectorType([len(values)], t), values)
        props["case_operand_segments"] = A.DenseArrayAttr(A.i32, [len(g) for g in groups])
        props["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, len(dvals), sum(len(g) for g in groups)])

    def print(self, pr):
        out = pr.out
        v = self.operand(0)
        out.append(f"{pr.op_name(self)} {pr.value(v)} : {pr.type_str(v.type)}, "
                   + pr.successor_with_operands(self.successors[0],
                                                self.successor_operands(0)) + " [")
        values = self.case_value_list
        nl = "\n" + pr.indent
        for i, cv in enumerate(values):
            out.append(("," if i else "") + nl + f"  {cv}: " + pr.successor_with_operands(
                self.successors[i + 1], self.successor_operands(i + 1)))
        out.append(nl + "]")
        attrs = {k: a for k, a in self._props.items()
                 if k not in ("case_values", "case_operand_segments", "operandSegmentSizes")}
        attrs.update(self._attrs)
        pr.print_optional_attr_dict(attrs)

    def verify_(self):
        cv = self._props.get("case_values")
        n = 0 if cv is None else cv.num_elements
        if n != len(self.successors) - 1:
            return "expects number of case values to match number of case destinations"
        w = self._props.get("branch_weights")
        if w is not None and len(w.value) != len(self.successors):
            return "expects number of branch weights to match number of successors: " \
                f"{len(w.value)} vs {len(self.successors)}"
        if cv is not None and cv.element_type is not self.operand(0).type:
            return "expects case value type to match condition value type"
        verify_successor_operands(self)
        return None


class UnreachableOp(Op):
    """`llvm.unreachable`"""

    name = "llvm.unreachable"
    traits = (T.Terminator,)
    assembly = "attr-dict"


for _c in (ReturnOp, ConstantOp, UndefOp, PoisonOp, ZeroOp, AddressOfOp, BrOp,
           CondBrOp, UnreachableOp):
    install_format(_c)

STRUCTURE_OPS = [FuncOp, ReturnOp, CallOp, InlineAsmOp, ConstantOp, UndefOp, PoisonOp, ZeroOp,
                 GlobalOp,
                 AddressOfOp, ExtractValueOp, InsertValueOp, BrOp, CondBrOp, SwitchOp,
                 UnreachableOp]

__all__ = [c.__name__ for c in STRUCTURE_OPS] + ["STRUCTURE_OPS"]
