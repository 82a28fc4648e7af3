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
           "zero_point_rows", "quantize", "pad", "Window", "window", "window_expr",
           "ints_attr", "i64_elements", "transpose", "minus_zero_point"]


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


def zero_point_rows(cx, v, rank: int):
    """A zero point or scale `v`: a 1-D tensor of more than one element quantizes the
    rows of a rank-`rank` matrix operand, so it is reshaped to (M, 1) to broadcast along
    dim -2; anything else broadcasts as it is."""
    from ._shape_util import expand
    t = ranked(cx, v.type, "a zero point or scale")
    if rank >= 2 and t.rank == 1 and t.shape[0] != 1:
        return expand(cx, v, [[0, 1]], [dim_size(cx, v, 0), 1])
    return v


def minus_zero_point(cx, i: int, zp_index: int, align=None):
    """Operand `i` of an integer op as i32 minus its zero point (operand `zp_index`, when
    given); `align(zero point, rank)` reshapes the zero point to broadcast against it."""
    from .common import cast_tensor
    x = cast_tensor(cx, cx.operands[i], A.i32, not is_unsigned(cx.orig_type(i)))
    if not cx.has_operand(zp_index):
        return x
    zp = cx.operands[zp_index]
    if align is not None:
        zp = align(zp, x.type.rank)
    zs = not is_unsigned(cx.orig_type(zp_index))
    return elementwise(cx, [x, zp], A.i32, lambda s, v, z: s.sub(v, s.cast(z, A.i32, zs)))


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


# ------------------------------------------------------------------ padding and windows


def pad(cx, x, low, high, value):
    """`tensor.pad` of ranked tensor `x` by mixed, non-negative `low`/`high` sizes with
    the scalar Value `value` (no op when nothing is padded)."""
    from ...dialects.tensor import PadOp, YieldOp
    from ...ir.core import Block
    from ._shape_util import mixed_split
    if all(isinstance(v, int) and v == 0 for v in list(low) + list(high)):
        return x
    sl, dl = mixed_split(low)
    sh, dh = mixed_split(high)
    shape = [DYN if DYN in (d, a, b) else d + a + b for d, a, b in zip(x.type.shape, sl, sh)]
    rt = A.RankedTensorType(shape, x.type.element_type)
    op = PadOp.build(source=x, low=dl, high=dh, static_low=A.DenseArrayAttr(A.i64, sl),
                     static_high=A.DenseArrayAttr(A.i64, sh), result=rt, loc=cx.loc)
    block = op.regions[0].add_block(Block([A.index] * x.type.rank, [cx.loc] * x.type.rank))
    block.append(YieldOp.build(value=value, loc=cx.loc))
    return cx.b.insert(op).results[0]


class Window:
    """The sliding window of a convolution or pooling over the spatial dims: kernel,
    strides, dilations, the padding `low`/`high` the ONNX attributes ask for, `extra`
    (positions past `high` that ceil_mode windows read, never counted) and the output
    sizes `out` (mixed)."""

    __slots__ = ("kernel", "strides", "dilations", "low", "high", "extra", "out")

    def span(self, i: int) -> int:
        return (self.kernel[i] - 1) * self.dilations[i] + 1


def ints_attr(cx, name, n, default, positive=False):
    """List attribute `name` of `n` ints (default: `n` times `default`); a wrong length,
    or a non-positive value when `positive`, is NotLowerable."""
    v = cx.attr(name, None)
    if v is None:
        return [default] * n
    v = [int(x) for x in v]
    if len(v) != n:
        raise NotLowerable(f"attribute '{name}' has {len(v)} values, expected {n}")
    if positive and any(x <= 0 for x in v):
        raise NotLowerable(f"attribute '{name}' must be positive, not {v}")
    return v


