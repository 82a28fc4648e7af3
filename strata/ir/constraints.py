"""Type and attribute constraints used by op declarations (like ODS TypeConstraint).

A constraint is a predicate with a summary; the summary is what the verifier prints:
`'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'`.
"""
from __future__ import annotations

from . import attributes as A

__all__ = ["Constraint", "AnyType", "AnyAttr", "type_is", "attr_is", "any_of"]


class Constraint:
    # type_kind: (classes, name) when the constraint names one kind of builtin type, as
    # an ODS type constraint with a C++ type does: the custom syntax then refuses another
    # kind where it parses the type ("invalid kind of type specified: expected <name>").
    __slots__ = ("check", "summary", "type_kind")

    def __init__(self, check, summary: str):
        # Types and attributes are uniqued and immutable, so a constraint's answer for
        # one of them never changes: memoize it (the verifier asks the same questions
        # about `i32` tens of thousands of times).
        memo: dict = {}

        # (not an attribute uniqued weakly, whose life the memo would prolong: see
        # [Note: blob lifetimes] in ir/dense.py)
        def cached(x, _get=memo.get, _memo=memo, _check=check, _weak=A.WEAKLY_UNIQUED):
            try:
                r = _get(x)
            except TypeError:  # unhashable: not a uniqued value; just check
                return bool(_check(x))
            if r is None:
                r = bool(_check(x))
                if type(x) not in _weak:
                    _memo[x] = r
            return r

        self.check = cached
        self.summary = summary
        self.type_kind = None

    def __or__(self, other: "Constraint") -> "Constraint":
        return any_of(self, other)

    def __repr__(self):
        return f"<Constraint {self.summary}>"


def any_of(*cs: Constraint, summary: str | None = None) -> Constraint:
    checks = tuple(c.check for c in cs)
    return Constraint(lambda x: any(c(x) for c in checks),
                      summary or " or ".join(c.summary for c in cs))


def type_is(*classes, summary: str) -> Constraint:
    return Constraint(lambda t: isinstance(t, classes), summary)


def attr_is(*classes, summary: str) -> Constraint:
    return Constraint(lambda a: isinstance(a, classes), summary)


AnyType = Constraint(lambda t: isinstance(t, A.Type), "any type")
AnyAttr = Constraint(lambda a: isinstance(a, A.Attribute), "any attribute")


def _signless_int(t):
    return type(t) is A.IntegerType and t.signedness == 0


def _is_int_or_index(t):
    return (type(t) is A.IntegerType and t.signedness == 0) or type(t) is A.IndexType


def _is_float(t):
    return type(t) is A.FloatType


def _is_vector_or_tensor(t):
    return isinstance(t, (A.VectorType, A.RankedTensorType, A.UnrankedTensorType))


def _like(scalar_check):
    def check(t):
        if scalar_check(t):
            return True
        if _is_vector_or_tensor(t):
            return scalar_check(t.element_type)
        return False
    return check


SignlessInteger = Constraint(_signless_int, "signless integer")
Index = Constraint(lambda t: type(t) is A.IndexType, "index")
AnyInteger = Constraint(lambda t: type(t) is A.IntegerType, "integer")
AnyFloat = Constraint(_is_float, "floating-point")
I1 = Constraint(lambda t: t is A.i1, "1-bit signless integer")
SignlessIntegerOrIndex = Constraint(_is_int_or_index, "signless integer or index")
SignlessIntegerLike = Constraint(_like(_is_int_or_index), "signless-integer-like")
SignlessIntegerOrFloatLike = Constraint(
    _like(lambda t: _is_int_or_index(t) or _is_float(t)), "signless-integer-or-float-like")
FloatLike = Constraint(_like(_is_float), "floating-point-like")
BoolLike = Constraint(_like(lambda t: t is A.i1), "bool-like")
AnyTensor = Constraint(lambda t: isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)),
                       "tensor of any type values")
AnyRankedTensor = Constraint(lambda t: type(t) is A.RankedTensorType,
                             "ranked tensor of any type values")
AnyTensor.type_kind = ((A.RankedTensorType, A.UnrankedTensorType), None)  # TensorType
AnyRankedTensor.type_kind = ((A.RankedTensorType,), "builtin.tensor")
AnyMemRef = Constraint(lambda t: isinstance(t, (A.MemRefType, A.UnrankedMemRefType)),
                       "memref of any type values")
AnyVector = Constraint(lambda t: type(t) is A.VectorType, "vector of any type values")
AnyShaped = Constraint(lambda t: isinstance(t, A.ShapedType), "shaped of any type values")
FunctionTypeC = Constraint(lambda t: type(t) is A.FunctionType, "function type")

# ---- attribute constraints
StrAttr = Constraint(lambda a: type(a) is A.StringAttr, "string attribute")
SymbolNameAttr = StrAttr
UnitAttrC = Constraint(lambda a: type(a) is A.UnitAttr, "unit attribute")
BoolAttrC = Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i1,
                       "bool attribute")
ArrayAttrC = Constraint(lambda a: type(a) is A.ArrayAttr, "array attribute")
DictArrayAttrC = Constraint(lambda a: type(a) is A.ArrayAttr and
                            all(type(d) is A.DictionaryAttr for d in a),
                            "Array of dictionary attributes")
DictAttrC = Constraint(lambda a: type(a) is A.DictionaryAttr, "dictionary of named attribute values")
TypeAttrC = Constraint(lambda a: type(a) is A.TypeAttr, "any type attribute")
FunctionTypeAttr = Constraint(lambda a: type(a) is A.TypeAttr and type(a.value) is A.FunctionType,
                              "type attribute of function type")
FlatSymbolRefAttr = Constraint(lambda a: type(a) is A.SymbolRefAttr and not a.nested,
                               "flat symbol reference attribute")
SymbolRefAttrC = Constraint(lambda a: type(a) is A.SymbolRefAttr, "symbol reference attribute")
TypedAttr = Constraint(lambda a: hasattr(a, "type") and isinstance(getattr(a, "type"), A.Type),
                       "TypedAttr instance")


def IntegerAttrOf(width: int | None, summary: str | None = None) -> Constraint:
    def check(a):
        if type(a) is not A.IntegerAttr:
            return False
        if width is None:
            return True
        t = a.type
        return type(t) is A.IntegerType and t.width == width
    return Constraint(check, summary or f"{width}-bit signless integer attribute")


I32Attr = IntegerAttrOf(32)
I64Attr = IntegerAttrOf(64)
IndexAttr = Constraint(lambda a: type(a) is A.IntegerAttr and type(a.type) is A.IndexType,
                       "index attribute")
AnyIntegerAttr = IntegerAttrOf(None, "arbitrary integer attribute")
F32Attr = Constraint(lambda a: type(a) is A.FloatAttr and a.type is A.f32,
                     "32-bit float attribute")


def DenseArrayOf(width: int, kind: str = "i") -> Constraint:
    def check(a):
        if type(a) is not A.DenseArrayAttr:
            return False
        t = a.element_type
        if kind == "i":
            return type(t) is A.IntegerType and t.width == width
        return type(t) is A.FloatType and t.width == width
    return Constraint(check, f"{kind}{width} dense array attribute")


DenseI32Array = DenseArrayOf(32)
DenseI64Array = DenseArrayOf(64)
DenseBoolArray = DenseArrayOf(1)
