"""Strata's dialects and the one registry of them.

`ALL_DIALECTS` lists every dialect Strata ships; `default_context()` makes a Context that
has them all registered (what strata-opt and the compiler use).
"""
from __future__ import annotations

from ..ir.context import Context


def all_dialects():
    from .arith import ARITH
    from .builtin import BUILTIN
    from .func import FUNC
    return [BUILTIN, FUNC, ARITH]


def default_context(allow_unregistered: bool = False) -> Context:
    return Context(all_dialects(), allow_unregistered=allow_unregistered)
