"""`strata-linalg-to-microkernels`: f32 matrix products and 2-D convolutions on buffers
become calls of the CPU target's GEMM kernels (strata/backends/cpu/kernels.py).

    linalg.matmul ins(%A, %B : memref<64x784xf32>, memref<784x1024xf32>)
                  outs(%C : memref<64x1024xf32>)
=>
    %intptr = memref.extract_aligned_pointer_as_index %A : memref<64x784xf32> -> index
    %0 = arith.index_cast %intptr : index to i64
    %1 = llvm.inttoptr %0 : i64 to !llvm.ptr
    ...                                                    (the same for %B and %C)
    call @strata_sgemm_f32(%c64_i64, %c1024_i64, %c784_i64, %1, %c784_i64, %3, ...)
        : (i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32) -> ()

with `func.func private @strata_sgemm_f32(...)` declared in the module: after
convert-func-to-llvm it is a plain C call of the kernel (the CPU target links the
kernels in). Runs after bufferization, before convert-linalg-to-loops, which lowers
what is left.

[Note: what is matched]
- Contractions: any linalg structured op (linalg.matmul, batch_matmul, contract,
  generic...) with two f32 memref inputs and one f32 memref init, the body
  `out + in0 * in1`, maps that are dims only, one reduction loop k and the output
  (b..., m, n): A indexed (b..., m, k), B (b..., k, n) or, transposed, (b..., n, k)
  (ONNX Gemm transB=1 / matmul_transpose_b); an operand may lack batch dims (broadcast
  along them). Several batch dims must collapse into one (each one's strides the next
  one's times its size, statically). Every operand's innermost dim must have a static
  unit stride; other strides, offsets and sizes may be dynamic (read with
  memref.extract_strided_metadata). -> strata_sgemm[_nt][_batched]_f32.
- linalg.conv_2d_nchw_fchw, conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc (f32): the input's
  innermost dim unit-stride, the filter contiguous, each output image contiguous.
  -> strata_conv2d_nchw_f32 (a GEMM packing B straight from the image: implicit
  im2col) / strata_conv2d_nhwc_f32 (im2col + GEMM); 1x1 stride-1 convolutions are a
  GEMM on the image itself.
Anything else (other element types, transposed A, depthwise and grouped convolutions,
pooling) stays for convert-linalg-to-loops.

[Note: batches and weights]
A batched product whose B is broadcast and whose A and C rows follow one another across
the batch (static strides) is one GEMM of batch*M rows. With `weight-panel-width=NR`
(the kernels' NR, which the CPU target passes), a B read from a constant memref.global
with its data (the pass runs before the target externalizes weights) is packed now, once:
a new constant global holds packed(B) (`pack_b_panels`; B^T is transposed first) and the
product calls strata_sgemm_packed_f32, which skips packing B at run time. The old global
goes when nothing else reads it.

[Note: accumulate]
linalg ops accumulate into their init. When the op before the product (skipping ops
without memref operands or regions) is `linalg.fill` of +0.0 into the same buffer, the
fill is erased and the kernel told to overwrite C (accumulate = 0): the kernel's first
K block writes C instead of reading it.
"""
from __future__ import annotations

from ..dialects.linalg.structured import StructuredOp
from ..ir import attributes as A
from ..ir.affine import AffineDimExpr
from ..passes.pass_manager import Option, Pass
from .scalar_builders import op_class

__all__ = ["LinalgToMicrokernels", "lower_to_microkernels", "KERNEL_SIGNATURES",
           "kernels_used", "pack_b_panels", "match_contraction", "match_conv"]

_P = "ptr"
# Argument types of the kernels' C ABI ("ptr" = !llvm.ptr), as kernels.py defines them
# (all return void).
KERNEL_SIGNATURES = {
    "strata_sgemm_f32": ["i64"] * 3 + [_P, "i64"] * 3 + ["i32"],
    "strata_sgemm_nt_f32": ["i64"] * 3 + [_P, "i64"] * 3 + ["i32"],
    "strata_sgemm_packed_f32": ["i64"] * 3 + [_P, "i64", _P, _P, "i64", "i32"],
    "strata_sgemm_batched_f32": ["i64"] * 4 + [_P, "i64", "i64"] * 3 + ["i32"],
    "strata_sgemm_nt_batched_f32": ["i64"] * 4 + [_P, "i64", "i64"] * 3 + ["i32"],
    "strata_sgemm_pack_b_f32": ["i64", "i64", _P, "i64", _P],
    "strata_conv2d_nchw_f32": ["i64"] * 13 + [_P, "i64", "i64", "i64", _P, _P, "i64", "i32"],
    "strata_conv2d_nhwc_f32": ["i64"] * 13 + [_P, "i64", "i64", "i64", _P, "i32", _P, "i64",
                                              "i32"],
}

