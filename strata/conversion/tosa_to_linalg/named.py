"""tosa-to-linalg-named: convolutions, pooling, matmul and transpose as linalg named ops.

    conv2d            bias broadcast into the init (linalg.generic), padding as tensor.pad,
                      then linalg.conv_2d_nhwc_fhwc (weights are OHWI = FHWC); nonzero zero
                      points use linalg.conv_2d_nhwc_fhwc_q
    depthwise_conv2d  linalg.depthwise_conv_2d_nhwc_hwcm into [N, H, W, C, M], collapsed
                      to [N, H, W, C*M], plus the bias (linalg.generic)
    conv3d            weights transposed ODHWI -> DHWIO, linalg.conv_3d_ndhwc_dhwcf
    matmul            linalg.batch_matmul (linalg.matmul for rank 2) into a zero-filled
                      init; quantized_* with zero points; batch broadcasting and higher
                      ranks as a linalg.generic contraction
    max_pool2d        tensor.pad with the lowest value, linalg.pooling_nhwc_max into a
                      lowest-filled init
    avg_pool2d        tensor.pad with 0, linalg.pooling_nhwc_sum, then a linalg.generic
                      dividing each sum by the number of unpadded elements of its window
    transpose         linalg.transpose

Accumulation happens in the result element type, or in `acc_type` when it is a wider
float (f16 data with an f32 accumulator): the result is then converted.
"""
from __future__ import annotations

from ...dialects.tosa.base import NAN_MODE
from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr
from . import NAMED, lowering
from .common import (DYN, NotLowerable, check_signless, collapse, const_scalar, dims, elt,
                     empty, fill, generic, identity_map, is_float, lowest, parallel,
                     ranked_type)


def _named(cx, name, inputs, outputs, **props):
    from ...dialects.linalg import named_op_class
    cls = named_op_class(name)
    op = cls.new(inputs, outputs, loc=cx.loc, **props)
    return cx.b.insert(op).results[0]


def _i64s(values):
    return DenseElementsAttr(A.RankedTensorType([len(values)], A.i64), list(values))


def _zero_points(cx, *values):
    zps = [const_scalar(v) for v in values]
    if any(z is None for z in zps):
        raise NotLowerable("non-constant zero points")
    return [int(z) for z in zps]


def _acc_elt(cx, data_elt, result_elt):
    """The accumulator element type: acc_type for a float accumulator wider than the
    result, else the result's."""
    acc = cx.op.acc_type.value if hasattr(cx.op, "acc_type") else result_elt
    if is_float(result_elt) and is_float(acc) and acc.width > result_elt.width:
        return acc
    return result_elt


def _to_result(cx, v, rt):
    """Convert accumulator tensor `v` to the result type `rt` (elementwise cast)."""
    if v.type is rt:
        return v
    rank = rt.rank
    init = empty(cx, dims(cx, v), rt.element_type)
    return generic(cx, [v], [init], [identity_map(rank)] * 2, parallel(rank),
                   lambda s, args: s.cast(args[0], rt.element_type))[0]


def _pad(cx, x, pads, value):
    """tensor.pad of the spatial dims of NHWC(-like) `x` (pads: before/after per spatial
    dim) with the scalar constant `value`; `x` itself when there is no padding."""
    if not any(pads):
        return x
    t = x.type
    n = len(pads) // 2
    low = [0] + [pads[2 * i] for i in range(n)] + [0]
    high = [0] + [pads[2 * i + 1] for i in range(n)] + [0]
    shape = [d if d == DYN else d + lo + hi for d, lo, hi in zip(t.shape, low, high)]
    rt = A.RankedTensorType(shape, t.element_type)
    from ...dialects.tensor import PadOp, YieldOp
    from ...ir.core import Block
    op = PadOp.build(source=x, low=[], high=[], static_low=A.DenseArrayAttr(A.i64, low),
                     static_high=A.DenseArrayAttr(A.i64, high), result_types=[rt],
                     loc=cx.loc)
    cx.b.insert(op)
    block = op.regions[0].add_block(Block([A.index] * t.rank, [cx.loc] * t.rank))
    block.append(YieldOp.create([value], loc=cx.loc))
    return op.results[0]


