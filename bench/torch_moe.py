"""A mixture-of-experts layer (transformers' Mixtral sparse block with its default
"grouped_mm" experts) and an antialiased resampling's training step, eager against
Strata, in process CPU milliseconds per call (time.process_time: the machine's load
does not count, every thread's time does).

    PYTHONPATH=$PWD python bench/torch_moe.py [--tokens 128] [--hidden 256]
                                              [--experts 8] [--calls 10]

moe       strata.compile of the block (float32: the traced graph calls transformers'
          `grouped_mm_fallback`, lowered in strata/conversion/torch_to_linalg/
          grouped_mm.py: a matmul per expert of its rows) against eager (ATen's
          `_grouped_mm`); the first figure is the compile, in CPU seconds
grouped   the grouped product alone (transformers' grouped_mm_fallback: the block's
          tokens x 2 rows split evenly over the experts, by (experts, hidden,
          4 x hidden) weights) against transformers' eager loop over the experts
aa-train  one step (forward, backward) of a position embedding (1, 384, 14, 14)
          resampled to 24x24 by F.interpolate(bicubic, antialias=True) under
          torch.compile(backend=strata) against eager: the backward is
          `_upsample_bicubic2d_aa_backward` (resize.resample_adjoint)

Figures of 2026-11-30 (2-core machine shared with other jobs, load ~7; torch with one
thread; --calls 50, two runs): moe, 128 tokens, hidden 256, 8 experts: compile 1.0 s,
eager 3.5-3.8 ms, Strata 6.1 ms per call (it was 173 ms when each row's expert was read
per element instead of a matmul per expert); grouped: eager loop 1.75 ms, Strata
1.4-1.5 ms, so most of the block's time is its routing (top-k, sort, gathers, the
inverse permutation's index_put), not the experts' products; aa-train: eager 2.8 ms,
Strata 1.8 ms per step. (With torch's default threads on the loaded machine, eager's
CPU time is inflated by its threads' spinning: 104 ms for aa-train.)
"""
from __future__ import annotations

import argparse
import os
import time


def _per_call(fn, calls):
    fn()
    t0 = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - t0) * 1000 / calls


def moe(tokens, hidden, experts, calls):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    import transformers
    from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock

    import strata
    torch.manual_seed(0)
    config = transformers.MixtralConfig(hidden_size=hidden, intermediate_size=2 * hidden,
                                        num_local_experts=experts, num_experts_per_tok=2,
                                        experts_implementation="grouped_mm")
    m = MixtralSparseMoeBlock(config)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn(p.shape) * 0.05)
    m.eval()
    x = torch.randn(1, tokens, hidden)
    t0 = time.process_time()
    f = strata.compile(m, example_args=(x,), cache=False)
    compile_s = time.process_time() - t0
    with torch.no_grad():
        diff = (f(x) - m(x)).abs().max().item()
        eager = _per_call(lambda: m(x), calls)
    ours = _per_call(lambda: f(x), calls)
    print(f"moe: compile {compile_s:.2f} s CPU; eager {eager:.2f} ms, strata {ours:.2f} ms "
          f"per call (max diff {diff:.1e})")


def grouped(tokens, hidden, experts, calls):
    import torch
    import transformers.integrations.moe  # noqa: F401  (registers the op)

    import strata

    class Fallback(torch.nn.Module):
        def forward(self, x, w, offs):
            return torch.ops.transformers.grouped_mm_fallback(x, w, offs)
    rows = 2 * tokens
    x, w = torch.randn(rows, hidden), torch.randn(experts, hidden, 4 * hidden)
    offs = torch.linspace(rows / experts, rows, experts).round().to(torch.int32)
    f = strata.compile(Fallback(), example_args=(x, w, offs), cache=False)
    eager = _per_call(lambda: Fallback()(x, w, offs), calls)
    ours = _per_call(lambda: f(x, w, offs), calls)
    print(f"grouped: eager loop {eager:.2f} ms, strata {ours:.2f} ms per call")


def aa_train(calls):
    import torch
    import torch.nn.functional as F

    from strata.frontends.torch import dynamo

    class PosEmbed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.pos = torch.nn.Parameter(torch.randn(1, 384, 14, 14))

        def forward(self, x):
            p = F.interpolate(self.pos, size=(24, 24), mode="bicubic", antialias=True)
            return (x + p).square().sum()
    torch.manual_seed(0)
    m = PosEmbed()
    x = torch.randn(2, 384, 24, 24)
    torch._dynamo.reset()
    f = torch.compile(m, backend=dynamo.strata_backend, options={"fallback": False})
    eager = _per_call(lambda: m(x).backward(), calls)
    ours = _per_call(lambda: f(x).backward(), calls)
    print(f"aa-train: eager {eager:.2f} ms, strata {ours:.2f} ms per step")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--experts", type=int, default=8)
    ap.add_argument("--calls", type=int, default=10)
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    moe(a.tokens, a.hidden, a.experts, a.calls)
    grouped(a.tokens, a.hidden, a.experts, a.calls)
    aa_train(a.calls)


if __name__ == "__main__":
    main()