_CONVS = {"linalg.conv_2d_nchw_fchw": "nchw", "linalg.conv_2d_nhwc_hwcf": "hwcf",
          "linalg.conv_2d_nhwc_fhwc": "fhwc"}


def _llvm_ptr():
    from ..dialects.llvm.types import LLVMPointerType
    return LLVMPointerType()


def _arg_type(t):
    return _llvm_ptr() if t == _P else A.IntegerType(int(t[1:]))


# ---------------------------------------------------------------- matching


def _f32_memref(t) -> bool:
    return type(t) is A.MemRefType and t.element_type == A.f32


def _is_mac_body(op) -> bool:
    """The payload is `yield out + in0 * in1` (either operand order)."""
    if not op.regions or not op.regions[0].blocks:
        return False
    block = op.regions[0].blocks[0]
    args = block.args
    ops = list(block.ops)
    if len(args) != 3 or len(ops) != 3:
        return False
    mul, add, yld = ops
    if mul.name != "arith.mulf" or add.name != "arith.addf" or yld.name != "linalg.yield":
        return False
    m = mul.results[0]
    if {v for v in mul.operands} != {args[0], args[1]} or mul.operands[0] is \
            mul.operands[1]:
        return False
    if set(add.operands) != {args[2], m} or add.operands[0] is add.operands[1]:
        return False
    return len(yld.operands) == 1 and yld.operands[0] is add.results[0]


def _strides(t):
    from ..dialects.memref import strides_and_offset
    so = strides_and_offset(t)
    return (None, None) if so is None else so


def _unit_inner(t) -> bool:
    strides, _ = _strides(t)
    return strides is not None and bool(strides) and strides[-1] == 1


class Contraction:
    """C[b..., m, n] (+)= A[b..., m, k] . B[b..., k, n] (B[b..., n, k] when `trans_b`):
    `batch` leading batch dims of C; `a_dims` / `b_dims` the dim of A / B for each (None
    where that operand is broadcast along it)."""

    __slots__ = ("op", "a", "b", "c", "trans_b", "batch", "a_dims", "b_dims")

    def __init__(self, op, trans_b, batch, a_dims, b_dims):
        self.op = op
        self.a, self.b = op.dps_inputs
        self.c = op.dps_inits[0]
        self.trans_b, self.batch = trans_b, batch
        self.a_dims, self.b_dims = a_dims, b_dims

    def batch_strides(self, i):
        """Static strides (A, B, C) of batch dim i (0 where broadcast; None: dynamic)."""
        out = []
        for v, dims in ((self.a, self.a_dims), (self.b, self.b_dims),
                        (self.c, list(range(self.batch)))):
            out.append(0 if dims[i] is None else _static_stride(v, dims[i]))
        return out


def _batch_positions(sub, batch_dims):
    """For each loop dim of `batch_dims`, its position in `sub` (None if absent); None
    when `sub` is not an in-order subsequence of `batch_dims`."""
    where = {d: i for i, d in enumerate(sub)}
    if len(where) != len(sub) or any(d not in batch_dims for d in sub):
        return None
    dims = [where.get(d) for d in batch_dims]
    present = [x for x in dims if x is not None]
    return dims if present == sorted(present) else None


def _static_stride(m, i):
    strides, _ = _strides(m.type)
    return strides[i] if strides[i] != A.DYNAMIC else None


def _collapsible(ct: Contraction) -> bool:
    """Several batch dims act as one: each one's strides are the next one's times its
    size, in every operand (static)."""
    for i in range(ct.batch - 1):
        n = ct.c.type.shape[i + 1]
        outer, inner = ct.batch_strides(i), ct.batch_strides(i + 1)
        if n == A.DYNAMIC or None in outer or None in inner or \
                any(o != n * s for o, s in zip(outer, inner)):
            return False
    return True


