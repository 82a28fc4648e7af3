"""Neural-network ATen ops: products, convolution, pooling, normalizations, softmax and
reductions, each built by the builder onnx_to_linalg uses for the same computation.

    mm, bmm, matmul            contraction.matmul (named linalg ops, batch broadcast)
    addmm, linear              matmul + an elementwise epilogue (bias, alpha, beta)
    convolution                convolution.padded_conv (groups, strides, dilations)
    max_pool{1,2,3}d           pooling.max_pool (NaN propagates, as in ATen)
    avg_pool{1,2,3}d           pooling.average_pool
    adaptive_avg_pool          average_pool where the windows are regular, else mean
    adaptive_max_pool          max and argmax over ATen's windows (one generic)
    grid_sampler_2d/3d         resize.grid_sample (ONNX GridSample's builder)
    batch norm (inference)     normalization.batch_norm
    native_layer_norm          normalization.mean_var
    _softmax, _log_softmax     attention.softmax
    sum, mean, amax, amin, var, prod, any, all, argmax, argmin, max.dim, min.dim
                               reduction.reduce_tensor / arg_reduce / keep_dims

    %r = torch.aten.convolution %x, %w, %b, %stride, %pad, %dil, %false, %opad, %int1
           : ... -> !torch.vtensor<[1,8,16,16],f32>
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ..onnx_to_linalg._linalg_util import acc_type, dim_size, round_to, transpose, window
from ..onnx_to_linalg._shape_util import finish
from ..onnx_to_linalg.attention import softmax
from ..onnx_to_linalg.common import DYN, elementwise, empty, ranked, scalars, sizes_of
from ..onnx_to_linalg.contraction import matmul
from ..onnx_to_linalg.convolution import conv_transpose, padded_conv
from ..onnx_to_linalg.normalization import batch_norm, mean_var
from ..onnx_to_linalg.pooling import average_pool, max_pool, max_pool_with_indices
from ..onnx_to_linalg.reduction import (arg_reduce, element_count, keep_dims,
                                        reduce_tensor)
from ..scalar_builders import element_type, is_float
from . import DYNAMIC_ARG, NotLowerable, lowering
from .elementwise import _unsigned

# ------------------------------------------------------------------ products


@lowering("aten.mm", "aten.bmm", "aten.matmul")
def _matmul(cx):
    return [matmul(cx, cx.operands[0], cx.operands[1], element_type(cx.result_type()))]


def _bias_epilogue(cx, r, bias, alpha=None, beta=None):
    """`alpha * r + beta * bias` (bias broadcast), in the result's element type."""
    elt = element_type(cx.result_type())
    if bias is None and alpha is None:
        return r
    vals = [r] + ([bias] if bias is not None else [])

    def body(s, y, *b):
        if alpha is not None:
            y = s.mul(y, s.const(alpha, y.type))
        if b:
            c = s.cast(b[0], y.type)
            y = s.add(y, c if beta is None else s.mul(c, s.const(beta, y.type)))
        return y
    return elementwise(cx, vals, elt, body)


def _number(cx, i):
    v = cx.arg(i) if i < len(cx.op.operands) else 1
    if v is DYNAMIC_ARG or isinstance(v, (list, str)) or v is None:
        raise NotLowerable(f"argument #{i} must be a constant number")
    return None if v == 1 else v


@lowering("aten.addmm")
def _addmm(cx):
    """addmm(bias, a, b, beta, alpha) = beta * bias + alpha * (a @ b)."""
    elt = element_type(cx.result_type())
    r = matmul(cx, cx.operands[1], cx.operands[2], elt)
    beta, alpha = _number(cx, 3), _number(cx, 4)
    if beta == 0:
        return [_bias_epilogue(cx, r, None, alpha)]
    return [_bias_epilogue(cx, r, cx.operands[0], alpha, beta)]


@lowering("aten.linear")
def _linear(cx):
    """linear(x, w, b?) = x @ w^T + b."""
    x, w = cx.operands[0], cx.operands[1]
    ranked(cx, w.type)
    wt = transpose(cx, w, [1, 0]) if w.type.rank == 2 else w
    r = matmul(cx, x, wt, element_type(cx.result_type()))
    bias = cx.operands[2] if cx.has_operand(2) else None
    return [_bias_epilogue(cx, r, bias)]


# ------------------------------------------------------------------ convolution


def _per_dim(values, n, what):
    """An `int[n]` argument: one value stands for every dim (ATen's expansion)."""
    if len(values) == 1 and n > 1:
        values = values * n
    if len(values) != n:
        raise NotLowerable(f"{what} has {len(values)} values for {n} spatial dims")
    return values


@lowering("aten.convolution", "aten._convolution")
def _convolution(cx):
    """convolution(x, w, bias?, stride, padding, dilation, transposed, output_padding,
    groups)."""
    n = _conv_rank(cx)
    pads = _per_dim(cx.ints(4, "padding"), n, "padding")
    return convolve(cx, cx.ints(3, "stride"), pads + pads, cx.ints(5, "dilation"),
                    cx.int_(8, "groups"), cx.bool_(6, "transposed"),
                    cx.ints(7, "output_padding"))


def _conv_rank(cx) -> int:
    """The spatial rank of the convolution `cx` lowers (input and filter of one rank)."""
    tx, tw = ranked(cx, cx.operands[0].type), ranked(cx, cx.operands[1].type)
    n = tx.rank - 2
    if n < 1 or tw.rank != tx.rank:
        raise NotLowerable(f"convolution of ranks {tx.rank} and {tw.rank}")
    return n


def convolve(cx, strides, pads, dilations, groups, transposed=False, out_pad=(0,)):
    """The convolution of operands 0 (x), 1 (w) and 2 (bias?) of `cx`, by the one
    builder of both frontends (padded_conv / conv_transpose); `pads` are the begin
    pads of every spatial dim then the end pads (ints or one int per dim otherwise).
    aten.convolution and the conv{1,2,3}d / conv_transpose ops of torch.export's
    training IR (composite.py) lower through it."""
    x, w = cx.operands[0], cx.operands[1]
    n = _conv_rank(cx)
    kernel = list(ranked(cx, w.type).shape[2:])
    if DYN in kernel:
        raise NotLowerable("the kernel sizes must be static")
    strides = _per_dim(strides, n, "stride")
    pads = list(pads) if len(pads) == 2 * n else _per_dim(pads, n, "padding") * 2
    dilations = _per_dim(dilations, n, "dilation")
    if groups < 1:
        raise NotLowerable(f"groups must be positive, not {groups}")
    if any(v <= 0 for v in strides + dilations) or any(p < 0 for p in pads):
        raise NotLowerable("strides and dilations must be positive, padding not negative")
    elt = element_type(cx.result_type())
    bias = cx.operands[2] if cx.has_operand(2) else None
    if transposed:
        if pads[:n] != pads[n:]:
            raise NotLowerable("a transposed convolution pads both ends alike")
        return [_transposed(cx, x, w, bias, kernel, groups, strides, pads[:n], dilations,
                            _per_dim(list(out_pad), n, "output_padding"))]
    r = padded_conv(cx, x, w, bias, acc_type(elt), kernel, groups, strides, dilations,
                    pads)
    return [round_to(cx, r, elt)]


