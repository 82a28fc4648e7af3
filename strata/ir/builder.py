"""Builder with insertion points: where new ops go.

    b = Builder.at_end(block)
    c = b.create(arith.ConstantOp, value=IntegerAttr(1, i32), result=i32)
"""
from __future__ import annotations

from .core import Block, Operation

__all__ = ["Builder", "InsertionPoint"]


class InsertionPoint:
    """Insert into `block` before `before` (None: at the end)."""

    __slots__ = ("block", "before")

    def __init__(self, block: Block, before: Operation | None = None):
        self.block = block
        self.before = before

    @classmethod
    def at_end(cls, block):
        return cls(block, None)

    @classmethod
    def at_start(cls, block):
        return cls(block, block.first)

    @classmethod
    def before_op(cls, op):
        return cls(op.parent, op)

    @classmethod
    def after_op(cls, op):
        return cls(op.parent, op.next)


class Builder:
    __slots__ = ("ip", "loc")

    def __init__(self, ip: InsertionPoint | None = None, loc=None):
        self.ip = ip
        self.loc = loc

    @classmethod
    def at_end(cls, block, loc=None):
        return cls(InsertionPoint.at_end(block), loc)

    @classmethod
    def at_start(cls, block, loc=None):
        return cls(InsertionPoint.at_start(block), loc)

    @classmethod
    def before(cls, op, loc=None):
        return cls(InsertionPoint.before_op(op), loc if loc is not None else op.loc)

    @classmethod
    def after(cls, op, loc=None):
        return cls(InsertionPoint.after_op(op), loc if loc is not None else op.loc)

    def set_insertion_point_to_end(self, block):
        self.ip = InsertionPoint.at_end(block)

    def set_insertion_point_to_start(self, block):
        self.ip = InsertionPoint.at_start(block)

    def set_insertion_point_before(self, op):
        self.ip = InsertionPoint.before_op(op)

    def set_insertion_point_after(self, op):
        self.ip = InsertionPoint.after_op(op)

    def insert(self, op: Operation) -> Operation:
        ip = self.ip
        if ip is None:
            return op
        if ip.before is None:
            ip.block.append(op)
        else:
            ip.block.insert_before(ip.before, op)
        return op

    def create(self, op_cls, **kw) -> Operation:
        """Build an op from its declared names (see Op.build) and insert it."""
        if "loc" not in kw and self.loc is not None:
            kw["loc"] = self.loc
        return self.insert(op_cls.build(**kw))

    def create_block(self, region, arg_types=(), arg_locs=None) -> Block:
        """Append a new block to `region` and move the insertion point to its end."""
        b = region.add_block(Block(arg_types, arg_locs))
        self.ip = InsertionPoint.at_end(b)
        return b
