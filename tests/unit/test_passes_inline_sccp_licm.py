"""inline, sccp and loop-invariant-code-motion: their Python API, the op interfaces they
rely on, and a differential run against upstream MLIR on cases beyond the lit tests.

The lit tests (tests/lit/passes/{inline,sccp,loop-invariant-code-motion}) check the
printed results. Upstream here is `iree-opt` for inline and licm; iree-opt does not
register sccp, but IREE's compiler library exports upstream's SCCP pass
(`mlirRegisterTransformsSCCPPass`), which `_UPSTREAM_SCCP` runs through IREE's Python
bindings. Without them those cases are skipped.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest

from strata.dialects import default_context
from strata.dialects import scf as S
from strata.ir import attributes as A
from strata.ir.core import UnregisteredOp
from strata.passes.call_graph import CallGraph, SymbolTableCollection
from strata.passes.inline import Inline, inline_call, is_legal_to_inline_op
from strata.passes.licm import (is_memory_effect_free, is_speculatable,
                                move_loop_invariant_code)
from strata.passes.pass_manager import PassFailure, PassManager
from strata.passes.pipeline import parse_pipeline
from strata.passes.sccp import _UNKNOWN, ConstantPropagation, _meet
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

CTX = default_context(allow_unregistered=True)
IREE = shutil.which("iree-opt")


def parse(text):
    return parse_source(text, CTX, "test.mlir")


def funcs(module):
    return {f.properties["sym_name"].value: f for f in module.regions[0].blocks[0].ops
            if f.name == "func.func"}


def ops_of(f):
    return [op for op in f.regions[0].blocks[0].ops]


def strata(text, pipeline):
    """Strata's output for `text` after `pipeline` (in-process)."""
    m = parse(text)
    parse_pipeline(pipeline).run(m)
    return print_op(m)


# ------------------------------------------------------------------ call graph

GRAPH = """
func.func @a() { func.call @b() : () -> ()
  return }
func.func private @b() { func.call @c() : () -> ()
  func.call @ext() : () -> ()
  return }
func.func private @c() { func.call @b() : () -> ()
  return }
func.func private @ext()
func.func @lone() { return }
"""


def test_call_graph_nodes_edges_and_sccs():
    m = parse(GRAPH)
    fs = funcs(m)
    cg = CallGraph(m, SymbolTableCollection())
    # One node per body, in order; declarations have none.
    assert [n.op for n in cg.nodes.values()] == [fs["a"], fs["b"], fs["c"], fs["lone"]]
    node = {n.op.properties["sym_name"].value: n for n in cg.nodes.values()}
    assert [t for _, t in node["b"].edges] == [node["c"], cg.unknown]
    sccs = [[n.op.properties["sym_name"].value if n.op else None for n in s]
            for s in cg.sccs()]
    # Callees first: {b, c} before a; the external node last.
    assert sccs.index(["c", "b"]) < sccs.index(["a"])
    assert sccs[-1] == [None]


# ------------------------------------------------------------------ inlining API

CALL = """
func.func private @callee(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func @caller(%x: i32) -> i32 {
  %0 = func.call @callee(%x) : (i32) -> i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}
"""


@pytest.mark.parametrize("clone", [True, False])
def test_inline_call_clones_or_moves(clone):
    m = parse(CALL)
    fs = funcs(m)
    call = ops_of(fs["caller"])[0]
    callee = fs["callee"]
    assert inline_call(call, callee, callee.regions[0], clone=clone)
    call.erase()
    assert [op.name for op in ops_of(fs["caller"])] == ["arith.addi", "arith.muli",
                                                       "func.return"]
    # Moving empties the callee; cloning leaves it as it was.
    assert bool(callee.regions[0].blocks) == clone
    if clone:
        m.verify()


def test_inline_call_refuses_without_changing_anything():
    m = parse(CALL.replace("arith.addi %x, %x", '"test.op"(%x)').replace(
        " : i32\n  return %0", " : (i32) -> i32\n  return %0"))
    before = print_op(m)
    fs = funcs(m)
    call = ops_of(fs["caller"])[0]
    assert not inline_call(call, fs["callee"], fs["callee"].regions[0])
    assert print_op(m) == before


