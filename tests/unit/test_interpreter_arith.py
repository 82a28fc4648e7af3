"""The interpreter on arith and math IR: results against NumPy, wrap-around, unsigned
readings of signless integers, NaN semantics, casts, and reported undefined behaviour."""
from __future__ import annotations

import math

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.syntax.parser import parse_source


def run(src, *args, fn="f"):
    return Interpreter(parse_source(src, default_context(), "t.mlir")).call(fn, *args)


def binary(op, t, a, b):
    """Result of `op` on scalars or tensors of element type `t`."""
    a, b = np.asarray(a), np.asarray(b)
    ty = t if a.ndim == 0 else f"tensor<{'x'.join(map(str, a.shape))}x{t}>"
    src = f"""func.func @f(%a: {ty}, %b: {ty}) -> {ty} {{
      %r = arith.{op} %a, %b : {ty}
      return %r : {ty}
    }}"""
    return run(src, a, b)[0]


# ---------------------------------------------------------------- integers

def test_add_wraps_around():
    assert binary("addi", "i8", np.int8(127), np.int8(1)) == np.int8(-128)
    r = binary("muli", "i16", np.array([300, -300], np.int16), np.array([300, 300], np.int16))
    np.testing.assert_array_equal(r, (np.array([90000, -90000]) & 0xFFFF).astype(np.uint16)
                                  .view(np.int16))


def test_odd_width_wraps_to_its_bits():
    src = """func.func @f(%a: i3, %b: i3) -> (i3, i3) {
      %s = arith.addi %a, %b : i3
      %m = arith.muli %a, %b : i3
      return %s, %m : i3, i3
    }"""
    s, m = run(src, np.int8(3), np.int8(2))
    assert (int(s), int(m)) == (-3, -2)  # 5 -> -3 and 6 -> -2 in 3 bits


