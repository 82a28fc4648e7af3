"""Helpers of the data-movement lowerings (data_movement, gather_scatter, shape_ops):
index arithmetic that folds when the operands are known, scalars read out of small shape
tensors, slices, reshapes and scf loop nests.

Sizes and indices are "mixed": a Python int when known at compile time, else an SSA
value of type `index`. `Ix` computes on mixed values: two ints give an int, anything
else emits arith ops on `index`, so one lowering serves static and dynamic shapes.
Comparisons also fold what sizes imply: a tensor.dim is not negative, and two tensor.dim
of one tensor's dim are equal. `element_of` reads a shape operand's element through the
ops that built it (from_elements, concat, slices, reshapes), so a shape computed from
sizes lowers to the sizes themselves.
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.builder import Builder
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable
from .common import DYN, constant_array, ranked, scalars, tensor_type

__all__ = ["Ix", "norm_axis", "mixed_split", "extract_slice", "insert_slice", "reshape_to",
           "collapse", "expand", "fit", "loop_nest", "operand_ints", "scalar_of", "index_of",
           "sizes", "out_sizes", "finish", "dims_map", "index_generic", "DYN", "element_of"]


def norm_axis(axis: int, rank: int, what: str = "axis") -> int:
    """`axis` in [-rank, rank) made non-negative (NotLowerable when out of range)."""
    if not -rank <= axis < rank:
        raise NotLowerable(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def mixed_split(values):
    """(static ints with DYN for each Value, the Values in order) of a mixed list."""
    static, dyn = [], []
    for v in values:
        if isinstance(v, (int, np.integer)):
            static.append(int(v))
        else:
            static.append(DYN)
            dyn.append(v)
    return static, dyn


def _i64s(values):
    return A.DenseArrayAttr(A.i64, list(values))


class Ix:
    """Arithmetic on mixed index values (see the module doc); comparisons give a bool or
    an i1 Value, which `select` takes."""

    __slots__ = ("s",)

    def __init__(self, s: ScalarBuilder):
        self.s = s

    def v(self, x):
        """`x` as an index Value."""
        return self.s.index(int(x)) if isinstance(x, (int, np.integer)) else x

    @staticmethod
    def known(*xs) -> bool:
        return all(isinstance(x, (int, np.integer)) for x in xs)

    def add(self, a, b):
        if self.known(a, b):
            return int(a) + int(b)
        if self.known(b) and b == 0:
            return a
        return self.s.add(self.v(a), self.v(b))

    def sub(self, a, b):
        if self.known(a, b):
            return int(a) - int(b)
        if self.known(b) and b == 0:
            return a
        return self.s.sub(self.v(a), self.v(b))

    def mul(self, a, b):
        if self.known(a, b):
            return int(a) * int(b)
        if self.known(b) and b == 1:
            return a
        if self.known(a) and a == 1:
            return b
        return self.s.mul(self.v(a), self.v(b))

    def floordiv(self, a, b):
        if self.known(a, b):
            return int(a) // int(b)
        if self.known(b) and b == 1:
            return a
        return self.s.op1("arith.floordivsi", [self.v(a), self.v(b)], A.index)

    def ceildiv(self, a, b):
        if self.known(a, b):
            return -(-int(a) // int(b))
        return self.s.op1("arith.ceildivsi", [self.v(a), self.v(b)], A.index)

    def mod(self, a, b):
        """Python-style remainder (the sign of `b`)."""
        if self.known(a, b):
            return int(a) % int(b)
        a, b = self.v(a), self.v(b)
        return self.s.sub(a, self.s.mul(self.s.op1("arith.floordivsi", [a, b], A.index), b))

    def min(self, a, b):
        if self.known(a, b):
            return min(int(a), int(b))
        return self.s.min(self.v(a), self.v(b))

    def max(self, a, b):
        if self.known(a, b):
            return max(int(a), int(b))
        return self.s.max(self.v(a), self.v(b))

    def clamp(self, x, lo, hi):
        return self.min(self.max(x, lo), hi)

    def cmp(self, pred, a, b):
        if self.known(a, b):
            a, b = int(a), int(b)
            return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b,
                    "ne": a != b}[pred]
        if a is b or _same_size(a, b):
            return pred in ("le", "ge", "eq")
        # a size (tensor.dim) is not negative: against a constant below 1 some
        # comparisons are known
        if self.known(b) and b <= 0 and _is_size(a) or self.known(a) and a <= 0 and \
                _is_size(b):
            flip = not self.known(b)
            c = int(a if flip else b)
            p = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}.get(pred, pred) \
                if flip else pred
            known = {"ge": True, "lt": False} if c == 0 else \
                {"ge": True, "gt": True, "ne": True, "lt": False, "le": False, "eq": False}
            if p in known:
                return known[p]
        return self.s.cmp(pred, self.v(a), self.v(b))

    def select(self, c, a, b):
        if isinstance(c, (bool, np.bool_)):
            return a if c else b
        return self.s.select(c, self.v(a), self.v(b))


def _is_size(v) -> bool:
    """Whether index Value `v` is a tensor's size (so not negative)."""
    op = v.defining_op
    return op is not None and op.name in ("tensor.dim", "memref.dim")


