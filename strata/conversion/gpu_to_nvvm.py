"""`convert-gpu-to-nvvm`: the kernels of each gpu.module to the llvm and nvvm dialects,
as upstream's pass (with the arith, cf, math, index, memref and func lowerings of
conversion/to_llvm, index as i64).

    gpu.func @main_kernel(%arg0: memref<16xf32>) kernel {
      %0 = gpu.thread_id x
      ...
      gpu.return
=>
    llvm.func @main_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64,
                           %arg4: i64) attributes {gpu.kernel, nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = llvm.sext %0 : i32 to i64
      ...
      llvm.return

ids and sizes: thread_id -> tid, block_id -> ctaid, block_dim -> ntid, grid_dim ->
nctaid (i32, sign-extended to the index width); gpu.global_id -> ctaid * ntid + tid;
gpu.lane_id -> laneid; gpu.barrier -> nvvm.barrier; gpu.shuffle -> nvvm.shfl.sync with
upstream's active mask and clamp (`return_value_and_is_valid`). A memref argument is
passed as upstream's descriptor, field by field (backends/cuda/plan.py packs the launch
arguments to match). Host code (func.func) is left alone.

[Note: asserts in kernels]
A cf.assert in a kernel cannot call the host's strata_assert_fail: as upstream
(AssertOpToAssertfailLowering), it calls CUDA's `__assertfail(message, file, line,
function, char size)`, which stops the kernel with a device-side assert (the message,
naming the ONNX node, is printed by the driver); the call then fails with
CUDA_ERROR_ASSERT and the runtime raises RuntimeFailure naming the kernel. A device
assert is sticky in CUDA: the context, and so the model, is unusable after it (a CPU
target's failed check leaves the model usable). Declarations and message globals go
into the kernel's gpu.module (to_llvm/common.py, symbol_table_body).
"""
from __future__ import annotations

from ..dialects.llvm import types as LT
from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass
from .scalar_builders import op_class
from ..rewrite.conversion import apply_partial_conversion
from .to_llvm.common import LLVMPattern, llvm_target
from .to_llvm.func import FuncLowering, ReturnLowering
from .to_llvm.type_converter import LLVMTypeConverter

__all__ = ["ConvertGpuToNVVM", "gpu_to_nvvm_patterns"]

_SREG = {"gpu.thread_id": "tid", "gpu.block_id": "ctaid", "gpu.block_dim": "ntid",
         "gpu.grid_dim": "nctaid"}


class _Sreg(LLVMPattern):
    """gpu.<id or size> x -> nvvm.read.ptx.sreg.<reg>.x, extended to the index width."""

    def match_and_rewrite(self, op, operands, rewriter):
        d = op.properties["dimension"].value
        b = self.builder(rewriter, op)
        if op.name == "gpu.global_id":
            vals = [_read(rewriter, op, f"{r}.{d}") for r in ("ctaid", "ntid", "tid")]
            v = b.add(b.mul(vals[0], vals[1]), vals[2])
        else:
            v = _read(rewriter, op, f"{_SREG[op.name]}.{d}")
        rewriter.replace_op(op, [_extend(b, v, self.index_type)])
        return True


def _read(rewriter, op, reg):
    o = op_class(f"nvvm.read.ptx.sreg.{reg}").create((), [A.i32], None, None, (), 0, op.loc)
    rewriter.insert(o)
    return o.results[0]


def _extend(b, v, index_type):
    if index_type.width == 32:
        return v
    return b.create("llvm.sext", [v], [index_type]).results[0]


class _LaneId(LLVMPattern):
    root = "gpu.lane_id"

    def match_and_rewrite(self, op, operands, rewriter):
        b = self.builder(rewriter, op)
        rewriter.replace_op(op, [_extend(b, _read(rewriter, op, "laneid"), self.index_type)])
        return True


class _Barrier(LLVMPattern):
    root = "gpu.barrier"

    def match_and_rewrite(self, op, operands, rewriter):
        seg = A.DenseArrayAttr(A.i32, [0, 0])
        rewriter.insert(op_class("nvvm.barrier").create(
            (), (), {"operandSegmentSizes": seg, "aligned": A.IntegerAttr(1, A.i1)}, None,
            (), 0, op.loc))
        rewriter.erase_op(op)
        return True


