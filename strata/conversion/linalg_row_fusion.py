"""`strata-linalg-fuse-row-reductions`: a chain of linalg ops on buffers that share their
leading parallel loops (the "rows") becomes one parallel loop over the rows, each op
applied to the row in turn, the intermediate buffers only the chain uses shrunk to one
row (a stack buffer, or a scalar kept in registers), and the steps of a row that run over
the same elements computed in one loop.

Softmax over the last dim, as ONNX lowers it (max, exp of the difference, sum, division;
the reduced values in [12, 128] buffers, the exponentials in a [12, 128, 128] one):

    linalg.fill ins(%ninf) outs(%max)                      // [12, 128, 1] views
    linalg.generic {reduction over d3} ins(%x) outs(%max) { maximumf }
    linalg.generic ins(%x, %max) outs(%e) { subf; exp }    // %e: memref<12x128x128xf32>
    linalg.fill ins(%zero) outs(%sum)
    linalg.generic {reduction over d3} ins(%e) outs(%sum) { addf }
    linalg.generic ins(%e, %sum) outs(%y) { divf }
=>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c12, %c128) step (%c1, %c1) {
      %e = memref.alloca() {alignment = 64 : i64} : memref<128xf32>   // one row
      %m = scf.for %k = %c0 to %c128 step %c1 iter_args(%a = %ninf) -> (f32) {
        %v = memref.load %x[%i, %j, %k] ... %n = arith.maximumf %a, %v ... scf.yield %n
      }
      %s = scf.for %k = ... iter_args(%a = %zero) -> (f32) {   // exp and sum: one loop
        ... math.exp ... memref.store %ex, %e[%k] ... %n = arith.addf %a, %ex ...
      }
      scf.for %k = ... { ... memref.load %e[%k] ... arith.divf ... memref.store ... %y[%i, %j, %k] }
      scf.reduce
    }

[Note: what a group is]
Ops are taken in program order within a block: linalg structured ops on buffers whose
payload only computes (no loads, calls or asserts). Between them may lie ops that neither
read nor write memory (allocations, views, memref.dim, scalar arithmetic) and
deallocations (moved after the fused loop); anything else ends the group. Loops of size 1
are dropped (their index is 0). The rows of a group are the first k remaining loops of
every op, all parallel. Where two ops of the group touch one buffer and one of them
writes it, both must index its leading k dims by the rows, in order (past the buffer's
leading size-1 dims, which every access reads at 0: a batch of one, as a [1, C] pool sum
whose rows are its C channels; through expand_shape / collapse_shape / cast views whose
reshaping only adds or drops size-1 dims), and its other dims by the other loops only: then every row reads what earlier ops
wrote to that same row, and the rows are independent; every write of the group is so
indexed. A buffer the ops read and nobody in the group writes may be indexed in any way.
The group is split into its connected parts (ops linked by a buffer indexed by rows);
each part with at least two ops, one intermediate buffer to shrink and one op with loops
inside the row becomes one loop nest, placed where its last op was.

[Note: inside a row]
Fills move to the start of the row (of buffers no earlier op of the part touches). The
ops then form stages, each one loop nest over the row's elements: an op joins the stage
before it when it has the same loops and, for every buffer both touch with a write, both
index the same element at each iteration and that element is written at one iteration
only (so an elementwise producer and the reduction that reads it share a loop; a
reduction's result is read by the next stage). Within an iteration a value stored or
loaded is reused by the later reads of the same element.
An intermediate (an allocation only the part's ops, views and deallocation use, indexed
by the rows) becomes
- an SSA value when a row of it is one element: reductions into it accumulate in
  loop-carried values (registers);
- nothing when every read of it follows a write in the same stage (the value is at hand,
  whatever its size);
- else a buffer of one row (static shape, at most MAX_ROW_BYTES in all, else it stays
  whole) allocated at the top of the parallel loop's body: convert-scf-to-strata-cpu
  hoists it into the chunk function, so each thread has its own, allocated once.
Payload ops whose operands do not vary in a stage's loops are emitted before them.

[Note: reassociated reductions]
LLVM vectorizes a floating-point reduction only when its combining op may be
reassociated. With `reassociate` (the default), the combining op of each float reduction
(addf, mulf, maximumf, minimumf, maxnumf, minnumf of the accumulator and a value) gets
fastmath<reassoc>: sums are then taken in vector lanes and added up at the end (as
onnxruntime does), which changes their rounding, not their meaning; min and max are exact
in any order.

[Note: dividing by a row's square root]
A payload `arith.divf %x, %d` whose divisor is the same for the whole row and is a
`math.sqrt` (layer, group, instance and RMS norms divide each element by the row's
standard deviation) becomes `arith.mulf %x, %r` with `%r = 1 / %d` computed once per
row: a division per element is several times a multiplication's cost, and the stable
variance (see [Note: stable variance] in strata/frontends/onnx/decompose.py) costs a
third pass over the row that this pays for. The product differs from the quotient by at
most an ulp or so, and only there: the reciprocal of a square root is never subnormal
nor infinite for a finite positive root (sqrt of the smallest float is 3.7e-23, of the
largest 1.8e19), and 0, inf and NaN roots give the quotient's results (x * inf for
x / 0, x * 0 for x / inf, NaN). Other divisors are left alone: 1 / d may overflow where
x / d does not. Softmax's division by its sum (at least 1) is left alone too.

Runs on buffers, after bufferization and the micro-kernel pass and before
strata-outline-linalg-ops, in the CPU target's pipeline. With `parallel=false` the rows
are an scf.for nest and the row buffers are allocated once before it.
"""
from __future__ import annotations

