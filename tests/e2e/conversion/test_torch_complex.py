"""Complex tensors and torch.fft through convert-torch-to-linalg (conversion/torch_to_linalg/
complex.py, [Note: complex as real pairs]), checked against PyTorch eager.

Each case is a small module on complex64 (or complex128) tensors, exported, lowered and
run by the reference interpreter (every case) and the CPU target (a subset); FFTs over
sizes 1-16 (odd and even, cropped and zero-padded, every norm), through the DFT builder
ONNX's DFT shares. The models: Meta's Llama rotary embedding (polar / view_as_complex /
view_as_real) and an FNet token mixer (fft.fftn(...).real), through strata.compile and
torch.compile, within 1e-4 of eager. The boundary: complex inputs passed as their pairs
without a copy, complex outputs returned as complex tensors and NumPy arrays.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import strata  # noqa: E402
from strata.errors import StrataError  # noqa: E402


class Fn(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


def crandn(*shape, dtype=torch.complex64, seed=0):
    return torch.randn(*shape, dtype=dtype, generator=_gen(seed))


def randn(*shape, seed=0):
    return torch.randn(*shape, generator=_gen(seed))


Z, W, X = crandn(3, 4), crandn(3, 4, seed=1), randn(3, 4, seed=2)
ZB, WB = crandn(2, 3, 4, seed=3), crandn(2, 4, 5, seed=4)


def _check(fn, args, target="interpret", tol=1e-5):
    m = Fn(fn)
    want = m(*args)
    got = strata.compile(m, example_args=args, target=target)(*args)
    if isinstance(want, torch.Tensor):
        want, got = (want,), (got,)
    for w, g in zip(want, got):
        assert g.dtype == w.dtype and g.shape == w.shape
        torch.testing.assert_close(g, w, rtol=tol, atol=tol)


def _assign(a, x):
    """In-place writes into complex tensors, functionalized by export: copy of real
    values (where, copy), slice_scatter and index_put of complex ones."""
    a = a.clone()
    a[:, 0] = x[:, 1]
    a[1] = a[0] * 2
    y = torch.zeros(3, 4, dtype=torch.complex64)
    y[:, 1:3] = a[:, :2]
    z = torch.zeros(3, 4, dtype=torch.complex64)
    z.copy_(x)
    return a, y, z + a


# every case on the interpreter; "cpu" marks the ones also run on the CPU target
CASES = {
    "add": (lambda a, b: a + b, (Z, W)),
    "sub_alpha": (lambda a, b: torch.sub(a, b, alpha=2), (Z, W)),
    "mul": ((lambda a, b: a * b), (Z, W), "cpu"),
    "div": ((lambda a, b: a / b), (Z, W), "cpu"),
    "mul_real_tensor": (lambda a, x: a * x, (Z, X)),
    "add_real_broadcast": (lambda a, x: a + x[0], (Z, X)),
    "mul_scalar": (lambda a: a * 2.5 - 1, (Z,)),
    "exp_log_sqrt": ((lambda a: (a.exp(), a.log(), a.sqrt())), (Z,), "cpu"),
    "reciprocal_sgn": (lambda a: (a.reciprocal(), a.sgn()), (Z,)),
    "abs_angle": ((lambda a: (a.abs(), a.angle())), (Z,), "cpu"),
    "real_imag": (lambda a: (a.real * 2, a.imag + 1), (Z,)),
    "conj": (lambda a: (a.conj() * a, a.conj_physical()), (Z,)),
    "neg_square": (lambda a: (-a, a * a), (Z,)),
    "sin_cos": (lambda a: (torch.sin(a), torch.cos(a)), (Z,)),
    "tanh_sigmoid": (lambda a: (torch.tanh(a), torch.sigmoid(a), torch.tanh(a * 30)), (Z,)),
    "log1p_expm1_rsqrt": (lambda a: (a.log1p(), (a * 1e-3).log1p(), a.expm1(),
                                     (a * 1e-4).expm1(), a.rsqrt()), (Z,)),
    "pow": (lambda a: (a ** 2, a ** 3, a.pow(0.5), a ** -1, a ** 2.5, a ** 0), (Z,)),
    "cumsum": (lambda a: a.cumsum(-1), (Z,)),
    "chunk_unbind": (lambda a: (*a.chunk(2, -1), *a.unbind(0)), (Z,)),
    "where_scalar": (lambda a, x: torch.where(x > 0, a, 0), (Z, X)),
    "addmm": (lambda a, b: torch.addmm(a[0, :, :3], a[0], b[0, :, :3], beta=0.5,
                                       alpha=2), (ZB, WB)),
    "permute_reshape": ((lambda a: a.permute(1, 0).reshape(2, 6)), (Z,), "cpu"),
    "slice_select_flip": (lambda a: (a[:, 1:3], a[-1], a.flip(-1), a.select(-1, 2)), (Z,)),
    "cat_stack": (lambda a, b: (torch.cat([a, b], -1), torch.stack([a, b], 0)), (Z, W)),
    "expand_unsqueeze": (lambda a: (a[None].expand(2, 3, 4), a.unsqueeze(-1).squeeze(-1)),
                         (Z,)),
    "transpose_clone": (lambda a: a.transpose(0, 1).contiguous().clone(), (Z,)),
    "pad": (lambda a: torch.nn.functional.pad(a, (1, 2)), (Z,)),
    "assign": (_assign, (Z, X), "cpu"),
    "diagonal_unfold": (lambda a: (a.diagonal(), a.diagonal(1, -1, 0), a.unfold(-1, 2, 1)),
                        (Z,)),
    "index": (lambda a, i: (a[i], a.index_select(1, i)), (Z, torch.tensor([2, 0]))),
    "sum_mean": ((lambda a: (a.sum(), a.sum(-1), a.mean(0, keepdim=True))), (Z,), "cpu"),
    "vector_norm": (lambda a: (torch.linalg.vector_norm(a, dim=-1),
                               torch.linalg.vector_norm(a, 1), a.norm(dim=0)), (Z,)),
    "matmul": ((lambda a, b: torch.bmm(a, b)), (ZB, WB), "cpu"),
    "mm": (lambda a, b: torch.mm(a[0], b[0]), (ZB, WB)),
    "where": (lambda a, b, x: torch.where(x > 0, a, b), (Z, W, X)),
    "eq_isnan": (lambda a, b: (a == b, a != a, torch.isnan(a)), (Z, W)),
    "complex_polar": ((lambda x, y: (torch.complex(x, y), torch.polar(x.abs(), y))),
                      (X, randn(3, 4, seed=5)), "cpu"),
    "view_as": (lambda x: torch.view_as_real(torch.view_as_complex(x) * 3), (randn(3, 2),)),
    "to_complex": (lambda x: (x.to(torch.complex64), x.to(torch.complex128) * 2), (X,)),
    "complex_to_complex128": (lambda a: a.to(torch.complex128) + 1, (Z,)),
    "zeros_full_like": (lambda a: (torch.zeros_like(a) + a, torch.full_like(a, 2.0) * a,
                                   torch.ones(3, 4, dtype=torch.complex64)), (Z,)),
    "complex128": (lambda a, b: (a * b).sum(0).abs(), (Z.to(torch.complex128),
                                                       W.to(torch.complex128))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_ops_interpret(name):
    fn, args = CASES[name][:2]
    _check(fn, args)


@pytest.mark.parametrize("name", sorted(k for k, v in CASES.items() if "cpu" in v[2:]))
def test_complex_ops_cpu(name):
    fn, args = CASES[name][:2]
    _check(fn, args, "cpu")


# ------------------------------------------------------------------ FFTs


FFT = torch.fft
FFT_CASES = {
    # name: (fn, input): every norm; sizes 1-16, odd and even; cropped (n < size) and
    # zero-padded (n > size); one dim, several, all; real and complex inputs
    "fft": (lambda x: (FFT.fft(x), FFT.fft(x, n=5, norm="ortho"),
                       FFT.fft(x, n=11, dim=0, norm="forward")), randn(7, 8)),
    "ifft": (lambda z: (FFT.ifft(z), FFT.ifft(z, norm="ortho"), FFT.ifft(z, n=3, dim=0)),
             crandn(6, 9)),
    "rfft_irfft": (lambda x: (FFT.rfft(x), FFT.irfft(FFT.rfft(x, norm="ortho"), n=9,
                                                        norm="ortho"),
                              FFT.irfft(FFT.rfft(x), n=16)), randn(3, 9)),
    "fftn_fft2": (lambda x: (FFT.fftn(x), FFT.fft2(x, norm="ortho"),
                             FFT.ifftn(x, s=(4, 3), dim=(0, 2))), crandn(5, 4, 3)),
    "rfftn_irfftn": (lambda x: (FFT.rfftn(x), FFT.irfftn(FFT.rfftn(x), s=x.shape[-2:],
                                                          dim=(-2, -1))), randn(2, 6, 7)),
    "hfft_ihfft": (lambda x: (FFT.ihfft(x), FFT.hfft(FFT.ihfft(x), n=10)), randn(4, 10)),
    "length_one": (lambda x: (FFT.fft(x), FFT.rfft(x)), randn(3, 1)),
    "stft_like": (lambda x: FFT.rfft(x.unfold(-1, 8, 4) * torch.hann_window(8)).abs(),
                  randn(2, 32)),
    # an audio front end: torch.stft (centred, reflect-padded frames) and its magnitude,
    # and istft back
    "stft_istft": (lambda x: (torch.stft(x, 16, hop_length=4, window=torch.hann_window(16),
                                         return_complex=True).abs(),
                              torch.istft(torch.stft(x, 16, hop_length=4,
                                                     window=torch.hann_window(16),
                                                     return_complex=True),
                                          16, hop_length=4, window=torch.hann_window(16),
                                          length=48)), randn(2, 48)),
}


@pytest.mark.parametrize("name", sorted(FFT_CASES))
def test_fft_interpret(name):
    fn, x = FFT_CASES[name]
    _check(fn, (x,), tol=1e-4)


@pytest.mark.parametrize("name", ["fftn_fft2", "rfft_irfft"])
def test_fft_cpu(name):
    fn, x = FFT_CASES[name]
    _check(fn, (x,), "cpu", tol=1e-4)


# ------------------------------------------------------------------ models


def _rotary_freqs(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, device=freqs.device)
    return torch.polar(torch.ones(end, dim // 2), torch.outer(t, freqs).float())


class LlamaRotary(nn.Module):
    """Meta's reference Llama attention's rotary embedding (llama/model.py:
    precompute_freqs_cis, reshape_for_broadcast, apply_rotary_emb) around the q/k/v
    projections, with the frequencies as a complex buffer."""

    def __init__(self, dim=32, heads=4, seq=6):
        super().__init__()
        torch.manual_seed(0)
        self.heads, self.hd = heads, dim // heads
        self.wq, self.wk = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.register_buffer("freqs_cis", _rotary_freqs(self.hd, seq))

    def forward(self, x):
        b, s, _ = x.shape
        xq = self.wq(x).view(b, s, self.heads, self.hd)
        xk = self.wk(x).view(b, s, self.heads, self.hd)
        xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
        xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
        fc = self.freqs_cis[:s]
        fc = fc.view(*[d if i == 1 or i == xq_.ndim - 1 else 1
                       for i, d in enumerate(xq_.shape)])
        xq_out = torch.view_as_real(xq_ * fc).flatten(3)
        xk_out = torch.view_as_real(xk_ * fc).flatten(3)
        scores = xq_out.type_as(xq).transpose(1, 2) @ xk_out.type_as(xk).permute(0, 2, 3, 1)
        return scores.softmax(-1)


class LlamaRotaryPolarInForward(nn.Module):
    """The frequencies computed in the forward (polar of run-time angles)."""

    def forward(self, xq, angles):
        fc = torch.polar(torch.ones_like(angles), angles)
        xq_ = torch.view_as_complex(xq.reshape(*xq.shape[:-1], -1, 2))
        return torch.view_as_real(xq_ * fc[None, :, None, :]).flatten(3)


class FNetMixer(nn.Module):
    """HF FNet's Fourier token mixing (FNetBasicFourierTransform: fftn over the hidden
    and sequence dims, the real part) in a block with its residual, norm and MLP."""

    def __init__(self, dim=16):
        super().__init__()
        torch.manual_seed(0)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 32), nn.GELU(), nn.Linear(32, dim))

    def forward(self, x):
        x = self.norm1(x + torch.fft.fftn(x, dim=(1, 2)).real)
        return self.norm2(x + self.ff(x))


MODELS = {
    "llama_rotary": (LlamaRotary, lambda: (randn(2, 6, 32),)),
    "llama_rotary_polar": (LlamaRotaryPolarInForward,
                           lambda: (randn(2, 6, 3, 8), randn(6, 4, seed=1))),
    "fnet": (FNetMixer, lambda: (randn(2, 12, 16),)),
}


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_models_strata_compile(name, target):
    make, args = MODELS[name]
    m, a = make().eval(), args()
    with torch.no_grad():
        want = m(*a)
        got = strata.compile(m, example_args=a, target=target)(*a)
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_models_torch_compile(name):
    from strata.frontends.torch import dynamo
    torch._dynamo.reset()
    make, args = MODELS[name]
    m, a = make().eval(), args()
    with torch.no_grad():
        want = m(*a)
        got = torch.compile(m, backend=dynamo.strata_backend,
                            options={"fallback": False})(*a)
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)


def test_hf_fnet_model():
    """transformers' FNetModel (tiny, from its config, random weights) end to end."""
    transformers = pytest.importorskip("transformers")
    cfg = transformers.FNetConfig(vocab_size=50, hidden_size=16, num_hidden_layers=2,
                                  intermediate_size=32, max_position_embeddings=16,
                                  use_tpu_fourier_optimizations=False)
    torch.manual_seed(0)
    m = transformers.FNetModel(cfg).eval()
    ids = torch.randint(0, 50, (2, 8), generator=_gen())
    with torch.no_grad():
        want = m(input_ids=ids).last_hidden_state
        got = strata.compile(m, example_kwargs={"input_ids": ids},
                             target="cpu")(input_ids=ids).last_hidden_state
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)


