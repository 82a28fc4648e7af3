"""Sampling ATen ops and their gradients through convert-torch-to-linalg, against eager
on both targets: grid_sampler_2d/3d (F.grid_sample: every interpolation and padding
mode, align_corners both ways, points inside, on and past the borders) and the pooling
backward ops that torch.export keeps and AOTAutograd's backward graphs hold
(max_pool{2,3}d_with_indices_backward, avg_pool{2,3}d_backward in ceil_mode,
_adaptive_avg_pool{2,3}d_backward)."""
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
    modes = list(itertools.product(["zeros", "border", "reflection"], [False, True]))
    _compare(Fn(lambda a, g: tuple(F.grid_sample(a, g, mode=mode, padding_mode=pad,
                                                 align_corners=align)
                                   for pad, align in modes)),
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


# ------------------------------------------------------------------ max pooling backward

_MAX_POOL_BACKWARD = {
    # n, input shape, kernel, stride, padding, dilation, ceil_mode
    "2d_overlapping": (2, (2, 3, 8, 8), [3, 3], [2, 2], [1, 1], [1, 1], False),
    "2d_dilated_ceil": (2, (1, 2, 7, 9), [2, 3], [1, 2], [0, 1], [2, 1], True),
    "2d_unbatched_ceil": (2, (3, 7, 7), [3, 3], [3, 3], [1, 1], [1, 1], True),
    # stride 3 past a kernel of 2 skips input positions: their gradient is 0
    "2d_gaps": (2, (1, 1, 8, 8), [2, 2], [3, 3], [0, 0], [1, 1], False),
    "3d": (3, (1, 2, 5, 6, 5), [2, 2, 2], [2, 1, 2], [1, 0, 1], [1, 1, 1], False),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(_MAX_POOL_BACKWARD))
def test_max_pool_with_indices_backward(name, target):
    """The op as torch.export keeps it, fed the forward's own indices; ties (a constant
    plane) send the gradient to the first maximum only, as the indices say."""
    n, shape, k, s, p, d, ceil = _MAX_POOL_BACKWARD[name]
    aten = torch.ops.aten
    fwd = aten.max_pool2d_with_indices if n == 2 else aten.max_pool3d_with_indices
    bwd = (aten.max_pool2d_with_indices_backward if n == 2 else
           aten.max_pool3d_with_indices_backward)
    x = torch.randn(*shape, generator=_gen())
    x[..., 0, :] = 0.5
    _, idx = fwd(x, k, s, p, d, ceil)
    go = torch.randn(*idx.shape, generator=_gen(1))
    _compare(Fn(lambda g, a, i: bwd(g, a, k, s, p, d, ceil, i)), (go, x, idx), target)


@pytest.mark.parametrize("target", TARGETS)
def test_max_pool3d_training(target):
    """torch.compile training through a 3-d max pooling: its backward op is lowered, not
    decomposed (the backend decomposes only the 2-d one)."""
    import copy

    from strata.frontends.torch import dynamo
    torch._dynamo.reset()
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Conv3d(2, 3, 2), torch.nn.MaxPool3d(2, stride=1))
    e = copy.deepcopy(m)
    x = torch.randn(1, 2, 5, 5, 4)
    f = torch.compile(m, backend=dynamo.strata_backend,
                      options={"fallback": False, "target": target})
    f(x).square().sum().backward()
    e(x).square().sum().backward()
    torch._dynamo.reset()
    for p, q in zip(m.parameters(), e.parameters()):
        torch.testing.assert_close(p.grad, q.grad, atol=1e-4, rtol=1e-4)


# ------------------------------------------------------------------ average pooling backward

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape, out", [((2, 3, 9, 10), (4, 3)), ((3, 7, 5), (3, 5)),
                                        ((1, 2, 5, 6, 7), (2, 4, 3)),
                                        ((1, 2, 4, 4), (8, 4))],
                         ids=["2d_irregular", "2d_unbatched", "3d", "2d_upsampling"])
