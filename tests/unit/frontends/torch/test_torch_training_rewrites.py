"""strata/frontends/torch/training.py on ATen graphs traced by make_fx, without
compiling: hoist_random's rewrite ([Note: random draws by torch's generator]) and the
decompositions of the `_foreach_` ops ([Note: optimizer graphs])."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from strata.frontends.torch.training import decompositions, hoist_random  # noqa: E402

aten = torch.ops.aten


def trace(fn, *args, mode="fake"):
    from torch.fx.experimental.proxy_tensor import make_fx
    return make_fx(fn, tracing_mode=mode)(*args)


def targets(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


def test_dropout_becomes_an_input_drawn_as_eager_draws():
    def fn(x):
        return aten.native_dropout(x.relu(), 0.3, True)
    gm = trace(fn, torch.randn(3, 4))
    new, draws = hoist_random(gm)
    assert aten.native_dropout.default in targets(gm)      # the original is untouched
    assert aten.native_dropout.default not in targets(new) and len(draws) == 1
    places = [n for n in new.graph.nodes if n.op == "placeholder"]
    assert [p.name for p in places][-1] == "strata_draw_0"
    assert tuple(places[-1].meta["val"].shape) == (3, 4)
    x = torch.randn(3, 4)
    torch.manual_seed(0)
    out, mask = new(x, draws[0]([x]))
    torch.manual_seed(0)
    want = torch.nn.functional.dropout(x.relu(), 0.3)   # ATen's CPU dropout
    torch.testing.assert_close(out, want)
    torch.manual_seed(0)
    keep = torch.empty(3, 4).bernoulli_(0.7) != 0
    assert mask.dtype == torch.bool and torch.equal(mask, keep)


@pytest.mark.parametrize("op", ["dropout", "rand_like"])
def test_draws_fill_memory_in_the_inputs_layout(op):
    """[Note: draws in the input's layout]: of a permuted input (nn.MultiheadAttention's
    batch_first output, which nn.TransformerEncoderLayer's dropout1 reads), the draw is
    eager's under one seed (a contiguous draw gave other masks than eager's
    empty_like(x), so strata.compile and torch.compile of the layer in train() differed
    from eager under one seed)."""
    def fn(x):
        t = x.transpose(0, 1)
        return aten.native_dropout(t, 0.3, True)[0] if op == "dropout" else \
            aten.rand_like(t)
    x = torch.randn(2, 3, 4)
    new, draws = hoist_random(trace(fn, x))
    assert len(draws) == 1
    torch.manual_seed(0)
    got = new(x, draws[0]([x]))
    torch.manual_seed(0)
    t = x.transpose(0, 1)
    want = torch.nn.functional.dropout(t, 0.3) if op == "dropout" else torch.rand_like(t)
    torch.testing.assert_close(got, want)


def test_symbolic_sizes_are_read_from_the_inputs():
    def fn(x, y):
        return torch.rand_like(x) + y.sum(), torch.randn(x.shape[0] * 2, 3)
    gm = trace(fn, torch.randn(5, 3), torch.randn(2), mode="symbolic")
    new, draws = hoist_random(gm)
    assert len(draws) == 2 and not {aten.rand_like.default, aten.randn.default} & set(
        targets(new))
    x, y = torch.randn(7, 3), torch.randn(4)
    assert draws[0]([x, y]).shape == (7, 3) and draws[1]([x, y]).shape == (14, 3)
    torch.manual_seed(1)
    got = new(x, y, *[d([x, y]) for d in draws])
    torch.manual_seed(1)
    want = fn(x, y)
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b)


def test_inputs_held_as_constants_are_skipped_when_binding_sizes():
    # the compiled code of a graph with frozen inputs takes the others only
    def fn(w, x):
        return torch.rand_like(x) * w.sum()
    gm = trace(fn, torch.randn(2), torch.randn(5, 3), mode="symbolic")
    new, draws = hoist_random(gm, constants={0: None})
    assert draws[0]([torch.randn(6, 3)]).shape == (6, 3)


def test_graphs_without_random_ops_or_with_a_generator_are_kept():
    gm = trace(lambda x: x * 2, torch.randn(3))
    assert hoist_random(gm) == (gm, [])
    gen = torch.Generator().manual_seed(0)
    gm = trace(lambda x: torch.rand(3, generator=gen) + x, torch.randn(3), mode="real")
    new, draws = hoist_random(gm)
    assert draws == [] and new is gm


def test_dropout_in_eval_is_not_a_draw():
    gm = trace(lambda x: aten.native_dropout(x, 0.5, False), torch.randn(3))
    assert hoist_random(gm) == (gm, [])


@pytest.mark.parametrize("op,extra", [
    ("_foreach_norm.Scalar", ()), ("_foreach_mul.Tensor", ("t",)),
    ("_foreach_add.List", ("list",)), ("_foreach_div.ScalarList", ("scalars",)),
    ("_foreach_addcmul.Scalar", ("list", "list", 0.3)),
    ("_foreach_addcdiv.ScalarList", ("list", "pos", "scalars")),
    ("_foreach_maximum.Scalar", (0.1,)), ("_foreach_sqrt.default", ()),
    ("_foreach_lerp.Scalar", ("list", 0.2)), ("_foreach_pow.ScalarAndTensor", ())])
def test_foreach_decompositions_map_the_element_op(op, extra):
    torch.manual_seed(0)
    packet, _, overload = op.partition(".")
    target = getattr(getattr(aten, packet), overload)
    xs = [torch.rand(3) + 0.5, torch.rand(2, 2) + 0.5]

    def arg(kind):
        return {"t": torch.tensor(1.5), "list": [torch.randn_like(x) for x in xs],
                "pos": [torch.rand_like(x) + 0.5 for x in xs],
                "scalars": [0.5, 2.0]}.get(kind, kind) if isinstance(kind, str) else kind
    args = [2.0, xs] if op.endswith("ScalarAndTensor") else [xs] + [arg(k) for k in extra]
    got = decompositions()[target](*args)
    want = target(*args)
    for a, b in zip(got, want, strict=True):
        torch.testing.assert_close(a, b)


def test_foreach_in_place_decomposition_writes_its_tensors():
    xs = [torch.randn(3), torch.randn(4)]
    want = [x * 0.5 for x in xs]
    assert decompositions()[aten._foreach_mul_.Scalar](xs, 0.5) is None
    for a, b in zip(xs, want):
        torch.testing.assert_close(a, b)


@pytest.mark.parametrize("mode,last,psw,pad", [(0, False, True, 0), (0, False, False, -1),
                                               (1, False, False, 0), (1, True, False, -1),
                                               (0, True, False, 0), (2, False, False, 0),
                                               (2, True, False, -1)])
def test_embedding_bag_backward_decomposition_is_atens(mode, last, psw, pad):
    # [Note: bags of embeddings]: the weight gradient (and the per-sample weights'),
    # from what ATen's own forward returns (an offset2bag ATen leaves empty in the sum
    # mode without padding_idx made from the offsets), against autograd's
    torch.manual_seed(0)
    weight = torch.randn(10, 4)
    indices = torch.tensor([1, 0, 3, 3, 7, 0, 9])
    offsets = torch.tensor([0, 2, 2, 5] + ([7] if last else []))
    weights = torch.rand(7) if psw else None
    table = decompositions()
    assert aten._embedding_bag.default not in table   # lowered whole
    fwd = aten._embedding_bag(weight, indices, offsets, False, mode, False, weights, last,
                              pad)
    grad = torch.randn_like(fwd[0])
    mine = table[aten._embedding_bag_backward.default](
        grad, indices, offsets, fwd[1], fwd[2], fwd[3], 10, False, mode, False, weights,
        pad)
    names = {0: "sum", 1: "mean", 2: "max"}

    def f(w, p):
        return torch.nn.functional.embedding_bag(
            indices, w, offsets, mode=names[mode], per_sample_weights=p,
            include_last_offset=last, padding_idx=pad if pad >= 0 else None)
    theirs = torch.func.vjp(f, weight, weights)[1](grad) if psw else \
        torch.func.vjp(lambda w: f(w, None), weight)[1](grad)
    torch.testing.assert_close(mine, theirs[0])
    if psw:
        got = table[aten._embedding_bag_per_sample_weights_backward.default](
            grad, weight, indices, offsets, fwd[1], mode, pad)
        torch.testing.assert_close(got, theirs[1])
