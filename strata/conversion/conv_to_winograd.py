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
from .linalg_to_microkernels import (_VIEWS, _accumulate, _declare, _Emit, _Weights,
                                     match_conv)

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
    """The F x C x 3 x 3 array of the constant global filter `w` is read from, or None."""
    from ..ir.dense import DenseElementsAttr, DenseResourceElementsAttr
    src = w
    while src.defining_op is not None and src.defining_op.name in _VIEWS:
        src = src.defining_op.operands[0]
    g = weights._global_of(src)
    if g is None:
        return None, None
    init = g.properties["initial_value"]
    if isinstance(init, DenseResourceElementsAttr):
        data = init.array()
    elif isinstance(init, DenseElementsAttr):
        data = init.array
    else:
        return None, None
    return g, data.reshape(w.type.shape)


def conv_to_winograd(module, min_channels: int = 8) -> int:
    """Rewrite the matched convolutions of `module`; returns how many."""
    from ..backends.cpu.kernels_winograd import winograd_filter
    weights = _Weights(module, 0)
    made = {}
    count = 0
    for op in [o for o in module.walk() if _matches(o, min_channels)]:
        x, w, y = op.operands
        g, data = _filter_data(weights, w)
        if g is None:
            continue
        u = made.get(g)
        if u is None:
            u = made[g] = weights._new_global(g, winograd_filter(data).reshape(-1),
                                              suffix="_winograd")
        em = _Emit(op)
        acc = _accumulate(em, op, y)
        read = em.v("memref.get_global", [], [u.properties["type"].value],
                    {"name": A.SymbolRefAttr(u.properties["sym_name"].value)})[0]
        s = em.size
        args = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(w, 0), s(y, 2), s(y, 3),
                em.pointer(x), em.stride(x, 0), em.stride(x, 1), em.stride(x, 2),
                em.pointer(read), em.pointer(y), em.stride(y, 0), acc]
        em.call(KERNEL, args)
        op.erase()
        weights.release(w)
        count += 1
    weights.finish()
    if count:
        _declare(module, {KERNEL})
    return count


class LinalgConvToWinograd(Pass):
    name = "strata-linalg-conv-to-winograd"
    summary = ("Lower 3x3 stride-1 f32 NCHW convolutions with constant filters to the CPU "
               "target's Winograd F(2x2, 3x3) kernel")
    display_name = "StrataLinalgConvToWinogradPass"
    min_channels = Option(int, 8, "Fewest input and output channels a convolution must "
                          "have to be rewritten")

    def run(self, op):
        conv_to_winograd(op, self.min_channels)


from ..passes.registry import register_pass  # noqa: E402

register_pass(LinalgConvToWinograd)
