"""Region simplification used by the greedy driver (MLIR's simplifyRegions).

    simplify_regions(regions, rewriter, aggressive=False)

1. unreachable blocks (not reachable from their region's entry) are erased;
2. region DCE: an optimistic liveness analysis (everything is dead until shown live)
   removes ops whose results are never used by live code and that have no side
   effects, and the arguments of non-entry blocks that no live code reads, together
   with the operands branches forward to them. Cycles of dead values (a loop-carried
   value nobody reads) go too, which erasing trivially dead ops one by one cannot do;
3. with `aggressive`, identical blocks are merged and block arguments that receive
   the same value from every predecessor are replaced by that value
   (see block_merging.py).

Successor operands are found through the branch ops' `successor_operand_range(i)`
(the BranchOpInterface of cf's ops); a terminator without it keeps every argument of
its successors alive.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.core import OpResult
from .folding import would_be_trivially_dead

__all__ = ["simplify_regions", "erase_unreachable_blocks", "run_region_dce",
           "is_branch_op"]


def is_branch_op(op) -> bool:
    return getattr(op, "successor_operand_range", None) is not None and bool(op.successors)


def erase_unreachable_blocks(regions, rewriter) -> bool:
    """Erase the blocks of `regions` (and of the regions nested in their live blocks)
    that cannot be reached from their region's entry block."""
    changed = False
    worklist = list(regions)
    while worklist:
        region = worklist.pop()
        blocks = region.blocks
        if not blocks:
            continue
        if len(blocks) > 1:
            reachable = {blocks[0]}
            stack = [blocks[0]]
            while stack:
                t = stack.pop().last
                if t is None:
                    continue
                for s in t.successors:
                    if s not in reachable and s.parent is region:
                        reachable.add(s)
                        stack.append(s)
            dead = [b for b in blocks if b not in reachable]
            for b in dead:
                _drop_defined_value_uses(b)
                rewriter.erase_block(b)
                changed = True
        for b in region.blocks:
            for op in b.ops:
                worklist.extend(op.regions)
    return changed


def _drop_defined_value_uses(block) -> None:
    """Unlink every use of the values `block` defines (its arguments and the results of
    its ops, nested ones included), wherever the user is."""
    for a in block.args:
        for u in list(a.uses):
            u._unlink()
    for op in block.ops:
        for inner in op.walk():
            for r in inner.results:
                for u in list(r.uses):
                    u._unlink()
            for reg in inner.regions:
                for b in reg.blocks:
                    for a in b.args:
                        for u in list(a.uses):
                            u._unlink()


# ---------------------------------------------------------------------- region DCE


class _Live:
    """The values and ops proven live so far; `changed` tracks the fixed point,
    `dead_seen` whether a sweep left an op or block argument not (yet) live."""

    __slots__ = ("ops", "args", "changed", "dead_seen")

    def __init__(self):
        self.ops = set()
        self.args = set()
        self.changed = False
        self.dead_seen = False

    def value_live(self, v) -> bool:
        if isinstance(v, OpResult):
            return v.owner in self.ops
        return v in self.args

    def set_op(self, op):
        if op not in self.ops:
            self.ops.add(op)
            self.changed = True

    def set_value(self, v):
        if isinstance(v, OpResult):
            self.set_op(v.owner)
        elif v not in self.args:
            self.args.add(v)
            self.changed = True


def _successor_arg_of_operand(term, operand_index):
    """The block argument `term` forwards its operand to, or None."""
    for i, succ in enumerate(term.successors):
        start, n = term.successor_operand_range(i)
        if start <= operand_index < start + n:
            j = operand_index - start
            return succ.args[j] if j < len(succ.args) else None
    return None


def _use_known_dead(use, live: _Live) -> bool:
    """A successor operand is only as live as the block argument it feeds."""
    owner = use.owner
    if T.Terminator in type(owner).traits and is_branch_op(owner):
        arg = _successor_arg_of_operand(owner, _operand_index(use))
        if arg is not None:
            return arg not in live.args
    return False


def _operand_index(use) -> int:
    for i, o in enumerate(use.owner._operands):
        if o is use:
            return i
    return -1


