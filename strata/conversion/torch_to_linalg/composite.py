"""The composite ATen ops that torch.export's training IR keeps (what
`torch.export.export` gives before `run_decompositions`), lowered directly, so that
`import_program` can skip the decomposition ([Note: importing without decomposing] in
frontends/torch/importer.py). Each goes to the builder its decomposition would reach:

    conv1d / conv2d / conv3d (.padding), conv_transpose{1,2,3}d
                                       nn.convolve (padded_conv / conv_transpose)
    batch_norm (inference)             normalization.batch_norm
    layer_norm                         nn's native_layer_norm (its first result)
    dropout, feature_dropout (eval)    the input itself
    flatten.using_ints                 a reshape (collapse_shape)
    scaled_dot_product_attention       matmul, scale (+ mask), softmax, matmul
    to.dtype_layout, to.device, to.other, type_as
                                       the cast of _to_copy
    __and__ / __or__ / __xor__.Tensor  bitwise_and / or / xor

    %y = torch.aten.conv2d %x, %w, %b, %stride, %pad, %dil, %int1
           : ... -> !torch.vtensor<[1,8,16,16],f32>
  becomes what torch.aten.convolution of the same arguments becomes.

[Note: attention lowered whole]
`scaled_dot_product_attention(q, k, v, mask?, dropout_p, is_causal, scale?, enable_gqa)`
computes what torch's math kernel (`_scaled_dot_product_attention_math`, the one
run_decompositions leaves) does, in the form strata-linalg-attention-to-microkernels
fuses: S = q @ k^T, x = S * scale (+ mask: a float mask added, a bool one as 0 / -inf),
softmax along the keys and, with a mask, torch's _safe_softmax (a row whose scores are
all -inf gives zeros, not NaN), then P @ v. `is_causal` adds -inf to the score of key j
for query i where j > i (0 elsewhere: the top-left aligned lower triangle of torch's
math kernel, which adds its masked-filled bias the same way; no row is all masked), in
the scaling generic itself (a mask computed from linalg.index, which the attention
match makes a seq x seq buffer). Dropout (p > 0) and grouped query attention
are not lowered here (the importer decomposes programs that hold them).
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ..onnx_to_linalg._linalg_util import transpose
from ..onnx_to_linalg._shape_util import Ix, finish, reshape_to, sizes
from ..onnx_to_linalg.attention import softmax
from ..onnx_to_linalg.common import elementwise, ranked, scalars
from ..onnx_to_linalg.contraction import matmul
from ..onnx_to_linalg.normalization import batch_norm
from ..onnx_to_linalg.reduction import keep_dims, reduce_tensor
from ..scalar_builders import element_type, is_float
from . import LOWERINGS, NotLowerable, lowering
from .nn import _layer_norm, _per_dim, convolve

# ------------------------------------------------------------------ convolutions


@lowering("aten.conv1d", "aten.conv2d", "aten.conv3d")
def _conv(cx):
    """convN(x, w, bias?, stride, padding, dilation, groups)."""
    return convolve(cx, cx.ints(3, "stride"), cx.ints(4, "padding"), cx.ints(5, "dilation"),
                    cx.int_(6, "groups"))


@lowering("aten.conv1d.padding", "aten.conv2d.padding", "aten.conv3d.padding")
def _conv_padding(cx):
    """convN(x, w, bias?, stride, padding: "valid" | "same", dilation, groups): "same"
    pads dilation * (k - 1) in all, the odd one at the end (as ATen's
    _convolution_mode does)."""
    mode = cx.arg(4)
    n = ranked(cx, cx.operands[0].type).rank - 2
    kernel = list(ranked(cx, cx.operands[1].type).shape[2:])
    dilations = _per_dim(cx.ints(5, "dilation"), max(n, 1), "dilation")
    if mode == "valid":
        pads = [0] * (2 * n)
    elif mode == "same":
        if any(s != 1 for s in cx.ints(3, "stride")):
            raise NotLowerable("padding='same' needs stride 1")
        total = [d * (k - 1) for d, k in zip(dilations, kernel)]
        pads = [t // 2 for t in total] + [t - t // 2 for t in total]
    else:
        raise NotLowerable(f"padding {mode!r} (expected 'valid' or 'same')")
    return convolve(cx, cx.ints(3, "stride"), pads, dilations, cx.int_(6, "groups"))


@lowering("aten.conv_transpose1d", "aten.conv_transpose2d.input",
          "aten.conv_transpose3d.input")
def _conv_transpose(cx):
    """conv_transposeN(x, w, bias?, stride, padding, output_padding, groups, dilation)."""
    return convolve(cx, cx.ints(3, "stride"), cx.ints(4, "padding"), cx.ints(7, "dilation"),
                    cx.int_(6, "groups"), True, cx.ints(5, "output_padding"))


# ------------------------------------------------------------------ normalizations


@lowering("aten.batch_norm")
def _batch_norm(cx):
    """batch_norm(x, w?, b?, running_mean?, running_var?, training, momentum, eps,
    cudnn_enabled) with the running statistics (training mode updates them: the
    importer decomposes such programs, whose running statistics become outputs)."""
    x = cx.operands[0]
    if ranked(cx, x.type).rank < 2:
        raise NotLowerable("batch norm needs an input of rank >= 2")
    if cx.bool_(5, "training") or not (cx.has_operand(3) and cx.has_operand(4)):
        raise NotLowerable("batch norm in training mode (batch statistics) is lowered "
                           "from its decomposition")
    w = cx.operands[1] if cx.has_operand(1) else None
    b = cx.operands[2] if cx.has_operand(2) else None
    return [batch_norm(cx, x, w, b, cx.operands[3], cx.operands[4],
                       cx.float_(7, "eps"))]


@lowering("aten.layer_norm")
def _layer_norm_whole(cx):
    """layer_norm(x, normalized_shape, w?, b?, eps, cudnn_enable): native_layer_norm's
    arguments in the same places, its first result."""
    return _layer_norm(cx)[:1]


# ------------------------------------------------------------------ identities, views, casts


@lowering("aten.dropout", "aten.feature_dropout", "aten.alpha_dropout",
          "aten.feature_alpha_dropout")
def _dropout(cx):
    """dropout(x, p, train): x when not training (or p = 0)."""
    if cx.bool_(2, "train") and cx.float_(1, "p") != 0.0:
        raise NotLowerable("dropout in training mode (random) is not lowered")
    return [cx.operands[0]]


@lowering("aten.flatten.using_ints")
def _flatten(cx):
    """flatten(x, start_dim, end_dim): dims start..end as one."""
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    if r == 0:
        return [finish(cx, reshape_to(cx, x, [1], []))]
    start, end = cx.int_(1, "start_dim"), cx.int_(2, "end_dim")
    if not (-r <= start < r and -r <= end < r):
        raise NotLowerable(f"dims {start}..{end} out of range for rank {r}")
    start, end = start % r, end % r
    if start > end:
        raise NotLowerable("flatten() has invalid args: start_dim cannot come after "
                           "end_dim")
    dims = sizes(cx, x)
    ix = Ix(scalars(cx))
    merged = 1
    for d in dims[start:end + 1]:
        merged = ix.mul(merged, d)
    return [finish(cx, reshape_to(cx, x, dims[:start] + [merged] + dims[end + 1:], dims))]


@lowering("aten.to.dtype_layout", "aten.to.device", "aten.to.other", "aten.type_as")
def _to(cx):
    """The `to` overloads of the training IR: a cast to the result's element type (the
    device is the target's)."""
    return LOWERINGS["aten._to_copy"](cx)


