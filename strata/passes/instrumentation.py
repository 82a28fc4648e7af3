"""Pass instrumentation: IR printing around passes, timing, statistics.

The formats are mlir-opt's (single-threaded, as with `--mlir-disable-threading`):

    // -----// IR Dump After CSEPass: cse //----- //
    // -----// IR Dump After CanonicalizerPass: canonicalize{... top-down=true} //----- //
    // -----// IR Dump After CSEPass: cse ('func.func' operation: @f) //----- //   (module scope)
    // -----// IR Dump After CanonicalizerPass Failed: canonicalize{...} //----- //

followed by the op the pass ran on (the top-level op with `module_scope`) and a blank
line. `--mlir-timing` prints the execution time report as a tree (Parser, pipelines,
passes, analyses `(A) Name`, Output, Rest, Total); `--mlir-pass-statistics` prints the
pass statistics report, per nested pipeline.
"""
from __future__ import annotations

import sys
import time

from .pass_manager import Pass, PassManager, op_description

__all__ = ["Instrumentation", "Timing", "statistics_report"]

_RULE = "===" + "-" * 73 + "==="


def _banner(title: str) -> list[str]:
    return [_RULE, " " * 25 + f"... {title} ...", _RULE]


# ---------------------------------------------------------------------- timing


class _TimerNode:
    __slots__ = ("name", "wall", "children")

    def __init__(self, name):
        self.name = name
        self.wall = 0.0
        self.children: dict[str, _TimerNode] = {}

    def child(self, name) -> "_TimerNode":
        c = self.children.get(name)
        if c is None:
            c = self.children[name] = _TimerNode(name)
        return c


class Timing:
    """A tree of wall-clock timers: `with timing.scope("Parser"): ...`. Timers with the
    same name under the same parent accumulate (a pass run on every function)."""

    def __init__(self, display: str = "tree"):
        self.display = display
        self.root = _TimerNode("root")
        self._stack = [(self.root, None)]
        self._t0 = time.perf_counter()

    def restart(self) -> None:
        """Start the total over (when the timed work begins later than construction)."""
        self._t0 = time.perf_counter()

    def start(self, name: str) -> None:
        parent = self._stack[-1][0]
        self._stack.append((parent.child(name), time.perf_counter()))

    def stop(self) -> None:
        node, t0 = self._stack.pop()
        node.wall += time.perf_counter() - t0

    def scope(self, name: str):
        timing = self

        class _Scope:
            def __enter__(self):
                timing.start(name)

            def __exit__(self, *exc):
                timing.stop()
                return False
        return _Scope()

    def report(self) -> str:
        while len(self._stack) > 1:  # close timers left open by a failure
            self.stop()
        total = time.perf_counter() - self._t0
        self.root.wall = total
        lines = _banner("Execution time report")
        lines.append(f"  Total Execution Time: {total:.4f} seconds")
        lines.append("")
        lines.append("  ----Wall Time----  ----Name----")

        def row(t, name, depth):
            pct = 100.0 * t / total if total > 0 else 0.0
            lines.append(f"  {t:8.4f} ({pct:5.1f}%)  {'  ' * depth}{name}")

        if self.display == "list":
            merged: dict[str, float] = {}

            def collect(n):
                for c in n.children.values():
                    merged[c.name] = merged.get(c.name, 0.0) + c.wall
                    collect(c)
            collect(self.root)
            for name, t in sorted(merged.items(), key=lambda kv: -kv[1]):
                row(t, name, 0)
        else:
            def tree(n, depth):
                for c in n.children.values():
                    row(c.wall, c.name, depth)
                    tree(c, depth + 1)
            tree(self.root, 0)
        rest = total - sum(c.wall for c in self.root.children.values())
        row(max(rest, 0.0), "Rest", 0)
        row(total, "Total", 0)
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- statistics


def _stat_lines(p: Pass, indent: str, stats: dict | None = None) -> list[str]:
    defs = {s.name: s.help for s in p.statistic_defs()}
    items = list((p.statistics if stats is None else stats).items())
    if not items:
        return []
    width = max(len(str(v)) for _, v in items)
    out = []
    for name, v in items:
        desc = defs.get(name, "")
        out.append(f"{indent}(S) {v:>{width}} {name}" + (f" - {desc}" if desc else ""))
    return out


