"""How the coefficients of polynomial.py were obtained (run it to re-derive them; NumPy only):

    python -m strata.transforms.math.fit_coefficients

Each polynomial is a weighted minimax fit on a dense grid of its reduced interval,
computed by Lawson's algorithm (iteratively reweighted least squares, whose weights
converge to the equioscillation points), with the error measured the way it matters in
the final result (relative to expm1 / log1p / tanh, relative or absolute for erf).
Coefficients are then rounded to f32 one at a time, from the highest degree down, each
rounding followed by a refit of the lower ones (which absorbs most of the rounding
error). References are NumPy's float64 functions and Python's math.erf, exact to far
below an f32 ulp. Printed: the coefficients, and the maximum weighted error of the
rounded polynomial on its interval (before the f32 evaluation's own rounding).
"""
from __future__ import annotations

import math

import numpy as np

_POINTS = 3001
_ITERATIONS = 120


def lawson(x, y, w, powers, iterations=_ITERATIONS):
    """Coefficients c of sum_j c_j x**powers[j] minimizing max |w * (p(x) - y)|, and that
    maximum. The fit runs on x scaled to [-1, 1] (a well-conditioned Vandermonde)."""
    s = float(np.max(np.abs(x)))
    v = np.stack([(x / s) ** k for k in powers], axis=1)
    lam = np.full(len(x), 1.0 / len(x))
    for _ in range(iterations):
        sw = np.sqrt(lam) * w
        c, *_ = np.linalg.lstsq(v * sw[:, None], y * sw, rcond=None)
        e = np.abs(w * (v @ c - y))
        lam = lam * e
        lam /= lam.sum()
    return c / np.array([s ** k for k in powers]), float(e.max())


def fit_f32(x, y, w, powers):
    """`lawson`, with the coefficients rounded to f32 from the highest power down."""
    fixed: dict = {}
    rest = list(powers)
    while rest:
        target = y - sum(fixed[k] * x ** k for k in fixed)
        c, _ = lawson(x, target, w, rest)
        fixed[rest[-1]] = float(np.float32(c[-1]))
        rest.pop()
    err = np.max(np.abs(w * (sum(fixed[k] * x ** k for k in powers) - y)))
    return [fixed[k] for k in powers], float(err)


def _nonzero(a, b):
    x = np.linspace(a, b, _POINTS)
    return x[x != 0]


def fit_exp(degree=4):
    """expm1(r) = r + r**2 * q(r) on |r| <= ln2/2 (+ margin for the reduction's
    rounding); error relative to expm1(r)."""
    h = math.log(2) / 2 * 1.001
    r = _nonzero(-h, h)
    return fit_f32(r, (np.expm1(r) - r) / r ** 2, r ** 2 / np.abs(np.expm1(r)),
                   range(degree + 1))


def fit_exp2_shifted(degree=5):
    """2**r = 1 + r p(r) on |r| <= 1/2 (the softmax exp2's reduction, exact); error
    relative to 2**r."""
    r = _nonzero(-0.5, 0.5)
    return fit_f32(r, 2.0 ** r - 1.0, 1.0 / 2.0 ** r, range(1, degree + 1))


def fit_log(degree=8):
    """log1p(f) = f + f**2 * q(f) on sqrt(1/2) - 1 <= f < sqrt(2) - 1; error relative to
    log1p(f)."""
    f = _nonzero((math.sqrt(0.5) - 1) * 1.001, (math.sqrt(2) - 1) * 1.001)
    return fit_f32(f, (np.log1p(f) - f) / f ** 2, f ** 2 / np.abs(np.log1p(f)),
                   range(degree + 1))


def fit_tanh(degree=4, bound=0.625):
    """tanh(a) = a + a**3 * p(a**2) on 0 < a <= bound; error relative to tanh(a)."""
    a = np.linspace(bound / _POINTS, bound * 1.001, _POINTS)
    return fit_f32(a * a, (np.tanh(a) - a) / a ** 3, a ** 3 / np.tanh(a),
                   range(degree + 1))


def _best_center(a, b, erf):
    """A point near the middle of [a, b] where erf is closest to an f32 (the constant
    term of the piece is then nearly exact)."""
    cands = np.float32(np.linspace(a + 0.45 * (b - a), a + 0.55 * (b - a), 4001))
    cands = np.unique(cands).astype(np.float64)
    vals = erf(cands)
    err = np.abs(vals.astype(np.float32).astype(np.float64) - vals)
    return float(cands[int(np.argmin(err))])


def fit_erf(splits=(0.0, 1.0, 2.2, 3.92), degree=9):
    """erf on [0, splits[-1]] by pieces, each `c0 + (t + t * p(t))` with t = x - m and p
    of `degree` - 1: the first piece has m = c0 = 0 (error relative to erf), the others
    their center m and c0 = f32(erf(m)) (absolute error). Returns [(m, c0, p), ...] and
    the errors."""
    erf = np.vectorize(math.erf, otypes=[np.float64])
    pieces, errors = [], []
    for i in range(len(splits) - 1):
        lo, hi = splits[i], splits[i + 1]
        if i == 0:
            x = np.linspace(hi / _POINTS, hi, _POINTS)
            p, e = fit_f32(x, erf(x) / x - 1, x / erf(x), range(degree))
            pieces.append((0.0, 0.0, p))
        else:
            m = _best_center(lo, hi, erf)
            c0 = float(np.float32(math.erf(m)))
            x = np.linspace(lo, hi, _POINTS)
            t = x - m
            c, e = fit_f32(t, erf(x) - c0 - t, np.ones_like(t), range(1, degree + 1))
            pieces.append((m, c0, c))
        errors.append(e)
    return pieces, errors


def main():
    for name, (coeffs, err) in (("EXP_Q", fit_exp()), ("LOG_Q", fit_log()),
                                ("TANH_P", fit_tanh()),
                                ("EXP2_P", fit_exp2_shifted())):
        print(f"{name} = ({', '.join(repr(c) for c in coeffs)})  # max error {err:.2e}")
    pieces, errors = fit_erf()
    for (m, c0, p), e in zip(pieces, errors):
        print(f"ERF piece m={m!r} c0={c0!r} p=({', '.join(repr(c) for c in p)})"
              f"  # max error {e:.2e}")


if __name__ == "__main__":
    main()
