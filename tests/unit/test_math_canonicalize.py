"""math's folders (strata/dialects/math.py) on constants at the edges of each float kind,
diffed against `iree-opt --canonicalize`: rounding, sign, libm and classification ops,
NaN rules."""
from test_arith_canonicalize import _both, _edge_bits, needs_iree

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
    from strata.ir.dense import FLOAT_KINDS
    funcs = []
    for t, extra in _KINDS.items():
        digits = (FLOAT_KINDS[t] + 3) // 4
        consts = [f"0x{p:0{digits}X}" for p in _edge_bits(t)] + extra
        decl = [f"  %c{k} = arith.constant {v} : {t}" for k, v in enumerate(consts)]
        n = len(consts)
        for op in _UNARY + _BINARY + _CLASSIFY:
            rt = "i1" if op in _CLASSIFY else t
            if op in _BINARY:
                body = [f"  %r{i}_{j} = math.{op} %c{i}, %c{j} : {t}"
                        for i in range(n) for j in range(n)]
            else:
                body = [f"  %r{i}_0 = math.{op} %c{i} : {t}" for i in range(n)]
            rets = [line.split(" = ")[0].strip() for line in body]
            types = ", ".join([rt] * len(rets))
            funcs.append(f"func.func @{t}_{op}() -> ({types}) {{\n" + "\n".join(decl + body)
                         + f"\n  return {', '.join(rets)} : {types}\n}}")
    return "\n// -----\n".join(funcs) + "\n"


@needs_iree
def test_math_folds_of_constants_match_upstream():
    upstream, ours = _both(_math_matrix())
    assert "0x7E01 : f16" in upstream  # ceil of a signaling NaN: made quiet
    assert "1.18973149535723176502E+4932 : f80" in upstream  # f80 rounding folds
    assert ours == upstream
