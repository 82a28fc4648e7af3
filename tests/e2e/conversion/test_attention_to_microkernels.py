"""Attention through the fused CPU kernel (strata-linalg-attention-to-microkernels and
strata_attention_f32), whole models against onnxruntime and eager PyTorch: bare ONNX
attention (scale as Div or Mul, mask or none, fully masked rows: NaN as onnxruntime), a
Whisper-like encoder layer and a BERT layer with a padded attention mask (HF transformers,
exported to ONNX), torch SDPA modules (attn_mask with fully masked rows: torch's
_safe_softmax zeros). Each test also checks the kernel was called (the IR after the pass,
dump_dir)."""
import glob
import os
import re
import warnings

import numpy as np
import pytest

import strata

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

TOLERANCE = 1e-4


def _fused(dump) -> bool:
    (path,) = glob.glob(os.path.join(dump, "*strata-linalg-attention-to-microkernels.mlir"))
    with open(path) as fh:
        return "call @strata_attention_f32" in fh.read()


def _rel(y, ref):
    ok = ~np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(y), ~ok)
    return float(np.max(np.abs(y[ok].astype(np.float64) - ref[ok])) / np.max(np.abs(ref[ok])))


def _attention(b, h, s, d, op="Div", mask=True):
    from onnx import TensorProto as T
    from onnx import helper as hp
    nodes = [hp.make_node("Transpose", ["K"], ["Kt"], perm=[0, 1, 3, 2]),
             hp.make_node("MatMul", ["Q", "Kt"], ["S"]),
             hp.make_node(op, ["S", "sc"], ["Ss"])]
    last = "Ss"
    if mask:
        nodes.append(hp.make_node("Add", ["M", "Ss"], ["Sm"]))
        last = "Sm"
    nodes += [hp.make_node("Softmax", [last], ["P"], axis=-1),
              hp.make_node("MatMul", ["P", "V"], ["O"])]
    ins = [hp.make_tensor_value_info(n, T.FLOAT, [b, h, s, d]) for n in "QKV"]
    if mask:
        ins.append(hp.make_tensor_value_info("M", T.FLOAT, [b, 1, 1, s]))
    scale = np.sqrt(d) if op == "Div" else 1 / np.sqrt(d)
    g = hp.make_graph(nodes, "attention", ins,
                      [hp.make_tensor_value_info("O", T.FLOAT, [b, h, s, d])],
                      initializer=[onnx.numpy_helper.from_array(
                          np.array(scale, np.float32), "sc")])
    return hp.make_model(g, opset_imports=[hp.make_opsetid("", 18)])


@pytest.mark.parametrize("b,h,s,d,op,mask", [
    (2, 3, 70, 64, "Div", True),      # BERT-like: scores / sqrt(d) + padding mask
    (1, 2, 150, 80, "Mul", False),    # scores * (1 / sqrt(d)), no mask, D 80
    (1, 1, 33, 32, "Mul", True),
    (1, 2, 600, 64, "Div", True),     # three key blocks of 256, the last partial
])
def test_onnx_attention_matches_onnxruntime(tmp_path, b, h, s, d, op, mask):
    m = _attention(b, h, s, d, op, mask)
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal((b, h, s, d), dtype=np.float32) for n in "QKV"}
    if mask:
        feeds["M"] = np.zeros((b, 1, 1, s), np.float32)
        feeds["M"][-1, ..., s // 2:] = -np.inf       # padding of the last sequence
    f = strata.compile(m, dump_dir=str(tmp_path))
    assert _fused(str(tmp_path))
    ref = ort.InferenceSession(m.SerializeToString()).run(None, feeds)[0]
    assert _rel(f(**feeds)[0], ref) <= TOLERANCE


def test_onnx_fully_masked_rows_are_nan_as_onnxruntime(tmp_path):
    """ONNX Softmax of a row of -inf is NaN (0/0): onnxruntime's answer, and the
    kernel's without ATTN_SAFE_SOFTMAX."""
    m = _attention(2, 2, 40, 32)
    rng = np.random.default_rng(1)
    feeds = {n: rng.standard_normal((2, 2, 40, 32), dtype=np.float32) for n in "QKV"}
    feeds["M"] = np.zeros((2, 1, 1, 40), np.float32)
    feeds["M"][1] = -np.inf
    f = strata.compile(m, dump_dir=str(tmp_path))
    assert _fused(str(tmp_path))
    ref = ort.InferenceSession(m.SerializeToString()).run(None, feeds)[0]
    y = f(**feeds)[0]
    assert np.isnan(ref[1]).all() and np.isnan(y[1]).all()
    assert _rel(y[0], ref[0]) <= TOLERANCE


def _export(module, args, names, path, dynamic_axes=None):
    import torch
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, args, path, input_names=names, opset_version=18,
                          dynamo=False, dynamic_axes=dynamic_axes)


