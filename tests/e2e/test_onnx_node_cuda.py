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

from onnx_node_runner import check_shard  # noqa: E402

SHARDS, SHARD = 8, 0
TARGET = "cuda-interpret"


def test_onnx_node_suite_through_the_cuda_pipeline():
    check_shard(TARGET, SHARD, SHARDS)
