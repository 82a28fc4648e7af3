"""`strata import model.onnx [-o out.mlir] [--inline-constants] [--expand-functions]`:
print the module an ONNX model imports to (strata/tools/cli.py wires it in).

An import error prints one line, `strata: error: model.onnx: node 'n3' (Conv, #3): ...`,
and exits with status 1."""
from __future__ import annotations

__all__ = ["add_arguments", "run"]


def add_arguments(p) -> None:
    p.add_argument("model", help="the .onnx file (or a .pt2 file: "
                                 "strata/frontends/torch/command.py)")
    p.add_argument("-o", dest="output", default="-", metavar="FILE",
                   help="write the module here (default: standard output)")
    p.add_argument("--inline-constants", action="store_true",
                   help="print initializers and large constants as dense<...>, not as "
                        "resources")
    p.add_argument("--expand-functions", action="store_true",
                   help="expand ops that ONNX defines by a function (onnx-decompose)")
    p.add_argument("--debuginfo", "-g", action="store_true",
                   help="print locations (the ONNX node names)")


def run(args) -> int:
    from ..command import print_imported
    from . import import_model
    return print_imported(lambda: import_model(args.model,
                                               expand_functions=args.expand_functions,
                                               inline_constants=args.inline_constants),
                          args.output, args.debuginfo)
