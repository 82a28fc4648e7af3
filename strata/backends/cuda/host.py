"""The host side of a model compiled for the cuda target as native code: the host
function (after gpu-kernel-outlining and the kernels' PTX) lowered through the CPU
backend, its gpu.launch_func ops turned into calls of a small runtime shim that calls
the CUDA driver through function pointers. A call of the model is one native call.

    func.func @main(%arg0: memref<4x300xf32>) -> memref<4x300xf32> {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x300xf32>
      gpu.launch_func @main_kernel::@main_kernel blocks in (%c5, %c1, %c1)
          threads in (%c256, %c1, %c1) args(%arg0 : memref<4x300xf32>, ...)
      return %alloc : memref<4x300xf32>
    }
=>  (strata-gpu-host-to-runtime-calls)
    %params = memref.alloca() : memref<16xi64>    // the kernel's argument slots
    ... memref.store of each field (extract_strided_metadata, aligned pointer) ...
    func.call @__strata_cuda_launch(%site, %gx, %gy, %gz, %bx, %by, %bz, %smem, %p, %c16)
=>  convert-to-llvm; memref.alloc / dealloc call @__strata_cuda_malloc / _free (device
    memory, stream-ordered), cf.assert calls @__strata_cuda_assert_fail

[Note: the host runtime shim]
As upstream's gpu-to-llvm lowers gpu.launch_func to calls of its runtime wrappers
(mgpuLaunchKernel, mgpuMemAlloc...), the host code calls four functions of a shim
(`SHIM_IR`, LLVM IR, compiled once per loaded model), whose state is globals the loader
fills: the driver's cuLaunchKernel, cuMemAllocAsync and cuMemFreeAsync (function
pointers resolved once from libcuda.so.1), the model's stream, the table of the
weights' device copies (`HostCode.weights`' order), and the table of
CUfunction handles, one per launch site (`HostCode.sites`: a site is one
gpu.launch_func, so an error names its kernel and the op it came from).

    ptr  __strata_cuda_malloc(i64 nbytes, i64 at)  cuMemAllocAsync on the stream (`at`:
                                                   the allocation site, for errors)
    void __strata_cuda_free(ptr p)                 cuMemFreeAsync on the stream
    void __strata_cuda_launch(i64 site, i64 gx, gy, gz, bx, by, bz, i64 smem,
                              i64 params, i64 n)   cuLaunchKernel of the n 8-byte slots
                                                   at `params` (empty grid: nothing)
    void __strata_cuda_assert_fail(ptr message)    a failed run-time check
    ptr  __strata_cuda_weight(i64 k)               the device copy of weight k
    i64  __strata_cuda_read(i64 addr, i64 nbytes)  a device value read back by the
                                                   host (cuMemcpyDtoHAsync, then
                                                   cuStreamSynchronize)

The first failure (a launch error, out of memory, a failed check) is kept in
@__strata_cuda_status / _site / _message and every later allocation or launch of the
call is skipped (an allocation gives null, never read on the host: the host code only
computes addresses), so the call returns and the loader raises one RuntimeFailure
naming the kernel and its op (runtime.py); the model stays usable. Device memory comes
from the device's stream-ordered pool (its release threshold raised by the loader), so
a second call of the same shapes reuses the first call's memory.

[Note: host functions the shim cannot run]
The host code computes with sizes and addresses, and reads single device values back
(memref.load: a run-time check's operand, a size; `__strata_cuda_read`). A host
function that writes device memory on the host (memref.store, memref.copy), reads a
shape operand (memref.reshape) or holds a host stack buffer (memref.alloca) is left to
the launch plan
interpreted in Python (plan.py), the fallback; `lower_host` says why in
`HostCode.fallback`.
"""
from __future__ import annotations

import itertools

from ...errors import StrataError
from ...ir import attributes as A

__all__ = ["HostCode", "lower_host", "SHIM_IR", "host_blockers", "lower_launches"]

