"""The interpreter on memref and bufferization IR: views alias, undefined behaviour is
reported (bounds, use after free, writes into constants), linalg writes into buffers."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.syntax.parser import parse_source


def interp(src):
    return Interpreter(parse_source(src, default_context(), "t.mlir"))


def run(src, *args, fn="f"):
    return interp(src).call(fn, *args)


def fails(src, *args, match, fn="f"):
    with pytest.raises(InterpreterError, match=match) as e:
        run(src, *args, fn=fn)
    assert "t.mlir:" in str(e.value)  # located at the op
    return e.value


X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_subview_transpose_cast_alias_the_buffer():
    src = """func.func @f(%m: memref<3x4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = arith.constant 100.0 : f32
      %s = memref.subview %m[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to
        memref<2x2xf32, strided<[4, 2], offset: 5>>
      %t = memref.transpose %s (d0, d1) -> (d1, d0) : memref<2x2xf32, strided<[4, 2],
        offset: 5>> to memref<2x2xf32, strided<[2, 4], offset: 5>>
      %c = memref.cast %t : memref<2x2xf32, strided<[2, 4], offset: 5>> to
        memref<?x?xf32, strided<[?, ?], offset: ?>>
      memref.store %v, %c[%c1, %c0] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %r = memref.load %s[%c0, %c1] : memref<2x2xf32, strided<[4, 2], offset: 5>>
      return %r : f32
    }"""
    m = X.copy()
    r, = run(src, m)
    assert r == 100.0 and m[1, 3] == 100.0  # written through the cast of the transpose
    assert (m != X).sum() == 1


def test_rank_reducing_subview_expand_collapse_reinterpret():
    src = """func.func @f(%m: memref<3x4xf32>) -> (memref<4xf32, strided<[1], offset: 4>>,
        memref<2x2xf32, strided<[2, 1], offset: 4>>, memref<12xf32>, memref<2x3xf32>) {
      %row = memref.subview %m[1, 0] [1, 4] [1, 1] : memref<3x4xf32> to
        memref<4xf32, strided<[1], offset: 4>>
      %e = memref.expand_shape %row [[0, 1]] output_shape [2, 2] :
        memref<4xf32, strided<[1], offset: 4>> into memref<2x2xf32, strided<[2, 1], offset: 4>>
      %flat = memref.collapse_shape %m [[0, 1]] : memref<3x4xf32> into memref<12xf32>
      %r = memref.reinterpret_cast %row to offset: [0], sizes: [2, 3], strides: [3, 1] :
        memref<4xf32, strided<[1], offset: 4>> to memref<2x3xf32>
      return %row, %e, %flat, %r : memref<4xf32, strided<[1], offset: 4>>,
        memref<2x2xf32, strided<[2, 1], offset: 4>>, memref<12xf32>, memref<2x3xf32>
    }"""
    m = X.copy()
    row, e, flat, r = run(src, m)
    np.testing.assert_array_equal(row, X[1])
    np.testing.assert_array_equal(e, X[1].reshape(2, 2))
    np.testing.assert_array_equal(r, X.reshape(-1)[:6].reshape(2, 3))  # from the base
    for v in (row, e, flat, r):
        assert np.shares_memory(v, m)


def test_strided_metadata_and_view_of_bytes():
    src = """func.func @f(%m: memref<3x4xf32>, %b: memref<16xi8>) -> (index, index, index,
        memref<2xf32>, index) {
      %s = memref.subview %m[1, 2] [2, 2] [1, 1] : memref<3x4xf32> to
        memref<2x2xf32, strided<[4, 1], offset: 6>>
      %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %s :
        memref<2x2xf32, strided<[4, 1], offset: 6>> -> memref<f32>, index, index, index,
        index, index
      %c4 = arith.constant 4 : index
      %v = memref.view %b[%c4][] : memref<16xi8> to memref<2xf32>
      %b2, %off2, %sz2, %st2 = memref.extract_strided_metadata %v : memref<2xf32> ->
        memref<f32>, index, index, index
      return %off, %st#0, %sz#1, %v, %off2 : index, index, index, memref<2xf32>, index
    }"""
    b = np.arange(16, dtype=np.uint8).view(np.int8)
    off, st0, sz1, v, off2 = run(src, X.copy(), b)
    assert (int(off), int(st0), int(sz1), int(off2)) == (6, 4, 2, 0)
    assert np.shares_memory(v, b)
    assert v.view(np.uint8).tolist() == list(range(4, 12))


def test_load_store_out_of_bounds():
    src = """func.func @f(%m: memref<3x4xf32>, %i: index) -> f32 {
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%c0, %i] : memref<3x4xf32>
      return %x : f32
    }"""
    assert run(src, X.copy(), 3)[0] == 3.0
    fails(src, X.copy(), 4, match="index 4 is out of bounds for dimension 1 of size 4")
    store = """func.func @f(%m: memref<?xf32>, %i: index, %v: f32) {
      memref.store %v, %m[%i] : memref<?xf32>
      return
    }"""
    fails(store, np.zeros(2, np.float32), -1, np.float32(1), match="index -1 is out of bounds")


def test_subview_and_reinterpret_cast_out_of_bounds():
    src = """func.func @f(%m: memref<3x4xf32>, %o: index) {
      %s = memref.subview %m[%o, 0] [2, 4] [1, 1] : memref<3x4xf32> to
        memref<2x4xf32, strided<[4, 1], offset: ?>>
      return
    }"""
    run(src, X.copy(), 1)
    fails(src, X.copy(), 2, match="subview along dimension 0 is out of bounds")
    src = """func.func @f(%m: memref<3x4xf32>) {
      %r = memref.reinterpret_cast %m to offset: [2], sizes: [3, 4], strides: [4, 1] :
        memref<3x4xf32> to memref<3x4xf32, strided<[4, 1], offset: 2>>
      return
    }"""
    fails(src, X.copy(), match="outside its buffer")


def test_use_after_dealloc_and_double_free():
    use = """func.func @f() -> f32 {
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<4xf32>
      %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
      memref.dealloc %a : memref<4xf32>
      %x = memref.load %s[%c0] : memref<2xf32, strided<[1], offset: 1>>
      return %x : f32
    }"""
    fails(use, match="uses a buffer that was freed \\(by memref.dealloc\\)")
    twice = """func.func @f() {
      %a = memref.alloc() : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      return
    }"""
    fails(twice, match="already freed")
    stack = """func.func @f() {
      %a = memref.alloca() : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      return
    }"""
    fails(stack, match="frees a buffer that memref.alloca made")
    linalg = """func.func @f(%v: f32) {
      %a = memref.alloc() : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      linalg.fill ins(%v : f32) outs(%a : memref<4xf32>)
      return
    }"""
    fails(linalg, np.float32(1), match="'linalg.fill' op uses a buffer that was freed")


def test_uninitialized_memory_is_poisoned():
    src = """func.func @f(%n: index) -> (memref<2x?xf32>, memref<3xi32>, memref<2xi1>) {
      %a = memref.alloc(%n) : memref<2x?xf32>
      %b = memref.alloca() : memref<3xi32>
      %c = memref.alloc() : memref<2xi1>
      return %a, %b, %c : memref<2x?xf32>, memref<3xi32>, memref<2xi1>
    }"""
    a, b, c = run(src, 3)
    assert a.shape == (2, 3) and np.isnan(a).all()
    assert (b.view(np.uint32) == 0xCDCDCDCD).all()
    assert c.all()


def test_alloc_with_strided_layout_has_its_strides():
    src = """func.func @f(%s: index) -> (memref<2x3xf32, strided<[8, 2], offset: 1>>,
        memref<2x3xf32, strided<[?, 1], offset: ?>>) {
      %a = memref.alloc() : memref<2x3xf32, strided<[8, 2], offset: 1>>
      %b = memref.alloc()[%s, %s] : memref<2x3xf32, strided<[?, 1], offset: ?>>
      return %a, %b : memref<2x3xf32, strided<[8, 2], offset: 1>>,
        memref<2x3xf32, strided<[?, 1], offset: ?>>
    }"""
    a, b = run(src, 5)
    assert a.strides == (32, 8) and b.strides == (20, 4)


def test_constant_globals_are_read_only_and_state_persists():
    src = """memref.global "private" constant @w : memref<2xf32> = dense<[1.0, 2.0]>
    memref.global "private" @count : memref<i32> = dense<0>
    memref.global "private" @ext : memref<2xf32>
    func.func @bump() -> i32 {
      %g = memref.get_global @count : memref<i32>
      %x = memref.load %g[] : memref<i32>
      %c1 = arith.constant 1 : i32
      %y = arith.addi %x, %c1 : i32
      memref.store %y, %g[] : memref<i32>
      return %y : i32
    }
    func.func @write(%v: f32) {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @w : memref<2xf32>
      memref.store %v, %g[%c0] : memref<2xf32>
      return
    }
    func.func @copy_into(%m: memref<2xf32>) {
      %g = memref.get_global @w : memref<2xf32>
      memref.copy %m, %g : memref<2xf32> to memref<2xf32>
      return
    }
    func.func @fill(%v: f32) {
      %g = memref.get_global @w : memref<2xf32>
      linalg.fill ins(%v : f32) outs(%g : memref<2xf32>)
      return
    }
    func.func @read_ext() -> memref<2xf32> {
      %g = memref.get_global @ext : memref<2xf32>
      return %g : memref<2xf32>
    }"""
    it = interp(src)
    assert [int(it.call("bump")[0]) for _ in range(3)] == [1, 2, 3]
    for fn, arg in (("write", np.float32(3)), ("copy_into", np.zeros(2, np.float32)),
                    ("fill", np.float32(3))):
        with pytest.raises(InterpreterError, match="writes into read-only memory "
                           "\\(constant memref.global @w\\)"):
            it.call(fn, arg)
    with pytest.raises(InterpreterError, match="@ext is external"):
        it.call("read_ext")
    it.globals["ext"] = np.ones(2, np.float32)
    np.testing.assert_array_equal(it.call("read_ext")[0], [1, 1])


def test_linalg_on_memrefs_writes_in_place():
    src = """func.func @f(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<4x4xf32>) {
      %s = memref.subview %c[1, 2] [2, 2] [1, 1] : memref<4x4xf32> to
        memref<2x2xf32, strided<[4, 1], offset: 6>>
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%s : memref<2x2xf32, strided<[4, 1], offset: 6>>)
      linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>)
        outs(%s : memref<2x2xf32, strided<[4, 1], offset: 6>>)
      return
    }"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(6, dtype=np.float32).reshape(3, 2)
    c = np.full((4, 4), -1, np.float32)
    assert run(src, a, b, c) == []
    want = np.full((4, 4), -1, np.float32)
    want[1:3, 2:4] = a @ b
    np.testing.assert_array_equal(c, want)