def match_contraction(op):
    """A Contraction if `op` is one the GEMM kernels compute (see [Note: what is
    matched]), else None."""
    if not isinstance(op, StructuredOp) or op.num_dps_inputs() != 2 or \
            op.num_dps_inits != 1 or len(op.operands) != 3:
        return None
    if not all(_f32_memref(t) for t in op.operand_types) or not _is_mac_body(op):
        return None
    maps = op.indexing_maps_list()
    kinds = op.iterator_types_list()
    if len(maps) != 3 or any(type(r) is not AffineDimExpr for m in maps for r in m.results):
        return None
    pa, pb, pc = ([r.position for r in m.results] for m in maps)
    red = [i for i, k in enumerate(kinds) if k == "reduction"]
    if len(red) != 1 or len(set(pc)) != len(pc) or len(kinds) != len(pc) + 1 or \
            len(pc) < 2 or len(pa) < 2 or len(pb) < 2:
        return None
    k, (m, n), batch_dims = red[0], pc[-2:], pc[:-2]
    if pa[-2:] != [m, k]:
        return None
    if pb[-2:] == [k, n]:
        trans_b = False
    elif pb[-2:] == [n, k]:
        trans_b = True
    else:
        return None
    a_dims = _batch_positions(pa[:-2], batch_dims)
    b_dims = _batch_positions(pb[:-2], batch_dims)
    if a_dims is None or b_dims is None:
        return None
    if not all(_unit_inner(v.type) for v in op.operands):
        return None
    ct = Contraction(op, trans_b, len(batch_dims), a_dims, b_dims)
    return ct if _collapsible(ct) else None


def _per_image_contiguous(t) -> bool:
    """Dims 1.. of `t` are row-major contiguous (static strides where it matters)."""
    if t.layout is None:
        return True
    strides, _ = _strides(t)
    if strides is None:
        return False
    expect = 1
    for i in range(len(t.shape) - 1, 0, -1):
        if strides[i] != expect and t.shape[i] != 1:
            return False
        if t.shape[i] == A.DYNAMIC:
            return i == 1   # dim 0's stride is free
        expect *= t.shape[i]
    return True


def match_conv(op):
    """The kernel layout ("nchw", "hwcf", "fhwc") if `op` is a convolution the conv
    kernels compute, else None."""
    from ..dialects.memref import is_contiguous_row_major
    layout = _CONVS.get(op.name)
    if layout is None or not isinstance(op, StructuredOp) or len(op.operands) != 3:
        return None
    if not all(_f32_memref(t) for t in op.operand_types) or not _is_mac_body(op):
        return None
    i, f, o = op.operand_types
    if not _unit_inner(i) or not is_contiguous_row_major(f) or \
            not _per_image_contiguous(o):
        return None
    return layout


# ---------------------------------------------------------------- emitting


class _Emit:
    """Creates ops before the matched op; values of operands' metadata made once."""

    __slots__ = ("block", "before", "loc", "meta", "consts")

    def __init__(self, op):
        self.block, self.before, self.loc = op.parent, op, op.loc
        self.meta = {}
        self.consts = {}

    def v(self, name, operands, result_types, props=None):
        o = op_class(name).create(list(operands), list(result_types), props, None, (), 0,
                                  self.loc)
        self.block.insert_before(self.before, o)
        return o.results

    def const(self, n: int, t):
        key = (int(n), t)
        c = self.consts.get(key)
        if c is None:
            c = self.consts[key] = self.v("arith.constant", [], [t],
                                          {"value": A.IntegerAttr(int(n), t)})[0]
        return c

    def i64(self, n: int):
        return self.const(n, A.i64)

    def i32(self, n: int):
        return self.const(n, A.i32)

    def to_i64(self, x):
        """An i64 from a Python int or an index value."""
        if isinstance(x, int):
            return self.i64(x)
        return self.v("arith.index_cast", [x], [A.i64])[0]

    def _metadata(self, m):
        r = self.meta.get(m)
        if r is None:
            t = m.type
            types = [A.MemRefType((), t.element_type, None, t.memory_space)] + \
                [A.index] * (1 + 2 * len(t.shape))
            r = self.meta[m] = self.v("memref.extract_strided_metadata", [m], types)
        return r

    def size(self, m, i):
        d = m.type.shape[i]
        return d if d != A.DYNAMIC else self._metadata(m)[2 + i]

    def stride(self, m, i):
        s = _strides(m.type)[0][i]
        return s if s != A.DYNAMIC else self._metadata(m)[2 + len(m.type.shape) + i]

    def mul(self, x, y):
        """x * y on Python ints or index values."""
        if isinstance(x, int) and isinstance(y, int):
            return x * y
        x, y = (self.index(v) if isinstance(v, int) else v for v in (x, y))
        return self.v("arith.muli", [x, y], [A.index])[0]

    def index(self, n: int):
        return self.const(n, A.index)

    def pointer(self, m):
        """!llvm.ptr to element 0 of memref `m` (aligned pointer + offset)."""
        p = self.v("memref.extract_aligned_pointer_as_index", [m], [A.index])[0]
        offset = _strides(m.type)[1]
        if offset == A.DYNAMIC:
            offset = self._metadata(m)[1]
        if offset != 0:
            p = self.v("arith.addi", [p, self.index(4 * offset) if isinstance(offset, int)
                                      else self.mul(offset, 4)], [A.index])[0]
        p = self.v("arith.index_cast", [p], [A.i64])[0]
        return self.v("llvm.inttoptr", [p], [_llvm_ptr()])[0]

    def call(self, name, args):
        args = [self.to_i64(a) if isinstance(a, int) or a.type is A.index else a
                for a in args]
        o = op_class("func.call").create(args, [], {"callee": A.SymbolRefAttr(name)}, None,
                                         (), 0, self.loc)
        self.block.insert_before(self.before, o)


