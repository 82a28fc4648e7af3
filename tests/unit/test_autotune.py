"""Tile words (the GEMM / convolution kernels' run-time blocking and thread split:
[Note: the tile word] in strata/backends/cpu/kernels_gemm.py), the CPU cost model that
chooses them (cost_model.py) and autotuning with its on-disk cache (autotune.py,
`strata.compile(..., tune=True)`, `strata compile --tune`)."""
from __future__ import annotations

import glob
import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from strata.backends.cpu import autotune, cost_model, kernels  # noqa: E402
from strata.backends.cpu.kernels_gemm import (APACK_NO, APACK_YES, SPLIT_AUTO,  # noqa: E402
                                              SPLIT_M, SPLIT_N, SPLIT_NONE, tile_fields,
                                              tile_word)

RNG = np.random.default_rng(11)

# Words across the range: defaults, degenerate blocks (1, not multiples of MR / NR),
# huge ones (the buffers follow the problem, not the word), every split, many slices.
WORDS = [{}, dict(kc=1), dict(kc=7, mc=1, nc=1), dict(kc=16, mc=6, nc=16),
         dict(kc=300, mc=500, nc=5000), dict(kc=65535, mc=65535, nc=65535),
         dict(split=SPLIT_N, slices=1, min_units=1), dict(split=SPLIT_M, slices=15, min_units=1),
         dict(split=SPLIT_NONE), dict(kc=33, mc=13, nc=40, split=SPLIT_N, slices=4, min_units=63),
         dict(kc=24, mc=9, nc=17, split=SPLIT_M, slices=2, min_units=1),
         # A in place / packed whatever N is (the shared packing of column slices too);
         # 3 reads as the kernels' rule
         dict(apack=APACK_NO), dict(apack=APACK_NO, split=SPLIT_N, slices=2, min_units=1),
         dict(apack=APACK_YES, kc=24, mc=9, split=SPLIT_N, slices=2, min_units=1),
         dict(apack=3, mc=16, split=SPLIT_M, slices=1, min_units=1)]
WORD_IDS = [",".join(f"{k}={v}" for k, v in w.items()) or "0" for w in WORDS]


@pytest.fixture(scope="module")
def lib():
    return kernels.load_kernels()


@pytest.fixture
def threads(lib, request):
    prev = lib.get_num_threads()
    lib.set_num_threads(request.param)
    yield request.param
    lib.set_num_threads(prev)


def test_word_fields_round_trip():
    w = tile_word(kc=200, mc=66, nc=512, slices=3, split=SPLIT_M, min_units=1)
    assert tile_fields(w) == dict(kc=200, mc=66, nc=512, slices=3, split=SPLIT_M, min_units=1,
                                  apack=0)
    assert tile_fields(tile_word(apack=APACK_NO, min_units=63)) == \
        dict(kc=0, mc=0, nc=0, slices=0, split=0, min_units=63, apack=APACK_NO)
    assert tile_word() == 0 and tile_fields(0)["kc"] == 0
    with pytest.raises(ValueError, match="does not fit"):
        tile_word(kc=1 << 16)
    with pytest.raises(KeyError):
        tile_word(kx=1)


@pytest.mark.parametrize("threads", [1, 3], indirect=True)
@pytest.mark.parametrize("word", WORDS, ids=WORD_IDS)
def test_gemms_under_tile_words(lib, threads, word):
    """A . B, A . B^T and A . packed(B) with M, N, K tails (odd sizes, across blocks)."""
    w = tile_word(**word)
    for M, N, K in ((37, 53, 71), (150, 70, 300), (9, 200, 515), (64, 17, 33)):
        A = RNG.standard_normal((M, K), np.float32)
        B = RNG.standard_normal((K, N), np.float32)
        Bt = np.ascontiguousarray(B.T)
        want = A.astype(np.float64) @ B
        for fn, b, ldb in ((lib.sgemm, B, N), (lib.sgemm_nt, Bt, K)):
            C = np.full((M, N + 3), 5, np.float32)
            fn(M, N, K, A.ctypes.data, K, b.ctypes.data, ldb, C.ctypes.data, N + 3, 1, w)
            np.testing.assert_allclose(C[:, :N], want + 5, rtol=1e-4, atol=1e-3)
            assert (C[:, N:] == 5).all()
        packed = kernels.pack_b(B, lib.isa)
        C = np.empty((M, N), np.float32)
        lib.sgemm_packed(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data, N, 0, w)
        np.testing.assert_allclose(C, want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize("word", WORDS[::2] + [dict(split=SPLIT_NONE)], ids=str)
def test_batched_under_tile_words(lib, threads, word):
    """Big products (one after the other, each split) and small ones (chunks of the
    batch); SPLIT_NONE runs the batch in chunks; a broadcast B (stride 0)."""
    w = tile_word(**word)
    for b, M, N, K in ((3, 90, 100, 70), (5, 20, 9, 13)):
        A = RNG.standard_normal((b, M, K), np.float32)
        B = RNG.standard_normal((K, N), np.float32)
        C = np.zeros((b, M, N), np.float32)
        lib.sgemm_batched(b, M, N, K, A.ctypes.data, K, M * K, B.ctypes.data, N, 0,
                          C.ctypes.data, N, M * N, 0, w)
        np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-3)
        Bt = RNG.standard_normal((b, N, K), np.float32)
        lib.sgemm_nt_batched(b, M, N, K, A.ctypes.data, K, M * K, Bt.ctypes.data, K, N * K,
                             C.ctypes.data, N, M * N, 1, w)
        np.testing.assert_allclose(C, A @ B + A @ Bt.transpose(0, 2, 1), rtol=1e-4,
                                   atol=1e-3)


