"""Helpers every ONNX lowering uses: constant operands, sizes, empty tensors, and
elementwise computations with ONNX (NumPy) broadcasting as one `linalg.generic`; dims
that operands share are checked at run time where the types leave them open (see
[Note: checking broadcast dims], `same_dims`).

Names: `cx` is the Lowering context (see __init__), `s` a ScalarBuilder.
"""
from __future__ import annotations

import re

import numpy as np

from ...ir import attributes as A
from ...ir.affine import AffineMap
from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr
from ..scalar_builders import ScalarBuilder, element_type, with_element_type
from . import NotLowerable

DYN = A.DYNAMIC

__all__ = ["constant_array", "constant_ints", "sizes_of", "empty", "ranked",
           "is_unsigned", "elementwise", "broadcast_shapes", "broadcast_operands",
           "broadcast_groups", "stretch_if_one", "same_dims", "stand_in_unless",
           "tensor_type", "scalars", "DYN",
           "dim_symbols", "operand_symbols", "result_symbols"]


def scalars(cx) -> ScalarBuilder:
    return ScalarBuilder(cx.b, cx.op.loc)


def ranked(cx, t, what="operand"):
    """`t` if it is a ranked tensor type, else NotLowerable."""
    if type(t) is not A.RankedTensorType:
        raise NotLowerable(f"{what} of type {t} must be a ranked tensor")
    return t


def tensor_type(shape, elt):
    return A.RankedTensorType(tuple(shape), elt)


def is_unsigned(t) -> bool:
    """Whether the onnx-level (original) type `t` has an unsigned integer element type."""
    e = element_type(t)
    return type(e) is A.IntegerType and e.signedness == A.IntegerType.UNSIGNED


# ------------------------------------------------------------------ constants


def _attr_array(attr):
    if isinstance(attr, DenseResourceElementsAttr):
        if attr.handle not in BLOBS:
            return None
        return attr.array()
    if isinstance(attr, DenseElementsAttr):
        return attr.array
    return None


def constant_array(value):
    """The NumPy value of `value` when it is a constant known at compile time (an
    arith.constant, onnx.Constant with a `value` tensor, an ml_program constant global,
    or a cast of one of those), else None."""
    op = value.defining_op
    for _ in range(4):
        if op is None:
            return None
        n = op.name
        if n == "builtin.unrealized_conversion_cast" and len(op.operands) == 1:
            op = op.operands[0].defining_op
            continue
        if n in ("arith.constant", "onnx.Constant"):
            attr = op.properties.get("value")
            return None if attr is None else _attr_array(attr)
        if n == "ml_program.global_load_const":
            from ...ir.symbol_table import lookup_nearest_symbol_from
            g = lookup_nearest_symbol_from(op, op.properties["global"])
            if g is None or g.mutable:
                return None
            v = g.properties.get("value")
            return None if v is None else _attr_array(v)
        return None
    return None


def constant_ints(cx, i: int, what: str) -> list[int]:
    """Operand `i` as a list of Python ints: it must be a compile-time constant."""
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    if a is None:
        raise NotLowerable(f"{what} (operand #{i}) must be a constant")
    return [int(x) for x in np.asarray(a).reshape(-1)]


# ------------------------------------------------------------------ sizes


def sizes_of(cx, value) -> list:
    """The sizes of ranked tensor `value`: ints for static dims, index Values (tensor.dim)
    for dynamic ones."""
    t = ranked(cx, value.type)
    s = scalars(cx)
    out = []
    for i, d in enumerate(t.shape):
        if d != DYN:
            out.append(d)
        else:
            out.append(s.op1("tensor.dim", [value, s.index(i)], A.index))
    return out


def empty(cx, sizes, elt):
    """`tensor.empty` of mixed `sizes` (ints and index Values) and element type `elt`."""
    shape = [d if isinstance(d, int) else DYN for d in sizes]
    dyn = [d for d in sizes if not isinstance(d, int)]
    return scalars(cx).op1("tensor.empty", dyn, tensor_type(shape, elt))


