"""LLVM IR for `nvptx64-nvidia-cuda` -> PTX text, with llvmlite's NVPTX backend.

    ptx = emit_ptx(llvm_ir, arch="sm_90")     # ".version 8.0 / .target sm_90 / .entry ..."

The LLVM IR is what the shared translation (backends/cpu/llvmir.py) prints for a
gpu.module lowered by convert-gpu-to-nvvm, with this file's triple and data layout
(`NVPTX_TRIPLE`, `nvptx_datalayout`). Kernels are `define ptx_kernel void @k(...)`.

[Note: PTX versions]
Each architecture needs a minimum PTX ISA version (sm_80: 7.0, sm_90: 7.8, sm_100: 8.6);
PTX is written in the lowest version its arch allows, so that a driver as old as the
architecture loads it (a driver JIT-compiles PTX of its own CUDA version and older only).
"""
from __future__ import annotations

import re
import time

from ...errors import StrataError

__all__ = ["NVPTX_TRIPLE", "DEFAULT_ARCH", "nvptx_datalayout", "emit_ptx", "check_arch",
           "ptx_version", "find_libdevice"]

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
DEFAULT_ARCH = "sm_90"

# arch -> minimum PTX ISA version (major*10 + minor), see [Note: PTX versions].
_MIN_PTX = {50: 40, 52: 41, 53: 42, 60: 50, 61: 50, 62: 50, 70: 60, 72: 61, 75: 63,
            80: 70, 86: 71, 87: 74, 89: 78, 90: 78, 100: 86, 101: 86, 103: 88, 120: 87,
            121: 88}
_ARCH = re.compile(r"sm_(\d+)([af]?)$")
_STATE: dict = {}


def check_arch(arch: str) -> str:
    """`arch` if it names an NVIDIA architecture LLVM's NVPTX backend knows (sm_80,
    sm_90, sm_90a...), else a StrataError listing the known ones."""
    m = _ARCH.match(arch or "")
    if m is None or int(m.group(1)) not in _MIN_PTX:
        known = ", ".join(f"sm_{n}" for n in sorted(_MIN_PTX))
        raise StrataError(f"unknown CUDA architecture '{arch}' (known: {known})")
    return arch


def ptx_version(arch: str) -> int:
    """The PTX ISA version (e.g. 78 for 7.8) PTX for `arch` is written in."""
    return _MIN_PTX[int(_ARCH.match(check_arch(arch)).group(1))]


def _llvm():
    llvm = _STATE.get("llvm")
    if llvm is None:
        import llvmlite.binding as llvm
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _STATE["llvm"] = llvm
    return llvm


def target_machine(arch: str = DEFAULT_ARCH, opt_level: int = 3):
    """llvmlite's NVPTX TargetMachine for `arch` (cached)."""
    key = ("tm", arch, opt_level)
    tm = _STATE.get(key)
    if tm is None:
        v = ptx_version(arch)
        tm = _llvm().Target.from_triple(NVPTX_TRIPLE).create_target_machine(
            cpu=arch, features=f"+ptx{v}", opt=opt_level)
        _STATE[key] = tm
    return tm


def nvptx_datalayout() -> str:
    """The data layout of 64-bit NVPTX (the same for every arch)."""
    dl = _STATE.get("dl")
    if dl is None:
        dl = _STATE["dl"] = str(target_machine().target_data)
    return dl


# [Note: what NVPTX cannot compile]
# LLVM aborts the process ("Cannot select") on an intrinsic NVPTX has no instruction for,
# and ptxas rejects a call of a function the PTX does not define. Before code generation
# the module's declarations are checked: transcendental intrinsics and C library
# functions are refused with the function's name (convert-gpu-to-nvvm sends them to
# libdevice instead: [Note: libdevice]), `__nv_*` are linked from libdevice, and the
# functions ptxas or the driver provide (__assertfail, malloc, free, vprintf) pass.
_UNSELECTABLE = re.compile(r"llvm\.(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|pow|"
                           r"exp|exp10|log|log2|log10|exp2)\.(f64|f32|f16|bf16)\b")
