"""The declarative assembly format engine (like ODS `assemblyFormat`).

An op class's `assembly` string, e.g.

    $lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)

is compiled once into a list of elements; the op's custom `parse` and `print` walk that
list. Spacing follows MLIR's generated printers exactly (a space before each element
unless after `(`, `[`, `<` or an empty literal; none before `,`, `)`, `]`, `>`), so the
printed text is the one upstream prints. Operand and result types that the format does
not spell out are inferred from the op's traits (SameOperandsAndResultType,
SameTypeOperands, AllTypesMatch) or its `infer_result_types`.
"""
from __future__ import annotations

import re

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.ods import OPTIONAL, SINGLE, VARIADIC, Operand, Prop, RegionDef, Result, Successor
from .lexer import BARE, PERCENT, PUNCT, CARET

__all__ = ["compile_format", "AttrFormat", "GenericAttr", "SymbolName", "TypeAttrFmt",
           "BareInt", "DenseArrayFmt", "EnumFmt", "StrippedAttr", "UnitKeyword",
           "FormatError", "install_format", "uniform_binary", "format_pending"]


class FormatError(Exception):
    pass


# ---------------------------------------------------------------- attribute formats

class AttrFormat:
    """How a property appears in a custom form: parse(parser), print(printer, attr)."""

    def parse(self, p):
        return p.parse_attribute()

    def print(self, pr, a) -> str:
        return pr.attr_str(a)

    def can_start(self, p) -> bool:
        return p.kind != PUNCT or p.tok in ("[", "{", "-")


class GenericAttr(AttrFormat):
    pass


class SymbolName(AttrFormat):
    """SymbolNameAttr: `@name` in text, a StringAttr in the IR."""

    def parse(self, p):
        return A.StringAttr(p.parse_symbol_name())

    def print(self, pr, a):
        return A.print_symbol_name(a.value)

    def can_start(self, p):
        return p.tok.startswith("@")


class SymbolRef(AttrFormat):
    def parse(self, p):
        if not p.tok.startswith("@"):
            # Upstream parses any attribute here and then rejects its kind.
            start = p.tok_start
            p.parse_attribute()
            p.error(p._custom_prefix() + "invalid kind of attribute specified", start)
        return p.parse_symbol_ref()

    def can_start(self, p):
        return p.tok.startswith("@")


class TypeAttrFmt(AttrFormat):
    def parse(self, p):
        return A.TypeAttr(p.parse_type())

    def print(self, pr, a):
        return pr.type_str(a.value)


class BareInt(AttrFormat):
    """An integer attribute of a known type printed without `: type`."""

    def __init__(self, type=A.i64):
        self.type = type

    def parse(self, p):
        return A.IntegerAttr(p.parse_integer(), self.type)

    def print(self, pr, a):
        return str(a.value)

    def can_start(self, p):
        return p.tok == "-" or p.tok[:1].isdigit()


class DenseArrayFmt(AttrFormat):
    """A dense array printed as `[1, 2, 3]`."""

    def __init__(self, type=A.i64):
        self.type = type

    def parse(self, p):
        p.expect("[")
        vals = []
        if not p.consume_if("]"):
            vals.append(p.parse_integer())
            while p.consume_if(","):
                vals.append(p.parse_integer())
            p.expect("]")
        return A.DenseArrayAttr(self.type, vals)

    def print(self, pr, a):
        return "[" + ", ".join(map(str, a.value)) + "]"

    def can_start(self, p):
        return p.tok == "["


class EnumFmt(AttrFormat):
    """An enum stored as an integer attribute (I64EnumAttr) printed as a keyword."""

    def __init__(self, names, type=A.i64, what="predicate"):
        self.names = list(names)
        self.index = {n: i for i, n in enumerate(self.names)}
        self.type = type
        self.what = what

    def parse(self, p):
        kw = p.tok if p.kind == BARE else p.tok[1:-1] if p.kind == 9 else None
        i = self.index.get(kw)
        if i is None:
            # Upstream words an unknown keyword and a non-keyword alike.
            p.error(custom_op_prefix(p) + "expected string or keyword containing one of "
                    f"the following enum values for attribute '{self.what}' "
                    f"[{', '.join(self.names)}]")
        p._next()
        return A.IntegerAttr(i, self.type)

    def print(self, pr, a):
        return self.names[a.value] if 0 <= a.value < len(self.names) else str(a.value)

    def can_start(self, p):
        return p.kind == BARE and p.tok in self.index


