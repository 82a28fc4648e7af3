"""torch.nn building blocks users put in models (issue 17, item 7: breadth), compiled
through strata.compile (torch.export, "export") and torch.compile with the strata
backend (Dynamo + AOTAutograd, no eager fallback, "dynamo"), outputs within 1e-4
relative of eager (tests/e2e/torch_breadth_cases.py's `check`).

The cases here are the ones that failed before the fixes they come with (and a few
neighbours), one compile each: structured inputs (an LSTM's (h, c), a dict of a list),
a Python scalar torch.export specialized, x[bool mask] (a run-time size),
nn.EmbeddingBag, adaptive max pooling, nn.TransformerEncoderLayer's fast path with a
padding mask under torch.compile. The whole table of blocks (recurrent layers,
attention, interpolation modes, convolutions, pooling, indexing, dtypes, ...) through
both paths is printed by

    PYTHONPATH=$PWD python tests/e2e/torch_breadth_runner.py --set nn

`STRATA_TEST_ALL_MODELS=1` runs every case of torch_breadth_cases.NN here, both paths.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_breadth_cases as C  # noqa: E402

import strata  # noqa: E402
from strata.errors import StrataError  # noqa: E402

CASES = [
    ("lstm_with_state", "export"),           # a tuple input (h, c)
    ("dict_list_input", "export"),           # a dict of a tensor and a list
    ("bool_mask_index", "export"),           # x[x > 0]: a run-time number of elements
    ("bool_mask_index", "dynamo"),
    ("embedding_bag_mean", "export"),        # aten._embedding_bag, every mode, both paths
    ("embedding_bag_mean", "dynamo"),
    ("embedding_bag_max", "export"),
    ("embedding_bag_max", "dynamo"),
    ("embedding_bag_sum_weights", "export"),  # per_sample_weights, include_last_offset,
    ("embedding_bag_sum_weights", "dynamo"),  # padding_idx
    ("adaptive_max_pool2d", "export"),       # aten.adaptive_max_pool2d
    ("adaptive_max_pool2d", "dynamo"),
    ("transformer_encoder_masked", "dynamo"),  # the fast path with a padding mask
    ("mha_masks", "export"),
    ("fold", "export"),
]
if os.environ.get("STRATA_TEST_ALL_MODELS"):
    CASES = [(n, p) for n in C.NN for p in ("export", "dynamo")]


@pytest.mark.parametrize("name, path", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_nn_block(name, path):
    if (name, path) in KNOWN_LIMITS:
        pytest.skip(KNOWN_LIMITS[name, path])
    model, args, kwargs = C.NN[name]()
    assert C.check(model, args, kwargs, path) <= C.RTOL


# What torch itself does not give a compiler (the runner's table shows them too):
# torch.export cannot export nn.TransformerDecoder called with a tgt_mask (it compares
# the mask with a causal one and branches on the result: data-dependent), and Dynamo
# runs nn.LSTM / GRU / RNN eagerly (torch._dynamo.config.allow_rnn is off), handing a
# backend no graph.
KNOWN_LIMITS = {
    ("transformer_decoder", "export"): "torch.export: data-dependent branch on tgt_mask",
    **{(n, "dynamo"): "Dynamo runs recurrent layers eagerly (allow_rnn is off)"
       for n in ("lstm_2layer_bidir", "lstm_seq_first", "lstm_with_state",
                 "gru_2layer_bidir", "rnn_tanh", "rnn_relu_bidir")},
}


def test_unexportable_module_gives_torchs_message():
    # nn.TransformerDecoder with a tgt_mask: torch.export's own failure, prefixed by
    # what Strata was doing (issue 17, "Bad input")
    model, args, kwargs = C.NN["transformer_decoder"]()
    with pytest.raises(StrataError, match="torch.export.export failed: .*data-dependent"):
        strata.compile(model, example_args=args)


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_fully_padded_sequence(norm_first):
    """A sequence whose key_padding_mask masks every position: each path does what
    eager does for the ops it traces. Under torch.compile, eval mode and no_grad take
    nn.TransformerEncoderLayer's fast path, aten._transformer_encoder_layer_fwd, whose
    masked softmax gives NaN for a row masked whole (ATen's _masked_softmax), so that
    sequence is NaN everywhere, as eager's (Strata's decomposition of the op, dynamo.py's
    _encoder_layer, zeroed such rows before); torch.export traces the slow path
    (scaled_dot_product_attention, whose math form gives such a row zero weights):
    finite, as eager's. The other sequence agrees with eager on both paths."""
    from strata.frontends.torch import dynamo
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True,
                                             norm_first=norm_first).eval()
    x = torch.randn(2, 4, 8)
    mask = torch.tensor([[False, False, True, True], [True, True, True, True]])
    model = C._Wrap(lambda s, x, p: s.layer(x, src_key_padding_mask=p), layer=layer).eval()
    with torch.no_grad():
        fast = model(x, mask)
        assert fast[1].isnan().all() and not fast[0].isnan().any()   # eager's fast path
        torch._dynamo.reset()
        try:
            got = torch.compile(model, backend=lambda gm, ex: dynamo.strata_backend(
                gm, ex, options={"fallback": False}))(x, mask)
        finally:
            torch._dynamo.reset()
        assert got[1].isnan().all()
        torch.testing.assert_close(got[0], fast[0], atol=1e-5, rtol=1e-5)
        ep = torch.export.export(model, (x, mask))
        slow = ep.module()(x, mask)
        assert not slow.isnan().any()
        torch.testing.assert_close(torch.as_tensor(strata.compile(ep)(x, mask)), slow,
                                   atol=1e-5, rtol=1e-5)
