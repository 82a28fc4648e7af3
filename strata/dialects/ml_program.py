"""The ml_program dialect: the structure of an ML program.

Functions (`ml_program.func`, SSACFG bodies; `ml_program.subgraph`, graph bodies),
globals (weights and state: `ml_program.global`, possibly mutable, with an initial value
that may be `dense_resource<...>` or `#ml_program.extern : type`), their loads and stores
(plain, const, and token-ordered `_graph` variants for graph regions), and `!ml_program
.token` to order side effects. As upstream MLIR prints them.

Loads and stores check their global like upstream's SymbolUserOpInterface: the symbol must
name an `ml_program.global` of the same type (mutable for stores and plain loads).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.ods import Op, Operand, OptProp, Prop, Result, VarOperand
from ..ir.symbol_table import lookup_nearest_symbol_from
from ..syntax.asm_format import SymbolRef, custom_op_prefix, install_format
from ..syntax.lexer import PUNCT
from .func import FunctionLikeOp


# ---------------------------------------------------------------- attributes and types

class ExternAttr(A.Attribute):
    """`#ml_program.extern : tensor<4xi32>`: a global's value, found outside the program
    by the global's name. Printed through the `#extern` alias, as upstream."""

    __slots__ = ("type",)
    dialect = "ml_program"
    asm_alias = "extern"

    def __new__(cls, type=None):
        if type is A.NoneType():
            type = None  # upstream's default self type; it is not printed

        def init(o):
            o.type = type
        return A.unique(cls, type, init)

    def _print(self):
        return "#ml_program.extern" + (f" : {self.type}" if self.type is not None else "")


class TokenType(A.Type):
    """`!ml_program.token`: orders side-effecting ops in graph regions."""

    __slots__ = ()
    dialect = "ml_program"

    def __new__(cls):
        return A.unique(cls, (), lambda o: None)

    def _print(self):
        return "!ml_program.token"


def _mnemonic_offset(p, mnemonic):
    """Where the mnemonic just read starts (upstream reports unknown ones there)."""
    i = p.tok_start
    while i > 0 and p.text[i - 1].isspace():
        i -= 1
    return i - len(mnemonic) if p.text[:i].endswith(mnemonic) else None


def _parse_attribute(p, mnemonic):
    if mnemonic != "extern":
        p.error(f"unknown attribute `{mnemonic}` in dialect `ml_program`",
                _mnemonic_offset(p, mnemonic))
    # The attribute has no parameters besides its type; upstream skips a `<...>` body.
    if p.kind == PUNCT and p.tok == "<" and p._prev_end() >= 0:
        p.parse_raw_angle_body()
    t = None
    if p.consume_if(":"):
        t = p.parse_type()
    return ExternAttr(t)


def _parse_type(p, mnemonic):
    if mnemonic != "token":
        p.error(f"unknown  type `{mnemonic}` in dialect `ml_program`",
                _mnemonic_offset(p, mnemonic))
    return TokenType()


Token = C.Constraint(lambda t: type(t) is TokenType, "Token for establishing execution order")


# ---------------------------------------------------------------- functions

class _FunctionLike(FunctionLikeOp):
    """ml_program's function-like ops share func.func's declaration, syntax and checks."""


class FuncOp(_FunctionLike):
    """`ml_program.func @f(%arg0: i32) -> i32 { ml_program.return %arg0 : i32 }`"""

    name = "ml_program.func"
    traits = (T.IsolatedFromAbove, T.Symbol)


class SubgraphOp(_FunctionLike):
    """`ml_program.subgraph @g(%arg0: i32) -> i32 { ml_program.output %arg0 : i32 }`
    (a single-block graph region)"""

    name = "ml_program.subgraph"
    traits = (T.IsolatedFromAbove, T.SingleBlock, T.Symbol, T.GraphRegion)


def _verify_returned(op, what, verb):
    """Return/output operands against the enclosing function's result types."""
    f = op.parent_op
    results = f.type.results
    vals = op.operands
    fname = A.print_symbol_name(f.properties["sym_name"].value)
    if len(vals) != len(results):
        return (f"has {len(vals)} operands, but enclosing function ({fname}) {verb} "
                f"{len(results)}")
    for i, (v, t) in enumerate(zip(vals, results)):
        if v.type is not t:
            # Upstream reports this one without the "'op' op" prefix.
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, f"type of {what} operand {i} ('{v.type}') doesn't match "
                               f"function result type ('{t}') in function {fname}"))
    return None


class ReturnOp(Op):
    """`ml_program.return %a : i32`"""

    name = "ml_program.return"
    traits = (T.Pure, T.HasParent("ml_program.func"), T.ReturnLike, T.Terminator)
    operands_ = VarOperand()
    assembly = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_(self):
        return _verify_returned(self, "return", "returns")