import math

from ..dialects.linalg.structured import StructuredOp
from ..ir import attributes as A
from ..ir import traits as T
from ..ir.affine import DIM, AffineConstantExpr, AffineDimExpr
from ..ir.builder import InsertionPoint
from ..passes.pass_manager import Option, Pass, Statistic
from ..rewrite.pattern import PatternRewriter
from .linalg_to_loops import _Emitter

__all__ = ["LinalgFuseRowReductions", "fuse_row_reductions", "MAX_ROW_BYTES"]

# Most bytes of row buffers (per thread) one fused loop allocates on the stack; larger
# intermediates stay whole buffers.
MAX_ROW_BYTES = 32 * 1024

_VIEWS = ("memref.expand_shape", "memref.collapse_shape", "memref.cast", "memref.subview",
          "memref.reinterpret_cast", "memref.transpose", "memref.view",
          "memref.memory_space_cast", "memref.assume_alignment")
_ALLOCS = ("memref.alloc", "memref.alloca")
_ZERO = AffineConstantExpr(0)


def _uses_any(e, dims) -> bool:
    return any(x.kind == DIM and x.position in dims for x in e.walk())


def _pure(op) -> bool:
    traits = type(op).traits
    return (T.Pure in traits or T.NoMemoryEffect in traits or T.ConstantLike in traits) \
        and not op.regions


def _neutral(op) -> bool:
    """Ops a group may span: no memory read or write (allocations, views, sizes,
    scalars); deallocations are moved after the fused loop."""
    n = op.name
    return n in _ALLOCS or n in _VIEWS or n == "memref.dim" or n == "memref.dealloc" or \
        n == "memref.get_global" or _pure(op)


def _candidate(op) -> bool:
    if not isinstance(op, StructuredOp) or op.results or not op.regions:
        return False
    for t in op.operand_types:
        if isinstance(t, A.ShapedType) and type(t) is not A.MemRefType:
            return False
    body = op.regions[0].blocks[0] if op.regions[0].blocks else None
    if body is None:
        return False
    for inner in body.ops:
        if inner is body.last:
            break
        if inner.name != "linalg.index" and not _pure(inner):
            return False
    return True


# ---------------------------------------------------------------------- analysis


class _Access:
    __slots__ = ("index", "value", "exprs", "root", "base", "write", "read")

    def __init__(self, index, value, exprs, root, base, write, read):
        self.index = index      # operand number
        self.value = value      # the memref the op names
        self.exprs = exprs      # its indices, affine in the op's loops (size-1 loops: 0)
        self.root = root        # the allocation / argument / global the view comes from
        self.base = base        # the indices in the root's dims past its leading size-1
                                # ones (_past_unit_dims), or None if unknown
        self.write = write
        self.read = read


class _Info:
    """One op: its remaining loops, kinds, sizes and memory accesses."""

    __slots__ = ("op", "loops", "kinds", "sizes", "accesses", "kmax", "inner", "canon")

    def __init__(self, op):
        self.op = op
        n = op.num_loops
        kinds = op.iterator_types_list()
        sizes = _loop_sizes(op)
        unit = {d for d in range(n) if sizes[d] == 1}
        self.loops = [d for d in range(n) if d not in unit]
        self.kinds = kinds
        self.sizes = sizes
        subst = [_ZERO if d in unit else AffineDimExpr(d) for d in range(n)]
        maps = op.indexing_maps_list()
        n_in = op.num_dps_inputs()
        body = op.regions[0].blocks[0]
        self.accesses = []
        for i, v in enumerate(op.operands):
            if not isinstance(v.type, A.ShapedType):
                continue
            exprs = [r.replace_dims_and_symbols(subst) for r in maps[i].results]
            write = i >= n_in
            read = not write or body.args[i].first_use is not None
            root, base = _resolve(v, exprs)
            base = _past_unit_dims(root, base)
            self.accesses.append(_Access(i, v, exprs, root, base, write, read))
        k = 0
        while k < len(self.loops) and kinds[self.loops[k]] == "parallel":
            k += 1
        # every write indexes the rows (then it does with fewer rows too)
        while k and not all(self.rows_ok(a, k) for a in self.accesses if a.write):
            k -= 1
        self.kmax = k
        self.inner = None
        self.canon = None

    def rows_ok(self, acc, k) -> bool:
        """`acc` indexes its root's leading k dims by this op's first k loops, in order,
        and its other dims without them."""
        base = acc.base
        if base is None or len(base) < k:
            return False
        rows = self.loops[:k]
        for j in range(k):
            e = base[j]
            if e.kind != DIM or e.position != rows[j]:
                return False
        rs = set(rows)
        return not any(_uses_any(e, rs) for e in base[k:])


