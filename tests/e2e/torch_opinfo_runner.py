"""PyTorch's OpInfo database through Strata: torch.export -> import -> lowering -> run.

For every op of `torch.testing._internal.common_methods_invocations.op_db` that supports
float32 on the CPU, the first SAMPLES_PER_OP of `op.sample_inputs("cpu", torch.float32)`
(drawn under a fixed seed) become cases. A case wraps the op call in a module — the
sample's tensors (the input, and tensors among the args and kwargs, lists included) are
the module's inputs, everything else is baked in — exports it with torch.export,
decomposes it to the core ATen opset (`run_decompositions()`), compiles the one
ExportedProgram with `strata.compile(ep, target="interpret")` and with the default CPU
target, runs both on the sample and compares with eager at the OpInfo's float32
tolerances (its `toleranceOverride` decorators, the loosest one; 1e-5 rel / 1e-5 abs
where it gives none).

A sample is counted only when the op "exports to the core ATen opset": torch.export
succeeds on it, and the decomposed graph holds core ATen ops only, or ATen ops outside
the core opset that Strata lowers all the same (what `run_decompositions()` leaves in
practice: `unfold`, `as_strided_scatter`, `adaptive_max_pool2d`, `_fft_c2c`, `polar`,
`view_as_complex`...; counting them only by the core tag left samples Strata compiles
out of the figures). The skipped ones are reported by reason: `export` torch cannot
export the call, `noncore` an ATen op outside the core opset that Strata has no
lowering for is left, `random` the graph draws random numbers (no eager reference to
compare with), `eager` the op itself fails on the sample, `output` it returns no tensor,
or uninitialized memory: the empty family).

    python tests/e2e/torch_opinfo_runner.py                  # all ops: the per-op table
    python tests/e2e/torch_opinfo_runner.py -k 'conv|norm' -v
    python tests/e2e/torch_opinfo_runner.py --shard ci       # the CI shard only
    python tests/e2e/torch_opinfo_runner.py --write-xfail    # rewrite the xfail list
    python tests/e2e/torch_opinfo_runner.py --shard 3/5 --log /tmp/s3.log   # ops 3, 8, ...
    python tests/e2e/torch_opinfo_runner.py --shard 3/5 --log /tmp/s3.log --resume  # go on
    python tests/e2e/torch_opinfo_runner.py --from-log /tmp/s*.log   # shards' table, totals

The totals give, per target, the counted samples that pass (`cpu: passed 520/540
(96.3%)`) and those passing on both targets (the issue's figure); from several logs,
each log's figures too.

Expected failures are in torch_opinfo_xfail.txt, one case and target per line:
`op_name variant sample_index target status: detail` (variant `-` when the OpInfo has
none). tests/e2e/test_torch_opinfo.py runs the CI shard (every CI_STRIDE-th op) and fails
on a new failure and on an expected failure that passes. Cases run in forked worker
processes, one op at a time; a worker killed by a signal fails the case it was running.
A case times out after TIMEOUT_S seconds of CPU time (the worker's, per target), or ten
times as long on the clock: a loaded machine slows a case down, it does not fail it.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
XFAIL_FILE = HERE / "torch_opinfo_xfail.txt"
SAMPLES_PER_OP = 4
CI_STRIDE = 30          # the CI shard: ops 0, 30, 60, ... of the float32 op list
TIMEOUT_S = 90          # CPU seconds per sample: export, then each target
WALL_FACTOR = 10        # and TIMEOUT_S * WALL_FACTOR seconds of wall-clock time
TARGETS = ("interpret", "cpu")
DEFAULT_TOL = (1e-5, 1e-5)  # (rtol, atol)
SKIP_REASONS = ("export", "noncore", "random", "eager", "output")

_OPS = None  # loaded once in the parent; forked workers inherit it


def load_ops():
    """The OpInfos that support float32 on the CPU, in op_db's order."""
    global _OPS
    if _OPS is None:
        import torch
        torch.set_num_threads(1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from torch.testing._internal.common_methods_invocations import op_db
        _OPS = [op for op in op_db if torch.float32 in op.supported_dtypes("cpu")]
    return _OPS


def op_key(op) -> str:
    return f"{op.name} {op.variant_test_name or '-'}"


def shard_ops(offset: int, stride: int) -> list[int]:
    """Ops offset, offset + stride, ... of the float32 op list."""
    return list(range(offset, len(load_ops()), stride))


def ci_ops() -> list[int]:
    return shard_ops(0, CI_STRIDE)


def tolerance(op):
    """(rtol, atol) for float32 from the OpInfo's toleranceOverride and
    precisionOverride decorators (the loosest of them, whatever test they decorate),
    never tighter than DEFAULT_TOL."""
    import torch
    rtol, atol = DEFAULT_TOL
    for info in getattr(op, "decorators", ()) or ():
        for dec in getattr(info, "decorators", ()) or ():
            table = getattr(dec, "d", None)
            if isinstance(table, dict) and torch.float32 in table:
                t = table[torch.float32]
                if isinstance(t, (int, float)):  # precisionOverride: an atol
                    atol = max(atol, float(t))
                else:  # toleranceOverride: tol(atol, rtol)
                    rtol, atol = max(rtol, t.rtol), max(atol, t.atol)
    return rtol, atol


def samples(op):
    """The first SAMPLES_PER_OP float32 samples of `op`, drawn under a fixed seed."""
    import itertools
    import torch
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(itertools.islice(op.sample_inputs("cpu", torch.float32), SAMPLES_PER_OP))


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _arm(seconds: float) -> None:
    """Raise _Timeout after `seconds` of the worker's CPU time (all its threads), or
    WALL_FACTOR times as long on the clock (a case that waits without computing); 0
    disarms both. CPU time, not wall time, decides: on a loaded machine a case gets a
    fraction of a core, and a wall-clock limit failed cases that merely waited."""
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)


