"""Benchmark: does a compiled model run slower when it is not the first model of its
process (issue 18: measurement trust)?

    python bench/one_process.py [--model resnet18] [--others deit_s,mobilenet_v2]
                                [--peers ort,openvino,torch] [--threads 2] [--rounds 6]
                                [--repeat 12]

In one process, as bench/zoo.py and a user with several models run:
  1. model A (a bench/zoo.py model, its cached ONNX export) is compiled by Strata first
     in the process, and an onnxruntime session of it made; both timed ("before").
  2. each model of --others is compiled by Strata and run, and each peer of --peers
     (onnxruntime, OpenVINO, PyTorch's own thread pool through a matrix product) is
     made and run on it, as zoo.py's rounds do; then dropped.
  3. A is compiled again (a fresh compile, the compiled-model cache off).
  4. the first compile of A, the later one and onnxruntime's A are timed again
     ("after"), in interleaved rounds as every bench here (bench/models.py), each
     block preceded by `settle` ([Note: peers' threads between peers]).

Per row: the median ms; the CPU per call of Strata's threads (the calling thread and its
pool's workers) or of the peer's; the CPU per call of the process's other threads during
those calls (threads a peer left spinning); minor page faults per call; the ratio to
onnxruntime's A timed in the same rounds (a machine's slow phases cancel). Reading:
`A first` before vs after is what the process's history (the other models, the peers'
thread pools, the heap) costs a model; `A first` vs `A later` after, in the same rounds,
is what a later compile costs (weights' and buffers' placement, code); the CPU columns
tell a loaded machine's waiting (wall) from work (CPU). Linux only (/proc/self/task).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(_HERE, ".."))
from models import settle  # noqa: E402
import zoo  # noqa: E402


def thread_cpu_ns() -> dict:
    """{thread id: CPU ns used so far} of this process's threads."""
    out = {}
    for t in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{t}/schedstat") as f:
                out[int(t)] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


class Timer:
    """Times callables in blocks; each thread's CPU is charged to its owner's threads
    (`own`, a set of ids, the calling thread always among them) or to the others."""

    def __init__(self):
        self.rows = {}

    def block(self, name, fn, own, calls):
        row = self.rows.setdefault(name, {"ms": [], "cpu": [], "other": [], "faults": []})
        fn()
        own = set(own) | {threading.get_native_id()}
        c0, f0 = thread_cpu_ns(), resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(calls):
            t = time.perf_counter()
            fn()
            row["ms"].append((time.perf_counter() - t) * 1e3)
        c1, f1 = thread_cpu_ns(), resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        mine = sum(v - c0.get(t, 0) for t, v in c1.items() if t in own)
        other = sum(v - c0.get(t, 0) for t, v in c1.items() if t not in own)
        row["cpu"].append(mine / calls / 1e6)
        row["other"].append(other / calls / 1e6)
        row["faults"].append((f1 - f0) / calls)

    def rounds(self, fns, rounds, calls):
        for _ in range(rounds):
            for name, (fn, own) in fns.items():
                settle()
                self.block(name, fn, own, calls)

    def report(self, ref):
        print(f"\n{'':<20} {'ms':>9} {'cpu ms':>8} {'other':>7} {'faults':>7} {'/ort':>6}")
        for name, r in self.rows.items():
            ms = statistics.median(r["ms"])
            base = self.rows.get(ref(name))
            ratio = f"{ms / statistics.median(base['ms']):6.2f}" if base else ""
            print(f"{name:<20} {ms:9.3f} {statistics.median(r['cpu']):8.3f} "
                  f"{statistics.median(r['other']):7.3f} "
                  f"{statistics.median(r['faults']):7.1f} {ratio}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--others", default="deit_s,mobilenet_v2")
    ap.add_argument("--peers", default="ort,openvino,torch")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=12, help="calls per block")
    ap.add_argument("--cache", default=zoo.default_cache())
    args = ap.parse_args(argv)
    if not os.path.isdir("/proc/self/task"):
        raise SystemExit("bench/one_process.py reads /proc/self/task: Linux only")
    for n in [args.model] + [m for m in args.others.split(",") if m]:
        if n not in zoo.ZOO:
            ap.error(f"{n!r} is not a zoo model (bench/zoo.py --list)")
    peers = [p for p in args.peers.split(",") if p]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")   # as bench/torch_models.py
    import torch
    torch.set_num_threads(args.threads)
    import strata
    t = args.threads

    def load(name):
        path, inputs, _, _ = zoo.prepare(name, torch, args.cache)
        return path, inputs

    def strata_fn(path, inputs):
        f = strata.compile(path, num_threads=t, cache=False)
        values = list(inputs.values())
        return lambda: f(*values)

    before = set(thread_cpu_ns())
    path, inputs = load(args.model)
    first = strata_fn(path, inputs)
    first()
    ours = set(thread_cpu_ns()) - before          # the pool's workers
    known = set(thread_cpu_ns())
    ort = zoo.compile_peer("ort", path, inputs, t)
    ort()
    ort_own = set(thread_cpu_ns()) - known
    timer = Timer()
    print(f"A = {args.model}, {t} threads; timing before ...", file=sys.stderr, flush=True)
    timer.rounds({"A first, before": (first, ours), "ort A, before": (ort, ort_own)},
                 args.rounds, args.repeat)

    for name in [m for m in args.others.split(",") if m]:
        p, i = load(name)
        f = strata_fn(p, i)
        for _ in range(3):
            f()
        for peer in peers:
            if peer == "torch":
                x = torch.randn(512, 512)
                for _ in range(20):
                    x @ x
                continue
            g = zoo.compile_peer(peer, p, i, t)
            for _ in range(3):
                g()
        print(f"  ran {name} on strata, {', '.join(peers)}", file=sys.stderr, flush=True)
        del f
    later = strata_fn(path, inputs)
    print("timing after ...", file=sys.stderr, flush=True)
    timer.rounds({"A first, after": (first, ours), "A later, after": (later, ours),
                  "ort A, after": (ort, ort_own)}, args.rounds, args.repeat)
    print(f"\n{args.model}, {t} threads, others {args.others or '-'}, peers "
          f"{args.peers or '-'}: median ms; CPU ms per call of the timed callable's "
          f"threads and of the process's other threads; minor page faults per call")
    timer.report(lambda name: "ort A, " + name.split(", ")[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
