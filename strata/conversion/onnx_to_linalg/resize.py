"""ONNX resampling ops -> linalg: Resize, Upsample, GridSample (and RoiAlign).

[Note: separable resampling]
Resize works one axis at a time (as ONNX's reference does). For each resized axis a
small linalg.generic computes, from the output coordinate alone, a table of the source
positions read by each output position and their weights ([out, taps]): the coordinate
transformation, the interpolation kernel (linear, cubic with `cubic_coeff_a`, stretched
by 1/scale with `antialias`), the edge clamping, `exclude_outside`'s renormalization and
`tf_crop_and_resize`'s extrapolation mask. One linalg.generic per axis then gathers and
sums the taps (`tensor.extract` at the tabled position, a reduction loop over taps).
The number of taps is static except for antialiasing with a run-time scale.

[Note: resampling loops]
An axis's pass is one parallel linalg.generic over its result, the taps unrolled in the
body (w0 * x[i0] + w1 * x[i1] for linear: no zero fill, no reduction loop), so that a
pass along an outer axis (H of NCHW) reads whole rows at two positions and its inner
loop is a vector lerp; only a pass along the innermost axis gathers. The outer pass
computes its positions and weights in its body from the row index (`_inline_taps`):
loads from tables, buffers the result's store might alias, would stay in the inner loop
and keep it scalar. Static sizes
order the passes to make the least work: the most shrinking axis first (the next pass
then reads less), and, where ratios are equal (a 2-D upsampling), the innermost axis
first, so its gathers fill the input's rows only (16 rows, not 128, for Segformer's
16x16 -> 128x128) and the outer pass, vectorized, writes the full result. The sums
differ from axis order by rounding only.
Nearest mode needs no weights: one table of positions per axis and one gather over all
axes. Coordinates are computed in f64 as the reference does (ties of nearest rounding
and exact integer positions then agree); sums are in f32 (f64 for f64 data) and the
result is rounded (integers: half to even, saturated) to the input type.

Scales, sizes and roi may be run-time tensors: only the result's rank is needed, and
result sizes that the type leaves dynamic are computed as ONNX defines them; run-time
scales and sizes are checked (see [Note: Resize checks]):

    %ok = arith.cmpf ogt, %scale, %zero : f64         // and olt %scale, +inf
    cf.assert %ok, "Resize at r0: scales must be positive and finite"
"""
from __future__ import annotations

import math

import numpy as np

from ...ir import attributes as A
from ..scalar_builders import element_type, is_float
from . import NotLowerable, lowering
from ._linalg_util import filled, map_text
from ._shape_util import Ix, finish, norm_axis, out_sizes, sizes
from .common import constant_array, empty, generic_op, is_unsigned, ranked, scalars

F64 = A.f64

_COORD_MODES = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                "tf_crop_and_resize", "half_pixel_symmetric", "tf_half_pixel_for_nn")
_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def _f64(s, v):
    """Mixed index `v` (int or index Value) as an f64 Value."""
    if isinstance(v, (int, np.integer)):
        return s.const(float(v), F64)
    return s.cast(v, F64)


class _Operand:
    """A small 1-D operand read element by element: constants as Python numbers."""

    __slots__ = ("cx", "i", "value", "array")

    def __init__(self, cx, i):
        self.cx, self.i, self.value = cx, i, cx.operands[i]
        a = constant_array(cx.op.operands[i])
        if a is None:
            a = constant_array(cx.operands[i])
        self.array = None if a is None else np.asarray(a).reshape(-1)

    def length(self):
        if self.array is not None:
            return self.array.size
        t = ranked(self.cx, self.value.type, f"operand #{self.i}")
        if t.rank != 1 or t.shape[0] == A.DYNAMIC:
            raise NotLowerable(f"operand #{self.i} must be a 1-D tensor of static length")
        return t.shape[0]

    def elt(self):
        return element_type(self.value.type)

    def get(self, s, k):
        """(Python value or None, Value of the operand's element type)."""
        if self.array is not None:
            v = self.array[k].item()
            return v, s.const(v, self.elt())
        return None, s.op1("tensor.extract", [self.value, s.index(k)], self.elt())


class _Axis:
    """One resized axis: sizes (mixed), the scale (f64 Value, and Python float when
    known), the fractional output width `scale * in` and the roi terms. `sized`: the
    scale is out / in, from a `sizes` element (stretched), so that equal sizes make it
    exactly 1 even when the element is only known at run time."""

    __slots__ = ("dim", "n_in", "n_out", "scale", "scale_py", "width", "roi_len",
                 "roi_start", "checks", "sized", "kept")

    def __init__(self, dim, n_in):
        self.dim, self.n_in = dim, n_in
        self.sized = False
        self.kept = False   # the size is the input's (one dim symbol): see _keeps_size
        self.n_out = self.scale = self.scale_py = self.width = None
        self.roi_len = self.roi_start = None
        self.checks = []    # run-time conditions on the sizes: see [Note: Resize checks]


class _Spec:
    __slots__ = ("mode", "coord", "nearest", "cubic_a", "exclude", "extrap", "antialias")


# ------------------------------------------------------------------ the op forms


@lowering("Resize")
def _resize(cx):
    from ...dialects.onnx import opset_version
    if opset_version(cx.op) < 11:
        return _resize_v10(cx)
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    sp = _Spec()
    sp.mode = cx.attr("mode", "nearest")
    sp.coord = cx.attr("coordinate_transformation_mode", "half_pixel")
    sp.nearest = cx.attr("nearest_mode", "round_prefer_floor")
    sp.cubic_a = float(cx.attr("cubic_coeff_a", -0.75))
    sp.exclude = bool(cx.attr("exclude_outside", 0))
    sp.extrap = float(cx.attr("extrapolation_value", 0.0))
    sp.antialias = bool(cx.attr("antialias", 0))
    policy = cx.attr("keep_aspect_ratio_policy", "stretch")
    axes = cx.attr("axes", None)
    axes = list(range(r)) if axes is None else [norm_axis(int(a), r) for a in axes]
    if len(set(axes)) != len(axes):
        raise NotLowerable(f"Resize axes {axes} repeat an axis")
    scales = _Operand(cx, 2) if cx.has_operand(2) else None
    if scales is not None and scales.length() == 0:
        scales = None
    sizes_op = _Operand(cx, 3) if cx.has_operand(3) else None
    if sizes_op is not None and sizes_op.length() == 0:
        sizes_op = None
    if (scales is None) == (sizes_op is None):
        raise NotLowerable("Resize needs exactly one of scales and sizes")
    given = scales if scales is not None else sizes_op
    if given.length() != len(axes):
        raise NotLowerable(f"Resize has {given.length()} scales or sizes for "
                           f"{len(axes)} axes")
    if policy not in ("stretch", "not_larger", "not_smaller"):
        raise NotLowerable(f"unknown keep_aspect_ratio_policy '{policy}'")
    s = scalars(cx)
    ix = Ix(s)
    dims = sizes(cx, x)
    static = _static_sizes(cx, r)
    spec = {}
    for k, d in enumerate(axes):
        ax = spec[d] = _Axis(d, dims[d])
        if scales is not None:
            py, v = scales.get(s, k)
            _scale_of(cx, ax, py, v)
        else:
            _size_of(cx, ax, *sizes_op.get(s, k))
    if sizes_op is not None and policy == "stretch":
        _keeps_size(cx, x, spec)
    if sizes_op is not None and policy != "stretch":
        pick = s.min if policy == "not_larger" else s.max
        one = spec[axes[0]].scale
        known = [spec[d].scale_py for d in axes]
        for d in axes[1:]:
            one = pick(one, spec[d].scale)
        py = None if None in known else (min if policy == "not_larger" else max)(known)
        for d in axes:
            ax = spec[d]
            ax.scale, ax.scale_py, ax.sized = one, py, False
            if py is not None and ix.known(ax.n_in):
                ax.n_out = _floor_size(cx, ax, py * ax.n_in + 0.5)
            else:
                ax.n_out = _floor_size(cx, ax, s.add(s.mul(one, _f64(s, ax.n_in)),
                                                     s.const(0.5, F64)))
    for d in axes:
        ax = spec[d]
        if sizes_op is not None:
            ax.width = s.mul(ax.scale, _f64(s, ax.n_in))
    if sp.coord == "tf_crop_and_resize":
        if not cx.has_operand(1):
            raise NotLowerable("tf_crop_and_resize needs the roi input")
        roi = _Operand(cx, 1)
        if roi.length() != 2 * len(axes):
            raise NotLowerable(f"roi has {roi.length()} values, expected {2 * len(axes)}")
        if not is_float(roi.elt()):
            raise NotLowerable("roi must be a float tensor")
        for k, d in enumerate(axes):
            ax = spec[d]
            _, lo = roi.get(s, k)
            _, hi = roi.get(s, len(axes) + k)
            # as the reference: the roi's own float type for these two products
            last = s.cast(_f64(s, ix.sub(ax.n_in, 1)), roi.elt())
            ax.roi_len = s.cast(s.sub(hi, lo), F64)
            ax.roi_start = s.cast(s.mul(lo, last), F64)
    return [_resample(cx, x, spec, [spec[d] for d in axes], sp, static)]


