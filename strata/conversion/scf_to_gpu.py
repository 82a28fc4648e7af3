"""Parallel loops onto GPU blocks and threads: the passes between linalg on buffers
(as convert-linalg-to-parallel-loops leaves it) and gpu.launch.

    strata-gpu-linearize-parallel-loops{block-size=256}   (Strata's)
      scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c300) step (%c1, %c1) { B(%i, %j) }
    =>
      scf.parallel (%b) = (%c0) to (%c5) step (%c1) {          // ceil(1200 / 256) blocks
        scf.parallel (%t) = (%c0) to (%c256) step (%c1) {      // 256 threads
          %l = b * 256 + t;  scf.if %l < 1200 { %i = l / 300; %j = l % 300; B(%i, %j) }

    gpu-map-parallel-loops          (upstream's GreedyParallelLoopMapping)
      the outermost scf.parallel's dims -> block_x, block_y, block_z, those of the
      parallel loops directly inside it -> thread_x, y, z, the rest sequential, as
      `mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0),
                                    bound = (d0) -> (d0)>, ...]`

    convert-parallel-loops-to-gpu   (upstream's ParallelLoopToGpu)
      a mapped loop nest -> gpu.launch: grid and block sizes from the trip counts of the
      dims mapped to blocks and threads (computed before the launch), each induction
      variable `lb + id * step`, sequential dims as scf.for inside

    strata-gpu-launch-sequential    (Strata's; runs before the passes above)
      what the host cannot run (loops other than scf.parallel, stores: a reduction to a
      scalar is an scf.for, and a loop holding parallel loops runs whole, parallel
      loops inside sequentially) -> a gpu.launch of one thread, so that a host function
      holds only what the launch plan runs (backends/cuda/plan.py) and the parallel
      loops that become launches

[Note: gpu ops by name]
The gpu dialect's ops and attributes (strata/dialects/gpu) are built here in their
generic form, by op name and attribute text (`_gpu_attr`), as upstream prints them:
this module depends on the dialect's syntax, not on its Python classes.
"""
from __future__ import annotations

import re

from ..ir import attributes as A
from ..ir.core import Block
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..passes.pass_manager import Option, Pass
from .scalar_builders import op_class

__all__ = ["RowsToWarps", "LinearizeParallelLoops", "GpuMapParallelLoops", "ConvertParallelLoopsToGpu",
           "GpuLaunchSequential", "gpu_attr", "new_launch", "LAUNCH_ARGS"]

_ATTRS: dict = {}


def gpu_attr(text: str):
    """An attribute of the gpu dialect from its text (see [Note: gpu ops by name])."""
    a = _ATTRS.get(text)
    if a is None:
        from ..dialects import default_context
        from ..syntax.attr_parser import AttrParser
        a = _ATTRS[text] = AttrParser(text, default_context()).parse_attribute()
    return a


