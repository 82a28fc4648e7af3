"""Arrays on a CUDA device that speak DLPack only (no `__cuda_array_interface__`: JAX
arrays, other frameworks' tensors) seen through the CUDA array interface, without a copy,
for targets that take device inputs (cuda).

    x = jax.device_put(a, jax.devices("gpu")[0])      # __dlpack__, __dlpack_device__
    v = cuda_view(x, "input #0 ('x')")               # v.__cuda_array_interface__:
    # {"shape": (4, 300), "typestr": "<f4", "data": (ptr, False), "strides": None,
    #  "stream": 1, "version": 3}

[Note: DLPack device inputs]
The view reads the DLManagedTensor in the object's `__dlpack__` capsule (the DLPack
ABI, dlpack.h: DLTensor {data, device {type, id}, ndim, dtype {code, bits, lanes},
shape, strides, byte_offset}). The capsule is not renamed "used_dltensor": it stays the
producer's, kept alive by the view, and its destructor hands the tensor back when the
view goes. `__dlpack__` is called with stream=1 (the legacy default stream, as the
protocol numbers them), and the view names that stream, so the consumer synchronizes
with it before reading, as it does for any `__cuda_array_interface__` that names a
stream (strata/backends/cuda/runtime.py).
"""
from __future__ import annotations

import ctypes

from . import InputError

__all__ = ["is_cuda_dlpack", "cuda_view"]

_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
# (DLPack dtype code, bits) -> NumPy typestr (little-endian, as CUDA devices are)
_TYPESTR = {(0, 8): "|i1", (0, 16): "<i2", (0, 32): "<i4", (0, 64): "<i8", (1, 8): "|u1",
            (1, 16): "<u2", (1, 32): "<u4", (1, 64): "<u8", (2, 16): "<f2", (2, 32): "<f4",
            (2, 64): "<f8", (6, 8): "|b1"}


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


def is_cuda_dlpack(v) -> bool:
    """`v` has no `__cuda_array_interface__` but says through DLPack that it lives on a
    CUDA device (device memory or managed memory)."""
    if hasattr(v, "__cuda_array_interface__") or not hasattr(v, "__dlpack__"):
        return False
    try:
        kind = int(v.__dlpack_device__()[0])
    except Exception:  # noqa: BLE001 - no usable device: not ours to take on the device
        return False
    return kind in (_KDL_CUDA, _KDL_CUDA_MANAGED)


class _View:
    """The CUDA array interface of a DLPack tensor on the device (it keeps the capsule)."""

    __slots__ = ("__cuda_array_interface__", "capsule")

    def __init__(self, cai, capsule):
        self.__cuda_array_interface__ = cai
        self.capsule = capsule


def _capsule_api():
    api = ctypes.pythonapi
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api.PyCapsule_IsValid.restype = ctypes.c_int
    api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return api


def cuda_view(v, what: str) -> _View:
    """`v` (is_cuda_dlpack) as an object with a `__cuda_array_interface__`, no copy; an
    InputError naming `what` when its capsule is unreadable or of an unsupported kind."""
    try:
        try:
            capsule = v.__dlpack__(stream=1)
        except TypeError:  # a producer without the stream keyword
            capsule = v.__dlpack__()
    except Exception as e:  # noqa: BLE001 - the producer refused: say so, located
        raise InputError(f"{what}: its __dlpack__ failed: {e}") from None
    api = _capsule_api()
    if not api.PyCapsule_IsValid(capsule, b"dltensor"):
        raise InputError(f"{what}: __dlpack__ did not return a DLPack capsule")
    t = _DLTensor.from_address(api.PyCapsule_GetPointer(capsule, b"dltensor"))
    if t.device_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        raise InputError(f"{what}: its DLPack tensor is on device type {t.device_type}, "
                         "not a CUDA device")
    typestr = _TYPESTR.get((t.code, t.bits))
    if t.lanes != 1 or typestr is None:
        raise InputError(f"{what}: a DLPack dtype (code {t.code}, {t.bits} bits, "
                         f"{t.lanes} lanes) the cuda target does not take")
    if not 0 <= t.ndim <= 64:
        raise InputError(f"{what}: DLPack rank {t.ndim}")
    shape = tuple(int(t.shape[d]) for d in range(t.ndim))
    if any(n < 0 for n in shape):
        raise InputError(f"{what}: DLPack shape {shape} has a negative size")
    size = t.bits // 8
    strides = None if not t.strides else \
        tuple(int(t.strides[d]) * size for d in range(t.ndim))
    cai = {"shape": shape, "typestr": typestr, "data": ((t.data or 0) + t.byte_offset,
                                                         False),
           "strides": strides, "stream": 1, "version": 3, "device": t.device_id}
    return _View(cai, capsule)
