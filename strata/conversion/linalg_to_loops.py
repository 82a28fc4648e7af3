"""`convert-linalg-to-loops` and `convert-linalg-to-parallel-loops`: linalg structured ops
on buffers become loop nests of memref.load / the scalar payload / memref.store, as
upstream's LinalgToLoops.

    linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>)
                  outs(%C : memref<4x16xf32>)
=>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        scf.for %k = %c0 to %c8 step %c1 {
          %a = memref.load %A[%i, %k] : memref<4x8xf32>
          %b = memref.load %B[%k, %j] : memref<8x16xf32>
          %c = memref.load %C[%i, %j] : memref<4x16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          memref.store %s, %C[%i, %j] : memref<4x16xf32>

[Note: what upstream does, step by step]
Every op with the structured-op interface and only memref (or scalar) operands is
rewritten by one pattern, applied by the greedy driver (bottom-up) together with the
canonicalization patterns of memref.dim and tensor.dim, as upstream's pass does:
1. the loop ranges (createLoopRanges): each operand dim in operand order, a constant for
   a static size, a `memref.dim` (with its index constant) for a dynamic one; loop `d`
   runs from 0 to the first operand dim the loops-to-shapes map sends `d` to, by 1;
2. the constants of lower bound, upper bound and step, loop by loop (unpackRanges);
3. the loop nest, outermost loop first in the op's iterator order (scf.buildLoopNest;
   the parallel variant opens one scf.parallel per run of parallel loops and an scf.for
   per reduction loop);
4. in the innermost body: a load per input (a scalar input is used as it is), a load
   per output, the payload's ops cloned (`linalg.index` is the loop's induction
   variable), a store per yielded value.
The greedy driver then erases what is unused (the output loads of linalg.fill, the
memref.dim of sizes no loop takes) and hoists and uniques the constants at the start of
the function, which gives upstream's order of constants.

Where upstream indexes with `affine.apply` (an indexing map result that is neither a
loop index nor a constant: convolution and pooling windows), Strata, which has no affine
dialect, emits the arith ops `lower-affine` makes of it, in its order (arith.muli with
`nsw`, arith.addi, and lower-affine's sequences for floordiv, ceildiv and mod); only the
constants differ in place: the greedy driver hoists them.

Ops upstream's pass leaves alone are lowered too when they are on buffers:
`linalg.softmax` through upstream's decomposition (max, exp of the difference, sum,
division) on a temporary buffer (memref.alloc / memref.dealloc) holding the reduced
values; `linalg.pack` / `linalg.unpack` as direct loops over the destination (a padded
pack loads only inside the source and stores the padding value elsewhere).

[Note: interchange-for-locality]
With `interchange-for-locality=true` (Strata's option, default false), the loop of the
innermost dim of the (first) output moves innermost, the other loops keeping their order,
when that loop is parallel, every input it indexes has it in its innermost position, and
it is not innermost already: matmul (i, j, k) runs as (i, k, j), so the innermost loop
walks rows of B and C with unit stride and LLVM can vectorize it.
"""
from __future__ import annotations

from ..dialects import arith
from ..dialects import scf as S
from ..dialects.linalg.structured import StructuredOp
from ..ir import attributes as A
from ..ir.affine import (ADD, CEILDIV, CONSTANT, DIM, FLOORDIV, MOD, MUL, AffineDimExpr,
                         AffineMap)
from ..ir.builder import InsertionPoint
from ..ir.core import Block
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.gc_pause import gc_paused
from ..passes.pass_manager import Option, Pass
from ..rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
from ..rewrite.pattern import Listener, PatternRewriter, RewritePattern
from .scalar_builders import op_class

__all__ = ["ConvertLinalgToLoops", "ConvertLinalgToParallelLoops", "LinalgToLoopsPattern",
           "lower_linalg_to_loops", "locality_loop_order"]

_SLT, _SLE, _ULT = 2, 3, 6  # arith.cmpi predicates