def statistics_report(pm: PassManager, display: str = "pipeline") -> str:
    """The `--mlir-pass-statistics` report of a pipeline that ran."""
    lines = _banner("Pass statistics report")
    if display == "list":
        merged: dict[str, tuple[Pass, dict]] = {}
        for p in pm.all_passes():
            if not p.statistics:
                continue
            key = p.pass_display_name()
            if key not in merged:
                merged[key] = (p, {})
            acc = merged[key][1]
            for k, v in p.statistics.items():
                acc[k] = acc.get(k, 0) + v
        for key in sorted(merged):
            p, stats = merged[key]
            lines.append(f"  {key}")
            lines.extend(_stat_lines(p, "    ", stats))
    else:
        def walk(m: PassManager, indent: str):
            for p in m.passes:
                if isinstance(p, PassManager):
                    lines.append(f"{indent}'{p.anchor_text}' Pipeline")
                    walk(p, indent + "  ")
                else:
                    lines.append(f"{indent}{p.pass_display_name()}")
                    lines.extend(_stat_lines(p, indent + "  "))
        walk(pm, "")
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------------- the hooks


class Instrumentation:
    """What the pass manager reports to while it runs: IR printing, timing and
    statistics, as configured by strata-opt's `--mlir-print-ir-*`, `--mlir-timing` and
    `--mlir-pass-statistics` flags. Output goes to `out` (stderr by default)."""

    def __init__(self, print_before=(), print_after=(), print_after_all=False,
                 print_after_change=False, print_before_all=False, timing=False,
                 statistics=False, print_options=None, out=None, verify_each=True,
                 print_after_failure=False, print_module_scope=False,
                 timing_display="tree", statistics_display="pipeline"):
        self.print_before = set(print_before)
        self.print_after = set(print_after)
        self.print_after_all = print_after_all
        self.print_before_all = print_before_all
        self.print_after_change = print_after_change
        self.print_after_failure = print_after_failure
        self.print_module_scope = print_module_scope
        # `timing` is True (a fresh Timing per run) or a Timing shared with the caller,
        # which times parsing and printing around the pipeline.
        self.timing = Timing(timing_display) if timing is True else (timing or None)
        self.statistics = statistics
        self.statistics_display = statistics_display
        self.print_options = print_options
        self.out = out or sys.stderr
        self.verify_each = verify_each
        self.diagnostic_handler = None
        self.root = None
        self.pipeline = None
        self._before_text: dict = {}

    # -- IR printing
    def _print(self, op) -> str:
        from ..syntax.printer import print_op
        return print_op(op, self.print_options)

    def _dump(self, when, p, op):
        target, scope = op, ""
        if self.print_module_scope:
            while target.parent_op is not None:
                target = target.parent_op
            scope = f" ({op_description(op)})"
        self.out.write(f"// -----// IR Dump {when} {p.pass_display_name()}: "
                       f"{p.pipeline_text()}{scope} //----- //\n")
        self.out.write(self._print(target))
        self.out.write("\n\n")

    def _prints_after(self, p) -> bool:
        return self.print_after_all or p.name in self.print_after

    def before_pass(self, p, op):
        if self.print_before_all or p.name in self.print_before:
            self._dump("Before", p, op)
        if self.print_after_change and self._prints_after(p):
            self._before_text[id(op)] = self._print(op)
        if self.timing is not None:
            self.timing.start(p.pass_display_name())

    def after_pass(self, p, op):
        if self.timing is not None:
            self.timing.stop()
        if self._prints_after(p):
            if self.print_after_change:
                before = self._before_text.pop(id(op), None)
                if before is not None and before == self._print(op):
                    return
            self._dump("After", p, op)

    def after_pass_failed(self, p, op):
        if self.timing is not None:
            self.timing.stop()
        self._before_text.pop(id(op), None)
        if self.print_after_failure or self._prints_after(p):
            self._dump("After", _Failed(p), op)

    # -- nested pipelines and analyses
    def before_pipeline(self, pm, op):
        if self.timing is not None:
            self.timing.start(f"'{pm.anchor_text}' Pipeline")

    def after_pipeline(self, pm, op):
        if self.timing is not None:
            self.timing.stop()

    def before_analysis(self, analysis_cls, op):
        if self.timing is not None:
            self.timing.start(f"(A) {analysis_cls.__name__}")

    def after_analysis(self, analysis_cls, op):
        if self.timing is not None:
            self.timing.stop()

    # -- reports
    def finish(self, pm):
        """Called when a pipeline run ends: the statistics report (the timing report
        waits for the caller, which also times the output)."""
        if self.statistics:
            self.out.write(statistics_report(pm, self.statistics_display))

    def timing_report(self) -> str:
        return self.timing.report() if self.timing is not None else ""


class _Failed:
    """A pass seen by the IR dump header of a failure: `CanonicalizerPass Failed`."""

    def __init__(self, p):
        self.p = p
        self.name = p.name

    def pass_display_name(self):
        return self.p.pass_display_name() + " Failed"

    def pipeline_text(self):
        return self.p.pipeline_text()
