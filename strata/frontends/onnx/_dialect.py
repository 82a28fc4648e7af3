"""What the frontend takes from the onnx dialect (strata/dialects/onnx), in one place."""
from __future__ import annotations

from ...dialects import onnx as _onnx
from ...dialects.onnx import MapType, OptType, SeqType, StringType, domain_key, table
from ...ir.core import Operation

__all__ = ["op_name", "create_op", "lookup_schema", "schema_versions",
           "domain_key", "domain_of_key", "StringType", "SeqType", "OptType", "MapType"]

lookup_schema = table.lookup
schema_versions = table.versions
# The ONNX domain of an `onnx.opset_import` key ("ai.onnx" -> "").
domain_of_key = table.canonical_domain


def op_name(op_type: str, domain: str) -> str:
    """The op name of an ONNX operator (`onnx.Add`, `onnx.ml.X`...)."""
    return _onnx.onnx_op_class(op_type, domain).name


def create_op(name: str, operands=(), result_types=(), properties=None, regions=(),
              loc=None) -> Operation:
    """A detached op of the onnx dialect."""
    cls = _onnx.ONNX.ops[name]
    return cls.create(operands, result_types, properties, None, (), list(regions), loc)
