"""strata.runtime on a hand-written LLVM IR entry point (upstream's C interface): the
descriptor ABI, argument checks, and outputs that own their malloc'd buffers."""
import gc

import numpy as np
import pytest

llvm = pytest.importorskip("llvmlite.binding")

from strata.errors import StrataError  # noqa: E402
from strata.runtime import (InputError, MemRefSpec, NativeModule,  # noqa: E402
                            RuntimeFailure, Signature, as_array, runtime_symbols)

# @scale_impl multiplies a ?x3 f32 buffer by %s into a freshly malloc'd one; the entry
# points around it exercise the C interface: one memref result (@main, @scale with a
# scalar argument, @add2 with two arguments), a result aliasing the argument (@ident), two
# results in one block (@pair), a scalar result (@first), run-time check failures from the
# calling thread (@fail) and from a thread the code starts (@fail_in_thread).
IR = r"""
declare ptr @malloc(i64)
declare void @strata_assert_fail(ptr)
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_join(i64, ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
@boom = private constant [5 x i8] c"boom\00"
@late = private constant [13 x i8] c"worker check\00"

define void @scale_impl(ptr %res, ptr %a, float %s) {
entry:
  %alloc_p = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %a, i32 0, i32 1
  %data = load ptr, ptr %alloc_p
  %s0p = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %a, i32 0, i32 3, i32 0
  %s1p = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %a, i32 0, i32 3, i32 1
  %s0 = load i64, ptr %s0p
  %s1 = load i64, ptr %s1p
  %n = mul i64 %s0, %s1
  %bytes = mul i64 %n, 4
  %out = call ptr @malloc(i64 %bytes)
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i2, %body]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %done
body:
  %pa = getelementptr float, ptr %data, i64 %i
  %v = load float, ptr %pa
  %w = fmul float %v, %s
  %po = getelementptr float, ptr %out, i64 %i
  store float %w, ptr %po
  %i2 = add i64 %i, 1
  br label %loop
done:
  store ptr %out, ptr %res
  %r1 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 1
  store ptr %out, ptr %r1
  %r2 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 2
  store i64 0, ptr %r2
  %r3 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 3, i32 0
  store i64 %s0, ptr %r3
  %r4 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 3, i32 1
  store i64 %s1, ptr %r4
  %r5 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 4, i32 0
  store i64 %s1, ptr %r5
  %r6 = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %res, i32 0, i32 4, i32 1
  store i64 1, ptr %r6
  ret void
}

define void @_mlir_ciface_main(ptr %res, ptr %a) {
  call void @scale_impl(ptr %res, ptr %a, float 2.0)
  ret void
}

define void @_mlir_ciface_scale(ptr %res, ptr %a, float %s) {
  call void @scale_impl(ptr %res, ptr %a, float %s)
  ret void
}

define void @_mlir_ciface_add2(ptr %res, ptr %a, ptr %b) {
  call void @scale_impl(ptr %res, ptr %b, float 2.0)
  ret void
}

define void @_mlir_ciface_ident(ptr %res, ptr %a) {
  call void @llvm.memcpy.p0.p0.i64(ptr %res, ptr %a, i64 56, i1 false)
  ret void
}

define void @_mlir_ciface_pair(ptr %res, ptr %a) {
  call void @scale_impl(ptr %res, ptr %a, float 2.0)
  %second = getelementptr i8, ptr %res, i64 56
  call void @llvm.memcpy.p0.p0.i64(ptr %second, ptr %res, i64 56, i1 false)
  ret void
}

define float @_mlir_ciface_first(ptr %a) {
  %alloc_p = getelementptr {ptr, ptr, i64, [2 x i64], [2 x i64]}, ptr %a, i32 0, i32 1
  %data = load ptr, ptr %alloc_p
  %v = load float, ptr %data
  ret float %v
}

define void @_mlir_ciface_fail(ptr %res, ptr %a) {
  call void @strata_assert_fail(ptr @boom)
  call void @scale_impl(ptr %res, ptr %a, float 2.0)
  ret void
}

define ptr @worker(ptr %arg) {
  call void @strata_assert_fail(ptr @late)
  ret ptr null
}

define void @_mlir_ciface_fail_in_thread(ptr %res, ptr %a) {
  %t = alloca i64
  %rc = call i32 @pthread_create(ptr %t, ptr null, ptr @worker, ptr null)
  %tid = load i64, ptr %t
  %rj = call i32 @pthread_join(i64 %tid, ptr null)
  call void @scale_impl(ptr %res, ptr %a, float 2.0)
  ret void
}
"""


