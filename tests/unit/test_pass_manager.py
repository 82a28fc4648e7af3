"""The pass infrastructure: options, pipeline text, nesting, verification, analyses,
failures and reproducers, instrumentation, the registry, and the greedy driver's
contract with patterns. What text in / text out reaches is in tests/lit/passes/."""
from __future__ import annotations

import contextlib
import io
import os

import pytest

from strata.dialects import default_context
from strata.ir.attributes import UnitAttr, i32
from strata.passes.instrumentation import Instrumentation, Timing, statistics_report
from strata.passes.pass_manager import (AnalysisManager, Option, Pass, PassFailure,
                                        PassManager, PreservedAnalyses, Statistic)
from strata.passes.pipeline import PipelineError, parse_options, parse_pipeline
from strata.passes.registry import (all_pass_classes, get_pass_class, register_pass,
                                    unregister_pass)
from strata.passes.reproducer import (read_reproducer_config, reproducer_text,
                                      write_reproducer)
from strata.rewrite.greedy import (FrozenPatternSet, GreedyRewriteConfig,
                                   apply_op_patterns_greedily, apply_patterns_greedily)
from strata.rewrite.pattern import Listener, RewritePattern
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op
from strata.tools.opt import main as opt_main

TWO_FUNCS = """
func.func @f(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %arg0, %0 : i32
  %2 = arith.addi %arg0, %0 : i32
  %3 = arith.muli %1, %2 : i32
  return %3 : i32
}
func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}
"""


def parse(text=TWO_FUNCS):
    return parse_source(text, default_context(), "test.mlir")


def funcs(module):
    return [op for op in module.regions[0].blocks[0].ops if op.name == "func.func"]


def sym(op):
    return op.properties["sym_name"].value


# ---------------------------------------------------------------------- test passes


class Record(Pass):
    """Records (pass label, op symbol or name) into a shared log."""
    name = "test-record"
    label = Option(str, "r", "the label logged")
    log: list = []

    def run(self, op):
        s = op.properties.get("sym_name")
        Record.log.append((self.label, s.value if s is not None else op.name))
        self.mark_all_analyses_preserved()


class FuncRecord(Record):
    name = "test-func-record"
    anchor = "func.func"


class Options(Pass):
    name = "test-options"
    count = Option(int, 3, "a number")
    flag = Option(bool, False, "a flag")
    mode = Option(str, "a", "a choice", choices=("a", "b"))
    names = Option(str, [], "a list", is_list=True)
    text = Option(str, "", "free text")
    hits = Statistic("hits", "How often")

    def run(self, op):
        self.stat("hits", self.count)


@pytest.fixture
def registered():
    """Register the test passes for the duration of one test."""
    names = []
    for cls in (Record, FuncRecord, Options):
        register_pass(cls)
        names.append(cls.name)
    Record.log = []
    yield
    for n in names:
        unregister_pass(n)


# ---------------------------------------------------------------------- options


def test_options_parse_and_print_like_upstream():
    p = Options.from_options_text("count=0x10 flag mode=b names=x,y text={a b}")
    assert (p.count, p.flag, p.mode, p.names, p.text) == (16, True, "b", ["x", "y"], "a b")
    # Sorted by name, lists in braces, values with spaces in braces.
    assert p.options_text() == "{count=16 flag=true mode=b names={x,y} text={a b}}"
    # An empty list prints as nothing (upstream leaves the double space).
    assert Options().options_text() == "{count=3 flag=false mode=a  text=}"
    assert Options.from_options_text(Options().options_text()[1:-1]).count == 3


@pytest.mark.parametrize("text,message", [
    ("count=x", "invalid value for option 'count' of pass 'test-options': 'x' is not an "
                "integer"),
    ("flag=maybe", "'maybe' is not a boolean"),
    ("mode=c", "'c' is not one of: a, b"),
    ("nope=1", "no such option 'nope' for pass 'test-options'"),
])
def test_option_errors(text, message):
    with pytest.raises(ValueError, match="^.*" + message.replace("(", r"\(").replace(
            ")", r"\)")):
        Options.from_options_text(text)


def test_parse_options_quoting():
    assert parse_options('a=1 b="x y" c={p{q} r} d') == [
        ("a", "1"), ("b", "x y"), ("c", "p{q} r"), ("d", "true")]
    assert parse_options("p=canonicalize{max-iterations=3} q=2") == [
        ("p", "canonicalize{max-iterations=3}"), ("q", "2")]


