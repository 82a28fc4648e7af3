"""Interpreter implementations of the tensor dialect.

Tensors are values: an op that "modifies" a tensor (insert, insert_slice, scatter)
returns a new array and never writes into its operands. Out-of-bounds indices and
slices, and shape mismatches that MLIR leaves undefined, are reported.
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .values import dtype_of, scalar

DYN = A.DYNAMIC


def _mixed(interp, static, values):
    """Static integers with DYNAMIC entries taken from SSA `values` (Python ints)."""
    out, k = [], 0
    for s in static:
        if s == DYN:
            out.append(int(interp.env[values[k]]))
            k += 1
        else:
            out.append(int(s))
    return out


def _static(op, name):
    a = op.properties.get(name)
    return list(a.value) if a is not None else []


def slice_params(interp, op):
    """(offsets, sizes, strides) of an op with OffsetSizeAndStride operands, as ints."""
    return (_mixed(interp, _static(op, "static_offsets"), op.offsets),
            _mixed(interp, _static(op, "static_sizes"), op.sizes),
            _mixed(interp, _static(op, "static_strides"), op.strides))


def _slices(op, shape, offsets, sizes, strides):
    """Python slices selecting the strided box; an out-of-bounds box is an error."""
    out = []
    for d, (n, o, s, st) in enumerate(zip(shape, offsets, sizes, strides)):
        if s < 0 or o < 0 or st < 0 or (s > 0 and o + (s - 1) * st >= n) or (s == 0 and o > n):
            fail(op, f"slice along dimension {d} is out of bounds: offset {o}, size {s}, "
                     f"stride {st} in a dimension of size {n}")
        if s == 0:
            out.append(slice(o, o))
        elif st == 0:
            out.append(np.full(s, o))  # a zero stride repeats one element
        else:
            out.append(slice(o, o + (s - 1) * st + 1, st))
    if any(isinstance(x, np.ndarray) for x in out):
        return np.ix_(*[np.arange(n)[x] if isinstance(x, slice) else x
                        for n, x in zip(shape, out)])
    return tuple(out)


def _reduced_shape(op, sizes, t):
    """The shape of a (possibly rank-reduced) slice type `t` for the slice `sizes`:
    which unit dims are dropped is found by matching, keeping a dim where it can."""
    shape = t.shape

    def match(i, j):
        if i == len(sizes):
            return [] if j == len(shape) else None
        s = sizes[i]
        if j < len(shape) and shape[j] in (s, DYN):
            rest = match(i + 1, j + 1)
            if rest is not None:
                return [s] + rest
        return match(i + 1, j) if s == 1 else None

    out = match(0, 0)
    if out is None:
        fail(op, f"a slice of sizes {sizes} does not fit the result type '{t}'")
    return tuple(out)


@impl("tensor.empty")
def _empty(interp, op, args):
    t = op.results[0].type
    return [np.zeros(_shape_with(t, args), dtype_of(t))]


def _shape_with(t, dynamic):
    """The shape of ranked type `t` with its dynamic dims taken from `dynamic`."""
    it = iter(dynamic)
    shape = []
    for d in t.shape:
        v = int(next(it)) if d == DYN else d
        if v < 0:
            raise ValueError(f"negative dimension size {v}")
        shape.append(v)
    return tuple(shape)


def _check_indices(op, a, idx):
    for d, (i, n) in enumerate(zip(idx, a.shape)):
        lo, hi = (int(np.min(i)), int(np.max(i))) if np.ndim(i) else (int(i), int(i))
        if np.size(i) and (lo < 0 or hi >= n):
            bad = lo if lo < 0 else hi
            fail(op, f"index {bad} is out of bounds for dimension {d} of size {n}")


@impl("tensor.extract")
def _extract(interp, op, args):
    a, idx = args[0], args[1:]
    _check_indices(op, a, idx)
    return [scalar(a[tuple(idx)], op.results[0].type)]


@impl("tensor.insert")
def _insert(interp, op, args):
    v, dest, idx = args[0], args[1], args[2:]
    _check_indices(op, dest, idx)
    out = np.array(dest, copy=True)
    out[tuple(int(i) for i in idx)] = v
    return [out]


@impl("tensor.extract_slice")
def _extract_slice(interp, op, args):
    src = args[0]
    offsets, sizes, strides = slice_params(interp, op)
    part = src[_slices(op, src.shape, offsets, sizes, strides)]
    return [np.array(part.reshape(_reduced_shape(op, sizes, op.results[0].type)))]


def insert_slice_into(op, dest, source, offsets, sizes, strides):
    """Write `source` into the strided box of `dest` (in place)."""
    box = _slices(op, dest.shape, offsets, sizes, strides)
    dest[box] = np.reshape(source, sizes)


@impl("tensor.insert_slice")
def _insert_slice(interp, op, args):
    out = np.array(args[1], copy=True)
    insert_slice_into(op, out, args[0], *slice_params(interp, op))
    return [out]


@impl("tensor.parallel_insert_slice")
def _parallel_insert_slice(interp, op, args):
    fail(op, "runs only as part of its scf.forall")


@impl("tensor.cast")
def _cast(interp, op, args):
    t = op.results[0].type
    a = args[0]
    if isinstance(t, A.RankedTensorType):
        if a.ndim != t.rank or any(d != DYN and d != n for d, n in zip(t.shape, a.shape)):
            fail(op, f"value of shape {a.shape} does not fit the cast's result type '{t}'")
    return [a]


@impl("tensor.dim")
def _dim(interp, op, args):
    a, i = args[0], int(args[1])
    if not 0 <= i < a.ndim:
        fail(op, f"dimension index {i} is out of range for a tensor of rank {a.ndim}")
    return [np.int64(a.shape[i])]


@impl("tensor.rank")
def _rank(interp, op, args):
    return [np.int64(np.ndim(args[0]))]


@impl("tensor.from_elements")
def _from_elements(interp, op, args):
    t = op.results[0].type
    return [np.array(args, dtype=dtype_of(t)).reshape(t.shape)]


@impl("tensor.splat")
def _splat(interp, op, args):
    t = op.results[0].type
    return [np.full(_shape_with(t, args[1:]), args[0], dtype_of(t))]


@impl("tensor.concat")
def _concat(interp, op, args):
    return [np.concatenate(args, axis=op.properties["dim"].value)]


@impl("tensor.bitcast")
def _bitcast(interp, op, args):
    d = dtype_of(op.results[0].type)
    a = np.ascontiguousarray(args[0])  # (at least 1-d)
    if a.dtype == np.bool_ or d == np.bool_:
        return [a.astype(d).reshape(np.shape(args[0]))]
    return [a.view(d).reshape(np.shape(args[0]))]


# ---------------------------------------------------------------- reshapes


@impl("tensor.collapse_shape")
def _collapse_shape(interp, op, args):
    a = args[0]
    shape = [int(np.prod([a.shape[i] for i in g], dtype=np.int64))
             for g in _groups(op)]
    return [a.reshape(shape)]


@impl("tensor.expand_shape")
def _expand_shape(interp, op, args):
    a = args[0]
    shape = _mixed(interp, _static(op, "static_output_shape"), op.output_shape)
    for k, g in enumerate(_groups(op)):
        n = int(np.prod([shape[i] for i in g], dtype=np.int64))
        if n != a.shape[k]:
            fail(op, f"output_shape {shape} does not expand dimension {k} of size "
                     f"{a.shape[k]}")
    return [a.reshape(shape)]


def _groups(op):
    return [[int(i.value) for i in g] for g in op.properties["reassociation"].value]


@impl("tensor.reshape")
def _reshape(interp, op, args):
    a, shape = args
    shape = [int(s) for s in np.asarray(shape).reshape(-1)]
    if int(np.prod(shape, dtype=np.int64)) != a.size or any(s < 0 for s in shape):
        fail(op, f"cannot reshape {a.shape} ({a.size} elements) to {tuple(shape)}")
    return [a.reshape(shape)]


# ---------------------------------------------------------------- regions: generate, pad


def generate(interp, op, region, shape, dtype):
    """An array of `shape` whose element at each index is what `region` (with one index
    argument per dim) yields there: vectorized over all indices when possible."""
    if interp.vectorizable(region):
        grids = [np.int64(0) + g for g in np.ogrid[tuple(slice(0, n) for n in shape)]] \
            if shape else []
        v = interp.run_region_vectorized(region, grids)[0]
        return np.array(np.broadcast_to(np.asarray(v, dtype), shape))
    out = np.empty(shape, dtype)
    for idx in np.ndindex(*shape):
        out[idx] = interp.run_region(region, [np.int64(i) for i in idx])[0]
    return out


@impl("tensor.generate")
def _generate(interp, op, args):
    t = op.results[0].type
    return [generate(interp, op, op.regions[0], _shape_with(t, args), dtype_of(t))]


@impl("tensor.pad")
def _pad(interp, op, args):
    src = args[0]
    low = _mixed(interp, _static(op, "static_low"), op.low)
    high = _mixed(interp, _static(op, "static_high"), op.high)
    shape = tuple(n + lo + hi for n, lo, hi in zip(src.shape, low, high))
    if any(s < 0 for s in shape):
        fail(op, f"padding {low} / {high} gives a negative size")
    region = op.regions[0]
    out = generate(interp, op, region, shape, src.dtype)
    # Negative padding crops the source.
    src_box = tuple(slice(max(-lo, 0), n - max(-hi, 0))
                    for n, lo, hi in zip(src.shape, low, high))
    dst_box = tuple(slice(max(lo, 0), max(lo, 0) + max(n - max(-lo, 0) - max(-hi, 0), 0))
                    for n, lo, hi in zip(src.shape, low, high))
    out[dst_box] = src[src_box]
    return [out]


# ---------------------------------------------------------------- gather, scatter


def _gather_index(op, src_shape, indices, dims):
    """Advanced index for the source with `dims` moved first, and the batch shape."""
    idx = np.asarray(indices).astype(np.int64)
    batch = idx.shape[:-1]
    flat = idx.reshape(-1, idx.shape[-1])
    for j, d in enumerate(dims):
        col = flat[:, j]
        if col.size and (col.min() < 0 or col.max() >= src_shape[d]):
            bad = int(col.min()) if col.min() < 0 else int(col.max())
            fail(op, f"index {bad} is out of bounds for dimension {d} of size "
                     f"{src_shape[d]}")
    return tuple(flat[:, j] for j in range(len(dims))), batch


def _moved(shape, dims):
    rest = [d for d in range(len(shape)) if d not in dims]
    return list(dims) + rest, rest


@impl("tensor.gather")
def _gather(interp, op, args):
    src, indices = args
    dims = list(op.properties["gather_dims"].value)
    index, batch = _gather_index(op, src.shape, indices, dims)
    order, rest = _moved(src.shape, dims)
    g = np.transpose(src, order)[index]  # (B, *rest)
    return [np.array(g.reshape(_gather_shape(src.shape, batch, dims, rest,
                                             op.results[0].type)))]


def _gather_shape(src_shape, batch, dims, rest, t):
    full = tuple(batch) + tuple(1 if d in dims else src_shape[d] for d in range(len(src_shape)))
    reduced = tuple(batch) + tuple(src_shape[d] for d in rest)
    return full if len(full) == t.rank else reduced


@impl("tensor.scatter")
def _scatter(interp, op, args):
    src, dest, indices = args
    dims = list(op.properties["scatter_dims"].value)
    index, batch = _gather_index(op, dest.shape, indices, dims)
    order, rest = _moved(dest.shape, dims)
    out = np.array(dest, copy=True)
    view = np.transpose(out, order)  # a view: writes land in `out`
    view[index] = np.reshape(src, (-1,) + tuple(dest.shape[d] for d in rest))
    return [out]
