"""PyTorch operator schemas as objects, read from the generated table (schemas.py).

    lookup("torch.aten.add.Tensor")
      -> <Schema aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor>

`op_names()` lists the op name of every schema; `lookup(name)` parses the schema text
(PyTorch's own schema syntax) the first time an op's schema is asked for.

[Note: op names]
An operator `ns::name.overload` is the op `torch.ns.name.overload`, and
`torch.ns.name` for the default overload (empty overload name), as torch-mlir names its
generated ops: `torch.aten.add.Tensor`, `torch.aten.add_.Tensor` (in place),
`torch.aten.relu`, `torch.prims.convert_element_type`, `torch.prim.NumToTensor.Scalar`.
PyTorch's Python API calls the default overload `.default`; `op_name(ns, name, ovl)`
drops it.

[Note: schema types]
Each argument and return has a type expression of PyTorch's schema language, parsed into
a `SType`: a base name ("Tensor", "int", "SymInt", "Scalar", "ScalarType", "t"...) or a
compound ("Optional", "List", "Tuple", "Dict", "Future"...) with its parameters; alias
annotations (`Tensor(a!)`) are kept as `alias` on the argument. The verifier turns an
SType into the torch types it accepts (ops.py, as torch-mlir's ODS generator does).
"""
from __future__ import annotations


__all__ = ["Schema", "Arg", "SType", "lookup", "op_names", "has_op", "op_name",
           "parse_schema", "parse_type_expr"]


def op_name(ns: str, name: str, overload: str) -> str:
    """The torch dialect op of `ns::name.overload` (see [Note: op names])."""
    if overload in ("", "default"):
        return f"torch.{ns}.{name}"
    return f"torch.{ns}.{name}.{overload}"


class SType:
    """A type expression of the schema language: `name` and `params` (STypes, or the
    fixed size of a list as an int in `size`)."""

    __slots__ = ("name", "params", "size", "_text")

    def __init__(self, name, params=(), size=None):
        self.name = name
        self.params = tuple(params)
        self.size = size
        self._text = None

    def __str__(self):
        if self._text is None:
            n, p = self.name, self.params
            if n == "Optional":
                s = f"{p[0]}?"
            elif n == "List":
                s = f"{p[0]}[{'' if self.size is None else self.size}]"
            elif n == "Tuple":
                s = "(" + ", ".join(map(str, p)) + ")"
            elif p:
                s = f"{n}({', '.join(map(str, p))})"
            else:
                s = n
            self._text = s
        return self._text

    __repr__ = __str__


class Arg:
    """An argument or return: `name` ('' for an unnamed return), `type` (SType),
    `default` (the text after `=`, or None), `kwarg_only`, `alias` (the alias set
    annotation such as "a!", or None) and `is_out` (a keyword-only mutated argument)."""

    __slots__ = ("name", "type", "default", "kwarg_only", "alias")

    def __init__(self, name, type, default=None, kwarg_only=False, alias=None):
        self.name = name
        self.type = type
        self.default = default
        self.kwarg_only = kwarg_only
        self.alias = alias

    @property
    def is_mutable(self) -> bool:
        return self.alias is not None and "!" in self.alias

    @property
    def is_out(self) -> bool:
        return self.kwarg_only and self.is_mutable

    def __repr__(self):
        d = "" if self.default is None else f"={self.default}"
        return f"<Arg {self.type} {self.name}{d}>"


class Schema:
    """One operator overload: `ns`, `name`, `overload`, `arguments`, `returns`, `text`
    (PyTorch's schema text), `op_name` (the torch dialect's op name)."""

    __slots__ = ("ns", "name", "overload", "arguments", "returns", "text", "op_name",
                 "plan")

    def __init__(self, ns, text):
        self.ns = ns
        self.text = text
        (self.name, self.overload, self.arguments,
         self.returns) = parse_schema(text)
        self.op_name = op_name(ns, self.name, self.overload)
        self.plan = None  # the verifier's cache

    @property
    def is_inplace(self) -> bool:
        """`add_`: the op mutates its first argument (PyTorch's naming convention)."""
        return self.name.endswith("_") and not self.name.endswith("__")

    @property
    def result_names(self):
        """The names of the results as torch-mlir's ODS names them: the schema's return
        names, else `result` (one return) or `result0`, `result1`..."""
        rs = self.returns
        if len(rs) == 1:
            return (rs[0].name or "result",)
        return tuple(r.name or f"result{i}" for i, r in enumerate(rs))

    def __repr__(self):
        return f"<Schema {self.ns}::{self.text}>"


# ---------------------------------------------------------------- the schema language

