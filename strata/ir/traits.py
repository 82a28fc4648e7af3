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
    "MemAlloc", "MemFree", "AffineScope", "IsolatedFromAboveTrait", "PredTrait",
    "CastOpInterface", "compatible_shapes",
]


class Trait:
    __slots__ = ("name",)
    # True when `verify` depends only on the op's operand and result types (and passes
    # for an op without regions): the verifier then remembers the verdict per type
    # signature (see verifier._fast_verifier).
    types_only = False

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


class _Symbol(Trait):
    """SymbolOpInterface's own check: a visibility is public, private or nested."""

    __slots__ = ()

    def verify(self, op):
        vis = op._props.get("sym_visibility") or op.attributes.get("sym_visibility")
        if vis is None:
            return None
        v = getattr(vis, "value", None)
        if type(v) is not str:
            return (f"requires visibility attribute 'sym_visibility' to be a string "
                    f"attribute, but got {vis}")
        if v not in ("public", "private", "nested"):
            return (f'visibility expected to be one of ["public", "private", "nested"], but '
                    f'got {vis}')
        return None


class _Terminator(Trait):
    __slots__ = ()

    def verify(self, op):
        b = op.parent
        if b is not None and b.last is not op:
            return "must be the last operation in the parent block"
        return None


def compatible_shapes(a, b) -> bool:
    """MLIR's verifyCompatibleShape: both unshaped, or shaped with equal ranks (an
    unranked type matches any) and dims that are equal or dynamic on one side."""
    sa, sb = isinstance(a, A.ShapedType), isinstance(b, A.ShapedType)
    if not (sa and sb):
        return not (sa or sb)
    if not (a.has_rank and b.has_rank):
        return True
    if len(a.shape) != len(b.shape):
        return False
    return all(x == y or x == A.DYNAMIC or y == A.DYNAMIC for x, y in zip(a.shape, b.shape))


class _SameOperandsAndResultType(Trait):
    """Upstream's check: one element type and compatible shapes (tensor<?xf32> goes with
    tensor<4xf32>), and a ranked tensor encoding shared by all when the first result has
    one. Exact equality is what the custom forms print, not what the verifier demands."""

    __slots__ = ()
    types_only = True

    def verify(self, op):
        if not op._operands or not op.results:
            return None
        first = op.results[0].type
        # Fast path: all types identical (uniqued), the overwhelmingly common case.
        for o in op._operands:
            if o.value.type is not first:
                break
        else:
            if len(op.results) == 1:
                return None
        elt = _elem_of(first)
        enc = getattr(first, "encoding", None) if type(first) is A.RankedTensorType else None
        for t in [r.type for r in op.results[1:]] + [o.value.type for o in op._operands]:
            if _elem_of(t) is not elt or not compatible_shapes(t, first):
                return "requires the same type for all operands and results"
            if enc is not None and type(t) is A.RankedTensorType and t.encoding is not enc:
                return "requires the same encoding for all operands and results"
        return None


class _SameTypeOperands(Trait):
    __slots__ = ()
    types_only = True

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
    types_only = True

    def __init__(self, name, with_results):
        super().__init__(name)
        self.with_results = with_results

    def verify(self, op):
        types = [o.value.type for o in op._operands]
        if self.with_results:
            types += [r.type for r in op.results]
        # As upstream's verifyCompatibleShapes: shaped and unshaped types never agree,
        # unranked agrees with any, and a scalable vector never agrees with a fixed one
        # (upstream compares isScalable(), not which dims are).
        shaped = [isinstance(t, A.ShapedType) for t in types]
        vec = [any(t.scalable_dims) for t in types if isinstance(t, A.VectorType)]
        shapes = [_shape_of(t) for t in types]
        shapes = [s for s in shapes if s is not None]
        mixed = any(shaped) and not all(shaped)
        for s in shapes[1:] if not mixed and len(set(vec)) <= 1 else (None,):
            if s is None or len(s) != len(shapes[0]) or any(
                    a != b and a != A.DYNAMIC and b != A.DYNAMIC for a, b in zip(s, shapes[0])):
                return ("requires the same shape for all operands and results"
                        if self.with_results else "requires the same shape for all operands")
        return None


