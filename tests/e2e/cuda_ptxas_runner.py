"""The PTX of the ONNX node suite through ptxas: every node test case compiled ahead of
time for the cuda target (no GPU: `compile_ahead`), every gpu.module's PTX assembled by
ptxas (PyPI nvidia-cuda-nvcc) for each architecture asked (issue 19 item 4: sm_80 and
sm_90). A case the cuda pipeline cannot compile is counted apart ("compile": the
interpreted node suite, onnx_node_runner.py --target cuda-interpret, owns those); a
PTX text ptxas rejects is a failure, always a bug.

    python tests/e2e/cuda_ptxas_runner.py [-k PATTERN] [-j JOBS] [--shard K/N]
                                          [--arch sm_80,sm_90] [-v]

tests/e2e/test_cuda_ptxas_nodes.py runs one CI-sized shard and fails on any rejected
PTX.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from onnx_node_runner import _alarm, _one_line, _Timeout, load_cases  # noqa: E402

TIMEOUT_S = 120


def check_case(index: int, archs=("sm_80", "sm_90")):
    """(name, status, kernels assembled, detail): status pass, compile (the pipeline
    refused it), ptxas (PTX rejected), timeout or crash."""
    import strata
    from strata.backends.cuda import ptxas
    from strata.backends.cuda.target import compile_ahead
    case = load_cases()[index]
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    n = 0
    try:
        for arch in archs:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    program = compile_ahead(case.model, arch=arch)
            except strata.StrataError as e:
                return case.name, "compile", n, _one_line(str(e))
            for name, text in sorted(program.ptx.items()):
                try:
                    ptxas.check(text, arch, f"{case.name}/{name}.ptx")
                except ptxas.PtxasError as e:
                    return case.name, "ptxas", n, _one_line(str(e), 400)
                n += 1
        return case.name, "pass", n, ""
    except _Timeout:
        return case.name, "timeout", n, f"over {TIMEOUT_S} s"
    except Exception as e:  # noqa: BLE001 - a bug: reported, not hidden
        return case.name, "crash", n, _one_line(f"{type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_all(pattern=None, jobs=None, shard=None, archs=("sm_80", "sm_90")):
    cases = load_cases()
    idx = [i for i, c in enumerate(cases) if (pattern is None or re.search(pattern, c.name))
           and (shard is None or i % shard[1] == shard[0])]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(idx) or 1))
    import strata.compiler  # noqa: F401 - imported once: forked workers inherit it
    import strata.frontends.onnx  # noqa: F401
    from forked_pool import run_forked
    results = run_forked(idx, lambda i, progress: check_case(i, archs), jobs,
                         lambda i, _, why: (cases[i].name, "crash", 0,
                                            f"the process died ({why})"))
    return [results[i] for i in idx]


def summary(results, archs) -> str:
    by = {}
    for r in results:
        by.setdefault(r[1], []).append(r)
    kernels = sum(r[2] for r in results)
    compiled = len(results) - len(by.get("compile", []))
    lines = [f"{len(results)} cases: {compiled} compiled for the cuda target, "
             f"{len(by.get('pass', []))} with every PTX assembled by ptxas "
             f"({kernels} PTX modules for {', '.join(archs)}); "
             + ", ".join(f"{k} {len(v)}" for k, v in sorted(by.items()) if k != "pass")]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", dest="pattern", default=None, help="regex on test names")
    ap.add_argument("-j", dest="jobs", type=int, default=None)
    ap.add_argument("--shard", default=None, help="K/N: the cases whose index is K-1 "
                                                  "modulo N")
    ap.add_argument("--arch", default="sm_80,sm_90")
    ap.add_argument("-v", action="store_true", help="print every non-pass with its reason")
    args = ap.parse_args(argv)
    shard = None
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        shard = (k - 1, n)
    archs = tuple(a for a in args.arch.split(",") if a)
    t0 = time.perf_counter()
    results = run_all(args.pattern, args.jobs, shard, archs)
    for name, status, _, detail in results:
        if status in ("ptxas", "crash", "timeout") or (args.v and status != "pass"):
            print(f"{status:8} {name}: {detail}")
    print(summary(results, archs))
    print(f"in {time.perf_counter() - t0:.0f} s")
    return 1 if any(r[1] in ("ptxas", "crash") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
