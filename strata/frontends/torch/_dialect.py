"""What the frontend takes from the torch dialect (strata/dialects/torch), in one place:
types by their text, ops by their name."""
from __future__ import annotations

from ...ir.core import Operation
from .upstream_ops import UPSTREAM_OPS

__all__ = ["context", "type_of", "create_op", "known_op", "UPSTREAM_OPS"]

_CTX = None
_TYPES: dict = {}


def context():
    """The context the importer builds in: every dialect Strata has."""
    global _CTX
    if _CTX is None:
        from ...dialects import default_context
        _CTX = default_context(allow_unregistered="torch" not in
                               {d.name for d in _all_dialects()})
    return _CTX


def _all_dialects():
    from ...dialects import all_dialects
    return all_dialects()


def type_of(text: str):
    """The type spelled `text` (`!torch.vtensor<[2,?],f32>`, `si64`), parsed once."""
    t = _TYPES.get(text)
    if t is None:
        from ...syntax.attr_parser import AttrParser
        t = _TYPES[text] = AttrParser(text, context()).parse_type()
    return t


def known_op(name: str) -> bool:
    """Whether the torch dialect defines op `name` (`torch.aten.add.Tensor`)."""
    ctx = context()
    return ctx.get_op(name) is not None or ctx.get_dialect("torch") is None


def create_op(name: str, operands=(), result_types=(), properties=None, loc=None):
    """A detached op `name` (the dialect's class when it has one)."""
    cls = context().get_op(name)
    if cls is None:
        return Operation.create(operands, result_types, properties, loc=loc, name=name)
    return cls.create(operands, result_types, properties, None, (), 0, loc)
