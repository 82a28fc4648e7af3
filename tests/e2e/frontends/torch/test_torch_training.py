"""Training with torch.compile(backend="strata") (strata/frontends/torch/dynamo.py and
training.py): small models of the kinds people train, each run 20 steps beside an eager
copy, with the fallback off (a graph Strata cannot compile fails the test): losses
within 1e-4 relative of eager's, parameters and buffers alike afterwards. Batch norm's
running statistics, dropout drawn by torch's generator (the same masks as eager under
one seed), grouped / instance / layer norms with dynamic shapes, tied weights, causal
attention, label smoothing and ignore_index, a frozen sub-module, gradient accumulation,
eval steps between train steps, optimizer steps compiled too."""
from __future__ import annotations

import copy
import warnings

import pytest

torch = pytest.importorskip("torch")

from strata.frontends.torch import dynamo  # noqa: E402

nn = torch.nn
F = torch.nn.functional
STRICT = {"fallback": False}


pytestmark = pytest.mark.usefixtures("fresh_dynamo")   # tests/e2e/conftest.py


def compiled(model, **kw):
    return torch.compile(model, backend=dynamo.strata_backend, options=STRICT, **kw)


def make_opt(kind, params, foreach=None):
    if kind == "sgd":
        return torch.optim.SGD(params, lr=0.05, momentum=0.9, foreach=foreach)
    if kind == "adam":
        return torch.optim.Adam(params, lr=1e-2, foreach=foreach)
    if kind == "rmsprop":
        return torch.optim.RMSprop(params, lr=1e-2, momentum=0.5, foreach=foreach)
    return torch.optim.AdamW(params, lr=1e-2, weight_decay=0.1, foreach=foreach)


def train(model, batches, *, compile=False, opt="sgd", loss_fn=F.cross_entropy,
          steps=20, accumulate=1, eval_every=0, seed=None, dynamic=None):
    """The losses of `steps` optimizer steps (and of the no_grad eval steps between)."""
    if seed is not None:
        torch.manual_seed(seed)
    f = compiled(model, dynamic=dynamic) if compile else model
    optimizer = make_opt(opt, [p for p in model.parameters() if p.requires_grad])
    losses = []
    for i in range(steps):
        x, y = batches[i % len(batches)]
        optimizer.zero_grad()
        for _ in range(accumulate):
            loss = loss_fn(f(x), y)
            loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if eval_every and i % eval_every == eval_every - 1:
            model.eval()
            with torch.no_grad():
                losses.append(loss_fn(f(x), y).item())
            model.train()
    return losses


def check(make, batches, learns=True, **kw):
    """Train `make()` and an eager copy alike; compare losses, parameters, buffers."""
    torch.manual_seed(0)
    model = make()
    eager = copy.deepcopy(model)
    want = train(eager, batches, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynamo.StrataFallbackWarning)
        got = train(model, batches, compile=True, **kw)
    assert len(got) == len(want)
    rel = max(abs(a - b) / max(abs(b), 1e-6) for a, b in zip(got, want))
    assert rel < 1e-4, (got, want)
    assert want[-1] < want[0] or not learns   # it learns: not a comparison of constants
    assert dynamo.COUNTERS["forward"] >= 1 and dynamo.COUNTERS["backward"] >= 1
    assert dynamo.COUNTERS["fallback"] == 0
    for (name, p), q in zip(model.named_parameters(), eager.parameters()):
        torch.testing.assert_close(p, q, atol=1e-4, rtol=1e-4, msg=name)
    for (name, b), c in zip(model.named_buffers(), eager.buffers()):
        torch.testing.assert_close(b, c, atol=1e-5, rtol=1e-5, msg=name)
    return model, eager


def batches_of(shape, classes, n=3):
    torch.manual_seed(1)
    return [(torch.randn(*shape), torch.randint(0, classes, (shape[0],))) for _ in range(n)]


# ------------------------------------------------------------------ models


