"""ONNX sequences and optionals, resolved at compile time.

    SequenceConstruct / SequenceEmpty / SequenceInsert / SequenceErase /
    SplitToSequence / Identity            a static list of tensors (see the note)
    SequenceAt, SequenceLength            the element / the count (a run-time position
                                          over same-typed elements: scf.index_switch)
    ConcatFromSequence                    tensor.concat (expand_shape first for new_axis)
    SequenceMap                           its body once per element (scf.execute_region)
    Optional / OptionalHasElement /
    OptionalGetElement                    presence known at compile time

[Note: static sequences and optionals]
linalg, tensor and scf have no list type, so a sequence is lowered only where its
length and the position of each element are known at compile time; the elements are
then ordinary tensors. The lowered `!onnx.Seq<T>` value is an
`unrealized_conversion_cast` packing its N elements (`(tensor<..>, ...) to
!onnx.Seq<T>`): consumers lowered later read the elements back from that cast's
operands, and where a sequence leaves the function (or an scf region) the cast stays
and means "the list of these values" (the interpreter runs it as such). An optional is
the same with zero operands (empty) or one (the value). What comes from elsewhere - a
function argument, a loop-carried sequence whose length changes per iteration, a
run-time insert position - has no static structure: NotLowerable says so.

`structure(value)` answers the same question on the onnx IR before it is lowered: an
scf.if has to know how many values each of its sequence results stands for before its
regions are lowered (control_flow.py).
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.core import Block, OpResult
from . import NotLowerable, lowering
from ._shape_util import Ix, expand, extract_slice, norm_axis, operand_ints, sizes
from .common import DYN, constant_array, ranked, scalars, tensor_type

__all__ = ["is_seq", "is_opt", "pack", "packed", "leaves", "structure", "leaf_types",
           "join_types", "join_structures", "rebuild", "cast_to", "TENSOR_TYPES"]

_CAST = "builtin.unrealized_conversion_cast"
TENSOR_TYPES = (A.RankedTensorType, A.UnrankedTensorType)


def _onnx_kind(t):
    """"Seq", "Opt" or None for type `t`."""
    return t.mnemonic if getattr(t, "dialect", None) == "onnx" and \
        getattr(t, "mnemonic", None) in ("Seq", "Opt") else None


def is_seq(t) -> bool:
    return _onnx_kind(t) == "Seq"


def is_opt(t) -> bool:
    return _onnx_kind(t) == "Opt"


# ------------------------------------------------------------------ the lowered form


def pack(cx, values, t):
    """The lowered `!onnx.Seq`/`!onnx.Opt` value of type `t` holding `values`."""
    from ...dialects.builtin import UnrealizedConversionCastOp
    return cx.create(UnrealizedConversionCastOp, inputs=list(values),
                     result_types=[t]).results[0]


def packed(v):
    """The values a lowered sequence/optional `v` holds (see the note), or None when
    they are not known at compile time."""
    if not _onnx_kind(v.type) or not isinstance(v, OpResult):
        return None
    d = v.owner
    if d.name != _CAST or len(d.results) != 1:
        return None
    return list(d.operands)


def _elements(cx, i, what="sequence"):
    """The elements of sequence operand `i` (NotLowerable when not static)."""
    vals = packed(cx.operands[i])
    if vals is None:
        raise NotLowerable(f"the {what} (operand #{i}) has no length known at compile "
                           "time (a function argument, a loop-carried or run-time built "
                           "sequence)")
    return vals


def _opt_content(cx, i):
    """(present, value) of optional operand `i`: a non-optional operand is present."""
    if not cx.has_operand(i):
        return False, None
    v = cx.operands[i]
    if not is_opt(v.type):
        return True, v
    vals = packed(v)
    if vals is None:
        raise NotLowerable(f"whether the optional (operand #{i}) holds a value is not "
                           "known at compile time")
    return bool(vals), (vals[0] if vals else None)


def leaves(v) -> list:
    """The tensors a lowered value stands for: itself, a sequence's elements, an
    optional's content (recursively). NotLowerable when a structure is not static."""
    if not _onnx_kind(v.type):
        return [v]
    vals = packed(v)
    if vals is None:
        raise NotLowerable(f"a value of type {v.type} without a structure known at "
                           "compile time")
    out = []
    for x in vals:
        out.extend(leaves(x))
    return out


