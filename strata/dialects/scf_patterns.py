"""Canonicalization patterns and folders of the scf dialect (the ops' own
`canonicalization_patterns()` / `fold` hooks in scf.py call in here).

[Note: which patterns, in which order]
Upstream's, listed per op in the order it registers them (the greedy driver tries an op's
patterns in that order, which decides the result when several apply):
  scf.execute_region  inline a multi-block region into a function body; the region
                      branch patterns; inline a single block (not with `no_inline`);
  scf.for             inline a loop running once (the induction variable becomes the
                      lower bound) or drop one running zero times (iree-opt tries this
                      first); move a tensor.cast of an iteration argument into the loop;
                      the region branch patterns;
  scf.forall          tensor.dim of a result reads the shared output; absorb tensor.cast
                      of outputs; constant bounds become static; drop outputs the body
                      never writes or nobody reads; drop dimensions running zero or one
                      times; an induction variable running once becomes its bound;
  scf.if              merge with a preceding scf.if on the same (or negated) condition;
                      merge an scf.if nested alone in the `then` region; the condition is
                      true in `then` and false in `else`; yields of values defined
                      outside become arith.select; an empty `else` goes; results that are
                      the condition (or its negation) or the same in both regions; the
                      region branch patterns; inline the region a constant picks;
                      folder: `if (xor %c, true)` swaps its regions;
  scf.parallel        drop dimensions running zero or one times; merge a nested loop;
  scf.while           the condition is true in `after`; comparisons equal to the
                      condition are true in `after`; forward the `before` arguments in
                      their order; move an scf.if on the condition into `after`; the
                      region branch patterns; inline when `scf.condition` is false;
  scf.index_switch    the region branch patterns; inline the region a constant picks.
"The region branch patterns" are strata/rewrite/region_branch.py's: drop what flows
between regions when nobody reads it, forward values that can only be one thing, merge
duplicates.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.builder import InsertionPoint
from ..ir.core import Block, OpResult, Region, remap_operands
from ..rewrite.folding import constant_value
from ..rewrite.pattern import RewritePattern
from ..rewrite.region_branch import (InlineRegionBranchOp, erase_op_results,
                                     region_branch_patterns)
from . import scf as S
from .scf import constant_trip_count

__all__ = ["execute_region_patterns", "for_patterns", "forall_patterns", "if_patterns",
           "parallel_patterns", "while_patterns", "index_switch_patterns", "fold_if",
           "constant_trip_count"]


# ====================================================================== helpers


def _const_int(v):
    """The integer a value is known to hold (constant integer or splat), or None."""
    a = constant_value(v)
    if type(a) is A.IntegerAttr:
        return a.value
    if a is not None and getattr(a, "is_splat", False) and \
            type(getattr(a, "element_type", None)) in (A.IntegerType, A.IndexType):
        return int(a.values[0])
    return None


def _is_one(v) -> bool:
    """m_One: a constant integer (or splat) equal to one (`true` for i1)."""
    c = _const_int(v)
    return c is not None and (c == 1 or (c == -1 and _width(v.type) == 1))


def _width(t) -> int:
    e = t.element_type if isinstance(t, A.ShapedType) else t
    return 64 if type(e) is A.IndexType else getattr(e, "width", 0)


def _const_bool(v):
    """True / False for a constant i1 (a BoolAttr upstream), else None."""
    a = constant_value(v)
    if type(a) is A.IntegerAttr and a.type is A.i1:
        return bool(a.value)
    return None


def _is_constant(v) -> bool:
    d = v.defining_op
    return d is not None and T.ConstantLike in type(d).traits


def _parent_region(v):
    b = v.parent_block
    return b.parent if b is not None else None


def _region_contains(outer, region) -> bool:
    """`outer` is `region` or an ancestor of it."""
    while region is not None:
        if region is outer:
            return True
        op = region.parent
        region = op.parent_region if op is not None else None
    return False


def _def(v, cls):
    d = v.defining_op
    return d if type(d) is cls else None


def _arith():
    from . import arith
    return arith


def _bool_const(rewriter, value: bool, loc):
    return rewriter.create(_arith().ConstantOp, value=A.IntegerAttr(int(value), A.i1),
                           result=A.i1, loc=loc).results[0]


def _select(rewriter, cond, a, b, loc):
    return rewriter.create(_arith().SelectOp, condition=cond, true_value=a, false_value=b,
                           result=a.type, loc=loc).results[0]


def _then_block(op):
    return op.regions[0].blocks[-1]


def _else_block(op):
    r = op.regions[1]
    return r.blocks[-1] if r.blocks else None


def _new_if(rewriter, cond, result_types, loc):
    """An scf.if with empty regions, inserted at the rewriter's insertion point."""
    return rewriter.insert(S.IfOp.build(condition=cond, result_types=list(result_types),
                                        loc=loc))


def _replace_yield(rewriter, yield_op, values):
    """Replace a terminator by an scf.yield of `values` (at its location)."""
    return rewriter.replace_op_with_new(yield_op, S.YieldOp, values=list(values))


def _move_region(rewriter, src: Region, dest: Region, index=0):
    rewriter.inline_region_before(src, dest, index)


def _is_function_like(op) -> bool:
    return op is not None and hasattr(op, "callable_region") and \
        "function_type" in op.properties


