"""The cuda target's PTX path without a GPU: llvm dialect -> LLVM IR for nvptx64 (the
shared translation, backends/cpu/llvmir.py) -> PTX (llvmlite's NVPTX backend) -> ptxas
(PyPI nvidia-cuda-nvcc, a test dependency) for sm_80 and sm_90."""
import pytest

from strata.backends.cuda import ptx, ptxas
from strata.backends.cpu.llvmir import translate_to_llvmir
from strata.dialects import default_context
from strata.errors import StrataError
from strata.syntax.parser import parse_source

needs_ptxas = pytest.mark.skipif(ptxas.find() is None,
                                 reason="ptxas not found (pip install nvidia-cuda-nvcc)")

KERNEL = """
module {
  llvm.func @scale(%p: !llvm.ptr<1>, %n: i64, %s: f32) attributes {nvvm.kernel} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %ok = llvm.icmp "slt" %c0, %n : i64
    llvm.cond_br %ok, ^body, ^done
  ^body:
    %q = llvm.getelementptr %p[%c0] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %q : !llvm.ptr<1> -> f32
    %w = llvm.fmul %v, %s : f32
    llvm.store %w, %q : f32, !llvm.ptr<1>
    llvm.br ^done
  ^done:
    llvm.return
  }
  llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<32 x f32>
}
"""


def _ir(text=KERNEL):
    m = parse_source(text, default_context(), "k.mlir")
    return translate_to_llvmir(m, triple=ptx.NVPTX_TRIPLE, datalayout=ptx.nvptx_datalayout())


def test_kernel_calling_convention_and_address_spaces():
    ir = _ir()
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir
    assert "define ptx_kernel void @scale(ptr addrspace(1) %arg0, i64 %arg1, float %arg2)" \
        in ir
    assert "@tile = internal addrspace(3) global [32 x float] undef" in ir


@pytest.mark.parametrize("arch,version", [("sm_80", ".version 7.0"),
                                          ("sm_90", ".version 7.8")])
def test_ptx_for_each_arch(arch, version):
    text = ptx.emit_ptx(_ir(), arch)
    assert f".target {arch}" in text and version in text
    assert ".visible .entry scale(" in text
    assert ".shared" in text or "tile" not in text   # (dropped when unused)


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_emitted_ptx(arch):
    ptxas.check(ptx.emit_ptx(_ir(), arch), arch, "scale.ptx")


@needs_ptxas
def test_ptxas_rejects_bad_ptx_with_its_message():
    bad = ptx.emit_ptx(_ir(), "sm_90").replace("ld.global", "ld.glbal")
    with pytest.raises(ptxas.PtxasError, match=r"scale\.ptx: ptxas -arch=sm_90 failed"):
        ptxas.check(bad, "sm_90", "scale.ptx")


def test_ptxas_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("STRATA_PTXAS", str(tmp_path / "nope"))
    assert ptxas.find() is None
    with pytest.raises(ptxas.PtxasMissing, match="pip install nvidia-cuda-nvcc"):
        ptxas.check(".version 7.8", "sm_90")


def test_unknown_arch():
    with pytest.raises(StrataError, match="unknown CUDA architecture 'sm_91'"):
        ptx.emit_ptx(_ir(), "sm_91")


def test_llvm_rejects_bad_ir_with_a_strata_error():
    with pytest.raises(StrataError, match="invalid LLVM IR"):
        ptx.emit_ptx("define void @f() { ret i32 0 }", "sm_90")


def test_unknown_dialect_op_is_located():
    text = '"test.op"() : () -> ()'
    m = parse_source("module {\n llvm.func @f() {\n " + text + "\n llvm.return\n }\n}",
                     default_context(allow_unregistered=True), "u.mlir")
    with pytest.raises(StrataError, match="u.mlir:3:.*'test.op' op cannot be translated"):
        translate_to_llvmir(m, triple="", datalayout="")