_LOCATION = re.compile(r"(?:\S+:\d+:\d+: )?(?:error|note|warning):(?: |$)")
_PATH = re.compile(r"(?<!\S)/\S+/\S*")


def _one_line(msg, limit: int = 200) -> str:
    """`msg` on one line, without the diagnostics' locations (this file's path, where
    the wrapped op call is: the same for every case, and different on every machine)."""
    msg = str(msg).split(" while running pass ")[0]
    msg = " ".join(_PATH.sub("", _LOCATION.sub("", msg)).split())
    return msg if len(msg) <= limit else msg[:limit - 3] + "..."


def _wrap(op, sample):
    """(module, tensor inputs): a module calling `op` on `sample` with the sample's
    tensors as its inputs and every other argument baked in."""
    import torch
    from torch.utils._pytree import tree_flatten, tree_unflatten
    leaves, spec = tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
    where = [i for i, x in enumerate(leaves) if isinstance(x, torch.Tensor)]
    fn = op.op

    class OpCall(torch.nn.Module):
        def forward(self, *tensors):
            vals = list(leaves)
            for i, t in zip(where, tensors):
                vals[i] = t
            inp, args, kwargs = tree_unflatten(vals, spec)
            out, _ = tree_flatten(fn(inp, *args, **kwargs))
            return tuple(o for o in out if isinstance(o, torch.Tensor))

    return OpCall(), tuple(leaves[i] for i in where)


def lowered_name(t) -> str:
    """The name convert-torch-to-linalg registers OpOverload `t`'s lowering under
    (torch-mlir's: `aten.unfold` for aten::unfold.default, `aten.add.Tensor`)."""
    name = t._schema.name.replace("::", ".")
    return name if t._overloadname == "default" else f"{name}.{t._overloadname}"


def _lowered_names() -> set:
    from strata.conversion.torch_to_linalg import LOWERINGS, _load_families
    from strata.conversion.torch_to_linalg.complex import COMPLEX_LOWERINGS
    _load_families()
    return set(LOWERINGS) | set(COMPLEX_LOWERINGS)


