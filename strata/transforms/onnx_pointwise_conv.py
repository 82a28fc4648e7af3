"""`onnx-hoist-pointwise-conv`: a 1x1 convolution over a channel concatenation of
resized maps runs on each map before its resize, where the map is small, and folds into
the linear projection that made the map.

    strata-opt model.mlir --onnx-hoist-pointwise-conv

Before (Segformer's all-MLP decoder, one of its four inputs shown; %t is [1, 256, 384]
token-major, the stage's 16x16 map after its linear projection from 64 channels):

    %p = "onnx.MatMul"(%x, %L) : (tensor<1x256x64xf32>, tensor<64x256xf32>) -> tensor<1x256x256xf32>
    %t = "onnx.Add"(%b, %p) : (tensor<256xf32>, tensor<1x256x256xf32>) -> tensor<1x256x256xf32>
    %u = "onnx.Transpose"(%t) {perm = [0, 2, 1]} : ... -> tensor<1x256x256xf32>
    %y = "onnx.Reshape"(%u, %s) : (tensor<1x256x256xf32>, tensor<4xi64>) -> tensor<1x256x16x16xf32>
    %r = "onnx.Resize"(%y, %none, %none, %sizes) {mode = "linear"} : ... -> tensor<1x256x128x128xf32>
    %c = "onnx.Concat"(%r, %r2, %r3, %r4) {axis = 1} : ... -> tensor<1x1024x128x128xf32>
    %o = "onnx.Conv"(%c, %W, %B) {kernel_shape = [1, 1]} : ... -> tensor<1x256x128x128xf32>

After: each input's slice of the filter (W[:, 256 i : 256 (i + 1)], a matrix W_i) is
applied before the resize, and to the projection's weights (constants computed here):

    %p = "onnx.MatMul"(%x, %L') : (tensor<1x256x64xf32>, tensor<64x256xf32>) -> ...   (L' = L W_i^T)
    %t = "onnx.Add"(%b', %p) ...                                                       (b' = W_i b)
    %u = "onnx.Transpose"(%t) {perm = [0, 2, 1]} ...
    %y = "onnx.Reshape"(%u, %s) ... -> tensor<1x256x16x16xf32>
    %r = "onnx.Resize"(%y, %none, %none, %sizes) ... -> tensor<1x256x128x128xf32>
    %o = "onnx.Add"(... the four resized terms summed, then the bias B as [M, 1, 1] ...)

[Note: a pointwise convolution before the resize]
A 1x1 convolution (stride 1, no padding, one group) is a matrix W [M, C] applied to
every pixel's channel vector; Resize (modes nearest, linear, cubic; antialiased or not)
is a linear map applied to every channel's image alike, and so is an Expand that
broadcasts only the spatial dims. They commute. A convolution of
a channel concatenation is the sum of each part's convolution by its columns of W. So

    conv(concat(resize(y_1), ..., resize(y_n)), W) + B = sum_i resize(conv(y_i, W_i)) + B

and where y_i has fewer pixels than the output, its product costs M C_i h w instead of
M C_i H W: Segformer-B0's decoder fuse conv (1024 -> 256 channels at 128x128, 8.6 GFLOP,
40% of the model) keeps only its full-resolution part. When y_i is the NCHW view of a
token-major linear projection (MatMul by a constant L [K, C], plus a constant bias b,
transposed [0, 2, 1] and reshaped [N, C, h, w], as HF's Segformer writes
`proj(x).transpose(1, 2).reshape(...)`), W_i folds into it: L W_i^T [K, M] and W_i b,
and the product by W_i is gone (the decoder's four linears and its fuse conv become four
products of K x 256). Computed in float64, rounded once to f32.
It applies when:
- the Conv has kernel 1x1, strides and dilations 1, zero pads (auto_pad NOTSET or
  VALID), group 1, an f32 constant filter [M, C, 1, 1] (an onnx.Constant or a load of an
  immutable ml_program.global) and a constant bias or none; static shapes of rank 4;
- its input is an onnx.Concat on axis 1 read only by it;
- a concat input is hoisted when it is an onnx.Expand (a broadcast: DeepLab's image
  pooling branch, 1x1 -> H x W) keeping the batch and channel dims, or an onnx.Resize
  read only by the Concat, of mode
  nearest, linear or cubic and coordinate mode not tf_crop_and_resize (whose
  extrapolated pixels are a constant, not a resize of the map), aspect policy stretch,
  keeping the batch and channel dims (a scales entry of exactly 1 for the channels,
  sizes a constant whose channel entry is rewritten to M), from a map of at most as
  many pixels, and when the moved work is less (M C_i h w + 4 M H W <= M C_i H W +
  4 C_i H W, four multiply-adds per resized element). At least one input must be; the
  others keep one convolution over their own concatenation, which takes the bias (else
  the bias is added after the sum).
- the projection folds when the Reshape, Transpose, Add and MatMul are each read once,
  L and b are f32 constants ([K, C] and C elements), and K M <= K C + C M.
The interpreter's results are those of the original within rounding: the sums are
reassociated (tests: tests/lit/transforms/onnx-hoist-pointwise-conv, tests/e2e/
transforms/test_onnx_pointwise_conv.py against onnxruntime).
"""
from __future__ import annotations

