"""Run a call with room on CPython's frame stack, wherever its caller stands.

    from strata.ir.frame_room import with_frame_room
    module = with_frame_room(import_graph, gm, constants=constants)
    compiled = with_frame_room(_compile, model, target, ...)   # strata.compile's body

[Note: frame-stack room]
CPython (3.11 on) keeps a thread's Python frames in a stack of chunks, 16 KiB each
(_PyThreadState_PushFrame): a call whose frame does not fit in what is left of the
current chunk maps a new chunk (mmap), and the return that empties it unmaps it. A hot
call that falls on a chunk's end therefore pays two system calls, each time it is made.
Where the ends fall depends on the caller's depth: torch.compile calls its backend under
Dynamo's frames (~50 of them, large ones), and there Strata's compile hit them all over:
Llama's convert-to-llvm pass took 0.18-0.26 s of thread CPU (up to 0.17 s of it in the
kernel, mmap and munmap) inside the backend against 0.07-0.08 s in
strata.compile(ExportedProgram), the same pass on the same IR; run on a copy of the IR
a few frames deeper, or on another thread, it took 0.08 s again (this project's 2-core
machine, bench/torch_compile_stages.py's process). Every pass paid some, by where its
calls fell, and so would any caller's deep stack (a framework, a test runner). With the
backend's work and strata.compile run as below, the backend's share of the first call
of torch.compile(model, backend="strata") went (process CPU, one run each on the loaded
machine, the same processes' strata.compile(ep) in brackets) for GPT-2 from 3.58 to
1.88 s (2.68, 2.36), BERT-base 2.48 to 1.14 s (1.35, 1.13), Llama 1.10 to 0.96 s (0.93,
0.80); a training step's first forward and backward of Llama through AOTAutograd
5.4-5.6 to 3.9-4.3 s, its system time 1.6-1.75 to 0.34-0.45 s.

`with_frame_room(fn, ...)` calls `fn` from a frame that declares a value stack of ~1 MiB
(a copy of a two-line function's code with a larger co_stacksize): no 16 KiB chunk
has room for it, so CPython maps one of 2 MiB (a chunk is at least the frame plus 1,000
slots, rounded up to a power-of-two multiple of 16 KiB) and the frames of the call stack
after it, in the ~1 MiB left: hundreds of frames deep before a chunk ends (the passes' frames
are 0.1-0.5 KiB). The frame itself costs nothing to push (the value stack is not
cleared; only its pages touched are mapped in), one mmap and munmap of the chunk per
call. A frame object made for it (a traceback through it, sys._getframe) is allocated
at the declared size, ~1 MiB, for as long as it lives. Where the interpreter has no
such stack (before 3.11) or no code.replace, it is a plain call.
"""
from __future__ import annotations

__all__ = ["with_frame_room"]

# ~1 MiB of value stack: the frame and MINIMUM_OVERHEAD (1,000 slots) fit a 2 MiB chunk,
# about half of which stays free for the call's own frames
_ROOM_SLOTS = (1 << 17) - 2048


def _call_with_room(fn, args, kwargs):
    return fn(*args, **kwargs)


def _roomy():
    """_call_with_room with a value stack of _ROOM_SLOTS declared (see the Note)."""
    import sys
    import types
    if sys.version_info < (3, 11):
        return _call_with_room
    code = _call_with_room.__code__
    try:
        code = code.replace(co_stacksize=max(code.co_stacksize, _ROOM_SLOTS))
    except (AttributeError, TypeError, ValueError):
        return _call_with_room
    return types.FunctionType(code, _call_with_room.__globals__, "_call_with_room")


_ROOMY = _roomy()


def with_frame_room(fn, *args, **kwargs):
    """`fn(*args, **kwargs)`, its frames on a chunk of CPython's frame stack of its own
    ([Note: frame-stack room])."""
    return _ROOMY(fn, args, kwargs)
