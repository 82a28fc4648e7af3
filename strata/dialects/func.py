"""The func dialect: func.func, func.return, func.call, func.call_indirect, func.constant."""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.ods import Op, Operand, OptProp, Prop, RegionDef, Result, VarOperand, VarResult
from ..syntax.asm_format import SymbolRef, UnitKeyword, install_format
from ..syntax.function_syntax import parse_function_op, print_function_op


class FunctionLikeOp(Op):
    """Shared declaration of function-like ops (func.func, ml_program.func/subgraph):
    symbol name, signature, argument/result attributes, one body region, the upstream
    function syntax and the signature checks."""

    sym_name = Prop(C.SymbolNameAttr)
    function_type = Prop(C.FunctionTypeAttr)
    sym_visibility = OptProp(C.StrAttr)
    arg_attrs = OptProp(C.DictArrayAttrC)
    res_attrs = OptProp(C.DictArrayAttrC)
    body = RegionDef()

    @classmethod
    def new(cls, name, function_type, visibility=None, loc=None, body=True):
        """A function; with `body`, its entry block has the signature's arguments."""
        f = cls.build(loc=loc, sym_name=A.StringAttr(name),
                      function_type=A.TypeAttr(function_type),
                      sym_visibility=A.StringAttr(visibility) if visibility else None)
        if body:
            from ..ir.core import Block
            f.regions[0].add_block(Block(function_type.inputs))
        return f

    @property
    def type(self) -> A.FunctionType:
        return self.properties["function_type"].value

    @property
    def is_declaration(self):
        return not self.regions[0].blocks

    parse = staticmethod(parse_function_op)

    def print(self, pr):
        print_function_op(self, pr)

    def verify_(self):
        ft = self.type
        # As upstream's function interface, before the body: one dictionary of argument
        # (result) attributes per argument (result), and those attributes must belong to
        # a dialect (`foo.bar`).
        for key, what, n in (("arg_attrs", "argument", len(ft.inputs)),
                             ("res_attrs", "result", len(ft.results))):
            v = self.properties.get(key)
            if v is None:
                continue
            if len(v) != n:
                return (f"expects {what} attribute array to have the same number of "
                        f"elements as the number of function {what}s, got {len(v)}, but "
                        f"expected {n}")
            if any("." not in name for d in v if isinstance(d, A.DictionaryAttr)
                   for name in d.value):
                return f"{what}s may only have dialect attributes"
        body = self.regions[0]
        if not body.blocks:
            vis = self.properties.get("sym_visibility")
            if vis is None or vis.value == "public":
                return "symbol declaration cannot have public visibility"
            return None
        entry = body.blocks[0]
        if len(entry.args) != len(ft.inputs):
            return (f"entry block must have {len(ft.inputs)} arguments to match function "
                    "signature")
        for i, (a, t) in enumerate(zip(entry.args, ft.inputs)):
            if a.type is not t:
                return (f"type of entry block argument #{i}('{a.type}') must match the "
                        f"type of the corresponding argument in function signature('{t}')")
        return None


class FuncOp(FunctionLikeOp):
    """`func.func @f(%arg0: i32) -> i32 { ... }`; a declaration has no body."""

    name = "func.func"
    traits = (T.IsolatedFromAbove, T.Symbol, T.AutomaticAllocationScope, T.AffineScope)
    default_dialect = "func"
    no_inline = OptProp(C.UnitAttrC)

    # -- CallableOpInterface (see passes/call_graph.py)
    def callable_region(self):
        """The body; None for a declaration, which calls cannot be resolved into."""
        r = self.regions[0]
        return r if r.blocks else None

    def callable_result_types(self):
        return list(self.type.results)

    def is_legal_to_inline_call(self, call, would_be_cloned: bool) -> bool:
        """Upstream's func inliner interface: `no_inline` on the function keeps every
        call to it, `no_inline` on a call keeps that call."""
        return "no_inline" not in self._props and "no_inline" not in call._props


