"""Breadth cases for the PyTorch frontend (issue 17, item 7): HF `transformers` vision and
audio architectures built from small configs with random weights, and the torch.nn
building blocks users put in models, each a builder returning (model, args, kwargs):

    model, args, kwargs = VISION["swin"]()
    check(model, args, kwargs, "export")    # strata.compile(model, example_args=args, ...)
    check(model, args, kwargs, "dynamo")    # torch.compile(model, backend=strata_backend)

`check` compares every output tensor with eager PyTorch's, max|got - want| / max|want|
below RTOL, and the output's structure (the pytree of dicts, lists, tuples and
ModelOutputs) with eager's. Used by tests/e2e/test_torch_vision_architectures.py,
tests/e2e/test_torch_nn_modules.py and the table printer tests/e2e/torch_breadth_runner.py.
Nothing is downloaded (HF_HUB_OFFLINE=1: configs only).
"""
from __future__ import annotations

import os
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

RTOL = 1e-4


def _t():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers
    return transformers


def _image(n=1, c=3, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, c, size, size, generator=g)


def _hf(model_cls, config_cls, size=32, n=1, **config):
    t = _t()
    torch.manual_seed(0)
    model = getattr(t, model_cls)(getattr(t, config_cls)(**config)).eval()
    return _perturbed(model), (_image(n, config.get("num_channels", 3), size),), {}


def _perturbed(model, scale=0.05):
    """`model` with seeded noise added to every parameter: HF's initialization leaves
    some of these small models' outputs exactly zero (zero-initialized classifier or
    normalization weights: MobileNet, EfficientNet, MobileViT, LeViT, DPT), which a
    comparison with eager could not fail on."""
    g = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for p in model.parameters():
            if p.is_floating_point():
                p.add_(torch.randn(p.shape, generator=g, dtype=p.dtype) * scale)
    return model


# ---------------------------------------------------------------- HF vision / audio

_VIT = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=64, image_size=32, patch_size=8)


def vit():
    return _hf("ViTForImageClassification", "ViTConfig", num_labels=10, **_VIT)


def deit():
    return _hf("DeiTForImageClassificationWithTeacher", "DeiTConfig", num_labels=10, **_VIT)


def beit():
    return _hf("BeitForImageClassification", "BeitConfig", num_labels=10,
               use_relative_position_bias=True, use_mean_pooling=True, **_VIT)


def dinov2():
    cfg = dict(_VIT)
    del cfg["intermediate_size"]
    return _hf("Dinov2Model", "Dinov2Config", mlp_ratio=2, **cfg)


def swin():
    return _hf("SwinForImageClassification", "SwinConfig", num_labels=10, image_size=32,
               patch_size=2, embed_dim=16, depths=[1, 2], num_heads=[2, 4], window_size=4)


def swinv2():
    return _hf("Swinv2ForImageClassification", "Swinv2Config", num_labels=10,
               image_size=32, patch_size=2, embed_dim=16, depths=[1, 2], num_heads=[2, 4],
               window_size=4)


def convnext():
    return _hf("ConvNextForImageClassification", "ConvNextConfig", num_labels=10,
               hidden_sizes=[16, 32], depths=[1, 1], num_stages=2)


def convnextv2():
    return _hf("ConvNextV2ForImageClassification", "ConvNextV2Config", num_labels=10,
               hidden_sizes=[16, 32], depths=[1, 1], num_stages=2)


def resnet():
    return _hf("ResNetForImageClassification", "ResNetConfig", num_labels=10,
               embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
               layer_type="bottleneck")


def resnet_basic():
    return _hf("ResNetForImageClassification", "ResNetConfig", num_labels=10,
               embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], layer_type="basic")


def regnet():
    return _hf("RegNetForImageClassification", "RegNetConfig", num_labels=10,
               embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], groups_width=8)


