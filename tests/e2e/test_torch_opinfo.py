"""CI gate for PyTorch conformance: PyTorch's OpInfo samples (float32) through
torch.export -> Strata, on the interpreter and on the CPU target, must fail exactly as
tests/e2e/torch_opinfo_xfail.txt says (see tests/e2e/torch_opinfo_runner.py).

CI runs a fixed shard — every CI_STRIDE-th op of the float32 op list, so it mixes all op
families — split into SHARDS tests so that pytest's progress moves; the runner
(`python tests/e2e/torch_opinfo_runner.py`) runs every op."""
from __future__ import annotations

import pytest

pytest.importorskip("torch")

import torch_opinfo_runner as runner  # noqa: E402

SHARDS = 3


def _check(results, listed, ran_ops):
    """The messages for results that differ from the expected-failure list `listed`
    (restricted to the ops `ran_ops`)."""
    expected = {n: d for n, d in listed.items() if " ".join(n.split(" ")[:2]) in ran_ops}
    failed = {runner.case_name(k, si, t): f"{s}: {d}" for k, si, t, s, d in results
              if t is not None and s != "pass"}
    passed = {runner.case_name(k, si, t) for k, si, t, s, _ in results
              if t is not None and s == "pass"}
    new = {n: d for n, d in failed.items() if n not in expected}
    fixed = sorted(n for n in expected if n in passed)
    gone = sorted(n for n in expected if n not in passed and n not in failed)
    msg = []
    if new:
        msg.append("new failures:\n" + "\n".join(f"  {n}: {d}" for n, d in sorted(new.items())))
    if fixed:
        msg.append("expected failures that pass now (remove them from the list):\n"
                   + "\n".join("  " + n for n in fixed))
    if gone:
        msg.append("listed as expected failures but not a counted sample (not exported, "
                   "or no such sample):\n" + "\n".join("  " + n for n in gone))
    return msg


@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda k: f"shard{k + 1}of{SHARDS}")
def test_torch_opinfo_conformance(shard):
    ops = runner.ci_ops()[shard::SHARDS]
    results = runner.run_all(ops=ops)
    ran = {runner.op_key(runner.load_ops()[i]) for i in ops}
    msg = _check(results, runner.read_xfail(), ran)
    for line in runner.totals(results)[:4]:
        print(line)
    assert not msg, "\n".join(msg)
    # A crash (a Python exception escaping Strata) or a signal is a bug even when listed.
    bad = [runner.case_name(k, si, t) + f": {s}: {d}" for k, si, t, s, d in results
           if s in ("crash", "signal")]
    assert not bad, "\n".join(bad)


def test_xfail_list_names_real_cases():
    """Every entry names an op of the float32 op list, a sample index the runner draws
    and a target, and says why it fails."""
    keys = {runner.op_key(op) for op in runner.load_ops()}
    bad = []
    for name, why in runner.read_xfail().items():
        parts = name.split(" ")
        if len(parts) != 4 or " ".join(parts[:2]) not in keys or \
                not parts[2].isdigit() or int(parts[2]) >= runner.SAMPLES_PER_OP or \
                parts[3] not in runner.TARGETS or not why:
            bad.append(f"{name} {why}")
    assert not bad, "malformed or stale entries:\n" + "\n".join(bad)


def test_gate_flags_new_failures_and_unexpected_passes():
    """The gate itself: a failure not listed and a listed failure that passes are both
    reported; a listed failure that still fails is not."""
    results = [("add -", 0, "cpu", "pass", ""), ("add -", 1, "cpu", "mismatch", "x"),
               ("add -", 2, "cpu", "compile", "y"), ("add -", 3, None, "export", "z")]
    listed = {"add - 0 cpu": "mismatch: old", "add - 2 cpu": "compile: y"}
    msg = "\n".join(_check(results, listed, {"add -"}))
    assert "new failures:\n  add - 1 cpu: mismatch: x" in msg
    assert "pass now" in msg and "add - 0 cpu" in msg
    assert "add - 2 cpu" not in msg
    listed["add - 3 cpu"] = "compile: gone"
    assert "not a counted sample" in "\n".join(_check(results, listed, {"add -"}))


def test_tolerance_reads_the_opinfo_overrides():
    """The loosest float32 toleranceOverride / precisionOverride of an OpInfo's
    decorators, whatever test they decorate; other dtypes ignored; never tighter than
    the default."""
    import types

    import torch
    from torch.testing._internal.common_device_type import (precisionOverride, tol,
                                                            toleranceOverride)
    from torch.testing._internal.opinfo.core import DecorateInfo

    def op(*decs):
        return types.SimpleNamespace(decorators=[DecorateInfo(d, "TestX", "test_y")
                                                 for d in decs])

    assert runner.tolerance(op()) == runner.DEFAULT_TOL
    assert runner.tolerance(op(toleranceOverride({torch.float32: tol(atol=1e-3, rtol=2e-4)}),
                               toleranceOverride({torch.float16: tol(atol=1.0, rtol=1.0)}))
                            ) == (2e-4, 1e-3)
    assert runner.tolerance(op(precisionOverride({torch.float32: 5e-4}),
                               toleranceOverride({torch.float32: tol(atol=1e-6, rtol=1e-3)}))
                            ) == (1e-3, 5e-4)


