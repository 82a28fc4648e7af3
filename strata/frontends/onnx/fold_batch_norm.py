"""`onnx-fold-batch-norm`: an inference BatchNormalization right after a Conv,
ConvTranspose, Gemm or MatMul with constant weights is folded into those weights, at
compile time.

    strata-opt model.mlir --onnx-shape-inference --onnx-fold-batch-norm

Before (a model exported without constant folding, or a hand-made graph):

    %W = ml_program.global_load_const @W : tensor<8x3x3x3xf32>
    %B = ml_program.global_load_const @B : tensor<8xf32>
    %0 = "onnx.Conv"(%x, %W, %B) <{pads = [1, 1, 1, 1]}> : (...) -> tensor<1x8x16x16xf32>
    %1 = "onnx.BatchNormalization"(%0, %sc, %bb, %m, %v) <{epsilon = 1.0E-5 : f32}> ...
    return %1

After:

    ml_program.global private @W_bn(dense_resource<W_bn> : tensor<8x3x3x3xf32>) : ...
    ml_program.global private @W_bn_bias(dense_resource<W_bn_bias> : tensor<8xf32>) : ...
    %0 = ml_program.global_load_const @W_bn : tensor<8x3x3x3xf32>
    %1 = ml_program.global_load_const @W_bn_bias : tensor<8xf32>
    %2 = "onnx.Conv"(%x, %0, %1) <{pads = [1, 1, 1, 1]}> : (...) -> tensor<1x8x16x16xf32>
    return %2

[Note: batch norm folded into the weights]
torch.onnx.export folds an eval-mode BatchNorm into the Conv before it, but not always:
not with do_constant_folding=False, not after a ConvTranspose or a Linear, and a
hand-made graph has what it has. As onnxruntime's ConvBNFusion / MatMulBNFusion and
OpenVINO do, the batch norm y = x * s[c] + t[c] (s = gamma / sqrt(var + eps), t = beta -
mean * s: `batch_norm_affine`, [Note: batch norm with constant statistics] in
conversion/onnx_to_linalg/normalization.py) is moved into the producer's weights, in
float64, rounded once to the weights' type:
- Conv: W[f, ...] * s[f], bias B[f] * s[f] + t[f] (B 0 where absent); the output
  channel is the filter's dim 0 whatever the groups;
- ConvTranspose: output channel g * (C_out / group) + j is W[g * (C_in / group) + i, j],
  scaled per group, bias as Conv's;
- Gemm (Y = alpha * A' B' + beta * C, BN over its (N, M) result): the columns of B' (rows
  of B when transB) times s, C' = beta * C * s + t (t where there is no C), beta = 1;
- MatMul of a rank-2 A by a constant (K, M) B: B's columns times s, and an Add of t after
  it (which strata-linalg-fold-into-contractions turns into the product's initial value).
It applies when the batch norm is in inference mode (training_mode 0, no running
statistics output used), its input is the producer's result and read by nothing else,
its channel dim (1) is the producer's output channel (so not a MatMul of rank 3, whose
dim 1 is a row), the weights, bias and the four statistics are compile-time constants
(initializers: immutable ml_program globals, or onnx.Constant) of f16 / f32 / f64 data,
the statistics hold one value per channel (or one for all), and the folded values are
finite (a zero variance with epsilon 0 is left as it is). Any other batch norm is left to
convert-onnx-to-linalg, which lowers one with constant statistics as x * s + t. The old
weights stay while something else reads them.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...passes.pass_manager import Pass, Statistic
from ...passes.registry import register_pass

__all__ = ["OnnxFoldBatchNorm", "fold_batch_norms"]

_PRODUCERS = ("Conv", "ConvTranspose", "Gemm", "MatMul")


def _onnx_type(op):
    """The op's ONNX op type (default domain), or None."""
    from ...dialects.onnx import OnnxOp
    if not isinstance(op, OnnxOp) or type(op).domain != "":
        return None
    return type(op).op_type


def _prop(op, name, default):
    a = op.properties.get(name)
    return default if a is None else getattr(a, "value", a)


def _absent(op, i) -> bool:
    """Whether optional operand `i` of `op` is omitted (beyond the operands, or NoValue)."""
    return i >= len(op.operands) or op.operands[i].defining_op is not None and \
        op.operands[i].defining_op.name == "onnx.NoValue"


def _constant(v):
    """(NumPy array, its global's name or None) of a compile-time constant float value,
    else None."""
    import numpy as np

    from ...conversion.onnx_to_linalg.common import constant_array
    a = constant_array(v)
    if a is None or not np.issubdtype(np.asarray(a).dtype, np.floating):
        return None
    d = v.defining_op
    name = d.properties["global"].root if d.name == "ml_program.global_load_const" else None
    return np.asarray(a), name


def _channels(kind, op, w) -> int:
    """The producer's output channel count by its weight `w` (0 when `w` cannot be one)."""
    if kind in ("Conv", "ConvTranspose") and w.ndim < 3 or \
            kind in ("Gemm", "MatMul") and w.ndim != 2:
        return 0
    if kind == "Conv" or kind == "Gemm" and int(_prop(op, "transB", 0)):
        return w.shape[0]
    if kind == "ConvTranspose":
        g = int(_prop(op, "group", 1))
        return w.shape[1] * g if g >= 1 and w.shape[0] % g == 0 else 0
    return w.shape[1]