def _dunder(name):
    @lowering(f"aten.__{name}__.Tensor", f"aten.__{name}__.Scalar")
    def lower(cx):
        return LOWERINGS[f"aten.bitwise_{name}.Tensor"](cx)


for _name in ("and", "or", "xor"):
    _dunder(_name)


# ------------------------------------------------------------------ attention


@lowering("aten.scaled_dot_product_attention")
def _sdpa(cx):
    """[Note: attention lowered whole]."""
    q, k, v = cx.operands[0], cx.operands[1], cx.operands[2]
    tq, tk = ranked(cx, q.type), ranked(cx, k.type)
    ranked(cx, v.type)
    if tq.rank < 2 or tk.rank != tq.rank or v.type.rank != tq.rank:
        raise NotLowerable("attention needs q, k and v of one rank >= 2")
    if cx.float_(4, "dropout_p") != 0.0:
        raise NotLowerable("attention with dropout is not lowered")
    causal = cx.bool_(5, "is_causal")
    if len(cx.op.operands) > 7 and cx.bool_(7, "enable_gqa"):
        raise NotLowerable("grouped query attention is lowered from its decomposition")
    elt = element_type(cx.result_type())
    if not is_float(elt) or tq.element_type is not elt:
        raise NotLowerable("attention of float q, k and v of the result's type")
    d = tq.shape[-1]
    if cx.has_operand(6):
        scale = cx.float_(6, "scale")
    elif d == -1 or d is None or d < 0:
        raise NotLowerable("the head size must be static (or the scale given)")
    else:
        scale = 1.0 / math.sqrt(d)
    r = tq.rank
    kt = transpose(cx, k, list(range(r - 2)) + [r - 1, r - 2])
    s = matmul(cx, q, kt, elt)
    mask = cx.operands[3] if cx.has_operand(3) else None
    if causal and mask is not None:
        raise NotLowerable("_scaled_dot_product_attention: Explicit attn_mask should "
                           "not be set when is_causal=True")
    if causal:
        def causal_body(b, a):
            i, j = (b.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(d, A.i64)})
                    for d in (r - 2, r - 1))
            return b.add(b.mul(a, b.const(scale, elt)),
                         b.select(b.cmp("le", j, i), b.zero(elt), b.const(float("-inf"), elt)))
        x = elementwise(cx, [s], elt, causal_body)
    elif mask is None:
        x = elementwise(cx, [s], elt, lambda b, a: b.mul(a, b.const(scale, elt)))
    else:
        if element_type(mask.type) is A.i1:
            mask = elementwise(cx, [mask], elt, lambda b, m: b.select(
                m, b.zero(elt), b.const(float("-inf"), elt)))
        x = elementwise(cx, [s, mask], elt, lambda b, a, m: b.add(
            b.mul(a, b.const(scale, elt)), b.cast(m, elt)), result_shape=s.type.shape)
    p = softmax(cx, x, r - 1)
    if mask is not None:
        p = _safe(cx, x, p, r, elt)
    return [matmul(cx, p, v, elt)]


