"""Programs imported without decomposing ([Note: importing without decomposing] in
strata/frontends/torch/importer.py): torch.export's training IR compiled as it is, its
composite ops lowered whole (conversion/torch_to_linalg/composite.py), in-place ops on
intermediate values read as their functional forms; and the programs that must still
be decomposed (mutated inputs, in-place ops on views or read after, training-mode
batch norm, grouped-query attention), each against eager PyTorch.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import strata  # noqa: E402
from strata.frontends.torch import import_program  # noqa: E402
from strata.frontends.torch.importer import direct_plan  # noqa: E402

nn = torch.nn
F = torch.nn.functional


def _names(ep):
    """The ops of the imported module (a `torch.operator` by the name it carries)."""
    return {op.properties["name"].value if op.name == "torch.operator" else op.name
            for op in import_program(ep).walk()}


def _check(model, args, direct: bool, target="cpu", tol=1e-5):
    """Export `model`, check whether it imports directly, compile it and compare with
    eager on `args`."""
    with torch.no_grad():
        want = model(*args)
        ep = torch.export.export(model, args)
        assert (direct_plan(ep) is not None) is direct
        got = strata.compile(ep, target=target, cache=False)(*args)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)   # as the model returns it
    assert len(got) == len(want)
    for g, w in zip(got, want):
        torch.testing.assert_close(torch.as_tensor(g), w, rtol=tol, atol=tol)
    return ep


class Composite(nn.Module):
    """Every composite op composite.py lowers, as modules write them."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.c1 = nn.Conv1d(3, 4, 3, padding=2, dilation=2)
        self.c2 = nn.Conv2d(3, 6, 3, stride=2, padding=1, groups=3)
        self.same = nn.Conv2d(6, 4, (2, 3), padding="same")
        self.valid = nn.Conv2d(4, 4, 3, padding="valid", bias=False)
        self.c3 = nn.Conv3d(1, 2, 2, stride=(1, 2, 2))
        self.up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.ln = nn.LayerNorm(3)
        self.drop = nn.Dropout(0.4)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-1, 1)
            self.bn.running_var.uniform_(0.5, 2)

    def forward(self, x, seq, vol, q, k, v, mask, fmask):
        a = self.c1(seq)
        y = F.relu(self.bn(self.c2(x)))
        y = self.valid(self.same(y))
        y = self.up(y)
        z = torch.flatten(self.drop(y), 1)
        w = self.c3(vol).flatten(2, -1)
        attn = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        attn2 = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.3)
        attn3 = F.scaled_dot_product_attention(q, k, v)
        n = self.ln(attn.transpose(-1, -2)[..., :3])
        both = (mask & ~mask.transpose(-1, -2)[..., :6]).to(dtype=torch.float32,
                                                             device="cpu")
        d = torch.diff(seq, n=2, dim=-1, prepend=seq[..., :1], append=seq[..., -2:])
        return a, z, w, attn + attn2 + attn3, n, both, d, torch.diff(mask.int(), dim=2)


def _composite_args():
    torch.manual_seed(1)
    mask = torch.rand(2, 1, 6, 6) > 0.3
    mask[1, 0, 2] = False          # a row with every key masked: zeros, as eager
    return (torch.randn(2, 3, 9, 9), torch.randn(2, 3, 10), torch.randn(1, 1, 4, 6, 6),
            torch.randn(2, 2, 6, 4), torch.randn(2, 2, 6, 4), torch.randn(2, 2, 6, 4),
            mask, torch.randn(2, 1, 6, 6))


def test_composite_ops_imported_whole_run_like_eager():
    model = Composite().eval()
    ep = _check(model, _composite_args(), direct=True)
    names = _names(ep)
    assert {"torch.aten.conv1d", "torch.aten.conv2d", "torch.aten.conv2d.padding",
            "torch.aten.conv3d", "torch.aten.conv_transpose2d.input",
            "torch.aten.batch_norm", "torch.aten.layer_norm", "torch.aten.dropout",
            "torch.aten.flatten.using_ints", "torch.aten.scaled_dot_product_attention",
            "torch.aten.__and__.Tensor", "torch.aten.diff"} <= names
    assert "torch.aten.convolution" not in names


def test_composite_ops_interpreted():
    """The same program through the reference interpreter (the lowering, not the CPU
    kernels)."""
    _check(Composite().eval(), _composite_args(), direct=True, target="interpret")


