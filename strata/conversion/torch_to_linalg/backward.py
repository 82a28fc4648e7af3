"""Backward ATen ops that AOTAutograd's backward graphs keep after the core ATen
decompositions (torch.compile(backend="strata") training), each built from the
forward builders: the gradients of a convolution are convolutions.

    convolution_backward     grad_input: the transposed convolution of grad_output by
                             the weights (nn._transposed), as large as the input;
                             grad_weight: a convolution of the input by grad_output
                             (padded_conv, [Note: the weight gradient as a
                             convolution]; one linalg.generic when the spatial sizes
                             are dynamic); grad_bias:
                             the sum of grad_output over all but its channel dim; of a
                             transposed convolution: a convolution and the weight
                             gradient with input and grad_output swapped ([Note: the
                             transposed convolution's gradients])
    avg_pool{1,2,3}d_backward  grad_output / divisor, spread over each window by a
                             transposed depthwise convolution of ones
    _adaptive_avg_pool{2,3}d_backward  grad_output contracted along each axis with the
                             static matrix of its windows' 1 / length

    %r:3 = torch.aten.convolution_backward %go, %x, %w, %bias_sizes, %stride, %pad, %dil,
             %false, %opad, %int1, %mask : ... -> !torch.vtensor<[2,3,8,8],f32>,
             !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>

    max_pool{2,3}d_with_indices_backward  each input position gathers the gradient
                             of the windows whose argmax it is ([Note: max pooling's
                             gradient as a gather]); torch.compile's backend decomposes
                             the 2-d one to a scatter_add (strata/frontends/torch/
                             dynamo.py), torch.export keeps it
"""
from __future__ import annotations

from ..onnx_to_linalg._linalg_util import (acc_type, dim_size, filled, pad, round_to,
                                           transpose)
from ..onnx_to_linalg._shape_util import collapse, expand, extract_slice
from ..onnx_to_linalg.common import DYN, elementwise, ranked, scalars, tensor_type
from ..onnx_to_linalg.convolution import padded_conv
from ..onnx_to_linalg.reduction import reduce_tensor
from ...ir import attributes as A
from ..scalar_builders import element_type, is_float
from . import NotLowerable, lowering
from .nn import _per_dim, _transposed, adaptive_window


def _used(cx, i) -> bool:
    return i < len(cx.op.results) and cx.op.results[i].has_uses()


@lowering("aten.convolution_backward")
def _convolution_backward(cx):
    """convolution_backward(grad_output, input, weight, bias_sizes?, stride, padding,
    dilation, transposed, output_padding, groups, output_mask) -> (grad_input,
    grad_weight, grad_bias); a result nobody uses is not computed."""
    go, x, w = cx.operands[0], cx.operands[1], cx.operands[2]
    tg, tx, tw = ranked(cx, go.type), ranked(cx, x.type), ranked(cx, w.type)
    n = tx.rank - 2
    if n < 1 or tw.rank != tx.rank or tg.rank != tx.rank:
        raise NotLowerable(f"convolution_backward of ranks {tg.rank}, {tx.rank} and "
                           f"{tw.rank}")
    transposed = cx.bool_(7, "transposed")
    kernel = list(tw.shape[2:])
    if DYN in kernel or DYN in (tx.shape[1], tg.shape[1]):
        raise NotLowerable("convolution_backward needs static channels and kernel")
    strides = _per_dim(cx.ints(4, "stride"), n, "stride")
    pads = _per_dim(cx.ints(5, "padding"), n, "padding")
    dilations = _per_dim(cx.ints(6, "dilation"), n, "dilation")
    groups = cx.int_(9, "groups")
    if groups < 1 or tx.shape[1] % groups or tw.shape[0] % groups:
        raise NotLowerable(f"groups {groups} does not divide the channels")
    elt = element_type(cx.result_type(0) if _used(cx, 0) else go.type)
    acc = acc_type(elt)
    results = [None, None, None]
    if _used(cx, 0):
        grad = _transposed_input_grad if transposed else _input_grad
        results[0] = round_to(cx, grad(cx, go, x, w, kernel, groups, strides, pads,
                                       dilations), elt)
    if _used(cx, 1):
        # [Note: the transposed convolution's gradients]: input and grad_output swap
        a, b = (x, go) if transposed else (go, x)
        results[1] = round_to(cx, _weight_grad(cx, a, b, kernel, groups, strides, pads,
                                               dilations, acc), element_type(w.type))
    if _used(cx, 2):
        axes = [0] + list(range(2, tg.rank))
        results[2] = round_to(cx, reduce_tensor(cx, go, axes, acc, lambda s, e: s.zero(e),
                                                lambda s, a, v: s.add(a, s.cast(v, acc))),
                              element_type(cx.result_type(2)))
    return results[:len(cx.op.results)]