def _transposed(cx, x, w, bias, kernel, groups, strides, pads, dilations, out_pad):
    """The transposed convolution: the full result (in - 1) * stride + (k - 1) *
    dilation + 1 + output_padding, cropped by padding at both ends."""
    from ..onnx_to_linalg._shape_util import Ix
    n = len(kernel)
    if x.type.shape[1] == DYN or w.type.shape[0] == DYN:
        raise NotLowerable("a transposed convolution needs static channels")
    if any(o >= max(st, d) for o, st, d in zip(out_pad, strides, dilations)):
        raise NotLowerable("output padding must be smaller than either stride or dilation")
    ix = Ix(scalars(cx))
    in_sizes = [dim_size(cx, x, 2 + i) for i in range(n)]
    out, ends = [], []
    for i in range(n):
        tail = out_pad[i] + (kernel[i] - 1) * dilations[i] - pads[i]
        out.append(ix.add(ix.mul(ix.sub(in_sizes[i], 1), strides[i]), tail + 1 - pads[i]))
        ends.append(tail)
    if not Ix.known(*in_sizes):
        return conv_transpose(cx, x, w, bias, kernel, groups, strides, dilations, pads,
                              out, ends, in_sizes)
    if any(o <= 0 for o in out):
        raise NotLowerable(f"the output sizes {out} are not positive")
    return conv_transpose(cx, x, w, bias, kernel, groups, strides, dilations, pads, out,
                          None, in_sizes)


# ------------------------------------------------------------------ pooling


