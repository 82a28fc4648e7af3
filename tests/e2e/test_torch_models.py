"""Whole PyTorch models (issue 17, item 7), built from their libraries' configs with
random, seeded weights (nothing downloaded), each compiled two ways and compared with
eager PyTorch on the same inputs:

    f = strata.compile(model, example_args=(...), example_kwargs={...})  # torch.export
    g = torch.compile(model, backend="strata")     # Dynamo + AOTAutograd, no fallback

Every output (the flattened leaves of the model's output) must be within 1e-4 of eager
relative to its scale: max|strata - eager| / max|eager| (`max_rel`).
"""
from __future__ import annotations

import os
import warnings

import pytest

torch = pytest.importorskip("torch")

import strata  # noqa: E402
from strata.frontends.torch import dynamo  # noqa: E402

RTOL = 1e-4


def max_rel(got, want) -> float:
    """max|got - want| / max|want| (0 when both are all zeros)."""
    got, want = torch.as_tensor(got).double(), torch.as_tensor(want).double()
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = want.abs().max().item()
    diff = (got - want).abs().max().item()
    return diff / scale if scale else diff


def leaves(out) -> list:
    """The tensors of a model's output (a ModelOutput, tuple or tensor), in order."""
    from torch.utils._pytree import tree_leaves
    if hasattr(out, "to_tuple"):  # transformers' ModelOutput: its non-None fields
        out = out.to_tuple()
    return [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]


def check_both_paths(model, args, kwargs):
    """strata.compile and torch.compile(backend="strata") of `model` against eager."""
    with torch.no_grad():
        want = leaves(model(*args, **kwargs))
        f = strata.compile(model, example_args=args, example_kwargs=kwargs)
        got = f(*args, **kwargs)
        assert len(got) == len(want)
        rel = [max_rel(g, w) for g, w in zip(got, want)]
        assert max(rel) < RTOL, ("strata.compile", rel)
        torch._dynamo.reset()
        dynamo.COUNTERS.clear()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", dynamo.StrataFallbackWarning)
                got = leaves(torch.compile(model, backend="strata")(*args, **kwargs))
        finally:
            torch._dynamo.reset()
        assert len(got) == len(want)
        rel = [max_rel(g, w) for g, w in zip(got, want)]
        assert max(rel) < RTOL, ("torch.compile", rel)
        assert dynamo.COUNTERS["inference"] >= 1 and dynamo.COUNTERS["fallback"] == 0


# ---------------------------------------------------------------- language models
# HF transformers built from configs (BERT-base and GPT-2 at their real sizes, a 4-layer
# Llama), batch 2, sequence 32, the second sequence padded at its end (attention_mask),
# with the attention implementation users get by default ("sdpa") and the plain one
# ("eager"). No KV cache: use_cache=False.

BATCH, SEQ, PAD = 2, 32, 8


def _transformers():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # configs only: nothing to download
    return pytest.importorskip("transformers")


def _text_inputs(vocab):
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, vocab, (BATCH, SEQ), generator=g)
    mask = torch.ones(BATCH, SEQ, dtype=torch.int64)
    mask[1, SEQ - PAD:] = 0
    return (ids,), {"attention_mask": mask}


def bert_base(attn):
    t = _transformers()
    torch.manual_seed(0)
    config = t.BertConfig(attn_implementation=attn)  # the defaults are BERT-base:
    assert (config.num_hidden_layers, config.hidden_size) == (12, 768)  # 110M parameters
    return t.BertModel(config).eval(), config.vocab_size


def gpt2(attn):
    t = _transformers()
    torch.manual_seed(0)
    config = t.GPT2Config(use_cache=False, attn_implementation=attn)  # GPT-2 small, 124M
    assert (config.n_layer, config.n_embd) == (12, 768)
    return t.GPT2LMHeadModel(config).eval(), config.vocab_size


def llama_4_layers(attn):
    t = _transformers()
    torch.manual_seed(0)
    # 4 layers, hidden 256, 8 heads sharing 4 key/value heads (grouped-query attention),
    # SwiGLU MLP of 688, RMSNorm, rotary embeddings; a 4096-token vocabulary
    config = t.LlamaConfig(num_hidden_layers=4, hidden_size=256, intermediate_size=688,
                           num_attention_heads=8, num_key_value_heads=4, vocab_size=4096,
                           max_position_embeddings=512, use_cache=False,
                           attn_implementation=attn)
    return t.LlamaForCausalLM(config).eval(), config.vocab_size


# Every model with "sdpa"; "eager" attention (the same computation written as matmuls,
# a mask added and a softmax, and Llama's key/value heads repeated) on the Llama only,
# to keep CI short: BERT-base and GPT-2 with it pass too (45 s and 65 s here).
@pytest.mark.parametrize("build, attn", [(bert_base, "sdpa"), (gpt2, "sdpa"),
                                         (llama_4_layers, "sdpa"),
                                         (llama_4_layers, "eager")],
                         ids=["bert-base-sdpa", "gpt2-sdpa", "llama-4-layers-sdpa",
                              "llama-4-layers-eager"])
def test_language_model(build, attn):
    model, vocab = build(attn)
    args, kwargs = _text_inputs(vocab)
    check_both_paths(model, args, kwargs)