def test_inlining_legality_hooks():
    m = parse('func.func @f(%a: i32) { %0 = arith.addi %a, %a : i32\n'
              '"test.op"(%0) : (i32) -> ()\n return }')
    add, unreg, _ = ops_of(funcs(m)["f"])
    assert is_legal_to_inline_op(add, None, True)
    assert type(unreg) is UnregisteredOp and not is_legal_to_inline_op(unreg, None, True)

    class Refuses:
        __slots__ = ()

        def is_legal_to_inline(self, dest, would_be_cloned):
            return False
    add.__class__ = type("NoInlineAdd", (Refuses, type(add)), {"__slots__": ()})
    assert not is_legal_to_inline_op(add, None, True)


def test_inline_options_and_bad_pipeline():
    p = Inline.from_options_text("default-pipeline=cse max-iterations=2")
    assert (p.default_pipeline, p.max_iterations) == ("cse", 2)
    assert p.pipeline_text() == \
        "inline{default-pipeline=cse inlining-threshold=4294967295 max-iterations=2 }"
    m = parse(CALL)
    with pytest.raises(PassFailure, match="invalid default-pipeline"):
        PassManager("builtin.module", [Inline(default_pipeline="no-such-pass")]).run(m)


def test_inline_needs_a_symbol_table():
    m = parse(CALL)
    f = funcs(m)["caller"]
    with pytest.raises(PassFailure, match="does not define a symbol table"):
        PassManager("func.func", [Inline()]).run(f)


# ------------------------------------------------------------------ licm helpers

LOOPS = """
func.func @f(%lb: index, %ub: index, %a: i32, %b: i32, %t: tensor<?xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : i32
  scf.for %i = %lb to %ub step %c1 {
    %x = arith.addi %a, %b : i32
    %d = arith.divsi %a, %b : i32
    %e = arith.divsi %a, %c0 : i32
    %n = scf.for %j = %lb to %ub step %c1 iter_args(%s = %x) -> (i32) {
      scf.yield %s : i32
    }
    %w = scf.while (%v = %a) : (i32) -> i32 {
      %k = arith.cmpi slt, %v, %b : i32
      scf.condition(%k) %v : i32
    } do {
    ^bb0(%v: i32):
      scf.yield %v : i32
    }
    "test.use"(%x, %d, %e, %n, %w) : (i32, i32, i32, i32, i32) -> ()
  }
  return
}
"""


def test_speculation_and_effects():
    m = parse(LOOPS)
    loop = ops_of(funcs(m)["f"])[2]
    body = list(loop.regions[0].blocks[0].ops)
    x, d, e, inner, wh, use, _ = body
    assert is_memory_effect_free(x) and is_speculatable(x)
    # Division: no memory effects, but it may trap unless the divisor is a safe constant.
    assert is_memory_effect_free(d) and not is_speculatable(d)
    assert not is_speculatable(e)  # divisor 0
    # scf.for with a unit step is as speculatable as its body; scf.while never is.
    assert inner.speculatability() == "recursive" and is_speculatable(inner)
    assert is_memory_effect_free(wh) and not is_speculatable(wh)
    assert not is_memory_effect_free(use)  # declares nothing: assume effects


def test_loop_interface_and_move():
    m = parse(LOOPS)
    f = funcs(m)["f"]
    loop = ops_of(f)[2]
    assert isinstance(loop, S.ForOp) and loop.loop_regions() == [loop.regions[0]]
    x = next(iter(loop.regions[0].blocks[0].ops))
    a = f.regions[0].blocks[0].args[2]
    assert loop.is_defined_outside_loop(a)
    assert not loop.is_defined_outside_loop(x.results[0])
    assert not loop.is_defined_outside_loop(loop.regions[0].blocks[0].args[0])
    # addi and the inner loop (step 1, invariant operands) leave; the rest stays.
    assert move_loop_invariant_code(loop) == 2
    assert [op.name for op in ops_of(f)][2:5] == ["arith.addi", "scf.for", "scf.for"]
    m.verify()


# ------------------------------------------------------------------ sccp

