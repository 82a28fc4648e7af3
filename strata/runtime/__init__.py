"""The runtime: a natively compiled module loaded once, called with arrays.

    from strata.runtime import NativeModule, Signature
    mod = NativeModule(jit, {"main": Signature(args, results)})
    outputs = mod.function("main")(x, y)          # one native call per inference

[Note: inputs]
An input is a NumPy array, or any object with `__dlpack__` on the CPU (a PyTorch CPU
tensor, a JAX or CuPy-host array...), imported without a copy through `np.from_dlpack`;
Python numbers and (nested) lists are converted to the input's dtype (floats are never
truncated to integers: that is an error). Every input is checked before the native call:
the count, the dtype (exactly: no silent casts; a non-native byte order is converted), the
rank, the static dims, and dynamic dims against each other where the signature names them
alike (`MemRefSpec.dims`, ONNX dim params). A DLPack tensor on another device (CUDA...),
one that requires grad, or of a dtype NumPy cannot hold is refused with an `InputError`
naming the input (a PyTorch bfloat16 / float8 tensor is taken as its bits where the input
has that ml_dtypes type). Non-contiguous or misaligned arrays are passed as contiguous
copies: the compiled code assumes the identity layout at its boundary.

[Note: outputs]
Outputs are NumPy arrays owning the buffer the compiled code allocated (malloc'd inside it,
freed with libc `free` when the last array or view over it goes away: `_OwnedBlock`).
They cross into other frameworks without a copy through DLPack: `torch.from_dlpack(y)`
shares `y`'s buffer and keeps it alive for as long as the tensor lives.

[Note: the calling convention]
Entry functions are called through their `_mlir_ciface_<name>` wrapper (upstream MLIR's C
interface, made by convert-func-to-llvm for functions with `llvm.emit_c_interface`):
every memref argument is passed as a pointer to its descriptor
`{allocated, aligned, offset, sizes[R], strides[R]}` (int64 fields, strides in elements);
a single memref result is written through a pointer to one descriptor passed first, N > 1
results through a pointer to a struct of N descriptors. A failed run-time check inside the
compiled code (an index out of range, ...) is reported through `strata_assert_fail`, bound
by `runtime_symbols()`, and raised as a RuntimeFailure after the call; so is a failed
allocation (`strata_oom_report`: "out of memory allocating N bytes for node X"), after
which the call was cut short and its result descriptors zeroed (see [Note: failed
allocations] in strata/backends/cpu/guard.py): after any failure the runtime frees the
blocks the results own and makes no array of them.

[Note: the cost of a call]
One call is a few microseconds of Python around the native call. A NativeFunction works
out once what a call needs: per argument its checks as tuples (dtype, static shape or
(dim, size) pairs), where its descriptor lies in one preallocated int64 block (the sizes
and strides of a static shape written once), and the parameter list of the C function
(addresses of the descriptors). A call checks, writes the data pointers (read from the
array object directly: `_data_ptr`), calls, and reads the result descriptors with one
`tolist`. The preallocated blocks are per call in flight, not per function: a call takes
one from a free list (`_pool`) and gives it back, so calls from several threads (the
native call releases the GIL) never share one.
"""
from __future__ import annotations

import ctypes
import sys
import threading
from bisect import bisect_right

import numpy as np

from ..errors import StrataError

__all__ = ["NativeModule", "NativeFunction", "Signature", "MemRefSpec", "RuntimeFailure",
           "InputError", "descriptor_type", "runtime_symbols", "as_array", "match_inputs",
           "describe", "plural"]


class RuntimeFailure(StrataError, RuntimeError):
    """A run-time check inside compiled code failed."""


class InputError(StrataError, ValueError):
    """Inputs that do not match the compiled function's signature."""


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

    @property
    def words(self) -> int:
        """int64 words of its descriptor."""
        return 3 + 2 * len(self.shape)

    def shape_text(self) -> str:
        return "(" + ", ".join("?" if d is None else str(d) for d in self.shape) + \
            ("," if len(self.shape) == 1 else "") + ")"

    def __repr__(self):
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"MemRefSpec({dims}{'x' if dims else ''}{self.dtype})"


