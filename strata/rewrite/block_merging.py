"""Aggressive region simplification: merging identical blocks and dropping block
arguments that always receive the same value (`canonicalize{region-simplify=aggressive}`).

[Note: merging identical blocks]
Two non-entry blocks of a region can merge when they branch to the same successors
(in the same order) and hold the same ops in the same order: same names, properties,
attributes and result types, and operands that are either the same value, values
defined at the same position inside each block (arguments count as positions 0..n-1),
or values from outside the block (which then become new arguments of the merged
block, passed in by every predecessor). The first block of such a cluster is kept; the
others' predecessors branch to it instead. Blocks whose ops have regions, whose
arguments or results are used outside them, or whose predecessors are not branch ops
(when new arguments are needed) are left alone. An outside value defined by the
terminator of one of a block's predecessors cannot be passed as an argument, so it
prevents the merge too.

`drop_redundant_arguments`: an argument that every predecessor passes the same value
for is replaced by that value and removed, with the operands that fed it.
"""
from __future__ import annotations

from ..ir.core import OpResult

__all__ = ["merge_identical_blocks", "drop_redundant_arguments"]


def _predecessor_edges(block):
    """(terminator, successor index) for every branch to `block` in its region."""
    edges = []
    region = block.parent
    if region is None:
        return edges
    for b in region.blocks:
        t = b.last
        if t is None or not t.successors:
            continue
        for i, s in enumerate(t.successors):
            if s is block:
                edges.append((t, i))
    return edges


def _is_branch(op) -> bool:
    return getattr(op, "successor_operand_range", None) is not None and \
        getattr(op, "append_successor_operands", None) is not None


def _value_loc(v):
    if isinstance(v, OpResult):
        return v.owner.loc
    return getattr(v, "loc", None)


def _used_outside(values, block) -> bool:
    for v in values:
        u = v.first_use
        while u is not None:
            o = u.owner
            # A use nested in an op of the block counts as inside.
            while o is not None and o.parent is not block:
                o = o.parent_op
            if o is None:
                return True
            u = u.next_use
    return False


class _BlockData:
    """A block, the position of every value it defines, and a key of its op shapes."""

    __slots__ = ("block", "order", "key")

    def __init__(self, block):
        self.block = block
        self.order = {}
        n = len(block.args)
        for i, a in enumerate(block.args):
            self.order[a] = i
        key = []
        for op in block.ops:
            for r in op.results:
                self.order[r] = n
                n += 1
            key.append((op.name, tuple(sorted(op._props.items(), key=lambda kv: kv[0])),
                        tuple(sorted(op._attrs.items(), key=lambda kv: kv[0])),
                        tuple(r.type for r in op.results), len(op._operands),
                        len(op.successors)))
        self.key = tuple(key)


def _valid_successor_arg(block, value) -> bool:
    """False for a value made by the terminator of one of `block`'s predecessors: it
    does not dominate the merged block's predecessors' branches."""
    if not isinstance(value, OpResult):
        return True
    d = value.owner
    dblock = d.parent
    if dblock is None or dblock.last is not d:
        return True
    return all(t.parent is not dblock for t, _ in _predecessor_edges(block))


class _Cluster:
    def __init__(self, leader: _BlockData):
        self.leader = leader
        self.blocks: list = []
        self.operands: set = set()  # (op index, operand index) that become arguments

    def try_add(self, data: _BlockData) -> bool:
        lead = self.leader
        if lead.key != data.key:
            return False
        lb, rb = lead.block, data.block
        if [a.type for a in lb.args] != [a.type for a in rb.args]:
            return False
        mismatched = []
        lop, rop = lb.first, rb.first
        i = 0
        while lop is not None and rop is not None:
            if [o.value.type for o in lop._operands] != [o.value.type for o in rop._operands]:
                return False
            if lop.successors != rop.successors and list(lop.successors) != \
                    list(rop.successors):
                return False
            for k, (lo, ro) in enumerate(zip(lop._operands, rop._operands)):
                lv, rv = lo.value, ro.value
                if lv is rv:
                    continue
                l_in = lv.parent_block is lb
                r_in = rv.parent_block is rb
                if l_in != r_in:
                    return False
                if not l_in:
                    if not _valid_successor_arg(lb, lv) or not _valid_successor_arg(rb, rv):
                        return False
                    mismatched.append((i, k))
                    continue
                if lead.order.get(lv) != data.order.get(rv):
                    return False
            if _used_outside(rop.results, rb) or _used_outside(lop.results, lb):
                return False
            lop, rop = lop.next, rop.next
            i += 1
        if lop is not None or rop is not None:
            return False
        self.operands.update(mismatched)
        self.blocks.append(rb)
        return True

    def merge(self, rewriter) -> bool:
        if not self.blocks:
            return False
        leader = self.leader.block
        if self.operands:
            if not all(_is_branch(t) for b in [leader] + self.blocks
                       for t, _ in _predecessor_edges(b)):
                return False
            order = sorted(self.operands)
            all_blocks = [leader] + self.blocks
            ops_of = [list(b.ops) for b in all_blocks]
            n_old = len(leader.args)
            new_args = [[None] * len(order) for _ in all_blocks]
            for k, (op_i, operand_i) in enumerate(order):
                for c, ops in enumerate(ops_of):
                    operand = ops[op_i]._operands[operand_i]
                    v = operand.value
                    new_args[c][k] = v
                    if c == 0:
                        operand.set(leader.add_argument(v.type, _value_loc(v)))
            new_args = _prune_redundant(new_args, rewriter, n_old, leader)
            for c, b in enumerate(all_blocks):
                for t, succ in _predecessor_edges(b):
                    t.append_successor_operands(succ, new_args[c])
                    rewriter.listener.notify_op_modified(t)
        for b in self.blocks:
            for t, succ in _predecessor_edges(b):
                succs = list(t.successors)
                succs[succ] = leader
                t.successors = succs
                rewriter.listener.notify_op_modified(t)
            rewriter.erase_block(b)
        return True