def lower_linalg_to_loops(root, parallel=False, interchange_for_locality=False) -> None:
    """Lower the linalg ops on buffers nested in `root` to loops (see the module doc);
    raises DiagnosticError at an op on buffers that cannot be lowered."""
    lowerings = [LinalgToLoopsPattern(parallel, interchange_for_locality), SoftmaxPattern(),
                 RelayoutPattern()]
    with gc_paused():
        _lower_all(root, lowerings)
    cleanup = []
    for name in ("memref.dim", "tensor.dim"):
        try:
            cls = op_class(name)
        except KeyError:
            continue
        fn = getattr(cls, "canonicalization_patterns", None)
        if fn is not None:
            cleanup.extend(fn())
    apply_patterns_greedily(root, cleanup, GreedyRewriteConfig(top_down=False))


def _is_target(op) -> bool:
    return (isinstance(op, StructuredOp) or op.name in _OTHER_TARGETS) and _on_buffers(op)


_OTHER_TARGETS = ("linalg.softmax", "linalg.pack", "linalg.unpack")


class _Collect(Listener):
    """Queues the linalg ops a lowering creates (softmax's decomposition)."""

    def __init__(self, queue):
        self.queue = queue

    def notify_op_inserted(self, op):
        if _is_target(op):
            self.queue.append(op)


def _lower_all(root, lowerings) -> None:
    """Rewrite every linalg op on buffers in `root` (and those the rewrites create).

    [Note: why not through the greedy driver alone]
    Upstream's pass hands its pattern to the greedy driver, which first erases ops that
    are trivially dead. A linalg op on buffers has no results: were its effects judged
    by its pure payload alone (RecursiveMemoryEffects), the driver would erase it instead
    of lowering it. The ops are lowered first, here, whatever the effects say, and the
    greedy driver then does the rest of upstream's run (unused loads and dims erased,
    constants hoisted and uniqued): the same IR as upstream's interleaved run."""
    queue = [op for op in root.walk() if _is_target(op)]
    rewriter = PatternRewriter(_Collect(queue))
    i = 0
    while i < len(queue):
        op = queue[i]
        i += 1
        if not any(p.match_and_rewrite(op, rewriter) for p in lowerings
                   if p.root is None or p.root == op.name):
            _error(op, "could not be lowered to loops")


class ConvertLinalgToLoops(Pass):
    name = "convert-linalg-to-loops"
    summary = "Lower the operations from the linalg dialect into loops"
    display_name = "ConvertLinalgToLoopsPass"
    interchange_for_locality = Option(
        bool, False, "Strata's: run the loop of the output's innermost dim innermost when "
        "it is parallel and contiguous in the inputs (reductions move outside it)")

    def run(self, op):
        lower_linalg_to_loops(op, False, self.interchange_for_locality)


class ConvertLinalgToParallelLoops(Pass):
    name = "convert-linalg-to-parallel-loops"
    summary = "Lower the operations from the linalg dialect into parallel loops"
    display_name = "ConvertLinalgToParallelLoopsPass"
    interchange_for_locality = Option(
        bool, False, "Strata's: as convert-linalg-to-loops' (a parallel loop moved "
        "innermost leaves the run of parallel loops it was in)")

    def run(self, op):
        lower_linalg_to_loops(op, True, self.interchange_for_locality)


# ---------------------------------------------------------------------- helpers


def _is_memref(t) -> bool:
    return type(t) is A.MemRefType


def _on_buffers(op) -> bool:
    """hasPureBufferSemantics: every shaped operand a memref (scalars allowed)."""
    return all(_is_memref(t) or not isinstance(t, A.ShapedType) for t in op.operand_types)


def _error(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, f"'{op.name}' op {message}"))


