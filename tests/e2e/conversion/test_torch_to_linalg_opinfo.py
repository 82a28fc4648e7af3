"""Lowerings of convert-torch-to-linalg that PyTorch's OpInfo conformance run
(tests/e2e/torch_opinfo_runner.py) found missing or wrong, each checked on both targets
against eager on small exported modules (the neighbours of the OpInfo samples: other
dtypes, dims, flags), with `check` of test_torch_to_linalg."""
from __future__ import annotations

import itertools

import pytest

torch = pytest.importorskip("torch")

from test_torch_to_linalg import Fn, check  # noqa: E402

TARGETS = ["interpret", "cpu"]


def _gen():
    return torch.Generator().manual_seed(0)


# ------------------------------------------------------------------ scatter_reduce

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("how, include_self", list(itertools.product(
    ["sum", "prod", "amax", "amin", "mean"], [True, False])))
def test_scatter_reduce(how, include_self, target):
    """Every reduction with and without include_self; positions hit several times, once
    and never (mean divides by the count, and leaves a position never hit as it was)."""
    x = torch.randn(3, 5, generator=_gen())
    index = torch.tensor([[0, 0, 2, 1], [2, 0, 0, 1]])
    src = torch.randn(2, 4, generator=_gen()) * 3
    check(Fn(lambda a, i, b: a.scatter_reduce(0, i, b, how, include_self=include_self)),
          (x, index, src), target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("how", ["mean", "amax", "amin"])
def test_scatter_reduce_integers(how, target):
    """Integer mean rounds down (PyTorch's floor division); amax/amin without include_self
    start from the type's extremes."""
    x = torch.randint(-9, 10, (4, 3), generator=_gen())
    index = torch.tensor([[1, 1, 0], [1, 2, 0]])
    src = torch.randint(-20, 20, (2, 3), generator=_gen())
    check(Fn(lambda a, i, b: a.scatter_reduce(1, i, b, how, include_self=False)),
          (x, index, src), target)
    check(Fn(lambda a, i, b: a.scatter_reduce(0, i, b, how)), (x, index, src), target)


# ------------------------------------------------------------------ nonzero

def _sparse(*shape, dtype=torch.float32):
    x = torch.randn(*shape, generator=_gen())
    x[x.abs() < 0.6] = 0
    return x.to(dtype)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("x", [_sparse(7), _sparse(3, 4), _sparse(2, 3, 4, dtype=torch.int64),
                               _sparse(3, 4) != 0, torch.zeros(2, 3), torch.tensor(1.5),
                               torch.tensor(0.0)],
                         ids=["1d", "2d", "3d_int", "bool", "all_zero", "scalar",
                              "scalar_zero"])
def test_nonzero(x, target):
    """(N, rank) coordinates, N known at run time only; torch.export's checks of N (the
    scalar comparisons ge.int / le.int on its size) run too."""
    check(Fn(torch.nonzero), (x,), target)


@pytest.mark.parametrize("target", TARGETS)
def test_argwhere(target):
    check(Fn(lambda a: torch.argwhere(a > 0)), (_sparse(4, 5),), target)


# ------------------------------------------------------------------ slice_scatter

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dim, start, end, step, src_shape", [
    (0, None, None, 1, (6, 5)), (1, 1, 4, 1, (6, 3)), (0, 1, None, 2, (3, 5)),
    (1, -3, -1, 1, (6, 2)), (0, -100, 100, 4, (2, 5)), (1, 5, 9, 1, (6, 0))])
def test_slice_scatter(dim, start, end, step, src_shape, target):
    """Negative and out-of-range bounds clamp as slice's do; steps; an empty slice."""
    x = torch.randn(6, 5, generator=_gen())
    src = torch.randn(*src_shape, generator=_gen())
    check(Fn(lambda a, b: torch.slice_scatter(a, b, dim, start, end, step)), (x, src), target)


@pytest.mark.parametrize("target", TARGETS)
def test_circular_pad(target):
    """F.pad(mode="circular") decomposes to slice_scatter."""
    x = torch.randn(2, 3, 4, 5, generator=_gen())
    check(Fn(lambda a: torch.nn.functional.pad(a, (1, 2, 2, 1), mode="circular")), (x,),
          target)


@pytest.mark.parametrize("target", TARGETS)
def test_empty_slice_past_the_end(target):
    x = torch.randn(6, 5, generator=_gen())
    check(Fn(lambda a: (a[:, 5:9], a[7:])), (x,), target)


# ------------------------------------------------------------------ sort

