"""ONNX ops about shapes -> constants where the shape is static, tensor.dim otherwise.

    Shape, Size          arith.constant, or tensor.dim + tensor.from_elements
    ConstantOfShape      tensor.empty + linalg.fill
    Range                linalg.generic of start + i * delta (its length computed at run
                         time when the result type does not know it)

ConstantOfShape's dims and Range's start/limit/delta, known at run time only, are checked
(`cf.assert "Range at r0: delta is 0"`; see [Note: shape checks] in _index_check.py).
"""
from __future__ import annotations

import numpy as np

from ...dialects.onnx import opset_version
from ...ir import attributes as A
from ...ir.affine import AffineMap
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import NotLowerable, lowering
from ._shape_util import Ix, fit, index_of, operand_ints, sizes
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
    """Dims known at run time only are checked: not negative, their product within
    int64, equal to the result type's static ones (see [Note: shape checks])."""
    from ._index_check import all_of, checked_build, checked_product, nonnegative, \
        require, result_sizes, shape_text
    rt = ranked(cx, cx.result_type(), "result")
    shape = operand_ints(cx, 0, "shape")
    if len(shape) != rt.rank:
        raise NotLowerable(f"shape of length {len(shape)} for a result of rank {rt.rank}")
    value = cx.attr("value")
    v = 0 if value is None else np.asarray(value).reshape(-1)[0]
    elt = rt.element_type
    if not isinstance(elt, (A.IntegerType, A.FloatType)):
        raise NotLowerable(f"ConstantOfShape of {elt}")
    flags = [nonnegative(cx, shape, "shape"),
             require(cx, checked_product(cx, shape)[1],
                     f"shape {shape_text(shape)} has more than 2^63 - 1 elements")]
    out, agree = result_sizes(cx, shape)
    ok = all_of(cx, [*flags, agree])
    s = scalars(cx)
    c = s.const(float(v) if is_float(elt) else int(v), elt)
    return [fit(cx, checked_build(cx, ok, out, elt, lambda sz: _fill(cx, c, sz, elt)), rt)]


@lowering("Range")
def _range(cx):
    """start + i * delta for i < max(ceil((limit - start) / delta), 0). With values known
    at run time only, delta 0 and a count over int64 (or NaN) are errors (see [Note:
    shape checks]); integer counts are computed exactly (unsigned span over |delta|),
    so no subtraction or division wraps."""
    rt = ranked(cx, cx.result_type(), "result")
    elt = rt.element_type
    if not isinstance(elt, (A.IntegerType, A.FloatType)):
        raise NotLowerable(f"Range of {elt}")
    s = scalars(cx)
    signed = not is_unsigned(cx.orig_type(0))
    start, limit, delta = (_scalar(cx, s, i) for i in range(3))
    consts = [_constant_scalar(cx, i) for i in range(3)]
    return [checked_range(cx, start, limit, delta, consts, signed)]


def checked_range(cx, start, limit, delta, consts, signed=True):
    """start + i * delta for i < max(ceil((limit - start) / delta), 0), scalar Values of
    the result's element type (`consts`: their Python values, None where known at run
    time only), the count checked as Range's docstring says: ONNX's Range and PyTorch's
    arange, the one builder of both; typed as result 0."""
    from ._index_check import all_of, checked_build, result_sizes
    rt = ranked(cx, cx.result_type(), "result")
    elt = rt.element_type
    s = scalars(cx)
    if None not in consts:      # known at compile time (shape inference has the count)
        n, ok = _range_count_known(*consts, is_float(elt)), True
    elif is_float(elt):
        n, ok = _range_count_float(cx, s, start, limit, delta)
    else:
        n, ok = _range_count_int(cx, s, start, limit, delta, signed)
    (n,), agree = result_sizes(cx, [n], what="the element count")
    ok = all_of(cx, [ok, agree])
    return fit(cx, checked_build(cx, ok, [n], elt,
                                 lambda sz: range_tensor(cx, start, delta, sz, elt)), rt)


def range_tensor(cx, start, delta, sizes, elt):
    """The 1-D tensor `start + i * delta` (scalar Values of `elt`) of mixed `sizes` (one
    size): ONNX's Range and PyTorch's arange."""
    from ...dialects.linalg import make_generic
    init = empty(cx, sizes, elt)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        i = p.cast(b.index(0), elt)
        return [p.add(start, p.mul(i, delta))]
    return make_generic(cx.b, [], [init], [AffineMap.identity(1)], ["parallel"], body,
                        [init.type], loc=cx.loc).results[0]


def _constant_scalar(cx, i):
    from .common import constant_array
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    return None if a is None else np.asarray(a).reshape(-1)[0].item()


def _range_count_known(start, limit, delta, floating):
    from . import NotLowerable
    if delta == 0:
        raise NotLowerable("delta is 0")
    q = (limit - start) / delta if floating else -((start - limit) // delta)
    if floating:
        if not -np.inf < q < 2.0 ** 63:
            raise NotLowerable(f"Range({start}, {limit}, {delta}) has no finite count")
        q = int(np.ceil(q))
    if q >= 1 << 63:
        raise NotLowerable(f"Range({start}, {limit}, {delta}) has more than 2^63 - 1 "
                           "elements")
    return max(q, 0)


def _range_count_float(cx, s, start, limit, delta):
    from ._index_check import require
    ft = start.type
    nonzero = require(cx, s.cmp("ne", delta, s.zero(ft)), "delta is 0")
    q = s.math("ceil", s.div(s.sub(limit, start), delta))
    # ordered: NaN fails; 2^63 is exact in every float type that reaches it; -inf is
    # an error too, as in onnxruntime
    fits = require(cx, s.and_(s.cmp("lt", q, s.const(2.0 ** 63, ft)),
                              s.cmp("gt", q, s.const(float("-inf"), ft))),
                   "ceil((limit - start) / delta) is not finite or over 2^63 - 1 elements")
    ok = s.and_(nonzero, fits)
    q = s.select(ok, s.max(q, s.zero(ft)), s.zero(ft))   # fptosi of it is defined
    return s.cast(s.cast(q, A.i64), A.index), ok


def _range_count_int(cx, s, start, limit, delta, signed):
    """The count in index arithmetic: the span |limit - start| and |delta| as unsigned
    values (exact for any int64 operands), the count their unsigned ceiling quotient."""
    from ._index_check import INT64_MAX, require
    st, li, de = (index_of(s, v, signed) for v in (start, limit, delta))
    zero, one = s.index(0), s.index(1)
    nonzero = require(cx, s.cmp("ne", de, zero), "delta is 0")
    up = s.cmp("gt", de, zero)
    span = s.select(up, s.sub(li, st), s.sub(st, li))
    mag = s.select(up, de, s.sub(zero, de))
    some = s.select(up, s.cmp("gt", li, st), s.cmp("lt", li, st))
    mag = s.select(nonzero, mag, one)     # no division by 0 after a failed check
    q = s.add(s.op1("arith.divui", [s.sub(span, one), mag], A.index), one)
    fits = require(cx, s.or_(s.not_(some), s.cmp("le", q, s.index(INT64_MAX), False)),
                   "(limit - start) / delta is over 2^63 - 1 elements")
    return s.select(some, q, zero), s.and_(nonzero, fits)


def _scalar(cx, s, i):
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    if t.rank > 1 or (t.rank == 1 and t.shape[0] != 1):
        raise NotLowerable(f"operand #{i} must be a scalar")
    return s.op1("tensor.extract", [v] + [s.index(0)] * t.rank, element_type(t))