def _zero_fill_before(op, c):
    """The `linalg.fill` of +0.0 into `c` that `op` follows (see [Note: accumulate])."""
    prev = op.prev
    while prev is not None:
        if prev.name == "linalg.fill":
            break
        if prev.regions or any(type(t) is A.MemRefType for t in prev.operand_types):
            return None
        prev = prev.prev
    if prev is None or len(prev.operands) != 2 or prev.operands[1] is not c:
        return None
    cst = prev.operands[0].defining_op
    if cst is None or cst.name != "arith.constant":
        return None
    val = cst.properties.get("value")
    if not isinstance(val, A.FloatAttr) or val.value != 0.0 or str(val.value)[0] == "-":
        return None
    return prev


def _accumulate(em, op, c):
    fill = _zero_fill_before(op, c)
    if fill is not None:
        fill.erase()
        return em.i32(0)
    return em.i32(1)


def _foldable_batch(ct: Contraction) -> bool:
    """B broadcast, and A's and C's rows contiguous across the batch (see [Note: batches
    and weights])."""
    if not ct.batch or any(d is not None for d in ct.b_dims):
        return False
    sa, _, sc = ct.batch_strides(ct.batch - 1)
    rows = ct.c.type.shape[-2]
    lda, ldc = _static_stride(ct.a, len(ct.a.type.shape) - 2), \
        _static_stride(ct.c, ct.batch)
    return None not in (lda, ldc, sa, sc) and rows != A.DYNAMIC and \
        ct.a_dims[-1] is not None and sa == rows * lda and sc == rows * ldc


def _lower_contraction(ct: Contraction, weights) -> str:
    op = ct.op
    em = _Emit(op)
    a, b, c = ct.a, ct.b, ct.c
    acc = _accumulate(em, op, c)
    r = ct.batch
    batch = 1
    for i in range(r):
        batch = em.mul(batch, em.size(c, i))
    fold = _foldable_batch(ct)
    M, N = em.size(c, r), em.size(c, r + 1)
    if fold:
        M = em.mul(batch, M)
    K = em.size(a, len(a.type.shape) - 1)
    ia, ib = len(a.type.shape) - 2, len(b.type.shape) - 2
    packed = weights.packed(b, ct.trans_b) if not r or fold else None
    if packed is not None:
        name = "strata_sgemm_packed_f32"
        em.call(name, [M, N, K, em.pointer(a), em.stride(a, ia), em.pointer(packed),
                       em.pointer(c), em.stride(c, r), acc])
    elif r and not fold:
        name = f"strata_sgemm{'_nt' if ct.trans_b else ''}_batched_f32"
        last = r - 1      # the batch dims collapse onto the innermost one's strides

        def bstride(v, dims):
            return 0 if dims[last] is None else em.stride(v, dims[last])
        em.call(name, [batch, M, N, K, em.pointer(a), em.stride(a, ia),
                       bstride(a, ct.a_dims), em.pointer(b), em.stride(b, ib),
                       bstride(b, ct.b_dims), em.pointer(c), em.stride(c, r),
                       em.stride(c, last), acc])
    else:
        name = "strata_sgemm_nt_f32" if ct.trans_b else "strata_sgemm_f32"
        em.call(name, [M, N, K, em.pointer(a), em.stride(a, ia), em.pointer(b),
                       em.stride(b, ib), em.pointer(c), em.stride(c, r), acc])
    op.erase()
    if packed is not None:
        weights.release(b)
    return name


