"""convert-onnx-to-linalg, signal and linear-algebra families (DFT, STFT,
MelWeightMatrix, Det) and Cast to f8E8M0FNU: every DFT form (forward/inverse,
one-sided, padded or truncated by dft_length, real or complex, constant or run-time
axis), STFT with and without a window, mel matrices of several shapes, determinants of
batches and singular matrices, the three e8m0 rounding modes, against ONNX's reference,
onnxruntime or NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from onnx import TensorProto
from onnx_node_models import F, F16, I64, check, model, rand

D = TensorProto.DOUBLE
REF = dict(ref="reference", rtol=1e-4, atol=1e-4)
XR, XC = rand(2, 7, 3, 1), rand(2, 7, 3, 2)


def length(v):
    return ("n", np.array(v, np.int64))


@pytest.mark.parametrize("inverse,onesided", [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize("n", [None, 5, 10])
def test_dft_forms(inverse, onesided, n):
    for x in (XR, XC):
        if onesided and x is XC and not inverse:
            continue
        ins = [("x", F, list(x.shape))] + ([length(n)] if n else [])
        check(model("DFT", ins, [("y", F, None)], opset=17, axis=1, inverse=inverse,
                    onesided=onesided), x, **REF)


def test_dft_axis_input():
    check(model("DFT", [("x", F, [2, 7, 3, 2]), None, ("a", np.array(0, np.int64))],
                [("y", F, None)], opset=20), XC, **REF)
    # a run-time axis: one branch per axis the result shape allows
    check(model("DFT", [("x", F, [2, 7, 3, 2]), None, ("a", I64, [])], [("y", F, None)],
                opset=20), XC, np.array(-3, np.int64), **REF)
    check(model("DFT", [("x", F, ["a", "b", "c", 2]), None, ("a", I64, [])],
                [("y", F, None)], opset=20, inverse=1), XC, np.array(2, np.int64), **REF)


def test_dft_f64():
    check(model("DFT", [("x", D, [2, 7, 3, 1])], [("y", D, None)], opset=17),
          XR.astype(np.float64), ref="reference", rtol=1e-9, atol=1e-9)


def test_stft():
    check(model("STFT", [("x", F, [2, 40, 2]), ("st", np.array(6, np.int64)), None,
                         ("fl", np.array(8, np.int64))], [("y", F, None)], onesided=0),
          rand(2, 40, 2), **REF)
    window = np.hanning(9).astype(np.float32)
    check(model("STFT", [("x", F, [2, 40, 1]), ("st", np.array(5, np.int64)),
                         ("w", window)], [("y", F, None)], onesided=1), rand(2, 40, 1), **REF)
    check(model("STFT", [("x", F, ["B", "L", 1]), ("st", I64, []), ("w", F, ["W"])],
                [("y", F, None)], onesided=1), rand(2, 40, 1), np.array(5, np.int64),
          window, **REF)


@pytest.mark.parametrize("args", [(8, 16, 8192, 0., 4000.), (10, 64, 16000, 100., 7000.),
                                  (5, 33, 22050, 20., 11025.)])
def test_mel_weight_matrix(args):
    ins = [(n, np.array(v, np.int64 if i < 3 else np.float32))
           for i, (n, v) in enumerate(zip("abcde", args))]
    check(model("MelWeightMatrix", ins, [("y", F, None)]), ref="reference")


def test_mel_weight_matrix_run_time_f64():
    ins = [(n, I64 if i < 3 else F, []) for i, n in enumerate("abcde")]
    args = [np.array(v, np.int64) for v in (6, 20, 8000)] + \
        [np.array(v, np.float32) for v in (30., 3500.)]
    check(model("MelWeightMatrix", ins, [("y", D, [11, 6])], output_datatype=D), *args,
          ref="reference")


def test_det():
    check(model("Det", [("x", F, [5, 5])], [("y", F, None)]), rand(5, 5), rtol=1e-4)
    check(model("Det", [("x", F, [2, 3, 4, 4])], [("y", F, None)]), rand(2, 3, 4, 4),
          rtol=1e-4)
    sing = rand(3, 4, 4)
    sing[0, 2] = sing[0, 1]
    sing[1, :, 0] = 0
    check(model("Det", [("x", F, [3, 4, 4])], [("y", F, None)]), sing, rtol=1e-4,
          atol=1e-5)
    check(model("Det", [("x", F, [2, 1, 1])], [("y", F, None)]), rand(2, 1, 1))


def test_det_f64_dynamic_and_f16():
    x = rand(3, 6, 6).astype(np.float64)
    check(model("Det", [("x", D, ["a", "n", "n"])], [("y", D, None)]), x,
          want=[np.linalg.det(x)], rtol=1e-10)
    h = rand(3, 3).astype(np.float16)
    check(model("Det", [("x", F16, [3, 3])], [("y", F16, None)]), h,
          want=[np.float16(np.linalg.det(h.astype(np.float32)))], rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("round_mode", ["up", "nearest", "down"])
@pytest.mark.parametrize("saturate", [0, 1])
def test_cast_to_e8m0(round_mode, saturate):
    from onnx import numpy_helper
    import strata
    x = np.array([0, 0.1, 0.25, 0.75, 1.1, 1.5, 1.75, 3.0, 2 ** 127 * 1.9, np.inf, np.nan,
                  2 ** -127, 1e-40, 6e-39], np.float32)
    m = model("Cast", [("x", F, [len(x)])], [("y", TensorProto.FLOAT8E8M0, None)], opset=24,
              to=TensorProto.FLOAT8E8M0, round_mode=round_mode, saturate=saturate)
    got = strata.compile(m, target="interpret")(x)[0]
    want = numpy_helper.to_float8e8m0(x, saturate, round_mode)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