# ------------------------------------------------------------------ dim symbols
# [Note: dim symbols] onnx-shape-inference names the `?` dims of onnx values: the
# `onnx.dim_params` attribute of an op (one name per dim of its result, or one list per
# result) and of a function argument. Two `?` dims with the same name have the same size
# at run time, so broadcasting them together needs no run-time check; "" (or no
# attribute) says nothing.

DIM_PARAMS = "onnx.dim_params"
# Argument names trusted as symbols: the ones shape inference writes as they are.
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _names(attr, rank, plain=False):
    if type(attr) is not A.ArrayAttr or len(attr.value) != rank:
        return None
    out = [a.value if type(a) is A.StringAttr and a.value and
           (not plain or _PLAIN_NAME.match(a.value)) else None for a in attr.value]
    return out if any(out) else None


def dim_symbols(value):
    """The names of the dims of onnx-level `value` (an op result or a function argument;
    see [Note: dim symbols]): a list with a name or None per dim, or None."""
    t = value.type
    if type(t) is not A.RankedTensorType:
        return None
    owner = getattr(value, "owner", None)
    if type(value).__name__ == "OpResult":
        attr = owner._attrs.get(DIM_PARAMS) if owner._attrs else None
        if attr is not None and len(owner.results) > 1:
            i = value.index
            attr = attr.value[i] if type(attr) is A.ArrayAttr and i < len(attr.value) \
                else None
        return _names(attr, t.rank)
    fn = owner.parent_op if owner is not None else None
    if fn is None or fn.name != "func.func" or fn.regions[0].blocks[0] is not owner:
        return None
    arg_attrs = fn._props.get("arg_attrs")
    if arg_attrs is None or value.index >= len(arg_attrs.value):
        return None
    d = arg_attrs.value[value.index]
    return _names(d.value.get(DIM_PARAMS), t.rank, plain=True) \
        if type(d) is A.DictionaryAttr else None


def operand_symbols(cx, value):
    """The dim names of `value` when it is one of the converted operands of the op being
    lowered (those of the source operand: `cx.dim_names`), else None."""
    for k, v in enumerate(cx.operands):
        if v is value:
            syms = cx.dim_names(cx.op.operand(k))
            return syms if syms is not None and len(syms) == value.type.rank else None
    return None


def result_symbols(cx, i=0):
    """The dim names of result `i` of the op being lowered, or None."""
    return cx.dim_names(cx.op.results[i])


# ------------------------------------------------------------------ broadcasting