class _Emitter:
    """Creates ops at the rewriter's insertion point with one location."""

    __slots__ = ("rw", "loc")

    def __init__(self, rewriter, loc):
        self.rw = rewriter
        self.loc = loc

    def op(self, name, operands, result_types=(), props=None):
        o = op_class(name).create(list(operands), list(result_types), props, None, (), 0,
                                  self.loc)
        return self.rw.insert(o)

    def v(self, name, operands, result_type, props=None):
        return self.op(name, operands, [result_type], props).results[0]

    def index(self, n: int):
        return self.v("arith.constant", [], A.index, {"value": A.IntegerAttr(n, A.index)})

    def dim(self, memref, i: int):
        """createOrFoldDimOp: `memref.dim` with a fresh index constant."""
        return self.v("memref.dim", [memref, self.index(i)], A.index)

    def size(self, memref, i: int):
        """The size of dim `i`: a constant when static (createFoldedDimOp)."""
        d = memref.type.shape[i]
        return self.dim(memref, i) if d == A.DYNAMIC else d

    def load(self, memref, indices):
        return self.v("memref.load", [memref, *indices], memref.type.element_type)

    def store(self, value, memref, indices):
        return self.op("memref.store", [value, memref, *indices])

    def cmpi(self, pred, a, b):
        return self.v("arith.cmpi", [a, b], A.i1, {"predicate": A.IntegerAttr(pred, A.i64)})

    def value(self, x):
        """getValueOrCreateConstantIndexOp."""
        return self.index(x) if isinstance(x, int) else x

    def at(self, block, before=None):
        self.rw.ip = InsertionPoint(block, before)

    def expr(self, e, ivs):
        """An affine expression of the loop indices as arith ops on index values (what
        lower-affine makes of an affine.apply)."""
        k = e.kind
        if k == DIM:
            return ivs[e.position]
        if k == CONSTANT:
            return self.index(e.value)
        lhs = self.expr(e.lhs, ivs)
        rhs = self.expr(e.rhs, ivs)
        if k == ADD:
            return self.v("arith.addi", [lhs, rhs], A.index)
        if k == MUL:
            return self.v("arith.muli", [lhs, rhs], A.index,
                          {"overflowFlags": arith.OVERFLOW("nsw")})
        sub, sel = "arith.subi", "arith.select"
        if k == FLOORDIV:  # negative ? -1 - (-1 - a) / b : a / b
            zero, none = self.index(0), self.index(-1)
            neg = self.cmpi(_SLT, lhs, zero)
            dividend = self.v(sel, [neg, self.v(sub, [none, lhs], A.index), lhs], A.index)
            q = self.v("arith.divsi", [dividend, rhs], A.index)
            return self.v(sel, [neg, self.v(sub, [none, q], A.index), q], A.index)
        if k == CEILDIV:  # a <= 0 ? -(-a / b) : (a - 1) / b + 1
            zero, one = self.index(0), self.index(1)
            nonpos = self.cmpi(_SLE, lhs, zero)
            negated = self.v(sub, [zero, lhs], A.index)
            decremented = self.v(sub, [lhs, one], A.index)
            dividend = self.v(sel, [nonpos, negated, decremented], A.index)
            q = self.v("arith.divsi", [dividend, rhs], A.index)
            return self.v(sel, [nonpos, self.v(sub, [zero, q], A.index),
                                self.v("arith.addi", [q, one], A.index)], A.index)
        if k == MOD:  # a rem b, made non-negative
            rem = self.v("arith.remsi", [lhs, rhs], A.index)
            neg = self.cmpi(_SLT, rem, self.index(0))
            fixed = self.v("arith.addi", [rem, rhs], A.index)
            return self.v(sel, [neg, fixed, rem], A.index)
        raise ValueError(f"unsupported affine expression {e}")

    def indices(self, m: AffineMap, ivs):
        return [self.expr(r, ivs) for r in m.results]

    # -- loops: created detached, filled, then inserted with what they hold

    def for_loop(self, lb, ub, step):
        """An scf.for without results and its (terminated) body."""
        f = S.ForOp.create([lb, ub, step], (), None, None, (), 1, self.loc)
        body = f.regions[0].add_block(Block([A.index], [self.loc]))
        body.append(S.YieldOp.create((), loc=self.loc))
        return f, body

    def parallel_loop(self, lbs, ubs, steps):
        n = len(lbs)
        sizes = A.DenseArrayAttr(A.i32, [n, n, n, 0])
        p = S.ParallelOp.create([*lbs, *ubs, *steps], (), {"operandSegmentSizes": sizes},
                                None, (), 1, self.loc)
        body = p.regions[0].add_block(Block([A.index] * n, [self.loc] * n))
        body.append(S.ReduceOp.create((), (), None, None, (), 0, self.loc))
        return p, body


