"""onnx-shape-inference: results whose every element is known become constants
([Note: known values become constants]), and the module still computes the same."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")

from strata.testing import check_pass_preserves_semantics  # noqa: E402

# GPT-2's attention reshape as the exporter writes it: batch and sequence dynamic, the
# head split read from the static hidden dim.
CHAIN = """
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @main(%x: tensor<?x?x12xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<?x?x12xf32>) -> tensor<*xi64>
  %c0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %c1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %c2 = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %b = "onnx.Gather"(%s, %c0) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %q = "onnx.Gather"(%s, %c1) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %h = "onnx.Gather"(%s, %c2) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %three = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %d = "onnx.Div"(%h, %three) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ub = "onnx.Unsqueeze"(%b, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %uq = "onnx.Unsqueeze"(%q, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %ud = "onnx.Unsqueeze"(%d, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %heads = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %t = "onnx.Concat"(%ub, %uq, %heads, %ud) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<*xi64>, tensor<1xi64>, tensor<*xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %t) : (tensor<?x?x12xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
}
"""


def _run(text, pipeline):
    from strata.compiler import build_pipeline
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    m = parse_source(text, default_context(), "<test>")
    build_pipeline(pipeline).run(m)
    m.verify()
    return m


def test_known_shape_arithmetic_becomes_constants():
    m = _run(CHAIN, "onnx-shape-inference")
    names = [op.name for op in m.walk() if op.name.startswith("onnx.")]
    # the head size (12 / 3) is known: its Gather, Div and Unsqueeze are gone; the
    # batch and sequence Gathers stay
    assert names.count("onnx.Gather") == 2
    assert "onnx.Div" not in names
    assert names.count("onnx.Unsqueeze") == 2
    four = [op for op in m.walk() if op.name == "onnx.Constant" and
            op.properties["value"].array.tolist() == [4]]
    assert len(four) == 1 and str(four[0].results[0].type) == "tensor<1xi64>"
    kept = _run(CHAIN, "onnx-shape-inference{fold-known=false}")
    assert sum(op.name == "onnx.Gather" for op in kept.walk()) == 3
    for shape in ((2, 5, 12), (1, 1, 12)):
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        (before, after), = check_pass_preserves_semantics(
            CHAIN, "onnx-shape-inference", inputs=[x]).values()
        assert after[0].shape == shape[:2] + (3, 4)