def _clone_region_into(rewriter, src: Region, dest: Region, mapping: dict):
    """Clone `src`'s blocks into `dest` (MLIR's cloneRegionBefore): a block argument
    already in `mapping` is not recreated, its uses take the mapped value."""
    new_blocks = []
    for b in src.blocks:
        nb = Block()
        for a in b.args:
            if a not in mapping:
                mapping[a] = nb.add_argument(a.type, a.loc)
        mapping[b] = nb
        new_blocks.append(nb)
    for b, nb in zip(src.blocks, new_blocks):
        for op in b.ops:
            nb.append(op.clone(mapping))
        dest.add_block(nb)
    for nb in new_blocks:
        for op in nb.ops:
            remap_operands(op, mapping)
    for nb in new_blocks:
        rewriter.listener.notify_block_inserted(nb)
        for op in nb.ops:
            rewriter._notify_inserted_recursively(op)


# ====================================================================== scf.if


def fold_if(op):
    """`scf.if (arith.xori %c, true)` with an else region: test `%c` and swap the
    regions (in place)."""
    if not op.regions[1].blocks:
        return None
    x = _def(op.operand(0), _arith().XOrIOp)
    if x is None or not _is_one(x.operand(1)):
        return None
    op.set_operand(0, x.operand(0))
    then_r, else_r = op.regions
    tb, eb = then_r.blocks, else_r.blocks
    then_r.blocks, else_r.blocks = eb, tb
    for b in then_r.blocks:
        b.parent = then_r
    for b in else_r.blocks:
        b.parent = else_r
    return list(op.results)


class ConvertTrivialIfToSelect(RewritePattern):
    """Results yielded from values defined outside the scf.if become arith.select (or
    the value itself when both regions yield it); the scf.if keeps the rest."""

    root = "scf.if"

    def match_and_rewrite(self, op, rewriter):
        if not op.results:
            return False
        then_r, else_r = op.regions
        cond = op.operand(0)
        ty = _then_block(op).last.operands
        ey = _else_block(op).last.operands
        keep = [t.type for t, f in zip(ty, ey)
                if _parent_region(t) is then_r or _parent_region(f) is else_r]
        if len(keep) == len(op.results):
            return False
        rewriter.ip = InsertionPoint.before_op(op)
        new = _new_if(rewriter, cond, keep, op.loc)
        new.regions[0].take_body(then_r)
        new.regions[1].take_body(else_r)
        results = []
        t_yields, f_yields = [], []
        rewriter.ip = InsertionPoint.before_op(new)
        for t, f in zip(ty, ey):
            if _parent_region(t) is new.regions[0] or _parent_region(f) is new.regions[1]:
                results.append(new.results[len(t_yields)])
                t_yields.append(t)
                f_yields.append(f)
            elif t is f:
                results.append(t)
            else:
                results.append(_select(rewriter, cond, t, f, op.loc))
        _replace_yield(rewriter, _then_block(new).last, t_yields)
        _replace_yield(rewriter, _else_block(new).last, f_yields)
        rewriter.replace_op(op, results)
        return True


class ConditionPropagation(RewritePattern):
    """Inside `then` the condition is true, inside `else` false: uses there read a
    constant."""

    root = "scf.if"

    def match_and_rewrite(self, op, rewriter):
        cond = op.operand(0)
        if _is_constant(cond):
            return False
        then_r, else_r = op.regions
        end = _parent_region(cond)
        cache = {}
        consts = {}
        changed = False
        for u in list(cond.uses):
            kind = _side(u.owner.parent_region, then_r, else_r, end, cache)
            if kind is None:
                continue
            c = consts.get(kind)
            if c is None:
                rewriter.ip = InsertionPoint.before_op(op)
                c = consts[kind] = _bool_const(rewriter, kind == "then", op.loc)
            rewriter.modify_op_in_place(u.owner, lambda u=u, c=c: u.set(c))
            changed = True
        return changed


def _side(region, then_r, else_r, end, cache):
    """"then" / "else" when `region` lies in that region of the scf.if, else None."""
    seen = []
    while region is not None and region is not end:
        if region in cache:
            kind = cache[region]
            break
        seen.append(region)
        if region is then_r:
            kind = "then"
            break
        if region is else_r:
            kind = "else"
            break
        p = region.parent
        region = p.parent_region if p is not None else None
    else:
        kind = None
    for r in seen:
        cache[r] = kind
    return kind


class ReplaceIfYieldWithConditionOrValue(RewritePattern):
    """A result both regions yield the same value for is that value; one yielding
    true / false is the condition (false / true: its negation)."""

    root = "scf.if"

    def match_and_rewrite(self, op, rewriter):
        if not op.results:
            return False
        ty = op.regions[0].blocks[-1].last
        fy = op.regions[1].blocks[-1].last
        rewriter.ip = InsertionPoint.before_op(op)
        changed = False
        cond = op.operand(0)
        for t, f, r in zip(ty.operands, fy.operands, op.results):
            if t is f:
                if r.first_use is not None:
                    r.replace_all_uses_with(t)
                    changed = True
                continue
            tb, fb = _const_bool(t), _const_bool(f)
            if tb is None or fb is None:
                continue
            if not tb and fb and r.first_use is not None:
                d = t.defining_op
                dialect = _dialect_of(d)
                one = dialect.materialize_constant(rewriter, A.IntegerAttr(1, A.i1), A.i1,
                                                   op.loc).results[0]
                x = rewriter.create(_arith().XOrIOp, lhs=cond, rhs=one, loc=op.loc)
                r.replace_all_uses_with(x.results[0])
                changed = True
            if tb and not fb and r.first_use is not None:
                r.replace_all_uses_with(cond)
                changed = True
        return changed


def _dialect_of(op):
    from . import all_dialects
    for d in all_dialects():
        if d.name == op.dialect_name:
            return d
    return None