def _input_grad(cx, go, x, w, kernel, groups, strides, pads, dilations):
    """The transposed convolution of grad_output, as large as the input: the result
    (out - 1) * stride - 2 * pad + dilation * (k - 1) + 1 + output_padding whose
    output_padding r (< stride) makes it the input's size; r is known when the sizes
    are static. Else it is the largest, stride - 1, and the result is cut to the
    input's run-time sizes (the positions past (out - 1) * stride + ... are sums of no
    window, 0, as ATen's output_padding positions are)."""
    n = len(kernel)
    ins, outs = x.type.shape[2:], go.type.shape[2:]
    if DYN not in ins and DYN not in outs:
        out_pad = [i + 2 * p - d * (k - 1) - 1 - (o - 1) * s for i, o, k, s, p, d in
                   zip(ins, outs, kernel, strides, pads, dilations)]
        if any(r < 0 or r >= s for r, s in zip(out_pad, strides)):
            raise NotLowerable("grad_output's sizes do not fit the input's")
        return _transposed(cx, go, w, None, kernel, groups, strides, pads, dilations,
                           out_pad)
    r = _transposed(cx, go, w, None, kernel, groups, strides, pads, dilations,
                    [s - 1 for s in strides])
    return extract_slice(cx, r, [0] * (n + 2), [dim_size(cx, x, d) for d in range(n + 2)])


# [Note: the transposed convolution's gradients]
# A transposed convolution y = conv_transpose(x, w) is the adjoint of the convolution
# by the same weights: <conv_transpose(x, w), g> = <x, conv(g, w)> for every g, with
# w (C_in, C_out/groups, k...) read as a convolution's (out = C_in, in/groups =
# C_out/groups) and the same stride, padding, dilation and groups. So grad_input is
# conv(grad_output, w), cut to the input's sizes (output_padding's trailing rows are
# read by no window: floor(op / stride) extra outputs), and grad_weight is the weight
# gradient of that convolution, of input grad_output and output gradient x: [Note: the
# weight gradient as a convolution] with the two swapped.


def _transposed_input_grad(cx, go, x, w, kernel, groups, strides, pads, dilations):
    """grad_input of a transposed convolution: conv(grad_output, w), as large as x."""
    n = len(kernel)
    r = padded_conv(cx, go, w, None, acc_type(element_type(go.type)), kernel, groups,
                    strides=strides, dilations=dilations, pads=pads + pads)
    if DYN in x.type.shape or list(r.type.shape) != list(x.type.shape):
        r = extract_slice(cx, r, [0] * (n + 2), [dim_size(cx, x, d) for d in range(n + 2)])
    return r


# [Note: the weight gradient as a convolution]
# grad_weight[o, c, k] = sum over n, y of grad_output[n, o, y] * x_pad[n, c, y*s + k*d]:
# a convolution whose batch is the input's channels, whose channels are the batch, with
# grad_output as the weights, stride and dilation swapped. With groups, group j pairs the
# input channels j*C/g.. with the output channels j*O/g..; the batch runs over C/g:
#   x (N, C, X)   -> (C/g, g*N, X)    [N, g, C/g, X] transposed to [C/g, g, N, X]
#   go (N, O, Y)  -> (O, N, Y)        [N, g, O/g, Y] transposed to [g, O/g, N, Y]
#   conv(..., groups=g, stride=d, dilation=s, padding=p) -> (C/g, O, K') sliced to K,
#   transposed to (O, C/g, K). K' >= K: the windows that fit past the kernel's end are
#   cut off.


