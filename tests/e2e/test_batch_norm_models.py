"""Inference batch normalization the exporter did not fold, through the whole CPU
pipeline against onnxruntime (ONNX) and eager (PyTorch): after a Conv, a ConvTranspose, a
Gemm or a MatMul with constant weights it is folded into them (onnx-fold-batch-norm,
[Note: batch norm folded into the weights]); anywhere else (after a Relu, a Concat, an
Add) it is one multiply-add per element with s and t computed at compile time ([Note:
batch norm with constant statistics]). Either way no square root or division is left in
the compiled loop nests. NaN in the image propagates, a zero variance with eps is
finite, and statistics given at run time keep the defining formula."""
from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

import strata  # noqa: E402
from models import float_graph, onnxruntime_outputs  # noqa: E402
from onnx import helper as h  # noqa: E402

_RNG = np.random.default_rng(18)


def _stats(inits, name, c, var=None):
    inits += [(name + "g", _RNG.uniform(-1.5, 1.5, c)), (name + "b", _RNG.uniform(-1, 1, c)),
              (name + "m", _RNG.uniform(-1, 1, c)),
              (name + "v", _RNG.uniform(0.5, 2, c) if var is None else var)]
    return [name + s for s in ("g", "b", "m", "v")]


def _bn(x, y, stats, eps=1e-5):
    return h.make_node("BatchNormalization", [x] + stats, [y], epsilon=eps)


def _conv_bn(relu=False, var=None):
    inits = [("w", _RNG.standard_normal((16, 8, 3, 3)) / 8), ("cb", _RNG.standard_normal(16))]
    nodes = [h.make_node("Conv", ["x", "w", "cb"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2])]
    if relu:
        nodes.append(h.make_node("Relu", ["c"], ["r"]))
    nodes.append(_bn("r" if relu else "c", "y", _stats(inits, "bn", 16, var)))
    return float_graph(nodes, [("x", [1, 8, 10, 10])], [("y", [1, 16, 5, 5])], inits), \
        {"x": (1, 8, 10, 10)}


def _conv_transpose_bn():
    inits = [("w", _RNG.standard_normal((8, 3, 2, 2)) / 4)]
    nodes = [h.make_node("ConvTranspose", ["x", "w"], ["c"], strides=[2, 2], group=2),
             _bn("c", "y", _stats(inits, "bn", 6))]
    return float_graph(nodes, [("x", [1, 8, 5, 5])], [("y", [1, 6, 10, 10])], inits), \
        {"x": (1, 8, 5, 5)}


def _gemm_bn():
    inits = [("w", _RNG.standard_normal((24, 32)) / 6), ("c", _RNG.standard_normal(24))]
    nodes = [h.make_node("Gemm", ["x", "w", "c"], ["g"], transB=1, beta=0.5),
             _bn("g", "y", _stats(inits, "bn", 24))]
    return float_graph(nodes, [("x", [3, 32])], [("y", [3, 24])], inits), {"x": (3, 32)}


def _matmul_bn():
    inits = [("w", _RNG.standard_normal((32, 24)) / 6)]
    nodes = [h.make_node("MatMul", ["x", "w"], ["g"]), _bn("g", "y", _stats(inits, "bn", 24))]
    return float_graph(nodes, [("x", [3, 32])], [("y", [3, 24])], inits), {"x": (3, 32)}


def _concat_add_bn():
    inits = [("w1", _RNG.standard_normal((8, 8, 1, 1)) / 3),
             ("w2", _RNG.standard_normal((8, 8, 1, 1)) / 3)]
    nodes = [h.make_node("Conv", ["x", "w1"], ["a"]), h.make_node("Conv", ["x", "w2"], ["b"]),
             h.make_node("Concat", ["a", "b"], ["cat"], axis=1),
             _bn("cat", "n1", _stats(inits, "bn1", 16)),
             h.make_node("Add", ["a", "b"], ["s"]), _bn("s", "n2", _stats(inits, "bn2", 8)),
             h.make_node("Concat", ["n1", "n2"], ["y"], axis=1)]
    return float_graph(nodes, [("x", [2, 8, 6, 6])], [("y", [2, 24, 6, 6])], inits), \
        {"x": (2, 8, 6, 6)}


def _runtime_stats():
    inits = [("w", _RNG.standard_normal((4, 3, 1, 1)))]
    nodes = [h.make_node("Conv", ["x", "w"], ["c"]),
             _bn("c", "y", ["g", "b", "m", "v"])]
    ins = [("x", [1, 3, 4, 4])] + [(n, [4]) for n in "gbmv"]
    return float_graph(nodes, ins, [("y", [1, 4, 4, 4])], inits), \
        {"x": (1, 3, 4, 4), "g": (4,), "b": (4,), "m": (4,), "v": (4,)}


