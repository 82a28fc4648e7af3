"""Helpers of the contraction, convolution, pooling and recurrent lowerings: filled
tensors, indexing-map text, accumulator types, zero points and requantization.

Sizes are "mixed" (see _shape_util): a Python int when static, else an `index` Value.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import element_type, is_float
from . import NotLowerable
from .common import DYN, elementwise, empty, is_unsigned, ranked, scalars

__all__ = ["acc_type", "dim_size", "filled", "map_text", "generic_maps", "round_to",
           "zero_point_rows", "quantize"]


def acc_type(elt):
    """The element type products of `elt` accumulate in: f32 for the narrow floats."""
    if type(elt) is A.FloatType and elt.width < 32:
        return A.f32
    return elt


def dim_size(cx, v, k: int):
    """Size of dim `k` (negative: from the end) of ranked tensor `v`: an int when static,
    else a `tensor.dim` Value."""
    t = v.type
    k = k + t.rank if k < 0 else k
    d = t.shape[k]
    if d != DYN:
        return d
    s = scalars(cx)
    return s.op1("tensor.dim", [v, s.index(k)], A.index)


def filled(cx, sizes, elt, value=0):
    """A tensor of mixed `sizes` and element type `elt` filled with `value` (a Python
    number or a scalar Value) by `linalg.fill`."""
    from ...dialects.linalg import FillOp
    s = scalars(cx)
    init = empty(cx, sizes, elt)
    v = value if not isinstance(value, (int, float)) else s.const(value, elt)
    return cx.b.insert(FillOp.new([v], [init], loc=cx.loc)).results[0]


def map_text(n_dims: int, results) -> str:
    """Affine map text over `n_dims` loops: a result is a loop number, or expression text
    in d0, d1... (`"0"`, `"d1 * 2 + d4"`)."""
    ds = ", ".join(f"d{i}" for i in range(n_dims))
    rs = ", ".join(f"d{r}" if isinstance(r, int) else r for r in results)
    return f"({ds}) -> ({rs})"


def generic_maps(maps):
    from ...dialects.linalg.structured import to_affine_map
    return [to_affine_map(m) for m in maps]


def round_to(cx, v, elt):
    """Tensor `v` converted to element type `elt` (no op when it already is)."""
    if element_type(v.type) is elt:
        return v
    return elementwise(cx, [v], elt, lambda s, x: s.cast(x, elt), result_shape=v.type.shape)


def zero_point_rows(cx, i: int, rank: int):
    """Operand `i` (a zero point or scale): a 1-D tensor of more than one element
    quantizes the rows of a rank-`rank` matrix operand, so it is reshaped to (M, 1) to
    broadcast along dim -2; anything else broadcasts as it is."""
    from ._shape_util import expand
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    if rank >= 2 and t.rank == 1 and t.shape[0] != 1:
        return expand(cx, v, [[0, 1]], [dim_size(cx, v, 0), 1])
    return v


def quantize(cx, acc, scales, y_scale: int, y_zero: int):
    """The requantization of QLinearMatMul/QLinearConv (as ONNX's reference computes it):
    `saturate(round_even(acc * (s1 * s2 / y_scale) + y_zero))`, the scale product in the
    scales' type, the rest in f64. `scales`: the input scale tensors, broadcastable to
    `acc`; operand `y_zero` may be absent (the result type says the integer type)."""
    out_elt = element_type(cx.result_type())
    out_unsigned = is_unsigned(cx.op.results[0].type)
    if not isinstance(out_elt, A.IntegerType):
        raise NotLowerable(f"quantized result type {out_elt} is not an integer")
    w = out_elt.width
    lo, hi = (0, (1 << w) - 1) if out_unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    vals = [acc] + list(scales) + [cx.operands[y_scale]]
    has_zp = cx.has_operand(y_zero)
    if has_zp:
        vals.append(cx.operands[y_zero])
    zp_signed = has_zp and not is_unsigned(cx.orig_type(y_zero))
    if not all(is_float(v.type) for v in vals[1:len(scales) + 2]):
        raise NotLowerable("scales must be floats")

    def body(s, a, *rest):
        sc = rest[0]
        for x in rest[1:len(scales)]:
            sc = s.mul(sc, s.cast(x, sc.type))
        sc = s.div(sc, s.cast(rest[len(scales)], sc.type))
        r = s.mul(s.cast(a, A.f64), s.cast(sc, A.f64))
        if has_zp:
            r = s.add(r, s.cast(rest[-1], A.f64, zp_signed))
        r = s.math("roundeven", r)
        r = s.op1("arith.minimumf", [s.op1("arith.maximumf", [r, s.const(lo, A.f64)],
                                           A.f64), s.const(hi, A.f64)], A.f64)
        return s.cast(r, out_elt, True, not out_unsigned)
    return elementwise(cx, vals, out_elt, body, result_shape=acc.type.shape)
