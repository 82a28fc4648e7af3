"""finalize-memref-to-llvm: memref ops -> llvm ops on descriptors, as upstream's
MemRefToLLVM (see [Note: the memref descriptor and the function ABI] in
type_converter.py).

    memref.alloc(%n) {alignment = 64}  -> llvm.call @malloc(bytes + 64), pointer aligned up
    memref.dealloc %m                  -> llvm.call @free(allocated pointer)
    memref.load %m[%i, %j]             -> aligned + offset + i*s0 + j*s1: gep inbounds|nuw, load
    memref.global @g : ... = dense<..> -> llvm.mlir.global (no initial value: a declaration)
    memref.copy                        -> llvm.intr.memcpy when both sides are contiguous

Beyond upstream (which wants `expand-strided-metadata` first and fails otherwise), this
pass also lowers memref.subview, memref.expand_shape and memref.collapse_shape
directly (descriptor arithmetic), and a non-contiguous memref.copy becomes a loop nest
(upstream calls `memrefCopy` of its C runner library, which Strata does not have).
memref.assume_alignment lowers to nothing (the hint is dropped); memref.atomic_rmw and
generic_atomic_rmw are left unconverted (no llvm.atomicrmw/cmpxchg ops yet).

With `checked-alloc=true` (ours; the CPU target sets it) allocations go through the CPU
runtime, sizes checked for overflow (see [Note: checked allocations]):

    memref.alloc(%n) ... loc("fill")   -> llvm.call @strata_alloc(bytes, @alloc_site_0)
                                          (bytes: -1 on overflow; @alloc_site_0: the
                                          NUL-terminated "node fill")
    memref.dealloc %m                  -> llvm.call @strata_free(allocated pointer)
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...ir import dense as D
from ...ir.builder import InsertionPoint
from ...passes.pass_manager import Option, Pass
from .builder import INBOUNDS_NUW
from .common import (LLVMPattern, symbol_table_body, insert_string_global, lookup_or_declare,
                     run_llvm_conversion)
from .type_converter import (LLVMTypeConverter, MemRefDescriptor, is_identity_layout,
                             strides_and_offset)

__all__ = ["FinalizeMemRefToLLVM", "memref_patterns", "strided_element_ptr"]

DYN = A.DYNAMIC
NSW_NUW = A.IntegerAttr(3, A.i32)


def _elem(tc, t):
    return tc.convert_type(t.element_type)


def strided_element_ptr(b, tc, mtype, desc, indices, flags=0):
    """Address of element `indices` of a memref: aligned + offset + sum(i * stride)."""
    strides, offset = strides_and_offset(mtype)
    d = MemRefDescriptor(desc)
    it = tc.index_type
    et = _elem(tc, mtype)
    base = d.aligned_ptr(b)
    if offset != 0:
        off = d.offset(b) if offset == DYN else b.index_const(offset, it)
        base = b.gep(base, [off], et)
    props = {"overflowFlags": NSW_NUW} if flags else None
    index = None
    for i, idx in enumerate(indices):
        if tc.fold_aggregates and _is_zero_const(idx):
            # (fold-aggregates, ours: [Note: fold-aggregates] in umbrella.py) a constant
            # 0 index adds nothing: no `0 * stride` term. A batch-1 image's index 0
            # times its batch stride, which differs with the channel count, made
            # otherwise identical loop nests differ, so that they were not merged
            # ([Note: identical functions merged] in backends/cpu/jit.py).
            continue
        inc = idx
        if strides[i] != 1:
            st = d.stride(b, i) if strides[i] == DYN else b.index_const(strides[i], it)
            inc = b.mul(inc, st, props)
        index = b.add(index, inc, props) if index is not None else inc
    return b.gep(base, [index], et, flags) if index is not None else base


def _is_zero_const(v) -> bool:
    """Whether `v` is the integer constant 0 (an llvm.mlir.constant or arith.constant,
    through the casts a conversion leaves between them)."""
    d = v.defining_op
    while d is not None and d.name == "builtin.unrealized_conversion_cast" and \
            len(d.operands) == 1:
        d = d.operands[0].defining_op
    if d is None or d.name not in ("llvm.mlir.constant", "arith.constant"):
        return False
    a = d.properties.get("value")
    return isinstance(a, A.IntegerAttr) and a.value == 0


def descriptor_sizes(b, tc, mtype, dynamic, in_bytes=True):
    """(sizes, strides, element count or byte size) of a new identity-layout buffer,
    as upstream's getMemRefDescriptorSizes."""
    it = tc.index_type
    dyn = iter(dynamic)
    sizes = [next(dyn) if n == DYN else b.index_const(n, it) for n in mtype.shape]
    stride = 1
    running = b.index_const(1, it)
    strides = [None] * len(sizes)
    for i in range(len(sizes) - 1, -1, -1):
        strides[i] = running
        n = mtype.shape[i]
        if n == 0:
            continue
        use_size = stride == 1
        if n == DYN:
            stride = DYN
        if stride != DYN:
            stride *= n
        if use_size:
            running = sizes[i]
        elif stride == DYN:
            running = b.mul(running, sizes[i])
        else:
            running = b.index_const(stride, it)
    if not in_bytes:
        return sizes, strides, running
    null = b.zero(LT.LLVMPointerType(tc.address_space(mtype)))
    size = b.ptrtoint(b.gep(null, [running], _elem(tc, mtype)), it)
    return sizes, strides, size


