"""A failed run-time check stops the compiled call ([Note: failed checks stop the call]
in strata/backends/cpu/guard.py): compiled code does not run on after a cf.assert that
failed, so nothing after it can trust the value it refused, whatever the later ops do
with it. Here the only guard on an index is the assertion itself (hand-written IR, no
clamping): before, the load after it read 4 TB past the tensor (SIGSEGV). Each case runs
in a subprocess, so a crash fails the test instead of killing pytest."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_IR = """
func.func @main(%t: tensor<4xf32>, %i: i64) -> f32 {
  %c4 = arith.constant 4 : i64
  %ok = arith.cmpi ult, %i, %c4 : i64
  cf.assert %ok, "index out of range [0, 4)"
  %j = arith.index_cast %i : i64 to index
  %v = tensor.extract %t[%j] : tensor<4xf32>
  return %v : f32
}
"""


def _run(code: str, *args) -> list:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr[-3000:]}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_failed_check_stops_the_jit_call(tmp_path):
    (tmp_path / "m.mlir").write_text(_IR)
    out = _run("""
        import json, sys
        import numpy as np
        import strata
        from strata.runtime import RuntimeFailure
        f = strata.compile(sys.argv[1])
        t = np.arange(4, dtype=np.float32)
        out = []
        for i in (2, 1 << 40, -1, 3):
            try:
                out.append(float(f(t, np.int64(i))[0]))
            except RuntimeFailure as e:
                out.append(str(e))
        print(json.dumps(out))
    """, str(tmp_path / "m.mlir"))
    assert out[0] == 2.0 and out[3] == 3.0
    # with the comparison's values, the unsigned one's as unsigned ([Note: failed
    # checks report their values])
    for msg, i in zip(out[1:3], (1 << 40, (1 << 64) - 1)):
        assert msg == ("@main: run-time check failed: index out of range [0, 4) "
                       f"(failed: {i} < 4)")


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler")
def test_a_failed_check_stops_a_shared_library_call(tmp_path):
    from strata.tools.cli import main as cli
    (tmp_path / "m.mlir").write_text(_IR)
    lib = tmp_path / "m.so"
    assert cli(["compile", str(tmp_path / "m.mlir"), "-o", str(lib)]) == 0
    out = _run("""
        import ctypes, json, sys
        import numpy as np
        from strata.runtime import descriptor_type
        lib = ctypes.CDLL(sys.argv[1])
        lib.strata_last_error.restype = ctypes.c_char_p
        D1 = descriptor_type(1)
        entry = lib._mlir_ciface_main
        entry.restype = ctypes.c_float
        entry.argtypes = [ctypes.POINTER(D1), ctypes.c_int64]
        t = np.arange(4, dtype=np.float32)
        d = D1(t.ctypes.data, t.ctypes.data, 0, (ctypes.c_int64 * 1)(4),
               (ctypes.c_int64 * 1)(1))
        out = []
        for i in (1, 1 << 40, 2):
            v = entry(ctypes.byref(d), i)
            err = lib.strata_last_error()
            out.append(err.decode() if err else v)
        print(json.dumps(out))
    """, str(lib))
    assert out == [1.0, "index out of range [0, 4) (failed: 1099511627776 < 4)", 2.0]
