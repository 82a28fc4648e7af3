"""Benchmark: PyTorch models through Strata against PyTorch eager and Inductor (issue 17).

    python bench/torch_models.py [--models resnet50,mobilenet_v3,vit_b16,convnext_t,bert,
                                  gpt2,llama] [--rounds 5] [--repeat 10] [--threads 2]
                                  [--cold] [--no-inductor] [--omp-wait-policy PASSIVE]

Models (bench/torch_architectures.py: seeded random weights, nothing downloaded), batch 1:
  resnet50, mobilenet_v3, vit_b16, convnext_t   224x224 images (ResNet-50, ViT-B/16 and
      ConvNeXt-T from transformers configs, MobileNetV3-Large in torch code)
  bert, gpt2, llama   sequence length 128: BERT-base, GPT-2 small (no KV cache), a 4-layer
      Llama, from transformers configs

Peers, each at --threads threads (torch.set_num_threads, Strata's num_threads):
  eager      the module itself, under torch.no_grad
  inductor   torch.compile(model) (Inductor, default mode)
  strata-tc  torch.compile(model, backend="strata")
  strata-ep  strata.compile(ExportedProgram) (torch.export.export(model, args) beforehand)

Per model, the compile time of each compiled peer: from the compile call to the end of
the first call of the compiled model, with the kernel caches warm. Strata's kernel
library is built before the first model (kernels.kernel_object, model-independent), and a
tiny model goes through both Strata paths first so no import lands on a model's time.
Inductor's model is compiled once untimed first, which fills its on-disk cache of compiled
C++ kernels; then Dynamo is reset and the timed compile runs with Inductor's FX-graph and
AOTAutograd caches off (on, they would return the whole compiled graph from the first
compile: not a compile). --cold skips Inductor's untimed compile. Likewise strata-ep
and strata-tc compile with Strata's compiled-model cache off (`cache=False`, for
strata-tc the backend option "cache"; the kernel cache stays): a second run of the
benchmark would otherwise load the models compiled by the first. strata-tc's inference
graphs are rewritten from Dynamo's graph to ATen ops (the seven models' graphs all are;
else traced by make_fx), not traced by AOTAutograd ([Note: inference graphs exported,
not traced by AOTAutograd] and [Note: the pre-dispatch trace] in
strata/frontends/torch/dynamo.py, [Note: rewriting Dynamo's graph] in dynamo_graph.py).
Where that compile time goes, stage by stage, in process CPU:
bench/torch_compile_stages.py.

[Note: each compile on a collected heap]
Each timed compile starts right after an untimed gc.collect(). Without it, the garbage
of the compile before (Inductor's: its untimed and timed compiles leave hundreds of
thousands of objects) was collected by a full collection inside whichever compile came
next: measured in one process, torch.compile(backend="strata")'s GPT-2 first call took
3.3 s after Inductor's compile against 2.3-2.7 s when run first (a profile showed a
full collection of 0.5 s, 173k objects, landing in Dynamo's trace). A user's first
compile pays no other compiler's garbage; each peer is timed the same way.

Then the median latency in ms of each peer over at least --repeat calls and half a second
of calls, timed in --rounds interleaved rounds (bench/models.py's interleaved_medians_ms:
each peer in turn, so the slow phases of a shared machine fall on all of them, another
peer's threads still spinning waited out before each: [Note: peers' threads between
peers] there); the ratios
of strata-ep and strata-tc to inductor and to eager; and the largest relative difference
of each compiled peer's output from eager's, max|a - b| / max|b|. A peer that fails (an
Inductor that cannot build its C++ on this machine, say) shows its error under the table
and "-" in its cells; the others go on. Recompiles during the timing are an error
(torch._dynamo.config.error_on_recompile), so no peer is timed recompiling or falling
back to eager unnoticed.

[Note: OpenMP waiting on a shared machine]
Eager PyTorch and Inductor's C++ run their parallel loops on libgomp, whose threads spin
at the end of each loop (OMP_WAIT_POLICY unset: active for a while). With more runnable
threads than cores (this project's machine: 2 cores, load ~10) a spinning thread holds the
core the one it waits for needs, for a scheduler slice per op: eager MobileNetV3 at 2
threads took 3.3-5.8 s a call, 69 ms at 1 thread, 25 ms at 2 threads with
OMP_WAIT_POLICY=PASSIVE. So the benchmark sets OMP_WAIT_POLICY=PASSIVE before torch is
imported (--omp-wait-policy; "unset" leaves libgomp's default, the right choice on an
idle machine); an OMP_WAIT_POLICY in the environment wins. Strata's pool spins briefly
then sleeps (strata/backends/cpu/threadpool.py) and needs no setting.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from models import interleaved_medians_ms  # noqa: E402
from torch_architectures import BUILDERS, rel_diff  # noqa: E402

PEERS = ("eager", "inductor", "strata-tc", "strata-ep")
COMPILED = PEERS[1:]


def _timed_first_call(make, args):
    """(compiled callable, seconds from `make()` to the end of its first call on `args`).
    The heap is collected first, untimed: [Note: each compile on a collected heap]."""
    gc.collect()
    t = time.perf_counter()
    fn = make()
    fn(*args)
    return fn, time.perf_counter() - t


def warm_strata(torch, threads):
    """Build (or read) Strata's kernel library and take the imports of both Strata paths
    on a tiny model, so that no model's compile time holds them."""
    import strata
    from strata.backends.cpu.kernels import kernel_object
    kernel_object()
    m, x = torch.nn.Linear(4, 3).eval(), torch.randn(2, 4)
    strata.compile(m, example_args=(x,), num_threads=threads)(x)
    torch._dynamo.reset()
    torch.compile(m, backend="strata", options={"num_threads": threads,
                                                 "fallback": False})(x)
    torch._dynamo.reset()


