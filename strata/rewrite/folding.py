"""Folding: ops computing constants or forwarding values, and constant uniquing.

An op class may define `fold(self, operands)`: `operands` holds, per operand, the
constant Attribute it is known to be (from a ConstantLike defining op) or None. It
returns None (no fold), or one result per op result: an Attribute (a constant, which the
op's dialect materializes) or an existing Value. Returning the op's own results means it
was updated in place.

OperationFolder follows MLIR's: constants are uniqued per insertion region (the closest
region whose op is isolated from above) and kept at the start of its entry block. A
constant that is not there moves to the very front (so hoisting a constant found after
other code puts it before the constants hoisted so far, as upstream does); one already
at the front, or right after another uniqued constant, stays. A constant that moved to
another block, or that absorbed a duplicate, loses its location (`loc(unknown)`).
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.builder import InsertionPoint
from ..ir.core import Operation, UnregisteredOp, Value
from ..ir.location import UnknownLoc

__all__ = ["constant_value", "fold_op", "OperationFolder", "is_trivially_dead",
           "would_be_trivially_dead"]


def constant_value(v: Value):
    """The Attribute `v` is known to hold (a ConstantLike op's value), or None."""
    op = getattr(v, "owner", None)
    cls = type(op)
    try:
        get = _CONSTANT_GETTERS[cls]
    except KeyError:
        get = _CONSTANT_GETTERS[cls] = _constant_getter(cls)
    return get(op) if get is not None else None


_CONSTANT_GETTERS: dict = {}  # class of a value's owner -> how to read its constant


def _constant_getter(cls):
    if not (isinstance(cls, type) and issubclass(cls, Operation)) or \
            T.ConstantLike not in cls.traits:
        return None
    fn = getattr(cls, "constant_value", None)
    if fn is not None:
        return fn
    return _value_property


def _value_property(op):
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
        folders = _TRAIT_FOLDERS.get(type(op))
        if folders is None:
            folders = _TRAIT_FOLDERS[type(op)] = _trait_folders(type(op))
        for f in folders:
            r = f(op, consts)
            if r is not None:
                return r
    if res is None:
        return None
    if len(res) != len(op.results):
        return None
    return list(res)


_TRAIT_FOLDERS: dict = {}  # op class -> the folds its traits imply, in trait order


def _trait_folders(cls):
    """Folds that traits imply, in trait order: Commutative, Idempotent, Involution."""
    out = []
    for t in cls.traits:
        if t is T.Commutative:
            out.append(_fold_commutative)
        elif t is T.Idempotent:
            out.append(_fold_idempotent)
        elif t is T.Involution:
            out.append(_fold_involution)
    return tuple(out)


def _fold_idempotent(op, consts):
    return _fold_repeated(op, True)


def _fold_involution(op, consts):
    return _fold_repeated(op, False)


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
    if len(consts) < 2:
        return None
    # Already in order (no constant before a non-constant): the usual case.
    seen_const = False
    for c in consts:
        if c is not None:
            seen_const = True
        elif seen_const:
            break
    else:
        return None
    order = sorted(range(len(consts)), key=lambda i: consts[i] is not None)
    op.set_operands([op._operands[i].value for i in order])
    return list(op.results)


def _has_no_effects(op: Operation) -> bool:
    """No memory effects other than reads and allocating its own results (recursively
    for ops with RecursiveMemoryEffects); ops that declare nothing are assumed to have
    effects."""
    traits = type(op).traits
    if type(op).operand_memory_effects is not None and op.operand_memory_effects():
        return False
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
        return all(e == T.MemAlloc or e == T.MemRead for e in me.effects)
    return False


_DEAD_IF_UNUSED: dict = {}  # op class -> True / False / None (ask the op: recursive)
_UNKNOWN = object()


def would_be_trivially_dead(op: Operation) -> bool:
    """True if `op` could be erased once its results are unused (MLIR's
    wouldOpBeTriviallyDead): no side effects, not a terminator, not a symbol."""
    cls = type(op)
    if cls.operand_memory_effects is not None and op.operand_memory_effects():
        return False
    known = _DEAD_IF_UNUSED.get(cls, _UNKNOWN)
    if known is _UNKNOWN:
        traits = cls.traits
        if T.Terminator in traits or T.Symbol in traits or cls is UnregisteredOp:
            known = False
        elif T.RecursiveMemoryEffects in traits:
            known = None  # depends on the ops inside
        else:
            known = _has_no_effects(op)
        _DEAD_IF_UNUSED[cls] = known
    if known is None:
        return _has_no_effects(op)
    return known


def is_trivially_dead(op: Operation) -> bool:
    for r in op.results:
        if r.first_use is not None:
            return False
    return would_be_trivially_dead(op)


def _insertion_region(block):
    """The region constants are hoisted to (MLIR's getInsertionRegion): the closest one
    whose parent op is isolated from above, unregistered (it might be) or top-level."""
    while block is not None:
        region = block.parent
        if region is None:
            return None
        parent = region.parent
        if parent is None or parent.parent is None:
            return region
        cls = type(parent)
        if cls is UnregisteredOp or T.IsolatedFromAbove in cls.traits:
            return region
        block = parent.parent
    return None


class OperationFolder:
    """Uniques constants per insertion region (see the module note) and folds ops,
    creating the constants they fold to at the start of that region's entry block.

    Moving a constant does not count as a change reported to the rewriter's listener
    (as upstream); replacing or erasing one goes through the rewriter."""

    def __init__(self, rewriter):
        self.rewriter = rewriter
        self.scopes: dict = {}   # region -> {(dialect, value, type): constant op}
        self.owned: dict = {}    # constant op -> its keys in its scope

    def is_folder_owned(self, op) -> bool:
        return op in self.owned

    def notify_removal(self, op):
        """Forget `op` (about to be erased)."""
        keys = self.owned.pop(op, None)
        if keys is None:
            return
        region = _insertion_region(op.parent) if op.parent is not None else None
        table = self.scopes.get(region)
        if table is None:
            for t in self.scopes.values():
                for k in keys:
                    if t.get(k) is op:
                        del t[k]
            return
        for k in keys:
            if table.get(k) is op:
                del table[k]

    def insert_known_constant(self, op: Operation, value=None) -> bool:
        """Record the ConstantLike `op`: replace it by an equal constant seen before in
        its insertion region (returns False: `op` is gone), or keep it as that region's
        constant, moved to the start of the region's entry block unless it is there
        already or right after another such constant (returns True)."""
        block = op.parent
        if op in self.owned:
            if block.first is not op and op.prev not in self.owned:
                _move_to_front(op, block)
                op.loc = UnknownLoc()
            return True
        if value is None:
            value = constant_value(op.results[0])
        region = _insertion_region(block)
        if region is None or not region.blocks:
            return True
        table = self.scopes.setdefault(region, {})
        key = (op.dialect_name, value, op.results[0].type)
        existing = table.get(key)
        if existing is not None:
            self.notify_removal(op)
            self.rewriter.replace_op(op, existing.results)
            existing.loc = UnknownLoc()
            return False
        insert_block = region.blocks[0]
        if block is not insert_block:
            _move_to_front(op, insert_block)
            op.loc = UnknownLoc()
        elif insert_block.first is not op and op.prev not in self.owned:
            _move_to_front(op, insert_block)
        table[key] = op
        self.owned[op] = [key]
        return True

    def get_or_create_constant(self, at_block, dialect, value, type, loc=None):
        """The region's constant for (dialect, value, type), created at the start of its
        entry block when missing; None if the dialect cannot materialize it."""
        region = _insertion_region(at_block)
        if region is None:
            return None
        table = self.scopes.setdefault(region, {})
        op = self._get_or_create(table, region.blocks[0], dialect, value, type)
        return op.results[0] if op is not None else None

    def _get_or_create(self, table, entry, dialect, value, type, loc=None):
        unknown = UnknownLoc()
        key = (dialect.name, value, type)
        existing = table.get(key)
        if existing is not None:
            if loc is not None and existing.loc != loc:
                existing.loc = unknown
            return existing
        mat = dialect.materialize_constant
        if mat is None:
            return None
        saved_ip, saved_loc = self.rewriter.ip, self.rewriter.loc
        self.rewriter.ip = InsertionPoint(entry, entry.first)
        self.rewriter.loc = unknown
        try:
            op = mat(self.rewriter, value, type, unknown)
        finally:
            self.rewriter.ip, self.rewriter.loc = saved_ip, saved_loc
        if op is None:
            return None
        new_key = (op.dialect_name, value, type)
        if new_key != key:
            # Materialized in another dialect: share that dialect's constant if any.
            other = table.get(new_key)
            if other is not None:
                self.rewriter.erase_op(op)
                self.owned[other].append(key)
                table[key] = other
                return other
            table[new_key] = op
            self.owned[op] = [key, new_key]
        else:
            self.owned[op] = [key]
        table[key] = op
        return op

    def try_fold(self, op: Operation, dialects) -> bool:
        """Fold `op` (MLIR's OperationFolder::tryToFold): in place, or replacing its
        results by values and by the region's uniqued constants. True if changed."""
        if op in self.owned:
            block = op.parent
            if block.first is not op and op.prev not in self.owned:
                _move_to_front(op, block)
                op.loc = UnknownLoc()
            return False
        res = fold_op(op)
        if res is None:
            return False
        if all(v is r for v, r in zip(res, op.results)):
            self.rewriter.listener.notify_op_modified(op)  # folded in place
            return True
        region = _insertion_region(op.parent)
        table = self.scopes.setdefault(region, {})
        entry = region.blocks[0]
        values = []
        for v, r in zip(res, op.results):
            if isinstance(v, Value):
                values.append(v)
                continue
            d = dialects.get(op.dialect_name)
            c = self._get_or_create(table, entry, d, v, r.type, UnknownLoc()) \
                if d is not None else None
            if c is None:
                return False
            if c.parent is op.parent and op.parent.first is not c:
                _move_to_front(c, op.parent)
            values.append(c.results[0])
        self.notify_removal(op)
        self.rewriter.replace_op(op, values)
        return True


def _move_to_front(op, block):
    op.detach()
    block.prepend(op)