def test_canonicalize_options_are_upstreams():
    c = get_pass_class("canonicalize")()
    assert c.pass_display_name() == "CanonicalizerPass"
    assert c.pipeline_text() == (
        "canonicalize{cse-between-iterations=false    max-iterations=10 max-num-rewrites=-1"
        " region-simplify=normal test-convergence=false top-down=true}")


# ---------------------------------------------------------------------- pipeline text


def test_pipeline_round_trip(registered):
    text = ("builtin.module(func.func(test-options{count=2 names=a,b},test-func-record),"
            "test-record{label=x},any(test-record))")
    pm = parse_pipeline(text)
    assert pm.anchor == "builtin.module"
    again = parse_pipeline(pm.pipeline_text())
    assert again.pipeline_text() == pm.pipeline_text()
    assert pm.pipeline_text().startswith("builtin.module(func.func(test-options{count=2 ")
    assert "any(test-record{label=r})" in pm.pipeline_text()


def test_pipeline_bare_list_with_root_anchor(registered):
    pm = parse_pipeline("test-func-record, test-options", root_anchor="func.func")
    assert pm.anchor == "func.func" and len(pm.passes) == 2


@pytest.mark.parametrize("text,message,pos", [
    ("builtin.module(nope)", "'nope' does not refer to a registered pass", 15),
    ("builtin.module(func.func(cse)", "unbalanced parentheses", 14),
    ("builtin.module(canonicalize{max-iterations=3)", "missing closing '}'", 27),
    ("cse", "expected pass pipeline to be wrapped", None),
    ("builtin.module(test-func-record)", "did you intend to nest?", None),
    ("builtin.module(func.func{a=1}(cse))", "cannot take options", 15),
])
def test_pipeline_errors(registered, text, message, pos):
    with pytest.raises(PipelineError) as e:
        parse_pipeline(text)
    assert message in str(e.value)
    assert e.value.pos == pos
    if pos is not None:
        assert e.value.render().splitlines()[-1] == " " * pos + "^"


def test_implicit_nesting_shares_consecutive_managers(registered):
    pm = PassManager("builtin.module")
    for p in (FuncRecord(), FuncRecord(), Record(), FuncRecord()):
        pm.add(p, nest_implicitly=True)
    assert [type(p).__name__ for p in pm.passes] == ["PassManager", "Record", "PassManager"]
    assert len(pm.passes[0].passes) == 2
    with pytest.raises(ValueError, match="did you intend to nest"):
        PassManager("builtin.module").add(FuncRecord())


# ---------------------------------------------------------------------- running


def test_nested_managers_run_each_function_through_the_pipeline(registered):
    pm = parse_pipeline("builtin.module(func.func(test-func-record{label=a},"
                        "test-func-record{label=b}),test-record{label=m})")
    pm.run(parse())
    assert Record.log == [("a", "f"), ("b", "f"), ("a", "g"), ("b", "g"),
                          ("m", "builtin.module")]


def test_any_manager_runs_on_isolated_ops_only(registered):
    m = parse(TWO_FUNCS + "\n%c = arith.constant 3 : i32\n")
    parse_pipeline("builtin.module(any(test-record))").run(m)
    assert Record.log == [("r", "f"), ("r", "g")]


def test_wrong_root_and_non_isolated_anchor(registered):
    with pytest.raises(PassFailure, match="can't run 'func.func' pass manager on "
                                          "'builtin.module' op"):
        parse_pipeline("func.func(test-func-record)").run(parse())
    with pytest.raises(PassFailure, match="not marked as 'IsolatedFromAbove'"):
        parse_pipeline("builtin.module(func.func(arith.addi(test-record)))").run(parse())


class Breaker(Pass):
    name = "test-breaker"
    anchor = "func.func"
    how = Option(str, "invalid")

    def run(self, op):
        if self.how == "crash":
            {}["missing"]
        if self.how == "fail":
            self.signal_failure("nope", op)
        ret = op.regions[0].blocks[0].last
        ret.set_operands([])


