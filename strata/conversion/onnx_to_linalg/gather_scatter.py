"""ONNX ops with data-dependent indices -> linalg and scf.

    Gather, GatherElements, GatherND, OneHot, TensorScatter
        one linalg.generic over the result: `linalg.index` gives the result position,
        the index tensor is an input (or read with tensor.extract), the source element
        is a `tensor.extract` in the payload. Negative indices count from the end.
    Scatter, ScatterElements, ScatterND
        scf.for loops over the updates carrying the result tensor: each step reads the
        update (and, with a reduction, the current value), then tensor.insert. Sequential,
        so duplicate indices behave as ONNX's reference (the last write wins, reductions
        accumulate in order).
    Compress, NonZero
        the result size depends on the data: one scf.for loop writes the selected
        positions to a buffer and counts them; the result is a slice of it, gathered.

Indices out of range are a run-time error (cf.assert naming the op and the axis, one
reduction over the indices) and never an access out of bounds: gathers clamp the index,
scatters run no iteration when a check failed; see [Note: index checks] in _index_check.
OneHot compares only (an index out of range gives a row of off values, as ONNX says);
TensorScatter selects the cache outside the update.

[Note: negative indices]
ONNX's Gather, GatherElements and ScatterElements count negative indices from the end
([-n, n)); PyTorch's gather, scatter (every reduce mode), index_select and embedding do
not: ATen raises "index -1 is out of bounds" (and nll_loss's target, which the
decomposition gathers with, "Target -1 is out of bounds"). The builders shared by the two
frontends take `negative=False` for PyTorch's: the check's range is then [0, n) on the
signed indices, and nothing wraps (the clamp of a failed check sends a negative index to
the last one). PyTorch's advanced indexing (index.Tensor, index_put, take) does wrap and
has its own lowering (torch_to_linalg/views.py).
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.affine import AffineMap
from . import NotLowerable, lowering
from ._shape_util import (DYN, Ix, collapse, dims_map, extract_slice, finish, fit,
                          index_generic, index_of, loop_nest, norm_axis, out_sizes,
                          reshape_to, scalar_of, sizes)
from ._index_check import (all_of, assert_ok, check_dims, clamp, clamp_bounds, guarded,
                           index_ranges, range_text, unless_empty, wrap)
from ._linalg_util import filled
from .common import constant_array, empty, is_unsigned, operand_symbols, ranked, scalars


def _wrap(s, i, dim, signed=True):
    """Index `i` (index Value) counting from the end when negative (signed indices; not
    when `signed` is False: unsigned indices, or a frontend whose negative indices are
    out of range, see [Note: negative indices])."""
    return wrap(s, i, dim) if signed else i


def _clamp(s, i, hi, d):
    """Index `i` along data dim `d` clamped when `hi` (from clamp_bounds) has `d`."""
    return clamp(s, i, hi[d]) if d in hi else i


def _signed(cx, i):
    return not is_unsigned(cx.orig_type(i))


# ------------------------------------------------------------------ gathers


@lowering("Gather")
def _gather(cx):
    r = ranked(cx, cx.operands[0].type).rank
    return [gather(cx, norm_axis(cx.attr("axis", 0), r))]


def gather(cx, axis, data_i=0, ind_i=1, typed=True, negative=True):
    """The slices of operand `data_i` along `axis` at the indices of operand `ind_i`
    (any integer type, negative ones counting from the end unless not `negative`;
    checked in range at run time): ONNX's Gather, PyTorch's embedding and index_select
    (`negative=False`, see [Note: negative indices]). The one gather builder of both
    frontends; the result typed as result 0 (unless not `typed`)."""
    data, ind = cx.operands[data_i], cx.operands[ind_i]
    r = ranked(cx, data.type).rank
    q = ranked(cx, ind.type).rank
    dims, idims = sizes(cx, data), sizes(cx, ind)
    out = dims[:axis] + idims + dims[axis + 1:]
    if typed:
        out = out_sizes(cx, out)
    done = (lambda v: finish(cx, v)) if typed else (lambda v: v)
    elt = data.type.element_type
    signed = _signed(cx, ind_i)
    strided = _constant_progression(cx, dims[axis], ind_i, negative)
    if strided is not None:  # x[.., a:b:k, ..] (e.g. Shape -> Gather(0)): a slice
        first, n, step = strided
        offs, part = [0] * r, list(dims)
        offs[axis], part[axis] = first, n
        steps = [1] * r
        steps[axis] = step
        return done(reshape_to(cx, extract_slice(cx, data, offs, part, steps), out))
    n = dims[axis]
    ok = _check_axis_indices(cx, ind_i, n, axis, signed, negative=negative)
    wraps = signed and negative

    def body(s, idx, args, hi):
        i = _clamp(s, _wrap(s, index_of(s, args[0], signed), n, wraps), hi, axis)
        at = idx[:axis] + [i] + idx[axis + q:]
        return s.op1("tensor.extract", [data, *at], elt)
    ind_map = dims_map(len(out), range(axis, axis + q))
    return done(_gather_generic(cx, dims, [] if ok is True else [axis], [ind], [ind_map],
                                out, elt, body))


def _gather_generic(cx, dims, axes, inputs, maps, out, elt, body):
    """index_generic(inputs, maps, out, elt) of `body(s, idx, args, hi)` reading data
    (mixed sizes `dims`) at positions clamped along `axes` to `hi[axis]`; zeros instead
    where one of those dims is empty (see [Note: index checks])."""
    hi, empty = clamp_bounds(cx, dims, axes)
    t = A.RankedTensorType(tuple(d if Ix.known(d) else DYN for d in out), elt)
    return unless_empty(cx, empty, t, lambda: filled(cx, out, elt), lambda: index_generic(
        cx, inputs, maps, out, elt, lambda s, idx, args: body(s, idx, args, hi)))


def _check_axis_indices(cx, i, n, axis, signed, what="data axis", negative=True):
    """cf.assert that the indices of operand `i` lie in [-n, n) ([0, n) unsigned, or
    signed when not `negative`: see [Note: negative indices]): the range of `what`
    `axis`; see [Note: index checks]. Returns the flag."""
    lo = Ix(scalars(cx)).sub(0, n) if signed and negative else 0
    ok = index_ranges(cx, i, [(lo, n)], signed)[0]
    assert_ok(cx, ok, f"index out of range {range_text(lo, n)} on {what} {axis}"
                      + ("" if Ix.known(n) else " (of run-time size n)"))
    return ok


def _constant_progression(cx, dim, i=1, negative=True):
    """(first, count, step) when the indices of operand `i` are constants forming an
    increasing arithmetic progression in range (after wrapping negatives when
    `negative`), else None."""
    a = constant_array(cx.op.operands[i])
    if a is None or not Ix.known(dim) or a.size == 0:
        return None
    v = [int(i) + dim if int(i) < 0 and negative else int(i) for i in a.reshape(-1)]
    step = v[1] - v[0] if len(v) > 1 else 1
    if step <= 0 or not 0 <= v[0] < dim or not 0 <= v[-1] < dim or \
            any(b - a != step for a, b in zip(v, v[1:])):
        return None
    return v[0], len(v), step


@lowering("GatherElements")
def _gather_elements(cx):
    r = ranked(cx, cx.operands[0].type).rank
    return [gather_elements(cx, norm_axis(cx.attr("axis", 0), r))]


def gather_elements(cx, axis, data_i=0, ind_i=1, typed=True, negative=True):
    """out[..., j, ...] = data[..., index[..., j, ...], ...] along `axis` (operands
    `data_i` and `ind_i` of one rank; the indices checked in range, negative ones
    counting from the end unless not `negative`, the other dims of the indices no
    larger than the data's): ONNX's GatherElements, PyTorch's gather
    (`negative=False`). The one builder of both frontends (the result typed as result 0
    unless not `typed`)."""
    data, ind = cx.operands[data_i], cx.operands[ind_i]
    r = ranked(cx, data.type).rank
    if ranked(cx, ind.type).rank != r:
        raise NotLowerable("indices and data ranks differ")
    dims, idims = sizes(cx, data), sizes(cx, ind)
    elt = data.type.element_type
    signed = _signed(cx, ind_i)
    n = dims[axis]
    ok = _check_axis_indices(cx, ind_i, n, axis, signed, negative=negative)
    wraps = signed and negative
    # the other dims are read along the indices' own: theirs must not be larger
    other, _ = _check_fit(cx, (ind, idims), (data, dims), [d for d in range(r) if d != axis])

    def body(s, idx, args, hi):
        at = list(idx)
        at[axis] = _wrap(s, index_of(s, args[0], signed), n, wraps)
        at = [_clamp(s, i, hi, d) for d, i in enumerate(at)]
        return s.op1("tensor.extract", [data, *at], elt)
    out = out_sizes(cx, idims) if typed else idims
    y = _gather_generic(cx, dims, ([] if ok is True else [axis]) + other, [ind],
                        [AffineMap.identity(r)], out, elt, body)
    return finish(cx, y) if typed else y


def _check_fit(cx, small, big, ds, pred="le", what="indices", of="data"):
    """cf.assert that `small[d]` <= `big[d]` (== with pred "eq") for d in `ds` (see
    check_dims): `small` and `big` are (tensor, its mixed sizes); dims of one name (see
    [Note: dim symbols]) hold. Returns (the dims not known to hold at compile time,
    the flags)."""
    rel = "be <=" if pred == "le" else "equal"
    (sv, sd), (bv, bd) = small, big
    sn = operand_symbols(cx, sv) or [None] * len(sd)
    bn = operand_symbols(cx, bv) or [None] * len(bd)
    ds = [d for d in ds if sn[d] is None or sn[d] != bn[d]]
    flags = check_dims(cx, [(sd[d], bd[d], pred, f"{what} dim {d} must {rel} "
                             f"{of} dim {d}") for d in ds])
    return [d for d, f in zip(ds, flags) if f is not True], flags


@lowering("GatherND")
def _gather_nd(cx):
    data, ind = cx.operands[0], cx.operands[1]
    r = ranked(cx, data.type).rank
    q = ranked(cx, ind.type).rank
    b = cx.attr("batch_dims", 0)
    k = ind.type.shape[-1] if q else DYN
    if k == DYN:
        raise NotLowerable("GatherND needs the last dim of indices static")
    if b + k > r:
        raise NotLowerable(f"batch_dims {b} + index depth {k} exceed the data rank {r}")
    dims, idims = sizes(cx, data), sizes(cx, ind)
    out = out_sizes(cx, idims[:-1] + dims[b + k:])
    elt, ielt = data.type.element_type, ind.type.element_type
    signed = _signed(cx, 1)
    flags = _check_tuple_indices(cx, dims[b:b + k], b, signed)
    batch, _ = _check_fit(cx, (ind, idims), (data, dims), list(range(b)), "eq",
                          "indices batch")
    clamped = batch + [b + j for j, f in enumerate(flags) if f is not True]

    def body(s, idx, args, hi):
        lead = idx[:q - 1]
        at = [_clamp(s, i, hi, d) for d, i in enumerate(idx[:b])]
        for j in range(k):
            i = s.op1("tensor.extract", [ind, *lead, s.index(j)], ielt)
            at.append(_clamp(s, _wrap(s, index_of(s, i, signed), dims[b + j], signed),
                             hi, b + j))
        at += idx[q - 1:]
        return s.op1("tensor.extract", [data, *at], elt)
    return [finish(cx, _gather_generic(cx, dims, clamped, [], [], out, elt, body))]


def _check_tuple_indices(cx, ns, first, signed):
    """cf.assert that column j of the indices (operand 1, last dim = len(ns)) lies in
    the range of data axis `first + j`, of size ns[j]. Returns the flags."""
    ix = Ix(scalars(cx))
    bounds = [(ix.sub(0, n) if signed else 0, n) for n in ns]
    flags = index_ranges(cx, 1, bounds, signed)
    for j, (f, (lo, n)) in enumerate(zip(flags, bounds)):
        dyn = "" if Ix.known(n) else " (of run-time size n)"
        assert_ok(cx, f, f"index out of range {range_text(lo, n)} on data axis "
                         f"{first + j} (indices[..., {j}]){dyn}")
    return flags


@lowering("OneHot")
def _one_hot(cx):
    """Indices in [-depth, depth) (negative ones count from the end) select their
    position; any other index gives a row of off values, as the spec says. Compared in
    i64 (f64 for float indices, which match only whole numbers): in the indices' own
    type a depth beyond its range wraps (int8 indices, depth 300: index 0 matched
    positions 0 and 256)."""
    ind, values = cx.operands[0], cx.operands[2]
    q = ranked(cx, ind.type).rank
    axis = norm_axis(cx.attr("axis", -1), q + 1)
    rt = ranked(cx, cx.result_type(), "result")
    depth = _checked_depth(cx, rt.shape[axis])
    out = out_sizes(cx, sizes(cx, ind)[:axis] + [depth] + sizes(cx, ind)[axis:])
    elt = values.type.element_type
    ielt = ind.type.element_type
    s0 = scalars(cx)
    off = s0.op1("tensor.extract", [values, s0.index(0)], elt)
    on = s0.op1("tensor.extract", [values, s0.index(1)], elt)
    signed = _signed(cx, 0)
    wide = A.f64 if type(ielt) is A.FloatType else A.i64
    dv = s0.cast(Ix(s0).v(depth), wide)
    ind_map = dims_map(q + 1, [d for d in range(q + 1) if d != axis])

    def body(s, idx, args):
        i = s.cast(args[0], wide, signed) if args[0].type is not wide else args[0]
        zero = s.zero(wide)
        if signed:
            i = s.select(s.cmp("lt", i, zero), s.add(i, dv), i)
        return s.select(s.cmp("eq", i, s.cast(idx[axis], wide)), on, off)
    return [finish(cx, index_generic(cx, [ind], [ind_map], out, elt, body))]


def _checked_depth(cx, fixed):
    """OneHot's depth (operand 1, a float one truncated to an integer as the spec says)
    as a mixed size, checked: depth >= 1 (as onnxruntime), a float depth finite, equal
    to `fixed` (the result's static size, DYN if none) when given. At compile time when
    known; else cf.assert, and depth 0 after a failed check."""
    s = scalars(cx)
    v = cx.operands[1]
    pairs, flags = [], []
    a = constant_array(cx.op.operands[1])
    if a is None:
        a = constant_array(v)
    if a is not None:
        x = float(np.asarray(a).reshape(-1)[0])
        if not np.isfinite(x) or x >= 2.0 ** 62:
            raise NotLowerable(f"depth {x} is not a finite size")
        depth = int(x)
    elif type(v.type.element_type) is A.FloatType:
        # NaN, infinities and values beyond i64 have no integer: check before the cast
        x = s.op1("tensor.extract", [v] + [s.index(0)] * v.type.rank, v.type.element_type)
        finite = s.and_(s.cmp("ge", x, s.const(1.0, x.type)),
                        s.cmp("lt", x, s.const(2.0 ** 62, x.type)))
        assert_ok(cx, finite, "depth must be >= 1")
        flags.append(finite)
        depth = index_of(s, s.select(finite, x, s.const(0.0, x.type)))
    else:
        depth = scalar_of(cx, 1)
    pairs.append((1, depth, "le", "depth must be >= 1"))
    if fixed != DYN:
        pairs.append((depth, fixed, "eq", f"depth differs from the output's size {fixed}"))
    flags += check_dims(cx, pairs)
    if fixed != DYN:
        return fixed
    return Ix(s).select(all_of(cx, flags), depth, 0)


@lowering("TensorScatter")
def _tensor_scatter(cx):
    """out[p, t, ...] = update[p, t - w[p0], ...] where that is in the update, else the
    cache (circular mode: t - w taken modulo the cache length)."""
    cache, upd = cx.operands[0], cx.operands[1]
    r = ranked(cx, cache.type).rank
    axis = norm_axis(cx.attr("axis", -2), r)
    if axis == 0:
        raise NotLowerable("TensorScatter on axis 0 (no batch dim)")
    circular = cx.attr("mode", "linear") == "circular"
    has_w = cx.has_operand(2)
    dims, udims = sizes(cx, cache), sizes(cx, upd)
    elt = cache.type.element_type
    signed = _signed(cx, 2) if has_w else True
    inputs, maps = [cache], [AffineMap.identity(r)]
    if has_w:
        inputs.append(cx.operands[2])
        maps.append(dims_map(r, [0]))

    def body(s, idx, args):
        ix = Ix(s)
        t = idx[axis]
        d = ix.sub(t, index_of(s, args[1], signed)) if has_w else t
        if circular:
            d = ix.mod(d, dims[axis])
        ok = s.and_(ix.v(ix.cmp("ge", d, 0)), ix.v(ix.cmp("lt", d, udims[axis])))
        at = list(idx)
        at[axis] = ix.v(ix.clamp(d, 0, ix.max(ix.sub(udims[axis], 1), 0)))
        u = s.op1("tensor.extract", [upd, *at], elt)
        return s.select(ok, u, args[0])
    out = out_sizes(cx, dims)
    t = A.RankedTensorType(tuple(d if Ix.known(d) else DYN for d in out), elt)
    # an empty update (nothing to read at its clamped position) leaves the cache
    _, empty = clamp_bounds(cx, udims, [axis])
    return [finish(cx, unless_empty(cx, empty, t, lambda: fit(cx, cache, t),
                                    lambda: index_generic(cx, inputs, maps, out, elt, body)))]


# ------------------------------------------------------------------ scatters


_REDUCE = {"add": lambda s, a, b, sg: s.add(a, b), "mul": lambda s, a, b, sg: s.mul(a, b),
           "max": lambda s, a, b, sg: s.max(a, b, sg),
           "min": lambda s, a, b, sg: s.min(a, b, sg)}


def _reduction(cx):
    red = cx.attr("reduction", "none")
    if red != "none" and red not in _REDUCE:
        raise NotLowerable(f"reduction '{red}'")
    return None if red == "none" else _REDUCE[red]


@lowering("ScatterElements", "Scatter")
def _scatter_elements(cx):
    r = ranked(cx, cx.operands[0].type).rank
    combine = _reduction(cx) if cx.op.name == "onnx.ScatterElements" else None
    return [scatter_elements(cx, norm_axis(cx.attr("axis", 0), r), combine)]


def scatter_elements(cx, axis, combine=None, data_i=0, ind_i=1, upd_i=2, fit="eq",
                     negative=True, typed=True):
    """data with data[..., index[i, j], ...] = updates[i, j] along `axis` (or combined
    with the value there by `combine(s, old, new, signed)`), in index order, operands
    `data_i`, `ind_i`, `upd_i` of one rank, the indices checked in range and no larger
    than the data off the axis, the updates' sizes equal to the indices' (`fit` "eq":
    ONNX's ScatterElements) or no smaller ("le": PyTorch's scatter, reading the leading
    part of src); negative indices count from the end unless not `negative` (PyTorch's,
    see [Note: negative indices]). The one builder of both frontends; the result typed
    as result 0 (unless not `typed`)."""
    data, ind, upd = cx.operands[data_i], cx.operands[ind_i], cx.operands[upd_i]
    r = ranked(cx, data.type).rank
    if ranked(cx, ind.type).rank != r or ranked(cx, upd.type).rank != r:
        raise NotLowerable("indices, updates and data ranks differ")
    dims, idims, udims = sizes(cx, data), sizes(cx, ind), sizes(cx, upd)
    elt, ielt = data.type.element_type, ind.type.element_type
    signed, dsigned = _signed(cx, ind_i), _signed(cx, data_i)
    # no write unless every check holds (see [Note: index checks])
    flags = [_check_axis_indices(cx, ind_i, dims[axis], axis, signed, negative=negative)]
    wraps = signed and negative
    if fit == "eq":
        flags += _check_fit(cx, (upd, udims), (ind, idims), range(r), "eq", "updates",
                            "indices")[1]
    else:
        flags += _check_fit(cx, (ind, idims), (upd, udims), range(r), "le", "indices",
                            "src")[1]
    flags += _check_fit(cx, (ind, idims), (data, dims), [d for d in range(r) if d != axis])[1]

    def body(s, ivs, accs):
        acc = accs[0]
        i = s.op1("tensor.extract", [ind, *ivs], ielt)
        at = list(ivs)
        at[axis] = _wrap(s, index_of(s, i, signed), dims[axis], wraps)
        v = s.op1("tensor.extract", [upd, *ivs], elt)
        if combine is not None:
            v = combine(s, s.op1("tensor.extract", [acc, *at], elt), v, dsigned)
        return [s.op1("tensor.insert", [v, acc, *at], acc.type)]
    loops = guarded(cx, idims, all_of(cx, flags))
    y = loop_nest(cx, loops, [data], body)[0]
    return finish(cx, y) if typed else y


@lowering("ScatterND")
def _scatter_nd(cx):
    data, ind, upd = cx.operands[:3]
    r = ranked(cx, data.type).rank
    q = ranked(cx, ind.type).rank
    k = ind.type.shape[-1] if q else DYN
    if k == DYN or k > r:
        raise NotLowerable("ScatterND needs the last dim of indices static and <= rank")
    dims, udims = sizes(cx, data), sizes(cx, upd)
    elt, ielt = data.type.element_type, ind.type.element_type
    signed, dsigned = _signed(cx, 1), _signed(cx, 0)
    combine = _reduction(cx)
    loops = sizes(cx, ind)[:-1] + dims[k:]
    if ranked(cx, upd.type).rank != len(loops):
        raise NotLowerable(f"updates of rank {len(udims)}, expected {len(loops)}")
    # no write unless every check holds (see [Note: index checks])
    flags = _check_tuple_indices(cx, dims[:k], 0, signed)
    # updates: indices.shape[:-1] + data.shape[k:] (dims of one name hold)
    un = operand_symbols(cx, upd) or [None] * len(udims)
    names = (operand_symbols(cx, ind) or [None] * q)[:-1] + \
        (operand_symbols(cx, data) or [None] * r)[k:]
    flags += check_dims(cx, [(udims[d], loops[d], "eq", f"updates dim {d} must equal " + (
        f"indices dim {d}" if d < q - 1 else f"data dim {d - (q - 1) + k}"))
        for d in range(len(loops)) if un[d] is None or un[d] != names[d]])

    def body(s, ivs, accs):
        ivs = ivs[len(ivs) - len(loops):]  # a guarded single write has one loop more
        acc = accs[0]
        lead = ivs[:q - 1]
        at = []
        for j in range(k):
            i = s.op1("tensor.extract", [ind, *lead, s.index(j)], ielt)
            at.append(_wrap(s, index_of(s, i, signed), dims[j], signed))
        at += ivs[q - 1:]
        v = s.op1("tensor.extract", [upd, *ivs], elt)
        if combine is not None:
            v = combine(s, s.op1("tensor.extract", [acc, *at], elt), v, dsigned)
        return [s.op1("tensor.insert", [v, acc, *at], acc.type)]
    return [finish(cx, loop_nest(cx, guarded(cx, loops, all_of(cx, flags)), [data],
                                 body)[0])]


# ------------------------------------------------------------------ data-dependent sizes


def _select_positions(cx, n, pred):
    """(buffer, count): one scf.for over [0, n) writes each i with `pred(s, i)` true to
    buffer[count] (tensor<n x index>) and counts them."""
    s = scalars(cx)
    buf = empty(cx, [n], A.index)

    def body(b, ivs, accs):
        pos, k = accs
        i = ivs[0]
        pos = b.op1("tensor.insert", [i, pos, k], pos.type)
        step = b.select(pred(b, i), b.index(1), b.index(0))
        return [pos, b.add(k, step)]
    pos, count = loop_nest(cx, [n], [buf, s.index(0)], body)
    return pos, count


@lowering("Compress")
def _compress(cx):
    x, cond = cx.operands[0], cx.operands[1]
    ranked(cx, x.type)
    axis = cx.attr("axis")
    if axis is None:
        x = collapse(cx, x, [list(range(x.type.rank))]) if x.type.rank != 1 else x
        axis = 0
    r = x.type.rank
    axis = norm_axis(axis, r)
    dims = sizes(cx, x)
    s = scalars(cx)
    ix = Ix(s)
    m = ix.min(sizes(cx, cond)[0], dims[axis])
    celt = cond.type.element_type

    def pred(b, i):
        c = b.op1("tensor.extract", [cond, i], celt)
        return c if celt is A.i1 else b.cmp("ne", c, b.zero(celt))
    pos, count = _select_positions(cx, m, pred)
    pos = extract_slice(cx, pos, [0], [count])
    out = list(dims)
    out[axis] = count
    out = out_sizes(cx, out)
    elt = x.type.element_type

    def body(b, idx, args):
        at = list(idx)
        at[axis] = args[0]
        return b.op1("tensor.extract", [x, *at], elt)
    return [finish(cx, index_generic(cx, [pos], [dims_map(r, [axis])], out, elt, body))]


@lowering("NonZero")
def _nonzero(cx):
    return [nonzero(cx, cx.operands[0])]


def nonzero(cx, x, per_row=False, typed=True):
    """The coordinates of `x`'s nonzero elements in row-major order, as i64: one row per
    dim (r, N) as ONNX's NonZero, or with `per_row` one row per element (N, r) as
    PyTorch's nonzero. The one builder of both frontends; the result typed as result 0
    (`typed`), else as computed (a bool mask's coordinates inside aten.index)."""
    r = ranked(cx, x.type).rank
    dims = sizes(cx, x)
    if r == 0:
        flat = _expand_scalar(cx, x)
    else:
        flat = collapse(cx, x, [list(range(r))]) if r != 1 else x
    s = scalars(cx)
    ix = Ix(s)
    n = 1
    for d in dims:
        n = ix.mul(n, d)
    elt = x.type.element_type

    def pred(b, i):
        v = b.op1("tensor.extract", [flat, i], elt)
        return b.cmp("ne", v, b.zero(elt))
    pos, count = _select_positions(cx, n, pred)
    out = [count, r] if per_row else [r, count]
    done = (lambda v: v) if not typed else (lambda v: finish(cx, v))
    if typed:
        out = out_sizes(cx, out)
    if r == 0:  # no coordinates: (0, N) or (N, 0)
        return done(empty(cx, out, A.i64))
    pos = extract_slice(cx, pos, [0], [count])
    # coordinate d of each flat position
    strides, acc = [], 1
    for d in reversed(dims):
        strides.append(acc)
        acc = ix.mul(acc, d)
    strides.reverse()
    stride_v = [ix.v(v) for v in strides]
    dim_v = [ix.v(v) for v in dims]
    which, elem = (1, 0) if per_row else (0, 1)

    def body(b, idx, args):
        p = args[0]
        st, dm = stride_v[0], dim_v[0]
        for d in range(1, r):
            hit = b.cmp("eq", idx[which], b.index(d))
            st, dm = b.select(hit, stride_v[d], st), b.select(hit, dim_v[d], dm)
        c = b.op1("arith.remsi", [b.op1("arith.divsi", [p, st], A.index), dm], A.index)
        return b.cast(c, A.i64)
    return done(index_generic(cx, [pos], [dims_map(2, [elem])], out, A.i64, body))


def _expand_scalar(cx, x):
    from ._shape_util import expand
    return expand(cx, x, [], [1])