def _ties_and_nans():
    x = torch.randint(-3, 4, (4, 6, 5), generator=_gen()).float()
    x[0, 1, 2] = x[2, 3, 4] = float("nan")
    x[1, 2, 3] = -0.0
    return x


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dim, descending", [(-1, False), (0, True), (1, False), (1, True)])
def test_sort_stable_with_ties_and_nans(dim, descending, target):
    """Ties keep index order (stable, ascending and descending), NaN sorts as the
    largest, -0.0 ties with 0.0; sort, argsort and msort."""
    x = _ties_and_nans()
    check(Fn(lambda a: (torch.sort(a, dim=dim, descending=descending, stable=True),
                        torch.argsort(a, dim=dim, descending=descending, stable=True),
                        torch.msort(a))), (x,), target)
    xi = torch.randint(-5, 5, (3, 7), generator=_gen())
    check(Fn(lambda a: torch.sort(a, dim=-1, descending=descending, stable=True)), (xi,),
          target)


def test_sort_of_thousands_is_fast_on_the_interpreter():
    """The interpreter sorts a 3000-element row in seconds: the ranks are one vectorized
    sum (picking the elements in n rounds of sequential reductions took minutes)."""
    check(Fn(lambda a: torch.sort(a)), (torch.randn(3000, generator=_gen()),), "interpret")


# ------------------------------------------------------------------ as_strided

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size, stride, offset", [
    ((2, 2), (1, 2), 0), ((2, 2), (1, 2), 1), ((2, 2, 2, 2), (1, 1, 1, 1), 0),
    ((3,), (0,), 4), ((2, 3), (3, 1), 6), ((4, 0), (1, 1), 100), ((), (), 5)])
def test_as_strided(size, stride, offset, target):
    """Overlapping windows, broadcast (stride 0), the last element, empty, 0-d."""
    x = torch.randn(3, 4, generator=_gen())
    check(Fn(lambda a: torch.as_strided(a, size, stride, offset)), (x,), target)
    check(Fn(lambda a: torch.as_strided(a.reshape(4, 3) * 2, size, stride, offset)), (x,),
          target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size, stride", [((1, 1, 1), (1, 1, 1)), ((2, 3), (0, 0)), ((), ())])
def test_as_strided_of_a_0d_tensor(size, stride, target):
    """A 0-d base has no dim to index through (OpInfo's resize_ sample: the strided
    read had become an index.Tensor with no indices, typed 0-d)."""
    x = torch.randn((), generator=_gen())
    check(Fn(lambda a: torch.as_strided(a.clone(), size, stride)), (x,), target)
    check(Fn(lambda a: torch.as_strided(a * 2, size, stride)), (x,), target)


def test_as_strided_refusals():
    """Reading past the storage fails like eager; a strided view's base storage is read
    as eager reads it."""
    from strata.errors import StrataError
    x = torch.randn(3, 4, generator=_gen())
    m = Fn(lambda a: torch.as_strided(a, (3, 3), (4, 4), 0))
    with pytest.raises(StrataError, match="past the end"):
        strata_compile(m, (x,))
    # a strided view of a view reads the storage of the tensor that owns it, as eager
    # (the importer's strided reads: frontends/torch/strided_reads.py), not refused
    m = Fn(lambda a: torch.as_strided(a.t(), (2, 2), (1, 2), 0))
    got = strata_compile(m, (x,))(x)
    torch.testing.assert_close(got, m(x))


def strata_compile(m, args):
    import strata
    return strata.compile(m, example_args=args, target="interpret")


# ------------------------------------------------------------------ masked_scatter

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("x_shape, mask_shape, src_shape", [
    ((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (20,)), ((4,), (3, 4), (2, 7)),
    ((2, 3), (2, 3), (0,)), ((), (), (1,))])
def test_masked_scatter(x_shape, mask_shape, src_shape, target):
    """Broadcast self and mask; source longer than needed, of another shape; an all-false
    mask with an empty source; 0-d."""
    x = torch.randn(x_shape, generator=_gen())
    mask = torch.randn(mask_shape, generator=_gen()) > (0.3 if src_shape != (0,) else 9)
    src = torch.randn(src_shape, generator=_gen())
    check(Fn(lambda a, m, b: a.masked_scatter(m, b)), (x, mask, src), target)


# ------------------------------------------------------------------ distances

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, float("inf")])
def test_cdist_and_pdist(p, target):
    """Every p-norm kind: a count (0), sums (1, 2, 3), a max (inf); batched cdist; pdist's
    pairs in order, and of a single row (no pairs)."""
    a = torch.randn(2, 5, 3, generator=_gen()).round()
    b = torch.randn(2, 4, 3, generator=_gen()).round()
    check(Fn(lambda x, y: torch.cdist(x, y, p=p)), (a, b), target)
    check(Fn(lambda x: (torch.nn.functional.pdist(x, p=p),
                        torch.nn.functional.pdist(x[:1], p=p))), (a[0],), target)


@pytest.mark.parametrize("target", TARGETS)
def test_slices_of_empty_dims(target):
    """A 0-size dim: slices and slice_scatter into it (no offset the verifier rejects)."""
    x = torch.randn(0, 5, generator=_gen())
    check(Fn(lambda a: (a[:, 1:3], torch.slice_scatter(a, a[:, :2], 1, 0, 2),
                        torch.nn.functional.pad(a[None], (1, 1), mode="circular"))),
          (x,), target)


