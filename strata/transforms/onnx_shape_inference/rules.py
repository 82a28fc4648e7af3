"""Shape rules of the common ONNX operators, in Python.

Each rule reads an `InferContext` and returns one entry per result: a shape (tuple of
dims, None for an unknown rank), a full Type, or ... when nothing is known. Element types
come from the schema (a result sharing its type constraint with an operand has that
operand's element type; a constraint of one type gives that type), unless a rule sets
`cx.elem[j]`. A rule returns None to hand the op to onnx's own inference.

Rules follow the ONNX operator specification, version by version where inputs became
attributes or back (axes of reductions and Squeeze/Unsqueeze, Slice's starts/ends, Split
sizes, Pad's pads, TopK's k).

Dims (and elements of shape values) may be symbols (`Sym`, see [Note: symbolic dims] in
symbols.py): a rule passes them on where the result's dim is the operand's, and computes
with them only through the functions of symbols.py (`S.mul`, `S.div`, `product`...); a
rule that needs numbers uses `statics(shape)` (symbols as None), and `differ(a, b)` says
whether two dims are known to differ.
"""
from __future__ import annotations

import math

from ...dialects import onnx as O
from ...ir import attributes as A
from . import symbols as S
from .core import (Conflict, Sym, broadcast, differ, join, make_type, merge_dims, norm_axis,
                   product, shape_of, statics)

__all__ = ["RULES", "rule"]

RULES: dict = {}   # op name ("onnx.Add") -> rule function

UNKNOWN = ...


def rule(*op_types):
    def deco(fn):
        for t in op_types:
            name = "onnx." + t
            if name in RULES:
                raise ValueError(f"two shape rules for {name}")
            RULES[name] = fn
        return fn
    return deco


# ---------------------------------------------------------------- elementwise

_SAME_SHAPE = (
    "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BitwiseNot", "Ceil", "Celu",
    "Clip", "Cos", "Cosh", "CumSum", "DequantizeLinear", "Elu", "Erf", "Exp", "EyeLike",
    "Floor", "Gelu", "HardSigmoid", "HardSwish", "Hardmax", "Identity", "InstanceNormalization",
    "IsInf", "IsNaN", "LRN", "LeakyRelu", "Log", "LogSoftmax", "LpNormalization",
    "MeanVarianceNormalization", "Mish", "Neg", "Not", "QuantizeLinear", "Reciprocal",
    "Relu", "ReverseSequence", "Round", "Scatter", "ScatterElements", "ScatterND", "Selu",
    "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softmax", "Softplus", "Softsign", "Sqrt",
    "Swish", "Tan", "Tanh", "ThresholdedRelu", "Trilu", "GroupNormalization",
    "RMSNormalization",
    # ai.onnx.ml
    "Binarizer", "Imputer", "LabelEncoder", "Normalizer", "Scaler",
)


@rule(*_SAME_SHAPE)
def _same_shape(cx):
    t = cx.type(0)
    if t is not None and not isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        return [t] + [UNKNOWN] * (cx.num_results - 1)  # Identity of a sequence/optional
    if cx.op.name == "onnx.Identity":
        p = cx.value(0)
        if p is not None:
            cx.set_value(0, p.shape, p.vals)
    return [cx.shape(0)] + [UNKNOWN] * (cx.num_results - 1)


_BROADCAST = ("Add", "Sub", "Mul", "Div", "Pow", "Mod", "And", "Or", "Xor", "Equal",
              "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "BitShift", "BitwiseAnd",
              "BitwiseOr", "BitwiseXor", "Max", "Min", "Mean", "Sum", "Where", "PRelu")
_LEGACY_BROADCAST = frozenset(("onnx.Add", "onnx.Sub", "onnx.Mul", "onnx.Div", "onnx.Pow",
                               "onnx.And", "onnx.Or", "onnx.Xor", "onnx.Equal",
                               "onnx.Greater", "onnx.Less", "onnx.PRelu"))
_ARITH = {"onnx.Add": S.add, "onnx.Sub": S.sub, "onnx.Mul": S.mul}
# comparisons of shape values: the conditions of Ifs on ranks and sizes, torch's
# `Where(Equal(shape, -1), 1, shape)` (a size is never -1)
_COMPARE = {"onnx.Equal": "eq", "onnx.Less": "lt", "onnx.LessOrEqual": "le",
            "onnx.Greater": "gt", "onnx.GreaterOrEqual": "ge"}


@rule(*_BROADCAST)
def _broadcast(cx):
    name = cx.op.name
    if cx.version < 7 and name in _LEGACY_BROADCAST:
        return [cx.shape(0)]  # the legacy `broadcast` attribute: B fits into A
    shape = broadcast(*(cx.shape(i) for i in range(cx.n) if cx.has(i)))
    # Arithmetic on shape values (`Shape -> Mul -> Reshape`), element by element.
    fn = _ARITH.get(name)
    if fn is None and name in _COMPARE:
        fn = _comparison(_COMPARE[name])
    elif fn is None and name == "onnx.Div":
        fn = _int_div
    if fn is not None and shape is not None and len(shape) <= 1:
        vals = _elementwise_values(cx, shape, 2)
        if vals is not None:
            cx.set_value(0, shape, [fn(x, y) for x, y in zip(*vals)])
    elif name == "onnx.Where" and shape is not None and len(shape) <= 1:
        # `Where(Equal(shape, -1), 1, shape)` (torch's Expand of a shape with -1s): an
        # unknown condition still gives the element both branches agree on.
        vals = _elementwise_values(cx, shape, 3)
        if vals is not None:
            cx.set_value(0, shape, [(x if x == y else None) if c is None or type(c) is Sym
                                    else (x if c else y) for c, x, y in zip(*vals)])
    return [shape]


