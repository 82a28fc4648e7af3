"""onnx.Constant -> arith.constant (dense elements; integer element types signless)."""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from . import NotLowerable, lowering
from .common import scalars


@lowering("Constant")
def _constant(cx):
    t = cx.result_type()
    if type(t) is not A.RankedTensorType or not t.has_static_shape:
        raise NotLowerable(f"constant of type {t}")
    a = cx.op.properties.get("value")
    if isinstance(a, DenseResourceElementsAttr):
        attr = DenseResourceElementsAttr(t, a.handle)
    elif isinstance(a, DenseElementsAttr):
        attr = DenseElementsAttr.from_raw(t, a.raw)
    else:
        for name in ("value_float", "value_floats", "value_int", "value_ints"):
            v = cx.attr(name)
            if v is not None:
                attr = DenseElementsAttr(t, np.asarray(v).reshape(t.shape))
                break
        else:
            raise NotLowerable("only numeric constants can be lowered")
    return [scalars(cx).op1("arith.constant", [], t, {"value": attr})]