class CombineIfs(RewritePattern):
    """Two consecutive scf.if on the same condition (or its negation) become one."""

    root = "scf.if"

    def match_and_rewrite(self, next_if, rewriter):
        prev = next_if.prev
        if type(prev) is not S.IfOp:
            return False
        next_then = next_else = None
        nc, pc = next_if.operand(0), prev.operand(0)
        if nc is pc:
            next_then = _then_block(next_if)
            next_else = _else_block(next_if)
        x = _def(nc, _arith().XOrIOp)
        if x is not None and x.operand(0) is pc and _is_one(x.operand(1)):
            next_else = _then_block(next_if)
            if next_if.regions[1].blocks:
                next_then = _else_block(next_if)
        x = _def(pc, _arith().XOrIOp)
        if x is not None and x.operand(0) is nc and _is_one(x.operand(1)):
            next_else = _then_block(next_if)
            if next_if.regions[1].blocks:
                next_then = _else_block(next_if)
        if next_then is None and next_else is None:
            return False
        prev_else = _else_block(prev).last.operands if prev.regions[1].blocks else []
        for r, tv, ev in zip(prev.results, _then_block(prev).last.operands, prev_else):
            for u in list(r.uses):
                where = u.owner.parent_region
                if next_then is not None and _region_contains(next_then.parent, where):
                    rewriter.modify_op_in_place(u.owner, lambda u=u, v=tv: u.set(v))
                elif next_else is not None and _region_contains(next_else.parent, where):
                    rewriter.modify_op_in_place(u.owner, lambda u=u, v=ev: u.set(v))
        rewriter.ip = InsertionPoint.before_op(next_if)
        combined = _new_if(rewriter, pc, prev.result_types + next_if.result_types,
                           next_if.loc)
        _move_region(rewriter, prev.regions[0], combined.regions[0], 0)
        if next_then is not None:
            y1 = _then_block(combined).last
            y2 = next_then.last
            rewriter.merge_blocks(next_then, _then_block(combined))
            rewriter.ip = InsertionPoint.at_end(_then_block(combined))
            rewriter.create(S.YieldOp, values=y1.operands + y2.operands, loc=y2.loc)
            rewriter.erase_op(y1)
            rewriter.erase_op(y2)
        _move_region(rewriter, prev.regions[1], combined.regions[1], 0)
        if next_else is not None:
            if not combined.regions[1].blocks:
                _move_region(rewriter, next_else.parent, combined.regions[1], 0)
            else:
                y1 = _else_block(combined).last
                y2 = next_else.last
                rewriter.merge_blocks(next_else, _else_block(combined))
                rewriter.ip = InsertionPoint.at_end(_else_block(combined))
                rewriter.create(S.YieldOp, values=y1.operands + y2.operands, loc=y2.loc)
                rewriter.erase_op(y1)
                rewriter.erase_op(y2)
        n = len(prev.results)
        rewriter.replace_op(prev, combined.results[:n])
        rewriter.replace_op(next_if, combined.results[n:])
        return True


class RemoveEmptyElseBranch(RewritePattern):
    """An `else` that only yields (no results) goes."""

    root = "scf.if"

    def match_and_rewrite(self, op, rewriter):
        if op.results:
            return False
        eb = _else_block(op)
        if eb is None or eb.first is not eb.last:
            return False
        rewriter.ip = InsertionPoint.before_op(op)
        new = rewriter.insert(S.IfOp.create(op.operands, (), op.properties, op.attributes,
                                            (), 2, op.loc))
        _move_region(rewriter, op.regions[0], new.regions[0], 0)
        rewriter.erase_op(op)
        return True


class CombineNestedIfs(RewritePattern):
    """`scf.if %a { scf.if %b { ... } }` with nothing else in the outer `then` (and
    `else` regions that only yield) becomes `scf.if (%a and %b) { ... }`."""

    root = "scf.if"

    def match_and_rewrite(self, op, rewriter):
        tb = _then_block(op)
        first = tb.first
        if first is None or first is tb.last or first.next is not tb.last:
            return False
        eb = _else_block(op)
        if eb is not None and eb.first is not eb.last:
            return False
        nested = first
        if type(nested) is not S.IfOp:
            return False
        neb = _else_block(nested)
        if neb is not None and neb.first is not neb.last:
            return False
        then_yield = list(tb.last.operands)
        else_yield = list(eb.last.operands) if eb is not None else []
        upgrade = []
        for i, v in enumerate(then_yield):
            if v.defining_op is nested:
                k = v.index
                if neb.last.operand(k) is not else_yield[i]:
                    return False
                then_yield[i] = _then_block(nested).last.operand(k)
                continue
            if _parent_region(v) is op.regions[0]:
                return False
            upgrade.append(i)
        loc = op.loc
        rewriter.ip = InsertionPoint.before_op(op)
        cond = rewriter.create(_arith().AndIOp, lhs=op.operand(0), rhs=nested.operand(0),
                               loc=loc).results[0]
        new = _new_if(rewriter, cond, op.result_types, loc)
        new_block = new.regions[0].add_block(Block())
        rewriter.listener.notify_block_inserted(new_block)
        results = list(new.results)
        rewriter.ip = InsertionPoint.before_op(new)
        for i in upgrade:
            results[i] = _select(rewriter, op.operand(0), then_yield[i], else_yield[i], loc)
        rewriter.merge_blocks(_then_block(nested), new_block)
        _replace_yield(rewriter, new_block.last, then_yield)
        if else_yield:
            b = new.regions[1].add_block(Block())
            rewriter.listener.notify_block_inserted(b)
            rewriter.ip = InsertionPoint.at_end(b)
            rewriter.create(S.YieldOp, values=else_yield, loc=loc)
        rewriter.replace_op(op, results)
        return True


def if_patterns():
    return [CombineIfs(), CombineNestedIfs(), ConditionPropagation(),
            ConvertTrivialIfToSelect(), RemoveEmptyElseBranch(),
            ReplaceIfYieldWithConditionOrValue()] + \
        region_branch_patterns("scf.if") + [InlineRegionBranchOp("scf.if")]


