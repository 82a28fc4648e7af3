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
from ..ir.builder import InsertionPoint
from ..ir.core import BlockArgument
from ..rewrite.folding import constant_value
from ..rewrite.pattern import RewritePattern
from ..syntax.asm_format import DenseArrayFmt, install_format
from ..syntax.lexer import CARET

__all__ = ["CF", "AssertOp", "BranchOp", "CondBranchOp", "SwitchOp", "BranchOpMixin",
           "verify_successor_operands", "check_leaves", "encode_check_message",
           "failed_check_message", "MAX_CHECK_LEAVES"]


# [Note: failed checks report their values]
# A run-time check is `cf.assert %ok, "message"` (upstream's op, as iree-opt reads it);
# its message is fixed text ("aten.gather at g: index out of range [0, 5) on data axis
# 1"). The values that made it fail are in the IR that computed %ok: its comparisons
# (`arith.cmpi`, under `arith.andi`; of `arith.ori`, the first operand, the rule where
# the second is an exemption) each compare a value with its bound. `check_leaves` finds
# them (at most MAX_CHECK_LEAVES). Where a check fails, the message then ends with the
# comparisons that do not hold, with their values at run time:
#     aten.gather at g: index out of range [0, 5) on data axis 1 (failed: 7 < 5)
#     Dim 'batch' (s77) of input 'x' must be in [2, 64] (failed: 70 <= 64)
# The interpreter writes it from its values. Compiled CPU code
# (convert-to-llvm{assert-values=true}) calls
#     void strata_assert_fail_values(const char *msg, const int64_t *values)
# instead of strata_assert_fail, `msg` the message encoded with the comparisons'
# predicates (`encode_check_message`: message, \x1e, predicates joined by \x1f, such as
# "slt"), `values` (held, lhs, rhs) per comparison as int64; the JIT's runtime (Python)
# and a shared library's C runtime format it as `failed_check_message` does.
MAX_CHECK_LEAVES = 4
_MESSAGE_END = "\x1e"
_PRED_SEP = "\x1f"
_PRED_TEXT = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
              "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}


def check_leaves(flag) -> list:
    """The comparisons deciding i1 Value `flag` ([Note: failed checks report their
    values]): [(predicate name, lhs, rhs, the comparison's i1 result)], integer or
    index operands only."""
    out, stack = [], [flag]
    while stack and len(out) < MAX_CHECK_LEAVES:
        v = stack.pop()
        op = getattr(v, "owner", None)
        name = getattr(op, "name", None)
        if name == "arith.andi":
            stack.extend(reversed(op.operands))
        elif name == "arith.ori":
            stack.append(op.operands[0])
        elif name == "arith.cmpi":
            lhs, rhs = op.operands
            src = getattr(lhs, "owner", None)
            if op.predicate_name == "ne" and getattr(src, "name", None) in (
                    "arith.extui", "arith.extsi") and src.operands[0].type == A.i1 \
                    and _is_zero(rhs):
                stack.append(src.operands[0])   # a flag widened and tested: the flag
            elif isinstance(lhs.type, (A.IntegerType, A.IndexType)):
                out.append((op.predicate_name, lhs, rhs, v))
    return out


def _is_zero(v) -> bool:
    op = getattr(v, "owner", None)
    if getattr(op, "name", None) != "arith.constant":
        return False
    return getattr(op.properties.get("value"), "value", None) == 0


def encode_check_message(message: str, predicates) -> str:
    """`message` with the comparisons' predicates, as strata_assert_fail_values reads it."""
    return message + _MESSAGE_END + _PRED_SEP.join(predicates) if predicates else message


def failed_check_message(encoded: str, values) -> str:
    """The message of a failed check from `encode_check_message`'s text and the int64
    `values` (held, lhs, rhs per comparison): the comparisons that do not hold appended
    with their values."""
    message, sep, preds = encoded.partition(_MESSAGE_END)
    if not sep:
        return encoded
    parts = []
    for k, p in enumerate(preds.split(_PRED_SEP)):
        held, a, b = (int(x) for x in values[3 * k:3 * k + 3])
        if held:
            continue
        if p.startswith("u"):
            a, b = a & ((1 << 64) - 1), b & ((1 << 64) - 1)
        parts.append(f"{a} {_PRED_TEXT.get(p, p)} {b}")
    return f"{message} (failed: {', '.join(parts)})" if parts else message


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

    @classmethod
    def canonicalization_patterns(cls):
        return [EraseTrueAssert()]