class Signature:
    __slots__ = ("args", "results")

    def __init__(self, args, results):
        self.args = list(args)
        self.results = list(results)


# ---------------------------------------------------------------- run-time errors


class _State(threading.local):
    failures = None  # messages of failed run-time checks in this thread's current call


_state = _State()
# Failures reported from threads Python did not start (the compiled code's own worker
# threads): taken by the next call to return, which is the failing one unless calls run
# in several Python threads at once.
_orphans: list = []
_Foreign = getattr(threading, "_DummyThread", ())


def _assert_fail(message):
    _record(message.decode("utf-8", "replace") if message else "assertion failed")


def _assert_fail_values(message, values):
    """A failed check reporting the values it compared ([Note: failed checks report
    their values] in dialects/cf.py)."""
    from ..dialects.cf import failed_check_message
    text = message.decode("utf-8", "replace") if message else "assertion failed"
    n = 3 * (text.partition("\x1e")[2].count("\x1f") + 1)
    _record(failed_check_message(text, [values[k] for k in range(n)]))


def _record(text):
    """Record a failure message for the call running in this thread; one from a thread
    Python did not start (a pool worker) is an orphan (see below)."""
    if isinstance(threading.current_thread(), _Foreign):
        if len(_orphans) < 8:
            _orphans.append(text)
        return
    msgs = _state.failures
    if msgs is None:
        msgs = _state.failures = []
    if len(msgs) < 8:
        msgs.append(text)


def _oom_report(nbytes, what, node):
    """A failed allocation (see [Note: failed allocations] in backends/cpu/guard.py):
    recorded like a failed check; the native side then unwinds."""
    from ..backends.cpu.guard import oom_message
    _record(oom_message(nbytes, what.decode("utf-8", "replace") if what else "a buffer",
                        node.decode("utf-8", "replace") if node else None))


def _take_failures():
    """The failures reported during the call that just returned in this thread."""
    msgs = _state.failures or []
    _state.failures = None
    if _orphans:
        msgs = msgs + _orphans[:]
        del _orphans[:]
    return msgs


_ASSERT_FAIL_T = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
_assert_fail_c = _ASSERT_FAIL_T(_assert_fail)
_ASSERT_FAIL_VALUES_T = ctypes.CFUNCTYPE(None, ctypes.c_char_p,
                                         ctypes.POINTER(ctypes.c_int64))
_assert_fail_values_c = _ASSERT_FAIL_VALUES_T(_assert_fail_values)
_OOM_REPORT_T = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_char_p, ctypes.c_char_p)
_oom_report_c = _OOM_REPORT_T(_oom_report)


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
        _SYMBOLS["strata_assert_fail_values"] = ctypes.cast(_assert_fail_values_c,
                                                            ctypes.c_void_p).value
        _SYMBOLS["strata_oom_report"] = ctypes.cast(_oom_report_c, ctypes.c_void_p).value
        try:
            libgcc = ctypes.CDLL("libgcc_s.so.1")
        except OSError:
            libgcc = None
        for name in _LIBGCC_HELPERS:
            fn = getattr(libgcc, name, None) if libgcc is not None else None
            if fn is not None:
                _SYMBOLS[name] = ctypes.cast(fn, ctypes.c_void_p).value
    return dict(_SYMBOLS)


# ---------------------------------------------------------------- inputs

_ndarray = np.ndarray

# DLPack device types (dlpack.h) whose memory the CPU reads.
_DL_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
               9: "vpi", 10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed",
               14: "oneapi", 15: "webgpu", 16: "hexagon", 17: "maia"}
_DL_HOST = frozenset((1, 3, 11, 13))


def _import_fast(value):
    """`value` as a NumPy array when that is free of doubt: a NumPy scalar, or a DLPack
    object on the CPU that NumPy imports (None otherwise: `as_array` explains)."""
    if isinstance(value, np.generic):
        return np.asarray(value)
    torch = sys.modules.get("torch")
    if torch is not None and type(value) is torch.Tensor:
        try:  # the same sharing as DLPack, at a fifth of the cost of torch's __dlpack__
            return value.numpy()
        except Exception:
            pass  # requires grad, not on the CPU, a dtype NumPy lacks: DLPack says
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except Exception:
            return None
    return None