def _loop_sizes(op):
    """Each loop's size: an int, or (memref, dim) of the first operand dim giving it."""
    m = op.loops_to_shapes_map()
    flat = []
    for v in op.operands:
        t = v.type
        if isinstance(t, A.ShapedType) and t.has_rank:
            flat.extend((v, i) for i in range(len(t.shape)))
    sizes = [None] * m.num_dims
    for i, r in enumerate(m.results):
        if r.kind == DIM and sizes[r.position] is None:
            v, j = flat[i]
            s = v.type.shape[j]
            sizes[r.position] = s if s != A.DYNAMIC else (v, j)
    for d, s in enumerate(sizes):
        if s is None:
            sizes[d] = 0    # no operand gives it (invalid op): never equal to a row size
    return sizes


def _resolve(v, exprs):
    """(root, indices in the root's dims or None) of `v` indexed by `exprs`."""
    while True:
        d = v.defining_op
        if d is None:
            return v, exprs
        name = d.name
        if name == "memref.expand_shape":
            if exprs is not None:
                exprs = _expanded_to_source(d, exprs)
            v = d.operand(0)
        elif name == "memref.collapse_shape":
            if exprs is not None:
                exprs = _collapsed_to_source(d, exprs)
            v = d.operand(0)
        elif name == "memref.cast":
            v = d.operand(0)
        elif name in _VIEWS:
            exprs = None
            v = d.operand(0)
        else:
            return v, exprs


def _unit_lead(root) -> int:
    """How many leading size-1 dims `root` has when at most two dims follow them (a
    [1, C] pool sum, a [1, S, C] softmax); else 0. Past a batch of one with more dims
    after it (ConvNeXt's [1, H, W, C] layer norms, whose rows would be the H image rows)
    the fused loops ran 1.5x slower than the ops apart, so those keep the batch dim as
    the rows' first."""
    shape = root.type.shape
    lead = 0
    while lead < len(shape) - 1 and shape[lead] == 1:
        lead += 1
    return lead if len(shape) - lead <= 2 else 0


def _past_unit_dims(root, base):
    """`base` without the root's leading size-1 dims, which it indexes by 0 (ONNX's batch
    of one: a [1, C] pool sum's rows are its C), or None when it indexes them otherwise
    (see [Note: what a group is])."""
    lead = _unit_lead(root)
    if base is None or not lead:
        return base
    if any(type(e) is not AffineConstantExpr or e.value != 0 for e in base[:lead]):
        return None
    return base[lead:]


def _row_shape(root, k):
    """The shape of one row of `root`: its dims after its leading size-1 ones and k rows."""
    return list(root.type.shape[_unit_lead(root) + k:])


def _expanded_to_source(op, exprs):
    shape = op.results[0].type.shape
    out = []
    for g in op.reassociation_indices:
        e = _ZERO
        stride = 1
        for j in reversed(g):
            if stride is None:
                return None
            e = e + exprs[j] * stride
            s = shape[j]
            stride = None if s == A.DYNAMIC else stride * s
        out.append(e)
    return out


def _collapsed_to_source(op, exprs):
    shape = op.operand(0).type.shape
    if not op.reassociation_indices:
        # collapsed to rank 0: every source dim has size 1, read at 0
        return [_ZERO] * len(shape)
    out = []
    for e, g in zip(exprs, op.reassociation_indices):
        big = [j for j in g if shape[j] != 1]
        if len(big) > 1:
            return None
        out.extend(e if j in big or (not big and j == g[-1]) else _ZERO for j in g)
    return out


def _is_alloc(v) -> bool:
    d = v.defining_op
    return d is not None and d.name in _ALLOCS


# ---------------------------------------------------------------------- groups


