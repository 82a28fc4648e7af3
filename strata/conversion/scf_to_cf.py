"""`convert-scf-to-cf`: structured control flow (scf.for, scf.if, scf.while,
scf.execute_region, scf.index_switch, scf.parallel, scf.forall) becomes a CFG of blocks
with arguments and cf.br / cf.cond_br / cf.switch, as upstream's SCFToControlFlow.

    %r = scf.for %i = %lb to %ub step %s          cf.br ^bb1(%lb, %x : index, f32)
        iter_args(%a = %x) -> (f32) {          ^bb1(%i: index, %a: f32):
      %y = arith.addf %a, %a : f32       =>      %c = arith.cmpi slt, %i, %ub : index
      scf.yield %y : f32                         cf.cond_br %c, ^bb2, ^bb3
    }                                          ^bb2:
                                                 %y = arith.addf %a, %a : f32
                                                 %n = arith.addi %i, %s : index
                                                 cf.br ^bb1(%n, %y : index, f32)
                                               ^bb3:  // %r is %a here

[Note: one walk, upstream's blocks]
Upstream applies one rewrite pattern per op through dialect conversion, outer ops first;
each pattern splits the enclosing block at the op and inlines the op's regions before
the continuation block. The result is a region whose blocks are laid out in nesting
order: the block before the op, the op's region blocks (themselves expanded the same
way), the continuation. Strata builds that layout in one pass over each region: the
blocks of the region are re-listed in a fresh list while their ops are walked; at an scf
op the ops after it go, one by one as the walk reaches them, to a new continuation
block, so every op is moved at most once per region and the conversion is linear in the
size of the IR (splitting a block per op, as a pattern would, is quadratic in the number
of scf ops of a block). Block arguments of an scf.for body move to the condition block
(upstream keeps the body block as the condition block and splits the ops off: the same
IR). scf.parallel and scf.forall become scf.for nests first (as upstream, through
forallToParallelLoop and ParallelLowering), which are then lowered as loops.
The printed output is the text `iree-opt --convert-scf-to-cf` prints.
"""
from __future__ import annotations

from ..dialects import arith, cf
from ..dialects import scf as S
from ..ir import attributes as A
from ..ir.core import Block
from ..ir.dense import DenseElementsAttr
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.gc_pause import gc_paused
from ..passes.pass_manager import Option, Pass

__all__ = ["ConvertSCFToCF", "lower_scf_to_cf"]

_SLT, _ULT = 2, 6  # arith.cmpi predicates


def lower_scf_to_cf(root) -> None:
    """Lower every scf control-flow op nested in `root` (not `root` itself) to cf.
    Raises DiagnosticError, leaving the IR unchanged, on an scf.forall with outputs
    (upstream's conversion fails there too: only bufferized foralls lower)."""
    for op in root.walk():
        if type(op) is S.ForallOp and op.outputs:
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, "failed to legalize operation 'scf.forall' that was "
                "explicitly marked illegal"))
    with gc_paused():
        for r in root.regions:
            _lower_region(r)


class ConvertSCFToCF(Pass):
    name = "convert-scf-to-cf"
    summary = ("Convert SCF dialect to ControlFlow dialect, replacing structured control "
               "flow with a CFG")
    display_name = "SCFToControlFlowPass"
    allow_pattern_rollback = Option(bool, True, "Experimental performance flag to "
                                    "disallow pattern rollback (no effect here)")

    def run(self, op):
        lower_scf_to_cf(op)


# ---------------------------------------------------------------------- the walk


def _lower_region(region) -> None:
    blocks = region.blocks
    out = []
    for b in blocks:
        out.append(b)
        _flatten(b, out)
    if len(out) != len(blocks):
        region.blocks = out
        for b in out:
            b.parent = region


def _flatten(block, out) -> Block:
    """Lower the scf ops of `block` (already listed in `out`), listing the blocks made
    after it; returns the block that ends up holding `block`'s terminator."""
    cur = block
    op = block.first
    while op is not None:
        nxt = op.next
        if cur is not block:
            block._unlink(op)
            cur.append(op)
        lower = _LOWERINGS.get(op.name)
        if lower is not None:
            cur = lower(op, out)
        elif op.regions:
            for r in op.regions:
                _lower_region(r)
        op = nxt
    return cur


def _inline(region, out):
    """List the blocks of `region` (an scf op's) in `out`, lowering what they hold;
    returns the exit block of its last block."""
    exit_block = None
    for b in region.blocks:
        out.append(b)
        exit_block = _flatten(b, out)
    region.blocks = []
    return exit_block


def _before(anchor, op):
    anchor.parent.insert_before(anchor, op)
    return op


def _br(dest, values, loc):
    return cf.BranchOp.create(list(values), (), None, None, [dest], loc=loc)


