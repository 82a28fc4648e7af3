"""Windowed reductions: MaxPool, AveragePool, LpPool, the global pools, MaxUnpool, LRN.

A pool pads its input with the identity of its reduction (`tensor.pad`: NaN for a float
max, see [Note: MaxPool and NaN]; the smallest integer for an integer max; 0 for sums)
— also past the declared padding where ceil_mode windows run over the end — then
reduces every window with `linalg.pooling_nc{w,hw}_sum`, or a `linalg.generic` of the
same shape for maxima, 3-D windows and MaxPool's Indices output (signed integer maxima of
1-D and 2-D windows use `linalg.pooling_nc{w,hw}_max`). The window loops of a generic
take their sizes from a shape-only `tensor.empty` operand, as the named pooling ops do.

AveragePool divides by the number of window positions inside the input (or inside the
input and its declared padding with count_include_pad); where that number varies, it is
computed from the output position in the dividing generic (`linalg.index`).

[Note: MaxPool and NaN]
A float MaxPool window skips NaN: its maximum is that of its numbers, NaN only when it
holds nothing else. The referees read NaN in a window in order-dependent ways:
onnx.reference's stride-1 MaxPool filters NaN out (and fails on a window of NaN only),
its strided one and onnxruntime's 2-D kernels take the first value and then any greater
one (a window starting with NaN stays NaN, one with NaN later skips it), onnxruntime's
1-D kernel starts from -FLT_MAX (a window of NaN only gives -FLT_MAX). All of them agree
with the order-free reading on every window whose first value is a number, and the
reference gives NaN for a window of NaN only where it computes one. So a float window
is reduced by
`arith.maxnumf` from NaN, padded with NaN, in a `linalg.generic`:
`linalg.pooling_nchw_max` is `arith.maximumf`, which propagates NaN. Indices point at the
first maximum among the numbers (the first position when all are NaN). The global pools
and ReduceMax/ReduceMin are NumPy reductions in the reference (`np.max`,
`np.maximum.reduce`): NaN propagates there and in our lowering (onnxruntime skips it).

[Note: windows that cover nothing]
The output dims are onnx-shape-inference's (pool_out_dim in its rules), which the
`window` helper computes alike: a ceil_mode window that would start past the input and
its begin padding is not counted, and a kernel larger than the padded input gives no
window (a dim of 0, the spec's floor, as onnx.reference; onnxruntime's truncating
division counts one where the kernel overhangs by less than a stride, and both refuse an
overhang of two strides, as the shape inference does). A static 0 makes an empty result
here; a dynamic count below 0 is clamped to 0.

    %y = "onnx.MaxPool"(%x) <{ceil_mode = 1 : si64, kernel_shape = [1, 2],
           strides = [2, 2]}> : (tensor<1x1x2x4xf32>) -> tensor<1x1x1x2xf32>
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import NotLowerable, lowering
from ._linalg_util import (dim_size, filled, generic_maps, i64_elements, ints_attr,
                           map_text, pad, window, window_expr)
from ._shape_util import Ix, expand
from .common import DYN, elementwise, empty, is_unsigned, ranked, scalars


def _input(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if t.rank < 3:
        raise NotLowerable(f"pooling needs an input of rank >= 3, not {t.rank}")
    return x, t.rank - 2


def _kernel(cx, n):
    k = cx.attr("kernel_shape", None)
    if k is None or len(k) != n:
        raise NotLowerable(f"kernel_shape must give {n} sizes")
    return [int(v) for v in k]


def _pool_maps(n, win):
    """Maps of (input, window operand, output) over loops (n, c, out..., k...)."""
    nl = 2 + 2 * n
    outs, ks = list(range(2, 2 + n)), list(range(2 + n, 2 + 2 * n))
    exprs = [window_expr(o, k, s, d) for o, k, s, d in zip(outs, ks, win.strides,
                                                           win.dilations)]
    return ([map_text(nl, [0, 1] + exprs), map_text(nl, ks), map_text(nl, [0, 1] + outs)],
            ["parallel"] * (2 + n) + ["reduction"] * n)


def _padded(cx, x, n, win, value):
    high = [Ix(scalars(cx)).add(h, e) for h, e in zip(win.high, win.extra)]
    return pad(cx, x, [0, 0] + win.low, [0, 0] + high, value)


def _reduce_windows(cx, x, n, win, kind, unsigned=False, nan_skips=True):
    """Every window of `x` (padded already) reduced by `kind` ("max" or "sum") into a
    tensor (N, C, out...) of the element type of `x`; a float max skips NaN unless
    not `nan_skips` (then it propagates)."""
    from ...dialects import linalg as L
    from ...dialects.linalg import make_generic
    elt = element_type(x.type)
    s = scalars(cx)
    # see [Note: MaxPool and NaN]
    nan_max = kind == "max" and is_float(elt) and nan_skips
    ident = (_max_identity(s, elt, unsigned) if nan_skips or not is_float(elt) else
             s.const(float("-inf"), elt)) if kind == "max" else s.zero(elt)
    sizes = [dim_size(cx, x, 0), dim_size(cx, x, 1)] + win.out
    init = filled(cx, sizes, elt, ident)
    shape = empty(cx, win.kernel, elt)
    layout = {1: "ncw", 2: "nchw"}.get(n)
    if layout and not unsigned and not nan_max:
        op = L.named_op_class(f"pooling_{layout}_{kind}").new(
            [x, shape], [init], loc=cx.loc, strides=i64_elements(win.strides),
            dilations=i64_elements(win.dilations))
        return cx.b.insert(op).results[0]
    maps, its = _pool_maps(n, win)

    def body(b, args):
        sb = ScalarBuilder(b, cx.loc)
        v, acc = args[0], args[2]
        if nan_max:
            return sb.op1("arith.maxnumf", [acc, v], elt)
        return sb.max(acc, v, not unsigned) if kind == "max" else sb.add(acc, v)
    return make_generic(cx.b, [x, shape], [init], generic_maps(maps), its, body,
                        [init.type], loc=cx.loc).results[0]


def _max_identity(s, elt, unsigned):
    """What a max window starts from and is padded with: NaN for floats (see [Note:
    MaxPool and NaN]), the smallest value for integers."""
    if is_float(elt):
        return s.const(float("nan"), elt)
    return s.zero(elt) if unsigned else s.lowest(elt)


def _no_windows(win):
    """Whether a static output dim is 0 (see [Note: windows that cover nothing])."""
    return any(isinstance(o, int) and o == 0 for o in win.out)


def _empty_results(cx, x, win, elts):
    sizes = [dim_size(cx, x, 0), dim_size(cx, x, 1)] + win.out
    return [empty(cx, sizes, e) for e in elts]


# ------------------------------------------------------------------ MaxPool


@lowering("MaxPool")
def _max_pool(cx):
    x, n = _input(cx)
    elt = element_type(x.type)
    unsigned = is_unsigned(cx.orig_type(0))
    win = window(cx, [dim_size(cx, x, i) for i in range(2, n + 2)], _kernel(cx, n),
                 bool(cx.attr("ceil_mode", 0)))
    s = scalars(cx)
    want_indices = len(cx.op.results) > 1 and type(cx.op.results[1].type) is not A.NoneType
    if _no_windows(win):
        return _empty_results(cx, x, win, [elt, A.i64][:1 + want_indices]) + \
            [None] * (len(cx.op.results) - 1 - want_indices)
    if not want_indices:
        y = max_pool(cx, x, n, win, unsigned)
        return [y] + [None] * (len(cx.op.results) - 1)
    xp = _padded(cx, x, n, win, _max_identity(s, elt, unsigned))
    return list(_max_pool_with_indices(cx, x, xp, n, win, unsigned))


def max_pool_with_indices(cx, x, n, win, unsigned=False):
    """(values, indices) of PyTorch's max pooling with indices: the maximum of every
    window `win` of `x` (N, C, in...), NaN propagating, and its flat position in its
    (n, c) plane (the first maximum; the last NaN)."""
    elt = element_type(x.type)
    if _no_windows(win):
        return _empty_results(cx, x, win, [elt, A.i64])
    s = scalars(cx)
    xp = _padded(cx, x, n, win, _max_identity(s, elt, unsigned))
    return _max_pool_with_indices(cx, x, xp, n, win, unsigned, False, True, True)


def max_pool(cx, x, n, win, unsigned=False, nan_propagates=False):
    """The maximum of every window `win` (see `window`) of `x` (N, C, in...), `n` spatial
    dims: NaN is skipped ([Note: MaxPool and NaN], ONNX) unless `nan_propagates`
    (PyTorch: a window holding NaN is NaN; the named pooling op's maximumf, padded with
    -inf). The one max-pooling builder of both frontends."""
    elt = element_type(x.type)
    if _no_windows(win):
        return _empty_results(cx, x, win, [elt])[0]
    s = scalars(cx)
    if nan_propagates and is_float(elt):
        xp = _padded(cx, x, n, win, s.const(float("-inf"), elt))
        return _reduce_windows(cx, xp, n, win, "max", unsigned, nan_skips=False)
    xp = _padded(cx, x, n, win, _max_identity(s, elt, unsigned))
    return _reduce_windows(cx, xp, n, win, "max", unsigned)


def _max_pool_with_indices(cx, x, xp, n, win, unsigned, column_major=None,
                           per_plane=False, nan_propagates=False):
    """(values, flat input indices) of the first maximum of every window: positions in
    the padding never win; the index is row-major over the input (spatial dims in
    column-major order with `column_major`, None: ONNX's storage_order 1), or with
    `per_plane` over each (n, c) plane's spatial dims only (PyTorch's); a number beats
    a NaN kept so far ([Note: MaxPool and NaN]), or with `nan_propagates` every NaN
    wins (ATen: the last NaN of the window)."""
    from ...dialects.linalg import make_generic
    elt = element_type(x.type)
    s = scalars(cx)
    sizes = [dim_size(cx, x, 0), dim_size(cx, x, 1)] + win.out
    vals = filled(cx, sizes, elt, _max_identity(s, elt, unsigned))
    idx = filled(cx, sizes, A.i64, -1)
    shape = empty(cx, win.kernel, elt)
    maps, its = _pool_maps(n, win)
    maps.append(maps[-1])
    in_sizes = [dim_size(cx, x, i) for i in range(1, n + 2)]  # C, spatial...
    in_idx = [s.op1("arith.index_cast", [Ix(s).v(v)], A.i64) for v in in_sizes]
    if column_major is None:
        column_major = cx.attr("storage_order", 0) == 1

    def body(b, args):
        sb = ScalarBuilder(b, cx.loc)
        v, best, best_i = args[0], args[2], args[3]
        pos, valid = [], sb.const(1, A.i1)
        for i in range(n):
            o, k = b.index(2 + i), b.index(2 + n + i)
            p = sb.add(sb.mul(o, sb.index(win.strides[i])), sb.mul(k, sb.index(
                win.dilations[i])))
            p = sb.cast(sb.sub(p, Ix(sb).v(win.low[i])), A.i64)
            valid = sb.and_(valid, sb.and_(sb.cmp("ge", p, sb.zero(A.i64)),
                                           sb.cmp("lt", p, in_idx[1 + i])))
            pos.append(p)
        # flat index: ((n * C + c) * spatial...) with the spatial part per storage order
        flat = sb.add(sb.mul(sb.cast(b.index(0), A.i64), in_idx[0]), sb.cast(b.index(1),
                                                                            A.i64))
        order = list(range(n)) if not column_major else list(reversed(range(n)))
        spatial = sb.zero(A.i64)
        for i in order:
            spatial = sb.add(sb.mul(spatial, in_idx[1 + i]), pos[i])
        total = sb.one(A.i64)
        for i in range(n):
            total = sb.mul(total, in_idx[1 + i])
        flat = spatial if per_plane else sb.add(sb.mul(flat, total), spatial)
        first = sb.cmp("lt", best_i, sb.zero(A.i64))
        beats = sb.cmp("gt", v, best, not unsigned)
        if is_float(elt) and nan_propagates:
            beats = sb.or_(beats, sb.cmp("uno", v, v))
        elif is_float(elt):  # a number beats a NaN kept so far ([Note: MaxPool and NaN])
            beats = sb.or_(beats, sb.and_(sb.cmp("uno", best, best),
                                          sb.cmp("eq", v, v)))
        better = sb.and_(valid, sb.or_(first, beats))
        return [sb.select(better, v, best), sb.select(better, flat, best_i)]
    op = make_generic(cx.b, [xp, shape], [vals, idx], generic_maps(maps), its, body,
                      [vals.type, idx.type], loc=cx.loc)
    return op.results[0], op.results[1]


# ------------------------------------------------------------------ AveragePool, LpPool


def _counts_vary(win, count_pad):
    """Whether windows hold different numbers of counted positions."""
    zero = all(isinstance(v, int) and v == 0 for v in win.extra)
    if count_pad:
        return not zero
    return not (zero and all(isinstance(v, int) and v == 0 for v in win.low + win.high))


def _average(cx, sums, x, n, win, count_pad):
    """`sums` divided per window by its count of positions in the input (and, with
    `count_pad`, its declared padding)."""
    from ...dialects.linalg import make_generic
    elt = element_type(sums.type)
    rank = n + 2
    if not _counts_vary(win, count_pad):
        size = 1
        for k in win.kernel:
            size *= k
        return elementwise(cx, [sums], elt, lambda s, v: s.div(v, s.const(size, elt)))
    in_sizes = [dim_size(cx, x, i) for i in range(2, n + 2)]
    init = empty(cx, [dim_size(cx, sums, i) for i in range(rank)], elt)
    s0 = scalars(cx)
    ix0 = Ix(s0)
    lows, highs = [], []
    for i in range(n):  # the counted range of padded positions
        if count_pad:
            lows.append(ix0.v(0))
            highs.append(ix0.v(ix0.add(in_sizes[i], ix0.add(win.low[i], win.high[i]))))
        else:
            lows.append(ix0.v(win.low[i]))
            highs.append(ix0.v(ix0.add(in_sizes[i], win.low[i])))

    def body(b, args):
        sb = ScalarBuilder(b, cx.loc)
        count = sb.index(1)
        for i in range(n):
            start = sb.mul(b.index(2 + i), sb.index(win.strides[i]))
            d, k = win.dilations[i], win.kernel[i]
            # k' in [0, k) with lo <= start + k' * d < hi
            first = sb.op1("arith.ceildivsi", [sb.sub(lows[i], start), sb.index(d)], A.index)
            end = sb.op1("arith.ceildivsi", [sb.sub(highs[i], start), sb.index(d)], A.index)
            c = sb.sub(sb.min(end, sb.index(k)), sb.max(first, sb.index(0)))
            count = sb.mul(count, sb.max(c, sb.index(1)))
        return sb.div(args[0], sb.cast(count, elt))
    ident = map_text(rank, range(rank))
    return make_generic(cx.b, [sums], [init], generic_maps([ident, ident]),
                        ["parallel"] * rank, body, [init.type], loc=cx.loc).results[0]


def _float_pool(cx, what):
    """(input, spatial rank, element type, Window) of a float pooling op."""
    x, n = _input(cx)
    elt = element_type(x.type)
    if not is_float(elt):
        raise NotLowerable(f"{what} of {elt} is not supported")
    win = window(cx, [dim_size(cx, x, i) for i in range(2, n + 2)], _kernel(cx, n),
                 bool(cx.attr("ceil_mode", 0)))
    return x, n, elt, win


@lowering("AveragePool")
def _average_pool(cx):
    x, n, elt, win = _float_pool(cx, "AveragePool")
    return [average_pool(cx, x, n, win, bool(cx.attr("count_include_pad", 0)))]


def average_pool(cx, x, n, win, count_pad, divisor=None):
    """The mean of every window `win` of float `x` (N, C, in...), `n` spatial dims,
    divided by its positions inside the input (and its declared padding when
    `count_pad`), or by `divisor` when given (PyTorch's divisor_override). The one
    average-pooling builder of both frontends."""
    elt = element_type(x.type)
    if _no_windows(win):
        return _empty_results(cx, x, win, [elt])[0]
    xp = _padded(cx, x, n, win, scalars(cx).zero(elt))
    sums = _reduce_windows(cx, xp, n, win, "sum")
    if divisor is not None:
        return elementwise(cx, [sums], elt, lambda s, v: s.div(v, s.const(divisor, elt)))
    return _average(cx, sums, x, n, win, count_pad)


def _power(s, x, p):
    """|x| ** p (exact products for small integer p)."""
    a = s.math("absf", x)
    if p == 1:
        return a
    if p == 2:
        return s.mul(x, x)
    return s.math("powf", a, s.const(float(p), x.type))


def _root(s, x, p):
    if p == 1:
        return x
    if p == 2:
        return s.math("sqrt", x)
    return s.math("powf", x, s.const(1.0 / p, x.type))


@lowering("LpPool")
def _lp_pool(cx):
    x, n, elt, win = _float_pool(cx, "LpPool")
    if _no_windows(win):
        return _empty_results(cx, x, win, [elt])
    p = int(cx.attr("p", 2))
    powered = elementwise(cx, [x], elt, lambda s, v: _power(s, v, p))
    xp = _padded(cx, powered, n, win, scalars(cx).zero(elt))
    sums = _reduce_windows(cx, xp, n, win, "sum")
    return [elementwise(cx, [sums], elt, lambda s, v: _root(s, v, p))]


# ------------------------------------------------------------------ global pools


def _global(cx, kind, p=2):
    """Reduce every spatial dim of the input to size 1: "max", "avg" or "lp"."""
    from ...dialects.linalg import make_generic
    x, n = _input(cx)
    elt = element_type(x.type)
    unsigned = is_unsigned(cx.orig_type(0))
    if kind != "max" and not is_float(elt):
        raise NotLowerable(f"global pooling of {elt} is not supported")
    s = scalars(cx)
    nc = [dim_size(cx, x, 0), dim_size(cx, x, 1)]
    ident = s.zero(elt) if kind != "max" or unsigned else s.lowest(elt)
    init = filled(cx, nc, elt, ident)
    rank = n + 2

    def body(b, args):
        sb = ScalarBuilder(b, cx.loc)
        v, acc = args
        if kind == "max":
            return sb.max(acc, v, not unsigned)
        return sb.add(acc, _power(sb, v, p) if kind == "lp" else v)
    r = make_generic(cx.b, [x], [init], generic_maps([map_text(rank, range(rank)),
                                                      map_text(rank, [0, 1])]),
                     ["parallel"] * 2 + ["reduction"] * n, body, [init.type],
                     loc=cx.loc).results[0]
    if kind == "avg":
        ix = Ix(s)
        count = 1
        for i in range(2, rank):
            count = ix.mul(count, dim_size(cx, x, i))
        cnt = s.const(count, elt) if isinstance(count, int) else \
            s.cast(s.cast(count, A.i64), elt)
        r = elementwise(cx, [r], elt, lambda sb, v: sb.div(v, cnt))
    elif kind == "lp":
        r = elementwise(cx, [r], elt, lambda sb, v: _root(sb, v, p))
    return expand(cx, r, [[0], [1] + list(range(2, rank))], nc + [1] * n)


@lowering("GlobalMaxPool")
def _global_max(cx):
    return [_global(cx, "max")]


@lowering("GlobalAveragePool")
def _global_avg(cx):
    return [_global(cx, "avg")]


@lowering("GlobalLpPool")
def _global_lp(cx):
    return [_global(cx, "lp", int(cx.attr("p", 2)))]


# ------------------------------------------------------------------ MaxUnpool


@lowering("MaxUnpool")
def _max_unpool(cx):
    """Zeros of the pooled input's shape with every value stored at its flat index (an
    scf.for over the input elements with tensor.insert), then zero-padded at the end to
    output_shape when one is given (ONNX's reference)."""
    from ._shape_util import collapse, index_of, loop_nest, operand_ints
    x, n = _input(cx)
    if DYN in x.type.shape:
        raise NotLowerable("MaxUnpool needs a static input shape")
    if list(ranked(cx, cx.operands[1].type).shape) != list(x.type.shape):
        raise NotLowerable("MaxUnpool indices must have the shape of the input")
    kernel = _kernel(cx, n)
    strides = ints_attr(cx, "strides", n, 1, positive=True)
    pads = ints_attr(cx, "pads", 2 * n, 0)
    inferred = list(x.type.shape[:2]) + [
        (x.type.shape[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[n + i]
        for i in range(n)]
    elt = element_type(x.type)
    total, count = 1, 1
    for d in inferred:
        total *= d
    for d in x.type.shape:
        count *= d
    flat_x = collapse(cx, x, [list(range(n + 2))])
    flat_i = collapse(cx, cx.operands[1], [list(range(n + 2))])
    zeros = filled(cx, [total], elt)
    # an index out of range is a run-time error, and nothing is written then (see
    # [Note: index checks])
    from ._index_check import assert_ok, guarded, index_ranges
    ok = index_ranges(cx, 1, [(0, total)], not is_unsigned(cx.orig_type(1)))[0]
    assert_ok(cx, ok, f"index out of range [0, {total}) (flat positions of the output)")

    def body(s, ivs, accs):
        v = s.op1("tensor.extract", [flat_x, ivs[0]], elt)
        j = index_of(s, s.op1("tensor.extract", [flat_i, ivs[0]],
                              element_type(flat_i.type)))
        return [s.op1("tensor.insert", [v, accs[0], j], accs[0].type)]
    r = loop_nest(cx, guarded(cx, [count], ok), [zeros], body)[0]
    r = expand(cx, r, [list(range(n + 2))], inferred)
    if not cx.has_operand(2):
        return [r]
    rt = cx.result_type()
    out = list(rt.shape) if type(rt) is A.RankedTensorType and DYN not in rt.shape else \
        operand_ints(cx, 2, "output_shape")
    ix = Ix(scalars(cx))
    high = [ix.sub(o, i) for o, i in zip(out, inferred)]
    if any(isinstance(h, int) and h < 0 for h in high):
        raise NotLowerable(f"MaxUnpool output_shape {out} is smaller than {inferred}")
    return [pad(cx, r, [0] * (n + 2), high, scalars(cx).zero(elt))]


# ------------------------------------------------------------------ LRN


@lowering("LRN")
def _lrn(cx):
    """y = x / (bias + alpha / size * sum of x^2 over the `size` channels around)^beta."""
    from ...dialects.linalg import make_generic
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = t.element_type
    if t.rank < 3 or not is_float(elt):
        raise NotLowerable("LRN needs a float input of rank >= 3")
    size = int(cx.attr("size", 0))
    if size < 1:
        raise NotLowerable("LRN size must be positive")
    alpha, beta, bias = cx.attr("alpha", 1e-4), cx.attr("beta", 0.75), cx.attr("bias", 1.0)
    rank = t.rank
    s = scalars(cx)
    sq = elementwise(cx, [x], elt, lambda sb, v: sb.mul(v, v))
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    sqp = pad(cx, sq, [0, lo] + [0] * (rank - 2), [0, hi] + [0] * (rank - 2), s.zero(elt))
    # sums[n, c, ...] = sum_k sqp[n, c + k, ...]: loops (dims..., k)
    sums = filled(cx, [dim_size(cx, x, i) for i in range(rank)], elt)
    win = empty(cx, [size], elt)
    nl = rank + 1
    maps = [map_text(nl, [0, f"d1 + d{rank}"] + list(range(2, rank))), map_text(nl, [rank]),
            map_text(nl, range(rank))]

    def add(b, args):
        return ScalarBuilder(b, cx.loc).add(args[2], args[0])
    sums = make_generic(cx.b, [sqp, win], [sums], generic_maps(maps),
                        ["parallel"] * rank + ["reduction"], add, [sums.type],
                        loc=cx.loc).results[0]

    def body(sb, v, ss):
        d = sb.add(sb.const(bias, elt), sb.mul(sb.const(alpha / size, elt), ss))
        return sb.div(v, sb.math("powf", d, sb.const(beta, elt)))
    return [elementwise(cx, [x, sums], elt, body)]
