"""The greedy pattern rewrite driver (MLIR's applyPatternsGreedily).

[Note: the greedy driver]
Each region of the target op is simplified on its own, in iterations. An iteration:

1. seeds a worklist with every op of the region, in pre-order (top-down, then the
   list is reversed so that ops pop in program order) or post-order (bottom-up). On
   the way, constants are uniqued and hoisted by a fresh OperationFolder: a duplicate
   is replaced by the first one seen, the first one moves to the start of the entry
   block of the closest region isolated from above (see folding.py);
2. erases blocks that cannot be reached from their region's entry;
3. pops ops (last pushed first) until the worklist is empty or `max_num_rewrites`
   patterns applied. Each op is, in this order: skipped if it sits in a block that
   became unreachable; erased if trivially dead; folded (never a constant: that
   would loop), the attributes it folds to becoming constants created right before
   it; or rewritten by the first pattern that matches, by decreasing benefit.
   Every change reports to the driver, which pushes the ops it touched: inserted and
   modified ops (with their ancestors up to the region), and the defining ops of an
   erased op's operands when they have at most one other user left;
4. simplifies the region (region_utils.simplify_regions) unless disabled;
5. optionally runs CSE (`cse_between_iterations`).

It repeats while an iteration changed something, up to `max_iterations`; the result
says whether the last iteration changed nothing (converged). Constants created by
folding are hoisted by the next iteration's seeding, which is why a changing rewrite
takes at least two iterations.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.builder import InsertionPoint
from ..ir.core import Operation, Region, UnregisteredOp, Value
from .folding import OperationFolder, constant_value, fold_op, would_be_trivially_dead
from .pattern import Listener, PatternRewriter, RewritePattern
from .declarative import CONSTANT_DEFINER as _CONST_KIND

__all__ = ["GreedyRewriteConfig", "FrozenPatternSet", "apply_patterns_greedily",
           "apply_op_patterns_greedily", "GreedyResult"]

NO_LIMIT = -1


class GreedyRewriteConfig:
    """How the driver runs. `region_simplification` is "disabled", "normal" or
    "aggressive" (merge identical blocks too); `strict_mode` ("any",
    "existing-and-new", "existing") limits which ops are rewritten when rewriting a
    list of ops; `listener` is told of every change as well."""

    __slots__ = ("top_down", "max_iterations", "max_num_rewrites", "region_simplification",
                 "fold", "cse_constants", "strict_mode", "cse_between_iterations",
                 "listener")

    def __init__(self, top_down=True, max_iterations=10, max_num_rewrites=NO_LIMIT,
                 region_simplification="normal", fold=True, cse_constants=True,
                 strict_mode="any", cse_between_iterations=False, listener=None):
        if region_simplification is True:
            region_simplification = "normal"
        elif region_simplification is False:
            region_simplification = "disabled"
        if region_simplification not in ("disabled", "normal", "aggressive"):
            raise ValueError(f"unknown region simplification level "
                             f"'{region_simplification}'")
        if strict_mode not in ("any", "existing-and-new", "existing"):
            raise ValueError(f"unknown strict mode '{strict_mode}'")
        self.top_down = top_down
        self.max_iterations = max_iterations
        self.max_num_rewrites = max_num_rewrites
        self.region_simplification = region_simplification
        self.fold = fold
        self.cse_constants = cse_constants
        self.strict_mode = strict_mode
        self.cse_between_iterations = cse_between_iterations
        self.listener = listener


class FrozenPatternSet:
    """Patterns indexed by root op name, each list sorted by decreasing benefit (ties
    keep the order they were added in).

    [Note: dispatch on operand definers]
    A pattern may state what it needs of the ops defining the root's operands
    (`operand_requirements`, as declarative patterns do: "operand 0 is defined by an
    arith.addi, operand 1 by a constant"). `for_op_operands` returns only the patterns
    whose needs the op's operand definers meet, cached per (op name, kinds of the
    operand definers): most ops of a module have no pattern left to try after one dict
    lookup, where each pattern would otherwise reject them one by one."""

    def __init__(self, patterns=()):
        self.by_root: dict[str, list] = {}
        self.any_root: list = []
        self._merged: dict = {}
        self._by_definers: dict = {}
        self._filtered: dict = {}  # op name -> whether a pattern states requirements
        for p in patterns:
            self.add(p)

    def add(self, p: RewritePattern):
        self._merged.clear()
        self._by_definers.clear()
        self._filtered.clear()
        if p.root is None:
            self.any_root.append(p)
            self.any_root.sort(key=lambda x: -x.benefit)
        else:
            lst = self.by_root.setdefault(p.root, [])
            lst.append(p)
            lst.sort(key=lambda x: -x.benefit)

    def for_op(self, name: str):
        if not self.any_root:
            return self.by_root.get(name, ())
        m = self._merged.get(name)
        if m is None:
            m = self._merged[name] = sorted(self.by_root.get(name, []) + self.any_root,
                                            key=lambda x: -x.benefit)
        return m

    def for_op_operands(self, op):
        """The patterns of `op`'s name that its operand definers allow (see [Note:
        dispatch on operand definers]), by decreasing benefit."""
        name = op.name
        plist = self.for_op(name)
        if not plist:
            return plist
        filtered = self._filtered.get(name)
        if filtered is None:
            filtered = self._filtered[name] = any(
                getattr(p, "operand_requirements", None) is not None for p in plist)
        if not filtered:
            return plist
        key = [name]
        for o in op._operands:
            d = getattr(o.value, "owner", None)
            c = type(d)
            key.append(d.name if c is UnregisteredOp else c)
        key = tuple(key)
        out = self._by_definers.get(key)
        if out is None:
            if len(self._by_definers) > 4096:
                self._by_definers.clear()
            out = self._by_definers[key] = [
                p for p in plist if _definers_allow(
                    getattr(p, "operand_requirements", None), key)]
        return out

    def __len__(self):
        return sum(map(len, self.by_root.values())) + len(self.any_root)


def _definers_allow(requirements, key) -> bool:
    """Whether operand definers of the kinds in `key` (op name, then per operand the
    class of its defining op, the name of an unregistered one, or a non-op class) can
    meet `requirements` (first level only)."""
    if requirements is None:
        return True
    n_fixed, exact, swap, reqs = requirements
    kinds = key[1:]
    if len(kinds) < n_fixed or (exact and len(kinds) != n_fixed):
        return False
    for flip in ((False, True) if swap else (False,)):
        for i, kind, _nested in reqs:
            c = kinds[1 - i if flip else i]
            if isinstance(c, str):  # an unregistered op: never ConstantLike
                if kind is not _CONST_KIND and c == kind:
                    continue
                break
            if not (isinstance(c, type) and issubclass(c, Operation)):
                break
            if kind is _CONST_KIND:
                if T.ConstantLike not in c.traits:
                    break
            elif c.name != kind:
                break
        else:
            return True
    return False


class GreedyResult:
    """`converged`: the last iteration changed nothing (for op lists: the worklist
    drained); `changed`: anything changed; `iterations`, `rewrites`: counts."""

    __slots__ = ("converged", "changed", "iterations", "rewrites")

    def __init__(self, converged, changed, iterations, rewrites):
        self.converged = converged
        self.changed = changed
        self.iterations = iterations
        self.rewrites = rewrites

    def __bool__(self):
        return self.converged


class _Worklist:
    """A LIFO list of ops with set semantics and O(1) removal (removed slots hold
    None)."""

    __slots__ = ("items", "index")

    def __init__(self):
        self.items = []
        self.index = {}

    def clear(self):
        self.items = []
        self.index = {}

    def push(self, op):
        index = self.index
        if op in index:
            return
        index[op] = len(self.items)
        self.items.append(op)

    def pop(self):
        items = self.items
        while items:
            op = items.pop()
            if op is not None:
                del self.index[op]
                return op
        return None

    def remove(self, op):
        i = self.index.pop(op, None)
        if i is not None:
            self.items[i] = None

    def reverse(self):
        self.items.reverse()
        self.index = {op: i for i, op in enumerate(self.items) if op is not None}

    def __bool__(self):
        return bool(self.index)


class _Driver(Listener):
    def __init__(self, patterns, config, dialects, scope):
        self.patterns = patterns
        self.config = config
        self.dialects = dialects
        self.scope = scope  # the region ops must be nested in to be (re)visited
        self.worklist = _Worklist()
        self.rewriter = PatternRewriter(self)
        self.rewrites = 0
        self.strict_ops = None  # set of ops allowed in strict modes
        self.forward = config.listener
        # region -> set of reachable blocks, while the worklist is processed.
        self._reachable: dict = {}

    # ------------------------------------------------------------ listener

    def add(self, op):
        """Push `op` and its ancestors up to the scope region (none if `op` is not in
        the scope)."""
        scope = self.scope
        block = op.parent
        if block is not None and block.parent is scope:  # the common case: top level
            if self.strict_ops is None or op in self.strict_ops:
                self.worklist.push(op)
            return
        chain = []
        while True:
            chain.append(op)
            block = op.parent
            region = block.parent if block is not None else None
            if region is scope:
                break
            if region is None:
                return
            op = region.parent
            if op is None:
                return
        strict = self.strict_ops
        push = self.worklist.push
        for o in chain:
            if strict is None or o in strict:
                push(o)

    def _cfg_changed(self, op):
        if op.successors or T.Terminator in type(op).traits:
            self._reachable.clear()

    def notify_op_inserted(self, op):
        if self.forward is not None:
            self.forward.notify_op_inserted(op)
        if self.strict_ops is not None and self.config.strict_mode == "existing-and-new":
            self.strict_ops.add(op)
        if self._reachable:
            self._cfg_changed(op)
        self.add(op)

    def notify_op_modified(self, op):
        if self.forward is not None:
            self.forward.notify_op_modified(op)
        if self._reachable:
            self._cfg_changed(op)
        self.add(op)

    def notify_op_replaced(self, op, values):
        if self.forward is not None:
            self.forward.notify_op_replaced(op, values)

    def notify_op_erased(self, op):
        if self.forward is not None:
            self.forward.notify_op_erased(op)
        if self._reachable:
            self._cfg_changed(op)
        # The defining ops of its operands may now be dead, or have a single user left.
        for o in op._operands:
            d = getattr(o.value, "owner", None)
            if not isinstance(d, Operation):
                continue
            other = None
            more = False
            u = o.value.first_use
            while u is not None:
                user = u.owner
                if user is not op and user is not other:
                    if other is None:
                        other = user
                    else:
                        more = True
                        break
                u = u.next_use
            if not more:
                self.add(d)
        self.worklist.remove(op)
        if self.strict_ops is not None:
            self.strict_ops.discard(op)

    def notify_block_inserted(self, block):
        if self.forward is not None:
            self.forward.notify_block_inserted(block)
        self._reachable.clear()

    def notify_block_erased(self, block):
        if self.forward is not None:
            self.forward.notify_block_erased(block)
        self._reachable.clear()

    def notify_match_failure(self, op, reason):
        if self.forward is not None:
            self.forward.notify_match_failure(op, reason)

    # ------------------------------------------------------------ reachability

    def _block_reachable(self, block) -> bool:
        region = block.parent
        blocks = region.blocks
        if blocks[0] is block:
            return True
        reach = self._reachable.get(region)
        if reach is None:
            reach = {blocks[0]}
            stack = [blocks[0]]
            while stack:
                t = stack.pop().last
                if t is None:
                    continue
                for s in t.successors:
                    if s not in reach and s.parent is region:
                        reach.add(s)
                        stack.append(s)
            self._reachable[region] = reach
        return block in reach

    def _reachable_op(self, op) -> bool:
        """False when `op` (or an op around it, up to the scope) sits in a block that
        cannot be reached from its region's entry."""
        scope = self.scope
        block = op.parent
        while block is not None:
            region = block.parent
            if region is None:
                return True
            if len(region.blocks) > 1 and not self._block_reachable(block):
                return False
            if region is scope:
                return True
            op = region.parent
            if op is None:
                return True
            block = op.parent
        return True

    # ------------------------------------------------------------ driving

    def seed(self, regions):
        """Fill the worklist for a new iteration, uniquing and hoisting constants."""
        wl = self.worklist
        wl.clear()
        cfg = self.config
        folder = OperationFolder(self.rewriter) if cfg.cse_constants else None
        if cfg.top_down:
            for region in regions:
                self._seed_preorder(region, folder)
            wl.reverse()
        else:
            for region in regions:
                for op in region.walk(post_order=True):
                    if folder is not None and _is_constant(op):
                        value = constant_value(op.results[0])
                        if value is not None and not folder.insert_known_constant(op, value):
                            continue
                    self.add(op)

    def _seed_preorder(self, region, folder):
        add = self.add
        wl = self.worklist
        items, index = wl.items, wl.index
        direct = self.strict_ops is None
        constant_like = _CONSTANT_LIKE
        # Iterative pre-order walk; the next op is taken before visiting one, so that
        # hoisting or erasing the visited constant does not derail the walk.
        pending = []
        for b in region.blocks:
            pending.append(b.first)
        pending.reverse()
        stack = pending
        while stack:
            op = stack.pop()
            if op is None:
                continue
            stack.append(op.next)
            if folder is not None:
                cls = type(op)
                c = constant_like.get(cls)
                if c is None:
                    c = constant_like[cls] = T.ConstantLike in cls.traits
                if c and len(op.results) == 1:
                    value = constant_value(op.results[0])
                    if value is not None and not folder.insert_known_constant(op, value):
                        continue
            if direct:
                # add(op): in pre-order every op's ancestors up to the scope were pushed
                # before it (a constant merged away is not descended into), so pushing
                # the op alone is what add's walk up its ancestors came to
                if op not in index:
                    index[op] = len(items)
                    items.append(op)
            else:
                add(op)
            if op.regions:
                firsts = [b.first for r in op.regions for b in r.blocks]
                firsts.reverse()
                stack.extend(firsts)

    def process(self) -> bool:
        changed = False
        cfg = self.config
        wl = self.worklist
        rewriter = self.rewriter
        limit = cfg.max_num_rewrites
        num_rewrites = 0
        do_fold = cfg.fold
        patterns = self.patterns
        self._reachable.clear()
        scope = self.scope
        # The worklist's own list and index (pop inlined; pushes go to the same objects).
        items, index = wl.items, wl.index
        foldable = _FOLDABLE
        try:
            while index and (limit == NO_LIMIT or num_rewrites < limit):
                op = items.pop()
                if op is None:
                    continue
                del index[op]
                block = op.parent
                if block is None:
                    continue
                if (block.parent is not scope or len(scope.blocks) > 1) and \
                        not self._reachable_op(op):
                    continue
                for r in op.results:
                    if r.first_use is not None:
                        break
                else:
                    if would_be_trivially_dead(op):
                        rewriter.erase_op(op)
                        changed = True
                        continue
                if do_fold:
                    cls = type(op)
                    f = foldable.get(cls)
                    if f is None:
                        f = _foldable(cls)
                    if f and self._try_fold(op):
                        changed = True
                        continue
                plist = patterns.for_op_operands(op)
                if plist:
                    # A pattern that fails changes nothing: one insertion point for all.
                    ip = InsertionPoint(op.parent, op)
                    loc = op.loc
                    for p in plist:
                        rewriter.ip = ip
                        rewriter.loc = loc
                        if p.match_and_rewrite(op, rewriter):
                            changed = True
                            num_rewrites += 1
                            break
        finally:
            self.rewrites += num_rewrites
            self._reachable.clear()
        return changed

    def _try_fold(self, op) -> bool:
        """Fold `op`: in place, or replacing its results by values and new constants
        (created right before it, at its location)."""
        res = fold_op(op)
        if res is None:
            return False
        results = op.results
        if all(v is r for v, r in zip(res, results)):
            self.notify_op_modified(op)  # folded in place
            return True
        rewriter = self.rewriter
        rewriter.ip = InsertionPoint.before_op(op)
        rewriter.loc = op.loc
        replacements = []
        created = []
        for v, r in zip(res, results):
            if isinstance(v, Value):
                replacements.append(v)
                continue
            d = self.dialects.get(op.dialect_name)
            mat = getattr(d, "materialize_constant", None) if d is not None else None
            c = mat(rewriter, v, r.type, op.loc) if mat is not None else None
            if c is None:
                for c in reversed(created):
                    rewriter.erase_op(c)
                return False
            created.append(c)
            replacements.append(c.results[0])
        rewriter.replace_op(op, replacements)
        return True