def mobilenet_v1():
    return _hf("MobileNetV1ForImageClassification", "MobileNetV1Config", num_labels=10,
               depth_multiplier=0.25, image_size=32)


def mobilenet_v2():
    return _hf("MobileNetV2ForImageClassification", "MobileNetV2Config", num_labels=10,
               depth_multiplier=0.25, image_size=32)


def mobilenet_v2_seg():
    return _hf("MobileNetV2ForSemanticSegmentation", "MobileNetV2Config", num_labels=5,
               depth_multiplier=0.25, image_size=32)


def efficientnet():
    return _hf("EfficientNetForImageClassification", "EfficientNetConfig", num_labels=10,
               image_size=32, width_coefficient=0.25, depth_coefficient=0.25,
               hidden_dim=320)  # round_filters(1280) at width 0.25


def mobilevit():
    return _hf("MobileViTForImageClassification", "MobileViTConfig", num_labels=10,
               image_size=64, size=64, hidden_sizes=[16, 24, 32],
               neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64])


def levit():
    return _hf("LevitForImageClassificationWithTeacher", "LevitConfig", num_labels=10,
               size=64, image_size=64, hidden_sizes=[32, 48, 64],
               num_attention_heads=[1, 2, 4], depths=[1, 1, 1], key_dim=[8, 8, 8])


def poolformer():
    return _hf("PoolFormerForImageClassification", "PoolFormerConfig", num_labels=10,
               hidden_sizes=[16, 16, 32, 32], depths=[1, 1, 1, 1])


def segformer():
    return _hf("SegformerForSemanticSegmentation", "SegformerConfig", num_labels=5,
               num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
               hidden_sizes=[16, 32], num_attention_heads=[1, 2], decoder_hidden_size=32,
               patch_sizes=[7, 3], strides=[4, 2])


def dpt():
    return _hf("DPTForDepthEstimation", "DPTConfig", hidden_size=32, num_hidden_layers=4,
               num_attention_heads=4, intermediate_size=64, image_size=32, patch_size=8,
               backbone_out_indices=[0, 1, 2, 3], neck_hidden_sizes=[8, 16, 32, 32],
               fusion_hidden_size=16, head_in_index=-1)


def clip_vision():
    return _hf("CLIPVisionModelWithProjection", "CLIPVisionConfig", projection_dim=16,
               **_VIT)


def _ids(vocab, n=2, length=12, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, vocab, (n, length), generator=g)


def clip_text():
    t = _t()
    torch.manual_seed(0)
    cfg = t.CLIPTextConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2,
                           num_attention_heads=4, intermediate_size=64,
                           max_position_embeddings=16, projection_dim=16)
    model = t.CLIPTextModelWithProjection(cfg).eval()
    ids = _ids(100)
    mask = torch.ones_like(ids)
    mask[1, 9:] = 0
    return model, (ids,), {"attention_mask": mask}


def _whisper_config():
    t = _t()
    return t.WhisperConfig(vocab_size=100, d_model=32, encoder_layers=2, decoder_layers=2,
                           encoder_attention_heads=4, decoder_attention_heads=4,
                           encoder_ffn_dim=64, decoder_ffn_dim=64, num_mel_bins=16,
                           max_source_positions=20, max_target_positions=16,
                           use_cache=False, pad_token_id=0, decoder_start_token_id=1)


def _features(mel=16, frames=40, seed=2):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, mel, frames, generator=g)


def whisper_encoder():
    t = _t()
    torch.manual_seed(0)
    model = t.WhisperModel(_whisper_config()).get_encoder().eval()
    return model, (_features(),), {}


def whisper():
    t = _t()
    torch.manual_seed(0)
    model = t.WhisperForConditionalGeneration(_whisper_config()).eval()
    return model, (_features(),), {"decoder_input_ids": _ids(100, n=1, length=6)}


def _audio(n=1, samples=1600, seed=3):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, samples, generator=g)