class _First:
    """A module returning its model's first output only (a tensor)."""

    @staticmethod
    def wrap(model):
        import torch

        class First(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, *args):
                out = self.model(*args)
                return out[0] if isinstance(out, (tuple, list)) else \
                    getattr(out, "last_hidden_state", out)
        return First().eval()


def test_whisper_like_encoder_layer(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from transformers.models.whisper.modeling_whisper import WhisperEncoderLayer
    torch.manual_seed(0)
    cfg = transformers.WhisperConfig(d_model=64, encoder_attention_heads=4,
                                     encoder_ffn_dim=128)
    cfg._attn_implementation = "sdpa"
    layer = WhisperEncoderLayer(cfg).eval()

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            out = self.layer(x, None)
            return out[0] if isinstance(out, tuple) else out
    x = torch.randn(1, 150, 64)
    path = str(tmp_path / "layer.onnx")
    _export(Layer().eval(), (x,), ["x"], path)
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump), cache=False)
    assert _fused(str(dump))
    # SDPA's scale 1.0: Q's and K's scalings are copies, which go; then the heads'
    # transposes ([Note: Q, K and O in place])
    after, = glob.glob(os.path.join(str(dump), "*strata-linalg-attention-to-microkernels.mlir"))
    assert not _HEAD_TRANSPOSE.findall(open(after).read())
    y = f(x.numpy())[0]
    ref = ort.InferenceSession(path).run(None, {"x": x.numpy()})[0]
    with torch.no_grad():
        eager = Layer().eval()(x).numpy()
    assert _rel(y, ref) <= TOLERANCE and _rel(y, eager) <= TOLERANCE


def test_bert_layer_with_padding_mask(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    cfg = transformers.BertConfig(hidden_size=64, num_hidden_layers=1, num_attention_heads=4,
                                  intermediate_size=128, vocab_size=100)
    model = _First.wrap(transformers.BertModel(cfg).eval())
    ids = torch.randint(0, 100, (2, 48))
    mask = torch.ones(2, 48, dtype=torch.int64)
    mask[1, 30:] = 0
    path = str(tmp_path / "bert.onnx")
    _export(model, (ids, mask), ["input_ids", "attention_mask"], path)
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump))
    assert _fused(str(dump))
    feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
    y = f(**feeds)[0]
    ref = ort.InferenceSession(path).run(None, feeds)[0]
    with torch.no_grad():
        eager = model(ids, mask).numpy()
    assert _rel(y, ref) <= TOLERANCE and _rel(y, eager) <= TOLERANCE


@pytest.mark.parametrize("masked", [False, True])
def test_torch_sdpa_module(tmp_path, masked):
    """torch.export of F.scaled_dot_product_attention (the math decomposition: q and k^T
    scaled, the mask folded into the first product, _safe_softmax): fully masked rows give
    0 as eager does."""
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    class Attention(torch.nn.Module):
        def forward(self, q, k, v, *m):
            return F.scaled_dot_product_attention(q, k, v, attn_mask=m[0] if m else None)
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 3, 90, 64) for _ in range(3))
    args = (q, k, v)
    if masked:
        m = torch.zeros(2, 1, 90, 90)
        m[0, :, :, 60:] = float("-inf")
        m[1, :, 7, :] = float("-inf")                  # a fully masked row
        args += (m,)
    dump = tmp_path / "dump"
    f = strata.compile(Attention(), example_args=args, dump_dir=str(dump))
    assert _fused(str(dump))
    y = f(*args)
    y = (y[0] if isinstance(y, (list, tuple)) else y).numpy()
    eager = Attention()(*args).numpy()
    if masked:
        assert not eager[1, :, 7].any() and not y[1, :, 7].any()
    assert _rel(y, eager) <= TOLERANCE


