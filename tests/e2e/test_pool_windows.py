"""Pooling windows against onnxruntime and onnx.reference: a seeded sweep of MaxPool,
AveragePool (count_include_pad both ways) and LpPool over 1-D to 3-D shapes, kernels, strides,
pads, dilations, ceil_mode and auto_pad; MaxPool and NaN; the global pools and
ReduceMax/ReduceMin with NaN.

Output counts follow [Note: ceil_mode windows] (strata/frontends/onnx/pool_shapes.py):
a ceil_mode window that would start past the input and its begin padding is dropped, as
both runtimes do, though ONNX's own shape inference keeps it. Where the two referees
disagree with each other, the sweep holds the case to a documented reason (`_known`):

- a kernel wider than the padded input fits no window: onnx.reference and the operator
  spec's floor count none (an empty dim), onnxruntime's truncating division one where
  the span exceeds the padded input by less than a stride; an overhang of two strides
  or more both refuse, and so do we (a located error);
- auto_pad SAME_* with dilations: the spec pads for the dilated kernel, which we do;
  onnxruntime and onnx.reference pad for the undilated one (and onnxruntime then counts
  fewer than ceil(in / stride) windows);
- auto_pad SAME_* where the spec's padding is negative (a kernel span below the stride):
  onnxruntime's MaxPool refuses it, onnx.reference's strided MaxPool counts
  floor(in / stride) windows for SAME_LOWER; we count ceil(in / stride) and pad nothing;
- ceil_mode with auto_pad: onnx.reference refuses it (or, strided MaxPool, counts
  floor(in / stride) windows for SAME_LOWER); onnxruntime is the referee.
Elsewhere, where the two disagree, onnxruntime is the referee: onnx.reference's stride-1
pools count ceil_mode windows over padding their own way and its LpPool ignores
dilations.

NaN: the global pools and ReduceMax/ReduceMin follow onnx.reference (NumPy's max: NaN
propagates); onnxruntime skips NaN there. MaxPool skips NaN (see [Note: MaxPool and
NaN] in strata/conversion/onnx_to_linalg/pooling.py).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper  # noqa: E402

import strata  # noqa: E402

_F = TensorProto.FLOAT


def _model(op, shape, attrs, out_shape=None, outputs=("Y",), opset=19):
    node = helper.make_node(op, ["X"], list(outputs), **attrs)
    outs = [helper.make_tensor_value_info(outputs[0], _F, out_shape)]
    outs += [helper.make_tensor_value_info(o, TensorProto.INT64, None) for o in outputs[1:]]
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", _F, shape)], outs)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=9)


def _ort(m, x):
    try:
        s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return s.run(None, {"X": x})
    except Exception:  # noqa: BLE001 - a referee that refuses the case
        return None


def _reference(m, x):
    from onnx.reference import ReferenceEvaluator
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ReferenceEvaluator(m).run(None, {"X": x})
    except Exception:  # noqa: BLE001
        return None


def _same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)


def _case(rng):
    op = str(rng.choice(["MaxPool", "AveragePool", "LpPool"]))
    n = int(rng.integers(1, 4))
    k = [int(rng.integers(1, 4)) for _ in range(n)]
    attrs = dict(kernel_shape=k, strides=[int(rng.integers(1, 4)) for _ in range(n)],
                 ceil_mode=int(rng.integers(0, 2)))
    if rng.random() < 0.5:
        attrs["dilations"] = [int(rng.integers(1, 3)) for _ in range(n)]
    auto = str(rng.choice(["NOTSET"] * 4 + ["VALID", "SAME_UPPER", "SAME_LOWER"]))
    if auto == "NOTSET":
        attrs["pads"] = [int(rng.integers(0, k[i % n])) for i in range(2 * n)]
    else:
        attrs["auto_pad"] = auto
    if op == "AveragePool":
        attrs["count_include_pad"] = int(rng.integers(0, 2))
    if op == "LpPool":
        attrs["p"] = int(rng.integers(1, 4))
    return op, [1, 2] + [int(rng.integers(1, 9 if n < 3 else 6)) for _ in range(n)], attrs


def _spans(shape, attrs):
    """Per spatial dim: (input size, dilated kernel span, stride, begin pad, end pad)."""
    n = len(shape) - 2
    dil = attrs.get("dilations", [1] * n)
    pads = attrs.get("pads", [0] * (2 * n))
    return [(shape[2 + i], (attrs["kernel_shape"][i] - 1) * dil[i] + 1,
             attrs["strides"][i], pads[i], pads[n + i]) for i in range(n)]


def _known(shape, attrs):
    """Why onnxruntime and onnx.reference may disagree on this case (see the module
    docstring), or None."""
    auto = attrs.get("auto_pad", "NOTSET")
    spans = _spans(shape, attrs)
    if auto.startswith("SAME"):
        if any(d != 1 for d in attrs.get("dilations", [])):
            return "SAME with dilations"
        if any(span < s for _, span, s, _, _ in spans):
            return "SAME with a negative padding"
    if auto in ("NOTSET", "VALID") and not attrs["ceil_mode"] and any(
            d + lo + hi < span for d, span, _, lo, hi in spans):
        return "a kernel wider than the padded input"
    if attrs["ceil_mode"] and auto != "NOTSET":
        return "ceil_mode with auto_pad"
    return None


_SWEEP = [_case(np.random.default_rng(seed)) for seed in range(120)]


@pytest.mark.parametrize("op,shape,attrs", _SWEEP,
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(_SWEEP)])
def test_pool_sweep(op, shape, attrs):
    m = _model(op, shape, attrs)
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    by_ort, by_ref = _ort(m, x), _reference(m, x)
    by_ort = by_ort[0] if by_ort else None
    by_ref = by_ref[0] if by_ref else None
    try:
        got = strata.compile(m, target="interpret")(x)[0]
    except strata.StrataError as e:
        # refused with a located error only where no referee computes it either
        # (onnx.reference's LpPool ignores dilations: it may see a window)
        assert by_ort is None or by_ort.size == 0, str(e)
        assert by_ref is None or by_ref.size == 0 or op == "LpPool", str(e)
        return
    known = _known(shape, attrs)
    auto = attrs.get("auto_pad", "NOTSET")
    if auto.startswith("SAME"):  # the spec: ceil(in / stride) windows
        want = [-(-d // s) for d, _, s, _, _ in _spans(shape, attrs)]
        assert list(got.shape[2:]) == want
    if _same(by_ort, by_ref) and by_ref is not None:
        assert _same(got, by_ref)
    elif known is None:
        # onnx.reference's pools misread these (its stride-1 path counts ceil_mode
        # windows over padding its own way, LpPool ignores dilations): onnxruntime holds
        assert _same(got, by_ort), (by_ref, by_ort, got)
    elif known == "a kernel wider than the padded input":
        assert 0 in got.shape and (by_ref is None or _same(got, by_ref))
    elif known == "ceil_mode with auto_pad":
        assert _same(got, by_ort)


@pytest.mark.parametrize("seed", range(0, 120, 6))
def test_pool_sweep_cpu(seed):
    """The compiled code computes what the interpreter does on every sixth sweep case."""
    op, shape, attrs = _SWEEP[seed]
    m = _model(op, shape, attrs)
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    try:
        want = strata.compile(m, target="interpret")(x)[0]
    except strata.StrataError:
        return
    got = strata.compile(m)(x)[0]
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("op,attrs,want", [
    # the case: the second row of windows would start past the input
    ("MaxPool", dict(kernel_shape=[1, 2], strides=[2, 2], ceil_mode=1), [[[[1, 3]]]]),
    ("AveragePool", dict(kernel_shape=[1, 2], strides=[2, 2], ceil_mode=1),
     [[[[0.5, 2.5]]]]),
    ("AveragePool", dict(kernel_shape=[1, 2], strides=[2, 2], ceil_mode=1,
                         count_include_pad=1), [[[[0.5, 2.5]]]]),
    ("LpPool", dict(kernel_shape=[1, 2], strides=[2, 2], ceil_mode=1, p=1),
     [[[[1, 5]]]]),
    # VALID counts ceil_mode windows as NOTSET without padding does
    ("MaxPool", dict(kernel_shape=[1, 1], strides=[2, 3], ceil_mode=1, auto_pad="VALID"),
     [[[[0, 3]]]]),
])
@pytest.mark.parametrize("declared", [None, [1, 1, 2, 2]])
def test_ceil_mode_drops_windows_past_the_input(op, attrs, want, declared, target):
    """Also when the model declares the output as ONNX's shape inference types it."""
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
    m = _model(op, [1, 1, 2, 4], attrs, out_shape=declared)
    got = strata.compile(m, target=target)(x)[0]
    np.testing.assert_allclose(got, np.array(want, np.float32))
    np.testing.assert_allclose(got, _ort(m, x)[0])