# ------------------------------------------------------------------ the boundary


def test_complex_inputs_are_passed_as_pair_views():
    """[Note: complex inputs and outputs as pairs]: a contiguous complex array is its
    pairs without a copy; a result's pairs come back as the complex view of them."""
    from strata.compiler import _complex_pairs
    from strata.ir import attributes as A
    c, p = A.RankedTensorType((3, 4), A.ComplexType(A.f32)), \
        A.RankedTensorType((3, 4, 2), A.f32)
    z = Z.numpy()
    pairs = _complex_pairs(z, c, p)
    assert pairs.shape == (3, 4, 2) and pairs.dtype == np.float32
    assert np.shares_memory(pairs, z)
    back = _complex_pairs(pairs, p, c)
    assert back.dtype == np.complex64 and np.shares_memory(back, z)
    np.testing.assert_array_equal(back, z)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_complex_boundary(target):
    """Complex torch tensors (contiguous, transposed, conjugated views) and NumPy complex
    arrays in; complex tensors (or arrays, for arrays in) out, complex128 too."""
    m = Fn(lambda a, b: (a * b + 1, (a.conj() * a).real))
    f = strata.compile(m, example_args=(Z, W), target=target)
    for a, b in [(Z, W), (crandn(4, 3).t(), W), (Z.conj(), W)]:
        got, want = f(a, b), m(a, b)
        for g, w in zip(got, want):
            assert isinstance(g, torch.Tensor) and g.dtype == w.dtype
            torch.testing.assert_close(g, w)
    got = f(Z.numpy(), W.numpy())
    assert isinstance(got[0], np.ndarray) and got[0].dtype == np.complex64
    np.testing.assert_allclose(got[0], (Z * W + 1).numpy(), rtol=1e-6)
    z2, w2 = Z.to(torch.complex128), W.to(torch.complex128)
    f2 = strata.compile(m, example_args=(z2, w2), target=target)
    torch.testing.assert_close(f2(z2, w2)[0], z2 * w2 + 1)


