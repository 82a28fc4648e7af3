"""Benchmark: parse, verify and print a module of N chained arith ops, Strata vs xDSL.

    python bench/syntax.py [--ops 50000] [--repeat 3]

Prints, per tool and per input form (generic, custom): median seconds for parse, verify
and print, the combined ops/s, peak memory per op (tracemalloc, measured in a separate
run so it does not slow the timed runs), and the ratio Strata / xDSL.
"""
from __future__ import annotations

import argparse
import gc
import io
import statistics
import sys
import time
import tracemalloc

OPS = ("addi", "muli", "subi")


def make_module(n: int, generic: bool) -> str:
    lines = ["func.func @main(%arg0: i32, %arg1: i32) -> i32 {"] if not generic else [
        '"func.func"() <{function_type = (i32, i32) -> i32, sym_name = "main"}> ({',
        "^bb0(%arg0: i32, %arg1: i32):"]
    prev, prev2 = "%arg0", "%arg1"
    for i in range(n):
        op = OPS[i % 3]
        if generic:
            lines.append(f'  %{i} = "arith.{op}"({prev}, {prev2}) <{{overflowFlags = '
                         f'#arith.overflow<none>}}> : (i32, i32) -> i32')
        else:
            lines.append(f"  %{i} = arith.{op} {prev}, {prev2} : i32")
        prev2, prev = prev, f"%{i}"
    if generic:
        lines.append(f'  "func.return"({prev}) : (i32) -> ()')
        lines.append("}) : () -> ()")
    else:
        lines.append(f"  return {prev} : i32")
        lines.append("}")
    return "\n".join(lines) + "\n"


class StrataTool:
    name = "strata"

    def __init__(self):
        from strata.dialects import default_context
        from strata.syntax.parser import Parser
        from strata.syntax.printer import print_op
        self.ctx = default_context()
        self.Parser = Parser
        self.print_op = print_op

    def parse(self, text):
        return self.Parser(text, self.ctx, "bench.mlir").parse_top_level()

    def verify(self, m):
        m.verify()

    def print(self, m):
        return self.print_op(m)


class XdslTool:
    name = "xdsl"

    def __init__(self):
        from xdsl.context import Context
        from xdsl.dialects.arith import Arith
        from xdsl.dialects.builtin import Builtin
        from xdsl.dialects.func import Func
        from xdsl.parser import Parser
        from xdsl.printer import Printer
        self.ctx = Context()
        for d in (Builtin, Func, Arith):
            self.ctx.load_dialect(d)
        self.Parser = Parser
        self.Printer = Printer

    def parse(self, text):
        return self.Parser(self.ctx, text).parse_module()

    def verify(self, m):
        m.verify()

    def print(self, m):
        s = io.StringIO()
        self.Printer(stream=s).print_op(m)
        return s.getvalue()


def time_tool(tool, text, repeat):
    tp, tv, tr = [], [], []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        m = tool.parse(text)
        t1 = time.perf_counter()
        tool.verify(m)
        t2 = time.perf_counter()
        tool.print(m)
        t3 = time.perf_counter()
        tp.append(t1 - t0)
        tv.append(t2 - t1)
        tr.append(t3 - t2)
        del m
    return statistics.median(tp), statistics.median(tv), statistics.median(tr)


def peak_memory(tool, text):
    gc.collect()
    tracemalloc.start()
    m = tool.parse(text)
    tool.verify(m)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del m
    return peak


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=50000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-xdsl", action="store_true")
    args = ap.parse_args(argv)
    n = args.ops
    tools = [StrataTool()]
    if not args.no_xdsl:
        try:
            tools.append(XdslTool())
        except ImportError as e:
            print(f"xdsl not available ({e}); measuring Strata only")
    sys.setrecursionlimit(100000)
    print(f"{n} chained arith ops; median of {args.repeat} runs\n")
    hdr = (f"{'form':8} {'tool':7} {'parse s':>8} {'verify s':>8} {'print s':>8} "
           f"{'total s':>8} {'ops/s':>9} {'KB/op':>6}")
    print(hdr)
    print("-" * len(hdr))
    results = {}
    for form in ("generic", "custom"):
        text = make_module(n, form == "generic")
        for tool in tools:
            p, v, r = time_tool(tool, text, args.repeat)
            mem = peak_memory(tool, text) / n / 1024
            total = p + v + r
            results[(form, tool.name)] = (total, mem)
            print(f"{form:8} {tool.name:7} {p:8.3f} {v:8.3f} {r:8.3f} {total:8.3f} "
                  f"{n / total:9.0f} {mem:6.2f}")
    if len(tools) > 1:
        print("\nratios (strata vs xdsl):")
        for form in ("generic", "custom"):
            st, sm = results[(form, "strata")]
            xt, xm = results[(form, "xdsl")]
            print(f"  {form:8} speed {xt / st:5.1f}x faster   memory {sm / xm:5.2f}x of xdsl's")


if __name__ == "__main__":
    main()
