"""TOSA folders and canonicalization patterns (upstream's TosaCanonicalizations.cpp).

Folders forward a value or compute a constant; patterns rewrite. With `--canonicalize`:

    %z = "tosa.const"() <{values = dense<0> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
    %r = tosa.add %x, %z : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %s = tosa.select %p, %r, %r : (tensor<2x3xi1>, tensor<2x3xi32>, ...) -> tensor<2x3xi32>

becomes `%x` (add of zero, then select of identical operands). `install` attaches each
`fold` and `canonicalization_patterns` to its op class; the op classes stay declarative.

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
    """binaryFolder: both operands splats of one element type, a static result."""
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
    inner = op.input1.defining_op
    if inner is None or inner.name != "tosa.negate":
        return None
    if not (_zero_zps(op) and _zero_zps(inner)):
        return None
    return inner.input1


def _fold_abs(op, operands):
    inner = op.input1.defining_op
    if inner is not None and inner.name == "tosa.abs":
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
    inner = op.input1.defining_op
    if inner is not None and inner.name == "tosa.reshape":
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


def _patterns_select():
    from ...rewrite.pattern import RewritePattern

    class SelectOfNot(RewritePattern):
        """select(logical_not(p), a, b) -> select(p, b, a)."""
        root = "tosa.select"

        def match_and_rewrite(self, op, rewriter):
            n = op.input1.defining_op
            if n is None or n.name != "tosa.logical_not":
                return False
            p, a, b = n.input1, op.input2, op.input3
            rewriter.modify_op_in_place(op, lambda: op.set_operands([p, b, a]))
            return True
    return [SelectOfNot()]


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

_PATTERNS = {"tosa.select": _patterns_select}


def install(ops):
    """Attach the folders and canonicalization patterns to the op classes."""
    for cls in ops:
        fn = _FOLDS.get(cls.name)
        if fn is not None:
            cls.fold = fn
        pats = _PATTERNS.get(cls.name)
        if pats is not None:
            cls.canonicalization_patterns = classmethod(lambda c, _p=pats: _p())
