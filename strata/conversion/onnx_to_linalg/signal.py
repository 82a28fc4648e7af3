"""ONNX signal-processing ops -> linalg: DFT, STFT, MelWeightMatrix.

    DFT (`dft`, the one DFT builder: torch's FFTs use it too, torch_to_linalg/complex.py)
        the transform as a matrix product: with static sizes, a linalg.matmul of the
        signals by a constant table of the twiddle factors cos/sin of
        2*pi*((k*n) mod N)/N built at compile time ([Note: twiddle tables]), in the
        signal's type; else one linalg.generic over the result (its last dim picks the
        real or imaginary part) reducing over the input samples with f64 sums, the
        factors computed in the loop, the result rounded to the input type.
        O(N^2) per transform: exact for every length (no power-of-two restriction).
        Forward, inverse (divided by N), one-sided forward (the first N/2+1 bins) and
        one-sided inverse (real output from the Hermitian half spectrum, as irfft:
        the imaginary parts of bin 0 and, for even N, bin N/2 are ignored).
    STFT
        the frames' DFT as one generic over (batch, frame, bin, part), the window
        applied to each sample, f64 sums.
    MelWeightMatrix
        each element from its (spectrogram bin, mel bin) position: the mel band's edges
        as the reference computes them (f32 then f64 steps), then the triangle.
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from . import NotLowerable, lowering
from ._index_check import all_of, check_dims
from ._linalg_util import filled, map_text
from ._shape_util import (Ix, extract_slice, finish, norm_axis, out_sizes, scalar_of,
                          sizes)
from .common import (constant_array, empty, generic_op, is_unsigned, ranked, scalar_element,
                     scalars)

F64 = A.f64


def _twiddle(s, k, n, length):
    """(cos, sin) in f64 of 2*pi*((k*n) mod length)/length (index Values; `length`
    mixed)."""
    ix = Ix(s)
    m = s.op1("arith.remui", [s.mul(k, n), ix.v(length)], A.index)
    lf = s.cast(ix.v(length), F64)
    theta = s.div(s.mul(s.const(2 * math.pi, F64), s.cast(m, F64)), lf)
    return s.math("cos", theta), s.math("sin", theta)


# [Note: twiddle tables]
# With N and the bins static, the transform is a matrix product with a constant built at
# compile time: the signals, the transformed dim moved last beside the real/imaginary
# dim and the other dims collapsed, [M, samples * C] times a table [samples * C, bins *
# C'] of cos and sin of 2*pi*((k*n) mod N)/N (C, C' the 1 or 2 parts in and out; for a
# one-sided inverse, the doubling of the bins but 0 and N/2 and the zero imaginary parts
# at those two are in the table, and the scale too): one `matmul`, the contraction
# path's packed microkernels, no trigonometry at run time. The product is in the
# signal's own type (f32 sums; the table's values rounded once). Up to
# TWIDDLE_TABLE_MAX table entries; larger or run-time sizes build the DFT as a
# reduction with f64 sums and the factors computed in the loop (`_twiddle`).
TWIDDLE_TABLE_MAX = 1 << 22


def _dft_product(cx, x, axis, n, out, used, cplx, inverse, irfft, elt, scale):
    """The DFT of [Note: twiddle tables] as a product, or None when the sizes are not
    static or the table would be too large."""
    bins = out[axis]
    c_in, c_out = (2 if cplx else 1), (1 if irfft else 2)
    if not Ix.known(n, bins, used) or not bins or not used or \
            used * c_in * bins * c_out > TWIDDLE_TABLE_MAX or \
            elt not in (A.f32, F64) or x.type.element_type is not elt:
        return None
    import numpy as np

    from ...ir.dense import DenseElementsAttr
    from ._linalg_util import transpose
    from ._shape_util import reshape_to
    from .contraction import matmul
    r = x.type.rank
    if scale == "1/n":
        scale = 1.0 / n
    i = np.arange(used, dtype=np.int64)[:, None]
    k = np.arange(bins, dtype=np.int64)[None, :]
    theta = 2 * np.pi * ((k * i) % n).astype(np.float64) / n
    cos, sin = np.cos(theta), np.sin(theta)            # [samples, bins]
    table = np.zeros((used, c_in, bins, c_out))
    if irfft:
        # the other half's conjugates double every bin but 0 and N/2, whose imaginary
        # parts are ignored
        edge = ((i == 0) | (2 * i == n))[:, 0]
        w = np.where(edge, 1.0, 2.0)[:, None]
        table[:, 0, :, 0] = w * cos
        if cplx:
            table[:, 1, :, 0] = np.where(edge[:, None], 0.0, -2.0 * sin)
    else:
        sign = -1.0 if inverse else 1.0
        table[:, 0, :, 0], table[:, 0, :, 1] = cos, -sign * sin
        if cplx:
            table[:, 1, :, 0], table[:, 1, :, 1] = sign * sin, cos
    if scale is not None:
        table *= float(scale)
    tt = A.RankedTensorType((used * c_in, bins * c_out), elt)
    t = scalars(cx).op1("arith.constant", [], tt,
                        {"value": DenseElementsAttr(tt, table.reshape(tt.shape).astype(
                            np.float64 if elt is F64 else np.float32))})
    # the transformed dim last, beside the parts; the others collapsed
    perm = [d for d in range(r - 1) if d != axis] + [axis, r - 1]
    xt = transpose(cx, x, perm)
    dims = sizes(cx, xt)
    ix = Ix(scalars(cx))
    m = 1
    for d in dims[:-2]:
        m = ix.mul(m, d)
    y = matmul(cx, reshape_to(cx, xt, [m, used * c_in], dims), t, elt)
    y = reshape_to(cx, y, dims[:-2] + [bins, c_out], [m, bins * c_out])
    inv = [perm.index(d) for d in range(r)]
    return transpose(cx, y, inv)
def _finish_signal(cx, y, elt, scale=None):
    """The f64 sums `y` (times `scale`, an f64 Value, when given) in element type
    `elt`, as the op's result."""
    return finish(cx, _scaled(cx, y, elt, scale))


