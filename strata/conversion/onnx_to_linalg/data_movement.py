"""ONNX ops that move data without computing on it -> tensor and linalg ops.

    Reshape, Flatten, Squeeze, Unsqueeze   collapse_shape + expand_shape
    Transpose                              linalg.transpose
    Concat / Split / Slice                 tensor.concat / extract_slice (a gathering
                                           linalg.generic for negative steps)
    Expand, Tile                           broadcasting linalg.generic (+ collapse_shape)
    Pad                                    tensor.pad (constant), a gathering generic
                                           (reflect, edge, wrap)
    Trilu, EyeLike, ReverseSequence        linalg.generic on linalg.index
    BitCast                                tensor.bitcast

[Note: mixed sizes]
Sizes are Python ints where known and `index` Values (tensor.dim, or read out of a shape
operand with tensor.extract) where not: see _shape_util.Ix. A result dim the shape
inference made static is taken from the result type, so a shape computed at run time
(Shape -> Slice -> Concat -> Reshape, as function expansions write) still lowers to
static reshapes.

Shape-deciding operands known at run time only (Reshape's shape, Expand's, Tile's
repeats, Slice's steps and axes, Pad's pads and axes) are checked against ONNX's rules
before the op's loops, and the sizes are 0 after a failed check (see [Note: shape
checks] in _index_check.py):

    %ok = arith.cmpi sge, %d, %c-1 : index
    cf.assert %ok, "Reshape at r0: shape [?, ?] has a value below -1"
    %n = arith.select %ok, %d, %c0 : index
    %y = tensor.expand_shape %x [[0, 1]] output_shape [%n, 4] : ...
"""
from __future__ import annotations

import math

from ...dialects.onnx import opset_version
from ...ir import attributes as A
from ...ir.affine import AffineMap
from ..scalar_builders import element_type
from . import NotLowerable, lowering
from ._shape_util import (DYN, Ix, dims_map, extract_slice, finish, index_generic, index_of,
                          norm_axis, operand_ints, out_sizes, reshape_to, scalar_of, sizes)
from .common import (empty, is_unsigned, operand_symbols, ranked, result_symbols, same_dims,
                     scalars, stretch_if_one, tensor_type)


def _rank(cx, i=0):
    return ranked(cx, cx.operands[i].type, f"operand #{i}").rank


def _ints_attr_or_input(cx, attr, i, since):
    """A list attribute before opset `since`, an optional operand from it on (None when
    absent)."""
    if opset_version(cx.op) < since:
        return cx.attr(attr)
    if not cx.has_operand(i):
        return None
    return operand_ints(cx, i, attr)


# ------------------------------------------------------------------ reshapes


@lowering("Reshape")
def _reshape(cx):
    """The result's sizes: from the result type where it knows them (static dims, and
    `?` dims named as the input's), else from the shape operand. A shape operand known
    at run time only is checked against ONNX's rules and against the type's dims, and
    the element count against the input's (see [Note: shape checks]); the sizes the
    reshape uses are sent to 0 only where the count may differ (the named dims of the
    type keep their Values, and the reshaped band its width)."""
    from ._index_check import all_of, require, result_sizes, shape_text
    x = cx.operands[0]
    in_sizes = sizes(cx, x)
    rt = cx.result_type()
    ix = Ix(scalars(cx))
    total = _product(ix, in_sizes)
    typed = None
    if type(rt) is A.RankedTensorType and DYN not in rt.shape:
        typed = list(rt.shape)
    else:
        typed = _named_sizes(cx, x, in_sizes, rt, total)
    shape = _reshape_operand(cx)
    if shape is None and typed is None:
        raise NotLowerable("shape (operand #1) must have a static length")
    allowzero = cx.attr("allowzero", 0)
    if typed is None:
        computed, rules = _reshape_sizes(cx, shape, in_sizes, total, allowzero)
        out, agree = result_sizes(cx, computed)
        ok = all_of(cx, [rules, agree])
    else:
        out = typed
        ok = _same_count(cx, typed, in_sizes)
        if shape is None:
            require(cx, ok, f"cannot reshape the input's elements into {shape_text(typed)}")
        else:
            match = _gives(cx, shape, typed, in_sizes, allowzero)
            require(cx, all_of(cx, [match, ok]),
                    f"shape {shape_text(shape)} does not reshape the input "
                    f"{shape_text(in_sizes)} into the result's dims {shape_text(typed)}")
    return [finish(cx, _checked_reshape(cx, x, in_sizes, out, ok))]


