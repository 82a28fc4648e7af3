"""Models whose convolutions are grouped (a small ResNeXt: 3x3 convolutions in 8 groups
of 4 and 8 channels, ReLU after each) or 1-D (a Whisper-like stem: Conv1d k3 + GELU,
Conv1d k3 stride 2 + GELU over 600 frames), compiled for the CPU from ONNX
(torch.onnx.export) and from the torch module (strata.compile(nn.Module)), compared
with onnxruntime and eager; their convolutions must reach the kernels
(strata_conv2d_nchw_grouped_packed[_epi]_f32, strata_conv2d_nchw_packed_epi_f32 with
the bias and ReLU in the epilogue where they are the convolution's), the GELU one
elementwise pass after each 1-D one."""
from __future__ import annotations

import importlib.util
import pathlib
import re
import warnings

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

import strata  # noqa: E402

_BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench"
TOLERANCE = 1e-4


def _resnext():
    spec = importlib.util.spec_from_file_location("zoo_architectures",
                                                  _BENCH / "zoo_architectures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.manual_seed(0)
    return mod.resnext(torch, depths=(1, 1), groups=8, width_per_group=4, classes=10), \
        (3, 32, 32)


class _Stem(torch.nn.Module):
    """Whisper's encoder stem, narrower: conv1 (k3, pad 1) + GELU, conv2 (k3, stride 2,
    pad 1) + GELU."""

    def __init__(self, mels=8, width=32):
        super().__init__()
        self.conv1 = torch.nn.Conv1d(mels, width, 3, padding=1)
        self.conv2 = torch.nn.Conv1d(width, width, 3, stride=2, padding=1)

    def forward(self, x):
        x = torch.nn.functional.gelu(self.conv1(x))
        return torch.nn.functional.gelu(self.conv2(x))


def _stem():
    torch.manual_seed(0)
    return _Stem(), (8, 600)


# (builder, the kernel its convolutions call from ONNX, from torch, how many calls). The
# ONNX exporter folds each BatchNorm into its convolution (a bias: the epilogue), and so
# does the torch path (torch-fold-batch-norm).
MODELS = {"resnext": (_resnext, "strata_conv2d_nchw_grouped_packed_epi_f32",
                      "strata_conv2d_nchw_grouped_packed_epi_f32", 2),
          "whisper_stem": (_stem, "strata_conv2d_nchw_packed_epi_f32",
                           "strata_conv2d_nchw_packed_epi_f32", 2)}


def _relative(y, ref):
    assert y.shape == ref.shape, (y.shape, ref.shape)
    return float(np.max(np.abs(y.astype(np.float64) - ref))) / float(np.max(np.abs(ref)))


def _lowered(dump):
    return next(pathlib.Path(dump).glob("*strata-linalg-to-microkernels.mlir")).read_text()


def _check_kernels(text, name, kernel, count):
    assert len(re.findall(rf"call @{kernel}\(", text)) == count, name
    assert "linalg.conv" not in text, name
    if name == "whisper_stem":      # each conv's bias and GELU in its epilogue
        assert "linalg.generic" not in text and "math.erf" not in text


@pytest.mark.parametrize("name", list(MODELS))
def test_onnx_model_matches_eager_and_onnxruntime(name, tmp_path):
    make, kernel, _, count = MODELS[name]
    module, shape = make()
    module.eval()
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((1, *shape)).astype(np.float32)
    path = str(tmp_path / f"{name}.onnx")
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, (torch.from_numpy(x1),), path, input_names=["x"],
                          output_names=["y"], dynamic_axes={"x": {0: "batch"}},
                          opset_version=18, dynamo=False)
    f = strata.compile(path, num_threads=2, dump_dir=str(tmp_path / "dump"))
    _check_kernels(_lowered(tmp_path / "dump"), name, kernel, count)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for batch in (1, 2):
        x = x1 if batch == 1 else rng.standard_normal((batch, *shape)).astype(np.float32)
        with torch.no_grad():
            eager = module(torch.from_numpy(x)).numpy()
        y = f(x)[0]
        assert _relative(y, sess.run(None, {"x": x})[0]) <= TOLERANCE, (name, batch)
        assert _relative(y, eager) <= TOLERANCE, (name, batch)


@pytest.mark.parametrize("name", list(MODELS))
def test_torch_module_matches_eager(name, tmp_path):
    make, _, kernel, count = MODELS[name]
    module, shape = make()
    module.eval()
    x = torch.from_numpy(np.random.default_rng(1).standard_normal((1, *shape))
                         .astype(np.float32))
    f = strata.compile(module, example_args=(x,), num_threads=2,
                       dump_dir=str(tmp_path / "dump"))
    _check_kernels(_lowered(tmp_path / "dump"), name, kernel, count)
    with torch.no_grad():
        eager = module(x).numpy()
    y = f(x.numpy())   # one output, as the module returns it
    assert _relative(np.asarray(y), eager) <= TOLERANCE, name
