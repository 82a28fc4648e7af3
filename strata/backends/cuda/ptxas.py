"""Assembling PTX with NVIDIA's `ptxas`, to check what the cuda target emits on machines
without a GPU (CI): the PTX the driver would JIT must assemble for sm_80 and sm_90.

    from strata.backends.cuda import ptxas
    ptxas.check(ptx_text, "sm_90")       # PtxasError with ptxas's messages if it fails
    ptxas.find()                         # path of ptxas, or None

`ptxas` comes from the PyPI package `nvidia-cuda-nvcc` (a test dependency:
`<site-packages>/nvidia/cu13/bin/ptxas`, or cu12 for CUDA 12), found through the
`nvidia` namespace package; $STRATA_PTXAS, then a `ptxas` on the PATH, come first.
No CUDA toolkit or GPU is needed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

from ...errors import StrataError
from .ptx import check_arch

__all__ = ["find", "check", "resources", "PtxasError", "PtxasMissing"]


class PtxasError(StrataError):
    """ptxas rejected a PTX text (the message holds its diagnostics)."""


class PtxasMissing(StrataError):
    """No ptxas was found."""


def find() -> str | None:
    """The path of a ptxas executable, or None (see the module doc for the order)."""
    env = os.environ.get("STRATA_PTXAS")
    if env:
        return env if os.access(env, os.X_OK) else None
    found = []
    try:
        import nvidia  # the namespace package of NVIDIA's PyPI wheels
        for root in getattr(nvidia, "__path__", ()):
            for sub in sorted(os.listdir(root), reverse=True):   # cu13 before cu12
                for rel in (("bin", "ptxas"), ("cuda_nvcc", "bin", "ptxas")):
                    p = os.path.join(root, sub, *rel)
                    if os.access(p, os.X_OK):
                        found.append(p)
    except (ImportError, OSError):
        pass
    if found:
        return found[0]
    return shutil.which("ptxas")


def check(ptx: str, arch: str = "sm_90", name: str = "kernel.ptx") -> None:
    """Assemble `ptx` for `arch` with ptxas, discarding the output; PtxasError (naming
    `name`) with ptxas's diagnostics if it fails, PtxasMissing if there is no ptxas."""
    _assemble(ptx, arch, name, ())


def resources(ptx: str, arch: str = "sm_90", name: str = "kernel.ptx") -> dict:
    """What each kernel of `ptx` uses once assembled for `arch` (`ptxas -v`): {kernel:
    {"registers", "smem", "stack", "spill_stores", "spill_loads"}} (bytes but
    registers)."""
    out = _assemble(ptx, arch, name, ("-v",))
    usage, cur = {}, None
    for line in out.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$.]+)'?",
                      line)
        if m:
            cur = usage.setdefault(m.group(1), {"registers": 0, "smem": 0, "stack": 0,
                                                "spill_stores": 0, "spill_loads": 0})
            continue
        if cur is None:
            continue
        for key, pat in (("stack", r"(\d+) bytes stack frame"),
                         ("spill_stores", r"(\d+) bytes spill stores"),
                         ("spill_loads", r"(\d+) bytes spill loads"),
                         ("registers", r"Used (\d+) registers"),
                         ("smem", r"(\d+) bytes smem")):
            m = re.search(pat, line)
            if m:
                cur[key] = int(m.group(1))
    return usage


def _assemble(ptx, arch, name, flags) -> str:
    check_arch(arch)
    exe = find()
    if exe is None:
        raise PtxasMissing("ptxas not found: pip install nvidia-cuda-nvcc (or set "
                           "$STRATA_PTXAS)")
    with tempfile.TemporaryDirectory(prefix="strata-ptxas-") as d:
        src = os.path.join(d, os.path.basename(name) or "kernel.ptx")
        with open(src, "w", encoding="utf-8") as f:
            f.write(ptx)
        try:
            r = subprocess.run([exe, f"-arch={arch}", *flags, src, "-o", os.devnull],
                               capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise PtxasError(f"{name}: ptxas could not run: {e}") from None
    if r.returncode != 0:
        msg = (r.stderr or r.stdout).strip().replace(src, name)
        raise PtxasError(f"{name}: ptxas -arch={arch} failed:\n{msg}")
    return r.stdout + r.stderr
