"""strata.compile on PyTorch models: an nn.Module with example inputs, an
ExportedProgram, a .pt2 file; the compiled callable on torch tensors and NumPy arrays
([Note: torch tensors in and out] in strata/compiler.py)."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import strata  # noqa: E402
from strata.compiler import InputError, TorchCompiledModel, target_pipeline  # noqa: E402
from strata.errors import StrataError  # noqa: E402


class Two(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x, y):
        return self.fc(x) + y, x.sum()


def _model():
    torch.manual_seed(0)
    return Two().eval()


X, Y = torch.randn(4, 3), torch.randn(4, 2)


@pytest.fixture(scope="module", params=["interpret", "cpu"])
def compiled(request):
    m = _model()
    return m, strata.compile(m, example_args=(X, Y), target=request.param)


def test_torch_tensors_in_torch_tensors_out(compiled):
    m, f = compiled
    assert isinstance(f, TorchCompiledModel)
    a, b = f(X, Y)
    want_a, want_b = m(X, Y)
    assert isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
    assert a.dtype == torch.float32 and b.shape == ()
    torch.testing.assert_close(a, want_a.detach(), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(b, want_b, rtol=1e-5, atol=1e-6)


def test_numpy_in_numpy_out(compiled):
    m, f = compiled
    a, _ = f(X.numpy(), Y.numpy())
    assert isinstance(a, np.ndarray)
    np.testing.assert_allclose(a, m(X, Y)[0].detach().numpy(), rtol=1e-5, atol=1e-6)


def test_inputs_by_python_name(compiled):
    m, f = compiled
    assert f.input_names == ["x", "y"]
    a, _ = f(y=Y, x=X)
    torch.testing.assert_close(a, m(X, Y)[0].detach(), rtol=1e-5, atol=1e-6)


def test_non_contiguous_and_grad_inputs(compiled):
    m, f = compiled
    xt = torch.randn(3, 4).t()          # a transposed view: copied, never read wrongly
    assert not xt.is_contiguous()
    a, _ = f(xt, Y)
    torch.testing.assert_close(a, m(xt, Y)[0].detach(), rtol=1e-5, atol=1e-6)
    xg = X.clone().requires_grad_()      # detached: the compiled code has no autograd
    a, _ = f(xg, Y)
    assert not a.requires_grad
    torch.testing.assert_close(a, m(X, Y)[0].detach(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("bad, words", [
    ((X.double(), Y), ["input #0 ('x')", "dtype float32", "float64"]),
    ((X, Y[None]), ["input #1 ('y')", "shape (4, 2)"]),
    ((torch.randn(5, 3), Y), ["input #0 ('x')", "(5, 3)"]),
    ((X,), ["missing: y"]),
])
def test_wrong_inputs_raise_input_error(compiled, bad, words):
    _, f = compiled
    with pytest.raises(InputError) as e:
        f(*bad)
    for w in words:
        assert w in str(e.value)


def test_exported_program_and_pt2(tmp_path):
    m = _model()
    ep = torch.export.export(m, (X, Y))
    f = strata.compile(ep, target="interpret")
    torch.testing.assert_close(f(X, Y)[0], m(X, Y)[0].detach(), rtol=1e-5, atol=1e-6)
    path = tmp_path / "two.pt2"
    torch.export.save(ep, str(path))
    g = strata.compile(str(path), target="interpret")
    torch.testing.assert_close(g(X, Y)[0], m(X, Y)[0].detach(), rtol=1e-5, atol=1e-6)


def test_dynamic_shapes():
    m = _model()
    n = torch.export.Dim("n")
    f = strata.compile(m, example_args=(X, Y), dynamic_shapes=({0: n}, {0: n}),
                       target="interpret")
    x, y = torch.randn(7, 3), torch.randn(7, 2)
    torch.testing.assert_close(f(x, y)[0], m(x, y)[0].detach(), rtol=1e-5, atol=1e-6)
    with pytest.raises(InputError):
        f(torch.randn(7, 4), y)          # the static dim still checked
    with pytest.raises(InputError, match="disagree on dynamic dim"):
        f(x, torch.randn(5, 2))          # both batch dims are the symbol of Dim "n"


def test_symbolic_dims_need_no_run_time_broadcast_check():
    """Dims of one torch.export symbol are one size (torch-mlir's bind_symbolic_shape):
    the add of two (n, 2) tensors checks no broadcast at run time; the entry checks
    once that the inputs' dims of the symbol agree ([Note: symbolic
    sizes checked in the generated code]); without the symbols the add asserts that
    the dims broadcast."""
    from strata.frontends.torch import import_program
    n = torch.export.Dim("n")
    m = _model()
    ep = torch.export.export(m, (X, Y), dynamic_shapes=({0: n}, {0: n}))
    f = strata.compile(import_program(ep), target="interpret",
                       pipeline=["torch-externalize-weights", "convert-torch-to-linalg"])
    text = str(f.module)
    assert "do not broadcast" not in text
    assert text.count("cf.assert") == 1 and "both are the size" in text   # (n in [0, oo))
    g = strata.compile(import_program(ep, symbolic_shapes=False), target="interpret",
                       pipeline=["torch-externalize-weights", "convert-torch-to-linalg"])
    assert "do not broadcast" in str(g.module)


def test_integer_inputs_keep_their_signedness():
    """si64 and ui8 inputs are int64 and uint8 arrays for the caller (the lowered code
    sees signless integers)."""
    m = nn.Module()
    m.forward = lambda a, b: a * 2 + b.to(torch.int64)
    a = torch.tensor([1, -2, 3])
    b = torch.tensor([250, 1, 2], dtype=torch.uint8)
    f = strata.compile(m, example_args=(a, b), target="interpret")
    r = f(a, b)
    assert r.dtype == torch.int64
    assert r.tolist() == [252, -3, 8]
    with pytest.raises(InputError):
        f(a, b.to(torch.int8))


def test_training_mode_buffers_not_returned():
    """A training-mode batch norm updates its running statistics: the exported graph
    returns them as extra outputs, the compiled model only the module's output."""
    torch.manual_seed(0)
    m = nn.BatchNorm2d(3).train()
    x = torch.randn(2, 3, 4, 4)
    f = strata.compile(m, example_args=(x,), target="interpret")
    out = f(x)
    assert isinstance(out, torch.Tensor)   # the module's one output, no buffer
    torch.testing.assert_close(out, m(x).detach(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("given", ["module", "program"])
def test_training_mode_buffers_update_as_eager(given, target):
    """[Note: mutated inputs written back] (frontends/torch/importer.py): a training-mode
    batch norm's running statistics and num_batches_tracked, written in place by each
    call, update call after call as eager's do (they were compile-time constants, never
    written: the statistics stayed at their initial values)."""
    torch.manual_seed(0)
    m, ref = nn.BatchNorm1d(3).train(), nn.BatchNorm1d(3).train()
    x = torch.randn(8, 3)
    model = m if given == "module" else torch.export.export(m, (x,))
    f = strata.compile(model, example_args=(x,) if given == "module" else None,
                       target=target)
    for _ in range(3):
        x = torch.randn(8, 3) * 2 + 1
        torch.testing.assert_close(f(x), ref(x).detach(), rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(m.running_mean, ref.running_mean)
        torch.testing.assert_close(m.running_var, ref.running_var)
        assert m.num_batches_tracked.item() == ref.num_batches_tracked.item()
    # NumPy in, NumPy out (the buffers passed along are torch tensors: not the user's)
    x = torch.randn(8, 3)
    got = f(x.numpy())
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, ref(x).detach().numpy(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(m.running_mean, ref.running_mean)


class _DropoutAndStats(nn.Module):
    """Training-mode dropout beside a batch norm that updates its statistics."""

    def __init__(self):
        super().__init__()
        self.fc, self.bn, self.drop = nn.Linear(6, 32), nn.BatchNorm1d(32), nn.Dropout(0.3)

    def forward(self, x):
        return self.drop(self.bn(self.fc(x))) + torch.rand_like(x).sum(1, keepdim=True)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_random_ops_draw_as_eager_draws(target):
    """[Note: random draws in a compiled program] (frontends/torch/importer.py):
    training-mode dropout and rand_like under strata.compile (refused before: "dropout in
    training mode (random) is not lowered") draw from torch's generator as eager does:
    under one seed the outputs are eager's; the next call draws anew; with a dynamic dim
    each call draws the call's size; the batch norm's statistics update as eager's."""
    torch.manual_seed(0)
    m, ref = _DropoutAndStats().train(), _DropoutAndStats().train()
    ref.load_state_dict(m.state_dict())
    x = torch.randn(4, 6)
    f = strata.compile(m, example_args=(x,), target=target,
                       dynamic_shapes=({0: torch.export.Dim("n", min=2)},))
    for rows in (4, 9):
        x = torch.randn(rows, 6)
        torch.manual_seed(rows)
        got = f(x)
        torch.manual_seed(rows)
        torch.testing.assert_close(got, ref(x).detach(), rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(m.bn.running_mean, ref.bn.running_mean)
    assert not torch.equal(f(x), got)     # the next call draws other masks


def test_transformer_layer_in_train_mode_is_eagers_under_one_seed():
    """nn.TransformerEncoderLayer in train(): its four dropouts (attention weights, and
    three on activations, one of them of a transposed view: [Note: draws in the input's
    layout] in frontends/torch/training.py) draw eager's masks under one seed."""
    torch.manual_seed(0)
    m = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.2, batch_first=True).train()
    x = torch.randn(2, 5, 16)
    f = strata.compile(m, example_args=(x,), target="interpret")
    torch.manual_seed(3)
    got = f(x)
    torch.manual_seed(3)
    torch.testing.assert_close(got, m(x).detach(), rtol=1e-5, atol=1e-5)


def test_mutated_zero_d_input_is_written_back():
    """A 0-d input written in place keeps its shape when written back (the copy went
    through np.ascontiguousarray, which makes a 0-d array 1-d: torch refused the copy)."""
    class Counts(nn.Module):
        def forward(self, n, x):
            n.add_(1)
            return x * 2

    n, x = torch.tensor(3), torch.randn(2)
    f = strata.compile(Counts(), example_args=(torch.tensor(0), x), target="interpret")
    torch.testing.assert_close(f(n, x), x * 2)
    assert n.shape == () and n.item() == 4


class _Nested(nn.Module):
    """Outputs in a dict, a namedtuple and nested containers ([Note: the user's
    structure in and out] in strata/compiler.py); `kind` picks one."""
    Pair = __import__("collections").namedtuple("Pair", "total scaled")

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x, y):
        a, b = x + y, x * 2
        if self.kind == "dict":
            return {"sum": a, "twice": b}
        if self.kind == "namedtuple":
            return self.Pair(a, b)
        return a, (b, [x - y])           # nested


@pytest.mark.parametrize("kind", ["dict", "namedtuple", "nested"])
@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_outputs_keep_the_modules_structure(kind, target):
    from torch.utils._pytree import tree_flatten
    m = _Nested(kind)
    x, y = torch.randn(2, 3), torch.randn(2, 3)
    want = m(x, y)
    got = strata.compile(m, example_args=(x, y), target=target)(x, y)
    assert type(got) is type(want)
    got_leaves, got_spec = tree_flatten(got)
    want_leaves, want_spec = tree_flatten(want)
    assert got_spec == want_spec
    for g, w in zip(got_leaves, want_leaves, strict=True):
        torch.testing.assert_close(g, w)
    if kind == "dict":
        assert list(got) == ["sum", "twice"]


def test_model_output_comes_back_a_model_output():
    """An HF transformers ModelOutput (a dataclass whose None fields are left out) comes
    back as that class, its fields by name and by position, as eager gives it."""
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_outputs import BaseModelOutputWithPooling

    class Encoder(nn.Module):
        def forward(self, x):
            return BaseModelOutputWithPooling(last_hidden_state=x * 2,
                                              pooler_output=x.mean(1))
    x = torch.randn(2, 4, 3)
    got = strata.compile(Encoder(), example_args=(x,), target="interpret")(x)
    assert type(got) is BaseModelOutputWithPooling
    assert list(got.keys()) == ["last_hidden_state", "pooler_output"]
    assert got.hidden_states is None
    torch.testing.assert_close(got.last_hidden_state, x * 2)
    torch.testing.assert_close(got[1], x.mean(1))


def test_strata_run_prints_every_output_of_a_structured_program(tmp_path, capsys):
    """`strata run model.pt2` of a module returning a dict prints each of its outputs,
    named by its key."""
    from strata.tools.cli import main
    m = _Nested("dict")
    x = torch.randn(2, 3)
    path = tmp_path / "nested.pt2"
    torch.export.save(torch.export.export(m, (x, x)), str(path))
    np.save(tmp_path / "x.npy", x.numpy())
    assert main(["run", str(path), "--interpret", "--input", str(tmp_path / "x.npy"),
                 "--input", str(tmp_path / "x.npy")]) == 0
    printed = capsys.readouterr().out
    assert "sum: float32[2, 3]" in printed and "twice: float32[2, 3]" in printed


class _NoneAndScalars(nn.Module):
    """Outputs that are None and Python numbers ([Note: None and scalar results] in
    strata/compiler.py)."""

    def forward(self, x):
        return {"y": x * 2, "rows": x.shape[0], "scale": 1.5, "none": None}, (x + 1, None)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_none_and_scalar_outputs_come_back_as_eager_gives_them(target, tmp_path,
                                                               monkeypatch):
    """A None output (refused by the CPU target, failing inside the interpreter) comes
    back None, and Python numbers as Python numbers (they were 0-d tensors), on a
    compile and on a compiled-model cache hit; with a dynamic dim the int is the call's."""
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path))
    ep = torch.export.export(_NoneAndScalars(), (torch.randn(3, 2),),
                             dynamic_shapes=({0: torch.export.Dim("n")},))
    for hit in (False, True):
        f = strata.compile(ep, target=target, cache=True)
        assert f.from_cache is (hit and target == "cpu")   # the interpreter is not cached
        x = torch.randn(5, 2)
        (d, (z, none)) = f(x)
        torch.testing.assert_close(d["y"], x * 2)
        torch.testing.assert_close(z, x + 1)
        assert d["rows"] == 5 and type(d["rows"]) is int
        assert d["scale"] == 1.5 and type(d["scale"]) is float
        assert d["none"] is None and none is None
        assert f.output_names[:4] == ["0.y", "0.rows", "0.scale", "0.none"]


def test_strata_run_saves_no_file_for_a_none_output(tmp_path, capsys):
    from strata.tools.cli import main
    x = torch.randn(2, 2)
    path = tmp_path / "none.pt2"
    torch.export.save(torch.export.export(_NoneAndScalars(), (x,)), str(path))
    np.save(tmp_path / "x.npy", x.numpy())
    out = tmp_path / "out"
    assert main(["run", str(path), "--interpret", "--input", str(tmp_path / "x.npy"),
                 "--output-dir", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "0.none: none (not saved)" in printed
    assert sorted(p.name for p in out.iterdir()) == ["0.rows.npy", "0.scale.npy", "0.y.npy",
                                                     "result4.npy"]


def test_no_array_inputs_give_torch_tensors():
    """A program with no array input (none at all here; Dynamo's graph of constants
    before a graph break) returns torch tensors, as eager does, not NumPy arrays."""
    class Positions(nn.Module):
        def forward(self):
            return torch.arange(4)[:, None] - torch.arange(4)
    m = Positions()
    got = strata.compile(m, example_args=(), target="interpret")()
    assert isinstance(got, torch.Tensor)
    assert torch.equal(got, m())


def test_flat_outputs_come_back_as_the_module_returns_them():
    """A tensor comes back a tensor, a flat tuple of tensors a tuple, as eager gives them
    (not the list of outputs an ONNX model's compiled function returns)."""
    m = nn.Module()
    m.forward = lambda x: x + 1
    x = torch.randn(3)
    got = strata.compile(m, example_args=(x,), target="interpret")(x)
    assert isinstance(got, torch.Tensor)
    torch.testing.assert_close(got, x + 1)
    model = _model()
    got = strata.compile(model, example_args=(X, Y), target="interpret")(X, Y)
    want = model(X, Y)
    assert type(got) is type(want) and len(got) == len(want) == 2


class _Structured(nn.Module):
    """Inputs in a dict of a tensor and a list, and a (tensor, tuple) state, as an
    LSTM's (h, c) or a dict of features reach a module."""

    def forward(self, feats, state, scale=1.0):
        h, (c, d) = state
        return feats["a"] * scale + feats["b"][0] - feats["b"][1] * h, c @ d


def _structured_inputs():
    g = torch.Generator().manual_seed(3)
    r = lambda *s: torch.randn(*s, generator=g)  # noqa: E731
    return ({"a": r(2, 3), "b": [r(2, 3), r(2, 3)]}, (r(2, 3), (r(2, 2), r(2, 4))))


def test_structured_inputs_are_flattened_as_exported():
    # [Note: structured and constant torch inputs]: the compiled model is called as
    # the module is, with the pytree structure of the example inputs
    args = _structured_inputs()
    f = strata.compile(_Structured(), example_args=args, example_kwargs={"scale": 2.0},
                       target="interpret")
    want = _Structured()(*args, scale=2.0)
    got = f(*args, scale=2.0)
    for g_, w in zip(got, want):
        torch.testing.assert_close(g_, w)
    feats, state = args
    with pytest.raises(InputError, match="structure"):
        f({"a": feats["a"], "b": feats["b"][:1]}, state, scale=2.0)


@pytest.mark.parametrize("scale", [3.0, 3, True])
def test_specialized_python_scalar_refuses_another_value(scale):
    # torch.export bakes a Python number into the program: another value is an
    # InputError, not a result computed with the exported one
    args = _structured_inputs()
    f = strata.compile(_Structured(), example_args=args, example_kwargs={"scale": 2.0},
                       target="interpret")
    with pytest.raises(InputError, match=r"input #6 \('scale'\): the program was "
                                         r"exported with scale = 2.0, a constant"):
        f(*args, scale=scale)


def test_strata_run_takes_a_specialized_scalar_as_a_zero_d_npy(tmp_path, capsys):
    """`strata run model.pt2` gives a Python-number input as a 0-d .npy: one of the
    exported value runs (it was refused: "got array(3)"), another is refused."""
    from strata.tools.cli import main

    class Scaled(nn.Module):
        def forward(self, x, n: int, a: float):
            return x * n + a

    path = tmp_path / "scaled.pt2"
    torch.export.save(torch.export.export(Scaled(), (torch.randn(2), 3, 0.5)), str(path))
    for name, value in (("x", np.ones(2, np.float32)), ("n", np.array(3)),
                        ("n4", np.array(4)), ("a", np.array(0.5))):
        np.save(tmp_path / f"{name}.npy", value)

    def run(n):
        return main(["run", str(path), "--interpret", "--input", str(tmp_path / "x.npy"),
                     "--input", str(tmp_path / f"{n}.npy"), "--input",
                     str(tmp_path / "a.npy")])
    assert run("n") == 0
    assert "[3.5 3.5]" in capsys.readouterr().out
    assert run("n4") == 1
    assert "exported with n = 3, a constant of the program" in capsys.readouterr().err


def test_module_needs_example_inputs():
    with pytest.raises(StrataError, match="example inputs"):
        strata.compile(_model())


def test_export_failure_is_torch_message_prefixed():
    class Bad(nn.Module):
        def forward(self, x):
            if x.sum() > 0:               # data-dependent control flow: not exportable
                return x
            return -x
    with pytest.raises(StrataError) as e:
        strata.compile(Bad(), example_args=(X,))
    assert "torch.export.export" in str(e.value)


def test_torch_pipeline_leaves_out_onnx_passes():
    from strata.compiler import get_target
    from strata.frontends.torch import import_program
    module = import_program(torch.export.export(_model(), (X, Y)))
    names = target_pipeline(get_target("cpu"), module)
    assert names[:3] == ("torch-externalize-weights", "torch-fold-batch-norm",
                         "convert-torch-to-linalg")
    assert not any(n.startswith("onnx-") or n == "convert-onnx-to-linalg" for n in names)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_bfloat16_outputs_are_torch_tensors(target):
    """A bfloat16 output (an ml_dtypes array inside) comes back as a torch.bfloat16
    tensor, as float32 ones come back as torch tensors."""
    class ToBf16(nn.Module):
        def forward(self, x):
            return x.bfloat16() * 2, x + 1

    x = torch.randn(3, 4)
    a, b = strata.compile(ToBf16(), example_args=(x,), target=target)(x)
    assert isinstance(a, torch.Tensor) and a.dtype == torch.bfloat16
    torch.testing.assert_close(a, x.bfloat16() * 2)
    torch.testing.assert_close(b, x + 1)


class _FakeDeviceArray:
    """A cuda target's output as the runtime's DeviceArray presents it (DLPack device
    kDLCUDA, `__array__` downloads), for the conversion without a GPU."""
    def __init__(self, a):
        self.a = a
        self.downloads = 0

    def __dlpack_device__(self):
        return (2, 0)

    def __array__(self, dtype=None, copy=None):
        self.downloads += 1
        return self.a


def test_device_outputs_come_back_on_the_inputs_device():
    """torch tensors in, torch tensors out on the inputs' device ([Note: torch tensors
    in and out]): a cuda target's output for CPU inputs is downloaded into a CPU
    tensor (torch.compile's graph and the user's next op run on the CPU), never
    handed back as the runtime's own device array."""
    from strata.compiler import _to_torch
    out = _FakeDeviceArray(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = _to_torch(torch, out, torch.device("cpu"))
    assert isinstance(t, torch.Tensor) and t.device.type == "cpu" and out.downloads == 1
    torch.testing.assert_close(t, torch.arange(6.0).reshape(2, 3))
    # host outputs stay zero-copy; Python scalars pass through
    a = np.ones(4, np.float32)
    assert _to_torch(torch, a, torch.device("cpu")).data_ptr() == a.ctypes.data
    assert _to_torch(torch, 3, torch.device("cpu")) == 3
