"""strata-math-polynomial-approximation (strata/transforms/math): the approximations'
accuracy against NumPy float64 (math.erf for erf), run by the interpreter (no FMA) and
compiled for the CPU (FMA contraction), their special values, f16 through f32, the
vectorized loops (no library call left), and ONNX models using them. The IR the pass
writes is checked in tests/lit/passes/strata-math-polynomial-approximation."""
from __future__ import annotations

import math

import numpy as np
import pytest

from strata.compiler import build_pipeline
from strata.dialects import default_context
from strata.interpreter import Interpreter
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics
from strata.transforms.math import APPROXIMATIONS

PASS = "strata-math-polynomial-approximation"
NAMES = tuple(APPROXIMATIONS)
_erf = np.vectorize(math.erf, otypes=[np.float64])
REFERENCE = {"exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log,
             "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "tanh": np.tanh,
             "erf": _erf}
ODD = ("expm1", "log1p", "tanh", "erf")     # f(-0) = -0
SPECIAL = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40, 2.0 ** -126, 1.0, -1.0, 0.5,
                    -0.5, 0.625, 3.92, -3.92, 88.72, 88.73, -87.3, -103.9, -104.0, 1e30,
                    -1e30, 3.4e38, -3.4e38, math.inf, -math.inf, math.nan, -0.99999994,
                    -1.0000001, 17.4, -17.4, 9.1, -9.1], np.float32)


def _samples():
    """Every 2**16-th f32 bit pattern (all binades, both signs, inf and NaN), dense
    grids where the approximations change pieces or saturate, and the special values."""
    strided = np.arange(0, 2 ** 32, 2 ** 16 + 1, dtype=np.uint64).astype(np.uint32)
    grids = [np.linspace(-5, 5, 20001), np.linspace(-0.4, 0.4, 4001),
             np.linspace(85, 90, 2001), np.linspace(-105, -85, 2001),
             np.linspace(-1, -0.9, 1001), np.linspace(0.6, 0.65, 1001)]
    return np.concatenate([strided.view(np.float32), np.concatenate(grids).astype(np.float32),
                           SPECIAL])


X = _samples()


def check_accuracy(name, x, got, max_ulp):
    """Finite results within `max_ulp` ulps of the f32 rounding of the exact value
    (subnormal results: ulps of 2**-149); inf and NaN exactly where the reference has
    them; the sign of zero kept by the odd functions."""
    with np.errstate(all="ignore"):
        ref = REFERENCE[name](x.astype(np.float64))
        r32 = ref.astype(np.float32)
    got = np.asarray(got, np.float32)
    fin = np.isfinite(r32)
    ulp = np.spacing(np.abs(r32[fin])).astype(np.float64)
    ulp = np.maximum(ulp, 2.0 ** -149)
    err = np.abs(got[fin].astype(np.float64) - ref[fin]) / ulp
    worst = int(np.argmax(err))
    assert err[worst] <= max_ulp, \
        f"{name}({x[fin][worst]!r}) = {got[fin][worst]!r}, want {ref[fin][worst]!r} " \
        f"({err[worst]:.2f} ulp)"
    nf = ~fin
    same = (np.isnan(got[nf]) & np.isnan(r32[nf])) | (got[nf] == r32[nf])
    assert same.all(), f"{name}{x[nf][~same]} = {got[nf][~same]}, want {r32[nf][~same]}"
    if name in ODD:
        z = x == 0
        assert (np.signbit(got[z]) == np.signbit(x[z])).all(), f"{name}(-0) lost its sign"


def _parse(text):
    return parse_source(text, default_context(), "<test>")


def _interpret(name, x):
    n = x.size
    m = _parse(f"func.func @f(%x: vector<{n}xf32>) -> vector<{n}xf32> {{\n"
               f"  %0 = math.{name} %x : vector<{n}xf32>\n"
               f"  return %0 : vector<{n}xf32>\n}}")
    build_pipeline(PASS).run(m)
    assert f"math.{name} " not in str(m)
    return Interpreter(m).call("f", x)[0]