@pytest.mark.parametrize("lq,lk", [(80, 80), (50, 130), (130, 50)])
def test_torch_sdpa_causal(tmp_path, lq, lk):
    """is_causal=True (top-left: key j of row i masked when j > i, also with fewer or
    more queries than keys): the bias computed from linalg.index in the scores' generic
    becomes the kernel's ATTN_CAUSAL flag, no mask buffer."""
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    class Causal(torch.nn.Module):
        def forward(self, q, k, v):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.manual_seed(0)
    args = (torch.randn(1, 2, lq, 32), torch.randn(1, 2, lk, 32), torch.randn(1, 2, lk, 32))
    dump = tmp_path / "dump"
    f = strata.compile(Causal(), example_args=args, dump_dir=str(dump))
    (path,) = glob.glob(os.path.join(str(dump),
                                     "*strata-linalg-attention-to-microkernels.mlir"))
    text = open(path).read()
    assert re.search(r"call @strata_attention_f32\(.*%c4_i32\)", text)
    assert "linalg.index" not in text
    y = f(*args)
    y = (y[0] if isinstance(y, (list, tuple)) else y).numpy()
    assert _rel(y, Causal()(*args).numpy()) <= TOLERANCE


@pytest.mark.parametrize("batch", [1, 2])
def test_onnx_attention_dynamic_sequence(tmp_path, batch):
    """Q [b, 2, s, 8], K and V [b, 2, t, 8], mask [b, 1, 1, t] with s, t (and b) run-time
    sizes: fused, and right at any length (fewer keys than min-keys too, one key, more
    queries than keys); the inputs disagreeing on t is the entry check's error."""
    from onnx import TensorProto as T
    from onnx import helper as hp
    m = _attention(batch, 2, 16, 8, op="Mul")
    b = "b" if batch == 2 else 1
    for i, v in enumerate(m.graph.input):
        dims = [b, 2, "s" if v.name == "Q" else "t", 8] if v.name != "M" else [b, 1, 1, "t"]
        m.graph.input[i].CopyFrom(hp.make_tensor_value_info(v.name, T.FLOAT, dims))
    m.graph.output[0].CopyFrom(hp.make_tensor_value_info("O", T.FLOAT, [b, 2, "s", 8]))
    f = strata.compile(m, dump_dir=str(tmp_path))
    assert _fused(str(tmp_path))
    sess = ort.InferenceSession(m.SerializeToString())
    rng = np.random.default_rng(2)
    for s, t in ((5, 7), (40, 40), (70, 33), (1, 1), (3, 100)):
        feeds = {"Q": rng.standard_normal((batch, 2, s, 8), dtype=np.float32),
                 "K": rng.standard_normal((batch, 2, t, 8), dtype=np.float32),
                 "V": rng.standard_normal((batch, 2, t, 8), dtype=np.float32),
                 "M": np.where(rng.random((batch, 1, 1, t)) < 0.2, -1e4, 0).astype(
                     np.float32)}
        y = f(**feeds)[0]
        assert y.shape == (batch, 2, s, 8)
        assert _rel(y, sess.run(None, feeds)[0]) <= TOLERANCE, (s, t)
    feeds["V"] = feeds["V"][:, :, :50]
    from strata.runtime import InputError
    with pytest.raises(InputError, match="dynamic dim 't'"):
        f(**feeds)


