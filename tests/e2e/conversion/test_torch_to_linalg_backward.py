"""The backward ATen ops of convert-torch-to-linalg (strata/conversion/torch_to_linalg/
backward.py), on the backward graphs AOTAutograd makes of small modules: the gradients
of the input and of the parameters, run by the reference interpreter and by the CPU
target (torch.compile(backend="strata") with the fallback off, so an op that fails to
lower fails the test), within 1e-4 of eager's."""
from __future__ import annotations

import copy

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from strata.frontends.torch import dynamo  # noqa: E402

CASES = {
    "conv2d_pad": (lambda: nn.Conv2d(3, 4, 3, padding=1), (2, 3, 8, 8)),
    "conv2d_stride_groups": (lambda: nn.Conv2d(4, 6, 3, stride=2, groups=2, padding=1),
                             (2, 4, 9, 9)),
    # stride 3 leaves input columns no window reads: their gradient is 0
    "conv2d_dilation_stride_no_bias": (lambda: nn.Conv2d(4, 6, 2, stride=3, dilation=2,
                                                         bias=False), (1, 4, 10, 11)),
    "conv2d_depthwise_asymmetric": (lambda: nn.Conv2d(3, 3, (3, 1), stride=(1, 2),
                                                      padding=(1, 0), groups=3),
                                    (2, 3, 6, 7)),
    "conv1d_stride": (lambda: nn.Conv1d(2, 4, 3, stride=2), (3, 2, 9)),
    "conv3d_groups": (lambda: nn.Conv3d(2, 4, 2, groups=2), (1, 2, 4, 4, 4)),
    # transposed: grad_input a convolution by the same weights, grad_weight the
    # convolution's weight gradient with input and grad_output swapped
    "conv_transpose2d_stride_output_padding": (
        lambda: nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1),
        (2, 3, 5, 4)),
    "conv_transpose2d_groups_no_bias": (
        lambda: nn.ConvTranspose2d(4, 6, 2, groups=2, bias=False), (1, 4, 3, 5)),
    # output_padding 2 >= stride 1 (allowed below the dilation): trailing outputs that
    # no input position reaches
    "conv_transpose1d_dilation_output_padding": (
        lambda: nn.ConvTranspose1d(2, 3, 3, stride=1, dilation=3, output_padding=2),
        (2, 2, 6)),
    "conv_transpose3d_stride": (lambda: nn.ConvTranspose3d(2, 2, 2, stride=2),
                                (1, 2, 2, 3, 2)),
    # replication_pad{n}d_backward, decomposed ([Note: replication padding's gradient]
    # in frontends/torch/training.py); a dim of size 1 takes every position's gradient
    "conv2d_replicate_padding": (lambda: nn.Conv2d(3, 4, 3, padding=1,
                                                   padding_mode="replicate"), (2, 3, 6, 5)),
    "replication_pad3d_asymmetric": (lambda: nn.ReplicationPad3d((1, 2, 0, 1, 2, 0)),
                                     (1, 2, 3, 1, 4)),
    "avg_pool2d_pad": (lambda: nn.AvgPool2d(3, stride=2, padding=1), (2, 3, 8, 8)),
    "avg_pool2d_exclude_pad": (lambda: nn.AvgPool2d(3, stride=2, padding=1,
                                                    count_include_pad=False), (2, 3, 9, 8)),
    "avg_pool2d_divisor": (lambda: nn.AvgPool2d(2, divisor_override=3), (1, 2, 6, 6)),
    "avg_pool1d_drops_tail": (lambda: nn.AvgPool1d(2), (2, 3, 7)),
    "avg_pool3d": (lambda: nn.AvgPool3d(2, stride=1), (1, 2, 3, 4, 4)),
    "max_pool2d": (lambda: nn.MaxPool2d(3, stride=2, padding=1), (2, 3, 8, 8)),
    # _upsample_{bilinear,bicubic}2d_aa_backward: the adjoint of the antialiased
    # weights (shrinking stretches the filter), by sizes, by scales (the scales decide
    # the coordinates), and with align_corners
    "interpolate_bilinear_antialias": (lambda: _Resample(size=(4, 11), mode="bilinear"),
                                       (2, 3, 9, 7)),
    "interpolate_bicubic_antialias_scales": (
        lambda: _Resample(scale_factor=(0.45, 1.6), mode="bicubic"), (1, 2, 11, 6)),
    "aa_backward_sizes_and_scales": (lambda: _Resample(size=(3, 5), scales=(1.7, 0.9)),
                                     (1, 2, 8, 8)),
    "interpolate_bicubic_antialias_align_corners": (
        lambda: _Resample(size=(5, 9), mode="bicubic", align_corners=True), (1, 2, 12, 4)),
}


