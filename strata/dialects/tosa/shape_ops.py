"""TOSA shape operators: integer arithmetic on `!tosa.shape<N>` values, resolved at
compile time (the "shape" extension upstream has beside TOSA 1.0).

    %s = tosa.add_shape %a, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
    %d = tosa.dim %x axis(1) : (tensor<2x3xf32>) -> !tosa.shape<1>
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Operand, Result, VarOperand
from . import base as B
from .base import TosaOp


_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1


def _dims(attr):
    """The dims of a constant shape operand (a DenseElementsAttr), else None."""
    from ...ir.dense import DenseElementsAttr
    if not isinstance(attr, DenseElementsAttr):
        return None
    return [int(x) for x in attr.array.reshape(-1)]


def _shape_attr(dims):
    from ...ir.dense import DenseElementsAttr
    return DenseElementsAttr(A.RankedTensorType([len(dims)], A.index), dims)


def _checked(fn):
    """A fold that gives up on signed 64-bit overflow (as APInt's *_ov folds do)."""
    def run(*xs):
        r = fn(*xs)
        return r if _I64_MIN <= r <= _I64_MAX else None
    return run


def _divisible(fn):
    """Division-like folds need non-negative dividends and positive divisors."""
    def run(a, b):
        return fn(a, b) if a >= 0 and b > 0 else None
    return run


_BINARY_FOLDS = {
    "add_shape": _checked(lambda a, b: a + b),
    "sub_shape": _checked(lambda a, b: a - b),
    "mul_shape": _checked(lambda a, b: a * b),
    "max_shape": max, "min_shape": min,
    "div_ceil_shape": _divisible(lambda a, b: -(-a // b)),
    "div_floor_shape": _divisible(lambda a, b: a // b),
    "mod_shape": _divisible(lambda a, b: a % b),
}


def _exp2(v):
    if not 0 <= v < 64:
        return None
    r = 1 << v
    return r - (1 << 64) if r > _I64_MAX else r


_UNARY_FOLDS = {
    "exp2_shape": _exp2,
    "log2_ceil_shape": lambda v: (v - 1).bit_length() if v > 0 else None,
    "log2_floor_shape": lambda v: v.bit_length() - 1 if v > 0 else None,
}


def _fold_each(fn, *shapes):
    """Fold elementwise over constant shapes; None when any operand or dim does not fold."""
    if any(s is None for s in shapes):
        return None
    out = [fn(*xs) for xs in zip(*shapes)]
    if any(x is None for x in out):
        return None
    return [_shape_attr(out)]


class _SameRanks(T.Trait):
    """TosaShapeOperatorWithSameRanks."""

    __slots__ = ()

    def verify(self, op):
        ranks = [o.value.type.rank for o in op._operands]
        if any(r != ranks[0] for r in ranks):
            return "operands don't have matching ranks"
        if any(r.type.rank != ranks[0] for r in op.results):
            return "result shape has different rank than operands"
        return None


SameRanks = _SameRanks("TosaShapeOperatorWithSameRanks")


class _BinaryShape(TosaOp):
    __slots__ = ()
    traits = (T.Pure, SameRanks)
    input1 = Operand(B.Shape)
    input2 = Operand(B.Shape)
    output = Result(B.Shape)

    def fold(self, operands):
        return _fold_each(_BINARY_FOLDS[self.name[5:]], *map(_dims, operands))


class _UnaryShape(TosaOp):
    __slots__ = ()
    traits = (T.Pure, SameRanks)
    input = Operand(B.Shape)
    output = Result(B.Shape)

    def fold(self, operands):
        return _fold_each(_UNARY_FOLDS[self.name[5:]], _dims(operands[0]))


def _binary(op_name, doc):
    cls_name = "".join(p.capitalize() for p in op_name.split("_")) + "Op"
    return type(cls_name, (_BinaryShape,), {"name": f"tosa.{op_name}", "__doc__": doc,
                                            "__module__": __name__, "__slots__": ()})


def _unary(op_name, doc):
    cls_name = "".join(p.capitalize() for p in op_name.split("_")) + "Op"
    return type(cls_name, (_UnaryShape,), {"name": f"tosa.{op_name}", "__doc__": doc,
                                           "__module__": __name__, "__slots__": ()})


BINARY = [_binary(n, d) for n, d in (
    ("add_shape", "Elementwise sum of two shapes."),
    ("sub_shape", "Elementwise difference of two shapes."),
    ("mul_shape", "Elementwise product of two shapes."),
    ("div_ceil_shape", "Elementwise quotient of two shapes, rounded up."),
    ("div_floor_shape", "Elementwise quotient of two shapes, rounded down."),
    ("mod_shape", "Elementwise remainder of two shapes."),
    ("max_shape", "Elementwise maximum of two shapes."),
    ("min_shape", "Elementwise minimum of two shapes."))]
UNARY = [_unary(n, d) for n, d in (
    ("exp2_shape", "2 to the power of each dim."),
    ("log2_ceil_shape", "The base-2 logarithm of each dim, rounded up."),
    ("log2_floor_shape", "The base-2 logarithm of each dim, rounded down."))]


class ConcatShapeOp(TosaOp):
    """`%s = tosa.concat_shape %a, %b : (!tosa.shape<2>, !tosa.shape<1>) ->
    !tosa.shape<3>`"""

    name = "tosa.concat_shape"
    traits = (T.Pure,)
    input = VarOperand(B.Shape)
    output = Result(B.Shape)

    def verify_op(self):
        inputs = [v.type.rank for v in self.input]
        if not inputs:
            return "requires at least one input shape"
        if 0 in inputs:
            return "requires all inputs shapes have a rank greater than 0"
        rank = self.output.type.rank
        if rank != sum(inputs):
            return (f"requires output shape rank to be equal to the sum of the input shape "
                    f"ranks ({sum(inputs)}), got {rank}")
        return None

    def fold(self, operands):
        shapes = [_dims(a) for a in operands]
        if any(s is None for s in shapes):
            return None
        return [_shape_attr([d for s in shapes for d in s])]


class SliceShapeOp(TosaOp):
    """`%s = tosa.slice_shape %a, %start, %size : (!tosa.shape<4>, tensor<1xi32>,
    tensor<1xi32>) -> !tosa.shape<2>`"""

    name = "tosa.slice_shape"
    traits = (T.Pure,)
    input = Operand(B.Shape)
    start = Operand(B.ScalarInt32Tensor)
    size = Operand(B.ScalarInt32Tensor)
    output = Result(B.Shape)

    def verify_op(self):
        start, size = B.const_elements(self.start), B.const_elements(self.size)
        start = None if start is None else int(start.array.reshape(-1)[0])
        size = None if size is None else int(size.array.reshape(-1)[0])
        if start is not None and start < 0:
            return f"expected non-negative start index, got {start}"
        if size is not None and size <= 0:
            return f"expected positive size, got {size}"
        if size is None:
            return None
        rank = self.output.type.rank
        if rank != size:
            return (f"expected output type size to be equal to size attribute, got {rank} vs "
                    f"{size}")
        if start is not None and start + size > self.input.type.rank:
            return (f"expected start + size to be less than or equal to input shape rank "
                    f"({self.input.type.rank}), got {start + size}")
        return None

    def fold(self, operands):
        shape, start, size = map(_dims, operands)
        if shape is None or not start or not size:
            return None
        return [_shape_attr(shape[start[0]:start[0] + size[0]])]


class DimOp(TosaOp):
    """`%d = tosa.dim %x axis(1) : (tensor<2x3xf32>) -> !tosa.shape<1>`"""

    name = "tosa.dim"
    traits = (T.Pure,)
    input1 = Operand(C.AnyType)
    axis = B.i32_prop()
    output = Result(B.Shape)

    def verify_op(self):
        out = self.output.type
        if out.rank != 1:
            return f"expect output shape type to contain one element, got '{out}'"
        t = self.input1.type
        if B.ranked(t):
            axis = self.axis.value
            if axis < 0 or axis >= t.rank:
                return f"expect axis to be in the range [0, {t.rank}), got {axis}"
        return None

    def fold(self, operands):
        t = self.input1.type
        if not B.ranked(t):
            return None
        dim = t.shape[self.axis.value]
        return None if dim == A.DYNAMIC else [_shape_attr([dim])]


class AssertEqualShapeOp(TosaOp):
    """`tosa.assert_equal_shape %a, %b allow_broadcast(false) : (!tosa.shape<2>,
    !tosa.shape<2>) -> ()`"""

    name = "tosa.assert_equal_shape"
    traits = (SameRanks,)
    input1 = Operand(B.Shape)
    input2 = Operand(B.Shape)
    allow_broadcast = B.bool_prop()


OPS = BINARY + UNARY + [ConcatShapeOp, SliceShapeOp, DimOp, AssertEqualShapeOp]
