"""Indices and sizes read from tensors at run time, through convert-torch-to-linalg:
every bad value eager PyTorch refuses, Strata's compiled code refuses with a Strata
error naming the op (never a crash, never an answer); every negative index eager counts
from the end, Strata counts so too. One module holds all the ops (one compile per target
and path); each case changes one input of a good call.

[Note: negative indices] in conversion/onnx_to_linalg/gather_scatter.py says which ATen
ops wrap negative indices; [Note: torch.export's run-time assertions] in
conversion/torch_to_linalg/views.py how export's own checks reach the generated code.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

import strata  # noqa: E402
from strata.errors import StrataError  # noqa: E402


def L(v):
    return torch.tensor(v)


W = torch.randn(6, 3, generator=torch.Generator().manual_seed(0))


class Indexed(nn.Module):
    """Each input an index (or targets, classes, pooling indices) of one op."""

    def forward(self, x, gi, si, sel, emb, adv, take, tgt, cls, ux, ui, iadd, icopy,
                ifill, put):
        return (torch.gather(x, 1, gi),
                x.scatter(1, si, 1.0),
                x.scatter_add(1, si, torch.ones(4, 2)),
                x.scatter_reduce(1, si, torch.ones(4, 2), "amax", include_self=False),
                torch.index_select(x, 1, sel),
                F.embedding(emb, W, padding_idx=2),
                x[adv, :2],
                torch.take(x, take),
                F.cross_entropy(x, tgt, ignore_index=3),
                F.one_hot(cls, 5),
                F.max_unpool2d(ux, ui, 2),
                x.index_add(1, iadd, torch.ones(4, 2), alpha=2.0),
                x.index_copy(1, icopy, torch.ones(4, 2)),
                x.index_fill(1, ifill, -3.0),
                x.index_put((put,), torch.ones(2, 5), accumulate=True))


X = torch.randn(4, 5, generator=torch.Generator().manual_seed(1))
GOOD = dict(x=X, gi=L([[0, 1], [2, 3], [4, 0], [1, 1]]), si=L([[0, 1], [2, 3], [4, 0], [1, 1]]),
            sel=L([0, 4, 2]), emb=L([0, 5, 2]), adv=L([0, 3, 2]), take=L([0, 19, 3]),
            tgt=L([0, 3, 4, 2]), cls=L([0, 4, 2]), ux=torch.randn(2, 3, 2, 2),
            ui=L([[0, 3], [8, 15]]).expand(2, 3, 2, 2).contiguous(), iadd=L([0, 4]),
            icopy=L([4, 1]), ifill=L([0, 4]), put=L([0, 0]))

# (input, bad value, a word of the message): eager raises on each
REFUSED = [
    ("gi", L([[0, 5], [2, 3], [4, 0], [1, 1]]), "gather"),
    ("gi", L([[0, -1], [2, 3], [4, 0], [1, 1]]), "gather"),
    ("si", L([[0, 1], [2, 5], [4, 0], [1, 1]]), "scatter"),
    ("si", L([[0, 1], [2, 3], [-1, 0], [1, 1]]), "scatter"),
    ("sel", L([0, 5, 2]), "index_select"),
    ("sel", L([0, -1, 2]), "index_select"),
    ("emb", L([0, 6, 2]), "embedding"),
    ("emb", L([0, -1, 2]), "embedding"),
    ("adv", L([0, 4, 2]), "index"),
    ("adv", L([0, -5, 2]), "index"),
    ("take", L([0, 20, 3]), "index"),
    ("take", L([0, -21, 3]), "index"),
    ("tgt", L([0, 1, 5, 2]), "gather"),
    ("tgt", L([0, -1, 4, 2]), "gather"),
    ("cls", L([0, 5, 2]), "smaller than num_classes"),
    ("cls", L([0, -1, 2]), "non-negative"),
    ("ui", L([[0, 3], [8, 16]]).expand(2, 3, 2, 2).contiguous(), "max_unpool2d"),
    ("ui", L([[0, -1], [8, 15]]).expand(2, 3, 2, 2).contiguous(), "max_unpool2d"),
    ("iadd", L([0, 5]), "index_add"),
    ("iadd", L([-1, 4]), "index_add"),
    ("icopy", L([5, 1]), "index_copy"),
    ("icopy", L([-1, 1]), "index_copy"),
    ("ifill", L([0, 5]), "index_fill"),
    ("ifill", L([-6, 0]), "index_fill"),
    ("put", L([0, 4]), "index_put"),
    ("put", L([-5, 0]), "index_put"),
]
# (input, value with negative indices eager counts from the end)
WRAPPED = [("adv", L([0, -1, -4])), ("take", L([-20, -1, 3])), ("ifill", L([-5, -1])),
           ("put", L([-4, -1]))]


def _args(**changed):
    a = dict(GOOD, **changed)
    return tuple(a[k] for k in GOOD)


@pytest.fixture(scope="module", params=["interpret", "cpu"])
def compiled(request):
    return strata.compile(Indexed(), example_args=_args(), target=request.param, cache=False)


def _same(got, want):
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, check_dtype=False)


def test_bad_indices_refused_as_eager_refuses(compiled):
    m = Indexed()
    _same(compiled(*_args()), m(*_args()))
    for name, bad, word in REFUSED:
        with pytest.raises((RuntimeError, IndexError)):
            m(*_args(**{name: bad}))
        with pytest.raises(StrataError) as e:
            compiled(*_args(**{name: bad}))
        assert word in str(e.value), (name, bad, str(e.value))
    for name, value in WRAPPED:
        _same(compiled(*_args(**{name: value})), m(*_args(**{name: value})))
    # the message ends with the comparison that failed at its run-time values ([Note:
    # failed checks report their values] in dialects/cf.py): the extreme index, bound
    for name, bad, values in (("gi", REFUSED[0][1], "(failed: 5 < 5)"),
                              ("gi", REFUSED[1][1], "(failed: -1 >= 0)"),
                              ("adv", L([0, -7, 2]), "(failed: -7 >= -4)")):
        with pytest.raises(StrataError) as e:
            compiled(*_args(**{name: bad}))
        assert values in str(e.value), str(e.value)
        # and the user's line, which the compiled code's message carries too
        assert "test_torch_index_checks.py:" in str(e.value).partition(" at ")[2]


def test_bad_indices_refused_under_torch_compile():
    """The torch.compile path decomposes with AOTAutograd's table: the ops whose
    decomposition loses ATen's checks are kept whole there too."""
    from strata.frontends.torch import dynamo
    torch._dynamo.reset()
    m = Indexed()
    f = torch.compile(m, backend=dynamo.strata_backend, options={"target": "interpret"})
    _same(f(*_args()), m(*_args()))
    for name, bad, word in REFUSED[::3]:
        with pytest.raises(StrataError) as e:
            f(*_args(**{name: bad}))
        assert word in str(e.value), (name, bad, str(e.value))
    for name, value in WRAPPED:
        _same(f(*_args(**{name: value})), m(*_args(**{name: value})))


