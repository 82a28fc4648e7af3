"""Elementwise ATen ops -> one `linalg.generic` each (onnx_to_linalg's `elementwise`,
with NumPy broadcasting and its run-time checks of dynamic dims).

    %2 = torch.aten.add.Tensor %0, %1, %int1 : !torch.vtensor<[2,3],f32>,
           !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>

[Note: PyTorch type promotion]
The importer's result types already carry ATen's promotion: `add(int tensor, 2.5)` is
typed f32. So arithmetic computes in the result's element type, every operand cast to it
first (bools as 0/1, unsigned integers zero-extended). Comparisons return bool, so their
operands meet in the type ATen's `result_type` gives them (`promoted`): tensors with
dims decide within a category (bool < integer < float), 0-d tensors and Python numbers
only when their category is higher (a Python float then means the default f32, a
Python int i64). Scalar arguments (`add.Scalar`'s `other`, `alpha`) are cast once,
outside the loop.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..onnx_to_linalg._index_check import division_checks
from ..onnx_to_linalg.common import elementwise, scalars
from ..onnx_to_linalg.elementwise import (abs_scalar, gelu_scalar, hard_sigmoid_scalar,
                                          relu_scalar, sigmoid_scalar, sign_scalar,
                                          softplus_scalar)
from ..scalar_builders import element_type, is_float
from . import DYNAMIC_ARG, NotLowerable, lowering

# ------------------------------------------------------------------ promotion


def _category(e) -> int:
    if e is A.i1:
        return 0
    return 2 if type(e) is A.FloatType else 1


def _unsigned(e) -> bool:
    return type(e) is A.IntegerType and e.signedness == A.IntegerType.UNSIGNED


def promote_types(a, b):
    """ATen's promoteTypes of two torch-level element types (None: undefined)."""
    if a is None or a is b:
        return b if a is None else a
    if b is None:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {A.f16, A.bf16}:
            return A.f32
        return a if a.width >= b.width else b
    ua, ub = _unsigned(a), _unsigned(b)
    if ua == ub:
        return a if a.width >= b.width else b
    u, s = (a, b) if ua else (b, a)
    if s.width > u.width:
        return s
    return A.IntegerType(min(2 * u.width, 64), A.IntegerType.SIGNED)