def _pool_input(cx, n):
    """(the input with a batch dim, whether it had one) of an `n`-d pooling: an input
    without one is pooled as a batch of one (_unbatched drops it again)."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if t.rank == n + 2:
        return x, True
    if t.rank == n + 1:
        return _with_batch(cx, x), False
    raise NotLowerable(f"{n}-d pooling of a rank-{t.rank} tensor")


def _unbatched(cx, values, batched):
    return values if batched else [None if v is None else _without_batch(cx, v)
                                   for v in values]


def _pool_window(cx, x, n, kernel, stride, padding, dilation, ceil):
    kernel = _per_dim(kernel, n, "kernel_size")
    stride = _per_dim(stride, n, "stride") if stride else list(kernel)
    padding = _per_dim(padding, n, "padding")
    dilation = _per_dim(dilation, n, "dilation")
    for p, k in zip(padding, kernel):
        if 2 * p > k:
            raise NotLowerable("pad should be at most half of the effective kernel size")
    return window(cx, [dim_size(cx, x, i) for i in range(2, n + 2)], kernel, ceil,
                  strides=stride, dilations=dilation, pads=padding + padding)


def _max_pool(n):
    @lowering(f"aten.max_pool{n}d", f"aten.max_pool{n}d_with_indices")
    def lower(cx):
        x, batched = _pool_input(cx, n)
        nargs = len(cx.op.operands)
        win = _pool_window(cx, x, n, cx.ints(1, "kernel_size"),
                           cx.ints(2, "stride") if nargs > 2 else [],
                           cx.ints(3, "padding") if nargs > 3 else [0],
                           cx.ints(4, "dilation") if nargs > 4 else [1],
                           cx.bool_(5, "ceil_mode") if nargs > 5 else False)
        unsigned = _unsigned(element_type(cx.orig_type(0)))
        if len(cx.op.results) > 1 and cx.op.results[1].has_uses():
            return _unbatched(cx, list(max_pool_with_indices(cx, x, n, win, unsigned)),
                              batched)
        y = max_pool(cx, x, n, win, unsigned, nan_propagates=True)
        return _unbatched(cx, [y], batched) + [None] * (len(cx.op.results) - 1)


for _n in (1, 2, 3):
    _max_pool(_n)


def _avg_pool(n):
    @lowering(f"aten.avg_pool{n}d")
    def lower(cx):
        x, batched = _pool_input(cx, n)
        nargs = len(cx.op.operands)
        if not is_float(element_type(x.type)):
            raise NotLowerable("average pooling of integers")
        divisor = None
        if nargs > 6 and not cx.is_none(6):
            divisor = cx.int_(6, "divisor_override")
            if divisor == 0:
                raise NotLowerable("divisor must be not zero")
        win = _pool_window(cx, x, n, cx.ints(1, "kernel_size"),
                           cx.ints(2, "stride") if nargs > 2 else [],
                           cx.ints(3, "padding") if nargs > 3 else [0], [1],
                           cx.bool_(4, "ceil_mode") if nargs > 4 else False)
        count_pad = cx.bool_(5, "count_include_pad") if nargs > 5 else True
        return _unbatched(cx, [average_pool(cx, x, n, win, count_pad, divisor)], batched)


for _n in (1, 2, 3):
    _avg_pool(_n)


@lowering("aten.adaptive_avg_pool1d", "aten.adaptive_avg_pool2d",
          "aten._adaptive_avg_pool2d", "aten.adaptive_avg_pool3d",
          "aten._adaptive_avg_pool3d")
def _adaptive_avg_pool(cx):
    """Output position i of an axis of in size I and out size O averages the input over
    [floor(i I / O), ceil((i + 1) I / O)) (ATen's windows). An output of 1 everywhere is
    the mean; regular windows (I a multiple of O) an average pool with kernel = stride =
    I / O; others a generic over the largest window, positions past each window's end
    left out. A 3-d input (no batch dim) is pooled as a batch of one."""
    x, t, ins, out = _adaptive_args(cx)
    n = len(out)
    batched = t.rank == n + 2
    elt = element_type(x.type)
    if all(o == 1 for o in out):
        return [_mean(cx, x, list(range(t.rank - n, t.rank)), True, elt)]
    xb = x if batched else _with_batch(cx, x)
    if DYN in ins:   # sizes known at run time: the windows' bounds computed from them
        from ..onnx_to_linalg._index_check import check_dims
        ins = [dim_size(cx, xb, 2 + j) for j in range(n)]
        check_dims(cx, [(1, a, "le", "adaptive pooling of an empty input dim")
                        for a in ins if not isinstance(a, int)])
        y = _adaptive_windows(cx, xb, ins, out)
    elif all(i % o == 0 for i, o in zip(ins, out)):
        k = [i // o for i, o in zip(ins, out)]
        win = window(cx, ins, k, False, strides=k, dilations=[1] * n, pads=[0] * (2 * n))
        y = average_pool(cx, xb, n, win, False)
    else:
        y = _adaptive_windows(cx, xb, ins, out)
    return [y if batched else _without_batch(cx, y)]


def _adaptive_args(cx):
    """(x, its type, the pooled static sizes, the output sizes) of adaptive_*_pool(x,
    output_size): the last len(output_size) dims pooled, with or without a batch dim."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    out = cx.ints(1, "output_size")
    n = len(out)
    if t.rank not in (n + 1, n + 2):
        raise NotLowerable(f"adaptive pooling of {n} dims of a rank-{t.rank} tensor")
    ins = list(t.shape[-n:])      # DYN where a size is known at run time only
    out = [i if o is None else o for o, i in zip(out, ins)]
    if DYN in out:
        raise NotLowerable("an output size of None keeps a dynamic input size")
    if any(o <= 0 for o in out):
        raise NotLowerable(f"output sizes {out} must be positive")
    return x, t, ins, out


def adaptive_window(j, size, out):
    """[start, end) of output position j of an adaptive pooling of `size` into `out`
    (ATen's windows)."""
    return j * size // out, -(-(j + 1) * size // out)


def _ix(s, a):
    return s.index(a) if isinstance(a, int) else a


def _window_bounds(s, i, a, o):
    """adaptive_window of run-time index Value `i` (index Values) over an input of size
    `a` (an int or an index Value)."""
    start = s.op1("arith.floordivsi", [s.mul(i, _ix(s, a)), s.index(o)], A.index)
    end = s.op1("arith.ceildivsi", [s.mul(s.add(i, s.index(1)), _ix(s, a)),
                                    s.index(o)], A.index)
    return start, end


def _longest_windows(ins, outs):
    return [max(e - b for b, e in (adaptive_window(j, a, o) for j in range(o)))
            for a, o in zip(ins, outs)]


@lowering("aten.adaptive_max_pool1d", "aten.adaptive_max_pool2d",
          "aten.adaptive_max_pool3d")
def _adaptive_max_pool(cx):
    """adaptive_max_pool{1,2,3}d(x, output_size) -> (values, indices): the windows of
    _adaptive_avg_pool, each's largest element and its position (flat over the pooled
    dims); ties give the first, NaN propagates (the last NaN's position), as ATen's
    scan. One linalg.generic over (leading dims, outputs, taps up to the longest
    window), the taps a reduction whose combine does not depend on their order."""
    from ..onnx_to_linalg._linalg_util import filled, map_text
    from ..onnx_to_linalg.common import generic_op
    x, t, ins, out = _adaptive_args(cx)
    if DYN in ins:
        raise NotLowerable("adaptive max pooling of dynamic spatial sizes")
    n = len(out)
    elt = element_type(x.type)
    if not is_float(elt):
        raise NotLowerable("adaptive max pooling of integers")
    lead = t.rank - n
    kmax = _longest_windows(ins, out)
    loops = t.rank + n
    sizes = [dim_size(cx, x, d) for d in range(lead)] + out
    best = filled(cx, sizes, elt, float("-inf"))
    where = filled(cx, sizes, A.i64, 2 ** 63 - 1)
    taps = empty(cx, kmax, A.i8)

    def body(s, b, args):
        _, v_best, i_best = args
        at, valid, flat = [b.index(d) for d in range(lead)], None, None
        for j, (a, o) in enumerate(zip(ins, out)):
            i = b.index(lead + j)
            start, end = _window_bounds(s, i, a, o)
            p = s.add(start, b.index(t.rank + j))
            ok = s.cmp("lt", p, end)
            valid = ok if valid is None else s.and_(valid, ok)
            p = s.min(p, s.index(a - 1))
            at.append(p)
            flat = p if flat is None else s.add(s.mul(flat, s.index(a)), p)
        v = s.op1("tensor.extract", [x, *at], elt)
        k = s.cast(flat, A.i64)
        nan, nan_best = s.cmp("uno", v, v), s.cmp("uno", v_best, v_best)
        better = s.or_(s.cmp("gt", v, v_best),
                       s.and_(s.cmp("eq", v, v_best), s.cmp("lt", k, i_best)))
        better = s.and_(better, s.not_(nan_best))
        take_nan = s.and_(nan, s.or_(s.not_(nan_best), s.cmp("gt", k, i_best)))
        take = s.and_(valid, s.or_(better, take_nan))
        return [s.select(take, v, v_best), s.select(take, k, i_best)]
    res = generic_op(cx, [taps], [best, where],
                     [map_text(loops, list(range(t.rank, loops))),
                      map_text(loops, list(range(t.rank))),
                      map_text(loops, list(range(t.rank)))],
                     ["parallel"] * t.rank + ["reduction"] * n, body)
    return [finish(cx, res[0]), finish(cx, res[1], 1)]


def _with_batch(cx, x):
    from ..onnx_to_linalg._shape_util import expand
    r = x.type.rank
    return expand(cx, x, [[0, 1]] + [[k + 1] for k in range(1, r)],
                  [1] + sizes_of(cx, x))


def _without_batch(cx, y):
    from ..onnx_to_linalg._shape_util import collapse
    r = y.type.rank
    return collapse(cx, y, [[0, 1]] + [[k] for k in range(2, r)])


def _adaptive_windows(cx, x, ins, out):
    """The adaptive average of (N, C, in...) `x` over irregular windows; `ins` the input
    sizes, ints or index Values (then the windows are at most ceil(in / out) + 1 long,
    none for an empty input, whose positions are not read)."""
    from ...dialects.linalg import make_generic
    from ..onnx_to_linalg._linalg_util import filled, generic_maps, map_text
    n = len(ins)
    elt = element_type(x.type)
    s0 = scalars(cx)
    kmax = [max(-(-((i + 1) * a) // o) - (i * a) // o for i in range(o))
            if isinstance(a, int) else
            s0.add(s0.op1("arith.ceildivsi", [a, s0.index(o)], A.index),
                   s0.min(a, s0.index(1)))
            for a, o in zip(ins, out)]
    last = [a - 1 if isinstance(a, int) else s0.sub(a, s0.index(1)) for a in ins]
    nl = 2 + 2 * n
    outs, ks = list(range(2, 2 + n)), list(range(2 + n, 2 + 2 * n))
    sizes = [dim_size(cx, x, 0), dim_size(cx, x, 1)] + out
    init = filled(cx, sizes, elt, 0.0)
    shape = empty(cx, kmax, elt)

    def body(b, args):
        from ..scalar_builders import ScalarBuilder
        s = ScalarBuilder(b, cx.loc)
        at, valid = [b.index(0), b.index(1)], None
        for j, (a, o) in enumerate(zip(ins, out)):
            start, end = _window_bounds(s, b.index(outs[j]), a, o)
            p = s.add(start, b.index(ks[j]))
            ok = s.cmp("lt", p, end)
            valid = ok if valid is None else s.and_(valid, ok)
            at.append(s.min(p, _ix(s, last[j])))
        v = s.op1("tensor.extract", [x, *at], elt)
        return s.add(args[-1], s.select(valid, v, s.zero(elt)))
    sums = make_generic(cx.b, [shape], [init], generic_maps([map_text(nl, ks),
                                                            map_text(nl, [0, 1] + outs)]),
                        ["parallel"] * (2 + n) + ["reduction"] * n, body, [init.type],
                        loc=cx.loc).results[0]

    def average(s, v):
        count = s.index(1)
        for j, (a, o) in enumerate(zip(ins, out)):
            i = s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(2 + j, A.i64)})
            start, end = _window_bounds(s, i, a, o)
            count = s.mul(count, s.sub(end, start))
        return s.div(v, s.cast(count, elt))
    return elementwise(cx, [sums], elt, average)


# ------------------------------------------------------------------ normalization


def _eps(cx, i):
    return cx.float_(i, "eps")


@lowering("aten._native_batch_norm_legit_no_training", "aten.native_batch_norm",
          "aten._native_batch_norm_legit", "aten._native_batch_norm_legit.no_stats")
def _batch_norm(cx):
    """Inference (running statistics) or training (batch statistics) batch norm; the
    saved mean and inverse std are empty in inference, as ATen returns them."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if t.rank < 2:
        raise NotLowerable("batch norm needs an input of rank >= 2")
    name = cx.aten
    w = cx.operands[1] if cx.has_operand(1) else None
    b = cx.operands[2] if cx.has_operand(2) else None
    if name == "aten._native_batch_norm_legit_no_training":
        training, eps = False, _eps(cx, 6)
    elif name == "aten.native_batch_norm":
        training, eps = cx.bool_(5, "training"), _eps(cx, 7)
    elif name == "aten._native_batch_norm_legit":
        training, eps = cx.bool_(5, "training"), _eps(cx, 7)
    else:   # no_stats: (x, w, b, training, momentum, eps)
        training, eps = True, _eps(cx, 5)
    elt = t.element_type
    if not training:
        if name == "aten._native_batch_norm_legit.no_stats":
            raise NotLowerable("batch norm without running statistics needs training")
        y = batch_norm(cx, x, w, b, cx.operands[3], cx.operands[4], eps)
        return [y] + [empty(cx, [0], elt) for _ in cx.op.results[1:]]
    y, mean, var, rstd, _ = _batch_statistics(cx, x, w, b, eps)
    return [y, mean, rstd][:len(cx.op.results)]


def _rstd(cx, var, eps):
    """1 / sqrt(var + eps), elementwise."""
    elt = element_type(var.type)
    return elementwise(cx, [var], elt, lambda s, v: s.math("rsqrt", s.add(
        v, s.const(eps, elt))))


def _batch_statistics(cx, x, w, b, eps):
    """Training batch norm of `x` by its own statistics over every dim but 1: (y,
    mean, variance, inverse std, the element count of each channel)."""
    out = x.type.element_type
    elt = acc_type(out)         # [Note: narrow floats accumulate in f32]
    if elt is not out:
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))
    axes = [d for d in range(x.type.rank) if d != 1]
    sizes = sizes_of(cx, x)
    mean, _, var, _ = mean_var(cx, x, axes, elt, sizes)
    y = batch_norm(cx, x, w, b, mean, var, eps)
    rstd = _rstd(cx, var, eps)
    return (*(_in_acc(cx, v, out) for v in (y, mean, var, rstd)),
            element_count(scalars(cx), sizes, axes, out))


@lowering("aten._native_batch_norm_legit_functional")
def _batch_norm_functional(cx):
    """Training batch norm as functionalization writes it: (x, w?, b?, running_mean,
    running_var, training, momentum, eps) -> (y, batch mean, batch inverse std, new
    running mean, new running var); the running variance takes the unbiased batch
    variance, as ATen's."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if t.rank < 2:
        raise NotLowerable("batch norm needs an input of rank >= 2")
    w = cx.operands[1] if cx.has_operand(1) else None
    b = cx.operands[2] if cx.has_operand(2) else None
    rm, rv = cx.operands[3], cx.operands[4]
    momentum, eps = cx.float_(6, "momentum"), _eps(cx, 7)
    elt = t.element_type
    if not cx.bool_(5, "training"):
        y = batch_norm(cx, x, w, b, rm, rv, eps)
        return [y, empty(cx, [0], elt), empty(cx, [0], elt), rm, rv]
    y, mean, var, rstd, n = _batch_statistics(cx, x, w, b, eps)
    s0 = scalars(cx)
    unbias = s0.div(n, s0.max(s0.sub(n, s0.one(elt)), s0.one(elt)))
    me = element_type(rm.type)

    def running(s, old, cur, scale=None):
        cur = s.cast(cur, me)
        if scale is not None:
            cur = s.mul(cur, s.cast(scale, me))
        return s.add(s.mul(old, s.const(1 - momentum, me)), s.mul(cur, s.const(momentum, me)))
    new_mean = elementwise(cx, [rm, mean], me, running)
    new_var = elementwise(cx, [rv, var], me, lambda s, o, c: running(s, o, c, unbias))
    return [y, mean, rstd, new_mean, new_var]


@lowering("aten.native_group_norm")
def _group_norm(cx):
    """native_group_norm(x, w?, b?, N, C, HxW, group, eps) -> (y, mean (N, G), rstd
    (N, G)): x viewed as (N, G, C/G * HxW), normalized over its last dim, then scaled
    and shifted per channel."""
    from ..onnx_to_linalg._shape_util import reshape_to
    from ..onnx_to_linalg.common import axis_map
    from ...ir.affine import AffineMap
    from ..onnx_to_linalg._shape_util import Ix
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if t.rank < 2 or t.shape[1] == DYN:
        raise NotLowerable("group norm needs a static channel dim")
    g = cx.int_(6, "group")
    c = t.shape[1]
    if g <= 0 or c % g:
        raise NotLowerable(f"{g} groups do not divide {c} channels")
    sizes = sizes_of(cx, x)       # batch and spatial sizes may be symbolic
    ix = Ix(scalars(cx))
    rest = c // g
    for d in sizes[2:]:
        rest = ix.mul(rest, d)
    out = t.element_type
    elt = acc_type(out)         # [Note: narrow floats accumulate in f32]
    if elt is not out:
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))
    eps = _eps(cx, 7)
    grouped = [sizes[0], g, rest]
    xg = reshape_to(cx, x, grouped, sizes)
    mean, mean_k, var, var_k = mean_var(cx, xg, [2], elt, grouped)
    rstd_k = _rstd(cx, var_k, eps)
    yg = elementwise(cx, [xg, mean_k, rstd_k], elt,
                     lambda s, v, m, r: s.mul(s.sub(v, m), r))
    y = reshape_to(cx, yg, sizes, grouped)
    has_w, has_b = cx.has_operand(1), cx.has_operand(2)
    if has_w or has_b:
        vals = [y] + [cx.operands[i] for i, h in ((1, has_w), (2, has_b)) if h]
        maps = [AffineMap.identity(t.rank)] + [axis_map(t.rank, 1)] * (len(vals) - 1)

        def affine(s, v, *wb):
            wb = list(wb)
            if has_w:
                v = s.mul(v, s.cast(wb.pop(0), elt))
            if has_b:
                v = s.add(v, s.cast(wb.pop(0), elt))
            return v
        y = elementwise(cx, vals, elt, affine, maps=maps)
    return [_in_acc(cx, y, out)] + [
        _in_acc(cx, v, element_type(cx.result_type(i)))
        for i, v in ((1, mean), (2, _rstd(cx, var, eps))) if i < len(cx.op.results)]


