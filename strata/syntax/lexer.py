"""The lexer of the MLIR textual format.

[Note: one regex, current-token state]
Tokens are not materialized as objects: the lexer keeps the current token in three
fields (`kind`, `tok`, `tok_start`) and `_next()` matches one master regular expression
at the current offset. The regex begins with the whitespace/comment skipper so that one
`match` call both skips trivia and recognizes the next token; `lastindex` tells which
alternative matched. This is the fastest tokenizer Python offers without C code.
"""
from __future__ import annotations

import bisect
import re

from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.location import FileLineColLoc, Location, wrong_token_offset

__all__ = ["Lexer", "SourceLoc", "EOF", "PERCENT", "CARET", "AT", "HASH", "EXCL", "FLOAT",
           "INT", "BARE", "STRING", "PUNCT", "AT_STRING"]

(PERCENT, CARET, AT, HASH, EXCL, FLOAT, INT, BARE, STRING, PUNCT, AT_STRING, HASH_STRING,
 EXCL_STRING, BAD) = range(1, 15)
EOF = 0

# A suffix-id: all digits, or a letter or one of `$._-` followed by those or digits.
_ID = r"(?:[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"
_TOKEN_RE = re.compile(
    r"(?:[ \t\r\n]+|//[^\n]*)*"
    r"(?:"
    rf"(%{_ID})"                                   # 1 value id
    rf"|(\^{_ID})"                                 # 2 block id
    r"|(@[A-Za-z_][A-Za-z0-9_$.]*)"                 # 3 symbol
    rf"|(#(?!-\}}){_ID})"                           # 4 attribute alias / dialect attr
    rf"|(!{_ID})"                                  # 5 type alias / dialect type
    r"|([0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)"       # 6 float
    r"|(0x[0-9a-fA-F]+|[0-9]+)"                    # 7 integer
    r"|([A-Za-z_][A-Za-z0-9_$.]*)"                 # 8 bare identifier / keyword
    r'|("(?:[^"\\\n]|\\.)*")'                      # 9 string
    r"|(->|::|\.\.\.|\{-\#|\#-\}|[(){}\[\]<>:,=?*+\-|])"  # 10 punctuation
    r'|(@"(?:[^"\\\n]|\\.)*")'                     # 11 quoted symbol
    r'|(\#"(?:[^"\\\n]|\\.)*")'                    # 12 quoted attribute alias
    r'|(!"(?:[^"\\\n]|\\.)*")'                     # 13 quoted type alias
    r"|(.)"                                        # 14 anything else
    r")?", re.S)

_HEX = frozenset("0123456789abcdefABCDEF")
_ESCAPE_RE = re.compile(r'\\(?:([0-9a-fA-F]{2})|(.))', re.S)
_SIMPLE_ESC = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def int_literal(tok: str) -> int:
    """The value of an integer token: decimal (leading zeros allowed) or 0x hex."""
    return int(tok, 16) if tok[:2] in ("0x", "0X") else int(tok)


def unescape(body: str) -> str:
    """Decode the body of a string literal: \\n \\t \\" \\\\ and \\XX hex bytes."""
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    for m in _ESCAPE_RE.finditer(body):
        out += body[i:m.start()].encode("utf-8")
        hx, ch = m.groups()
        if hx is not None:
            out.append(int(hx, 16))
        elif ch in _SIMPLE_ESC:
            out += _SIMPLE_ESC[ch].encode()
        else:
            raise ValueError(f"unknown escape in string literal: \\{ch}")
        i = m.end()
    out += body[i:].encode("utf-8")
    return out.decode("utf-8", "surrogateescape")


class Source:
    """One input buffer: its name, text, and line starts for offset -> line:col."""

    __slots__ = ("name", "text", "line_offset", "col_offset", "_starts", "loc_class")

    def __init__(self, name: str, text: str, line_offset: int = 0, col_offset: int = 0):
        # A --split-input-file chunk starts inside its file: after `line_offset` lines,
        # and its first line after `col_offset` columns (the text after the marker).
        self.name = name
        self.text = text
        self.line_offset = line_offset
        self.col_offset = col_offset
        self._starts = None
        # Locations into this buffer are instances of a subclass that knows the buffer,
        # so that each op's location object holds just an offset.
        self.loc_class = type("SourceLoc", (SourceLoc,), {"__slots__": (), "src": self})

    def line_col(self, offset: int):
        starts = self._starts
        if starts is None:
            starts = [0]
            text = self.text
            i = text.find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = text.find("\n", i + 1)
            self._starts = starts
        line = bisect.bisect_right(starts, offset)
        ls = starts[line - 1]
        col = offset - ls + 1
        seg = self.text[ls:offset]
        if not seg.isascii():  # MLIR counts columns in bytes
            col = len(seg.encode("utf-8", "surrogatepass")) + 1
        if line == 1:
            col += self.col_offset
        return line + self.line_offset, col