def _graph_verdict(ep):
    """None when every op of `ep` is in the core ATen opset, is one Strata lowers all
    the same, or is a symbolic-size helper; else (reason, the offending op)."""
    import operator
    import torch
    lowered = _lowered_names()
    for node in ep.graph.nodes:
        if node.op != "call_function":
            continue
        t = node.target
        if not isinstance(t, torch._ops.OpOverload):
            if t is operator.getitem or getattr(t, "__module__", "") in ("_operator",
                                                                         "operator"):
                continue
            return "noncore", str(t)
        if torch.Tag.nondeterministic_seeded in t.tags:
            return "random", str(t)
        if torch.Tag.core in t.tags or t.name().startswith(("aten::sym_", "aten::_assert")) \
                or lowered_name(t) in lowered:
            continue
        return "noncore", str(t)
    return None


def _compare(expected, got, rtol, atol):
    """None when equal within tolerance, else a short reason."""
    import torch
    if not isinstance(got, torch.Tensor):
        got = torch.as_tensor(np.asarray(got))
    if tuple(got.shape) != tuple(expected.shape):
        return f"shape {tuple(got.shape)} != expected {tuple(expected.shape)}"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype} != expected {expected.dtype}"
    if expected.dtype in (torch.bfloat16, torch.float16) or expected.dtype.itemsize == 1 \
            and expected.dtype.is_floating_point:  # NumPy has no bfloat16 / float8
        expected, got = expected.float(), got.float()
    if expected.dtype == torch.complex32:   # nor complex32
        expected, got = expected.to(torch.complex64), got.to(torch.complex64)
    # eager's lazily conjugated or negated views (ihfft's result) as their values
    expected, got = expected.resolve_conj().resolve_neg(), got.resolve_conj().resolve_neg()
    e = expected.detach().cpu().numpy()
    g = got.detach().cpu().numpy()
    if e.dtype.kind in "biu":
        return None if np.array_equal(e, g) else "values differ"
    try:
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    except AssertionError as ex:
        lines = [ln for ln in str(ex).splitlines() if "Max abs" in ln or "Mismatched" in ln]
        return "values differ: " + "; ".join(x.strip() for x in lines)
    return None


def _run_target(ep, inputs, expected, target, tol):
    """(status, detail) of `ep` compiled for `target` and run on `inputs`."""
    import strata
    stage = "compile"
    _arm(TIMEOUT_S)  # each target has its own time
    try:
        fn = strata.compile(ep, target=target, progress=False)
        stage = "run"
        got = fn(*[t.clone() for t in inputs])
        if not isinstance(got, (list, tuple)):
            got = [got]
        if len(got) != len(expected):
            return "mismatch", f"{len(got)} outputs, expected {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            r = _compare(e, g, *tol)
            if r:
                return "mismatch", f"output #{i}: {r}"
        return "pass", ""
    except _Timeout:
        return "timeout", f"over {TIMEOUT_S} CPU s in {stage}"
    except strata.StrataError as e:
        if "_Timeout" in str(e):  # the alarm went off inside Strata, which wrapped it
            return "timeout", f"over {TIMEOUT_S} CPU s in {stage}"
        diag = getattr(e, "diag", None)
        notes = [n.message for n in getattr(diag, "notes", ()) or ()
                 if "while running pass" not in n.message]
        return stage, _one_line(str(e) + ("; " + notes[0] if notes else ""))
    except Exception as e:  # noqa: BLE001 - a bug in Strata: reported, not hidden
        return "crash", _one_line(f"{stage}: {type(e).__name__}: {e}")


