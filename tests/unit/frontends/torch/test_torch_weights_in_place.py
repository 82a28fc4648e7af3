"""The torch importer reads weights in place and a compiled model keeps a snapshot of
them ([Note: weights read in place] in strata/frontends/torch/literals.py, [Note: lent
blobs] in strata/ir/dense.py)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def test_blob_reads_the_tensor_in_place():
    from strata.frontends.torch.literals import tensor_literal_attr
    from strata.ir import attributes as A
    from strata.ir.dense import BLOBS
    w = torch.nn.Linear(5, 7).weight
    attr = tensor_literal_attr(w, A.f32, "in_place.w")
    a = attr.array()
    assert a.ctypes.data == w.data_ptr() and a.ctypes.data % 64 == 0   # no copy
    assert not a.flags.writeable and BLOBS.lent(attr.handle)
    np.testing.assert_array_equal(a, w.detach().numpy())
    # a strided view is copied once, into a tensor of the blob's own: not lent
    t = tensor_literal_attr(w.T, A.f32, "in_place.wt")
    assert not BLOBS.lent(t.handle) and t.array().ctypes.data != w.data_ptr()
    np.testing.assert_array_equal(t.array(), w.detach().numpy().T)
    # one element: a dense<> attribute, no blob
    assert not hasattr(tensor_literal_attr(torch.ones(1), A.f32, "in_place.one"), "handle")


class _Net(torch.nn.Module):
    """An embedding (read, not packed), a GEMM weight of odd width (packed), a layer
    norm and biases (bound as they are)."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(11, 8)
        self.fc = torch.nn.Linear(8, 37)
        self.norm = torch.nn.LayerNorm(37)
        self.out = torch.nn.Linear(37, 5)

    def forward(self, ids):
        return self.out(self.norm(self.fc(self.emb(ids))))


@pytest.mark.parametrize("target,in_place", [("cpu", False), ("cpu", True),
                                             ("interpret", False)])
def test_compiled_model_keeps_the_weights_of_compile_time(monkeypatch, target, in_place):
    """A parameter written in place after strata.compile does not change the compiled
    model's answers, whether the cpu target copies the weights into one block or, past
    PLACE_MAX_BYTES (`in_place`), binds those it can where they lie, or the interpreter
    reads the IR's constants when called."""
    import strata
    from strata.backends.cpu import heap
    if in_place:
        monkeypatch.setattr(heap, "PLACE_MAX_BYTES", 0)
    torch.manual_seed(0)
    net = _Net().eval()
    ids = torch.tensor([[1, 2, 3, 10]])
    f = strata.compile(torch.export.export(net, (ids,)), target=target, cache=False)
    with torch.no_grad():
        want = net(ids).numpy().copy()
        np.testing.assert_allclose(np.asarray(f(ids)), want, rtol=1e-5, atol=1e-5)
        for p in net.parameters():
            p.mul_(-3.0).add_(1.0)
        assert not np.allclose(net(ids).numpy(), want, atol=1e-3)
    np.testing.assert_allclose(np.asarray(f(ids)), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target,in_place", [("cpu", True), ("interpret", False)])
def test_compile_and_drop_releases_blobs(monkeypatch, target, in_place):
    """[Note: blob lifetimes]: models compiled and dropped in a loop leave no blob
    behind, nor the parameters' storage the lent blobs read in place; a model kept
    runs after its nn.Module and the program are gone (the cpu target binding weights
    where they lie, `in_place`, or the interpreter reading them from its IR)."""
    import gc
    import weakref

    import strata
    from strata.backends.cpu import heap
    from strata.ir.dense import BLOBS
    if in_place:
        monkeypatch.setattr(heap, "PLACE_MAX_BYTES", 0)
    ids = torch.tensor([[1, 2, 3, 10]])
    gc.collect()
    before = len(BLOBS)
    for k in range(3):
        net = _Net().eval()
        weight = weakref.ref(net.fc.weight)
        f = strata.compile(net, example_args=(ids,), target=target, cache=False)
        with torch.no_grad():
            want = net(ids).numpy().copy()
        if k == 2:   # kept, its module dropped
            del net
            gc.collect()
            np.testing.assert_allclose(np.asarray(f(ids)), want, rtol=1e-5, atol=1e-5)
        del f
        net = None
        gc.collect()
        assert len(BLOBS) == before and weight() is None


def test_torch_compile_and_reset_releases_blobs():
    """torch.compile's recompiles: the frozen weights of each compiled graph go with it
    once Dynamo drops it (torch._dynamo.reset()); every blob stayed before."""
    import gc

    from strata.frontends.torch import dynamo
    from strata.ir.dense import BLOBS
    torch._dynamo.reset()
    gc.collect()
    before = len(BLOBS)
    for _ in range(2):
        net = _Net().eval()
        f = torch.compile(net, backend=dynamo.strata_backend,
                          options={"target": "interpret"})
        with torch.no_grad():
            f(torch.tensor([[1, 2, 3, 10]]))
        del f, net
        torch._dynamo.reset()
        gc.collect()
        assert len(BLOBS) == before
