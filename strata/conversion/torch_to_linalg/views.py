"""ATen view and data-movement ops -> tensor reshapes, slices, linalg.transpose and
broadcasts (the builders of onnx_to_linalg's data_movement and _shape_util), and
embedding as onnx_to_linalg's gather.

    view, _unsafe_view, reshape    collapse_shape + expand_shape (reshape_to)
    unsqueeze, squeeze(.dim/.dims) expand_shape / collapse_shape
    permute, transpose.int, t      linalg.transpose
    expand                         broadcasting linalg.generic (broadcast_to)
    slice.Tensor, select.int       tensor.extract_slice (+ collapse for select)
    split_with_sizes, split.Tensor tensor.extract_slice per part
    cat                            tensor.concat (concat)
    embedding, index_select        gather (indices checked in range at run time)
    sym_storage_offset             of a chain of slices and selects, at run time
                                   ([Note: storage offsets of slices])
    index.Tensor                   a gathering generic; a bool mask as its nonzero
                                   coordinates ([Note: bool masks as indices])
    _embedding_bag                 a generic over (bag, index, column), all four results
    repeat_interleave.Tensor       two scf.for loops (run starts, then a running maximum)
    bincount                       one scf.for adding into max(max(x) + 1, minlength)
    searchsorted, bucketize        ATen's binary search unrolled in a generic's payload
    index_add/copy/fill, max_unpool  the scatter builder (kept whole: [Note: negative
                                   indices] in onnx_to_linalg/gather_scatter.py)

    %1 = torch.aten.view %0, %list : !torch.vtensor<[2,3],f32>, !torch.list<int>
           -> !torch.vtensor<[6],f32>

A result dim the result type gives statically is taken from it; a dynamic one from the
op's arguments (symbolic sizes are run-time `!torch.int` values) or from the input's
dims. A run-time size that must agree with the input (a view's element count) is
checked as onnx_to_linalg checks Reshape ([Note: shape checks]).

[Note: scatter_reduce]
`scatter_reduce(x, dim, index, src, reduce, include_self)` is built from the one scatter
builder (gather_scatter.scatter_elements), as PyTorch defines it: without include_self
the positions `index` hits are first set to the reduction's identity (0, 1, -inf, +inf;
the extremes of the type for integers), so only src's values meet there; "mean" is the
"sum" divided by a count scattered the same way (starting at 1 with include_self, else
0; a position never hit divides by 1 and keeps x), with floor division for integers.

    x = [1, 2, 3], index = [0, 0], src = [4, 6], "mean"
      include_self:    [(1 + 4 + 6) / 3, 2, 3]
      no include_self: [(4 + 6) / 2, 2, 3]
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ..onnx_to_linalg._index_check import (all_of, any_of, assert_ok, check_dims,
                                           checked_build, result_sizes)
from ..onnx_to_linalg._linalg_util import transpose
from ..onnx_to_linalg._shape_util import (DYN, Ix, extract_slice, finish, reshape_to,
                                          sizes)
from ..onnx_to_linalg.common import elementwise, ranked, scalars, stretch_if_one
from ..onnx_to_linalg.data_movement import broadcast_to, concat, slice_dim
from ..onnx_to_linalg.gather_scatter import gather, gather_elements, nonzero
from . import DYNAMIC_ARG, NotLowerable, _const_arg, lowering

INT64_MAX = (1 << 63) - 1


def _axis(d, rank):
    r = max(rank, 1)
    if not -r <= d < r:
        raise NotLowerable(f"dim {d} out of range for rank {rank}")
    return d % r


def _product(ix, values):
    p = 1
    for v in values:
        p = ix.mul(p, v)
    return p


# ------------------------------------------------------------------ reshapes


@lowering("aten.view", "aten._unsafe_view", "aten.reshape")
def _view(cx):
    """The sizes of the list (one may be -1: what the others leave), checked to hold the
    input's element count."""
    x = cx.operands[0]
    ranked(cx, x.type)
    want = cx.sizes(1, "size")
    ix = Ix(scalars(cx))
    in_sizes = sizes(cx, x)
    total = _product(ix, in_sizes)
    holes = [k for k, d in enumerate(want) if Ix.known(d) and d == -1]
    if len(holes) > 1:
        raise NotLowerable("only one dimension can be inferred")
    if any(Ix.known(d) and d < -1 for d in want):
        raise NotLowerable(f"invalid shape dimension in {want}")
    if holes:
        rest = _product(ix, [d for k, d in enumerate(want) if k != holes[0]])
        if Ix.known(rest) and rest == 0:
            raise NotLowerable("cannot infer a dimension next to a 0")
        want[holes[0]] = ix.floordiv(total, rest) if not (Ix.known(rest) and rest == 1) \
            else total
    out, agree = result_sizes(cx, want, what="the view's sizes")
    f = ix.cmp("eq", _product(ix, out), total)
    if f is False:
        raise NotLowerable(f"shape {want} is invalid for an input of {in_sizes}")
    if f is not True:
        assert_ok(cx, f, "the view's sizes do not hold the input's element count")
    ok = all_of(cx, [agree, f])
    return [finish(cx, checked_build(cx, ok, out, x.type.element_type,
                                     lambda sz: reshape_to(cx, x, sz, in_sizes)))]


def _reshaped(cx, x, out):
    """`x` reshaped to mixed sizes `out` (the same elements: squeeze/unsqueeze)."""
    return finish(cx, reshape_to(cx, x, out, sizes(cx, x)))


@lowering("aten.unsqueeze")
def _unsqueeze(cx):
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    d = cx.int_(1, "dim")
    if not -(r + 1) <= d <= r:
        raise NotLowerable(f"dim {d} out of range for rank {r + 1}")
    d = d % (r + 1)
    dims = sizes(cx, x)
    return [_reshaped(cx, x, dims[:d] + [1] + dims[d:])]


@lowering("aten.squeeze", "aten.squeeze.dim", "aten.squeeze.dims")
def _squeeze(cx):
    """Drops the given dims (every dim when none is given) that are 1: a dynamic dim is
    kept (ATen decides at run time; the result type says which were dropped)."""
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    if cx.aten == "aten.squeeze":
        dims = list(range(r))
    else:
        dims = sorted({_axis(d, r) for d in cx.ints(1, "dim")}) if r else []
    shape = x.type.shape
    rt = cx.result_type()
    drop = [d for d in dims if shape[d] == 1]
    if type(rt) is A.RankedTensorType and rt.rank != r - len(drop):
        raise NotLowerable("squeezing dims of run-time size is not lowered")
    cur = sizes(cx, x)
    return [_reshaped(cx, x, [v for k, v in enumerate(cur) if k not in drop])]


# ------------------------------------------------------------------ transposes


@lowering("aten.permute")
def _permute(cx):
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    perm = [_axis(d, r) for d in cx.ints(1, "dims")] if r else []
    if sorted(perm) != list(range(r)):
        raise NotLowerable(f"dims {perm} are not a permutation of {r} dims")
    return [finish(cx, transpose(cx, x, perm))]


@lowering("aten.transpose.int", "aten.t", "aten.numpy_T")
def _transpose(cx):
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    perm = list(range(r))
    if cx.aten == "aten.transpose.int":
        if r == 0:
            return [x]
        a, b = _axis(cx.int_(1, "dim0"), r), _axis(cx.int_(2, "dim1"), r)
    else:
        if cx.aten == "aten.t" and r > 2:
            raise NotLowerable("t() needs at most 2 dims")
        perm.reverse()
        return [finish(cx, transpose(cx, x, perm))]
    perm[a], perm[b] = perm[b], perm[a]
    return [finish(cx, transpose(cx, x, perm))]


# ------------------------------------------------------------------ broadcasts


@lowering("aten.expand", "aten.broadcast_to", "aten.expand_as")
def _expand(cx):
    """Each size -1 keeps the input's dim; a new leading dim takes the size given; an
    input dim of 1 stretches, another must equal the size (checked at run time where
    dynamic; a dynamic dim that is 1 at run time stretches, see [Note: broadcasting
    dynamic dims])."""
    x = cx.operands[0]
    ranked(cx, x.type)
    if cx.aten == "aten.expand_as":
        want = sizes(cx, cx.operands[1])
    else:
        want = cx.sizes(1, "size")
    dims = sizes(cx, x)
    lead = len(want) - len(dims)
    if lead < 0:
        raise NotLowerable(f"expand to {len(want)} dims of a rank-{len(dims)} tensor")
    ix = Ix(scalars(cx))
    out, stretch = [], []
    for k, w in enumerate(want):
        j = k - lead
        if j < 0:
            if Ix.known(w) and w < 0:
                raise NotLowerable(f"size {w} for a new leading dim")
            out.append(w)
            continue
        a = dims[j]
        if Ix.known(w) and w == -1 or a is w:
            out.append(a)
        elif Ix.known(a) and a == 1:
            out.append(w)
        else:
            f = any_of(cx, [ix.cmp("eq", a, w), ix.cmp("eq", a, 1)])
            if f is False:
                raise NotLowerable(f"the input's dim {j} of size {a} cannot expand to {w}")
            assert_ok(cx, f, f"the input's dim {j} must be 1 or the size {w}")
            out.append(w)
            if not Ix.known(a):
                stretch.append(j)
    out, _ = result_sizes(cx, out, what="the expanded sizes")
    v, cur = x, list(dims)
    for j in stretch:
        o = out[lead + j]
        v = stretch_if_one(cx, v, j, o, cur)
        cur[j] = o
    return [finish(cx, broadcast_to(cx, v, out))]


# ------------------------------------------------------------------ slices


def _slice_window(cx, x, first):
    """(offsets, sizes, strides) of slice(x, dim, start?, end?, step) with `dim` the
    op's argument `first` and the others after it: negative starts and ends count from
    the end, then clamp into [0, size] (ATen's rule, not an error); step must be
    positive."""
    r = ranked(cx, x.type).rank
    if r == 0:
        raise NotLowerable("slice() cannot be applied to a 0-dim tensor")
    d = _axis(cx.int_(first, "dim"), r) if len(cx.op.operands) > first else 0
    ix = Ix(scalars(cx))
    dims = sizes(cx, x)

    def bound(i, default):
        if i >= len(cx.op.operands) or cx.is_none(i):
            return default
        v = cx.arg(i)
        if v is DYNAMIC_ARG:
            return scalars(cx).cast(cx.operands[i], A.index)
        return max(min(v, INT64_MAX), -INT64_MAX)
    start, end = bound(first + 1, 0), bound(first + 2, INT64_MAX)
    step = cx.int_(first + 3, "step") if len(cx.op.operands) > first + 3 else 1
    if step <= 0:
        raise NotLowerable("slice step must be positive")
    off, n, _ = slice_dim(ix, start, end, step, dims[d])
    if Ix.known(off, dims[d]) and off >= dims[d]:
        off, n = 0, 0   # an empty slice at the end: an offset the slice ops accept
    offs, part, strides = [0] * r, list(dims), [1] * r
    offs[d], part[d], strides[d] = off, n, step
    return offs, part, strides


