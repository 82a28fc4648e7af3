"""The cuda target's host side as native code (strata/backends/cuda/host.py), checked
without a GPU against a fake libcuda.so.1 written in C (tests/fakes/fake_libcuda.c,
built here with cc): the launch sequence one native call makes (grid, block, argument
words), buffer reuse across calls, failures naming the kernel and its op, the fallback
to the launch plan."""
from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper

import strata
from strata.backends.cuda import runtime as R
from strata.backends.cuda.host import LAUNCH, lower_host
from strata.backends.cuda.target import compile_ahead
from strata.dialects import default_context
from strata.syntax.parser import parse_source

from test_cuda_runtime import MODEL, reshape_model  # noqa: E402  (tests/unit on sys.path)

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "fake_libcuda.c"


def _cc():
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


@pytest.fixture(scope="session")
def fake_lib(tmp_path_factory):
    if _cc() is None:
        pytest.skip("no C compiler (cc) to build the fake libcuda")
    d = tmp_path_factory.mktemp("fakecuda")
    out = d / "libcuda.so.1"
    subprocess.run([_cc(), "-shared", "-fPIC", "-O1", "-o", str(out), str(FAKE)],
                   check=True)
    return out


@pytest.fixture
def fake(fake_lib, monkeypatch):
    monkeypatch.setattr(R, "_DRIVER", [])
    monkeypatch.setenv("STRATA_LIBCUDA", str(fake_lib))
    for v in ("FAKE_CUDA_LAUNCH", "FAKE_CUDA_SYNC", "FAKE_CUDA_ALLOC_LIMIT",
              "STRATA_CUDA_HOST"):
        monkeypatch.delenv(v, raising=False)
    lib = ctypes.CDLL(str(fake_lib))
    lib.fake_cuda_log.restype = ctypes.c_char_p
    lib.fake_cuda_fresh_allocs.restype = ctypes.c_long
    lib.fake_cuda_live_bytes.restype = ctypes.c_long
    return lib


def _log(lib):
    text = lib.fake_cuda_log().decode()
    lib.fake_cuda_clear()
    return text.splitlines()


def _model(program=None):
    program = program or compile_ahead(parse_source(MODEL, default_context(), "m.mlir"))
    return R.CudaModel(R.driver(), program, "main")


def test_host_code_calls_the_shim():
    program = compile_ahead(parse_source(MODEL, default_context(), "m.mlir"))
    host = program.host["main"]
    assert host.fallback is None and host.sites == [("main_kernel", "main_kernel", "Mul_0")]
    assert f"call void @{LAUNCH}(i64 0, i64 5, i64 1, i64 1, i64 256, i64 1, i64 1, i64 0" \
        in host.ir
    assert "@__strata_cuda_malloc(" in host.ir and "@malloc(" not in host.ir
    assert [a.shape for a in host.weights.values()] == [(300,)]
    # (lowered on a copy: the program's module keeps its kernels, --emit=mlir's)
    assert [o.name for o in program.module.regions[0].ops].count("gpu.module") == 1


def test_one_native_call_launches_with_the_descriptors(fake):
    model = _model()
    assert model.native is not None and model.fallback is None
    w = model.weights[next(iter(model.weights))].ptr
    _log(fake)
    x = np.arange(1200, dtype=np.float32).reshape(4, 300)
    y, = model.run(x)
    lines = _log(fake)
    launches = [ln for ln in lines if ln.startswith("launch")]
    assert len(launches) == 1
    m = re.match(r"launch main_kernel grid 5 1 1 block 256 1 1 smem 0 args (.*)", launches[0])
    words = [int(t) for t in m.group(1).split()]
    out = y.__cuda_array_interface__["data"][0]
    # input, weight, output: allocated, aligned, offset, sizes, strides
    assert words[2:7] == [0, 4, 300, 300, 1] and words[0] == words[1]
    assert words[7:12] == [w, w, 0, 300, 1]
    assert words[12:] == [out, out, 0, 4, 300, 300, 1]
    assert lines.index(launches[0]) < lines.index("sync")
    assert lines[:3] == ["alloc 4800", "htod 4800", "alloc 4864"]   # input, output


