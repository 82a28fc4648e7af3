"""The interpreter at the onnx level: ops run through onnx.reference, graph regions
(If, Loop, Scan) through the interpreter, compared with onnx's ReferenceEvaluator."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as TP  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import strata  # noqa: E402
from strata.interpreter import InterpreterError  # noqa: E402

RNG = np.random.default_rng(0)


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    onnx.checker.check_model(m)
    return m


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def check(m, *args, rtol=1e-6, atol=1e-6):
    """The model at the onnx level (no lowering) agrees with onnx's evaluator."""
    feeds = {i.name: a for i, a in zip(m.graph.input, args)}
    expected = ReferenceEvaluator(m).run(None, feeds)
    got = strata.compile(m, target="interpret", pipeline="")(*args)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
    return got


def test_mlp_with_initializers():
    w = numpy_helper.from_array(RNG.standard_normal((4, 3)).astype(np.float32), "W")
    b = numpy_helper.from_array(RNG.standard_normal(3).astype(np.float32), "B")
    m = model([h.make_node("Gemm", ["X", "W", "B"], ["H"]),
               h.make_node("Relu", ["H"], ["R"]),
               h.make_node("Softmax", ["R"], ["Y"], axis=-1)],
              [vi("X", TP.FLOAT, ["N", 4])], [vi("Y", TP.FLOAT, ["N", 3])], [w, b])
    check(m, RNG.standard_normal((5, 4)).astype(np.float32))


def test_integer_and_bool_ops_keep_their_dtypes():
    m = model([h.make_node("Add", ["A", "B"], ["S"]),
               h.make_node("Greater", ["S", "A"], ["G"]),
               h.make_node("Cast", ["G"], ["C"], to=TP.UINT8)],
              [vi("A", TP.INT8, [4]), vi("B", TP.INT8, [4])],
              [vi("S", TP.INT8, [4]), vi("C", TP.UINT8, [4])])
    s, c = check(m, np.array([127, -5, 3, 0], np.int8), np.array([1, 2, -3, 0], np.int8))
    assert s[0] == -128 and c.dtype == np.uint8


def test_if_loop_scan_regions():
    then_g = h.make_graph([h.make_node("Relu", ["X"], ["t"])], "then", [],
                          [vi("t", TP.FLOAT, [2, 3])])
    else_g = h.make_graph([h.make_node("Neg", ["X"], ["e"])], "else", [],
                          [vi("e", TP.FLOAT, [2, 3])])
    body = h.make_graph(
        [h.make_node("Add", ["acc", "X"], ["acc2"]), h.make_node("Identity", ["c"], ["c2"]),
         h.make_node("ReduceSum", ["acc2"], ["s"], keepdims=0)], "body",
        [vi("i", TP.INT64, []), vi("c", TP.BOOL, []), vi("acc", TP.FLOAT, [2, 3])],
        [vi("c2", TP.BOOL, []), vi("acc2", TP.FLOAT, [2, 3]), vi("s", TP.FLOAT, [])])
    scan_body = h.make_graph(
        [h.make_node("Add", ["st", "row"], ["st2"]), h.make_node("Identity", ["st2"], ["out"])],
        "scan", [vi("st", TP.FLOAT, [3]), vi("row", TP.FLOAT, [3])],
        [vi("st2", TP.FLOAT, [3]), vi("out", TP.FLOAT, [3])])
    nodes = [
        h.make_node("Constant", [], ["three"], value=numpy_helper.from_array(np.array(3))),
        h.make_node("Constant", [], ["T"], value=numpy_helper.from_array(np.array(True))),
        h.make_node("If", ["C"], ["Z"], then_branch=then_g, else_branch=else_g),
        h.make_node("Loop", ["three", "T", "Z"], ["L", "Ls"], body=body),
        h.make_node("Scan", ["S0", "X"], ["Sf", "Sall"], body=scan_body, num_scan_inputs=1,
                    scan_input_directions=[1]),
    ]
    m = model(nodes, [vi("C", TP.BOOL, []), vi("X", TP.FLOAT, [2, 3]), vi("S0", TP.FLOAT, [3])],
              [vi("Z", TP.FLOAT, [2, 3]), vi("L", TP.FLOAT, [2, 3]), vi("Ls", TP.FLOAT, [3]),
               vi("Sf", TP.FLOAT, [3]), vi("Sall", TP.FLOAT, [2, 3])])
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    for c in (True, False):
        z, loop, sums, sf, sall = strata.compile(m, target="interpret", pipeline="")(np.array(c), x,
                                                                 np.zeros(3, np.float32))
        np.testing.assert_array_equal(z, np.maximum(x, 0) if c else -x)
        np.testing.assert_allclose(loop, z + 3 * x, rtol=1e-6)
        np.testing.assert_allclose(sums, [(z + k * x).sum() for k in (1, 2, 3)], rtol=1e-5)
        np.testing.assert_allclose(sall, [x[1], x[1] + x[0]], rtol=1e-6)
        np.testing.assert_allclose(sf, x.sum(0), rtol=1e-6)


