"""CI gate for ONNX conformance: the node tests through import -> convert-onnx-to-linalg
-> interpreter must fail exactly as tests/e2e/onnx_node_xfail.txt lists."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from onnx_node_runner import read_xfail, run_all, summary  # noqa: E402


def test_onnx_node_conformance():
    results = run_all()
    expected = read_xfail()
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
    # A crash (a Python exception escaping Strata) is a bug even when listed.
    assert len(crashes) <= len([d for d in expected.values() if d.startswith("crash")])
