"""Region DCE (strata/rewrite/region_utils.py, run by canonicalize's region
simplification): a sweep that finds everything live stops at once ([Note: region DCE
stops when all is live]); a dead op, nested or not, and a dead cycle through block
arguments still go to the fixed point."""
import pytest

from strata.dialects import default_context
from strata.rewrite import region_utils as RU
from strata.rewrite.pattern import PatternRewriter
from strata.syntax.parser import parse_source

ALL_LIVE = """
func.func @f(%a: i32, %c: i1) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = scf.if %c -> i32 {
    %z = arith.muli %x, %x : i32
    scf.yield %z : i32
  } else {
    scf.yield %x : i32
  }
  return %y : i32
}
"""

DEAD_CYCLE = """
func.func @f(%a: i32, %n: i1) -> i32 {
  %unused = arith.muli %a, %a : i32
  cf.br ^bb1(%a : i32)
^bb1(%acc: i32):
  %next = arith.addi %acc, %a : i32
  cf.cond_br %n, ^bb1(%next : i32), ^bb2
^bb2:
  return %a : i32
}
"""


@pytest.fixture
def sweeps(monkeypatch):
    """How many sweeps run_region_dce makes (calls on its top-level regions)."""
    count = []
    orig = RU._propagate_region

    def counting(region, live):
        if region.parent is not None and region.parent.name == "func.func":
            count.append(region)
        return orig(region, live)

    monkeypatch.setattr(RU, "_propagate_region", counting)
    return count


def _dce(text):
    m = parse_source(text, default_context())
    f = next(op for op in m.walk() if op.name == "func.func")
    changed = RU.run_region_dce(list(f.regions), PatternRewriter())
    m.verify()
    return changed, [op.name for op in f.walk()], f


def test_all_live_takes_one_sweep_and_changes_nothing(sweeps):
    changed, names, _ = _dce(ALL_LIVE)
    assert not changed
    assert names.count("arith.addi") == 1 and names.count("arith.muli") == 1
    assert len(sweeps) == 1


def test_dead_op_and_dead_cycle_still_erased(sweeps):
    changed, names, f = _dce(DEAD_CYCLE)
    assert changed
    assert "arith.muli" not in names and "arith.addi" not in names
    loop = f.regions[0].blocks[1]
    assert not loop.args  # the loop-carried value nobody reads is gone
    assert len(sweeps) >= 2  # the dead found in the first sweep is confirmed


def test_dead_op_in_a_nested_region_is_erased():
    changed, names, _ = _dce(ALL_LIVE.replace(
        "scf.yield %x : i32\n  }\n  return",
        "%w = arith.subi %x, %a : i32\n    scf.yield %x : i32\n  }\n  return"))
    assert changed and "arith.subi" not in names


def test_unreachable_block_arguments_still_erased():
    # Called alone (simplify_regions erases unreachable blocks first): the sweep does not
    # reach ^bb2, so it is not "all live", and ^bb2's unused argument goes as before.
    text = """
    func.func @f(%a: i32) -> i32 {
      cf.br ^bb1
    ^bb1:
      return %a : i32
    ^bb2(%x: i32):
      cf.br ^bb1
    }
    """
    changed, _, f = _dce(text)
    assert changed
    assert not f.regions[0].blocks[2].args