def _from_dlpack(value, dtype, what):
    """A NumPy array sharing `value`'s memory (DLPack), or an InputError saying why not."""
    kind = type(value).__name__
    try:
        dev = value.__dlpack_device__()
        dev_type = int(dev[0])
    except Exception:
        dev, dev_type = None, 1
    if dev_type not in _DL_HOST:
        name = _DL_DEVICES.get(dev_type, f"device type {dev_type}")
        raise InputError(f"{what}: the {kind} is on DLPack device {name}:{int(dev[1])}; "
                         "compiled code reads host memory (move it to the CPU first, "
                         "e.g. .cpu())")
    try:
        return np.from_dlpack(value)
    except Exception as e:  # BufferError, RuntimeError, TypeError: NumPy's reasons
        bits = _torch_bits(value, dtype)
        if bits is None:
            bits = _torch_resolved(value)
        if bits is not None:
            return bits
        why = str(e) or type(e).__name__
        elem = getattr(value, "dtype", None)
        of = f" of dtype {elem}" if elem is not None else ""
        raise InputError(f"{what}: cannot import the {kind}{of} through DLPack: "
                         f"{why}") from None


def _torch_resolved(value):
    """A PyTorch tensor with its conjugate or negative bit set (`z.conj()`, a lazy view
    that neither DLPack nor `numpy()` exports) as an array of its values (a copy, as
    `resolve_conj()` makes it); else None."""
    if type(value).__module__.partition(".")[0] != "torch":
        return None
    try:
        if not (value.is_conj() or value.is_neg()):
            return None
        return value.detach().resolve_conj().resolve_neg().numpy()
    except Exception:
        return None


def _torch_bits(value, dtype):
    """A PyTorch tensor of a type NumPy lacks (bfloat16, float8_*) as its bits, viewed as
    `dtype` where that is the ml_dtypes type of the same name; else None."""
    if dtype is None or dtype.isbuiltin == 1 or \
            type(value).__module__.partition(".")[0] != "torch" or \
            str(getattr(value, "dtype", "")) != "torch." + dtype.name:
        return None
    torch = sys.modules["torch"]
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32}.get(dtype.itemsize)
    try:
        return np.from_dlpack(value.view(ints)).view(dtype) if ints is not None else None
    except Exception:
        return None


def as_array(value, dtype=None, what="input") -> np.ndarray:
    """`value` as a NumPy array, shared where it can be (see [Note: inputs]): an array as
    is (in native byte order), a DLPack object imported, Python numbers and lists
    converted to `dtype` (when given). Raises InputError naming `what` for what cannot be
    an array (see [Note: input messages]); the caller checks dtype and shape."""
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, _ndarray):
        a = value
    elif hasattr(value, "__dlpack__"):
        a = _from_dlpack(value, dtype, what)
    elif isinstance(value, (bool, int, float, complex, str, list, tuple)):
        a = _from_python(value, dtype, what)
    elif value is not None and (hasattr(value, "__array__") or
                                hasattr(value, "__array_interface__")):
        try:
            a = np.asarray(value)
        except Exception as e:
            raise InputError(f"{what}: cannot convert {describe(value)} to an "
                             f"array: {e}") from None
    else:
        raise InputError(f"{what}: expected an array (NumPy, DLPack) or numbers, got "
                         f"{describe(value)}")
    if dtype is not None and a.dtype != dtype and a.dtype.byteorder in "<>" and \
            a.dtype.newbyteorder("=") == dtype:
        a = a.astype(dtype)
    return a


