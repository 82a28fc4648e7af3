"""`strata import model.pt2 [-o out.mlir] [-g] [--no-decompose]`: print the module a
PyTorch program saved by `torch.export.save` imports to (strata/tools/cli.py sends a
`.pt2` file here, anything else to the ONNX command).

Loading the file runs torch.export.load, which unpickles the program's weights: never
import a .pt2 file from a source you do not trust (strata/frontends/torch/program.py).
An error prints one line, `strata: error: model.py:12: node 'add' (aten.add.Tensor): ...`,
and exits with status 1."""
from __future__ import annotations

import sys

__all__ = ["add_arguments", "handles", "run"]


def handles(path: str) -> bool:
    """Whether `strata import` reads `path` as a PyTorch program."""
    return str(path).lower().endswith(".pt2")


def add_arguments(p) -> None:
    """The flags only a .pt2 import has (the ONNX command adds the file, -o and -g)."""
    p.add_argument("--no-decompose", action="store_true",
                   help="(.pt2) import the program's ops as they are, without first "
                        "decomposing them to the core ATen opset")


def run(args) -> int:
    from ..command import print_imported
    from . import import_program, load_program
    for flag in ("inline_constants", "expand_functions"):
        if getattr(args, flag, False):
            print(f"strata: error: --{flag.replace('_', '-')} is for ONNX models, not "
                  f"{args.model}", file=sys.stderr)
            return 1
    return print_imported(lambda: import_program(load_program(args.model),
                                                 decompose=not args.no_decompose),
                          args.output, args.debuginfo)
