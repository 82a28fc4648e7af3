"""CI gate for the cuda target's lowering, checked without a GPU: the ONNX node tests
through the cuda pipeline up to convert-gpu-to-nvvm (bufferization, parallel loops,
warps, launches, outlined kernels), run by the interpreter (the `cuda-interpret` target:
blocks, threads and warps simulated), must fail exactly as
tests/e2e/onnx_node_xfail_cuda-interpret.txt says.

CI runs one shard of SHARDS (the cases whose index is SHARD modulo SHARDS: every op
family, a minute or two); the expected-failure list holds that shard's failures
(`python tests/e2e/onnx_node_runner.py --target cuda-interpret` runs them all)."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from onnx_node_runner import load_cases, read_xfail, run_all, xfail_file  # noqa: E402

SHARDS, SHARD = 8, 0
TARGET = "cuda-interpret"


def test_onnx_node_suite_through_the_cuda_pipeline():
    results = run_all(target=TARGET, shard=(SHARD, SHARDS))
    names = {name for name, _, _ in results}
    listed = read_xfail(xfail_file(TARGET))
    expected = {n: d for n, d in listed.items() if n in names}
    failed = {name: f"{status}: {detail}" for name, status, detail in results
              if status != "pass"}
    new = {n: d for n, d in failed.items() if n not in expected}
    fixed = sorted(n for n in expected if n not in failed)
    cases = {c.name for c in load_cases()}
    stale = sorted(n for n in listed if n not in cases)
    msg = []
    if new:
        msg.append("new failures:\n" + "\n".join(f"  {n}: {d}" for n, d in sorted(new.items())))
    if fixed:
        msg.append("expected failures that pass now (remove them from the list):\n"
                   + "\n".join("  " + n for n in fixed))
    if stale:
        msg.append("listed as expected failures but not a test case:\n"
                   + "\n".join("  " + n for n in stale))
    passed = sum(1 for _, status, _ in results if status == "pass")
    print(f"{TARGET} shard {SHARD + 1}/{SHARDS}: passed {passed}/{len(results)}")
    assert not msg, "\n".join(msg)
    crashes = {n: d for n, d in failed.items() if d.startswith(("crash", "signal"))}
    assert not crashes, crashes
