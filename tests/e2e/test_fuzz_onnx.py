"""A fixed-seed slice of the differential fuzzer (tools/fuzz_onnx.py) and checks of the
fuzzer itself: its models are valid and reproducible, and its harness reports a wrong
answer, a crash and a hang as such."""

import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fuzz_onnx as F  # noqa: E402

# The CI slice: 36 graphs of 2-8 ops, two at a time (~40 s on two slow cores).
SLICE = range(1000, 1036)


def test_fuzz_slice_has_no_finding():
    t0 = time.time()
    results = F.run_cases(SLICE, jobs=2, timeout=120)
    # crashes, hangs, tracebacks, wrong answers, and models the generator got wrong
    bad = [F._line(r) for r in results
           if r["category"] not in ("pass", "documented", "refusal")]
    assert not bad, "fuzz findings (reproduce: python tools/fuzz_onnx.py --seed S " \
        "--count 1):\n" + "\n".join(bad)
    # clean refusals (ops or forms Strata does not lower yet) stay a minority
    passed = sum(r["category"] == "pass" for r in results)
    assert passed >= 0.8 * len(SLICE), "only %d of %d cases ran through:\n%s" % (
        passed, len(SLICE), "\n".join(F._line(r) for r in results if r["category"] != "pass"))
    print(f"{len(SLICE)} cases in {time.time() - t0:.1f} s")


def test_generated_models_are_valid_and_reproducible():
    import onnxruntime as ort
    seen_dynamic = seen_int = 0
    for seed in range(60):
        m, feeds, g = F.generate(seed)
        m2, feeds2, _ = F.generate(seed)
        assert m.SerializeToString() == m2.SerializeToString()
        assert feeds.keys() == feeds2.keys()
        assert all(np.array_equal(feeds[k], feeds2[k]) for k in feeds)
        assert 2 <= len(g.ops_used) <= 8
        so = ort.SessionOptions()
        so.log_severity_level = 3
        outs = ort.InferenceSession(m.SerializeToString(), so,
                                    providers=["CPUExecutionProvider"]).run(None, feeds)
        for o, t in zip(outs, g.outputs):
            assert o.shape == t.shape, (seed, t.name)
        seen_dynamic += any(d.dim_param for i in m.graph.input
                            for d in i.type.tensor_type.shape.dim)
        seen_int += any(t.dtype in F.INTS for t in g.pool)
    assert seen_dynamic >= 10 and seen_int >= 10


def test_ops_restrict_the_draw():
    for seed in range(10):
        _, _, g = F.generate(seed, ops={"Add", "Transpose"})
        assert set(g.ops_used) <= {"Add", "Transpose"}


def test_compare_flags_wrong_answers():
    t = F.Tensor("y", "float32", (2, 3), -1, 1, False)
    ref = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    assert F.compare(ref, ref + 1e-7, t, False) is None
    assert "values" in F.compare(ref, ref + 1e-2, t, False) or \
        "differ" in F.compare(ref, ref + 1e-2, t, False)
    assert "shape" in F.compare(ref, ref.reshape(3, 2), t, False)
    assert "dtype" in F.compare(ref, ref.astype(np.float64), t, False)
    i = F.Tensor("i", "int64", (3,), 0, 5, True)
    assert F.compare(np.arange(3), np.arange(3), i, False) is None
    assert "differ" in F.compare(np.arange(3), np.array([0, 1, 3]), i, False)
    nan = np.array([np.nan, 1], np.float32)
    assert F.compare(nan, nan.copy(), t, False) is None
    assert F.compare(nan, np.array([0, 1], np.float32), t, False)


def _crash(*a, **k):
    os.kill(os.getpid(), signal.SIGSEGV)


def _hang(seed, ops, nodes, targets, report):
    report({"stage": "cpu"})
    time.sleep(60)


def _wrong(seed, ops, nodes, targets, report):
    raise AssertionError("a bug in the harness's child")


@pytest.mark.parametrize("fake, category, stage", [(_crash, "crash", "generate"),
                                                    (_hang, "hang", "cpu"),
                                                    (_wrong, "crash", "generate")])
def test_harness_reports_crashes_and_hangs(monkeypatch, fake, category, stage):
    # The children are forked: they run the patched run_case.
    monkeypatch.setattr(F, "run_case", fake)
    t0 = time.time()
    r, = F.run_cases([7], timeout=3)
    assert time.time() - t0 < 30
    assert r["category"] == category
    assert stage in r["results"] and r["results"][stage][0] == category


def test_findings_are_saved(tmp_path):
    r = {"seed": 3, "category": "mismatch", "ops": ["Add"],
         "results": {"cpu": ("mismatch", "output #0: 1/6 elements differ")}}
    d = Path(F.save_finding(r, str(tmp_path)))
    assert (d / "model.onnx").exists() and (d / "inputs.npz").exists()
    assert "mismatch" in (d / "finding.txt").read_text()