def test_adaptive_avg_pool_backward(shape, out, target):
    """Overlapping windows of different lengths, output sizes above the input's (windows
    of one position read by several outputs), and no batch dim."""
    aten = torch.ops.aten
    bwd = (aten._adaptive_avg_pool2d_backward if len(out) == 2 else
           aten._adaptive_avg_pool3d_backward)
    x = torch.randn(*shape, generator=_gen())
    go = torch.randn(*shape[:-len(out)], *out, generator=_gen(1))
    _compare(Fn(lambda g, a: bwd(g, a)), (go, x), target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n, shape, k, s, p, count_pad", [
    (2, (1, 2, 8, 8), [3, 3], [2, 2], [0, 0], True),
    (2, (2, 3, 9, 6), [3, 2], [2, 3], [1, 1], False),
    (1, (2, 3, 6), [4], [3], [1], True),
    (3, (1, 2, 5, 4, 6), [2, 2, 3], [2, 2, 2], [0, 1, 1], False)],
    ids=["2d", "2d_pad_exclude", "1d_pad", "3d"])
def test_avg_pool_backward_ceil_mode(n, shape, k, s, p, count_pad, target):
    """ceil_mode windows that start inside the input and end past it (in the padding
    or beyond): ATen drops their gradient there and divides by what they cover."""
    aten = torch.ops.aten
    fwd = {1: aten.avg_pool1d, 2: aten.avg_pool2d, 3: aten.avg_pool3d}[n]
    x = torch.randn(*shape, generator=_gen())
    y = fwd(x, k, s, p, True, count_pad)
    go = torch.randn(*y.shape, generator=_gen(1))
    if n == 1:   # ATen has no avg_pool1d_backward: autograd runs the 2-d one
        m = Fn(lambda g, a: aten.avg_pool2d_backward(g.unsqueeze(-2), a.unsqueeze(-2),
                                                     [1] + k, [1] + s, [0] + p, True,
                                                     count_pad, None).squeeze(-2))
    else:
        bwd = aten.avg_pool2d_backward if n == 2 else aten.avg_pool3d_backward
        m = Fn(lambda g, a: bwd(g, a, k, s, p, True, count_pad, None))
    _compare(m, (go, x), target)


# ------------------------------------------------------------------ adaptive max pooling

def _adaptive_max_cases():
    x = torch.randn(2, 3, 9, 10, generator=_gen())
    x[0, 0, 0, :3] = 5.0                      # a tie inside one window: the first wins
    x[1, 1, 4, 4] = x[1, 1, 6, 6] = float("nan")  # NaN propagates, the last one's index
    return {
        "2d": (lambda a: F.adaptive_max_pool2d(a, (4, 3), return_indices=True), x),
        "2d_more_outputs": (lambda a: F.adaptive_max_pool2d(a, (12, 10),
                                                            return_indices=True), x),
        "1d": (lambda a: F.adaptive_max_pool1d(a, 4, return_indices=True),
               torch.randn(2, 3, 11, generator=_gen())),
        "3d_unbatched": (lambda a: F.adaptive_max_pool3d(a, (2, 3, 2), return_indices=True),
                         torch.randn(2, 5, 6, 7, generator=_gen())),
        "all_minus_inf": (lambda a: F.adaptive_max_pool2d(a, 2, return_indices=True),
                          torch.full((1, 1, 5, 5), -float("inf"))),
    }


@pytest.mark.parametrize("target", TARGETS)
def test_adaptive_max_pool(target):
    """Every case in one module (one compile per target)."""
    cases = _adaptive_max_cases()
    fns, xs = zip(*cases.values())
    m = Fn(lambda *a: tuple(t for f, x in zip(fns, a) for t in f(x)))
    got = strata.compile(m, example_args=xs, target=target)(*xs)
    want = m(*xs)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        name = list(cases)[k // 2]
        if k % 2:
            assert torch.equal(g, w), name
        else:
            torch.testing.assert_close(g, w, equal_nan=True, rtol=0, atol=0, msg=name)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape, out", [((2, 3, 9, 10), (4, 3)), ((3, 5, 4), (7, 3)),
                                        ((1, 2, 5, 6, 7), (2, 4, 3))],
                         ids=["2d", "2d_unbatched_more_outputs", "3d"])
def test_adaptive_max_pool_backward(shape, out, target):
    """Windows that overlap (an input position is the argmax of several: its gradients
    add up) and more outputs than inputs."""
    n = len(out)
    aten = torch.ops.aten
    fwd = aten.adaptive_max_pool2d if n == 2 else aten.adaptive_max_pool3d
    bwd = (aten.adaptive_max_pool2d_backward if n == 2 else
           aten.adaptive_max_pool3d_backward)
    x = torch.randn(*shape, generator=_gen())
    _, idx = fwd(x, out)
    go = torch.randn(*idx.shape, generator=_gen(1))
    _compare(Fn(lambda g, a, i: bwd(g, a, i)), (go, x, idx), target)
