"""`strata-linalg-conv-to-winograd`: 3x3, stride-1 f32 NCHW convolutions with
a constant filter become calls of the CPU target's Winograd kernel,
strata_conv2d_winograd_f32 ([Note: Winograd convolution] in
strata/backends/cpu/kernels_winograd.py), with the filter transformed now, once.

    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                              strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : memref<1x64x58x58xf32>, memref<64x64x3x3xf32>)
        outs(%y : memref<1x64x56x56xf32>)
=>
    %u = memref.get_global @w_winograd : memref<65536xf32>     (16 x F x C: G g G^T)
    call @strata_conv2d_winograd_f32(%N, %C, %H, %W, %F, %OH, %OW, %pt, %pl, %x_ptr,
                                     <x's strides>, %u_ptr, %y_ptr, <y's strides>,
                                     %accumulate, <epilogue>)

Matched: what strata-linalg-to-microkernels would lower to strata_conv2d_nchw_f32
(match_conv: unit inner stride input, contiguous filter and output images), with a 3x3
window, strides 1, a filter read from a constant memref.global with its data (or a
whole view of one), and at least `min-channels` input and output channels (with fewer,
the transforms cost more than the products save). Dilations 1, or static sizes (but
the batch) whose phases make a mosaic of little waste: the kernel then runs on the mosaic ([Note:
dilated convolutions as a mosaic]). The output is
overwritten when a zero fill precedes the convolution (erased), else accumulated into,
as strata-linalg-to-microkernels does. An input that is a zero-filled copy of an image
with padding around it (ONNX's and torch's padded convolutions, once bufferized) is not
made: the kernel reads the image and its pt / pl ([Note: Winograd's padding] in
kernels_winograd.py), as the direct kernels do. Runs after bufferization, before
strata-linalg-to-microkernels (which takes the convolutions left).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass
from .linalg_to_microkernels import (_accumulate, _declare, _defined_before,
                                     _drop_if_dead, _drop_padded_copy, _elementwise, _Emit,
                                     _padding_of, _ready_before, _Weights,
                                     _zero_fill_before, broadcast_before,
                                     global_data, identity_on, match_conv,
                                     relu_then_yield)

__all__ = ["LinalgConvToWinograd", "conv_to_winograd", "KERNEL"]

KERNEL = "strata_conv2d_winograd_f32"


def _ones(op, name) -> bool:
    return tuple(op._window_values(name)) == (1, 1)


def _matches(op, min_channels: int) -> bool:
    if op.name != "linalg.conv_2d_nchw_fchw" or match_conv(op) != "nchw":
        return False
    shape = op.operand_types[1].shape
    if not (len(shape) == 4 and A.DYNAMIC not in shape and tuple(shape[2:]) == (3, 3) and
            min(shape[0], shape[1]) >= min_channels and _ones(op, "strides")):
        return False
    return _ones(op, "dilations") or _mosaic(op) is not None


# [Note: dilated convolutions as a mosaic]
# A 3x3 stride-1 convolution dilated by d (along an axis) reads, for output row y, the
# input rows y, y + d, y + 2d: the outputs of one phase a = y mod d read only the input
# rows of that phase. So the input (already padded) is cut into its d x d phases, each
# laid out as a block of a mosaic image Q, block (a, b) = x[a::d, b::d] (the first q + 2
# rows and columns of each phase, q = ceil(OH / d)), and the undilated "valid" 3x3
# convolution of Q computes every output: out[a + d*i, b + d*j] = R[a*(q+2) + i,
# b*(q+2) + j]; the outputs that straddle two blocks are computed and dropped. Where
# the image fills every block (its size d*(q+2): DeepLab's padded maps) one generic
# copies all phases (the image viewed N x C x (q+2) x d x (q+2) x d, the mosaic
# N x C x d x (q+2) x d x (q+2)), and where OH = d*q one generic copies the outputs
# back (R's buffer holds whole blocks, the kernel writing through its row stride);
# otherwise the blocks are zero-filled (never garbage: a Winograd tile mixes all 16
# inputs of its patch) and each phase is copied on its own. The convolution is then
# the Winograd kernel's: DeepLab's 128-channel 3x3 on 32x32, 1 thread, process time,
# direct (implicit im2col) product / mosaic: d = 2 1.99 -> 1.59 ms, d = 3 2.14 -> 1.96,
# d = 4 2.17 -> 1.96 (onnxruntime ~1.8); the whole DeepLab head 1.08 -> 1.00 x
# onnxruntime. The price is the seams: R is (d*(q+2) - 2)^2 outputs for OH^2 (d = 2 on
# 32x32: 1.13x; d = 4: 1.41x; d = 6: 2.07x) and the copies; the mosaic is taken where R
# is at most MOSAIC_MAX_AREA times the output (larger dilations keep the direct
# product, with its dead taps: DeepLab-v3's rates 6 to 36 on 33x33 or 65x65 maps). The
# epilogue (bias, ReLU) is elementwise and runs on R; a residual would have to be read
# through the mosaic too, and an accumulated output (no zero fill, no bias) cannot be
# written through R: those stay direct (a residual add stays a generic after). A dynamic
# batch is only a size: the scratch buffers, views and copies take the image's batch
# (em.size), as the kernel does (a model exported with batch `N` got the direct product).
MOSAIC_MAX_AREA = 1.5


class _Mosaic:
    """The mosaic of a dilated convolution along H and W: per axis (dilation d, outputs
    per phase q, block size q + 2, the valid convolution's output size d*(q+2) - 2)."""

    __slots__ = ("axes", "n")

    def __init__(self, axes, n):
        self.axes, self.n = axes, n     # n: the output's H and W

    def image(self):
        return [d * (q + 2) for d, q in self.axes]

    def result(self):
        return [d * (q + 2) - 2 for d, q in self.axes]

    def out_rows(self, axis, phase):
        """The outputs of `phase` along `axis` (ceil((n - phase) / d))."""
        d, _ = self.axes[axis]
        return -(-(self.n[axis] - phase) // d)


def _mosaic(op):
    """The _Mosaic of a dilated convolution `op` (static sizes but the batch, the seams'
    waste at most MOSAIC_MAX_AREA), or None (see [Note: dilated convolutions as a
    mosaic]; a dynamic batch is a size of the buffers and copies, as for the kernel)."""
    x, y = op.operand_types[0], op.operand_types[2]
    dil = tuple(op._window_values("dilations"))
    if A.DYNAMIC in tuple(x.shape[1:]) + tuple(y.shape[1:]) or len(dil) != 2 or \
            min(dil) < 1 or dil == (1, 1):
        return None
    axes = []
    for d, n in zip(dil, y.shape[2:]):
        if n < 1:
            return None
        axes.append((d, -(-n // d)))
    m = _Mosaic(axes, list(y.shape[2:]))
    r = m.result()
    if r[0] * r[1] > MOSAIC_MAX_AREA * y.shape[2] * y.shape[3]:
        return None
    return m


def _filter_data(weights, w):
    """(the constant global filter `w` is read from, its F x C x 3 x 3 array), or
    (None, None)."""
    g = weights.global_under(w)[1]
    data = global_data(g) if g is not None else None
    return (g, data.reshape(w.type.shape)) if data is not None else (None, None)


def _epilogue_after(op, y):
    """(generic, residual or None, relu) when the op after `op` (past allocs, and
    deallocs of other buffers) is an elementwise generic computing max(y + residual, 0),
    y + residual or max(y, 0) into a buffer of y's shape, and y is an alloc used by
    nothing else but a dealloc; else None."""
    g = op.next
    while g is not None and (g.name == "memref.alloc" or (
            g.name == "memref.dealloc" and g.operands[0] is not y)):
        g = g.next
    if not _elementwise(g) or g.num_dps_inputs() not in (1, 2) or y not in g.dps_inputs:
        return None
    z = g.dps_inits[0]
    if z is y or z.type.shape != y.type.shape or not all(
            identity_on(m, v.type) for m, v in zip(g.indexing_maps_list(), g.operands)):
        return None
    # y must be a buffer of its own (not an argument the caller sees written)
    if y.defining_op is None or y.defining_op.name != "memref.alloc" or any(
            u.owner is not g and u.owner is not op and u.owner.name != "memref.dealloc"
            for u in y.uses):
        return None
    args = g.body.args
    yi = g.dps_inputs.index(y)
    val = args[yi]
    ops = list(g.body.ops)
    res = None
    if g.num_dps_inputs() == 2:
        r = g.dps_inputs[1 - yi]
        if r is y or r is z or r.type.shape != y.type.shape or \
                not _strided_images(r.type) or not ops or ops[0].name != "arith.addf" or \
                set(ops[0].operands) != {val, args[1 - yi]}:
            return None
        res, val, ops = r, ops[0].results[0], ops[1:]
    relu, val = relu_then_yield(ops, val)
    if val is None or not (relu or res is not None):
        return None
    return g, res, relu


def _strided_images(t) -> bool:
    """An f32 NCHW memref with unit W stride (the kernel's output / residual layout)."""
    from .linalg_to_microkernels import _unit_inner
    return type(t) is A.MemRefType and t.element_type == A.f32 and len(t.shape) == 4 and \
        _unit_inner(t)


def _packed_filters(shape, panel_width: int) -> bool:
    """Whether the kernel runs this convolution's products transposed, on U^T packed in
    panels of `panel_width` filters (PACKED_U): from two panels of filters and 32 input
    channels (a panel is streamed once and reused for every few tiles; below that the
    row-major products measured as fast or faster)."""
    return panel_width > 0 and shape[0] >= 2 * panel_width and shape[1] >= 32


def _large_tiles(out_shape, min_tiles: int) -> bool:
    """Whether the convolution runs as F(4x4, 3x3) ([Note: Winograd's larger tiles]): from
    `min_tiles` 4x4 tiles per image (0: never). Its U is 2.25x F(2x2)'s and each element
    serves one product row per tile: on small images (ResNet's 14x14 and 7x7, 16 and 4
    tiles) streaming U costs more than the products save; on 28x28 and up (49+ tiles)
    the convolution runs 1.2-1.9x faster."""
    OH, OW = out_shape[2], out_shape[3]
    return min_tiles > 0 and A.DYNAMIC not in (OH, OW) and \
        -(-OH // 4) * -(-OW // 4) >= min_tiles


def _streams_u(filter_shape, out_shape, few_tiles: int, few_tiles_max_u: int) -> bool:
    """Whether Winograd would lose to the direct product ([Note: Winograd on small
    images]): an image of fewer than `few_tiles` 2x2 output tiles whose U (16 x F x C
    floats) is larger than `few_tiles_max_u` floats (0 / 0: never)."""
    OH, OW = out_shape[2], out_shape[3]
    if few_tiles <= 0 or A.DYNAMIC in (OH, OW):
        return False
    return -(-OH // 2) * -(-OW // 2) < few_tiles and \
        16 * filter_shape[0] * filter_shape[1] > few_tiles_max_u


# [Note: Winograd on small images]
# Each element of U serves one multiply-add per 2x2 tile of the image, each element of
# the direct filter one per output pixel; U is 16/9 the size of the filter. On a 7x7
# output (16 tiles, padded to 8x8) a deep layer's U no longer fits in the core's caches
# and the products stream it from memory: F(2x2, 3x3) loses to the direct product there
# (1 thread, interleaved, per layer, Winograd / direct: 7x7 512 -> 512 1.13-1.14, 256 ->
# 512 1.12; it still wins on 7x7 256 -> 256 0.77, 128 -> 128 0.65, and on 9x9 512 -> 512,
# 25 tiles, 0.59). So the CPU target keeps the direct product for images of fewer than
# 25 tiles whose U is over 4 MiB (few-tiles / few-tiles-max-u, kernels.winograd_pass):
# ResNet-50's and ResNet-18's last stage.


def conv_to_winograd(module, min_channels: int = 8, fuse: bool = True,
                     panel_width: int = 0, tile4_min_tiles: int = 0, few_tiles: int = 0,
                     few_tiles_max_u: int = 0) -> int:
    """Rewrite the matched convolutions of `module`; returns how many. `panel_width` > 0:
    the CPU kernels' NR, for the PACKED_U filter layout (see _packed_filters);
    `tile4_min_tiles` > 0: F(4x4, 3x3) on images of that many 4x4 tiles (_large_tiles);
    `few_tiles` > 0: images of fewer 2x2 tiles keep the direct product when U is over
    `few_tiles_max_u` floats (_streams_u)."""
    from ..backends.cpu.kernels_winograd import (BIAS, PACKED_U, RELU, RESIDUAL, TILE4,
                                                 winograd_filter)
    from ..transforms.memref_copy_to_linalg import fill_border_only
    weights = _Weights(module, 0)
    made = {}
    count = 0
    for op in [o for o in module.walk() if _matches(o, min_channels)]:
        x, w, y = op.operands
        mosaic = None if _ones(op, "dilations") else _mosaic(op)
        rshape = y.type.shape if mosaic is None else list(y.type.shape[:2]) + mosaic.result()
        g, data = _filter_data(weights, w)
        if g is None or _streams_u(data.shape, rshape, few_tiles, few_tiles_max_u):
            continue
        if mosaic is not None and _zero_fill_before(op, y) is None and \
                (not fuse or broadcast_before(op, y, 1) is None):
            continue    # accumulated into y: not through the mosaic's result
        packed = _packed_filters(data.shape, panel_width)
        tile = 4 if _large_tiles(rshape, tile4_min_tiles) else 2
        u = made.get((g, packed, tile))
        if u is None:
            u = made[g, packed, tile] = weights._new_global(
                g, winograd_filter(data, panel_width if packed else 0, tile).reshape(-1),
                suffix="_winograd")
        em = _Emit(op)
        flags = (PACKED_U if packed else 0) | (TILE4 if tile == 4 else 0)
        bias = broadcast_before(op, y, 1) if fuse else None
        if bias is not None:
            bias_value = bias.dps_inputs[0]
            bias.erase()
            acc, flags = em.i32(0), flags | BIAS
        else:
            acc = _accumulate(em, op, y)
        # the kernel may write elsewhere than y only when y's old value is not read
        overwrite = bias is not None or em.consts.get((0, A.i32)) is acc
        epi = _epilogue_after(op, y) if fuse and overwrite else None
        out, res = y, None
        if epi is not None and _strided_images(epi[0].dps_inits[0].type) and \
                _ready_before(epi[0].dps_inits[0], op) and \
                (epi[1] is None or (mosaic is None and _ready_before(epi[1], op))):
            gen, res, relu = epi
            out = gen.dps_inits[0]
            flags |= (RESIDUAL if res is not None else 0) | (RELU if relu else 0)
        else:
            epi = None
        pad = _padded_destination(out, op, epi[0] if epi is not None else None) \
            if fuse and overwrite else None
        if pad is not None:
            out = pad.operands[1]
        read = em.v("memref.get_global", [], [u.properties["type"].value],
                    {"name": A.SymbolRefAttr(u.properties["sym_name"].value)})[0]
        s, st = em.size, em.stride
        final = out
        inpad, pt, pl = None, 0, 0
        if mosaic is not None:
            x = _mosaic_image(em, x, mosaic)
            out = _alloc(em, [s(x, 0), rshape[1]] + mosaic.image())
        else:
            # the padded copy the input is: the kernel reads its source
            inpad = _padding_of(op, x, (y, out, res) if res is not None else (y, out))
            if inpad is not None:
                x, pt, pl = inpad[0], inpad[1], inpad[2]
        out_ptr = em.pointer(out)
        oh, ow = (s(y, 2), s(y, 3)) if mosaic is None else rshape[2:]
        args = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(w, 0), oh, ow, pt, pl,
                em.pointer(x), st(x, 0), st(x, 1), st(x, 2), em.pointer(read),
                out_ptr, st(out, 0), st(out, 1), st(out, 2), acc,
                em.pointer(bias_value) if bias is not None else out_ptr,
                em.pointer(res) if res is not None else out_ptr]
        args += [st(res, i) for i in range(3)] if res is not None else [0, 0, 0]
        args.append(em.i32(flags))
        call = em.call(KERNEL, args)
        if mosaic is not None:
            _mosaic_result(em, out, final, mosaic)
            em.v("memref.dealloc", [x], [])
            em.v("memref.dealloc", [out], [])
        op.erase()
        _drop_padded_copy(call, inpad)
        if epi is not None:
            epi[0].erase()
            _drop_if_dead(y)
        if pad is not None:
            copied, interior = pad.operands[0], pad.operands[1].defining_op
            pad.erase()
            _drop_if_dead(copied)
            # the kernel writes the whole interior: the padding buffer's fill keeps to
            # the border
            big = interior.operands[0]
            for u in list(big.uses):
                if u.owner.name in ("linalg.fill", "linalg.map") and \
                        u.owner.operands[-1] is big and u.owner.parent is call.parent and \
                        u.owner.is_before_in_block(call):
                    fill_border_only(u.owner, interior)
        weights.release(w)
        count += 1
    weights.finish()
    if count:
        _declare(module, {KERNEL})
    return count


def _split(sizes):
    """(static sizes, the dynamic ones' values) of sizes given as ints or index values
    (a dynamic batch: em.size)."""
    return ([n if isinstance(n, int) else A.DYNAMIC for n in sizes],
            [n for n in sizes if not isinstance(n, int)])


def _alloc(em, shape):
    static, dyn = _split(shape)
    return em.v("memref.alloc", dyn, [A.MemRefType(static, A.f32)],
                {"alignment": A.IntegerAttr(64, A.i64),
                 "operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(dyn), 0])})[0]


def _subview(em, src, offsets, sizes, strides):
    from ..dialects.memref_layout import subview_type
    static, dyn = _split(sizes)
    t = subview_type(src.type, offsets, static, strides)
    props = {"static_offsets": A.DenseArrayAttr(A.i64, offsets),
             "static_sizes": A.DenseArrayAttr(A.i64, static),
             "static_strides": A.DenseArrayAttr(A.i64, strides),
             "operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, len(dyn), 0])}
    return em.v("memref.subview", [src] + dyn, [t], props)[0]


def _phases(mosaic, in_sizes=None):
    """Per phase (a, b): (a, b, rows, cols), the rows and columns of the phase that the
    block holds: of the image (`in_sizes`, its H and W: at most the block's q + 2) or of
    the output (q_a = ceil((OH - a) / d))."""
    (dh, qh), (dw, qw) = mosaic.axes
    for a in range(dh):
        for b in range(dw):
            if in_sizes is None:
                n, m = mosaic.out_rows(0, a), mosaic.out_rows(1, b)
            else:
                n = min(-(-(in_sizes[0] - a) // dh), qh + 2)
                m = min(-(-(in_sizes[1] - b) // dw), qw + 2)
            if n > 0 and m > 0:
                yield a, b, n, m


def _strided(m) -> bool:
    from ..dialects.memref_layout import strides_and_offset
    return strides_and_offset(m.type) is not None


def _expand(em, m, rows, cols):
    """NCHW memref `m` (H = rows[0]*rows[1], W = cols[0]*cols[1]) viewed 6-D as
    N x C x rows x cols, each axis split in two."""
    from ..dialects.memref_layout import expanded_type
    shape, dyn = _split([em.size(m, 0), em.size(m, 1)] + list(rows) + list(cols))
    groups = [[0], [1], [2, 3], [4, 5]]
    reassoc = A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(k, A.i64) for k in g]) for g in groups])
    return em.v("memref.expand_shape", [m] + dyn, [expanded_type(m.type, shape, groups)],
                {"reassociation": reassoc,
                 "static_output_shape": A.DenseArrayAttr(A.i64, shape)})[0]


def _phase_copy(em, image, mosaic_view, rows, cols, into_mosaic):
    """One linalg.generic copying every phase at once: the image's element
    (i*dh + a, j*dw + b) is the mosaic's (a*P + i, b*Q + j) (`rows` = (dh, i's extent),
    `cols` the same; `mosaic_view` already 6-D, N x C x dh x . x dw x .): one parallel
    loop nest where the copies of each phase on its own are d*d of them."""
    from ..dialects.linalg import make_generic
    from ..ir.builder import Builder
    (dh, ih), (dw, jw) = rows, cols
    view = _expand(em, image, (ih, dh), (jw, dw))
    dims = "(d0, d1, d2, d3, d4, d5)"
    ident = f"{dims} -> (d0, d1, d2, d3, d4, d5)"
    swapped = f"{dims} -> (d0, d1, d3, d2, d5, d4)"
    src, dst = (view, mosaic_view) if into_mosaic else (mosaic_view, view)
    maps = [swapped, ident] if into_mosaic else [ident, swapped]
    b = Builder.before(em.before, em.loc)
    make_generic(b, [src], [dst], maps, ["parallel"] * 6, lambda pb, args: args[0])


def _mosaic_image(em, x, mosaic):
    """The mosaic Q of image `x` (see [Note: dilated convolutions as a mosaic]): a fresh
    buffer, each phase copied into its block (zero-filled first where the image does
    not fill the blocks)."""
    from ..dialects.linalg import FillOp
    _, C, H, W = x.type.shape
    N = em.size(x, 0)       # an int, or a dynamic batch's value
    q = _alloc(em, [N, C] + mosaic.image())
    (dh, qh), (dw, qw) = mosaic.axes
    if H >= dh * (qh + 2) and W >= dw * (qw + 2) and _strided(x):
        # every block full: one copy of all phases (see _phase_copy)
        if (H, W) != (dh * (qh + 2), dw * (qw + 2)):
            x = _subview(em, x, [0] * 4, [N, C, dh * (qh + 2), dw * (qw + 2)], [1] * 4)
        _phase_copy(em, x, _expand(em, q, (dh, qh + 2), (dw, qw + 2)), (dh, qh + 2),
                    (dw, qw + 2), True)
        return q
    phases = list(_phases(mosaic, (H, W)))
    if len(phases) < dh * dw or any(n < qh + 2 or m < qw + 2 for _, _, n, m in phases):
        # blocks the image does not fill (its rows past the last output's window):
        # zeros, never garbage (Winograd's tiles mix every input of their 4x4 patch)
        zero = em.v("arith.constant", [], [A.f32], {"value": A.FloatAttr(0.0, A.f32)})[0]
        em.block.insert_before(em.before, FillOp.new([zero], [q], loc=em.loc))
    for a, b, n, m in phases:
        src = _subview(em, x, [0, 0, a, b], [N, C, n, m], [1, 1, dh, dw])
        dst = _subview(em, q, [0, 0, a * (qh + 2), b * (qw + 2)], [N, C, n, m], [1] * 4)
        em.v("memref.copy", [src, dst], [])
    return q


def _mosaic_result(em, r, out, mosaic):
    """The outputs in `r` (the mosaic's convolution) copied to their places in `out`."""
    N, F = em.size(out, 0), out.type.shape[1]
    (dh, qh), (dw, qw) = mosaic.axes
    if mosaic.n == [dh * qh, dw * qw] and _strided(out):
        # r holds whole blocks (d*(q+2) rows and columns; the kernel wrote the first
        # d*(q+2) - 2 of each through its strides)
        blocks = _expand(em, r, (dh, qh + 2), (dw, qw + 2))
        blocks = _subview(em, blocks, [0] * 6, [N, F, dh, qh, dw, qw], [1] * 6)
        _phase_copy(em, out, blocks, (dh, qh), (dw, qw), False)
        return
    for a, b, n, m in _phases(mosaic):
        src = _subview(em, r, [0, 0, a * (qh + 2), b * (qw + 2)], [N, F, n, m], [1] * 4)
        dst = _subview(em, out, [0, 0, a, b], [N, F, n, m], [1, 1, dh, dw])
        em.v("memref.copy", [src, dst], [])


def _padded_destination(out, op, epilogue):
    """The `memref.copy %out, %interior` that pads the kernel's output when `out` (an
    alloc) is used by nothing else but `op`, `epilogue` and deallocs, %interior being a
    subview of a fresh buffer that is allocated and filled (linalg.map / linalg.fill)
    after `op`; those ops then move before `op`, so that the kernel writes the interior
    and the copy can go. Else None."""
    if out.defining_op is None or out.defining_op.name != "memref.alloc":
        return None
    copy = None
    for u in out.uses:
        o = u.owner
        if o is op or o is epilogue or o.name == "memref.dealloc":
            continue
        if o.name != "memref.copy" or copy is not None or o.operands[0] is not out:
            return None
        copy = o
    if copy is None or copy.parent is not op.parent:
        return None
    sv = copy.operands[1].defining_op
    if sv is None or sv.name != "memref.subview" or not _strided_images(sv.results[0].type):
        return None
    big = sv.operands[0]
    alloc = big.defining_op
    if alloc is None or alloc.name != "memref.alloc" or alloc.parent is not op.parent:
        return None
    between, o = [], op.next
    while o is not None and o is not copy:
        between.append(o)
        o = o.next
    if o is None or alloc not in between or sv not in between:
        return None
    inside = set(between)
    fills = []
    for u in big.uses:
        o = u.owner
        if o is sv or o not in inside:      # readers of the padded buffer come later
            continue
        if o.name not in ("linalg.map", "linalg.fill") or o.operands[-1] is not big or \
                len(o.operands) > 2:
            return None
        fills.append(o)
    seen = {alloc, sv, *fills}
    moving = [o for o in between if o in seen]
    for m in moving:
        inner = set(m.walk())
        used = [x for o in inner for x in o.operands
                if x.defining_op is not None and x.defining_op not in inner]
        if not all(_defined_before(x, op) or x.defining_op in seen for x in used):
            return None
    for m in moving:
        m.detach()
        op.parent.insert_before(op, m)
    return copy


class LinalgConvToWinograd(Pass):
    name = "strata-linalg-conv-to-winograd"
    summary = ("Lower 3x3 stride-1 f32 NCHW convolutions with constant filters to the CPU "
               "target's Winograd F(2x2, 3x3) or F(4x4, 3x3) kernel")
    display_name = "StrataLinalgConvToWinogradPass"
    min_channels = Option(int, 8, "Fewest input and output channels a convolution must "
                          "have to be rewritten")
    fuse = Option(bool, True, "Fuse the bias broadcast before and an elementwise "
                  "residual add and/or ReLU after into the kernel's epilogue")
    panel_width = Option(int, 0, "The kernels' NR: filters of 2 panels and 32 channels up "
                         "are packed in panels of NR for the transposed products (0: none)")
    tile4_min_tiles = Option(int, 0, "Images of at least this many 4x4 output tiles run "
                             "as F(4x4, 3x3): fewer multiplies, a larger U, ~10x the "
                             "rounding error (0: never)")
    few_tiles = Option(int, 0, "Images of fewer 2x2 output tiles than this keep the "
                       "direct product when U is larger than few-tiles-max-u floats "
                       "(0: never)")
    few_tiles_max_u = Option(int, 0, "The largest U (16 x F x C floats) an image of fewer "
                             "than few-tiles tiles runs as Winograd with")

    def run(self, op):
        conv_to_winograd(op, self.min_channels, self.fuse, self.panel_width,
                         self.tile4_min_tiles, self.few_tiles, self.few_tiles_max_u)


from ..passes.registry import register_pass  # noqa: E402

register_pass(LinalgConvToWinograd)