class _Shuffle(LLVMPattern):
    """gpu.shuffle -> nvvm.shfl.sync, as upstream's GPUShuffleOpLowering."""

    root = "gpu.shuffle"

    def match_and_rewrite(self, op, operands, rewriter):
        value, offset, width = operands
        vt = value.type
        if vt not in (A.f32, A.i32):
            return rewriter.notify_match_failure(op, "shuffles of f32 and i32 only")
        b = self.builder(rewriter, op)

        def c(n):
            return b.const(n, A.i32)
        mode = op.properties["mode"].value
        num_lanes = b.sub(c(32), width)
        active = b.binary("llvm.lshr", c(-1), num_lanes)
        # (upstream's clamp operand: 32 - width for up, width - 1 otherwise)
        clamp = num_lanes if mode == "up" else b.sub(width, c(1))
        kind = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}[mode]
        from ..dialects.nvvm import SHFL_KIND
        kind_attr = SHFL_KIND(kind)
        st = LT.LLVMStructType([vt, A.i1])
        sh = op_class("nvvm.shfl.sync").create(
            [active, value, offset, clamp], [st],
            {"kind": kind_attr, "return_value_and_is_valid": A.UnitAttr()}, None, (), 0,
            op.loc)
        rewriter.insert(sh)
        r = b.extractvalue(sh.results[0], [0])
        p = b.extractvalue(sh.results[0], [1])
        rewriter.replace_op(op, [r, p])
        return True


class _GpuFunc(FuncLowering):
    """gpu.func -> llvm.func; a kernel gets `gpu.kernel` and `nvvm.kernel`."""

    root = "gpu.func"

    def match_and_rewrite(self, op, operands, rewriter):
        if "kernel" in op.properties:
            attrs = dict(op.attributes)
            attrs["gpu.kernel"] = A.UnitAttr()
            attrs["nvvm.kernel"] = A.UnitAttr()
            op.attributes = attrs
        return super().match_and_rewrite(op, operands, rewriter)


# [Note: libdevice]
# NVPTX has no instructions for most transcendental functions (LLVM cannot select
# llvm.sin, llvm.pow, llvm.exp on f64...) and a kernel cannot call the C library. As
# upstream (populateLibDeviceConversionPatterns), those math ops become calls of NVIDIA's
# libdevice (`__nv_sinf`, `__nv_pow`...), whose bitcode the PTX step links in
# (backends/cuda/ptx.py, libdevice.10.bc from the CUDA wheels or Triton). Only what NVPTX
# cannot do itself goes there: sqrt, fabs, floor, ceil, fma... stay instructions, and
# exp, log, tanh, erf on f32 are Strata's polynomials (strata-math-polynomial-
# approximation) before this pass.
LIBDEVICE = {"math.sin": "sin", "math.cos": "cos", "math.tan": "tan", "math.asin": "asin",
             "math.acos": "acos", "math.atan": "atan", "math.atan2": "atan2",
             "math.sinh": "sinh", "math.cosh": "cosh", "math.tanh": "tanh",
             "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh",
             "math.erf": "erf", "math.erfc": "erfc", "math.cbrt": "cbrt",
             "math.powf": "pow", "math.exp": "exp", "math.exp2": "exp2",
             "math.expm1": "expm1", "math.log": "log", "math.log2": "log2",
             "math.log10": "log10", "math.log1p": "log1p"}


class _LibDevice(LLVMPattern):
    """math.<fn> on f32 / f64 scalars -> llvm.call @__nv_<fn>f / @__nv_<fn> (see
    [Note: libdevice])."""

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        if t not in (A.f32, A.f64) or any(v.type is not t for v in operands):
            return rewriter.notify_match_failure(op, "libdevice takes f32 and f64 scalars")
        name = "__nv_" + LIBDEVICE[op.name] + ("f" if t is A.f32 else "")
        from .to_llvm.common import lookup_or_declare
        lookup_or_declare(rewriter, op, name, LT.LLVMFunctionType(t, [t] * len(operands)))
        b = self.builder(rewriter, op)
        rewriter.replace_op(op, [b.call(name, list(operands), t)])
        return True


