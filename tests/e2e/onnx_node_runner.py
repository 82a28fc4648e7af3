"""The ONNX backend node tests through Strata: import -> lowering -> interpreter.

Every test of `onnx.backend.test.loader.load_node_model_tests()` (1884 in onnx 1.23.2) is
compiled with `strata.compile(model, target=TARGET)` — for the interpreter target that is
import, onnx-decompose, onnx-shape-inference, convert-onnx-to-linalg (a full conversion:
any onnx op left fails the test), canonicalize — and run on the test's inputs; outputs
are compared with the expected ones at the test's rtol/atol, as ONNX's own backend runner
does.

    python tests/e2e/onnx_node_runner.py                 # run all, print the per-op summary
    python tests/e2e/onnx_node_runner.py -k conv -v      # a subset, with failure details
    python tests/e2e/onnx_node_runner.py --write-xfail   # rewrite the expected-failure list
    python tests/e2e/onnx_node_runner.py --target cpu    # compiled to native code

Each target has its own expected-failure list (onnx_node_xfail.txt for the interpreter,
onnx_node_xfail_<target>.txt for the others). Cases run in forked worker processes; a
worker that dies (a crash of compiled code: a signal) fails only the case it was running,
as "signal", and a fresh worker goes on with the rest.

tests/e2e/test_onnx_node.py runs the same and fails on any difference from the checked-in
expected-failure list (a new failure, or an expected failure that now passes).
"""
from __future__ import annotations

import argparse
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
XFAIL_FILE = HERE / "onnx_node_xfail.txt"


def xfail_file(target: str = "interpret") -> Path:
    return XFAIL_FILE if target == "interpret" else HERE / f"onnx_node_xfail_{target}.txt"

TIMEOUT_S = 60

_CASES = None  # loaded once in the parent; forked workers inherit it


def load_cases():
    global _CASES
    if _CASES is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np_err = np.seterr(all="ignore")
            from onnx.backend.test.loader import load_node_model_tests
            _CASES = sorted(load_node_model_tests(), key=lambda c: c.name)
            np.seterr(**np_err)
    return _CASES


def op_types(case) -> list[str]:
    return sorted({n.op_type for n in case.model.graph.node})


def _compare(expected, got, rtol, atol):
    """None when equal within tolerance, else a short reason."""
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return f"expected a sequence of {len(expected)}, got {type(got).__name__}"
        for e, g in zip(expected, got):
            r = _compare(e, g, rtol, atol)
            if r:
                return r
        return None
    if expected is None:
        return None if got is None else "expected an empty optional"
    e = np.asarray(expected)
    if got is None:
        return "got no value"
    g = np.asarray(got)
    if e.shape != g.shape:
        return f"shape {g.shape} != expected {e.shape}"
    if e.dtype == object or e.dtype.kind in "US":
        return None if np.array_equal(e.astype(object), g.astype(object)) else "values differ"
    if e.dtype != g.dtype:
        return f"dtype {g.dtype} != expected {e.dtype}"
    if e.dtype.kind in "biu" or e.dtype == np.bool_:
        return None if np.array_equal(e, g) else "values differ"
    try:
        ef, gf = e.astype(np.float64), g.astype(np.float64)
    except (TypeError, ValueError):
        return None if np.array_equal(e.view(np.uint8), g.view(np.uint8)) else "values differ"
    if np.iscomplexobj(e):
        ef, gf = e.astype(np.complex128), g.astype(np.complex128)
    try:
        np.testing.assert_allclose(gf, ef, rtol=rtol, atol=atol, equal_nan=True)
    except AssertionError as ex:
        lines = [ln for ln in str(ex).splitlines() if "Max abs" in ln or "Mismatched" in ln]
        return "values differ: " + "; ".join(x.strip() for x in lines)
    return None