class Residual(nn.Module):
    """torchvision's BasicBlock: `out += identity` and in-place ReLUs."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn(self.conv(x)))
        out += x
        out.mul_(0.5).add_(1.0)
        return self.relu(out)


def test_in_place_ops_on_intermediates_read_as_functional():
    ep = _check(Residual().eval(), (torch.randn(1, 4, 5, 5),), direct=True)
    plan = direct_plan(ep)
    assert sorted(str(op) for op in plan.values()) == \
        ["aten.add.Tensor", "aten.add.Tensor", "aten.mul.Tensor", "aten.relu.default",
         "aten.relu.default"]
    names = _names(ep)
    assert "torch.aten.add_.Tensor" not in names and "torch.aten.relu_" not in names


class MutatesInput(nn.Module):
    def forward(self, x):
        x.add_(1.0)
        return x * 2


class MutatesView(nn.Module):
    def forward(self, x):
        y = x * 2
        y[0].add_(1.0)          # a view of y: y changes too
        return y + 1


class ReadsAfterMutation(nn.Module):
    def forward(self, x):
        y = x * 2
        z = y.sin()
        y.add_(1.0)             # export names the add_ node in later uses of `y`
        return y + z


def test_value_read_before_its_mutation():
    ep = _check(ReadsAfterMutation(), (torch.randn(2, 3),), direct=True)
    # a graph that reads the mutated value itself after the add_ must be decomposed
    nodes = {n.name: n for n in ep.graph.nodes}
    nodes["add"].args = (nodes["mul"], nodes["sin"])
    assert direct_plan(ep) is None


class TrainingBatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.bn(x)


class Causal(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class GroupedHeads(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)


@pytest.mark.parametrize("target", ["cpu", "interpret"])
@pytest.mark.parametrize("queries,keys", [(5, 5), (3, 6), (6, 3)])
def test_causal_attention_imported_whole(target, queries, keys):
    """is_causal: key j of query i masked where j > i (top-left, as torch's kernels),
    fewer or more queries than keys too."""
    torch.manual_seed(0)
    args = (torch.randn(2, 2, queries, 4), torch.randn(2, 2, keys, 4),
            torch.randn(2, 2, keys, 4))
    ep = _check(Causal(), args, direct=True, target=target)
    assert "torch.aten.scaled_dot_product_attention" in _names(ep)


@pytest.mark.parametrize("model,args", [
    (MutatesView(), (torch.randn(2, 3),)),
    (GroupedHeads(), (torch.randn(1, 4, 5, 4), torch.randn(1, 2, 5, 4),
                      torch.randn(1, 2, 5, 4))),
], ids=["view", "grouped-heads"])
def test_programs_that_need_the_decomposition(model, args):
    _check(model.eval(), args, direct=False)


def test_mutated_inputs_and_buffers_are_decomposed():
    with torch.no_grad():
        ep = torch.export.export(MutatesInput(), (torch.randn(3),))
        assert direct_plan(ep) is None
        x = torch.randn(4, 3)
        ep = torch.export.export(TrainingBatchNorm().train(), (x,))
        assert direct_plan(ep) is None   # running statistics updated: buffer mutations
        got = strata.compile(ep, cache=False)(x)
    want = TrainingBatchNorm().train()(x)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


class Flattens(nn.Module):
    def forward(self, x, y):
        return torch.flatten(x), torch.flatten(y, 0, -1), torch.flatten(y, -2), \
            torch.flatten(y, 1, 1)


def test_flatten_of_a_scalar_and_negative_dims():
    _check(Flattens(), (torch.tensor(3.0), torch.randn(2, 3, 4)), direct=True,
           target="interpret")


class WritesInputs(nn.Module):
    def forward(self, x, y):
        x.mul_(2)
        y[0].fill_(7.0)               # through a view: the whole y is written back
        return x + 1, y.sum(0, keepdim=True)


@pytest.mark.parametrize("cache", [False, True])
def test_mutated_inputs_are_written_back(cache, tmp_path, monkeypatch):
    """[Note: mutated inputs written back]: the caller's tensors and arrays hold what
    eager PyTorch leaves in them, on a compile and on a compiled-model cache hit; the
    results are the user outputs only."""
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path))
    from strata.frontends.torch import input_mutations
    x0, y0 = torch.randn(3), torch.randn(2, 3)
    ex, ey = x0.clone(), y0.clone()
    with torch.no_grad():
        want = WritesInputs()(ex, ey)
        ep = torch.export.export(WritesInputs(), (x0.clone(), y0.clone()))
    assert len(input_mutations(import_program(ep))) == 2
    for _ in range(2 if cache else 1):     # the second compile a cache hit
        f = strata.compile(ep, cache=cache)
        x, y = x0.clone(), y0.clone()
        got = f(x, y)
        assert len(got) == 2
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w)
        torch.testing.assert_close(x, ex)
        torch.testing.assert_close(y, ey)
        xn, yn = x0.numpy().copy(), y0.numpy().copy()
        f(x=xn, y=yn)
        torch.testing.assert_close(torch.from_numpy(xn), ex)
        torch.testing.assert_close(torch.from_numpy(yn), ey)
    assert f.from_cache is cache
