"""Resize on the CPU target against onnxruntime: every interpolation mode, coordinate
transformation and nearest rounding mode, upsampling by odd and integer factors,
downsampling, sizes and scales, 2-D and 1-D, NCHW and an inner-only resize; Segformer's
decoder form (sizes from the input's shape, dynamic batch). Each group is one model of
many Resize nodes (one compile), run at 1 and 2 threads (the passes of [Note: resampling
loops] are parallel loops)."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper  # noqa: E402

import strata  # noqa: E402

F = TensorProto.FLOAT
COORDS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
          "half_pixel_symmetric")
SCALES = ((1, 1, 2.0, 2.0), (1, 1, 1.7, 0.6), (1, 1, 0.5, 0.35), (1, 1, 3.0, 1.0),
          (1, 1, 1.0, 2.5))
SIZES = ((2, 3, 13, 4), (2, 3, 3, 17), (2, 3, 1, 1))


def _model(configs, shape=(2, 3, 7, 9)):
    """One Resize node per config (mode, coordinate mode, nearest mode, scales, sizes),
    all of input x."""
    nodes, inits, outs = [], [], []
    for k, (mode, coord, nearest, sc, sz) in enumerate(configs):
        names = ["x", ""]
        if sc is not None:
            inits.append(onnx.numpy_helper.from_array(np.array(sc, np.float32), f"s{k}"))
            names += [f"s{k}"]
        else:
            inits.append(onnx.numpy_helper.from_array(np.array(sz, np.int64), f"z{k}"))
            names += ["", f"z{k}"]
        attrs = dict(mode=mode, coordinate_transformation_mode=coord)
        if nearest:
            attrs["nearest_mode"] = nearest
        nodes.append(helper.make_node("Resize", names, [f"y{k}"], **attrs))
        outs.append(helper.make_tensor_value_info(f"y{k}", F, None))
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, list(shape))],
                          outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=8)


def _check(m, x, rtol=1e-5, atol=1e-5):
    """Strata's outputs against onnxruntime's, or ONNX's reference where the two differ
    (align_corners with a fractional output width scale * in: the reference divides by
    it, onnxruntime by the rounded size; the reference is the truth, as in the unit
    tests of resize.py). Most nodes are checked against onnxruntime."""
    from onnx.reference import ReferenceEvaluator
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    by_ort = sess.run(None, {"x": x})
    by_ref = ReferenceEvaluator(m).run(None, {"x": x})
    want, on_ort = [], 0
    for o, r in zip(by_ort, by_ref):
        same = o.shape == r.shape and np.allclose(o, r, rtol=rtol, atol=atol)
        want.append(o if same else r)
        on_ort += same
    assert on_ort >= len(want) // 2, (on_ort, len(want))
    for threads in (1, 2):
        got = strata.compile(m, num_threads=threads, cache=False)(x)
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            assert g.shape == w.shape, (k, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"node {k}")


X = np.random.default_rng(0).standard_normal((2, 3, 7, 9)).astype(np.float32)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_interpolating_modes(mode):
    configs = [(mode, c, None, sc, None) for c in COORDS for sc in SCALES]
    configs += [(mode, c, None, None, sz) for c in ("half_pixel", "align_corners")
                for sz in SIZES]
    _check(_model(configs), X)


def test_nearest_modes():
    configs = [("nearest", c, n, sc, None)
               for c in ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel")
               for n in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
               for sc in SCALES[:3]]
    _check(_model(configs), X, rtol=0, atol=0)


def test_segformer_decoder_form():
    """Resize(x, sizes=Concat(Shape(x)[0:2], [128, 128])) of [N, C, 16, 16] with a
    dynamic batch, linear half_pixel, as Segformer's decoder writes it."""
    inits = [onnx.numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
             (("zero", [0]), ("two", [2]), ("hw", [128, 128]))]
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "zero", "two", "zero"], ["nc"]),
             helper.make_node("Concat", ["nc", "hw"], ["z"], axis=0),
             helper.make_node("Resize", ["x", "", "", "z"], ["y"], mode="linear",
                              coordinate_transformation_mode="half_pixel")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["N", 8, 16, 16])],
                          [helper.make_tensor_value_info("y", F, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=8)
    for n in (1, 2):
        x = np.random.default_rng(n).standard_normal((n, 8, 16, 16)).astype(np.float32)
        _check(m, x)