def _to_value(x):
    """A test's input or output as Strata takes and gives it: NumPy arrays (TensorProto
    data, which the loader keeps for element types NumPy lacks), lists for sequences,
    None or the value for optionals."""
    from onnx import OptionalProto, SequenceProto, TensorProto, numpy_helper
    if isinstance(x, TensorProto):
        return numpy_helper.to_array(x)
    if isinstance(x, SequenceProto):
        return [_to_value(v) for v in numpy_helper.to_list(x)]
    if isinstance(x, OptionalProto):
        return _to_value(numpy_helper.to_optional(x))
    if isinstance(x, list):
        return [_to_value(v) for v in x]
    return x


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _one_line(msg: str, limit: int = 160) -> str:
    msg = " ".join(str(msg).split())
    return msg if len(msg) <= limit else msg[:limit - 3] + "..."


def run_case(index: int, target: str = "interpret", compare=None):
    """(name, status, detail) for case `index`: status is pass, compile, run, mismatch,
    timeout or crash (a Python exception escaping Strata: always a bug). `compare`
    (expected, got, rtol, atol) -> None or a reason replaces _compare (a tool's own
    tolerances: tools/gpu_node_suite.py)."""
    compare = compare or _compare
    import strata
    case = load_cases()[index]
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    stage = "compile"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                fn = strata.compile(case.model, target=target)
                stage = "run"
                inputs, expected = case.data_sets[0]
                inputs = [_to_value(x) for x in inputs]
                expected = [_to_value(x) for x in expected]
                got = fn(*inputs)
        if len(got) != len(expected):
            return case.name, "mismatch", f"{len(got)} outputs, expected {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            r = compare(e, g, case.rtol, case.atol)
            if r:
                return case.name, "mismatch", f"output #{i}: {r}"
        return case.name, "pass", ""
    except _Timeout:
        return case.name, "timeout", f"over {TIMEOUT_S} s in {stage}"
    except strata.StrataError as e:
        diag = getattr(e, "diag", None)
        notes = [n.message for n in getattr(diag, "notes", ()) or ()
                 if "while running pass" not in n.message]
        return case.name, stage, _one_line(str(e) + ("; " + notes[0] if notes else ""))
    except Exception as e:  # noqa: BLE001 - a bug in Strata: reported, not hidden
        return case.name, "crash", _one_line(f"{stage}: {type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_all(pattern: str | None = None, jobs: int | None = None, target="interpret",
            shard: tuple[int, int] | None = None, compare=None):
    """(name, status, detail) of every case (matching `pattern`; of shard k of n, the
    cases whose index is k modulo n, with `shard=(k, n)`)."""
    cases = load_cases()
    idx = [i for i, c in enumerate(cases) if (pattern is None or re.search(pattern, c.name))
           and (shard is None or i % shard[1] == shard[0])]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(idx)))
    import strata.compiler  # noqa: F401 - imported once here: forked workers (a fresh
    import strata.frontends.onnx  # noqa: F401 - set per shard) inherit it
    from forked_pool import run_forked
    results = run_forked(idx, lambda i, progress: run_case(i, target, compare), jobs,
                         lambda i, _, why: (cases[i].name, "signal",
                                            f"the process died ({why})"))
    return [results[i] for i in idx]


def read_xfail(path: Path = XFAIL_FILE) -> dict[str, str]:
    out = {}
    path = Path(path)
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(" ")
                out[name] = why.strip()
    return out


