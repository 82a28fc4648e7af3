"""ONNX control flow to scf: If, Loop, Scan and the onnx.Yield that ends their bodies.

    If     scf.if; the branch regions are moved in. A result whose branches differ in
           static dims gets their common type (tensor.cast in the yields); a sequence or
           optional result stands for its static elements (sequences.py).
    Loop   scf.for for a trip count alone; scf.while when there is a condition (and a
           trip count, maybe). Scan outputs are stacked in a buffer along a new first
           axis: preallocated for a known trip count, else grown by doubling, and cut
           to the iterations run.
    Scan   (opset 9+) scf.for over the scan axis: extract_slice reads each iteration's
           slice of the scan inputs (either direction), insert_slice writes the scan
           outputs (any axis, either direction).
    Yield  scf.yield of its operands cast to the enclosing op's result types.

[Note: loop bodies]
A Loop or Scan body takes the per-iteration values as block arguments. The lowering
creates an scf.execute_region inside the scf loop and inlines the body block into it,
the arguments replaced by the iteration's values; the body's onnx.Yield becomes that
region's scf.yield, and the loop continues from the execute_region's results (next
loop-carried values, scan output slices, the condition). canonicalize inlines the
execute_region. Loop-carried values take the common type of their initial value and of
what the body takes and yields, so that static dims that change across iterations
become dynamic. Bodies may use values of the enclosing scope, as in scf.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.builder import InsertionPoint
from . import NotLowerable, lowering
from ._shape_util import Ix, index_of, mixed_split, norm_axis
from .common import DYN, constant_array, empty, scalars, sizes_of, tensor_type
from .sequences import (TENSOR_TYPES, cast_to, is_opt, is_seq, join_structures, join_types,
                        leaf_types, leaves, rebuild, structure)

# a constant trip count up to this many iterations gets its scan buffers preallocated
# even when a condition may end the loop earlier
_PREALLOCATE = 1 << 16


def _conv(cx, t):
    return cx.tc.convert_type(t)


def _scalar(cx, v, what="a condition"):
    """The element of a one-element tensor (a condition, a trip count)."""
    t = v.type
    if type(t) is not A.RankedTensorType or any(d != 1 for d in t.shape):
        raise NotLowerable(f"{what} of type {t} (expected one element)")
    s = scalars(cx)
    return s.op1("tensor.extract", [v] + [s.index(0)] * t.rank, t.element_type)


def _scalar_tensor(cx, v):
    """`tensor.from_elements %v : tensor<T>`."""
    return scalars(cx).op1("tensor.from_elements", [v], tensor_type((), v.type))


# ------------------------------------------------------------------ Yield


@lowering("Yield")
def _yield(cx):
    from ...dialects.scf import YieldOp
    parent = cx.op.parent_op
    if parent is None or parent.name.startswith("onnx."):
        raise NotLowerable("the op this body belongs to was not lowered")
    vals = [x for v in cx.operands for x in leaves(v)]
    want = parent.result_types
    if len(vals) != len(want):
        raise NotLowerable(f"yields {len(vals)} values to '{parent.name}' with "
                           f"{len(want)} results")
    cx.create(YieldOp, values=[cast_to(cx, v, t) for v, t in zip(vals, want)])
    return []


# ------------------------------------------------------------------ If


def _branch_type(rt, joined):
    """The scf.if result type of a tensor result: its own type when ranked, else the
    branches' common type."""
    if type(rt) is A.RankedTensorType:
        return rt
    return joined if joined is not None else rt


@lowering("If")
def _if(cx):
    from ...dialects.scf import IfOp
    cond = _scalar(cx, cx.operands[0])
    then_y, else_y = (r.blocks[0].last for r in cx.op.regions)
    structs, types = [], []
    for i in range(len(cx.op.results)):
        st = join_structures(structure(then_y.operands[i]), structure(else_y.operands[i]))
        structs.append(st)
        if isinstance(st, tuple):
            types.extend(_conv(cx, t) for t in leaf_types(st))
        else:
            types.append(_branch_type(cx.result_type(i), _conv(cx, st)))
    op = cx.create(IfOp, condition=cond, result_types=types)
    for src, dst in zip(cx.op.regions, op.regions):
        cx.b.inline_region_before(src, dst, 0)
    it = iter(op.results)
    out = []
    for i, st in enumerate(structs):
        v = rebuild(cx, it, st, cx.result_type(i))
        out.append(cast_to(cx, v, cx.result_type(i)) if not isinstance(st, tuple) else v)
    return out


