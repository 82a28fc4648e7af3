"""The scf dialect: structured control flow (loops, conditionals, switches, regions).

[Note: implicit terminators]
`scf.for`, `scf.if`, `scf.index_switch`, `scf.parallel` and `scf.forall` end their
single-block regions with a terminator (`scf.yield`, `scf.reduce`, ...) that the custom form
may leave out. As upstream's parsers do, each of these ops has a `finish_parse` hook (the
parser calls it once the op exists, so the terminator gets the op's location) that adds the
terminator where it is missing and creates the block of an empty `{}` region; the printers
leave the terminator out exactly where upstream's do.

[Note: control flow edges between regions]
Upstream verifies every op implementing RegionBranchOpInterface by walking its edges: from
the op into a region ("parent"), from a region's terminator to another region or back to
the op's results. Each op's `verify_regions_` lists its edges in upstream's order; the
shared `_verify_edges` checks operand counts and types along them with upstream's messages
("along control flow edge from Operation scf.yield to Region #0: ...").
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.core import Block, Region
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.ods import (Op, Operand, OptProp, Prop, RegionDef, VarOperand, VarRegionDef,
                      VarResult)
from ..syntax.asm_format import install_format
from ..syntax.dynamic_index_list import (mixed_values, parse_dynamic_index_list,
                                         print_dynamic_index_list)
from ..syntax.lexer import PUNCT

__all__ = ["SCF", "ConditionOp", "ExecuteRegionOp", "ForOp", "ForallOp", "InParallelOp",
           "IfOp", "ParallelOp", "ReduceOp", "ReduceReturnOp", "WhileOp", "IndexSwitchOp",
           "YieldOp"]

DYNAMIC = A.DYNAMIC

# ====================================================================== helpers


def _raise(op, message: str, notes=()):
    """Fail verification of `op` with `message` as written (no "'op' op" prefix added)."""
    d = Diagnostic(ERROR, op.loc, message)
    for msg, loc in notes:
        d.attach_note(msg, loc)
    raise DiagnosticError(d)


def _op_error(op, message: str, notes=()):
    """Like upstream's emitOpError with attached notes."""
    _raise(op, f"'{op.name}' op {message}", notes)


def _const_int(v):
    """The integer a value is known to hold (a ConstantLike op's IntegerAttr), or None."""
    d = v.defining_op
    if d is None or T.ConstantLike not in type(d).traits:
        return None
    a = d.properties.get("value")
    return a.value if type(a) is A.IntegerAttr else None


def ensure_terminator(region: Region, term_cls, loc) -> None:
    """What upstream's ensureTerminator does: give an empty region a block and end the
    (last) block with a fresh `term_cls` op unless it already ends with a terminator."""
    if not region.blocks:
        region.add_block(Block())
    b = region.blocks[-1]
    last = b.last
    if last is None or T.Terminator not in type(last).traits:
        b.append(term_cls.create(loc=loc))


def _verify_edges(op, edges) -> None:
    """Check (point, target, operands, inputs) edges; point None is the op itself, target
    None its results (upstream names it after the op)."""
    for point, target, operands, inputs in edges:
        src = "parent" if point is None else f"Operation {point.name}"
        dst = f"Operation {op.name}" if target is None else \
            f"Region #{op.regions.index(target)}"
        note = [("region branch point", op.loc if point is None else point.loc)]
        head = f"along control flow edge from {src} to {dst}: "
        if len(operands) != len(inputs):
            _op_error(op, head + f"region branch point has {len(operands)} operands, but "
                      f"region successor needs {len(inputs)} inputs", note)
        for i, (v, w) in enumerate(zip(operands, inputs)):
            if v.type is not w.type:
                _op_error(op, head + f"successor operand type #{i} '{v.type}' should match "
                          f"successor input type #{i} '{w.type}'", note)


def _terminators(region, cls):
    """Block terminators of `region` that are `cls` ops (RegionBranchTerminator points)."""
    out = []
    for b in region.blocks:
        t = b.last
        if t is not None and type(t) is cls:
            out.append(t)
    return out


def _entry_args(region):
    return region.blocks[0].args if region.blocks else []


def _verify_terminator_kind(op, region, cls, message):
    """upstream's verifyAndGetTerminator: error with a note at the wrong terminator."""
    t = region.blocks[0].last if region.blocks else None
    if t is not None and type(t) is cls:
        return t
    _op_error(op, message, [("terminator here", t.loc)] if t is not None else ())


# -- custom-syntax pieces shared by the loop ops

def _parse_assignment_list(p):
    """`(%inner = %outer, ...)` -> [(inner ref, outer ref)]."""
    p.expect("(")
    out = []
    if p.consume_if(")"):
        return out
    while True:
        inner = p.parse_operand()
        p.expect("=")
        outer = p.parse_operand()
        out.append((inner, outer))
        if not p.consume_if(","):
            break
    p.expect(")")
    return out


def _parse_function_result_types(p):
    """`(t1, t2)`, `()` or one type (upstream's parseFunctionResultTypes)."""
    if p.kind == PUNCT and p.tok == "(":
        p._next()
        if p.consume_if(")"):
            return []
        ts = p.parse_type_list()
        p.expect(")")
        return ts
    return [p.parse_type()]


def _parse_optional_arrow_types(p):
    if p.consume_if("->"):
        return _parse_function_result_types(p)
    return []


def _arrow_types(pr, types) -> str:
    """printOptionalArrowTypeList: ` -> i32` or ` -> (i32, f32)`; nothing for none."""
    if not types:
        return ""
    if len(types) == 1 and type(types[0]) is not A.FunctionType:
        return " -> " + pr.type_str(types[0])
    return " -> (" + ", ".join(map(pr.type_str, types)) + ")"


def _init_list(pr, args, values, prefix) -> str:
    """printInitializationList: `prefix(%arg = %init, ...)`, nothing when empty."""
    if not values:
        return ""
    return prefix + "(" + ", ".join(f"{pr.value(a)} = {pr.value(v)}"
                                    for a, v in zip(args, values)) + ")"


def _arg(ref, t):
    """A region argument for parse_region from an operand reference and its type."""
    key, offset = ref
    return (key, offset, t, None)


