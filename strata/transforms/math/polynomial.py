"""f32 approximations of math functions built from arith and math ops that LLVM turns
into vector instructions (see the pass in __init__.py for the accuracy figures).

    y = emit(Approx(builder, loc, x.type), "exp", x)

Every approximation is straight-line code: range reduction, a polynomial evaluated by
Horner's rule, reconstruction, and `arith.select`s for the special values. No call, no
branch and no table, so a loop computing it vectorizes. Multiplications and additions
carry the fast-math flag `contract` (LLVM fuses them into FMAs where the target has
them; the figures hold either way). The coefficients are our own minimax fits:
fit_coefficients.py derives them.

[Note: range reductions]
- exp: x = k ln2 + r, k = roundeven(x log2(e)), |r| <= ln2/2 (Cody and Waite: ln2 in
  two parts, the first with 15 significant bits so that k * LN2_HI is exact for
  |k| < 2**9); exp(r) = 1 + (r + r**2 q(r)); 2**k is built from the exponent bits, in
  two factors 2**(k>>1) * 2**(k - (k>>1)) so that the products near overflow and in the
  subnormal range round once, at the end.
- softmax_exp2 (2**x for x <= 0 only: a softmax's shifted scores in the log2 domain):
  x = k + r, k = x rounded to an integer (to even), |r| <= 1/2 (exact); 2**r =
  1 + r p(r), one product by 2**k built from the exponent bits. x is clamped to -126 and the result is 0 below it
  (2**-126 is the smallest normal float: nothing subnormal is ever computed, stored or
  summed, which would cost a microcode assist per operation on x86): about half the
  operations of exp.
- log: x = 2**k * m with m in [sqrt(1/2), sqrt(2)) (subtracting the bits of sqrt(1/2)
  from x's bits puts k in the exponent field and m's mantissa below it); subnormal x is
  scaled by 2**23 first. log(x) = k ln2 + log1p(f), f = m - 1 (exact), log1p(f) =
  f + f**2 q(f).
- log1p: u = 1 + x rounded, c = the rounding error of that sum (exact, Fast2Sum);
  log1p(x) = log(u) + c / u.
- expm1: the exp reduction, then 2**k (1 + e) - 1 = 2 (t e + (t - 1/2)) with t =
  2**(k-1), which keeps the cancellation exact for small k and the product finite up to
  the overflow threshold.
- tanh: |x| < 0.625: x + x**3 p(x**2); above, 1 - 2 / (exp(2|x|) + 1) (|x| is clamped to
  10, where tanh is 1 in f32); the sign is copied back.
- erf: |x| in [0, 1), [1, 2.2), [2.2, 3.92) (erf is 1 in f32 from 3.92 on):
  one polynomial form `c0 + (t + t p(t))`, t = |x| - m, whose constants m, c0 and the
  coefficients of p are selected by interval (one Horner evaluation, no gather); the
  first interval has m = c0 = 0, so small |x| keeps its relative accuracy.
"""
from __future__ import annotations

import math

from ...conversion.scalar_builders import op_class
from ...dialects.arith import FASTMATH
from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr

__all__ = ["Approx", "emit", "APPROXIMATIONS"]

# expm1(r) ~ r + r**2 * q(r), |r| <= ln2/2: max error 1.8e-8 relative to expm1(r).
EXP_Q = (0.4999999701976776, 0.1666654348373413, 0.04166720062494278,
         0.008366584777832031, 0.0013882503844797611)
# 2**r ~ 1 + r * p(r), |r| <= 1/2: max error 1.1e-7 relative (softmax_exp2).
EXP2_P = (0.6931470036506653, 0.24022242426872253, 0.05550733953714371,
          0.009671519510447979, 0.0013264705194160342)
# log1p(f) ~ f + f**2 * q(f), sqrt(1/2) - 1 <= f < sqrt(2) - 1: 5.6e-9 relative.
LOG_Q = (-0.49999988079071045, 0.33333325386047363, -0.2500159442424774,
         0.2000199556350708, -0.16608770191669464, 0.14181207120418549,
         -0.13245122134685516, 0.12909437716007233, -0.076225146651268)
# tanh(a) ~ a + a**3 * p(a**2), 0 <= a < 0.625: 7.5e-9 relative.
TANH_P = (-0.3333328068256378, 0.13331428170204163, -0.053738489747047424,
          0.020634902641177177, -0.005700118839740753)
