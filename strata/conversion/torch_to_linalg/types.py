"""The torch dialect's types as the lowering reads them (the dialect's types module owns
the maps; this reads them in the builtin forms the lowerings work with).

    !torch.vtensor<[2,?],si64>  -> tensor<2x?xi64>   converted_type (signless)
                                -> tensor<2x?xsi64>  signed_tensor_type (what
                                                     is_unsigned and promotion read)
    !torch.vtensor<[4],complex<f32>> -> tensor<4x2xf32> converted_type (the real
                                                     pairs: [Note: complex as real
                                                     pairs] in complex.py)
    !torch.int / float / bool   -> i64 / f64 / i1    torch_scalar_type
"""
from __future__ import annotations

from ...ir import attributes as A

__all__ = ["converted_type", "signed_tensor_type", "torch_scalar_type"]


def _shape(sizes):
    return tuple(A.DYNAMIC if s < 0 else s for s in sizes)


def converted_type(t):
    """The backend type of torch type `t` ([Note: torch types]): a value tensor's
    builtin tensor with signless elements, a scalar's builtin type; None for a tensor
    whose rank or dtype is unknown; `t` itself for the other types."""
    from ...dialects.torch import types as T
    if type(t) is T.ValueTensorType:
        if t.sizes is None:
            return None
        if type(t.dtype) is A.ComplexType:   # [Note: complex as real pairs]
            return A.RankedTensorType(_shape(t.sizes) + (2,), t.dtype.element_type)
        return T.builtin_tensor_type(t)
    s = torch_scalar_type(t)
    return t if s is None else s


def signed_tensor_type(t):
    """A value tensor type as a builtin tensor type keeping the torch dtype (`si64`,
    `ui8`), a scalar type as its builtin type, others as they are."""
    from ...dialects.torch import types as T
    if type(t) is T.ValueTensorType and t.sizes is not None and t.dtype is not None:
        return A.RankedTensorType(_shape(t.sizes), t.dtype)
    s = torch_scalar_type(t)
    return t if s is None else s


def torch_scalar_type(t):
    """The builtin type of a torch scalar type (`!torch.int` -> i64, `!torch.float` ->
    f64, `!torch.bool` -> i1), else None."""
    from ...dialects.torch import types as T
    k = type(t)
    if k is T.IntType:
        return A.i64
    if k is T.FloatType:
        return A.f64
    if k is T.BoolType:
        return A.i1
    return None