class ReturnOp(Op):
    """`func.return %a, %b : i32, f32`"""

    name = "func.return"
    traits = (T.Pure, T.HasParent("func.func"), T.ReturnLike, T.Terminator)
    operands_ = VarOperand()
    assembly = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_(self):
        f = self.parent_op
        results = f.type.results
        vals = self.operands
        if len(vals) != len(results):
            return (f"has {len(vals)} operands, but enclosing function (@"
                    f"{f.properties['sym_name'].value}) returns {len(results)}")
        for i, (v, t) in enumerate(zip(vals, results)):
            if v.type is not t:
                # Upstream emits this one without the "'func.return' op" prefix.
                from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
                d = Diagnostic(ERROR, self.loc,
                               f"type of return operand {i} ('{v.type}') doesn't match "
                               f"function result type ('{t}') in function "
                               f"@{f.properties['sym_name'].value}")
                d.op = self
                raise DiagnosticError(d)
        return None

    def handle_inlined_terminator(self, dest):
        """After inlining a function body: with one block, the call's results become
        the returned values (`dest` is the list of call results); with several, each
        return becomes a branch to the block after the call (`dest`)."""
        if isinstance(dest, list):
            for r, v in zip(dest, self.operands):
                r.replace_all_uses_with(v)
            return
        from .cf import BranchOp
        br = BranchOp.build(loc=self.loc, destOperands=self.operands, successors=[dest])
        self.parent.insert_before(self, br)
        self.erase()


class CallOp(Op):
    """`%r = func.call @f(%a) : (i32) -> i32`"""

    name = "func.call"
    callee = Prop(C.FlatSymbolRefAttr)
    callee.fmt = SymbolRef()
    arg_attrs = OptProp(C.DictArrayAttrC)
    res_attrs = OptProp(C.DictArrayAttrC)
    no_inline = OptProp(C.UnitAttrC)
    no_inline.fmt = UnitKeyword()
    operands_ = VarOperand()
    results_ = VarResult()
    assembly = ("$callee `(` $operands_ `)` (`<` `no_inline` `>` $no_inline^)? attr-dict `:` "
                "functional-type($operands_, $results_)")

    def verify_regions_(self):
        return None

    def verify_symbol_uses(self):
        """The callee exists and has this call's signature (checked by the outermost
        symbol table after verification, as upstream's SymbolUserOpInterface)."""
        from ..ir.symbol_table import lookup_nearest_symbol_from
        ref = self.properties["callee"]
        fn = lookup_nearest_symbol_from(self, ref)
        if fn is None or fn.name != "func.func":
            return f"'{ref.root}' does not reference a valid function"
        ft = fn.properties["function_type"].value
        ins = [v.type for v in self.operands]
        if len(ins) != len(ft.inputs):
            return (f"incorrect number of operands for callee: expected {len(ft.inputs)}, "
                    f"but got {len(ins)}")
        for i, (got, want) in enumerate(zip(ins, ft.inputs)):
            if got is not want:
                return (f"operand type mismatch: expected operand type '{want}', but "
                        f"provided '{got}' for operand number {i}")
        outs = [r.type for r in self.results]
        if len(outs) != len(ft.results):
            return "incorrect number of results for callee"
        for i, (got, want) in enumerate(zip(outs, ft.results)):
            if got is not want:
                return (f"result type mismatch at index {i}", [
                    "    op result types: " + ", ".join(f"'{t}'" for t in outs),
                    "callee result types: " + ", ".join(f"'{t}'" for t in ft.results)])
        return None

    # -- CallOpInterface (see passes/call_graph.py)
    def call_callee(self):
        return self.properties["callee"]

    def call_arg_operands(self):
        return self.operands


