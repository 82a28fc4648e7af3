"""Region simplification used by the greedy driver (MLIR's simplifyRegions):
unreachable blocks are erased and dead ops removed; 'aggressive' also merges
identical blocks."""
from __future__ import annotations

from .folding import is_trivially_dead

__all__ = ["simplify_regions", "erase_unreachable_blocks", "run_region_dce"]


def erase_unreachable_blocks(regions, rewriter) -> bool:
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
                b = stack.pop()
                for s in b.successors:
                    if s not in reachable and s.parent is region:
                        reachable.add(s)
                        stack.append(s)
            dead = [b for b in blocks if b not in reachable]
            if dead:
                for b in dead:
                    for op in b.ops:
                        for r in op.results:
                            for u in list(r.uses):
                                if u.owner.parent not in dead:
                                    # A use in a live block dominated by nothing: leave it
                                    # to the verifier; never happens in valid IR.
                                    pass
                for b in dead:
                    rewriter.erase_block(b)
                changed = True
        for b in region.blocks:
            for op in b.ops:
                worklist.extend(op.regions)
    return changed


def run_region_dce(regions, rewriter) -> bool:
    """Erase ops whose results are unused and that have no side effects, innermost and
    last first so that chains of dead ops go in one sweep."""
    changed = False
    for region in regions:
        for b in reversed(region.blocks):
            op = b.last
            while op is not None:
                prev = op.prev
                if op.regions:
                    changed |= run_region_dce(op.regions, rewriter)
                if is_trivially_dead(op):
                    rewriter.erase_op(op)
                    changed = True
                op = prev
    return changed


def simplify_regions(regions, rewriter, aggressive=False) -> bool:
    changed = erase_unreachable_blocks(regions, rewriter)
    changed |= run_region_dce(regions, rewriter)
    if aggressive:
        from .block_merging import merge_identical_blocks
        changed |= merge_identical_blocks(regions, rewriter)
    return changed
