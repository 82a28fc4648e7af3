"""The memref form of scf.for, scf.while, scf.if, scf.index_switch and
scf.execute_region (see [Note: buffer ownership] in bufferize.py for the ALIAS and
OWNED modes of the values they carry)."""
from __future__ import annotations

from ...ir.builder import Builder
from ...ir.core import BlockArgument
from .analysis import BufferizationError
from .bufferize import ALIAS, OWNED, memref_type_for
from .models import _For, _While, is_tensor
from .rules import rule

__all__ = ["loop_modes"]


def loop_modes(st, op):
    """ALIAS (in place on the init: the yielded value is equivalent to the iteration's
    argument) or OWNED per tensor value a loop carries (None for other values); for
    scf.while, (modes of the `before` arguments, modes of the `after` arguments and
    results)."""
    if op.name == "scf.for":
        return [None if not is_tensor(r.type) else
                ALIAS if _For.yield_equivalent(st, op, i) else OWNED
                for i, r in enumerate(op.results)]
    before = op.regions[0].blocks[0]
    bm = [None if not is_tensor(a.type) else
          ALIAS if i < len(op.results) and _While.equivalent(st, op, i) else OWNED
          for i, a in enumerate(before.args)]
    am = [None if not is_tensor(r.type) else
          ALIAS if i < len(bm) and bm[i] == ALIAS else OWNED
          for i, r in enumerate(op.results)]
    return bm, am


def _loop_inits(bz, b, op, operands, modes):
    """The memref inits of a loop: the init's buffer (ALIAS), or a buffer the loop may
    free (OWNED): the out-of-place copy when there is one, else a copy."""
    out = []
    for u, mode in zip(operands, modes):
        if mode is None:
            out.append(u.value)
            continue
        buf = bz.operand_buffer(b, u)
        if mode == OWNED:
            tt = bz.ttype(u.value)
            fresh = u in bz.plan and bz.transferable(buf, b.ip.block)
            if not fresh or buf.type is not memref_type_for(tt):
                buf = bz.clone(b, buf, tt)
            bz.consumed.add(buf)
        out.append(buf)
    return out


def _give(bz, term, u, block, want, tensor_type):
    """Make terminator operand `u` a buffer of type `want` that `block` owns and gives
    up (a copy when it does not own its buffer)."""
    buf = bz.buffer(u.value)
    if not (bz.transferable(buf, block) and buf.type is want):
        buf = bz.clone(Builder.before(term), buf, tensor_type)
        if buf.type is not want:
            buf = bz.cast(Builder.before(term), buf, want)
    bz.consumed.add(buf)
    u.set(buf)


def _retype_args(bz, block, types, modes, inits_roots):
    for a, t, mode, roots in zip(block.args, types, modes, inits_roots):
        if mode is None:
            continue
        bz.retype(a, t)
        if mode == OWNED:
            bz.own(a, block)
        else:
            bz.roots[a] = roots


def _results(bz, op, new, modes, roots, parent):
    values = []
    for r, nr, mode, rt in zip(op.results, new.results, modes, roots):
        if mode == OWNED:
            bz.own(nr, parent)
        elif mode == ALIAS:
            bz.roots[nr] = rt
        values.append(nr)
    bz.replace(op, values)


@rule("scf.for")
def _for(bz, op):
    modes = bz.modes[op]
    b = Builder.before(op)
    inits = _loop_inits(bz, b, op, op._operands[3:], modes)
    types = [v.type if m is not None else r.type
             for v, m, r in zip(inits, modes, op.results)]
    new = b.insert(type(op).create(op.operands[:3] + inits, types, dict(op._props) or None,
                                   dict(op._attrs) or None, (), 1, op.loc))
    new.regions[0].take_body(op.regions[0])
    body = new.regions[0].blocks[0]
    roots = [bz.roots_of(v) if m == ALIAS else None for v, m in zip(inits, modes)]
    _retype_args(bz, body, [None] + types, [None] + modes, [None] + roots)
    bz.bufferize_block(body, skip_terminator=True)
    y = body.last
    for i, u in enumerate(y._operands):
        mode = modes[i]
        arg = body.args[1 + i]
        if mode == ALIAS:
            u.set(arg)
        elif mode == OWNED:
            _give(bz, y, u, body, arg.type, op.results[i].type)
    _results(bz, op, new, modes, roots, b.ip.block)


