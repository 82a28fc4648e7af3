"""Where the first call of `torch.compile(model, backend="strata")` spends its time (issue 17).

    python bench/torch_compile_stages.py [--models llama,gpt2,bert,vit_b16,resnet50]
                                         [--threads 1] [--no-inductor] [--order tc,ep]
                                         [--after resnet50,gpt2]

Each model runs in a fresh process (this script re-runs itself per model) so that no
model's compile time holds another's leftovers. In it: Strata's kernel library built and
a tiny model taken through every peer (the imports), then Inductor's untimed compile (its
kernel cache filled), then, timed in process CPU seconds (time.process_time: the
machine's load does not count):

  inductor   torch.compile(model) to the end of its first call (FX-graph and
             AOTAutograd caches off, as bench/torch_models.py times it)
  strata-tc  torch.compile(model, backend="strata") to the end of its first call,
             split into stages: Dynamo (the compile call to the backend's entry, summed
             over graphs), trace (Dynamo's graph rewritten to ATen ops, or else
             make_fx / torch.export of it), import
             (import_graph / import_program), each pass of the pipeline, the target's
             phases (weights, translate, llvm...), the first run, and the rest
  strata-ep  torch.export.export(model) (not part of bench/torch_models.py's figure) and
             strata.compile(ep) to the end of its first call, split the same way

--order says which Strata runs are timed, in turn (default tc,ep; tc,ep,tc times
torch.compile again after strata.compile's run: what the first Strata compile of a
process pays for warming up shows as the difference).

"target llvm" is the CPU of every thread that compiles the module's parts ([Note:
parallel code generation] in strata/backends/cpu/jit.py; when the parts were compiled
by forked processes, their CPU did not count here). Compiled-model caches are off (the
kernel cache stays). Run with .pyc files present
(`env -u PYTHONDONTWRITEBYTECODE`) after one warm-up run, else lazy imports pay for
bytecode compilation. Prints one table per model and, last, a summary of the totals
against Inductor's.
"""
from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

DEFAULT_MODELS = "llama,gpt2,bert,vit_b16,resnet50"


class _Stages:
    """Process-CPU seconds per stage name, accumulated while `active`."""

    def __init__(self):
        self.times = collections.OrderedDict()
        self.active = False
        self.stack = []

    def add(self, name, dt):
        if self.active:
            self.times[name] = self.times.get(name, 0.0) + dt

    def wrap(self, owner, attr, name):
        """Time every call of owner.attr as stage `name` (nested stages are subtracted
        from their parent: each second counts once)."""
        fn = getattr(owner, attr)
        stages = self

        def timed(*a, **k):
            t0 = time.process_time()
            stages.stack.append(0.0)
            try:
                return fn(*a, **k)
            finally:
                inner = stages.stack.pop()
                dt = time.process_time() - t0
                stages.add(name, dt - inner)
                if stages.stack:
                    stages.stack[-1] += dt
        setattr(owner, attr, timed)
        return fn


def _instrument(stages):
    """Hooks on the compile's stages (see the module docstring)."""
    import torch
    import torch.fx.experimental.proxy_tensor as pt

    import strata.compiler as C
    import strata.frontends.torch as F
    import strata.frontends.torch.importer as imp
    from strata.passes.instrumentation import Instrumentation
    from strata.passes.pass_manager import PassManager

    make_fx = pt.make_fx

    class _Holder:   # make_fx(gm, ...) returns the tracer; its call is the trace
        pass

    def make_fx_timed(*a, **k):
        holder = _Holder()
        holder.trace = make_fx(*a, **k)
        stages.wrap(holder, "trace", "trace (make_fx)")
        return holder.trace
    pt.make_fx = make_fx_timed
    stages.wrap(torch.export, "export", "trace (torch.export)")
    import strata.frontends.torch.dynamo_graph as rewrite
    stages.wrap(rewrite, "aten_graph", "trace (rewrite)")
    stages.wrap(imp, "import_graph", "import")
    stages.wrap(imp, "import_program", "import")
    stages.wrap(F, "import_program", "import")
    stages.wrap(C, "_compile_module", "compile (other)")
    stages.wrap(C, "compile", "strata.compile (other)")

    # the passes: timed around PassManager._run_on's pass calls
    before, after = Instrumentation.before_pass, Instrumentation.after_pass
    clock = {}

    def before_pass(self, p, op):
        clock[id(p)] = time.process_time()
        return before(self, p, op)

    def after_pass(self, p, op):
        r = after(self, p, op)
        t0 = clock.pop(id(p), None)
        if t0 is not None:
            dt = time.process_time() - t0
            stages.add("pass " + p.name, dt)
            if stages.stack:
                stages.stack[-1] += dt
        return r
    Instrumentation.before_pass, Instrumentation.after_pass = before_pass, after_pass
    del PassManager

    # the target's phases that are not passes
    import strata.backends.cpu.jit as jit
    import strata.backends.cpu.llvmir as llvmir
    import strata.backends.cpu.target as target
    stages.wrap(jit, "JitModule", "target llvm")
    stages.wrap(jit, "merge_identical_functions", "target translate")
    stages.wrap(llvmir, "translate_to_llvmir", "target translate")
    stages.wrap(target, "externalize_weights", "target weights")