def _weight_grad(cx, go, x, kernel, groups, strides, pads, dilations, acc):
    n = len(kernel)
    spatial = list(range(2, n + 2))
    nb = dim_size(cx, x, 0)
    c, o = x.type.shape[1], go.type.shape[1]
    cg, og = c // groups, o // groups
    # x: [N, C, X] -> [N, g, C/g, X] -> [C/g, g, N, X] -> [C/g, g*N, X]
    xs = expand(cx, x, [[0], [1, 2]] + [[d + 1] for d in spatial],
                [nb, groups, cg] + [dim_size(cx, x, d) for d in spatial])
    xs = transpose(cx, xs, [2, 1, 0] + [d + 1 for d in spatial])
    xs = collapse(cx, xs, [[0], [1, 2]] + [[d + 1] for d in spatial])
    # go: [N, O, Y] -> [N, g, O/g, Y] -> [g, O/g, N, Y] -> [O, N, Y]
    gs = expand(cx, go, [[0], [1, 2]] + [[d + 1] for d in spatial],
                [nb, groups, og] + [dim_size(cx, go, d) for d in spatial])
    gs = transpose(cx, gs, [1, 2, 0] + [d + 1 for d in spatial])
    gs = collapse(cx, gs, [[0, 1], [2]] + [[d + 1] for d in spatial])
    ys = list(go.type.shape[2:])
    if DYN in ys or DYN in x.type.shape[2:]:
        return _weight_grad_generic(cx, go, x, kernel, groups, strides, pads, dilations,
                                    acc)
    r = padded_conv(cx, xs, gs, None, acc, ys, groups, strides=dilations,
                    dilations=strides, pads=pads + pads)
    if list(r.type.shape[2:]) != kernel:
        if any(k2 != DYN and k2 < k for k2, k in zip(r.type.shape[2:], kernel)):
            raise NotLowerable("the weight gradient's windows do not cover the kernel")
        r = extract_slice(cx, r, [0] * (n + 2), [cg, o] + kernel)
    return transpose(cx, r, [1, 0] + spatial)


def _weight_grad_generic(cx, go, x, kernel, groups, strides, pads, dilations, acc):
    """The weight gradient of [Note: the weight gradient as a convolution] as one
    linalg.generic, for dynamic spatial sizes (a named convolution needs its window,
    here grad_output's sizes, static): loops (g, o, c, k..., n, y...), the last ones
    reductions, reading grad_output at (n, g, o, y...) and the padded input at
    (n, g, c, y * stride + k * dilation...)."""
    from ...dialects.linalg import make_generic
    from ..scalar_builders import ScalarBuilder
    n = len(kernel)
    spatial = list(range(2, n + 2))
    nb = dim_size(cx, x, 0)
    c, o = x.type.shape[1], go.type.shape[1]
    cg, og = c // groups, o // groups
    zero = scalars(cx).const(0, element_type(x.type))
    xp = pad(cx, x, [0, 0] + pads, [0, 0] + pads, zero)
    xp = expand(cx, xp, [[0], [1, 2]] + [[d + 1] for d in spatial],
                [nb, groups, cg] + [dim_size(cx, xp, d) for d in spatial])
    gs = expand(cx, go, [[0], [1, 2]] + [[d + 1] for d in spatial],
                [nb, groups, og] + [dim_size(cx, go, d) for d in spatial])
    init = filled(cx, [groups, og, cg] + kernel, acc, 0)
    loops = 4 + 2 * n                   # g, o, c, k..., n, y...
    dims = [f"d{i}" for i in range(loops)]
    ks, nd, ys = dims[3:3 + n], dims[3 + n], dims[4 + n:]
    at = [f"{y} * {st} + {k} * {dl}" for y, k, st, dl in zip(ys, ks, strides, dilations)]
    head = f"({', '.join(dims)}) -> "
    maps = [head + f"({nd}, d0, d1, {', '.join(ys)})",
            head + f"({nd}, d0, d2, {', '.join(at)})",
            head + f"(d0, d1, d2, {', '.join(ks)})"]
    iters = ["parallel"] * (3 + n) + ["reduction"] * (1 + n)

    def body(b, args):
        sb = ScalarBuilder(b, cx.op.loc)
        g, v, a = args
        return [sb.add(a, sb.mul(sb.cast(g, acc), sb.cast(v, acc)))]
    r = make_generic(cx.b, [gs, xp], [init], maps, iters, body, [init.type],
                     loc=cx.op.loc).results[0]
    return collapse(cx, r, [[0, 1], [2]] + [[d + 1] for d in spatial])


def _pool_args(cx, n):
    """(kernel, strides, pads) of a pooling backward op's arguments 2-4 (an empty stride:
    the kernel's)."""
    kernel = _per_dim(cx.ints(2, "kernel_size"), n, "kernel_size")
    strides = cx.ints(3, "stride")
    strides = _per_dim(strides, n, "stride") if strides else list(kernel)
    return kernel, strides, _per_dim(cx.ints(4, "padding"), n, "padding")


