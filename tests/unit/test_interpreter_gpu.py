"""The interpreter runs the gpu dialect: kernels launched with gpu.launch_func and
gpu.launch run every block and thread (strata/interpreter/ops_gpu.py, [Note: SIMT
interpretation]); results are compared with NumPy."""
import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.interpreter import ops_gpu
from strata.ir.verifier import verify
from strata.syntax.parser import parse_source


def run(text, fn, *args):
    m = parse_source(text, default_context(), "k.mlir")
    verify(m)
    return Interpreter(m).call(fn, *args)


ELEMENTWISE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %p = arith.mulf %a, %xv : f32
        %s = arith.addf %p, %yv : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %c63 = arith.constant 63 : index
    %t = arith.addi %n, %c63 : index
    %nb = arith.divui %t, %c64 : index
    gpu.launch_func @kernels::@axpy blocks in (%nb, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}
"""


@pytest.mark.parametrize("n", [1, 64, 100, 1000])
def test_elementwise_launch_func(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    want = np.float32(2.5) * x + y
    run(ELEMENTWISE, "main", np.float32(2.5), x, y)
    np.testing.assert_allclose(y, want, rtol=1e-6)


def test_elementwise_in_several_chunks(monkeypatch):
    # Grids larger than a chunk run chunk after chunk (whole blocks each).
    monkeypatch.setattr(ops_gpu, "MAX_CHUNK_THREADS", 128)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    run(ELEMENTWISE, "main", np.float32(2.0), x, y)
    np.testing.assert_array_equal(y, 2 * x + 1)


BLOCK_REDUCE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Sum of each block's 128 elements: a tree in workgroup memory with barriers.
    gpu.func @block_sum(%x: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c64 = arith.constant 64 : index
      %r = scf.while (%s = %c64) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %lt = arith.cmpi ult, %tid, %s : index
        scf.if %lt {
          %j = arith.addi %tid, %s : index
          %a = memref.load %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.shrui %s, %c1 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %total, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>, %out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %nb = memref.dim %out, %c0 : memref<?xf32>
    gpu.launch_func @kernels::@block_sum blocks in (%nb, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
"""


def test_block_reduction_through_shared_memory_and_barriers():
    nb = 5
    x = np.random.default_rng(0).standard_normal(nb * 128).astype(np.float32)
    out = np.zeros(nb, np.float32)
    run(BLOCK_REDUCE, "main", x, out)
    np.testing.assert_allclose(out, x.reshape(nb, 128).sum(axis=1), rtol=1e-5, atol=1e-5)


def test_workgroup_memory_is_per_block():
    # Without a barrier-free race: each block sees only its own shared buffer, so the
    # sums do not mix blocks (a single shared buffer would give every block the last).
    nb = 3
    x = np.concatenate([np.full(128, b + 1, np.float32) for b in range(nb)])
    out = np.zeros(nb, np.float32)
    run(BLOCK_REDUCE, "main", x, out)
    np.testing.assert_array_equal(out, [128, 256, 384])


