"""The interpreter on linalg IR: linalg.generic and named ops through the one
structured-op engine, against NumPy; the fast paths against the ordered loop."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.interpreter import ops_linalg
from strata.syntax.parser import parse_source

RNG = np.random.default_rng(0)


def interp(src):
    return Interpreter(parse_source(src, default_context(), "t.mlir"))


def run(src, *args, fn="f"):
    return interp(src).call(fn, *args)


def randn(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


MATMUL_GENERIC = """
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @f(%a: tensor<?x?x{t}>, %b: tensor<?x?x{t}>, %c: tensor<?x?x{t}>) -> tensor<?x?x{t}> {{
  %r = linalg.generic {{indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}}
    ins(%a, %b : tensor<?x?x{t}>, tensor<?x?x{t}>) outs(%c : tensor<?x?x{t}>) {{
  ^bb0(%x: {t}, %y: {t}, %acc: {t}):
    %p = arith.{mul} %x, %y : {t}
    %s = arith.{add} %acc, %p : {t}
    linalg.yield %s : {t}
  }} -> tensor<?x?x{t}>
  return %r : tensor<?x?x{t}>
}}
"""


def test_generic_matmul_f32_and_wrapping_i8():
    a, b, c = randn(5, 7), randn(7, 3), randn(5, 3)
    r = run(MATMUL_GENERIC.format(t="f32", mul="mulf", add="addf"), a, b, c)[0]
    np.testing.assert_allclose(r, a @ b + c, rtol=1e-5, atol=1e-5)
    ai = RNG.integers(-128, 128, (4, 6)).astype(np.int8)
    bi = RNG.integers(-128, 128, (6, 2)).astype(np.int8)
    ci = np.zeros((4, 2), np.int8)
    r = run(MATMUL_GENERIC.format(t="i8", mul="muli", add="addi"), ai, bi, ci)[0]
    expect = (ai.astype(np.int64) @ bi.astype(np.int64)).astype(np.int8)  # modulo 2**8
    np.testing.assert_array_equal(r, expect)


def test_fast_paths_agree_with_the_ordered_loop(monkeypatch):
    """einsum, the associative-reduction path (with small boxes) and the sequential
    reduction loop give the same results."""
    a, b, c = randn(6, 9), randn(9, 4), randn(6, 4)
    src = MATMUL_GENERIC.format(t="f32", mul="mulf", add="addf")
    fast = run(src, a, b, c)[0]
    monkeypatch.setattr(ops_linalg._Engine, "try_einsum", lambda self: False)
    monkeypatch.setattr(ops_linalg, "BOX_BUDGET", 7)  # boxes smaller than a row
    boxed = run(src, a, b, c)[0]
    monkeypatch.setattr(ops_linalg._Engine, "combiners", lambda self: None)
    ordered = run(src, a, b, c)[0]
    np.testing.assert_allclose(fast, ordered, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(boxed, ordered, rtol=1e-5, atol=1e-6)


REDUCE = """
func.func @f(%x: tensor<3x8xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}}
    ins(%x : tensor<3x8xf32>) outs(%o : tensor<3xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %s = arith.{op} %acc, %a : f32
    linalg.yield %s : f32
  }} -> tensor<3xf32>
  return %r : tensor<3xf32>
}}
"""


@pytest.mark.parametrize("op", ["maximumf", "minimumf", "maxnumf", "minnumf"])
def test_min_max_reductions_keep_nan_and_signed_zero_semantics(op, monkeypatch):
    x = np.array([[1, np.nan, 3, -0.0, 0, 2, 1, 0],
                  [-0.0, 0.0, -0.0, -0.0, -0.0, 0.0, -0.0, -0.0],
                  [5, 4, 3, 2, 1, 0, -1, -2]], np.float32)
    init = np.array([-np.inf, -0.0, 0.0], np.float32) if "max" in op else \
        np.array([np.inf, 0.0, 10.0], np.float32)
    fast = run(REDUCE.format(op=op), x, init)[0]
    monkeypatch.setattr(ops_linalg._Engine, "combiners", lambda self: None)
    ordered = run(REDUCE.format(op=op), x, init)[0]
    np.testing.assert_array_equal(fast, ordered)
    np.testing.assert_array_equal(np.signbit(fast), np.signbit(ordered))


def test_reduction_with_two_outputs_and_linalg_index():
    src = """func.func @f(%x: tensor<4x6xf32>, %v: tensor<4xf32>, %i: tensor<4xi64>)
        -> (tensor<4xf32>, tensor<4xi64>) {
      %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
          affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
          iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4x6xf32>) outs(%v, %i : tensor<4xf32>, tensor<4xi64>) {
      ^bb0(%a: f32, %bv: f32, %bi: i64):
        %j = linalg.index 1 : index
        %ji = arith.index_cast %j : index to i64
        %gt = arith.cmpf ogt, %a, %bv : f32
        %nv = arith.select %gt, %a, %bv : f32
        %ni = arith.select %gt, %ji, %bi : i64
        linalg.yield %nv, %ni : f32, i64
      } -> (tensor<4xf32>, tensor<4xi64>)
      return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
    }"""
    x = randn(4, 6)
    v, i = run(src, x, np.full(4, -np.inf, np.float32), np.zeros(4, np.int64))
    np.testing.assert_array_equal(v, x.max(1))
    np.testing.assert_array_equal(i, x.argmax(1))


def test_window_maps_and_out_of_bounds_windows():
    src = """func.func @f(%x: tensor<?xf32>, %w: tensor<3xf32>, %o: tensor<8xf32>)
        -> tensor<8xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>,
          affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
          iterator_types = ["parallel", "reduction"]}
        ins(%x, %w : tensor<?xf32>, tensor<3xf32>) outs(%o : tensor<8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      return %r : tensor<8xf32>
    }"""
    x, w = randn(10), randn(3)
    r = run(src, x, w, np.zeros(8, np.float32))[0]
    np.testing.assert_allclose(r, np.correlate(x, w, "valid"), rtol=1e-5, atol=1e-6)
    with pytest.raises(InterpreterError, match="read at index 9 of dimension 0 .size 9"):
        run(src, x[:9], w, np.zeros(8, np.float32))


def test_parallel_generic_with_broadcast_transpose_and_index():
    src = """func.func @f(%x: tensor<2x3xi8>, %b: tensor<2xi8>, %o: tensor<3x2xi8>)
        -> tensor<3x2xi8> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>,
          affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
          iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : tensor<2x3xi8>, tensor<2xi8>) outs(%o : tensor<3x2xi8>) {
      ^bb0(%a: i8, %c: i8, %out: i8):
        %i = linalg.index 0 : index
        %ii = arith.index_cast %i : index to i8
        %s = arith.addi %a, %c : i8
        %t = arith.muli %s, %ii : i8
        linalg.yield %t : i8
      } -> tensor<3x2xi8>
      return %r : tensor<3x2xi8>
    }"""
    x = np.arange(6, dtype=np.int8).reshape(2, 3)
    b = np.array([10, 100], np.int8)
    r = run(src, x, b, np.zeros((3, 2), np.int8))[0]
    expect = ((x.T.astype(np.int64) + b) * np.arange(3)[:, None]).astype(np.int8)
    np.testing.assert_array_equal(r, expect)


def test_payload_with_a_region_runs_point_by_point():
    src = """func.func @f(%x: tensor<5xi32>, %o: tensor<5xi32>) -> tensor<5xi32> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
          affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%x : tensor<5xi32>) outs(%o : tensor<5xi32>) {
      ^bb0(%a: i32, %out: i32):
        %c0 = arith.constant 0 : i32
        %neg = arith.cmpi slt, %a, %c0 : i32
        %v = scf.if %neg -> i32 {
          %n = arith.subi %c0, %a : i32
          scf.yield %n : i32
        } else {
          scf.yield %a : i32
        }
        linalg.yield %v : i32
      } -> tensor<5xi32>
      return %r : tensor<5xi32>
    }"""
    x = np.array([-2, -1, 0, 1, 2], np.int32)
    np.testing.assert_array_equal(run(src, x, np.zeros(5, np.int32))[0], np.abs(x))


def test_division_by_zero_inside_a_payload_is_reported():
    src = """func.func @f(%x: tensor<3xi32>, %y: tensor<3xi32>, %o: tensor<3xi32>)
        -> tensor<3xi32> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
          affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%x, %y : tensor<3xi32>, tensor<3xi32>) outs(%o : tensor<3xi32>) {
      ^bb0(%a: i32, %b: i32, %out: i32):
        %d = arith.divsi %a, %b : i32
        linalg.yield %d : i32
      } -> tensor<3xi32>
      return %r : tensor<3xi32>
    }"""
    with pytest.raises(InterpreterError, match="t.mlir:7:14: error: 'arith.divsi' op "
                                               "integer division by zero"):
        run(src, np.ones(3, np.int32), np.array([1, 0, 1], np.int32), np.zeros(3, np.int32))


def test_operand_shape_mismatch_is_reported():
    a, b, c = randn(5, 7), randn(6, 3), randn(5, 3)
    with pytest.raises(InterpreterError, match="loop d2 runs 7 times"):
        run(MATMUL_GENERIC.format(t="f32", mul="mulf", add="addf"), a, b, c)


# ---------------------------------------------------------------- named ops


NAMED = """
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>)
    -> tensor<4x5xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>)
    outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
