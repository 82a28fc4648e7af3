"""The dialect-conversion driver's branch index ([Note: branch index] in
strata/rewrite/conversion_log.py): converting a block's signature finds the branches to
the block through the index instead of scanning the region; the ops it finds are the
ones the scan finds, at every lookup, and the converted IR is the same."""
from __future__ import annotations

import pytest

from strata.dialects import default_context
from strata.rewrite import conversion_log as CL
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op


def _chain(n):
    """n blocks with an index argument (converted to i64: a new block each), reached by
    cond_br from the one before, with asserts splitting the blocks between them."""
    lines = ["func.func @f(%c: i1, %x: index) -> index {",
             '  cf.assert %c, "entry"',
             "  cf.cond_br %c, ^bb1(%x : index), ^bb1(%x : index)"]
    for i in range(1, n):
        lines += [f"^bb{i}(%a{i}: index):",
                  f'  cf.assert %c, "check {i}"',
                  f"  %y{i} = arith.addi %a{i}, %a{i} : index",
                  f"  cf.cond_br %c, ^bb{i + 1}(%y{i} : index), ^bb{i + 1}(%a{i} : index)"]
    lines += [f"^bb{n}(%a{n}: index):", f"  return %a{n} : index", "}",
              "func.func @g(%x: index) -> index {",
              "  cf.br ^bb1(%x : index)",
              "^bb1(%a: index):",
              "  return %a : index", "}"]
    return "\n".join(lines)


def _convert(text, pipeline="convert-to-llvm"):
    from strata.compiler import build_pipeline
    m = parse_source(text, default_context(), "<test>")
    pm = build_pipeline(pipeline)
    pm.run(m)
    return print_op(m)


def _scan(block, region):
    return [b.last for b in region.blocks
            if b.last is not None and b.last.successors and block in b.last.successors]


@pytest.mark.parametrize("pipeline", ["convert-to-llvm", "convert-cf-to-llvm",
                                      "convert-cf-to-llvm,convert-to-llvm"])
def test_index_finds_what_the_scan_finds(monkeypatch, pipeline):
    text = _chain(60)
    lookups = []
    real = CL._BranchIndex.branches_to

    def checked(self, block, region):
        got = real(self, block, region)
        assert set(got) == set(_scan(block, region))
        lookups.append(block)
        return got
    monkeypatch.setattr(CL._BranchIndex, "branches_to", checked)
    with_index = _convert(text, pipeline)
    assert lookups
    monkeypatch.setattr(CL._BranchIndex, "branches_to", lambda self, b, r: _scan(b, r))
    assert _convert(text, pipeline) == with_index
