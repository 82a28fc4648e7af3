"""The runtime: a natively compiled module loaded once, called with NumPy arrays.

    from strata.runtime import NativeModule, Signature
    mod = NativeModule(jit, {"main": Signature(args, results)})
    outputs = mod.function("main")(x, y)          # one native call per inference

[Note: the calling convention]
Entry functions are called through their `_mlir_ciface_<name>` wrapper (upstream MLIR's C
interface, made by convert-func-to-llvm for functions with `llvm.emit_c_interface`):
every memref argument is passed as a pointer to its descriptor
`{allocated, aligned, offset, sizes[R], strides[R]}` (int64 fields, strides in elements);
a single memref result is written through a pointer to one descriptor passed first, N > 1
results through a pointer to a struct of N descriptors. Result buffers are allocated
inside the compiled code with malloc and owned by the caller: each output array owns its
buffer and frees it when the array is collected (see `_OwnedBuffer`).

Arguments are checked here, before the native call (count, dtype, rank, static dims,
dynamic dims against each other where the signature says they are equal); non-contiguous
arrays are passed as contiguous copies, because the compiled code assumes the identity
layout at its boundary. A failed run-time check inside the compiled code (an index out
of range, ...) is reported through `strata_assert_fail`, bound by `runtime_symbols()`, and
raised as a RuntimeFailure after the call.
"""
from __future__ import annotations

import ctypes
import threading

import numpy as np

from ..errors import StrataError

__all__ = ["NativeModule", "NativeFunction", "Signature", "MemRefSpec", "RuntimeFailure",
           "descriptor_type", "runtime_symbols"]


class RuntimeFailure(StrataError, RuntimeError):
    """A run-time check inside compiled code failed."""


# ---------------------------------------------------------------- descriptors

_DESCRIPTORS: dict[int, type] = {}


def descriptor_type(rank: int) -> type:
    """The ctypes struct of a rank-`rank` memref descriptor (upstream's layout)."""
    t = _DESCRIPTORS.get(rank)
    if t is None:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
        t = type(f"MemRefDescriptor{rank}", (ctypes.Structure,), {"_fields_": fields})
        _DESCRIPTORS[rank] = t
    return t


_SCALAR_CTYPES = {"float32": ctypes.c_float, "float64": ctypes.c_double,
                  "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
                  "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
                  "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
                  "uint64": ctypes.c_uint64, "bool": ctypes.c_bool}


class MemRefSpec:
    """One argument or result of an entry function: element dtype and shape (None for a
    dynamic dim), `dims` naming the dynamic dims that must agree across arguments.
    `scalar=True`: a scalar passed by value (shape ())."""

    __slots__ = ("dtype", "shape", "dims", "scalar")

    def __init__(self, dtype, shape, dims=None, scalar=False):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.dims = tuple(dims) if dims is not None else (None,) * len(self.shape)
        self.scalar = scalar
        if scalar and self.dtype.name not in _SCALAR_CTYPES:
            raise StrataError(f"scalars of type {self.dtype} cannot cross the native "
                              "boundary")

    @property
    def ctype(self):
        """The ctypes type of this value at the C interface."""
        return _SCALAR_CTYPES[self.dtype.name] if self.scalar else descriptor_type(self.rank)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __repr__(self):
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"MemRefSpec({dims}{'x' if dims else ''}{self.dtype})"


class Signature:
    __slots__ = ("args", "results")

    def __init__(self, args, results):
        self.args = list(args)
        self.results = list(results)


# ---------------------------------------------------------------- run-time errors

_state = threading.local()


def _assert_fail(message):
    msgs = getattr(_state, "failures", None)
    if msgs is None:
        msgs = _state.failures = []
    if len(msgs) < 8:
        msgs.append(message.decode("utf-8", "replace") if message else "assertion failed")


_ASSERT_FAIL_T = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
_assert_fail_c = _ASSERT_FAIL_T(_assert_fail)


# Helper functions LLVM calls for conversions the CPU has no instruction for (double to
# half, float to bfloat...): in libgcc, which a shared library links but a JIT in this
# process does not see unless given their addresses.
_LIBGCC_HELPERS = ("__truncdfhf2", "__truncsfhf2", "__extendhfsf2", "__extendhfdf2",
                   "__truncsfbf2", "__truncdfbf2", "__extendbfsf2", "__gnu_h2f_ieee",
                   "__gnu_f2h_ieee")
_SYMBOLS: dict[str, int] = {}


