"""What the frontend takes from the torch dialect (strata/dialects/torch), in one place:
types, and ops by their name."""
from __future__ import annotations

from ...dialects.torch import ValueTensorType, torch_op_class
from .upstream_ops import UPSTREAM_OPS

__all__ = ["context", "type_of", "vtensor", "create_op", "known_op", "UPSTREAM_OPS"]

_CTX = None
_TYPES: dict = {}


def context():
    """The context the importer builds in: the dialects an imported module holds (not
    every dialect Strata has: loading the onnx one alone takes most of a second)."""
    global _CTX
    if _CTX is None:
        from ...dialects.builtin import BUILTIN
        from ...dialects.func import FUNC
        from ...dialects.torch import TORCH, TORCH_C
        from ...ir.context import Context
        _CTX = Context([BUILTIN, FUNC, TORCH, TORCH_C])
    return _CTX


def type_of(text: str):
    """The type spelled `text` (`!torch.int`, `!torch.list<optional<vtensor>>`), parsed
    once."""
    t = _TYPES.get(text)
    if t is None:
        from ...syntax.attr_parser import AttrParser
        t = _TYPES[text] = AttrParser(text, context()).parse_type()
    return t


def vtensor(sizes, dtype):
    """`!torch.vtensor<[sizes],dtype>` (-1 for a `?` size)."""
    return ValueTensorType(sizes, dtype)


def known_op(name: str) -> bool:
    """Whether the torch dialect defines op `name` (`torch.aten.add.Tensor`)."""
    return torch_op_class(name) is not None


def create_op(name: str, operands=(), result_types=(), properties=None, loc=None):
    """A detached op `name` of the torch or torch_c dialect."""
    cls = context().get_op(name)
    if cls is None:
        raise KeyError(f"no op '{name}' in the torch dialects")
    return cls.create(operands, result_types, properties, None, (), 0, loc)