# ------------------------------------------------------------------ loop helpers


def _carried_type(cx, init, arg, yielded):
    """The type a loop-carried tensor has across iterations (see the note)."""
    types = [init.type, _conv(cx, arg.type), _conv(cx, yielded.type)]
    for t in (arg.type, yielded.type):
        if is_seq(t) or is_opt(t) or not isinstance(t, TENSOR_TYPES):
            raise NotLowerable(f"a loop-carried value of type {t} (only tensors are "
                               "lowered)")
    j = types[0]
    for t in types[1:]:
        j = join_types(j, t)
        if j is None:
            raise NotLowerable(f"loop-carried types {', '.join(map(str, types))} differ")
    return j


def _scan_element_type(cx, yielded, rt, axis):
    """The static type of one iteration's slice of a scan output (yielded as `yielded`,
    stacked into result type `rt` along `axis`)."""
    t = _conv(cx, yielded.type)
    if not isinstance(t, TENSOR_TYPES):
        raise NotLowerable(f"a scan output of type {yielded.type}")
    from_result = None
    if type(rt) is A.RankedTensorType and rt.rank >= 1:
        from_result = list(rt.shape[:axis]) + list(rt.shape[axis + 1:])
    if type(t) is A.RankedTensorType:
        shape = list(t.shape)
        if from_result is not None and len(from_result) == len(shape):
            shape = [d if d != DYN else r for d, r in zip(shape, from_result)]
    elif from_result is not None:
        shape = from_result
    else:
        raise NotLowerable("a scan output of unknown rank")
    if DYN in shape:
        raise NotLowerable(f"a scan output of shape {t} whose dynamic dims are unknown "
                           "before the loop")
    return tensor_type(shape, t.element_type)


def _run_body(cx, body, args):
    """Inline onnx body block `body` into a new scf.execute_region at the insertion
    point, its arguments replaced by `args` (cast to the arguments' converted types);
    returns the region's results (the body's yielded values, converted types)."""
    from ...dialects.scf import ExecuteRegionOp
    if len(args) != len(body.args):
        raise NotLowerable(f"the body takes {len(body.args)} values, given {len(args)}")
    args = [cast_to(cx, v, _conv(cx, a.type)) for v, a in zip(args, body.args)]
    types = [_conv(cx, v.type) for v in body.last.operands]
    for t in types:
        if not isinstance(t, TENSOR_TYPES):
            raise NotLowerable(f"a body yielding a value of type {t}")
    ip = cx.b.ip
    ex = cx.create(ExecuteRegionOp, result_types=types)
    block = cx.b.create_block(ex.regions[0])
    cx.b.inline_block_at_end(body, block, args)
    cx.b.ip = ip
    return list(ex.results)


def _insert_rank_reduced(cx, elem, buf, axis, pos):
    """`buf` with `elem` (one rank less) written at index `pos` of dim `axis`."""
    from ...dialects.tensor import InsertSliceOp
    esz = sizes_of(cx, elem)
    offs = [0] * buf.type.rank
    offs[axis] = pos
    szs = esz[:axis] + [1] + esz[axis:]
    so, do = mixed_split(offs)
    ss, ds = mixed_split(szs)
    return cx.create(InsertSliceOp, source=elem, dest=buf, offsets=do, sizes=ds, strides=[],
                     static_offsets=A.DenseArrayAttr(A.i64, so),
                     static_sizes=A.DenseArrayAttr(A.i64, ss),
                     static_strides=A.DenseArrayAttr(A.i64, [1] * buf.type.rank),
                     result=buf.type).results[0]


def _extract_rank_reduced(cx, x, axis, pos, result_type):
    """The slice of `x` at index `pos` of dim `axis`, without that dim."""
    from ._shape_util import extract_slice
    offs = [0] * x.type.rank
    offs[axis] = pos
    szs = sizes_of(cx, x)
    szs[axis] = 1
    return extract_slice(cx, x, offs, szs, result_type=result_type)


def _finish_scan(cx, buf, i, count=None):
    """Scan output `i` from its buffer (its first `count` rows when given)."""
    from ._shape_util import extract_slice
    if count is not None:
        szs = sizes_of(cx, buf)
        szs[0] = count
        shape = [DYN] + list(buf.type.shape[1:])
        buf = extract_slice(cx, buf, [0] * buf.type.rank, szs,
                            result_type=tensor_type(shape, buf.type.element_type))
    return cast_to(cx, buf, cx.result_type(i))


# ------------------------------------------------------------------ Loop