def runtime_symbols() -> dict[str, int]:
    """Addresses of the functions the compiled code may call into the runtime for."""
    if not _SYMBOLS:
        _SYMBOLS["strata_assert_fail"] = ctypes.cast(_assert_fail_c, ctypes.c_void_p).value
        try:
            libgcc = ctypes.CDLL("libgcc_s.so.1")
        except OSError:
            libgcc = None
        for name in _LIBGCC_HELPERS:
            fn = getattr(libgcc, name, None) if libgcc is not None else None
            if fn is not None:
                _SYMBOLS[name] = ctypes.cast(fn, ctypes.c_void_p).value
    return dict(_SYMBOLS)


# ---------------------------------------------------------------- outputs

# memref.get_global's descriptors carry this as their allocated pointer (as upstream).
_GLOBAL_MARKER = 0xDEADBEEF

_libc = ctypes.CDLL(None)
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None


class _OwnedBuffer:
    """A malloc'd block seen as one array (`__array_interface__`); freed when the last
    array viewing it goes away (NumPy keeps this object as the array's base)."""

    __slots__ = ("ptr", "__array_interface__")

    def __init__(self, ptr, interface):
        self.ptr = ptr
        self.__array_interface__ = interface

    def __del__(self):
        if self.ptr:
            _free(self.ptr)
            self.ptr = None


def _interface(dtype, data, shape, strides):
    """An array interface over raw memory. Element types NumPy describes only as opaque
    bytes (ml_dtypes' bfloat16, float8, int4...) are exposed as unsigned integers of
    their size; `_view` gives the array its real dtype back."""
    raw = dtype if dtype.isbuiltin == 1 else np.dtype(f"u{dtype.itemsize}")
    return {"version": 3, "typestr": raw.str, "data": (data, False), "shape": shape,
            "strides": strides}


def _view(holder, dtype):
    a = np.asarray(holder)
    return a if a.dtype == dtype else a.view(dtype)


# ---------------------------------------------------------------- entry points


