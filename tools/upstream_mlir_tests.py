"""Run upstream MLIR's own test files through Strata, with `iree-opt` as the judge.

    python tools/upstream_mlir_tests.py --dir /work/upstream-mlir-tests [--iree-opt PATH]
                                        [--only SUBSTRING] [--list-failures N]
                                        [--list-out-of-scope]

DIR holds upstream test files as they are in llvm-project (`mlir/test/IR/*.mlir`,
`mlir/test/Dialect/<D>/{ops,invalid,canonicalize}.mlir`), in any folder layout below it.
They are not part of this repository: copy them from an llvm-project checkout of the
LLVM that `iree-opt --version` names, e.g.

    mkdir -p DIR && cd llvm-project/mlir/test && \
      cp --parents IR/*.mlir Dialect/{Arith,Func,Tensor,SCF,ControlFlow}/{ops,invalid,canonicalize}.mlir DIR

Each file is split at `// -----` (as `--split-input-file` does) and each chunk is judged
by `iree-opt` (with `--allow-unregistered-dialect` where the file's RUN lines have it):

  1. valid: iree-opt accepts the chunk. Strata must parse it and print the very bytes
     iree-opt prints, in the custom form and with `--mlir-print-op-generic`.
  2. invalid: iree-opt rejects the chunk. Strata must reject it too.
  3. diagnostics: in a file whose RUN line has `-verify-diagnostics`, a chunk with
     `expected-*` annotations that iree-opt's `--verify-diagnostics` passes must pass
     Strata's `--verify-diagnostics` (upstream's wording of every message).
  4. canonicalize: in a file whose RUN line runs `-canonicalize`, a chunk iree-opt
     accepts must canonicalize to iree-opt's output, byte for byte.

Both tools print with the `-mlir-print-debuginfo` / `-mlir-print-local-scope` flags of
the file's first RUN line. Chunks whose valid IR holds ops of dialects Strata does not
have (iree-opt knows `vector`, `affine`, ...), and chunks iree-opt rejects for a dialect
one of the tools lacks (an `'affine.apply' op` error; upstream's `test` dialect, which
iree-opt has not got, in custom form or resources), are counted apart as out of scope,
not in the four numbers (`--list-out-of-scope` lists them, with iree-opt's reason).
Generic-form ops of the `test` dialect in a file without `-allow-unregistered-dialect`
are judged as unregistered ops, by both tools alike.
The canonicalize check of a chunk whose canonical form upstream holds such ops is out of
scope too. A file cut by `// -----` is judged chunk by chunk even where its RUN line
reads it whole.
The report is the four numbers overall and per file, then the failures.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.join(_HERE, "..") not in sys.path:
    sys.path.insert(0, os.path.abspath(os.path.join(_HERE, "..")))

CHUNK_TIMEOUT_S = 60
KINDS = ("valid", "invalid", "diagnostics", "canonicalize")


class Tally:
    """Passes and totals of the four checks, and the failures seen."""
    __slots__ = ("passed", "total", "skipped", "failures", "skips")

    def __init__(self):
        self.passed = dict.fromkeys(KINDS, 0)
        self.total = dict.fromkeys(KINDS, 0)
        self.skipped = 0
        self.skips = []  # (where, why) of the chunks out of scope
        self.failures = []  # (kind, where, why)

    def count(self, kind, ok, where, why=""):
        self.total[kind] += 1
        if ok:
            self.passed[kind] += 1
        else:
            self.failures.append((kind, where, why))

    def skip(self, where, why):
        self.skipped += 1
        self.skips.append((where, why))

    def add(self, other):
        for k in KINDS:
            self.passed[k] += other.passed[k]
            self.total[k] += other.total[k]
        self.skipped += other.skipped
        self.skips += other.skips
        self.failures += other.failures

    def row(self):
        return "  ".join(f"{k} {self.passed[k]}/{self.total[k]}" for k in KINDS) + \
            (f"  (out of scope: {self.skipped})" if self.skipped else "")


def run_lines(text):
    """The RUN lines of a test file, joined across trailing backslashes."""
    lines, cur = [], ""
    for m in re.finditer(r"^\s*//\s*RUN:(.*)$", text, re.M):
        part = m.group(1).strip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    return lines


class Iree:
    """`iree-opt` on one chunk file: (exit code, stdout, stderr)."""

    def __init__(self, exe):
        self.exe = exe

    def __call__(self, path, *flags):
        try:
            p = subprocess.run([self.exe, path, *flags], capture_output=True, text=True,
                               timeout=CHUNK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return 124, "", "timeout"
        return p.returncode, p.stdout, p.stderr


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def strata(path, *flags):
    """strata-opt on one chunk file, in this process: (exit code, stdout, stderr)."""
    from strata.tools.opt import main
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(CHUNK_TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([path, *flags])
    except _Timeout:
        rc, err = 124, io.StringIO("timeout")
    except BaseException as e:  # a crash of Strata is a failure to report, not to die of
        rc = 99
        err.write(f"crash: {type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue()


_OP_NAME = re.compile(r'^\s*(?:%[^=]*=\s*)?"([A-Za-z_][\w$.]*)"\(', re.M)


# ... also as the element type of a shaped type: `tensor<2x!quant.uniform<...>>`.
_DIALECT_ATTR_OR_TYPE = re.compile(
    r"(?:(?<![\w.$-])|(?<=[\d?*]x))[#!]([A-Za-z_]\w*)\.[A-Za-z_]")


def out_of_scope(generic_text, known, unregistered_ok):
    """The dialects of ops in iree-opt's generic output that Strata does not have, and of
    the attributes and types it holds (`#gpu.thread<x>`, `!transform.any_op`)."""
    missing = {d for d in _DIALECT_ATTR_OR_TYPE.findall(generic_text)
               if d in _IREE_DIALECTS and d not in known}
    for name in _OP_NAME.findall(generic_text):
        dialect = name.split(".", 1)[0]
        if dialect in known:
            continue
        if unregistered_ok and dialect in ("test", "foo", "bar", "unregistered"):
            continue
        if unregistered_ok and dialect not in _IREE_DIALECTS:
            continue
        missing.add(dialect)
    return missing


# Dialects iree-opt registers that are not in Strata: their ops are real ops there,
# unregistered ones here.
_IREE_DIALECTS = {"affine", "vector", "gpu", "nvgpu", "amdgpu", "spirv", "emitc", "index",
                  "complex", "shape", "sparse_tensor", "transform", "pdl", "pdl_interp",
                  "async", "omp", "acc", "quant", "mesh", "shard", "ub", "x86vector",
                  "arm_neon", "arm_sve", "arm_sme", "rocdl", "nvvm", "smt", "irdl",
                  "iree_codegen", "iree_gpu", "iree_tensor_ext", "hal", "flow", "stream",
                  "util", "iree_linalg_ext", "vm", "vmvx", "dlti", "stablehlo", "chlo",
                  "torch", "torch_c", "tm_tensor", "check", "io_parameters", "iree_encoding",
                  "iree_vector_ext", "xegpu", "ptr", "polynomial", "mpi", "wasmssa",
                  "tosa_ext", "linalg_ext"}


# `-canonicalize` as a flag, or `canonicalize` (with or without `{options}`) inside a
# `-pass-pipeline=` (as in ControlFlow/canonicalize.mlir); not `-test-canonicalize-x`.
_CANONICALIZE = re.compile(r"(?<![\w-])(?:--?)?canonicalize(?![\w-])")


def check_file(path, iree, tmpdir, rel):
    from strata.dialects import all_dialects
    from strata.tools.opt import split_chunks
    known = {d.name for d in all_dialects()} | {"builtin"}
    tally = Tally()
    text = open(path, encoding="utf-8").read()
    runs = run_lines(text)
    if not runs:
        return tally
    all_runs = " ".join(runs)
    unreg = "allow-unregistered-dialect" in all_runs
    # A file cut by `// -----` is judged chunk by chunk even where its RUN line reads it
    # whole (Linalg/roundtrip.mlir): one unsupported op then costs one chunk, not all.
    split = "split-input-file" in all_runs or re.search(r"^// -----", text, re.M) is not None
    verify = "verify-diagnostics" in all_runs
    canon = _CANONICALIZE.search(all_runs) is not None
    # The printing flags of the first RUN line (locations.mlir prints with debuginfo).
    printing = ["--" + f for f in _PRINT_FLAGS
                if re.search(rf"(?<![\w-])--?{f}(?![\w-])", runs[0])]
    chunks = split_chunks(text, "// -----") if split else [(text, 0, 0)]
    chunk_path = os.path.join(tmpdir, "chunk.mlir")
    for i, (chunk, line, _col) in enumerate(chunks):
        where = f"{rel}:{line + 1} (chunk {i + 1})"
        with open(chunk_path, "w", encoding="utf-8") as f:
            f.write(chunk)
        base = (["--allow-unregistered-dialect"] if unreg else []) + printing
        rc, custom, ierr = iree(chunk_path, *base)
        if rc == 124:
            continue
        if rc != 0 and not unreg and _UNREGISTERED_TEST.search(ierr):
            # Upstream's mlir-opt has the `test` dialect, iree-opt does not: its generic
            # ops are judged as unregistered ops, by both tools alike.
            base = ["--allow-unregistered-dialect"] + printing
            rc, custom, ierr = iree(chunk_path, *base)
        unreg_ok = "--allow-unregistered-dialect" in base
        if rc != 0 and _judge_lacks_dialect(ierr, known):
            # iree-opt cannot judge what it rejects for this reason
            tally.skip(where, "iree-opt: " + _first_error(ierr))
            continue
        if rc != 0:
            src, _, serr = strata(chunk_path, *base)
            tally.count("invalid", src != 0, where,
                        f"iree-opt rejects it: {_first_error(ierr)}")
            if verify and "expected-" in chunk:
                irc, _, _ = iree(chunk_path, *base, "--verify-diagnostics")
                if irc == 0:
                    vrc, _, verr = strata(chunk_path, *base, "--verify-diagnostics")
                    if vrc != 0 and _missing_dialect(verr):
                        tally.skip(where, _first_error(verr))
                    else:
                        tally.count("diagnostics", vrc == 0, where, _first_error(verr, 3))
            continue
        _, generic, _ = iree(chunk_path, *base, "--mlir-print-op-generic")
        missing = out_of_scope(generic, known, unreg_ok)
        if missing:
            tally.skip(where, "ops of " + ", ".join(sorted(missing)))
            continue
        src, scustom, serr = strata(chunk_path, *base)
        if src != 0:
            tally.count("valid", False, where, "Strata rejects it: " + _first_error(serr))
        elif scustom != custom:
            tally.count("valid", False, where, "custom form differs:\n" +
                        _first_diff(custom, scustom))
        else:
            _, sgeneric, serr = strata(chunk_path, *base, "--mlir-print-op-generic")
            tally.count("valid", sgeneric == generic, where, "generic form differs:\n" +
                        _first_diff(generic, sgeneric))
        if verify and "expected-" in chunk:
            irc, _, _ = iree(chunk_path, *base, "--verify-diagnostics")
            if irc == 0:
                vrc, _, verr = strata(chunk_path, *base, "--verify-diagnostics")
                tally.count("diagnostics", vrc == 0, where, _first_error(verr, 3))
        if canon:
            irc, icanon, _ = iree(chunk_path, *base, "--canonicalize")
            if irc == 0 and out_of_scope(iree(chunk_path, *base, "--canonicalize",
                                              "--mlir-print-op-generic")[1], known, unreg):
                # upstream's result holds ops Strata cannot make (affine.apply of a
                # dynamic pad size): out of scope, as a chunk that starts with them
                tally.skipped += 1
            elif irc == 0:
                crc, scanon, cerr = strata(chunk_path, *base, "--canonicalize")
                why = _first_error(cerr) if crc else _first_diff(icanon, scanon)
                tally.count("canonicalize", crc == 0 and scanon == icanon, where, why)
    return tally


_PRINT_FLAGS = ("mlir-print-debuginfo", "mlir-print-local-scope")
# ... and the source line it quotes holds an op of upstream's `test` dialect.
_UNREGISTERED_TEST = re.compile(
    r"error: operation being parsed with an unregistered dialect[^\n]*\n[^\n]*\"test\.")
# iree-opt's first error names an op or dialect: "'affine.apply' op ...", "custom op
# 'vector.splat' is unknown", "Dialect `test' not found for custom op ...", "dialect
# 'test' is unknown" (a `{-# dialect_resources #-}` entry).
_FIRST_ERROR_DIALECT = re.compile(
    r"error: (?:'([A-Za-z_]\w*)\.[\w.$]+' op |custom op '([A-Za-z_]\w*)\.[\w.$]+' is unknown"
    r"|Dialect `(\w+)' not found|dialect '(test)' is unknown)")


def _judge_lacks_dialect(err, known):
    """Whether iree-opt rejects a chunk for a dialect that is not Strata's to judge: one
    iree-opt has not got (upstream's `test` dialect), or one Strata has not got (an
    `affine.apply` iree-opt verifies, a `vector.splat` it no longer knows)."""
    first = next((ln for ln in err.splitlines() if "error:" in ln), "")
    m = _FIRST_ERROR_DIALECT.search(first)
    if not m:
        return False
    if m.group(3) or m.group(4):
        return True
    d = m.group(1) or m.group(2)
    return d not in known and d in _IREE_DIALECTS


_NO_DIALECT = re.compile(r"Dialect `(\w+)' not found|unregistered operation '(\w+)\.")


def _missing_dialect(err):
    """Whether Strata's errors come from ops of a dialect it does not have."""
    return any((m.group(1) or m.group(2)) in _IREE_DIALECTS
               for m in _NO_DIALECT.finditer(err))


