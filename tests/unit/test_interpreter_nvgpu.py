"""The interpreter runs the nvgpu tensor core ops with the PTX ISA's per-lane fragment
layouts (strata/interpreter/ops_nvgpu.py, [Note: mma fragments]): checked against a
NumPy reference built here from the ISA's tables, written element by element in the
ISA's own numbering (a0 ... a7), independently of the interpreter's register formulas;
a fragment in the wrong layout gives a wrong answer."""
import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.ir.verifier import verify
from strata.syntax.parser import parse_source


def run(text, fn, *args):
    m = parse_source(text, default_context(), "k.mlir")
    verify(m)
    return Interpreter(m).call(fn, *args)


# ---- the PTX ISA tables (9.7.14.5.7 and 9.7.14.5.8), one element at a time

def isa_a_16816(lane, i):
    g, t = lane >> 2, lane % 4
    row = g if (i < 2 or 4 <= i < 6) else g + 8
    col = t * 2 + (i & 1) + (8 if i >= 4 else 0)
    return row, col


def isa_b_16816(lane, i):
    g, t = lane >> 2, lane % 4
    return t * 2 + (i & 1) + (8 if i >= 2 else 0), g


def isa_c(lane, i):
    g, t = lane >> 2, lane % 4
    return (g if i < 2 else g + 8), t * 2 + (i & 1)


def isa_a_1688_tf32(lane, i):
    g, t = lane >> 2, lane % 4
    return (g if i in (0, 2) else g + 8), (t if i in (0, 1) else t + 4)


def isa_b_1688_tf32(lane, i):
    g, t = lane >> 2, lane % 4
    return (t if i == 0 else t + 4), g


