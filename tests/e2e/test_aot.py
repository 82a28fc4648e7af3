"""`strata compile model.onnx -o model.so`: a standalone shared library with a C header,
loaded and run by the C example in examples/c (built here with the system C compiler),
against onnxruntime; its checked entry point `strata_model_run` fed bad inputs from a C
driver, each case in its own process (a crash fails the case, not pytest), built with
AddressSanitizer where the compiler has it (a leak or a bad free fails it too)."""
from __future__ import annotations

import ctypes
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
    assert "int strata_model_run(const strata_tensor *inputs, int64_t num_inputs," in header
    assert "UNCHECKED" in header
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
    # A features count the model does not take: the checked entry point refuses it.
    r = subprocess.run([str(exe), "2", "5"], capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == ("run failed (status 1): input 'input' (#0): dim 1 is 5, expected 4 "
                        "(Nx4xfloat32)\n")



def test_shared_library_of_a_pytorch_program(tmp_path):
    """`strata compile model.pt2 -o model.so`: the torch pipeline, then the same library
    and checked entry point as for ONNX."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    dims = ({0: torch.export.Dim("batch", min=1, max=64)},)
    ep = torch.export.export(net, (torch.randn(2, 4),), dynamic_shapes=dims)
    path = tmp_path / "mlp.pt2"
    torch.export.save(ep, path)
    lib = tmp_path / "mlp.so"
    assert cli(["compile", str(path), "-o", str(lib)]) == 0
    exe = tmp_path / "run_model"
    subprocess.run([CC, "-O2", "-I", str(tmp_path), "-include", "mlp.h", str(EXAMPLE),
                    str(lib), "-o", str(exe), f"-Wl,-rpath,{tmp_path}"], check=True)
    for batch in (1, 5):
        out = subprocess.run([str(exe), str(batch), "4"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
        rows, cols = map(int, out[0].split())
        got = np.array([[float(v) for v in line.split()] for line in out[1:1 + rows]],
                       np.float32).reshape(rows, cols)
        with torch.no_grad():
            ref = net(torch.from_numpy(_pattern(batch, 4))).numpy()
        assert got.shape == ref.shape
        assert np.max(np.abs(got - ref)) <= 1e-5
    r = subprocess.run([str(exe), "2", "5"], capture_output=True, text=True)
    assert r.returncode == 1 and "dim 1 is 5, expected 4" in r.stderr
    # the inputs are named as torch.export's signature names them (the forward's
    # parameter), not arg0 ([Note: input names])
    assert "'input'" in r.stderr, r.stderr
    header = (tmp_path / "mlp.h").read_text()
    assert "inputs[0]  'input': ?x4 float" in header and "'arg0'" not in header

def test_shared_library_of_a_program_with_a_none_output(tmp_path):
    """A PyTorch program returning None beside its tensor ([Note: None and scalar
    results] in strata/compiler.py) compiles to a library of its tensor outputs (the
    CPU target refused the '!torch.none' result)."""
    torch = pytest.importorskip("torch")

    class WithNone(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x) * 2, None

    ep = torch.export.export(WithNone(), (torch.randn(2, 4),))
    torch.export.save(ep, tmp_path / "none.pt2")
    lib = tmp_path / "none.so"
    assert cli(["compile", str(tmp_path / "none.pt2"), "-o", str(lib)]) == 0
    header = (tmp_path / "none.h").read_text()
    assert "_mlir_ciface_main(strata_memref2d *result, strata_memref2d *arg0);" in header
    x = _pattern(2, 4)
    status, message, got = _run_library(ctypes.CDLL(str(lib)), [x])
    assert status == 0, message
    np.testing.assert_allclose(got, np.maximum(x, 0) * 2)


class _Tensor(ctypes.Structure):
    """strata_tensor (the header's struct, STRATA_MAX_RANK 16)."""
    _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_int64),
                ("rank", ctypes.c_int64), ("shape", ctypes.c_int64 * 16),
                ("strides", ctypes.c_void_p), ("allocated", ctypes.c_void_p),
                ("type", ctypes.c_int32)]


