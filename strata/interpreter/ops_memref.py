"""Interpreter implementations of the memref and bufferization dialects.

[Note: buffers]
A memref value is a NumPy array that views a buffer: the array of an allocation (or of
a function argument, a global) at the end of its `.base` chain, called its root. Every
view op (subview, expand/collapse_shape, transpose, cast, reinterpret_cast, view,
reshape...) returns another view of the same memory, never a copy, so a write through
one view is seen through all of them; strides come from the layout (an alloc of a
`strided<[8, 1], offset: 2>` type has those strides).

Like a memref descriptor, a view also has a base pointer (the aligned pointer that
extract_strided_metadata and reinterpret_cast use): the address of the array's first
element, except for the views this module makes, which inherit their source's (a
subview keeps its parent's base and has an offset). `_Heap` records those bases, which
roots are freed, and what each root is (alloc, alloca, global).

What MLIR leaves undefined is reported as a located InterpreterError: out-of-bounds
load/store/subview/reinterpret_cast, any use of a buffer after memref.dealloc (and
double frees, freeing a stack or global buffer), writes into a constant memref.global,
collapsing non-contiguous dims. Fresh allocations are not zeroed: floats are NaN and
other elements hold the byte 0xCD, so that reading uninitialized memory shows.

Bufferization: to_tensor snapshots the buffer (tensors are immutable values),
to_buffer makes a fresh buffer holding the tensor (a read-only view with `read_only`),
alloc_tensor is an uninitialized (or copied) tensor, clone a fresh copy owned by the
caller, bufferization.dealloc frees each memref whose condition holds and that does not
alias a retained one.
"""
from __future__ import annotations

import weakref

import numpy as np

from ..dialects import memref as M
from ..ir import attributes as A
from .core import fail, impl
from .ops_tensor import _shape_with, slice_params
from .values import attr_to_value, dtype_of, to_unsigned, wrap

DYN = A.DYNAMIC
POISON_BYTE = 0xCD

__all__ = ["new_buffer", "fill_uninitialized", "check_buffers", "heap"]


# ================================================================== bookkeeping

def _ptr(a) -> int:
    return a.__array_interface__["data"][0]


def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


class _Heap:
    """Per-interpreter buffer state (see [Note: buffers])."""

    __slots__ = ("bases", "freed", "kinds", "scopes", "__weakref__")

    def __init__(self):
        self.bases = {}   # id(view) -> (weakref(view), base address)
        self.freed = {}   # id(root) -> (weakref(root), what freed it)
        self.kinds = {}   # id(root) -> (weakref(root), "alloc" | "alloca" | "global @x")
        self.scopes = []  # roots of the allocas of each running alloca_scope

    def _get(self, table, a):
        e = table.get(id(a))
        if e is not None and e[0]() is a:
            return e[1]
        return None

    def _put(self, table, a, value):
        key = id(a)

        def gone(_, table=table, key=key):
            table.pop(key, None)
        table[key] = (weakref.ref(a, gone), value)

    def base(self, a) -> int:
        b = self._get(self.bases, a)
        return _ptr(a) if b is None else b

    def set_base(self, view, base):
        if base != _ptr(view):
            self._put(self.bases, view, base)
        return view

    def kind(self, root):
        return self._get(self.kinds, root)


def heap(interp) -> _Heap:
    h = interp.cache.get("memref.heap")
    if h is None:
        h = interp.cache["memref.heap"] = _Heap()
    return h


def check_buffers(interp, op, values, written=()):
    """Fail at `op` if a buffer among `values` was freed, or one of the `written` ones
    (indices into `values`) is read-only (a constant global)."""
    h = heap(interp)
    for v in values:
        if isinstance(v, np.ndarray):
            r = _root(v)
            what = h._get(h.freed, r)
            if what is not None:
                fail(op, f"uses a buffer that was freed (by {what})")
    for i in written:
        v = values[i]
        if isinstance(v, np.ndarray) and not v.flags.writeable:
            what = h.kind(_root(v)) or "a read-only buffer"
            fail(op, f"writes into read-only memory ({what})")


