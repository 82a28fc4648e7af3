"""`torch-fold-batch-norm`: an inference batch norm right after a convolution (or a
transposed one, or a linear layer) with constant weights is folded into its filter and
bias, at compile time.

    strata-opt model.mlir --torch-externalize-weights --torch-fold-batch-norm

Before (what torch.export leaves of `nn.Conv2d` + `nn.BatchNorm2d` in eval mode, its
weights externalized):

    %w = ml_program.global_load_const @conv.weight : tensor<8x3x3x3xf32>
    %0 = torch_c.from_builtin_tensor %w : tensor<8x3x3x3xf32> -> !torch.vtensor<[8,3,3,3],f32>
    %1 = torch.aten.convolution %x, %0, %none, ... -> !torch.vtensor<[1,8,6,6],f32>
    ... (the batch norm's weight, bias, running mean and variance: four more loads)
    %6:3 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%1, %2, %3,
             %4, %5, %momentum, %eps) : ...
    %7 = torch.aten.relu %6#0 : ...

After:

    ml_program.global private @conv.weight_bn(dense_resource<conv.weight_bn> : ...) : ...
    ml_program.global private @conv.weight_bn_bias(dense_resource<...> : tensor<8xf32>) ...
    %w = ml_program.global_load_const @conv.weight_bn : tensor<8x3x3x3xf32>
    %0 = torch_c.from_builtin_tensor %w : ...
    %b = ml_program.global_load_const @conv.weight_bn_bias : tensor<8xf32>
    %8 = torch_c.from_builtin_tensor %b : tensor<8xf32> -> !torch.vtensor<[8],f32>
    %1 = torch.aten.convolution %x, %0, %8, ... -> !torch.vtensor<[1,8,6,6],f32>
    %7 = torch.aten.relu %1 : ...

[Note: batch norm folded into the convolution]
An ONNX export of a model in eval mode has no BatchNormalization after a Conv: the
exporter folds it into the Conv's initializers (as torch.fx's fuse_conv_bn_eval and
Inductor's freezing do). torch.export keeps it, and lowered as it stands it is one more
elementwise pass over the convolution's output, which also keeps the bias and the
activation out of the convolution kernels' epilogue (ResNet-50's stem and stride-2
convolutions, MobileNetV3's projections). This pass gives the PyTorch path the ONNX
path's convolutions: for `y = bn(conv(x, w, b))` with
    s[f] = gamma[f] / sqrt(var[f] + eps)
the convolution gets the filter w[f, ...] * s[f] and the bias (b[f] - mean[f]) * s[f] +
beta[f] (gamma 1 and beta 0 where the batch norm has none, b 0 where the convolution
has none), computed in float64 and rounded once to the filter's type, each in a new
`ml_program.global` (the old ones stay while something else reads them).
It applies when:
- the batch norm is `aten._native_batch_norm_legit_no_training` (what
  run_decompositions leaves of eval-mode batch norm) whose statistics outputs are
  unused, or `aten.batch_norm` with training false (what torch.export's program holds,
  imported as it is: [Note: importing without decomposing]), and its input is the
  result, read by nothing else, of an `aten.convolution` or an `aten.conv1d/2d/3d` (the
  output channels are the filter's dim 0, whatever the groups), a transposed one
  (`aten.convolution` with transposed true, `aten.conv_transpose1d/2d/3d`: output channel
  g * (C_out / groups) + j is the filter's [g * (C_in / groups) + i, j]), or an
  `aten.linear` of a rank-2 result (BatchNorm1d after nn.Linear: the features are the
  weight's dim 0);
- the filter, the convolution's bias (or none), and the batch norm's weight, bias (or
  none), running mean and variance are constants: `torch_c.from_builtin_tensor` of an
  `ml_program.global_load_const` of an immutable global holding f32 data (what
  torch-externalize-weights makes of frozen parameters and buffers), eps a constant;
- the folded values are finite (a zero variance with eps 0 is left as it is).
Anything else is left for convert-torch-to-linalg, which lowers batch norm itself (with
constant statistics as one multiply-add per element: [Note: batch norm with constant
statistics] in conversion/onnx_to_linalg/normalization.py; onnx-fold-batch-norm is this
pass for ONNX models, with Gemm, MatMul and ConvTranspose too).
torch.compile's inference graphs get here with their parameters frozen into such globals
([Note: frozen parameters] in dynamo.py); its training graphs take them as arguments, and
nothing is folded there.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...passes.pass_manager import Pass, Statistic
from ...passes.registry import register_pass
from ...transforms.constant_globals import ConstantGlobals, fold_each
from . import _dialect as D

__all__ = ["TorchFoldBatchNorm", "fold_batch_norms"]

# the batch norms folded: {name: (operand count, index of eps, index of `training`)}
_BATCH_NORMS = {
    # what run_decompositions leaves of an eval-mode batch norm (3 results)
    "torch.aten._native_batch_norm_legit_no_training": (7, 6, None),
    # what torch.export's program holds, imported without decomposing
    "torch.aten.batch_norm": (9, 7, 5),
}
# the ops a batch norm folds into: {name: (index of `transposed` or None, index of
# `groups` of a transposed convolution or None, whether a linear layer)}
_PRODUCERS = {"torch.aten.convolution": (6, 8, False),
              **{f"torch.aten.conv{n}d{p}": (None, None, False)
                 for n in (1, 2, 3) for p in ("", ".padding")},
              "torch.aten.conv_transpose1d": (None, 6, False),
              "torch.aten.conv_transpose2d.input": (None, 6, False),
              "torch.aten.conv_transpose3d.input": (None, 6, False),
              "torch.aten.linear": (None, None, True)}


def _op_name(op) -> str:
    """The op's name, or the one a `torch.operator` carries."""
    if op.name != "torch.operator":
        return op.name
    n = op.properties.get("name")
    return n.value if n is not None else op.name


