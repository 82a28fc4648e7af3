"""Constants, scalars and tensor factories.

    torch.constant.int/float/bool   -> arith.constant (i64 / f64 / i1)
    torch.vtensor.literal           -> arith.constant of the same elements (signless)
    aten.size.int, aten.sym_size.int-> tensor.dim (+ index_cast to i64)
    aten.Int/Float/Bool.Tensor, item, prim.NumToTensor.Scalar, scalar_tensor
                                    -> tensor.extract / a 0-d tensor
    full, zeros, ones, empty (and their _like / new_ forms)
                                    -> linalg.fill of tensor.empty
    arange(.start, .start_step)     -> shape_ops.range_tensor

    %int6 = torch.constant.int 6
    %0 = torch.aten.zeros %list, %int6, %none, %cpu, %false : !torch.list<int>,
           !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[2],f32>
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ..onnx_to_linalg._index_check import all_of, any_of, assert_ok, nonnegative, when_ok
from ..onnx_to_linalg._linalg_util import filled
from ..onnx_to_linalg._shape_util import DYN, Ix, finish, sizes
from ..onnx_to_linalg.common import empty, ranked, scalars
from ..onnx_to_linalg.shape_ops import range_tensor
from ..scalar_builders import element_type, is_float
from . import DYNAMIC_ARG, NotLowerable, lowering

# ------------------------------------------------------------------ constants


@lowering("constant.int", "constant.float", "constant.bool")
def _constant(cx):
    t = cx.result_type()
    v = cx.op.properties["value"].value
    return [scalars(cx).const(v, t)]


@lowering("vtensor.literal")
def _literal(cx):
    """The literal's elements as an arith.constant of the builtin type (signless)."""
    attr = cx.op.properties["value"]
    rt = cx.result_type()
    if attr.type is not rt:
        if isinstance(attr, DenseResourceElementsAttr):
            attr = DenseResourceElementsAttr(rt, attr.handle)
        elif isinstance(attr, DenseElementsAttr):
            attr = DenseElementsAttr(rt, attr.array)
        else:
            raise NotLowerable(f"a literal of {attr}")
    return [scalars(cx).op1("arith.constant", [], rt, {"value": attr})]


@lowering("torch_c.from_builtin_tensor", "torch_c.to_builtin_tensor", "torch_c.from_i64",
          "torch_c.to_i64", "torch_c.from_f64", "torch_c.to_f64", "torch_c.from_i1",
          "torch_c.to_i1")
def _backend_cast(cx):
    """torch-mlir's casts between torch and builtin values (torch-externalize-weights
    loads weights through from_builtin_tensor): the converted value is the builtin one."""
    return [cx.operands[0]]


# ------------------------------------------------------------------ scalars


@lowering("aten.size.int", "aten.sym_size.int")
def _size(cx):
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    d = cx.int_(1, "dim")
    if not -r <= d < max(r, 1):
        raise NotLowerable(f"dim {d} out of range for rank {r}")
    n = sizes(cx, x)[d % r]
    s = scalars(cx)
    return [s.const(n, A.i64) if Ix.known(n) else s.cast(n, A.i64)]


@lowering("aten.Int.Tensor", "aten.Float.Tensor", "aten.Bool.Tensor", "aten.item",
          "aten._local_scalar_dense")
def _item(cx):
    x = cx.operands[0]
    t = ranked(cx, x.type)
    if any(d not in (1, DYN) for d in t.shape):
        raise NotLowerable("only a one-element tensor converts to a number")
    s = scalars(cx)
    v = s.op1("tensor.extract", [x] + [s.index(0)] * t.rank, t.element_type)
    unsigned = getattr(element_type(cx.orig_type(0)), "signedness", 0) == \
        A.IntegerType.UNSIGNED
    return [s.cast(v, cx.result_type(), not unsigned)]


@lowering("aten.Int.bool", "aten.Int.float", "aten.Int.Scalar", "aten.Float.Scalar",
          "aten.Float.int", "aten.Float.bool", "aten.Bool.int", "aten.Bool.float",
          "aten.ScalarImplicit")
def _scalar_cast(cx):
    """Python number conversions: int(bool) is 0/1, int(float) truncates, bool(x) is
    x != 0."""
    return [cx.scalar(0, cx.result_type())]


@lowering("prim.NumToTensor.Scalar", "aten.scalar_tensor")
def _num_to_tensor(cx):
    elt = element_type(cx.result_type())
    return [filled(cx, [], elt, cx.scalar(0, elt))]


# ------------------------------------------------------------------ factories


def _result_sizes(cx, given):
    """Mixed sizes of the result from its type, a dynamic dim taken from `given`."""
    rt = ranked(cx, cx.result_type(), "result")
    if len(given) != rt.rank:
        raise NotLowerable(f"{len(given)} sizes for a rank-{rt.rank} result")
    out = []
    for d, g in zip(rt.shape, given):
        if d != DYN:
            out.append(d)
        elif Ix.known(g):
            if g < 0:
                raise NotLowerable(f"negative size {g}")
            out.append(g)
        else:
            out.append(g)
    # a run-time size (a symbolic one, `.item()`'s) below 0: ATen's "Trying to create
    # tensor with negative dimension"; the sizes go to 0 after the failed check
    return when_ok(cx, nonnegative(cx, out, "the sizes"), out)


