"""llvm-dialect functions translated to LLVM IR, compiled by llvmlite (strata/backends/cpu/
jit.py) and called with ctypes; an object file linked into a shared library."""
import ctypes
import math
import shutil
import subprocess

import numpy as np
import pytest

from strata.backends.cpu.llvmir import translate_to_llvmir
from strata.dialects import default_context
from strata.errors import StrataError
from strata.syntax.parser import parse_source

pytest.importorskip("llvmlite.binding")
from strata.backends.cpu.jit import (JitModule, LLVMError, emit_assembly,  # noqa: E402
                                     emit_object, host_target_machine)

# A memref<?xf32> descriptor: allocated, aligned, offset, sizes[1], strides[1].
DESC = "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>"

MODULE = f"""
module {{
  llvm.func @expf(f32) -> f32
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.mlir.global external @bias() {{addr_space = 0 : i32, alignment = 16 : i64}} : !llvm.array<4 x f32>
  llvm.mlir.global internal constant @table(dense<[0.5, 1.5, 2.5, 3.5]> : tensor<4xf32>) {{addr_space = 0 : i32}} : !llvm.array<4 x f32>

  llvm.func @add(%a: i32, %b: i32) -> i32 {{
    %0 = llvm.add %a, %b : i32
    llvm.return %0 : i32
  }}

  // sum(buffer[offset : offset + size : stride]) with the descriptor's fields expanded,
  // as func-to-llvm passes a memref.
  llvm.func @sum(%alloc: !llvm.ptr, %aligned: !llvm.ptr, %off: i64, %size: i64,
                 %stride: i64) -> f32 {{
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    llvm.br ^head(%c0, %zero : i64, f32)
  ^head(%i: i64, %acc: f32):
    %more = llvm.icmp "slt" %i, %size : i64
    llvm.cond_br %more, ^body, ^exit
  ^body:
    %scaled = llvm.mul %i, %stride : i64
    %idx = llvm.add %off, %scaled : i64
    %p = llvm.getelementptr inbounds %aligned[%idx] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
    %acc2 = llvm.fadd %acc, %v : f32
    %next = llvm.add %i, %c1 : i64
    llvm.br ^head(%next, %acc2 : i64, f32)
  ^exit:
    llvm.return %acc : f32
  }}

  // The C interface: a pointer to the descriptor.
  llvm.func @_mlir_ciface_sum(%d: !llvm.ptr) -> f32 {{
    %desc = llvm.load %d : !llvm.ptr -> {DESC}
    %a = llvm.extractvalue %desc[0] : {DESC}
    %b = llvm.extractvalue %desc[1] : {DESC}
    %o = llvm.extractvalue %desc[2] : {DESC}
    %n = llvm.extractvalue %desc[3, 0] : {DESC}
    %s = llvm.extractvalue %desc[4, 0] : {DESC}
    %r = llvm.call @sum(%a, %b, %o, %n, %s) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> f32
    llvm.return %r : f32
  }}

  // exp(x) + table[i] + bias[i], through a malloc'ed scratch cell.
  llvm.func @exp_plus(%x: f32, %i: i64) -> f32 {{
    %n = llvm.mlir.constant(4 : i64) : i64
    %cell = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
    %e = llvm.call @expf(%x) : (f32) -> f32
    llvm.store %e, %cell : f32, !llvm.ptr
    %t = llvm.mlir.addressof @table : !llvm.ptr
    %tp = llvm.getelementptr %t[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
    %tv = llvm.load %tp : !llvm.ptr -> f32
    %bb = llvm.mlir.addressof @bias : !llvm.ptr
    %bp = llvm.getelementptr %bb[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %bv = llvm.load %bp : !llvm.ptr -> f32
    %ev = llvm.load %cell : !llvm.ptr -> f32
    llvm.call @free(%cell) : (!llvm.ptr) -> ()
    %s = llvm.fadd %ev, %tv : f32
    %r = llvm.fadd %s, %bv : f32
    llvm.return %r : f32
  }}
}}
"""


@pytest.fixture(scope="module")
def ir():
    return translate_to_llvmir(parse_source(MODULE, default_context()))


@pytest.fixture(scope="module")
def bias():
    return np.array([100.0, 200.0, 300.0, 400.0], np.float32)


