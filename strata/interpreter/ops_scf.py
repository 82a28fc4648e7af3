"""Interpreter implementations of the scf dialect (structured control flow).

Loops run their body region once per iteration, in order (scf.forall and scf.parallel
too: their results do not depend on the order when the IR is valid). Yield-like
terminators (scf.yield, scf.condition, scf.reduce, scf.reduce.return) need no
implementation: `run_region` returns their operands.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .ops_tensor import insert_slice_into, slice_params
from .values import dtype_of, int_width, to_unsigned


def _ints(static, values):
    """Static integers with DYNAMIC holes filled from `values` (Python ints)."""
    out, k = [], 0
    for s in static:
        if s == A.DYNAMIC:
            out.append(int(values[k]))
            k += 1
        else:
            out.append(int(s))
    return out


def _segments(op, args, n):
    """`args` split by the op's first `n` operand groups."""
    out = []
    for i in range(n):
        start, size = op._segment(i, False)
        out.append(args[start:start + size])
    return out


@impl("scf.for")
def _for(interp, op, args):
    t = op._operands[0].value.type
    if op.properties.get("unsignedCmp") is not None:
        w = int_width(t)
        lb, ub, step = (int(to_unsigned(a, w)) for a in args[:3])
    else:
        lb, ub, step = (int(a) for a in args[:3])
    if step <= 0:
        fail(op, f"step must be positive, got {step} (undefined behaviour)")
    iters = list(args[3:])
    body = op.regions[0]
    make = dtype_of(t).type
    for i in range(lb, ub, step):
        iters = interp.run_region(body, [make(i)] + iters)
    return iters


@impl("scf.while")
def _while(interp, op, args):
    before, after = op.regions
    values = list(args)
    while True:
        cond, *carried = interp.run_region(before, values)
        if not bool(cond):
            return carried
        values = interp.run_region(after, carried)


@impl("scf.if")
def _if(interp, op, args):
    region = op.regions[0] if bool(args[0]) else op.regions[1]
    if not region.blocks:
        return []
    return interp.run_region(region, [])


@impl("scf.index_switch")
def _index_switch(interp, op, args):
    cases = list(op.properties["cases"].value)
    v = int(args[0])
    region = op.regions[1 + cases.index(v)] if v in cases else op.regions[0]
    return interp.run_region(region, [])


@impl("scf.execute_region")
def _execute_region(interp, op, args):
    return interp.run_region(op.regions[0], [])


@impl("scf.parallel")
def _parallel(interp, op, args):
    lbs, ubs, steps, inits = _segments(op, args, 4)
    for s in steps:
        if int(s) <= 0:
            fail(op, f"step must be positive, got {int(s)} (undefined behaviour)")
    body = op.regions[0]
    reduce_op = body.blocks[0].last
    accs = list(inits)
    ranges = [range(int(lb), int(ub), int(st)) for lb, ub, st in zip(lbs, ubs, steps)]
    for point in itertools.product(*ranges):
        vals = interp.run_region(body, [np.int64(i) for i in point])
        for k, v in enumerate(vals):
            accs[k] = interp.run_region(reduce_op.regions[k], [accs[k], v])[0]
    return accs


# ---------------------------------------------------------------- scf.forall

# interp.cache key of the stack of parallel_insert_slice writes of running scf.foralls
_PENDING = "scf.forall pending"


@impl("scf.forall")
def _forall(interp, op, args):
    lbs_d, ubs_d, steps_d, outs = _segments(op, args, 4)
    p = op.properties
    lbs = _ints(p["staticLowerBound"].value, lbs_d)
    ubs = _ints(p["staticUpperBound"].value, ubs_d)
    steps = _ints(p["staticStep"].value, steps_d)
    for s in steps:
        if s <= 0:
            fail(op, f"step must be positive, got {s} (undefined behaviour)")
    body = op.regions[0]
    block = body.blocks[0]
    rank = len(lbs)
    shared = block.args[rank:]
    results = [np.array(o, copy=True) for o in outs]
    slot = {a: k for k, a in enumerate(shared)}
    stack = interp.cache.setdefault(_PENDING, [])
    for point in itertools.product(*(range(lb, ub, st) for lb, ub, st in
                                     zip(lbs, ubs, steps))):
        stack.append([])
        try:
            interp.run_region(body, [np.int64(i) for i in point] + list(outs))
            pending = stack[-1]
        finally:
            stack.pop()
        for dest, source, offsets, sizes, strides, insert_op in pending:
            k = slot.get(dest)
            if k is None:
                fail(insert_op, "destination is not a shared output of the enclosing "
                                "scf.forall")
            insert_slice_into(insert_op, results[k], source, offsets, sizes, strides)
    return results


@impl("scf.forall.in_parallel")
def _in_parallel(interp, op, args):
    stack = interp.cache.get(_PENDING)
    if not stack:
        fail(op, "is not inside a running scf.forall")
    for inner in op.regions[0].ops:
        if inner.name != "tensor.parallel_insert_slice":
            fail(inner, "is not supported inside scf.forall.in_parallel")
        vals = [interp.env[v] for v in inner.operands]
        offsets, sizes, strides = slice_params(interp, inner)
        stack[-1].append((inner._operands[1].value, vals[0], offsets, sizes, strides, inner))
    return []
