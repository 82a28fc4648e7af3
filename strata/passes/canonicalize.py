"""`canonicalize`: fold ops and apply every registered canonicalization pattern with the
greedy driver, as upstream's Canonicalizer pass does."""
from __future__ import annotations

from ..ir.diagnostics import WARNING, Diagnostic
from .pass_manager import Option, Pass, PassFailure

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
    top_down = Option(bool, True, "seed the worklist in general top-down order")
    region_simplify = Option(str, "normal", "region simplification level",
                             choices=("disabled", "normal", "aggressive"))
    max_iterations = Option(int, 10, "max. iterations between applying patterns and "
                            "simplifying regions")
    max_num_rewrites = Option(int, -1, "max. number of pattern rewrites per iteration")
    test_convergence = Option(bool, False, "fail if the rewrite does not converge")
    disable_patterns = Option(str, [], "labels of patterns to disable", is_list=True)
    enable_patterns = Option(str, [], "labels of patterns to enable (only these)",
                             is_list=True)
    cse_constants = Option(bool, True, "unique and hoist constants")
    fold = Option(bool, True, "fold ops")

    def run(self, op):
        from ..dialects import all_dialects
        from ..rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        dialects = all_dialects()
        patterns = canonicalization_patterns(dialects)
        if self.enable_patterns:
            patterns = [p for p in patterns if p.debug_name in self.enable_patterns]
        if self.disable_patterns:
            patterns = [p for p in patterns if p.debug_name not in self.disable_patterns]
        config = GreedyRewriteConfig(top_down=self.top_down,
                                     max_iterations=self.max_iterations,
                                     max_num_rewrites=self.max_num_rewrites,
                                     region_simplification=self.region_simplify,
                                     fold=self.fold, cse_constants=self.cse_constants)
        result = apply_patterns_greedily(op, patterns, config,
                                         {d.name: d for d in dialects})
        self.stat("num-rewrites", result.rewrites)
        if not result.converged:
            msg = (f"canonicalize did not converge after {self.max_iterations} "
                   "iterations (max-iterations)")
            if self.test_convergence:
                self.signal_failure(msg, op)
            import sys
            sys.stderr.write(Diagnostic(WARNING, op.loc, msg).render(None) + "\n")