def _live(interp, op, *values):
    check_buffers(interp, op, values)


def fill_uninitialized(a):
    """Fill `a` with the poison pattern: NaN for floats, True for i1, 0xCD bytes
    otherwise (float kinds without NaN too)."""
    k = a.dtype.kind
    if k == "b":
        a.fill(True)
    elif k in "fc" or (k not in "iu" and _has_nan(a.dtype)):
        a.fill(np.nan)
    else:
        a[...] = np.frombuffer(bytes([POISON_BYTE]) * a.dtype.itemsize, a.dtype)[0]
    return a


def _has_nan(d) -> bool:
    try:
        return bool(np.isnan(np.array(np.nan).astype(d).astype(np.float32)))
    except (TypeError, ValueError):
        return False


def new_buffer(t, shape, symbols=()):
    """A fresh (uninitialized) buffer for memref type `t` with `shape`: contiguous
    row-major for the identity layout (or dynamic strides), else with the strides and
    offset of the layout (dynamic ones from `symbols`, in the layout's symbol order)."""
    d = dtype_of(t)
    so = M.strides_and_offset(t) if not M.is_identity_layout(t) else None
    if so is not None:
        strides, offset = so
        it = iter(symbols)
        if offset == DYN:
            offset = int(next(it, 0))
        strides = [int(next(it, 0)) if s == DYN else s for s in strides]
        if any(s == DYN for s in strides) or not symbols and any(x == DYN for x in so[0]):
            so = None
    if so is None:
        root = np.empty(int(np.prod(shape, dtype=np.int64)), d)
        return fill_uninitialized(root).reshape(shape)
    extent = offset + sum((n - 1) * s for n, s in zip(shape, strides) if n > 0) + 1
    if any(n == 0 for n in shape):
        extent = offset
    root = fill_uninitialized(np.empty(max(extent, 0), d))
    isz = d.itemsize
    return np.ndarray(shape, d, buffer=root, offset=offset * isz,
                      strides=[s * isz for s in strides])


def _flat_bytes(op, root):
    flat = root.ravel(order="K")
    if not np.shares_memory(flat, root) and root.size:
        fail(op, "cannot make a view into a non-contiguous external buffer")
    return flat.view(np.uint8) if flat.dtype != np.uint8 else flat


def make_view(op, src, address, shape, strides, dtype=None):
    """A view of `src`'s root buffer starting at byte `address` with `shape` and element
    `strides`, bounds-checked against the buffer."""
    dtype = src.dtype if dtype is None else np.dtype(dtype)
    root = _root(src)
    flat = _flat_bytes(op, root)
    start = address - _ptr(flat) if flat.size else 0
    isz = dtype.itemsize
    lo, hi = start, start + isz
    empty = any(n == 0 for n in shape)
    for n, s in zip(shape, strides):
        ext = (n - 1) * s * isz if n > 0 else 0
        if ext < 0:
            lo += ext
        else:
            hi += ext
    if empty:
        if not 0 <= start <= flat.size:
            fail(op, f"view at byte offset {start} is outside its buffer of {flat.size} bytes")
        return np.ndarray(shape, dtype, buffer=flat, offset=min(start, flat.size),
                          strides=[s * isz for s in strides])
    if lo < 0 or hi > flat.size:
        fail(op, f"view of shape {tuple(shape)} and strides {list(strides)} at byte offset "
                 f"{start} reaches bytes [{lo}, {hi}) outside its buffer of {flat.size} "
                 "bytes")
    return np.ndarray(shape, dtype, buffer=flat, offset=start,
                      strides=[s * isz for s in strides])