class ResNetish(nn.Module):
    """A stem, max pooling and a residual conv + BatchNorm (training mode: the running
    statistics are buffers the graph mutates)."""

    def __init__(self):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(3, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6)
        self.c1, self.b1 = nn.Conv2d(6, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6)
        self.fc = nn.Linear(6, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.stem(x))), 2)
        x = F.relu(x + self.b1(self.c1(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


class Norms(nn.Module):
    """GroupNorm, InstanceNorm (affine), SiLU and Hardswish (batch and layer norm: the
    models above and below)."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3)
        self.gn, self.inorm = nn.GroupNorm(2, 8), nn.InstanceNorm2d(8, affine=True)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = F.relu(self.inorm(F.silu(self.gn(self.c(x)))))
        return self.fc(F.hardswish(x.amax((2, 3))))


class TinyGPT(nn.Module):
    """Token and position embeddings, one causal attention block (SDPA), the LM head
    tied to the token embedding (GPT-2's weight sharing)."""

    def __init__(self, vocab=13, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(12, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        # no qkv bias: the key's bias has a zero gradient (softmax ignores a shift),
        # which Adam would blow up from rounding noise on both sides
        self.qkv, self.proj = nn.Linear(d, 3 * d, bias=False), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(approximate="tanh"),
                                 nn.Linear(2 * d, d))
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, ids):
        b, t = ids.shape
        h = self.tok(ids) + self.pos(torch.arange(t))
        q, k, v = self.qkv(self.ln1(h)).split(h.shape[-1], -1)
        q, k, v = (u.view(b, t, self.heads, -1).transpose(1, 2) for u in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        h = h + self.proj(a.transpose(1, 2).reshape(b, t, -1))
        h = h + self.mlp(self.ln2(h))
        return self.head(h).flatten(0, 1)


class DropMLP(nn.Module):
    def __init__(self, p=0.2):
        super().__init__()
        self.fc1, self.drop, self.fc2 = nn.Linear(6, 32), nn.Dropout(p), nn.Linear(32, 3)

    def forward(self, x):
        return self.fc2(self.drop(F.gelu(self.fc1(x))))


class BagClassifier(nn.Module):
    """The text classifier of PyTorch's tutorial: the mean of each text's token
    embeddings (nn.EmbeddingBag over one flat list of tokens and the texts' offsets),
    then a linear layer; `mode`, `last` (include_last_offset: the offsets end with the
    token count) and per-sample weights (sum mode: a weight per token) as given."""

    def __init__(self, vocab=30, d=8, classes=3, mode="mean", last=False, weighted=False):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, d, mode=mode, padding_idx=0,
                                   include_last_offset=last)
        self.fc = nn.Linear(d, classes)
        self.last, self.weighted = last, weighted

    def forward(self, batch):
        tokens, offsets = batch
        if self.last:
            offsets = torch.cat([offsets, offsets.new_tensor([tokens.shape[0]])])
        weights = (tokens % 3 + 1).to(torch.float32) / 2 if self.weighted else None
        return self.fc(self.bag(tokens, offsets, per_sample_weights=weights))


class FrozenHead(nn.Module):
    """A frozen feature extractor (requires_grad=False) under a trained head."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(6, 16), nn.Tanh())
        self.head = nn.Linear(16, 3)
        self.features.requires_grad_(False)

    def forward(self, x):
        return self.head(self.features(x))


# ------------------------------------------------------------------ training


def test_resnet_batch_norm_training_then_eval():
    # BatchNorm in training mode mutates running_mean / running_var / num_batches_tracked
    # (checked by check's buffer comparison); the eval model afterwards reads the same
    # buffers
    model, eager = check(ResNetish, batches_of((4, 3, 8, 8), 4))
    model.eval(), eager.eval()
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        torch.testing.assert_close(compiled(model)(x), eager(x), atol=1e-4, rtol=1e-4)


def test_norms_and_activations_dynamic_shapes():
    # group / instance / layer / batch norm backward with a symbolic batch and image
    # size: compiled once for every size
    batches = [(torch.randn(n, 3, h, h), torch.randint(0, 4, (n,)))
               for n, h in ((4, 8), (3, 9), (5, 7))]
    check(Norms, batches, opt="adam", steps=6, dynamic=True)
    assert dynamo.COUNTERS["forward"] == 1 and dynamo.COUNTERS["backward"] == 1


def test_tied_gpt_causal_attention_label_smoothing_ignore_index():
    torch.manual_seed(1)
    batches = []
    for _ in range(2):
        ids = torch.randint(0, 13, (2, 6))
        y = torch.randint(0, 13, (12,))
        batches.append((ids, torch.where(torch.arange(12) % 5 == 0, -100, y)))

    def loss(out, y):
        return F.cross_entropy(out, y, label_smoothing=0.1, ignore_index=-100)
    model, _ = check(TinyGPT, batches, opt="adamw", loss_fn=loss)
    assert model.head.weight is model.tok.weight


@pytest.mark.parametrize("mode, last, weighted", [("mean", False, False),
                                                   ("sum", True, True), ("max", False, False)])
def test_embedding_bag_text_classifier(mode, last, weighted):
    # [Note: bags of embeddings]: _embedding_bag lowered whole (the builder of the
    # export path, all four results), its backward decomposed; texts of different
    # lengths (an empty one too) and padding tokens, every mode
    torch.manual_seed(1)
    batches = []
    for _ in range(3):
        lengths = torch.tensor([3, 0, 5, 2])
        tokens = torch.randint(0, 30, (int(lengths.sum()),))
        tokens[::4] = 0
        offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
        batches.append(((tokens, offsets), torch.randint(0, 3, (4,))))
    model, eager = check(lambda: BagClassifier(mode=mode, last=last, weighted=weighted),
                         batches, opt="sgd")
    model.eval(), eager.eval()
    with torch.no_grad():
        x = batches[0][0]
        torch.testing.assert_close(compiled(model)(x), eager(x), atol=1e-5, rtol=1e-5)


def test_frozen_submodule_gradient_accumulation_mse():
    torch.manual_seed(1)
    batches = [(torch.randn(8, 6), torch.randn(8, 3)) for _ in range(3)]
    torch.manual_seed(0)
    before = copy.deepcopy(FrozenHead().features.state_dict())
    model, _ = check(FrozenHead, batches, opt="adam", loss_fn=F.mse_loss, accumulate=2)
    for name, p in model.features.named_parameters():
        assert p.grad is None
        torch.testing.assert_close(p, before[name], atol=0, rtol=0)


def test_dropout_draws_the_masks_eager_draws():
    # [Note: random draws by torch's generator]: under one seed the compiled model's
    # dropout masks are eager's, so 20 steps of AdamW with dropout match eager's losses
    # no_grad eval steps between: eval mode (no dropout) compiled as another graph
    check(DropMLP, batches_of((8, 6), 3), opt="adamw", seed=123, eval_every=10)
    # and with a symbolic batch: the draw's size read from the inputs on each call
    torch._dynamo.reset()
    dynamo.COUNTERS.clear()
    batches = [(torch.randn(n, 6), torch.randint(0, 3, (n,))) for n in (5, 8, 11)]
    check(DropMLP, batches, opt="sgd", steps=6, seed=7, dynamic=True, learns=False)
    assert dynamo.COUNTERS["forward"] == 1


def test_dropout_statistics_and_gradient():
    p = 0.3
    f = compiled(nn.Dropout(p))
    x = torch.ones(200, 100, requires_grad=True)
    y = f(x)
    y.sum().backward()
    dropped = (y == 0).float().mean().item()
    assert abs(dropped - p) < 0.02
    kept = y != 0
    torch.testing.assert_close(y[kept], torch.full_like(y[kept], 1 / (1 - p)))
    # the gradient reads the forward's own mask (saved by the forward graph)
    torch.testing.assert_close(x.grad, kept.float() / (1 - p))
    # same seed, same mask as eager's F.dropout; the generator advanced alike
    torch.manual_seed(5)
    a = f(x)
    after = torch.get_rng_state()
    torch.manual_seed(5)
    b = F.dropout(x, p)
    assert torch.equal(a, b) and torch.equal(after, torch.get_rng_state())
    assert dynamo.COUNTERS["fallback"] == 0


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_dropout_edge_probabilities(p):
    # p = 0: no dropout op at all; p = 1: zeros, and no draw (ATen draws none either)
    f = compiled(nn.Dropout(p))
    x = torch.randn(4, 5, requires_grad=True)
    state = torch.get_rng_state()
    y = f(x)
    assert torch.equal(state, torch.get_rng_state())
    y.sum().backward()
    torch.testing.assert_close(y, x * (1 - p))
    torch.testing.assert_close(x.grad, torch.full_like(x, 1 - p))


def test_losses_of_several_kinds():
    # one graph of many losses' backward ops (cosine_embedding_loss's holds an
    # empty_permuted); the loss of label smoothing / ignore_index: TinyGPT's test
    torch.manual_seed(1)
    batches = [(torch.randn(6, 5), torch.rand(6, 4)) for _ in range(2)]
    ones = torch.ones(6)

    def loss(out, t):
        return (F.cosine_embedding_loss(out, t, ones) + F.smooth_l1_loss(out, t)
                + F.binary_cross_entropy_with_logits(out, t)
                + F.kl_div(F.log_softmax(out, -1), F.softmax(t, -1), reduction="batchmean")
                + F.triplet_margin_loss(out, t, out.flip(0)))
    check(lambda: nn.Sequential(nn.Linear(5, 8), nn.Mish(), nn.Linear(8, 4)), batches,
          loss_fn=loss, steps=8)


@pytest.mark.parametrize("kind,foreach", [("sgd", False), ("adam", False),
                                          ("adamw", True), ("rmsprop", True)])
def test_optimizer_step_compiled(kind, foreach):
    # [Note: optimizer graphs]: the step's graph compiled by Strata too (Adam's lerp_,
    # Dynamo's prims.fma of addcmul_, the _foreach_ ops of foreach=True decomposed into
    # core ops)
    torch.manual_seed(0)
    model = nn.Linear(6, 3)
    eager = copy.deepcopy(model)
    opt = make_opt(kind, model.parameters(), foreach)
    opt_e = make_opt(kind, eager.parameters(), foreach)
    step = torch.compile(opt.step, backend=dynamo.strata_backend, options=STRICT)
    x, y = torch.randn(8, 6), torch.randn(8, 3)
    for _ in range(4):
        for m, o in ((model, opt), (eager, opt_e)):
            o.zero_grad()
            F.mse_loss(m(x), y).backward()
        step()
        opt_e.step()
    for p, q in zip(model.parameters(), eager.parameters()):
        torch.testing.assert_close(p, q, atol=1e-5, rtol=1e-5)
    assert dynamo.COUNTERS["inference"] >= 1 and dynamo.COUNTERS["fallback"] == 0


def test_whole_train_step_compiled_with_gradient_clipping():
    # Dynamo breaks the graph at backward(): forward, backward, then clip_grad_norm_
    # (_foreach_norm, _foreach_mul_) and the optimizer step, each compiled
    def step(model, opt, x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        return loss
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.SiLU(), nn.Linear(16, 3))
    eager = copy.deepcopy(model)
    opt, opt_e = make_opt("adam", model.parameters()), make_opt("adam", eager.parameters())
    f = torch.compile(step, backend=dynamo.strata_backend, options=STRICT)
    for x, y in batches_of((8, 6), 3) * 2:
        a, b = f(model, opt, x, y).item(), step(eager, opt_e, x, y).item()
        assert abs(a - b) <= 1e-4 * abs(b)
    for p, q in zip(model.parameters(), eager.parameters()):
        torch.testing.assert_close(p, q, atol=1e-5, rtol=1e-5)
    assert dynamo.COUNTERS["backward"] >= 1 and dynamo.COUNTERS["fallback"] == 0


def test_mixed_requires_grad_inputs():
    def fn(a, b, c):
        return (a * b + c.sin()).sum(0) @ b.t()
    f = torch.compile(fn, backend=dynamo.strata_backend, options=STRICT)
    torch.manual_seed(0)
    a, b, c = torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)
    got = [a.clone().requires_grad_(), b, c.clone().requires_grad_()]
    want = [a.clone().requires_grad_(), b, c.clone().requires_grad_()]
    f(*got).sum().backward()
    fn(*want).sum().backward()
    assert b.grad is None
    torch.testing.assert_close(got[0].grad, want[0].grad)
    torch.testing.assert_close(got[2].grad, want[2].grad)
    assert dynamo.COUNTERS["backward"] == 1


def test_double_backward_is_refused_clearly():
    f = compiled(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
    x = torch.randn(3, 4, requires_grad=True)
    with pytest.raises(RuntimeError, match="double backward"):
        g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
        g.sum().backward()