def test_buffers_are_reused_across_calls(fake):
    model = _model()
    x = np.ones((4, 300), np.float32)
    y, = model.run(x)
    del y
    model.run(x)
    fresh = fake.fake_cuda_fresh_allocs()
    for _ in range(5):
        y, = model.run(x)
        del y
    assert fake.fake_cuda_fresh_allocs() == fresh
    assert "free 4864" in _log(fake)


def test_launch_failure_names_kernel_and_op(fake, monkeypatch):
    model = _model()
    x = np.ones((4, 300), np.float32)
    model.run(x)
    live = fake.fake_cuda_live_bytes()
    monkeypatch.setenv("FAKE_CUDA_LAUNCH", "701")
    with pytest.raises(R.RuntimeFailure, match=r"kernel main_kernel::main_kernel \(from "
                                               r"Mul_0\) failed to launch: "
                                               r"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"):
        model.run(x)
    assert fake.fake_cuda_live_bytes() == live      # the call's output went back
    monkeypatch.delenv("FAKE_CUDA_LAUNCH")
    y, = model.run(x)                                # still usable
    assert y.shape == (4, 300)


def test_out_of_memory_is_a_runtime_failure(fake, monkeypatch):
    model = _model()
    x = np.ones((4, 300), np.float32)
    monkeypatch.setenv("FAKE_CUDA_ALLOC_LIMIT", "4800")
    _log(fake)
    # (the op that allocates: MODEL's tensor.empty, line 6)
    with pytest.raises(R.RuntimeFailure, match=r"out of device memory allocating 4864 "
                                               r"bytes for \"m.mlir\":6:8: "
                                               r"CUDA_ERROR_OUT_OF_MEMORY"):
        model.run(x)
    assert not [ln for ln in _log(fake) if ln.startswith("launch")]   # skipped
    monkeypatch.delenv("FAKE_CUDA_ALLOC_LIMIT")
    assert model.run(x)[0].shape == (4, 300)
    # an ONNX model: the node by name
    onnx_model = _model(compile_ahead(_dynamic_add()))
    monkeypatch.setenv("FAKE_CUDA_ALLOC_LIMIT", "300")     # the inputs fit (256 bytes)
    a = np.ones((8, 8), np.float32)
    with pytest.raises(R.RuntimeFailure, match=r"allocating 320 bytes for (add0|relu0): "):
        onnx_model.run(a, a)
    monkeypatch.setenv("FAKE_CUDA_ALLOC_LIMIT", "100")
    b = np.ones((9, 8), np.float32)
    with pytest.raises(R.RuntimeFailure, match=r"copying input #0 to the device: out of "
                                               r"device memory allocating 288 bytes"):
        onnx_model.run(b, b)


