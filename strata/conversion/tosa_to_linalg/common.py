"""What every TOSA lowering uses: the per-op context, empty tensors with their dynamic
sizes, broadcasting indexing maps, generic ops and constants.

Names: `cx` is the Lowering context, `s` a ScalarBuilder (arith/math by element type).
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.affine import AffineMap
from ..scalar_builders import ScalarBuilder, is_float, op_class
from ..scalar_builders import element_type as elt

DYN = A.DYNAMIC

__all__ = ["Lowering", "NotLowerable", "DYN", "ranked_type", "elt", "is_float", "dims",
           "empty", "fill", "identity_map", "broadcast_map", "generic", "const_ints",
           "const_scalar", "lowest", "highest", "reshape_groups", "expand", "collapse"]


class NotLowerable(Exception):
    """Raised by a lowering when this op instance cannot be lowered (with the reason)."""


class Lowering:
    """A lowering function's view of one op: the op, its converted operands, a rewriter
    positioned before it."""

    __slots__ = ("op", "operands", "b")

    def __init__(self, op, operands, rewriter):
        self.op = op
        self.operands = operands
        self.b = rewriter

    @property
    def loc(self):
        return self.op.loc

    @property
    def s(self) -> ScalarBuilder:
        return ScalarBuilder(self.b, self.op.loc)

    def result_type(self, i: int = 0):
        t = self.op.results[i].type
        if type(t) is not A.RankedTensorType:
            raise NotLowerable(f"result #{i} must be a ranked tensor, not {t}")
        return t

    def create(self, name, operands, result_types, props=None, regions=0):
        op = op_class(name).create(list(operands), list(result_types), props,
                                   regions=regions, loc=self.op.loc)
        return self.b.insert(op)

    def value(self, name, operands, result_type, props=None):
        return self.create(name, operands, [result_type], props).results[0]


def ranked_type(v, what="operand"):
    t = v.type
    if type(t) is not A.RankedTensorType:
        raise NotLowerable(f"{what} of type {t} must be a ranked tensor")
    return t


def check_signless(t):
    e = elt(t)
    if type(e) is A.IntegerType and e.signedness != A.IntegerType.SIGNLESS:
        raise NotLowerable(f"element type {e} is not signless (arith works on signless "
                           "integers)")


# ---------------------------------------------------------------- shapes


def dims(cx, v, sources=()):
    """The sizes of `v`'s ranked type: ints for static dims, `tensor.dim` index values
    for dynamic ones (taken from the first of `sources` + [v] whose dim is not a static
    1, so that broadcast operands give their real size)."""
    t = ranked_type(v)
    out = []
    for i, d in enumerate(t.shape):
        if d != DYN:
            out.append(d)
            continue
        src = v
        for o in list(sources) + [v]:
            ot = o.type
            if type(ot) is A.RankedTensorType and ot.rank == t.rank and ot.shape[i] != 1:
                src = o
                break
        out.append(cx.value("tensor.dim", [src, cx.s.index(i)], A.index))
    return out


def result_dims(cx, rt, sources):
    """Sizes of result type `rt`: static dims as ints, dynamic ones from `sources`."""
    out = []
    for i, d in enumerate(rt.shape):
        if d != DYN:
            out.append(d)
            continue
        src = next((o for o in sources if type(o.type) is A.RankedTensorType
                    and o.type.rank == rt.rank and o.type.shape[i] != 1), None)
        if src is None:
            raise NotLowerable(f"the size of dynamic result dim {i} is unknown")
        out.append(cx.value("tensor.dim", [src, cx.s.index(i)], A.index))
    return out


def empty(cx, sizes, et):
    """`tensor.empty` of mixed `sizes` (ints and index values)."""
    shape = [d if isinstance(d, int) else DYN for d in sizes]
    dyn = [d for d in sizes if not isinstance(d, int)]
    return cx.value("tensor.empty", dyn, A.RankedTensorType(shape, et))


def fill(cx, value, init):
    from ...dialects.linalg import FillOp
    return cx.b.insert(FillOp.new([value], [init], loc=cx.loc)).results[0]


# ---------------------------------------------------------------- generic ops


def identity_map(rank):
    return AffineMap.identity(rank)


def broadcast_map(operand_type, out_shape):
    """The map reading an operand of equal rank that broadcasts its static size-1 dims
    to `out_shape` (TOSA's broadcasting): `(d0, d1) -> (0, d1)`."""
    text = ", ".join("0" if d == 1 and o != 1 else f"d{i}"
                     for i, (d, o) in enumerate(zip(operand_type.shape, out_shape)))
    params = ", ".join(f"d{i}" for i in range(len(out_shape)))
    return f"({params}) -> ({text})"


def generic(cx, inputs, outputs, maps, iterators, body):
    """A linalg.generic whose payload `body(s, args)` gets a ScalarBuilder inside the
    payload block; returns the op's results."""
    from ...dialects.linalg import make_generic

    def payload(b, args):
        return body(ScalarBuilder(b, cx.loc), list(args))
    op = make_generic(cx.b, inputs, outputs, maps, iterators, payload, loc=cx.loc)
    return op.results


def parallel(rank):
    return ["parallel"] * rank


# ---------------------------------------------------------------- constants


def const_ints(v):
    """The values of a `tosa.const_shape` or integer constant operand, else None."""
    from ...dialects.tosa.base import const_elements, const_shape_values
    vals = const_shape_values(v)
    if vals is not None:
        return vals
    a = const_elements(v)
    if a is None:
        return None
    return [int(x) for x in np.asarray(a.array).reshape(-1)]


def const_scalar(v):
    """The first value of a constant tensor operand (a zero point), else None."""
    from ...dialects.tosa.base import const_elements
    a = const_elements(v)
    if a is None or a.num_elements == 0:
        return None
    x = np.asarray(a.array).reshape(-1)[0]
    return float(x) if is_float(a.type) else int(x)


def lowest(s, t):
    """The identity of max: the largest finite negative float (upstream's default without
    allow-non-finites), the smallest integer."""
    e = elt(t)
    if type(e) is A.FloatType:
        return s.const(-_float_max(e), e)
    if e.width == 1:
        return s.const(0, e)
    return s.const(-(1 << (e.width - 1)), e)


def highest(s, t):
    e = elt(t)
    if type(e) is A.FloatType:
        return s.const(_float_max(e), e)
    if e.width == 1:
        return s.const(1, e)
    return s.const((1 << (e.width - 1)) - 1, e)


def _float_max(e):
    import ml_dtypes
    dt = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
          "bf16": ml_dtypes.bfloat16}.get(e.name)
    if dt is None:
        raise NotLowerable(f"no largest finite value known for {e}")
    return float(ml_dtypes.finfo(dt).max) if dt is ml_dtypes.bfloat16 else \
        float(np.finfo(dt).max)