GPU_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %g = gpu.global_id x
      %v = memref.load %a[%g] : memref<?xf32>
      gpu.barrier
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
      %d, %ok2 = gpu.shuffle down %s, %c1, %c32 : f32
      memref.store %d, %a[%t] : memref<?xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_gpu_ops_to_ptx(arch):
    """gpu ids, barrier and shuffles through convert-gpu-to-nvvm, the translation and
    the NVPTX backend: the PTX instructions they are, and ptxas takes it."""
    from strata.backends.cuda.target import kernel_ptx
    from strata.compiler import build_pipeline
    m = parse_source(GPU_KERNEL, default_context(), "k.mlir")
    build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
    gm = next(o for o in m.regions[0].ops if o.name == "gpu.module")
    text = kernel_ptx(gm, arch)
    for instr in ("mov.u32 \t%r", "%tid.x", "%ctaid.x", "%ntid.x", "bar.sync \t0",
                  "shfl.sync.bfly.b32", "shfl.sync.down.b32"):
        assert instr in text, instr
    if ptxas.find() is not None:
        ptxas.check(text, arch, "k.ptx")


def test_kernel_assert_to_ptx():
    """cf.assert in a kernel: a call of __assertfail that ptxas resolves."""
    from strata.backends.cuda.target import kernel_ptx
    from strata.compiler import build_pipeline
    text = GPU_KERNEL.replace(
        "      gpu.barrier\n",
        "      %z = arith.constant 0 : index\n"
        "      %inb = arith.cmpi sge, %g, %z : index\n"
        '      cf.assert %inb, "Gather at g0: index out of range"\n      gpu.barrier\n')
    m = parse_source(text, default_context(), "k.mlir")
    build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
    gm = next(o for o in m.regions[0].ops if o.name == "gpu.module")
    ptx_text = kernel_ptx(gm, "sm_90")
    assert ".extern .func __assertfail" in ptx_text
    assert "call.uni" in ptx_text or "call " in ptx_text
    if ptxas.find() is not None:
        ptxas.check(ptx_text, "sm_90", "assert.ptx")


def test_what_nvptx_cannot_select_is_refused_not_an_abort():
    """LLVM aborts the process on an intrinsic NVPTX cannot select: it never gets one."""
    ir = ('target triple = "nvptx64-nvidia-cuda"\n'
          "define ptx_kernel void @k(ptr addrspace(1) %p) {\n"
          "  %a = load float, ptr addrspace(1) %p\n"
          "  %r = call float @llvm.sin.f32(float %a)\n"
          "  store float %r, ptr addrspace(1) %p\n  ret void\n}\n"
          "declare float @llvm.sin.f32(float)\n")
    with pytest.raises(StrataError, match=r"cannot compile llvm.sin.f32 in a kernel"):
        ptx.emit_ptx(ir)
    with pytest.raises(StrataError, match=r"a kernel calls 'sinf', which does not exist"):
        ptx.emit_ptx(ir.replace("llvm.sin.f32", "sinf"))


MATH_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<?xf32>
      %s = math.sin %x : f32
      %p = math.powf %s, %x : f32
      %y = memref.load %b[%t] : memref<?xf64>
      %e = math.exp %y : f64
      %q = math.atan2 %e, %y : f64
      memref.store %p, %a[%t] : memref<?xf32>
      memref.store %q, %b[%t] : memref<?xf64>
      gpu.return
    }
  }
}
"""


def _math_module():
    from strata.compiler import build_pipeline
    m = parse_source(MATH_KERNEL, default_context(), "m.mlir")
    build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
    return m, next(o for o in m.regions[0].ops if o.name == "gpu.module")


def test_math_goes_to_libdevice():
    from strata.syntax.printer import print_op
    _, gm = _math_module()
    text = print_op(gm)
    for call in ("llvm.call @__nv_sinf(", "llvm.call @__nv_powf(", "llvm.call @__nv_exp(",
                 "llvm.call @__nv_atan2("):
        assert call in text, call


@pytest.mark.skipif(ptx.find_libdevice() is None,
                    reason="libdevice.10.bc not found (pip install nvidia-cuda-nvcc)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_libdevice_linked_and_assembled(arch):
    from strata.backends.cuda.target import kernel_ptx
    _, gm = _math_module()
    text = kernel_ptx(gm, arch)
    assert "__nv_" not in text and ".extern" not in text    # inlined, nothing unresolved
    if ptxas.find() is not None:
        ptxas.check(text, arch, "math.ptx")


def test_libdevice_missing(monkeypatch, tmp_path):
    from strata.backends.cuda.target import kernel_ptx
    monkeypatch.setenv("STRATA_LIBDEVICE", str(tmp_path / "libdevice.10.bc"))
    _, gm = _math_module()
    with pytest.raises(StrataError, match=r"needs NVIDIA's libdevice .*pip install "
                                          r"nvidia-cuda-nvcc"):
        kernel_ptx(gm, "sm_90")