def _avg_pool_backward(n):
    @lowering(f"aten.avg_pool{n}d_backward")
    def lower(cx):
        """avg_pool{n}d_backward(grad_output, input, kernel_size, stride, padding,
        ceil_mode, count_include_pad, divisor_override?)."""
        go, x = cx.operands[0], cx.operands[1]
        tg, tx = ranked(cx, go.type), ranked(cx, x.type)
        if tx.rank != n + 2 or tg.rank != n + 2:
            raise NotLowerable("pooling an input without a batch dim is not lowered yet")
        if DYN in tx.shape[1:] or DYN in tg.shape[1:]:
            raise NotLowerable("avg_pool backward needs static channels and sizes")
        elt = element_type(tx)
        if not is_float(elt):
            raise NotLowerable("average pooling of integers")
        kernel, strides, pads = _pool_args(cx, n)
        ins, outs = list(tx.shape[2:]), list(tg.shape[2:])
        count_pad = cx.bool_(6, "count_include_pad")
        divisor = None
        if len(cx.op.operands) > 7 and not cx.is_none(7):
            divisor = cx.int_(7, "divisor_override")
            if divisor == 0:
                raise NotLowerable("divisor must be not zero")
        # the count of elements each window averages (ATen's rule, ceil_mode included:
        # a window is cut at the padded end; without count_include_pad, at the input)
        counts = []
        for idx in _positions(outs):
            total = 1
            for i, k, s, p, size in zip(idx, kernel, strides, pads, ins):
                start = i * s - p
                end = min(start + k, size + p)
                if not count_pad:
                    start, end = max(start, 0), min(end, size)
                total *= max(end - start, 1)
            counts.append(divisor if divisor is not None else total)
        count = _dense(cx, outs, elt, counts)
        scaled = elementwise(cx, [go, count], elt, lambda s, g, d: s.div(g, d),
                             result_shape=tg.shape)
        c = tx.shape[1]
        ones = filled(cx, [c, 1] + kernel, elt, 1)
        out_pad = [i + 2 * p - (k - 1) - 1 - (o - 1) * s for i, o, k, s, p in
                   zip(ins, outs, kernel, strides, pads)]
        # r < 0: ceil_mode windows reach past the input's end, into padding whose
        # gradient ATen drops: the transposed result is cropped there; r >= stride:
        # the windows end before the input does, its last positions get 0
        fit = [min(max(r, 0), s - 1) for r, s in zip(out_pad, strides)]
        y = _transposed(cx, scaled, ones, None, kernel, c, strides, pads, [1] * n, fit)
        full = list(y.type.shape)
        if full[2:] != ins:
            lead = [dim_size(cx, y, 0), c]
            y = extract_slice(cx, y, [0] * (n + 2), lead + [min(f, i) for f, i in
                                                            zip(full[2:], ins)])
            y = pad(cx, y, [0] * (n + 2), [0, 0] + [max(i - f, 0) for f, i in
                                                    zip(full[2:], ins)],
                    scalars(cx).zero(elt))
        return [y]


@lowering("aten._adaptive_avg_pool2d_backward", "aten._adaptive_avg_pool3d_backward")
def _adaptive_avg_pool_backward(cx):
    """_adaptive_avg_pool{2,3}d_backward(grad_output, input): output position o of an
    axis of in size I and out size O averages [floor(o I / O), ceil((o + 1) I / O)) (the
    forward's windows, nn._adaptive_avg_pool); a window's count is the product of its
    lengths along the axes, so the gradient is separable: grad_output contracted along
    each axis with the static [I, O] matrix of 1 / length inside the windows."""
    n = 2 if "2d" in cx.aten else 3
    go, x = cx.operands[0], cx.operands[1]
    tg, tx = ranked(cx, go.type), ranked(cx, x.type)
    if tx.rank not in (n + 1, n + 2) or tg.rank != tx.rank:
        raise NotLowerable(f"adaptive pooling backward of ranks {tg.rank} and {tx.rank}")
    ins, outs = list(tx.shape[-n:]), list(tg.shape[-n:])
    if DYN in ins or DYN in outs:
        raise NotLowerable("adaptive pooling backward needs static spatial sizes")
    elt = element_type(cx.result_type(0))
    if not is_float(elt):
        raise NotLowerable("the gradient of an integer adaptive pooling")
    acc = acc_type(elt)
    y = go
    for a, (size, o) in enumerate(zip(ins, outs)):
        weights = [[0.0] * o for _ in range(size)]
        for j in range(o):
            start, end = adaptive_window(j, size, o)
            for i in range(start, end):
                weights[i][j] = 1.0 / (end - start)
        y = _contract_axis(cx, y, _dense(cx, [size, o], acc, weights), tx.rank - n + a,
                           acc)
    return [round_to(cx, y, elt)]