def _static_sizes(cx, r):
    """The result type's static size per axis (None where dynamic or unknown)."""
    rt = cx.result_type()
    return [d if d != A.DYNAMIC else None for d in rt.shape] \
        if type(rt) is A.RankedTensorType and rt.rank == r else [None] * r


def _keeps_size(cx, x, spec):
    """Mark the axes whose `sizes` element is the input's own dynamic size: the result's
    dim has the input dim's symbol (onnx-shape-inference follows `Shape(x)` into
    `sizes`; Segformer's decoder resizes [batch, C, h, w] to `Concat(Shape(x)[0:2],
    hw)`). Such an axis is the identity and needs no run-time check."""
    from .common import operand_symbols, result_symbols
    ins, outs = operand_symbols(cx, x), result_symbols(cx)
    if ins is None or outs is None:
        return
    for d, ax in spec.items():
        if ins[d] is not None and ins[d] == outs[d]:
            ax.kept = True


def _size_of(cx, ax, py, v):
    """Set `ax`'s output size from a sizes element (`py` its Python value when known,
    `v` its Value) and its scale out / in."""
    s = scalars(cx)
    if py is not None and int(py) < 0:
        raise NotLowerable(f"sizes must be non-negative (axis {ax.dim}: {int(py)})")
    ax.n_out = int(py) if py is not None else s.cast(v, A.index)
    if py is None:
        ax.checks.append((0, ax.n_out, "le", "sizes must be non-negative"))
    ax.scale = s.div(_f64(s, ax.n_out), _f64(s, ax.n_in))
    ax.sized = True
    if py is not None and Ix.known(ax.n_in) and ax.n_in:
        ax.scale_py = int(py) / ax.n_in


def resample(cx, x, axes, mode, coord, nearest="floor", scales=None, out=None, *,
             antialias=False, cubic_a=-0.75, exclude=False):
    """`x` resized along `axes` by `scales` (Python numbers) or to sizes `out` (ints,
    or index Values: sizes known at run time, checked non-negative there), or, both
    given, to sizes `out` with the coordinates of `scales` (ATen's rule):
    Resize's interpolation `mode` ("nearest", "linear", "cubic") and coordinate
    transformation `coord` (ONNX's names: PyTorch's nearest is "asymmetric" with
    `nearest` "floor", its bilinear "pytorch_half_pixel" or "align_corners"), and its
    `antialias`, `cubic_coeff_a` and `exclude_outside` (PyTorch's antialiased modes
    are "half_pixel" with both, Keys' a = -0.5 as Pillow's; with "align_corners" they
    are ATen's antialiased align_corners, [Note: antialiased align_corners]). The one
    resampling builder of both frontends; the result typed as result 0."""
    sp = _spec(mode, coord, nearest, antialias, cubic_a, exclude)
    spec = _axes_spec(cx, sizes(cx, x), axes, scales, out, sp)
    return _resample(cx, x, spec, [spec[d] for d in axes], sp, _static_sizes(cx, x.type.rank))


def _spec(mode, coord, nearest, antialias, cubic_a, exclude):
    sp = _Spec()
    sp.mode, sp.coord, sp.nearest = mode, coord, nearest
    sp.cubic_a, sp.exclude, sp.extrap, sp.antialias = cubic_a, exclude, 0.0, antialias
    return sp


def _axes_spec(cx, dims, axes, scales, out, sp):
    """{axis: _Axis} of `resample`'s arguments, for an input of mixed sizes `dims`."""
    s = scalars(cx)
    spec = {}
    for k, d in enumerate(axes):
        ax = spec[d] = _Axis(d, dims[d])
        if scales is not None:
            _scale_of(cx, ax, float(scales[k]), s.const(float(scales[k]), F64))
            if out is not None:   # the size given, the coordinates by the scale
                if not isinstance(out[k], int):
                    ax.checks.append((0, out[k], "le", "sizes must be non-negative"))
                elif out[k] < 0:
                    raise NotLowerable(f"sizes must be non-negative (axis {d}: {out[k]})")
                ax.n_out = out[k]
        else:
            if isinstance(out[k], int):
                _size_of(cx, ax, out[k], None)
            else:
                _size_of(cx, ax, None, out[k])
            ax.width = s.mul(ax.scale, _f64(s, ax.n_in))
        if sp.antialias and sp.coord == "align_corners":
            _aa_align_corners(cx, ax)
    if sp.antialias and sp.coord == "align_corners":
        sp.coord = "half_pixel"
    return spec


# [Note: antialiased align_corners]
# ATen's antialiased kernels (UpSampleKernel.cpp, `_compute_indices_min_size_weights_aa`)
# take align_corners only through the ratio s of area_pixel_compute_scale: (n_in - 1) /
# (n_out - 1), 0 for a one-pixel output (the given scale factors are ignored, as
# without antialias); the window's centre stays s * (i + 0.5) and the filter stretches
# by s when s > 1. That is the half_pixel antialiased resampling with the axis's scale
# 1 / s (+inf for s = 0: every centre at 0, the filter not stretched, as ATen's).


def _aa_align_corners(cx, ax):
    """Set `ax`'s scale (out / in) to 1 / s of [Note: antialiased align_corners]."""
    s = scalars(cx)
    ix = Ix(s)
    if Ix.known(ax.n_in, ax.n_out):
        ratio = (ax.n_in - 1) / (ax.n_out - 1) if ax.n_out > 1 else 0.0
        ax.scale_py = 1.0 / ratio if ratio else float("inf")
        ax.scale = s.const(ax.scale_py, F64)
    else:
        from ._index_check import all_of
        some = all_of(cx, [ix.cmp("gt", ax.n_out, 1), ix.cmp("gt", ax.n_in, 1)])
        ratio = s.div(_f64(s, ix.sub(ax.n_out, 1)), _f64(s, ix.sub(ax.n_in, 1)))
        ax.scale = ratio if some is True else s.const(float("inf"), F64) if some is False \
            else s.select(some, ratio, s.const(float("inf"), F64))
        ax.scale_py = None
    ax.sized = ax.n_in == ax.n_out if Ix.known(ax.n_in, ax.n_out) else False
    ax.width = s.mul(ax.scale, _f64(s, ax.n_in))


