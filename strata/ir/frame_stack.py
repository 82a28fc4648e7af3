"""Run a long computation at the base of its own chunk of CPython's frame stack.

    from strata.ir.frame_stack import on_fresh_frame_stack
    on_fresh_frame_stack(pm._run_on, op, inst, analyses, verify)   # = pm._run_on(...)

[Note: frame stack chunks]
CPython (3.11 and later) keeps the frames of running Python functions on a per-thread
stack made of chunks of 16 KiB, each mapped with mmap. A call whose frame does not fit
in the current chunk maps a new one; when the frame at the base of a chunk returns, the
chunk is unmapped at once. Code that calls back and forth across a chunk boundary (a
driver loop whose callees' frames land just past it) therefore pays an mmap, a munmap
and fresh zero-filled pages on every call. Where the boundary falls depends only on how
deep the caller already is: under torch.compile (Dynamo's frames below Strata's),
convert-to-llvm's conversion driver sat on one, 24,600 mmap/munmap pairs and 25,000
page faults in Llama's compile, 0.25 s of process CPU against 0.08 s for the same pass
under strata.compile(ExportedProgram) (half of it system time).

`on_fresh_frame_stack(fn, ...)` calls `fn` through a function whose frame is 128 KiB
(unused local variable slots), too large for any chunk's remainder: CPython maps a
256 KiB chunk for it, with that frame at its base, and every frame `fn` calls lives in
the 128 KiB above it until `fn` returns (~1,000 frames of the sizes the passes use) in
one mapping: no boundary in the way whatever the caller's depth, for ~0.15 ms a call.
Elsewhere than CPython 3.11+, and where the frame cannot be built, `fn` is called
directly.
"""
from __future__ import annotations

import sys

__all__ = ["on_fresh_frame_stack"]

_SLOTS = 16384  # unused locals of the calling frame: 128 KiB of pointers
_caller = None


def _build():
    def call(fn, args, kwargs):
        return fn(*args, **kwargs)
    if sys.implementation.name != "cpython" or sys.version_info < (3, 11):
        return call
    try:
        code = call.__code__
        call.__code__ = code.replace(
            co_varnames=code.co_varnames + tuple(f"_{i}" for i in range(_SLOTS)),
            co_nlocals=code.co_nlocals + _SLOTS)
    except (TypeError, ValueError):  # an interpreter without these code fields
        pass
    return call


def on_fresh_frame_stack(fn, *args, **kwargs):
    """`fn(*args, **kwargs)`, its callees' frames in a frame stack chunk of their own
    (see [Note: frame stack chunks])."""
    global _caller
    if _caller is None:
        _caller = _build()
    return _caller(fn, args, kwargs)
