"""strata.runtime on a hand-written LLVM IR entry point (upstream's C interface): the
descriptor ABI, argument checks, and outputs that own their malloc'd buffers."""
import gc

import numpy as np
import pytest

llvm = pytest.importorskip("llvmlite.binding")

from strata.errors import StrataError  # noqa: E402
from strata.runtime import MemRefSpec, NativeModule, Signature  # noqa: E402

# @main doubles a ?x3 f32 buffer into a freshly malloc'd one.
IR = r'''
declare ptr @malloc(i64)
define void @_mlir_ciface_main(ptr %res, ptr %a) {
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
  %w = fmul float %v, 2.0
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
'''


class _Jit:
    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        m = llvm.parse_assembly(IR)
        m.verify()
        tm = llvm.Target.from_default_triple().create_target_machine()
        self.engine = llvm.create_mcjit_compiler(m, tm)
        self.engine.finalize_object()

    def address_of(self, name):
        return self.engine.get_function_address(name)


@pytest.fixture(scope="module")
def main():
    sig = Signature([MemRefSpec(np.float32, (None, 3), ("N", None))],
                    [MemRefSpec(np.float32, (None, 3))])
    return NativeModule(_Jit(), {"main": sig}).function("main")


def test_call_and_owned_output(main):
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y, = main(x)
    np.testing.assert_array_equal(y, 2 * x)
    assert y.base is not None and type(y.base).__name__ == "_OwnedBuffer"
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
    with pytest.raises(StrataError, match="takes 1 inputs, got 2"):
        main(np.zeros((1, 3), np.float32), np.zeros((1, 3), np.float32))


def test_unknown_entry():
    sig = Signature([MemRefSpec(np.float32, (None, 3))], [MemRefSpec(np.float32, (None, 3))])
    mod = NativeModule(_Jit(), {"main": sig})
    with pytest.raises(StrataError, match="no entry point @other"):
        mod.function("other")