# [Note: workgroup memory]
# Shared memory is a module-level variable in PTX (`.shared`), so, as upstream lowers a
# gpu.func's workgroup attributions, each workgroup buffer of a kernel (a static
# memref.alloc / alloca in `#gpu.address_space<workgroup>`, what
# strata-gpu-tile-contractions makes) becomes `llvm.mlir.global internal @__wg_<kernel>_<i>()
# {addr_space = 3 : i32, alignment = 16 : i64}` (no initializer: undef, as shared memory
# is) and the allocation its address in a memref descriptor; its deallocation is nothing.
# First the gpu address spaces of memref types become NVVM's numbers (global 1,
# workgroup 3, private 5: upstream's populateGpuMemorySpaceAttributeConversions for
# NVVM), so the type converter sees integer memory spaces only.
NVVM_ADDRESS_SPACES = {"global": 1, "workgroup": 3, "private": 5}
_SHARED_ATTR = "strata.workgroup_global"


def _numbered(t):
    """`t` with a gpu address space replaced by NVVM's number (memrefs only)."""
    if type(t) is A.MemRefType and t.memory_space is not None and \
            type(t.memory_space) is not A.IntegerAttr:
        from ..dialects.gpu import address_space_of
        space = address_space_of(t)
        if space in NVVM_ADDRESS_SPACES:
            return A.MemRefType(t.shape, t.element_type, t.layout,
                                A.IntegerAttr(NVVM_ADDRESS_SPACES[space], A.i64))
    return t


def _prepare_workgroup_memory(module) -> None:
    """Number the address spaces, and give each workgroup allocation of the module's
    kernels its global (see [Note: workgroup memory])."""
    from ..ir.symbol_table import symbol_name
    from .to_llvm.builder import llvm_op
    body = module.regions[0].blocks[0]
    taken = {symbol_name(o) for o in body.ops if "sym_name" in o.properties}
    for f in list(body.ops):
        if f.name != "gpu.func":
            continue
        n = 0
        for o in f.walk():
            for r in o.regions:
                for blk in r.blocks:
                    for a in blk.args:
                        a.type = _numbered(a.type)
            for r in o.results:
                r.type = _numbered(r.type)
            if o.name not in ("memref.alloc", "memref.alloca") or o.operands:
                continue
            t = o.results[0].type
            if t.memory_space is None or getattr(t.memory_space, "value", 0) != 3:
                continue
            name = f"__wg_{symbol_name(f)}_{n}"
            while name in taken:
                n += 1
                name = f"__wg_{symbol_name(f)}_{n}"
            taken.add(name)
            n += 1
            arr = _array_type(t)
            g = llvm_op("llvm.mlir.global").new(name, arr, linkage="internal",
                                                alignment=16, loc=o.loc)
            g.properties["addr_space"] = A.IntegerAttr(3, A.i32)
            body.insert_before(f, g)
            o.set_attr(_SHARED_ATTR, A.StringAttr(name))


def _array_type(t):
    """The LLVM array type of a static memref's elements (nested by dims)."""
    from .to_llvm.memref import _global_type
    return _global_type(LLVMTypeConverter(64), t)


class _WorkgroupAlloc(LLVMPattern):
    """A workgroup allocation -> the address of its global (see [Note: workgroup
    memory])."""

    def match_and_rewrite(self, op, operands, rewriter):
        name = op.attributes.get(_SHARED_ATTR)
        if name is None:
            return rewriter.notify_match_failure(op, "not workgroup memory")
        from .to_llvm.memref import _global_type, descriptor_sizes, make_descriptor
        t = op.results[0].type
        b = self.builder(rewriter, op)
        sizes, strides, _ = descriptor_sizes(b, self.tc, t, [])
        p = LT.LLVMPointerType(3)
        addr = b.create("llvm.mlir.addressof", [], [p],
                        {"global_name": A.SymbolRefAttr(name.value)}).results[0]
        gep = b.gep(addr, [0] * (len(t.shape) + 1), _global_type(self.tc, t))
        rewriter.replace_op(op, [make_descriptor(b, self.tc, t, addr, gep, sizes, strides)])
        return True


class _WorkgroupDealloc(LLVMPattern):
    root = "memref.dealloc"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.operands[0].type
        if type(t) is not A.MemRefType or getattr(t.memory_space, "value", 0) != 3:
            return rewriter.notify_match_failure(op, "not workgroup memory")
        rewriter.erase_op(op)
        return True


