"""Interpreter implementation of the strata_cpu dialect.

`strata_cpu.parallel_for` calls its function on a partition of [0, count) into at most
three ranges of at least `grain` (but the last), last range first: a function whose
ranges are not independent gives results that differ from one range in order.
"""
from __future__ import annotations

import numpy as np

from .core import fail, impl
from .ops_builtin import _callee, call_with_note


@impl("strata_cpu.parallel_for")
def _parallel_for(interp, op, args):
    count, grain, *values = args
    n, g = int(count), int(grain)
    if g < 1:
        fail(op, f"grain must be positive, got {g}")
    f = _callee(op, op.properties["callee"])
    size = max(g, -(-n // 3))
    for lo in reversed(range(0, max(n, 0), size)):
        call_with_note(interp, op, f, [*values, np.int64(lo), np.int64(min(lo + size, n))])
    return []