# ------------------------------------------------------------------ storage offsets

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dim, indices", [(1, [1, 3]), (-1, [-4, 9])])
def test_tensor_split_by_a_tensor(dim, indices, target):
    """tensor_split at run-time indices: torch.export checks the storage offset of each
    slice (aten.sym_storage_offset); indices negative and past the end clamp."""
    x = torch.randn(5, 6, 5, generator=_gen())
    check(Fn(lambda a, t: torch.tensor_split(a, t, dim)), (x, torch.tensor(indices)),
          target)


@pytest.mark.parametrize("target", TARGETS)
def test_storage_offset_of_slices_and_selects(target):
    """The offset ATen gives a view chain (slice by run-time starts, then select at a
    negative run-time index), computed for other indices than the traced ones."""
    import strata

    class M(torch.nn.Module):
        def forward(self, x, t):
            y = x[1:, t[0].item():][:, :, t[1].item()]
            return torch.full((2,), y.storage_offset()), y
    x = torch.randn(5, 6, 5, generator=_gen())
    ep = torch.export.export(M(), (x, torch.tensor([2, 3])))
    f = strata.compile(ep, target=target)
    for t in ([4, -2], [0, 4], [6, 0]):
        got, want = f(x, torch.tensor(t)), M()(x, torch.tensor(t))
        assert got[0].tolist() == want[0].tolist()
        assert torch.equal(got[1], want[1])


def test_storage_offset_of_other_views_is_refused():
    """A view the offset is not followed through (a transpose) is refused with the op's
    name, never given an offset of 0."""
    import strata
    from strata.errors import StrataError

    class M(torch.nn.Module):
        def forward(self, x, t):
            y = x.transpose(0, 1)[t.item():]
            return torch.full((1,), y.storage_offset()), y
    ep = torch.export.export(M(), (torch.randn(4, 5), torch.tensor(1)))
    with pytest.raises(StrataError, match="storage offset of a view made by"):
        strata.compile(ep, target="interpret")


# ------------------------------------------------------------------ index_put by a mask

def _put_after_dim0(x, m, v):
    y = x.clone()
    y[:, m] = v
    return y


def _mask_cases():
    g = _gen()
    x = torch.randn(5, 4, 3, generator=g)
    rows = torch.tensor([True, False, True, True, False])
    cells = torch.randn(5, 4, generator=g) > 0
    inner = torch.randn(4, 3, generator=g) > 0
    put = torch.index_put
    return {
        "same_for_every_row": (lambda a, m, v: put(a, [m], v), (x, rows, torch.randn(4, 3))),
        "broadcast_accumulate": (lambda a, m, v: put(a, [m], v, accumulate=True),
                                 (x, rows, torch.randn(3))),
        "scalar_by_2d_mask": (lambda a, m, v: put(a, [m], v), (x, cells, torch.tensor(2.5))),
        "one_row_per_true": (lambda a, m, v: put(a, [m], v),
                             (x, rows, torch.randn(int(rows.sum()), 4, 3))),
        "one_row_per_true_accumulate": (lambda a, m, v: put(a, [m], v, accumulate=True),
                                        (x, cells, torch.randn(int(cells.sum()), 3))),
        "k_dim_of_1": (lambda a, m, v: put(a, [m], v), (x, rows, torch.randn(1, 4, 1))),
        "mask_after_dim0": (_put_after_dim0, (x, inner, torch.randn(5, 1))),
        "all_false": (lambda a, m, v: put(a, [m], v), (x, rows & False, torch.randn(3))),
    }


@pytest.mark.parametrize("target", TARGETS)
def test_index_put_by_a_bool_mask(target):
    """index_put whose index is a bool mask (OpInfo's index_put samples 1 and 3): values
    the same for every true position (broadcast), or one row per true position in
    row-major order; accumulate adds. Every case in one module (one compile per
    target)."""
    cases = _mask_cases()
    fns = [f for f, _ in cases.values()]
    counts = [len(a) for _, a in cases.values()]
    args = tuple(t for _, a in cases.values() for t in a)

    def every(*a):
        out, k = [], 0
        for f, n in zip(fns, counts):
            out.append(f(*a[k:k + n]))
            k += n
        return tuple(out)
    check(Fn(every), args, target)


def test_index_put_by_a_mask_checks_the_row_count():
    """One row per true element: a mask with another count at run time is an error, as
    in eager, never a partial write."""
    import strata
    x = torch.randn(5, 3, generator=_gen())
    rows = torch.tensor([True, False, True, True, False])
    m = Fn(lambda a, k, v: torch.index_put(a, [k], v))
    f = strata.compile(m, example_args=(x, rows, torch.randn(3, 3)), target="interpret")
    with pytest.raises(Exception, match="one row per true element"):
        f(x, torch.tensor([True, False, True, False, False]), torch.randn(3, 3))