@pytest.mark.parametrize("name", NAMES)
def test_interpreted_accuracy(name):
    check_accuracy(name, X, _interpret(name, X), 2.0)


def test_preserves_semantics_scalars_and_f16():
    text = """
    func.func @f(%x: f32, %h: f16, %v: vector<3xf32>) -> (f32, f32, f32, f16, f16, vector<3xf32>) {
      %0 = math.erf %x : f32
      %1 = math.tanh %x : f32
      %2 = math.exp %x : f32
      %3 = math.exp %h : f16
      %4 = math.tanh %h : f16
      %5 = math.log1p %v : vector<3xf32>
      return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f16, f16, vector<3xf32>
    }"""
    for x in (0.3, -2.5, 7.0):
        check_pass_preserves_semantics(
            text, PASS, inputs=[np.float32(x), np.float16(x / 4),
                                np.array([x, x / 10, 1e-3], np.float32)],
            rtol=2e-3, atol=1e-7)


def _cpu_module():
    """@main(x) -> (f(x) for f in NAMES): one elementwise linalg.generic per function."""
    body, results = [], []
    for i, name in enumerate(NAMES):
        body.append(f"""
  %r{i} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel"]}}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {{
  ^bb0(%a: f32, %b: f32):
    %y = math.{name} %a : f32
    linalg.yield %y : f32
  }} -> tensor<?xf32>""")
        results.append(f"%r{i}")
    types = ", ".join(["tensor<?xf32>"] * len(NAMES))
    return _parse(f"""#map = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<?xf32>) -> ({types}) {{
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>{"".join(body)}
  return {", ".join(results)} : {types}
}}""")


@pytest.fixture(scope="module")
def cpu_outputs(tmp_path_factory):
    pytest.importorskip("llvmlite")
    import strata
    dump = tmp_path_factory.mktemp("dump")
    f = strata.compile(_cpu_module(), target="cpu", dump_dir=dump)
    ll = next(p for p in dump.iterdir() if p.name.endswith("module.ll")).read_text()
    return dict(zip(NAMES, f(X))), ll


@pytest.mark.parametrize("name", NAMES)
def test_compiled_accuracy(cpu_outputs, name):
    check_accuracy(name, X, cpu_outputs[0][name], 2.0)


def test_compiled_loops_vectorize(cpu_outputs):
    """No call of the C math library is left, and LLVM vectorizes the loops."""
    from strata.backends.cpu.jit import JitModule
    ll = cpu_outputs[1]
    for fn in ("expf", "exp2f", "logf", "log2f", "log10f", "tanhf", "erff", "llvm.exp.",
               "llvm.exp2.", "llvm.log.", "llvm.log2.", "llvm.log10."):
        assert f"@{fn}" not in ll, fn
    opt = JitModule(ll).optimized_ir
    assert "x float> @llvm.roundeven" in opt          # exp's reduction, on vectors
    assert "x float> @llvm.copysign" in opt           # tanh / erf


def test_onnx_activations_on_cpu():
    """ONNX Erf, Exp, Tanh, Log, Sigmoid, Gelu (exact and tanh) and Softplus compiled for
    the CPU vs NumPy float64."""
    pytest.importorskip("onnx")
    pytest.importorskip("llvmlite")
    import strata
    from onnx import TensorProto, helper
    ops = [("Erf", {}), ("Exp", {}), ("Tanh", {}), ("Log", {}), ("Sigmoid", {}),
           ("Gelu", {}), ("Gelu", {"approximate": "tanh"}), ("Softplus", {})]
    nodes = [helper.make_node(op, ["x"], [f"y{i}"], **attrs) for i, (op, attrs) in
             enumerate(ops)]
    outs = [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, ["n"])
            for i in range(len(ops))]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, ["n"])], outs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    x = np.concatenate([np.linspace(-12, 12, 4001), [0.0, 1e-30, 80.0, -90.0]]).astype(
        np.float32)
    got = strata.compile(model, target="cpu")(x)
    d = x.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [_erf(d), np.exp(d), np.tanh(d), np.log(d), 1 / (1 + np.exp(-d)),
                0.5 * d * (1 + _erf(d / math.sqrt(2))),
                0.5 * d * (1 + np.tanh(math.sqrt(2 / math.pi) * (d + 0.044715 * d ** 3))),
                np.log1p(np.exp(d))]
    # atol: Gelu's 1 + erf(x / sqrt(2)) cancels for x < -4 (erf's absolute error,
    # 6e-8 here, times |x| / 2).
    for (op, attrs), g, w in zip(ops, got, want):
        np.testing.assert_allclose(g, w.astype(np.float32), rtol=2e-6, atol=4e-7,
                                   err_msg=f"{op} {attrs}")