WARP_REDUCE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_max(%x: memref<?xf32>, %out: memref<?xf32>, %sums: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %c32 = arith.constant 32 : i32
      %c16 = arith.constant 16 : i32
      %c8 = arith.constant 8 : i32
      %c4 = arith.constant 4 : i32
      %c2 = arith.constant 2 : i32
      %c1 = arith.constant 1 : i32
      %s16, %ok16 = gpu.shuffle xor %v, %c16, %c32 : f32
      %m16 = arith.maximumf %v, %s16 : f32
      %s8, %ok8 = gpu.shuffle xor %m16, %c8, %c32 : f32
      %m8 = arith.maximumf %m16, %s8 : f32
      %s4, %ok4 = gpu.shuffle xor %m8, %c4, %c32 : f32
      %m4 = arith.maximumf %m8, %s4 : f32
      %s2, %ok2 = gpu.shuffle xor %m4, %c2, %c32 : f32
      %m2 = arith.maximumf %m4, %s2 : f32
      %s1, %ok1 = gpu.shuffle xor %m2, %c1, %c32 : f32
      %m1 = arith.maximumf %m2, %s1 : f32
      %sum = gpu.subgroup_reduce add %v : (f32) -> f32
      %lane = gpu.lane_id
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %w = gpu.subgroup_id : index
        %bid = gpu.block_id x
        %nw = gpu.num_subgroups : index
        %b0 = arith.muli %bid, %nw : index
        %k = arith.addi %b0, %w : index
        memref.store %m1, %out[%k] : memref<?xf32>
        memref.store %sum, %sums[%k] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>, %out: memref<?xf32>, %sums: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@warp_max blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>, %sums : memref<?xf32>)
    return
  }
}
"""


def test_warp_shuffle_and_subgroup_reduction():
    x = np.random.default_rng(1).standard_normal(128).astype(np.float32)
    out = np.zeros(4, np.float32)
    sums = np.zeros(4, np.float32)
    run(WARP_REDUCE, "main", x, out, sums)
    np.testing.assert_array_equal(out, x.reshape(4, 32).max(axis=1))
    np.testing.assert_allclose(sums, x.reshape(4, 32).sum(axis=1), rtol=1e-5, atol=1e-5)


SHUFFLE_MODES = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4x32xi32>, %valid: memref<4x32xi1>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %r0, %v0 = gpu.shuffle xor %v, %c3, %c32 : i32
      %r1, %v1 = gpu.shuffle up %v, %c3, %c32 : i32
      %r2, %v2 = gpu.shuffle down %v, %c5, %c16 : i32
      %r3, %v3 = gpu.shuffle idx %v, %c5, %c32 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      memref.store %r0, %out[%i0, %tid] : memref<4x32xi32>
      memref.store %r1, %out[%i1, %tid] : memref<4x32xi32>
      memref.store %r2, %out[%i2, %tid] : memref<4x32xi32>
      memref.store %r3, %out[%i3, %tid] : memref<4x32xi32>
      memref.store %v0, %valid[%i0, %tid] : memref<4x32xi1>
      memref.store %v1, %valid[%i1, %tid] : memref<4x32xi1>
      memref.store %v2, %valid[%i2, %tid] : memref<4x32xi1>
      memref.store %v3, %valid[%i3, %tid] : memref<4x32xi1>
      gpu.return
    }
  }
  func.func @main(%out: memref<4x32xi32>, %valid: memref<4x32xi1>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%out : memref<4x32xi32>, %valid : memref<4x32xi1>)
    return
  }
}
"""


def test_shuffle_modes():
    out = np.zeros((4, 32), np.int32)
    valid = np.zeros((4, 32), np.bool_)
    run(SHUFFLE_MODES, "main", out, valid)
    lane = np.arange(32)
    np.testing.assert_array_equal(out[0], lane ^ 3)
    assert valid[0].all()
    up_ok = lane >= 3
    np.testing.assert_array_equal(valid[1], up_ok)
    np.testing.assert_array_equal(out[1], np.where(up_ok, lane - 3, lane))
    # width 16: two groups of 16 lanes
    pos = lane % 16
    down_ok = pos + 5 < 16
    np.testing.assert_array_equal(valid[2], down_ok)
    np.testing.assert_array_equal(out[2], np.where(down_ok, lane + 5, lane))
    np.testing.assert_array_equal(out[3], np.full(32, 5))


LAUNCH_2D = """
func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %m7 = arith.addi %m, %c4 : index
  %mm = arith.subi %m7, %c1 : index
  %gy = arith.divui %mm, %c4 : index
  %n7 = arith.addi %n, %c8 : index
  %nn = arith.subi %n7, %c1 : index
  %gx = arith.divui %nn, %c8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sx = %gx, %sy = %gy, %sz = %c1)
             threads(%tx, %ty, %tz) in (%tsx = %c8, %tsy = %c4, %tsz = %c1) {
    %r0 = arith.muli %by, %tsy : index
    %r = arith.addi %r0, %ty : index
    %q0 = arith.muli %bx, %tsx : index
    %q = arith.addi %q0, %tx : index
    %rin = arith.cmpi ult, %r, %m : index
    %qin = arith.cmpi ult, %q, %n : index
    %in = arith.andi %rin, %qin : i1
    cf.cond_br %in, ^body, ^done
  ^body:
    %v = memref.load %a[%r, %q] : memref<?x?xf32>
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %g = arith.addf %v, %f : f32
    memref.store %g, %b[%q, %r] : memref<?x?xf32>
    cf.br ^done
  ^done:
    gpu.terminator
  }
  return
}
"""