def _gives(cx, shape, typed, in_sizes, allowzero):
    """Whether mixed `shape` gives the sizes `typed` (which hold the input's element
    count): each value is the size, or (allowzero=0) a 0 where the input's dim is the
    size, or the one -1, which then stands for what the element count leaves (the other
    sizes not 0, as onnxruntime asks). One flag, a few comparisons per dim: the type
    decided the sizes, the operand is only checked (see [Note: shape checks])."""
    from ._index_check import all_of, any_of, not_
    ix = Ix(scalars(cx))

    def eq(a, b):
        return True if a is b else ix.cmp("eq", a, b)
    neg = [ix.cmp("eq", s, -1) for s in shape]
    flags = []
    for k, (s, t) in enumerate(zip(shape, typed)):
        copy = all_of(cx, [ix.cmp("eq", s, 0), eq(in_sizes[k], t)]) \
            if not allowzero and k < len(in_sizes) else False
        flags.append(any_of(cx, [eq(s, t), copy, neg[k]]))
    count = 0
    for f in neg:
        count = ix.add(count, _one_if(ix, f))
    flags.append(ix.cmp("le", count, 1))
    has = any_of(cx, neg)
    if has is not False:
        flags.append(any_of(cx, [not_(cx, has), all_of(cx, [
            any_of(cx, [f, ix.cmp("ne", t, 0)]) for f, t in zip(neg, typed)])]))
    return all_of(cx, flags)


def _one_if(ix, flag):
    """1 where `flag` holds, else 0 (an int when known, else one zero extension)."""
    return int(flag) if isinstance(flag, bool) else ix.s.cast(flag, A.index)


def _product(ix, values):
    n = 1
    for d in values:
        n = ix.mul(n, d)
    return n


def _same_count(cx, a, b):
    """Whether mixed sizes `a` and `b` hold as many elements: known when their Values
    are the same ones and their known sizes multiply alike, else an i1 Value."""
    def split(v):
        return (_product(Ix(None), [d for d in v if Ix.known(d)]),
                sorted((id(d) for d in v if not Ix.known(d))))
    (na, va), (nb, vb) = split(a), split(b)
    if va == vb and (na == nb or not va):
        return na == nb
    ix = Ix(scalars(cx))
    return ix.cmp("eq", _product(ix, a), _product(ix, b))


def _checked_reshape(cx, x, in_sizes, out, ok):
    """`x` reshaped to mixed `out` where `ok` holds (see checked_build)."""
    from ._index_check import checked_build
    return checked_build(cx, ok, out, x.type.element_type,
                         lambda sz: reshape_to(cx, x, sz, in_sizes))


def _reshape_operand(cx):
    """The target shape as mixed values (the attribute before opset 5), or None when the
    operand's length is known at run time only."""
    if opset_version(cx.op) < 5:
        return list(cx.attr("shape", []))
    t = cx.operands[1].type
    from .common import constant_array
    if constant_array(cx.op.operands[1]) is None and constant_array(cx.operands[1]) is None \
            and type(t) is A.RankedTensorType and t.rank == 1 and t.shape[0] == DYN:
        return None
    return operand_ints(cx, 1, "shape")


def _reshape_sizes(cx, shape, in_sizes, total, allowzero):
    """(mixed result sizes, ok) of a Reshape to mixed `shape` from `in_sizes` (`total`
    elements), by ONNX's rules, each a `require`: no value below -1, at most one -1,
    (allowzero=0) a 0 only where the input has a dim to copy, the product within int64,
    and the element count the input's (-1: what the others leave, which must divide it
    and not be 0, as onnxruntime says)."""
    from ._index_check import all_of, any_of, checked_product, not_, require, shape_text
    ix = Ix(scalars(cx))
    r = len(in_sizes)
    text = shape_text(shape)
    flags = [require(cx, all_of(cx, [ix.cmp("ge", d, -1) for d in shape]),
                     f"shape {text} has a value below -1")]
    neg = [ix.cmp("eq", d, -1) for d in shape]
    count = 0
    for f in neg:
        count = ix.add(count, _one_if(ix, f))
    flags.append(require(cx, ix.cmp("le", count, 1), f"shape {text} has more than one -1"))
    fixed = []
    for k, d in enumerate(shape):
        if not allowzero:
            if k < r:
                d = ix.select(ix.cmp("eq", d, 0), in_sizes[k], d)
            else:
                flags.append(require(cx, ix.cmp("ne", d, 0),
                                     f"shape {text} has a 0 at dim {k}, past the input's "
                                     f"rank {r}"))
        fixed.append(d)
    known, fits = checked_product(cx, [ix.select(f, 1, ix.max(d, 0))
                                       for f, d in zip(neg, fixed)])
    flags.append(require(cx, fits, f"shape {text} has more than 2^63 - 1 elements"))
    has = any_of(cx, neg)
    whole = ix.cmp("eq", known, total)
    part = all_of(cx, [ix.cmp("ne", known, 0),
                       ix.cmp("eq", ix.mod(total, ix.max(known, 1)), 0)])
    match = any_of(cx, [all_of(cx, [has, part]), all_of(cx, [not_(cx, has), whole])])
    n = int(total) if Ix.known(total) else "the input's"
    flags.append(require(cx, match, f"cannot reshape {n} elements into shape {text}"))
    q = ix.floordiv(total, ix.max(known, 1))
    return [ix.select(f, q, d) for f, d in zip(neg, fixed)], all_of(cx, flags)


