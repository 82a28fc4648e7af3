"""Building arith/math computations on scalars (or any ElementwiseMappable operands),
dispatching on the element type: what lowerings to linalg write inside generic bodies.

    s = ScalarBuilder(rewriter, loc)
    y = s.add(x, s.const(1.0, A.f32))
    z = s.cast(y, A.i32)                 # fptosi
    m = s.max(a, b, signed=False)        # maxui for integers, maximumf for floats

Integers are signless; signedness, where it matters, is an argument (`signed=True`), as
arith ops carry it. Float min/max follow ONNX (NaN-propagating: maximumf/minimumf).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.core import Operation

__all__ = ["ScalarBuilder", "op_class", "element_type", "is_float", "is_int", "is_index",
           "with_element_type"]

_OPS: dict = {}


def op_class(name: str):
    """The registered op class for `name` (e.g. "math.exp")."""
    cls = _OPS.get(name)
    if cls is None:
        from ..dialects import all_dialects
        for d in all_dialects():
            _OPS.update(d.ops)
        cls = _OPS.get(name)
        if cls is None:
            raise KeyError(f"no registered op '{name}'")
    return cls


def element_type(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


def is_float(t) -> bool:
    return type(element_type(t)) is A.FloatType


def is_int(t) -> bool:
    return type(element_type(t)) is A.IntegerType


def is_index(t) -> bool:
    return type(element_type(t)) is A.IndexType


_CMP_I = {("eq", True): 0, ("ne", True): 1, ("lt", True): 2, ("le", True): 3,
          ("gt", True): 4, ("ge", True): 5, ("lt", False): 6, ("le", False): 7,
          ("gt", False): 8, ("ge", False): 9}
_CMP_F = {"eq": 1, "gt": 2, "ge": 3, "lt": 4, "le": 5, "ne": 13, "uno": 14}


class ScalarBuilder:
    """Creates arith/math ops before the builder's insertion point (see the module doc)."""

    __slots__ = ("b", "loc")

    def __init__(self, builder, loc=None):
        self.b = builder
        self.loc = loc

    # ------------------------------------------------------------ plumbing
    def op(self, name, operands, result_types, properties=None, regions=0) -> Operation:
        o = op_class(name).create(list(operands), list(result_types), properties,
                                  regions=regions, loc=self.loc)
        return self.b.insert(o)

    def op1(self, name, operands, result_type, properties=None):
        return self.op(name, operands, [result_type], properties).results[0]

    # ------------------------------------------------------------ constants
    def const(self, value, t):
        """`arith.constant` of `value` with type `t` (scalar, or a tensor type: splat or
        an array-like of its shape)."""
        if isinstance(t, A.ShapedType):
            from ..ir.dense import DenseElementsAttr
            attr = DenseElementsAttr(t, value)
        elif type(t) is A.FloatType:
            attr = A.FloatAttr(float(value), t)
        elif type(t) is A.IntegerType and t.width == 1:
            attr = A.IntegerAttr(1 if value else 0, t)
        else:
            attr = A.IntegerAttr(_wrap_int(int(value), t), t)
        return self.op1("arith.constant", [], t, {"value": attr})

    def index(self, value: int):
        return self.const(value, A.index)

    def zero(self, t):
        return self.const(0, t)

    def one(self, t):
        return self.const(1, t)

    def lowest(self, t):
        """The smallest value of the element type (-inf for floats): max's identity."""
        e = element_type(t)
        if type(e) is A.FloatType:
            return self.const(float("-inf"), t)
        if e.width == 1:
            return self.const(0, t)
        return self.const(-(1 << (e.width - 1)), t)

    def highest(self, t, signed=True):
        e = element_type(t)
        if type(e) is A.FloatType:
            return self.const(float("inf"), t)
        if e.width == 1:
            return self.const(1, t)
        return self.const((1 << (e.width - 1)) - 1 if signed else (1 << e.width) - 1, t)

    # ------------------------------------------------------------ arithmetic
    def _bin(self, fop, iop, a, b):
        return self.op1(fop if is_float(a.type) else iop, [a, b], a.type)

    def add(self, a, b):
        return self._bin("arith.addf", "arith.addi", a, b)

    def sub(self, a, b):
        return self._bin("arith.subf", "arith.subi", a, b)

    def mul(self, a, b):
        return self._bin("arith.mulf", "arith.muli", a, b)

    def div(self, a, b, signed=True):
        return self._bin("arith.divf", "arith.divsi" if signed else "arith.divui", a, b)

    def rem(self, a, b, signed=True):
        return self._bin("arith.remf", "arith.remsi" if signed else "arith.remui", a, b)

    def neg(self, a):
        if is_float(a.type):
            return self.op1("arith.negf", [a], a.type)
        return self.sub(self.zero(a.type), a)

    def max(self, a, b, signed=True):
        return self._bin("arith.maximumf", "arith.maxsi" if signed else "arith.maxui", a, b)

    def min(self, a, b, signed=True):
        return self._bin("arith.minimumf", "arith.minsi" if signed else "arith.minui", a, b)

    def and_(self, a, b):
        return self.op1("arith.andi", [a, b], a.type)

    def or_(self, a, b):
        return self.op1("arith.ori", [a, b], a.type)

    def xor(self, a, b):
        return self.op1("arith.xori", [a, b], a.type)

    def not_(self, a):
        return self.xor(a, self.const(1 if element_type(a.type).width == 1 else -1, a.type))

    def cmp(self, pred: str, a, b, signed=True):
        """Compare with pred in eq, ne, lt, le, gt, ge (ordered for floats, except `ne`
        which is unordered-or-unequal, as ONNX's Not(Equal)); `uno` tests for NaN."""
        t = a.type
        rt = A.i1 if not isinstance(t, A.ShapedType) else with_element_type(t, A.i1)
        if is_float(t):
            return self.op1("arith.cmpf", [a, b], rt,
                            {"predicate": A.IntegerAttr(_CMP_F[pred], A.i64)})
        return self.op1("arith.cmpi", [a, b], rt,
                        {"predicate": A.IntegerAttr(_CMP_I[pred, signed or pred in ("eq", "ne")],
                                                    A.i64)})

    def select(self, c, a, b):
        return self.op1("arith.select", [c, a, b], a.type)

    def math(self, name, *args):
        """`math.<name>` of `args` (result typed like the first)."""
        return self.op1("math." + name, list(args), args[0].type)

    # ------------------------------------------------------------ conversions
    def cast(self, v, to, from_signed=True, to_signed=True):
        """Convert `v` to element type `to` as a C-like numeric conversion: ints widen
        with sign or zero extension (by `from_signed`) and truncate, floats round, floats
        to ints truncate toward zero, anything to i1 is `!= 0`, i1 to anything is 0/1."""
        f = v.type
        if f is to:
            return v
        if type(f) is A.IndexType or type(to) is A.IndexType:
            name = "arith.index_cast" if from_signed or type(f) is A.IndexType \
                else "arith.index_castui"
            if type(f) is A.IntegerType and f.width == 1:
                name = "arith.index_castui"
            if type(to) is A.FloatType:
                return self.cast(self.op1(name, [v], A.i64), to, True)
            if type(f) is A.FloatType:
                return self.op1(name, [self.cast(v, A.i64, True, True)], to)
            return self.op1(name, [v], to)
        if type(to) is A.IntegerType and to.width == 1:
            return self.cmp("ne", v, self.zero(f))
        if type(f) is A.IntegerType:
            if f.width == 1:
                from_signed = False
            if type(to) is A.FloatType:
                return self.op1("arith.sitofp" if from_signed else "arith.uitofp", [v], to)
            if to.width > f.width:
                return self.op1("arith.extsi" if from_signed else "arith.extui", [v], to)
            if to.width < f.width:
                return self.op1("arith.trunci", [v], to)
            return v
        # float source
        if type(to) is A.FloatType:
            if to.width > f.width:
                return self.op1("arith.extf", [v], to)
            if to.width < f.width:
                return self.op1("arith.truncf", [v], to)
            # same width, different format (bf16 <-> f16, f8 variants): through f32
            return self.op1("arith.truncf", [self.op1("arith.extf", [v], A.f32)], to)
        if to.width < 32:
            # through i32, then wrap: defined for every in-range-of-i32 value, and what
            # NumPy (and ml_dtypes for int4/int2) gives
            return self.op1("arith.trunci", [self.op1("arith.fptosi", [v], A.i32)], to)
        return self.op1("arith.fptosi" if to_signed else "arith.fptoui", [v], to)


def with_element_type(t, e):
    """The shaped type `t` with element type `e`."""
    if type(t) is A.RankedTensorType:
        return A.RankedTensorType(t.shape, e, t.encoding)
    if type(t) is A.UnrankedTensorType:
        return A.UnrankedTensorType(e)
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, e, t.scalable_dims)
    raise TypeError(f"no element type to replace in {t}")


def _wrap_int(v: int, t) -> int:
    """`v` as the signed value of a `t`-wide two's complement integer (index: as is)."""
    if type(t) is not A.IntegerType:
        return v
    w = t.width
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v

