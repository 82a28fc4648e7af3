"""Op traits: properties of an op kind that the verifier and the passes rely on.

A trait is a `Trait` instance listed in an op class's `traits`. Parameterized traits
(`HasParent("func.func")`) are instances of subclasses; `find_trait(op, HasParent)` gets
them. A trait's `verify(op)` returns an error message or None.
"""
from __future__ import annotations

from . import attributes as A

__all__ = [
    "Trait", "Terminator", "NoTerminator", "IsolatedFromAbove", "SingleBlock", "SymbolTable",
    "Symbol", "SameOperandsAndResultType", "SameTypeOperands", "SameOperandsShape",
    "SameOperandsAndResultShape", "SameOperandsElementType",
    "SameOperandsAndResultElementType", "ConstantLike", "Commutative", "Pure",
    "NoMemoryEffect", "AlwaysSpeculatable", "RecursiveMemoryEffects", "ReturnLike",
    "ElementwiseMappable", "AttrSizedOperandSegments", "AttrSizedResultSegments",
    "HasParent", "SingleBlockImplicitTerminator", "AutomaticAllocationScope",
    "GraphRegion", "NoRegionArguments", "AllTypesMatch", "find_trait", "Idempotent",
    "Involution", "HasRecursiveMemoryEffects", "MemoryEffects", "MemRead", "MemWrite",
    "MemAlloc", "MemFree", "AffineScope", "IsolatedFromAboveTrait",
]


class Trait:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def verify(self, op) -> str | None:
        return None

    def __repr__(self):
        return self.name


def find_trait(op_or_cls, kind):
    cls = op_or_cls if isinstance(op_or_cls, type) else type(op_or_cls)
    for t in cls.traits:
        if isinstance(t, kind):
            return t
    return None


class _Terminator(Trait):
    __slots__ = ()

    def verify(self, op):
        b = op.parent
        if b is not None and b.last is not op:
            return "must be the last operation in the parent block"
        return None


class _SameOperandsAndResultType(Trait):
    __slots__ = ()

    def verify(self, op):
        types = [o.value.type for o in op._operands] + [r.type for r in op.results]
        if types and any(t is not types[0] for t in types):
            return "requires the same type for all operands and results"
        return None


class _SameTypeOperands(Trait):
    __slots__ = ()

    def verify(self, op):
        types = [o.value.type for o in op._operands]
        if types and any(t is not types[0] for t in types):
            return "requires all operands to have the same type"
        return None


def _shape_of(t):
    if isinstance(t, A.ShapedType):
        return t.shape if t.has_rank else None
    return ()