def _text_model(kind):
    import torch
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    if kind == "bert":
        cfg = transformers.BertConfig(hidden_size=64, num_hidden_layers=1,
                                      num_attention_heads=4, intermediate_size=128,
                                      vocab_size=100)
        return _First.wrap(transformers.BertModel(cfg).eval())
    cfg = transformers.GPT2Config(n_embd=64, n_layer=1, n_head=4, vocab_size=100,
                                  n_positions=256, bos_token_id=0, eos_token_id=0)
    gpt2 = transformers.GPT2Model(cfg).eval()

    class GPT2(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = gpt2

        def forward(self, ids, mask):
            return self.model(input_ids=ids, attention_mask=mask)[0]
    return GPT2().eval()


@pytest.mark.parametrize("kind", ["bert", "gpt2"])
def test_text_layer_dynamic_sequence(tmp_path, kind):
    """A BERT layer (padding mask) and a GPT-2 layer (causal mask and padding mask, Q, K,
    V column slices of the QKV product) exported with a run-time sequence: the attention
    is fused, and matches onnxruntime and eager at several lengths."""
    torch = pytest.importorskip("torch")
    ids = torch.randint(0, 100, (1, 48))
    mask = torch.ones(1, 48, dtype=torch.int64)
    model = _text_model(kind)
    path = str(tmp_path / f"{kind}.onnx")
    _export(model, (ids, mask), ["input_ids", "attention_mask"], path,
            dynamic_axes={"input_ids": {1: "seq"}, "attention_mask": {1: "seq"}})
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump))
    assert _fused(str(dump))
    sess = ort.InferenceSession(path)
    for seq in (9, 40, 77):
        ids = torch.randint(0, 100, (1, seq))
        mask = torch.ones(1, seq, dtype=torch.int64)
        mask[0, seq * 3 // 4:] = 0
        feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
        y = f(**feeds)[0]
        with torch.no_grad():
            eager = model(ids, mask).numpy()
        assert _rel(y, sess.run(None, feeds)[0]) <= TOLERANCE, seq
        assert _rel(y, eager) <= TOLERANCE, seq


def test_gpt2_causal_mask_becomes_the_causal_flag(tmp_path):
    """HF GPT-2's mask, exported as one select(tril & padding, 0, -inf): the kernel runs
    causal (flags 4 or'ed in), the padding part a [S] buffer; left padding masks whole
    rows (NaN -> 0 as onnxruntime's where(isnan)), a gap in the middle some keys."""
    torch = pytest.importorskip("torch")
    model = _text_model("gpt2")
    ids = torch.randint(0, 100, (1, 64))
    mask = torch.ones(1, 64, dtype=torch.int64)
    path = str(tmp_path / "gpt2.onnx")
    _export(model, (ids, mask), ["input_ids", "attention_mask"], path)
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump), cache=False)
    (ir,) = glob.glob(os.path.join(str(dump), "*strata-linalg-attention-to-microkernels.mlir"))
    with open(ir) as fh:
        calls = [ln for ln in fh if "call @strata_attention_f32" in ln]
    assert len(calls) == 1
    flags = int(re.search(r"%c(\d+)_i32\)", calls[0]).group(1))
    assert flags & 4, calls[0]
    sess = ort.InferenceSession(path)
    for lo, hi in ((0, 0), (0, 5), (30, 40)):
        m = mask.clone()
        m[0, lo:hi] = 0
        feeds = {"input_ids": ids.numpy(), "attention_mask": m.numpy()}
        y = f(**feeds)[0]
        assert _rel(y, sess.run(None, feeds)[0]) <= TOLERANCE, (lo, hi)


_SCALED = re.compile(r"linalg\.generic \{[^\n]*\n\s*\^bb0\(%in: f32, %out: f32\):\n"
                     r"\s*%\w+ = arith\.mulf %in, %\w+ : f32\n\s*linalg\.yield")