# ====================================================================== scf.execute_region


class MultiBlockExecuteInliner(RewritePattern):
    """A multi-block scf.execute_region directly in a function body (or another
    scf.execute_region) is inlined as blocks: scf.yield becomes a branch to the code
    after it, whose block takes the results as arguments."""

    root = "scf.execute_region"

    def match_and_rewrite(self, op, rewriter):
        if "no_inline" in op.properties:
            return False
        parent = op.parent_op
        if not (_is_function_like(parent) or type(parent) is S.ExecuteRegionOp):
            return False
        from .cf import BranchOp
        prev = op.parent
        post = rewriter.split_block(prev, op)
        rewriter.ip = InsertionPoint.at_end(prev)
        region = op.regions[0]
        rewriter.create(BranchOp, destOperands=[], successors=[region.blocks[0]],
                        loc=op.loc)
        for b in list(region.blocks):
            t = b.last
            if type(t) is S.YieldOp:
                rewriter.ip = InsertionPoint.before_op(t)
                rewriter.create(BranchOp, destOperands=t.operands, successors=[post],
                                loc=t.loc)
                rewriter.erase_op(t)
        dest = post.parent
        _move_region(rewriter, region, dest, dest.blocks.index(post))
        args = [post.add_argument(r.type, op.loc) for r in op.results]
        rewriter.replace_op(op, args)
        return True


def execute_region_patterns():
    return [MultiBlockExecuteInliner()] + region_branch_patterns("scf.execute_region") + \
        [InlineRegionBranchOp("scf.execute_region",
                              matcher=lambda op: "no_inline" not in op.properties)]


# ====================================================================== scf.for


def _preserves_static_information(source, target) -> bool:
    """`target` is a ranked tensor type at least as static as `source` (upstream's
    tensor::preservesStaticInformation)."""
    if type(source) is not A.RankedTensorType or type(target) is not A.RankedTensorType:
        return False
    if source.element_type is not target.element_type:
        return False
    if len(source.shape) != len(target.shape):
        return False
    if getattr(source, "encoding", None) is not getattr(target, "encoding", None):
        return False
    for s, t in zip(source.shape, target.shape):
        if s != A.DYNAMIC and t == A.DYNAMIC:
            return False
    return True


def _tensor_cast(rewriter, value, type, loc):
    from .tensor import CastOp
    return rewriter.create(CastOp, source=value, result_types=[type], loc=loc).results[0]


class ForOpTensorCastFolder(RewritePattern):
    """An iteration argument initialized by a tensor.cast that loses static shape
    information (and whose result has one use) carries the more static type instead,
    with casts inside the loop and after it."""

    root = "scf.for"

    def match_and_rewrite(self, op, rewriter):
        for i, (opnd, r) in enumerate(zip(op.op_operands[3:], op.results)):
            cast = opnd.value.defining_op
            if cast is None or cast.name != "tensor.cast":
                continue
            src = cast.operand(0)
            if src.type is cast.results[0].type:
                continue
            if not _preserves_static_information(cast.results[0].type, src.type):
                continue
            if not r.has_one_use():
                continue
            rewriter.ip = InsertionPoint.before_op(op)
            results = _replace_and_cast_iter_arg(rewriter, op, i, src)
            rewriter.replace_op(op, results)
            return True
        return False


def _replace_and_cast_iter_arg(rewriter, op, i, replacement):
    """A copy of scf.for `op` whose i-th iteration argument is `replacement` (of
    another type), casting back inside and after the loop; returns its results."""
    old_t, new_t = op.initArgs[i].type, replacement.type
    inits = list(op.initArgs)
    inits[i] = replacement
    new = S.ForOp.build(lowerBound=op.operand(0), upperBound=op.operand(1),
                        step=op.operand(2), initArgs=inits,
                        result_types=[v.type for v in inits], loc=op.loc)
    new.properties = dict(op.properties)
    new.attributes = dict(op.attributes)
    body = new.regions[0].add_block(Block([op.operand(0).type] + [v.type for v in inits],
                                          [op.loc] + [op.loc] * len(inits)))
    rewriter.insert(new)
    rewriter.ip = InsertionPoint.at_start(body)
    arg = body.args[1 + i]
    transfer = list(body.args)
    transfer[1 + i] = _tensor_cast(rewriter, arg, old_t, op.loc)
    rewriter.merge_blocks(op.regions[0].blocks[0], body, transfer)
    y = body.last
    rewriter.ip = InsertionPoint.before_op(y)
    vals = list(y.operands)
    vals[i] = _tensor_cast(rewriter, vals[i], new_t, op.loc)
    rewriter.create(S.YieldOp, values=vals, loc=op.loc)
    rewriter.erase_op(y)
    rewriter.ip = InsertionPoint.after_op(new)
    results = list(new.results)
    results[i] = _tensor_cast(rewriter, results[i], old_t, op.loc)
    return results


def for_patterns():
    # iree-opt (upstream as of LLVM 24) tries the inlining of a loop running zero or
    # one times before the other scf.for patterns.
    return [InlineRegionBranchOp("scf.for",
                                 replacement=lambda iv: iv.owner.parent_op.operand(0)),
            ForOpTensorCastFolder()] + region_branch_patterns("scf.for")


# ====================================================================== scf.index_switch


def index_switch_patterns():
    return region_branch_patterns("scf.index_switch") + \
        [InlineRegionBranchOp("scf.index_switch")]


# ====================================================================== scf.while


