"""Bufferization: tensors to memrefs, then buffer deallocation.

    one-shot-bufferize          analysis.py (in-place decisions), bufferize.py (driver,
                                functions, ownership), rules.py and scf_rules.py (the
                                memref form of each op)
    strata-concat-in-place      in_place.py (a buffer copied whole into a view of a new
                                buffer is written there instead: concatenations)
    buffer-deallocation-simple  deallocation.py (a memref.dealloc after each owned
                                buffer's last use)
    buffer-usage-report         usage.py (allocations, copies, peak live bytes)

From Python: `run_one_shot_bufferize(module, BufferizeOptions(...))`,
`deallocate(func_op)`, `check_deallocation(op)`, `peak_buffer_bytes(func_op)`.
"""
from __future__ import annotations

import sys

from ...ir.diagnostics import DiagnosticError
from ...passes.pass_manager import Option, Pass, PassFailure
from .analysis import BufferizationError
from .bufferize import BufferizeOptions, run_one_shot_bufferize
from .deallocation import check_deallocation, deallocate
from .in_place import ConcatInPlace, place_copies_in_place
from .usage import buffer_usage, global_bytes, peak_buffer_bytes

__all__ = ["OneShotBufferize", "BufferDeallocationSimple", "BufferUsageReport",
           "BufferizeOptions", "run_one_shot_bufferize", "deallocate",
           "check_deallocation", "peak_buffer_bytes", "buffer_usage", "BufferizationError",
           "ConcatInPlace", "place_copies_in_place"]

_LAYOUTS = ("infer-layout-map", "identity-layout-map", "fully-dynamic-layout-map")


class OneShotBufferize(Pass):
    """Upstream's pass and options; the ones that change nothing here (memory spaces,
    parallel regions, the analysis fuzzer) are accepted for pipeline compatibility."""

    name = "one-shot-bufferize"
    summary = "One-Shot Bufferize"
    allow_return_allocs_from_loops = Option(bool, False, "Allows returning/yielding new "
                                            "allocations from a loop.")
    allow_unknown_ops = Option(bool, False, "Allows unknown (not bufferizable) ops in the "
                               "input IR.")
    analysis_fuzzer_seed = Option(int, 0, "Test only: Analyze ops in random order with a "
                                  "given seed (fuzzer)")
    analysis_heuristic = Option(str, "bottom-up", "Heuristic that control the IR traversal "
                                "during analysis", choices=("bottom-up",))
    buffer_alignment = Option(int, 64, "Sets the alignment of newly allocated buffers.")
    bufferize_function_boundaries = Option(bool, False, "Bufferize function boundaries "
                                           "(experimental).")
    copy_before_write = Option(bool, False, "Skip the analysis. Make a buffer copy on every "
                               "write.")
    dialect_filter = Option(str, [], "Restrict bufferization to ops from these dialects.",
                            is_list=True)
    dump_alias_sets = Option(bool, False, "Test only: Annotate tensor IR with alias sets")
    function_boundary_type_conversion = Option(
        str, "infer-layout-map", "Controls layout maps when bufferizing function "
        "signatures.", choices=_LAYOUTS)
    may_have_parallel_regions = Option(bool, True, "Whether the IR may contain parallel "
                                       "regions.")
    must_infer_memory_space = Option(bool, False, "The memory space of an memref types must "
                                     "always be inferred.")
    no_analysis_func_filter = Option(str, [], "Skip analysis of functions with these symbol "
                                     "names.", is_list=True)
    print_conflicts = Option(bool, False, "Test only: Annotate IR with RaW conflicts. "
                             "Requires test-analysis-only.")
    test_analysis_only = Option(bool, False, "Test only: Only run inplaceability analysis "
                                "and annotate IR")
    unknown_type_conversion = Option(str, "fully-dynamic-layout-map", "Controls layout maps "
                                     "for non-inferrable memref types.", choices=_LAYOUTS)
    use_encoding_for_memory_space = Option(bool, False, "Use the Tensor encoding attribute "
                                           "for the memory space.")

    def options(self) -> BufferizeOptions:
        return BufferizeOptions(
            buffer_alignment=self.buffer_alignment,
            test_analysis_only=self.test_analysis_only,
            identity_layout=self.function_boundary_type_conversion == "identity-layout-map",
            function_boundaries=self.bufferize_function_boundaries,
            allow_return_allocs_from_loops=self.allow_return_allocs_from_loops,
            copy_before_write=self.copy_before_write,
            print_conflicts=self.print_conflicts and self.test_analysis_only,
            allow_unknown_ops=self.allow_unknown_ops)

    def run(self, op):
        if self.copy_before_write and self.test_analysis_only:
            self.signal_failure("copy-before-write cannot be used with test-analysis-only",
                                op)
        try:
            run_one_shot_bufferize(op, self.options())
        except DiagnosticError as e:
            raise PassFailure(e.diag) from None


class BufferDeallocationSimple(Pass):
    name = "buffer-deallocation-simple"
    summary = ("Free every buffer a function allocates and does not return, after its last "
               "use (buffers owned as one-shot-bufferize leaves them)")
    forward_copies = Option(bool, True, "Reuse a buffer that is dead after being copied "
                            "into a new one instead of the copy")

    def run(self, op):
        funcs = [op] if op.name == "func.func" else \
            [o for o in op.walk() if o.name == "func.func" and o.regions[0].blocks]
        try:
            for f in funcs:
                deallocate(f, forward=self.forward_copies)
        except DiagnosticError as e:
            raise PassFailure(e.diag) from None


class BufferUsageReport(Pass):
    """Print, per function, its allocations, copies and peak live buffer bytes."""

    name = "buffer-usage-report"
    summary = "Report the allocations, copies and peak live bytes of bufferized functions"

    def run(self, op):
        out = sys.stderr
        out.write("Buffer usage:\n")
        for u in buffer_usage(op):
            peak = "unknown (dynamic shapes)" if u.peak_bytes is None else \
                f"{u.peak_bytes} bytes"
            dyn = f" + {u.dynamic_allocs} dynamic" if u.dynamic_allocs else ""
            out.write(f"  @{u.name}: {u.allocs} allocations ({u.allocated_bytes} bytes"
                      f"{dyn}), {u.copies} copies ({u.copied_bytes} bytes), peak {peak}\n")
        out.write(f"  globals: {global_bytes(op)} bytes\n")
        self.mark_all_analyses_preserved()


from ...passes.registry import register_pass  # noqa: E402

for _p in (OneShotBufferize, ConcatInPlace, BufferDeallocationSimple, BufferUsageReport):
    register_pass(_p)
