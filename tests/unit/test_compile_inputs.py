"""What the callable strata.compile returns takes: NumPy arrays, DLPack objects (PyTorch
tensors) imported without a copy, Python numbers and lists; the same checks for both
targets (cpu: native code, interpret), and concurrent calls from threads."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import strata
from strata.compiler import InputError

onnx = pytest.importorskip("onnx")
torch = pytest.importorskip("torch")
from onnx import TensorProto as TP  # noqa: E402
from onnx import helper as h  # noqa: E402

TARGETS = ["cpu", "interpret"]


def _add(elem, cols):
    g = h.make_graph([h.make_node("Add", ["x", "y"], ["z"])], "g",
                     [h.make_tensor_value_info("x", elem, ["N", cols]),
                      h.make_tensor_value_info("y", elem, ["N", cols])],
                     [h.make_tensor_value_info("z", elem, ["N", cols])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


_CACHE = {}


def compiled(kind, target):
    key = (kind, target)
    if key not in _CACHE:
        model = _add(TP.FLOAT, 4) if kind == "f32" else _add(TP.INT64, 3)
        _CACHE[key] = strata.compile(model, target=target)
    return _CACHE[key]


A = np.arange(8, dtype=np.float32).reshape(2, 4)


@pytest.mark.parametrize("target", TARGETS)
def test_torch_tensors(target):
    f = compiled("f32", target)
    x = torch.arange(8, dtype=torch.float32).reshape(2, 4)
    np.testing.assert_array_equal(f(x, x)[0], 2 * A)
    # non-contiguous (a transposed view, a strided slice), mixed with NumPy, by name
    xt = torch.arange(8, dtype=torch.float32).reshape(4, 2).T
    np.testing.assert_array_equal(f(xt, A)[0], xt.numpy() + A)
    wide = torch.arange(16, dtype=torch.float32).reshape(2, 8)[:, ::2]
    np.testing.assert_array_equal(f(y=wide, x=x)[0], wide.numpy() + A)


@pytest.mark.parametrize("target", TARGETS)
def test_int64_and_dynamic_batch(target):
    f = compiled("i64", target)
    for n in (1, 5, 0):
        a = torch.arange(n * 3, dtype=torch.int64).reshape(n, 3)
        y, = f(a, a)
        assert y.dtype == np.int64 and y.shape == (n, 3)
        np.testing.assert_array_equal(y, 2 * a.numpy())
    np.testing.assert_array_equal(f([[1, 2, 3]], [[10, 20, 30]])[0], [[11, 22, 33]])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kind, args, message", [
    ("f32", (torch.zeros(2, 4, dtype=torch.float64), A),
     r"input #0 \('x'\): expected dtype float32 for type 'tensor<\?x4xf32>', got float64"),
    ("f32", (A, torch.zeros(2, 4, dtype=torch.bfloat16)),
     r"input #1 \('y'\): cannot import the Tensor of dtype torch.bfloat16 through DLPack"),
    ("f32", (A, torch.zeros(3, 4)), "inputs disagree on dynamic dim 'N': 'x' dim 0 = 2, "
                                    "'y' dim 0 = 3"),
    ("f32", (A, torch.zeros(2, 5)), r"input #1 \('y'\): expected shape \(\?, 4\)"),
    ("i64", (np.zeros((1, 3), np.int64), [[1.5, 2, 3]]),
     r"input #1 \('y'\): expected int64 values, got a list holding a Python float \(1.5\) "
     r"at \[0\]\[0\]"),
    ("i64", (np.zeros((1, 3), np.int64), "abc"),
     r"input #1 \('y'\): expected int64 values, got a str \('abc'\)"),
    ("i64", (np.zeros((1, 3), np.int64), {1: 2}), r"input #1 \('y'\): expected an array"),
    ("i64", (torch.zeros(1, 3, dtype=torch.int32), np.zeros((1, 3), np.int64)),
     r"input #0 \('x'\): expected dtype int64"),
])
def test_bad_inputs(target, kind, args, message):
    f = compiled(kind, target)
    with pytest.raises(InputError, match=message):
        f(*args)


@pytest.mark.parametrize("target", TARGETS)
def test_rank0_input_and_output(target):
    g = h.make_graph([h.make_node("Mul", ["x", "s"], ["y"]),
                      h.make_node("ReduceSum", ["x"], ["t"], keepdims=0)], "g",
                     [h.make_tensor_value_info("x", TP.FLOAT, ["N"]),
                      h.make_tensor_value_info("s", TP.FLOAT, [])],
                     [h.make_tensor_value_info("y", TP.FLOAT, ["N"]),
                      h.make_tensor_value_info("t", TP.FLOAT, [])])
    f = strata.compile(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), target=target)
    x = np.arange(5, dtype=np.float32)
    for s in (np.float32(2), np.array(2, np.float32), torch.tensor(2.0), 2.0):
        y, t = f(x, s)
        np.testing.assert_array_equal(y, 2 * x)
        assert t.shape == () and t == x.sum()


def test_inner_dynamic_dims():
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g",
                     [h.make_tensor_value_info("x", TP.FLOAT, ["B", 2, "M"])],
                     [h.make_tensor_value_info("y", TP.FLOAT, ["B", 2, "M"])])
    f = strata.compile(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))
    for shape in ((1, 2, 5), (3, 2, 1), (2, 2, 0)):
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(f(x)[0], np.maximum(x, 0))
    x = np.random.default_rng(1).standard_normal((4, 2, 6)).astype(np.float32)[::2, :, ::3]
    np.testing.assert_array_equal(f(torch.from_numpy(np.ascontiguousarray(x)).mT.mT)[0],
                                  np.maximum(x, 0))
    np.testing.assert_array_equal(f(x)[0], np.maximum(x, 0))


def test_device_tensor_is_refused():
    class OnGpu:
        def __dlpack__(self, **kw):
            raise AssertionError("not to be called")

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(InputError, match=r"input #0 \('x'\): the OnGpu is on DLPack device "
                                         r"cuda:0; compiled code reads host memory"):
        compiled("f32", "cpu")(OnGpu(), A)


def test_outputs_cross_to_torch_without_a_copy():
    y, = compiled("f32", "cpu")(A, A)
    t = torch.from_dlpack(y)
    assert t.data_ptr() == y.ctypes.data
    del y
    for _ in range(10):
        compiled("f32", "cpu")(A + 1, A)
    np.testing.assert_array_equal(t.numpy(), 2 * A)


def test_concurrent_calls():
    f = compiled("i64", "cpu")
    errors = []

    def work(n):
        a = np.arange(n * 3, dtype=np.int64).reshape(n, 3)
        for _ in range(200):
            y, = f(a, a)
            if not np.array_equal(y, 2 * a):
                errors.append(n)
                return

    threads = [threading.Thread(target=work, args=(n,)) for n in (1, 7, 300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
