"""Tensor core kernels down to PTX: nvgpu.ldmatrix / nvgpu.mma.sync (f16 m16n8k16 and
TF32 m16n8k8) through convert-gpu-to-nvvm ([Note: nvgpu to nvvm]), the LLVM IR
translation (backends/cuda/nvvm_llvmir.py) and llvmlite's NVPTX backend, assembled by
ptxas for sm_80 and sm_90: the instructions are there, shared memory is what the kernel
allocates, nothing spills."""
import pathlib

import pytest

from strata.backends.cuda import ptxas
from strata.backends.cuda.target import kernel_ptx
from strata.compiler import build_pipeline
from strata.dialects import default_context
from strata.syntax.parser import parse_source

KERNEL = (pathlib.Path(__file__).parents[1] / "lit" / "passes" / "convert-gpu-to-nvvm" /
          "nvgpu.mlir")


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tensor_core_kernel_assembles(arch):
    m = parse_source(KERNEL.read_text(), default_context(), str(KERNEL))
    build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
    (gm,) = [op for op in m.regions[0].ops if op.name == "gpu.module"]
    text = kernel_ptx(gm, arch)
    for inst in ("ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                 "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
                 "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                 "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"):
        assert inst in text
    (usage,) = ptxas.resources(text, arch).values()
    assert usage["smem"] == 16 * 16 * 2 + 16 * 8 * 2
    assert usage["spill_stores"] == 0


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
def test_bf16_mma_assembles():
    text = KERNEL.read_text().replace("xf16", "xbf16")
    m = parse_source(text, default_context(), "k.mlir")
    build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
    (gm,) = [op for op in m.regions[0].ops if op.name == "gpu.module"]
    ptx = kernel_ptx(gm, "sm_80")
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in ptx
    ptxas.check(ptx, "sm_80")


def test_f32_mma_without_tf32_is_refused_with_a_message():
    text = KERNEL.read_text().replace(" tf32Enabled", "")
    m = parse_source(text, default_context(), "k.mlir")
    with pytest.raises(Exception, match="(?s)failed to legalize operation 'nvgpu.mma.sync'"
                                        ".*f32 operands need tf32Enabled"):
        build_pipeline("convert-gpu-to-nvvm,reconcile-unrealized-casts").run(m)