def _pad_value(cx, et, zp=0):
    """The scalar constant to pad with (built outside the pad's region)."""
    return cx.s.const(zp, et)


def _broadcast_bias(cx, bias, out_sizes, et):
    """init[n, ..., c] = cast(bias[c]) (or bias[0] for a size-1 bias)."""
    rank = len(out_sizes)
    init = empty(cx, out_sizes, et)
    params = ", ".join(f"d{i}" for i in range(rank))
    b_map = f"({params}) -> ({'0' if bias.type.shape[0] == 1 else f'd{rank - 1}'})"
    return generic(cx, [bias], [init], [b_map, identity_map(rank)], parallel(rank),
                   lambda s, args: s.cast(args[0], et))[0]


def _out_sizes(cx, rt, batch_from):
    """The result sizes; a dynamic batch comes from `batch_from`."""
    sizes = list(rt.shape)
    for i, d in enumerate(sizes):
        if d == DYN:
            if i != 0:
                raise NotLowerable("convolution or pooling with a dynamic spatial or "
                                   "channel dim")
            sizes[0] = cx.value("tensor.dim", [batch_from, cx.s.index(0)], A.index)
    return sizes


def _conv(cx, layout):
    op = cx.op
    x, w, bias = cx.operands[0], cx.operands[1], cx.operands[2]
    xt, wt, rt = ranked_type(x), ranked_type(w), cx.result_type()
    ranked_type(bias)
    for t in (xt, wt, rt):
        check_signless(t)
    izp, wzp = _zero_points(cx, op.input_zp, op.weight_zp)
    et = _acc_elt(cx, xt.element_type, rt.element_type)
    x = _pad(cx, x, list(op.pad.value), _pad_value(cx, xt.element_type, izp))
    strides, dil = _i64s(op.stride.value), _i64s(op.dilation.value)
    sizes = _out_sizes(cx, rt, cx.operands[0])
    init = _broadcast_bias(cx, bias, sizes, et)
    if layout == "3d":
        perm = [1, 2, 3, 4, 0]
        w = _transpose(cx, w, perm)
    name = {"2d": "conv_2d_nhwc_fhwc", "3d": "conv_3d_ndhwc_dhwcf"}[layout]
    if izp or wzp:
        zs = [cx.s.const(izp, A.i32), cx.s.const(wzp, A.i32)]
        r = _named(cx, name + "_q", [x, w] + zs, [init], strides=strides, dilations=dil)
    else:
        r = _named(cx, name, [x, w], [init], strides=strides, dilations=dil)
    return [_to_result(cx, r, rt)]


@lowering(NAMED, "tosa.conv2d")
def _conv2d(cx):
    return _conv(cx, "2d")


@lowering(NAMED, "tosa.conv3d")
def _conv3d(cx):
    return _conv(cx, "3d")


