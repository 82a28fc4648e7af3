"""ONNX Reshape of a tensor with two dynamic dims to a run-time shape of two dims lowers
to tensor.collapse_shape + tensor.expand_shape with the same groups; the pair is not
its source (reshape_fusion.py's FoldReshape, as upstream's foldReshapeOp). Folding it
made the CPU target return the input's shape: a silent wrong answer (issue 16)."""
from __future__ import annotations

import numpy as np
import pytest

import strata

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as T, helper as h  # noqa: E402


def _model(shape_rank):
    g = h.make_graph([h.make_node("Reshape", ["X", "S"], ["r"], name="reshape_0"),
                      h.make_node("Relu", ["r"], ["y"], name="relu_0")], "g",
                     [h.make_tensor_value_info("X", T.FLOAT, ["a", "b"]),
                      h.make_tensor_value_info("S", T.INT64, [shape_rank])],
                     [h.make_tensor_value_info("y", T.FLOAT, None)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("shape", [[4, 2], [8, 1], [1, 8], [-1, 4], [2, 4]])
def test_reshape_to_a_run_time_shape_of_the_same_rank(target, shape):
    x = np.arange(-4, 4, dtype=np.float32).reshape(2, 4)
    f = strata.compile(_model(2), target=target, progress=False)
    y, = f(x, np.array(shape, np.int64))
    want = np.maximum(x.reshape(shape), 0)
    assert y.shape == want.shape
    np.testing.assert_array_equal(y, want)
