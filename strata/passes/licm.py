"""`loop-invariant-code-motion`: hoist loop-invariant ops out of loops, as upstream's
LoopInvariantCodeMotion pass.

    scf.for %i = %lb to %ub step %s {         %y = arith.addi %a, %b : i32
      %y = arith.addi %a, %b : i32      =>    scf.for %i = %lb to %ub step %s {
      "use"(%y) : (i32) -> ()                   "use"(%y) : (i32) -> ()

Loops are the ops with the LoopLikeOpInterface methods (`loop_regions()`,
`is_defined_outside_loop(value)`, `move_out_of_loop(op)`: scf.for, scf.while,
scf.parallel, scf.forall). They are visited innermost first (a post-order walk), so an
op hoisted out of an inner loop may then leave the outer one too. In each loop region, a
queue starts with the region's top-level ops in order; an op moves in front of the loop
when it has no memory effects (nested ops included), is speculatable (it cannot fault or
hang when run although the loop would not have run it), is no terminator, and every
value it or its nested ops use comes from outside the loop or from inside the op
itself. Users of a moved op are queued again.

Speculatability follows upstream's ConditionallySpeculatable: an op class may define
`speculatability()` returning "speculatable", "recursive" (as speculatable as the ops
of its regions) or "not"; otherwise Pure and AlwaysSpeculatable ops are speculatable.
"""
from __future__ import annotations

from collections import deque

from ..ir import traits as T
from .pass_manager import Pass

__all__ = ["LoopInvariantCodeMotion", "move_loop_invariant_code", "is_memory_effect_free",
           "is_speculatable", "is_loop_like"]


def is_loop_like(op) -> bool:
    return hasattr(type(op), "loop_regions")


def _declares_effects(cls):
    """Whether the op kind states its memory effects (MemoryEffectOpInterface), and
    whether it states that there are none."""
    traits = cls.traits
    if T.Pure in traits or T.NoMemoryEffect in traits or T.ConstantLike in traits:
        return True, True
    for t in traits:
        if isinstance(t, T.MemoryEffects):
            return True, not t.effects
    return False, False


def is_memory_effect_free(op) -> bool:
    """Upstream's isMemoryEffectFree: no effect at all (allocation included), looking
    inside ops with recursive memory effects; ops that declare nothing have effects."""
    if type(op).operand_memory_effects is not None and op.operand_memory_effects():
        return False
    declares, none = _declares_effects(type(op))
    recursive = T.RecursiveMemoryEffects in type(op).traits
    if declares:
        if not none:
            return False
        if not recursive:
            return True
    elif not recursive:
        return False
    for r in op.regions:
        for b in r.blocks:
            for inner in b.ops:
                if not is_memory_effect_free(inner):
                    return False
    return True


def is_speculatable(op) -> bool:
    fn = getattr(op, "speculatability", None)
    if fn is not None:
        kind = fn()
    elif T.Pure in type(op).traits or T.AlwaysSpeculatable in type(op).traits:
        kind = "speculatable"
    else:
        return False
    if kind == "speculatable":
        return True
    if kind == "recursive":
        return all(is_speculatable(inner) for r in op.regions for b in r.blocks
                   for inner in b.ops)
    return False


def _region_parent_op(value):
    block = value.parent_block
    region = block.parent if block is not None else None
    return region.parent if region is not None else None


def _can_be_hoisted(op, loop) -> bool:
    """No terminator, and all values used by `op` and its nested ops come from outside
    the loop or from inside `op`."""
    if T.Terminator in type(op).traits:
        return False
    for child in op.walk():
        for o in child.op_operands:
            v = o.value
            owner = _region_parent_op(v)
            if owner is not None and op.is_ancestor(owner):
                continue
            if not loop.is_defined_outside_loop(v):
                return False
    return True


def move_loop_invariant_code(loop) -> int:
    """Hoist what can leave `loop`; returns the number of ops moved."""
    moved = 0
    for region in loop.loop_regions():
        queue = deque(op for b in region.blocks for op in b.ops)
        while queue:
            op = queue.popleft()
            if op.parent_region is not region:
                continue  # already moved
            if not (is_memory_effect_free(op) and is_speculatable(op)) or \
                    not _can_be_hoisted(op, loop):
                continue
            loop.move_out_of_loop(op)
            moved += 1
            for r in op.results:
                for user in r.users:
                    if user.parent_region is region:
                        queue.append(user)
    return moved


class LoopInvariantCodeMotion(Pass):
    name = "loop-invariant-code-motion"
    summary = "Hoist loop invariant instructions outside of the loop"

    def run(self, op):
        for inner in op.walk():
            if is_loop_like(inner):
                move_loop_invariant_code(inner)
