"""Benchmark: how long compiling a model takes, Strata against onnxruntime and OpenVINO.

    python bench/compile_time.py [--models mlp1,mlp64,resnet18,minilm,bert,convnext-t,
                                  resnet50] [--runs 3] [--no-peers] [--dir DIR]
    python bench/compile_time.py --models zoo:vit_b16,zoo:efficientnet_b0   # zoo models
    python bench/compile_time.py --profile minilm      # where a cold compile's time goes

Each model is exported to ONNX once (PyTorch, random weights but MiniLM's; kept in
--dir, default ~/.cache/strata-bench) and then compiled in a fresh process per run, so
that nothing of an earlier compile is warm but what a user's machine keeps on disk:
- strata cold: strata.compile(path) with the compiled-model cache off (CPU kernels
  already built and cached, as after the first use);
- strata warm: the same with the compiled-model cache holding the model (a second
  compile in a new process: strata/cache.py);
- ort: onnxruntime.InferenceSession(path) (CPU provider, default graph optimizations);
- openvino: Core().compile_model(path, "CPU") (f32 precision hint).
Times run from the first import of the compiler to the callable (imports included, the
interpreter's own start not), in seconds: the median wall time of --runs processes and,
in parentheses, its CPU time (all threads and child processes: the machine is shared,
and CPU time moves less with the load than wall time). Peers run in the same rounds as Strata.

--profile MODEL compiles MODEL cold in one fresh process and prints the CPU seconds of
each step: imports, the ONNX import, every pass (summed over its runs), verification,
translation to LLVM IR, LLVM's parse / optimization / code generation, the collector.

Models: bench/models.py's mlp1, mlp64, resnet18, minilm (all-MiniLM-L6-v2, the real
weights); from HF transformers configs (random weights, no download): bert (BertModel,
base, sequence 128), convnext-t (ConvNextModel(ConvNextConfig()), 224x224, opset 18),
resnet50 (ResNetModel(ResNetConfig())); `zoo:NAME`: model NAME of bench/zoo.py (its
export, cached where zoo.py keeps it).

The workers keep Python's bytecode (under <--dir>/pycache, or $PYTHONPYCACHEPREFIX) even
where $PYTHONDONTWRITEBYTECODE is set: an installed Strata has its modules compiled, and
without it every fresh process compiled ~240 source files first (0.56 s of MiniLM's
2.2 s). The first run of each model (the warm cache's) writes them.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
MODELS = ("mlp1", "mlp64", "resnet18", "minilm", "bert", "convnext-t", "resnet50")


# ---------------------------------------------------------------- models


def _hf_case(name, torch, np):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers as T
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    if name == "bert":
        m = T.BertModel(T.BertConfig()).eval()
        ids = rng.integers(0, 30000, (1, 128)).astype(np.int64)
        inputs = {"ids": ids, "mask": np.ones((1, 128), np.int64)}

        class Wrap(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.m = m

            def forward(self, ids, mask):
                return self.m(input_ids=ids, attention_mask=mask).last_hidden_state
        return Wrap(), inputs, {"ids": {0: "batch"}, "mask": {0: "batch"}}
    if name == "convnext-t":
        m = T.ConvNextModel(T.ConvNextConfig()).eval()
    elif name == "resnet50":
        m = T.ResNetModel(T.ResNetConfig()).eval()
    else:
        raise SystemExit(f"unknown model {name!r} (models: {', '.join(MODELS)})")

    class Vision(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(pixel_values=x).pooler_output
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    return Vision(), {"x": x}, {"x": {0: "batch"}}


def export_model(name: str, folder: str) -> str:
    """The ONNX file of model `name` in `folder` (exported on first use); `zoo:NAME`:
    bench/zoo.py's export of NAME."""
    if name.startswith("zoo:"):
        import torch
        sys.path.insert(0, HERE)
        import zoo
        if name[4:] not in zoo.ZOO:
            raise SystemExit(f"unknown zoo model {name[4:]!r} (bench/zoo.py --list)")
        return zoo.prepare(name[4:], torch, zoo.default_cache())[0]
    path = os.path.join(folder, f"{name}.onnx")
    if os.path.isfile(path):
        return path
    os.makedirs(folder, exist_ok=True)
    import numpy as np
    import torch
    sys.path.insert(0, HERE)
    import models as bench_models
    if name in ("mlp1", "mlp64", "resnet18", "minilm"):
        (_, module, inputs, dynamic), = bench_models.model_cases(torch, [name])
        opset = 17
    else:
        module, inputs, dynamic = _hf_case(name, torch, np)
        opset = 18
    tmp = f"{path}.{os.getpid()}.tmp.onnx"
    args = tuple(torch.from_numpy(v) for v in inputs.values())
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(module.eval(), args, tmp, input_names=list(inputs),
                          output_names=["y"], dynamic_axes=dynamic, opset_version=opset,
                          dynamo=False)
    os.replace(tmp, path)
    return path


