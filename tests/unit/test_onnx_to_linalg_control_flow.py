"""convert-onnx-to-linalg, control flow and sequences: If, Loop (trip count, condition,
both; scan outputs), Scan (axes, directions, opset 8 batches), static sequences and
optionals, against onnxruntime; what is not lowered says why; the lowering checked by
execution against the onnx-level interpreter."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import expected

import strata

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as TP  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx.numpy_helper import from_array  # noqa: E402

F, I64, B = TP.FLOAT, TP.INT64, TP.BOOL


def vi(name, t, shape):
    return h.make_tensor_value_info(name, t, shape)


def seq(name, t=F):
    return h.make_tensor_sequence_value_info(name, t, None)


def graph_model(nodes, inputs, outputs, inits=(), opset=19):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


def _same(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def check(m, *args):
    got = strata.compile(m, target="interpret")(*args)
    want = expected(m, list(args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _same(g, w)
    return got


X3 = np.arange(3, dtype=np.float32)


# ------------------------------------------------------------------ If


def test_if_branches_of_different_static_shapes():
    then = h.make_graph([h.make_node("Add", ["x", "x"], ["t"])], "then", [], [vi("t", F, [3])])
    els = h.make_graph([h.make_node("Constant", [], ["e"], value=h.make_tensor(
        "v", F, [2], [7, 8]))], "else", [], [vi("e", F, [2])])
    m = graph_model([h.make_node("If", ["c"], ["y"], then_branch=then, else_branch=els)],
                    [vi("c", B, []), vi("x", F, [3])], [vi("y", F, [None])])
    assert check(m, np.array(True), X3)[0].shape == (3,)
    assert check(m, np.array(False), X3)[0].shape == (2,)


def test_nested_if_using_outer_values():
    inner_t = h.make_graph([h.make_node("Mul", ["x", "x"], ["a"])], "it", [], [vi("a", F, [3])])
    inner_e = h.make_graph([h.make_node("Neg", ["x"], ["b"])], "ie", [], [vi("b", F, [3])])
    then = h.make_graph([h.make_node("If", ["d"], ["t"], then_branch=inner_t,
                                     else_branch=inner_e)], "then", [], [vi("t", F, [3])])
    els = h.make_graph([h.make_node("Identity", ["x"], ["e"])], "else", [], [vi("e", F, [3])])
    m = graph_model([h.make_node("If", ["c"], ["y"], then_branch=then, else_branch=els)],
                    [vi("c", B, []), vi("d", B, []), vi("x", F, [3])], [vi("y", F, [3])])
    for c in (True, False):
        for d in (True, False):
            check(m, np.array(c), np.array(d), X3 + 1)


def test_if_with_sequence_results():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    then = h.make_graph([h.make_node("SequenceConstruct", ["x", "x"], ["t"])], "then", [],
                        [seq("t")])
    els = h.make_graph([h.make_node("SplitToSequence", ["x"], ["e"], axis=0)], "else", [],
                       [seq("e")])
    m = graph_model([h.make_node("If", ["c"], ["s"], then_branch=then, else_branch=els),
                     h.make_node("ConcatFromSequence", ["s"], ["y"], axis=0)],
                    [vi("c", B, []), vi("x", F, [2, 3])], [vi("y", F, None), seq("s")])
    check(m, np.array(True), x)
    check(m, np.array(False), x)


# ------------------------------------------------------------------ Loop


def _counting_body():
    """v += 1; continue while v < lim; scan out v."""
    return h.make_graph(
        [h.make_node("Add", ["v", "one"], ["v2"]), h.make_node("Less", ["v2", "lim"], ["co"]),
         h.make_node("Identity", ["v2"], ["s"])], "body",
        [vi("i", I64, []), vi("ci", B, []), vi("v", F, [])],
        [vi("co", B, []), vi("v2", F, []), vi("s", F, [])])


ONE = from_array(np.array(1, np.float32), "one")
F0, LIM = np.array(0, np.float32), np.array(5.5, np.float32)


def test_loop_trip_count():
    body = h.make_graph(
        [h.make_node("Add", ["v", "x"], ["v2"]), h.make_node("Cast", ["i"], ["fi"], to=F),
         h.make_node("Mul", ["v2", "fi"], ["s"]), h.make_node("Identity", ["ci"], ["co"])],
        "body", [vi("i", I64, []), vi("ci", B, []), vi("v", F, [3])],
        [vi("co", B, []), vi("v2", F, [3]), vi("s", F, [3])])
    m = graph_model([h.make_node("Loop", ["M", "", "v0"], ["vf", "ss"], body=body)],
                    [vi("M", I64, []), vi("v0", F, [3]), vi("x", F, [3])],
                    [vi("vf", F, [3]), vi("ss", F, [None, 3])])
    check(m, np.array(4), X3, X3)
    got = check(m, np.array(0), X3, X3)
    assert got[1].shape == (0, 3)


@pytest.mark.parametrize("start", [True, False])
def test_loop_condition_only_grows_scan_buffers(start):
    m = graph_model([h.make_node("Loop", ["", "c", "v0"], ["vf", "ss"], body=_counting_body())],
                    [vi("c", B, []), vi("v0", F, []), vi("lim", F, [])],
                    [vi("vf", F, []), vi("ss", F, [None])], inits=[ONE])
    got = check(m, np.array(start), F0, LIM)
    assert got[1].shape == ((6,) if start else (0,))


@pytest.mark.parametrize("trips", [3, 30])
@pytest.mark.parametrize("constant", [True, False])
def test_loop_trip_count_and_condition(trips, constant):
    """Ends by the trip count (3) or by the condition (after 6); a constant trip count
    gets a preallocated buffer, a run-time one a growing buffer."""
    ins = [vi("c", B, []), vi("v0", F, []), vi("lim", F, [])]
    inits = [ONE]
    if constant:
        inits.append(from_array(np.array(trips, np.int64), "M"))
    else:
        ins.insert(0, vi("M", I64, []))
    m = graph_model([h.make_node("Loop", ["M", "c", "v0"], ["vf", "ss"], body=_counting_body())],
                    ins, [vi("vf", F, []), vi("ss", F, [None])], inits=inits)
    args = [np.array(True), F0, LIM]
    if not constant:
        args.insert(0, np.array(trips))
    got = check(m, *args)
    assert got[1].shape == (min(trips, 6),)


def test_loop_ir_is_scf():
    from strata.compiler import build_pipeline, load_module
    from strata.syntax.printer import print_op
    m = graph_model([h.make_node("Loop", ["M", "c", "v0"], ["vf", "ss"], body=_counting_body())],
                    [vi("M", I64, []), vi("c", B, []), vi("v0", F, []), vi("lim", F, [])],
                    [vi("vf", F, []), vi("ss", F, [None])], inits=[ONE])
    mod = load_module(m)
    build_pipeline(["onnx-shape-inference", "convert-onnx-to-linalg", "canonicalize"]).run(mod)
    text = print_op(mod)
    assert "scf.while" in text and "scf.execute_region" not in text and "onnx." not in \
        text.replace("onnx.name", "").replace("onnx.opset_import", "").replace(
            "onnx.graph_name", "").replace("onnx.ir_version", "")


# ------------------------------------------------------------------ Scan


def _scan_model(dims, opset=16):
    body = h.make_graph(
        [h.make_node("Add", ["st", "a"], ["st2"]), h.make_node("Mul", ["a", "b"], ["o1"]),
         h.make_node("Identity", ["st2"], ["o2"])], "body",
        [vi("st", F, [3]), vi("a", F, [3]), vi("b", F, [3])],
        [vi("st2", F, [3]), vi("o1", F, [3]), vi("o2", F, [3])])
    node = h.make_node("Scan", ["s0", "A", "Bx"], ["sf", "O1", "O2"], body=body,
                       num_scan_inputs=2, scan_input_axes=[1, 0], scan_input_directions=[1, 0],
                       scan_output_axes=[1, -1], scan_output_directions=[1, 0])
    return graph_model([node], [vi("s0", F, [3]), vi("A", F, [3, dims]),
                                vi("Bx", F, [dims, 3])],
                       [vi("sf", F, [3]), vi("O1", F, None), vi("O2", F, None)], opset=opset)


@pytest.mark.parametrize("dims", [4, "T"])
def test_scan_axes_and_directions(dims):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.arange(12, dtype=np.float32).reshape(4, 3) * 0.5
    check(_scan_model(dims), np.ones(3, np.float32), a, b)


def test_scan_opset8_batches():
    body = h.make_graph([h.make_node("Add", ["st", "a"], ["st2"]),
                         h.make_node("Mul", ["st2", "a"], ["o"])], "body",
                        [vi("st", F, [2]), vi("a", F, [2])], [vi("st2", F, [2]), vi("o", F, [2])])
    node = h.make_node("Scan", ["", "s0", "x"], ["sf", "ys"], body=body, num_scan_inputs=1,
                       directions=[1])
    m = graph_model([node], [vi("s0", F, [3, 2]), vi("x", F, [3, 4, 2])],
                    [vi("sf", F, [3, 2]), vi("ys", F, [3, 4, 2])], opset=8)
    x = np.arange(24, dtype=np.float32).reshape(3, 4, 2) / 10
    s0 = np.arange(6, dtype=np.float32).reshape(3, 2)
    st, ys = s0.copy(), np.zeros_like(x)
    for it, t in enumerate(reversed(range(4))):  # onnxruntime lacks opset 8 Scan
        st = st + x[:, t]
        ys[:, it] = st * x[:, t]  # outputs in iteration order
    got = strata.compile(m, target="interpret")(s0, x)
    np.testing.assert_allclose(got[0], st, rtol=1e-6)
    np.testing.assert_allclose(got[1], ys, rtol=1e-6)


# ------------------------------------------------------------------ sequences


def _ints(name, v):
    return from_array(np.array(v, np.int64), name)


def test_sequence_ops():
    nodes = [h.make_node("SequenceConstruct", ["x", "x"], ["s0"]),
             h.make_node("Unsqueeze", ["y", "zero1"], ["y2"]),
             h.make_node("SequenceInsert", ["s0", "y2", "p0"], ["s1"]),
             h.make_node("SequenceErase", ["s1"], ["s2"]),
             h.make_node("SequenceAt", ["s2", "pm1"], ["a"]),
             h.make_node("SequenceLength", ["s2"], ["n"]),
             h.make_node("ConcatFromSequence", ["s2"], ["c0"], axis=0),
             h.make_node("ConcatFromSequence", ["s0"], ["c1"], axis=-1, new_axis=1),
             h.make_node("SequenceAt", ["s2", "k"], ["b"])]
    m = graph_model(nodes, [vi("x", F, [2, 3]), vi("y", F, [3]), vi("k", I64, [])],
                    [vi("a", F, None), vi("n", I64, []), vi("c0", F, None), vi("c1", F, None),
                     seq("s2"), vi("b", F, None)],
                    inits=[_ints("p0", 0), _ints("pm1", -1), _ints("zero1", [0])])
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for k in (0, 1, -2):  # a run-time position: scf.index_switch
        check(m, x, X3 + 10, np.array(k))


def test_split_to_sequence():
    nodes = [h.make_node("SplitToSequence", ["x"], ["s"], axis=1, keepdims=0),
             h.make_node("SplitToSequence", ["x", "sp"], ["t"], axis=1),
             h.make_node("SplitToSequence", ["x", "two"], ["u"], axis=1),
             h.make_node("ConcatFromSequence", ["s"], ["c"], axis=0, new_axis=1)]
    m = graph_model(nodes, [vi("x", F, [2, 3])], [seq("s"), seq("t"), seq("u"), vi("c", F, None)],
                    inits=[_ints("sp", [1, 2]), _ints("two", 2)])
    check(m, np.arange(6, dtype=np.float32).reshape(2, 3))


def test_sequence_map_per_element_shapes():
    body = h.make_graph([h.make_node("Add", ["e", "z"], ["o"]),
                         h.make_node("Shape", ["e"], ["sh"])], "b",
                        [vi("e", F, None), vi("z", F, None)],
                        [vi("o", F, None), vi("sh", I64, [None])])
    nodes = [h.make_node("SequenceConstruct", ["x", "y"], ["s"]),
             h.make_node("SequenceMap", ["s", "y"], ["o", "sh"], body=body)]
    m = graph_model(nodes, [vi("x", F, [2, 3]), vi("y", F, [3])], [seq("o"), seq("sh", I64)])
    check(m, np.arange(6, dtype=np.float32).reshape(2, 3), X3)


def test_optionals():
    nodes = [h.make_node("Optional", ["x"], ["o"]),
             h.make_node("OptionalHasElement", ["o"], ["h"]),
             h.make_node("OptionalGetElement", ["o"], ["g"]),
             h.make_node("Optional", [], ["e"], type=h.make_tensor_type_proto(F, [2])),
             h.make_node("OptionalHasElement", ["e"], ["he"])]
    m = graph_model(nodes, [vi("x", F, [3])], [vi("h", B, []), vi("g", F, [3]), vi("he", B, [])],
                    opset=18)
    check(m, X3)


@pytest.mark.parametrize("op,why", [("SequenceLength", "no length known at compile time"),
                                    ("OptionalHasElement", "not known at compile time")])
def test_run_time_structures_are_not_lowered(op, why):
    tt = h.make_tensor_type_proto(F, [3])
    t = h.make_sequence_type_proto(tt) if op == "SequenceLength" else \
        h.make_optional_type_proto(tt)
    m = graph_model([h.make_node(op, ["s"], ["n"])], [h.make_value_info("s", t)],
                    [vi("n", I64 if op == "SequenceLength" else B, [])], opset=18)
    with pytest.raises(strata.StrataError) as e:
        strata.compile(m, target="interpret")
    notes = " ".join(n.message for n in e.value.diag.notes)
    assert f"failed to legalize operation 'onnx.{op}'" in str(e.value) and why in notes


# ------------------------------------------------------------------ by execution


HEAD = 'module attributes {onnx.opset_import = {ai.onnx = 19 : i64}} {\n'

LOOP = HEAD + '''func.func @main(%m: tensor<i64>, %v: tensor<2xf32>)
    -> (tensor<2xf32>, tensor<?x2xf32>) {
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %r:2 = "onnx.Loop"(%m, %t, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>):
    %f = "onnx.Cast"(%i) <{to = 1 : i64}> : (tensor<i64>) -> tensor<f32>
    %n = "onnx.Add"(%a, %f) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %s = "onnx.Sum"(%n, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %z = "onnx.Constant"() <{value = dense<1.0e+01> : tensor<f32>}> : () -> tensor<f32>
    %k = "onnx.ReduceSum"(%n) <{keepdims = 0 : i64}> : (tensor<2xf32>) -> tensor<f32>
    %go = "onnx.Less"(%k, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%go, %n, %s) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<?x2xf32>
}
}
'''

IF = HEAD + '''func.func @main(%c: tensor<1xi1>, %x: tensor<2x3xui8>) -> tensor<?x3xui8> {
  %r = "onnx.If"(%c) ({
    %y = "onnx.Div"(%x, %x) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    "onnx.Yield"(%y) : (tensor<2x3xui8>) -> ()
  }, {
    %y = "onnx.Concat"(%x, %x) <{axis = 0 : i64}>
      : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<4x3xui8>
    "onnx.Yield"(%y) : (tensor<4x3xui8>) -> ()
  }) : (tensor<1xi1>) -> tensor<?x3xui8>
  return %r : tensor<?x3xui8>
}
}
'''


@pytest.mark.parametrize("m", [0, 2, 9])
def test_loop_preserves_semantics(m):
    from strata.testing import check_pass_preserves_semantics
    check_pass_preserves_semantics(LOOP, "convert-onnx-to-linalg,canonicalize",
                                   inputs=[np.array(m), np.array([1, 2], np.float32)])


@pytest.mark.parametrize("c", [True, False])
def test_if_preserves_semantics(c):
    from strata.testing import check_pass_preserves_semantics
    x = np.array([[200, 3, 250], [1, 9, 128]], np.uint8)
    check_pass_preserves_semantics(IF, "convert-onnx-to-linalg",
                                   inputs=[np.array([c]), x])
