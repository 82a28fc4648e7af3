"""`cse`: eliminate common sub-expressions, as upstream's CSE pass does.

    %0 = arith.addi %a, %b : i32
    %1 = arith.addi %b, %a : i32   // same value: uses of %1 become uses of %0

[Note: how cse walks]
One walk over the IR, no worklist. Known expressions live in a dict from structural key
(strata/ir/equivalence.py) to the first op that computed it, with an undo log per scope:
a single-block region is one scope, a multi-block region one scope per block nested along
the dominator tree, so a block sees what its dominators computed. Nested regions see the
expressions of the regions around them, unless their op is IsolatedFromAbove (a function
body starts from nothing). Within a block, each op in order:

- an op that is trivially dead (unused, no side effects) is queued for erasure (num-dce'd)
  and its regions are not visited;
- otherwise its regions are simplified first, then the op itself: terminators, ops with a
  multi-block region, and ops with memory effects other than reads are left alone; an op
  free of memory effects (recursively, for RecursiveMemoryEffects ops) that matches a known
  one has its uses replaced and is queued for erasure (num-cse'd); an op that only reads
  matches a known one only in the same block with no op that may write in between;
- ops are erased at the end, so structural comparisons of region ops see the regions as
  they were.

In a region without SSA dominance (a graph region such as a module body) only the uses
whose owner has no known equivalent are replaced, and the op stays if uses remain.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.equivalence import dict_key, shallow_key, structural_key
from ..ir.gc_pause import gc_paused
from ..ir.location import UnknownLoc
from ..rewrite.folding import would_be_trivially_dead
from .pass_manager import Pass, Statistic

__all__ = ["CSE", "eliminate_common_subexpressions", "dominator_tree_children",
           "is_memory_effect_free"]

# Memory-effect kinds of an op class (the op alone, not what its regions hold).
_FREE, _READ, _OTHER, _RECURSIVE = 0, 1, 2, 3
_WRITE_SEEN = object()
_EMPTY = ()


class _ClassInfo:
    """What CSE needs to know about an op class, computed once per class."""

    __slots__ = ("terminator", "isolated", "commutative", "effects", "recursive",
                 "may_write", "dead_if_unused")

    def __init__(self, cls):
        traits = cls.traits
        self.terminator = T.Terminator in traits
        self.isolated = T.IsolatedFromAbove in traits
        self.commutative = T.Commutative in traits
        self.recursive = T.RecursiveMemoryEffects in traits
        declared = T.find_trait(cls, T.MemoryEffects)
        if cls.__name__ == "UnregisteredOp":
            own = None  # unknown effects
        elif T.Pure in traits or T.NoMemoryEffect in traits or T.ConstantLike in traits:
            own = ()
        elif declared is not None:
            own = tuple(declared.effects)
        else:
            own = None
        # isMemoryEffectFree / onlyHasEffect<Read> upstream, for the op alone.
        if own == ():
            self.effects = _RECURSIVE if self.recursive else _FREE
        elif own is None:
            self.effects = _RECURSIVE if self.recursive else _OTHER
        elif all(e == T.MemRead for e in own):
            self.effects = _READ
        else:
            self.effects = _OTHER
        # Whether the op alone may write, for the read-after-read check (None: look
        # at the nested ops too).
        if own is None:
            self.may_write = None if self.recursive else True
        else:
            w = T.MemWrite in own
            self.may_write = True if w else (None if self.recursive else False)
        # Whether "no uses" alone makes the op dead (None: ask would_be_trivially_dead).
        self.dead_if_unused = None if self.recursive or cls.operand_memory_effects \
            is not None else _simple_dead(cls, traits, own)


def _simple_dead(cls, traits, own):
    if T.Terminator in traits or T.Symbol in traits or cls.__name__ == "UnregisteredOp":
        return False
    if own is None:
        return False
    return all(e == T.MemAlloc for e in own)


_INFO: dict = {}


def _info(cls) -> _ClassInfo:
    i = _INFO.get(cls)
    if i is None:
        i = _INFO[cls] = _ClassInfo(cls)
    return i


def is_memory_effect_free(op) -> bool:
    """isMemoryEffectFree: no effects, looking into RecursiveMemoryEffects regions."""
    info = _info(type(op))
    if type(op).operand_memory_effects is not None and op.operand_memory_effects():
        return False
    e = info.effects
    if e == _FREE:
        return True
    if e != _RECURSIVE:
        return False
    for r in op.regions:
        for b in r.blocks:
            inner = b.first
            while inner is not None:
                if not is_memory_effect_free(inner):
                    return False
                inner = inner.next
    return True


def _may_write(op) -> bool:
    """True if `op` (with what its RecursiveMemoryEffects regions hold) may write memory
    or has effects that are not known."""
    if type(op).operand_memory_effects is not None and op.operand_memory_effects():
        return True
    w = _info(type(op)).may_write
    if w is not None:
        return w
    for r in op.regions:
        for b in r.blocks:
            inner = b.first
            while inner is not None:
                if _may_write(inner):
                    return True
                inner = inner.next
    return False


def _single_block_regions(regions) -> bool:
    for r in regions:
        if len(r.blocks) > 1:
            return False
    return True


def _successors(block):
    t = block.last
    return t.successors if t is not None else ()


def dominator_tree_children(region) -> dict:
    """{block: [blocks it immediately dominates]} for the blocks of `region` reachable
    from its entry (Cooper, Harvey and Kennedy's iterative algorithm)."""
    entry = region.blocks[0]
    post = []
    seen = {entry}
    stack = [(entry, iter(_successors(entry)))]
    while stack:
        b, it = stack[-1]
        for s in it:
            if s not in seen and s.parent is region:
                seen.add(s)
                stack.append((s, iter(_successors(s))))
                break
        else:
            post.append(b)
            stack.pop()
    rpo = post[::-1]
    order = {b: i for i, b in enumerate(rpo)}
    preds: dict = {b: [] for b in rpo}
    for b in rpo:
        for s in _successors(b):
            if s in order:
                preds[s].append(b)
    idom = {entry: entry}

    def intersect(a, b):
        while a is not b:
            while order[a] > order[b]:
                a = idom[a]
            while order[b] > order[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new = None
            for p in preds[b]:
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    children: dict = {}
    for b in rpo[1:]:
        children.setdefault(idom[b], []).append(b)
    return children


def _undo(table, log):
    for key, prev in reversed(log):
        if prev is None:
            del table[key]
        else:
            table[key] = prev


class _Driver:
    def __init__(self):
        self.to_erase: list = []
        self.num_cse = 0
        self.num_dce = 0

    def simplify(self, root) -> None:
        with gc_paused():  # the walk allocates a key per op; see gc_pause.py
            table: dict = {}
            for r in root.regions:
                self.region(table, r)
            for op in self.to_erase:
                op.erase()

    def region(self, table, region) -> None:
        blocks = region.blocks
        if not blocks:
            return
        parent = region.parent
        ssa = parent is None or T.GraphRegion not in type(parent).traits
        if len(blocks) == 1:
            log: list = []
            self.block(table, log, blocks[0], ssa)
            _undo(table, log)
            return
        if not ssa:
            return  # no traversal order for multi-block graph regions, as upstream
        children = dominator_tree_children(region)
        log = []
        self.block(table, log, blocks[0], ssa)
        stack = [(iter(children.get(blocks[0], ())), log)]
        while stack:
            it, log = stack[-1]
            child = next(it, None)
            if child is None:
                _undo(table, log)
                stack.pop()
                continue
            log = []
            self.block(table, log, child, ssa)
            stack.append((iter(children.get(child, ())), log))

    def block(self, table, log, block, ssa) -> None:
        # The hot loop: one iteration per op, so lookups are hoisted into locals and
        # the key of an op without regions is built inline (the layout of shallow_key).
        write_cache: dict = {}
        info_of = _INFO.get
        to_erase = self.to_erase
        lookup = table.get
        empty = _EMPTY
        op = block.first
        while op is not None:
            nxt = op.next
            info = info_of(type(op)) or _info(type(op))
            res = op.results
            if len(res) == 1:
                used = res[0].first_use is not None
            else:
                used = False
                for r in res:
                    if r.first_use is not None:
                        used = True
                        break
            if not used:
                d = info.dead_if_unused
                if d or (d is None and would_be_trivially_dead(op)):
                    to_erase.append(op)
                    self.num_dce += 1
                    op = nxt
                    continue
            regions = op.regions
            if regions:
                inner = {} if info.isolated else table
                for r in regions:
                    self.region(inner, r)
            effects = info.effects
            if info.terminator or effects == _OTHER:
                op = nxt
                continue
            if regions:
                if not _single_block_regions(regions) or \
                        (effects == _RECURSIVE and not is_memory_effect_free(op)):
                    op = nxt
                    continue
                key = structural_key(op)
            else:
                operands = op._operands
                n = len(operands)
                if n == 2:
                    vals = (operands[0].value, operands[1].value)
                    if info.commutative and id(vals[1]) < id(vals[0]):
                        vals = (vals[1], vals[0])
                elif n == 1:
                    vals = (operands[0].value,)
                elif n == 0:
                    vals = empty
                else:
                    vl = [o.value for o in operands]
                    if info.commutative:
                        vl.sort(key=id)
                    vals = tuple(vl)
                p = op._props
                a = op._attrs
                s = op.successors
                key = (op.name, vals,
                       (res[0].type,) if len(res) == 1 else tuple([r.type for r in res]),
                       dict_key(p) if p else empty, dict_key(a) if a else empty,
                       s if type(s) is tuple else tuple(s), empty)
            existing = lookup(key)
            if existing is not None:
                if effects != _READ or (existing.parent is block and
                                        not self._write_between(existing, op, write_cache)):
                    self.replace(table, op, existing, ssa)
                    op = nxt
                    continue
            log.append((key, existing))
            table[key] = op
            op = nxt

    def _write_between(self, first, op, cache) -> bool:
        """Whether an op strictly between `first` and `op` (same block) may write."""
        start = cache.get(first)
        if start is _WRITE_SEEN:
            return True
        cur = first.next if start is None else start
        while cur is not None and cur is not op:
            if _may_write(cur):
                cache[first] = _WRITE_SEEN
                return True
            cur = cur.next
        cache[first] = op
        return False

    def replace(self, table, op, existing, ssa) -> None:
        if ssa:
            for r, e in zip(op.results, existing.results):
                r.replace_all_uses_with(e)
            self.to_erase.append(op)
        else:
            # Uses already visited (their owner is a known expression) keep the value.
            def unvisited(use):
                owner = use.owner
                k = structural_key(owner) if owner.regions else shallow_key(owner)
                return k not in table
            for r, e in zip(op.results, existing.results):
                r.replace_uses_where(e, unvisited)
            if all(r.first_use is None for r in op.results):
                self.to_erase.append(op)
        if isinstance(existing.loc, UnknownLoc) and not isinstance(op.loc, UnknownLoc):
            existing.loc = op.loc
        self.num_cse += 1


def eliminate_common_subexpressions(op) -> tuple[int, int]:
    """Run CSE on the regions of `op`; returns (ops CSE'd, ops DCE'd)."""
    d = _Driver()
    d.simplify(op)
    return d.num_cse, d.num_dce


class CSE(Pass):
    name = "cse"
    summary = "Eliminate common sub-expressions"
    num_cse = Statistic("num-cse'd", "Number of operations CSE'd")
    num_dce = Statistic("num-dce'd", "Number of operations DCE'd")

    def run(self, op):
        d = _Driver()
        d.simplify(op)
        self.stat("num-cse'd", d.num_cse)
        self.stat("num-dce'd", d.num_dce)
        if not d.to_erase:
            self.mark_all_analyses_preserved()
