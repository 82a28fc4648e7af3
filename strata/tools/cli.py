"""The `strata` command. Subcommands: demo, run, compile, import, cache."""
from __future__ import annotations

import argparse
import sys

DEMO = """\
// A small function: Strata parses it, verifies it, prints it back, and optimizes it.
func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 {
  %0 = arith.mulf %a, %x : f32
  %1 = arith.addf %0, %y fastmath<fast> : f32
  %c = arith.cmpf olt, %1, %y : f32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %five = arith.addi %two, %three : i32
  %again = arith.mulf %a, %x : f32
  %2 = arith.addf %1, %again : f32
  return %2 : f32
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
    from ..passes.pipeline import parse_pipeline
    pipeline = "builtin.module(canonicalize,cse)"
    parse_pipeline(pipeline).run(m)
    print(f"== after {pipeline} ==\n" + print_op(m))
    return 0


def cache_command(args) -> int:
    """`strata cache info|clear|dir` (strata/cache.py)."""
    from .. import cache
    d = cache.cache_dir()
    if d is None:
        print("strata cache: off ($STRATA_CACHE_DIR=off)")
        return 0
    if args.action == "dir":
        print(d)
    elif args.action == "clear":
        n = cache.clear()
        print(f"strata cache: removed {n} compiled model{'s' if n != 1 else ''} from "
              f"{cache.models_dir()}")
    else:
        n, size = cache.usage()
        state = "on" if cache.models_enabled() else "off ($STRATA_CACHE)"
        print(f"directory: {d}\ncompiled models: {n}, {size / 2**20:.1f} MiB "
              f"(cap {cache.max_bytes() / 2**20:.0f} MiB, $STRATA_CACHE_MAX_MB)\n"
              f"compiled-model cache: {state}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="strata")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("demo", help="parse, verify and print a small MLIR function")
    from . import run as run_cmd
    run_cmd.add_arguments(sub.add_parser("run", help="run a model's function on .npy inputs"))
    from . import compile as compile_cmd
    compile_cmd.add_arguments(sub.add_parser(
        "compile", help="compile a model to a shared library with a C header"))
    from ..frontends.onnx import command as import_cmd
    from ..frontends.torch import command as torch_import_cmd
    import_parser = sub.add_parser("import", help="import an ONNX model (.onnx) or a PyTorch "
                                   "program (.pt2, torch.export.save) and print the module")
    import_cmd.add_arguments(import_parser)
    torch_import_cmd.add_arguments(import_parser)
    cache_parser = sub.add_parser("cache", help="the compiled-model cache: where it is, "
                                  "what it holds, empty it")
    cache_parser.add_argument("action", choices=("info", "clear", "dir"),
                              help="info: its directory, entries and size; clear: remove "
                                   "every compiled model; dir: print the directory")
    args = ap.parse_args(argv)
    commands = {"demo": lambda a: demo(), "run": run_cmd.run, "compile": compile_cmd.run,
                "cache": cache_command,
                "import": lambda a: (torch_import_cmd.run if torch_import_cmd.handles(a.model)
                                     else import_cmd.run)(a)}
    try:
        return commands[args.cmd](args)
    except BrokenPipeError:
        # the reader went away (`strata run ... | head`): not an error of ours
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