def _is_batch_norm(op) -> bool:
    return _op_name(op) in _BATCH_NORMS


def _constant_global(v):
    """(global op, its data as a float64 NumPy array) when torch value `v` is
    `torch_c.from_builtin_tensor` of a load of an immutable f32 global with data; else
    None."""
    from ...dialects.ml_program import GlobalOp
    from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
    import numpy as np
    cast = v.defining_op
    if cast is None or cast.name != "torch_c.from_builtin_tensor":
        return None
    load = cast.operands[0].defining_op
    if load is None or load.name != "ml_program.global_load_const":
        return None
    g = load.referenced_global()
    if not isinstance(g, GlobalOp) or g.mutable:
        return None
    t = g.global_type
    if getattr(t, "element_type", None) != A.f32:
        return None
    value = g.properties.get("value")
    try:
        if isinstance(value, DenseResourceElementsAttr):
            data = value.array()
        elif isinstance(value, DenseElementsAttr):
            data = np.broadcast_to(value.array, tuple(t.shape))
        else:
            return None
    except (KeyError, ValueError):   # a blob not loaded, or of the wrong size
        return None
    return g, np.asarray(data, dtype=np.float64)


def _optional_constant(v):
    """(None, None) for `torch.constant.none`, else _constant_global(v) (or None)."""
    op = v.defining_op
    if op is not None and op.name == "torch.constant.none":
        return None, None
    return _constant_global(v)


def _float_constant(v):
    op = v.defining_op
    if op is None or op.name not in ("torch.constant.float", "torch.constant.int"):
        return None
    a = op.properties.get("value")
    return float(a.value) if a is not None else None


def _bool_constant(v):
    op = v.defining_op
    if op is None or op.name != "torch.constant.bool":
        return None
    a = op.properties.get("value")
    return bool(a.value) if a is not None else None


def _load(where, sym: str, t, torch_type, loc):
    """`torch_c.from_builtin_tensor(ml_program.global_load_const @sym)` before op
    `where`; returns the torch value."""
    load = ConstantGlobals.load(sym, t, where, loc)
    cast = D.create_op("torch_c.from_builtin_tensor", [load], [torch_type], loc=loc)
    where.parent.insert_before(where, cast)
    return cast.results[0]