def _named_sizes(cx, x, in_sizes, rt, total):
    """The result's mixed sizes without the shape operand, or None: each `?` dim with the
    name of a dim of `x` (see [Note: dim symbols]) has that dim's size; one `?` dim
    left, the others static and not 0, is what the element count leaves for it."""
    if type(rt) is not A.RankedTensorType:
        return None
    names = result_symbols(cx) or [None] * rt.rank
    where = {n: i for i, n in enumerate(operand_symbols(cx, x) or ()) if n is not None}
    out = [d if d != DYN else in_sizes[where[n]] if n in where else None
           for d, n in zip(rt.shape, names)]
    left = [k for k, d in enumerate(out) if d is None]
    if not left:
        return out
    rest = [d for d in out if d is not None]
    if len(left) > 1 or not Ix.known(*rest) or 0 in rest:
        return None
    out[left[0]] = Ix(scalars(cx)).floordiv(total, math.prod(rest))
    return out


@lowering("Flatten")
def _flatten(cx):
    x = cx.operands[0]
    r = _rank(cx)
    axis = cx.attr("axis", 1)
    axis = axis + r if axis < 0 else axis
    if not 0 <= axis <= r:
        raise NotLowerable(f"axis {cx.attr('axis', 1)} is out of range for rank {r}")
    ix = Ix(scalars(cx))
    dims = sizes(cx, x)
    a = b = 1
    for d in dims[:axis]:
        a = ix.mul(a, d)
    for d in dims[axis:]:
        b = ix.mul(b, d)
    return [finish(cx, reshape_to(cx, x, out_sizes(cx, [a, b])))]


@lowering("Squeeze")
def _squeeze(cx):
    x = cx.operands[0]
    r = _rank(cx)
    axes = _ints_attr_or_input(cx, "axes", 1, 13)
    if axes is not None and not Ix.known(*axes) and _static_result(cx):
        return [reshape_to(cx, x, list(cx.result_type().shape))]
    dims = sizes(cx, x)
    if axes is None:
        if DYN in x.type.shape:
            raise NotLowerable("Squeeze without axes needs a static input shape")
        drop = {i for i, d in enumerate(dims) if d == 1}
    else:
        drop = {norm_axis(a, r, "axes") for a in _static_ints(axes, "axes")}
    out = [d for i, d in enumerate(dims) if i not in drop]
    return [finish(cx, reshape_to(cx, x, out_sizes(cx, out)))]


@lowering("Unsqueeze")
def _unsqueeze(cx):
    x = cx.operands[0]
    axes = _ints_attr_or_input(cx, "axes", 1, 13)
    if axes is None:
        raise NotLowerable("Unsqueeze needs axes")
    if not Ix.known(*axes) and _static_result(cx):
        return [reshape_to(cx, x, list(cx.result_type().shape))]
    dims = sizes(cx, x)
    n = len(dims) + len(axes)
    added = {norm_axis(a, n, "axes") for a in _static_ints(axes, "axes")}
    it = iter(dims)
    out = [1 if i in added else next(it) for i in range(n)]
    return [finish(cx, reshape_to(cx, x, out_sizes(cx, out)))]


def _static_result(cx, i=0) -> bool:
    t = cx.result_type(i)
    return type(t) is A.RankedTensorType and DYN not in t.shape


def _static_ints(values, what):
    if not Ix.known(*values):
        raise NotLowerable(f"{what} must be constants")
    return [int(v) for v in values]


# ------------------------------------------------------------------ transpose


@lowering("Transpose")
def _transpose(cx):
    from ...dialects.linalg import TransposeOp
    x = cx.operands[0]
    r = _rank(cx)
    perm = cx.attr("perm") or list(range(r - 1, -1, -1))
    if sorted(perm) != list(range(r)):
        raise NotLowerable(f"perm {perm} is not a permutation of the {r} dims")
    dims = sizes(cx, x)
    if r <= 1 or perm == list(range(r)):
        return [finish(cx, x)]
    init = empty(cx, [dims[p] for p in perm], x.type.element_type)
    op = cx.b.insert(TransposeOp.new(x, init, perm, loc=cx.loc))
    return [finish(cx, op.results[0])]


# ------------------------------------------------------------------ concat, split


@lowering("Concat")
def _concat(cx):
    vals = [v for i, v in enumerate(cx.operands) if cx.has_operand(i)]
    if not vals:
        raise NotLowerable("Concat needs inputs")
    r = ranked(cx, vals[0].type).rank
    return [finish(cx, concat(cx, vals, norm_axis(cx.attr("axis", 0), r)))]


def concat(cx, vals, axis):
    """`vals` (ranked tensors of one rank) joined along `axis` (tensor.concat), their
    other dims checked equal (at run time where dynamic). The one concatenation builder
    of both frontends."""
    from ...dialects.tensor import ConcatOp
    r = vals[0].type.rank
    if len(vals) == 1:
        return vals[0]
    if any(ranked(cx, v.type).rank != r for v in vals):
        raise NotLowerable("Concat inputs of different ranks")
    for k in range(r):  # the dims off the axis agree (checked at run time if need be)
        if k != axis:
            vals = same_dims(cx, vals, [(i, k) for i in range(len(vals))],
                             f"the inputs' dims {k}")
    shape = list(vals[0].type.shape)
    for v in vals[1:]:
        ranked(cx, v.type)
        for k, d in enumerate(v.type.shape):
            if k != axis and shape[k] == DYN:
                shape[k] = d
    total = 0
    for v in vals:
        d = v.type.shape[axis]
        total = DYN if d == DYN or total == DYN else total + d
    shape[axis] = total
    rt = tensor_type(shape, vals[0].type.element_type)
    res = cx.create(ConcatOp, dim=A.IntegerAttr(axis, A.i64), inputs=vals, result=rt)
    return res.results[0]