class _Group:
    """Ops taken so far (see [Note: what a group is])."""

    __slots__ = ("infos", "k", "by_root", "span", "inside")

    def __init__(self, info):
        self.infos = [info]
        self.k = info.kmax
        self.by_root = {}
        self.span = []      # the ops between (and after) the group's ops
        self.inside = 0     # how many of them lie before its last op
        self._index(info)

    def _index(self, info):
        for acc in info.accesses:
            self.by_root.setdefault(acc.root, []).append((info, acc))

    def try_add(self, info) -> bool:
        k = min(self.k, info.kmax)
        if k < 1:
            return False
        for acc in info.accesses:
            for root, lst in self.by_root.items():
                if root is not acc.root and (_is_alloc(root) or _is_alloc(acc.root)):
                    continue        # distinct allocations never alias
                for other, oacc in lst:
                    if not (acc.write or oacc.write):
                        continue
                    if root is not acc.root:
                        return False    # arguments or globals that may alias
                    if not (info.rows_ok(acc, k) and other.rows_ok(oacc, k)):
                        return False
        # what was checked at the old k holds at k (its rows are a prefix of them)
        self.k = k
        self.infos.append(info)
        self.inside = len(self.span)
        self._index(info)
        return True


def _parts(group):
    """The group's connected parts with two ops or more, in program order."""
    return [p for p in _components(group.infos, group.k) if len(p) > 1]