# [Note: nvgpu to nvvm]
# As upstream's convert-nvgpu-to-nvvm: a fragment vector<R x E x T> is, once converted,
# an !llvm.array<R x vector<E x T>> (one register per row). nvgpu.ldmatrix becomes
# nvvm.ldmatrix on the address of the lane's row (layout col when transposed), each i32
# it returns bitcast to vector<2 x f16>; nvgpu.mma.sync becomes nvvm.mma.sync on the
# registers (row-major A, column-major B, as the fragments are laid out), TF32 operands
# and bf16 pairs bitcast to i32 (what their intrinsics take), f32 accumulators passed
# as four scalars, and the returned struct put back into C's array.
def _nvvm_op(rewriter, name, operands, results, props, loc):
    o = op_class(name).create(list(operands), list(results), props, None, (), 0, loc)
    rewriter.insert(o)
    return o


class _LdMatrix(LLVMPattern):
    root = "nvgpu.ldmatrix"

    def match_and_rewrite(self, op, operands, rewriter):
        from ..dialects.nvvm import LD_ST_MATRIX_ELT_TYPE, MMA_LAYOUT, ShapeAttr
        from .to_llvm.memref import strided_element_ptr
        mt = op.operands[0].type
        b = self.builder(rewriter, op)
        ptr = strided_element_ptr(b, self.tc, mt, operands[0], list(operands[1:]))
        num = op.properties["numTiles"].value
        trans = bool(op.properties["transpose"].value)
        rt = A.i32 if num == 1 else LT.LLVMStructType([A.i32] * num)
        ld = _nvvm_op(rewriter, "nvvm.ldmatrix", [ptr], [rt], {
            "num": A.IntegerAttr(num, A.i32),
            "layout": MMA_LAYOUT("col" if trans else "row"),
            "shape": ShapeAttr("ld_st_matrix_shape", [("m", 8), ("n", 8)]),
            "eltType": LD_ST_MATRIX_ELT_TYPE("b16")}, op.loc).results[0]
        et = op.results[0].type.element_type
        vt = A.VectorType([2], et)
        out = b.undef(LT.LLVMArrayType(num, vt))
        for i in range(num):
            r = ld if num == 1 else b.extractvalue(ld, [i])
            out = b.insertvalue(out, b.cast("llvm.bitcast", r, vt), [i])
        rewriter.replace_op(op, [out])
        return True


class _MmaSync(LLVMPattern):
    root = "nvgpu.mma.sync"

    def match_and_rewrite(self, op, operands, rewriter):
        from ..dialects.nvvm import MMA_LAYOUT, MMA_TYPE, ShapeAttr
        m, n, k = (a.value for a in op.properties["mmaShape"].value)
        ta, tb, tc_ = (v.type for v in op.operands)
        et = ta.element_type
        if et is A.f32 and "tf32Enabled" not in op.properties:
            return rewriter.notify_match_failure(op, "f32 operands need tf32Enabled")
        if et not in (A.f16, A.bf16, A.f32):
            return rewriter.notify_match_failure(op, f"{et} operands are not lowered yet")
        b = self.builder(rewriter, op)
        regs = []
        for v, t in zip(operands[:2], (ta, tb)):
            rs = []
            for i in range(t.shape[0]):
                r = b.extractvalue(v, [i])
                if et is A.bf16:      # (the bf16 intrinsic takes the pairs as i32)
                    r = b.cast("llvm.bitcast", r, A.i32)
                if et is A.f32:       # a TF32 register: the f32's bits
                    r = b.cast("llvm.bitcast", b.create(
                        "llvm.extractelement", [r, b.const(0, A.i32)], [A.f32]).results[0],
                        A.i32)
                rs.append(r)
            regs.append(rs)
        ct = tc_.element_type
        cs = []
        for i in range(tc_.shape[0]):
            r = b.extractvalue(operands[2], [i])
            if ct is A.f32:
                cs += [b.create("llvm.extractelement", [r, b.const(e, A.i32)],
                                [A.f32]).results[0] for e in range(tc_.shape[1])]
            else:
                cs.append(r)
        rt = LT.LLVMStructType([c.type for c in cs])
        ptx = {A.f32: "tf32", A.bf16: "bf16"}.get(et, "f16")
        seg = A.DenseArrayAttr(A.i32, [len(regs[0]), len(regs[1]), len(cs)])
        mma = _nvvm_op(rewriter, "nvvm.mma.sync", regs[0] + regs[1] + cs, [rt], {
            "operandSegmentSizes": seg,
            "shape": ShapeAttr("shape", [("m", m), ("n", n), ("k", k)]),
            "layoutA": MMA_LAYOUT("row"), "layoutB": MMA_LAYOUT("col"),
            "multiplicandAPtxType": MMA_TYPE(ptx), "multiplicandBPtxType": MMA_TYPE(ptx)},
            op.loc).results[0]
        vt = A.VectorType([tc_.shape[1]], ct)
        out = b.undef(LT.LLVMArrayType(tc_.shape[0], vt))
        for i in range(tc_.shape[0]):
            if ct is A.f32:
                vec = b.undef(vt)
                for e in range(tc_.shape[1]):
                    x = b.extractvalue(mma, [i * tc_.shape[1] + e])
                    vec = b.create("llvm.insertelement", [vec, x, b.const(e, A.i32)],
                                   [vt]).results[0]
            else:
                vec = b.extractvalue(mma, [i])
            out = b.insertvalue(out, vec, [i])
        rewriter.replace_op(op, [out])
        return True