from ..dialects.onnx import NoValueOp, OnnxOp, attr, onnx_op_class
from ..ir import attributes as A
from ..passes.pass_manager import Pass, Statistic
from ..passes.registry import register_pass

__all__ = ["OnnxHoistPointwiseConv", "hoist_pointwise_convs"]

# Work per resized element, in multiply-adds, for the cost rule above.
_RESIZE_WORK = 4


def _onnx(op, op_type: str) -> bool:
    return isinstance(op, OnnxOp) and type(op).op_type == op_type and type(op).domain == ""


def _static4(t) -> bool:
    return isinstance(t, A.RankedTensorType) and len(t.shape) == 4 and \
        all(d >= 0 for d in t.shape)


def _static(t, rank: int) -> bool:
    return isinstance(t, A.RankedTensorType) and len(t.shape) == rank and \
        all(d >= 0 for d in t.shape)


def constant_array(value):
    """The data of `value`, of its static shape, when it is a compile-time constant (the
    onnx lowering's `constant_array`: an onnx.Constant, a load of an immutable
    ml_program.global...), else None."""
    import numpy as np

    from ..conversion.onnx_to_linalg.common import constant_array as known
    a = known(value)
    t = value.type
    if a is None or not isinstance(t, A.RankedTensorType) or \
            any(d < 0 for d in t.shape):
        return None
    a = np.asarray(a)
    shape = tuple(t.shape)
    if a.shape != shape:
        try:
            a = np.broadcast_to(a, shape)    # a splat
        except ValueError:
            return None
    return a


def _f32(value) -> bool:
    return getattr(value.type, "element_type", None) == A.f32


def _ints(op, name, default):
    v = attr(op, name)
    return default if v is None else list(v)


def _pointwise_conv(op):
    """(W [M, C] float64, bias [M] float64 or None) when `op` is a Conv the Note lets
    move, else None."""
    import numpy as np
    if not _onnx(op, "Conv") or len(op.operands) < 2 or not _f32(op.results[0]):
        return None
    x_t, w_t = op.operands[0].type, op.operands[1].type
    if not _static4(x_t) or not _static4(w_t) or not _static4(op.results[0].type):
        return None
    if (attr(op, "group") or 1) != 1 or tuple(w_t.shape[2:]) != (1, 1) or \
            _ints(op, "kernel_shape", [1, 1]) != [1, 1] or \
            _ints(op, "strides", [1, 1]) != [1, 1] or \
            _ints(op, "dilations", [1, 1]) != [1, 1] or \
            any(_ints(op, "pads", [0, 0, 0, 0])) or \
            (attr(op, "auto_pad") or "NOTSET") not in ("NOTSET", "VALID"):
        return None
    w = constant_array(op.operands[1])
    if w is None or not _f32(op.operands[1]):
        return None
    m, c = w_t.shape[0], w_t.shape[1]
    bias = None
    if len(op.operands) > 2 and not isinstance(op.operands[2].defining_op, NoValueOp):
        b = constant_array(op.operands[2])
        if b is None or b.size != m or not _f32(op.operands[2]):
            return None
        bias = np.asarray(b, np.float64).reshape(m)
    return np.asarray(w, np.float64).reshape(m, c), bias


