"""Mutation fuzzing of the parser, verifier and printer.

The valid lit inputs are mutated thousands of times (byte flips, deletions,
duplications, token swaps, truncations, insertions of MLIR punctuation) with a fixed
seed and fed to Strata in-process. Each mutant must either be rejected with a
DiagnosticError (a located diagnostic) or be accepted, and then print stably: the text
printed, parsed again and printed again is the same, in custom and generic form.
Anything else (an exception of another kind, an unstable print) is a bug in the core.

STRATA_FUZZ_ITERATIONS scales the run (default 6,000 mutants: about 30 s on 2 cores).
"""
from __future__ import annotations

import os
import random
import re
import traceback
from pathlib import Path

import pytest

from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op
from strata.tools.opt import SPLIT_MARKER, split_chunks

LIT = Path(__file__).resolve().parents[1] / "lit"
TOTAL = int(os.environ.get("STRATA_FUZZ_ITERATIONS", "6000"))
MAX_SEED = 8000  # characters: bigger chunks would only slow the run down
SEED = 20240607

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[%^@#!]?[A-Za-z0-9_$.\-]+|->|::|\S')
# Characters that matter to the MLIR grammar, used for flips and insertions.
_ALPHABET = list('%^@#!"(){}[]<>:,=?*+-x0123456789.') + ["\n", " ", "loc(", "dense<",
                                                         "affine_map<", "-> ", "// -----"]


def _seeds():
    """(name, text, allow_unregistered) of every lit chunk that is meant to parse."""
    out = []
    for path in sorted(LIT.rglob("*.mlir")):
        text = path.read_text()
        runs = [line for line in text.splitlines() if "RUN:" in line]
        if not any("strata-opt" in r for r in runs) or \
                any(re.search(r"(^|\|)\s*not\s", r.split("RUN:", 1)[1]) for r in runs):
            continue
        allow = any("allow-unregistered-dialect" in r for r in runs)
        split = any("split-input-file" in r for r in runs)
        chunks = split_chunks(text, SPLIT_MARKER) if split else [(text, 0, 0)]
        for i, (chunk, _, _) in enumerate(chunks):
            if "expected-" in chunk:
                continue
            # Drop the comments: most mutations should hit IR, not prose.
            body = "\n".join(line.split("//", 1)[0].rstrip() for line in chunk.split("\n"))
            if body.strip() and len(body) <= MAX_SEED:
                out.append((f"{path.relative_to(LIT)}#{i}", body, allow))
    return out


# Tokens that are valid somewhere: swapping one in keeps more mutants parseable, so
# that the verifier and the printer get exercised, not only the parser's errors.
_POOL = ["i1", "i8", "i64", "si32", "ui8", "f16", "bf16", "f64", "index", "none",
         "f8E4M3FN", "tensor<?xf32>", "tensor<*xi8>", "memref<2x?xf32>",
         "memref<4xf32, strided<[1], offset: ?>>", "vector<[4]xf32>", "complex<f32>",
         "tuple<>", "!foo.bar", "() -> ()", "0", "-1", "255", "9223372036854775808",
         "1.5", "-0.0", "0x7FC00000", "1e400", "unit", "true", "[]", "{}", "[1, 2.0]",
         "dense<1> : tensor<2xi32>", "dense<[1.0, 2.0]> : tensor<2xf32>", "@sym",
         "@a::@b", "#foo.bar", "affine_map<(d0) -> (d0)>", "array<i32: 1, 2>",
         '"str\\0A"', "loc(unknown)", 'loc("f":1:2)', "%arg0", "%0", "%c", "^bb1",
         "distinct[0]<unit>", "strided<[?]>", "#arith.fastmath<fast>"]


def _mutate(rng: random.Random, text: str) -> str:
    n = len(text)
    if n == 0:
        return rng.choice(_ALPHABET)
    kind = rng.randrange(9)
    i = rng.randrange(n)
    if kind == 0:  # flip one character
        return text[:i] + rng.choice(_ALPHABET) + text[i + 1:]
    if kind == 1:  # delete a span
        return text[:i] + text[i + rng.randint(1, 12):]
    if kind == 2:  # duplicate a span
        j = min(n, i + rng.randint(1, 40))
        return text[:j] + text[i:j] + text[j:]
    if kind == 3:  # truncate
        return text[:i]
    if kind == 4:  # insert grammar characters
        return text[:i] + rng.choice(_ALPHABET) + text[i:]
    toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    if len(toks) < 2:
        return text[:i]
    if kind == 5:  # swap two tokens
        a, b = sorted(rng.sample(range(len(toks)), 2))
        (s1, e1), (s2, e2) = toks[a], toks[b]
        return text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]
    if kind >= 7:  # replace a token by a valid token of some kind
        s, e = rng.choice(toks)
        return text[:s] + rng.choice(_POOL) + text[e:]
    # replace a token by another one of the input
    s, e = rng.choice(toks)
    s2, e2 = rng.choice(toks)
    return text[:s] + text[s2:e2] + text[e:]


def _check(text: str, allow: bool):
    """None if the input behaves, else a description of the bug."""
    try:
        op = parse_source(text, default_context(allow), "fuzz.mlir")
    except DiagnosticError:
        return None
    except Exception:
        return "parsing raised instead of reporting a diagnostic:\n" + traceback.format_exc()
    for opts in (PrintOptions(), PrintOptions(generic=True),
                 PrintOptions(generic=True, local_scope=True, debuginfo=True)):
        try:
            first = print_op(op, opts)
        except Exception:
            return "printing raised:\n" + traceback.format_exc()
        try:
            again = parse_source(first, default_context(allow), "printed.mlir")
        except DiagnosticError as e:
            return f"the printed text does not parse again:\n{e}\n--- printed:\n{first}"
        except Exception:
            return ("re-parsing the printed text raised:\n" + traceback.format_exc() +
                    f"\n--- printed:\n{first}")
        try:
            second = print_op(again, opts)
        except Exception:
            return "printing the re-parsed IR raised:\n" + traceback.format_exc()
        if opts.debuginfo:
            continue  # locations of re-parsed ops are those of the printed text
        if first != second:
            import difflib
            d = "\n".join(difflib.unified_diff(first.splitlines(), second.splitlines(),
                                               "print", "print(parse(print))", lineterm=""))
            return f"printing is not stable ({'generic' if opts.generic else 'custom'}):\n{d}"
    return None


SEEDS = _seeds()


@pytest.mark.parametrize("shard", range(4))
def test_mutants_parse_or_diagnose(shard):
    if not SEEDS:
        pytest.skip("no lit inputs to mutate")
    rng = random.Random(SEED + shard)
    per_shard = max(1, TOTAL // 4)
    failures = []
    for k in range(per_shard):
        name, text, allow = SEEDS[(k * 4 + shard) % len(SEEDS)]
        mutant = text
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            mutant = _mutate(rng, mutant)
        problem = _check(mutant, allow)
        if problem is not None:
            failures.append(f"=== mutant of {name} (allow-unregistered={allow}):\n{mutant}\n"
                            f"--- {problem}")
            if len(failures) >= 5:
                break
    assert not failures, f"{len(failures)} failing mutants:\n\n" + "\n\n".join(failures)


def test_seeds_round_trip():
    """The unmutated inputs themselves print stably."""
    problems = [f"{name}: {p}" for name, text, allow in SEEDS
                if (p := _check(text, allow)) is not None]
    assert not problems, "\n\n".join(problems)