class OutputOp(Op):
    """`ml_program.output %a : i32`"""

    name = "ml_program.output"
    traits = (T.Pure, T.HasParent("ml_program.subgraph"), T.ReturnLike, T.Terminator)
    operands_ = VarOperand()
    assembly = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_(self):
        return _verify_returned(self, "output", "outputs")


# ---------------------------------------------------------------- globals

class GlobalOp(Op):
    """`ml_program.global private mutable @w(dense<0.0> : tensor<4xf32>) : tensor<?xf32>`"""

    name = "ml_program.global"
    traits = (T.Symbol,)
    sym_name = Prop(C.SymbolNameAttr)
    type = Prop(C.TypeAttrC)
    is_mutable = OptProp(C.UnitAttrC)
    value = OptProp()
    sym_visibility = OptProp(C.StrAttr)

    _FORMAT_PROPS = frozenset({"sym_name", "type", "is_mutable", "value", "sym_visibility"})

    @classmethod
    def new(cls, name, type, value=None, mutable=False, visibility="private", loc=None):
        """`ml_program.global private @name(value) : type`; `value` is an attribute
        (dense<...>, dense_resource<...>, ExternAttr(...)) or None."""
        return cls.build(loc=loc, sym_name=A.StringAttr(name), type=A.TypeAttr(type),
                         value=value, is_mutable=A.UnitAttr() if mutable else None,
                         sym_visibility=A.StringAttr(visibility) if visibility else None)

    @property
    def global_type(self):
        return self.properties["type"].value

    @property
    def mutable(self) -> bool:
        return "is_mutable" in self.properties

    @staticmethod
    def parse(p, st):
        # custom<SymbolVisibility>: upstream requires the keyword here.
        for vis in ("public", "private", "nested"):
            if p.parse_optional_keyword(vis):
                st.properties["sym_visibility"] = A.StringAttr(vis)
                break
        else:
            p.error(custom_op_prefix(p) + "expected 'public', 'private', or 'nested'")
        if p.parse_optional_keyword("mutable"):
            st.properties["is_mutable"] = A.UnitAttr()
        st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        # custom<TypedInitialValue>: `(initial value)` then `: type`.
        if p.consume_if("("):
            st.properties["value"] = p.parse_attribute()
            p.expect(")")
        p.expect(":")
        st.properties["type"] = A.TypeAttr(p.parse_type())
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        props = self.properties
        vis = props.get("sym_visibility")
        s = "ml_program.global " + (vis.value if vis is not None else "public")
        if "is_mutable" in props:
            s += " mutable"
        s += " " + A.print_symbol_name(props["sym_name"].value)
        v = props.get("value")
        if v is not None:
            s += "(" + pr.attr_str(v) + ")"
        s += " : " + pr.type_str(props["type"].value)
        pr.out.append(s)
        extra = {k: a for k, a in props.items() if k not in self._FORMAT_PROPS}
        extra.update(self.attributes)
        pr.print_optional_attr_dict(extra)

    def verify_(self):
        if "is_mutable" not in self.properties and "value" not in self.properties:
            return "immutable global must have an initial value"
        return None


def drop_unread_globals(block, names) -> None:
    """Erase the `ml_program.global`s of module body `block` named in `names` that no op
    outside the globals refers to any more (weights a compile-time fold replaced)."""
    read = set()
    for top in block.ops:
        if top.name == "ml_program.global":
            continue
        for op in top.walk():
            for a in (*op.properties.values(), *op.attributes.values()):
                if isinstance(a, A.SymbolRefAttr):
                    read.add(a.root)
    for g in [o for o in block.ops if o.name == "ml_program.global"]:
        name = g.properties["sym_name"].value
        if name in names and name not in read:
            g.erase()


def _global_prop():
    return Prop(C.SymbolRefAttrC, fmt=SymbolRef())


class _GlobalUser(Op):
    """An op naming a global by `global`; `_check_global` resolves and checks it."""

    # The property's upstream name `global` is a Python keyword: declare it by name.
    locals()["global"] = _global_prop()

    def referenced_global(self):
        g = lookup_nearest_symbol_from(self, self.properties["global"])
        return g if isinstance(g, GlobalOp) else None

    def _check_global(self, value_type, store=False, const=False):
        ref = self.properties["global"]
        g = self.referenced_global()
        if g is None:
            return f"undefined global: {ref}"
        gt = g.global_type
        if store:
            if not g.mutable:
                return f"cannot store to an immutable global {ref}"
            if gt is not value_type:
                return f"cannot store to a global typed '{gt}' from '{value_type}'"
            return None
        if const and g.mutable:
            return f"cannot load as const from mutable global {ref}"
        if gt is not value_type:
            return f"cannot load from global typed '{gt}' as '{value_type}'"
        return None

    def _global_name_hint(self):
        return [self.properties["global"].leaf]


