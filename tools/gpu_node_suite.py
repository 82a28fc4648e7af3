"""The ONNX node suite on the GPU (tools/gpu_check.sh): every case compiled with
strata.compile(model, target="cuda") and run on the device, in shards of the suite
(the cases whose index is k modulo N, every op family in each), the running pass rate
printed after each shard, so a step cut by its time limit still reports what it ran;
the table by op and the failures' reasons (-v) at the end.

    python tools/gpu_node_suite.py [--shards 8] [-j JOBS] [-v] [--target cuda]
                                   [--budget SECONDS]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("-j", dest="jobs", type=int, default=None)
    ap.add_argument("-v", action="store_true", help="print every failure with its reason")
    ap.add_argument("--target", default="cuda")
    ap.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                    help="start no shard that would end past this many seconds (judged "
                         "by the slowest shard so far): the step ends by itself, no "
                         "worker left running")
    args = ap.parse_args(argv)
    from onnx_node_runner import load_cases, run_all, summary
    t0 = time.time()
    n = len(load_cases())
    results = []
    slowest = 0.0
    for k in range(args.shards):
        if args.budget is not None and time.time() - t0 + slowest > args.budget:
            print(f"stopped after shard {k}/{args.shards}: the time budget "
                  f"({args.budget:.0f} s) is spent")
            break
        t = time.time()
        results += run_all(jobs=args.jobs, target=args.target, shard=(k, args.shards))
        slowest = max(slowest, time.time() - t)
        passed = sum(s == "pass" for _, s, _ in results)
        print(f"after shard {k + 1}/{args.shards}: passed {passed}/{len(results)} "
              f"({100.0 * passed / max(len(results), 1):.1f}%) of {n} cases, "
              f"{time.time() - t0:.0f} s", flush=True)
    if args.v:
        for name, status, detail in results:
            if status != "pass":
                print(f"{name}: {status}: {detail}")
    print(summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
