"""`print-op-stats`: count the ops of each kind (printed like upstream's
`Operations encountered` table, or as JSON with `json=true`)."""
from __future__ import annotations

import json as _json
import sys

from .pass_manager import Option, Pass


class PrintOpStats(Pass):
    name = "print-op-stats"
    summary = "Print statistics of operations"
    json = Option(bool, False, "print the statistics as JSON")

    def run(self, op):
        counts: dict[str, int] = {}
        for o in op.walk():
            counts[o.name] = counts.get(o.name, 0) + 1
        out = sys.stderr
        if self.json:
            out.write("{\n" + ",\n".join(f'"{k}" : {v}' for k, v in sorted(counts.items()))
                      + "\n}\n")
        else:
            out.write("Operations encountered:\n-----------------------\n")
            width = max((len(k) for k in counts), default=0)
            for k, v in sorted(counts.items()):
                out.write(f"{k:>{width}} , {v:>6}\n")
        self.mark_all_analyses_preserved()
