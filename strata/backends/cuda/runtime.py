"""The CUDA driver API through ctypes on libcuda.so.1 (no CUDA toolkit needed), and a
compiled model running on it.

    drv = driver()                            # StrataError (one line) if no driver/GPU
    model = CudaModel(drv, program, "main")   # PTX loaded (driver JIT), weights uploaded
    y, = model.run(x)                         # NumPy in; DeviceArray out
    y.numpy()                                 # copied to the host

[Note: no driver]
`driver()` loads libcuda.so.1 ($STRATA_LIBCUDA names another file), calls cuInit and
counts the devices; what is missing (the library, a device, a working driver) is one
StrataError line, so `strata.compile(model, target="cuda")` on a machine without a GPU
says so instead of a traceback. Compiling ahead of time (CudaTarget.build) needs none of
it.

[Note: the model on the device]
A CudaModel holds a context (device 0's primary context), a stream of its own, the
loaded modules (cuModuleLoadData of the PTX: the driver JIT-compiles it for the device),
the kernels' function handles, and the weights, uploaded once. Buffers come from a pool
kept by byte size: a buffer the plan frees (memref.dealloc), an input's copy after the
call, an output whose DeviceArray is collected all go back to it, so a second call of
the same shapes allocates nothing. The host function runs as native code (host.py, [Note: the host runtime shim]; its
buffers from the device's stream-ordered pool, cuMemAllocAsync, the pool keeping freed
memory) when the driver has that allocator and the host function only computes sizes
and addresses; else the launch plan runs it in Python (plan.py; `CudaModel.fallback`
says why, STRATA_CUDA_HOST=plan forces it). Launches are asynchronous on the model's stream; a
call synchronizes once, at its end, and a failure there (or at a launch) is a
RuntimeFailure naming the kernel and the op it came from; the model stays usable.

[Note: CUDA graphs]
With `cuda_graphs=True` (strata.compile(model, target="cuda", cuda_graphs=True)) the
native host code's launch sequence is captured once per input shapes (stream capture,
cuGraphInstantiateWithFlags with auto-free-on-launch) and replayed with cuGraphLaunch:
a call copies its inputs into the buffers the graph reads, launches the graph and copies
each result out of the graph's memory into a buffer of its own (the next launch frees
the graph's). Other input shapes: the graph is dropped and the new shapes captured. Not
for a host that reads device values back (a synchronization, not allowed while
capturing) nor without the native host code: then calls run as without graphs
(`CudaModel.graph_fallback` says why).

[Note: producer streams]
An input on the device whose `__cuda_array_interface__` names a stream (version 3: 1 the
legacy default stream, 2 the per-thread one, else a CUstream; torch names the stream
that wrote the tensor) may still be being written there: the model's own stream is a
non-blocking one, which does not wait for the legacy default stream, so the call
synchronizes that stream before it reads the input. No stream named: nothing to wait
for (the producer says the data is ready).

[Note: strided outputs]
The compiled code may return a view: a slice with steps, a transpose folded into a
layout, an empty slice. The call hands out a row-major copy of it in a buffer of its own
(never the view: it may alias an input or a weight, which the caller could then write
through): the view's contiguous runs copied device to device, one copy each (a slice of
rows is a few), or past _MAX_RUNS runs (a transpose: one element each) its span read to
the host once, the elements picked there and the result uploaded. Empty: nothing to
copy. The graph path copies its results out the same way.

[Note: outputs on the device]
Outputs are DeviceArrays: shape, dtype, `__cuda_array_interface__` (version 3; the call
that made them has synchronized, so no stream is named) and `__dlpack__`/`__dlpack_device__` (kDLCUDA), so torch.as_tensor /
torch.from_dlpack take them without a copy; `.numpy()` copies to the host.
"""
from __future__ import annotations

import ctypes
import math
import os
import threading
import weakref

import numpy as np

from ...errors import StrataError
from ...runtime import InputError, RuntimeFailure
from .plan import DeviceRef, pack_arguments, row_major

__all__ = ["driver", "device_arch", "CudaDriver", "CudaModel", "DeviceArray", "CudaError",
           "DriverMissing"]

CUDA_SUCCESS = 0
CUDA_ERROR_OUT_OF_MEMORY = 2
CUDA_ERROR_NO_DEVICE = 100
_ATTR_CC_MAJOR, _ATTR_CC_MINOR = 75, 76
_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9
_LOCK = threading.Lock()
_DRIVER: list = []


class DriverMissing(StrataError):
    """No usable CUDA driver or device (see [Note: no driver])."""