def _cond_br(cond, t, t_args, f, f_args, loc):
    sizes = A.DenseArrayAttr(A.i32, (1, len(t_args), len(f_args)))
    return cf.CondBranchOp.create([cond, *t_args, *f_args], (),
                                  {"operandSegmentSizes": sizes}, None, [t, f], loc=loc)


def _replace_terminator(block, new):
    """Put `new` where `block`'s terminator is and erase that terminator."""
    t = block.last
    block.insert_before(t, new)
    t.erase()


def _finish(op, values):
    """Replace `op`'s results by `values` and erase it with what its regions still hold
    (the blocks moved out were taken off them)."""
    for r, v in zip(op.results, values):
        r.replace_all_uses_with(v)
    op.erase()


def _llvm_attrs(op) -> dict:
    """The discardable attributes of `op` whose value is an llvm dialect attribute
    (`llvm.loop_annotation`): upstream moves them to the loop's latch branch."""
    out = {}
    for k, v in op._attrs.items():
        d = v.dialect_name if isinstance(v, A.OpaqueAttr) else type(v).dialect
        if d == "llvm":
            out[k] = v
    return out


# ---------------------------------------------------------------------- loops


def _lower_for(op, out):
    loc = op.loc
    body = op.regions[0].blocks[0]
    cond = Block()
    cond.args, body.args = body.args, []
    for a in cond.args:
        a.owner = cond
    iv = cond.args[0]
    lb, ub, step = op.operands[:3]
    _before(op, _br(cond, [lb] + op.operands[3:], loc))
    out.append(cond)
    last = _inline(op.regions[0], out)
    y = last.last
    stepped = arith.AddIOp.create([iv, step], [iv.type], loc=loc)
    last.insert_before(y, stepped)
    latch = _br(cond, [stepped.results[0]] + y.operands, loc)
    latch_attrs = _llvm_attrs(op)
    if latch_attrs:
        latch.attributes = latch_attrs
    _replace_terminator(last, latch)
    end = Block()
    pred = _ULT if "unsignedCmp" in op._props else _SLT
    cmp = arith.CmpIOp.create([iv, ub], [A.i1],
                              {"predicate": A.IntegerAttr(pred, A.i64)}, loc=loc)
    cond.append(cmp)
    cond.append(_cond_br(cmp.results[0], body, (), end, (), loc))
    out.append(end)
    _finish(op, cond.args[1:])
    return end


def _is_do_while(op) -> bool:
    after = op.regions[1].blocks[0]
    y = after.first
    return y is after.last and type(y) is S.YieldOp and y.operands == after.args


def _lower_while(op, out):
    loc = op.loc
    before = op.regions[0].blocks[0]
    _before(op, _br(before, op.operands, loc))
    do_while = _is_do_while(op)
    before_exit = _inline(op.regions[0], out)
    cond_op = before_exit.last
    args = cond_op.operands[1:]
    cont = Block()
    if do_while:
        latch = _cond_br(cond_op.operands[0], before, args, cont, (), cond_op.loc)
        _replace_terminator(before_exit, latch)
    else:
        after = op.regions[1].blocks[0]
        _replace_terminator(before_exit, _cond_br(cond_op.operands[0], after, args, cont,
                                                  (), cond_op.loc))
        after_exit = _inline(op.regions[1], out)
        y = after_exit.last
        latch = _br(before, y.operands, y.loc)
        _replace_terminator(after_exit, latch)
    latch_attrs = _llvm_attrs(op)
    if latch_attrs:
        latch.attributes = latch_attrs
    out.append(cont)
    _finish(op, args)
    return cont


def _lower_parallel(op, out):
    """scf.parallel -> an scf.for nest (upstream's ParallelLowering), then lowered."""
    n = len(op.regions[0].blocks[0].args)
    operands = op.operands
    reduce_op = op.regions[0].blocks[0].last
    outer = _for_nest(op, operands[:n], operands[n:2 * n], operands[2 * n:3 * n],
                      operands[3 * n:], reduce_op)
    return _lower_for(outer, out)


def _lower_forall(op, out):
    """scf.forall (no outputs) -> scf.parallel -> scf.for nest (upstream's
    forallToParallelLoop): constant bounds and steps become `arith.constant`s."""
    loc = op.loc
    vals = []
    for sname, g in (("staticLowerBound", 0), ("staticUpperBound", 1), ("staticStep", 2)):
        lst = []
        for v in op._mixed(sname, g):
            if isinstance(v, int):
                c = arith.ConstantOp.create((), [A.index],
                                            {"value": A.IntegerAttr(v, A.index)}, loc=loc)
                v = _before(op, c).results[0]
            lst.append(v)
        vals.append(lst)
    outer = _for_nest(op, vals[0], vals[1], vals[2], [], None)
    return _lower_for(outer, out)