class _Resample(nn.Module):
    def __init__(self, **kw):
        super().__init__()
        self.kw = kw

    def forward(self, x):
        if "scales" in self.kw:   # the op itself: sizes and scales both given
            return torch.ops.aten._upsample_bilinear2d_aa(x, self.kw["size"], False,
                                                         *self.kw["scales"])
        return nn.functional.interpolate(x, antialias=True, **self.kw)


pytestmark = pytest.mark.usefixtures("fresh_dynamo")   # tests/e2e/conftest.py


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_backward(name, target):
    make, shape = CASES[name]
    torch.manual_seed(0)
    m = make()
    e = copy.deepcopy(m)
    x = torch.randn(*shape, requires_grad=True)
    xe = x.detach().clone().requires_grad_()
    f = torch.compile(m, backend=dynamo.strata_backend,
                      options={"fallback": False, "target": target})
    f(x).square().sum().backward()
    e(xe).square().sum().backward()
    assert dynamo.COUNTERS["backward"] == 1 and dynamo.COUNTERS["fallback"] == 0
    assert xe.grad.abs().sum() > 0
    torch.testing.assert_close(x.grad, xe.grad, atol=1e-4, rtol=1e-4)
    for p, q in zip(m.parameters(), e.parameters()):
        torch.testing.assert_close(p.grad, q.grad, atol=1e-4, rtol=1e-4)


def test_only_the_used_gradients_are_computed():
    # conv of an input that needs no gradient: convolution_backward's grad_input is
    # unused, and the lowering builds no transposed convolution for it
    torch.manual_seed(0)
    m = nn.Conv2d(2, 3, 3)
    e = copy.deepcopy(m)
    x = torch.randn(1, 2, 5, 5)
    f = torch.compile(m, backend=dynamo.strata_backend, options={"fallback": False})
    f(x).sum().backward()
    e(x).sum().backward()
    torch.testing.assert_close(m.weight.grad, e.weight.grad, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(m.bias.grad, e.bias.grad, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_conv_backward_dynamic_spatial_sizes(target):
    # symbolic batch and spatial dims: grad_input padded up to the input's run-time size,
    # grad_weight one linalg.generic (a named convolution needs a static window)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2),
                      nn.Conv2d(6, 2, 2, stride=1, dilation=2),
                      nn.ConvTranspose2d(2, 4, 3, stride=2, padding=1, output_padding=1,
                                         groups=2))
    e = copy.deepcopy(m)
    f = torch.compile(m, backend=dynamo.strata_backend,
                      options={"fallback": False, "target": target})
    for shape in ((2, 4, 9, 8), (3, 4, 10, 11)):
        x = torch.randn(*shape, requires_grad=True)
        xe = x.detach().clone().requires_grad_()
        for d in (0, 2, 3):
            torch._dynamo.mark_dynamic(x, d)
        f(x).square().sum().backward()
        e(xe).square().sum().backward()
        torch.testing.assert_close(x.grad, xe.grad, atol=1e-4, rtol=1e-4)
    for p, q in zip(m.parameters(), e.parameters()):
        torch.testing.assert_close(p.grad, q.grad, atol=1e-4, rtol=1e-4)
    assert dynamo.COUNTERS["forward"] == 1 and dynamo.COUNTERS["backward"] == 1
