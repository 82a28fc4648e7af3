"""The test models (tests/e2e/models.py) imported, lowered and run — by the interpreter
and as native code (the cpu target) — against onnxruntime on the same inputs, at two
batch sizes from one compilation."""
from __future__ import annotations

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")

import strata  # noqa: E402
from models import cnn, mlp, transformer_encoder  # noqa: E402


def _ort(model, x):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"input": x})[0]


CASES = {
    "mlp": (mlp, lambda n, rng: rng.standard_normal((n, 64))),
    "cnn": (cnn, lambda n, rng: rng.standard_normal((n, 3, 16, 16))),
    "transformer_encoder": (transformer_encoder, lambda n, rng: rng.standard_normal((n, 7, 32))),
}


TARGETS = ("interpret", "cpu")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_model_matches_onnxruntime(name, target):
    build, make_input = CASES[name]
    model = build()
    fn = strata.compile(model, target=target)
    rng = np.random.default_rng(1)
    for n in (1, 3):
        x = make_input(n, rng).astype(np.float32)
        got = fn(x)[0]
        ref = _ort(model, x)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        assert np.max(np.abs(got - ref)) <= 1e-4, f"{name} batch {n}"
        # by input name too
        np.testing.assert_array_equal(fn(input=x)[0], got)


@pytest.mark.parametrize("target", TARGETS)
def test_wrong_input_is_a_clear_error(target):
    fn = strata.compile(mlp(), target=target)
    with pytest.raises(strata.StrataError, match="input"):
        fn(np.zeros((2, 63), np.float32))
    with pytest.raises(strata.StrataError):
        fn(np.zeros((2, 64), np.float64))
    with pytest.raises(strata.StrataError):
        fn()