def _channelwise_resize(r) -> bool:
    """Whether Resize `r` maps every channel's image alike and keeps the channel count
    whatever it is (the Note's mode, coordinate, policy and channel-scale rules)."""
    import numpy as np
    if (attr(r, "mode") or "nearest") not in ("nearest", "linear", "cubic") or \
            (attr(r, "coordinate_transformation_mode") or "half_pixel") == \
            "tf_crop_and_resize" or \
            (attr(r, "keep_aspect_ratio_policy") or "stretch") != "stretch":
        return False
    axes = attr(r, "axes")
    axes = list(range(4)) if axes is None else [x % 4 for x in axes]
    if len(r.operands) > 2 and not isinstance(r.operands[2].type, A.NoneType):
        scales = constant_array(r.operands[2])
        if scales is None or (1 in axes and float(np.asarray(scales).reshape(-1)[
                axes.index(1)]) != 1.0):
            return False
    if len(r.operands) > 3 and not isinstance(r.operands[3].type, A.NoneType):
        return constant_array(r.operands[3]) is not None
    return True


def _hoistable(a, m: int):
    """The Resize or Expand defining concat input `a` when the Note lets the convolution
    move before it (M output channels), else None."""
    r = a.defining_op
    if not a.has_one_use() or not _f32(a) or \
            not (_onnx(r, "Expand") or _onnx(r, "Resize") and _channelwise_resize(r)):
        return None
    y_t, a_t = r.operands[0].type, a.type
    if not _static4(y_t) or not _static4(a_t) or tuple(y_t.shape[:2]) != tuple(a_t.shape[:2]):
        return None
    c, (h, w), (hh, ww) = y_t.shape[1], y_t.shape[2:], a_t.shape[2:]
    if h * w > hh * ww:
        return None
    if m * c * h * w + _RESIZE_WORK * m * hh * ww > m * c * hh * ww + _RESIZE_WORK * c * hh * ww:
        return None
    return r


class _Rewriter:
    """Builds the new ops before the convolution and the new weight globals."""

    __slots__ = ("module_block", "taken", "released", "conv", "loc")

    def __init__(self, module_block, taken):
        self.module_block = module_block
        self.taken = taken
        self.released = set()   # globals whose loads a rewrite erased
        self.conv = None
        self.loc = None

    def insert(self, op):
        self.conv.parent.insert_before(self.conv, op)
        return op.results[0]

    def constant(self, base: str, data):
        """A load of a new private f32 global named after `base` holding `data`."""
        import numpy as np

        from ..dialects.ml_program import GlobalLoadConstOp, GlobalOp
        from ..ir.dense import BLOBS, DenseResourceElementsAttr
        name, i = base, 0
        while name in self.taken:
            i += 1
            name = f"{base}_{i}"
        self.taken.add(name)
        data = np.ascontiguousarray(data, np.float32)
        flat = data.reshape(-1)
        flat.flags.writeable = False
        handle = BLOBS.add(name, memoryview(flat.view(np.uint8)), alignment=64)
        t = A.RankedTensorType(list(data.shape), A.f32)
        first = next((o for o in self.module_block.ops if o.name == "ml_program.global"),
                     None)
        g = GlobalOp.new(name, t, value=DenseResourceElementsAttr(t, handle),
                         visibility="private", loc=self.loc)
        if first is not None:
            self.module_block.insert_before(first, g)
        else:
            self.module_block.append(g)
        return self.insert(GlobalLoadConstOp.build(
            loc=self.loc, result_types=[t], **{"global": A.SymbolRefAttr(name)}))

    def shape_constant(self, dims):
        from ..dialects.onnx.types import elements_from_numpy
        import numpy as np
        a = np.asarray(dims, np.int64)
        t = A.RankedTensorType([len(dims)], A.IntegerType(64))
        return self.insert(onnx_op_class("Constant").create(
            (), [t], {"value": elements_from_numpy(a, t)}, None, (), 0, self.loc))

    def onnx(self, op_type, operands, shape, props=None):
        t = A.RankedTensorType(list(shape), A.f32)
        return self.insert(onnx_op_class(op_type).create(
            list(operands), [t], dict(props or {}), None, (), 0, self.loc))


