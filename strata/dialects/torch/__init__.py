"""The torch and torch_c dialects: torch-mlir's dialect for PyTorch programs.

    %int1 = torch.constant.int 1
    %0 = torch.aten.add.Tensor %arg0, %arg0, %int1 : !torch.vtensor<[2,?],f32>,
             !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f32>
    %1 = torch_c.to_builtin_tensor %0 : !torch.vtensor<[2,?],f32> -> tensor<2x?xf32>

Every operator schema of the installed torch's `aten`, `prims` and `prim` namespaces is
an op (`torch.aten.<name>[.<overload>]`, verified against its schema; ops.py, table.py,
the generated schemas.py), beside torch-mlir's hand-written ops (constants, lists,
tuples, tensor literals, symbolic shapes, `torch.operator`) and the `torch_c`
conversions (torch_c.py). Types are in types.py. Nothing here imports torch: the schema
table is generated ahead of time by tools/gen_torch_dialect.py.

Helpers: `torch_op_class(name)`, `schema_of(op)`, the types and dtype maps of types.py.
"""
from __future__ import annotations

from ...ir.context import Dialect
from . import table
from .ops import (TORCH_OPS, TorchOp, apfloat_to_string, float_name_hint,
                  generated_op_class, materialize_constant, schema_constraint)
from .torch_c import TORCH_C_OPS
from .types import (DTYPES, UNKNOWN, AnyType, BaseTensorType, BoolType, DeviceType,
                    DictType, FloatType, GeneratorType, IntType, LinearParamsType,
                    ListType, NnModuleType, NonValueTensorType, NoneType, NumberType,
                    OptionalType, QuantizedType, StringType, TorchType, TupleType,
                    UnionType, ValueTensorType, builtin_element_type, builtin_tensor_type,
                    dtype_of_scalar_type, dtype_of_torch_name, is_valid_dtype, parse_type,
                    scalar_type_number, torch_dtype, vtensor_of_builtin)

__all__ = ["TORCH", "TORCH_C", "TorchOp", "torch_op_class", "schema_of", "table",
           "schema_constraint", "float_name_hint", "apfloat_to_string",
           "TorchType", "BaseTensorType", "ValueTensorType", "NonValueTensorType",
           "IntType", "FloatType", "BoolType", "StringType", "NoneType", "NumberType",
           "DeviceType", "GeneratorType", "AnyType", "LinearParamsType", "QuantizedType",
           "ListType", "OptionalType", "TupleType", "UnionType", "DictType",
           "NnModuleType", "UNKNOWN", "DTYPES", "is_valid_dtype", "builtin_element_type",
           "torch_dtype", "builtin_tensor_type", "vtensor_of_builtin",
           "scalar_type_number", "dtype_of_scalar_type", "dtype_of_torch_name"]

_HAND_WRITTEN = {c.name: c for c in TORCH_OPS}


def torch_op_class(name: str):
    """The op class of a torch dialect op name (None when there is none); the classes
    of generated ops are made on first use."""
    return _HAND_WRITTEN.get(name) or generated_op_class(name)


def schema_of(op):
    """The PyTorch schema of a generated op (None for hand-written ops)."""
    return table.lookup(op.name) if isinstance(op, TorchOp) else None


TORCH = Dialect("torch", TORCH_OPS, parse_type=parse_type, lookup_op=generated_op_class,
                materialize_constant=materialize_constant)
TORCH_C = Dialect("torch_c", TORCH_C_OPS)