def fragments(mat, isa, n_elems, per_reg):
    """(32, registers, per_reg): lane l's elements isa(l, 0 ...) of `mat`."""
    out = np.empty((32, n_elems // per_reg, per_reg), mat.dtype)
    for lane in range(32):
        for i in range(n_elems):
            out[lane, i // per_reg, i % per_reg] = mat[isa(lane, i)]
    return out


def assemble(frags, isa, shape):
    mat = np.zeros(shape, np.float32)
    for lane in range(32):
        for i in range(frags.shape[1] * frags.shape[2]):
            mat[isa(lane, i)] = frags[lane, i // frags.shape[2], i % frags.shape[2]]
    return mat


MMA = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: memref<64x4x2xf16>, %b: memref<64x2x2xf16>, %c: memref<64x2x2xf32>,
                  %d: memref<64x2x2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %av = vector.load %a[%t, %c0, %c0] : memref<64x4x2xf16>, vector<4x2xf16>
      %bv = vector.load %b[%t, %c0, %c0] : memref<64x2x2xf16>, vector<2x2xf16>
      %cv = vector.load %c[%t, %c0, %c0] : memref<64x2x2xf32>, vector<2x2xf32>
      %dv = nvgpu.mma.sync (%av, %bv, %cv) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      vector.store %dv, %d[%t, %c0, %c0] : memref<64x2x2xf32>, vector<2x2xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x4x2xf16>, %b: memref<64x2x2xf16>, %c: memref<64x2x2xf32>,
                  %d: memref<64x2x2xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64x4x2xf16>, %b : memref<64x2x2xf16>, %c : memref<64x2x2xf32>, %d : memref<64x2x2xf32>)
    return
  }
}
"""


def _mma_case(seed):
    rng = np.random.default_rng(seed)
    a = [rng.standard_normal((16, 16)).astype(np.float16) for _ in range(2)]   # 2 warps
    b = [rng.standard_normal((16, 8)).astype(np.float16) for _ in range(2)]
    c = [rng.standard_normal((16, 8)).astype(np.float32) for _ in range(2)]
    fa = np.concatenate([fragments(x, isa_a_16816, 8, 2) for x in a])
    fb = np.concatenate([fragments(x, isa_b_16816, 4, 2) for x in b])
    fc = np.concatenate([fragments(x, isa_c, 4, 2) for x in c])
    return a, b, c, fa, fb, fc


def test_mma_sync_m16n8k16_f16_matches_the_isa():
    a, b, c, fa, fb, fc = _mma_case(0)
    d = np.zeros((64, 2, 2), np.float32)
    run(MMA, "main", fa, fb, fc, d)
    for w in range(2):
        got = assemble(d[32 * w:32 * w + 32], isa_c, (16, 8))
        ref = a[w].astype(np.float32) @ b[w].astype(np.float32) + c[w]
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-5)


def test_mma_sync_wrong_fragment_layout_gives_a_wrong_answer():
    a, b, c, fa, fb, fc = _mma_case(1)
    # A handed over as if its fragments were laid out like C's rows (a common mistake:
    # registers 1 and 2 swapped: rows g+8 / columns +8 exchanged)
    bad = fa[:, [0, 2, 1, 3], :].copy()
    d = np.zeros((64, 2, 2), np.float32)
    run(MMA, "main", bad, fb, fc, d)
    got = assemble(d[:32], isa_c, (16, 8))
    ref = a[0].astype(np.float32) @ b[0].astype(np.float32) + c[0]
    assert not np.allclose(got, ref, rtol=1e-3, atol=1e-2)


TF32 = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: memref<32x4x1xf32>, %b: memref<32x2x1xf32>, %d: memref<32x2x2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %av = vector.load %a[%t, %c0, %c0] : memref<32x4x1xf32>, vector<4x1xf32>
      %bv = vector.load %b[%t, %c0, %c0] : memref<32x2x1xf32>, vector<2x1xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %dv = nvgpu.mma.sync (%av, %bv, %z) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      vector.store %dv, %d[%t, %c0, %c0] : memref<32x2x2xf32>, vector<2x2xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<32x4x1xf32>, %b: memref<32x2x1xf32>, %d: memref<32x2x2xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<32x4x1xf32>, %b : memref<32x2x1xf32>, %d : memref<32x2x2xf32>)
    return
  }
}
"""


def test_mma_sync_tf32_rounds_operands():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal((8, 8)).astype(np.float32)
    d = np.zeros((32, 2, 2), np.float32)
    run(TF32, "main", fragments(a, isa_a_1688_tf32, 4, 1),
        fragments(b, isa_b_1688_tf32, 2, 1), d)
    got = assemble(d, isa_c, (16, 8))

    def tf32(x):
        return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    ref = tf32(a).astype(np.float64) @ tf32(b).astype(np.float64)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
    # (TF32 keeps 10 mantissa bits: the f32 product differs visibly)
    assert np.abs(got - a.astype(np.float64) @ b).max() > 1e-4


LDMATRIX = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ld(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %d: memref<32x2x2xf32>,
                 %fa: memref<32x4x2xf16>, %fb: memref<32x2x2xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %sa = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<16x8xf16, #gpu.address_space<workgroup>>
      %r = arith.remui %t, %c16 : index
      %half = arith.divui %t, %c16 : index
      // lanes 0-15 copy rows of A (and of B), into shared memory
      %lo = arith.cmpi ult, %t, %c16 : index
      scf.if %lo {
        scf.for %j = %c0 to %c16 step %c1 {
          %v = memref.load %a[%t, %j] : memref<16x16xf16>
          memref.store %v, %sa[%t, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
        }
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %b[%t, %j] : memref<16x8xf16>
          memref.store %v, %sb[%t, %j] : memref<16x8xf16, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // A: lane l gives row l % 16, column 8 (l / 16): the four 8x8 quarters in
      // fragment order; B (k x n, row-major): lane l gives row l % 16, transposed
      %col = arith.muli %half, %c8 : index
      %av = nvgpu.ldmatrix %sa[%r, %col] numTiles = 4 transpose = false : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %bv = nvgpu.ldmatrix %sb[%r, %c0] numTiles = 2 transpose = true : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      vector.store %av, %fa[%t, %c0, %c0] : memref<32x4x2xf16>, vector<4x2xf16>
      vector.store %bv, %fb[%t, %c0, %c0] : memref<32x2x2xf16>, vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %dv = nvgpu.mma.sync (%av, %bv, %z) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      vector.store %dv, %d[%t, %c0, %c0] : memref<32x2x2xf32>, vector<2x2xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %d: memref<32x2x2xf32>,
                  %fa: memref<32x4x2xf16>, %fb: memref<32x2x2xf16>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@ld blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<16x8xf16>, %d : memref<32x2x2xf32>, %fa : memref<32x4x2xf16>, %fb : memref<32x2x2xf16>)
    return
  }
}
"""


def test_ldmatrix_gives_the_mma_fragments():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 8)).astype(np.float16)
    d = np.zeros((32, 2, 2), np.float32)
    fa = np.zeros((32, 4, 2), np.float16)
    fb = np.zeros((32, 2, 2), np.float16)
    run(LDMATRIX, "main", a, b, d, fa, fb)
    np.testing.assert_array_equal(fa, fragments(a, isa_a_16816, 8, 2))
    np.testing.assert_array_equal(fb, fragments(b, isa_b_16816, 4, 2))
    np.testing.assert_allclose(assemble(d, isa_c, (16, 8)),
                               a.astype(np.float32) @ b.astype(np.float32),
                               rtol=1e-6, atol=1e-5)


def test_mma_sync_needs_the_whole_warp():
    text = MMA.replace("%dv = nvgpu.mma.sync", "%lt = arith.constant 40 : index\n"
                       "      %p = arith.cmpi ult, %t, %lt : index\n"
                       "      %dv = scf.if %p -> (vector<2x2xf32>) {\n"
                       "      %m = nvgpu.mma.sync").replace(
        "-> vector<2x2xf32>\n      vector.store",
        "-> vector<2x2xf32>\n      scf.yield %m : vector<2x2xf32>\n"
        "      } else {\n      scf.yield %cv : vector<2x2xf32>\n      }\n      vector.store")
    _, _, _, fa, fb, fc = _mma_case(4)
    with pytest.raises(InterpreterError, match="needs every lane of a warp"):
        run(text, "main", fa, fb, fc, np.zeros((64, 2, 2), np.float32))