def _conv_ref(x, w, s):
    """NCHW x, FCHW w, stride s, no padding."""
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh, ow = (h - kh) // s + 1, (wd - kw) // s + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j].astype(np.float64))
    return out, oh, ow


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize("word", WORDS, ids=WORD_IDS)
def test_convs_under_tile_words(lib, threads, word):
    """NCHW (implicit im2col; KC above Isa.kc is cut to it) and NHWC (im2col + GEMM, both
    filter layouts), 3x3 strides 1 and 2, and a 1x1 (the direct GEMM)."""
    w_ = tile_word(**word)
    for c, h, f, k, s in ((5, 13, 11, 3, 1), (7, 12, 9, 3, 2), (30, 9, 20, 1, 1)):
        x = RNG.standard_normal((2, c, h, h), np.float32)
        wt = RNG.standard_normal((f, c, k, k), np.float32)
        want, oh, ow = _conv_ref(x, wt, s)
        out = np.empty((2, f, oh, ow), np.float32)
        lib.conv2d_nchw(2, c, h, h, f, k, k, oh, ow, s, s, 1, 1, 0, 0, x.ctypes.data, c * h * h,
                        h * h, h, wt.ctypes.data, out.ctypes.data, f * oh * ow, 0, w_)
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-3)
        xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
        for ftrans, filt in ((1, wt.transpose(0, 2, 3, 1)), (0, wt.transpose(2, 3, 1, 0))):
            filt = np.ascontiguousarray(filt)
            out = np.empty((2, oh, ow, f), np.float32)
            lib.conv2d_nhwc(2, h, h, c, f, k, k, oh, ow, s, s, 1, 1, xh.ctypes.data,
                            h * h * c, h * c, c, filt.ctypes.data, ftrans, out.ctypes.data,
                            oh * ow * f, 0, w_)
            np.testing.assert_allclose(out, want.transpose(0, 2, 3, 1), rtol=1e-4,
                                       atol=1e-3)


# ---------------------------------------------------------------- the cost model

CACHES = cost_model.Caches(32 << 10, 512 << 10, 32 << 20, 2)
GEMMS = [("strata_sgemm_f32", dict(batch=1, M=64, N=1024, K=784)),
         ("strata_sgemm_f32", dict(batch=1, M=1024, N=1024, K=1024)),
         ("strata_sgemm_nt_f32", dict(batch=1, M=128, N=1536, K=384)),
         ("strata_sgemm_packed_f32", dict(batch=1, M=128, N=384, K=384)),
         ("strata_sgemm_packed_f32", dict(batch=1, M=13, N=7, K=5)),
         ("strata_sgemm_batched_f32", dict(batch=12, M=128, N=32, K=128)),
         ("strata_sgemm_nt_batched_f32", dict(batch=12, M=128, N=128, K=32)),
         ("strata_sgemm_nt_batched_f32", dict(batch=48, M=8, N=8, K=8)),
         ("strata_conv2d_nchw_f32", dict(N=1, C=64, H=58, W=58, F=64, KH=3, KW=3, OH=56,
                                         OW=56, sh=1, sw=1, dh=1, dw=1)),
         ("strata_conv2d_nchw_f32", dict(N=1, C=3, H=230, W=230, F=64, KH=7, KW=7, OH=112,
                                         OW=112, sh=2, sw=2, dh=1, dw=1)),
         ("strata_conv2d_nchw_f32", dict(N=1, C=256, H=14, W=14, F=1024, KH=1, KW=1,
                                         OH=14, OW=14, sh=1, sw=1, dh=1, dw=1)),
         ("strata_conv2d_nchw_f32", dict(N=1, C=64, H=56, W=56, F=64, KH=3, KW=3, OH=56,
                                         OW=56, sh=1, sw=1, dh=6, dw=6, pt=6, pl=6)),
         ("strata_conv2d_nhwc_f32", dict(N=1, H=30, W=30, C=32, F=48, KH=3, KW=3, OH=28,
                                         OW=28, sh=1, sw=1, dh=1, dw=1, ftrans=1))]