def run_op(index: int, targets=TARGETS, report=None):
    """The results of op `index`'s samples: (op key, sample index, target or None,
    status, detail); target None for a sample not counted (status: a SKIP_REASONS)."""
    op = load_ops()[index]
    key, tol = op_key(op), tolerance(op)
    out = []
    try:
        cases = samples(op)
    except Exception as e:  # noqa: BLE001 - OpInfo's own sample generator failed
        return [(key, -1, None, "eager", _one_line(f"sample_inputs: {e}"))]
    old = signal.signal(signal.SIGALRM, _alarm), signal.signal(signal.SIGPROF, _alarm)
    try:
        for si, sample in enumerate(cases):
            if report:
                report(si)
            _arm(TIMEOUT_S)
            try:
                out.extend(_run_sample(key, si, op, sample, targets, tol))
            except _Timeout:
                done = {r[2] for r in out if r[1] == si}
                out.extend((key, si, t, "timeout", f"over {TIMEOUT_S} CPU s")
                           for t in targets if t not in done)
            finally:
                _arm(0)
    finally:
        signal.signal(signal.SIGALRM, old[0])
        signal.signal(signal.SIGPROF, old[1])
    return out


def _run_sample(key, si, op, sample, targets, tol):
    import torch
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module, inputs = _wrap(op, sample)
        try:
            with torch.no_grad():
                expected = module(*[t.clone() for t in inputs])
        except Exception as e:  # noqa: BLE001
            return [(key, si, None, "eager", _one_line(f"{type(e).__name__}: {e}"))]
        if not expected:
            return [(key, si, None, "output", "no tensor output")]
        if op.name.split(".")[-1].startswith(("empty", "new_empty")):
            return [(key, si, None, "output", "uninitialized memory: nothing to compare")]
        try:
            ep = torch.export.export(module, inputs).run_decompositions()
        except Exception as e:  # noqa: BLE001 - torch cannot export this call
            return [(key, si, None, "export", _one_line(f"{type(e).__name__}: {e}"))]
        verdict = _graph_verdict(ep)
        if verdict:
            return [(key, si, None, verdict[0], verdict[1])]
        res = []
        with np.errstate(all="ignore"):
            for target in targets:
                res.append((key, si, target,
                            *_run_target(ep, inputs, expected, target, tol)))
        return res


def run_all(pattern: str | None = None, jobs: int | None = None, targets=TARGETS,
            ops: list[int] | None = None, log=None):
    """The results (see run_op) of every op (matching `pattern` on its key; among
    indices `ops`); each op's results are also written to the file `log` as a JSON
    line as soon as it is done (a long run read back with --from-log)."""
    all_ops = load_ops()
    idx = [i for i in (range(len(all_ops)) if ops is None else ops)
           if pattern is None or re.search(pattern, op_key(all_ops[i]))]
    jobs = jobs or os.cpu_count() or 1
    import strata.compiler  # noqa: F401 - imported once here: forked workers inherit it
    import strata.frontends.torch  # noqa: F401
    from forked_pool import run_forked

    def died(i, si, why):  # the worker was killed inside sample si of op i
        return [(op_key(all_ops[i]), si or 0, t, "signal", f"the process died ({why})")
                for t in targets]

    def done(i, res):
        if log is not None:
            log.write(json.dumps(res) + "\n")
            log.flush()

    results = run_forked(idx, lambda i, progress: run_op(i, targets, progress), jobs,
                         died, done)
    return [r for i in idx for r in results[i]]


def read_logs(paths) -> list[list[tuple]]:
    """The results each --log file of `paths` holds, one list per file. A log line is
    one run of one op; an op run again later (after a fix, in the same log or a later
    one) replaces its earlier results."""
    seen = {}  # op key -> (file number, that run's results)
    for n, path in enumerate(paths):
        for line in Path(path).read_text().splitlines():
            rs = [tuple(r) for r in json.loads(line)] if line.strip() else []
            if rs:
                seen[rs[0][0]] = (n, rs)
    per_file = [[] for _ in paths]
    for n, rs in seen.values():
        per_file[n].extend(rs)
    return per_file


def case_name(key: str, si: int, target: str) -> str:
    return f"{key} {si} {target}"