def _erase_dead(values) -> None:
    """Erase the ops defining `values` (and what only they read) once unused."""
    todo = [v.defining_op for v in values if v.defining_op is not None]
    while todo:
        op = todo.pop()
        if op.parent is None or any(r.has_uses() for r in op.results) or \
                op.name not in ("torch_c.from_builtin_tensor", "ml_program.global_load_const",
                                "torch.constant.float", "torch.constant.int",
                                "torch.constant.none"):
            continue
        operands = list(op.operands)
        op.erase()
        todo.extend(o.defining_op for o in operands if o.defining_op is not None)


def _fold(bn, globals_) -> bool:
    import numpy as np

    from ...conversion.onnx_to_linalg.normalization import batch_norm_affine, \
        scale_output_channels
    count, eps_at, training_at = _BATCH_NORMS[_op_name(bn)]
    if any(r.has_uses() for r in bn.results[1:]) or len(bn.operands) != count or \
            training_at is not None and _bool_constant(bn.operands[training_at]) is not False:
        return False
    y = bn.operands[0]
    conv = y.defining_op
    if conv is None or _op_name(conv) not in _PRODUCERS or not y.has_one_use():
        return False
    transposed_at, groups_at, linear = _PRODUCERS[_op_name(conv)]
    transposed = groups_at is not None
    if transposed_at is not None:
        transposed = _bool_constant(conv.operands[transposed_at])
        if transposed is None:
            return False
    groups = 1
    if transposed:
        groups = _float_constant(conv.operands[groups_at])
        if groups is None or groups != int(groups) or groups < 1:
            return False
        groups = int(groups)
    x_t, bn_t = y.type, bn.results[0].type
    if x_t != bn_t or linear and len(getattr(x_t, "sizes", None) or ()) != 2:
        return False    # (a linear layer's features are BN's channels at rank 2 only)
    if len(conv.operands) < 3:
        return False
    w = _constant_global(conv.operands[1])
    b = _optional_constant(conv.operands[2])
    stats = [_optional_constant(v) for v in bn.operands[1:3]] + \
        [_constant_global(v) for v in bn.operands[3:5]]
    eps = _float_constant(bn.operands[eps_at])
    if w is None or b is None or any(s is None for s in stats) or eps is None:
        return False
    (wg, wd), (_, bd) = w, b
    if wd.ndim < (2 if linear else 3) or transposed and wd.shape[0] % groups:
        return False
    f = wd.shape[1] * groups if transposed else wd.shape[0]
    (_, gamma), (_, beta), (_, mean), (_, var) = stats
    vectors = [v for v in (bd, gamma, beta, mean, var) if v is not None]
    if f == 0 or any(v.shape != (f,) for v in vectors):
        return False
    scale, shift = batch_norm_affine(gamma, beta, mean, var, eps)
    with np.errstate(all="ignore"):
        new_w = scale_output_channels(wd, np.broadcast_to(scale, (f,)), int(transposed),
                                      groups)
        new_b = np.broadcast_to((0.0 if bd is None else bd) * scale + shift, (f,))
    if not (np.isfinite(new_w).all() and np.isfinite(new_b).all()):
        return False
    loc = conv.loc
    wname, wt = globals_.new(wg.properties["sym_name"].value + "_bn", new_w, wg, loc)
    bname, bt = globals_.new(wname + "_bias", new_b, wg, loc)
    old = list(conv.operands[1:3]) + list(bn.operands[1:])
    globals_.released.update(g.properties["sym_name"].value
                             for g, _ in (w, b, *stats) if g is not None)
    conv.set_operand(1, _load(conv, wname, wt, conv.operands[1].type, loc))
    conv.set_operand(2, _load(conv, bname, bt, D.vtensor([f], A.f32), loc))
    bn.results[0].replace_all_uses_with(y)
    bn.erase()
    _erase_dead(old)
    return True


def fold_batch_norms(module) -> int:
    """Fold each batch norm [Note: batch norm folded into the convolution] allows into
    its convolution; returns how many."""
    return fold_each(module, _is_batch_norm, _fold)


@register_pass
class TorchFoldBatchNorm(Pass):
    name = "torch-fold-batch-norm"
    summary = "Fold inference batch norms into the convolution before them when the " \
              "weights are constants"
    anchor = "builtin.module"
    num_folded = Statistic("num-folded", "Number of batch norms folded into a convolution")

    def run(self, op):
        self.stat("num-folded", fold_batch_norms(op))
