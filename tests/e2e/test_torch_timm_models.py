"""timm (PyTorch Image Models) architectures through both PyTorch paths (issue 17, item 7:
breadth): a fixed shard of tests/e2e/torch_timm_runner.py's models, each compiled by
strata.compile (torch.export, "ep") and by torch.compile with the strata backend
(Dynamo + AOTAutograd, no eager fallback, "dynamo"), the output within 1e-4 relative of
eager (max|a - b| / max|b|). Built with `timm.create_model(name, pretrained=False)`
(nothing downloaded), random seeded weights perturbed so no output is trivially zero, a
batch of two small images.

The shard (torch_timm_runner.CI) is chosen for what timm's models bring beyond the HF
and torch.nn breadth cases, at a few seconds each. The table of every model
(the smallest of each timm family, and options users set: features_only,
dynamic_img_size, output_stride...) through both paths is printed by

    PYTHONPATH=$PWD python tests/e2e/torch_timm_runner.py [--set all|ci]

and `STRATA_TEST_ALL_MODELS=1` runs them all here.

timm is not a test dependency (README: it pulls in a torchvision whose native ops cannot
load beside the CPU torch, and whose presence breaks transformers' vision imports): this
file runs where timm is on the path from a side folder and skips elsewhere (CI); the
lowerings its models brought (antialiased interpolation, unfold, as_strided_scatter) are
tested without timm in tests/e2e/conversion/test_torch_to_linalg.py.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
if importlib.util.find_spec("timm") is None:
    pytest.skip("timm is not installed", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_timm_runner as R  # noqa: E402

R.import_timm()   # (not importorskip: timm's torchvision may need its op schemas first)

CASES = [(n, p) for n in R.CI for p in ("ep", "dynamo")]
if os.environ.get("STRATA_TEST_ALL_MODELS"):
    CASES = [(n, p) for n in R.MODELS for p in ("ep", "dynamo")]


@pytest.mark.parametrize("name, path", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_timm_model(name, path):
    assert R.check(name, path) <= R.RTOL


def test_timm_training_step_with_drop_path():
    """A training step of timm's ConvNeXt with stochastic depth (drop path draws a
    per-sample mask) through torch.compile(backend=strata): under one seed the loss and
    every gradient are eager's. Its backward writes the pooled gradient through
    aten.as_strided_scatter, which had no lowering."""
    import copy

    from strata.frontends.torch import dynamo
    timm = R.import_timm()
    torch.manual_seed(0)
    eager = timm.create_model("test_convnext", pretrained=False, drop_path_rate=0.2).train()
    model = copy.deepcopy(eager)
    x = torch.randn(2, 3, 64, 64, generator=torch.Generator().manual_seed(1))
    compiled = torch.compile(model, backend=lambda gm, ex: dynamo.strata_backend(
        gm, ex, options={"fallback": False}))
    try:
        torch.manual_seed(2)
        want = eager(x).logsumexp(-1).sum()
        want.backward()
        torch.manual_seed(2)
        got = compiled(x).logsumexp(-1).sum()
        got.backward()
    finally:
        torch._dynamo.reset()
    assert abs(float(got - want)) <= 1e-4 * abs(float(want))
    for (name, p), q in zip(eager.named_parameters(), model.parameters()):
        assert float((p.grad - q.grad).abs().max()) <= 1e-4 * float(p.grad.abs().max()), name