class BranchOp(BranchOpMixin, Op):
    """`cf.br ^bb1(%a : i32)`"""

    name = "cf.br"
    traits = (T.Pure, T.Terminator)
    destOperands = VarOperand()
    dest = Successor()
    assembly = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"

    def successor_operand_range(self, index):
        return 0, len(self._operands)

    def successor_for_operands(self, consts):
        """BranchOpInterface::getSuccessorForOperands: always the one destination."""
        return self.successors[0]

    @classmethod
    def canonicalization_patterns(cls):
        return [SimplifyBranch()]


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

    def successor_for_operands(self, consts):
        """The destination taken for constant operands `consts` (None: unknown)."""
        c = consts[0] if consts else None
        if type(c) is not A.IntegerAttr:
            return None
        return self.successors[0] if c.value else self.successors[1]

    @classmethod
    def canonicalization_patterns(cls):
        # Upstream registers the uniform-argument pattern here as a BranchOpInterface
        # pattern, so every branch op gets it after the patterns registered before
        # (see _uniform_arg_patterns).
        return [SimplifyConstCondBranch(), SimplifyPassThroughCondBranch(),
                SimplifyCondBranchIdenticalSuccessors(),
                SimplifyCondBranchFromCondBranchOnSameCondition(),
                CondBranchTruthPropagation(), DropUnreachableCondBranch()] + \
            _uniform_arg_patterns()

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

    def successor_for_operands(self, consts):
        """The destination taken for a constant flag (None: unknown)."""
        c = consts[0] if consts else None
        values = self.case_value_list
        if not values:
            return self.successors[0]
        if type(c) is not A.IntegerAttr:
            return None
        v = _sext(c.value, self.operand(0).type.width)
        for i, cv in enumerate(values):
            if cv == v:
                return self.successors[i + 1]
        return self.successors[0]

    @classmethod
    def canonicalization_patterns(cls):
        return [SimplifySwitchWithOnlyDefault(), DropSwitchCasesThatMatchDefault(),
                SimplifyConstSwitchValue(), SimplifyPassThroughSwitch(),
                SimplifySwitchFromSwitchOnSameCondition(),
                SimplifySwitchFromDefaultSwitchOnSameCondition()]

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
            vstart = p.tok_start
            v = p.parse_integer()
            # As upstream: a value fits when it reads as a signed or an unsigned number of
            # the flag's width (-128..255 for i8); it is then kept as its signed reading.
            if not -(1 << (flag_t.width - 1)) <= v < (1 << flag_t.width):
                p.error(p._custom_prefix() + f"case value is out of range for '{flag_t}'",
                        vstart)
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



# ====================================================================== canonicalization
#
# [Note: cf canonicalization]
# Upstream's patterns, in upstream's order (the greedy driver tries them in the order
# given, which decides the result when several apply):
#   cf.assert   an assert of a constant true goes;
#   cf.br       merge into a destination that has this branch as its only predecessor;
#               jump over a destination that only forwards to another block; replace
#               the destination's arguments that every predecessor feeds the same value;
#   cf.cond_br  constant condition -> cf.br; pass-through destinations are skipped;
#               the same destination twice -> cf.br (arith.select for operands that
#               differ, when this block is the destination's only predecessor); a
#               condition already decided by the predecessor's cf.cond_br; the condition
#               is known true / false in a destination it alone reaches; a destination
#               that is just `ub.unreachable` is never taken;
#   cf.switch   no cases -> cf.br; cases that go where the default goes are dropped;
#               constant flag -> cf.br; pass-through destinations are skipped; a flag
#               already decided by the predecessor's cf.switch.
# "Predecessors" count edges, as upstream's use lists of a block do: a cf.cond_br with
# the same destination twice is two predecessors.