# [Note: fragment vectors in kernels]
# The tensor core fragments are n-D vectors (vector<4x2xf16>), an !llvm.array of 1-D
# vectors once converted. The few vector ops kernels apply to them are lowered here,
# as upstream's convert-vector-to-llvm does for n-D vectors: vector.extract and
# vector.insert at static positions (extractvalue / insertvalue down to the 1-D row,
# then extractelement / insertelement), vector.broadcast of a scalar, and an n-D splat
# arith.constant (one splat row, repeated).
def _static_position(op):
    if any(True for _ in op.operands[1 if op.name == "vector.extract" else 2:]):
        return None
    return list(op.properties["static_position"].value)


def _row_type(t):
    return A.VectorType([t.shape[-1]], t.element_type)


class _VectorExtract(LLVMPattern):
    root = "vector.extract"

    def match_and_rewrite(self, op, operands, rewriter):
        pos = _static_position(op)
        st = op.operands[0].type
        if pos is None or len(st.shape) < 2:
            return rewriter.notify_match_failure(op, "dynamic position or a 1-D vector")
        b = self.builder(rewriter, op)
        if len(pos) < len(st.shape):
            rewriter.replace_op(op, [b.extractvalue(operands[0], pos)])
            return True
        row = b.extractvalue(operands[0], pos[:-1])
        rewriter.replace_op(op, [b.create("llvm.extractelement", [
            row, b.const(pos[-1], A.i64)], [op.results[0].type]).results[0]])
        return True


class _VectorInsert(LLVMPattern):
    root = "vector.insert"

    def match_and_rewrite(self, op, operands, rewriter):
        pos = _static_position(op)
        dt = op.operands[1].type
        if pos is None or len(dt.shape) < 2:
            return rewriter.notify_match_failure(op, "dynamic position or a 1-D vector")
        b = self.builder(rewriter, op)
        v, dest = operands[0], operands[1]
        if len(pos) < len(dt.shape):
            rewriter.replace_op(op, [b.insertvalue(dest, v, pos)])
            return True
        row = b.extractvalue(dest, pos[:-1])
        row = b.create("llvm.insertelement", [row, v, b.const(pos[-1], A.i64)],
                       [row.type]).results[0]
        rewriter.replace_op(op, [b.insertvalue(dest, row, pos[:-1])])
        return True


def _nd_from_row(b, row, t, tc):
    """The converted n-D vector of type `t` whose every row is `row`."""
    out = b.undef(tc.convert_type(t))
    import itertools
    for idx in itertools.product(*(range(n) for n in t.shape[:-1])):
        out = b.insertvalue(out, row, list(idx))
    return out