def test_wrap_makes_every_tensor_an_input():
    """Tensors in the input, the args, lists among them and the kwargs become the
    module's inputs, in order; other arguments are baked in; the module computes what
    the op does, and returns its tensor outputs as a tuple."""
    import types

    import torch
    from torch.testing._internal.opinfo.core import SampleInput

    a, b, c, w = (torch.randn(2, 3) for _ in range(4))
    fake = types.SimpleNamespace(op=lambda x, ts, dim, weight=None: (
        torch.cat([x, *ts], dim) * weight.sum(), dim))
    module, inputs = runner._wrap(fake, SampleInput(a, args=([b, c], 0),
                                                    kwargs={"weight": w}))
    assert len(inputs) == 4 and all(x is y for x, y in zip(inputs, (a, b, c, w)))
    (out,) = module(*inputs)
    torch.testing.assert_close(out, torch.cat([a, b, c], 0) * w.sum())


def test_totals_give_samples_and_pass_rate_per_target():
    """The closing figures: counted samples, and per target the samples passed of those
    run with the percentage; 'both targets' only when both ran (a --target run gives
    its one target's figure, not a 0% for the other)."""
    results = [("add -", 0, "interpret", "pass", ""), ("add -", 0, "cpu", "pass", ""),
               ("add -", 1, "interpret", "pass", ""), ("add -", 1, "cpu", "run", "x"),
               ("add -", 2, None, "export", "z")]
    lines = runner.totals(results)
    assert lines[0] == "ops 1, counted samples 2, not counted 1 (export 1)"
    assert lines[1:4] == ["interpret: passed 2/2 (100.0%)", "cpu: passed 1/2 (50.0%)",
                          "both targets: passed 1/2 (50.0%)"]
    only_cpu = runner.totals([r for r in results if r[2] != "interpret"])
    assert only_cpu[1] == "cpu: passed 1/2 (50.0%)"
    assert not any(ln.startswith(("interpret", "both")) for ln in only_cpu)


def test_read_logs_keep_each_ops_last_run(tmp_path):
    """Several --log files (the shards) read together: each file keeps its ops, and an
    op run again (later in a log, or in a later log) counts once, with its last run."""
    import json
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text(json.dumps([["add -", 0, "cpu", "run", "x"]]) + "\n"
                 + json.dumps([["mul -", 0, "cpu", "pass", ""]]) + "\n\n"
                 + json.dumps([["add -", 0, "cpu", "mismatch", "y"]]) + "\n")
    b.write_text(json.dumps([["sub -", 0, "cpu", "pass", ""]]) + "\n"
                 + json.dumps([["mul -", 0, "cpu", "run", "z"]]) + "\n")
    per_file = runner.read_logs([a, b])
    assert sorted(per_file[0]) == [("add -", 0, "cpu", "mismatch", "y")]
    assert sorted(per_file[1]) == [("mul -", 0, "cpu", "run", "z"),
                                   ("sub -", 0, "cpu", "pass", "")]


def test_timeouts_count_cpu_time_not_waiting(monkeypatch):
    """A case's time limit is CPU time (a loaded machine's waiting does not time a case
    out), with a wall-clock limit WALL_FACTOR times longer for a case that hangs."""
    import signal
    import time
    old = signal.signal(signal.SIGALRM, runner._alarm), \
        signal.signal(signal.SIGPROF, runner._alarm)
    try:
        runner._arm(1)
        time.sleep(0.3)  # waiting: no CPU time spent, under the wall-clock limit
        runner._arm(0)
        monkeypatch.setattr(runner, "WALL_FACTOR", 10 ** 4)  # a loaded machine's CPU share
        t0 = time.process_time()
        with pytest.raises(runner._Timeout):
            runner._arm(0.2)
            while time.process_time() - t0 < 30:
                pass
        assert time.process_time() - t0 >= 0.15
        monkeypatch.setattr(runner, "WALL_FACTOR", 10)
        with pytest.raises(runner._Timeout):
            runner._arm(0.02)  # 0.2 s of wall-clock time
            time.sleep(5)
    finally:
        runner._arm(0)
        signal.signal(signal.SIGALRM, old[0])
        signal.signal(signal.SIGPROF, old[1])


def test_resume_skips_the_ops_the_log_holds(tmp_path, capsys):
    """--resume with --log runs only the ops of the shard that the log does not hold
    yet (here: none), and the table still covers what the log holds."""
    import json
    log = tmp_path / "s.log"
    key = runner.op_key(runner.load_ops()[0])
    log.write_text(json.dumps([[key, 0, "interpret", "pass", ""],
                               [key, 0, "cpu", "pass", ""]]) + "\n")
    assert runner.main(["--shard", "0/100000", "--log", str(log), "--resume"]) == 0
    assert "ops 0, counted samples 0" in capsys.readouterr().out
    assert len(log.read_text().splitlines()) == 1
    assert runner.main(["--from-log", str(log)]) == 0
    assert "interpret: passed 1/1 (100.0%)" in capsys.readouterr().out


def test_noncore_ops_that_strata_lowers_are_counted():
    """A graph left with an ATen op outside the core opset counts when Strata lowers it
    (unfold, _fft_c2c: run_decompositions() leaves them), and is skipped as `noncore`
    when Strata has no lowering for it (special_bessel_j0)."""
    import torch

    class Unfold(torch.nn.Module):
        def forward(self, x):
            return x.unfold(0, 2, 1), torch.fft.ifft(torch.fft.fft(x)).real

    class Bessel(torch.nn.Module):
        def forward(self, x):
            return torch.special.bessel_j0(x)

    x = torch.randn(6)
    ep = torch.export.export(Unfold(), (x,)).run_decompositions()
    names = {runner.lowered_name(n.target) for n in ep.graph.nodes
             if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)}
    assert {"aten.unfold", "aten._fft_c2c"} <= names
    assert runner._graph_verdict(ep) is None
    ep = torch.export.export(Bessel(), (x,)).run_decompositions()
    assert runner._graph_verdict(ep) == ("noncore", "aten.special_bessel_j0.default")