def _scaled(cx, y, elt, scale=None):
    """The f64 sums `y` (times `scale`, an f64 Value, when given) in element type
    `elt`."""
    from .common import elementwise

    def body(s, v):
        if scale is not None:
            v = s.mul(v, scale)
        return s.cast(v, elt)
    if scale is None and elt is F64:
        return y
    return elementwise(cx, [y], elt, body, result_shape=y.type.shape)


# ------------------------------------------------------------------ DFT


def _at_least(cx, v, lo, message, instead):
    """Mixed size `v` checked >= `lo` (a compile error when known not, else a cf.assert
    naming the node); `instead` after a failed check, so no negative size is allocated
    and no division by zero happens."""
    ok = all_of(cx, check_dims(cx, [(lo, v, "le", message)]))
    return v if ok is True else Ix(scalars(cx)).select(ok, v, instead)


@lowering("DFT")
def _dft(cx):
    from ...dialects.onnx import opset_version
    x = cx.operands[0]
    t = ranked(cx, x.type)
    r = t.rank
    elt = t.element_type
    if not isinstance(elt, A.FloatType):
        raise NotLowerable(f"DFT of {elt} elements")
    if r < 2 or t.shape[-1] not in (1, 2):
        raise NotLowerable("DFT input must end with a dim of 1 (real) or 2 (complex)")
    inverse, onesided = bool(cx.attr("inverse", 0)), bool(cx.attr("onesided", 0))
    if onesided and not inverse and t.shape[-1] == 2:
        raise NotLowerable("one-sided DFT of a complex signal")
    if opset_version(cx.op) < 20:
        axis = int(cx.attr("axis", 1))
    elif not cx.has_operand(2):
        axis = -2
    else:
        a = constant_array(cx.op.operands[2])
        axis = None if a is None else int(a.reshape(-1)[0])
    if axis is not None:
        axis = norm_axis(axis, r)
        if axis == r - 1:
            raise NotLowerable("DFT axis cannot be the last (real/imaginary) dim")
        return [_dft_along(cx, x, axis, inverse, onesided)]
    # an axis known at run time only: one branch per axis that gives the result's shape
    length = constant_array(cx.op.operands[1]) if cx.has_operand(1) else None
    rt = cx.result_type()
    fits = [a for a in range(r - 1) if _dft_fits(t.shape, a, inverse, onesided, length, rt)]
    if not fits:
        raise NotLowerable("no DFT axis gives the result's shape")
    s = scalars(cx)
    ax = s.cast(scalar_element(cx, 2), A.i64, not is_unsigned(cx.orig_type(2)))
    ax = s.select(s.cmp("lt", ax, s.zero(A.i64)), s.add(ax, s.const(r, A.i64)), ax)
    return [_switch(cx, ax, fits, lambda a: _dft_along(cx, x, a, inverse, onesided), rt)]