def _projection(y):
    """(x, L, b or None, matmul op, add op or None, transpose, reshape) when `y` is the
    NCHW view of a token-major projection MatMul(x, L) (+ b) with constant L and b
    ([Note: a pointwise convolution before the resize]), else None."""
    import numpy as np
    reshape = y.defining_op
    if not _onnx(reshape, "Reshape") or not y.has_one_use():
        return None
    u = reshape.operands[0]
    tr = u.defining_op
    if not _onnx(tr, "Transpose") or not u.has_one_use() or \
            _ints(tr, "perm", None) != [0, 2, 1]:
        return None
    t = tr.operands[0]
    if not _static(t.type, 3) or not _static(u.type, 3) or not t.has_one_use():
        return None
    n, hw, c = t.type.shape
    if tuple(y.type.shape[:2]) != (n, c) or y.type.shape[2] * y.type.shape[3] != hw:
        return None
    add, b, p = None, None, t
    d = t.defining_op
    if _onnx(d, "Add"):
        for i in (0, 1):
            bias = constant_array(d.operands[i])
            other = d.operands[1 - i]
            if bias is not None and _f32(d.operands[i]) and bias.size == c and \
                    bias.shape[-1:] == (c,) and other.type == t.type:
                add, b, p = d, np.asarray(bias, np.float64).reshape(c), other
                break
        if add is None or not p.has_one_use():
            return None
    mm = p.defining_op
    if not _onnx(mm, "MatMul") or not _static(mm.operands[0].type, 3):
        return None
    L = constant_array(mm.operands[1])
    if L is None or not _f32(mm.operands[1]) or L.ndim != 2 or L.shape[1] != c:
        return None
    return mm.operands[0], np.asarray(L, np.float64), b, mm, add, tr, reshape


def _conv_term(rw, y, w_i, name):
    """conv(y, w_i) (no bias) for the hoisted input `y` [N, C, h, w]: folded into y's
    projection where the Note allows, else a 1x1 Conv with the slice as its filter."""
    n, c, h, w = y.type.shape
    m = w_i.shape[0]
    proj = _projection(y)
    if proj is not None:
        x, L, b, mm, add, tr, reshape = proj
        k = L.shape[0]
        if k * m <= k * c + c * m:
            p = rw.onnx("MatMul", [x, rw.constant(name + "_hoisted_w", L @ w_i.T)],
                        [n, h * w, m])
            if b is not None:
                p = rw.onnx("Add", [p, rw.constant(name + "_hoisted_b", w_i @ b)],
                            [n, h * w, m])
            u = rw.onnx("Transpose", [p], [n, m, h * w], tr.properties)
            return rw.onnx("Reshape", [u, rw.shape_constant([n, m, h, w])],
                           [n, m, h, w], reshape.properties)
    f = rw.constant(name + "_hoisted_w", w_i.reshape(m, c, 1, 1))
    return rw.onnx("Conv", [y, f], [n, m, h, w], rw.conv.properties)


