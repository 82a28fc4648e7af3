"""Benchmark: canonicalize and cse on a module of N arith ops, Strata vs xDSL, with the
op counts after each pass checked against upstream (`iree-opt`).

    python bench/passes.py [--ops 50000] [--repeat 3] [--no-xdsl] [--no-iree]

The module extends bench/syntax.py's chain of arith ops with what the two passes work
on: every group of 7 ops re-declares a constant (canonicalize uniques and hoists
them), computes one value twice (cse merges them), adds zero (folds away) and leaves
one result unused (dead code):

    %k = arith.constant K : i32         (K in 1..8, and a 0 per group)
    %a = arith.addi %prev, %k : i32
    %b = arith.addi %prev, %k : i32     (same as %a: cse)
    %c = arith.muli %a, %b : i32
    %d = arith.addi %c, %zero : i32     (= %c: folded)
    %e = arith.xori %c, %prev : i32     (unused: dead)

Per tool and pass: median seconds over the runs (the machine is shared and noisy), ops
per second (ops in the pass's input / seconds), and the ratio Strata / xDSL. Each run
parses a fresh module (not timed); cse runs on the canonicalized module. The op counts
after each pass (every op, the module and function included) are compared with
`iree-opt --canonicalize` and `iree-opt --canonicalize --cse` on the same text; they
must be equal. iree-opt's own pass times (C++, from --mlir-timing) are shown for
scale.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from syntax import StrataTool, XdslTool  # noqa: E402  (bench/ is not a package)

GROUP = 7


def make_pass_module(n: int) -> str:
    """About `n` ops (whole groups of 7) in one function, custom form."""
    lines = ["func.func @main(%arg0: i32) -> i32 {"]
    prev = "%arg0"
    for g in range(max(1, n // GROUP)):
        k = g % 8 + 1
        lines += [
            f"  %k{g} = arith.constant {k} : i32",
            f"  %z{g} = arith.constant 0 : i32",
            f"  %a{g} = arith.addi {prev}, %k{g} : i32",
            f"  %b{g} = arith.addi {prev}, %k{g} : i32",
            f"  %c{g} = arith.muli %a{g}, %b{g} : i32",
            f"  %d{g} = arith.addi %c{g}, %z{g} : i32",
            f"  %e{g} = arith.xori %c{g}, {prev} : i32",
        ]
        prev = f"%d{g}"
    lines.append(f"  return {prev} : i32")
    lines.append("}")
    return "\n".join(lines) + "\n"


def count_ops(op_iter) -> int:
    return sum(1 for _ in op_iter)


class StrataPasses(StrataTool):
    def __init__(self):
        super().__init__()
        from strata.passes.canonicalize import Canonicalize
        from strata.passes.cse import CSE
        from strata.passes.pass_manager import PassManager
        self.managers = {}
        for name, cls in (("canonicalize", Canonicalize), ("cse", CSE)):
            pm = PassManager("builtin.module", [cls()])
            # Like xDSL's passes: no verification after the pass (verify is timed by
            # bench/syntax.py).
            pm.verify_each = False
            self.managers[name] = pm

    def run(self, name, m):
        self.managers[name].run(m)

    def count(self, m) -> int:
        return count_ops(m.walk())


class XdslPasses(XdslTool):
    def __init__(self):
        super().__init__()
        from xdsl.transforms.canonicalize import CanonicalizePass
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination)
        self.passes = {"canonicalize": CanonicalizePass(),
                       "cse": CommonSubexpressionElimination()}

    def run(self, name, m):
        self.passes[name].apply(self.ctx, m)

    def count(self, m) -> int:
        return count_ops(m.walk())


def time_tool(tool, text, repeat):
    """{pass: [seconds per run]}, and the op counts {input, canonicalize, cse}."""
    times = {"canonicalize": [], "cse": []}
    counts = {}
    for _ in range(repeat):
        m = tool.parse(text)
        counts["input"] = tool.count(m)
        for name in ("canonicalize", "cse"):
            gc.collect()
            t0 = time.perf_counter()
            tool.run(name, m)
            times[name].append(time.perf_counter() - t0)
            counts[name] = tool.count(m)
        del m
    return times, counts


def iree_results(path):
    """Op counts after `--canonicalize` and `--canonicalize --cse`, and the C++ pass
    times, from iree-opt (None when it is not installed)."""
    iree = shutil.which("iree-opt")
    if iree is None:
        return None
    out = {}
    for key, flags in (("canonicalize", ["--canonicalize"]),
                       ("cse", ["--canonicalize", "--cse"])):
        p = subprocess.run([iree, path, *flags, "--print-op-stats=json=true",
                            "--mlir-timing", "--mlir-disable-threading", "-o", os.devnull],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"iree-opt failed:\n{p.stderr[-2000:]}")
        m = re.search(r"\{.*?\}", p.stderr, re.S)
        out[key] = sum(json.loads(m.group(0)).values())
        for name, pass_name in (("canonicalize", "CanonicalizerPass"), ("cse", "CSEPass")):
            t = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+" + pass_name + "$", p.stderr,
                          re.M)
            if t:
                out[f"time_{name}"] = float(t.group(1))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=50000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-xdsl", action="store_true")
    ap.add_argument("--no-iree", action="store_true")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(100000)
    text = make_pass_module(args.ops)
    tools = [StrataPasses()]
    if not args.no_xdsl:
        try:
            tools.append(XdslPasses())
        except ImportError as e:
            print(f"xdsl not available ({e}); measuring Strata only")
    results = {}
    for tool in tools:
        results[tool.name] = time_tool(tool, text, args.repeat)
    n_in = results["strata"][1]["input"]
    print(f"{n_in} ops (arith chain with constants, duplicates, dead code); median of "
          f"{args.repeat} runs\n")
    hdr = f"{'pass':13} {'tool':7} {'median s':>9} {'min s':>8} {'ops/s':>10} {'ops after':>10}"
    print(hdr)
    print("-" * len(hdr))
    med = {}
    for tool in tools:
        times, counts = results[tool.name]
        for name in ("canonicalize", "cse"):
            n = counts["input"] if name == "canonicalize" else counts["canonicalize"]
            t = statistics.median(times[name])
            med[(name, tool.name)] = t
            print(f"{name:13} {tool.name:7} {t:9.3f} {min(times[name]):8.3f} "
                  f"{n / t:10.0f} {counts[name]:10d}")
    if len(tools) > 1:
        print("\nratios (time xdsl / time strata):")
        for name in ("canonicalize", "cse"):
            r = med[(name, "xdsl")] / med[(name, "strata")]
            print(f"  {name:13} strata is {r:5.1f}x {'faster' if r >= 1 else 'slower'}")
    ok = True
    if not args.no_iree:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
        try:
            iree = iree_results(f.name)
        finally:
            os.unlink(f.name)
        if iree is None:
            print("\niree-opt not found: op counts not checked against upstream")
        else:
            counts = results["strata"][1]
            print("\nop counts vs upstream (iree-opt on the same file):")
            print(f"  {'after':14} {'strata':>8} {'iree-opt':>9}")
            for name, label in (("canonicalize", "canonicalize"),
                                ("cse", "+ cse")):
                same = counts[name] == iree[name]
                ok &= same
                print(f"  {label:14} {counts[name]:8d} {iree[name]:9d}  "
                      f"{'equal' if same else 'MISMATCH'}")
            if "time_canonicalize" in iree:
                print(f"\niree-opt (C++) pass times: canonicalize "
                      f"{iree['time_canonicalize']:.4f} s, cse {iree.get('time_cse', 0):.4f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