def _dft_fits(shape, axis, inverse, onesided, length, rt):
    """Whether the DFT along `axis` can have result type `rt` (unknown sizes fit)."""
    if type(rt) is not A.RankedTensorType:
        return True
    n_in = shape[axis]
    dyn = A.DYNAMIC
    if length is not None:
        n = int(length.reshape(-1)[0])
    elif n_in == dyn:
        n = dyn
    else:
        n = 2 * (n_in - 1) if inverse and onesided else n_in
    want = list(shape)
    want[axis] = n if n == dyn or not onesided or inverse else n // 2 + 1
    want[-1] = 1 if inverse and onesided else 2
    return len(want) == rt.rank and all(a == b or dyn in (a, b)
                                        for a, b in zip(want, rt.shape))


def _switch(cx, key, cases, build, result_type):
    """scf.if chain on i64 `key`: `build(c)` (a value of `result_type`) for the case `c`
    equal to it, the last case otherwise."""
    from ...dialects.scf import IfOp, YieldOp
    if len(cases) == 1:
        return build(cases[0])
    s = scalars(cx)
    op = cx.b.insert(IfOp.new(s.cmp("eq", key, s.const(cases[0], A.i64)), [result_type],
                              with_else=True, loc=cx.loc))
    saved = cx.b.ip
    for region, fn in ((op.regions[0], lambda: build(cases[0])),
                       (op.regions[1], lambda: _switch(cx, key, cases[1:], build,
                                                       result_type))):
        cx.b.set_insertion_point_to_end(region.blocks[0])
        v = fn()
        cx.b.insert(YieldOp.build(values=[v], loc=cx.loc))
    cx.b.ip = saved
    return op.results[0]


def _dft_along(cx, x, axis, inverse, onesided):
    """The DFT of `x` along `axis`, as the op's result (inverse: divided by N)."""
    length = _at_least(cx, scalar_of(cx, 1), 1, "dft_length must be positive", 1) \
        if cx.has_operand(1) else None
    return finish(cx, dft(cx, x, axis, inverse, onesided, length,
                          scale="1/n" if inverse else None, fit_result=True))


