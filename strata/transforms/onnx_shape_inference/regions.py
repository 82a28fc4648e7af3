"""Types of the block arguments of Loop and Scan bodies, from the enclosing op.

[Note: body arguments]
A body's block arguments are the values of one iteration, so their types follow from
the op's operands:

    Loop(M, cond, v...)      body(iter_num: tensor<i64>, cond: tensor<i1>, v...)
    Scan(s..., x...)         body(s..., x... without the scan axis)       (opset 9+)

A loop-carried value (Loop's v, Scan's s) may change shape across iterations, so its
operand type is only an assumption about every iteration: the body is inferred under
it, and if what the body yields for that value is not an instance of the assumed type,
the assumption becomes the join of both (differing dims `?`, differing ranks unranked),
the body's types are put back as they were and the body is inferred again. Types only
get coarser, so this ends; after a few rounds the arguments keep the types they had
before the pass. Warnings are reported for the last round only. A type the body
argument already has (declared by the model) is refined, never replaced.

Dim symbols (see [Note: dim symbols in the IR] in __init__.py) of a body are those of
one iteration: the arguments' `?` dims get fresh ones each round, values from outside
the body keep theirs, and the op's results get their own (not the body's).
"""
from __future__ import annotations

from ...ir import attributes as A
from .core import join, make_type, norm_axis, refine, shape_of

__all__ = ["body_argument_types", "infer_loop_body", "MAX_ROUNDS"]

# Rounds of inference of one body before giving up on refined loop-carried types.
MAX_ROUNDS = 4

_I64 = A.RankedTensorType((), A.i64)
_I1 = A.RankedTensorType((), A.i1)


def _operand_types(op):
    return [o.value.type for o in op._operands]


def _without_axis(t, axis):
    """`t` without dim `axis` (a scan input's per-iteration slice); None if unknown."""
    if type(t) is A.RankedTensorType:
        s = shape_of(t)
        if not s:
            return None
        a = norm_axis(axis, len(s))
        return make_type(s[:a] + s[a + 1:], t.element_type)
    if type(t) is A.UnrankedTensorType:
        return t
    return None


def body_argument_types(op, version, attr):
    """(types the body's block arguments take, indices of the loop-carried ones), or
    None when `op` is not a Loop/Scan this knows. `attr(name)` reads an attribute
    with its schema default. A None entry: nothing known."""
    types = _operand_types(op)
    if op.name == "onnx.Loop":
        return [_I64, _I1] + types[2:], range(2, 2 + len(types) - 2)
    if op.name == "onnx.Scan" and version >= 9:
        m = attr("num_scan_inputs") or 0
        n = len(types) - m
        if n < 0:
            return None
        axes = attr("scan_input_axes") or [0] * m
        if len(axes) != m:
            return None
        out = list(types[:n])
        for t, ax in zip(types[n:], axes):
            try:
                out.append(_without_axis(t, ax))
            except Exception:  # an axis out of range: the op's rule reports it
                out.append(None)
        return out, range(n)
    return None


def _yielded(block, op_name):
    """The values the body yields (Loop: the condition first)."""
    y = block.last
    if y is None or y.name != "onnx.Yield":
        return None
    return [o.value for o in y._operands]


def infer_loop_body(inference, op, version, attr, visit_body):
    """Refine the body arguments of Loop/Scan `op` and infer its body (see the note);
    `visit_body()` infers the body once. Returns False when `op` is not handled (the
    caller then infers the body as is)."""
    if not op.regions or not op.regions[0].blocks:
        return False
    got = body_argument_types(op, version, attr)
    if got is None:
        return False
    wanted, carried = got
    block = op.regions[0].blocks[0]
    args = block.args
    if len(args) != len(wanted):
        return False
    declared = [a.type for a in args]
    assumed = [refine(d, w)[0] if w is not None else d for d, w in zip(declared, wanted)]
    snapshot = None
    held = inference.held
    try:
        for round_ in range(MAX_ROUNDS + 1):
            last = round_ == MAX_ROUNDS
            if last:
                assumed = declared
            for a, t in zip(args, assumed):
                a.type = t
                inference.syms.pop(a, None)
            if snapshot is None:
                snapshot = _snapshot(op)
            else:
                _restore(inference, snapshot)
            inference.held = []
            visit_body()
            nxt = _next_assumption(block, op.name, carried, declared, assumed)
            if nxt is None or last:
                break
            assumed = nxt
    finally:
        warnings, inference.held = inference.held, held
        for w in warnings or ():
            inference.warn(*w)
    return True


def _next_assumption(block, op_name, carried, declared, assumed):
    """The coarser argument types when the body yields loop-carried values that are not
    instances of the assumed ones; None when the assumption holds (or cannot move)."""
    ys = _yielded(block, op_name)
    if ys is None:
        return None
    out = list(assumed)
    changed = False
    for i in carried:
        j = i - 1 if op_name == "onnx.Loop" else i  # Loop: (iter, cond) in, cond out
        if not 0 <= j < len(ys) or ys[j] is None:
            continue
        a, y = assumed[i], ys[j].type
        u = join(a, y)
        if u is a or u is None:
            continue
        new = refine(declared[i], u)[0]
        if new is not a:
            out[i] = new
            changed = True
    return out if changed else None


def _snapshot(op):
    """The result and block-argument types under `op`'s regions, to be put back."""
    types = []
    for r in op.regions:
        for inner in r.walk():
            for res in inner.results:
                types.append((res, res.type))
            for ir in inner.regions:
                for b in ir.blocks:
                    for a in b.args:
                        types.append((a, a.type))
    return types


def _restore(inference, snapshot):
    partials, syms = inference.partials, inference.syms
    for v, t in snapshot:
        v.type = t
        partials.pop(v, None)
        syms.pop(v, None)