class WhileConditionTruth(RewritePattern):
    """An `after` argument that receives the condition itself is true there."""

    root = "scf.while"

    def match_and_rewrite(self, op, rewriter):
        term = op.regions[0].blocks[0].last
        cond = term.operand(0)
        after = op.regions[1].blocks[0].args
        const = None
        changed = False
        for v, a in zip(term.operands[1:], after):
            if v is cond and a.first_use is not None:
                if const is None:
                    rewriter.ip = InsertionPoint.before_op(op)
                    const = rewriter.create(_arith().ConstantOp,
                                            value=A.IntegerAttr(1, cond.type),
                                            result=cond.type, loc=op.loc).results[0]
                rewriter.replace_all_uses_with(a, const)
                changed = True
        return changed


_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt",
            "sgt": "sle", "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


class WhileCmpCond(RewritePattern):
    """A comparison in `after` that repeats (or inverts) the one deciding the loop,
    on the forwarded operand, is a known constant."""

    root = "scf.while"

    def match_and_rewrite(self, op, rewriter):
        term = op.regions[0].blocks[0].last
        cmp = _def(term.operand(0), _arith().CmpIOp)
        if cmp is None:
            return False
        changed = False
        for v, a in zip(term.operands[1:], op.regions[1].blocks[0].args):
            for k in (0, 1):
                if v is not cmp.operand(k):
                    continue
                for u in list(a.uses):
                    cmp2 = u.owner
                    if type(cmp2) is not _arith().CmpIOp or cmp2.parent is None:
                        continue
                    if cmp2.operand(1 - k) is not cmp.operand(1 - k):
                        continue
                    p1, p2 = cmp.predicate_name, cmp2.predicate_name
                    if p2 == p1:
                        same = True
                    elif p2 == _INVERSE[p1]:
                        same = False
                    else:
                        continue
                    # Upstream's replaceOpWithNewOp builds at the insertion point,
                    # which is before the scf.while, not before the comparison.
                    rewriter.ip = InsertionPoint.before_op(op)
                    c = rewriter.create(_arith().ConstantOp,
                                        value=A.IntegerAttr(int(same), A.i1),
                                        result=A.i1, loc=cmp2.loc)
                    rewriter.replace_op(cmp2, c.results)
                    changed = True
        return changed


class WhileOpAlignBeforeArgs(RewritePattern):
    """When scf.condition forwards exactly the `before` arguments in another order,
    reorder the results and `after` arguments so that it forwards them in order."""

    root = "scf.while"

    def match_and_rewrite(self, op, rewriter):
        before = op.regions[0].blocks[0]
        term = before.last
        bargs = list(before.args)
        targs = term.operands[1:]
        if len(bargs) == len(targs) and all(a is b for a, b in zip(bargs, targs)):
            return False
        if len(set(targs)) != len(targs):
            return False
        if len(bargs) != len(targs):
            return False
        mapping = [0] * len(bargs)
        for i, a in enumerate(bargs):
            j = next((k for k, t in enumerate(targs) if t is a), None)
            if j is None:
                return False
            mapping[j] = i
        rewriter.ip = InsertionPoint.before_op(term)
        rewriter.replace_op_with_new(term, S.ConditionOp, condition=term.operand(0),
                                     args=bargs)
        after = op.regions[1].blocks[0]
        types = [None] * len(bargs)
        for i, j in enumerate(mapping):
            types[j] = op.results[i].type
        rewriter.ip = InsertionPoint.before_op(op)
        new = S.WhileOp.build(inits=op.operands, result_types=types, loc=op.loc)
        nb = new.regions[0].add_block(Block([v.type for v in op.operands],
                                            [a.loc for a in before.args]))
        na = new.regions[1].add_block(Block(types, [op.loc] * len(types)))
        rewriter.insert(new)
        new_results = [None] * len(bargs)
        new_after = [None] * len(bargs)
        for i, j in enumerate(mapping):
            new_results[i] = new.results[j]
            new_after[i] = na.args[j]
        _inline_at_start(rewriter, before, nb, list(nb.args))
        _inline_at_start(rewriter, after, na, new_after)
        rewriter.replace_op(op, new_results)
        return True


def _inline_at_start(rewriter, source, dest, args):
    """Move `source`'s ops to the start of `dest`, its arguments replaced by `args`."""
    first = dest.first
    if first is None:
        rewriter.inline_block_at_end(source, dest, args)
    else:
        rewriter.inline_block_before(source, first, args)


class WhileMoveIfDown(RewritePattern):
    """An scf.if on the loop condition right before scf.condition (with an `else`
    that only yields) moves into `after`, which is where its `then` would run; the
    values it reads from `before` are forwarded as extra arguments."""

    root = "scf.while"

    def match_and_rewrite(self, op, rewriter):
        term = op.regions[0].blocks[0].last
        if_op = term.prev
        if type(if_op) is not S.IfOp or if_op.operand(0) is not term.operand(0):
            return False
        eb = _else_block(if_op)
        if eb is not None and eb.first is not eb.last:
            return False
        after = op.regions[1].blocks[0]
        before_r = op.regions[0]
        for arg in term.operands[1:]:
            # A `then` value defined in `before` outside the scf.if would not be
            # visible in `after` (upstream moves it anyway and leaves invalid IR).
            if isinstance(arg, OpResult) and arg.owner is if_op and \
                    _parent_region(_then_block(if_op).last.operand(arg.index)) is before_r:
                return False
        for idx, arg in enumerate(term.operands[1:]):
            if isinstance(arg, OpResult) and arg.owner is if_op:
                k = arg.index
                tv = _then_block(if_op).last.operand(k)
                ev = _else_block(if_op).last.operand(k)
                rewriter.replace_all_uses_with(if_op.results[k], ev)
                rewriter.replace_all_uses_with(after.args[idx], tv)
        extra = []
        seen = set()
        then_r = if_op.regions[0]
        for inner in then_r.walk():
            for o in inner.op_operands:
                v = o.value
                pr = _parent_region(v)
                if pr is not None and pr is not then_r and \
                        _is_proper_ancestor_region(pr, then_r) and pr is before_r and \
                        v not in seen:
                    seen.add(v)
                    extra.append(v)
        types = op.result_types + [v.type for v in extra]
        rewriter.ip = InsertionPoint.before_op(op)
        new = rewriter.insert(S.WhileOp.build(inits=op.operands, result_types=types,
                                              loc=op.loc))
        new.regions[0].take_body(op.regions[0])
        new.regions[1].take_body(op.regions[1])
        new_args = [after.add_argument(v.type, op.loc) for v in extra]
        rewriter.modify_op_in_place(new)
        rewriter.modify_op_in_place(term, lambda: term.set_operands(term.operands + extra))
        for v, a in zip(extra, new_args):
            rewriter.replace_uses_where(v, a, lambda u: _region_contains(
                then_r, u.owner.parent_region))
        rewriter.erase_op(_then_block(if_op).last)
        _inline_at_start(rewriter, _then_block(if_op), after, [])
        rewriter.erase_op(if_op)
        rewriter.replace_op(op, new.results[:len(op.results)])
        return True