# ------------------------------------------------------------------ types


def join_types(a, b):
    """The most specific type both `a` and `b` (tensor types) can be cast to, or None."""
    if a is b:
        return a
    ea, eb = getattr(a, "element_type", None), getattr(b, "element_type", None)
    if not isinstance(a, TENSOR_TYPES) or not isinstance(b, TENSOR_TYPES) or ea is not eb:
        return None
    if type(a) is A.RankedTensorType and type(b) is A.RankedTensorType and \
            a.rank == b.rank and a.encoding == b.encoding:
        return A.RankedTensorType(tuple(x if x == y else DYN for x, y in
                                        zip(a.shape, b.shape)), ea, a.encoding)
    return A.UnrankedTensorType(ea)


def cast_to(cx, v, t):
    """`v` as a value of type `t` (a tensor.cast between compatible tensor types)."""
    if v.type is t:
        return v
    from ...dialects.tensor import CastOp
    if isinstance(v.type, TENSOR_TYPES) and isinstance(t, TENSOR_TYPES) and \
            v.type.element_type is t.element_type and _compatible(v.type, t):
        return cx.create(CastOp, source=v, dest=t).results[0]
    raise NotLowerable(f"a value of type {v.type} cannot be passed as {t}")


def _compatible(a, b) -> bool:
    if type(a) is not A.RankedTensorType or type(b) is not A.RankedTensorType:
        return True
    return a.rank == b.rank and all(x == y or DYN in (x, y) for x, y in zip(a.shape, b.shape))


# ------------------------------------------------------------------ static structure
#
# A structure is a type (a tensor or none), ("seq", (element types...)) or ("opt",
# structure or None for empty). Types are the onnx-level (unconverted) ones.


def structure(v):
    """The static structure of onnx value `v` (see above); NotLowerable if unknown."""
    kind = _onnx_kind(v.type)
    if kind is None:
        return v.type
    d = v.owner if isinstance(v, OpResult) else None
    fn = _STRUCTURE.get(d.name) if d is not None else None
    if fn is None:
        where = "a block argument" if d is None else f"'{d.name}'"
        raise NotLowerable(f"the {kind} value of type {v.type} comes from {where}: its "
                           "structure is not known at compile time")
    return fn(d, v)


def leaf_types(st) -> list:
    """The tensor types a value of structure `st` is lowered to, in order."""
    if not isinstance(st, tuple):
        return [st]
    if st[0] == "seq":
        return list(st[1])
    return [] if st[1] is None else leaf_types(st[1])


def join_structures(a, b):
    """The structure both `a` and `b` can be passed as (If branches)."""
    if not isinstance(a, tuple) and not isinstance(b, tuple):
        j = a if a is b else join_types(a, b)
        if j is None:
            raise NotLowerable(f"branches give {a} and {b}")
        return j
    if not (isinstance(a, tuple) and isinstance(b, tuple)) or a[0] != b[0]:
        raise NotLowerable(f"branches give {a} and {b}")
    if a[0] == "seq":
        if len(a[1]) != len(b[1]):
            raise NotLowerable(f"branches give sequences of {len(a[1])} and {len(b[1])} "
                               "elements")
        return ("seq", tuple(join_structures(x, y) for x, y in zip(a[1], b[1])))
    if (a[1] is None) != (b[1] is None):
        raise NotLowerable("an optional holds a value in one branch only")
    return a if a[1] is None else ("opt", join_structures(a[1], b[1]))


def rebuild(cx, values, st, t):
    """The lowered value of type `t` and structure `st` from `values` (an iterator over
    its leaves, consumed)."""
    if not isinstance(st, tuple):
        return next(values)
    if st[0] == "seq":
        return pack(cx, [next(values) for _ in st[1]], t)
    if st[1] is None:
        return pack(cx, [], t)
    return pack(cx, [rebuild(cx, values, st[1], t.element_type)], t)