def test_2d_gpu_launch_with_branches():
    a = np.random.default_rng(2).standard_normal((10, 13)).astype(np.float32)
    b = np.zeros((13, 10), np.float32)
    run(LAUNCH_2D, "main", a, b)
    np.testing.assert_allclose(b, (a + np.arange(10, dtype=np.float32)[:, None]).T)


PER_THREAD_LOOP = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread t sums x[0..t] (a loop with per-thread bounds) into private memory first.
    gpu.func @prefix(%x: memref<32xi32>, %out: memref<32xi32>)
        private(%acc: memref<1xi32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %t = gpu.thread_id x
      %ub = arith.addi %t, %c1 : index
      memref.store %z, %acc[%c0] : memref<1xi32, #gpu.address_space<private>>
      %s = scf.for %i = %c0 to %ub step %c1 iter_args(%a = %z) -> (i32) {
        %v = memref.load %x[%i] : memref<32xi32>
        %b = arith.addi %a, %v : i32
        %p = memref.load %acc[%c0] : memref<1xi32, #gpu.address_space<private>>
        %q = arith.addi %p, %v : i32
        memref.store %q, %acc[%c0] : memref<1xi32, #gpu.address_space<private>>
        scf.yield %b : i32
      }
      %p = memref.load %acc[%c0] : memref<1xi32, #gpu.address_space<private>>
      %eq = arith.cmpi eq, %p, %s : i32
      cf.assert %eq, "private memory and the loop disagree"
      memref.store %s, %out[%t] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main(%x: memref<32xi32>, %out: memref<32xi32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@prefix blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<32xi32>, %out : memref<32xi32>)
    return
  }
}
"""


def test_per_thread_loop_bounds_and_private_memory():
    x = np.arange(1, 33, dtype=np.int32)
    out = np.zeros(32, np.int32)
    run(PER_THREAD_LOOP, "main", x, out)
    np.testing.assert_array_equal(out, np.cumsum(x))


EARLY_EXIT_BARRIER = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<64xi32>) workgroup(%buf: memref<64xi32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      %c40 = arith.constant 40 : index
      %t = gpu.thread_id x
      %v = arith.index_cast %t : index to i32
      memref.store %v, %buf[%t] : memref<64xi32, 3>
      %late = arith.cmpi uge, %t, %c40 : index
      cf.cond_br %late, ^exit, ^work
    ^work:
      gpu.barrier
      %j = arith.subi %c63, %t : index
      %w = memref.load %buf[%j] : memref<64xi32, 3>
      memref.store %w, %out[%t] : memref<64xi32>
      gpu.return
    ^exit:
      gpu.return
    }
  }
  func.func @main(%out: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<64xi32>)
    return
  }
}
"""


def test_barrier_after_early_exit_waits_for_live_threads():
    out = np.full(64, -1, np.int32)
    run(EARLY_EXIT_BARRIER, "main", out)
    np.testing.assert_array_equal(out[:40], 63 - np.arange(40))
    np.testing.assert_array_equal(out[40:], -1)


