"""Passes and pass managers, as in MLIR.

    class CSE(Pass):
        name = "cse"
        summary = "Eliminate common sub-expressions"
        def run(self, op): ...

A pass runs on one op (its anchor: `anchor = "func.func"`, or None for any op). A
PassManager holds a list of passes and nested pass managers; a nested manager anchored
on `func.func` runs its passes on every `func.func` directly inside the op the parent
manager runs on, like `builtin.module(func.func(cse))`. After each pass the IR is
verified (unless turned off); a pass that raises or leaves invalid IR produces a
diagnostic naming the pass and a reproducer, never a traceback.
"""
from __future__ import annotations

import time

from ..ir.core import Operation
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError

__all__ = ["Pass", "Option", "PassManager", "PassFailure", "AnalysisManager"]


class PassFailure(Exception):
    """Raised by a pass (or on its behalf) to stop the pipeline with a diagnostic."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


class Option:
    """A pass option: `canonicalize{max-iterations=3}` sets `max_iterations`."""

    __slots__ = ("type", "default", "help", "attr", "choices", "is_list")

    def __init__(self, type=str, default=None, help="", choices=None, is_list=False):
        self.type = type
        self.default = default
        self.help = help
        self.choices = choices
        self.attr = None
        self.is_list = is_list

    def convert(self, text: str):
        if self.is_list:
            return [self._one(t) for t in text.split(",") if t]
        return self._one(text)

    def _one(self, text):
        if self.choices is not None and text not in self.choices:
            raise ValueError(f"'{text}' is not one of {', '.join(self.choices)}")
        if self.type is bool:
            if text in ("true", "1", ""):
                return True
            if text in ("false", "0"):
                return False
            raise ValueError(f"'{text}' is not a boolean")
        if self.type is int:
            return int(text, 0)
        return self.type(text)


class Pass:
    """Base class of passes. Subclasses set `name` (the pipeline argument), `summary`,
    `anchor` (an op name, or None for any op) and Option class attributes, and
    implement `run(op)`. Statistics go in `self.statistics` (name -> int)."""

    name = "<pass>"
    summary = ""
    anchor: str | None = None

    def __init__(self, **options):
        self.statistics: dict[str, int] = {}
        self.analyses = None
        self._preserved = None
        for attr, opt in self.option_defs().items():
            setattr(self, attr, opt.default)
        for k, v in options.items():
            attr = k.replace("-", "_")
            if attr not in self.option_defs():
                raise ValueError(f"pass '{self.name}' has no option '{k}'")
            setattr(self, attr, v)

    @classmethod
    def option_defs(cls) -> dict[str, Option]:
        out = {}
        for klass in reversed(cls.__mro__):
            for k, v in vars(klass).items():
                if isinstance(v, Option):
                    out[k] = v
        return out

    @classmethod
    def from_options_text(cls, text: str) -> "Pass":
        from .pipeline import parse_options
        defs = cls.option_defs()
        kw = {}
        for key, value in parse_options(text):
            attr = key.replace("-", "_")
            opt = defs.get(attr)
            if opt is None:
                raise ValueError(f"no such option '{key}' for pass '{cls.name}'")
            try:
                kw[attr] = opt.convert(value)
            except ValueError as e:
                raise ValueError(f"invalid value for option '{key}' of pass '{cls.name}': {e}")
        return cls(**kw)

    def options_text(self) -> str:
        parts = []
        for attr, opt in self.option_defs().items():
            v = getattr(self, attr)
            if isinstance(v, bool):
                v = "true" if v else "false"
            elif isinstance(v, (list, tuple)):
                v = ",".join(map(str, v))
            parts.append(f"{attr.replace('_', '-')}={v}")
        return "{" + " ".join(parts) + "}" if parts else ""

    def pipeline_text(self) -> str:
        return self.name + self.options_text()

    def can_run_on(self, op: Operation) -> bool:
        return self.anchor is None or op.name == self.anchor

    def run(self, op: Operation) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- analyses
    def get_analysis(self, analysis_cls, op: Operation | None = None):
        return self.analyses.get(analysis_cls, op)

    def mark_all_analyses_preserved(self):
        self._preserved = "all"

    def mark_analyses_preserved(self, *classes):
        if self._preserved != "all":
            self._preserved = set(classes) | (self._preserved or set())

    def signal_failure(self, message: str, op: Operation | None = None):
        raise PassFailure(Diagnostic(ERROR, op.loc if op is not None else None, message))

    def stat(self, name: str, n: int = 1):
        self.statistics[name] = self.statistics.get(name, 0) + n


class AnalysisManager:
    """Caches analyses per op; a pass run invalidates all but what it preserved."""

    def __init__(self):
        self._cache: dict = {}

    def get(self, analysis_cls, op):
        key = (analysis_cls, id(op))
        a = self._cache.get(key)
        if a is None:
            a = self._cache[key] = (analysis_cls(op), op)
        return a[0]

    def invalidate(self, preserved):
        if preserved == "all":
            return
        keep = preserved or set()
        self._cache = {k: v for k, v in self._cache.items() if k[0] in keep}


class PassManager:
    """An ordered list of passes and nested pass managers anchored on one op name."""

    def __init__(self, anchor: str | None = "builtin.module", passes=()):
        self.anchor = anchor
        self.passes: list = list(passes)
        self.verify_each = True
        self.instrumentation = None

    def add(self, p) -> "PassManager":
        self.passes.append(p)
        return self

    def nest(self, anchor: str) -> "PassManager":
        pm = PassManager(anchor)
        self.passes.append(pm)
        return pm

    def pipeline_text(self) -> str:
        inner = ",".join(p.pipeline_text() for p in self.passes)
        return f"{self.anchor or 'any'}({inner})"

    def __str__(self):
        return self.pipeline_text()

    # ------------------------------------------------------------------ running

    def run(self, op: Operation, instrumentation=None) -> None:
        """Run the pipeline on `op`. Raises PassFailure with a diagnostic on failure."""
        if self.anchor is not None and op.name != self.anchor:
            raise PassFailure(Diagnostic(
                ERROR, op.loc, f"can't run '{self.anchor}' pass manager on '{op.name}' op"))
        inst = instrumentation or self.instrumentation
        from .instrumentation import Instrumentation
        inst = inst or Instrumentation()
        inst.root = op
        inst.pipeline = self.pipeline_text()
        self._run_on(op, inst, AnalysisManager())
        inst.finish()

    def _run_on(self, op, inst, analyses):
        for p in self.passes:
            if isinstance(p, PassManager):
                for child in _children_anchored(op, p.anchor):
                    p._run_on(child, inst, AnalysisManager())
                continue
            if not p.can_run_on(op):
                raise PassFailure(Diagnostic(
                    ERROR, op.loc, f"pass '{p.name}' can't run on '{op.name}': it is "
                    f"anchored on '{p.anchor}'"))
            p.analyses = analyses
            p._preserved = None
            inst.before(p, op)
            t0 = time.perf_counter()
            try:
                p.run(op)
            except PassFailure as e:
                inst.failed(p, op)
                raise PassFailure(_with_pass(e.diag, p))
            except DiagnosticError as e:
                inst.failed(p, op)
                raise PassFailure(_with_pass(e.diag, p))
            except RecursionError:
                inst.failed(p, op)
                raise PassFailure(Diagnostic(ERROR, op.loc,
                                             f"pass '{p.name}' failed: recursion too deep"))
            except Exception as e:  # a bug in the pass: report it, do not crash
                inst.failed(p, op)
                raise PassFailure(Diagnostic(
                    ERROR, op.loc, f"pass '{p.name}' failed with an internal error: "
                    f"{type(e).__name__}: {e}"), ) from e
            inst.after(p, op, time.perf_counter() - t0)
            analyses.invalidate(p._preserved)
            if self.verify_each and inst.verify_each:
                try:
                    op.verify()
                except DiagnosticError as e:
                    inst.failed(p, op)
                    d = e.diag
                    d.attach_note(f"the IR is invalid after pass '{p.name}'", op.loc)
                    raise PassFailure(d)


def _with_pass(diag: Diagnostic, p: Pass) -> Diagnostic:
    if not any(n.message.startswith("while running pass") for n in diag.notes):
        diag.attach_note(f"while running pass '{p.name}'", diag.loc)
    return diag


def _children_anchored(op: Operation, anchor):
    """Ops directly nested in `op`'s regions that a nested pass manager runs on."""
    out = []
    for r in op.regions:
        for b in r.blocks:
            for child in b.ops:
                if anchor is None or child.name == anchor:
                    out.append(child)
    return out