def _is_proper_ancestor_region(outer, region) -> bool:
    if outer is region:
        return False
    return _region_contains(outer, region)


def while_patterns():
    return [WhileConditionTruth(), WhileCmpCond(), WhileOpAlignBeforeArgs(),
            WhileMoveIfDown()] + region_branch_patterns("scf.while") + \
        [InlineRegionBranchOp("scf.while")]


# ====================================================================== scf.parallel


def _parallel_groups(op):
    n = len(op.step)
    ops = op.operands
    return ops[:n], ops[n:2 * n], ops[2 * n:3 * n], ops[3 * n:]


def _new_parallel(rewriter, lbs, ubs, steps, inits, loc):
    """An scf.parallel with an empty region (no blocks), inserted at the insertion
    point."""
    op = S.ParallelOp.build(lowerBound=list(lbs), upperBound=list(ubs), step=list(steps),
                            initVals=list(inits), result_types=[v.type for v in inits],
                            loc=loc)
    return rewriter.insert(op)


class ParallelOpSingleOrZeroIterationDimsFolder(RewritePattern):
    """A dimension that runs zero times makes the whole loop yield its initial values;
    dimensions running once go, their induction variable becoming the lower bound
    (all of them: the body and reductions are inlined)."""

    root = "scf.parallel"

    def match_and_rewrite(self, op, rewriter):
        lbs, ubs, steps, inits = _parallel_groups(op)
        body = op.regions[0].blocks[0]
        nl, nu, ns = [], [], []
        mapping = {}
        for lb, ub, st, iv in zip(lbs, ubs, steps, body.args):
            n = constant_trip_count(lb, ub, st, True)
            if n is not None:
                if n == 0:
                    rewriter.replace_op(op, inits)
                    return True
                if n == 1:
                    mapping[iv] = lb
                    continue
            nl.append(lb)
            nu.append(ub)
            ns.append(st)
        if len(nl) == len(lbs):
            return False
        rewriter.ip = InsertionPoint.before_op(op)
        if not nl:
            results = []
            for inner in body.ops:
                if inner is body.last:
                    break
                rewriter.clone(inner, mapping)
            red = body.last
            for i, r in enumerate(red.regions):
                rb = r.blocks[0]
                mapping[rb.args[0]] = inits[len(results)]
                mapping[rb.args[1]] = mapping.get(red.operand(i), red.operand(i))
                for inner in rb.ops:
                    if inner is rb.last:
                        break
                    rewriter.clone(inner, mapping)
                v = rb.last.operand(0)
                results.append(mapping.get(v, v))
            rewriter.replace_op(op, results)
            return True
        new = _new_parallel(rewriter, nl, nu, ns, inits, op.loc)
        _clone_region_into(rewriter, op.regions[0], new.regions[0], mapping)
        rewriter.replace_op(op, new.results)
        return True


class MergeNestedParallelLoops(RewritePattern):
    """`scf.parallel { scf.parallel { body } }` with nothing else in the outer body
    and no reductions: one loop over both index spaces."""

    root = "scf.parallel"

    def match_and_rewrite(self, op, rewriter):
        outer = op.regions[0].blocks[0]
        first = outer.first
        if first is None or first.next is not outer.last:
            return False
        inner = first
        if type(inner) is not S.ParallelOp:
            return False
        ilbs, iubs, isteps, iinits = _parallel_groups(inner)
        bounds = set(ilbs) | set(iubs) | set(isteps)
        if any(a in bounds for a in outer.args):
            return False
        lbs, ubs, steps, inits = _parallel_groups(op)
        if inits or iinits:
            return False
        rewriter.ip = InsertionPoint.before_op(op)
        new = _new_parallel(rewriter, lbs + ilbs, ubs + iubs, steps + isteps, [], op.loc)
        n = len(lbs) + len(ilbs)
        nb = new.regions[0].add_block(Block([A.index] * n, [op.loc] * n))
        ib = inner.regions[0].blocks[0]
        mapping = dict(zip(outer.args, nb.args[:len(outer.args)]))
        mapping.update(zip(ib.args, nb.args[len(outer.args):]))
        for x in ib.ops:
            if x is ib.last:
                break
            nb.append(x.clone(mapping))
        nb.append(S.ReduceOp.create((), (), None, None, (), 0, op.loc))
        for x in nb.ops:
            rewriter._notify_inserted_recursively(x)
        rewriter.replace_op(op, new.results)
        return True