def _run_library(lib, arrays):
    """strata_model_run of `lib` (a ctypes CDLL) on float32 `arrays`, one output:
    (status, strata_last_error(), the output array or None)."""
    ins = (_Tensor * len(arrays))()
    for t, a in zip(ins, arrays):
        t.data, t.count, t.rank = a.ctypes.data, a.size, a.ndim
        for d, n in enumerate(a.shape):
            t.shape[d] = n
    out = (_Tensor * 1)()
    status = lib.strata_model_run(ins, len(arrays), out, 1)
    message = lib.strata_last_error()
    if status != 0:
        assert not out[0].data and not out[0].allocated and out[0].count == 0
        return status, message.decode() if message else None, None
    o = out[0]
    shape = tuple(o.shape[d] for d in range(o.rank))
    got = np.ctypeslib.as_array(ctypes.cast(o.data, ctypes.POINTER(ctypes.c_float)),
                                shape=shape).copy()
    ctypes.CDLL(None).free(ctypes.c_void_p(o.allocated))
    return status, message, got


def test_shared_library_checks_symbolic_sizes(tmp_path):
    """A .pt2 with a Dim(min, max) and a derived dim (y has 2*s rows), compiled to a
    library: the generated code checks the sizes itself ([Note: symbolic sizes checked
    in the generated code]), so a size past the Dim's range and a y of the wrong size
    give STRATA_ERROR_RUNTIME and the check's message, no output; the good sizes
    answer as eager."""
    torch = pytest.importorskip("torch")

    class Pair(torch.nn.Module):
        def forward(self, x, y):
            return x.repeat(2, 1) + y

    s = torch.export.Dim("s", min=2, max=6)
    ep = torch.export.export(Pair(), (torch.randn(3, 4), torch.randn(6, 4)),
                             dynamic_shapes=({0: s}, {0: 2 * s}))
    torch.export.save(ep, tmp_path / "pair.pt2")
    assert cli(["compile", str(tmp_path / "pair.pt2"), "-o", str(tmp_path / "pair.so")]) == 0
    lib = ctypes.CDLL(str(tmp_path / "pair.so"))
    lib.strata_last_error.restype = ctypes.c_char_p

    def arrays(n, m):
        return (_pattern(n, 4), _pattern(m, 4) * 2)
    for n in (2, 5, 6):
        x, y = arrays(n, 2 * n)
        status, message, got = _run_library(lib, (x, y))
        assert (status, message) == (0, None)
        np.testing.assert_allclose(got, np.tile(x, (2, 1)) + y, rtol=1e-6)
    sym = str(next(iter(ep.range_constraints)))
    status, message, got = _run_library(lib, arrays(7, 14))
    assert (status, got) == (2, None)
    # the message ends with the comparison that failed, at its run-time values
    # ([Note: failed checks report their values])
    assert message == (f"@main: run-time check failed: input #0 ('x') dim 0 is the size "
                       f"{sym}, but the program was exported for {sym} in [2, 6] "
                       f"(failed: 7 <= 6)")
    status, message, got = _run_library(lib, arrays(1, 2))
    assert (status, got) == (2, None) and f"{sym} in [2, 6] (failed: 1 >= 2)" in message
    status, message, got = _run_library(lib, arrays(3, 7))
    assert (status, got) == (2, None)
    assert message == (f"@main: run-time check failed: input #1 ('y') dim 0 must be "
                       f"{sym} * 2 as the program's shapes make it ({sym} from input "
                       f"#0 ('x') dim 0) (failed: 7 == 6)")
    # and the next call works
    assert _run_library(lib, arrays(4, 8))[:2] == (0, None)


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


# ---------------------------------------------------------------- the checked entry point

