"""CI gate for ONNX conformance: the node tests through import -> convert-onnx-to-linalg
-> the interpreter, and -> native code (the cpu target), must fail exactly as the
target's expected-failure list says (tests/e2e/onnx_node_xfail.txt for the interpreter,
onnx_node_xfail_cpu.txt for the CPU).

Each target's ~1900 cases run as SHARDS tests (shard k: the cases whose index is k modulo
SHARDS, so each shard mixes all op families and takes about as long as the others), so
pytest's progress moves every minute or so instead of sitting at one test for ten, and
`-v` prints a line per shard; each shard's cases still run on every core."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from onnx_node_runner import load_cases, read_xfail, run_all, xfail_file  # noqa: E402

SHARDS = 8


@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda k: f"shard{k + 1}of{SHARDS}")
@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_onnx_node_conformance(target, shard):
    results = run_all(target=target, shard=(shard, SHARDS))
    names = {name for name, _, _ in results}
    listed = read_xfail(xfail_file(target))
    expected = {n: d for n, d in listed.items() if n in names}
    failed = {name: f"{status}: {detail}" for name, status, detail in results
              if status != "pass"}
    crashes = {n: d for n, d in failed.items() if d.startswith("crash")}
    new = {n: d for n, d in failed.items() if n not in expected}
    fixed = sorted(n for n in expected if n not in failed)
    msg = []
    if new:
        msg.append("new failures:\n" + "\n".join(f"  {n}: {d}" for n, d in sorted(new.items())))
    if fixed:
        msg.append("expected failures that pass now (remove them from the list):\n"
                   + "\n".join("  " + n for n in fixed))
    if shard == 0:  # (once per target) entries naming no case at all
        cases = {c.name for c in load_cases()}
        stale = sorted(n for n in listed if n not in cases)
        if stale:
            msg.append("listed as expected failures but not a test case:\n"
                       + "\n".join("  " + n for n in stale))
    passed = sum(1 for _, status, _ in results if status == "pass")
    print(f"{target} shard {shard + 1}/{SHARDS}: passed {passed}/{len(results)}")
    assert not msg, "\n".join(msg)
    # A crash (a Python exception escaping Strata, or compiled code killed by a signal)
    # is a bug even when listed.
    signals = {n: d for n, d in failed.items() if d.startswith("signal")}
    assert len(crashes) <= len([d for d in expected.values() if d.startswith("crash")])
    assert not signals, signals
