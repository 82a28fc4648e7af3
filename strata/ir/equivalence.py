"""Structural equality of ops and regions, ignoring SSA names (and locations on request).

Two ops are equivalent when they have the same name, properties, attributes, result
types and successors/regions shape, and their operands correspond: values defined inside
the compared ops must map one-to-one in definition order, values from outside must be
the same value.
"""
from __future__ import annotations

from . import traits as T
from .core import Operation, Region

__all__ = ["ops_equivalent", "regions_equivalent", "structural_key", "structural_hash",
           "shallow_key", "op_hash"]


def ops_equivalent(a: Operation, b: Operation, ignore_locations: bool = True) -> bool:
    return _ops(a, b, {}, ignore_locations)


def regions_equivalent(a: Region, b: Region, ignore_locations: bool = True) -> bool:
    return _regions(a, b, {}, ignore_locations)


def _ops(a, b, m, ignore_locations):
    if a.name != b.name or len(a.results) != len(b.results) or \
            len(a._operands) != len(b._operands) or len(a.regions) != len(b.regions) or \
            len(a.successors) != len(b.successors):
        return False
    if dict(a._props) != dict(b._props) or dict(a._attrs) != dict(b._attrs):
        return False
    if not ignore_locations and a.loc != b.loc:
        return False
    for x, y in zip(a.results, b.results):
        if x.type is not y.type:
            return False
    for x, y in zip(a._operands, b._operands):
        if m.get(x.value, x.value) is not y.value:
            return False
    for x, y in zip(a.successors, b.successors):
        if m.get(x) is not y:
            return False
    for x, y in zip(a.results, b.results):
        m[x] = y
    for x, y in zip(a.regions, b.regions):
        if not _regions(x, y, m, ignore_locations):
            return False
    return True


def _regions(a, b, m, ignore_locations):
    if len(a.blocks) != len(b.blocks):
        return False
    for x, y in zip(a.blocks, b.blocks):
        if len(x.args) != len(y.args):
            return False
        m[x] = y
        for p, q in zip(x.args, y.args):
            if p.type is not q.type:
                return False
            m[p] = q
    for x, y in zip(a.blocks, b.blocks):
        ox, oy = x.first, y.first
        while ox is not None and oy is not None:
            if not _ops(ox, oy, m, ignore_locations):
                return False
            ox, oy = ox.next, oy.next
        if ox is not None or oy is not None:
            return False
    return True


# ---------------------------------------------------------------------------- hashing
#
# [Note: structural keys]
# `structural_key(op)` is a hashable tuple that two ops share exactly when they are
# equivalent in the sense upstream's CSE uses (OperationEquivalence with locations
# ignored): same name, properties, discardable attributes and result types, operands
# that are the same values, and regions of the same shape whose ops are pairwise
# equivalent. Values defined inside the op (block arguments, results of nested ops) are
# numbered in the order the comparison meets them; a use of a value that is not yet
# numbered there (a forward reference in a graph region) keeps the value object itself,
# which never equals the other op's. Successors name a block by its index in its region.
# Operands of Commutative ops compare as a multiset where upstream does: the trailing
# run of operands defined outside the op is sorted; operands inside it stay in order.
# Building the key is linear in the size of the op, and dict lookups on it replace
# upstream's hash-then-compare.

_EMPTY = ()


def dict_key(d) -> tuple:
    """A hashable, order-independent key of an attribute dictionary."""
    if not d:
        return _EMPTY
    if len(d) == 1:
        return tuple(d.items())
    return tuple(sorted(d.items()))  # names are unique: only strings are compared


def _commutative(op) -> bool:
    return T.Commutative in type(op).traits


def _sorted_tail(codes: list) -> tuple:
    """Sort the trailing run of values from outside (not ints) by identity."""
    i = len(codes)
    while i and type(codes[i - 1]) is not int:
        i -= 1
    if len(codes) - i > 1:
        codes[i:] = sorted(codes[i:], key=id)
    return tuple(codes)


def shallow_key(op: Operation, commutative: bool = True) -> tuple:
    """The structural key of an op without regions (see [Note: structural keys])."""
    operands = [o.value for o in op._operands]
    if commutative and len(operands) > 1 and T.Commutative in type(op).traits:
        operands.sort(key=id)
    res = op.results
    return (op.name, tuple(operands),
            (res[0].type,) if len(res) == 1 else tuple(r.type for r in res),
            dict_key(op._props), dict_key(op._attrs), tuple(op.successors), _EMPTY)


def structural_key(op: Operation, commutative: bool = True) -> tuple:
    """A hashable key equal for exactly the ops CSE treats as equivalent (locations and
    SSA names ignored). See [Note: structural keys]."""
    if not op.regions:
        return shallow_key(op, commutative)
    num: dict = {}
    operands = [o.value for o in op._operands]
    if commutative and len(operands) > 1 and T.Commutative in type(op).traits:
        operands.sort(key=id)
    for r in op.results:
        num[r] = len(num)
    return (op.name, tuple(operands), tuple(r.type for r in op.results),
            dict_key(op._props), dict_key(op._attrs), tuple(op.successors),
            tuple(_region_key(r, num, commutative) for r in op.regions))


def _region_key(region, num, commutative):
    blocks = region.blocks
    index = {b: i for i, b in enumerate(blocks)} if len(blocks) > 1 else None
    out = []
    for b in blocks:
        for a in b.args:
            num[a] = len(num)
        ops = []
        op = b.first
        while op is not None:
            ops.append(_nested_key(op, num, commutative, index))
            op = op.next
        out.append((tuple(a.type for a in b.args), tuple(ops)))
    return tuple(out)


def _nested_key(op, num, commutative, index):
    get = num.get
    codes = [get(o.value, o.value) for o in op._operands]
    if commutative and len(codes) > 1 and T.Commutative in type(op).traits:
        codes = _sorted_tail(codes)
    else:
        codes = tuple(codes)
    for r in op.results:
        num[r] = len(num)
    if op.successors:
        succ = tuple(index.get(s, s) if index is not None else s for s in op.successors)
    else:
        succ = _EMPTY
    regions = tuple(_region_key(r, num, commutative) for r in op.regions) \
        if op.regions else _EMPTY
    return (op.name, codes, tuple(r.type for r in op.results), dict_key(op._props),
            dict_key(op._attrs), succ, regions)


def structural_hash(op: Operation, commutative: bool = True) -> int:
    """Hash of `op` including its regions, ignoring SSA names and locations: ops that
    `ops_equivalent` accepts hash alike (values from outside hash by identity)."""
    return hash(structural_key(op, commutative))


def op_hash(op: Operation) -> int:
    """Hash of `op` itself, not looking into its regions (upstream's computeHash): name,
    properties, attributes, result types and operands (as a multiset for Commutative ops)."""
    operands = [o.value for o in op._operands]
    if len(operands) > 1 and T.Commutative in type(op).traits:
        operands.sort(key=id)
    return hash((op.name, tuple(operands), tuple(r.type for r in op.results),
                 dict_key(op._props), dict_key(op._attrs), len(op.regions)))