class SourceLoc(Location):
    """A file location resolved lazily from a buffer offset.

    The parser gives every op a location; creating a uniqued FileLineColLoc per op would
    cost a hash-table entry each, so ops hold this small object instead and it resolves
    to (and compares equal to) the uniqued FileLineColLoc on demand."""

    __slots__ = ("offset",)
    src: Source  # set on the per-buffer subclass (see Source.loc_class): saves a slot

    def __new__(cls, src: Source, offset: int):
        o = object.__new__(src.loc_class)
        o._str = None
        o.offset = offset
        return o

    def resolve(self) -> FileLineColLoc:
        line, col = self.src.line_col(self.offset)
        return FileLineColLoc(self.src.name, line, col)

    def _print(self):
        return str(self.resolve())

    def file_line_col(self):
        return self.resolve()

    def __eq__(self, other):
        if isinstance(other, SourceLoc):
            return self.src is other.src and self.offset == other.offset
        return self.resolve() is other

    def __hash__(self):
        return hash(self.resolve())


class Lexer:
    """Tokenizer state shared by the type, attribute and op parsers."""

    def __init__(self, text: str, filename: str = "<stdin>", line_offset: int = 0,
                 col_offset: int = 0):
        self.text = text
        self.src = Source(filename, text, line_offset, col_offset)
        self.pos = 0
        self.kind = EOF
        self.tok = ""
        self.tok_start = 0
        self._match = _TOKEN_RE.match
        self._next()

    # ------------------------------------------------------------------ tokens

    def _next(self):
        m = self._match(self.text, self.pos)
        k = m.lastindex
        if k is None:
            self.kind = EOF
            self.tok = ""
            self.tok_start = self.pos = m.end()
            return
        self.kind = k
        self.tok = m.group(k)
        self.tok_start = m.start(k)
        self.pos = m.end()
        if k >= 9 and k != PUNCT:
            if k == BAD:
                self._bad_char()
            elif k == HASH_STRING:
                self.error("invalid attribute name", self.tok_start)
            elif k == EXCL_STRING:
                self.error("invalid type identifier", self.tok_start)
            elif "\\" in self.tok:
                self._check_escapes()

    def _bad_char(self):
        """The lexer errors of MLIR, worded and placed as upstream."""
        c = self.tok
        at = self.tok_start
        if c == '"':
            self._unterminated(at)
        if c == "@":
            if self.text.startswith('"', at + 1):
                self._unterminated(at + 1)
            self.error("@ identifier expected to start with letter or '_'", at + 1)
        named = {"%": "invalid SSA name", "^": "invalid block name",
                 "#": "invalid attribute name", "!": "invalid type identifier"}
        if c in named:
            self.error(named[c], at)
        if c == ".":
            self.error("expected three consecutive dots for an ellipsis", at + 1)
        self.error("unexpected character", at)

    def _unterminated(self, quote):
        text = self.text
        i = quote + 1
        n = len(text)
        while i < n and text[i] not in '"\n\v\f':
            i += 2 if text[i] == "\\" else 1
        self.error("expected '\"' in string literal", min(i, n))

    def _check_escapes(self):
        tok = self.tok
        i = tok.find("\\")
        while i >= 0:
            c = tok[i + 1:i + 2]
            if c in ('"', "\\", "n", "t"):
                i = tok.find("\\", i + 2)
            elif len(tok) > i + 2 and c in _HEX and tok[i + 2] in _HEX:
                i = tok.find("\\", i + 3)
            else:
                self.error("unknown escape in string literal", self.tok_start + i)

    def reset_to(self, offset: int):
        """Re-lex from `offset` (used to split `4x8xf32` dimension lists)."""
        self.pos = offset
        self._next()

    # ------------------------------------------------------------------ locations

    def loc_at(self, offset: int) -> SourceLoc:
        return SourceLoc(self.src, offset)

    def cur_loc(self) -> SourceLoc:
        return SourceLoc(self.src, self.tok_start)

    def token_offset(self) -> int:
        """Where upstream reports an error at the current token: its start, or the
        buffer's last character for the end of the input."""
        if self.kind == EOF and self.tok_start > 0:
            return self.tok_start - 1
        return self.tok_start

    def error(self, message: str, offset: int | None = None):
        """Raise a located error, at `offset` or else at the current token; an
        "expected ..." error about the current token is placed like upstream's
        emitWrongTokenError (see `wrong_token_offset`)."""
        if offset is None:
            offset = self.wrong_token_offset() if message.startswith("expected") else \
                self.token_offset()
        raise DiagnosticError(Diagnostic(ERROR, SourceLoc(self.src, offset).resolve(), message))

    def wrong_token_offset(self) -> int:
        """Where MLIR reports a wrong token: right after the text that precedes it,
        skipping blanks, line ends and `//` comments, so that a missing `:` at the end
        of a line is reported on that line, not on the next one."""
        orig = self.tok_start
        if self.kind == EOF and orig > 0:
            orig -= 1
        return wrong_token_offset(self.text, orig)

    # ------------------------------------------------------------------ helpers

    def at(self, spelling: str) -> bool:
        return self.tok == spelling and (self.kind == PUNCT or self.kind == BARE)

    def consume_if(self, spelling: str) -> bool:
        if self.tok == spelling and (self.kind == PUNCT or self.kind == BARE):
            self._next()
            return True
        return False

    def expect(self, spelling: str, what: str | None = None):
        if self.tok == spelling and (self.kind == PUNCT or self.kind == BARE):
            self._next()
            return
        self.error(f"expected '{spelling}'" + (f" {what}" if what else ""))

    def token_desc(self) -> str:
        return "end of file" if self.kind == EOF else f"'{self.tok}'"