def _time_tc(torch, model, args, threads, stages):
    """{"total", "stages", "counters"} of torch.compile(model, backend="strata")'s first
    call."""
    import strata.frontends.torch.dynamo as D
    inner = D.strata_backend
    entry = {}

    def backend(gm, example_inputs, **kw):
        # Dynamo's trace: from the compile call (or the last graph's end) to here
        stages.add("dynamo", time.process_time() - entry["t"])
        t0 = time.process_time()
        try:
            return inner(gm, example_inputs, **kw)
        finally:
            entry["t"] = time.process_time()
            entry["backend"] = entry.get("backend", 0.0) + entry["t"] - t0
    torch._dynamo.reset()
    D.COUNTERS.clear()
    stages.times.clear()
    gc.collect()
    stages.active = True
    t0 = time.process_time()
    entry["t"] = t0
    fn = torch.compile(model, backend=backend,
                       options={"num_threads": threads, "fallback": False, "cache": False})
    fn(*args)
    total = time.process_time() - t0
    stages.active = False
    tc = dict(stages.times)
    inside = sum(v for k, v in tc.items() if k not in ("dynamo",))
    tc["backend (other)"] = entry.get("backend", 0.0) - inside
    tc["after backend (guards, first run)"] = total - entry.get("backend", 0.0) - \
        tc.get("dynamo", 0.0)
    torch._dynamo.reset()
    return {"total": total, "stages": tc, "counters": dict(D.COUNTERS)}


def _time_ep(torch, model, args, threads, stages):
    """(torch.export seconds, {"total", "stages"}) of strata.compile(ExportedProgram)'s
    first call."""
    import strata
    t0 = time.process_time()
    program = torch.export.export(model, args)
    export = time.process_time() - t0
    stages.times.clear()
    gc.collect()
    stages.active = True
    t0 = time.process_time()
    compiled = strata.compile(program, num_threads=threads, cache=False)
    t1 = time.process_time()
    compiled(*args)
    t2 = time.process_time()
    stages.active = False
    st = dict(stages.times)
    st["first run"] = t2 - t1
    st["rest"] = (t1 - t0) - sum(v for k, v in st.items() if k != "first run")
    return export, {"total": t2 - t0, "stages": st}


def _earlier(torch, names, threads, inductor):
    """Each model of `names` through every peer, untimed, as bench/torch_models.py
    takes the models before the one measured (see --after)."""
    import strata
    from torch_models import _InductorGraphCachesOff

    from torch_architectures import BUILDERS
    for name in names:
        model, args = BUILDERS[name]()
        with torch.no_grad():
            if inductor:
                torch.compile(model)(*args)
                torch._dynamo.reset()
                with _InductorGraphCachesOff():
                    torch.compile(model)(*args)
                torch._dynamo.reset()
            torch.compile(model, backend="strata", options={
                "num_threads": threads, "fallback": False, "cache": False})(*args)
            torch._dynamo.reset()
            ep = torch.export.export(model, args)
            strata.compile(ep, num_threads=threads, cache=False)(*args)
        del model, args, ep