def _loop_nest(em, lbs, ubs, steps, order, kinds, parallel):
    """The loop nest over the loops in `order` (scf.for each, or scf.parallel for runs of
    parallel loops), inserted at the emitter's insertion point. Returns the induction
    variable of each loop (by loop number) and the innermost body, with the emitter's
    insertion point before its terminator."""
    ivs = [None] * len(order)
    outer = None
    body = None
    i = 0
    while i < len(order):
        if parallel and kinds[order[i]] == "parallel":
            j = i
            while j < len(order) and kinds[order[j]] == "parallel":
                j += 1
            run = order[i:j]
            loop, inner = em.parallel_loop([lbs[d] for d in run], [ubs[d] for d in run],
                                           [steps[d] for d in run])
            for d, a in zip(run, inner.args):
                ivs[d] = a
            i = j
        else:
            d = order[i]
            loop, inner = em.for_loop(lbs[d], ubs[d], steps[d])
            ivs[d] = inner.args[0]
            i += 1
        if body is None:
            outer = loop
        else:
            body.insert_before(body.last, loop)
        body = inner
    if outer is not None:
        em.rw.insert(outer)
        em.at(body, body.last)
    return ivs


def locality_loop_order(op) -> list:
    """The loop order of `interchange-for-locality` (see the note above): the op's order,
    or the loop of the first output's innermost dim moved innermost."""
    n = op.num_loops
    order = list(range(n))
    kinds = op.iterator_types_list()
    maps = op.indexing_maps_list()
    n_in = op.num_dps_inputs()
    if not n or n_in >= len(maps) or not maps[n_in].results:
        return order
    last = maps[n_in].results[-1]
    if last.kind != DIM or kinds[last.position] != "parallel" or order[-1] == last.position:
        return order
    d = last.position
    for m in maps[:n_in]:
        uses = [r for r in m.results if _uses_dim(r, d)]
        if uses and (not m.results or not _uses_dim(m.results[-1], d) or len(uses) > 1):
            return order
    order.remove(d)
    order.append(d)
    return order


def _uses_dim(e, d) -> bool:
    k = e.kind
    if k == DIM:
        return e.position == d
    if k == CONSTANT or not hasattr(e, "lhs"):
        return False
    return _uses_dim(e.lhs, d) or _uses_dim(e.rhs, d)


# ---------------------------------------------------------------------- structured ops


class LinalgToLoopsPattern(RewritePattern):
    """Any structured op on buffers -> its loop nest (see the note above)."""

    root = None

    def __init__(self, parallel=False, interchange_for_locality=False):
        self.parallel = parallel
        self.interchange = interchange_for_locality

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not isinstance(op, StructuredOp) or not _on_buffers(op):
            return False
        em = _Emitter(rewriter, op.loc)
        rewriter.ip = InsertionPoint.before_op(op)
        lbs, ubs, steps = _loop_ranges(em, op)
        order = locality_loop_order(op) if self.interchange else list(range(len(lbs)))
        ivs = _loop_nest(em, lbs, ubs, steps, order, op.iterator_types_list(),
                         self.parallel)
        _scalar_body(em, op, ivs)
        rewriter.erase_op(op)
        return True


