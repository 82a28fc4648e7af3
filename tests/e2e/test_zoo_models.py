"""Small versions of bench/zoo.py's architectures, compiled for the CPU and compared with
PyTorch eager and onnxruntime.

Each model is built with seeded random weights (HF `transformers` configs shrunk to a few
channels and blocks, or bench/zoo_architectures.py), exported by `torch.onnx.export`
(TorchScript exporter, opset 18, the batch dim dynamic, as the zoo's users export), and
compiled by `strata.compile(path)`; its output must be within 1e-4 of onnxruntime's
and of eager's, relative to the output's largest magnitude (the zoo's accuracy target):

    window attention with shifted windows and padded windows (Swin), a hybrid CNN/transformer
    with unfold/fold patch reshapes (MobileViT), depthwise convolutions with
    squeeze-excitation and SiLU (EfficientNet), grouped convolutions with
    squeeze-excitation (RegNet-Y), dense concatenations (DenseNet), 1-D convolutions with
    a stride-2 frame reduction and long sequences (a Whisper encoder), overlapping patch
    embeddings, reduced-key attention and bilinear upsampling (Segformer).

The full-size zoo (`python bench/zoo.py --compile-only`) is a benchmark, not a test.
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import warnings

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch", reason="torch exports the models to ONNX")
transformers = pytest.importorskip("transformers")

import strata  # noqa: E402

os.environ.setdefault("HF_HUB_OFFLINE", "1")
TOLERANCE = 1e-4
_BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench"


def _zoo_architectures():
    spec = importlib.util.spec_from_file_location("zoo_architectures",
                                                  _BENCH / "zoo_architectures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _First(torch.nn.Module):
    """An HF model's first output (logits or last hidden state) from keyword inputs."""

    def __init__(self, model, names):
        super().__init__()
        self.model, self.names = model, names

    def forward(self, *args):
        return self.model(**dict(zip(self.names, args)), return_dict=False)[0]


def _hf(cls, config, name="pixel_values", **params):
    torch.manual_seed(0)
    model = getattr(transformers, cls)(getattr(transformers, config)(**params))
    return _First(_zoo_architectures().randomize_batch_norms(torch, model), [name])


def _swin():
    # 56 / 4 = 14 patches: windows of 4 need padding to 16 (then cropped back: the
    # dynamic crop that was miscompiled), the second block's windows shifted
    return _hf("SwinModel", "SwinConfig", image_size=56, patch_size=4, embed_dim=16,
               depths=[2, 2], num_heads=[2, 4], window_size=4), (3, 56, 56)


def _mobilevit():
    return _hf("MobileViTForImageClassification", "MobileViTConfig", image_size=64,
               hidden_sizes=[24, 32, 40], neck_hidden_sizes=[8, 16, 16, 24, 24, 32, 64],
               num_attention_heads=2, num_labels=10), (3, 64, 64)


def _efficientnet():
    return _hf("EfficientNetForImageClassification", "EfficientNetConfig",
               width_coefficient=0.25, depth_coefficient=0.3, image_size=64, hidden_dim=320,
               num_labels=10), (3, 64, 64)


def _regnet():
    return _hf("RegNetForImageClassification", "RegNetConfig", layer_type="y",
               embedding_size=16, depths=[1, 2], hidden_sizes=[16, 32], groups_width=8,
               num_labels=10), (3, 64, 64)


def _densenet():
    torch.manual_seed(0)
    return _zoo_architectures().densenet(torch, growth=8, blocks=(2, 2), init=16,
                                         classes=10), (3, 32, 32)


def _whisper():
    torch.manual_seed(0)
    from transformers.models.whisper.modeling_whisper import WhisperEncoder
    cfg = transformers.WhisperConfig(d_model=32, encoder_layers=2, encoder_attention_heads=4,
                                     encoder_ffn_dim=64, num_mel_bins=8,
                                     max_source_positions=300)
    return _First(WhisperEncoder(cfg).eval(), ["input_features"]), (8, 600)


def _segformer():
    return _hf("SegformerForSemanticSegmentation", "SegformerConfig", num_encoder_blocks=2,
               depths=[1, 1], sr_ratios=[4, 2], hidden_sizes=[16, 32], patch_sizes=[7, 3],
               strides=[4, 2], num_attention_heads=[1, 2], mlp_ratios=[2, 2],
               decoder_hidden_size=32, num_labels=5), (3, 64, 64)


MODELS = {"swin": _swin, "mobilevit": _mobilevit,
          "efficientnet": _efficientnet, "regnet_y": _regnet, "densenet": _densenet,
          "whisper_encoder": _whisper, "segformer": _segformer}


def _relative(y, ref):
    assert y.shape == ref.shape, (y.shape, ref.shape)
    assert np.all(np.isfinite(y))
    return float(np.max(np.abs(y.astype(np.float64) - ref))) / float(np.max(np.abs(ref)))


def test_reshape_of_a_slice_of_dynamic_dims():
    """Swin's window un-partition with a dynamic batch (the swin case below): the padded
    feature map [N, H, W, C] cropped by two Slices to [N, 14, 14, C] (sizes min(14, H),
    dynamic) and reshaped to [N, 196, C]. The crop is a strided view; collapsing it in
    place read the wrong elements (one-shot-bufferize must copy a view whose strides do
    not prove the collapsed dims contiguous)."""
    from onnx import TensorProto, helper
    ints = lambda name, v: helper.make_tensor(name, TensorProto.INT64, [len(v)], v)  # noqa: E731
    nodes = [helper.make_node("Slice", ["x", "zero", "end", "w"], ["t"], name="Slice_1"),
             helper.make_node("Slice", ["t", "zero", "end", "h"], ["u"], name="Slice_2"),
             helper.make_node("Reshape", ["u", "shape"], ["y"], name="Reshape_9")]
    graph = helper.make_graph(
        nodes, "crop", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                      ["N", "H", "W", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [ints("zero", [0]), ints("end", [14]), ints("w", [2]), ints("h", [1]),
         ints("shape", [-1, 196, 4])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 9
    f = strata.compile(m)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in ((1, 16, 16, 4), (2, 15, 14, 4)):
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(f(x)[0], sess.run(None, {"x": x})[0])


@pytest.mark.parametrize("name", list(MODELS))
def test_zoo_model_matches_eager_and_onnxruntime(name, tmp_path):
    module, shape = MODELS[name]()
    module.eval()
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((1, *shape)).astype(np.float32)
    path = str(tmp_path / f"{name}.onnx")
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, (torch.from_numpy(x1),), path, input_names=["x"],
                          output_names=["y"], dynamic_axes={"x": {0: "batch"}},
                          opset_version=18, dynamo=False)
    f = strata.compile(path, num_threads=2)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for batch in (1, 2):
        x = x1 if batch == 1 else rng.standard_normal((batch, *shape)).astype(np.float32)
        with torch.no_grad():
            eager = module(torch.from_numpy(x)).numpy()
        y = f(x)[0]
        assert _relative(y, sess.run(None, {"x": x})[0]) <= TOLERANCE, (name, batch, "ort")
        assert _relative(y, eager) <= TOLERANCE, (name, batch, "eager")