def _first_error(err, lines=1):
    got = [ln for ln in err.splitlines() if "error" in ln or "expected" in ln]
    return " | ".join(got[:lines]) if got else err.strip()[:200]


def _first_diff(want, got):
    a, b = want.splitlines(), got.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end>"
        y = b[i] if i < len(b) else "<end>"
        if x != y:
            return f"    iree-opt: {x.strip()}\n    strata:   {y.strip()}"
    return "    (trailing whitespace differs)"


def find_files(root):
    out = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith(".mlir"):
                out.append(os.path.join(dirpath, name))
    return sorted(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="folder holding upstream's .mlir tests")
    ap.add_argument("--iree-opt", default=shutil.which("iree-opt"),
                    help="the iree-opt to judge with (default: the one on PATH)")
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("--list-failures", type=int, default=200, metavar="N",
                    help="list at most N failures (default 200)")
    ap.add_argument("--list-out-of-scope", action="store_true",
                    help="also list the chunks counted out of scope, and why")
    args = ap.parse_args(argv)
    files = find_files(args.dir) if os.path.isdir(args.dir) else []
    if args.only:
        files = [f for f in files if args.only in f]
    if not files:
        sys.stderr.write(
            f"error: no upstream MLIR test files (*.mlir) under '{args.dir}'.\n"
            "They are not part of this repository; copy them from an llvm-project "
            "checkout (mlir/test/IR/*.mlir and mlir/test/Dialect/<D>/{ops,invalid,"
            "canonicalize}.mlir) into that folder, e.g.\n"
            "  mkdir -p DIR && cd llvm-project/mlir/test && cp --parents IR/*.mlir "
            "Dialect/{Arith,Func,Tensor}/{ops,invalid,canonicalize}.mlir DIR\n")
        return 2
    if not args.iree_opt or not os.path.exists(args.iree_opt):
        sys.stderr.write("error: iree-opt not found (pip install iree-base-compiler, or "
                         "pass --iree-opt PATH): it judges which chunks are valid\n")
        return 2
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    iree = Iree(args.iree_opt)
    total = Tally()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            rel = os.path.relpath(path, args.dir)
            t = check_file(path, iree, tmp, rel)
            rows.append((rel, t))
            total.add(t)
    width = max(len(r) for r, _ in rows)
    print("per file:")
    for rel, t in rows:
        print(f"  {rel:<{width}}  {t.row()}")
    print(f"overall: {total.row()}")
    for k in KINDS:
        n = total.total[k]
        pct = 100.0 * total.passed[k] / n if n else 100.0
        print(f"  {k:<12} {total.passed[k]}/{n} ({pct:.1f}%)")
    if args.list_out_of_scope and total.skips:
        print(f"out of scope ({len(total.skips)}):")
        for where, why in total.skips:
            print(f"- {where}: {why}")
    if total.failures:
        print(f"failures ({len(total.failures)}):")
        for kind, where, why in total.failures[:args.list_failures]:
            print(f"- [{kind}] {where}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
