"""convert-onnx-to-linalg, selection family (TopK, Unique, NonMaxSuppression): NaN and
ties, every axis, run-time K and dynamic sizes, integer types, the old TopK forms,
Unique's four outputs in both orders, NMS limits and box formats, against onnxruntime
or ONNX's reference."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, I64, I8, U8, check, ints, model, rand

from strata.testing import check_pass_preserves_semantics


def k(v):
    return ("k", np.array([v], np.int64))


TOPK_OUT = [("v", F, None), ("i", I64, None)]


def test_top_k_nan_ties_and_axes():
    x = rand(3, 7, 4)
    x[0, 2, 1] = np.nan
    x[1, 3, 1] = x[1, 5, 1]
    check(model("TopK", [("x", F, [3, 7, 4]), k(3)], TOPK_OUT, axis=1), x, ref="reference")
    check(model("TopK", [("x", F, [3, 7, 4]), k(7)], TOPK_OUT, axis=1, largest=0, sorted=0),
          x, ref="reference")
    check(model("TopK", [("x", F, [3, 7, 4]), k(2)], TOPK_OUT, axis=0), x, ref="reference")


def test_top_k_run_time_k_and_dynamic():
    check(model("TopK", [("x", F, ["a", "b"]), ("k", I64, [1])], TOPK_OUT), rand(5, 9),
          np.array([4], np.int64), ref="reference")


def test_top_k_integers():
    check(model("TopK", [("x", I8, [4, 9]), k(5)], [("v", I8, None), ("i", I64, None)]),
          ints(4, 9, lo=-3, hi=3))
    check(model("TopK", [("x", U8, [4, 9]), k(5)], [("v", U8, None), ("i", I64, None)],
                largest=0), ints(4, 9, lo=0, hi=255, dtype=np.uint8))


def test_top_k_old_forms():
    check(model("TopK", [("x", F, [4, 9])], TOPK_OUT, opset=1, k=3), rand(4, 9))
    check(model("TopK", [("x", F, [4, 9]), k(3)], TOPK_OUT, opset=10, axis=0), rand(4, 9))
    check(model("TopK", [("x", F, [9]), k(0)], TOPK_OUT), rand(9), ref="reference")


UNIQUE_OUT = [("y", I8, None), ("i", I64, None), ("inv", I64, None), ("c", I64, None)]
X2 = ints(5, 3, lo=0, hi=3, dtype=np.int8)
X2[3] = X2[1]


@pytest.mark.parametrize("attrs", [{}, dict(axis=0, sorted=0), dict(axis=1),
                                   dict(axis=-1)])
def test_unique(attrs):
    check(model("Unique", [("x", I8, [5, 3])], UNIQUE_OUT, **attrs), X2, ref="reference")


def test_unique_flattened_first_occurrence_order():
    # (ONNX's reference gathers rows here instead of elements: compare with NumPy)
    y, idx, inv, cnt = np.unique(X2, return_index=True, return_inverse=True,
                                 return_counts=True)
    order = np.argsort(idx)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    want = [y[order], idx[order], rank[inv.reshape(-1)], cnt[order]]
    check(model("Unique", [("x", I8, [5, 3])], UNIQUE_OUT, sorted=0), X2, want=want)


def test_unique_3d_float_and_partial_outputs():
    x3 = ints(2, 6, 2, lo=0, hi=2, dtype=np.uint8)
    out = [("y", U8, None), ("i", I64, None), ("inv", I64, None), ("c", I64, None)]
    check(model("Unique", [("x", U8, [2, 6, 2])], out, axis=1), x3, ref="reference")
    check(model("Unique", [("x", U8, [2, 6, 2])], out, axis=2, sorted=0), x3,
          ref="reference")
    xf = np.array([2.0, -1.0, np.nan, 2.0, 0.0, -0.0, np.nan, 5.0], np.float32)
    check(model("Unique", [("x", F, [8])], [("y", F, None), ("i", I64, None),
                                            ("inv", I64, None), ("c", I64, None)]),
          xf, ref="reference")
    x1 = np.array([3., 1, 3, 2], np.float32)
    check(model("Unique", [("x", F, ["n"])], [("y", F, None)]), x1, ref="reference")
    check(model("Unique", [("x", F, [4])], [("y", F, None), ("i", I64, None)], sorted=0),
          x1, ref="reference")


RNG = np.random.default_rng(0)
XY = RNG.uniform(0, 10, (2, 30, 2)).astype(np.float32)
WH = RNG.uniform(1, 4, (2, 30, 2)).astype(np.float32)
SCORES = RNG.uniform(0, 1, (2, 3, 30)).astype(np.float32)


def nms(*limits, boxes=(F, [2, 30, 4]), scores=(F, [2, 3, 30]), **attrs):
    return model("NonMaxSuppression", [("b",) + boxes, ("s",) + scores] + list(limits),
                 [("y", I64, None)], **attrs)


def one(v, dtype):
    return np.array([v], dtype)


def test_nms():
    corners = np.concatenate([XY, XY + WH], -1)
    check(nms(("m", one(5, np.int64)), ("i", one(0.3, np.float32)),
              ("t", one(0.2, np.float32))), corners, SCORES)
    check(nms(("m", one(50, np.int64)), ("i", one(0.1, np.float32)), center_point_box=1),
          np.concatenate([XY, WH], -1), SCORES)
    check(nms(), corners, SCORES)  # no limit: nothing selected
    check(nms(("m", np.array(7, np.int64)), ("i", np.array(0.4, np.float32)), opset=10),
          corners, SCORES)


def test_nms_dynamic():
    m = nms(("m", I64, [1]), ("i", F, [1]), ("t", F, [1]), boxes=(F, ["B", "N", 4]),
            scores=(F, ["B", "C", "N"]))
    corners = np.concatenate([XY, XY + WH], -1)
    check(m, corners, SCORES, one(4, np.int64), one(0.5, np.float32), one(0.5, np.float32))
    check(m, corners, SCORES, one(0, np.int64), one(0.5, np.float32), one(0.5, np.float32))


TOPK_MLIR = """
func.func @main(%x: tensor<4x9xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
  %k = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %v, %i = "onnx.TopK"(%x, %k) <{largest = 0 : i64}>
      : (tensor<4x9xf32>, tensor<1xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  return %v, %i : tensor<4x3xf32>, tensor<4x3xi64>
}
"""


def test_top_k_preserves_semantics():
    check_pass_preserves_semantics(TOPK_MLIR, "convert-onnx-to-linalg,canonicalize")