def test_cost_model_padded_1x1_is_no_direct_gemm():
    """A padded 1x1 stride-1 NCHW convolution packs its im2col matrix (the kernel's
    direct GEMM on the image is off when padded): the model's problem is "conv"."""
    isa = kernels.isa_for("avx2")
    shape = dict(N=1, C=32, H=14, W=14, F=64, KH=1, KW=1, OH=14, OW=14, sh=1, sw=1, dh=1,
                 dw=1)
    assert cost_model.gemm_problem("strata_conv2d_nchw_f32", shape, 1, isa).kind == "n"
    shape.update(OH=16, pt=1, pl=0)
    assert cost_model.gemm_problem("strata_conv2d_nchw_f32", shape, 1, isa).kind == "conv"
    shape.update(pt=0)      # padded below only: OH past the image
    assert cost_model.gemm_problem("strata_conv2d_nchw_f32", shape, 1, isa).kind == "conv"


@pytest.mark.parametrize("isa_name", ["avx2", "avx512", "neon"])
@pytest.mark.parametrize("threads", [1, 2, 8])
def test_cost_model_words_are_valid(isa_name, threads):
    isa = kernels.isa_for(isa_name)
    for kernel, shape in GEMMS:
        w = cost_model.choose_tile(kernel, shape, threads, isa, CACHES)
        assert w == cost_model.choose_tile(kernel, dict(shape), threads, isa, CACHES)
        f = tile_fields(w)
        p = cost_model.gemm_problem(kernel, shape, threads, isa)
        if p is None:
            assert w == 0
            continue
        assert f["kc"] % isa.width == 0 and 0 < f["kc"] <= max(1024, isa.kc)
        if p.kind == "conv":
            assert f["kc"] <= isa.kc
        assert f["mc"] % isa.mr == 0 and f["mc"] > 0
        assert f["nc"] % isa.nr == 0 and f["nc"] > 0
        assert f["split"] in (SPLIT_AUTO, SPLIT_N, SPLIT_M, SPLIT_NONE)
        assert f["slices"] <= cost_model.MAX_SLICES_PER_THREAD
        if threads == 1:
            assert f["split"] in (SPLIT_AUTO, SPLIT_NONE)
        text = cost_model.explain(kernel, shape, threads, isa, CACHES)
        assert f"{w:#x}" in text


