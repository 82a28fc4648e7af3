"""The linalg dialect's enum attributes: `#linalg.iterator_type<parallel>`,
`#linalg.type_fn<cast_signed>`, `#linalg.unary_fn<exp>`, `#linalg.binary_fn<add>`,
`#linalg.ternary_fn<select>` and `#linalg.elementwise_kind<exp>`."""
from __future__ import annotations

from ...ir import constraints as C
from ...ir.enum_attr import EnumAttr, EnumAttrKind

UNARY_FNS = ("exp log abs ceil floor negf reciprocal round sqrt rsqrt square tanh erf sin "
             "cos tan acos acosh asin asinh atan atanh log10 log1p log2").split()
BINARY_FNS = ("add sub mul div div_unsigned max_signed min_signed max_unsigned "
              "min_unsigned powf").split()
TERNARY_FNS = ["select"]

ITERATOR_TYPE = EnumAttrKind("linalg", "iterator_type", ["parallel", "reduction"],
                             cpp_name="::mlir::utils::IteratorType")
TYPE_FN = EnumAttrKind("linalg", "type_fn", ["cast_signed", "cast_unsigned"],
                       cpp_name="::mlir::linalg::TypeFn")
UNARY_FN = EnumAttrKind("linalg", "unary_fn", UNARY_FNS, cpp_name="::mlir::linalg::UnaryFn")
BINARY_FN = EnumAttrKind("linalg", "binary_fn", BINARY_FNS,
                         cpp_name="::mlir::linalg::BinaryFn")
TERNARY_FN = EnumAttrKind("linalg", "ternary_fn", TERNARY_FNS,
                          cpp_name="::mlir::linalg::TernaryFn")
ELEMENTWISE_KIND = EnumAttrKind("linalg", "elementwise_kind",
                                UNARY_FNS + BINARY_FNS + TERNARY_FNS,
                                cpp_name="::mlir::linalg::ElementwiseKind")

KINDS = {k.mnemonic: k for k in (ITERATOR_TYPE, TYPE_FN, UNARY_FN, BINARY_FN, TERNARY_FN,
                                 ELEMENTWISE_KIND)}

PARALLEL = ITERATOR_TYPE("parallel")
REDUCTION = ITERATOR_TYPE("reduction")
CAST_SIGNED = TYPE_FN("cast_signed")
CAST_UNSIGNED = TYPE_FN("cast_unsigned")


def parse_attribute(p, mnemonic):
    kind = KINDS.get(mnemonic)
    if kind is None:
        p.error(f"unknown attribute `{mnemonic}` in dialect `linalg`")
    return kind.parse_body(p)


def is_enum(a, kind) -> bool:
    return type(a) is EnumAttr and a.kind is kind


def enum_constraint(kind, summary):
    return C.Constraint(lambda a: is_enum(a, kind), summary)


TypeFnAttr = enum_constraint(TYPE_FN, "allowed 32-bit signless integer cases: 0, 1")
IteratorTypeArrayAttr = C.Constraint(
    lambda a: type(a) is C.A.ArrayAttr and all(is_enum(x, ITERATOR_TYPE) for x in a.value),
    "Iterator type should be an enum.")