def test_unsigned_ops_read_the_same_bits_unsigned():
    a, b = np.array([-1, 7, -128], np.int8), np.array([2, 2, 3], np.int8)
    np.testing.assert_array_equal(binary("divui", "i8", a, b),
                                  (a.view(np.uint8) // b.view(np.uint8)).view(np.int8))
    np.testing.assert_array_equal(binary("remui", "i8", a, b),
                                  (a.view(np.uint8) % b.view(np.uint8)).view(np.int8))
    np.testing.assert_array_equal(binary("maxui", "i8", a, b), np.array([-1, 7, -128], np.int8))
    np.testing.assert_array_equal(binary("minsi", "i8", a, b), np.array([-1, 2, -128], np.int8))


def test_signed_division_family():
    a = np.array([7, -7, 7, -7, 6], np.int32)
    b = np.array([2, 2, -2, -2, 3], np.int32)
    np.testing.assert_array_equal(binary("divsi", "i32", a, b), [3, -3, -3, 3, 2])
    np.testing.assert_array_equal(binary("ceildivsi", "i32", a, b), [4, -3, -3, 4, 2])
    np.testing.assert_array_equal(binary("floordivsi", "i32", a, b), [3, -4, -4, 3, 2])
    np.testing.assert_array_equal(binary("remsi", "i32", a, b), [1, -1, 1, -1, 0])
    np.testing.assert_array_equal(binary("ceildivui", "i32", np.array([7, 6], np.int32),
                                         np.array([2, 3], np.int32)), [4, 2])


@pytest.mark.parametrize("op", ["divsi", "divui", "remsi", "remui", "ceildivsi",
                                "floordivsi", "ceildivui"])
def test_integer_division_by_zero_is_reported(op):
    with pytest.raises(InterpreterError, match="division by zero") as e:
        binary(op, "i32", np.array([1, 2], np.int32), np.array([1, 0], np.int32))
    assert "t.mlir:2:" in str(e.value) and f"'arith.{op}'" in str(e.value)


def test_signed_division_overflow_is_reported():
    with pytest.raises(InterpreterError, match="overflow"):
        binary("divsi", "i8", np.int8(-128), np.int8(-1))


def test_shifts():
    a = np.array([-16, 1, 3], np.int8)
    n = np.array([2, 7, 8], np.int8)
    np.testing.assert_array_equal(binary("shli", "i8", a, n), [-64, -128, 0])
    np.testing.assert_array_equal(binary("shrui", "i8", a, n), [60, 0, 0])
    np.testing.assert_array_equal(binary("shrsi", "i8", a, n), [-4, 0, 0])


def test_cmpi_predicates_signed_and_unsigned():
    src = """func.func @f(%a: tensor<3xi8>, %b: tensor<3xi8>) -> (tensor<3xi1>, tensor<3xi1>,
        tensor<3xi1>, tensor<3xi1>) {
      %0 = arith.cmpi slt, %a, %b : tensor<3xi8>
      %1 = arith.cmpi ult, %a, %b : tensor<3xi8>
      %2 = arith.cmpi uge, %a, %b : tensor<3xi8>
      %3 = arith.cmpi ne, %a, %b : tensor<3xi8>
      return %0, %1, %2, %3 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
    }"""
    a, b = np.array([-1, 1, 5], np.int8), np.array([1, 1, 4], np.int8)
    slt, ult, uge, ne = run(src, a, b)
    np.testing.assert_array_equal(slt, [True, False, False])
    np.testing.assert_array_equal(ult, [False, False, False])
    np.testing.assert_array_equal(uge, [True, True, True])
    np.testing.assert_array_equal(ne, [True, False, True])


def test_extended_arithmetic():
    src = """func.func @f(%a: i32, %b: i32) -> (i32, i1, i32, i32, i32, i32) {
      %s, %o = arith.addui_extended %a, %b : i32, i1
      %l, %h = arith.mulsi_extended %a, %b : i32
      %ul, %uh = arith.mului_extended %a, %b : i32
      return %s, %o, %l, %h, %ul, %uh : i32, i1, i32, i32, i32, i32
    }"""
    a, b = -2, 3
    s, o, lo, hi, ulo, uhi = run(src, np.int32(a), np.int32(b))
    assert (int(s), bool(o)) == (1, True)
    assert (int(lo), int(hi)) == (-6, -1)
    p = (a & 0xFFFFFFFF) * b
    assert (int(ulo) & 0xFFFFFFFF, int(uhi)) == (p & 0xFFFFFFFF, p >> 32)
    src64 = src.replace("i32", "i64")
    _, _, lo, hi, ulo, uhi = run(src64, np.int64(-2), np.int64(1 << 62))
    assert (int(lo), int(hi)) == (-(1 << 63), -1)
    p = ((-2) & (2**64 - 1)) * (1 << 62)
    assert (int(ulo) & (2**64 - 1), int(uhi) & (2**64 - 1)) == (p & (2**64 - 1), p >> 64)


def test_casts_between_integer_widths_and_index():
    src = """func.func @f(%a: i8) -> (i32, i32, i4, index, index) {
      %s = arith.extsi %a : i8 to i32
      %u = arith.extui %a : i8 to i32
      %t = arith.trunci %a : i8 to i4
      %i = arith.index_cast %a : i8 to index
      %j = arith.index_castui %a : i8 to index
      return %s, %u, %t, %i, %j : i32, i32, i4, index, index
    }"""
    s, u, t, i, j = run(src, np.int8(-3))
    assert (int(s), int(u), int(t), int(i), int(j)) == (-3, 253, -3, -3, 253)
    assert t.dtype.name == "int4" and i.dtype == np.int64


# ---------------------------------------------------------------- floats


def test_float_binary_against_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32)
    for op, fn in (("addf", np.add), ("subf", np.subtract), ("mulf", np.multiply),
                   ("divf", np.divide), ("remf", np.fmod)):
        r = binary(op, "f32", a, b)
        assert r.dtype == np.float32
        np.testing.assert_array_equal(r, fn(a, b))


def test_min_max_nan_and_signed_zero_semantics():
    nan = np.float32("nan")
    a = np.array([nan, 1.0, -0.0, 0.0], np.float32)
    b = np.array([1.0, nan, 0.0, -0.0], np.float32)
    mx = binary("maximumf", "f32", a, b)
    assert np.isnan(mx[0]) and np.isnan(mx[1])
    assert not np.signbit(mx[2]) and not np.signbit(mx[3])
    mn = binary("minimumf", "f32", a, b)
    assert np.signbit(mn[2]) and np.signbit(mn[3])
    np.testing.assert_array_equal(binary("maxnumf", "f32", a, b)[:2], [1.0, 1.0])
    np.testing.assert_array_equal(binary("minnumf", "f32", a, b)[:2], [1.0, 1.0])


def test_cmpf_ordered_and_unordered():
    preds = ["oeq", "one", "olt", "ueq", "une", "ult", "ord", "uno", "true", "false"]
    lines = "\n".join(f"%{i} = arith.cmpf {p}, %a, %b : tensor<3xf32>"
                      for i, p in enumerate(preds))
    ty = ", ".join(["tensor<3xi1>"] * len(preds))
    src = f"""func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> ({ty}) {{
      {lines}
      return {", ".join(f"%{i}" for i in range(len(preds)))} : {ty}
    }}"""
    a = np.array([1.0, np.nan, 2.0], np.float32)
    b = np.array([1.0, 1.0, 1.0], np.float32)
    r = dict(zip(preds, run(src, a, b)))
    expect = {"oeq": [1, 0, 0], "one": [0, 0, 1], "olt": [0, 0, 0], "ueq": [1, 1, 0],
              "une": [0, 1, 1], "ult": [0, 1, 0], "ord": [1, 0, 1], "uno": [0, 1, 0],
              "true": [1, 1, 1], "false": [0, 0, 0]}
    for p, e in expect.items():
        np.testing.assert_array_equal(r[p], np.array(e, bool), err_msg=p)


def test_float_casts():
    src = """func.func @f(%a: f32, %i: i8) -> (f64, f16, bf16, i32, i8, f32, f32, i32) {
      %0 = arith.extf %a : f32 to f64
      %1 = arith.truncf %a : f32 to f16
      %2 = arith.truncf %a : f32 to bf16
      %3 = arith.fptosi %a : f32 to i32
      %4 = arith.fptoui %a : f32 to i8
      %5 = arith.sitofp %i : i8 to f32
      %6 = arith.uitofp %i : i8 to f32
      %7 = arith.bitcast %a : f32 to i32
      return %0, %1, %2, %3, %4, %5, %6, %7 : f64, f16, bf16, i32, i8, f32, f32, i32
    }"""
    r = run(src, np.float32(200.7), np.int8(-1))
    assert r[0] == np.float64(np.float32(200.7)) and r[0].dtype == np.float64
    assert r[1] == np.float16(200.7) and r[2].dtype.name == "bfloat16"
    assert int(r[3]) == 200 and int(r[4]) == -56  # 200 as an unsigned byte
    assert (float(r[5]), float(r[6])) == (-1.0, 255.0)
    assert int(r[7]) == int(np.float32(200.7).view(np.int32))


def test_truncf_rounding_modes():
    src = """func.func @f(%a: f64) -> (f32, f32, f32) {
      %0 = arith.truncf %a to_nearest_even : f64 to f32
      %1 = arith.truncf %a downward : f64 to f32
      %2 = arith.truncf %a upward : f64 to f32
      return %0, %1, %2 : f32, f32, f32
    }"""
    x = 1.0 + 2.0 ** -30
    near, down, up = run(src, np.float64(x))
    assert near == np.float32(1.0) and down == np.float32(1.0)
    assert up == np.nextafter(np.float32(1.0), np.float32(2.0))
    src = """func.func @f(%a: tensor<3xf32>) -> (tensor<3xbf16>, tensor<3xbf16>,
        tensor<3xf8E8M0FNU>, tensor<3xbf16>) {
      %0 = arith.truncf %a to_nearest_even : tensor<3xf32> to tensor<3xbf16>
      %1 = arith.truncf %a to_nearest_away : tensor<3xf32> to tensor<3xbf16>
      %2 = arith.truncf %a upward : tensor<3xf32> to tensor<3xf8E8M0FNU>
      %3 = arith.truncf %a toward_zero : tensor<3xf32> to tensor<3xbf16>
      return %0, %1, %2, %3 : tensor<3xbf16>, tensor<3xbf16>, tensor<3xf8E8M0FNU>,
        tensor<3xbf16>
    }"""
    ties = np.array([1.00390625, -1.00390625, 1.01171875], np.float32)  # bf16 halfway points
    even, away, _, zero = run(src, ties)
    np.testing.assert_array_equal(even.astype(np.float32), [1.0, -1.0, 1.015625])
    np.testing.assert_array_equal(away.astype(np.float32), [1.0078125, -1.0078125, 1.015625])
    np.testing.assert_array_equal(zero.astype(np.float32), [1.0, -1.0, 1.0078125])
    e8 = run(src, np.array([0.0, 0.124, 3.0], np.float32))[2]
    np.testing.assert_array_equal(e8.view(np.uint8), [0, 124, 129])  # 2**-127, 2**-3, 2**2


def test_select_scalar_and_elementwise():
    src = """func.func @f(%c: i1, %v: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>)
        -> (tensor<3xf32>, tensor<3xf32>) {
      %0 = arith.select %c, %a, %b : tensor<3xf32>
      %1 = arith.select %v, %a, %b : tensor<3xi1>, tensor<3xf32>
      return %0, %1 : tensor<3xf32>, tensor<3xf32>
    }"""
    a, b = np.ones(3, np.float32), np.zeros(3, np.float32)
    r0, r1 = run(src, False, np.array([1, 0, 1], bool), a, b)
    np.testing.assert_array_equal(r0, b)
    np.testing.assert_array_equal(r1, [1, 0, 1])


def test_constants_of_every_kind():
    src = """func.func @f() -> (i1, i64, f16, tensor<2x2xi32>, tensor<3xf32>, bf16) {
      %0 = arith.constant true
      %1 = arith.constant -5 : i64
      %2 = arith.constant 1.5 : f16
      %3 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
      %4 = arith.constant dense<2.5> : tensor<3xf32>
      %5 = arith.constant 0.1 : bf16
      return %0, %1, %2, %3, %4, %5 : i1, i64, f16, tensor<2x2xi32>, tensor<3xf32>, bf16
    }"""
    r = run(src)
    assert r[0] is np.True_ and r[1] == -5 and r[2] == np.float16(1.5)
    np.testing.assert_array_equal(r[3], [[1, 2], [3, 4]])
    np.testing.assert_array_equal(r[4], [2.5] * 3)
    import ml_dtypes
    assert r[5] == ml_dtypes.bfloat16(0.1)


# ---------------------------------------------------------------- math


UNARY = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh, "sin": np.sin,
         "cos": np.cos, "floor": np.floor, "ceil": np.ceil, "absf": np.abs,
         "rsqrt": lambda x: 1 / np.sqrt(x), "erf": np.vectorize(math.erf),
         "log1p": np.log1p, "expm1": np.expm1, "atan": np.arctan, "trunc": np.trunc,
         "roundeven": np.rint}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_math_unary(name):
    x = np.array([0.25, 0.5, 1.5, 2.5, 3.75], np.float32)
    src = f"""func.func @f(%a: tensor<5xf32>) -> tensor<5xf32> {{
      %r = math.{name} %a : tensor<5xf32>
      return %r : tensor<5xf32>
    }}"""
    r = run(src, x)[0]
    assert r.dtype == np.float32
    np.testing.assert_allclose(r, UNARY[name](x.astype(np.float64)), rtol=1e-6)


