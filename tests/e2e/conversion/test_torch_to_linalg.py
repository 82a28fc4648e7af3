"""convert-torch-to-linalg on real exported programs, checked against PyTorch eager.

Each case is a small module calling ATen ops; it is exported (torch.export, then the core
ATen decompositions), imported, lowered by the torch pipeline and run by the reference
interpreter (every case) and by the CPU target (a representative subset, each family):
outputs within 1e-5 relative of eager for f32, exact for integers and bools. The models
(an MLP, a CNN with batch norm, a transformer block with nn.MultiheadAttention and
F.scaled_dot_product_attention) run on both targets.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional

import strata  # noqa: E402
from strata.errors import StrataError  # noqa: E402


class Fn(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def _gen():
    return torch.Generator().manual_seed(0)


def randn(*shape):
    return torch.randn(*shape, generator=_gen())


def randint(lo, hi, shape):
    return torch.randint(lo, hi, shape, generator=_gen())


X, Y, V = randn(3, 4), randn(3, 4) + 0.5, randn(4)
XI, YI = randint(-5, 6, (3, 4)), randint(1, 6, (3, 4))
XB = X > 0
X4 = randn(2, 3, 8, 8)
BAG_I, BAG_O = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0, 0]), torch.tensor([0, 4, 4, 8])


class _Bag(nn.Module):
    def __init__(self, bag):
        super().__init__()
        self.bag = bag

    def forward(self, i, o=None, w=None):
        return self.bag(i, o, per_sample_weights=w)


def _seeded(make):
    torch.manual_seed(0)
    return make()


CASES = {
    # elementwise, with PyTorch's type promotion and scalar overloads
    "add_alpha": (lambda a, b: torch.add(a, b, alpha=2), (X, Y)),
    "add_scalar": (lambda a: a + 1.5, (X,)),
    "add_int_tensor_float_scalar": (lambda a: a + 1.5, (XI,)),
    "sub_broadcast": (lambda a, b: a - b, (X, V)),
    "rsub": (lambda a: 1 - a, (X,)),
    "mul_int": (lambda a, b: a * b, (XI, YI)),
    "mul_bool": (lambda a, b: a * b, (XB, XB)),
    "div": (lambda a, b: a / b, (X, Y)),
    "div_ints_is_float": (lambda a, b: a / b, (XI, YI)),
    "div_floor": (lambda a, b: torch.div(a, b, rounding_mode="floor"), (X, Y)),
    "div_trunc_int": (lambda a, b: torch.div(a, b, rounding_mode="trunc"), (XI, YI)),
    "floor_divide_int": (lambda a, b: a // b, (XI, YI)),
    "remainder": (lambda a, b: a % b, (X, Y)),
    "remainder_int": (lambda a, b: a % b, (XI, YI)),
    "fmod_int": (lambda a, b: torch.fmod(a, b), (XI, YI)),
    "pow_scalar": (lambda a: a.abs() ** 1.7, (X,)),
    "pow_square": (lambda a: a ** 2, (X,)),
    "pow_tensor": (lambda a, b: a.abs() ** b, (X, Y)),
    "pow_int": (lambda a: a ** 3, (XI,)),
    "unary": (lambda a: torch.exp(a) + torch.log(a.abs()) + torch.sqrt(a.abs()) +
              torch.rsqrt(a.abs() + 1) + torch.tanh(a) + torch.sigmoid(a) + torch.erf(a) -
              a + torch.abs(a) + torch.reciprocal(a + 3) + torch.log1p(a.abs()) +
              torch.expm1(a) + torch.sin(a) + torch.cos(a), (X,)),
    "abs_neg_int": (lambda a: torch.abs(a) - a, (XI,)),
    "activations": (lambda a: F.relu(a) + F.gelu(a) + F.gelu(a, approximate="tanh") +
                    F.silu(a) + F.leaky_relu(a, 0.1) + F.elu(a) + F.hardtanh(a) +
                    F.hardswish(a) + F.hardsigmoid(a) + F.softplus(a) + F.mish(a) +
                    F.relu6(a), (X,)),
    "rounding": (lambda a: torch.floor(a * 3) + torch.ceil(a * 3) + torch.round(a * 3) +
                 torch.trunc(a * 3) + torch.sign(a), (X,)),
    "clamp": (lambda a: torch.clamp(a, -0.5, 0.5) + torch.clamp(a, min=0.1) +
              torch.clamp(a, max=0.2), (X,)),
    "clamp_tensor": (lambda a, b: torch.clamp(a, min=b), (X, Y)),
    "clamp_int": (lambda a: torch.clamp(a, -2, 3), (XI,)),
    "where": (lambda a, b: torch.where(a > b, a, b), (X, Y)),
    "where_scalar": (lambda a: torch.where(a > 0, a, 0.0), (X,)),
    "comparisons": (lambda a, b: ((a < b) | (a >= 0.2)) & ~(a == b) ^ (a != 0.1) |
                    (a <= b) & (a > -1), (X, Y)),
    "compare_int_with_float": (lambda a: a > 1.5, (XI,)),
    "compare_int_tensors": (lambda a, b: a < b, (XI, YI)),
    "logical": (lambda a, b: torch.logical_and(a, b) | torch.logical_or(a, ~b) |
                torch.logical_xor(a, b), (XB, X < 0.5)),
    "atan2_hypot": (lambda a, b: torch.atan2(a, b) + torch.hypot(a, b), (X, Y)),
    "maximum_minimum": (lambda a, b: torch.maximum(a, b) + torch.minimum(a, b), (X, Y)),
    "masked_fill": (lambda a: a.masked_fill(a > 0, -1.0), (X,)),
    "to_int": (lambda a: a.to(torch.int32) + 1, (X * 4,)),
    "to_float": (lambda a: a.to(torch.float32) * 0.5, (XI,)),
    "bool_to_float": (lambda a: a.float() + 1, (XB,)),
    "isnan": (lambda a: torch.isnan(a.log()), (X,)),
    # products
    "mm": (lambda a, b: a @ b, (X, randn(4, 5))),
    "bmm": (lambda a, b: torch.bmm(a, b), (randn(2, 3, 4), randn(2, 4, 5))),
    "matmul_broadcast": (lambda a, b: a @ b, (randn(2, 3, 4), randn(4, 5))),
    "matmul_4d": (lambda a, b: a @ b, (randn(2, 2, 3, 4), randn(2, 2, 4, 5))),
    "matvec": (lambda a, b: a @ b, (X, V)),
    "addmm": (lambda b, a, c: torch.addmm(b, a, c, beta=0.5, alpha=2.0),
              (randn(5), X, randn(4, 5))),
    "linear": (lambda: nn.Linear(4, 6), (X,)),
    "linear_3d_no_bias": (lambda: nn.Linear(4, 6, bias=False), (randn(2, 3, 4),)),
    # convolution
    "conv2d": (lambda: nn.Conv2d(3, 4, 3, padding=1), (X4,)),
    "conv2d_strided_dilated_grouped": (lambda: nn.Conv2d(3, 6, 3, stride=2, dilation=2,
                                                         padding=2, groups=3), (X4,)),
    "conv2d_depthwise": (lambda: nn.Conv2d(3, 3, 3, groups=3, bias=False), (X4,)),
    "conv1d": (lambda: nn.Conv1d(3, 4, 3, padding=1, stride=2), (randn(2, 3, 10),)),
    "conv3d": (lambda: nn.Conv3d(2, 4, 3, padding=1), (randn(1, 2, 5, 5, 5),)),
    "conv_transpose2d": (lambda: nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1), (X4,)),
    "conv_transpose2d_grouped": (lambda: nn.ConvTranspose2d(3, 6, 3, stride=2, padding=1,
                                                            output_padding=1, groups=3),
                                 (X4,)),
    "conv_transpose1d": (lambda: nn.ConvTranspose1d(3, 2, 4, stride=3, padding=2,
                                                    dilation=2, bias=False),
                         (randn(2, 3, 7),)),
    # pooling
    "max_pool2d": (lambda a: F.max_pool2d(a, 3, 2, 1), (X4,)),
    "max_pool2d_ceil": (lambda a: F.max_pool2d(a, 3, 2, ceil_mode=True), (X4,)),
    "max_pool2d_dilated": (lambda a: F.max_pool2d(a, 2, 1, dilation=2), (X4,)),
    "max_pool1d": (lambda a: F.max_pool1d(a, 2), (randn(2, 3, 9),)),
    "max_pool2d_no_batch": (lambda a: F.max_pool2d(a, 2, return_indices=True),
                            (randn(3, 6, 6),)),
    "avg_pool1d_no_batch": (lambda a: F.avg_pool1d(a, 3, 2, 1), (randn(3, 9),)),
    "max_pool2d_indices": (lambda a: F.max_pool2d(a, 3, 2, 1, ceil_mode=True,
                                                  return_indices=True), (X4,)),
    "max_pool2d_nan": (lambda a: F.max_pool2d(a.masked_fill(a > 1.5, float("nan")), 2,
                                              return_indices=True), (X4,)),
    "avg_pool2d_divisor": (lambda a: F.avg_pool2d(a, 3, 2, 1, divisor_override=2), (X4,)),
    "avg_pool2d": (lambda a: F.avg_pool2d(a, 3, 2, 1), (X4,)),
    "avg_pool2d_exclude_pad": (lambda a: F.avg_pool2d(a, 3, 2, 1, count_include_pad=False),
                               (X4,)),
    "avg_pool2d_ceil": (lambda a: F.avg_pool2d(a, 3, 2, ceil_mode=True), (X4,)),
    "adaptive_avg_pool2d": (lambda a: F.adaptive_avg_pool2d(a, (2, 4)), (X4,)),
    "adaptive_avg_pool2d_1": (lambda a: F.adaptive_avg_pool2d(a, 1), (X4,)),
    "adaptive_avg_pool2d_irregular": (lambda a: F.adaptive_avg_pool2d(a, (5, 3)), (X4,)),
    "adaptive_avg_pool2d_no_batch": (lambda a: F.adaptive_avg_pool2d(a, (3, None)),
                                     (randn(3, 7, 6),)),
    "adaptive_max_pool2d_irregular": (lambda a: F.adaptive_max_pool2d(a, (5, 3)), (X4,)),
    "adaptive_max_pool2d_indices": (lambda a: F.adaptive_max_pool2d(a, (2, 4), True),
                                    (X4,)),
    "adaptive_max_pool1d_no_batch": (lambda a: F.adaptive_max_pool1d(a, 3),
                                     (randn(3, 7),)),
    "adaptive_max_pool3d": (lambda a: F.adaptive_max_pool3d(a, (2, 3, 3)),
                            (randn(1, 2, 4, 6, 5),)),
    # normalization, softmax
    "batch_norm": (lambda: nn.BatchNorm2d(3).eval(), (X4,)),
    "batch_norm_no_affine": (lambda: nn.BatchNorm2d(3, affine=False).eval(), (X4,)),
    "batch_norm_training": (lambda: nn.BatchNorm2d(3).train(), (X4,)),
    "layer_norm": (lambda: nn.LayerNorm([8, 8]), (X4,)),
    "layer_norm_no_affine": (lambda: nn.LayerNorm(8, elementwise_affine=False), (X4,)),
    "group_norm": (lambda: nn.GroupNorm(3, 6), (randn(2, 6, 4, 4),)),
    "softmax": (lambda a: F.softmax(a, 0) + F.log_softmax(a, 1), (X,)),
    # reductions
    "sum": (lambda a: a.sum() + a.sum(1).sum() + a.sum((0, 1), keepdim=True).sum(), (X,)),
    "sum_int": (lambda a: a.sum(0), (XI,)),
    "sum_bool": (lambda a: a.sum(1), (XB,)),
    "mean": (lambda a: a.mean(-1, keepdim=True) + a.mean(), (X,)),
    "amax_amin": (lambda a: a.amax(1) + a.amin(0).sum(), (X,)),
    "max_dim": (lambda a: torch.max(a, 1), (X,)),
    "min_dim_keepdim": (lambda a: torch.min(a, 0, keepdim=True), (X,)),
    "max_min_all": (lambda a: a.max() - a.min(), (X,)),
    "argmax_argmin": (lambda a: a.argmax(1) + a.argmin(0).sum() + a.argmax(), (X,)),
    "var_std": (lambda a: a.var(1) + a.var(0, unbiased=False).sum() + a.std(), (X,)),
    "prod": (lambda a: a.prod(1), (X,)),
    "any_all": (lambda a: a.any(1) | a.all(), (XB,)),
    "cumsum": (lambda a: a.cumsum(1), (X,)),
    "topk": (lambda a: a.topk(2, 1), (X,)),
    "topk_smallest": (lambda a: a.topk(3, 0, largest=False), (X,)),
    # views and data movement
    "view": (lambda a: a.view(2, 6) * 2, (X,)),
    "reshape_inferred": (lambda a: a.reshape(-1, 2), (X,)),
    "flatten": (lambda a: a.flatten(1), (X4,)),
    "permute": (lambda a: a.permute(2, 0, 3, 1) + 0, (X4,)),
    "transpose": (lambda a: a.transpose(0, 1) * 1, (X,)),
    "t": (lambda a: a.t() + 1, (X,)),
    "expand": (lambda a: a.expand(3, 4) + 0, (V,)),
    "expand_new_dim": (lambda a: a.unsqueeze(0).expand(2, -1, -1) + 0, (X,)),
    "unsqueeze": (lambda a: a.unsqueeze(1) + 0, (X,)),
    "squeeze_dim": (lambda a: a.squeeze(1) + 0, (randn(3, 1, 4),)),
    "squeeze_all": (lambda a: a.squeeze() + 0, (randn(3, 1, 4, 1),)),
    "slice": (lambda a: a[1:, ::2] + a[-2:, 1:3].sum(), (X,)),
    "slice_negative": (lambda a: a[:, -3:-1] + 0, (X,)),
    "select": (lambda a: a[1] + a[:, -1].sum(), (X,)),
    "cat": (lambda a, b: torch.cat([a, b, a], 1), (X, Y)),
    "cat_promoted": (lambda a, b: torch.cat([a, b.float()], 0), (X, XI)),
    "stack": (lambda a, b: torch.stack([a, b], 1), (X, Y)),
    "split_with_sizes": (lambda a: [t * 1 for t in torch.split(a, [1, 3], 1)], (X,)),
    "chunk": (lambda a: [t * 1 for t in torch.chunk(a, 2, 1)], (X,)),
    "embedding": (lambda: nn.Embedding(10, 4), (randint(0, 10, (2, 3)),)),
    "index_select": (lambda a, i: a.index_select(1, i), (X, torch.tensor([0, 2, 3]))),
    "gather": (lambda a, i: a.gather(1, i), (X, randint(0, 4, (3, 2)))),
    "gather_0d": (lambda a, i: a.gather(0, i), (torch.tensor(1.5), torch.tensor(0))),
    "index_select_0d": (lambda a, i: a.index_select(0, i), (torch.tensor(1.5),
                                                            torch.tensor([0]))),
    "index_rows": (lambda a, i: a[i], (X, torch.tensor([2, 0, -1]))),
    "index_broadcast": (lambda a, i, j: a[i, j], (X, torch.tensor([[2], [0]]),
                                                  torch.tensor([1, -1, 3]))),
    "index_middle_dim": (lambda a, i: a[:, i] + 0, (X4, torch.tensor([2, 0]))),
    "index_apart": (lambda a, i: a[i, :, i], (X4, torch.tensor([1, 0]))),
    # nn.EmbeddingBag (aten._embedding_bag): an empty bag (offsets 4, 4), padding_idx
    "embedding_bag_mean": (lambda: _Bag(nn.EmbeddingBag(10, 6, mode="mean")),
                           (BAG_I, BAG_O)),
    "embedding_bag_max_2d": (lambda: _Bag(nn.EmbeddingBag(10, 6, mode="max")),
                             (BAG_I.view(2, 5),)),
    "embedding_bag_sum_weights_last": (
        lambda: _Bag(nn.EmbeddingBag(10, 6, mode="sum", include_last_offset=True)),
        (BAG_I, BAG_O, torch.rand(10, generator=torch.Generator().manual_seed(1)))),
    "embedding_bag_padding_idx": (
        lambda: _Bag(nn.EmbeddingBag(10, 6, mode="mean", padding_idx=4)), (BAG_I, BAG_O)),
    # all four results of _embedding_bag ([Note: bags of embeddings, lowered]): the
    # bags, offset2bag, bag_size (less padding_idx) and max_indices (ties: the first)
    "embedding_bag_results_max": (
        lambda w, i, o: torch.ops.aten._embedding_bag(w, i, o, False, 2, False, None,
                                                      False, 4),
        (torch.randn(10, 3, generator=torch.Generator().manual_seed(2)).round(), BAG_I,
         BAG_O)),
    "embedding_bag_results_mean_last": (
        lambda w, i, o: torch.ops.aten._embedding_bag(w, i, o, False, 1, False, None,
                                                      True, 0),
        (torch.randn(10, 3, generator=torch.Generator().manual_seed(3)), BAG_I,
         torch.tensor([0, 4, 4, 8, 10]))),
    # [Note: bool masks as indices]: a run-time number of elements
    "index_bool_mask": (lambda a: a[a > 0], (X4,)),
    "index_bool_mask_2d": (lambda a, m: a[m], (X4, X4[:, :, 0, 0] > 0)),
    "index_bool_mask_dim1": (lambda a, m: a[:, m] * 2,
                             (X4, torch.tensor([True, False, True]))),
    "index_bool_mask_none_true": (lambda a: a[a > 100], (X4,)),
    "index_put": (lambda a, i, v: a.index_put((i,), v), (X, torch.tensor([2, 0]),
                                                        randn(2, 4))),
    "index_put_accumulate": (lambda a, i, v: a.index_put((i,), v, accumulate=True),
                             (X, torch.tensor([2, 0, 2]), randn(4))),
    "index_put_two_indices": (lambda a, i, j, v: a.index_put((i, j), v),
                              (X, torch.tensor([2, 0]), torch.tensor([1, -1]), randn(2))),
    "index_add": (lambda a, i, v: a.index_add(1, i, v), (X, torch.tensor([2, 0]),
                                                         randn(3, 2))),
    "interpolate_nearest": (lambda a: F.interpolate(a, scale_factor=2), (X4,)),
    "interpolate_nearest_size": (lambda a: F.interpolate(a, size=(5, 11)), (X4,)),
    "interpolate_nearest_exact": (lambda a: F.interpolate(a, size=(5, 11),
                                                          mode="nearest-exact"), (X4,)),
    "interpolate_bilinear": (lambda a: F.interpolate(a, scale_factor=2, mode="bilinear"),
                             (X4,)),
    "interpolate_bilinear_align": (lambda a: F.interpolate(a, size=(5, 11), mode="bilinear",
                                                           align_corners=True), (X4,)),
    "interpolate_bicubic": (lambda a: F.interpolate(a, scale_factor=1.5, mode="bicubic"),
                            (X4,)),
    # antialiased (Pillow's filters; timm resamples position embeddings so): shrinking
    # stretches the filter, taps past the edges are dropped and the rest renormalized
    "interpolate_bilinear_antialias": (lambda a: F.interpolate(
        a, size=(3, 5), mode="bilinear", antialias=True), (X4,)),
    "interpolate_bicubic_antialias": (lambda a: F.interpolate(
        a, size=(5, 13), mode="bicubic", antialias=True), (X4,)),
    "interpolate_bicubic_antialias_scale": (lambda a: F.interpolate(
        a, scale_factor=(0.37, 1.7), mode="bicubic", antialias=True), (randn(2, 3, 14, 9),)),
    # sizes and scales both given: the sizes, the coordinates by the scales (ATen's
    # rule; an OpInfo sample of _upsample_bilinear2d_aa)
    "interpolate_antialias_sizes_and_scales": (
        lambda a: torch.ops.aten._upsample_bilinear2d_aa(a, [3, 5], False, 1.7, 0.9), (X4,)),
    # with align_corners (ATen's ratio (in - 1) / (out - 1) in the same centres)
    "interpolate_bilinear_antialias_align_corners": (lambda a: F.interpolate(
        a, size=(3, 11), mode="bilinear", antialias=True, align_corners=True), (X4,)),
    "interpolate_linear1d_align": (lambda a: F.interpolate(a, scale_factor=2, mode="linear",
                                                           align_corners=True),
                                   (randn(2, 3, 7),)),
    # Tensor.unfold: sliding windows along one dim (timm's HaloNet blocks), the
    # window dim appended last; a step past the size skips elements
    "unfold_windows": (lambda a: a.unfold(2, 3, 2) * 2, (X4,)),
    "unfold_negative_dim_step_past_size": (lambda a: a.unfold(-1, 2, 3) + 1, (X4,)),
    "unfold_whole_dim": (lambda a: a.unfold(0, 3, 1) - 1, (X,)),
    # as_strided_scatter (AOTAutograd's backward writes gradients into strided views):
    # a strided window, a transposed one, a 0-d view, an empty one
    "as_strided_scatter": (lambda a, b: torch.as_strided_scatter(a * 1, b, (2, 3), (6, 2), 1),
                           (randn(4, 6), randn(2, 3))),
    "as_strided_scatter_transposed": (lambda a, b: torch.as_strided_scatter(
        a + 0, b, (4, 3), (1, 4), 0), (randn(3, 4), randn(4, 3))),
    "as_strided_scatter_0d": (lambda a, b: torch.as_strided_scatter(a * 1, b, (), (), 3),
                              (randn(5), randn(()))),
    "as_strided_scatter_empty": (lambda a, b: torch.as_strided_scatter(
        a * 1, b, (0, 2), (4, 1), 0), (randn(4, 4), randn(0, 2))),
    "scatter": (lambda a, i, b: a.scatter(1, i, b),
                (X, torch.tensor([[0, 1], [2, 3], [3, 0]]), Y)),
    "scatter_value": (lambda a, i: a.scatter(0, i, 2.5), (X, torch.tensor([[0, 1, 2, 0]]))),
    "scatter_add": (lambda a, i, b: a.scatter_add(0, i, b),
                    (X, torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]]), Y)),
    "scatter_reduce_amax": (lambda a, i, b: a.scatter_reduce(0, i, b, "amax"),
                            (X, torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]]), Y)),
    "repeat": (lambda a: a.repeat(2, 1, 3), (X,)),
    "flip": (lambda a: a.flip(0, -1), (X,)),
    "diagonal": (lambda a, b: torch.diagonal(a, 1) + torch.diagonal(b, -1, 2, 3).sum(),
                 (X, X4)),
    "sort": (lambda a: torch.sort(a, 1, descending=True), (X,)),
    "argsort": (lambda a: torch.argsort(a, 0), (X,)),
    "vector_norm": (lambda a: torch.linalg.vector_norm(a, dim=1) +
                    torch.linalg.vector_norm(a, 3.0) +
                    torch.linalg.vector_norm(a, float("inf"), 0).sum(), (X,)),
    "normalize_cosine": (lambda a, b: F.normalize(a, dim=1).sum(0) +
                         F.cosine_similarity(a, b, dim=0), (X, Y)),
    "instance_norm": (lambda a: F.instance_norm(a), (X4,)),
    "dropout_eval": (lambda: nn.Dropout(0.3).eval(), (X,)),
    "constant_pad": (lambda a: F.pad(a, (1, 2, 0, 1), value=0.5), (X,)),
    "clone_copy": (lambda a: a.new_zeros(3, 4).copy_(a) * 2 + a.clone(), (X,)),
    # factories
    "full_zeros_ones": (lambda a: a + torch.full((3, 4), 2.0) + torch.zeros(4) +
                        torch.ones(3, 1), (X,)),
    "like": (lambda a: torch.zeros_like(a) + torch.ones_like(a) * 3 +
             torch.full_like(a, 2), (X,)),
    "arange": (lambda a: a + torch.arange(4), (X,)),
    "arange_float": (lambda a: a + torch.arange(0, 2, 0.5), (X,)),
    # integer results of float arguments ([Note: arange of an integer type]): HF Funnel's
    # arange(0, n, 1.0, dtype=long); int64 counts the truncated numbers, int32 in double
    "arange_int_of_floats": (lambda a: (a[0, 0] + torch.arange(0, 16, 1.0,
                                                               dtype=torch.long),
                                        torch.arange(0, 2.5, 1, dtype=torch.long),
                                        torch.arange(0.5, 4, 1.5, dtype=torch.long),
                                        torch.arange(0, 2.5, 1, dtype=torch.int32),
                                        torch.arange(0.7, 3.6, 1.2, dtype=torch.int32)),
                             (torch.arange(12).reshape(3, 4),)),
    # attention
    "multihead_attention": (lambda: nn.MultiheadAttention(8, 2, batch_first=True).eval(),
                            (randn(2, 5, 8),) * 3),
    "sdpa": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v),
             (randn(2, 2, 5, 8), randn(2, 2, 6, 8), randn(2, 2, 6, 8))),
    "sdpa_causal": (lambda q: F.scaled_dot_product_attention(q, q, q, is_causal=True),
                    (randn(2, 2, 5, 8),)),
}

# One case per family on the CPU target (compiling every case natively takes minutes).
CPU_CASES = ["add_alpha", "div_trunc_int", "remainder_int", "unary", "activations",
             "comparisons", "where_scalar", "to_int", "matmul_4d", "addmm", "linear",
             "conv2d_strided_dilated_grouped", "conv1d", "conv_transpose2d_grouped",
             "adaptive_avg_pool2d_irregular", "max_pool2d_ceil", "max_pool2d_indices", "max_pool2d_nan",
             "avg_pool2d_exclude_pad", "adaptive_avg_pool2d",
             "adaptive_max_pool2d_irregular", "adaptive_max_pool2d_indices",
             "batch_norm", "batch_norm_training", "layer_norm", "group_norm", "softmax",
             "sum_bool", "max_dim", "argmax_argmin", "var_std", "any_all", "cumsum", "topk",
             "permute", "expand_new_dim", "slice", "select", "cat_promoted", "chunk",
             "embedding", "gather", "index_broadcast", "index_apart",
             "index_bool_mask", "index_bool_mask_2d",
             "embedding_bag_mean", "embedding_bag_max_2d", "embedding_bag_results_max",
             "interpolate_nearest",
             "interpolate_bilinear", "interpolate_bicubic_antialias", "unfold_windows",
             "as_strided_scatter", "scatter_add", "index_put_accumulate", "repeat", "flip",
             "sort", "constant_pad", "arange", "arange_int_of_floats", "multihead_attention",
             "sdpa_causal"]


def _module(make):
    """A case's module: `make` builds one (no parameters), or is the forward itself."""
    import inspect
    if inspect.signature(make).parameters:
        return Fn(make)
    return _seeded(make)