TANH_SMALL = 0.625
# erf by pieces: (upper bound, m, c0, p): erf(x) ~ c0 + (t + t * p(t)), t = x - m.
# Errors 1.6e-8 relative, 1.6e-8 and 2.4e-8 absolute.
ERF_PIECES = (
    (1.0, 0.0, 0.0,
     (0.12837915122509003, 2.229936853836989e-06, -0.3761855959892273,
      0.0006054897676222026, 0.10973198711872101, 0.008935735560953617,
      -0.041839178651571274, 0.01417853869497776, -0.0011075567454099655)),
    (2.2, 1.581339955329895, 0.9746713042259216,
     (-0.9074358940124512, -0.14637508988380432, 0.12345930933952332,
      -0.04882928356528282, -0.006172638386487961, 0.01632079854607582,
      -0.0057879965752363205, -0.0013636379735544324, 0.001334770699031651)),
    (3.92, 3.138474941253662, 0.9999909400939941,
     (-0.9999405741691589, -0.00018685769464354962, 0.0003726721042767167,
      -0.0005190163501538336, 0.0005309371626935899, -0.00043188012205064297,
      0.0002798023633658886, -0.0001007746031973511, 2.1497069155884674e-06)),
)

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453
LN2_HI = 0.693145751953125        # ln2 to 15 significant bits: k * LN2_HI is exact
LN2_LO = 1.428606765330187e-06    # f32(ln2 - LN2_HI)
LOG10_2_HI = 0.301025390625       # log10(2) to 12 significant bits
LOG10_2_LO = 4.605039066518657e-06  # f32(log10(2) - LOG10_2_HI)
LOG10E = 0.4342944819032518
SQRT_HALF_BITS = 0x3F3504F3       # f32 sqrt(1/2)
ROUND_MAGIC = 12582912.0          # 1.5 * 2**23: x + it rounds x to an integer in its bits
TINY = 2.0 ** -25                 # below it, expm1(x) and log1p(x) round to x
INF = math.inf

_CMPF = {p: i for i, p in enumerate(
    ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge",
     "ult", "ule", "une", "uno", "true"))}
_CONTRACT = FASTMATH("contract")