class StrippedAttr(AttrFormat):
    """A dialect attribute printed without `#dialect.mnemonic`: `fastmath<fast>` is the
    literal `fastmath` followed by the stripped attribute `<fast>`."""

    def __init__(self, dialect: str, mnemonic: str):
        self.dialect = dialect
        self.mnemonic = mnemonic
        self.prefix = f"#{dialect}.{mnemonic}"

    def parse(self, p):
        if p.kind == PUNCT and p.tok == "<":
            return p.ctx.get_dialect(self.dialect).parse_attribute(p, self.mnemonic)
        return p.parse_attribute()

    def print(self, pr, a):
        s = pr.attr_str(a)
        return s[len(self.prefix):] if s.startswith(self.prefix) else s

    def can_start(self, p):
        return p.kind == PUNCT and p.tok == "<"


class UnitKeyword(AttrFormat):
    """A UnitAttr property: present or absent, nothing printed for it (its keyword is a
    literal of the format, as in `(`exact` $isExact^)?`)."""

    def parse(self, p):
        return A.UnitAttr()

    def print(self, pr, a):
        return None


def parse_strict_attr_dict(p, st, with_keyword=False):
    """`attr-dict` of a declarative format: discardable attributes only. Upstream's
    generated parsers reject an inherent attribute there ("strict properties")."""
    from .parser import OperationState
    start = p.tok_start
    tmp = OperationState(st.cls, st.name, None)
    p.parse_optional_attr_dict(tmp, with_keyword=with_keyword)
    for key in tmp.properties:
        p.error(custom_op_prefix(p) + f"inherent attribute '{key}' cannot be parsed from "
                "attr-dict when strict properties in assembly format is enabled", start)
    st.attributes.update(tmp.attributes)


def custom_op_prefix(p) -> str:
    """`custom op 'name' `: how upstream prefixes errors a custom parser emits itself."""
    name = getattr(p, "custom_op_name", None)
    return f"custom op '{name}' " if name else ""


# ---------------------------------------------------------------- format elements

_LIT, _OPERAND, _PROP, _REGION, _SUCC, _TYPE, _FTYPE, _ATTRDICT, _OPTIONAL, _CUSTOM, \
    _REGIONS, _SUCCS, _OPERANDS, _PROPDICT = range(14)

_TOKEN = re.compile(
    r"\s*(?:(`[^`]*`)|(\$[A-Za-z_][A-Za-z0-9_]*)|(attr-dict-with-keyword|attr-dict|prop-dict"
    r"|functional-type|type|qualified|custom|regions|successors|operands|results|ref)"
    r"|(\^)|([(),?:<>\[\]])|([A-Za-z_][A-Za-z0-9_]*)|(\S))")