@lowering("Split")
def _split(cx):
    x = cx.operands[0]
    r = _rank(cx)
    axis = norm_axis(cx.attr("axis", 0), r)
    n = len(cx.op.results)
    split = _ints_attr_or_input(cx, "split", 1, 13)
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    total = dims[axis]
    if split is None:
        parts = cx.attr("num_outputs", n) if opset_version(cx.op) >= 18 else n
        if parts != n:
            raise NotLowerable(f"num_outputs {parts} differs from the {n} outputs")
        # equal parts; when uneven (opset 18) the last one is smaller
        chunk = ix.ceildiv(total, n)
        split = [chunk] * (n - 1) + [ix.sub(total, ix.mul(chunk, n - 1))]
    if len(split) != n:
        raise NotLowerable(f"{len(split)} split sizes for {n} outputs")
    out, off = [], 0
    for k, size in enumerate(split):
        offs = [0] * r
        offs[axis] = off
        part = list(dims)
        part[axis] = size
        part = out_sizes(cx, part, k)
        out.append(finish(cx, extract_slice(cx, x, offs, part), k))
        off = ix.add(off, size)
    return out


# ------------------------------------------------------------------ slice


def _slice_params(cx):
    """(starts, ends, axes, steps) as mixed values, by opset."""
    if opset_version(cx.op) < 10:
        starts, ends = cx.attr("starts", []), cx.attr("ends", [])
        axes = cx.attr("axes")
        steps = None
    else:
        starts = operand_ints(cx, 1, "starts")
        ends = operand_ints(cx, 2, "ends")
        axes = operand_ints(cx, 3, "axes") if cx.has_operand(3) else None
        steps = operand_ints(cx, 4, "steps") if cx.has_operand(4) else None
    if len(starts) != len(ends):
        raise NotLowerable("starts and ends differ in length")
    if axes is None:
        axes = list(range(len(starts)))
    if steps is None:
        steps = [1] * len(starts)
    if len(axes) != len(starts) or len(steps) != len(starts):
        raise NotLowerable("starts, ends, axes and steps differ in length")
    return starts, ends, axes, steps


@lowering("Slice")
def _slice(cx):
    """Starts and ends clamp into range (ONNX's rule, not an error); steps known at run
    time only are checked not to be 0, axes to be in [-r, r) and distinct (see [Note:
    shape checks]); a step of 0 divides by 1 instead after its failed check."""
    from ._index_check import all_of, checked_build, require, result_sizes, shape_text
    x = cx.operands[0]
    r = _rank(cx)
    starts, ends, axes, steps = _slice_params(cx)
    ix = Ix(scalars(cx))
    dims = sizes(cx, x)
    offs, sz, strides = [0] * r, list(dims), [1] * r
    flags = []
    if not Ix.known(*steps):
        flags.append(require(cx, all_of(cx, [ix.cmp("ne", k, 0) for k in steps]),
                             f"steps {shape_text(steps)} has a 0"))
        steps = [k if Ix.known(k) else ix.select(ix.cmp("eq", k, 0), 1, k) for k in steps]
    if not Ix.known(*axes):
        flags += _run_time_axes_checks(cx, ix, axes, r)
    seen = set()
    for st, en, ax, step in zip(starts, ends, axes, steps):
        if Ix.known(step) and step == 0:
            raise NotLowerable("a slice step is 0")
        if Ix.known(ax):
            ax = norm_axis(ax, r, "axes")
            if ax in seen:
                raise NotLowerable(f"axis {ax} is sliced twice")
            seen.add(ax)
            offs[ax], sz[ax], strides[ax] = slice_dim(ix, st, en, step, dims[ax])
            continue
        # an axis known at run time only: every dim takes the slice where it matches
        ax = ix.select(ix.cmp("lt", ax, 0), ix.add(ax, r), ax)
        for d in range(r):
            hit = ix.cmp("eq", ax, d)
            o, n, k = slice_dim(ix, st, en, step, dims[d])
            offs[d], sz[d] = ix.select(hit, o, offs[d]), ix.select(hit, n, sz[d])
            strides[d] = ix.select(hit, k, strides[d])
    out, agree = result_sizes(cx, sz, what="the sliced sizes")
    ok = all_of(cx, [*flags, agree])
    elt = x.type.element_type

    def build(out):
        if all(Ix.known(s) and s > 0 for s in strides):
            return extract_slice(cx, x, offs, out, strides)

        # a negative or unknown step: gather x[off + i * step] per dim
        def body(s, idx, args):
            ix = Ix(s)
            at = [ix.v(ix.add(o, ix.mul(i, k))) for o, i, k in zip(offs, idx, strides)]
            return s.op1("tensor.extract", [x, *at], elt)
        return index_generic(cx, [], [], out, elt, body)
    return [finish(cx, checked_build(cx, ok, out, elt, build))]