_W2V = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=64, conv_dim=(16, 16, 16), conv_stride=(5, 2, 2),
            conv_kernel=(10, 3, 3), num_conv_pos_embeddings=16,
            num_conv_pos_embedding_groups=4, vocab_size=20)


def wav2vec2():
    t = _t()
    torch.manual_seed(0)
    return t.Wav2Vec2ForCTC(t.Wav2Vec2Config(**_W2V)).eval(), (_audio(),), {}


def hubert():
    t = _t()
    torch.manual_seed(0)
    return t.HubertModel(t.HubertConfig(**_W2V)).eval(), (_audio(),), {}


def ast():
    t = _t()
    torch.manual_seed(0)
    cfg = t.ASTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                      intermediate_size=64, num_mel_bins=16, max_length=32, patch_size=8,
                      frequency_stride=8, time_stride=8, num_labels=5)
    g = torch.Generator().manual_seed(4)
    return t.ASTForAudioClassification(cfg).eval(), (torch.randn(1, 32, 16, generator=g),), {}


VISION = {f.__name__: f for f in (
    vit, deit, beit, dinov2, swin, swinv2, convnext, convnextv2, resnet, resnet_basic,
    regnet, mobilenet_v1, mobilenet_v2, mobilenet_v2_seg, efficientnet, mobilevit, levit,
    poolformer, segformer, dpt, clip_vision, clip_text, whisper_encoder, whisper, wav2vec2,
    hubert, ast)}


# ---------------------------------------------------------------- torch.nn blocks

def _randn(*shape, seed=5):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g)


class _Wrap(nn.Module):
    """A module whose forward is `fn(self, *args)` (its submodules in `mods`)."""

    def __init__(self, fn, **mods):
        super().__init__()
        self.fn = fn
        for k, v in mods.items():
            setattr(self, k, v)

    def forward(self, *args, **kwargs):
        return self.fn(self, *args, **kwargs)


def _seeded(build):
    def make():
        torch.manual_seed(0)
        model, args, kwargs = build()
        return model.eval(), args, kwargs
    make.__name__ = build.__name__
    return make


def _rnn(cls, **kw):
    def build():
        m = cls(input_size=8, hidden_size=12, **kw)
        x = _randn(2, 5, 8) if kw.get("batch_first") else _randn(5, 2, 8)
        return m, (x,), {}
    return build


def lstm_2layer_bidir():
    return _rnn(nn.LSTM, num_layers=2, bidirectional=True, batch_first=True)()


def lstm_seq_first():
    return _rnn(nn.LSTM, num_layers=1)()


def lstm_with_state():
    m = nn.LSTM(8, 12, num_layers=2, batch_first=True)
    h = (_randn(2, 2, 12, seed=6), _randn(2, 2, 12, seed=7))
    return m, (_randn(2, 5, 8), h), {}


def gru_2layer_bidir():
    return _rnn(nn.GRU, num_layers=2, bidirectional=True, batch_first=True)()


def rnn_tanh():
    return _rnn(nn.RNN, num_layers=2, batch_first=True)()


def rnn_relu_bidir():
    return _rnn(nn.RNN, nonlinearity="relu", bidirectional=True)()


def mha_self():
    m = nn.MultiheadAttention(16, 4, batch_first=True)
    x = _randn(2, 6, 16)
    return _Wrap(lambda s, x: s.m(x, x, x), m=m), (x,), {}


def mha_masks():
    m = nn.MultiheadAttention(16, 4, batch_first=True)
    q, kv = _randn(2, 5, 16), _randn(2, 7, 16, seed=8)
    key_padding = torch.zeros(2, 7, dtype=torch.bool)
    key_padding[1, 5:] = True
    attn_mask = torch.triu(torch.ones(5, 7, dtype=torch.bool), diagonal=3)
    return (_Wrap(lambda s, q, kv, kp, am: s.m(q, kv, kv, key_padding_mask=kp,
                                                attn_mask=am), m=m),
            (q, kv, key_padding, attn_mask), {})


