"""The interpreter on tensor dialect IR, against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.syntax.parser import parse_source


def run(src, *args, fn="f"):
    return Interpreter(parse_source(src, default_context(), "t.mlir")).call(fn, *args)


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def test_empty_dim_rank_splat_from_elements():
    src = """func.func @f(%n: index, %v: f32) -> (tensor<2x?xf32>, index, index, tensor<?x2xf32>,
        tensor<2x2xf32>) {
      %e = tensor.empty(%n) : tensor<2x?xf32>
      %c1 = arith.constant 1 : index
      %d = tensor.dim %e, %c1 : tensor<2x?xf32>
      %r = tensor.rank %e : tensor<2x?xf32>
      %s = tensor.splat %v[%n] : tensor<?x2xf32>
      %f = tensor.from_elements %v, %v, %v, %v : tensor<2x2xf32>
      return %e, %d, %r, %s, %f : tensor<2x?xf32>, index, index, tensor<?x2xf32>,
        tensor<2x2xf32>
    }"""
    e, d, r, s, f = run(src, 5, np.float32(1.5))
    assert e.shape == (2, 5) and int(d) == 5 and int(r) == 2
    np.testing.assert_array_equal(s, np.full((5, 2), 1.5, np.float32))
    np.testing.assert_array_equal(f, np.full((2, 2), 1.5, np.float32))


def test_extract_insert_do_not_alias():
    src = """func.func @f(%t: tensor<2x3x4xf32>, %v: f32) -> (f32, tensor<2x3x4xf32>) {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %e = tensor.extract %t[%c1, %c2, %c1] : tensor<2x3x4xf32>
      %i = tensor.insert %v into %t[%c1, %c2, %c1] : tensor<2x3x4xf32>
      return %e, %i : f32, tensor<2x3x4xf32>
    }"""
    x = X.copy()
    e, i = run(src, x, np.float32(-1))
    assert e == X[1, 2, 1]
    assert i[1, 2, 1] == -1 and x[1, 2, 1] == X[1, 2, 1]


def test_extract_slice_strided_and_rank_reduced():
    src = """func.func @f(%t: tensor<2x3x4xf32>, %o: index) -> (tensor<2x2xf32>, tensor<3x2xf32>) {
      %a = tensor.extract_slice %t[1, 0, %o] [1, 2, 2] [1, 2, 2]
        : tensor<2x3x4xf32> to tensor<2x2xf32>
      %b = tensor.extract_slice %t[0, 0, 1] [1, 3, 2] [1, 1, 1]
        : tensor<2x3x4xf32> to tensor<3x2xf32>
      return %a, %b : tensor<2x2xf32>, tensor<3x2xf32>
    }"""
    a, b = run(src, X, 1)
    np.testing.assert_array_equal(a, X[1, 0:3:2, 1:4:2])
    np.testing.assert_array_equal(b, X[0, :, 1:3])


def test_out_of_bounds_slice_is_reported():
    src = """func.func @f(%t: tensor<2x3x4xf32>, %o: index) -> tensor<2x2xf32> {
      %a = tensor.extract_slice %t[1, 0, %o] [1, 2, 2] [1, 2, 2]
        : tensor<2x3x4xf32> to tensor<2x2xf32>
      return %a : tensor<2x2xf32>
    }"""
    with pytest.raises(InterpreterError, match="slice along dimension 2 is out of bounds"):
        run(src, X, 3)


def test_insert_slice():
    src = """func.func @f(%d: tensor<4x4xi32>, %s: tensor<2xi32>) -> tensor<4x4xi32> {
      %r = tensor.insert_slice %s into %d[1, 0] [1, 2] [1, 2] : tensor<2xi32> into tensor<4x4xi32>
      return %r : tensor<4x4xi32>
    }"""
    d = np.zeros((4, 4), np.int32)
    r = run(src, d, np.array([7, 8], np.int32))[0]
    expect = d.copy()
    expect[1, 0:3:2] = [7, 8]
    np.testing.assert_array_equal(r, expect)
    assert not d.any()


def test_reshapes():
    src = """func.func @f(%t: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> (tensor<6x4xf32>,
        tensor<2x3x2x2xf32>, tensor<?x?xf32>) {
      %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
      %e = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2]
        : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
      %r = tensor.reshape %t(%s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
      return %c, %e, %r : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x?xf32>
    }"""
    c, e, r = run(src, X, np.array([4, 6], np.int64))
    np.testing.assert_array_equal(c, X.reshape(6, 4))
    np.testing.assert_array_equal(e, X.reshape(2, 3, 2, 2))
    np.testing.assert_array_equal(r, X.reshape(4, 6))
    with pytest.raises(InterpreterError, match="cannot reshape"):
        run(src, X, np.array([5, 5], np.int64))


def test_pad_generate_concat_cast():
    src = """func.func @f(%t: tensor<2x3xf32>, %n: index) -> (tensor<5x4xf32>, tensor<?x3xindex>,
        tensor<4x3xf32>, tensor<?x3xf32>) {
      %z = arith.constant 9.0 : f32
      %p = tensor.pad %t low[1, 0] high[2, 1] {
      ^bb0(%i: index, %j: index):
        tensor.yield %z : f32
      } : tensor<2x3xf32> to tensor<5x4xf32>
      %g = tensor.generate %n {
      ^bb0(%i: index, %j: index):
        %s = arith.muli %i, %j : index
        tensor.yield %s : index
      } : tensor<?x3xindex>
      %c = tensor.concat dim(0) %t, %t : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
      %k = tensor.cast %t : tensor<2x3xf32> to tensor<?x3xf32>
      return %p, %g, %c, %k : tensor<5x4xf32>, tensor<?x3xindex>, tensor<4x3xf32>,
        tensor<?x3xf32>
    }"""
    t = np.arange(6, dtype=np.float32).reshape(2, 3)
    p, g, c, k = run(src, t, 4)
    np.testing.assert_array_equal(p, np.pad(t, ((1, 2), (0, 1)), constant_values=9))
    np.testing.assert_array_equal(g, np.outer(np.arange(4), np.arange(3)))
    np.testing.assert_array_equal(c, np.concatenate([t, t]))
    np.testing.assert_array_equal(k, t)


def test_pad_with_index_dependent_value_and_region_fallback():
    src = """func.func @f(%t: tensor<2xi32>) -> tensor<4xi32> {
      %p = tensor.pad %t low[1] high[1] {
      ^bb0(%i: index):
        %c0 = arith.constant 0 : index
        %is0 = arith.cmpi eq, %i, %c0 : index
        %v = scf.if %is0 -> i32 {
          %a = arith.constant -1 : i32
          scf.yield %a : i32
        } else {
          %b = arith.constant -2 : i32
          scf.yield %b : i32
        }
        tensor.yield %v : i32
      } : tensor<2xi32> to tensor<4xi32>
      return %p : tensor<4xi32>
    }"""
    np.testing.assert_array_equal(run(src, np.array([5, 6], np.int32))[0], [-1, 5, 6, -2])


def test_gather_and_scatter():
    src = """func.func @f(%s: tensor<3x4x5xf32>, %i: tensor<2x1xindex>) -> (tensor<2x3x1x5xf32>,
        tensor<2x3x5xf32>) {
      %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<3x4x5xf32>, tensor<2x1xindex>)
        -> tensor<2x3x1x5xf32>
      %h = tensor.gather %s[%i] gather_dims([1]) : (tensor<3x4x5xf32>, tensor<2x1xindex>)
        -> tensor<2x3x5xf32>
      return %g, %h : tensor<2x3x1x5xf32>, tensor<2x3x5xf32>
    }"""
    s = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    idx = np.array([[3], [1]], np.int64)
    g, h = run(src, s, idx)
    expect = np.stack([s[:, 3, :], s[:, 1, :]])
    np.testing.assert_array_equal(h, expect)
    np.testing.assert_array_equal(g, expect[:, :, None, :])
    with pytest.raises(InterpreterError, match="index 4 is out of bounds for dimension 1"):
        run(src, s, np.array([[4], [0]], np.int64))
    src = """func.func @f(%s: tensor<2x3x1x5xf32>, %d: tensor<3x4x5xf32>, %i: tensor<2x1xindex>)
        -> tensor<3x4x5xf32> {
      %r = tensor.scatter %s into %d[%i] scatter_dims([1]) unique : (tensor<2x3x1x5xf32>,
        tensor<3x4x5xf32>, tensor<2x1xindex>) -> tensor<3x4x5xf32>
      return %r : tensor<3x4x5xf32>
    }"""
    d = np.zeros((3, 4, 5), np.float32)
    r = run(src, g, d, idx)[0]
    expect = d.copy()
    expect[:, 3, :] = s[:, 3, :]
    expect[:, 1, :] = s[:, 1, :]
    np.testing.assert_array_equal(r, expect)


def test_bitcast():
    src = """func.func @f(%t: tensor<3xf32>) -> tensor<3xi32> {
      %r = tensor.bitcast %t : tensor<3xf32> to tensor<3xi32>
      return %r : tensor<3xi32>
    }"""
    t = np.array([1.0, -2.0, 0.5], np.float32)
    np.testing.assert_array_equal(run(src, t)[0], t.view(np.int32))
