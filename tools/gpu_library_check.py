"""The cuda host library on a GPU (issue 19 item 2, run by tools/gpu_check.sh): an MLP
(tests/e2e/models.py) compiled with `strata compile` for the cpu target and for the
cuda target, both run from C by examples/c/run_model.c at batch 1, 3 and 64, their
printed outputs compared. Without a GPU it stops at the cuda library's first run, which
fails with one line naming what is missing (so the script itself can be tried
anywhere).

    python tools/gpu_library_check.py          # exit status 0 when they agree
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))


def _build(tmp: Path, onnx_path: Path, target: str) -> Path:
    from strata.tools.cli import main
    so = tmp / f"{target}.so"
    args = ["compile", str(onnx_path), "-o", str(so)]
    if target == "cuda":
        args += ["--target", "cuda"]
    if main(args) != 0:
        raise SystemExit(f"strata compile --target {target} failed")
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    exe = tmp / f"run_{target}"
    subprocess.run([cc, "-O2", f"-I{tmp}", "-include", str(so.with_suffix(".h")),
                    str(ROOT / "examples" / "c" / "run_model.c"), str(so), "-o", str(exe),
                    f"-Wl,-rpath,{tmp}"], check=True)
    return exe


def main() -> int:
    import numpy as np
    from models import mlp
    with tempfile.TemporaryDirectory(prefix="strata-gpulib-") as d:
        tmp = Path(d)
        path = tmp / "mlp.onnx"
        path.write_bytes(mlp().SerializeToString())
        cpu, gpu = _build(tmp, path, "cpu"), _build(tmp, path, "cuda")
        worst = 0.0
        for batch in (1, 3, 64):
            want = subprocess.run([str(cpu), str(batch), "64"], capture_output=True,
                                  text=True, check=True).stdout.split("\n", 1)
            got = subprocess.run([str(gpu), str(batch), "64"], capture_output=True,
                                 text=True)
            if got.returncode != 0:
                print(f"cuda library, batch {batch}: status {got.returncode}: "
                      f"{got.stderr.strip()}")
                return 1
            out = got.stdout.split("\n", 1)
            if out[0] != want[0]:
                print(f"batch {batch}: shape {out[0]} != {want[0]}")
                return 1
            a = np.array(out[1].split(), np.float64)
            b = np.array(want[1].split(), np.float64)
            worst = max(worst, float(np.max(np.abs(a - b) / (np.abs(b) + 1e-6))))
        print(f"cuda host library vs cpu library (MLP, batch 1/3/64): max rel diff "
              f"{worst:.2e}")
        return 0 if worst < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