def resample_adjoint(cx, g, in_dims, axes, mode, coord, scales=None, out=None, *,
                     antialias=False, cubic_a=-0.75, exclude=False):
    """The gradient of `resample` (the same arguments, for an input of mixed sizes
    `in_dims`) with respect to its input, given `g`, that of its result: each resized
    axis's weights, transposed ([Note: the resampling adjoint]). Linear and cubic
    modes; the result typed as result 0."""
    from ._index_check import check_dims
    sp = _spec(mode, coord, "floor", antialias, cubic_a, exclude)
    _check(sp)
    if sp.mode == "nearest":
        raise NotLowerable("the adjoint of nearest resampling is not built here")
    t = ranked(cx, g.type)
    elt = t.element_type
    if not isinstance(elt, A.FloatType):
        raise NotLowerable(f"the gradient of a resampling of {elt} elements")
    spec = _axes_spec(cx, in_dims, axes, scales, out, sp)
    gs = sizes(cx, g)
    static = [d if d != A.DYNAMIC else None for d in t.shape]
    _checked_sizes(cx, spec, static)
    check_dims(cx, [(gs[d], spec[d].n_out if d in spec else in_dims[d], "eq",
                     f"grad_output's size {d} differs from the resampled output's")
                    for d in range(t.rank)])
    acc = F64 if elt is F64 else A.f32
    y = g
    for d in axes:
        ax = spec[d]
        if not _is_identity(ax, sp):
            y = _adjoint_axis(cx, y, ax, sp, acc)
    if element_type(y.type) is not elt:
        y = _to_elt(cx, y, elt, False)
    return finish(cx, y)


# [Note: the resampling adjoint]
# A linear or cubic resampling is, per axis, y[.., o, ..] = sum over taps k of
# w[o, k] * x[.., idx[o, k], ..] with the tables of `_weights` (clamped positions,
# normalized weights). Its gradient is the transposed map: per axis, the tables become
# the dense matrix M[o, j] = sum of w[o, k] over the taps k with idx[o, k] = j (one
# generic: [n_out, n_in], a tap reduction), and x's gradient along the axis is
# sum over o of M[o, j] * g[.., o, ..] (a contraction over the output positions). The
# axes are independent (the weights of one do not depend on the others), so their
# order does not matter but for rounding. ATen's antialiased backward kernels sum the
# same products per output position.


def _adjoint_axis(cx, y, ax, sp, acc):
    """`y` (the gradient of a result along `ax`) spread back to `ax`'s input size."""
    idx, w, _ = _weights(cx, ax, sp, acc)
    mat = filled(cx, [ax.n_out, ax.n_in], acc, 0.0)

    def spread(s, b, a):
        mine = s.cmp("eq", a[0], b.index(1))
        return [s.select(mine, s.add(a[2], a[1]), a[2])]
    mat = generic_op(cx, [idx, w], [mat], [map_text(3, ["d0", "d2"])] * 2 +
                     [map_text(3, ["d0", "d1"])], ["parallel", "parallel", "reduction"],
                     spread)[0]
    rank = y.type.rank
    shape = [ax.n_in if d == ax.dim else n for d, n in enumerate(sizes(cx, y))]
    init = filled(cx, shape, acc, 0.0)
    src_elt = y.type.element_type
    ys = [f"d{rank}" if d == ax.dim else f"d{d}" for d in range(rank)]

    def body(s, b, a):
        v = s.cast(a[0], acc) if src_elt is not acc else a[0]
        return [s.add(a[2], s.mul(v, a[1]))]
    return generic_op(cx, [y, mat], [init],
                      [map_text(rank + 1, ys), map_text(rank + 1, [f"d{rank}", f"d{ax.dim}"]),
                       map_text(rank + 1, [f"d{d}" for d in range(rank)])],
                      ["parallel"] * rank + ["reduction"], body)[0]


def _resize_v10(cx, scales_attr=None):
    """Resize-10 and Upsample: scales only, asymmetric coordinates; nearest rounds down
    when upsampling and up when downsampling (onnxruntime's rule for these opsets)."""
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    sp = _Spec()
    sp.mode = cx.attr("mode", "nearest")
    if sp.mode == "bilinear":
        sp.mode = "linear"
    sp.coord, sp.nearest = "asymmetric", "simple"
    sp.cubic_a, sp.exclude, sp.extrap, sp.antialias = -0.75, False, 0.0, False
    s = scalars(cx)
    dims = sizes(cx, x)
    if scales_attr is not None:
        scales = None
        n = len(scales_attr)
    else:
        scales = _Operand(cx, 1)
        n = scales.length()
    if n != r:
        raise NotLowerable(f"{n} scales for rank {r}")
    spec = {}
    static = _static_sizes(cx, r)
    for d in range(r):
        ax = spec[d] = _Axis(d, dims[d])
        if scales is None:
            py = float(scales_attr[d])
            v = s.const(py, A.f32)
        else:
            py, v = scales.get(s, d)
        _scale_of(cx, ax, py, v)
    return [_resample(cx, x, spec, [spec[d] for d in range(r)], sp, static)]


@lowering("Upsample")
def _upsample(cx):
    from ...dialects.onnx import opset_version
    if opset_version(cx.op) < 9:
        sc = cx.attr("scales", None)
        if sc is None:
            raise NotLowerable("Upsample needs its scales attribute")
        return _resize_v10(cx, [float(v) for v in sc])
    return _resize_v10(cx)


# ------------------------------------------------------------------ checks
# [Note: Resize checks]
# Run-time scales and sizes decide the output's sizes, so they are checked as
# onnxruntime does: scales positive and finite, sizes non-negative; an output size
# floor(scale * in) (or floor(scale * in + 0.5) under keep_aspect_ratio_policy) must
# fit an i64 (NaN fails too); a size the result type fixes must be the one computed; a
# non-empty output needs a non-empty input axis (nothing to read otherwise). Known
# values are checked at compile time; the others are cf.asserts naming the node (see
# [Note: index checks]), after which the output sizes are 0 (a size the type fixes
# stays, and a resize reading an empty axis yields zeros instead: `unless_empty`), so
# nothing is read out of bounds and nothing huge is allocated.

_I64_END = 2.0 ** 63      # the first f64 not representable in i64


def _scale_of(cx, ax, py, v):
    """Set `ax`'s scale from a scales element (`py` its Python value when known, `v` its
    Value) and its output size floor(scale * in)."""
    s = scalars(cx)
    if py is not None:
        py = float(np.float32(py))
        if not (py > 0 and math.isfinite(py)):
            raise NotLowerable(f"scales must be positive and finite (axis {ax.dim}: {py})")
    ax.scale_py = py
    ax.scale = s.cast(v, F64)
    if py is None:
        ok = s.and_(s.cmp("gt", ax.scale, s.const(0.0, F64)),
                    s.cmp("lt", ax.scale, s.const(float("inf"), F64)))
        ax.checks.append(_ok_flag(ok, "scales must be positive and finite"))
        ax.scale = s.select(ok, ax.scale, s.const(1.0, F64))
    ax.width = s.mul(ax.scale, _f64(s, ax.n_in))
    if py is not None and Ix.known(ax.n_in):
        ax.n_out = _floor_size(cx, ax, py * ax.n_in)
    else:
        ax.n_out = _floor_size(cx, ax, ax.width)


def _ok_flag(flag, message):
    """A check of an i1 `flag` in the form of _Axis.checks."""
    return (flag, True, "flag", message)


def _floor_size(cx, ax, w):
    """floor(w) for an output size `w` >= 0 (a Python float or an f64 Value) as a
    mixed index; a Value is checked to fit an i64 (0 after a failed check)."""
    if isinstance(w, float):
        if not 0 <= w < _I64_END:
            raise NotLowerable(f"the output size of axis {ax.dim} ({w}) overflows")
        return int(math.floor(w))
    s = scalars(cx)
    ok = s.and_(s.cmp("ge", w, s.const(0.0, F64)), s.cmp("lt", w, s.const(_I64_END, F64)))
    ax.checks.append(_ok_flag(ok, f"the output size of axis {ax.dim} overflows"))
    w = s.select(ok, w, s.const(0.0, F64))
    return s.cast(s.op1("arith.fptosi", [w], A.i64), A.index)


