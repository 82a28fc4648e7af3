"""torch-externalize-weights (strata/frontends/torch/externalize.py) on imported programs;
tests/lit/passes/torch-externalize-weights/ has its exact output on hand-written IR."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from strata.frontends.torch import import_program  # noqa: E402
from strata.ir.dense import BLOBS  # noqa: E402
from strata.passes.pipeline import parse_pipeline  # noqa: E402
from strata.syntax.printer import print_op  # noqa: E402

nn = torch.nn
LIT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "lit", "passes",
                   "torch-externalize-weights", "basic.mlir")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.register_buffer("order", torch.tensor([2, 0, 1]))
        self.register_buffer("keep", torch.tensor([True, False, True]))

    def forward(self, x):
        y = self.fc(x).index_select(1, self.order) + self.fc.bias
        return torch.where(self.keep, y, 0.0)


def _run(module):
    parse_pipeline("builtin.module(torch-externalize-weights)").run(module)
    module.verify()
    return module


def test_weights_become_globals():
    net = Net()
    m = _run(import_program(torch.export.export(net, (torch.randn(2, 4),))))
    ops = list(m.walk())
    globals_ = {op.properties["sym_name"].value: op for op in ops
                if op.name == "ml_program.global"}
    # each global is named after its blob: the state's name (`_N` when this process
    # already has a blob of that name)
    for name, g in globals_.items():
        assert g.properties["value"].handle == name
    base = {re.sub(r"_\d+$", "", name): name for name in globals_}
    assert sorted(base) == ["fc.bias", "fc.weight", "keep", "order"]
    assert not [op for op in ops if op.name == "torch.vtensor.literal"
                and "dense_resource" in str(op.properties["value"])]
    # signless builtin tensors, the blob's bytes unchanged
    assert str(globals_[base["order"]].properties["type"].value) == "tensor<3xi64>"
    assert str(globals_[base["keep"]].properties["type"].value) == "tensor<3xi8>"
    value = globals_[base["fc.weight"]].properties["value"]
    assert BLOBS[value.handle] == net.fc.weight.detach().numpy().tobytes()
    # two uses of fc.bias: two loads of one global, each cast to the vtensor
    loads = [op for op in ops if op.name == "ml_program.global_load_const"]
    assert sorted(str(op.properties["global"]) for op in loads) == sorted(
        f"@{base[n]}" for n in ("fc.bias", "fc.bias", "fc.weight", "keep", "order"))
    for load in loads:
        (use,) = list(load.results[0].uses)
        assert use.owner.name == "torch_c.from_builtin_tensor"


def test_nothing_to_do_leaves_the_module_alone():
    class NoWeights(nn.Module):
        def forward(self, x):
            return x * 2

    m = import_program(torch.export.export(NoWeights(), (torch.randn(3),)))
    before = print_op(m)
    assert print_op(_run(m)) == before


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt not on PATH")
def test_upstream_reads_the_result():
    m = _run(import_program(torch.export.export(Net(), (torch.randn(2, 4),))))
    out = subprocess.run(["iree-opt", "-"], input=print_op(m), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ours = subprocess.run([sys.executable, "-m", "strata.tools.opt", "--split-input-file",
                           "--torch-externalize-weights", LIT], capture_output=True, text=True)
    assert ours.returncode == 0, ours.stderr
    lit = subprocess.run(["iree-opt", "--split-input-file", "-"], input=ours.stdout,
                         capture_output=True, text=True)
    assert lit.returncode == 0, lit.stderr
    assert lit.stdout.count("ml_program.global private") == 5


class _ComplexBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        angles = torch.arange(6, dtype=torch.float32).reshape(3, 2)
        self.register_buffer("freqs", torch.polar(torch.ones(3, 2), angles))

    def forward(self, x):
        return torch.view_as_real(torch.view_as_complex(x) * self.freqs)


def test_complex_weights_become_globals_of_their_pairs():
    """A complex buffer's global holds its real pairs (the same bytes), loaded as the
    real tensor and viewed as complex ([Note: complex as real pairs])."""
    net = _ComplexBuffer()
    m = _run(import_program(torch.export.export(net, (torch.randn(3, 2, 2),))))
    text = print_op(m)
    g = [op for op in m.walk() if op.name == "ml_program.global"]
    assert len(g) == 1 and str(g[0].properties["type"].value) == "tensor<3x2x2xf32>"
    assert re.search(r"torch_c.from_builtin_tensor %\S+ : tensor<3x2x2xf32> -> "
                     r"!torch.vtensor<\[3,2,2\],f32>", text)
    assert re.search(r"torch.aten.view_as_complex %\S+ : !torch.vtensor<\[3,2,2\],f32> -> "
                     r"!torch.vtensor<\[3,2\],complex<f32>>", text)
    pairs = g[0].properties["value"].array()
    np.testing.assert_array_equal(pairs, torch.view_as_real(net.freqs).numpy())
