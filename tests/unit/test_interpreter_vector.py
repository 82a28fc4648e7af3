"""The interpreter runs the vector dialect (strata/interpreter/ops_vector.py), on the
host and inside GPU kernels (one vector per thread), compared with NumPy."""
import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.ir.verifier import verify
from strata.syntax.parser import parse_source


def run(text, fn, *args):
    m = parse_source(text, default_context(), "v.mlir")
    verify(m)
    return Interpreter(m).call(fn, *args)


OPS = """
func.func @ops(%m: memref<4x8xf32>, %out: memref<4x8xf32>, %i: index)
    -> (vector<4xf32>, f32, vector<8xf32>, vector<4x4xf32>, vector<2x4xf32>, vector<4xf32>,
        vector<4xf32>, f32, vector<8xf32>, vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %v = vector.load %m[%i, %c1] : memref<4x8xf32>, vector<4xf32>
  %s = vector.reduction <add>, %v : vector<4xf32> into f32
  %t = vector.transfer_read %m[%c1, %c1], %pad : memref<4x8xf32>, vector<8xf32>
  %tt = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x8xf32>, vector<4x4xf32>
  %b = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %f = vector.fma %v, %v, %v : vector<4xf32>
  %st = vector.step : vector<4xindex>
  %sti = arith.index_cast %st : vector<4xindex> to vector<4xi32>
  %e = vector.extract %b[1, 2] : f32 from vector<2x4xf32>
  %ins = vector.insert %e, %v [0] : f32 into vector<4xf32>
  %sh = vector.shape_cast %b : vector<2x4xf32> to vector<8xf32>
  vector.transfer_write %sh, %out[%c1, %c0] : vector<8xf32>, memref<4x8xf32>
  %mx = vector.reduction <maximumf>, %t, %s : vector<8xf32> into f32
  return %v, %s, %t, %tt, %b, %f, %ins, %mx, %sh, %sti
    : vector<4xf32>, f32, vector<8xf32>, vector<4x4xf32>, vector<2x4xf32>, vector<4xf32>,
      vector<4xf32>, f32, vector<8xf32>, vector<4xi32>
}
"""


def test_vector_ops_on_the_host():
    m = np.arange(32, dtype=np.float32).reshape(4, 8)
    out = np.zeros((4, 8), np.float32)
    v, s, t, tt, b, f, ins, mx, sh, st = run(OPS, "ops", m, out, np.int64(2))
    np.testing.assert_array_equal(v, m[2, 1:5])
    assert s == m[2, 1:5].sum()
    np.testing.assert_array_equal(t, np.r_[m[1, 1:8], -1])  # padded past the end
    np.testing.assert_array_equal(tt, m[:4, :4].T)
    np.testing.assert_array_equal(b, np.stack([v, v]))
    np.testing.assert_array_equal(f, v * v + v)
    np.testing.assert_array_equal(ins, np.r_[v[2], v[1:]])
    assert mx == max(m[1, 1:8].max(), s)
    np.testing.assert_array_equal(sh, np.r_[v, v])
    np.testing.assert_array_equal(out[1], np.r_[v, v])
    np.testing.assert_array_equal(st, [0, 1, 2, 3])


CONTRACT = """
func.func @mm(%a: vector<4x8xf32>, %b: vector<8x3xf32>, %c: vector<4x3xf32>,
              %x: vector<4xf32>, %y: vector<3xf32>) -> (vector<4x3xf32>, vector<4x3xf32>,
                                                        vector<3xf32>, vector<8x4xf32>) {
  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x3xf32> into vector<4x3xf32>
  %o = vector.outerproduct %x, %y, %c {kind = #vector.kind<add>} : vector<4xf32>, vector<3xf32>
  %m = vector.multi_reduction <add>, %c, %y [0] : vector<4x3xf32> to vector<3xf32>
  %t = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %r, %o, %m, %t : vector<4x3xf32>, vector<4x3xf32>, vector<3xf32>, vector<8x4xf32>
}
"""


def test_contract_outerproduct_multi_reduction():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 8)).astype(np.float32)
    b = rng.standard_normal((8, 3)).astype(np.float32)
    c = rng.standard_normal((4, 3)).astype(np.float32)
    x = rng.standard_normal(4).astype(np.float32)
    y = rng.standard_normal(3).astype(np.float32)
    r, o, m, t = run(CONTRACT, "mm", a, b, c, x, y)
    np.testing.assert_allclose(r, a @ b + c, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o, np.outer(x, y) + c, rtol=1e-6)
    np.testing.assert_allclose(m, c.sum(axis=0) + y, rtol=1e-6)
    np.testing.assert_array_equal(t, a.T)


def test_out_of_bounds_vector_load_is_reported():
    text = """
func.func @f(%m: memref<8xf32>) -> vector<4xf32> {
  %c6 = arith.constant 6 : index
  %v = vector.load %m[%c6] : memref<8xf32>, vector<4xf32>
  return %v : vector<4xf32>
}
"""
    with pytest.raises(InterpreterError, match=r"reads or writes \[6, 10\)"):
        run(text, "f", np.zeros(8, np.float32))


KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread reads a vector<4xf32> at 4 * tid, reduces it, and the warp's first
    // lane broadcasts its value; ballot counts the positive sums per warp.
    gpu.func @k(%x: memref<256xf32>, %sums: memref<64xf32>, %first: memref<64xf32>,
                %ballots: memref<2xi32>) kernel {
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %i = arith.muli %t, %c4 : index
      %v = vector.load %x[%i] : memref<256xf32>, vector<4xf32>
      %d = vector.broadcast %zero : f32 to vector<4xf32>
      %v2 = vector.fma %v, %v, %d : vector<4xf32>
      %s = vector.reduction <add>, %v2 : vector<4xf32> into f32
      memref.store %s, %sums[%t] : memref<64xf32>
      %b = gpu.subgroup_broadcast %s, first_active_lane : f32
      memref.store %b, %first[%t] : memref<64xf32>
      %pos = arith.cmpf ogt, %v2, %d : vector<4xf32>
      %p0 = vector.extract %pos[0] : i1 from vector<4xi1>
      %bal = gpu.ballot %p0 : i32
      %lane = gpu.lane_id
      %w = gpu.subgroup_id : index
      %is0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %is0 {
        memref.store %bal, %ballots[%w] : memref<2xi32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %sums: memref<64xf32>, %first: memref<64xf32>,
                  %ballots: memref<2xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<256xf32>, %sums : memref<64xf32>, %first : memref<64xf32>,
             %ballots : memref<2xi32>)
    return
  }
}
"""


def test_vectors_per_thread_in_a_kernel_with_broadcast_and_ballot():
    x = np.random.default_rng(5).standard_normal(256).astype(np.float32)
    x[::8] = 0  # thread t's first element is 0 for even t: ballot bit clear
    sums = np.zeros(64, np.float32)
    first = np.zeros(64, np.float32)
    ballots = np.zeros(2, np.int32)
    run(KERNEL, "main", x, sums, first, ballots)
    want = (x.reshape(64, 4) ** 2).sum(axis=1)
    np.testing.assert_allclose(sums, want, rtol=1e-5)
    np.testing.assert_allclose(first, np.repeat(want[[0, 32]], 32), rtol=1e-5)
    bits = (x.reshape(64, 4)[:, 0] ** 2 > 0).reshape(2, 32)
    expect = [int(sum(1 << i for i in range(32) if row[i])) for row in bits]
    np.testing.assert_array_equal(ballots.view(np.uint32), expect)