@pytest.mark.parametrize("isa_name", ["avx2", "avx512"])
@pytest.mark.parametrize("threads", [1, 2])
def test_cost_model_small_a_blocks_on_resident_b(isa_name, threads):
    """[Note: the cost model]: a B block (KC x NC) that stays in L2 (at most
    RESIDENT_B_SHARE of it) gets A blocks of MC_RESIDENT_B rows at most (ConvNeXt's and
    Swin's MLP products: 4-10% faster measured); a bigger B block keeps the L2 rule; the
    blocks stay MR multiples, cut evenly."""
    isa = kernels.isa_for(isa_name)
    caches = cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 1)
    most = -(-cost_model.MC_RESIDENT_B // isa.mr) * isa.mr
    seen = set()
    for M, K, N in [(3136, 96, 384), (3136, 384, 96), (784, 192, 768), (784, 768, 192),
                    (3136, 96, 288), (196, 384, 1536), (49, 768, 3072), (3137, 95, 97),
                    (200, 96, 384), (64, 96, 384)]:
        for kernel in ("strata_sgemm_packed_epi_f32", "strata_sgemm_f32",
                       "strata_sgemm_nt_f32"):
            f = tile_fields(cost_model.choose_tile(kernel, dict(batch=1, M=M, N=N, K=K),
                                                   threads, isa, caches))
            assert f["mc"] % isa.mr == 0 and f["mc"] > 0
            resident = 4 * f["kc"] * f["nc"] <= caches.l2 * cost_model.RESIDENT_B_SHARE
            seen.add(resident)
            if resident:
                assert f["mc"] <= most, (M, K, N, f)
            if resident and threads == 1:
                # even blocks: no block of a few rows left over
                rows = -(-M // (-(-M // most)))
                assert f["mc"] == min(-(-rows // isa.mr) * isa.mr, most), (M, K, N, f)
            elif threads == 1:      # one slice: the A block in 30% of L2, or all of M
                big = min(int(caches.l2 * cost_model.L2_SHARE) // (4 * f["kc"]), 4096)
                assert f["mc"] > most or f["mc"] >= -(-M // isa.mr) * isa.mr or \
                    f["mc"] >= big // isa.mr * isa.mr - isa.mr, (M, K, N, f)
    assert seen == ({True, False} if threads == 1 else {True})


@pytest.mark.parametrize("threads", [1, 2])
def test_resident_b_words_compute_the_product(lib, threads):
    """The words chosen for resident B blocks (many small A blocks, M tails, N tails of
    one vector or less) give the product with its epilogue, packed B as compiled models
    pass it; nothing past N is written."""
    from strata.conversion.cpu_kernel_abi import EPI_BIAS, EPI_RELU
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        for M, K, N in [(1001, 96, 100), (397, 40, 196), (130, 95, 33)]:
            w = cost_model.choose_tile("strata_sgemm_packed_epi_f32",
                                       dict(batch=1, M=M, N=N, K=K), threads, lib.isa,
                                       cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 1))
            most = -(-cost_model.MC_RESIDENT_B // lib.isa.mr) * lib.isa.mr
            assert tile_fields(w)["mc"] <= most
            A = RNG.standard_normal((M, K), np.float32)
            B = RNG.standard_normal((K, N), np.float32)
            bias = RNG.standard_normal(N).astype(np.float32)
            C = RNG.standard_normal((M, N + 5)).astype(np.float32)
            C0 = C.copy()
            packed = kernels.pack_b(B, lib.isa)     # (held: the call reads it)
            lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data,
                                 C.ctypes.data, N + 5, 0, bias.ctypes.data,
                                 EPI_BIAS | EPI_RELU, w)
            want = np.maximum(A.astype(np.float64) @ B + bias, 0)
            np.testing.assert_allclose(C[:, :N], want, rtol=1e-4, atol=1e-3)
            assert np.array_equal(C[:, N:], C0[:, N:])
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("threads", [1, 2])
def test_cost_model_a_in_place(threads):
    """[Note: the cost model]: a strata_sgemm* product of few column panels reads A in
    place (apack = APACK_NO: packing it would cost more than the in-place micro-kernel
    loses), a wide one keeps the kernels' rule (0), as do products the rule already runs
    in place (N < pack_a_min_n, M < MR) and convolutions."""
    caches = cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 1)
    for isa_name, narrow, wide in (("avx512", (96, 192, 288), (384, 768, 1536)),
                                   ("avx2", (96, 144), (192, 384, 768))):
        isa = kernels.isa_for(isa_name)
        for kernel in ("strata_sgemm_packed_epi_f32", "strata_sgemm_f32",
                       "strata_sgemm_nt_f32", "strata_sgemm_batched_f32"):
            for N in narrow + wide:
                for M, K in ((3136, 96), (784, 768), (200, 33)):
                    f = tile_fields(cost_model.choose_tile(
                        kernel, dict(batch=2, M=M, N=N, K=K), threads, isa, caches))
                    assert f["apack"] == (APACK_NO if N in narrow else 0), \
                        (isa_name, kernel, M, N, K)
            for M, N in ((3136, 32), (4, 96)):      # in place already / the small path
                assert tile_fields(cost_model.choose_tile(
                    kernel, dict(batch=1, M=M, N=N, K=64), threads, isa, caches))["apack"] == 0
        conv = dict(N=1, C=96, H=56, W=56, F=96, KH=1, KW=1, OH=56, OW=56, sh=1, sw=1,
                    dh=1, dw=1, ftrans=1)
        for kernel in ("strata_conv2d_nchw_f32", "strata_conv2d_nhwc_f32"):
            assert tile_fields(cost_model.choose_tile(kernel, conv, threads, isa,
                                                      caches))["apack"] == 0


def test_cost_model_blocks_and_unknown_sizes():
    isa = kernels.isa_for("avx2")
    # K = 384 is two equal blocks (not 256 + 128); 147 one block
    f = tile_fields(cost_model.choose_tile("strata_sgemm_f32", dict(batch=1, M=128, N=512,
                                                                    K=384), 2, isa, CACHES))
    assert f["kc"] == 192
    f = tile_fields(cost_model.choose_tile("strata_sgemm_f32", dict(batch=1, M=64, N=512,
                                                                    K=147), 2, isa, CACHES))
    assert f["kc"] == 152
    # a size known at run time only: the run-time split rule, the largest blocks
    w = cost_model.choose_tile("strata_sgemm_f32", dict(batch=1, M=None, N=1024, K=784), 2,
                               isa, CACHES)
    assert tile_fields(w)["split"] == SPLIT_AUTO and tile_fields(w)["mc"] > 0
    # a few rows never reach the blocked driver: 0 (on pre-packed B: up to
    # GEMV_MAX_ROWS, the few-rows path, which splits as it decides at run time)
    assert cost_model.choose_tile("strata_sgemm_f32", dict(batch=1, M=1, N=1024, K=784), 2,
                                  isa, CACHES) == 0
    from strata.backends.cpu.kernels_gemm import GEMV_MAX_ROWS
    for kernel in ("strata_sgemm_packed_f32", "strata_sgemm_packed_epi_f32"):
        for M in range(1, GEMV_MAX_ROWS + 1):
            shape = dict(batch=1, M=M, N=1024, K=1024)
            assert cost_model.choose_tile(kernel, shape, 2, isa, CACHES) == 0
            assert not cost_model.reaches_blocked(kernel, shape, isa)
        assert cost_model.reaches_blocked(kernel, dict(batch=1, M=GEMV_MAX_ROWS + 1,
                                                       N=1024, K=1024), isa)
    # a wide product on 2 threads is split; a tiny one is not worth it
    big = tile_fields(cost_model.choose_tile("strata_sgemm_f32", dict(
        batch=1, M=512, N=512, K=512), 2, isa, CACHES))
    assert big["split"] != SPLIT_NONE
    tiny = tile_fields(cost_model.choose_tile("strata_sgemm_f32", dict(
        batch=1, M=16, N=16, K=16), 2, isa, CACHES))
    assert tiny["split"] in (SPLIT_NONE, SPLIT_AUTO)


def test_host_caches(monkeypatch):
    c = cost_model.host_caches()
    assert 0 < c.l1 <= c.l2 <= c.l3 and c.l3_sharing >= 1
    # no /sys: sysconf where Python has it, else the fallback
    cost_model.host_caches.cache_clear()
    monkeypatch.setattr(cost_model.os, "listdir", lambda d: (_ for _ in ()).throw(OSError()))
    try:
        c = cost_model.host_caches()
        assert c.l1 > 0 and c.l2 > 0 and c.l3 > 0
    finally:
        cost_model.host_caches.cache_clear()


def test_cost_model_words_compute_right(lib):
    """The model's words for small shapes on 2 threads, run."""
    prev = lib.get_num_threads()
    lib.set_num_threads(2)
    try:
        for M, N, K in ((100, 300, 50), (300, 40, 600), (20, 20, 20)):
            w = cost_model.choose_tile("strata_sgemm_f32", dict(batch=1, M=M, N=N, K=K), 2,
                                       lib.isa, cost_model.host_caches())
            A = RNG.standard_normal((M, K), np.float32)
            B = RNG.standard_normal((K, N), np.float32)
            C = np.empty((M, N), np.float32)
            lib.sgemm(M, N, K, A.ctypes.data, K, B.ctypes.data, N, C.ctypes.data, N, 0, w)
            np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-3)
    finally:
        lib.set_num_threads(prev)


# ---------------------------------------------------------------- autotuning


def _model(path):
    """x[40,96] . w1 -> relu -> . w2 (packed weights), and x . xt (both inputs)."""
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh
    rng = np.random.default_rng(0)
    w1 = nh.from_array(rng.standard_normal((96, 80)).astype(np.float32), "w1")
    w2 = nh.from_array(rng.standard_normal((80, 72)).astype(np.float32), "w2")
    g = h.make_graph([h.make_node("MatMul", ["x", "w1"], ["a"]),
                      h.make_node("Relu", ["a"], ["r"]),
                      h.make_node("MatMul", ["r", "w2"], ["y"]),
                      h.make_node("MatMul", ["x", "xt"], ["z"])], "g",
                     [h.make_tensor_value_info("x", T.FLOAT, [40, 96]),
                      h.make_tensor_value_info("xt", T.FLOAT, [96, 56])],
                     [h.make_tensor_value_info("y", T.FLOAT, [40, 72]),
                      h.make_tensor_value_info("z", T.FLOAT, [40, 56])], [w1, w2])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), str(path))
    return w1, w2


@pytest.fixture
def tune_env(tmp_path, monkeypatch):
    """A fresh cache directory (holding the kernel objects already built, so that a
    subprocess does not build them again) and a tiny time budget."""
    pytest.importorskip("onnx")
    src = kernels._cache_dir()
    cache = tmp_path / "cache"
    cache.mkdir()
    if src:
        for f in glob.glob(os.path.join(src, "sgemm-*.o")):
            shutil.copy(f, cache)
    monkeypatch.setenv("STRATA_CACHE_DIR", str(cache))
    monkeypatch.setenv("STRATA_TUNE_TIME", "0.0005")
    model = tmp_path / "mm.onnx"
    _model(model)
    return cache, model


def _check(f, model_path):
    import onnx
    from onnx import numpy_helper as nh
    ws = {i.name: nh.to_array(i) for i in onnx.load(str(model_path)).graph.initializer}
    x = RNG.standard_normal((40, 96)).astype(np.float32)
    xt = RNG.standard_normal((96, 56)).astype(np.float32)
    y, z = f(x, xt)
    np.testing.assert_allclose(z, x @ xt, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(y, np.maximum(x @ ws["w1"], 0) @ ws["w2"], rtol=1e-4,
                               atol=1e-2)


def test_tune_writes_then_reuses_the_cache(tune_env, monkeypatch):
    import strata
    cache, model = tune_env
    runs = []
    real = autotune._Call.run
    monkeypatch.setattr(autotune._Call, "run", lambda self, w: runs.append(w) or
                        real(self, w))
    f = strata.compile(str(model), tune=True, num_threads=2)
    assert f.timings["tune_measured"] == 3 and f.timings["tune_cached"] == 0
    assert runs
    (path,) = glob.glob(str(cache / "tune-*.json"))
    data = json.loads(open(path).read())
    assert data["format"] == 1 and len(data["entries"]) == 3
    assert all(k.endswith(" t=2") for k in data["entries"])
    _check(f, model)
    # the second compile measures nothing
    runs.clear()
    g = strata.compile(str(model), tune=True, num_threads=2)
    assert g.timings["tune_measured"] == 0 and g.timings["tune_cached"] == 3
    assert not runs
    _check(g, model)
    # the words chosen are in the IR
    words = {e["tile"] for e in data["entries"].values()}
    assert words


def test_tune_words_reach_the_calls(tune_env, tmp_path):
    """The tuner's words replace the model's in the kernel calls."""
    import strata
    cache, model = tune_env
    strata.compile(str(model), tune=True, num_threads=2)
    (path,) = glob.glob(str(cache / "tune-*.json"))
    data = json.loads(open(path).read())
    # force a recognizable word into the cache, then compile again
    word = tile_word(kc=8, mc=6, nc=16, split=SPLIT_M, slices=2, min_units=1)
    for e in data["entries"].values():
        e["tile"] = word
    with open(path, "w") as fh:
        json.dump(data, fh)
    g = strata.compile(str(model), tune=True, num_threads=2, dump_dir=tmp_path / "dump")
    _check(g, model)
    (note,) = glob.glob(str(tmp_path / "dump" / "*strata-autotune.mlir"))
    assert open(note).read().count(f"arith.constant {word} : i64") == 3


@pytest.mark.parametrize("content,match", [
    ("{not json", "unreadable"),
    ("[1, 2]", "not a Strata tuning cache"),
    ('{"format": 1, "entries": {"k": {"tile": "x"}}}', "malformed entries"),
    (b"\xff\xfe\x00garbage", "unreadable")])
def test_corrupt_cache_is_ignored_and_rewritten(tune_env, content, match):
    import strata
    cache, model = tune_env
    from strata.backends.cpu.kernels import host_isa
    path = autotune.cache_path(host_isa())
    with open(path, "wb") as fh:
        fh.write(content.encode() if isinstance(content, str) else content)
    with pytest.warns(RuntimeWarning, match=match):
        f = strata.compile(str(model), tune=True, num_threads=2)
    assert f.timings["tune_measured"] == 3
    _check(f, model)
    data = json.loads(open(path).read())
    assert len(data["entries"]) == 3


def test_progress_bar():
    from strata import progress
    out = io.StringIO()
    bar = progress.bar(10, "tuning", out, force=True)
    for i in range(11):
        bar.show(i, "sgemm 64x64x64" if i < 5 else "conv2d_nchw 3x8x8 -> 4 k3x3 s1")
    bar.show(10, "done: 2 calls")
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("strata: tuning [") and "0/10 sgemm" in lines[0]
    assert lines[-1] == f"strata: tuning [{'#' * 30}]   10/10 done: 2 calls"
    assert len(lines) == 3     # not a terminal: a line per call, and the end
    assert progress.bar(10, "tuning", out, force=False).show(3, "x") is None  # silent


def test_cli_compile_tune(tune_env, tmp_path):
    """`strata compile --tune` in a subprocess: the progress bar, then a cache hit."""
    cache, model = tune_env
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "strata.tools.cli", "compile", str(model), "-o",
           str(tmp_path / "mm.ll"), "--emit=llvm", "--tune", "--tune-time", "0.0005",
           "--num-threads", "2"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "tuning [" in r.stderr and "done: 3 calls" in r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp_path / "mm.ll").exists() and glob.glob(str(cache / "tune-*.json"))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root, timeout=600)
    assert r.returncode == 0 and "tuning [" not in r.stderr, r.stderr