def _tokenize(fmt):
    out = []
    pos = 0
    while pos < len(fmt):
        m = _TOKEN.match(fmt, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        if m.lastindex is None:
            continue
        out.append((m.lastindex, m.group(m.lastindex)))
    return out


class _Elem:
    __slots__ = ("kind", "value", "arg", "anchor", "children", "first")

    def __init__(self, kind, value=None, arg=None):
        self.kind = kind
        self.value = value
        self.arg = arg
        self.anchor = None
        self.children = None
        self.first = None


class _FormatParser:
    def __init__(self, cls, fmt):
        self.cls = cls
        self.toks = _tokenize(fmt)
        self.i = 0
        self.defs = {}
        for d in cls._operand_defs + cls._result_defs + cls._prop_defs + \
                cls._region_defs + cls._successor_defs:
            self.defs[d.name] = d

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expect(self, s):
        k, v = self.take()
        if v != s:
            raise FormatError(f"{self.cls.name}: expected '{s}' in assembly format, got {v!r}")

    def parse_all(self):
        elems = []
        while self.i < len(self.toks):
            elems.append(self.parse_elem())
        return elems

    def parse_var(self, tok):
        name = tok[1:]
        d = self.defs.get(name)
        if d is None:
            raise FormatError(f"{self.cls.name}: unknown variable '${name}' in assembly format")
        return d

    def parse_elem(self):
        k, v = self.take()
        if k == 1:
            return _Elem(_LIT, v[1:-1])
        if k == 2:
            d = self.parse_var(v)
            kind = {Operand: _OPERAND, Prop: _PROP, RegionDef: _REGION,
                    Successor: _SUCC}.get(type(d))
            if kind is None:
                raise FormatError(f"{self.cls.name}: results cannot be format variables")
            return _Elem(kind, d)
        if k == 3:
            if v in ("attr-dict", "attr-dict-with-keyword"):
                return _Elem(_ATTRDICT, v == "attr-dict-with-keyword")
            if v == "prop-dict":
                return _Elem(_PROPDICT)
            if v in ("type", "qualified"):
                if v == "qualified":
                    self.expect("(")
                    inner = self.parse_elem()
                    self.expect(")")
                    return inner
                self.expect("(")
                args = self.parse_type_args()
                self.expect(")")
                return _Elem(_TYPE, args)
            if v == "functional-type":
                self.expect("(")
                a = self.parse_type_args()
                self.expect(",")
                b = self.parse_type_args()
                self.expect(")")
                return _Elem(_FTYPE, a, b)
            if v == "custom":
                self.expect("<")
                _, name = self.take()
                self.expect(">")
                self.expect("(")
                args = []
                while self.peek()[1] != ")":
                    kk, vv = self.take()
                    if kk == 2:
                        args.append(self.parse_var(vv))
                    elif vv == "ref":
                        self.expect("(")
                        args.append(("ref", self.parse_elem_var()))
                        self.expect(")")
                    elif vv == "type":
                        self.expect("(")
                        args.append(("type", self.parse_elem_var()))
                        self.expect(")")
                    elif vv == "attr-dict":
                        args.append("attr-dict")
                    elif vv != ",":
                        raise FormatError(f"{self.cls.name}: bad custom directive argument {vv}")
                self.expect(")")
                return _Elem(_CUSTOM, name, args)
            if v == "regions":
                return _Elem(_REGIONS)
            if v == "successors":
                return _Elem(_SUCCS)
            if v == "operands":
                return _Elem(_OPERANDS)
            raise FormatError(f"{self.cls.name}: unsupported directive {v}")
        if k == 5 and v == "(":
            children = []
            anchor = None
            while self.peek()[1] != ")":
                e = self.parse_elem()
                if self.peek()[0] == 4:
                    self.take()
                    anchor = e
                children.append(e)
            self.expect(")")
            self.expect("?")
            g = _Elem(_OPTIONAL)
            g.children = children
            g.anchor = anchor
            # The element that decides whether the group is present: the first one that
            # is not a spacing literal (`` `[` $symbols^ `]`).
            g.first = next((c for c in children if c.kind != _LIT or
                            c.value not in ("", " ", "\\n")), children[0])
            if anchor is None:
                raise FormatError(f"{self.cls.name}: optional group without anchor")
            return g
        raise FormatError(f"{self.cls.name}: unexpected {v!r} in assembly format")

    def parse_elem_var(self):
        k, v = self.take()
        if k != 2:
            raise FormatError(f"{self.cls.name}: expected variable")
        return self.parse_var(v)

    def parse_type_args(self):
        k, v = self.peek()
        if v in ("operands", "results"):
            self.take()
            return v
        return self.parse_elem_var()


# ---------------------------------------------------------------- printing

def _space_before_literal(value, last_punct):
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


class _PrintState:
    __slots__ = ("space", "last_punct")

    def __init__(self):
        self.space = True
        self.last_punct = False


def _print_elems(elems, op, pr, out, st, used_props):
    for e in elems:
        k = e.kind
        if k == _LIT:
            v = e.value
            if v == "":
                st.space = False
                st.last_punct = True
                continue
            if v == " " or v == "\\n":
                out.append(" ")
                st.space = False
                st.last_punct = True
                continue
            if st.space and _space_before_literal(v, st.last_punct):
                out.append(" ")
            out.append(v)
            st.space = len(v) != 1 or v[0] not in "<({["
            st.last_punct = v[0] != "_" and not v[0].isalpha()
            continue
        if k == _ATTRDICT:
            _print_attr_dict(op, pr, out, e.value, used_props)
            st.last_punct = False
            continue
        if k == _OPTIONAL:
            if _anchor_present(e.anchor, op):
                _print_elems(e.children, op, pr, out, st, used_props)
            continue
        text = _elem_text(e, op, pr, used_props)
        if text is None:
            continue
        if st.space or not st.last_punct:
            out.append(" ")
        out.append(text)
        st.last_punct = False
        st.space = True


def _values_of(d, op):
    v = d.__get__(op)
    if d.kind == SINGLE:
        return [v]
    if d.kind == OPTIONAL:
        return [] if v is None else [v]
    return v


def _types_of(arg, op):
    if arg == "operands":
        return [o.value.type for o in op._operands]
    if arg == "results":
        return [r.type for r in op.results]
    return [v.type for v in _values_of(arg, op)]


def _elem_text(e, op, pr, used_props):
    k = e.kind
    if k == _OPERAND:
        # An empty operand group still gets its leading space, as ODS's printers
        # (`tensor.from_elements  : tensor<0xf32>`); optional groups skip it whole.
        vals = _values_of(e.value, op)
        return ", ".join(pr.value(v) for v in vals)
    if k == _TYPE:
        ts = _types_of(e.value, op)
        return ", ".join(map(pr.type_str, ts)) if ts else None
    if k == _PROP:
        d = e.value
        used_props.add(d.name)
        a = op._props.get(d.name)
        if a is None:
            return None
        fmt = getattr(d, "fmt", None) or _default_fmt(d)
        return fmt.print(pr, a)
    if k == _FTYPE:
        return pr.type_str(A.FunctionType(_types_of(e.value, op), _types_of(e.arg, op)))
    if k == _REGION:
        r = e.value.__get__(op)
        if e.value.kind == VARIADIC:  # `{...}, {...}`; none still takes its space
            return ", ".join(_capture(pr, lambda x=x: pr.print_region(x)) for x in r)
        return _capture(pr, lambda: pr.print_region(
            r, print_entry_args=True, print_terminators=_print_terminator(op, r)))
    if k == _REGIONS:
        return _capture(pr, lambda: [pr.print_region(r) for r in op.regions])
    if k == _SUCC:
        d = e.value
        if d.kind == VARIADIC:
            return ", ".join(pr.block_name(b) for b in d.__get__(op))
        return pr.block_name(d.__get__(op))
    if k == _OPERANDS:
        return ", ".join(pr.value(o.value) for o in op._operands)
    if k == _CUSTOM:
        # Properties a directive prints are not repeated in the attr-dict (static_offsets
        # of custom<DynamicIndexList>, ...), as upstream.
        for a in e.arg:
            if isinstance(a, Prop):
                used_props.add(a.name)
        fn = getattr(op, "print_" + e.value)
        return fn(pr, *_custom_args(e.arg, op))
    if k == _PROPDICT:
        # `<{...}>`: the properties the format does not print elsewhere.
        items = sorted((n, a) for n, a in op._props.items()
                       if n not in used_props and n not in _segment_names)
        used_props.update(n for n, _ in items)
        return "<{" + pr.attr_dict_entries(items) + "}>" if items else None
    raise FormatError(f"cannot print element {k}")


def _custom_args(args, op):
    out = []
    for a in args:
        if isinstance(a, tuple):
            a = a[1]
        if a == "attr-dict":
            out.append(op._attrs)
        elif isinstance(a, Prop):
            out.append(op._props.get(a.name))
        else:
            out.append(a.__get__(op))
    return out


def _print_terminator(op, region) -> bool:
    """Generated printers elide the implicit terminator of a SingleBlockImplicitTerminator
    region when it has no operands, results or attributes."""
    if T.find_trait(op, T.SingleBlockImplicitTerminator) is None or not region.blocks:
        return True
    term = region.blocks[0].last
    if term is None or T.Terminator not in type(term).traits:
        return True
    return bool(term._operands or term.results or term.attributes)


def _capture(pr, fn):
    saved = pr.out
    pr.out = []
    fn()
    s = "".join(pr.out)
    pr.out = saved
    return s


def _anchor_present(e, op):
    k = e.kind
    if k == _OPERAND:
        return bool(_values_of(e.value, op))
    if k == _PROP:
        return op._props.get(e.value.name) is not None and not _is_default(e.value, op)
    if k == _TYPE:
        return bool(_types_of(e.value, op))
    if k == _REGION:
        r = e.value.__get__(op)
        return bool(r) if e.value.kind == VARIADIC else bool(r.blocks)
    if k == _SUCC:
        return bool(e.value.__get__(op))
    if k == _LIT:
        return True
    if k == _CUSTOM:
        args = _custom_args(e.arg, op)
        return any(a not in (None, [], ()) for a in args)
    return True


def _is_default(d, op):
    return d.default is not None and op._props.get(d.name) is d.default


def _print_attr_dict(op, pr, out, with_keyword, used_props):
    cls = type(op)
    # `used_props` starts as every property the format names (see compile_format), so
    # attr-dict elides them wherever they stand, like ODS's generated printers.
    elided = used_props | _segment_names
    props = {k: v for k, v in op._props.items() if k not in elided}
    for d in cls._prop_defs:
        if d.name in props and _is_default(d, op):
            del props[d.name]
    items = list(props.items()) + [(k, v) for k, v in op._attrs.items()
                                   if k not in props]
    if not items:
        return
    items.sort()
    out.append(" attributes {" if with_keyword else " {")
    out.append(pr.attr_dict_entries(items))
    out.append("}")


_segment_names = frozenset({"operandSegmentSizes", "resultSegmentSizes"})


def _default_fmt(d):
    return _GENERIC


_GENERIC = GenericAttr()


# ---------------------------------------------------------------- parsing

def _parse_elems(elems, p, st, ctx):
    for e in elems:
        k = e.kind
        if k == _LIT:
            v = e.value
            if v in ("", " ", "\\n"):
                continue
            if v[0].isalpha() or v[0] == "_":
                p.parse_keyword(v)
            else:
                p.expect(v)
        elif k == _OPERAND:
            d = e.value
            if d.kind == SINGLE:
                ctx.operands[d.name] = [p.parse_operand()]
            elif d.kind == OPTIONAL:
                r = p.parse_optional_operand()
                ctx.operands[d.name] = [r] if r is not None else []
            else:
                ctx.operands[d.name] = p.parse_operand_list()
        elif k == _TYPE:
            _parse_types(e.value, p, ctx)
        elif k == _FTYPE:
            ft = p.parse_function_type()
            _assign_types(e.value, list(ft.inputs), ctx, p)
            _assign_types(e.arg, list(ft.results), ctx, p)
        elif k == _PROP:
            d = e.value
            fmt = getattr(d, "fmt", None) or _GENERIC
            st.properties[d.name] = fmt.parse(p)
        elif k == _ATTRDICT:
            parse_strict_attr_dict(p, st, e.value)
        elif k == _OPTIONAL:
            if _group_starts(e.first, p):
                _parse_elems(e.children, p, st, ctx)
        elif k == _REGION:
            d = e.value
            iso = T.IsolatedFromAbove in st.cls.traits
            if d.kind == VARIADIC:  # zero or more, comma-separated
                rs = []
                if p.kind == PUNCT and p.tok == "{":
                    rs.append(p.parse_region(isolated=iso, op_cls=st.cls))
                    while p.consume_if(","):
                        rs.append(p.parse_region(isolated=iso, op_cls=st.cls))
                ctx.regions[d.index] = rs
            else:
                ctx.regions[d.index] = p.parse_region(isolated=iso, op_cls=st.cls)
        elif k == _REGIONS:
            while p.kind == PUNCT and p.tok == "{":
                ctx.regions[len(ctx.regions)] = p.parse_region(op_cls=st.cls)
                if not p.consume_if(","):
                    break
        elif k == _SUCC:
            d = e.value
            if d.kind == VARIADIC:
                bs = []
                if p.kind == CARET:
                    bs.append(p.parse_successor())
                    while p.consume_if(","):
                        bs.append(p.parse_successor())
                st.successors.extend(bs)
            else:
                st.successors.append(p.parse_successor())
        elif k == _CUSTOM:
            fn = getattr(st.cls, "parse_" + e.value)
            fn(p, st, ctx, *e.arg)
        elif k == _OPERANDS:
            ctx.operands["operands"] = p.parse_operand_list()
        elif k == _PROPDICT:
            if p.kind == PUNCT and p.tok == "<":
                p._next()
                st.properties.update(p.parse_attr_dict_body())
                p.expect(">")


def _group_starts(e, p):
    k = e.kind
    if k == _LIT:
        v = e.value
        if v[0].isalpha() or v[0] == "_":
            return p.kind == BARE and p.tok == v
        return p.kind == PUNCT and p.tok == v
    if k == _OPERAND:
        return p.kind == PERCENT
    if k == _PROP:
        fmt = getattr(e.value, "fmt", None) or _GENERIC
        return fmt.can_start(p)
    if k == _REGION:
        return p.kind == PUNCT and p.tok == "{"
    if k == _TYPE:
        return p.parse_optional_type is not None and p.kind != PUNCT or p.tok == "("
    if k == _SUCC:
        return p.kind == CARET
    if k == _ATTRDICT:
        return p.kind == PUNCT and p.tok == "{"
    if k == _CUSTOM:
        return True
    return False


def _parse_types(arg, p, ctx):
    if arg == "operands" or arg == "results" or arg.kind != SINGLE:
        if arg not in ("operands", "results") and arg.kind == OPTIONAL:
            t = p.parse_optional_type()
            ts = [t] if t is not None else []
        else:
            ts = p.parse_type_list() if (p.kind != PUNCT or p.tok == "(") else []
        _assign_types(arg, ts, ctx, p)
    else:
        start = p.tok_start
        t = p.parse_type()
        kind = getattr(arg.constraint, "type_kind", None)
        if kind is not None and not isinstance(t, kind[0]):
            p.error(p._custom_prefix() + "invalid kind of type specified" +
                    (f": expected {kind[1]}, but found '{t}'" if kind[1] else ""), start)
        _assign_types(arg, [t], ctx, p)


def _assign_types(arg, ts, ctx, p):
    if arg == "operands":
        ctx.all_operand_types = ts
    elif arg == "results":
        ctx.all_result_types = ts
    else:
        ctx.types[arg.name] = ts


class _Ctx:
    __slots__ = ("operands", "types", "regions", "all_operand_types", "all_result_types",
                 "start")

    def __init__(self, start):
        self.operands = {}
        self.types = {}
        self.regions = {}
        self.all_operand_types = None
        self.all_result_types = None
        self.start = start


def _finish(cls, p, st, ctx, same_all, same_ops, matches):
    """Resolve operand types and result types, then fill the state."""
    types = ctx.types
    odefs = cls._operand_defs
    rdefs = cls._result_defs
    # Operands
    refs_all = []
    seg = []
    if "operands" in ctx.operands:
        refs_all = ctx.operands["operands"]
    else:
        for d in odefs:
            r = ctx.operands.get(d.name, [])
            refs_all.extend(r)
            seg.append(len(r))
    if ctx.all_operand_types is not None:
        op_types = ctx.all_operand_types
    else:
        known = None
        if same_all or same_ops:
            for d in (odefs + rdefs if same_all else odefs):
                ts = types.get(d.name)
                if ts:
                    known = ts[0]
                    break
        op_types = []
        for d in odefs:
            n = len(ctx.operands.get(d.name, ()))
            ts = types.get(d.name)
            if ts is None and n == 0:
                continue  # nothing written, nothing to type (e.g. `return` alone)
            if ts is None:
                t = known
                if t is None:
                    for group in matches:
                        if d.name in group:
                            for other in group:
                                if types.get(other):
                                    t = types[other][0]
                                    break
                if t is None:
                    t = _infer_operand_type(cls, d, types, p)
                ts = t if isinstance(t, list) else [t] * n
            op_types.extend(ts)
    operands = p.resolve_operands(refs_all, op_types, ctx.start)
    st.operands = operands
    if AttrSizedOperandSegments_in(cls) and seg:
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, seg)
    # Results
    if ctx.all_result_types is not None:
        st.types = ctx.all_result_types
    elif rdefs:
        res = []
        missing = False
        for d in rdefs:
            ts = types.get(d.name)
            if ts is None:
                if same_all and operands:
                    ts = [operands[0].type]
                else:
                    t = None
                    for group in matches:
                        if d.name in group:
                            for other in group:
                                if types.get(other):
                                    t = types[other][0]
                                    break
                    if t is None:
                        missing = True
                        break
                    ts = [t]
            res.extend(ts)
        if missing:
            res = cls.infer_result_types(operands, st.properties)
        st.types = res
    # Regions in declared order
    if ctx.regions:
        from ..ir.core import Region
        n = max(ctx.regions) + 1
        st.regions = []
        for i in range(n):
            r = ctx.regions.get(i)
            if isinstance(r, list):  # a variadic region group
                st.regions.extend(r)
            else:
                st.regions.append(r if r is not None else Region())
    nregs = len(cls._region_defs)
    while len(st.regions) < nregs and cls._region_defs[-1].kind != VARIADIC:
        from ..ir.core import Region
        st.regions.append(Region())


