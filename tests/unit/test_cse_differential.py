"""Differential test of `cse` against upstream: each input of the corpus below goes
through `iree-opt --cse` and through Strata's CSE; both outputs are then normalized by
`iree-opt` (parsed and printed again) and must be equal.

[Note: batching]
Starting iree-opt costs about half a second: all inputs go through one
`iree-opt --split-input-file` per step (cse, normalize upstream's output, normalize
Strata's output), and Strata runs in-process. Skipped when iree-opt is not installed.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from strata.dialects import default_context
from strata.passes.cse import CSE
from strata.passes.pass_manager import PassManager
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

IREE = shutil.which("iree-opt")
pytestmark = pytest.mark.skipif(IREE is None, reason="iree-opt (the upstream oracle, from "
                                "the iree-base-compiler package) is not installed")
SEP = "\n// -----\n"

# ---------------------------------------------------------------------- the corpus
# Names say what each input exercises; tests/lit/passes/cse/ checks the same inputs'
# exact output.
CASES: dict[str, str] = {}

CASES["constants"] = """
func.func @constants() -> (i32, i32, i64, f32, f32, index) {
  %c1 = arith.constant 1 : i32
  %c1_0 = arith.constant 1 : i32
  %c1_i64 = arith.constant 1 : i64
  %f = arith.constant 1.0 : f32
  %f2 = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  return %c1, %c1_0, %c1_i64, %f, %f2, %i : i32, i32, i64, f32, f32, index
}
"""

CASES["commutative"] = """
func.func @commutative(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.subi %a, %b : i32
  %3 = arith.subi %b, %a : i32
  %4 = arith.muli %a, %b : i32
  %5 = arith.muli %b, %a : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}
"""

CASES["attributes_differ"] = """
func.func @attrs(%a: i32, %b: i32) -> (i32, i32, i32, i1, i1, i1) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.addi %a, %b overflow<nsw> : i32
  %3 = arith.cmpi slt, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi slt, %a, %b : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i1, i1, i1
}
"""

CASES["discardable_attrs"] = """
func.func @discardable(%a: i32) -> (i32, i32, i32) {
  %0 = arith.addi %a, %a {tag = 1 : i32} : i32
  %1 = arith.addi %a, %a {tag = 2 : i32} : i32
  %2 = arith.addi %a, %a {tag = 1 : i32} : i32
  return %0, %1, %2 : i32, i32, i32
}
"""

CASES["dead_ops"] = """
func.func @dead(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %b : i32
  %2 = arith.subi %1, %a : i32
  %3 = arith.addi %a, %b : i32
  return %3 : i32
}
"""

CASES["chain_of_duplicates"] = """
func.func @chain(%a: f32) -> (f32, f32) {
  %0 = arith.mulf %a, %a : f32
  %1 = arith.addf %0, %a : f32
  %2 = math.sqrt %1 : f32
  %3 = arith.mulf %a, %a : f32
  %4 = arith.addf %3, %a : f32
  %5 = math.sqrt %4 : f32
  return %2, %5 : f32, f32
}
"""

CASES["dominance_cfg"] = """
func.func @cfg(%c: i1, %a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %1, %1 : i32
  cf.br ^bb3(%2 : i32)
^bb2:
  %3 = arith.muli %0, %0 : i32
  %4 = arith.muli %a, %a : i32
  cf.br ^bb3(%4 : i32)
^bb3(%r: i32):
  %5 = arith.muli %a, %a : i32
  %6 = arith.addi %r, %5 : i32
  return %6 : i32
}
"""

CASES["diamond_and_loop"] = """
func.func @loop(%n: index, %a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %a : index, i32)
^bb1(%i: index, %acc: i32):
  %c1_0 = arith.constant 1 : index
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3
^bb2:
  %c0_1 = arith.constant 0 : index
  %next = arith.addi %i, %c1_0 : index
  %sq = arith.muli %acc, %acc : i32
  cf.br ^bb1(%next, %sq : index, i32)