def parallel_patterns():
    return [ParallelOpSingleOrZeroIterationDimsFolder(), MergeNestedParallelLoops()]


# ====================================================================== scf.forall


def _forall_parts(op):
    """(lower bounds, upper bounds, steps) as ints or Values, the body block, rank."""
    return (op._mixed("staticLowerBound", 0), op._mixed("staticUpperBound", 1),
            op._mixed("staticStep", 2), op.regions[0].blocks[0], op.rank)


def _index_value(rewriter, x, loc):
    """A Value for a bound: itself, or a new arith.constant index for an int."""
    if not isinstance(x, int):
        return x
    return rewriter.create(_arith().ConstantOp, value=A.IntegerAttr(x, A.index),
                           result=A.index, loc=loc).results[0]


def _new_forall(lbs, ubs, steps, outputs, loc, attributes=None):
    """An scf.forall (detached, no blocks) over mixed static/dynamic bounds."""
    props = {}
    dyn = []
    for name, vals in (("staticLowerBound", lbs), ("staticUpperBound", ubs),
                       ("staticStep", steps)):
        props[name] = A.DenseArrayAttr(A.i64, [v if isinstance(v, int) else A.DYNAMIC
                                               for v in vals])
        dyn.append([v for v in vals if not isinstance(v, int)])
    props["operandSegmentSizes"] = A.DenseArrayAttr(
        A.i32, [len(dyn[0]), len(dyn[1]), len(dyn[2]), len(outputs)])
    return S.ForallOp.create(dyn[0] + dyn[1] + dyn[2] + list(outputs),
                             [v.type for v in outputs], props, attributes, (), 1, loc)


def _combining_ops(arg):
    """The ops writing into a shared output (ParallelCombiningOpInterface users)."""
    out = []
    for u in arg.uses:
        if getattr(type(u.owner), "parallel_combining", False) and u.owner not in out:
            out.append(u.owner)
    return out


class DimOfForallOp(RewritePattern):
    """`tensor.dim` of an scf.forall result reads the shared output it started as."""

    root = "tensor.dim"

    def match_and_rewrite(self, op, rewriter):
        src = op.operand(0)
        f = src.defining_op
        if type(f) is not S.ForallOp:
            return False
        out = f.outputs[src.index]
        rewriter.modify_op_in_place(op, lambda: op.set_operand(0, out))
        return True


class FoldTensorCastOfOutputIntoForallOp(RewritePattern):
    """A shared output that is a tensor.cast losing static shape information is shared
    uncast; the loop casts it back inside and casts its result."""

    root = "scf.forall"

    def match_and_rewrite(self, op, rewriter):
        outs = list(op.outputs)
        casts = {}
        for i, v in enumerate(outs):
            c = v.defining_op
            if c is None or c.name != "tensor.cast":
                continue
            if not _preserves_static_information(c.results[0].type, c.operand(0).type):
                continue
            casts[i] = (c.operand(0).type, c.results[0].type)
            outs[i] = c.operand(0)
        if not casts:
            return False
        loc = op.loc
        lbs, ubs, steps, body, rank = _forall_parts(op)
        rewriter.ip = InsertionPoint.before_op(op)
        new = _new_forall(lbs, ubs, steps, outs, loc)
        m = op.properties.get("mapping")
        if m is not None:
            new.properties["mapping"] = m
        nb = new.regions[0].add_block(Block([A.index] * rank + [v.type for v in outs],
                                            [loc] * (rank + len(outs))))
        rewriter.insert(new)
        rewriter.ip = InsertionPoint.at_start(nb)
        args = list(nb.args)
        uncast = {}  # the cast of a shared output's argument -> that argument
        for i, (_, dst_t) in casts.items():
            args[rank + i] = _tensor_cast(rewriter, args[rank + i], dst_t, loc)
            uncast[args[rank + i]] = nb.args[rank + i]
        rewriter.merge_blocks(body, nb, args)
        # A write into a cast argument writes into the argument itself: each yielding op
        # by the destination it names (their order need not be the outputs' order).
        term = nb.last
        yielding = list(term.regions[0].blocks[0].ops) if term.regions[0].blocks else []
        for y in yielding:
            if getattr(type(y), "parallel_combining", False):
                a = uncast.get(y.operand(1))
                if a is not None:
                    rewriter.modify_op_in_place(y, lambda y=y, a=a: y.set_operand(1, a))
        rewriter.ip = InsertionPoint.after_op(new)
        results = list(new.results)
        for i, (_, dst_t) in casts.items():
            results[i] = _tensor_cast(rewriter, results[i], dst_t, loc)
        rewriter.replace_op(op, results)
        return True


class ForallOpControlOperandsFolder(RewritePattern):
    """Bounds given by constant values become static bounds."""

    root = "scf.forall"

    def match_and_rewrite(self, op, rewriter):
        lists = []
        changed = False
        for name, g in (("staticLowerBound", 0), ("staticUpperBound", 1),
                        ("staticStep", 2)):
            vals = []
            folded = False
            for v in op._mixed(name, g):
                # Upstream folds only the first list that has constants (the others
                # wait for the next application).
                if not changed and not isinstance(v, int):
                    a = constant_value(v)
                    if type(a) is A.IntegerAttr:
                        v = a.value
                        folded = True
                vals.append(v)
            changed |= folded
            lists.append(vals)
        if not changed:
            return False

        def update():
            dyn = []
            for (name, _), vals in zip((("staticLowerBound", 0), ("staticUpperBound", 1),
                                        ("staticStep", 2)), lists):
                op.properties[name] = A.DenseArrayAttr(
                    A.i64, [v if isinstance(v, int) else A.DYNAMIC for v in vals])
                dyn.append([v for v in vals if not isinstance(v, int)])
            outs = list(op.outputs)
            op.set_operands(dyn[0] + dyn[1] + dyn[2] + outs)
            op.properties["operandSegmentSizes"] = A.DenseArrayAttr(
                A.i32, [len(dyn[0]), len(dyn[1]), len(dyn[2]), len(op.results)])
        rewriter.modify_op_in_place(op, update)
        return True