def dft(cx, x, axis, inverse=False, onesided=False, length=None, elt=None, scale=None,
        fit_result=False):
    """[Note: one DFT builder] The DFT along `axis` of signals `x`, real (a last dim of
    1) or complex (a last dim of 2, the real and imaginary parts): ONNX's DFT and
    torch's FFTs (`aten._fft_r2c/_c2c/_c2r`, torch_to_linalg/complex.py) both build it
    here. `length` (mixed; default: the input's, or 2 * (bins - 1) for a one-sided
    inverse) is the transform's size N, the input cut or zero-padded to it. A
    one-sided forward DFT gives the first N/2 + 1 bins; a one-sided inverse reads the
    first N/2 + 1 bins of a Hermitian spectrum and gives the real signal (a last dim
    of 1). The sums are in f64, then times `scale` (a float, or "1/n": divided by N)
    and rounded to `elt` (default: `x`'s). `fit_result`: the sizes the op's result type
    knows are the output's."""
    t = x.type
    r = t.rank
    elt = elt or t.element_type
    cplx = t.shape[-1] == 2
    irfft = inverse and onesided
    s = scalars(cx)
    ix = Ix(s)
    dims = sizes(cx, x)
    n_in = dims[axis]
    if length is not None:
        n = length
    else:
        n = ix.mul(ix.sub(n_in, 1), 2) if irfft else n_in
    half = ix.add(ix.floordiv(n, 2), 1)
    # the input samples (bins, for irfft) that take part: a shorter input is zero-padded
    used = ix.min(n_in, half if irfft else n)
    if not (Ix.known(used, n_in) and used == n_in):
        part = list(dims)
        part[axis] = used
        x = extract_slice(cx, x, [0] * r, part)
    out = list(dims)
    out[axis] = half if onesided and not inverse else n
    out[-1] = 1 if irfft else 2
    if fit_result:
        out = out_sizes(cx, out)
    product = _dft_product(cx, x, axis, n, out, used, cplx, inverse, irfft, elt, scale)
    if product is not None:
        return product
    red = r  # the reduction loop: the input sample
    pos = [red if d == axis else d for d in range(r - 1)]
    maps = [map_text(r + 1, pos + ["0"])] + ([map_text(r + 1, pos + ["1"])] if cplx else [])
    ins = [x, x] if cplx else [x]
    maps.append(map_text(r + 1, list(range(r))))

    def body(s, b, a):
        k, i = b.index(axis), b.index(red)
        xr = s.cast(a[0], F64)
        xi = s.cast(a[1], F64) if cplx else None
        cos, sin = _twiddle(s, k, i, n)
        if irfft:
            # the other half's conjugates double every bin but 0 and N/2
            edge = s.or_(s.cmp("eq", i, s.index(0)),
                         s.cmp("eq", s.mul(i, s.index(2)), Ix(s).v(n)))
            term = s.mul(xr, cos)
            if cplx:
                term = s.select(edge, term, s.sub(term, s.mul(xi, sin)))
            w = s.select(edge, s.const(1.0, F64), s.const(2.0, F64))
            return [s.add(a[-1], s.mul(w, term))]
        sign = -1.0 if inverse else 1.0
        re = s.mul(xr, cos)
        im = s.mul(s.const(-sign, F64), s.mul(xr, sin))
        if cplx:
            re = s.add(re, s.mul(s.const(sign, F64), s.mul(xi, sin)))
            im = s.add(im, s.mul(xi, cos))
        real = s.cmp("eq", b.index(r - 1), s.index(0))
        return [s.add(a[-1], s.select(real, re, im))]
    y = generic_op(cx, ins, [filled(cx, out, F64, 0.0)], maps,
                   ["parallel"] * r + ["reduction"], body)[0]
    if scale == "1/n":
        scale = s.div(s.const(1.0, F64), s.cast(ix.v(n), F64))
    elif scale is not None:
        scale = s.const(float(scale), F64)
    return _scaled(cx, y, elt, scale)


# ------------------------------------------------------------------ STFT


