"""The textual pass pipeline syntax of `mlir-opt --pass-pipeline=...`:

    builtin.module(func.func(canonicalize{max-iterations=3 top-down=false},cse),symbol-dce)

An element with parentheses is a pass manager nested on that op name (`any` for any op
isolated from above); an element without is a pass, with options in braces. A pipeline
given to strata-opt must be wrapped in its anchor (`builtin.module(...)`), as upstream;
`parse_pipeline(text, root_anchor="func.func")` parses a bare list into a manager
anchored there instead.
"""
from __future__ import annotations

import re

from .pass_manager import Pass, PassManager

__all__ = ["parse_pipeline", "parse_options", "PipelineError"]


class PipelineError(ValueError):
    """A malformed pipeline; `str()` is the message, `render()` adds the text and a
    caret under the offending column (like upstream's pipeline parser)."""

    def __init__(self, message: str, text: str = "", pos: int | None = None):
        super().__init__(message)
        self.message = message
        self.text = text
        self.pos = pos

    def render(self) -> str:
        if self.pos is None or not self.text:
            return self.message
        return (f"MLIR Textual PassPipeline Parser:1:{self.pos + 1}: error: {self.message}\n"
                f"{self.text}\n{' ' * self.pos}^")


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*")


def parse_options(text: str):
    """`key=value key2={a b} key3="x y" flag` -> [(key, value)]."""
    out = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            break
        j = i
        while j < n and text[j] not in "= \t\n":
            j += 1
        key = text[i:j]
        if j >= n or text[j] != "=":
            out.append((key, "true"))  # a bare flag
            i = j
            continue
        j += 1
        if j < n and text[j] in "\"'":
            k = text.find(text[j], j + 1)
            if k < 0:
                raise PipelineError(f"unterminated quoted value in '{text}'")
            out.append((key, text[j + 1:k]))
            i = k + 1
        elif j < n and text[j] == "{":
            depth, k = 0, j
            while k < n:
                depth += {"{": 1, "}": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k += 1
            if k >= n:
                raise PipelineError(f"unbalanced '{{' in option value in '{text}'")
            out.append((key, text[j + 1:k]))
            i = k + 1
        else:
            # A plain value runs to the next space, but braces in it nest (a pipeline
            # given as an option value: `default-pipeline=canonicalize{max-iterations=3}`).
            k, depth = j, 0
            while k < n and (depth or text[k] not in " \t\n"):
                if text[k] == "{":
                    depth += 1
                elif text[k] == "}":
                    depth -= 1
                k += 1
            out.append((key, text[j:k]))
            i = k
    return out


def parse_pipeline(text: str, registry=None, root_anchor: str | None = None) -> PassManager:
    """Parse a pipeline into a PassManager.

    Without `root_anchor` the text must be one `anchor(...)` element, which becomes the
    manager (as `--pass-pipeline` requires); with it, the text is a bare list of passes
    and nested managers for a manager anchored on `root_anchor` ("any" for None)."""
    from .registry import get_pass_class
    lookup = registry or get_pass_class
    p = _PipelineParser(text, lookup)
    if root_anchor is None:
        p.skip_ws()
        m = _NAME.match(text, p.i)
        end = m.end() if m else p.i
        if m is None or end >= len(text) or text[end] != "(" or not text.rstrip().endswith(")"):
            raise PipelineError("expected pass pipeline to be wrapped with the anchor "
                                "operation type, e.g. 'builtin.module(...)'")
        pm = p.parse_element()
        p.skip_ws()
        if p.i != len(text):
            raise PipelineError(f"unexpected '{text[p.i:]}' after the pass pipeline", text,
                                p.i)
        return pm
    pm = PassManager(None if root_anchor == "any" else root_anchor)
    for e in p.parse_list():
        p.add_to(pm, e)
    p.skip_ws()
    if p.i != len(text):
        raise PipelineError(f"unexpected '{text[p.i:]}' in pass pipeline", text, p.i)
    return pm


class _PipelineParser:
    def __init__(self, text, lookup):
        self.text = text
        self.i = 0
        self.lookup = lookup

    def error(self, message, pos=None):
        raise PipelineError(message, self.text, self.i if pos is None else pos)

    def skip_ws(self):
        while self.i < len(self.text) and self.text[self.i] in " \t\n":
            self.i += 1

    def parse_list(self):
        out = []
        self.skip_ws()
        if self.i < len(self.text) and self.text[self.i] == ")":
            return out
        while True:
            out.append(self.parse_element())
            self.skip_ws()
            if self.i < len(self.text) and self.text[self.i] == ",":
                self.i += 1
                continue
            return out

    def add_to(self, pm: PassManager, element):
        try:
            pm.add(element)
        except ValueError as e:
            raise PipelineError(str(e)) from None

    def parse_element(self):
        m = _NAME.match(self.text, self.i)
        if m is None:
            self.skip_ws()
            self.error("expected pass or pipeline name")
        name = m.group(1)
        name_pos = m.start(1)
        self.i = m.end()
        options = None
        if self.i < len(self.text) and self.text[self.i] == "{":
            open_pos = self.i
            depth, j = 0, self.i
            while j < len(self.text):
                if self.text[j] == "{":
                    depth += 1
                elif self.text[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(self.text):
                self.error("missing closing '}' while processing pass options", open_pos)
            options = self.text[self.i + 1:j]
            self.i = j + 1
            self.skip_ws()
        if self.i < len(self.text) and self.text[self.i] == "(":
            if options is not None:
                self.error(f"op anchor '{name}' cannot take options", name_pos)
            open_pos = self.i
            self.i += 1
            pm = PassManager(None if name == "any" else name)
            for e in self.parse_list():
                self.add_to(pm, e)
            self.skip_ws()
            if self.i >= len(self.text) or self.text[self.i] != ")":
                self.error("encountered unbalanced parentheses while parsing pipeline",
                           open_pos)
            self.i += 1
            return pm
        cls = self.lookup(name)
        if cls is None:
            self.error(f"'{name}' does not refer to a registered pass or pass pipeline",
                       name_pos)
        try:
            return cls.from_options_text(options or "")
        except PipelineError as e:
            raise PipelineError(f"{e.message} (in the options of '{name}')", self.text,
                                name_pos) from None
        except ValueError as e:
            self.error(str(e), name_pos)


def pass_from_flag(name: str, options: str) -> Pass:
    """The pass of a `--name[=options]` flag; raises PipelineError."""
    from .registry import get_pass_class
    cls = get_pass_class(name)
    if cls is None:
        raise PipelineError(f"'{name}' does not refer to a registered pass")
    try:
        return cls.from_options_text(options)
    except ValueError as e:
        raise PipelineError(str(e)) from None
