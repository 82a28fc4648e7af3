"""TOSA control flow (cond_if, while_loop, yield), variables and custom operators.

    %r = tosa.cond_if %c (%a = %x) : tensor<1xi1> (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      tosa.yield %a : tensor<4xf32>
    } else {
    ^bb0(%a: tensor<4xf32>):
      ...
    }
    %w = tosa.while_loop (%i = %x) : (tensor<1xi32>) -> tensor<1xi32> {
      ... tosa.yield %cond : tensor<1xi1>
    } do {
    ^bb0(%i: tensor<1xi32>):
      ... tosa.yield %next : tensor<1xi32>
    }
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.ods import Operand, Prop, RegionDef, Result, VarOperand, VarResult
from ...ir.symbol_table import SymbolTable
from ...syntax.asm_format import SymbolName
from ...syntax.lexer import PUNCT
from ..scf import _init_list, _parse_assignment_list, _parse_function_result_types
from . import base as B
from .base import DYN, TosaOp, elt


def _type_or_shape_error(a, an, b, bn):
    """errorIfTypeOrShapeMismatch on two types."""
    if elt(a) is not elt(b):
        return f"require same element type for {an} ('{elt(a)}') and {bn} ('{elt(b)}')"
    if not B.compatible_types(a, b):
        return f"require same shapes for {an} ('{a}') and {bn} ('{b}')"
    return None


def _lists_error(xs, xn, ys, yn):
    if len(xs) != len(ys):
        return f"require same number of values in {xn} ({len(xs)}) and {yn} ({len(ys)})"
    for a, b in zip(xs, ys):
        err = _type_or_shape_error(a.type, xn, b.type, yn)
        if err:
            return err
    return None


def _size_one(t) -> bool:
    return not B.ranked(t) or not t.has_static_shape or t.num_elements == 1


def _yield_of(region):
    if not region.blocks:
        return None
    t = region.blocks[0].last
    return t if t is not None and t.name == "tosa.yield" else None


def _entry_args(region):
    return list(region.blocks[0].args) if region.blocks else []


def _arrow(pr, types) -> str:
    """printArrowTypeList: ` -> t`, ` -> (t1, t2)`, ` -> ()`."""
    if len(types) == 1 and type(types[0]) is not A.FunctionType:
        return " -> " + pr.type_str(types[0])
    return " -> (" + ", ".join(map(pr.type_str, types)) + ")"


class IfOp(TosaOp):
    """tosa.cond_if: then_graph or else_graph on a size-1 i1 condition."""

    name = "tosa.cond_if"
    traits = (T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("tosa.yield"))
    condition = Operand(B.I1Tensor)
    input_list = VarOperand(B.Tensor)
    output_list = VarResult(B.Tensor)
    then_graph = RegionDef(single_block=True)
    else_graph = RegionDef(single_block=True)

    @staticmethod
    def parse(p, st):
        cond = p.parse_operand()
        pairs = None
        if p.kind == PUNCT and p.tok == "(":
            pairs = _parse_assignment_list(p)
        if not (p.kind == PUNCT and p.tok == ":"):
            p.error("expected type for condition operand")
        p._next()
        ctype = p.parse_type()
        operands = [p.resolve_operand(cond, ctype)]
        if pairs is not None:
            start = p.tok_start
            ft = p.parse_type()
            if type(ft) is not A.FunctionType:
                p.error("expected list of types for block arguments followed by arrow type "
                        "and list of return types", start)
            st.types = list(ft.results)
            if len(ft.inputs) != len(pairs):
                p.error(f"expected as many input types as operands (expected {len(pairs)} "
                        f"got {len(ft.inputs)})")
            operands += p.resolve_operands([o for _, o in pairs], list(ft.inputs), start)
        elif p.consume_if("->"):
            st.types = _parse_function_result_types(p)
        st.operands = operands
        st.regions.append(p.parse_region(op_cls=IfOp))
        from ...ir.core import Region
        st.regions.append(p.parse_region(op_cls=IfOp) if p.parse_optional_keyword("else")
                          else Region())
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        then_r, else_r = self.regions
        inputs = self.input_list
        out.append(f"{pr.op_name(self)} {pr.value(self.condition)}")
        out.append(_init_list(pr, _entry_args(then_r), inputs, " "))
        out.append(" : " + pr.type_str(self.condition.type))
        if inputs:
            out.append(" (" + ", ".join(pr.type_str(v.type) for v in inputs) + ")")
        out.append(_arrow(pr, [r.type for r in self.results]) + " ")
        pr.print_region(then_r)
        if else_r.blocks:
            out.append(" else ")
            pr.print_region(else_r)
        pr.print_optional_attr_dict(self.attributes)

    def verify_op(self):
        inputs = self.input_list
        then_r, else_r = self.regions
        err = (_lists_error(_entry_args(then_r), "'then_graph' arguments", inputs,
                            "'input_list'") or
               _lists_error(_entry_args(else_r), "'else_graph' arguments", inputs,
                            "'input_list'"))
        if err:
            return err
        for r, what in ((then_r, "'then_graph' results"), (else_r, "'else_graph' results")):
            y = _yield_of(r)
            if y is not None:
                err = _lists_error(y.operands, what, self.results, "'output_list'")
                if err:
                    return err
        ct = self.condition.type
        if not _size_one(ct):
            return f"'condition' must be a size 1 tensor, got '{ct}'"
        return None


class WhileOp(TosaOp):
    """tosa.while_loop: cond_graph yields a size-1 i1, body_graph the next values."""

    name = "tosa.while_loop"
    traits = (T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("tosa.yield"))
    input_list = VarOperand(B.Tensor)
    output_list = VarResult(B.Tensor)
    cond_graph = RegionDef(single_block=True)
    body_graph = RegionDef(single_block=True)

    @staticmethod
    def parse(p, st):
        pairs = []
        if p.kind == PUNCT and p.tok == "(":
            pairs = _parse_assignment_list(p)
        tstart = p.tok_start
        p.expect(":")
        ft = p.parse_type()
        if type(ft) is not A.FunctionType:
            p.error(p._custom_prefix() + "invalid kind of type specified: expected "
                    f"builtin.function, but found '{ft}'", tstart)
        st.types = list(ft.results)
        if len(ft.inputs) != len(pairs):
            p.error(p._custom_prefix() + "expected as many input types as operands "
                    f"(expected {len(pairs)} got {len(ft.inputs)})", tstart)
        st.operands = p.resolve_operands([o for _, o in pairs], list(ft.inputs), tstart)
        args = [(inner[0], inner[1], t, None) for (inner, _), t in zip(pairs, ft.inputs)]
        st.regions.append(p.parse_region(args=args, op_cls=WhileOp))
        p.parse_keyword("do")
        st.regions.append(p.parse_region(op_cls=WhileOp))
        p.parse_optional_attr_dict(st, with_keyword=True)

    def print(self, pr):
        out = pr.out
        cond_r, body_r = self.regions
        out.append(pr.op_name(self))
        out.append(_init_list(pr, _entry_args(cond_r), self.input_list, " "))
        ft = A.FunctionType([v.type for v in self.input_list], [r.type for r in self.results])
        out.append(" : " + pr.type_str(ft) + " ")
        pr.print_region(cond_r, print_entry_args=False)
        out.append(" do ")
        pr.print_region(body_r)
        pr.print_optional_attr_dict(self.attributes, with_keyword=True)

    def verify_op(self):
        inputs = self.input_list
        cond_r, body_r = self.regions
        err = (_lists_error(inputs, "'input_list'", self.results, "'output_list'") or
               _lists_error(_entry_args(cond_r), "'cond_graph' arguments", inputs,
                            "'input_list'") or
               _lists_error(_entry_args(body_r), "'body_graph' arguments", inputs,
                            "'input_list'"))
        if err:
            return err
        y = _yield_of(body_r)
        if y is not None:
            err = _lists_error(y.operands, "'body_graph' results", inputs,
                               "'input_list'")
            if err:
                return err
        y = _yield_of(cond_r)
        if y is None:
            return None
        vals = y.operands
        if len(vals) != 1:
            return "require 'cond_graph' only have one result"
        t = vals[0].type
        if not _size_one(t):
            return f"'cond_graph' result must be a size 1 tensor, got '{t}'"
        if elt(t) is not A.i1:
            return f"'cond_graph' result must be a boolean tensor, got '{t}'"
        return None


class YieldOp(TosaOp):
    """`tosa.yield %v : tensor<4xf32>` (ends cond_if / while_loop graphs)"""

    name = "tosa.yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator)
    inputs = VarOperand(B.Tensor)

    @staticmethod
    def parse(p, st):
        refs = p.parse_operand_list() if p.kind != PUNCT or p.tok != "{" else []
        p.parse_optional_attr_dict(st)
        start = p.tok_start
        p.expect(":")
        types = p.parse_type_list() if refs else []
        st.operands = p.resolve_operands(refs, types, start)

    def print(self, pr):
        vals = self.operands
        pr.out.append(f"{pr.op_name(self)} " + ", ".join(pr.value(v) for v in vals))
        pr.print_optional_attr_dict(self.attributes)
        pr.out.append(" : " + ", ".join(pr.type_str(v.type) for v in vals))


# ---------------------------------------------------------------- variables


def variable_type(var):
    """getVariableType: the tensor type a tosa.variable holds."""
    shape = [DYN if d == -1 else int(d) for d in var.properties["var_shape"].array.reshape(-1)]
    return A.RankedTensorType(shape, var.properties["type"].value)


class VariableOp(TosaOp):
    """`tosa.variable @name : tensor<2x3xf32>` or `tosa.variable @name = dense<...> :
    tensor<...>`"""

    name = "tosa.variable"
    traits = (T.Symbol,)
    sym_name = Prop(B.StrAttr, fmt=SymbolName())
    var_shape = Prop(B.IndexElementsAttr)
    type = Prop(C.TypeAttrC)
    initial_value = Prop(C.AnyAttr, optional=True)
    sym_visibility = Prop(B.StrAttr, optional=True)

    @staticmethod
    def parse(p, st):
        from ...ir.dense import DenseElementsAttr
        st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        p.parse_optional_attr_dict(st)
        if p.consume_if("="):
            try:
                init = p.parse_attribute()
            except DiagnosticError as e:
                # upstream adds its own error at the token where the attribute stopped
                d = Diagnostic(ERROR, p.loc_at(p.tok_start).resolve(),
                               p._custom_prefix() + "expected attribute")
                raise DiagnosticError(d, e.earlier + [e.diag]) from None
            st.properties["initial_value"] = init
            t = getattr(init, "type", None)
            if not isinstance(t, A.Type):
                p.error(p._custom_prefix() + "expected Typed attr", p.tok_start)
        else:
            p.expect(":")
            t = p.parse_type()
        # upstream reports these at the token after the type
        if not isinstance(t, A.ShapedType):
            p.error(p._custom_prefix() + "expected shaped type", p.tok_start)
        if not t.has_rank:
            p.error(p._custom_prefix() + "expected ranked type", p.tok_start)
        shape = [-1 if d == DYN else d for d in t.shape]
        st.properties["var_shape"] = DenseElementsAttr(
            A.RankedTensorType([len(shape)], A.index), shape)
        st.properties["type"] = A.TypeAttr(t.element_type)

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)} {A.print_symbol_name(self.sym_name.value)}")
        extra = {k: v for k, v in self.properties.items()
                 if k not in ("sym_name", "var_shape", "type", "initial_value")}
        extra.update(self.attributes)
        pr.print_optional_attr_dict(extra)
        init = self.properties.get("initial_value")
        if not isinstance(getattr(init, "type", None), A.Type):
            out.append(" : " + pr.type_str(variable_type(self)))
            if init is not None:
                out.append(" ")
        if init is not None:
            out.append(" = " + pr.attr_str(init))


def _verify_variable_use(op, t, what):
    """verifyVariableOpErrorIf."""
    scope = op.parent_op
    while scope is not None and T.SymbolTable not in type(scope).traits:
        scope = scope.parent_op
    if scope is None:
        return None
    name = op.properties["name"].value
    var = SymbolTable(scope).lookup(name)
    if var is None or var.name != "tosa.variable":
        return f"'{name}' has not been declared by 'tosa.variable'"
    return _type_or_shape_error(t, what, variable_type(var), "the input tensor")


class VariableReadOp(TosaOp):
    """`%v = tosa.variable_read @name : tensor<2x3xf32>`"""

    name = "tosa.variable_read"
    sym = Prop(B.StrAttr, fmt=SymbolName())  # the property `name` (see rename_prop)
    output1 = Result(B.Tensor)
    assembly = "$name attr-dict `:` type($output1)"

    def verify_op(self):
        return _verify_variable_use(self, self.output1.type, "'output1'")


class VariableWriteOp(TosaOp):
    """`tosa.variable_write @name, %v : tensor<2x3xf32>`"""

    name = "tosa.variable_write"
    sym = Prop(B.StrAttr, fmt=SymbolName())  # the property `name` (see rename_prop)
    input1 = Operand(B.Tensor)
    assembly = "$name attr-dict `,` $input1 `:` type($input1)"

    def verify_op(self):
        return _verify_variable_use(self, self.input1.type, "'input1'")


class CustomOp(TosaOp):
    """`%r = tosa.custom %x operator_name("op") domain_name("dom")
    implementation_attrs("") : (tensor<4xi32>) -> tensor<4xi32>`"""

    name = "tosa.custom"
    operator_name = Prop(B.StrAttr)
    domain_name = Prop(B.StrAttr)
    implementation_attrs = Prop(B.StrAttr)
    input_list = VarOperand(B.Tensor)
    output_list = VarResult(B.Tensor)


B.rename_prop(VariableReadOp, "sym", "name")
B.rename_prop(VariableWriteOp, "sym", "name")

OPS = [IfOp, WhileOp, YieldOp, VariableOp, VariableReadOp, VariableWriteOp, CustomOp]