def _comparison(pred):
    def fn(a, b):
        r = S.compare(pred, a, b)
        return None if r is None else int(r)
    return fn


def _elementwise_values(cx, shape, count):
    """The known elements of the first `count` operands, each stretched to the (at most
    1-D) broadcast `shape`, or None when an operand's elements are not followed."""
    n = product(shape)
    if type(n) is not int:
        return None
    out = []
    for i in range(count):
        p = cx.value(i)
        if p is None or len(p.vals) not in (1, n):
            return None
        out.append(p.vals * n if len(p.vals) == 1 else p.vals)
    return out


def _int_div(a, b):
    if a is None or b is None:
        return None
    if type(a) is Sym or type(b) is Sym:
        return S.div(a, b)   # exact, or unknown
    if isinstance(a, int) and isinstance(b, int):
        return None if b == 0 else int(a / b)  # C truncation, as ONNX integer Div
    return None if b == 0 else a / b


@rule("Cast")
def _cast(cx):
    et = O.ONNX_TO_MLIR_ELEMENT.get(cx.attr("to"))
    if et is not None:
        cx.elem[0] = et
    p = cx.value(0)
    if p is not None and isinstance(et, A.IntegerType) and et.width > 1:
        cx.set_value(0, p.shape, [v if v is None or type(v) is Sym else int(v)
                                  for v in p.vals])
    return [cx.shape(0)]


@rule("CastLike")
def _cast_like(cx):
    cx.elem[0] = cx.element(1)
    return [cx.shape(0)]


# ---------------------------------------------------------------- contractions

def _matmul_shape(a, b):
    if a is None or b is None:
        return None
    if not a or not b:
        raise Conflict("matmul operands must not be scalars")
    a1, b1 = len(a) == 1, len(b) == 1
    if a1:
        a = (1,) + a
    if b1:
        b = b + (1,)
    if differ(a[-1], b[-2]):
        raise Conflict(f"contracted dims {a[-1]} and {b[-2]} differ")
    batch = broadcast(a[:-2], b[:-2])
    out = batch + ((a[-2],) if not a1 else ()) + ((b[-1],) if not b1 else ())
    return out


@rule("MatMul", "MatMulInteger")
def _matmul(cx):
    return [_matmul_shape(cx.shape(0), cx.shape(1))]


@rule("QLinearMatMul")
def _qlinear_matmul(cx):
    return [_matmul_shape(cx.shape(0), cx.shape(3))]


@rule("Gemm")
def _gemm(cx):
    a, b = cx.shape(0), cx.shape(1)
    m = k = n = k2 = None
    if a is not None:
        if len(a) != 2:
            return None
        m, k = (a[1], a[0]) if cx.attr("transA") else a
    if b is not None:
        if len(b) != 2:
            return None
        k2, n = (b[1], b[0]) if cx.attr("transB") else b
    if differ(k, k2):
        raise Conflict(f"contracted dims {k} and {k2} differ")
    return [(m, n)]


@rule("Attention")
def _attention(cx):
    """Y is Q's rank: 4-D (batch, q_heads, q_seq, v_head), 3-D (batch, q_seq, q_heads *
    v_head); 3-D Q/K/V carry their heads in the hidden dim (the *_num_heads attributes).
    present_key/value: (batch, kv_heads, past_seq + kv_seq, head); qk_matmul_output:
    (batch, q_heads, q_seq, past_seq + kv_seq)."""
    q, k, v = cx.shape(0), cx.shape(1), cx.shape(2)
    if q is None or len(q) not in (3, 4):
        return None
    qh = q[1] if len(q) == 4 else cx.attr("q_num_heads")
    kvh = k[1] if k is not None and len(k) == 4 else cx.attr("kv_num_heads")
    qs = q[2] if len(q) == 4 else q[1]

    def head(x, i4, i3):
        if x is None:
            return None, None
        if len(x) == 4:
            return x[2], x[i4]
        return x[1], _div_dim(x[i3], kvh) if kvh else None
    kvs, hs = head(k, 3, 2)
    vhs = head(v, 3, 2)[1]
    past = cx.shape(4) if cx.has(4) else None
    total = S.add(past[2], kvs) if past is not None and len(past) == 4 else \
        kvs if not cx.has(4) else None
    y = (q[0], qh, qs, vhs) if len(q) == 4 else (q[0], qs, S.mul(qh, vhs))
    return [y, (q[0], kvh, total, hs), (q[0], kvh, total, vhs),
            (q[0], qh, qs, total)][:cx.num_results]


# ---------------------------------------------------------------- convolution and pooling