def test_failing_op_is_reported_at_its_node():
    shape = numpy_helper.from_array(np.array([5], np.int64), "shape")
    m = model([h.make_node("Reshape", ["X", "shape"], ["Y"], name="my_reshape")],
              [vi("X", TP.FLOAT, [2, 3])], [vi("Y", TP.FLOAT, [5])], [shape])
    f = strata.compile(m, target="interpret", pipeline="")
    with pytest.raises(InterpreterError) as e:
        f(np.zeros((2, 3), np.float32))
    assert 'loc("my_reshape")' in str(e.value) and "'onnx.Reshape' op" in str(e.value)


def test_inputs_by_name_and_checks():
    m = model([h.make_node("Sub", ["A", "B"], ["Y"])],
              [vi("A", TP.FLOAT, [2]), vi("B", TP.FLOAT, [2])], [vi("Y", TP.FLOAT, [2])])
    f = strata.compile(m, target="interpret", pipeline="")
    assert f.input_names == ["A", "B"] and f.output_names == ["Y"]
    a, b = np.array([3, 4], np.float32), np.array([1, 1], np.float32)
    np.testing.assert_array_equal(f(B=b, A=a)[0], [2, 3])
    np.testing.assert_array_equal(f(a, B=b)[0], [2, 3])
    with pytest.raises(ValueError, match="input #1 .'B'.: expected dtype float32"):
        f(a, b.astype(np.float64))
    with pytest.raises(strata.StrataError, match="missing: B"):
        f(a)


# ---------------------------------------------------------------- reference classes


def test_reference_classes_are_loaded_once_per_op_type_and_version(monkeypatch):
    # [Note: reference classes loaded once]: ops of one type differ only by their
    # attributes, which the instances keep
    import onnx.reference.ops as ref_ops

    import strata.interpreter.ops_onnx as ops_onnx
    m = model([h.make_node("Transpose", ["X"], ["T1"], perm=[1, 0, 2]),
               h.make_node("Transpose", ["T1"], ["T2"], perm=[2, 1, 0]),
               h.make_node("Transpose", ["T2"], ["T3"], perm=[0, 2, 1]),
               h.make_node("Cast", ["T3"], ["C1"], to=TP.INT32),
               h.make_node("Cast", ["C1"], ["Y"], to=TP.DOUBLE)],
              [vi("X", TP.FLOAT, [2, 3, 4])], [vi("Y", TP.DOUBLE, [4, 3, 2])])
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32) * 10
    expected, = ReferenceEvaluator(m).run(None, {"X": x})
    monkeypatch.setattr(ops_onnx, "_CLASSES", {})
    loads = []
    real = ref_ops.load_op

    def counting(domain, op_type, *a, **k):
        loads.append(op_type)
        return real(domain, op_type, *a, **k)
    monkeypatch.setattr(ref_ops, "load_op", counting)
    for _ in range(2):      # a second compile (a new interpreter) finds them loaded too
        got, = strata.compile(m, target="interpret", pipeline="")(x)
        np.testing.assert_array_equal(got, expected)
    assert sorted(loads) == ["Cast", "Transpose"]


def test_context_dependent_and_function_ops_are_not_shared():
    # Gelu (opset 20) has a function built per node and input types, Mish a function
    # body: each op keeps its own, attributes included
    m = model([h.make_node("Gelu", ["X"], ["G1"], approximate="tanh"),
               h.make_node("Gelu", ["G1"], ["G2"]),
               h.make_node("Mish", ["G2"], ["M1"]),
               h.make_node("Mish", ["M1"], ["Y"])],
              [vi("X", TP.FLOAT, [6])], [vi("Y", TP.FLOAT, [6])], opset=20)
    check(m, np.linspace(-3, 3, 6).astype(np.float32), rtol=1e-5, atol=1e-6)
