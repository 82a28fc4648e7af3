"""torch-fold-batch-norm (strata/frontends/torch/fold_batch_norm.py): an eval-mode batch
norm after a convolution with constant weights becomes the convolution's filter and bias,
as the ONNX exporter folds it; what it cannot fold is left to the lowering. Each case
checks the IR and the numbers against eager."""
from __future__ import annotations

import re

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import strata  # noqa: E402
from strata.frontends.torch import import_program  # noqa: E402
from strata.passes.pipeline import parse_pipeline  # noqa: E402

nn = torch.nn


def _randomized(m):
    """Non-trivial running statistics and affine parameters (seeded)."""
    g = torch.Generator().manual_seed(3)
    for mod in m.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            c = mod.num_features
            mod.running_mean.copy_(torch.randn(c, generator=g) * 0.5)
            mod.running_var.copy_(torch.rand(c, generator=g) + 0.5)
            if mod.affine:
                mod.weight.data.copy_(torch.randn(c, generator=g))
                mod.bias.data.copy_(torch.randn(c, generator=g))
    return m.eval()


def _names(module):
    out = []
    for op in module.walk():
        n = op.properties.get("name") if op.name == "torch.operator" else None
        out.append(n.value if n is not None else op.name)
    return out


def _folded(model, *args, decompose=None):
    """(names of the ops after the fold, the compiled model's first output, eager's).
    `decompose`: import_program's (None: the program as torch.export gives it where it
    can, aten.batch_norm and aten.conv2d; True: run_decompositions' forms)."""
    ep = torch.export.export(model, args)
    m = import_program(ep, decompose=decompose)
    parse_pipeline("builtin.module(torch-externalize-weights,torch-fold-batch-norm)").run(m)
    m.verify()
    with torch.no_grad():
        want = model(*args)
    got = strata.compile(ep, cache=False)(*args)
    got = got[0] if isinstance(got, (list, tuple)) else got
    return _names(m), got.numpy(), want.numpy()


BN = "torch.aten._native_batch_norm_legit_no_training"
# the batch norms of both import modes
BATCH_NORMS = (BN, "torch.aten.batch_norm")
CONVOLUTIONS = ("torch.aten.convolution", "torch.aten.conv1d", "torch.aten.conv2d",
                "torch.aten.conv3d")
both_imports = pytest.mark.parametrize("decompose", [None, True])


@pytest.mark.parametrize("conv,bn", [
    (lambda: nn.Conv2d(3, 8, 3, stride=2, padding=1), lambda: nn.BatchNorm2d(8)),
    (lambda: nn.Conv2d(4, 8, 3, groups=2, bias=False), lambda: nn.BatchNorm2d(8)),
    (lambda: nn.Conv2d(8, 8, 3, groups=8, padding=1), lambda: nn.BatchNorm2d(8, affine=False)),
    (lambda: nn.Conv1d(3, 6, 5), lambda: nn.BatchNorm1d(6, eps=1e-3)),
    (lambda: nn.Conv3d(2, 4, 3), lambda: nn.BatchNorm3d(4)),
])
@both_imports
def test_batch_norm_after_a_convolution_is_folded(conv, bn, decompose):
    torch.manual_seed(0)
    c = conv()
    model = _randomized(nn.Sequential(c, bn(), nn.ReLU()))
    shape = (1, c.in_channels) + (9,) * (c.weight.dim() - 2)
    names, got, want = _folded(model, torch.randn(*shape), decompose=decompose)
    assert not set(BATCH_NORMS) & set(names)
    assert sum(names.count(c) for c in CONVOLUTIONS) == 1
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("layer,bn,shape", [
    (lambda: nn.ConvTranspose2d(4, 6, 3), lambda: nn.BatchNorm2d(6), (1, 4, 5, 5)),
    (lambda: nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2, bias=False),
     lambda: nn.BatchNorm2d(6), (1, 4, 5, 5)),
    (lambda: nn.Linear(7, 5), lambda: nn.BatchNorm1d(5), (3, 7)),
])
@both_imports
def test_batch_norm_after_a_transposed_convolution_or_linear_is_folded(layer, bn, shape,
                                                                       decompose):
    """Output channel g * (C_out / groups) + j of a transposed convolution is its filter's
    [g * (C_in / groups) + i, j]; a linear layer's features are its weight's rows."""
    torch.manual_seed(0)
    model = _randomized(nn.Sequential(layer(), bn(), nn.ReLU()))
    names, got, want = _folded(model, torch.randn(*shape), decompose=decompose)
    assert not set(BATCH_NORMS) & set(names)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