# ---------------------------------------------------------------- one measurement


def worker(kind: str, path: str) -> dict:
    """Compile `path` with `kind` in this (fresh) process: {"wall": s, "cpu": s, ...}."""
    t0, c0 = time.perf_counter(), time.process_time()
    extra = {}
    if kind in ("strata", "strata-warm"):
        import strata
        f = strata.compile(path)
        extra["from_cache"] = f.from_cache
    elif kind == "ort":
        import onnxruntime as ort
        ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    elif kind == "openvino":
        import openvino as ov
        ov.Core().compile_model(path, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    else:
        raise SystemExit(f"unknown worker {kind!r}")
    import resource
    child = resource.getrusage(resource.RUSAGE_CHILDREN)    # (LLVM's parallel parts)
    return {"wall": time.perf_counter() - t0,
            "cpu": time.process_time() - c0 + child.ru_utime + child.ru_stime, **extra}


def measure(kind: str, path: str, env: dict) -> dict | None:
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", kind, path],
                       capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        print(f"  {kind} failed on {os.path.basename(path)}: "
              f"{(r.stderr.strip().splitlines() or ['?'])[-1]}", file=sys.stderr)
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- the profile


def profile(path: str) -> None:
    """Print where a cold compile of `path` spends its CPU time (this process is fresh)."""
    import gc
    c_start = time.process_time()
    gc_time = [0.0, 0]
    started = [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.process_time()
        else:
            gc_time[0] += time.process_time() - started[0]
            gc_time[1] += 1
    gc.callbacks.append(on_gc)
    c0 = time.process_time()
    import onnx  # noqa: F401  (the importer's)

    import strata
    import strata.backends.cpu.target as cpu_target
    import strata.backends.cpu.jit as cpu_jit
    from strata.frontends.onnx import import_model  # noqa: F401
    from strata.passes import pass_manager
    from strata.passes.instrumentation import Instrumentation
    imports = time.process_time() - c0

    class CpuClock:        # the phases' clock: CPU time instead of wall time
        perf_counter = staticmethod(time.process_time)
    cpu_target.time = cpu_jit.time = CpuClock
    passes: dict[str, float] = {}

    class PerPass(Instrumentation):
        def before_pass(self, p, op):
            self._t = time.process_time()

        def after_pass(self, p, op):
            passes[p.name] = passes.get(p.name, 0.0) + time.process_time() - self._t
    run = pass_manager.PassManager.run
    pass_manager.PassManager.run = \
        lambda self, op, inst=None: run(self, op, inst or PerPass())
    import strata.compiler as compiler
    load = compiler._load
    loaded = [0.0]

    def timed_load(*a):
        t = time.process_time()
        try:
            return load(*a)
        finally:
            loaded[0] += time.process_time() - t
    compiler._load = timed_load
    captured = {}
    jit_init = cpu_jit.JitModule.__init__

    def jit_timed(self, *a, **k):
        jit_init(self, *a, **k)
        captured.update(self.timings)
    cpu_jit.JitModule.__init__ = jit_timed
    gc_time[:] = [0.0, 0]
    c1 = time.process_time()
    f = strata.compile(path, cache=False)
    total = time.process_time() - c1
    import resource
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = f.timings
    rows = [("imports (strata, onnx, passes)", imports), ("ONNX load + import", loaded[0])]
    tensor = {"onnx-decompose", "onnx-fold-constants", "onnx-shape-inference",
              "convert-onnx-to-linalg", "convert-elementwise-to-linalg"}
    for name, s in sorted(passes.items(), key=lambda kv: -kv[1]):
        rows.append((f"pass {name}" + (" (tensor level)" if name in tensor else ""), s))
    rows += [("verify (llvm dialect)", t.get("verify", 0.0)),
             ("weights externalized", t.get("weights", 0.0)),
             ("translate to LLVM IR", t.get("translate", 0.0)),
             ("LLVM parse", captured.get("parse", 0.0)),
             ("LLVM optimize", captured.get("optimize", 0.0)),
             ("LLVM codegen", captured.get("codegen", 0.0))]
    accounted = sum(s for n, s in rows if not n.startswith("imports"))
    rows.append(("other (tensor-level verify, loading, glue)", total - accounted))
    jobs = t.get("jobs") or captured.get("jobs") or 1
    print(f"cold compile of {os.path.basename(path)}: {total:.2f} s CPU in strata.compile "
          f"(+{imports:.2f} s imports; process {time.process_time() - c_start:.2f} s); "
          f"the collector ran {gc_time[1]} times in it ({gc_time[0]:.2f} s, in the rows); "
          f"LLVM in {jobs} part{'s' if jobs != 1 else ''}" +
          (f" (the LLVM rows: this process's part; the other parts took "
           f"{child.ru_utime + child.ru_stime:.2f} s of CPU meanwhile)"
           if jobs != 1 else ""))
    print(f"{'step':52} {'CPU s':>7} {'%':>5}")
    for name, s in rows:
        if s >= 0.005 or not name.startswith("pass "):
            print(f"{name:52} {s:7.3f} {100 * s / max(total, 1e-9):5.1f}")


# ---------------------------------------------------------------- the table


def _kernel_linked_cache(tmp: str) -> str:
    """A cache directory holding (links to) the CPU kernels already built."""
    sys.path.insert(0, REPO)
    from strata.cache import cache_dir
    d = os.path.join(tmp, "cache")
    os.makedirs(d, exist_ok=True)
    home = cache_dir()
    for o in glob.glob(os.path.join(home, "sgemm-*.o")) if home else ():
        os.symlink(o, os.path.join(d, os.path.basename(o)))
    return d


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per measurement")
    ap.add_argument("--dir", default=os.path.join(os.path.expanduser("~"), ".cache",
                                                  "strata-bench"),
                    help="where the exported ONNX files are kept")
    ap.add_argument("--no-peers", action="store_true", help="Strata only")
    ap.add_argument("--profile", metavar="MODEL", help="where a cold compile of MODEL goes")
    ap.add_argument("--worker", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        if args.worker[0] == "profile":
            profile(args.worker[1])
        else:
            print(json.dumps(worker(*args.worker)))
        return 0
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               STRATA_CACHE="0", STRATA_QUIET="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)    # (see the docstring: bytecode kept)
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(args.dir, "pycache"))
    if args.profile:
        path = export_model(args.profile, args.dir)
        measure("strata", path, env)      # the CPU kernels built, if they were not
        subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", "profile",
                        path], env=env, check=True)
        return 0
    names = args.models.split(",")
    paths = {n: export_model(n, args.dir) for n in names}
    kinds = ["strata", "strata-warm"] + ([] if args.no_peers else ["ort", "openvino"])
    with tempfile.TemporaryDirectory() as tmp:
        warm_env = dict(env, STRATA_CACHE="1", STRATA_CACHE_DIR=_kernel_linked_cache(tmp))
        for n in names:   # the warm cache gets each model once
            measure("strata", paths[n], dict(warm_env))
        results = {(n, k): [] for n in names for k in kinds}
        for _ in range(args.runs):          # rounds: every model and peer in turn
            for n in names:
                for k in kinds:
                    r = measure("strata" if k == "strata-warm" else k, paths[n],
                                warm_env if k == "strata-warm" else env)
                    if r is not None:
                        if k == "strata-warm" and not r.get("from_cache"):
                            print(f"  {n}: the warm run missed the cache", file=sys.stderr)
                        results[(n, k)].append(r)
    print(f"compile time, s: median wall of {args.runs} fresh processes (CPU s); "
          f"imports included")
    head = f"{'model':20} {'MB':>6}" + "".join(f" {k:>16}" for k in kinds)
    print(head)
    colds = []
    for n in names:
        cells = []
        for k in kinds:
            rs = results[(n, k)]
            if not rs:
                cells.append(f" {'failed':>16}")
                continue
            w = statistics.median(r["wall"] for r in rs)
            c = statistics.median(r["cpu"] for r in rs)
            if k == "strata":
                colds.append(w)
            cells.append(f" {f'{w:.2f} ({c:.2f})':>16}")
        print(f"{n:20} {os.path.getsize(paths[n]) / 2**20:6.1f}" + "".join(cells))
    if colds:
        print(f"strata cold: median {statistics.median(colds):.2f} s, "
              f"max {max(colds):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