DIVERGENT_BARRIER = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %lt = arith.cmpi ult, %t, %c16 : index
      scf.if %lt {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
"""


def test_divergent_barrier_is_reported():
    with pytest.raises(InterpreterError, match="not reached by every thread of a block"):
        run(DIVERGENT_BARRIER, "main")


OUT_OF_BOUNDS = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<30xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<30xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<30xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<30xf32>)
    return
  }
}
"""


def test_out_of_bounds_access_names_the_thread():
    with pytest.raises(InterpreterError, match=r"index 30 is out of bounds .*thread "
                                                r"\(30, 0, 0\) of block \(0, 0, 0\)"):
        run(OUT_OF_BOUNDS, "main", np.zeros(30, np.float32))


ALL_REDUCE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xi32>, %a: memref<?xi32>, %b: memref<?xi32>,
                %c: memref<?xi32>) kernel {
      %i = gpu.global_id x
      %bid = gpu.block_id x
      %v = memref.load %x[%i] : memref<?xi32>
      %s = gpu.all_reduce add %v {} : (i32) -> i32
      %m = gpu.all_reduce maxui %v {} : (i32) -> i32
      %r = gpu.all_reduce %v {
      ^bb0(%l: i32, %q: i32):
        %o = arith.ori %l, %q : i32
        gpu.yield %o : i32
      } : (i32) -> i32
      memref.store %s, %a[%bid] : memref<?xi32>
      memref.store %m, %b[%bid] : memref<?xi32>
      memref.store %r, %c[%bid] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xi32>, %a: memref<?xi32>, %b: memref<?xi32>,
                  %c: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c48 = arith.constant 48 : index
    gpu.launch_func @kernels::@k blocks in (%c3, %c1, %c1) threads in (%c48, %c1, %c1)
        args(%x : memref<?xi32>, %a : memref<?xi32>, %b : memref<?xi32>, %c : memref<?xi32>)
    return
  }
}
"""


def test_all_reduce_with_op_and_region():
    x = np.random.default_rng(3).integers(-100, 100, 144).astype(np.int32)
    a, b, c = (np.zeros(3, np.int32) for _ in range(3))
    run(ALL_REDUCE, "main", x, a, b, c)
    blocks = x.reshape(3, 48)
    np.testing.assert_array_equal(a, blocks.sum(axis=1))
    np.testing.assert_array_equal(b, blocks.view(np.uint32).max(axis=1).view(np.int32))
    np.testing.assert_array_equal(c, np.bitwise_or.reduce(blocks, axis=1))


HOST_OPS = """
func.func @main(%h: memref<8xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<8xf32>, memref<8xf32>
  gpu.wait [%t2]
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%tx] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %d[%tx] : memref<8xf32>
    gpu.terminator
  }
  gpu.memcpy %out, %d : memref<8xf32>, memref<8xf32>
  gpu.dealloc %d : memref<8xf32>
  return
}
"""


def test_host_side_alloc_memcpy_launch():
    h = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    run(HOST_OPS, "main", h, out)
    np.testing.assert_array_equal(out, 2 * h)


def test_thread_ids_outside_a_kernel_are_refused():
    text = """
func.func @main() -> index {
  %t = gpu.thread_id x
  return %t : index
}
"""
    with pytest.raises(InterpreterError, match="only inside a GPU kernel"):
        run(text, "main")


SUBVIEWS = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread takes a subview of 4 elements at its own offset (of global and of
    // shared memory) and works through it.
    gpu.func @k(%x: memref<64xf32>, %y: memref<64xf32>)
        workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %o = arith.muli %t, %c4 : index
      %xs = memref.subview %x[%o] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
      %bs = memref.subview %buf[%o] [4] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<4xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %xs[%i] : memref<4xf32, strided<[1], offset: ?>>
        %w = arith.addf %v, %v : f32
        memref.store %w, %bs[%i] : memref<4xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %c63 = arith.constant 63 : index
      %r = arith.subi %c63, %o : index
      %e = memref.load %buf[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %e, %y[%o] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%x : memref<64xf32>, %y : memref<64xf32>)
    return
  }
}
"""


def test_subviews_at_thread_offsets_of_global_and_shared_memory():
    x = np.arange(64, dtype=np.float32)
    y = np.full(64, -1, np.float32)
    run(SUBVIEWS, "main", x, y)
    o = np.arange(16) * 4
    np.testing.assert_array_equal(y[o], 2 * x[63 - o])
    mask = np.ones(64, bool)
    mask[o] = False
    assert (y[mask] == -1).all()