def AttrSizedOperandSegments_in(cls):
    return T.AttrSizedOperandSegments in cls.traits


def _infer_operand_type(cls, d, types, p):
    fn = getattr(cls, "infer_operand_type", None)
    if fn is not None:
        t = fn(d.name, types)
        if t is not None:
            return t
    p.error(f"could not infer the type of operand '{d.name}' of '{cls.name}'")


# ---------------------------------------------------------------- installation

def _format_prop_names(elems):
    names = set()
    for e in elems:
        if e.kind == _PROP:
            names.add(e.value.name)
        elif e.kind == _OPTIONAL:
            names |= _format_prop_names(e.children)
        elif e.kind == _CUSTOM:
            for a in e.arg:
                a = a[1] if isinstance(a, tuple) else a
                if isinstance(a, Prop):
                    names.add(a.name)
    return names


def compile_format(cls):
    """Build `parse(parser, state)` and `print(self, printer)` for `cls.assembly`."""
    elems = _FormatParser(cls, cls.assembly).parse_all()
    same_all = T.SameOperandsAndResultType in cls.traits
    same_ops = T.SameTypeOperands in cls.traits
    matches = [set(t.names) for t in cls.traits if isinstance(t, T.AllTypesMatch)]

    def parse(p, st):
        ctx = _Ctx(p.tok_start)
        _parse_elems(elems, p, st, ctx)
        _finish(cls, p, st, ctx, same_all, same_ops, matches)

    uniform = _is_uniform_binary(cls, elems)
    cls._uniform_binary = uniform
    defaults = tuple((d.name, d.default) for d in cls._prop_defs)
    # Upstream's attr-dict leaves out every attribute the format names, even one printed
    # after it (`attr-dict $value` of func.constant).
    format_props = frozenset(_format_prop_names(elems))

    def print_(op, pr):
        out = pr.out
        if uniform and not op._attrs and (not op._props or _all_default(op._props, defaults)):
            # `%r = name %a, %b : t`: the most common op shape, printed directly.
            ops = op._operands
            names = pr.names
            t = op.results[0].type
            out.append(f"{pr.op_name(op)} {names[ops[0].value]}, {names[ops[1].value]} : "
                       f"{pr.texts.get(t) or t}")
            return
        out.append(pr.op_name(op))
        _print_elems(elems, op, pr, out, _PrintState(), set(format_props))

    return parse, print_