class _SameOperandsElementType(Trait):
    __slots__ = ("with_results",)
    types_only = True

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


_MAPPABLE = frozenset({A.VectorType, A.RankedTensorType, A.UnrankedTensorType})


class _Elementwise(Trait):
    """ElementwiseMappable (MLIR's Elementwise verifier): vector/tensor operands and
    results go together and share one shape and one kind of container."""

    __slots__ = ()
    types_only = True

    def verify(self, op):
        mappable_types = _MAPPABLE
        for o in op._operands:
            if type(o.value.type) in mappable_types:
                break
        else:
            for r in op.results:
                if type(r.type) in mappable_types:
                    break
            else:
                return None  # all scalars: nothing to check

        def mappable(t):
            return isinstance(t, (A.VectorType, A.RankedTensorType, A.UnrankedTensorType))
        res = [r.type for r in op.results if mappable(r.type)]
        ops = [o.value.type for o in op._operands if mappable(o.value.type)]
        if not res and not ops:
            return None
        if not ops:
            return "if a result is non-scalar, then at least one operand must be non-scalar"
        if not res:
            return ("if an operand is non-scalar, then there must be at least one "
                    "non-scalar result")
        if len(res) != len(op.results):
            return "if an operand is non-scalar, then all results must be non-scalar"
        types = ops + res
        if any(type(t) is not type(types[0]) or not compatible_shapes(t, types[0])
               for t in types) or not _all_compatible(types):
            return "all non-scalar operands/results must have the same shape and base type"
        return None


def _all_compatible(types) -> bool:
    """verifyCompatibleShapes over a list: every ranked dim agrees with the others'."""
    ranked = [t for t in types if t.has_rank]
    if not ranked:
        return True
    rank = len(ranked[0].shape)
    if any(len(t.shape) != rank for t in ranked):
        return False
    for i in range(rank):
        static = {t.shape[i] for t in ranked if t.shape[i] != A.DYNAMIC}
        if len(static) > 1:
            return False
    return True


class _SingleBlock(Trait):
    __slots__ = ()
    types_only = True

    def verify(self, op):
        # (Ops with regions never take the verifier's by-types fast path.)
        for i, r in enumerate(op.regions):
            if len(r.blocks) > 1:
                return f"expects region #{i} to have 0 or 1 blocks"
            # As upstream: the one block of an op that needs terminators holds at least
            # one (checked before the op's own verifier looks for that terminator).
            if r.blocks and r.blocks[0].first is None and NoTerminator not in type(op).traits:
                return "expects a non-empty block"
        return None


class _NoRegionArguments(Trait):
    __slots__ = ()
    types_only = True

    def verify(self, op):
        for i, r in enumerate(op.regions):
            if r.blocks and r.blocks[0].args:
                return f"region #{i} should have no arguments"
        return None


class AllTypesMatch(Trait):
    """The named operands/results all have the same type (ODS AllTypesMatch)."""

    __slots__ = ("names",)
    types_only = True

    def __init__(self, *names):
        super().__init__("AllTypesMatch")
        self.names = names

    def verify(self, op):
        types = [op.value_of(n).type for n in self.names]
        if types and any(t is not types[0] for t in types):
            return f"failed to verify that all of {{{', '.join(self.names)}}} have same type"
        return None


class PredTrait(Trait):
    """ODS's PredOpTrait: `pred(op)` must hold, else "failed to verify that <summary>"."""

    __slots__ = ("pred", "summary")

    def __init__(self, summary: str, pred):
        super().__init__(summary)
        self.summary = summary
        self.pred = pred

    def verify(self, op):
        return None if self.pred(op) else f"failed to verify that {self.summary}"


