"""`strata import model.pt2` (strata/frontends/torch/command.py, wired in strata/tools/cli.py)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from strata.tools.cli import main  # noqa: E402


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)

    def forward(self, x):
        return torch.relu(torch.nn.functional.layer_norm(self.fc(x), (2,)))


@pytest.fixture(scope="module")
def pt2(tmp_path_factory):
    path = tmp_path_factory.mktemp("pt2") / "small.pt2"
    torch.export.save(torch.export.export(Small(), (torch.randn(4, 3),)), path)
    return path


def test_prints_the_module(pt2, capsys):
    assert main(["import", str(pt2)]) == 0
    out = capsys.readouterr().out
    assert "func.func @main(%arg0: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,2],f32>" \
        in out
    assert "torch.aten.native_layer_norm" in out and "torch.aten.relu" in out
    assert "dialect_resources" in out and "loc(" not in out


def test_options(pt2, tmp_path, capsys):
    out_file = tmp_path / "small.mlir"
    assert main(["import", str(pt2), "--no-decompose", "-g", "-o", str(out_file)]) == 0
    text = out_file.read_text()
    assert "torch.aten.layer_norm" in text and "native_layer_norm" not in text
    assert 'loc("relu"(' in text
    assert main(["import", str(pt2), "--inline-constants"]) == 1
    assert capsys.readouterr().err.startswith("strata: error: --inline-constants is for "
                                              "ONNX models")


def test_bad_files(tmp_path, capsys):
    bad = tmp_path / "bad.pt2"
    bad.write_bytes(b"\x00\x01")
    assert main(["import", str(bad)]) == 1
    assert capsys.readouterr().err == (f"strata: error: {bad}: not a program saved by "
                                       "torch.export.save (not a zip archive)\n")
    assert main(["import", str(tmp_path / "none.pt2")]) == 1
    assert "cannot read the program: No such file or directory" in capsys.readouterr().err