@lowering("aten.native_layer_norm")
def _layer_norm(cx):
    """native_layer_norm(x, normalized_shape, w?, b?, eps) -> (y, mean, rstd); mean and
    rstd keep the normalized dims as 1s."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    k = len(cx.ints(1, "normalized_shape"))
    if k > t.rank or k == 0:
        raise NotLowerable(f"normalized_shape of {k} dims for a rank-{t.rank} input")
    axes = list(range(t.rank - k, t.rank))
    out = t.element_type
    elt = acc_type(out)         # [Note: narrow floats accumulate in f32]
    if elt is not out:
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))
    eps = _eps(cx, 4)
    sizes = sizes_of(cx, x)
    _, mean_k, _, var_k = mean_var(cx, x, axes, elt, sizes)
    rstd = _rstd(cx, var_k, eps)
    vals = [x, mean_k, rstd]
    has_w, has_b = cx.has_operand(2), cx.has_operand(3)
    vals += [cx.operands[2]] if has_w else []
    vals += [cx.operands[3]] if has_b else []

    def body(s, v, m, r, *wb):
        wb = list(wb)
        y = s.mul(s.sub(v, m), r)
        if has_w:
            y = s.mul(y, s.cast(wb.pop(0), elt))
        if has_b:
            y = s.add(y, s.cast(wb.pop(0), elt))
        return y if elt is out else s.cast(y, out)
    y = elementwise(cx, vals, out, body, result_shape=t.shape)
    stats = [_in_acc(cx, v, element_type(cx.result_type(i)))
             for i, v in enumerate((mean_k, rstd), 1) if i < len(cx.op.results)]
    return [y, *stats][:len(cx.op.results)]


# ------------------------------------------------------------------ softmax


@lowering("aten._softmax", "aten._log_softmax", "aten.softmax.int",
          "aten.log_softmax.int")
def _softmax(cx):
    """softmax(x, dim, dtype?) / _softmax(x, dim, half_to_float): computed in the
    result's element type, `x` cast to it first (a `dtype`, or half_to_float's f32), as
    torch's decompositions of both do."""
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = element_type(cx.result_type())
    if not is_float(elt):
        raise NotLowerable("softmax of integers")
    if t.element_type is not elt:
        signed = not _unsigned(element_type(cx.orig_type(0)))
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt, signed))
        t = ranked(cx, x.type)
    axis = _axis(cx.int_(1, "dim"), t.rank)
    if t.rank == 0:
        return [elementwise(cx, [x], t.element_type, lambda s, v: s.zero(
            v.type) if "log" in cx.aten else s.one(v.type))]
    acc = acc_type(elt)         # [Note: narrow floats accumulate in f32]
    if acc is not elt:
        x = elementwise(cx, [x], acc, lambda s, v: s.cast(v, acc))
    return [_in_acc(cx, softmax(cx, x, axis, log="log" in cx.aten), elt)]