def _scaled(kind, op, w, s):
    """Weight `w` (float64) with each output channel c scaled by s[c] ([Note: batch norm
    folded into the weights])."""
    from ...conversion.onnx_to_linalg.normalization import scale_output_channels
    if kind == "ConvTranspose":
        return scale_output_channels(w, s, 1, int(_prop(op, "group", 1)))
    transposed = kind == "Gemm" and int(_prop(op, "transB", 0))
    return scale_output_channels(w, s, 0 if kind == "Conv" or transposed else 1)


def _fold(bn, globals_) -> bool:
    import numpy as np

    from ...conversion.onnx_to_linalg.normalization import batch_norm_affine
    from ...dialects.onnx import onnx_op_class
    if int(_prop(bn, "training_mode", 0)) or any(r.has_uses() for r in bn.results[1:]) or \
            len(bn.operands) != 5:
        return False
    x = bn.operands[0]
    op = x.defining_op
    kind = _onnx_type(op)
    if kind not in _PRODUCERS or not x.has_one_use() or len(op.results) != 1 or \
            len(op.operands) < 2 or x.type != bn.results[0].type or \
            type(x.type) is not A.RankedTensorType or x.type.rank < 2 or \
            not globals_.supports(x.type.element_type):
        return False
    if kind in ("Gemm", "MatMul") and x.type.rank != 2:
        return False    # BN's channel dim 1 is not the product's columns
    stats = [_constant(v) for v in bn.operands[1:]]
    w = _constant(op.operands[1])
    if w is None or any(st is None or st[0].ndim != 1 for st in stats):
        return False
    bias = None
    if kind != "MatMul" and not _absent(op, 2):
        bias = _constant(op.operands[2])
        if bias is None:
            return False
    f = _channels(kind, op, w[0])
    if f == 0 or any(a.shape[0] not in (1, f) for a, _ in stats) or \
            x.type.shape[1] not in (A.DYNAMIC, f):
        return False
    s, t = batch_norm_affine(*(a for a, _ in stats), float(_prop(bn, "epsilon", 1e-5)))
    s, t = np.broadcast_to(s, (f,)), np.broadcast_to(t, (f,))
    with np.errstate(all="ignore"):
        new_w = _scaled(kind, op, w[0].astype(np.float64), s)
        b = None if bias is None else bias[0].astype(np.float64)
        if b is None:
            new_b = t
        elif kind == "Gemm":    # C broadcasts to (N, M): so does C * s + t
            new_b = float(_prop(op, "beta", 1.0)) * b * s + t
        elif b.shape in ((f,), (1,)):
            new_b = np.broadcast_to(b, (f,)) * s + t
        else:
            return False
    if not (np.isfinite(new_w).all() and np.isfinite(new_b).all()):
        return False
    loc, elt = op.loc, x.type.element_type
    top = op
    while top.parent_op is not None and top.parent_op.name != "builtin.module":
        top = top.parent_op
    wname, wt = globals_.new((w[1] or "weight") + "_bn", new_w, top, loc, elt)
    bname, bt = globals_.new(wname + "_bias", new_b, top, loc, elt)
    globals_.released.update(n for _, n in (w, bias or (None, None), *stats) if n)
    old = list(op.operands[1:]) + list(bn.operands[1:])
    operands = list(op.operands)
    operands[1] = globals_.load(wname, wt, op, loc)
    b_value = globals_.load(bname, bt, op, loc)
    result = x
    if kind == "MatMul":
        add = onnx_op_class("Add").create([x, b_value], [x.type], loc=loc)
        op.parent.insert_after(op, add)
        result = add.results[0]
    else:
        operands[2:3] = [b_value]
        if kind == "Gemm":
            op.properties["beta"] = A.FloatAttr(1.0, A.f32)
    op.set_operands(operands)
    bn.results[0].replace_all_uses_with(result)
    bn.erase()
    _erase_dead(old)
    return True


def _erase_dead(values) -> None:
    """Erase the constant loads among `values` that nothing reads any more."""
    for v in values:
        d = v.defining_op
        if d is not None and d.parent is not None and not any(
                r.has_uses() for r in d.results) and \
                d.name in ("ml_program.global_load_const", "onnx.Constant", "onnx.NoValue"):
            d.erase()


def fold_batch_norms(module) -> int:
    """Fold each batch norm [Note: batch norm folded into the weights] allows into the
    op before it; returns how many."""
    from ...transforms.constant_globals import fold_each
    return fold_each(module, lambda o: _onnx_type(o) == "BatchNormalization", _fold)


@register_pass
class OnnxFoldBatchNorm(Pass):
    name = "onnx-fold-batch-norm"
    summary = "Fold inference batch norms into the Conv, ConvTranspose, Gemm or MatMul " \
              "before them when the weights are constants"
    anchor = "builtin.module"
    num_folded = Statistic("num-folded", "Number of batch norms folded into weights")

    def run(self, op):
        self.stat("num-folded", fold_batch_norms(op))