def _resolve(p, refs, types, offset):
    """OpAsmParser::resolveOperands(operands, types, loc): counts must agree."""
    if len(refs) != len(types):
        p.error(p._custom_prefix() + "number of operands and types do not match: got "
                f"{len(refs)} operands and {len(types)} types", offset)
    return [p.resolve_operand(r, t) for r, t in zip(refs, types)]


def _name_offset(p):
    """Where the op name was (upstream's getNameLoc): some custom-form errors go there."""
    off = getattr(p, "custom_op_offset", None)
    return off if off is not None else p.tok_start


def _attrs_for_print(op, elided=()):
    d = {k: v for k, v in op.properties.items() if k not in elided}
    d.update(op.attributes)
    return d


# ====================================================================== pass interfaces
#
# LoopLikeOpInterface (passes/licm.py): `loop_regions()`, `is_defined_outside_loop(v)`,
# `move_out_of_loop(op)`; ConditionallySpeculatable: `speculatability()` ("speculatable",
# "recursive": as speculatable as the ops inside, or "not").
# RegionBranchOpInterface (passes/sccp.py): `region_successors(src, operands=None)` lists
# where control goes from the op itself (`src` None; with `operands`, the constant
# Attribute or None of each operand, only where it can go) or from the end of region
# `src`, as (region, or None for the op's results; the values receiving what is
# forwarded); `entry_successor_operands(target)` is what the op forwards. Terminators
# answer `region_successor_operands(target)`. The canonicalization patterns that edit
# these edges (rewrite/region_branch.py) also need where the forwarded operands sit:
# `entry_successor_operand_range(target)` and `region_successor_operand_range(target)`,
# (start, count) in the op's (the terminator's) operand list.
# Canonicalization: each op's `canonicalization_patterns()` and scf.if's `fold` are in
# scf_patterns.py.


def _defined_outside(loop, value) -> bool:
    """The value is not defined inside `loop` (upstream's default isDefinedOutsideOfLoop)."""
    block = value.parent_block
    region = block.parent if block is not None else None
    owner = region.parent if region is not None else None
    return owner is None or not loop.is_ancestor(owner)


def _static_trip_count(op):
    """scf.for's trip count when the bounds say it (upstream's getStaticTripCount)."""
    lb, ub, step = op.operands[:3]
    return constant_trip_count(lb, ub, step, "unsignedCmp" not in op.properties)


def _bound_kind(x):
    """(bit width, is index) of a loop bound: an int from a static bound list counts as
    an i64 attribute (as upstream's mixed values do), a Value by its type."""
    if isinstance(x, int):
        return 64, False
    t = x.type
    return (t.width, False) if type(t) is A.IntegerType else (64, True)


def _ub_minus_lb(lb, ub, signed):
    """ub - lb when `ub` is `arith.addi %lb, cst` that cannot wrap (nsw for a signed
    loop, nuw for an unsigned one; upstream's computeUbMinusLb), else None."""
    if isinstance(lb, int) or isinstance(ub, int):
        return None
    add = ub.defining_op
    if add is None or add.name != "arith.addi" or add.operand(0) is not lb:
        return None
    flags = getattr(add.properties.get("overflowFlags"), "flags", None) or ()
    if ("nsw" if signed else "nuw") not in flags:
        return None
    c = _const_int(add.operand(1))
    if c is None:
        return None
    w = _bound_kind(ub)[0]
    c &= (1 << w) - 1
    return c - (1 << w) if c >> (w - 1) else c


def constant_trip_count(lb, ub, step, signed=True):
    """How many times a loop from `lb` to `ub` by `step` runs, when the bounds tell
    (upstream's constantTripCount): each is a Value or an int (a static bound). None
    when unknown: non-constant bounds, a zero step, or a negative step of a signed loop
    that has to run at all."""
    w, is_index = _bound_kind(lb)
    if (w, is_index) != _bound_kind(ub):
        return None
    if lb is ub or (isinstance(lb, int) and isinstance(ub, int) and lb == ub):
        return 0
    mask = (1 << w) - 1
    s = step if isinstance(step, int) else _const_int(step)
    if s is not None:
        s &= mask
        if s == 0:
            return None
    a = lb if isinstance(lb, int) else _const_int(lb)
    b = ub if isinstance(ub, int) else _const_int(ub)
    if a is not None:
        if b is None:
            return None
        a, b = a & mask, b & mask
        if signed:
            a = a - (1 << w) if a >> (w - 1) else a
            b = b - (1 << w) if b >> (w - 1) else b
        if b <= a:
            return 0
        diff = (b - a) & mask
    else:
        if b is not None:
            return None
        diff = _ub_minus_lb(lb, ub, signed)
        if diff is None:
            return None
        if diff < 0:
            return 0
    if s is None or (signed and s >> (w - 1)):
        return None
    return -(-diff // s)


def _bool_operand(operands, i=0):
    """The constant i1 value of operand `i` (True/False), or None."""
    a = operands[i] if operands else None
    if type(a) is A.IntegerAttr and a.type is A.i1:
        return bool(a.value)
    return None


class _ScfOp(Op):
    """Upstream checks structural traits (one block per region, no region arguments, the
    parent op) before the declared operand, attribute and region constraints."""

    def verify_invariants(self):
        for t in type(self).traits:
            if t is T.SingleBlock or t is T.NoRegionArguments or \
                    isinstance(t, (T.SingleBlockImplicitTerminator, T.HasParent)):
                err = t.verify(self)
                if err:
                    return err
        return super().verify_invariants()


# ====================================================================== terminators


class YieldOp(_ScfOp):
    """`scf.yield %a, %b : i32, f32`"""

    name = "scf.yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator,
              T.HasParent("scf.execute_region", "scf.for", "scf.if", "scf.index_switch",
                          "scf.while"))
    values = VarOperand()
    assembly = "attr-dict ($values^ `:` type($values))?"

    @classmethod
    def new(cls, values=(), loc=None):
        return cls.build(loc=loc, values=list(values))

    def region_successor_operands(self, target):
        return self.operands

    def region_successor_operand_range(self, target):
        return 0, len(self._operands)


