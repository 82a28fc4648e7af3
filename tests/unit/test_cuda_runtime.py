"""The cuda runtime without a GPU: a missing driver is one line; the launch plan and
the driver calls are checked against a fake libcuda (host memory as device memory,
launches recorded with their unpacked arguments)."""
import ctypes

import numpy as np
import pytest

import strata
from strata.backends.cuda import runtime as R
from strata.backends.cuda.plan import DeviceRef, build_plan, pack_arguments
from strata.backends.cuda.target import CudaProgram, CudaTarget, GPU_PIPELINE
from strata.backends.cpu.target import BUFFERIZE_PIPELINE, signature_of
from strata.compiler import build_pipeline
from strata.dialects import default_context
from strata.errors import StrataError
from strata.ir import attributes as A
from strata.syntax.parser import parse_source

MODEL = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%a: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %w = arith.constant dense<[WEIGHTS]> : tensor<300xf32>
  %e = tensor.empty() : tensor<4x300xf32>
  %r = linalg.generic {indexing_maps = [#map, #row, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %w : tensor<4x300xf32>, tensor<300xf32>) outs(%e : tensor<4x300xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x300xf32> loc("Mul_0")
  return %r : tensor<4x300xf32>
}
""".replace("WEIGHTS", ", ".join(f"{i}.5" for i in range(300)))


@pytest.fixture(autouse=True)
def fresh_driver(monkeypatch):
    monkeypatch.setattr(R, "_DRIVER", [])


def test_no_driver_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("STRATA_LIBCUDA", str(tmp_path / "libcuda.so.1"))
    with pytest.raises(R.DriverMissing, match=r"needs an NVIDIA driver: .*libcuda.so.1 was "
                                              r"not found"):
        R.driver()
    assert R.device_arch() is None
    with pytest.raises(StrataError) as e:
        strata.compile(parse_source(MODEL, default_context(), "m.mlir"), target="cuda")
    assert "\n" not in str(e.value) and "NVIDIA driver" in str(e.value)


def test_cli_run_without_driver(monkeypatch, tmp_path, capsys):
    from strata.tools.cli import main
    monkeypatch.setenv("STRATA_LIBCUDA", str(tmp_path / "libcuda.so.1"))
    path = tmp_path / "m.mlir"
    path.write_text(MODEL)
    x = tmp_path / "x.npy"
    np.save(x, np.ones((4, 300), np.float32))
    assert main(["run", str(path), "--target", "cuda", "--input", str(x)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("strata run: error: the cuda target needs an NVIDIA driver")
    assert "Traceback" not in err


# ---------------------------------------------------------------- a fake libcuda

class FakeCuda:
    """libcuda's functions on host memory: pointers are real addresses of ctypes
    buffers; launches are recorded (kernel name, grid, block, argument bytes)."""

    def __init__(self, devices=1, init_code=0, launch_code=0, sync_code=0):
        self.buffers = {}
        self.launches = []
        self.loaded = []
        self.freed = []
        self.allocs = 0
        self.uploads = 0

        def fn(f):
            return f

        def by(p, v):
            p._obj.value = v
            return 0
        self.cuInit = fn(lambda flags: init_code)
        self.cuDeviceGetCount = fn(lambda p: by(p, devices))
        self.cuDeviceGet = fn(lambda p, i: by(p, i))
        self.cuDeviceGetAttribute = fn(lambda p, attr, dev: by(p, 9 if attr == 75 else 0))
        self.cuDevicePrimaryCtxRetain = fn(lambda p, dev: by(p, 0x1000))
        self.cuCtxPushCurrent_v2 = fn(lambda ctx: 0)
        self.cuCtxPopCurrent_v2 = fn(lambda p: 0)
        self.cuStreamCreate = fn(lambda p, flags: by(p, 0x2000))
        self.sync_code = sync_code
        self.synced_streams = []

        def sync(s):
            self.synced_streams.append(getattr(s, "value", s))
            return self.sync_code
        self.cuStreamSynchronize = fn(sync)
        self.cuStreamDestroy_v2 = fn(lambda s: 0)

        def load(p, image, n, a, b):
            self.loaded.append(image)
            return by(p, 0x3000 + len(self.loaded))
        self.cuModuleLoadDataEx = load
        self.cuModuleGetFunction = fn(lambda p, m, name: by(p, id(name.decode()) and
                                                            hash(name) & 0xffff | 0x10000))
        self.names = {}

        def getf(p, m, name):
            h = 0x10000 + len(self.names)
            self.names[h] = name.decode()
            return by(p, h)
        self.cuModuleGetFunction = getf
        self.cuModuleUnload = fn(lambda m: 0)

        def alloc(p, n):
            buf = ctypes.create_string_buffer(n)
            self.buffers[ctypes.addressof(buf)] = buf
            self.allocs += 1
            return by(p, ctypes.addressof(buf))
        self.cuMemAlloc_v2 = alloc
        self.cuMemFree_v2 = fn(lambda ptr: self.freed.append(ptr) or 0)

        def htod(dst, src, n, s):
            self.uploads += 1
            ctypes.memmove(dst, src, n)
            return 0
        self.cuMemcpyHtoDAsync_v2 = htod
        self.cuMemcpyDtoHAsync_v2 = fn(lambda dst, src, n, s: ctypes.memmove(dst, src, n)
                                       and 0)
        self.cuMemcpyDtoDAsync_v2 = fn(lambda dst, src, n, s: ctypes.memmove(dst, src, n)
                                       and 0)

        def launch(f, gx, gy, gz, bx, by_, bz, shared, stream, params, extra):
            self.launches.append((self.names[f.value], (gx, gy, gz), (bx, by_, bz), params))
            assert isinstance(params, int) and extra is None
            return launch_code
        self.cuLaunchKernel = launch
        self.cuPointerGetAttribute = fn(lambda p, attr, ptr: by(p, 0))

        def err(code, p):
            p._obj.value = {700: b"CUDA_ERROR_ILLEGAL_ADDRESS", 2: b"CUDA_ERROR_OUT_OF_MEMORY"
                            }.get(code, b"CUDA_ERROR_UNKNOWN")
            return 0
        self.cuGetErrorName = err
        self.cuGetErrorString = fn(lambda code, p: 0)


def _program():
    """MODEL lowered to outlined kernels (no PTX needed for the fake driver)."""
    from strata.compiler import get_target
    m = parse_source(MODEL, default_context(), "m.mlir")
    t = get_target("cuda")
    build_pipeline(",".join(t.pipeline)).run(m)
    build_pipeline(",".join(BUFFERIZE_PIPELINE)).run(m)
    f = next(o for o in m.regions[0].ops if o.name == "func.func")
    sig = signature_of(f)
    build_pipeline(",".join(GPU_PIPELINE)).run(m)
    f = next(o for o in m.regions[0].ops if o.name == "func.func")
    plan = build_plan(f, m)
    return CudaProgram("sm_90", {"main_kernel": "// ptx"}, {"main": plan}, {"main": sig},
                       plan.weights, m)


def _model(monkeypatch, **kw):
    fake = FakeCuda(**kw)
    monkeypatch.setattr(R, "_load_library", lambda: fake)
    drv = R.driver()
    return fake, R.CudaModel(drv, _program(), "main")


def test_plan_of_the_host_function():
    plan = _program().plans["main"]
    kinds = [s[0] for s in plan.steps]
    assert kinds.count("launch") == 1 and "global" in kinds and "alloc" in kinds
    launch = plan.launches()[0]
    assert (launch.module, launch.kernel) == ("main_kernel", "main_kernel")
    assert launch.where == "Mul_0"
    assert list(plan.weights.values())[0].shape == (300,)


def test_arguments_are_descriptors_field_by_field():
    ref = DeviceRef(0x1000, 3, (4, 300), (300, 1), np.float32)
    t = A.MemRefType([4, 300], A.f32)
    params, keep = pack_arguments([7, ref, 2.5, -1], [A.index, t, A.f32, A.i32])
    ptrs = (ctypes.c_uint64 * 10).from_address(params)
    read = [ctypes.c_int64.from_address(ptrs[i]).value for i in range(8)]
    assert read == [7, 0x1000, 0x1000, 3, 4, 300, 300, 1]
    assert ctypes.c_float.from_address(ptrs[8]).value == 2.5
    assert ctypes.c_int32.from_address(ptrs[9]).value == -1
    with pytest.raises(StrataError, match="not on the device"):
        pack_arguments([np.zeros(3)], [t])


def test_fake_device_run(monkeypatch):
    fake, model = _model(monkeypatch)
    assert fake.loaded == [b"// ptx\0"] and fake.uploads == 1      # the weight, once
    x = np.arange(1200, dtype=np.float32).reshape(4, 300)
    y, = model.run(x)
    assert isinstance(y, R.DeviceArray) and y.shape == (4, 300) and y.dtype == np.float32
    name, grid, block, params = fake.launches[0]
    assert name == "main_kernel" and grid == (5, 1, 1) and block == (256, 1, 1)
    # the input was staged on the "device": its copy holds x
    staged = [b for b in fake.buffers.values() if bytes(b.raw) == x.tobytes()]
    assert staged
    allocs = fake.allocs
    y2, = model.run(x)
    assert fake.allocs == allocs + 1    # the input's buffer reused; the output is new
    del y
    y3, = model.run(x)                  # y's buffer back in the pool
    assert fake.allocs == allocs + 1
    cai = y3.__cuda_array_interface__
    assert cai["shape"] == (4, 300) and cai["typestr"] == "<f4" and cai["version"] == 3
    assert y3.__dlpack_device__() == (2, 0)
    assert np.array_equal(np.asarray(y3), y3.numpy())


def test_launch_failure_names_kernel_and_node(monkeypatch):
    fake, model = _model(monkeypatch, launch_code=700)
    with pytest.raises(R.RuntimeFailure, match=r"kernel main_kernel::main_kernel \(from "
                                               r"Mul_0\) failed to launch: "
                                               r"CUDA_ERROR_ILLEGAL_ADDRESS"):
        model.run(np.ones((4, 300), np.float32))


@pytest.mark.parametrize("grid,block", [((1 << 32) + 1, 256), (1, 2048)])
def test_plan_refuses_sizes_past_the_drivers(monkeypatch, grid, block):
    """A grid the driver's unsigned ints cannot hold: an error naming the kernel, not
    a launch of a grid wrapped around."""
    fake, model = _model(monkeypatch)
    launch = model.plan.launches()[0]
    regs = [1] * 64
    regs[launch.grid[0]], regs[launch.block[0]] = grid, block
    with pytest.raises(R.RuntimeFailure, match=r"kernel main_kernel::main_kernel \(from "
                                               r"Mul_0\) failed to launch: grid"):
        model.launch(launch, regs)
    assert fake.launches == []


def test_failure_at_sync_names_the_kernels(monkeypatch):
    fake, model = _model(monkeypatch)
    fake.sync_code = 700        # an illegal access found when the call synchronizes
    with pytest.raises(R.RuntimeFailure, match=r"a kernel of @main failed: "
                                               r"CUDA_ERROR_ILLEGAL_ADDRESS; kernels: "
                                               r"main_kernel::main_kernel \(from Mul_0\)"):
        model.run(np.ones((4, 300), np.float32))
    fake.sync_code = 0          # the model stays usable
    y, = model.run(np.ones((4, 300), np.float32))
    assert y.shape == (4, 300)


def test_no_device(monkeypatch):
    monkeypatch.setattr(R, "_load_library", lambda: FakeCuda(init_code=100))
    with pytest.raises(R.DriverMissing, match="needs an NVIDIA GPU: the driver finds no "
                                              "device"):
        R.driver()


def test_device_arch_from_the_driver(monkeypatch):
    monkeypatch.setattr(R, "_load_library", lambda: FakeCuda())
    assert R.device_arch() == "sm_90"
    assert CudaTarget().arch() == "sm_90"
    assert CudaTarget(cuda_arch="sm_80").arch() == "sm_80"


class _OnDevice:
    """An array "on the GPU" (the fake driver's memory is host memory)."""

    def __init__(self, a):
        self.a = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str,
                                         "data": (a.ctypes.data, False), "strides": None,
                                         "version": 3}


def test_strata_compile_through_the_fake_driver(monkeypatch):
    """strata.compile(model, target="cuda"): PTX compiled for the device's arch and
    loaded, NumPy inputs copied in, GPU inputs taken as they are, checked like any."""
    fake = FakeCuda()
    monkeypatch.setattr(R, "_load_library", lambda: fake)
    fn = strata.compile(parse_source(MODEL, default_context(), "m.mlir"), target="cuda")
    assert len(fake.loaded) == 1 and b".target sm_90" in fake.loaded[0]
    assert b".visible .entry main_kernel(" in fake.loaded[0]
    x = np.ones((4, 300), np.float32)
    y, = fn(x)
    assert isinstance(y, R.DeviceArray) and y.shape == (4, 300)
    uploads = fake.uploads
    y, = fn(_OnDevice(x))
    assert fake.uploads == uploads          # no copy of a GPU input
    with pytest.raises(R.InputError, match=r"input #0 .*expected shape \(4, 300\)"):
        fn(_OnDevice(np.ones((4, 299), np.float32)))
    with pytest.raises(R.InputError, match=r"input #0"):
        fn(_OnDevice(np.ones((4, 300), np.float64)))


@pytest.mark.parametrize("body,expect", [
    ("return %a, %a : tensor<2x3xf32>, tensor<2x3xf32>", "input"),
    ("%w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n"
     "  return %w, %w : tensor<2x3xf32>, tensor<2x3xf32>", "weight")])
def test_outputs_own_their_buffers(monkeypatch, body, expect):
    """An output that is an input, a weight, or another output is a copy: each output
    owns its buffer, which goes back to the pool when it is collected."""
    fake = FakeCuda()
    monkeypatch.setattr(R, "_load_library", lambda: fake)
    text = "func.func @main(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {\n" \
        f"  {body}\n}}"
    fn = strata.compile(parse_source(text, default_context(), "m.mlir"), target="cuda")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y1, y2 = fn(x)
    assert y1.ref.ptr != y2.ref.ptr and y1.ref.buffer is not y2.ref.buffer
    model = fn._run.__self__
    if not model.plan.launches():     # (the fake driver runs no kernel)
        want = x if expect == "input" else np.arange(1, 7, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(y1.numpy(), want)
        np.testing.assert_array_equal(y2.numpy(), want)
    if expect == "weight":
        w = next(iter(model.weights.values()))
        assert w.ptr not in (y1.ref.ptr, y2.ref.ptr)
    held = len(model.pool.all)
    del y1, y2
    fn(x)
    assert len(model.pool.all) == held     # the outputs' buffers were reused


def reshape_model():
    """Reshape of a 2x6 input to a shape given at run time (node r0)."""
    from onnx import TensorProto, helper
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="r0")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def test_host_reads_a_shape_from_the_device(monkeypatch):
    """Reshape to a run-time shape: the plan reads the shape tensor's entries back from
    the device (after the work before it on the stream) to size the result."""
    fake = FakeCuda()
    monkeypatch.setattr(R, "_load_library", lambda: fake)
    fn = strata.compile(reshape_model(), target="cuda")
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    y, = fn(x, np.array([3, 4], np.int64))
    assert y.shape == (3, 4)
    y, = fn(x, np.array([4, -1], np.int64))
    assert y.shape == (4, 3)
    with pytest.raises(R.RuntimeFailure, match="Reshape at r0"):
        fn(x, np.array([5, 5], np.int64))


class _HostOnly:
    """A device for plans without launches: buffers are host memory."""

    def __init__(self):
        self.keep = []

    def alloc(self, n):
        buf = ctypes.create_string_buffer(max(n, 1))
        self.keep.append(buf)
        return type("B", (), {"ptr": ctypes.addressof(buf), "nbytes": n})()

    def free(self, buf):
        pass

    def read(self, addr, dtype):
        out = np.empty((), dtype)
        ctypes.memmove(out.ctypes.data, addr, dtype.itemsize)
        return out.item()

    def fail(self, message):
        raise R.RuntimeFailure(message)


HOST_FLOW = """
func.func @f(%a: memref<4xindex>, %x: f32) -> (memref<?xf32>, index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n0 = memref.load %a[%c0] : memref<4xindex>
  %neg = arith.cmpi slt, %n0, %c0 : index
  %n = scf.if %neg -> (index) {
    %m = arith.addi %n0, %c4 : index
    scf.yield %m : index
  } else {
    scf.yield %n0 : index
  }
  %p = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c1) -> (index) {
    %v = memref.load %a[%i] : memref<4xindex>
    %q = arith.muli %acc, %v : index
    scf.yield %q : index
  }
  %h = arith.constant 0.5 : f32
  %y = arith.mulf %x, %h : f32
  %fl = math.floor %y : f32
  %out = memref.alloc(%n) : memref<?xf32>
  return %out, %p, %fl : memref<?xf32>, index, f32
}
"""


@pytest.mark.parametrize("first,size", [(3, 3), (-1, 3)])
def test_plan_runs_host_control_flow(first, size):
    m = parse_source(HOST_FLOW, default_context(), "h.mlir")
    f = next(o for o in m.regions[0].ops if o.name == "func.func")
    plan = build_plan(f, m)
    a = np.array([first, 2, 5, 7], np.int64)
    ref = DeviceRef(a.ctypes.data, 0, (4,), (1,), np.int64)
    out, p, fl = plan.run(_HostOnly(), [ref, 5.0])
    assert out.sizes == (size,) and p == first * 70 and fl == 2.0


def test_plan_reshape_reads_its_sizes():
    text = """
    func.func @f(%a: memref<12xf32>, %s: memref<2xindex>) -> memref<?x?xf32> {
      %r = memref.reshape %a(%s) : (memref<12xf32>, memref<2xindex>) -> memref<?x?xf32>
      return %r : memref<?x?xf32>
    }"""
    m = parse_source(text, default_context(), "r.mlir")
    plan = build_plan(next(o for o in m.regions[0].ops if o.name == "func.func"), m)
    a = np.arange(12, dtype=np.float32)
    s = np.array([3, 4], np.int64)
    out, = plan.run(_HostOnly(), [DeviceRef(a.ctypes.data, 0, (12,), (1,), np.float32),
                                  DeviceRef(s.ctypes.data, 0, (2,), (1,), np.int64)])
    assert out.sizes == (3, 4) and out.strides == (4, 1) and out.ptr == a.ctypes.data


def test_empty_static_loop_launches_nothing():
    from strata.compiler import build_pipeline
    text = """
    func.func @f(%a: memref<0x4xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0.0 : f32
      scf.parallel (%i, %j) = (%c0, %c0) to (%c0, %c4) step (%c1, %c1) {
        memref.store %z, %a[%i, %j] : memref<0x4xf32>
        scf.reduce
      }
      return
    }"""
    m = parse_source(text, default_context(), "e.mlir")
    build_pipeline(",".join(GPU_PIPELINE)).run(m)
    plan = build_plan(next(o for o in m.regions[0].ops if o.name == "func.func"), m)
    assert plan.launches() == []


def test_plan_host_float_math():
    text = """
    func.func @f(%x: f32, %y: f32) -> (f32, f32, i1) {
      %l = math.log1p %x : f32
      %p = math.powf %x, %y : f32
      %z = arith.constant 0.0 : f32
      %q = arith.divf %x, %z : f32
      %inf = arith.cmpf oeq, %q, %q : f32
      return %l, %p, %inf : f32, f32, i1
    }"""
    m = parse_source(text, default_context(), "m.mlir")
    plan = build_plan(next(o for o in m.regions[0].ops if o.name == "func.func"), m)
    l, p, eq = plan.run(_HostOnly(), [3.0, 0.5])
    assert l == pytest.approx(np.log1p(np.float32(3.0)), rel=1e-6)
    assert p == pytest.approx(np.sqrt(np.float32(3.0)), rel=1e-6) and eq


class _DLPackOnDevice:
    """An array "on the GPU" that speaks DLPack only (no __cuda_array_interface__, as JAX
    arrays): numpy's own capsule with its device rewritten to cuda:`ordinal` (the fake
    driver's memory is host memory)."""

    def __init__(self, a, ordinal=0, kind=2):
        self.a, self.ordinal, self.kind = a, ordinal, kind
        self.streams = []

    def __dlpack_device__(self):
        return (self.kind, self.ordinal)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        cap = self.a.__dlpack__()
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        from strata.runtime.dlpack import _DLTensor
        t = _DLTensor.from_address(get(cap, b"dltensor"))
        t.device_type, t.device_id = self.kind, self.ordinal
        return cap


def test_dlpack_inputs_on_the_device(monkeypatch):
    """A DLPack-only GPU object is taken without a copy, on the model's stream; one on
    another device, or strided, or of an unknown dtype, is refused naming the input."""
    fake = FakeCuda()
    monkeypatch.setattr(R, "_load_library", lambda: fake)
    fn = strata.compile(parse_source(MODEL, default_context(), "m.mlir"), target="cuda")
    x = np.arange(1200, dtype=np.float32).reshape(4, 300)
    want = fn(x)[0].numpy()
    uploads = fake.uploads
    src = _DLPackOnDevice(x)
    got = fn(src)[0].numpy()
    assert fake.uploads == uploads           # read in place
    np.testing.assert_array_equal(got, want)
    assert src.streams[-1] == 1              # the legacy default stream, then waited for
    assert 1 in fake.synced_streams
    with pytest.raises(R.InputError, match=r"input #0 is on another device \(cuda:1\)"):
        fn(_DLPackOnDevice(x, ordinal=1))
    with pytest.raises(R.InputError, match=r"input #0 on the device is not contiguous"):
        fn(_DLPackOnDevice(np.ones((300, 4), np.float32).T))
    with pytest.raises(R.InputError, match=r"input #0"):
        fn(_DLPackOnDevice(np.ones((4, 300), np.complex64)))
