"""Interpreter implementations of the vector dialect.

A `vector<4x8xf32>` value is a NumPy array of shape (4, 8). Every implementation also
takes values with leading batch dims (shape (n, 4, 8)): inside a GPU kernel a vector
that differs between threads carries one vector per thread in front ([Note: SIMT
interpretation] in ops_gpu.py), so the ops index and reduce from the trailing dims.

    %v = vector.transfer_read %buf[%i, %j], %pad : memref<?x?xf32>, vector<4xf32>

reads buf[i, j:j+4] and pads the elements past the buffer's end with %pad (an
in_bounds dim that is out of bounds is undefined behaviour: reported). Masks (vector of
i1) select elements as upstream says: masked-off elements of a load are the pass-through
/ padding value, of a store are not written.
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .ops_memref import check_buffers
from .values import dtype_of, int_width, to_unsigned, wrap


def _rank(t):
    return len(t.shape) if type(t) is A.VectorType else 0


def _batch(x, t):
    """The leading (per-thread) dims of value `x` of type `t`."""
    return np.shape(x)[:np.ndim(x) - _rank(t)]


def _ints(xs):
    return [int(x) for x in xs]


def _elementwise_index(op, mem, base, vshape, write):
    """Element indices of a contiguous vector access at `base` (vector dims along the
    trailing memref dims), bounds-checked."""
    if len(base) != mem.ndim:
        fail(op, f"{len(base)} indices for a buffer of rank {mem.ndim}")
    r = len(vshape)
    idx = []
    lead = mem.ndim - r
    for d, b in enumerate(base):
        if d < lead:
            idx.append(b)
            if not 0 <= b < mem.shape[d]:
                fail(op, f"index {b} is out of bounds for dimension {d} of size "
                         f"{mem.shape[d]}")
        else:
            n = vshape[d - lead]
            if b < 0 or b + n > mem.shape[d]:
                fail(op, f"reads or writes [{b}, {b + n}) of dimension {d} of size "
                         f"{mem.shape[d]} (out of bounds)")
            idx.append(slice(b, b + n))
    return tuple(idx)


@impl("vector.load")
def _load(interp, op, args):
    mem = args[0]
    check_buffers(interp, op, [mem])
    rt = op.results[0].type
    if type(op._operands[0].value.type.element_type) is A.VectorType:
        fail(op, "memrefs of vectors are not supported by the interpreter")
    return [np.array(mem[_elementwise_index(op, mem, _ints(args[1:]), rt.shape, False)])]


@impl("vector.store")
def _store(interp, op, args):
    v, mem = args[0], args[1]
    check_buffers(interp, op, [mem], written=(0,))
    vt = op._operands[0].value.type
    mem[_elementwise_index(op, mem, _ints(args[2:]), vt.shape, True)] = v
    return []


def _masked_positions(op, mem, base, n):
    """The flat positions of a 1-D masked access along the last memref dim."""
    lead = tuple(base[:-1])
    for d, b in enumerate(lead):
        if not 0 <= b < mem.shape[d]:
            fail(op, f"index {b} is out of bounds for dimension {d} of size {mem.shape[d]}")
    return lead, base[-1] + np.arange(n)


@impl("vector.maskedload")
def _maskedload(interp, op, args):
    mem = args[0]
    check_buffers(interp, op, [mem])
    nidx = len(op.indices)
    base = _ints(args[1:1 + nidx])
    mask, passthru = np.asarray(args[1 + nidx], np.bool_), np.asarray(args[2 + nidx])
    rt = op.results[0].type
    if len(rt.shape) != 1:
        fail(op, "masked loads of vectors of rank > 1 are not supported by the interpreter")
    lead, pos = _masked_positions(op, mem, base, rt.shape[0])
    out = passthru.copy()
    ok = mask & (pos >= 0) & (pos < mem.shape[-1])
    if (mask & ~ok).any():
        fail(op, "a masked-on element is out of bounds")
    out[ok] = mem[lead + (pos[ok],)]
    return [out]


@impl("vector.maskedstore")
def _maskedstore(interp, op, args):
    mem = args[0]
    check_buffers(interp, op, [mem], written=(0,))
    nidx = len(op.indices)
    base = _ints(args[1:1 + nidx])
    mask, v = np.asarray(args[1 + nidx], np.bool_), np.asarray(args[2 + nidx])
    lead, pos = _masked_positions(op, mem, base, v.shape[0])
    ok = mask & (pos >= 0) & (pos < mem.shape[-1])
    if (mask & ~ok).any():
        fail(op, "a masked-on element is out of bounds")
    mem[lead + (pos[ok],)] = v[ok]
    return []


def _transfer_indices(op, src_shape, base, vshape, pmap, in_bounds):
    """For each element of the vector: the source index tuple and whether it is in
    bounds. `pmap` maps source dims to vector dims (a projected permutation, with 0
    results for broadcast dims)."""
    grids = np.indices(vshape).reshape(len(vshape), -1) if vshape else np.zeros((0, 1),
                                                                                 np.int64)
    idx = [np.full(grids.shape[1], b, np.int64) for b in base]
    valid = np.ones(grids.shape[1], np.bool_)
    from ..ir.affine import AffineDimExpr
    for k, e in enumerate(pmap.results):
        if isinstance(e, AffineDimExpr):
            d = e.position
            idx[d] = idx[d] + grids[k]
            inside = (idx[d] >= 0) & (idx[d] < src_shape[d])
            if bool(in_bounds[k]) and not inside.all():
                fail(op, f"in_bounds dimension {k} reads past the end of source dimension "
                         f"{d} of size {src_shape[d]} (undefined behaviour)")
            valid &= inside
    for d, b in enumerate(base):
        if not 0 <= b < src_shape[d] and src_shape[d] > 0 and not any(
                isinstance(e, AffineDimExpr) and e.position == d for e in pmap.results):
            fail(op, f"index {b} is out of bounds for dimension {d} of size {src_shape[d]}")
    return [np.clip(i, 0, max(s - 1, 0)) for i, s in zip(idx, src_shape)], valid


@impl("vector.transfer_read")
def _transfer_read(interp, op, args):
    src = args[0]
    if isinstance(src, np.ndarray):
        check_buffers(interp, op, [src])
    nidx = len(op.indices)
    base = _ints(args[1:1 + nidx])
    pad = args[1 + nidx]
    mask = args[2 + nidx] if op.mask is not None else None
    rt = op.results[0].type
    pmap = op.properties["permutation_map"].value
    in_bounds = [x.value for x in op.properties["in_bounds"]]
    idx, valid = _transfer_indices(op, src.shape, base, tuple(rt.shape), pmap, in_bounds)
    if mask is not None:
        valid = valid & np.asarray(mask, np.bool_).reshape(-1)
    out = np.full(valid.shape, pad, dtype_of(rt))
    if src.size:
        vals = src[tuple(idx)]
        out[valid] = vals[valid]
    return [out.reshape(rt.shape)]


@impl("vector.transfer_write")
def _transfer_write(interp, op, args):
    v, dst = np.asarray(args[0]), args[1]
    nidx = len(op.indices)
    base = _ints(args[2:2 + nidx])
    mask = args[2 + nidx] if op.mask is not None else None
    vt = op._operands[0].value.type
    tensor = bool(op.results)
    if tensor:
        dst = np.array(dst)
    else:
        check_buffers(interp, op, [dst], written=(0,))
    pmap = op.properties["permutation_map"].value
    in_bounds = [x.value for x in op.properties["in_bounds"]]
    idx, valid = _transfer_indices(op, dst.shape, base, tuple(vt.shape), pmap, in_bounds)
    if mask is not None:
        valid = valid & np.asarray(mask, np.bool_).reshape(-1)
    flat = v.reshape(-1)
    if dst.size:
        dst[tuple(i[valid] for i in idx)] = flat[valid]
    return [dst] if tensor else []


# ---------------------------------------------------------------- construction

@impl("vector.broadcast")
def _broadcast(interp, op, args):
    rt = op.results[0].type
    st = op._operands[0].value.type
    x = np.asarray(args[0])
    batch = _batch(x, st)
    xr = x.reshape(batch + (1,) * (_rank(rt) - _rank(st)) + x.shape[len(batch):])
    return [np.broadcast_to(xr, batch + tuple(rt.shape)).astype(dtype_of(rt), copy=True)]


@impl("vector.from_elements")
def _from_elements(interp, op, args):
    rt = op.results[0].type
    xs = np.stack([np.asarray(a) for a in args], axis=-1)
    return [xs.reshape(xs.shape[:-1] + tuple(rt.shape)).astype(dtype_of(rt))]


@impl("vector.step")
def _step(interp, op, args):
    return [np.arange(op.results[0].type.shape[0], dtype=np.int64)]


@impl("vector.constant_mask")
def _constant_mask(interp, op, args):
    t = op.results[0].type
    m = np.zeros(t.shape, np.bool_)
    m[tuple(slice(0, s) for s in op.properties["mask_dim_sizes"].value)] = True
    return [m]


@impl("vector.create_mask")
def _create_mask(interp, op, args):
    t = op.results[0].type
    m = np.ones(t.shape, np.bool_)
    for d, n in enumerate(args):
        n = int(n)
        sl = [slice(None)] * len(t.shape)
        sl[d] = slice(max(n, 0), None)
        m[tuple(sl)] = False
    return [m]


# ---------------------------------------------------------------- element access

def _position(op, args, nfixed):
    pos = []
    dyn = iter(args[nfixed:])
    for p in op.properties["static_position"].value:
        pos.append(int(next(dyn)) if p == A.DYNAMIC else p)
    return pos


@impl("vector.extract")
def _extract(interp, op, args):
    st = op._operands[0].value.type
    x = np.asarray(args[0])
    pos = _position(op, args, 1)
    for d, p in enumerate(pos):
        if not 0 <= p < st.shape[d]:
            fail(op, f"position {p} is out of bounds for dimension {d} of size "
                     f"{st.shape[d]}")
    nb = len(_batch(x, st))
    r = x[(slice(None),) * nb + tuple(pos)]
    rt = op.results[0].type
    if type(rt) is A.VectorType and np.ndim(r) - nb < len(rt.shape):
        r = np.reshape(r, np.shape(r)[:nb] + tuple(rt.shape))
    return [r.copy() if isinstance(r, np.ndarray) else r]


@impl("vector.insert")
def _insert(interp, op, args):
    dt = op._operands[1].value.type
    v, d = args[0], np.array(args[1])
    pos = _position(op, args, 2)
    for k, p in enumerate(pos):
        if not 0 <= p < dt.shape[k]:
            fail(op, f"position {p} is out of bounds for dimension {k} of size "
                     f"{dt.shape[k]}")
    vt = op._operands[0].value.type
    vb = _batch(v, vt)
    db = _batch(d, dt)
    if len(vb) > len(db):           # a varying value into a uniform vector (in a kernel)
        d = np.broadcast_to(d, tuple(vb) + d.shape[len(db):]).copy()
        db = vb
    nb = len(db)
    d[(slice(None),) * nb + tuple(pos)] = v
    return [d]


def _strided(op):
    props = op.properties
    offs = [x.value for x in props["offsets"]]
    strides = [x.value for x in props["strides"]]
    sizes = [x.value for x in props["sizes"]] if "sizes" in props else None
    return offs, strides, sizes


@impl("vector.extract_strided_slice")
def _extract_strided_slice(interp, op, args):
    st = op._operands[0].value.type
    x = np.asarray(args[0])
    nb = len(_batch(x, st))
    offs, strides, sizes = _strided(op)
    sl = tuple(slice(o, o + s * k, k) for o, s, k in zip(offs, sizes, strides))
    return [x[(slice(None),) * nb + sl].copy()]


@impl("vector.insert_strided_slice")
def _insert_strided_slice(interp, op, args):
    vt = op._operands[0].value.type
    dt = op._operands[1].value.type
    v, d = np.asarray(args[0]), np.array(args[1])
    nb = len(_batch(d, dt))
    offs, strides, _ = _strided(op)
    lead = len(dt.shape) - len(vt.shape)
    sl = tuple(slice(o, o + 1) if i < lead else
               slice(o, o + vt.shape[i - lead] * strides[i - lead], strides[i - lead])
               for i, o in enumerate(offs))
    target = d[(slice(None),) * nb + sl]
    target[...] = v.reshape(target.shape)
    return [d]


@impl("vector.shuffle")
def _shuffle(interp, op, args):
    at = op._operands[0].value.type
    a, b = np.asarray(args[0]), np.asarray(args[1])
    nb = len(_batch(a, at))
    cat = np.concatenate([a.reshape(a.shape[:nb] + (-1,) + a.shape[nb + 1:])
                          if _rank(at) else a[..., None],
                          b if _rank(at) else b[..., None]], axis=nb)
    mask = list(op.properties["mask"].value)
    if any(m < 0 for m in mask):
        fail(op, "a poison (-1) mask entry is read")
    return [np.take(cat, mask, axis=nb)]


# ---------------------------------------------------------------- shape

@impl("vector.shape_cast")
def _shape_cast(interp, op, args):
    st = op._operands[0].value.type
    rt = op.results[0].type
    x = np.asarray(args[0])
    return [x.reshape(_batch(x, st) + tuple(rt.shape)).copy()]


@impl("vector.transpose")
def _transpose(interp, op, args):
    st = op._operands[0].value.type
    x = np.asarray(args[0])
    nb = len(_batch(x, st))
    perm = list(range(nb)) + [nb + p for p in op.properties["permutation"].value]
    return [np.transpose(x, perm).copy()]


@impl("vector.bitcast")
def _bitcast(interp, op, args):
    st = op._operands[0].value.type
    rt = op.results[0].type
    x = np.ascontiguousarray(args[0])
    b = _batch(x, st)
    if dtype_of(st).itemsize * 8 != (st.element_type.width if hasattr(
            st.element_type, "width") else 0):
        fail(op, "bitcasts of element types narrower than a byte are not supported by "
                 "the interpreter")
    return [x.view(dtype_of(rt)).reshape(b + tuple(rt.shape)).copy()]


# ---------------------------------------------------------------- arithmetic

@impl("vector.fma")
def _fma(interp, op, args):
    t = op.results[0].type
    a, b, c = (np.asarray(x) for x in args)
    return [(a.astype(np.float64) * b + c).astype(dtype_of(t))]


def _combine(kind, t):
    """(binary function, reduce function over an axis) for a #vector.kind on type t."""
    et = t.element_type if type(t) is A.VectorType else t
    is_float = isinstance(et, A.FloatType)
    w = None if is_float else int_width(et)

    def u(x):
        return to_unsigned(x, w)

    def back(x):
        return np.asarray(x).astype(dtype_of(et)) if is_float else wrap(x, et)
    table = {
        "add": (np.add, np.sum), "mul": (np.multiply, np.prod),
        "minsi": (np.minimum, np.min), "maxsi": (np.maximum, np.max),
        "minnumf": (np.fmin, np.nanmin), "maxnumf": (np.fmax, np.nanmax),
        "minimumf": (np.minimum, np.min), "maximumf": (np.maximum, np.max),
        "minimumnumf": (np.fmin, np.nanmin), "maximumnumf": (np.fmax, np.nanmax),
        "and": (np.bitwise_and, np.bitwise_and.reduce), "or": (np.bitwise_or,
                                                              np.bitwise_or.reduce),
        "xor": (np.bitwise_xor, np.bitwise_xor.reduce),
    }
    if kind in ("minui", "maxui"):
        f = np.minimum if kind == "minui" else np.maximum
        red = np.min if kind == "minui" else np.max
        return (lambda a, b: back(f(u(a), u(b))),
                lambda x, axis: back(red(u(x), axis=axis)))
    f, red = table[kind]
    if kind in ("and", "or", "xor"):
        return (lambda a, b: back(f(a, b)), lambda x, axis: back(red(x, axis=axis)))

    def reduce_(x, axis):
        with np.errstate(all="ignore"):
            if kind in ("add", "mul") and not is_float:
                return back(red(np.asarray(x).astype(np.int64), axis=axis))
            return back(red(x, axis=axis))

    def binary(a, b):
        with np.errstate(all="ignore"):
            return back(f(a, b))
    return binary, reduce_


