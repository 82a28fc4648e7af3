"""`print-op-stats`: count the ops of each kind, printed like upstream's table

    Operations encountered:
    -----------------------
        arith.addi     , 3
      builtin.module   , 1

(dialect right-aligned, op name left-aligned), or as JSON with `json=true`."""
from __future__ import annotations

import sys

from .pass_manager import Option, Pass

__all__ = ["PrintOpStats"]


class PrintOpStats(Pass):
    name = "print-op-stats"
    summary = "Print statistics of operations"
    json = Option(bool, False, "print the stats as JSON")

    def run(self, op):
        counts: dict[str, int] = {}
        for o in op.walk():
            counts[o.name] = counts.get(o.name, 0) + 1
        out = sys.stderr
        names = sorted(counts)
        if self.json:
            body = ",\n".join(f'  "{k}" : {counts[k]}' for k in names)
            out.write("{\n" + body + ("\n" if body else "") + "}\n")
        else:
            out.write("Operations encountered:\n-----------------------\n")
            split = [k.split(".", 1) if "." in k else ["", k] for k in names]
            dw = max((len(d) for d, _ in split), default=0)
            ow = max((len(o) for _, o in split), default=0)
            for (d, o), k in zip(split, names):
                out.write(f"{d:>{dw + 2}}.{o:<{ow}} , {counts[k]}\n")
        self.mark_all_analyses_preserved()