LAUNCH = "__strata_cuda_launch"
MALLOC = "__strata_cuda_malloc"
FREE = "__strata_cuda_free"
ASSERT_FAIL = "__strata_cuda_assert_fail"
READ = "__strata_cuda_read"
WEIGHT = "__strata_cuda_weight"
# Calls the CPU lowering makes, and the shim functions they become on the host.
_RENAMED = {"malloc": MALLOC, "free": FREE, "strata_assert_fail": ASSERT_FAIL}
_uid = itertools.count()


class HostCode:
    """The native host side of one entry function: `ir` (LLVM IR of the host module,
    calling the shim), `entry` (its C interface symbol), `sites` (per launch site:
    (gpu.module, kernel, origin)), `allocs` (per allocation site: the origin of the op
    that allocates), `weights` (name -> array, in the order of the
    shim's table of device copies: `__strata_cuda_weight(k)` is the k-th). `fallback`:
    why the host function stays a launch plan (then `ir` is None)."""

    __slots__ = ("ir", "entry", "sites", "weights", "fallback", "allocs")

    def __init__(self, ir=None, entry=None, sites=(), weights=None, fallback=None,
                 allocs=()):
        self.ir = ir
        self.entry = entry
        self.sites = list(sites)
        self.weights = weights or {}
        self.fallback = fallback
        self.allocs = list(allocs)     # the origin of each allocation site


# ---------------------------------------------------------------- which host functions

_VIEW_AND_META = frozenset({
    "memref.alloc", "memref.dealloc", "memref.get_global", "memref.expand_shape",
    "memref.collapse_shape", "memref.cast", "memref.reinterpret_cast", "memref.subview",
    "memref.dim", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index",
    "memref.assume_alignment"})


def host_blockers(func_op) -> list:
    """The ops of host function `func_op` the native host code cannot run (see [Note:
    host functions the shim cannot run]), as located texts."""
    out = []
    for op in func_op.walk():
        name = op.name
        dialect = name.partition(".")[0]
        if name in _VIEW_AND_META or dialect in ("arith", "math", "index", "cf") or \
                name in ("func.func", "func.return", "gpu.launch_func", "scf.if", "scf.for",
                         "scf.yield", "scf.while", "scf.condition", "scf.execute_region",
                         "ub.poison"):
            if name in ("memref.alloc",) and not _identity(op.results[0].type):
                out.append(f"{op.loc}: {name} of a non-identity layout")
            continue
        if name == "memref.load" and _readable(op.operands[0].type.element_type):
            continue     # a device value read back (see _lower_load)
        out.append(f"{op.loc}: {name}")
    return out


def _readable(t):
    """Whether a device element of type `t` can be read back in one 64-bit word."""
    return isinstance(t, (A.IndexType, A.IntegerType)) and getattr(t, "width", 64) <= 64 \
        or isinstance(t, A.FloatType) and t.name in ("f16", "bf16", "f32", "f64")


def _identity(t):
    from ...dialects.memref_layout import is_identity_layout
    return is_identity_layout(t)


# ---------------------------------------------------------------- launches, device reads