def test_pass_reports_shapes_and_hints():
    """strata-linalg-to-microkernels tells `on_call` each call's sizes: a dynamic dim is
    None in `shape` and taken as 1 in `hint` (rows = batch x 16 -> 16)."""
    from strata.conversion.linalg_to_microkernels import lower_to_microkernels
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    src = """
func.func @f(%A: memref<?x16x96xf32>, %B: memref<96x80xf32>, %C: memref<?x16x80xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x16x96xf32>, memref<96x80xf32>) outs(%C : memref<?x16x80xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}
"""
    m = parse_source(src, default_context(), "f.mlir")
    calls = []
    lower_to_microkernels(m, 0, lambda k, s, h: 12345, lambda *c: calls.append(c))
    ((op, kernel, shape, hint, word),) = calls
    assert kernel == "strata_sgemm_f32" and word == 12345
    assert shape == {"batch": 1, "M": None, "N": 80, "K": 96}
    assert hint == {"batch": 1, "M": 16, "N": 80, "K": 96}
    assert autotune.call_key(kernel, shape, 2, hint) == \
        "strata_sgemm_f32 K=96 M=?16 N=80 batch=1 t=2"
    assert op.operands[-1].defining_op.properties["value"].value == 12345


def test_pass_options():
    """kernel-isa is checked; tile-choice=default emits 0; the pass text round-trips."""
    from strata.compiler import build_pipeline
    with pytest.raises(ValueError, match="kernel-isa"):
        build_pipeline("strata-linalg-to-microkernels{kernel-isa=foo}")
    pm = build_pipeline("strata-linalg-to-microkernels{kernel-isa=neon num-threads=4 "
                        "cache-sizes=64,1024,0 tile-choice=default}")
    text = pm.passes[0].pipeline_text()
    assert "kernel-isa=neon" in text and "cache-sizes={64,1024,0}" in text
    assert "tile-choice=default" in text and "num-threads=4" in text