class _CastOpInterface(Trait):
    """CastOpInterface's verifier: the op class's `are_cast_compatible(ins, outs)`
    (a classmethod on the operand and result types) must accept the op's types."""

    __slots__ = ()
    types_only = True

    def verify(self, op):
        ins = [o.value.type for o in op._operands]
        outs = [r.type for r in op.results]
        if not outs:
            return "expected at least one result for cast operation"
        if type(op).are_cast_compatible(ins, outs):
            return None
        quoted = ", ".join(f"'{t}'" for t in ins)
        what = "operand types []" if not ins else (
            f"operand type {quoted}" if len(ins) == 1 else f"operand types {quoted}")
        res = ", ".join(f"'{t}'" for t in outs)
        res = f"result type {res}" if len(outs) == 1 else f"result types {res}"
        return f"{what} and {res} are cast incompatible"


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
        return SingleBlock.verify(op)

    def verify_regions(self, op):
        """After the nested ops (a region trait upstream): the terminator's kind. Empty
        regions are fine; an empty block was already reported by the verifier."""
        for r in op.regions:
            for b in r.blocks[:1]:
                t = b.last
                if t is not None and t.name != self.terminator:
                    from .diagnostics import ERROR, Diagnostic, DiagnosticError
                    d = Diagnostic(ERROR, op.loc, f"'{op.name}' op expects regions to end "
                                   f"with '{self.terminator}', found '{t.name}'")
                    d.attach_note("in custom textual format, the absence of terminator "
                                  f"implies '{self.terminator}'")
                    raise DiagnosticError(d)
        return None


_SYMBOL_USE_HOOKS: dict = {}  # op class -> its verify_symbol_uses or None
_UNSET = object()


class _SymbolTable(Trait):
    """The op's single block holds symbols with unique names; the outermost symbol
    table also checks every symbol use below it (ops with `verify_symbol_uses()`,
    upstream's SymbolUserOpInterface) once everything nested is verified."""

    __slots__ = ()

    def verify(self, op):
        if len(op.regions) != 1:
            return "Operations with a 'SymbolTable' must have exactly one region"
        if len(op.regions[0].blocks) != 1:
            return "Operations with a 'SymbolTable' must have exactly one block"
        return None

    def verify_regions(self, op):
        from .diagnostics import ERROR, Diagnostic, DiagnosticError
        from .symbol_table import symbol_name
        seen = {}
        for child in op.regions[0].blocks[0].ops:
            name = symbol_name(child)
            if name is None:
                continue
            first = seen.get(name)
            if first is not None:
                d = Diagnostic(ERROR, child.loc, f"redefinition of symbol named '{name}'")
                d.op = child
                d.attach_note("see existing symbol definition here", first.loc)
                raise DiagnosticError(d)
            seen[name] = child
        parent = op.parent_op
        if parent is None or self not in type(parent).traits:
            from .symbol_table import frozen_symbol_lookups
            with frozen_symbol_lookups():
                return self._verify_symbol_uses(op)
        return None

    @staticmethod
    def _verify_symbol_uses(op):
        """Every symbol use below `op` (their ops' `verify_symbol_uses()`); the IR does
        not change meanwhile, so lookups may cache the tables (frozen_symbol_lookups)."""
        from .diagnostics import ERROR, Diagnostic, DiagnosticError
        hooks = _SYMBOL_USE_HOOKS
        for nested in op.walk(post_order=False):
            cls = type(nested)
            hook = hooks.get(cls, _UNSET)
            if hook is _UNSET:
                hook = hooks[cls] = getattr(cls, "verify_symbol_uses", None)
            if hook is not None:
                err = hook(nested)  # a message, or (message, [notes at the op])
                if err:
                    msg, notes = err if isinstance(err, tuple) else (err, ())
                    d = Diagnostic(ERROR, nested.loc, f"'{nested.name}' op {msg}")
                    d.op = nested
                    for n in notes:
                        d.attach_note(n)
                    raise DiagnosticError(d)
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
SymbolTable = _SymbolTable("SymbolTable")
Symbol = _Symbol("Symbol")
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
ElementwiseMappable = _Elementwise("ElementwiseMappable")
AttrSizedOperandSegments = Trait("AttrSizedOperandSegments")
AttrSizedResultSegments = Trait("AttrSizedResultSegments")
AutomaticAllocationScope = Trait("AutomaticAllocationScope")
AffineScope = Trait("AffineScope")
GraphRegion = Trait("GraphRegion")  # regions are graph regions (no dominance)
NoRegionArguments = _NoRegionArguments("NoRegionArguments")
CastOpInterface = _CastOpInterface("CastOpInterface")


def is_pure(op) -> bool:
    ts = type(op).traits
    return Pure in ts or NoMemoryEffect in ts or ConstantLike in ts
