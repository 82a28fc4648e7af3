"""How the C heap treats the large buffers a compiled model allocates and frees on every
call: kept by the process for the next call instead of given back to the system.

    from strata.backends.cpu.heap import keep_freed_memory
    keep_freed_memory()     # once per process, when the first CPU model is loaded

[Note: freed memory kept]
A compiled model mallocs its intermediate buffers in each call and frees them before it
returns (strata_alloc / strata_free, guard.py). glibc serves blocks from 128 KiB up
(its threshold grows with the blocks freed, to 32 MiB at most) by mmap and unmaps them
at free, and trims the top of its heap past twice that threshold: a model whose
feature maps are megabytes (Segformer-B0 at 512x512: 8-64 MiB maps in its decoder) gets
fresh pages from the kernel for every buffer of every call, each page faulted in and
zeroed by the kernel: 17-20% of Segformer-B0's CPU time at 1 thread went to page faults
(perf). onnxruntime keeps its buffers in an arena between runs and OpenVINO allocates
its graph's memory once; here, at the first load of a CPU model, glibc is told to serve
blocks up to 1 GiB from its heaps and never to trim them (mallopt M_MMAP_THRESHOLD and
M_TRIM_THRESHOLD), so what one call frees the next call reuses, pages already mapped:
Segformer-B0 412 -> 333 ms of CPU per call (1 thread, same machine, one run after the
other). The price is the process keeps the memory its largest call needed, as the
peers do. Only glibc (mallopt exists and the C library says it is glibc);
$STRATA_KEEP_FREED_MEMORY=0 leaves the heap as it is.
"""
from __future__ import annotations

import os
import sys

__all__ = ["keep_freed_memory"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 1 << 30           # glibc's largest allowed (HEAP_MAX on 64-bit: 32 MiB
#                                     for thread arenas; their bigger blocks still mmap)
_TRIM_THRESHOLD = (1 << 31) - 1     # an int: never trim in practice

_DONE: list = []


def keep_freed_memory() -> bool:
    """Tell glibc's malloc to keep freed blocks (see the note); once per process.
    Returns whether the heap is tuned."""
    if _DONE:
        return _DONE[0]
    ok = False
    if os.environ.get("STRATA_KEEP_FREED_MEMORY", "1") != "0" and sys.platform == "linux":
        try:
            import ctypes
            libc = ctypes.CDLL(None)
            version = getattr(libc, "gnu_get_libc_version", None)
            mallopt = getattr(libc, "mallopt", None)
            if version is not None and mallopt is not None:
                mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
                mallopt.restype = ctypes.c_int
                ok = bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and \
                    bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
        except (OSError, AttributeError):
            ok = False
    _DONE.append(ok)
    return ok
