"""tosa-to-tensor (reshape, slice, pad, concat) and tosa-to-arith (const).

    reshape  tensor.collapse_shape or tensor.expand_shape when the new shape groups the
             old one, else a collapse to 1-D followed by an expand (static shapes), or
             tensor.reshape with a constant shape tensor (dynamic ones)
    slice    tensor.extract_slice (size -1: to the end of the dim)
    pad      tensor.pad yielding pad_const[0]
    concat   tensor.empty, then one tensor.insert_slice per input
    const    arith.constant with the same elements
"""
from __future__ import annotations

from ...ir import attributes as A
from . import ARITH, TENSOR, lowering
from .common import (DYN, NotLowerable, collapse, const_ints, dims, empty, expand,
                     ranked_type, reshape_groups)


def _static_array(values):
    return A.DenseArrayAttr(A.i64, list(values))


@lowering(TENSOR, "tosa.reshape")
def _reshape(cx):
    x = cx.operands[0]
    xt, rt = ranked_type(x), cx.result_type()
    if xt.has_static_shape and rt.has_static_shape:
        src, dst = list(xt.shape), list(rt.shape)
        if src == dst:
            return [x]
        groups = reshape_groups(src, dst)
        if groups is not None:
            return [collapse(cx, x, groups, rt)]
        groups = reshape_groups(dst, src)
        if groups is not None:
            return [expand(cx, x, groups, rt)]
        flat = A.RankedTensorType([xt.num_elements], xt.element_type)
        mid = collapse(cx, x, [list(range(xt.rank))], flat) if xt.rank != 1 else x
        return [expand(cx, mid, [list(range(rt.rank))], rt)]
    shape = const_ints(cx.op.shape)
    if shape is None:
        raise NotLowerable("reshape to a non-constant shape")
    st = A.RankedTensorType([len(shape)], A.index)
    from ...ir.dense import DenseElementsAttr
    vals = [d if d >= 0 else -1 for d in shape]
    if -1 in vals:
        raise NotLowerable("reshape of a dynamic shape with an inferred (-1) dim")
    shape_v = cx.value("arith.constant", [], st, {"value": DenseElementsAttr(st, vals)})
    return [cx.value("tensor.reshape", [x, shape_v], rt)]


@lowering(TENSOR, "tosa.slice")
def _slice(cx):
    x = cx.operands[0]
    xt, rt = ranked_type(x), cx.result_type()
    start, size = const_ints(cx.op.start), const_ints(cx.op.size)
    if start is None or size is None:
        raise NotLowerable("slice with a non-constant start or size")
    sizes = list(size)
    for i, n in enumerate(sizes):
        if n == -1:
            if xt.shape[i] == DYN:
                raise NotLowerable("slice to the end of a dynamic dim")
            sizes[i] = xt.shape[i] - start[i]
    from ...dialects.tensor import ExtractSliceOp
    op = ExtractSliceOp.build(source=x, offsets=[], sizes=[], strides=[],
                              static_offsets=_static_array(start),
                              static_sizes=_static_array(sizes),
                              static_strides=_static_array([1] * xt.rank),
                              result_types=[A.RankedTensorType(sizes, xt.element_type)],
                              loc=cx.loc)
    r = cx.b.insert(op).results[0]
    return [r if r.type is rt else cx.value("tensor.cast", [r], rt)]


@lowering(TENSOR, "tosa.pad")
def _pad(cx):
    x = cx.operands[0]
    xt, rt = ranked_type(x), cx.result_type()
    pads = const_ints(cx.op.padding)
    if pads is None or any(p < 0 for p in pads):
        raise NotLowerable("pad with non-constant or inferred (-1) padding")
    pc = cx.operands[2]
    ranked_type(pc, "pad_const")
    value = cx.value("tensor.extract", [pc] + [cx.s.index(0)] * pc.type.rank,
                     xt.element_type)
    from ...dialects.tensor import PadOp, YieldOp
    from ...ir.core import Block
    low, high = pads[0::2], pads[1::2]
    shape = [d if d == DYN else d + lo + hi for d, lo, hi in zip(xt.shape, low, high)]
    op = PadOp.build(source=x, low=[], high=[], static_low=_static_array(low),
                     static_high=_static_array(high),
                     result_types=[A.RankedTensorType(shape, xt.element_type)], loc=cx.loc)
    cx.b.insert(op)
    block = op.regions[0].add_block(Block([A.index] * xt.rank, [cx.loc] * xt.rank))
    block.append(YieldOp.create([value], loc=cx.loc))
    r = op.results[0]
    return [r if r.type is rt else cx.value("tensor.cast", [r], rt)]


@lowering(TENSOR, "tosa.concat")
def _concat(cx):
    inputs = list(cx.operands)
    rt = cx.result_type()
    axis = cx.op.axis.value
    for v in inputs:
        ranked_type(v)
    sizes = dims(cx, inputs[0])
    offsets_at_axis = []
    total = 0
    for v in inputs:
        d = v.type.shape[axis]
        if d == DYN:
            raise NotLowerable("concat along a dynamic dim")
        offsets_at_axis.append(total)
        total += d
    sizes[axis] = total
    for i, d in enumerate(rt.shape):
        if d != DYN:
            sizes[i] = d
    acc = empty(cx, sizes, rt.element_type)
    from ...dialects.tensor import InsertSliceOp
    for v, off in zip(inputs, offsets_at_axis):
        t = v.type
        if not t.has_static_shape:
            raise NotLowerable("concat of dynamic shapes")
        offs = [0] * t.rank
        offs[axis] = off
        op = InsertSliceOp.build(source=v, dest=acc, offsets=[], sizes=[], strides=[],
                                 static_offsets=_static_array(offs),
                                 static_sizes=_static_array(t.shape),
                                 static_strides=_static_array([1] * t.rank),
                                 result_types=[acc.type], loc=cx.loc)
        acc = cx.b.insert(op).results[0]
    return [acc if acc.type is rt else cx.value("tensor.cast", [acc], rt)]


@lowering(ARITH, "tosa.apply_scale")
def _apply_scale(cx):
    """The i64 arithmetic of elementwise.apply_scale, on scalars or shaped values."""
    from ..scalar_builders import with_element_type
    from .elementwise import apply_scale
    v, m, sh = cx.operands
    rt = cx.op.results[0].type
    wide = with_element_type(rt, A.i64) if isinstance(rt, A.ShapedType) else A.i64
    s = cx.s

    def ext(x):
        return x if x.type is wide else cx.value("arith.extsi", [x], wide)
    double = cx.op.rounding_mode.value == "DOUBLE_ROUND"
    r = apply_scale(s, ext(v), ext(m), ext(sh), double)
    return [r if rt is wide else cx.value("arith.trunci", [r], rt)]


@lowering(ARITH, "tosa.const")
def _const(cx):
    a = cx.op.values
    return [cx.value("arith.constant", [], cx.op.results[0].type, {"value": a})]