@pytest.mark.parametrize("op,attrs", [
    ("AveragePool", dict(count_include_pad=1)),
    ("AveragePool", dict(count_include_pad=0, pads=[1, 0, 1, 2])),
    ("AveragePool", dict(count_include_pad=1, pads=[1, 0, 1, 2])),
    ("MaxPool", dict()),
])
def test_ceil_mode_window_overhanging_the_input_reads_only_the_input(op, attrs):
    """HF EfficientNet's pooler, AvgPool2d(1280, ceil_mode=True) on a 7x7 map: one window
    whose kernel overhangs the padded input by far. Only the padded input is read (no
    1280x1280 padded copy of it in the IR: it made a call 8 GB and 27 s)."""
    from strata.compiler import build_pipeline, load_module
    from strata.syntax.printer import print_op
    m = _model(op, [1, 3, 7, 6], dict(kernel_shape=[1280, 1280], strides=[1280, 1280],
                                      ceil_mode=1, **attrs))
    x = np.random.default_rng(0).standard_normal((1, 3, 7, 6)).astype(np.float32)
    for target in ("interpret", "cpu"):
        np.testing.assert_allclose(strata.compile(m, target=target)(x)[0], _ort(m, x)[0],
                                   rtol=1e-6, atol=1e-6)
    module = load_module(m)
    build_pipeline(["onnx-shape-inference", "convert-onnx-to-linalg"]).run(module)
    assert "1280x" not in print_op(module) and "x1280" not in print_op(module)