func.func @matmul_i8(%a: tensor<4x3xi8>, %b: tensor<3x5xi8>, %c: tensor<4x5xi32>)
    -> tensor<4x5xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x3xi8>, tensor<3x5xi8>)
    outs(%c : tensor<4x5xi32>) -> tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}
func.func @batch_matmul(%a: tensor<2x4x3xf32>, %b: tensor<2x3x5xf32>, %c: tensor<2x4x5xf32>)
    -> tensor<2x4x5xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x3xf32>, tensor<2x3x5xf32>)
    outs(%c : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %r : tensor<2x4x5xf32>
}
func.func @conv(%x: tensor<1x2x7x7xf32>, %w: tensor<3x2x3x3xf32>, %o: tensor<1x3x3x3xf32>)
    -> tensor<1x3x3x3xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>)
    outs(%o : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %r : tensor<1x3x3x3xf32>
}
func.func @pool(%x: tensor<1x2x6x6xf32>, %o: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>,
                                strides = dense<2> : tensor<2xi64>}
    ins(%x, %win : tensor<1x2x6x6xf32>, tensor<2x2xf32>)
    outs(%o : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
func.func @depthwise(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2xf32>, %o: tensor<1x3x3x2xf32>)
    -> tensor<1x3x3x2xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>,
                                          strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x5x5x2xf32>, tensor<3x3x2xf32>)
    outs(%o : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %r : tensor<1x3x3x2xf32>
}
func.func @misc(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %v: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %m = linalg.map ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    }
  %z = arith.constant 1.0 : f32
  %e2 = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.mulf %in, %init : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e3 : tensor<3x2xf32>)
    permutation = [1, 0]
  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = [0]
  %w = linalg.elementwise <mul> ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>)
    outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m, %r, %t, %b, %w
    : tensor<2x3xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