@pytest.mark.parametrize("how,kind,message", [
    ("invalid", "invalid", "'func.return' op has 0 operands"),
    ("crash", "crash", "pass 'test-breaker' failed with an internal error: KeyError"),
    ("fail", "failure", "nope"),
])
def test_failure_kinds(how, kind, message):
    pm = PassManager("builtin.module")
    pm.nest("func.func").add(Breaker(how=how))
    with pytest.raises(PassFailure) as e:
        pm.run(parse())
    f = e.value
    assert f.kind == kind and message in f.diag.message
    assert f.pass_.name == "test-breaker" and sym(f.op) == "f"
    notes = [n.message for n in f.diag.notes]
    if kind == "invalid":
        assert "the IR is invalid after pass 'test-breaker'" in notes
    elif kind == "crash":
        assert any(n.startswith("the exception was raised at test_pass_manager.py:")
                   for n in notes)
    else:
        assert "while running pass 'test-breaker'" in notes


def test_verify_each_off_lets_invalid_ir_through():
    pm = PassManager("builtin.module")
    pm.nest("func.func").add(Breaker())
    pm.verify_each = False
    m = parse()
    pm.run(m)
    assert "\n    return\n" in print_op(m)


# ---------------------------------------------------------------------- analyses


class Counting:
    built = 0

    def __init__(self, op):
        Counting.built += 1
        self.op = op


class Sticky:
    """Survives every invalidation (its is_invalidated says no)."""

    def __init__(self, op):
        pass

    def is_invalidated(self, preserved):
        return False


class UseAnalysis(Pass):
    name = "test-use-analysis"
    preserve = Option(str, "none")
    seen: list = []

    def run(self, op):
        a = self.get_analysis(Counting)
        self.get_analysis(Sticky)
        UseAnalysis.seen.append(a)
        if self.preserve == "all":
            self.mark_all_analyses_preserved()
        elif self.preserve == "counting":
            self.mark_analyses_preserved(Counting)


@pytest.mark.parametrize("preserve,builds", [("none", 2), ("all", 1), ("counting", 1)])
def test_analyses_are_cached_until_invalidated(preserve, builds):
    Counting.built = 0
    UseAnalysis.seen = []
    pm = PassManager("builtin.module", [UseAnalysis(preserve=preserve), UseAnalysis()])
    pm.run(parse())
    assert Counting.built == builds
    assert (UseAnalysis.seen[0] is UseAnalysis.seen[1]) == (builds == 1)


def test_analysis_manager_nesting_and_custom_invalidation():
    m = parse()
    f = funcs(m)[0]
    am = AnalysisManager(m)
    child = am.get(Counting, f)
    assert child.op is f and am.nest(f).get_cached(Counting) is child
    assert am.nest(f).get_cached_parent(Counting) is None
    top = am.get(Counting)
    assert am.nest(f).get_cached_parent(Counting) is top
    sticky = am.get(Sticky)
    am.invalidate(frozenset({Counting}))
    assert am.get_cached(Counting) is top and am.nest(f).get_cached(Counting) is child
    am.invalidate(None)
    assert am.get_cached(Counting) is None and am.get_cached(Sticky) is sticky
    assert am.nest(f).get_cached(Counting) is None
    am.invalidate(PreservedAnalyses.ALL)
    assert am.get_cached(Sticky) is sticky
    with pytest.raises(ValueError, match="not nested"):
        AnalysisManager(f).get(Counting, funcs(m)[1])


# ---------------------------------------------------------------------- instrumentation


def test_ir_printing_to_a_stream(registered):
    out = io.StringIO()
    inst = Instrumentation(print_before=["test-func-record"], print_after_all=True,
                           print_after_change=True, out=out)
    pm = parse_pipeline("builtin.module(func.func(test-func-record,canonicalize))")
    pm.run(parse(), inst)
    text = out.getvalue()
    # Before the recording pass (twice), after canonicalize on @f only (no change on
    # @g, and the recording pass changes nothing).
    assert text.count("IR Dump Before FuncRecordPass: test-func-record{label=r}") == 2
    assert text.count("IR Dump After") == 1
    assert "IR Dump After CanonicalizerPass: canonicalize{" in text
    assert "func.func @f(%arg0: i32) -> i32 {\n  %c3_i32 = arith.constant 3 : i32" in text


