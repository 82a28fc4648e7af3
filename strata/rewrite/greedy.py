"""The greedy pattern rewrite driver (MLIR's applyPatternsGreedily).

A worklist of ops is processed until empty: each op is erased if trivially dead,
uniqued and hoisted if it is a constant, folded if its `fold` hook applies, or else
rewritten by the first matching pattern (highest benefit first). Every change puts the
affected ops back on the worklist. When the worklist drains, regions are simplified
(unreachable blocks, dead values, identical blocks) and, if anything changed, the whole
process repeats, up to `max_iterations`.
"""
from __future__ import annotations

from ..ir.core import Operation, Region
from .folding import OperationFolder, constant_value, is_trivially_dead
from .pattern import Listener, PatternRewriter, RewritePattern
from ..ir import traits as T

__all__ = ["GreedyRewriteConfig", "FrozenPatternSet", "apply_patterns_greedily",
           "GreedyResult"]


class GreedyRewriteConfig:
    __slots__ = ("top_down", "max_iterations", "max_num_rewrites", "region_simplification",
                 "fold", "cse_constants", "strict_mode")

    def __init__(self, top_down=True, max_iterations=10, max_num_rewrites=-1,
                 region_simplification="normal", fold=True, cse_constants=True,
                 strict_mode="any"):
        self.top_down = top_down
        self.max_iterations = max_iterations
        self.max_num_rewrites = max_num_rewrites
        self.region_simplification = region_simplification  # disabled|normal|aggressive
        self.fold = fold
        self.cse_constants = cse_constants
        self.strict_mode = strict_mode  # any | existing-and-new | existing


class FrozenPatternSet:
    """Patterns indexed by root op name, each list sorted by decreasing benefit."""

    def __init__(self, patterns=()):
        self.by_root: dict[str, list] = {}
        self.any_root: list = []
        for p in patterns:
            self.add(p)

    def add(self, p: RewritePattern):
        if p.root is None:
            self.any_root.append(p)
            self.any_root.sort(key=lambda x: -x.benefit)
        else:
            lst = self.by_root.setdefault(p.root, [])
            lst.append(p)
            lst.sort(key=lambda x: -x.benefit)

    def for_op(self, name: str):
        lst = self.by_root.get(name)
        if not self.any_root:
            return lst or ()
        if not lst:
            return self.any_root
        return sorted(lst + self.any_root, key=lambda x: -x.benefit)

    def __len__(self):
        return sum(map(len, self.by_root.values())) + len(self.any_root)


class GreedyResult:
    __slots__ = ("converged", "changed", "iterations", "rewrites")

    def __init__(self, converged, changed, iterations, rewrites):
        self.converged = converged
        self.changed = changed
        self.iterations = iterations
        self.rewrites = rewrites