class GlobalLoadOp(_GlobalUser):
    """`%w = ml_program.global_load @w : tensor<?xf32>`"""

    name = "ml_program.global_load"
    traits = (T.MemoryEffects(T.MemRead),)
    result = Result()
    assembly = "$global `:` type($result) attr-dict"

    def asm_result_names(self):
        return self._global_name_hint()

    def verify_(self):
        return self._check_global(self.results[0].type)


class GlobalLoadConstOp(_GlobalUser):
    """`%w = ml_program.global_load_const @w : tensor<4xf32>`"""

    name = "ml_program.global_load_const"
    traits = (T.Pure,)
    result = Result()
    assembly = "$global `:` type($result) attr-dict"

    def asm_result_names(self):
        return self._global_name_hint()

    def verify_(self):
        return self._check_global(self.results[0].type, const=True)


class _TokenOrdering:
    """custom<TokenOrdering>: ` ordering(%t0, %t1 -> !ml_program.token)`, or
    `ordering(() -> !ml_program.token)` with no token consumed."""

    @staticmethod
    def parse_TokenOrdering(p, st, ctx, tokens_def, produce):
        produce_def = produce[1] if isinstance(produce, tuple) else produce
        refs = []
        t = TokenType()  # upstream leaves the type unset (and crashes) without the clause
        if p.parse_optional_keyword("ordering"):
            p.expect("(")
            if p.consume_if("("):
                p.expect(")")
            else:
                refs = p.parse_operand_list()
            p.expect("->")
            t = p.parse_type()
            p.expect(")")
        ctx.operands[tokens_def.name] = refs
        ctx.types[tokens_def.name] = [TokenType()] * len(refs)
        ctx.types[produce_def.name] = [t]

    def print_TokenOrdering(self, pr, tokens, produced):
        s = " ordering("
        s += ", ".join(pr.value(v) for v in tokens) if tokens else "()"
        if produced is not None:
            s += " -> " + pr.type_str(produced.type)
        return s + ")"


class GlobalLoadGraphOp(_TokenOrdering, _GlobalUser):
    """`%w, %tok = ml_program.global_load_graph @w ordering(%t -> !ml_program.token) :
    tensor<?xf32>`"""

    name = "ml_program.global_load_graph"
    traits = (T.MemoryEffects(T.MemRead),)
    consumeTokens = VarOperand(Token)
    result_ = Result()  # upstream's `result` ([Note: field names])
    produceToken = Result(Token)
    assembly = ("$global `` custom<TokenOrdering>($consumeTokens, type($produceToken)) `:` "
                "type($result_) attr-dict")

    def asm_result_names(self):
        return ["result", "produceToken"]

    def verify_(self):
        return self._check_global(self.results[0].type)


class GlobalStoreOp(_GlobalUser):
    """`ml_program.global_store @w = %v : tensor<?xf32>`"""

    name = "ml_program.global_store"
    traits = (T.MemoryEffects(T.MemWrite),)
    value = Operand()
    assembly = "$global `=` $value `:` type($value) attr-dict"

    def verify_(self):
        return self._check_global(self.value.type, store=True)


class GlobalStoreGraphOp(_TokenOrdering, _GlobalUser):
    """`%tok = ml_program.global_store_graph @w = %v ordering(%t -> !ml_program.token) :
    tensor<?xf32>`"""

    name = "ml_program.global_store_graph"
    traits = (T.MemoryEffects(T.MemWrite),)  # a store: cse must never merge across it
    value = Operand()
    consumeTokens = VarOperand(Token)
    produceToken = Result(Token)
    assembly = ("$global `=` $value `` custom<TokenOrdering>($consumeTokens, "
                "type($produceToken)) `:` type($value) attr-dict")

    def verify_(self):
        return self._check_global(self.value.type, store=True)


class TokenOp(Op):
    """`%t = ml_program.token`"""

    name = "ml_program.token"
    traits = (T.Pure,)
    token = Result(Token)
    assembly = "attr-dict"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [TokenType()]


for _c in (GlobalLoadOp, GlobalLoadConstOp, GlobalLoadGraphOp, GlobalStoreOp,
           GlobalStoreGraphOp, ReturnOp, OutputOp, TokenOp):
    install_format(_c)

_OPS = [FuncOp, GlobalOp, GlobalLoadOp, GlobalLoadConstOp, GlobalLoadGraphOp, GlobalStoreOp,
        GlobalStoreGraphOp, OutputOp, ReturnOp, SubgraphOp, TokenOp]

ML_PROGRAM = Dialect("ml_program", _OPS, parse_attribute=_parse_attribute,
                     parse_type=_parse_type)