def test_vit_layer_q_and_k_scaling_goes_into_the_kernel(tmp_path):
    """HF ViT (sdpa) exported by the TorchScript exporter scales Q and K by sqrt(scale)
    each before the product: the two scaling passes over [1, heads, seq, dim] go, the
    kernel's scale is their product ([Note: Q and K scaled before the product]), the
    answer that of onnxruntime and eager."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    cfg = transformers.ViTConfig(hidden_size=64, num_hidden_layers=1, num_attention_heads=4,
                                 intermediate_size=128, image_size=48, patch_size=8)
    cfg._attn_implementation = "sdpa"
    model = _First.wrap(transformers.ViTModel(cfg, add_pooling_layer=False).eval())
    x = torch.randn(1, 3, 48, 48)
    path = str(tmp_path / "vit.onnx")
    _export(model, (x,), ["pixel_values"], path)
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump), cache=False)
    assert _fused(str(dump))
    before, = glob.glob(os.path.join(str(dump), "14-*.mlir"))
    after, = glob.glob(os.path.join(str(dump), "*strata-linalg-attention-to-microkernels.mlir"))
    n_before = len(_SCALED.findall(open(before).read()))
    n_after = len(_SCALED.findall(open(after).read()))
    assert n_before >= 2 and n_after == n_before - 2, (n_before, n_after)
    call = re.search(r"call @strata_attention_f32\(([^)]*)\)", open(after).read()).group(1)
    scale = call.split(", ")[24]
    assert re.search(rf"{re.escape(scale)} = arith\.constant 2\.500000e-01 : f32",
                     open(after).read()), scale
    y = f(x.numpy())[0]
    ref = ort.InferenceSession(path).run(None, {"pixel_values": x.numpy()})[0]
    with torch.no_grad():
        eager = model(x).numpy()
    assert _rel(y, ref) <= TOLERANCE and _rel(y, eager) <= TOLERANCE


_HEAD_TRANSPOSE = re.compile(r"linalg\.transpose ins\(%\w+ : memref<1x\d+x\d+x\d+xf32>\)")


@pytest.mark.parametrize("kind", ["vit", "bert"])
def test_q_k_and_o_read_and_written_in_place(tmp_path, kind):
    """HF ViT and BERT layers split the heads with Reshape + Transpose: the kernel reads Q
    and K where the transposes read them (the projections' outputs) and writes O where
    the transpose after it writes: no head transpose is left around the call ([Note: Q,
    K and O in place]), the answer that of onnxruntime and eager."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    if kind == "vit":
        cfg = transformers.ViTConfig(hidden_size=64, num_hidden_layers=1,
                                     num_attention_heads=4, intermediate_size=128,
                                     image_size=48, patch_size=8)
        cfg._attn_implementation = "sdpa"
        model = _First.wrap(transformers.ViTModel(cfg, add_pooling_layer=False).eval())
        args, names = (torch.randn(1, 3, 48, 48),), ["pixel_values"]
    else:
        cfg = transformers.BertConfig(hidden_size=64, num_hidden_layers=1,
                                      num_attention_heads=4, intermediate_size=128,
                                      vocab_size=100)
        model = _First.wrap(transformers.BertModel(cfg).eval())
        args, names = (torch.randint(0, 100, (1, 40)), torch.ones(1, 40, dtype=torch.int64)), \
            ["input_ids", "attention_mask"]
    path = str(tmp_path / "m.onnx")
    _export(model, args, names, path)
    dump = tmp_path / "dump"
    f = strata.compile(path, dump_dir=str(dump), cache=False)
    assert _fused(str(dump))
    after, = glob.glob(os.path.join(str(dump), "*strata-linalg-attention-to-microkernels.mlir"))
    stem = os.path.basename(after).split("-")[0]
    prev, = glob.glob(os.path.join(str(dump), f"{int(stem) - 1:02d}-*.mlir"))
    n_before = len(_HEAD_TRANSPOSE.findall(open(prev).read()))
    n_after = len(_HEAD_TRANSPOSE.findall(open(after).read()))
    assert n_after == n_before - 3, (n_before, n_after)     # Q's, K's and O's
    feeds = {n: a.numpy() for n, a in zip(names, args)}
    y = f(**feeds)[0]
    ref = ort.InferenceSession(path).run(None, feeds)[0]
    with torch.no_grad():
        eager = model(*args).numpy()
    assert _rel(y, ref) <= TOLERANCE and _rel(y, eager) <= TOLERANCE
