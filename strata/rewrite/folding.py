"""Folding: ops computing constants or forwarding values, and constant uniquing.

An op class may define `fold(self, operands)`: `operands` holds, per operand, the
constant Attribute it is known to be (from a ConstantLike defining op) or None. It
returns None (no fold), or one result per op result: an Attribute (a constant, which the
op's dialect materializes) or an existing Value. Returning the op's own results means it
was updated in place.

OperationFolder follows MLIR's: folded constants are uniqued per region that is
isolated from above and placed at the start of its entry block, in the order they are
first created, so canonicalized IR shows its constants at the top of each function.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.builder import InsertionPoint
from ..ir.core import Operation, Value
from ..ir.location import UnknownLoc

__all__ = ["constant_value", "fold_op", "OperationFolder", "is_trivially_dead",
           "would_be_trivially_dead"]


def constant_value(v: Value):
    """The Attribute `v` is known to hold (a ConstantLike op's value), or None."""
    op = getattr(v, "owner", None)
    if not isinstance(op, Operation) or T.ConstantLike not in type(op).traits:
        return None
    fn = getattr(op, "constant_value", None)
    if fn is not None:
        return fn()
    return op._props.get("value")


def fold_op(op: Operation):
    """Run `op.fold`; returns None or a list with one Attribute/Value per result."""
    fold = getattr(op, "fold", None)
    consts = [constant_value(o.value) for o in op._operands]
    res = fold(consts) if fold is not None else None
    if res is not None and not isinstance(res, (list, tuple)):
        res = [res]
    if res is None or (len(op.results) == 1 and res[0] is op.results[0]):
        # As upstream, the traits fold when the op's own folder did not (or did so
        # in place).
        traits = _fold_traits(op, consts)
        if traits is not None:
            return traits
    if res is None:
        return None
    if len(res) != len(op.results):
        return None
    return list(res)


def _fold_traits(op: Operation, consts):
    """Folds that traits imply, in trait order: Commutative, Idempotent, Involution."""
    for t in type(op).traits:
        if t is T.Commutative:
            r = _fold_commutative(op, consts)
        elif t is T.Idempotent or t is T.Involution:
            r = _fold_repeated(op, t is T.Idempotent)
        else:
            continue
        if r is not None:
            return r
    return None


def _fold_repeated(op: Operation, idempotent: bool):
    """f(f(x)) -> f(x) (Idempotent) or x (Involution) for a unary op; f(x, x) -> x for
    a binary Idempotent op."""
    ops = op._operands
    if len(op.results) != 1:
        return None
    if len(ops) == 1:
        inner = getattr(ops[0].value, "owner", None)
        if isinstance(inner, Operation) and inner.name == op.name:
            return [ops[0].value] if idempotent else [inner._operands[0].value]
    elif idempotent and len(ops) == 2 and ops[0].value is ops[1].value:
        return [ops[0].value]
    return None


def _fold_commutative(op: Operation, consts):
    """The Commutative trait's fold (MLIR's foldCommutative): move constant operands
    after the others, in place, so that folders and patterns find them on the right."""
    if T.Commutative not in type(op).traits or len(consts) < 2:
        return None
    order = sorted(range(len(consts)), key=lambda i: consts[i] is not None)
    if order == list(range(len(consts))):
        return None
    op.set_operands([op._operands[i].value for i in order])
    return list(op.results)


def _has_no_effects(op: Operation) -> bool:
    """No memory effects other than allocating its own results (recursively for ops
    with RecursiveMemoryEffects); ops that declare nothing are assumed to have effects."""
    traits = type(op).traits
    if T.RecursiveMemoryEffects in traits:
        for r in op.regions:
            for b in r.blocks:
                for inner in b.ops:
                    if not _has_no_effects(inner):
                        return False
        return True
    if T.Pure in traits or T.NoMemoryEffect in traits or T.ConstantLike in traits:
        return True
    me = T.find_trait(op, T.MemoryEffects)
    if me is not None:
        return all(e == T.MemAlloc for e in me.effects)
    return False


def would_be_trivially_dead(op: Operation) -> bool:
    """True if `op` could be erased once its results are unused (MLIR's
    wouldOpBeTriviallyDead): no side effects, not a terminator, not a symbol."""
    cls = type(op)
    if T.Terminator in cls.traits or T.Symbol in cls.traits:
        return False
    if cls.__name__ == "UnregisteredOp":
        return False
    return _has_no_effects(op)


def is_trivially_dead(op: Operation) -> bool:
    for r in op.results:
        if r.first_use is not None:
            return False
    return would_be_trivially_dead(op)


def _insertion_region(op_block):
    """The region constants are hoisted to: the closest one whose parent op is
    isolated from above (or has no parent)."""
    region = op_block.parent
    while region is not None:
        parent = region.parent
        if parent is None or T.IsolatedFromAbove in type(parent).traits:
            return region
        blk = parent.parent
        if blk is None:
            return region
        region = blk.parent
    return None


class OperationFolder:
    def __init__(self, rewriter):
        self.rewriter = rewriter
        self.scopes: dict = {}   # region -> {(dialect, value, type): constant op}
        self.owned: set = set()  # constant ops the folder manages

    def is_folder_owned(self, op) -> bool:
        return op in self.owned

    def notify_removal(self, op):
        if op in self.owned:
            self.owned.discard(op)
            region = None
            for reg, table in self.scopes.items():
                for k, c in list(table.items()):
                    if c is op:
                        del table[k]
                        region = reg
            return region
        return None

    def insert_known_constant(self, op: Operation, value=None) -> bool:
        """Unique a ConstantLike op: replace it by an equal existing constant, or move it
        to the start of its insertion region. Returns True if the IR changed."""
        if op in self.owned:
            return False
        if value is None:
            value = constant_value(op.results[0])
            if value is None:
                return False
        block = op.parent
        if block is None:
            return False
        region = _insertion_region(block)
        if region is None or not region.blocks:
            return False
        table = self.scopes.setdefault(region, {})
        key = (op.dialect_name, value, op.results[0].type)
        existing = table.get(key)
        if existing is not None and existing.parent is not None:
            self.rewriter.replace_op(op, existing.results)
            existing.loc = UnknownLoc() if existing.loc != op.loc else existing.loc
            return True
        insert_block = region.blocks[0]
        changed = False
        if block is not insert_block or (insert_block.first is not op and
                                         op.prev not in self.owned):
            anchor = self._insertion_point(insert_block)
            op.detach()
            if anchor is None:
                insert_block.append(op)
            else:
                insert_block.insert_before(anchor, op)
            self.rewriter.listener.notify_op_modified(op)
            changed = True
        table[key] = op
        self.owned.add(op)
        return changed

    def _insertion_point(self, block):
        op = block.first
        while op is not None and op in self.owned:
            op = op.next
        return op

    def get_or_create_constant(self, at_block, dialect, value, type, loc) -> Value | None:
        region = _insertion_region(at_block)
        table = self.scopes.setdefault(region, {})
        key = (dialect.name, value, type)
        existing = table.get(key)
        if existing is not None and existing.parent is not None:
            return existing.results[0]
        mat = dialect.materialize_constant
        if mat is None:
            return None
        insert_block = region.blocks[0]
        anchor = self._insertion_point(insert_block)
        saved = self.rewriter.ip
        self.rewriter.ip = InsertionPoint(insert_block, anchor)
        try:
            op = mat(self.rewriter, value, type, loc)
        finally:
            self.rewriter.ip = saved
        if op is None:
            return None
        # The materialized op may fold to a different canonical key; use it as-is.
        table[key] = op
        self.owned.add(op)
        return op.results[0]

    def try_fold(self, op: Operation, dialects) -> bool:
        """Fold `op`; replace its results (materializing constants). True if changed."""
        res = fold_op(op)
        if res is None:
            return False
        if all(v is r for v, r in zip(res, op.results)):
            self.rewriter.listener.notify_op_modified(op)  # folded in place
            return True
        values = []
        for v, r in zip(res, op.results):
            if isinstance(v, Value):
                values.append(v)
                continue
            d = dialects.get(op.dialect_name)
            if d is None:
                return False
            c = self.get_or_create_constant(op.parent, d, v, r.type, op.loc)
            if c is None:
                return False
            values.append(c)
        self.rewriter.replace_op(op, values)
        return True