def test_collapse_of_non_contiguous_dims_fails():
    src = """func.func @f(%m: memref<3x4xf32>, %n: index) -> memref<?xf32, strided<[?]>> {
      %s = memref.subview %m[0, 0] [3, %n] [1, 1] : memref<3x4xf32> to
        memref<3x?xf32, strided<[4, 1]>>
      %c = memref.collapse_shape %s [[0, 1]] : memref<3x?xf32, strided<[4, 1]>> into
        memref<?xf32, strided<[?]>>
      return %c : memref<?xf32, strided<[?]>>
    }"""
    assert np.shares_memory(run(src, X, 4)[0], X)
    fails(src, X.copy(), 2, match="non-contiguous dims")


def test_alloca_scope_frees_its_allocas_and_atomics():
    src = """func.func @f(%v: f32) -> (f32, f32, memref<2xf32>) {
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<2xf32>
      memref.store %v, %m[%c0] : memref<2xf32>
      %old = memref.atomic_rmw addf %v, %m[%c0] : (f32, memref<2xf32>) -> f32
      %g = memref.generic_atomic_rmw %m[%c0] : memref<2xf32> {
      ^bb0(%cur: f32):
        %n = arith.mulf %cur, %v : f32
        memref.atomic_yield %n : f32
      }
      %r = memref.alloca_scope -> (memref<2xf32>) {
        %a = memref.alloca() : memref<2xf32>
        memref.alloca_scope.return %a : memref<2xf32>
      }
      return %old, %g, %r : f32, f32, memref<2xf32>
    }"""
    old, g, _ = run(src, np.float32(3))
    assert (old, g) == (3.0, 6.0)
    leak = """func.func @f() -> f32 {
      %c0 = arith.constant 0 : index
      %r = memref.alloca_scope -> (memref<2xf32>) {
        %a = memref.alloca() : memref<2xf32>
        memref.alloca_scope.return %a : memref<2xf32>
      }
      %x = memref.load %r[%c0] : memref<2xf32>
      return %x : f32
    }"""
    fails(leak, match="freed \\(by the end of its memref.alloca_scope\\)")


