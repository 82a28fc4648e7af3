"""convert-onnx-to-linalg, recurrent family (RNN, GRU, LSTM): what the node tests leave
out — sequence_lens shorter than the sequence (forward, reverse, bidirectional), initial
states, clip, peepholes, input_forget, linear_before_reset, activations with alpha and
beta, batch-first layout — against onnxruntime (layout 1 through the transposed
layout-0 model, which onnxruntime supports)."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, I32, expected, model, rand

import strata

_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _run(op, attrs, seq=4, batch=3, inp=2, hidden=3, dirs=1, lens=None, init=False,
         peep=False, layout=0):
    g = _GATES[op]
    x = rand(*((seq, batch, inp) if not layout else (batch, seq, inp)))
    feeds = [("X", x), ("W", rand(dirs, g * hidden, inp, seed=1)),
             ("R", rand(dirs, g * hidden, hidden, seed=2)),
             ("B", rand(dirs, 2 * g * hidden, seed=3)),
             ("L", None if lens is None else np.array(lens, np.int32))]
    shp = (dirs, batch, hidden) if not layout else (batch, dirs, hidden)
    feeds.append(("H0", rand(*shp, seed=4) if init else None))
    if op == "LSTM":
        feeds.append(("C0", rand(*shp, seed=5) if init else None))
        feeds.append(("P", rand(dirs, 3 * hidden, seed=6) if peep else None))
    while feeds[-1][1] is None:
        feeds.pop()
    outs = ["Y", "Yh"] + (["Yc"] if op == "LSTM" else [])

    def make(lay, vals):
        ins = [None if v is None else (n, I32 if n == "L" else F, list(v.shape))
               for n, v in vals]
        return model(op, ins, [(o, F, None) for o in outs], opset=14, hidden_size=hidden,
                     **(dict(attrs, layout=1) if lay else attrs))
    args = [v for _, v in feeds if v is not None]
    got = strata.compile(make(layout, feeds), target="interpret")(*args)
    if layout:  # onnxruntime has no batch-first layout: transpose around layout 0
        t = [(n, None if v is None else (v.transpose(1, 0, 2) if n in ("X", "H0", "C0")
                                         else v)) for n, v in feeds]
        want = expected(make(0, t), [v for _, v in t if v is not None])
        want = [want[0].transpose(2, 0, 1, 3)] + [w.transpose(1, 0, 2) for w in want[1:]]
    else:
        want = expected(make(0, feeds), args)
    for gv, w in zip(got, want):
        np.testing.assert_allclose(gv, w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("case", [
    dict(attrs=dict(direction="bidirectional"), dirs=2, init=True),
    dict(attrs=dict(direction="reverse"), lens=[4, 2, 1]),
    dict(attrs=dict(direction="bidirectional"), dirs=2, lens=[3, 4, 1], init=True),
    dict(attrs={}, layout=1, init=True),
    dict(attrs=dict(clip=0.5)),
])
def test_recurrent(op, case):
    _run(op, **case)


@pytest.mark.parametrize("op,attrs,kw", [
    ("GRU", dict(linear_before_reset=1), {}),
    ("GRU", dict(linear_before_reset=1, direction="bidirectional"), dict(dirs=2,
                                                                       lens=[1, 4, 2])),
    ("LSTM", {}, dict(peep=True, init=True)),
    ("LSTM", dict(input_forget=1), {}),
    ("RNN", dict(activations=["Relu"]), {}),
    ("RNN", dict(activations=["LeakyRelu", "HardSigmoid"], activation_alpha=[0.2, 0.3],
                 activation_beta=[0.4], direction="bidirectional"), dict(dirs=2)),
    ("GRU", dict(activations=["HardSigmoid", "Softsign"], activation_alpha=[0.3],
                 activation_beta=[0.6]), {}),
    ("LSTM", dict(activations=["Sigmoid", "Elu", "ScaledTanh"], activation_alpha=[0.5, 0.7],
                  activation_beta=[1.5]), {}),
])
def test_recurrent_variants(op, attrs, kw):
    _run(op, attrs, **kw)