def lower_launches(module) -> list:
    """Every gpu.launch_func of the host functions of `module` -> its arguments stored
    as 8-byte slots (see [Note: kernel arguments] in plan.py) and a call of
    @__strata_cuda_launch; the gpu.modules are dropped (their PTX is made before).
    Returns the launch sites, in walk order, as (gpu.module, kernel, origin)."""
    from .plan import _origin
    from ...conversion.scalar_builders import op_class
    body = module.regions[0].blocks[0]
    sites = []
    for f in list(body.ops):
        if f.name != "func.func" or not f.regions[0].blocks:
            continue
        entry = f.regions[0].blocks[0]
        for op in [o for o in f.walk() if o.name in ("gpu.launch_func", "memref.load")]:
            if op.name == "memref.load":
                _lower_load(op, op_class)
                continue
            kernel = op.properties["kernel"]
            kname = kernel.nested[0] if kernel.nested else kernel.root
            sites.append((kernel.root, getattr(kname, "value", kname), _origin(op)))
            _lower_launch(op, len(sites) - 1, entry, op_class)
    for op in list(body.ops):
        if op.name == "gpu.module":
            op.erase()
    attrs = module.attributes
    if "gpu.container_module" in attrs:
        del attrs["gpu.container_module"]
    for name, ft in ((LAUNCH, A.FunctionType([A.i64] * 10, [])),
                     (READ, A.FunctionType([A.i64] * 2, [A.i64]))):
        if any(o.name == "func.func" and _sym(o) == name for o in body.ops):
            continue
        decl = op_class("func.func").create(
            [], [], {"sym_name": A.StringAttr(name), "function_type": A.TypeAttr(ft),
                     "sym_visibility": A.StringAttr("private")}, None, (), 1, module.loc)
        body.insert_before(body.first, decl)
    return sites


def _lower_load(op, op_class):
    """memref.load on the host of a device buffer -> its address computed from the
    descriptor and a call of @__strata_cuda_read (the stream synchronized, the element
    copied back: a size or a run-time check's operand, as the plan's "load" step)."""
    block_, loc = op.parent, op.loc
    m = op.operands[0]
    t = m.type
    et = t.element_type

    def v(name, operands, rt, props=None):
        o = op_class(name).create(list(operands), [rt], props, None, (), 0, loc)
        block_.insert_before(op, o)
        return o.results[0]

    def const(n, ty=A.index):
        return v("arith.constant", [], ty, {"value": A.IntegerAttr(n, ty)})
    rank = len(t.shape)
    base_t = A.MemRefType([], et, None, t.memory_space)
    meta = op_class("memref.extract_strided_metadata").create(
        [m], [base_t, A.index] + [A.index] * (2 * rank), None, None, (), 0, loc)
    block_.insert_before(op, meta)
    strides = meta.results[2 + rank:]
    index = meta.results[1]
    for i, s in zip(op.operands[1:], strides):
        index = v("arith.addi", [index, v("arith.muli", [i, s], A.index)], A.index)
    width = 64 if isinstance(et, A.IndexType) else et.width
    nbytes = max(width // 8, 1)
    ptr = v("memref.extract_aligned_pointer_as_index", [m], A.index)
    addr = v("arith.addi", [ptr, v("arith.muli", [index, const(nbytes)], A.index)], A.index)
    bits = op_class("func.call").create(
        [v("arith.index_cast", [addr], A.i64), const(nbytes, A.i64)], [A.i64],
        {"callee": A.SymbolRefAttr(READ)}, None, (), 0, loc)
    block_.insert_before(op, bits)
    bits = bits.results[0]
    if isinstance(et, A.IndexType):
        val = v("arith.index_cast", [bits], A.index)
    else:
        narrow = bits if width == 64 else v("arith.trunci", [bits], A.IntegerType(width))
        val = narrow if isinstance(et, A.IntegerType) else \
            v("arith.bitcast", [narrow], et)
    op.results[0].replace_all_uses_with(val)
    op.erase()


def _sym(op):
    n = op.properties.get("sym_name")
    return getattr(n, "value", None)


def _lower_launch(op, site, entry, op_class):
    from .plan import _segments
    seg = _segments(op)
    if seg is None or len(seg) < 12 or seg[0] or seg[-1] or seg[7] or seg[8] or seg[9]:
        raise StrataError(f"{op.loc}: the cuda target launches synchronously, without "
                          "async dependencies or clusters")
    ops = list(op.operands)
    grid, block = ops[0:3], ops[3:6]
    pos = 6
    shared = ops[pos] if seg[10] else None
    pos += seg[10]
    args = ops[pos:pos + seg[11]]
    block_ = op.parent
    loc = op.loc

    def new(name, operands, results, props=None, where=op):
        o = op_class(name).create(list(operands), list(results), props, None, (), 0, loc)
        block_.insert_before(where, o)
        return o

    def v(name, operands, rt, props=None):
        return new(name, operands, [rt], props).results[0]

    def const(n, t=A.index):
        return v("arith.constant", [], t, {"value": A.IntegerAttr(n, t)})

    def i64(x):
        t = x.type
        if isinstance(t, A.IndexType):
            return v("arith.index_cast", [x], A.i64)
        if isinstance(t, A.IntegerType):
            if t.width == 64:
                return x
            return v("arith.extui" if t.width == 1 else "arith.extsi", [x], A.i64)
        if isinstance(t, A.FloatType) and t.name in ("f16", "bf16", "f32", "f64"):
            w = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[t.name]
            bits = v("arith.bitcast", [x], A.IntegerType(w))
            return bits if w == 64 else v("arith.extui", [bits], A.i64)
        raise StrataError(f"{op.loc}: cannot pass a value of type '{t}' to a kernel")

    fields = []
    for a in args:
        t = a.type
        if isinstance(t, A.MemRefType):
            rank = len(t.shape)
            p = i64(v("memref.extract_aligned_pointer_as_index", [a], A.index))
            base_t = A.MemRefType([], t.element_type, None, t.memory_space)
            meta = new("memref.extract_strided_metadata", [a],
                       [base_t, A.index] + [A.index] * (2 * rank))
            fields += [p, p] + [i64(r) for r in meta.results[1:]]
        else:
            fields.append(i64(a))
    n = max(len(fields), 1)
    slots_t = A.MemRefType([n], A.i64)
    # (at the function's start: a launch in a loop reuses its slots)
    params = op_class("memref.alloca").create(
        [], [slots_t], {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [0, 0]),
                        "alignment": A.IntegerAttr(8, A.i64)}, None, (), 0, loc)
    entry.insert_before(entry.first, params)
    params = params.results[0]
    for i, f in enumerate(fields):
        new("memref.store", [f, params, const(i)], [])
    p = i64(v("memref.extract_aligned_pointer_as_index", [params], A.index))
    smem = i64(shared) if shared is not None else const(0, A.i64)
    call_args = [const(site, A.i64)] + [i64(x) for x in grid + block] + \
        [smem, p, const(len(fields), A.i64)]
    new("func.call", call_args, [], {"callee": A.SymbolRefAttr(LAUNCH)})
    op.erase()