_FOLDABLE: dict = {}
_CONSTANT_LIKE: dict = {}  # op class -> whether it is ConstantLike
_FOLD_TRAITS = (T.Commutative, T.Idempotent, T.Involution)


def _foldable(cls) -> bool:
    """Whether ops of `cls` may fold: they have a folder, or a trait that folds, and
    are not constants (folding a constant to itself would loop)."""
    f = _FOLDABLE.get(cls)
    if f is None:
        traits = cls.traits
        f = _FOLDABLE[cls] = T.ConstantLike not in traits and (
            getattr(cls, "fold", None) is not None or any(t in traits for t in _FOLD_TRAITS))
    return f


def _is_constant(op) -> bool:
    return T.ConstantLike in type(op).traits and len(op.results) == 1


def _regions_of(target):
    if isinstance(target, Region):
        return [target]
    return list(target.regions)


def apply_patterns_greedily(target, patterns, config: GreedyRewriteConfig | None = None,
                            dialects=None, ops=None) -> GreedyResult:
    """Apply `patterns` (and folding) to everything nested in `target` (an op: each
    of its regions in turn; or one region) until nothing changes. With `ops` given,
    rewrite only those ops instead (see apply_op_patterns_greedily)."""
    config = config or GreedyRewriteConfig()
    if ops is not None:
        return apply_op_patterns_greedily(ops, patterns, config, dialects)
    if not isinstance(patterns, FrozenPatternSet):
        patterns = FrozenPatternSet(patterns)
    dialects = _dialect_map(dialects)
    converged, changed, iterations, rewrites = True, False, 0, 0
    for region in _regions_of(target):
        r = _simplify_region(region, patterns, config, dialects)
        converged &= r.converged
        changed |= r.changed
        iterations = max(iterations, r.iterations)
        rewrites += r.rewrites
    return GreedyResult(converged, changed, iterations, rewrites)


