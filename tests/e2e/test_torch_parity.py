"""The PyTorch path meets the ONNX path at the kernels (issue 17, item 8): the same module
through `strata.compile(ExportedProgram)` and through `strata.compile(onnx file)`
(torch.onnx.export of it) reaches the CPU kernels with the same calls and no more
copies. Compared in the IR after `strata-linalg-to-microkernels` of both compiles
(`dump_dir`), and each against eager.

A product torch's decomposition used to break up (`aten.matmul` of 4-d attention tensors:
expand + view + bmm, with the transposed value copied twice before the GEMM) reaches the
batched GEMM reading its operands in place, as ONNX's MatMul does ([Note: ops Strata
lowers whole] in strata/frontends/torch/importer.py)."""
from __future__ import annotations

import contextlib
import glob
import io
import os
import re
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

import strata  # noqa: E402

nn = torch.nn


class Attention(nn.Module):
    """A BERT self-attention block with a padding mask and its output projection."""

    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.norm = nn.LayerNorm(d)

    def forward(self, x, mask):
        b, n, d = x.shape

        def heads(t):
            return t.view(b, n, self.h, self.dh).transpose(1, 2)
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -10000.0
        s = torch.matmul(q, k.transpose(-1, -2)) / self.dh ** 0.5 + bias
        y = torch.matmul(torch.softmax(s, -1), v).transpose(1, 2).reshape(b, n, d)
        return self.norm(self.o(y) + x)


def _kernel_ir(dump_dir) -> str:
    (path,) = glob.glob(os.path.join(dump_dir, "*-strata-linalg-to-microkernels.mlir"))
    with open(path, encoding="utf-8") as f:
        return f.read()


def _counts(text):
    calls = sorted(re.findall(r"call @(strata_\w+)", text))
    return calls, len(re.findall(r"linalg\.transpose", text)), \
        len(re.findall(r"linalg\.generic", text))


def test_attention_reaches_the_kernels_as_the_onnx_path_does(tmp_path):
    torch.manual_seed(0)
    model = Attention().eval()
    x = torch.randn(1, 16, 32)
    mask = torch.ones(1, 16, dtype=torch.int64)
    mask[0, 12:] = 0
    with torch.no_grad():
        want = model(x, mask).numpy()
    onnx_path = str(tmp_path / "attention.onnx")
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x, mask), onnx_path, opset_version=18, dynamo=False)
    ep = torch.export.export(model, (x, mask))
    from_ep = strata.compile(ep, cache=False, dump_dir=str(tmp_path / "ep"))
    from_onnx = strata.compile(onnx_path, cache=False, dump_dir=str(tmp_path / "onnx"))
    np.testing.assert_allclose(from_ep(x, mask).numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(from_onnx(x.numpy(), mask.numpy())[0], want, rtol=1e-5,
                               atol=1e-5)
    ep_calls, ep_transposes, ep_generics = _counts(_kernel_ir(tmp_path / "ep"))
    onnx_calls, onnx_transposes, onnx_generics = _counts(_kernel_ir(tmp_path / "onnx"))
    # the four projections on the packed GEMM, both attention products on the batched one
    assert ep_calls == onnx_calls
    assert sum(c.endswith("batched_f32") for c in ep_calls) == 2
    # no more copies than ONNX's: the key is read transposed by the first product's
    # kernel and the value in place by the second (torch's decomposition of the 4-d
    # matmuls made 3 more transposes and 3 more copies)
    assert ep_transposes <= onnx_transposes
    # one generic more at most: native_layer_norm divides the variance (a [b, n] row
    # statistic) in a generic of its own where ONNX's decomposition fuses it
    assert ep_generics <= onnx_generics + 1


class ConvBlock(nn.Module):
    """A ResNet stem and a MobileNet projection: convolutions followed by eval-mode
    batch norms (with ReLU, and without an activation)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False),
                                  nn.BatchNorm2d(32), nn.ReLU())
        self.project = nn.Sequential(nn.Conv2d(32, 24, 1, bias=False), nn.BatchNorm2d(24))

    def forward(self, x):
        return self.project(self.down(self.stem(x)))


def test_conv_batch_norm_reaches_the_kernels_as_the_onnx_path_does(tmp_path):
    """torch.export keeps each batch norm after its convolution; the ONNX exporter folds
    it into the convolution's weights. torch-fold-batch-norm folds it too, so both
    paths make the same kernel calls (the stem and the stride-2 convolution on the
    packed kernel with bias and ReLU in its epilogue) and the same elementwise ops."""
    torch.manual_seed(0)
    model = ConvBlock()
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(torch.randn(c, generator=g) * 0.3)
            m.running_var.copy_(torch.rand(c, generator=g) + 0.5)
            m.weight.data.copy_(torch.randn(c, generator=g))
            m.bias.data.copy_(torch.randn(c, generator=g))
    model.eval()
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        want = model(x).numpy()
    onnx_path = str(tmp_path / "conv.onnx")
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x,), onnx_path, opset_version=18, dynamo=False)
    ep = torch.export.export(model, (x,))
    from_ep = strata.compile(ep, cache=False, dump_dir=str(tmp_path / "ep"))
    from_onnx = strata.compile(onnx_path, cache=False, dump_dir=str(tmp_path / "onnx"))
    np.testing.assert_allclose(from_ep(x).numpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(from_onnx(x.numpy())[0], want, rtol=1e-4, atol=1e-5)
    ep_calls, ep_transposes, ep_generics = _counts(_kernel_ir(tmp_path / "ep"))
    onnx_calls, onnx_transposes, onnx_generics = _counts(_kernel_ir(tmp_path / "onnx"))
    assert ep_calls == onnx_calls
    assert sum("_epi_" in c for c in ep_calls) >= 2
    assert ep_generics <= onnx_generics