class Sized(nn.Module):
    """Sizes and positions taken from tensors (`.item()`: unbacked symbols, with the
    run-time assertions torch.export writes)."""

    def forward(self, x, n, k, t):
        return (torch.full((n.item(), 2), 1.5), x.select(1, k.item()),
                torch.arange(t.item(), 2.5, -0.5))


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_run_time_sizes_checked(target):
    m = Sized()
    good = (X, L(3), L(1), L(5.0))
    f = strata.compile(m, example_args=good, target=target, cache=False)
    _same(f(*good), m(*good))
    _same(f(X, L(0), L(-1), L(2.5)), m(X, L(0), L(-1), L(2.5)))
    for bad, word in (((X, L(-1), L(1), L(5.0)), "u0 >= 0"),
                      ((X, L(2), L(5), L(5.0)), "select"),
                      ((X, L(2), L(-6), L(5.0)), "select"),
                      ((X, L(2), L(1), L(1.0)), "inconsistent with step sign")):
        with pytest.raises((RuntimeError, IndexError)):
            m(*bad)
        with pytest.raises(StrataError) as e:
            f(*bad)
        assert word in str(e.value)


class Gather(nn.Module):
    def forward(self, x, i, j):
        return torch.gather(x, 1, i), x.scatter_add(0, j, torch.ones(2, 5)), x[i[:, 0], i[:, 1]]


@pytest.fixture(scope="module")
def gather_cpu():
    return strata.compile(Gather(), example_args=(X, L([[0] * 3] * 4), L([[0] * 5] * 2)),
                          target="cpu", cache=False)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(i=st.lists(st.integers(-7, 7), min_size=12, max_size=12),
       j=st.lists(st.integers(-5, 5), min_size=10, max_size=10))
def test_random_indices_as_eager(gather_cpu, i, j):
    """Random indices in and out of range: Strata raises exactly where eager does, and
    otherwise gives eager's answer (gather and scatter refuse negatives, advanced
    indexing counts them from the end)."""
    m = Gather()
    args = (X, L(i).reshape(4, 3), L(j).reshape(2, 5))
    try:
        want = m(*args)
    except (RuntimeError, IndexError):
        with pytest.raises(StrataError):
            gather_cpu(*args)
        return
    _same(gather_cpu(*args), want)


class Empty(nn.Module):
    """Every index op given no index: empty results, nothing read."""

    def forward(self, x, e, e2):
        return (torch.gather(x, 1, e2), torch.index_select(x, 1, e), x[e], F.embedding(e, W),
                x.scatter(1, e2, 1.0), x.index_put((e,), torch.ones(0, 5)),
                x.index_add(1, e, torch.ones(4, 0)), torch.take(x, e), F.one_hot(e, 5))


