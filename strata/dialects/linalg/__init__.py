"""The linalg dialect: structured ops on tensors and buffers (upstream MLIR's `linalg`).

    attrs.py        #linalg.iterator_type / type_fn / unary_fn / binary_fn / elementwise_kind
    structured.py   the structured-op interface, its verifier, ins/outs syntax, payloads
    generic.py      linalg.generic, linalg.yield, linalg.index, make_generic
    named_base.py   named ops with implicit payloads (parse builds the region)
    named.py        OpDSL ops: fill, copy, matvec, dot, convolutions, poolings, ...
    contraction.py  matmul, batch_matmul, batch_reduce_matmul, contract
    ops.py          map, reduce, transpose, broadcast, elementwise, softmax
    relayout.py     pack, unpack
    winograd.py     winograd_filter/input/output_transform (syntax and verifiers)
    canonical.py    canonicalization patterns (upstream's, by name)

Every structured op is a `StructuredOp` (inputs, outputs, indexing_maps_list(),
iterator_types_list(), num_loops, body, static_loop_ranges()); see structured.py.
"""
from __future__ import annotations

from ...ir.context import Dialect
from . import attrs
from .contraction import (BatchMatmulOp, BatchReduceMatmulOp, CONTRACTION_OPS, ContractOp,
                          MatmulOp)
from .generic import GenericOp, IndexOp, YieldOp, make_generic
from .named import NAMED_OPS, CopyOp, FillOp, named_op_class
from .named_base import NamedStructuredOp
from .ops import (BroadcastOp, ElementwiseOp, MapOp, OTHER_OPS, ReduceOp, SoftmaxOp,
                  TransposeOp)
from .relayout import RELAYOUT_OPS, PackOp, UnPackOp
from .winograd import WINOGRAD_OPS
from .structured import PayloadBuilder, PayloadError, StructuredOp

__all__ = ["LINALG", "StructuredOp", "NamedStructuredOp", "PayloadBuilder", "PayloadError",
           "GenericOp", "YieldOp", "IndexOp", "make_generic", "FillOp", "CopyOp",
           "MatmulOp", "BatchMatmulOp", "BatchReduceMatmulOp", "ContractOp", "MapOp",
           "ReduceOp", "TransposeOp", "BroadcastOp", "ElementwiseOp", "SoftmaxOp", "PackOp",
           "UnPackOp", "named_op_class", "attrs"]

OPS = [GenericOp, YieldOp, IndexOp, FillOp, CopyOp, *CONTRACTION_OPS, *NAMED_OPS,
       *OTHER_OPS, *RELAYOUT_OPS, *WINOGRAD_OPS]

from ...syntax.asm_format import install_format  # noqa: E402

install_format(IndexOp)

def _materialize_constant(builder, value, type, loc=None):
    """LinalgDialect::materializeConstant: an arith.constant."""
    from ..arith import materialize_constant
    return materialize_constant(builder, value, type, loc)


def _canonical_patterns():
    from .canonical import canonical_patterns
    return canonical_patterns()


LINALG = Dialect("linalg", OPS, parse_attribute=attrs.parse_attribute,
                 materialize_constant=_materialize_constant,
                 canonical_patterns=_canonical_patterns)