@rule("scf.while")
def _while(bz, op):
    bm, am = bz.modes[op]
    b = Builder.before(op)
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    inits = _loop_inits(bz, b, op, op._operands, bm)
    btypes = [v.type if m is not None else a.type for v, m, a in zip(inits, bm, before.args)]
    atypes = []
    for j, (a, m) in enumerate(zip(after.args, am)):
        if m is None:
            atypes.append(a.type)
        elif m == ALIAS:
            atypes.append(btypes[j])
        else:
            atypes.append(memref_type_for(a.type))
    new = b.insert(type(op).create(inits, atypes, dict(op._props) or None,
                                   dict(op._attrs) or None, (), 2, op.loc))
    new.regions[0].take_body(op.regions[0])
    new.regions[1].take_body(op.regions[1])
    broots = [bz.roots_of(v) if m == ALIAS else None for v, m in zip(inits, bm)]
    aroots = [broots[j] if m == ALIAS else None for j, m in enumerate(am)]
    _retype_args(bz, before, btypes, bm, broots)
    _retype_args(bz, after, atypes, am, aroots)
    bz.bufferize_block(before, skip_terminator=True)
    cond = before.last
    for j, u in enumerate(cond._operands[1:]):
        m = am[j] if j < len(am) else None
        if m == ALIAS:
            u.set(before.args[j])
        elif m == OWNED:
            _give(bz, cond, u, before, atypes[j], op.results[j].type)
    bz.bufferize_block(after, skip_terminator=True)
    y = after.last
    for i, u in enumerate(y._operands):
        m = bm[i] if i < len(bm) else None
        if m == ALIAS:
            u.set(after.args[i])
        elif m == OWNED:
            _give(bz, y, u, after, btypes[i], bz.ttype(op._operands[i].value))
    _results(bz, op, new, am, aroots, b.ip.block)


def _defined_inside(op, v) -> bool:
    o = v.owner.parent_op if type(v) is BlockArgument else v.owner
    return o is not None and op.is_ancestor(o)


@rule("scf.if", "scf.index_switch", "scf.execute_region")
def _branches(bz, op):
    """A result is ALIAS when every region yields a buffer living outside the op (all of
    the same type), else OWNED (see [Note: buffer ownership])."""
    regions = [r for r in op.regions if r.blocks]
    for r in regions:
        if len(r.blocks) != 1:
            raise BufferizationError.at(op, "op or BufferizableOpInterface implementation "
                                            "does not support unstructured control flow, "
                                            "but at least one region has multiple blocks")
        bz.bufferize_block(r.blocks[0], skip_terminator=True)
    b = Builder.before(op)
    types, modes, roots = [], [], []
    for i, r in enumerate(op.results):
        if not is_tensor(r.type):
            types.append(r.type)
            modes.append(None)
            roots.append(None)
            continue
        bufs = [bz.buffer(reg.blocks[0].last.operand(i)) for reg in regions]
        outside = all(not _defined_inside(op, x) for buf in bufs for x in bz.roots_of(buf))
        if outside and all(x.type is bufs[0].type for x in bufs):
            for reg, buf in zip(regions, bufs):
                reg.blocks[0].last._operands[i].set(buf)
            types.append(bufs[0].type)
            modes.append(ALIAS)
            roots.append(tuple(x for buf in bufs for x in bz.roots_of(buf)))
            continue
        want = memref_type_for(r.type)
        for reg in regions:
            term = reg.blocks[0].last
            _give(bz, term, term._operands[i], reg.blocks[0], want, r.type)
        types.append(want)
        modes.append(OWNED)
        roots.append(None)
    operands = [u.value for u in op._operands]
    new = b.insert(type(op).create(operands, types, dict(op._props) or None,
                                   dict(op._attrs) or None, (), len(op.regions), op.loc))
    for nr, r in zip(new.regions, op.regions):
        nr.take_body(r)
    _results(bz, op, new, modes, roots, b.ip.block)
