"""ONNX broadcasting where the types leave dims dynamic (onnx-to-linalg, shape inference,
diagnostics): a `?` dim may be 1 at run time and stretch to the other operands' size,
or be that size; both must compute what onnxruntime computes. Also: a run-time error
names the ONNX node it comes from, and shape inference keeps the static 1 of the
attention-mask `Expand` that torch exports."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, I64, check, model, rand

import strata

onnx = pytest.importorskip("onnx")

from onnx import helper as h  # noqa: E402


# ------------------------------------------------------------------ elementwise

@pytest.mark.parametrize("xa,xb", [((1, 3), (2, 3)), ((2, 3), (1, 3)), ((2, 3), (2, 3)),
                                   ((1, 3), (1, 3)), ((0, 3), (1, 3)), ((1, 3), (0, 3))])
def test_add_of_two_dynamic_dims(xa, xb):
    m = model("Add", [("a", F, ["N", 3]), ("b", F, ["M", 3])], [("y", F, None)])
    check(m, rand(*xa), rand(*xb, seed=1))


@pytest.mark.parametrize("n", [1, 4])
def test_dynamic_dim_against_a_static_one(n):
    # The static 4 fixes the result's size; the `?` may still be 1 (ONNX allows it).
    m = model("Mul", [("a", F, ["N", 3]), ("b", F, [4, 3])], [("y", F, None)])
    check(m, rand(n, 3), rand(4, 3, seed=1))


def test_where_of_three_dynamic_operands_and_a_repeated_one():
    m = model("Where", [("c", onnx.TensorProto.BOOL, ["A", 1, "C"]), ("x", F, ["B", "D"]),
                        ("y", F, ["E", "G"])], [("z", F, None)])
    c = np.array([[[True, False, True]], [[False, True, True]]])
    check(m, c, rand(4, 1), rand(4, 3, seed=1))
    # the same value twice: both uses stretch together
    m = model("Sum", [("a", F, ["N", "M"]), ("b", F, ["P", "Q"])], [("y", F, None)])
    m.graph.node[0].input.append("a")
    check(m, rand(1, 3), rand(2, 1, seed=1))


def test_attention_mask_pattern():
    # scores [B, 12, S, S] + mask [B, ?, 1, S] where the mask's `?` is 1 at run time
    m = model("Add", [("s", F, ["B", 12, "S", "S"]), ("m", F, ["B", "H", 1, "S"])],
              [("y", F, None)])
    check(m, rand(2, 12, 5, 5), rand(2, 1, 1, 5, seed=1))


def test_static_operands_keep_static_maps():
    m = model("Add", [("a", F, [2, 3]), ("b", F, [1, 3])], [("y", F, None)])
    f = strata.compile(m, target="interpret")
    assert "scf.if" not in str(f.module)
    # one dynamic operand against static 1s sets the size: nothing to decide at run time
    m = model("Add", [("a", F, ["N", 3]), ("b", F, [1, 3])], [("y", F, None)])
    assert "scf.if" not in str(strata.compile(m, target="interpret").module)


# ------------------------------------------------------------------ Expand, MatMul, Einsum

@pytest.mark.parametrize("x,shape", [((1, 3), [4, 3]), ((4, 3), [4, 3]), ((4, 3), [1, 3]),
                                     ((1, 3), [2, 0, 3])])
def test_expand_of_dynamic_dims_to_run_time_shapes(x, shape):
    m = model("Expand", [("x", F, ["N", 3]), ("s", I64, [len(shape)])], [("y", F, None)])
    check(m, rand(*x), np.array(shape, np.int64))


@pytest.mark.parametrize("xa,xb", [((1, 5, 4), (3, 4, 2)), ((3, 5, 4), (1, 4, 2)),
                                   ((3, 5, 4), (3, 4, 2))])
def test_matmul_batch_dims_that_stretch_at_run_time(xa, xb):
    m = model("MatMul", [("a", F, ["B", 5, 4]), ("b", F, ["C", 4, 2])], [("y", F, None)])
    check(m, rand(*xa), rand(*xb, seed=1), rtol=1e-4)
    m = model("MatMul", [("a", F, ["B", 5, 4]), ("b", F, [3, 4, 2])], [("y", F, None)])
    check(m, rand(1, 5, 4), rand(3, 4, 2, seed=1), rtol=1e-4)


def test_einsum_ellipsis_dims_that_stretch_at_run_time():
    m = model("Einsum", [("a", F, ["B", 3, 4]), ("b", F, ["C", 4, 2])], [("y", F, None)],
              equation="...ij,...jk->...ik")
    check(m, rand(1, 3, 4), rand(5, 4, 2, seed=1), ref="ref", rtol=1e-4)


# ------------------------------------------------------------------ diagnostics

def test_run_time_errors_name_the_onnx_node(tmp_path):
    m = model("Add", [("a", F, ["N", 3]), ("b", F, [2, 3])], [("y", F, None)])
    m.graph.node[0].name = "my_add"
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    f = strata.compile(str(path), target="interpret")
    with pytest.raises(strata.StrataError) as e:
        f(rand(3, 3), rand(2, 3))
    assert str(e.value).startswith(f'{path}: at "my_add": error: ')


def test_whole_file_locations_render_their_names():
    from strata.ir.diagnostics import ERROR, Diagnostic
    from strata.ir.location import FileLineColLoc, FusedLoc, NameLoc
    whole = FileLineColLoc("m.onnx", 0, 0)
    fused = FusedLoc([NameLoc("n1"), NameLoc("n2"), whole])
    assert str(Diagnostic(ERROR, fused, "bad")) == 'm.onnx: at "n1", "n2": error: bad'
    # no name, or a real line: as mlir-opt renders them
    assert str(Diagnostic(ERROR, whole, "bad")) == "m.onnx:0:0: error: bad"
    at_line = FusedLoc([NameLoc("n1"), FileLineColLoc("a.mlir", 3, 4)])
    assert str(Diagnostic(ERROR, at_line, "bad")) == "a.mlir:3:4: error: bad"


# ------------------------------------------------------------------ shape inference

def test_shape_inference_follows_where_of_shape_values():
    # torch's export of `mask.expand(batch, -1, seq, seq)`: the -1 becomes 1 through
    # Where(Equal(shape, -1), ones, shape), so the Expand keeps the mask's static 1.
    nodes = [
        h.make_node("Shape", ["m"], ["sh"]),
        h.make_node("Gather", ["sh", "zero"], ["b"], axis=0),
        h.make_node("Unsqueeze", ["b", "zero1"], ["b1"]),
        h.make_node("Concat", ["b1", "minus1", "s2"], ["target"], axis=0),
        h.make_node("ConstantOfShape", ["four"], ["ones"],
                    value=onnx.numpy_helper.from_array(np.array([1], np.int64))),
        h.make_node("Mul", ["ones", "minus1"], ["neg"]),
        h.make_node("Equal", ["target", "neg"], ["is_neg"]),
        h.make_node("Where", ["is_neg", "ones", "target"], ["shape"]),
        h.make_node("Expand", ["m", "shape"], ["y"]),
    ]
    inits = [onnx.numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
             [("zero", 0), ("zero1", [0]), ("minus1", [-1]), ("s2", [5, 5]), ("four", [4])]]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("m", F, ["B", 1, 1, 5])],
                     [h.make_tensor_value_info("y", F, None)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    from strata.compiler import build_pipeline, load_module
    mod = load_module(m)
    build_pipeline(["onnx-fold-constants", "onnx-shape-inference"]).run(mod)
    assert "-> tensor<?x1x5x5xf32>" in str(mod)
    check(m, rand(2, 1, 1, 5))
