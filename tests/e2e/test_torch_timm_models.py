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
