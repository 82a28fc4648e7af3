"""`ReduceSum(S * Tanh(X))` with a scalar S, and its neighbours (other unary math and arith
ops under a scalar product, the scalar on either side, reduced or not), compiled for the
cpu target and the interpreter against onnxruntime. linalg-fuse-elementwise-ops once
crashed on them ('BlockArgument' object is not callable): math's operand field hid
`Operation.operand` (see [Note: field names] in strata/ir/ods.py)."""
from __future__ import annotations

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

import strata  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402


def _model(unary, scalar_first=True, reduce=True, s_shape=()):
    nodes = [helper.make_node(unary, ["X"], ["u"])]
    if unary in ("Sqrt", "Log"):  # positive inputs
        nodes = [helper.make_node("Abs", ["X"], ["a"]), helper.make_node(unary, ["a"], ["u"])]
    nodes.append(helper.make_node("Mul", ["S", "u"] if scalar_first else ["u", "S"], ["m"]))
    out_shape = [3, 5]
    if reduce:
        nodes.append(helper.make_node("ReduceSum", ["m"], ["Y"], keepdims=0))
        out_shape = []
    else:
        nodes[-1].output[0] = "Y"
    g = helper.make_graph(
        nodes, "scalar_times_unary",
        [helper.make_tensor_value_info("S", TensorProto.FLOAT, list(s_shape)),
         helper.make_tensor_value_info("X", TensorProto.FLOAT, [3, 5])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, out_shape)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _check(model, target, s_shape=()):
    rng = np.random.default_rng(0)
    s = np.asarray(rng.standard_normal(s_shape), np.float32)
    x = (rng.standard_normal((3, 5)) + 0.1).astype(np.float32)
    ref = ort.InferenceSession(model.SerializeToString(),
                               providers=["CPUExecutionProvider"]).run(None, {"S": s, "X": x})[0]
    got = strata.compile(model, target=target)(s, x)[0]
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", ["cpu", "interpret"])
def test_reduce_sum_of_scalar_times_tanh(target):
    _check(_model("Tanh"), target)


@pytest.mark.parametrize("target", ["cpu", "interpret"])
@pytest.mark.parametrize("unary,scalar_first,reduce,s_shape", [
    ("Exp", False, True, ()),      # the scalar second
    ("Sqrt", True, True, ()),      # math.sqrt
    ("Neg", True, True, ()),       # arith.negf, arith's unary float base
    ("Erf", True, False, ()),      # not reduced
    ("Tanh", True, True, (1,)),    # a one-element tensor as the scalar
    ("Floor", False, False, (1, 1)),
])
def test_scalar_times_unary_neighbours(unary, scalar_first, reduce, s_shape, target):
    _check(_model(unary, scalar_first, reduce, s_shape), target, s_shape)
