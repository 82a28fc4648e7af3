"""`convert-scf-to-strata-cpu`: scf.parallel loops at the top level of a function become
`strata_cpu.parallel_for` of an outlined chunk function, which the CPU runtime's thread
pool runs over several cores (see strata/dialects/strata_cpu.py).

    func.func private @f__nest0(%a: memref<?x128x384xf32>, %b: ..., %n: index) {
      scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c128, %c384) step (...) {
        ... memref.store %v, %b[%i, %j, %k] ...
=>
    func.func private @f__nest0(...) {
      %count = arith.muli %n, %c128 : index
      strata_cpu.parallel_for @f__nest0__chunk0(%a, %b, %n) count(%count) grain(%c2) : (...)
    }
    func.func private @f__nest0__chunk0(%a: ..., %b: ..., %n: index, %lo: index,
                                       %hi: index) attributes {strata.outlined} {
      scf.for %f = %lo to %hi step %c1 {
        %j = arith.remui %f, %c128 : index        // the collapsed (i, j) of flat index f
        %i = arith.divui %f, %c128 : index
        scf.parallel (%k) = (%c0) to (%c384) step (%c1) { ... }   // the rest, as it was

It runs after strata-outline-loop-nests (each loop nest in a function of its own) and
before convert-scf-to-cf; convert-strata-cpu-to-llvm lowers the op.

[Note: what is split, and when]
- The loops split among threads are the leading dimensions of the scf.parallel,
  collapsed into one flat range while their known trip count stays below
  COLLAPSE_BELOW (a dynamic dimension, often a batch of 1, is always collapsed with the
  next one); the innermost loop of the nest is never collapsed (it is the one LLVM
  vectorizes). Dimensions with a static trip count of 1 take no part.
- Cost model: the work of one flat iteration is the number of ops of the loop body
  times the trip counts of the loops inside it (a dynamic trip count counts as
  DYNAMIC_TRIPS; math functions and divisions weigh more). Chunks get at least
  `min-chunk-work` of it (the `grain`); a loop with less than two chunks of work stays
  as it was when that is known at compile time, else the runtime runs it on one thread.
  Loops inside the chunk keep their order and kind: reductions stay sequential within a
  chunk.
- Legality (conservative): the body may only load, store, allocate, and compute; every
  store to a buffer from outside the loop has each split induction variable as one of
  its indices, always at the same position for a buffer, as have the loads from buffers
  the loop stores into. So two iterations never touch the same element of a buffer
  written by the loop (a linalg "parallel" dimension the output does not index, which
  upstream's lowering also makes parallel, stays sequential here). Run-time checks
  (cf.assert) keep a loop sequential: the runtime reports their failures per thread.

[Note: stack buffers]
scf.parallel is an automatic allocation scope: a memref.alloca in its body lives for one
iteration (strata-linalg-fuse-row-reductions puts the buffers of a row there). Lowered
as it is, each iteration would grow the stack. The static ones at the top of the body
are allocated once instead: in the chunk function's entry block (one per chunk, hence
per thread), or before a loop that stays as it was (it is at the top of its function).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.builder import Builder
from ..ir.core import Block
from ..passes.pass_manager import Option, Pass
from ..rewrite.folding import constant_value

__all__ = ["ConvertScfToStrataCpu", "parallelize_loops", "COLLAPSE_BELOW", "DYNAMIC_TRIPS",
           "MIN_CHUNK_WORK"]

MIN_CHUNK_WORK = 1 << 15
COLLAPSE_BELOW = 64
DYNAMIC_TRIPS = 16
# Ops weighing more than one in the cost model.
_WEIGHTS = {"arith.divf": 4, "arith.remf": 8, "arith.divsi": 4, "arith.divui": 4,
            "arith.remsi": 4, "arith.remui": 4, "math.sqrt": 4, "math.rsqrt": 4}
_MATH_WEIGHT = 12
_LOOPS = ("scf.for", "scf.parallel", "scf.while")
_MEMORY_OK = ("memref.alloca", "memref.alloc", "memref.dealloc", "memref.load")
_STRUCTURE = ("scf.for", "scf.parallel", "scf.while", "scf.if", "scf.index_switch",
              "scf.execute_region", "scf.yield", "scf.reduce", "scf.reduce.return",
              "scf.condition", "memref.alloca_scope", "memref.alloca_scope.return")


def _const(v):
    """The integer an index constant holds, or None."""
    a = constant_value(v)
    return a.value if type(a) is A.IntegerAttr else None


def _is_constant_op(op) -> bool:
    return T.ConstantLike in type(op).traits and not op.regions


def _trips(lb, ub, step):
    lo, hi, st = _const(lb), _const(ub), _const(step)
    if lo is None or hi is None or st is None or st <= 0:
        return None
    return max(0, -(-(hi - lo) // st))


def _work(block) -> int:
    """Estimated ops one execution of `block` runs (see [Note: what is split])."""
    total = 0
    for op in block.ops:
        name = op.name
        if name == "scf.for":
            trips = _trips(*op.operands[:3])
            total += 2 + (DYNAMIC_TRIPS if trips is None else trips) * _work(op.regions[0]
                                                                             .blocks[0])
        elif name == "scf.parallel":
            n = len(op.regions[0].blocks[0].args)
            trips = 1
            for lb, ub, st in zip(op.operands[:n], op.operands[n:2 * n],
                                  op.operands[2 * n:3 * n]):
                t = _trips(lb, ub, st)
                trips *= DYNAMIC_TRIPS if t is None else t
            total += 2 + trips * _work(op.regions[0].blocks[0])
        elif name == "scf.while":
            total += DYNAMIC_TRIPS * sum(_work(r.blocks[0]) for r in op.regions if r.blocks)
        elif op.regions:
            total += 1 + max((_work(b) for r in op.regions for b in r.blocks), default=0)
        elif name.startswith("math."):
            total += _MATH_WEIGHT
        else:
            total += _WEIGHTS.get(name, 1)
    return total


def _has_loop(block) -> bool:
    return any(op.name in _LOOPS or (op.regions and any(
        _has_loop(b) for r in op.regions for b in r.blocks)) for op in block.ops)


def _effect_free(op) -> bool:
    traits = type(op).traits
    if T.Pure in traits or T.NoMemoryEffect in traits or T.ConstantLike in traits:
        return True
    me = T.find_trait(op, T.MemoryEffects)
    return me is not None and all(e == T.MemAlloc or e == T.MemRead for e in me.effects)


def _legal(loop, ivs) -> bool:
    """Whether the iterations of `loop` over the induction variables `ivs` are
    independent (see [Note: what is split], legality)."""
    inside = set()
    stores, loads = [], []
    for op in loop.walk():
        if op is loop:
            continue
        inside.update(op.results)
        for r in op.regions:
            for b in r.blocks:
                inside.update(b.args)
        name = op.name
        if name == "memref.store":
            stores.append(op)
        elif name == "memref.load":
            loads.append(op)
        elif name in _STRUCTURE or name in _MEMORY_OK or _effect_free(op):
            continue
        else:
            return False   # calls, copies, asserts, unknown effects
    where = {}             # buffer -> position of each iv in its indices
    for st in stores:
        buf = st.operands[1]
        if buf in inside:
            if buf.defining_op is None or buf.defining_op.name not in (
                    "memref.alloca", "memref.alloc"):
                return False    # a view made inside the loop: no index to check
            continue
        pos = _positions(st.operands[2:], ivs)
        if pos is None or where.setdefault(buf, pos) != pos:
            return False
    for ld in loads:
        buf = ld.operands[0]
        if buf in where and _positions(ld.operands[1:], ivs) != where[buf]:
            return False
    return True


def _positions(indices, ivs):
    """The position of each of `ivs` among `indices` (as a tuple), or None if one is
    missing."""
    out = []
    for iv in ivs:
        for i, x in enumerate(indices):
            if x is iv:
                out.append(i)
                break
        else:
            return None
    return tuple(out)


class _Emit:
    """Index arithmetic at a builder's insertion point, folding known constants."""

    __slots__ = ("b", "consts")

    def __init__(self, builder):
        self.b = builder
        self.consts = {}
        ip = builder.ip      # index constants already in the block before the point
        for op in ip.block.ops:
            if op is ip.before:
                break
            if op.name == "arith.constant" and op.results[0].type is A.index:
                self.consts.setdefault(op.properties["value"].value, op.results[0])

    def op(self, name, operands, props=None):
        from .scalar_builders import op_class
        o = op_class(name).create(list(operands), [A.index], props, None, (), 0, self.b.loc)
        return self.b.insert(o).results[0]

    def const(self, n: int):
        v = self.consts.get(n)
        if v is None:
            v = self.consts[n] = self.op("arith.constant", [], {
                "value": A.IntegerAttr(n, A.index)})
        return v

    def binary(self, name, x, y, fold):
        cx, cy = _const(x), _const(y)
        if cx is not None and cy is not None:
            return self.const(fold(cx, cy))
        return self.op(name, [x, y])

    def mul(self, x, y):
        if _const(x) == 1:
            return y
        if _const(y) == 1:
            return x
        return self.binary("arith.muli", x, y, lambda a, b: a * b)

    def add(self, x, y):
        if _const(y) == 0:
            return x
        if _const(x) == 0:
            return y
        return self.binary("arith.addi", x, y, lambda a, b: a + b)

    def trips(self, lb, ub, step):
        """max(ceildiv(ub - lb, step), 0)."""
        t = _trips(lb, ub, step)
        if t is not None:
            return self.const(t)
        span = ub if _const(lb) == 0 else self.op("arith.subi", [ub, lb])
        if _const(step) != 1:
            span = self.op("arith.ceildivsi", [span, step])
        return self.op("arith.maxsi", [span, self.const(0)])