def read_xfail(path: Path = XFAIL_FILE) -> dict[str, str]:
    """{'op variant sample target': 'status: detail'} of the expected failures."""
    out = {}
    path = Path(path)
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                parts = line.split(" ", 4)
                out[" ".join(parts[:4])] = parts[4] if len(parts) > 4 else ""
    return out


def write_xfail(results, path: Path = XFAIL_FILE):
    """Rewrite the list from `results`: the entries of the ops these results cover are
    replaced, those of other ops are kept (so a partial run updates its part)."""
    ran = {r[0] for r in results}
    kept = [f"{n} {d}" for n, d in read_xfail(path).items()
            if " ".join(n.split(" ")[:2]) not in ran]
    lines = ["# OpInfo samples expected to fail through Strata (float32, CPU).",
             "# One per line: op name, variant (- for none), sample index, target, then the",
             "# failure seen. Regenerate with",
             "#   python tests/e2e/torch_opinfo_runner.py --write-xfail",
             "# CI (tests/e2e/test_torch_opinfo.py) fails on a new failure and on an expected",
             "# failure that passes."]
    for key, si, target, status, detail in sorted(results, key=lambda r: (r[0], r[1],
                                                                            str(r[2]))):
        if target is not None and status != "pass":
            kept.append(f"{case_name(key, si, target)} {status}: {_one_line(detail)}")
    lines.extend(sorted(kept))
    Path(path).write_text("\n".join(lines) + "\n")


def failure_class(status: str, detail: str) -> str:
    """A failure's cause, coarse enough to group: the op that failed to legalize, or
    the status and the start of the message."""
    m = re.search(r"no lowering to linalg for the ATen op '([^']+)'", detail)
    if m:
        return f"{status}: no lowering of {m.group(1)}"
    m = re.search(r"failed to legalize operation '([^']+)'", detail)
    if m:
        why = detail.split("did not apply:", 1)[-1].strip()
        return f"{status}: no lowering of {m.group(1)}" + \
            (f" ({why[:60]})" if why and why != detail else "")
    return f"{status}: {detail[:90]}"


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / max(n, 1):.1f}%"


def summary(results) -> str:
    by_op = defaultdict(lambda: {"n": set(), "skip": Counter(), **{t: Counter()
                                                                    for t in TARGETS}})
    for key, si, target, status, detail in results:
        row = by_op[key]
        if target is None:
            row["skip"][status] += 1
        else:
            row["n"].add(si)
            row[target][status] += 1
    rows = [f"{'op':44} {'n':>3} {'interp':>6} {'cpu':>4} {'skip':>4}  failures"]
    for key in sorted(by_op):
        r = by_op[key]
        fails = Counter()
        for t in TARGETS:
            for k, v in r[t].items():
                if k != "pass":
                    fails[f"{t[:3]}:{k}"] += v
        skip = sum(r["skip"].values())
        detail = ", ".join(f"{k} {v}" for k, v in sorted(fails.items()))
        if skip:
            detail += ("; " if detail else "") + "skipped " + ", ".join(
                f"{k} {v}" for k, v in sorted(r["skip"].items()))
        rows.append(f"{key[:44]:44} {len(r['n']):3} {r['interpret']['pass']:6} "
                    f"{r['cpu']['pass']:4} {skip:4}  {detail}")
    rows.append("")
    rows.extend(totals(results))
    return "\n".join(rows)


