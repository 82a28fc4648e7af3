"""`strata-gpu-tile-contractions`: contractions on buffers (linalg.matmul, batch_matmul,
their transposed forms, and any linalg op of one reduction loop whose payload is
`out + a * b`, with broadcast batch dims) become shared-memory tiled gpu.launch kernels,
before the GPU pipeline maps what is left to one thread per element.

    linalg.fill ins(%zero) outs(%c)
    linalg.matmul ins(%a, %b : memref<?x128xf32>, memref<128x128xf32>) outs(%c)
    linalg.generic ins(%c, %bias) outs(%d) { addf; maximumf }      // bias + ReLU
=>
    %gx = ceildiv(N, 64)  %gy = ceildiv(M, 64)  %gz = batch
    gpu.launch blocks(%bx, %by, %bz) in (%gx, %gy, %gz) threads(%tx, ...) in (256, 1, 1) {
      %as = memref.alloc() : memref<2x16x64xf32, #gpu.address_space<workgroup>>
      %bs = memref.alloc() : memref<2x16x64xf32, #gpu.address_space<workgroup>>
      (tile 0 of A and B -> %as[0], %bs[0]; gpu.barrier)
      %acc:16 = scf.for %kt = 0 to ceildiv(K, 16) iter_args(16 x %zero) {
        (tile kt+1 of A and B -> registers, masked: 0 outside the matrices)
        %acc':16 = scf.for %kk = 0 to 16 iter_args(%acc) {
          4 values of A from %as[kt % 2, kk, ...], 4 of B from %bs[...], 16 payloads
        }
        (the registers -> %as[1 - kt % 2], %bs[...]; gpu.barrier)
      }
      (each in-bounds element of the 4x4 micro-tile: the epilogue's payload, a store)
    }

[Note: the SIMT tiled contraction]
A block of 256 threads computes a BM x BN = 64 x 64 tile of the output, each thread a
4 x 4 micro-tile (rows ty + 16 i, columns tx + 16 j, ty = tid / 16, tx = tid % 16: a
warp reads one A value per row pair (a broadcast) and 16 consecutive B values, and
stores 16 consecutive columns). The K loop steps by BK = 16 through two shared buffers
(double buffering): each step first loads the next tile from global memory into
registers (4 values of A and 4 of B per thread; A's consecutive threads walk K, B's walk
N), then multiplies the current tile out of shared memory, then stores the registers into
the other buffer, then one barrier: the buffer written in step t was last read in step
t - 1, before that step's barrier, and is read in step t + 1, after this one's. Loads
outside the matrices (rows >= M, columns >= N, k >= K) are never issued: the value is 0,
so a k past K adds a * 0 = 0 (the payload must be `out + a * b`), and rows or columns
past the edges are computed but not stored. Any M, N, K (K < 16 and K = 0 too) and any
batch; the accumulation is in k order, as the loops' (the result is the reference's).
The accumulators start from the output buffer's contents (a matmul accumulates), or
from the filled value when a linalg.fill of the whole output buffer precedes it, or from
the input of a linalg.generic that broadcasts it into the whole buffer (a Gemm's or a
Conv's bias): that op is then dropped.

[Note: the tensor core tiled contraction]
f16 x f16 -> f32 contractions (the payload exactly out + extf(a) * extf(b): what a
matmul or convolution of f16 tensors accumulating in f32 is) and, with allow-tf32 (the
target option allow_tf32, off by default: TF32 keeps 10 mantissa bits), f32 ones run on
tensor cores through the nvgpu dialect (interpreted with the ISA's fragment layouts,
lowered to nvvm.ldmatrix / nvvm.mma.sync). Same block tile, shared buffers (A stored
[buf][m][k]), loads, double buffering, edges and epilogue as the SIMT kernel; the 8
warps of a block each own a 32 x 16 slice of the 64 x 64 tile: 2 x 2 accumulators
of m16n8 (vector<2x2xf32>: lane l holds rows g, g + 8, columns 2 t, 2 t + 1 of each,
g = l / 4, t = l % 4). Per 16-deep step, f16: two `ldmatrix x4` of A (lane l gives row
l % 16, column 8 (l / 16): the four 8x8 quarters in fragment order), two `ldmatrix x2
trans` of B (lane l gives row l % 16 of an 8-wide column slice), four m16n8k16 mma;
TF32: two k8 half-steps, each register loaded from shared memory at its ISA position
(ldmatrix moves 16-bit elements only), four m16n8k8 mma each.

[Note: contractions as GEMMs]
The rows (M) are the output's loops only A reads, the columns (N) those only B reads,
K every reduction loop, each flattened row-major (the kernel unflattens an index with
remui / divui by the loops' sizes); the other parallel loops are batch (grid z). Inputs
may be indexed by sums of loops and loops scaled by constants, so a convolution is an
implicit GEMM without im2col: conv_2d_nchw_fchw has M = (n, oh, ow), N = (f), K = (c, kh,
kw), its input read at (n, c, oh * s + kh * d, ow * s + kw * d) as the tile loads go (a
1x1 convolution is a plain GEMM over the pixels). A batch loop only A reads (a MatMul of
[b, m, k] by [k, n]) joins the rows.

[Note: fused epilogues]
When the next op (deallocations aside) is an all-parallel linalg.generic reading the
contraction's output at identity, writing a buffer at identity over the same loops, and
the output buffer has no other use (its fill, its deallocation), the kernel computes
the generic's payload on each accumulator (its other inputs loaded at the element,
broadcast maps included: a bias, a residual) and stores that instead: bias + ReLU / GELU
/ residual add in the kernel's store, the intermediate buffer gone.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.affine import ADD, CONSTANT, DIM, MUL
from ..ir.core import Block
from ..passes.pass_manager import Option, Pass
from .scalar_builders import op_class
from .scf_to_gpu import _B, _const_int as _const_of, gpu_attr, new_launch

__all__ = ["TileContractions", "contraction_spec", "mma_kind", "BM", "BN", "BK", "THREADS"]

BM, BN, BK = 64, 64, 16          # block tile (see [Note: the SIMT tiled contraction])
TM, TN = 4, 4                    # micro-tile per thread
THREADS = (BM // TM) * (BN // TN)   # 256
_ULT, _SLT = 6, 2


class _Spec:
    """What the kernel needs of a contraction: loop dims m, n, k, the batch dims, the
    operands and their maps."""

    __slots__ = ("op", "m", "n", "k", "batch", "a", "b", "c", "maps", "sizes")


def _dims(m):
    return [r.position if r.kind == DIM else None for r in m.results]


def _expr_dims(e, out) -> bool:
    """Add the loops affine expression `e` reads to `out`; False unless it is built of
    loops, constants, sums and products by a constant (what convolutions index by)."""
    if e.kind == DIM:
        out.append(e.position)
        return True
    if e.kind == CONSTANT:
        return True
    if e.kind == ADD:
        return _expr_dims(e.lhs, out) and _expr_dims(e.rhs, out)
    if e.kind == MUL:
        return (e.lhs.kind == CONSTANT or e.rhs.kind == CONSTANT) and \
            _expr_dims(e.lhs, out) and _expr_dims(e.rhs, out)
    return False


def contraction_spec(op):
    """A _Spec when `op` is a contraction the tiled kernel takes, else a string saying
    why not (see [Note: contractions as GEMMs])."""
    if not op.name.startswith("linalg.") or not hasattr(op, "indexing_maps_list"):
        return "not a linalg structured op"
    try:
        n_in = op.num_dps_inputs()
        maps = op.indexing_maps_list()
        iters = op.iterator_types_list()
    except (AttributeError, KeyError, TypeError):
        return "not a linalg structured op"
    ops = list(op.operands)
    if n_in != 2 or len(ops) != 3 or any(type(v.type) is not A.MemRefType for v in ops):
        return "not two input buffers and one output buffer"
    its = [str(getattr(i, "value", i)) for i in iters]
    red = [d for d, i in enumerate(its) if "reduction" in i]
    par = [d for d, i in enumerate(its) if "parallel" in i]
    if not red or len(red) + len(par) != len(its):
        return "no reduction loop"
    used = []
    for m in maps[:2]:
        u = []
        if not all(_expr_dims(r, u) for r in m.results):
            return "inputs not indexed by sums of loops"
        used.append(set(u))
    ua, ub = used
    dc = _dims(maps[2])
    if None in dc or sorted(dc) != par:
        return "output not indexed by every parallel loop once"
    if not any(d in ua and d in ub for d in red):
        return "no reduction loop reads both inputs"
    # rows: the output's loops only A reads; columns: those only B reads; the other
    # parallel loops are batch (a loop one operand does not read: a broadcast)
    ms = [d for d in dc if d in ua and d not in ub]
    ns = [d for d in dc if d in ub and d not in ua]
    if not ms or not ns:
        return "no row or no column loop"
    # payload: yield (out + a * b), out used once, the product free of out
    body = op.body
    a_arg, b_arg, c_arg = body.args
    term = body.last
    if len(term.operands) != 1:
        return "payload yields more than one value"
    add = term.operands[0].defining_op
    if add is None or add.name not in ("arith.addf", "arith.addi") or c_arg not in add.operands \
            or sum(1 for _ in c_arg.uses) != 1:
        return "payload is not out + a * b"
    other = add.operands[1] if add.operands[0] is c_arg else add.operands[0]
    mul = other.defining_op
    if mul is None or mul.name not in ("arith.mulf", "arith.muli") or mul.parent is not body:
        return "payload is not out + a * b"
    for o in body.ops:
        if o.name == "linalg.index" or o.regions:
            return "payload uses loop indices or regions"
    s = _Spec()
    s.op, s.k, s.m, s.n = op, red, ms, ns
    s.batch = [d for d in par if d not in ms and d not in ns]
    s.a, s.b, s.c = ops
    s.maps = (maps[0], maps[1], dc)
    return s


def _loop_sizes(b, op, n_loops, same_shape=None):
    """The size of each loop (a value, host side), from the first operand dim it
    indexes (a constant when static). `same_shape` maps an operand that is erased with
    the contraction (the output of a fused epilogue) to a buffer of its shape that
    stays (the epilogue's output): a dynamic size is read from that one (a
    convolution's output rows and columns are known from its output buffer only)."""
    sizes = [None] * n_loops
    for v, m in zip(op.operands, op.indexing_maps_list()):
        for i, d in enumerate(_dims(m)):
            if d is not None and sizes[d] is None:
                n = v.type.shape[i]
                src = (same_shape or {}).get(v, v)
                sizes[d] = b.const(n) if n != A.DYNAMIC else \
                    b.v("memref.dim", [src, b.const(i)])
    return sizes


def _zero(t):
    if isinstance(t, A.FloatType):
        return {"value": A.FloatAttr(0.0, t)}
    return {"value": A.IntegerAttr(0, t)}


class _K(_B):
    """A builder for the kernel body (index arithmetic, masked loads, loops)."""

    __slots__ = ()

    def cmp(self, pred, a, b):
        return self.v("arith.cmpi", [a, b], A.i1, {"predicate": A.IntegerAttr(pred, A.i64)})

    def and_(self, a, b):
        return self.v("arith.andi", [a, b], A.i1)

    def div(self, a, n):
        return self.v("arith.divui", [a, self.const(n)])

    def rem(self, a, n):
        return self.v("arith.remui", [a, self.const(n)])

    def ceildiv(self, a, n):
        c = _const_of(a)
        if c is not None:
            return self.const(-(-c // n))
        return self.v("arith.ceildivui", [a, self.const(n)])

    def load(self, mem, idx):
        return self.v("memref.load", [mem, *idx], mem.type.element_type)

    def store(self, val, mem, idx):
        self.op("memref.store", [val, mem, *idx])

    def masked_load(self, ok, mem, idx):
        """mem[idx] where `ok`, else 0 (the load is not issued outside)."""
        t = mem.type.element_type
        if_op = self.op("scf.if", [ok], [t], None, 2)
        then = if_op.regions[0].add_block(Block([], []))
        tb = _K(then, None, self.loc)
        v = tb.load(mem, idx)
        tb.op("scf.yield", [v])
        els = if_op.regions[1].add_block(Block([], []))
        eb = _K(els, None, self.loc)
        eb.op("scf.yield", [eb.v("arith.constant", [], t, _zero(t))])
        return if_op.results[0]

    def when(self, ok):
        """An scf.if without results: a builder of its then block."""
        if_op = self.op("scf.if", [ok], (), None, 2)
        then = if_op.regions[0].add_block(Block([], []))
        y = op_class("scf.yield").create((), (), None, None, (), 0, self.loc)
        then.append(y)
        return _K(then, y, self.loc)

    def for_(self, lb, ub, step, inits):
        f = self.op("scf.for", [lb, ub, step, *inits], [v.type for v in inits], None, 1)
        body = f.regions[0].add_block(Block([A.index] + [v.type for v in inits],
                                            [self.loc] * (1 + len(inits))))
        return f, body, _K(body, None, self.loc)


def _clone_payload(kb, body, args, skip_term=True):
    """The payload of `body` cloned at `kb` with its block args bound to `args`; the
    yielded values."""
    mapping = dict(zip(body.args, args))
    term = body.last
    o = body.first
    while o is not term:
        c = o.clone(mapping)
        if kb.anchor is None:
            kb.block.append(c)
        else:
            kb.block.insert_before(kb.anchor, c)
        for r, n in zip(o.results, c.results):
            mapping[r] = n
        o = o.next
    return [mapping.get(v, v) for v in term.operands]


# ---------------------------------------------------------------- fusion analysis

def _uses_in(v):
    return [u.owner for u in v.uses]


def _is_broadcast_init(o, c) -> bool:
    """Whether `o` is a linalg.generic writing the whole buffer `c` at identity with a
    function of its one input only (a bias broadcast into a contraction's output,
    extended to the accumulator's type: its payload is cloned into the kernel)."""
    if o.name != "linalg.generic" or o.num_dps_inputs() != 1 or len(o.operands) != 2 or \
            o.operands[1] is not c or o.operands[0] is c:
        return False
    if any("parallel" not in str(getattr(i, "value", i)) for i in o.iterator_types_list()):
        return False
    mi, mo = o.indexing_maps_list()
    body = o.body
    if body.args[1].has_uses() or len(body.last.operands) != 1 or \
            any(x.regions or x.name == "linalg.index" for x in body.ops):
        return False
    return _dims(mo) == list(range(len(c.type.shape))) and None not in _dims(mi) and \
        type(o.operands[0].type) is A.MemRefType


def _fill_of(s):
    """What sets the whole output buffer before the contraction (same block, nothing
    else touching the buffer between): a linalg.fill, or a broadcast of one input
    (_is_broadcast_init); else None."""
    c = s.c
    block = s.op.parent

    def used_between(v, first):
        """Whether an op between `first` and the contraction (or inside one) uses v."""
        for u in _uses_in(v):
            a = u
            while a is not None and a.parent is not block:
                a = a.parent_op
            if a is not None and a is not first and a is not s.op and \
                    first.is_before_in_block(a) and a.is_before_in_block(s.op):
                return True
        return False
    for o in _uses_in(c):
        if (o.name == "linalg.fill" and o.operands[-1] is c or _is_broadcast_init(o, c)) \
                and o.parent is block and o.is_before_in_block(s.op) and \
                not used_between(c, o):
            # (a broadcast's input is read by the kernel: nothing may write it between)
            if o.name == "linalg.fill" or not used_between(o.operands[0], o):
                return o
    return None


def _epilogue_of(s):
    """The elementwise linalg.generic fused into the store (see [Note: fused
    epilogues]), or None."""
    op = s.op
    g = op.next
    while g is not None and (g.name == "memref.alloc" or g.name == "memref.dealloc" and
                             g.operands[0] is not s.c):
        g = g.next
    if g is None or g.name != "linalg.generic":
        return None
    if any("parallel" not in str(getattr(i, "value", i)) for i in g.iterator_types_list()):
        return None
    n_in = g.num_dps_inputs()
    ops = list(g.operands)
    maps = g.indexing_maps_list()
    if len(ops) - n_in != 1 or s.c not in ops[:n_in] or ops[-1] is s.c:
        return None
    rank = len(s.maps[2])
    if any(type(v.type) is not A.MemRefType for v in ops):
        return None
    for v, m in zip(ops, maps):
        d = _dims(m)
        if None in d or m.num_dims != rank:
            return None
        if (v is s.c or v is ops[-1]) and d != list(range(rank)):
            return None
    if len(g.body.last.operands) != 1:
        return None
    for o in g.body.ops:
        if o.name == "linalg.index" or o.regions:
            return None
    # the output buffer: used by its allocation, fill, the contraction, g, dealloc only
    allowed = {op, g}
    f = _fill_of(s)
    if f is not None:
        allowed.add(f)
    for u in _uses_in(s.c):
        if u not in allowed and u.name != "memref.dealloc":
            return None
    if s.c.defining_op is None or s.c.defining_op.name != "memref.alloc":
        return None
    return g


# ---------------------------------------------------------------- the kernel

def mma_kind(s, allow_tf32: bool = False):
    """"f16" when the contraction `s` runs on tensor cores as f16 x f16 -> f32 or bf16 x
    bf16 -> f32 (its payload exactly out + extf(a) * extf(b)), "tf32" for f32 x f32 -> f32 (out + a * b)
    when TF32 is allowed, else None (see [Note: the tensor core tiled contraction])."""
    ta, tb, tc = (v.type.element_type for v in (s.a, s.b, s.c))
    body = s.op.body
    a, b, c = body.args
    ops = list(body.ops)[:-1]
    names = [o.name for o in ops]
    if ta in (A.f16, A.bf16) and tb is ta and tc is A.f32 and \
            names == ["arith.extf", "arith.extf", "arith.mulf", "arith.addf"]:
        ea, eb, mul, add = ops
        if {ea.operands[0], eb.operands[0]} == {a, b} and ea.operands[0] is not \
                eb.operands[0] and set(mul.operands) == {ea.results[0], eb.results[0]} \
                and mul.results[0] in add.operands and c in add.operands:
            return "f16"          # (bf16 too: the same fragments and ldmatrix)
    if allow_tf32 and ta is A.f32 and tb is A.f32 and tc is A.f32 and \
            names == ["arith.mulf", "arith.addf"]:
        mul, add = ops
        if set(mul.operands) == {a, b} and a is not b and mul.results[0] in add.operands \
                and c in add.operands:
            return "tf32"
    return None


def tile_contraction(s, fuse_epilogues: bool = True, tensor_cores: bool = True,
                     allow_tf32: bool = False) -> None:
    """Replace the contraction `s` (a _Spec) by the tiled kernel (see the module doc)."""
    op = s.op
    loc = op.loc
    fill = _fill_of(s)
    epi = _epilogue_of(s) if fuse_epilogues else None
    if epi is not None:
        # the kernel goes where the epilogue was (its output buffer is allocated after
        # the contraction); the buffers freed between are freed after it
        o = op.next
        while o is not epi:
            nxt = o.next
            if o.name == "memref.dealloc":
                o.move_after(epi)
            o = nxt
    hb = _K(op.parent, epi or op, loc)
    sizes = _loop_sizes(hb, op, len(op.iterator_types_list()),
                        {s.c: epi.operands[-1]} if epi is not None else None)

    def product(dims):
        p = None
        for d in dims:
            v = sizes[d]
            if p is None:
                p = v
            elif None not in (_const_of(p), _const_of(v)):
                p = hb.const(_const_of(p) * _const_of(v))
            else:
                p = hb.mul(p, v)
        return p if p is not None else hb.const(1)
    M, N, K, gz = product(s.m), product(s.n), product(s.k), product(s.batch)
    grid = [hb.ceildiv(N, BN), hb.ceildiv(M, BM), gz]
    block = [hb.const(THREADS), hb.const(1), hb.const(1)]
    dynamic = [v for v in grid if _const_of(v) is None]
    if any(_const_of(v) == 0 for v in grid):
        _drop(op, fill, epi, s)
        return
    lb = hb
    if dynamic:
        ok = None
        for v in dynamic:
            c = hb.cmp(4, v, hb.const(0))       # sgt: CUDA refuses an empty grid
            ok = c if ok is None else hb.and_(ok, c)
        lb = hb.when(ok)
    launch, body = new_launch(lb, grid, block)
    kb = _K(body, body.last, loc)
    bx, by, bz = body.args[0:3]
    tid = body.args[3]
    _kernel(kb, s, fill, epi, sizes, M, N, K, bx, by, bz, tid,
            mma_kind(s, allow_tf32) if tensor_cores else None)
    _drop(op, fill, epi, s)


def _drop(op, fill, epi, s):
    if fill is not None:
        fill.erase()
    if epi is not None:
        c = s.c
        epi.erase()
        op.erase()
        for u in _uses_in(c):
            u.erase()                              # its deallocation
        c.defining_op.erase()
    else:
        op.erase()


def _unflatten(b, flat, dims, sizes, at):
    """at[d] for the loops `dims` of the row-major flat index `flat` (sizes[d] each)."""
    for d in reversed(dims[1:]):
        at[d] = b.v("arith.remui", [flat, sizes[d]])
        flat = b.v("arith.divui", [flat, sizes[d]])
    at[dims[0]] = flat
    return at


def _expr(b, e, at):
    """The index value of affine expression `e` (loops, constants, +, *) at `at`."""
    if e.kind == DIM:
        return at[e.position]
    if e.kind == CONSTANT:
        return b.const(e.value)
    lhs, rhs = _expr(b, e.lhs, at), _expr(b, e.rhs, at)
    return b.add(lhs, rhs) if e.kind == ADD else b.mul(lhs, rhs)


def _kernel(kb, s, fill, epi, sizes, M, N, K, bx, by, bz, tid, mma=None):
    """The kernel body: SIMT micro-tiles (mma None) or tensor cores (mma "f16": m16n8k16,
    "tf32": m16n8k8), see [Note: the SIMT tiled contraction] and [Note: the tensor core
    tiled contraction]."""
    wg = gpu_attr("#gpu.address_space<workgroup>")
    ta, tb_ = s.a.type.element_type, s.b.type.element_type
    seg = {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [0, 0])}
    # A in shared memory: [buf][k][m] for the SIMT kernel (a warp reads along m), [buf][m][k]
    # for the tensor cores (ldmatrix reads rows of 8 consecutive k)
    a_shape = [2, BM, BK] if mma else [2, BK, BM]
    as_ = kb.v("memref.alloc", [], A.MemRefType(a_shape, ta, None, wg), seg)
    bs = kb.v("memref.alloc", [], A.MemRefType([2, BK, BN], tb_, None, wg), seg)
    row0, col0 = kb.mul(by, kb.const(BM)), kb.mul(bx, kb.const(BN))
    # batch indices from the z block index (row-major over the batch loops)
    bidx = _unflatten(kb, bz, s.batch, sizes, {}) if s.batch else {}
    ma, mb, dc = s.maps

    def index(m, at, b):
        return [_expr(b, r, at) for r in m.results]

    def load_one(b, mem, mp, dims, i, bound, k):
        """mem at row / column `i` (of the loops `dims`) and depth k, 0 outside."""
        ok = b.and_(b.cmp(_ULT, i, bound), b.cmp(_ULT, k, K))
        at = _unflatten(b, k, s.k, sizes, _unflatten(b, i, dims, sizes, dict(bidx)))
        return b.masked_load(ok, mem, index(mp, at, b))

    def load_tiles(b, k0):
        """This thread's share of the A and B tiles starting at k0: 8 values (A's
        consecutive threads walk K, B's walk N)."""
        vals = []
        for r in range(BM * BK // THREADS):
            e = b.add(tid, b.const(THREADS * r))
            vals.append(load_one(b, s.a, ma, s.m, b.add(row0, b.div(e, BK)), M,
                                 b.add(k0, b.rem(e, BK))))
        for r in range(BN * BK // THREADS):
            e = b.add(tid, b.const(THREADS * r))
            vals.append(load_one(b, s.b, mb, s.n, b.add(col0, b.rem(e, BN)), N,
                                 b.add(k0, b.div(e, BN))))
        return vals

    def store_tiles(b, buf, vals):
        na = BM * BK // THREADS
        for r, v in enumerate(vals):
            e = b.add(tid, b.const(THREADS * (r % na)))
            if r < na:
                ml, kl = b.div(e, BK), b.rem(e, BK)
                b.store(v, as_, [buf, ml, kl] if mma else [buf, kl, ml])
            else:
                b.store(v, bs, [buf, b.div(e, BN), b.rem(e, BN)])

    store_tiles(kb, kb.const(0), load_tiles(kb, kb.const(0)))
    kb.op("gpu.barrier")
    tc = s.c.type.element_type
    # the accumulator elements: (row, col) in the block tile, and how each is held
    if mma:
        lane = kb.rem(tid, 32)
        warp = kb.div(tid, 32)
        wm, wn = kb.div(warp, 4), kb.rem(warp, 4)            # 2 x 4 warps of 32 x 16
        g, t4 = kb.div(lane, 4), kb.rem(lane, 4)
        wrow, wcol = kb.mul(wm, kb.const(32)), kb.mul(wn, kb.const(16))
        elems = []        # (row, col, tile, register, element)
        for i in range(2):
            for j in range(2):
                for r in range(2):
                    for e in range(2):
                        rr = kb.add(row0, kb.add(wrow, kb.add(g, kb.const(16 * i + 8 * r))))
                        cc = kb.add(col0, kb.add(wcol, kb.add(kb.mul(t4, kb.const(2)),
                                                            kb.const(8 * j + e))))
                        elems.append((rr, cc, 2 * i + j, r, e))
    else:
        tx, ty = kb.rem(tid, BN // TN), kb.div(tid, BN // TN)
        elems = [(kb.add(row0, kb.add(ty, kb.const(16 * i))),
                  kb.add(col0, kb.add(tx, kb.const(16 * j))), i * TN + j, None, None)
                 for i in range(TM) for j in range(TN)]
    inb = [kb.and_(kb.cmp(_ULT, r, M), kb.cmp(_ULT, c, N)) for r, c, *_ in elems]
    ats = [_unflatten(kb, c, s.n, sizes, _unflatten(kb, r, s.m, sizes, dict(bidx)))
           for r, c, *_ in elems]
    cidx = [[at[d] for d in dc] for at in ats]
    if fill is not None and fill.name == "linalg.fill":
        vals = [fill.operands[0]] * len(elems)
    elif fill is not None:       # a broadcast (the generic's loop l is C's dim l)
        src, m = fill.operands[0], fill.indexing_maps_list()[0]
        vals = [_clone_payload(kb, fill.body, [kb.masked_load(ok, src, [ci[d] for d in
                                                                         _dims(m)]), None])[0]
                for ok, ci in zip(inb, cidx)]
    else:
        vals = [kb.masked_load(ok, s.c, ci) for ok, ci in zip(inb, cidx)]
    if mma:
        ft = A.VectorType([2, 2], tc)
        init = []
        for tile in range(4):
            mine = [(el, v) for el, v in zip(elems, vals) if el[2] == tile]
            if fill is not None and fill.name == "linalg.fill":
                init.append(kb.v("vector.broadcast", [vals[0]], ft))
                continue
            acc = kb.v("vector.broadcast", [kb.v("arith.constant", [], tc, _zero(tc))], ft)
            for (_, _, _, r, e), v in mine:
                acc = kb.v("vector.insert", [v, acc], ft,
                           {"static_position": A.DenseArrayAttr(A.i64, [r, e])})
            init.append(acc)
    else:
        init = vals
    nk = kb.ceildiv(K, BK)
    loop, lbody, lb = kb.for_(kb.const(0), nk, kb.const(1), init)
    kt, accs = lbody.args[0], list(lbody.args[1:])
    cur = lb.rem(kt, 2)
    nxt = lb.v("arith.subi", [lb.const(1), cur])
    staged = load_tiles(lb, lb.mul(lb.add(kt, lb.const(1)), lb.const(BK)))
    if mma:
        new = _mma_step(lb, mma, as_, bs, cur, accs, lane, g, t4, wrow, wcol)
    else:
        inner, ibody, ib = lb.for_(lb.const(0), lb.const(BK), lb.const(1), accs)
        kk = ibody.args[0]
        av = [ib.load(as_, [cur, kk, ib.add(ty, ib.const(16 * i))]) for i in range(TM)]
        bv = [ib.load(bs, [cur, kk, ib.add(tx, ib.const(16 * j))]) for j in range(TN)]
        prod = []
        for i in range(TM):
            for j in range(TN):
                prod += _clone_payload(ib, s.op.body,
                                       [av[i], bv[j], ibody.args[1 + i * TN + j]])
        ib.op("scf.yield", prod)
        new = list(inner.results)
    store_tiles(lb, nxt, staged)
    lb.op("gpu.barrier")
    lb.op("scf.yield", new)
    # the store (through the fused epilogue)
    for n_el, ((_, _, tile, r, e), ok, ci) in enumerate(zip(elems, inb, cidx)):
        wb = kb.when(ok)
        acc = loop.results[tile]
        if mma:
            acc = wb.v("vector.extract", [acc], tc,
                       {"static_position": A.DenseArrayAttr(A.i64, [r, e])})
        if epi is None:
            wb.store(acc, s.c, ci)
            continue
        # g's loop l is the contraction's output dim l
        gat = dict(enumerate(ci))
        g_ops = list(epi.operands)
        n_in = epi.num_dps_inputs()
        args = []
        for v, m in zip(g_ops, epi.indexing_maps_list()):
            if v is s.c:
                args.append(acc)
            elif v is g_ops[-1]:
                args.append(None)
            else:
                args.append(wb.load(v, [gat[d] for d in _dims(m)]))
        out = g_ops[-1]
        if len(epi.body.args) > n_in:
            # the output's block argument: its current value (rarely read)
            args[-1] = wb.load(out, [gat[d] for d in _dims(epi.indexing_maps_list()[-1])])
        val = _clone_payload(wb, epi.body, args)[0]
        wb.store(val, out, [gat[d] for d in range(len(dc))])


def _mma_step(b, mma, as_, bs, cur, accs, lane, g, t4, wrow, wcol):
    """One BK step of a warp's 32 x 16 tile on tensor cores: its 2 x 2 accumulators
    (vector<2x2xf32>, m16n8 each) after the products of the current shared tiles."""
    accs = list(accs)
    if mma == "f16":
        # A: lane l gives row l % 16 and column 8 (l / 16) of a 16x16 tile (ldmatrix x4:
        # the four 8x8 quarters in fragment order); B (k x n): lane l gives row l % 16
        # of an 8-column slice, transposed (x2)
        r16 = b.rem(lane, 16)
        c8 = b.mul(b.div(lane, 16), b.const(8))
        et = as_.type.element_type
        fa = A.VectorType([4, 2], et)
        fb = A.VectorType([2, 2], et)
        a_frags = [b.v("nvgpu.ldmatrix", [as_, cur, b.add(wrow, b.add(r16, b.const(16 * i))), c8],
                       fa, {"numTiles": A.IntegerAttr(4, A.i32),
                            "transpose": A.IntegerAttr(0, A.i1)}) for i in range(2)]
        b_frags = [b.v("nvgpu.ldmatrix", [bs, cur, r16, b.add(wcol, b.const(8 * j))],
                       fb, {"numTiles": A.IntegerAttr(2, A.i32),
                            "transpose": A.IntegerAttr(1, A.i1)}) for j in range(2)]
        shape = [16, 8, 16]
        steps = [(a_frags, b_frags)]
    else:
        # TF32 (32-bit elements: no ldmatrix): each register loaded from shared memory
        # at the ISA's position (A: row g + 8 (r & 1), col t + 4 (r >> 1); B: row t + 4 r,
        # col g), two k8 steps per tile
        steps = []
        for k0 in (0, 8):
            a_frags, b_frags = [], []
            for i in range(2):
                v = b.v("vector.broadcast", [b.v("arith.constant", [], A.f32, _zero(A.f32))],
                        A.VectorType([4, 1], A.f32))
                for r in range(4):
                    x = b.load(as_, [cur, b.add(wrow, b.add(g, b.const(16 * i + 8 * (r & 1)))),
                                     b.add(t4, b.const(k0 + 4 * (r >> 1)))])
                    v = b.v("vector.insert", [x, v], v.type,
                            {"static_position": A.DenseArrayAttr(A.i64, [r, 0])})
                a_frags.append(v)
            for j in range(2):
                v = b.v("vector.broadcast", [b.v("arith.constant", [], A.f32, _zero(A.f32))],
                        A.VectorType([2, 1], A.f32))
                for r in range(2):
                    x = b.load(bs, [cur, b.add(t4, b.const(k0 + 4 * r)),
                                    b.add(wcol, b.add(g, b.const(8 * j)))])
                    v = b.v("vector.insert", [x, v], v.type,
                            {"static_position": A.DenseArrayAttr(A.i64, [r, 0])})
                b_frags.append(v)
            steps.append((a_frags, b_frags))
        shape = [16, 8, 8]
    props = {"mmaShape": A.ArrayAttr([A.IntegerAttr(x, A.i64) for x in shape])}
    if mma == "tf32":
        props["tf32Enabled"] = A.UnitAttr()
    for a_frags, b_frags in steps:
        for i in range(2):
            for j in range(2):
                accs[2 * i + j] = b.v("nvgpu.mma.sync", [a_frags[i], b_frags[j],
                                                         accs[2 * i + j]],
                                      accs[2 * i + j].type, dict(props))
    return accs


class TileContractions(Pass):
    name = "strata-gpu-tile-contractions"
    summary = "Contractions on buffers -> shared-memory tiled gpu.launch kernels"
    fuse_epilogues = Option(bool, True, "Fuse a following elementwise linalg.generic "
                            "into the kernel's store")
    tensor_cores = Option(bool, True, "f16 contractions (and f32 ones with allow-tf32) on "
                          "tensor cores (nvgpu.mma.sync, sm_80+)")
    allow_tf32 = Option(bool, False, "f32 contractions on tensor cores as TF32 (10-bit "
                        "mantissa products)")

    def run(self, op):
        todo = []
        for o in op.walk():
            if o.name.startswith("linalg."):
                s = contraction_spec(o)
                if not isinstance(s, str):
                    todo.append(s)
        for s in todo:
            tile_contraction(s, self.fuse_epilogues, self.tensor_cores, self.allow_tf32)


from ..passes.registry import register_pass  # noqa: E402

register_pass(TileContractions)
