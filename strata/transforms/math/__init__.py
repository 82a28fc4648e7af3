"""Math rewrites.

    strata-math-polynomial-approximation   math.exp, exp2, expm1, log, log2, log10,
        log1p, tanh and erf on f32 (scalars or vectors; f16 and bf16 computed in f32)
        become polynomial approximations written in arith and math ops that lower to
        instructions (polynomial.py), instead of calls of the C math library that keep
        LLVM from vectorizing the loops computing them. f64 is left to the library.
        Option `ops`: the functions to rewrite (default: all of the above).

Upstream MLIR has such patterns (populateMathPolynomialApproximationPatterns) but
registers them only as a test pass (`test-math-polynomial-approximation`), hence a
Strata name. The approximations and their coefficients are Strata's own
(fit_coefficients.py).

[Note: accuracy]
Measured against NumPy float64 (math.erf for erf) on every f32 (exp, exp2, expm1, log,
log2, log10, log1p, tanh) or 2**24 evenly spread f32 of [-5, 5] and 1e6 of [-100, 100]
(erf), both without FMA contraction (the interpreter) and with it (the CPU target):

    function   max error (finite results)                domain of the figure
    exp        1 ulp (relative 1.2e-7)                   results >= 2**-126
    exp2       1 ulp                                     results >= 2**-126
    expm1      2 ulp (relative 1.9e-7)                   all
    log        1 ulp (relative 1.1e-7)                   x > 0
    log2       2 ulp                                     x > 0
    log10      2 ulp                                     x > 0
    log1p      2 ulp (relative 1.6e-7)                   x > -1
    tanh       2 ulp (relative 1.6e-7)                   all
    erf        absolute 6e-8; 2 ulp (relative 1.8e-7)    all

Results in the subnormal range (exp below -87.3) are within 1 subnormal ulp. Special
values are IEEE's: exp(+-inf) = +inf / 0, overflow to +inf, underflow to 0, log(0) =
-inf, log(x < 0) = NaN, log(+inf) = +inf, log1p(-1) = -inf, tanh(+-inf) = +-1, erf(+-inf)
= +-1, NaN in -> NaN out, and -0 stays -0 where the function is odd.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.builder import Builder, InsertionPoint
from ...passes.pass_manager import Option, Pass
from ...passes.registry import register_pass
from .polynomial import APPROXIMATIONS, Approx, emit

__all__ = ["MathPolynomialApproximation", "approximate"]

_COMPUTED_IN_F32 = ("f16", "bf16")


def _with_elem(t, e):
    return A.VectorType(t.shape, e) if type(t) is A.VectorType else e


def _approximable(t):
    """The element type's name if `t` is a float scalar or vector the approximations
    take (directly or through f32), else None."""
    e = t.element_type if type(t) is A.VectorType else t
    if type(e) is A.FloatType and (e.name == "f32" or e.name in _COMPUTED_IN_F32):
        return e.name
    return None


def approximate(op) -> bool:
    """Replace the math op `op` (one of APPROXIMATIONS) by its approximation; False (and
    nothing changed) if its type is not one the approximations take."""
    t = op.results[0].type
    kind = _approximable(t)
    if kind is None:
        return False
    from ...conversion.scalar_builders import op_class
    b = Builder(InsertionPoint.before_op(op), op.loc)
    x = op.operands[0]
    f32 = _with_elem(t, A.f32)
    if kind != "f32":
        x = b.insert(op_class("arith.extf").create([x], [f32], loc=op.loc)).results[0]
    y = emit(Approx(b, op.loc, f32), op.name[5:], x)
    if kind != "f32":
        y = b.insert(op_class("arith.truncf").create([y], [t], loc=op.loc)).results[0]
    op.replace_all_uses_with([y])
    op.erase()
    return True


class MathPolynomialApproximation(Pass):
    name = "strata-math-polynomial-approximation"
    summary = ("Approximate math functions of f32 (f16, bf16) by polynomials in arith ops "
               "(vectorizable, no library calls)")
    ops = Option(str, [], "math functions to approximate (default: "
                 + ",".join(APPROXIMATIONS) + ")", is_list=True,
                 choices=tuple(APPROXIMATIONS))

    def run(self, op):
        names = {"math." + n for n in (self.ops or APPROXIMATIONS)}
        for o in [o for o in op.walk() if o.name in names]:
            approximate(o)


register_pass(MathPolynomialApproximation)