def bench_model(torch, name, args_ns, errors):
    import strata
    model, args = BUILDERS[name]()
    threads = args_ns.threads
    row = {"model": name}
    with torch.no_grad():
        want = model(*args)
        fns = {"eager": lambda: model(*args)}

        def attempt(peer, make):
            try:
                fn, row[f"{peer} s"] = _timed_first_call(make, args)
                row[f"{peer} diff"] = rel_diff(fn(*args), want)
                fns[peer] = lambda: fn(*args)
            except Exception as e:   # a peer's failure is a table entry, not the end
                msg = str(e).strip().splitlines()
                errors.append(f"{name} {peer}: {type(e).__name__}: "
                              f"{msg[0][:300] if msg else ''}")

        torch._dynamo.reset()
        if not args_ns.no_inductor:
            if not args_ns.cold:
                try:
                    torch.compile(model)(*args)   # fills Inductor's compiled-kernel cache
                except Exception:
                    pass                         # the timed compile reports it
                torch._dynamo.reset()
            with _InductorGraphCachesOff():
                attempt("inductor", lambda: torch.compile(model))
        attempt("strata-tc", lambda: torch.compile(
            model, backend="strata", options={"num_threads": threads, "fallback": False,
                                              "cache": False}))
        ep = torch.export.export(model, args)
        attempt("strata-ep", lambda: strata.compile(ep, num_threads=threads, cache=False))
        torch._dynamo.config.error_on_recompile = True
        try:
            row.update({k + " ms": v for k, v in interleaved_medians_ms(
                fns, args_ns.repeat, args_ns.rounds).items()})
        finally:
            torch._dynamo.config.error_on_recompile = False
    torch._dynamo.reset()
    return row


