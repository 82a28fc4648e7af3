"""The cf dialect: unstructured control flow (`cf.br`, `cf.cond_br`, `cf.switch`, `cf.assert`).

[Note: branch ops and their successor operands]
A branch op forwards some of its operands to the arguments of each successor block.
`successor_operand_range(i)` gives where the operands for successor `i` sit in the op's
operand list (start, count) and `successor_operands(i)` the values: what MLIR's
BranchOpInterface::getSuccessorOperands answers, for passes that rewrite the CFG. The
verifier checks counts and types against the successor's block arguments with upstream's
wording, which carries no "'cf.br' op" prefix ("branch has 1 operands for successor #0,
but target block has 0").
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.dense import DenseElementsAttr
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.ods import (SINGLE, Op, Operand, OptProp, Prop, Successor, VarOperand,
                      VarSuccessor)
from ..syntax.asm_format import DenseArrayFmt, install_format
from ..syntax.lexer import CARET

__all__ = ["CF", "AssertOp", "BranchOp", "CondBranchOp", "SwitchOp", "BranchOpMixin",
           "verify_successor_operands"]


def _raise(op, message: str):
    """An error at `op` worded as upstream's `op->emitError()` (no op-name prefix)."""
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def verify_successor_operands(op) -> None:
    """BranchOpInterface's check: each successor gets as many operands as it has block
    arguments, of the same types."""
    for i, dest in enumerate(op.successors):
        vals = op.successor_operands(i)
        if len(vals) != len(dest.args):
            _raise(op, f"branch has {len(vals)} operands for successor #{i}, but target "
                       f"block has {len(dest.args)}")
        for j, (v, a) in enumerate(zip(vals, dest.args)):
            if v.type is not a.type:
                _raise(op, f"type mismatch for bb argument #{j} of successor #{i}")