@impl("vector.reduction")
def _reduction(interp, op, args):
    vt = op._operands[0].value.type
    kind = op.properties["kind"].value
    binary, reduce_ = _combine(kind, vt)
    r = reduce_(np.asarray(args[0]), -1)
    if op.acc is not None:
        r = binary(r, args[1])
    return [r[()] if np.ndim(r) == 0 else r]


@impl("vector.multi_reduction")
def _multi_reduction(interp, op, args):
    st = op._operands[0].value.type
    x = np.asarray(args[0])
    nb = len(_batch(x, st))
    dims = tuple(nb + d for d in op.properties["reduction_dims"].value)
    binary, reduce_ = _combine(op.properties["kind"].value, st)
    r = reduce_(x, dims) if dims else x
    r = binary(r, args[1])
    return [r[()] if np.ndim(r) == 0 else r]


@impl("vector.outerproduct")
def _outerproduct(interp, op, args):
    rt_ = op._operands[1].value.type
    t = op.results[0].type
    a, b = np.asarray(args[0]), np.asarray(args[1])
    if type(rt_) is A.VectorType:
        prod = a[..., :, None] * b[..., None, :]
    else:
        prod = a * np.asarray(b)[..., None] if np.ndim(b) else a * b
    prod = prod.astype(dtype_of(t))
    if op.acc is None:
        return [prod]
    binary, _ = _combine(op.properties["kind"].value, t)
    return [binary(prod, args[2])]