def make_descriptor(b, tc, mtype, allocated, aligned, sizes, strides):
    d = MemRefDescriptor.poison(b, tc.convert_type(mtype))
    d.set_allocated_ptr(b, allocated)
    d.set_aligned_ptr(b, aligned)
    d.set_constant_offset(b, 0)
    for i, s in enumerate(sizes):
        d.set_size(b, i, s)
    for i, s in enumerate(strides):
        d.set_stride(b, i, s)
    return d.value


class _MemRefPattern(LLVMPattern):
    def convertible(self, t):
        return type(t) is A.MemRefType and self.tc.convert_type(t) is not None


class AllocLowering(_MemRefPattern):
    """alloc -> malloc (+ alignment bump); alloca -> llvm.alloca. With the option
    checked-alloc (ours; the CPU target sets it) see [Note: checked allocations]."""

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        if not self.convertible(t) or not is_identity_layout(t):
            return rewriter.notify_match_failure(op, "incompatible memref type")
        b = self.builder(rewriter, op)
        it = self.index_type
        dyn = list(operands)[:t.shape.count(DYN)]
        align = op._props.get("alignment")
        if op.name == "memref.alloca":
            sizes, strides, n = descriptor_sizes(b, self.tc, t, dyn, in_bytes=False)
            p = b.alloca(n, _elem(self.tc, t), align.value if align is not None else 0,
                         LT.LLVMPointerType(self.tc.address_space(t)))
            rewriter.replace_op(op, [make_descriptor(b, self.tc, t, p, p, sizes, strides)])
            return True
        checked = self.options.get("checked_alloc")
        chunk = checked and _in_parallel_chunk(op)
        fn = ("strata_alloc_or_null" if chunk else "strata_alloc") if checked else "malloc"
        lookup_or_declare(rewriter, op, fn, LT.LLVMFunctionType(
            LT.ptr, [it, LT.ptr] if checked else [it]), self.tc.declared)
        sizes, strides, nbytes = descriptor_sizes(b, self.tc, t, dyn)
        alignment = None
        if align is not None:
            alignment = b.index_const(align.value, it)
        elif not _is_scalar(t.element_type):
            alignment = b.size_of(_elem(self.tc, t), it)
        if alignment is not None:
            nbytes = b.add(nbytes, alignment)
        if not checked:
            allocated = b.call("malloc", [nbytes], LT.ptr)
        else:
            nbytes = _overflow_checked(b, self.tc, t, dyn, nbytes, alignment)
            name = _site_global(rewriter, op, self.tc)
            site = b.create("llvm.mlir.addressof", [], [LT.ptr],
                            {"global_name": A.SymbolRefAttr(name)}).results[0]
            allocated = b.call(fn, [nbytes, site], LT.ptr)
            if chunk:
                _return_if_null(rewriter, b, op, allocated)
        aligned = allocated
        if alignment is not None:
            as_int = b.ptrtoint(allocated, it)
            one = b.index_const(1, it)
            bumped = b.add(as_int, b.sub(alignment, one))
            aligned = b.inttoptr(b.sub(bumped, b.urem(bumped, alignment)))
        rewriter.replace_op(op, [make_descriptor(b, self.tc, t, allocated, aligned, sizes,
                                                 strides)])
        return True


def _is_scalar(t):
    return type(t) in (A.IntegerType, A.FloatType, A.IndexType)


# [Note: checked allocations]
# With checked-alloc=true, memref.alloc calls the CPU runtime's `strata_alloc(nbytes,
# site)` (or, inside a parallel loop's chunk function, `strata_alloc_or_null`, then
# returns from the chunk when it gave NULL) and memref.dealloc `strata_free` (plain
# `free` in a chunk); see [Note: failed allocations] in strata/backends/cpu/guard.py.
# `site` is a private constant naming the allocating op's ONNX node (its location),
# "node <name>". The byte count is checked for overflow first: with a dynamic dim, the
# element count is recomputed in 128 bits, each product saturated at 2^63, times the
# element size plus the alignment; past 2^63 - 1 the size passed is -1 (the runtime
# reports "the size overflows") instead of the wrapped 64-bit one, and -2 when a dynamic
# size is negative (one compare of the sizes' OR). A static shape is checked at compile
# time.

_I128 = A.IntegerType(128)
_LIMIT = (1 << 63) - 1
CHUNK_ATTR = "strata.parallel_chunk"