def pack_b_panels(b, nr: int):
    """packed(B) of a K x N float32 array: panel p = B[:, p*NR:(p+1)*NR] as K x NR
    (zero padded), panels one after another, flat (the layout strata_sgemm_packed_f32
    reads, see strata/backends/cpu/kernels.py)."""
    import numpy as np
    k, n = b.shape
    p = -(-n // nr)
    padded = np.zeros((k, p * nr), np.float32)
    padded[:, :n] = b
    return np.ascontiguousarray(padded.reshape(k, p, nr).transpose(1, 0, 2)).reshape(-1)


class _Weights:
    """Constant 2-D f32 globals packed for the kernels (one packed global per global and
    layout), and the clean-up of what no longer reads the originals."""

    __slots__ = ("module", "nr", "globals", "made", "dropped")

    def __init__(self, module, nr: int):
        self.module, self.nr = module, nr
        self.globals = None
        self.made = {}
        self.dropped = []

    def _global_of(self, value):
        """The constant memref.global (with its data) `value` is read from, or None."""
        get = value.defining_op
        if get is None or get.name != "memref.get_global":
            return None
        if self.globals is None:
            from ..ir.symbol_table import symbol_name
            body = self.module.regions[0].blocks[0]
            self.globals = {symbol_name(o): o for o in body.ops if o.name == "memref.global"}
        g = self.globals.get(get.properties["name"].root)
        if g is None or "constant" not in g.properties or \
                g.properties.get("initial_value") is None:
            return None
        return g

    def packed(self, b, trans: bool):
        """A value holding packed(B) (packed(Bt^T) when `trans`), or None."""
        from ..ir.dense import DenseElementsAttr, DenseResourceElementsAttr
        if not self.nr or not b.type.has_static_shape or len(b.type.shape) != 2 or \
                b.type.layout is not None:
            return None
        g = self._global_of(b)
        if g is None:
            return None
        init = g.properties["initial_value"]
        key = (g, trans)
        new = self.made.get(key)
        if new is None:
            if isinstance(init, DenseResourceElementsAttr):
                data = init.array()
            elif isinstance(init, DenseElementsAttr):
                data = init.array
            else:
                return None
            data = data.reshape(b.type.shape)
            new = self.made[key] = self._new_global(g, pack_b_panels(
                data.T if trans else data, self.nr))
        get = b.defining_op
        t = new.properties["type"].value
        read = op_class("memref.get_global").create(
            [], [t], {"name": A.SymbolRefAttr(new.properties["sym_name"].value)}, None, (),
            0, get.loc)
        get.parent.insert_before(get, read)
        return read.results[0]

    def _new_global(self, g, data):
        from ..ir.dense import BLOBS, DenseResourceElementsAttr
        from ..ir.symbol_table import symbol_name
        taken = {symbol_name(o) for o in self.module.regions[0].blocks[0].ops}
        name = f"{symbol_name(g)}_packed"
        n = 0
        while name in taken:
            n += 1
            name = f"{symbol_name(g)}_packed_{n}"
        handle = BLOBS.add(name, data.tobytes(), alignment=64)
        t = A.MemRefType([data.size], A.f32)
        props = {"sym_name": A.StringAttr(name), "sym_visibility": A.StringAttr("private"),
                 "type": A.TypeAttr(t), "constant": A.UnitAttr(),
                 "initial_value": DenseResourceElementsAttr(
                     A.RankedTensorType([data.size], A.f32), handle),
                 "alignment": A.IntegerAttr(64, A.i64)}
        new = op_class("memref.global").create([], [], props, None, (), 0, g.loc)
        g.parent.insert_before(g, new)
        self.globals[name] = new
        return new

    def release(self, b):
        """After `b`'s product no longer reads it: drop its get_global if unused."""
        get = b.defining_op
        if not b.has_uses():
            self.dropped.append(get.properties["name"].root)
            get.erase()

    def finish(self):
        """Erase the original globals nothing reads any more."""
        if not self.dropped:
            return
        read = {o.properties["name"].root for o in self.module.walk()
                if o.name == "memref.get_global"}
        for name in set(self.dropped) - read:
            g = self.globals.get(name)
            if g is not None:
                g.erase()


def _lower_conv(op, layout) -> str:
    em = _Emit(op)
    x, w, y = op.operands
    acc = _accumulate(em, op, y)
    sh, sw = op._window_values("strides")
    dh, dw = op._window_values("dilations")
    s = em.size
    if layout == "nchw":
        name = "strata_conv2d_nchw_f32"
        # N, C, H, W, F, KH, KW, OH, OW
        dims = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(w, 0), s(w, 2), s(w, 3), s(y, 2),
                s(y, 3)]
        args = dims + [sh, sw, dh, dw, em.pointer(x), em.stride(x, 0), em.stride(x, 1),
                       em.stride(x, 2), em.pointer(w), em.pointer(y), em.stride(y, 0), acc]
    else:
        name = "strata_conv2d_nhwc_f32"
        f = s(w, 3) if layout == "hwcf" else s(w, 0)
        kh, kw = (s(w, 0), s(w, 1)) if layout == "hwcf" else (s(w, 1), s(w, 2))
        # N, H, W, C, F, KH, KW, OH, OW
        dims = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), f, kh, kw, s(y, 1), s(y, 2)]
        args = dims + [sh, sw, dh, dw, em.pointer(x), em.stride(x, 0), em.stride(x, 1),
                       em.stride(x, 2), em.pointer(w), em.i32(layout == "fhwc"),
                       em.pointer(y), em.stride(y, 0), acc]
    em.call(name, args)
    op.erase()
    return name