def test_timing_tree_and_statistics(registered):
    timing = Timing()
    inst = Instrumentation(timing=timing, out=io.StringIO())
    pm = parse_pipeline("builtin.module(func.func(test-func-record),test-options{count=5})")
    with timing.scope("Parser"):
        m = parse()
    pm.run(m, inst)
    report = inst.timing_report()
    lines = [line[21:] for line in report.splitlines()[6:]]
    assert lines == ["Parser", "'func.func' Pipeline", "  FuncRecordPass", "OptionsPass",
                     "Rest", "Total"]
    assert statistics_report(pm).splitlines()[3:] == [
        "'func.func' Pipeline", "  FuncRecordPass", "OptionsPass",
        "  (S) 5 hits - How often", ""]


# ---------------------------------------------------------------------- registry


def test_registry(registered):
    assert get_pass_class("test-record") is Record
    assert "canonicalize" in all_pass_classes() and "cse" in all_pass_classes()
    with pytest.raises(ValueError, match="registered twice"):
        register_pass(Record)
    with pytest.raises(ValueError, match="registered twice"):

        class Canon2(Pass):
            name = "canonicalize"
        register_pass(Canon2)
    with pytest.raises(TypeError):
        register_pass(int)

    class Unnamed(Pass):
        pass
    with pytest.raises(ValueError, match="needs a `name`"):
        register_pass(Unnamed)
    unregister_pass("test-record")
    assert get_pass_class("test-record") is None
    register_pass(Record)


# ---------------------------------------------------------------------- strata-opt


def run_opt(args, tmp_path, text=TWO_FUNCS):
    path = tmp_path / "in.mlir"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = opt_main([str(path)] + args)
    return rc, out.getvalue(), err.getvalue()


def test_flags_nest_and_run(registered, tmp_path):
    rc, out, err = run_opt(["--test-func-record", "--test-func-record=label=z",
                            "--test-record", "--dump-pass-pipeline"], tmp_path)
    assert rc == 0, err
    assert err.startswith("Pass Manager with 2 passes:\nbuiltin.module(\n  func.func(\n"
                          "    test-func-record{label=r},\n    test-func-record{label=z}\n"
                          "  ),\n  test-record{label=r}\n)\n\n")
    assert Record.log == [("r", "f"), ("z", "f"), ("r", "g"), ("z", "g"),
                          ("r", "builtin.module")]


def test_crash_writes_a_reproducer_that_reruns(tmp_path, monkeypatch):
    import tempfile
    register_pass(Breaker)
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        rc, out, err = run_opt(["--pass-pipeline=builtin.module(func.func("
                                "test-breaker{how=crash}))"], tmp_path)
        assert rc == 1 and out == "" and "Traceback" not in err
        assert "error: pass 'test-breaker' failed with an internal error: KeyError" in err
        repro = [p for p in os.listdir(tmp_path) if p.startswith("strata-reproducer-")]
        assert len(repro) == 1
        path = tmp_path / repro[0]
        assert f"reproducer generated at `{path}`" in err
        config = read_reproducer_config(path.read_text())
        assert config == {"pipeline": "builtin.module(func.func(test-breaker{how=crash}))",
                          "disable_threading": True, "verify_each": True}
        rc, out, err = run_opt(["--run-reproducer"], tmp_path, path.read_text())
        assert rc == 1 and "failed with an internal error: KeyError" in err
        rc, out, err = run_opt(["--run-reproducer", "--cse"], tmp_path, path.read_text())
        assert rc == 1 and "cannot be combined" in err
    finally:
        unregister_pass("test-breaker")


def test_ordinary_failure_writes_no_reproducer_unless_asked(tmp_path, monkeypatch):
    import tempfile
    register_pass(Breaker)
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        rc, out, err = run_opt(["--pass-pipeline=builtin.module(func.func("
                                "test-breaker{how=fail}))"], tmp_path)
        assert rc == 1 and "error: nope" in err and "reproducer" not in err
        target = tmp_path / "r.mlir"
        rc, out, err = run_opt(["--pass-pipeline=builtin.module(func.func("
                                "test-breaker{how=fail}))",
                                f"--mlir-pass-pipeline-crash-reproducer={target}"], tmp_path)
        assert rc == 1 and target.exists()
        assert "Pipeline failed while executing [`BreakerPass` on 'func.func' operation: " \
               "@f]" in err
    finally:
        unregister_pass("test-breaker")


