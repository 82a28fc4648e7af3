"""`strata-linalg-conv-to-winograd`: 3x3, stride-1, undilated f32 NCHW convolutions with
a constant filter become calls of the CPU target's Winograd kernel,
strata_conv2d_winograd_f32 ([Note: Winograd convolution] in
strata/backends/cpu/kernels_winograd.py), with the filter transformed now, once.

    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                              strides = dense<1> : tensor<2xi64>}
        ins(%x, %w : memref<1x64x58x58xf32>, memref<64x64x3x3xf32>)
        outs(%y : memref<1x64x56x56xf32>)
=>
    %u = memref.get_global @w_winograd : memref<65536xf32>     (16 x F x C: G g G^T)
    call @strata_conv2d_winograd_f32(%N, %C, %H, %W, %F, %OH, %OW, %x_ptr, <x's strides>,
                                     %u_ptr, %y_ptr, <y's batch stride>, %accumulate)

Matched: what strata-linalg-to-microkernels would lower to strata_conv2d_nchw_f32
(match_conv: unit inner stride input, contiguous filter and output images), with a 3x3
window, strides and dilations 1, a filter read from a constant memref.global with its
data (or a whole view of one), and at least `min-channels` input and output channels
(with fewer, the transforms cost more than the products save). The output is
overwritten when a zero fill precedes the convolution (erased), else accumulated into,
as strata-linalg-to-microkernels does. Runs after bufferization, before
strata-linalg-to-microkernels (which takes the convolutions left).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass
from .linalg_to_microkernels import (_accumulate, _declare, _defined_before,
                                     _drop_if_dead, _elementwise, _Emit, _ready_before,
                                     _Weights, broadcast_before, global_data, identity_on,
                                     match_conv, relu_then_yield)

__all__ = ["LinalgConvToWinograd", "conv_to_winograd", "KERNEL"]

KERNEL = "strata_conv2d_winograd_f32"


def _ones(op, name) -> bool:
    return tuple(op._window_values(name)) == (1, 1)


def _matches(op, min_channels: int) -> bool:
    if op.name != "linalg.conv_2d_nchw_fchw" or match_conv(op) != "nchw":
        return False
    shape = op.operand_types[1].shape
    return (len(shape) == 4 and A.DYNAMIC not in shape and tuple(shape[2:]) == (3, 3) and
            min(shape[0], shape[1]) >= min_channels and _ones(op, "strides") and
            _ones(op, "dilations"))


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
        g, data = _filter_data(weights, w)
        if g is None or _streams_u(data.shape, y.type.shape, few_tiles, few_tiles_max_u):
            continue
        packed = _packed_filters(data.shape, panel_width)
        tile = 4 if _large_tiles(y.type.shape, tile4_min_tiles) else 2
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
                (epi[1] is None or _ready_before(epi[1], op)):
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
        out_ptr = em.pointer(out)
        args = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(w, 0), s(y, 2), s(y, 3),
                em.pointer(x), st(x, 0), st(x, 1), st(x, 2), em.pointer(read),
                out_ptr, st(out, 0), st(out, 1), st(out, 2), acc,
                em.pointer(bias_value) if bias is not None else out_ptr,
                em.pointer(res) if res is not None else out_ptr]
        args += [st(res, i) for i in range(3)] if res is not None else [0, 0, 0]
        args.append(em.i32(flags))
        call = em.call(KERNEL, args)
        op.erase()
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