def _loop_ranges(em, op):
    """createLoopRanges + unpackRanges: the bound values of each loop."""
    m = op.loops_to_shapes_map()
    first = {}  # loop -> the first flat operand dim giving its size
    for i, r in enumerate(m.results):
        if r.kind == DIM:
            first.setdefault(r.position, i)
    for d in range(m.num_dims):
        if d not in first:
            _error(op, f"has no operand dimension giving the size of loop {d}")
    sizes = []
    for v in op.operands:
        t = v.type
        if isinstance(t, A.ShapedType) and t.has_rank:
            sizes.extend(em.size(v, i) for i in range(len(t.shape)))
    lbs, ubs, steps = [], [], []
    for d in range(m.num_dims):
        lbs.append(em.index(0))
        ubs.append(em.value(sizes[first[d]]))
        steps.append(em.index(1))
    return lbs, ubs, steps


def _scalar_body(em, op, ivs):
    """emitScalarImplementation: loads, the payload, stores."""
    maps = op.indexing_maps_list()
    n_in = op.num_dps_inputs()
    operands = op.operands
    values = []
    for i, v in enumerate(operands):
        if i < n_in and not isinstance(v.type, A.ShapedType):
            values.append(v)
        else:
            values.append(em.load(v, em.indices(maps[i], ivs)))
    outs = [(v, em.indices(maps[n_in + i], ivs))
            for i, v in enumerate(operands[n_in:]) if _is_memref(v.type)]
    body = op.body
    mapping = dict(zip(body.args, values))
    term = body.last
    inner = body.first
    while inner is not term:
        if inner.name == "linalg.index":
            mapping[inner.results[0]] = ivs[inner._props["dim"].value]
        else:
            em.rw.insert(inner.clone(mapping))
        inner = inner.next
    for val, (buf, idx) in zip(term.operands, outs):
        em.store(mapping.get(val, val), buf, idx)


# ---------------------------------------------------------------------- softmax


class SoftmaxPattern(RewritePattern):
    """linalg.softmax on buffers -> upstream's decomposition into linalg ops (max, exp of
    the difference, sum, division), the reduced values in a temporary buffer."""

    root = "linalg.softmax"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _on_buffers(op):
            return False
        from ..dialects.linalg import FillOp, make_generic
        em = _Emitter(rewriter, op.loc)
        rewriter.ip = InsertionPoint.before_op(op)
        rewriter.loc = op.loc
        x, out = op.operands
        t = x.type
        et = t.element_type
        if type(et) is not A.FloatType:
            return rewriter.notify_match_failure(op, "softmax of non-float elements")
        rank = len(t.shape)
        d = op._props["dimension"].value
        shape = [s for i, s in enumerate(t.shape) if i != d]
        dyn = [em.dim(x, i) for i, s in enumerate(t.shape) if i != d and s == A.DYNAMIC]
        red_t = A.MemRefType(shape, et)
        buf = em.v("memref.alloc", dyn, red_t,
                   {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(dyn), 0])})
        ident = AffineMap.identity(rank)
        red = AffineMap(rank, 0, [AffineDimExpr(i) for i in range(rank) if i != d])
        its = ["parallel"] * rank
        red_its = list(its)
        red_its[d] = "reduction"
        lowest = A.FloatAttr(-_largest(et), et)
        rewriter.insert(FillOp.new([em.v("arith.constant", [], et, {"value": lowest})],
                                   [buf], loc=op.loc))
        make_generic(rewriter, [x], [buf], [ident, red], red_its,
                     lambda b, a: b._op("arith.maxnumf", a, et))
        make_generic(rewriter, [x, buf], [out], [ident, red, ident], its,
                     lambda b, a: b._op("math.exp", [b._op("arith.subf", a[:2], et)], et))
        zero = A.FloatAttr(0.0, et)
        rewriter.insert(FillOp.new([em.v("arith.constant", [], et, {"value": zero})],
                                   [buf], loc=op.loc))
        make_generic(rewriter, [out], [buf], [ident, red], red_its,
                     lambda b, a: b._op("arith.addf", a, et))
        make_generic(rewriter, [out, buf], [out], [ident, red, ident], its,
                     lambda b, a: b._op("arith.divf", a[:2], et))
        em.op("memref.dealloc", [buf])
        rewriter.erase_op(op)
        return True


