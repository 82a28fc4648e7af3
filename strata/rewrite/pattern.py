"""Rewrite patterns and the PatternRewriter that applies their changes.

    class AddZero(RewritePattern):
        root = "arith.addi"
        def match_and_rewrite(self, op, rewriter) -> bool:
            if not is_constant_int(op.rhs, 0):
                return False
            rewriter.replace_op(op, [op.lhs])
            return True

Every change a pattern makes goes through the rewriter, which tells its listener (the
greedy driver's worklist, or dialect conversion's bookkeeping) what was inserted,
replaced, modified or erased.
"""
from __future__ import annotations

from ..ir.builder import Builder, InsertionPoint
from ..ir.core import Block, Operation, Region, Value

__all__ = ["RewritePattern", "PatternRewriter", "Listener", "OpRewritePattern"]


class RewritePattern:
    """A pattern rooted at ops named `root` (None: any op), tried by decreasing
    `benefit`. `match_and_rewrite` returns True when it changed the IR; it must not
    change anything when it returns False."""

    root: str | None = None
    benefit: int = 1
    # Ops this pattern may create; dialect conversion uses it to order patterns.
    generated_ops: tuple = ()

    def match_and_rewrite(self, op: Operation, rewriter: "PatternRewriter") -> bool:
        raise NotImplementedError

    @property
    def debug_name(self):
        return type(self).__name__


OpRewritePattern = RewritePattern


class Listener:
    """Notified of every change made through a rewriter."""

    def notify_op_inserted(self, op: Operation) -> None:
        pass

    def notify_op_erased(self, op: Operation) -> None:
        pass

    def notify_op_replaced(self, op: Operation, values) -> None:
        pass

    def notify_op_modified(self, op: Operation) -> None:
        pass

    def notify_block_inserted(self, block: Block) -> None:
        pass

    def notify_block_erased(self, block: Block) -> None:
        pass

    def notify_match_failure(self, op: Operation, reason: str) -> None:
        pass


