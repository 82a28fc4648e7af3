"""The activations of the GEMM and convolution kernels' epilogue
(strata_sgemm_packed_epi_f32, strata_conv2d_nchw_packed_epi_f32): each code of ACTS
against NumPy float64, on odd M / N / K, with NaN, infinities and large |x| reaching the
activation through the bias; an unknown code writes nothing."""
from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from strata.backends.cpu import kernels  # noqa: E402
from strata.conversion.cpu_kernel_abi import (ACT_SHIFT, ACTS, EPI_BIAS,  # noqa: E402
                                              EPI_ROW_BIAS, epi_flags, pack_a_panels)

RNG = np.random.default_rng(7)
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def _hardsigmoid(x):
    return np.minimum(np.maximum(x / 6 + 0.5, 0), 1)


# ONNX's definitions (Relu, Clip(0, 6), HardSwish, HardSigmoid(1/6, 1/2), x * Sigmoid,
# Sigmoid, Gelu and Gelu(approximate="tanh")), NaN propagating
REFERENCE = {
    "none": lambda x: x,
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.minimum(np.maximum(x, 0), 6),
    "hardswish": lambda x: x * _hardsigmoid(x),
    "hardsigmoid": _hardsigmoid,
    "sigmoid": _sigmoid,
    "silu": lambda x: x * _sigmoid(x),
    "gelu": lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                                  (x + 0.044715 * x ** 3))),
}
# values the activation sees through the bias: specials, large |x|, the pieces of erf
SPECIAL = np.array([np.nan, np.inf, -np.inf, 100.0, -100.0, 30.0, -30.0, 88.0, -88.0,
                    10.0, -10.0, 3.9, -3.9, 2.2, -1.0, 0.0, -0.0, 6.0, -3.0, 3.0, 1e-8],
                   np.float32)


def test_reference_covers_every_code():
    assert set(REFERENCE) == set(ACTS)


@pytest.fixture(scope="module")
def lib():
    return kernels.load_kernels()


def _check(got, x64, act):
    """got = act(x64) to f32 accuracy (1e-5 of the value or absolute), NaN where NaN."""
    with np.errstate(invalid="ignore", over="ignore"):
        want = REFERENCE[act](x64)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True,
                               err_msg=act)


@pytest.mark.parametrize("act", sorted(ACTS))
@pytest.mark.parametrize("M,N,K", [(1, 37, 5), (7, 21, 3), (13, 70, 300), (64, 33, 17)])
def test_gemm_epilogue_activation(lib, act, M, N, K):
    """C = act(A.B (+ C) + bias) for every activation code, column tails (N not a multiple
    of NR), row tails (M not of MR), K over the K block (300: the epilogue with the last
    block only), accumulating or not, 1 and 2 threads."""
    A = (RNG.standard_normal((M, K)) / np.sqrt(K)).astype(np.float32)
    B = RNG.standard_normal((K, N)).astype(np.float32)
    bias = (RNG.standard_normal(N) * 4).astype(np.float32)
    bias[:min(N, len(SPECIAL))] = SPECIAL[:N]
    packed = kernels.pack_b(B, lib.isa)
    prev = lib.get_num_threads()
    try:
        for threads, acc in ((1, 0), (2, 1)):
            lib.set_num_threads(threads)
            C = RNG.standard_normal((M, N)).astype(np.float32)
            x = A.astype(np.float64) @ B + (C if acc else 0)
            x = (x + bias).astype(np.float32).astype(np.float64)
            lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data,
                                 C.ctypes.data, N, acc, bias.ctypes.data,
                                 epi_flags(EPI_BIAS, act), 0)
            _check(C, x, act)
    finally:
        lib.set_num_threads(prev)


@pytest.mark.parametrize("act", ["gelu", "silu", "relu6", "hardswish"])
def test_gemm_epilogue_without_bias(lib, act):
    """The activation alone (no bias flag: the bias pointer is never read)."""
    M, N, K = 9, 19, 11
    A = RNG.standard_normal((M, K)).astype(np.float32)
    B = RNG.standard_normal((K, N)).astype(np.float32)
    C = np.empty((M, N), np.float32)
    packed = kernels.pack_b(B, lib.isa)
    lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data, N, 0,
                         0, epi_flags(0, act), 0)
    _check(C, (A.astype(np.float64) @ B).astype(np.float32).astype(np.float64), act)


def test_gemm_epilogue_unknown_code_writes_nothing(lib):
    M, N, K = 4, 8, 3
    A = RNG.standard_normal((M, K)).astype(np.float32)
    B = RNG.standard_normal((K, N)).astype(np.float32)
    C = np.full((M, N), 7.0, np.float32)
    packed = kernels.pack_b(B, lib.isa)
    lib.sgemm_packed_epi(M, N, K, A.ctypes.data, K, packed.ctypes.data, C.ctypes.data, N, 0,
                         0, len(ACTS) << ACT_SHIFT, 0)
    assert (C == 7.0).all()


