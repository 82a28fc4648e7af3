"""Elementwise ops on small feature maps through the whole CPU pipeline, where
strata-linalg-collapse-dims merges their loops: SiLU after a convolution, residual adds,
a squeeze-excitation style broadcast multiply, bias + ReLU6, a transposed copy with
contiguous inner runs, a channel slice (a strided view), a dynamic batch; 7x7 and 14x14
maps, against onnxruntime. The SiLU of a 14x14 map must reach LLVM as one collapsed loop
that LLVM vectorizes (it stayed scalar when its inner loop had 14 iterations)."""
from __future__ import annotations

import glob
import re

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from models import float_graph as _model, onnxruntime_outputs  # noqa: E402
from onnx import helper as h  # noqa: E402

_RNG = np.random.default_rng(0)


def conv_silu(c, hw):
    return _model([h.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                   h.make_node("Sigmoid", ["c"], ["s"]), h.make_node("Mul", ["c", "s"], ["y"])],
                  [("x", [1, c, hw, hw])], [("y", [1, c, hw, hw])],
                  [("w", _RNG.standard_normal((c, c, 3, 3)) * 0.1),
                   ("b", _RNG.standard_normal(c))])


def silu(c, hw):
    return _model([h.make_node("Sigmoid", ["x"], ["s"]), h.make_node("Mul", ["x", "s"], ["y"])],
                  [("x", [1, c, hw, hw])], [("y", [1, c, hw, hw])])


def residual_add(c, hw):
    return _model([h.make_node("Add", ["x", "z"], ["y"])],
                  [("x", [1, c, hw, hw]), ("z", [1, c, hw, hw])], [("y", [1, c, hw, hw])])


def se_scale(c, hw):
    return _model([h.make_node("GlobalAveragePool", ["x"], ["m"]),
                   h.make_node("Sigmoid", ["m"], ["s"]), h.make_node("Mul", ["x", "s"], ["y"])],
                  [("x", [1, c, hw, hw])], [("y", [1, c, hw, hw])])


def bias_relu6(c, hw):
    return _model([h.make_node("Add", ["x", "b"], ["a"]),
                   h.make_node("Clip", ["a", "lo", "hi"], ["y"])],
                  [("x", [1, c, hw, hw])], [("y", [1, c, hw, hw])],
                  [("b", _RNG.standard_normal((c, 1, 1)) * 3), ("lo", 0.0), ("hi", 6.0)])


def transposed_copy(c, hw):
    return _model([h.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2, 3]),
                   h.make_node("Relu", ["t"], ["y"])],
                  [("x", [2, c, hw, hw])], [("y", [c, 2, hw, hw])])


def channel_slice(c, hw):
    return _model([h.make_node("Split", ["x"], ["a", "b"], axis=1, num_outputs=2),
                   h.make_node("Relu", ["a"], ["ra"]), h.make_node("Neg", ["b"], ["nb"]),
                   h.make_node("Concat", ["nb", "ra"], ["y"], axis=1)],
                  [("x", [1, c, hw, hw])], [("y", [1, c, hw, hw])])


def dynamic_batch(c, hw):
    return _model([h.make_node("Add", ["x", "b"], ["a"]), h.make_node("Relu", ["a"], ["y"])],
                  [("x", ["N", c, hw, hw])], [("y", ["N", c, hw, hw])],
                  [("b", _RNG.standard_normal((c, 1, 1)))])


_MODELS = [conv_silu, silu, residual_add, se_scale, bias_relu6, transposed_copy,
           channel_slice, dynamic_batch]


@pytest.mark.parametrize("hw", [7, 14])
@pytest.mark.parametrize("build", _MODELS, ids=lambda f: f.__name__)
def test_matches_onnxruntime(build, hw):
    model = build(24, hw)
    feeds = {}
    for i in model.graph.input:
        shape = [d.dim_value or 3 for d in i.type.tensor_type.shape.dim]
        feeds[i.name] = (_RNG.standard_normal(shape) * 4).astype(np.float32)
    want = onnxruntime_outputs(model, feeds)
    for threads in (1, 2):
        got = strata.compile(model, cache=False, num_threads=threads)(**feeds)
        got = got if isinstance(got, (list, tuple)) else [got]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * np.abs(w).max())


def test_silu_on_a_14x14_map_is_one_vectorized_loop(tmp_path):
    from strata.backends.cpu.jit import JitModule
    strata.compile(silu(64, 14), cache=False, dump_dir=tmp_path)
    collapsed = glob.glob(str(tmp_path / "*strata-linalg-collapse-dims.mlir"))
    assert collapsed, "strata-linalg-collapse-dims is not in the CPU pipeline"
    text = open(collapsed[0]).read()
    assert "into memref<12544xf32>" in text
    ll = open(sorted(glob.glob(str(tmp_path / "*module.ll")))[-1]).read()
    opt = JitModule(ll, opt_level=3).optimized_ir
    bodies = {m.group(1): m.group(0) for m in
              re.finditer(r"define [^@]*@(main__op0\S*)\(.*?\n}\n", opt, re.S)}
    assert bodies, "no outlined loop nest for the SiLU"
    assert any(re.search(r"<\d+ x float>", b) for b in bodies.values()), \
        "the collapsed SiLU loop was not vectorized"