@lowering("Loop")
def _loop(cx):
    op = cx.op
    body = op.regions[0].blocks[0]
    ys = body.last.operands
    n = len(op.operands) - 2
    k = len(ys) - 1 - n
    if n < 0 or k < 0 or len(body.args) != n + 2:
        raise NotLowerable("a Loop whose body does not match its inputs")
    carried = [_carried_type(cx, cx.operands[2 + i], body.args[2 + i], ys[1 + i])
               for i in range(n)]
    elems = [_scan_element_type(cx, ys[1 + n + j], cx.result_type(n + j), 0)
             for j in range(k)]
    inits = [cast_to(cx, cx.operands[2 + i], t) for i, t in enumerate(carried)]
    s = scalars(cx)
    m = m_const = None
    if cx.has_operand(0):
        a = constant_array(op.operands[0])
        m_const = None if a is None else int(a.reshape(-1)[0])
        m = s.const(m_const, A.i64) if m_const is not None else \
            _scalar(cx, cx.operands[0], "a trip count")
    if not cx.has_operand(1) and m is not None:
        return _for_loop(cx, body, m, m_const, inits, carried, elems)
    return _while_loop(cx, body, m, m_const, inits, carried, elems)


def _for_loop(cx, body, m, m_const, inits, carried, elems):
    """Loop with a trip count and no condition: scf.for (the body's condition is
    ignored, as the spec says)."""
    from ...dialects.scf import ForOp, YieldOp
    s = scalars(cx)
    ix = Ix(s)
    n = len(inits)
    ub = max(m_const, 0) if m_const is not None else ix.max(index_of(s, m), 0)
    bufs = [empty(cx, [ub] + list(e.shape), e.element_type) for e in elems]
    loop = ForOp.new(s.index(0), ix.v(ub), s.index(1), inits + bufs, loc=cx.loc)
    cx.b.insert(loop)
    after = cx.b.ip
    cx.b.ip = InsertionPoint.at_end(loop.body)
    iv, *args = loop.body.args
    it = _scalar_tensor(cx, s.cast(iv, A.i64))
    true = _scalar_tensor(cx, s.const(True, A.i1))
    r = _run_body(cx, body, [it, true] + args[:n])
    nxt = [cast_to(cx, r[1 + i], carried[i]) for i in range(n)]
    nxt += [_insert_rank_reduced(cx, cast_to(cx, r[1 + n + j], e), args[n + j], 0, iv)
            for j, e in enumerate(elems)]
    cx.create(YieldOp, values=nxt)
    cx.b.ip = after
    res = list(loop.results)
    out = [cast_to(cx, res[i], cx.result_type(i)) for i in range(n)]
    out += [_finish_scan(cx, res[n + j], n + j) for j in range(len(elems))]
    return out


def _while_loop(cx, body, m, m_const, inits, carried, elems):
    """Loop with a condition (and maybe a trip count), or with neither (runs until the
    program stops it, as the spec says): scf.while carrying the iteration number, the
    condition, the loop-carried values and the scan buffers."""
    from ...dialects.scf import ConditionOp, WhileOp, YieldOp
    s = scalars(cx)
    n = len(inits)
    fixed = m_const is not None and 0 <= m_const <= _PREALLOCATE
    bufs = []
    for e in elems:
        size = m_const if fixed else s.index(0)
        bufs.append(empty(cx, [size] + list(e.shape), e.element_type))
    c0 = _scalar(cx, cx.operands[1]) if cx.has_operand(1) else s.const(True, A.i1)
    state = [s.const(0, A.i64), c0] + inits + bufs
    types = [v.type for v in state]
    loop = cx.create(WhileOp, inits=state, result_types=types)
    after_loop = cx.b.ip

    cx.b.create_block(loop.regions[0], types)
    i, c, *rest = loop.regions[0].blocks[0].args
    go = c
    if m is not None:
        go = s.and_(c, s.cmp("lt", i, m))
    cx.create(ConditionOp, condition=go, args=[i, c] + rest)

    cx.b.create_block(loop.regions[1], types)
    i, c, *rest = loop.regions[1].blocks[0].args
    r = _run_body(cx, body, [_scalar_tensor(cx, i), _scalar_tensor(cx, c)] + rest[:n])
    nxt = [s.add(i, s.const(1, A.i64)), _scalar(cx, r[0])]
    nxt += [cast_to(cx, r[1 + j], carried[j]) for j in range(n)]
    pos = index_of(s, i)
    for j, e in enumerate(elems):
        buf = rest[n + j] if fixed else _grown(cx, rest[n + j], pos)
        nxt.append(_insert_rank_reduced(cx, cast_to(cx, r[1 + n + j], e), buf, 0, pos))
    cx.create(YieldOp, values=nxt)
    cx.b.ip = after_loop

    res = list(loop.results)
    out = [cast_to(cx, res[2 + j], cx.result_type(j)) for j in range(n)]
    count = index_of(s, res[0])
    out += [_finish_scan(cx, res[2 + n + j], n + j, count) for j in range(len(elems))]
    return out