def _uses(loop, body, k, split, lbs, ubs, steps) -> list:
    """The values from outside `loop` its chunk function needs, in first-use order: the
    bounds it uses (not the outermost split dimension's upper bound: the flat range
    stands for it), then those of the body."""
    from ..transforms.outline_loop_nests import _captured
    n = len(lbs)
    wanted = [lbs[d] for d in range(k)]
    for d in split:
        wanted.append(steps[d])
        if d != split[0]:
            wanted.append(ubs[d])
    for d in range(k, n):
        wanted += [lbs[d], ubs[d], steps[d]]
    inside = set(body.args)
    for op in body.ops:
        inside.update(op.results)
        wanted.extend(_captured(op))
    seen, out = set(), []
    for v in wanted:
        if v not in inside and v not in seen:
            seen.add(v)
            out.append(v)
    return out


def _split_dims(loop, lbs, ubs, steps) -> int:
    """How many leading dimensions to collapse and split (see the note)."""
    n = len(lbs)
    body = loop.regions[0].blocks[0]
    limit = n if _has_loop(body) else max(n - 1, 1)
    k, prod = 0, 1
    while k < limit:
        t = _trips(lbs[k], ubs[k], steps[k])
        prod *= 1 if t is None else t
        k += 1
        if t is not None and prod >= COLLAPSE_BELOW:
            break
    return k