@lowering(NAMED, "tosa.depthwise_conv2d")
def _depthwise(cx):
    op = cx.op
    x, w, bias = cx.operands[0], cx.operands[1], cx.operands[2]
    xt, wt, rt = ranked_type(x), ranked_type(w), cx.result_type()
    for t in (xt, wt, rt):
        check_signless(t)
    if not wt.has_static_shape:
        raise NotLowerable("depthwise_conv2d with dynamic weights")
    izp, wzp = _zero_points(cx, op.input_zp, op.weight_zp)
    et = _acc_elt(cx, xt.element_type, rt.element_type)
    x = _pad(cx, x, list(op.pad.value), _pad_value(cx, xt.element_type, izp))
    strides, dil = _i64s(op.stride.value), _i64s(op.dilation.value)
    sizes = _out_sizes(cx, rt, cx.operands[0])
    c, m = wt.shape[2], wt.shape[3]
    wide = sizes[:3] + [c, m]
    init = fill(cx, cx.s.zero(et), empty(cx, wide, et))
    if izp or wzp:
        zs = [cx.s.const(izp, A.i32), cx.s.const(wzp, A.i32)]
        r = _named(cx, "depthwise_conv_2d_nhwc_hwcm_q", [x, w] + zs, [init], strides=strides,
                   dilations=dil)
    else:
        r = _named(cx, "depthwise_conv_2d_nhwc_hwcm", [x, w], [init], strides=strides,
                   dilations=dil)
    flat = A.RankedTensorType(list(rt.shape[:3]) + [c * m], et)
    r = collapse(cx, r, [[0], [1], [2], [3, 4]], flat)
    out = empty(cx, sizes, rt.element_type)
    b_map = "(d0, d1, d2, d3) -> (" + ("0" if bias.type.shape[0] == 1 else "d3") + ")"
    return generic(cx, [r, bias], [out], [identity_map(4), b_map, identity_map(4)],
                   parallel(4),
                   lambda s, args: s.cast(s.add(args[0], s.cast(args[1], et)),
                                          rt.element_type))


def _transpose(cx, x, perm):
    from ...dialects.linalg import TransposeOp
    t = ranked_type(x)
    sizes = dims(cx, x)
    init = empty(cx, [sizes[p] for p in perm], t.element_type)
    return cx.b.insert(TransposeOp.new(x, init, perm, loc=cx.loc)).results[0]


@lowering(NAMED, "tosa.transpose")
def _transpose_op(cx):
    return [_transpose(cx, cx.operands[0], list(cx.op.perms.value))]


# ---------------------------------------------------------------- matmul


@lowering(NAMED, "tosa.matmul")
def _matmul(cx):
    op = cx.op
    a, b = cx.operands[0], cx.operands[1]
    at, bt, rt = ranked_type(a), ranked_type(b), cx.result_type()
    for t in (at, bt, rt):
        check_signless(t)
    azp, bzp = _zero_points(cx, op.a_zp, op.b_zp)
    et = rt.element_type
    sizes = []
    for i, d in enumerate(rt.shape):
        if d != DYN:
            sizes.append(d)
            continue
        if i == rt.rank - 1:
            src, j = b, bt.rank - 1
        else:
            off = rt.rank - at.rank
            src, j = (a, i - off) if i >= off and at.shape[i - off] != 1 else (b, i - (rt.rank - bt.rank))
        sizes.append(cx.value("tensor.dim", [src, cx.s.index(j)], A.index))
    init = fill(cx, cx.s.zero(et), empty(cx, sizes, et))
    plain = at.rank == bt.rank == rt.rank and at.rank in (2, 3) and (
        at.rank == 2 or at.shape[0] == bt.shape[0] != 1 or
        (at.shape[0] == bt.shape[0] == 1))
    if plain:
        if azp or bzp:
            zs = [cx.s.const(azp, A.i32), cx.s.const(bzp, A.i32)]
            name = "quantized_matmul" if at.rank == 2 else "quantized_batch_matmul"
            return [_named(cx, name, [a, b] + zs, [init])]
        from ...dialects.linalg import BatchMatmulOp, MatmulOp
        cls = MatmulOp if at.rank == 2 else BatchMatmulOp
        return [cx.b.insert(cls.new([a, b], [init], loc=cx.loc)).results[0]]
    return [_matmul_generic(cx, a, b, init, azp, bzp)]