@impl("vector.contract")
def _contract(interp, op, args):
    """The contraction as an einsum over the indexing maps (projected permutations),
    combined into the accumulator with the op's kind."""
    from ..ir.affine import AffineDimExpr
    maps = [m.value for m in op.properties["indexing_maps"]]
    letters = "abcdefghijklmnopqrstuvwxyz"
    subs = []
    for m in maps:
        s = ""
        for e in m.results:
            if not isinstance(e, AffineDimExpr):
                fail(op, "indexing maps that are not projected permutations are not "
                         "supported by the interpreter")
            s += letters[e.position]
        subs.append(s)
    lhs, rhs, acc = (np.asarray(x) for x in args)
    t = op.results[0].type
    kind = op.properties["kind"].value
    if kind != "add":
        fail(op, f"contractions of kind {kind} are not supported by the interpreter")
    wide = np.float64 if np.dtype(dtype_of(t)).kind == "f" else np.int64
    r = np.einsum(f"{subs[0]},{subs[1]}->{subs[2]}", lhs.astype(wide), rhs.astype(wide))
    out = (r + np.asarray(acc, wide))
    et = t.element_type if type(t) is A.VectorType else t
    out = out.astype(dtype_of(t)) if isinstance(et, A.FloatType) else wrap(out, et)
    return [out[()] if np.ndim(out) == 0 else out]


@impl("vector.print")
def _print(interp, op, args):
    import sys
    p = op.properties["punctuation"].value
    s = op.properties.get("stringLiteral")
    if s is not None:
        sys.stdout.write(s.value)
    if args:
        x = np.asarray(args[0])
        sys.stdout.write(("( " + ", ".join(map(str, x.reshape(-1).tolist())) + " )")
                         if x.ndim else str(x.item()))
    sys.stdout.write({"newline": "\n", "comma": ", ", "open": "( ", "close": " )",
                      "no_punctuation": ""}[p])
    sys.stdout.flush()
    return []