# ------------------------------------------------------------------ reductions


def _axis(d, rank):
    r = max(rank, 1)
    if not -r <= d < r:
        raise NotLowerable(f"dim {d} out of range for rank {rank}")
    return d % r


def _dims(cx, i, rank):
    """The reduced dims of argument `i` (None or an empty list: all of them)."""
    if i >= len(cx.op.operands) or cx.is_none(i):
        return list(range(rank))
    ds = cx.ints(i, "dim")
    if not ds:
        return list(range(rank))
    out = sorted({_axis(d, rank) for d in ds})
    return out if rank else []


def _reduce(cx, x, axes, keepdim, elt, init, combine, pre=None):
    sizes = sizes_of(cx, x)
    y = reduce_tensor(cx, x, axes, elt, init, combine, pre)
    return keep_dims(cx, y, x.type.rank, axes, sizes) if keepdim else y


# [Note: narrow floats accumulate in f32]
# ATen reduces float16 and bfloat16 tensors (sum, prod, mean, norms, cumsum) in float32,
# its `acc_type`, rounding only the result: accumulated in 16 bits, a sum of 16384
# values near 1 stops growing at 2048 in float16 and at 256 in bfloat16 (bfloat16's
# ulp there is 2), and a mean or a layer of such sums is wrong by far more than the
# dtype's precision. So these lowerings accumulate in `acc_type(elt)` and cast the
# result to the result's element type once (`_in_acc`).


def _in_acc(cx, y, elt):
    """`y`, computed in acc_type(elt), as `elt` ([Note: narrow floats accumulate in
    f32])."""
    if y.type.element_type is elt:
        return y
    return elementwise(cx, [y], elt, lambda s, v: s.cast(v, elt))


def _keepdim(cx, i):
    return cx.bool_(i, "keepdim") if i < len(cx.op.operands) else False


def _reduced(cx, x, whole, list_dims=True):
    """(axes, keepdim) of a reduction op: all dims for the overload without dims
    (`whole`), else argument 1 (a list of dims, or one dim) and argument 2."""
    rank = ranked(cx, x.type).rank
    if whole:
        return list(range(rank)), False
    if list_dims:
        return _dims(cx, 1, rank), _keepdim(cx, 2)
    return [_axis(cx.int_(1, "dim"), rank)], _keepdim(cx, 2)


def _sum_like(name, whole, list_dims, neutral, bool_combine, combine):
    """sum (or prod): in the result's element type; of bools, any (all)."""
    @lowering(f"aten.{name}", whole)
    def lower(cx):
        x = cx.operands[0]
        axes, keep = _reduced(cx, x, cx.aten == f"aten.{name}", list_dims)
        elt = element_type(cx.result_type())
        acc = acc_type(elt)     # [Note: narrow floats accumulate in f32]
        return [_in_acc(cx, _reduce(cx, x, axes, keep, acc, neutral,
                                    bool_combine if elt is A.i1 else combine), elt)]


_sum_like("sum", "aten.sum.dim_IntList", True, lambda s, e: s.zero(e),
          lambda s, a, v: s.or_(a, v), lambda s, a, v: s.add(a, v))
_sum_like("prod", "aten.prod.dim_int", False, lambda s, e: s.one(e),
          lambda s, a, v: s.and_(a, v), lambda s, a, v: s.mul(a, v))


def _mean(cx, x, axes, keep, elt):
    sizes = sizes_of(cx, x)
    acc = acc_type(elt)         # [Note: narrow floats accumulate in f32]
    y = reduce_tensor(cx, x, axes, acc, lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v))
    cnt = element_count(scalars(cx), sizes, axes, acc)
    y = elementwise(cx, [y], elt, lambda s, v: s.cast(s.div(v, cnt), elt)
                    if acc is not elt else s.div(v, cnt))
    return keep_dims(cx, y, x.type.rank, axes, sizes) if keep else y