def mha_no_weights_float_mask():
    m = nn.MultiheadAttention(16, 4, kdim=12, vdim=10)
    q, k, v = _randn(5, 2, 16), _randn(7, 2, 12, seed=8), _randn(7, 2, 10, seed=9)
    mask = _randn(5, 7, seed=10)
    return (_Wrap(lambda s, q, k, v, am: s.m(q, k, v, attn_mask=am, need_weights=False)[0],
                  m=m), (q, k, v, mask), {})


def mha_per_head_weights():
    m = nn.MultiheadAttention(16, 4, batch_first=True)
    x = _randn(2, 6, 16)
    return (_Wrap(lambda s, x: s.m(x, x, x, average_attn_weights=False), m=m), (x,), {})


def transformer_encoder():
    layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, batch_first=True)
    return nn.TransformerEncoder(layer, 2, enable_nested_tensor=False), (_randn(2, 6, 16),), {}


def transformer_encoder_masked():
    layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, batch_first=True,
                                       norm_first=True, activation="gelu")
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    pad = torch.zeros(2, 6, dtype=torch.bool)
    pad[0, 4:] = True
    return (_Wrap(lambda s, x, p: s.enc(x, src_key_padding_mask=p), enc=enc),
            (_randn(2, 6, 16), pad), {})


def transformer_decoder():
    layer = nn.TransformerDecoderLayer(16, 4, dim_feedforward=32, batch_first=True)
    dec = nn.TransformerDecoder(layer, 2)
    causal = nn.Transformer.generate_square_subsequent_mask(5)
    return (_Wrap(lambda s, t, m, c: s.dec(t, m, tgt_mask=c), dec=dec),
            (_randn(2, 5, 16), _randn(2, 7, 16, seed=11), causal), {})


def nn_transformer():
    m = nn.Transformer(16, 4, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=32, batch_first=True)
    return m, (_randn(2, 7, 16), _randn(2, 5, 16, seed=11)), {}


def _fn(name, fn, *args, **mods):
    def build():
        return _Wrap(fn, **mods), args, {}
    build.__name__ = name
    return build


def _interp(mode, **kw):
    return lambda s, x: F.interpolate(x, **kw, mode=mode)