def test_ceil_mode_pool_feeds_later_ops():
    """The mended count reaches the ops after the pool (ONNX typed them from its own)."""
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
    nodes = [helper.make_node("MaxPool", ["X"], ["P"], kernel_shape=[1, 2],
                              strides=[2, 2], ceil_mode=1),
             helper.make_node("Relu", ["P"], ["R"]),
             helper.make_node("Flatten", ["R"], ["Y"], axis=1)]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("X", _F, [1, 1, 2, 4])],
                          [helper.make_tensor_value_info("Y", _F, [1, 4])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    before = m.SerializeToString()
    for target in ("interpret", "cpu"):
        got = strata.compile(m, target=target)(x)[0]
        np.testing.assert_allclose(got, [[1, 3]])
    assert m.SerializeToString() == before  # the caller's model is left as it was


def test_ceil_mode_pool_in_if_branches():
    """In subgraphs too, with the op holding them and what follows it retyped
    (onnxruntime itself fails here: it preallocates the branch output from ONNX's
    inferred 1x1x2x2)."""
    def branch(name, then):
        nodes = [helper.make_node("MaxPool", ["X"], [name + "P"], kernel_shape=[1, 2],
                                  strides=[2, 2], ceil_mode=1),
                 helper.make_node("Relu" if then else "Neg", [name + "P"], [name + "Q"])]
        return helper.make_graph(nodes, name, [],
                                 [helper.make_tensor_value_info(name + "Q", _F, None)])
    nodes = [helper.make_node("If", ["C"], ["Y"], then_branch=branch("t", True),
                              else_branch=branch("e", False)),
             helper.make_node("Flatten", ["Y"], ["Z"], axis=1)]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("C", TensorProto.BOOL, []),
                                       helper.make_tensor_value_info("X", _F, [1, 1, 2, 4])],
                          [helper.make_tensor_value_info("Z", _F, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
    for target in ("interpret", "cpu"):
        f = strata.compile(m, target=target)
        np.testing.assert_array_equal(f(np.array(True), x)[0], [[1, 3]])
        np.testing.assert_array_equal(f(np.array(False), x)[0], [[-1, -3]])


# ---------------------------------------------------------------------- NaN

_NAN = np.nan
_X = np.array([[[_NAN, 1, 2, _NAN, _NAN, 3, _NAN, _NAN]]], np.float32)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("attrs,want", [
    # stride 1: onnx.reference filters NaN out (and fails on a window of NaN only)
    (dict(kernel_shape=[2]), [1, 2, 2, _NAN, 3, 3, _NAN]),
    # stride 2: onnxruntime gives -FLT_MAX for the NaN-only window, the reference NaN
    (dict(kernel_shape=[2], strides=[2]), [1, 2, 3, _NAN]),
    # padding never wins, NaN or not
    (dict(kernel_shape=[3], strides=[3], pads=[1, 1]), [1, 2, 3]),
])
def test_max_pool_skips_nan(attrs, want, target):
    m = _model("MaxPool", [1, 1, 8], attrs)
    got = strata.compile(m, target=target)(_X)[0]
    np.testing.assert_array_equal(got[0, 0], np.array(want, np.float32))
    # onnxruntime agrees wherever a window holds a number
    by_ort = _ort(m, _X)[0][0, 0]
    numbers = ~np.isnan(got[0, 0])
    np.testing.assert_array_equal(got[0, 0][numbers], by_ort[numbers])


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_max_pool_nan_indices(target):
    """Indices point at the largest number, at the window's first position when it
    holds NaN only: both referees agree on these windows (2-D, strided)."""
    x = np.array([[[[1, _NAN, _NAN, _NAN], [4, _NAN, _NAN, _NAN]]]], np.float32)
    m = _model("MaxPool", [1, 1, 2, 4], dict(kernel_shape=[2, 2], strides=[2, 2]),
               outputs=("Y", "I"))
    y, i = strata.compile(m, target=target)(x)
    np.testing.assert_array_equal(y, [[[[4, _NAN]]]])
    np.testing.assert_array_equal(i, [[[[4, 2]]]])
    for oy, oi in (_ort(m, x), _reference(m, x)):
        np.testing.assert_array_equal(oy, y)
        np.testing.assert_array_equal(oi, i)
    # A window whose first value is NaN: the strided kernels of both referees keep that
    # NaN (nothing compares greater), the reference's stride-1 one and onnxruntime's
    # 1-D one skip it; we skip it (see [Note: MaxPool and NaN]).
    x[0, 0, 0, 0] = _NAN
    y, i = strata.compile(m, target=target)(x)
    np.testing.assert_array_equal(y, [[[[4, _NAN]]]])
    np.testing.assert_array_equal(i, [[[[4, 2]]]])


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("op,attrs", [
    ("GlobalMaxPool", {}), ("ReduceMax", dict(keepdims=1)), ("ReduceMin", dict(keepdims=1)),
])
def test_global_pools_and_reductions_propagate_nan(op, attrs, target):
    """NumPy's max and maximum.reduce in onnx.reference: a NaN makes the result NaN."""
    x = np.array([[[1, _NAN, 3], [4, 5, 6]]], np.float32).reshape(1, 2, 1, 3)
    node = helper.make_node(op, ["X"], ["Y"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", _F, [1, 2, 1, 3])],
                          [helper.make_tensor_value_info("Y", _F, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    got = strata.compile(m, target=target)(x)[0]
    want = _reference(m, x)[0]
    np.testing.assert_array_equal(got, want)
