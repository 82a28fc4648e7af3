"""`strata compile --target cuda -o model.so` (strata/backends/cuda/library.py) checked
without a GPU: the library is built here (no CUDA toolkit), then run in a process of its
own through its checked C entry point with a fake libcuda.so.1 (tests/fakes) found
through LD_LIBRARY_PATH, or with none: the launch sequence, the weights uploaded once,
buffers reused, failures as an error status and one line."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from strata.tools.cli import main

from test_cuda_host import _dynamic_add, fake_lib  # noqa: F401  (a fixture)
from test_cuda_runtime import MODEL

RUN = Path(__file__).resolve().parents[1] / "fakes" / "run_library.py"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    d = tmp_path_factory.mktemp("cudalib")
    (d / "m.mlir").write_text(MODEL)
    assert main(["compile", str(d / "m.mlir"), "--target", "cuda", "-o",
                 str(d / "m.so")]) == 0
    return d / "m.so"


def _run(lib, *args, driver=None, env=None):
    e = {k: v for k, v in os.environ.items()
         if k not in ("STRATA_LIBCUDA", "LD_LIBRARY_PATH") and not k.startswith("FAKE_")}
    e["LD_LIBRARY_PATH"] = str(driver.parent) if driver else ""
    e.update(env or {})
    r = subprocess.run([sys.executable, str(RUN), str(lib), *args], capture_output=True,
                       text=True, env=e, timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_header_is_the_cpu_librarys(library):
    h = library.with_suffix(".h").read_text()
    assert "int strata_model_run(const strata_tensor *inputs" in h
    assert "const char *strata_last_error(void);" in h and "HOST memory" in h


def test_calls_through_the_fake_driver(library, fake_lib):
    first, second = _run(library, "4x300", "--calls", "2", driver=fake_lib)
    assert first["status"] == 0 and first["error"] is None
    assert first["shape"] == [4, 300] and first["count"] == 1200 and first["allocated"]
    log = first["log"]
    # started once: the PTX loaded, the weight (300 floats) uploaded, then the call
    assert log[:6] == ["cuInit", "stream create", "pool attribute 4 = 18446744073709551615",
                       "module load 1 kernels", "alloc 1200", "htod 1200"]
    launch = [ln for ln in log if ln.startswith("launch")]
    assert len(launch) == 1 and launch[0].startswith(
        "launch main_kernel grid 5 1 1 block 256 1 1 smem 0 args ")
    words = launch[0].split("args ")[1].split()
    assert words[2:7] == ["0", "4", "300", "300", "1"] and words[9:12] == ["0", "300", "1"]
    assert log[-4:] == ["dtoh 4800", "free 4864", "sync", "free 4800"]
    # the second call: nothing started again, the same device memory (the pool)
    assert not any(ln.startswith(("module", "cuInit", "htod 1200")) for ln in second["log"])
    assert [ln for ln in second["log"] if ln.startswith("launch")] == launch


def test_no_driver_is_an_error_status(library):
    out, = _run(library, "4x300")
    assert out["status"] == 2 and not out["allocated"]
    assert out["error"] == "@main: the cuda target needs an NVIDIA driver: libcuda.so.1 " \
        "was not found (no GPU driver installed on this machine)"


def test_launch_failure_names_kernel_and_op(library, fake_lib):
    out, = _run(library, "4x300", driver=fake_lib, env={"FAKE_CUDA_LAUNCH": "701"})
    assert out["status"] == 2 and not out["allocated"]
    assert out["error"] == "@main: kernel main_kernel::main_kernel (from Mul_0) failed " \
        "to launch: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
    # every device block of the call went back
    allocs = sum(ln.startswith("alloc") for ln in out["log"])
    assert allocs == 1 + sum(ln.startswith("free") for ln in out["log"])  # + the weight


def test_inputs_are_checked_before_anything_runs(library, fake_lib):
    out, = _run(library, "4x301", driver=fake_lib)
    assert out["status"] == 1 and out["error"] == \
        "input 'arg0' (#0): dim 1 is 301, expected 300 (4x300xfloat32)"
    assert out["log"] == []


def test_failed_run_time_check(tmp_path, fake_lib):
    path = tmp_path / "add.onnx"
    path.write_bytes(_dynamic_add().SerializeToString())
    assert main(["compile", str(path), "--target", "cuda", "-o", str(tmp_path / "a.so")]) == 0
    ok, bad = (_run(tmp_path / "a.so", "3x8", s, driver=fake_lib)[0] for s in ("3x8", "4x8"))
    assert ok["status"] == 0 and ok["shape"] == [3, 8]
    assert bad["status"] == 2 and not bad["allocated"]
    assert bad["error"].startswith("@main: run-time check failed: ") and "add0" in bad["error"]
    assert not [ln for ln in bad["log"] if ln.startswith("launch")]


def test_out_of_memory_names_the_op(library, fake_lib):
    out, = _run(library, "4x300", driver=fake_lib, env={"FAKE_CUDA_ALLOC_LIMIT": "4800"})
    assert out["status"] == 2 and not out["allocated"]
    assert out["error"].startswith("@main: out of device memory allocating 4864 bytes "
                                   f'for "{library.parent}')
    assert out["error"].endswith('m.mlir":6:8: CUDA_ERROR_OUT_OF_MEMORY')


def test_empty_view_output(tmp_path, fake_lib):
    """An empty output (a slice starting past the end: an empty view whose strides are
    not row-major) comes back as an empty tensor, not "a strided view" error."""
    from test_cuda_host import _slice_model
    path = tmp_path / "s.onnx"
    path.write_bytes(_slice_model([7], [9], [1], [1]).SerializeToString())
    assert main(["compile", str(path), "--target", "cuda", "-o", str(tmp_path / "s.so")]) == 0
    out, = _run(tmp_path / "s.so", "4x6x5", driver=fake_lib)
    assert out["status"] == 0 and out["error"] is None
    assert out["shape"] == [4, 0, 5] and out["count"] == 0