def _parallelize(loop, name: str, min_work: int):
    """Replace `loop` (an scf.parallel at the top of a function) by a parallel_for of a
    new chunk function `name`, returned (to be inserted in the module); None when the
    loop stays as it is."""
    from ..dialects.func import FuncOp, ReturnOp
    from ..dialects.scf import ForOp, ParallelOp, ReduceOp
    from ..dialects.strata_cpu import ParallelForOp
    from ..transforms.outline_loop_nests import OUTLINED_ATTR, _is_constant
    if loop.results or loop.regions[0].blocks[0].last.operands:
        return None
    n = len(loop.regions[0].blocks[0].args)
    lbs, ubs, steps = (list(loop.operands[i * n:(i + 1) * n]) for i in range(3))
    body = loop.regions[0].blocks[0]
    k = _split_dims(loop, lbs, ubs, steps)
    trips = [_trips(lbs[d], ubs[d], steps[d]) for d in range(n)]
    split = [d for d in range(k) if trips[d] != 1]
    if not split or not _legal(loop, [body.args[d] for d in split]):
        return None
    # cost model
    per_iter = _work(body)
    for d in range(k, n):
        per_iter *= DYNAMIC_TRIPS if trips[d] is None else trips[d]
    per_iter = max(per_iter, 1)
    grain = max(1, -(-min_work // per_iter))
    static = [trips[d] for d in split]
    if None not in static:
        count = 1
        for t in static:
            count *= t
        if count < 2 * grain:
            return None
    # the chunk function: captured values (but constants) as arguments, then lo, hi
    captured = _uses(loop, body, k, split, lbs, ubs, steps)
    args = [v for v in captured if not _is_constant(v)]
    ftype = A.FunctionType([v.type for v in args] + [A.index, A.index], [])
    chunk = FuncOp.new(name, ftype, visibility="private", loc=loop.loc)
    chunk.set_attr(OUTLINED_ATTR, A.UnitAttr())
    # (it may run on a pool worker: see [Note: checked allocations] in to_llvm/memref.py)
    chunk.set_attr("strata.parallel_chunk", A.UnitAttr())
    entry = chunk.regions[0].blocks[0]
    mapping = dict(zip(args, entry.args))
    for v in captured:
        if _is_constant(v):
            mapping[v] = entry.append(v.defining_op.clone()).results[v.index]
    lo, hi = entry.args[-2], entry.args[-1]
    b = Builder.at_end(entry, loop.loc)
    # stack buffers of an iteration: one per chunk (see [Note: stack buffers])
    hoisted = _static_allocas(body)
    for op in hoisted:
        mapping[op.results[0]] = b.insert(op.clone(mapping)).results[0]
    em = _Emit(b)
    m = [mapping.get(v, v) for v in loop.operands[:3 * n]]
    c_lbs, c_ubs, c_steps = m[:n], m[n:2 * n], m[2 * n:]
    sizes = {d: em.trips(c_lbs[d], c_ubs[d], c_steps[d]) for d in split[1:]}
    flat = b.insert(ForOp.new(lo, hi, em.const(1), loc=loop.loc))
    fb = Builder.before(flat.body.last, loop.loc)
    fem = _Emit(fb)
    # flat index -> the split dimensions' induction variables, innermost first
    rest = flat.induction_var
    ivs = {d: c_lbs[d] for d in range(k)}     # single iterations: the lower bound
    for d in reversed(split):
        idx = rest
        if d != split[0]:
            idx = fem.op("arith.remui", [rest, sizes[d]])
            rest = fem.op("arith.divui", [rest, sizes[d]])
        ivs[d] = fem.add(c_lbs[d], fem.mul(idx, c_steps[d]))
    for d in range(k):
        mapping[body.args[d]] = ivs[d]
    if k < n:                   # the other dimensions stay an scf.parallel
        segments = A.DenseArrayAttr(A.i32, [n - k] * 3 + [0])
        inner = ParallelOp.create([*c_lbs[k:], *c_ubs[k:], *c_steps[k:]], (),
                                  {"operandSegmentSizes": segments}, None, (), 1, loop.loc)
        ib = inner.regions[0].add_block(Block([A.index] * (n - k), [loop.loc] * (n - k)))
        for d in range(k, n):
            mapping[body.args[d]] = ib.args[d - k]
        for op in body.ops:
            if op is not body.last and op not in hoisted:
                ib.append(op.clone(mapping))
        ib.append(ReduceOp.create((), (), None, None, (), 0, loop.loc))
        fb.insert(inner)
    else:
        for op in body.ops:
            if op is not body.last and op not in hoisted:
                fb.insert(op.clone(mapping))
    b.insert(ReturnOp.build(loc=loop.loc, operands_=[]))
    for op in list(entry.ops):      # constants cloned for bounds the chunk does not use
        if _is_constant_op(op) and all(r.first_use is None for r in op.results):
            op.erase()
    # the dispatch, where the loop was
    db = Builder.before(loop, loop.loc)
    dem = _Emit(db)
    count = dem.const(1)
    for d in split:
        count = dem.mul(count, dem.trips(lbs[d], ubs[d], steps[d]))
    db.insert(ParallelForOp.new(name, args, count, dem.const(grain), loop.loc))
    loop.erase()
    return chunk


def _static_allocas(body) -> list:
    """The memref.alloca ops of static shape at the top of a parallel loop's body."""
    return [op for op in body.ops if op.name == "memref.alloca" and not op.operands]


def _hoist_allocas(loop) -> None:
    """Move the static stack buffers of `loop`'s iterations before it (see [Note: stack
    buffers])."""
    for op in _static_allocas(loop.regions[0].blocks[0]):
        op.parent._unlink(op)
        loop.parent.insert_before(loop, op)


def parallelize_loops(module, min_chunk_work: int = MIN_CHUNK_WORK) -> int:
    """Turn the scf.parallel loops at the top level of the functions of `module` into
    strata_cpu.parallel_for (see the module doc); returns how many."""
    from ..ir.symbol_table import symbol_name
    count = 0
    body = module.regions[0].blocks[0]
    for func in list(body.ops):
        if func.name != "func.func" or not func.regions[0].blocks:
            continue
        fname = symbol_name(func)
        anchor, j = func, 0
        for block in func.regions[0].blocks:
            for op in list(block.ops):
                if op.name != "scf.parallel":
                    continue
                chunk = _parallelize(op, f"{fname}__chunk{j}", min_chunk_work)
                if chunk is None:
                    _hoist_allocas(op)
                else:
                    body.insert_after(anchor, chunk)
                    anchor, j = chunk, j + 1
        count += j
    return count


class ConvertScfToStrataCpu(Pass):
    name = "convert-scf-to-strata-cpu"
    summary = ("Run scf.parallel loops at the top of functions on the CPU thread pool "
               "(strata_cpu.parallel_for of an outlined chunk function)")
    anchor = "builtin.module"
    min_chunk_work = Option(int, MIN_CHUNK_WORK, "Least estimated work (body ops x "
                            "iterations) of one chunk; less than two chunks stays serial")

    def run(self, op):
        parallelize_loops(op, self.min_chunk_work)


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(ConvertScfToStrataCpu.name) is None:
        register_pass(ConvertScfToStrataCpu)


_register()