^bb3:
  %sq2 = arith.muli %acc, %acc : i32
  return %sq2 : i32
}
"""

CASES["unreachable_block"] = """
func.func @unreachable(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
^bb1:
  %1 = arith.addi %a, %a : i32
  %2 = arith.addi %a, %a : i32
  %3 = arith.muli %a, %a : i32
  return %2 : i32
}
"""

CASES["nested_regions_see_outer"] = """
func.func @nested(%c: i1, %a: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %a, %c2 : i32
  %r = scf.if %c -> i32 {
    %c2_0 = arith.constant 2 : i32
    %1 = arith.addi %a, %c2_0 : i32
    %2 = arith.muli %1, %1 : i32
    scf.yield %2 : i32
  } else {
    %3 = arith.muli %0, %0 : i32
    scf.yield %3 : i32
  }
  %4 = arith.muli %0, %0 : i32
  %5 = arith.addi %r, %4 : i32
  return %5 : i32
}
"""

CASES["sibling_regions_do_not_share"] = """
func.func @siblings(%c: i1, %a: i32) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x, %x : i32, i32
  } else {
    %y = arith.addi %a, %a : i32
    %y2 = arith.addi %a, %a : i32
    scf.yield %y, %y2 : i32, i32
  }
  %z = arith.addi %a, %a : i32
  return %r#0, %z : i32, i32
}
"""

CASES["scf_for_bodies"] = """
func.func @loops(%lb: index, %ub: index, %st: index, %init: f32) -> (f32, f32) {
  %cst = arith.constant 1.0 : f32
  %r0 = scf.for %i = %lb to %ub step %st iter_args(%acc = %init) -> (f32) {
    %cst_0 = arith.constant 1.0 : f32
    %0 = arith.addf %acc, %cst_0 : f32
    %1 = arith.addf %acc, %cst : f32
    %2 = arith.mulf %0, %1 : f32
    scf.yield %2 : f32
  }
  %r1 = scf.for %i = %lb to %ub step %st iter_args(%acc = %init) -> (f32) {
    %cst_0 = arith.constant 1.0 : f32
    %0 = arith.addf %acc, %cst_0 : f32
    %1 = arith.addf %acc, %cst : f32
    %2 = arith.mulf %0, %1 : f32
    scf.yield %2 : f32
  }
  return %r0, %r1 : f32, f32
}
"""

CASES["region_ops_structural"] = """
func.func @regions(%c: i1, %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %r1 = scf.if %c -> i32 {
    %x = arith.addi %a, %b : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r2 = scf.if %c -> i32 {
    %x = arith.addi %b, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r3 = scf.if %c -> i32 {
    %x = arith.subi %a, %b : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r4 = scf.if %c -> i32 {
    %x = arith.subi %b, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  return %r1, %r2, %r3, %r4 : i32, i32, i32, i32
}
"""

CASES["region_ops_nested_deep"] = """
func.func @deep(%c: i1, %d: i1, %a: i32) -> (i32, i32) {
  %r1 = scf.if %c -> i32 {
    %x = scf.if %d -> i32 {
      %q = arith.addi %a, %a : i32
      %w = arith.muli %q, %q : i32
      scf.yield %w : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r2 = scf.if %c -> i32 {
    %x = scf.if %d -> i32 {
      %q = arith.addi %a, %a : i32
      %w = arith.muli %q, %q : i32
      scf.yield %w : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  return %r1, %r2 : i32, i32
}
"""

CASES["dead_region_op"] = """
func.func @dead_region(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> i32 {
    %x = arith.addi %a, %a : i32
    %y = arith.addi %a, %a : i32
    %z = arith.addi %x, %y : i32
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
"""

CASES["memory_reads"] = """
ml_program.global private mutable @g(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
ml_program.global private @k(dense<1.0> : tensor<4xf32>) : tensor<4xf32>
func.func @reads(%v: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = ml_program.global_load @g : tensor<4xf32>
  %1 = ml_program.global_load @g : tensor<4xf32>
  %k0 = ml_program.global_load_const @k : tensor<4xf32>
  ml_program.global_store @g = %v : tensor<4xf32>
  %k1 = ml_program.global_load_const @k : tensor<4xf32>
  %2 = ml_program.global_load @g : tensor<4xf32>
  %3 = arith.addf %0, %1 : tensor<4xf32>
  %4 = ml_program.global_load @g : tensor<4xf32>
  return %0, %1, %2, %4, %k0, %k1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""

CASES["reads_across_blocks_and_regions"] = """
ml_program.global private mutable @h(0 : i32) : i32
func.func @reads_cfg(%c: i1) -> (i32, i32, i32) {
  %0 = ml_program.global_load @h : i32
  %r = scf.if %c -> i32 {
    %1 = ml_program.global_load @h : i32
    scf.yield %1 : i32
  } else {
    %2 = arith.constant 0 : i32
    scf.yield %2 : i32
  }
  cf.br ^bb1
^bb1:
  %3 = ml_program.global_load @h : i32
  return %0, %r, %3 : i32, i32, i32
}
"""

CASES["side_effects_and_calls"] = """
func.func private @callee(i32) -> i32
func.func @calls(%a: i32, %ok: i1) -> (i32, i32, i32, i32) {
  %0 = func.call @callee(%a) : (i32) -> i32
  %1 = func.call @callee(%a) : (i32) -> i32
  cf.assert %ok, "a"
  cf.assert %ok, "a"
  %2 = arith.addi %a, %a : i32
  %3 = arith.addi %a, %a : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}
"""

CASES["unregistered_ops"] = """
func.func @unreg(%a: i32) -> (i32, i32, i32, i32) {
  %0 = "test.op"(%a) : (i32) -> i32
  %1 = "test.op"(%a) : (i32) -> i32
  %2 = arith.addi %a, %a : i32
  "test.sink"() : () -> ()
  %3 = arith.addi %a, %a : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}
"""

CASES["isolated_functions"] = """
func.func @f1() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
func.func @f2() -> (i32, i32) {
  %c = arith.constant 7 : i32
  %d = arith.constant 7 : i32
  return %c, %d : i32, i32
}
module @inner {
  func.func @f3() -> i32 {
    %c = arith.constant 7 : i32
    return %c : i32
  }
}
"""

CASES["graph_region_module"] = """
%0 = "test.a"() : () -> i32
%c = arith.constant 1 : i32
%c_0 = arith.constant 1 : i32
"test.use"(%c, %c_0) : (i32, i32) -> ()
"""

CASES["tensor_ops"] = """
func.func @tensors(%t: tensor<?x4xf32>, %i: index) -> (index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x4xf32>
  %d1 = tensor.dim %t, %c0 : tensor<?x4xf32>
  %e0 = tensor.extract %t[%i, %c0] : tensor<?x4xf32>
  %e1 = tensor.extract %t[%i, %c0] : tensor<?x4xf32>
  %g0 = tensor.empty(%d0) : tensor<?x4xf32>
  %g1 = tensor.empty(%d1) : tensor<?x4xf32>
  return %d0, %d1, %e0, %e1, %g0, %g1 : index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>
}
"""

CASES["multi_result_ops"] = """
func.func @multi(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %l, %h = arith.mulsi_extended %a, %b : i32
  %l2, %h2 = arith.mulsi_extended %b, %a : i32
  return %l, %h, %l2, %h2 : i32, i32, i32, i32
}
"""

CASES["scf_while_and_switch"] = """
func.func @while(%a: i32, %n: i32, %s: index) -> (i32, i32, i32) {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    %c_0 = arith.cmpi slt, %x, %n : i32
    scf.condition(%c_0) %x : i32
  } do {
  ^bb0(%y: i32):
    %one = arith.constant 1 : i32
    %one_0 = arith.constant 1 : i32
    %z = arith.addi %y, %one_0 : i32
    scf.yield %z : i32
  }
  %s0 = scf.index_switch %s -> i32
  case 2 {
    %q = arith.addi %a, %a : i32
    scf.yield %q : i32
  }
  default {
    scf.yield %a : i32
  }
  %s1 = scf.index_switch %s -> i32
  case 2 {
    %q = arith.addi %a, %a : i32
    scf.yield %q : i32
  }
  default {
    scf.yield %a : i32
  }
  return %r, %s0, %s1 : i32, i32, i32
}
"""

CASES["ml_program_subgraph"] = """
ml_program.subgraph @sg(%a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  ml_program.output %0, %1 : i32, i32
}
"""

CASES["graph_region_forward_refs"] = """
%d = arith.addi %c_0, %c_0 : i32
"test.use"(%e) : (i32) -> ()
%c = arith.constant 1 : i32
%c_0 = arith.constant 1 : i32
%e = arith.muli %c_0, %c : i32
"test.use"(%d, %c_0) : (i32, i32) -> ()
%d2 = arith.addi %c, %c : i32
"test.use"(%d2) : (i32) -> ()
"""

CASES["subgraph_forward_refs"] = """
ml_program.subgraph @sg(%a: i32) -> (i32, i32, i32) {
  %x = arith.muli %b, %b : i32
  %b = arith.addi %a, %a : i32
  %b2 = arith.addi %a, %a : i32
  %y = arith.muli %b2, %b2 : i32
  ml_program.output %x, %y, %b2 : i32, i32, i32
}
"""

CASES["execute_region"] = """
func.func @exec(%a: i32, %b: i32) -> (i32, i32, i32) {
  %r1 = scf.execute_region -> i32 {
    %x = arith.addi %a, %b : i32
    scf.yield %x : i32
  }
  %r2 = scf.execute_region -> i32 {
    %x = arith.addi %b, %a : i32
    scf.yield %x : i32
  }
  %r3 = scf.execute_region -> i32 {
    cf.br ^bb1(%a : i32)
  ^bb1(%y: i32):
    %z = arith.addi %y, %b : i32
    %z2 = arith.addi %y, %b : i32
    scf.yield %z2 : i32
  }
  return %r1, %r2, %r3 : i32, i32, i32
}
"""

# ---------------------------------------------------------------------- the check

def _iree(args, chunks):
    """Run iree-opt once over all chunks; return one output per chunk ("" if it failed)."""
    proc = subprocess.run(
        [IREE, "--allow-unregistered-dialect", "--split-input-file", *args, "-"],
        input=SEP.join(chunks), capture_output=True, text=True, timeout=300)
    pieces = proc.stdout.split(SEP)
    assert len(pieces) == len(chunks), proc.stderr
    return [p.strip("\n") for p in pieces]


def _strata_cse(text):
    ctx = default_context(True)
    m = parse_source(text, ctx, "corpus.mlir")
    m.verify()
    PassManager("builtin.module", [CSE()]).run(m)
    return print_op(m)


@pytest.fixture(scope="module")
def outputs():
    names = list(CASES)
    texts = [CASES[n] for n in names]
    upstream = _iree(["--cse"], texts)
    assert all(upstream), "iree-opt rejected a corpus input"
    ours = [_strata_cse(t) for t in texts]
    return dict(zip(names, zip(_iree([], upstream), _iree([], ours), ours)))


@pytest.mark.parametrize("name", list(CASES))
def test_cse_matches_upstream(outputs, name):
    upstream, ours_normalized, ours = outputs[name]
    assert ours_normalized, f"iree-opt rejected Strata's output:\n{ours}"
    assert ours_normalized == upstream
