"""The tosa dialect: TOSA 1.0 (Tensor Operator Set Architecture) as upstream MLIR has it.

Whole-tensor ML operators with exact semantics: elementwise ops that broadcast size-1
dims of equal-rank operands, convolutions and pooling in NHWC, matmul, reductions that
keep the reduced dim as 1, data layout ops that take `!tosa.shape<N>` operands from
`tosa.const_shape`, control flow (`cond_if`, `while_loop`) and variables. Zero points are
operands (`tosa.const` scalars of rank 1). Custom forms and verifier messages are the
ones of the upstream MLIR that iree-opt bundles (see base.py's notes).

    %s = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
    %r = tosa.reshape %x, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>

Files: base.py (type, enums, constraints, op base), elementwise.py, tensor_ops.py
(conv, pool, matmul, reductions), data_ops.py (layout, gather/scatter, resize, consts),
control.py (cond_if, while_loop, variables, custom), folds.py (folders and
canonicalization patterns).
"""
from __future__ import annotations

from ...ir.context import Dialect
from . import control, data_ops, elementwise, folds, shape_ops, tensor_ops
from .base import ShapeType, finish_class, parse_attribute, parse_type

__all__ = ["TOSA", "ShapeType"]

_OPS = (elementwise.OPS + tensor_ops.OPS + data_ops.OPS + control.OPS
        + shape_ops.OPS)
for _c in _OPS:
    finish_class(_c)
folds.install(_OPS)


def _materialize_constant(builder, value, type, loc):
    """TosaDialect::materializeConstant: const_shape for shapes, const for tensors."""
    from ...ir.dense import DenseElementsAttr
    if not isinstance(value, DenseElementsAttr):
        return None
    cls = data_ops.ConstShapeOp if isinstance(type, ShapeType) else data_ops.ConstOp
    return builder.create(cls, values=value, output=type, loc=loc)


TOSA = Dialect("tosa", _OPS, parse_attribute=parse_attribute, parse_type=parse_type,
               materialize_constant=_materialize_constant)
