"""Out-of-range indices of the index-taking ONNX ops are a clear run-time error on every
target (see [Note: index checks] in strata/conversion/onnx_to_linalg/_index_check.py):
compiled CPU code raises strata.runtime.RuntimeFailure naming the op instead of reading
or writing out of bounds, the interpreter raises the same message; in-range indices
(negative ones too) still give onnxruntime's result."""
from __future__ import annotations

import re

import numpy as np
import pytest
from onnx_node_models import (CHECK_TARGETS, F, I32, I64, bad, c_example, compiled,
                              expected, model, named, rand)

import strata  # noqa: E402

pytest.importorskip("llvmlite")

TARGETS = CHECK_TARGETS


def good(key, make, target, *args, want=None):
    m, f = compiled(key, make, target)
    got = f(*args)
    want = expected(m, args) if want is None else want
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------ gathers


def _gather():
    return named("Gather", [("x", F, [5, 3]), ("i", I64, [2, 2])], [("y", F, None)], axis=0)


def _gather_dyn():
    return named("Gather", [("x", F, [3, "N"]), ("i", I32, ["K"])], [("y", F, None)], axis=1)


@pytest.mark.parametrize("target", TARGETS)
def test_gather(target):
    x = rand(5, 3)
    good("g", _gather, target, x, np.array([[0, -1], [4, -5]], np.int64))
    msg = re.escape("Gather at node0: index out of range [-5, 5) on data axis 0")
    for i in ([[0, 5], [1, 2]], [[-6, 0], [1, 2]], [[2**40, 0], [1, 2]]):
        bad("g", _gather, target, msg, x, np.array(i, np.int64))
    good("g", _gather, target, x, np.array([[3, 2], [1, 0]], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_gather_dynamic_axis(target):
    """A run-time axis size, also 0 (any index is then out of range, and nothing is
    read from the empty data)."""
    good("gd", _gather_dyn, target, rand(3, 4), np.array([3, -4, 0], np.int32))
    good("gd", _gather_dyn, target, rand(3, 0), np.zeros(0, np.int32),
         want=[np.zeros((3, 0), np.float32)])
    msg = r"Gather at node0: index out of range \[-n, n\) on data axis 1 \(of run-time"
    bad("gd", _gather_dyn, target, msg, rand(3, 4), np.array([1, 4], np.int32))
    bad("gd", _gather_dyn, target, msg, rand(3, 0), np.array([0], np.int32))


def _gather_elements():
    return named("GatherElements", [("x", F, ["A", "B"]), ("i", I64, ["C", "D"])],
                 [("y", F, None)], axis=1)


@pytest.mark.parametrize("target", TARGETS)
def test_gather_elements(target):
    x = rand(3, 4)
    good("ge", _gather_elements, target, x, np.array([[0, -1], [3, 1], [-4, 2]], np.int64))
    bad("ge", _gather_elements, target,
        r"GatherElements at node0: index out of range \[-n, n\) on data axis 1", x,
        np.array([[0, -1], [4, 1], [-4, 2]], np.int64))
    # indices taller than the data along the other axis (a shape error)
    bad("ge", _gather_elements, target,
        re.escape("GatherElements at node0: indices dim 0 must be <= data dim 0"), x,
        np.zeros((4, 2), np.int64))


def _gather_nd():
    return named("GatherND", [("x", F, [2, 3, 4]), ("i", I64, [2, 1, 1])], [("y", F, None)],
                 batch_dims=1)


def _gather_nd2():
    return named("GatherND", [("x", F, [2, 3, 4]), ("i", I64, [3, 2])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_gather_nd(target):
    x = rand(2, 3, 4)
    good("gn", _gather_nd, target, x, np.array([[[2]], [[-3]]], np.int64))
    bad("gn", _gather_nd, target, re.escape(
        "GatherND at node0: index out of range [-3, 3) on data axis 1 (indices[..., 0])"),
        x, np.array([[[2]], [[3]]], np.int64))
    good("gn2", _gather_nd2, target, x, np.array([[1, 2], [-2, -3], [0, 0]], np.int64))
    msg = re.escape("GatherND at node0: index out of range [-3, 3) on data axis 1 "
                    "(indices[..., 1])")
    bad("gn2", _gather_nd2, target, msg, x, np.array([[1, 2], [1, -4], [0, 0]], np.int64))
    bad("gn2", _gather_nd2, target, r"data axis 0 \(indices\[\.\.\., 0\]\)", x,
        np.array([[1, 2], [2, 0], [0, 0]], np.int64))


# ------------------------------------------------------------------ scatters


def _scatter_elements():
    return named("ScatterElements", [("x", F, [3, "N"]), ("i", I64, [2, "M"]),
                                     ("u", F, [2, "Q"])], [("y", F, None)], axis=1,
                 reduction="add")


def _scatter_nd():
    return named("ScatterND", [("x", F, [4, 3]), ("i", I64, [2, 1]), ("u", F, [2, 3])],
                 [("y", F, None)])


def _scatter_nd_point():
    return named("ScatterND", [("x", F, [4, 3]), ("i", I64, [2]), ("u", F, [])],
                 [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_scatter_elements(target):
    x, u = rand(3, 4), rand(2, 2, seed=1)
    good("se", _scatter_elements, target, x, np.array([[0, -1], [3, 3]], np.int64), u)
    x0 = x.copy()
    bad("se", _scatter_elements, target,
        r"ScatterElements at node0: index out of range \[-n, n\) on data axis 1", x,
        np.array([[0, -1], [3, -5]], np.int64), u)
    np.testing.assert_array_equal(x, x0)        # the input is untouched
    bad("se", _scatter_elements, target,
        re.escape("ScatterElements at node0: updates dim 1 must equal indices dim 1"),
        x, np.array([[0, 1], [3, 3]], np.int64), rand(2, 3))


@pytest.mark.parametrize("target", TARGETS)
def test_scatter_nd(target):
    x, u = rand(4, 3), rand(2, 3, seed=1)
    good("sn", _scatter_nd, target, x, np.array([[1], [-1]], np.int64), u)
    msg = re.escape("ScatterND at node0: index out of range [-4, 4) on data axis 0 "
                    "(indices[..., 0])")
    bad("sn", _scatter_nd, target, msg, x, np.array([[1], [4]], np.int64), u)
    good("snp", _scatter_nd_point, target, x, np.array([-1, 2], np.int64),
         np.array(7, np.float32))
    bad("snp", _scatter_nd_point, target, r"on data axis 1 \(indices\[\.\.\., 1\]\)", x,
        np.array([0, 3], np.int64), np.array(7, np.float32))


def test_scatter_opset_10():
    m = model("Scatter", [("x", F, [3, 3]), ("i", I64, [1, 2]), ("u", F, [1, 2])],
              [("y", F, None)], opset=10, axis=1)
    f = strata.compile(m)
    x, u = rand(3, 3), rand(1, 2)
    np.testing.assert_allclose(f(x, np.array([[2, -3]], np.int64), u)[0],
                               expected(m, [x, np.array([[2, -3]], np.int64), u])[0])
    with pytest.raises(strata.runtime.RuntimeFailure, match="Scatter at y: index out"):
        f(x, np.array([[3, 0]], np.int64), u)


def test_constant_indices_checked_at_compile_time():
    """In-range constant indices need no check; out-of-range ones fail every run."""
    from strata.compiler import build_pipeline, load_module
    from strata.compiler import get_target
    for idx, asserts in ((np.array([[2, 0], [1, -3]], np.int64), 0),
                         (np.array([[2, 0], [1, 3]], np.int64), 1)):
        m = load_module(named("GatherElements", [("x", F, [3, 3]), ("i", idx)],
                              [("y", F, None)]))
        build_pipeline(get_target("interpret").pipeline).run(m)
        text = str(m)
        assert text.count("cf.assert") == asserts, text
        if asserts:
            assert "cf.assert %false" in text


# ------------------------------------------------------------------ shared library


def test_shared_library_reports_bad_index(tmp_path):
    """`strata compile m.onnx -o m.so`: the C caller gets the message through
    strata_last_error() (examples/c/run_model.c exits 1 with it)."""
    from onnx import TensorProto, helper, numpy_helper

    # y[b, f] = table[int(4 * x[b, f])]; the example's inputs are (i % 7) / 4 - 0.5, so
    # the indices run -2..4: 4 is out of range once batch * features >= 7
    nodes = [helper.make_node("Mul", ["input", "four"], ["s"]),
             helper.make_node("Cast", ["s"], ["i"], to=TensorProto.INT64),
             helper.make_node("Gather", ["table", "i"], ["y"], name="lookup")]
    inits = [numpy_helper.from_array(np.array(4, np.float32), "four"),
             numpy_helper.from_array(np.array([10, 11, 12, 13], np.float32), "table")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("input", F, ["B", 4])],
                          [helper.make_tensor_value_info("y", F, ["B", 4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    run = c_example(tmp_path, m)
    ok = run(1, 4)
    assert ok.returncode == 0 and ok.stdout.split("\n")[1] == "12 13 10 11", ok
    bad_run = run(2, 4)
    assert bad_run.returncode == 1
    assert "Gather at lookup: index out of range [-4, 4) on data axis 0" in bad_run.stderr


# ------------------------------------------------------------------ other index-taking ops


def _max_unpool():
    return named("MaxUnpool", [("x", F, [1, 1, 2, 2]), ("i", I64, [1, 1, 2, 2])],
                 [("y", F, None)], kernel_shape=[2, 2], strides=[2, 2])


def _reverse_sequence():
    return named("ReverseSequence", [("x", F, ["T", 2, 3]), ("l", I64, [2])],
                 [("y", F, None)], batch_axis=1, time_axis=0)


def _rnn():
    return named("RNN", [("x", F, [3, 2, 2]), ("w", rand(1, 4, 2)), ("r", rand(1, 4, 4)),
                         None, ("l", I32, [2])], [("y", F, None)], hidden_size=4,
                 direction="reverse")


def _roi_align():
    return named("RoiAlign", [("x", F, ["N", 1, 4, 4]), ("rois", F, [2, 4]),
                              ("b", I64, [2])], [("y", F, None)], output_height=2,
                 output_width=2, sampling_ratio=2)


def _array_feature_extractor():
    from onnx import helper
    node = helper.make_node("ArrayFeatureExtractor", ["x", "i"], ["y"], domain="ai.onnx.ml",
                            name="node0")
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", F, [2, "C"]),
                                        helper.make_tensor_value_info("i", I64, [3])],
                          [helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                               helper.make_opsetid("ai.onnx.ml", 3)],
                             ir_version=8)


@pytest.mark.parametrize("target", TARGETS)
def test_max_unpool(target):
    x = rand(1, 1, 2, 2)
    good("mu", _max_unpool, target, x, np.array([[[[0, 3], [9, 15]]]], np.int64))
    bad("mu", _max_unpool, target, re.escape(
        "MaxUnpool at node0: index out of range [0, 16) (flat positions of the output)"),
        x, np.array([[[[0, 3], [9, 16]]]], np.int64))


@pytest.mark.parametrize("target", TARGETS)
def test_reverse_sequence(target):
    x = rand(4, 2, 3)
    good("rs", _reverse_sequence, target, x, np.array([4, 2], np.int64))
    msg = re.escape("ReverseSequence at node0: sequence length out of range [0, T]")
    bad("rs", _reverse_sequence, target, msg, x, np.array([5, 2], np.int64))
    bad("rs", _reverse_sequence, target, msg, x, np.array([1, -1], np.int64))


def test_rnn_sequence_lengths():
    x = rand(3, 2, 2)
    good("rnn", _rnn, "cpu", x, np.array([3, 1], np.int32))
    bad("rnn", _rnn, "cpu", re.escape("RNN at node0: sequence length out of range [0, 3]"),
        x, np.array([4, 1], np.int32))


@pytest.mark.parametrize("target", TARGETS)
def test_roi_align(target):
    x = rand(2, 1, 4, 4)
    rois = np.array([[0, 0, 3, 3], [1, 0.5, 2, 3.5]], np.float32)
    good("ra", _roi_align, target, x, rois, np.array([1, 0], np.int64))
    bad("ra", _roi_align, target,
        re.escape("RoiAlign at node0: batch index out of range [0, N)"), x, rois,
        np.array([2, 0], np.int64))
    # coordinates that are not numbers or beyond the image are read at its border
    huge = np.array([[np.nan, 0, 1e30, 3], [-1e30, np.inf, 2, -np.inf]], np.float32)
    y = compiled("ra", _roi_align, target)[1](x, huge, np.array([1, 0], np.int64))[0]
    assert y.shape == (2, 1, 2, 2)


@pytest.mark.parametrize("target", TARGETS)
def test_array_feature_extractor(target):
    x = rand(2, 4)
    good("afe", _array_feature_extractor, target, x, np.array([3, 0, 3], np.int64),
         want=[x[:, [3, 0, 3]]])
    bad("afe", _array_feature_extractor, target, re.escape(
        "ArrayFeatureExtractor at node0: index out of range [0, n) on the last axis of X"),
        x, np.array([0, 4, 1], np.int64))


def test_lowering_preserves_semantics():
    """The checked lowerings compute what the onnx ops compute (the interpreter runs
    both levels), dynamic dims included."""
    from strata.compiler import build_pipeline, load_module
    from strata.testing import check_pass_preserves_semantics
    cases = [(_gather_elements, [rand(3, 4), np.array([[0, -1], [3, 1], [2, -4]],
                                                      np.int64)]),
             (_scatter_elements, [rand(3, 4), np.array([[0, -1], [3, 3]], np.int64),
                                  rand(2, 2)]),
             (_gather_dyn, [rand(3, 4), np.array([3, -4, 0], np.int32)])]
    for make, args in cases:
        m = load_module(make())
        build_pipeline(["onnx-shape-inference"]).run(m)
        check_pass_preserves_semantics(m, "convert-onnx-to-linalg", inputs=args)


def _gather_flat():
    return named("Gather", [("x", F, [7]), ("i", I64, ["N"])], [("y", F, None)])


@pytest.mark.parametrize("target", TARGETS)
def test_every_part_of_the_index_reduction(target):
    """The indices are reduced in blocks, rows of lanes and a rest (see _min_max): a bad
    index is found in each part."""
    x = rand(7)
    n = 4096 * 3 + 16 * 5 + 7
    i = np.random.default_rng(0).integers(-7, 7, n).astype(np.int64)
    good("gf", _gather_flat, target, x, i, want=[x[i]])
    for at, v in ((0, 7), (4096 * 2 + 1000, -8), (4096 * 3 + 33, 100), (n - 1, -9)):
        j = i.copy()
        j[at] = v
        bad("gf", _gather_flat, target, re.escape(
            "Gather at node0: index out of range [-7, 7) on data axis 0"), x, j)