# ---------------------------------------------------------------- the whole host side

HOST_PIPELINE = (
    "convert-scf-to-cf",
    "canonicalize",
    "arith-expand",
    "convert-to-llvm{safe-division=true}",
    "reconcile-unrealized-casts",
)


def lower_host(module, function: str) -> HostCode:
    """The native host code of entry `function` of `module` (after the kernel pipeline
    and PTX emission; `module` is rewritten in place), or a HostCode whose `fallback`
    says why the launch plan runs it instead."""
    from ...ir.symbol_table import symbol_name
    from ..cpu.llvmir import translate_to_llvmir
    from ..cpu.target import _run, externalize_weights
    body = module.regions[0].blocks[0]
    funcs = [o for o in body.ops if o.name == "func.func" and o.regions[0].blocks]
    entry = next((f for f in funcs if symbol_name(f) == function), None)
    if entry is None:
        return HostCode(fallback=f"no function @{function}")
    for f in funcs:
        blockers = host_blockers(f)
        if blockers:
            return HostCode(fallback="the host function runs on the host: " +
                            "; ".join(blockers[:3]))
    ft = entry.properties["function_type"].value
    if not all(isinstance(t, A.MemRefType) for t in list(ft.inputs) + list(ft.results)) \
            or not ft.results:
        return HostCode(fallback="scalar arguments or results (the plan passes them)")
    sites = lower_launches(module)
    weights = externalize_weights(module, 0, f"__strata_cuda_w{next(_uid)}_")
    entry.set_attr("llvm.emit_c_interface", A.UnitAttr())
    _run(HOST_PIPELINE, module, None, None, "host", False)
    _rename_calls(module)
    allocs = _number_allocations(module)
    _weights_through_table(module, list(weights))
    module.verify()
    ir = translate_to_llvmir(module, module_name="strata_cuda_host")
    return HostCode(ir, "_mlir_ciface_" + function, sites, weights, allocs=allocs)