def _run_time_axes_checks(cx, ix, axes, r):
    """The flags of `axes` (some known at run time only) lying in [-r, r) and naming no
    axis twice (Slice's and Pad's rule)."""
    from ._index_check import all_of, distinct, require, shape_text
    in_range = require(cx, all_of(cx, [ix.cmp("ge", a, -r) for a in axes]
                                  + [ix.cmp("lt", a, r) for a in axes]),
                       f"axes {shape_text(axes)} out of range [-{r}, {r})")
    normal = [ix.select(ix.cmp("lt", a, 0), ix.add(a, r), a) for a in axes]
    return [in_range, require(cx, distinct(cx, normal),
                              f"axes {shape_text(axes)} name an axis twice")]


def slice_dim(ix, st, en, step, d):
    """(offset, size, stride) of one sliced dim of size `d` (ONNX's Slice and PyTorch's
    slice.Tensor, whose rule for positive steps is the same). ONNX: negative starts and
    ends count from the end, then clamp to [0, d] (step > 0), or to [0, d - 1] for the
    start and [-1, d - 1] for the end (step < 0)."""
    pos = ix.cmp("gt", step, 0)
    st = ix.select(ix.cmp("lt", st, 0), ix.add(st, d), st)
    en = ix.select(ix.cmp("lt", en, 0), ix.add(en, d), en)
    st = ix.select(pos, ix.clamp(st, 0, d), ix.clamp(st, 0, ix.sub(d, 1)))
    en = ix.select(pos, ix.clamp(en, 0, d), ix.clamp(en, -1, ix.sub(d, 1)))
    return st, ix.max(ix.ceildiv(ix.sub(en, st), step), 0), step


# ------------------------------------------------------------------ expand, tile


def broadcast_to(cx, x, out_sizes):
    """(Expand, and PyTorch's expand: the one builder of both) `x` broadcast (NumPy rules, aligned right; static size-1 dims stretch) to mixed
    `out_sizes` with a linalg.generic."""
    from ...dialects.linalg import make_generic
    from .common import _broadcast_map
    rank = len(out_sizes)
    init = empty(cx, out_sizes, x.type.element_type)
    maps = [_broadcast_map(x.type.shape, rank), AffineMap.identity(rank)]
    return make_generic(cx.b, [x], [init], maps, ["parallel"] * rank,
                        lambda b, args: [args[0]], [init.type], loc=cx.loc).results[0]


@lowering("Expand")
def _expand(cx):
    """Bidirectional broadcast of x and the shape operand: aligned right, each pair of
    sizes equal or one of them 1 (a rule checked at run time for values known then: see
    [Note: shape checks]), the shape's values not negative, the result's size within
    int64."""
    from ._index_check import (all_of, any_of, checked_build, checked_product,
                               nonnegative, require, result_sizes, shape_text)
    x = cx.operands[0]
    shape = operand_ints(cx, 1, "shape")
    dims = sizes(cx, x)
    rank = max(len(dims), len(shape))
    ix = Ix(scalars(cx))
    text = shape_text(shape)
    flags = [nonnegative(cx, shape, "shape")]
    # a dim of x named as the result's (see [Note: dim symbols]) is the result's size
    xs, rs = operand_symbols(cx, x) or [None] * len(dims), result_symbols(cx) or [None] * rank
    out, fit_ = [], []
    for k in range(rank):
        i, j = k - (rank - len(dims)), k - (rank - len(shape))
        a = dims[i] if i >= 0 else 1
        b = shape[j] if j >= 0 else 1
        fit_.append(any_of(cx, [ix.cmp("eq", a, b), ix.cmp("eq", a, 1), ix.cmp("eq", b, 1)]))
        if Ix.known(a) and a == 1:
            out.append(b)
        elif Ix.known(b) and b == 1 or (i >= 0 and xs[i] is not None and xs[i] == rs[k]):
            out.append(a)
        else:   # equal, or one of them is 1 at run time (sizes 1 and 0 give 0)
            out.append(ix.select(ix.cmp("eq", a, 1), b, a))
    flags.append(require(cx, all_of(cx, fit_), f"shape {text} does not broadcast with the "
                                               f"input's {shape_text(dims)}"))
    flags.append(require(cx, checked_product(cx, out)[1],
                         f"shape {text} gives more than 2^63 - 1 elements"))
    out, agree = result_sizes(cx, out)
    ok = all_of(cx, [*flags, agree])
    same = [out[rank - len(dims) + i] is a for i, a in enumerate(dims)]

    def build(out):
        # A dynamic dim of x that is 1 at run time stretches to the result's size (see
        # [Note: broadcasting dynamic dims]); one that is the result's size stays (0
        # after a failed check: nothing is read).
        v, cur = x, list(dims)
        for i, a in enumerate(dims):
            o = out[rank - len(dims) + i]
            if not Ix.known(a) and not same[i] and not (Ix.known(o) and o == 1):
                v = stretch_if_one(cx, v, i, o, cur)
                cur[i] = o
        return broadcast_to(cx, v, out)
    return [finish(cx, checked_build(cx, ok, out, x.type.element_type, build))]