class _Jit:
    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        for name, address in runtime_symbols().items():
            llvm.add_symbol(name, address)
        m = llvm.parse_assembly(IR)
        m.verify()
        tm = llvm.Target.from_default_triple().create_target_machine()
        self.engine = llvm.create_mcjit_compiler(m, tm)
        self.engine.finalize_object()

    def address_of(self, name):
        return self.engine.get_function_address(name)


def _rows(dims=None):
    return MemRefSpec(np.float32, (None, 3), dims)


@pytest.fixture(scope="module")
def mod():
    one = Signature([_rows(("N", None))], [_rows()])
    return NativeModule(_Jit(), {
        "main": one, "ident": one, "fail": one, "fail_in_thread": one,
        "scale": Signature([_rows(), MemRefSpec(np.float32, (), scalar=True)], [_rows()]),
        "add2": Signature([_rows(("N", None)), _rows(("N", None))], [_rows()]),
        "pair": Signature([_rows()], [_rows(), _rows()]),
        "first": Signature([_rows()], [MemRefSpec(np.float32, (), scalar=True)])})


@pytest.fixture(scope="module")
def main(mod):
    return mod.function("main")


def test_call_and_owned_output(main):
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y, = main(x)
    np.testing.assert_array_equal(y, 2 * x)
    assert y.base is not None and type(y.base).__name__ == "_OwnedBlock"
    view = y[1:]
    del y
    gc.collect()
    np.testing.assert_array_equal(view, 2 * x[1:])  # the buffer lives while a view does


def test_non_contiguous_input_is_copied(main):
    x = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(4, 3))
    np.testing.assert_array_equal(main(x)[0], 2 * x)
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(main(base[:, ::2])[0], 2 * base[:, ::2])


def test_empty_batch(main):
    y, = main(np.zeros((0, 3), np.float32))
    assert y.shape == (0, 3)


@pytest.mark.parametrize("value, message", [
    (np.zeros((4, 3), np.float64), "expected dtype float32, got float64"),
    (np.zeros((2, 4), np.float32), r"expected shape \(\?, 3\), got \(2, 4\)"),
    (np.zeros((3,), np.float32), r"expected shape \(\?, 3\), got \(3,\)"),
])
def test_bad_inputs(main, value, message):
    with pytest.raises(StrataError, match=message):
        main(value)


def test_wrong_count(main):
    with pytest.raises(StrataError, match="takes 1 input, got 2"):
        main(np.zeros((1, 3), np.float32), np.zeros((1, 3), np.float32))


def test_unknown_entry(mod):
    with pytest.raises(StrataError, match="no entry point @other"):
        mod.function("other")


X = np.arange(12, dtype=np.float32).reshape(4, 3)


# ---------------------------------------------------------------- the C interface


def test_scalar_argument_and_two_arguments(mod):
    np.testing.assert_array_equal(mod.function("scale")(X, np.float32(0.5))[0], X * 0.5)
    np.testing.assert_array_equal(mod.function("add2")(X, X + 1)[0], 2 * (X + 1))


def test_dim_groups_must_agree(mod):
    with pytest.raises(InputError, match=r"dynamic dim 'N' differs between inputs "
                                         r"\(input #0 dim 0 = 4, input #1 dim 0 = 2\)"):
        mod.function("add2")(X, X[:2])