def _elem_strides(op, a):
    isz = a.dtype.itemsize
    out = []
    for s in a.strides:
        if s % isz:
            fail(op, f"buffer strides {a.strides} are not multiples of its element size")
        out.append(s // isz)
    return out


def _derive(interp, src, view):
    """Record that `view` (made from `src` by NumPy) has `src`'s base pointer."""
    h = heap(interp)
    return h.set_base(view, h.base(src))


def _as_index(v) -> int:
    return int(v)


# ================================================================== allocation

def _heap_buffer(interp, t, shape, symbols=(), kind="memref.alloc"):
    """A fresh buffer for type `t` (a memref, or an unranked one) recorded as made by
    `kind`."""
    if isinstance(t, A.MemRefType):
        a = new_buffer(t, shape, symbols)
    else:
        a = fill_uninitialized(np.empty(shape, dtype_of(t)))
    h = heap(interp)
    h._put(h.kinds, _root(a), kind)
    return a


def _alloc(interp, op, args, kind):
    t = op.results[0].type
    n = len(op.dynamicSizes)
    return _heap_buffer(interp, t, _shape_with(t, args[:n]), [int(x) for x in args[n:]],
                        kind)


@impl("memref.alloc")
def _alloc_op(interp, op, args):
    return [_alloc(interp, op, args, "memref.alloc")]


@impl("memref.alloca")
def _alloca_op(interp, op, args):
    a = _alloc(interp, op, args, "memref.alloca")
    h = heap(interp)
    if h.scopes:
        h.scopes[-1].append(_root(a))
    return [a]


def _free(interp, op, a, by):
    h = heap(interp)
    root = _root(a)
    what = h._get(h.freed, root)
    if what is not None:
        fail(op, f"frees a buffer that was already freed (by {what})")
    kind = h.kind(root)
    if kind is not None and kind != "memref.alloc":
        fail(op, f"frees a buffer that {kind} made")
    h._put(h.freed, root, by)
    if root.flags.writeable:
        fill_uninitialized(root)


@impl("memref.dealloc")
def _dealloc(interp, op, args):
    _free(interp, op, args[0], "memref.dealloc")
    return []


@impl("memref.realloc")
def _realloc(interp, op, args):
    src = args[0]
    _live(interp, op, src)
    t = op.results[0].type
    shape = _shape_with(t, args[1:])
    out = _heap_buffer(interp, t, shape)
    n = min(src.shape[0], shape[0])
    out[:n] = src[:n]
    _free(interp, op, src, "memref.realloc")
    return [out]


@impl("memref.alloca_scope")
def _alloca_scope(interp, op, args):
    h = heap(interp)
    h.scopes.append([])
    try:
        res = interp.run_region(op.regions[0], [])
    finally:
        for root in h.scopes.pop():
            h._put(h.freed, root, "the end of its memref.alloca_scope")
    return res


# ================================================================== element access

def _index(interp, op, a, idx, write=False):
    """The indices as a tuple of ints, checked against `a`'s shape; `a` must be live
    (and writable when `write`)."""
    h = heap(interp)
    if h.freed or (write and not a.flags.writeable):
        check_buffers(interp, op, [a], written=(0,) if write else ())
    shape = a.shape
    if len(idx) != len(shape):
        fail(op, f"{len(idx)} indices for a buffer of rank {len(shape)}")
    out = []
    for d, i in enumerate(idx):
        if np.ndim(i):
            fail(op, "indices must be scalars")
        i = int(i)
        if not 0 <= i < shape[d]:
            fail(op, f"index {i} is out of bounds for dimension {d} of size {shape[d]}")
        out.append(i)
    return tuple(out)


@impl("memref.load")
def _load(interp, op, args):
    a = args[0]
    return [a[_index(interp, op, a, args[1:])]]


@impl("memref.store")
def _store(interp, op, args):
    v, a = args[0], args[1]
    a[_index(interp, op, a, args[2:], write=True)] = v
    return []


def _atomic(kind, old, new, t):
    if kind == "assign":
        return new
    if kind in ("addf", "mulf"):
        return (old + new) if kind == "addf" else (old * new)
    if kind in ("addi", "muli"):
        r = np.int64(old) + np.int64(new) if kind == "addi" else np.int64(old) * np.int64(new)
        return wrap(r, t)[()]
    if kind == "andi":
        return old & new
    if kind == "ori":
        return old | new
    if kind == "xori":
        return old ^ new
    if kind in ("maximumf", "minimumf"):
        return (np.maximum if kind == "maximumf" else np.minimum)(old, new)
    if kind in ("maxnumf", "minnumf"):
        return (np.fmax if kind == "maxnumf" else np.fmin)(old, new)
    if kind in ("maxs", "mins"):
        return (max if kind == "maxs" else min)(old, new)
    w = t.width
    uo, un = int(to_unsigned(old, w)), int(to_unsigned(new, w))
    pick = max(uo, un) if kind == "maxu" else min(uo, un)
    return old if pick == uo else new


@impl("memref.atomic_rmw")
def _atomic_rmw(interp, op, args):
    v, a = args[0], args[1]
    i = _index(interp, op, a, args[2:], write=True)
    old = a[i]
    kind = M.ATOMIC_RMW_KINDS[op.properties["kind"].value]
    a[i] = _atomic(kind, old, v, op.value.type)
    return [old]


@impl("memref.generic_atomic_rmw")
def _generic_atomic_rmw(interp, op, args):
    a = args[0]
    i = _index(interp, op, a, args[1:], write=True)
    old = a[i]
    new, = interp.run_region(op.regions[0], [old])
    a[i] = new
    return [old]


# ================================================================== queries

@impl("memref.dim")
def _dim(interp, op, args):
    a, i = args[0], int(args[1])
    if not 0 <= i < a.ndim:
        fail(op, f"dimension index {i} is out of range for a memref of rank {a.ndim}")
    return [np.int64(a.shape[i])]


@impl("memref.rank")
def _rank(interp, op, args):
    return [np.int64(args[0].ndim)]


@impl("memref.extract_strided_metadata")
def _metadata(interp, op, args):
    a = args[0]
    _live(interp, op, a)
    base = heap(interp).base(a)
    isz = a.dtype.itemsize
    delta = _ptr(a) - base
    if delta % isz:
        fail(op, "the buffer's offset is not a multiple of its element size")
    buf = heap(interp).set_base(make_view(op, a, base, (), ()), base)
    return [buf, np.int64(delta // isz)] + [np.int64(n) for n in a.shape] + \
        [np.int64(s) for s in _elem_strides(op, a)]


@impl("memref.extract_aligned_pointer_as_index")
def _aligned_pointer(interp, op, args):
    return [np.int64(heap(interp).base(args[0]))]


@impl("memref.prefetch")
def _prefetch(interp, op, args):
    """A cache hint: nothing to compute (its indices are not even read by hardware)."""
    return []


@impl("memref.distinct_objects")
def _distinct_objects(interp, op, args):
    """The operands themselves, which the op promises do not overlap: an overlap is the
    undefined behaviour upstream leaves it, reported here."""
    for i, a in enumerate(args):
        for j in range(i):
            if np.shares_memory(a, args[j]):
                fail(op, f"operands #{j} and #{i} overlap, but distinct_objects promises "
                         "distinct buffers")
    return [_derive(interp, a, a.view()) for a in args]


@impl("memref.assume_alignment", "memref.memory_space_cast")
def _same(interp, op, args):
    return [_derive(interp, args[0], args[0].view())]


@impl("memref.cast")
def _cast(interp, op, args):
    a = args[0]
    t = op.results[0].type
    if isinstance(t, A.MemRefType):
        if a.ndim != t.rank or any(d != DYN and d != n for d, n in zip(t.shape, a.shape)):
            fail(op, f"buffer of shape {a.shape} does not fit the cast's result type '{t}'")
        so = M.strides_and_offset(t)
        if so is not None:
            strides = _elem_strides(op, a)
            for d, (want, got) in enumerate(zip(so[0], strides)):
                if want != DYN and want != got and a.shape[d] != 1:
                    fail(op, f"buffer strides {strides} do not fit the cast's result type "
                             f"'{t}'")
    return [_derive(interp, a, a.view())]


# ================================================================== copies

def copy_into(interp, op, src, dst):
    """memref.copy semantics: same shape, `dst` writable and live."""
    check_buffers(interp, op, [src, dst], written=(1,))
    if src.shape != dst.shape:
        fail(op, f"copies a buffer of shape {src.shape} into one of shape {dst.shape}")
    np.copyto(dst, src)


@impl("memref.copy")
def _copy(interp, op, args):
    copy_into(interp, op, args[0], args[1])
    return []


# ================================================================== globals

def _global_value(interp, op, name):
    v = interp.globals.get(name)
    if v is not None:
        return v
    g = interp.lookup(name)
    if not isinstance(g, M.GlobalOp):
        fail(op, f"@{name} is not a memref.global")
    t = g.global_type
    iv = g.properties.get("initial_value")
    if iv is None:
        fail(op, f"memref.global @{name} is external: bind its value first "
                 f"(interpreter.globals['{name}'] = array)")
    a = new_buffer(t, t.shape)
    if type(iv) is not A.UnitAttr:
        a[...] = np.broadcast_to(attr_to_value(iv), t.shape)
    if g.is_constant:
        a.flags.writeable = False
    h = heap(interp)
    h._put(h.kinds, _root(a), ("constant " if g.is_constant else "") + f"memref.global @{name}")
    interp.globals[name] = a
    return a


@impl("memref.global")
def _global(interp, op, args):
    return []  # a definition: its value is made on first use (get_global)


@impl("memref.get_global")
def _get_global(interp, op, args):
    name = op.properties["name"].root
    a = _global_value(interp, op, name)
    g = interp.lookup(name)
    if isinstance(g, M.GlobalOp) and g.is_constant and a.flags.writeable:
        # A value the user bound: constant globals are read through a read-only view.
        a = a.view()
        a.flags.writeable = False
    return [a]


# ================================================================== views

@impl("memref.subview")
def _subview(interp, op, args):
    a = args[0]
    _live(interp, op, a)
    offsets, sizes, strides = slice_params(interp, op)
    for d, (n, o, s, st) in enumerate(zip(a.shape, offsets, sizes, strides)):
        if o < 0 or s < 0 or (s > 0 and o + (s - 1) * st >= n) or (s == 0 and o > n):
            fail(op, f"subview along dimension {d} is out of bounds: offset {o}, size {s}, "
                     f"stride {st} in a dimension of size {n}")
    src_strides = _elem_strides(op, a)
    addr = _ptr(a) + sum(o * s for o, s in zip(offsets, src_strides)) * a.dtype.itemsize
    dropped = op.dropped_dims()
    shape = [s for d, s in enumerate(sizes) if d not in dropped]
    vstrides = [s * st for d, (s, st) in enumerate(zip(src_strides, strides))
                if d not in dropped]
    v = make_view(op, a, addr, shape, vstrides)
    return [_derive(interp, a, v)]


@impl("memref.reinterpret_cast")
def _reinterpret_cast(interp, op, args):
    a = args[0]
    _live(interp, op, a)
    offsets, sizes, strides = slice_params(interp, op)
    base = heap(interp).base(a)
    v = make_view(op, a, base + offsets[0] * a.dtype.itemsize, sizes, strides)
    return [heap(interp).set_base(v, base)]


@impl("memref.view")
def _view(interp, op, args):
    a, shift = args[0], int(args[1])
    _live(interp, op, a)
    t = op.results[0].type
    shape = _shape_with(t, args[2:])
    base = heap(interp).base(a) + shift
    strides = M.canonical_strides(shape)
    v = make_view(op, a, base, shape, strides, dtype_of(t))
    return [heap(interp).set_base(v, base)]


def _reshaped(interp, op, a, shape):
    """`a` viewed with `shape` without copying; fails when the dims cannot be merged."""
    _live(interp, op, a)
    try:
        v = a.reshape(shape, copy=False)
    except (AttributeError, ValueError):
        fail(op, f"cannot view a buffer of shape {a.shape} and strides "
                 f"{_elem_strides(op, a)} as shape {tuple(shape)} (non-contiguous dims)")
    return _derive(interp, a, v)


@impl("memref.expand_shape")
def _expand_shape(interp, op, args):
    a = args[0]
    from .ops_tensor import _mixed
    shape = _mixed(interp, list(op.properties["static_output_shape"].value), op.output_shape)
    groups = op.reassociation_indices
    for k, g in enumerate(groups):
        n = int(np.prod([shape[d] for d in g], dtype=np.int64))
        if n != a.shape[k]:
            fail(op, f"output_shape {shape} does not expand dimension {k} of size "
                     f"{a.shape[k]}")
    return [_reshaped(interp, op, a, shape)]


@impl("memref.collapse_shape")
def _collapse_shape(interp, op, args):
    a = args[0]
    groups = op.reassociation_indices
    shape = [int(np.prod([a.shape[d] for d in g], dtype=np.int64)) for g in groups]
    return [_reshaped(interp, op, a, shape)]


@impl("memref.reshape")
def _reshape(interp, op, args):
    a, s = args
    shape = [int(x) for x in s]
    if int(np.prod(shape, dtype=np.int64)) != a.size:
        fail(op, f"cannot reshape {a.size} elements to shape {tuple(shape)}")
    return [_reshaped(interp, op, a, shape)]


@impl("memref.transpose")
def _transpose(interp, op, args):
    a = args[0]
    _live(interp, op, a)
    perm = [r.position for r in op.properties["permutation"].value.results]
    return [_derive(interp, a, a.transpose(perm))]


# ================================================================== bufferization

@impl("bufferization.to_tensor")
def _to_tensor(interp, op, args):
    _live(interp, op, args[0])
    return [np.array(args[0], copy=True)]


@impl("bufferization.to_buffer")
def _to_buffer(interp, op, args):
    t = op.results[0].type
    a = np.asarray(args[0])
    if "read_only" in op.properties:
        v = a.view()
        v.flags.writeable = False
        return [v]
    out = _heap_buffer(interp, t, a.shape)
    out[...] = a
    return [out]


@impl("bufferization.alloc_tensor")
def _alloc_tensor(interp, op, args):
    t = op.results[0].type
    if op.copy is not None:
        return [np.array(interp.env[op.copy], copy=True)]
    shape = _shape_with(t, [interp.env[v] for v in op.dynamic_sizes])
    return [fill_uninitialized(np.empty(shape, dtype_of(t)))]


@impl("bufferization.materialize_in_destination")
def _materialize(interp, op, args):
    src, dst = args
    if op.results:
        if np.shape(src) != np.shape(dst):
            fail(op, f"source of shape {np.shape(src)} does not fit the destination of "
                     f"shape {np.shape(dst)}")
        return [np.array(src, copy=True)]
    copy_into(interp, op, np.asarray(src), dst)
    return []


@impl("bufferization.clone")
def _clone(interp, op, args):
    a = args[0]
    _live(interp, op, a)
    out = _heap_buffer(interp, op.results[0].type, a.shape)
    out[...] = a
    return [out]


@impl("bufferization.dealloc")
def _buf_dealloc(interp, op, args):
    n = len(op.memrefs)
    memrefs, conds, retained = args[:n], args[n:2 * n], args[2 * n:]
    roots = [_root(m) for m in memrefs]
    kept = [_root(r) for r in retained]
    updated = [False] * len(retained)
    done = set()
    for m, root, c in zip(memrefs, roots, conds):
        if not bool(c):
            continue
        aliases = [j for j, r in enumerate(kept) if r is root]
        for j in aliases:
            updated[j] = True
        if aliases or id(root) in done:
            continue
        done.add(id(root))
        _free(interp, op, m, "bufferization.dealloc")
    return [np.bool_(u) for u in updated]


@impl("bufferization.dealloc_tensor")
def _dealloc_tensor(interp, op, args):
    return []