def test_neighbours():
    isa = kernels.isa_for("avx2")
    shape = dict(batch=1, M=128, N=384, K=384)
    w = cost_model.choose_tile("strata_sgemm_f32", shape, 2, isa, CACHES)
    full = cost_model.neighbours(w, "strata_sgemm_f32", shape, 2, isa)
    assert full[:2] == [w, 0] and len(set(full)) == len(full) > 8
    assert {tile_fields(x)["split"] for x in full} == {SPLIT_AUTO, SPLIT_N, SPLIT_M,
                                                       SPLIT_NONE}
    # A read in place tried against the model's packing, and the other way
    assert {tile_fields(x)["apack"] for x in full} == {0, APACK_NO}
    narrow = dict(batch=1, M=3136, N=96, K=384)
    w2 = cost_model.choose_tile("strata_sgemm_f32", narrow, 1, isa, CACHES)
    assert {tile_fields(x)["apack"] for x in cost_model.neighbours(
        w2, "strata_sgemm_f32", narrow, 1, isa)} == {0, APACK_NO, APACK_YES}
    # dynamic dims: no bigger KC than the model's, the run-time split rule
    few = cost_model.neighbours(w, "strata_sgemm_f32", shape, 2, isa, dynamic=True)
    assert set(few) < set(full)
    assert all(tile_fields(x)["kc"] <= tile_fields(w)["kc"] for x in few if x)
    assert all(tile_fields(x)["split"] == tile_fields(w)["split"] for x in few if x)
    # a call that never reaches the blocked driver: nothing to time
    assert cost_model.neighbours(0, "strata_sgemm_f32", dict(batch=1, M=1, N=8, K=8), 2,
                                 isa) == [0]