def test_math_round_halfway_away_from_zero():
    src = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %r = math.round %a : tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    np.testing.assert_array_equal(run(src, np.array([0.5, -0.5, 2.5, -1.4], np.float32))[0],
                                  [1.0, -1.0, 3.0, -1.0])


def test_math_binary_ternary_and_tests():
    src = """func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>,
        tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi1>, tensor<3xi1>) {
      %0 = math.powf %a, %b : tensor<3xf32>
      %1 = math.atan2 %a, %b : tensor<3xf32>
      %2 = math.fma %a, %b, %a : tensor<3xf32>
      %3 = math.copysign %a, %b : tensor<3xf32>
      %4 = math.isnan %a : tensor<3xf32>
      %5 = math.isinf %b : tensor<3xf32>
      return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
        tensor<3xf32>, tensor<3xi1>, tensor<3xi1>
    }"""
    a = np.array([2.0, np.nan, 3.0], np.float32)
    b = np.array([3.0, 1.0, -np.inf], np.float32)
    p, t, f, c, isn, isi = run(src, a, b)
    np.testing.assert_allclose(p, np.power(a, b), rtol=1e-6)
    np.testing.assert_allclose(t, np.arctan2(a, b), rtol=1e-6)
    np.testing.assert_allclose(f, a * b + a, rtol=1e-6)
    np.testing.assert_array_equal(c, np.copysign(a, b))
    np.testing.assert_array_equal(isn, [False, True, False])
    np.testing.assert_array_equal(isi, [False, False, True])


