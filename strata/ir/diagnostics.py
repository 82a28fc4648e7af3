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

from .location import FileLineColLoc, Location, UnknownLoc

__all__ = ["ERROR", "WARNING", "REMARK", "NOTE", "Diagnostic", "DiagnosticError",
           "SourceManager", "VerifyDiagnostics", "DiagnosticEngine"]

ERROR, WARNING, REMARK, NOTE = "error", "warning", "remark", "note"


class Diagnostic:
    __slots__ = ("severity", "loc", "message", "notes")

    def __init__(self, severity: str, loc: Location | None, message: str, notes=None):
        self.severity = severity
        self.loc = loc if loc is not None else UnknownLoc()
        self.message = message
        self.notes = list(notes) if notes else []

    def attach_note(self, message: str, loc: Location | None = None) -> "Diagnostic":
        self.notes.append(Diagnostic(NOTE, loc if loc is not None else self.loc, message))
        return self

    def __str__(self):
        return self.render(None)

    def render(self, sources: "SourceManager | None") -> str:
        out = [_render_one(self, sources)]
        prev = _resolved(self.loc)
        for n in self.notes:
            # Like mlir-opt, a note repeats the source line only where it moved.
            loc = _resolved(n.loc)
            out.append(_render_one(n, sources if loc != prev else None))
            prev = loc
        return "\n".join(out)


def _resolved(loc):
    return loc.resolve() if hasattr(loc, "resolve") else loc


def _render_one(d: Diagnostic, sources) -> str:
    flc = d.loc.file_line_col()
    if flc is None:
        return f"{_loc_prefix(d.loc)}{d.severity}: {d.message}"
    head = f"{flc.filename}:{flc.line}:{flc.col}: {d.severity}: {d.message}"
    if sources is not None:
        line = sources.line_text(flc.filename, flc.line)
        if line is not None:
            caret = " " * max(flc.col - 1, 0) + "^"
            return f"{head}\n{line}\n{caret}"
    return head


def _loc_prefix(loc: Location) -> str:
    if isinstance(loc, UnknownLoc):
        return "<unknown>:0: "
    return f"{loc.full()}: "


class DiagnosticError(Exception):
    """Raised to abort parsing, verification or a pass with a located diagnostic."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag

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
    r"expected-(error|warning|note|remark)\s*(?:(@[+-][0-9]+|@above|@below|@unknown))?"
    r"\s*(?:\*([0-9]+))?\s*\{\{(.*?)\}\}")


class _Expected:
    __slots__ = ("severity", "line", "message", "count", "seen", "src_line", "unknown")

    def __init__(self, severity, line, message, count, src_line, unknown=False):
        self.severity = severity
        self.line = line
        self.message = message
        self.count = count
        self.seen = 0
        self.src_line = src_line
        self.unknown = unknown


class VerifyDiagnostics:
    """Checks emitted diagnostics against `expected-*` annotations in one buffer.

    Matching follows mlir-opt: the annotation names a severity, a line (its own, or
    relative with @+N / @-N / @above / @below, or @unknown for unlocated ones) and a
    message that must be a substring of the diagnostic's message.
    """

    def __init__(self, filename: str, text: str, line_offset: int = 0):
        self.filename = filename
        self.expected: list[_Expected] = []
        self.unexpected: list[Diagnostic] = []
        pending_below = []
        lines = text.split("\n")
        for i, line in enumerate(lines):
            lineno = i + 1 + line_offset
            for m in _EXPECTED.finditer(line):
                sev, where, count, msg = m.groups()
                count = int(count) if count else 1
                unknown = False
                if where is None:
                    target = lineno
                elif where == "@above":
                    target = lineno - 1
                elif where == "@below":
                    e = _Expected(sev, None, msg, count, lineno)
                    pending_below.append(e)
                    self.expected.append(e)
                    continue
                elif where == "@unknown":
                    target, unknown = None, True
                else:
                    target = lineno + int(where[1:])
                self.expected.append(_Expected(sev, target, msg, count, lineno, unknown))
            if pending_below and "expected-" not in line.split("//")[0] \
                    and not line.lstrip().startswith("//"):
                for e in pending_below:
                    e.line = lineno
                pending_below = []
        for e in pending_below:  # @below on the last line: never matches
            e.line = -1

    def handle(self, diag: Diagnostic) -> None:
        self._match(diag)
        for n in diag.notes:
            self._match(n)

    def _match(self, diag: Diagnostic) -> None:
        flc = diag.loc.file_line_col()
        for e in self.expected:
            if e.severity != diag.severity or e.seen >= e.count:
                continue
            if e.unknown:
                if flc is not None and flc.filename == self.filename:
                    continue
            elif flc is None or flc.filename != self.filename or flc.line != e.line:
                continue
            if e.message in diag.message:
                e.seen += 1
                return
        self.unexpected.append(diag)

    def errors(self) -> list[str]:
        """Messages describing every mismatch, empty when all matched."""
        out = []
        for d in self.unexpected:
            flc = d.loc.file_line_col()
            where = f"{flc.filename}:{flc.line}:{flc.col}: " if flc else ""
            out.append(f"{where}error: unexpected {d.severity}: {d.message}")
        for e in self.expected:
            if e.seen < e.count:
                out.append(f"{self.filename}:{e.src_line}: error: expected {e.severity} "
                           f"\"{e.message}\" was not produced")
        return out


def located(filename: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(filename, line, col)