@lowering("aten.slice.Tensor")
def _slice(cx):
    """slice(x, dim, start?, end?, step): see _slice_window."""
    x = cx.operands[0]
    offs, part, strides = _slice_window(cx, x, 1)
    part, _ = result_sizes(cx, part, what="the sliced sizes")
    if 0 in part:  # nothing to read (and no offset the slice verifier takes on a 0 dim)
        from ..onnx_to_linalg.common import empty
        return [finish(cx, empty(cx, part, x.type.element_type))]
    return [finish(cx, extract_slice(cx, x, offs, part, strides))]


# [Note: storage offsets of slices]
# torch.export checks the storage offset of a view whose start is known at run time only
# (tensor_split by a tensor of indices: `sym_storage_offset(slice(x, 1, u0, u1)) >= 0`).
# Strata's tensors are values, but the offset ATen means is defined by the view chain:
# a function argument or the result of an op that is not a view starts at 0 with
# contiguous strides; slice.Tensor adds start * stride(dim) (start clamped as slicing
# clamps it) and multiplies the dim's stride by the step; select.int adds index *
# stride(dim) and drops the dim. Other views (permute, expand, as_strided...) are not
# followed: the op is refused there, never given a made-up offset.

_OFFSET_VIEWS = ("torch.aten.slice.Tensor", "torch.aten.select.int")


@lowering("aten.sym_storage_offset")
def _storage_offset(cx):
    """[Note: storage offsets of slices]."""
    chain, v = [], cx.op.operands[0]
    while v.defining_op is not None and v.defining_op.name in _OFFSET_VIEWS:
        chain.append(v.defining_op)
        v = v.defining_op.operands[0]
    base = v.defining_op
    if base is not None and _is_view(base):
        raise NotLowerable(f"the storage offset of a view made by {base.name}")
    s = scalars(cx)
    ix = Ix(s)

    def value(x):
        if x.defining_op is None or x.type is None or not _const_int(x):
            got = cx.b.get_remapped_value(x)
            return s.cast(got if got is not None else x, A.index)
        return _const_arg(x)
    src = cx.b.get_remapped_value(v)
    if src is None:
        raise NotLowerable("the storage offset of a value not yet lowered")
    dims = sizes(cx, src)
    strides = [1] * len(dims)
    for d in range(len(dims) - 2, -1, -1):
        strides[d] = ix.mul(strides[d + 1], dims[d + 1])
    off = 0
    for op in reversed(chain):
        r = len(dims)
        d = _const_arg(op.operands[1])
        if not isinstance(d, int) or r == 0:
            raise NotLowerable("a view along a dim not known at compile time")
        d %= r
        if op.name == "torch.aten.select.int":
            i = value(op.operands[2])
            i = ix.select(ix.cmp("lt", i, 0), ix.add(i, dims[d]), i)
            off = ix.add(off, ix.mul(i, strides[d]))
            del dims[d], strides[d]
            continue
        ops = list(op.operands)
        start = 0 if len(ops) < 3 or _const_arg(ops[2]) is None else value(ops[2])
        end = INT64_MAX if len(ops) < 4 or _const_arg(ops[3]) is None else value(ops[3])
        step = _const_arg(ops[4]) if len(ops) > 4 else 1
        if not isinstance(step, int) or step <= 0:
            raise NotLowerable("a slice step not known at compile time")
        if Ix.known(end):
            end = min(end, INT64_MAX)
        st, n, _ = slice_dim(ix, start, end, step, dims[d])
        off = ix.add(off, ix.mul(st, strides[d]))
        dims[d], strides[d] = n, ix.mul(strides[d], step)
    return [s.const(off, A.i64) if Ix.known(off) else s.cast(ix.v(off), A.i64)]


def _const_int(x) -> bool:
    return isinstance(_const_arg(x), int)


def _is_view(op) -> bool:
    """Whether torch op `op` may return a view of an operand: its schema's alias
    annotation on a result (`-> Tensor(a)`), or no schema known."""
    from ...dialects.torch.table import lookup
    from . import aten_name
    if not op.name.startswith("torch."):
        return False
    schema = lookup("torch." + aten_name(op))
    return schema is None or any(r.alias is not None for r in schema.returns)


@lowering("aten.slice_scatter")
def _slice_scatter(cx):
    """slice_scatter(x, src, dim, start?, end?, step): x with the slice of
    `aten.slice.Tensor` (the same window) replaced by src, a tensor.insert_slice; src's
    sizes must be the slice's (checked at run time where unknown: after a failed check
    nothing is written)."""
    from ..onnx_to_linalg._index_check import when_ok
    from ..onnx_to_linalg._shape_util import insert_slice
    x, src = cx.operands[0], cx.operands[1]
    elt = x.type.element_type
    if ranked(cx, src.type, "src").rank != x.type.rank:
        raise NotLowerable(f"src of rank {src.type.rank} for a rank-{x.type.rank} slice")
    offs, part, strides = _slice_window(cx, x, 2)
    if src.type.element_type is not elt:
        signed = _signed_indices(cx.op.operands[1])
        src = elementwise(cx, [src], elt, lambda s, v: s.cast(v, elt, signed))
    src_dims = sizes(cx, src)
    ok = all_of(cx, check_dims(cx, [(a, b, "eq", f"src dim {j} must be the slice's size")
                                    for j, (a, b) in enumerate(zip(src_dims, part))]))
    if 0 in part or 0 in src_dims:  # nothing to write
        return [finish(cx, x)]
    if ok is not True:
        src = extract_slice(cx, src, [0] * len(part), when_ok(cx, ok, src_dims))
    return [finish(cx, insert_slice(cx, src, x, offs, strides))]


@lowering("aten.select.int")
def _select(cx):
    """x[..., index, ...] along `dim` (negative from the end); out of range is an error:
    at compile time when known, else a cf.assert, after which index 0 of a clamped
    position is read."""
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    if r == 0:
        raise NotLowerable("select() cannot be applied to a 0-dim tensor")
    d = _axis(cx.int_(1, "dim"), r)
    dims = sizes(cx, x)
    n = dims[d]
    s = scalars(cx)
    ix = Ix(s)
    v = cx.arg(2)
    i = s.cast(cx.operands[2], A.index) if v is DYNAMIC_ARG else v
    if Ix.known(i) and Ix.known(n):
        if not -n <= i < n:
            raise NotLowerable(f"index {i} is out of range for dim {d} of size {n}")
        i = i % n
    else:
        ok = ix.cmp("lt", i, n)
        lo = ix.cmp("ge", i, ix.sub(0, n))
        flag = all_of(cx, [ok, lo])
        assert_ok(cx, flag, f"index out of range on dim {d}")
        i = ix.select(ix.cmp("lt", i, 0), ix.add(i, n), i)
        if flag is not True:
            i = ix.select(flag, i, 0)
    offs, part = [0] * r, list(dims)
    offs[d], part[d] = i, 1
    one = extract_slice(cx, x, offs, part)
    return [_reshaped(cx, one, dims[:d] + dims[d + 1:])]


def _parts(cx, x, d, lengths):
    """The slices of `x` along dim `d` of `lengths`, as results 0, 1... of `cx.op`."""
    r = x.type.rank
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    out, off = [], 0
    for k, n in enumerate(lengths):
        offs, part = [0] * r, list(dims)
        offs[d], part[d] = off, n
        rt = cx.result_type(k)
        if type(rt) is A.RankedTensorType:
            part = [p if rt.shape[j] == DYN else rt.shape[j] for j, p in enumerate(part)]
        out.append(finish(cx, extract_slice(cx, x, offs, part), k))
        off = ix.add(off, n)
    return out


def _split_lengths(cx, x, parts):
    """The part lengths (ints, or index Values for symbolic sizes) and dim of
    split_with_sizes / split.Tensor op `cx.op`, which has `parts` results (or list
    items). A dynamic dim split by a size makes `parts` parts: the dim is checked at run
    time to give that many (as torch.export's guards assumed), the last one the rest."""
    r = ranked(cx, x.type).rank
    d = _axis(cx.int_(2, "dim"), r) if len(cx.op.operands) > 2 else 0
    n = sizes(cx, x)[d]
    ix = Ix(scalars(cx))
    if cx.aten.startswith("aten.split_with_sizes"):
        lengths = cx.sizes(1, "split_sizes")    # symbolic sizes (split([s, s])) too
        if any(Ix.known(k) and k < 0 for k in lengths):
            raise NotLowerable(f"split sizes {lengths} must be non-negative")
        total = 0
        for k in lengths:
            total = ix.add(total, k)
        if Ix.known(n, total):
            if n != total:
                raise NotLowerable(f"split sizes {lengths} do not add up to dim {d}'s {n}")
        else:
            check_dims(cx, [(0, k, "le", "split sizes must be non-negative")
                            for k in lengths if not Ix.known(k)] +
                       [(n, total, "eq", f"split sizes must add up to dim {d}")])
        return lengths, d
    size = cx.int_(1, "split_size")
    if size <= 0:
        raise NotLowerable("split by a non-positive size")
    if Ix.known(n):
        return [min(size, n - k) for k in range(0, n, size)] or [0], d
    before = size * (parts - 1)   # the sizes of all but the last part
    check_dims(cx, [(before + (parts > 1), n, "le",
                     f"dim {d} split by {size} must give {parts} parts"),
                    (n, size * parts, "le", f"dim {d} split by {size} must give {parts} "
                                            "parts")])
    return [size] * (parts - 1) + [ix.sub(n, before)], d


_SPLITS = ("aten.split_with_sizes", "aten.split_with_sizes_copy", "aten.split.Tensor",
           "aten.split_copy.Tensor")


@lowering(*_SPLITS)
def _split(cx):
    """A split with one result per part; one whose result is a `!torch.list` has no
    value of its own: the `prim.ListUnpack` of it makes the parts."""
    if len(cx.op.results) == 1 and cx.result_type() is cx.op.results[0].type and \
            not isinstance(cx.result_type(), A.ShapedType):
        if any(u.owner.name != "torch.prim.ListUnpack" for u in cx.op.results[0].uses):
            raise NotLowerable("the list of parts is used other than by prim.ListUnpack")
        return [None]
    x = cx.operands[0]
    lengths, d = _split_lengths(cx, x, len(cx.op.results))
    if len(lengths) != len(cx.op.results):
        raise NotLowerable(f"{len(lengths)} parts for {len(cx.op.results)} results")
    return _parts(cx, x, d, lengths)