def _safe(cx, x, p, r, elt):
    """torch's _safe_softmax after softmax `p` of scores `x`: zeros where a row of `x`
    is all -inf. Written as run_decompositions writes it (some score of the row is not
    -inf: any((x == -inf) ^ true), then where(any, p, 0)), the form
    strata-linalg-attention-to-microkernels fuses ([Note: what attention is matched])."""
    rows = sizes(cx, x)
    live = reduce_tensor(cx, x, [r - 1], A.i1, lambda b, e: b.const(0, e),
                         lambda b, acc, v: b.or_(acc, v),
                         lambda b, v: b.xor(b.cmp("eq", v, b.const(float("-inf"), elt)),
                                            b.const(1, A.i1)))
    live = keep_dims(cx, live, r, [r - 1], rows)
    return elementwise(cx, [live, p], elt,
                       lambda b, m, a: b.select(m, a, b.zero(elt)), result_shape=p.type.shape)


# ------------------------------------------------------------------ differences


@lowering("aten.diff")
def _diff(cx):
    """diff(x, n, dim, prepend?, append?): x with prepend before it and append after it
    along `dim` (concat), then n times a[1:] - a[:-1] along it (!= for bools), as
    ATen's diff."""
    from ..onnx_to_linalg.data_movement import concat
    from ..onnx_to_linalg._shape_util import extract_slice
    x = cx.operands[0]
    r = ranked(cx, x.type).rank
    if r == 0:
        raise NotLowerable("diff expects input to be at least one-dimensional")
    times = cx.int_(1, "n")
    d = cx.int_(2, "dim")
    if not -r <= d < r:
        raise NotLowerable(f"dim {d} out of range for rank {r}")
    d %= r
    if times < 0:
        raise NotLowerable("order must be non-negative")
    elt = x.type.element_type
    parts = [x]
    for i, before in ((3, True), (4, False)):
        if cx.has_operand(i):
            p = cx.operands[i]
            if ranked(cx, p.type).rank != r or p.type.element_type is not elt:
                raise NotLowerable("prepend / append of the input's rank and type")
            parts.insert(0, p) if before else parts.append(p)
    a = concat(cx, parts, d) if len(parts) > 1 else x
    ix = Ix(scalars(cx))
    for _ in range(times):
        dims = sizes(cx, a)
        n = ix.max(ix.sub(dims[d], 1), 0)
        part = dims[:d] + [n] + dims[d + 1:]
        hi = extract_slice(cx, a, [0] * d + [1] + [0] * (r - d - 1), part)
        lo = extract_slice(cx, a, [0] * r, part)
        a = elementwise(cx, [hi, lo], elt, lambda b, u, v: b.xor(u, v) if elt is A.i1
                        else b.sub(u, v))
    return [finish(cx, a)]