@lowering("Tile")
def _tile(cx):
    """Broadcast x of shape (n0, n1, ..) to (r0, n0, r1, n1, ..), then collapse pairs.
    Repeats known at run time only are checked: not negative, each result dim and the
    whole within int64 (see [Note: shape checks])."""
    from ...dialects.linalg import make_generic
    from ._index_check import (all_of, checked_build, checked_product, nonnegative, require,
                               result_sizes, shape_text, when_ok)
    from ._shape_util import collapse
    x = cx.operands[0]
    r = _rank(cx)
    reps = operand_ints(cx, 1, "repeats")
    if len(reps) != r:
        raise NotLowerable(f"{len(reps)} repeats for rank {r}")
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    text = shape_text(reps)
    flags = [nonnegative(cx, reps, "repeats")]
    out = [ix.mul(a, b) for a, b in zip(reps, dims)]
    fits = all_of(cx, [checked_product(cx, [a, b])[1] for a, b in zip(reps, dims)]
                  + [checked_product(cx, reps + dims)[1]])
    flags.append(require(cx, fits, f"repeats {text} give more than 2^63 - 1 elements"))
    out, agree = result_sizes(cx, out)
    ok = all_of(cx, [*flags, agree])

    def build(_):
        inter = when_ok(cx, ok, [v for pair in zip(reps, dims) for v in pair])
        init = empty(cx, inter, x.type.element_type)
        in_map = dims_map(2 * r, [2 * k + 1 for k in range(r)])
        g = make_generic(cx.b, [x], [init], [in_map, AffineMap.identity(2 * r)],
                         ["parallel"] * (2 * r), lambda b, args: [args[0]], [init.type],
                         loc=cx.loc).results[0]
        return collapse(cx, g, [[2 * k, 2 * k + 1] for k in range(r)])
    return [finish(cx, checked_build(cx, ok, out, x.type.element_type, build))]


# ------------------------------------------------------------------ pad


def _pad_params(cx, r):
    """(pads as mixed values, 2 per dim: begins then ends; mode; value operand or None;
    the flags of the checks of run-time axes: in range, distinct)."""
    mode = cx.attr("mode", "constant")
    v = opset_version(cx.op)
    value = None
    if v < 11:
        raw = list(cx.attr("pads", []))
        axes = list(range(r))
        value = float(cx.attr("value", 0.0))
    else:
        raw = operand_ints(cx, 1, "pads")
        axes = list(range(r))
        if cx.has_operand(2):
            value = cx.operands[2]
        if v >= 18 and cx.has_operand(3):
            axes = operand_ints(cx, 3, "axes")
    if len(raw) != 2 * len(axes):
        raise NotLowerable(f"{len(raw)} pads for {len(axes)} axes")
    lo, hi = [0] * r, [0] * r
    ix = Ix(scalars(cx))
    flags = []
    if not Ix.known(*axes):
        flags += _run_time_axes_checks(cx, ix, axes, r)
    seen = set()
    for k, a in enumerate(axes):
        if Ix.known(a):
            a = norm_axis(a, r, "axes")
            if a in seen:
                raise NotLowerable(f"axis {a} is padded twice")
            seen.add(a)
            lo[a], hi[a] = raw[k], raw[len(axes) + k]
            continue
        # an axis known at run time only: the dim it names takes the pads
        a = ix.select(ix.cmp("lt", a, 0), ix.add(a, r), a)
        for d in range(r):
            hit = ix.cmp("eq", a, d)
            lo[d] = ix.select(hit, raw[k], lo[d])
            hi[d] = ix.select(hit, raw[len(axes) + k], hi[d])
    return lo, hi, mode, value, flags


def _pad_value(cx, s, value, elt):
    if value is None:
        return s.zero(elt)
    if isinstance(value, float):
        return s.const(value, elt) if type(elt) is A.FloatType else \
            s.const(int(value), elt)
    t = ranked(cx, value.type, "constant_value")
    idx = [s.index(0)] * t.rank
    return s.op1("tensor.extract", [value, *idx], elt)


