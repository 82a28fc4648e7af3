"""Passes and pass managers, as in MLIR.

    class CSE(Pass):
        name = "cse"
        summary = "Eliminate common sub-expressions"
        num_cse = Statistic("num-cse'd", "Number of operations CSE'd")
        def run(self, op): ...

A pass runs on one op (its anchor: `anchor = "func.func"`, or None for any op). A
PassManager holds a list of passes and nested pass managers; a nested manager anchored
on `func.func` runs its passes on every `func.func` directly inside the op the parent
manager runs on, like `builtin.module(func.func(cse))`; one anchored on `any` runs on
every directly nested op that is isolated from above and that all its passes accept.

[Note: pass failures]
A pass fails in one of three ways, and each becomes a `PassFailure` carrying a located
diagnostic that names the pass, never a traceback:
  * it signals failure (`self.signal_failure(msg, op)`, or raises DiagnosticError);
  * it raises any other exception: a bug in the pass ("crash");
  * it leaves IR that does not verify ("invalid").
The failure also records the pass and the op it ran on, so that strata-opt can write a
reproducer (the input and the pipeline, see passes/reproducer.py) as mlir-opt does.

[Note: analyses]
Each op a pipeline runs on has an AnalysisManager; `self.get_analysis(Cls)` builds
`Cls(op)` once and caches it. After a pass, every analysis it did not preserve
(`mark_analyses_preserved(Cls)` / `mark_all_analyses_preserved()`) is dropped, on the op
and on everything nested in it; an analysis object may refine this with an
`is_invalidated(preserved)` method returning False to survive.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.core import Operation, UnregisteredOp
from ..errors import StrataError
from ..ir.diagnostics import ERROR, WARNING, Diagnostic, DiagnosticError
from ..ir.frame_room import with_frame_room
from ..ir.gc_pause import gc_paused

__all__ = ["Pass", "Option", "Statistic", "PassManager", "PassFailure", "AnalysisManager",
           "PreservedAnalyses"]


class PassFailure(StrataError):
    """A pass (or the pass manager on its behalf) stopped the pipeline.

    `kind` is "failure" (the pass signalled it), "crash" (the pass raised) or
    "invalid" (the IR did not verify after it); `pass_` and `op` say which pass ran on
    which op (None for failures of the pass manager itself)."""

    def __init__(self, diag: Diagnostic, kind: str = "failure", pass_=None, op=None):
        super().__init__(diag.message)
        self.diag = diag
        self.kind = kind
        self.pass_ = pass_
        self.op = op

    def __str__(self):
        # The whole diagnostic: its location (the ONNX node's name) and its notes (why a
        # lowering refused the op), not only the first line.
        return str(self.diag)


# ---------------------------------------------------------------------- options


class Option:
    """A pass option: `canonicalize{max-iterations=3}` sets `self.max_iterations`.

    `arg` is the spelling in pipelines (default: the attribute name with '-' for '_');
    `choices` restricts the values; `is_list` makes a comma-separated list option."""

    __slots__ = ("type", "default", "help", "attr", "choices", "is_list", "arg")

    def __init__(self, type=str, default=None, help="", choices=None, is_list=False,
                 arg=None):
        self.type = type
        self.default = default
        self.help = help
        self.choices = choices
        self.attr = None
        self.is_list = is_list
        self.arg = arg

    def convert(self, text: str):
        if self.is_list:
            return [self._one(t.strip()) for t in _split_top_level(text) if t.strip()]
        return self._one(text)

    def _one(self, text):
        if self.choices is not None and text not in self.choices:
            raise ValueError(f"'{text}' is not one of: {', '.join(self.choices)}")
        if self.type is bool:
            if text in ("true", "1", "", "True"):
                return True
            if text in ("false", "0", "False"):
                return False
            raise ValueError(f"'{text}' is not a boolean (true or false)")
        if self.type is int:
            try:
                return int(text, 0)
            except ValueError:
                raise ValueError(f"'{text}' is not an integer") from None
        if self.type is float:
            try:
                return float(text)
            except ValueError:
                raise ValueError(f"'{text}' is not a number") from None
        return self.type(text)

    def format(self, value) -> str:
        """`arg=value` as upstream's pass option printer writes it ('' for an empty
        list, which upstream prints as nothing)."""
        if self.is_list:
            if not value:
                return ""
            return f"{self.arg}={{{','.join(_format_scalar(v) for v in value)}}}"
        return f"{self.arg}={_format_scalar(value)}"


def _format_scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    s = str(v)
    # A value with spaces would end the option: upstream wraps it in braces.
    if any(c in s for c in " \t"):
        return "{" + s + "}"
    return s


def _split_top_level(text: str):
    """Split on commas that are not inside braces, brackets, parentheses or quotes."""
    out, depth, cur, quote = [], 0, [], None
    for c in text:
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
            continue
        if c in "\"'":
            quote = c
        elif c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(c)
    out.append("".join(cur))
    return out


class Statistic:
    """A pass statistic, printed by `--mlir-pass-statistics` as `(S) N name - help`."""

    __slots__ = ("name", "help", "attr")

    def __init__(self, name: str, help: str = ""):
        self.name = name
        self.help = help
        self.attr = None


# ---------------------------------------------------------------------- passes


class Pass:
    """Base class of passes. Subclasses set `name` (the pipeline argument), `summary`,
    `anchor` (an op name, or None for any op), Option and Statistic class attributes,
    and implement `run(op)`. `initialize()` runs once before a pipeline runs (collect
    patterns there, not in `run`)."""

    name = "<pass>"
    summary = ""
    anchor: str | None = None
    # The C++-style class name upstream prints in IR dumps and reports (`CSEPass`);
    # by default the class name with a `Pass` suffix.
    display_name: str | None = None

    def __init__(self, **options):
        self.statistics: dict[str, int] = {s.name: 0 for s in self.statistic_defs()}
        self.analyses: AnalysisManager | None = None
        self._preserved = None
        self.instrumentation = None
        for attr, opt in self.option_defs().items():
            d = opt.default
            setattr(self, attr, list(d) if isinstance(d, list) else d)
        for k, v in options.items():
            attr = k.replace("-", "_")
            if attr not in self.option_defs():
                raise ValueError(f"pass '{self.name}' has no option '{k}'")
            setattr(self, attr, v)

    # -- declarations
    @classmethod
    def option_defs(cls) -> dict[str, Option]:
        out = {}
        for klass in reversed(cls.__mro__):
            for k, v in vars(klass).items():
                if isinstance(v, Option):
                    v.attr = k
                    if v.arg is None:
                        v.arg = k.replace("_", "-")
                    out[k] = v
        return out

    @classmethod
    def statistic_defs(cls) -> list[Statistic]:
        out = {}
        for klass in reversed(cls.__mro__):
            for k, v in vars(klass).items():
                if isinstance(v, Statistic):
                    v.attr = k
                    out[v.name] = v
        return list(out.values())

    @classmethod
    def pass_display_name(cls) -> str:
        if cls.display_name:
            return cls.display_name
        n = cls.__name__
        return n if n.endswith("Pass") else n + "Pass"

    @classmethod
    def from_options_text(cls, text: str) -> "Pass":
        from .pipeline import parse_options
        defs = {o.arg: o for o in cls.option_defs().values()}
        kw = {}
        for key, value in parse_options(text):
            opt = defs.get(key)
            if opt is None:
                raise ValueError(f"no such option '{key}' for pass '{cls.name}'")
            try:
                kw[opt.attr] = opt.convert(value)
            except ValueError as e:
                raise ValueError(f"invalid value for option '{key}' of pass "
                                 f"'{cls.name}': {e}") from None
        return cls(**kw)

    def options_text(self) -> str:
        """`{a=1 b=true}` with every option, sorted by name, as upstream prints."""
        defs = sorted(self.option_defs().values(), key=lambda o: o.arg)
        if not defs:
            return ""
        return "{" + " ".join(o.format(getattr(self, o.attr)) for o in defs) + "}"

    def pipeline_text(self) -> str:
        return self.name + self.options_text()

    def can_schedule_on(self, op: Operation) -> bool:
        return self.anchor is None or op.name == self.anchor

    def initialize(self) -> None:
        """Called once before the pipeline runs; may raise PassFailure."""

    def run(self, op: Operation) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- analyses
    def get_analysis(self, analysis_cls, op: Operation | None = None):
        """The analysis `analysis_cls(op)` (op: the one the pass runs on, or nested)."""
        return self.analyses.get(analysis_cls, op)

    def get_cached_analysis(self, analysis_cls):
        return self.analyses.get_cached(analysis_cls)

    def get_cached_parent_analysis(self, analysis_cls):
        return self.analyses.get_cached_parent(analysis_cls)

    def mark_all_analyses_preserved(self):
        self._preserved = PreservedAnalyses.ALL

    def mark_analyses_preserved(self, *classes):
        if self._preserved is PreservedAnalyses.ALL:
            return
        self._preserved = frozenset(classes) | (self._preserved or frozenset())

    # -- results
    def signal_failure(self, message: str | None = None, op: Operation | None = None):
        """Stop the pipeline with an error at `op` (default: the op the pass runs on)."""
        raise PassFailure(Diagnostic(ERROR, op.loc if op is not None else None,
                                     message or f"pass '{self.name}' failed"))

    def emit_warning(self, message: str, op: Operation | None = None):
        """A warning that does not stop the pipeline (shown after the pass)."""
        d = Diagnostic(WARNING, op.loc if op is not None else None, message)
        inst = self.instrumentation
        if inst is not None and inst.diagnostic_handler is not None:
            inst.diagnostic_handler(d)
        else:
            import sys
            sys.stderr.write(d.render(None) + "\n")

    def stat(self, name: str, n: int = 1):
        self.statistics[name] = self.statistics.get(name, 0) + n

    def run_pipeline(self, pm: "PassManager", op: Operation) -> None:
        """Run pipeline `pm` (anchored on `op`'s name) on `op` from inside `run`, as
        upstream's dynamic pipelines (Pass::runPipeline): the same instrumentation,
        verification after each pass; failures raise PassFailure."""
        from .instrumentation import Instrumentation
        inst = self.instrumentation or Instrumentation()
        for p in pm.all_passes():
            if p.instrumentation is None:
                p.instrumentation = inst
        pm._run_on(op, inst, AnalysisManager(op, instrumentation=inst),
                   pm.verify_each and inst.verify_each)


class _All:
    def __repr__(self):
        return "PreservedAnalyses.ALL"


class PreservedAnalyses:
    """`ALL`, or a frozenset of preserved analysis classes (None: nothing)."""
    ALL = _All()


# ---------------------------------------------------------------------- analyses


class AnalysisManager:
    """Caches analyses of one op and holds the managers of ops nested in it."""

    __slots__ = ("op", "parent", "_cache", "_children", "instrumentation")

    def __init__(self, op: Operation | None = None, parent=None, instrumentation=None):
        self.op = op
        self.parent = parent
        self._cache: dict = {}
        self._children: dict = {}
        self.instrumentation = instrumentation

    def nest(self, op: Operation) -> "AnalysisManager":
        am = self._children.get(op)
        if am is None:
            am = self._children[op] = AnalysisManager(op, self, self.instrumentation)
        return am

    def get(self, analysis_cls, op: Operation | None = None):
        if op is not None and op is not self.op:
            chain = []
            o = op
            while o is not None and o is not self.op:
                chain.append(o)
                o = o.parent_op
            if o is None:
                raise ValueError(f"'{op.name}' is not nested in the op of this analysis "
                                 "manager")
            am = self
            for o in reversed(chain):
                am = am.nest(o)
            return am.get(analysis_cls)
        a = self._cache.get(analysis_cls)
        if a is None:
            inst = self.instrumentation
            if inst is not None:
                inst.before_analysis(analysis_cls, self.op)
            a = self._cache[analysis_cls] = analysis_cls(self.op)
            if inst is not None:
                inst.after_analysis(analysis_cls, self.op)
        return a

    def get_cached(self, analysis_cls):
        return self._cache.get(analysis_cls)

    def get_cached_parent(self, analysis_cls):
        am = self.parent
        while am is not None:
            a = am._cache.get(analysis_cls)
            if a is not None:
                return a
            am = am.parent
        return None

    def invalidate(self, preserved) -> None:
        if preserved is PreservedAnalyses.ALL:
            return
        keep = preserved or frozenset()
        new = {}
        for cls, a in self._cache.items():
            if cls in keep:
                new[cls] = a
                continue
            check = getattr(a, "is_invalidated", None)
            if check is not None and not check(keep):
                new[cls] = a
        self._cache = new
        if not keep:
            self._children.clear()
        else:
            for am in self._children.values():
                am.invalidate(keep)


# ---------------------------------------------------------------------- managers


class PassManager:
    """An ordered list of passes and nested pass managers anchored on one op name
    (None: `any`, every op isolated from above that its passes accept)."""

    def __init__(self, anchor: str | None = "builtin.module", passes=()):
        self.anchor = anchor
        self.passes: list = []
        self.verify_each = True
        self.instrumentation = None
        for p in passes:
            self.add(p)

    def add(self, p, nest_implicitly: bool = False) -> "PassManager":
        """Append a pass (or a nested PassManager). A pass anchored on another op than
        this manager's is an error, or with `nest_implicitly` goes into a nested manager
        (reusing the last one when it has the same anchor, as mlir-opt's flags do)."""
        if isinstance(p, Pass) and p.anchor is not None and self.anchor is not None \
                and p.anchor != self.anchor:
            if not nest_implicitly:
                raise ValueError(
                    f"Can't add pass '{p.pass_display_name()}' restricted to "
                    f"'{p.anchor}' on a PassManager intended to run on '{self.anchor}', "
                    "did you intend to nest?")
            last = self.passes[-1] if self.passes else None
            if isinstance(last, PassManager) and last.anchor == p.anchor:
                last.add(p)
            else:
                self.nest(p.anchor).add(p)
            return self
        self.passes.append(p)
        return self

    def nest(self, anchor: str | None) -> "PassManager":
        pm = PassManager(anchor)
        self.passes.append(pm)
        return pm

    def all_passes(self):
        """Every pass, depth first, in pipeline order."""
        for p in self.passes:
            if isinstance(p, PassManager):
                yield from p.all_passes()
            else:
                yield p

    @property
    def anchor_text(self) -> str:
        return self.anchor or "any"

    def pipeline_text(self) -> str:
        inner = ",".join(p.pipeline_text() for p in self.passes)
        return f"{self.anchor_text}({inner})"

    def dump_text(self, indent: str = "") -> str:
        """The pipeline one element a line, as `mlir-opt --dump-pass-pipeline`."""
        lines = [indent + self.anchor_text + "("]
        for i, p in enumerate(self.passes):
            comma = "," if i + 1 < len(self.passes) else ""
            if isinstance(p, PassManager):
                lines.append(p.dump_text(indent + "  ") + comma)
            else:
                lines.append(indent + "  " + p.pipeline_text() + comma)
        lines.append(indent + ")")
        return "\n".join(lines)

    def __str__(self):
        return self.pipeline_text()

    def can_schedule_on(self, op: Operation) -> bool:
        if self.anchor is not None:
            return op.name == self.anchor
        if type(op) is UnregisteredOp or T.IsolatedFromAbove not in type(op).traits:
            return False
        return all(p.can_schedule_on(op) for p in self.passes
                   if not isinstance(p, PassManager))

    # ------------------------------------------------------------------ running

    def run(self, op: Operation, instrumentation=None) -> None:
        """Run the pipeline on `op`. Raises PassFailure with a diagnostic on failure."""
        if self.anchor is not None and op.name != self.anchor:
            raise PassFailure(Diagnostic(
                ERROR, op.loc, f"can't run '{self.anchor}' pass manager on '{op.name}' op"))
        if self.anchor is None:
            for p in self.passes:
                if isinstance(p, Pass) and not p.can_schedule_on(op):
                    raise PassFailure(Diagnostic(
                        ERROR, op.loc, f"can't run 'any' pass manager on '{op.name}' op: "
                        f"pass '{p.name}' is anchored on '{p.anchor}'"))
        from .instrumentation import Instrumentation
        inst = instrumentation or self.instrumentation or Instrumentation()
        inst.root = op
        inst.pipeline = self
        for p in self.all_passes():
            p.instrumentation = inst
            try:
                p.initialize()
            except PassFailure as e:
                raise PassFailure(_with_pass(e.diag, p), "failure", p, op) from None
            except DiagnosticError as e:
                raise PassFailure(_with_pass(e.diag, p), "failure", p, op) from None
            except Exception as e:  # a bug in the pass: report it, do not crash
                raise PassFailure(Diagnostic(
                    ERROR, op.loc, f"pass '{p.name}' failed to initialize with an internal "
                    f"error: {type(e).__name__}: {e}"), "crash", p, op) from e
        try:
            # [Note: frame-stack room] (ir/frame_room.py): the passes' calls never
            # straddle a chunk boundary, however deep the caller (torch.compile) is
            with_frame_room(self._run_on, op, inst,
                            AnalysisManager(op, instrumentation=inst),
                            self.verify_each and inst.verify_each)
        finally:
            inst.finish(self)

    def _run_on(self, op, inst, analyses, verify) -> bool:
        """Run on `op` (verifying after each pass when `verify`: the root manager's
        setting holds for the nested ones); returns True when every pass preserved all
        analyses."""
        all_preserved = True
        for p in self.passes:
            if isinstance(p, PassManager):
                children = _children_for(op, p)
                inst.before_pipeline(p, op)
                try:
                    for child in children:
                        all_preserved &= p._run_on(child, inst, analyses.nest(child),
                                                   verify)
                finally:
                    inst.after_pipeline(p, op)
                if not all_preserved:
                    analyses.invalidate(None)
                continue
            if not p.can_schedule_on(op):
                raise PassFailure(Diagnostic(
                    ERROR, op.loc, f"pass '{p.name}' can't run on '{op.name}': it is "
                    f"anchored on '{p.anchor}'"), "failure", p, op)
            p.analyses = analyses
            p._preserved = None
            inst.before_pass(p, op)
            try:
                # Passes allocate and drop IR in bulk; the cyclic collector would rescan
                # the whole live module again and again (see ir/gc_pause.py).
                with gc_paused():
                    p.run(op)
            except PassFailure as e:
                inst.after_pass_failed(p, op)
                raise PassFailure(_with_pass(e.diag, p), "failure", p, op) from None
            except DiagnosticError as e:
                inst.after_pass_failed(p, op)
                raise PassFailure(_with_pass(e.diag, p), "failure", p, op) from None
            except RecursionError:
                inst.after_pass_failed(p, op)
                raise PassFailure(Diagnostic(ERROR, op.loc,
                                             f"pass '{p.name}' failed: recursion too deep"),
                                  "crash", p, op) from None
            except Exception as e:  # a bug in the pass: report it, do not crash
                inst.after_pass_failed(p, op)
                d = Diagnostic(ERROR, op.loc, f"pass '{p.name}' failed with an internal "
                               f"error: {type(e).__name__}: {e}")
                where = _raised_at(e)
                if where:
                    d.attach_note(f"the exception was raised at {where}", op.loc)
                raise PassFailure(d, "crash", p, op) from e
            if verify:
                try:
                    op.verify()
                except DiagnosticError as e:
                    inst.after_pass_failed(p, op)
                    d = e.diag
                    d.attach_note(f"the IR is invalid after pass '{p.name}'", op.loc)
                    raise PassFailure(d, "invalid", p, op) from None
                except RecursionError:
                    inst.after_pass_failed(p, op)
                    raise PassFailure(Diagnostic(
                        ERROR, op.loc, f"the IR is too deeply nested to verify after "
                        f"pass '{p.name}'"), "invalid", p, op) from None
            inst.after_pass(p, op)
            preserved = p._preserved
            analyses.invalidate(preserved)
            all_preserved &= preserved is PreservedAnalyses.ALL
        return all_preserved


def _with_pass(diag: Diagnostic, p: Pass) -> Diagnostic:
    if not any(n.message.startswith("while running pass") for n in diag.notes):
        diag.attach_note(f"while running pass '{p.name}'", diag.loc)
    return diag


def _children_for(op: Operation, pm: PassManager):
    """Ops directly nested in `op`'s regions that the nested manager `pm` runs on."""
    out = []
    for r in op.regions:
        for b in r.blocks:
            for child in b.ops:
                if pm.anchor is None:
                    if pm.can_schedule_on(child):
                        out.append(child)
                elif child.name == pm.anchor:
                    if type(child) is UnregisteredOp or \
                            T.IsolatedFromAbove not in type(child).traits:
                        raise PassFailure(Diagnostic(
                            ERROR, child.loc, f"'{child.name}' op trying to schedule a pass "
                            "on an operation not marked as 'IsolatedFromAbove'"))
                    out.append(child)
    return out


def op_description(op: Operation) -> str:
    """`'func.func' operation: @f` (the symbol name when there is one)."""
    sym = op._props.get("sym_name") or op._attrs.get("sym_name")
    if sym is not None and hasattr(sym, "value"):
        return f"'{op.name}' operation: @{sym.value}"
    return f"'{op.name}' operation"


def _raised_at(e: BaseException) -> str:
    """`file.py:12 in run()`: the innermost frame of an exception's traceback."""
    import os
    import traceback
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}()"