def _conv_ref(x, w, s):
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    oh, ow = (h - k) // s + 1, (wd - k) // s + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(k):
        for j in range(k):
            patch = x[:, :, i:i + s * oh:s, j:j + s * ow:s].astype(np.float64)
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out, oh, ow


@pytest.mark.parametrize("act", sorted(ACTS))
@pytest.mark.parametrize("c,h,f,k,s", [(5, 9, 13, 3, 1), (24, 7, 21, 1, 1),
                                       (16, 30, 35, 1, 1)])
def test_conv_epilogue_activation(lib, act, c, h, f, k, s):
    """strata_conv2d_nchw_packed_epi_f32: out = act(conv + bias[f]) for every code, 1x1
    stride-1 filters included (packed, the path 1x1 convolutions with an epilogue take),
    filters not a multiple of MR, few and many pixels; NaN / inf through the bias."""
    x = RNG.standard_normal((2, c, h, h)).astype(np.float32)
    wt = (RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
    bias = (RNG.standard_normal(f) * 4).astype(np.float32)
    bias[:min(f, len(SPECIAL))] = SPECIAL[:f]
    want, oh, ow = _conv_ref(x, wt, s)
    out = np.empty((2, f, oh, ow), np.float32)
    panels = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    lib.conv2d_nchw_packed_epi(2, c, h, h, f, k, k, oh, ow, s, s, 1, 1, 0, 0, x.ctypes.data,
                               c * h * h, h * h, h, panels.ctypes.data, out.ctypes.data,
                               f * oh * ow, 0, bias.ctypes.data,
                               epi_flags(EPI_ROW_BIAS, act), 0)
    xb = (want + bias[None, :, None, None]).astype(np.float32).astype(np.float64)
    _check(out, xb, act)


def test_conv_epilogue_unknown_code_writes_nothing(lib):
    x = RNG.standard_normal((1, 3, 5, 5)).astype(np.float32)
    wt = RNG.standard_normal((4, 3, 1, 1)).astype(np.float32)
    out = np.full((1, 4, 5, 5), 7.0, np.float32)
    panels = pack_a_panels(wt.reshape(4, -1), lib.isa.mr)
    lib.conv2d_nchw_packed_epi(1, 3, 5, 5, 4, 1, 1, 5, 5, 1, 1, 1, 1, 0, 0, x.ctypes.data,
                               75, 25, 5, panels.ctypes.data, out.ctypes.data, 100, 0, 0,
                               15 << ACT_SHIFT, 0)
    assert (out == 7.0).all()


@pytest.mark.parametrize("act", sorted(ACTS))
@pytest.mark.parametrize("c,h,f,k,s", [(24, 7, 21, 1, 1), (40, 11, 13, 3, 2),
                                       (16, 30, 35, 1, 1)])
def test_conv_epilogue_residual(lib, act, c, h, f, k, s):
    """The residual epilogue ([Note: residual epilogues] in linalg_to_microkernels.py):
    out = act(r + conv + bias[f]) accumulating into out holding r (accumulate = 1), the
    residual added once over K blocks (40 x 3 x 3 = 360), 1x1 stride-1 (packed "np"),
    3x3 stride 2 and many pixels, 1 and 2 threads, with and without the bias."""
    x = RNG.standard_normal((2, c, h, h)).astype(np.float32)
    wt = (RNG.standard_normal((f, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
    bias = (RNG.standard_normal(f) * 2).astype(np.float32)
    want, oh, ow = _conv_ref(x, wt, s)
    panels = pack_a_panels(wt.reshape(f, -1), lib.isa.mr)
    prev = lib.get_num_threads()
    try:
        for threads, flag in ((1, EPI_ROW_BIAS), (2, 0)):
            lib.set_num_threads(threads)
            r = (RNG.standard_normal((2, f, oh, ow)) * 3).astype(np.float32)
            r[0, 0, 0, :min(ow, len(SPECIAL))] = SPECIAL[:ow]
            out = r.copy()
            lib.conv2d_nchw_packed_epi(2, c, h, h, f, k, k, oh, ow, s, s, 1, 1, 0, 0,
                                       x.ctypes.data, c * h * h, h * h, h, panels.ctypes.data,
                                       out.ctypes.data, f * oh * ow, 1, bias.ctypes.data,
                                       epi_flags(flag, act), 0)
            b = bias[None, :, None, None] if flag else 0
            xb = (want + r + b).astype(np.float32).astype(np.float64)
            _check(out, xb, act)
    finally:
        lib.set_num_threads(prev)
