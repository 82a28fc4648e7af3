"""Interop with upstream MLIR: every lit input, printed by Strata, is what `iree-opt`
(upstream MLIR's parser, verifier and printer) accepts and prints.

For each *.mlir under tests/lit (split on `// -----` when its RUN line splits), leaving
out what is meant to fail (a RUN line with `not`, chunks with `expected-*` annotations):

(a) Strata's custom and generic output parse in iree-opt;
(b) the generic text iree-opt prints for the input (`--mlir-print-op-generic
    --mlir-print-local-scope`), parsed and printed the same way by Strata, then given to
    iree-opt again, comes back byte-identical;
(c) Strata's custom output equals iree-opt's, byte for byte (files that cannot yet are
    listed in CUSTOM_FORM_XFAIL with the reason).

[Note: batching]
Starting iree-opt costs about half a second, so it does not run per file: all chunks of
all files go through one `iree-opt --split-input-file` per printing mode (the outputs
come back between `// -----` markers, a failed chunk as an empty piece) and Strata runs
in-process. A file whose ops belong to a dialect iree-opt does not have is checked
through the generic form with --allow-unregistered-dialect instead.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from strata.dialects import all_dialects, default_context
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op
from strata.tools.opt import SPLIT_MARKER, split_chunks

LIT = Path(__file__).resolve().parents[1] / "lit"
IREE = shutil.which("iree-opt")
SEP = "\n" + SPLIT_MARKER + "\n"

# (c) Files whose custom form cannot match iree-opt's yet, with the reason. Keep empty
# where possible; every entry is a known gap to fix.
CUSTOM_FORM_XFAIL: dict[str, str] = {
    # Uses `ub.unreachable` (with --allow-unregistered-dialect): Strata has no `ub`
    # dialect yet, so it keeps the op generic where iree-opt prints its custom form.
    "passes/canonicalize/cf.mlir": "ub dialect not in Strata",
}

# Inputs iree-opt rejects on purpose although Strata takes them (Strata extensions).
IREE_REJECTS_XFAIL: dict[str, str] = {
}


def _lit_files():
    return sorted(p for p in LIT.rglob("*.mlir") if "Inputs" not in p.parts)


class _Chunk:
    __slots__ = ("file", "index", "text", "line", "col", "allow", "error", "custom",
                 "generic", "foreign")

    def __init__(self, file, index, text, line, col, allow):
        self.file, self.index, self.text, self.line, self.col = file, index, text, line, col
        self.allow = allow
        self.error = None     # Strata's diagnostic when it rejects the chunk
        self.custom = self.generic = None
        self.foreign = False  # uses a dialect iree-opt does not have

    @property
    def where(self):
        return f"{self.file}:{self.line + 1} (chunk {self.index})"


def _run_lines(text):
    runs, cur = [], None
    for line in text.splitlines():
        m = re.search(r"//\s*RUN:(.*)$", line)
        if m is None:
            cur = None
            continue
        body = m.group(1).rstrip()
        if cur is not None:
            runs[-1] += " " + body
        else:
            runs.append(body)
        cur = body.endswith("\\") or None
        if cur:
            runs[-1] = runs[-1][:-1]
    return runs


def _strata(text, name, line, col, allow, **opts):
    ctx = default_context(allow)
    op = parse_source(text, ctx, name, line, col_offset=col)
    return print_op(op, PrintOptions(**opts)) + "\n"


def _collect():
    """The chunks to check of every lit file: {relative path: [chunks] or skip reason}."""
    out = {}
    for path in _lit_files():
        rel = str(path.relative_to(LIT))
        text = path.read_text()
        runs = [r for r in _run_lines(text) if "strata-opt" in r]
        if not runs:
            out[rel] = "no strata-opt RUN line"
            continue
        if any(re.search(r"(^|\|)\s*not\s", r) for r in runs):
            out[rel] = "a RUN line expects strata-opt to fail"
            continue
        split = any("split-input-file" in r for r in runs)
        allow = any("allow-unregistered-dialect" in r for r in runs)
        pieces = split_chunks(text, SPLIT_MARKER) if split else [(text, 0, 0)]
        chunks = []
        for i, (t, line, col) in enumerate(pieces):
            if "expected-" in t:
                continue
            c = _Chunk(rel, i, t, line, col, allow)
            try:
                c.custom = _strata(t, path.name, line, col, allow)
                c.generic = _strata(t, path.name, line, col, allow, generic=True)
            except DiagnosticError as e:
                c.error = str(e)
            chunks.append(c)
        out[rel] = chunks if chunks else "every chunk is expected to fail"
    return out


def _iree(texts, allow, *flags):
    """Run iree-opt once over `texts` (split); returns (outputs, stderr), one output per
    text ("" when iree-opt rejected it)."""
    if not texts:
        return [], ""
    cmd = [IREE, "--split-input-file", "-", *flags]
    if allow:
        cmd.append("--allow-unregistered-dialect")
    # A marker inside a text (a comment of a file that is not split) would split it.
    texts = [t.replace(SPLIT_MARKER, "// =====") for t in texts]
    p = subprocess.run(cmd, input=SEP.join(texts), capture_output=True, text=True,
                       timeout=600)
    outs = p.stdout.split(SPLIT_MARKER + "\n")
    if len(outs) != len(texts):
        raise AssertionError(f"iree-opt returned {len(outs)} outputs for {len(texts)} "
                             f"inputs:\n{p.stderr[-3000:]}")
    return outs, p.stderr


def _iree_error(text, allow, *flags):
    """iree-opt's diagnostic for one text (for failure messages)."""
    cmd = [IREE, "-", *flags] + (["--allow-unregistered-dialect"] if allow else [])
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=120)
    return p.stderr.strip()