def _number_allocations(module) -> list:
    """Each call of @__strata_cuda_malloc gets its allocation site as a second operand
    (an out-of-memory error then names the op that allocated); the sites' origins."""
    from ...conversion.scalar_builders import op_class
    from ...dialects.llvm import types as LT
    from ...dialects.llvm.ops import CallOp
    from .plan import _origin
    origins = []
    for op in list(module.walk()):
        if op.name == "llvm.call" and getattr(op.properties.get("callee"), "root",
                                              None) == MALLOC:
            c = op_class("llvm.mlir.constant").create(
                [], [A.i64], {"value": A.IntegerAttr(len(origins), A.i64)}, None, (), 0,
                op.loc)
            op.parent.insert_before(op, c)
            call = CallOp.new(MALLOC, [op.operands[0], c.results[0]], LT.ptr, loc=op.loc)
            op.parent.insert_before(op, call)
            op.results[0].replace_all_uses_with(call.results[0])
            op.erase()
            origins.append(_origin(call))
    for op in module.regions[0].blocks[0].ops:
        if op.name == "llvm.func" and _sym(op) == MALLOC:
            props = dict(op.properties)
            props["function_type"] = A.TypeAttr(LT.LLVMFunctionType(LT.ptr, [A.i64, A.i64]))
            op.properties = props
    return origins


def _rename_calls(module):
    """The CPU lowering's malloc / free / strata_assert_fail -> the shim's (see [Note:
    the host runtime shim])."""
    body = module.regions[0].blocks[0]
    for op in list(body.ops):
        if op.name == "llvm.func" and _sym(op) in _RENAMED:
            props = dict(op.properties)
            props["sym_name"] = A.StringAttr(_RENAMED[_sym(op)])
            op.properties = props
    for op in module.walk():
        if op.name == "llvm.call":
            c = op.properties.get("callee")
            if c is not None and c.root in _RENAMED:
                props = dict(op.properties)
                props["callee"] = A.SymbolRefAttr(_RENAMED[c.root])
                op.properties = props


def _weights_through_table(module, names):
    """Each `llvm.mlir.addressof @w` of a weight -> `llvm.call @__strata_cuda_weight(k)`,
    its device copy's address from the loader's table (a weight lives in device memory,
    no symbol can point there: see [Note: the host runtime shim]); the weights'
    declarations are dropped."""
    from ...conversion.scalar_builders import op_class
    from ...dialects.llvm import types as LT
    from ...dialects.llvm.ops import CallOp
    index = {n: k for k, n in enumerate(names)}
    body = module.regions[0].blocks[0]
    for op in list(module.walk()):
        if op.name != "llvm.mlir.addressof":
            continue
        k = index.get(op.properties["global_name"].root)
        if k is None:
            continue
        c = op_class("llvm.mlir.constant").create(
            [], [A.i64], {"value": A.IntegerAttr(k, A.i64)}, None, (), 0, op.loc)
        op.parent.insert_before(op, c)
        call = CallOp.new(WEIGHT, [c.results[0]], LT.ptr, loc=op.loc)
        op.parent.insert_before(op, call)
        op.results[0].replace_all_uses_with(call.results[0])
        op.erase()
    for op in list(body.ops):
        if op.name == "llvm.mlir.global" and _sym(op) in index:
            op.erase()
    if names:
        from ...dialects.llvm.ops import FuncOp
        body.insert_before(body.first, FuncOp.new(
            WEIGHT, LT.LLVMFunctionType(LT.ptr, [A.i64]), body=False, loc=module.loc))


# ---------------------------------------------------------------- the shim