def test_reproducer_format_round_trip(tmp_path):
    pipe = 'builtin.module(p{text={a "b"}})'
    text = reproducer_text("module {\n}\n", pipe, verify_each=False)
    assert text.endswith("      verify_each: false\n    }\n  }\n#-}\n")
    assert read_reproducer_config(text)["pipeline"] == pipe
    assert read_reproducer_config(text)["verify_each"] is False
    assert read_reproducer_config("module {\n}\n") is None
    with pytest.raises(ValueError):
        read_reproducer_config("{-#\n external_resources: { mlir_reproducer: { x: 1 } }\n#-}")
    p = write_reproducer("module {\n}\n", pipe, str(tmp_path / "r.mlir"))
    assert open(p).read() == reproducer_text("module {\n}\n", pipe)


def test_pass_warnings_reach_verify_diagnostics(tmp_path):
    text = """
// expected-warning@below {{canonicalize did not converge within max-iterations=1}}
func.func @f() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  return %0 : i32
}
"""
    rc, out, err = run_opt(["--pass-pipeline=builtin.module(func.func("
                            "canonicalize{max-iterations=1}))", "--verify-diagnostics"],
                           tmp_path, text)
    assert rc == 0 and err == "", err
    rc, out, err = run_opt(["--canonicalize=max-iterations=1"], tmp_path, text)
    assert rc == 0 and "in.mlir:0:0: warning: canonicalize did not converge" in err


# ---------------------------------------------------------------------- greedy driver


class RenameAttr(RewritePattern):
    """Marks an op as visited (in place) and logs the order of visits."""
    root = "arith.addi"
    log: list = []

    def match_and_rewrite(self, op, rewriter):
        if "test.seen" in op.attributes:
            return False
        RenameAttr.log.append(op.results[0])
        rewriter.modify_op_in_place(op, lambda: op.attributes.__setitem__(
            "test.seen", UnitAttr()))
        return True


ORDER = """
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %0, %0 : i32
  %2 = arith.addi %1, %1 : i32
  return %2 : i32
}
"""


@pytest.mark.parametrize("top_down", [True, False])
def test_worklist_order(top_down):
    m = parse(ORDER)
    RenameAttr.log = []
    f = funcs(m)[0]
    adds = [op for op in f.walk() if op.name == "arith.addi"]
    r = apply_patterns_greedily(m, [RenameAttr()], GreedyRewriteConfig(top_down=top_down))
    assert r.converged and r.changed and r.rewrites == 3
    order = [adds.index(v.owner) for v in RenameAttr.log]
    # Top-down pops ops in program order; bottom-up seeds in post-order, and pops the
    # last pushed first.
    assert order == ([0, 1, 2] if top_down else [2, 1, 0])


def test_max_num_rewrites_and_strict_op_list():
    m = parse(ORDER)
    RenameAttr.log = []
    r = apply_patterns_greedily(m, [RenameAttr()],
                                GreedyRewriteConfig(max_num_rewrites=1, max_iterations=1))
    assert r.rewrites == 1 and not r.converged
    m = parse(ORDER)
    RenameAttr.log = []
    adds = [op for op in m.walk() if op.name == "arith.addi"]
    r = apply_op_patterns_greedily([adds[1]], [RenameAttr()],
                                   GreedyRewriteConfig(strict_mode="existing"))
    assert r.converged and [v.owner for v in RenameAttr.log] == [adds[1]]


class Flip(RewritePattern):
    """addi(a, b) -> addi(b, a) forever: a pattern that never converges."""
    root = "arith.addi"

    def match_and_rewrite(self, op, rewriter):
        a, b = op.operands
        rewriter.modify_op_in_place(op, lambda: op.set_operands([b, a]))
        return True


def test_non_convergence_is_reported():
    m = parse("func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n"
              "  return %0 : i32\n}\n")
    r = apply_patterns_greedily(m, [Flip()], GreedyRewriteConfig(max_iterations=3,
                                                                 max_num_rewrites=5))
    assert not r.converged and r.iterations == 3
    pm = PassManager("builtin.module")
    canon = get_pass_class("canonicalize")(max_iterations=2, max_num_rewrites=10,
                                          test_convergence=True)
    pm.add(canon)
    canon.initialize()
    canon._patterns = FrozenPatternSet([Flip()])
    canon.initialize = lambda: None
    with pytest.raises(PassFailure, match="did not converge within max-iterations=2"):
        pm.run(m)