def _matmul_generic(cx, a, b, init, azp, bzp):
    """out[batch..., h, w] += (a[batch_a..., h, c] - azp) * (b[batch_b..., c, w] - bzp),
    size-1 batch dims of a or b broadcast."""
    at, bt, rt = a.type, b.type, init.type
    n = rt.rank  # loops: d0..d(n-1) = output dims, d(n) = c
    params = ", ".join(f"d{i}" for i in range(n + 1))

    def operand_map(t, last_two):
        off = n - t.rank
        exprs = []
        for i in range(t.rank - 2):
            o = i + off
            exprs.append("0" if t.shape[i] == 1 and rt.shape[o] != 1 else f"d{o}")
        return f"({params}) -> ({', '.join(exprs + last_two)})"
    maps = [operand_map(at, [f"d{n - 2}", f"d{n}"]), operand_map(bt, [f"d{n}", f"d{n - 1}"]),
            f"({params}) -> ({', '.join(f'd{i}' for i in range(n))})"]
    et = rt.element_type

    def body(s, args):
        x, y, acc = args
        x, y = s.cast(x, et), s.cast(y, et)
        if azp:
            x = s.sub(x, s.const(azp, et))
        if bzp:
            y = s.sub(y, s.const(bzp, et))
        return s.add(acc, s.mul(x, y))
    return generic(cx, [a, b], [init], maps, ["parallel"] * n + ["reduction"], body)[0]


# ---------------------------------------------------------------- pooling


def _pool_setup(cx):
    op = cx.op
    x = cx.operands[0]
    xt, rt = ranked_type(x), cx.result_type()
    check_signless(xt)
    kernel, stride, pad = list(op.kernel.value), list(op.stride.value), list(op.pad.value)
    return x, xt, rt, kernel, stride, pad


@lowering(NAMED, "tosa.max_pool2d")
def _max_pool(cx):
    if cx.op.nan_mode is NAN_MODE("IGNORE") and is_float(cx.op.input.type):
        raise NotLowerable("max_pool2d with nan_mode<IGNORE>")
    x, xt, rt, kernel, stride, pad = _pool_setup(cx)
    et = xt.element_type
    x = _pad(cx, x, pad, lowest(cx.s, et))
    init = fill(cx, lowest(cx.s, et), empty(cx, _out_sizes(cx, rt, cx.operands[0]), et))
    k = empty(cx, kernel, et)
    return [_named(cx, "pooling_nhwc_max", [x, k], [init], strides=_i64s(stride),
                   dilations=_i64s([1, 1]))]


@lowering(NAMED, "tosa.avg_pool2d")
def _avg_pool(cx):
    x, xt, rt, kernel, stride, pad = _pool_setup(cx)
    if not is_float(xt):
        raise NotLowerable("integer avg_pool2d")
    izp, ozp = _zero_points(cx, cx.op.input_zp, cx.op.output_zp)
    if izp or ozp:
        raise NotLowerable("avg_pool2d with zero points")
    if xt.shape[1] == DYN or xt.shape[2] == DYN:
        raise NotLowerable("avg_pool2d with dynamic spatial dims")
    et = _acc_elt(cx, xt.element_type, rt.element_type)
    padded = _pad(cx, x, pad, cx.s.zero(xt.element_type))
    sizes = _out_sizes(cx, rt, cx.operands[0])
    init = fill(cx, cx.s.zero(et), empty(cx, sizes, et))
    k = empty(cx, kernel, et)
    summed = _named(cx, "pooling_nhwc_sum", [padded, k], [init], strides=_i64s(stride),
                    dilations=_i64s([1, 1]))
    ih, iw = xt.shape[1], xt.shape[2]
    out = empty(cx, sizes, rt.element_type)

    def valid(s, d, size, k_, st, lo):
        """How many of the window's `k_` elements along loop `d` are not padding:
        min(start + k, size) - max(start, 0) with start = i * stride - pad_before."""
        i = s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(d, A.i64)})
        start = s.sub(s.mul(i, s.index(st)), s.index(lo))
        end = s.add(start, s.index(k_))
        hi = s.min(end, s.index(size))
        lo_ = s.max(start, s.index(0))
        return s.sub(hi, lo_)

    def body(s, args):
        total, _ = args
        count = s.mul(valid(s, 1, ih, kernel[0], stride[0], pad[0]),
                      valid(s, 2, iw, kernel[1], stride[1], pad[2]))
        count = s.cast(s.cast(count, A.i32), et)
        return s.cast(s.div(total, count), rt.element_type)
    return generic(cx, [summed], [out], [identity_map(4)] * 2, parallel(4), body)