class CudaError(StrataError):
    """A CUDA driver call failed."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class CudaDriver:
    """The driver API functions Strata uses, on a loaded libcuda (`lib`)."""

    def __init__(self, lib):
        self.lib = lib
        for name, argtypes in _SIGNATURES.items():
            f = getattr(lib, _VERSIONED.get(name, name), None) or getattr(lib, name, None)
            if f is None and (name in _OPTIONAL or name in _GRAPHS):
                continue     # (an older driver, a test's fake: the launch plan runs)
            if f is None:
                raise AttributeError(name)
            f.restype = ctypes.c_int
            f.argtypes = argtypes
            setattr(self, name, f)

    def has(self, *names) -> bool:
        return all(hasattr(self, n) for n in names)

    def address(self, name) -> int:
        """The C address of driver function `name` (what the native host code calls,
        host.py's [Note: the host runtime shim]); a Python function (a test's fake)
        gets a C thunk, kept alive by the driver."""
        f = getattr(self, name)
        if isinstance(f, ctypes._CFuncPtr):
            return ctypes.cast(f, ctypes.c_void_p).value
        thunks = self.__dict__.setdefault("_thunks", {})
        if name not in thunks:
            thunks[name] = ctypes.CFUNCTYPE(ctypes.c_int, *_SIGNATURES[name])(f)
        return ctypes.cast(thunks[name], ctypes.c_void_p).value

    def check(self, code, what):
        if code != CUDA_SUCCESS:
            raise CudaError(f"{what}: {self.error_text(code)}", code)

    def error_text(self, code) -> str:
        name = ctypes.c_char_p()
        text = ctypes.c_char_p()
        self.lib.cuGetErrorName(code, ctypes.byref(name))
        self.lib.cuGetErrorString(code, ctypes.byref(text))
        n = name.value.decode() if name.value else f"CUDA error {code}"
        t = text.value.decode() if text.value else ""
        return f"{n} ({t})" if t else n

    def device_count(self) -> int:
        n = ctypes.c_int()
        self.check(self.cuDeviceGetCount(ctypes.byref(n)), "cuDeviceGetCount")
        return n.value

    def device(self, ordinal=0):
        d = ctypes.c_int()
        self.check(self.cuDeviceGet(ctypes.byref(d), ordinal), "cuDeviceGet")
        return d.value

    def device_arch(self, ordinal=0) -> str:
        dev = self.device(ordinal)
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.check(self.cuDeviceGetAttribute(ctypes.byref(major), _ATTR_CC_MAJOR, dev),
                   "cuDeviceGetAttribute")
        self.check(self.cuDeviceGetAttribute(ctypes.byref(minor), _ATTR_CC_MINOR, dev),
                   "cuDeviceGetAttribute")
        return f"sm_{major.value}{minor.value}"


_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_SIGNATURES = {
    "cuInit": [ctypes.c_uint],
    "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
    "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
    "cuDeviceGetAttribute": [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int],
    "cuDevicePrimaryCtxRetain": [_PP, ctypes.c_int],
    "cuCtxPushCurrent": [_P],
    "cuCtxPopCurrent": [_PP],
    "cuStreamCreate": [_PP, ctypes.c_uint],
    "cuStreamSynchronize": [_P],
    "cuStreamDestroy": [_P],
    "cuModuleLoadDataEx": [_PP, ctypes.c_char_p, ctypes.c_uint, _P, _P],
    "cuModuleGetFunction": [_PP, _P, ctypes.c_char_p],
    "cuModuleUnload": [_P],
    "cuMemAlloc": [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t],
    "cuMemFree": [ctypes.c_uint64],
    "cuMemcpyHtoDAsync": [ctypes.c_uint64, _P, ctypes.c_size_t, _P],
    "cuMemcpyDtoHAsync": [_P, ctypes.c_uint64, ctypes.c_size_t, _P],
    "cuMemcpyDtoDAsync": [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_size_t, _P],
    "cuLaunchKernel": [_P, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, _P, _P, _P],
    "cuPointerGetAttribute": [_P, ctypes.c_int, ctypes.c_uint64],
    "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuGetErrorString": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    # the stream-ordered allocator the native host code allocates from (CUDA 11.2+)
    "cuMemAllocAsync": [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t, _P],
    "cuMemFreeAsync": [ctypes.c_uint64, _P],
    "cuDeviceGetDefaultMemPool": [_PP, ctypes.c_int],
    "cuMemPoolSetAttribute": [_P, ctypes.c_int, _P],
}
_SIGNATURES.update({
    "cuStreamBeginCapture": [_P, ctypes.c_int],
    "cuStreamEndCapture": [_P, _PP],
    "cuGraphInstantiateWithFlags": [_PP, _P, ctypes.c_ulonglong],
    "cuGraphLaunch": [_P, _P],
    "cuGraphExecDestroy": [_P],
    "cuGraphDestroy": [_P],
})
# Without these the launch plan runs the host function (plan.py).
_OPTIONAL = frozenset({"cuMemAllocAsync", "cuMemFreeAsync", "cuDeviceGetDefaultMemPool",
                       "cuMemPoolSetAttribute"})
# Without these cuda_graphs=True launches as without it.
_GRAPHS = ("cuStreamBeginCapture", "cuStreamEndCapture", "cuGraphInstantiateWithFlags",
           "cuGraphLaunch", "cuGraphExecDestroy", "cuGraphDestroy")
_CAPTURE_MODE_THREAD_LOCAL = 1
_GRAPH_AUTO_FREE_ON_LAUNCH = 1
_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4
# The _v2 entry points (64-bit device pointers) behind the plain names.
_VERSIONED = {"cuMemAlloc": "cuMemAlloc_v2", "cuMemFree": "cuMemFree_v2",
              "cuMemcpyHtoDAsync": "cuMemcpyHtoDAsync_v2",
              "cuMemcpyDtoHAsync": "cuMemcpyDtoHAsync_v2",
              "cuMemcpyDtoDAsync": "cuMemcpyDtoDAsync_v2",
              "cuStreamDestroy": "cuStreamDestroy_v2", "cuCtxPopCurrent": "cuCtxPopCurrent_v2",
              "cuCtxPushCurrent": "cuCtxPushCurrent_v2",
              "cuStreamBeginCapture": "cuStreamBeginCapture_v2"}


def _load_library():
    name = os.environ.get("STRATA_LIBCUDA") or "libcuda.so.1"
    try:
        return ctypes.CDLL(name)
    except OSError:
        raise DriverMissing(f"the cuda target needs an NVIDIA driver: {name} was not found "
                            "(no GPU driver installed on this machine)") from None


def driver() -> CudaDriver:
    """The initialized driver, once per process; DriverMissing if there is no driver or
    no device (see [Note: no driver])."""
    with _LOCK:
        if _DRIVER:
            return _DRIVER[0]
        lib = _load_library()
        try:
            drv = CudaDriver(lib)
        except AttributeError as e:
            raise DriverMissing(f"the CUDA driver library lacks {e}; update the NVIDIA "
                                "driver") from None
        code = drv.cuInit(0)
        if code == CUDA_ERROR_NO_DEVICE:
            raise DriverMissing("the cuda target needs an NVIDIA GPU: the driver finds no "
                                "device")
        if code != CUDA_SUCCESS:
            raise DriverMissing(f"the CUDA driver did not start: {drv.error_text(code)}")
        if drv.device_count() < 1:
            raise DriverMissing("the cuda target needs an NVIDIA GPU: the driver finds no "
                                "device")
        _DRIVER.append(drv)
        return drv


def device_arch() -> str | None:
    """The architecture of device 0 ("sm_90"), or None without a driver or device."""
    try:
        return driver().device_arch()
    except StrataError:
        return None


# ---------------------------------------------------------------- buffers

class DeviceBuffer:
    """Device memory of `nbytes` at `ptr`, from a model's pool."""

    __slots__ = ("ptr", "nbytes", "__weakref__")

    def __init__(self, ptr, nbytes):
        self.ptr = ptr
        self.nbytes = nbytes