def _declare(module, names) -> None:
    """`func.func private @name(...)` for each kernel called, unless declared."""
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    have = {symbol_name(o) for o in body.ops if o.name == "func.func"}
    first = body.first
    for name in sorted(names - have):
        ftype = A.FunctionType([_arg_type(t) for t in KERNEL_SIGNATURES[name]], [])
        decl = op_class("func.func").create(
            [], [], {"sym_name": A.StringAttr(name), "function_type": A.TypeAttr(ftype),
                     "sym_visibility": A.StringAttr("private")}, None, (), 1, module.loc)
        if first is None:
            body.append(decl)
        else:
            body.insert_before(first, decl)


def lower_to_microkernels(module, weight_panel_width: int = 0) -> set:
    """Rewrite the matched ops in `module` into kernel calls (see the module doc);
    returns the names of the kernels called. `weight_panel_width` > 0: pack constant
    weights for panels of that many columns (see [Note: batches and weights])."""
    used = set()
    weights = _Weights(module, weight_panel_width)
    todo = []
    for op in module.walk():
        if not isinstance(op, StructuredOp):
            continue
        ct = match_contraction(op)
        if ct is not None:
            todo.append((op, ct))
            continue
        layout = match_conv(op)
        if layout is not None:
            todo.append((op, layout))
    for op, how in todo:
        used.add(_lower_contraction(how, weights) if isinstance(how, Contraction)
                 else _lower_conv(op, how))
    weights.finish()
    if used:
        _declare(module, used)
    return used


def kernels_used(module) -> set:
    """The kernel names a (lowered) module declares: what the CPU target must link."""
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    return {n for n in (symbol_name(o) for o in body.ops) if n in KERNEL_SIGNATURES}


class LinalgToMicrokernels(Pass):
    name = "strata-linalg-to-microkernels"
    summary = ("Lower f32 matmuls and 2-D convolutions on buffers to calls of the CPU "
               "GEMM kernels")
    display_name = "StrataLinalgToMicrokernelsPass"
    weight_panel_width = Option(
        int, 0, "Pack constant weights (B of a product, from a memref.global with its data) "
        "at compile time for the kernels' NR-column panels; 0: do not")

    def run(self, op):
        lower_to_microkernels(op, self.weight_panel_width)


from ..passes.registry import register_pass  # noqa: E402

register_pass(LinalgToMicrokernels)