def _dynamic_add():
    g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"], name="add0"),
         helper.make_node("Relu", ["y"], ["z"], name="relu0")], "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 8]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, ["M", 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 8])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def test_dynamic_shapes_and_run_time_checks(fake):
    """Sizes, grids and the run-time shape checks (issue 16) computed by the native
    host code; a failed check stops the call's launches and is one RuntimeFailure."""
    program = compile_ahead(_dynamic_add())
    assert program.host["main"].fallback is None
    model = _model(program)
    for n in (3, 700):
        _log(fake)
        a = np.ones((n, 8), np.float32)
        y, = model.run(a, a)
        assert y.shape == (n, 8)
        grids = [re.search(r"grid (\d+)", ln).group(1) for ln in _log(fake)
                 if ln.startswith("launch")]
        assert grids and all(int(g) == -(-n * 8 // 256) for g in grids)
    with pytest.raises(R.RuntimeFailure, match="add0"):
        model.run(np.ones((3, 8), np.float32), np.ones((4, 8), np.float32))
    assert not [ln for ln in _log(fake) if ln.startswith("launch")]
    assert model.run(np.ones((2, 8), np.float32), np.ones((1, 8), np.float32))[0].shape \
        == (2, 8)


def test_reshape_reads_its_shape_back(fake):
    """A shape tensor read on the host: native code too (the fake's device memory is
    host memory, so the values read are the input's)."""
    model = reshape_model()
    program = compile_ahead(model)
    assert program.host["main"].fallback is None
    m = _model(program)
    y, = m.run(np.zeros((2, 6), np.float32), np.array([3, 4], np.int64))
    assert y.shape == (3, 4)
    y, = m.run(np.zeros((2, 6), np.float32), np.array([4, -1], np.int64))
    assert y.shape == (4, 3)
    with pytest.raises(R.RuntimeFailure, match="r0"):
        m.run(np.zeros((2, 6), np.float32), np.array([5, 5], np.int64))


HOST_COPY = """
func.func @main(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32> loc("copy0")
  return %b : memref<4xf32>
}
"""


def test_host_writing_device_memory_falls_back_to_the_plan(fake, monkeypatch):
    host = lower_host(parse_source(HOST_COPY, default_context(), "m.mlir"), "main")
    assert host.ir is None and "copy0" in host.fallback and "memref.copy" in host.fallback
    monkeypatch.setenv("STRATA_CUDA_HOST", "plan")
    m = _model(compile_ahead(_dynamic_add()))
    assert m.native is None and m.fallback == "STRATA_CUDA_HOST=plan"
    assert m.run(np.ones((2, 8), np.float32), np.ones((2, 8), np.float32))[0].shape == (2, 8)


def test_strata_compile_runs_the_native_host(fake):
    fn = strata.compile(_dynamic_add(), target="cuda", cache=False)
    a = np.ones((5, 8), np.float32)
    _log(fake)
    z, = fn(a, a)
    assert z.shape == (5, 8)
    assert sum(ln.startswith("launch") for ln in _log(fake)) >= 1
    g = strata.compile(_dynamic_add(), target="cuda", cache=False, cuda_graphs=True)
    g(a, a)
    _log(fake)
    g(a, a)
    assert "graph launch" in _log(fake)


class _OnDevice:
    """A device array as torch would hand it (the fake's device memory is host memory)."""

    def __init__(self, a):
        self.a = a
        self.__cuda_array_interface__ = {
            "shape": a.shape, "typestr": a.dtype.str, "data": (a.ctypes.data, False),
            "strides": a.strides, "version": 3}


def test_device_inputs_must_be_contiguous(fake):
    model = _model(compile_ahead(_dynamic_add()))
    a = np.ones((4, 16), np.float32)
    y, = model.run(_OnDevice(a[:, :8].copy()), _OnDevice(a[:, :8].copy()))
    assert y.shape == (4, 8)
    with pytest.raises(R.InputError, match=r"input #0 on the device is not contiguous"):
        model.run(_OnDevice(a[:, :8]), _OnDevice(a[:, :8].copy()))


def test_host_reads_device_values_back(fake):
    """Gather's index check reduces the indices on the device and reads the two
    results back on the host (memref.load on the host -> __strata_cuda_read): still
    native code, each read after the work before it (a synchronization)."""
    from onnx import numpy_helper
    g = helper.make_graph(
        [helper.make_node("Gather", ["w", "ids"], ["y"], name="g0")], "g",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 8])],
        [numpy_helper.from_array(np.ones((10, 8), np.float32), "w")])
    program = compile_ahead(helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 17)]))
    assert program.host["main"].fallback is None
    assert "__strata_cuda_read(" in program.host["main"].ir
    model = _model(program)
    _log(fake)
    y, = model.run(np.zeros((3, 4), np.int64))
    assert y.shape == (3, 4, 8)
    lines = _log(fake)
    reads = [i for i, ln in enumerate(lines) if ln == "dtoh 8"]
    assert len(reads) == 2 and all(lines[i + 1] == "sync" for i in reads)
    last_launch = max(i for i, ln in enumerate(lines) if ln.startswith("launch"))
    assert reads[0] < last_launch      # (the gather runs after the check)


