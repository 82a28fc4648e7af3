"""Signless element types for `ml_program` globals holding ONNX initializers (see
[Note: signless integers] in __init__): a `tensor<4xui8>` weight becomes `tensor<4xi8>`
with the same bytes, and its loads follow."""
from __future__ import annotations

from ...dialects.ml_program import GlobalLoadConstOp
from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ...rewrite.conversion import ConversionPattern


def _retype(value, t):
    """The initial value `value` re-typed to `t` (same bytes)."""
    if isinstance(value, DenseResourceElementsAttr):
        return DenseResourceElementsAttr(t, value.handle)
    if isinstance(value, DenseElementsAttr):
        return DenseElementsAttr.from_raw(t, value.raw)
    return value


class _GlobalType(ConversionPattern):
    root = "ml_program.global"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.global_type
        new = self.type_converter.convert_type(t)
        if new is None or new is t:
            return False

        def update():
            op.properties["type"] = A.TypeAttr(new)
            v = op.properties.get("value")
            if v is not None:
                op.properties["value"] = _retype(v, new)
        rewriter.modify_op_in_place(op, update)
        return True


class _GlobalLoadConstType(ConversionPattern):
    root = "ml_program.global_load_const"

    def match_and_rewrite(self, op, operands, rewriter):
        t = op.results[0].type
        new = self.type_converter.convert_type(t)
        if new is None or new is t:
            return False
        rewriter.replace_op_with_new(op, GlobalLoadConstOp, result=new,
                                     **{"global": op.properties["global"]})
        return True


def populate_global_conversion(patterns, tc, target):
    patterns.extend([_GlobalType(tc), _GlobalLoadConstType(tc)])
    target.add_dynamically_legal_op(
        "ml_program.global", lambda op: tc.convert_type(op.global_type) is op.global_type)
    target.add_dynamically_legal_op(
        "ml_program.global_load_const", lambda op: tc.is_legal(op))