class _VectorBroadcast(LLVMPattern):
    root = "vector.broadcast"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        if len(t.shape) < 2 or type(op.operands[0].type) is A.VectorType:
            return rewriter.notify_match_failure(op, "a scalar broadcast to n-D only")
        b = self.builder(rewriter, op)
        rt = _row_type(t)
        row = b.undef(rt)
        for e in range(t.shape[-1]):
            row = b.create("llvm.insertelement", [row, operands[0], b.const(e, A.i64)],
                           [rt]).results[0]
        rewriter.replace_op(op, [_nd_from_row(b, row, t, self.tc)])
        return True


class _NdSplatConstant(LLVMPattern):
    root = "arith.constant"

    def match_and_rewrite(self, op, operands, rewriter):
        from ..ir import dense as D
        t = op.results[0].type
        a = op.properties.get("value")
        if type(t) is not A.VectorType or len(t.shape) < 2 or \
                not isinstance(a, D.DenseElementsAttr) or not a.is_splat:
            return rewriter.notify_match_failure(op, "not an n-D splat vector constant")
        b = self.builder(rewriter, op)
        rt = _row_type(t)
        row = b.const_attr(D.DenseElementsAttr(rt, a.splat_value), rt)
        rewriter.replace_op(op, [_nd_from_row(b, row, t, self.tc)])
        return True


def gpu_to_nvvm_patterns(tc) -> list:
    """The gpu ops' patterns and the llvm lowerings of the other dialects."""
    from .to_llvm.umbrella import all_patterns
    pats = [_GpuFunc(tc), ReturnLowering(tc, root="gpu.return"), _LaneId(tc), _Barrier(tc),
            _Shuffle(tc)]
    for name in ("memref.alloc", "memref.alloca"):
        pat = _WorkgroupAlloc(tc, root=name)
        pat.benefit = 2
        pats.append(pat)
    pat = _WorkgroupDealloc(tc)
    pat.benefit = 2
    pats += [pat, _LdMatrix(tc), _MmaSync(tc), _VectorExtract(tc), _VectorInsert(tc),
             _VectorBroadcast(tc)]
    pat = _NdSplatConstant(tc)
    pat.benefit = 2
    pats.append(pat)
    for name in ("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim",
                 "gpu.global_id"):
        pats.append(_Sreg(tc, root=name))
    # before math's own lowering (intrinsics and C library calls NVPTX cannot take)
    for name in LIBDEVICE:
        pat = _LibDevice(tc, root=name)
        pat.benefit = 2
        pats.append(pat)
    return pats + all_patterns(tc)


class ConvertGpuToNVVM(Pass):
    name = "convert-gpu-to-nvvm"
    summary = "Generate NVVM operations for gpu operations"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")

    def run(self, op):
        from .to_llvm.cf import lower_asserts
        modules = [op] if op.name == "gpu.module" else \
            [o for o in op.walk() if o.name == "gpu.module"]
        for m in modules:
            lower_asserts(m, fail=_ASSERTFAIL)
            _prepare_workgroup_memory(m)
            tc = LLVMTypeConverter(self.index_bitwidth or 64)
            target = llvm_target()
            target.add_legal_dialect("nvvm")
            for name in ("gpu.func", "gpu.return", "gpu.thread_id", "gpu.block_id",
                         "gpu.block_dim", "gpu.grid_dim", "gpu.global_id", "gpu.lane_id",
                         "gpu.barrier", "gpu.shuffle", "nvgpu.ldmatrix", "nvgpu.mma.sync"):
                target.add_illegal_op(name)
            apply_partial_conversion([m], target, gpu_to_nvvm_patterns(tc))


def _assertfail_args(b, message, op):
    """CUDA's __assertfail(message, file, line, function, char size): the file and
    function are the message too (Strata's messages name the ONNX node), line 0."""
    from ..ir.location import FileLineColLoc
    loc = op.loc
    line = loc.line if isinstance(loc, FileLineColLoc) else 0
    return [message, message, b.const(line, A.i32), message, b.const(1, A.i64)]


# (see [Note: asserts in kernels])
_ASSERTFAIL = ("__assertfail",
               LT.LLVMFunctionType(LT.void, [LT.ptr, LT.ptr, A.i32, LT.ptr, A.i64]),
               _assertfail_args)


from ..passes.registry import register_pass  # noqa: E402

register_pass(ConvertGpuToNVVM)