def test_bufferization_ops():
    src = """func.func @f(%t: tensor<3xf32>, %n: index) -> (tensor<3xf32>, tensor<3xf32>,
        tensor<?xf32>, memref<3xf32>, tensor<3xf32>) {
      %c0 = arith.constant 0 : index
      %v = arith.constant 9.0 : f32
      %m = bufferization.to_buffer %t : tensor<3xf32> to memref<3xf32>
      %snap = bufferization.to_tensor %m : memref<3xf32> to tensor<3xf32>
      memref.store %v, %m[%c0] : memref<3xf32>
      %after = bufferization.to_tensor %m restrict : memref<3xf32> to tensor<3xf32>
      %e = bufferization.alloc_tensor(%n) : tensor<?xf32>
      %c = bufferization.clone %m : memref<3xf32> to memref<3xf32>
      %d = bufferization.alloc_tensor() copy(%t) : tensor<3xf32>
      %mat = bufferization.materialize_in_destination %snap in %d :
        (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      bufferization.materialize_in_destination %after in restrict writable %c :
        (tensor<3xf32>, memref<3xf32>) -> ()
      return %snap, %after, %e, %c, %mat : tensor<3xf32>, tensor<3xf32>, tensor<?xf32>,
        memref<3xf32>, tensor<3xf32>
    }"""
    t = np.array([1, 2, 3], np.float32)
    snap, after, e, c, mat = run(src, t, 2)
    np.testing.assert_array_equal(snap, t)  # a snapshot, not a view of the buffer
    np.testing.assert_array_equal(after, [9, 2, 3])
    np.testing.assert_array_equal(t, [1, 2, 3])  # the tensor argument is untouched
    assert e.shape == (2,) and np.isnan(e).all()
    np.testing.assert_array_equal(c, [9, 2, 3])
    np.testing.assert_array_equal(mat, t)
    ro = """func.func @f(%t: tensor<3xf32>, %v: f32) {
      %c0 = arith.constant 0 : index
      %m = bufferization.to_buffer %t read_only : tensor<3xf32> to memref<3xf32>
      memref.store %v, %m[%c0] : memref<3xf32>
      return
    }"""
    fails(ro, t, np.float32(1), match="writes into read-only memory")