class CallIndirectOp(Op):
    """`%r = func.call_indirect %f(%a) : (i32) -> i32`"""

    name = "func.call_indirect"
    callee = Operand(C.FunctionTypeC)
    callee_operands = VarOperand()
    results_ = VarResult()
    arg_attrs = OptProp(C.DictArrayAttrC)
    res_attrs = OptProp(C.DictArrayAttrC)
    assembly = "$callee `(` $callee_operands `)` attr-dict `:` type($callee)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return list(operands[0].type.results)

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "callee_operands" and types.get("callee"):
            return list(types["callee"][0].inputs)
        return None

    @classmethod
    def canonicalization_patterns(cls):
        # Imported when asked (the rewrite layer sits above the dialects).
        from ..rewrite.folding import constant_value
        from ..rewrite.pattern import RewritePattern

        class SimplifyIndirectCallWithKnownCallee(RewritePattern):
            """`call_indirect` of a `func.constant` is a direct `call`."""
            root = "func.call_indirect"

            def match_and_rewrite(self, op, rewriter):
                ref = constant_value(op.operand(0))
                if not isinstance(ref, A.SymbolRefAttr):
                    return False
                rewriter.replace_op_with_new(
                    op, CallOp, callee=ref, operands_=op.operands[1:],
                    result_types=op.result_types, arg_attrs=op._props.get("arg_attrs"),
                    res_attrs=op._props.get("res_attrs"), attributes=dict(op._attrs))
                return True
        return [SimplifyIndirectCallWithKnownCallee()]

    # -- CallOpInterface: the callee is a function value, not a symbol
    def call_callee(self):
        return self.operand(0)

    def call_arg_operands(self):
        return self.operands[1:]

    def verify_(self):
        ft = self.callee.type
        if [v.type for v in self.callee_operands] != list(ft.inputs):
            return "operand types do not match the callee's function type"
        if [r.type for r in self.results] != list(ft.results):
            return "result types do not match the callee's function type"
        return None


class ConstantOp(Op):
    """`%f = func.constant @fn : (i32) -> i32`"""

    name = "func.constant"
    traits = (T.ConstantLike, T.Pure)
    value = Prop(C.FlatSymbolRefAttr)
    value.fmt = SymbolRef()
    result = Result()
    assembly = "attr-dict $value `:` type(results)"

    def asm_result_names(self):
        return ["f"]

    def verify_symbol_uses(self):
        """The symbol names a function of this constant's type (upstream's
        SymbolUserOpInterface check)."""
        from ..ir.symbol_table import lookup_nearest_symbol_from
        ref = self.properties["value"]
        fn = lookup_nearest_symbol_from(self, ref)
        if fn is None or fn.name != "func.func":
            return f"reference to undefined function '{ref.root}'"
        if fn.properties["function_type"].value is not self.results[0].type:
            return "reference to function with mismatched type"
        return None

    def fold(self, operands):
        return self.properties["value"]


def entry_argument_attr(v, name: str):
    """Attribute `name` of function argument `v` (its `arg_attrs` entry), when `v` is an
    argument of a func.func's entry block; else None."""
    if type(v).__name__ != "BlockArgument":
        return None
    fn = v.owner.parent_op
    if fn is None or fn.name != "func.func" or fn.regions[0].blocks[0] is not v.owner:
        return None
    attrs = fn._props.get("arg_attrs")
    if attrs is None or v.index >= len(attrs.value):
        return None
    d = attrs.value[v.index]
    return d.value.get(name) if type(d) is A.DictionaryAttr else None


def materialize_constant(builder, value, type, loc=None):
    """The func dialect's constant materializer: func.constant for a function symbol."""
    if not isinstance(value, A.SymbolRefAttr) or value.nested or \
            not isinstance(type, A.FunctionType):
        return None
    return builder.create(ConstantOp, value=value, result=type, loc=loc)


for _c in (ReturnOp, CallOp, CallIndirectOp, ConstantOp):
    install_format(_c)


FUNC = Dialect("func", [FuncOp, ReturnOp, CallOp, CallIndirectOp, ConstantOp],
               materialize_constant=materialize_constant)
