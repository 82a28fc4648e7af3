"""Canonicalization patterns for any op with region control flow (MLIR's
RegionBranchOpInterface patterns): drop the values that flow between its regions when
nothing reads them, and inline its regions when control can only take one path.

    from strata.rewrite.region_branch import (region_branch_patterns,
                                              InlineRegionBranchOp)
    patterns = region_branch_patterns("scf.for") + [InlineRegionBranchOp("scf.for")]

[Note: the region branch interface]
An op takes part by answering, as scf's ops do (see strata/dialects/scf.py):
  `region_successors(src, operands=None)`: where control goes from the op itself (`src`
      None) or from the end of its region `src`: (region, or None for "out to the
      results"; the values receiving what is forwarded). With `operands` (a constant
      Attribute or None per operand), only where a constant can send it;
  `entry_successor_operand_range(target)`: (start, count) of the op's operands it
      forwards into `target`;
and its regions end in terminators answering `region_successor_operand_range(target)`
(the operands they forward) and, when constants decide where they go,
`terminator_successors(operands)`.

[Note: successor inputs]
A successor input is a value that receives forwarded values: a result of the op or an
argument of a region's entry block. Inputs that must go together ("tied": the iteration
argument of a loop and the matching result, since one forwarded operand reaches both)
are only removed together, with every operand forwarded to them. Other region arguments
(a loop's induction variable) are not inputs.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.builder import InsertionPoint
from ..ir.core import BlockArgument, OpResult
from .folding import constant_value
from .pattern import RewritePattern

__all__ = ["region_branch_patterns", "MakeRegionBranchOpSuccessorInputsDead",
           "RemoveDuplicateSuccessorInputUses", "RemoveDeadRegionBranchOpSuccessorInputs",
           "InlineRegionBranchOp", "successor_operand_input_mapping", "erase_op_results",
           "single_acyclic_path"]


# ---------------------------------------------------------------------- the mapping


def _branch_points(op):
    """(None, None) for the op itself, then (region, terminator) for every block that
    ends in a region branch terminator."""
    points = [(None, None)]
    for r in op.regions:
        for b in r.blocks:
            t = b.last
            if t is not None and hasattr(t, "region_successor_operand_range"):
                points.append((r, t))
    return points


def successor_operand_input_mapping(op):
    """{OpOperand: [successor inputs it reaches]} over every edge of `op`, in the order
    of the branch points (the op, then each region's terminators) and their successors."""
    mapping = {}
    for region, term in _branch_points(op):
        for target, inputs in op.region_successors(region):
            if term is None:
                start, n = op.entry_successor_operand_range(target)
                owner = op
            else:
                start, n = term.region_successor_operand_range(target)
                owner = term
            operands = owner.op_operands[start:start + n]
            for opnd, inp in zip(operands, inputs):
                mapping.setdefault(opnd, []).append(inp)
    return mapping


def _invert(mapping):
    """{successor input: [OpOperands forwarded to it]}."""
    inv = {}
    for opnd, inputs in mapping.items():
        for inp in inputs:
            inv.setdefault(inp, []).append(opnd)
    return inv


def _reachable_values(value, inv):
    """The values other than successor inputs that can flow into `value`, following
    forwarded operands back through other inputs."""
    out = set()
    visited = set()
    work = [value]
    while work:
        v = work.pop()
        opnds = inv.get(v)
        if opnds is None:
            out.add(v)
            continue
        for o in opnds:
            w = o.value
            if w not in visited:
                visited.add(w)
                work.append(w)
    return out


def _region_parent(value):
    block = value.parent_block
    region = block.parent if block is not None else None
    return region.parent if region is not None else None


def _defined_before(op, a, b) -> bool:
    """Whether `a` may stand for the successor input `b` of `op` (is in scope there)."""
    if _region_parent(a) is op:
        # Defined in one of op's regions: only another argument of the same block
        # is visible where `b` (a result or an entry argument) is.
        if isinstance(b, OpResult):
            return False
        return isinstance(a, BlockArgument) and a.owner is b.owner
    return True


# ---------------------------------------------------------------------- patterns


class _RegionBranchPattern(RewritePattern):
    def __init__(self, root, benefit=1):
        self.root = root
        self.benefit = benefit


class MakeRegionBranchOpSuccessorInputsDead(_RegionBranchPattern):
    """A successor input that can only ever hold one value defined elsewhere (the loop
    argument yielded back unchanged, a result every region yields the same outer value
    for) is replaced by that value where it is in scope."""

    def match_and_rewrite(self, op, rewriter):
        inv = _invert(successor_operand_input_mapping(op))
        changed = False
        for inp in list(inv):
            if inp.first_use is None:
                continue
            reach = _reachable_values(inp, inv)
            if len(reach) != 1:
                continue
            v = next(iter(reach))
            if not _defined_before(op, v, inp):
                continue
            rewriter.replace_all_uses_with(inp, v)
            changed = True
        return changed


def _owner(v):
    return v.owner


def _number(v) -> int:
    return v.index


class RemoveDuplicateSuccessorInputUses(_RegionBranchPattern):
    """Two inputs of the same block (or two results) that receive the same value on
    every edge are one: uses of the later one move to the earlier one."""

    def match_and_rewrite(self, op, rewriter):
        inv = _invert(successor_operand_input_mapping(op))
        inputs = sorted(inv, key=_number)
        changed = False
        for i, a in enumerate(inputs):
            for b in inputs[i + 1:]:
                if b.first_use is None or _owner(a) is not _owner(b):
                    continue
                fa = {o.owner: o.value for o in inv[a]}
                fb = {o.owner: o.value for o in inv[b]}
                if len(fa) == len(fb) and all(k in fb and fb[k] is v for k, v in fa.items()):
                    rewriter.replace_all_uses_with(b, a)
                    changed = True
        return changed


class RemoveDeadRegionBranchOpSuccessorInputs(_RegionBranchPattern):
    """Successor inputs nobody reads go, with the inputs tied to them and the operands
    forwarded to them (a loop's unused iteration argument and result, an unused result
    of an scf.if and what its regions yield for it)."""

    def match_and_rewrite(self, op, rewriter):
        mapping = successor_operand_input_mapping(op)
        # Tied inputs: one union-find class per set of inputs sharing an operand.
        parent = {}

        def find(x):
            while parent[x] is not x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        order = []

        def union(group):
            for x in group:
                if x not in parent:
                    parent[x] = x
                    order.append(x)
            for x in group[1:]:
                ra, rb = find(group[0]), find(x)
                if ra is not rb:
                    parent[rb] = ra

        for inputs in mapping.values():
            union(inputs)
        # A loop's iteration argument and its result belong together even when a trip
        # count of one removes the back edge that ties them (upstream would leave an
        # invalid scf.for until inlining removes it; the proposed fix ties them so).
        iter_args = getattr(op, "region_iter_args", None)
        if iter_args is not None and len(iter_args) == len(op.results):
            for a, r in zip(iter_args, op.results):
                if a in parent or r in parent:
                    union([a, r])
        classes = {}
        for x in order:
            classes.setdefault(find(x), []).append(x)
        dead = []
        for members in classes.values():
            if all(m.first_use is None for m in members):
                dead.extend(members)
        if not dead:
            return rewriter.notify_match_failure(op, "no values to remove")
        inv = _invert(mapping)
        operands_to_remove = {}
        for v in dead:
            for o in inv.get(v, ()):
                operands_to_remove.setdefault(o.owner, set()).add(o)
        for owner, opnds in operands_to_remove.items():
            rewriter.modify_op_in_place(owner, lambda o=owner, s=opnds: _erase_operands(o, s))
        args_by_block = {}
        results = set()
        for v in dead:
            if isinstance(v, BlockArgument):
                args_by_block.setdefault(v.owner, set()).add(v.index)
            else:
                results.add(v.index)
        for block, idx in args_by_block.items():
            for i in sorted(idx, reverse=True):
                block.erase_argument(i)
            rewriter.modify_op_in_place(block.parent_op)
        if results:
            erase_op_results(rewriter, op, results)
        return True


def _erase_operands(op, operands) -> None:
    """Drop the given OpOperands of `op` (keeping an operand segment sizes property in
    step when the op has one)."""
    keep = [o for o in op.op_operands if o not in operands]
    if T.AttrSizedOperandSegments in type(op).traits:
        seg = op.properties.get("operandSegmentSizes")
        if seg is not None:
            sizes = list(seg.value)
            pos = 0
            for g, n in enumerate(list(sizes)):
                for o in op.op_operands[pos:pos + n]:
                    if o in operands:
                        sizes[g] -= 1
                pos += n
            from ..ir import attributes as A
            op.properties["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, sizes)
    for o in operands:
        o._unlink()
    op._operands = keep


def erase_op_results(rewriter, op, indices):
    """Replace `op` by a copy without the results at `indices` (which must be unused),
    moving its regions over (MLIR's RewriterBase::eraseOpResults)."""
    keep = [r for r in op.results if r.index not in indices]
    new = type(op).create(op.operands, [r.type for r in keep], op.properties,
                          op.attributes, op.successors, len(op.regions), op.loc,
                          name=op.name)
    for old_r, new_r in zip(op.regions, new.regions):
        new_r.take_body(old_r)
    rewriter.ip = InsertionPoint.before_op(op)
    rewriter.insert(new)
    it = iter(new.results)
    rewriter.replace_op(op, [None if r.index in indices else next(it) for r in op.results])
    return new


# ---------------------------------------------------------------------- inlining


def _terminator_successors(op, region, term):
    """Where `term` (ending a block of `region`) can send control, given what is
    constant among its operands."""
    fn = getattr(term, "terminator_successors", None)
    if fn is not None:
        return fn([constant_value(v) for v in term.operands])
    return op.region_successors(region)


def single_acyclic_path(op):
    """The regions control runs through, in order, when constants leave it one path
    from the op back to its results that visits no region twice and only single-block
    regions (an empty list: straight to the results); None if there is no such path.
    Each entry is (region, inputs receiving what flows in)."""
    consts = [constant_value(v) for v in op.operands]
    succs = op.region_successors(None, consts)
    path = []
    seen = set()
    while True:
        if len(succs) != 1:
            return None
        target, inputs = succs[0]
        if target is None:
            return path
        if target in seen or len(target.blocks) != 1:
            return None
        seen.add(target)
        path.append((target, inputs))
        term = target.blocks[0].last
        if term is None or not hasattr(term, "region_successor_operand_range"):
            return None
        succs = _terminator_successors(op, target, term)


class InlineRegionBranchOp(_RegionBranchPattern):
    """When constants leave a single acyclic path through the op (a constant-condition
    scf.if, a loop running once or not at all, scf.execute_region), the regions on the
    path are inlined before it in order and its results become what the last one
    forwards. `replacement(value)` gives the value for a region argument that is not
    a successor input (scf.for's induction variable: the lower bound); `matcher(op)`
    may refuse an op."""

    def __init__(self, root, replacement=None, matcher=None, benefit=1):
        super().__init__(root, benefit)
        self.replacement = replacement
        self.matcher = matcher

    def match_and_rewrite(self, op, rewriter):
        if self.matcher is not None and not self.matcher(op):
            return False
        path = single_acyclic_path(op)
        if path is None:
            return rewriter.notify_match_failure(op, "no single acyclic path")
        # Check first that every region argument gets a value.
        for region, inputs in path:
            ins = set(inputs)
            for a in region.blocks[0].args:
                if a not in ins and self.replacement is None:
                    return False
        first = path[0][0] if path else None
        start, n = op.entry_successor_operand_range(first)
        values = op.operands[start:start + n]
        for region, inputs in path:
            block = region.blocks[0]
            term = block.last
            pos = {a: i for i, a in enumerate(inputs)}
            args = []
            for a in block.args:
                i = pos.get(a)
                if i is not None:
                    args.append(values[i])
                else:
                    rewriter.ip = InsertionPoint.before_op(op)
                    args.append(self.replacement(a))
            nxt = _terminator_successors(op, region, term)[0][0]
            s, k = term.region_successor_operand_range(nxt)
            rewriter.inline_block_before(block, op, args)
            # Read what the terminator forwards once the arguments are replaced.
            values = term.operands[s:s + k]
            rewriter.erase_op(term)
        rewriter.replace_op(op, values)
        return True


def region_branch_patterns(op_name, benefit=1):
    """The three successor-input patterns for ops named `op_name`, in upstream's order
    (MLIR's populateRegionBranchOpInterfaceCanonicalizationPatterns)."""
    return [MakeRegionBranchOpSuccessorInputsDead(op_name, benefit),
            RemoveDuplicateSuccessorInputUses(op_name, benefit),
            RemoveDeadRegionBranchOpSuccessorInputs(op_name, benefit)]