def _int_const(v):
    """The integer `v` is known to hold (a constant integer or splat), or None."""
    a = constant_value(v)
    if type(a) is A.IntegerAttr:
        return a.value
    if isinstance(a, DenseElementsAttr) and a.is_splat and \
            type(a.element_type) is A.IntegerType:
        return int(a.values[0])
    return None


def _pred_edges(block):
    """(terminator, successor index) for every edge into `block`."""
    out = []
    region = block.parent
    if region is None:
        return out
    for b in region.blocks:
        t = b.last
        if t is None or not t.successors:
            continue
        for i, s in enumerate(t.successors):
            if s is block:
                out.append((t, i))
    return out


def _has_edge_count(block, n) -> bool:
    """Exactly `n` edges go into `block` (stops counting past `n`)."""
    count = 0
    region = block.parent
    if region is None:
        return n == 0
    for b in region.blocks:
        t = b.last
        if t is None or not t.successors:
            continue
        for s in t.successors:
            if s is block:
                count += 1
                if count > n:
                    return False
    return count == n


def single_predecessor(block):
    """The block of the only edge into `block` (None: zero or several edges)."""
    edges = _pred_edges(block)
    return edges[0][0].parent if len(edges) == 1 else None


def unique_predecessor(block):
    """The block every edge into `block` comes from (None: none, or several blocks)."""
    preds = {t.parent for t, _ in _pred_edges(block)}
    return preds.pop() if len(preds) == 1 else None


def _branches_here_on(value, cls, op, block) -> bool:
    """Another `cls` branch on `value` has `block` among its destinations."""
    for u in value.uses:
        t = u.owner
        if t is not op and type(t) is cls and any(s is block for s in t.successors):
            return True
    return False


def _collapse_branch(dest, operands):
    """If `dest` holds nothing but a `cf.br` that only forwards its arguments, the
    block and operands a branch to `dest` with `operands` can go to instead; else None.
    Chains of branches that run into a cycle are left alone (jumping over them could
    loop forever)."""
    term = dest.last
    if term is None or dest.first is not term or type(term) is not BranchOp:
        return None
    for a in dest.args:
        for u in a.uses:
            if u.owner is not term:
                return None
    nxt = term.successors[0]
    if nxt is dest:
        return None
    visited = {dest, nxt}
    t = nxt.last
    while type(t) is BranchOp:
        d = t.successors[0]
        if d in visited:
            return None
        visited.add(d)
        t = d.last
    new_ops = [operands[v.index] if type(v) is BlockArgument and v.owner is dest else v
               for v in term.operands]
    return nxt, new_ops


def _new_br(rewriter, op, dest, operands):
    return rewriter.replace_op_with_new(op, BranchOp, destOperands=list(operands),
                                        successors=[dest])


def _new_switch(rewriter, op, default, default_ops, values, dests, groups, values_attr=None):
    """Replace `op` by a cf.switch on the same flag (values are signed ints)."""
    flag = op.operand(0)
    props = {}
    if values_attr is not None:
        props["case_values"] = values_attr
    elif values:
        props["case_values"] = DenseElementsAttr(A.VectorType([len(values)], flag.type),
                                                 list(values))
    props["case_operand_segments"] = A.DenseArrayAttr(A.i32, [len(g) for g in groups])
    props["operandSegmentSizes"] = A.DenseArrayAttr(
        A.i32, [1, len(default_ops), sum(len(g) for g in groups)])
    operands = [flag] + list(default_ops)
    for g in groups:
        operands += list(g)
    new = SwitchOp.create(operands, (), props, None, [default] + list(dests), 0, op.loc)
    rewriter.ip = InsertionPoint.before_op(op)
    rewriter.insert(new)
    rewriter.replace_op(op, [])
    return new