@pytest.fixture(scope="module")
def jit(ir, bias):
    return JitModule(ir, opt_level=2, symbols={"bias": bias.ctypes.data})


def test_integer_add(jit):
    f = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32)(jit.address_of("add"))
    assert f(40, 2) == 42
    assert f(2 ** 31 - 1, 1) == -2 ** 31


def test_loop_over_a_strided_buffer(jit):
    a = np.arange(20, dtype=np.float32)
    f = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                         ctypes.c_int64, ctypes.c_int64)(jit.address_of("sum"))
    p = a.ctypes.data
    assert f(p, p, 3, 5, 2) == a[3:13:2].sum()
    assert f(p, p, 0, 0, 1) == 0.0


def test_c_interface_with_a_descriptor(jit):
    class Desc(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                    ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 1),
                    ("strides", ctypes.c_int64 * 1)]
    a = np.linspace(0, 1, 1000, dtype=np.float32)
    d = Desc(a.ctypes.data, a.ctypes.data, 0, (1000,), (1,))
    f = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.POINTER(Desc))(
        jit.address_of("_mlir_ciface_sum"))
    assert f(ctypes.byref(d)) == pytest.approx(float(a.sum()), rel=1e-5)


def test_libm_malloc_free_and_bound_globals(jit, bias):
    f = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_float, ctypes.c_int64)(
        jit.address_of("exp_plus"))
    assert f(1.0, 2) == pytest.approx(math.e + 2.5 + 300.0, rel=1e-6)
    bias[2] = 1000.0  # bound by address: the JIT'd code reads the array itself
    assert f(0.0, 2) == pytest.approx(1.0 + 2.5 + 1000.0)


def test_timings_and_lookup_errors(jit):
    assert set(jit.timings) == {"parse", "optimize", "codegen"}
    assert all(t >= 0 for t in jit.timings.values())
    with pytest.raises(StrataError, match="'nope' is not defined"):
        jit.address_of("nope")
    assert "define" in jit.optimized_ir


def test_opt_levels_agree(ir, bias):
    a = np.arange(7, dtype=np.float32)
    for level in (0, 1, 3):
        j = JitModule(ir, opt_level=level, symbols={"bias": bias.ctypes.data})
        f = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(
            j.address_of("sum"))
        assert f(a.ctypes.data, a.ctypes.data, 0, 7, 1) == 21.0


def test_invalid_ir_is_a_strata_error():
    with pytest.raises(LLVMError, match="invalid LLVM IR"):
        JitModule("define i32 @f() {\n  ret i64 0\n}\n")
    with pytest.raises(StrataError):
        emit_object("this is not LLVM IR")


def test_host_target_machine_has_host_features():
    import llvmlite.binding as llvm
    tm = host_target_machine()
    assert tm.triple == llvm.get_process_triple()
    asm = emit_assembly("define float @f(float %x) {\n  %y = fmul float %x, %x\n"
                        "  ret float %y\n}\n")
    assert "f:" in asm


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler to link with")
def test_object_linked_into_a_shared_library(ir, tmp_path):
    # The object leaves `bias` undefined: the library gets it from a C file.
    timings = {}
    obj = emit_object(ir, timings=timings)
    assert set(timings) == {"parse", "optimize", "codegen"}
    (tmp_path / "m.o").write_bytes(obj)
    (tmp_path / "bias.c").write_text("float bias[4] = {1, 2, 3, 4};\n")
    lib = tmp_path / "libm_test.so"
    subprocess.run(["cc", "-shared", "-o", str(lib), str(tmp_path / "m.o"),
                    str(tmp_path / "bias.c"), "-lm"], check=True, capture_output=True)
    dll = ctypes.CDLL(str(lib))
    dll.add.restype = ctypes.c_int32
    dll.add.argtypes = [ctypes.c_int32, ctypes.c_int32]
    assert dll.add(20, 22) == 42
    dll.exp_plus.restype = ctypes.c_float
    dll.exp_plus.argtypes = [ctypes.c_float, ctypes.c_int64]
    assert dll.exp_plus(0.0, 3) == pytest.approx(1.0 + 3.5 + 4.0)