@lowering("aten.mean", "aten.mean.dim")
def _mean_op(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    elt = element_type(cx.result_type())
    if not is_float(elt):
        raise NotLowerable("mean of integers")
    if cx.aten == "aten.mean":
        return [_mean(cx, x, list(range(rank)), False, elt)]
    return [_mean(cx, x, _dims(cx, 1, rank), _keepdim(cx, 2), elt)]


def _extreme(better):
    def init(s, e):
        return s.lowest(e) if better == "max" else s.highest(e)
    return init


def _minmax_reduce(cx, x, axes, keep, kind):
    elt = element_type(x.type)
    unsigned = _unsigned(element_type(cx.orig_type(0))) or elt is A.i1
    signed = not unsigned

    def init(s, e):
        if kind == "max":
            return s.zero(e) if unsigned else s.lowest(e)
        return s.highest(e, signed)

    def combine(s, a, v):
        return s.max(a, v, signed) if kind == "max" else s.min(a, v, signed)
    return _reduce(cx, x, axes, keep, elt, init, combine)


@lowering("aten.amax", "aten.amin")
def _amax(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    return [_minmax_reduce(cx, x, _dims(cx, 1, rank), _keepdim(cx, 2), cx.aten[6:])]


@lowering("aten.max", "aten.min")
def _max_all(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    if any(d == 0 for d in x.type.shape):
        raise NotLowerable("max of an empty tensor")
    return [_minmax_reduce(cx, x, list(range(rank)), False, cx.aten[5:])]


@lowering("aten.max.dim", "aten.min.dim")
def _max_dim(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    kind = cx.aten[5:8]
    axis = _axis(cx.int_(1, "dim"), rank)
    keep = _keepdim(cx, 2)
    if rank == 0:
        return [x, scalars(cx).const(0, A.RankedTensorType((), A.i64))]
    values = _minmax_reduce(cx, x, [axis], keep, kind)
    idx = arg_reduce(cx, x, axis, "gt" if kind == "max" else "lt", keep)
    return [values, idx]


@lowering("aten.argmax", "aten.argmin")
def _argmax(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    better = "gt" if cx.aten == "aten.argmax" else "lt"
    keep = _keepdim(cx, 2)
    if rank == 0:       # the one element is the best, at index 0
        if not cx.is_none(1):
            _axis(cx.int_(1, "dim"), 0)
        return [scalars(cx).const(0, A.RankedTensorType((), A.i64))]
    if cx.is_none(1):
        if rank > 1:
            from ..onnx_to_linalg._shape_util import collapse
            x = collapse(cx, x, [list(range(rank))])
        y = arg_reduce(cx, x, 0, better, False)
        if keep:
            from ..onnx_to_linalg._shape_util import expand
            y = expand(cx, y, [], [1] * rank)
        return [y]
    axis = _axis(cx.int_(1, "dim"), rank)
    return [arg_reduce(cx, x, axis, better, keep)]


@lowering("aten.var.correction", "aten.var.dim", "aten.std.correction", "aten.std.dim",
          "aten.var", "aten.std")
def _var(cx):
    """Variance (std: its square root) over the dims, divided by N - correction."""
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    out = element_type(cx.result_type())
    if not is_float(out):
        raise NotLowerable("variance of integers")
    elt = acc_type(out)         # [Note: narrow floats accumulate in f32]
    if x.type.element_type is not elt:
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))
    name = cx.aten
    nargs = len(cx.op.operands)
    if name.endswith(".correction"):
        axes = _dims(cx, 1, rank)
        corr = 1.0 if nargs < 3 or cx.is_none(2) else cx.float_(2, "correction")
        keep = _keepdim(cx, 3)
    elif name.endswith(".dim"):
        axes = _dims(cx, 1, rank)
        corr = 1.0 if cx.bool_(2, "unbiased") else 0.0
        keep = _keepdim(cx, 3)
    else:
        axes, keep = list(range(rank)), False
        corr = 1.0 if nargs < 2 or cx.bool_(1, "unbiased") else 0.0
    sizes = sizes_of(cx, x)
    _, mean_k, _, _ = mean_var(cx, x, axes, elt, sizes)
    sq = elementwise(cx, [x, mean_k], elt, lambda s, a, m: s.mul(s.sub(a, m), s.sub(a, m)))
    total = reduce_tensor(cx, sq, axes, elt, lambda s, e: s.zero(e),
                          lambda s, a, v: s.add(a, v))
    s0 = scalars(cx)
    n = element_count(s0, sizes, axes, elt)
    denom = s0.max(s0.sub(n, s0.const(corr, elt)), s0.zero(elt))
    is_std = name.startswith("aten.std")

    def fin(s, v):
        q = s.div(v, denom)
        return s.math("sqrt", q) if is_std else q
    y = _in_acc(cx, elementwise(cx, [total], elt, fin), out)
    return [keep_dims(cx, y, rank, axes, sizes) if keep else y]


@lowering("aten.any", "aten.any.dim", "aten.any.dims", "aten.all", "aten.all.dim",
          "aten.all.dims")
def _any_all(cx):
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    is_any = cx.aten.startswith("aten.any")
    if cx.aten in ("aten.any", "aten.all"):
        axes, keep = list(range(rank)), False
    elif cx.aten.endswith(".dims"):
        axes, keep = _dims(cx, 1, rank), _keepdim(cx, 2)
    else:
        axes, keep = [_axis(cx.int_(1, "dim"), rank)], _keepdim(cx, 2)
    out = element_type(cx.result_type())

    def pre(s, v):
        return v if v.type is A.i1 else s.cast(v, A.i1)
    y = _reduce(cx, x, axes, keep, A.i1, lambda s, e: s.const(0 if is_any else 1, e),
                (lambda s, a, v: s.or_(a, v)) if is_any else (lambda s, a, v: s.and_(a, v)),
                pre)
    if out is not A.i1:   # uint8 inputs give uint8
        y = elementwise(cx, [y], out, lambda s, v: s.cast(v, out, False))
    return [y]


@lowering("aten.cumsum", "aten.cumprod")
def _cumsum(cx):
    """cumsum/cumprod(x, dim, dtype?) in the result's element type."""
    from ..onnx_to_linalg.misc import cumulate
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    elt = element_type(cx.result_type())
    if rank == 0:
        return [elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))]
    axis = _axis(cx.int_(1, "dim"), rank)
    acc = acc_type(elt)         # [Note: narrow floats accumulate in f32]
    if x.type.element_type is not acc:
        signed = not _unsigned(element_type(cx.orig_type(0)))
        x = elementwise(cx, [x], acc, lambda s, v: s.cast(v, acc, signed))
    if cx.aten == "aten.cumsum":
        return [_in_acc(cx, cumulate(cx, x, axis, lambda s, a, v: s.add(a, v),
                                     lambda s, e: s.zero(e), False, False), elt)]
    return [_in_acc(cx, cumulate(cx, x, axis, lambda s, a, v: s.mul(a, v),
                                 lambda s, e: s.one(e), False, False), elt)]


# ------------------------------------------------------------------ resampling

# op -> (Resize mode, index of align_corners or None, nearest rounding, antialiased)
_UPSAMPLE = {}
for _n in (1, 2, 3):
    _UPSAMPLE[f"upsample_nearest{_n}d"] = ("nearest", None, "floor", False)
    _UPSAMPLE[f"_upsample_nearest_exact{_n}d"] = ("nearest", None, "round_prefer_ceil",
                                                  False)
_UPSAMPLE.update({"upsample_linear1d": ("linear", 2, None, False),
                  "upsample_bilinear2d": ("linear", 2, None, False),
                  "upsample_trilinear3d": ("linear", 2, None, False),
                  "upsample_bicubic2d": ("cubic", 2, None, False),
                  "_upsample_bilinear2d_aa": ("linear", 2, None, True),
                  "_upsample_bicubic2d_aa": ("cubic", 2, None, True)})

# [Note: antialiased interpolation]
# F.interpolate(..., antialias=True) (`aten._upsample_{bilinear,bicubic}2d_aa`; timm
# resamples position embeddings with it) is Pillow's resampling: output i reads the
# inputs j in [0, n_in) with |j - x| < support around x = s * (i + 0.5) - 0.5, where
# s = 1 / scale (given) or n_in / n_out, the filter stretched by s when shrinking
# (support s * (1 or 2)), weighted filter((j - x) / max(s, 1)) and divided by the sum
# of the weights read; bicubic's filter is Keys' with a = -0.5 (Pillow's), not -0.75.
# That is ONNX Resize with antialias=1, exclude_outside=1 (taps outside the input
# dropped, the rest renormalized), cubic_coeff_a=-0.5 and half_pixel coordinates
# (ATen's formula, also for a one-pixel output), so the shared resampling builder
# computes it. align_corners=True is s = (n_in - 1) / (n_out - 1) in the same formula
# (ATen accepts it: [Note: antialiased align_corners] in onnx_to_linalg/resize.py). The
# gradients (`_upsample_*2d_aa_backward`) are the adjoint of the same weights
# (resize.resample_adjoint).


def _upsample(name):
    mode, align_i, rounding, antialias = _UPSAMPLE[name]

    @lowering(f"aten.{name}", f"aten.{name}.vec")
    def lower(cx):
        """The `.vec` form: (x, output_size?, [align_corners,] scale_factors?); the
        other: (x, output_size, [align_corners,] scales...?). Given scales decide the
        coordinates (as ATen: 1 / scale), else in / out."""
        from ..onnx_to_linalg.resize import resample
        x = cx.operands[0]
        t = ranked(cx, x.type)
        n = t.rank - 2
        axes = list(range(2, t.rank))
        align = cx.bool_(align_i, "align_corners") if align_i is not None else False
        rest = 2 if align_i is None else 3
        scales = None
        if cx.aten.endswith(".vec"):
            if not cx.is_none(rest):
                scales = _per_dim([float(v) for v in _numbers(cx, rest)], n, "scale_factors")
        else:
            given = [cx.arg(i) for i in range(rest, len(cx.op.operands))]
            if given and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                             for v in given):
                scales = _per_dim([float(v) for v in given], n, "scales")
        out = None if cx.is_none(1) else _per_dim(cx.sizes(1, "output_size"), n,
                                                   "output_size")   # symbolic too
        if scales is None and out is None:
            raise NotLowerable("resampling needs output_size or scale factors")
        if antialias:
            # ATen: the sizes given, the coordinates by the scales (both may be given:
            # resample takes both); align_corners reads the sizes only ([Note:
            # antialiased align_corners])
            if align:
                out, scales = out or _scaled_sizes(cx, rest, n), None
            return [resample(cx, x, axes, mode, "align_corners" if align else "half_pixel",
                             "floor", scales, out, antialias=True, cubic_a=-0.5,
                             exclude=True)]
        if scales is not None and out is not None:
            # ATen: the sizes given, the coordinates by the scales
            if any(o != int(i * sc) for o, i, sc in zip(out, t.shape[2:], scales)
                   if i != DYN and isinstance(o, int)):
                raise NotLowerable("output sizes other than floor(input * scale) with "
                                   "scales are not lowered")
        if mode == "nearest":
            coord = "asymmetric" if rounding == "floor" else "half_pixel"
        else:
            coord = "align_corners" if align else "pytorch_half_pixel"
            if align:
                scales = None     # align_corners reads only the sizes
                out = out or _scaled_sizes(cx, rest, n)
        return [resample(cx, x, axes, mode, coord, rounding or "floor", scales,
                         None if scales is not None else out)]