def test_lattice_meet():
    one, two = (A.IntegerAttr(1, A.i32), "arith"), (A.IntegerAttr(2, A.i32), "arith")
    assert _meet(None, one) is one and _meet(one, None) is one
    assert _meet(one, (A.IntegerAttr(1, A.i32), "math")) is one  # equal attributes
    assert _meet(one, two) is _UNKNOWN and _meet(_UNKNOWN, one) is _UNKNOWN


def test_sccp_solver_liveness_and_values():
    m = parse("""
func.func @f(%x: i32) -> i32 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  cf.cond_br %true, ^bb1(%c1 : i32), ^bb2(%x : i32)
^bb1(%a: i32):
  return %a : i32
^bb2(%b: i32):
  return %b : i32
}
""")
    f = funcs(m)["f"]
    from strata.dialects import all_dialects
    solver = ConstantPropagation(m, {d.name: d for d in all_dialects()})
    solver.solve()
    entry, bb1, bb2 = f.regions[0].blocks
    assert solver.is_live(bb1) and not solver.is_live(bb2)
    assert solver.get(bb1.args[0])[0] == A.IntegerAttr(1, A.i32)
    assert solver.get(bb2.args[0]) is None  # never reached
    assert solver.get(entry.args[0]) is _UNKNOWN  # public function argument


def test_sccp_undoes_in_place_folds():
    m = parse("""
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %c1, %x : i32
  return %0 : i32
}
""")
    add = ops_of(funcs(m)["f"])[1]

    def fold(operands):
        # An in-place fold: swaps the operands and returns the op's own result.
        add.set_operands(list(reversed(add.operands)))
        return [add.results[0]]
    add.__class__ = type("SwappingAdd", (type(add),),
                         {"__slots__": (), "fold": lambda self, ops: fold(ops)})
    from strata.dialects import all_dialects
    solver = ConstantPropagation(m, {d.name: d for d in all_dialects()})
    solver.solve()
    assert solver.get(add.results[0]) is _UNKNOWN
    assert add.operands[0] is ops_of(funcs(m)["f"])[0].results[0]  # order restored


# ------------------------------------------------------------------ differential

INLINE_CASES = {
    "three_cycle": """
func.func @a(%x: i32) -> i32 {
  %r = call @b(%x) : (i32) -> i32
  return %r : i32
}
func.func private @b(%x: i32) -> i32 {
  %r = call @c(%x) : (i32) -> i32
  return %r : i32
}
func.func private @c(%x: i32) -> i32 {
  %r = call @d(%x) : (i32) -> i32
  return %r : i32
}
func.func private @d(%x: i32) -> i32 {
  %r = call @b(%x) : (i32) -> i32
  %s = call @a(%r) : (i32) -> i32
  return %s : i32
}
""",
    "dead_chain": """
func.func private @dead1(%x: i32) -> i32 {
  %r = call @dead2(%x) : (i32) -> i32
  return %r : i32
}
func.func private @dead2(%x: i32) -> i32 {
  return %x : i32
}
func.func @live(%x: i32) -> i32 {
  return %x : i32
}
""",
    "nested_calls": """
func.func private @leaf(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  return %0 : i32
}
func.func private @mid(%c: i1, %x: i32) -> i32 {
  %r = scf.if %c -> i32 {
    %y = func.call @leaf(%x) : (i32) -> i32
    scf.yield %y : i32
  } else {
    %z = func.call @leaf(%x) : (i32) -> i32
    scf.yield %z : i32
  }
  return %r : i32
}
func.func @top(%c: i1, %x: i32) -> i32 {
  %0 = call @mid(%c, %x) : (i1, i32) -> i32
  %1 = call @mid(%c, %0) : (i1, i32) -> i32
  return %1 : i32
}
""",
}


@pytest.mark.skipif(IREE is None, reason="iree-opt is not installed")
@pytest.mark.parametrize("options", ["default-pipeline=", "", "default-pipeline= "
                                     "max-iterations=1"])
@pytest.mark.parametrize("name", sorted(INLINE_CASES))
def test_inline_matches_upstream(name, options):
    text = INLINE_CASES[name]
    flag = f"--inline={options}" if options else "--inline"
    want = subprocess.run([IREE, "-", flag], input=text, capture_output=True, text=True)
    assert want.returncode == 0, want.stderr
    pipeline = f"builtin.module(inline{{{options}}})" if options else \
        "builtin.module(inline)"
    assert strata(text, pipeline).strip() == want.stdout.strip()