def _simplify_uniform_block_args(dest, rewriter, via=None) -> bool:
    """Replace each argument of `dest` that every predecessor feeds the same value by
    that value (the argument is then dead; region simplification drops it). Needs at
    least two edges into `dest`. `via` (branch op, successor index), one of the edges,
    lets cheap tests rule the rewrite out before the region is scanned for edges."""
    if not any(a.first_use is not None for a in dest.args):
        return False
    if via is not None and not _may_be_uniform(dest, *via):
        return False
    edges = _pred_edges(dest)
    if len(edges) < 2:
        return False
    changed = False
    for arg in dest.args:
        if arg.first_use is None:
            continue
        common = None
        for term, i in edges:
            if getattr(term, "successor_operand_range", None) is None:
                common = None
                break
            start, n = term.successor_operand_range(i)
            if arg.index >= n:
                common = None
                break
            v = term.operand(start + arg.index)
            if common is not None and common is not v:
                common = None
                break
            common = v
        if common is not None and common is not arg:
            rewriter.replace_all_uses_with(arg, common)
            changed = True
    return changed


def _may_be_uniform(dest, term, i) -> bool:
    """Whether some used argument of `dest` could get the same value on every edge:
    the value `term` forwards for it must reach `dest` that way at least twice."""
    start, n = term.successor_operand_range(i)
    for arg in dest.args:
        if arg.first_use is None or arg.index >= n:
            continue
        v = term.operand(start + arg.index)
        count = 0
        for u in v.uses:
            t = u.owner
            rng = getattr(t, "successor_operand_range", None)
            if rng is None or not t.successors:
                continue
            k = u.index
            for j, s in enumerate(t.successors):
                if s is dest:
                    st, cnt = rng(j)
                    if k - st == arg.index and st <= k < st + cnt:
                        count += 1
            if count >= 2:
                return True
    return False


class EraseTrueAssert(RewritePattern):
    """`cf.assert %true, "..."` never fires: erase it."""

    root = "cf.assert"

    def match_and_rewrite(self, op, rewriter):
        v = _int_const(op.operand(0))
        if v is None or not v:
            return False
        rewriter.erase_op(op)
        return True


class SimplifyBranch(RewritePattern):
    """cf.br's canonicalizations, tried in upstream's order (one pattern upstream)."""

    root = "cf.br"

    def match_and_rewrite(self, op, rewriter):
        dest = op.successors[0]
        block = op.parent
        # 1. The destination has no other predecessor: merge it into this block.
        if dest is not block and _has_edge_count(dest, 1) and not any(
                type(v) is BlockArgument and v.owner is dest for v in op.operands):
            operands = op.operands
            rewriter.erase_op(op)
            rewriter.merge_blocks(dest, block, operands)
            return True
        # 2. The destination only forwards to another block: go there directly.
        if dest is not block:
            c = _collapse_branch(dest, op.operands)
            if c is not None:
                _new_br(rewriter, op, c[0], c[1])
                return True
        # 3. Arguments every predecessor feeds the same value.
        return _simplify_uniform_block_args(dest, rewriter, (op, 0))


class SimplifyUniformBlockArguments(RewritePattern):
    """The destinations' arguments that every predecessor feeds the same value are
    replaced by that value (upstream: a BranchOpInterface pattern)."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter):
        changed = False
        for i, s in enumerate(list(op.successors)):
            changed |= _simplify_uniform_block_args(s, rewriter, (op, i))
        return changed


def _uniform_arg_patterns():
    """The uniform-argument pattern as upstream orders it: cf.cond_br registers it, so
    it comes after cf.cond_br's own patterns and before cf.switch's (ops register in
    name order). cf.br's own pattern ends with the same rewrite, and cf.switch registers
    it once more after its patterns: those copies could only fail where the first one
    did, so they are left out (each costs a scan of the region)."""
    return [SimplifyUniformBlockArguments(n) for n in ("cf.cond_br", "cf.switch")]


class SimplifyConstCondBranch(RewritePattern):
    """`cf.cond_br %true, ^a, ^b` -> `cf.br ^a` (and `false` -> `^b`)."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        v = _int_const(op.operand(0))
        if v is None:
            return False
        i = 0 if v else 1
        _new_br(rewriter, op, op.successors[i], op.successor_operands(i))
        return True