def _all_default(props, defaults):
    if not props:
        return True
    for name, default in defaults:
        v = props.get(name)
        if v is not None and v is not default:
            return False
    return len(props) <= len(defaults)


def _is_uniform_binary(cls, elems):
    """True for formats `$a `,` $b (optional groups on defaulted props)* attr-dict `:`
    type($x)` of ops with two operands and one result all of one type: such ops have a
    direct parse and print path (Parser._parse_op_run)."""
    if T.SameOperandsAndResultType not in cls.traits or len(cls._operand_defs) != 2 or \
            len(cls._result_defs) != 1 or cls._region_defs or cls._successor_defs:
        return False
    if not all(d.kind == SINGLE for d in cls._operand_defs + cls._result_defs):
        return False
    core = []
    for e in elems:
        if e.kind == _OPTIONAL:
            if e.anchor.kind != _PROP or e.anchor.value.default is None:
                return False
            continue
        core.append(e)
    if len(core) != 6:
        return False
    a, comma, b, attrs, colon, ty = core
    return (a.kind == _OPERAND and b.kind == _OPERAND and comma.kind == _LIT and
            comma.value == "," and attrs.kind == _ATTRDICT and not attrs.value and
            colon.kind == _LIT and colon.value == ":" and ty.kind == _TYPE and
            ty.value not in ("operands", "results") and a.value is not b.value)