def _const_int(v, what):
    a = constant_array(v)
    if a is None:
        raise NotLowerable(f"the {what} must be a constant")
    return int(np.asarray(a).reshape(-1)[0])


def _position(n, p, insert=False):
    """ONNX position `p` in a sequence of `n` ([-n, n] to insert, [-n, n-1] else)."""
    hi = n if insert else n - 1
    if not -n <= p <= hi:
        raise NotLowerable(f"position {p} is out of range for a sequence of {n}")
    return p + n if p < 0 else p


def _st_construct(d, v):
    return ("seq", tuple(o.type for o in d.operands))


def _st_empty(d, v):
    return ("seq", ())


def _st_insert(d, v):
    els = list(structure(d.operands[0])[1])
    p = len(els)
    if len(d.operands) > 2 and not isinstance(d.operands[2].type, A.NoneType):
        p = _position(len(els), _const_int(d.operands[2], "insert position"), True)
    els.insert(p, d.operands[1].type)
    return ("seq", tuple(els))


def _st_erase(d, v):
    els = list(structure(d.operands[0])[1])
    p = -1
    if len(d.operands) > 1 and not isinstance(d.operands[1].type, A.NoneType):
        p = _const_int(d.operands[1], "erase position")
    del els[_position(len(els), p)]
    return ("seq", tuple(els))


def _st_split(d, v):
    from ...dialects.onnx import attr
    x = d.operands[0].type
    if type(x) is not A.RankedTensorType:
        raise NotLowerable("SplitToSequence of an unranked tensor")
    split = None
    if len(d.operands) > 1 and not isinstance(d.operands[1].type, A.NoneType):
        split = constant_array(d.operands[1])
        if split is None:
            t = d.operands[1].type
            if type(t) is not A.RankedTensorType or t.rank != 1 or t.shape[0] == DYN:
                raise NotLowerable("SplitToSequence with a run-time split of unknown length")
            split = [DYN] * t.shape[0]
    axis = norm_axis(attr(d, "axis"), x.rank)
    parts, keep = _split_sizes(x.shape[axis], split, attr(d, "keepdims"))
    out = []
    for p in parts:
        shape = list(x.shape)
        shape[axis] = p
        if not keep:
            del shape[axis]
        out.append(tensor_type(shape, x.element_type))
    return ("seq", tuple(out))


def _st_identity(d, v):
    return structure(d.operands[0])


def _st_optional(d, v):
    if not d.operands or isinstance(d.operands[0].type, A.NoneType):
        return ("opt", None)
    return ("opt", structure(d.operands[0]))


def _st_get_element(d, v):
    st = structure(d.operands[0])
    if not is_opt(d.operands[0].type):
        return st
    if st[1] is None:
        raise NotLowerable("OptionalGetElement of an empty optional")
    return st[1]


def _st_if(d, v):
    i = v.index
    a = structure(d.regions[0].blocks[0].last.operands[i])
    b = structure(d.regions[1].blocks[0].last.operands[i])
    return join_structures(a, b)


def _st_map(d, v):
    n = len(structure(d.operands[0])[1])
    return ("seq", (d.regions[0].blocks[0].last.operands[v.index].type,) * n)


_STRUCTURE = {
    "onnx.SequenceConstruct": _st_construct, "onnx.SequenceEmpty": _st_empty,
    "onnx.SequenceInsert": _st_insert, "onnx.SequenceErase": _st_erase,
    "onnx.SplitToSequence": _st_split, "onnx.Identity": _st_identity,
    "onnx.Optional": _st_optional, "onnx.OptionalGetElement": _st_get_element,
    "onnx.If": _st_if, "onnx.SequenceMap": _st_map,
}


# ------------------------------------------------------------------ sequences


@lowering("SequenceConstruct")
def _construct(cx):
    return [pack(cx, cx.operands, cx.result_type())]


@lowering("SequenceEmpty")
def _empty(cx):
    return [pack(cx, [], cx.result_type())]