_MODELS = {"conv": _conv_bn, "conv_relu": lambda: _conv_bn(relu=True),
           "conv_transpose": _conv_transpose_bn, "gemm": _gemm_bn, "matmul": _matmul_bn,
           "concat_add": _concat_add_bn}


def _feeds(shapes, nan=False):
    feeds = {n: _RNG.standard_normal(s).astype(np.float32) for n, s in shapes.items()}
    if "v" in feeds:
        feeds["v"] = np.abs(feeds["v"]) + 0.5
    if nan:
        feeds["x"][0, 0, 4, 4] = np.nan    # one pixel: the windows over it only
    return feeds


def _compile(model, tmp_path, threads=1):
    f = strata.compile(model, cache=False, num_threads=threads, dump_dir=str(tmp_path))
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    return f, lowered


def _check(f, model, feeds):
    got = f(**feeds)
    got = got[0] if isinstance(got, (list, tuple)) else got
    want = onnxruntime_outputs(model, feeds)[0]
    scale = max(float(np.nanmax(np.abs(want))), 1.0)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * scale, equal_nan=True)
    return got, want


@pytest.mark.parametrize("name", sorted(_MODELS))
def test_batch_norm_matches_onnxruntime_without_sqrt(name, tmp_path):
    model, shapes = _MODELS[name]()
    f, lowered = _compile(model, tmp_path)
    # s and t were computed at compile time: no sqrt or division per element left
    assert "math.sqrt" not in lowered and "arith.divf" not in lowered, lowered
    _check(f, model, _feeds(shapes))
    if name in ("conv", "gemm", "matmul", "conv_transpose"):
        # folded into the weights: the product is the only loop nest over the result
        assert "linalg.generic" not in lowered or name == "conv_transpose", lowered


def test_nan_propagates(tmp_path):
    for relu in (False, True):
        model, shapes = _conv_bn(relu=relu)
        f, _ = _compile(model, tmp_path / str(relu))
        got, want = _check(f, model, _feeds(shapes, nan=True))
        assert np.isnan(want).any() and not np.isnan(want).all()
        assert np.array_equal(np.isnan(got), np.isnan(want))


def test_zero_variance_two_threads(tmp_path):
    var = np.where(np.arange(16) % 3 == 0, 0.0, 1.0)
    for relu in (False, True):
        model, shapes = _conv_bn(relu=relu, var=var)
        f, lowered = _compile(model, tmp_path / str(relu), threads=2)
        assert "math.sqrt" not in lowered
        _check(f, model, _feeds(shapes))


def test_runtime_statistics_keep_the_formula(tmp_path):
    model, shapes = _runtime_stats()
    f, lowered = _compile(model, tmp_path)
    assert "math.sqrt" in lowered
    _check(f, model, _feeds(shapes))


def test_torch_batch_norms_match_eager(tmp_path):
    """Conv -> BN, ConvTranspose(groups 2) -> BN and Linear -> BatchNorm1d folded into the
    weights (torch-fold-batch-norm), Conv -> ReLU -> BN as x * s + t (the shared
    builder), through strata.compile against eager."""
    torch = pytest.importorskip("torch")
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.b1 = nn.Conv2d(4, 8, 3, padding=1), nn.BatchNorm2d(8)
            self.c2, self.b2 = nn.Conv2d(8, 8, 3, stride=2), nn.BatchNorm2d(8)
            self.d, self.b4 = nn.ConvTranspose2d(8, 6, 2, stride=2, groups=2), \
                nn.BatchNorm2d(6)
            self.fc, self.b3 = nn.Linear(6 * 6 * 6, 12), nn.BatchNorm1d(12)

        def forward(self, x):
            y = self.b1(self.c1(x))
            y = self.b4(self.d(self.b2(torch.relu(self.c2(y)))))
            return self.b3(self.fc(y.flatten(1)))

    torch.manual_seed(0)
    m = Net()
    for bn in (m.b1, m.b2, m.b3, m.b4):
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        bn.weight.data.uniform_(-1.5, 1.5)
        bn.bias.data.uniform_(-1, 1)
    m.eval()
    x = torch.randn(2, 4, 7, 7)
    f = strata.compile(m, example_args=(x,), cache=False, dump_dir=str(tmp_path))
    folded = next(tmp_path.glob("*torch-fold-batch-norm.mlir")).read_text()
    assert len(re.findall(r"torch\.aten\.batch_norm|_native_batch_norm", folded)) == 1
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    assert "math.sqrt" not in lowered and "arith.divf" not in lowered
    with torch.no_grad():
        want = m(x).numpy()
    out = f(x)
    got = np.asarray(out[0] if isinstance(out, (list, tuple)) else out)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * np.abs(want).max())
