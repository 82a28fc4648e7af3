"""Grouped matrix products and histc (strata/conversion/torch_to_linalg/grouped_mm.py,
histogram.py): the ops of transformers' mixtures of experts, exported from small
modules, run by the interpreter and the CPU target, against eager.

ATen's `_grouped_mm` traces only in bfloat16 (its meta function says so) with 16-byte
strides, so its cases are bf16 and 8 wide; transformers' float32 fallback is the op
torch.export and Dynamo see in an MoE model, with a dynamic row count here.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import strata  # noqa: E402

TARGETS = ["interpret", "cpu"]


def _gen():
    return torch.Generator().manual_seed(0)


def _errors():
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    return (RuntimeFailure, InterpreterError)


class Grouped(nn.Module):
    def forward(self, a, b, offs=None):
        return torch._grouped_mm(a.bfloat16(), b.bfloat16(), offs=offs).float()


def _i32(*v):
    return torch.tensor(v, dtype=torch.int32)


GROUPED = {
    # rows grouped (an empty group, rows past offs[-1])
    "2d_3d": lambda r: (r(7, 8), r(3, 8, 8), _i32(2, 2, 5)),
    # columns grouped
    "3d_2d": lambda r: (r(2, 4, 8), r(8, 16), _i32(3, 16)),
    # the contraction grouped (an empty group): the weight gradient's form
    "2d_2d": lambda r: (r(4, 16), r(16, 8), _i32(8, 8, 16)),
    "3d_3d": lambda r: (r(2, 4, 8), r(2, 8, 8)),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("form", list(GROUPED))
def test_aten_grouped_mm_as_eager(form, target):
    g = _gen()
    args = GROUPED[form](lambda *s: torch.randn(*s, generator=g))
    m = Grouped()
    f = strata.compile(m, example_args=args, target=target, cache=False)
    got, want = f(*args), m(*args)
    if form == "2d_3d":   # ATen leaves the rows past offs[-1] unwritten: zeros here
        end = int(args[2][-1])
        assert (got[end:] == 0).all()
        got, want = got[:end], want[:end]
    # products accumulate in f32 and round to bf16 once, as ATen's CPU kernel
    torch.testing.assert_close(got, want, rtol=8e-3, atol=1e-2)


def _fallback_op():
    pytest.importorskip("transformers")
    import transformers.integrations.moe  # noqa: F401  (registers the custom ops)
    return torch.ops.transformers


class Fallback(nn.Module):
    def forward(self, x, w, offs):
        return _fallback_op().grouped_mm_fallback(x, w, offs=offs)


@pytest.mark.parametrize("target", TARGETS)
def test_transformers_fallback_dynamic_sizes_and_bad_offs(target):
    """transformers' grouped_mm_fallback with symbolic rows, widths and expert count:
    rows past offs[-1] are zeros as its loop leaves them; offs that decrease or end past
    the rows are a run-time error naming the op (eager's loop reads garbage or fails)."""
    g = _gen()
    x, w = torch.randn(9, 8, generator=g), torch.randn(3, 8, 4, generator=g)
    offs = torch.tensor([3, 3, 7], dtype=torch.int32)
    m = Fallback()
    rows, k, n, e = (torch.export.Dim(d) for d in ("rows", "k", "n", "e"))
    f = strata.compile(m, example_args=(x, w, offs), target=target, cache=False,
                       dynamic_shapes=({0: rows, 1: k}, {0: e, 1: k, 2: n}, {0: e}))
    torch.testing.assert_close(f(x, w, offs), m(x, w, offs))
    x2, offs2 = x[:5], torch.tensor([0, 4, 5], dtype=torch.int32)
    torch.testing.assert_close(f(x2, w, offs2), m(x2, w, offs2))
    x3, w3 = torch.randn(6, 3, generator=g), torch.randn(4, 3, 5, generator=g)
    offs3 = torch.tensor([1, 1, 4, 5], dtype=torch.int32)
    torch.testing.assert_close(f(x3, w3, offs3), m(x3, w3, offs3))
    for bad in ([3, 2, 7], [3, 3, 10], [-1, 3, 7]):
        with pytest.raises(_errors()) as e:
            f(x, w, torch.tensor(bad, dtype=torch.int32))
        assert "grouped_mm_fallback's offs must be non-decreasing from 0" in str(e.value)


def test_transformers_fallback_backward():
    """Its backward op (what AOTAutograd's backward graph of an MoE calls): grad_input
    per row's expert, grad_weight per expert, zeros where the loop writes none."""
    ops = _fallback_op()

    class Backward(nn.Module):
        def forward(self, x, w, offs, go):
            return ops.grouped_mm_fallback_backward(x, w, offs, go)
    g = _gen()
    x, w, go = (torch.randn(*s, generator=g) for s in ((7, 8), (3, 8, 4), (7, 4)))
    offs = torch.tensor([2, 2, 6], dtype=torch.int32)
    m = Backward()
    f = strata.compile(m, example_args=(x, w, offs, go), target="cpu", cache=False)
    for got, want in zip(f(x, w, offs, go), m(x, w, offs, go)):
        torch.testing.assert_close(got, want)


class Histc(nn.Module):
    def __init__(self, bins, lo, hi):
        super().__init__()
        self.bins, self.lo, self.hi = bins, lo, hi

    def forward(self, x):
        return torch.histc(x, bins=self.bins, min=self.lo, max=self.hi)


@pytest.mark.parametrize("target", TARGETS)
def test_histc_as_aten_bins(target):
    """Given and data ranges, the edges (max in the last bin), values outside and NaN
    skipped, a one-valued range widened; a non-finite data range is an error."""
    x = torch.tensor([[0., 1, 2, 3], [3, 5, -1, float("nan")], [0.75, 1.5, 2.999, 0.]])
    for bins, lo, hi, arg in ((4, 0., 3., x), (3, -1., 2.5, x), (5, 0., 0., x[0]),
                              (4, 0., 0., torch.full((3,), 2.)), (4, 0., 0., x[2])):
        m = Histc(bins, lo, hi).eval()
        f = strata.compile(m, example_args=(arg,), target=target, cache=False)
        torch.testing.assert_close(f(arg), m(arg))
    with pytest.raises(_errors()) as e:
        f(torch.tensor([1., float("inf"), 0., 2.]))
    assert "histc's range" in str(e.value) and "not finite" in str(e.value)


def test_mixtral_experts_training_under_torch_compile():
    """Mixtral's sparse MoE block (router, top-k, the sorted tokens' grouped products)
    trained under torch.compile: the backward graph's grouped_mm_fallback_backward and
    the routing's gradients give eager's gradients, of the input and every weight."""
    import copy
    pytest.importorskip("transformers")
    import transformers
    from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock
    from strata.frontends.torch import dynamo
    torch.manual_seed(0)
    dynamo.COUNTERS.clear()
    # (a block made alone takes the "eager" experts unless told: a loop, graph breaks)
    config = transformers.MixtralConfig(hidden_size=16, intermediate_size=32,
                                        num_local_experts=4, num_experts_per_tok=2,
                                        experts_implementation="grouped_mm")
    m = MixtralSparseMoeBlock(config)
    g = _gen()
    with torch.no_grad():   # (the experts' weights are made uninitialized)
        for p in m.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.2)
    e = copy.deepcopy(m)
    x = torch.randn(2, 5, 16, generator=g, requires_grad=True)
    xe = x.detach().clone().requires_grad_()
    torch._dynamo.reset()
    try:
        f = torch.compile(m, backend=dynamo.strata_backend, options={"fallback": False})
        f(x).square().sum().backward()
    finally:
        torch._dynamo.reset()
    e(xe).square().sum().backward()
    assert m.experts.gate_up_proj.grad.abs().sum() > 0
    assert dynamo.COUNTERS["backward"] == 1 and dynamo.COUNTERS["fallback"] == 0
    torch.testing.assert_close(x.grad, xe.grad, rtol=1e-4, atol=1e-6)
    for (name, p), q in zip(m.named_parameters(), e.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-6, msg=name)
