"""strata.compile on PyTorch programs as a user calls it, and as a hostile user does:
outputs in the model's own structure, nested and keyword inputs, views of every layout
read correctly, dynamic dims held to their Dim's range, and bad inputs, unexportable
modules and ops without a lowering reported with a located, named message
([Note: the user's structure in and out], [Note: input sizes checked against the symbols] (frontends/torch/shape_guard.py) and
[Note: torch tensors in and out] in strata/compiler.py)."""
from __future__ import annotations

import dataclasses
import inspect
import os
import re
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
Dim = torch.export.Dim

import strata  # noqa: E402
from strata.compiler import InputError  # noqa: E402
from strata.errors import StrataError  # noqa: E402
from strata.frontends.torch import TorchImportError  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))


@dataclasses.dataclass
class Pair:
    first: torch.Tensor
    second: torch.Tensor


torch.export.register_dataclass(Pair)


class Nested(nn.Module):
    """A dict holding a tuple holding a list, from a list input and a keyword input."""

    def forward(self, xs, *, scale):
        a, b = xs
        return {"sum": a + b, "parts": (a * scale, [b - 1, a.sum()])}


class Dataclass(nn.Module):
    def forward(self, x):
        return Pair(x + 1, x * 2)


class Single(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


A, B = torch.randn(2, 3), torch.randn(2, 3)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_outputs_in_the_models_structure(target):
    """A dict of a tuple of a list, a dataclass, a single tensor: as the model returns
    them (a list of flat outputs before), nested list inputs and keyword inputs taken."""
    m = Nested()
    f = strata.compile(m, example_args=([A, B],), example_kwargs={"scale": B},
                       target=target, cache=False)
    got, want = f([A, B], scale=B), m([A, B], scale=B)
    assert type(got) is dict and list(got) == ["sum", "parts"]
    assert type(got["parts"]) is tuple and type(got["parts"][1]) is list
    torch.testing.assert_close(got, want)
    assert f.output_names == ["sum", "parts.0", "parts.1.0", "parts.1.1"]
    d = strata.compile(Dataclass(), example_args=(A,), target=target, cache=False)(A)
    assert isinstance(d, Pair)
    torch.testing.assert_close(d.second, A * 2)
    s = Single().eval()
    out = strata.compile(s, example_args=(A[:, :2].repeat(1, 2),), target=target,
                         cache=False)(torch.ones(2, 4))
    assert isinstance(out, torch.Tensor) and out.shape == (2, 3)
    torch.testing.assert_close(out, s(torch.ones(2, 4)).detach())
    # NumPy in, NumPy out, in the same structure
    npd = f([A.numpy(), B.numpy()], scale=B.numpy())
    assert isinstance(npd["sum"], np.ndarray)
    np.testing.assert_allclose(npd["sum"], (A + B).numpy())


def _views():
    """Inputs of shape (2, 4, 3, 3) laid out every way a torch tensor can be."""
    base = torch.randn(6, 4, 3, 3)
    return {"contiguous": base[:2].clone(),
            "offset storage": base[3:5],
            "channels_last": base[:2].contiguous(memory_format=torch.channels_last),
            "permuted": base[:2].permute(0, 1, 3, 2),
            "stepped": torch.randn(4, 4, 3, 6)[::2, :, :, ::2],
            "expanded (stride 0)": torch.randn(1, 4, 1, 3).expand(2, 4, 3, 3),
            "requires grad": base[:2].clone().requires_grad_(),
            "flipped copy": base[:2].flip(-1)}


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 5, 3, padding=1)

    def forward(self, x):
        return self.conv(x).relu() + x.sum(1, keepdim=True)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_every_layout_read_correctly(target):
    torch.manual_seed(0)
    m = Conv().eval()
    f = strata.compile(m, example_args=(torch.randn(2, 4, 3, 3),), target=target,
                       cache=False)
    for name, x in _views().items():
        got = f(x)
        assert not got.requires_grad, name
        with torch.no_grad():
            torch.testing.assert_close(got, m(x), rtol=1e-4, atol=1e-5, msg=name)


def test_dynamic_dims_held_to_their_range():
    f = strata.compile(Single().eval(), example_args=(torch.randn(4, 4),),
                       dynamic_shapes=({0: Dim("batch", min=3, max=8)},),
                       target="interpret", cache=False)
    assert f(torch.randn(8, 4)).shape == (8, 3)
    for n in (2, 9, 0):
        # (the user's Dim named: [Note: Dim names] in frontends/torch/shape_guard.py)
        with pytest.raises(InputError, match=rf"input #0 \('x'\) dim 0 gives the size Dim "
                                             rf"'batch' \(s\d+\) = {n}, but .* in \[3, 8\]"):
            f(torch.randn(n, 4))
    with pytest.raises(InputError, match=r"'x'.*\(\?, 4\)"):
        f(torch.randn(5, 5))            # the static dim


class Doubled(nn.Module):
    def forward(self, x, y, z):
        return torch.cat([x, x]) + y, z[1:] * 2


