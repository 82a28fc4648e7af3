"""PyTorch model builders shared by bench/torch_models.py and tests/e2e/test_torch_models.py.

Each builder returns `(module, example_args)`: an `nn.Module` in eval mode with seeded
random weights (no downloads, nothing read from the network) and a tuple of torch tensors
at batch 1, the benchmark's and the tests' shapes:

    from torch_architectures import BUILDERS
    model, args = BUILDERS["resnet50"]()
    f = strata.compile(model, example_args=args)

Vision models, batch 1, 3x224x224 images, 1000 classes, the logits returned:
  resnet50      ResNet-50: HF transformers' ResNetForImageClassification with a bottleneck
                ResNetConfig (depths 3,4,6,3; stride in the 3x3 conv, 1x1 projection
                shortcuts), the layout of torchvision's resnet50 (25,557,032 parameters)
  mobilenet_v3  MobileNetV3-Large written here from the paper's table (Howard et al. 2019,
                table 1), with torchvision's conventions (squeeze-excitation to a quarter
                of the expansion rounded to 8, BN eps 1e-3, a 1280-wide hardswish head):
                5,483,032 parameters, as torchvision's mobilenet_v3_large
  vit_b16       ViT-B/16 at 224: ViTForImageClassification(ViTConfig()) (86,567,656)
  convnext_t    ConvNeXt-T: ConvNextForImageClassification(ConvNextConfig()), layer norms
                at eps 1e-6 as torchvision's convnext_tiny (28,589,128)

Language models, batch 1, sequence length 128, from transformers configs:
  bert          BERT-base (BertModel, the last hidden state; ids and an all-ones mask)
  gpt2          GPT-2 small (GPT2Model, use_cache=False, the last hidden state)
  llama         a 4-layer Llama (LlamaForCausalLM, hidden 512, 8 heads / 4 kv heads,
                use_cache=False, the logits)

torchvision cannot be imported on this project's machines (its index wheel is a CUDA
build that fails against the CPU torch) and timm imports torchvision, so the vision
models come from `transformers` configs, and MobileNetV3 (which transformers lacks) is
ours; the parameter counts above are torchvision's, checked by the tests.

[Note: non-trivial random weights]
Random weights can hide wrong lowerings: a batch norm at its initial statistics (mean 0,
variance 1, weight 1, bias 0) is an identity a dropped or transposed normalization still
passes, and ConvNeXt's layer scale initialised to 1e-6 turns every block into nearly
the identity, so its body would not reach the output. `_nontrivial` gives every batch
norm seeded statistics and affine parameters, and every layer scale values of order 0.1.
"""
from __future__ import annotations

import os

IMAGE = (1, 3, 224, 224)
SEQ = 128


def _torch():
    import torch
    return torch


def _transformers():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers
    transformers.logging.set_verbosity_error()
    return transformers


def _nontrivial(module, seed=0):
    """Seeded batch-norm statistics and affine parameters, layer scales of order 0.1
    ([Note: non-trivial random weights])."""
    torch = _torch()
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, mod in module.named_modules():
            if isinstance(mod, torch.nn.modules.batchnorm._BatchNorm):
                n = mod.num_features
                mod.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
                mod.running_var.copy_(torch.rand(n, generator=g) + 0.5)
                mod.weight.copy_(1 + 0.1 * torch.randn(n, generator=g))
                mod.bias.copy_(0.1 * torch.randn(n, generator=g))
            scale = getattr(mod, "layer_scale_parameter", None)
            if isinstance(scale, torch.nn.Parameter):
                scale.copy_(0.05 + 0.1 * torch.rand(scale.shape, generator=g))
    return module


def rel_diff(got, want) -> float:
    """max|got - want| / max|want| (in float64) over the first output: how the tests and
    the benchmark compare a compiled model's output with eager's."""
    def first(out):
        return out[0] if isinstance(out, (tuple, list)) else out
    got, want = first(got).double(), first(want).double()
    return float((got - want).abs().max() / want.abs().max())


def _image(seed=1):
    torch = _torch()
    return (torch.randn(IMAGE, generator=torch.Generator().manual_seed(seed)),)


def _logits_of(model):
    """`model` (an HF model returning a ModelOutput) as a module returning one tensor."""
    torch = _torch()

    class Logits(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, mask=None):   # named inputs: dynamic_shapes=({0: n},) works
            out = self.model(x) if mask is None else self.model(x, mask)
            return out.logits if hasattr(out, "logits") else out.last_hidden_state

    return Logits().eval()


# ------------------------------------------------------------------ vision


def resnet50():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.ResNetConfig(num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048],
                          depths=[3, 4, 6, 3], layer_type="bottleneck", hidden_act="relu",
                          downsample_in_first_stage=False, downsample_in_bottleneck=False,
                          num_labels=1000)
    model = _nontrivial(tf.ResNetForImageClassification(cfg))
    return _logits_of(model), _image()


def vit_b16():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.ViTConfig(image_size=224, patch_size=16, hidden_size=768, num_hidden_layers=12,
                       num_attention_heads=12, intermediate_size=3072, layer_norm_eps=1e-6,
                       num_labels=1000)
    return _logits_of(tf.ViTForImageClassification(cfg)), _image()


def convnext_t():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.ConvNextConfig(depths=[3, 3, 9, 3], hidden_sizes=[96, 192, 384, 768],
                            layer_norm_eps=1e-6, num_labels=1000)
    model = _nontrivial(tf.ConvNextForImageClassification(cfg))
    return _logits_of(model), _image()