_W = (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 7
_T = (np.arange(15, dtype=np.float32).reshape(5, 3) + 1) / 4


def _checked_model():
    """A, B: Nx4 float (dim param N shared); idx: K int64. Outputs: Y = (A + B) @ W,
    G = Gather(T, idx) (a run-time index check), Acopy = A (aliases an input), Wout = W
    (a weight), Y2 = Y (the block of another output)."""
    from onnx import TensorProto, helper, numpy_helper
    nodes = [helper.make_node("Add", ["A", "B"], ["S"], name="add0"),
             helper.make_node("MatMul", ["S", "W"], ["Y"], name="matmul0"),
             helper.make_node("Gather", ["T", "idx"], ["G"], name="gather0", axis=0),
             helper.make_node("Identity", ["A"], ["Acopy"], name="id0"),
             helper.make_node("Identity", ["W"], ["Wout"], name="id1"),
             helper.make_node("Identity", ["Y"], ["Y2"], name="id2")]
    f = TensorProto.FLOAT
    g = helper.make_graph(nodes, "checked", [
        helper.make_tensor_value_info("A", f, ["N", 4]),
        helper.make_tensor_value_info("B", f, ["N", 4]),
        helper.make_tensor_value_info("idx", TensorProto.INT64, ["K"])],
        [helper.make_tensor_value_info("Y", f, ["N", 3]),
         helper.make_tensor_value_info("G", f, ["K", 3]),
         helper.make_tensor_value_info("Acopy", f, ["N", 4]),
         helper.make_tensor_value_info("Wout", f, [4, 3]),
         helper.make_tensor_value_info("Y2", f, ["N", 3])],
        [numpy_helper.from_array(_W, "W"), numpy_helper.from_array(_T, "T")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)],
                             ir_version=10)


# Sets up one case (argv[1]) on top of good inputs (A, B: 3x4, idx = [4, 0, 2]), runs it
# (some twice), prints each run's status, message and outputs, frees every output.
_DRIVER_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#define NOUT 5
static float a[64], b[64];
static int64_t idx[8] = {4, 0, 2};
static float want_y[9];
static int failures;

/* Good calls, bad inputs and failing run-time checks in turn on several threads at
   once: each call's status, message and results are its own. */