@lowering("SequenceLength")
def _length(cx):
    from ...ir.dense import DenseElementsAttr
    n = len(_elements(cx, 0))
    t = cx.result_type()
    if type(t) is not A.RankedTensorType or t.rank:
        t = tensor_type((), A.i64)
    return [scalars(cx).op1("arith.constant", [], t,
                            {"value": DenseElementsAttr(t, np.array(n, np.int64))})]


@lowering("SequenceInsert")
def _insert(cx):
    els = _elements(cx, 0)
    p = len(els)
    if cx.has_operand(2):
        p = _position(len(els), _const_int(cx.op.operands[2], "insert position"), True)
    return [pack(cx, els[:p] + [cx.operands[1]] + els[p:], cx.result_type())]


@lowering("SequenceErase")
def _erase(cx):
    els = _elements(cx, 0)
    p = -1
    if cx.has_operand(1):
        p = _const_int(cx.op.operands[1], "erase position")
    p = _position(len(els), p)
    return [pack(cx, els[:p] + els[p + 1:], cx.result_type())]


@lowering("SequenceAt")
def _at(cx):
    els = _elements(cx, 0)
    if not els:
        raise NotLowerable("SequenceAt of an empty sequence")
    rt = cx.result_type()
    a = constant_array(cx.op.operands[1])
    if a is not None:
        return [_fit_result(cx, els[_position(len(els), int(np.asarray(a).reshape(-1)[0]))],
                            rt)]
    return [_switch_at(cx, els, rt)]


def _fit_result(cx, v, rt):
    """`v` with the result type when it is ranked (else as it is)."""
    return cast_to(cx, v, rt) if type(rt) is A.RankedTensorType else v


def _switch_at(cx, els, rt):
    """Element number `position` (a run-time value in [-n, n)) of same-ranked elements:
    an scf.index_switch over the positions; another position fails a cf.assert."""
    from ...dialects.cf import AssertOp
    from ...dialects.scf import IndexSwitchOp, YieldOp
    from ._shape_util import scalar_of
    t = els[0].type
    for e in els[1:]:
        t = join_types(t, e.type)
    if type(t) is not A.RankedTensorType:
        raise NotLowerable("SequenceAt at a run-time position of elements of different "
                           "ranks")
    if type(rt) is A.RankedTensorType:
        t = rt if _compatible(rt, t) else t
    s = scalars(cx)
    n = len(els)
    ix = Ix(s)
    p = scalar_of(cx, 1)
    p = ix.select(ix.cmp("lt", p, 0), ix.add(p, n), p)
    op = cx.create(IndexSwitchOp, arg=p, cases=A.DenseArrayAttr(A.i64, list(range(n))),
                   result_types=[t], regions=n + 1)
    b = cx.b
    saved = b.ip
    for k, region in enumerate(op.regions):
        b.create_block(region)
        if k == 0:  # the default region
            ok = s.const(False, A.i1)
            cx.create(AssertOp, arg=ok, msg=A.StringAttr("SequenceAt position out of range"))
            v = els[0]
        else:
            v = els[k - 1]
        cx.create(YieldOp, values=[cast_to(cx, v, t)])
    b.ip = saved
    return _fit_result(cx, op.results[0], rt)