# MobileNetV3-Large, Howard et al. 2019 ("Searching for MobileNetV3"), table 1: per
# bottleneck, kernel size, expansion width, output width, squeeze-excitation,
# nonlinearity (RE = relu, HS = hardswish), stride.
MOBILENET_V3_LARGE = (
    (3, 16, 16, False, "RE", 1),
    (3, 64, 24, False, "RE", 2),
    (3, 72, 24, False, "RE", 1),
    (5, 72, 40, True, "RE", 2),
    (5, 120, 40, True, "RE", 1),
    (5, 120, 40, True, "RE", 1),
    (3, 240, 80, False, "HS", 2),
    (3, 200, 80, False, "HS", 1),
    (3, 184, 80, False, "HS", 1),
    (3, 184, 80, False, "HS", 1),
    (3, 480, 112, True, "HS", 1),
    (3, 672, 112, True, "HS", 1),
    (5, 672, 160, True, "HS", 2),
    (5, 960, 160, True, "HS", 1),
    (5, 960, 160, True, "HS", 1),
)


def _round8(c):
    """`c` rounded to a multiple of 8, never below 90% of it (the paper's channel rule)."""
    r = max(8, int(c + 4) // 8 * 8)
    return r + 8 if r < 0.9 * c else r


def mobilenet_v3_module(classes=1000, table=MOBILENET_V3_LARGE, last=960, head=1280):
    """MobileNetV3 (Large by default) in torch code: inverted residual bottlenecks
    (1x1 expansion, depthwise kxk, optional squeeze-excitation, 1x1 projection, a residual
    where the stride is 1 and the widths agree), hardswish and hardsigmoid."""
    torch = _torch()
    nn = torch.nn

    def conv_bn(cin, cout, k, stride=1, groups=1, act=None):
        layers = [nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False),
                  nn.BatchNorm2d(cout, eps=1e-3, momentum=0.01)]
        if act is not None:
            layers.append(nn.ReLU() if act == "RE" else nn.Hardswish())
        return nn.Sequential(*layers)

    class SqueezeExcite(nn.Module):
        def __init__(self, c):
            super().__init__()
            mid = _round8(c // 4)
            self.reduce = nn.Conv2d(c, mid, 1)
            self.expand = nn.Conv2d(mid, c, 1)

        def forward(self, x):
            s = torch.nn.functional.adaptive_avg_pool2d(x, 1)
            s = torch.nn.functional.hardsigmoid(self.expand(torch.relu(self.reduce(s))))
            return x * s

    class Bottleneck(nn.Module):
        def __init__(self, cin, k, exp, cout, se, act, stride):
            super().__init__()
            layers = []
            if exp != cin:
                layers.append(conv_bn(cin, exp, 1, act=act))
            layers.append(conv_bn(exp, exp, k, stride, groups=exp, act=act))
            if se:
                layers.append(SqueezeExcite(exp))
            layers.append(conv_bn(exp, cout, 1))
            self.body = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            return x + y if self.residual else y

    class MobileNetV3(nn.Module):
        def __init__(self):
            super().__init__()
            blocks, cin = [conv_bn(3, 16, 3, 2, act="HS")], 16
            for k, exp, cout, se, act, stride in table:
                blocks.append(Bottleneck(cin, k, exp, cout, se, act, stride))
                cin = cout
            blocks.append(conv_bn(cin, last, 1, act="HS"))
            self.features = nn.Sequential(*blocks)
            self.classifier = nn.Sequential(nn.Linear(last, head), nn.Hardswish(),
                                            nn.Dropout(0.2), nn.Linear(head, classes))

        def forward(self, x):
            x = torch.nn.functional.adaptive_avg_pool2d(self.features(x), 1)
            return self.classifier(torch.flatten(x, 1))

    return MobileNetV3()


def mobilenet_v3():
    _torch().manual_seed(0)
    return _nontrivial(mobilenet_v3_module()).eval(), _image()


# ------------------------------------------------------------------ language


def _ids(vocab, seed=1):
    torch = _torch()
    return torch.randint(0, vocab, (1, SEQ), generator=torch.Generator().manual_seed(seed))


def bert():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.BertConfig()  # BERT-base: 12 layers, hidden 768, 12 heads
    ids = _ids(cfg.vocab_size)
    return _logits_of(tf.BertModel(cfg, add_pooling_layer=False)), (
        ids, _torch().ones_like(ids))


def gpt2():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.GPT2Config(use_cache=False)  # GPT-2 small: 12 layers, hidden 768
    return _logits_of(tf.GPT2Model(cfg)), (_ids(cfg.vocab_size),)


def llama():
    tf = _transformers()
    _torch().manual_seed(0)
    cfg = tf.LlamaConfig(vocab_size=32000, hidden_size=512, intermediate_size=1376,
                         num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=4,
                         max_position_embeddings=SEQ, use_cache=False)
    return _logits_of(tf.LlamaForCausalLM(cfg)), (_ids(cfg.vocab_size),)


VISION = {"resnet50": resnet50, "mobilenet_v3": mobilenet_v3, "vit_b16": vit_b16,
          "convnext_t": convnext_t}
LANGUAGE = {"bert": bert, "gpt2": gpt2, "llama": llama}
BUILDERS = {**VISION, **LANGUAGE}