class _Pool:
    """Buffers by byte size (see [Note: the model on the device])."""

    def __init__(self, drv):
        self.drv = drv
        self.free_lists: dict = {}
        self.all: list = []

    def alloc(self, nbytes) -> DeviceBuffer:
        size = max(int(nbytes), 1)
        lst = self.free_lists.get(size)
        if lst:
            return lst.pop()
        p = ctypes.c_uint64()
        code = self.drv.cuMemAlloc(ctypes.byref(p), size)
        if code == CUDA_ERROR_OUT_OF_MEMORY and any(self.free_lists.values()):
            self.release_free()
            code = self.drv.cuMemAlloc(ctypes.byref(p), size)
        if code != CUDA_SUCCESS:
            raise CudaError(f"out of device memory allocating {size} bytes: "
                            f"{self.drv.error_text(code)}", code)
        buf = DeviceBuffer(p.value, size)
        self.all.append(buf)
        return buf

    def free(self, buf: DeviceBuffer) -> None:
        self.free_lists.setdefault(buf.nbytes, []).append(buf)

    def release_free(self) -> None:
        for lst in self.free_lists.values():
            for b in lst:
                self.drv.cuMemFree(b.ptr)
                self.all.remove(b)
        self.free_lists.clear()

    def close(self) -> None:
        for b in self.all:
            self.drv.cuMemFree(b.ptr)
        self.all.clear()
        self.free_lists.clear()


# ---------------------------------------------------------------- the model

