"""`canonicalize`: fold ops and apply every registered canonicalization pattern with the
greedy driver (strata/rewrite/greedy.py), as upstream's Canonicalizer pass does.

    strata-opt in.mlir --canonicalize
    strata-opt in.mlir --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=3}))'

The options are upstream's, so that pipelines print and re-run the same in both tools.
A rewrite that does not converge within `max-iterations` gets a warning, or an error
with `test-convergence` (which upstream reports by failing without a message).
"""
from __future__ import annotations

from .pass_manager import Option, Pass

__all__ = ["Canonicalize", "canonicalization_patterns"]


def canonicalization_patterns(dialects=None):
    """The canonicalization patterns of every op (its `canonicalization_patterns()`
    classmethod) and dialect (its `canonical_patterns` callable)."""
    if dialects is None:
        from ..dialects import all_dialects
        dialects = all_dialects()
    out = []
    for d in dialects:
        if d.canonical_patterns is not None:
            out.extend(d.canonical_patterns())
        for cls in d.ops.values():
            fn = getattr(cls, "canonicalization_patterns", None)
            if fn is not None:
                out.extend(fn())
    return out


class Canonicalize(Pass):
    name = "canonicalize"
    summary = "Canonicalize operations"
    display_name = "CanonicalizerPass"
    top_down = Option(bool, True, "Seed the worklist in general top-down order")
    region_simplify = Option(str, "normal", "Perform control flow optimizations to the "
                             "region tree", choices=("disabled", "normal", "aggressive"))
    max_iterations = Option(int, 10, "Max. iterations between applying patterns / "
                            "simplifying regions")
    max_num_rewrites = Option(int, -1, "Max. number of pattern rewrites within an "
                              "iteration")
    test_convergence = Option(bool, False, "Test only: Fail pass on non-convergence to "
                              "detect cyclic pattern")
    cse_between_iterations = Option(bool, False, "Run full CSE between each "
                                    "pattern-application iteration")
    disable_patterns = Option(str, [], "Labels of patterns that should be filtered out "
                              "during application", is_list=True)
    enable_patterns = Option(str, [], "Labels of patterns that should be used during "
                             "application, all other patterns are filtered out",
                             is_list=True)
    filter_dialects = Option(str, [], "If non-empty, only collect canonicalization "
                             "patterns from the dialects with the given namespaces",
                             is_list=True)

    def initialize(self):
        from ..dialects import all_dialects
        from ..rewrite.greedy import FrozenPatternSet
        dialects = all_dialects()
        self._dialects = {d.name: d for d in dialects}
        if self.filter_dialects:
            unknown = [n for n in self.filter_dialects if n not in self._dialects]
            if unknown:
                self.signal_failure(f"canonicalize: filter-dialects names unknown "
                                    f"dialect '{unknown[0]}'")
            dialects = [d for d in dialects if d.name in self.filter_dialects]
        patterns = canonicalization_patterns(dialects)
        if self.enable_patterns:
            patterns = [p for p in patterns if p.debug_name in self.enable_patterns]
        if self.disable_patterns:
            patterns = [p for p in patterns if p.debug_name not in self.disable_patterns]
        self._patterns = FrozenPatternSet(patterns)

    def run(self, op):
        from ..rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        if not hasattr(self, "_patterns"):
            self.initialize()
        config = GreedyRewriteConfig(top_down=self.top_down,
                                     max_iterations=self.max_iterations,
                                     max_num_rewrites=self.max_num_rewrites,
                                     region_simplification=self.region_simplify,
                                     cse_between_iterations=self.cse_between_iterations)
        result = apply_patterns_greedily(op, self._patterns, config, self._dialects)
        if not result.changed:
            self.mark_all_analyses_preserved()
        if not result.converged:
            msg = (f"canonicalize did not converge within max-iterations="
                   f"{self.max_iterations} (patterns may be rewriting each other in a "
                   "cycle)")
            if self.test_convergence:
                self.signal_failure(msg, op)
            self.emit_warning(msg, op)
