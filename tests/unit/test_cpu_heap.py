"""strata/backends/cpu/heap.py: glibc told to keep freed blocks at the first CPU model
load ([Note: freed memory kept]), and $STRATA_KEEP_FREED_MEMORY=0 leaving it alone.
Each case runs in a fresh process (the setting is once per process)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_PROBE = r"""
import numpy as np, strata
from strata.backends.cpu import heap
from strata.dialects import default_context
from strata.syntax.parser import parse_source
f = strata.compile(parse_source('''
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}''', default_context(), "<probe>"), cache=False)
assert (f(np.ones(4, np.float32))[0] == 2).all()
print(heap._DONE)
"""


def _run(env_value):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("STRATA_KEEP_FREED_MEMORY", None)
    if env_value is not None:
        env["STRATA_KEEP_FREED_MEMORY"] = env_value
    r = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


def _glibc() -> bool:
    import ctypes
    try:
        return sys.platform == "linux" and hasattr(ctypes.CDLL(None), "gnu_get_libc_version")
    except OSError:
        return False


@pytest.mark.skipif(not _glibc(), reason="the heap is tuned on glibc only")
def test_first_load_keeps_freed_memory():
    assert _run(None) == "[True]"


def test_switched_off():
    assert _run("0") == "[False]"