def totals(results) -> list[str]:
    """The closing figures: samples counted and not (by reason), then per target the
    samples passed of those run, then the samples passed on every target run."""
    counted = {(k, si) for k, si, t, _, _ in results if t is not None}
    skipped = Counter(s for _, _, t, s, _ in results if t is None)
    lines = [f"ops {len({r[0] for r in results})}, counted samples {len(counted)}, "
             f"not counted {sum(skipped.values())} ("
             + ", ".join(f"{k} {v}" for k, v in sorted(skipped.items())) + ")"]
    ran = [t for t in TARGETS if any(r[2] == t for r in results)]
    both = set(counted)
    for t in ran:
        rs = [r for r in results if r[2] == t]
        ok = sum(1 for r in rs if r[3] == "pass")
        both &= {(r[0], r[1]) for r in rs if r[3] == "pass"}
        lines.append(f"{t}: passed {ok}/{len(rs)} ({_pct(ok, len(rs))})")
    if len(ran) > 1:
        lines.append(f"both targets: passed {len(both)}/{len(counted)} "
                     f"({_pct(len(both), len(counted))})")
    causes = Counter(failure_class(s, d) for _, _, t, s, d in results
                     if t is not None and s != "pass")
    if causes:
        lines.append("top failure causes (sample-targets):")
        lines.extend(f"  {v:4}  {k}" for k, v in causes.most_common(25))
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="pattern", help="regex on 'op_name variant'")
    ap.add_argument("-j", dest="jobs", type=int, help="worker processes (default: cores)")
    ap.add_argument("-v", action="store_true", help="print every failure with its reason")
    ap.add_argument("--skips", action="store_true", help="print every sample not counted")
    ap.add_argument("--shard", default="all",
                    help="all, ci (the CI shard), or OFFSET/STRIDE: ops OFFSET, "
                    "OFFSET + STRIDE, ...")
    ap.add_argument("--target", choices=TARGETS, help="one target only")
    ap.add_argument("--write-xfail", action="store_true",
                    help="rewrite tests/e2e/torch_opinfo_xfail.txt from this run")
    ap.add_argument("--log", help="append each op's results to this file (JSON lines)")
    ap.add_argument("--resume", action="store_true",
                    help="with --log: skip the ops that log already holds (a long run "
                    "stopped part way goes on where it stopped)")
    ap.add_argument("--from-log", nargs="+", metavar="LOG",
                    help="no run: the table (and --write-xfail) from logs of --log, "
                    "the figures of each log too when there are several (the shards)")
    args = ap.parse_args(argv)
    if args.from_log:
        missing = [f for f in args.from_log if not Path(f).is_file()]
        if missing:
            ap.error("no such log: " + ", ".join(missing))
        per_log = read_logs(args.from_log)
        results = [r for rs in per_log for r in rs]
        print(summary(results))
        if len(per_log) > 1:
            print("per log:")
            for f, rs in zip(args.from_log, per_log):
                print(f"  {f}: " + "; ".join(totals(rs)[:4]))
        if args.write_xfail:
            write_xfail(results)
        return 0
    t0 = time.time()
    load_ops()
    t1 = time.time()
    targets = (args.target,) if args.target else TARGETS
    if args.shard == "all":
        ops = None
    elif args.shard == "ci":
        ops = ci_ops()
    else:
        offset, _, stride = args.shard.partition("/")
        ops = shard_ops(int(offset), int(stride))
    if args.resume:
        if not args.log:
            ap.error("--resume needs --log")
        if Path(args.log).is_file():
            done = {r[0] for rs in read_logs([args.log]) for r in rs}
            all_ops = load_ops()
            ops = [i for i in (range(len(all_ops)) if ops is None else ops)
                   if op_key(all_ops[i]) not in done]
    log = open(args.log, "a") if args.log else None
    try:
        results = run_all(args.pattern, args.jobs, targets, ops, log)
    finally:
        if log is not None:
            log.close()
    t2 = time.time()
    for key, si, target, status, detail in results:
        if (args.v and target is not None and status != "pass") or \
                (args.skips and target is None):
            print(f"{key} {si} {target or '(not counted)'}: {status}: {detail}")
    print(summary(results))
    print(f"load {t1 - t0:.1f} s, run {t2 - t1:.1f} s")
    if args.write_xfail:
        if args.target:
            print("--write-xfail needs both targets (no --target)", file=sys.stderr)
            return 2
        write_xfail(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
