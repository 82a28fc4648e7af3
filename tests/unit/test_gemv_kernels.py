"""The few-rows path of the pre-packed GEMM kernels (strata_sgemm_packed[_epi]_f32 with
M <= GEMV_MAX_ROWS: strata_gemv_packed, [Note: few rows on packed B] in
strata/backends/cpu/kernels_gemm.py), run through llvmlite and compared with NumPy in
float64: every row count of the path and the first one past it, panel groups and their
remainders, column tails of one vector or less, every epilogue flag, accumulation,
padded leading dimensions, threads and the tile word's one-thread split; the sizes the
prologue refuses or treats as empty never reach it."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from strata.backends.cpu import kernels  # noqa: E402
from strata.backends.cpu.kernels_gemm import (GEMV_MAX_ROWS, SPLIT_NONE,  # noqa: E402
                                              gemm_functions, gemv_panels, tile_word)
from strata.conversion.cpu_kernel_abi import (ACT_NAMES, ACT_SHIFT, EPI_BIAS,  # noqa: E402
                                              EPI_RELU, EPI_ROW_BIAS)

RNG = np.random.default_rng(7)


# the kernel library and a thread count set per test, as the autotune tests take them
from test_autotune import lib, threads  # noqa: E402,F401  (fixtures)


_PACKED: dict = {}


def _weights(K, N, isa):
    """A K x N matrix and its packed panels for `isa` (made once per size)."""
    key = (K, N, isa.nr)
    if key not in _PACKED:
        B = RNG.standard_normal((K, N), np.float32)
        _PACKED[key] = B, kernels.pack_b(B, isa)
    return _PACKED[key]


def _product(lib, M, N, K, epi, acc, tile=0, pad=(3, 5)):
    """C (+)= A . packed(B), then the epilogue `epi` (None: strata_sgemm_packed_f32), with
    A and C's leading dimensions padded; checks C's padding is untouched and returns C
    and the float64 reference."""
    lda, ldc = K + pad[0], N + pad[1]
    A = RNG.standard_normal((M, lda), np.float32)
    B, packed = _weights(K, N, lib.isa)
    bias = RNG.standard_normal(max(M, N)).astype(np.float32)
    C = RNG.standard_normal((M, ldc)).astype(np.float32)
    C0 = C.copy()
    want = A[:, :K].astype(np.float64) @ B + (C0[:, :N] if acc else 0)
    if epi is None:
        lib.sgemm_packed(M, N, K, A.ctypes.data, lda, packed.ctypes.data, C.ctypes.data,
                         ldc, acc, tile)
    else:
        lib.sgemm_packed_epi(M, N, K, A.ctypes.data, lda, packed.ctypes.data,
                             C.ctypes.data, ldc, acc, bias.ctypes.data, epi, tile)
        if epi & EPI_BIAS:
            want = want + bias[:N]
        if epi & EPI_ROW_BIAS:
            want = want + bias[:M, None]
        if epi & EPI_RELU:
            want = np.maximum(want, 0)
    assert np.array_equal(C[:, N:], C0[:, N:]), "wrote past N"
    return C[:, :N], want


# N: one column, a tail of one vector or less (narrow), a panel and a bit, groups of 4
# panels with remainders of 1 to 3, the MLP's 1024 and 10; K: 1, odd, across the
# unrolled loop's tail, the MLP's 784
SIZES = [(1, 1), (5, 3), (16, 2), (17, 7), (33, 70), (130, 9), (200, 65), (10, 1024),
         (1024, 784), (250, 33)]


@pytest.mark.parametrize("threads", [1, 2, 3], indirect=True)
@pytest.mark.parametrize("M", range(1, GEMV_MAX_ROWS + 2))
def test_few_rows_match_numpy(lib, threads, M):
    """Every row count of the path (and the blocked driver's first one after it), every
    flag alone and together, accumulating or not, with and without the epilogue."""
    for N, K in SIZES:
        for epi in (None, 0, EPI_BIAS, EPI_RELU, EPI_BIAS | EPI_RELU, EPI_ROW_BIAS):
            for acc in (0, 1):
                got, want = _product(lib, M, N, K, epi, acc)
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3,
                                           err_msg=f"M={M} N={N} K={K} epi={epi} acc={acc}")


@pytest.mark.parametrize("threads", [2], indirect=True)
def test_split_over_threads_and_not(lib, threads):
    """A product big enough to split its panels over the threads gives the same result
    split (chunks of panels claimed by the pool) and on the calling thread alone (the
    tile word's SPLIT_NONE); the word's blocking fields change nothing."""
    for M in (1, 3):
        for tile in (0, tile_word(split=SPLIT_NONE), tile_word(kc=16, mc=8, nc=32)):
            got, want = _product(lib, M, 2000, 300, EPI_BIAS | EPI_RELU, 1, tile=tile)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def test_activations(lib):
    """Every activation code of the epilogue, as the blocked driver computes it (M = 5
    runs there: the same product, row by row, is the reference)."""
    K, N = 40, 70
    A = RNG.standard_normal((GEMV_MAX_ROWS + 1, K), np.float32)
    B = RNG.standard_normal((K, N), np.float32)
    bias = RNG.standard_normal(N).astype(np.float32)
    packed = kernels.pack_b(B, lib.isa)
    for code in ACT_NAMES:
        epi = EPI_BIAS | (code << ACT_SHIFT)
        ref = np.zeros((A.shape[0], N), np.float32)
        lib.sgemm_packed_epi(A.shape[0], N, K, A.ctypes.data, K, packed.ctypes.data,
                             ref.ctypes.data, N, 0, bias.ctypes.data, epi, 0)
        for M in range(1, GEMV_MAX_ROWS + 1):
            C = np.zeros((M, N), np.float32)
            lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data,
                                 C.ctypes.data, N, 0, bias.ctypes.data, epi, 0)
            np.testing.assert_allclose(C, ref[:M], rtol=1e-5, atol=1e-5,
                                       err_msg=ACT_NAMES[code])


def test_sizes_that_never_reach_it(lib):
    """Empty products, negative sizes and an unknown activation code write nothing; K = 0
    zeroes C unless accumulating (the prologue the few-rows path shares)."""
    A = np.ones((2, 8), np.float32)
    packed = kernels.pack_b(np.ones((8, 8), np.float32), lib.isa)
    bias = np.ones(8, np.float32)
    C = np.full((2, 8), 7, np.float32)
    for M, N, K in ((0, 8, 8), (2, 0, 8), (-1, 8, 8), (2, -3, 8)):
        lib.sgemm_packed_epi(M, N, K, A.ctypes.data, 8, packed.ctypes.data, C.ctypes.data,
                             8, 0, bias.ctypes.data, EPI_BIAS, 0)
        lib.sgemm_packed(M, N, K, A.ctypes.data, 8, packed.ctypes.data, C.ctypes.data, 8,
                         0, 0)
    assert (C == 7).all()
    bad = len(ACT_NAMES) << ACT_SHIFT
    lib.sgemm_packed_epi(2, 8, 8, A.ctypes.data, 8, packed.ctypes.data, C.ctypes.data, 8,
                         0, bias.ctypes.data, bad, 0)
    assert (C == 7).all()
    lib.sgemm_packed(2, 8, 0, A.ctypes.data, 8, packed.ctypes.data, C.ctypes.data, 8, 1, 0)
    assert (C == 7).all()
    lib.sgemm_packed(2, 8, 0, A.ctypes.data, 8, packed.ctypes.data, C.ctypes.data, 8, 0, 0)
    assert (C == 0).all()


def test_every_isa_builds_it():
    """The path exists for every ISA, its panel groups within the vector registers, and
    the public pre-packed kernels branch to it; other ISAs run it too (LLVM legalizes
    their vector types)."""
    for name in ("avx512", "avx2", "sse", "neon"):
        isa = kernels.isa_for(name)
        regs = 32 if name in ("avx512", "neon") else 16
        text = "\n".join(gemm_functions(isa))
        for m in range(1, GEMV_MAX_ROWS + 1):
            p = gemv_panels(isa, m)
            assert m * p * isa.nv + p * isa.nv + 1 <= regs or p == 1
            assert f"define internal void @strata_gemv_{m}x{p}(" in text
        assert text.count("call void @strata_gemv_packed(") == 2
    # SSE: 16 registers, so 3 and 4 rows stream one panel at a time (the groups' end
    # is where the single panels start), and a tail of one vector (narrow)
    host = kernels.host_isa()
    # (test_microkernels.test_other_isas's ISA: the same build)
    isa = kernels.isa_for("sse", cpu=host.cpu, features=host.features, kc=64, mc=24,
                          nc=4 * kernels.isa_for("sse").nr)
    assert [gemv_panels(isa, m) for m in range(1, 5)] == [2, 2, 1, 1]
    other = kernels.KernelLibrary(isa)
    for M in range(1, GEMV_MAX_ROWS + 1):
        for N in (3 * isa.nr + 1, 2 * isa.nr + isa.width + 2):
            got, want = _product(other, M, N, 37, EPI_BIAS | EPI_RELU, 1)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