def _components(infos, k):
    """`infos` split into the sets linked by a root that both index by k rows (their
    rows then have the same sizes), in program order."""
    parent = list(range(len(infos)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    by_root = {}
    for i, info in enumerate(infos):
        for a in info.accesses:
            if info.rows_ok(a, k):
                by_root.setdefault(a.root, []).append(i)
    for linked in by_root.values():
        for i in linked[1:]:
            a, b = find(linked[0]), find(i)
            if a != b:
                parent[max(a, b)] = min(a, b)
    parts = {}
    for i, info in enumerate(infos):
        parts.setdefault(find(i), []).append(info)
    return list(parts.values())


def _part_rows(part, k) -> int:
    """The most rows the part's ops allow (at least the group's k, which an unrelated op
    of the group may have lowered): still linked by those rows, and every buffer two of
    them touch, one writing it, indexed by them."""
    best = min(info.kmax for info in part)
    if best <= k or len(_components(part, best)) != 1:
        return k
    accesses = [(info, a) for info in part for a in info.accesses]
    for info, a in accesses:
        for other, b in accesses:
            if other is not info and b.root is a.root and (a.write or b.write) and \
                    not (info.rows_ok(a, best) and other.rows_ok(b, best)):
                return k
    return best


def _view_users_ok(v, ops) -> bool:
    """Every use of `v` (through views) is an op of `ops`, a view or a deallocation."""
    stack = [v]
    while stack:
        x = stack.pop()
        for u in x.uses:
            o = u.owner
            if o in ops or o.name == "memref.dealloc":
                continue
            if o.name in ("memref.expand_shape", "memref.collapse_shape", "memref.cast") \
                    and u.index == 0:
                stack.append(o.results[0])
                continue
            return False
    return True


# ---------------------------------------------------------------------- code


class _Emit(_Emitter):
    """linalg_to_loops' emitter, with index constants made once before the loop."""

    __slots__ = ("consts", "outside")

    def __init__(self, rewriter, loc, outside):
        super().__init__(rewriter, loc)
        self.consts = {}
        self.outside = outside      # InsertionPoint before the fused loop

    def index(self, n: int):
        v = self.consts.get(n)
        if v is None:
            here = self.rw.ip
            self.rw.ip = self.outside
            v = self.consts[n] = super().index(n)
            self.rw.ip = here
        return v


class _Fuser:
    """Emits one part (a list of _Info) as one loop nest."""

    def __init__(self, part, k, parallel, reassociate):
        self.part = part
        self.k = k
        self.parallel = parallel
        self.reassociate = reassociate

    def run(self, rewriter):
        """Emit the part; returns the fused loop, or None when it is left as it is."""
        part, k = self.part, self.k
        if all(len(info.loops) == k for info in part):
            return None             # nothing inside the rows: elementwise fusion's job
        ops = {info.op for info in part}
        # intermediates: allocations only this part uses, by rows
        written = []
        for info in part:
            for a in info.accesses:
                if a.write and a.root not in written:
                    written.append(a.root)
        cands = [r for r in written if _is_alloc(r) and _view_users_ok(r, ops) and all(
            info.rows_ok(a, k) for info in part for a in info.accesses if a.root is r)]
        if not cands:
            return None
        for info in part:
            info.inner = [_size_key(info.sizes[d]) for d in info.loops[k:]]
            m = {d: AffineDimExpr(i) for i, d in enumerate(info.loops)}
            dims = [m.get(d, _ZERO) for d in range(info.op.num_loops)]
            info.canon = {id(a): None if a.base is None else
                          [e.replace_dims_and_symbols(dims) for e in a.base]
                          for a in info.accesses}
        order = _row_order(part)
        stages = _stages(order, k)
        shrink, budget = {}, MAX_ROW_BYTES
        for root in cands:
            t = root.type
            row = _row_shape(root, k)
            n = None if A.DYNAMIC in row else math.prod(row)
            if n == 1:
                shrink[root] = _SCALAR
            elif _forwarded_only(root, stages):
                shrink[root] = _VIRTUAL
            elif n is not None:
                width = getattr(t.element_type, "width", None)
                nbytes = None if width is None else n * max(1, (width + 7) // 8)
                if nbytes is not None and nbytes <= budget:
                    budget -= nbytes
                    shrink[root] = row
        if not shrink:
            return None
        last = part[-1].op
        outside = InsertionPoint.before_op(last)
        rewriter.ip = outside
        em = _Emit(rewriter, last.loc, outside)
        sizes = {}
        for info in part:
            info.inner = [_size_value(em, key, sizes) for key in info.inner]
        rows = [_size_value(em, _size_key(part[0].sizes[part[0].loops[j]]), sizes)
                for j in range(k)]
        # the loop over the rows
        c0, c1 = em.index(0), em.index(1)
        if self.parallel:
            loop, body = em.parallel_loop([c0] * k, rows, [c1] * k)
            row_ivs = list(body.args)
            alloca_at = InsertionPoint(body, body.last)
        else:
            loop = body = None
            row_ivs = []
            inner_body = None
            for r in rows:
                f, fb = em.for_loop(c0, r, c1)
                if loop is None:
                    loop = f
                else:
                    inner_body.insert_before(inner_body.last, f)
                inner_body = fb
                row_ivs.append(fb.args[0])
            body = inner_body
        rewriter.insert(loop)
        if not self.parallel:
            alloca_at = InsertionPoint.before_op(loop)
        state = _RowState(em, row_ivs, k, self.reassociate)
        for root, row in shrink.items():
            if row is _SCALAR:
                state.scalars[root] = None
            elif row is _VIRTUAL:
                state.virtual.add(root)
            else:
                rewriter.ip = alloca_at
                mt = A.MemRefType(row, root.type.element_type)
                state.bufs[root] = em.v("memref.alloca", [], mt, {
                    "operandSegmentSizes": A.DenseArrayAttr(A.i32, [0, 0]),
                    "alignment": A.IntegerAttr(64, A.i64)})
        rewriter.ip = InsertionPoint(body, body.last)
        for stage in stages:
            _emit_stage(state, stage)
        for buf in state.bufs.values():     # row buffers only written (values forwarded)
            if all(u.owner.name == "memref.store" and u.index == 1 for u in buf.uses):
                for u in list(buf.uses):
                    rewriter.erase_op(u.owner)
                rewriter.erase_op(buf.defining_op)
        # the ops, the intermediates, and deallocations moved after the loop
        for info in part:
            rewriter.erase_op(info.op)
        for root in shrink:
            _erase_buffer(rewriter, root)
        return loop


def _row_order(part):
    """The part's ops in program order, with fills first (of buffers no op before them
    touches), those over fewer loops first."""
    fills, rest = [], []
    for info in part:
        if info.op.name == "linalg.fill" and len(info.accesses) == 1 and \
                not any(a.root is info.accesses[0].root for o in rest for a in o.accesses):
            fills.append(info)
        else:
            rest.append(info)
    fills.sort(key=lambda info: len(info.inner))
    return fills + rest


def _forwarded_only(root, stages) -> bool:
    """Every read of `root` follows a write of it in the same stage (the value is at
    hand: no buffer needed)."""
    for stage in stages:
        written = False
        for info in stage:
            for a in info.accesses:
                if a.root is root and a.read and not written:
                    return False
            if any(a.root is root and a.write for a in info.accesses):
                written = True
    return True


_SCALAR, _VIRTUAL = [], ["virtual"]    # shrink kinds besides a row buffer's shape


def _size_key(s):
    """What a loop size (int, or (memref, dim)) is read from: an int, an index value
    (an allocation's or expand_shape's size operand), or ("dim", memref, dim) of a
    memref that is not an intermediate's view."""
    if isinstance(s, int):
        return s
    v, i = s
    while True:
        t = v.type
        if t.shape[i] != A.DYNAMIC:
            return t.shape[i]
        d = v.defining_op
        name = d.name if d is not None else None
        if name in _ALLOCS:
            return d.operands[sum(1 for x in t.shape[:i] if x == A.DYNAMIC)]
        if name == "memref.expand_shape":
            x = d.mixed_output_shape[i]
            return x
        if name == "memref.collapse_shape":
            src = d.operand(0)
            big = [j for j in d.reassociation_indices[i] if src.type.shape[j] != 1]
            if len(big) == 1:
                v, i = src, big[0]
                continue
        if name == "memref.cast" and len(d.operand(0).type.shape) == len(t.shape):
            v = d.operand(0)
            continue
        return ("dim", v, i)


def _size_value(em, key, made):
    """The index value of a _size_key, made before the fused loop."""
    if isinstance(key, int):
        return em.index(key)
    if not isinstance(key, tuple):
        return key
    v = made.get((key[1], key[2]))
    if v is None:
        here = em.rw.ip
        em.rw.ip = em.outside
        v = made[(key[1], key[2])] = em.dim(key[1], key[2])
        em.rw.ip = here
    return v


def _same_key(a, b) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a[1] is b[1] and a[2] == b[2]
    if isinstance(a, int) or isinstance(b, int):
        return type(a) is type(b) and a == b
    return a is b


def _covers(canon, k, n) -> bool:
    """Indices (canonical) that name each of the row's n loops once, as a plain dim:
    each iteration touches its own element."""
    seen = set()
    for e in canon:
        if e.kind == DIM and e.position >= k:
            if e.position in seen:
                return False
            seen.add(e.position)
        elif any(x.kind == DIM and x.position >= k for x in e.walk()):
            return False
    return len(seen) == n


def _stages(order, k):
    """Runs of ops sharing one loop nest over the row (see [Note: inside a row])."""
    stages = []
    cur = None
    for info in order:
        if cur is not None and _joins(cur, info, k):
            cur.append(info)
            continue
        cur = [info]
        stages.append(cur)
    return stages


def _same_sizes(a, b) -> bool:
    return len(a) == len(b) and all(_same_key(x, y) for x, y in zip(a, b))


def _joins(stage, info, k) -> bool:
    if not _same_sizes(stage[0].inner, info.inner):
        return False
    n = len(info.inner)
    if n == 0:
        return True
    for acc in info.accesses:
        c = info.canon[id(acc)]
        for other in stage:
            for oacc in other.accesses:
                if not (acc.write or oacc.write):
                    continue
                if oacc.root is not acc.root:
                    if _is_alloc(oacc.root) or _is_alloc(acc.root):
                        continue
                    return False
                oc = other.canon[id(oacc)]
                if c is None or oc is None or len(c) != len(oc) or \
                        any(x is not y for x, y in zip(c, oc)) or not _covers(c, k, n):
                    return False
    return True


class _RowState:
    """What one row's code reads: row buffers, one-element row values, the row ivs."""

    __slots__ = ("em", "rows", "k", "bufs", "scalars", "virtual", "stored", "hoist",
                 "varying", "reassociate")

    def __init__(self, em, rows, k, reassociate=True):
        self.reassociate = reassociate
        self.virtual = set()    # intermediates whose every read is forwarded
        self.em = em
        self.rows = rows
        self.k = k
        self.bufs = {}
        self.scalars = {}
        # (root, indices) -> the value stored there in this iteration of the stage
        self.stored = {}
        # where the stage's payload ops that do not vary in its loops go, and the values
        # that vary (None: a stage without loops)
        self.hoist = None
        self.varying = None


def _ivs(info, rows, inner):
    """The induction value of each of the op's loops (size-1 loops: unused)."""
    ivs = [None] * info.op.num_loops
    k = len(rows)
    for j, d in enumerate(info.loops):
        ivs[d] = rows[j] if j < k else inner[j - k]
    return ivs


def _emit_stage(state, stage):
    em = state.em
    state.stored = {}
    state.hoist = state.varying = None
    n = len(stage[0].inner)
    # one-element row values the stage writes are carried through its loops
    carried = []
    for info in stage:
        for a in info.accesses:
            if a.write and a.root in state.scalars and a.root not in carried:
                carried.append(a.root)
    if n == 0:
        for info in stage:
            _emit_op(state, info, [])
        return
    from ..dialects import scf as S
    inits = []
    for root in carried:
        v = state.scalars[root]
        if v is None:
            et = root.type.element_type
            v = em.v("arith.constant", [], et, {"value": _zero_attr(et)})
            state.scalars[root] = v
        inits.append(v)
    c0, c1 = em.index(0), em.index(1)
    loops = []
    args = inits
    for size in stage[0].inner:
        f = S.ForOp.new(c0, size, c1, args, loc=em.loc)
        em.rw.insert(f)
        loops.append(f)
        args = list(f.body.args[1:])
        em.at(f.body, f.body.last if not f.results else None)
    ivs_inner = [f.induction_var for f in loops]
    for root, a in zip(carried, args):
        state.scalars[root] = a
    state.hoist = InsertionPoint.before_op(loops[0])
    state.varying = {x for f in loops for x in f.body.args}
    for info in stage:
        _emit_op(state, info, ivs_inner)
    # yields, innermost first
    for depth in range(len(loops) - 1, -1, -1):
        f = loops[depth]
        if f.results:
            vals = [state.scalars[r] for r in carried] if depth == len(loops) - 1 else \
                list(loops[depth + 1].results)
            em.at(f.body)
            em.op("scf.yield", vals)
    outer = loops[0]
    em.at(outer.parent, outer.next)
    for root, r in zip(carried, outer.results):
        state.scalars[root] = r


def _zero_attr(et):
    if isinstance(et, A.FloatType):
        return A.FloatAttr(0.0, et)
    return A.IntegerAttr(0, et)


def _emit_op(state, info, inner):
    """The op's payload for one element: loads (row buffers, row values, the op's own
    buffers), the payload's ops, stores."""
    em = state.em
    op = info.op
    ivs = _ivs(info, state.rows, inner)
    body = op.regions[0].blocks[0]
    by_index = {a.index: a for a in info.accesses}
    values = []
    for i, v in enumerate(op.operands):
        a = by_index.get(i)
        if a is None:
            values.append(v)
        elif not a.read:
            values.append(None)
        else:
            values.append(_load(state, info, a, ivs))
    mapping = {arg: val for arg, val in zip(body.args, values) if val is not None}
    term = body.last
    inner_op = body.first
    zero = None
    while inner_op is not term:
        if inner_op.name == "linalg.index":
            d = inner_op._props["dim"].value
            iv = ivs[d]
            if iv is None:
                zero = zero or em.index(0)
                iv = zero
            mapping[inner_op.results[0]] = iv
        elif _row_sqrt_division(inner_op, mapping, state.varying):
            mapping[inner_op.results[0]] = _times_reciprocal(state, inner_op, mapping)
        else:
            new = inner_op.clone(mapping)
            varying = state.varying
            if varying is not None and not any(v in varying for v in new.operands):
                here = em.rw.ip         # the same for every iteration: before the loops
                em.rw.ip = state.hoist
                em.rw.insert(new)
                em.rw.ip = here
            else:
                em.rw.insert(new)
                if varying is not None:
                    varying.update(new.results)
        inner_op = inner_op.next
    n_in = op.num_dps_inputs()
    outs = [by_index[i] for i in range(n_in, len(op.operands)) if i in by_index]
    reduces = state.reassociate and any(info.kinds[d] == "reduction"
                                        for d in info.loops[state.k:])
    for val, a in zip(term.operands, outs):
        new = mapping.get(val, val)
        if reduces:
            _reassociate(new, values[a.index])
        _store(state, info, a, new, ivs)


def _row_sqrt_division(op, mapping, varying) -> bool:
    """Whether payload op `op` divides a varying value by a row-invariant square root
    (see [Note: dividing by a row's square root])."""
    if op.name != "arith.divf" or varying is None:
        return False
    x, d = (mapping.get(v, v) for v in op.operands)
    dd = d.defining_op if hasattr(d, "defining_op") else None
    return x in varying and d not in varying and dd is not None and \
        dd.name == "math.sqrt"


def _times_reciprocal(state, op, mapping):
    """`x * (1 / d)` for `op` = `x / d`, the reciprocal emitted once before the row's
    loops (with the op's fastmath flags)."""
    em = state.em
    x, d = (mapping.get(v, v) for v in op.operands)
    t = d.type
    props = {"fastmath": op._props["fastmath"]} if op._props.get("fastmath") else None
    here = em.rw.ip
    em.rw.ip = state.hoist
    one = em.v("arith.constant", [], t, {"value": A.FloatAttr(1.0, t)})
    r = em.v("arith.divf", [one, d], t, props)
    em.rw.ip = here
    y = em.v("arith.mulf", [x, r], t, props)
    state.varying.add(y)
    return y


_COMBINERS = ("arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf",
              "arith.maxnumf", "arith.minnumf")


def _reassociate(value, acc):
    """Let LLVM vectorize a float reduction: its combining op (`value` = acc (+) x) may
    be reassociated (see [Note: reassociated reductions])."""
    d = value.defining_op if acc is not None else None
    if d is None or d.name not in _COMBINERS or acc not in d.operands:
        return
    from ..dialects.arith import FASTMATH
    a = d._props.get("fastmath")
    flags = set(a.flags) if a is not None and a.value != "none" else set()
    if "reassoc" in flags or "fast" in flags:
        return
    flags.add("reassoc")
    props = dict(d.properties)
    props["fastmath"] = FASTMATH(",".join(sorted(flags)))
    d.properties = props


def _row_indices(state, info, a, ivs):
    """Indices into the row buffer of `a`'s root: its base dims after the rows."""
    em = state.em
    base = a.base[state.k:]
    return [em.expr(e, ivs) for e in base]


def _load(state, info, a, ivs):
    em = state.em
    if a.root in state.scalars:
        v = state.scalars[a.root]
        if v is None:   # read before written: an uninitialized buffer
            et = a.root.type.element_type
            v = state.scalars[a.root] = em.v("arith.constant", [], et,
                                               {"value": _zero_attr(et)})
        return v
    key = _key(info, a)
    v = state.stored.get(key) if key is not None else None
    if v is not None:   # stored by an earlier op of the stage at this iteration
        return v
    if a.root in state.virtual:
        raise AssertionError("a read of a forwarded intermediate with no value at hand")
    buf = state.bufs.get(a.root)
    if buf is not None:
        v = em.load(buf, _row_indices(state, info, a, ivs))
    else:
        v = em.load(a.value, [em.expr(e, ivs) for e in a.exprs])
    if state.varying is not None:
        state.varying.add(v)
    if key is not None:     # later reads of the element in this iteration: this value
        state.stored[key] = v
    return v


def _key(info, a):
    """The element `a` touches, in the row's loops: the same key is the same element at
    the same iteration (accesses of one stage to one buffer are equal, see _joins)."""
    c = info.canon[id(a)]
    return None if c is None else (a.root, tuple(c))


def _store(state, info, a, value, ivs):
    em = state.em
    if a.root in state.scalars:
        state.scalars[a.root] = value
        return
    key = _key(info, a)
    if key is not None:
        state.stored[key] = value
    if a.root in state.virtual:
        return
    buf = state.bufs.get(a.root)
    if buf is not None:
        em.store(value, buf, _row_indices(state, info, a, ivs))
        return
    em.store(value, a.value, [em.expr(e, ivs) for e in a.exprs])


def _erase_buffer(rewriter, root):
    """Erase an allocation, its deallocations and views (nothing else uses them)."""
    order = []
    stack = [root]
    while stack:
        x = stack.pop()
        for u in list(x.uses):
            o = u.owner
            if o.name == "memref.dealloc":
                rewriter.erase_op(o)
            elif o.results:
                order.append(o)
                stack.append(o.results[0])
    for o in reversed(order):
        rewriter.erase_op(o)
    rewriter.erase_op(root.defining_op)


# ---------------------------------------------------------------------- driver


def fuse_row_reductions(root_op, parallel: bool = True, reassociate: bool = True) -> int:
    """Fuse the row chains in every block nested in `root_op` (see the module doc);
    returns the number of fused loops made."""
    rewriter = PatternRewriter()
    made = 0
    blocks = []
    for op in root_op.walk():
        for r in op.regions:
            blocks.extend(r.blocks)
    for block in blocks:
        made += _fuse_block(block, rewriter, parallel, reassociate)
    return made


def _fuse_block(block, rewriter, parallel, reassociate) -> int:
    made = 0
    group = None
    for op in list(block.ops):
        if op.parent is not block:
            continue
        if _candidate(op):
            info = _Info(op)
            if group is not None and group.try_add(info):
                continue
            made += _flush(group, rewriter, parallel, reassociate)
            group = _Group(info) if info.kmax >= 1 else None
        elif group is not None and _neutral(op):
            group.span.append(op)
        else:
            made += _flush(group, rewriter, parallel, reassociate)
            group = None
    made += _flush(group, rewriter, parallel, reassociate)
    return made


def _flush(group, rewriter, parallel, reassociate) -> int:
    if group is None or len(group.infos) < 2:
        return 0
    made = 0
    end = group.infos[-1]
    anchor = end.op
    for part in _parts(group):
        loop = _Fuser(part, _part_rows(part, group.k), parallel, reassociate).run(rewriter)
        if loop is not None:
            made += 1
            if part[-1] is end:
                anchor = loop
    if made:
        # deallocations between the group's ops go after it (a fused loop took the place
        # of its part's last op)
        for op in group.span[:group.inside]:
            if op.name == "memref.dealloc" and op.parent is not None:
                op.parent._unlink(op)
                anchor.parent.insert_after(anchor, op)
                anchor = op
    return made


class LinalgFuseRowReductions(Pass):
    name = "strata-linalg-fuse-row-reductions"
    summary = "Run chains of linalg ops on buffers over the same rows (softmax, layer " \
              "norm) as one parallel loop over the rows, intermediates kept per row"
    anchor = "builtin.module"
    parallel = Option(bool, True, "The loop over the rows is an scf.parallel (else an "
                      "scf.for nest, with the row buffers allocated before it)")
    reassociate = Option(bool, True, "Float reductions may be reassociated (their "
                         "combining op gets fastmath<reassoc>: LLVM vectorizes them)")
    num_fused = Statistic("num-fused", "Number of fused loops made")

    def run(self, op):
        self.stat("num-fused", fuse_row_reductions(op, self.parallel, self.reassociate))


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(LinalgFuseRowReductions.name) is None:
        register_pass(LinalgFuseRowReductions)


_register()
