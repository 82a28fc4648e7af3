"""Pass instrumentation: IR printing around passes, timing, statistics.

The dump headers are mlir-opt's: `// -----// IR Dump After CSE (cse) //----- //`.
"""
from __future__ import annotations

import sys


class Instrumentation:
    def __init__(self, print_before=(), print_after=(), print_after_all=False,
                 print_after_change=False, print_before_all=False, timing=False,
                 statistics=False, print_options=None, out=None, verify_each=True):
        self.print_before = set(print_before)
        self.print_after = set(print_after)
        self.print_after_all = print_after_all
        self.print_before_all = print_before_all
        self.print_after_change = print_after_change
        self.timing = timing
        self.statistics = statistics
        self.print_options = print_options
        self.out = out or sys.stderr
        self.verify_each = verify_each
        self.times: list = []  # (pass name, seconds)
        self.stats: list = []  # (pass, statistics)
        self.root = None
        self.pipeline = ""
        self._before_text = None

    def _print(self, op) -> str:
        from ..syntax.printer import print_op
        return print_op(op, self.print_options)

    def _dump(self, when, p, op):
        self.out.write(f"// -----// IR Dump {when} {type(p).__name__} ({p.name}) //----- //\n")
        self.out.write(self._print(op))
        self.out.write("\n")

    def before(self, p, op):
        if self.print_before_all or p.name in self.print_before:
            self._dump("Before", p, op)
        if self.print_after_change:
            self._before_text = self._print(op)

    def after(self, p, op, seconds):
        self.times.append((p.name, seconds))
        if p.statistics:
            self.stats.append((p, dict(p.statistics)))
        if self.print_after_all or p.name in self.print_after:
            self._dump("After", p, op)
        elif self.print_after_change:
            text = self._print(op)
            if text != self._before_text:
                self._dump("After", p, op)

    def failed(self, p, op):
        if self.print_after_all or p.name in self.print_after:
            self.out.write(f"// -----// IR Dump After {type(p).__name__} Failed ({p.name})"
                           f" //----- //\n")
            self.out.write(self._print(op))
            self.out.write("\n")

    def finish(self):
        if self.timing:
            self.out.write(self.timing_report())
        if self.statistics:
            self.out.write(self.statistics_report())

    def timing_report(self) -> str:
        total = sum(t for _, t in self.times) or 1e-9
        agg: dict = {}
        order = []
        for name, t in self.times:
            if name not in agg:
                order.append(name)
                agg[name] = 0.0
            agg[name] += t
        lines = ["===" + "-" * 73 + "===",
                 " " * 29 + "... Execution time report ...",
                 "===" + "-" * 73 + "===",
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name in order:
            t = agg[name]
            lines.append(f"  {t:9.4f} ({100 * t / total:5.1f}%)  {name}")
        lines.append(f"  {total:9.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"

    def statistics_report(self) -> str:
        lines = ["===" + "-" * 73 + "===",
                 " " * 26 + "... Pass statistics report ...",
                 "===" + "-" * 73 + "==="]
        merged: dict = {}
        order = []
        for p, st in self.stats:
            key = (type(p).__name__, p.name)
            if key not in merged:
                order.append(key)
                merged[key] = {}
            for k, v in st.items():
                merged[key][k] = merged[key].get(k, 0) + v
        for key in order:
            lines.append(f"{key[0]}")
            for k, v in sorted(merged[key].items()):
                lines.append(f"  ({k}) {v}")
        return "\n".join(lines) + "\n"