def _grown(cx, buf, pos):
    """`buf` (tensor<?x...>) with room for row `pos`: twice as many rows when full."""
    from ...dialects.scf import IfOp, YieldOp
    from ._shape_util import insert_slice
    s = scalars(cx)
    cap = s.op1("tensor.dim", [buf, s.index(0)], A.index)
    full = s.cmp("ge", pos, cap)
    grow = IfOp.new(full, [buf.type], with_else=True, loc=cx.loc)
    cx.b.insert(grow)
    ip = cx.b.ip
    cx.b.ip = InsertionPoint.at_end(grow.regions[0].blocks[0])
    szs = sizes_of(cx, buf)
    szs[0] = s.max(s.mul(cap, s.index(2)), s.index(1))
    bigger = cast_to(cx, empty(cx, szs, buf.type.element_type), buf.type)
    cx.create(YieldOp, values=[insert_slice(cx, buf, bigger, [0] * buf.type.rank)])
    cx.b.ip = InsertionPoint.at_end(grow.regions[1].blocks[0])
    cx.create(YieldOp, values=[buf])
    cx.b.ip = ip
    return grow.results[0]


# ------------------------------------------------------------------ Scan


def _ints_attr(cx, name, count, default=0):
    v = cx.attr(name)
    v = list(v) if v is not None else []
    if len(v) > count:
        raise NotLowerable(f"{name} has {len(v)} entries for {count} values")
    return v + [default] * (count - len(v))


@lowering("Scan")
def _scan(cx):
    from ...dialects.onnx import opset_version
    if opset_version(cx.op) < 9:
        return _scan8(cx)
    op = cx.op
    body = op.regions[0].blocks[0]
    ys = body.last.operands
    m = cx.attr("num_scan_inputs")
    n = len(op.operands) - (m or 0)
    k = len(ys) - n
    if m is None or m < 1 or n < 0 or k < 0 or len(body.args) != n + m:
        raise NotLowerable("a Scan whose body does not match its inputs")
    xs = [_ranked_input(x) for x in cx.operands[n:]]
    in_axes = [norm_axis(a, x.type.rank, "scan_input_axes")
               for a, x in zip(_ints_attr(cx, "scan_input_axes", m), xs)]
    out_axes = []
    for j, a in enumerate(_ints_attr(cx, "scan_output_axes", k)):
        rt = cx.result_type(n + j)
        rank = rt.rank if type(rt) is A.RankedTensorType else _yield_rank(cx, ys[n + j]) + 1
        out_axes.append(norm_axis(a, rank, "scan_output_axes"))
    carried = [_carried_type(cx, cx.operands[i], body.args[i], ys[i]) for i in range(n)]
    elems = [_scan_element_type(cx, ys[n + j], cx.result_type(n + j), out_axes[j])
             for j in range(k)]
    inits = [cast_to(cx, cx.operands[i], t) for i, t in enumerate(carried)]
    res = _scan_loop(cx, body, inits, xs, in_axes, _ints_attr(cx, "scan_input_directions", m),
                     elems, out_axes, _ints_attr(cx, "scan_output_directions", k))
    return [cast_to(cx, v, cx.result_type(i)) for i, v in enumerate(res)]


def _ranked_input(x):
    if type(x.type) is not A.RankedTensorType:
        raise NotLowerable(f"a scan input of type {x.type}")
    return x


def _yield_rank(cx, v):
    t = _conv(cx, v.type)
    if type(t) is not A.RankedTensorType:
        raise NotLowerable("a scan output of unknown rank")
    return t.rank