def test_output_aliasing_the_input_is_a_copy(mod):
    x = X.copy()
    y, = mod.function("ident")(x)
    np.testing.assert_array_equal(y, X)
    assert not np.shares_memory(x, y) and y.flags.writeable
    del x
    np.testing.assert_array_equal(y, X)
    # an input copied for its layout: the output is copied from it before it goes
    np.testing.assert_array_equal(mod.function("ident")(np.asfortranarray(X))[0], X)


def test_two_results_in_one_block(mod):
    a, b = mod.function("pair")(X)
    np.testing.assert_array_equal(a, 2 * X)
    np.testing.assert_array_equal(b, 2 * X)
    assert not np.shares_memory(a, b)  # the second is a copy: the block is freed once
    del a
    np.testing.assert_array_equal(b, 2 * X)


def test_scalar_result(mod):
    r, = mod.function("first")(X + 7)
    assert r == 7 and r.dtype == np.float32


@pytest.mark.parametrize("entry, message", [("fail", "boom"), ("fail_in_thread", "worker check")])
def test_runtime_failure(mod, entry, message):
    with pytest.raises(RuntimeFailure, match=f"@{entry}: run-time check failed: {message}"):
        mod.function(entry)(X)
    np.testing.assert_array_equal(mod.function("main")(X)[0], 2 * X)  # nothing left over


def test_misaligned_and_byte_swapped_inputs(main):
    raw = np.zeros(X.nbytes + 1, np.uint8)[1:]
    x = raw.view(np.float32).reshape(4, 3)
    x[...] = X
    assert not x.flags.aligned
    np.testing.assert_array_equal(main(x)[0], 2 * X)
    np.testing.assert_array_equal(main(X.astype(">f4"))[0], 2 * X)


# ---------------------------------------------------------------- Python values


def test_python_values_are_converted(main):
    np.testing.assert_array_equal(main([[1, 2, 3]])[0], [[2, 4, 6]])
    np.testing.assert_array_equal(main(((0.5, 1, 1.5),))[0], [[1, 2, 3]])


class _Thing:
    pass


@pytest.mark.parametrize("value, message", [
    ("abc", r"input #0 of @main: expected float32 values, got a str \('abc'\)$"),
    (object(), "expected an array .NumPy, DLPack. or numbers, got an object$"),
    (_Thing(), "expected an array .NumPy, DLPack. or numbers, got an object of type "
               "test_runtime._Thing$"),
    ([[1, 2], [3]], r"expected a rectangular array, got a ragged list \(\[0\] has 2 "
                    r"items, \[1\] has 1\)$"),
    ([[1, 2, "x"]], r"expected float32 values, got a list holding a str \('x'\) at "
                    r"\[0\]\[2\]$"),
    ([[1j, 2, 3]], r"expected float32 values, got a list holding a Python complex \(1j\) "
                   r"at \[0\]\[0\]$"),
    ([[None, 2, 3]], r"expected float32 values, got a list holding None at \[0\]\[0\]$"),
    (3.0, r"expected shape \(\?, 3\), got a Python float$"),
    (None, "expected an array .NumPy, DLPack. or numbers, got None$"),
    ({"x": 1}, "expected an array .NumPy, DLPack. or numbers, got a dict$"),
    (np.float32(1), r"expected shape \(\?, 3\), got a NumPy float32 scalar$"),
    (np.array(1, np.float32), r"expected shape \(\?, 3\), got a 0-d float32 array$"),
    ([1.0, 2.0, 3.0], r"expected shape \(\?, 3\), got a list of shape \(3,\)$"),
    (np.array([["a", "b", "c"]]), "expected dtype float32, got str$"),
])
def test_bad_python_values(main, value, message):
    with pytest.raises(InputError, match=message):
        main(value)


