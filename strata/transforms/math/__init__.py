"""Math rewrites.

    strata-math-polynomial-approximation   math.exp, exp2, expm1, log, log2, log10,
        log1p, tanh and erf on f32 (scalars or vectors; f16 and bf16 computed in f32)
        become polynomial approximations written in arith and math ops that lower to
        instructions (polynomial.py), instead of calls of the C math library that keep
        LLVM from vectorizing the loops computing them. f64 is left to the library.
        Option `ops`: the functions to rewrite (default: all of the above, and powf).
        math.powf by a constant exponent 2, 3, 4, -1 or -2 (any float type) becomes
        products (and a division), as upstream's algebraic simplification does: a
        GELU's x^3 (GPT-2's tanh form) was a scalar libm call per element.

Upstream MLIR has such patterns (populateMathPolynomialApproximationPatterns) but
registers them only as a test pass (`test-math-polynomial-approximation`), hence a
Strata name. The approximations and their coefficients are Strata's own
(fit_coefficients.py).

[Note: accuracy]
Errors in ulps of the exact value (a correctly rounded result is within 0.5), measured
against NumPy float64 (Python's math.erf for erf) on every 257th f32 bit pattern (1.7e7
values: both signs, every binade, the subnormals, inf, NaN) plus dense grids around the
bounds of the pieces, compiled for the CPU (FMA contraction), and on every 16385th
pattern plus the same grids through the interpreter (no FMA); the worse of the two:

    function   max error       max relative error   notes
    exp        1.03 ulp        8.3e-8               -104 < x < 88.72 (0 / inf outside)
    exp2       1.04 ulp        8.5e-8
    expm1      1.65 ulp        1.2e-7
    log        0.87 ulp        8.1e-8               x > 0
    log2       1.92 ulp        1.5e-7
    log10      1.94 ulp        1.4e-7
    log1p      0.90 ulp        8.4e-8               x > -1
    tanh       1.31 ulp        1.4e-7               absolute error 7.8e-8
    erf        1.47 ulp        1.1e-7               absolute error 8.7e-8

Relative errors exclude subnormal results (those count in ulps of 2**-149). Special
values are IEEE's: exp(+-inf) = +inf / 0, overflow to +inf, underflow to 0, log(0) =
-inf, log(x < 0) = NaN, log(+inf) = +inf, log1p(-1) = -inf, tanh(+-inf) = +-1, erf(+-inf)
= +-1, NaN in -> NaN out, and -0 stays -0 where the function is odd.
"""
from __future__ import annotations

from ...conversion.scalar_builders import op_class
from ...ir import attributes as A
from ...ir.builder import Builder, InsertionPoint
from ...passes.pass_manager import Option, Pass
from ...passes.registry import register_pass
from .polynomial import APPROXIMATIONS, Approx, emit

__all__ = ["MathPolynomialApproximation", "approximate", "APPROXIMATIONS"]

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


# [Note: powers by products]
# pow(x, 2) = x*x and pow(x, -1) = 1/x are correctly rounded as pow is; x^3, x^4 and
# x^-2 round twice (within an ulp or so). The special values agree: NaN stays NaN,
# pow(+-inf, n) and pow(+-0, -n) come out as the products and quotients give them
# (pow(-0, -1) = 1/-0 = -inf, pow(-inf, 3) = -inf).
_POWERS = (2.0, 3.0, 4.0, -1.0, -2.0)


def _constant_exponent(v):
    """The exponent `v` holds when it is a constant (a scalar or a splat vector)."""
    d = v.defining_op
    if d is None or d.name != "arith.constant":
        return None
    a = d.properties.get("value")
    if isinstance(a, A.FloatAttr):
        return a.value
    from ...ir.dense import DenseElementsAttr
    if isinstance(a, DenseElementsAttr) and a.is_splat:
        return float(a.splat_value)
    return None


def pow_by_products(op) -> bool:
    """Replace math.powf `op` by products if its exponent is one of _POWERS."""
    n = _constant_exponent(op.operands[1])
    if n not in _POWERS:
        return False
    x, t = op.operands[0], op.results[0].type
    if n < 0 and type(t) is not A.FloatType:
        return False                    # 1/x^n of vectors: left to the library
    b = Builder(InsertionPoint.before_op(op), op.loc)

    def binary(name, a, c):
        return b.insert(op_class(name).create([a, c], [t], loc=op.loc)).results[0]
    y = x if n == -1.0 else binary("arith.mulf", x, x)
    if n in (3.0, 4.0):
        y = binary("arith.mulf", y, x if n == 3.0 else y)
    if n < 0:
        one = {"value": A.FloatAttr(1.0, t)}
        c = b.insert(op_class("arith.constant").create([], [t], one, loc=op.loc)).results[0]
        y = binary("arith.divf", c, y)
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
        if not self.ops:
            for o in [o for o in op.walk() if o.name == "math.powf"]:
                pow_by_products(o)


register_pass(MathPolynomialApproximation)
