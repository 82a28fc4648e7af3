"""Pause Python's cyclic garbage collector around bulk IR construction and traversal.

Parsing a module allocates millions of small objects that all stay alive; the cyclic
collector would re-scan them again and again (its cost grows with the live heap), making
large inputs superlinear. Ops, values and uses form reference cycles, so the collector is
switched back on afterwards, never left off.

    with gc_paused():                 # parse, print, one pass...
        module = parse_source(text, ctx)
    with gc_paused(promote=True):     # a whole compile: see [Note: what a pause leaves]
        f = compile(...)
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused(promote: bool = False):
    """The collector off inside; with `promote`, what the pause allocated is moved to the
    oldest generation as it ends instead of being scanned by the next young collection
    (see [Note: what a pause leaves]). A nested pause changes nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if promote:
                promote_to_oldest()
            gc.enable()


def promote_to_oldest() -> bool:
    """Move every object the collector tracks to its oldest generation, without a scan;
    False (nothing done) where the program froze objects itself (gc.freeze: its frozen
    objects stay frozen).

    [Note: what a pause leaves]
    With the collector paused, nothing allocated is ever promoted: when a long pause
    ends, the youngest generation holds everything it made. The first young collection
    after it then traverses all of it, though almost all of it is alive and stays so:
    after a compile (strata.compile pauses the collector for the whole of it: [Note: no
    collector while compiling] in compiler.py) that was the compiled model, the modules
    imported on the way, the kernel library: 120,000-160,000 objects, 0.05-0.1 s of
    CPU, 4-8% of a median zoo model's cold compile, for 3,000-20,000 garbage objects
    (the dropped IR's cycles, a few MB; no weight buffers: those are freed by reference
    counting, [Note: erased ops are freed by reference counting] in core.py). Promoted
    instead (gc.freeze() then gc.unfreeze(): two list splices), the survivors are where
    the collector would have put them after two young collections, and the garbage
    is collected by the next full collection, which the interpreter runs on its own
    schedule (or gc.collect()): deferred, not leaked. A program that froze objects
    itself (pre-fork servers do) keeps them frozen: then the young collection runs as
    before."""
    if gc.get_freeze_count():
        return False
    gc.freeze()
    gc.unfreeze()
    return True