def test_as_array():
    assert as_array([1, 2], np.dtype(np.int8)).dtype == np.int8
    with pytest.raises(InputError, match=r"x: expected int64 values, got a list holding a "
                                         r"Python float \(1.5\) at \[0\]"):
        as_array([1.5], np.dtype(np.int64), "x")
    with pytest.raises(InputError, match="cannot convert a list to an array of uint8: .*300"):
        as_array([300], np.dtype(np.uint8))
    assert as_array([True, 2.5], np.dtype(np.float16)).dtype == np.float16
    assert as_array(["a", "bc"], np.dtype(object)).tolist() == ["a", "bc"]
    a = np.arange(3.0)
    assert as_array(a) is a


# ---------------------------------------------------------------- DLPack


torch = pytest.importorskip("torch")


def test_torch_inputs_zero_copy(main):
    t = torch.arange(12, dtype=torch.float32).reshape(4, 3)
    a = as_array(t)
    assert a.ctypes.data == t.data_ptr()  # imported, not copied
    np.testing.assert_array_equal(main(t)[0], 2 * X)


def test_non_contiguous_torch_input(main):
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4).T[:, :3]
    np.testing.assert_array_equal(main(t)[0], 2 * t.numpy())
    wide = torch.arange(24, dtype=torch.float32).reshape(4, 6)[:, ::2]
    np.testing.assert_array_equal(main(wide)[0], 2 * wide.numpy())


class _OnDevice:
    def __init__(self, device):
        self.device = device

    def __dlpack__(self, **kw):
        raise AssertionError("not to be called")

    def __dlpack_device__(self):
        return self.device


@pytest.mark.parametrize("value, message", [
    (torch.zeros(4, 3, dtype=torch.float64), "expected dtype float32, got float64"),
    (torch.zeros(4, 3, dtype=torch.int64), "expected dtype float32, got int64"),
    (torch.zeros(4, 3, dtype=torch.bfloat16), "input #0 of @main: cannot import the Tensor "
                                              "of dtype torch.bfloat16 through DLPack"),
    (torch.zeros(4, 3, requires_grad=True), "cannot import the Tensor.*detach"),
    (_OnDevice((2, 1)), "input #0 of @main: the _OnDevice is on DLPack device cuda:1"),
    (torch.zeros(2, 4), r"expected shape \(\?, 3\), got \(2, 4\)"),
])
def test_bad_dlpack_inputs(main, value, message):
    with pytest.raises(InputError, match=message):
        main(value)


def test_torch_bfloat16_bits_where_the_input_is_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    t = torch.tensor([1.5, -2.0], dtype=torch.bfloat16)
    a = as_array(t, np.dtype(ml_dtypes.bfloat16))
    assert a.dtype == ml_dtypes.bfloat16 and a.tolist() == [1.5, -2.0]
    assert a.ctypes.data == t.data_ptr()


def test_output_to_torch_without_a_copy(main):
    y, = main(X)
    t = torch.from_dlpack(y)
    assert t.data_ptr() == y.ctypes.data
    del y
    for _ in range(20):  # the freed-too-early buffer would be reused by these
        main(X + 100)
    np.testing.assert_array_equal(t.numpy(), 2 * X)


# ---------------------------------------------------------------- threads


def test_concurrent_calls_from_threads(mod):
    """Each call in flight has its own descriptors: two threads calling the same
    function with different shapes never see each other's arguments or results."""
    import threading
    f = mod.function("scale")
    errors = []

    def work(rows, factor):
        x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        try:
            for _ in range(300):
                y, = f(x, np.float32(factor))
                if y.shape != x.shape or not np.array_equal(y, x * factor):
                    errors.append((rows, y.shape))
                    return
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(rows, factor))
               for rows, factor in ((5, 2.0), (1000, 3.0), (17, -1.0))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert 1 <= len(f._pool) <= len(threads)
