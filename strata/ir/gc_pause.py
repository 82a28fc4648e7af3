"""Pause Python's cyclic garbage collector around bulk IR construction and traversal.

Parsing a module allocates millions of small objects that all stay alive; the cyclic
collector would re-scan them again and again (its cost grows with the live heap), making
large inputs superlinear. Ops, values and uses form reference cycles, so the collector is
switched back on afterwards, never left off.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
