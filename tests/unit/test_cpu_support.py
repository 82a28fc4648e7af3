"""The CPU target's own compiler-runtime helpers (strata/backends/cpu/support.py):
float -> bfloat rounding as ml_dtypes does it (nearest even, NaN kept)."""
import ctypes

import numpy as np
import pytest

pytest.importorskip("llvmlite")
ml_dtypes = pytest.importorskip("ml_dtypes")

from strata.backends.cpu.jit import JitModule  # noqa: E402
from strata.backends.cpu.support import support_symbols  # noqa: E402

WRAPPER = """declare bfloat @__truncsfbf2(float)
define i16 @bits(float %x) {
  %b = call bfloat @__truncsfbf2(float %x)
  %i = bitcast bfloat %b to i16
  ret i16 %i
}
"""


def test_truncsfbf2_rounds_like_ml_dtypes():
    j = JitModule(WRAPPER, symbols=support_symbols())
    f = ctypes.CFUNCTYPE(ctypes.c_uint16, ctypes.c_float)(j.address_of("bits"))
    rng = np.random.default_rng(0)
    xs = np.concatenate([
        np.array([0.0, -0.0, 1.0, 3.14159, -2.5e-3, 65504.0, 3.4e38, np.inf, -np.inf,
                  1.00390625, 1.01171875, 1e-40], np.float32),
        rng.standard_normal(200).astype(np.float32) * 1e3])
    got = np.array([f(float(x)) for x in xs], np.uint16)
    np.testing.assert_array_equal(got, xs.astype(ml_dtypes.bfloat16).view(np.uint16))
    nan = f(float("nan"))
    assert nan & 0x7F80 == 0x7F80 and nan & 0x7F  # still a NaN