def _same_size(a, b) -> bool:
    """Whether mixed `a` and `b` are one tensor.dim of one tensor (two ops)."""
    if Ix.known(a) or Ix.known(b):
        return False
    oa, ob = a.defining_op, b.defining_op
    if oa is None or ob is None or oa.name != "tensor.dim" or ob.name != "tensor.dim" or \
            oa.operands[0] is not ob.operands[0]:
        return False
    ia, ib = oa.operands[1], ob.operands[1]
    if ia is ib:
        return True
    ca, cb = _index_constant(ia), _index_constant(ib)
    return ca is not None and ca == cb


def _index_constant(v):
    op = v.defining_op
    if op is None or op.name != "arith.constant":
        return None
    attr = op.properties.get("value")
    return attr.value if isinstance(attr, A.IntegerAttr) else None


def index_of(s: ScalarBuilder, v, signed=True):
    """Scalar integer Value `v` (any width) as an `index` Value."""
    if v.type is A.index:
        return v
    if type(v.type) is A.FloatType:
        v = s.cast(v, A.i64)
    return s.cast(v, A.index, signed)


def scalar_of(cx, i: int, k: int = 0):
    """Element `k` of (small) operand tensor `i` as a mixed index value: an int when the
    operand is a compile-time constant, else `tensor.extract` + `index_cast`."""
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    if a is not None:
        return int(np.asarray(a).reshape(-1)[k])
    v = cx.operands[i]
    t = ranked(cx, v.type, f"operand #{i}")
    s = scalars(cx)
    idx = []
    if t.rank:
        if t.rank != 1:
            raise NotLowerable(f"operand #{i} must be a scalar or a 1-D tensor")
        idx = [s.index(k)]
    from .common import is_unsigned
    e = element_of(v, k)
    if isinstance(e, int):
        return e
    if e is None:
        e = s.op1("tensor.extract", [v, *idx], t.element_type)
    return index_of(s, e, not is_unsigned(cx.orig_type(i)))


def element_of(v, k, depth=8):
    """Element `k` of a small 0-D or 1-D tensor Value `v`, read through the ops that
    build shape tensors (from_elements, concat, extract_slice, expand/collapse_shape,
    cast, constants): an int, a scalar Value, or None when not found. A shape computed
    as Shape -> Gather/Slice -> Concat then lowers to the sizes themselves, and checks
    of its values fold (see [Note: shape checks])."""
    for _ in range(depth):
        op = v.defining_op
        if op is None:
            return None
        n = op.name
        if n in ("tensor.expand_shape", "tensor.collapse_shape", "tensor.cast"):
            src = op.operands[0].type
            if type(src) is not A.RankedTensorType or src.rank > 1 or \
                    v.type.rank > 1:
                return None
            v = op.operands[0]
        elif n == "tensor.from_elements":
            e = op.operands[k] if k < len(op.operands) else None
            if e is not None and e.defining_op is not None and \
                    e.defining_op.name == "arith.index_cast" and \
                    e.defining_op.operands[0].type is A.index:
                return e.defining_op.operands[0]
            return e
        elif n == "tensor.concat":
            for part in op.operands:
                m = part.type.shape[0] if type(part.type) is A.RankedTensorType and \
                    part.type.rank == 1 else DYN
                if m == DYN:
                    return None
                if k < m:
                    v = part
                    break
                k -= m
            else:
                return None
        elif n == "tensor.extract_slice":
            if op.operands[1:] or v.type.rank != 1:
                return None
            k = op.properties["static_offsets"].value[0] + \
                k * op.properties["static_strides"].value[0]
            v = op.operands[0]
        else:
            a = constant_array(v)
            if a is None:
                return None
            flat = np.asarray(a).reshape(-1)
            return int(flat[k]) if k < flat.size and flat.dtype.kind in "iub" else None
    return None


def operand_ints(cx, i: int, what: str):
    """All elements of 1-D (or 0-D) operand `i` as mixed values: its static length must
    be known."""
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    if a is not None:
        return [int(x) for x in np.asarray(a).reshape(-1)]
    t = cx.operands[i].type
    if type(t) is not A.RankedTensorType or t.rank > 1 or DYN in t.shape:
        raise NotLowerable(f"{what} (operand #{i}) must have a static length")
    n = t.shape[0] if t.rank else 1
    return [scalar_of(cx, i, k) for k in range(n)]