ATOMICS_AND_PARALLEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread adds its value into one of 4 bins (atomics from many threads land
    // on the same addresses), and sums 0..7 of a row with an scf.parallel reduction.
    gpu.func @k(%x: memref<?xf32>, %bins: memref<4xf32>, %ibins: memref<4xi32>,
                %m: memref<64x8xf32>, %rows: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %i = gpu.global_id x
      %b = arith.remui %i, %c4 : index
      %v = memref.load %x[%i] : memref<?xf32>
      %old = memref.atomic_rmw addf %v, %bins[%b] : (f32, memref<4xf32>) -> f32
      %one = arith.constant 1 : i32
      %o2 = memref.atomic_rmw addi %one, %ibins[%b] : (i32, memref<4xi32>) -> i32
      %t = gpu.thread_id x
      %s = scf.parallel (%j) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
        %e = memref.load %m[%t, %j] : memref<64x8xf32>
        scf.reduce(%e : f32) {
        ^bb0(%l: f32, %r: f32):
          %a = arith.addf %l, %r : f32
          scf.reduce.return %a : f32
        }
      }
      memref.store %s, %rows[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>, %bins: memref<4xf32>, %ibins: memref<4xi32>,
                  %m: memref<64x8xf32>, %rows: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %bins : memref<4xf32>, %ibins : memref<4xi32>,
             %m : memref<64x8xf32>, %rows : memref<64xf32>)
    return
  }
}
"""


def test_atomics_from_many_threads_and_parallel_loops_in_kernels():
    x = np.arange(64, dtype=np.float32)
    bins = np.zeros(4, np.float32)
    ibins = np.zeros(4, np.int32)
    m = np.random.default_rng(7).standard_normal((64, 8)).astype(np.float32)
    rows = np.zeros(64, np.float32)
    run(ATOMICS_AND_PARALLEL, "main", x, bins, ibins, m, rows)
    np.testing.assert_array_equal(bins, x.reshape(16, 4).sum(axis=0))
    np.testing.assert_array_equal(ibins, [16] * 4)
    np.testing.assert_allclose(rows, m.sum(axis=1), rtol=1e-5, atol=1e-6)


FEW_THREADS_LONG_LOOPS = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 3 threads, each summing a row of 2000 in a cf loop (what one-thread launches of
    // host loops look like after convert-scf-to-cf).
    gpu.func @rows(%x: memref<3x2000xf32>, %out: memref<3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 2000 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      cf.br ^loop(%c0, %zero : index, f32)
    ^loop(%i: index, %acc: f32):
      %more = arith.cmpi ult, %i, %n : index
      cf.cond_br %more, ^body, ^done
    ^body:
      %v = memref.load %x[%t, %i] : memref<3x2000xf32>
      %a = arith.addf %acc, %v : f32
      %i1 = arith.addi %i, %c1 : index
      cf.br ^loop(%i1, %a : index, f32)
    ^done:
      memref.store %acc, %out[%t] : memref<3xf32>
      gpu.return
    }
    // 8 threads exchanging through shared memory: a barrier keeps them together.
    gpu.func @reverse(%x: memref<8xf32>, %y: memref<8xf32>)
        workgroup(%buf: memref<8xf32, 3>) kernel {
      %c7 = arith.constant 7 : index
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<8xf32>
      memref.store %v, %buf[%t] : memref<8xf32, 3>
      gpu.barrier
      %r = arith.subi %c7, %t : index
      %w = memref.load %buf[%r] : memref<8xf32, 3>
      memref.store %w, %y[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<3x2000xf32>, %out: memref<3xf32>, %a: memref<8xf32>,
                  %b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%x : memref<3x2000xf32>, %out : memref<3xf32>)
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xf32>, %b : memref<8xf32>)
    return
  }
}
"""


def test_few_threads_with_long_loops_and_a_small_barrier_kernel():
    x = np.random.default_rng(9).standard_normal((3, 2000)).astype(np.float32)
    out = np.zeros(3, np.float32)
    a = np.arange(8, dtype=np.float32)
    b = np.zeros(8, np.float32)
    run(FEW_THREADS_LONG_LOOPS, "main", x, out, a, b)
    want = np.zeros(3, np.float32)
    for i in range(2000):  # the loop's own order of float additions
        want += x[:, i]
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(b, a[::-1])