class CudaModel:
    """A CudaProgram's entry `function` loaded on device 0 (see [Note: the model on the
    device]). `run(*values)` takes NumPy arrays (or scalars) and objects with
    `__cuda_array_interface__` on this device; it returns DeviceArrays."""

    # Outputs are DeviceArrays holding their buffers: CompiledModel passes them on as
    # they are (strata.compiler, [Note: the call path]).
    owns_outputs = True

    def __init__(self, drv: CudaDriver, program, function: str, cuda_graphs=False):
        self.drv = drv
        self.program = program
        self.plan = program.plans[function]
        self.signature = program.signatures[function]
        ctx = ctypes.c_void_p()
        drv.check(drv.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), drv.device(0)),
                  "cuDevicePrimaryCtxRetain")
        self.ctx = ctx
        self._lock = threading.Lock()
        self._live = {}
        with self._current():
            stream = ctypes.c_void_p()
            drv.check(drv.cuStreamCreate(ctypes.byref(stream), 1), "cuStreamCreate")
            self.stream = stream
            self.pool = _Pool(drv)
            self.modules = {}
            for name, ptx in program.ptx.items():
                self.modules[name] = self._load_module(name, ptx)
            self.functions = {}
            for launch in self.plan.launches():
                self._function(launch.module, launch.kernel)
            # the host function as native code (host.py), else the plan in Python
            host = (getattr(program, "host", None) or {}).get(function)
            self.native = None
            self.fallback = host.fallback if host is not None else "no native host code"
            if host is not None and host.ir is not None and not drv.has(*_OPTIONAL):
                self.fallback = "the driver lacks the stream-ordered allocator"
            elif host is not None and host.ir is not None and \
                    os.environ.get("STRATA_CUDA_HOST") == "plan":
                self.fallback = "STRATA_CUDA_HOST=plan"
            elif host is not None and host.ir is not None:
                self.fallback = None
            weights = host.weights if self.fallback is None else self.plan.weights
            self.weights = {}
            for name, array in weights.items():
                buf = self.pool.alloc(array.nbytes)
                a = np.ascontiguousarray(array)
                drv.check(drv.cuMemcpyHtoDAsync(buf.ptr, a.ctypes.data, a.nbytes,
                                                self.stream), f"uploading weight @{name}")
                self.weights[name] = buf
            drv.check(drv.cuStreamSynchronize(self.stream), "uploading the weights")
            if self.fallback is None:
                self.native = _NativeHost(self, host)
        # [Note: CUDA graphs]
        self.graphs = None
        self.graph_fallback = None
        if cuda_graphs:
            if self.native is None:
                self.graph_fallback = f"the host runs as a launch plan ({self.fallback})"
            elif not drv.has(*_GRAPHS):
                self.graph_fallback = "the driver lacks the graph API"
            elif "call i64 @__strata_cuda_read(" in host.ir:
                self.graph_fallback = ("the host reads device values back (a "
                                       "synchronization: not allowed while capturing)")
            else:
                self.graphs = {}
        weakref.finalize(self, _close, drv, self.pool, self.modules, self.stream, self.ctx)

    def _function(self, module, kernel):
        """The CUfunction of `kernel` of gpu.module `module` (looked up once)."""
        key = (module, kernel)
        f = self.functions.get(key)
        if f is None:
            f = ctypes.c_void_p()
            self.drv.check(self.drv.cuModuleGetFunction(ctypes.byref(f), self.modules[
                module], kernel.encode()), f"kernel {module}::{kernel}")
            self.functions[key] = f
        return f

    def _load_module(self, name, ptx):
        drv = self.drv
        m = ctypes.c_void_p()
        code = drv.cuModuleLoadDataEx(ctypes.byref(m), ptx.encode() + b"\0", 0, None, None)
        if code != CUDA_SUCCESS:
            raise StrataError(f"the CUDA driver could not load the PTX of @{name} "
                              f"(arch {self.program.arch}): {drv.error_text(code)}")
        return m

    class _Ctx:
        __slots__ = ("model",)

        def __init__(self, model):
            self.model = model

        def __enter__(self):
            self.model.drv.cuCtxPushCurrent(self.model.ctx)

        def __exit__(self, *exc):
            old = ctypes.c_void_p()
            self.model.drv.cuCtxPopCurrent(ctypes.byref(old))

    def _current(self):
        return CudaModel._Ctx(self)

    # -- the device protocol the plan runs on (plan.Plan.run)
    def alloc(self, nbytes):
        buf = self.pool.alloc(nbytes)
        self._live[id(buf)] = buf
        return buf

    def free(self, buf):
        if self._live.pop(id(buf), None) is not None:
            self.pool.free(buf)

    def weight(self, name):
        return self.weights[name]

    def copy(self, dst, src, nbytes):
        self.drv.check(self.drv.cuMemcpyDtoDAsync(dst, src, nbytes, self.stream),
                       "device copy")

    def read(self, addr, dtype):
        """One element at device address `addr` (the host reading a size or a shape
        tensor's entry: waits for the work before it on the stream)."""
        out = np.empty((), dtype)
        self.drv.check(self.drv.cuMemcpyDtoHAsync(out.ctypes.data, addr, dtype.itemsize,
                                                  self.stream), "reading a device value")
        self.drv.check(self.drv.cuStreamSynchronize(self.stream), "reading a device value")
        return out.item()

    def fail(self, message):
        raise RuntimeFailure(message)

    def launch(self, launch, regs):
        grid = [regs[r] for r in launch.grid]
        block = [regs[r] for r in launch.block]
        shared = regs[launch.shared] if launch.shared is not None else 0
        if min(grid) <= 0 or min(block) <= 0:
            return  # nothing to do (an empty tensor)
        if grid[0] >= 1 << 31 or max(grid[1:]) > 65535 or max(block[:2]) > 1024 or \
                block[2] > 64 or shared >= 1 << 32:
            # (as the native shim: not a size wrapped around by the driver's unsigned ints)
            raise RuntimeFailure(f"kernel {launch.module}::{launch.kernel} (from "
                                 f"{launch.where}) failed to launch: grid {tuple(grid)}, "
                                 f"block {tuple(block)} exceed what CUDA launches")
        params, keep = pack_arguments([regs[r] for r in launch.args], launch.types)
        code = self.drv.cuLaunchKernel(self.functions[(launch.module, launch.kernel)],
                                       *grid, *block, shared, self.stream, params, None)
        del keep      # (the driver has copied the arguments when cuLaunchKernel returns)
        if code != CUDA_SUCCESS:
            raise RuntimeFailure(f"kernel {launch.module}::{launch.kernel} (from "
                                 f"{launch.where}) failed to launch: "
                                 f"{self.drv.error_text(code)}")

    # -- a call
    def run(self, *values):
        with self._lock, self._current():
            inputs, staged = [], []
            self._live = {}          # buffers allocated by this call and not freed
            outputs = []
            try:
                for i, v in enumerate(values):
                    inputs.append(self._input(i, v, staged))
                if self.graphs is not None:
                    outputs = self._graph_call(inputs, values)
                elif self.native is not None:
                    outputs = self.native.call(inputs)
                else:
                    results = self.plan.run(self, inputs)
                    outputs = [self._own(r) if isinstance(r, DeviceRef) else r
                               for r in results]
                code = self.drv.cuStreamSynchronize(self.stream)
                if code != CUDA_SUCCESS:
                    kernels = ", ".join(f"{s.module}::{s.kernel} (from {s.where})"
                                        for s in self.plan.launches())
                    raise RuntimeFailure(f"a kernel of @{self.plan.function} failed: "
                                         f"{self.drv.error_text(code)}; kernels: {kernels}")
            except CudaError as e:
                outputs = []
                raise RuntimeFailure(str(e)) from None
            except BaseException:
                outputs = []
                raise
            finally:
                # what the call allocated and no output owns goes back to the pool
                kept = {id(r.buffer) for r in outputs if isinstance(r, DeviceRef)}
                for key, buf in self._live.items():
                    if key not in kept:
                        self.pool.free(buf)
                self._live = {}
                for buf in staged:
                    self.pool.free(buf)
            return [DeviceArray(r, self) if isinstance(r, DeviceRef) else r
                    for r in outputs]

    def _graph_call(self, inputs, values) -> list:
        """A call through the CUDA graph of these input shapes ([Note: CUDA graphs])."""
        key = tuple((r.sizes, r.dtype.str) for r in inputs)
        g = self.graphs.get(key)
        if g is None:
            self._drop_graphs()
            g = self._capture(key, inputs)
        drv = self.drv
        for r, buf in zip(inputs, g.inputs):
            self.copy(buf.ptr, r.ptr + r.offset * r.dtype.itemsize, r.nbytes)
        code = drv.cuGraphLaunch(g.exec, self.stream)
        if code != CUDA_SUCCESS:
            self._drop_graphs()
            raise RuntimeFailure(f"the CUDA graph of @{self.plan.function} failed to "
                                 f"launch: {drv.error_text(code)}")
        # (graph memory, freed by the next launch: each result copied out, a strided
        # one gathered row-major)
        return [self._copy_out(ref) for ref in g.results]

    def _capture(self, key, inputs):
        drv = self.drv
        staged = [self.pool.alloc(max(r.nbytes, 1)) for r in inputs]
        refs = [DeviceRef(b.ptr, 0, r.sizes, row_major(r.sizes), r.dtype, None)
                for b, r in zip(staged, inputs)]
        drv.check(drv.cuStreamBeginCapture(self.stream, _CAPTURE_MODE_THREAD_LOCAL),
                  "cuStreamBeginCapture")
        try:
            raw = self.native.invoke(refs)
        finally:
            graph = ctypes.c_void_p()
            code = drv.cuStreamEndCapture(self.stream, ctypes.byref(graph))
        if self.native.status.value != 0 or code != CUDA_SUCCESS:
            if graph.value:
                drv.cuGraphDestroy(graph)
            for b in staged:
                self.pool.free(b)
            if self.native.status.value != 0:
                raise RuntimeFailure(self.native._failure())
            raise RuntimeFailure(f"capturing the CUDA graph of @{self.plan.function}: "
                                 f"{drv.error_text(code)}")
        exe = ctypes.c_void_p()
        code = drv.cuGraphInstantiateWithFlags(ctypes.byref(exe), graph,
                                               _GRAPH_AUTO_FREE_ON_LAUNCH)
        drv.cuGraphDestroy(graph)
        if code != CUDA_SUCCESS:
            for b in staged:
                self.pool.free(b)
            raise RuntimeFailure(f"instantiating the CUDA graph of @{self.plan.function}: "
                                 f"{drv.error_text(code)}")
        g = _Graph(exe, staged, [ref for ref, _ in raw])
        self.graphs[key] = g
        return g

    def _drop_graphs(self):
        """Another input shape: the graph captured for the last one goes."""
        for g in self.graphs.values():
            self.drv.cuGraphExecDestroy(g.exec)
            for b in g.inputs:
                self.pool.free(b)
        self.graphs.clear()

    def release(self, buf) -> None:
        """An output's buffer, no longer used: back to the pool it came from."""
        if isinstance(buf, DeviceBuffer):
            self.pool.free(buf)
            return
        with self._lock, self._current():
            self.drv.cuMemFreeAsync(buf.ptr, self.stream)

    def _own(self, ref: DeviceRef) -> DeviceRef:
        """`ref` as an output owning its buffer: the buffer this call allocated for it,
        else (a weight, an input, another output's buffer, a strided view) a copy."""
        buf = ref.buffer
        if buf is not None and id(buf) in self._live and ref.is_contiguous() and \
                ref.offset == 0 and buf.nbytes >= ref.nbytes:
            self._live.pop(id(buf))      # the output's now (see the finally above)
            return ref
        return self._copy_out(ref)

    def _copy_out(self, ref: DeviceRef) -> DeviceRef:
        """A row-major copy of the view `ref` in a buffer of the pool, which the
        returned DeviceRef owns ([Note: strided outputs])."""
        new = self.pool.alloc(ref.nbytes)
        out = DeviceRef(new.ptr, 0, ref.sizes, row_major(ref.sizes), ref.dtype, new)
        if ref.nbytes == 0:
            return out
        item = ref.dtype.itemsize
        runs = _runs(ref)
        if runs is not None:
            starts, width = runs
            for k, start in enumerate(starts):
                self.copy(new.ptr + k * width * item, ref.ptr + start * item, width * item)
            return out
        host = self._read_view(ref)
        self.drv.check(self.drv.cuMemcpyHtoDAsync(new.ptr, host.ctypes.data, host.nbytes,
                                                  self.stream), "copying a strided output")
        # (the host array must outlive the asynchronous copy)
        self.drv.check(self.drv.cuStreamSynchronize(self.stream), "copying a strided output")
        return out

    def _read_view(self, ref: DeviceRef) -> np.ndarray:
        """The view `ref` as a row-major host array: the device bytes it spans read back
        (one copy, waiting for the stream), its elements picked on the host."""
        item = ref.dtype.itemsize
        lo = ref.offset + sum(min(0, (n - 1) * s) for n, s in zip(ref.sizes, ref.strides))
        hi = ref.offset + sum(max(0, (n - 1) * s) for n, s in zip(ref.sizes, ref.strides))
        span = np.empty(hi - lo + 1, ref.dtype)
        self.drv.check(self.drv.cuMemcpyDtoHAsync(span.ctypes.data, ref.ptr + lo * item,
                                                  span.nbytes, self.stream),
                       "copying an output")
        self.drv.check(self.drv.cuStreamSynchronize(self.stream), "copying an output")
        view = np.lib.stride_tricks.as_strided(
            span[ref.offset - lo:], ref.sizes, [s * item for s in ref.strides],
            writeable=False)
        return np.ascontiguousarray(view).reshape(ref.sizes)

    def _input(self, i, v, staged):
        spec = self.signature.args[i] if i < len(self.signature.args) else None
        cai = getattr(v, "__cuda_array_interface__", None)
        if cai is not None:
            ptr = int(cai["data"][0])
            ordinal = ctypes.c_int()
            code = self.drv.cuPointerGetAttribute(ctypes.byref(ordinal),
                                                  _POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr)
            ordinal = int(cai.get("device", ordinal.value))  # (a DLPack view knows it)
            if code != CUDA_SUCCESS or ordinal != 0:
                raise InputError(f"input #{i} is on another device (cuda:{ordinal}); "
                                 "the model runs on cuda:0")
            stream = cai.get("stream")
            if stream is not None:
                # [Note: producer streams]
                self.drv.check(self.drv.cuStreamSynchronize(ctypes.c_void_p(int(stream))),
                               f"waiting for input #{i}'s stream")
            dtype = np.dtype(cai["typestr"])
            shape = tuple(cai["shape"])
            strides = cai.get("strides")
            strides = row_major(shape) if strides is None else \
                [s // dtype.itemsize for s in strides]
            ref = DeviceRef(ptr, 0, shape, strides, dtype, None)
            if not ref.is_contiguous():
                # (the compiled code takes row-major buffers at its boundary)
                raise InputError(f"input #{i} on the device is not contiguous (strides "
                                 f"{tuple(cai['strides'])} bytes for shape {shape}): "
                                 "pass a contiguous tensor (.contiguous())")
            return ref
        if spec is not None and getattr(spec, "scalar", False):
            return np.asarray(v).item()
        a = np.asarray(v)       # (not ascontiguousarray: it makes a 0-d array 1-d)
        if not a.flags.c_contiguous:
            a = np.ascontiguousarray(a)
        try:
            buf = self.pool.alloc(a.nbytes)
        except CudaError as e:
            raise CudaError(f"copying input #{i} to the device: {e}", e.code) from None
        staged.append(buf)
        self.drv.check(self.drv.cuMemcpyHtoDAsync(buf.ptr, a.ctypes.data, a.nbytes,
                                                  self.stream), f"copying input #{i}")
        return DeviceRef(buf.ptr, 0, a.shape, row_major(a.shape), a.dtype, None)

    def download(self, ref: DeviceRef) -> np.ndarray:
        if not ref.is_contiguous():
            with self._lock, self._current():
                return self._read_view(ref)
        out = np.empty(ref.sizes, ref.dtype)
        if out.nbytes == 0:
            return out
        with self._lock, self._current():
            src = ref.ptr + ref.offset * ref.dtype.itemsize
            self.drv.check(self.drv.cuMemcpyDtoHAsync(out.ctypes.data, src, out.nbytes,
                                                      self.stream), "copying an output")
            self.drv.check(self.drv.cuStreamSynchronize(self.stream), "copying an output")
        return out


# At most this many device-to-device copies gather a strided output (one per
# contiguous run of its elements); past it, one read of its span to the host.
_MAX_RUNS = 64


def _runs(ref: DeviceRef):
    """(start offsets in elements, run length) of the contiguous runs of the view
    `ref`, row-major order, or None past _MAX_RUNS ([Note: strided outputs])."""
    dims = [(n, s) for n, s in zip(ref.sizes, ref.strides) if n != 1]
    merged = []            # adjacent dimensions that step as one (stride = next's span)
    for n, s in dims:
        if merged and merged[-1][1] == s * n:
            merged[-1] = (merged[-1][0] * n, s)
        else:
            merged.append((n, s))
    width = 1
    if merged and merged[-1][1] == 1:
        width = merged.pop()[0]
    count = math.prod(n for n, _ in merged)
    if count > _MAX_RUNS:
        return None
    starts = np.full(1, ref.offset, np.int64)
    for n, s in merged:
        starts = (starts[:, None] + np.arange(n, dtype=np.int64) * s).reshape(-1)
    return [int(v) for v in starts], width


class AsyncBuffer:
    """Device memory the native host code allocated (cuMemAllocAsync): an output's."""

    __slots__ = ("ptr", "__weakref__")

    def __init__(self, ptr):
        self.ptr = ptr


class _Graph:
    """A captured launch sequence: its executable graph, the input buffers it reads,
    the results it leaves (graph memory)."""

    __slots__ = ("exec", "inputs", "results")

    def __init__(self, exe, inputs, results):
        self.exec = exe
        self.inputs = inputs
        self.results = results


class _NativeHost:
    """The host function of a CudaModel as native code (host.py): the shim's state
    filled (driver entry points, the stream, a CUfunction per launch site), the host
    module compiled with the shim's functions and the weights' device addresses bound.
    `call(inputs)` is one native call; outputs are DeviceRefs owning their memory."""

    def __init__(self, model, host):
        from ..cpu.jit import JitModule
        from ...runtime import descriptor_type
        from .host import ASSERT_FAIL, FREE, LAUNCH, MALLOC, READ, SHIM_IR, WEIGHT
        drv = self.drv = model.drv
        self.model = model
        self.sites = host.sites
        pool = ctypes.c_void_p()
        drv.check(drv.cuDeviceGetDefaultMemPool(ctypes.byref(pool), drv.device(0)),
                  "cuDeviceGetDefaultMemPool")
        keep = ctypes.c_uint64((1 << 64) - 1)   # freed memory stays in the pool
        drv.check(drv.cuMemPoolSetAttribute(pool, _MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                            ctypes.byref(keep)), "cuMemPoolSetAttribute")
        shim = self.shim = JitModule(SHIM_IR, opt_level=2)
        self.kernels = (ctypes.c_void_p * max(len(host.sites), 1))(
            *[model._function(m, k).value for m, k, _ in host.sites])

        def cell(name, t=ctypes.c_uint64):
            return t.from_address(shim.address_of(name))
        cell("__strata_cuda_launch_fn").value = drv.address("cuLaunchKernel")
        cell("__strata_cuda_alloc_fn").value = drv.address("cuMemAllocAsync")
        cell("__strata_cuda_free_fn").value = drv.address("cuMemFreeAsync")
        cell("__strata_cuda_read_fn").value = drv.address("cuMemcpyDtoHAsync")
        cell("__strata_cuda_sync_fn").value = drv.address("cuStreamSynchronize")
        cell("__strata_cuda_stream").value = model.stream.value or 0
        cell("__strata_cuda_kernels").value = ctypes.addressof(self.kernels)
        self.status = cell("__strata_cuda_status", ctypes.c_int32)
        self.site = cell("__strata_cuda_site", ctypes.c_int64)
        self.nbytes = cell("__strata_cuda_bytes", ctypes.c_int64)
        self.alloc_site = cell("__strata_cuda_alloc_site", ctypes.c_int64)
        self.allocs = host.allocs
        self.message = cell("__strata_cuda_message")
        self.launches = cell("__strata_cuda_launches", ctypes.c_int64)
        self.weights = (ctypes.c_void_p * max(len(host.weights), 1))(
            *[model.weights[n].ptr for n in host.weights])
        cell("__strata_cuda_weights").value = ctypes.addressof(self.weights)
        symbols = {n: shim.address_of(n) for n in (MALLOC, FREE, LAUNCH, ASSERT_FAIL, READ,
                                                   WEIGHT)}
        self.jit = JitModule(host.ir, symbols=symbols)
        sig = model.signature
        self.arg_types = [descriptor_type(s.rank) for s in sig.args]
        self.res_specs = list(sig.results)
        rts = [descriptor_type(s.rank) for s in sig.results]
        if len(rts) == 1:
            self.res_t = rts[0]
        else:
            self.res_t = type("Results", (ctypes.Structure,),
                              {"_fields_": [(f"r{i}", t) for i, t in enumerate(rts)]})
        self.fn = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * (1 + len(self.arg_types)))(
            self.jit.address_of(host.entry))

    def invoke(self, inputs) -> list:
        """One native call of the host code on `inputs` (DeviceRefs): [(result
        DeviceRef without a buffer, its allocated pointer)]; `status` says whether it
        failed."""
        descs = []
        for t, r in zip(self.arg_types, inputs):
            d = t()
            d.allocated = d.aligned = r.ptr
            d.offset = r.offset
            if r.sizes:
                d.sizes[:] = list(r.sizes)
                d.strides[:] = list(r.strides)
            descs.append(d)
        res = self.res_t()
        self.status.value = 0
        self.alloc_site.value = -1
        self.site.value = -1
        self.message.value = 0
        self.fn(ctypes.addressof(res), *[ctypes.addressof(d) for d in descs])
        ds = [res] if len(self.res_specs) == 1 else \
            [getattr(res, f"r{i}") for i in range(len(self.res_specs))]
        out = []
        for spec, d in zip(self.res_specs, ds):
            n = len(spec.shape)
            out.append((DeviceRef(d.aligned or 0, d.offset, list(d.sizes) if n else [],
                                  list(d.strides) if n else [], spec.dtype),
                        d.allocated or 0))
        return out

    def call(self, inputs) -> list:
        """`invoke`, the outputs owning their memory (a copy where a result is an
        input, a weight, another result's block or a strided view); RuntimeFailure if
        the call failed (its memory given back)."""
        raw = self.invoke(inputs)
        known = {r.ptr for r in inputs} | {b.ptr for b in self.model.weights.values()}
        owned, drop, out = set(), set(), []
        for ref, alloc in raw:
            if alloc and alloc not in known and alloc not in owned and \
                    ref.is_contiguous():
                owned.add(alloc)
                ref.buffer = AsyncBuffer(alloc)
            elif alloc and alloc not in known and alloc not in owned:
                drop.add(alloc)
            out.append(ref)
        if self.status.value != 0:
            for a in owned | drop:
                self.drv.cuMemFreeAsync(a, self.model.stream)
            raise RuntimeFailure(self._failure())
        for i, ref in enumerate(out):
            if ref.buffer is None:
                out[i] = self.model._own(ref)      # a copy the output owns
        for a in drop - owned:
            self.drv.cuMemFreeAsync(a, self.model.stream)
        return out

    def _failure(self) -> str:
        code, site = self.status.value, self.site.value
        if code == -1:
            return ctypes.string_at(self.message.value).decode(errors="replace") \
                if self.message.value else "a run-time check failed"
        text = self.drv.error_text(code)
        if site >= 0:
            m, k, where = self.sites[site]
            return f"kernel {m}::{k} (from {where}) failed to launch: {text}"
        if site == -2:
            kernels = ", ".join(f"{m}::{k} (from {w})" for m, k, w in self.sites)
            return f"reading a device value back failed: {text}; kernels: {kernels}"
        at = self.alloc_site.value
        where = f" for {self.allocs[at]}" if 0 <= at < len(self.allocs) else ""
        return f"out of device memory allocating {self.nbytes.value} bytes{where}: {text}"


