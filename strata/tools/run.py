"""`strata run`: run a model's function on inputs from .npy files.

    strata run model.onnx --input X=x.npy                    # native code (--target=cpu)
    strata run model.onnx --interpret --input X=x.npy        # --target=interpret
    strata run model.onnx --target cuda --input X=x.npy      # on an NVIDIA GPU
    strata run model.mlir --interpret --function f --input a.npy --input b.npy \
        --output-dir out/            # writes out/<output name>.npy instead of printing

Inputs are `name=path.npy` (by input name) or `path.npy` (in order). Any error (a bad
file, a malformed model, inputs of the wrong shape, an op that fails at run time) prints
one located message on stderr and exits with status 1.
"""
from __future__ import annotations

import os
import sys


def add_arguments(p) -> None:
    p.add_argument("model", help="an .onnx, .pt2 (torch.export.save) or .mlir file")
    p.add_argument("--interpret", dest="target", action="store_const", const="interpret",
                   help="run with the NumPy reference interpreter (--target=interpret)")
    p.add_argument("--target", default=None,
                   help="the compilation target: cpu, cuda or interpret (default: "
                        "strata.compile's default)")
    add_cuda_arguments(p)
    p.add_argument("--cuda-graphs", action="store_true",
                   help="with --target cuda: capture the launch sequence as a CUDA graph "
                        "per input shape and replay it")
    p.add_argument("--function", default=None, help="the function to run (default @main, "
                                                    "or the only function)")
    p.add_argument("--input", action="append", default=[], metavar="[NAME=]FILE.npy",
                   help="an input array, by name or in order (repeatable)")
    p.add_argument("--pipeline", default=None,
                   help="passes to run instead of the target's pipeline ('' for none)")
    p.add_argument("--output-dir", default=None,
                   help="save each output as <dir>/<name>.npy instead of printing it")
    p.add_argument("--no-cache", action="store_true",
                   help="compile the model even if the compiled-model cache has it, and "
                        "do not keep it there (see `strata cache`)")
    add_ir_arguments(p)


def add_cuda_arguments(p) -> None:
    """--cuda-arch (shared with `strata compile`)."""
    p.add_argument("--cuda-arch", default=None, metavar="sm_XY",
                   help="with --target cuda: the GPU architecture to write PTX for (sm_80, "
                        "sm_90...; default: the device's, else sm_90)")


def cuda_options(args) -> dict:
    """The target options the cuda flags ask for (none for other targets)."""
    opts = {}
    if getattr(args, "cuda_arch", None) is not None:
        if args.target != "cuda":
            raise _UsageError("--cuda-arch needs --target cuda")
        opts["cuda_arch"] = args.cuda_arch
    if getattr(args, "cuda_graphs", False):
        if args.target != "cuda":
            raise _UsageError("--cuda-graphs needs --target cuda")
        opts["cuda_graphs"] = True
    return opts


def add_ir_arguments(p) -> None:
    """--print-ir-after-all and --dump-dir (shared with `strata compile`)."""
    p.add_argument("--print-ir-after-all", action="store_true",
                   help="print the IR after every pass (and the LLVM IR) on stderr")
    p.add_argument("--dump-dir", default=None, metavar="DIR",
                   help="write the IR after every pass, and the LLVM IR, as numbered files "
                        "in DIR")
    p.add_argument("--quiet", action="store_true",
                   help="no notices on stderr while slow steps run (kernel builds, "
                        "autotuning, long compiles; see strata/progress.py)")


def _load_inputs(specs):
    import numpy as np
    positional, named = [], {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = None, spec
        try:
            value = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise _UsageError(f"cannot read input '{path}': {e}") from None
        if name is None:
            if named:
                raise _UsageError("positional inputs must come before named ones")
            positional.append(value)
        else:
            named[name] = value
    return positional, named


class _UsageError(Exception):
    pass


def _safe_name(name: str, i: int) -> str:
    keep = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip(".")
    return keep or f"output{i}"


def run(args) -> int:
    import numpy as np
    import strata
    try:
        positional, named = _load_inputs(args.input)
        from ..compiler import DEFAULT_TARGET
        f = strata.compile(args.model, target=args.target or DEFAULT_TARGET,
                           function=args.function, pipeline=args.pipeline,
                           print_ir_after_all=args.print_ir_after_all,
                           dump_dir=args.dump_dir, progress=False if args.quiet else None,
                           cache=False if args.no_cache else None,
                           **cuda_options(args))
        with np.errstate(all="ignore"):
            # (a PyTorch program's outputs as a flat list, not in the model's structure)
            outputs = getattr(f, "flat", f)(*positional, **named)
    except (strata.StrataError, _UsageError) as e:
        from ..ir.diagnostics import DiagnosticError
        # Located diagnostics speak for themselves; other errors get the command's name.
        print(str(e) if isinstance(e, DiagnosticError) else f"strata run: error: {e}",
              file=sys.stderr)
        return 1
    except (TypeError, ValueError, OSError) as e:
        print(f"strata run: error: {e}", file=sys.stderr)
        return 1
    for i, (name, value) in enumerate(zip(f.output_names, outputs)):
        if args.output_dir and value is None:   # a program's None output: no array
            print(f"{name}: none (not saved)")
        elif args.output_dir:
            os.makedirs(args.output_dir, exist_ok=True)
            path = os.path.join(args.output_dir, _safe_name(name, i) + ".npy")
            np.save(path, value.numpy() if hasattr(value, "__cuda_array_interface__")
                    else np.asarray(value))
            print(f"{name}: {_describe(value)} -> {path}")
        else:
            print(f"{name}: {_describe(value)}")
            if hasattr(value, "numpy") and hasattr(value, "__cuda_array_interface__"):
                value = value.numpy()   # a cuda target's output, on the device
            print(np.array2string(np.asarray(value), threshold=200) if value is not None
                  and not isinstance(value, list) else repr(value))
    return 0


def _describe(v) -> str:
    import numpy as np
    if v is None:
        return "none"
    if isinstance(v, list):
        return f"sequence of {len(v)}"
    a = np.asarray(v)
    return f"{a.dtype}{list(a.shape)}"