# factory -> (where its sizes are: a list argument's index, or "like" argument 0's;
#             the fill: a value argument's index, a constant, or None for empty)
_FACTORIES = {
    "aten.full": (0, ("arg", 1)), "aten.zeros": (0, 0), "aten.ones": (0, 1),
    "aten.empty.memory_format": (0, None), "aten.empty": (0, None),
    "aten.full_like": ("like", ("arg", 1)), "aten.zeros_like": ("like", 0),
    "aten.ones_like": ("like", 1), "aten.empty_like": ("like", None),
    "aten.new_full": (1, ("arg", 2)), "aten.new_zeros": (1, 0), "aten.new_ones": (1, 1),
    "aten.new_empty": (1, None),
    # a layout (permutation, strides) is no value: empty of the logical sizes (the
    # cosine-embedding loss's backward graph holds an empty_permuted)
    "aten.empty_permuted": (0, None), "aten.empty_strided": (0, None),
    "aten.new_empty_strided": (1, None),
}


@lowering(*_FACTORIES)
def _factory(cx):
    where, fill = _FACTORIES[cx.aten]
    given = sizes(cx, cx.operands[0]) if where == "like" else cx.sizes(where, "size")
    sz = _result_sizes(cx, given)
    elt = element_type(cx.result_type())
    if fill is None:
        return [finish(cx, empty(cx, sz, elt))]
    value = cx.scalar(fill[1], elt) if isinstance(fill, tuple) else \
        scalars(cx).const(fill, elt)
    return [finish(cx, filled(cx, sz, elt, value))]


@lowering("aten.arange", "aten.arange.start", "aten.arange.start_step")
def _arange(cx):
    """start + i * step for i < ceil((end - start) / step), in the result's element
    type: Range's builder (run-time bounds, such as symbolic sizes, checked there: a
    step of 0 and a count past int64 fail)."""
    from ..onnx_to_linalg.shape_ops import checked_range
    name = cx.aten
    idx = {"aten.arange": [None, 0, None], "aten.arange.start": [0, 1, None]}.get(
        name, [0, 1, 2])
    rt = ranked(cx, cx.result_type(), "result")
    elt = rt.element_type
    if not isinstance(elt, (A.IntegerType, A.FloatType)) or elt is A.i1:
        raise NotLowerable(f"arange of {elt}")
    s = scalars(cx)
    values, consts = [], []
    for k, i in enumerate(idx):
        v = (0 if k == 0 else 1) if i is None else cx.arg(i)
        if v is DYNAMIC_ARG:
            values.append(cx.scalar(i, elt))
            consts.append(None)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            values.append(s.const(float(v) if is_float(elt) else int(v), elt))
            consts.append(v)
        else:
            raise NotLowerable(f"arange's argument #{i} must be a number")
    n = None
    if not is_float(elt):
        # [Note: arange of an integer type]
        counted = [int(c) if isinstance(c, float) else c for c in consts]
        if counted[2] == 0:
            raise NotLowerable("arange's step must not be 0 (in the result's integers)")
        if None not in consts and elt.width != 64:
            n = max(math.ceil((consts[1] - consts[0]) / consts[2]), 0)
        consts = counted
    if consts[2] == 0:
        raise NotLowerable("arange's step must not be 0")
    if None not in consts and is_float(elt):
        # ATen counts in double: ceil((end - start) / step)
        n = max(math.ceil((consts[1] - consts[0]) / consts[2]), 0)
    if n is not None:
        if rt.shape[0] not in (DYN, n):
            raise NotLowerable(f"arange gives {n} elements where the result is typed {rt}")
        return [finish(cx, range_tensor(cx, values[0], values[2], [n], elt))]
    if None in consts:
        # ATen: "upper bound and lower bound inconsistent with step sign" (Range's
        # builder would give no element)
        z = s.zero(elt)
        start, end, step = values
        up = consts[2] > 0 if consts[2] is not None else s.cmp("gt", step, z)
        down = consts[2] < 0 if consts[2] is not None else s.cmp("lt", step, z)
        assert_ok(cx, any_of(cx, [all_of(cx, [up, s.cmp("ge", end, start)]),
                                  all_of(cx, [down, s.cmp("le", end, start)])]),
                  "upper bound and lower bound inconsistent with step sign")
    return [checked_range(cx, *values, consts)]


# [Note: arange of an integer type]
# An integer arange's Python-float arguments (`torch.arange(0, n, 1.0, dtype=torch.long)`,
# HF Funnel's positions) are what ATen's `Scalar.to<int64_t>()` makes of them, truncated
# towards zero: the start and the step of the values, and, for int64 results, of the
# count too (ceil((end - start) / step) on the truncated numbers: arange(0, 2.5, 1) is
# [0, 1]); the other integer types count in double on the arguments as given (three
# elements there: [0, 1, 2]). A step that truncates to 0 is refused, as ATen refuses it.