@functools.lru_cache(maxsize=None)
def _iree_dialects():
    p = subprocess.run([IREE, "--show-dialects"], capture_output=True, text=True)
    m = re.search(r"Available Dialects:\s*(.*)", p.stdout)
    return frozenset(d.strip() for d in m.group(1).split(",")) if m else frozenset()


_OP_NAME = re.compile(r'(?m)^\s*(?:%[^=]*=\s*)?"?([a-z_][a-z0-9_]*)\.[A-Za-z_]')


def _foreign(chunk):
    """Whether the chunk has ops of a Strata dialect that iree-opt lacks (ops of
    dialects neither knows are fine: both take them with --allow-unregistered-dialect)."""
    strata = {d.name for d in all_dialects()}
    names = set(_OP_NAME.findall(chunk.generic or ""))
    return bool((names & strata) - _iree_dialects())


@functools.lru_cache(maxsize=None)
def _results():
    """Run every check at once (see [Note: batching]); {file: [problem strings]}."""
    collected = _collect()
    chunks = [c for v in collected.values() if isinstance(v, list) for c in v
              if c.error is None]
    for c in chunks:
        c.foreign = _foreign(c)
    problems = {rel: [] for rel, v in collected.items() if isinstance(v, list)}
    for v in collected.values():
        if isinstance(v, list):
            for c in v:
                if c.error is not None:
                    problems[c.file].append(f"{c.where}: Strata rejects the input:\n"
                                            f"{c.error}")
    local = ("--mlir-print-op-generic", "--mlir-print-local-scope")
    groups = {}
    for c in chunks:
        groups.setdefault((c.allow or c.foreign, c.foreign), []).append(c)

    def first_pass(key):
        allow, foreign = key
        cs = groups[key]
        if foreign:
            # Only the generic form can reach iree-opt.
            a, _ = _iree([c.generic for c in cs], True)
            b, _ = _iree([c.generic for c in cs], True, *local)
            return key, [(None, None, ga) for ga in a], b
        a, _ = _iree([t for c in cs for t in (c.text, c.custom, c.generic)], allow)
        b, _ = _iree([c.text for c in cs], allow, *local)
        return key, [tuple(a[3 * i:3 * i + 3]) for i in range(len(cs))], b

    with ThreadPoolExecutor(max_workers=4) as ex:
        firsts = list(ex.map(first_pass, list(groups)))
    second_inputs = {}
    for key, custom_outs, g1 in firsts:
        cs = groups[key]
        s2 = []
        for c, (i_in, i_custom, i_generic), g in zip(cs, custom_outs, g1):
            allow = key[0]
            if not c.foreign and not i_in:
                if c.file not in IREE_REJECTS_XFAIL:
                    problems[c.file].append(
                        f"{c.where}: iree-opt rejects an input Strata accepts:\n"
                        + _iree_error(c.text, allow))
                s2.append(None)
                continue
            if not c.foreign and not i_custom:
                problems[c.file].append(
                    f"{c.where}: iree-opt rejects Strata's custom output:\n"
                    + _iree_error(c.custom, allow) + "\n--- Strata printed:\n" + c.custom)
            if not i_generic:
                problems[c.file].append(
                    f"{c.where}: iree-opt rejects Strata's generic output:\n"
                    + _iree_error(c.generic, True if c.foreign else allow)
                    + "\n--- Strata printed:\n" + c.generic)
            if not c.foreign and i_in and c.custom != i_in and \
                    c.file not in CUSTOM_FORM_XFAIL:
                problems[c.file].append(f"{c.where}: custom form differs from iree-opt's:\n"
                                        + _diff(i_in, c.custom))
            if not g:
                s2.append(None)
                continue
            try:
                s = _strata(g, "<iree>", 0, 0, allow, generic=True, local_scope=True)
            except DiagnosticError as e:
                problems[c.file].append(f"{c.where}: Strata rejects iree-opt's generic "
                                        f"form:\n{e}\n--- iree-opt printed:\n{g}")
                s2.append(None)
                continue
            if c.foreign and s != g:
                problems[c.file].append(f"{c.where}: generic form differs from iree-opt's "
                                        "(unregistered in iree-opt):\n" + _diff(g, s))
            s2.append(s)
        second_inputs[key] = (cs, g1, s2)

    def second_pass(key):
        cs, g1, s2 = second_inputs[key]
        todo = [i for i, s in enumerate(s2) if s is not None and not cs[i].foreign]
        outs, _ = _iree([s2[i] for i in todo], key[0], *local)
        return key, dict(zip(todo, outs))

    with ThreadPoolExecutor(max_workers=4) as ex:
        seconds = list(ex.map(second_pass, list(second_inputs)))
    for key, g2 in seconds:
        cs, g1, s2 = second_inputs[key]
        for i, out in g2.items():
            if out != g1[i]:
                problems[cs[i].file].append(
                    f"{cs[i].where}: the generic round trip through Strata changes "
                    f"iree-opt's output:\n" + _diff(g1[i], out or "<rejected>\n"))
    skips = {rel: v for rel, v in collected.items() if isinstance(v, str)}
    return problems, skips


def _diff(expected, actual):
    import difflib
    d = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "iree-opt",
                             "strata", lineterm="", n=1)
    text = "\n".join(d)
    return text if len(text) < 6000 else text[:6000] + "\n..."


@pytest.mark.skipif(IREE is None, reason="iree-opt is not installed (pip install "
                                          "iree-base-compiler): upstream interop untested")
@pytest.mark.parametrize("rel", [str(p.relative_to(LIT)) for p in _lit_files()])
def test_lit_input_matches_upstream(rel):
    problems, skips = _results()
    if rel in skips:
        pytest.skip(skips[rel])
    found = problems.get(rel, [])
    assert not found, "\n\n".join(found)


def test_xfail_entries_exist():
    """Every xfail entry names a lit file that still exists."""
    names = {str(p.relative_to(LIT)) for p in _lit_files()}
    stale = [k for k in {**CUSTOM_FORM_XFAIL, **IREE_REJECTS_XFAIL} if k not in names]
    assert not stale, f"xfail entries for missing files: {stale}"