class ForallOpIterArgsFolder(RewritePattern):
    """A shared output that nobody reads after the loop, or that the body never writes
    into, goes: the body reads the initial tensor instead, and the writes go."""

    root = "scf.forall"

    def match_and_rewrite(self, op, rewriter):
        body = op.regions[0].blocks[0]
        rank = op.rank
        outs = list(op.outputs)
        drop = []
        keep_outs = []
        for i, r in enumerate(op.results):
            arg = body.args[rank + i]
            if r.first_use is None or not _combining_ops(arg):
                drop.append(i)
            else:
                keep_outs.append(outs[i])
        if not drop:
            return False
        for i in drop:
            for c in _combining_ops(body.args[rank + i]):
                rewriter.erase_op(c)
        for i in drop:
            rewriter.replace_all_uses_with(body.args[rank + i], outs[i])
            rewriter.replace_all_uses_with(op.results[i], outs[i])

        def erase_args():
            for i in sorted(drop, reverse=True):
                body.erase_argument(rank + i)
        rewriter.modify_op_in_place(op, erase_args)
        new = erase_op_results(rewriter, op, set(drop))
        n = len(new.operands) - len(outs)
        new.set_operands(new.operands[:n] + keep_outs)
        seg = list(new.properties["operandSegmentSizes"].value)
        seg[3] = len(keep_outs)
        new.properties["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, seg)
        return True


def _promote_forall(rewriter, op):
    """Inline a forall running once: IVs become the lower bounds, shared outputs the
    initial tensors, each parallel_insert_slice a tensor.insert_slice after it."""
    lbs, _, _, body, rank = _forall_parts(op)
    term = body.last
    rewriter.ip = InsertionPoint.before_op(op)
    repl = [_index_value(rewriter, lb, op.loc) for lb in lbs] + list(op.outputs)
    rewriter.inline_block_before(body, op, repl)
    rewriter.ip = InsertionPoint.after_op(op)
    results = []
    yielding = list(term.regions[0].blocks[0].ops) if term.regions[0].blocks else []
    from .tensor import InsertSliceOp
    for y in yielding:
        if y.name != "tensor.parallel_insert_slice":
            continue
        props = {k: v for k, v in y.properties.items()}
        ins = InsertSliceOp.create(y.operands, [y.operand(1).type], props, None, (), 0,
                                   op.loc)
        rewriter.insert(ins)
        rewriter.ip = InsertionPoint.after_op(ins)
        results.append(ins.results[0])
    for r, v in zip(op.results, results):
        rewriter.replace_all_uses_with(r, v)
    rewriter.erase_op(term)
    rewriter.erase_op(op)


class ForallOpSingleOrZeroIterationDimsFolder(RewritePattern):
    """Without a mapping: a dimension running zero times makes the loop its shared
    outputs; dimensions running once go (their IV becomes the lower bound); a loop
    left with none is inlined."""

    root = "scf.forall"

    def match_and_rewrite(self, op, rewriter):
        m = op.properties.get("mapping")
        if m is not None and len(m):
            return False
        lbs, ubs, steps, body, rank = _forall_parts(op)
        loc = op.loc
        nl, nu, ns = [], [], []
        mapping = {}
        rewriter.ip = InsertionPoint.before_op(op)
        for lb, ub, st, iv in zip(lbs, ubs, steps, body.args):
            n = constant_trip_count(lb, ub, st, True)
            if n is not None:
                if n == 0:
                    rewriter.replace_op(op, list(op.outputs))
                    return True
                if n == 1:
                    mapping[iv] = _index_value(rewriter, lb, loc)
                    continue
            nl.append(lb)
            nu.append(ub)
            ns.append(st)
        if not nl:
            _promote_forall(rewriter, op)
            return True
        if len(nl) == rank:
            return rewriter.notify_match_failure(op, "no dimensions have 0 or 1 iterations")
        attrs = {k: v for k, v in op.properties.items()
                 if k not in ("operandSegmentSizes", "staticLowerBound", "staticUpperBound",
                              "staticStep")}
        rewriter.ip = InsertionPoint.before_op(op)
        new = _new_forall(nl, nu, ns, list(op.outputs), loc, dict(op.attributes))
        new.properties.update(attrs)
        rewriter.insert(new)
        _clone_region_into(rewriter, op.regions[0], new.regions[0], mapping)
        rewriter.replace_op(op, new.results)
        return True


class ForallOpReplaceConstantInductionVar(RewritePattern):
    """An induction variable of a dimension running once is its lower bound."""

    root = "scf.forall"

    def match_and_rewrite(self, op, rewriter):
        lbs, ubs, steps, body, rank = _forall_parts(op)
        changed = False
        for lb, ub, st, iv in zip(lbs, ubs, steps, body.args):
            if iv.first_use is None:
                continue
            if constant_trip_count(lb, ub, st, True) != 1:
                continue
            rewriter.ip = InsertionPoint.before_op(op)
            rewriter.replace_all_uses_with(iv, _index_value(rewriter, lb, op.loc))
            changed = True
        return changed


def forall_patterns():
    return [DimOfForallOp(), FoldTensorCastOfOutputIntoForallOp(),
            ForallOpControlOperandsFolder(), ForallOpIterArgsFolder(),
            ForallOpSingleOrZeroIterationDimsFolder(), ForallOpReplaceConstantInductionVar()]