def broadcast_shapes(shapes) -> list[int]:
    """NumPy broadcasting of static/dynamic shapes (DYN where unknown)."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(rank):
        dims = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
        static = {d for d in dims if d != DYN and d != 1}
        if len(static) > 1:
            raise NotLowerable(f"shapes {shapes} do not broadcast")
        if static:
            out.append(static.pop())
        elif any(d == DYN for d in dims):
            out.append(DYN)
        else:
            out.append(1)
    return out


def _dim(cx, v, j, cache):
    """Size `j` of `v` (an int when static, else a `tensor.dim`, made once per value)."""
    d = v.type.shape[j]
    if d != DYN:
        return d
    key = (id(v), j)
    got = cache.get(key)
    if got is None:
        s = scalars(cx)
        got = cache[key] = s.op1("tensor.dim", [v, s.index(j)], A.index)
    return got


def broadcast_operands(cx, values, shape, keep=0):
    """[Note: broadcasting dynamic dims]
    ONNX broadcasting (multidirectional, NumPy's) lets a dim of size 1 stretch to the
    others' size. A linalg map reads a dim either at 0 (broadcast) or along the loop, so
    where a type leaves a dim dynamic and the result's size there may be larger (another
    operand's static or dynamic size), whether it stretches is only known at run time.
    Such an operand goes through an `scf.if` per dim (as tosa-to-linalg does): when its
    size is 1 and the result's is not, it is first broadcast along that dim to the
    result's size; after that every dynamic dim equals the result's size and the
    broadcasting maps (static 1s read at 0) are right.

    [Note: checking broadcast dims]
    The dynamic dims of a group must each be 1 or the result's size (NumPy's rule;
    onnxruntime fails otherwise), which the types cannot prove unless they share a name
    (see [Note: dim symbols]). So each group with more than one size, or a dynamic dim
    against a static result size, asserts it:
        %ok = (%n == 1 || %n == %size) && ...
        cf.assert %ok, "Add at n0: input dims do not broadcast (input #0 dim 0, ...)"
    One scalar test per dim, outside the loops. After a failed check the reads stay in
    bounds: a dynamic result size becomes 0, and the group's dynamic operand dims are
    that size, each operand replaced by an uninitialized stand-in of the right sizes
    (an scf.if on the flag): a linalg op's loop bounds come from its operands, so every
    one of them must agree with the result.

    `values` (converted tensors) broadcast to `shape` (the result's static dims, DYN where
    unknown), their dims aligned right, their last `keep` dims left out (a matmul's
    matrix dims). Returns the values to read and the result's mixed sizes (ints, index
    Values)."""
    rank = len(shape)
    groups = []
    for k in range(rank):
        group = []
        for i, v in enumerate(values):
            j = v.type.rank - keep - rank + k
            if j >= 0:
                group.append((i, j))
        groups.append(group)
    return broadcast_groups(cx, values, groups, shape)


def broadcast_groups(cx, values, groups, shape):
    """`values` with their dynamic dims that may stretch broadcast at run time (see
    [Note: broadcasting dynamic dims]) and the mixed sizes of the broadcast dims:
    `groups[k]` lists the (operand, dim) pairs that broadcast together to size
    `shape[k]` (static, or DYN). A dynamic size is that of the one operand dynamic
    there, else the first of theirs that is not 1 at run time (sizes 0 and 1 give 0, as
    in NumPy). Dynamic dims with the same name (see [Note: dim symbols]) are one size:
    when all the dynamic dims of a group are one size, nothing is checked at run time."""
    values = list(values)
    names = [operand_symbols(cx, v) for v in values]
    cache: dict = {}
    s = scalars(cx)
    sizes, checks, bad = [], [], []
    for k, (group, d) in enumerate(zip(groups, shape)):
        # a value used twice has the same sizes: its first use stands for all; dims of
        # one name are one size (`sized`: one dim per size)
        dyn, seen, sized, named = [], set(), [], set()
        for i, j in group:
            if values[i].type.shape[j] != DYN or id(values[i]) in seen:
                continue
            seen.add(id(values[i]))
            dyn.append((i, j))
            name = names[i][j] if names[i] is not None else None
            if name is None or name not in named:
                named.add(name)
                sized.append((i, j))
        if d != DYN:
            size = d
        else:
            static = [values[i].type.shape[j] for i, j in group
                      if values[i].type.shape[j] not in (DYN, 1)]
            if static:       # a caller's result shape more dynamic than the operands
                size = s.index(static[0])
            elif not dyn:
                size = s.index(1)
            else:
                size = _dim(cx, values[sized[0][0]], sized[0][1], cache)
                for i, j in sized[1:]:
                    other = _dim(cx, values[i], j, cache)
                    size = s.select(_cmp_one(cx, "eq", size, cache), other, size)
                if len(sized) == 1:
                    dyn = []     # the result's size is that of every dynamic dim
        if d != DYN or dyn:
            # [Note: checking broadcast dims]
            ok = _broadcastable(cx, values, sized, size, cache)
            if ok is not True:
                _assert_broadcast(cx, values, ok, sized, k)
                if d == DYN:
                    size = s.select(ok, size, s.index(0))
                bad.extend((i, j, ok, size) for i, j in dyn)
        sizes.append(size)
        if d != 1:
            checks.extend((i, j, size) for i, j in dyn)
    for i, j, ok, size in bad:
        values = stand_in_unless(cx, values, i, j, size, ok)
    known: dict = {}    # id(value) -> its mixed sizes
    for i, j, size in checks:
        old = values[i]
        dims = known.get(id(old)) or [_dim(cx, old, k, cache) for k in range(old.type.rank)]
        new = stretch_if_one(cx, old, j, size, dims, cache)
        known[id(new)] = dims[:j] + [size] + dims[j + 1:]
        values = [new if v is old else v for v in values]
    return values, sizes


def _broadcastable(cx, values, dims, size, cache):
    """Whether each of the (value, dim) `dims` is 1 or `size` (mixed): True when known,
    else an i1 Value. See [Note: checking broadcast dims]."""
    s = scalars(cx)
    ok = True
    for i, j in dims:
        n = _dim(cx, values[i], j, cache)
        if isinstance(n, int):
            continue
        if isinstance(size, int) and size == 1:
            f = _cmp_one(cx, "eq", n, cache)
        else:
            f = s.or_(_cmp_one(cx, "eq", n, cache),
                      s.cmp("eq", n, size if not isinstance(size, int) else s.index(size)))
        ok = f if ok is True else s.and_(ok, f)
    return ok


def _assert_broadcast(cx, values, ok, dims, k):
    """cf.assert of `ok` naming the inputs of `dims` by their ONNX operand number."""
    from ._index_check import assert_ok
    parts = []
    for i, j in dims:
        n = next((m for m, v in enumerate(cx.operands) if v is values[i]), i)
        parts.append(f"input #{n} dim {j}")
    assert_ok(cx, ok, f"input dims do not broadcast ({', '.join(parts)}: each must be 1 "
                      f"or the output's size on its axis {k})")


def stand_in_unless(cx, values, i, j, size, ok):
    """`values` where value `i` is, unless `ok`, replaced by an (uninitialized) tensor of
    its sizes but `size` at dim `j`: what is read after a failed check stays in bounds."""
    from ...dialects.scf import IfOp, YieldOp
    old = values[i]
    t = old.type
    op = cx.b.insert(IfOp.new(ok, [t], with_else=True, loc=cx.op.loc))
    saved = cx.b.ip
    cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
    cx.b.insert(YieldOp.build(values=[old], loc=cx.op.loc))
    cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
    sc = scalars(cx)
    dims = [size if k == j else d if d != DYN else
            sc.op1("tensor.dim", [old, sc.index(k)], A.index) for k, d in enumerate(t.shape)]
    stand_in = empty(cx, dims, t.element_type)
    if stand_in.type is not t:
        stand_in = sc.op1("tensor.cast", [stand_in], t)
    cx.b.insert(YieldOp.build(values=[stand_in], loc=cx.op.loc))
    cx.b.ip = saved
    new = op.results[0]
    return [new if v is old else v for v in values]


def same_dims(cx, values, group, what, labels=None):
    """`values` (converted tensors) whose dims listed in `group` ((value index, dim)
    pairs: a contraction's two K dims, Concat's dims off the axis...) must all have one
    size: NotLowerable when static sizes differ, else a cf.assert of the dynamic ones
    against the first static size (or the first dim), unless a name says they are
    equal (see [Note: dim symbols]). After a failed check each checked operand is a
    stand-in of the expected size there (see [Note: checking broadcast dims]), so the
    loops, whose bounds come from any of the operands, read in bounds. `labels` names
    the values in the message (default: "input #k", their ONNX operand number).
    Returns the values to use."""
    values = list(values)
    static = sorted({values[i].type.shape[j] for i, j in group
                     if values[i].type.shape[j] != DYN})
    if len(static) > 1:
        raise NotLowerable(f"{what} differ: {static}")
    cache: dict = {}
    names = [operand_symbols(cx, v) for v in values]

    def name(i, j):
        return names[i][j] if names[i] is not None else None
    dyn, seen = [], set()
    for i, j in group:    # a value listed twice (the same input twice) is one size
        if values[i].type.shape[j] == DYN and (id(values[i]), j) not in seen:
            seen.add((id(values[i]), j))
            dyn.append((i, j))
    if static:
        ref, equal = static[0], set()
    elif dyn:
        ref, equal = _dim(cx, values[dyn[0][0]], dyn[0][1], cache), {name(*dyn[0])}
        dyn = dyn[1:]
    else:
        return values
    s = scalars(cx)
    ok, checked = True, []
    for i, j in dyn:
        n = name(i, j)
        if n is not None and n in equal:
            continue
        if n is not None:
            equal.add(n)
        f = s.cmp("eq", _dim(cx, values[i], j, cache), ref if not isinstance(ref, int)
                  else s.index(ref))
        ok = f if ok is True else s.and_(ok, f)
        checked.append((i, j))
    if ok is True:
        return values
    from ._index_check import assert_ok
    parts = []
    for i, j in group:
        k = next((m for m, v in enumerate(cx.operands) if v is values[i]), i)
        parts.append(f"{labels[i] if labels else f'input #{k}'} dim {j}")
    assert_ok(cx, ok, f"{what} differ ({', '.join(parts)})")
    for i, j in checked:
        values = stand_in_unless(cx, values, i, j, ref, ok)
    return values


def _cmp_one(cx, pred, size, cache):
    """`size <pred> 1` for an index Value (made once per size and predicate)."""
    key = (pred, id(size))
    got = cache.get(key)
    if got is None:
        s = scalars(cx)
        got = cache[key] = s.cmp(pred, size, s.index(1))
    return got


def stretch_if_one(cx, v, j, size, sizes=None, cache=None):
    """`v`, whose dim `j` is dynamic, broadcast along `j` to `size` (int or index Value)
    when its size there is 1 at run time and `size` is not: an `scf.if` (see [Note:
    broadcasting dynamic dims]). `sizes`: the mixed sizes of `v`, if made; `cache`
    keeps comparisons for the next calls."""
    from ...dialects.linalg import make_generic
    from ...dialects.scf import IfOp, YieldOp
    from ...ir.affine import AffineConstantExpr, AffineDimExpr
    s = scalars(cx)
    cache = {} if cache is None else cache
    if sizes is None:
        sizes = sizes_of(cx, v)
    cond = _cmp_one(cx, "eq", sizes[j], cache)
    if not isinstance(size, int):
        cond = s.and_(cond, _cmp_one(cx, "ne", size, cache))
    t = v.type
    op = cx.b.insert(IfOp.new(cond, [t], with_else=True, loc=cx.op.loc))
    saved = cx.b.ip
    cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
    init = empty(cx, sizes[:j] + [size] + sizes[j + 1:], t.element_type)
    rank = t.rank
    read = AffineMap(rank, 0, tuple(AffineConstantExpr(0) if k == j else AffineDimExpr(k)
                                    for k in range(rank)))
    r = make_generic(cx.b, [v], [init], [read, AffineMap.identity(rank)],
                     ["parallel"] * rank, lambda b, args: [args[0]], [init.type],
                     loc=cx.op.loc).results[0]
    if r.type is not t:
        r = s.op1("tensor.cast", [r], t)
    cx.b.insert(YieldOp.build(values=[r], loc=cx.op.loc))
    cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
    cx.b.insert(YieldOp.build(values=[v], loc=cx.op.loc))
    cx.b.ip = saved
    return op.results[0]


def _broadcast_map(operand_shape, rank):
    """The indexing map of an operand broadcast into a `rank`-d iteration space: its dims
    align right; size-1 dims (static) read index 0."""
    from ...ir.affine import AffineConstantExpr, AffineDimExpr
    off = rank - len(operand_shape)
    exprs = []
    for j, d in enumerate(operand_shape):
        exprs.append(AffineConstantExpr(0) if d == 1 else AffineDimExpr(off + j))
    return AffineMap(rank, 0, tuple(exprs))


def elementwise(cx, values, result_elt, body, result_shape=None, maps=None,
                result_sizes=None):
    """One `linalg.generic` applying `body(s, *scalars) -> scalar` elementwise over
    `values` (converted tensors, broadcast NumPy-style; dynamic dims that may stretch
    are broadcast at run time, see [Note: broadcasting dynamic dims]); the result has
    element type `result_elt`.
    `maps` (one per value) replace the broadcasting maps, e.g. to read a per-channel
    vector along one axis; then `result_shape` (or `result_sizes`, mixed ints and index
    Values) must be given unless it is the first value's shape."""
    from ...dialects.linalg import make_generic
    for v in values:
        ranked(cx, v.type)
        if not isinstance(v.type.element_type, (A.IntegerType, A.FloatType, A.IndexType)):
            raise NotLowerable(f"elements of type {v.type.element_type} are not lowered")
    if result_sizes is not None:
        shape = [d if isinstance(d, int) else DYN for d in result_sizes]
    elif result_shape is not None:
        shape = list(result_shape)
    elif maps is not None:
        shape = list(values[0].type.shape)
    else:
        shape = broadcast_shapes([v.type.shape for v in values])
    rank = len(shape)
    if result_sizes is None:
        if maps is None:
            values, result_sizes = broadcast_operands(cx, values, shape)
        else:   # a dynamic size is the first value's (its map reads the dim along)
            values = _mapped_dims_agree(cx, values, maps, rank)
            first = values[0].type.shape
            off = len(first) - rank
            result_sizes = [d if d != DYN else _dim(cx, values[0], off + k, {})
                            for k, d in enumerate(shape)]
    init = empty(cx, result_sizes, result_elt)
    if maps is None:
        maps = [_broadcast_map(v.type.shape, rank) for v in values]
    maps = list(maps) + [AffineMap.identity(rank)]

    def fn(b, args):
        s = ScalarBuilder(b, cx.op.loc)
        return [body(s, *args[:len(values)])]
    return make_generic(cx.b, list(values), [init], maps, ["parallel"] * rank, fn,
                        [init.type], loc=cx.op.loc).results[0]


