"""Diagnostics: errors, warnings and remarks with locations and attached notes.

A diagnostic is rendered like MLIR and Clang:

    input.mlir:3:8: error: 'arith.addi' op requires the same type for all operands
      %0 = arith.addi %a, %b : i32
           ^

`SourceManager` knows the text of every buffer so that it can show the line and caret;
`VerifyDiagnostics` implements `--verify-diagnostics` (expected-error annotations).
"""
from __future__ import annotations

import re

from ..errors import StrataError
from .attributes import escape_string
from .location import CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc, UnknownLoc

__all__ = ["ERROR", "WARNING", "REMARK", "NOTE", "Diagnostic", "DiagnosticError",
           "SourceManager", "VerifyDiagnostics", "DiagnosticEngine"]

ERROR, WARNING, REMARK, NOTE = "error", "warning", "remark", "note"


class Diagnostic:
    __slots__ = ("severity", "loc", "message", "notes", "op")

    def __init__(self, severity: str, loc: Location | None, message: str, notes=None):
        self.severity = severity
        self.loc = loc if loc is not None else UnknownLoc()
        self.message = message
        self.notes = list(notes) if notes else []
        # The op the diagnostic is about, when an op emitted it: strata-opt then adds
        # mlir-opt's "see current operation: <generic form>" note.
        self.op = None

    def attach_note(self, message: str, loc: Location | None = None) -> "Diagnostic":
        self.notes.append(Diagnostic(NOTE, loc if loc is not None else self.loc, message))
        return self

    def __str__(self):
        return self.render(None)

    def render(self, sources: "SourceManager | None") -> str:
        out = [_render_one(self, sources)]
        prev = _resolved(self.loc)
        for n in self.notes:
            # Like mlir-opt, a note repeats the source line only where it moved (a
            # further error riding along always shows it).
            loc = _resolved(n.loc)
            out.append(_render_one(n, sources if loc != prev or n.severity != NOTE
                                   else None))
            prev = loc
        return "\n".join(out)


def _resolved(loc):
    return loc.resolve() if hasattr(loc, "resolve") else loc


def _render_one(d: Diagnostic, sources) -> str:
    flc = d.loc.file_line_col()
    if flc is None:
        return f"{_loc_prefix(d.loc)}{d.severity}: {d.message}"
    if flc.line == 0:
        # Line 0 is the file as a whole (an ONNX model has no lines: the importer fuses
        # each node's name with `model.onnx:0:0`); the names say where in it.
        names = _names(d.loc, [])
        if names:
            at = ", ".join(f'"{escape_string(n)}"' for n in names)
            return f"{flc.filename}: at {at}: {d.severity}: {d.message}"
    head = f"{flc.filename}:{flc.line}:{flc.col}: {d.severity}: {d.message}"
    if sources is not None:
        line = sources.line_text(flc.filename, flc.line)
        if line is not None:
            caret = " " * max(flc.col - 1, 0) + "^"
            return f"{head}\n{line}\n{caret}"
    return head


def _names(loc, out):
    """The names of the NameLocs in `loc` (fused ones in order; a call site's callee)."""
    if isinstance(loc, NameLoc):
        out.append(loc.name)
    elif isinstance(loc, FusedLoc):
        for part in loc.locations:
            _names(part, out)
    elif isinstance(loc, CallSiteLoc):
        _names(loc.callee, out)
    return out


def _loc_prefix(loc: Location) -> str:
    if isinstance(loc, UnknownLoc):
        return "<unknown>:0: "
    return f"{loc.full()}: "


class DiagnosticError(StrataError):
    """Raised to abort parsing, verification or a pass with a located diagnostic.
    `earlier` holds diagnostics emitted before it by the same failure (a custom parser
    that reports its own error after the one of the attribute it could not parse)."""

    def __init__(self, diag: Diagnostic, earlier=()):
        super().__init__(diag.message)
        self.diag = diag
        self.earlier = list(earlier)

    def __str__(self):
        return str(self.diag)


class SourceManager:
    """The text of each input buffer, for source lines and carets in diagnostics."""

    def __init__(self):
        self._buffers: dict[str, tuple[str, int]] = {}
        self._lines: dict[str, list[str]] = {}

    def add(self, name: str, text: str, line_offset: int = 0) -> None:
        """Register `text`; `line_offset` is the line of its first line minus one
        (used for --split-input-file chunks, which report lines of the whole file)."""
        self._buffers[name] = (text, line_offset)
        self._lines.pop(name, None)

    def line_text(self, name: str, line: int) -> str | None:
        if name not in self._buffers:
            return None
        lines = self._lines.get(name)
        if lines is None:
            text, off = self._buffers[name]
            lines = self._lines[name] = [""] * off + text.split("\n")
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return None


class DiagnosticEngine:
    """Collects diagnostics emitted while processing one input."""

    def __init__(self, handler=None):
        self.handler = handler
        self.diagnostics: list[Diagnostic] = []

    def emit(self, diag: Diagnostic) -> None:
        if self.handler is not None:
            self.handler(diag)
        else:
            self.diagnostics.append(diag)

    @property
    def had_error(self):
        return any(d.severity == ERROR for d in self.diagnostics)


_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)(-re)? *(@([+-][0-9]+|above|below|unknown))? *"
    r"\{\{(.*)\}\}$")
_RE_PART = re.compile(r"\{\{(.*?)\}\}")