@lowering("Pad")
def _pad(cx):
    """Negative pads crop, down to the whole dim and not beyond; edge, reflect and wrap
    have nothing to repeat in an empty dim, so padding one, or cropping one to nothing,
    is an error (onnxruntime's rule), as are reflect pads beyond the dim's size less 1;
    the padded sizes stay within int64. Pads known at run time only are checked so (see
    [Note: shape checks])."""
    from ._index_check import all_of, any_of, checked_build, checked_product, \
        checked_sum, require, result_sizes, shape_text, unless_empty, when_ok
    x = cx.operands[0]
    r = _rank(cx)
    lo, hi, mode, value, flags = _pad_params(cx, r)
    if mode not in ("constant", "reflect", "edge", "wrap"):
        raise NotLowerable(f"Pad mode '{mode}'")
    s = scalars(cx)
    ix = Ix(s)
    dims = sizes(cx, x)
    elt = x.type.element_type
    if mode == "constant" and all(Ix.known(p) and p >= 0 for p in lo + hi) and not flags:
        return [finish(cx, _tensor_pad(cx, x, lo, hi, _pad_value(cx, s, value, elt)))]
    text = shape_text(lo + hi)
    # the crops leave at least nothing: lo >= -d and hi >= -(d + min(lo, 0)), which
    # cannot wrap (-lo could: INT64_MIN)
    flags.append(require(cx, all_of(cx, [
        all_of(cx, [ix.cmp("ge", a, ix.sub(0, d)),
                    ix.cmp("ge", b, ix.sub(0, ix.add(d, ix.min(a, 0))))])
        for d, a, b in zip(dims, lo, hi)]),
        f"pads {text} remove more than a whole dim of the input {shape_text(dims)}"))
    # Negative pads crop first; then every output element reads the source at an index
    # mapped into range by the mode (constant: a select of the pad value).
    crop_lo = [ix.max(ix.sub(0, p), 0) for p in lo]
    crop_hi = [ix.max(ix.sub(0, p), 0) for p in hi]
    lo = [ix.max(p, 0) for p in lo]
    hi = [ix.max(p, 0) for p in hi]
    n = [ix.sub(ix.sub(d, a), b) for d, a, b in zip(dims, crop_lo, crop_hi)]
    if mode != "constant":
        flags.append(require(cx, all_of(cx, [_empty_ok(cx, d, k, a, b)
                                             for d, k, a, b in zip(dims, n, lo, hi)]),
                             f"'{mode}' mode has no data to repeat in a dim left empty "
                             f"(pads {text})"))
    if mode == "reflect":
        flags.append(require(cx, all_of(cx, [
            any_of(cx, [ix.cmp("eq", p, 0), ix.cmp("lt", p, k)])
            for k, a, b in zip(n, lo, hi) for p in (a, b)]),
            f"'reflect' mode pads {text} beyond a dim's size less 1"))
    sums = [checked_sum(cx, [k, a, b]) for k, a, b in zip(n, lo, hi)]
    out = [v for v, _ in sums]
    fits = all_of(cx, [f for _, f in sums] + [checked_product(cx, out)[1]])
    flags.append(require(cx, fits, f"pads {text} give more than 2^63 - 1 elements"))
    out, agree = result_sizes(cx, out, what="the padded sizes")
    ok = all_of(cx, [*flags, agree])
    crop_lo, n = when_ok(cx, ok, crop_lo), when_ok(cx, ok, n)
    pad_value = _pad_value(cx, s, value, elt) if mode == "constant" else None

    def build(out):
        src = extract_slice(cx, x, crop_lo, n)
        t = tensor_type([d if Ix.known(d) else DYN for d in out], elt)
        if mode != "constant":
            return _mapped_pad(cx, src, n, lo, out, mode, pad_value)
        # the constant mode reads no empty dim: all of the result is the pad value then
        empty = all_of(cx, [ix.cmp("ne", k, 0) for k in n])
        empty = None if empty is True else True if empty is False else s.not_(empty)
        from ._linalg_util import filled
        return unless_empty(cx, empty, t, lambda: filled(cx, out, elt, pad_value),
                            lambda: _mapped_pad(cx, src, n, lo, out, mode, pad_value))
    return [finish(cx, checked_build(cx, ok, out, elt, build))]


def _empty_ok(cx, d, n, lo, hi):
    """Whether a dim of `d` elements, `n` after cropping, may take pads `lo` and `hi`
    (>= 0) in a mode that repeats the data: it has some left, or was empty and gets
    none (onnxruntime refuses a dim cropped to nothing in these modes)."""
    from ._index_check import all_of, any_of
    ix = Ix(scalars(cx))
    return any_of(cx, [ix.cmp("gt", n, 0), all_of(cx, [ix.cmp("eq", d, 0),
                                                        ix.cmp("eq", lo, 0),
                                                        ix.cmp("eq", hi, 0)])])


def _tensor_pad(cx, x, lo, hi, value):
    from ...dialects.tensor import PadOp, YieldOp
    from ...ir.core import Block
    shape = [d if d == DYN else d + a + b for d, a, b in zip(x.type.shape, lo, hi)]
    rt = tensor_type(shape, x.type.element_type)
    op = PadOp.build(source=x, low=[], high=[], static_low=A.DenseArrayAttr(A.i64, lo),
                     static_high=A.DenseArrayAttr(A.i64, hi), result=rt, loc=cx.loc)
    block = op.regions[0].add_block(Block([A.index] * len(lo)))
    block.append(YieldOp.build(value=value, loc=cx.loc))
    return cx.b.insert(op).results[0]