class ConditionOp(_ScfOp):
    """`scf.condition(%ok) %a : f32`: continue to the `do` region of scf.while or exit."""

    name = "scf.condition"
    traits = (T.HasParent("scf.while"), T.Pure, T.Terminator)
    condition = Operand(C.I1)
    args = VarOperand()
    assembly = "`(` $condition `)` attr-dict ($args^ `:` type($args))?"

    # -- RegionBranchTerminatorOpInterface (see "pass interfaces")
    def region_successor_operands(self, target):
        return self.operands[1:]

    def region_successor_operand_range(self, target):
        return 1, len(self._operands) - 1

    def terminator_successors(self, operands):
        """To `after` while the condition may be true, out while it may be false."""
        w = self.parent_op
        c = _bool_operand(operands)
        out = []
        if c is None or c:
            out.append((w.regions[1], list(_entry_args(w.regions[1]))))
        if c is None or not c:
            out.append((None, list(w.results)))
        return out

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i1 if name == "condition" else None


class ReduceReturnOp(_ScfOp):
    """`scf.reduce.return %r : f32`"""

    name = "scf.reduce.return"
    traits = (T.HasParent("scf.reduce"), T.Pure, T.Terminator)
    value = Operand()
    assembly = "$value attr-dict `:` type($value)"

    def verify_(self):
        b = self.parent
        if b is None or not b.args:
            return None
        want = b.args[0].type
        if want is not self.operand(0).type:
            return f"must have type '{want}' (the type of the reduction inputs)"
        return None


class ReduceOp(_ScfOp):
    """`scf.reduce(%x : f32) { ^bb0(%l: f32, %r: f32): ... scf.reduce.return %s : f32 }`:
    the terminator of scf.parallel, one reduction region per operand."""

    name = "scf.reduce"
    traits = (T.Terminator, T.HasParent("scf.parallel"), T.RecursiveMemoryEffects)
    operands_ = VarOperand()
    reductions = VarRegionDef(single_block=True)
    assembly = "(`(` $operands_^ `:` type($operands_) `)`)? $reductions attr-dict"

    def verify_regions_(self):
        vals = self.operands
        for i, r in enumerate(self.regions):
            if i >= len(vals):
                break
            t = vals[i].type
            b = r.blocks[0]
            if b.first is None:
                return f"{i}-th reduction has an empty body"
            if len(b.args) != 2 or any(a.type is not t for a in b.args):
                return (f"expected two block arguments with type '{t}' in the {i}-th "
                        "reduction region")
            last = b.last
            if type(last) is not ReduceReturnOp:
                return "reduction bodies must be terminated with an 'scf.reduce.return' op"
        return None


