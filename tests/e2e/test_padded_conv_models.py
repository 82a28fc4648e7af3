"""ONNX models whose convolutions are padded, compiled for the CPU and compared with
onnxruntime: a DeepLab-style dilated 3x3 (dilation 6, padding 6), a ResNeXt-style
grouped stride-2 3x3 (padding 1), a ResNet stem (7x7 stride 2, padding 3, then ReLU),
an asymmetrically padded 3x3 with a dynamic batch, and a padded 1-D convolution. The
NCHW kernels read the unpadded image with the padding as arguments ([Note: padding in
the packing] in strata/backends/cpu/kernels_conv.py): no zero fill and copy into a
padded buffer is left in the lowered module."""
from __future__ import annotations

import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import strata  # noqa: E402

RNG = np.random.default_rng(11)


def _conv_model(path, cin, cout, kernel, pads, strides, dilations, group, spatial,
                relu=True, batch=1):
    w = (RNG.standard_normal((cout, cin // group, *kernel)) * 0.2).astype(np.float32)
    b = RNG.standard_normal(cout).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c" if relu else "y"], pads=pads,
                              strides=strides, dilations=dilations, group=group,
                              name="conv")]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["y"], name="relu"))
    g = helper.make_graph(
        nodes, "padded", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                        [batch, cin, *spatial])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.save(model, str(path))


# name: (C in, C out, kernel, pads (begins then ends), strides, dilations, group,
# spatial input, ReLU, batch, the pad top / left the call passes, the kernel)
MODELS = {
    "dilated": (16, 12, (3, 3), [6, 6, 6, 6], [1, 1], [6, 6], 1, (20, 20), True, 1,
                (6, 6), "strata_conv2d_nchw_packed_epi_f32"),
    "grouped_s2": (32, 32, (3, 3), [1, 1, 1, 1], [2, 2], [1, 1], 8, (14, 14), True, 1,
                   (1, 1), "strata_conv2d_nchw_grouped_packed_epi_f32"),
    "stem": (3, 16, (7, 7), [3, 3, 3, 3], [2, 2], [1, 1], 1, (40, 40), True, 1, (3, 3),
             "strata_conv2d_nchw_packed_epi_f32"),
    "asymmetric": (5, 7, (3, 3), [0, 2, 2, 1], [1, 2], [1, 1], 1, (9, 11), False, "n",
                   (0, 2), "strata_conv2d_nchw_packed_epi_f32"),
    "one_d": (8, 6, (3,), [2, 1], [1], [2], 1, (30,), True, 1, (0, 2),
              "strata_conv2d_nchw_packed_epi_f32"),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_padded_conv_matches_onnxruntime(tmp_path, name):
    cin, cout, kernel, pads, strides, dil, group, spatial, relu, batch, want_pad, kern = \
        MODELS[name]
    path = tmp_path / f"{name}.onnx"
    _conv_model(path, cin, cout, kernel, pads, strides, dil, group, spatial, relu, batch)
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"), cache=False)
    lowered = next((tmp_path / "dump").glob("*strata-linalg-to-microkernels.mlir")) \
        .read_text()
    assert "memref.copy" not in lowered and "memref.subview" not in lowered
    call = re.search(rf"call @{kern}\(([^)]*)\)", lowered)
    assert call is not None, lowered
    args = call.group(1).split(", ")
    first = 16 if "grouped" in kern else 15       # pad top, left: the last two sizes
    assert [re.sub(r"_i64.*", "", a) for a in args[first - 2:first]] == \
        [f"%c{v}" for v in want_pad]
    sess = ort.InferenceSession(str(path))
    for n in ((1, 3) if batch == "n" else (batch,)):
        x = RNG.standard_normal((n, cin, *spatial)).astype(np.float32)
        got = f(x)
        got = np.asarray(got[0] if isinstance(got, (list, tuple)) else got)
        ref = sess.run(None, {"x": x})[0]
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())


# [Note: dead taps]: (C in, C out, kernel, pads, dilations, spatial, group, the window and
# the padding the call passes: KH, KW, pt, pl)
DEAD_TAPS = {
    # ASPP's rate 18 on a 14x14 map: only the centre tap is live: a 1x1, no padding
    "centre_only": (16, 12, (3, 3), [18, 18, 18, 18], [18, 18], (14, 14), 1, (1, 1, 0, 0)),
    # 5x5 at dilation 3, padding 6 on a 5x20 map: rows 1..3 live (pt 6 - 3), every
    # column (the last output columns' first taps read the image); rows wider than
    # flat rows take (a 5x7 map would keep its padded copy, read flat)
    "partial": (6, 5, (5, 5), [6, 6, 6, 6], [3, 3], (5, 20), 1, (3, 5, 3, 6)),
    # the same on a 5x7 map: where the kernels' flat rows take it, the padded copy is
    # kept and read from row 3, column 0 (pads 0); elsewhere folded as above
    "partial_narrow": (6, 5, (5, 5), [6, 6, 6, 6], [3, 3], (5, 7), 1,
                       [(3, 5, 0, 0), (3, 5, 3, 6)]),
    # grouped, rows dead only (a wide map): 1 x 3, pt 0
    "grouped_rows": (8, 8, (3, 3), [8, 2, 8, 2], [8, 2], (6, 20), 2, (1, 3, 0, 2)),
}


@pytest.mark.parametrize("name", list(DEAD_TAPS))
def test_dead_taps_left_out(tmp_path, name):
    cin, cout, kernel, pads, dil, spatial, group, want = DEAD_TAPS[name]
    path = tmp_path / f"{name}.onnx"
    _conv_model(path, cin, cout, kernel, pads, [1, 1], dil, group, spatial)
    f = strata.compile(str(path), dump_dir=str(tmp_path / "dump"), cache=False)
    lowered = next((tmp_path / "dump").glob("*strata-linalg-to-microkernels.mlir")) \
        .read_text()
    call = re.search(r"call @strata_conv2d_nchw\w*\(([^)]*)\)", lowered)
    args = [re.sub(r"_i64.*", "", a) for a in call.group(1).split(", ")]
    at = 6 if group > 1 else 5
    wants = want if isinstance(want, list) else [want]
    assert args[at:at + 2] + args[at + 8:at + 10] in [[f"%c{v}" for v in w] for w in wants]
    x = RNG.standard_normal((1, cin, *spatial)).astype(np.float32)
    got = f(x)
    got = np.asarray(got[0] if isinstance(got, (list, tuple)) else got)
    ref = ort.InferenceSession(str(path)).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())
