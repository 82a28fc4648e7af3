"""convert-onnx-to-linalg, resampling family (Resize, Upsample, GridSample, RoiAlign):
cases beyond the node tests (constant and run-time scales, sizes and roi, dynamic
input sizes, integer and f16 data, the old opsets, antialiasing with a run-time tap
count), against onnxruntime or ONNX's reference (the truth where they differ: ties of
nearest rounding computed in f64, align_corners on the fractional output width,
GridSample's coordinate clamping before cubic taps)."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, F16, I64, I8, U8, check, expected, ints, model, rand

import strata
from strata.runtime import RuntimeFailure
from strata.testing import check_pass_preserves_semantics

REF = dict(ref="reference", rtol=1e-4, atol=1e-5)
X4 = rand(1, 2, 5, 7)


def resize(*inputs, out=(F, None), **attrs):
    return model("Resize", [("x", F, [1, 2, 5, 7])] + list(inputs), [("y",) + out], **attrs)


def scales(*v):
    return ("s", np.array(v, np.float32))


@pytest.mark.parametrize("mode,coord", [
    ("nearest", "align_corners"), ("nearest", "half_pixel_symmetric"),
    ("linear", "align_corners"), ("linear", "pytorch_half_pixel"),
    ("cubic", "asymmetric"), ("cubic", "half_pixel_symmetric"),
])
def test_resize_coordinate_modes(mode, coord):
    for sc in ((1, 1, 0.6, 1.7), (1, 1, 2.0, 0.5)):
        check(resize(None, scales(*sc), mode=mode, coordinate_transformation_mode=coord),
              X4, **REF)


@pytest.mark.parametrize("nearest_mode", ["round_prefer_floor", "round_prefer_ceil",
                                          "floor", "ceil"])
def test_resize_nearest_modes(nearest_mode):
    # (3 + 0.5) / 0.7 - 0.5 is 4.5 in f32 but above it in f64: the reference rounds up
    check(resize(None, scales(1, 1, 1.5, 0.7), mode="nearest", nearest_mode=nearest_mode),
          X4, ref="reference")


def test_resize_integers_round_and_saturate():
    x = ints(1, 1, 5, 7, lo=0, hi=256, dtype=np.uint8)
    check(model("Resize", [("x", U8, [1, 1, 5, 7]), None, scales(1, 1, 1.5, 0.7)],
                [("y", U8, None)], mode="linear"), x, atol=1)
    check(model("Resize", [("x", I8, [1, 1, 5, 7]), None, scales(1, 1, 1.5, 0.7)],
                [("y", I8, None)], mode="cubic"), ints(1, 1, 5, 7), ref="reference")


def test_resize_f16():
    x = rand(1, 1, 5, 7).astype(np.float16)
    check(model("Resize", [("x", F16, [1, 1, 5, 7]), None, scales(1, 1, 1.5, 0.7)],
                [("y", F16, None)], mode="linear"), x, rtol=1e-2, atol=1e-2)


def test_resize_dynamic_sizes():
    m = model("Resize", [("x", F, ["N", "C", "H", "W"]), None, scales(1, 1, 1.5, 0.7)],
              [("y", F, None)], mode="linear")
    check(m, rand(2, 3, 6, 9), rtol=1e-4)
    check(m, rand(1, 1, 3, 4), rtol=1e-4)
    m = model("Resize", [("x", F, ["N", "C", "H", "W"]), None, None,
                         ("z", np.array([2, 3, 4, 11], np.int64))], [("y", F, None)],
              mode="cubic")
    check(m, rand(2, 3, 6, 9), rtol=1e-4)


def test_resize_run_time_sizes_and_scales():
    m = model("Resize", [("x", F, [2, 3, 6, 9]), None, None, ("z", I64, [4])],
              [("y", F, [2, 3, 4, 11])], mode="cubic")
    check(m, rand(2, 3, 6, 9), np.array([2, 3, 4, 11], np.int64), rtol=1e-4)
    m = model("Resize", [("x", F, [1, 2, 5, 7]), None, ("s", F, [2])], [("y", F, [1, 2, 7, 4])],
              axes=[2, 3], mode="nearest")
    check(m, X4, np.array([1.5, 0.7], np.float32), ref="reference")


def test_resize_opset11_sizes_with_empty_scales():
    check(model("Resize", [("x", F, [1, 2, 5, 7]), ("roi", np.zeros(0, np.float32)),
                           ("s", np.zeros(0, np.float32)),
                           ("z", np.array([1, 2, 3, 10], np.int64))],
                [("y", F, None)], opset=11, mode="linear"), X4, rtol=1e-4)
    check(model("Resize", [("x", F, [1, 2, 5, 7]), ("roi", np.zeros(0, np.float32)),
                           scales(1, 1, 0.6, 1.7)], [("y", F, None)], opset=11,
                mode="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn"), X4)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_resize_opset10_and_upsample(mode):
    # opset 10: asymmetric; nearest rounds down when upsampling, up when downsampling
    for sc in ((1, 1, 0.3, 2.5), (1, 1, 0.6, 1.5)):
        check(model("Resize", [("x", F, [1, 2, 5, 7]), scales(*sc)], [("y", F, None)],
                    opset=10, mode=mode), X4, rtol=1e-4)
    check(model("Upsample", [("x", F, [1, 2, 5, 7]), scales(1, 1, 2, 2.5)],
                [("y", F, None)], opset=9, mode=mode), X4, rtol=1e-4)
    check(model("Upsample", [("x", F, [1, 2, 5, 7])], [("y", F, None)], opset=7,
                mode=mode, scales=[1.0, 1.0, 2.0, 3.0]), X4, rtol=1e-4)


def test_resize_exclude_outside_and_antialias():
    check(resize(None, scales(1, 1, 0.6, 1.7), mode="cubic", exclude_outside=1,
                 cubic_coeff_a=-0.5), X4, rtol=1e-4)
    check(resize(None, scales(1, 1, 0.6, 1.7), mode="linear", exclude_outside=1), X4, **REF)
    x = rand(1, 2, 9, 11)
    for mode in ("linear", "cubic"):
        check(model("Resize", [("x", F, [1, 2, 9, 11]), None, scales(1, 1, 0.3, 0.45)],
                    [("y", F, None)], mode=mode, antialias=1), x, **REF)
    # a run-time scale: the number of taps is known at run time only
    check(model("Resize", [("x", F, [1, 2, 9, 11]), None, ("s", F, [4])],
                [("y", F, [1, 2, 2, 4])], mode="cubic", antialias=1), x,
          np.array([1, 1, 0.3, 0.45], np.float32), **REF)


def test_resize_tf_crop_and_resize():
    roi = np.array([0, 0, -0.2, 0.3, 1, 1, 0.9, 1.4], np.float32)
    check(resize(("roi", roi), None, ("z", np.array([1, 2, 4, 6], np.int64)),
                 mode="nearest", coordinate_transformation_mode="tf_crop_and_resize",
                 extrapolation_value=-3.0), X4, ref="reference")
    check(resize(("roi", np.array([0.3, -0.2, 1.4, 0.9], np.float32)), None,
                 ("z", np.array([6, 4], np.int64)), mode="cubic", axes=[3, 2],
                 coordinate_transformation_mode="tf_crop_and_resize",
                 extrapolation_value=-3.0), X4, **REF)


def test_resize_keep_aspect_ratio():
    for policy in ("not_larger", "not_smaller"):
        check(resize(None, None, ("z", np.array([3, 4, 9], np.int64)), mode="linear",
                     axes=[1, 2, 3], keep_aspect_ratio_policy=policy), X4, **REF)


RESIZE_MLIR = """
func.func @main(%x: tensor<1x2x5x7xf32>, %g: tensor<1x3x4x2xf32>)
    -> (tensor<1x2x3x11xf32>, tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 0.6, 1.7]> : tensor<4xf32>}>
      : () -> tensor<4xf32>
  %y = "onnx.Resize"(%x, %n, %s) <{mode = "cubic"}>
      : (tensor<1x2x5x7xf32>, none, tensor<4xf32>) -> tensor<1x2x3x11xf32>
  %z = "onnx.GridSample"(%x, %g) <{mode = "cubic", padding_mode = "reflection"}>
      : (tensor<1x2x5x7xf32>, tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %y, %z : tensor<1x2x3x11xf32>, tensor<1x2x3x4xf32>
}
"""


def test_resize_preserves_semantics():
    check_pass_preserves_semantics(RESIZE_MLIR, "convert-onnx-to-linalg,canonicalize",
                                   rtol=1e-4, atol=1e-5)


def compile_error(m) -> str:
    """The message and notes of the diagnostic compiling `m` fails with."""
    with pytest.raises(strata.StrataError) as e:
        strata.compile(m, target="interpret")
    diag = e.value.diag
    return " | ".join([str(e.value)] + [n.message for n in diag.notes])


def test_resize_bad_attributes_are_located_errors():
    msg = compile_error(resize(None, scales(1, 1, 2, 2), coordinate_transformation_mode="x"))
    assert "failed to legalize operation 'onnx.Resize'" in msg
    assert "unknown coordinate_transformation_mode 'x'" in msg
    msg = compile_error(resize(None, scales(1, 1, 2, 2), antialias=1))
    assert "antialias applies to linear and cubic modes only" in msg


# ------------------------------------------------------------------ GridSample

GRID = (rand(2, 4, 7, 2, seed=1) * 1.6).astype(np.float32)
XG = rand(2, 3, 5, 6)


def grid_sample(opset=22, x=(F, [2, 3, 5, 6]), g=(F, [2, 4, 7, 2]), **attrs):
    return model("GridSample", [("x",) + x, ("g",) + g], [("y", x[0], None)], opset=opset,
                 **attrs)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
def test_grid_sample_modes(mode, pad):
    for align in (0, 1):
        check(grid_sample(mode=mode, padding_mode=pad, align_corners=align), XG, GRID, **REF)


def test_grid_sample_opset16_names_and_dynamic():
    check(grid_sample(opset=16), XG, GRID, rtol=1e-4, atol=1e-5)
    check(grid_sample(opset=16, mode="bicubic", padding_mode="reflection"), XG, GRID,
          rtol=1e-4, atol=1e-5)
    check(grid_sample(x=(F, ["N", "C", "H", "W"]), g=(F, ["N", "h", "w", 2]),
                      padding_mode="reflection"), XG, GRID, rtol=1e-4, atol=1e-5)


def test_grid_sample_other_ranks_and_types():
    g3 = (rand(1, 3, 4, 2, 3, seed=2) * 1.5).astype(np.float32)
    check(grid_sample(x=(F, [1, 2, 4, 5, 3]), g=(F, [1, 3, 4, 2, 3]), mode="cubic",
                      padding_mode="reflection"), rand(1, 2, 4, 5, 3), g3, **REF)
    g1 = (rand(2, 5, 1, seed=2) * 1.5).astype(np.float32)
    check(grid_sample(x=(F, [2, 2, 6]), g=(F, [2, 5, 1]), padding_mode="border"),
          rand(2, 2, 6), g1, **REF)
    check(grid_sample(x=(U8, [2, 3, 5, 6]), mode="nearest"),
          ints(2, 3, 5, 6, lo=0, hi=255, dtype=np.uint8), GRID, ref="reference")


# ------------------------------------------------------------------ RoiAlign

ROIS = np.array([[0, 0, 9, 9], [0, 5, 4, 9], [5, 5, 9, 9], [-3, 2, 14, 13.5],
                 [2.2, 1.1, 2.3, 1.2]], np.float32)
BATCH = np.array([0, 1, 1, 0, 1], np.int64)
XR = rand(2, 3, 10, 12)


@pytest.mark.parametrize("ratio", [0, 2])
@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("ctm", ["half_pixel", "output_half_pixel"])
def test_roi_align(ratio, mode, ctm):
    m = model("RoiAlign", [("x", F, [2, 3, 10, 12]), ("r", F, [5, 4]), ("b", I64, [5])],
              [("y", F, None)], opset=22, mode=mode, output_height=3, output_width=4,
              sampling_ratio=ratio, spatial_scale=0.8, coordinate_transformation_mode=ctm)
    check(m, XR, ROIS, BATCH, **REF)


def test_roi_align_opset10_and_dynamic():
    check(model("RoiAlign", [("x", F, [2, 3, 10, 12]), ("r", F, [5, 4]), ("b", I64, [5])],
                [("y", F, None)], opset=10, output_height=2, output_width=2),
          XR, ROIS, BATCH, rtol=1e-4, atol=1e-5)
    check(model("RoiAlign", [("x", F, ["N", "C", "H", "W"]), ("r", F, ["R", 4]),
                             ("b", I64, ["R"])], [("y", F, None)], opset=16,
                output_height=2, output_width=3), XR, ROIS, BATCH, rtol=1e-4, atol=1e-5)


def _gathers(m):
    """The resampling generics (those reading the input with tensor.extract) of `m`
    lowered to linalg."""
    from strata.compiler import build_pipeline
    from strata.frontends.onnx import import_model
    mod = import_model(m)
    build_pipeline("onnx-decompose{keep-lowered=true},onnx-fold-constants,"
                   "onnx-shape-inference,convert-onnx-to-linalg,canonicalize").run(mod)
    return sum(1 for op in mod.walk() if op.name == "linalg.generic" and
               any(o.name == "tensor.extract" for o in op.walk()))


def test_resize_run_time_sizes_equal_to_the_input_skip_their_axes():
    """Segformer's decoder: sizes computed at run time, the result type static. The
    axes whose size does not change are not resampled (only W here; none when no size
    changes), and the sizes are still checked against the type."""
    for coord in ("half_pixel", "align_corners", "pytorch_half_pixel"):
        m = model("Resize", [("x", F, [1, 2, 5, 7]), None, None, ("z", I64, [4])],
                  [("y", F, [1, 2, 5, 11])], mode="linear",
                  coordinate_transformation_mode=coord)
        sizes = np.array([1, 2, 5, 11], np.int64)
        check(m, X4, sizes, rtol=1e-4)
        assert _gathers(m) == 1
        f = strata.compile(m, cache=False)
        np.testing.assert_allclose(f(X4, sizes)[0], check(m, X4, sizes, rtol=1e-4)[0],
                                   rtol=1e-5, atol=1e-6)
        with pytest.raises(RuntimeFailure, match="output size of axis 2"):
            f(X4, np.array([1, 2, 6, 11], np.int64))
    same = model("Resize", [("x", F, [1, 2, 5, 7]), None, None, ("z", I64, [4])],
                 [("y", F, [1, 2, 5, 7])], mode="linear")
    check(same, X4, np.array([1, 2, 5, 7], np.int64), rtol=1e-6)
    assert _gathers(same) == 0


def _decoder_resize(mode="linear", coord="half_pixel", out_hw=(9, 4), rank_names=("N", "C")):
    """Segformer's decoder form: Resize(x, sizes=Concat(Shape(x)[0:2], hw)) of an input
    with named dynamic batch and channel dims."""
    import onnx
    from onnx import helper
    x = helper.make_tensor_value_info("x", F, [*rank_names, 5, 7])
    y = helper.make_tensor_value_info("y", F, None)
    inits = [onnx.numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
             (("zero", [0]), ("two", [2]), ("hw", list(out_hw)))]
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "zero", "two", "zero"], ["nc"]),
             helper.make_node("Concat", ["nc", "hw"], ["z"], axis=0),
             helper.make_node("Resize", ["x", "", "", "z"], ["y"], mode=mode,
                              coordinate_transformation_mode=coord)]
    g = helper.make_graph(nodes, "g", [x], [y], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=8)


@pytest.mark.parametrize("mode,coord", [("linear", "half_pixel"),
                                        ("linear", "align_corners"),
                                        ("nearest", "asymmetric"),
                                        ("cubic", "pytorch_half_pixel")])
def test_resize_sizes_from_the_input_shape_skip_batch_and_channels(mode, coord):
    """sizes = Concat(Shape(x)[0:2], hw) with dynamic N and C: shape inference gives the
    result N and C's symbols, and the lowering resamples H and W only (two gathers for
    linear / cubic; nearest is one gather over all axes), on any batch and channels."""
    m = _decoder_resize(mode, coord)
    if mode != "nearest":
        assert _gathers(m) == 2
    f = strata.compile(m, cache=False)
    for shape in ((1, 2, 5, 7), (3, 4, 5, 7)):
        x = rand(*shape)
        want = check(m, x, rtol=1e-4)[0]
        np.testing.assert_allclose(f(x)[0], want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(f(x)[0], expected(m, [x])[0], rtol=1e-4, atol=1e-5)