def test_ownership_based_dealloc():
    src = """func.func @f(%c: i1) -> (i1, i1, f32) {
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<4xf32>
      %b = memref.alloc() : memref<4xf32>
      %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
      %r:2 = bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%c, %c)
        retain (%s, %b : memref<2xf32, strided<[1], offset: 1>>, memref<4xf32>)
      %x = memref.load %s[%c0] : memref<2xf32, strided<[1], offset: 1>>
      return %r#0, %r#1, %x : i1, i1, f32
    }"""
    r0, r1, _ = run(src, True)  # both retained (aliased): nothing is freed
    assert bool(r0) and bool(r1)
    free = """func.func @f() -> f32 {
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      %a = memref.alloc() : memref<4xf32>
      bufferization.dealloc (%a : memref<4xf32>) if (%true)
      %x = memref.load %a[%c0] : memref<4xf32>
      return %x : f32
    }"""
    fails(free, match="freed \\(by bufferization.dealloc\\)")


def test_dim_rank_realloc():
    src = """func.func @f(%m: memref<?x4xf32>) -> (index, index, memref<6xf32>) {
      %c0 = arith.constant 0 : index
      %d = memref.dim %m, %c0 : memref<?x4xf32>
      %r = memref.rank %m : memref<?x4xf32>
      %a = memref.alloc() : memref<3xf32>
      %f = memref.collapse_shape %m [[0, 1]] : memref<?x4xf32> into memref<?xf32>
      %s = memref.subview %f[0] [3] [1] : memref<?xf32> to memref<3xf32, strided<[1]>>
      memref.copy %s, %a : memref<3xf32, strided<[1]>> to memref<3xf32>
      %b = memref.realloc %a : memref<3xf32> to memref<6xf32>
      return %d, %r, %b : index, index, memref<6xf32>
    }"""
    d, r, b = run(src, X.copy())
    assert (int(d), int(r)) == (3, 2)
    np.testing.assert_array_equal(b[:3], [0, 1, 2])
    assert np.isnan(b[3:]).all()