class PatternRewriter(Builder):
    """A Builder whose every mutation is reported to a Listener."""

    __slots__ = ("listener",)

    def __init__(self, listener: Listener | None = None, ip=None):
        super().__init__(ip)
        self.listener = listener or Listener()

    # ---------------------------------------------------------------- creation

    def insert(self, op: Operation) -> Operation:
        super().insert(op)
        self._notify_inserted_recursively(op)
        return op

    def _notify_inserted_recursively(self, op):
        self.listener.notify_op_inserted(op)
        for r in op.regions:
            for b in r.blocks:
                for inner in b.ops:
                    self._notify_inserted_recursively(inner)

    def create(self, op_cls, **kw) -> Operation:
        if "loc" not in kw and self.loc is not None:
            kw["loc"] = self.loc
        return self.insert(op_cls.build(**kw))

    def clone(self, op: Operation, mapping=None) -> Operation:
        return self.insert(op.clone(mapping))

    # ---------------------------------------------------------------- replacement

    def replace_op(self, op: Operation, values) -> None:
        """Replace all uses of `op`'s results with `values` (or another op's results)
        and erase `op`."""
        if isinstance(values, Operation):
            values = values.results
        values = list(values)
        if len(values) != len(op.results):
            raise ValueError(f"replace_op: {len(values)} values for {len(op.results)} "
                             f"results of '{op.name}'")
        self.listener.notify_op_replaced(op, values)
        for r, v in zip(op.results, values):
            if v is not None:
                self.replace_all_uses_with(r, v)
        self.erase_op(op)

    def replace_op_with_new(self, op: Operation, op_cls, **kw) -> Operation:
        self.ip = InsertionPoint.before_op(op)
        kw.setdefault("loc", op.loc)
        new = self.create(op_cls, **kw)
        self.replace_op(op, new.results)
        return new

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        for u in list(old.uses):
            self.listener.notify_op_modified(u.owner)
            u.set(new)

    def replace_uses_where(self, old: Value, new: Value, pred) -> None:
        for u in list(old.uses):
            if pred(u):
                self.listener.notify_op_modified(u.owner)
                u.set(new)

    def erase_op(self, op: Operation) -> None:
        """Erase `op` and everything nested; its results must be unused by then.

        Nested ops go first, one at a time, users before definitions (last block and
        last op first), each reported before it goes, so that a listener always sees
        consistent use lists (as MLIR's RewriterBase::eraseOp)."""
        for r in op.results:
            if r.first_use is not None:
                # Uses left inside the erased op itself are fine; others are a bug.
                for u in r.uses:
                    if not op.is_ancestor(u.owner):
                        raise ValueError(f"erase_op: result of '{op.name}' still used by "
                                         f"'{u.owner.name}'")
        self._erase_tree(op)

    def _erase_tree(self, op: Operation) -> None:
        for r in reversed(op.regions):
            for b in reversed(r.blocks):
                self._erase_block_contents(b)
            for b in list(r.blocks):
                self.listener.notify_block_erased(b)
            r.blocks = []
        self.listener.notify_op_erased(op)
        for res in op.results:
            for u in list(res.uses):
                u._unlink()
        op.detach()
        op._drop_references()

    def _erase_block_contents(self, block: Block) -> None:
        op = block.last
        while op is not None:
            prev = op.prev
            self._erase_tree(op)
            op = prev
        for a in block.args:
            for u in list(a.uses):
                u._unlink()

    def erase_block(self, block: Block) -> None:
        """Erase `block` and its ops (uses of its values elsewhere are dropped)."""
        self._erase_block_contents(block)
        self.listener.notify_block_erased(block)
        block.erase()

    # ---------------------------------------------------------------- in-place

    def modify_op_in_place(self, op: Operation, fn=None) -> None:
        """Report that `op` changed (after `fn()` runs, if given)."""
        if fn is not None:
            fn()
        self.listener.notify_op_modified(op)

    def set_operand(self, op: Operation, i: int, value: Value) -> None:
        op.set_operand(i, value)
        self.listener.notify_op_modified(op)

    # ---------------------------------------------------------------- blocks

    def inline_block_before(self, source: Block, op: Operation, args=()) -> None:
        """Move the ops of `source` before `op`, replacing its arguments with `args`,
        and erase `source`."""
        args = list(args)
        for a, v in zip(source.args, args):
            self.replace_all_uses_with(a, v)
        dest = op.parent
        for inner in list(source.ops):
            inner.detach()
            dest.insert_before(op, inner)
            self.listener.notify_op_modified(inner)
        if source.parent is not None:
            source.parent.blocks.remove(source)
            source.parent = None

    def inline_block_at_end(self, source: Block, dest: Block, args=()) -> None:
        for a, v in zip(source.args, list(args)):
            self.replace_all_uses_with(a, v)
        for inner in list(source.ops):
            inner.detach()
            dest.append(inner)
            self.listener.notify_op_modified(inner)
        if source.parent is not None:
            source.parent.blocks.remove(source)
            source.parent = None

    def merge_blocks(self, source: Block, dest: Block, args=()) -> None:
        self.inline_block_at_end(source, dest, args)

    def inline_region_before(self, region: Region, dest: Region, index: int) -> None:
        """Move the blocks of `region` into `dest` at position `index`."""
        blocks = list(region.blocks)
        region.blocks = []
        for i, b in enumerate(blocks):
            b.parent = dest
            dest.blocks.insert(index + i, b)
            self.listener.notify_block_inserted(b)

    def split_block(self, block: Block, before: Operation) -> Block:
        """Move `before` and the ops after it into a new block right after `block`."""
        new = Block()
        region = block.parent
        region.insert_block(region.blocks.index(block) + 1, new)
        op = before
        while op is not None:
            nxt = op.next
            op.detach()
            new.append(op)
            op = nxt
        self.listener.notify_block_inserted(new)
        return new

    def notify_match_failure(self, op: Operation, reason: str) -> bool:
        self.listener.notify_match_failure(op, reason)
        return False