def _in_parallel_chunk(op):
    """Whether `op` is in a chunk function of a parallel loop (convert-scf-to-strata-cpu),
    which may run on a pool worker."""
    f = op.parent_op
    while f is not None and f.name not in ("func.func", "llvm.func"):
        f = f.parent_op
    return f is not None and f.get_attr(CHUNK_ATTR) is not None


def _overflow_checked(b, tc, t, dyn, nbytes, alignment):
    """`nbytes` (i64), or -1 where the true size of a `t` buffer (sizes `dyn` for its
    dynamic dims) with `alignment` bytes added is more than 2^63 - 1, -2 where a dynamic
    size is negative."""
    static = 1
    for n in t.shape:
        if n != DYN:
            static = min(static * n, 1 << 63)
    if static == 0:
        return nbytes
    if not dyn:
        if static < 1 << 40:
            return nbytes
        elem = _static_elem_bytes(t.element_type)
        if elem is not None and static * elem + (1 << 16) <= _LIMIT:
            return nbytes
    it = tc.index_type
    cap = b.const(1 << 63, _I128)
    count = b.const(static, _I128)
    for d in dyn:
        prod = b.mul(count, b.cast("llvm.zext", d, _I128))
        count = b.select(b.icmp("ugt", prod, cap), cap, prod)
    elem = b.cast("llvm.zext", b.size_of(_elem(tc, t), it), _I128)
    total = b.mul(count, elem)
    if alignment is not None:
        total = b.add(total, b.cast("llvm.zext", alignment, _I128))
    over = b.icmp("ugt", total, b.const(_LIMIT, _I128))
    checked = b.select(over, b.index_const(-1, it), nbytes)
    if not dyn:
        return checked
    signs = dyn[0]
    for d in dyn[1:]:
        signs = b.binary("llvm.or", signs, d)
    negative = b.icmp("slt", signs, b.index_const(0, it))
    return b.select(negative, b.index_const(-2, it), checked)


def _static_elem_bytes(t):
    if type(t) in (A.IntegerType, A.FloatType):
        return max(1, -(-t.width // 8))
    if type(t) is A.IndexType:
        return 8
    return None


def site_name(op) -> str:
    """`node <ONNX node name>` of an op from its location (`an operation at file:line`
    without a name)."""
    from ...ir.location import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
    stack = [op.loc]
    while stack:
        loc = stack.pop()
        k = type(loc)
        if k is NameLoc:
            return f"node {loc.name}"
        if k is FusedLoc:
            stack.extend(reversed(list(loc.locations)))
        elif k is CallSiteLoc:
            stack.append(loc.callee)
    flc = op.loc.file_line_col() if hasattr(op.loc, "file_line_col") else None
    if isinstance(flc, FileLineColLoc):
        return f"an operation at {flc.filename}:{flc.line}:{flc.col}"
    return "an unnamed operation"


def _site_global(rewriter, op, tc) -> str:
    """The name of a private constant holding `site_name(op)` NUL-terminated (one per
    text and module)."""
    body = symbol_table_body(op)
    cache = tc.__dict__.setdefault("alloc_sites", {})
    text = site_name(op)
    key = (id(body), text)
    name = cache.get(key)
    if name is not None:
        return name
    taken = cache.get(("names", id(body)))
    if taken is None:
        taken = cache[("names", id(body))] = {
            o._props["sym_name"].value for o in body.ops if "sym_name" in o._props}
    i = len(taken)
    while f"alloc_site_{i}" in taken:
        i += 1
    name = f"alloc_site_{i}"
    taken.add(name)
    insert_string_global(rewriter, body, name, text, op.loc)
    cache[key] = name
    return name


def _return_if_null(rewriter, b, op, allocated):
    """Split the block of `op` (a chunk function's allocation): return when `allocated`
    is null, else go on at `op`."""
    block = op.parent
    null = b.icmp("eq", allocated, b.zero(LT.ptr))
    cont = rewriter.split_block(block, op)
    fail = rewriter.create_block(block.parent, before=cont)
    b.create("llvm.return", [], [])
    rewriter.ip = InsertionPoint.at_end(block)
    b.create("llvm.cond_br", [null], [],
             {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])},
             successors=[fail, cont])
    rewriter.ip = InsertionPoint.before_op(op)


class DeallocLowering(_MemRefPattern):
    root = "memref.dealloc"

    def match_and_rewrite(self, op, operands, rewriter):
        if type(op.operands[0].type) is not A.MemRefType:
            return rewriter.notify_match_failure(op, "unranked memref")
        b = self.builder(rewriter, op)
        fn = "strata_free" if self.options.get("checked_alloc") and \
            not _in_parallel_chunk(op) else "free"
        lookup_or_declare(rewriter, op, fn, LT.LLVMFunctionType(LT.void, [LT.ptr]),
                          self.tc.declared)
        b.call(fn, [MemRefDescriptor(operands[0]).allocated_ptr(b)])
        rewriter.erase_op(op)
        return True