def pool_out_dim(d: int, span: int, stride: int, pad_begin: int, pad_end: int,
                 auto_pad: str = "NOTSET", ceil_mode: bool = False) -> int:
    """The number of windows of extent `span` (dilated kernel) and `stride` over an input
    dim of size `d` (a convolution's or a pool's output dim). With ceil_mode a last,
    partial window is added only where it starts inside the input or its begin padding:
    one that would start in the end padding or past the input covers no data and is
    dropped, as onnxruntime and onnx.reference do (ONNX's C++ shape inference keeps it).
    auto_pad SAME_* ignores ceil_mode; VALID is NOTSET without padding."""
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return -(-d // stride)
    if auto_pad == "VALID":
        pad_begin = pad_end = 0
    total = d + pad_begin + pad_end - span
    if not ceil_mode:
        return total // stride + 1
    o = -(-total // stride) + 1
    if (o - 1) * stride >= d + pad_begin:
        o -= 1
    return o


def _spatial_out(cx, x, kernel, *, ceil_mode=False, transpose=False, out_pad=None,
                 pool=False):
    """Output spatial dims of a convolution or pooling window over input dims `x`. A
    pool whose kernel is wider than its padded input has no window (a dim of 0 as
    onnx.reference gives) up to an overhang of two strides, which onnxruntime refuses
    too; beyond, or a convolution's, is an error."""
    nsp = len(kernel)
    strides = cx.attr("strides") or [1] * nsp
    dilations = cx.attr("dilations") or [1] * nsp
    pads = cx.attr("pads") or [0] * (2 * nsp)
    auto_pad = cx.attr("auto_pad") or "NOTSET"
    if len(strides) != nsp or len(dilations) != nsp or len(pads) != 2 * nsp:
        raise Conflict("strides, dilations and pads do not match the kernel rank")
    if min(strides) < 1 or min(dilations) < 1:
        raise Conflict("strides and dilations must be positive")
    if out_pad and len(out_pad) != nsp:
        raise Conflict(f"output_padding has {len(out_pad)} values for {nsp} spatial dims")
    out = []
    for i in range(nsp):
        d, k, s, dl = x[i], kernel[i], strides[i], dilations[i]
        if d is None or k is None:
            out.append(None)
            continue
        ek = (k - 1) * dl + 1
        if transpose:
            op = out_pad[i] if out_pad else 0
            if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
                out.append(d * s)
            else:
                pb, pe = (0, 0) if auto_pad == "VALID" else (pads[i], pads[i + nsp])
                out.append(s * (d - 1) + op + ek - pb - pe)
            continue
        o = pool_out_dim(d, ek, s, pads[i], pads[i + nsp], auto_pad, ceil_mode)
        if pool and o < 0:
            # no window: an empty dim as both runtimes give (their truncating division
            # counts 0 down to an overhang of 2 strides), beyond that refused as by them
            lo, hi = (0, 0) if auto_pad == "VALID" else (pads[i], pads[i + nsp])
            o = 0 if d + lo + hi - ek > -2 * s else -1
        out.append(o)
    for o in out:
        if o is not None and o < 0:
            raise Conflict("the kernel is larger than the padded input")
    return out


@rule("Conv", "ConvInteger", "QLinearConv")
def _conv(cx):
    wi = 3 if cx.op.name == "onnx.QLinearConv" else 1
    x, w = cx.shape(0), cx.shape(wi)
    rank = len(x) if x is not None else len(w) if w is not None else None
    if rank is None:
        return [None]
    if rank < 3:
        raise Conflict("convolution input must have rank 3 or more")
    nsp = rank - 2
    kernel = cx.attr("kernel_shape") or (list(w[2:]) if w is not None else [None] * nsp)
    if len(kernel) != nsp or (x is not None and w is not None and len(w) != rank):
        raise Conflict("input, weights and kernel_shape ranks do not match")
    n = x[0] if x is not None else None
    m = w[0] if w is not None else None
    if x is None:
        return [(n, m) + (None,) * nsp]
    return [(n, m, *_spatial_out(cx, statics(x[2:]), statics(kernel)))]


@rule("ConvTranspose")
def _conv_transpose(cx):
    x, w = cx.shape(0), cx.shape(1)
    rank = len(x) if x is not None else len(w) if w is not None else None
    if rank is None:
        return [None]
    nsp = rank - 2
    group = cx.attr("group") or 1
    m = S.mul(w[1], group) if w is not None else None
    n = x[0] if x is not None else None
    output_shape = cx.attr("output_shape")
    if output_shape:
        return [(n, m, *output_shape[-nsp:])]
    kernel = cx.attr("kernel_shape") or (list(w[2:]) if w is not None else [None] * nsp)
    if x is None:
        return [(n, m) + (None,) * nsp]
    out_pad = cx.attr("output_padding")
    return [(n, m, *_spatial_out(cx, statics(x[2:]), statics(kernel), transpose=True,
                                 out_pad=out_pad))]


@rule("MaxPool", "AveragePool", "LpPool")
def _pool(cx):
    x = cx.shape(0)
    kernel = cx.attr("kernel_shape")
    if x is None:
        if kernel is None:
            return [None] * cx.num_results
        x = (None, None) + (None,) * len(kernel)
    if len(x) != len(kernel) + 2:
        raise Conflict(f"kernel_shape has {len(kernel)} dims for an input of rank {len(x)}")
    out = (x[0], x[1], *_spatial_out(cx, statics(x[2:]), kernel, pool=True,
                                     ceil_mode=bool(cx.attr("ceil_mode"))))
    return [out] * cx.num_results


@rule("GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
def _global_pool(cx):
    x = cx.shape(0)
    return [None if x is None else x[:2] + (1,) * (len(x) - 2)]


# ---------------------------------------------------------------- normalization

@rule("BatchNormalization")
def _batch_norm(cx):
    x = cx.shape(0)
    c = x[1] if x is not None and len(x) > 1 else None
    return [x] + [(c,)] * (cx.num_results - 1)


@rule("LayerNormalization")
def _layer_norm(cx):
    x = cx.shape(0)
    if x is None:
        return [None] * cx.num_results
    axis = norm_axis(cx.attr("axis"), len(x))
    stat = x[:axis] + (1,) * (len(x) - axis)
    return [x] + [stat] * (cx.num_results - 1)


@rule("Dropout")
def _dropout(cx):
    return [cx.shape(0)] * cx.num_results


# ---------------------------------------------------------------- shapes and data movement

@rule("Shape")
def _shape(cx):
    x = cx.shape(0)
    if x is None:
        return [(None,)]
    r = len(x)
    start = cx.attr("start") or 0
    end = cx.attr("end")
    start = min(max(start + r if start < 0 else start, 0), r)
    end = r if end is None else min(max(end + r if end < 0 else end, 0), r)
    dims = list(x[start:end])
    cx.set_value(0, (len(dims),), dims)
    return [(len(dims),)]


@rule("Size")
def _size(cx):
    x = cx.shape(0)
    n = product(x) if x is not None else None
    if n is not None:
        cx.set_value(0, (), [n])
    return [()]


@rule("Constant")
def _constant(cx):
    props = cx.op._props
    for name, a in props.items():
        if name in ("value", "sparse_value"):
            return [a.type]
        if name == "value_int":
            cx.set_value(0, (), [a.value])
            return [A.RankedTensorType((), A.i64)]
        if name == "value_ints":
            vals = [x.value for x in a.value]
            cx.set_value(0, (len(vals),), vals)
            return [A.RankedTensorType((len(vals),), A.i64)]
        if name == "value_float":
            return [A.RankedTensorType((), A.f32)]
        if name == "value_floats":
            return [A.RankedTensorType((len(a.value),), A.f32)]
        if name == "value_string":
            return [A.RankedTensorType((), O.StringType())]
        if name == "value_strings":
            return [A.RankedTensorType((len(a.value),), O.StringType())]
    return [UNKNOWN]


@rule("ConstantOfShape")
def _constant_of_shape(cx):
    v = cx.op._props.get("value")
    cx.elem[0] = v.type.element_type if v is not None else A.f32
    p = cx.value(0)
    n = cx.length(0)
    if p is not None:
        dims = tuple(cx.dims_value(0))
        if v is not None and isinstance(v.type.element_type, A.IntegerType):
            fill = O.python_value(v).reshape(-1)
            count = product(dims)
            if type(count) is int and fill.size == 1:
                cx.set_value(0, dims, [int(fill[0])] * count)
        return [dims]
    return [None if n is None else (None,) * n]


@rule("Reshape")
def _reshape(cx):
    x = cx.shape(0)
    if cx.version < 5:
        target = cx.attr("shape")
        target = None if target is None else list(target)
        n = None if target is None else len(target)
    else:
        target = cx.dims_value(1)
        n = cx.length(1)
    allowzero = cx.attr("allowzero") if cx.version >= 14 else 0
    if target is None:
        return [None if n is None else (None,) * n]
    out = []
    for i, d in enumerate(target):
        if d == 0 and not allowzero:
            out.append(x[i] if x is not None and i < len(x) else None)
        elif type(d) is Sym and not allowzero:
            out.append(_copy_or(d, x[i] if i < len(x) else d, product(x))
                       if x is not None else None)
        else:
            out.append(d)
    if out.count(-1) > 1:
        raise Conflict("the shape has more than one -1")
    total = product(x) if x is not None else None
    if -1 in out:
        i = out.index(-1)
        rest = product(out[:i] + out[i + 1:])
        if type(total) is int and type(rest) is int:
            out[i] = total // rest if rest else None
        else:
            out[i] = S.div(total, rest)   # symbols cancel: batch*128*384 / (batch*128*32)
    got = product(out)
    if differ(total, got):
        raise Conflict(f"cannot reshape {total} elements into {got}")
    p0 = cx.value(0)
    if p0 is not None:
        cx.set_value(0, out, p0.vals)
    return [tuple(out)]


def _copy_or(d, x, total):
    """A target dim `d` (a symbol) of a Reshape without allowzero, over input dim `x`
    and `total` input elements: were `d` 0 at run time, the dim would copy `x`. It is
    `d` when `x` is 0 whenever `d` is (a product of all of `d`'s names); also when the
    input is empty whenever `d` is 0 (`total` a product of them): then `d` may be off
    only for a tensor without elements (see [Note: symbolic dims]). Else unknown."""
    if x == d or x == 0 or _has_names(x, d) or _has_names(total, d):
        return d
    return None


def _has_names(m, d):
    """Whether monomial `m` is a product of all of `d`'s names (0 when `d` is)."""
    return type(m) is Sym and all(n in dict(m.atoms) for n, _ in d.atoms)


@rule("Flatten")
def _flatten(cx):
    x = cx.shape(0)
    axis = cx.attr("axis")
    if x is None:
        return [(None, None)]
    axis = axis + len(x) if axis < 0 else axis
    if not 0 <= axis <= len(x):
        raise Conflict(f"axis {cx.attr('axis')} is out of range for rank {len(x)}")
    return [(product(x[:axis]), product(x[axis:]))]


@rule("Transpose")
def _transpose(cx):
    x = cx.shape(0)
    perm = cx.attr("perm")
    if x is None:
        return [None if perm is None else (None,) * len(perm)]
    if perm is None:
        perm = list(range(len(x) - 1, -1, -1))
    if sorted(perm) != list(range(len(x))):
        raise Conflict(f"perm {perm} is not a permutation of the {len(x)} dims")
    return [tuple(x[p] for p in perm)]


@rule("Concat")
def _concat(cx):
    shapes = [cx.shape(i) for i in range(cx.n)]
    ranked = [s for s in shapes if s is not None]
    if not ranked:
        return [None]
    rank = len(ranked[0])
    axis = norm_axis(cx.attr("axis"), rank)
    out = list(ranked[0])
    for s in ranked[1:]:
        if len(s) != rank:
            raise Conflict("operands of different ranks")
        for i, d in enumerate(s):
            if i != axis:
                out[i] = merge_dims((out[i],), (d,))[0]
    total = 0
    for s in shapes:
        total = S.add(total, s[axis] if s is not None else None)
    out[axis] = total
    if rank == 1 and type(total) is int:
        vals = []
        for i in range(cx.n):
            p = cx.value(i)
            vals.extend(p.vals if p is not None else [None] * shapes[i][0])
        cx.set_value(0, (total,), vals)
    return [tuple(out)]


@rule("Split")
def _split(cx):
    x = cx.shape(0)
    k = cx.num_results
    if x is None:
        return [None] * k
    axis = norm_axis(cx.attr("axis") or 0, len(x))
    sizes = cx.ints(1) if cx.version >= 13 else cx.attr("split")
    d = x[axis]
    given = cx.has(1) if cx.version >= 13 else cx.has_attr("split")
    if sizes is None and type(d) is int and not given:
        if cx.version >= 18 and cx.has_attr("num_outputs"):
            chunk = -(-d // cx.attr("num_outputs"))
            sizes = [min(chunk, max(d - chunk * i, 0)) for i in range(k)]
        elif d % k == 0:
            sizes = [d // k] * k
    elif sizes is None and type(d) is Sym and not given:
        # equal parts (num_outputs: ceil(d / k) each, exact when the division is)
        part = S.div(d, cx.attr("num_outputs") if cx.version >= 18 and
                     cx.has_attr("num_outputs") else k)
        sizes = None if part is None else [part] * k
    out = []
    for j in range(k):
        s = list(x)
        s[axis] = sizes[j] if sizes is not None and j < len(sizes) else None
        out.append(tuple(s))
    return out


def _slice_params(cx):
    if cx.version < 10:
        return cx.attr("starts"), cx.attr("ends"), cx.attr("axes"), None
    return cx.ints(1), cx.ints(2), (cx.ints(3) if cx.has(3) else None), \
        (cx.ints(4) if cx.has(4) else None)


@rule("Slice")
def _slice(cx):
    x = cx.shape(0)
    starts, ends, axes, steps = _slice_params(cx)
    if x is None:
        return [None]
    if ends is None and cx.version >= 10 and starts is not None and \
            not (cx.has(3) and axes is None) and not (cx.has(4) and steps is None):
        out = _slice_to_symbols(cx, x, starts, cx.dims_value(2), axes, steps)
        if out is not None:
            return [out]
    if starts is None or ends is None or (cx.has(3) and axes is None) or \
            (cx.has(4) and steps is None):
        n = cx.length(1) if cx.version >= 10 else None
        if axes is not None:
            touched = {norm_axis(a, len(x)) for a in axes}
            return [tuple(None if i in touched else d for i, d in enumerate(x))]
        if n is not None and not cx.has(3):
            return [tuple(None if i < n else d for i, d in enumerate(x))]
        return [(None,) * len(x)]
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    out = list(x)
    taken = [None] * len(x)
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = norm_axis(a, len(x))
        if st == 0:
            raise Conflict("slice step is 0")
        if type(x[a]) is int:
            taken[a] = slice_range(s, e, st, x[a])
            out[a] = len(taken[a])
        else:   # a `?` dim: all of it keeps its symbol
            out[a] = x[a] if st == 1 and (s == 0 or s <= -_TO_END) and e >= _TO_END else None
    p = cx.value(0)
    if p is not None and len(x) == 1 and type(x[0]) is int:
        cx.set_value(0, (out[0],), p.vals if taken[0] is None
                     else [p.vals[i] for i in taken[0]])
    return [tuple(out)]


def slice_range(start, end, step, d):
    """The indices ONNX's Slice takes from a dim of size `d` (step not 0): a negative
    start or end counts from the end, then both clamp to [0, d] for a positive step, or
    the start to [0, d - 1] and the end to [-1, d - 1] for a negative one. Not Python's
    slice: from a start before the beginning a negative step takes element 0 here
    (onnxruntime and the spec), none in Python (and onnx.reference). The lowering
    builds the same rule in IR (onnx_to_linalg.data_movement.slice_dim)."""
    start = start + d if start < 0 else start
    end = end + d if end < 0 else end
    if step > 0:
        return range(min(max(start, 0), d), min(max(end, 0), d), step)
    return range(min(max(start, 0), d - 1), min(max(end, -1), d - 1), step)


def _slice_to_symbols(cx, x, starts, ends, axes, steps):
    """A Slice from the start of dims to ends that are symbols (`x[:, :n]`): a dim
    sliced to its own symbol is itself; a static dim k sliced to n is min(n, k), a fresh
    symbol bound so (see Sym). None when other ends are not all known."""
    if ends is None or len(ends) != len(starts) or any(e is None for e in ends):
        return None
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    out = list(x)
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = norm_axis(a, len(x))
        if st == 0:
            raise Conflict("slice step is 0")
        if type(e) is int:
            out[a] = len(slice_range(s, e, st, x[a])) if type(x[a]) is int \
                else x[a] if st == 1 and (s == 0 or s <= -_TO_END) and e >= _TO_END \
                else None
        elif st != 1 or s != 0:
            out[a] = None
        elif e == x[a]:
            out[a] = e
        else:
            out[a] = cx.state.fresh((e, x[a])) if type(x[a]) is int else None
    return tuple(out)


# A Slice bound at least this far out means "to the end" (or, negative, "from the
# start") of any dim: exporters write INT64/INT32 limits.
_TO_END = (1 << 31) - 1


@rule("Gather")
def _gather(cx):
    x, idx = cx.shape(0), cx.shape(1)
    if x is None or idx is None:
        return [None]
    axis = norm_axis(cx.attr("axis") or 0, len(x))
    out = x[:axis] + idx + x[axis + 1:]
    p, ind = cx.value(0), cx.ints(1)
    if p is not None and len(x) == 1 and type(x[0]) is int and ind is not None:
        vals = []
        for i in ind:
            if not -x[0] <= i < x[0]:
                raise Conflict(f"index {i} is out of range for dim {x[0]}")
            vals.append(p.vals[i])
        cx.set_value(0, idx, vals)
    return [out]


@rule("GatherElements")
def _gather_elements(cx):
    return [cx.shape(1)]


def _axes(cx, attr_until):
    """Axes of Squeeze/Unsqueeze/reductions: an attribute before opset `attr_until`,
    an optional input from then on. (axes or None, whether they are known)."""
    if cx.version < attr_until:
        a = cx.attr("axes")
        return a, True
    if not cx.has(1):
        return None, True
    a = cx.ints(1)
    return a, a is not None


@rule("Squeeze")
def _squeeze(cx):
    x = cx.shape(0)
    axes, known = _axes(cx, 13)
    if x is None or not known:
        return [None]
    if axes is None:
        if any(type(d) is not int for d in x):
            return [None]
        out = tuple(d for d in x if d != 1)
    else:
        drop = {norm_axis(a, len(x)) for a in axes}
        for a in drop:
            if differ(x[a], 1):
                raise Conflict(f"cannot squeeze dim {a} of size {x[a]}")
        out = tuple(d for i, d in enumerate(x) if i not in drop)
    p = cx.value(0)
    if p is not None:
        cx.set_value(0, out, p.vals)
    return [out]


@rule("Unsqueeze")
def _unsqueeze(cx):
    x = cx.shape(0)
    axes, known = _axes(cx, 13)
    if x is None:
        return [None]
    if not known or axes is None:
        n = cx.length(1)
        return [None if n is None else (None,) * (len(x) + n)]
    r = len(x) + len(axes)
    ins = sorted(norm_axis(a, r) for a in axes)
    if len(set(ins)) != len(ins):
        raise Conflict("repeated axes")
    out, it = [], iter(x)
    for i in range(r):
        out.append(1 if i in ins else next(it))
    p = cx.value(0)
    if p is not None:
        cx.set_value(0, out, p.vals)
    return [tuple(out)]


def _not_one(d):
    """A dim broadcast against an unknown one: itself if it is a static size but 1."""
    return d if type(d) is int and d != 1 else None


@rule("Expand")
def _expand(cx):
    x = cx.shape(0)
    target = cx.dims_value(1)
    if target is None:
        n = cx.length(1)
        if x is None or n is None:
            return [None]
        return [(None,) * (n - len(x)) + tuple(map(_not_one, x))]
    if x is None:
        return [tuple(map(_not_one, target))]
    r = max(len(target), len(x))
    a = (1,) * (r - len(x)) + x
    b = [1] * (r - len(target)) + target
    return [tuple(_not_one(da) if db is None else broadcast((da,), (db,))[0]
                  for da, db in zip(a, b))]


@rule("Tile")
def _tile(cx):
    x = cx.shape(0)
    reps = cx.ints(1)
    if x is None:
        n = cx.length(1)
        return [None if n is None else (None,) * n]
    if reps is None:
        return [(None,) * len(x)]
    if len(reps) != len(x):
        raise Conflict(f"{len(reps)} repeats for rank {len(x)}")
    return [tuple(S.mul(d, r) for d, r in zip(x, reps))]


@rule("Pad")
def _pad(cx):
    x = cx.shape(0)
    if x is None:
        return [None]
    if cx.version < 11:
        pads = cx.attr("pads") if cx.version >= 2 else cx.attr("paddings")
        axes = None
    else:
        pads = cx.ints(1)
        axes = cx.ints(3) if cx.has(3) else None
        if cx.has(3) and axes is None:
            return [(None,) * len(x)]
    if pads is None:
        return [(None,) * len(x)]
    axes = list(range(len(x))) if axes is None else [norm_axis(a, len(x)) for a in axes]
    if len(pads) != 2 * len(axes):
        raise Conflict(f"{len(pads)} pads for {len(axes)} axes")
    out = list(x)
    for k, a in enumerate(axes):
        out[a] = S.add(out[a], pads[k] + pads[k + len(axes)])
    return [tuple(out)]


@rule("Range")
def _range(cx):
    start, limit, delta = cx.scalar(0), cx.scalar(1), cx.scalar(2)
    if limit is None and start == 0 and type(delta) is int and delta > 0:
        return [(S.div(cx.dim_scalar(1), delta) if delta > 1 else cx.dim_scalar(1),)]
    if None in (start, limit, delta):
        return [(None,)]
    if delta == 0:
        raise Conflict("range delta is 0")
    n = max(math.ceil((limit - start) / delta), 0)
    if all(isinstance(v, int) for v in (start, limit, delta)):
        cx.set_value(0, (n,), list(range(start, limit, delta)))
    return [(n,)]


_REDUCE_ATTR_UNTIL = {"onnx.ReduceSum": 13}


@rule("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
      "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
def _reduce(cx):
    x = cx.shape(0)
    keep = cx.attr("keepdims")
    keep = 1 if keep is None else keep
    axes, known = _axes(cx, _REDUCE_ATTR_UNTIL.get(cx.op.name, 18))
    if x is None:
        return [None]
    if not known:
        if keep:
            return [tuple(1 if d == 1 else None for d in x)]
        n = cx.length(1)
        return [None if n is None else (None,) * (len(x) - n)]
    if not axes:
        if cx.attr("noop_with_empty_axes"):
            return [x]
        axes = range(len(x))
    red = {norm_axis(a, len(x)) for a in axes}
    if keep:
        return [tuple(1 if i in red else d for i, d in enumerate(x))]
    return [tuple(d for i, d in enumerate(x) if i not in red)]


@rule("ArgMax", "ArgMin")
def _arg_reduce(cx):
    x = cx.shape(0)
    if x is None:
        return [None]
    axis = norm_axis(cx.attr("axis") or 0, len(x))
    keep = cx.attr("keepdims")
    if keep is None or keep:
        return [tuple(1 if i == axis else d for i, d in enumerate(x))]
    return [tuple(d for i, d in enumerate(x) if i != axis)]


@rule("TopK")
def _topk(cx):
    x = cx.shape(0)
    if x is None:
        return [None, None]
    axis = norm_axis(cx.attr("axis"), len(x))
    k = cx.attr("k") if cx.version < 10 else cx.dim_scalar(1)
    out = tuple(k if i == axis else d for i, d in enumerate(x))
    return [out, out]


@rule("NonZero")
def _nonzero(cx):
    r = cx.rank(0)
    return [(r, None)]


@rule("DepthToSpace", "SpaceToDepth")
def _depth_space(cx):
    x = cx.shape(0)
    if x is None:
        return [None]
    if len(x) != 4:
        raise Conflict(f"input must have rank 4, not {len(x)}")
    b = cx.attr("blocksize")
    if b < 1:
        raise Conflict(f"blocksize {b} is not positive")
    n, c, h, w = x
    if cx.op.name == "onnx.DepthToSpace":
        return [(n, _div_dim(c, b * b), S.mul(h, b), S.mul(w, b))]
    return [(n, S.mul(c, b * b), _div_dim(h, b), _div_dim(w, b))]


@rule("Resize")
def _resize(cx):
    """Resize to `sizes` (opset >= 11, "stretch" policy): each resized axis takes its
    `sizes` element, a symbol too (`Concat(Shape(x)[0:2], hw)`, Segformer's decoder:
    the batch and channel dims stay the input's, which lets the lowering skip them).
    Scales and the aspect-ratio policies go to onnx's inference."""
    x = cx.shape(0)
    if cx.version < 11 or x is None or not cx.has(3) or cx.length(3) in (0, None):
        return None
    if cx.attr("keep_aspect_ratio_policy") not in (None, "stretch"):
        return None
    sizes = cx.dims_value(3)
    if sizes is None:
        return None
    axes = cx.attr("axes")
    try:
        axes = list(range(len(x))) if axes is None else [norm_axis(a, len(x)) for a in axes]
    except Conflict:
        return None    # (the lowering reports bad axes at the node)
    if len(sizes) != len(axes) or len(set(axes)) != len(axes):
        return None
    out = list(x)
    for a, d in zip(axes, sizes):
        out[a] = None if type(d) is int and d < 0 else d
    return [tuple(out)]


def _div_dim(d, k):
    """d // k for static sizes; exact division where a symbol is involved (else
    unknown)."""
    if type(d) is int and type(k) is int:
        return d // k if k else None
    return S.div(d, k)


# ---------------------------------------------------------------- sequences

@rule("SequenceConstruct")
def _sequence_construct(cx):
    t = cx.types[0] if cx.types else None
    for other in cx.types[1:]:
        t = join(t, other) if t is not None else None
    return [UNKNOWN if t is None else O.SeqType(t)]


@rule("SequenceEmpty")
def _sequence_empty(cx):
    et = O.ONNX_TO_MLIR_ELEMENT.get(cx.attr("dtype") if cx.has_attr("dtype") else 1)
    return [O.SeqType(A.UnrankedTensorType(et))]


@rule("SequenceAt")
def _sequence_at(cx):
    t = cx.type(0)
    return [t.element_type if isinstance(t, O.SeqType) else UNKNOWN]


@rule("SequenceInsert")
def _sequence_insert(cx):
    s, t = cx.type(0), cx.type(1)
    if not isinstance(s, O.SeqType) or t is None:
        return [UNKNOWN]
    j = join(s.element_type, t)
    return [UNKNOWN if j is None else O.SeqType(j)]


@rule("SequenceErase")
def _sequence_erase(cx):
    return [cx.type(0) or UNKNOWN]


@rule("SequenceLength")
def _sequence_length(cx):
    return [()]


# ---------------------------------------------------------------- control flow

def _yield_types(region):
    if not region.blocks:
        return None
    y = region.blocks[0].last
    if y is None or y.name != "onnx.Yield":
        return None
    return [o.value.type for o in y._operands]


def _if_taken(cx):
    """The region an If takes when its condition is known (a constant, a shape
    computation), else None."""
    c = cx.scalar(0)
    if c is None or len(cx.op.regions) != 2:
        return None
    return cx.op.regions[0 if c else 1]


@rule("If")
def _if(cx):
    taken = _if_taken(cx)
    if taken is not None:
        # Only that branch runs: its types and known values are the If's.
        ys = _yield_types(taken)
        if ys is None or len(ys) != cx.num_results:
            return [UNKNOWN] * cx.num_results
        y = taken.blocks[0].last
        for j in range(cx.num_results):
            p = cx.state.partial(y.operand(j))
            if p is not None:
                cx.set_value(j, p.shape, p.vals)
        return ys
    a, b = (_yield_types(r) for r in cx.op.regions)
    if a is None or b is None or len(a) != len(b) or len(a) != cx.num_results:
        return [UNKNOWN] * cx.num_results
    out = []
    for x, y in zip(a, b):
        j = join(x, y)
        out.append(UNKNOWN if j is None else j)
    return out


def _with_leading(t, dim):
    s = shape_of(t)
    if isinstance(t, A.RankedTensorType):
        return make_type((dim,) + s, t.element_type)
    if isinstance(t, A.UnrankedTensorType):
        return t
    return None


@rule("Loop")
def _loop(cx):
    ys = _yield_types(cx.op.regions[0])
    carried = cx.types[2:]
    n = len(carried)
    if ys is None or len(ys) != 1 + n + (cx.num_results - n):
        return [UNKNOWN] * cx.num_results
    out = []
    for init, body in zip(carried, ys[1:1 + n]):
        j = join(init, body)
        out.append(UNKNOWN if j is None else j)
    trips = _trip_count(cx)
    for t in ys[1 + n:]:
        s = _with_leading(t, trips)
        out.append(UNKNOWN if s is None else s)
    return out


def _always_true(cx, v, cond_arg):
    """Whether the condition `v` a Loop body yields is true on every iteration: a
    constant true, or the body's condition argument passed on (Identity) while the
    loop starts true or without a condition."""
    while True:
        if v is cond_arg:
            return not cx.has(1) or cx.scalar(1) not in (None, 0, False)
        d = getattr(v, "defining_op", None)
        if d is None or d.name != "onnx.Identity":
            break
        v = d.operand(0)
    p = cx.state.partial(v)
    return p is not None and len(p.vals) == 1 and type(p.vals[0]) in (int, float, bool) \
        and p.vals[0] not in (0, False)


def _trip_count(cx):
    """The number of iterations of a Loop when it is known before it runs, else None."""
    m = cx.scalar(0) if cx.has(0) else None
    if m is None or m < 0:
        return None
    block = cx.op.regions[0].blocks[0]
    y = block.last
    if len(block.args) < 2 or not y._operands:
        return None
    return int(m) if _always_true(cx, y.operand(0), block.args[1]) else None


@rule("Scan")
def _scan(cx):
    if cx.version < 9:
        return [UNKNOWN] * cx.num_results
    ys = _yield_types(cx.op.regions[0])
    m = cx.attr("num_scan_inputs")
    nstate = cx.n - m
    if ys is None or len(ys) != cx.num_results:
        return [UNKNOWN] * cx.num_results
    in_axes = cx.attr("scan_input_axes") or [0] * m
    seq = None
    if m:
        s = cx.shape(nstate)
        if s is not None:
            seq = s[norm_axis(in_axes[0], len(s))]
    out = []
    for init, body in zip(cx.types[:nstate], ys[:nstate]):
        j = join(init, body)
        out.append(UNKNOWN if j is None else j)
    out_axes = cx.attr("scan_output_axes") or [0] * (len(ys) - nstate)
    for k, t in enumerate(ys[nstate:]):
        s = shape_of(t)
        if s is None:
            out.append(UNKNOWN)
            continue
        ax = norm_axis(out_axes[k], len(s) + 1)
        out.append(make_type(s[:ax] + (seq,) + s[ax:], t.element_type))
    return out
