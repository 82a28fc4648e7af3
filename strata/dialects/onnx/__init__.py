"""The onnx dialect: every ONNX operator as an op, checked against its schema.

    %0 = "onnx.Conv"(%x, %w, %none_b) <{pads = [1, 1, 1, 1]}>
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>

Every op of domains ai.onnx (""), ai.onnx.ml, ai.onnx.preview.training and
ai.onnx.preview of the onnx release the table was generated from (schemas.py, made by
tools/gen_onnx_dialect.py) is `onnx.<OpType>`; operands are the node's inputs (an
omitted optional input in the middle is `onnx.NoValue`'s `none`), results its outputs,
ONNX attributes are properties (INT -> i64 IntegerAttr, FLOAT -> f32 FloatAttr, ...,
TENSOR -> dense elements), GRAPH attributes are regions ending in `onnx.Yield`. Ops print
in the generic form. The opset version in force is the enclosing module's
`onnx.opset_import` (`opset_version(op)`); the verifier checks each op against the
schema of that version (see ops.py). Types: `!onnx.String`, `!onnx.Seq<T>`,
`!onnx.Opt<T>`, `!onnx.Map<K, V>` (types.py).

Helpers for the importer, passes and lowerings: `attr(op, name)`, `schema_of(op)`,
`opset_version(op)`, `onnx_op_class(op_type, domain)`, `ONNX_TO_MLIR_ELEMENT`,
`mlir_element_to_onnx`, `numpy_dtype_of`.
"""
from __future__ import annotations

from ...ir.context import Dialect
from . import table
from .ops import (NoValueOp, OnnxOp, YieldOp, attr, attribute_from_python, domain_key,
                  make_op_classes, opset_version, python_value, schema_of)
from .types import (ONNX_ELEMENT_NAMES, ONNX_TO_MLIR_ELEMENT, MapType, OptType, SeqType,
                    StringType, element_type_of_name, elements_from_numpy,
                    elements_to_numpy, mlir_element_to_onnx, numpy_dtype_of,
                    numpy_element_type, onnx_type_string, parse_type)

__all__ = ["ONNX", "OnnxOp", "NoValueOp", "YieldOp", "attr", "schema_of", "opset_version",
           "onnx_op_class", "ONNX_TO_MLIR_ELEMENT", "ONNX_ELEMENT_NAMES",
           "mlir_element_to_onnx", "numpy_dtype_of", "numpy_element_type",
           "element_type_of_name", "onnx_type_string", "elements_to_numpy",
           "elements_from_numpy", "attribute_from_python", "python_value", "domain_key",
           "StringType", "SeqType", "OptType", "MapType", "table"]

_CLASSES = make_op_classes()


def onnx_op_class(op_type: str, domain: str = ""):
    """The op class of an ONNX operator (None when the table has no such operator)."""
    return _CLASSES.get((table.canonical_domain(domain), op_type))


ONNX = Dialect("onnx", [NoValueOp, YieldOp, *_CLASSES.values()], parse_type=parse_type)