func.func @softmax(%x: tensor<2x5xf32>, %o: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x5xf32>) outs(%o : tensor<2x5xf32>)
    -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}
func.func @fill_copy(%v: f32, %o: tensor<2x3xf32>, %x: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = linalg.copy ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %f, %c : tensor<2x3xf32>, tensor<2x3xf32>
}
"""


@pytest.fixture(scope="module")
def named():
    return interp(NAMED)


def test_named_contractions(named):
    a, b, c = randn(4, 3), randn(3, 5), randn(4, 5)
    np.testing.assert_allclose(named.call("matmul", a, b, c)[0], a @ b + c, rtol=1e-5,
                               atol=1e-6)
    ai = RNG.integers(-128, 128, (4, 3)).astype(np.int8)
    bi = RNG.integers(-128, 128, (3, 5)).astype(np.int8)
    r = named.call("matmul_i8", ai, bi, np.zeros((4, 5), np.int32))[0]
    np.testing.assert_array_equal(r, ai.astype(np.int32) @ bi.astype(np.int32))
    a, b = randn(2, 4, 3), randn(2, 3, 5)
    np.testing.assert_allclose(named.call("batch_matmul", a, b, np.zeros((2, 4, 5),
                                                                          np.float32))[0],
                               a @ b, rtol=1e-5, atol=1e-6)


def test_named_convolution_pooling_depthwise(named):
    x, w = randn(1, 2, 7, 7), randn(3, 2, 3, 3)
    r = named.call("conv", x, w, np.zeros((1, 3, 3, 3), np.float32))[0]
    windows = np.lib.stride_tricks.sliding_window_view(x[0], (3, 3), axis=(1, 2))[:, ::2, ::2]
    np.testing.assert_allclose(r[0], np.einsum("chwij,fcij->fhw", windows, w), rtol=1e-5,
                               atol=1e-5)
    x = randn(1, 2, 6, 6)
    r = named.call("pool", x, np.full((1, 2, 3, 3), -np.inf, np.float32))[0]
    np.testing.assert_array_equal(r, x.reshape(1, 2, 3, 2, 3, 2).max(axis=(3, 5)))
    x, w = randn(1, 5, 5, 2), randn(3, 3, 2)
    r = named.call("depthwise", x, w, np.zeros((1, 3, 3, 2), np.float32))[0]
    win = np.lib.stride_tricks.sliding_window_view(x[0], (3, 3), axis=(0, 1))
    np.testing.assert_allclose(r[0], np.einsum("hwcij,ijc->hwc", win, w), rtol=1e-5, atol=1e-5)


def test_named_fill_and_copy(named):
    x = randn(2, 3)
    f, c = named.call("fill_copy", np.float32(2.5), np.zeros((2, 3), np.float32), x)
    np.testing.assert_array_equal(f, np.full((2, 3), 2.5, np.float32))
    np.testing.assert_array_equal(c, x)


def test_map_reduce_transpose_broadcast_elementwise(named):
    x, y, v = randn(2, 3), randn(2, 3), randn(3)
    m, r, t, b, w = named.call("misc", x, y, v)
    np.testing.assert_array_equal(m, x - y)
    np.testing.assert_allclose(r, x.prod(1), rtol=1e-6)
    np.testing.assert_array_equal(t, x.T)
    np.testing.assert_array_equal(b, np.broadcast_to(v, (2, 3)))
    np.testing.assert_array_equal(w, x * y)


def test_softmax(named):
    x = randn(2, 5)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(named.call("softmax", x, np.zeros_like(x))[0],
                               e / e.sum(1, keepdims=True), rtol=1e-6)


def test_every_structured_op_of_the_dialect_is_registered():
    from strata.dialects.linalg import LINALG
    from strata.dialects.linalg.structured import StructuredOp
    from strata.interpreter import registered_ops
    names = set(registered_ops())
    missing = [n for n, c in LINALG.ops.items()
               if issubclass(c, StructuredOp) and n not in names]
    assert not missing


def test_pack_unpack_round_trip_and_layout():
    """linalg.pack's layout (padding, outer_dims_perm, inner tiles) by its definition,
    and unpack inverting it."""
    import strata
    src = """func.func @main(%a: tensor<5x6xf32>) -> (tensor<3x2x4x2xf32>, tensor<5x6xf32>) {
      %cst = arith.constant 0.0 : f32
      %d = tensor.empty() : tensor<3x2x4x2xf32>
      %p = linalg.pack %a padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %d : tensor<5x6xf32> -> tensor<3x2x4x2xf32>
      %e = tensor.empty() : tensor<5x6xf32>
      %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %e : tensor<3x2x4x2xf32> -> tensor<5x6xf32>
      return %p, %u : tensor<3x2x4x2xf32>, tensor<5x6xf32>
    }"""
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    f = strata.compile(parse_source(src, default_context()), target="interpret")
    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    p, u = f(x)
    xp = np.zeros((8, 6), np.float32)
    xp[:5] = x
    expect = xp.reshape(2, 4, 3, 2).transpose(2, 0, 1, 3)  # [o1, o0, i0, i1]
    np.testing.assert_array_equal(p, expect)
    np.testing.assert_array_equal(u, x)
