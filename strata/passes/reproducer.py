"""Reproducers: the IR a pipeline failed on and the pipeline, in one re-runnable file.

The format is mlir-opt's: the IR, then an `external_resources` section that records the
pipeline, so that `strata-opt --run-reproducer file.mlir` (or `iree-opt
--run-reproducer`) runs the same pipeline on the same input:

    module { ... }

    {-#
      external_resources: {
        mlir_reproducer: {
          pipeline: "builtin.module(func.func(canonicalize{...}))",
          disable_threading: true,
          verify_each: true
        }
      }
    #-}
"""
from __future__ import annotations

import os
import re
import tempfile

from ..ir.attributes import escape_string

__all__ = ["reproducer_text", "write_reproducer", "read_reproducer_config"]


def reproducer_text(ir_text: str, pipeline_text: str, verify_each: bool = True) -> str:
    return (f"{ir_text.rstrip()}\n\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n"
            f"      pipeline: \"{escape_string(pipeline_text)}\",\n"
            f"      disable_threading: true,\n"
            f"      verify_each: {'true' if verify_each else 'false'}\n    }}\n  }}\n#-}}\n")


def write_reproducer(ir_text: str, pipeline_text: str, path: str | None = None,
                     verify_each: bool = True) -> str:
    """Write the reproducer to `path` (a fresh temporary file when None); returns the
    path. Raises OSError when the file cannot be written."""
    if path is None:
        fd, path = tempfile.mkstemp(prefix="strata-reproducer-", suffix=".mlir")
        os.close(fd)
    with open(path, "w") as f:
        f.write(reproducer_text(ir_text, pipeline_text, verify_each))
    return path


_SECTION = re.compile(r"mlir_reproducer\s*:\s*\{")


def read_reproducer_config(text: str) -> dict | None:
    """{"pipeline": str, "verify_each": bool, "disable_threading": bool} from the
    `mlir_reproducer` entry of a file's external_resources, or None when there is none.
    Raises ValueError when the entry is malformed."""
    start = text.rfind("{-#")
    while start >= 0:
        end = text.find("#-}", start)
        m = _SECTION.search(text, start, end if end >= 0 else len(text))
        if m is not None:
            return _parse_entries(text, m.end())
        start = text.rfind("{-#", 0, start)
    return None


def _parse_entries(text: str, i: int) -> dict:
    from ..syntax.lexer import unescape
    out = {}
    n = len(text)
    while True:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n:
            raise ValueError("unterminated 'mlir_reproducer' entry")
        if text[i] == "}":
            break
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(text, i)
        if m is None:
            raise ValueError("expected a key in the 'mlir_reproducer' entry")
        key = m.group(0)
        i = m.end()
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n or text[i] != ":":
            raise ValueError(f"expected ':' after '{key}' in the 'mlir_reproducer' entry")
        i += 1
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i < n and text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                raise ValueError(f"unterminated string for '{key}'")
            out[key] = unescape(text[i + 1:j])
            i = j + 1
        else:
            m = re.compile(r"[A-Za-z0-9_]+").match(text, i)
            if m is None:
                raise ValueError(f"expected a value for '{key}'")
            v = m.group(0)
            out[key] = {"true": True, "false": False}.get(v, v)
            i = m.end()
    if "pipeline" not in out:
        raise ValueError("the 'mlir_reproducer' entry has no 'pipeline'")
    out.setdefault("verify_each", True)
    out.setdefault("disable_threading", False)
    return out
