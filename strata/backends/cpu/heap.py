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

    from strata.backends.cpu.heap import place_weights
    w1, w2 = place_weights([a1, a2])   # copies, each at a multiple of 64 bytes, in one
                                       # block (huge pages where the system has them)

[Note: weights placed alike in every process]
A compiled model's weights (target.py, [Note: weights]) were bound where they lay: in
the ONNX file's bytes ([Note: weights read in place], at any multiple of 16 bytes), or in
arrays NumPy allocated, whose pages depended on the process's past: allocated before the
first CPU model set the heap up (above) they came from fresh mmaps, which NumPy advises
onto transparent huge pages (madvise, from 4 MiB); afterwards from a heap whose pages
earlier models had already faulted in as 4 KiB pages. So the same model's weights were
on huge pages in one compile and not in the next (ResNet-18's 45 MB: 48% of them on
huge pages when compiled second in a process, none of DeiT-S's when compiled first), and
what a model's speed was could depend on what the process ran before it (issue 18's
one-process effect; measured with ResNet-18's weights all on huge pages at 1 thread,
process CPU, interleaved in one process: 0.925x and 0.97x the CPU per call in two
runs; DeiT-S 0.98x, within the noise). Now the
weights of a model are copied into one block of their own, each at a multiple of 64
bytes (no vector load of a weight splits a cache line), the block aligned to 2 MiB and
advised onto huge pages (madvise(MADV_HUGEPAGE): the kernel's THP setting `madvise` or
`always` honours it) when it holds at least 2 MiB: the same placement in every process,
first model or last (ResNet-18, 1 thread, interleaved in one process: 0.97x the CPU per
call of the old placement, MobileNetV2 0.99x). The price is one copy of the weights at
compile time (45-86 MB: 20-60 ms of CPU; more where the kernel must compact memory to
find huge pages), so models with more than PLACE_MAX_BYTES of weights (BERT-base's
415 MB: 0.25-1.1 s measured) keep them where they are, only those not at a multiple of
64 bytes copied, and those lent (a torch tensor's storage, read in place: [Note: lent
blobs] in strata/ir/dense.py; the copy is the compiled model's snapshot of them), into
one block of their own mapping, off huge pages (the C heap's fresh pages cost 5x the
CPU to fault in: 0.93 against 0.19 s for 490 MB). Packed weights are placed already:
the microkernels pass writes them into mappings of their own, on huge pages up to the
same PLACE_MAX_BYTES of weights ([Note: packed weights written once] in
strata/conversion/cpu_kernel_abi.py), and they are bound there, not copied again.
A model loaded from the compiled-model cache binds the cache file's
pages (blobs at multiples of 64 bytes, shared with the OS's file cache, 4 KiB pages:
the same placement at every load; a copy would cost the cached load its 0.3 s budget).
$STRATA_HUGE_WEIGHTS=0 advises the block off huge pages (the 64-byte placement stays).
"""
from __future__ import annotations

import os
import sys

import numpy as np

from ...conversion.cpu_kernel_abi import PANEL_HUGE_BYTES

__all__ = ["keep_freed_memory", "place_weights", "WEIGHT_ALIGNMENT", "HUGE_PAGE",
           "PLACE_MAX_BYTES"]

# Every weight starts at a multiple of this (a cache line) in its block
WEIGHT_ALIGNMENT = 64
# A block of weights at least this big is aligned to it and advised onto huge pages
HUGE_PAGE = 2 << 20
# Weights past this many bytes in all are not copied into a block (the copy's time; the
# packed ones are on huge pages up to the same size: cpu_kernel_abi.PanelMemory)
PLACE_MAX_BYTES = PANEL_HUGE_BYTES

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


def place_weights(arrays, lent=()) -> list:
    """`arrays` (NumPy arrays) placed for a compiled model ([Note: weights placed alike
    in every process]): copies in one new block of memory, each at a multiple of
    WEIGHT_ALIGNMENT bytes, the block on huge pages where the system gives them when it
    holds at least HUGE_PAGE bytes; past PLACE_MAX_BYTES in all, the arrays themselves,
    but for those not at a multiple of WEIGHT_ALIGNMENT and those whose positions are
    in `lent` (memory others may write after the compile: [Note: lent blobs] in
    strata/ir/dense.py), copied into one block off huge pages. Arrays in panel memory
    (packed weights, [Note: packed weights written once] in cpu_kernel_abi.py) are
    placed already: kept as they are."""
    from ...conversion.cpu_kernel_abi import in_panel_memory
    arrays = [np.asarray(a) for a in arrays]
    lent = frozenset(lent)
    total = sum(_padded(a.nbytes) for a in arrays)
    past = total > PLACE_MAX_BYTES
    copied, offsets, end = [], [], 0
    for i, a in enumerate(arrays):
        if a.ctypes.data % WEIGHT_ALIGNMENT == 0 and a.flags.c_contiguous and \
                i not in lent and (past or in_panel_memory(a)):
            continue
        copied.append(i)
        offsets.append(end)
        end += _padded(a.nbytes)
    out = list(arrays)
    if copied:
        # (past the limit not advised onto huge pages, whose compaction cost ViT-B/16's
        # compile 1.7-2.3 s of CPU; one array alone may be past it, GPT-2's 154 MB
        # embedding)
        block = _block(end, huge=not past)
        for i, at in zip(copied, offsets):
            out[i] = _copy_into(block, at, arrays[i])
    return out


def _padded(nbytes: int) -> int:
    return -(-max(nbytes, 1) // WEIGHT_ALIGNMENT) * WEIGHT_ALIGNMENT


def _copy_into(block: np.ndarray, at: int, a: np.ndarray) -> np.ndarray:
    """A copy of `a` in `block` (uint8) from byte `at`."""
    v = block[at:at + a.nbytes].view(a.dtype).reshape(a.shape)
    np.copyto(v, a, casting="no")
    return v


def _block(nbytes: int, huge: bool = True) -> np.ndarray:
    """`nbytes` of uint8 at a multiple of WEIGHT_ALIGNMENT; from HUGE_PAGE bytes on, a
    private anonymous mapping of its own, aligned to HUGE_PAGE and (`huge`) advised onto
    huge pages (madvise(MADV_HUGEPAGE); with $STRATA_HUGE_WEIGHTS=0, advised off them).
    (A mapping even off huge pages: the C heap's fresh pages cost 5x the CPU to fault in,
    0.93 against 0.19 s for 490 MB on this project's machine.)"""
    if nbytes >= HUGE_PAGE:
        import mmap
        huge = huge and os.environ.get("STRATA_HUGE_WEIGHTS", "1") != "0"
        advice = getattr(mmap, "MADV_HUGEPAGE" if huge else "MADV_NOHUGEPAGE", None)
        if advice is not None:
            try:
                # private: a shared anonymous mapping is shmem, whose huge pages
                # follow another setting (shmem_enabled, `never` by default)
                m = mmap.mmap(-1, nbytes + HUGE_PAGE,
                              flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
                raw = np.frombuffer(m, np.uint8)
                skip = -raw.ctypes.data % HUGE_PAGE   # a multiple of the page size
                m.madvise(advice, skip, nbytes)
                return raw[skip:skip + nbytes]
            except (OSError, ValueError):
                pass       # no such mapping or advice here: the plain block below
    raw = np.empty(nbytes + WEIGHT_ALIGNMENT, np.uint8)
    skip = -raw.ctypes.data % WEIGHT_ALIGNMENT
    return raw[skip:skip + nbytes]