static void *hammer(void *arg) {
  int64_t t = (int64_t)(intptr_t)arg, bad_idx[3] = {4, 9, 2};
  for (int i = 0; i < 300; ++i) {
    int kind = (int)((i + t) % 3);
    strata_tensor in[3] = {{a, 12, 2, {3, kind == 1 ? 5 : 4}, NULL},
                           {b, 12, 2, {3, 4}, NULL},
                           {kind == 2 ? bad_idx : idx, 3, 1, {3}, NULL}}, out[NOUT];
    int status = strata_model_run(in, 3, out, NOUT);
    const char *e = strata_last_error();
    int ok = status == kind && (kind == 0) == (e == NULL);
    if (kind == 1) ok = ok && strstr(e, "input 'A' (#0): dim 1 is 5") == e;
    if (kind == 2) ok = ok && strstr(e, "Gather at gather0") != NULL;
    for (int j = 0; ok && kind == 0 && j < 9; ++j)
      ok = ((float *)out[0].data)[j] == want_y[j];
    for (int o = 0; o < NOUT; ++o) free(out[o].allocated);
    if (!ok) __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

static int run(const strata_tensor *in, int64_t nin, int64_t nout) {
  strata_tensor out[NOUT];
  memset(out, 0x5a, sizeof out); /* garbage: the library must overwrite it */
  int status = strata_model_run(in, nin, out, nout);
  const char *error = strata_last_error();
  printf("status %d\n", status);
  printf("error %s\n", error ? error : "(none)");
  if (nout != NOUT) return status;
  for (int o = 0; o < NOUT; ++o) {
    printf("out %d %lld %lld %d %d", o, (long long)out[o].rank, (long long)out[o].count,
           out[o].strides != NULL, (int)out[o].type);
    for (int64_t d = 0; d < out[o].rank; ++d) printf(" %lld", (long long)out[o].shape[d]);
    printf(" :");
    for (int64_t i = 0; i < out[o].count; ++i) printf(" %.9g", ((float *)out[o].data)[i]);
    printf(out[o].data && out[o].allocated ? " data\n" :
           out[o].data || out[o].allocated ? " half\n" : " null\n");
    free(out[o].allocated); /* every output's block is the caller's */
  }
  return status;
}

int main(int argc, char **argv) {
  const char *c = argv[1];
  for (int i = 0; i < 64; ++i) a[i] = (float)(i % 7) * 0.25f - 0.5f;
  for (int i = 0; i < 64; ++i) b[i] = (float)(i % 5) * -0.125f + 0.25f;
  strata_tensor in[3] = {{a, 12, 2, {3, 4}, NULL}, {b, 12, 2, {3, 4}, NULL},
                         {idx, 3, 1, {3}, NULL}};
  int64_t nin = 3, nout = NOUT;
  static float at[64], rows[64], bcast[4];
  static int64_t col_major[2] = {1, 3}, padded[2] = {6, 1}, neg[2] = {-4, 1},
                 zero_row[2] = {0, 1}, contiguous[2] = {4, 1};
  char *misaligned = NULL;
  if (!strcmp(c, "good")) {
  } else if (!strcmp(c, "twice")) {
    run(in, nin, nout);
  } else if (!strcmp(c, "typed")) {  /* element types given, and right */
    in[0].type = in[1].type = STRATA_TYPE_FLOAT, in[2].type = STRATA_TYPE_INT64;
  } else if (!strcmp(c, "wrong_type")) {
    in[2].type = STRATA_TYPE_INT32;
  } else if (!strcmp(c, "column_major")) {  /* strides honoured: copied */
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) at[j * 3 + i] = a[i * 4 + j];
    in[0].data = at, in[0].strides = col_major;
  } else if (!strcmp(c, "padded_rows")) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) rows[i * 6 + j] = a[i * 4 + j];
    in[0].data = rows, in[0].count = 16, in[0].strides = padded;
  } else if (!strcmp(c, "broadcast_rows")) {  /* stride 0: every row is a's first */
    memcpy(bcast, a, sizeof bcast);
    for (int i = 0; i < 12; ++i) a[i] = a[i % 4];
    in[0].data = bcast, in[0].count = 4, in[0].strides = zero_row;
  } else if (!strcmp(c, "explicit_strides")) {
    in[0].strides = contiguous;
  } else if (!strcmp(c, "misaligned")) {
    misaligned = malloc(12 * sizeof(float) + 1);
    memcpy(misaligned + 1, a, 12 * sizeof(float));
    in[0].data = misaligned + 1;
  } else if (!strcmp(c, "empty_null")) {  /* no element: NULL data is fine */
    in[0] = (strata_tensor){NULL, 0, 2, {0, 4}, NULL};
    in[1] = (strata_tensor){NULL, 0, 2, {0, 4}, NULL};
  } else if (!strcmp(c, "wrong_static_dim")) {
    in[0].shape[1] = 5, in[0].count = 15;
  } else if (!strcmp(c, "negative_dim")) {
    in[0].shape[0] = in[1].shape[0] = -1;
  } else if (!strcmp(c, "null_data")) {
    in[1].data = NULL;
  } else if (!strcmp(c, "short_buffer")) {
    in[0].count = 11;
  } else if (!strcmp(c, "huge_rows")) {  /* 2^40 rows, 12 elements held */
    in[0].shape[0] = in[1].shape[0] = (int64_t)1 << 40;
  } else if (!strcmp(c, "huge_rows_claimed")) {  /* ... and a count that claims them */
    in[0].shape[0] = in[1].shape[0] = (int64_t)1 << 40;
    in[0].count = in[1].count = (int64_t)1 << 42;
    in[0].data = in[1].data = (void *)(UINTPTR_MAX - 4096);
  } else if (!strcmp(c, "count_overflow")) {
    in[0].shape[0] = in[1].shape[0] = (int64_t)1 << 62, in[0].count = INT64_MAX;
  } else if (!strcmp(c, "bytes_overflow")) {
    in[2].shape[0] = (int64_t)1 << 61, in[2].count = INT64_MAX;
  } else if (!strcmp(c, "stride_overflow")) {
    static int64_t big[2] = {(int64_t)1 << 62, 1};
    in[0].strides = big, in[0].count = INT64_MAX;
  } else if (!strcmp(c, "wrong_rank")) {
    in[0].rank = 3, in[0].shape[2] = 1;
  } else if (!strcmp(c, "rank_too_big")) {
    in[0].rank = 1000;
  } else if (!strcmp(c, "dims_disagree")) {
    in[1].shape[0] = 2;
  } else if (!strcmp(c, "negative_stride")) {
    in[0].strides = neg;
  } else if (!strcmp(c, "stride_past_end")) {
    in[0].strides = padded;  /* rows of 6: 16 elements addressed, 12 held */
  } else if (!strcmp(c, "negative_count")) {
    in[0].count = -1;
  } else if (!strcmp(c, "num_inputs")) {
    nin = 2;
  } else if (!strcmp(c, "null_inputs")) {
    return run(NULL, nin, nout) == 1 ? 0 : 3;
  } else if (!strcmp(c, "num_outputs")) {
    nout = 3;
  } else if (!strcmp(c, "null_outputs")) {
    int status = strata_model_run(in, nin, NULL, nout);
    printf("status %d\nerror %s\n", status, strata_last_error());
    return 0;
  } else if (!strcmp(c, "threads")) {
    strata_tensor out[NOUT];
    if (strata_model_run(in, nin, out, NOUT)) return 3;
    memcpy(want_y, out[0].data, sizeof want_y);
    for (int o = 0; o < NOUT; ++o) free(out[o].allocated);
    pthread_t threads[4];
    for (int t = 0; t < 4; ++t)
      pthread_create(&threads[t], NULL, hammer, (void *)(intptr_t)t);
    for (int t = 0; t < 4; ++t) pthread_join(threads[t], NULL);
    printf("failures %d\n", failures);
    return 0;
  } else if (!strcmp(c, "index_out_of_range")) {
    idx[1] = 7;
    run(in, nin, nout);
    idx[1] = 0;  /* the model is still usable afterwards */
  } else {
    return 2;
  }
  run(in, nin, nout);
  free(misaligned);
  return 0;
}
"""


def _asan(tmp_path):
    """-fsanitize=address where it builds and runs here (leaks and bad frees fail)."""
    src = tmp_path / "probe.c"
    src.write_text("#include <stdlib.h>\nint main(void) { free(malloc(8)); return 0; }\n")
    exe = tmp_path / "probe"
    flags = ["-fsanitize=address", "-fno-omit-frame-pointer"]
    r = subprocess.run([CC, *flags, str(src), "-o", str(exe)], capture_output=True)
    if r.returncode == 0 and \
            subprocess.run([str(exe)], capture_output=True).returncode == 0:
        return flags
    return []


@pytest.fixture(scope="module")
def checked_driver(tmp_path_factory):
    """The test model as a library and the driver built against it; the Python runtime's
    outputs for the good inputs."""
    import strata
    tmp = tmp_path_factory.mktemp("checked")
    model = _checked_model()
    path = tmp / "checked.onnx"
    path.write_bytes(model.SerializeToString())
    lib = tmp / "checked.so"
    assert cli(["compile", str(path), "-o", str(lib)]) == 0
    (tmp / "driver.c").write_text(_DRIVER_C)
    exe = tmp / "driver"
    subprocess.run([CC, "-O1", "-g", *_asan(tmp), "-I", str(tmp), "-include", "checked.h",
                    str(tmp / "driver.c"), str(lib), "-o", str(exe), "-lpthread",
                    f"-Wl,-rpath,{tmp}"], check=True)
    a = ((np.arange(12) % 7) * 0.25 - 0.5).astype(np.float32).reshape(3, 4)
    b = ((np.arange(12) % 5) * -0.125 + 0.25).astype(np.float32).reshape(3, 4)
    idx = np.array([4, 0, 2], np.int64)
    ref = strata.compile(model)(A=a, B=b, idx=idx)
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for r, o in zip(ref, sess.run(None, {"A": a, "B": b, "idx": idx})):
        np.testing.assert_allclose(r, o, rtol=1e-6, atol=1e-6)
    return exe, ref, (a, b, idx), model


def _drive(exe, case):
    """The runs of one case: [(status, message, [array or None per output])]."""
    r = subprocess.run([str(exe), case], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{case}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    runs, lines = [], r.stdout.splitlines()
    i = 0
    while i < len(lines):
        status = int(lines[i].split()[1])
        message = lines[i + 1].partition(" ")[2]
        i += 2
        outs = []
        while i < len(lines) and lines[i].startswith("out "):
            head, _, values = lines[i].partition(" :")
            _, _, rank, count, strided, type_, *shape = head.split()
            assert type_ == "1"  # outputs say their element type: all float here
            values = values.split()
            has_data = values.pop() == "data"
            assert strided == "0"  # outputs are contiguous: strides NULL
            assert len(shape) == int(rank) and len(values) == int(count)
            if status:  # nothing left to the caller by a failed run
                assert int(count) == 0 and not has_data, lines[i]
                outs.append(None)
            else:
                assert has_data == (int(count) > 0)
                outs.append(np.array([float(v) for v in values], np.float32).reshape(
                    [int(d) for d in shape]))
            i += 1
        runs.append((status, message, outs))
    return runs


def _assert_good(outs, ref):
    assert len(outs) == len(ref)
    for got, want in zip(outs, ref):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case", ["good", "twice", "typed", "column_major", "padded_rows",
                                  "explicit_strides", "misaligned"])
def test_checked_entry_good_calls(checked_driver, case):
    """Good calls, contiguous or through strides the library honours (copying), equal
    the Python runtime's outputs; every output is a block of the caller's own, also
    where the model's output aliases an input (Acopy), a weight (Wout) or another
    output (Y2); freeing each one is right (AddressSanitizer checks, where built)."""
    exe, ref, _, _ = checked_driver
    runs = _drive(exe, case)
    assert len(runs) == (2 if case == "twice" else 1)
    for status, message, outs in runs:
        assert (status, message) == (0, "(none)")
        _assert_good(outs, ref)


def test_checked_entry_broadcast_and_empty(checked_driver):
    """Stride 0 (a row broadcast) is honoured; empty inputs may have NULL data."""
    import strata
    exe, _, (a, b, idx), model = checked_driver
    (status, message, outs), = _drive(exe, "broadcast_rows")
    assert status == 0, message
    a0 = np.broadcast_to(a.reshape(-1)[:4], (3, 4)).copy()
    _assert_good(outs, strata.compile(model)(A=a0, B=b, idx=idx))
    (status, message, outs), = _drive(exe, "empty_null")
    assert status == 0, message
    assert [o.shape for o in outs] == [(0, 3), (3, 3), (0, 4), (4, 3), (0, 3)]


_BAD = {
    "wrong_type": (1, "input 'idx' (#2): element type 6 (int32), expected 7 (int64)"),
    "wrong_static_dim": (1, "input 'A' (#0): dim 1 is 5, expected 4 (Nx4xfloat32)"),
    "negative_dim": (1, "input 'A' (#0): dim 0 is -1, sizes must be >= 0"),
    "null_data": (1, "input 'B' (#1): data is NULL for 12 elements"),
    "short_buffer": (1, "input 'A' (#0): the buffer holds 11 elements, its shape "
                        "addresses 12"),
    "huge_rows": (1, "input 'A' (#0): the buffer holds 12 elements, its shape addresses "
                     "4398046511104"),
    "huge_rows_claimed": (1, "input 'A' (#0): 4398046511104 elements from"),
    "count_overflow": (1, "input 'A' (#0): its element count overflows int64"),
    "bytes_overflow": (1, "input 'idx' (#2): 2305843009213693952 elements of 8 bytes "
                          "overflow int64"),
    "stride_overflow": (1, "input 'A' (#0): the elements its strides address overflow"),
    "wrong_rank": (1, "input 'A' (#0): rank is 3, expected 2 (Nx4xfloat32)"),
    "rank_too_big": (1, "input 'A' (#0): rank is 1000, expected 2"),
    "dims_disagree": (1, "input 'B' (#1): dim 0 is 2, but input 'A' (#0) dim 0 is 3: "
                         "both are the dynamic dim 'N'"),
    "negative_stride": (1, "input 'A' (#0): stride 0 is -4, strides must be >= 0"),
    "stride_past_end": (1, "input 'A' (#0): the buffer holds 12 elements, its shape and "
                           "strides address 16"),
    "negative_count": (1, "input 'A' (#0): count is -1, must be >= 0"),
    "num_inputs": (1, "@main takes 3 inputs, got num_inputs = 2"),
    "null_inputs": (1, "@main: inputs is NULL"),
    "num_outputs": (1, "@main has 5 outputs, got num_outputs = 3"),
    "null_outputs": (1, "@main: outputs is NULL"),
}


@pytest.mark.parametrize("case", sorted(_BAD))
def test_checked_entry_refuses_bad_inputs(checked_driver, case):
    """Each bad call returns STRATA_ERROR_INPUT with the message naming the input (by
    its ONNX name) and what is wrong, before the model runs; no output is left."""
    exe, _, _, _ = checked_driver
    (status, message, outs), = _drive(exe, case)
    want_status, want = _BAD[case]
    assert status == want_status
    assert message.startswith(want), message
    assert all(o is None for o in outs)


def test_checked_entry_threads(checked_driver):
    """Four threads at once, each calling in turn with good inputs, a wrong static dim
    and an index out of range: every call gets its own status, message and results."""
    exe, _, _, _ = checked_driver
    r = subprocess.run([str(exe), "threads"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "failures 0\n"


def test_checked_entry_run_time_failure(checked_driver):
    """A failed run-time check inside the model (Gather's index out of range) makes the
    checked entry return STRATA_ERROR_RUNTIME with the check's message naming the node;
    whatever the run allocated is freed (AddressSanitizer's leak check, where built),
    and the next call works."""
    exe, ref, _, _ = checked_driver
    (status, message, outs), (status2, message2, outs2) = _drive(exe, "index_out_of_range")
    assert status == 2
    assert message == ("@main: run-time check failed: Gather at gather0: index out of "
                       "range [-5, 5) on data axis 0 (failed: 7 < 5)")
    assert all(o is None for o in outs)
    assert (status2, message2) == (0, "(none)")
    np.testing.assert_array_equal(outs2[1], _T[[4, 0, 2]])
    _assert_good(outs2, ref)


_SCALARS_MLIR = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<?xf32>, %s: f32, %z: tensor<f32>) -> (tensor<?xf32>, f32, tensor<f32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %t = arith.addf %s, %s : f32
  return %r, %t, %z : tensor<?xf32>, f32, tensor<f32>
}
"""

_SCALARS_C = r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  float x[3] = {1, 2, 3}, s = 2.5f, z = 7;
  strata_tensor in[3] = {{x, 3, 1, {3}, NULL}, {&s, 1, 0, {0}, NULL},
                         {&z, 1, 0, {0}, NULL}}, out[3];
  int status = strata_model_run(in, 3, out, 3);
  printf("%d %s\n", status, strata_last_error() ? "error" : "ok");
  for (int o = 0; o < 3; ++o) {
    printf("%lld %lld:", (long long)out[o].rank, (long long)out[o].count);
    for (int i = 0; i < out[o].count; ++i) printf(" %g", ((float *)out[o].data)[i]);
    printf("\n");
    free(out[o].allocated);
  }
  in[1].data = NULL;
  status = strata_model_run(in, 3, out, 3);
  printf("%d %s\n", status, strata_last_error());
  in[1].data = &s, in[1].rank = 1, in[1].shape[0] = 1;
  status = strata_model_run(in, 3, out, 3);
  printf("%d %s\n", status, strata_last_error());
  return 0;
}
"""


def test_checked_entry_scalars_and_rank_0(tmp_path):
    """Scalars passed by value at the raw entry point (a function's f32 argument and
    result) and rank-0 tensors are tensors of rank 0 at the checked one: checked (NULL,
    rank) and returned as buffers of one element."""
    (tmp_path / "s.mlir").write_text(_SCALARS_MLIR)
    lib = tmp_path / "s.so"
    assert cli(["compile", str(tmp_path / "s.mlir"), "-o", str(lib)]) == 0
    header = (tmp_path / "s.h").read_text()
    assert ("void _mlir_ciface_main(strata_main_results *results, strata_memref1d *arg0, "
            "float arg1, strata_memref0d *arg2);") in header
    assert "'arg1': scalar (by value) float" in header
    assert "'arg2': rank-0 float" in header
    (tmp_path / "drv.c").write_text(_SCALARS_C)
    exe = tmp_path / "drv"
    subprocess.run([CC, "-O1", *_asan(tmp_path), "-I", str(tmp_path), "-include", "s.h",
                    str(tmp_path / "drv.c"), str(lib), "-o", str(exe),
                    f"-Wl,-rpath,{tmp_path}"], check=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "0 ok", "1 3: 2.5 5 7.5", "0 1: 5", "0 1: 7",
        "1 input 'arg1' (#1): data is NULL for 1 element",
        "1 input 'arg1' (#1): rank is 1, expected 0 (float32)"]


def test_checked_entry_awkward_names(tmp_path):
    """ONNX names are any strings: quotes, backslashes, a comment's end, non-ASCII in
    input and dim-param names go into the header's comments and the library's messages
    intact (escaped in C, defused in comments) and the header still compiles, as C and
    as C++."""
    from onnx import TensorProto, helper
    x, y, n = 'x"*/\\ é', "y/*", 'n"*/'
    f = TensorProto.FLOAT
    g = helper.make_graph([helper.make_node("Add", [x, y], ["z*/"], name="add")], "g",
                          [helper.make_tensor_value_info(x, f, [n, 2]),
                           helper.make_tensor_value_info(y, f, [n, 2])],
                          [helper.make_tensor_value_info("z*/", f, [n, 2])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)],
                              ir_version=10)
    (tmp_path / "w.onnx").write_bytes(model.SerializeToString())
    lib = tmp_path / "w.so"
    assert cli(["compile", str(tmp_path / "w.onnx"), "-o", str(lib)]) == 0
    (tmp_path / "drv.c").write_text(r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  float u[6] = {1, 2, 3, 4, 5, 6}, v[6] = {1, 1, 1, 1, 1, 1};
  strata_tensor in[2] = {{u, 6, 2, {3, 2}, NULL}, {v, 6, 2, {2, 2}, NULL}}, out[1];
  int status = strata_model_run(in, 2, out, 1);
  printf("%d %s\n", status, strata_last_error());
  in[1].shape[0] = 3;
  printf("%d\n", strata_model_run(in, 2, out, 1));
  for (int i = 0; i < 6; ++i) printf(" %g", ((float *)out[0].data)[i]);
  free(out[0].allocated);
  in[0].shape[1] = 3;
  status = strata_model_run(in, 2, out, 1);
  printf("\n%d %s\n", status, strata_last_error());
  return 0;
}
""")
    exe = tmp_path / "drv"
    subprocess.run([CC, "-Wall", "-Werror", "-I", str(tmp_path), "-include", "w.h",
                    str(tmp_path / "drv.c"), str(lib), "-o", str(exe),
                    f"-Wl,-rpath,{tmp_path}"], check=True)
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is not None:  # the header is C++ too
        (tmp_path / "use.cc").write_text('#include "w.h"\nint run(strata_tensor *t) '
                                         '{ return strata_model_run(t, 2, t + 2, 1); }\n')
        subprocess.run([cxx, "-Wall", "-Werror", "-c", "-I", str(tmp_path),
                        str(tmp_path / "use.cc"), "-o", str(tmp_path / "use.o")],
                       check=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "1 input 'y/*' (#1): dim 0 is 2, but input 'x\"*/\\ é' (#0) dim 0 is 3: both "
        "are the dynamic dim 'n\"*/'",
        "0", " 2 3 4 5 6 7",
        "1 input 'x\"*/\\ é' (#0): dim 1 is 3, expected 2 (n\"*/x2xfloat32)"]


def test_rank_above_the_checked_limit(tmp_path):
    """A model with a rank-17 input still builds, with the raw entry point only; the
    header and the command say why there is no strata_model_run."""
    from onnx import TensorProto, helper
    shape = [1] * 16 + [2]
    f = TensorProto.FLOAT
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g",
                          [helper.make_tensor_value_info("x", f, shape)],
                          [helper.make_tensor_value_info("y", f, shape)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)],
                              ir_version=10)
    (tmp_path / "r.onnx").write_bytes(model.SerializeToString())
    assert cli(["compile", str(tmp_path / "r.onnx"), "-o", str(tmp_path / "r.so")]) == 0
    header = (tmp_path / "r.h").read_text()
    assert "strata_model_run" in header and "rank above 16" in header
    assert "int strata_model_run(" not in header
    assert "void _mlir_ciface_main(strata_memref17d *result, strata_memref17d *arg0);" \
        in header