def _simplify_region(region, patterns, config, dialects) -> GreedyResult:
    from .region_utils import erase_unreachable_blocks, simplify_regions
    driver = _Driver(patterns, config, dialects, region)
    if config.strict_mode != "any":
        driver.strict_ops = set(region.walk())
    rewriter = driver.rewriter
    iteration = 0
    keep_going = False
    changed_any = False
    regions = [region]
    while True:
        iteration += 1
        if config.max_iterations != NO_LIMIT and iteration > config.max_iterations:
            iteration -= 1
            break
        driver.seed(regions)
        # Patterns may not expect the odd IR unreachable code allows (an op using its
        # own result), so it goes before any op is looked at.
        keep_going = erase_unreachable_blocks(regions, rewriter)
        keep_going |= driver.process()
        if config.region_simplification != "disabled":
            keep_going |= simplify_regions(
                regions, rewriter, aggressive=config.region_simplification == "aggressive")
        if config.cse_between_iterations:
            from ..passes.cse import eliminate_common_subexpressions
            n_cse, n_dce = eliminate_common_subexpressions(region.parent)
            keep_going |= bool(n_cse or n_dce)
        changed_any |= keep_going
        if not keep_going:
            break
    return GreedyResult(not keep_going, changed_any, iteration, driver.rewrites)


