"""math's folders (strata/dialects/math.py) on constants at the edges of each float kind,
diffed against `iree-opt --canonicalize`: rounding, sign, libm and classification ops,
NaN rules."""
from test_arith_canonicalize import (_both, _chunks, _edge_bits, _edge_consts, _func, _pairs,
                                     needs_iree)

_UNARY = ["absf", "acos", "asinh", "atan", "cbrt", "ceil", "cos", "erf", "exp", "expm1",
          "floor", "log", "log1p", "round", "roundeven", "rsqrt", "sin", "sqrt", "tanh",
          "trunc"]
_BINARY = ["powf", "atan2", "copysign"]
_CLASSIFY = ["isnan", "isinf", "isfinite", "isnormal"]
# f6E2M3FN / f4E2M1FN are left out: upstream's roundToIntegral gives 0 for every value
# of those kinds, and atan2 of zeros a NaN they cannot hold.
_KINDS = {"f16": ["0.5", "-2.5", "0.7", "100.0"], "bf16": ["2.5", "-1.0"],
          "f32": ["0.5", "-0.5", "2.5", "0.7", "88.8", "-100.0"],
          "f64": ["2.5", "-2.5", "0.7", "710.0", "1.0e-300"], "f80": ["0.5", "-2.5"],
          "f128": ["2.5", "-0.5"], "f8E5M2": ["2.5"], "f8E4M3FN": ["-3.0"]}


def _math_matrix():
    funcs = []
    for t, extra in _KINDS.items():
        consts = _edge_consts(t) + [f"  %c{len(_edge_bits(t)) + k} = arith.constant {v} : {t}"
                                    for k, v in enumerate(extra)]
        for op in _UNARY + _BINARY + _CLASSIFY:
            body = _pairs(consts, f"math.{op}", t) if op in _BINARY else [
                f"  %r{i} = math.{op} %c{i} : {t}" for i in range(len(consts))]
            funcs.append(_func(f"{t}_{op}", consts + body, "i1" if op in _CLASSIFY else t))
    return _chunks(funcs)


@needs_iree
def test_math_folds_of_constants_match_upstream():
    upstream, ours = _both(_math_matrix())
    assert "0x7E01 : f16" in upstream  # ceil of a signaling NaN: made quiet
    assert "1.18973149535723176502E+4932 : f80" in upstream  # f80 rounding folds
    assert ours == upstream