class _Expected:
    __slots__ = ("severity", "line", "message", "regex", "matched", "where", "unknown")

    def __init__(self, severity, line, message, regex, where, unknown=False):
        self.severity = severity
        self.line = line          # the line it expects a diagnostic on (None: @below unmet)
        self.message = message
        self.regex = regex
        self.matched = False
        self.where = where        # FileLineColLoc of the `expected-` annotation
        self.unknown = unknown

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.message in message


def _compile_re(message: str):
    """`expected-error-re {{text {{regex}} text}}`: literal text, regex inside braces."""
    parts = []
    pos = 0
    for m in _RE_PART.finditer(message):
        parts.append(re.escape(message[pos:m.start()]))
        parts.append(m.group(1))
        pos = m.end()
    parts.append(re.escape(message[pos:]))
    return re.compile("".join(parts))


class VerifyDiagnostics:
    """`--verify-diagnostics`: checks the diagnostics of one input file against its
    `expected-*` annotations, as mlir-opt does.

    An annotation names a severity, a line (its own; `@+N`/`@-N`; `@above`, the previous
    line without an annotation; `@below`, the next line without an annotation;
    `@unknown` for a diagnostic without a file location) and a text the diagnostic's
    message must contain (`expected-error-re`: with `{{regex}}` parts). Each annotation
    matches one diagnostic (an `@unknown` one, every diagnostic it matches). A diagnostic that
    matches none is reported at once (`unexpected error: ...`, or `'error' diagnostic
    emitted when expecting a 'warning'` when only the severity differs); annotations
    never matched are reported by `finish()`, after all chunks. Either makes the run
    fail. Notes are matched like the diagnostics they are attached to.
    """

    def __init__(self, filename: str, sources: "SourceManager | None" = None, out=None):
        self.filename = filename
        self.sources = sources
        self.out = out
        self.expected: list[_Expected] = []
        self.unknown: list[_Expected] = []
        self.ok = True
        self.messages: list[str] = []  # what was reported (also written to `out`)

    def begin_chunk(self, text: str, line_offset: int = 0, col_offset: int = 0) -> None:
        """Read the annotations of a chunk that starts after `line_offset` lines."""
        pending_below = []
        last_plain = line_offset  # the last line without an annotation
        for i, raw in enumerate(text.split("\n")):
            lineno = i + 1 + line_offset
            line = raw.rstrip()
            m = _EXPECTED.search(line)
            if m is None:
                for e in pending_below:
                    e.line = lineno
                pending_below = []
                last_plain = lineno
                continue
            sev, is_re, _, where, msg = m.groups()
            col = m.start() + 1 + (col_offset if i == 0 else 0)
            loc = FileLineColLoc(self.filename, lineno, col)
            e = _Expected(sev, lineno, msg, _compile_re(msg) if is_re else None, loc)
            if where == "above":
                # the previous line without an annotation, as mlir-opt
                e.line = last_plain
            elif where == "below":
                e.line = None
                pending_below.append(e)
            elif where == "unknown":
                e.unknown = True
                self.unknown.append(e)
                continue
            elif where is not None:
                e.line = lineno + int(where)
            self.expected.append(e)

    def handle(self, diag: Diagnostic) -> None:
        self._process(diag)
        for n in diag.notes:
            self._process(n)

    def _process(self, diag: Diagnostic) -> None:
        flc = diag.loc.file_line_col()
        if flc is None or flc.filename != self.filename:
            # as mlir-opt, an @unknown annotation takes every diagnostic it matches (a
            # region builder warns once per operand it cannot cast)
            for e in self.unknown:
                if e.severity == diag.severity and e.matches(diag.message):
                    e.matched = True
                    return
            self._report(Diagnostic(ERROR, diag.loc,
                                    f"unexpected {diag.severity}: {diag.message}"))
            return
        near = None
        for e in self.expected:
            if e.line == flc.line and e.matches(diag.message):
                if e.severity == diag.severity:
                    if not e.matched:
                        e.matched = True
                        return
                else:
                    near = e
        if near is not None:
            self._report(Diagnostic(ERROR, near.where,
                                    f"'{diag.severity}' diagnostic emitted when expecting "
                                    f"a '{near.severity}'"))
            return
        self._report(Diagnostic(ERROR, flc, f"unexpected {diag.severity}: {diag.message}"))

    def _report(self, d: Diagnostic, text: str | None = None) -> None:
        self.ok = False
        if text is None:
            text = d.render(self.sources)
        self.messages.append(text)
        if self.out is not None:
            self.out.write(text + "\n")

    def finish(self) -> bool:
        """Report the annotations that matched nothing; returns whether all went well."""
        for e in self.expected:
            if e.matched:
                continue
            d = Diagnostic(ERROR, e.where,
                           f'expected {e.severity} "{e.message}" was not produced')
            text = d.render(None)
            line = self.sources.line_text(self.filename, e.where.line) \
                if self.sources is not None else None
            if line is not None:
                # mlir-opt underlines as many characters as the expected text has.
                text += "\n" + line + "\n" + " " * (e.where.col - 1) + "^" + \
                    "~" * max(len(e.message) - 1, 0)
            self._report(d, text)
        # mlir-opt reports an unmet @unknown annotation twice; kept for identical output.
        for _ in range(2):
            for e in self.unknown:
                if not e.matched:
                    self._report(Diagnostic(ERROR, None, f'expected {e.severity} '
                                                         f'"{e.message}" was not produced'))
        return self.ok


def located(filename: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(filename, line, col)