def test_cuda_graphs_capture_once_per_shape(fake):
    """cuda_graphs=True: the first call of a shape captures the launch sequence and
    launches the graph; the next calls of that shape only launch it (no kernel launch
    of their own); another shape drops the graph and captures again."""
    model = R.CudaModel(R.driver(), compile_ahead(_dynamic_add()), "main", cuda_graphs=True)
    assert model.graphs == {} and model.graph_fallback is None
    a = np.ones((3, 8), np.float32)
    _log(fake)
    y, = model.run(a, a)
    first = _log(fake)
    assert y.shape == (3, 8)
    begin, end = first.index("capture begin 1"), first.index("capture end")
    assert any(ln.startswith("launch") for ln in first[begin:end])
    # the inputs copied into the buffers the graph reads, the graph, the output copied
    assert first[end + 1:end + 5] == ["graph instantiate", "dtod 96", "dtod 96",
                                      "graph launch"]
    assert "dtod 96" in first[end + 5:]
    for _ in range(3):
        y2, = model.run(a, a)
        again = _log(fake)
        assert "graph launch" in again and not any(
            ln.startswith(("launch", "capture")) for ln in again)
        assert y2.__cuda_array_interface__["data"][0] != \
            y.__cuda_array_interface__["data"][0]      # an output of its own
    b = np.ones((5, 8), np.float32)
    assert model.run(b, b)[0].shape == (5, 8)
    other = _log(fake)
    assert other.index("graph destroy") < other.index("capture begin 1")
    with pytest.raises(R.RuntimeFailure, match="add0"):
        model.run(a, np.ones((4, 8), np.float32))
    assert model.run(a, a)[0].shape == (3, 8)        # still usable


def test_cuda_graphs_need_the_native_host(fake):
    model = reshape_model()
    m = R.CudaModel(R.driver(), compile_ahead(model), "main", cuda_graphs=True)
    assert m.graphs is None and "reads device values back" in m.graph_fallback
    assert m.run(np.zeros((2, 6), np.float32), np.array([3, 4], np.int64))[0].shape == (3, 4)


def _launch_shapes(lines):
    """The launch lines with pointers (words past 2^32) masked: kernel, grid, block,
    offsets, sizes and strides."""
    out = []
    for ln in lines:
        if ln.startswith("launch"):
            out.append(" ".join("P" if w.isdigit() and int(w) >= 1 << 32 else w
                                for w in ln.split()))
    return out