class Approx:
    """Builds the arith/math ops of an approximation on values of type `t` (f32 or a
    vector of f32) before the builder's insertion point. Constants are created once per
    instance."""

    __slots__ = ("b", "loc", "t", "it", "bt", "_consts")

    def __init__(self, builder, loc, t):
        self.b, self.loc, self.t = builder, loc, t
        vec = type(t) is A.VectorType
        self.it = A.VectorType(t.shape, A.i32) if vec else A.i32
        self.bt = A.VectorType(t.shape, A.i1) if vec else A.i1
        self._consts = {}

    # -- plumbing
    def op(self, name, operands, rt, props=None):
        o = op_class(name).create(list(operands), [rt], props, loc=self.loc)
        return self.b.insert(o).results[0]

    def const(self, value, t):
        key = (repr(value), t)          # repr: -0.0 and 0.0 are different constants
        v = self._consts.get(key)
        if v is None:
            if type(t) is A.VectorType:
                attr = DenseElementsAttr(t, value)
            elif type(t) is A.FloatType:
                attr = A.FloatAttr(float(value), t)
            else:
                attr = A.IntegerAttr(int(value), t)
            v = self._consts[key] = self.op("arith.constant", [], t, {"value": attr})
        return v

    def f(self, value):
        return self.const(float(value), self.t)

    def i(self, value):
        return self.const(int(value), self.it)

    def _fop(self, name, a, b):
        return self.op(name, [a, b], self.t, {"fastmath": _CONTRACT})

    # -- float arithmetic (operands: values or Python numbers)
    def _v(self, x):
        return x if not isinstance(x, (int, float)) else self.f(x)

    def add(self, a, b):
        return self._fop("arith.addf", self._v(a), self._v(b))

    def sub(self, a, b):
        return self._fop("arith.subf", self._v(a), self._v(b))

    def mul(self, a, b):
        return self._fop("arith.mulf", self._v(a), self._v(b))

    def div(self, a, b):
        return self._fop("arith.divf", self._v(a), self._v(b))

    def muladd(self, a, b, c):
        """a * b + c (contractible into one FMA)."""
        return self.add(self.mul(a, b), c)

    def horner(self, x, coeffs):
        """coeffs[0] + x * (coeffs[1] + x * (...)); coeffs are numbers or values."""
        acc = self._v(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = self.muladd(acc, x, c)
        return acc

    def math(self, name, *xs):
        return self.op("math." + name, [self._v(x) for x in xs], self.t)

    def cmp(self, pred, a, b):
        return self.op("arith.cmpf", [self._v(a), self._v(b)], self.bt,
                       {"predicate": A.IntegerAttr(_CMPF[pred], A.i64)})

    def select(self, c, a, b):
        a, b = self._v(a), self._v(b)
        return self.op("arith.select", [c, a, b], a.type)

    def clamp_below(self, x, lo):
        """max(x, lo) keeping NaN (an ordered compare is false for it)."""
        return self.select(self.cmp("olt", x, lo), lo, x)

    def clamp_above(self, x, hi):
        return self.select(self.cmp("ogt", x, hi), hi, x)

    # -- integers (i32 of the same shape)
    def ibin(self, name, a, b):
        a = a if not isinstance(a, int) else self.i(a)
        b = b if not isinstance(b, int) else self.i(b)
        return self.op(name, [a, b], self.it)

    def to_bits(self, x):
        return self.op("arith.bitcast", [x], self.it)

    def from_bits(self, n):
        return self.op("arith.bitcast", [n], self.t)

    def pow2(self, k):
        """2**k as a float, for integer k in [-126, 127]."""
        e = self.ibin("arith.shli", self.ibin("arith.addi", k, 127), 23)
        return self.from_bits(e)


# ---------------------------------------------------------------------------- exp


def _exp_reduce(ap, x):
    """(k as float, expm1(r)) with x = k ln2 + r, for |x| < 2**9 * ln2."""
    k = ap.math("roundeven", ap.mul(x, LOG2E))
    r = ap.sub(x, ap.mul(k, LN2_HI))
    r = ap.sub(r, ap.mul(k, LN2_LO))
    return k, _expm1_poly(ap, r)


def _expm1_poly(ap, r):
    return ap.muladd(ap.mul(r, r), ap.horner(r, EXP_Q), r)


def _exp_scaled(ap, k, em1):
    """(1 + em1) * 2**k for k in [-252, 254]: two factors, one rounding."""
    ki = ap.op("arith.fptosi", [k], ap.it)
    k1 = ap.ibin("arith.shrsi", ki, 1)
    k2 = ap.ibin("arith.subi", ki, k1)
    p = ap.add(em1, 1.0)
    return ap.mul(ap.mul(p, ap.pow2(k1)), ap.pow2(k2))


def exp(ap, x):
    # exp(x) is +inf above 88.73 and rounds to 0 below -103.98; the clamps keep k in
    # [-150, 129] (the product then overflows / underflows as it should).
    c = ap.clamp_above(ap.clamp_below(x, -104.0), 89.0)
    k, em1 = _exp_reduce(ap, c)
    y = _exp_scaled(ap, k, em1)
    return ap.select(ap.cmp("uno", x, x), x, y)


def exp2(ap, x):
    c = ap.clamp_above(ap.clamp_below(x, -151.0), 129.0)
    k = ap.math("roundeven", c)
    r = ap.mul(ap.sub(c, k), LN2)
    y = _exp_scaled(ap, k, _expm1_poly(ap, r))
    return ap.select(ap.cmp("uno", x, x), x, y)


def softmax_exp2(ap, x):
    """2**x for x <= 0, -inf and NaN ([Note: range reductions]): 0 below -126, NaN kept
    (it reaches the product). Positive x is not its domain (2**k overflows the exponent
    field above 127)."""
    below = ap.cmp("olt", x, -126.0)
    c = ap.select(below, -126.0, x)
    # k = roundeven(c) by adding 1.5 * 2**23 (the sum's last bits are k): no float to
    # int conversion, whose NaN would be poison; 2**k from the sum's bits (pow2 keeps
    # the low ones)
    t = ap.add(c, ROUND_MAGIC)
    k = ap.sub(t, ROUND_MAGIC)
    p = ap.horner(ap.sub(c, k), (1.0, *EXP2_P))
    return ap.select(below, 0.0, ap.mul(p, ap.pow2(ap.to_bits(t))))


def expm1(ap, x):
    # expm1 is -1 in f32 below -17.33; +inf above 88.73.
    c = ap.clamp_above(ap.clamp_below(x, -18.0), 89.0)
    k, em1 = _exp_reduce(ap, c)
    ki = ap.op("arith.fptosi", [k], ap.it)
    t = ap.pow2(ap.ibin("arith.subi", ki, 1))             # 2**(k-1), k in [-26, 128]
    y = ap.mul(ap.muladd(t, em1, ap.sub(t, 0.5)), 2.0)
    # Tiny |x| (zeros and subnormals included) and NaN: x itself.
    return ap.select(ap.cmp("ult", ap.math("absf", x), TINY), x, y)


# ---------------------------------------------------------------------------- log


def _log_reduce(ap, x, subnormals=True):
    """(k as float, f, f**2 q(f)) with x = 2**k (1 + f), for finite x > 0."""
    if subnormals:
        sub = ap.cmp("olt", x, 2.0 ** -126)
        x = ap.select(sub, ap.mul(x, 2.0 ** 23), x)
    ix = ap.ibin("arith.subi", ap.to_bits(x), SQRT_HALF_BITS)
    k = ap.op("arith.sitofp", [ap.ibin("arith.shrsi", ix, 23)], ap.t)
    if subnormals:
        k = ap.sub(k, ap.select(sub, 23.0, 0.0))
    m = ap.from_bits(ap.ibin("arith.addi", ap.ibin("arith.andi", ix, 0x7FFFFF),
                             SQRT_HALF_BITS))
    f = ap.sub(m, 1.0)
    return k, f, ap.mul(ap.mul(f, f), ap.horner(f, LOG_Q))


def _log_specials(ap, x, y):
    """log's values at x < 0 or NaN (NaN), 0 (-inf) and +inf (+inf)."""
    y = ap.select(ap.cmp("ult", x, 0.0), math.nan, y)
    y = ap.select(ap.cmp("oeq", x, 0.0), -INF, y)
    return ap.select(ap.cmp("oeq", x, INF), INF, y)


def log(ap, x):
    k, f, w = _log_reduce(ap, x)
    y = ap.muladd(k, LN2_HI, ap.add(f, ap.muladd(k, LN2_LO, w)))
    return _log_specials(ap, x, y)


def log2(ap, x):
    k, f, w = _log_reduce(ap, x)
    y = ap.add(k, ap.muladd(f, LOG2E, ap.mul(w, LOG2E)))
    return _log_specials(ap, x, y)


def log10(ap, x):
    k, f, w = _log_reduce(ap, x)
    y = ap.muladd(k, LOG10_2_HI, ap.muladd(ap.add(f, w), LOG10E, ap.mul(k, LOG10_2_LO)))
    return _log_specials(ap, x, y)


def log1p(ap, x):
    u = ap.add(x, 1.0)
    # The rounding error of u = x + 1, exactly (Fast2Sum, larger operand first).
    c = ap.select(ap.cmp("oge", x, 1.0), ap.sub(1.0, ap.sub(u, x)), ap.sub(x, ap.sub(u, 1.0)))
    k, f, w = _log_reduce(ap, u, subnormals=False)   # u is 0 or at least 2**-24
    y = ap.muladd(k, LN2_HI, ap.add(f, ap.add(ap.muladd(k, LN2_LO, w), ap.div(c, u))))
    y = _log_specials(ap, u, y)
    return ap.select(ap.cmp("ult", ap.math("absf", x), TINY), x, y)


# ---------------------------------------------------------------------------- tanh, erf


def tanh(ap, x):
    a = ap.math("absf", x)
    small = ap.muladd(ap.mul(a, ap.mul(a, a)), ap.horner(ap.mul(a, a), TANH_P), a)
    # The clamp keeps k in exp's reduction small (tanh(10) is 1 in f32); NaN lanes take
    # the small branch (`ult`), which propagates them.
    k, em1 = _exp_reduce(ap, ap.clamp_above(ap.add(a, a), 20.0))
    e = ap.mul(ap.add(em1, 1.0), ap.pow2(ap.op("arith.fptosi", [k], ap.it)))
    large = ap.sub(1.0, ap.div(2.0, ap.add(e, 1.0)))
    t = ap.select(ap.cmp("ult", a, TANH_SMALL), small, large)
    return ap.math("copysign", t, x)


def erf(ap, x):
    a = ap.math("absf", x)
    # Select the constants of a's piece: the last piece by default, then each lower one
    # whose bound a is under (NaN compares false: the last piece, which propagates it).
    consts = [ap.f(v) for v in (ERF_PIECES[-1][1], ERF_PIECES[-1][2], *ERF_PIECES[-1][3])]
    for bound, m, c0, p in reversed(ERF_PIECES[:-1]):
        below = ap.cmp("olt", a, bound)
        consts = [ap.select(below, ap.f(v), cur) for v, cur in zip((m, c0, *p), consts)]
    m, c0, p = consts[0], consts[1], consts[2:]
    t = ap.sub(a, m)
    y = ap.add(c0, ap.muladd(t, ap.horner(t, p), t))
    # erf is 1 in f32 from 3.92 on (+inf included; NaN keeps the polynomial's NaN).
    y = ap.select(ap.cmp("oge", a, ERF_PIECES[-1][0]), 1.0, y)
    return ap.math("copysign", y, x)


APPROXIMATIONS = {"exp": exp, "exp2": exp2, "expm1": expm1, "log": log, "log2": log2,
                  "log10": log10, "log1p": log1p, "tanh": tanh, "erf": erf}


def emit(ap, name, x):
    """The approximation of math.`name` at x (a value of type ap.t)."""
    return APPROXIMATIONS[name](ap, x)
