"""Helpers every ONNX lowering uses: constant operands, sizes, empty tensors, and
elementwise computations with ONNX (NumPy) broadcasting as one `linalg.generic`.

Names: `cx` is the Lowering context (see __init__), `s` a ScalarBuilder.
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.affine import AffineMap
from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr
from ..scalar_builders import ScalarBuilder, element_type, with_element_type
from . import NotLowerable

DYN = A.DYNAMIC

__all__ = ["constant_array", "constant_ints", "sizes_of", "empty", "ranked",
           "is_unsigned", "elementwise", "broadcast_shapes", "tensor_type", "scalars",
           "DYN"]


def scalars(cx) -> ScalarBuilder:
    return ScalarBuilder(cx.b, cx.op.loc)


def ranked(cx, t, what="operand"):
    """`t` if it is a ranked tensor type, else NotLowerable."""
    if type(t) is not A.RankedTensorType:
        raise NotLowerable(f"{what} of type {t} must be a ranked tensor")
    return t


def tensor_type(shape, elt):
    return A.RankedTensorType(tuple(shape), elt)


def is_unsigned(t) -> bool:
    """Whether the onnx-level (original) type `t` has an unsigned integer element type."""
    e = element_type(t)
    return type(e) is A.IntegerType and e.signedness == A.IntegerType.UNSIGNED


# ------------------------------------------------------------------ constants


def _attr_array(attr):
    if isinstance(attr, DenseResourceElementsAttr):
        if attr.handle not in BLOBS:
            return None
        return attr.array()
    if isinstance(attr, DenseElementsAttr):
        return attr.array
    return None


def constant_array(value):
    """The NumPy value of `value` when it is a constant known at compile time (an
    arith.constant, onnx.Constant with a `value` tensor, an ml_program constant global,
    or a cast of one of those), else None."""
    op = value.defining_op
    for _ in range(4):
        if op is None:
            return None
        n = op.name
        if n == "builtin.unrealized_conversion_cast" and len(op.operands) == 1:
            op = op.operands[0].defining_op
            continue
        if n in ("arith.constant", "onnx.Constant"):
            attr = op.properties.get("value")
            return None if attr is None else _attr_array(attr)
        if n == "ml_program.global_load_const":
            from ...ir.symbol_table import lookup_nearest_symbol_from
            g = lookup_nearest_symbol_from(op, op.properties["global"])
            if g is None or g.mutable:
                return None
            v = g.properties.get("value")
            return None if v is None else _attr_array(v)
        return None
    return None


def constant_ints(cx, i: int, what: str) -> list[int]:
    """Operand `i` as a list of Python ints: it must be a compile-time constant."""
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    if a is None:
        raise NotLowerable(f"{what} (operand #{i}) must be a constant")
    return [int(x) for x in np.asarray(a).reshape(-1)]


# ------------------------------------------------------------------ sizes


def sizes_of(cx, value) -> list:
    """The sizes of ranked tensor `value`: ints for static dims, index Values (tensor.dim)
    for dynamic ones."""
    t = ranked(cx, value.type)
    s = scalars(cx)
    out = []
    for i, d in enumerate(t.shape):
        if d != DYN:
            out.append(d)
        else:
            out.append(s.op1("tensor.dim", [value, s.index(i)], A.index))
    return out


def empty(cx, sizes, elt):
    """`tensor.empty` of mixed `sizes` (ints and index Values) and element type `elt`."""
    shape = [d if isinstance(d, int) else DYN for d in sizes]
    dyn = [d for d in sizes if not isinstance(d, int)]
    return scalars(cx).op1("tensor.empty", dyn, tensor_type(shape, elt))


# ------------------------------------------------------------------ broadcasting


def broadcast_shapes(shapes) -> list[int]:
    """NumPy broadcasting of static/dynamic shapes (DYN where unknown)."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(rank):
        dims = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
        static = {d for d in dims if d != DYN and d != 1}
        if len(static) > 1:
            raise NotLowerable(f"shapes {shapes} do not broadcast")
        if static:
            out.append(static.pop())
        elif any(d == DYN for d in dims):
            out.append(DYN)
        else:
            out.append(1)
    return out


def _result_sizes(cx, values, shape):
    """Mixed sizes of the broadcast result: a dynamic dim takes its size from the first
    operand whose dim there is dynamic (ONNX requires equal or 1: the model promises)."""
    rank = len(shape)
    s = scalars(cx)
    sizes = []
    for k, d in enumerate(shape):
        if d != DYN:
            sizes.append(d)
            continue
        for v in values:
            vs = v.type.shape
            j = len(vs) - rank + k
            if j >= 0 and vs[j] == DYN:
                sizes.append(s.op1("tensor.dim", [v, s.index(j)], A.index))
                break
    return sizes