class LoadStoreLowering(_MemRefPattern):
    def match_and_rewrite(self, op, operands, rewriter):
        store = op.name == "memref.store"
        mt = op.operands[1 if store else 0].type
        if strides_and_offset(mt) is None or self.tc.convert_type(mt) is None:
            return rewriter.notify_match_failure(op, "incompatible memref type")
        b = self.builder(rewriter, op)
        vals = list(operands)
        desc, idx = (vals[1], vals[2:]) if store else (vals[0], vals[1:])
        p = strided_element_ptr(b, self.tc, mt, desc, idx, INBOUNDS_NUW)
        align = op._props.get("alignment")
        align = align.value if align is not None else 0
        nt = op._props.get("nontemporal")
        nt = bool(nt is not None and nt.value)
        if store:
            b.store(vals[0], p, align, nt)
            rewriter.erase_op(op)
        else:
            rewriter.replace_op(op, [b.load(p, _elem(self.tc, mt), align, nt)])
        return True


class DimLowering(_MemRefPattern):
    root = "memref.dim"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.operands[0].type
        if type(t) is not A.MemRefType:
            return rewriter.notify_match_failure(op, "unranked memref")
        b = self.builder(rewriter, op)
        it = self.index_type
        d = MemRefDescriptor(operands[0])
        i = _constant_index(op.operands[1])
        if i is not None and 0 <= i < len(t.shape):
            v = d.size(b, i) if t.shape[i] == DYN else b.index_const(t.shape[i], it)
        else:
            sizes = d.sizes_array(b)
            slot = b.alloca(b.index_const(1, it), sizes.type)
            b.store(sizes, slot)
            v = b.load(b.gep(slot, [0, operands[1]], sizes.type), it)
        rewriter.replace_op(op, [v])
        return True


def _constant_index(v):
    d = v.defining_op
    if d is None or d.name not in ("arith.constant", "llvm.mlir.constant"):
        return None
    a = d._props.get("value")
    return a.value if type(a) is A.IntegerAttr else None


class RankLowering(_MemRefPattern):
    root = "memref.rank"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.operands[0].type
        b = self.builder(rewriter, op)
        if type(t) is A.MemRefType:
            v = b.index_const(len(t.shape), self.index_type)
        else:
            v = b.extractvalue(operands[0], [0])
        rewriter.replace_op(op, [v])
        return True


class CastLowering(_MemRefPattern):
    """Ranked to ranked: the same descriptor."""

    root = "memref.cast"

    def match_and_rewrite(self, op, operands, rewriter):
        s, d = op.operands[0].type, op.results[0].type
        if type(s) is not A.MemRefType or type(d) is not A.MemRefType or \
                self.tc.convert_type(s) != self.tc.convert_type(d):
            return rewriter.notify_match_failure(op, "only ranked to ranked casts")
        rewriter.replace_op(op, [operands[0]])
        return True


class CopyLowering(_MemRefPattern):
    """memcpy for contiguous memrefs, else a loop nest of loads and stores."""

    root = "memref.copy"

    def match_and_rewrite(self, op, operands, rewriter):
        st, dt = op.operands[0].type, op.operands[1].type
        if not (self.convertible(st) and self.convertible(dt)):
            return rewriter.notify_match_failure(op, "unranked or unsupported memrefs")
        b = self.builder(rewriter, op)
        if _contiguous(st) and _contiguous(dt):
            it = self.index_type
            src, dst = MemRefDescriptor(operands[0]), MemRefDescriptor(operands[1])
            n = b.index_const(1, it)
            for i in range(len(st.shape)):
                n = b.mul(n, src.size(b, i))
            total = b.mul(n, b.size_of(_elem(self.tc, st), it))
            et = _elem(self.tc, st)
            sp = b.gep(src.aligned_ptr(b), [src.offset(b)], et)
            dp = b.gep(dst.aligned_ptr(b), [dst.offset(b)], et)
            b.create("llvm.intr.memcpy", [dp, sp, total], [],
                     {"isVolatile": A.IntegerAttr(0, A.i1)})
            rewriter.erase_op(op)
            return True
        _copy_loops(b, self.tc, rewriter, op, st, dt, operands[0], operands[1])
        rewriter.erase_op(op)
        return True


def _contiguous(t):
    if is_identity_layout(t):
        return True
    so = strides_and_offset(t)
    if so is None or any(n == DYN for n in t.shape) or not all(t.shape):
        return False
    strides, _ = so
    expect = 1
    for n, s in zip(reversed(t.shape), reversed(strides)):
        if n != 1 and s != expect:
            return False
        expect *= n
    return True