def _for_nest(op, lbs, ubs, steps, inits, reduce_op):
    """Replace `op` (scf.parallel or scf.forall) by a nest of scf.for ops, one per
    induction variable, carrying `inits` through the reductions of `reduce_op`;
    returns the outermost loop."""
    loc = op.loc
    body = op.regions[0].blocks[0]
    iter_args = list(inits)
    ivs = []
    outer = None
    for lb, ub, step in zip(lbs, ubs, steps):
        f = S.ForOp.new(lb, ub, step, iter_args, loc=loc)
        fb = f.regions[0].blocks[0]
        fb.args[0].loc = loc  # as upstream's builder: the loop's, then each init's
        for a, v in zip(fb.args[1:], iter_args):
            a.loc = _value_loc(v)
        if outer is None:
            outer = _before(op, f)
        else:
            inner_body.prepend(f)
            if f.results:
                inner_body.append(S.YieldOp.create(list(f.results), loc=loc))
        ivs.append(fb.args[0])
        iter_args = fb.args[1:]
        inner_body = fb
    # The body's ops, then each reduction's, before the innermost loop's yield.
    term = body.last
    anchor = inner_body.last  # the empty yield of a loop without results, or None
    yields = []
    for a, iv in zip(body.args, ivs):
        a.replace_all_uses_with(iv)

    def move(block, stop):
        """Move `block`'s ops up to `stop` (excluded) before the innermost yield."""
        o = block.first
        while o is not stop:
            nxt = o.next
            block._unlink(o)
            if anchor is None:
                inner_body.append(o)
            else:
                inner_body.insert_before(anchor, o)
            o = nxt
    move(body, term)
    if reduce_op is not None:
        for i, r in enumerate(reduce_op.regions):
            rb = r.blocks[0]
            ret = rb.last
            yields.append(ret.operands[0])
            rb.args[0].replace_all_uses_with(iter_args[i])
            rb.args[1].replace_all_uses_with(reduce_op.operand(i))
            ret.erase()
            move(rb, None)
    if yields:
        inner_body.append(S.YieldOp.create(yields, loc=loc))
    _finish(op, outer.results)
    return outer


def _value_loc(v):
    d = v.defining_op
    return d.loc if d is not None else v.loc


# ---------------------------------------------------------------------- branches


def _lower_if(op, out):
    loc = op.loc
    rest = Block()
    if op.results:
        cont = Block([r.type for r in op.results], [loc] * len(op.results))
        cont.append(_br(rest, (), loc))
    else:
        cont = rest
    then_r, else_r = op.regions
    then_b = then_r.blocks[0]
    exit_b = _inline(then_r, out)
    _replace_terminator(exit_b, _br(cont, exit_b.last.operands, loc))
    else_b = cont
    if else_r.blocks:
        else_b = else_r.blocks[0]
        exit_b = _inline(else_r, out)
        _replace_terminator(exit_b, _br(cont, exit_b.last.operands, loc))
    _before(op, _cond_br(op.operands[0], then_b, (), else_b, (), loc))
    out.append(cont)
    if cont is not rest:
        out.append(rest)
    _finish(op, cont.args)
    return rest


def _lower_execute_region(op, out):
    loc = op.loc
    rest = Block()
    region = op.regions[0]
    _before(op, _br(region.blocks[0], (), loc))
    for b in list(region.blocks):
        out.append(b)
        exit_b = _flatten(b, out)
        t = exit_b.last
        if type(t) is S.YieldOp:
            _replace_terminator(exit_b, _br(rest, t.operands, t.loc))
    region.blocks = []
    for r in op.results:
        rest.add_argument(r.type, loc)
    out.append(rest)
    _finish(op, rest.args)
    return rest


def _lower_index_switch(op, out):
    loc = op.loc
    cont = Block([r.type for r in op.results], [loc] * len(op.results))
    dests = []
    for region in op.regions[1:] + op.regions[:1]:  # the cases, then the default
        dests.append(region.blocks[0])
        exit_b = _inline(region, out)
        y = exit_b.last
        _replace_terminator(exit_b, _br(cont, y.operands, y.loc))
    cases = list(op.properties["cases"].value)
    flag = _before(op, arith.IndexCastOp.create([op.operands[0]], [A.i64], loc=loc))
    props = {"case_operand_segments": A.DenseArrayAttr(A.i32, [0] * len(cases)),
             "operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])}
    if cases:
        props["case_values"] = DenseElementsAttr(A.VectorType([len(cases)], A.i64), cases)
    _before(op, cf.SwitchOp.create([flag.results[0]], (), props, None,
                                   [dests[-1]] + dests[:-1], loc=loc))
    out.append(cont)
    _finish(op, cont.args)
    return cont


_LOWERINGS = {"scf.for": _lower_for, "scf.if": _lower_if, "scf.while": _lower_while,
              "scf.execute_region": _lower_execute_region,
              "scf.index_switch": _lower_index_switch, "scf.parallel": _lower_parallel,
              "scf.forall": _lower_forall}


from ..passes.registry import register_pass  # noqa: E402

register_pass(ConvertSCFToCF)
