"""bench/models.py --target cuda without a GPU (issue 19 item 6 is measured on a device
by tools/gpu_check.sh; this keeps that one run from failing on the bench itself): the
argument parsing, the models built and exported, compiled ahead of time for the cuda
target (`--dry-run`), and the BERT-base module of the bench at a small size."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

# (loaded under a name of its own: tests/e2e/models.py is the `models` other tests import)
_spec = importlib.util.spec_from_file_location(
    "strata_bench_models", Path(__file__).resolve().parents[2] / "bench" / "models.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_dry_run_compiles_ahead(capsys):
    rows = bench.main(["--target", "cuda", "--dry-run", "--models", "mlp1",
                       "--cuda-graphs"])
    # both precisions by default: f16 through the cuda target's precision option
    assert [(r["model"], r["prec"], r["host"]) for r in rows] == [("mlp1", "f32", "native"),
                                                                 ("mlp1", "f16", "native")]
    assert all(r["kernels"] >= 3 for r in rows)
    assert "dry run: 2 model/precision pairs" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--target", "cuda", "--dry-run", "--precision", "f8"])


def test_bert_module_exports_and_compiles(tmp_path):
    from strata.backends.cuda.target import compile_ahead
    torch.manual_seed(0)
    m = bench.bert_base_module(torch, layers=1, hidden=64, heads=4, ffn=128, vocab=100,
                               max_len=32)
    ids = np.arange(16, dtype=np.int64).reshape(2, 8) % 100
    path = tmp_path / "bert.onnx"
    bench.export(torch, m, {"ids": ids}, {"ids": {0: "batch"}}, str(path))
    program = compile_ahead(str(path))
    assert program.host["main"].fallback is None and len(program.kernels) > 5
    assert bench._batched("resnet50-b32") == ("resnet50", 32)
    assert bench._batched("bert") == ("bert", 1)