def sizes(cx, v):
    """Mixed sizes of ranked tensor `v` (tensor.dim for dynamic dims)."""
    from .common import sizes_of
    return sizes_of(cx, v)


# ------------------------------------------------------------------ slices


def extract_slice(cx, src, offsets, sizes_, strides=None, result_type=None):
    """`tensor.extract_slice` with mixed offsets, sizes and strides (default 1)."""
    from ...dialects.tensor import ExtractSliceOp
    rank = src.type.rank
    strides = strides if strides is not None else [1] * rank
    so, do = mixed_split(offsets)
    ss, ds = mixed_split(sizes_)
    st, dt = mixed_split(strides)
    if result_type is None:
        result_type = tensor_type(ss, src.type.element_type)
    if not (do or ds or dt) and so == [0] * rank and st == [1] * rank and \
            list(src.type.shape) == ss and src.type is result_type:
        return src
    if list(result_type.shape) == ss and any(
            o != DYN and d != DYN and o >= d for o, d in zip(so, src.type.shape)):
        # A static offset at or past a static dim: the slice is empty along it (a valid
        # one has size 0 there), and upstream's extract_slice verifier refuses that
        # offset (a dim of size 0 takes none): an empty tensor of the result's sizes.
        from .common import empty
        return empty(cx, [s if s != DYN else v for s, v in zip(ss, _dyn_iter(ds, ss))],
                     result_type.element_type)
    return cx.create(ExtractSliceOp, source=src, offsets=do, sizes=ds, strides=dt,
                     static_offsets=_i64s(so), static_sizes=_i64s(ss),
                     static_strides=_i64s(st), result=result_type).results[0]


def _dyn_iter(dyn, static):
    """The Values of `dyn` at the DYN positions of `static` (None elsewhere)."""
    it = iter(dyn)
    return [next(it) if s == DYN else None for s in static]


def insert_slice(cx, src, dest, offsets, strides=None, b=None):
    """`tensor.insert_slice` of all of `src` into `dest` at mixed `offsets`."""
    from ...dialects.tensor import InsertSliceOp
    rank = dest.type.rank
    strides = strides if strides is not None else [1] * rank
    so, do = mixed_split(offsets)
    ss, ds = mixed_split(_sizes_with(cx, src, b))
    st, dt = mixed_split(strides)
    op = InsertSliceOp.build(source=src, dest=dest, offsets=do, sizes=ds, strides=dt,
                             static_offsets=_i64s(so), static_sizes=_i64s(ss),
                             static_strides=_i64s(st), result=dest.type, loc=cx.loc)
    return (b or cx.b).insert(op).results[0]


def _sizes_with(cx, v, b):
    if b is None:
        return sizes(cx, v)
    s = ScalarBuilder(b, cx.loc)
    return [d if d != DYN else s.op1("tensor.dim", [v, s.index(i)], A.index)
            for i, d in enumerate(v.type.shape)]


# ------------------------------------------------------------------ reshapes


def _reassoc(groups):
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g]) for g in groups])


def collapse(cx, v, groups):
    """`tensor.collapse_shape` of `v` by `groups` (lists of consecutive dims)."""
    from ...dialects.tensor import CollapseShapeOp
    shape = []
    for g in groups:
        n = 1
        for i in g:
            d = v.type.shape[i]
            n = DYN if d == DYN or n == DYN else n * d
        shape.append(n)
    if len(groups) == v.type.rank:
        return v
    rt = tensor_type(shape, v.type.element_type)
    return cx.create(CollapseShapeOp, src=v, reassociation=_reassoc(groups),
                     result=rt).results[0]


def expand(cx, v, groups, out_sizes):
    """`tensor.expand_shape` of `v` into mixed `out_sizes` by `groups`."""
    from ...dialects.tensor import ExpandShapeOp
    static, dyn = mixed_split(out_sizes)
    if len(groups) == len(static) and list(v.type.shape) == static:
        return v
    rt = tensor_type(static, v.type.element_type)
    return cx.create(ExpandShapeOp, src=v, reassociation=_reassoc(groups),
                     output_shape=dyn, static_output_shape=_i64s(static),
                     result=rt).results[0]