@lowering("prim.ListUnpack")
def _list_unpack(cx):
    """The tensors of a list: the items of a ListConstruct, or the parts of a split."""
    from . import TorchLowering, aten_name
    src = cx.op.operands[0].defining_op
    if src is None:
        raise NotLowerable("the list is not built in the function")
    if src.name == "torch.prim.ListConstruct":
        return [cx.remapped(v) for v in src.operands]
    if aten_name(src) not in _SPLITS:
        raise NotLowerable(f"unpacking the list of {aten_name(src)} is not lowered")
    pcx = TorchLowering(src, [cx.remapped(v) if isinstance(cx.tc.convert_type(v.type),
                                                           A.ShapedType) else None
                              for v in src.operands], cx.b, cx.tc)
    x = pcx.operands[0]
    lengths, d = _split_lengths(pcx, x, len(cx.op.results))
    if len(lengths) != len(cx.op.results):
        raise NotLowerable(f"{len(lengths)} parts for {len(cx.op.results)} results")
    return _parts(cx, x, d, lengths)


@lowering("aten.cat", "aten.concat")
def _cat(cx):
    vals = cx.tensors(0)
    # ATen skips 1-d empty tensors (the legacy "no tensor" of torch.cat)
    vals = [v for v in vals if not (v.type.rank == 1 and v.type.shape[0] == 0)] or vals[:1]
    r = ranked(cx, vals[0].type).rank
    d = _axis(cx.int_(1, "dim"), r) if len(cx.op.operands) > 1 else 0
    elt = cx.result_type().element_type
    vals = [v if v.type.element_type is elt else
            elementwise(cx, [v], elt, lambda sb, e: sb.cast(e, elt)) for v in vals]
    return [finish(cx, concat(cx, vals, d))]


# ------------------------------------------------------------------ gathers


@lowering("aten.embedding")
def _embedding(cx):
    """embedding(weight, indices, ...): the rows of weight at indices (gather on axis 0,
    the indices checked in range)."""
    ranked(cx, cx.operands[0].type)
    return [gather(cx, 0, negative=False)]


@lowering("aten._embedding_bag", "aten._embedding_bag_forward_only",
          "aten.embedding_bag.padding_idx")
def _embedding_bag(cx):
    """_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
    per_sample_weights, include_last_offset, padding_idx): see [Note: bags of
    embeddings, lowered]. (`embedding_bag.padding_idx`, torch-mlir's name, is the one
    the importer gives `_embedding_bag_forward_only`: the same arguments.)"""
    weight, indices, offsets = cx.operands[:3]
    nargs = len(cx.op.operands)
    mode = cx.int_(4, "mode") if nargs > 4 else 0
    psw = cx.operands[6] if nargs > 6 and not cx.is_none(6) else None
    last = cx.bool_(7, "include_last_offset") if nargs > 7 else False
    pad = cx.int_(8, "padding_idx") if nargs > 8 and not cx.is_none(8) else -1
    if psw is not None and mode != 0:
        raise NotLowerable("embedding_bag's per_sample_weights need mode 'sum' (as ATen)")
    wanted = [i == 0 or (i < len(cx.op.results) and cx.op.results[i].has_uses())
              for i in range(4)]
    return embedding_bag(cx, weight, indices, offsets, mode, psw, last, pad, wanted)


# [Note: bags of embeddings, lowered]
# nn.EmbeddingBag (F.embedding_bag) reaches Strata as `aten._embedding_bag` from both
# frontends: torch.export's default decompositions make it of `embedding_bag`, and the
# torch.compile backend keeps it whole (only its backward is decomposed, [Note: bags of
# embeddings] in frontends/torch/training.py), so `embedding_bag` below is the one
# computation of the op's four results:
#   out[b, :]          per bag b (the indices in [offsets[b], offsets[b + 1]), the last
#                      bag to the end unless include_last_offset), the sum (mode 0,
#                      each row times its per-sample weight if given), mean (1) or
#                      maximum (2) of weight's rows at those indices, padding_idx's
#                      rows left out (and out of the mean's count); an empty bag gives
#                      zeros, as ATen
#   offset2bag[j]      the bag of index position j: the count of bag starts
#                      offsets[1:bags] at or before j (ATen's; empty where ATen's type
#                      is, the sum mode without padding_idx)
#   bag_size[b]        the count of b's indices that are not padding_idx (ATen gives
#                      it for mean and max; here for every mode)
#   max_indices[b, c]  max mode: the weight row the maximum of column c came from (the
#                      first, on ties; 0 for a bag without rows, as ATen); other
#                      modes: bag_size, as ATen's mean gives it
# The bags (and the max's rows) are one generic over (bag, index, column) with the
# bag's bounds read per element (a bag's length is known at run time only); the
# indices are checked in range and clamped for the read ([Note: index checks]).
# The backward (training.py) reads offset2bag, bag_size and max_indices.


def embedding_bag(cx, weight, indices, offsets, mode, psw, last, pad, wanted):
    """The results of _embedding_bag ([Note: bags of embeddings, lowered]) that
    `wanted` asks for (None for the others)."""
    from ...dialects.linalg import make_generic
    from ..onnx_to_linalg._index_check import range_text, values_in_ranges, when
    from ..onnx_to_linalg._linalg_util import filled, generic_maps, map_text
    from ..scalar_builders import ScalarBuilder
    wt, it, ot = (ranked(cx, v.type) for v in (weight, indices, offsets))
    if wt.rank != 2 or it.rank != 1 or ot.rank != 1:
        raise NotLowerable("_embedding_bag of a 2-d weight, 1-d indices and 1-d offsets")
    if mode not in (0, 1, 2):
        raise NotLowerable(f"embedding_bag mode {mode} (0: sum, 1: mean, 2: max)")
    elt = wt.element_type
    s = scalars(cx)
    ws, (n,), (nb,) = sizes(cx, weight), sizes(cx, indices), sizes(cx, offsets)
    rows = ws[0]
    (flag,) = values_in_ranges(cx, indices, [(0, rows)], True, cx.op.operands[1])
    assert_ok(cx, flag, f"embedding_bag index out of range {range_text(0, rows)}")
    # ATen's checks of the offsets (else the bags are ones ATen refuses to make):
    # offsets[0] is 0 and offsets[-1] is at most the number of indices
    ix = Ix(s)

    def ends_ok():
        first, last_ = (s.cast(s.op1("tensor.extract", [offsets, ix.v(i)], ot.element_type),
                               A.index) for i in (0, ix.sub(nb, 1)))
        return s.and_(s.cmp("eq", first, ix.v(0)), s.cmp("le", last_, ix.v(n)))
    assert_ok(cx, when(cx, nb > 0 if Ix.known(nb) else s.cmp("gt", ix.v(nb), ix.v(0)),
                       ends_ok),
              "embedding_bag's offsets must start at 0 and end at most at the number of "
              "indices (as ATen checks them)")
    bags = Ix(s).sub(nb, 1) if last else nb
    out = [bags, ws[1]]
    if DYN not in cx.result_type().shape:
        out = list(cx.result_type().shape)
    idx_elt, off_elt = it.element_type, ot.element_type

    def offset(p, b):
        return p.cast(p.op1("tensor.extract", [offsets, b], off_elt), A.index)

    def bounds(p, b):
        """(start, end) of bag b's index positions."""
        start = offset(p, b)
        nxt = p.add(b, p.index(1))
        if last:
            end = offset(p, nxt)
        else:
            has = p.cmp("lt", nxt, Ix(p).v(nb))
            end = p.select(has, offset(p, p.select(has, nxt, p.index(0))), Ix(p).v(n))
        return start, end

    def valid_at(p, b, j, row):
        start, end = bounds(p, b)
        ok = p.and_(p.cmp("ge", j, start), p.cmp("lt", j, end))
        if pad >= 0:   # (F.embedding_bag passes a negative padding_idx made positive)
            ok = p.and_(ok, p.cmp("ne", row, p.const(pad, idx_elt)))
        return ok

    results = [None] * 4
    need_counts = mode != 0 or wanted[2] or (wanted[3] and mode != 2)
    counts = None
    if need_counts:
        # the rows in each bag less the padding: the mean's divisor, bag_size; an
        # empty max bag is 0
        count_init = filled(cx, [out[0]], A.i64, 0)

        def count(b, args):
            p = ScalarBuilder(b, cx.loc)
            ok = valid_at(p, b.index(0), b.index(1), args[0])
            return p.select(ok, p.add(args[-1], p.const(1, A.i64)), args[-1])
        counts = make_generic(cx.b, [indices], [count_init],
                              generic_maps([map_text(2, [1]), map_text(2, [0])]),
                              ["parallel", "reduction"], count, [count_init.type],
                              loc=cx.loc).results[0]
    init = filled(cx, out, elt, 0.0) if mode != 2 else filled(cx, out, elt, s.lowest(elt))
    inits = [init]
    argmax = mode == 2 and wanted[3]
    if argmax:
        inits.append(filled(cx, out, A.i64, -1))
    ins = [indices] + ([psw] if psw is not None and mode == 0 else [])

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        bag, j, col = b.index(0), b.index(1), b.index(2)
        row = args[0]
        ok = valid_at(p, bag, j, row)
        r = p.min(p.max(p.cast(row, A.index), p.index(0)), p.sub(Ix(p).v(rows), p.index(1)))
        v = p.op1("tensor.extract", [weight, r, col], elt)
        if len(ins) > 1:
            v = p.mul(v, args[1])
        acc = args[len(ins)]
        if mode != 2:
            return p.select(ok, p.add(acc, v), acc)
        if not argmax:
            return p.select(ok, p.max(acc, v), acc)
        at = args[len(ins) + 1]
        # the first row of the maximum: a greater value, or the bag's first row
        take = p.and_(ok, p.or_(p.cmp("lt", at, p.const(0, A.i64)), p.cmp("gt", v, acc)))
        return [p.select(take, v, acc), p.select(take, p.cast(row, A.i64), at)]
    maps = [map_text(3, [1])] * len(ins) + [map_text(3, [0, 2])] * len(inits)
    red = make_generic(cx.b, ins, inits, generic_maps(maps),
                       ["parallel", "reduction", "parallel"], body,
                       [v.type for v in inits], loc=cx.loc).results
    if mode == 0:
        results[0] = red[0]
    else:
        def final(p, v, c):
            if mode == 1:
                return p.div(v, p.cast(p.max(c, p.const(1, A.i64)), elt))
            return p.select(p.cmp("eq", c, p.const(0, A.i64)), p.zero(elt), v)
        results[0] = elementwise(cx, [red[0], counts], elt, final, maps=generic_maps(
            [map_text(2, [0, 1]), map_text(2, [0])]), result_sizes=out)
    if wanted[1]:
        results[1] = _offset2bag(cx, offsets, n, nb, bags, cx.result_type(1))
    if wanted[2]:
        results[2] = counts
    if wanted[3]:
        results[3] = elementwise(cx, [red[1]], A.i64, lambda p, i: p.max(
            i, p.const(0, A.i64))) if argmax else counts
    return results