def _child(name, threads, inductor, order, after=()):
    """One model, in this (fresh) process: a JSON line of its stage tables."""
    import warnings
    warnings.simplefilter("ignore")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch
    import torch._dynamo
    torch.set_num_threads(threads)

    import strata
    from strata.backends.cpu.kernels import kernel_object
    from strata.frontends.torch.dynamo import strata_backend
    from torch_architectures import BUILDERS
    from torch_models import _InductorGraphCachesOff
    try:
        torch._dynamo.register_backend(name="strata")(strata_backend)
    except Exception:   # registered by the entry point (pip-installed)
        pass
    kernel_object()
    tiny, x = torch.nn.Linear(4, 3).eval(), torch.randn(2, 4)
    with torch.no_grad():
        strata.compile(torch.export.export(tiny, (x,)), num_threads=threads, cache=False)(x)
        torch.compile(tiny, backend="strata", options={"num_threads": threads,
                                                        "cache": False})(x)
        torch._dynamo.reset()
        if inductor:
            torch.compile(tiny)(x)
            torch._dynamo.reset()

    _earlier(torch, after, threads, inductor)
    model, args = BUILDERS[name]()
    out = {"model": name}
    with torch.no_grad():
        if inductor:
            torch.compile(model)(*args)    # fills Inductor's kernel cache
            torch._dynamo.reset()
            with _InductorGraphCachesOff():
                gc.collect()
                t0 = time.process_time()
                torch.compile(model)(*args)
                out["inductor"] = time.process_time() - t0
            torch._dynamo.reset()

        stages = _Stages()
        _instrument(stages)
        for peer in order:
            key = peer if peer not in out else f"{peer}#{sum(k.startswith(peer) for k in out) + 1}"
            if peer == "tc":
                out[key] = _time_tc(torch, model, args, threads, stages)
            else:
                out[key + "-export"], out[key] = _time_ep(torch, model, args, threads, stages)
    print("STAGES " + json.dumps(out), flush=True)


def _runs(r):
    """The timed Strata runs of result `r`, in order: [(column name, run)]."""
    return [(k, v) for k, v in r.items() if isinstance(v, dict) and "stages" in v]


def _print_model(r, out=sys.stdout):
    runs = _runs(r)
    counters = next((v["counters"] for _, v in runs if "counters" in v), None)
    print(f"\n{r['model']}: process CPU s (tc graphs: {counters})", file=out)
    names = []
    for _, v in runs:
        names += [k for k in v["stages"] if k not in names]
    print(f"  {'stage':<40}" + "".join(f"{k:>10}" for k, _ in runs), file=out)
    for n in names:
        print(f"  {n:<40}" + "".join(f"{v['stages'][n]:10.3f}" if n in v["stages"]
                                      else " " * 10 for _, v in runs), file=out)
    print(f"  {'total':<40}" + "".join(f"{v['total']:10.3f}" for _, v in runs), file=out)
    for k, v in r.items():
        if k.endswith("-export"):
            print(f"  ({k}: torch.export.export beforehand: {v:.3f} s)", file=out)
    if "inductor" in r:
        print(f"  inductor first call: {r['inductor']:.3f} s", file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-inductor", action="store_true")
    ap.add_argument("--order", default="tc,ep",
                    help="the Strata runs timed, in order (tc: torch.compile, ep: "
                         "strata.compile(ExportedProgram)); a peer named twice is timed "
                         "twice (tc,ep,tc: the second tc after the first's warm-up)")
    ap.add_argument("--after", default="",
                    help="models taken through every peer first, untimed, in the same "
                         "process (the one-process benchmark's state late in its run)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    order = a.order.split(",")
    if any(p not in ("tc", "ep") for p in order):
        ap.error("--order takes tc and ep")
    if a.child:
        _child(a.child, a.threads, not a.no_inductor, order,
               [n for n in a.after.split(",") if n])
        return
    rows = []
    for name in a.models.split(","):
        cmd = [sys.executable, os.path.abspath(__file__), "--child", name,
               "--threads", str(a.threads), "--order", a.order,
               "--after", a.after] + \
            (["--no-inductor"] if a.no_inductor else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        line = [ln for ln in p.stdout.splitlines() if ln.startswith("STAGES ")]
        if p.returncode or not line:
            print(f"{name}: failed (rc {p.returncode})\n{p.stderr[-3000:]}", file=sys.stderr)
            continue
        r = json.loads(line[-1][7:])
        rows.append(r)
        _print_model(r)
        sys.stdout.flush()
    if not rows:
        return
    cols = [k for k, _ in _runs(rows[0])]
    print(f"\nprocess CPU s, first call ({a.threads} thread(s)); x/ind: against Inductor's")
    print(f"{'model':<13}{'inductor':>9}" + "".join(f"{c:>8}" for c in cols)
          + "".join(f"{c + '/ind':>9}" for c in cols))
    for r in rows:
        ind = r.get("inductor")
        tot = [r.get(c, {}).get("total") for c in cols]
        print(f"{r['model']:<13}" + (f"{ind:9.2f}" if ind else "        -")
              + "".join(f"{t:8.2f}" if t else "       -" for t in tot)
              + "".join(f"{t / ind:9.2f}" if t and ind else "        -" for t in tot))


if __name__ == "__main__":
    main()