def _copy_loops(b, tc, rewriter, op, st, dt, src, dst):
    """for i0 < size0: ... for iR-1 < sizeR-1: dst[i...] = src[i...]"""
    it = tc.index_type
    rank = len(st.shape)
    block = op.parent
    after = rewriter.split_block(block, op)
    region = block.parent
    sd = MemRefDescriptor(src)
    rewriter.ip = InsertionPoint.at_end(block)
    sizes = [sd.size(b, i) for i in range(rank)]
    zero, one = b.index_const(0, it), b.index_const(1, it)
    ivs = []
    exit_to = after
    latches = []
    enter = block
    for k in range(rank):
        header = rewriter.create_block(region, [it], before=after)
        body = rewriter.create_block(region, before=after)
        rewriter.ip = InsertionPoint.at_end(enter)
        b.create("llvm.br", [zero], [], successors=[header])
        rewriter.ip = InsertionPoint.at_end(header)
        iv = header.args[0]
        b.create("llvm.cond_br", [b.icmp("slt", iv, sizes[k])], [],
                 {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])},
                 successors=[body, exit_to])
        ivs.append(iv)
        latches.append((header, iv))
        enter = body
        if k < rank - 1:
            latch = rewriter.create_block(region, before=after)
            exit_to = latch
            latches[-1] = (header, iv, latch)
    rewriter.ip = InsertionPoint.at_end(enter)
    if rank == 0:
        v = b.load(strided_element_ptr(b, tc, st, src, []), _elem(tc, st))
        b.store(v, strided_element_ptr(b, tc, dt, dst, []))
        b.create("llvm.br", [], [], successors=[after])
        return
    v = b.load(strided_element_ptr(b, tc, st, src, ivs), _elem(tc, st))
    b.store(v, strided_element_ptr(b, tc, dt, dst, ivs))
    # innermost: increment and loop
    header, iv = latches[-1][0], latches[-1][1]
    b.create("llvm.br", [b.add(iv, one)], [], successors=[header])
    for k in range(rank - 2, -1, -1):
        header, iv, latch = latches[k]
        rewriter.ip = InsertionPoint.at_end(latch)
        b.create("llvm.br", [b.add(iv, one)], [], successors=[header])
    rewriter.ip = InsertionPoint.at_start(after)


class GlobalLowering(_MemRefPattern):
    root = "memref.global"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op._props["type"].value
        if not self.convertible(t) or not is_identity_layout(t):
            return rewriter.notify_match_failure(op, "incompatible memref type")
        arr = _global_type(self.tc, t)
        vis = op._props.get("sym_visibility")
        linkage = "private" if vis is not None and vis.value != "public" else "external"
        init = op._props.get("initial_value")
        value = None
        if init is not None and type(init) is not A.UnitAttr:
            value = _global_value(init, t, self.tc)
            if value is None:
                return rewriter.notify_match_failure(op, "unsupported initial value")
        from .builder import llvm_op
        al = op._props.get("alignment")
        g = llvm_op("llvm.mlir.global").new(op._props["sym_name"].value, arr, value,
                                            linkage=linkage,
                                            constant=op._props.get("constant") is not None,
                                            alignment=al.value if al is not None else None,
                                            loc=op.loc)
        rewriter.insert(g)
        if type(init) is A.UnitAttr:
            blk = rewriter.create_block(g.regions[0])
            rewriter.ip = InsertionPoint.at_end(blk)
            b = self.builder(rewriter, op)
            b.create("llvm.return", [b.undef(arr)])
        rewriter.erase_op(op)
        return True


def lower_globals(root, tc) -> int:
    """Lower the memref.global ops of the modules in `root` (a builtin.module, its
    nested builtin/gpu modules) in place, outside the conversion driver; returns how
    many. Those GlobalLowering cannot lower are left as they are.

    [Note: globals lowered directly]
    A memref.global has no operands, results or uses: its lowering needs none of the
    conversion driver's bookkeeping (operands remapped, replacements journaled for a
    rollback, results legalized, the op erased at the commit), which cost as much as
    the lowering itself. convert-to-llvm declares memref.global legal to the driver and
    lowers the globals with GlobalLowering through a plain rewriter once the driver is
    done (a failed conversion leaves them untouched, as the rest). The output is the
    driver's: each llvm.mlir.global takes its memref.global's place. A model keeps one
    global per constant (DenseNet-121 675 of the 3,102 ops convert-to-llvm lowers)."""
    from ...rewrite.pattern import Listener, PatternRewriter
    pattern = GlobalLowering(tc)
    rw = PatternRewriter(Listener())
    n = 0
    stack = [root]
    while stack:
        mod = stack.pop()
        for r in mod.regions:
            for b in r.blocks:
                o = b.first
                while o is not None:
                    nxt = o.next
                    if o.name == "memref.global":
                        rw.ip = InsertionPoint.before_op(o)
                        rw.loc = o.loc
                        if pattern.match_and_rewrite(o, (), rw):
                            n += 1
                    elif o.name in ("builtin.module", "gpu.module"):
                        stack.append(o)
                    o = nxt
    return n


def _global_type(tc, t):
    out = tc.convert_type(t.element_type)
    for n in reversed(t.shape):
        out = LT.LLVMArrayType(n, out)
    return out


