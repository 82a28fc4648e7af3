"""Passes for testing the pass manager, loaded with `strata-opt --load-pass-plugin=`.

They also show how downstream code adds passes: subclass Pass, `register_pass` it.
"""
from strata.ir.attributes import IntegerAttr, i32
from strata.passes.pass_manager import Option, Pass, Statistic
from strata.passes.registry import register_pass


@register_pass
class TestPassFailure(Pass):
    """Fails with an error at the op it runs on (or at every `test.fail` attribute)."""
    name = "test-pass-failure"
    summary = "Test pass that signals failure"
    message = Option(str, "test pass failed", "the error message")

    def run(self, op):
        self.signal_failure(self.message, op)


@register_pass
class TestPassCrash(Pass):
    """Raises a Python exception: a bug in a pass."""
    name = "test-pass-crash"
    summary = "Test pass that raises an exception"
    anchor = "func.func"

    def run(self, op):
        raise RuntimeError("boom")


@register_pass
class TestPassInvalidIR(Pass):
    """Leaves IR that does not verify: gives the function's return a wrong operand."""
    name = "test-pass-invalid-ir"
    summary = "Test pass that breaks the IR"
    anchor = "func.func"

    def run(self, op):
        for inner in op.walk():
            if inner.name == "func.return":
                inner.attributes["test.broken"] = IntegerAttr(1, i32)
                inner.set_operands([])
                return


@register_pass
class TestFuncPass(Pass):
    """Anchored on functions; records each function it ran on in `test.visited`."""
    name = "test-func-pass"
    summary = "Test pass anchored on func.func"
    anchor = "func.func"
    num_funcs = Statistic("num-funcs", "Number of functions visited")

    def run(self, op):
        from strata.ir.attributes import UnitAttr
        op.attributes["test.visited"] = UnitAttr()
        self.stat("num-funcs")


@register_pass
class TestPassCount(Pass):
    """Counts ops with a statistic and changes nothing."""
    name = "test-pass-count"
    summary = "Test pass with statistics"
    num_ops = Statistic("num-ops", "Number of ops seen")
    num_blocks = Statistic("num-blocks", "Number of blocks seen")

    def run(self, op):
        for o in op.walk():
            self.stat("num-ops")
            for r in o.regions:
                self.stat("num-blocks", len(r.blocks))
        self.mark_all_analyses_preserved()
