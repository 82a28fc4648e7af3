"""Print the table case x path -> pass / FAIL (reason) for the breadth cases of
tests/e2e/torch_breadth_cases.py (HF vision / audio architectures, torch.nn blocks),
each compiled through strata.compile (torch.export, "export") and torch.compile with
the strata backend (Dynamo + AOTAutograd, no eager fallback, "dynamo"):

    PYTHONPATH=$PWD python tests/e2e/torch_breadth_runner.py [--set vision|nn|all]
        [--cases REGEX] [--paths export,dynamo] [--timeout S]

Each case runs in a child process of its own (a crash or a hang is a failure of that
case, not the end of the table), at most --timeout seconds. Example line:

    swin                    export  pass  1.2e-06   4.1 s
    bool_mask_index         dynamo  FAIL  StrataError: ... (data-dependent shape)
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("STRATA_CACHE", "0")


def _one(name, path, queue):
    import warnings
    warnings.simplefilter("ignore")
    import torch_breadth_cases as C
    build = {**C.VISION, **C.NN}[name]
    t0 = time.perf_counter()
    try:
        model, args, kwargs = build()
        rel = C.check(model, args, kwargs, path)
        queue.put(("pass", f"{rel:.1e}", time.perf_counter() - t0))
    except BaseException as e:  # the table's row, whatever it was
        text = f"{type(e).__name__}: {e}".replace("\n", " | ")
        if not str(e).strip():
            text += " @ " + traceback.format_exc().strip().splitlines()[-3].strip()
        queue.put(("FAIL", text[:300], time.perf_counter() - t0))


def run(name, path, timeout):
    return run_forked(_one, (name, path), timeout)


def run_forked(one, args, timeout):
    """`one(*args, queue)` in a forked child that puts its (status, text, seconds) row on
    the queue: the row, or a FAIL row for a timeout or a crash."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    p = ctx.Process(target=one, args=(*args, queue))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return "FAIL", f"timeout after {timeout} s", timeout
    if queue.empty():
        return "FAIL", f"crashed (exit code {p.exitcode})", 0.0
    return queue.get()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="all", choices=("vision", "nn", "all"))
    ap.add_argument("--cases", default="", help="regex on the case names")
    ap.add_argument("--paths", default="export,dynamo")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args(argv)
    import torch_breadth_cases as C
    import strata.frontends.torch.dynamo  # noqa: F401  (imported once, before the forks)
    C._t()
    names = list(C.VISION) * (a.set in ("vision", "all")) + list(C.NN) * (a.set in ("nn", "all"))
    names = [n for n in names if re.search(a.cases, n)]
    counts = {}
    for name in names:
        for path in a.paths.split(","):
            status, info, secs = run(name, path, a.timeout)
            counts[path, status] = counts.get((path, status), 0) + 1
            print(f"{name:34s} {path:6s} {status:4s} {info}  ({secs:.1f} s)", flush=True)
    for path in a.paths.split(","):
        ok = counts.get((path, "pass"), 0)
        print(f"{path}: {ok}/{ok + counts.get((path, 'FAIL'), 0)} pass")


if __name__ == "__main__":
    main()
