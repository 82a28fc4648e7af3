"""The cuda target on a GPU: models compiled with strata.compile(model, target="cuda")
against a reference (onnxruntime where installed, else Strata's cpu target, itself
checked against onnxruntime in CI: the device image may have no onnxruntime), outputs
on the device (DLPack, __cuda_array_interface__), buffers reused across calls, the
native host code, failures as RuntimeFailure. Skipped without a device (conftest).
Runs under pytest or, where the device image has none, as a plain script:
`python tests/gpu/run.py` (the same tests)."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import strata
from models import cnn, mlp, transformer_encoder

CASES = {
    "mlp": (mlp, lambda n, rng: rng.standard_normal((n, 64))),
    "cnn": (cnn, lambda n, rng: rng.standard_normal((n, 3, 16, 16))),
    "transformer_encoder": (transformer_encoder, lambda n, rng: rng.standard_normal((n, 7, 32))),
}
_CPU: dict = {}


def _ort(model, x):
    """The reference output of `model` on input `x`."""
    try:
        import onnxruntime as ort
    except ImportError:
        key = id(model)
        if key not in _CPU:
            _CPU[key] = (model, strata.compile(model, target="cpu"))
        return np.asarray(_CPU[key][1](x)[0])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"input": x})[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_matches_onnxruntime(name):
    build, make_input = CASES[name]
    model = build()
    fn = strata.compile(model, target="cuda")
    rng = np.random.default_rng(1)
    for n in (1, 3, 3):
        x = make_input(n, rng).astype(np.float32)
        y = fn(x)[0]
        got = y.numpy()
        ref = _ort(model, x)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4, err_msg=f"batch {n}")


def test_outputs_stay_on_the_device_and_torch_takes_them():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    fn = strata.compile(mlp(), target="cuda")
    x = np.random.default_rng(0).standard_normal((2, 64)).astype(np.float32)
    y = fn(x)[0]
    t = torch.from_dlpack(y)
    assert t.is_cuda and tuple(t.shape) == (2, 10)
    np.testing.assert_allclose(t.cpu().numpy(), y.numpy())
    t2 = torch.as_tensor(y, device="cuda")
    assert t2.data_ptr() == y.__cuda_array_interface__["data"][0]


def test_inputs_already_on_the_device():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    model = mlp()
    fn = strata.compile(model, target="cuda")
    x = np.random.default_rng(0).standard_normal((2, 64)).astype(np.float32)
    y = fn(torch.from_numpy(x).cuda())[0]      # no copy: checked and passed on
    np.testing.assert_allclose(y.numpy(), _ort(model, x), rtol=1e-4, atol=1e-4)
    with pytest.raises(strata.StrataError, match="input #0"):
        fn(torch.zeros((2, 63), device="cuda"))
    if torch.cuda.device_count() > 1:
        with pytest.raises(strata.StrataError, match="another device"):
            fn(torch.from_numpy(x).to("cuda:1"))


def test_softmax_rows():
    g = helper.make_graph(
        [helper.make_node("Softmax", ["input"], ["output"], axis=-1, name="sm")], "sm",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 1000])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["N", 1000])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    fn = strata.compile(model, target="cuda")
    x = np.random.default_rng(0).standard_normal((33, 1000)).astype(np.float32) * 10
    np.testing.assert_allclose(fn(x)[0].numpy(), _ort(model, x), rtol=1e-5, atol=1e-6)


def test_buffers_are_reused():
    fn = strata.compile(mlp(), target="cuda")
    model = fn._run.__self__
    x = np.zeros((4, 64), np.float32)
    for _ in range(3):
        y = fn(x)[0]
        del y
    n = len(model.pool.all)
    ptrs = set()
    for _ in range(5):
        y = fn(x)[0]
        ptrs.add(y.__cuda_array_interface__["data"][0])
        del y
    assert len(model.pool.all) == n
    assert len(ptrs) <= 2           # the stream-ordered pool hands the memory back


def test_the_host_side_is_native_code():
    """One native call per inference (host.py), and a launch failure of it is a
    RuntimeFailure naming the kernel, the model staying usable."""
    fn = strata.compile(mlp(), target="cuda")
    model = fn._run.__self__
    assert model.native is not None, model.fallback
    x = np.random.default_rng(0).standard_normal((3, 64)).astype(np.float32)
    want = _ort(mlp(), x)
    np.testing.assert_allclose(fn(x)[0].numpy(), want, rtol=1e-4, atol=1e-4)
    # too many threads per block: the driver refuses the launch
    k = model.native
    site = 0
    saved = k.kernels[site]
    m, kern, where = k.sites[site]
    try:
        k.kernels[site] = None    # a null CUfunction: CUDA_ERROR_INVALID_HANDLE
        with pytest.raises(strata.StrataError, match=f"kernel {m}::{kern}"):
            fn(x)
    finally:
        k.kernels[site] = saved
    np.testing.assert_allclose(fn(x)[0].numpy(), want, rtol=1e-4, atol=1e-4)


def test_device_arch_is_the_devices():
    from strata.backends.cuda.runtime import driver
    from strata.backends.cuda.target import CudaTarget
    arch = driver().device_arch()
    assert CudaTarget().arch() == arch


def test_cuda_graphs_replay_per_shape():
    """cuda_graphs=True: captured per input shape, replayed; the results of each call
    are its own (not overwritten by the next replay)."""
    model = mlp()
    fn = strata.compile(model, target="cuda", cuda_graphs=True)
    assert fn._run.__self__.graphs is not None, fn._run.__self__.graph_fallback
    rng = np.random.default_rng(2)
    for n in (2, 2, 5, 2):
        x1 = rng.standard_normal((n, 64)).astype(np.float32)
        x2 = rng.standard_normal((n, 64)).astype(np.float32)
        y1 = fn(x1)[0]
        y2 = fn(x2)[0]
        np.testing.assert_allclose(y1.numpy(), _ort(model, x1), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(y2.numpy(), _ort(model, x2), rtol=1e-4, atol=1e-4)


def test_host_library_runs_on_the_device(tmp_path):
    """strata compile --target cuda -o model.so, run through its checked entry point
    (tools/gpu_library_check.py does the same from C)."""
    import ctypes
    from strata.tools.cli import main
    model = mlp()
    path = tmp_path / "mlp.onnx"
    path.write_bytes(model.SerializeToString())
    assert main(["compile", str(path), "--target", "cuda", "-o", str(tmp_path / "m.so")]) == 0
    lib = ctypes.CDLL(str(tmp_path / "m.so"))
    lib.strata_last_error.restype = ctypes.c_char_p

    class Tensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_int64),
                    ("rank", ctypes.c_int64), ("shape", ctypes.c_int64 * 16),
                    ("strides", ctypes.c_void_p), ("allocated", ctypes.c_void_p),
                    ("type", ctypes.c_int32)]
    x = np.random.default_rng(3).standard_normal((3, 64)).astype(np.float32)
    t = Tensor(x.ctypes.data, x.size, 2)
    t.shape[0], t.shape[1], t.type = 3, 64, 1
    out = Tensor()
    status = lib.strata_model_run(ctypes.byref(t), 1, ctypes.byref(out), 1)
    assert status == 0, lib.strata_last_error()
    y = np.ctypeslib.as_array(ctypes.cast(out.data, ctypes.POINTER(ctypes.c_float)),
                              (out.shape[0], out.shape[1])).copy()
    ctypes.CDLL(None).free(ctypes.c_void_p(out.allocated))
    np.testing.assert_allclose(y, _ort(model, x), rtol=1e-4, atol=1e-4)


def _torch_block(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(8, 5)).eval()


def test_torch_module_on_the_device():
    """strata.compile(nn_module, target="cuda"): torch tensors out on the inputs'
    device (CPU inputs: CPU tensors; CUDA inputs: CUDA tensors, no copy)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    m = _torch_block(torch)
    x = torch.randn(2, 3, 12, 12)
    fn = strata.compile(m, example_args=(x,), target="cuda")
    with torch.no_grad():
        ref = m(x)
    (y,) = fn(x)
    assert isinstance(y, torch.Tensor) and y.device.type == "cpu"
    torch.testing.assert_close(y, ref, rtol=1e-4, atol=1e-4)
    (yc,) = fn(x.cuda())
    assert isinstance(yc, torch.Tensor) and yc.is_cuda
    torch.testing.assert_close(yc.cpu(), ref, rtol=1e-4, atol=1e-4)