def _flat(out):
    if isinstance(out, torch.Tensor):
        return [out]
    flat = []
    for o in out:
        flat.extend(_flat(o))
    return flat


def check(module, args, target, dynamic_shapes=None, run_args=None):
    """Compile `module` for `target` and compare its outputs on `run_args` (default
    `args`) with eager's."""
    f = strata.compile(module, example_args=args, dynamic_shapes=dynamic_shapes,
                       target=target)
    run_args = args if run_args is None else run_args
    with torch.no_grad():
        want = _flat(module(*run_args))
    got = _flat(f(*run_args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, torch.Tensor)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        if w.dtype.is_floating_point:
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_interpret(name):
    make, args = CASES[name]
    check(_module(make), args, "interpret")


@pytest.mark.parametrize("name", CPU_CASES)
def test_op_cpu(name):
    make, args = CASES[name]
    check(_module(make), args, "cpu")


# ------------------------------------------------------------------ models


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 16), nn.Linear(16, 4)

    def forward(self, x):
        return F.softmax(self.b(F.gelu(self.a(x))), -1)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, groups=2)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.c1(x))), 2)
        x = F.avg_pool2d(self.c2(x), 2, ceil_mode=True)
        return F.log_softmax(self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1)), 1)


class Block(nn.Module):
    """A transformer block: embedding, layer norm, nn.MultiheadAttention, causal
    scaled_dot_product_attention, a feed-forward layer."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 16)
        self.ln = nn.LayerNorm(16)
        self.att = nn.MultiheadAttention(16, 2, batch_first=True)
        self.ff = nn.Linear(16, 16)

    def forward(self, ids):
        x = self.emb(ids)
        h = self.ln(x)
        a, _ = self.att(h, h, h, need_weights=False)
        x = x + a
        q = x.view(x.shape[0], x.shape[1], 2, 8).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        y = y.transpose(1, 2).reshape(x.shape)
        return F.silu(self.ff(x + y)).mean(-1)


MODELS = {"mlp": (MLP, (randn(2, 8),)), "cnn": (CNN, (randn(1, 3, 16, 16),)),
          "block": (Block, (randint(0, 10, (2, 5)),))}


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_model(name, target):
    cls, args = MODELS[name]
    check(_seeded(lambda: cls().eval()), args, target)


# ------------------------------------------------------------------ dynamic shapes


class Dynamic(nn.Module):
    """Symbolic sizes flow through view (sizes from x.shape), expand, slicing and a
    reduction."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 4)

    def forward(self, x, y):
        h = self.fc(x.view(x.shape[0], -1))
        return h + y, h[1:].sum(0), h.unsqueeze(1).expand(-1, 3, -1).sum(-1)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_dynamic_batch(target):
    n = torch.export.Dim("n", min=3)
    m = _seeded(Dynamic)
    f = strata.compile(m, example_args=(randn(3, 2, 3), randn(3, 4)),
                       dynamic_shapes=({0: n}, {0: n}), target=target)
    for b in (3, 6):
        x, y = randn(b, 2, 3), randn(b, 4)
        with torch.no_grad():
            want = m(x, y)
        for g, w in zip(f(x, y), want):  # a tuple, as the model returns
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_dynamic_models(target):
    """The transformer block with a dynamic batch and sequence length (the causal mask's
    arange and the views take symbolic sizes), the CNN with a dynamic batch."""
    b = torch.export.Dim("b", min=1, max=64)
    t = torch.export.Dim("t", min=2, max=64)
    m = _seeded(lambda: Block().eval())
    f = strata.compile(m, example_args=(randint(0, 10, (2, 5)),),
                       dynamic_shapes=({0: b, 1: t},), target=target)
    for shape in ((1, 3), (3, 7)):
        ids = randint(0, 10, shape)
        with torch.no_grad():
            np.testing.assert_allclose(f(ids).numpy(), m(ids).numpy(), rtol=1e-5,
                                       atol=1e-6)
    m = _seeded(lambda: CNN().eval())
    f = strata.compile(m, example_args=(randn(2, 3, 16, 16),), dynamic_shapes=({0: b},),
                       target=target)
    for n in (1, 3):
        x = randn(n, 3, 16, 16)
        with torch.no_grad():
            np.testing.assert_allclose(f(x).numpy(), m(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("align", [False, True])
def test_antialiased_resampling_to_dynamic_sizes(align):
    """F.interpolate(antialias=True) of a parameter to the input's symbolic H and W (a
    timm ViT with dynamic_img_size resamples its position embeddings so): the taps of a
    run-time scale, shrinking and enlarging, within 1e-5 of eager at every size; with
    align_corners the run-time ratio (in - 1) / (out - 1), 0 for a one-pixel output."""
    class PosEmbed(nn.Module):
        def __init__(self):
            super().__init__()
            self.pos = nn.Parameter(randn(1, 4, 10, 10))

        def forward(self, a):
            return a + F.interpolate(self.pos, size=a.shape[-2:], mode="bicubic",
                                     antialias=True, align_corners=align)
    m = PosEmbed()
    lo = 1 if align else 2
    h, w = torch.export.Dim("h", min=lo, max=32), torch.export.Dim("w", min=lo, max=32)
    f = strata.compile(m, example_args=(randn(2, 4, 6, 7),),
                       dynamic_shapes=({2: h, 3: w},))
    with torch.no_grad():
        for shape in ((2, 4, 6, 7), (2, 4, 3, 17), (2, 4, 10, 10), (2, 4, 31, 2)) + (
                ((2, 4, 1, 5),) if align else ()):
            x = randn(*shape)
            np.testing.assert_allclose(f(x).numpy(), m(x).numpy(), rtol=1e-5, atol=1e-5)


def test_unfold_of_a_dynamic_dim():
    """Tensor.unfold along a symbolic dim: the number of windows computed at run time
    ((n - size) // step + 1), every size the Dim allows."""
    class Unfold(nn.Module):
        def forward(self, a):
            return a.unfold(1, 4, 3) * 2
    m = Unfold()
    n = torch.export.Dim("n", min=7, max=64)
    f = strata.compile(m, example_args=(randn(2, 10),), dynamic_shapes=({1: n},))
    for size in (7, 8, 13, 64):
        x = randn(2, size)
        assert torch.equal(f(x), m(x)), size


class DynamicIndex(nn.Module):
    """Advanced indexing by index tensors of symbolic sizes: HF's causal mask reads the
    padding mask at arange(b)[:, None, None, None], arange(n)[None, None, None, :];
    two index tensors of one size; index_put of rows; i and j of sizes that must
    broadcast at run time."""

    def forward(self, x, i, j, v, k, m):
        b, n = x.shape
        rows = torch.arange(b)[:, None, None, None]
        cols = torch.arange(n)[None, None, None, :]
        return x[rows, cols], x[i, j], x[:, j], x.index_put((i,), v), x[k, m]


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_dynamic_index_tensors(target):
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    b, n = torch.export.Dim("b", max=64), torch.export.Dim("n", max=64)
    k, p, q = (torch.export.Dim(c, max=64) for c in "kpq")
    def args(rows, cols, size, ksize, msize):
        return (randn(rows, cols), randint(-rows, rows, (size,)),
                randint(-cols, cols, (size,)), randn(size, cols),
                randint(0, rows, (ksize, 1)), randint(0, cols, (msize,)))
    m = DynamicIndex()
    f = strata.compile(m, example_args=args(3, 4, 2, 2, 3), target=target,
                       dynamic_shapes=({0: b, 1: n}, {0: k}, {0: k}, {0: k, 1: n}, {0: p},
                                       {0: q}))
    for shape in ((3, 4, 2, 2, 3), (5, 2, 4, 1, 6), (2, 7, 3, 3, 1)):
        a = args(*shape)
        with torch.no_grad():
            want = m(*a)
        for g, w in zip(f(*a), want):
            torch.testing.assert_close(g, w)
    # x[k, m]: k of (p, 1) and m of (q,) broadcast to (p, q), whatever p and q are; i
    # and j are one size (one symbol); an index out of range is caught
    a = list(args(3, 4, 2, 2, 3))
    a[5] = torch.tensor([0, 4, 1])
    with pytest.raises((RuntimeFailure, InterpreterError)) as e:
        f(*a)
    assert "index out of range" in str(e.value)


# ------------------------------------------------------------------ bad input


def test_unlowered_op_names_aten_op_and_user_line():
    """An op with no lowering: a located error naming the ATen op, at this file's line
    (the importer's locations), not a traceback from inside Strata."""
    m = Fn(lambda a: torch.special.bessel_j0(a))
    with pytest.raises(StrataError) as e:
        strata.compile(m, example_args=(X,), target="interpret")
    text = str(e.value)
    assert "no lowering to linalg for the ATen op 'aten.special_bessel_j0'" in text
    assert "test_torch_to_linalg.py:" in text



def test_complex_op_without_lowering_is_a_located_refusal():
    """An op on complex tensors that has no complex lowering ([Note: complex as real
    pairs]): a located error naming the op and that it is on complex tensors, not the
    real lowering run on the pairs or an internal error."""
    m = Fn(lambda a: torch.tan(a.to(torch.complex64)))
    with pytest.raises(StrataError) as e:
        strata.compile(m, example_args=(X,), target="interpret")
    text = str(e.value)
    assert "no lowering to linalg for the ATen op 'aten.tan' on complex tensors" in text
    assert "internal" not in text
    assert "test_torch_to_linalg.py:" in text


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_embedding_index_out_of_range_fails_at_run_time(target):
    """The indices of embedding are checked in range (as ONNX's Gather): a run-time
    failure naming the op, not a read out of bounds."""
    from strata.runtime import RuntimeFailure
    from strata.interpreter.core import InterpreterError
    m = _seeded(lambda: nn.Embedding(10, 4))
    f = strata.compile(m, example_args=(randint(0, 10, (2, 3)),), target=target)
    with pytest.raises((RuntimeFailure, InterpreterError)) as e:
        f(torch.tensor([[1, 2, 10], [0, 0, 0]]))
    assert "index out of range" in str(e.value)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_advanced_index_out_of_range_fails_at_run_time(target):
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    m = Fn(lambda a, i: a[:, i])
    f = strata.compile(m, example_args=(X, torch.tensor([0, 1])), target=target)
    torch.testing.assert_close(f(X, torch.tensor([3, -4])), X[:, [3, -4]])
    with pytest.raises((RuntimeFailure, InterpreterError)) as e:
        f(X, torch.tensor([0, 4]))
    assert "index out of range [-n, n) on dim 1" in str(e.value) or \
        "index out of range [-4, 4) on dim 1" in str(e.value)


def test_training_batch_norm_updates_running_statistics():
    """Functionalized training batch norm returns the new running mean and variance
    (momentum 0.1, the unbiased batch variance) before the output, as eager updates
    its buffers."""
    from strata.frontends.torch import import_program
    m = _seeded(lambda: nn.BatchNorm2d(3, momentum=0.1).train())
    x = randn(2, 3, 4, 4)
    module = import_program(torch.export.export(m, (x,)))
    outs = strata.compile(module, target="interpret")(x.numpy())
    with torch.no_grad():
        y = m(x)                      # updates m.running_mean / running_var
    np.testing.assert_allclose(outs[0], m.running_mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1], m.running_var.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[-1], y.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_integer_division_by_zero_fails_at_run_time(target):
    """ATen raises on an integer division by zero; the compiled code checks the divisor
    (as ONNX's Div) and fails naming the op, for int32 / int64 operands too."""
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    m = Fn(lambda a, b: torch.div(a, b, rounding_mode="floor"))
    a, b = torch.tensor([7, -7, 9], dtype=torch.int32), torch.tensor([2, 3, 4])
    f = strata.compile(m, example_args=(a, b), target=target)
    torch.testing.assert_close(f(a, b), m(a, b))
    with pytest.raises((RuntimeFailure, InterpreterError)) as e:
        f(a, torch.tensor([2, 0, 4]))
    assert "aten.div.Tensor_mode" in str(e.value) and "division by zero" in str(e.value)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_embedding_bag_offsets_checked_as_aten_does(target):
    """ATen refuses offsets that do not start at 0 or end past the indices; the compiled
    code checks them too (static and symbolic bag counts) instead of making other bags."""
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    class Bags(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(randn(10, 3))

        def forward(self, i, o):
            return nn.functional.embedding_bag(i, self.w, o, mode="mean")
    m = Bags().eval()
    i, o = torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 2, 4])
    for dynamic in (None, ({0: torch.export.Dim("n")}, {0: torch.export.Dim("b")})):
        f = strata.compile(m, example_args=(i, o), dynamic_shapes=dynamic, target=target,
                           cache=False)
        torch.testing.assert_close(f(i, o), m(i, o))
        for bad in ([1, 2, 4], [0, 2, 7]):
            with pytest.raises(RuntimeError):
                m(i, torch.tensor(bad))
            with pytest.raises((RuntimeFailure, InterpreterError)) as e:
                f(i, torch.tensor(bad))
            assert "offsets must start at 0" in str(e.value)


class _NarrowReductions(nn.Module):
    def forward(self, x):
        F, grouped = torch.nn.functional, x.view(2, 4, -1)
        return (x.sum(), x.mean(-1), x.cumsum(-1), torch.softmax(x * 4, -1),
                F.layer_norm(x, (x.shape[-1],)), x.norm(dim=-1), x.var(-1),
                F.group_norm(grouped, 2), F.batch_norm(grouped, None, None, training=True))


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_narrow_floats_accumulate_in_f32(dtype, target):
    """[Note: narrow floats accumulate in f32] (torch_to_linalg/nn.py): sums, means,
    cumsums, softmax, norms, variances and layer, group and batch norms of
    float16/bfloat16 are eager's to the dtype's precision (accumulated in 16 bits, a bfloat16 sum of 4096 values near 1.25
    was 256, a float16 one of 16384 stopped at 2048 on the CPU target)."""
    dt = getattr(torch, dtype)
    x = (torch.rand(2, 4096, generator=torch.Generator().manual_seed(0)) * 0.5 + 1).to(dt)
    f = strata.compile(_NarrowReductions(), example_args=(x,), target=target)
    eps = torch.finfo(dt).eps
    for got, want in zip(f(x), _NarrowReductions()(x)):
        assert got.dtype == want.dtype
        torch.testing.assert_close(got.float(), want.float(), rtol=2 * eps, atol=4 * eps)