def reshape_to(cx, v, out_sizes, in_sizes=None):
    """`v` reshaped (row-major) to mixed `out_sizes`: the band of dims that changes is
    collapsed to one dim (collapse_shape), then expanded (expand_shape); equal leading
    and trailing dims stay out of the band: static ones, and dynamic ones whose size is
    the same Value in `out_sizes` and in `in_sizes` (`v`'s mixed sizes, if given)."""
    shape = list(v.type.shape)
    static, _ = mixed_split(out_sizes)
    if shape == static and DYN not in static:
        return v
    n_in, n_out = len(shape), len(static)
    if n_in == 0:
        return expand(cx, v, [], out_sizes)
    if n_out == 0:
        return collapse(cx, v, [])
    n = min(n_in, n_out)

    def same(i, j):
        if shape[i] != DYN:
            return shape[i] == static[j]
        return in_sizes is not None and static[j] == DYN and in_sizes[i] is out_sizes[j]
    pre = 0
    while pre < n - 1 and same(pre, pre):
        pre += 1
    suf = 0
    while suf < n - pre - 1 and same(n_in - 1 - suf, n_out - 1 - suf):
        suf += 1

    def groups(total):
        mid = total - pre - suf
        return [[i] for i in range(pre)] + [list(range(pre, pre + mid))] + \
            [[pre + mid + i] for i in range(suf)]
    flat = collapse(cx, v, groups(n_in))
    # expand_shape wants the band's size static exactly when the output band is static
    band = static[pre:n_out - suf]
    want = DYN if DYN in band else int(np.prod(band))
    if flat.type.shape[pre] != want:
        t = list(flat.type.shape)
        t[pre] = want
        flat = fit(cx, flat, tensor_type(t, flat.type.element_type))
    return expand(cx, flat, groups(n_out), out_sizes)


def fit(cx, v, t):
    """`v` with type `t` (a `tensor.cast` when only static/dynamic dims differ)."""
    if v.type is t or type(t) is not A.RankedTensorType:
        return v
    from ...dialects.tensor import CastOp
    if element_type(v.type) is not t.element_type or v.type.rank != t.rank:
        raise NotLowerable(f"lowered to {v.type}, which does not match {t}")
    return cx.create(CastOp, source=v, dest=t).results[0]


# ------------------------------------------------------------------ loops


def loop_nest(cx, ubs, inits, body):
    """scf.for loops over [0, ub) for each mixed `ubs`, carrying `inits`; `body(s, ivs,
    accs)` (s a ScalarBuilder in the innermost body) returns the next values. Returns
    the final values."""
    from ...dialects.scf import ForOp, YieldOp
    s0 = scalars(cx)
    zero, one = s0.index(0), s0.index(1)
    ix = Ix(s0)
    ub_values = [ix.v(u) for u in ubs]
    loc = cx.loc

    def build(depth, ivs, accs):
        loop = ForOp.new(zero, ub_values[depth], one, accs, loc=loc)
        inner = Builder.at_end(loop.body)
        iv, args = loop.body.args[0], list(loop.body.args[1:])
        if depth + 1 == len(ubs):
            nxt = body(ScalarBuilder(inner, loc), ivs + [iv], args)
        else:
            sub = build(depth + 1, ivs + [iv], args)
            inner.insert(sub)
            nxt = list(sub.results)
        inner.insert(YieldOp.new(nxt, loc=loc))
        return loop

    if not ubs:
        return body(s0, [], list(inits))
    outer = build(0, [], list(inits))
    cx.b.insert(outer)
    return list(outer.results)


# ------------------------------------------------------------------ results


def out_sizes(cx, computed, i=0):
    """`computed` mixed sizes of result `i`, with the dims its type knows statically."""
    rt = cx.result_type(i)
    if type(rt) is A.RankedTensorType and rt.rank == len(computed):
        return [d if d != DYN else c for d, c in zip(rt.shape, computed)]
    return list(computed)


def finish(cx, v, i=0):
    """`v` as result `i` (its type)."""
    return fit(cx, v, cx.result_type(i))


def dims_map(rank, dims):
    """The map (d0, .., d<rank-1>) -> (d<dims[0]>, ..)."""
    from ...ir.affine import AffineDimExpr, AffineMap
    return AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in dims))


def index_generic(cx, inputs, in_maps, sizes_, elt, body):
    """A parallel linalg.generic over mixed `sizes_` with element type `elt`: `body(s,
    idx, args)` returns the element from the loop indices (`linalg.index` Values) and
    the elements of `inputs` (read through `in_maps`)."""
    from ...dialects.linalg import make_generic
    from ...ir.affine import AffineMap
    from .common import empty
    rank = len(sizes_)
    init = empty(cx, sizes_, elt)

    def fn(b, args):
        s = ScalarBuilder(b, cx.loc)
        return [body(s, [b.index(d) for d in range(rank)], args[:len(inputs)])]
    return make_generic(cx.b, list(inputs), [init], list(in_maps) +
                        [AffineMap.identity(rank)], ["parallel"] * rank, fn, [init.type],
                        loc=cx.loc).results[0]