def test_cost_model_counts_narrow_tails():
    """The cost model computes what the kernels run ([Note: narrow micro-kernels]): a
    last panel of one vector or less costs a vector, not NR columns (and column slices of
    a B packed at run time are cut in vectors, as _parallel cuts them)."""
    isa = kernels.isa_for("avx512")
    assert cost_model._cols(196, isa) == 208 and cost_model._cols(784, isa) == 784
    assert cost_model._cols(49, isa) == 64 and cost_model._cols(8, isa) == 16
    assert cost_model._cols(196, kernels.isa_for("avx2")) == 200
    p = cost_model.Problem("conv", 256, 196, 288, 2)
    caches = cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 1)
    slow = cost_model._slice_cycles(p, 256, 224, 256, 256, 224, isa)
    assert cost_model._slice_cycles(p, 256, 196, 256, 256, 224, isa) < slow
    splits = cost_model._product_splits(p, 256, isa, caches)
    assert any(s[1] == SPLIT_N for s in splits)


def _column_slices(word, threads, isa, N):
    """How many slices of C's columns a call of N columns runs under `word` (each one
    reads the whole filter), as strata_gemm_parallel cuts them; 0 for a rows split or
    one thread."""
    f = tile_fields(word)
    from strata.backends.cpu.kernels_gemm import SLICE_MIN_UNITS, SLICES_PER_THREAD
    split = f["split"]
    k, min_units = f["slices"] or SLICES_PER_THREAD, f["min_units"] or SLICE_MIN_UNITS
    if split == SPLIT_AUTO:
        if N < threads * 2 * isa.nr:
            return 0
        split = SPLIT_N
    if split != SPLIT_N or threads < 2:
        return 0
    k = max(1, min(-(-N // isa.nr) // (threads * min_units), k))
    per = -(-(-(-N // isa.width)) // (threads * k)) * isa.width
    return -(-N // per)


@pytest.mark.parametrize("threads", [2, 4])
def test_cost_model_counts_the_filter_reads(threads):
    """[Note: the cost model]: a convolution's filter comes from L3 on every call and
    each column slice reads it whole; a filter packed at compile time (the `_packed`
    kernels) is not packed again. ResNet-50's 1x1 and stride-2 convolutions onto 14x14
    images (196 pixels) got five column slices (48, 48, 48, 48 and 4 pixels) at 2
    threads, each reading the whole filter: now no more column slices than threads."""
    isa = kernels.isa_for("avx512")
    caches = cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 2)
    layers = [(1024, 256, 14, 1, 1), (256, 1024, 14, 1, 1), (256, 256, 28, 3, 2),
              (512, 1024, 28, 1, 2)]
    for C, F, H, k, s in layers:
        OH = (H + 2 * (k // 2) - k) // s + 1
        shape = dict(N=1, C=C, H=H, W=H, F=F, KH=k, KW=k, OH=OH, OW=OH, sh=s, sw=s, dh=1,
                     dw=1, pt=k // 2, pl=k // 2)
        for kernel in ("strata_conv2d_nchw_packed_epi_f32", "strata_conv2d_nchw_packed_f32"):
            p = cost_model.gemm_problem(kernel, shape, threads, isa)
            assert p.filter == "packed"
            word = cost_model.choose_tile(kernel, shape, threads, isa, caches)
            assert _column_slices(word, threads, isa, OH * OH) <= threads, \
                (C, F, H, tile_fields(word))
            # a packed filter is read, not packed: a 112-pixel column slice costs less
            # than the same slice packing its rows of the filter
            raw = cost_model.gemm_problem("strata_conv2d_nchw_f32", shape, threads, isa)
            assert raw.filter == "raw"
            kc = 128
            assert cost_model._slice_cycles(p, F, 112, kc, 128, 112, isa) < \
                cost_model._slice_cycles(raw, F, 112, kc, 128, 112, isa)
            # and reading it costs: a slice of 48 pixels more than its share of the
            # compute, unlike a product whose A is no filter
            gemm = cost_model.Problem(p.kind, p.M, p.N, p.K, threads)
            assert cost_model._slice_cycles(p, F, 48, kc, 128, 48, isa) > \
                cost_model._slice_cycles(gemm, F, 48, kc, 128, 48, isa)
    assert cost_model.gemm_problem("strata_sgemm_f32", dict(M=196, N=196, K=64), 2,
                                   isa).filter is None


def test_cost_model_small_images_packed_once():
    """A convolution over an image of SMALL_IMAGE_PANELS panels or less packs its im2col
    matrix whole, once, before the product (_products in kernels_conv.py): the model
    charges that packing once for every split, not again for each slice (ResNet-50's
    7x7 layers: a row slice re-packed nothing)."""
    from strata.backends.cpu.kernels_conv import SMALL_IMAGE_PANELS
    isa = kernels.isa_for("avx512")
    caches = cost_model.Caches(48 << 10, 2 << 20, 32 << 20, 2)
    for n, whole in ((49, True), (SMALL_IMAGE_PANELS * isa.nr, True), (196, False)):
        conv = cost_model.Problem("conv", 512, n, 4608, 2, filter="packed")
        bare = cost_model.Problem("packed", 512, n, 4608, 2, filter="packed")
        args = (256, n, 192, 128, 64, isa)
        if whole:
            assert cost_model._slice_cycles(conv, *args) == \
                cost_model._slice_cycles(bare, *args)
        else:
            assert cost_model._slice_cycles(conv, *args) > \
                cost_model._slice_cycles(bare, *args)
    conv = cost_model.Problem("conv", 512, 49, 4608, 2, filter="packed")
    bare = cost_model.Problem("packed", 512, 49, 4608, 2, filter="packed")
    once = 4608 * 49 * cost_model.PACK_B_CYCLES * 2
    ways = {(w[1], w[2]): w[0] for w in cost_model._product_splits(conv, 192, isa, caches)}
    for w in cost_model._product_splits(bare, 192, isa, caches):
        assert ways[(w[1], w[2])] == pytest.approx(w[0] + once)