class TwoReaders(nn.Module):
    """The convolution's output is read by the batch norm and by the residual add: the
    fold would change the add's operand, so it is left."""

    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(4, 4, 1), nn.BatchNorm2d(4)

    def forward(self, x):
        y = self.conv(x)
        return self.bn(y) + y


class InputScale(nn.Module):
    """The batch norm's weight is a run-time input: not a constant."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 1)
        self.register_buffer("mean", torch.randn(4))
        self.register_buffer("var", torch.rand(4) + 0.5)

    def forward(self, x, gamma):
        return torch.nn.functional.batch_norm(self.conv(x), self.mean, self.var, gamma)


class LinearRows(nn.Module):
    """A linear layer of a rank-3 input: the batch norm's channels (dim 1) are rows, not
    the layer's features, so nothing is folded."""

    def __init__(self):
        super().__init__()
        self.fc, self.bn = nn.Linear(5, 5), nn.BatchNorm1d(4)

    def forward(self, x):
        return self.bn(self.fc(x))


@pytest.mark.parametrize("model,args", [
    (TwoReaders, (torch.randn(1, 4, 5, 5),)),
    (InputScale, (torch.randn(1, 4, 5, 5), torch.randn(4))),
    (LinearRows, (torch.randn(2, 4, 5),)),
    (lambda: nn.Sequential(nn.ReLU(), nn.BatchNorm2d(4)), (torch.randn(1, 4, 5, 5),)),
])
@both_imports
def test_batch_norm_that_cannot_be_folded_stays(model, args, decompose):
    torch.manual_seed(0)
    names, got, want = _folded(_randomized(model()), *args, decompose=decompose)
    assert set(BATCH_NORMS) & set(names)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_a_shared_filter_keeps_its_global():
    """The same convolution module applied twice, each time followed by a different
    batch norm: each use gets its own folded filter, the original is dropped."""
    class Shared(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 3, 3, padding=1)
            self.bn1, self.bn2 = nn.BatchNorm2d(3), nn.BatchNorm2d(3)

        def forward(self, x):
            return self.bn2(self.conv(self.bn1(self.conv(x))))
    torch.manual_seed(0)
    model = _randomized(Shared())
    names, got, want = _folded(model, torch.randn(1, 3, 6, 6))
    assert not set(BATCH_NORMS) & set(names)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_folded_weights_leave_no_unread_globals():
    """The old filter, bias and statistics go with the fold (they would be bound with
    the model's weights for nothing); a parameter still read elsewhere stays."""
    class AlsoReadsMean(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.bn = nn.Conv2d(3, 4, 1), nn.BatchNorm2d(4)

        def forward(self, x):
            return self.bn(self.conv(x)) + self.bn.running_mean[None, :, None, None]
    torch.manual_seed(0)
    model = _randomized(AlsoReadsMean())
    m = import_program(torch.export.export(model, (torch.randn(1, 3, 4, 4),)))
    parse_pipeline("builtin.module(torch-externalize-weights,torch-fold-batch-norm)").run(m)
    # (names get a _N suffix where this process already has a blob of that name)
    names = sorted(re.sub(r"_\d+", "", op.properties["sym_name"].value)
                   for op in m.walk() if op.name == "ml_program.global")
    assert names == ["bn.running_mean", "conv.weight_bn", "conv.weight_bn_bias"]
