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
                 materialize_constant=None, canonical_patterns=None,
                 verify_operation_attribute=None):
        self.name = name
        if verify_operation_attribute is not None:
            OP_ATTRIBUTE_VERIFIERS[name] = verify_operation_attribute
        self.ops = {}
        for op in ops:
            self.add_op(op)
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

    def __repr__(self):
        return f"<Dialect {self.name}: {len(self.ops)} ops>"


class Context:
    __slots__ = ("dialects", "ops", "allow_unregistered")

    def __init__(self, dialects=(), allow_unregistered: bool = False):
        self.dialects: dict[str, Dialect] = {}
        self.ops: dict[str, type] = {}
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

    def get_op(self, name: str):
        return self.ops.get(name)

    def get_dialect(self, name: str) -> Dialect | None:
        return self.dialects.get(name)