def _split_sizes(dim, split, keepdims):
    """(sizes of the parts along the axis, whether the axis is kept) for SplitToSequence:
    `dim` the axis size (an int, DYN or an index Value), `split` None, a scalar array or
    a list of sizes."""
    if split is None:
        if not isinstance(dim, (int, np.integer)) or dim == DYN:
            raise NotLowerable("SplitToSequence without split along a dynamic axis")
        return [1] * int(dim), bool(keepdims)
    arr = np.asarray(split, dtype=object)
    if arr.ndim == 0:
        n = int(arr)
        if not isinstance(dim, (int, np.integer)) or dim == DYN or n <= 0:
            raise NotLowerable("SplitToSequence by a chunk length needs a static axis")
        parts = [n] * (int(dim) // n)
        if dim % n:
            parts.append(int(dim) % n)
        return parts, True
    return list(arr.reshape(-1)), True


@lowering("SplitToSequence")
def _split_to_sequence(cx):
    from ...dialects.onnx import attr
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    axis = norm_axis(attr(cx.op, "axis"), r)
    split = None
    if cx.has_operand(1):
        split = constant_array(cx.op.operands[1])
        if split is None:
            t = cx.operands[1].type
            if type(t) is not A.RankedTensorType or t.rank != 1:
                raise NotLowerable("SplitToSequence by a chunk length known only at run "
                                   "time (the number of parts is not static)")
            split = operand_ints(cx, 1, "split")
        split = np.asarray(split, dtype=object)
        if split.ndim == 0:
            split = int(split)
    dims = sizes(cx, x)
    parts, keep = _split_sizes(x.type.shape[axis], split, attr(cx.op, "keepdims"))
    ix = Ix(scalars(cx))
    out, off = [], 0
    for size in parts:
        size = int(size) if isinstance(size, (int, np.integer)) else size
        offs = [0] * r
        offs[axis] = off
        part = list(dims)
        part[axis] = size
        piece = extract_slice(cx, x, offs, part)
        if not keep:
            from ._shape_util import collapse
            groups = [[k] for k in range(r)]
            if r > 1:
                j = axis - 1 if axis else 0
                groups = [g for g in groups if g != [axis]]
                groups[j] = sorted(groups[j] + [axis])
            piece = collapse(cx, piece, groups if r > 1 else [])
        out.append(piece)
        off = ix.add(off, size)
    return [pack(cx, out, cx.result_type())]


@lowering("ConcatFromSequence")
def _concat_from_sequence(cx):
    from ...dialects.onnx import attr
    from ...dialects.tensor import ConcatOp
    els = _elements(cx, 0)
    if not els:
        raise NotLowerable("ConcatFromSequence of an empty sequence")
    r = ranked(cx, els[0].type).rank
    new_axis = attr(cx.op, "new_axis")
    axis = norm_axis(attr(cx.op, "axis"), r + 1 if new_axis else r)
    vals = []
    for e in els:
        t = ranked(cx, e.type, "sequence element")
        if t.rank != r:
            raise NotLowerable("ConcatFromSequence of elements of different ranks")
        if new_axis:
            sz = sizes(cx, e)
            groups = [[k] for k in range(r)]
            if r == 0:
                groups = []
            elif axis < r:
                groups[axis] = [axis, axis + 1]
                groups = groups[:axis + 1] + [[k + 1] for k in range(axis + 1, r)]
            else:
                groups[r - 1] = [r - 1, r]
            e = expand(cx, e, groups, sz[:axis] + [1] + sz[axis:])
        vals.append(e)
    rank = r + 1 if new_axis else r
    shape = [DYN] * rank
    for k in range(rank):
        if k == axis:
            ds = [v.type.shape[k] for v in vals]
            shape[k] = DYN if DYN in ds else sum(ds)
        else:
            known = {v.type.shape[k] for v in vals} - {DYN}
            shape[k] = known.pop() if len(known) == 1 else DYN
    rt = tensor_type(shape, vals[0].type.element_type)
    if len(vals) == 1:
        res = vals[0]
    else:
        res = cx.create(ConcatOp, dim=A.IntegerAttr(axis, A.i64), inputs=vals,
                        result=rt).results[0]
    return [_fit_result(cx, res, cx.result_type())]


@lowering("SequenceMap")
def _sequence_map(cx):
    """The body once per element, each copy in an scf.execute_region (canonicalize
    inlines it) and typed for its element (onnx-shape-inference on the copy: elements
    may differ in shape, even in rank); the copies' onnx ops are lowered as the
    conversion goes on."""
    from ...dialects.scf import ExecuteRegionOp
    seqs = [i for i in range(len(cx.operands)) if is_seq(cx.operands[i].type)]
    els = {i: _elements(cx, i) for i in seqs}
    n = len(els[0])
    for i in seqs:
        if len(els[i]) != n:
            raise NotLowerable(f"SequenceMap over sequences of {n} and {len(els[i])} "
                               "elements")
    body = cx.op.regions[0].blocks[0]
    if len(body.args) != len(cx.operands):
        raise NotLowerable("a SequenceMap whose body does not match its inputs")
    outs = [[] for _ in cx.op.results]
    for k in range(n):
        vals = [els[i][k] if i in els else cx.operands[i] for i in range(len(cx.operands))]
        types = [_specialized(v.type, a.type) for v, a in zip(vals, body.args)]
        copy = _typed_copy(cx, body, types)
        mapping = {a: as_original(cx, v, t) for a, v, t in zip(copy.args, vals, types)}
        yield_types = [cx.tc.convert_type(v.type) for v in copy.last.operands]
        ex = cx.create(ExecuteRegionOp, result_types=yield_types)
        cx.b.create_block(ex.regions[0])
        for op in copy.ops:
            cx.b.insert(op.clone(mapping))
        cx.b.ip = _before(cx.op)
        for j, r in enumerate(ex.results):
            outs[j].append(r)
    return [pack(cx, vals, cx.result_type(j)) for j, vals in enumerate(outs)]


def _specialized(elem_type, arg_type):
    """The onnx type of a body argument given a (lowered) element of `elem_type`: the
    element's shape with the argument's element type (its signedness)."""
    if type(elem_type) is A.RankedTensorType and isinstance(arg_type, TENSOR_TYPES):
        return A.RankedTensorType(elem_type.shape, arg_type.element_type)
    return arg_type


def _typed_copy(cx, body, arg_types):
    """A detached copy of onnx block `body` taking `arg_types`, its ops' result types
    refined for them by onnx-shape-inference (under the model's opset imports)."""
    from ...dialects.scf import ExecuteRegionOp
    from ...passes.registry import get_pass_class
    holder = ExecuteRegionOp.build(result_types=[], loc=cx.loc)
    m = cx.op
    while m is not None and not (m._attrs and "onnx.opset_import" in m._attrs):
        m = m.parent_op
    if m is not None:
        holder.attributes["onnx.opset_import"] = m._attrs["onnx.opset_import"]
    block = holder.regions[0].add_block(Block(arg_types))
    mapping = dict(zip(body.args, block.args))
    for op in body.ops:
        block.append(op.clone(mapping))
    get_pass_class("onnx-shape-inference")().run(holder)
    return block


def _before(op):
    from ...ir.builder import InsertionPoint
    return InsertionPoint.before_op(op)


def as_original(cx, v, t):
    """Lowered value `v` as a value of onnx type `t` for onnx ops that use it directly
    (copies of a body): cast to the converted type, then (when the conversion changed
    the type, e.g. ui8 -> i8) an unrealized cast back that the conversion folds away."""
    ct = cx.tc.convert_type(t)
    v = cast_to(cx, v, ct) if isinstance(ct, TENSOR_TYPES) else v
    if ct is t:
        return v
    return pack_as(cx, v, t)


def pack_as(cx, v, t):
    from ...dialects.builtin import UnrealizedConversionCastOp
    return cx.create(UnrealizedConversionCastOp, inputs=[v], result_types=[t]).results[0]


# ------------------------------------------------------------------ optionals


@lowering("Optional")
def _optional(cx):
    if cx.has_operand(0):
        return [pack(cx, [cx.operands[0]], cx.result_type())]
    return [pack(cx, [], cx.result_type())]


@lowering("OptionalHasElement")
def _has_element(cx):
    from ...ir.dense import DenseElementsAttr
    present, _ = _opt_content(cx, 0)
    t = cx.result_type()
    return [scalars(cx).op1("arith.constant", [], t,
                            {"value": DenseElementsAttr(t, np.array(present))})]


@lowering("OptionalGetElement")
def _get_element(cx):
    present, v = _opt_content(cx, 0)
    if not present:
        raise NotLowerable("OptionalGetElement of an optional that is empty")
    rt = cx.result_type()
    return [_fit_result(cx, v, rt) if isinstance(v.type, TENSOR_TYPES) else v]