def _combine(higher, lower):
    """ATen's combine_categories."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _category(higher) == 2:
        return higher
    if higher is A.i1 or _category(lower) == 2:
        return promote_types(higher, lower)
    return higher


def promoted(cx, indices):
    """The torch-level element type ATen's result_type gives operands `indices` (see
    [Note: PyTorch type promotion])."""
    dim = zero = wrapped = None
    for i in indices:
        t = cx.orig_type(i)
        if isinstance(t, A.ShapedType):
            if t.rank:
                dim = promote_types(dim, t.element_type)
            else:
                zero = promote_types(zero, t.element_type)
            continue
        v = cx.arg(i)
        if isinstance(v, bool) or t is A.i1:
            e = A.i1
        elif isinstance(v, float) or type(t) is A.FloatType:
            e = A.f32
        else:
            e = A.IntegerType(64, A.IntegerType.SIGNED)
        wrapped = promote_types(wrapped, e)
    return _combine(dim, _combine(zero, wrapped))


def _signless(e):
    return A.IntegerType(e.width) if type(e) is A.IntegerType else e


# ------------------------------------------------------------------ the builder


def _operands(cx, indices, compute):
    """(tensor Values, per index a tensor position or a scalar Value of `compute`)."""
    s = scalars(cx)
    tensors, parts = [], []
    for i in indices:
        v = cx.operands[i]
        if isinstance(v.type, A.ShapedType):
            parts.append(("t", len(tensors), not _unsigned(element_type(cx.orig_type(i)))))
            tensors.append(v)
        else:
            if cx.arg(i) is DYNAMIC_ARG:
                # a run-time !torch.int/float/bool, already its builtin scalar type
                parts.append(("s", s.cast(v, compute), None))
            else:
                parts.append(("s", cx.scalar(i, compute), None))
    return tensors, parts


def ew(cx, indices, body, compute=None, out=None):
    """One elementwise generic over operands `indices` (tensors broadcast, scalars
    captured), each cast to the element type `compute` (default: the result's), of
    `body(s, *values)`, cast to the result's element type (or `out`)."""
    out = out or element_type(cx.result_type())
    compute = compute or out
    tensors, parts = _operands(cx, indices, compute)
    if not tensors:
        raise NotLowerable("an elementwise op needs a tensor operand")

    def fn(s, *targs):
        vals = []
        for kind, k, signed in parts:
            if kind == "s":
                vals.append(k)
            else:
                vals.append(s.cast(targs[k], compute, signed))
        y = body(s, *vals)
        return y if y.type is out else s.cast(y, out, not _unsigned(compute))
    return elementwise(cx, tensors, out, fn)


def _result_signed(cx) -> bool:
    return not _unsigned(element_type(cx.orig_result_type()))


def _alpha(cx, i, compute):
    """Argument `i` (alpha) as a scalar of `compute`, or None when it is the constant 1."""
    if i >= len(cx.op.operands):
        return None
    v = cx.arg(i)
    if v == 1 and not isinstance(v, bool):
        return None
    return cx.scalar(i, compute)


# ------------------------------------------------------------------ arithmetic


def _add_like(name, sub, reverse=False):
    """add/sub: self +- alpha * other; rsub: other - alpha * self."""
    @lowering(f"aten.{name}.Tensor", f"aten.{name}.Scalar")
    def lower(cx):
        alpha = _alpha(cx, 2, element_type(cx.result_type()))

        def body(s, a, b):
            if reverse:
                a, b = b, a
            if alpha is not None:
                b = s.mul(b, alpha)
            return s.sub(a, b) if sub else s.add(a, b)
        return [ew(cx, [0, 1], body)]


_add_like("add", False)
_add_like("sub", True)
_add_like("rsub", True, reverse=True)


@lowering("aten.mul.Tensor", "aten.mul.Scalar")
def _mul(cx):
    if element_type(cx.result_type()) is A.i1:
        return [ew(cx, [0, 1], lambda s, a, b: s.and_(a, b))]
    return [ew(cx, [0, 1], lambda s, a, b: s.mul(a, b))]


def _int_division_checks(cx, signed):
    """Integer division by zero (and the minimum by -1) fails as ATen raises: the checks
    of [Note: integer division checks], at the tensor divisor; a constant 0 is a
    lowering error."""
    if isinstance(cx.operands[1].type, A.ShapedType):
        if not isinstance(cx.operands[0].type, A.ShapedType):
            raise NotLowerable("an integer number divided by a tensor")
        elt = cx.result_type().element_type
        # a zero divisor is one in any integer type; the minimum / -1 only in the
        # result's own type
        division_checks(cx, 0, 1, signed, overflow=all(
            cx.operands[i].type.element_type is elt for i in (0, 1)))
        return
    v = cx.arg(1)
    if v is not DYNAMIC_ARG and v == 0:
        raise NotLowerable("integer division by zero")


def _divide(s, a, b, mode, signed):
    if is_float(a.type):
        q = s.div(a, b)
        if mode == "trunc":
            return s.math("trunc", q)
        if mode == "floor":
            return s.math("floor", q)
        return q
    if mode == "floor" and signed:
        return s.op1("arith.floordivsi", [a, b], a.type)
    return s.div(a, b, signed)


@lowering("aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode",
          "aten.div.Scalar_mode", "aten.floor_divide", "aten.floor_divide.Scalar",
          "aten.true_divide.Tensor", "aten.true_divide.Scalar")
def _div(cx):
    if cx.aten.startswith("aten.floor_divide"):
        mode = "floor"
    elif len(cx.op.operands) > 2:
        mode = cx.arg(2)
        if mode not in (None, "trunc", "floor"):
            raise NotLowerable(f"unknown rounding mode {mode!r}")
    else:
        mode = None
    out = element_type(cx.result_type())
    signed = _result_signed(cx)
    if not is_float(out):
        if mode is None:
            raise NotLowerable("true division into an integer type")
        _int_division_checks(cx, signed)
    return [ew(cx, [0, 1], lambda s, a, b: _divide(s, a, b, mode, signed))]


def _python_mod(s, a, b, signed):
    """a - floor(a / b) * b: the remainder with the divisor's sign (Python's %)."""
    if not is_float(a.type) and not signed:
        return s.rem(a, b, False)
    r = s.rem(a, b, True)
    zero = s.zero(a.type)
    fix = s.and_(s.cmp("ne", r, zero), s.xor(s.cmp("lt", r, zero), s.cmp("lt", b, zero)))
    return s.select(fix, s.add(r, b), r)


@lowering("aten.remainder.Tensor", "aten.remainder.Scalar")
def _remainder(cx):
    signed = _result_signed(cx)
    if not is_float(element_type(cx.result_type())):
        _int_division_checks(cx, signed)
    return [ew(cx, [0, 1], lambda s, a, b: _python_mod(s, a, b, signed))]


@lowering("aten.fmod.Tensor", "aten.fmod.Scalar")
def _fmod(cx):
    signed = _result_signed(cx)
    if not is_float(element_type(cx.result_type())):
        _int_division_checks(cx, signed)
    return [ew(cx, [0, 1], lambda s, a, b: s.rem(a, b, signed))]


def _pow(s, a, b):
    if is_float(a.type):
        return s.math("powf", a, b)
    return s.math("ipowi", a, b)


@lowering("aten.pow.Tensor_Tensor", "aten.pow.Scalar")
def _pow_tt(cx):
    return [ew(cx, [0, 1], _pow)]


@lowering("aten.pow.Tensor_Scalar")
def _pow_ts(cx):
    e = cx.arg(1)
    out = element_type(cx.result_type())
    if e is not DYNAMIC_ARG and is_float(out) and e in (2, 2.0):
        return [ew(cx, [0], lambda s, a: s.mul(a, a))]
    if e is not DYNAMIC_ARG and not is_float(out) and isinstance(e, int) and e < 0:
        raise NotLowerable("integers to negative powers are not allowed")
    return [ew(cx, [0, 1], _pow)]


@lowering("aten.atan2")
def _atan2(cx):
    return [ew(cx, [0, 1], lambda s, a, b: s.op1("math.atan2", [a, b], a.type))]


@lowering("aten.hypot")
def _hypot(cx):
    return [ew(cx, [0, 1], lambda s, a, b: s.math("sqrt", s.add(s.mul(a, a), s.mul(b, b))))]


@lowering("aten.maximum", "aten.max.other")
def _maximum(cx):
    signed = _result_signed(cx)
    return [ew(cx, [0, 1], lambda s, a, b: s.max(a, b, signed))]


@lowering("aten.minimum", "aten.min.other")
def _minimum(cx):
    signed = _result_signed(cx)
    return [ew(cx, [0, 1], lambda s, a, b: s.min(a, b, signed))]


# ------------------------------------------------------------------ unary


def _unary(name, fn, float_only=False):
    @lowering(name)
    def lower(cx):
        out = element_type(cx.result_type())
        if float_only and not is_float(out):
            raise NotLowerable(f"{cx.aten} of {out} is not supported")
        signed = _result_signed(cx)
        return [ew(cx, [0], lambda s, x: fn(s, x, signed))]


for _n, _m in [("exp", "exp"), ("exp2", "exp2"), ("expm1", "expm1"), ("log", "log"),
               ("log2", "log2"), ("log10", "log10"), ("log1p", "log1p"),
               ("sqrt", "sqrt"), ("rsqrt", "rsqrt"), ("sin", "sin"), ("cos", "cos"),
               ("tan", "tan"), ("tanh", "tanh"), ("asin", "asin"), ("acos", "acos"),
               ("atan", "atan"), ("sinh", "sinh"), ("cosh", "cosh"), ("asinh", "asinh"),
               ("acosh", "acosh"), ("atanh", "atanh"), ("erf", "erf"), ("erfc", "erfc")]:
    _unary(f"aten.{_n}", (lambda m: lambda s, x, sg: s.math(m, x))(_m), float_only=True)

# floor/ceil/round/trunc of integers are the integers themselves
for _n, _m in [("floor", "floor"), ("ceil", "ceil"), ("round", "roundeven"),
               ("trunc", "trunc")]:
    _unary(f"aten.{_n}", (lambda m: lambda s, x, sg: s.math(m, x) if is_float(x.type)
                          else x)(_m))

_unary("aten.neg", lambda s, x, sg: s.neg(x))
_unary("aten.abs", abs_scalar)
_unary("aten.sign", sign_scalar)
_unary("aten.reciprocal", lambda s, x, sg: s.div(s.one(x.type), x), float_only=True)
_unary("aten.sigmoid", lambda s, x, sg: sigmoid_scalar(s, x), float_only=True)
_unary("aten.relu", lambda s, x, sg: relu_scalar(s, x, None))
_unary("aten.silu", lambda s, x, sg: s.mul(x, sigmoid_scalar(s, x)), float_only=True)
_unary("aten.mish", lambda s, x, sg: s.mul(x, s.math("tanh", softplus_scalar(s, x))),
       float_only=True)
_unary("aten.hardsigmoid", lambda s, x, sg: hard_sigmoid_scalar(s, x, 1.0 / 6.0, 0.5),
       float_only=True)
_unary("aten.hardswish", lambda s, x, sg: s.mul(x, hard_sigmoid_scalar(s, x, 1.0 / 6.0,
                                                                        0.5)),
       float_only=True)
_unary("aten.bitwise_not", lambda s, x, sg: s.not_(x))


@lowering("aten.isnan", "aten.isinf", "aten.isfinite")
def _float_tests(cx):
    kind = cx.aten[5:]
    e = element_type(cx.operands[0].type)

    def body(s, x):
        if not is_float(x.type):
            return s.const(kind == "isfinite", A.i1)
        if kind == "isnan":
            return s.cmp("uno", x, x)
        inf = s.cmp("eq", s.math("absf", x), s.const(float("inf"), x.type))
        if kind == "isinf":
            return inf
        return s.and_(s.cmp("eq", x, x), s.not_(inf))
    return [ew(cx, [0], body, compute=e, out=A.i1)]


@lowering("aten.gelu")
def _gelu(cx):
    approx = cx.arg(1) if len(cx.op.operands) > 1 else "none"
    if approx not in ("none", "tanh"):
        raise NotLowerable(f"unknown approximate={approx!r}")
    return [ew(cx, [0], lambda s, x: gelu_scalar(s, x, approx == "tanh"))]


@lowering("aten.leaky_relu")
def _leaky_relu(cx):
    out = element_type(cx.result_type())
    slope = cx.scalar(1, out) if len(cx.op.operands) > 1 else scalars(cx).const(0.01, out)
    return [ew(cx, [0], lambda s, x: s.select(s.cmp("gt", x, s.zero(x.type)), x,
                                              s.mul(x, slope)))]


@lowering("aten.elu")
def _elu(cx):
    out = element_type(cx.result_type())
    alpha, scale, in_scale = (cx.float_(i) if i < len(cx.op.operands) else 1.0
                              for i in (1, 2, 3))

    def body(s, x):
        neg = s.mul(s.const(alpha * scale, out),
                    s.math("expm1", s.mul(x, s.const(in_scale, out))))
        return s.select(s.cmp("gt", x, s.zero(out)), s.mul(x, s.const(scale, out)), neg)
    return [ew(cx, [0], body)]


@lowering("aten.softplus")
def _softplus(cx):
    beta, threshold = cx.float_(1), cx.float_(2)
    out = element_type(cx.result_type())

    def body(s, x):
        bx = s.mul(x, s.const(beta, out))
        soft = s.div(s.math("log1p", s.math("exp", bx)), s.const(beta, out))
        return s.select(s.cmp("gt", bx, s.const(threshold, out)), x, soft)
    return [ew(cx, [0], body)]


# ------------------------------------------------------------------ clamps


def _clamp_body(signed, lo, hi):
    def body(s, x, *bounds):
        bounds = list(bounds)
        low = bounds.pop(0) if lo else None
        high = bounds.pop(0) if hi else None
        y = x
        if low is not None:
            y = s.max(y, low, signed) if is_float(y.type) else \
                s.select(s.cmp("lt", y, low, signed), low, y)
        if high is not None:
            y = s.min(y, high, signed) if is_float(y.type) else \
                s.select(s.cmp("gt", y, high, signed), high, y)
        return y
    return body


@lowering("aten.clamp", "aten.clamp.Tensor")
def _clamp(cx):
    lo, hi = cx.has_operand(1), cx.has_operand(2)
    if not lo and not hi:
        raise NotLowerable("clamp needs min or max")
    idx = [0] + [i for i, h in ((1, lo), (2, hi)) if h]
    return [ew(cx, idx, _clamp_body(_result_signed(cx), lo, hi))]


@lowering("aten.clamp_min", "aten.clamp_min.Tensor")
def _clamp_min(cx):
    return [ew(cx, [0, 1], _clamp_body(_result_signed(cx), True, False))]


@lowering("aten.clamp_max", "aten.clamp_max.Tensor")
def _clamp_max(cx):
    return [ew(cx, [0, 1], _clamp_body(_result_signed(cx), False, True))]


@lowering("aten.hardtanh")
def _hardtanh(cx):
    out = element_type(cx.result_type())
    lo = cx.scalar(1, out) if len(cx.op.operands) > 1 else scalars(cx).const(-1.0, out)
    hi = cx.scalar(2, out) if len(cx.op.operands) > 2 else scalars(cx).const(1.0, out)
    signed = _result_signed(cx)
    return [ew(cx, [0], lambda s, x: _clamp_body(signed, True, True)(s, x, lo, hi))]


# ------------------------------------------------------------------ selection


@lowering("aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther",
          "aten.where.Scalar")
def _where(cx):
    out = element_type(cx.result_type())
    tensors, parts = _operands(cx, [1, 2], out)
    cond = cx.operands[0]
    signed = [_signed_at(cx, i) for i in (1, 2)]

    def fn(s, c, *targs):
        vals = [k if kind == "s" else s.cast(targs[k], out, sg)
                for (kind, k, _), sg in zip(parts, signed)]
        c = c if c.type is A.i1 else s.cast(c, A.i1)
        return s.select(c, vals[0], vals[1])
    return [elementwise(cx, [cond] + tensors, out, fn)]


def _signed_at(cx, i):
    return not _unsigned(element_type(cx.orig_type(i)))


@lowering("aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
def _masked_fill(cx):
    out = element_type(cx.result_type())
    x, mask = cx.operands[0], cx.operands[1]
    signed = _signed_at(cx, 0)
    if isinstance(cx.operands[2].type, A.ShapedType):
        value = cx.operands[2]
        return [elementwise(cx, [x, mask, value], out, lambda s, a, m, v: s.select(
            m, s.cast(v, out, _signed_at(cx, 2)), s.cast(a, out, signed)))]
    v = cx.scalar(2, out)
    return [elementwise(cx, [x, mask], out,
                        lambda s, a, m: s.select(m, v, s.cast(a, out, signed)))]


# ------------------------------------------------------------------ comparisons


def _compare(name, pred):
    @lowering(f"aten.{name}.Tensor", f"aten.{name}.Scalar")
    def lower(cx):
        common = promoted(cx, [0, 1])
        signed = not _unsigned(common)
        return [ew(cx, [0, 1], lambda s, a, b: s.cmp(pred, a, b, signed),
                   compute=_signless(common), out=A.i1)]


for _n, _p in [("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"), ("gt", "gt"),
               ("ge", "ge")]:
    _compare(_n, _p)


def _logical(name, fn):
    @lowering(f"aten.logical_{name}")
    def lower(cx):
        return [ew(cx, [0, 1], fn, compute=A.i1)]


_logical("and", lambda s, a, b: s.and_(a, b))
_logical("or", lambda s, a, b: s.or_(a, b))
_logical("xor", lambda s, a, b: s.xor(a, b))


@lowering("aten.logical_not")
def _logical_not(cx):
    return [ew(cx, [0], lambda s, a: s.not_(a), compute=A.i1)]


def _bitwise(name, fn):
    @lowering(f"aten.bitwise_{name}.Tensor", f"aten.bitwise_{name}.Scalar")
    def lower(cx):
        return [ew(cx, [0, 1], fn)]


_bitwise("and", lambda s, a, b: s.and_(a, b))
_bitwise("or", lambda s, a, b: s.or_(a, b))
_bitwise("xor", lambda s, a, b: s.xor(a, b))


# ------------------------------------------------------------------ copies and casts


@lowering("aten._to_copy", "aten.to.dtype", "aten._to_dim_order_copy",
          "prims.convert_element_type")
def _to_copy(cx):
    return [ew(cx, [0], lambda s, x: x, compute=None)]


@lowering("aten.clone", "aten.alias", "aten.detach", "aten.lift_fresh_copy",
          "aten.contiguous")
def _clone(cx):
    return [cx.operands[0]]


@lowering("aten.copy")
def _copy(cx):
    """copy(self, src): src cast to self's dtype, broadcast to self's shape."""
    from ..onnx_to_linalg.common import _broadcast_map, sizes_of
    out = element_type(cx.result_type())
    signed = _signed_at(cx, 1)
    sizes = sizes_of(cx, cx.operands[0])
    src = cx.operands[1]
    if src.type.rank > len(sizes):
        raise NotLowerable("copy's source has more dims than the destination")
    return [elementwise(cx, [src], out, lambda s, v: s.cast(v, out, signed),
                        maps=[_broadcast_map(src.type.shape, len(sizes))],
                        result_sizes=sizes)]


# ------------------------------------------------------------------ scalars (torch-to-arith)


def _scalar_binary(name, fn):
    @lowering(name)
    def lower(cx):
        t = cx.result_type()
        s = scalars(cx)
        a, b = (s.cast(cx.operands[i], t, cx.orig_type(i) is not A.i1) for i in (0, 1))
        return [fn(s, a, b)]


_scalar_binary("aten.add.int", lambda s, a, b: s.add(a, b))
_scalar_binary("aten.sub.int", lambda s, a, b: s.sub(a, b))
_scalar_binary("aten.mul.int", lambda s, a, b: s.mul(a, b))
_scalar_binary("aten.floordiv.int", lambda s, a, b: s.op1("arith.floordivsi", [a, b],
                                                          a.type))
_scalar_binary("aten.add.float", lambda s, a, b: s.add(a, b))
_scalar_binary("aten.sub.float", lambda s, a, b: s.sub(a, b))
_scalar_binary("aten.mul.float", lambda s, a, b: s.mul(a, b))
_scalar_binary("aten.div.float", lambda s, a, b: s.div(a, b))
# int / int is a float (Python's true division; symbolic sizes in AOTAutograd's graphs)
_scalar_binary("aten.div.int", lambda s, a, b: s.div(a, b))
_scalar_binary("aten.remainder.int", lambda s, a, b: _python_mod(s, a, b, True))
# math.fmod of ints, a float (the dividend's sign: torch.roll by a symbolic size)
_scalar_binary("aten.fmod.int", lambda s, a, b: s.rem(a, b))


@lowering("aten.ceil.float", "aten.floor.float", "aten.ceil.int", "aten.floor.int")
def _scalar_round(cx):
    """math.ceil / math.floor of a Python number: an int (sizes such as ceil(s / 3))."""
    s = scalars(cx)
    v = cx.operands[0]
    t = cx.result_type()
    if not is_float(v.type):
        return [s.cast(v, t)]
    r = s.op1("math.ceil" if cx.aten.startswith("aten.ceil") else "math.floor", [v], v.type)
    return [s.cast(r, t)]


def _scalar_compare(pred):
    """`aten.<pred>.int` / `.float` / `.int_float` / `.float_int` (/ `.bool` for eq and
    ne): Python numbers compared (symbolic sizes in the run-time checks torch.export
    writes: `u0 >= 0`), a float when either side is one."""
    names = [f"aten.{pred}.{k}" for k in ("int", "float", "int_float", "float_int")]
    if pred in ("eq", "ne"):
        names.append(f"aten.{pred}.bool")

    @lowering(*names)
    def lower(cx):
        s = scalars(cx)
        a, b = cx.operands[0], cx.operands[1]
        if is_float(a.type) or is_float(b.type):
            a, b = s.cast(a, A.f64), s.cast(b, A.f64)
        return [s.cmp(pred, a, b)]


for _p in ("eq", "ne", "lt", "le", "gt", "ge"):
    _scalar_compare(_p)


@lowering("aten.__and__.bool", "aten.__or__.bool")
def _scalar_logic(cx):
    """`a & b` / `a | b` of Python bools (the conditions of torch.export's run-time
    assertions: `(u0 <= 5) & (0 <= u0 + 5)` of a narrow's start)."""
    s = scalars(cx)
    a, b = (s.cast(v, A.i1) for v in cx.operands[:2])
    return [s.and_(a, b) if cx.aten == "aten.__and__.bool" else s.or_(a, b)]