def _checked_sizes(cx, spec, static):
    """Assert each axis's checks, its computed size against the result type's `static`
    one, and a non-empty input where the output is non-empty; returns whether an input
    axis read is empty (see clamp_bounds; the resize then yields zeros). Sizes become
    the type's static ones, or 0 after a failed check."""
    from ._index_check import assert_ok, check_dims
    s = scalars(cx)
    ix = Ix(s)
    empty_in = None
    for d, ax in spec.items():
        if ax.kept:
            ax.n_out = ax.n_in
            continue
        oks = []
        for a, b, pred, message in ax.checks:
            if pred == "flag":
                assert_ok(cx, a, message)
                oks.append(a)
            else:
                oks += check_dims(cx, [(a, b, pred, message)])
        # (known sizes are shape inference's own: its rounding of scale * in rules)
        if static[d] is not None and not Ix.known(ax.n_out):
            oks += check_dims(cx, [(ax.n_out, static[d], "eq",
                                    f"the output size of axis {d} differs from the "
                                    f"output's type ({static[d]})")])
        ok = True
        for f in oks:
            ok = f if ok is True else (ok if f is True else s.and_(ok, f))
        n_out = static[d] if static[d] is not None else ix.select(ok, ax.n_out, 0)
        if not (Ix.known(ax.n_in) and ax.n_in != 0) and \
                not (Ix.known(n_out) and n_out == 0):
            # nothing to read along an empty input axis
            message = f"axis {d} is empty and its output size is not"
            fine = ix.cmp("eq", n_out, 0)
            if not Ix.known(ax.n_in) and fine is not True:
                full = ix.cmp("ne", ax.n_in, 0)
                fine = full if fine is False else s.or_(full, fine)
            if fine is False:
                raise NotLowerable(message)
            assert_ok(cx, fine, message)
            if static[d] is None:
                n_out = ix.select(fine, n_out, 0)
            else:   # the type fixes the size: the resize does not run
                z = ix.cmp("eq", ax.n_in, 0)
                empty_in = z if empty_in is None else s.or_(empty_in, z)
        ax.n_out = n_out
    return empty_in


# ------------------------------------------------------------------ the computation


def _check(sp):
    if sp.coord not in _COORD_MODES:
        raise NotLowerable(f"unknown coordinate_transformation_mode '{sp.coord}'")
    if sp.mode not in ("nearest", "linear", "cubic"):
        raise NotLowerable(f"unknown Resize mode '{sp.mode}'")
    if sp.mode == "nearest":
        if sp.antialias:
            raise NotLowerable("antialias applies to linear and cubic modes only")
        if sp.nearest not in _NEAREST_MODES + ("simple",):
            raise NotLowerable(f"unknown nearest_mode '{sp.nearest}'")


def _is_identity(ax, sp):
    """Whether resizing along `ax` is statically the identity (the reference skips such
    axes; computing them would give the same values). A size given at run time that
    the result type fixes (checked equal to it, see _checked_sizes) makes a scale of
    exactly 1 where it equals the input's size: Segformer's decoder resizes every map
    to the first one's size with a computed `sizes`, the first map (and the batch and
    channel axes of all four) to its own size."""
    if ax.kept:
        return sp.coord != "tf_crop_and_resize"
    if not (Ix.known(ax.n_in, ax.n_out) and ax.n_in == ax.n_out):
        return False
    if ax.n_in == 1:  # every tap reads the one element; the weights sum to 1
        return not sp.exclude
    return (ax.scale_py == 1.0 or ax.sized) and sp.coord != "tf_crop_and_resize"


def _resample(cx, x, spec, order, sp, static):
    """`x` resized along the axes of `spec` (in `order`); `static`: the result type's
    static size per axis, or None."""
    from ._index_check import unless_empty
    _check(sp)
    t = x.type
    elt = t.element_type
    if not isinstance(elt, (A.FloatType, A.IntegerType)):
        raise NotLowerable(f"Resize of {elt} elements")
    empty_in = _checked_sizes(cx, spec, static)
    out = out_sizes(cx, [spec[d].n_out if d in spec else n
                         for d, n in enumerate(sizes(cx, x))])
    for d, n in enumerate(out):
        if d in spec:
            spec[d].n_out = n
    rt = cx.result_type()
    return unless_empty(cx, empty_in, rt,
                        lambda: finish(cx, filled(cx, out, elt, scalars(cx).zero(elt))),
                        lambda: _resample_axes(cx, x, spec, order, sp, out))


def _resample_axes(cx, x, spec, order, sp, out):
    elt = x.type.element_type
    order = [ax for ax in order if not _is_identity(ax, sp)]
    if sp.mode == "nearest":
        return finish(cx, _nearest(cx, x, order, out, sp))
    acc = F64 if elt is F64 else A.f32
    y = x
    for ax in _pass_order(order, sp):
        y = _interp_axis(cx, y, ax, sp, acc, out)
    out_unsigned = is_unsigned(cx.op.results[0].type)
    if element_type(y.type) is not elt:
        y = _to_elt(cx, y, elt, out_unsigned)
    return finish(cx, y)


def _pass_order(order, sp):
    """The axes in the order their passes run (see [Note: resampling loops]): the most
    shrinking first, then, among equal ratios, the inner axis first; the given order
    where a size is dynamic, and with tf_crop_and_resize (its extrapolated values are
    the reference's only when its passes run in axis order)."""
    if sp.coord == "tf_crop_and_resize" or \
            not all(Ix.known(ax.n_in, ax.n_out) and ax.n_in for ax in order):
        return order
    return sorted(order, key=lambda ax: (ax.n_out / ax.n_in, -ax.dim))


def _to_elt(cx, y, elt, unsigned):
    """Float tensor `y` converted to `elt` as the reference's saturate_cast: integers
    round half to even and saturate."""
    from .common import elementwise

    def body(s, v):
        if isinstance(elt, A.FloatType):
            return s.cast(v, elt)
        w = elt.width
        lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
        v = s.math("roundeven", v)
        v = s.op1("arith.minimumf", [s.op1("arith.maximumf", [v, s.const(lo, v.type)],
                                           v.type), s.const(hi, v.type)], v.type)
        return s.cast(v, elt, True, not unsigned)
    return elementwise(cx, [y], elt, body, result_shape=y.type.shape)


def _x_ori(s, ax, sp, y):
    """The source coordinate (f64) of output position `y` (f64) along `ax`, and the
    tf_crop_and_resize extrapolation flag (or None)."""
    c = lambda v: s.const(v, F64)  # noqa: E731
    half = c(0.5)
    n_in = _f64(s, ax.n_in)
    mode = sp.coord
    if mode == "align_corners":
        one = s.cmp("eq", ax.width, c(1.0))
        v = s.div(s.mul(y, s.sub(n_in, c(1.0))), s.sub(ax.width, c(1.0)))
        return s.select(one, c(0.0), v), None
    if mode == "asymmetric":
        return s.div(y, ax.scale), None
    if mode == "tf_half_pixel_for_nn":
        return s.div(s.add(y, half), ax.scale), None
    if mode == "tf_crop_and_resize":
        last = s.sub(n_in, c(1.0))
        one = s.cmp("eq", ax.width, c(1.0))
        span = s.mul(ax.roi_len, last)
        v = s.select(one, s.div(span, c(2.0)),
                     s.div(s.mul(s.mul(y, ax.roi_len), last), s.sub(ax.width, c(1.0))))
        v = s.add(v, ax.roi_start)
        out = s.or_(s.cmp("lt", v, c(0.0)), s.cmp("gt", v, last))
        return v, out
    v = s.div(s.add(y, half), ax.scale)
    if mode == "half_pixel_symmetric":
        adjust = s.div(_f64(s, ax.n_out), ax.width)
        offset = s.mul(s.div(n_in, c(2.0)), s.sub(c(1.0), adjust))
        return s.sub(s.add(offset, v), half), None
    v = s.sub(v, half)
    if mode == "pytorch_half_pixel":
        return s.select(s.cmp("eq", ax.width, c(1.0)), c(-0.5), v), None
    return v, None