def _mapped_pad(cx, src, n, lo, out, mode, pad_value):
    """Each element of the padded result reads `src` at its index less `lo`, brought
    into [0, n) by the mode: clamped (edge), modulo n (wrap), mirrored without repeating
    the border (reflect: period 2 (n - 1)); constant: the pad value outside."""
    elt = src.type.element_type

    def body(s, idx, args):
        ix = Ix(s)
        at, inside = [], None
        for d, o in enumerate(idx):
            i = ix.sub(o, lo[d])
            if Ix.known(lo[d], out[d], n[d]) and lo[d] == 0 and out[d] == n[d]:
                at.append(i)
                continue
            last = ix.sub(n[d], 1)
            if mode == "constant":
                ok = s.and_(ix.v(ix.cmp("ge", i, 0)), ix.v(ix.cmp("le", i, last)))
                inside = ok if inside is None else s.and_(inside, ok)
                at.append(ix.clamp(i, 0, ix.max(last, 0)))
            elif mode == "edge":
                at.append(ix.clamp(i, 0, last))
            elif mode == "wrap":
                at.append(ix.mod(i, n[d]))
            else:
                period = ix.max(ix.mul(last, 2), 1)
                j = ix.mod(i, period)
                at.append(ix.select(ix.cmp("gt", j, last), ix.sub(period, j), j))
        v = s.op1("tensor.extract", [src, *[ix.v(a) for a in at]], elt)
        return v if inside is None else s.select(inside, v, pad_value)
    return index_generic(cx, [], [], out, elt, body)


# ------------------------------------------------------------------ index patterns


@lowering("Trilu")
def _trilu(cx):
    x = cx.operands[0]
    r = _rank(cx)
    if r < 2:
        raise NotLowerable("Trilu needs rank >= 2")
    k = scalar_of(cx, 1) if cx.has_operand(1) else 0
    upper = cx.attr("upper", 1)
    elt = x.type.element_type
    s0 = scalars(cx)
    kv = Ix(s0).v(k)

    def body(s, idx, args):
        d = s.sub(idx[r - 1], idx[r - 2])  # col - row
        keep = s.cmp("ge" if upper else "le", d, kv)
        return s.select(keep, args[0], s.zero(elt))
    ident = AffineMap.identity(r)
    return [finish(cx, index_generic(cx, [x], [ident], sizes(cx, x), elt, body))]


@lowering("EyeLike")
def _eyelike(cx):
    x = cx.operands[0]
    if _rank(cx) != 2:
        raise NotLowerable("EyeLike needs a 2-D input")
    rt = cx.result_type()
    elt = element_type(rt)
    k = cx.attr("k", 0)

    def body(s, idx, args):
        on = s.cmp("eq", s.sub(idx[1], idx[0]), s.index(k))
        one = s.one(elt)
        return s.select(on, one, s.zero(elt))
    return [finish(cx, index_generic(cx, [], [], sizes(cx, x), elt, body))]


@lowering("ReverseSequence")
def _reverse_sequence(cx):
    x, lens = cx.operands[0], cx.operands[1]
    r = _rank(cx)
    bax = norm_axis(cx.attr("batch_axis", 1), r, "batch_axis")
    tax = norm_axis(cx.attr("time_axis", 0), r, "time_axis")
    signed = not is_unsigned(cx.orig_type(1))
    elt = x.type.element_type
    lens_map = dims_map(r, [bax])
    # a length out of [0, T] is a run-time error; the read stays in bounds (clamped
    # length; see [Note: index checks])
    from ._index_check import assert_ok, index_ranges
    steps = sizes(cx, x)[tax]
    ok = index_ranges(cx, 1, [(0, Ix(scalars(cx)).add(steps, 1))], signed)[0]
    assert_ok(cx, ok, "sequence length out of range [0, "
                      + (f"{steps}]" if Ix.known(steps) else "T] (T the run-time time steps)"))

    def body(s, idx, args):
        n = index_of(s, args[0], signed)
        if ok is not True:
            n = s.op1("arith.minui", [n, Ix(s).v(steps)], A.index)
        t = idx[tax]
        rev = s.sub(s.sub(n, s.index(1)), t)
        at = list(idx)
        at[tax] = s.select(s.cmp("lt", t, n), rev, t)
        return s.op1("tensor.extract", [x, *at], elt)
    return [finish(cx, index_generic(cx, [lens], [lens_map], sizes(cx, x), elt, body))]


# ------------------------------------------------------------------ bitcast


@lowering("BitCast")
def _bitcast(cx):
    from ...dialects.tensor import BitcastOp
    from .common import cast_tensor
    x = cx.operands[0]
    rt = cx.result_type()
    src, dst = element_type(x.type), element_type(rt)
    t = tensor_type(x.type.shape, dst)
    if src is dst:
        return [finish(cx, x)]
    w = (getattr(src, "width", None), getattr(dst, "width", None))
    if 1 in w:
        # bool is one byte of 0 / 1: a conversion to / from the 8-bit integer
        if not all(isinstance(e, A.IntegerType) for e in (src, dst)):
            raise NotLowerable(f"BitCast from {src} to {dst}")
        return [finish(cx, cast_tensor(cx, x, dst, False, False))]
    if w[0] is None or w[0] != w[1]:
        raise NotLowerable(f"BitCast from {src} to {dst}: bit widths differ")
    return [finish(cx, cx.create(BitcastOp, source=x, dest=t).results[0])]

