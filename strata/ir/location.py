"""Locations: uniqued attributes that say where an op came from.

`str(loc)` gives the form printed inside `loc(...)`; `loc.full()` the whole `loc(...)`.
"""
from __future__ import annotations

from .attributes import Attribute, escape_string, unique

__all__ = ["Location", "UnknownLoc", "FileLineColLoc", "NameLoc", "CallSiteLoc", "FusedLoc"]


class Location(Attribute):
    __slots__ = ()
    is_location = True

    def full(self) -> str:
        return f"loc({self})"

    def file_line_col(self):
        """The first file:line:col found in this location, or None."""
        return None


class UnknownLoc(Location):
    __slots__ = ()

    def __new__(cls):
        return unique(cls, (), lambda o: None)

    def _print(self):
        return "unknown"


class FileLineColLoc(Location):
    """`"file":line:col`, or a range `"file":l:c to l2:c2` (`to :c2` on one line)."""

    __slots__ = ("filename", "line", "col", "end_line", "end_col")

    def __new__(cls, filename: str, line: int, col: int, end_line=None, end_col=None):
        if end_line == line and end_col == col:
            end_line = end_col = None

        def init(o):
            o.filename = filename
            o.line = line
            o.col = col
            o.end_line = end_line
            o.end_col = end_col
        return unique(cls, (filename, line, col, end_line, end_col), init)

    def _print(self):
        s = f'"{escape_string(self.filename)}":{self.line}:{self.col}'
        if self.end_col is not None:
            if self.end_line is None or self.end_line == self.line:
                s += f" to :{self.end_col}"
            else:
                s += f" to {self.end_line}:{self.end_col}"
        return s

    def file_line_col(self):
        return self


class NameLoc(Location):
    __slots__ = ("name", "child")

    def __new__(cls, name: str, child: Location | None = None):
        if child is None:
            child = UnknownLoc()

        def init(o):
            o.name = name
            o.child = child
        return unique(cls, (name, child), init)

    def _print(self):
        s = f'"{escape_string(self.name)}"'
        if not isinstance(self.child, UnknownLoc):
            s += f"({self.child})"
        return s

    def file_line_col(self):
        return self.child.file_line_col()


class CallSiteLoc(Location):
    __slots__ = ("callee", "caller")

    def __new__(cls, callee: Location, caller: Location):
        def init(o):
            o.callee = callee
            o.caller = caller
        return unique(cls, (callee, caller), init)

    def _print(self):
        return f"callsite({self.callee} at {self.caller})"

    def file_line_col(self):
        return self.callee.file_line_col() or self.caller.file_line_col()


class FusedLoc(Location):
    __slots__ = ("locations", "metadata")

    def __new__(cls, locations, metadata=None):
        # As MLIR's FusedLoc::get: nested fused locations with the same metadata are
        # flattened, unknown ones and duplicates dropped; fewer than two locations
        # without metadata are no fusion at all.
        flat = []
        for loc in locations:
            if isinstance(loc, FusedLoc) and loc.metadata is metadata:
                parts = loc.locations
            elif isinstance(loc, UnknownLoc):
                continue
            else:
                parts = (loc,)
            for p in parts:
                if p not in flat:
                    flat.append(p)
        if not flat:
            if metadata is None:
                return UnknownLoc()
            flat = [UnknownLoc()]
        elif len(flat) == 1 and metadata is None:
            return flat[0]
        locations = tuple(flat)

        def init(o):
            o.locations = locations
            o.metadata = metadata
        return unique(cls, (locations, metadata), init)

    def _print(self):
        md = ""
        if self.metadata is not None:
            # The metadata is an attribute: a location there prints as one, `loc(...)`
            # (or its alias), not as the bare body a location list holds.
            md = str(self.metadata)
            if isinstance(self.metadata, Location) and md[:1] not in ("#", "\x00"):
                md = f"loc({md})"
            md = f"<{md}>"
        return f"fused{md}[" + ", ".join(map(str, self.locations)) + "]"

    def file_line_col(self):
        for loc in self.locations:
            flc = loc.file_line_col()
            if flc is not None:
                return flc
        return None


def wrong_token_offset(text: str, offset: int) -> int:
    """Where upstream's parser reports a token that is missing before `offset` (its
    emitWrongTokenError): right after the text that precedes it, skipping back over
    blanks, line ends and `//` comments, so that a `:` missing at the end of a line is
    reported on that line. A `//` inside a string literal starts no comment."""
    i = offset
    while True:
        while i > 0 and text[i - 1] in " \t":
            i -= 1
        if i == 0:
            return offset
        if text[i - 1] not in "\n\r":
            return i
        i -= 1
        line_start = max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1
        c = _comment_start(text, line_start, i)
        if c >= 0:
            i = c


def _comment_start(text: str, start: int, end: int) -> int:
    """The offset of the `//` that starts a comment in text[start:end], or -1."""
    in_string = False
    j = start
    while j < end:
        ch = text[j]
        if in_string:
            if ch == "\\":
                j += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "/" and text.startswith("//", j):
            return j
        j += 1
    return -1
