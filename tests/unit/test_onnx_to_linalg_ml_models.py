"""convert-onnx-to-linalg for TfIdfVectorizer, TreeEnsemble, LabelEncoder (ml_models.py)
and FlexAttention (attention.py): one-node models compiled for the interpreter, compared
with ONNX's reference evaluator or NumPy; the lowering checked to leave no onnx op."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402

import strata  # noqa: E402


def _model(node, inputs, outputs, ml=5, preview=False, opset=23):
    g = h.make_graph([node], "g", [h.make_tensor_value_info(*i) for i in inputs],
                     [h.make_tensor_value_info(*o) for o in outputs])
    ops = [h.make_opsetid("", opset), h.make_opsetid("ai.onnx.ml", ml)]
    if preview:
        ops.append(h.make_opsetid("ai.onnx.preview", 1))
    return h.make_model(g, opset_imports=ops, ir_version=10)


def _run(model, *xs):
    return strata.compile(model, target="interpret")(*xs)[0]


def _reference(model, *xs):
    from onnx.reference import ReferenceEvaluator
    names = [i.name for i in model.graph.input]
    return ReferenceEvaluator(model).run(None, dict(zip(names, xs)))[0]


def _failure(model, *xs) -> str:
    """The lowering failure of `model` with its notes (the reasons), as text."""
    from strata.passes.pass_manager import PassFailure
    with pytest.raises(PassFailure) as e:
        _run(model, *xs)
    d = e.value.diag
    return "\n".join([d.message] + [n.message for n in d.notes])


def _lowered_text(model):
    from strata.compiler import build_pipeline
    from strata.frontends.onnx import import_model
    from strata.syntax.printer import print_op
    m = import_model(model)
    build_pipeline("onnx-decompose,onnx-shape-inference,convert-onnx-to-linalg").run(m)
    return print_op(m)


# ------------------------------------------------------------------ TfIdfVectorizer


@pytest.mark.parametrize("mode", ["TF", "IDF", "TFIDF"])
@pytest.mark.parametrize("rank", [1, 2])
@pytest.mark.parametrize("grams,skip", [((1, 2), 3), ((2, 3), 1), ((1, 1), 0)])
def test_tfidf(mode, rank, grams, skip):
    pool = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 2, 3, 5, 4, 5, 6]
    # 4 unigrams, 3 bigrams, 2 trigrams; output columns permuted, one shared
    attrs = dict(mode=mode, min_gram_length=grams[0], max_gram_length=grams[1],
                 max_skip_count=skip, ngram_counts=[0, 4, 10], pool_int64s=pool,
                 ngram_indexes=[3, 0, 1, 2, 4, 6, 5, 7, 1])
    if mode != "TF":
        attrs["weights"] = [0.5, 1.0, 2.0, 3.0, 0.25, 4.0, 1.5, 2.5]
    node = h.make_node("TfIdfVectorizer", ["X"], ["Y"], **attrs)
    shape = [2, 9] if rank == 2 else [9]
    m = _model(node, [("X", T.INT32, shape)], [("Y", T.FLOAT, shape[:-1] + [8])])
    rng = np.random.default_rng(1)
    x = rng.integers(2, 9, shape).astype(np.int32)
    np.testing.assert_allclose(_run(m, x), _reference(m, x), rtol=1e-6)


def test_tfidf_strings_not_lowered():
    node = h.make_node("TfIdfVectorizer", ["X"], ["Y"], mode="TF", min_gram_length=1,
                       max_gram_length=1, max_skip_count=0, ngram_counts=[0],
                       pool_strings=["a", "b"], ngram_indexes=[0, 1])
    m = _model(node, [("X", T.STRING, [3])], [("Y", T.FLOAT, [2])])
    assert "string tensors are not lowered" in _failure(m, np.array(["a", "b", "a"], dtype=object))


# ------------------------------------------------------------------ TreeEnsemble


def _forest(agg, post, elt=T.FLOAT, n_targets=3, missing=None):
    """Two trees: tree 0 (nodes 0-2) with LEQ/GT/MEMBER, tree 1 (nodes 3-4) with
    LT/NEQ, leaves spread over the targets."""
    np_elt = np.float32 if elt == T.FLOAT else np.float64
    attrs = dict(
        nodes_featureids=[0, 1, 2, 1, 0],
        nodes_modes=h.make_tensor("m", T.UINT8, [5], [0, 3, 6, 1, 5]),
        nodes_splits=h.make_tensor("s", elt, [5], np.array([0.5, -0.2, 0, 0.1, 1.0],
                                                           np_elt)),
        nodes_truenodeids=[1, 0, 2, 4, 3], nodes_trueleafs=[0, 1, 1, 0, 1],
        nodes_falsenodeids=[2, 1, 3, 0, 4], nodes_falseleafs=[0, 1, 1, 1, 1],
        leaf_targetids=[0, 1, 2, 0, 1, 2][:6],
        leaf_weights=h.make_tensor("w", elt, [6], np.array(
            [1.5, -2.0, 3.0, 0.25, 4.0, -1.0], np_elt)),
        membership_values=h.make_tensor("mv", elt, [3], np.array([1.0, 2.0, np.nan],
                                                                 np_elt)),
        tree_roots=[0, 3], n_targets=n_targets, aggregate_function=agg,
        post_transform=post)
    attrs["leaf_targetids"] = [t % n_targets for t in attrs["leaf_targetids"]]
    if missing is not None:
        attrs["nodes_missing_value_tracks_true"] = missing
    node = h.make_node("TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)
    return _model(node, [("X", elt, [7, 3])], [("Y", elt, [7, n_targets])])


def _tree_input(dtype):
    x = np.array([[0.4, -1, 1], [0.6, 0, 2], [0.7, 0.3, 5], [1.0, 0.05, 1],
                  [np.nan, np.nan, 2], [0.2, 0.5, np.nan], [3, -3, 2]], dtype)
    return x


@pytest.mark.parametrize("agg", [0, 1, 2, 3])
@pytest.mark.parametrize("elt", [T.FLOAT, T.DOUBLE])
def test_tree_ensemble_aggregates(agg, elt):
    m = _forest(agg, 0, elt, missing=[1, 0, 0, 1, 0])
    x = _tree_input(np.float32 if elt == T.FLOAT else np.float64)
    got, want = _run(m, x), _reference(m, x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def _np_post(y, post):
    if post == 2:
        return 1 / (1 + np.exp(-y))
    e = np.exp(y - y.max(axis=1, keepdims=True))
    if post == 3:
        e = np.where(y == 0, 0, e)
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("post", [1, 2, 3])
def test_tree_ensemble_post_transforms(post):
    # onnx.reference ignores post_transform: compare with NumPy on the raw scores
    x = _tree_input(np.float32)
    raw = _reference(_forest(1, 0), x)
    np.testing.assert_allclose(_run(_forest(1, post), x), _np_post(raw, post), rtol=1e-5)


def test_tree_ensemble_probit_not_lowered():
    assert "PROBIT" in _failure(_forest(1, 4), _tree_input(np.float32))


# ------------------------------------------------------------------ LabelEncoder


@pytest.mark.parametrize("attrs,xt,yt,x", [
    (dict(keys_int64s=[1, 2, 3, 2], values_floats=[0.5, 1.5, 2.5, 9.0]), T.INT64, T.FLOAT,
     np.array([1, 2, 5, 3, -1], np.int64)),
    (dict(keys_floats=[1.0, 2.5], values_int64s=[7, 8], default_int64=11), T.FLOAT, T.INT64,
     np.array([1, 2.5, np.nan, 3, -0.0], np.float32)),
    (dict(keys_tensor=h.make_tensor("k", T.INT16, [3], [1, 2, 3]),
          values_tensor=h.make_tensor("v", T.INT16, [3], [4, 5, 6]),
          default_tensor=h.make_tensor("d", T.INT16, [1], [42])), T.INT16, T.INT16,
     np.array([1, 2, 5, 3, 1], np.int16)),
])
def test_label_encoder_numeric(attrs, xt, yt, x):
    node = h.make_node("LabelEncoder", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)
    m = _model(node, [("X", xt, [5])], [("Y", yt, [5])], ml=4)
    got, want = _run(m, x), _reference(m, x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_label_encoder_strings_not_lowered():
    node = h.make_node("LabelEncoder", ["X"], ["Y"], domain="ai.onnx.ml",
                       keys_strings=["a", "b"], values_int64s=[1, 2])
    m = _model(node, [("X", T.STRING, [2])], [("Y", T.INT64, [2])], ml=4)
    assert "string tensors are not lowered" in _failure(m, np.array(["a", "c"], dtype=object))


# ------------------------------------------------------------------ FlexAttention


def _flex(shapes, score_mod=None, prob_mod=None, elt=T.FLOAT, **attrs):
    if score_mod is not None:
        attrs["score_mod"] = score_mod
    if prob_mod is not None:
        attrs["prob_mod"] = prob_mod
    node = h.make_node("FlexAttention", ["Q", "K", "V"], ["Y"],
                       domain="ai.onnx.preview", **attrs)
    (b, hq, lq, d), (_, hk, s, _), (_, _, _, e) = shapes
    return _model(node, [("Q", elt, shapes[0]), ("K", elt, shapes[1]),
                         ("V", elt, shapes[2])], [("Y", elt, [b, hq, lq, e])],
                  preview=True, opset=26)


def _body(name, nodes, consts):
    return h.make_graph(nodes, name, [h.make_tensor_value_info(
        "x", T.FLOAT, ["B", "H", "L", "S"])], [h.make_tensor_value_info(
            "y", T.FLOAT, ["B", "H", "L", "S"])], initializer=consts)


def _np_flex(q, k, v, scale, score=lambda s: s, prob=lambda p: p):
    g = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    s = score((q.astype(np.float64) @ np.swapaxes(k, 2, 3)) * scale)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = prob(p / p.sum(-1, keepdims=True))
    return p @ v


def test_flex_attention_gqa_with_modifiers():
    shapes = ([2, 4, 3, 5], [2, 2, 6, 5], [2, 2, 6, 7])
    # score_mod: a mask over the key positions (broadcast Where); prob_mod: * 2
    keep = np.arange(6) < 3
    score = _body("score", [h.make_node("Where", ["keep", "x", "ninf"], ["y"])],
                  [h.make_tensor("keep", T.BOOL, [6], keep),
                   h.make_tensor("ninf", T.FLOAT, [], [-np.inf])])
    prob = _body("prob", [h.make_node("Mul", ["x", "two"], ["y"])],
                 [h.make_tensor("two", T.FLOAT, [], [2.0])])
    m = _flex(shapes, score, prob, scale=0.3)
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    want = _np_flex(q, k, v, 0.3, lambda s: np.where(keep, s, -np.inf),
                    lambda p: p * 2)
    got = _run(m, q, k, v)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    text = _lowered_text(m)
    assert '"onnx.' not in text and "linalg.generic" in text


def test_flex_attention_default_scale_double():
    shapes = ([1, 2, 4, 8], [1, 1, 3, 8], [1, 1, 3, 2])
    soft_cap = h.make_graph(
        [h.make_node("Div", ["x", "cap"], ["a"]), h.make_node("Tanh", ["a"], ["t"]),
         h.make_node("Mul", ["t", "cap"], ["y"])], "cap",
        [h.make_tensor_value_info("x", T.DOUBLE, ["B", "H", "L", "S"])],
        [h.make_tensor_value_info("y", T.DOUBLE, ["B", "H", "L", "S"])],
        initializer=[h.make_tensor("cap", T.DOUBLE, [], [2.0])])
    m = _flex(shapes, soft_cap, elt=T.DOUBLE)
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal(s) for s in shapes)
    want = _np_flex(q, k, v, 1 / np.sqrt(8), lambda s: np.tanh(s / 2) * 2)
    np.testing.assert_allclose(_run(m, q, k, v), want, rtol=1e-10)


def test_flex_attention_bad_heads_not_lowered():
    m = _flex(([1, 3, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4]),
              _body("s", [h.make_node("Identity", ["x"], ["y"])], []))
    assert "not a multiple" in _failure(m, *(np.zeros(s, np.float32) for s in
                                              ([1, 3, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4])))