class Selected(nn.Module):
    def forward(self, x, i):
        return torch.index_select(x, 1, i), x[i]


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_empty_indices_as_eager(target):
    e = torch.zeros(0, dtype=torch.long)
    args = (X, e, torch.zeros(4, 0, dtype=torch.long))
    _same(strata.compile(Empty(), example_args=args, target=target, cache=False)(*args),
          Empty()(*args))
    # an index of run-time length 0 (a dynamic dim)
    m = Selected()
    f = strata.compile(m, example_args=(X, L([1, 2])), target=target, cache=False,
                       dynamic_shapes=(None, {0: torch.export.Dim("n")}))
    for i in (e, L([3])):
        _same(f(X, i), m(X, i))


class ZeroD(nn.Module):
    def forward(self, x, i, s):
        return x.index_add(0, i, s, alpha=2.0), x.index_copy(0, i, s), x.index_fill(0, i, 3.0)


def test_kept_whole_index_ops_of_a_0d_tensor():
    """index_add / index_copy / index_fill of a 0-d self (kept whole: no decomposition to
    fall back on), with a 1-element and a 0-d index; a bad index still refused."""
    for i in (L([0]), L(0)):
        args = (torch.tensor(1.5), i, torch.tensor(2.0))
        f = strata.compile(ZeroD(), example_args=args, target="interpret", cache=False)
        _same(f(*args), ZeroD()(*args))
        with pytest.raises(StrataError):
            f(torch.tensor(1.5), i + 1, torch.tensor(2.0))


class Repeated(nn.Module):
    def forward(self, x, r, w):
        return (torch.repeat_interleave(x, r, dim=0), torch.repeat_interleave(r),
                torch.bincount(r), torch.bincount(r, w, minlength=7))


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_repeat_interleave_and_bincount_by_a_tensor(target):
    """Sizes from the values of a tensor (data-dependent counts): runs of 0 included; a
    negative repeat or value refused as ATen refuses it."""
    m = Repeated()
    w = torch.rand(4, generator=torch.Generator().manual_seed(2))
    f = strata.compile(m, example_args=(X, L([1, 0, 2, 1]), w), target=target, cache=False)
    for r in ([1, 0, 2, 1], [0, 0, 0, 0], [0, 0, 0, 5], [3, 9, 0, 0]):
        _same(f(X, L(r), w), m(X, L(r), w))
    with pytest.raises(RuntimeError):
        m(X, L([1, -1, 2, 1]), w)
    with pytest.raises(StrataError) as e:
        f(X, L([1, -1, 2, 1]), w)
    assert "repeats can not be negative (failed: -1 >= 0)" in str(e.value)
    class Counts(nn.Module):
        def forward(self, r):
            return torch.bincount(r, minlength=3)
    f = strata.compile(Counts(), example_args=(L([1, 0]),), target=target, cache=False,
                       dynamic_shapes=({0: torch.export.Dim("n")},))
    for r in ([], [4], [0, 0, 2]):
        _same([f(L(r).long())], [Counts()(L(r).long())])
    with pytest.raises(StrataError) as e:
        f(L([2, -3]))
    assert "non-negative integral inputs. (failed: -3 >= 0)" in str(e.value)


class Sorted(nn.Module):
    def forward(self, s, v, o):
        return (torch.searchsorted(s, v), torch.searchsorted(s, v, right=True),
                torch.searchsorted(s, v, sorter=o), torch.bucketize(v, s, out_int32=True),
                torch.bucketize(v, s, right=True))


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_searchsorted_and_bucketize_as_eager(target):
    """ATen's binary search, NaNs and unsorted sequences included (answers as eager's
    own search gives them); a sorter index out of range refused as ATen refuses it."""
    nan = float("nan")
    s, v = torch.tensor([1., 2., 2., 3., nan]), torch.tensor([nan, 2., 0., 5., 2.5, 1.])
    f = strata.compile(Sorted(), example_args=(s, v, L([0, 1, 2, 3, 4])), target=target,
                       cache=False)
    for seq, o in ((s, [0, 1, 2, 3, 4]), (torch.tensor([5., 1., 3., 2., 4.]), [1, 3, 2, 4, 0])):
        got, want = f(seq, v, L(o)), Sorted()(seq, v, L(o))
        assert all(g.dtype == w.dtype and torch.equal(g, w) for g, w in zip(got, want))
    for o in ([0, 1, 5, 3, 4], [0, -1, 2, 3, 4]):
        with pytest.raises(RuntimeError):
            Sorted()(s, v, L(o))
        with pytest.raises(StrataError) as e:
            f(s, v, L(o))
        assert "searchsorted" in str(e.value)


class Narrowed(nn.Module):
    def forward(self, x, s):
        return x.narrow(1, s.item(), 2)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_narrow_at_a_run_time_start(target):
    """A start from `.item()` (export's sym_ite of the wrapped start and its assertions,
    `(u0 <= 5) & (0 <= u0 + 5)`): every start in and out of range as eager."""
    f = strata.compile(Narrowed(), example_args=(X, L(1)), target=target, cache=False)
    for k in range(-7, 7):
        try:
            want = Narrowed()(X, L(k))
        except (RuntimeError, IndexError):
            with pytest.raises(StrataError):
                f(X, L(k))
            continue
        _same([f(X, L(k))], [want])