class _Reader:
    __slots__ = ("s", "i")

    def __init__(self, s):
        self.s = s
        self.i = 0

    def ws(self):
        s, i = self.s, self.i
        while i < len(s) and s[i] == " ":
            i += 1
        self.i = i

    def peek(self, t):
        self.ws()
        return self.s.startswith(t, self.i)

    def eat(self, t):
        if self.peek(t):
            self.i += len(t)
            return True
        return False

    def expect(self, t):
        if not self.eat(t):
            raise ValueError(f"expected '{t}' at {self.i} in {self.s!r}")

    def ident(self):
        self.ws()
        s, i = self.s, self.i
        j = i
        while j < len(s) and (s[j].isalnum() or s[j] in "_."):
            j += 1
        if j == i:
            raise ValueError(f"expected a name at {i} in {s!r}")
        self.i = j
        return s[i:j]

    def until_arg_end(self):
        """A default value: up to the `,` or `)` that ends the argument."""
        self.ws()
        s, i = self.s, self.i
        depth, j, quote = 0, i, None
        while j < len(s):
            c = s[j]
            if quote:
                if c == "\\":
                    j += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            elif c in "([":
                depth += 1
            elif c in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            j += 1
        self.i = j
        return s[i:j].strip()


def parse_type_expr(r):
    """A type expression and its alias annotation: (SType, alias or None)."""
    r.ws()
    if r.eat("("):  # a tuple
        items = []
        if not r.eat(")"):
            while True:
                t, _ = parse_type_expr(r)
                items.append(t)
                if r.eat(")"):
                    break
                r.expect(",")
        t = SType("Tuple", items)
        alias = None
    else:
        name = r.ident()
        alias = None
        params = ()
        if name in ("Dict", "Future", "Await", "RRef", "Union") and r.peek("("):
            r.expect("(")
            ps = []
            while True:
                p, _ = parse_type_expr(r)
                ps.append(p)
                if r.eat(")"):
                    break
                r.expect(",")
            params = ps
        if r.peek("("):  # alias annotation: Tensor(a), Tensor(a!), Tensor(a -> *)
            r.expect("(")
            j = r.s.index(")", r.i)
            alias = r.s[r.i:j].strip()
            r.i = j + 1
        t = SType(name, params)
    while True:
        if r.eat("?"):
            t = SType("Optional", (t,))
        elif r.peek("["):
            r.expect("[")
            r.ws()
            j = r.s.index("]", r.i)
            size = r.s[r.i:j].strip()
            r.i = j + 1
            t = SType("List", (t,), int(size) if size else None)
            if r.peek("("):  # Tensor(a)[] written Tensor[](a!) for lists
                r.expect("(")
                j = r.s.index(")", r.i)
                alias = r.s[r.i:j].strip()
                r.i = j + 1
        else:
            break
    return t, alias


def parse_schema(text):
    """(name, overload, arguments, returns) of a schema text without its namespace."""
    r = _Reader(text)
    full = r.ident()
    name, _, overload = full.partition(".")
    r.expect("(")
    args = []
    kw = False
    if not r.eat(")"):
        while True:
            if r.eat("*"):
                kw = True
            else:
                t, alias = parse_type_expr(r)
                aname = r.ident()
                default = r.until_arg_end() if r.eat("=") else None
                args.append(Arg(aname, t, default, kw, alias))
            if r.eat(")"):
                break
            r.expect(",")
    r.expect("->")
    rets = []
    r.ws()
    if r.peek("("):
        r.expect("(")
        if not r.eat(")"):
            while True:
                t, alias = parse_type_expr(r)
                rname = ""
                r.ws()
                if r.i < len(r.s) and (r.s[r.i].isalpha() or r.s[r.i] == "_"):
                    rname = r.ident()
                rets.append(Arg(rname, t, None, False, alias))
                if r.eat(")"):
                    break
                r.expect(",")
    else:
        t, alias = parse_type_expr(r)
        rname = ""
        r.ws()
        if r.i < len(r.s) and (r.s[r.i].isalpha() or r.s[r.i] == "_"):
            rname = r.ident()
        rets.append(Arg(rname, t, None, False, alias))
    return name, overload, tuple(args), tuple(rets)


# ---------------------------------------------------------------- the index

# op name -> [namespace, text or Schema]
_INDEX: dict = {}


def _head(text):
    i = text.index("(")
    name, _, overload = text[:i].partition(".")
    return name, overload


def _index():
    """The index, built on first use (the dialect loads without reading the table)."""
    if not _INDEX:
        from .schemas import SCHEMAS
        for ns, texts in SCHEMAS.items():
            for text in texts:
                name, overload = _head(text)
                _INDEX.setdefault(op_name(ns, name, overload), [ns, text])
    return _INDEX


def op_names():
    """The op name of every schema of the table, in table order."""
    return _index().keys()


def has_op(name: str) -> bool:
    return name in _index()


def lookup(name: str) -> Schema | None:
    """The schema of a torch dialect op name (None when the table has no such op)."""
    e = (_INDEX or _index()).get(name)
    if e is None:
        return None
    s = e[1]
    if type(s) is str:
        s = e[1] = Schema(e[0], s)
    return s