def _close(drv, pool, modules, stream, ctx):
    try:
        drv.cuCtxPushCurrent(ctx)
        drv.cuStreamSynchronize(stream)
        pool.close()
        for m in modules.values():
            drv.cuModuleUnload(m)
        drv.cuStreamDestroy(stream)
        old = ctypes.c_void_p()
        drv.cuCtxPopCurrent(ctypes.byref(old))
    except Exception:  # pragma: no cover - teardown at exit
        pass


# ---------------------------------------------------------------- outputs

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", _DELETER)]
_KDLCUDA = 2
_DL_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
# DLPack's codes of the ml_dtypes types (dlpack.h's DLDataTypeCode): by name, before
# the kind (float8_e5m2's kind is "f", which would say an 8-bit IEEE float). The 4-bit
# types (one element a byte in NumPy, packed in DLPack) have none.
_DL_NAMED = {"bfloat16": 4, "float8_e4m3fn": 10, "float8_e4m3fnuz": 11,
             "float8_e5m2": 12, "float8_e5m2fnuz": 13}
_NO_DL = frozenset({"float4_e2m1fn", "int4", "uint4", "int2", "uint2", "float8_e8m0fnu",
                    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float6_e2m3fn",
                    "float6_e3m2fn"})
_LIVE_CAPSULES: dict = {}