def _mapped_dims_agree(cx, values, maps, rank):
    """`values` read through `maps` (a per-channel scale along the data's axis...): the
    dims that one loop dim reads along must have one size (same_dims: checked at run
    time where dynamic)."""
    from ...ir.affine import AffineDimExpr
    groups = [[] for _ in range(rank)]
    for i, (v, m) in enumerate(zip(values, maps)):
        for k, e in enumerate(m.results):
            if type(e) is AffineDimExpr and k < v.type.rank:
                groups[e.position].append((i, k))
    for d, group in enumerate(groups):
        if len(group) > 1:
            values = same_dims(cx, values, group, f"the dims read along axis {d}")
    return values


def axis_map(rank: int, axis: int, block: int = 0):
    """The map reading a 1-D operand at loop dim `axis` of a `rank`-d iteration space
    (divided by `block` when > 0: blocked quantization parameters)."""
    from ...ir.affine import AffineDimExpr
    e = AffineDimExpr(axis)
    if block:
        e = e.floordiv(block)
    return AffineMap(rank, 0, (e,))


def scalar_map(rank: int):
    """The map reading a 0-d operand from every point of a `rank`-d iteration space."""
    return AffineMap(rank, 0, ())


def cast_tensor(cx, value, to_elt, from_signed=True, to_signed=True):
    """Elementwise conversion of tensor `value` to element type `to_elt`."""
    if element_type(value.type) is to_elt:
        return value
    return elementwise(cx, [value], to_elt,
                       lambda s, x: s.cast(x, to_elt, from_signed, to_signed))


__all__ += ["cast_tensor", "with_element_type", "axis_map", "scalar_map"]


# ------------------------------------------------------------------ multi-result generics
# (resampling and selection lowerings)


def generic_op(cx, inputs, outputs, maps, iterators, body):
    """A linalg.generic with any number of outputs; `maps` as make_generic takes them
    (e.g. `_linalg_util.map_text`); `body(s, b, args)` gets a ScalarBuilder, the payload
    builder (`b.index(d)`) and the block arguments, and returns the values to yield.
    Returns the results."""
    from ...dialects.linalg import make_generic

    def fn(b, args):
        return body(ScalarBuilder(b, cx.loc), b, args)
    return list(make_generic(cx.b, list(inputs), list(outputs), maps, iterators, fn,
                             [v.type for v in outputs], loc=cx.loc).results)


def scalar_element(cx, i):
    """Operand `i`, a scalar or one-element tensor, as a scalar Value of its element
    type (`tensor.extract`)."""
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    if any(d not in (1, DYN) for d in t.shape):
        raise NotLowerable(f"operand #{i} must hold one element")
    s = scalars(cx)
    return s.op1("tensor.extract", [v] + [s.index(0)] * t.rank, t.element_type)


__all__ += ["generic_op", "scalar_element"]