def _offset2bag(cx, offsets, n, nb, bags, rt):
    """offset2bag (see [Note: bags of embeddings, lowered]) of type `rt`'s i64 elements:
    for each index position j, the count of offsets[b] <= j for b in [1, bags)."""
    from ...dialects.linalg import make_generic
    from ..onnx_to_linalg._linalg_util import filled, generic_maps, map_text
    from ..onnx_to_linalg.common import empty
    from ..scalar_builders import ScalarBuilder
    if type(rt) is A.RankedTensorType and rt.rank == 1 and rt.shape[0] == 0:
        return empty(cx, [0], A.i64)   # ATen's: none in the sum mode without padding
    init = filled(cx, [n], A.i64, 0)

    def body(b, args):
        p = ScalarBuilder(b, cx.loc)
        j, k = b.index(0), b.index(1)
        start = p.cast(args[0], A.index)
        ok = p.and_(p.and_(p.cmp("ge", k, p.index(1)), p.cmp("lt", k, Ix(p).v(bags))),
                    p.cmp("le", start, j))
        return p.select(ok, p.add(args[1], p.const(1, A.i64)), args[1])
    return make_generic(cx.b, [offsets], [init],
                        generic_maps([map_text(2, [1]), map_text(2, [0])]),
                        ["parallel", "reduction"], body, [init.type],
                        loc=cx.loc).results[0]


def _as_vectors(cx, build):
    """`build(sub)` on a context whose 0-d tensor operands are 1-element vectors (ATen
    reads a 0-d tensor as one of shape [1] in gather and index_select), its result
    reshaped to the result type."""
    from ..onnx_to_linalg._shape_util import expand
    from . import TorchLowering
    ops = [expand(cx, v, [], [1]) if isinstance(getattr(v, "type", None), A.RankedTensorType)
           and v.type.rank == 0 else v for v in cx.operands]
    if all(a is b for a, b in zip(ops, cx.operands)):
        return build(cx, True)
    y = build(TorchLowering(cx.op, ops, cx.b, cx.tc), False)
    want = list(cx.result_type().shape)
    if DYN not in want and DYN not in y.type.shape and \
            math.prod(want) != math.prod(y.type.shape):
        raise NotLowerable(f"the result typed {cx.result_type()} cannot hold the "
                           f"{math.prod(y.type.shape)} elements gathered")
    return finish(cx, reshape_to(cx, y, want))


@lowering("aten.index_select")
def _index_select(cx):
    """index_select(x, dim, index): gather along dim of the 0-d or 1-d index."""
    r = ranked(cx, cx.operands[0].type).rank
    d = _axis(cx.int_(1, "dim"), r)
    if ranked(cx, cx.operands[2].type).rank > 1:
        raise NotLowerable("index_select takes a 0-d or 1-d index")
    return [_as_vectors(cx, lambda sub, typed: gather(sub, d, 0, 2, typed, negative=False))]


@lowering("aten.gather")
def _gather(cx):
    """gather(x, dim, index): x[..., index[i, j], ...] along dim."""
    r = ranked(cx, cx.operands[0].type).rank
    d = _axis(cx.int_(1, "dim"), r)
    return [_as_vectors(cx, lambda sub, typed: gather_elements(sub, d, 0, 2, typed,
                                                               negative=False))]