def test_torch_compile_with_the_cuda_target():
    """torch.compile(backend="strata", options={"target": "cuda"}): no fallback to
    eager, outputs where eager puts them, a run-time image size (dynamic=True)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    import warnings
    import torch._dynamo
    from strata.frontends.torch.dynamo import StrataFallbackWarning, strata_backend
    torch._dynamo.register_backend(name="strata")(strata_backend)
    m = _torch_block(torch)
    for dynamic in (False, True):
        torch._dynamo.reset()
        cm = torch.compile(m, backend="strata", dynamic=dynamic, options={"target": "cuda"})
        with warnings.catch_warnings():
            warnings.simplefilter("error", StrataFallbackWarning)
            for shape in ((2, 3, 12, 12), (3, 3, 10, 14)):
                x = torch.randn(*shape)
                with torch.no_grad():
                    y, ref = cm(x), m(x)
                assert y.device.type == "cpu"
                torch.testing.assert_close(y, ref, rtol=1e-4, atol=1e-4)


def test_empty_and_strided_outputs():
    """An empty slice comes back empty (5 node-suite cases failed here with "a strided
    view cannot be returned"); a strided view on the device is gathered row-major by
    device copies of its runs, or through the host past _MAX_RUNS runs."""
    from onnx import numpy_helper
    from strata.backends.cuda import runtime as R
    from strata.backends.cuda.plan import DeviceRef
    f32 = TensorProto.FLOAT
    inits = [numpy_helper.from_array(np.array(v, np.int64), n)
             for n, v in (("s", [7]), ("e", [9]), ("a", [1]))]
    g = helper.make_graph([helper.make_node("Slice", ["x", "s", "e", "a"], ["z"])], "m",
                          [helper.make_tensor_value_info("x", f32, [4, 6, 5])],
                          [helper.make_tensor_value_info("z", f32, None)], inits)
    fn = strata.compile(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]),
                        target="cuda", cache=False)
    (z,) = fn(np.ones((4, 6, 5), np.float32))
    assert tuple(z.shape) == (4, 0, 5) and z.numpy().shape == (4, 0, 5)
    model = z.model
    base = np.arange(16 * 24, dtype=np.float32).reshape(16, 24)
    buf = model.pool.alloc(base.nbytes)
    with model._current():
        model.drv.check(model.drv.cuMemcpyHtoDAsync(buf.ptr, base.ctypes.data, base.nbytes,
                                                    model.stream), "upload")
        model.drv.check(model.drv.cuStreamSynchronize(model.stream), "upload")
    for want, offset, strides in ((base[:, 2:7], 2, (24, 1)), (base.T, 0, (1, 24)),
                                  (base[::2, ::-3], 23, (48, -3))):
        ref = DeviceRef(buf.ptr, offset, want.shape, strides, np.float32, buf)
        with model._current():
            out = model._copy_out(ref)
        assert np.array_equal(R.DeviceArray(out, model).numpy(), want)
        assert np.array_equal(model.download(ref), want)


def test_bf16_outputs_go_to_torch_as_bfloat16():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    bf = TensorProto.BFLOAT16
    g = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"])], "m",
                          [helper.make_tensor_value_info(n, bf, [3]) for n in "xy"],
                          [helper.make_tensor_value_info("z", bf, [3])])
    fn = strata.compile(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]),
                        target="cuda", cache=False)
    import ml_dtypes
    x = np.array([1, 2, 3], ml_dtypes.bfloat16)
    (z,) = fn(x, x)
    t = torch.from_dlpack(z)
    assert t.dtype == torch.bfloat16 and t.is_cuda
    assert t.float().cpu().tolist() == [2.0, 4.0, 6.0]