@lowering("aten._upsample_bilinear2d_aa_backward", "aten._upsample_bicubic2d_aa_backward")
def _upsample_aa_backward(cx):
    """_upsample_{bilinear,bicubic}2d_aa_backward(grad_output, output_size, input_size,
    align_corners, scales_h?, scales_w?): the adjoint of the forward's weights
    ([Note: antialiased interpolation]; resize.resample_adjoint), the same scales and
    coordinates as the forward lowering reads."""
    from ..onnx_to_linalg.resize import resample_adjoint
    g = cx.operands[0]
    mode = "linear" if "bilinear" in cx.aten else "cubic"
    out = _per_dim(cx.sizes(1, "output_size"), 2, "output_size")
    in_dims = cx.sizes(2, "input_size")
    if len(in_dims) != 4 or ranked(cx, g.type).rank != 4:
        raise NotLowerable("the antialiased resampling's gradient of a 4-d input")
    align = cx.bool_(3, "align_corners")
    given = [cx.arg(i) for i in range(4, len(cx.op.operands))]
    scales = None
    if not align and len(given) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in given):
        scales = [float(v) for v in given]   # the coordinates by the scales, as ATen
    return [resample_adjoint(cx, g, in_dims, [2, 3], mode,
                             "align_corners" if align else "half_pixel", scales, out,
                             antialias=True, cubic_a=-0.5, exclude=True)]


def _numbers(cx, i):
    v = cx.arg(i)
    if not isinstance(v, list) or any(not isinstance(x, (int, float)) or
                                      isinstance(x, bool) for x in v):
        raise NotLowerable(f"argument #{i} must be a list of constant numbers")
    return v


def _scaled_sizes(cx, i, n):
    """ATen's output sizes for scale factors (argument `i`): floor(in * scale), in
    double, computed at run time for dynamic input sizes."""
    from ..onnx_to_linalg.resize import _f64
    x = cx.operands[0]
    scales = _per_dim([float(v) for v in _numbers(cx, i)], n, "scale_factors")
    s = scalars(cx)
    out = []
    for k, sc in enumerate(scales):
        d = dim_size(cx, x, 2 + k)
        if isinstance(d, int):
            out.append(int(math.floor(d * sc)))
        else:
            w = s.op1("math.floor", [s.mul(_f64(s, d), s.const(sc, A.f64))], A.f64)
            out.append(s.cast(s.op1("arith.fptosi", [w], A.i64), A.index))
    return out


for _n in _UPSAMPLE:
    _upsample(_n)


_GRID_MODES = ("linear", "nearest", "cubic")          # interpolation_mode 0, 1, 2
_GRID_PADS = ("zeros", "border", "reflection")          # padding_mode 0, 1, 2


@lowering("aten.grid_sampler_2d", "aten.grid_sampler_3d", "aten.grid_sampler")
def _grid_sampler(cx):
    """grid_sampler_{2,3}d(input [N, C, D...], grid [N, Dout..., k], interpolation_mode,
    padding_mode, align_corners): resize.grid_sample, ONNX GridSample's builder. ATen
    moves a bilinear or nearest source coordinate inside before taking the taps, a
    bicubic one not: each of its four taps is clamped or reflected alone."""
    from ..onnx_to_linalg.resize import grid_sample
    mode, pad = cx.int_(2, "interpolation_mode"), cx.int_(3, "padding_mode")
    if not 0 <= mode < 3 or not 0 <= pad < 3:
        raise NotLowerable(f"grid_sampler of interpolation_mode {mode} and padding_mode "
                           f"{pad} (each must be 0, 1 or 2)")
    if not is_float(element_type(cx.operands[0].type)):
        raise NotLowerable("grid_sampler of a tensor that is not floating point")
    mode = _GRID_MODES[mode]
    if mode == "cubic" and ranked(cx, cx.operands[0].type).rank != 4:
        raise NotLowerable("bicubic grid sampling of a 5-d input")
    return [finish(cx, grid_sample(cx, cx.operands[0], cx.operands[1], mode,
                                   _GRID_PADS[pad], cx.bool_(4, "align_corners"),
                                   pad_source=mode != "cubic"))]


@lowering("aten.topk")
def _topk(cx):
    """topk(x, k, dim=-1, largest=True, sorted=True) -> (values, indices), in order
    (also when not asked to sort)."""
    from ..onnx_to_linalg.selection import topk
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    if r == 0:          # the one element, at index 0
        if len(cx.op.operands) > 2:
            _axis(cx.int_(2, "dim"), 0)
        if cx.int_(1, "k") != 1:
            raise NotLowerable("topk of a 0-d tensor takes k = 1")
        return [x, scalars(cx).const(0, A.RankedTensorType((), A.i64))]
    k = cx.arg(1)
    k = scalars(cx).cast(cx.operands[1], A.index) if k is DYNAMIC_ARG else cx.int_(1, "k")
    nargs = len(cx.op.operands)
    axis = _axis(cx.int_(2, "dim"), r) if nargs > 2 else r - 1
    largest = cx.bool_(3, "largest") if nargs > 3 else True
    return topk(cx, x, k, axis, largest, not _unsigned(element_type(cx.orig_type(0))))


@lowering("aten.sort", "aten.sort.stable")
def _sort(cx):
    """sort(x, dim, descending) / sort.stable(x, stable, dim, descending): the ranked
    sort of onnx_to_linalg.selection (ties in index order, a stable sort; NaN sorts as
    the largest)."""
    from ..onnx_to_linalg.selection import sort
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    first = 2 if cx.aten == "aten.sort.stable" else 1
    nargs = len(cx.op.operands)
    d = _axis(cx.int_(first, "dim"), r) if nargs > first and not cx.is_none(first) \
        else max(r - 1, 0)
    desc = cx.bool_(first + 1, "descending") if nargs > first + 1 else False
    if r == 0:
        return [x, scalars(cx).const(0, A.RankedTensorType((), A.i64))]
    return sort(cx, x, d, desc, not _unsigned(element_type(cx.orig_type(0))))


