"""reconcile-unrealized-casts: fold away `builtin.unrealized_conversion_cast` chains
that round-trip (A -> B -> A is A) and casts without uses, as upstream. Casts still
needed stay; the pass fails on none (upstream's behaviour)."""
from __future__ import annotations

from ...passes.pass_manager import Pass
from ...rewrite.conversion import reconcile_unrealized_casts

__all__ = ["ReconcileUnrealizedCasts", "reconcile"]

_CAST = "builtin.unrealized_conversion_cast"


def reconcile(op) -> list:
    """Fold the casts nested in `op`; returns the casts that remain."""
    casts = [o for o in op.walk() if o.name == _CAST]
    return reconcile_unrealized_casts(casts) if casts else []


class ReconcileUnrealizedCasts(Pass):
    name = "reconcile-unrealized-casts"
    summary = "Simplify and eliminate unrealized conversion casts"

    def run(self, op):
        reconcile(op)