class _Worklist:
    __slots__ = ("items", "index")

    def __init__(self):
        self.items = []
        self.index = {}

    def push(self, op):
        if op in self.index:
            return
        self.index[op] = len(self.items)
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
    def __init__(self, regions, patterns, config, dialects, scope_op):
        self.regions = regions
        self.patterns = patterns
        self.config = config
        self.dialects = dialects
        self.scope_op = scope_op
        self.worklist = _Worklist()
        self.rewriter = PatternRewriter(self)
        self.folder = OperationFolder(self.rewriter)
        self.rewrites = 0
        self.strict_ops = None

    # ------------------------------------------------------------ listener
    def _in_scope(self, op):
        if self.strict_ops is not None and op not in self.strict_ops:
            return False
        return True

    def add(self, op):
        if op is not None and op.parent is not None and self._in_scope(op):
            self.worklist.push(op)

    def notify_op_inserted(self, op):
        if self.config.strict_mode == "existing-and-new" and self.strict_ops is not None:
            self.strict_ops.add(op)
        self.add(op)

    def notify_op_modified(self, op):
        self.add(op)

    def notify_op_replaced(self, op, values):
        for r in op.results:
            for u in r.uses:
                self.add(u.owner)

    def notify_op_erased(self, op):
        self.worklist.remove(op)
        self.folder.notify_removal(op)
        # Defining ops of its operands may now be dead.
        for o in op._operands:
            v = o.value
            u = v.first_use
            if u is None or u.next_use is None:
                d = getattr(v, "owner", None)
                if isinstance(d, Operation):
                    self.add(d)

    # ------------------------------------------------------------ driving
    def populate(self):
        wl = self.worklist
        if self.config.top_down:
            for region in self.regions:
                for op in _preorder(region, self):
                    wl.push(op)
            wl.reverse()
        else:
            for region in self.regions:
                for op in region.walk(post_order=True):
                    wl.push(op)

    def process(self) -> bool:
        changed = False
        cfg = self.config
        wl = self.worklist
        rewriter = self.rewriter
        while wl:
            if 0 <= cfg.max_num_rewrites <= self.rewrites:
                break
            op = wl.pop()
            if op is None:
                break
            if op.parent is None:
                continue
            if is_trivially_dead(op):
                rewriter.erase_op(op)
                changed = True
                continue
            cls = type(op)
            if cfg.cse_constants and T.ConstantLike in cls.traits and op.results:
                value = constant_value(op.results[0])
                if value is not None:
                    if self.folder.insert_known_constant(op, value):
                        changed = True
                    continue
            if cfg.fold and getattr(op, "fold", None) is not None:
                if self.folder.try_fold(op, self.dialects):
                    changed = True
                    self.rewrites += 1
                    continue
            for p in self.patterns.for_op(op.name):
                rewriter.ip = None
                rewriter.loc = op.loc
                from ..ir.builder import InsertionPoint
                rewriter.ip = InsertionPoint.before_op(op)
                if p.match_and_rewrite(op, rewriter):
                    changed = True
                    self.rewrites += 1
                    break
        return changed


def _preorder(region: Region, driver):
    """Pre-order walk for top-down population; constants are uniqued on the way."""
    stack = []
    for b in reversed(region.blocks):
        stack.extend(reversed(list(b.ops)))
    cfg = driver.config
    while stack:
        op = stack.pop()
        if cfg.cse_constants and T.ConstantLike in type(op).traits and op.results:
            value = constant_value(op.results[0])
            if value is not None:
                driver.folder.insert_known_constant(op, value)
                continue
        yield op
        for r in reversed(op.regions):
            for b in reversed(r.blocks):
                stack.extend(reversed(list(b.ops)))


def apply_patterns_greedily(target, patterns, config: GreedyRewriteConfig | None = None,
                            dialects=None, ops=None) -> GreedyResult:
    """Apply `patterns` to everything nested in `target` (an op: its regions; or a
    region). With `ops` given, only those ops (and, in 'existing-and-new' strict mode,
    the ops created from them) are rewritten."""
    config = config or GreedyRewriteConfig()
    if not isinstance(patterns, FrozenPatternSet):
        patterns = FrozenPatternSet(patterns)
    if isinstance(target, Region):
        regions = [target]
        scope = target.parent
    else:
        regions = list(target.regions)
        scope = target
    if dialects is None:
        from ..dialects import all_dialects
        dialects = {d.name: d for d in all_dialects()}
    driver = _Driver(regions, patterns, config, dialects, scope)
    if ops is not None:
        driver.strict_ops = set(ops)
    from .region_utils import simplify_regions
    iterations = 0
    changed_any = False
    while True:
        iterations += 1
        if ops is not None:
            for op in ops:
                if op.parent is not None:
                    driver.worklist.push(op)
        else:
            driver.populate()
        changed = driver.process()
        if config.region_simplification != "disabled" and ops is None:
            if simplify_regions(regions, driver.rewriter,
                                aggressive=config.region_simplification == "aggressive"):
                changed = True
        changed_any |= changed
        if not changed or ops is not None:
            return GreedyResult(True, changed_any, iterations, driver.rewrites)
        if 0 <= config.max_iterations <= iterations:
            return GreedyResult(False, changed_any, iterations, driver.rewrites)