def _broadcast_map(operand_shape, rank):
    """The indexing map of an operand broadcast into a `rank`-d iteration space: its dims
    align right; size-1 dims (static) read index 0."""
    from ...ir.affine import AffineConstantExpr, AffineDimExpr
    off = rank - len(operand_shape)
    exprs = []
    for j, d in enumerate(operand_shape):
        exprs.append(AffineConstantExpr(0) if d == 1 else AffineDimExpr(off + j))
    return AffineMap(rank, 0, tuple(exprs))


def elementwise(cx, values, result_elt, body, result_shape=None, maps=None,
                result_sizes=None):
    """One `linalg.generic` applying `body(s, *scalars) -> scalar` elementwise over
    `values` (converted tensors, broadcast NumPy-style; a dynamic dim is assumed to
    match, as ONNX models promise); the result has element type `result_elt`.
    `maps` (one per value) replace the broadcasting maps, e.g. to read a per-channel
    vector along one axis; then `result_shape` (or `result_sizes`, mixed ints and index
    Values) must be given unless it is the first value's shape."""
    from ...dialects.linalg import make_generic
    for v in values:
        ranked(cx, v.type)
        if not isinstance(v.type.element_type, (A.IntegerType, A.FloatType, A.IndexType)):
            raise NotLowerable(f"elements of type {v.type.element_type} are not lowered")
    if result_sizes is not None:
        shape = [d if isinstance(d, int) else DYN for d in result_sizes]
    elif result_shape is not None:
        shape = list(result_shape)
    elif maps is not None:
        shape = list(values[0].type.shape)
    else:
        shape = broadcast_shapes([v.type.shape for v in values])
    rank = len(shape)
    if result_sizes is None:
        src = values if maps is None else values[:1]
        result_sizes = _result_sizes(cx, src, shape)
    init = empty(cx, result_sizes, result_elt)
    if maps is None:
        maps = [_broadcast_map(v.type.shape, rank) for v in values]
    maps = list(maps) + [AffineMap.identity(rank)]

    def fn(b, args):
        s = ScalarBuilder(b, cx.op.loc)
        return [body(s, *args[:len(values)])]
    return make_generic(cx.b, list(values), [init], maps, ["parallel"] * rank, fn,
                        [init.type], loc=cx.op.loc).results[0]


def axis_map(rank: int, axis: int, block: int = 0):
    """The map reading a 1-D operand at loop dim `axis` of a `rank`-d iteration space
    (divided by `block` when > 0: blocked quantization parameters)."""
    from ...ir.affine import AffineDimExpr
    e = AffineDimExpr(axis)
    if block:
        e = e.floordiv(block)
    return AffineMap(rank, 0, (e,))


def scalar_map(rank: int):
    """The map reading a 0-d operand from every point of a `rank`-d iteration space."""
    return AffineMap(rank, 0, ())


def cast_tensor(cx, value, to_elt, from_signed=True, to_signed=True):
    """Elementwise conversion of tensor `value` to element type `to_elt`."""
    if element_type(value.type) is to_elt:
        return value
    return elementwise(cx, [value], to_elt,
                       lambda s, x: s.cast(x, to_elt, from_signed, to_signed))


__all__ += ["cast_tensor", "with_element_type", "axis_map", "scalar_map"]


# ------------------------------------------------------------------ multi-result generics
# (resampling and selection lowerings)


def generic_op(cx, inputs, outputs, maps, iterators, body):
    """A linalg.generic with any number of outputs; `maps` as make_generic takes them
    (e.g. `_linalg_util.map_text`); `body(s, b, args)` gets a ScalarBuilder, the payload
    builder (`b.index(d)`) and the block arguments, and returns the values to yield.
    Returns the results."""
    from ...dialects.linalg import make_generic

    def fn(b, args):
        return body(ScalarBuilder(b, cx.loc), b, args)
    return list(make_generic(cx.b, list(inputs), list(outputs), maps, iterators, fn,
                             [v.type for v in outputs], loc=cx.loc).results)


def scalar_element(cx, i):
    """Operand `i`, a scalar or one-element tensor, as a scalar Value of its element
    type (`tensor.extract`)."""
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    if any(d not in (1, DYN) for d in t.shape):
        raise NotLowerable(f"operand #{i} must hold one element")
    s = scalars(cx)
    return s.op1("tensor.extract", [v] + [s.index(0)] * t.rank, t.element_type)


__all__ += ["generic_op", "scalar_element"]