@lowering("STFT")
def _stft(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    elt = t.element_type
    if not isinstance(elt, A.FloatType):
        raise NotLowerable(f"STFT of {elt} elements")
    if t.rank != 3 or t.shape[-1] not in (1, 2):
        raise NotLowerable("STFT signal must be [batch, length, 1 or 2]")
    cplx = t.shape[-1] == 2
    onesided = bool(cx.attr("onesided", 1))
    s = scalars(cx)
    ix = Ix(s)
    batch, length = sizes(cx, x)[:2]
    step = _at_least(cx, scalar_of(cx, 1), 1, "frame_step must be positive", 1)
    has_window = cx.has_operand(2)
    if has_window:
        window = cx.operands[2]
        if ranked(cx, window.type, "window").rank != 1:
            raise NotLowerable("STFT window must be 1-D")
        fl = sizes(cx, window)[0]
        if cx.has_operand(3):
            given = scalar_of(cx, 3)
            if Ix.known(given, fl) and given != fl:
                raise NotLowerable(f"frame_length {given} differs from the window's {fl}")
            check_dims(cx, [(given, fl, "eq", "frame_length differs from the window's "
                                              "length")])
    elif cx.has_operand(3):
        fl = _at_least(cx, scalar_of(cx, 3), 1, "frame_length must be positive", 1)
    else:
        fl = length
    # the frames lie in the signal: frame_length <= length (0 frames after a failed check)
    fits = all_of(cx, check_dims(cx, [(fl, length, "le", "frame_length exceeds the "
                                                         "signal's length")]))
    frames = ix.add(ix.floordiv(ix.sub(length, fl), step), 1)
    frames = frames if fits is True else ix.select(fits, frames, 0)
    bins = ix.add(ix.floordiv(fl, 2), 1) if onesided else fl
    out = out_sizes(cx, [batch, frames, bins, 2])
    if Ix.known(bins, out[2]) and bins != out[2]:
        raise NotLowerable(f"the result type has {out[2]} frequency bins, the attributes "
                           f"give {bins}")
    src = window if has_window else empty(cx, [fl], F64)  # the sample loop's extent
    step_v = ix.v(step)

    def body(s, b, a):
        bi, f, k, c, i = (b.index(d) for d in range(5))
        p = s.add(s.mul(f, step_v), i)
        xr = s.cast(s.op1("tensor.extract", [x, bi, p, s.index(0)], elt), F64)
        if has_window:
            w = s.cast(a[0], F64)
            xr = s.mul(xr, w)
        cos, sin = _twiddle(s, k, i, fl)
        re, im = s.mul(xr, cos), s.neg(s.mul(xr, sin))
        if cplx:
            xi = s.cast(s.op1("tensor.extract", [x, bi, p, s.index(1)], elt), F64)
            if has_window:
                xi = s.mul(xi, w)
            re, im = s.add(re, s.mul(xi, sin)), s.add(im, s.mul(xi, cos))
        return [s.add(a[-1], s.select(s.cmp("eq", c, s.index(0)), re, im))]
    y = generic_op(cx, [src], [filled(cx, out, F64, 0.0)],
                   [map_text(5, [4]), map_text(5, [0, 1, 2, 3])],
                   ["parallel"] * 4 + ["reduction"], body)[0]
    return [_finish_signal(cx, y, elt)]


# ------------------------------------------------------------------ MelWeightMatrix


@lowering("MelWeightMatrix")
def _mel_weight_matrix(cx):
    s = scalars(cx)
    n_mel = _at_least(cx, scalar_of(cx, 0), 0, "num_mel_bins must be non-negative", 0)
    dft_len = _at_least(cx, scalar_of(cx, 1), 1, "dft_length must be positive", 1)
    signed = [not is_unsigned(cx.orig_type(i)) for i in range(3)]
    rate = s.cast(scalar_element(cx, 2), F64, signed[2])
    dft_f = s.cast(scalar_element(cx, 1), F64, signed[1])
    lo, hi = scalar_element(cx, 3), scalar_element(cx, 4)
    for v in (lo, hi):
        if not isinstance(v.type, A.FloatType):
            raise NotLowerable("the edge frequencies must be floats")
    ix = Ix(s)
    rows = ix.add(ix.floordiv(dft_len, 2), 1)
    out_elt = cx.result_type().element_type

    def mel(h):
        # 2595 * log1p(h / 700) in h's type, then / ln(10) in f64 (the reference)
        v = s.mul(s.const(2595.0, h.type), s.math("log1p", s.div(h, s.const(700.0, h.type))))
        return s.div(s.cast(v, F64), s.const(math.log(10.0), F64))
    lo_mel, hi_mel = mel(lo), mel(hi)
    count = s.cast(ix.v(ix.add(n_mel, 2)), F64)
    step = s.div(s.sub(hi_mel, lo_mel), count)
    out = out_sizes(cx, [rows, n_mel])

    def edge(s, m):
        """The spectrogram bin of mel edge m (index Value)."""
        f = s.add(s.mul(s.cast(m, F64), step), lo_mel)
        hz = s.mul(s.const(700.0, F64),
                   s.math("expm1", s.mul(s.div(f, s.const(2595.0, F64)),
                                         s.const(math.log(10.0), F64))))
        v = s.math("floor", s.div(s.mul(s.add(dft_f, s.const(1.0, F64)), hz), rate))
        return s.cast(v, A.i64)

    def body(s, b, a):
        j, i = s.cast(b.index(0), A.i64), b.index(1)
        left = edge(s, i)
        center = edge(s, s.add(i, s.index(1)))
        right = edge(s, s.add(i, s.index(2)))

        def ratio(num, den):
            return s.div(s.cast(num, F64), s.cast(den, F64))
        rising = s.select(s.cmp("eq", center, left), s.const(1.0, F64),
                          ratio(s.sub(j, left), s.sub(center, left)))
        falling = ratio(s.sub(right, j), s.sub(right, center))
        in_rise = s.and_(s.cmp("ge", j, left), s.cmp("le", j, center))
        in_fall = s.and_(s.cmp("gt", j, center), s.cmp("lt", j, right))
        v = s.select(in_rise, rising, s.select(in_fall, falling, s.const(0.0, F64)))
        return [s.cast(v, out_elt, True, not is_unsigned(cx.op.results[0].type))]
    y = generic_op(cx, [], [empty(cx, out, out_elt)], [map_text(2, [0, 1])],
                   ["parallel", "parallel"], body)[0]
    return [finish(cx, y)]