_UPSTREAM_SCCP = textwrap.dedent("""
    import ctypes, os, sys
    from iree.compiler import ir, passmanager
    import iree.compiler._mlir_libs as libs
    lib = ctypes.CDLL(os.path.join(os.path.dirname(libs.__file__), "libIREECompiler.so"))
    lib.mlirRegisterTransformsSCCPPass()
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(sys.stdin.read())
        passmanager.PassManager.parse(sys.argv[1]).run(m.operation)
        print(m.operation)
""")


def _upstream_sccp(text, pipeline="builtin.module(sccp)"):
    p = subprocess.run([sys.executable, "-c", _UPSTREAM_SCCP, pipeline], input=text,
                       capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"upstream sccp not available: {p.stderr.strip()[-200:]}")
    return p.stdout


SCCP_CASES = {
    "loop_carried": """
func.func @f(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^h(%c0, %c1 : i32, i32)
^h(%i: i32, %k: i32):
  %c = arith.cmpi slt, %i, %n : i32
  cf.cond_br %c, ^b, ^e
^b:
  %i2 = arith.addi %i, %c1 : i32
  %k2 = arith.addi %k, %c0 : i32
  cf.br ^h(%i2, %k2 : i32, i32)
^e:
  return %k : i32
}
""",
    "nested_regions": """
func.func @f(%c: i1, %lb: index, %ub: index) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.for %i = %lb to %ub step %lb iter_args(%a = %c1) -> (i32) {
    %x = scf.if %c -> i32 {
      %y = arith.muli %a, %c1 : i32
      scf.yield %y : i32
    } else {
      scf.yield %c1 : i32
    }
    scf.yield %x : i32
  }
  %s = arith.addi %r, %c2 : i32
  return %s : i32
}
""",
    "calls": """
func.func private @g(%a: i32, %b: i32) -> (i32, i32) {
  %s = arith.addi %a, %b : i32
  return %s, %b : i32, i32
}
func.func @f(%x: i32) -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:2 = call @g(%c1, %c2) : (i32, i32) -> (i32, i32)
  %q:2 = call @g(%c1, %x) : (i32, i32) -> (i32, i32)
  return %r#0, %q#0, %r#1 : i32, i32, i32
}
""",
}


@pytest.mark.parametrize("name", sorted(SCCP_CASES))
def test_sccp_matches_upstream(name):
    text = SCCP_CASES[name]
    want = _upstream_sccp(text)
    assert strata(text, "builtin.module(sccp)").strip() == want.strip()


LICM_CASES = {
    "nested_while_in_for": """
func.func @f(%lb: index, %ub: index, %a: i32, %b: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %a) -> (i32) {
    %w = scf.while (%v = %acc) : (i32) -> i32 {
      %k = arith.muli %a, %b : i32
      %c = arith.cmpi slt, %v, %k : i32
      scf.condition(%c) %v : i32
    } do {
    ^bb0(%v: i32):
      %m = arith.addi %a, %b : i32
      %n = arith.addi %v, %m : i32
      scf.yield %n : i32
    }
    scf.yield %w : i32
  }
  return %r : i32
}
""",
    "forall_and_parallel": """
func.func @f(%n: index, %a: i32, %t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = arith.addi %a, %a : i32
    %y = arith.index_cast %i : index to i32
    %z = arith.addi %x, %y : i32
    scf.reduce
  }
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> tensor<4xf32> {
    %d = tensor.dim %o, %c0 : tensor<4xf32>
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<4xf32>
}
""",
}


@pytest.mark.skipif(IREE is None, reason="iree-opt is not installed")
@pytest.mark.parametrize("name", sorted(LICM_CASES))
def test_licm_matches_upstream(name):
    text = LICM_CASES[name]
    want = subprocess.run([IREE, "-", "--loop-invariant-code-motion"], input=text,
                          capture_output=True, text=True)
    assert want.returncode == 0, want.stderr
    assert strata(text, "builtin.module(loop-invariant-code-motion)").strip() == \
        want.stdout.strip()