def _largest(et) -> float:
    """The largest finite value of a float type (APFloat::getLargest)."""
    import numpy as np
    from ..interpreter.values import dtype_of
    try:
        return float(np.finfo(dtype_of(et)).max)
    except Exception:  # noqa: BLE001 - a float kind NumPy lacks: its own bound
        return float(et.max_finite) if hasattr(et, "max_finite") else 3.4028234663852886e38


# ---------------------------------------------------------------------- pack / unpack


class RelayoutPattern(RewritePattern):
    """linalg.pack / linalg.unpack on buffers -> loops over the destination."""

    root = None

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.name not in ("linalg.pack", "linalg.unpack") or not _on_buffers(op):
            return False
        em = _Emitter(rewriter, op.loc)
        rewriter.ip = InsertionPoint.before_op(op)
        src, dst = op.operand(0), op.operand(1)
        pos = list(op._props["inner_dims_pos"].value)
        perm = op._perm() if hasattr(op, "_perm") else []
        tiles = [em.value(t) for t in op.mixed_tiles]
        pack = op.name == "linalg.pack"
        loops_over = dst
        rank = len((src if pack else dst).type.shape)
        perm = perm or list(range(rank))
        n = len(loops_over.type.shape)
        c0, c1 = em.index(0), em.index(1)
        ubs = [em.value(em.size(loops_over, i)) for i in range(n)]
        ivs = _loop_nest(em, [c0] * n, ubs, [c1] * n, list(range(n)), ["parallel"] * n,
                         False)
        if pack:
            _pack_body(em, op, src, dst, ivs, pos, perm, tiles, rank)
        else:
            _unpack_body(em, src, dst, ivs, pos, perm, tiles, rank)
        rewriter.erase_op(op)
        return True


def _pack_body(em, op, src, dst, ivs, pos, perm, tiles, rank):
    """dest[outer (permuted), inner] = src[outer * tile + inner] (the padding value
    outside the source)."""
    outer = [None] * rank
    for j, p in enumerate(perm):
        outer[p] = ivs[j]
    idx = list(outer)
    for k, d in enumerate(pos):
        scaled = em.v("arith.muli", [outer[d], tiles[k]], A.index)
        idx[d] = em.v("arith.addi", [scaled, ivs[rank + k]], A.index)
    pad = op.operand(2) if len(op.operands) > 2 and \
        op._props["operandSegmentSizes"].value[2] else None
    if pad is None:
        em.store(em.load(src, idx), dst, ivs)
        return
    inside = None
    for d in sorted(set(pos)):
        ok = em.cmpi(_ULT, idx[d], em.value(em.size(src, d)))
        inside = ok if inside is None else em.v("arith.andi", [inside, ok], A.i1)
    if_op = S.IfOp.create([inside], [pad.type], None, None, (), 2, em.loc)
    then_b = if_op.regions[0].add_block(Block())
    else_b = if_op.regions[1].add_block(Block())
    em.rw.insert(if_op)
    here = em.rw.ip
    em.at(then_b)
    v = em.load(src, idx)
    em.op("scf.yield", [v])
    em.at(else_b)
    em.op("scf.yield", [pad])
    em.rw.ip = here
    em.store(if_op.results[0], dst, ivs)


def _unpack_body(em, src, dst, ivs, pos, perm, tiles, rank):
    """dest[i] = src[(i / tile) permuted, i % tile]."""
    outer = list(ivs)
    inner = []
    for k, d in enumerate(pos):
        outer[d] = em.v("arith.divui", [ivs[d], tiles[k]], A.index)
        inner.append(em.v("arith.remui", [ivs[d], tiles[k]], A.index))
    idx = [outer[p] for p in perm] + inner
    em.store(em.load(src, idx), dst, ivs)


from ..passes.registry import register_pass  # noqa: E402

register_pass(ConvertLinalgToLoops)
register_pass(ConvertLinalgToParallelLoops)