def _global_value(init, t, tc):
    e = tc.convert_type(t.element_type)
    if not isinstance(init, (D.DenseElementsAttr, D.DenseResourceElementsAttr)):
        return None
    if isinstance(init, D.DenseElementsAttr) and e is not t.element_type:
        rt = A.RankedTensorType(t.shape, e) if t.shape else A.RankedTensorType([], e)
        init = D.DenseElementsAttr.from_raw(rt, init.raw)
    if not t.shape and isinstance(init, D.DenseElementsAttr):
        v = init.splat_value if init.is_splat else next(iter(init.values))
        return A.FloatAttr(v, e) if type(e) is A.FloatType else A.IntegerAttr(int(v), e)
    return init


class GetGlobalLowering(_MemRefPattern):
    root = "memref.get_global"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        if not self.convertible(t) or not is_identity_layout(t):
            return rewriter.notify_match_failure(op, "incompatible memref type")
        b = self.builder(rewriter, op)
        # (the byte size, unused here, is not computed under fold-aggregates: it would
        # only be erased again)
        sizes, strides, _ = descriptor_sizes(b, self.tc, t, [],
                                             not self.tc.fold_aggregates)
        p = LT.LLVMPointerType(self.tc.address_space(t))
        name = op._props["name"]
        name = name.root if hasattr(name, "root") else name.value
        addr = b.create("llvm.mlir.addressof", [], [p],
                        {"global_name": A.SymbolRefAttr(name)}).results[0]
        gep = b.gep(addr, [0] * (len(t.shape) + 1), _global_type(self.tc, t))
        bad = b.inttoptr(b.index_const(0xdeadbeef, self.index_type), p)
        rewriter.replace_op(op, [make_descriptor(b, self.tc, t, bad, gep, sizes, strides)])
        return True


# ---------------------------------------------------------------- views


def _static_or(b, it, static, dyn_iter):
    return next(dyn_iter) if static == DYN else b.index_const(static, it)


class ReinterpretCastLowering(_MemRefPattern):
    root = "memref.reinterpret_cast"

    def match_and_rewrite(self, op, operands, rewriter):
        if type(op.operands[0].type) is not A.MemRefType:
            return rewriter.notify_match_failure(op, "unranked source")
        t = op.results[0].type
        b = self.builder(rewriter, op)
        it = self.index_type
        vals = list(operands)
        seg = op._props["operandSegmentSizes"].value
        offs = iter(vals[1:1 + seg[1]])
        szs = iter(vals[1 + seg[1]:1 + seg[1] + seg[2]])
        sts = iter(vals[1 + seg[1] + seg[2]:])
        src = MemRefDescriptor(vals[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(t))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, src.aligned_ptr(b))
        d.set_offset(b, _static_or(b, it, op._props["static_offsets"].value[0], offs))
        ss = op._props["static_sizes"].value
        st = op._props["static_strides"].value
        for i in range(len(t.shape)):
            d.set_size(b, i, _static_or(b, it, ss[i], szs))
            d.set_stride(b, i, _static_or(b, it, st[i], sts))
        rewriter.replace_op(op, [d.value])
        return True


class SubViewLowering(_MemRefPattern):
    """offset' = offset + sum(o_i * s_i); size'_i = size_i; stride'_i = s_i * t_i, the
    dropped (rank-reduced) dimensions left out. Static values of the result type are
    used as constants."""

    root = "memref.subview"

    def match_and_rewrite(self, op, operands, rewriter):
        st, rt = op.operands[0].type, op.results[0].type
        rso, sso = strides_and_offset(rt), strides_and_offset(st)
        if rso is None or sso is None:
            return rewriter.notify_match_failure(op, "non-strided layout")
        b = self.builder(rewriter, op)
        it = self.index_type
        vals = list(operands)
        seg = op._props["operandSegmentSizes"].value
        offs = iter(vals[1:1 + seg[1]])
        szs = iter(vals[1 + seg[1]:1 + seg[1] + seg[2]])
        sts = iter(vals[1 + seg[1] + seg[2]:])
        so = op._props["static_offsets"].value
        ss = op._props["static_sizes"].value
        sst = op._props["static_strides"].value
        src = MemRefDescriptor(vals[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(rt))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, src.aligned_ptr(b))
        r_strides, r_offset = rso
        src_strides, src_offset = sso
        offsets = [_static_or(b, it, o, offs) for o in so] if r_offset == DYN else None
        sizes = [(s, next(szs) if s == DYN else None) for s in ss]
        steps = [(s, next(sts) if s == DYN else None) for s in sst]
        if r_offset != DYN:
            d.set_constant_offset(b, r_offset)
        else:
            off = src.offset(b) if src_offset == DYN else b.index_const(src_offset, it)
            for i, o in enumerate(offsets):
                s = src.stride(b, i) if src_strides[i] == DYN else \
                    b.index_const(src_strides[i], it)
                off = b.add(off, b.mul(o, s))
            d.set_offset(b, off)
        dropped = op.dropped_dims() if hasattr(op, "dropped_dims") else set()
        j = 0
        for i in range(len(st.shape)):
            if i in dropped:
                continue
            s, dv = sizes[i]
            d.set_size(b, j, dv if s == DYN else b.index_const(s, it))
            if r_strides[j] != DYN:
                d.set_constant_stride(b, j, r_strides[j])
            else:
                k, kv = steps[i]
                base = src.stride(b, i) if src_strides[i] == DYN else \
                    b.index_const(src_strides[i], it)
                step = kv if k == DYN else b.index_const(k, it)
                d.set_stride(b, j, b.mul(base, step))
            j += 1
        rewriter.replace_op(op, [d.value])
        return True