def test_powers_by_products():
    """math.powf by a constant 2, 3, 4, -1, -2 becomes products ([Note: powers by
    products]): no pow call left; other exponents and run-time ones stay."""
    m = _parse("""
    func.func @f(%x: f32, %v: vector<4xf32>) -> (f32, f32, vector<4xf32>, f32, f32) {
      %c3 = arith.constant 3.0 : f32
      %cm1 = arith.constant -1.0 : f32
      %v4 = arith.constant dense<4.0> : vector<4xf32>
      %c25 = arith.constant 2.5 : f32
      %0 = math.powf %x, %c3 : f32
      %1 = math.powf %x, %cm1 : f32
      %2 = math.powf %v, %v4 : vector<4xf32>
      %3 = math.powf %x, %c25 : f32
      %4 = math.powf %x, %x : f32
      return %0, %1, %2, %3, %4 : f32, f32, vector<4xf32>, f32, f32
    }""")
    build_pipeline(PASS).run(m)
    assert str(m).count("math.powf") == 2
    for x in (0.3, -2.5, 7.0, 0.0):
        r = Interpreter(m).call("f", np.float32(x), np.full(4, x, np.float32))
        with np.errstate(divide="ignore"):
            want = [np.float32(x) ** 3, np.float32(1) / np.float32(x)]
        assert r[0] == want[0] and r[1] == want[1]
        np.testing.assert_allclose(r[2], np.float32(x) ** 4, rtol=2e-7)


def test_onnx_pow_by_constants_on_cpu():
    """ONNX Pow by constant 2, 3, 4, -1, -2 compiled for the CPU (products, no libm call)
    vs NumPy float64: within 2 ulp, and the special values (NaN, +-inf, +-0, overflow)
    as pow gives them."""
    pytest.importorskip("onnx")
    pytest.importorskip("llvmlite")
    import strata
    from onnx import TensorProto, helper, numpy_helper
    powers = [2.0, 3.0, 4.0, -1.0, -2.0]
    nodes = [helper.make_node("Pow", ["x", f"p{i}"], [f"y{i}"]) for i in range(5)]
    inits = [numpy_helper.from_array(np.array(p, np.float32), f"p{i}")
             for i, p in enumerate(powers)]
    outs = [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, ["n"])
            for i in range(5)]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, ["n"])], outs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    x = np.concatenate([np.linspace(-50, 50, 2001), [0.0, -0.0, np.inf, -np.inf, np.nan,
                                                     1e-30, 3e12, -3e12]]).astype(np.float32)
    got = strata.compile(model, target="cpu", cache=False)(x)
    for p, g in zip(powers, got):
        with np.errstate(all="ignore"):
            want = np.power(x.astype(np.float64), p).astype(np.float32)
        fin = np.isfinite(want) & (want != 0)
        ulp = np.abs(g[fin].astype(np.float64) - want[fin]) / np.spacing(np.abs(want[fin]))
        assert ulp.max() <= 2, (p, ulp.max())
        np.testing.assert_array_equal(g[~fin], want[~fin], err_msg=str(p))
        np.testing.assert_array_equal(np.signbit(g[~fin]), np.signbit(want[~fin]))