def _contract_axis(cx, y, w, axis, acc):
    """y with dim `axis` (size O) replaced by size I: sum_o y[..., o, ...] * w[i, o]."""
    from ..onnx_to_linalg._linalg_util import map_text
    from ..onnx_to_linalg.common import generic_op
    rank = y.type.rank
    out = [dim_size(cx, y, d) for d in range(rank)]
    out[axis] = w.type.shape[0]
    init = filled(cx, out, acc, 0)
    ydims = list(range(rank))
    ydims[axis] = rank

    def body(s, b, args):
        v, c, a = args
        return [s.add(a, s.mul(s.cast(v, acc), c))]
    return generic_op(cx, [y, w], [init], [map_text(rank + 1, ydims),
                                           map_text(rank + 1, [axis, rank]),
                                           map_text(rank + 1, list(range(rank)))],
                      ["parallel"] * rank + ["reduction"], body)[0]


def _max_pool_backward(n):
    @lowering(f"aten.max_pool{n}d_with_indices_backward")
    def lower(cx):
        """max_pool{n}d_with_indices_backward(grad_output, input, kernel_size, stride,
        padding, dilation, ceil_mode, indices): [Note: max pooling's gradient as a
        gather]."""
        go, x, indices = cx.operands[0], cx.operands[1], cx.operands[7]
        tg, tx, ti = ranked(cx, go.type), ranked(cx, x.type), ranked(cx, indices.type)
        if tx.rank not in (n + 1, n + 2) or tg.rank != tx.rank or ti.rank != tx.rank:
            raise NotLowerable(f"max_pool{n}d backward of ranks {tg.rank}, {tx.rank} and "
                               f"{ti.rank}")
        elt = element_type(cx.result_type(0))
        if not is_float(elt):
            raise NotLowerable("the gradient of an integer max pooling")
        kernel, strides, pads = _pool_args(cx, n)
        dilations = _per_dim(cx.ints(5, "dilation"), n, "dilation")
        if min(kernel + strides + dilations) < 1 or min(pads) < 0:
            raise NotLowerable("kernel, stride and dilation must be positive and padding "
                               "not negative")
        return [round_to(cx, max_pool_backward(cx, go, x, indices, kernel, strides, pads,
                                               dilations, acc_type(elt)), elt)]


for _n in (2, 3):        # ATen has no 1-d one: max_pool1d pools a 2-d view
    _max_pool_backward(_n)


# [Note: max pooling's gradient as a gather]
# ATen scatters: grad_input.flat[indices[o]] += grad_output[o] (torch's decomposition is
# a scatter_add). Here each input position gathers instead, so the loop nest is parallel
# over the input and needs no atomics: one linalg.generic over (leading dims, input
# positions i, taps k), the taps a reduction. Along an axis, tap k of the window at
# output position o covers i = o * stride - pad + k * dilation; so i is covered by tap k
# of the window o = (i + pad - k * dilation) / stride when that divides exactly and
# 0 <= o < out. Each such window whose recorded argmax (indices, flat over the input's
# spatial dims) is i gives it its gradient. A window's tap is found once per position,
# so overlapping windows (stride < kernel) all count, as ATen's sum does.
#     grad_input[l, i] = sum_k (valid(k) and indices[l, o(k)] == flat(i)) ? go[l, o(k)] : 0


def max_pool_backward(cx, go, x, indices, kernel, strides, pads, dilations, acc):
    """The gradient of a max pooling over the last len(kernel) dims of `x`, from the
    gradient of its result `go` and the argmax positions `indices` it recorded ([Note:
    max pooling's gradient as a gather]); in `acc`."""
    def window(s, ix, a, i, k, n_out):
        t = ix.sub(ix.add(i, pads[a]), ix.mul(k, dilations[a]))
        o = ix.floordiv(t, strides[a])
        ok = [ix.cmp("ge", t, 0), ix.cmp("lt", o, n_out)]
        if strides[a] > 1:
            ok.append(ix.cmp("eq", ix.mod(t, strides[a]), 0))
        return o, ok
    return argmax_gradient(cx, go, x, indices, kernel, window, acc)


