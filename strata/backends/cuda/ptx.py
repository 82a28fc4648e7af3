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
           "ptx_version"]

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


def emit_ptx(llvm_ir: str, arch: str = DEFAULT_ARCH, opt_level: int = 3,
             timings: dict | None = None) -> str:
    """PTX text of `llvm_ir` (an nvptx64 module) for `arch`, after LLVM's O<opt_level>
    pipeline. Raises LLVMError (a StrataError) for IR LLVM rejects."""
    from ..cpu.jit import _parse, optimize
    timings = {} if timings is None else timings
    mod = _parse(llvm_ir, timings)
    tm = target_machine(arch, opt_level)
    t0 = time.perf_counter()
    optimize(mod, opt_level, tm)
    timings["optimize"] = timings.get("optimize", 0.0) + time.perf_counter() - t0
    t0 = time.perf_counter()
    ptx = tm.emit_assembly(mod)
    timings["codegen"] = timings.get("codegen", 0.0) + time.perf_counter() - t0
    return ptx