class InParallelOp(_ScfOp):
    """`scf.forall.in_parallel { tensor.parallel_insert_slice ... }`: ends an scf.forall;
    each op inside combines one thread's part into a shared output."""

    name = "scf.forall.in_parallel"
    traits = (T.Pure, T.Terminator, T.HasParent("scf.forall"), T.NoTerminator,
              T.SingleBlock, T.GraphRegion)
    region = RegionDef(single_block=True)

    @classmethod
    def new(cls, loc=None):
        op = cls.create(regions=1, loc=loc)
        op.regions[0].add_block(Block())
        return op

    def verify_(self):
        # Ops declaring `parallel_combining = True` (ParallelCombiningOpInterface).
        for r in self.regions:
            for b in r.blocks:
                for inner in b.ops:
                    if not getattr(type(inner), "parallel_combining", False):
                        return "expected only ParallelCombiningOpInterface ops"
        # Each op combines into one of the forall's shared outputs (its trailing block
        # arguments, one per result), as upstream checks; reported on that op.
        forall = self.parent_op
        if forall is None or not forall.regions or not forall.regions[0].blocks:
            return None
        args = forall.regions[0].blocks[0].args
        outs = set(args[len(args) - len(forall.results):]) if forall.results else set()
        for b in self.regions[0].blocks:
            for inner in b.ops:
                if inner.value_of("dest") not in outs:
                    _op_error(inner, "may only insert into an output block argument")
        return None

    @staticmethod
    def parse(p, st):
        r = p.parse_region(op_cls=InParallelOp)
        if not r.blocks:
            r.add_block(Block())
        st.regions.append(r)
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        pr.out.append(pr.op_name(self) + " ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=False)
        pr.print_optional_attr_dict(_attrs_for_print(self))


# ====================================================================== scf.execute_region


class ExecuteRegionOp(_ScfOp):
    """`%r = scf.execute_region -> i32 { ... scf.yield %x : i32 }`: runs its (possibly
    multi-block) region once; `no_inline` keeps canonicalization from inlining it."""

    name = "scf.execute_region"
    traits = (T.RecursiveMemoryEffects,)
    results_ = VarResult()
    no_inline = OptProp(C.UnitAttrC)
    region = RegionDef()

    # -- RegionBranchOpInterface (see "pass interfaces")
    def region_successors(self, src, operands=None):
        if src is None:
            return [(self.regions[0], [])]
        return [(None, list(self.results))]

    def entry_successor_operands(self, target):
        return []

    def entry_successor_operand_range(self, target):
        return len(self._operands), 0

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import execute_region_patterns
        return execute_region_patterns()

    def verify_(self):
        r = self.regions[0]
        if not r.blocks:
            return "region needs to have at least one block"
        if r.blocks[0].args:
            return "region cannot have any arguments"
        return None

    def verify_regions_(self):
        edges = [(None, self.regions[0], [], _entry_args(self.regions[0]))]
        for y in _terminators(self.regions[0], YieldOp):
            edges.append((y, None, y.operands, self.results))
        _verify_edges(self, edges)
        return None

    @staticmethod
    def parse(p, st):
        st.types = _parse_optional_arrow_types(p)
        if p.parse_optional_keyword("no_inline"):
            st.properties["no_inline"] = A.UnitAttr()
        st.regions.append(p.parse_region(op_cls=ExecuteRegionOp))
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self) + _arrow_types(pr, self.result_types) + " ")
        if "no_inline" in self.properties:
            out.append("no_inline ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)
        pr.print_optional_attr_dict(_attrs_for_print(self, ("no_inline",)))


# ====================================================================== scf.for


class ForOp(_ScfOp):
    """`%r = scf.for %i = %lb to %ub step %s iter_args(%acc = %init) -> (f32) { ... }`;
    a non-index induction variable is written `... step %s : i32 {`."""

    name = "scf.for"
    traits = (T.AutomaticAllocationScope, T.AffineScope,
              T.AllTypesMatch("lowerBound", "upperBound", "step"),
              T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("scf.yield"))
    lowerBound = Operand(C.SignlessIntegerOrIndex)
    upperBound = Operand(C.SignlessIntegerOrIndex)
    step = Operand(C.SignlessIntegerOrIndex)
    initArgs = VarOperand()
    unsignedCmp = OptProp(C.UnitAttrC)
    results_ = VarResult()
    region = RegionDef(single_block=True)

    @classmethod
    def new(cls, lb, ub, step, inits=(), loc=None):
        """A loop with its body block (induction variable, then one argument per init);
        the body ends in an empty `scf.yield` only when there are no inits, as upstream's
        builder: otherwise the caller yields the next values."""
        inits = list(inits)
        op = cls.build(loc=loc, lowerBound=lb, upperBound=ub, step=step, initArgs=inits,
                       result_types=[v.type for v in inits])
        body = op.regions[0].add_block(Block([lb.type] + [v.type for v in inits]))
        if not inits:
            body.append(YieldOp.new(loc=loc))
        return op

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def induction_var(self):
        return self.body.args[0]

    @property
    def region_iter_args(self):
        return self.body.args[1:]

    def finish_parse(self):
        ensure_terminator(self.regions[0], YieldOp, self.loc)

    # -- LoopLikeOpInterface (see "pass interfaces" above)
    def loop_regions(self):
        return [self.regions[0]]

    def is_defined_outside_loop(self, value) -> bool:
        return _defined_outside(self, value)

    def move_out_of_loop(self, op) -> None:
        op.move_before(self)

    def speculatability(self) -> str:
        """Only a unit step surely terminates: then as speculatable as the body."""
        return "recursive" if _const_int(self.operand(2)) == 1 else "not"

    # -- RegionBranchOpInterface
    def region_successors(self, src, operands=None):
        """Into the body (its iteration arguments) or out to the results; a static trip
        count of 0 or 1 rules one of them out."""
        to_body = (self.regions[0], list(self.region_iter_args))
        to_results = (None, list(self.results))
        trips = _static_trip_count(self)
        if trips is not None:
            if src is None:
                return [to_results] if trips == 0 else [to_body]
            if trips == 1:
                return [to_results]
        return [to_body, to_results]

    def entry_successor_operands(self, target):
        return self.initArgs

    def entry_successor_operand_range(self, target):
        return 3, len(self._operands) - 3

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import for_patterns
        return for_patterns()

    def verify_(self):
        if len(self.initArgs) != len(self.results):
            return "mismatch in number of loop-carried values and defined values"
        return None

    def verify_regions_(self):
        # After the nested ops, in upstream's order: LoopLikeOpInterface's counts,
        # RegionBranchOpInterface's edges, then the op's own region checks.
        body = self.regions[0].blocks[0]
        if not body.args:
            return ("expected body to have at least 1 argument(s) for the induction "
                    "variable, but got 0")
        inits, iter_args, results = self.initArgs, body.args[1:], self.results
        if len(inits) != len(iter_args):
            return (f"different number of inits and region iter_args: {len(inits)} != "
                    f"{len(iter_args)}")
        yields = _terminators(self.regions[0], YieldOp)
        yielded = yields[0].operands if yields else []
        if yielded and len(yielded) != len(iter_args):
            return (f"different number of region iter_args and yielded values: "
                    f"{len(iter_args)} != {len(yielded)}")
        if len(results) != len(iter_args):
            return (f"different number of loop results and region iter_args: "
                    f"{len(results)} != {len(iter_args)}")
        lb, ub, step = self.operands[:3]
        edges = []
        if not _zero_trip(lb, ub, "unsignedCmp" in self.properties):
            edges.append((None, self.regions[0], inits, iter_args))
        edges.append((None, None, inits, results))
        for y in yields:
            edges.append((y, self.regions[0], y.operands, iter_args))
            edges.append((y, None, y.operands, results))
        _verify_edges(self, edges)
        if body.args[0].type is not lb.type:
            return "expected induction variable to be same type as bounds and step"
        for i, (init, arg, res) in enumerate(zip(inits, iter_args, results)):
            if init.type is not res.type:
                return f"types mismatch between {i}th iter operand and defined value"
            if arg.type is not res.type:
                return f"types mismatch between {i}th iter region arg and defined value"
        return None

    @staticmethod
    def parse(p, st):
        name_offset = _name_offset(p)
        if p.parse_optional_keyword("unsigned"):
            st.properties["unsignedCmp"] = A.UnitAttr()
        iv = p.parse_operand()
        p.expect("=")
        lb = p.parse_operand()
        p.parse_keyword("to")
        ub = p.parse_operand()
        p.parse_keyword("step")
        step = p.parse_operand()
        pairs = []
        if p.parse_optional_keyword("iter_args"):
            pairs = _parse_assignment_list(p)
            p.expect("->")
            st.types = _parse_function_result_types(p)
        if len(pairs) != len(st.types):
            p.error(p._custom_prefix() + "mismatch in number of loop-carried values and "
                    "defined values", name_offset)
        t = p.parse_type() if p.consume_if(":") else A.index
        operands = [p.resolve_operand(r, t) for r in (lb, ub, step)]
        operands += [p.resolve_operand(outer, rt) for (_, outer), rt in zip(pairs, st.types)]
        st.operands = operands
        args = [_arg(iv, t)] + [_arg(inner, rt) for (inner, _), rt in
                                    zip(pairs, st.types)]
        st.regions.append(p.parse_region(args=args, op_cls=ForOp))
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        body = self.regions[0].blocks[0]
        lb, ub, step = self.operands[:3]
        inits = self.initArgs
        out.append(pr.op_name(self))
        if "unsignedCmp" in self.properties:
            out.append(" unsigned")
        out.append(f" {pr.value(body.args[0])} = {pr.value(lb)} to {pr.value(ub)} step "
                   f"{pr.value(step)}")
        out.append(_init_list(pr, body.args[1:], inits, " iter_args"))
        if inits:
            out.append(" -> (" + ", ".join(pr.type_str(v.type) for v in inits) + ")")
        out.append(" ")
        t = body.args[0].type
        if type(t) is not A.IndexType:
            out.append(f" : {pr.type_str(t)} ")
        pr.print_region(self.regions[0], print_entry_args=False,
                        print_terminators=bool(inits))
        pr.print_optional_attr_dict(_attrs_for_print(self, ("unsignedCmp",)))


def _zero_trip(lb, ub, unsigned: bool) -> bool:
    """The loop provably runs zero times (upstream then skips the edge into the body)."""
    if lb is ub:
        return True
    a, b = _const_int(lb), _const_int(ub)
    if a is None or b is None:
        return False
    if unsigned:
        w = 64 if type(lb.type) is A.IndexType else lb.type.width
        a, b = a & ((1 << w) - 1), b & ((1 << w) - 1)
    return b <= a


# ====================================================================== scf.forall

_RANKED_TENSOR = C.Constraint(lambda t: type(t) is A.RankedTensorType,
                              "ranked tensor of any non-token type values")


def _is_device_mapping(a) -> bool:
    # DeviceMappingAttrInterface attributes all come from dialects (#gpu.thread<x>, ...).
    return not isinstance(a, (A.IntegerAttr, A.FloatAttr, A.StringAttr, A.UnitAttr,
                              A.ArrayAttr, A.DenseArrayAttr, A.DictionaryAttr, A.TypeAttr,
                              A.SymbolRefAttr))


def _is_device_masking(a) -> bool:
    """A DeviceMaskingAttrInterface attribute: `#gpu.mask<0x3>` masks the ids of a
    mapping (it takes no loop dimension of its own)."""
    return type(a) is A.OpaqueAttr and a.dialect_name == "gpu" and \
        a.body.startswith((".mask<", "mask<"))


_MAPPING = C.Constraint(lambda a: type(a) is A.ArrayAttr and all(map(_is_device_mapping, a)),
                        "Device Mapping array attribute")


class ForallOp(_ScfOp):
    """`%r = scf.forall (%i, %j) in (%n, 8) shared_outs(%o = %t) -> (tensor<8xf32>) {...}`
    or `scf.forall (%i) = (%lb) to (%ub) step (4) { ... }`: a parallel loop nest whose
    bounds are each an index value or a constant (kept in `static*` with DYNAMIC holes)."""

    name = "scf.forall"
    traits = (T.AttrSizedOperandSegments, T.AutomaticAllocationScope,
              T.RecursiveMemoryEffects,
              T.SingleBlockImplicitTerminator("scf.forall.in_parallel"))
    dynamicLowerBound = VarOperand(C.Index)
    dynamicUpperBound = VarOperand(C.Index)
    dynamicStep = VarOperand(C.Index)
    outputs = VarOperand(_RANKED_TENSOR)
    staticLowerBound = Prop(C.DenseI64Array)
    staticUpperBound = Prop(C.DenseI64Array)
    staticStep = Prop(C.DenseI64Array)
    mapping = OptProp(_MAPPING)
    results_ = VarResult()
    region = RegionDef(single_block=True)

    @property
    def rank(self) -> int:
        return len(self.properties["staticLowerBound"].value)

    def _mixed(self, static_name, group):
        """Each bound as an int or the dynamic Value standing for it."""
        return mixed_values(self.properties[static_name].value, self._group(group))

    def _group(self, i):
        start, n = self._segment(i, False)
        return [o.value for o in self._operands[start:start + n]]

    def finish_parse(self):
        _ensure_in_parallel(self.regions[0], self.loc)

    # -- LoopLikeOpInterface (see "pass interfaces" above)
    def loop_regions(self):
        return [self.regions[0]]

    def is_defined_outside_loop(self, value) -> bool:
        return _defined_outside(self, value)

    def move_out_of_loop(self, op) -> None:
        op.move_before(self)

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import forall_patterns
        return forall_patterns()

    def verify_(self):
        rank = self.rank
        outs = self.outputs
        if len(self.results) != len(outs):
            return f"produces {len(self.results)} results, but has only {len(outs)} outputs"
        body = self.regions[0].blocks[0]
        if len(body.args) != rank + len(outs):
            return f"region expects {rank} arguments"
        for i in range(rank):
            if type(body.args[i].type) is not A.IndexType:
                return f"expects {i}-th block argument to be an index"
        for i, o in enumerate(outs):
            if body.args[rank + i].type is not o.type:
                return f"type mismatch between {i}-th output and corresponding block argument"
        m = self.properties.get("mapping")
        if m is not None and len(m):
            masks = sum(1 for a in m if _is_device_masking(a))
            if len(m) - masks != rank:
                return "mapping attribute size must match op rank"
            if masks > 1:
                return '"mapping" supports at most one device masking attribute'
        for what, sname, g in (("lower bound", "staticLowerBound", 0),
                               ("upper bound", "staticUpperBound", 1),
                               ("step", "staticStep", 2)):
            vals = self.properties[sname].value
            if len(vals) != rank:
                _raise(self, f"expected {rank} {what} values, got {len(vals)}")
            ndyn = sum(1 for v in vals if v == DYNAMIC)
            if len(self._group(g)) != ndyn:
                _raise(self, f"expected {ndyn} dynamic {what} values")
        return None

    def _normalized(self) -> bool:
        def all_eq(mixed, want):
            return all((v if isinstance(v, int) else _const_int(v)) == want for v in mixed)
        return all_eq(self._mixed("staticLowerBound", 0), 0) and \
            all_eq(self._mixed("staticStep", 2), 1)

    @staticmethod
    def parse(p, st):
        ivs = _parse_iv_list(p)
        n = len(ivs)
        props = st.properties
        groups = [[], [], []]
        if p.parse_optional_keyword("in"):
            ub_refs, ubs = _index_list(p)
            groups[1] = [p.resolve_operand(r, A.index) for r in ub_refs]
            lbs, steps = [0] * n, [1] * n
        else:
            p.expect("=")
            lb_refs, lbs = _index_list(p)
            groups[0] = [p.resolve_operand(r, A.index) for r in lb_refs]
            p.parse_keyword("to")
            ub_refs, ubs = _index_list(p)
            groups[1] = [p.resolve_operand(r, A.index) for r in ub_refs]
            p.parse_keyword("step")
            st_refs, steps = _index_list(p)
            groups[2] = [p.resolve_operand(r, A.index) for r in st_refs]
        pairs = []
        outs = []
        offset = p.tok_start
        if p.parse_optional_keyword("shared_outs"):
            pairs = _parse_assignment_list(p)
            st.types = _parse_optional_arrow_types(p)
            outs = _resolve(p, [o for _, o in pairs], st.types, offset)
        args = [_arg(r, A.index) for r in ivs] + \
            [_arg(inner, t) for (inner, _), t in zip(pairs, st.types)]
        st.regions.append(p.parse_region(args=args, op_cls=ForallOp))
        p.parse_optional_attr_dict(st)
        st.operands = groups[0] + groups[1] + groups[2] + outs
        props["staticLowerBound"] = A.DenseArrayAttr(A.i64, lbs)
        props["staticUpperBound"] = A.DenseArrayAttr(A.i64, ubs)
        props["staticStep"] = A.DenseArrayAttr(A.i64, steps)
        props["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(groups[0]), len(groups[1]), len(groups[2]), len(outs)])

    def print(self, pr):
        out = pr.out
        body = self.regions[0].blocks[0]
        rank = self.rank
        out.append(pr.op_name(self) + " (" +
                   ", ".join(pr.value(a) for a in body.args[:rank]) + ")")
        def bounds(sname, group):
            return print_dynamic_index_list(pr, self._group(group),
                                            self.properties[sname].value, delimiter="(")
        ubs = bounds("staticUpperBound", 1)
        if self._normalized():
            out.append(" in " + ubs)
        else:
            out.append(" = " + bounds("staticLowerBound", 0) + " to " + ubs + " step " +
                       bounds("staticStep", 2))
        out.append(_init_list(pr, body.args[rank:], self.outputs, " shared_outs"))
        out.append(" ")
        if len(body.args) > rank:
            out.append("-> (" + ", ".join(map(pr.type_str, self.result_types)) + ") ")
        pr.print_region(self.regions[0], print_entry_args=False,
                        print_terminators=bool(self.results))
        pr.print_optional_attr_dict(_attrs_for_print(self, (
            "operandSegmentSizes", "staticLowerBound", "staticUpperBound", "staticStep")))


def _ensure_in_parallel(region, loc):
    """ForallOp's ensureTerminator: the scf.forall.in_parallel terminator, with its block."""
    if not region.blocks:
        region.add_block(Block())
    b = region.blocks[-1]
    last = b.last
    if last is None or T.Terminator not in type(last).traits:
        b.append(InParallelOp.new(loc))
    elif type(last) is InParallelOp and not last.regions[0].blocks:
        last.regions[0].add_block(Block())


def _index_list(p):
    """`(%a, 4, -1)` -> (operand refs, integers with DYNAMIC where an operand stands)."""
    refs, ints, _, _ = parse_dynamic_index_list(p, "(")
    return refs, ints


def _parse_iv_list(p):
    """`(%i, %j)`: the induction variables of scf.forall / scf.parallel."""
    p.expect("(")
    ivs = []
    if p.consume_if(")"):
        return ivs
    while True:
        ivs.append(p.parse_operand())
        if not p.consume_if(","):
            break
    p.expect(")")
    return ivs


# ====================================================================== scf.if


class IfOp(_ScfOp):
    """`%r = scf.if %c -> (f32) { scf.yield %a : f32 } else { scf.yield %b : f32 }`"""

    name = "scf.if"
    traits = (T.SingleBlockImplicitTerminator("scf.yield"), T.RecursiveMemoryEffects,
              T.NoRegionArguments)
    condition = Operand(C.I1)
    results_ = VarResult()
    thenRegion = RegionDef(single_block=True)
    elseRegion = RegionDef()

    @classmethod
    def new(cls, cond, result_types=(), with_else=False, loc=None):
        """`then` (and `else`) blocks, ending in an empty `scf.yield` when there are no
        results; with results the caller adds the yields."""
        op = cls.build(loc=loc, condition=cond, result_types=list(result_types))
        for r in op.regions[:2 if with_else else 1]:
            b = r.add_block(Block())
            if not result_types:
                b.append(YieldOp.new(loc=loc))
        return op

    def finish_parse(self):
        ensure_terminator(self.regions[0], YieldOp, self.loc)
        if self.regions[1].blocks:
            ensure_terminator(self.regions[1], YieldOp, self.loc)

    # -- ConditionallySpeculatable and RegionBranchOpInterface (see "pass interfaces")
    def speculatability(self) -> str:
        return "recursive"

    def region_successors(self, src, operands=None):
        """Into `then` and `else` (or straight to the results without an else), only
        the taken one for a constant condition; from either region to the results."""
        if src is not None:
            return [(None, list(self.results))]
        then_r, else_r = self.regions
        c = _bool_operand(operands)
        out = []
        if c is None or c:
            out.append((then_r, []))
        if c is None or not c:
            out.append((else_r, []) if else_r.blocks else (None, list(self.results)))
        return out

    def entry_successor_operands(self, target):
        return []

    def entry_successor_operand_range(self, target):
        return len(self._operands), 0

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import if_patterns
        return if_patterns()

    def fold(self, operands):
        """`scf.if (xor %c, true)` with an else: swap the regions, test `%c`."""
        from .scf_patterns import fold_if
        return fold_if(self)

    def verify_(self):
        if self.results and not self.regions[1].blocks:
            return "must have an else block if defining values"
        return None

    def verify_regions_(self):
        then_r, else_r = self.regions
        edges = [(None, then_r, [], _entry_args(then_r))]
        edges.append((None, else_r, [], _entry_args(else_r)) if else_r.blocks else
                     (None, None, [], self.results))
        for r in (then_r, else_r):
            for y in _terminators(r, YieldOp):
                edges.append((y, None, y.operands, self.results))
        _verify_edges(self, edges)
        return None

    @staticmethod
    def parse(p, st):
        cond = p.parse_operand()
        st.operands = [p.resolve_operand(cond, A.i1)]
        st.types = _parse_optional_arrow_types(p)
        st.regions.append(p.parse_region(op_cls=IfOp))
        else_r = Region()
        if p.parse_optional_keyword("else"):
            else_r = p.parse_region(op_cls=IfOp)
            if not else_r.blocks:  # `else {}` still gets a block (and its yield)
                else_r.add_block(Block())
        st.regions.append(else_r)
        p.parse_optional_attr_dict(st)

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)} {pr.value(self.operand(0))}")
        if self.results:
            out.append(" -> (" + ", ".join(map(pr.type_str, self.result_types)) + ")")
        out.append(" ")
        terms = bool(self.results)
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=terms)
        if self.regions[1].blocks:
            out.append(" else ")
            pr.print_region(self.regions[1], print_entry_args=False, print_terminators=terms)
        pr.print_optional_attr_dict(_attrs_for_print(self))