def _elem_of(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


class _SameOperandsShape(Trait):
    __slots__ = ("with_results",)

    def __init__(self, name, with_results):
        super().__init__(name)
        self.with_results = with_results

    def verify(self, op):
        types = [o.value.type for o in op._operands]
        if self.with_results:
            types += [r.type for r in op.results]
        shapes = [_shape_of(t) for t in types]
        shapes = [s for s in shapes if s is not None]
        for s in shapes[1:]:
            if len(s) != len(shapes[0]) or any(
                    a != b and a != A.DYNAMIC and b != A.DYNAMIC for a, b in zip(s, shapes[0])):
                return ("requires the same shape for all operands and results"
                        if self.with_results else "requires the same shape for all operands")
        return None


class _SameOperandsElementType(Trait):
    __slots__ = ("with_results",)

    def __init__(self, name, with_results):
        super().__init__(name)
        self.with_results = with_results

    def verify(self, op):
        types = [o.value.type for o in op._operands]
        if self.with_results:
            types += [r.type for r in op.results]
        els = [_elem_of(t) for t in types]
        if els and any(e is not els[0] for e in els):
            return ("requires the same element type for all operands and results"
                    if self.with_results else
                    "requires the same element type for all operands")
        return None


class _SingleBlock(Trait):
    __slots__ = ()

    def verify(self, op):
        for i, r in enumerate(op.regions):
            if len(r.blocks) > 1:
                return f"expects region #{i} to have 0 or 1 blocks"
        return None


class _NoRegionArguments(Trait):
    __slots__ = ()

    def verify(self, op):
        for i, r in enumerate(op.regions):
            if r.blocks and r.blocks[0].args:
                return f"expects region #{i} to have no arguments"
        return None


class AllTypesMatch(Trait):
    """The named operands/results all have the same type (ODS AllTypesMatch)."""

    __slots__ = ("names",)

    def __init__(self, *names):
        super().__init__("AllTypesMatch")
        self.names = names

    def verify(self, op):
        types = [op.value_of(n).type for n in self.names]
        if types and any(t is not types[0] for t in types):
            return f"failed to verify that all of {{{', '.join(self.names)}}} have same type"
        return None


class HasParent(Trait):
    __slots__ = ("parents",)

    def __init__(self, *parents: str):
        super().__init__("HasParent")
        self.parents = parents

    def verify(self, op):
        p = op.parent_op
        if p is None or p.name not in self.parents:
            if len(self.parents) == 1:
                return f"expects parent op '{self.parents[0]}'"
            return "expects parent op to be one of '" + ", ".join(self.parents) + "'"
        return None


class SingleBlockImplicitTerminator(Trait):
    """Single-block regions ending in `terminator`, which custom syntax may elide."""

    __slots__ = ("terminator",)

    def __init__(self, terminator: str):
        super().__init__("SingleBlockImplicitTerminator")
        self.terminator = terminator

    def verify(self, op):
        for r in op.regions:
            if len(r.blocks) > 1:
                return "expects a single block region"
            for b in r.blocks:
                t = b.last
                if t is None or t.name != self.terminator:
                    return (f"expects regions to end with '{self.terminator}', found '"
                            f"{t.name if t is not None else '<none>'}'")
        return None


class MemoryEffects(Trait):
    """Declared memory effects of an op kind (on its operands, results or globally)."""

    __slots__ = ("effects",)

    def __init__(self, *effects):
        super().__init__("MemoryEffects")
        self.effects = effects


MemRead, MemWrite, MemAlloc, MemFree = "read", "write", "allocate", "free"

Terminator = _Terminator("Terminator")
NoTerminator = Trait("NoTerminator")
IsolatedFromAbove = Trait("IsolatedFromAbove")
IsolatedFromAboveTrait = IsolatedFromAbove
SingleBlock = _SingleBlock("SingleBlock")
SymbolTable = Trait("SymbolTable")
Symbol = Trait("Symbol")
SameOperandsAndResultType = _SameOperandsAndResultType("SameOperandsAndResultType")
SameTypeOperands = _SameTypeOperands("SameTypeOperands")
SameOperandsShape = _SameOperandsShape("SameOperandsShape", False)
SameOperandsAndResultShape = _SameOperandsShape("SameOperandsAndResultShape", True)
SameOperandsElementType = _SameOperandsElementType("SameOperandsElementType", False)
SameOperandsAndResultElementType = _SameOperandsElementType(
    "SameOperandsAndResultElementType", True)
ConstantLike = Trait("ConstantLike")
Commutative = Trait("Commutative")
Idempotent = Trait("Idempotent")
Involution = Trait("Involution")
NoMemoryEffect = Trait("NoMemoryEffect")
AlwaysSpeculatable = Trait("AlwaysSpeculatable")
Pure = Trait("Pure")  # NoMemoryEffect + AlwaysSpeculatable
RecursiveMemoryEffects = Trait("RecursiveMemoryEffects")
HasRecursiveMemoryEffects = RecursiveMemoryEffects
ReturnLike = Trait("ReturnLike")
ElementwiseMappable = Trait("ElementwiseMappable")
AttrSizedOperandSegments = Trait("AttrSizedOperandSegments")
AttrSizedResultSegments = Trait("AttrSizedResultSegments")
AutomaticAllocationScope = Trait("AutomaticAllocationScope")
AffineScope = Trait("AffineScope")
GraphRegion = Trait("GraphRegion")  # regions are graph regions (no dominance)
NoRegionArguments = _NoRegionArguments("NoRegionArguments")


def is_pure(op) -> bool:
    ts = type(op).traits
    return Pure in ts or NoMemoryEffect in ts or ConstantLike in ts
