"""cf and scf canonicalization (strata/dialects/cf.py, strata/dialects/scf_patterns.py,
strata/rewrite/region_branch.py): the lit files' whole outputs, custom and generic, are
diffed against `iree-opt --canonicalize`; the rest checks what text cannot show (the
IR stays valid after every single rewrite, the interfaces the patterns rely on)."""
import os
import shutil
import subprocess
import sys

import pytest

from strata.dialects import default_context, scf
from strata.passes.canonicalize import canonicalization_patterns
from strata.rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
from strata.rewrite.pattern import RewritePattern
from strata.rewrite.region_branch import single_acyclic_path, successor_operand_input_mapping
from strata.syntax.parser import parse_source

IREE = shutil.which("iree-opt")
needs_iree = pytest.mark.skipif(IREE is None, reason="iree-opt not on PATH "
                                "(pip install iree-base-compiler)")
LIT_DIR = os.path.join(os.path.dirname(__file__), "..", "lit", "passes", "canonicalize")
STRATA = [sys.executable, "-m", "strata.tools.opt"]


def _run(cmd, text):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def _read(name):
    with open(os.path.join(LIT_DIR, name)) as f:
        return f.read()


@needs_iree
@pytest.mark.parametrize("name", ["cf.mlir", "scf.mlir"])
@pytest.mark.parametrize("generic", [False, True])
def test_lit_file_matches_upstream(name, generic):
    # Input on stdin, and no file name after the pass flag: strata-opt would read it as
    # the flag's options.
    args = ["--split-input-file", "--allow-unregistered-dialect", "--canonicalize"]
    if generic:
        args.append("--mlir-print-op-generic")
    text = _read(name)
    assert _run(STRATA + args, text) == _run([IREE] + args, text)


class _Checked(RewritePattern):
    """Runs a pattern, then verifies the whole module (what upstream's expensive
    pattern API checks do)."""

    def __init__(self, inner, module):
        self.inner, self.module = inner, module
        self.root, self.benefit = inner.root, inner.benefit

    @property
    def debug_name(self):
        return self.inner.debug_name

    def match_and_rewrite(self, op, rewriter):
        changed = self.inner.match_and_rewrite(op, rewriter)
        if changed:
            try:
                self.module.verify()
            except Exception as e:  # pragma: no cover - the failure message is the point
                raise AssertionError(f"{self.debug_name} left invalid IR: {e}") from e
        return changed


@pytest.mark.parametrize("name", ["cf.mlir", "scf.mlir"])
def test_every_rewrite_leaves_valid_ir(name):
    for chunk in _read(name).split("\n// -----\n"):
        module = parse_source(chunk, default_context(True))
        patterns = [_Checked(p, module) for p in canonicalization_patterns()]
        apply_patterns_greedily(module, patterns, GreedyRewriteConfig())
        module.verify()


def _func(text):
    module = parse_source(text, default_context(True))
    return module, module.regions[0].blocks[0].first


def test_single_trip_loop_keeps_iter_arg_and_result_tied():
    # With one iteration there is no edge from the body back into it, so nothing ties
    # the iteration argument to its result; dropping one of them alone would leave an
    # invalid scf.for (upstream does, until inlining removes the loop).
    module, f = _func("""
func.func @f(%a: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%x = %a) -> (f32) {
    %n = arith.addf %a, %a : f32
    scf.yield %n : f32
  }
  return %r : f32
}""")
    loop = next(op for op in f.walk() if isinstance(op, scf.ForOp))
    from strata.rewrite.pattern import PatternRewriter
    from strata.rewrite.region_branch import RemoveDeadRegionBranchOpSuccessorInputs
    changed = RemoveDeadRegionBranchOpSuccessorInputs("scf.for").match_and_rewrite(
        loop, PatternRewriter())
    assert not changed
    module.verify()


def test_region_branch_interface_of_while():
    module, f = _func("""
func.func @f(%a: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = "test.c"(%x) : (i32) -> i1
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return %r : i32
}""")
    loop = next(op for op in f.walk() if isinstance(op, scf.WhileOp))
    before, after = loop.regions
    mapping = successor_operand_input_mapping(loop)
    # init -> before arg; condition arg -> result and after arg; yield -> before arg.
    assert [v for vs in mapping.values() for v in vs] == [
        before.blocks[0].args[0], loop.results[0], after.blocks[0].args[0],
        before.blocks[0].args[0]]
    assert single_acyclic_path(loop) is None


def test_constant_trip_count_follows_upstream():
    ctc = scf.constant_trip_count
    assert ctc(0, 16, 4) == 4
    assert ctc(0, 17, 4) == 5
    assert ctc(3, 3, 1) == 0
    assert ctc(5, 3, 1) == 0
    assert ctc(1, 2, 0) is None         # a zero step: unknown
    assert ctc(1, 9, -1) is None        # a negative step of a signed loop: unknown
    assert ctc(-1, 1, 1, signed=False) == 0  # unsigned: 2^64 - 1 > 1


def test_while_move_if_down_keeps_ir_valid():
    # Both regions of the scf.if yield %u, defined in `before`: moving the scf.if into
    # `after` as upstream does would make `after` use %u out of scope (iree-opt's
    # output fails to verify); the pattern waits until the result is simplified away.
    module, f = _func("""
func.func @f(%a: i32) -> (i32, f32) {
  %r:2 = scf.while (%x = %a) : (i32) -> (i32, f32) {
    %c = "test.cond"(%x) : (i32) -> i1
    %u = "test.u"(%x) : (i32) -> f32
    %w:2 = scf.if %c -> (i32, f32) {
      %m = arith.muli %x, %x : i32
      scf.yield %m, %u : i32, f32
    } else {
      scf.yield %x, %u : i32, f32
    }
    scf.condition(%c) %w#0, %w#1 : i32, f32
  } do {
  ^bb0(%y: i32, %z: f32):
    "test.body"(%y, %z) : (i32, f32) -> ()
    scf.yield %y : i32
  }
  return %r#0, %r#1 : i32, f32
}""")
    patterns = [_Checked(p, module) for p in canonicalization_patterns()]
    apply_patterns_greedily(module, patterns, GreedyRewriteConfig())
    module.verify()
    assert not any(op.name == "scf.if" for op in f.walk())