def _process_value(v, live: _Live) -> None:
    u = v.first_use
    while u is not None:
        if not _use_known_dead(u, live) and u.owner in live.ops:
            live.set_value(v)
            return
        u = u.next_use


def _propagate_terminator(op, live: _Live) -> None:
    live.set_op(op)
    if not op.successors:
        return
    if not is_branch_op(op):
        for s in op.successors:
            for a in s.args:
                live.set_value(a)


def _propagate_op(op, live: _Live) -> None:
    for r in op.regions:
        _propagate_region(r, live)
    if T.Terminator in type(op).traits:
        _propagate_terminator(op, live)
        return
    if op in live.ops:
        return
    if not would_be_trivially_dead(op):
        live.set_op(op)
        return
    for r in op.results:
        _process_value(r, live)
        if op in live.ops:
            return
    live.dead_seen = True


def _post_order_blocks(region):
    """The blocks reachable from the entry, successors before predecessors."""
    if not region.blocks:
        return []
    out, seen = [], set()
    entry = region.blocks[0]
    stack = [(entry, iter(entry.successors))]
    seen.add(entry)
    while stack:
        b, it = stack[-1]
        for s in it:
            if s not in seen and s.parent is region:
                seen.add(s)
                stack.append((s, iter(s.successors)))
                break
        else:
            stack.pop()
            out.append(b)
    return out


def _propagate_region(region, live: _Live) -> None:
    entry = region.blocks[0] if region.blocks else None
    blocks = _post_order_blocks(region)
    if len(blocks) != len(region.blocks):
        live.dead_seen = True  # unreachable blocks: their arguments are not looked at
    for b in blocks:
        op = b.last
        while op is not None:
            _propagate_op(op, live)
            op = op.prev
        if b is entry:
            continue  # entry arguments belong to the parent op's contract
        for a in b.args:
            if a not in live.args:
                _process_value(a, live)
                if a not in live.args:
                    live.dead_seen = True


def _erase_dead_successor_operands(term, live: _Live) -> None:
    if not is_branch_op(term):
        return
    for i in reversed(range(len(term.successors))):
        succ = term.successors[i]
        _, n = term.successor_operand_range(i)
        for j in reversed(range(min(n, len(succ.args)))):
            if succ.args[j] not in live.args:
                term.erase_successor_operand(i, j)


def _delete_dead(regions, live: _Live, rewriter) -> bool:
    erased = False
    for region in regions:
        if not region.blocks:
            continue
        single = len(region.blocks) == 1
        for b in _post_order_blocks(region):
            if not single and b.last is not None:
                _erase_dead_successor_operands(b.last, live)
            op = b.last
            while op is not None:
                prev = op.prev
                if op not in live.ops:
                    for r in op.results:
                        for u in list(r.uses):
                            u._unlink()
                    rewriter.erase_op(op)
                    erased = True
                elif op.regions:
                    erased |= _delete_dead(op.regions, live, rewriter)
                op = prev
        for b in region.blocks[1:]:
            dead = [i for i, a in enumerate(b.args) if a not in live.args]
            for i in reversed(dead):
                a = b.args[i]
                for u in list(a.uses):
                    u._unlink()
                b.erase_argument(i)
                erased = True
    return erased


def run_region_dce(regions, rewriter) -> bool:
    """Erase dead ops and dead non-entry block arguments (see the module note)."""
    live = _Live()
    while True:
        live.changed = False
        live.dead_seen = False
        for r in regions:
            _propagate_region(r, live)
        if not live.dead_seen:
            # [Note: region DCE stops when all is live]
            # A sweep that found every op and argument live has reached the fixed point
            # (liveness only grows) and leaves nothing to erase: the confirming sweep
            # and the deletion walk are skipped. This is the usual case in
            # canonicalize, whose worklist has already erased the trivially dead ops.
            return False
        if not live.changed:
            break
    return _delete_dead(regions, live, rewriter)


def simplify_regions(regions, rewriter, aggressive=False) -> bool:
    changed = erase_unreachable_blocks(regions, rewriter)
    changed |= run_region_dce(regions, rewriter)
    if aggressive:
        from .block_merging import drop_redundant_arguments, merge_identical_blocks
        changed |= merge_identical_blocks(regions, rewriter)
        changed |= drop_redundant_arguments(regions, rewriter)
    return changed