class _InductorGraphCachesOff:
    """Inductor's FX-graph cache and AOTAutograd's cache off (its kernel cache stays)."""

    def __init__(self):
        import torch._functorch.config as fc
        import torch._inductor.config as ic
        self.saved = [(ic, "fx_graph_cache"), (fc, "enable_autograd_cache")]

    def __enter__(self):
        self.values = [getattr(m, k) for m, k in self.saved]
        for m, k in self.saved:
            setattr(m, k, False)

    def __exit__(self, *exc):
        for (m, k), v in zip(self.saved, self.values):
            setattr(m, k, v)


def print_tables(rows, errors, args_ns, out=sys.stdout):
    def cell(r, k, fmt, width):
        return format(r[k], fmt).rjust(width) if k in r else "-".rjust(width)

    def ratio(r, a, b):
        return (f"{r[a + ' ms'] / r[b + ' ms']:6.2f}" if a + " ms" in r and b + " ms" in r
                else "     -")
    print(f"\nmedian latency, ms (batch 1, {args_ns.threads} threads, {args_ns.repeat}+ calls "
          f"in {args_ns.rounds} interleaved rounds, OMP_WAIT_POLICY="
          f"{os.environ.get('OMP_WAIT_POLICY', 'unset')})\n", file=out)
    print(f"{'model':<13}" + "".join(f"{p:>11}" for p in PEERS)
          + f"{'ep/ind':>7}{'ep/eag':>7}{'tc/ind':>7}{'tc/eag':>7}", file=out)
    for r in rows:
        print(f"{r['model']:<13}" + "".join(cell(r, p + " ms", "11.2f", 11) for p in PEERS)
              + " " + " ".join((ratio(r, "strata-ep", "inductor"), ratio(r, "strata-ep", "eager"),
                               ratio(r, "strata-tc", "inductor"), ratio(r, "strata-tc", "eager"))),
              file=out)
    print("\ncompile s (to the end of the first call, kernel caches warm) and max|a-b|/max|b| "
          "against eager\n", file=out)
    print(f"{'model':<13}" + "".join(f"{p + ' s':>13}" for p in COMPILED) + f"{'ep/ind':>7}"
          + f"{'tc/ind':>7}" + "".join(f"{p + ' diff':>16}" for p in COMPILED), file=out)

    def compile_ratio(r, peer):
        return (f"{r[peer + ' s'] / r['inductor s']:7.2f}"
                if peer + " s" in r and "inductor s" in r else "      -")
    for r in rows:
        print(f"{r['model']:<13}" + "".join(cell(r, p + " s", "13.2f", 13) for p in COMPILED)
              + compile_ratio(r, "strata-ep") + compile_ratio(r, "strata-tc")
              + "".join(cell(r, p + " diff", "16.2e", 16) for p in COMPILED), file=out)
    if errors:
        print("\nerrors:", file=out)
        for e in errors:
            print("  " + e, file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=",".join(BUILDERS))
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the timing")
    ap.add_argument("--repeat", type=int, default=10, help="calls per peer, at least")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cold", action="store_true",
                    help="no untimed Inductor compile before the timed one")
    ap.add_argument("--no-inductor", action="store_true")
    ap.add_argument("--omp-wait-policy", default="PASSIVE",
                    help="OMP_WAIT_POLICY for torch's libgomp, set before torch is imported "
                         "unless the environment has one ('unset': libgomp's default); see "
                         "[Note: OpenMP waiting on a shared machine]")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    names = args.models.split(",")
    unknown = [n for n in names if n not in BUILDERS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(BUILDERS)}")
    warnings.simplefilter("ignore")
    if args.omp_wait_policy != "unset":
        if "torch" in sys.modules:
            ap.error("--omp-wait-policy must be set before torch is imported")
        os.environ.setdefault("OMP_WAIT_POLICY", args.omp_wait_policy)
    import torch
    torch.set_num_threads(args.threads)
    warm_strata(torch, args.threads)
    rows, errors = [], []
    for name in names:
        rows.append(bench_model(torch, name, args, errors))
        print(f"  {name}: done", file=sys.stderr, flush=True)
    print_tables(rows, errors, args)


if __name__ == "__main__":
    main()
