"""The nvvm dialect's ops in LLVM IR: NVVM intrinsic calls (upstream's
NVVMToLLVMIRTranslation), registered into the shared translation (backends/cpu/llvmir.py,
[Note: dialect translations]) when it meets its first nvvm op.

    %0 = nvvm.read.ptx.sreg.tid.x : i32
      -> %t0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
    nvvm.barrier (or nvvm.barrier0)
      -> call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
    %1 = nvvm.shfl.sync bfly %mask, %v, %off, %clamp : f32 -> f32
      -> %t1 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 %mask, float %v, i32 %off,
                                                         i32 %clamp)
    %2 = nvvm.ldmatrix %p, num = 4, layout = <row>, ... -> !llvm.struct<(i32, i32, i32, i32)>
      -> call {i32, i32, i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(...)
    %3 = nvvm.mma.sync A[...] B[...] C[...] shape = <m = 16, n = 8, k = 16>, ... (f32 C)
      -> call {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(...)

The kernel calling convention (`ptx_kernel` for an llvm.func with `nvvm.kernel`) is the
translation's own.
"""
from __future__ import annotations

import re

from ..cpu.llvmir import register_op_translation

__all__ = ["SREGS"]

# Special registers nvvm reads with `nvvm.read.ptx.sreg.<name>` (all i32).
SREGS = tuple(f"{r}.{d}" for r in ("tid", "ntid", "ctaid", "nctaid", "clusterid",
                                   "nclusterid") for d in "xyz") + (
    "laneid", "warpsize", "warpid", "nwarpid", "smid", "nsmid", "gridid")


def _sreg(name):
    intrinsic = f"llvm.nvvm.read.ptx.sreg.{name}"

    def handle(tr, op):
        rt = tr.ty(op.results[0].type)
        tr.declare(intrinsic, f"declare {rt} @{intrinsic}()")
        return f"  {tr.res(op)} = call {rt} @{intrinsic}()"
    return handle


def _barrier0(tr, op):
    name = "llvm.nvvm.barrier.cta.sync.aligned.all"
    tr.declare(name, f"declare void @{name}(i32)")
    return f"  call void @{name}(i32 0)"


def _barrier(tr, op):
    """nvvm.barrier [id = %i [number_of_threads = %n]] [aligned = false]."""
    aligned = op.properties.get("aligned")
    kind = "aligned" if aligned is None or aligned.value else ""
    args = [tr.tv(v) for v in op.operands] or ["i32 0"]
    name = "llvm.nvvm.barrier.cta.sync" + (f".{kind}" if kind else "") + \
        (".all" if len(args) == 1 else "")
    tr.declare(name, f"declare void @{name}(" + ", ".join(["i32"] * len(args)) + ")")
    return f"  call void @{name}(" + ", ".join(args) + ")"


_KIND = re.compile(r"\b(bfly|up|down|idx)\b")


def _shfl_sync(tr, op):
    kind = _KIND.search(str(op.properties.get("kind")))
    if kind is None:
        raise ValueError(f"nvvm.shfl.sync has no shuffle kind: {op.properties.get('kind')}")
    val = op.operand(1)
    vt = tr.ty(val.type)
    suffix = {"float": "f32", "i32": "i32"}.get(vt)
    if suffix is None:
        raise ValueError(f"nvvm.shfl.sync of type '{val.type}' (expected f32 or i32)")
    pred = "return_value_and_is_valid" in op.properties
    name = f"llvm.nvvm.shfl.sync.{kind.group(1)}.{suffix}{'p' if pred else ''}"
    rt = f"{{ {vt}, i1 }}" if pred else vt
    tr.declare(name, f"declare {rt} @{name}(i32, {vt}, i32, i32)")
    args = ", ".join(tr.tv(v) for v in op.operands)
    return f"  {tr.res(op)} = call {rt} @{name}({args})"


def _ldmatrix(tr, op):
    """nvvm.ldmatrix -> llvm.nvvm.ldmatrix.sync.aligned.m8n8.x<num>[.trans].b16.p3."""
    num = op.properties["num"].value
    trans = "col" in str(op.properties["layout"])
    name = f"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.b16.p3"
    rt = tr.ty(op.results[0].type)
    tr.declare(name, f"declare {rt} @{name}(ptr addrspace(3))")
    return f"  {tr.res(op)} = call {rt} @{name}({tr.tv(op.operand(0))})"


def _mma_sync(tr, op):
    """nvvm.mma.sync -> llvm.nvvm.mma.m<m>n<n>k<k>.<la>.<lb>.<types> (f16 operands: the
    D and C types; tf32 and bf16: the operand type)."""
    p = op.properties
    dims = dict(p["shape"].dims)
    la = "col" if "col" in str(p["layoutA"]) else "row"
    lb = "col" if "col" in str(p["layoutB"]) else "row"
    ptx = re.search(r"<(\w+)>", str(p.get("multiplicandAPtxType"))).group(1)
    rt = op.results[0].type
    if ptx == "f16":
        seg = p["operandSegmentSizes"].value
        c = op.operand(seg[0] + seg[1])
        dt = "f32" if tr.ty(rt.types[0]) == "float" else "f16"
        ct = "f32" if tr.ty(c.type) == "float" else "f16"
        types = f"{dt}.{ct}"
    else:
        types = ptx
    name = f"llvm.nvvm.mma.m{dims['m']}n{dims['n']}k{dims['k']}.{la}.{lb}.{types}"
    rts = tr.ty(rt)
    tr.declare(name, f"declare {rts} @{name}(" +
               ", ".join(tr.ty(v.type) for v in op.operands) + ")")
    args = ", ".join(tr.tv(v) for v in op.operands)
    return f"  {tr.res(op)} = call {rts} @{name}({args})"


register_op_translation("nvvm.ldmatrix", _ldmatrix)
register_op_translation("nvvm.mma.sync", _mma_sync)
for _r in SREGS:
    register_op_translation(f"nvvm.read.ptx.sreg.{_r}", _sreg(_r))
register_op_translation("nvvm.barrier0", _barrier0)
register_op_translation("nvvm.barrier", _barrier)
register_op_translation("nvvm.shfl.sync", _shfl_sync)
