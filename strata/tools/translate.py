"""strata-translate: the mlir-translate of Strata.

    strata-translate --mlir-to-llvmir input.mlir [-o out.ll] [--host-target]
                     [--split-input-file]

Reads an llvm-dialect module and prints its LLVM IR. As mlir-translate, the IR names no
target unless the module says so (`llvm.target_triple`, `llvm.data_layout` attributes on
the module); `--host-target` adds the host's triple and data layout. Errors are located
diagnostics and exit code 1.
"""
from __future__ import annotations

import argparse
import sys

from ..ir.diagnostics import DiagnosticError, SourceManager
from .opt import SPLIT_MARKER, split_chunks


def _args(argv):
    ap = argparse.ArgumentParser(prog="strata-translate", description=__doc__.split("\n")[0])
    ap.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    ap.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    ap.add_argument("--mlir-to-llvmir", "-mlir-to-llvmir", action="store_true",
                    help="translate an llvm-dialect module to LLVM IR")
    ap.add_argument("--host-target", action="store_true",
                    help="name the host's target triple and data layout in the IR")
    ap.add_argument("--split-input-file", action="store_true",
                    help="translate each '// -----' chunk alone")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = _args(argv)
    err = sys.stderr
    if not args.mlir_to_llvmir:
        err.write("error: no translation given (use --mlir-to-llvmir)\n")
        return 1
    from ..backends.cpu.llvmir import translate_to_llvmir
    from ..dialects import default_context
    from ..syntax.parser import parse_source
    name = "<stdin>" if args.input == "-" else args.input
    try:
        text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    except OSError as e:
        err.write(f"error: could not open input file '{name}': {e.strerror}\n")
        return 1
    sources = SourceManager()
    sources.add(name, text)
    chunks = split_chunks(text, SPLIT_MARKER, None) if args.split_input_file else \
        [(text, 0, 0)]
    outputs, ok = [], True
    for chunk, off, col in chunks:
        try:
            module = parse_source(chunk, default_context(), name, off, col_offset=col)
            attrs = module.attributes
            triple = attrs.get("llvm.target_triple")
            layout = attrs.get("llvm.data_layout")
            if args.host_target:
                from ..backends.cpu.jit import host_triple_and_layout
                host = host_triple_and_layout()
            else:
                host = ("", "")
            outputs.append(translate_to_llvmir(
                module, triple=triple.value if triple is not None else host[0],
                datalayout=layout.value if layout is not None else host[1],
                module_name="LLVMDialectModule"))
        except DiagnosticError as e:
            err.write(e.diag.render(sources) + "\n")
            ok = False
            outputs.append("")
    result = (SPLIT_MARKER + "\n").join(outputs)
    if args.output == "-":
        sys.stdout.write(result)
    else:
        with open(args.output, "w") as f:
            f.write(result)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
