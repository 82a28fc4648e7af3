"""Structural equality of ops and regions, ignoring SSA names (and locations on request).

Two ops are equivalent when they have the same name, properties, attributes, result
types and successors/regions shape, and their operands correspond: values defined inside
the compared ops must map one-to-one in definition order, values from outside must be
the same value.
"""
from __future__ import annotations

from .core import Operation, Region

__all__ = ["ops_equivalent", "regions_equivalent"]


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
