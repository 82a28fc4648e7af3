"""ONNX ops about shapes -> constants where the shape is static, tensor.dim otherwise.

    Shape, Size          arith.constant, or tensor.dim + tensor.from_elements
    ConstantOfShape      tensor.empty + linalg.fill
    Range                linalg.generic of start + i * delta (its length computed at run
                         time when the result type does not know it)
"""
from __future__ import annotations

import numpy as np

from ...dialects.onnx import opset_version
from ...ir import attributes as A
from ...ir.affine import AffineMap
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import NotLowerable, lowering
from ._shape_util import DYN, Ix, fit, operand_ints, sizes
from .common import empty, is_unsigned, ranked, scalars, tensor_type


def _i64_tensor(cx, values, shape):
    """A tensor of i64 from mixed index values: a constant when all are known."""
    s = scalars(cx)
    t = tensor_type(shape, A.i64)
    if Ix.known(*values):
        return s.const(np.array(values, dtype=np.int64).reshape(shape), t)
    elems = [s.cast(Ix(s).v(v), A.i64) for v in values]
    return s.op1("tensor.from_elements", elems, t)


@lowering("Shape")
def _shape(cx):
    x = cx.operands[0]
    dims = sizes(cx, x)
    r = len(dims)
    start, end = 0, r
    if opset_version(cx.op) >= 15:
        start, end = cx.attr("start", 0), cx.attr("end", r)
    start = min(max(start + r if start < 0 else start, 0), r)
    end = min(max(end + r if end < 0 else end, 0), r)
    picked = dims[start:end] if end > start else []
    return [_i64_tensor(cx, picked, [len(picked)])]


@lowering("Size")
def _size(cx):
    x = cx.operands[0]
    ix = Ix(scalars(cx))
    n = 1
    for d in sizes(cx, x):
        n = ix.mul(n, d)
    return [_i64_tensor(cx, [n], [])]


def _fill(cx, value, out_sizes, elt):
    from ...dialects.linalg import FillOp
    init = empty(cx, out_sizes, elt)
    return cx.b.insert(FillOp.new([value], [init], loc=cx.loc)).results[0]


@lowering("ConstantOfShape")
def _constant_of_shape(cx):
    rt = ranked(cx, cx.result_type(), "result")
    shape = operand_ints(cx, 0, "shape")
    if len(shape) != rt.rank:
        raise NotLowerable(f"shape of length {len(shape)} for a result of rank {rt.rank}")
    out = [d if d != DYN else v for d, v in zip(rt.shape, shape)]
    value = cx.attr("value")
    v = 0 if value is None else np.asarray(value).reshape(-1)[0]
    elt = rt.element_type
    if not isinstance(elt, (A.IntegerType, A.FloatType)):
        raise NotLowerable(f"ConstantOfShape of {elt}")
    s = scalars(cx)
    c = s.const(float(v) if is_float(elt) else int(v), elt)
    return [fit(cx, _fill(cx, c, out, elt), rt)]


@lowering("Range")
def _range(cx):
    from ...dialects.linalg import make_generic
    rt = ranked(cx, cx.result_type(), "result")
    elt = rt.element_type
    if not isinstance(elt, (A.IntegerType, A.FloatType)):
        raise NotLowerable(f"Range of {elt}")
    s = scalars(cx)
    signed = not is_unsigned(cx.orig_type(0))
    start, limit, delta = (_scalar(cx, s, i) for i in range(3))
    n = rt.shape[0]
    if n == DYN:
        if is_float(elt):
            q = s.math("ceil", s.div(s.sub(limit, start), delta))
            n = s.cast(s.cast(q, A.i64), A.index)
        else:
            q = s.op1("arith.ceildivsi", [s.sub(limit, start), delta], elt)
            n = s.cast(q, A.index, signed)
        n = s.max(n, s.index(0))
    init = empty(cx, [n], elt)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        i = p.cast(b.index(0), elt)
        return [p.add(start, p.mul(i, delta))]
    g = make_generic(cx.b, [], [init], [AffineMap.identity(1)], ["parallel"], body,
                     [init.type], loc=cx.loc)
    return [fit(cx, g.results[0], rt)]


def _scalar(cx, s, i):
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    if t.rank > 1 or (t.rank == 1 and t.shape[0] != 1):
        raise NotLowerable(f"operand #{i} must be a scalar")
    return s.op1("tensor.extract", [v] + [s.index(0)] * t.rank, element_type(t))
