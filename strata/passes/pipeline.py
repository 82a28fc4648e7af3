"""The textual pass pipeline syntax of `mlir-opt --pass-pipeline=...`:

    builtin.module(func.func(canonicalize{max-iterations=3 region-simplify=disabled},cse),symbol-dce)

An element with parentheses is a pass manager nested on that op name (`any` for any op);
an element without is a pass, with options in braces.
"""
from __future__ import annotations

import re

from .pass_manager import PassManager

__all__ = ["parse_pipeline", "parse_options", "PipelineError"]


class PipelineError(ValueError):
    pass


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*")


def parse_options(text: str):
    """`key=value key2={a b} key3="x y" flag` -> [(key, value)]."""
    out = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            break
        j = i
        while j < n and text[j] not in "= \t":
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
            k = j
            while k < n and text[k] not in " \t":
                k += 1
            out.append((key, text[j:k]))
            i = k
    return out


def parse_pipeline(text: str, registry=None, root_anchor: str | None = None) -> PassManager:
    """Parse a pipeline. Without a root anchor, `builtin.module(...)` (or any op
    name) at the top becomes the returned manager's anchor."""
    from .registry import get_pass_class
    lookup = registry or get_pass_class
    p = _PipelineParser(text, lookup)
    elements = p.parse_list(top=True)
    p.skip_ws()
    if p.i != len(text):
        raise PipelineError(f"unexpected '{text[p.i:]}' in pass pipeline")
    if len(elements) == 1 and isinstance(elements[0], PassManager) and root_anchor is None:
        return elements[0]
    pm = PassManager(root_anchor)
    pm.passes = elements
    return pm


class _PipelineParser:
    def __init__(self, text, lookup):
        self.text = text
        self.i = 0
        self.lookup = lookup

    def skip_ws(self):
        while self.i < len(self.text) and self.text[self.i] in " \t\n":
            self.i += 1

    def parse_list(self, top=False):
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

    def parse_element(self):
        m = _NAME.match(self.text, self.i)
        if m is None:
            raise PipelineError(f"expected pass or op name at '{self.text[self.i:]}'")
        name = m.group(1)
        self.i = m.end()
        options = None
        if self.i < len(self.text) and self.text[self.i] == "{":
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
                raise PipelineError("unbalanced '{' in pass options")
            options = self.text[self.i + 1:j]
            self.i = j + 1
            self.skip_ws()
        if self.i < len(self.text) and self.text[self.i] == "(":
            if options is not None:
                raise PipelineError(f"op anchor '{name}' cannot take options")
            self.i += 1
            pm = PassManager(None if name == "any" else name)
            pm.passes = self.parse_list()
            self.skip_ws()
            if self.i >= len(self.text) or self.text[self.i] != ")":
                raise PipelineError(f"expected ')' to close '{name}('")
            self.i += 1
            return pm
        cls = self.lookup(name)
        if cls is None:
            raise PipelineError(f"'{name}' does not refer to a registered pass or pass "
                                "pipeline")
        try:
            return cls.from_options_text(options or "")
        except ValueError as e:
            raise PipelineError(str(e))