def _cases():
    img = _randn(1, 3, 8, 10)
    out = []
    for mode, kw in (("nearest", dict(scale_factor=2)),
                     ("nearest", dict(size=(5, 7))),
                     ("nearest-exact", dict(size=(13, 7))),
                     ("bilinear", dict(scale_factor=2, align_corners=False)),
                     ("bilinear", dict(size=(5, 13), align_corners=True)),
                     ("bilinear", dict(size=(12, 15), align_corners=False)),
                     ("bicubic", dict(scale_factor=2, align_corners=False)),
                     ("bicubic", dict(size=(11, 6), align_corners=True))):
        tag = "_".join(f"{k}{v}" for k, v in kw.items()).replace(" ", "")
        out.append(_fn(f"interpolate_{mode}_{tag}", _interp(mode, **kw), img))
    out += [
        _fn("upsample_module", lambda s, x: s.up(x), img,
            up=nn.Upsample(scale_factor=2, mode="bilinear")),
        _fn("interpolate_linear_1d", lambda s, x: F.interpolate(x, size=13, mode="linear"),
            _randn(2, 3, 9)),
        _fn("interpolate_trilinear", lambda s, x: F.interpolate(
            x, scale_factor=2, mode="trilinear"), _randn(1, 2, 3, 4, 5)),
        _fn("pixel_shuffle", lambda s, x: s.ps(x), _randn(1, 8, 4, 5),
            ps=nn.PixelShuffle(2)),
        _fn("pixel_unshuffle", lambda s, x: F.pixel_unshuffle(x, 2), _randn(1, 2, 4, 6)),
        _fn("conv_transpose2d", lambda s, x: s.c(x), _randn(1, 4, 5, 6),
            c=nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1)),
        _fn("conv_transpose2d_groups_dilation", lambda s, x: s.c(x), _randn(1, 4, 5, 6),
            c=nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2, dilation=2)),
        _fn("conv_transpose1d", lambda s, x: s.c(x), _randn(2, 4, 7),
            c=nn.ConvTranspose1d(4, 3, 4, stride=2)),
        _fn("conv1d", lambda s, x: s.c(x), _randn(2, 4, 15),
            c=nn.Conv1d(4, 6, 5, stride=2, padding=2, dilation=1)),
        _fn("conv1d_same_groups", lambda s, x: s.c(x), _randn(2, 4, 15),
            c=nn.Conv1d(4, 8, 3, padding="same", groups=4, dilation=2)),
        _fn("conv3d", lambda s, x: s.c(x), _randn(1, 2, 5, 6, 7),
            c=nn.Conv3d(2, 4, 3, stride=(1, 2, 2), padding=1)),
        _fn("conv2d_reflect_pad", lambda s, x: s.c(x), _randn(1, 3, 8, 8),
            c=nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect")),
        _fn("adaptive_avg_pool2d", lambda s, x: F.adaptive_avg_pool2d(x, (3, 4)),
            _randn(1, 3, 10, 9)),
        _fn("adaptive_max_pool2d", lambda s, x: F.adaptive_max_pool2d(x, (3, 4)),
            _randn(1, 3, 10, 9)),
        _fn("adaptive_avg_pool1d", lambda s, x: F.adaptive_avg_pool1d(x, 4),
            _randn(2, 3, 10)),
        _fn("max_pool2d_ceil", lambda s, x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
            _randn(1, 3, 10, 9)),
        _fn("avg_pool2d_ceil_nopad", lambda s, x: F.avg_pool2d(
            x, 3, 2, 1, ceil_mode=True, count_include_pad=False), _randn(1, 3, 10, 9)),
        _fn("max_pool1d", lambda s, x: F.max_pool1d(x, 3, 2), _randn(2, 3, 11)),
        _fn("avg_pool3d", lambda s, x: F.avg_pool3d(x, 2), _randn(1, 2, 4, 6, 6)),
        _fn("embedding", lambda s, i: s.e(i), _ids(20),
            e=nn.Embedding(20, 8, padding_idx=0)),
        _fn("embedding_bag_mean", lambda s, i, o: s.e(i, o),
            torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4]),
            e=nn.EmbeddingBag(10, 6, mode="mean")),
        _fn("embedding_bag_sum_2d", lambda s, i: s.e(i), _ids(10, n=3, length=4),
            e=nn.EmbeddingBag(10, 6, mode="sum")),
        _fn("embedding_bag_max", lambda s, i: s.e(i), _ids(10, n=3, length=4),
            e=nn.EmbeddingBag(10, 6, mode="max")),
        _fn("embedding_bag_sum_weights", lambda s, i, o, w: s.e(i, o, per_sample_weights=w),
            torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4, 4, 8]),
            torch.linspace(0.5, 2.0, 8),
            e=nn.EmbeddingBag(10, 6, mode="sum", include_last_offset=True, padding_idx=2)),
        _fn("unfold", lambda s, x: s.u(x), _randn(2, 3, 6, 7),
            u=nn.Unfold(kernel_size=(2, 3), padding=1, stride=2)),
        _fn("fold", lambda s, x: s.f(x), _randn(2, 12, 20),
            f=nn.Fold(output_size=(5, 6), kernel_size=2, stride=1)),
        _fn("einsum_bmm", lambda s, a, b: torch.einsum("bij,bjk->bik", a, b),
            _randn(2, 3, 4), _randn(2, 4, 5, seed=6)),
        _fn("einsum_attention", lambda s, a, b: torch.einsum("bhqd,bhkd->bhqk", a, b),
            _randn(2, 3, 4, 5), _randn(2, 3, 6, 5, seed=6)),
        _fn("einsum_trace_outer", lambda s, a, b: torch.einsum("ii,j->j", a, b),
            _randn(4, 4), _randn(3, seed=6)),
        _fn("where_masked_fill", lambda s, x, m: torch.where(m, x, -x).masked_fill(
            ~m, 0.5), _randn(3, 4), _randn(3, 4, seed=6) > 0),
        _fn("masked_fill_broadcast", lambda s, x, m: x.masked_fill(m, float("-inf"))
            .softmax(-1), _randn(2, 3, 4), torch.tensor([[False, False, True, True]])),
        _fn("cumsum", lambda s, x: torch.cumsum(x, 1), _randn(3, 5)),
        _fn("cumsum_int", lambda s, x: torch.cumsum(x, 0), _ids(10, n=4, length=3)),
        _fn("cumprod", lambda s, x: torch.cumprod(x, -1), _randn(3, 5)),
        _fn("topk", lambda s, x: torch.topk(x, 3, dim=-1), _randn(3, 7)),
        _fn("topk_smallest", lambda s, x: torch.topk(x, 2, dim=0, largest=False),
            _randn(5, 3)),
        _fn("sort", lambda s, x: torch.sort(x, dim=-1, descending=True), _randn(3, 7)),
        _fn("argsort", lambda s, x: torch.argsort(x, dim=0), _randn(5, 3)),
        _fn("argmax_keepdim", lambda s, x: x.argmax(-1, keepdim=True), _randn(3, 7)),
        _fn("index_select", lambda s, x, i: torch.index_select(x, 1, i), _randn(3, 7),
            torch.tensor([0, 6, 2, 2])),
        _fn("gather", lambda s, x, i: torch.gather(x, 1, i), _randn(3, 7),
            torch.tensor([[0, 1], [6, 5], [2, 2]])),
        _fn("scatter", lambda s, x, i, v: x.scatter(1, i, v), _randn(3, 7),
            torch.tensor([[0, 1], [6, 5], [2, 3]]), _randn(3, 2, seed=9)),
        _fn("scatter_add", lambda s, x, i, v: x.scatter_add(0, i, v), _randn(4, 3),
            torch.tensor([[0, 1, 2], [0, 1, 2], [3, 3, 3]]), _randn(3, 3, seed=9)),
        _fn("scatter_reduce_amax", lambda s, x, i, v: x.scatter_reduce(
            0, i, v, "amax", include_self=False), _randn(4, 3),
            torch.tensor([[0, 1, 2], [0, 1, 2], [3, 3, 3]]), _randn(3, 3, seed=9)),
        _fn("index_tensor", lambda s, x, i: x[i, :, i], _randn(4, 3, 4),
            torch.tensor([3, 0, 1])),
        _fn("index_put", lambda s, x, i, v: x.index_put((i,), v, accumulate=True),
            _randn(5, 3), torch.tensor([0, 2, 0]), _randn(3, 3, seed=9)),
        _fn("slice_assign", lambda s, x: _slice_assign(x), _randn(4, 6)),
        _fn("bool_mask_index", lambda s, x: x[x > 0], _randn(4, 5)),
        _fn("nonzero", lambda s, x: torch.nonzero(x > 0), _randn(4, 5)),
        _fn("int64_input", lambda s, a, b: (a * 3 + b) // 2 % 5, _ids(100, n=3, length=4),
            _ids(100, n=3, length=4, seed=2)),
        _fn("int_float_promotion", lambda s, a, x: a / 2 + x * a, _ids(10, n=3, length=4),
            _randn(3, 4)),
        _fn("bool_input", lambda s, m, x: (m & (x > 0)) | ~m, _randn(3, 4, seed=6) > 0,
            _randn(3, 4)),
        _fn("bool_to_float_sum", lambda s, m: m.float().sum(-1) + m.sum(-1),
            _randn(3, 4, seed=6) > 0),
        _fn("int32_input", lambda s, a: (a.float() * 0.5, a + 1),
            torch.arange(12, dtype=torch.int32).reshape(3, 4)),
        _fn("float64_input", lambda s, x: torch.exp(x) * 2, _randn(3, 4).double()),
        _fn("float16_input", lambda s, x: (x * 2 + 1).float(), _randn(3, 4).half()),
        _fn("list_output", lambda s, x: [x + 1, x.sum(0)], _randn(3, 4)),
        _fn("dict_output", lambda s, x: {"a": x * 2, "b": (x.mean(), x.t())}, _randn(3, 4)),
        _fn("chunk_split", lambda s, x: x.chunk(3, dim=1), _randn(2, 9)),
        _fn("unbind", lambda s, x: x.unbind(0), _randn(3, 4)),
        _fn("group_norm", lambda s, x: s.g(x), _randn(2, 6, 4, 5), g=nn.GroupNorm(3, 6)),
        _fn("instance_norm", lambda s, x: s.n(x), _randn(2, 3, 6, 5),
            n=nn.InstanceNorm2d(3, affine=True)),
        _fn("batch_norm_1d", lambda s, x: s.n(x), _randn(4, 3, 5), n=nn.BatchNorm1d(3)),
        _fn("local_response_norm", lambda s, x: s.n(x), _randn(1, 6, 4, 4),
            n=nn.LocalResponseNorm(3)),
        _fn("prelu_hardswish_mish", lambda s, x: F.mish(s.p(x)) + F.hardswish(x) +
            F.silu(x) + F.softplus(x) + F.elu(x) + F.selu(x) + F.hardsigmoid(x)
            + F.leaky_relu(x, 0.1) + F.gelu(x, approximate="tanh") + F.relu6(x),
            _randn(2, 3, 4, 4), p=nn.PReLU(3)),
        _fn("cosine_similarity_normalize", lambda s, a, b: F.cosine_similarity(a, b, dim=-1)
            + F.normalize(a, dim=-1).sum(-1), _randn(3, 8), _randn(3, 8, seed=6)),
        _fn("cdist_pairwise", lambda s, a, b: torch.cdist(a, b), _randn(2, 4, 3),
            _randn(2, 5, 3, seed=6)),
        _fn("pad_modes", lambda s, x: F.pad(x, (1, 2, 2, 1), mode="reflect").sum() +
            F.pad(x, (1, 2, 2, 1), mode="replicate").sum() +
            F.pad(x, (1, 2), value=3.0).sum(), _randn(1, 2, 5, 6)),
        _fn("log_softmax_cross_entropy", lambda s, x, t: F.cross_entropy(x, t),
            _randn(4, 5), torch.tensor([0, 4, 2, 1])),
        _fn("tril_triu_flip_roll", lambda s, x: torch.tril(x) + torch.triu(x, 1).flip(0) +
            torch.roll(x, 2, 1), _randn(4, 4)),
        _fn("repeat_interleave_expand", lambda s, x: x.repeat_interleave(2, dim=1) +
            x.repeat(1, 2), _randn(2, 3)),
        _fn("arange_like", lambda s, x: x + torch.arange(x.shape[-1]), _randn(2, 5)),
        _fn("clamp_min_max_tensor", lambda s, x, lo: torch.clamp(x, min=lo, max=lo + 1),
            _randn(3, 4), _randn(4, seed=6)),
    ]
    return out