_PROVIDED = frozenset({"__assertfail", "malloc", "free", "vprintf"})
_DECLARE = re.compile(r"^declare [^@]*@\"?([\w.$]+)\"?\(", re.M)


def _check_declarations(llvm_ir: str) -> bool:
    """Refuse what NVPTX cannot compile (see the note); whether libdevice is needed."""
    libdevice = False
    for name in _DECLARE.findall(llvm_ir):
        if name.startswith("llvm."):
            m = _UNSELECTABLE.match(name)
            if m and not (m.group(1) == "exp2" and m.group(2) == "f32"):
                raise StrataError(f"the cuda target cannot compile {name} in a kernel "
                                  "(no NVPTX instruction; libdevice has it)")
        elif name.startswith("__nv_"):
            libdevice = True
        elif name not in _PROVIDED:
            raise StrataError(f"a kernel calls '{name}', which does not exist on the GPU")
    return libdevice


def find_libdevice() -> str | None:
    """The path of NVIDIA's libdevice.10.bc: $STRATA_LIBDEVICE, the nvidia CUDA wheels
    (nvidia-cuda-nvcc), Triton's copy, $CUDA_HOME or /usr/local/cuda; None if absent."""
    import glob
    import os
    env = os.environ.get("STRATA_LIBDEVICE")
    if env:
        return env if os.path.isfile(env) else None
    roots = []
    for pkg in ("nvidia", "triton"):
        try:
            mod = __import__(pkg)
            roots += list(getattr(mod, "__path__", ()))
        except ImportError:
            pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if home:
            roots.append(home)
    for root in roots:
        found = sorted(glob.glob(os.path.join(root, "**", "libdevice*.bc"),
                                 recursive=True))
        if found:
            return found[-1]
    return None


def _link_libdevice(mod):
    llvm = _llvm()
    path = find_libdevice()
    if path is None:
        raise StrataError("a kernel needs NVIDIA's libdevice (libdevice.10.bc) for its "
                          "math functions: pip install nvidia-cuda-nvcc, or set "
                          "$STRATA_LIBDEVICE")
    lib = _STATE.get(("libdevice", path))
    if lib is None:
        with open(path, "rb") as f:
            lib = _STATE[("libdevice", path)] = f.read()
    dev = llvm.parse_bitcode(lib)
    dev.triple = mod.triple
    dev.data_layout = mod.data_layout
    names = {f.name for f in dev.functions if not f.is_declaration}
    mod.link_in(dev)
    for f in mod.functions:       # only what the kernels call survives optimization
        if f.name in names and not f.is_declaration:
            f.linkage = "internal"


def emit_ptx(llvm_ir: str, arch: str = DEFAULT_ARCH, opt_level: int = 3,
             timings: dict | None = None) -> str:
    """PTX text of `llvm_ir` (an nvptx64 module) for `arch`, after LLVM's O<opt_level>
    pipeline, libdevice linked in where the kernels call it. Raises LLVMError (a
    StrataError) for IR LLVM rejects, StrataError for what NVPTX cannot compile."""
    from ..cpu.jit import _parse, optimize
    timings = {} if timings is None else timings
    needs_libdevice = _check_declarations(llvm_ir)
    mod = _parse(llvm_ir, timings)
    if needs_libdevice:
        _link_libdevice(mod)
    tm = target_machine(arch, opt_level)
    t0 = time.perf_counter()
    optimize(mod, opt_level, tm)
    timings["optimize"] = timings.get("optimize", 0.0) + time.perf_counter() - t0
    t0 = time.perf_counter()
    ptx = tm.emit_assembly(mod)
    timings["codegen"] = timings.get("codegen", 0.0) + time.perf_counter() - t0
    return ptx