def _neighbours(s, xo, n):
    """(first, ratio) for source coordinate `xo` (f64) and `n` taps (even, mixed): the
    index of the first tap (the n nearest positions, ties to the left) and the position
    of `xo` between its two middle taps, in (0, 1] (1 when `xo` is integral), both
    computed as ONNX's reference does, which, after rounding, can pair a tiny ratio with
    the taps of the integral position below it."""
    ix = Ix(s)
    fl = s.math("floor", xo)
    ratio = s.select(s.cmp("eq", xo, fl), s.const(1.0, F64), s.sub(xo, fl))
    xp = s.add(xo, _f64(s, ix.floordiv(n, 2)))
    p = s.math("floor", xp)
    first = s.sub(s.cast(p, A.index), ix.v(n))
    return s.add(first, s.cast(s.cmp("ne", xp, p), A.index, False)), ratio


def _clamp_index(s, i, n_in):
    ix = Ix(s)
    return ix.v(ix.clamp(i, 0, ix.sub(n_in, 1)))


def _outside(s, i, n_in):
    ix = Ix(s)
    return s.or_(s.cmp("lt", i, s.index(0)), ix.v(ix.cmp("ge", i, n_in)))


# ------------------------------------------------------------------ nearest


def _nearest(cx, x, order, out, sp):
    """One gather over the result: per axis, a table of source positions [n_out] and
    (with exclude_outside / tf_crop_and_resize) flags replacing the value by 0 / the
    extrapolation value, applied in axis order as the reference's passes do."""
    rank = x.type.rank
    elt = x.type.element_type
    tables = {}
    for ax in order:
        outs = [empty(cx, [ax.n_out], A.index)]
        if sp.exclude:
            outs.append(empty(cx, [ax.n_out], A.i1))
        if sp.coord == "tf_crop_and_resize":
            outs.append(empty(cx, [ax.n_out], A.i1))

        def body(s, b, args, ax=ax):
            xo, ext = _x_ori(s, ax, sp, s.cast(b.index(0), F64))
            f, ratio = _neighbours(s, xo, 2)
            up = _round_up(s, ratio, sp.nearest, ax)
            i = s.add(f, s.cast(up, A.index, False))
            res = [_clamp_index(s, i, ax.n_in)]
            if sp.exclude:
                res.append(_outside(s, i, ax.n_in))
            if ext is not None:
                res.append(ext)
            return res
        tables[ax.dim] = generic_op(cx, [], outs, [map_text(1, ["d0"])] * len(outs),
                                  ["parallel"], body)
    inputs, maps = [], []
    for ax in order:
        for v in tables[ax.dim]:
            inputs.append(v)
            maps.append(map_text(rank, [f"d{ax.dim}"]))
    init = empty(cx, out, elt)
    zero_v = _extrap_const(0.0, elt, cx)
    ext_v = _extrap_const(sp.extrap, elt, cx)

    def gather(s, b, args):
        k, flags = 0, []
        pos = {}
        for ax in order:
            pos[ax.dim] = args[k]
            k += 1
            z = e = None
            if sp.exclude:
                z = args[k]
                k += 1
            if sp.coord == "tf_crop_and_resize":
                e = args[k]
                k += 1
            flags.append((z, e))
        at = [pos[d] if d in pos else b.index(d) for d in range(rank)]
        v = s.op1("tensor.extract", [x, *at], elt)
        for z, e in flags:
            if z is not None:
                v = s.select(z, s.const(zero_v, elt), v)
            if e is not None:
                v = s.select(e, s.const(ext_v, elt), v)
        return [v]
    return generic_op(cx, inputs, [init], maps + [map_text(rank, [f"d{d}" for d in range(rank)])],
                    ["parallel"] * rank, gather)[0]


def _round_up(s, ratio, mode, ax):
    """i1: whether nearest rounding takes the right neighbour (ratio in (0, 1])."""
    c = lambda v: s.const(v, F64)  # noqa: E731
    whole = s.cmp("eq", ratio, c(1.0))
    if mode == "round_prefer_floor":
        cond = s.cmp("gt", ratio, c(0.5))
    elif mode == "round_prefer_ceil":
        cond = s.cmp("ge", ratio, c(0.5))
    elif mode == "floor":
        return whole
    elif mode == "ceil":
        return s.const(1, A.i1)
    else:  # "simple": up when downsampling
        cond = s.cmp("lt", ax.scale, c(1.0))
    return s.or_(whole, cond)


def _extrap_const(v, elt, cx):
    """Python value `v` as the reference's saturate_cast to `elt` gives it."""
    if isinstance(elt, A.FloatType):
        return v
    w = elt.width
    unsigned = is_unsigned(cx.op.results[0].type)
    lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    return int(min(max(np.round(v), lo), hi))


# ------------------------------------------------------------------ linear and cubic


def _taps(cx, ax, sp):
    """The number of taps (mixed, even): the kernel's support (1 linear, 2 cubic) on
    each side, stretched by 1/scale when antialiasing a downscale. Tap j is at kernel
    offset j + 1 - taps / 2 from the left middle tap."""
    support = 1 if sp.mode == "linear" else 2
    if not sp.antialias:
        return 2 * support
    if ax.scale_py is not None:
        sc = min(ax.scale_py, 1.0)
        return 2 - 2 * int(math.floor(-support / sc) + 1)
    s = scalars(cx)
    sc = s.min(ax.scale, s.const(1.0, F64))
    st = s.add(s.math("floor", s.div(s.const(-float(support), F64), sc)), s.const(1.0, F64))
    ix = Ix(s)
    return ix.sub(2, ix.mul(s.cast(st, A.index), 2))


def _kernel(s, mode, a, t):
    """Interpolation weight at distance `t` (a float >= 0): linear, or cubic with
    coefficient `a` (Keys' kernel)."""
    c = lambda v: s.const(v, t.type)  # noqa: E731
    if mode == "linear":
        return s.max(s.sub(c(1.0), t), c(0.0))
    t2 = s.mul(t, t)
    t3 = s.mul(t2, t)
    near = s.add(s.sub(s.mul(c(a + 2), t3), s.mul(c(a + 3), t2)), c(1.0))
    far = s.add(s.sub(s.mul(c(a), t3), s.mul(c(5 * a), t2)),
                s.sub(s.mul(c(8 * a), t), c(4 * a)))
    return s.select(s.cmp("le", t, c(1.0)), near,
                    s.select(s.cmp("lt", t, c(2.0)), far, c(0.0)))


