"""The ONNX frontend: ONNX models -> the onnx dialect (plus ml_program globals).

    from strata.frontends.onnx import import_model
    module = import_model("model.onnx")          # or bytes, or an onnx.ModelProto

`onnx-decompose` (strata/frontends/onnx/decompose.py) expands ops that ONNX defines by a
function into the ops of that function. onnx itself is imported only when a model is.
"""
from __future__ import annotations

from .errors import OnnxImportError


def import_model(model, *, expand_functions: bool = False, inline_constants: bool = False,
                 base_dir=None):
    """See strata.frontends.onnx.importer.import_model."""
    from .importer import import_model as _import
    return _import(model, expand_functions=expand_functions,
                   inline_constants=inline_constants, base_dir=base_dir)


__all__ = ["import_model", "OnnxImportError"]