def _from_python(value, dtype, what):
    """Python numbers (or strings, for string inputs) and nested lists as an array of
    `dtype`: exact conversions only (no float truncated to an integer, no number parsed
    from a string, no integer out of range)."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as e:
        ragged = _ragged(value)  # (walked only to explain a failure)
        if ragged is not None:
            raise InputError(f"{what}: expected a rectangular array, got a ragged "
                             f"{type(value).__name__} ({ragged})") from None
        raise InputError(f"{what}: cannot convert {describe(value)} to an array: "
                         f"{e}") from None
    if dtype is not None and dtype.kind != "O":
        if a.dtype.kind in "USO" or (dtype.kind in "biu" and a.dtype.kind in "fc") or \
                (a.dtype.kind == "c" and dtype.kind != "c"):
            raise InputError(f"{what}: expected {dtype} values, got "
                             f"{_misfit(value, dtype)}")
        try:
            a = np.asarray(value, dtype=dtype)
        except (TypeError, ValueError, OverflowError) as e:
            raise InputError(f"{what}: cannot convert {describe(value)} to an array of "
                             f"{dtype}: {e}") from None
    elif dtype is not None:
        a = np.asarray(value, dtype=dtype)
    return a


# [Note: input messages]
# An input that cannot be what the signature asks says what was passed, by its type and,
# inside nested lists, by where: "got None", "got a dict", "got an object of type
# mod.Thing", "got a str ('abc')", "got a list holding a str ('a') at [1]", "got a ragged
# list ([0] has 2 items, [1] has 1)", "got a Python complex ((1+2j))", "got a 0-d float32
# array" where a tensor of shape (2,) is expected. Counts are singular for one:
# "takes 1 input".

_TYPE_TEXT = {bool: "a Python bool", int: "a Python int", float: "a Python float",
              complex: "a Python complex", str: "a str", bytes: "a bytes object",
              list: "a list", tuple: "a tuple", dict: "a dict", set: "a set",
              frozenset: "a frozenset"}


def plural(n: int, noun: str) -> str:
    """`1 input`, `2 inputs`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def dtype_text(d) -> str:
    """A dtype for a message: `float32`, `str` (not `<U1`), `bytes`, `object`."""
    return {"U": "str", "S": "bytes", "O": "object"}.get(d.kind, str(d))


def describe(value) -> str:
    """What `value` is, for a message (see [Note: input messages])."""
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"a {value.ndim}-d {dtype_text(value.dtype)} array"
    if isinstance(value, np.generic):
        return f"a NumPy {dtype_text(value.dtype)} scalar"
    t = type(value)
    text = _TYPE_TEXT.get(t)
    if text is not None:
        return text
    if t.__module__ == "builtins":
        name = t.__qualname__
        return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"
    name = f"{t.__module__}.{t.__qualname__}"
    shape = getattr(value, "shape", None) if _array_like(value) else None
    if isinstance(shape, tuple) or type(shape).__name__ == "Size":  # (torch.Size)
        return f"a {len(shape)}-d {name}"
    return f"an object of type {name}"


def _array_like(value) -> bool:
    return hasattr(value, "__dlpack__") or hasattr(value, "__array__") or \
        hasattr(value, "__array_interface__")


def _misfit(value, dtype) -> str:
    """The first element of `value` (a Python value or nested lists) that is no `dtype`
    value, described with where it lies."""
    def bad(x):
        if isinstance(x, (str, bytes)) or x is None:
            return True
        if isinstance(x, complex):
            return dtype.kind != "c"
        if isinstance(x, float):
            return dtype.kind in "biu"
        return not isinstance(x, (bool, int, np.number, np.bool_))
    stack = [(value, "")]
    while stack:
        x, at = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend((y, f"{at}[{i}]") for i, y in reversed(list(enumerate(x))))
        elif bad(x):
            shown = f" ({_short_repr(x)})" if isinstance(x, (str, bytes, complex, float)) \
                else ""
            if not at:
                return f"{describe(x)}{shown}"
            return f"{describe(value)} holding {describe(x)}{shown} at {at}"
    return describe(value)


def _short_repr(x) -> str:
    r = repr(x)
    return r if len(r) <= 40 else r[:37] + "..."


