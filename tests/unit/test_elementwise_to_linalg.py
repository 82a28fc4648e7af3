"""convert-elementwise-to-linalg: values kept (interpreter before/after), and tensor
MLIR with arith/math ops on tensors compiles for the CPU target."""
import numpy as np

import strata
from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

MLIR = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: i1) -> tensor<?x4xf32> {
  %0 = arith.addf %a, %b : tensor<?x4xf32>
  %1 = math.exp %0 : tensor<?x4xf32>
  %2 = arith.cmpf olt, %1, %a : tensor<?x4xf32>
  %3 = arith.select %2, %1, %b : tensor<?x4xi1>, tensor<?x4xf32>
  %4 = arith.select %c, %3, %a : tensor<?x4xf32>
  return %4 : tensor<?x4xf32>
}
"""


def _ref(a, b, c):
    e = np.exp(a + b)
    r = np.where(e < a, e, b)
    return r if c else a


def test_values_kept():
    check_pass_preserves_semantics(MLIR, "convert-elementwise-to-linalg")


def test_compiles_for_cpu():
    f = strata.compile(parse_source(MLIR, default_context(), "<test>"))
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    for c in (True, False):
        (y,) = f(a, b, np.bool_(c))
        np.testing.assert_allclose(y, _ref(a, b, c), rtol=1e-6)
