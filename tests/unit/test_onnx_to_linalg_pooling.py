"""convert-onnx-to-linalg, pooling family (MaxPool, AveragePool, LpPool, the global
pools, MaxUnpool, LRN): integer pools (unsigned max is no named op), Indices on every
rank with storage_order, ceil_mode and padding counts, dynamic sizes."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, F16, I64, I8, U8, check, ints, model, rand


@pytest.mark.parametrize("elt,dtype,shape,attrs", [
    (U8, np.uint8, [1, 2, 5, 5, 5], dict(kernel_shape=[2, 2, 2], strides=[2, 2, 2])),
    (U8, np.uint8, [1, 2, 6, 5], dict(kernel_shape=[2, 2], pads=[1, 1, 1, 1])),
    (I8, np.int8, [1, 2, 5, 5], dict(kernel_shape=[2, 2], pads=[1, 1, 1, 1])),
])
def test_max_pool_integers(elt, dtype, shape, attrs):
    lo, hi = (0, 256) if dtype == np.uint8 else (-128, 128)
    check(model("MaxPool", [("x", elt, shape)], [("y", elt, None)], **attrs),
          ints(*shape, lo=lo, hi=hi, dtype=dtype))


@pytest.mark.parametrize("shape,attrs", [
    ([2, 3, 5, 6], dict(kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 1],
                        storage_order=1)),
    ([1, 2, 4, 5, 6], dict(kernel_shape=[2, 2, 3], strides=[2, 2, 2],
                           pads=[0, 1, 1, 0, 0, 1])),
    ([1, 2, 8], dict(kernel_shape=[3], strides=[2], ceil_mode=1)),
    ([1, 1, 6, 6], dict(kernel_shape=[2, 2], dilations=[2, 2])),
])
def test_max_pool_indices(shape, attrs):
    check(model("MaxPool", [("x", F, shape)], [("y", F, None), ("i", I64, None)], **attrs),
          rand(*shape))


@pytest.mark.parametrize("attrs", [
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
    dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
    dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
])
def test_max_pool_dynamic(attrs):
    m = model("MaxPool", [("x", F, ["N", "C", "H", "W"])], [("y", F, None)], **attrs)
    check(m, rand(2, 3, 9, 8))
    check(m, rand(1, 2, 10, 7))


@pytest.mark.parametrize("shape,attrs", [
    (["N", "C", "H", "W"], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
    ([1, 2, 9, 8], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 0, 1, 1],
                        ceil_mode=1, count_include_pad=1)),
    ([1, 2, 10], dict(kernel_shape=[3], strides=[2], dilations=[2], pads=[1, 2],
                      ceil_mode=1)),
    ([1, 2, 9, 8], dict(kernel_shape=[2, 3], auto_pad="SAME_LOWER")),
])
def test_average_pool(shape, attrs):
    m = model("AveragePool", [("x", F, shape)], [("y", F, None)], **attrs)
    check(m, rand(*[d if isinstance(d, int) else n for d, n in zip(shape, (2, 3, 9, 8))]))


def test_average_pool_f16():
    check(model("AveragePool", [("x", F16, [1, 2, 9, 8])], [("y", F16, None)],
                kernel_shape=[3, 3]), rand(1, 2, 9, 8).astype(np.float16), rtol=1e-2,
          atol=1e-2)


@pytest.mark.parametrize("p,attrs", [(3, dict(strides=[2, 2], pads=[0, 1, 1, 0])), (1, {})])
def test_lp_pool(p, attrs):
    check(model("LpPool", [("x", F, [1, 2, 6, 7])], [("y", F, None)], kernel_shape=[2, 3],
                p=p, **attrs), rand(1, 2, 6, 7), rtol=1e-4)


def test_global_pools():
    check(model("GlobalLpPool", [("x", F, [2, 3, 4, 5])], [("y", F, None)], p=3),
          rand(2, 3, 4, 5), rtol=1e-4)
    check(model("GlobalAveragePool", [("x", F, ["N", "C", "H", "W"])], [("y", F, None)]),
          rand(2, 3, 4, 5))
    check(model("GlobalMaxPool", [("x", F, [2, 3, 4, 5, 2])], [("y", F, None)]),
          rand(2, 3, 4, 5, 2))


def _lrn(x, size, alpha, beta, bias):
    sq = np.zeros_like(x)
    c = x.shape[1]
    for i in range(c):
        lo, hi = max(0, i - (size - 1) // 2), min(c, i + (size - 1) - (size - 1) // 2 + 1)
        sq[:, i] = (x[:, lo:hi] ** 2).sum(axis=1)
    return x / (bias + alpha / size * sq) ** beta


def test_lrn_even_size_and_dynamic():
    x = rand(2, 6, 3, 3)
    m = model("LRN", [("x", F, [2, 6, 3, 3])], [("y", F, None)], size=4, alpha=0.01,
              beta=0.6, bias=1.5)
    check(m, x, want=[_lrn(x, 4, 0.01, 0.6, 1.5)], rtol=1e-4)
    check(model("LRN", [("x", F, ["N", "C", "H", "W"])], [("y", F, None)], size=3), x,
          rtol=1e-4)


def test_max_unpool_with_pads_and_output_shape():
    x, i = rand(1, 1, 2, 2), np.array([[[[0, 3], [10, 15]]]], np.int64)
    check(model("MaxUnpool", [("x", F, [1, 1, 2, 2]), ("i", I64, [1, 1, 2, 2])],
                [("y", F, None)], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 0, 0]),
          x, i)
    check(model("MaxUnpool", [("x", F, [1, 1, 2, 2]), ("i", I64, [1, 1, 2, 2]),
                              ("s", I64, [4])], [("y", F, None)], kernel_shape=[2, 2],
                strides=[2, 2]), x, i, np.array([1, 1, 5, 6], np.int64), ref="ref")