def _ragged(value):
    """Where nested lists `value` are not rectangular ("[0] has 2 items, [1] has 1"),
    or None."""
    def at(path):
        return "".join(f"[{i}]" for i in path) or "the value"
    level = [(value, ())]
    while level:
        seqs = [isinstance(x, (list, tuple)) for x, _ in level]
        if not any(seqs):
            return None
        if not all(seqs):
            i, j = seqs.index(True), seqs.index(False)
            (x, p), (y, q) = level[i], level[j]
            return f"{at(p)} is {describe(x)}, {at(q)} is {describe(y)}"
        n0 = len(level[0][0])
        for x, p in level[1:]:
            if len(x) != n0:
                return f"{at(level[0][1])} has {plural(n0, 'item')}, {at(p)} has {len(x)}"
        level = [(y, p + (i,)) for x, p in level for i, y in enumerate(x)]
    return None


def got_shape(a, given) -> str:
    """The shape of array `a`, converted from what the caller `given`, for a message:
    "(2, 4)", "a list of shape (3,)", "a Python float", "a 0-d float32 array"."""
    if a.ndim == 0:
        return describe(given)
    if isinstance(given, np.ndarray) or _array_like(given):
        return str(tuple(a.shape))
    return f"{describe(given)} of shape {tuple(a.shape)}"


def input_spec(dtype, shape):
    """The checks `match_inputs` makes for an array input: (dtype, the shape if static,
    rank, ((dim, size) of the static dims)); `shape` has None for dynamic dims."""
    shape = tuple(shape)
    static = tuple((d, n) for d, n in enumerate(shape) if n is not None)
    return (np.dtype(dtype), shape if len(static) == len(shape) else None, len(shape),
            static)


def match_inputs(values, specs, groups):
    """The values as a list of arrays when each one already fits its spec exactly
    (`input_spec`; a DLPack object is imported) and the dynamic dims of each group
    [((input, dim), ...)] agree; else None (the caller's slow path converts or explains).
    `values` has the right count."""
    arrays = None
    i = 0
    for v, s in zip(values, specs):
        if type(v) is not _ndarray:
            v = _import_fast(v)
            if v is None:
                return None
            if arrays is None:
                arrays = list(values)
            arrays[i] = v
        i += 1
        if s is None:
            return None
        dtype, shape, rank, static = s
        if v.dtype is not dtype and v.dtype != dtype:
            return None
        if shape is not None:
            if v.shape != shape:
                return None
        else:
            sh = v.shape
            if len(sh) != rank:
                return None
            for d, n in static:
                if sh[d] != n:
                    return None
    if arrays is None:
        arrays = list(values)
    for group in groups:
        (i0, d0), rest = group[0], group[1:]
        n = arrays[i0].shape[d0]
        for i, d in rest:
            if arrays[i].shape[d] != n:
                return None
    return arrays


def _probe_data_offset():
    """Where a NumPy array object holds its data pointer (`PyArrayObject_fields.data`,
    right after the object header), found and checked on a few arrays: reading it there
    costs a tenth of `a.ctypes.data`. None where it is not (not CPython...)."""
    if sys.implementation.name != "cpython":
        return None
    base = np.arange(16.0)
    probes = (base, base[3:], base.reshape(4, 4)[1:, ::2], np.zeros((), np.int8))
    for off in (16, 8, 24, 32):
        if all(ctypes.c_void_p.from_address(id(a) + off).value == a.ctypes.data
               for a in probes):
            return off
    return None


_DATA_OFFSET = _probe_data_offset()


def _data_ptr(a) -> int:
    if _DATA_OFFSET is None:
        return a.ctypes.data
    return _read_ptr(id(a) + _DATA_OFFSET).value or 0


_read_ptr = ctypes.c_void_p.from_address


# ---------------------------------------------------------------- outputs

# memref.get_global's descriptors carry this as their allocated pointer (as upstream).
_GLOBAL_MARKER = 0xDEADBEEF

_libc = ctypes.CDLL(None)
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None


class _OwnedBlock(ctypes.c_char * (1 << 62)):
    """A malloc'd block the compiled code returned, made at its address (`from_address`,
    no copy) and seen by NumPy through the buffer protocol as the base of the output
    arrays over it; freed when the last of them goes away. Its ctypes length is a bound,
    not the block's size: only the arrays made over it say which bytes are used."""

    __slots__ = ()

    def __del__(self, _free=_free, _addressof=ctypes.addressof):
        _free(_addressof(self))