@lowering("aten.constant_pad_nd")
def _constant_pad(cx):
    """constant_pad_nd(x, pad, value): pad = (last dim's low, high, the one before's
    ...), negative values crop."""
    from ..onnx_to_linalg._linalg_util import pad
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    p = cx.ints(1, "pad")
    if len(p) % 2 or len(p) // 2 > r:
        raise NotLowerable(f"padding of {len(p)} values for a rank-{r} tensor")
    low, high = [0] * r, [0] * r
    for k in range(len(p) // 2):
        low[r - 1 - k], high[r - 1 - k] = p[2 * k], p[2 * k + 1]
    if any(v < 0 for v in low + high):
        dims = sizes(cx, x)
        ix = Ix(scalars(cx))
        offs = [max(-v, 0) for v in low]
        part = [ix.add(d, min(lo, 0) + min(hi, 0)) for d, lo, hi in zip(dims, low, high)]
        x = extract_slice(cx, x, offs, part)
        low, high = [max(v, 0) for v in low], [max(v, 0) for v in high]
    elt = x.type.element_type
    value = cx.scalar(2, elt) if len(cx.op.operands) > 2 else scalars(cx).zero(elt)
    return [finish(cx, pad(cx, x, low, high, value))]


@lowering("aten._assert_tensor_metadata")
def _no_op(cx):
    """Checks of metadata the types already prove (dtype, sizes): nothing to compute."""
    return []


# [Note: torch.export's run-time assertions]
# What torch.export cannot prove about a value known at run time only (an unbacked
# symbol from `.item()`, `nonzero`'s count...) it asserts in the graph: `u0 >= 0` for a
# size, `u0 < 5` for a `select`'s index, the user's `torch._check(...)`:
#     %ge = torch.aten.ge.int %u0, %int0 : !torch.int, !torch.int -> !torch.bool
#     torch.aten._assert_scalar %ge, "Runtime assertion failed for expression u0 >= 0 ..."
# Each becomes a cf.assert of the flag with torch's message (eager raises it as a
# RuntimeError); sym_constrain_range(_for_size) check their bounds and _assert_async
# its tensor's truth. A flag constant at compile time costs nothing (or, false, is a
# check that always fails: the program asserts something false).


@lowering("aten._assert_scalar")
def _assert_scalar(cx):
    v = cx.arg(0)
    flag = cx.scalar(0, A.i1) if v is DYNAMIC_ARG else bool(v)
    assert_ok(cx, flag, str(cx.arg(1)) if len(cx.op.operands) > 1 else
              "run-time assertion failed")
    return []


@lowering("aten._assert_async.msg", "aten._assert_async")
def _assert_async(cx):
    x = cx.operands[0]
    if not isinstance(x.type, A.RankedTensorType) or x.type.rank != 0:
        raise NotLowerable("_assert_async of a tensor that is not 0-d")
    s = scalars(cx)
    v = s.op1("tensor.extract", [x], x.type.element_type)
    msg = str(cx.arg(1)) if len(cx.op.operands) > 1 else "assertion failed (_assert_async)"
    assert_ok(cx, s.cmp("ne", v, s.zero(x.type.element_type)), msg)
    return []


@lowering("aten.sym_constrain_range_for_size", "aten.sym_constrain_range")
def _constrain_range(cx):
    s = scalars(cx)
    v = cx.arg(0)
    lo = cx.arg(1) if len(cx.op.operands) > 1 else None
    hi = cx.arg(2) if len(cx.op.operands) > 2 else None
    if lo is None and cx.aten == "aten.sym_constrain_range_for_size":
        lo = 0
    for bound, pred, rel in ((lo, "ge", ">="), (hi, "le", "<=")):
        if not isinstance(bound, int) or isinstance(bound, bool):
            continue
        if v is DYNAMIC_ARG:
            flag = s.cmp(pred, cx.scalar(0, A.i64), s.const(bound, A.i64))
        else:
            flag = (v >= bound) if pred == "ge" else (v <= bound)
        assert_ok(cx, flag, f"the value must be {rel} {bound} ({cx.aten.partition('.')[2]})")
    return []


class _Indexing:
    """Advanced indexing x[i0, :, i2] as index.Tensor and index_put read it: the
    indexed dims (`axes`) and their index tensors (converted, `tensors`; torch-level,
    `origs`), the broadcast shape of the indices (`bshape`, static), the result's
    sizes (`out`: the broadcast dims stand where the indexed dims were when those are
    consecutive, else first, NumPy's rule), where each other dim of x lands in the
    result (`where`), where the broadcast dims start (`start`), and the flag that every
    index is in range (`ok`: checked at run time, see [Note: index checks])."""

    __slots__ = ("axes", "tensors", "origs", "signs", "dims", "bshape", "out", "where",
                 "start", "ok")

    def __init__(self, cx, x, list_value):
        from ..onnx_to_linalg._index_check import range_text, values_in_ranges
        from ..onnx_to_linalg.common import broadcast_operands, broadcast_shapes
        r = x.type.rank
        lst = list_value.defining_op
        if lst is None or lst.name != "torch.prim.ListConstruct":
            raise NotLowerable("the indices must be a list built in the function")
        items = list(lst.operands)
        if len(items) > r:
            raise NotLowerable(f"{len(items)} indices for a rank-{r} tensor")
        self.axes, self.tensors, self.origs = [], [], []
        d = 0
        for v in items:
            op = v.defining_op
            if op is not None and op.name == "torch.constant.none":
                d += 1
                continue
            t = cx.remapped(v)
            if not isinstance(t.type, A.RankedTensorType) or \
                    not isinstance(t.type.element_type, A.IntegerType):
                raise NotLowerable("index tensors must be integer or bool tensors")
            if t.type.element_type.width == 1:   # [Note: bool masks as indices]
                for j, col in enumerate(_mask_coordinates(cx, x, t, d)):
                    self.axes.append(d + j)
                    self.tensors.append(col)
                    self.origs.append(None)
                d += t.type.rank
                continue
            self.axes.append(d)
            self.tensors.append(t)
            self.origs.append(v)
            d += 1
        if d > r:
            raise NotLowerable(f"indices for {d} dims of a rank-{r} tensor")
        self.signs = [v is None or _signed_indices(v) for v in self.origs]
        self.dims = dims = sizes(cx, x)
        if not self.axes:
            self.bshape, self.out, self.start, self.ok = [], list(dims), 0, True
            self.where = {d: d for d in range(r)}
            return
        origs = list(self.tensors)
        bshape = self.bshape = broadcast_shapes([t.type.shape for t in self.tensors])
        # Dynamic dims of the indices broadcast as an elementwise op's operands do
        # ([Note: broadcasting dynamic dims]): checked where they may disagree, stretched
        # where one may be 1 at run time; after that a static 1 is read at 0 and every
        # dynamic dim runs along the result (`index_maps`). HF's causal mask indexes
        # the padding mask by arange(batch)[:, None, None, None] and arange(seq)[None,
        # None, None, :] of the symbolic sizes.
        self.tensors, bsizes = broadcast_operands(cx, self.tensors, bshape)
        nb = len(bshape)
        axes = self.axes
        if axes == list(range(axes[0], axes[0] + len(axes))):
            start = axes[0]
            self.out = dims[:start] + list(bsizes) + dims[axes[-1] + 1:]
            self.where = {d: d for d in range(start)}
            self.where.update({d: start + nb + k for k, d in enumerate(range(axes[-1] + 1,
                                                                            r))})
        else:
            start = 0
            rest = [d for d in range(r) if d not in axes]
            self.out = list(bsizes) + [dims[d] for d in rest]
            self.where = {d: nb + k for k, d in enumerate(rest)}
        self.start = start
        ok = True
        for t, v, d, e in zip(origs, self.origs, axes, self.signs):
            n = dims[d]
            lo = Ix(scalars(cx)).sub(0, n) if e else 0
            (flag,) = values_in_ranges(cx, t, [(lo, n)], e, v)
            assert_ok(cx, flag, f"index out of range {range_text(lo, n)} on dim {d}")
            ok = flag if ok is True else (ok if flag is True else scalars(cx).and_(ok, flag))
        self.ok = ok

    def index_maps(self, rank):
        """The maps reading each index tensor (broadcast) from a `rank`-d iteration over
        the result."""
        from ...ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
        nb = len(self.bshape)
        maps = []
        for t in self.tensors:
            off = self.start + nb - t.type.rank
            maps.append(AffineMap(rank, 0, tuple(
                AffineConstantExpr(0) if sz == 1 and self.bshape[nb - t.type.rank + j] != 1
                else AffineDimExpr(off + j) for j, sz in enumerate(t.type.shape))))
        return maps

    def source(self, s, idx, index_values, hi=None):
        """The position in x read (or written) by result position `idx`, given the
        index tensors' elements there (`index_values`); clamped by `hi` (of
        clamp_bounds) where given."""
        from ..onnx_to_linalg._shape_util import index_of
        from ..onnx_to_linalg.gather_scatter import _clamp, _wrap
        at = []
        for d in range(len(self.dims)):
            if d in self.axes:
                k = self.axes.index(d)
                i = _wrap(s, index_of(s, index_values[k], self.signs[k]), self.dims[d],
                          self.signs[k])
                at.append(_clamp(s, i, hi, d) if hi is not None else i)
            else:
                at.append(idx[self.where[d]])
        return at


# [Note: bool masks as indices]
# x[mask] (and x[mask] = v, index_put) with a bool mask over k dims of x is x indexed
# by the k coordinate columns of mask.nonzero(), as ATen computes it (its index op
# expands a bool index the same way): the result's size along them is the number of
# true elements, known at run time only (torch.export names it by an unbacked symbol,
# u0). The mask's static dims must be x's there; dynamic ones are checked at run time.


def _mask_coordinates(cx, x, mask, d):
    """The coordinates (one (N,) i64 column per dim) of the true elements of bool
    `mask`, indexing x's dims d, d+1, ..."""
    from ..onnx_to_linalg._shape_util import collapse
    k, r = mask.type.rank, x.type.rank
    if k == 0:
        raise NotLowerable("a 0-d bool index (x[True]) is not lowered")
    if d + k > r:
        raise NotLowerable(f"a {k}-d bool mask at dim {d} of a rank-{r} tensor")
    xs = sizes(cx, x)
    for j, (m, n) in enumerate(zip(mask.type.shape, x.type.shape[d:d + k])):
        if m != DYN and n != DYN and m != n:
            raise NotLowerable(f"the mask's shape {list(mask.type.shape)} does not match "
                               f"the indexed tensor's dims {list(x.type.shape[d:d + k])} "
                               f"(at mask dim {j})")
    ms = sizes(cx, mask)
    for j in range(k):
        if mask.type.shape[j] == DYN or x.type.shape[d + j] == DYN:
            s = scalars(cx)
            assert_ok(cx, s.cmp("eq", Ix(s).v(ms[j]), Ix(s).v(xs[d + j])),
                      f"the bool mask's dim {j} does not match the indexed dim {d + j}")
    coords = nonzero(cx, mask, per_row=False, typed=False)      # (k, N)
    n = sizes(cx, coords)[1]
    return [collapse(cx, extract_slice(cx, coords, [j, 0], [1, n]), [[0, 1]])
            for j in range(k)]


@lowering("aten.index.Tensor", "aten.index.Tensor_hacked_twin", "aten._unsafe_index.Tensor")
def _index(cx):
    """x[i0, :, i2] (advanced indexing, see _Indexing): a gathering generic, each index
    checked in [-n, n) of its dim, negative ones counting from the end."""
    from ..onnx_to_linalg.gather_scatter import _gather_generic
    x = cx.operands[0]
    ranked(cx, x.type)
    ix_ = _Indexing(cx, x, cx.op.operands[1])
    if not ix_.axes:
        return [x]
    elt = x.type.element_type
    out, _ = result_sizes(cx, ix_.out, what="the indexed sizes")

    def body(s, idx, args, hi):
        return s.op1("tensor.extract", [x, *ix_.source(s, idx, args, hi)], elt)
    return [finish(cx, _gather_generic(cx, ix_.dims, [] if ix_.ok is True else ix_.axes,
                                       ix_.tensors, ix_.index_maps(len(out)), out, elt,
                                       body))]


@lowering("aten.index_put", "aten._index_put_impl", "aten.index_put.hacked_twin")
def _index_put(cx):
    """index_put(x, indices, values, accumulate): x with x[indices] = values (values
    broadcast to the indexed shape; added with accumulate), in index order (scf loops,
    as a scatter: nothing written unless every index is in range)."""
    from ..onnx_to_linalg._index_check import guarded
    from ..onnx_to_linalg._shape_util import loop_nest
    x = cx.operands[0]
    ranked(cx, x.type)
    values = cx.operands[2]
    vt = ranked(cx, values.type, "values")
    accumulate = cx.bool_(3, "accumulate") if len(cx.op.operands) > 3 else False
    elt = x.type.element_type
    if vt.element_type is not elt:
        signed = _signed_indices(cx.op.operands[2])
        values = elementwise(cx, [values], elt, lambda s, v: s.cast(v, elt, signed))
    mask = _mask_index(cx, x, cx.op.operands[1])
    if mask is not None:
        return [finish(cx, _index_put_mask(cx, x, *mask, values, accumulate))]
    ix_ = _Indexing(cx, x, cx.op.operands[1])
    out = ix_.out
    rank = len(out)
    if vt.rank > rank:
        raise NotLowerable(f"values of rank {vt.rank} for an indexed shape of rank {rank}")
    vdims = sizes(cx, values)
    pairs = []
    for j, d in enumerate(vdims):
        o = out[rank - vt.rank + j]
        if not (Ix.known(d) and d == 1):
            pairs.append((d, o, "eq", f"values dim {j} must be 1 or the indexed size"))
    flags = check_dims(cx, pairs) if pairs else []
    ok = all_of(cx, [ix_.ok, *flags])

    def body(s, ivs, accs):
        acc = accs[0]
        index_values = []
        for t in ix_.tensors:
            nb = len(ix_.bshape)
            at = [s.index(0) if sz == 1 and ix_.bshape[nb - t.type.rank + j] != 1 else
                  ivs[ix_.start + nb - t.type.rank + j] for j, sz in enumerate(t.type.shape)]
            index_values.append(s.op1("tensor.extract", [t, *at], t.type.element_type))
        pos = ix_.source(s, ivs, index_values)
        vat = [s.index(0) if (Ix.known(d) and d == 1) else ivs[rank - vt.rank + j]
               for j, d in enumerate(vdims)]
        v = s.op1("tensor.extract", [values, *vat], elt)
        if accumulate:
            old = s.op1("tensor.extract", [acc, *pos], elt)
            v = s.or_(old, v) if elt is A.i1 else s.add(old, v)
        return [s.op1("tensor.insert", [v, acc, *pos], acc.type)]
    return [finish(cx, loop_nest(cx, guarded(cx, out, ok), [x], body)[0])]


def _mask_index(cx, x, list_value):
    """(mask, first dim) when the indices are Nones then one bool tensor (a mask over
    dims first .. first + mask rank of x), else None."""
    lst = list_value.defining_op
    if lst is None or lst.name != "torch.prim.ListConstruct":
        return None
    items = [v for v in lst.operands if v.defining_op is None or
             v.defining_op.name != "torch.constant.none"]
    if len(items) != 1:
        return None
    m = cx.remapped(items[0])
    if not isinstance(m.type, A.RankedTensorType) or m.type.element_type is not A.i1:
        return None
    first = list(lst.operands).index(items[0])
    if first + m.type.rank > x.type.rank:
        raise NotLowerable(f"a rank-{m.type.rank} mask from dim {first} of a "
                           f"rank-{x.type.rank} tensor")
    dims = sizes(cx, x)
    check_dims(cx, [(a, b, "eq", f"mask dim {j} must be the indexed dim's size")
                    for j, (a, b) in enumerate(zip(sizes(cx, m), dims[first:]))])
    return m, first


def _index_put_mask(cx, x, mask, first, values, accumulate):
    """index_put by a bool mask over dims [first, first + k) of x: the indexed shape is
    x's dims before first, the count K of true elements, then x's dims after the mask;
    values broadcast to it. Values without a K dim of their own (a K dim of static size
    1, or a rank below the dims after the mask) are the same for every true position:
    an elementwise select. Values with it (mask from dim 0: [K, rest...] exactly) are
    taken in row-major order of the true positions: masked_scatter, which checks that
    K is the count."""
    from ..onnx_to_linalg._linalg_util import filled, map_text
    r, k, vr = x.type.rank, mask.type.rank, values.type.rank
    if k == 0:
        raise NotLowerable("index_put by a 0-d mask")
    rest = r - first - k
    ir = first + 1 + rest                      # the indexed shape's rank
    if vr > ir:
        raise NotLowerable(f"values of rank {vr} for an indexed shape of rank {ir}")
    elt = x.type.element_type
    dims, vdims = sizes(cx, x), sizes(cx, values)
    q0 = ir - vr                               # the indexed dim values' dim 0 stands for
    own_k = first >= q0 and not (Ix.known(vdims[first - q0]) and vdims[first - q0] == 1)
    if own_k:
        if first != 0 or vr != ir:
            raise NotLowerable("values with a dim per true mask element are lowered for "
                               "a mask from dim 0 and values of the indexed rank")
        check_dims(cx, [(vdims[1 + j], dims[k + j], "eq",
                         f"values dim {1 + j} must be the indexed size")
                        for j in range(rest)])
        m = reshape_to(cx, mask, sizes(cx, mask) + [1] * rest) if rest else mask
        base = x if not accumulate else filled(cx, dims, elt, 0)
        put = masked_scatter(cx, base, m, values, exact=True)
        if not accumulate:
            return put
        return elementwise(cx, [x, put], elt, lambda s, a, b: s.or_(a, b) if elt is A.i1
                           else s.add(a, b))
    vmap, pairs = [], []
    for j, d in enumerate(vdims):
        q = q0 + j
        if Ix.known(d) and d == 1:
            vmap.append("0")
            continue
        xd = q if q < first else q - 1 + k
        vmap.append(xd)
        pairs.append((d, dims[xd], "eq", f"values dim {j} must be 1 or the indexed size"))
    check_dims(cx, pairs)

    def body(s, a, m, v):
        if accumulate:
            v = s.or_(a, v) if elt is A.i1 else s.add(a, v)
        return s.select(m, v, a)
    return elementwise(cx, [x, mask, values], elt, body,
                       maps=[map_text(r, list(range(r))),
                             map_text(r, list(range(first, first + k))),
                             map_text(r, vmap)],
                       result_sizes=dims)


@lowering("aten.masked_scatter")
def _masked_scatter(cx):
    """masked_scatter(x, mask, source): x and mask broadcast together, then where the
    mask holds, in row-major order, the next element of source (flattened) replaces x's;
    one scf.for nest carrying the result and the count taken. Source must hold as many
    elements as the mask has true ones (checked after the loop, as eager checks before;
    reads stay in bounds whatever the count: source gets one padding element)."""
    x, mask, src = cx.operands[0], cx.operands[1], cx.operands[2]
    elt = x.type.element_type
    if ranked(cx, src.type, "source").element_type is not elt:
        raise NotLowerable(f"source of {src.type.element_type}, self of {elt}")
    return [finish(cx, masked_scatter(cx, x, mask, src))]


def masked_scatter(cx, x, mask, src, exact=False):
    """x where the mask (broadcast with x) is false; the next element of src, in
    row-major order, where it is true. `exact`: src must hold as many elements as the
    mask has true ones (index_put by a mask), else at least as many."""
    from ..onnx_to_linalg._linalg_util import filled
    from ..onnx_to_linalg._shape_util import collapse, insert_slice, loop_nest
    elt = x.type.element_type
    bx = elementwise(cx, [x, mask], elt, lambda s, a, m: a)
    bm = elementwise(cx, [mask, x], A.i1, lambda s, m, a: s.cast(m, A.i1))
    ix = Ix(scalars(cx))
    r = src.type.rank
    flat = src if r == 1 else (collapse(cx, src, [list(range(r))]) if r else
                               reshape_to(cx, src, [1]))
    n = _product(ix, sizes(cx, src))
    padded = insert_slice(cx, flat, filled(cx, [ix.add(n, 1)], elt, 0), [0])
    n_v = ix.v(n)

    def body(s, ivs, accs):
        out, k = accs
        m = s.op1("tensor.extract", [bm, *ivs], A.i1)
        v = s.op1("tensor.extract", [padded, s.min(k, n_v)], elt)
        old = s.op1("tensor.extract", [out, *ivs], elt)
        out = s.op1("tensor.insert", [s.select(m, v, old), out, *ivs], out.type)
        return [out, s.add(k, s.select(m, s.index(1), s.index(0)))]
    out, taken = loop_nest(cx, sizes(cx, bx), [bx, scalars(cx).index(0)], body)
    if exact:
        check_dims(cx, [(taken, n, "eq", "values must have one row per true element "
                         "of the mask")])
    else:
        check_dims(cx, [(taken, n, "le", "mask has more true elements than source has "
                         "elements")])
    return out


def _signed_indices(v) -> bool:
    """Whether torch-level tensor Value `v` holds signed integers."""
    from .types import signed_tensor_type
    e = signed_tensor_type(v.type)
    e = e.element_type if isinstance(e, A.ShapedType) else e
    return not (type(e) is A.IntegerType and e.signedness == A.IntegerType.UNSIGNED)


_SCATTER_REDUCE = {"sum": "add", "prod": "mul", "amax": "max", "amin": "min",
                   "mean": "add"}


@lowering("aten.scatter.src", "aten.scatter.value", "aten.scatter_add",
          "aten.scatter.reduce", "aten.scatter_reduce.two")
def _scatter(cx):
    """scatter(x, dim, index, src or value[, reduce]): x with x[..., index[i, j], ...] =
    src[i, j] along dim (combined by add / multiply / max / min for scatter_add,
    scatter.reduce and scatter_reduce), in index order; the indices checked in range.
    See [Note: scatter_reduce] for include_self=False and "mean"."""
    from ..onnx_to_linalg._linalg_util import filled
    from ..onnx_to_linalg.gather_scatter import _REDUCE, scatter_elements
    from . import TorchLowering
    r = ranked(cx, cx.operands[0].type).rank
    d = _axis(cx.int_(1, "dim"), r)
    name = cx.aten
    combine, how, include_self = None, None, True
    if name == "aten.scatter_add":
        combine = _REDUCE["add"]
    elif name == "aten.scatter.reduce":
        red = {"add": "add", "multiply": "mul"}.get(cx.arg(4))
        if red is None:
            raise NotLowerable(f"scatter reduce {cx.arg(4)!r}")
        combine = _REDUCE[red]
    elif name == "aten.scatter_reduce.two":
        how = cx.arg(4)
        if how not in _SCATTER_REDUCE:
            raise NotLowerable(f"scatter_reduce {how!r} is not lowered")
        if len(cx.op.operands) > 5:
            include_self = cx.bool_(5, "include_self")
        combine = _REDUCE[_SCATTER_REDUCE[how]]
    operands = list(cx.operands)
    elt = cx.operands[0].type.element_type
    ind = cx.operands[2]
    if name == "aten.scatter.value":
        operands[3] = filled(cx, sizes(cx, ind), elt, cx.scalar(3, elt))
    elif operands[3].type.element_type is not elt:
        operands[3] = elementwise(cx, [operands[3]], elt, lambda s, v: s.cast(v, elt))

    def scatter(data, src, combine):
        sub = TorchLowering(cx.op, [data, operands[1], ind, src, *operands[4:]], cx.b,
                            cx.tc)
        return scatter_elements(sub, d, combine, 0, 2, 3, fit="le", negative=False)
    signed = _signed_indices(cx.op.operands[0])
    if not include_self:
        operands[0] = scatter(operands[0], _reduce_identity(cx, how, elt, ind, signed),
                              None)
    out = scatter(operands[0], operands[3], combine)
    if how != "mean":
        return [out]
    ones = filled(cx, sizes(cx, ind), elt, 1)
    counts = scatter(filled(cx, sizes(cx, operands[0]), elt, 1 if include_self else 0),
                     ones, _REDUCE["add"])

    def mean(s, total, n):
        n = s.max(n, s.one(elt))  # a position nothing was scattered to keeps x
        if type(elt) is A.FloatType or not signed:
            return s.div(total, n, signed)
        return s.op1("arith.floordivsi", [total, n], elt)
    return [finish(cx, elementwise(cx, [out, counts], elt, mean))]


@lowering("aten.index_add", "aten.index_copy", "aten.index_fill.int_Scalar",
          "aten.index_fill.int_Tensor")
def _index_add(cx):
    """index_add(x, dim, index, source, alpha) / index_copy(x, dim, index, source) /
    index_fill(x, dim, index, value): the 1-d index spread over source's shape along dim
    (index_fill: a source of the value), then the one scatter builder (add / copy, in
    index order). Kept whole ([Note: ops Strata lowers whole]): the decompositions
    (index_put, index_copy) count negative indices from the end where index_add and
    index_copy refuse them ("index -1 is out of bounds for dimension 1"; index_fill
    takes [-n, n)), see [Note: negative indices]."""
    from ..onnx_to_linalg._shape_util import dims_map, index_generic
    from ..onnx_to_linalg.gather_scatter import _REDUCE, scatter_elements
    from ..onnx_to_linalg._linalg_util import filled
    from . import TorchLowering
    x, ind, src = cx.operands[0], cx.operands[2], cx.operands[3]
    r = ranked(cx, x.type).rank
    scalar = r == 0      # a 0-d self (dim 0 or -1): as a 1-d one of one element
    if scalar:
        x, r = reshape_to(cx, x, [1]), 1
        if isinstance(src.type, A.RankedTensorType) and src.type.rank == 0:
            src = reshape_to(cx, src, [1])
    d = _axis(cx.int_(1, "dim"), r)
    q = ranked(cx, ind.type).rank
    if q > 1:
        raise NotLowerable(f"{cx.aten} takes a 0-d or 1-d index")
    elt = x.type.element_type
    dims, idims = sizes(cx, x), sizes(cx, ind)
    count = idims[0] if q else 1
    fill = cx.aten.startswith("aten.index_fill")
    if fill:
        s = scalars(cx)
        if isinstance(src.type, A.ShapedType):
            if src.type.rank != 0:
                raise NotLowerable("index_fill's value must be a 0-d tensor")
            value = s.cast(s.op1("tensor.extract", [src], src.type.element_type), elt)
        else:
            value = cx.scalar(3, elt)
        src = filled(cx, dims[:d] + [count] + dims[d + 1:], elt, value)
    if ranked(cx, src.type).rank != r:
        raise NotLowerable("source and self ranks differ")
    if src.type.element_type is not elt:
        src = elementwise(cx, [src], elt, lambda sb, v: sb.cast(v, elt))
    combine = None
    if cx.aten == "aten.index_add":
        combine = _REDUCE["add"]
        if len(cx.op.operands) > 4 and cx.arg(4) != 1:
            alpha = cx.scalar(4, elt)
            src = elementwise(cx, [src], elt, lambda sb, v: sb.mul(v, alpha))
    sdims = sizes(cx, src)
    check_dims(cx, [(count, sdims[d], "eq", f"the index's length must be source's dim {d}")]
               + [(sdims[j], dims[j], "eq", f"source dim {j} must be self's dim {j}")
                  for j in range(r) if j != d])
    spread = index_generic(cx, [ind], [dims_map(r, [d] if q else [])], sdims,
                           ind.type.element_type, lambda sb, idx, args: args[0])
    sub = TorchLowering(cx.op, [x, cx.operands[1], spread, src], cx.b, cx.tc)
    y = scatter_elements(sub, d, combine, 0, 2, 3, fit="le", negative=fill, typed=False)
    return [finish(cx, reshape_to(cx, y, []) if scalar else y)]


@lowering("aten.repeat_interleave.Tensor")
def _repeat_interleave(cx):
    """repeat_interleave(repeats): i repeated repeats[i] times, i64 (what
    `x.repeat_interleave(r, dim)` decomposes to, then index_select by it). The count is
    known at run time only; ATen refuses a negative repeat ("repeats can not be
    negative", checked here as such, after which nothing is written) and an
    output_size that is not the count. Two sequential loops: each i with repeats[i] > 0
    marks where its run starts (marks[start] = i; a run of 0 marks nothing), then a
    running maximum over the marks fills each position with its run's i."""
    from ..onnx_to_linalg._index_check import values_in_ranges
    from ..onnx_to_linalg._linalg_util import filled
    from ..onnx_to_linalg._shape_util import loop_nest
    from ..onnx_to_linalg.common import empty
    r = cx.operands[0]
    if ranked(cx, r.type).rank != 1:
        raise NotLowerable("repeat_interleave's repeats must be 1-d")
    s = scalars(cx)
    ix = Ix(s)
    elt = r.type.element_type
    n = sizes(cx, r)[0]
    ok = values_in_ranges(cx, r, [(0, INT64_MAX)], True, cx.op.operands[0])[0]
    assert_ok(cx, ok, "repeats can not be negative")

    def count(b, ivs, accs):
        k = b.cast(b.op1("tensor.extract", [r, ivs[0]], elt), A.index)
        return [b.add(accs[0], b.max(k, b.index(0)))]
    total = loop_nest(cx, [n], [s.index(0)], count)[0]
    total = ix.select(ok, total, 0) if ok is not True else total
    if cx.has_operand(1):
        given = cx.arg(1)
        given = s.cast(cx.operands[1], A.index) if given is DYNAMIC_ARG else given
        assert_ok(cx, ix.cmp("eq", given, total), "output_size must be the sum of repeats")
    marks = filled(cx, [ix.add(total, 1)], A.i64, s.const(-1, A.i64))

    def mark(b, ivs, accs):
        m, start = accs
        i = ivs[0]
        k = b.max(b.cast(b.op1("tensor.extract", [r, i], elt), A.index), b.index(0))
        at = b.min(start, total_v)
        old = b.op1("tensor.extract", [m, at], A.i64)
        new = b.select(b.cmp("gt", k, b.index(0)), b.cast(i, A.i64), b.const(-1, A.i64))
        m = b.op1("tensor.insert", [b.max(old, new), m, at], m.type)
        return [m, b.add(start, k)]
    total_v = ix.v(total)
    marks = loop_nest(cx, [n], [marks, s.index(0)], mark)[0]

    def fill(b, ivs, accs):
        out, cur = accs
        cur = b.max(cur, b.op1("tensor.extract", [marks, ivs[0]], A.i64))
        return [b.op1("tensor.insert", [cur, out, ivs[0]], out.type), cur]
    out = loop_nest(cx, [total], [empty(cx, [total], A.i64), s.const(-1, A.i64)], fill)[0]
    return [finish(cx, out)]


@lowering("aten.bincount")
def _bincount(cx):
    """bincount(x, weights, minlength): counts (or summed weights) of each value of the
    1-d x, max(max(x) + 1, minlength) of them (known at run time only). ATen refuses a
    negative value ("bincount only supports 1-d non-negative integral inputs."), checked
    here as such, after which nothing is counted. One sequential loop adds into the
    result."""
    from ..onnx_to_linalg._index_check import _min_max, guarded
    from ..onnx_to_linalg._linalg_util import filled
    from ..onnx_to_linalg._shape_util import loop_nest
    x = cx.operands[0]
    if ranked(cx, x.type).rank != 1:
        raise NotLowerable("bincount only supports 1-d non-negative integral inputs.")
    s = scalars(cx)
    ix = Ix(s)
    elt = x.type.element_type
    n = sizes(cx, x)[0]
    minlength = cx.int_(2, "minlength") if cx.has_operand(2) else 0
    if minlength < 0:
        raise NotLowerable("minlength should be >= 0")
    out_elt = cx.result_type().element_type
    weights = cx.operands[1] if cx.has_operand(1) else None
    if Ix.known(n) and n == 0:
        size, ok = minlength, True
    else:
        (mn,), (mx,) = _min_max(cx, x, False, True)
        ok = s.cmp("ge", mn, s.zero(elt))   # (no element: the minimum is the highest)
        assert_ok(cx, ok, "bincount only supports 1-d non-negative integral inputs.")
        top = s.select(s.cmp("ge", mx, s.zero(elt)), s.cast(mx, A.index), s.index(-1))
        size = ix.select(ok, ix.max(ix.add(top, 1), minlength), minlength)
    out = filled(cx, [size], out_elt, s.zero(out_elt))
    if weights is not None and weights.type.element_type is not out_elt:
        weights = elementwise(cx, [weights], out_elt, lambda sb, v: sb.cast(v, out_elt))

    def add(b, ivs, accs):
        i = ivs[0]
        at = b.cast(b.op1("tensor.extract", [x, i], elt), A.index)
        one = b.op1("tensor.extract", [weights, i], out_elt) if weights is not None \
            else b.one(out_elt)
        old = b.op1("tensor.extract", [accs[0], at], out_elt)
        return [b.op1("tensor.insert", [b.add(old, one), accs[0], at], accs[0].type)]
    out = loop_nest(cx, guarded(cx, [n], ok), [out], add)[0]
    return [finish(cx, out)]


@lowering("aten.searchsorted.Tensor", "aten.bucketize.Tensor")
def _searchsorted(cx):
    """searchsorted(sorted_sequence, values, out_int32, right, side, sorter) /
    bucketize(values, boundaries, out_int32, right): per value, ATen's binary search
    over the last dim of the sequence (1-d, or the values' leading dims), unrolled in
    the payload of one parallel generic (bit_length(n) steps; 64 for a run-time n):
    left: `if (!(seq[mid] >= v)) lo = mid + 1 else hi = mid`, right: `!(seq[mid] > v)`,
    so NaNs land where ATen puts them. A sorter is gathered first, its indices checked
    in [0, n) as ATen checks them ("sorter index out of range")."""
    from ...ir.affine import AffineMap
    from ..onnx_to_linalg._shape_util import index_generic
    bucket = cx.aten == "aten.bucketize.Tensor"
    seq_i, v_i = (1, 0) if bucket else (0, 1)
    seq, v = cx.operands[seq_i], cx.operands[v_i]
    sr, vr = ranked(cx, seq.type).rank, ranked(cx, v.type).rank
    right = cx.bool_(3, "right", False) if cx.has_operand(3) else False
    if not bucket and cx.has_operand(4):
        side = cx.arg(4)
        if side not in ("left", "right"):
            raise NotLowerable(f"side {side!r}")
        right = right or side == "right"
    if sr == 0 or (bucket and sr != 1) or (sr > 1 and sr != vr):
        raise NotLowerable("the sequence must be 1-d, or have the values' leading dims")
    sdims, vdims = sizes(cx, seq), sizes(cx, v)
    if sr > 1:
        check_dims(cx, [(sdims[k], vdims[k], "eq", f"the sequence's dim {k} must be the "
                         f"values' dim {k}") for k in range(sr - 1)])
    if not bucket and cx.has_operand(5):
        from ..onnx_to_linalg.gather_scatter import gather_elements
        if ranked(cx, cx.operands[5].type).rank != sr:
            raise NotLowerable("the sorter must have the sequence's shape")
        seq = gather_elements(cx, sr - 1, 0, 5, typed=False, negative=False)
    if seq.type.element_type is not v.type.element_type:
        raise NotLowerable("the sequence and the values differ in element type")
    n = sdims[-1]
    steps = int(n).bit_length() if Ix.known(n) else 64
    n_v = Ix(scalars(cx)).v(n)
    elt = seq.type.element_type
    out_elt = cx.result_type().element_type

    def body(b, idx, args):
        val = args[0]
        lo, hi = b.index(0), n_v
        last = b.max(b.sub(n_v, b.index(1)), b.index(0))
        for _ in range(steps):
            active = b.cmp("lt", lo, hi)
            mid = b.op1("arith.shrui", [b.add(lo, hi), b.index(1)], A.index)
            at = b.min(mid, last)
            x = b.op1("tensor.extract", [seq, *(idx[:sr - 1] if sr > 1 else []), at], elt)
            stay = b.cmp("gt" if right else "ge", x, val)      # (seq[mid] > / >= v)
            go = b.and_(active, b.not_(stay))
            lo = b.select(go, b.add(mid, b.index(1)), lo)
            hi = b.select(b.and_(active, stay), mid, hi)
        return b.cast(lo, out_elt)
    vals = vdims if vr else []
    return [finish(cx, index_generic(cx, [v], [AffineMap.identity(vr)], vals, out_elt,
                                     body))]


@lowering("aten.max_unpool2d", "aten.max_unpool3d")
def _max_unpool(cx):
    """max_unpool{2,3}d(x, indices, output_size, ...): zeros of output_size per plane,
    each x written at its index in the flattened plane: the one scatter builder over
    (planes, plane elements). ATen refuses an index outside [0, plane size) ("Found an
    invalid max index"), checked here as such; the decomposition adds the plane's
    offset and writes into another plane instead, or wraps a negative index."""
    from ..onnx_to_linalg._linalg_util import filled
    from ..onnx_to_linalg._shape_util import collapse
    from ..onnx_to_linalg.gather_scatter import scatter_elements
    from . import TorchLowering
    x, ind = cx.operands[0], cx.operands[1]
    k = 2 if cx.aten == "aten.max_unpool2d" else 3
    r = ranked(cx, x.type).rank
    if r not in (k + 1, k + 2) or ranked(cx, ind.type).rank != r:
        raise NotLowerable(f"max_unpool{k}d of a rank-{r} input")
    osz = cx.sizes(2, "output_size")
    if len(osz) != k:
        raise NotLowerable(f"output_size of {len(osz)} values for max_unpool{k}d")
    ix = Ix(scalars(cx))
    lead = r - k
    groups = [list(range(lead)), list(range(lead, r))]
    xs, xi = collapse(cx, x, groups), collapse(cx, ind, groups)
    dims = sizes(cx, x)
    planes = _product(ix, dims[:lead])
    check_dims(cx, [(a, b, "eq", f"indices dim {j} must be the input's")
                    for j, (a, b) in enumerate(zip(sizes(cx, ind), dims))])
    elt = x.type.element_type
    out = filled(cx, [planes, _product(ix, osz)], elt, scalars(cx).zero(elt))
    sub = TorchLowering(cx.op, [out, xi, xs], cx.b, cx.tc)
    y = scatter_elements(sub, 1, None, 0, 1, 2, fit="eq", negative=False, typed=False)
    return [finish(cx, reshape_to(cx, y, dims[:lead] + list(osz)))]


def _reduce_identity(cx, how, elt, ind, signed):
    """A tensor of `ind`'s sizes holding the identity of scatter_reduce's `how`."""
    from ..onnx_to_linalg._linalg_util import filled
    s = scalars(cx)
    if how == "amax":
        value = s.lowest(elt) if signed or type(elt) is A.FloatType else s.zero(elt)
    elif how == "amin":
        value = s.highest(elt, signed)
    else:
        value = s.one(elt) if how == "prod" else s.zero(elt)
    return filled(cx, sizes(cx, ind), elt, value)


@lowering("aten.nonzero")
def _nonzero(cx):
    """nonzero(x): the (N, rank) i64 coordinates of x's nonzero elements, row-major; N
    known at run time only (one scf.for counts and records them)."""
    return [nonzero(cx, cx.operands[0], per_row=True)]


@lowering("aten.as_strided", "aten.as_strided_copy")
def _as_strided(cx):
    """as_strided(x, size, stride, storage_offset?): out[i] = x's elements in row-major
    order at storage_offset + sum(i_d * stride_d), x read as the contiguous tensor it is
    in value semantics (torch-mlir's reading; a view of a larger storage is a copy by
    then); the last position read checked within x (at compile time when the sizes are
    known, else a cf.assert, after which nothing is read)."""
    from ..onnx_to_linalg._index_check import when_ok
    from ..onnx_to_linalg._shape_util import collapse, dims_map, index_generic
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    _row_major_storage(cx.op.operands[0])
    size, stride = cx.ints(1, "size"), cx.ints(2, "stride")
    offset = cx.int_(3, "storage_offset") if cx.has_operand(3) else 0
    if len(size) != len(stride):
        raise NotLowerable(f"{len(size)} sizes and {len(stride)} strides")
    if any(v < 0 for v in size + stride) or offset < 0:
        raise NotLowerable("as_strided takes no negative size, stride or storage offset")
    ix = Ix(scalars(cx))
    flat = x if r == 1 else (collapse(cx, x, [list(range(r))]) if r else
                             reshape_to(cx, x, [1]))
    n = _product(ix, sizes(cx, x))
    if 0 in size:
        last_ok = True
    else:
        last = offset + sum((k - 1) * st for k, st in zip(size, stride))
        last_ok = check_dims(cx, [(last + 1, n, "le", "as_strided reads past the end of "
                                   "the input's storage")])[0]
    out = when_ok(cx, last_ok, size) if last_ok is not True else size
    elt = x.type.element_type

    def body(b, idx, args):
        pos = b.index(offset)
        for i, st in zip(idx, stride):
            pos = b.add(pos, b.mul(i, b.index(st)))
        return b.op1("tensor.extract", [flat, pos], elt)
    return [finish(cx, index_generic(cx, [], [], out, elt, body))]


@lowering("aten.as_strided_scatter")
def _as_strided_scatter(cx):
    """as_strided_scatter(x, src, size, stride, storage_offset?): x with the elements
    as_strided(x, size, stride, storage_offset) reads replaced by src's (AOTAutograd's
    backward writes a gradient into a strided view so), x read as the contiguous tensor
    it is in value semantics, as _as_strided does: a loop over src's positions
    writing x's storage at storage_offset + sum(i_d * stride_d), in row-major order
    (an element two positions alias gets the last one's, as eager's copy does); the
    last position checked within x and src's sizes equal to `size` (at compile time
    when known, else a cf.assert, after which nothing is written)."""
    from ..onnx_to_linalg._index_check import all_of, guarded
    from ..onnx_to_linalg._shape_util import collapse, loop_nest
    x, src = cx.operands[0], cx.operands[1]
    r = ranked(cx, x.type).rank
    _row_major_storage(cx.op.operands[0])
    size, stride = cx.ints(2, "size"), cx.ints(3, "stride")
    offset = cx.int_(4, "storage_offset") if cx.has_operand(4) else 0
    if len(size) != len(stride) or ranked(cx, src.type).rank != len(size):
        raise NotLowerable(f"{len(size)} sizes, {len(stride)} strides and a rank-"
                           f"{src.type.rank} src")
    if any(v < 0 for v in size + stride) or offset < 0:
        raise NotLowerable("as_strided_scatter takes no negative size, stride or "
                           "storage offset")
    ix = Ix(scalars(cx))
    dims = sizes(cx, x)
    flat = x if r == 1 else (collapse(cx, x, [list(range(r))]) if r else
                             reshape_to(cx, x, [1]))
    n = _product(ix, dims)
    checks = [(k, d, "eq", "as_strided_scatter: src's sizes differ from size")
              for k, d in zip(size, sizes(cx, src))]
    if 0 not in size:
        last = offset + sum((k - 1) * st for k, st in zip(size, stride))
        checks.append((last + 1, n, "le", "as_strided_scatter writes past the end of "
                       "the input's storage"))
    ok = all_of(cx, check_dims(cx, checks))
    elt = x.type.element_type

    def body(s, ivs, accs):
        ivs = ivs[:len(size)]          # (a 0-d view: one loop of one iteration)
        pos = s.index(offset)
        for i, st in zip(ivs, stride):
            pos = s.add(pos, s.mul(i, s.index(st)))
        v = s.op1("tensor.extract", [src, *ivs], elt)
        return [s.op1("tensor.insert", [v, accs[0], pos], accs[0].type)]
    out = loop_nest(cx, guarded(cx, size or [1], ok), [flat], body)[0]
    return [finish(cx, reshape_to(cx, out, dims))]


# views whose elements are their storage's in row-major order (when their input's are)
_ROW_MAJOR_VIEWS = ("aten.view", "aten._unsafe_view", "aten.reshape", "aten.unsqueeze",
                    "aten.squeeze", "aten.squeeze.dim", "aten.squeeze.dims", "aten.clone",
                    "aten.alias", "aten.detach", "aten.contiguous")
# views with strides of their own (their storage is their input's)
_STRIDED_VIEWS = ("aten.permute", "aten.transpose.int", "aten.t", "aten.numpy_T",
                  "aten.expand", "aten.slice.Tensor", "aten.select.int", "aten.diagonal",
                  "aten.as_strided", "aten.unfold", "aten.split.Tensor",
                  "aten.split_with_sizes", "aten.unbind.int", "aten.narrow", "aten.real",
                  "aten.imag", "aten.view_as_real")


def _row_major_storage(v):
    """Refuse torch-level Value `v` when eager's as_strided would read it through a
    strided view's storage (a permute, slice... of another tensor): in value semantics
    that storage is gone, and reading the view's own elements would be a wrong answer."""
    from . import aten_name
    for _ in range(64):
        op = v.defining_op
        if op is None or not op.operands:
            return
        name = aten_name(op)
        if name in _STRIDED_VIEWS:
            raise NotLowerable(f"as_strided of the view {name!r} reads its base's storage "
                               "(lowered only for tensors laid out in row-major order)")
        if name not in _ROW_MAJOR_VIEWS:
            return
        v = op.operands[0]


@lowering("aten.repeat")
def _repeat(cx):
    """repeat(x, repeats): x (with leading 1s to len(repeats) dims) broadcast to (r0, n0,
    r1, n1, ...), then reshaped to (r0 n0, r1 n1, ...)."""
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    reps = cx.sizes(1, "repeats")  # symbolic counts: instance norm's weight, N times
    if len(reps) < r:
        raise NotLowerable(f"{len(reps)} repeats for a rank-{r} tensor")
    if any(isinstance(k, int) and k < 0 for k in reps):
        raise NotLowerable(f"repeats {reps} has a negative value")
    dims = [1] * (len(reps) - r) + sizes(cx, x)
    ix = Ix(scalars(cx))
    lifted = reshape_to(cx, x, [v for d in dims for v in (1, d)])
    wide = broadcast_to(cx, lifted, [v for k, d in zip(reps, dims) for v in (k, d)])
    return [finish(cx, reshape_to(cx, wide, [ix.mul(k, d) for k, d in zip(reps, dims)]))]


@lowering("aten.flip")
def _flip(cx):
    """flip(x, dims): x read backwards along dims."""
    from ..onnx_to_linalg._shape_util import index_generic
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    flipped = {_axis(d, r) for d in cx.ints(1, "dims")} if r else set()
    dims = sizes(cx, x)
    elt = x.type.element_type

    def body(s, idx, args):
        ix = Ix(s)
        at = [ix.v(ix.sub(ix.sub(dims[d], 1), i)) if d in flipped else i
              for d, i in enumerate(idx)]
        return s.op1("tensor.extract", [x, *at], elt)
    return [finish(cx, index_generic(cx, [], [], dims, elt, body))]


@lowering("aten.diagonal", "aten.diagonal_copy")
def _diagonal(cx):
    """diagonal(x, offset, dim1, dim2): the other dims, then the diagonal x[.., i, ..,
    i + offset, ..] (a negative offset below it)."""
    from ..onnx_to_linalg._shape_util import index_generic
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    n = len(cx.op.operands)
    off = cx.int_(1, "offset") if n > 1 else 0
    d1 = _axis(cx.int_(2, "dim1"), r) if n > 2 else 0
    d2 = _axis(cx.int_(3, "dim2"), r) if n > 3 else 1
    if d1 == d2:
        raise NotLowerable("diagonal dimensions cannot be identical")
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    a, b = (dims[d1], ix.sub(dims[d2], off)) if off >= 0 else (ix.add(dims[d1], off),
                                                               dims[d2])
    length = ix.max(ix.min(a, b), 0)
    rest = [d for d in range(r) if d not in (d1, d2)]
    out = [dims[d] for d in rest] + [length]
    elt = x.type.element_type

    def body(s, idx, args):
        ix2 = Ix(s)
        i = idx[-1]
        at = [None] * r
        for k, d in enumerate(rest):
            at[d] = idx[k]
        at[d1] = i if off >= 0 else ix2.v(ix2.sub(i, off))
        at[d2] = ix2.v(ix2.add(i, off)) if off >= 0 else i
        return s.op1("tensor.extract", [x, *at], elt)
    return [finish(cx, index_generic(cx, [], [], out, elt, body))]


@lowering("aten.unfold", "aten.unfold_copy")
def _unfold(cx):
    """unfold(x, dimension, size, step) (Tensor.unfold: the sliding windows along one
    dim, a view in eager): x's dims with dims[d] -> (n - size) // step + 1 windows, and
    a last dim of `size`: out[.., w, .., k] = x[.., w * step + k, ..]. `size` <= n
    (ATen's rule) is checked, at run time for a dynamic dim (cf.assert, after which
    nothing is read); a rank-0 x is one window of size <= 1.

        %w = torch.aten.unfold %x, %int2, %int4, %int2 : !torch.vtensor<[2,3,8],f32>, ...
               -> !torch.vtensor<[2,3,3,4],f32>
    """
    from ..onnx_to_linalg._index_check import when_ok
    from ..onnx_to_linalg._shape_util import index_generic
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    size, step = cx.int_(2, "size"), cx.int_(3, "step")
    if size < 0:
        raise NotLowerable(f"unfold: size is {size}, must be non-negative")
    if step <= 0:
        raise NotLowerable(f"unfold: step is {step}, must be positive")
    elt = x.type.element_type
    if r == 0:
        if size > 1:
            raise NotLowerable(f"unfold: a 0-d tensor has windows of size <= 1, not {size}")
        from ..onnx_to_linalg.common import empty
        return [finish(cx, reshape_to(cx, x, [1]) if size else empty(cx, [0], elt))]
    d = _axis(cx.int_(1, "dimension"), r)
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    ok = check_dims(cx, [(size, dims[d], "le", f"unfold: size {size} exceeds the "
                          f"size of dimension {d}")])[0]
    count = ix.add(ix.floordiv(ix.sub(dims[d], size), step), 1)
    out = dims[:d] + [count] + dims[d + 1:] + [size]
    if ok is not True:
        out = when_ok(cx, ok, out)

    def body(s, idx, args):
        i2 = Ix(s)
        at = list(idx[:r])
        at[d] = i2.v(i2.add(i2.mul(idx[d], step), idx[r]))
        return s.op1("tensor.extract", [x, *at], elt)
    return [finish(cx, index_generic(cx, [], [], out, elt, body))]
