"""ONNX TypeProtos <-> Strata types.

Element types map as the onnx dialect's `ONNX_TO_MLIR_ELEMENT` says (float -> f32,
int8 -> i8, uint8 -> ui8, bool -> i1, string -> !onnx.String...); an unknown rank is
`tensor<*xT>`, an unknown or symbolic dim `?` (the importer keeps the symbols' names in
`onnx.dim_params`). Sequences, optionals and maps are `!onnx.Seq<T>`, `!onnx.Opt<T>` and
`!onnx.Map<K, V>`.
"""
from __future__ import annotations

from ...dialects.onnx import (ONNX_TO_MLIR_ELEMENT, MapType, OptType, SeqType,
                              mlir_element_to_onnx)
from ...ir import attributes as A

__all__ = ["UnknownType", "element_type", "convert_type", "dim_params", "to_type_proto",
           "element_size"]


class UnknownType(ValueError):
    """A type the importer cannot represent (no element type, an unknown kind)."""


def element_type(code: int):
    """The Strata element type of a TensorProto.DataType value."""
    t = ONNX_TO_MLIR_ELEMENT.get(code)
    if t is None:
        raise UnknownType(f"unknown tensor element type {code}")
    return t


def element_size(code: int) -> int:
    """Bytes per element of a TensorProto.DataType in MLIR's raw layout."""
    t = element_type(code)
    if isinstance(t, A.ComplexType):
        return 2 * t.element_type.width // 8
    return (getattr(t, "width", 8) + 7) // 8


def _tensor(tt):
    if tt.elem_type == 0:
        raise UnknownType("tensor type without an element type")
    et = element_type(tt.elem_type)
    if not tt.HasField("shape"):
        return A.UnrankedTensorType(et)
    shape = []
    for d in tt.shape.dim:
        if d.WhichOneof("value") == "dim_value":
            if d.dim_value < 0:
                raise UnknownType(f"negative dimension {d.dim_value}")
            shape.append(d.dim_value)
        else:
            shape.append(A.DYNAMIC)
    return A.RankedTensorType(shape, et)


def convert_type(tp):
    """The Strata type of an ONNX TypeProto; raises UnknownType when it has none."""
    which = tp.WhichOneof("value")
    if which == "tensor_type":
        return _tensor(tp.tensor_type)
    if which == "sparse_tensor_type":
        return _tensor(tp.sparse_tensor_type)
    if which == "sequence_type":
        if not tp.sequence_type.HasField("elem_type"):
            raise UnknownType("sequence type without an element type")
        return SeqType(convert_type(tp.sequence_type.elem_type))
    if which == "optional_type":
        if not tp.optional_type.HasField("elem_type"):
            raise UnknownType("optional type without an element type")
        return OptType(convert_type(tp.optional_type.elem_type))
    if which == "map_type":
        mt = tp.map_type
        return MapType(element_type(mt.key_type), convert_type(mt.value_type))
    raise UnknownType("type without a kind" if which is None else f"unsupported type {which}")


def dim_params(tp) -> list[str] | None:
    """The dim_param of each dim of a tensor TypeProto ("" where none), or None when
    the type has no shape or no symbolic dim."""
    if tp.WhichOneof("value") != "tensor_type" or not tp.tensor_type.HasField("shape"):
        return None
    params = [d.dim_param for d in tp.tensor_type.shape.dim]
    return params if any(params) else None


def _elem_code(t) -> int:
    code = mlir_element_to_onnx(t)
    if code is None:
        raise UnknownType(f"no ONNX element type for {t}")
    return code


def to_type_proto(t):
    """The TypeProto of a Strata type (static dims as dim_value, `?` as an unknown dim)."""
    import onnx
    tp = onnx.TypeProto()
    if isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        tp.tensor_type.elem_type = _elem_code(t.element_type)
        if isinstance(t, A.RankedTensorType):
            shape = tp.tensor_type.shape
            shape.SetInParent()
            for d in t.shape:
                dim = shape.dim.add()
                if d != A.DYNAMIC:
                    dim.dim_value = d
    elif isinstance(t, SeqType):
        tp.sequence_type.elem_type.CopyFrom(to_type_proto(t.element_type))
    elif isinstance(t, OptType):
        tp.optional_type.elem_type.CopyFrom(to_type_proto(t.element_type))
    elif isinstance(t, MapType):
        tp.map_type.key_type = _elem_code(t.key_type)
        tp.map_type.value_type.CopyFrom(to_type_proto(t.value_type))
    else:
        raise UnknownType(f"no ONNX type for {t}")
    return tp