def test_complex_input_of_wrong_dtype_is_an_input_error():
    from strata.runtime import InputError
    f = strata.compile(Fn(lambda a: a * 2), example_args=(Z,), target="interpret")
    with pytest.raises(InputError, match="complex64"):
        f(Z.to(torch.complex128))
    with pytest.raises(InputError):
        f(X)


def test_unlowered_complex_op_is_located():
    m = Fn(lambda a: torch.tan(a))
    with pytest.raises(StrataError) as e:
        strata.compile(m, example_args=(Z,), target="interpret")
    assert "'aten.tan' on complex tensors" in str(e.value)
    assert "test_torch_complex.py:" in str(e.value)


def test_dynamic_sizes():
    """A symbolic batch dim through complex inputs, pairs and an FFT over a static dim:
    one compile serves every size (the pairs' dims read against the complex rank carry
    the symbols)."""
    s = torch.export.Dim("s", min=2, max=64)
    m = Fn(lambda a, b: (a * b).sum(-1, keepdim=True) + torch.fft.fft(a, dim=1,
                                                                        norm="ortho"))
    f = strata.compile(m, example_args=(crandn(4, 5), crandn(4, 5, seed=1)),
                       dynamic_shapes=(({0: s}, {0: s}),), target="cpu")
    for n in (3, 7):
        a, b = crandn(n, 5), crandn(n, 5, seed=1)
        torch.testing.assert_close(f(a, b), m(a, b), rtol=1e-5, atol=1e-5)


def test_torch_compile_complex_inputs_and_outputs():
    """torch.compile's graphs with complex inputs and outputs: passed as their pairs and
    returned as complex tensors, no fallback to eager."""
    from strata.frontends.torch import dynamo
    torch._dynamo.reset()
    m = Fn(lambda a, b: (a * b + 1, (a.conj() * a).real, torch.fft.ifft(a, norm="ortho")))
    f = torch.compile(m, backend=dynamo.strata_backend, options={"fallback": False})
    for g, w in zip(f(Z, W), m(Z, W)):
        assert g.dtype == w.dtype
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)