@lowering("aten.native_dropout")
def _native_dropout(cx):
    """native_dropout(x, p, train): the identity (and an all-true mask) when not
    training; training draws random numbers, which need an explicit seed."""
    train = cx.arg(2)
    if train is not False:
        raise NotLowerable("dropout in training mode (random) is not lowered")
    from ..onnx_to_linalg._linalg_util import filled
    x = cx.operands[0]
    return [x, filled(cx, sizes_of(cx, x), A.i1, 1)]


@lowering("aten.linalg_vector_norm")
def _vector_norm(cx):
    """linalg_vector_norm(x, ord, dim, keepdim, dtype): (sum |x|^ord)^(1/ord) over the
    dims; ord inf / -inf: the largest / smallest |x|; 0: the count of non-zeros."""
    x = cx.operands[0]
    rank = ranked(cx, x.type).rank
    out = element_type(cx.result_type())
    if not is_float(out):
        raise NotLowerable("the norm of integers")
    elt = acc_type(out)         # [Note: narrow floats accumulate in f32]
    nargs = len(cx.op.operands)
    p = cx.float_(1, "ord") if nargs > 1 else 2.0
    axes = _dims(cx, 2, rank) if nargs > 2 else list(range(rank))
    keep = _keepdim(cx, 3)
    if x.type.element_type is not elt:
        x = elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))
    if p == float("inf") or p == float("-inf"):
        def init(s, e):
            return s.zero(e) if p > 0 else s.const(float("inf"), e)
        return [_in_acc(cx, _reduce(cx, x, axes, keep, elt, init,
                        (lambda s, a, v: s.max(a, v)) if p > 0 else
                        (lambda s, a, v: s.min(a, v)), lambda s, v: s.math("absf", v)),
                        out)]
    if p == 0:
        pre = (lambda s, v: s.select(s.cmp("ne", v, s.zero(v.type)), s.one(v.type),
                                     s.zero(v.type)))
    elif p == 2:
        pre = (lambda s, v: s.mul(v, v))
    elif p == 1:
        pre = (lambda s, v: s.math("absf", v))
    else:
        pre = (lambda s, v: s.math("powf", s.math("absf", v), s.const(p, v.type)))
    y = _reduce(cx, x, axes, keep, elt, lambda s, e: s.zero(e), lambda s, a, v: s.add(a, v),
                pre)
    if p in (0, 1):
        return [_in_acc(cx, y, out)]
    if p == 2:
        return [_in_acc(cx, elementwise(cx, [y], elt, lambda s, v: s.math("sqrt", v)), out)]
    return [_in_acc(cx, elementwise(cx, [y], elt, lambda s, v: s.math(
        "powf", v, s.const(1.0 / p, elt))), out)]


# ------------------------------------------------------------------ distances


def _p_distances(cx, a, b, p, batch):
    """dist[..., i, j] = (sum_k |a[..., i, k] - b[..., j, k]|^p)^(1/p) for tensors of
    one rank `batch` + 2 (p 0: the count of unequal k; inf: the largest difference):
    one linalg.generic reducing over k, then the root."""
    from ..onnx_to_linalg._index_check import check_dims
    from ..onnx_to_linalg._linalg_util import filled, map_text
    from ..onnx_to_linalg.common import generic_op
    elt = a.type.element_type
    if not is_float(elt):
        raise NotLowerable("distances of integers")
    da, db = sizes_of(cx, a), sizes_of(cx, b)
    check_dims(cx, [(x, y, "eq", f"dim {d} of the inputs must agree")
                    for d, (x, y) in enumerate(zip(da[:batch] + da[-1:],
                                                   db[:batch] + db[-1:]))])
    n = batch + 3
    bs = list(range(batch))
    i, j, k = batch, batch + 1, batch + 2

    def body(s, pb, args):
        x, y, acc = args
        d = s.math("absf", s.sub(x, y))
        if p == 0:
            return [s.add(acc, s.select(s.cmp("ne", d, s.zero(elt)), s.one(elt),
                                        s.zero(elt)))]
        if p == float("inf"):
            return [s.max(acc, d)]
        if p == 1:
            return [s.add(acc, d)]
        if p == 2:
            return [s.add(acc, s.mul(d, d))]
        return [s.add(acc, s.math("powf", d, s.const(p, elt)))]
    out = filled(cx, da[:batch] + [da[-2], db[-2]], elt, 0)
    dist = generic_op(cx, [a, b], [out], [map_text(n, bs + [i, k]), map_text(n, bs + [j, k]),
                                          map_text(n, bs + [i, j])],
                      ["parallel"] * (batch + 2) + ["reduction"], body)[0]
    if p in (0, 1, float("inf")):
        return dist
    if p == 2:
        return elementwise(cx, [dist], elt, lambda s, v: s.math("sqrt", v))
    return elementwise(cx, [dist], elt, lambda s, v: s.math("powf", v, s.const(1 / p, elt)))


def _norm_order(cx, i):
    p = cx.float_(i, "p") if cx.has_operand(i) else 2.0
    if p < 0:
        raise NotLowerable(f"a p-norm distance of p = {p} (p must be >= 0)")
    return p


@lowering("aten._cdist_forward")
def _cdist(cx):
    """_cdist_forward(x1 [..., P, M], x2 [..., R, M], p, compute_mode): the p-norm
    distance of every pair of rows, [..., P, R] (batch dims equal; compute_mode only
    picks eager's algorithm for p = 2)."""
    a, b = cx.operands[0], cx.operands[1]
    r = ranked(cx, a.type).rank
    if r < 2 or ranked(cx, b.type).rank != r:
        raise NotLowerable("cdist of inputs of different ranks, or below 2")
    return [finish(cx, _p_distances(cx, a, b, _norm_order(cx, 2), r - 2))]


@lowering("aten._pdist_forward")
def _pdist(cx):
    """_pdist_forward(x [N, M], p): the p-norm distances of the rows i < j, in row-major
    order of the pairs (N(N-1)/2 of them): the distance matrix, then a gather of the
    pairs (N static)."""
    from ..onnx_to_linalg._shape_util import dims_map, index_generic
    x = cx.operands[0]
    if ranked(cx, x.type).rank != 2 or x.type.shape[0] == DYN:
        raise NotLowerable("pdist of a 2-d input with a static number of rows")
    nrows = x.type.shape[0]
    elt = x.type.element_type
    pairs = [(i, j) for i in range(nrows) for j in range(i + 1, nrows)]
    if not pairs:
        return [finish(cx, empty(cx, [0], elt))]
    full = _p_distances(cx, x, x, _norm_order(cx, 1), 0)
    s = scalars(cx)
    t = A.RankedTensorType((len(pairs),), A.i64)
    rows = s.const([i for i, _ in pairs], t)
    cols = s.const([j for _, j in pairs], t)

    def body(b, idx, args):
        at = [b.cast(v, A.index) for v in args]
        return b.op1("tensor.extract", [full, *at], elt)
    return [finish(cx, index_generic(cx, [rows, cols], [dims_map(1, [0])] * 2,
                                      [len(pairs)], elt, body))]