def _weights(cx, ax, sp, acc):
    """The tables of axis `ax`: source positions [n_out, taps] (index), weights (acc
    type; with tf_crop_and_resize an extrapolated position has weight e on its first
    tap and 0 elsewhere) and the extrapolation flags (or None)."""
    n = _taps(cx, ax, sp)
    start = Ix(scalars(cx)).sub(1, Ix(scalars(cx)).floordiv(n, 2))
    shape = [ax.n_out, n]
    tf = sp.coord == "tf_crop_and_resize"
    normalize = sp.antialias or sp.exclude
    outs = [empty(cx, shape, A.index), empty(cx, shape, acc)]
    if tf:
        outs.append(empty(cx, shape, A.i1))

    def body(s, b, args):
        xo, ext = _x_ori(s, ax, sp, s.cast(b.index(0), F64))
        first, ratio = _neighbours(s, xo, n)
        src, w = _tap(s, ax, sp, first, ratio, b.index(1), start)
        if tf and not normalize:
            w = _extrapolated(s, b, ext, w, sp.extrap)
        res = [_clamp_index(s, src, ax.n_in), s.cast(w, acc)]
        if tf:
            res.append(ext)
        return res
    tables = generic_op(cx, [], outs, [map_text(2, ["d0", "d1"])] * len(outs),
                      ["parallel"] * 2, body)
    if not normalize:
        return tables[0], tables[1], tables[2] if tf else None
    # weights / their sum over the taps (a zero sum divides by 1)
    total = filled(cx, [ax.n_out], acc, 0.0)
    total = generic_op(cx, [tables[1]], [total], [map_text(2, ["d0", "d1"]), map_text(2, ["d0"])],
                     ["parallel", "reduction"], lambda s, b, a: [s.add(a[1], a[0])])[0]
    ins = [tables[1], total] + ([tables[2]] if tf else [])
    maps = [map_text(2, ["d0", "d1"]), map_text(2, ["d0"])] + ([map_text(2, ["d0", "d1"])] if tf else [])

    def divide(s, b, a):
        z = s.zero(acc)
        tot = s.select(s.cmp("eq", a[1], z), s.one(acc), a[1])
        w = s.div(a[0], tot)
        if tf:
            w = _extrapolated(s, b, a[2], w, sp.extrap)
        return [w]
    w = generic_op(cx, ins, [empty(cx, shape, acc)], maps + [map_text(2, ["d0", "d1"])],
                 ["parallel"] * 2, divide)[0]
    return tables[0], w, tables[2] if tf else None


def _tap(s, ax, sp, first, ratio, k, start):
    """(source position, unclamped; f64 weight before normalizing) of tap `k` (index
    Value) of the position whose neighbours are (`first`, `ratio`); `start` is the first
    tap's offset from the left middle tap."""
    i = Ix(s).add(k, start)
    src = s.add(first, k)
    dist = s.math("absf", s.sub(s.cast(Ix(s).v(i), F64), ratio))
    if sp.antialias:
        dist = s.mul(dist, s.min(ax.scale, s.const(1.0, F64)))
    w = _kernel(s, sp.mode, sp.cubic_a, dist)
    if sp.exclude:
        w = s.select(_outside(s, src, ax.n_in), s.const(0.0, F64), w)
    return src, w


def _inline_taps(cx, ax, sp, rank) -> bool:
    """Whether the pass along `ax` computes its taps in its body instead of reading
    tables: along an outer axis (not the innermost), with a static number of taps and
    weights that need no normalizing or extrapolation flags. The positions and weights
    then depend on the outer loop's index only, so LLVM hoists them out of the inner
    loop and vectorizes it (tables are buffers the result's store might alias: their
    loads stayed in the inner loop, which ran scalar; see [Note: resampling loops])."""
    return ax.dim != rank - 1 and not sp.antialias and not sp.exclude and \
        sp.coord != "tf_crop_and_resize" and isinstance(_taps(cx, ax, sp), int)


def _extrapolated(s, b, ext, w, value):
    """`w`, or on an extrapolated position `value` on tap 0 and 0 on the others."""
    first = s.cmp("eq", b.index(1), s.index(0))
    e = s.select(first, s.const(value, w.type), s.zero(w.type))
    return s.select(ext, e, w)


def _interp_axis(cx, src, ax, sp, acc, out):
    """Resize `src` along `ax` only: one gather-and-sum generic over the result, the
    taps unrolled in its body where their number is static (see [Note: resampling
    loops]), else a reduction loop over them."""
    rank = src.type.rank
    shape = [ax.n_out if d == ax.dim else n for d, n in enumerate(sizes(cx, src))]
    src_elt = src.type.element_type
    signed = not is_unsigned(cx.orig_type(0))
    ext = None

    def term(s, at_tap, args):
        i, wt = args[0], args[1]
        at = [i if d == ax.dim else at_tap(d) for d in range(rank)]
        v = s.op1("tensor.extract", [src, *at], src_elt)
        v = s.cast(v, acc, signed) if src_elt is not acc else v
        c = s.mul(wt, v)
        if ext is not None:
            c = s.select(args[2], wt, c)
        return c
    out_map = map_text(rank, [f"d{d}" for d in range(rank)])
    if _inline_taps(cx, ax, sp, rank):
        n = _taps(cx, ax, sp)
        start = 1 - n // 2

        def inline(s, b, args):
            xo, _ = _x_ori(s, ax, sp, s.cast(b.index(ax.dim), F64))
            first, ratio = _neighbours(s, xo, n)
            total = None
            for j in range(n):
                at, w = _tap(s, ax, sp, first, ratio, s.index(j), start)
                c = term(s, b.index, [_clamp_index(s, at, ax.n_in), s.cast(w, acc)])
                total = c if total is None else s.add(total, c)
            return [total]
        return generic_op(cx, [], [empty(cx, shape, acc)], [out_map], ["parallel"] * rank,
                          inline)[0]
    idx, w, ext = _weights(cx, ax, sp, acc)
    ins = [idx, w] + ([ext] if ext is not None else [])
    taps = idx.type.shape[1]
    if taps != A.DYNAMIC:
        maps = [map_text(rank, [f"d{ax.dim}", str(j)]) for j in range(taps) for _ in ins]

        def unrolled(s, b, args):
            k = len(ins)
            total = None
            for j in range(taps):
                c = term(s, b.index, args[j * k:(j + 1) * k])
                total = c if total is None else s.add(total, c)
            return [total]
        return generic_op(cx, [t for _ in range(taps) for t in ins],
                          [empty(cx, shape, acc)], maps + [out_map],
                          ["parallel"] * rank, unrolled)[0]
    init = filled(cx, shape, acc, 0.0)
    tap = map_text(rank + 1, [f"d{ax.dim}", f"d{rank}"])

    def body(s, b, args):
        return [s.add(args[-1], term(s, b.index, args))]
    return generic_op(cx, ins, [init], [tap] * len(ins) +
                      [map_text(rank + 1, [f"d{d}" for d in range(rank)])],
                      ["parallel"] * rank + ["reduction"], body)[0]


# ------------------------------------------------------------------ GridSample
# One linalg.generic over (N, C, output positions..., taps...): a tap loop of 1
# (nearest), 2 (linear) or 4 (cubic) per spatial axis, a reduction. Each point computes
# its source coordinate from the grid (component k-1-a for input axis a: the grid lists
# x first), the tap's position and weight on every axis, and adds the weighted pixel.
# Coordinates are f32 and reflection is computed in f64, as ONNX's reference does.


@lowering("GridSample")
def _grid_sample(cx):
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(cx.attr("mode", "linear"),
                                                          cx.attr("mode", "linear"))
    from ...dialects.onnx import opset_version
    if opset_version(cx.op) < 20 and cx.attr("mode", None) is None:
        mode = "linear"
    return [finish(cx, grid_sample(cx, cx.operands[0], cx.operands[1], mode,
                                   cx.attr("padding_mode", "zeros"),
                                   bool(cx.attr("align_corners", 0))))]


