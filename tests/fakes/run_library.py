"""Runs a host library built by `strata compile --target cuda` through its checked C
entry point, in a process of its own (tests/unit/test_cuda_library.py starts it with
LD_LIBRARY_PATH at a fake libcuda.so.1, or none): prints one JSON line per call with
the status, strata_last_error(), the outputs' shapes and the fake driver's log.

    python run_library.py model.so SHAPE [SHAPE ...] [--calls N]
    (SHAPE: 4x300, the float32 input filled with 0, 1, 2 ...; a shape prefixed with
     i64: an int64 input)
"""
import ctypes
import json
import sys

import numpy as np


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_int64),
                ("rank", ctypes.c_int64), ("shape", ctypes.c_int64 * 16),
                ("strides", ctypes.c_void_p), ("allocated", ctypes.c_void_p),
                ("type", ctypes.c_int32)]


def main(argv):
    calls = 1
    if "--calls" in argv:
        i = argv.index("--calls")
        calls = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    lib = ctypes.CDLL(argv[0])
    lib.strata_last_error.restype = ctypes.c_char_p
    try:
        fake = ctypes.CDLL("libcuda.so.1")
        fake.fake_cuda_log.restype = ctypes.c_char_p
    except OSError:
        fake = None
    arrays = []
    for spec in argv[1:]:
        dt = np.int64 if spec.startswith("i64:") else np.float32
        shape = [int(n) for n in spec.removeprefix("i64:").split("x") if n]
        arrays.append(np.arange(int(np.prod(shape)), dtype=dt).reshape(shape))
    ins = (Tensor * max(len(arrays), 1))()
    for t, a in zip(ins, arrays):
        t.data, t.count, t.rank = a.ctypes.data, a.size, a.ndim
        t.shape[:a.ndim] = a.shape
        t.type = 7 if a.dtype == np.int64 else 1
    for _ in range(calls):
        outs = (Tensor * 4)()
        if fake is not None:
            fake.fake_cuda_clear()
        status = lib.strata_model_run(ins, len(arrays), outs, 1)
        err = lib.strata_last_error()
        o = outs[0]
        print(json.dumps({
            "status": status, "error": err.decode() if err else None,
            "shape": list(o.shape[:o.rank]), "count": o.count,
            "allocated": bool(o.allocated),
            "log": fake.fake_cuda_log().decode().splitlines() if fake else None}),
            flush=True)
        if o.allocated:
            ctypes.CDLL(None).free(ctypes.c_void_p(o.allocated))


if __name__ == "__main__":
    main(sys.argv[1:])