def _slice_assign(x):
    y = x.clone()
    y[:, 1:4] = 0.0
    y[2] += 1.0
    return y


def scalar_arg():
    return _Wrap(lambda s, x, alpha, n: x * alpha + n), (_randn(3, 4), 0.5, 3), {}


def dict_list_input():
    def fn(s, inputs):
        return {"sum": inputs["a"] + inputs["b"][0], "prod": inputs["a"] * inputs["b"][1]}
    return _Wrap(fn), ({"a": _randn(3, 4), "b": [_randn(3, 4, seed=6),
                                                 _randn(3, 4, seed=7)]},), {}


def kwargs_input():
    return (_Wrap(lambda s, x, y=None, scale=1.0: x * scale + (y if y is not None else 0)),
            (_randn(3, 4),), {"y": _randn(3, 4, seed=6), "scale": 2.0})


NN = {f.__name__: _seeded(f) for f in (
    lstm_2layer_bidir, lstm_seq_first, lstm_with_state, gru_2layer_bidir, rnn_tanh,
    rnn_relu_bidir, mha_self, mha_masks, mha_no_weights_float_mask, mha_per_head_weights,
    transformer_encoder, transformer_encoder_masked, transformer_decoder, nn_transformer,
    scalar_arg, dict_list_input, kwargs_input)}