class _ForeignBlock(ctypes.c_char * (1 << 62)):
    """Memory the runtime does not own (an input, a weight, another output's block)."""

    __slots__ = ()


def _row_major(shape):
    """Strides in elements of a row-major array of `shape`."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return strides[::-1]


# ---------------------------------------------------------------- entry points

# How a NativeFunction passes an argument: by value (a scalar), or a memref descriptor
# whose sizes and strides are written once (a static shape), all but the leading size
# written once (only the leading dim dynamic, as a batch: the strides are static), or
# sizes and strides written per call (other dynamic shapes).
_SCALAR, _STATIC, _LEADING, _DYNAMIC = 0, 1, 2, 3


def _static_strides(shape):
    """The row-major strides (in elements) of `shape` when its static dims fix them:
    every dim but the leading one static; else None."""
    if not shape:
        return []
    if any(n is None for n in shape[1:]):
        return None
    return _row_major((1,) + tuple(shape[1:]))


class NativeFunction:
    """One entry point: `f(*arrays) -> list of arrays` (see the module notes)."""

    # A NativeModule's functions return arrays owning their buffers (CompiledModel relies
    # on it to give them to the caller as they are).
    owns_outputs = True

    def __init__(self, owner, name: str, address: int, signature: Signature):
        self._owner = owner  # keeps the JIT (code and weights) alive
        self.name = name
        self.signature = signature
        args, results = signature.args, signature.results
        self._arg_types = [s.ctype for s in args]
        self._res_types = [s.ctype for s in results]
        # Upstream's C interface: one scalar result is returned; one memref result or
        # several results are written through a pointer passed first.
        restype = None
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
        params = [ctypes.c_void_p] if self._result_struct is not None else []
        params += [t if s.scalar else ctypes.c_void_p for s, t in zip(args, self._arg_types)]
        self._cfunc = ctypes.CFUNCTYPE(restype, *params)(address)

        # Arguments: checks and where each descriptor lies in the argument block.
        self._specs = tuple(None if s.scalar else input_spec(s.dtype, s.shape)
                            for s in args)
        groups: dict[str, list] = {}
        for i, s in enumerate(args):
            for d, (size, dim) in enumerate(zip(s.shape, s.dims)):
                if size is None and dim:
                    groups.setdefault(dim, []).append((i, d))
        self._dim_groups = [g for g in groups.items() if len(g[1]) > 1]
        self._groups = tuple(tuple(m) for _, m in self._dim_groups)
        layout, static_words, word = [], [], 0
        for s, t in zip(args, self._arg_types):
            if s.scalar:
                layout.append((_SCALAR, 0, t, None, 0))
                continue
            item = s.dtype.itemsize
            # Misaligned data is copied; elements wider than 16 bytes need no more.
            mask = min(item, 16) - 1 if item & (item - 1) == 0 else 0
            strides = _static_strides(s.shape)
            if strides is None:
                layout.append((_DYNAMIC, word, mask, None, s.rank))
            else:
                kind = _LEADING if s.shape and s.shape[0] is None else _STATIC
                sizes = [0 if n is None else n for n in s.shape]
                static_words.append((word + 3, sizes + strides))
                # (the byte strides of a C-contiguous array, but for dims of size <= 1)
                layout.append((kind, word, mask, tuple(x * item for x in strides), s.rank))
            word += s.words
        self._layout = tuple(layout)
        self._arg_words = word
        self._static_words = tuple(static_words)

        # Results: where each memref descriptor (or scalar) lies in the result block.
        outs, res_words = [], 0
        for i, s in enumerate(results):
            if self._scalar_result:
                outs.append((True, s.dtype, 0, 0, None))
                continue
            if len(results) == 1:
                start = 0
            else:
                start = getattr(self._result_struct, f"r{i}").offset
            if s.scalar:
                outs.append((True, s.dtype, start, 0, s.ctype))
                continue
            outs.append((False, s.dtype, start // 8, s.rank, _static_strides(s.shape)))
        if self._result_struct is not None:
            res_words = (ctypes.sizeof(self._result_struct) + 7) // 8
        self._outs = tuple(outs)
        self._res_words = res_words
        self._pool: list = []  # free per-call states (see [Note: the cost of a call])

    # ------------------------------------------------------------ per-call state

    def _new_state(self):
        """Preallocated blocks of one call in flight: (argument words, result words,
        int64 view of the result words, C parameters)."""
        args = (ctypes.c_int64 * max(self._arg_words, 1))()
        for at, values in self._static_words:
            args[at:at + len(values)] = values
        base = ctypes.addressof(args)
        params = []
        res = view = None
        if self._res_words:
            res = (ctypes.c_int64 * self._res_words)()
            view = np.frombuffer(res, np.int64)
            params.append(ctypes.addressof(res))
        params += [None if kind == _SCALAR else base + 8 * word
                   for kind, word, _, _, _ in self._layout]
        return args, res, view, params

    # ------------------------------------------------------------ checks

    def _check(self, values):
        """The arguments as arrays fitting the signature, or a StrataError."""
        if len(values) != len(self._specs):
            raise InputError(f"@{self.name} takes {plural(len(self._specs), 'input')}, "
                             f"got {len(values)}")
        arrays = match_inputs(values, self._specs, self._groups)
        return arrays if arrays is not None else self._check_slow(values)

    def _check_slow(self, values):
        out = []
        for i, (v, s) in enumerate(zip(values, self.signature.args)):
            what = f"input #{i} of @{self.name}"
            a = as_array(v, s.dtype, what)
            if s.scalar:
                if a.dtype != s.dtype or a.ndim:
                    raise InputError(f"{what}: expected a scalar of dtype {s.dtype}, got "
                                     f"{describe(a) if a.ndim else describe(v)}")
                out.append(a)
                continue
            if a.dtype != s.dtype:
                raise InputError(f"{what}: expected dtype {s.dtype}, got "
                                 f"{dtype_text(a.dtype)}")
            if a.ndim != s.rank or any(d is not None and d != n
                                       for d, n in zip(s.shape, a.shape)):
                raise InputError(f"{what}: expected shape {s.shape_text()}, got "
                                 f"{got_shape(a, v)}")
            out.append(a)
        for name, members in self._dim_groups:
            sizes = {out[i].shape[d] for i, d in members}
            if len(sizes) > 1:
                where = ", ".join(f"input #{i} dim {d} = {out[i].shape[d]}"
                                  for i, d in members)
                raise InputError(f"@{self.name}: dynamic dim '{name}' differs between "
                                 f"inputs ({where})")
        return out

    # ------------------------------------------------------------ calls

    def __call__(self, *values):
        """Check the arguments against the signature, then `run`."""
        return self.run(*self._check(values))

    def run(self, *arrays):
        """The native call on arguments already known to fit the signature (dtypes,
        shapes: see `_check`); only the layout is made right here (contiguous, aligned
        copies where needed)."""
        pool = self._pool
        try:
            state = pool.pop()
        except IndexError:
            state = self._new_state()
        try:
            return self._run(state, arrays)
        finally:
            pool.append(state)

    def _run(self, state, arrays):
        words, _, view, params = state
        read_ptr, offset = _read_ptr, _DATA_OFFSET
        ptrs = []
        keep = None  # copies made for the layout, alive until the call returns
        j = 1 if view is not None else 0
        for a, (kind, word, aux, strides, rank) in zip(arrays, self._layout):
            if kind == _SCALAR:  # aux: its ctypes type
                params[j] = aux(a[()] if type(a) is _ndarray or
                                isinstance(a, np.generic) else a)
                j += 1
                continue
            if type(a) is not _ndarray:
                a = np.asarray(a)
            if kind != _DYNAMIC:
                if a.strides != strides and not a.flags.c_contiguous:
                    a = np.ascontiguousarray(a)
                    keep = (keep or []) + [a]
            elif not a.flags.c_contiguous:
                a = np.ascontiguousarray(a)
                keep = (keep or []) + [a]
            ptr = read_ptr(id(a) + offset).value if offset is not None else a.ctypes.data
            if ptr & aux:  # aux: the alignment mask
                a = a.copy()
                keep = (keep or []) + [a]
                ptr = _data_ptr(a)
            words[word] = ptr
            words[word + 1] = ptr
            if kind == _LEADING:
                words[word + 3] = a.shape[0]
            elif kind == _DYNAMIC:
                sh = a.shape
                words[word + 3:word + 3 + 2 * rank] = sh + tuple(_row_major(sh))
            ptrs.append(ptr)
            j += 1
        if self._scalar_result:
            res = [self._cfunc(*params)]
        else:
            self._cfunc(*params)
            res = view.tolist() if view is not None else None
        if _state.failures or _orphans:
            # the results are unspecified, or zeroed when the call was cut short (a failed
            # allocation): only the blocks they own are freed
            if res is not None and not self._scalar_result:
                self._discard(res, ptrs)
            raise RuntimeFailure(f"@{self.name}: run-time check failed: "
                                 f"{_take_failures()[0]}")
        # (`keep` lives on: an output aliasing a copied input is copied from it)
        return self._outputs(res, ptrs, state)

    def _discard(self, w, inputs):
        """Free the blocks the result descriptors (words `w`) own, making no array."""
        is_static = self._owner.is_static
        freed = set()
        for scalar, _, at, _, _ in self._outs:
            if scalar:
                continue
            alloc = w[at]
            if alloc and alloc not in inputs and alloc != _GLOBAL_MARKER and \
                    not is_static(alloc) and alloc not in freed:
                freed.add(alloc)
                _free(alloc)

    def _outputs(self, w, inputs, state):
        """Arrays over the result descriptors (words `w`): each owns its block unless the
        block is not the function's own (see [Note: outputs])."""
        out = []
        owned = None
        is_static = self._owner.is_static
        for scalar, dtype, at, rank, aux in self._outs:
            if scalar:  # aux: its ctypes type in the result struct, or None
                if aux is None:  # the only result, returned by value
                    v = w[0]
                else:
                    v = aux.from_buffer(state[1], at).value
                out.append(np.array(v, dtype=dtype)[()])
                continue
            # aux: the row-major strides where the static dims fix them
            alloc, data, offset = w[at], w[at + 1], w[at + 2]
            item = dtype.itemsize
            shape = tuple(w[at + 3:at + 3 + rank])
            strides = w[at + 3 + rank:at + 3 + 2 * rank]
            if strides == (aux if aux is not None else _row_major(shape)):
                strides = None
            else:
                strides = tuple(x * item for x in strides)
            if not alloc or alloc in inputs or alloc == _GLOBAL_MARKER or \
                    is_static(alloc) or (owned and alloc in owned):
                # Not a block of its own (the contract says it must be): copy, never free.
                block = _ForeignBlock.from_address(data + offset * item)
                out.append(np.ndarray(shape, dtype, block, 0, strides).copy())
                continue
            block = _OwnedBlock.from_address(alloc)
            if owned is None:
                owned = set()
            owned.add(alloc)
            out.append(np.ndarray(shape, dtype, block, data - alloc + offset * item, strides))
        return out


class NativeModule:
    """A compiled module in this process: the JIT'd code (anything with
    `address_of(symbol)`), the weights it reads (kept alive here) and its entry points."""

    def __init__(self, jit, signatures: dict[str, Signature], weights=None):
        self.jit = jit
        self.weights = dict(weights or {})
        spans = sorted((a.ctypes.data, a.ctypes.data + max(a.nbytes, 1))
                       for a in self.weights.values())
        self._static_lo = [lo for lo, _ in spans]
        # The furthest end among the spans starting at or before each one (they may nest).
        self._static_hi, hi = [], 0
        for _, end in spans:
            hi = max(hi, end)
            self._static_hi.append(hi)
        self._functions = {name: NativeFunction(self, name,
                                                jit.address_of("_mlir_ciface_" + name), sig)
                           for name, sig in signatures.items()}

    def is_static(self, address: int) -> bool:
        """Whether `address` lies in a weight buffer (never freed by the runtime)."""
        if not self._static_lo:
            return False
        i = bisect_right(self._static_lo, address) - 1
        return i >= 0 and address < self._static_hi[i]

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
