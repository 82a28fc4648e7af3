"""Function signature conversion for dialect conversion: patterns that convert the types
of `func.func` signatures and block arguments, `func.return` operands and `func.call`
operands and results with a TypeConverter."""
from __future__ import annotations

from ..ir import attributes as A
from .conversion import ConversionPattern, ConversionTarget
from .type_conversion import SignatureConversion, TypeConverter

__all__ = ["FuncSignatureConversion", "FuncReturnTypeConversion", "FuncCallTypeConversion",
           "populate_function_signature_conversion"]


class FuncSignatureConversion(ConversionPattern):
    """Converts the signature of a `func.func` and the argument types of its blocks."""

    root = "func.func"

    def match_and_rewrite(self, op, operands, rewriter):
        tc = self.type_converter
        ft = op.type
        sc = SignatureConversion(len(ft.inputs))
        for i, t in enumerate(ft.inputs):
            if not tc.convert_signature_arg(i, t, sc):
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of argument #{i} ({t})")
        results, counts = [], []
        for i, t in enumerate(ft.results):
            r = tc.convert_types(t)
            if r is None:
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of result #{i} ({t})")
            results.extend(r)
            counts.append(len(r))
        new_ft = A.FunctionType(sc.converted_types, results)
        if op.regions[0].blocks and \
                rewriter.convert_region_types(op.regions[0], tc, sc) is None:
            return rewriter.notify_match_failure(op, "unable to convert block arguments")

        def update():
            op.properties["function_type"] = A.TypeAttr(new_ft)
            arg_attrs = op._props.get("arg_attrs")
            if arg_attrs is not None:
                new = [None] * len(sc.converted_types)
                for i, a in enumerate(arg_attrs):
                    m = sc.input_mapping(i)
                    if m is not None:
                        for j in range(m[1]):
                            new[m[0] + j] = a
                empty = A.DictionaryAttr({})
                op.properties["arg_attrs"] = A.ArrayAttr([a or empty for a in new])
            res_attrs = op._props.get("res_attrs")
            if res_attrs is not None:
                out = []
                for a, n in zip(res_attrs, counts):
                    out.extend([a] * n)
                op.properties["res_attrs"] = A.ArrayAttr(out)

        rewriter.modify_op_in_place(op, update)
        return True


class FuncReturnTypeConversion(ConversionPattern):
    """`func.return` takes the converted operands."""

    root = "func.return"
    one_to_n = True

    def match_and_rewrite(self, op, operands, rewriter):
        flat = [v for vs in operands for v in vs]
        rewriter.modify_op_in_place(op, lambda: op.set_operands(flat))
        return True


class FuncCallTypeConversion(ConversionPattern):
    """`func.call` takes the converted operands and returns the converted types."""

    root = "func.call"
    one_to_n = True
    generated_ops = ("func.call",)

    def match_and_rewrite(self, op, operands, rewriter):
        tc = self.type_converter
        types, counts = [], []
        for r in op.results:
            t = tc.convert_types(r.type)
            if t is None:
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of result #{r.index} ({r.type})")
            types.extend(t)
            counts.append(len(t))
        flat = [v for vs in operands for v in vs]
        new = type(op).create(flat, types, properties=op._props, attributes=op._attrs,
                              loc=op.loc)
        rewriter.insert(new)
        groups, k = [], 0
        for n in counts:
            groups.append(list(new.results[k:k + n]))
            k += n
        rewriter.replace_op_with_multiple(op, groups)
        return True


def populate_function_signature_conversion(patterns: list, type_converter: TypeConverter,
                                           target: ConversionTarget | None = None) -> list:
    """Add the patterns converting `func.func` signatures (and block arguments),
    `func.return` operands and `func.call` operands and results with `type_converter`.
    With `target`, also make those ops legal exactly when their types are."""
    patterns.extend([FuncSignatureConversion(type_converter),
                     FuncReturnTypeConversion(type_converter),
                     FuncCallTypeConversion(type_converter)])
    if target is not None:
        tc = type_converter
        target.add_dynamically_legal_op(
            "func.func", lambda op: tc.is_signature_legal(op.type) and
            tc.is_legal(op.regions[0]))
        target.add_dynamically_legal_op(["func.return", "func.call"],
                                        lambda op: tc.is_legal(op))
    return patterns
