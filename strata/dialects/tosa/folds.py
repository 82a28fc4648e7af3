"""TOSA folders and canonicalization patterns (upstream's TosaCanonicalizations.cpp).

Folders forward a value or compute a constant; patterns rewrite. With `--canonicalize`:

    %z = "tosa.const"() <{values = dense<0> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
    %r = tosa.add %x, %z : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %s = tosa.select %p, %r, %r : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>)
           -> tensor<2x3xi32>

becomes `%x` (add of zero, then select of identical operands). Folders: add, sub, mul,
intdiv, comparisons, cast, select, negate, abs, argmax, reductions, reshape, pad,
resize, reverse, slice, tile, transpose, concat. Patterns: select of logical_not,
clamp (full range, clamp of clamp), concat of one tensor, transposes, 1x1 max_pool2d,
integer cast chains, slices of concat / pad, static slice sizes, and a pad folded into
conv2d / depthwise_conv2d / max_pool2d. `install` attaches each `fold` and
`canonicalization_patterns` to its op class; the op classes stay declarative.

[Note: tosa constant folds]
As upstream, binary ops fold constants only when both operands are splats (a dense
tensor is never computed element by element here), and add / sub give up on integer
overflow. `mul` of i32 data applies its `shift` (round half up, then the result must fit
in i32). Forwarding folds (add of zero, mul by one) need the forwarded operand to have
the result type exactly, so a broadcasting op is never replaced by a smaller value. A
constant of another shape is only made for a static result shape.
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ...ir.builder import InsertionPoint
from ...ir.dense import DenseElementsAttr, DenseStringElementsAttr
from .. import constant_fold as F
from . import base as B
from .base import DYN, elt, ranked


def _dense(a):
    return isinstance(a, DenseElementsAttr) and not isinstance(a, DenseStringElementsAttr)


def _splat(a):
    """The splat element of a dense attribute as a Python value (float types: a
    FloatAttr), or None."""
    if not _dense(a) or not a.is_splat:
        return None
    if isinstance(a.element_type, A.FloatType):
        return F._values_splat(a)
    return int(a.splat_value)


def _largest(t) -> float:
    """APFloat::getLargest of a float kind that is a Python float."""
    import numpy as np
    if t.name in ("f16", "f32", "f64"):
        return float(np.finfo({"f16": np.float16, "f32": np.float32,
                               "f64": np.float64}[t.name]).max)
    return F.float_of(_max_finite_bits(t), t)


def _max_finite_bits(t) -> int:
    """The bit pattern of the largest finite value of float kind `t` (searched down from
    the exponent's top, as kinds differ in how they spend it on inf / NaN)."""
    top = (1 << (t.width - 1)) - 1
    for bits in range(top, max(0, top - 4096), -1):
        v = F.float_of(bits, t)
        if v == v and v != math.inf:
            return bits
    return 0


def _defined_by(v, name):
    """The op defining `v` if it is a `name` op (getDefiningOp<...>), else None."""
    d = v.defining_op
    return d if d is not None and d.name == name else None


def _static(t) -> bool:
    return isinstance(t, A.RankedTensorType) and t.has_static_shape


def _int_or_float(t) -> bool:
    return isinstance(t, (A.IntegerType, A.IndexType, A.FloatType))


def _is_splat_zero(et, a) -> bool:
    v = _splat(a)
    if v is None:
        return False
    if isinstance(et, A.FloatType):
        return isinstance(v, A.FloatAttr) and v.value == 0.0
    if isinstance(et, A.IntegerType):
        return not isinstance(v, A.FloatAttr) and v == 0
    return False


def _is_splat_one(et, a, shift=0) -> bool:
    v = _splat(a)
    if v is None:
        return False
    if isinstance(et, A.FloatType):
        return isinstance(v, A.FloatAttr) and v.value == 1.0
    if isinstance(et, A.IntegerType) and not isinstance(v, A.FloatAttr):
        return F.sint(v, a.element_type.width) == 1 << shift
    return False


def _resized(a, t):
    """A splat attribute `a` as a constant of type `t` (DenseElementsAttr::resizeSplat)."""
    v = _splat(a)
    return F.make_splat(v if isinstance(v, A.FloatAttr) else A.IntegerAttr(v, elt(t)), t)


def _int_result(v: int, et):
    """`v` wrapped to `et`'s width, read as `et` reads it (unsigned or signed)."""
    w = et.width
    return F.uint(v, w) if et.signedness == A.IntegerType.UNSIGNED else F.sint(v, w)


def _splat_binary(lhs, rhs, result_type, int_fn, float_op):
    """binaryFolder: both operands splats of one element type, a static result (see
    [Note: tosa constant folds])."""
    if not (_dense(lhs) and _dense(rhs) and lhs.is_splat and rhs.is_splat):
        return None
    et = lhs.element_type
    if et is not rhs.element_type or not _static(result_type):
        return None
    if isinstance(et, A.FloatType):
        r = F.float_binary_fn(float_op)(F._values_splat(lhs), F._values_splat(rhs))
        if r is None:
            return None
        if result_type.element_type is A.i1:  # comparisons
            return None
        return F.make_splat(r, result_type)
    if not isinstance(et, A.IntegerType):
        return None
    unsigned = et.signedness == A.IntegerType.UNSIGNED
    w = et.width
    read = F.uint if unsigned else F.sint
    r = int_fn(read(int(lhs.splat_value), w), read(int(rhs.splat_value), w), et)
    if r is None:
        return None
    rt = result_type.element_type
    return DenseElementsAttr(result_type, _int_result(int(r), rt) if rt is not A.i1
                             else bool(r))


def _checked(fn):
    """An integer op that gives up when the exact result does not fit the type."""
    def run(x, y, et):
        r = fn(x, y)
        w = et.width
        if et.signedness == A.IntegerType.UNSIGNED:
            ok = 0 <= r < 1 << w
        else:
            ok = -(1 << (w - 1)) <= r < 1 << (w - 1)
        return r if ok else None
    return run


def _compare_splats(lhs, rhs, result_type, int_cmp, float_cmp):
    """Comparison folds of two splats to an i1 splat."""
    if not (_dense(lhs) and _dense(rhs) and lhs.is_splat and rhs.is_splat):
        return None
    et = lhs.element_type
    if et is not rhs.element_type or not _static(result_type):
        return None
    if isinstance(et, A.FloatType):
        x, y = F._values_splat(lhs).value, F._values_splat(rhs).value
        return DenseElementsAttr(result_type, bool(float_cmp(x, y)))
    if isinstance(et, A.IntegerType):
        w = et.width
        read = F.uint if et.signedness == A.IntegerType.UNSIGNED else F.sint
        return DenseElementsAttr(result_type, bool(int_cmp(read(int(lhs.splat_value), w),
                                                           read(int(rhs.splat_value), w))))
    return None


# ---------------------------------------------------------------- elementwise folds


def _fold_add(op, operands):
    lt, rt, ot = op.input1.type, op.input2.type, op.output.type
    if not (ranked(lt) and ranked(rt) and ranked(ot)):
        return None
    if not (_int_or_float(elt(lt)) and _int_or_float(elt(rt))):
        return None
    la, ra = operands[0], operands[1]
    if lt is ot and _is_splat_zero(elt(ot), ra):
        return op.input1
    if rt is ot and _is_splat_zero(elt(ot), la):
        return op.input2
    return _splat_binary(la, ra, ot, _checked(lambda x, y: x + y), lambda x, y: x + y)


def _fold_sub(op, operands):
    lt, rt, ot = op.input1.type, op.input2.type, op.output.type
    if not (ranked(lt) and ranked(rt) and ranked(ot)):
        return None
    if not (_int_or_float(elt(lt)) and _int_or_float(elt(rt))):
        return None
    la, ra = operands[0], operands[1]
    if lt is ot and _is_splat_zero(elt(ot), ra):
        return op.input1
    return _splat_binary(la, ra, ot, _checked(lambda x, y: x - y), lambda x, y: x - y)


def _mul_int(x, y, shift, et):
    """mulInt: x * y, then with a shift, rounded (+ 1 << (shift - 1)) and shifted, the
    result must be an i32."""
    r = x * y
    if shift > 0:
        r = (r + (1 << (shift - 1))) >> shift
        if not -(1 << 31) <= r < 1 << 31:
            return None
    return _int_result(r, et)


def _fold_mul(op, operands):
    lt, rt, ot = op.input1.type, op.input2.type, op.output.type
    if not (ranked(lt) and ranked(rt) and ranked(ot)):
        return None
    et = elt(ot)
    la, ra = operands[0], operands[1]
    shift = 0
    if et is A.i32:
        s = operands[2]
        if not _dense(s) or s.num_elements < 1:
            return None  # the shift is not known
        shift = int(s.array.reshape(-1)[0])
    if rt is ot:
        if _is_splat_zero(et, la) and _static(ot):
            return _resized(la, ot)
        if _is_splat_one(et, la, shift):
            return op.input2
    if lt is ot:
        if _is_splat_zero(et, ra) and _static(ot):
            return _resized(ra, ot)
        if _is_splat_one(et, ra, shift):
            return op.input1
    if not (_dense(la) and _dense(ra) and la.is_splat and ra.is_splat):
        return None
    if not _static(ot):
        return None
    if isinstance(et, A.IntegerType):
        lv, rv = _splat(la), _splat(ra)
        if isinstance(lv, A.FloatAttr) or isinstance(rv, A.FloatAttr):
            return None
        x = F.sint(lv, la.element_type.width)
        y = F.sint(rv, ra.element_type.width)
        r = _mul_int(x, y, shift, et)
        return None if r is None else DenseElementsAttr(ot, r if et is not A.i1 else bool(r))
    if isinstance(et, A.FloatType):
        if la.element_type is not et or ra.element_type is not et:
            return None
        r = F.float_binary_fn(lambda x, y: x * y)(F._values_splat(la), F._values_splat(ra))
        return None if r is None else F.make_splat(r, ot)
    return None


def _fold_intdiv(op, operands):
    lt, rt, ot = op.input1.type, op.input2.type, op.output.type
    if not (ranked(lt) and ranked(rt) and ranked(ot)) or lt is not rt:
        return None
    et = elt(ot)
    if not isinstance(et, A.IntegerType):
        return None
    la, ra = operands[0], operands[1]
    lv, rv = _splat(la), _splat(ra)
    # (0 / x is left alone: iree-opt's upstream does not fold it)
    if rv is not None and F.sint(rv, ra.element_type.width) == 1:
        return op.input1
    if lv is not None and rv is not None and rv != 0 and _static(ot):
        x, y = F.sint(lv, et.width), F.sint(rv, et.width)
        q = abs(x) // abs(y)
        return DenseElementsAttr(ot, _int_result(q if (x < 0) == (y < 0) else -q, et))
    return None


def _fold_greater(op, operands):
    return _compare_splats(operands[0], operands[1], op.output.type,
                           lambda x, y: x > y, lambda x, y: x > y)


def _fold_greater_equal(op, operands):
    return _compare_splats(operands[0], operands[1], op.output.type,
                           lambda x, y: x >= y, lambda x, y: x >= y)


def _fold_equal(op, operands):
    ot = op.output.type
    if isinstance(elt(op.input1.type), A.IntegerType) and _static(ot) and \
            op.input1 is op.input2:
        return DenseElementsAttr(ot, True)
    return _compare_splats(operands[0], operands[1], ot,
                           lambda x, y: x == y, lambda x, y: x == y)


def _round_half_even_to_int(x: float, et):
    """APFloat::convertToInteger (nearest-even), saturating; NaN gives 0."""
    w = et.width
    unsigned = et.signedness == A.IntegerType.UNSIGNED
    lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    if x != x:
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    return min(max(round(x), lo), hi)


def _fold_cast(op, operands):
    it, ot = op.input.type, op.output.type
    if it is ot:
        return op.input
    a = operands[0]
    v = _splat(a)
    if v is None or not _static(ot):
        return None
    ie, oe = elt(it), elt(ot)
    if isinstance(ie, A.FloatType) and isinstance(oe, A.FloatType):
        if not F.foldable_float(ie) or not F.foldable_float(oe):
            return None
        r = F.float_attr(v.value, oe)
        return None if r is None else F.make_splat(r, ot)
    if isinstance(ie, A.IntegerType) and isinstance(oe, A.FloatType):
        x = F.uint(v, ie.width) if ie.signedness == A.IntegerType.UNSIGNED \
            else F.sint(v, ie.width)
        r = F.to_float_exact(x, oe)
        return None if r is None else F.make_splat(r, ot)
    if isinstance(ie, A.FloatType) and isinstance(oe, A.IntegerType):
        if not F.foldable_float(ie):
            return None
        r = _round_half_even_to_int(v.value, oe)
        return DenseElementsAttr(ot, bool(r) if oe is A.i1 else r)
    if isinstance(ie, A.IntegerType) and isinstance(oe, A.IntegerType):
        bits = F.uint(v, ie.width)
        if oe.width == 1:
            return DenseElementsAttr(ot, bits != 0)
        if ie.width > oe.width:
            r = bits
        elif ie.signedness == A.IntegerType.UNSIGNED or ie.width == 1:
            r = bits
        else:
            r = F.sint(bits, ie.width)
        return DenseElementsAttr(ot, _int_result(r, oe))
    return None


def _may_require_broadcast(op) -> bool:
    types = [o.value.type for o in op._operands]
    if any(not _static(t) for t in types):
        return True
    return any(t.shape != types[0].shape for t in types)


def _fold_select(op, operands):
    if _may_require_broadcast(op):
        return None
    if op.input2 is op.input3:
        return op.input2
    p = operands[0]
    if not _dense(p) or not isinstance(p.element_type, A.IntegerType) or not p.is_splat:
        return None
    return op.input2 if int(p.splat_value) else op.input3


def _zero_zps(op) -> bool:
    return B.zero_point(op.input1_zp) == 0 and B.zero_point(op.output_zp) == 0


def _fold_negate(op, operands):
    inner = _defined_by(op.input1, "tosa.negate")
    if inner is None:
        return None
    if not (_zero_zps(op) and _zero_zps(inner)):
        return None
    return inner.input1


def _fold_abs(op, operands):
    if _defined_by(op.input1, "tosa.abs") is not None:
        return op.input1
    return None


# ---------------------------------------------------------------- data layout folds


def _fold_reduce(op, operands):
    it = op.input.type
    if not ranked(it) or it is not op.output.type:
        return None
    axis = op.axis.value
    if it.rank == 0 or (0 <= axis < it.rank and it.shape[axis] == 1):
        return op.input
    return None


def _fold_argmax(op, operands):
    it, ot = op.input.type, op.output.type
    if not (_static(it) and _static(ot)):
        return None
    et = elt(ot)
    axis = op.axis.value
    if 0 <= axis < it.rank and it.shape[axis] == 1 and isinstance(et, A.IntegerType):
        return DenseElementsAttr(ot, False if et is A.i1 else 0)
    return None


def _fold_reshape(op, operands):
    it, ot = op.input1.type, op.output.type
    if not (isinstance(it, A.RankedTensorType) and isinstance(ot, A.RankedTensorType)):
        return None
    if it is ot and sum(1 for d in it.shape if d == DYN) < 2:
        return op.input1
    inner = _defined_by(op.input1, "tosa.reshape")
    if inner is not None:
        # reshape(reshape(x)) -> reshape(x), in place
        op.set_operand(0, inner.input1)
        return op.output
    if not _int_or_float(elt(it)):
        return None
    a = operands[0]
    if not _dense(a) or not ot.has_static_shape:
        return None
    if a.is_splat:
        return _resized(a, ot)
    if not op.input1.has_one_use():
        return None  # don't duplicate other constants
    shape = B.const_shape_values(op.shape)
    if shape is None:
        return None
    try:
        return DenseElementsAttr.from_raw(A.RankedTensorType(shape, a.element_type), a.raw)
    except ValueError:
        return None


def _fold_pad(op, operands):
    p = operands[1]
    if p is not None and op.input1.type is op.output.type and _dense(p) and p.is_splat \
            and int(p.splat_value) == 0:
        return op.input1
    return None


def _fold_resize(op, operands):
    scale, offset, border = operands[1], operands[2], operands[3]
    if not (_dense(scale) and _dense(offset) and _dense(border)):
        return None
    s = [int(x) for x in scale.array.reshape(-1)]
    o = [int(x) for x in offset.array.reshape(-1)]
    b = [int(x) for x in border.array.reshape(-1)]
    if len(s) != 4 or len(o) != 2 or len(b) != 2:
        return None
    if s[0] != s[1] or s[2] != s[3] or any(o) or any(b):
        return None
    if op.input.type is not op.output.type:
        return None
    return op.input


def _fold_reverse(op, operands):
    a = operands[0]
    if _dense(a) and a.is_splat:
        return op.input1  # the constant itself (its op and location stay)
    t = op.input1.type
    axis = op.axis.value
    if ranked(t) and (t.rank == 0 or (0 <= axis < t.rank and t.shape[axis] == 1)):
        return op.input1
    return None


def _fold_slice(op, operands):
    it, ot = op.input1.type, op.output.type
    if not (isinstance(it, A.RankedTensorType) and isinstance(ot, A.RankedTensorType)):
        return None
    if it is ot and it.has_static_shape:
        return op.input1
    a = operands[0]
    if not _dense(a) or not (_int_or_float(elt(it)) and _int_or_float(elt(ot))):
        return None
    if a.is_splat and ot.has_static_shape:
        return _resized(a, ot)
    if it.has_static_shape and ot.has_static_shape and ot.num_elements == 1:
        start = operands[1]
        if not _dense(start):
            return None
        idx = tuple(int(x) for x in start.array.reshape(-1))
        if len(idx) != it.rank or any(not 0 <= i < d for i, d in zip(idx, it.shape)):
            return None
        flat = 0
        for i, d in zip(idx, it.shape):
            flat = flat * d + i
        k = len(a.raw) // a.num_elements
        return DenseElementsAttr.from_raw(ot, a.raw[flat * k:(flat + 1) * k])
    return None


def _fold_tile(op, operands):
    m = operands[1]
    if op.input1.type is op.output.type and _dense(m) and \
            all(int(x) == 1 for x in m.array.reshape(-1)):
        return op.input1
    return None


def _fold_transpose(op, operands):
    ot = op.output.type
    a = operands[0]
    if _dense(a) and a.is_splat and _static(ot) and a.element_type is elt(ot):
        return _resized(a, ot)
    perms = list(op.perms.value)
    if perms != list(range(len(perms))):
        return None
    return op.input1


def _fold_concat(op, operands):
    """Consecutive concats on one axis become one (in place)."""
    axis = op.axis.value
    new, found = [], False
    for o in op._operands:
        v = o.value
        inner = v.defining_op
        if inner is not None and inner.name == "tosa.concat" and inner.axis.value == axis:
            found = True
            new.extend(x.value for x in inner._operands)
        else:
            new.append(v)
    if not found:
        return None
    op.set_operands(new)
    return op.output


# ---------------------------------------------------------------- patterns


def _const_shape(rewriter, values, loc):
    """getTosaConstShape: a tosa.const_shape of `values`."""
    from .data_ops import ConstShapeOp
    n = len(values)
    return rewriter.create(ConstShapeOp, values=DenseElementsAttr(
        A.RankedTensorType([n], A.index), list(values)), output=B.ShapeType(n),
        loc=loc).results[0]


def _patterns():
    from ...rewrite.pattern import RewritePattern
    from . import data_ops as D
    from . import elementwise as E
    from . import tensor_ops as TO

    class SelectOfNot(RewritePattern):
        """select(logical_not(p), a, b) -> select(p, b, a)."""
        root = "tosa.select"

        def match_and_rewrite(self, op, rewriter):
            n = _defined_by(op.input1, "tosa.logical_not")
            if n is None:
                return False
            p, a, b = n.input1, op.input2, op.input3
            rewriter.modify_op_in_place(op, lambda: op.set_operands([p, b, a]))
            return True

    class ClampIsNoOp(RewritePattern):
        """A clamp to the whole range of its type is its input."""
        root = "tosa.clamp"

        def match_and_rewrite(self, op, rewriter):
            t = op.input.type
            if not isinstance(t, A.RankedTensorType):
                return False
            et = t.element_type
            lo, hi = op.min_val, op.max_val
            if isinstance(et, A.FloatType):
                if not (lo.value == -math.inf and hi.value == math.inf):
                    return False
            elif isinstance(et, A.IntegerType):
                w = et.width
                if et.signedness == A.IntegerType.UNSIGNED or w == 1:
                    a, b, tmin, tmax = F.uint(lo.value, w), F.uint(hi.value, w), 0, \
                        (1 << w) - 1
                else:
                    a, b = F.sint(lo.value, w), F.sint(hi.value, w)
                    tmin, tmax = -(1 << (w - 1)), (1 << (w - 1)) - 1
                if not (a <= tmin and b >= tmax):
                    return False
            else:
                return False
            rewriter.replace_op(op, [op.input])
            return True

    class ClampOfClamp(RewritePattern):
        """clamp(clamp(x, a, b), c, d) -> clamp(x, max(a, c), min(b, d)) when the ranges
        intersect and the NaN modes combine (not IGNORE outside PROPAGATE)."""
        root = "tosa.clamp"

        def match_and_rewrite(self, op, rewriter):
            inner = _defined_by(op.input, "tosa.clamp")
            if inner is None:
                return False
            outer_mode = B.enum_value(op.nan_mode) or "PROPAGATE"
            inner_mode = B.enum_value(inner.nan_mode) or "PROPAGATE"
            if outer_mode == "IGNORE" and inner_mode == "PROPAGATE":
                return False
            et = elt(inner.input.type)
            if isinstance(et, A.FloatType):
                a, b = op.min_val.value, op.max_val.value
                c, d = inner.min_val.value, inner.max_val.value
                if not (a < d and c < b):
                    return False
                lo = op.min_val if a >= c else inner.min_val
                hi = op.max_val if b <= d else inner.max_val
                lo, hi = A.FloatAttr(lo.value, et), A.FloatAttr(hi.value, et)
            elif isinstance(et, A.IntegerType):
                w = et.width
                read = F.uint if et.signedness == A.IntegerType.UNSIGNED else F.sint
                a, b = read(op.min_val.value, w), read(op.max_val.value, w)
                c, d = read(inner.min_val.value, w), read(inner.max_val.value, w)
                if not (a < d and c < b):
                    return False
                lo, hi = A.IntegerAttr(max(a, c), et), A.IntegerAttr(min(b, d), et)
            else:
                return False
            mode = "IGNORE" if outer_mode != inner_mode else outer_mode
            rewriter.replace_op_with_new(op, E.ClampOp, input=inner.input, min_val=lo,
                                         max_val=hi, nan_mode=B.NAN_MODE(mode),
                                         output=op.output.type)
            return True

    class ConcatOfOne(RewritePattern):
        """A concat of one tensor is that tensor (a tensor.cast to another type)."""
        root = "tosa.concat"

        def match_and_rewrite(self, op, rewriter):
            if len(op._operands) != 1:
                return False
            v = op._operands[0].value
            if v.type is not op.output.type:
                from ..tensor import CastOp
                rewriter.replace_op_with_new(op, CastOp, source=v, dest=op.output.type)
            else:
                rewriter.replace_op(op, [v])
            return True

    class TransposeOfTranspose(RewritePattern):
        """transpose(transpose(x, p), q) -> transpose(x, p[q])."""
        root = "tosa.transpose"

        def match_and_rewrite(self, op, rewriter):
            inner = _defined_by(op.input1, "tosa.transpose")
            if inner is None:
                return False
            q, p = list(op.perms.value), list(inner.perms.value)
            if len(q) != len(p) or not q:
                return False
            perms = A.DenseArrayAttr(A.i32, [p[i] for i in q])
            rewriter.replace_op_with_new(op, D.TransposeOp, input1=inner.input1,
                                         perms=perms, output=op.output.type)
            return True

    class TransposeIsReshape(RewritePattern):
        """A transpose that only moves size-1 dims (one dynamic dim at most) is a
        reshape."""
        root = "tosa.transpose"

        def match_and_rewrite(self, op, rewriter):
            if _defined_by(op.input1, "tosa.transpose") is not None:
                return False
            if any(u.name == "tosa.transpose" for u in op.output.users):
                return False
            t = op.input1.type
            if not isinstance(t, A.RankedTensorType):
                return False
            if sum(1 for d in t.shape if d == DYN) > 1:
                return False
            perms = list(op.perms.value)
            moved = [i for i in perms if t.shape[i] != 1]
            if any(moved[k - 1] > moved[k] for k in range(1, len(moved))):
                return False
            shape = [t.shape[i] for i in perms]
            rewriter.ip = InsertionPoint.before_op(op)
            s = _const_shape(rewriter, shape, op.loc)
            rewriter.replace_op_with_new(op, D.ReshapeOp, input1=op.input1, shape=s,
                                         output=op.output.type)
            return True

    class MaxPool2dIsNoOp(RewritePattern):
        """A max_pool2d of a static 1x1 image to a 1x1 image is its input."""
        root = "tosa.max_pool2d"

        def match_and_rewrite(self, op, rewriter):
            it, ot = op.input.type, op.output.type
            if not (_static(it) and _static(ot)):
                return False
            if ot.shape[1] != 1 or ot.shape[2] != 1 or it.shape[1] != 1 or \
                    it.shape[2] != 1:
                return False
            rewriter.replace_op(op, [op.input])
            return True

    class NonNarrowingCasts(RewritePattern):
        """cast(cast(x)) of integers -> cast(x) when neither cast narrows x."""
        root = "tosa.cast"

        def match_and_rewrite(self, op, rewriter):
            inner = _defined_by(op.input, "tosa.cast")
            if inner is None:
                return False
            x = inner.input
            ts = (elt(x.type), elt(inner.output.type), elt(op.output.type))
            if not all(isinstance(t, A.IntegerType) for t in ts):
                return False
            if ts[0].width > ts[1].width or ts[0].width > ts[2].width:
                return False
            # (the builder sets input_unsigned to its default, which then prints)
            rewriter.replace_op_with_new(op, E.CastOp, input=x, output=op.output.type,
                                         input_unsigned=A.BoolAttr(False))
            return True

    class SliceDynamicSize(RewritePattern):
        """A -1 size of a slice whose result dim is static becomes that size."""
        root = "tosa.slice"

        def match_and_rewrite(self, op, rewriter):
            sizes = B.const_shape_values(op.size)
            rt = op.output.type
            if sizes is None or not isinstance(rt, A.RankedTensorType):
                return False
            new = [rt.shape[i] if s == -1 and rt.shape[i] != DYN else s
                   for i, s in enumerate(sizes)]
            if new == sizes:
                return False
            rewriter.ip = InsertionPoint.before_op(op)
            s = _const_shape(rewriter, new, op.loc)
            rewriter.replace_op_with_new(op, D.SliceOp, input1=op.input1, start=op.start,
                                         size=s, output=rt)
            return True

    class ConcatSlice(RewritePattern):
        """A slice of a static concat that lies within one of its inputs slices that
        input."""
        root = "tosa.slice"

        def match_and_rewrite(self, op, rewriter):
            concat = _defined_by(op.input1, "tosa.concat")
            if concat is None:
                return False
            ct = concat.output.type
            if not _static(ct):
                return False
            axis = concat.axis.value
            starts = B.const_shape_values(op.start)
            sizes = B.const_shape_values(op.size)
            if starts is None or sizes is None:
                return False
            for o in concat._operands:
                v = o.value
                if not _static(v.type):
                    return False
                d = v.type.shape[axis]
                if starts[axis] >= 0 and starts[axis] + sizes[axis] <= d:
                    rewriter.ip = InsertionPoint.before_op(op)
                    st = _const_shape(rewriter, starts, op.loc)
                    sz = _const_shape(rewriter, sizes, op.loc)
                    rewriter.replace_op_with_new(op, D.SliceOp, input1=v, start=st,
                                                 size=sz, output=op.output.type)
                    return True
                starts[axis] -= d
            return False

    def pad_const_matches_zp(pad_const, zp) -> bool:
        """checkMatchingPadConstAndZp: a float pad of 0, an int pad equal to the zp."""
        a = B.const_elements(pad_const)
        if a is None or a.num_elements != 1:
            return False
        et = a.element_type
        if isinstance(et, A.FloatType):
            return F._values_splat(a).value == 0.0 if a.is_splat else \
                float(a.array.reshape(-1)[0]) == 0.0
        if isinstance(et, A.IntegerType):
            z = B.const_elements(zp)
            if z is None or z.num_elements < 1:
                return False
            return int(z.array.reshape(-1)[0]) == int(a.array.reshape(-1)[0])
        return False

    def pad_const_is_lowest(pad_const) -> bool:
        """The pad of a max pool must be the lowest value of its type."""
        a = B.const_elements(pad_const)
        if a is None or a.num_elements != 1:
            return False
        et = a.element_type
        if isinstance(et, A.FloatType):
            v = F._values_splat(a) if a.is_splat else None
            if v is None or not F.foldable_float(et):
                return False
            return v.value == -_largest(et)
        if isinstance(et, A.IntegerType):
            w = et.width
            x = int(a.array.reshape(-1)[0])
            if et.signedness == A.IntegerType.UNSIGNED:
                return F.uint(x, w) == 0
            return F.sint(x, w) == -(1 << (w - 1))
        return False

    class FoldPadIntoOp(RewritePattern):
        """A tosa.pad of H and W (constant padding, a neutral pad value) folds into the
        implicit padding of the conv2d / depthwise_conv2d / max_pool2d it feeds."""

        def __init__(self, root):
            self.root = root

        def match_and_rewrite(self, op, rewriter):
            pad = _defined_by(op.input, "tosa.pad")
            if pad is None:
                return False
            cur = list(op.pad.value)
            if len(cur) != 4:
                return False
            pp = B.const_shape_values(pad.padding)
            if pp is None or len(pp) != 8:
                return False
            if pp[0] or pp[1] or pp[6] or pp[7]:
                return False
            new = [pp[2] + cur[0], pp[3] + cur[1], pp[4] + cur[2], pp[5] + cur[3]]
            pooling = op.name == "tosa.max_pool2d"
            if pooling:
                k = list(op.kernel.value)
                if new[2] >= k[1] or new[3] >= k[1] or new[0] >= k[0] or new[1] >= k[0]:
                    return False
                if not pad_const_is_lowest(pad.pad_const):
                    return False
            elif not pad_const_matches_zp(pad.pad_const, op.input_zp):
                return False
            if any(v > 8192 for v in new):
                return False
            new_pad = A.DenseArrayAttr(A.i64, new)
            if pooling:
                rewriter.replace_op_with_new(
                    op, TO.MaxPool2dOp, input=pad.input1, kernel=op.kernel,
                    stride=op.stride, pad=new_pad, nan_mode=op.nan_mode,
                    output=op.output.type)
            else:
                lb = op.properties.get("local_bound") or A.BoolAttr(False)
                rewriter.replace_op_with_new(
                    op, type(op), input=pad.input1, weight=op.weight, bias=op.bias,
                    input_zp=op.input_zp, weight_zp=op.weight_zp, pad=new_pad,
                    stride=op.stride, dilation=op.dilation, acc_type=op.acc_type,
                    local_bound=lb, output=op.output.type)
            return True

    class PadSlice(RewritePattern):
        """A slice of a single-use pad pads only what the slice keeps."""
        root = "tosa.slice"

        def match_and_rewrite(self, op, rewriter):
            pad = _defined_by(op.input1, "tosa.pad")
            if pad is None or not pad.output.has_one_use():
                return False
            it, pt = pad.input1.type, pad.output.type
            if not (isinstance(it, A.RankedTensorType) and isinstance(pt, A.RankedTensorType)):
                return False
            pp = B.const_shape_values(pad.padding)
            starts = B.const_shape_values(op.start)
            sizes = B.const_shape_values(op.size)
            if pp is None or starts is None or sizes is None:
                return False
            rank = it.rank
            if any(it.shape[i] == DYN and (starts[i] != 0 or sizes[i] != -1)
                   for i in range(rank)):
                return False
            new_starts, new_pp, new_shape = [0] * rank, [0] * (2 * rank), [DYN] * rank
            updated = False
            for i in range(rank):
                lo, hi = pp[2 * i], pp[2 * i + 1]
                st, sz = starts[i], sizes[i]
                if it.shape[i] == DYN:
                    new_pp[2 * i], new_pp[2 * i + 1], new_starts[i] = lo, hi, st
                    continue
                d = it.shape[i]
                end = st + sz
                if st < 0 or end > lo + d + hi:
                    return False
                new_starts[i] = max(st - lo, 0)
                updated |= new_starts[i] != st
                nlo, nhi = max(lo - st, 0), max(end - (lo + d), 0)
                new_pp[2 * i], new_pp[2 * i + 1] = nlo, nhi
                updated |= nlo != lo or nhi != hi
                new_shape[i] = nlo + d + nhi
            if not updated:
                return False
            paddings = _const_shape(rewriter, new_pp, op.loc)
            new_pad = rewriter.create(
                D.PadOp, input1=pad.input1, padding=paddings, pad_const=pad.pad_const,
                output=A.RankedTensorType(new_shape, it.element_type), loc=pad.loc)
            st = _const_shape(rewriter, new_starts, op.loc)
            rewriter.replace_op_with_new(op, D.SliceOp, input1=new_pad.results[0], start=st,
                                         size=op.size, output=op.output.type)
            return True

    return {
        "tosa.select": [SelectOfNot()],
        "tosa.clamp": [ClampIsNoOp(), ClampOfClamp()],
        "tosa.concat": [ConcatOfOne()],
        "tosa.transpose": [TransposeOfTranspose(), TransposeIsReshape()],
        "tosa.max_pool2d": [MaxPool2dIsNoOp(), FoldPadIntoOp("tosa.max_pool2d")],
        "tosa.conv2d": [FoldPadIntoOp("tosa.conv2d")],
        "tosa.depthwise_conv2d": [FoldPadIntoOp("tosa.depthwise_conv2d")],
        "tosa.cast": [NonNarrowingCasts()],
        "tosa.slice": [ConcatSlice(), PadSlice(), SliceDynamicSize()],
    }


_PATTERN_TABLE = None


def _patterns_of(name):
    global _PATTERN_TABLE
    if _PATTERN_TABLE is None:
        _PATTERN_TABLE = _patterns()
    return list(_PATTERN_TABLE.get(name, ()))


_FOLDS = {
    "tosa.add": _fold_add, "tosa.sub": _fold_sub, "tosa.mul": _fold_mul,
    "tosa.intdiv": _fold_intdiv, "tosa.greater": _fold_greater,
    "tosa.greater_equal": _fold_greater_equal, "tosa.equal": _fold_equal,
    "tosa.cast": _fold_cast, "tosa.select": _fold_select, "tosa.negate": _fold_negate,
    "tosa.abs": _fold_abs, "tosa.argmax": _fold_argmax, "tosa.reshape": _fold_reshape,
    "tosa.pad": _fold_pad, "tosa.resize": _fold_resize, "tosa.reverse": _fold_reverse,
    "tosa.slice": _fold_slice, "tosa.tile": _fold_tile, "tosa.transpose": _fold_transpose,
    "tosa.concat": _fold_concat,
    **{f"tosa.reduce_{k}": _fold_reduce
       for k in ("all", "any", "max", "min", "product", "sum")},
}

_PATTERNED = ("tosa.select", "tosa.clamp", "tosa.concat", "tosa.transpose",
              "tosa.max_pool2d", "tosa.conv2d", "tosa.depthwise_conv2d", "tosa.cast",
              "tosa.slice")


def install(ops):
    """Attach the folders and canonicalization patterns to the op classes."""
    for cls in ops:
        fn = _FOLDS.get(cls.name)
        if fn is not None:
            cls.fold = fn
        if cls.name in _PATTERNED:
            cls.canonicalization_patterns = classmethod(lambda c: _patterns_of(c.name))
