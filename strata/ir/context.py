"""Context and dialects: the registry of op kinds, attribute and type parsers.

A Context is explicit: it holds the dialects a tool or pass pipeline was given
(`strata.dialects.default_context()` registers every dialect Strata has) and whether
ops of unregistered dialects are accepted.
"""
from __future__ import annotations

__all__ = ["Dialect", "Context", "OP_ATTRIBUTE_VERIFIERS"]

# dialect name -> its verify_operation_attribute hook (see Dialect)
OP_ATTRIBUTE_VERIFIERS: dict = {}


class Dialect:
    """A dialect: a namespace of ops, and hooks for its attributes and types.

    `parse_attribute(parser, mnemonic)` / `parse_type(parser, mnemonic)` are called with
    the parser positioned right after `#dialect.mnemonic` / `!dialect.mnemonic` and return
    the parsed object. `materialize_constant(builder, value, type, loc)` makes a constant
    op for folding. `verify_operation_attribute(op, name, attr)` (upstream's
    verifyOperationAttribute) checks a discardable attribute `dialect.x` of any op and
    raises a DiagnosticError when it is not valid there; the verifier calls it.
    """

    def __init__(self, name: str, ops=(), parse_attribute=None, parse_type=None,
                 materialize_constant=None, canonical_patterns=None, lookup_op=None,
                 verify_operation_attribute=None):
        self.name = name
        if verify_operation_attribute is not None:
            OP_ATTRIBUTE_VERIFIERS[name] = verify_operation_attribute
        self.ops = {}
        for op in ops:
            self.add_op(op)
        # `lookup_op(name)`: the class of an op not in `ops`, made on first use (None
        # when there is no such op): a dialect with thousands of generated ops (torch)
        # makes only the classes a program uses.
        self.lookup_op = lookup_op
        self.parse_attribute = parse_attribute
        self.parse_type = parse_type
        self.materialize_constant = materialize_constant
        self.canonical_patterns = canonical_patterns

    def add_op(self, op_cls):
        if op_cls.name in self.ops:
            raise ValueError(f"op '{op_cls.name}' registered twice")
        if not op_cls.name.startswith(self.name + "."):
            raise ValueError(f"op '{op_cls.name}' does not belong to dialect '{self.name}'")
        self.ops[op_cls.name] = op_cls
        return op_cls

    def get_op(self, name: str):
        """The class of op `name` of this dialect, or None."""
        cls = self.ops.get(name)
        if cls is None and self.lookup_op is not None:
            cls = self.lookup_op(name)
        return cls

    def __repr__(self):
        return f"<Dialect {self.name}: {len(self.ops)} ops>"


class _OpTable(dict):
    """Context.ops: op name -> class, which asks the dialects that make their op classes
    on first use (Dialect.lookup_op) for a name it does not hold yet."""

    __slots__ = ("lazy",)

    def __init__(self):
        super().__init__()
        self.lazy = {}  # dialect name -> lookup_op

    def __missing__(self, name):
        look = self.lazy.get(name.partition(".")[0]) if self.lazy else None
        cls = look(name) if look is not None else None
        if cls is None:
            raise KeyError(name)
        self[name] = cls
        return cls

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name):
        return self.get(name) is not None


class Context:
    __slots__ = ("dialects", "ops", "allow_unregistered")

    def __init__(self, dialects=(), allow_unregistered: bool = False):
        self.dialects: dict[str, Dialect] = {}
        self.ops: dict[str, type] = _OpTable()
        self.allow_unregistered = allow_unregistered
        for d in dialects:
            self.register_dialect(d)

    def register_dialect(self, dialect: Dialect) -> None:
        if dialect.name in self.dialects:
            if self.dialects[dialect.name] is dialect:
                return
            raise ValueError(f"dialect '{dialect.name}' registered twice")
        self.dialects[dialect.name] = dialect
        self.ops.update(dialect.ops)
        if dialect.lookup_op is not None:
            self.ops.lazy[dialect.name] = dialect.lookup_op

    def get_op(self, name: str):
        return self.ops.get(name)

    def get_dialect(self, name: str) -> Dialect | None:
        return self.dialects.get(name)
