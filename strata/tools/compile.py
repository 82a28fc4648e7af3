"""`strata compile`: a model to a standalone shared library with a C header.

    strata compile model.onnx -o model.so                 # and model.h beside it
    strata compile model.onnx -o model.so --header include/model.h --function main
    strata compile model.onnx -o model.ll --emit=llvm     # the LLVM IR only
    strata compile model.onnx -o model.mlir --emit=mlir   # the llvm-dialect module
    strata compile model.onnx -o model.so --tune          # kernel tiles measured here
    strata compile model.onnx --target cuda --cuda-arch sm_80 --emit=ptx -o kernels/
                                  # kernels/<gpu.module>.ptx, no GPU needed
    strata compile model.onnx --target cuda -o model.so
                                  # a host library with the PTX and weights embedded
                                  # (strata/backends/cuda/library.py), same C API

`--tune` times a few tile sizes and thread splits for every matrix product and
convolution of the model on this machine (a progress bar on stderr) instead of taking
the cost model's; results are cached per CPU in $STRATA_CACHE_DIR (default
~/.cache/strata), so compiling again measures nothing (strata/backends/cpu/autotune.py).

Errors (a malformed model, an op the CPU target cannot compile, no C compiler) print one
located message on stderr and exit with status 1.
"""
from __future__ import annotations

import sys

from .run import add_cuda_arguments, add_ir_arguments


def add_arguments(p) -> None:
    p.add_argument("model", help="an .onnx, .pt2 (torch.export.save) or .mlir file")
    p.add_argument("-o", "--output", required=True, help="the file to write")
    p.add_argument("--emit", choices=("library", "llvm", "mlir", "asm", "ptx"),
                   default="library",
                   help="what to write: a shared library (default), LLVM IR, the llvm "
                        "dialect module, or assembly; with --target cuda: ptx (a folder "
                        "of <gpu.module>.ptx files) or mlir (the lowered module)")
    p.add_argument("--target", choices=("cpu", "cuda"), default="cpu",
                   help="the target to compile for (default cpu)")
    add_cuda_arguments(p)
    p.add_argument("--header", default=None,
                   help="the C header to write (default: the output with .h)")
    p.add_argument("--function", default=None, help="the entry function (default @main, or "
                                                    "the only function)")
    p.add_argument("-O", dest="opt_level", type=int, choices=(0, 1, 2, 3), default=3,
                   help="LLVM optimization level (default 3)")
    p.add_argument("--num-threads", type=int, default=0, metavar="N",
                   help="threads the model runs on (default 0: $STRATA_NUM_THREADS, else "
                        "the CPUs available); the library's "
                        "strata_model_set_num_threads changes it")
    p.add_argument("--tune", action="store_true",
                   help="measure the kernels' tile sizes and thread splits on this machine "
                        "(cached per CPU) instead of taking the cost model's")
    p.add_argument("--tune-time", type=float, default=0.0, metavar="SECONDS",
                   help="with --tune: seconds of timing per candidate (default "
                        "$STRATA_TUNE_TIME, else 0.03)")
    add_ir_arguments(p)


def run(args) -> int:
    from .. import progress
    from ..compiler import _model_label
    with progress.settings(False if args.quiet else None), \
            progress.step(f"compiling {_model_label(args.model)}",
                          after=progress.LONG_COMPILE_S):
        return _run(args)


def _run(args) -> int:
    import strata
    from ..compiler import CompileInstrumentation
    inst = CompileInstrumentation(args.print_ir_after_all, args.dump_dir) \
        if args.print_ir_after_all or args.dump_dir else None
    try:
        if args.target == "cuda":
            return _run_cuda(args, inst)
        if args.cuda_arch is not None:
            raise strata.StrataError("--cuda-arch needs --target cuda")
        if args.emit == "ptx":
            raise strata.StrataError("--emit=ptx needs --target cuda")
        if args.emit == "library":
            from ..backends.cpu.aot import build_shared_library
            info = build_shared_library(args.model, args.output, args.function, args.header,
                                        args.opt_level, inst, num_threads=args.num_threads,
                                        tune=args.tune, tune_time=args.tune_time)
            raw = f"_mlir_ciface_{info['function']}"
            print(f"wrote {info['library']} and {info['header']} (entry points "
                  + (f"strata_model_run, checked, and {raw})" if info["checked"] else
                     f"{raw}; no checked one: a rank above 16)"))
            return 0
        from ..backends.cpu.aot import lower_to_llvm
        low = lower_to_llvm(args.model, args.function, inst, opt_level=args.opt_level,
                            num_threads=args.num_threads, tune=args.tune,
                            tune_time=args.tune_time)
        module, ir = low["module"], low["ir"]
        if args.emit == "mlir":
            from ..syntax.printer import print_op
            text = print_op(module) + "\n"
        elif args.emit == "llvm":
            text = ir
        else:
            from ..backends.cpu.jit import emit_assembly
            text = emit_assembly(ir, opt_level=args.opt_level)
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output}")
        return 0
    except strata.StrataError as e:
        from ..ir.diagnostics import DiagnosticError
        print(str(e) if isinstance(e, DiagnosticError) else f"strata compile: error: {e}",
              file=sys.stderr)
        return 1
    except OSError as e:
        print(f"strata compile: error: {e}", file=sys.stderr)
        return 1


def _run_cuda(args, inst) -> int:
    """`strata compile --target cuda`: PTX (or the lowered module) without a GPU."""
    import os

    from ..backends.cuda.target import compile_ahead
    if args.emit == "library":
        from ..backends.cuda.library import build_host_library
        out = build_host_library(args.model, args.output, args.function, args.header,
                                 arch=args.cuda_arch, opt_level=args.opt_level,
                                 instrumentation=inst)
        print(f"wrote {out['library']} (PTX for {out['arch']}) and {out['header']}")
        return 0
    if args.emit not in ("ptx", "mlir"):
        from ..errors import StrataError
        raise StrataError(f"--target cuda writes a host library (the default), "
                          f"--emit=ptx or --emit=mlir, not --emit={args.emit}")
    program = compile_ahead(args.model, args.function, inst, arch=args.cuda_arch,
                            opt_level=args.opt_level)
    if args.emit == "mlir":
        from ..syntax.printer import print_op
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(print_op(program.module) + "\n")
        print(f"wrote {args.output}")
        return 0
    os.makedirs(args.output, exist_ok=True)
    for name, text in program.ptx.items():
        with open(os.path.join(args.output, f"{name}.ptx"), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"wrote {len(program.ptx)} PTX file(s) for {program.arch} in {args.output}")
    return 0
