"""`strata compile model.onnx -o model.so`: a standalone shared library with a C header,
loaded and run by the C example in examples/c (built here with the system C compiler),
against onnxruntime."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")

from models import mlp  # noqa: E402

from strata.tools.cli import main as cli  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "c" / "run_model.c"
CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")


def _pattern(batch, features):
    return ((np.arange(batch * features) % 7) * 0.25 - 0.5).astype(np.float32).reshape(
        batch, features)


def test_shared_library_runs_from_c(tmp_path, capsys):
    model = mlp(sizes=(4, 16, 16, 3))
    path = tmp_path / "mlp.onnx"
    path.write_bytes(model.SerializeToString())
    lib = tmp_path / "mlp.so"
    assert cli(["compile", str(path), "-o", str(lib)]) == 0
    header = (tmp_path / "mlp.h").read_text()
    assert "_mlir_ciface_main(strata_memref2d *result, strata_memref2d *arg0);" in header
    assert "'input': ?x4 float" in header
    exe = tmp_path / "run_model"
    subprocess.run([CC, "-O2", "-I", str(tmp_path), "-include", "mlp.h", str(EXAMPLE),
                    str(lib), "-o", str(exe), f"-Wl,-rpath,{tmp_path}"], check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for batch in (1, 5):
        out = subprocess.run([str(exe), str(batch), "4"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
        rows, cols = map(int, out[0].split())
        got = np.array([[float(v) for v in line.split()] for line in out[1:1 + rows]],
                       np.float32).reshape(rows, cols)
        ref = sess.run(None, {"input": _pattern(batch, 4)})[0]
        assert got.shape == ref.shape
        assert np.max(np.abs(got - ref)) <= 1e-5


def test_emit_llvm_and_mlir(tmp_path):
    path = tmp_path / "mlp.onnx"
    path.write_bytes(mlp(sizes=(4, 8, 3)).SerializeToString())
    assert cli(["compile", str(path), "-o", str(tmp_path / "m.ll"), "--emit=llvm"]) == 0
    ll = (tmp_path / "m.ll").read_text()
    assert "define void @_mlir_ciface_main(" in ll
    assert cli(["compile", str(path), "-o", str(tmp_path / "m.mlir"), "--emit=mlir"]) == 0
    assert "llvm.func @main(" in (tmp_path / "m.mlir").read_text()


def test_dump_dir_and_print_ir(tmp_path, capsys):
    path = tmp_path / "mlp.onnx"
    path.write_bytes(mlp(sizes=(4, 8, 3)).SerializeToString())
    dump = tmp_path / "dump"
    np.save(tmp_path / "x.npy", _pattern(2, 4))
    assert cli(["run", str(path), "--input", str(tmp_path / "x.npy"), "--target", "cpu",
                "--dump-dir", str(dump), "--print-ir-after-all"]) == 0
    names = sorted(p.name for p in dump.iterdir())
    assert any("one-shot-bufferize" in n for n in names)
    assert any(n.endswith("module.ll") for n in names)
    err = capsys.readouterr().err
    assert "IR Dump After" in err and "// -----// module.ll" in err


def test_bad_model_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "broken.onnx"
    path.write_bytes(b"not a model")
    assert cli(["compile", str(path), "-o", str(tmp_path / "x.so")]) == 1
    err = capsys.readouterr().err
    assert "broken.onnx" in err and "Traceback" not in err


_THREADS_C = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float *run(float *x, int64_t batch, int64_t features, int64_t *n) {
  strata_memref2d input = {x, x, 0, {batch, features}, {features, 1}};
  strata_memref2d output;
  _mlir_ciface_main(&output, &input);
  *n = output.sizes[0] * output.sizes[1];
  return (float *)output.aligned + output.offset;
}

int main(void) {
  int64_t batch = 256, features = 128, n = 0;
  float *x = malloc(sizeof(float) * batch * features);
  for (int64_t i = 0; i < batch * features; ++i) x[i] = (float)(i % 7) * 0.25f - 0.5f;
  printf("%d", (int)strata_model_get_num_threads());
  float *a = run(x, batch, features, &n);
  strata_model_set_num_threads(1);
  printf(" %d", (int)strata_model_get_num_threads());
  float *b = run(x, batch, features, &n);
  double diff = 0;
  for (int64_t i = 0; i < n; ++i) diff = fmax(diff, fabs((double)a[i] - b[i]));
  strata_model_set_num_threads(0);
  printf(" %d %g\n", (int)strata_model_get_num_threads() > 0, diff);
  return 0;
}
"""


def test_shared_library_threads(tmp_path):
    """--num-threads: the library's model runs on 3 threads, then on 1 after
    strata_model_set_num_threads(1); the results do not depend on it."""
    model = mlp(sizes=(128, 256, 256, 64))
    path = tmp_path / "mlp.onnx"
    path.write_bytes(model.SerializeToString())
    lib = tmp_path / "mlp.so"
    assert cli(["compile", str(path), "-o", str(lib), "--num-threads", "3"]) == 0
    assert "void strata_model_set_num_threads(int32_t n);" in (tmp_path / "mlp.h").read_text()
    (tmp_path / "threads.c").write_text(_THREADS_C)
    exe = tmp_path / "threads"
    subprocess.run([CC, "-O2", "-I", str(tmp_path), "-include", "mlp.h",
                    str(tmp_path / "threads.c"), str(lib), "-lm", "-o", str(exe),
                    f"-Wl,-rpath,{tmp_path}"], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["3", "1", "1", "0"]
