"""PyTorch operator schemas as objects, read from the generated table (schemas.py).

    lookup("torch.aten.add.Tensor")
      -> <Schema aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor>

`op_names()` lists the op name of every schema; `lookup(name)` parses the schema text
(PyTorch's own schema syntax) the first time an op's schema is asked for;
`in_torch_mlir(name)` says whether torch-mlir defines the op too (its FX importer writes
the others as `torch.operator "torch.aten.<name>"`, and an importer that must match it
does the same).

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


__all__ = ["Schema", "Arg", "SType", "lookup", "op_names", "has_op", "in_torch_mlir",
           "op_name", "parse_schema", "parse_type_expr"]


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
    def is_read_only(self) -> bool:
        """No argument or return is written (torch-mlir's ReadOnly trait)."""
        return not any(a.is_mutable for a in self.arguments + self.returns)

    @property
    def has_value_semantics(self) -> bool:
        """Read-only and without any alias annotation, so results never alias operands
        (torch-mlir's HasValueSemantics; `is` / `isnot` compare identities)."""
        return (self.is_read_only and
                not any(a.alias is not None for a in self.arguments + self.returns) and
                not (self.ns == "aten" and self.name in ("__is__", "__isnot__")) and
                not (self.ns == "prim" and self.name == "unchecked_cast"))

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


def _type_list(r):
    """`A, B)` after an opening parenthesis: the types (alias annotations dropped)."""
    items = []
    if not r.eat(")"):
        while True:
            items.append(parse_type_expr(r)[0])
            if r.eat(")"):
                break
            r.expect(",")
    return items


def parse_type_expr(r):
    """A type expression and its alias annotation: (SType, alias or None)."""
    r.ws()
    if r.eat("("):  # a tuple
        t = SType("Tuple", _type_list(r))
        alias = None
    else:
        name = r.ident()
        alias = None
        params = ()
        if name in ("Dict", "Future", "Await", "RRef", "Union") and r.peek("("):
            r.expect("(")
            params = _type_list(r)
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


def _parse_return(r):
    """One return: a type, its alias annotation and an optional name."""
    t, alias = parse_type_expr(r)
    name = ""
    r.ws()
    if r.i < len(r.s) and (r.s[r.i].isalpha() or r.s[r.i] == "_"):
        name = r.ident()
    return Arg(name, t, None, False, alias)


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
    if not r.peek("("):
        rets.append(_parse_return(r))
    elif r.expect("(") or not r.eat(")"):
        while True:
            rets.append(_parse_return(r))
            if r.eat(")"):
                break
            r.expect(",")
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


_UPSTREAM: set = set()


def in_torch_mlir(name: str) -> bool:
    """Whether torch-mlir itself defines the generated op `name` (`torch.aten.relu`),
    as recorded by the generator from iree-base-compiler's registry: torch-mlir's FX
    importer writes the other operators as `torch.operator "<name>"`."""
    if not _UPSTREAM:
        from .schemas import TORCH_MLIR_OPS
        _UPSTREAM.update("torch." + n for n in TORCH_MLIR_OPS.split())
    return name in _UPSTREAM


def lookup(name: str) -> Schema | None:
    """The schema of a torch dialect op name (None when the table has no such op)."""
    e = (_INDEX or _index()).get(name)
    if e is None:
        return None
    s = e[1]
    if type(s) is str:
        s = e[1] = Schema(e[0], s)
    return s
