"""`strip-debuginfo`: replace every location with `loc(unknown)`."""
from __future__ import annotations

from ..ir.location import UnknownLoc
from .pass_manager import Pass


class StripDebugInfo(Pass):
    name = "strip-debuginfo"
    summary = "Strip debug info from all operations"

    def run(self, op):
        unknown = UnknownLoc()
        for o in op.walk():
            o.loc = unknown
            for r in o.regions:
                for b in r.blocks:
                    for a in b.args:
                        a.loc = unknown
        self.mark_all_analyses_preserved()