class SimplifyPassThroughCondBranch(RewritePattern):
    """Destinations that only forward to another block are jumped over."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        t = _collapse_branch(op.successors[0], op.successor_operands(0))
        f = _collapse_branch(op.successors[1], op.successor_operands(1))
        if t is None and f is None:
            return False
        if t is None:
            t = (op.successors[0], op.successor_operands(0))
        if f is None:
            f = (op.successors[1], op.successor_operands(1))
        props = {}
        w = op.properties.get("branch_weights")
        if w is not None:
            props["branch_weights"] = w
        rewriter.replace_op_with_new(op, CondBranchOp, condition=op.operand(0),
                                     trueDestOperands=list(t[1]),
                                     falseDestOperands=list(f[1]),
                                     successors=[t[0], f[0]], **props)
        return True


class SimplifyCondBranchIdenticalSuccessors(RewritePattern):
    """Both edges go to the same block: one cf.br, with arith.select for operands
    that differ (only when this block is the destination's sole predecessor)."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        dest = op.successors[0]
        if dest is not op.successors[1]:
            return False
        tv, fv = op.successor_operands(0), op.successor_operands(1)
        if len(tv) == len(fv) and all(a is b for a, b in zip(tv, fv)):
            _new_br(rewriter, op, dest, tv)
            return True
        if unique_predecessor(dest) is not op.parent:
            return False
        from .arith import SelectOp
        rewriter.ip = InsertionPoint.before_op(op)
        cond = op.operand(0)
        merged = []
        for a, b in zip(tv, fv):
            if a is b:
                merged.append(a)
            else:
                merged.append(rewriter.create(SelectOp, condition=cond, true_value=a,
                                              false_value=b, result=a.type,
                                              loc=op.loc).results[0])
        _new_br(rewriter, op, dest, merged)
        return True


class SimplifyCondBranchFromCondBranchOnSameCondition(RewritePattern):
    """This block is reached only from a cf.cond_br on the same condition, which
    already decided it: branch unconditionally."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        block = op.parent
        if not _branches_here_on(op.operand(0), CondBranchOp, op, block):
            return False  # cheap test first: finding the predecessor scans the region
        pred = single_predecessor(block)
        if pred is None:
            return False
        pt = pred.last
        if type(pt) is not CondBranchOp or pt.operand(0) is not op.operand(0):
            return False
        i = 0 if pt.successors[0] is block else 1
        _new_br(rewriter, op, op.successors[i], op.successor_operands(i))
        return True


class CondBranchTruthPropagation(RewritePattern):
    """In a destination only this edge reaches, the condition is a known constant:
    its uses there read `true` (or `false`)."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        cond = op.operand(0)
        replaced = False
        for i, known in ((0, 1), (1, 0)):
            dest = op.successors[i]
            uses = [u for u in cond.uses if u.owner.parent is dest]
            if not uses or single_predecessor(dest) is None:
                continue
            const = None
            for u in uses:
                if const is None:
                    from .arith import ConstantOp
                    rewriter.ip = InsertionPoint.before_op(op)
                    const = rewriter.create(ConstantOp, value=A.IntegerAttr(known, A.i1),
                                            result=A.i1, loc=op.loc).results[0]
                rewriter.modify_op_in_place(u.owner, lambda u=u, c=const: u.set(c))
                replaced = True
        return replaced


class DropUnreachableCondBranch(RewritePattern):
    """A destination holding only `ub.unreachable` is never taken: branch to the
    other one."""

    root = "cf.cond_br"

    def match_and_rewrite(self, op, rewriter):
        for i in (0, 1):
            d = op.successors[i]
            t = d.last
            if t is not None and d.first is t and t.name == "ub.unreachable":
                j = 1 - i
                _new_br(rewriter, op, op.successors[j], op.successor_operands(j))
                return True
        return False


def _switch_cases(op):
    """[(value, destination, operands)] of a cf.switch's cases."""
    values = op.case_value_list
    return [(v, op.successors[i + 1], op.successor_operands(i + 1))
            for i, v in enumerate(values)]


def _fold_switch(rewriter, op, value):
    """Replace `op` by a branch to where flag `value` goes."""
    for i, (v, d, ops) in enumerate(_switch_cases(op)):
        if v == value:
            _new_br(rewriter, op, d, ops)
            return
    _new_br(rewriter, op, op.successors[0], op.successor_operands(0))


class SimplifySwitchWithOnlyDefault(RewritePattern):
    """`cf.switch %f : i32, [default: ^a]` -> `cf.br ^a`."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        if len(op.successors) > 1:
            return False
        _new_br(rewriter, op, op.successors[0], op.successor_operands(0))
        return True


class DropSwitchCasesThatMatchDefault(RewritePattern):
    """Cases going where the default goes, with the same operands, are dropped."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        default, dops = op.successors[0], op.successor_operands(0)
        keep = []
        dropped = False
        for v, d, ops in _switch_cases(op):
            if d is default and len(ops) == len(dops) and \
                    all(a is b for a, b in zip(ops, dops)):
                dropped = True
                continue
            keep.append((v, d, ops))
        if not dropped:
            return False
        _new_switch(rewriter, op, default, dops, [v for v, _, _ in keep],
                    [d for _, d, _ in keep], [o for _, _, o in keep])
        return True


class SimplifyConstSwitchValue(RewritePattern):
    """A constant flag picks its destination: `cf.br` there."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        v = _int_const(op.operand(0))
        if v is None:
            return False
        _fold_switch(rewriter, op, _sext(v, op.operand(0).type.width))
        return True


class SimplifyPassThroughSwitch(RewritePattern):
    """Destinations that only forward to another block are jumped over."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        changed = False
        dests, groups = [], []
        for _, d, ops in _switch_cases(op):
            c = _collapse_branch(d, ops)
            if c is not None:
                changed = True
                d, ops = c
            dests.append(d)
            groups.append(ops)
        default, dops = op.successors[0], op.successor_operands(0)
        c = _collapse_branch(default, dops)
        if c is not None:
            changed = True
            default, dops = c
        if not changed:
            return False
        _new_switch(rewriter, op, default, dops, None, dests, groups,
                    values_attr=op.properties.get("case_values"))
        return True


class SimplifySwitchFromSwitchOnSameCondition(RewritePattern):
    """This block is reached only through a case of a cf.switch on the same flag:
    the flag's value is known here."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        block = op.parent
        if not _branches_here_on(op.operand(0), SwitchOp, op, block):
            return False  # cheap test first: finding the predecessor scans the region
        pred = single_predecessor(block)
        if pred is None:
            return False
        ps = pred.last
        if type(ps) is not SwitchOp or ps.operand(0) is not op.operand(0) or \
                ps.successors[0] is block:
            return False
        for v, d, _ in _switch_cases(ps):
            if d is block:
                _fold_switch(rewriter, op, v)
                return True
        _new_br(rewriter, op, op.successors[0], op.successor_operands(0))
        return True


class SimplifySwitchFromDefaultSwitchOnSameCondition(RewritePattern):
    """This block is the default of a cf.switch on the same flag (its only
    predecessor): the values that switch sends elsewhere cannot occur here."""

    root = "cf.switch"

    def match_and_rewrite(self, op, rewriter):
        block = op.parent
        if not _branches_here_on(op.operand(0), SwitchOp, op, block):
            return False  # cheap test first: finding the predecessor scans the region
        pred = single_predecessor(block)
        if pred is None:
            return False
        ps = pred.last
        if type(ps) is not SwitchOp or ps.operand(0) is not op.operand(0) or \
                ps.successors[0] is not block:
            return False
        impossible = {v for v, d, _ in _switch_cases(ps) if d is not block}
        keep = [c for c in _switch_cases(op) if c[0] not in impossible]
        if len(keep) == len(op.successors) - 1:
            return False
        _new_switch(rewriter, op, op.successors[0], op.successor_operands(0),
                    [v for v, _, _ in keep], [d for _, d, _ in keep],
                    [o for _, _, o in keep])
        return True


for _c in (AssertOp, BranchOp, CondBranchOp):
    install_format(_c)

CF = Dialect("cf", [AssertOp, BranchOp, CondBranchOp, SwitchOp])