def check_shard(target: str, shard: int, shards: int, stale: bool = True) -> None:
    """The CI gate of one shard (cases shard, shard + shards, ...) for `target`: it must
    fail exactly as the target's expected-failure list says. Raises AssertionError naming
    new failures, listed failures that pass now, and (with `stale`) listed names that
    are no test case. A crash (a Python exception escaping Strata) is a bug unless
    listed; compiled code killed by a signal is a bug even when listed."""
    results = run_all(target=target, shard=(shard, shards))
    names = {name for name, _, _ in results}
    listed = read_xfail(xfail_file(target))
    expected = {n: d for n, d in listed.items() if n in names}
    failed = {name: f"{status}: {detail}" for name, status, detail in results
              if status != "pass"}
    new = {n: d for n, d in failed.items() if n not in expected}
    fixed = sorted(n for n in expected if n not in failed)
    msg = []
    if new:
        msg.append("new failures:\n" + "\n".join(f"  {n}: {d}" for n, d in sorted(new.items())))
    if fixed:
        msg.append("expected failures that pass now (remove them from the list):\n"
                   + "\n".join("  " + n for n in fixed))
    if stale:
        cases = {c.name for c in load_cases()}
        gone = sorted(n for n in listed if n not in cases)
        if gone:
            msg.append("listed as expected failures but not a test case:\n"
                       + "\n".join("  " + n for n in gone))
    passed = sum(1 for _, status, _ in results if status == "pass")
    print(f"{target} shard {shard + 1}/{shards}: passed {passed}/{len(results)}")
    assert not msg, "\n".join(msg)
    crashes = {n: d for n, d in failed.items() if d.startswith("crash")}
    signals = {n: d for n, d in failed.items() if d.startswith("signal")}
    assert len(crashes) <= len([d for d in expected.values() if d.startswith("crash")]), \
        crashes
    assert not signals, signals


def write_xfail(results, path: Path = XFAIL_FILE, target: str = "interpret"):
    flag = "" if target == "interpret" else f" --target {target}"
    lines = [f"# ONNX node tests expected to fail through Strata ({target} target).",
             "# One per line: test name, then the failure seen. Regenerate with",
             f"#   python tests/e2e/onnx_node_runner.py --write-xfail{flag}",
             "# CI fails on a new failure and on an expected failure that passes."]
    for name, status, detail in sorted(results):
        if status != "pass":
            lines.append(f"{name} {status}: {detail}")
    path.write_text("\n".join(lines) + "\n")


def summary(results) -> str:
    cases = {c.name: c for c in load_cases()}
    by_op = defaultdict(Counter)
    for name, status, _ in results:
        ops = op_types(cases[name])
        key = ops[0] if len(ops) == 1 else "(several: " + ",".join(ops[:3]) + \
            (",..." if len(ops) > 3 else "") + ")"
        by_op[key][status] += 1
    total = Counter(s for _, s, _ in results)
    n = len(results)
    rows = [f"{'op':40} {'pass':>5} {'fail':>5}  failures"]
    for op in sorted(by_op):
        c = by_op[op]
        fails = sum(v for k, v in c.items() if k != "pass")
        detail = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "pass")
        rows.append(f"{op[:40]:40} {c['pass']:5} {fails:5}  {detail}")
    rows.append("")
    rows.append(f"passed {total['pass']}/{n} ({100.0 * total['pass'] / max(n, 1):.1f}%); "
                + ", ".join(f"{k} {v}" for k, v in sorted(total.items()) if k != "pass"))
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="pattern", help="regex on test names")
    ap.add_argument("-j", dest="jobs", type=int, help="worker processes (default: cores)")
    ap.add_argument("-v", action="store_true", help="print every failure with its reason")
    ap.add_argument("--target", default="interpret")
    ap.add_argument("--write-xfail", action="store_true",
                    help="rewrite tests/e2e/onnx_node_xfail.txt from this run")
    args = ap.parse_args(argv)
    t0 = time.time()
    load_cases()
    t1 = time.time()
    results = run_all(args.pattern, args.jobs, args.target)
    t2 = time.time()
    if args.v:
        for name, status, detail in results:
            if status != "pass":
                print(f"{name}: {status}: {detail}")
    print(summary(results))
    print(f"load {t1 - t0:.1f} s, run {t2 - t1:.1f} s")
    if args.write_xfail:
        if args.pattern:
            print("--write-xfail needs a full run (no -k)", file=sys.stderr)
            return 2
        write_xfail(results, xfail_file(args.target), args.target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