# ---------------------------------------------------------------- reshapes


def reshape_groups(src, dst):
    """Reassociation groups collapsing static shape `src` into `dst` (each dst dim the
    product of consecutive src dims; trailing 1s join the last group), or None."""
    groups, i = [], 0
    for d in dst:
        g, n = [], 1
        while i < len(src) and not (g and n == d):
            n *= src[i]
            g.append(i)
            i += 1
        if n != d or not g:
            return None
        groups.append(g)
    rest = list(range(i, len(src)))
    if rest:
        if any(src[j] != 1 for j in rest):
            return None
        if groups:
            groups[-1].extend(rest)
    return groups


def _reassociation(groups):
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g]) for g in groups])


def collapse(cx, v, groups, rt):
    return cx.value("tensor.collapse_shape", [v], rt, {"reassociation": _reassociation(groups)})


def expand(cx, v, groups, rt, sizes=None):
    """tensor.expand_shape to `rt`; `sizes` (ints and index values) give its dynamic
    dims."""
    dyn = []
    if not rt.has_static_shape:
        if sizes is None:
            raise NotLowerable("expanding to a dynamic shape of unknown sizes")
        dyn = [d for d, r in zip(sizes, rt.shape) if r == DYN]
        if any(isinstance(d, int) for d in dyn):
            raise NotLowerable("expanding to a dynamic dim of known size")
    return cx.value("tensor.expand_shape", [v] + dyn, rt,
                    {"reassociation": _reassociation(groups),
                     "static_output_shape": A.DenseArrayAttr(A.i64, list(rt.shape))})