def test_math_integer_ops():
    src = """func.func @f(%a: tensor<4xi8>, %e: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>,
        tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) {
      %0 = math.ctlz %a : tensor<4xi8>
      %1 = math.cttz %a : tensor<4xi8>
      %2 = math.ctpop %a : tensor<4xi8>
      %3 = math.absi %a : tensor<4xi8>
      %4 = math.ipowi %a, %e : tensor<4xi8>
      return %0, %1, %2, %3, %4 : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>,
        tensor<4xi8>
    }"""
    a = np.array([1, 12, 0, -128], np.int8)
    e = np.array([5, 2, 3, -1], np.int8)
    ctlz, cttz, ctpop, absi, ipow = run(src, a, e)
    np.testing.assert_array_equal(ctlz, [7, 4, 8, 0])
    np.testing.assert_array_equal(cttz, [0, 2, 8, 7])
    np.testing.assert_array_equal(ctpop, [1, 2, 0, 1])
    np.testing.assert_array_equal(absi, [1, 12, 0, -128])
    np.testing.assert_array_equal(ipow, [1, (144 + 128) % 256 - 128, 0, 0])


def test_fma_directed_rounding_is_reported_not_computed_to_nearest():
    src = """func.func @f(%a: f32) -> f32 {
      %0 = math.fma %a, %a, %a %MODE% : f32
      return %0 : f32
    }"""
    a = np.float32(1.5)
    assert run(src.replace("%MODE%", "to_nearest_even"), a)[0] == np.float32(3.75)
    with pytest.raises(InterpreterError, match="rounding mode"):
        run(src.replace("%MODE%", "upward"), a)
