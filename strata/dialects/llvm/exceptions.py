"""The llvm dialect's exception handling: invoke, landingpad and resume, with upstream's
forms and verifiers (a function that lands needs a `personality`).

    llvm.func @f(%a: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
      %r = llvm.invoke @g(%a) to ^ok unwind ^lp : (i32) -> i32
    ^ok:
      llvm.return %r : i32
    ^lp:
      %e = llvm.landingpad cleanup (catch %ti : !llvm.ptr) : !llvm.struct<(ptr, i32)>
      llvm.resume %e : !llvm.struct<(ptr, i32)>
    }

A landingpad clause whose type is an array is a filter, any other a catch (the keyword
the custom form prints follows the type, as upstream's).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, OptProp, OptResult, Prop, Result, Successor, VarOperand
from ...syntax.asm_format import install_format
from ..cf import BranchOpMixin, verify_successor_operands
from .ops import (CCC, CConvAttr, FuncOp, LLVMType, _CALL_ELIDED, _opt_enum,
                  add_optional_props, emit_error, parse_call_types, parse_vararg_and_bundles,
                  parse_callee_and_args, print_call_types, print_callee_and_args)
from .types import CCONV, LLVMArrayType, LLVMVoidType


class InvokeOp(BranchOpMixin, Op):
    """`%r = llvm.invoke @g(%a) to ^ok(%x : i32) unwind ^lp : (i32) -> i32`; indirect:
    `llvm.invoke %fp(%a) to ^ok unwind ^lp : !llvm.ptr, (i32) -> i32`."""

    name = "llvm.invoke"
    traits = (T.AttrSizedOperandSegments, T.Terminator)
    callee_operands = VarOperand(LLVMType)
    normalDestOperands = VarOperand()
    unwindDestOperands = VarOperand()
    op_bundle_operands = VarOperand(LLVMType)
    result_ = OptResult(LLVMType)
    callee = OptProp(C.FlatSymbolRefAttr)
    var_callee_type = OptProp()
    CConv = Prop(CConvAttr, default=CCC)
    op_bundle_sizes = Prop(C.DenseI32Array)
    normalDest = Successor()
    unwindDest = Successor()
    _stored_defaults = (("CConv", CCC),)

    def successor_operand_range(self, index):
        sizes = self._props["operandSegmentSizes"].value
        return sum(sizes[:index + 1]), sizes[index + 1]

    @staticmethod
    def parse(p, st):
        props = st.properties
        cc = _opt_enum(p, CCONV)
        if cc is not None:
            props["CConv"] = cc
        direct, refs = parse_callee_and_args(p, props)
        p.parse_keyword("to")
        normal, nvals = p.parse_successor_and_operands()
        p.parse_keyword("unwind")
        unwind, uvals = p.parse_successor_and_operands()
        parse_vararg_and_bundles(p, props)
        p.parse_optional_attr_dict(st)
        types, ft = parse_call_types(p, direct)
        callee_ops = p.resolve_operands(refs, types, p.tok_start)
        st.operands = callee_ops + nvals + uvals
        st.types = [t for t in ft.results if not isinstance(t, LLVMVoidType)]
        st.successors = [normal, unwind]
        props["op_bundle_sizes"] = A.DenseArrayAttr(A.i32, [])
        props["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(callee_ops), len(nvals), len(uvals), 0])

    def print(self, pr):
        out = pr.out
        props = self._props
        out.append(pr.op_name(self))
        cc = props.get("CConv")
        if cc is not None and cc.value != "ccc":
            out.append(" " + cc.value)
        args = print_callee_and_args(pr, self)
        out.append(" to " + pr.successor_with_operands(self.successors[0],
                                                       self.successor_operands(0)))
        out.append(" unwind " + pr.successor_with_operands(self.successors[1],
                                                           self.successor_operands(1)))
        vt = props.get("var_callee_type")
        if vt is not None:
            out.append(f" vararg({pr.type_str(vt.value)})")
        extra = {k: v for k, v in props.items() if k not in _CALL_ELIDED}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)
        print_call_types(pr, self, args)

    def verify_(self):
        if len(self.results) > 1:
            return "must have 0 or 1 result"
        unwind = self.successors[1]
        first = unwind.first
        if first is None:
            emit_error(self.loc, "must have at least one operation in unwind destination")
        if first.name != "llvm.landingpad":
            emit_error(self.loc, "first operation in unwind destination should be a "
                      "llvm.landingpad operation")
        verify_successor_operands(self)
        return None


add_optional_props(InvokeOp, ("arg_attrs", "res_attrs", "branch_weights",
                              "op_bundle_tags"))


class LandingpadOp(Op):
    """`%e = llvm.landingpad cleanup (catch %ti : !llvm.ptr) (filter %f :
    !llvm.array<1 x ptr>) : !llvm.struct<(ptr, i32)>`"""

    name = "llvm.landingpad"
    cleanup = OptProp(C.UnitAttrC)
    clauses = VarOperand(LLVMType)
    res = Result(LLVMType)

    @staticmethod
    def parse(p, st):
        if p.parse_optional_keyword("cleanup"):
            st.properties["cleanup"] = A.UnitAttr()
        vals = []
        while p.consume_if("("):
            if not p.parse_optional_keyword("catch"):
                p.parse_keyword("filter")
            ref = p.parse_operand()
            p.expect(":")
            vals.append(p.resolve_operand(ref, p.parse_type()))
            p.expect(")")
        st.operands = vals
        p.expect(":")
        st.types = [p.parse_type()]
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        if "cleanup" in self._props:
            out.append(" cleanup")
        for v in self.operands:
            kind = "filter" if isinstance(v.type, LLVMArrayType) else "catch"
            out.append(f" ({kind} {pr.value(v)} : {pr.type_str(v.type)})")
        out.append(" : " + pr.type_str(self.results[0].type))
        pr.print_optional_attr_dict(self._attrs)

    def verify_(self):
        f = self.parent_op
        while f is not None and not isinstance(f, FuncOp):
            f = f.parent_op
        if f is not None and "personality" not in f._props:
            emit_error(self.loc, "llvm.landingpad needs to be in a function with a "
                      "personality")
        if "cleanup" not in self._props and not self.operands:
            emit_error(self.loc, "landingpad instruction expects at least one clause or "
                      "cleanup attribute")
        for i, v in enumerate(self.operands):
            if isinstance(v.type, LLVMArrayType):
                continue  # a filter (upstream does not check them yet)
            d = v.defining_op
            kind = getattr(d, "name", None)
            if kind == "llvm.bitcast":
                if getattr(d.operand(0).defining_op, "name", None) == "llvm.mlir.addressof":
                    continue
                emit_error(self.loc, "constant clauses expected",
                          (d.loc, "global addresses expected as operand to bitcast used in "
                           "clauses for landingpad"))
            if kind in ("llvm.mlir.zero", "llvm.mlir.addressof"):
                continue
            emit_error(self.loc, f"clause #{i} is not a known constant - null, addressof, "
                      "bitcast")
        return None


class ResumeOp(Op):
    """`llvm.resume %e : !llvm.struct<(ptr, i32)>`: rethrows what a landingpad caught."""

    name = "llvm.resume"
    traits = (T.Terminator,)
    value = Operand(LLVMType)
    assembly = "$value attr-dict `:` type($value)"

    def verify_(self):
        if getattr(self.operand(0).defining_op, "name", None) != "llvm.landingpad":
            return "expects landingpad value as operand"
        return None


def verify_landingpad_types(func):
    """LLVMFuncOp::verify's rule: every landingpad result and resume operand of a
    function has one type (returns the message, or None)."""
    seen = None
    for op in func.walk():
        if op.name == "llvm.landingpad":
            t, msg = op.results[0].type, "'llvm.landingpad' should have a consistent " \
                "result type inside a function"
        elif op.name == "llvm.resume":
            t, msg = op.operand(0).type, "'llvm.resume' should have a consistent input " \
                "type inside a function"
        else:
            continue
        if seen is None:
            seen = t
        elif t is not seen:
            return msg
    return None


install_format(ResumeOp)

EXCEPTION_OPS = [InvokeOp, LandingpadOp, ResumeOp]

__all__ = [c.__name__ for c in EXCEPTION_OPS] + ["EXCEPTION_OPS", "verify_landingpad_types"]
