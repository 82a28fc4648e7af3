"""strata_attention_f32 (strata/backends/cpu/kernels_attention.py) called directly, against
NumPy: sequence lengths 1, 7, 64 and 1500 (one key block, several, a partial last one),
head dims 32/64/80 and odd ones, masks broadcast along batch, heads and rows or full,
fully masked rows (NaN as a plain softmax, 0 with ATTN_SAFE_SOFTMAX), NaN and -inf
scores, K given transposed, strided views, one and two threads."""
import numpy as np
import pytest

from strata.backends.cpu.kernels import load_kernels
from strata.conversion.cpu_kernel_abi import ATTN_CAUSAL, ATTN_NAN_TO_ZERO, ATTN_SAFE_SOFTMAX

RNG = np.random.default_rng(3)


def _ref(q, k, v, mask, scale, safe=False):
    s = np.einsum("abid,abjd->abij", q.astype(np.float64), k.astype(np.float64)) * scale
    if mask is not None:
        s = s + mask
    m = s.max(-1, keepdims=True)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - m)
        p = e / e.sum(-1, keepdims=True)
    if safe:
        p = np.where(np.isneginf(s).all(-1, keepdims=True), 0.0, p)
    return np.einsum("abij,abje->abie", p, v.astype(np.float64))


def _elts(a):
    return [s // a.itemsize for s in a.strides]


def _run(q, k, v, mask=None, scale=1.0, flags=0, threads=1, kt=None, out=None):
    """The kernel on 4-D arrays (any strides; k may be given as kt: [b1, b2, d, j])."""
    lib = load_kernels()
    b1, b2, m, d = q.shape
    n, e = v.shape[2], v.shape[3]
    o = np.full((b1, b2, m, e), 7.0, np.float32) if out is None else out
    qs, vs, os_ = _elts(q), _elts(v), _elts(o)
    if kt is not None:
        ks = _elts(kt)
        kargs = [kt.ctypes.data, ks[0], ks[1], ks[3], ks[2]]
    else:
        ks = _elts(k)
        kargs = [k.ctypes.data, ks[0], ks[1], ks[2], ks[3]]
    if mask is None:
        margs = [None, 0, 0, 0, 0]
    else:
        ms = _elts(np.broadcast_to(mask, (b1, b2, m, n)))
        margs = [mask.ctypes.data, *ms]
    prev = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        lib.attention(b1, b2, m, n, d, e, q.ctypes.data, qs[0], qs[1], qs[2], *kargs,
                      v.ctypes.data, vs[0], vs[1], vs[2], vs[3], o.ctypes.data, os_[0],
                      os_[1], os_[2], scale, *margs, flags)
    finally:
        lib.set_num_threads(prev)
    return o


def _qkv(b1, b2, m, n, d, e=None):
    e = d if e is None else e
    return (RNG.standard_normal((b1, b2, m, d), np.float32),
            RNG.standard_normal((b1, b2, n, d), np.float32),
            RNG.standard_normal((b1, b2, n, e), np.float32))


def _close(got, want):
    scale = np.nanmax(np.abs(want))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.max(np.abs(got[ok] - want[ok])) <= 2e-6 * scale + 1e-7, \
        np.max(np.abs(got[ok] - want[ok])) / scale


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("b1,b2,m,n,d", [
    (1, 1, 1, 1, 32),       # one query, one key
    (1, 2, 7, 7, 64),       # shorter than a key block and a row panel
    (2, 3, 64, 64, 80),     # D = 80 (not a panel multiple)
    (1, 2, 50, 256, 64),    # one key block exactly (ATTN_BN)
    (1, 1, 49, 513, 32),    # two key blocks and one key, one row past a task block
    (1, 2, 100, 130, 32),   # a partial last key block, rows past a task block
    (1, 1, 5, 300, 17),     # odd D
])
@pytest.mark.parametrize("masked", [False, True])
def test_attention_matches_numpy(threads, b1, b2, m, n, d, masked):
    q, k, v = _qkv(b1, b2, m, n, d)
    mask = None
    if masked:      # additive, broadcast along heads and rows ([b1, 1, 1, n])
        mask = RNG.standard_normal((b1, 1, 1, n)).astype(np.float32) * 3
    got = _run(q, k, v, mask, 0.125, threads=threads)
    _close(got, _ref(q, k, v, mask, 0.125))


def test_attention_long_sequence_whisper_shape():
    """1500 frames, 6 heads of 64 (Whisper-tiny's encoder)."""
    q, k, v = _qkv(1, 6, 1500, 1500, 64)
    got = _run(q, k, v, None, 0.125, threads=2)
    _close(got, _ref(q, k, v, None, 0.125))


@pytest.mark.parametrize("shape", [(1, 1, 9, 70), (2, 1, 1, 70), (1, 3, 1, 70),
                                   (2, 3, 9, 70), (1, 1, 1, 1)])
def test_mask_broadcasts(shape):
    """Masks broadcast along any of batch, heads, rows (and a per-row constant)."""
    q, k, v = _qkv(2, 3, 9, 70, 32)
    mask = (RNG.standard_normal(shape) * 2).astype(np.float32)
    got = _run(q, k, v, mask, 0.3)
    _close(got, _ref(q, k, v, np.broadcast_to(mask, (2, 3, 9, 70)), 0.3))


def test_mask_column_gather():
    """A mask whose key stride is not 1 (a transposed view) is read element by element."""
    q, k, v = _qkv(1, 2, 9, 70, 32)
    full = (RNG.standard_normal((1, 2, 70, 9)) * 2).astype(np.float32)
    mask = full.transpose(0, 1, 3, 2)        # key stride 9
    got = _run(q, k, v, mask, 0.3)
    _close(got, _ref(q, k, v, np.ascontiguousarray(mask), 0.3))


@pytest.mark.parametrize("safe", [False, True])
def test_fully_masked_rows(safe):
    """Rows whose keys are all -inf: NaN (0/0, as ONNX Softmax and onnxruntime) or 0
    (torch's _safe_softmax); rows masked in the first key blocks only are finite."""
    q, k, v = _qkv(1, 2, 20, 200, 32)
    mask = np.zeros((1, 2, 20, 200), np.float32)
    mask[0, 0, 3] = -np.inf                     # whole row
    mask[0, 1, 5, :150] = -np.inf               # the first two key blocks of a row
    mask[0, 1, 6, 1:] = -np.inf                 # one key left
    got = _run(q, k, v, mask, 0.2, flags=ATTN_SAFE_SOFTMAX if safe else 0)
    want = _ref(q, k, v, mask, 0.2, safe)
    _close(got, want)
    assert np.isnan(got[0, 0, 3]).all() != safe
    assert np.isfinite(got[0, 1]).all()
    np.testing.assert_allclose(got[0, 1, 6], v[0, 1, 0], rtol=1e-6)


def test_nan_and_inf_scores_propagate():
    """A NaN score makes its row NaN; +inf in the mask too (inf - inf), as a softmax."""
    q, k, v = _qkv(1, 1, 4, 80, 32)
    mask = np.zeros((1, 1, 4, 80), np.float32)
    mask[0, 0, 1, 70] = np.nan
    mask[0, 0, 2, 3] = np.inf
    got = _run(q, k, v, mask, 1.0)
    assert np.isnan(got[0, 0, 1]).all() and np.isnan(got[0, 0, 2]).all()
    _close(got[0, 0, [0, 3]], _ref(q, k, v, mask, 1.0)[0, 0, [0, 3]])


def test_k_transposed_and_strided_views():
    """K held as K^T ([.., d, j]); Q, V and O views with padded rows and heads."""
    qb = RNG.standard_normal((2, 3, 50, 40), np.float32)
    q = qb[:, :, :, :32]
    kt = RNG.standard_normal((2, 3, 32, 90), np.float32)
    vb = RNG.standard_normal((2, 4, 90, 48), np.float32)
    v = vb[:, 1:, :, :40]
    ob = np.zeros((2, 3, 50, 45), np.float32)
    o = ob[:, :, :, 2:42]
    _run(q, None, v, None, 0.5, kt=kt, out=o)
    _close(o, _ref(q, kt.transpose(0, 1, 3, 2), v, None, 0.5))
    assert not ob[..., :2].any() and not ob[..., 42:].any()


def test_value_dim_differs_from_key_dim():
    q, k, v = _qkv(1, 2, 33, 77, 24, e=56)
    _close(_run(q, k, v, None, 0.3), _ref(q, k, v, None, 0.3))


def test_nan_to_zero_rows():
    """ATTN_NAN_TO_ZERO (the ONNX exporter's where(isnan(p), 0, p)): rows with a NaN or
    +inf score, or none finite, give 0; a NaN in V still reaches the output."""
    q, k, v = _qkv(1, 1, 5, 80, 32)
    v[0, 0, 10, 3] = np.nan
    mask = np.zeros((1, 1, 5, 80), np.float32)
    mask[0, 0, 1, 70] = np.nan
    mask[0, 0, 2, 3] = np.inf
    mask[0, 0, 3] = -np.inf
    got = _run(q, k, v, mask, 1.0, flags=ATTN_NAN_TO_ZERO)
    assert not got[0, 0, 1:4].any()
    assert np.isnan(got[0, 0, 0, 3]) and np.isnan(got[0, 0, 4, 3])
    want = _ref(q, k, v, mask, 1.0)
    _close(got[0, 0, [0, 4]][:, [0, 1, 2]], want[0, 0, [0, 4]][:, [0, 1, 2]])


def test_no_keys_gives_zeros():
    """N = 0: the product with V is an empty sum (0), not the 0/0 of masked keys; M = 0
    writes nothing."""
    q = RNG.standard_normal((1, 2, 3, 8), np.float32)
    k = np.zeros((1, 2, 0, 8), np.float32)
    v = np.zeros((1, 2, 0, 8), np.float32)
    got = _run(q, k, v, None, 1.0)
    assert not got.any()
    q0 = np.zeros((1, 2, 0, 8), np.float32)
    assert _run(q0, q, q, None, 1.0).size == 0


def _jit_softmax_exp2(isa):
    """void exp2s(ptr x, ptr y, i64 n): y = kernel_ir.vsoftmax_exp2(x), n a multiple of W."""
    import llvmlite.binding as llvm

    from strata.backends.cpu.jit import mcjit_engine
    from strata.backends.cpu.kernel_ir import Fn, declarations, vload, vsoftmax_exp2, vstore
    f = Fn("define void @exp2s(ptr %x, ptr %y, i64 %n)")
    f.loop("0", "%n", isa.width, lambda i: vstore(
        f, isa, vsoftmax_exp2(f, isa, vload(f, isa, f.gep("%x", i), None)), f.gep("%y", i)))
    f.do("ret void")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    mod = llvm.parse_assembly(declarations(isa) + "\n" + f.text())
    mod.verify()
    engine = mcjit_engine(llvm.Target.from_default_triple().create_target_machine(), mod)
    engine.finalize_object()
    import ctypes
    fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(
        engine.get_function_address("exp2s"))

    def run(x):
        x = np.ascontiguousarray(x, np.float32)
        y = np.empty_like(x)
        fn(x.ctypes.data, y.ctypes.data, x.size)
        return y
    run.engine = engine
    return run


@pytest.mark.parametrize("isa_name", ["host", "sse"])
def test_softmax_exp2_accuracy_and_specials(isa_name):
    """The online softmax's exp2 (polynomial.softmax_exp2): <= 2e-7 relative on x <= 0
    (and the small positive x a recomputed max can give), exactly 0 below -126 (never a
    subnormal) and at -inf, NaN kept, 1 at 0."""
    from strata.backends.cpu.kernels import host_isa, isa_for
    isa = host_isa() if isa_name == "host" else isa_for("sse")
    run = _jit_softmax_exp2(isa)
    x = np.concatenate([np.linspace(-126.0, 0.25, 1 << 18, dtype=np.float32),
                        -np.abs(RNG.standard_normal(1 << 14, np.float32)) * 8,
                        np.float32([0.0, -0.0, -0.5, 0.5, -1.5, -125.5, -126.0])])
    x = x[: x.size // 16 * 16]
    y = run(x)
    want = np.exp2(x.astype(np.float64))
    rel = np.abs(y / want - 1)
    assert rel.max() <= 2e-7, (rel.max(), x[rel.argmax()])
    assert np.all(y >= np.finfo(np.float32).tiny)        # normal: no subnormal ever
    special = np.float32([-np.inf, -126.01, -200.0, -1e30, np.nan, 0.0, -0.0, -1.0] * 2)
    got = run(special)
    np.testing.assert_array_equal(got[:4], 0.0)
    assert np.isnan(got[4]) and got[5] == 1.0 and got[6] == 1.0 and got[7] == 0.5


def _causal(m, n):
    """torch's is_causal bias: key j of query row i masked when j > i (top-left)."""
    return np.where(np.arange(n)[None, :] > np.arange(m)[:, None], -np.inf, 0.0)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("m,n", [(1, 1), (1, 9), (7, 7), (100, 100), (130, 70), (70, 130),
                                 (200, 200), (49, 300)])
def test_causal_flag(threads, m, n):
    """ATTN_CAUSAL without a mask buffer: rows shorter and longer than a key block, query
    blocks ending inside a key block, more keys than queries and fewer."""
    q, k, v = _qkv(1, 3, m, n, 64)
    got = _run(q, k, v, scale=0.125, flags=ATTN_CAUSAL, threads=threads)
    _close(got, _ref(q, k, v, _causal(m, n), 0.125))


@pytest.mark.parametrize("mj", ["unit", "gather"])
def test_causal_flag_with_a_mask(mj):
    """The flag and a mask buffer together (a padding mask, a contiguous row or read
    with a stride): both apply; a row whose every allowed key is padding is NaN, or 0
    with ATTN_SAFE_SOFTMAX."""
    m = n = 150
    q, k, v = _qkv(2, 2, m, n, 32)
    pad = np.zeros((2, 1, 1, n), np.float32)
    pad[0, ..., :3] = -np.inf          # batch 0: the first rows see only padding
    pad[1, ..., 120:] = -np.inf
    mask = pad if mj == "unit" else \
        np.ascontiguousarray(np.broadcast_to(pad, (2, 1, 2, n)).transpose(0, 1, 3, 2)
                             ).transpose(0, 1, 3, 2)[:, :, :1, :]
    assert mj == "unit" or mask.strides[-1] != 4
    want = _ref(q, k, v, pad + _causal(m, n), 0.5)
    _close(_run(q, k, v, mask=mask, scale=0.5, flags=ATTN_CAUSAL), want)
    got = _run(q, k, v, mask=mask, scale=0.5, flags=ATTN_CAUSAL | ATTN_SAFE_SOFTMAX)
    assert np.isnan(want[0, :, :3]).all() and not got[0, :, :3].any()
    _close(got[:, :, 3:], want[:, :, 3:])
