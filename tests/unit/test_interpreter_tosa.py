"""The interpreter's tosa ops that tosa-to-linalg does not lower (so no differential
test reaches them) against values worked out by hand or by NumPy."""
from __future__ import annotations

import numpy as np

from strata.dialects import default_context
from strata.interpreter import Interpreter
from strata.syntax.parser import parse_source


def run(text, *args):
    return Interpreter(parse_source(text, default_context(), "<test>")).call("main", *args)


def test_resize_nearest_and_bilinear():
    text = """
func.func @main(%x: tensor<1x2x2x1xf32>) -> (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>) {
  %s = tosa.const_shape values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %o = tosa.const_shape values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %o mode<NEAREST_NEIGHBOR> : (tensor<1x2x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x3x1xf32>
  %1 = tosa.resize %x, %s, %o, %o mode<BILINEAR> : (tensor<1x2x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x3x1xf32>
  return %0, %1 : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>
}"""
    x = np.array([[1, 2], [3, 4]], np.float32).reshape(1, 2, 2, 1)
    near, lin = run(text, x)
    assert near[0, :, :, 0].tolist() == [[1, 2, 2], [3, 4, 4], [3, 4, 4]]
    assert lin[0, :, :, 0].tolist() == [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]]


def test_fft2d_and_rfft2d_against_numpy():
    text = """
func.func @main(%re: tensor<2x4x8xf32>, %im: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) {
  %a, %b = tosa.fft2d %re, %im inverse(false) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  %c, %d = tosa.fft2d %re, %im inverse(true) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  %e, %f = tosa.rfft2d %re : (tensor<2x4x8xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x5xf32>)
  return %a, %b, %c, %d, %e, %f : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>
}"""
    rng = np.random.default_rng(0)
    re, im = (rng.standard_normal((2, 4, 8)).astype(np.float32) for _ in range(2))
    a, b, c, d, e, f = run(text, re, im)
    z = re + 1j * im
    np.testing.assert_allclose(a + 1j * b, np.fft.fft2(z), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(c + 1j * d, np.fft.ifft2(z) * 32, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(e + 1j * f, np.fft.rfft2(re), rtol=1e-4, atol=1e-4)


def test_scatter_and_transpose_conv2d():
    text = """
func.func @main(%v: tensor<1x4x2xf32>, %x: tensor<1x2x2x1xf32>) -> (tensor<1x4x2xf32>, tensor<1x3x3x1xf32>) {
  %i = tosa.const values(dense<[[3, 0]]> : tensor<1x2xi32>) : () -> tensor<1x2xi32>
  %in = tosa.const values(dense<[[[9.0, 8.0], [7.0, 6.0]]]> : tensor<1x2x2xf32>) : () -> tensor<1x2x2xf32>
  %0 = tosa.scatter %v, %i, %in : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  %w = tosa.const values(dense<1.0> : tensor<1x2x2x1xf32>) : () -> tensor<1x2x2x1xf32>
  %b = tosa.const values(dense<0.5> : tensor<1xf32>) : () -> tensor<1xf32>
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.transpose_conv2d %x, %w, %b, %z, %z out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(f32) : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  return %0, %1 : tensor<1x4x2xf32>, tensor<1x3x3x1xf32>
}"""
    v = np.zeros((1, 4, 2), np.float32)
    x = np.array([[1, 2], [3, 4]], np.float32).reshape(1, 2, 2, 1)
    s, t = run(text, v, x)
    assert s[0].tolist() == [[7, 6], [0, 0], [0, 0], [9, 8]]
    # each input pixel spreads over a 2x2 window: a full 2-D convolution with ones
    assert t[0, :, :, 0].tolist() == [[1.5, 3.5, 2.5], [4.5, 10.5, 6.5], [3.5, 7.5, 4.5]]


def test_control_flow_and_variables():
    text = """
module {
  tosa.variable @count = dense<[5]> : tensor<1xi32>
  func.func @main(%c: tensor<1xi1>) -> (tensor<1xi32>, tensor<1xi32>) {
    %one = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
    %n = tosa.variable_read @count : tensor<1xi32>
    %r = tosa.cond_if %c (%a = %n) : tensor<1xi1> (tensor<1xi32>) -> tensor<1xi32> {
    ^bb0(%a: tensor<1xi32>):
      %d = tosa.add %a, %a : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
      tosa.yield %d : tensor<1xi32>
    } else {
    ^bb0(%a: tensor<1xi32>):
      tosa.yield %a : tensor<1xi32>
    }
    %w = tosa.while_loop (%i = %r) : (tensor<1xi32>) -> tensor<1xi32> {
      %lim = tosa.const values(dense<20> : tensor<1xi32>) : () -> tensor<1xi32>
      %go = tosa.greater %lim, %i : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
      tosa.yield %go : tensor<1xi1>
    } do {
    ^bb0(%i: tensor<1xi32>):
      %j = tosa.add %i, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
      tosa.yield %j : tensor<1xi32>
    }
    tosa.variable_write @count, %w : tensor<1xi32>
    %after = tosa.variable_read @count : tensor<1xi32>
    return %r, %after : tensor<1xi32>, tensor<1xi32>
  }
}"""
    r, after = run(text, np.array([True]))
    assert r.tolist() == [10] and after.tolist() == [20]
    r, after = run(text, np.array([False]))
    assert r.tolist() == [5] and after.tolist() == [20]


def test_shape_operators():
    text = """
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, !tosa.shape<6>) {
  %a = tosa.dim %x axis(0) : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %b = tosa.dim %x axis(1) : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %c = tosa.dim %x axis(2) : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %ab = tosa.mul_shape %a, %b : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %ab, %c : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  %k = tosa.const_shape values(dense<[7, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %cd = tosa.div_ceil_shape %k, %s : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %fd = tosa.div_floor_shape %k, %s : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %m = tosa.mod_shape %k, %s : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %lc = tosa.log2_ceil_shape %k : (!tosa.shape<2>) -> !tosa.shape<2>
  %lf = tosa.log2_floor_shape %k : (!tosa.shape<2>) -> !tosa.shape<2>
  %e = tosa.exp2_shape %lf : (!tosa.shape<2>) -> !tosa.shape<2>
  %all = tosa.concat_shape %cd, %fd, %m : (!tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<6>
  %one = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
  %two = tosa.const values(dense<2> : tensor<1xi32>) : () -> tensor<1xi32>
  %mid = tosa.slice_shape %all, %one, %two : (!tosa.shape<6>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  %lce = tosa.concat_shape %lc, %e : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<4>
  %x4 = tosa.concat_shape %mid, %mid : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<4>
  tosa.assert_equal_shape %x4, %x4 allow_broadcast(false) : (!tosa.shape<4>, !tosa.shape<4>) -> ()
  %out = tosa.concat_shape %lce, %mid : (!tosa.shape<4>, !tosa.shape<2>) -> !tosa.shape<6>
  return %r, %out : tensor<6x4xf32>, !tosa.shape<6>
}"""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    r, out = run(text, x)
    assert r.shape == (6, 4) and r.tolist() == x.reshape(6, 4).tolist()
    # k = [7, 5], s = [6, 4]: ceil-div [2, 2], floor-div [1, 1], mod [1, 1];
    # log2 ceil [3, 3], floor [2, 2] -> exp2 [4, 4]; mid = all[1:3] = [2, 1]
    assert out.tolist() == [3, 3, 4, 4, 2, 1]
