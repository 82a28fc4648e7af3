"""The fp32 GEMM kernels (strata/backends/cpu/kernels.py), run on their own through
llvmlite and compared with NumPy; the linalg-to-microkernels pass is tested in
test_linalg_to_microkernels.py."""
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


def _run(lib, M, N, K, nt=False, acc=False, pad=(0, 0, 0)):
    """C (+)= A . B with leading dimensions padded by `pad`; checks the padding of C is
    untouched and returns the relative error against float64."""
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
    f(M, N, K, A.ctypes.data, lda, B.ctypes.data, B.shape[1], C.ctypes.data, ldc, int(acc))
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


def test_empty_and_k0(lib):
    C = np.full((3, 4), 7, np.float32)
    A = np.ones((3, 1), np.float32)
    for M, N in ((0, 4), (3, 0)):
        lib.sgemm(M, N, 5, A.ctypes.data, 5, A.ctypes.data, 4, C.ctypes.data, 4, 0)
    assert (C == 7).all()
    lib.sgemm(3, 4, 0, A.ctypes.data, 1, A.ctypes.data, 4, C.ctypes.data, 4, 1)
    assert (C == 7).all()   # accumulate nothing
    lib.sgemm_nt(3, 4, 0, A.ctypes.data, 1, A.ctypes.data, 1, C.ctypes.data, 4, 0)
    assert (C == 0).all()   # C = empty sum


def test_batched(lib):
    """Batch strides, a broadcast operand (stride 0), both B layouts."""
    b, M, N, K = 3, 5, 19, 11
    A = RNG.standard_normal((b, M, K), np.float32)
    W = RNG.standard_normal((K, N), np.float32)
    C = np.zeros((b, M, N), np.float32)
    lib.sgemm_batched(b, M, N, K, A.ctypes.data, K, M * K, W.ctypes.data, N, 0,
                      C.ctypes.data, N, M * N, 0)
    np.testing.assert_allclose(C, A @ W, rtol=1e-5, atol=1e-5)
    Bt = RNG.standard_normal((b, N, K), np.float32)
    lib.sgemm_nt_batched(b, M, N, K, A.ctypes.data, K, M * K, Bt.ctypes.data, K, N * K,
                         C.ctypes.data, N, M * N, 1)
    np.testing.assert_allclose(C, A @ W + A @ Bt.transpose(0, 2, 1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("M,N,K", [(1, 7, 5), (20, 33, 300), (150, 70, 600)])
def test_packed_b(lib, M, N, K):
    """packed(B) from NumPy (pack_b) and from the kernel agree; the packed GEMM uses it."""
    B = RNG.standard_normal((K, N), np.float32)
    packed = kernels.pack_b(B, lib.isa)
    assert packed.size == kernels.packed_b_size(K, N, lib.isa)
    out = np.full(packed.size, np.nan, np.float32)
    lib.sgemm_pack_b(K, N, B.ctypes.data, N, out.ctypes.data)
    np.testing.assert_array_equal(out, packed)
    A = RNG.standard_normal((M, K), np.float32)
    C = np.ones((M, N), np.float32)
    lib.sgemm_packed(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data, N, 1)
    np.testing.assert_allclose(C, A @ B + 1, rtol=1e-4, atol=1e-4)


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