def argmax_gradient(cx, go, x, indices, taps, window, acc):
    """sum over the windows o holding input position i of go[o] where indices[o] (flat
    over the last len(taps) dims) is i ([Note: max pooling's gradient as a gather]):
    `window(s, ix, axis, i, k, out size)` gives tap k's window along an axis and the
    conditions of its being one (Ix comparisons), `taps` the number of taps per axis."""
    from ..onnx_to_linalg._linalg_util import map_text
    from ..onnx_to_linalg._shape_util import Ix
    from ..onnx_to_linalg.common import empty, generic_op
    n = len(taps)
    rank = x.type.rank
    lead = rank - n
    xs, os_ = [dim_size(cx, x, d) for d in range(rank)], [dim_size(cx, go, d)
                                                          for d in range(rank)]
    loops = rank + n
    window_taps = empty(cx, taps, A.i8)         # gives the tap loops their bounds
    init = filled(cx, xs, acc, 0)
    gelt, ielt = element_type(go.type), element_type(indices.type)

    def body(s, b, args):
        ix = Ix(s)
        valid, at, flat = [], [], 0
        for a in range(n):
            i = b.index(lead + a)
            o, ok = window(s, ix, a, i, b.index(rank + a), os_[lead + a])
            valid += ok
            at.append(ix.v(ix.clamp(o, 0, ix.sub(os_[lead + a], 1))))
            flat = ix.add(ix.mul(flat, xs[lead + a]), i)
        pos = [b.index(d) for d in range(lead)] + at
        g = s.cast(s.op1("tensor.extract", [go, *pos], gelt), acc)
        hit = s.op1("tensor.extract", [indices, *pos], ielt)
        cond = s.cmp("eq", hit, s.cast(ix.v(flat), ielt))
        for c in valid:     # Ix's comparisons known statically are Python bools
            if c is False:
                return [args[-1]]
            if c is not True:
                cond = s.and_(cond, c)
        return [s.add(args[-1], s.select(cond, g, s.zero(acc)))]
    return generic_op(cx, [window_taps], [init],
                      [map_text(loops, list(range(rank, loops))),
                       map_text(loops, list(range(rank)))],
                      ["parallel"] * rank + ["reduction"] * n, body)[0]


@lowering("aten.adaptive_max_pool2d_backward", "aten.adaptive_max_pool3d_backward")
def _adaptive_max_pool_backward(cx):
    """adaptive_max_pool{2,3}d_backward(grad_output, input, indices)."""
    n = 2 if "2d" in cx.aten else 3
    go, x, indices = cx.operands[0], cx.operands[1], cx.operands[2]
    tg, tx, ti = ranked(cx, go.type), ranked(cx, x.type), ranked(cx, indices.type)
    if tx.rank not in (n + 1, n + 2) or tg.rank != tx.rank or ti.rank != tx.rank:
        raise NotLowerable(f"adaptive max pooling backward of ranks {tg.rank}, {tx.rank} "
                           f"and {ti.rank}")
    if DYN in tx.shape[-n:] or DYN in tg.shape[-n:]:
        raise NotLowerable("adaptive max pooling backward needs static spatial sizes")
    elt = element_type(cx.result_type(0))
    if not is_float(elt):
        raise NotLowerable("the gradient of an integer adaptive max pooling")
    ins, outs = list(tx.shape[-n:]), list(tg.shape[-n:])
    taps = []
    for size, o in zip(ins, outs):
        windows = [adaptive_window(j, size, o) for j in range(o)]
        taps.append(max(sum(1 for b, e in windows if b <= i < e) for i in range(size)))

    def window(s, ix, a, i, k, n_out):
        o = ix.add(ix.floordiv(ix.mul(i, outs[a]), ins[a]), k)
        return o, [ix.cmp("lt", o, outs[a]),
                   ix.cmp("le", ix.floordiv(ix.mul(o, ins[a]), outs[a]), i)]
    return [round_to(cx, argmax_gradient(cx, go, x, indices, taps, window,
                                         acc_type(elt)), elt)]


def _positions(sizes):
    import itertools
    return itertools.product(*[range(s) for s in sizes])


def _dense(cx, shape, elt, values):
    """An arith.constant tensor of `shape` and float type `elt` holding `values`."""
    import numpy as np

    from ...ir.dense import DenseElementsAttr
    t = tensor_type(shape, elt)
    arr = np.asarray(values, dtype=np.float64).reshape(shape)
    return scalars(cx).op1("arith.constant", [], t, {"value": DenseElementsAttr(t, arr)})


for _n in (1, 2, 3):
    _avg_pool_backward(_n)
