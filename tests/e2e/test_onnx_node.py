"""CI gate for ONNX conformance: the node tests through import -> convert-onnx-to-linalg
-> the interpreter, and -> native code (the cpu target), must fail exactly as the
target's expected-failure list says (tests/e2e/onnx_node_xfail.txt for the interpreter,
onnx_node_xfail_cpu.txt for the CPU)."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from onnx_node_runner import read_xfail, run_all, summary, xfail_file  # noqa: E402


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_onnx_node_conformance(target):
    results = run_all(target=target)
    expected = read_xfail(xfail_file(target))
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
    print(summary(results))
    assert not msg, "\n".join(msg)
    # A crash (a Python exception escaping Strata, or compiled code killed by a signal)
    # is a bug even when listed.
    signals = {n: d for n, d in failed.items() if d.startswith("signal")}
    assert len(crashes) <= len([d for d in expected.values() if d.startswith("crash")])
    assert not signals, signals
