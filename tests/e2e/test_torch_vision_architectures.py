"""HF `transformers` vision and audio architectures (issue 17, item 7: breadth), built
from small configs with random, seeded weights (nothing downloaded), compiled through
strata.compile (torch.export, "export") and torch.compile with the strata backend
(Dynamo + AOTAutograd, no eager fallback, "dynamo"), every output within 1e-4 relative
of eager and with eager's structure (tests/e2e/torch_breadth_cases.py's `check`).

The builders (torch_breadth_cases.VISION) cover ViT, DeiT (with its distillation head),
BEiT (relative position bias), DINOv2, Swin and Swinv2 (shifted windows), ConvNeXt and
ConvNeXtV2, ResNet (bottleneck and basic), RegNet, MobileNetV1/V2 (and V2's DeepLab
segmentation head), EfficientNet, MobileViT, LeViT, PoolFormer, Segformer, DPT, CLIP's
vision and text towers, Whisper (encoder alone, and encoder-decoder given decoder ids),
Wav2Vec2 (CTC head), HuBERT and the Audio Spectrogram Transformer. Each compile of these
small models takes a few seconds, so CI runs a cheap set chosen for op coverage the
models of tests/e2e/test_torch_models.py do not have (shifted windows and relative
position tables, bilinear upsampling heads, an encoder-decoder with cross-attention,
1-d convolution feature extractors with group norm and weight norm); the table of all
of them through both paths is printed by

    PYTHONPATH=$PWD python tests/e2e/torch_breadth_runner.py --set vision

and `STRATA_TEST_ALL_MODELS=1` runs them all here.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_breadth_cases as C  # noqa: E402

CASES = [("swin", "export"), ("segformer", "dynamo"), ("whisper", "export"),
         ("wav2vec2", "dynamo"), ("clip_text", "export")]
if os.environ.get("STRATA_TEST_ALL_MODELS"):
    CASES = [(n, p) for n in C.VISION for p in ("export", "dynamo")]


@pytest.mark.parametrize("name, path", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_architecture(name, path):
    model, args, kwargs = C.VISION[name]()
    assert C.check(model, args, kwargs, path) <= C.RTOL
