"""Sampling ATen ops and their gradients through convert-torch-to-linalg, against eager
on both targets: grid_sampler_2d/3d (F.grid_sample: every interpolation and padding
mode, align_corners both ways, points inside, on and past the borders) and the pooling
backward ops that export keeps (max_pool{1,2,3}d_with_indices_backward)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import strata  # noqa: E402
from test_torch_to_linalg import Fn  # noqa: E402

TARGETS = ["interpret", "cpu"]


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


def _compare(module, args, target, rtol=1e-5, atol=1e-6):
    f = strata.compile(module, example_args=args, target=target)
    got = f(*args)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    with torch.no_grad():
        want = module(*args)
    want = list(want) if isinstance(want, (list, tuple)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape,
                                                           w.shape)
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=atol)


# ------------------------------------------------------------------ grid_sampler

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_2d(mode, target):
    """Every padding mode and align_corners both ways; the grid spans [-1.3, 1.3] (points
    past the borders: bicubic clamps or reflects each tap, not the source point) and
    holds the corners exactly."""
    x = torch.randn(2, 3, 5, 6, generator=_gen())
    grid = torch.rand(2, 4, 7, 2, generator=_gen(1)) * 2.6 - 1.3
    grid[0, 0, :4] = torch.tensor([[-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [0.0, 0.0]])
    for pad, align in itertools.product(["zeros", "border", "reflection"], [False, True]):
        _compare(Fn(lambda a, g: F.grid_sample(a, g, mode=mode, padding_mode=pad,
                                               align_corners=align)),
                 (x, grid), target, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
def test_grid_sample_3d(target):
    """A 5-d input (grid_sampler_3d), trilinear and nearest."""
    x = torch.randn(1, 2, 3, 4, 5, generator=_gen())
    grid = torch.rand(1, 2, 3, 4, 3, generator=_gen(1)) * 2.4 - 1.2
    for mode, pad in [("bilinear", "zeros"), ("bilinear", "reflection"),
                      ("nearest", "border")]:
        _compare(Fn(lambda a, g: F.grid_sample(a, g, mode=mode, padding_mode=pad,
                                               align_corners=False)), (x, grid), target)