NN.update({f.__name__: _seeded(f) for f in _cases()})


# ---------------------------------------------------------------- checking

def _leaves_and_spec(out):
    from torch.utils._pytree import tree_flatten
    if hasattr(out, "to_tuple"):
        out = out.to_tuple()
    return tree_flatten(out)


def max_rel(got, want) -> float:
    """max|got - want| / max|want| over one output (0 when both are all zeros); equal
    shape and dtype asserted."""
    got = torch.as_tensor(got)
    assert got.shape == want.shape, ("shape", tuple(got.shape), tuple(want.shape))
    assert got.dtype == want.dtype, ("dtype", got.dtype, want.dtype)
    if want.dtype == torch.bool or not want.is_floating_point():
        return 0.0 if torch.equal(got, want) else float("inf")
    got, want = got.double(), want.double()
    finite = torch.isfinite(want)
    if not torch.equal(finite, torch.isfinite(got)) or not torch.equal(
            got[~finite], want[~finite]):
        return float("inf")
    want, got = want[finite], got[finite]
    if want.numel() == 0:
        return 0.0
    scale = want.abs().max().item()
    diff = (got - want).abs().max().item()
    return diff / scale if scale else diff


def check(model, args, kwargs, path: str, **compile_options) -> float:
    """Compile `model` through `path` ("export": strata.compile; "dynamo":
    torch.compile with the strata backend, no eager fallback), run it on args/kwargs
    and return the largest max_rel over the outputs; raises on a structure mismatch."""
    import copy

    import strata
    from strata.frontends.torch import dynamo
    with torch.no_grad():
        want = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        want_leaves, want_spec = _leaves_and_spec(want)
        if path == "export":
            f = strata.compile(model, example_args=args, example_kwargs=kwargs or None,
                               **compile_options)
            got = f(*args, **kwargs)
            got_leaves, got_spec = _leaves_and_spec(got)
        else:
            torch._dynamo.reset()
            before = dynamo.COUNTERS["inference"]
            options = {"fallback": False, **compile_options}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", dynamo.StrataFallbackWarning)
                    compiled = torch.compile(
                        model, backend=lambda gm, ex: dynamo.strata_backend(
                            gm, ex, options=dict(options)))
                    got = compiled(*args, **kwargs)
            finally:
                torch._dynamo.reset()
            # Dynamo hands a backend nothing for what it runs eagerly itself (an
            # nn.LSTM / GRU / RNN: torch._dynamo.config.allow_rnn is off)
            assert dynamo.COUNTERS["inference"] > before, \
                "no graph reached Strata: Dynamo ran the model eagerly"
            got_leaves, got_spec = _leaves_and_spec(got)
            assert got_spec == want_spec, ("structure", str(got_spec), str(want_spec))
    assert len(got_leaves) == len(want_leaves), ("outputs", len(got_leaves),
                                                 len(want_leaves))
    rels = [max_rel(g, w) for g, w in zip(got_leaves, want_leaves)
            if isinstance(w, torch.Tensor)]
    worst = max(rels, default=0.0)
    assert worst <= RTOL, ("max_rel", rels)
    return worst