class NativeFunction:
    """One entry point: `f(*arrays) -> list of arrays`."""

    def __init__(self, owner, name: str, address: int, signature: Signature):
        self._owner = owner  # keeps the JIT (code and weights) alive
        self.name = name
        self.signature = signature
        args, results = signature.args, signature.results
        self._arg_types = [s.ctype for s in args]
        self._res_types = [s.ctype for s in results]
        params = []
        restype = None
        # Upstream's C interface: one scalar result is returned; one memref result or
        # several results are written through a pointer passed first.
        self._scalar_result = len(results) == 1 and results[0].scalar
        if self._scalar_result:
            restype = self._res_types[0]
            self._result_struct = None
        elif len(results) == 1:
            self._result_struct = self._res_types[0]
        elif results:
            self._result_struct = type("Results", (ctypes.Structure,), {
                "_fields_": [(f"r{i}", t) for i, t in enumerate(self._res_types)]})
        else:
            self._result_struct = None
        if self._result_struct is not None:
            params.append(ctypes.POINTER(self._result_struct))
        params += [t if s.scalar else ctypes.POINTER(t)
                   for s, t in zip(args, self._arg_types)]
        self._cfunc = ctypes.CFUNCTYPE(restype, *params)(address)
        # Dynamic dims named alike must agree: (arg, dim) groups by name.
        groups: dict[str, list] = {}
        for i, s in enumerate(args):
            for d, (size, name) in enumerate(zip(s.shape, s.dims)):
                if size is None and name:
                    groups.setdefault(name, []).append((i, d))
        self._dim_groups = [g for g in groups.items() if len(g[1]) > 1]

    def _check(self, values):
        sig = self.signature.args
        if len(values) != len(sig):
            raise StrataError(f"@{self.name} takes {len(sig)} inputs, got {len(values)}")
        out = []
        for i, (v, s) in enumerate(zip(values, sig)):
            a = np.asarray(v)
            if s.scalar:
                if a.dtype != s.dtype or a.ndim:
                    raise StrataError(f"input #{i} of @{self.name}: expected a scalar of "
                                      f"dtype {s.dtype}, got {a.dtype}{list(a.shape)}")
                out.append(a)
                continue
            if a.dtype != s.dtype:
                raise StrataError(f"input #{i} of @{self.name}: expected dtype {s.dtype}, "
                                  f"got {a.dtype}")
            if a.ndim != s.rank or any(d is not None and d != n
                                       for d, n in zip(s.shape, a.shape)):
                want = "(" + ", ".join("?" if d is None else str(d) for d in s.shape) + ")"
                raise StrataError(f"input #{i} of @{self.name}: expected shape {want}, got "
                                  f"{tuple(a.shape)}")
            out.append(a)
        for name, members in self._dim_groups:
            sizes = {out[i].shape[d] for i, d in members}
            if len(sizes) > 1:
                where = ", ".join(f"input #{i} dim {d} = {out[i].shape[d]}"
                                  for i, d in members)
                raise StrataError(f"@{self.name}: dynamic dim '{name}' differs between "
                                  f"inputs ({where})")
        return out

    def __call__(self, *values):
        """Check the arguments against the signature, then `run`."""
        return self.run(*self._check(values))

    def run(self, *arrays):
        """The native call on arguments already known to fit the signature (dtypes,
        shapes); only the layout is made right here (contiguous copies)."""
        arrays = [a if a.flags.c_contiguous else np.ascontiguousarray(a)
                  for a in map(np.asarray, arrays)]
        descs = []
        for a, t, s in zip(arrays, self._arg_types, self.signature.args):
            if s.scalar:
                descs.append(t(a[()]))
                continue
            d = t()
            ptr = a.ctypes.data
            d.allocated = ptr
            d.aligned = ptr
            if a.ndim:
                d.sizes[:] = a.shape
                item = a.itemsize
                d.strides[:] = [s // item for s in a.strides] if a.size else \
                    _row_major(a.shape)
            descs.append(d)
        _state.failures = None
        params = [d if s.scalar else ctypes.byref(d)
                  for d, s in zip(descs, self.signature.args)]
        if self._scalar_result:
            res = [self._cfunc(*params)]
        elif self._result_struct is None:
            self._cfunc(*params)
            res = []
        else:
            r = self._result_struct()
            self._cfunc(ctypes.byref(r), *params)
            res = [r] if len(self._res_types) == 1 else \
                [getattr(r, f"r{i}") for i in range(len(self._res_types))]
        outputs = self._outputs(res, arrays)
        failures = getattr(_state, "failures", None)
        if failures:
            _state.failures = None
            raise RuntimeFailure(f"@{self.name}: run-time check failed: {failures[0]}")
        return outputs

    def _outputs(self, descs, inputs):
        owners: dict[int, _OwnedBuffer] = {}
        foreign = {a.ctypes.data for a in inputs}
        out = []
        for d, s in zip(descs, self.signature.results):
            dtype = s.dtype
            if s.scalar:
                out.append(np.array(d, dtype=dtype)[()] if not isinstance(d, ctypes._SimpleCData)
                           else np.array(d.value, dtype=dtype)[()])
                continue
            shape = tuple(d.sizes) if s.rank else ()
            strides = tuple(x * dtype.itemsize for x in d.strides) if s.rank else ()
            data = (d.aligned or 0) + d.offset * dtype.itemsize
            alloc = d.allocated or 0
            if alloc in foreign or alloc == _GLOBAL_MARKER or self._owner.is_static(alloc):
                # Not a buffer of its own (the contract says it must be): copy, never free.
                view = _view(_OwnedBuffer(0, _interface(dtype, data, shape, strides)), dtype)
                out.append(np.array(view))
                continue
            holder = owners.get(alloc)
            if holder is not None:  # two outputs in one block: the second is a copy
                view = _view(_OwnedBuffer(0, _interface(dtype, data, shape, strides)), dtype)
                out.append(np.array(view))
                continue
            holder = _OwnedBuffer(alloc, _interface(dtype, data, shape, strides))
            owners[alloc] = holder
            out.append(_view(holder, dtype))
        return out


def _row_major(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return strides[::-1]


class NativeModule:
    """A compiled module in this process: the JIT'd code (anything with
    `address_of(symbol)`), the weights it reads (kept alive here) and its entry points."""

    def __init__(self, jit, signatures: dict[str, Signature], weights=None):
        self.jit = jit
        self.weights = dict(weights or {})
        self._static = sorted((a.ctypes.data, a.ctypes.data + a.nbytes)
                              for a in self.weights.values())
        self._functions = {name: NativeFunction(self, name,
                                                jit.address_of("_mlir_ciface_" + name), sig)
                           for name, sig in signatures.items()}

    def is_static(self, address: int) -> bool:
        """Whether `address` lies in a weight buffer (never freed by the runtime)."""
        return any(lo <= address < max(hi, lo + 1) for lo, hi in self._static)

    def function(self, name: str) -> NativeFunction:
        try:
            return self._functions[name]
        except KeyError:
            raise StrataError(f"the compiled module has no entry point @{name} (entry "
                              f"points: {', '.join('@' + n for n in self._functions)})") \
                from None

    @property
    def functions(self):
        return dict(self._functions)