@_DELETER
def _dl_deleter(p):
    _LIVE_CAPSULES.pop(ctypes.addressof(p.contents), None)


class DeviceArray:
    """An output on the device (see [Note: outputs on the device]). It keeps its buffer
    (and the model) alive; the buffer goes back to the model's pool when it is collected."""

    __slots__ = ("ref", "model", "__weakref__")

    def __init__(self, ref: DeviceRef, model: CudaModel):
        self.ref = ref
        self.model = model
        if ref.buffer is not None:
            weakref.finalize(self, model.release, ref.buffer)

    shape = property(lambda self: self.ref.sizes)
    dtype = property(lambda self: self.ref.dtype)
    ndim = property(lambda self: len(self.ref.sizes))

    def numpy(self) -> np.ndarray:
        return self.model.download(self.ref)

    def as_dtype(self, dtype) -> "DeviceArray":
        """This array with its elements read as `dtype` of the same size (a lowering
        made ui8 outputs i8: the caller gets the interface's uint8); the same buffer."""
        dtype = np.dtype(dtype)
        if dtype.itemsize != self.ref.dtype.itemsize:
            raise StrataError(f"cannot view {self.ref.dtype} elements as {dtype}")
        self.ref.dtype = dtype
        return self

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    @property
    def __cuda_array_interface__(self):
        r = self.ref
        return {"shape": r.sizes, "typestr": r.dtype.str,
                "data": (r.ptr + r.offset * r.dtype.itemsize, False),
                "strides": tuple(s * r.dtype.itemsize for s in r.strides), "version": 3}
        # (no "stream": the call that made it has synchronized; nothing is pending)

    def __dlpack_device__(self):
        return (_KDLCUDA, 0)

    def __dlpack__(self, stream=None, **kwargs):
        r = self.ref
        code = _DL_NAMED.get(r.dtype.name)
        if code is None and r.dtype.kind != "V" and r.dtype.name not in _NO_DL:
            code = _DL_CODES.get(r.dtype.kind)
        if code is None:
            raise StrataError(f"no DLPack type for {r.dtype}")
        n = len(r.sizes)
        shape = (ctypes.c_int64 * max(n, 1))(*r.sizes)
        strides = (ctypes.c_int64 * max(n, 1))(*r.strides)
        m = _DLManagedTensor()
        m.dl_tensor = _DLTensor(r.ptr, _DLDevice(_KDLCUDA, 0), n,
                                _DLDataType(code, r.dtype.itemsize * 8, 1), shape, strides,
                                r.offset * r.dtype.itemsize)
        m.deleter = _dl_deleter
        # the consumer calls the deleter when done: keep the array alive until then
        _LIVE_CAPSULES[ctypes.addressof(m)] = (m, shape, strides, self)
        pycapsule_new = ctypes.pythonapi.PyCapsule_New
        pycapsule_new.restype = ctypes.py_object
        pycapsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return pycapsule_new(ctypes.addressof(m), b"dltensor", None)

    def __repr__(self):
        return f"DeviceArray(shape={list(self.shape)}, dtype={self.dtype}, device=cuda:0)"