# ====================================================================== scf.parallel


class ParallelOp(_ScfOp):
    """`%r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%z) -> f32 { ... }`:
    a parallel loop nest ending in scf.reduce."""

    name = "scf.parallel"
    traits = (T.AutomaticAllocationScope, T.AttrSizedOperandSegments,
              T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("scf.reduce"))
    lowerBound = VarOperand(C.Index)
    upperBound = VarOperand(C.Index)
    step = VarOperand(C.Index)
    initVals = VarOperand()
    results_ = VarResult()
    region = RegionDef(single_block=True)

    def finish_parse(self):
        ensure_terminator(self.regions[0], ReduceOp, self.loc)

    # -- LoopLikeOpInterface (see "pass interfaces" above)
    def loop_regions(self):
        return [self.regions[0]]

    def is_defined_outside_loop(self, value) -> bool:
        return _defined_outside(self, value)

    def move_out_of_loop(self, op) -> None:
        op.move_before(self)

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import parallel_patterns
        return parallel_patterns()

    def verify_(self):
        steps = self.step
        if not steps:
            return "needs at least one tuple element for lowerBound, upperBound and step"
        for s in steps:
            c = _const_int(s)
            if c is not None and c <= 0:
                return "constant step operand must be positive"
        body = self.regions[0].blocks[0]
        if len(body.args) != len(steps):
            return (f"expects the same number of induction variables: {len(body.args)} as "
                    f"bound and step values: {len(steps)}")
        if any(type(a.type) is not A.IndexType for a in body.args):
            return "expects arguments for the induction variable to be of index type"
        red = _verify_terminator_kind(self, self.regions[0], ReduceOp,
                                      "expects body to terminate with 'scf.reduce'")
        nres, nred, ninit = len(self.results), len(red.regions), len(self.initVals)
        if nres != nred:
            return (f"expects number of results: {nres} to be the same as number of "
                    f"reductions: {nred}")
        if nres != ninit:
            return (f"expects number of results: {nres} to be the same as number of "
                    f"initial values: {ninit}")
        for i in range(nred):
            rt, ot = self.results[i].type, red.operand(i).type
            if rt is not ot:
                _op_error(red, f"expects type of {i}-th reduction operand: '{ot}' to be the "
                          f"same as the {i}-th result type: '{rt}'")
        return None

    @staticmethod
    def parse(p, st):
        ivs = _parse_iv_list(p)
        n = len(ivs)
        p.expect("=")
        groups = []
        for kw in (None, "to", "step"):
            if kw is not None:
                p.parse_keyword(kw)
            offset = p.tok_start
            refs = p.parse_operand_list("(")
            if len(refs) != n:
                p.error(p._custom_prefix() + f"expected {n} operands", offset)
            groups.append([p.resolve_operand(r, A.index) for r in refs])
        init_refs = []
        if p.parse_optional_keyword("init"):
            init_refs = p.parse_operand_list("(")
        st.types = _parse_optional_arrow_types(p)
        st.regions.append(p.parse_region(args=[_arg(r, A.index) for r in ivs],
                                         op_cls=ParallelOp))
        p.parse_optional_attr_dict(st)
        inits = _resolve(p, init_refs, st.types, _name_offset(p))
        st.operands = groups[0] + groups[1] + groups[2] + inits
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(g) for g in groups] + [len(inits)])

    def print(self, pr):
        out = pr.out
        body = self.regions[0].blocks[0]

        def vals(vs):
            return ", ".join(pr.value(v) for v in vs)
        out.append(f"{pr.op_name(self)} ({vals(body.args)}) = ({vals(self.lowerBound)}) to "
                   f"({vals(self.upperBound)}) step ({vals(self.step)})")
        if self.initVals:
            out.append(f" init ({vals(self.initVals)})")
        out.append(_arrow_types(pr, self.result_types) + " ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)
        pr.print_optional_attr_dict(_attrs_for_print(self, ("operandSegmentSizes",)))


# ====================================================================== scf.while


class WhileOp(_ScfOp):
    """`%r = scf.while (%a = %init) : (f32) -> f32 { ... scf.condition(%c) %a : f32 }
    do { ^bb0(%b: f32): ... scf.yield %n : f32 }`"""

    name = "scf.while"
    traits = (T.RecursiveMemoryEffects, T.SingleBlock)
    inits = VarOperand()
    results_ = VarResult()
    before = RegionDef(single_block=True)
    after = RegionDef(single_block=True)

    # -- LoopLikeOpInterface (see "pass interfaces" above)
    def loop_regions(self):
        return list(self.regions)

    def is_defined_outside_loop(self, value) -> bool:
        return _defined_outside(self, value)

    def move_out_of_loop(self, op) -> None:
        op.move_before(self)

    # -- RegionBranchOpInterface
    def region_successors(self, src, operands=None):
        """Into `before`; from `before` (scf.condition) to `after` or out; from `after`
        back to `before`."""
        before, after = self.regions
        if src is None or src is after:
            return [(before, list(_entry_args(before)))]
        return [(None, list(self.results)), (after, list(_entry_args(after)))]

    def entry_successor_operands(self, target):
        return self.inits

    def entry_successor_operand_range(self, target):
        return 0, len(self._operands)

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import while_patterns
        return while_patterns()

    def verify_(self):
        _verify_terminator_kind(self, self.regions[0], ConditionOp,
                                "expects the 'before' region to terminate with "
                                "'scf.condition'")
        _verify_terminator_kind(self, self.regions[1], YieldOp,
                                "expects the 'after' region to terminate with 'scf.yield'")
        return None

    def verify_regions_(self):
        before, after = self.regions
        edges = [(None, before, self.inits, _entry_args(before))]
        for c in _terminators(before, ConditionOp):
            args = c.operands[1:]
            edges.append((c, None, args, self.results))
            edges.append((c, after, args, _entry_args(after)))
        for y in _terminators(after, YieldOp):
            edges.append((y, before, y.operands, _entry_args(before)))
        _verify_edges(self, edges)
        return None

    @staticmethod
    def parse(p, st):
        pairs = []
        if p.kind == PUNCT and p.tok == "(":
            pairs = _parse_assignment_list(p)
        tstart = p.tok_start  # upstream reports type errors at the `:`
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
        args = [_arg(inner, t) for (inner, _), t in zip(pairs, ft.inputs)]
        st.regions.append(p.parse_region(args=args, op_cls=WhileOp))
        p.parse_keyword("do")
        st.regions.append(p.parse_region(op_cls=WhileOp))
        p.parse_optional_attr_dict(st, with_keyword=True)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        out.append(_init_list(pr, _entry_args(self.regions[0]), self.inits, " "))
        out.append(" : " + pr.type_str(A.FunctionType(self.operand_types, self.result_types))
                   + " ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)
        out.append(" do ")
        pr.print_region(self.regions[1], print_entry_args=True, print_terminators=True)
        pr.print_optional_attr_dict(_attrs_for_print(self), with_keyword=True)


# ====================================================================== scf.index_switch


class IndexSwitchOp(_ScfOp):
    """`%r = scf.index_switch %i -> i32 case 2 { ... } default { ... }`"""

    name = "scf.index_switch"
    traits = (T.RecursiveMemoryEffects, T.SingleBlockImplicitTerminator("scf.yield"))
    arg = Operand(C.Index)
    cases = Prop(C.DenseI64Array)
    results_ = VarResult()
    defaultRegion = RegionDef(single_block=True)
    caseRegions = VarRegionDef(single_block=True)

    def finish_parse(self):
        # Only `$defaultRegion` is a format region upstream; case regions are not ensured.
        ensure_terminator(self.regions[0], YieldOp, self.loc)

    # -- RegionBranchOpInterface (see "pass interfaces")
    def region_successors(self, src, operands=None):
        """Into every region, or only the matching case (else `default`) for a constant
        argument; from any region to the results."""
        if src is not None:
            return [(None, list(self.results))]
        arg = operands[0] if operands else None
        if type(arg) is A.IntegerAttr:
            cases = list(self.properties["cases"].value)
            r = self.regions[1 + cases.index(arg.value)] if arg.value in cases \
                else self.regions[0]
            return [(r, [])]
        return [(r, []) for r in self.regions]

    def entry_successor_operands(self, target):
        return []

    def entry_successor_operand_range(self, target):
        return len(self._operands), 0

    @classmethod
    def canonicalization_patterns(cls):
        from .scf_patterns import index_switch_patterns
        return index_switch_patterns()

    def verify_(self):
        cases = self.properties["cases"].value
        ncase = len(self.regions) - 1
        if len(cases) != ncase:
            return f"has {ncase} case regions but {len(cases)} case values"
        seen = set()
        for v in cases:
            if v in seen:
                return f"has duplicate case value: {v}"
            seen.add(v)
        named = [(self.regions[0], "default region")] + \
            [(r, f"case region #{i}") for i, r in enumerate(self.regions[1:])]
        for r, what in named:
            y = r.blocks[0].last
            if y is None:
                continue  # reported as an empty block
            if type(y) is not YieldOp:
                return f"expected region to end with scf.yield, but got {y.name}"
            if len(y.operands) != len(self.results):
                _op_error(self, f"expected each region to return {len(self.results)} values, "
                          f"but {what} returns {len(y.operands)}",
                          [("see yield operation here", y.loc)])
            for i, (rt, v) in enumerate(zip(self.result_types, y.operands)):
                if rt is not v.type:
                    _op_error(self, f"expected result #{i} of each region to be '{rt}'",
                              [(f"{what} returns '{v.type}' here", y.loc)])
        return None

    def verify_regions_(self):
        edges = [(None, r, [], _entry_args(r)) for r in self.regions]
        for r in self.regions:
            for y in _terminators(r, YieldOp):
                edges.append((y, None, y.operands, self.results))
        _verify_edges(self, edges)
        return None

    @staticmethod
    def parse(p, st):
        ref = p.parse_operand()
        st.operands = [p.resolve_operand(ref, A.index)]
        p.parse_optional_attr_dict(st)
        if p.consume_if("->"):
            st.types = p.parse_type_list()
        values, regions = [], []
        while p.parse_optional_keyword("case"):
            values.append(p.parse_integer())
            regions.append(p.parse_region(op_cls=IndexSwitchOp))
        st.properties["cases"] = A.DenseArrayAttr(A.i64, values)
        p.parse_keyword("default")
        st.regions = [p.parse_region(op_cls=IndexSwitchOp)] + regions

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)} {pr.value(self.operand(0))}")
        pr.print_optional_attr_dict(_attrs_for_print(self, ("cases",)))
        if self.results:
            out.append(" -> " + ", ".join(map(pr.type_str, self.result_types)))
        out.append(" ")
        nl = "\n" + pr.indent
        for v, r in zip(self.properties["cases"].value, self.regions[1:]):
            out.append(f"{nl}case {v} ")
            pr.print_region(r, print_entry_args=False, print_terminators=True)
        out.append(nl + "default ")
        d = self.regions[0]
        pr.print_region(d, print_entry_args=True, print_terminators=_yield_printed(d))


def _yield_printed(region) -> bool:
    """Generated printers show an implicit terminator only when it carries something."""
    if not region.blocks:
        return True
    t = region.blocks[0].last
    if t is None or T.Terminator not in type(t).traits:
        return True
    return bool(t._operands or t.results or t.attributes)


for _c in (YieldOp, ConditionOp, ReduceReturnOp, ReduceOp):
    install_format(_c)

SCF = Dialect("scf", [ConditionOp, ExecuteRegionOp, ForOp, ForallOp, InParallelOp, IfOp,
                      IndexSwitchOp, ParallelOp, ReduceOp, ReduceReturnOp, WhileOp, YieldOp])