def apply_op_patterns_greedily(ops, patterns, config: GreedyRewriteConfig | None = None,
                               dialects=None) -> GreedyResult:
    """Rewrite the ops in `ops` (and, by `config.strict_mode`, the ops their rewrites
    create or touch) with one worklist pass, as MLIR's applyOpPatternsGreedily.
    `converged` says whether the worklist drained (no `max_num_rewrites` cut-off)."""
    config = config or GreedyRewriteConfig()
    if not isinstance(patterns, FrozenPatternSet):
        patterns = FrozenPatternSet(patterns)
    ops = [op for op in ops if op.parent is not None]
    if not ops:
        return GreedyResult(True, False, 0, 0)
    driver = _Driver(patterns, config, _dialect_map(dialects), _common_region(ops))
    if config.strict_mode != "any":
        driver.strict_ops = set(ops)
    for op in ops:
        if driver.strict_ops is None or op in driver.strict_ops:
            driver.worklist.push(op)
    changed = driver.process()
    return GreedyResult(not driver.worklist, changed, 1, driver.rewrites)


def _common_region(ops):
    """The closest region holding every op of `ops` (None if one is top-level)."""
    region = ops[0].parent.parent if ops[0].parent is not None else None
    while region is not None:
        if all(_in_region(op, region) for op in ops[1:]):
            return region
        parent = region.parent
        block = parent.parent if parent is not None else None
        region = block.parent if block is not None else None
    return None


def _in_region(op, region) -> bool:
    while op is not None:
        block = op.parent
        if block is None:
            return False
        if block.parent is region:
            return True
        op = block.parent.parent if block.parent is not None else None
    return False


def _dialect_map(dialects):
    if dialects is None:
        from ..dialects import all_dialects
        return {d.name: d for d in all_dialects()}
    if isinstance(dialects, dict):
        return dialects
    return {d.name: d for d in dialects}