def grid_sample(cx, x, grid, mode, pad, align, pad_source=True):
    """`x` [N, C, D...] sampled at the normalized points of `grid` [N, Dout..., k]:
    mode "nearest" / "linear" / "cubic", pad "zeros" / "border" / "reflection" (ONNX's
    GridSample and ATen's grid_sampler_2d/3d). `pad_source`: border and reflection move
    the source coordinate inside before the taps are taken (ONNX, and ATen but for
    bicubic, which clamps or reflects each tap alone)."""
    xt, gt = ranked(cx, x.type), ranked(cx, grid.type, "grid")
    k = xt.rank - 2
    if k < 1 or gt.rank != k + 2:
        raise NotLowerable(f"GridSample of a rank-{xt.rank} input with a rank-{gt.rank} grid")
    if gt.shape[-1] != k:
        raise NotLowerable(f"the grid's last dim must be {k} (static)")
    if mode not in ("nearest", "linear", "cubic"):
        raise NotLowerable(f"GridSample mode '{mode}'")
    if pad not in ("zeros", "border", "reflection"):
        raise NotLowerable(f"GridSample padding_mode '{pad}'")
    elt = xt.element_type
    if mode != "nearest" and not isinstance(elt, A.FloatType):
        raise NotLowerable(f"GridSample {mode} of {elt} elements")
    if not isinstance(elt, (A.FloatType, A.IntegerType)):
        raise NotLowerable(f"GridSample of {elt} elements")
    acc = elt if mode == "nearest" else (F64 if elt is F64 else A.f32)
    xs, gs = sizes(cx, x), sizes(cx, grid)
    out = out_sizes(cx, [xs[0], xs[1]] + gs[1:k + 1])
    # loops: N, C, the k output positions, then (linear, cubic) k tap loops
    n = k + 2 if mode == "nearest" else 2 * k + 2
    pos = ["d0"] + [f"d{i}" for i in range(2, k + 2)]
    maps = [map_text(n, pos + [str(k - 1 - a)]) for a in range(k)]
    inputs = [grid] * k
    if mode != "nearest":
        inputs.append(empty(cx, [2 if mode == "linear" else 4] * k, A.f32))  # the window
        maps.append(map_text(n, [f"d{k + 2 + a}" for a in range(k)]))
        init = filled(cx, out, acc, 0.0)
    else:
        init = empty(cx, out, acc)
    maps.append(map_text(n, [f"d{i}" for i in range(k + 2)]))
    gelt = gt.element_type

    def body(s, b, args):
        idx, valid, weight = [], None, None
        for a in range(k):
            tap = None if mode == "nearest" else b.index(k + 2 + a)
            i, ok, w = _gs_axis(s, args[a], xs[2 + a], tap, mode, pad, align, gelt,
                                pad_source)
            idx.append(i)
            if ok is not None:
                valid = ok if valid is None else s.and_(valid, ok)
            if w is not None:
                weight = w if weight is None else s.mul(weight, w)
        v = s.op1("tensor.extract", [x, b.index(0), b.index(1), *idx], elt)
        if valid is not None:
            v = s.select(valid, v, s.zero(elt))
        if mode == "nearest":
            return [v]
        v = s.cast(v, acc) if elt is not acc else v
        return [s.add(args[-1], s.mul(s.cast(weight, acc), v))]
    iters = ["parallel"] * (k + 2) + ["reduction"] * (n - k - 2)
    y = generic_op(cx, inputs, [init], maps, iters, body)[0]
    if element_type(y.type) is not elt:
        y = _to_elt(cx, y, elt, False)
    return y


def _gs_axis(s, g, size, tap, mode, pad, align, gelt, pad_source=True):
    """(index, in-range flag or None, f32 weight or None) of tap `tap` along one axis
    for normalized grid coordinate `g` over `size` positions."""
    c = lambda v, t=A.f32: s.const(v, t)  # noqa: E731
    ix = Ix(s)
    n = _f64(s, size)
    ln = s.cast(n, gelt)
    one = c(1.0, gelt)
    if align:
        x = s.mul(s.div(s.add(g, one), c(2.0, gelt)), s.sub(ln, one))
        lo, hi = c(0.0, F64), s.sub(n, c(1.0, F64))
    else:
        x = s.div(s.sub(s.mul(s.add(g, one), ln), one), c(2.0, gelt))
        lo, hi = c(-0.5, F64), s.sub(n, c(0.5, F64))
    x = s.cast(x, A.f32)
    if mode == "nearest":
        x = s.math("roundeven", x)
    if pad != "zeros" and pad_source:
        xd = s.cast(x, F64)
        out = s.or_(s.cmp("lt", xd, lo), s.cmp("gt", xd, hi))
        if pad == "border":
            fixed = s.min(s.max(x, c(0.0)), s.sub(s.cast(n, A.f32), c(1.0)))
        else:
            fixed = s.cast(_reflect(s, xd, lo, hi), A.f32)
        x = s.select(out, fixed, x)
    if mode == "nearest":
        i, w = s.cast(x, A.index), None  # truncation toward zero, as the reference
    else:
        x0 = s.math("floor", x)
        t = s.sub(x, x0)
        off = ix.v(ix.sub(tap, 0 if mode == "linear" else 1))
        i = s.add(s.cast(x0, A.index), off)
        w = _kernel(s, mode, -0.75, s.math("absf", s.sub(s.cast(off, A.f32), t)))
    ok = None
    if pad == "zeros":
        ok = s.not_(_outside(s, i, size))
    elif pad == "reflection":
        i = s.cast(_reflect(s, s.cast(i, F64), lo, hi), A.index)
    return _clamp_index(s, i, size), ok, w


def _reflect(s, x, lo, hi):
    """f64 `x` reflected by the borders [lo, hi] until inside (the reference's rule)."""
    c = lambda v: s.const(v, F64)  # noqa: E731
    rng = s.sub(hi, lo)

    def fold(dx, near, far):
        k = s.math("floor", s.div(dx, rng))
        r = s.sub(dx, s.mul(k, rng))
        even = s.cmp("eq", s.sub(k, s.mul(s.math("floor", s.div(k, c(2.0))), c(2.0))),
                     c(0.0))
        return s.select(even, near(r), far(r))
    below = fold(s.sub(lo, x), lambda r: s.add(lo, r), lambda r: s.sub(hi, r))
    above = fold(s.sub(x, hi), lambda r: s.sub(hi, r), lambda r: s.add(lo, r))
    return s.select(s.cmp("lt", x, lo), below, s.select(s.cmp("gt", x, hi), above, x))


# ------------------------------------------------------------------ RoiAlign
# One linalg.generic over (roi, channel, out y, out x, sample y, sample x), the sample
# loops a reduction: each sample is a bilinear read (its four weighted corners) at the
# sampling-grid point of the bin, summed (avg) or maxed (max: the largest weighted
# corner, as ONNX's reference and onnxruntime do). With sampling_ratio 0 the grid of a
# roi is ceil(roi size / output size) per axis: the sample loops run to the largest over
# the rois and skip the points past the roi's own grid. f32 arithmetic as the reference.


class _RoiParams:
    """The per-roi scalars of RoiAlign, computed from row `r` of the rois."""

    __slots__ = ("start_h", "start_w", "bin_h", "bin_w", "grid_h", "grid_w")


def _roi_params(s, rois, r, cfg):
    ct = A.f32
    ph, pw, scale, half, ratio = cfg
    relt = rois.type.element_type

    def at(k):
        return s.cast(s.op1("tensor.extract", [rois, r, s.index(k)], relt), ct)
    c = lambda v: s.const(v, ct)  # noqa: E731
    off = c(0.5 if half else 0.0)
    sw, sh, ew, eh = (s.sub(s.mul(at(k), c(scale)), off) for k in range(4))
    w, h = s.sub(ew, sw), s.sub(eh, sh)
    if not half:  # malformed rois become 1x1
        w, h = _py_max(s, w, c(1.0)), _py_max(s, h, c(1.0))
    p = _RoiParams()
    p.start_h, p.start_w = sh, sw
    p.bin_h, p.bin_w = s.div(h, c(float(ph))), s.div(w, c(float(pw)))
    if ratio > 0:
        p.grid_h = p.grid_w = s.index(ratio)
    else:
        p.grid_h = s.cast(s.math("ceil", p.bin_h), A.index)
        p.grid_w = s.cast(s.math("ceil", p.bin_w), A.index)
    return p