def _rewrite(conv, rw) -> bool:
    import numpy as np
    x = conv.operands[0]
    cat = x.defining_op
    if not _onnx(cat, "Concat") or not x.has_one_use() or (attr(cat, "axis") % 4) != 1:
        return False
    got = _pointwise_conv(conv)
    if got is None:
        return False
    W, bias = got
    m = W.shape[0]
    parts, off = [], 0
    for a in cat.operands:
        if not _static4(a.type) or a.type.shape[0] != x.type.shape[0] or \
                tuple(a.type.shape[2:]) != tuple(x.type.shape[2:]):
            return False
        ci = a.type.shape[1]
        parts.append((a, off, ci, _hoistable(a, m)))
        off += ci
    if off != W.shape[1] or all(r is None for *_, r in parts):
        return False
    rw.conv, rw.loc = conv, conv.loc
    name = "pointwise_conv"
    n, _, hh, ww = x.type.shape
    terms = []
    # the inputs that stay: one convolution over their own concatenation, with the bias
    kept = [(a, o, ci) for a, o, ci, r in parts if r is None]
    if kept:
        cols = np.concatenate([W[:, o:o + ci] for _, o, ci in kept], axis=1)
        ins = [a for a, _, _ in kept]
        y = ins[0] if len(ins) == 1 else rw.onnx(
            "Concat", ins, [n, cols.shape[1], hh, ww], cat.properties)
        ops = [y, rw.constant(name + "_kept_w", cols.reshape(m, -1, 1, 1))]
        if bias is not None:
            ops.append(rw.constant(name + "_kept_b", bias))
        terms.append(rw.onnx("Conv", ops, [n, m, hh, ww], conv.properties))
    for a, o, ci, r in parts:
        if r is None:
            continue
        y = r.operands[0]
        z = _conv_term(rw, y, W[:, o:o + ci], name)
        if _onnx(r, "Expand"):
            terms.append(rw.onnx("Expand", [z, rw.shape_constant([n, m, hh, ww])],
                                 [n, m, hh, ww]))
            continue
        ops = list(r.operands)
        ops[0] = z
        if len(ops) > 3 and not isinstance(ops[3].type, A.NoneType):
            sizes = np.asarray(constant_array(ops[3]), np.int64).reshape(-1).copy()
            axes = attr(r, "axes")
            axes = list(range(4)) if axes is None else [v % 4 for v in axes]
            if 1 in axes:
                sizes[axes.index(1)] = m
            ops[3] = rw.shape_constant(list(sizes))
        terms.append(rw.onnx("Resize", ops, [n, m, hh, ww], r.properties))
    out = terms[0]
    for t in terms[1:]:
        out = rw.onnx("Add", [out, t], [n, m, hh, ww])
    if bias is not None and not kept:
        out = rw.onnx("Add", [out, rw.constant(name + "_b", bias.reshape(m, 1, 1))],
                      [n, m, hh, ww])
    conv.results[0].replace_all_uses_with(out)
    _erase_unused([conv], rw.released)
    return True


def _erase_unused(ops, released) -> None:
    """Erase `ops` and then the ops that only they read, once nothing uses them; the
    globals whose loads went are added to `released`."""
    todo = list(ops)
    while todo:
        op = todo.pop()
        if op is None or op.parent is None or any(r.has_uses() for r in op.results):
            continue
        if not isinstance(op, (OnnxOp, NoValueOp)) and \
                op.name != "ml_program.global_load_const":
            continue
        operands = [v.defining_op for v in op.operands]
        if op.name == "ml_program.global_load_const":
            released.add(op.properties["global"].root)
        op.erase()
        todo.extend(operands)


def hoist_pointwise_convs(module) -> int:
    """Apply [Note: a pointwise convolution before the resize] to every 1x1 Conv of
    `module`; returns how many moved."""
    block = module.regions[0].block
    taken = {op.properties["sym_name"].value for op in block.ops
             if "sym_name" in op.properties}
    rw = _Rewriter(block, taken)
    count = 0
    for top in list(block.ops):
        if top.name != "func.func":
            continue
        for op in [o for o in top.walk() if _onnx(o, "Conv")]:
            if op.parent is not None:
                count += _rewrite(op, rw)
    if count:
        from ..dialects.ml_program import drop_unread_globals
        drop_unread_globals(block, rw.released)
    return count


@register_pass
class OnnxHoistPointwiseConv(Pass):
    name = "onnx-hoist-pointwise-conv"
    summary = "Run a 1x1 convolution of a concatenation of resized maps before the " \
              "resizes, folded into the projections that made the maps"
    anchor = "builtin.module"
    num_hoisted = Statistic("num-hoisted", "Number of 1x1 convolutions moved before "
                            "their resizes")

    def run(self, op):
        self.stat("num-hoisted", hoist_pointwise_convs(op))