class ReshapeLowering(_MemRefPattern):
    """expand_shape / collapse_shape on strided memrefs: the same buffer, sizes and
    strides recomputed per reassociation group (constants where the result type has
    them)."""

    def match_and_rewrite(self, op, operands, rewriter):
        st, rt = op.operands[0].type, op.results[0].type
        rso, sso = strides_and_offset(rt), strides_and_offset(st)
        if rso is None or sso is None:
            return rewriter.notify_match_failure(op, "non-strided layout")
        b = self.builder(rewriter, op)
        it = self.index_type
        src = MemRefDescriptor(operands[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(rt))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, src.aligned_ptr(b))
        r_strides, r_offset = rso
        d.set_offset(b, src.offset(b) if r_offset == DYN else b.index_const(r_offset, it))
        groups = [[x.value for x in g] for g in op._props["reassociation"]]
        src_strides = sso[0]

        def src_size(i):
            return src.size(b, i) if st.shape[i] == DYN else b.index_const(st.shape[i], it)

        def src_stride(i):
            return src.stride(b, i) if src_strides[i] == DYN else \
                b.index_const(src_strides[i], it)

        if op.name == "memref.collapse_shape":
            for j, g in enumerate(groups):
                if rt.shape[j] != DYN:
                    d.set_constant_size(b, j, rt.shape[j])
                else:
                    n = src_size(g[0])
                    for i in g[1:]:
                        n = b.mul(n, src_size(i))
                    d.set_size(b, j, n)
                if r_strides[j] != DYN:
                    d.set_constant_stride(b, j, r_strides[j])
                else:
                    # the stride of the group's innermost dim that is not of size 1
                    # (trailing unit dims' strides say nothing), as collapsed_layout
                    # and upstream's expand-strided-metadata take it
                    inner = list(g)
                    while len(inner) > 1 and st.shape[inner[-1]] == 1:
                        inner.pop()
                    d.set_stride(b, j, src_stride(inner[-1]) if g else b.index_const(1, it))
        else:
            dyn = iter(list(operands)[1:])
            sizes = [next(dyn) if n == DYN else None for n in op._props[
                "static_output_shape"].value]
            for i, g in enumerate(groups):
                running = None
                for j in reversed(g):
                    n = rt.shape[j]
                    size = sizes[j] if n == DYN else b.index_const(n, it)
                    d.set_size(b, j, size)
                    if r_strides[j] != DYN:
                        d.set_constant_stride(b, j, r_strides[j])
                        stride = b.index_const(r_strides[j], it)
                    else:
                        stride = src_stride(i) if running is None else running
                        d.set_stride(b, j, stride)
                    running = b.mul(stride, size)
            if not groups:  # a 0-d source: every result dim is a unit dim
                for j in range(len(rt.shape)):
                    d.set_constant_size(b, j, 1)
                    d.set_constant_stride(b, j, r_strides[j] if r_strides[j] != DYN else 1)
        rewriter.replace_op(op, [d.value])
        return True


class TransposeLowering(_MemRefPattern):
    root = "memref.transpose"

    def match_and_rewrite(self, op, operands, rewriter):
        perm = op._props["permutation"].value
        if perm.is_identity():
            rewriter.replace_op(op, [operands[0]])
            return True
        b = self.builder(rewriter, op)
        src = MemRefDescriptor(operands[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(op.operands[0].type))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, src.aligned_ptr(b))
        d.set_offset(b, src.offset(b))
        for j, e in enumerate(perm.results):
            d.set_size(b, j, src.size(b, e.position))
            d.set_stride(b, j, src.stride(b, e.position))
        rewriter.replace_op(op, [d.value])
        return True


class ViewLowering(_MemRefPattern):
    root = "memref.view"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        so = strides_and_offset(t)
        if so is None or self.tc.convert_type(t) is None:
            return rewriter.notify_match_failure(op, "cannot cast to non-strided shape")
        strides, offset = so
        b = self.builder(rewriter, op)
        it = self.index_type
        vals = list(operands)
        src = MemRefDescriptor(vals[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(t))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, b.gep(src.aligned_ptr(b), [vals[1]], A.i8))
        d.set_offset(b, b.index_const(offset, it))
        dyn = vals[2:]
        stride, nxt = None, None
        for i in range(len(t.shape) - 1, -1, -1):
            n = t.shape[i]
            size = b.index_const(n, it) if n != DYN else \
                dyn[sum(1 for x in t.shape[:i] if x == DYN)]
            d.set_size(b, i, size)
            if strides[i] != DYN:
                stride = b.index_const(strides[i], it)
            elif nxt is not None:
                stride = b.mul(stride, nxt) if stride is not None else nxt
            else:
                stride = b.index_const(1, it)
            d.set_stride(b, i, stride)
            nxt = size
        rewriter.replace_op(op, [d.value])
        return True