def _scan_loop(cx, body, inits, xs, in_axes, in_rev, elems, out_axes, out_rev):
    """scf.for over the scan axis at the insertion point: the final states, then the
    stacked scan outputs (`inits` already of the carried types)."""
    from ...dialects.scf import ForOp, YieldOp
    s = scalars(cx)
    ix = Ix(s)
    n = len(inits)
    trips = sizes_of(cx, xs[0])[in_axes[0]]
    bufs = []
    for e, a in zip(elems, out_axes):
        shape = list(e.shape)
        bufs.append(empty(cx, shape[:a] + [trips] + shape[a:], e.element_type))
    loop = ForOp.new(s.index(0), ix.v(trips), s.index(1), inits + bufs, loc=cx.loc)
    cx.b.insert(loop)
    after = cx.b.ip
    cx.b.ip = InsertionPoint.at_end(loop.body)
    t, *args = loop.body.args
    last = ix.sub(trips, 1)

    def at(reverse):
        return ix.sub(last, t) if reverse else t

    slices = []
    for x, a, rev in zip(xs, in_axes, in_rev):
        shape = list(x.type.shape)
        del shape[a]
        slices.append(_extract_rank_reduced(cx, x, a, at(rev),
                                            tensor_type(shape, x.type.element_type)))
    r = _run_body(cx, body, args[:n] + slices)
    nxt = [cast_to(cx, r[i], inits[i].type) for i in range(n)]
    for j, e in enumerate(elems):
        nxt.append(_insert_rank_reduced(cx, cast_to(cx, r[n + j], e), args[n + j],
                                        out_axes[j], at(out_rev[j])))
    cx.create(YieldOp, values=nxt)
    cx.b.ip = after
    return list(loop.results)


def _drop_first(t):
    if type(t) is A.RankedTensorType and t.rank >= 1:
        return tensor_type(t.shape[1:], t.element_type)
    return t


def _scan8(cx):
    """Scan before opset 9: every state and scan input has a batch axis first (the scan
    axis of the inputs is axis 1); each batch entry is scanned on its own, an outer
    scf.for over the batch. Per-entry sequence lengths are not lowered."""
    from ...dialects.scf import ForOp, YieldOp
    op = cx.op
    if cx.has_operand(0):
        raise NotLowerable("Scan (opset 8) with sequence_lens")
    body = op.regions[0].blocks[0]
    ys = body.last.operands
    m = cx.attr("num_scan_inputs")
    ops = cx.operands[1:]
    n = len(ops) - (m or 0)
    k = len(ys) - n
    if m is None or m < 1 or n < 0 or k < 0 or len(body.args) != n + m:
        raise NotLowerable("a Scan whose body does not match its inputs")
    states = [_ranked_input(v) for v in ops[:n]]
    xs = [_ranked_input(x) for x in ops[n:]]
    for v in states + xs:
        if v.type.rank < (2 if v in xs else 1):
            raise NotLowerable(f"a Scan (opset 8) input of type {v.type} has no batch axis")
    carried = [_carried_type(cx, _Typed(_drop_first(v.type)), body.args[i], ys[i])
               for i, v in enumerate(states)]
    elems = [_scan_element_type(cx, ys[n + j], _drop_first(cx.result_type(n + j)), 0)
             for j in range(k)]
    s = scalars(cx)
    batch = sizes_of(cx, xs[0])[0]
    bufs = [empty(cx, [batch] + list(c.shape), c.element_type) if
            type(c) is A.RankedTensorType and DYN not in c.shape else None for c in carried]
    if None in bufs:
        raise NotLowerable("a Scan (opset 8) state of a shape not known before the loop")
    trips = sizes_of(cx, xs[0])[1]
    bufs += [empty(cx, [batch, trips] + list(e.shape), e.element_type) for e in elems]
    outer = ForOp.new(s.index(0), Ix(s).v(batch), s.index(1), bufs, loc=cx.loc)
    cx.b.insert(outer)
    after = cx.b.ip
    cx.b.ip = InsertionPoint.at_end(outer.body)
    b, *acc = outer.body.args
    inits = [cast_to(cx, _extract_rank_reduced(cx, v, 0, b, _drop_first(v.type)), c)
             for v, c in zip(states, carried)]
    parts = [_extract_rank_reduced(cx, x, 0, b, _drop_first(x.type)) for x in xs]
    res = _scan_loop(cx, body, inits, parts, [0] * m, _ints_attr(cx, "directions", m),
                     elems, [0] * k, [0] * k)
    nxt = [_insert_rank_reduced(cx, cast_to(cx, v, _drop_first(a.type)), a, 0, b)
           for v, a in zip(res, acc)]
    cx.create(YieldOp, values=nxt)
    cx.b.ip = after
    return [cast_to(cx, v, cx.result_type(i)) for i, v in enumerate(outer.results)]


class _Typed:
    """A stand-in value of type `type` (what `_carried_type` reads of an initial value)."""

    __slots__ = ("type",)

    def __init__(self, t):
        self.type = t