def test_derived_dims_follow_their_symbols():
    """y's dim is 2*s and z's s+1 for x's s: another size is an InputError naming the
    input and the expression (it failed inside the program, naming an op)."""
    s = Dim("s", min=1, max=10)
    f = strata.compile(Doubled(), example_args=(torch.randn(3), torch.randn(6),
                                                torch.randn(4)),
                       dynamic_shapes=({0: s}, {0: 2 * s}, {0: s + 1}),
                       target="interpret", cache=False)
    a, b = f(torch.randn(4), torch.randn(8), torch.randn(5))
    assert a.shape == (8,) and b.shape == (4,)
    with pytest.raises(InputError, match=r"input #1 \('y'\) dim 0 is 7, but the program's "
                                         r"shapes make it \w+ \* 2 = 8"):
        f(torch.randn(4), torch.randn(7), torch.randn(5))
    with pytest.raises(InputError, match=r"input #2 \('z'\) dim 0 is 4, but the program's "
                                         r"shapes make it \w+ \+ 1 = 5"):
        f(torch.randn(4), torch.randn(8), torch.randn(4))


@pytest.mark.parametrize("bad, words", [
    ((torch.randn(2, 4, dtype=torch.float64),), "'x'.*dtype float32"),
    ((torch.randn(2, 4).to(torch.int64),), "'x'.*dtype float32"),
    ((torch.randn(4),), "'x'.*shape"),
    ((torch.randn(1, 2, 4),), "'x'.*shape"),
    ((torch.randn(3, 4),), r"'x'.*\(2, 4\)"),
    ((torch.randn(2, 4, device="meta"),), "'x'.*meta"),
    ((torch.randn(2, 4), torch.randn(2, 4)), "takes 1 input"),
    ((), "missing: x"),
])
def test_bad_inputs_name_the_input(bad, words):
    f = strata.compile(Single().eval(), example_args=(torch.randn(2, 4),),
                       target="interpret", cache=False)
    with pytest.raises(InputError, match=words):
        f(*bad)


def test_unexportable_module_gives_torchs_message_prefixed():
    class DataDependent(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x

    with pytest.raises(TorchImportError) as e:
        strata.compile(DataDependent(), example_args=(torch.randn(3),))
    msg = str(e.value)
    assert msg.startswith("exporting DataDependent with torch.export.export failed: ")
    assert "data-dependent" in msg            # torch's own words


def test_op_without_lowering_names_op_node_and_line():
    class Bessel(nn.Module):
        def forward(self, x):
            y = x * 2
            return torch.special.bessel_j0(y)   # the line the error must point at

    line = inspect.getsourcelines(Bessel.forward)[1] + 2
    with pytest.raises(StrataError) as e:
        strata.compile(Bessel(), example_args=(torch.randn(3),), cache=False)
    msg = str(e.value)
    assert f"{os.path.basename(__file__)}:{line}:" in msg
    assert "'aten.special_bessel_j0'" in msg and "FX node 'special_bessel_j0'" in msg
    assert "Traceback" not in msg


def test_cli_runs_a_pt2_file_with_named_outputs(tmp_path):
    """`strata run model.pt2 --input ...` prints the flat outputs, named by their keys;
    `strata compile model.pt2 -o model.so` writes the library; a dim out of range is
    one error line."""
    class Named(nn.Module):
        def forward(self, x):
            return {"double": x * 2, "rest": (x - 1,)}

    ep = torch.export.export(Named(), (torch.randn(3, 2),),
                             dynamic_shapes=({0: Dim("n", max=8)},))
    pt2 = tmp_path / "m.pt2"
    torch.export.save(ep, str(pt2))
    np.save(tmp_path / "x.npy", np.ones((5, 2), np.float32))
    np.save(tmp_path / "big.npy", np.ones((9, 2), np.float32))
    env = dict(os.environ, PYTHONPATH=REPO, STRATA_CACHE="0")

    def cli(*a):
        return subprocess.run([sys.executable, "-m", "strata.tools.cli", *a], env=env,
                              capture_output=True, text=True, timeout=600, cwd=tmp_path)
    r = cli("run", "--interpret", str(pt2), "--input", "x.npy", "--output-dir", "out")
    assert r.returncode == 0, r.stderr
    assert "double: float32[5, 2]" in r.stdout and "rest.0: float32[5, 2]" in r.stdout
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "double.npy"),
                                  np.full((5, 2), 2, np.float32))
    r = cli("run", "--interpret", str(pt2), "--input", "big.npy")
    assert r.returncode == 1
    assert re.search(r"dim 0 gives the size \w+ = 9, but the program was exported for "
                     r"\w+ in \[0, 8\]", r.stderr), r.stderr
    assert "Traceback" not in r.stderr


def test_specialized_scalar_inputs_hold_their_exported_value():
    """torch.export makes int / float / str inputs constants of the program: another
    value is an InputError (it was silently computed with the exported one)."""
    class Scaled(nn.Module):
        def forward(self, x, n: int, f: float, mode: str):
            return x * f + n if mode == "affine" else x

    x = torch.randn(3)
    f = strata.compile(Scaled(), example_args=(x, 3, 0.5, "affine"), target="interpret",
                       cache=False)
    torch.testing.assert_close(f(x, 3, 0.5, "affine"), x * 0.5 + 3)
    torch.testing.assert_close(f(x, n=3, f=0.5, mode="affine"), x * 0.5 + 3)
    for bad, words in (((x, 4, 0.5, "affine"), r"input #1 \('n'\).*n = 3.*got 4"),
                       ((x, 3, 0.25, "affine"), r"'f'.*f = 0.5.*got 0.25"),
                       ((x, 3, 0.5, "plain"), r"'mode'.*'affine'.*got 'plain'"),
                       ((x, True, 0.5, "affine"), r"'n'.*got True")):
        with pytest.raises(InputError, match=words):
            f(*bad)