class BranchOpMixin:
    """BranchOpInterface: which operands go to which successor block."""

    __slots__ = ()

    def successor_operand_range(self, index: int) -> tuple[int, int]:
        raise NotImplementedError

    def successor_operands(self, index: int) -> list:
        start, n = self.successor_operand_range(index)
        return [o.value for o in self._operands[start:start + n]]

    # -- mutation (MLIR's SuccessorOperands::erase / append), for CFG rewrites

    def erase_successor_operand(self, index: int, arg_index: int) -> None:
        """Drop operand `arg_index` of those forwarded to successor `index`."""
        start, n = self.successor_operand_range(index)
        if not 0 <= arg_index < n:
            raise IndexError(f"successor #{index} has {n} operands, not {arg_index + 1}")
        operand = self._operands.pop(start + arg_index)
        operand._unlink()
        self._resize_successor_group(index, -1)

    def append_successor_operands(self, index: int, values) -> None:
        """Forward `values` too (at the end) to successor `index`."""
        from ..ir.core import OpOperand
        values = list(values)
        if not values:
            return
        start, n = self.successor_operand_range(index)
        at = start + n
        self._operands[at:at] = [OpOperand(v, self) for v in values]
        self._resize_successor_group(index, len(values))

    def _resize_successor_group(self, index: int, delta: int) -> None:
        """Update the operand segment sizes after successor `index` gained `delta`
        operands: successor i's operands are the op's i-th variadic operand group (the
        last one for the rest)."""
        if T.AttrSizedOperandSegments not in type(self).traits:
            return
        groups = [i for i, d in enumerate(type(self)._operand_defs) if d.kind != SINGLE]
        g = groups[min(index, len(groups) - 1)]
        sizes = list(self.properties["operandSegmentSizes"].value)
        sizes[g] += delta
        self.properties["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, sizes)

    def verify_(self):
        verify_successor_operands(self)
        return None


class AssertOp(Op):
    """`cf.assert %ok, "message"`: aborts with the message when `%ok` is false."""

    name = "cf.assert"
    traits = (T.MemoryEffects(T.MemWrite),)
    arg = Operand(C.I1)
    msg = Prop(C.StrAttr)
    assembly = "$arg `,` $msg attr-dict"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i1  # the format never spells it: I1 is a buildable type


class BranchOp(BranchOpMixin, Op):
    """`cf.br ^bb1(%a : i32)`"""

    name = "cf.br"
    traits = (T.Pure, T.Terminator)
    destOperands = VarOperand()
    dest = Successor()
    assembly = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"

    def successor_operand_range(self, index):
        return 0, len(self._operands)


class CondBranchOp(BranchOpMixin, Op):
    """`cf.cond_br %c weights([1, 3]), ^bb1(%a : i32), ^bb2`"""

    name = "cf.cond_br"
    traits = (T.AttrSizedOperandSegments, T.Pure, T.Terminator)
    condition = Operand(C.I1)
    trueDestOperands = VarOperand()
    falseDestOperands = VarOperand()
    branch_weights = OptProp(C.DenseI32Array)
    branch_weights.fmt = DenseArrayFmt(A.i32)
    trueDest = Successor()
    falseDest = Successor()
    assembly = ("$condition (`weights` `(` $branch_weights^ `)`)? `,` $trueDest "
                "(`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` $falseDest "
                "(`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i1 if name == "condition" else None

    def successor_operand_range(self, index):
        return self._segment(1 + index, False)

    def verify_(self):
        # BranchOpInterface first, then WeightedBranchOpInterface, in upstream's order.
        verify_successor_operands(self)
        w = self.properties.get("branch_weights")
        if w is not None and len(w.value):
            if len(w.value) != len(self.successors):
                _raise(self, "expects number of branch weights to match number of "
                             f"successors: {len(w.value)} vs {len(self.successors)}")
            if not any(w.value):
                _raise(self, "branch weights cannot all be zero")
        return None


_INT_ELEMENTS = C.Constraint(
    lambda a: isinstance(a, DenseElementsAttr) and type(a.element_type) is A.IntegerType,
    "integer elements attribute")


class SwitchOp(BranchOpMixin, Op):
    """`cf.switch %flag : i32, [ default: ^bb1(%a : i32), 42: ^bb2 ]`

    Operands are the flag, the default destination's operands, then every case's operands
    one after the other (`case_operand_segments` says how many each case has)."""

    name = "cf.switch"
    traits = (T.AttrSizedOperandSegments, T.Pure, T.Terminator)
    flag = Operand(C.SignlessInteger)
    defaultOperands = VarOperand()
    caseOperands = VarOperand()
    case_values = OptProp(_INT_ELEMENTS)
    case_operand_segments = Prop(C.DenseI32Array)
    defaultDestination = Successor()
    caseDestinations = VarSuccessor()

    # -- structure

    @property
    def case_value_list(self) -> list[int]:
        """The case values, as upstream prints them (sign-extended from the flag width)."""
        cv = self.properties.get("case_values")
        if cv is None:
            return []
        w = cv.element_type.width
        return [_sext(int(v), w) for v in cv.values]

    def successor_operand_range(self, index):
        if index == 0:
            return self._segment(1, False)
        start, _ = self._segment(2, False)
        segs = self.properties["case_operand_segments"].value
        return start + sum(segs[:index - 1]), segs[index - 1]

    def _resize_successor_group(self, index, delta):
        super()._resize_successor_group(index, delta)
        if index > 0:
            segs = list(self.properties["case_operand_segments"].value)
            segs[index - 1] += delta
            self.properties["case_operand_segments"] = A.DenseArrayAttr(A.i32, segs)

    # -- verification

    def verify_invariants(self):
        err = super().verify_invariants()
        if err:
            return err
        segs = self.properties["case_operand_segments"].value
        n = self._segment(2, False)[1]
        if sum(segs) != n:  # VariadicOfVariadic's own check
            return (f"caseOperands count ({n}) does not match with the total size "
                    f"({sum(segs)}) specified in attribute 'case_operand_segments'")
        return None

    def verify_(self):
        ncases = len(self.successors) - 1
        nsegs = len(self.properties["case_operand_segments"].value)
        if nsegs < ncases:  # upstream would index past the segments here
            return (f"number of case operand groups ({nsegs}) should match number of case "
                    f"destinations ({ncases})")
        verify_successor_operands(self)
        cv = self.properties.get("case_values")
        if cv is not None or ncases:
            flag_t = self.operand(0).type
            ct = cv.element_type if cv is not None else None
            if ct is not flag_t:
                return f"'flag' type ('{flag_t}') should match case value type ('{ct}')"
            if cv.num_elements != ncases:
                return (f"number of case values ({cv.num_elements}) should match number "
                        f"of case destinations ({ncases})")
        return None

    # -- custom syntax

    @staticmethod
    def parse(p, st):
        flag_ref = p.parse_operand()
        p.expect(":")
        tstart = p.tok_start
        flag_t = p.parse_type()
        if type(flag_t) is not A.IntegerType:
            p.error(p._custom_prefix() + "invalid kind of type specified: expected "
                    f"builtin.integer, but found '{flag_t}'", tstart)
        operands = [p.resolve_operand(flag_ref, flag_t)]
        p.expect(",")
        p.expect("[")
        p.parse_keyword("default")
        p.expect(":")
        default_dest, default_vals = _parse_dest(p)
        values, dests, groups = [], [], []
        while p.consume_if(","):
            v = p.parse_integer()
            p.expect(":")
            d, vals = _parse_dest(p)
            values.append(_sext(v, flag_t.width))
            dests.append(d)
            groups.append(vals)
        p.expect("]")
        p.parse_optional_attr_dict(st)
        operands += default_vals
        for g in groups:
            operands += g
        st.operands = operands
        st.successors = [default_dest] + dests
        props = st.properties
        if values:
            props["case_values"] = DenseElementsAttr(A.VectorType([len(values)], flag_t),
                                                     values)
        props["case_operand_segments"] = A.DenseArrayAttr(A.i32, [len(g) for g in groups])
        props["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, len(default_vals), sum(len(g) for g in groups)])

    def print(self, pr):
        out = pr.out
        flag = self.operand(0)
        out.append(f"{pr.op_name(self)} {pr.value(flag)} : {pr.type_str(flag.type)}, [")
        nl = "\n" + pr.indent
        out.append(nl + "  default: " +
                   pr.successor_with_operands(self.successors[0], self.successor_operands(0)))
        values = self.case_value_list
        for i, v in enumerate(values):
            out.append("," + nl + f"  {v}: " + pr.successor_with_operands(
                self.successors[i + 1], self.successor_operands(i + 1)))
        if values:
            out.append(nl)
        out.append("]")
        attrs = {k: v for k, v in self.properties.items()
                 if k not in ("case_values", "case_operand_segments", "operandSegmentSizes")}
        attrs.update(self.attributes)
        pr.print_optional_attr_dict(attrs)


def _sext(v: int, width: int) -> int:
    """`v` truncated to `width` bits and read back as a signed number."""
    mask = (1 << width) - 1
    v &= mask
    return v - (1 << width) if v >> (width - 1) else v


def _parse_dest(p):
    """`^bb1` or `^bb1(%a, %b : i32, f32)`."""
    if p.kind != CARET:
        p.error("expected block name")
    return p.parse_successor_and_operands()


for _c in (AssertOp, BranchOp, CondBranchOp):
    install_format(_c)

CF = Dialect("cf", [AssertOp, BranchOp, CondBranchOp, SwitchOp])
