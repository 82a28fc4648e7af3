"""Strata's PyTorch import against torch-mlir's FxImporter, at scale.

For each ExportedProgram below, Strata's module (`import_program(ep, decompose=False)`)
and FxImporter's (`FxImporter().import_frozen_program(ep,
import_symbolic_shape_expressions=True)`) are printed generically with local scope
(`--mlir-print-op-generic --mlir-print-local-scope`, here through the MLIR Python
bindings that ship with iree-base-compiler, the same printer as iree-opt's; `--iree-opt`
pipes each pair through the iree-opt binary instead) and compared, modulo the names of
resource blobs (renamed in order of first use, their contents compared):

- `opinfo`: every float32 sample the OpInfo runner counts (tests/e2e/torch_opinfo_runner.py:
  its samples, its module wrapping each call, its core-opset verdict), each program as
  torch.export gives it (`raw`, the training IR) and after `run_decompositions()` (`dec`);
- `programs`: the programs of test_torch_import_referee.py (dynamic shapes, scalars, lists,
  buffers, constants, in-place ops, dtypes and literals...), raw and decomposed;
- `models`: the torch models of tests/e2e/test_torch_models.py (ResNet-50, MobileNetV3,
  ViT-B/16, ConvNeXt-T, BERT-base, GPT-2, a 4-layer Llama), decomposed (slow: `--models`).

A case is `pass`, `differ` (the first differing line of each side is shown), `strata`
(Strata's import raised: FxImporter imported the program), `both` (both importers failed:
not counted against Strata), `referee` (only FxImporter failed: counted as Strata's win),
or `skip` (the OpInfo runner does not count the sample).

    python tests/e2e/frontends/torch/torch_import_referee_runner.py            # programs
    python tests/e2e/frontends/torch/torch_import_referee_runner.py --opinfo --shard 1/4
    python tests/e2e/frontends/torch/torch_import_referee_runner.py --opinfo -k 'conv|norm' -v
    python tests/e2e/frontends/torch/torch_import_referee_runner.py --models

Prints the pass counts per family and stage, and each differing or failing case.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
E2E = HERE.parents[1]
for p in (str(HERE), str(E2E)):
    if p not in sys.path:
        sys.path.insert(0, p)

STAGES = ("raw", "dec")


def _referee_text(ep):
    """FxImporter's module as text, or raises."""
    from iree.compiler.extras import fx_importer
    imp = fx_importer.FxImporter()
    imp.import_frozen_program(ep, import_symbolic_shape_expressions=True)
    return imp.module.operation.get_asm()


def _reparsed(text: str) -> str:
    """`text` parsed in a fresh context with the torch dialect, printed generically: what
    iree-opt prints for it (an empty blob loses its alignment on the way, as there)."""
    from iree.compiler import ir
    from iree.compiler.extras import fx_importer
    return _generic(ir.Module.parse(text, fx_importer.FxImporter()._c).operation)


def _generic(operation) -> str:
    """An MLIR operation printed as `iree-opt --mlir-print-op-generic
    --mlir-print-local-scope` prints it, resources included."""
    body = operation.get_asm(print_generic_op_form=True, use_local_scope=True)
    if "{-#" not in body:
        full = operation.get_asm()
        if "{-#" in full:
            body += "{-#" + full.partition("{-#")[2]
    return body


def _normalize(text):
    from test_torch_import_referee import normalize
    return normalize(text)


def compare(ep, iree_opt: bool = False):
    """(status, detail) of Strata's import of `ep` against FxImporter's. Strata imports
    first: FxImporter erases the program's lifted placeholders."""
    from strata.frontends.torch import import_program
    from strata.syntax.printer import PrintOptions, print_op
    ours = err = None
    try:
        ours = print_op(import_program(ep, decompose=False), PrintOptions(generic=True))
    except Exception as e:  # noqa: BLE001 - reported
        err = f"{type(e).__name__}: {e}"
    try:
        theirs = _referee_text(ep)
    except Exception as e:  # noqa: BLE001 - reported
        return ("both", err) if err else ("referee", f"{type(e).__name__}: {e}"[:300])
    if err:
        try:
            _reparsed(theirs)
        except Exception:  # noqa: BLE001 - upstream's verifier refuses the referee's own
            return "both", err[:300]
        return "strata", err[:300]
    try:
        if iree_opt:
            from test_torch_import_referee import iree_generic
            ours_g, theirs = iree_generic(ours), iree_generic(theirs)
        else:
            ours_g, theirs = _reparsed(ours), _reparsed(theirs)
    except Exception as e:  # noqa: BLE001 - upstream's parser refused Strata's text
        return "differ", f"upstream cannot parse Strata's module: {str(e)[:300]}"
    try:
        a, b = _normalize(ours_g), _normalize(theirs)
    except AssertionError as e:
        return "differ", f"resources: {e}"
    if a == b:
        return "pass", ""
    return "differ", _first_difference(a, b)


def _first_difference(a, b) -> str:
    if a[0] != b[0]:
        la, lb = a[0].splitlines(), b[0].splitlines()
        for i, (x, y) in enumerate(zip(la, lb)):
            if x != y:
                return f"line {i}:\n  strata:  {x.strip()}\n  referee: {y.strip()}"
        return f"{len(la)} lines, referee {len(lb)}"
    diff = [k for k in a[1] if a[1][k] != b[1].get(k)]
    return f"blob contents differ: {diff[:5]}"


# ---------------------------------------------------------------- cases

