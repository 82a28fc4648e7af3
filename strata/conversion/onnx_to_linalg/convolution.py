"""Convolutions: Conv, ConvInteger, QLinearConv, ConvTranspose, DeformConv and Col2Im.

A convolution pads its input with `tensor.pad`, starts from the bias broadcast over the
output (or zeros) and accumulates into it with the named op of its shape:

    group 1            linalg.conv_{1d_ncw_fcw, 2d_nchw_fchw, 3d_ncdhw_fcdhw}
    depthwise          linalg.depthwise_conv_{1d_ncw_cw, 2d_nchw_chw, 3d_ncdhw_cdhw}
    grouped 1-D, 2-D   linalg.conv_2d_ngchw_gfchw (channels expanded to (group, c); 1-D:
                       a unit H dim added)
    otherwise          linalg.generic over (n, g, f, out..., c, window...)

ConvTranspose is the convolution of the input dilated by the strides (zeros between the
elements) with the kernel flipped and its in/out channels swapped; its padding and
output_shape only choose which part of the full result is kept. The integer
convolutions subtract their zero points in i32 first (then pad with zeros).
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable, lowering
from ._linalg_util import (acc_type, dim_size, filled, generic_maps, i64_elements,
                           ints_attr, map_text, minus_zero_point, pad, quantize,
                           round_to, window, window_expr)
from ._shape_util import collapse, expand
from .common import DYN, empty, ranked, same_dims, scalars

_NAMED = {1: "conv_1d_ncw_fcw", 2: "conv_2d_nchw_fchw", 3: "conv_3d_ncdhw_fcdhw"}
_DEPTHWISE = {1: "depthwise_conv_1d_ncw_cw", 2: "depthwise_conv_2d_nchw_chw",
              3: "depthwise_conv_3d_ncdhw_cdhw"}


def _checked_fit(cx, v, t, flags, sizes=None):
    """`v` cast to type `t` (static where `v` is dynamic) when the run-time `flags` (of
    check_dims) hold, else zeros of type `t`: execution goes on after a failed
    cf.assert, and the CPU code must not then read `v` through sizes it does not have
    (see [Note: grouped channels])."""
    from ...dialects.scf import IfOp, YieldOp
    from ._index_check import all_of
    from ._shape_util import fit
    ok = all_of(cx, flags)
    if ok is True:
        return fit(cx, v, t)
    if ok is False:
        ok = scalars(cx).const(False, A.i1)
    op = cx.b.insert(IfOp.new(ok, [t], with_else=True, loc=cx.loc))
    saved = cx.b.ip
    cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
    cx.b.insert(YieldOp.build(values=[fit(cx, v, t)], loc=cx.loc))
    cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
    if sizes is None:
        sizes = [d if d != DYN else dim_size(cx, v, i) for i, d in enumerate(t.shape)]
    cx.b.insert(YieldOp.build(values=[filled(cx, sizes, element_type(t))], loc=cx.loc))
    cx.b.ip = saved
    return op.results[0]


def _spatial(cx, x, w):
    """(number of spatial dims, kernel sizes, weights) of input `x` and weights `w`.
    Weights whose window dims are dynamic (fed at run time) take kernel_shape's sizes,
    checked at run time; without kernel_shape they cannot be lowered."""
    tx, tw = ranked(cx, x.type), ranked(cx, w.type)
    n = tx.rank - 2
    if n < 1 or tw.rank != tx.rank:
        raise NotLowerable(f"convolution of ranks {tx.rank} and {tw.rank} is not supported")
    kernel = list(tw.shape[2:])
    given = cx.attr("kernel_shape", None)
    given = None if given is None else [int(k) for k in given]
    if given is not None and len(given) == n and DYN in kernel and \
            all(k in (DYN, g) for k, g in zip(kernel, given)):
        from ._index_check import check_dims
        flags = check_dims(cx, [(dim_size(cx, w, 2 + i), g, "eq",
                                 f"the filters' window dim {i} must be kernel_shape's {g}")
                                for i, (k, g) in enumerate(zip(kernel, given)) if k == DYN])
        kernel = given
        w = _checked_fit(cx, w, A.RankedTensorType(list(tw.shape[:2]) + kernel,
                                                   element_type(tw)), flags)
    if DYN in kernel:
        raise NotLowerable("the kernel sizes must be static (or given by kernel_shape)")
    if 0 in kernel:
        raise NotLowerable("the kernel sizes must be positive")
    if given is not None and given != kernel:
        raise NotLowerable(f"kernel_shape {given} does not match the weights {kernel}")
    return n, kernel, w


def _group(cx, name="group"):
    g = int(cx.attr(name, 1))
    if g < 1:
        raise NotLowerable(f"{name} must be positive, not {g}")
    return g


def bias_init(cx, bias, sizes, acc):
    """The accumulator of a convolution: `bias` (1-D over dim 1, or None: zeros)
    broadcast to mixed `sizes`, element type `acc`."""
    from ...dialects.linalg import make_generic
    if bias is None:
        return filled(cx, sizes, acc)
    rank = len(sizes)
    init = empty(cx, sizes, acc)
    init, bias = same_dims(cx, [init, bias], [(0, 1), (1, 0)], "the output channels",
                           ["the output", "the bias"])

    def body(b, args):
        return ScalarBuilder(b, cx.loc).cast(args[0], acc)
    return make_generic(cx.b, [bias], [init],
                        generic_maps([map_text(rank, [1]), map_text(rank, range(rank))]),
                        ["parallel"] * rank, body, [init.type], loc=cx.loc).results[0]


def conv(cx, x, w, init, strides, dilations, group):
    """`init += conv(x, w)`: x (N, C, in...) already padded, w (M, C/group, k...),
    init (N, M, out...)."""
    from ...dialects import linalg as L
    n = x.type.rank - 2
    c, m = x.type.shape[1], w.type.shape[0]
    props = {"strides": i64_elements(strides), "dilations": i64_elements(dilations)}

    def named(name, ins, out):
        op = L.named_op_class(name).new(ins, [out], loc=cx.loc, **props)
        return cx.b.insert(op).results[0]
    if group == 1:
        from ._index_check import check_dims
        flags = check_dims(cx, [(dim_size(cx, x, 1), dim_size(cx, w, 1), "eq",
                                 "input channels must equal the filters' channels")])
        if flags != [True]:
            # after a failed check, zeros with the filters' channel count are convolved
            t = A.RankedTensorType([x.type.shape[0], w.type.shape[1]] +
                                   list(x.type.shape[2:]), element_type(x.type))
            x = _checked_fit(cx, x, t, flags, [dim_size(cx, x, 0), dim_size(cx, w, 1)] +
                             [dim_size(cx, x, i) for i in range(2, n + 2)])
        return named(_NAMED[n], [x, w], init)
    if group == c == m and w.type.shape[1] == 1:
        wd = collapse(cx, w, [[0, 1]] + [[i] for i in range(2, n + 2)])
        return named(_DEPTHWISE[n], [x, wd], init)
    x, w, init, cg, mg = _group_channels(cx, x, w, init, group)
    if n == 1:
        # a one-row image (unit H views, no copy): the 2-D grouped op, which the CPU
        # kernels take ([Note: grouped convolutions], backends/cpu/kernels_conv.py)
        props["strides"], props["dilations"] = (i64_elements([1, v]) for v in
                                                (strides[0], dilations[0]))
        xs, os = [dim_size(cx, x, i) for i in range(3)], [dim_size(cx, init, i)
                                                          for i in range(3)]
        cw, kw = dim_size(cx, w, 1), dim_size(cx, w, 2)
        r = named("conv_2d_ngchw_gfchw", [
            expand(cx, x, [[0], [1, 2], [3, 4]], [xs[0], group, cg, 1, xs[2]]),
            expand(cx, w, [[0, 1], [2], [3, 4]], [group, mg, cw, 1, kw])],
            expand(cx, init, [[0], [1, 2], [3, 4]], [os[0], group, mg, 1, os[2]]))
        return collapse(cx, r, [[0], [1, 2], [3, 4]])
    # channels as (group, channels per group)
    rest = [[i + 1] for i in range(2, n + 2)]
    xs = [dim_size(cx, x, i) for i in range(n + 2)]
    os = [dim_size(cx, init, i) for i in range(n + 2)]
    xg = expand(cx, x, [[0], [1, 2]] + rest, [xs[0], group, cg] + xs[2:])
    wg = expand(cx, w, [[0, 1]] + [[i + 1] for i in range(1, n + 2)],
                [group, mg] + [dim_size(cx, w, i) for i in range(1, n + 2)])
    og = expand(cx, init, [[0], [1, 2]] + rest, [os[0], group, mg] + os[2:])
    if n == 2:
        r = named("conv_2d_ngchw_gfchw", [xg, wg], og)
    else:
        # loops: n g f out_1..out_n c k_1..k_n
        nl = 4 + 2 * n
        outs, ks = list(range(3, 3 + n)), list(range(4 + n, 4 + 2 * n))
        from .contraction import mac_generic
        maps = [map_text(nl, [0, 1, 3 + n] + [window_expr(o, k, s, d) for o, k, s, d in
                                              zip(outs, ks, strides, dilations)]),
                map_text(nl, [1, 2, 3 + n] + ks), map_text(nl, [0, 1, 2] + outs)]
        r = mac_generic(cx, [xg, wg], og, maps,
                        ["parallel"] * (3 + n) + ["reduction"] * (1 + n))
    return collapse(cx, r, [[0], [1, 2]] + rest)


def _group_channels(cx, x, w, init, group):
    """(x, w, init, C/group, M/group) of a grouped convolution (see [Note: grouped
    channels])."""
    from ._index_check import check_dims
    from ._shape_util import Ix, fit, tensor_type
    c, cw, m = x.type.shape[1], w.type.shape[1], w.type.shape[0]
    if c != DYN and c % group:
        raise NotLowerable(f"group {group} does not divide the {c} input channels")
    if m != DYN and m % group:
        raise NotLowerable(f"group {group} does not divide the {m} filters")
    if cw != DYN and c != DYN and cw * group != c:
        raise NotLowerable(f"the filters take {cw} x group {group} channels, the input "
                           f"has {c}")
    ix = Ix(scalars(cx))
    cs, ms = dim_size(cx, x, 1), dim_size(cx, w, 0)
    flags = check_dims(cx, [(cs, ix.mul(dim_size(cx, w, 1), group), "eq",
                             f"input channels must be the filters' channels x group "
                             f"{group}")])
    if m == DYN:
        check_dims(cx, [(ix.mod(ms, group), 0, "eq",
                         f"group {group} must divide the number of filters")])
    # A dynamic count with a static partner takes its static size.
    if c == DYN and cw != DYN:
        x = _checked_fit(cx, x, tensor_type([x.type.shape[0], cw * group] +
                                            list(x.type.shape[2:]), element_type(x.type)),
                         flags)
    elif cw == DYN and c != DYN:
        w = _checked_fit(cx, w, tensor_type([m, c // group] + list(w.type.shape[2:]),
                                            element_type(w.type)), flags)
    elif c == DYN:
        x = _checked_fit(cx, x, x.type, flags,
                         [dim_size(cx, x, 0), ix.mul(dim_size(cx, w, 1), group)] +
                         [dim_size(cx, x, i) for i in range(2, x.type.rank)])
    if m != DYN and init.type.shape[1] == DYN:
        init = fit(cx, init, tensor_type([init.type.shape[0], m] + list(init.type.shape[2:]),
                                         element_type(init.type)))
    cg = cw if cw != DYN else (c // group if c != DYN else ix.floordiv(cs, group))
    mg = m // group if m != DYN else ix.floordiv(ms, group)
    return x, w, init, cg, mg


# [Note: grouped channels]
# A grouped convolution views the channels as (group, channels per group): x's C and
# the filters' M are expanded by `group`. Either may be dynamic (an input with a
# dim_param channel count, filters fed at run time): the per-group count is then
# C/group computed at run time, or the partner's static size (x's dynamic C is the
# filters' static C/group x group, so x is cast to it). The rule ONNX states, C =
# group x the filters' channels and group dividing M, is checked at compile time where
# both are known, else by a cf.assert naming the node, so that a mismatch fails
# instead of reading out of bounds.


def _padded_conv(cx, x, w, bias, acc, pad_value=0):
    """Conv of `x` by `w` with the op's window attributes, bias and group; result in
    element type `acc`."""
    n, kernel, w = _spatial(cx, x, w)
    return padded_conv(cx, x, w, bias, acc, kernel, _group(cx), pad_value=pad_value)


def padded_conv(cx, x, w, bias, acc, kernel, group, strides=None, dilations=None,
                pads=None, pad_value=0):
    """The convolution of `x` (N, C, in...) by `w` (M, C/group, kernel...) plus `bias`
    (M,) or None, in element type `acc`: `x` padded by `pads` (lows, then highs) with
    `pad_value`, the window's `strides` and `dilations` (None: the ONNX op's
    attributes; see `window`). The one convolution builder of both frontends."""
    n = len(kernel)
    x = _checked_channels(cx, x, w, group)
    win = window(cx, [dim_size(cx, x, i) for i in range(2, n + 2)], kernel,
                 strides=strides, dilations=dilations, pads=pads)
    zero = scalars(cx).const(pad_value, element_type(x.type))
    xp = pad(cx, x, [0, 0] + win.low, [0, 0] + win.high, zero)
    sizes = [dim_size(cx, x, 0), dim_size(cx, w, 0)] + win.out
    init = bias_init(cx, bias, sizes, acc)
    return conv(cx, xp, w, init, win.strides, win.dilations, group)


def _checked_channels(cx, x, w, group):
    """`x` (N, C, ...) whose C must be group * the weights' dim 1: a compile error when
    known to differ, else a cf.assert, after which `x` is a stand-in of that many
    channels (see [Note: checking broadcast dims] in common)."""
    from ._index_check import all_of, check_dims
    from ._shape_util import Ix
    from .common import stand_in_unless
    ix = Ix(scalars(cx))
    want = ix.mul(dim_size(cx, w, 1), group)
    ok = all_of(cx, check_dims(cx, [(dim_size(cx, x, 1), want, "eq",
                                     "the input's channels differ from the weights' "
                                     "dim 1 times group")]))
    if ok is True:
        return x
    return stand_in_unless(cx, [x], 0, 1, want, ok)[0]


@lowering("Conv")
def _conv(cx):
    elt = element_type(cx.result_type())
    bias = cx.operands[2] if cx.has_operand(2) else None
    r = _padded_conv(cx, cx.operands[0], cx.operands[1], bias, acc_type(elt))
    return [round_to(cx, r, elt)]


def _channel_vector(cx, v, rank):
    """A 1-D per-output-channel tensor (M,) as (M, 1, ..., 1) of `rank` dims, to broadcast
    against (M, C, k...) weights or (N, M, out...) results; others as they are."""
    t = ranked(cx, v.type)
    if t.rank == 1 and t.shape[0] != 1:
        return expand(cx, v, [list(range(rank))], [dim_size(cx, v, 0)] + [1] * (rank - 1))
    return v


@lowering("ConvInteger")
def _conv_integer(cx):
    x = minus_zero_point(cx, 0, 2)
    w = minus_zero_point(cx, 1, 3, lambda zp, rank: _channel_vector(cx, zp, rank))
    return [_padded_conv(cx, x, w, None, A.i32)]


@lowering("QLinearConv")
def _qlinear_conv(cx):
    x = minus_zero_point(cx, 0, 2)
    w = minus_zero_point(cx, 3, 5, lambda zp, rank: _channel_vector(cx, zp, rank))
    bias = cx.operands[8] if cx.has_operand(8) else None
    acc = _padded_conv(cx, x, w, bias, A.i32)
    scales = [cx.operands[1], _channel_vector(cx, cx.operands[4], acc.type.rank - 1)]
    return [quantize(cx, acc, scales, 6, 7)]


# ------------------------------------------------------------------ ConvTranspose


def _transpose_geometry(cx, in_sizes, kernel, strides, dilations):
    """(low crop of the full result, output sizes) of ConvTranspose (the rules of the
    spec and ONNX's reference: output_shape wins over pads, SAME_* split the total
    padding, output_padding extends the end)."""
    n = len(in_sizes)
    out_pad = ints_attr(cx, "output_padding", n, 0)
    out_shape = cx.attr("output_shape", None)
    pads = cx.attr("pads", None)
    auto = cx.attr("auto_pad", "NOTSET")
    full = [strides[i] * (in_sizes[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1
            for i in range(n)]
    if out_shape is not None:
        out_shape = [int(v) for v in out_shape][-n:]
        if len(out_shape) != n:
            raise NotLowerable(f"output_shape {out_shape} does not give {n} sizes")
    if pads is None and auto in ("SAME_UPPER", "SAME_LOWER"):
        if out_shape is None:
            out_shape = [in_sizes[i] * strides[i] for i in range(n)]
        low = []
        for i in range(n):
            total = full[i] - out_shape[i]
            low.append(total // 2 if auto == "SAME_UPPER" else total - total // 2)
        return low, out_shape
    pads = ints_attr(cx, "pads", 2 * n, 0)
    if out_shape is None:
        out_shape = [full[i] - pads[i] - pads[n + i] for i in range(n)]
    if any(o <= 0 for o in out_shape):
        raise NotLowerable(f"ConvTranspose output sizes {out_shape} are not positive")
    return pads[:n], out_shape


def _flip_swap(cx, w, group):
    """Weights (C, M/group, k...) as the kernel of the equivalent convolution:
    (M, C/group, k...) with every window dim reversed."""
    from ...dialects.linalg import make_generic
    c, mg = w.type.shape[0], w.type.shape[1]
    kernel = list(w.type.shape[2:])
    n = len(kernel)
    if DYN in (c, mg) or c % group:
        raise NotLowerable("ConvTranspose needs static channel counts divisible by group")
    cg = c // group
    # (group, C/group, M/group, k...) -> (group, M/group, C/group, flipped k...)
    wg = expand(cx, w, [[0, 1]] + [[i + 1] for i in range(1, n + 2)], [group, cg, mg] + kernel)
    nl = 3 + n
    src = map_text(nl, [0, 2, 1] + [f"{k - 1} - d{3 + i}" for i, k in enumerate(kernel)])
    init = empty(cx, [group, mg, cg] + kernel, element_type(w.type))
    r = make_generic(cx.b, [wg], [init], generic_maps([src, map_text(nl, range(nl))]),
                     ["parallel"] * nl, lambda b, args: args[0], [init.type],
                     loc=cx.loc).results[0]
    return collapse(cx, r, [[0, 1]] + [[i + 1] for i in range(1, n + 2)])


@lowering("ConvTranspose")
def _conv_transpose(cx):
    from ._index_check import check_dims
    from ._shape_util import Ix
    x, w = cx.operands[0], cx.operands[1]
    n, kernel, w = _spatial(cx, x, w)
    group = _group(cx)
    ix = Ix(scalars(cx))
    if x.type.shape[1] == DYN:
        # the channels are the filters' first dim (see [Note: dynamic ConvTranspose])
        if w.type.shape[0] == DYN:
            raise NotLowerable("ConvTranspose needs static channels (of the input or "
                               "the filters)")
        flags = check_dims(cx, [(dim_size(cx, x, 1), w.type.shape[0], "eq",
                                 "input channels must equal the filters' first dim")])
        x = _checked_fit(cx, x, A.RankedTensorType([x.type.shape[0], w.type.shape[0]] +
                                                   list(x.type.shape[2:]),
                                                   element_type(x.type)), flags)
    in_sizes = [dim_size(cx, x, 2 + i) for i in range(n)]
    strides = ints_attr(cx, "strides", n, 1, positive=True)
    dilations = ints_attr(cx, "dilations", n, 1, positive=True)
    ends = None
    if all(isinstance(v, int) for v in in_sizes):
        crop, out = _transpose_geometry(cx, in_sizes, kernel, strides, dilations)
    else:
        crop, out, ends = _dynamic_transpose_geometry(cx, ix, in_sizes, kernel, strides,
                                                      dilations)
    bias = cx.operands[2] if cx.has_operand(2) else None
    return [conv_transpose(cx, x, w, bias, kernel, group, strides, dilations, crop, out,
                           ends, in_sizes)]


def conv_transpose(cx, x, w, bias, kernel, group, strides, dilations, crop, out,
                   ends=None, in_sizes=None):
    """The transposed convolution of `x` (N, C, in...) by `w` (C, M/group, kernel...)
    plus `bias` (M,) or None, in the result's element type: the full result's first
    `crop` positions dropped and `out` kept per spatial dim (`ends`: the padding past
    the end when the sizes are dynamic, see _dynamic_transpose_geometry; `in_sizes`:
    the spatial sizes of `x` if made). ONNX's ConvTranspose and PyTorch's transposed
    convolution, the one builder of both."""
    from ._shape_util import Ix, extract_slice, insert_slice
    n = len(kernel)
    ix = Ix(scalars(cx))
    if in_sizes is None:
        in_sizes = [dim_size(cx, x, 2 + i) for i in range(n)]
    elt = element_type(cx.result_type())
    acc = acc_type(elt)
    s = scalars(cx)
    zero = s.const(0, element_type(x.type))
    # the input dilated by the strides
    xd = x
    if any(v != 1 for v in strides):
        dil = [ix.add(ix.mul(ix.sub(d, 1), st), 1) for d, st in zip(in_sizes, strides)]
        base = filled(cx, [dim_size(cx, x, 0), x.type.shape[1]] + dil, element_type(x.type))
        xd = insert_slice(cx, x, base, [0] * (n + 2), [1, 1] + strides)
    # Y[o] = sum_k Xd[o + crop + k*d - (K-1)*d] W[k]: pad (or crop) Xd so that a stride-1
    # convolution with the flipped kernel reads it at o + k*d. The padding past the end
    # is static even when the sizes are not: out + span - (length of Xd + low).
    low, high, start = [], [], []
    for i in range(n):
        span = (kernel[i] - 1) * dilations[i]
        lo = span - crop[i]
        hi = ends[i] if ends else out[i] + span - (xd.type.shape[2 + i] + lo)
        low.append(max(lo, 0))
        high.append(ix.max(hi, 0))
        start.append(max(-lo, 0))
    xp = pad(cx, xd, [0, 0] + low, [0, 0] + high, zero)
    if any(start) or any(not isinstance(h, int) or h < 0 for h in high):
        sizes = [dim_size(cx, xp, 0), xp.type.shape[1]] + \
            [ix.add(out[i], (kernel[i] - 1) * dilations[i]) for i in range(n)]
        xp = extract_slice(cx, xp, [0, 0] + start, sizes)
    wf = _flip_swap(cx, w, group)
    init = bias_init(cx, bias, [dim_size(cx, x, 0), wf.type.shape[0]] + out, acc)
    r = conv(cx, xp, wf, init, [1] * n, dilations, group)
    return round_to(cx, r, elt)


def _dynamic_transpose_geometry(cx, ix, in_sizes, kernel, strides, dilations):
    """(low crop, mixed output sizes, padding past the end of the dilated input) of
    ConvTranspose over spatial sizes known only at run time (see [Note: dynamic
    ConvTranspose])."""
    from ._index_check import check_dims
    n = len(in_sizes)
    if cx.attr("output_shape", None) is not None or \
            cx.attr("auto_pad", "NOTSET") in ("SAME_UPPER", "SAME_LOWER"):
        raise NotLowerable("ConvTranspose with output_shape or auto_pad SAME_* needs "
                           "static spatial sizes")
    out_pad = ints_attr(cx, "output_padding", n, 0)
    pads = ints_attr(cx, "pads", 2 * n, 0)
    out = []
    for i in range(n):
        full = ix.add(ix.mul(ix.sub(in_sizes[i], 1), strides[i]),
                      out_pad[i] + (kernel[i] - 1) * dilations[i] + 1)
        out.append(ix.sub(full, pads[i] + pads[n + i]))
    check_dims(cx, [(1, o, "le", "the output sizes must be positive") for o in out])
    # Execution goes on after a failed check (the caller raises): the output is then
    # 1 wide instead of empty or negative, and the input is padded past its end by as
    # much (zero when the check holds) so that the convolution reads inside it.
    safe = [ix.max(o, 1) for o in out]
    ends = [ix.add(out_pad[i] + (kernel[i] - 1) * dilations[i] - pads[n + i],
                   ix.sub(safe[i], out[i])) for i in range(n)]
    return pads[:n], safe, ends


# [Note: dynamic ConvTranspose]
# With explicit pads (or none), every amount ConvTranspose pads or crops by is static:
# the low side is (K-1)*d - pad_begin and the high side out + (K-1)*d - (len(Xd) + low)
# = output_padding + (K-1)*d - pad_end, whatever the input's size; only the dilated
# input's size and the output sizes are run-time values. output_shape and SAME_*
# padding split a total that depends on the sizes, so they keep static sizes. A dynamic
# channel count takes the filters' (C, M/group, k...) first dim, checked at run time.


# ------------------------------------------------------------------ DeformConv


def _sample_bilinear(cx, x, offset, mask, n, kernel, out_sizes, strides, dilations, low,
                     offset_group):
    """S (N, C, k..., out...): x sampled by bilinear interpolation (zeros outside) at
    out * stride - pad + k * dilation + offset, times the mask when there is one."""
    from ...dialects.linalg import make_generic
    elt = element_type(x.type)
    c = x.type.shape[1]
    if c == DYN or c % offset_group:
        raise NotLowerable("DeformConv needs static channels divisible by offset_group")
    cpg = c // offset_group
    nb = dim_size(cx, x, 0)
    # offset (N, OG * k... * n, out...) -> (N, OG, k..., n, out...)
    og_dims = [offset_group] + kernel + [n]
    off = expand(cx, offset, [[0], list(range(1, 2 + len(og_dims) - 1))] +
                 [[len(og_dims) + 1 + i] for i in range(n)], [nb] + og_dims + out_sizes)
    nl = 2 + 2 * n
    ks_, os_ = list(range(2, 2 + n)), list(range(2 + n, 2 + 2 * n))
    group_expr = f"d1 floordiv {cpg}"
    ins = [off] * n
    maps = [map_text(nl, [0, group_expr] + ks_ + [str(j)] + os_) for j in range(n)]
    if mask is not None:
        ins.append(expand(cx, mask, [[0], list(range(1, 2 + n))] +
                          [[2 + n + i] for i in range(n)],
                          [nb, offset_group] + kernel + out_sizes))
        maps.append(map_text(nl, [0, group_expr] + ks_ + os_))
    init = empty(cx, [nb, c] + kernel + out_sizes, elt)
    maps.append(map_text(nl, range(nl)))
    in_sizes = [dim_size(cx, x, 2 + i) for i in range(n)]

    def body(b, args):
        s = ScalarBuilder(b, cx.loc)
        sizes = [s.index(v) if isinstance(v, int) else v for v in in_sizes]
        los, fracs = [], []
        for i in range(n):
            base = s.add(s.mul(b.index(2 + n + i), s.index(strides[i])),
                         s.mul(b.index(2 + i), s.index(dilations[i])))
            base = s.sub(base, s.index(low[i]))
            pos = s.add(s.cast(base, elt), args[i])
            lo = s.math("floor", pos)
            fracs.append(s.sub(pos, lo))
            los.append(s.cast(s.cast(lo, A.i64), A.index))
        one = s.const(1.0, elt)
        acc = s.const(0.0, elt)
        for corner in range(1 << n):
            weight, valid, idx = None, None, []
            for i in range(n):
                bit = (corner >> (n - 1 - i)) & 1
                p = s.add(los[i], s.index(1)) if bit else los[i]
                w = fracs[i] if bit else s.sub(one, fracs[i])
                weight = w if weight is None else s.mul(weight, w)
                ok = s.and_(s.cmp("ge", p, s.index(0)), s.cmp("lt", p, sizes[i]))
                valid = ok if valid is None else s.and_(valid, ok)
                idx.append(s.max(s.min(p, s.sub(sizes[i], s.index(1))), s.index(0)))
            v = s.op1("tensor.extract", [x, b.index(0), b.index(1)] + idx, elt)
            acc = s.add(acc, s.select(valid, s.mul(weight, v), s.const(0.0, elt)))
        if mask is not None:
            acc = s.mul(acc, args[n])
        return acc
    return make_generic(cx.b, ins, [init], generic_maps(maps), ["parallel"] * nl, body,
                        [init.type], loc=cx.loc).results[0]


@lowering("DeformConv")
def _deform_conv(cx):
    from .contraction import mac_generic
    x, w, offset = cx.operands[0], cx.operands[1], cx.operands[2]
    n, kernel, w = _spatial(cx, x, w)
    ranked(cx, offset.type)
    elt = element_type(cx.result_type())
    if type(elt) is not A.FloatType:
        raise NotLowerable(f"DeformConv of {elt} is not supported")
    strides = ints_attr(cx, "strides", n, 1, positive=True)
    dilations = ints_attr(cx, "dilations", n, 1, positive=True)
    pads = ints_attr(cx, "pads", 2 * n, 0)
    group, og = _group(cx), _group(cx, "offset_group")
    mask = cx.operands[4] if cx.has_operand(4) else None
    if offset.type.rank != n + 2 or (mask is not None and ranked(cx, mask.type).rank != n + 2):
        raise NotLowerable(f"DeformConv offset and mask must have rank {n + 2}")
    out_sizes = [dim_size(cx, offset, 2 + i) for i in range(n)]
    sampled = _sample_bilinear(cx, x, offset, mask, n, kernel, out_sizes, strides,
                               dilations, pads[:n], og)
    c, m = x.type.shape[1], w.type.shape[0]
    if DYN in (c, m) or c % group or m % group:
        raise NotLowerable("DeformConv needs static channels divisible by group")
    nb = dim_size(cx, x, 0)
    bias = cx.operands[3] if cx.has_operand(3) else None
    acc = acc_type(elt)
    init = bias_init(cx, bias, [nb, m] + out_sizes, acc)
    # channels as (group, per group); loops n g f out... c k...
    sg = expand(cx, sampled, [[0], [1, 2]] + [[3 + i] for i in range(2 * n)],
                [nb, group, c // group] + kernel + out_sizes)
    wg = expand(cx, w, [[0, 1]] + [[i + 1] for i in range(1, n + 2)],
                [group, m // group] + list(w.type.shape[1:]))
    og_init = expand(cx, init, [[0], [1, 2]] + [[3 + i] for i in range(n)],
                     [nb, group, m // group] + out_sizes)
    nl = 4 + 2 * n
    outs, ks = list(range(3, 3 + n)), list(range(4 + n, 4 + 2 * n))
    maps = [map_text(nl, [0, 1, 3 + n] + ks + outs), map_text(nl, [1, 2, 3 + n] + ks),
            map_text(nl, [0, 1, 2] + outs)]
    r = mac_generic(cx, [sg, wg], og_init, maps,
                    ["parallel"] * (3 + n) + ["reduction"] * (1 + n))
    r = collapse(cx, r, [[0], [1, 2]] + [[3 + i] for i in range(n)])
    return [round_to(cx, r, elt)]


# ------------------------------------------------------------------ Col2Im


@lowering("Col2Im")
def _col2im(cx):
    """out[n, c, p...] = sum over the block positions k of the column entry that lands
    on p: one generic over (n, c, p..., k...) reading the input with tensor.extract (the
    block and image sizes may be known only at run time)."""
    from ...dialects.linalg import make_generic
    from ._shape_util import Ix, fit, operand_ints
    x = cx.operands[0]
    t = ranked(cx, x.type)
    rt = cx.result_type()
    if t.rank != 3:
        raise NotLowerable("Col2Im needs an input (N, C * block, L)")
    block = operand_ints(cx, 2, "block_shape")
    n = len(block)
    if n == 0:
        raise NotLowerable("Col2Im block_shape is empty")
    if type(rt) is A.RankedTensorType and rt.rank == n + 2 and DYN not in rt.shape[2:]:
        image = list(rt.shape[2:])
    else:
        image = operand_ints(cx, 1, "image_shape")
    if len(image) != n:
        raise NotLowerable(f"Col2Im image_shape has {len(image)} sizes, block_shape {n}")
    strides = ints_attr(cx, "strides", n, 1, positive=True)
    dilations = ints_attr(cx, "dilations", n, 1, positive=True)
    pads = ints_attr(cx, "pads", 2 * n, 0)
    s0 = scalars(cx)
    ix = Ix(s0)
    kprod, counts = 1, []
    for i in range(n):
        kprod = ix.mul(kprod, block[i])
        span = ix.add(ix.mul(ix.sub(block[i], 1), dilations[i]), 1)
        room = ix.sub(image[i] + pads[i] + pads[n + i] if isinstance(image[i], int)
                      else ix.add(image[i], pads[i] + pads[n + i]), span)
        counts.append(ix.add(ix.floordiv(room, strides[i]), 1))
    elt = t.element_type
    channels = ix.floordiv(dim_size(cx, x, 1), kprod)
    init = filled(cx, [dim_size(cx, x, 0), channels] + image, elt)
    win = empty(cx, block, elt)
    nl = 2 + 2 * n
    maps = [map_text(nl, list(range(2 + n, nl))), map_text(nl, range(2 + n))]
    counts_v, block_v, kprod_v = [ix.v(c) for c in counts], [ix.v(k) for k in block], \
        ix.v(kprod)

    def body(b, args):
        s = ScalarBuilder(b, cx.loc)
        one, zero = s.index(1), s.index(0)
        valid, lflat, kflat = None, zero, zero
        for i in range(n):
            k = b.index(2 + n + i)
            num = s.sub(s.add(b.index(2 + i), s.index(pads[i])),
                        s.mul(k, s.index(dilations[i])))
            q = s.op1("arith.floordivsi", [num, s.index(strides[i])], A.index)
            ok = s.and_(s.cmp("ge", num, zero),
                        s.cmp("eq", s.mul(q, s.index(strides[i])), num))
            ok = s.and_(ok, s.cmp("lt", q, counts_v[i]))
            valid = ok if valid is None else s.and_(valid, ok)
            q = s.max(s.min(q, s.sub(counts_v[i], one)), zero)
            lflat = s.add(s.mul(lflat, counts_v[i]), q)
            kflat = s.add(s.mul(kflat, block_v[i]), k)
        ch = s.add(s.mul(b.index(1), kprod_v), kflat)
        v = s.op1("tensor.extract", [x, b.index(0), ch, lflat], elt)
        return s.add(args[1], s.select(valid, v, s.zero(elt)))
    r = make_generic(cx.b, [win], [init], generic_maps(maps),
                     ["parallel"] * (2 + n) + ["reduction"] * n, body, [init.type],
                     loc=cx.loc).results[0]
    return [fit(cx, r, rt)]