def _py_max(s, a, b):
    """Python's max(a, b): a unless b > a."""
    return s.select(s.cmp("gt", b, a), b, a)


@lowering("RoiAlign")
def _roi_align(cx):
    from ...dialects.onnx import opset_version
    x, rois, bidx = cx.operands[0], cx.operands[1], cx.operands[2]
    xt = ranked(cx, x.type)
    if xt.rank != 4 or ranked(cx, rois.type, "rois").rank != 2:
        raise NotLowerable("RoiAlign needs X [N, C, H, W] and rois [R, 4]")
    elt = xt.element_type
    if not isinstance(elt, A.FloatType):
        raise NotLowerable(f"RoiAlign of {elt} elements")
    mode = cx.attr("mode", "avg")
    if mode not in ("avg", "max"):
        raise NotLowerable(f"RoiAlign mode '{mode}'")
    ph, pw = int(cx.attr("output_height", 1)), int(cx.attr("output_width", 1))
    ratio = int(cx.attr("sampling_ratio", 0))
    scale = float(cx.attr("spatial_scale", 1.0))
    default = "half_pixel" if opset_version(cx.op) >= 16 else "output_half_pixel"
    ctm = cx.attr("coordinate_transformation_mode", default)
    if ctm not in ("half_pixel", "output_half_pixel"):
        raise NotLowerable(f"RoiAlign coordinate_transformation_mode '{ctm}'")
    if ph < 1 or pw < 1:
        raise NotLowerable("RoiAlign output sizes must be positive")
    cfg = (ph, pw, scale, ctm == "half_pixel", max(ratio, 0))
    n_roi = sizes(cx, rois)[0]
    xs = sizes(cx, x)
    s = scalars(cx)
    f32 = A.f32
    if ratio > 0:
        gh = gw = ratio
    else:  # the largest grid over the rois
        def grids(s, b, a):
            p = _roi_params(s, rois, b.index(0), cfg)
            return [s.max(a[1], s.cast(p.grid_h, I64_)), s.max(a[2], s.cast(p.grid_w, I64_))]
        zero = [filled(cx, [], I64_, 0), filled(cx, [], I64_, 0)]
        # (the batch indices only give the loop its size)
        mh, mw = generic_op(cx, [bidx], zero, [map_text(1, [0])] + [map_text(1, [])] * 2,
                            ["reduction"], grids)
        gh, gw = (s.cast(s.op1("tensor.extract", [v], I64_), A.index) for v in (mh, mw))
    out = out_sizes(cx, [n_roi, xs[1], ph, pw])
    height, width = xs[2], xs[3]
    window = empty(cx, [gh, gw], f32)
    init = filled(cx, out, f32, 0.0 if mode == "avg" else float("-inf"))
    belt = bidx.type.element_type
    b_signed = not is_unsigned(cx.orig_type(2))
    # a batch index out of [0, N) is a run-time error; reads stay in bounds (see [Note:
    # index checks]): the batch index and the corners are clamped, and nothing is read
    # from an X with an empty dim there (zeros instead)
    from ._index_check import (assert_ok, clamp, clamp_bounds, index_ranges, range_text,
                               unless_empty)
    b_ok = index_ranges(cx, 2, [(0, xs[0])], b_signed)[0]
    assert_ok(cx, b_ok, f"batch index out of range {range_text(0, xs[0], 'N')}")
    last, x_empty = clamp_bounds(cx, xs, ([] if b_ok is True else [0]) + [2, 3])

    def body(s, b, a):
        r, ch, oy, ox, iy, ix_ = (b.index(d) for d in range(6))
        p = _roi_params(s, rois, r, cfg)
        c = lambda v: s.const(v, f32)  # noqa: E731
        y = s.add(s.add(p.start_h, s.mul(s.cast(oy, f32), p.bin_h)),
                  s.div(s.mul(s.add(s.cast(iy, f32), c(0.5)), p.bin_h),
                        s.cast(p.grid_h, f32)))
        xx = s.add(s.add(p.start_w, s.mul(s.cast(ox, f32), p.bin_w)),
                   s.div(s.mul(s.add(s.cast(ix_, f32), c(0.5)), p.bin_w),
                         s.cast(p.grid_w, f32)))
        hf, wf = s.cast(Ix(s).v(height), f32), s.cast(Ix(s).v(width), f32)
        oob = s.or_(s.or_(s.cmp("lt", y, c(-1.0)), s.cmp("gt", y, hf)),
                    s.or_(s.cmp("lt", xx, c(-1.0)), s.cmp("gt", xx, wf)))
        (yl, yh, ly), (xl, xh, lx) = (_roi_corner(s, y, last[2]), _roi_corner(s, xx, last[3]))
        hy, hx = s.sub(c(1.0), ly), s.sub(c(1.0), lx)
        bi = s.op1("tensor.extract", [bidx, r], belt)
        bi = s.cast(bi, A.index, b_signed)
        if 0 in last:
            bi = clamp(s, bi, last[0])
        vals = []
        for (yi, xi, w) in ((yl, xl, s.mul(hy, hx)), (yl, xh, s.mul(hy, lx)),
                            (yh, xl, s.mul(ly, hx)), (yh, xh, s.mul(ly, lx))):
            v = s.cast(s.op1("tensor.extract", [x, bi, ch, yi, xi], elt), f32)
            vals.append(s.mul(s.select(oob, c(0.0), w), v))
        inside = s.and_(s.cmp("lt", iy, p.grid_h), s.cmp("lt", ix_, p.grid_w))
        if mode == "avg":
            v = s.add(s.add(s.add(vals[0], vals[1]), vals[2]), vals[3])
            return [s.add(a[1], s.select(inside, v, c(0.0)))]
        v = _py_max(s, _py_max(s, _py_max(s, vals[0], vals[1]), vals[2]), vals[3])
        return [s.select(inside, _py_max(s, a[1], v), a[1])]
    y = unless_empty(cx, x_empty, init.type, lambda: filled(cx, out, f32, 0.0),
                     lambda: generic_op(cx, [window], [init], [map_text(6, [4, 5]), map_text(
                         6, [0, 1, 2, 3])], ["parallel"] * 4 + ["reduction"] * 2, body)[0])

    def finish_bin(s, b, a):
        p = _roi_params(s, rois, b.index(0), cfg)
        n = s.mul(p.grid_h, p.grid_w)
        if mode == "avg":
            return [s.div(a[0], s.cast(s.max(n, s.index(1)), f32))]
        return [s.select(s.cmp("eq", n, s.index(0)), s.zero(f32), a[0])]
    if mode == "avg" or ratio <= 0:
        y = generic_op(cx, [y], [empty(cx, out, f32)], [map_text(4, [0, 1, 2, 3])] * 2,
                     ["parallel"] * 4, finish_bin)[0]
    if elt is not f32:
        y = _to_elt(cx, y, elt, False)
    return [finish(cx, y)]


I64_ = A.i64


def _roi_corner(s, v, last):
    """(low, high, fraction) of RoiAlign's bilinear read at f32 coordinate `v` along an
    axis whose last position is `last` (>= 0): clamped at 0 below and to the last
    position above."""
    f32 = A.f32
    v = _py_max(s, v, s.zero(f32))
    last = Ix(s).v(last)
    # truncation of v >= 0, first brought to at most `last` (NaN too: the conversion
    # sees no value out of range)
    lf = s.cast(last, f32)
    lo = s.cast(s.cast(s.select(s.cmp("lt", v, lf), v, lf), A.i64), A.index)
    at_end = s.cmp("ge", lo, last)
    lo = s.select(at_end, last, lo)
    hi = s.select(at_end, last, s.add(lo, s.index(1)))
    v = s.select(at_end, s.cast(lo, f32), v)
    return lo, hi, s.sub(v, s.cast(lo, f32))
