"""A dynamic batch compiles to the code a static one does: ONNX convolutions (padded,
strided, grouped, depthwise, 1-D, Winograd), GEMMs and pools with a batch dim `N`,
lowered for the CPU and compared with the same model at batch 1 (the same kernels, no
more loop nests, fills or copies: a padded buffer's fill keeps to its border, [Note:
dynamic sizes compared] in strata/dialects/memref.py), then run at several batches, 0 included,
against onnxruntime; an input of the wrong rank or channel count is refused."""
from __future__ import annotations

import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import helper  # noqa: E402

import strata  # noqa: E402
from strata.runtime import InputError  # noqa: E402

from models import float_graph  # noqa: E402

RNG = np.random.default_rng(5)


def _w(*shape):
    return (RNG.standard_normal(shape) * 0.2).astype(np.float32)


def _conv(cin, cout, k, stride=1, pad=0, group=1, hw=(20, 20), dil=1):
    nd = len(hw)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[k] * nd,
                              strides=[stride] * nd, pads=[pad] * 2 * nd, group=group,
                              dilations=[dil] * nd, name="conv"),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    return nodes, [cin, *hw], [("w", _w(cout, cin // group, *[k] * nd)), ("b", _w(cout))]


def _single(op, shape, inits=(), **attrs):
    return [helper.make_node(op, ["x"] + [n for n, _ in inits], ["y"], name=op.lower(),
                             **attrs)], shape, list(inits)


# name: (nodes, the input's shape after the batch, initializers)
CASES = {
    "winograd_3x3": _conv(16, 16, 3, pad=1),
    "conv_3x3_s2": _conv(16, 24, 3, stride=2, pad=1),
    "conv_1x1": _conv(16, 24, 1),
    "dilated_3x3": _conv(16, 16, 3, pad=2, dil=2, hw=(24, 24)),
    "dilated_3x3_odd": _conv(16, 16, 3, pad=2, dil=2, hw=(23, 21)),
    "stem_7x7_s2": _conv(3, 16, 7, stride=2, pad=3, hw=(40, 40)),
    "grouped_3x3": _conv(32, 32, 3, pad=1, group=4),
    "depthwise_3x3_s2": _conv(16, 16, 3, stride=2, pad=1, group=16),
    "conv_1d": _conv(8, 12, 3, pad=1, hw=(600,)),
    "gemm": ([helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1, name="gemm"),
              helper.make_node("Relu", ["g"], ["y"], name="relu")], [64],
             [("w", _w(48, 64)), ("b", _w(48))]),
    "matmul_3d": ([helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul")], [5, 64],
                  [("w", _w(64, 40))]),
    "maxpool_pad": _single("MaxPool", [8, 25, 25], kernel_shape=[3, 3], strides=[2, 2],
                           pads=[1, 1, 1, 1]),
    "avgpool_pad": _single("AveragePool", [8, 24, 24], kernel_shape=[3, 3],
                           pads=[1, 1, 1, 1]),
    "global_avgpool": _single("GlobalAveragePool", [8, 7, 7]),
}
# Not the same code yet (see the notes): a dilated convolution's mosaic (Winograd
# on the phases) needs static sizes; a grouped convolution's result is copied once more
# (the ReLU after it is expanded to 5-D through the channel split where the batch is
# dynamic, and the function's result becomes a copy of the collapsed view).
KNOWN_GAPS = {"grouped_3x3"}


def _model(name, batch):
    nodes, shape, inits = CASES[name]
    return float_graph(nodes, [("x", [batch, *shape])], [("y", None)], inits)


def _lowered(model, tmp_path, tag):
    d = tmp_path / tag
    f = strata.compile(model, dump_dir=str(d), cache=False)
    text = next(d.glob("*strata-outline-linalg-ops.mlir")).read_text().split("{-#")[0]
    return f, text


def _shape_of_code(text):
    """What the code does per image: the kernels called, the elements filled (the batch
    dim counted as 1), and the other loop nests and copies (memref.copy, or outlined
    loop nests: a copy of a dynamic size is always a loop nest, a small static one may
    stay a memref.copy)."""
    calls = sorted(re.findall(r"call @(strata_\w+)\(", text))
    bodies = re.split(r"func\.func private @", text)[1:]
    fill_funcs = {b.split("(", 1)[0] for b in bodies
                  if re.search(r"\A[^\n]*\n(?:[^\n]*arith\.constant[^\n]*\n)*"
                               r"\s*linalg\.(?:map|fill) ", b)}
    nests = [c for c in re.findall(r"call @(main__op\d+)\(", text) if c not in fill_funcs]
    filled = 0
    for m in re.findall(r"linalg\.(?:map|fill)[^\n]*outs\(%\w+ : memref<([^,>]*)", text):
        dims = m.split("x")[:-1]
        filled += int(np.prod([1 if d == "?" else int(d) for d in dims]))
    return calls, filled, len(nests) + text.count("memref.copy")


@pytest.mark.parametrize("name", list(CASES))
def test_dynamic_batch_same_code_as_static(tmp_path, name):
    if name in KNOWN_GAPS:
        pytest.xfail("a known gap of dynamic batches (see KNOWN_GAPS)")
    _, dyn = _lowered(_model(name, "N"), tmp_path, "dyn")
    _, static = _lowered(_model(name, 1), tmp_path, "static")
    d, s = _shape_of_code(dyn), _shape_of_code(static)
    # the same kernels; no more filled elements, loop nests or copies (a batch of one
    # sometimes takes other paths: pools whose unit batch row fusion looks past)
    assert d[0] == s[0] and all(x <= y for x, y in zip(d[1:], s[1:])), (d, s)


@pytest.mark.parametrize("name", list(CASES))
def test_dynamic_batch_matches_onnxruntime(name):
    model = _model(name, "N")
    f = strata.compile(model, cache=False)
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    shape = CASES[name][1]
    for n in (1, 3, 0, 2):
        x = RNG.standard_normal((n, *shape)).astype(np.float32)
        got = np.asarray(f(x)[0])
        ref = sess.run(None, {"x": x})[0]
        assert got.shape == ref.shape, (n, got.shape, ref.shape)
        if n:
            np.testing.assert_allclose(got, ref, rtol=1e-4,
                                       atol=1e-4 * max(np.abs(ref).max(), 1.0))
    with pytest.raises(InputError):
        f(RNG.standard_normal(tuple(shape)).astype(np.float32))      # no batch dim
    with pytest.raises(InputError):
        f(RNG.standard_normal((2, shape[0] + 1, *shape[1:])).astype(np.float32))