@pytest.mark.parametrize("name", ["mlp", "cnn", "transformer_encoder", "add", "gather"])
def test_native_host_launches_as_the_plan_does(fake, monkeypatch, name):
    """The native host code and the launch plan (the host semantics the interpreter
    checks) make the same launches: kernels, grids, blocks, argument words (pointers
    aside), on the same inputs."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
    from models import cnn, mlp, transformer_encoder
    from onnx import numpy_helper
    rng = np.random.default_rng(0)
    if name == "add":
        model, inputs = _dynamic_add(), [np.ones((5, 8), np.float32)] * 2
    elif name == "gather":
        g = helper.make_graph(
            [helper.make_node("Gather", ["w", "ids"], ["y"], name="g0")], "g",
            [helper.make_tensor_value_info("ids", TensorProto.INT64, ["N", 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 8])],
            [numpy_helper.from_array(np.ones((10, 8), np.float32), "w")])
        model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        inputs = [np.zeros((3, 4), np.int64)]
    else:
        model = {"mlp": mlp, "cnn": cnn, "transformer_encoder": transformer_encoder}[name]()
        shape = {"mlp": (3, 64), "cnn": (2, 3, 16, 16), "transformer_encoder": (2, 7, 32)}
        inputs = [rng.standard_normal(shape[name]).astype(np.float32)]
    program = compile_ahead(model)
    native = _model(program)
    monkeypatch.setenv("STRATA_CUDA_HOST", "plan")
    plan = _model(program)
    assert native.native is not None and plan.native is None
    got = {}
    for key, m in (("native", native), ("plan", plan)):
        _log(fake)
        y = m.run(*inputs)
        got[key] = (_launch_shapes(_log(fake)), [o.shape for o in y])
    assert got["native"][0] and got["native"] == got["plan"]


def test_cli_run_with_cuda_graphs(fake, tmp_path, capsys):
    from strata.tools.cli import main
    path = tmp_path / "add.onnx"
    path.write_bytes(_dynamic_add().SerializeToString())
    x = tmp_path / "x.npy"
    np.save(x, np.ones((2, 8), np.float32))
    _log(fake)
    assert main(["run", str(path), "--target", "cuda", "--cuda-graphs", "--input", str(x),
                 "--input", str(x)]) == 0
    assert "capture begin 1" in _log(fake)
    assert main(["run", str(path), "--cuda-graphs", "--input", str(x)]) != 0
    assert "--cuda-graphs needs --target cuda" in capsys.readouterr().err


def test_shim_refuses_sizes_past_the_drivers(fake):
    """A grid or block the driver's unsigned ints cannot hold is a launch error of its
    site (CUDA_ERROR_INVALID_VALUE), not a grid wrapped around to a small one."""
    from strata.backends.cpu.jit import JitModule
    from strata.backends.cuda.host import SHIM_IR
    drv = R.driver()
    shim = JitModule(SHIM_IR, opt_level=2)

    def cell(name, t=ctypes.c_uint64):
        return t.from_address(shim.address_of(name))
    kernels = (ctypes.c_void_p * 1)(0x10000)
    cell("__strata_cuda_launch_fn").value = drv.address("cuLaunchKernel")
    cell("__strata_cuda_kernels").value = ctypes.addressof(kernels)
    launch = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * 10)(shim.address_of(LAUNCH))
    status = cell("__strata_cuda_status", ctypes.c_int32)
    site = cell("__strata_cuda_site", ctypes.c_int64)
    for sizes in ([(1 << 32) + 1, 1, 1, 256, 1, 1], [1, 65536, 1, 32, 1, 1],
                  [1, 1, 1, 2048, 1, 1], [1, 1, 1, 32, 1, 128]):
        status.value, site.value = 0, -1
        _log(fake)
        launch(3, *sizes, 0, 0, 0)
        assert (status.value, site.value) == (1, 3)
        assert not [ln for ln in _log(fake) if ln.startswith("launch")]
    status.value = 0
    launch(0, 0, 1, 1, 256, 1, 1, 0, 0, 0)   # an empty grid: nothing, no error
    assert status.value == 0


def _onnx(op, inputs, output, **attrs):
    g = helper.make_graph([helper.make_node(op, [n for n, _, _ in inputs], ["z"], **attrs)],
                          "m", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [helper.make_tensor_value_info("z", *output)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_scalar_inputs_are_rank_0_on_the_device(fake):
    """A 0-d input (Clip's bounds) goes to the device as a rank-0 memref: NumPy's
    ascontiguousarray made it 1-d, and the native call failed on its descriptor (found
    on a real GPU: 118 of the node suite's cases)."""
    f32 = TensorProto.FLOAT
    model = _onnx("Clip", [("x", f32, [3, 4]), ("lo", f32, []), ("hi", f32, [])],
                  (f32, [3, 4]))
    fn = strata.compile(model, target="cuda", cache=False)
    (y,) = fn(np.ones((3, 4), np.float32), np.float32(0), np.array(0.5, np.float32))
    assert tuple(y.shape) == (3, 4) and y.dtype == np.float32
    # Python floats for the bounds
    (y,) = fn(np.ones((3, 4), np.float32), 0.0, 0.5)
    assert tuple(y.shape) == (3, 4)


@pytest.mark.parametrize("onnx_type,dtype", [(TensorProto.UINT8, np.uint8),
                                             (TensorProto.UINT16, np.uint16),
                                             (TensorProto.UINT64, np.uint64)])
def test_unsigned_outputs_keep_their_dtype(fake, onnx_type, dtype):
    """Lowering makes ui8 elements i8 (signless); the device output is the interface's
    uint8, still on the device (it came back int8, downloaded: ~80 node-suite cases
    on a real GPU)."""
    model = _onnx("Add", [("x", onnx_type, [3]), ("y", onnx_type, [3])], (onnx_type, [3]))
    fn = strata.compile(model, target="cuda", cache=False)
    (z,) = fn(np.array([1, 2, 200], dtype), np.array([1, 2, 3], dtype))
    assert isinstance(z, R.DeviceArray) and z.dtype == np.dtype(dtype)
    assert z.numpy().dtype == np.dtype(dtype)


def _slice_model(starts, ends, axes, steps, shape=(4, 6, 5)):
    from onnx import numpy_helper
    f32 = TensorProto.FLOAT
    inits = [numpy_helper.from_array(np.array(v, np.int64), n)
             for n, v in (("s", starts), ("e", ends), ("a", axes), ("st", steps))]
    g = helper.make_graph([helper.make_node("Slice", ["x", "s", "e", "a", "st"], ["z"])],
                          "m", [helper.make_tensor_value_info("x", f32, list(shape))],
                          [helper.make_tensor_value_info("z", f32, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.parametrize("graphs", [False, True])
@pytest.mark.parametrize("host", ["native", "plan"])
@pytest.mark.parametrize("starts,ends,axes,steps,expect", [
    ([7], [9], [1], [1], (4, 0, 5)),          # start past the end (test_slice_start_out_..)
    ([0, 3], [4, 3], [0, 2], [1, 1], (4, 6, 0)),
    ([0, 0], [9, 2], [1, 0], [2, -1], (0, 3, 5))])
def test_empty_view_outputs(fake, monkeypatch, host, graphs, starts, ends, axes, steps,
                            expect):
    """An empty output is returned whatever its view's strides (an empty slice, a
    reshape with allowzero, a reduction over an empty set: 5 node-suite cases failed on
    an H200 with "a strided view cannot be returned")."""
    if host == "plan":
        monkeypatch.setenv("STRATA_CUDA_HOST", "plan")
    fn = strata.compile(_slice_model(starts, ends, axes, steps), target="cuda",
                        cache=False, cuda_graphs=graphs)
    x = np.arange(120, dtype=np.float32).reshape(4, 6, 5)
    for _ in range(2):
        (z,) = fn(x)
        assert isinstance(z, R.DeviceArray) and tuple(z.shape) == expect
        assert z.dtype == np.float32
        assert z.numpy().shape == expect
        assert tuple(z.__cuda_array_interface__["shape"]) == expect


def _device_view(model, base, offset, sizes, strides):
    """A DeviceRef viewing `base` (uploaded to a buffer of the model's pool)."""
    from strata.backends.cuda.plan import DeviceRef
    buf = model.pool.alloc(base.nbytes)
    ctypes.memmove(buf.ptr, base.ctypes.data, base.nbytes)   # (the fake's memory)
    return DeviceRef(buf.ptr, offset, sizes, strides, base.dtype, buf), buf


@pytest.mark.parametrize("view,runs", [
    (lambda a: a[:4, 1::4], 24),          # a slice with steps: one element per run
    (lambda a: a[:, 1::4], None),         # 96 runs: past _MAX_RUNS, via the host
    (lambda a: a[1:3], 1),                # rows: one run
    (lambda a: a[:, 2:7], 16),            # one run per row
    (lambda a: a[::2, ::-3], 64),         # negative steps (64 runs: _MAX_RUNS)
    (lambda a: a[:2, ::-1], 48),
    (lambda a: a.T, None),                # a transpose
    (lambda a: a.reshape(8, 4, 12)[:, 1:3, 3:9].transpose(1, 0, 2), 16),
    (lambda a: np.broadcast_to(a[2], (3, 24)), 3),      # a zero stride
    (lambda a: a[:, 5:5], 0)])            # empty
def test_strided_outputs_are_gathered(fake, view, runs):
    """A strided view is handed out as a row-major copy in a buffer of its own, its
    elements right ([Note: strided outputs]): device copies of its contiguous runs, or
    past _MAX_RUNS runs one read of its span; the view's own memory untouched."""
    model = _model()
    base = np.arange(16 * 24, dtype=np.float32).reshape(16, 24)
    want = view(base)
    item = base.dtype.itemsize
    offset = (want.__array_interface__["data"][0] - base.ctypes.data) // item \
        if want.size else 0
    ref, buf = _device_view(model, base, offset, want.shape,
                            [s // item for s in want.strides])
    _log(fake)
    with model._current():
        out = model._copy_out(ref)
    lines = _log(fake)
    copies = sum(ln.startswith("dtod") for ln in lines)
    reads = sum(ln.startswith("dtoh") for ln in lines)
    if runs is None:
        assert R._runs(ref) is None and (copies, reads) == (0, 1)
        assert sum(ln.startswith("htod") for ln in lines) == 1
    else:
        assert (copies, reads) == (runs, 0) and runs <= R._MAX_RUNS
    assert out.is_contiguous() and out.buffer is not None and out.ptr != buf.ptr
    got = R.DeviceArray(out, model).numpy()
    assert got.shape == want.shape and np.array_equal(got, want)
    # the view itself downloads too (a DLPack consumer's strided view)
    assert np.array_equal(model.download(ref), want)
    mem = np.ctypeslib.as_array((ctypes.c_float * base.size).from_address(buf.ptr))
    assert np.array_equal(mem, base.reshape(-1))


def test_runs_merge_dimensions():
    from strata.backends.cuda.plan import DeviceRef
    ref = DeviceRef(0, 5, (2, 3, 4), (100, 4, 1), np.float32)   # rows of 12: 2 runs
    assert R._runs(ref) == ([5, 105], 12)
    ref = DeviceRef(0, 0, (3, 1, 2), (2, 7, 6), np.float32)     # inner stride 6
    assert R._runs(ref) == ([0, 6, 2, 8, 4, 10], 1)


def _capsule_dtype(capsule):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    m = R._DLManagedTensor.from_address(get(capsule, b"dltensor"))
    t = m.dl_tensor
    return t.dtype.code, t.dtype.bits, t.dtype.lanes, list(t.shape[:t.ndim])


@pytest.mark.parametrize("name,code,bits", [
    ("float32", 2, 32), ("float16", 2, 16), ("int64", 0, 64), ("uint8", 1, 8),
    ("bool", 6, 8), ("complex64", 5, 64), ("bfloat16", 4, 16), ("float8_e4m3fn", 10, 8),
    ("float8_e5m2", 12, 8), ("float8_e5m2fnuz", 13, 8), ("int4", None, None),
    ("float4_e2m1fn", None, None)])
def test_dlpack_type_codes(fake, name, code, bits):
    """An output's DLPack type is dlpack.h's code for it: bfloat16 and the float8 types
    had none or a wrong one (float8_e5m2's NumPy kind is "f": it went out as an 8-bit
    IEEE float); a 4-bit type (a byte an element here, packed in DLPack) is refused."""
    import ml_dtypes
    from strata.backends.cuda.plan import DeviceRef
    dt = np.dtype(getattr(ml_dtypes, name, None) or name)
    model = _model()
    buf = model.pool.alloc(6 * dt.itemsize)
    a = R.DeviceArray(DeviceRef(buf.ptr, 0, (2, 3), (3, 1), dt, buf), model)
    if code is None:
        with pytest.raises(strata.StrataError, match=f"no DLPack type for {name}"):
            a.__dlpack__()
        return
    assert _capsule_dtype(a.__dlpack__()) == (code, bits, 1, [2, 3])