def _fail(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


class _B:
    """Creates ops before `anchor` (or at the end of `block`), at `loc`."""

    __slots__ = ("block", "anchor", "loc", "consts")

    def __init__(self, block, anchor, loc):
        self.block = block
        self.anchor = anchor
        self.loc = loc
        self.consts = {}

    def op(self, name, operands=(), results=(), props=None, regions=0, attrs=None):
        o = op_class(name).create(list(operands), list(results), props, attrs, (), regions,
                                  self.loc)
        if self.anchor is None:
            self.block.append(o)
        else:
            self.block.insert_before(self.anchor, o)
        return o

    def v(self, name, operands, rt=A.index, props=None):
        return self.op(name, operands, [rt], props).results[0]

    def const(self, n: int):
        c = self.consts.get(n)
        if c is None:
            c = self.consts[n] = self.v("arith.constant", [], A.index,
                                        {"value": A.IntegerAttr(n, A.index)})
        return c

    def add(self, a, b):
        return self.v("arith.addi", [a, b])

    def mul(self, a, b):
        return self.v("arith.muli", [a, b])


def _const_int(v):
    op = v.defining_op
    if op is not None and op.name == "arith.constant":
        a = op.properties.get("value")
        if isinstance(a, A.IntegerAttr):
            return a.value
    return None


def _trip_count(b, lb, ub, step):
    """ceil((ub - lb) / step) as a value (a constant when all three are)."""
    cl, cu, cs = _const_int(lb), _const_int(ub), _const_int(step)
    if None not in (cl, cu, cs):
        return b.const(max(0, -(-(cu - cl) // cs))), max(0, -(-(cu - cl) // cs))
    d = ub if cl == 0 else b.v("arith.subi", [ub, lb])
    if cs != 1:
        d = b.v("arith.ceildivsi", [d, step])
    if cl == 0 and cs == 1:
        return d, None      # (a size: not negative)
    return b.v("arith.maxsi", [d, b.const(0)]), None   # empty, not negative


def _parallel_parts(p):
    n = len(p.operands) // 3
    ops = list(p.operands)
    return ops[:n], ops[n:2 * n], ops[2 * n:3 * n]


def _new_parallel(b, lbs, ubs, steps):
    n = len(lbs)
    p = b.op("scf.parallel", [*lbs, *ubs, *steps], (),
             {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [n, n, n, 0])}, 1)
    body = p.regions[0].add_block(Block([A.index] * n, [b.loc] * n))
    body.append(op_class("scf.reduce").create((), (), None, None, (), 0, b.loc))
    return p, body


def _outermost_parallels(root):
    """scf.parallel ops of `root` not nested in another one (nor in a gpu.launch)."""
    out = []

    def visit(op):
        for r in op.regions:
            for blk in r.blocks:
                for o in blk.ops:
                    if o.name == "scf.parallel":
                        out.append(o)
                    elif o.name not in ("gpu.launch", "gpu.module"):
                        visit(o)
    visit(root)
    return out


# ---------------------------------------------------------------- linearize

class LinearizeParallelLoops(Pass):
    name = "strata-gpu-linearize-parallel-loops"
    summary = "Collapse each outermost scf.parallel into blocks x threads of a fixed size"
    description = ("Each outermost scf.parallel without reductions becomes an scf.parallel "
                   "over blocks holding one over `block-size` threads; the linear index "
                   "is bounds-checked and split back into the original induction "
                   "variables (see conversion/scf_to_gpu.py).")
    block_size = Option(int, 256, "Threads per block")

    def run(self, op):
        if self.block_size <= 0:
            raise DiagnosticError(Diagnostic(ERROR, op.loc, "block-size must be positive"))
        for p in _outermost_parallels(op):
            if p.get_attr("mapping") is None and len(p.results) == 0:
                linearize(p, self.block_size)


def linearize(p, block_size: int) -> None:
    """Rewrite scf.parallel `p` as blocks x threads (see the module doc)."""
    loc = p.loc
    lbs, ubs, steps = _parallel_parts(p)
    b = _B(p.parent, p, loc)
    counts, statics = [], []
    for lb, ub, st in zip(lbs, ubs, steps):
        v, c = _trip_count(b, lb, ub, st)
        counts.append(v)
        statics.append(c)
    static_total = None
    if None not in statics:
        static_total = 1
        for c in statics:
            static_total *= c
        total = b.const(static_total)
    else:
        total = counts[0]
        for c in counts[1:]:
            total = b.mul(total, c)
    bs = block_size if static_total is None else max(1, min(block_size, static_total))
    c0, c1, cbs = b.const(0), b.const(1), b.const(bs)
    if static_total is not None:
        blocks = b.const(-(-static_total // bs))
    else:
        blocks = b.v("arith.ceildivsi", [total, cbs])
    outer, obody = _new_parallel(b, [c0], [blocks], [c1])
    ib = _B(obody, obody.last, loc)
    inner, ibody = _new_parallel(ib, [c0], [cbs], [c1])
    tb = _B(ibody, ibody.last, loc)
    lin = tb.add(tb.mul(obody.args[0], cbs), ibody.args[0])
    target_block, anchor = ibody, ibody.last
    if static_total is None or static_total % bs:
        ok = tb.v("arith.cmpi", [lin, total], A.i1,
                  {"predicate": A.IntegerAttr(2, A.i64)})       # slt
        if_op = tb.op("scf.if", [ok], (), None, 2)
        then = if_op.regions[0].add_block(Block([], []))
        then.append(op_class("scf.yield").create((), (), None, None, (), 0, loc))
        target_block, anchor = then, then.last
    db = _B(target_block, anchor, loc)
    ivs = [None] * len(counts)
    rem = lin
    for k in range(len(counts) - 1, -1, -1):
        if k == 0:
            q = rem
        else:
            q = db.v("arith.remsi", [rem, counts[k]])
            rem = db.v("arith.divsi", [rem, counts[k]])
        iv = q if _const_int(steps[k]) == 1 else db.mul(q, steps[k])
        ivs[k] = iv if _const_int(lbs[k]) == 0 else db.add(iv, lbs[k])
    body = p.regions[0].blocks[0]
    for a, iv in zip(body.args, ivs):
        a.replace_all_uses_with(iv)
    for o in list(body.ops):
        if o.name == "scf.reduce":
            continue
        o.detach()
        target_block.insert_before(anchor, o)
    p.erase()


# ---------------------------------------------------------------- a warp per row

WARP = 32
# Combiners of a row reduction (the scf.for's yield: combiner(iter_arg, x)) and their
# identities (what the lanes other than 0 start from).
_COMBINERS = {"arith.addf": 0.0, "arith.mulf": 1.0, "arith.maximumf": float("-inf"),
              "arith.minimumf": float("inf"), "arith.maxnumf": float("nan"),
              "arith.minnumf": float("nan"), "arith.addi": 0, "arith.muli": 1,
              "arith.maxsi": -(1 << 31), "arith.minsi": (1 << 31) - 1,
              "arith.andi": -1, "arith.ori": 0, "arith.xori": 0}


class RowsToWarps(Pass):
    name = "strata-gpu-rows-to-warps"
    summary = "Loops over rows with reductions (softmax, layer norm): a warp per row"
    description = ("An outermost scf.parallel whose body is loops over the same row "
                   "(strata-linalg-fuse-row-reductions' output), one at least a "
                   "reduction, gets a parallel dim of 32 lanes: each lane takes every "
                   "32nd element of the row, and each reduction ends with a butterfly of "
                   "gpu.shuffle xor (see [Note: a warp per row]).")

    def run(self, op):
        for p in _outermost_parallels(op):
            if p.get_attr("mapping") is None and not p.results and _row_loops(p):
                rows_to_warps(p)


# [Note: a warp per row]
# The rows of a fused softmax or layer norm are few and long: a thread per row leaves
# most of the GPU idle and walks each row alone. strata-gpu-rows-to-warps gives each row
# a warp: the row loop `scf.parallel (%r)` becomes `scf.parallel (%r, %lane)` over 32
# lanes (linearized, consecutive threads are the lanes of one row: a warp), every loop
# over the row runs from %lane by 32, and a reduction's partial results are combined
# across the warp by five `gpu.shuffle xor` (16, 8, 4, 2, 1), after which every lane
# holds the row's value. A lane reads back only what it wrote itself (the same elements
# in every loop), so per-row temporaries stay correct; lanes other than 0 start a
# reduction from its identity, so the initial value counts once.

def _row_loops(p):
    """The top-level scf.for ops of scf.parallel `p` when its body is row loops that
    rows_to_warps can distribute (see the note), else None."""
    body = p.regions[0].blocks[0]
    loops, ub = [], None
    for o in body.ops:
        if o.name == "scf.reduce":
            continue
        if o.name != "scf.for":
            if o.regions:
                return None
            continue
        lb, u, st = o.operands[0], o.operands[1], o.operands[2]
        if _const_int(lb) != 0 or _const_int(st) != 1 or not _defined_before(u, p):
            return None
        if ub is not None and u is not ub and \
                (_const_int(u) is None or _const_int(u) != _const_int(ub)):
            return None
        ub = u
        if len(o.results) > 1 or (o.results and _combiner(o) is None):
            return None
        loops.append(o)
    if not any(o.results for o in loops):
        return None
    n = _const_int(ub)
    if n is not None and n < WARP:
        return None
    return loops


def _combiner(loop):
    """The op combining a reduction loop's iter_arg with each element, or None."""
    body = loop.regions[0].blocks[0]
    acc = body.args[1]
    y = body.last
    if y is None or y.name != "scf.yield" or len(y.operands) != 1:
        return None
    c = y.operand(0).defining_op
    if c is None or c.parent is not body or c.name not in _COMBINERS or \
            acc not in c.operands or acc.num_uses() != 1:
        return None
    t = acc.type
    if t not in (A.f32, A.i32):
        return None
    return c


def rows_to_warps(p) -> None:
    """Give scf.parallel `p` a lane dim and distribute its row loops (see the note)."""
    loc = p.loc
    loops = _row_loops(p)
    lbs, ubs, steps = _parallel_parts(p)
    b = _B(p.parent, p, loc)
    c0, c1, cw = b.const(0), b.const(1), b.const(WARP)
    q, qbody = _new_parallel(b, lbs + [c0], ubs + [cw], steps + [c1])
    body = p.regions[0].blocks[0]
    for a, na in zip(body.args, qbody.args):
        a.replace_all_uses_with(na)
    lane = qbody.args[-1]
    for o in list(body.ops):
        if o.name == "scf.reduce":
            continue
        o.detach()
        qbody.insert_before(qbody.last, o)
    p.erase()
    for loop in loops:
        loop.set_operand(0, lane)
        loop.set_operand(2, cw)
        if loop.results:
            _warp_reduce(loop, lane, cw)


def _warp_reduce(loop, lane, cw):
    """Lanes past 0 start from the identity; the partials are combined by shuffles."""
    from ..dialects.gpu import SHUFFLE_MODE
    comb = _combiner(loop)
    t = loop.results[0].type
    loc = loop.loc
    ident = _COMBINERS[comb.name]
    attr = A.FloatAttr(ident, t) if isinstance(t, A.FloatType) else A.IntegerAttr(ident, t)
    b = _B(loop.parent, loop, loc)
    init = loop.operands[3]
    zero_lane = b.v("arith.cmpi", [lane, b.const(0)], A.i1,
                    {"predicate": A.IntegerAttr(0, A.i64)})          # eq
    idv = b.v("arith.constant", [], t, {"value": attr})
    loop.set_operand(3, b.v("arith.select", [zero_lane, init, idv], t))
    after = loop.next
    a = _B(loop.parent, after, loc)
    width = a.v("arith.constant", [], A.i32, {"value": A.IntegerAttr(WARP, A.i32)})
    r = loop.results[0]
    uses = [u for u in r.uses]
    for off in (16, 8, 4, 2, 1):
        o = a.v("arith.constant", [], A.i32, {"value": A.IntegerAttr(off, A.i32)})
        sh = a.op("gpu.shuffle", [r, o, width], [t, A.i1],
                  {"mode": SHUFFLE_MODE("xor")})
        r = a.v(comb.name, [r, sh.results[0]], t, dict(comb.properties))
    for u in uses:
        u.set(r)


# ---------------------------------------------------------------- mapping

_PROCESSORS = (("block_x", "block_y", "block_z"), ("thread_x", "thread_y", "thread_z"))


def _loop_dim_map(processor: str):
    return gpu_attr(f"#gpu.loop_dim_map<processor = {processor}, map = (d0) -> (d0), "
                    f"bound = (d0) -> (d0)>")


class GpuMapParallelLoops(Pass):
    name = "gpu-map-parallel-loops"
    summary = "Greedily maps loops to GPU hardware dimensions."
    description = ("The dims of each outermost scf.parallel map to block_x, y, z, those "
                   "of the scf.parallel ops nested in it to thread_x, y, z; the others "
                   "are sequential.")
    mapping_policy = Option(str, "outermost-first", "Policy outlining how to assign loops "
                            "to GPU dimensions.Supported values are `outermost-first` and "
                            "`innermost-first`.")

    def run(self, op):
        if self.mapping_policy not in ("outermost-first", "innermost-first"):
            raise DiagnosticError(Diagnostic(ERROR, op.loc,
                                             "Invalid mapping policy specified."))
        for p in _outermost_parallels(op):
            _map(p, 0, self.mapping_policy == "innermost-first")


def _map(p, level, innermost_first):
    if p.get_attr("mapping") is None:
        n = len(p.operands) // 3
        names = []
        for d in range(n):
            k = (min(n, 3) - 1 - d) if innermost_first else d
            names.append(_PROCESSORS[level][k] if level < 2 and d < 3 else "sequential")
        p.set_attr("mapping", A.ArrayAttr([_loop_dim_map(x) for x in names]))
    for o in p.regions[0].blocks[0].ops:
        for inner in [o] if o.name == "scf.parallel" else _outermost_parallels(o):
            _map(inner, level + 1, innermost_first)


_PROC = re.compile(r"processor\s*=\s*(\w+)")


def mapping_of(p) -> list | None:
    """The processor names of an scf.parallel's `mapping` attribute, or None."""
    m = p.get_attr("mapping")
    if m is None:
        return None
    return [(_PROC.search(str(a)) or [None, "sequential"])[1] for a in m]


# ---------------------------------------------------------------- to gpu.launch

# The launch body's block arguments (upstream's order).
LAUNCH_ARGS = ("block_id", "thread_id", "grid_dim", "block_dim")


def new_launch(b, grid, block):
    """A gpu.launch (generic form) of `grid` and `block` sizes at `b`, with its body
    block (12 index arguments, ending in gpu.terminator)."""
    seg = A.DenseArrayAttr(A.i32, [0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    launch = b.op("gpu.launch", [*grid, *block], (), {"operandSegmentSizes": seg}, 1)
    body = launch.regions[0].add_block(Block([A.index] * 12, [b.loc] * 12))
    body.append(op_class("gpu.terminator").create((), (), None, None, (), 0, b.loc))
    return launch, body


class ConvertParallelLoopsToGpu(Pass):
    name = "convert-parallel-loops-to-gpu"
    summary = "Convert mapped scf.parallel ops to gpu launch operations"

    def run(self, op):
        for p in _outermost_parallels(op):
            if mapping_of(p) is not None:
                parallel_to_launch(p)


def parallel_to_launch(p) -> None:
    """Rewrite the mapped scf.parallel nest `p` as a gpu.launch (see the module doc)."""
    loc = p.loc
    if p.results:
        _fail(p, "cannot map a parallel loop with reductions to the GPU")
    b = _B(p.parent, p, loc)
    grid, block = [None] * 3, [None] * 3
    _sizes(p, b, grid, block, 0)
    one = b.const(1)
    sizes = [g or one for g in grid] + [t or one for t in block]
    if any(_const_int(v) is not None and _const_int(v) <= 0 for v in sizes):
        p.erase()       # no iteration: nothing to launch (CUDA refuses an empty grid)
        return
    dynamic = [v for v in sizes if _const_int(v) is None]
    if dynamic:
        # CUDA refuses an empty grid: an empty loop launches nothing
        ok = None
        for v in dynamic:
            c = b.v("arith.cmpi", [v, b.const(0)], A.i1,
                    {"predicate": A.IntegerAttr(4, A.i64)})          # sgt
            ok = c if ok is None else b.v("arith.andi", [ok, c], A.i1)
        if_op = b.op("scf.if", [ok], (), None, 2)
        then = if_op.regions[0].add_block(Block([], []))
        then.append(op_class("scf.yield").create((), (), None, None, (), 0, loc))
        b = _B(then, then.last, loc)
    launch, body = new_launch(b, sizes[:3], sizes[3:])
    ids = body.args
    lb = _B(body, body.last, loc)
    _inline(p, lb, ids)


def _sizes(p, b, grid, block, level):
    """Grid and block sizes of the mapped dims of `p` and the parallel loops in it."""
    names = mapping_of(p) or ["sequential"] * (len(p.operands) // 3)
    lbs, ubs, steps = _parallel_parts(p)
    for name, lb, ub, st in zip(names, lbs, ubs, steps):
        if name == "sequential":
            continue
        kind, dim = name.split("_")
        slot = (grid if kind == "block" else block)
        k = "xyz".index(dim)
        for v in (lb, ub, st):
            if not _defined_before(v, p if level == 0 else _outermost(p)):
                _fail(p, f"the bound of a loop mapped to {name} is computed inside the "
                         "loop nest: it cannot size the launch")
        if slot[k] is not None:
            _fail(p, f"two loops mapped to {name}")
        slot[k] = _trip_count(b, lb, ub, st)[0]
    for o in p.regions[0].blocks[0].ops:
        for inner in [o] if o.name == "scf.parallel" else _outermost_parallels(o):
            _sizes(inner, b, grid, block, level + 1)


def _outermost(p):
    while True:
        q = p.parent_op
        while q is not None and q.name != "scf.parallel":
            q = q.parent_op
        if q is None:
            return p
        p = q


def _defined_before(v, p) -> bool:
    """Whether `v` is defined outside the loop nest `p` (so before the launch)."""
    op = v.defining_op
    owner = op if op is not None else v.owner.parent_op
    while owner is not None:
        if owner is p:
            return False
        owner = owner.parent_op
    return True


def _inline(p, b, ids):
    """The body of the mapped loop `p` at `b` (inside the launch), induction variables
    from the ids, sequential dims as scf.for, mapped loops inside it inlined too."""
    names = mapping_of(p) or ["sequential"] * (len(p.operands) // 3)
    lbs, ubs, steps = _parallel_parts(p)
    body = p.regions[0].blocks[0]
    block, anchor = b.block, b.anchor
    for name, a, lb, ub, st in zip(names, body.args, lbs, ubs, steps):
        if name == "sequential":
            f = _B(block, anchor, b.loc).op("scf.for", [lb, ub, st], (), None, 1)
            fb = f.regions[0].add_block(Block([A.index], [b.loc]))
            fb.append(op_class("scf.yield").create((), (), None, None, (), 0, b.loc))
            a.replace_all_uses_with(fb.args[0])
            block, anchor = fb, fb.last
            continue
        kind, dim = name.split("_")
        k = "xyz".index(dim)
        idv = ids[k] if kind == "block" else ids[3 + k]
        bb = _B(block, anchor, b.loc)
        iv = idv if _const_int(st) == 1 else bb.mul(idv, st)
        iv = iv if _const_int(lb) == 0 else bb.add(iv, lb)
        a.replace_all_uses_with(iv)
    for o in list(body.ops):
        if o.name == "scf.reduce":
            if o.operands:
                _fail(p, "cannot map a parallel loop with reductions to the GPU")
            continue
        o.detach()
        block.insert_before(anchor, o)
        if o.name == "scf.parallel" and mapping_of(o) is not None:
            _inline(o, _B(block, o, o.loc), ids)
        elif o.regions:
            for inner in _outermost_parallels(o):
                if mapping_of(inner) is not None:
                    _inline(inner, _B(inner.parent, inner, inner.loc), ids)
    p.erase()


# ---------------------------------------------------------------- the rest: one thread

# Ops a host function keeps (what the launch plan runs, backends/cuda/plan.py).
HOST_OPS = frozenset({
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.divsi",
    "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui",
    "arith.floordivsi", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
    "arith.andi", "arith.ori", "arith.xori", "arith.index_cast", "arith.index_castui",
    "arith.extsi", "arith.extui", "arith.trunci", "arith.select", "arith.cmpi",
    "memref.alloc", "memref.alloca", "memref.dealloc", "memref.get_global",
    "memref.expand_shape", "memref.collapse_shape", "memref.cast",
    "memref.reinterpret_cast", "memref.subview", "memref.dim", "memref.copy",
    "memref.load",   # (a read of device memory by the host: sizes, shape tensors)
    "memref.reshape",   # (a view whose sizes the host reads from device memory)
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf",
    "arith.maximumf", "arith.minimumf", "arith.extf", "arith.truncf", "arith.sitofp",
    "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.cmpf", "math.floor",
    "math.ceil", "math.round", "math.roundeven", "math.trunc", "math.absf", "math.sqrt",
    "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10",
    "math.log1p", "math.powf",
    "cf.assert", "gpu.launch", "gpu.launch_func", "func.return",
    # (mapped to blocks and threads by the passes after this one)
    "scf.parallel"})


class GpuLaunchSequential(Pass):
    name = "strata-gpu-launch-sequential"
    summary = "Run what a host function cannot (loops, loads, stores) as one-thread launches"

    def run(self, op):
        for f in op.walk():
            if f.name == "func.func" and f.regions[0].blocks:
                for blk in f.regions[0].blocks:
                    _wrap_runs(blk)


def _is_device_op(o) -> bool:
    """Whether the host cannot run `o`: an op outside HOST_OPS, or scf.if / scf.for
    holding one (the host runs scalar control flow: clamping a size, a loop over dims,
    a choice of buffers; the parallel loops inside become launches)."""
    if o.name in ("scf.if", "scf.for"):
        # (parallel loops inside become launches from the host's control flow)
        return any(_is_device_op(x) for r in o.regions for blk in r.blocks
                   for x in blk.ops if x.name != "scf.yield")
    return o.name not in HOST_OPS


def _runs(blk):
    """The runs of consecutive ops of `blk` the host cannot run (constants just before a
    device op join its run); an scf.if whose branches' runs can be launched in place
    (_host_if) is the host's."""
    ops = list(blk.ops)

    def device(o):
        return o.name != "scf.yield" and _is_device_op(o) and \
            not (o.name == "scf.if" and _host_if(o))
    runs, i = [], 0
    while i < len(ops):
        if not device(ops[i]):
            i += 1
            continue
        j = i
        while j < len(ops) and (device(ops[j]) or
                                (ops[j].name == "arith.constant" and j + 1 < len(ops) and
                                 device(ops[j + 1]))):
            j += 1
        runs.append(ops[i:j])
        i = j
    return runs


def _escaping(run):
    """The first op of `run` whose result is used after it (by the host), or None."""
    inside = set(run)
    for o in run:
        for r in o.results:
            for u in r.users:
                if not any(u is x or x.is_ancestor(u) for x in inside):
                    return o
    return None


def _host_if(o) -> bool:
    """Whether scf.if `o` can stay on the host, what its branches cannot run launched in
    place (a check computed in device memory, then read back)."""
    return all(_escaping(run) is None
               for r in o.regions for blk in r.blocks for run in _runs(blk))


def _wrap_runs(blk):
    for run in _runs(blk):
        bad = _escaping(run)
        if bad is not None:
            _fail(bad, f"'{bad.name}' computes a value the host needs, on the device "
                       "(the cuda target's host code cannot read device memory)")
    for o in list(blk.ops):
        if o.name == "scf.if" and _is_device_op(o) and _host_if(o):
            for r in o.regions:
                for b in r.blocks:
                    _wrap_runs(b)
    for run in _runs(blk):
        b = _B(blk, run[0], run[0].loc)
        one = b.const(1)
        launch, body = new_launch(b, [one] * 3, [one] * 3)
        for o in run:
            o.detach()
            body.insert_before(body.last, o)


from ..passes.registry import register_pass  # noqa: E402

for _p in (RowsToWarps, LinearizeParallelLoops, GpuMapParallelLoops,
           ConvertParallelLoopsToGpu, GpuLaunchSequential):
    register_pass(_p)
