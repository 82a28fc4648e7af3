"""The `strata` command. Subcommands: demo (more come with the compiler pipeline)."""
from __future__ import annotations

import argparse
import sys

DEMO = """\
// A small function: Strata parses it, verifies it and prints it back.
func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 {
  %0 = arith.mulf %a, %x : f32
  %1 = arith.addf %0, %y fastmath<fast> : f32
  %c = arith.cmpf olt, %1, %y : f32
  return %1 : f32
}
"""


def demo() -> int:
    from ..dialects import default_context
    from ..syntax.parser import parse_source
    from ..syntax.printer import PrintOptions, print_op
    print("== input ==\n" + DEMO)
    m = parse_source(DEMO, default_context(), "demo.mlir")
    print("== custom form ==\n" + print_op(m))
    print("== generic form ==\n" + print_op(m, PrintOptions(generic=True)))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="strata")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("demo", help="parse, verify and print a small MLIR function")
    args = ap.parse_args(argv)
    if args.cmd == "demo":
        return demo()
    return 2


if __name__ == "__main__":
    sys.exit(main())