def window(cx, in_sizes, kernel, ceil_mode=False, strides=None, dilations=None,
           pads=None) -> Window:
    """The Window over spatial input sizes `in_sizes` (mixed) of a convolution or pooling
    whose `strides`, `dilations` and `pads` (all the low pads, then all the high pads)
    are given, or, where None, read from op `cx.op`'s ONNX attributes (with auto_pad).
    The output sizes follow ONNX's rules, which are PyTorch's too: floor, or ceil with
    the last window starting inside the input or its low padding, as onnxruntime,
    onnx.reference and ATen count them; see pool_out_dim in
    strata/transforms/onnx_shape_inference/rules.py."""
    from ._shape_util import Ix
    n = len(in_sizes)
    w = Window()
    w.kernel = [int(k) for k in kernel]
    w.strides = ints_attr(cx, "strides", n, 1) if strides is None else list(strides)
    w.dilations = ints_attr(cx, "dilations", n, 1) if dilations is None \
        else list(dilations)
    if any(v <= 0 for v in w.strides + w.dilations + w.kernel):
        raise NotLowerable("strides, dilations and kernel sizes must be positive")
    given = pads is not None
    pads = ints_attr(cx, "pads", 2 * n, 0) if pads is None else list(pads)
    if any(p < 0 for p in pads):
        raise NotLowerable("negative pads are not supported")
    auto = "NOTSET" if given else cx.attr("auto_pad", "NOTSET")
    ix = Ix(scalars(cx))
    w.low, w.high, w.extra, w.out = [], [], [], []
    for i, size in enumerate(in_sizes):
        s, span = w.strides[i], w.span(i)
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            out = ix.ceildiv(size, s)
            total = ix.max(ix.sub(ix.add(ix.mul(ix.sub(out, 1), s), span), size), 0)
            half = ix.floordiv(total, 2)
            lo = half if auto == "SAME_UPPER" else ix.sub(total, half)
            hi = ix.sub(total, lo)
        elif auto in ("NOTSET", "VALID"):  # VALID: no padding
            lo, hi = (pads[i], pads[n + i]) if auto == "NOTSET" else (0, 0)
            avail = ix.sub(ix.add(size, lo + hi), span)
            if ceil_mode:
                out = ix.add(ix.ceildiv(avail, s), 1)
                # the last window must start inside the input or its low padding
                late = ix.cmp("ge", ix.mul(ix.sub(out, 1), s), ix.add(size, lo))
                out = ix.select(late, ix.sub(out, 1), out)
            else:
                out = ix.add(ix.floordiv(avail, s), 1)
            # A kernel wider than the padded input by less than two strides: no window
            # (onnxruntime truncates (avail / s + 1) toward zero); by more, the size is
            # negative, an error (_non_negative_out), as in onnxruntime.
            out = ix.select(ix.cmp("gt", avail, -2 * s), ix.max(out, 0), out)
        else:
            raise NotLowerable(f"unknown auto_pad '{auto}'")
        out = _non_negative_out(cx, out, i)
        extra = 0
        if ceil_mode:
            if all(Ix.known(v) for v in (size, lo, hi, out)) and out == 1 and \
                    w.dilations[i] == 1 and w.kernel[i] > size + lo + hi:
                # One window overhanging the padded input (HF EfficientNet's pooler is
                # AvgPool2d(1280, ceil_mode=True) on 7x7): only its padded-input part
                # is read or counted, so that is its kernel; reading the overhang too
                # padded the input to 1280x1280 (8 GB, 27 s a call).
                w.kernel[i] = size + lo + hi
                w.out.append(out)
                w.low.append(lo)
                w.high.append(hi)
                w.extra.append(0)
                continue
            need = ix.add(ix.mul(ix.sub(out, 1), s), span)
            extra = ix.max(ix.sub(need, ix.add(size, ix.add(lo, hi))), 0)
        w.low.append(lo)
        w.high.append(hi)
        w.extra.append(extra)
        w.out.append(out)
    return w


def _non_negative_out(cx, out, i):
    """A window's output size `out` (mixed) on spatial axis `i`, checked >= 0 (the padded
    input holds a window, or at least is not shorter by a stride: onnxruntime's rule):
    a compile error when known negative, else a cf.assert naming the node, and 0 after
    a failed check (a negative size would be allocated)."""
    from ._index_check import all_of, check_dims
    from ._shape_util import Ix
    ok = all_of(cx, check_dims(cx, [(0, out, "le", f"the output size of spatial axis {i} "
                                                   "is negative (the padded input is "
                                                   "shorter than the window)")]))
    return out if ok is True else Ix(scalars(cx)).select(ok, out, 0)


def window_expr(o: int, k: int, stride: int, dilation: int) -> str:
    """Affine expression text of the input position read by output loop `o` and window
    loop `k`: `d{o} * stride + d{k} * dilation`."""
    a = f"d{o}" if stride == 1 else f"d{o} * {stride}"
    b = f"d{k}" if dilation == 1 else f"d{k} * {dilation}"
    return f"{a} + {b}"


def i64_elements(values):
    """A `dense<[...]> : tensor<Nxi64>` attribute (named convolution strides/dilations)."""
    from ...ir.dense import DenseElementsAttr
    return DenseElementsAttr(A.RankedTensorType((len(values),), A.i64), list(values))


def transpose(cx, v, perm):
    """`linalg.transpose` of ranked tensor `v` by `perm` (result dim i = input dim
    perm[i])."""
    from ...dialects.linalg import TransposeOp
    if list(perm) == list(range(len(perm))):
        return v
    init = empty(cx, [dim_size(cx, v, p) for p in perm], v.type.element_type)
    return cx.b.insert(TransposeOp.new(v, init, list(perm), loc=cx.loc)).results[0]
