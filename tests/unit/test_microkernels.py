"""The fp32 GEMM kernels (strata/backends/cpu/kernels.py), run on their own through
llvmlite and compared with NumPy; the strata-linalg-to-microkernels pass
(strata/conversion/linalg_to_microkernels.py) executed: memref-level functions lowered to
LLVM and JIT'd with the kernels, and ONNX models through the CPU target vs the
interpreter. The pass's IR is checked in tests/lit/conversion/linalg-to-microkernels."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

llvmlite = pytest.importorskip("llvmlite")

from strata.backends.cpu import kernels  # noqa: E402

RNG = np.random.default_rng(1234)

# (M, N, K): batch 1, odd sizes, K = 1, tiles and their tails, sizes across the blocking
# (KC = 256, MC = 144 on AVX2), M around the small/blocked switch (8 and 16).
SHAPES = [(1, 1, 1), (1, 5, 3), (3, 17, 1), (1, 1024, 784), (2, 40, 70), (7, 33, 65),
          (8, 16, 16), (15, 31, 9), (16, 16, 16), (17, 31, 300), (64, 100, 513),
          (150, 70, 20), (6, 16, 4), (33, 47, 259), (20, 8, 1), (13, 1, 40), (40, 3, 600)]


@pytest.fixture(scope="module")
def lib():
    return kernels.load_kernels()


def _run(lib, M, N, K, nt=False, acc=False, pad=(0, 0, 0), tile=0):
    """C (+)= A . B with leading dimensions padded by `pad` (tile word `tile`); checks the
    padding of C is untouched and returns the relative error against float64."""
    lda, ldc = K + pad[0], N + pad[2]
    A = RNG.standard_normal((M, lda), np.float32)
    if nt:
        B = RNG.standard_normal((N, K + pad[1]), np.float32)
        Bm = B[:, :K].T
    else:
        B = RNG.standard_normal((K, N + pad[1]), np.float32)
        Bm = B[:, :N]
    C = RNG.standard_normal((M, ldc), np.float32)
    C0 = C.copy()
    f = lib.sgemm_nt if nt else lib.sgemm
    f(M, N, K, A.ctypes.data, lda, B.ctypes.data, B.shape[1], C.ctypes.data, ldc, int(acc),
      tile)
    ref = A[:, :K].astype(np.float64) @ Bm.astype(np.float64) + (C0[:, :N] if acc else 0)
    assert np.array_equal(C[:, N:], C0[:, N:]), "wrote past N"
    return np.abs(C[:, :N] - ref).max() / max(np.abs(ref).max(), 1e-6)


@pytest.mark.parametrize("nt", [False, True], ids=["ab", "abt"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_sgemm_matches_numpy(lib, shape, nt):
    for acc in (False, True):
        assert _run(lib, *shape, nt=nt, acc=acc) < 1e-5
    assert _run(lib, *shape, nt=nt, acc=True, pad=(3, 5, 2)) < 1e-5


@pytest.mark.parametrize("nt", [False, True], ids=["ab", "abt"])
def test_blocked_sizes(lib, nt):
    """Across K and N blocks (K > KC, N > NC on AVX2), and M > MC."""
    assert _run(lib, 150, 2100, 300, nt=nt) < 1e-5


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("M,N,K,mc", [
    (24, 2100, 300, 0),      # one row block: B packed panel by panel, 2 N and 2 K blocks
    (144, 70, 20, 0),        # M = MC: still one block
    (145, 70, 20, 0),        # one row more: the block packed whole, two row blocks
    (24, 2100, 300, 16),     # a tile word's MC of 16: two row blocks, the whole block
    (9, 33, 300, 144),       # one row panel and a tail, N tail of 1 column
])
def test_b_packed_panel_by_panel(lib, threads, M, N, K, mc):
    """[Note: B packed panel by panel] (kernels_gemm.py): a single row block packs each
    B panel just before its use, else the whole block once; across N and K blocks,
    accumulating, leading dimensions padded (nothing read or written past N)."""
    from strata.backends.cpu.kernels_gemm import tile_word
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for acc in (False, True):
            assert _run(lib, M, N, K, acc=acc, pad=(1, 3, 5), tile=tile_word(mc=mc)) < 1e-5
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("threads", [1, 3])
def test_threads(lib, threads):
    """The same results on 1 and 3 threads: slices of columns (wide C), of rows (narrow
    C), of packed panels, of a convolution's pixels, of a batch."""
    lib.set_num_threads(threads)
    try:
        assert lib.get_num_threads() == threads
        assert _run(lib, 300, 200, 100, acc=True) < 1e-5          # by columns
        assert _run(lib, 400, 40, 200, nt=True) < 1e-5            # by rows
        B = RNG.standard_normal((150, 100), np.float32)
        A = RNG.standard_normal((200, 150), np.float32)
        packed = kernels.pack_b(B, lib.isa)
        C = np.zeros((200, 100), np.float32)
        lib.sgemm_packed(200, 100, 150, A.ctypes.data, 150, packed.ctypes.data,
                         C.ctypes.data, 100, 0, 0)
        np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-4)
        x = RNG.standard_normal((1, 16, 34, 34), np.float32)
        w = RNG.standard_normal((32, 16, 3, 3), np.float32)
        o = np.zeros((1, 32, 32, 32), np.float32)
        lib.conv2d_nchw(1, 16, 34, 34, 32, 3, 3, 32, 32, 1, 1, 1, 1, 0, 0, x.ctypes.data,
                        16 * 34 * 34, 34 * 34, 34, w.ctypes.data, o.ctypes.data,
                        32 * 32 * 32, 0, 0)
        np.testing.assert_allclose(o, _conv_nchw_ref(x, w, (1, 1), (1, 1)), rtol=1e-4,
                                   atol=1e-3)
        # a batch of small products: chunks of the batch in parallel
        a3 = RNG.standard_normal((17, 64, 64), np.float32)
        b3 = RNG.standard_normal((17, 64, 64), np.float32)
        c3 = np.ones((17, 64, 64), np.float32)
        lib.sgemm_nt_batched(17, 64, 64, 64, a3.ctypes.data, 64, 4096, b3.ctypes.data, 64,
                             4096, c3.ctypes.data, 64, 4096, 1, 0)
        np.testing.assert_allclose(c3, 1 + a3 @ b3.transpose(0, 2, 1), rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(kernels.default_threads())


def test_empty_and_k0(lib):
    C = np.full((3, 4), 7, np.float32)
    A = np.ones((3, 1), np.float32)
    for M, N in ((0, 4), (3, 0)):
        lib.sgemm(M, N, 5, A.ctypes.data, 5, A.ctypes.data, 4, C.ctypes.data, 4, 0, 0)
    assert (C == 7).all()
    lib.sgemm(3, 4, 0, A.ctypes.data, 1, A.ctypes.data, 4, C.ctypes.data, 4, 1, 0)
    assert (C == 7).all()   # accumulate nothing
    lib.sgemm_nt(3, 4, 0, A.ctypes.data, 1, A.ctypes.data, 1, C.ctypes.data, 4, 0, 0)
    assert (C == 0).all()   # C = empty sum


def test_batched(lib):
    """Batch strides, a broadcast operand (stride 0), both B layouts."""
    b, M, N, K = 3, 5, 19, 11
    A = RNG.standard_normal((b, M, K), np.float32)
    W = RNG.standard_normal((K, N), np.float32)
    C = np.zeros((b, M, N), np.float32)
    lib.sgemm_batched(b, M, N, K, A.ctypes.data, K, M * K, W.ctypes.data, N, 0,
                      C.ctypes.data, N, M * N, 0, 0)
    np.testing.assert_allclose(C, A @ W, rtol=1e-5, atol=1e-5)
    Bt = RNG.standard_normal((b, N, K), np.float32)
    lib.sgemm_nt_batched(b, M, N, K, A.ctypes.data, K, M * K, Bt.ctypes.data, K, N * K,
                         C.ctypes.data, N, M * N, 1, 0)
    np.testing.assert_allclose(C, A @ W + A @ Bt.transpose(0, 2, 1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("M,N,K", [(1, 7, 5), (20, 33, 300), (150, 70, 600),
                                   (4, 300, 900), (6, 40, 1030), (3, 96, 17)])
@pytest.mark.parametrize("transposed", [False, True])
def test_packed_b(lib, M, N, K, transposed):
    """packed(B) from NumPy (pack_b, of B or of a transposed view of B^T, as a weight
    read transposed is packed) and from the kernel agree; the packed GEMM uses it
    (a panel of rows or fewer: the whole K in one block)."""
    B = RNG.standard_normal((K, N), np.float32)
    packed = kernels.pack_b(np.ascontiguousarray(B.T).T if transposed else B, lib.isa)
    assert packed.size == kernels.packed_b_size(K, N, lib.isa)
    out = np.full(packed.size, np.nan, np.float32)
    lib.sgemm_pack_b(K, N, B.ctypes.data, N, out.ctypes.data)
    np.testing.assert_array_equal(out, packed)
    A = RNG.standard_normal((M, K), np.float32)
    C = np.ones((M, N), np.float32)
    lib.sgemm_packed(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data, N, 1, 0)
    np.testing.assert_allclose(C, A @ B + 1, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("K,N", [(1, 1), (5, 16), (7, 33), (300, 64), (65, 47)])
@pytest.mark.parametrize("layout", ["row-major", "transposed", "strided"])
def test_pack_b_panels_layouts(K, N, layout):
    """pack_b_panels lays out panel p = B[:, p*NR:(p+1)*NR] (zero padded) whatever B's
    memory order: row-major, a transposed view of an N x K array (an nn.Linear weight,
    packed from its rows) or a strided view; N a multiple of NR or not."""
    from strata.conversion.cpu_kernel_abi import pack_b_panels
    W = RNG.standard_normal((N, 2 * K), np.float32)
    B = {"row-major": np.ascontiguousarray(W[:, :K].T),
         "transposed": np.ascontiguousarray(W[:, :K]).T, "strided": W.T[::2]}[layout]
    assert B.shape == (K, N)
    for nr in (4, 8, 16):
        p = -(-N // nr)
        want = np.zeros((p, K, nr), np.float32)
        for i in range(p):
            cols = B[:, i * nr:(i + 1) * nr]
            want[i, :, :cols.shape[1]] = cols
        np.testing.assert_array_equal(pack_b_panels(B, nr), want.reshape(-1))


@pytest.mark.parametrize("K,N,nr", [(7, 33, 16), (65, 47, 8), (3, 64, 32), (300, 31, 32)])
@pytest.mark.parametrize("layout", ["row-major", "transposed"])
def test_pack_b_panels_into_panel_memory(K, N, nr, layout):
    """pack_b_panels writes into the `out` it is given (panel memory: [Note: packed
    weights written once]), tails of N past a multiple of NR zero padded, whatever was
    in the memory before; the arrays a PanelMemory hands out lie at 64-byte multiples,
    apart, and are known as panel memory through views and memoryviews."""
    from strata.conversion.cpu_kernel_abi import (PanelMemory, in_panel_memory,
                                                  pack_b_panels)
    W = RNG.standard_normal((N, K), np.float32)
    B = np.ascontiguousarray(W.T) if layout == "row-major" else W.T
    want = pack_b_panels(np.ascontiguousarray(B), nr)
    mem = PanelMemory(huge=False)
    small = PanelMemory(huge=False, expect=1000)     # a small model's: NumPy's heap
    assert not in_panel_memory(small.empty(10)) and small.empty(3).ctypes.data % 64 == 0
    p = -(-N // nr)
    first = mem.empty(5)
    out = mem.empty(p * nr * K)
    out[:] = np.nan                     # the padding must be written, not assumed
    assert pack_b_panels(B, nr, out) is out
    np.testing.assert_array_equal(out, want)
    assert out.ctypes.data % 64 == 0 and first.ctypes.data % 64 == 0
    assert out.ctypes.data >= first.ctypes.data + 64
    assert in_panel_memory(out) and in_panel_memory(out[3:].reshape(-1, 1))
    assert in_panel_memory(np.frombuffer(memoryview(out.view(np.uint8)), np.float32))
    assert not in_panel_memory(want) and not in_panel_memory(np.ones(3))


@pytest.mark.parametrize("F,K,mr,groups", [(13, 7, 8, 1), (16, 9, 4, 2), (30, 5, 8, 3)])
def test_pack_a_panels_into_panel_memory(F, K, mr, groups):
    """pack_a_panels into a given `out` equals the panels built one by one: per group,
    ceil(F/G/MR) panels of K x MR, rows past F/G zero (`out` filled with NaN first)."""
    from strata.conversion.cpu_kernel_abi import PanelMemory, pack_a_panels
    a = RNG.standard_normal((F, K), np.float32)
    fg = F // groups
    p = -(-fg // mr)
    want = np.zeros((groups, p, K, mr), np.float32)
    for g in range(groups):
        for i in range(p):
            rows = a[g * fg + i * mr:g * fg + min((i + 1) * mr, fg)]
            want[g, i, :, :rows.shape[0]] = rows.T
    out = PanelMemory(huge=False).empty(want.size)
    out[:] = np.nan
    assert pack_a_panels(a, mr, groups, out) is out
    np.testing.assert_array_equal(out, want.reshape(-1))
    np.testing.assert_array_equal(pack_a_panels(a, mr, groups), want.reshape(-1))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("M,N,K", [(64, 1024, 784), (131, 400, 1000), (600, 900, 880)])
def test_packed_b_k_blocks(lib, threads, M, N, K):
    """Pre-packed B runs the whole K in one block when A holds at most WHOLE_K_A_FLOATS
    (the first two), else the tile word's K blocks (the last); column slices that share
    one packing of A (strata_gemm_parallel) lay it out in the same blocks."""
    from strata.backends.cpu.kernels_gemm import WHOLE_K_A_FLOATS, tile_word
    mp = -(-M // lib.isa.mr) * lib.isa.mr
    assert (mp * K <= WHOLE_K_A_FLOATS) == (M < 600)
    A = RNG.standard_normal((M, K), np.float32)
    B = RNG.standard_normal((K, N), np.float32)
    packed = kernels.pack_b(B, lib.isa)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for word in (0, tile_word(kc=96, mc=60, slices=3)):
            C = np.ones((M, N), np.float32)
            lib.sgemm_packed(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data,
                             N, 1, word)
            np.testing.assert_allclose(C, A.astype(np.float64) @ B + 1, rtol=1e-4,
                                       atol=1e-3)
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("name", ["sse", "neon", "avx512"])
def test_other_isas(name):
    """The kernels for other vector widths and tiles are the same code: they run here
    too (LLVM legalizes the vector types), so their tails and packing are checked."""
    host = kernels.host_isa()
    isa = kernels.isa_for(name, cpu=host.cpu, features=host.features, kc=64, mc=24,
                          nc=4 * kernels.isa_for(name).nr)
    lib = kernels.KernelLibrary(isa)
    for shape in ((1, 5, 3), (7, 33, 65), (30, 150, 140), (17, 31, 9)):
        for nt in (False, True):
            assert _run(lib, *shape, nt=nt, acc=True, pad=(1, 2, 3)) < 1e-5


def test_isa_table():
    assert kernels.isa_for("avx2").nr == 16
    assert kernels.isa_for("avx512").nr == 32
    with pytest.raises(ValueError):
        kernels.isa_for("mmx")
    with pytest.raises(ValueError):
        kernels.kernel_library_ir(["strata_sgemm_f64"])
    ir = kernels.kernel_library_ir(["strata_sgemm_f32"])
    assert "define void @strata_sgemm_f32(" in ir
    assert dataclasses.replace(kernels.isa_for("sse"), mr=4).mr == 4


# ---------------------------------------------------------------- the pass, executed

_MEMREF_FUNCS = """
func.func @mm(%a: memref<5x9xf32>, %b: memref<9x21xf32>, %c: memref<5x21xf32>) {
  linalg.matmul ins(%a, %b : memref<5x9xf32>, memref<9x21xf32>) outs(%c : memref<5x21xf32>)
  return
}
func.func @mm_nt_zero(%a: memref<5x9xf32>, %b: memref<21x9xf32>, %c: memref<5x21xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<5x21xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : memref<5x9xf32>, memref<21x9xf32>) outs(%c : memref<5x21xf32>)
  return
}
func.func @bmm_bcast(%a: memref<3x5x9xf32>, %b: memref<9x21xf32>, %c: memref<3x5x21xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : memref<3x5x9xf32>, memref<9x21xf32>) outs(%c : memref<3x5x21xf32>)
  return
}
func.func @bmm(%a: memref<3x5x9xf32>, %b: memref<3x21x9xf32>, %c: memref<3x5x21xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : memref<3x5x9xf32>, memref<3x21x9xf32>) outs(%c : memref<3x5x21xf32>)
  return
}
func.func @sub(%a: memref<8x12xf32>, %b: memref<9x21xf32>, %c: memref<5x21xf32>) {
  %v = memref.subview %a[2, 3] [5, 9] [1, 1]
      : memref<8x12xf32> to memref<5x9xf32, strided<[12, 1], offset: 27>>
  linalg.matmul ins(%v, %b : memref<5x9xf32, strided<[12, 1], offset: 27>>, memref<9x21xf32>)
      outs(%c : memref<5x21xf32>)
  return
}
func.func @conv_nchw(%i: memref<2x3x11x10xf32>, %w: memref<6x3x3x2xf32>,
                     %o: memref<2x6x5x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>,
      strides = dense<2> : tensor<2xi64>}
      ins(%i, %w : memref<2x3x11x10xf32>, memref<6x3x3x2xf32>) outs(%o : memref<2x6x5x4xf32>)
  return
}
func.func @conv_1x1(%i: memref<2x4x6x5xf32>, %w: memref<7x4x1x1xf32>, %o: memref<2x7x6x5xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}
      ins(%i, %w : memref<2x4x6x5xf32>, memref<7x4x1x1xf32>) outs(%o : memref<2x7x6x5xf32>)
  return
}
func.func @conv_nhwc(%i: memref<2x9x8x3xf32>, %w: memref<3x2x3x5xf32>, %wt: memref<5x3x2x3xf32>,
                     %o: memref<2x7x7x5xf32>, %o2: memref<2x7x7x5xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}
      ins(%i, %w : memref<2x9x8x3xf32>, memref<3x2x3x5xf32>) outs(%o : memref<2x7x7x5xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}
      ins(%i, %wt : memref<2x9x8x3xf32>, memref<5x3x2x3xf32>) outs(%o2 : memref<2x7x7x5xf32>)
  return
}
"""


@pytest.fixture(scope="module")
def lowered():
    """_MEMREF_FUNCS through the pass and the LLVM lowering, JIT'd with the kernels."""
    import ctypes

    from strata.backends.cpu.jit import JitModule
    from strata.backends.cpu.llvmir import translate_to_llvmir
    from strata.compiler import build_pipeline
    from strata.conversion.linalg_to_microkernels import kernels_used
    from strata.dialects import default_context
    from strata.ir import attributes as A
    from strata.runtime import descriptor_type, runtime_symbols
    from strata.syntax.parser import parse_source
    m = parse_source(_MEMREF_FUNCS, default_context(), "funcs.mlir")
    for op in m.regions[0].blocks[0].ops:
        op.set_attr("llvm.emit_c_interface", A.UnitAttr())
    build_pipeline(["strata-linalg-to-microkernels"]).run(m)
    assert "linalg." not in str(m)
    assert kernels_used(m) == {"strata_sgemm_f32", "strata_sgemm_nt_f32",
                               "strata_sgemm_nt_batched_f32", "strata_conv2d_nchw_f32",
                               "strata_conv2d_nhwc_f32"}
    build_pipeline(["convert-scf-to-cf", "convert-to-llvm",
                    "reconcile-unrealized-casts"]).run(m)
    jit = JitModule(translate_to_llvmir(m),
                    symbols={**runtime_symbols(), **kernels.kernel_symbols()})

    def call(name, *arrays):
        descs = []
        for a in arrays:
            d = descriptor_type(a.ndim)()
            d.allocated = d.aligned = a.ctypes.data
            for i in range(a.ndim):
                d.sizes[i], d.strides[i] = a.shape[i], a.strides[i] // a.itemsize
            descs.append(d)
        f = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(arrays))(
            jit.address_of(f"_mlir_ciface_{name}"))
        f(*[ctypes.addressof(d) for d in descs])
    call.jit = jit
    return call


def _conv_nchw_ref(x, w, strides, dilations):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                      j * dw:j * dw + sw * (ow - 1) + 1:sw]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out


def test_pass_contractions_run(lowered):
    a, b = RNG.standard_normal((5, 9), np.float32), RNG.standard_normal((9, 21), np.float32)
    c = RNG.standard_normal((5, 21), np.float32)
    want = c + a @ b
    lowered("mm", a, b, c)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)
    bt = np.ascontiguousarray(b.T)
    c = np.full((5, 21), np.nan, np.float32)   # overwritten: the zero fill was folded
    lowered("mm_nt_zero", a, bt, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    a3 = RNG.standard_normal((3, 5, 9), np.float32)
    c3 = np.zeros((3, 5, 21), np.float32)
    lowered("bmm_bcast", a3, b, c3)     # one GEMM of 15 rows
    np.testing.assert_allclose(c3, a3 @ b, rtol=1e-5, atol=1e-5)
    b3 = RNG.standard_normal((3, 21, 9), np.float32)
    lowered("bmm", a3, b3, c3)
    np.testing.assert_allclose(c3, a3 @ b + a3 @ b3.transpose(0, 2, 1), rtol=1e-5, atol=1e-4)
    big = RNG.standard_normal((8, 12), np.float32)
    c = np.zeros((5, 21), np.float32)
    lowered("sub", big, b, c)
    np.testing.assert_allclose(c, big[2:7, 3:12] @ b, rtol=1e-5, atol=1e-5)


def test_pass_convolutions_run(lowered):
    x = RNG.standard_normal((2, 3, 11, 10), np.float32)
    w = RNG.standard_normal((6, 3, 3, 2), np.float32)
    o = RNG.standard_normal((2, 6, 5, 4), np.float32)
    want = o + _conv_nchw_ref(x, w, (2, 2), (1, 2))
    lowered("conv_nchw", x, w, o)
    np.testing.assert_allclose(o, want, rtol=1e-4, atol=1e-4)
    x = RNG.standard_normal((2, 4, 6, 5), np.float32)
    w = RNG.standard_normal((7, 4, 1, 1), np.float32)
    o = np.zeros((2, 7, 6, 5), np.float32)
    lowered("conv_1x1", x, w, o)
    np.testing.assert_allclose(o, _conv_nchw_ref(x, w, (1, 1), (1, 1)), rtol=1e-4, atol=1e-4)
    x = RNG.standard_normal((2, 9, 8, 3), np.float32)
    w = RNG.standard_normal((3, 2, 3, 5), np.float32)      # HWCF
    o, o2 = np.zeros((2, 7, 7, 5), np.float32), np.zeros((2, 7, 7, 5), np.float32)
    lowered("conv_nhwc", x, w, np.ascontiguousarray(w.transpose(3, 0, 1, 2)), o, o2)
    want = _conv_nchw_ref(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (1, 1), (1, 1))
    np.testing.assert_allclose(o, want.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(o2, o, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- ONNX models, end to end


def _onnx_models():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    def model(nodes, inputs, output, inits):
        g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, T.FLOAT, s)
                                      for n, s in inputs],
                         [h.make_tensor_value_info(output, T.FLOAT, None)],
                         [nh.from_array(v, k) for k, v in inits.items()])
        return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)

    f32 = np.float32
    mlp = model([h.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1),
                 h.make_node("Relu", ["h"], ["r"]),
                 h.make_node("MatMul", ["r", "w2"], ["y"])],
                [("x", [3, 20])], "y",
                {"w1": RNG.standard_normal((30, 20)).astype(f32),
                 "b1": RNG.standard_normal(30).astype(f32),
                 "w2": RNG.standard_normal((30, 17)).astype(f32)})
    attn = model([h.make_node("MatMul", ["q", "k"], ["y"])],
                 [("q", [2, 4, 6, 8]), ("k", [2, 4, 8, 6])], "y", {})
    cnn = model([h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1],
                             strides=[2, 2]),
                 h.make_node("Relu", ["c1"], ["r1"]),
                 h.make_node("Conv", ["r1", "w2"], ["y"])],
                [("x", [1, 3, 12, 12])], "y",
                {"w1": RNG.standard_normal((8, 3, 3, 3)).astype(f32),
                 "b1": RNG.standard_normal(8).astype(f32),
                 "w2": RNG.standard_normal((5, 8, 1, 1)).astype(f32)})
    return {"mlp": mlp, "attention": attn, "cnn": cnn}


@pytest.fixture
def cpu_with_kernels(monkeypatch):
    """The CPU target with the pass (weights packed) and the kernels, patched in as its
    integration notes say when the target does not run them itself."""
    target = pytest.importorskip("strata.backends.cpu.target")
    with open(target.__file__, encoding="utf-8") as f:
        integrated = "microkernel_pass" in f.read()
    if not integrated:
        import strata.runtime as runtime
        monkeypatch.setattr(target, "BUFFERIZE_PIPELINE",
                            target.BUFFERIZE_PIPELINE + (kernels.microkernel_pass(),))
        base = runtime.runtime_symbols
        monkeypatch.setattr(runtime, "runtime_symbols",
                            lambda: {**base(), **kernels.kernel_symbols()})


@pytest.mark.parametrize("name", ["mlp", "attention", "cnn"])
def test_onnx_models_on_kernels(cpu_with_kernels, name, tmp_path):
    import strata
    m = _onnx_models()[name]
    feeds = {i.name: RNG.standard_normal([d.dim_value for d in
                                          i.type.tensor_type.shape.dim]).astype(np.float32)
             for i in m.graph.input}
    f = strata.compile(m, target="cpu", dump_dir=str(tmp_path))
    got = f(**feeds)[0]
    lowered = next(tmp_path.glob("*strata-linalg-to-microkernels.mlir")).read_text()
    assert "call @strata_" in lowered and "linalg.matmul" not in lowered and \
        "linalg.batch_matmul" not in lowered and "linalg.conv" not in lowered
    if name == "mlp":   # both weights packed at compile time (bias, ReLU: the epilogue)
        assert lowered.count("call @strata_sgemm_packed_f32") + \
            lowered.count("call @strata_sgemm_packed_epi_f32") == 2
    want = strata.compile(m, target="interpret")(**feeds)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("M,N,K", [(1, 1024, 784), (64, 300, 100), (5, 37, 300),
                                   (150, 70, 600), (7, 200, 20)])
def test_packed_epilogue(lib, threads, M, N, K):
    """strata_sgemm_packed_epi_f32: C = max(C (+ A.B) + bias, 0) with the last K block,
    each flag alone and both, accumulating or not, column tails and slices."""
    from strata.conversion.cpu_kernel_abi import EPI_BIAS, EPI_RELU
    A = RNG.standard_normal((M, K), np.float32)
    B = RNG.standard_normal((K, N), np.float32)
    bias = RNG.standard_normal(N).astype(np.float32)
    packed = kernels.pack_b(B, lib.isa)
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for epi in (EPI_BIAS, EPI_RELU, EPI_BIAS | EPI_RELU):
            for acc in (0, 1):
                C = RNG.standard_normal((M, N)).astype(np.float32)
                want = A.astype(np.float64) @ B + (C if acc else 0)
                lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data,
                                     C.ctypes.data, N, acc, bias.ctypes.data, epi, 0)
                if epi & EPI_BIAS:
                    want = want + bias
                if epi & EPI_RELU:
                    want = np.maximum(want, 0)
                np.testing.assert_allclose(C, want, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


def test_kernels_fingerprint(tmp_path):
    """The kernel object's cache key follows the sources that generate the kernels (not the
    1.4 MB IR text, which took 0.28 s a process to make): per Isa, and changed by an edit
    to any module of the package, to linalg_to_microkernels, to cpu_kernel_abi (the
    kernels' flags: epilogues, attention) or to polynomial.py (exp, the activations and
    the softmax's exp2 that kernel_ir writes into the kernels)."""
    import os
    import shutil
    assert kernels.kernels_fingerprint(kernels.isa_for("avx2")) != \
        kernels.kernels_fingerprint(kernels.isa_for("sse"))
    here = os.path.dirname(os.path.abspath(kernels.__file__))
    tree = tmp_path / "strata"
    shutil.copytree(here, tree / "backends" / "cpu",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "conversion").mkdir()
    for name in ("linalg_to_microkernels.py", "cpu_kernel_abi.py"):
        shutil.copy(os.path.join(here, "..", "..", "conversion", name), tree / "conversion")
    (tree / "transforms" / "math").mkdir(parents=True)
    shutil.copy(os.path.join(here, "..", "..", "transforms", "math", "polynomial.py"),
                tree / "transforms" / "math")
    cpu = str(tree / "backends" / "cpu")
    first = kernels.generator_digest(cpu)
    assert first == kernels.generator_digest(here)
    seen = {first}
    for edited in (tree / "backends" / "cpu" / "kernels_gemm.py",
                   tree / "conversion" / "linalg_to_microkernels.py",
                   tree / "conversion" / "cpu_kernel_abi.py",
                   tree / "transforms" / "math" / "polynomial.py"):
        edited.write_text(edited.read_text() + "\nEPI_NEW = 64\n")
        digest = kernels.generator_digest(cpu)
        assert digest not in seen
        seen.add(digest)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("M,N,K", [(9, 16, 40), (17, 48, 33), (16, 196, 144), (3, 36, 70),
                                   (150, 784, 65), (70, 8, 300), (8, 1, 9)])
def test_narrow_tails(lib, threads, M, N, K):
    """[Note: narrow micro-kernels]: N tails of one vector or less (196 = 6 x 32 + 4 on
    AVX-512) through the narrow variants, every M tail, accumulating or not, B as given,
    transposed and packed (with the epilogue's bias per column, masked), column slices
    cut in vectors on 2 and 3 threads; nothing past N is written."""
    from strata.conversion.cpu_kernel_abi import EPI_BIAS, EPI_RELU
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for nt in (False, True):
            for acc in (False, True):
                assert _run(lib, M, N, K, nt=nt, acc=acc, pad=(1, 3, 5)) < 1e-5
        A = RNG.standard_normal((M, K), np.float32)
        B = RNG.standard_normal((K, N), np.float32)
        bias = RNG.standard_normal(N).astype(np.float32)
        packed = kernels.pack_b(B, lib.isa)
        C = RNG.standard_normal((M, N + 7)).astype(np.float32)
        C0 = C.copy()
        lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data,
                             N + 7, 1, bias.ctypes.data, EPI_BIAS | EPI_RELU, 0)
        want = np.maximum(A.astype(np.float64) @ B + C0[:, :N] + bias, 0)
        np.testing.assert_allclose(C[:, :N], want, rtol=1e-4, atol=1e-3)
        assert np.array_equal(C[:, N:], C0[:, N:])
    finally:
        lib.set_num_threads(prev)


def test_narrow_variants_built():
    """The rows driver calls a narrow variant (one vector per row) for every row count,
    packed and in-place A, with and without the epilogue, where NR is several vectors;
    NEON's NR of 3 vectors too; never for an ISA of one vector per row."""
    from strata.backends.cpu.kernels_gemm import _rows, gemm_functions
    for name in ("avx512", "avx2", "neon"):
        isa = kernels.isa_for(name)
        text = "\n".join(gemm_functions(isa))
        for mr in range(1, isa.mr + 1):
            for kind in ("p", "a", "pe", "ae"):
                assert f"define internal void @strata_ukr_{mr}{kind}_n1(" in text
        assert "_n1(" in _rows(isa, True) and "_n1(" in _rows(isa, False)
    one = dataclasses.replace(kernels.isa_for("sse"), nv=1)
    assert "_n1" not in "\n".join(gemm_functions(one))
