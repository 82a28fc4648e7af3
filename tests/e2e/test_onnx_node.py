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

from onnx_node_runner import check_shard  # noqa: E402

SHARDS = 8


@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda k: f"shard{k + 1}of{SHARDS}")
@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_onnx_node_conformance(target, shard):
    check_shard(target, shard, SHARDS, stale=shard == 0)  # (stale names once per target)
