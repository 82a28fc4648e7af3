"""Column slices of a GEMM share one packing of A (strata_gemm_parallel packs it whole,
on the pool, when there are two slices or more): A . B, A . B^T and A . packed(B) with row and K
tails (K across several KC blocks), accumulating and not, against NumPy."""
import numpy as np
import pytest

from strata.backends.cpu import kernels
from strata.backends.cpu.kernels_gemm import SPLIT_N, tile_word

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("M,N,K,kc", [(37, 1024, 515, 0), (64, 784, 1024, 200),
                                      (6, 900, 40, 0), (13, 640, 300, 24)])
def test_shared_a_slices(M, N, K, kc):
    lib = kernels.load_kernels()
    prev = lib.get_num_threads()
    lib.set_num_threads(2)
    try:
        # three slices a thread, each of at least 64 columns: A is packed once
        w = tile_word(kc=kc, split=SPLIT_N, slices=3, min_units=1)
        A = RNG.standard_normal((M, K + 2), np.float32)[:, 1:K + 1]     # lda = K + 2
        B = RNG.standard_normal((K, N), np.float32)
        Bt = np.ascontiguousarray(B.T)
        want = A.astype(np.float64) @ B
        for fn, b, ldb in ((lib.sgemm, B, N), (lib.sgemm_nt, Bt, K)):
            for acc in (0, 1):
                C = np.full((M, N), 2, np.float32)
                fn(M, N, K, A.ctypes.data, K + 2, b.ctypes.data, ldb, C.ctypes.data, N,
                   acc, w)
                np.testing.assert_allclose(C, want + 2 * acc, rtol=1e-4, atol=1e-3)
        packed = kernels.pack_b(B, lib.isa)
        C = np.empty((M, N), np.float32)
        lib.sgemm_packed(M, N, K, A.ctypes.data, K + 2, packed.ctypes.data, C.ctypes.data,
                         N, 0, w)
        np.testing.assert_allclose(C, want, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)