# See [Note: the host runtime shim]. CUresult is i32; CUdeviceptr i64; handles ptr.
SHIM_IR = r"""
@__strata_cuda_launch_fn = global ptr null
@__strata_cuda_alloc_fn = global ptr null
@__strata_cuda_free_fn = global ptr null
@__strata_cuda_read_fn = global ptr null
@__strata_cuda_sync_fn = global ptr null
@__strata_cuda_stream = global ptr null
@__strata_cuda_kernels = global ptr null
@__strata_cuda_weights = global ptr null
@__strata_cuda_status = global i32 0
@__strata_cuda_site = global i64 -1
@__strata_cuda_bytes = global i64 0
@__strata_cuda_alloc_site = global i64 -1
@__strata_cuda_message = global ptr null
@__strata_cuda_launches = global i64 0

define ptr @__strata_cuda_malloc(i64 %n, i64 %at) {
entry:
  %s = load i32, ptr @__strata_cuda_status
  %bad = icmp ne i32 %s, 0
  br i1 %bad, label %null, label %go
go:
  %p = alloca i64
  store i64 0, ptr %p
  %f = load ptr, ptr @__strata_cuda_alloc_fn
  %st = load ptr, ptr @__strata_cuda_stream
  %n1 = call i64 @llvm.umax.i64(i64 %n, i64 1)
  %c = call i32 %f(ptr %p, i64 %n1, ptr %st)
  %ok = icmp eq i32 %c, 0
  br i1 %ok, label %done, label %fail
fail:
  store i32 %c, ptr @__strata_cuda_status
  store i64 -1, ptr @__strata_cuda_site
  store i64 %n, ptr @__strata_cuda_bytes
  store i64 %at, ptr @__strata_cuda_alloc_site
  br label %null
done:
  %v = load i64, ptr %p
  %r = inttoptr i64 %v to ptr
  ret ptr %r
null:
  ret ptr null
}

define void @__strata_cuda_free(ptr %p) {
entry:
  %z = icmp eq ptr %p, null
  br i1 %z, label %out, label %go
go:
  %f = load ptr, ptr @__strata_cuda_free_fn
  %st = load ptr, ptr @__strata_cuda_stream
  %v = ptrtoint ptr %p to i64
  %c = call i32 %f(i64 %v, ptr %st)
  br label %out
out:
  ret void
}

define void @__strata_cuda_launch(i64 %site, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by,
                                  i64 %bz, i64 %smem, i64 %params, i64 %n) {
entry:
  %s = load i32, ptr @__strata_cuda_status
  %bad = icmp ne i32 %s, 0
  %m1 = call i64 @llvm.smin.i64(i64 %gx, i64 %gy)
  %m2 = call i64 @llvm.smin.i64(i64 %m1, i64 %gz)
  %m3 = call i64 @llvm.smin.i64(i64 %m2, i64 %bx)
  %m4 = call i64 @llvm.smin.i64(i64 %m3, i64 %by)
  %m5 = call i64 @llvm.smin.i64(i64 %m4, i64 %bz)
  %empty = icmp slt i64 %m5, 1
  %skip = or i1 %bad, %empty
  br i1 %skip, label %out, label %check
check:
  ; sizes past what cuLaunchKernel's unsigned ints hold: CUDA_ERROR_INVALID_VALUE, not
  ; a grid wrapped around
  %x1 = icmp ugt i64 %gx, 2147483647
  %y1 = icmp ugt i64 %gy, 65535
  %z1 = icmp ugt i64 %gz, 65535
  %b1 = icmp ugt i64 %bx, 1024
  %b2 = icmp ugt i64 %by, 1024
  %b3 = icmp ugt i64 %bz, 64
  %s1 = icmp ugt i64 %smem, 4294967295
  %o1 = or i1 %x1, %y1
  %o2 = or i1 %o1, %z1
  %o3 = or i1 %o2, %b1
  %o4 = or i1 %o3, %b2
  %o5 = or i1 %o4, %b3
  %o6 = or i1 %o5, %s1
  br i1 %o6, label %toobig, label %go
toobig:
  store i32 1, ptr @__strata_cuda_status
  store i64 %site, ptr @__strata_cuda_site
  br label %out
go:
  %tab = load ptr, ptr @__strata_cuda_kernels
  %slot = getelementptr ptr, ptr %tab, i64 %site
  %fn = load ptr, ptr %slot
  %launch = load ptr, ptr @__strata_cuda_launch_fn
  %st = load ptr, ptr @__strata_cuda_stream
  ; cuLaunchKernel's void **kernelParams: the address of each 8-byte slot
  %slots = inttoptr i64 %params to ptr
  %n1 = call i64 @llvm.umax.i64(i64 %n, i64 1)
  %pp = alloca ptr, i64 %n1
  br label %fill
fill:
  %i = phi i64 [ 0, %go ], [ %i1, %fill ]
  %slot_i = getelementptr i64, ptr %slots, i64 %i
  %pp_i = getelementptr ptr, ptr %pp, i64 %i
  store ptr %slot_i, ptr %pp_i
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n1
  br i1 %more, label %fill, label %call
call:
  %gx3 = trunc i64 %gx to i32
  %gy3 = trunc i64 %gy to i32
  %gz3 = trunc i64 %gz to i32
  %bx3 = trunc i64 %bx to i32
  %by3 = trunc i64 %by to i32
  %bz3 = trunc i64 %bz to i32
  %sm3 = trunc i64 %smem to i32
  %c = call i32 %launch(ptr %fn, i32 %gx3, i32 %gy3, i32 %gz3, i32 %bx3, i32 %by3,
                        i32 %bz3, i32 %sm3, ptr %st, ptr %pp, ptr null)
  %count = load i64, ptr @__strata_cuda_launches
  %count1 = add i64 %count, 1
  store i64 %count1, ptr @__strata_cuda_launches
  %ok = icmp eq i32 %c, 0
  br i1 %ok, label %out, label %fail
fail:
  store i32 %c, ptr @__strata_cuda_status
  store i64 %site, ptr @__strata_cuda_site
  br label %out
out:
  ret void
}

define void @__strata_cuda_assert_fail(ptr %msg) {
entry:
  %s = load i32, ptr @__strata_cuda_status
  %first = icmp eq i32 %s, 0
  br i1 %first, label %set, label %out
set:
  store i32 -1, ptr @__strata_cuda_status
  store ptr %msg, ptr @__strata_cuda_message
  br label %out
out:
  ret void
}

define i64 @__strata_cuda_read(i64 %addr, i64 %n) {
entry:
  %s = load i32, ptr @__strata_cuda_status
  %bad = icmp ne i32 %s, 0
  br i1 %bad, label %zero, label %go
go:
  %buf = alloca i64
  store i64 0, ptr %buf
  %f = load ptr, ptr @__strata_cuda_read_fn
  %sync = load ptr, ptr @__strata_cuda_sync_fn
  %st = load ptr, ptr @__strata_cuda_stream
  %c = call i32 %f(ptr %buf, i64 %addr, i64 %n, ptr %st)
  %c2 = call i32 %sync(ptr %st)
  %e = or i32 %c, %c2
  %ok = icmp eq i32 %e, 0
  br i1 %ok, label %done, label %fail
fail:
  %first = icmp ne i32 %c, 0
  %which = select i1 %first, i32 %c, i32 %c2
  store i32 %which, ptr @__strata_cuda_status
  store i64 -2, ptr @__strata_cuda_site
  br label %zero
done:
  %v = load i64, ptr %buf
  ret i64 %v
zero:
  ret i64 0
}

define ptr @__strata_cuda_weight(i64 %k) {
entry:
  %tab = load ptr, ptr @__strata_cuda_weights
  %slot = getelementptr ptr, ptr %tab, i64 %k
  %p = load ptr, ptr %slot
  ret ptr %p
}

declare i64 @llvm.umax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)
"""
