"""CI gate: the PTX of one shard of the ONNX node suite, compiled for the cuda target
without a GPU, assembled by ptxas for sm_80 and sm_90 (issue 19 item 4). Every PTX the
pipeline writes must assemble; cases the pipeline refuses are the interpreted node
suite's business (test_onnx_node_cuda.py). The whole suite:
`python tests/e2e/cuda_ptxas_runner.py` (about 1600 cases)."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from strata.backends.cuda import ptxas  # noqa: E402

SHARDS, SHARD = 160, 3


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
def test_node_suite_shard_ptx_assembles():
    from cuda_ptxas_runner import run_all, summary
    results = run_all(shard=(SHARD, SHARDS), jobs=2)
    bad = [r for r in results if r[1] in ("ptxas", "crash", "timeout")]
    assert not bad, "\n".join(f"{s} {n}: {d}" for n, s, _, d in bad)
    compiled = [r for r in results if r[1] == "pass"]
    assert len(compiled) >= 0.8 * len(results), summary(results, ("sm_80", "sm_90"))
    assert sum(r[2] for r in compiled) >= 2 * len(compiled)    # every case, both archs
