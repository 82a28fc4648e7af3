"""convert-onnx-to-linalg, LayerNormalization lowered whole ([Note: LayerNormalization
lowered whole]): every axis, Scale and B shapes, the Mean and InvStdDev outputs, f16 with
a float stash, dynamic dims; against onnxruntime under the interpreter and the CPU
target. The lowering keeps the dims of X: no flatten and reshape back (whose batch
would be a size computed at run time, the attention match's obstacle on Segformer)."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper

from onnx_node_models import check, expected

import strata


def _model(xshape, axis, sshape, bias=True, outs=1, dtype=TP.FLOAT, stash=1):
    npd = np.float32 if dtype == TP.FLOAT else np.float16
    rng = np.random.default_rng(1)
    inits = [onnx.numpy_helper.from_array(rng.standard_normal(sshape).astype(npd), "s")]
    names = ["x", "s"]
    if bias:
        inits.append(onnx.numpy_helper.from_array(rng.standard_normal(sshape).astype(npd), "b"))
        names.append("b")
    on = ["y", "m", "i"][:outs]
    node = helper.make_node("LayerNormalization", names, on, axis=axis, epsilon=1e-3,
                            stash_type=stash)
    o = [helper.make_tensor_value_info(n, dtype if n == "y" else TP.FLOAT, None) for n in on]
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", dtype, xshape)],
                          o, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


CASES = [(["N", 7, 32], -1, [32], True, 1, [2, 7, 32]),
         ([2, 3, 4, 5], 1, [3, 4, 5], False, 3, [2, 3, 4, 5]),
         ([2, 3, 4, 5], -2, [4, 5], True, 3, [2, 3, 4, 5]),
         ([2, 3, 4, 5], 2, [1, 5], True, 2, [2, 3, 4, 5]),
         ([6, 8], 0, [6, 8], True, 3, [6, 8]),
         (["N", "L", 16], -1, [16], True, 3, [3, 5, 16])]


@pytest.mark.parametrize("xshape,axis,sshape,bias,outs,real", CASES)
def test_layer_norm_numerics(xshape, axis, sshape, bias, outs, real):
    m = _model(xshape, axis, sshape, bias, outs)
    # a large mean against the spread (the variance must not cancel)
    x = np.random.default_rng(0).standard_normal(real).astype(np.float32) * 3 + 10
    check(m, x, rtol=1e-4, atol=1e-4)
    got = strata.compile(m, cache=False)(x)
    for g, w in zip(got, expected(m, [x])):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_layer_norm_f16_stashed_in_f32():
    m = _model([2, 7, 16], -1, [16], True, 3, TP.FLOAT16)
    x = np.random.default_rng(0).standard_normal([2, 7, 16]).astype(np.float16)
    got = strata.compile(m, cache=False)(x)
    for g, w in zip(got, expected(m, [x])):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float32), w.astype(np.float32),
                                   rtol=1e-2, atol=1e-2)


def test_layer_norm_kept_whole_and_no_reshape():
    """onnx-decompose keeps it (it has a lowering), and the lowered IR reads the dynamic
    batch from X (tensor.dim) instead of computing it from a flattened element count."""
    from strata.compiler import build_pipeline
    from strata.frontends.onnx import import_model
    mod = import_model(_model(["N", 7, 32], -1, [32]))
    build_pipeline("onnx-decompose{keep-lowered=true},onnx-fold-constants,"
                   "onnx-shape-inference").run(mod)
    assert any(op.name == "onnx.LayerNormalization" for op in mod.walk())
    build_pipeline("convert-onnx-to-linalg,canonicalize").run(mod)
    names = {op.name for op in mod.walk()}
    # (the statistics get their unit dims back by expand_shape; nothing is flattened)
    assert "tensor.collapse_shape" not in names and "arith.floordivsi" not in names


def test_layer_norm_bad_attributes_are_located_errors():
    from strata.conversion.onnx_to_linalg import NotLowerable  # noqa: F401
    for m in (_model([2, 3], 2, [3]), _model([2, 3], -1, [3], stash=7)):
        with pytest.raises(Exception, match="LayerNormalization|axis|stash_type") as e:
            strata.compile(m, cache=False)
        assert "Traceback" not in str(e.value)