# [Note: formats compiled when first used]
# Compiling the assembly formats of every op class at import took a fifth of importing
# Strata's dialects (546 formats, ~0.07 s of CPU per process), and a compile from ONNX
# or PyTorch never parses or prints most of them (often none). `install_format` gives
# the class stand-ins for `parse` and `print` that compile its format when one is first
# called and then put the compiled pair in their place. `uniform_binary(cls)` (the
# parser's fast path for `%r = name %a, %b : t` lines) compiles it too, so the fast path
# sees every class the eager compilation did. A format with an error is reported when
# the op is first parsed or printed (every registered op's format is compiled by
# tests/unit/test_asm_format_lazy.py, so a bad one still fails the tests).


def install_format(cls):
    """Give `cls` a custom form from its `assembly` (compiled on first use: see
    [Note: formats compiled when first used])."""
    def parse(p, st):
        return _compile_installed(cls)[0](p, st)

    def print_(op, pr):
        return _compile_installed(cls)[1](op, pr)
    parse._format_pending = print_._format_pending = True
    cls.parse = staticmethod(parse)
    cls.print = print_
    return cls


def format_pending(cls) -> bool:
    """Whether `cls`'s own assembly format is installed but not compiled yet."""
    f = cls.__dict__.get("print")
    return getattr(f, "_format_pending", False)


def _compile_installed(cls):
    parse, print_ = compile_format(cls)
    cls.parse = staticmethod(parse)
    cls.print = print_
    return parse, print_


def uniform_binary(cls) -> bool:
    """Whether `cls`'s format is the uniform binary one (asm_format._is_uniform_binary),
    compiling an installed format first."""
    if "_uniform_binary" not in cls.__dict__:
        if not format_pending(cls):
            return False
        _compile_installed(cls)
    return cls.__dict__["_uniform_binary"]
