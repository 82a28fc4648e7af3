"""The torch_c dialect: conversions between torch types and builtin types, which the
lowering out of the torch dialect inserts at its boundaries.

    %t = torch_c.to_builtin_tensor %v : !torch.vtensor<[2,?],f32> -> tensor<2x?xf32>
    %v = torch_c.from_builtin_tensor %t : tensor<2x?xf32> -> !torch.vtensor<[2,?],f32>
    %i = torch_c.to_i64 %int1                // !torch.int -> i64
    %n = torch_c.from_f64 %f                 // f64 -> !torch.float

A builtin tensor's element type is signless (si64 <-> i64, see [Note: torch dtypes] in
types.py); the sizes and dtype on both sides must agree.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, Result
from ...syntax.asm_format import install_format
from . import types as TT
from .ops import _VTENSOR, emit_error

__all__ = ["ToBuiltinTensorOp", "FromBuiltinTensorOp", "ToI64Op", "FromI64Op", "ToF64Op",
           "FromF64Op", "ToI1Op", "FromI1Op", "TORCH_C_OPS"]

_BUILTIN_TENSOR = C.Constraint(
    lambda t: isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)),
    "tensor of any non-token type values")


def _check_same(op, vt, bt):
    want = TT.builtin_tensor_type(vt) if vt.dtype is not None else None
    if want is None or want is not bt:
        emit_error(op, "operand and result must have the same size and dtype")
    return None


class ToBuiltinTensorOp(Op):
    """`%t = torch_c.to_builtin_tensor %v : !torch.vtensor<[2],si64> -> tensor<2xi64>`"""

    name = "torch_c.to_builtin_tensor"
    traits = (T.Pure,)
    operand_ = Operand(_VTENSOR)
    result = Result(_BUILTIN_TENSOR)
    assembly = "$operand_ attr-dict `:` qualified(type($operand_)) `->` type($result)"

    @classmethod
    def infer_result_types(cls, operands, properties):
        t = TT.builtin_tensor_type(operands[0].type)
        if t is None:
            raise TypeError(f"{cls.name}: the operand's dtype is unknown")
        return [t]

    def verify_(self):
        return _check_same(self, self._operands[0].value.type, self.results[0].type)


class FromBuiltinTensorOp(Op):
    """`%v = torch_c.from_builtin_tensor %t : tensor<2xi64> -> !torch.vtensor<[2],si64>`"""

    name = "torch_c.from_builtin_tensor"
    traits = (T.Pure,)
    operand_ = Operand(_BUILTIN_TENSOR)
    result = Result(_VTENSOR)
    assembly = "$operand_ attr-dict `:` type($operand_) `->` qualified(type($result))"

    def verify_(self):
        return _check_same(self, self.results[0].type, self._operands[0].value.type)


def _scalar_pair(torch_cls, builtin, bname, tname):
    tc = C.Constraint(lambda t: type(t) is torch_cls, tname)
    bc = C.Constraint(lambda t: t is builtin, bname)
    return tc, bc


_TI, _BI64 = _scalar_pair(TT.IntType, A.i64, "64-bit signless integer", "Torch IntType")
_TF, _BF64 = _scalar_pair(TT.FloatType, A.f64, "64-bit float", "Torch FloatType")
_TB, _BI1 = _scalar_pair(TT.BoolType, A.i1, "1-bit signless integer", "Torch BoolType")


def _to(name_, src, dst, src_type, dst_type):
    """A scalar conversion `%r = name %v`: both types are fixed, so neither is written."""
    class _Op(Op):
        __doc__ = f"`%r = {name_} %v`"
        name = name_
        traits = (T.Pure,)
        operand_ = Operand(src)
        result = Result(dst)
        assembly = "$operand_ attr-dict"

        @classmethod
        def infer_result_types(cls, operands, properties):
            return [dst_type()]

        @classmethod
        def infer_operand_type(cls, name, types):
            return src_type()
    return _Op


def _i64():
    return A.i64


def _f64():
    return A.f64


def _i1():
    return A.i1


ToI64Op = _to("torch_c.to_i64", _TI, _BI64, TT.IntType, _i64)
FromI64Op = _to("torch_c.from_i64", _BI64, _TI, _i64, TT.IntType)
ToF64Op = _to("torch_c.to_f64", _TF, _BF64, TT.FloatType, _f64)
FromF64Op = _to("torch_c.from_f64", _BF64, _TF, _f64, TT.FloatType)
ToI1Op = _to("torch_c.to_i1", _TB, _BI1, TT.BoolType, _i1)
FromI1Op = _to("torch_c.from_i1", _BI1, _TB, _i1, TT.BoolType)
for _cls, _n in ((ToI64Op, "ToI64Op"), (FromI64Op, "FromI64Op"), (ToF64Op, "ToF64Op"),
                 (FromF64Op, "FromF64Op"), (ToI1Op, "ToI1Op"), (FromI1Op, "FromI1Op")):
    _cls.__name__ = _cls.__qualname__ = _n

TORCH_C_OPS = (ToBuiltinTensorOp, FromBuiltinTensorOp, ToI64Op, FromI64Op, ToF64Op,
               FromF64Op, ToI1Op, FromI1Op)
for _c in TORCH_C_OPS:
    install_format(_c)