class ReshapeShapeLowering(_MemRefPattern):
    """memref.reshape with a statically shaped shape operand and identity result."""

    root = "memref.reshape"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        if type(t) is not A.MemRefType or type(op.operands[0].type) is not A.MemRefType:
            return rewriter.notify_match_failure(op, "unranked reshape")
        b = self.builder(rewriter, op)
        it = self.index_type
        src = MemRefDescriptor(operands[0])
        d = MemRefDescriptor.poison(b, self.tc.convert_type(t))
        d.set_allocated_ptr(b, src.allocated_ptr(b))
        d.set_aligned_ptr(b, src.aligned_ptr(b))
        d.set_constant_offset(b, 0)
        shape_t = op.operands[1].type
        stride = None
        for i in range(len(t.shape) - 1, -1, -1):
            if stride is None:
                stride = b.index_const(1, it)
            n = t.shape[i]
            if n != DYN:
                size = b.index_const(n, it)
            else:
                p = strided_element_ptr(b, self.tc, shape_t, operands[1],
                                        [b.index_const(i, it)])
                size = b.load(p, _elem(self.tc, shape_t))
                if size.type != it:
                    size = b.cast("llvm.sext" if size.type.width < it.width else
                                  "llvm.trunc", size, it)
            d.set_size(b, i, size)
            d.set_stride(b, i, stride)
            stride = b.mul(stride, size)
        rewriter.replace_op(op, [d.value])
        return True


class MetadataLowering(_MemRefPattern):
    """extract_strided_metadata, extract_aligned_pointer_as_index, assume_alignment."""

    def match_and_rewrite(self, op, operands, rewriter):
        if type(op.operands[0].type) is not A.MemRefType:
            return rewriter.notify_match_failure(op, "unranked memref")
        b = self.builder(rewriter, op)
        src = MemRefDescriptor(operands[0])
        if op.name == "memref.assume_alignment":
            rewriter.replace_op(op, [operands[0]])
            return True
        if op.name == "memref.extract_aligned_pointer_as_index":
            rewriter.replace_op(op, [b.ptrtoint(src.aligned_ptr(b), self.index_type)])
            return True
        t = op.operands[0].type
        base_t = op.results[0].type
        alloc, aligned = src.allocated_ptr(b), src.aligned_ptr(b)
        base = MemRefDescriptor.from_static_shape(b, self.tc.convert_type(base_t), base_t,
                                                  alloc, aligned)
        out = [base.value, src.offset(b)]
        out += [src.size(b, i) for i in range(len(t.shape))]
        out += [src.stride(b, i) for i in range(len(t.shape))]
        rewriter.replace_op(op, out)
        return True


def memref_patterns(tc, checked_alloc=False) -> list:
    """The patterns; `checked_alloc`: see [Note: checked allocations]."""
    return [AllocLowering(tc, root="memref.alloc", checked_alloc=checked_alloc),
            AllocLowering(tc, root="memref.alloca"),
            DeallocLowering(tc, checked_alloc=checked_alloc),
            LoadStoreLowering(tc, root="memref.load"),
            LoadStoreLowering(tc, root="memref.store"), DimLowering(tc), RankLowering(tc),
            CastLowering(tc), CopyLowering(tc), GlobalLowering(tc), GetGlobalLowering(tc),
            ReinterpretCastLowering(tc), SubViewLowering(tc),
            ReshapeLowering(tc, root="memref.expand_shape"),
            ReshapeLowering(tc, root="memref.collapse_shape"), TransposeLowering(tc),
            ViewLowering(tc), ReshapeShapeLowering(tc),
            MetadataLowering(tc, root="memref.extract_strided_metadata"),
            MetadataLowering(tc, root="memref.extract_aligned_pointer_as_index"),
            MetadataLowering(tc, root="memref.assume_alignment")]


class FinalizeMemRefToLLVM(Pass):
    name = "finalize-memref-to-llvm"
    summary = "Finalize MemRef dialect to LLVM dialect conversion"
    anchor = "builtin.module"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")
    use_aligned_alloc = Option(bool, False, "Use aligned_alloc in place of malloc for heap "
                               "allocations (not supported by Strata)")
    use_generic_functions = Option(bool, False, "Use generic allocation and deallocation "
                                   "functions instead of the classic 'malloc', "
                                   "'aligned_alloc' and 'free' functions (not supported)")
    checked_alloc = Option(bool, False, "(Strata) allocations through the CPU runtime's "
                           "checked strata_alloc / strata_free, sizes checked for "
                           "overflow (see [Note: checked allocations])")

    def run(self, op):
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, memref_patterns(tc, self.checked_alloc),
                            legal=("func.func",))