def program_cases(pattern=None):
    """(name, thunk -> (raw ep, decomposed ep)) of the referee test's programs."""
    import torch
    import test_torch_import_referee as R
    progs = R._programs()
    for name, (model, args, dyn) in progs.items():
        if pattern and not re.search(pattern, name):
            continue

        def make(model=model, args=args, dyn=dyn, name=name):
            ep = torch.export.export(model, args, R.KWARGS.get(name), dynamic_shapes=dyn)
            return ep, ep.run_decompositions()
        yield f"programs/{name}", make


def opinfo_cases(pattern=None, shard=(0, 1), start=0):
    """(name, thunk) of every OpInfo sample the OpInfo runner counts (of the ops from
    index `start` on); the thunk returns None for a sample it does not count."""
    import torch
    import torch_opinfo_runner as O
    ops = O.load_ops()
    k, n = shard
    for index in range(k, len(ops), n):
        if index < start:
            continue
        op = ops[index]
        key = O.op_key(op)
        if pattern and not re.search(pattern, key):
            continue
        try:
            cases = O.samples(op)
        except Exception:  # noqa: BLE001 - OpInfo's own generator failed: not counted
            continue
        for si, sample in enumerate(cases):
            def make(op=op, sample=sample):
                module, inputs = O._wrap(op, sample)
                try:
                    with torch.no_grad():
                        expected = module(*[t.clone() for t in inputs])
                except Exception:  # noqa: BLE001
                    return None
                if not expected or op.name.split(".")[-1].startswith(("empty",
                                                                      "new_empty")):
                    return None
                try:
                    raw = torch.export.export(module, inputs)
                    dec = raw.run_decompositions()
                except Exception:  # noqa: BLE001
                    return None
                if O._graph_verdict(dec):
                    return None
                return raw, dec
            yield f"opinfo/{key.replace(' ', ':')}/{si}", make


def model_cases(pattern=None):
    """(name, thunk) of the models of tests/e2e/test_torch_models.py (decomposed only:
    each is a big program)."""
    import torch
    sys.path.insert(0, str(E2E.parents[1] / "bench"))
    import os
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import test_torch_models as M
    from torch_architectures import VISION
    builders = {name: VISION[name] for name in sorted(VISION)}
    for build in (M.bert_base, M.gpt2, M.llama_4_layers):
        def lm(build=build):
            model, vocab = build("sdpa")
            args, kwargs = M._text_inputs(vocab)
            return model, args, kwargs
        builders[build.__name__] = lm
    for name, build in builders.items():
        if pattern and not re.search(pattern, name):
            continue

        def make(build=build):
            got = build()
            model, args, kwargs = got if len(got) == 3 else (*got, None)
            ep = torch.export.export(model, tuple(args), kwargs)
            return None, ep.run_decompositions()
        yield f"models/{name}", make


# ---------------------------------------------------------------- running

def run(cases, verbose=False, iree_opt=False, stages=STAGES, out=None):
    """Run (name, thunk) cases; returns [(name, stage, status, detail)] (appended to
    `out` as they come, when given)."""
    import torch
    out = [] if out is None else out
    for name, make in cases:
        t0 = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                eps = make()
            except Exception as e:  # noqa: BLE001
                out.append((name, "-", "export", f"{type(e).__name__}: {e}"[:200]))
                continue
            if eps is None:
                out.append((name, "-", "skip", ""))
                continue
            for stage, ep in zip(STAGES, eps):
                if ep is None or stage not in stages:
                    continue
                status, detail = compare(ep, iree_opt)
                out.append((name, stage, status, detail))
                if verbose or status not in ("pass", "skip"):
                    print(f"{status:8} {name} [{stage}] ({time.process_time() - t0:.1f} s)"
                          + (f"\n    {detail}" if detail else ""), flush=True)
        torch._dynamo.reset()
    return out


def summary(results) -> str:
    lines = []
    fams = sorted({r[0].split("/")[0] for r in results})
    for fam in fams:
        for stage in STAGES:
            rs = [r for r in results if r[0].split("/")[0] == fam and r[1] == stage]
            if not rs:
                continue
            c = Counter(r[2] for r in rs)
            counted = len(rs) - c["both"]
            ok = c["pass"] + c["referee"]
            lines.append(f"{fam:9} {stage}: {ok}/{counted} same as FxImporter "
                         f"({100.0 * ok / max(counted, 1):.1f}%)  " +
                         ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
        sk = sum(1 for r in results if r[0].split("/")[0] == fam and r[2] in ("skip",
                                                                             "export"))
        if sk:
            lines.append(f"{fam:9} not counted (the OpInfo runner skips them): {sk}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--opinfo", action="store_true", help="the OpInfo samples")
    p.add_argument("--models", action="store_true", help="the torch models (slow)")
    p.add_argument("--no-programs", action="store_true", help="skip the referee's programs")
    p.add_argument("-k", default=None, help="a regex on the case names")
    p.add_argument("--shard", default="0/1", help="k/n: OpInfo ops k, k+n, ... (1-based k)")
    p.add_argument("--start", type=int, default=0, help="OpInfo ops from this index on")
    p.add_argument("--stage", choices=STAGES, action="append", help="raw and/or dec")
    p.add_argument("--iree-opt", action="store_true", help="print through iree-opt")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    k, n = (int(x) for x in a.shard.split("/"))
    cases = []
    if not a.no_programs:
        cases.append(program_cases(a.k))
    if a.opinfo:
        cases.append(opinfo_cases(a.k, (max(k - 1, 0), n), a.start))
    if a.models:
        cases.append(model_cases(a.k))
    results = []
    try:
        for c in cases:
            run(c, a.verbose, a.iree_opt, tuple(a.stage or STAGES), results)
    except KeyboardInterrupt:  # the counts so far
        print("interrupted", flush=True)
    print(summary(results))
    return 0 if all(r[2] in ("pass", "skip", "both", "referee", "export")
                    for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