class Doubler(RewritePattern):
    """x * 2 -> x + x: creates an op and replaces the old one, with higher benefit than
    a pattern that would apply too."""
    root = "arith.muli"
    benefit = 2

    def match_and_rewrite(self, op, rewriter):
        from strata.dialects.arith import AddIOp, ConstantOp
        rhs = op.operands[1].owner
        if not isinstance(rhs, ConstantOp) or rhs.properties["value"].value != 2:
            return False
        rewriter.replace_op_with_new(op, AddIOp, lhs=op.operands[0], rhs=op.operands[0])
        return True


class Never(RewritePattern):
    root = "arith.muli"
    tried = 0

    def match_and_rewrite(self, op, rewriter):
        Never.tried += 1
        return False


def test_benefit_order_listener_and_dead_constant():
    m = parse("func.func @f(%a: i32) -> i32 {\n  %c2 = arith.constant 2 : i32\n"
              "  %0 = arith.muli %a, %c2 : i32\n  return %0 : i32\n}\n")
    events = []

    class Log(Listener):
        def notify_op_inserted(self, op):
            events.append(("insert", op.name))

        def notify_op_erased(self, op):
            events.append(("erase", op.name))

    Never.tried = 0
    r = apply_patterns_greedily(m, [Never(), Doubler()], GreedyRewriteConfig(listener=Log()))
    assert r.converged and Never.tried == 0
    assert events == [("insert", "arith.addi"), ("erase", "arith.muli"),
                      ("erase", "arith.constant")]
    assert "arith.addi %arg0, %arg0 : i32" in print_op(m)


def test_erasing_an_op_with_regions_reports_nested_ops_first():
    from strata.rewrite.pattern import PatternRewriter
    m = parse("""
func.func @f(%c: i1, %x: i32) {
  scf.if %c {
    %0 = arith.addi %x, %x : i32
    %1 = arith.muli %0, %0 : i32
  }
  return
}
""")
    events = []

    class Log(Listener):
        def notify_op_erased(self, op):
            events.append(op.name)

        def notify_block_erased(self, block):
            events.append("block")

    scf_if = [op for op in m.walk() if op.name == "scf.if"][0]
    PatternRewriter(Log()).erase_op(scf_if)
    assert events == ["scf.yield", "arith.muli", "arith.addi", "block", "scf.if"]
    assert "scf.if" not in print_op(m)


def test_branch_successor_operand_mutation():
    from strata.ir.verifier import verify
    m = parse("""
func.func @f(%flag: i32, %a: i32, %b: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    4: ^bb1(%b : i32),
    7: ^bb2(%a, %b : i32, i32)
  ]
^bb1(%x: i32):
  return %x : i32
^bb2(%y: i32, %z: i32):
  return %z : i32
}
""")
    sw = [op for op in m.walk() if op.name == "cf.switch"][0]
    bb2 = sw.successors[2]
    sw.erase_successor_operand(2, 0)
    bb2.erase_argument(0)
    verify(m)
    assert sw.successor_operands(2) == [funcs(m)[0].regions[0].blocks[0].args[2]]
    bb1 = sw.successors[0]
    bb1.add_argument(i32)
    a = funcs(m)[0].regions[0].blocks[0].args[1]
    sw.append_successor_operands(0, [a])
    sw.append_successor_operands(1, [a])
    verify(m)
    assert "default: ^bb1(%arg1, %arg1 : i32, i32)" in print_op(m)


def test_pass_failure_text_is_located_with_its_notes():
    """str() of a PassFailure (what `strata run` and a caller printing the exception
    show) names where the failure is and why, not only "failed to legalize": found by
    tools/fuzz_onnx.py, whose refusals read "failed to legalize operation 'onnx.Squeeze'"
    without the ONNX node or the reason."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    import strata
    g = helper.make_graph([helper.make_node("Squeeze", ["X"], ["Y"], name="squeeze_it")],
                          "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT,
                                                              ["N", 1])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    with pytest.raises(PassFailure) as e:
        strata.compile(m, target="interpret")
    text = str(e.value)
    assert "failed to legalize operation 'onnx.Squeeze'" in text
    assert '"squeeze_it"' in text and "needs a static input shape" in text
    assert onnx is not None