def _prune_redundant(new_args, rewriter, n_old, block):
    """Drop new arguments that repeat an earlier one in every block's list (only the
    first occurrence of each value in the leader's list is considered, as upstream)."""
    if not new_args or not new_args[0]:
        return new_args
    n = len(new_args[0])
    first = {}
    for j, v in enumerate(new_args[0]):
        first.setdefault(v, j)
    replace = {}
    for j in range(n):
        k = first[new_args[0][j]]
        if k == j:
            continue
        if all(lst[k] is lst[j] for lst in new_args[1:]):
            replace[j] = k
    pruned = [[v for j, v in enumerate(lst) if j not in replace] for lst in new_args]
    for j in sorted(replace, reverse=True):
        old = block.args[n_old + j]
        rewriter.replace_all_uses_with(old, block.args[n_old + replace[j]])
    for j in sorted(replace, reverse=True):
        block.erase_argument(n_old + j)
    return pruned


def _merge_in_region(region, rewriter) -> bool:
    if len(region.blocks) < 2:
        return False
    groups: dict = {}
    for b in region.blocks[1:]:
        groups.setdefault(tuple(b.successors), []).append(b)
    merged = False
    for blocks in groups.values():
        if len(blocks) < 2:
            continue
        clusters: list[_Cluster] = []
        for b in blocks:
            if any(r.blocks for op in b.ops for r in op.regions):
                continue
            if _used_outside(b.args, b):
                continue
            data = _BlockData(b)
            for c in clusters:
                if c.try_add(data):
                    break
            else:
                clusters.append(_Cluster(data))
        for c in clusters:
            merged |= c.merge(rewriter)
    return merged


def merge_identical_blocks(regions, rewriter) -> bool:
    """Merge identical blocks in `regions` and the regions nested in them."""
    worklist = list(dict.fromkeys(regions))
    queued = set(worklist)
    changed = False
    while worklist:
        region = worklist.pop()
        queued.discard(region)
        if _merge_in_region(region, rewriter):
            changed = True
            if region not in queued:
                worklist.append(region)
                queued.add(region)
        for b in region.blocks:
            for op in b.ops:
                for r in op.regions:
                    if r not in queued:
                        worklist.append(r)
                        queued.add(r)
    return changed


def _drop_in_block(block, rewriter) -> bool:
    edges = _predecessor_edges(block)
    if not edges:
        return False
    drop = []
    for idx, arg in enumerate(block.args):
        common = None
        same = True
        for t, succ in edges:
            if not _is_branch(t):
                same = False
                break
            vals = t.successor_operands(succ)
            if idx >= len(vals):
                same = False
                break
            v = vals[idx]
            if common is None:
                common = v
            elif v is not common:
                same = False
                break
        if same and common is not None and common is not arg:
            drop.append(idx)
            rewriter.replace_all_uses_with(arg, common)
    for idx in reversed(drop):
        block.erase_argument(idx)
        for t, succ in edges:
            t.erase_successor_operand(succ, idx)
            rewriter.listener.notify_op_modified(t)
    return bool(drop)


def drop_redundant_arguments(regions, rewriter) -> bool:
    """Replace block arguments that every predecessor passes the same value for."""
    worklist = list(dict.fromkeys(regions))
    queued = set(worklist)
    changed = False
    while worklist:
        region = worklist.pop()
        for b in list(region.blocks):
            changed |= _drop_in_block(b, rewriter)
            for op in b.ops:
                for r in op.regions:
                    if r not in queued:
                        worklist.append(r)
                        queued.add(r)
    return changed

